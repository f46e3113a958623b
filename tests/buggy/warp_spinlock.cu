// A spin lock taken by the lanes of one warp.  The lane that wins leaves
// the spin loop and waits there for its warp to reconverge while the others
// spin on the lock it holds: without independent thread scheduling (before
// Volta, and in ptxsim, which runs a warp's lanes in lockstep) this never
// ends.  On Volta and later the winner runs ahead and the kernel completes.
#include "buggy.h"

__global__ void locked_count(int *lock, int *count)
{
    while (atomicCAS(lock, 0, 1) != 0)          // BUG: lanes of one warp contend for the lock
        ;
    *count += 1;
    __threadfence();
    atomicExch(lock, 0);
}

int main()
{
    int *lock, *count;
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(count, 0, sizeof(int));
    locked_count<<<1, 32>>>(lock, count);
    return expect_fault("warp_spinlock", cudaErrorLaunchTimeout);
}

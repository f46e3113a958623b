// A spin lock taken by the lanes of one warp.  The lane that wins leaves
// the spin loop and waits there for its warp to reconverge while the others
// spin on the lock it holds: on GPUs that run a warp's lanes in lockstep
// (before Volta; ptxsim run --lockstep) this never ends.  From Volta on,
// threads are scheduled independently, the winner runs ahead, and the
// kernel completes (ptxsim's default for --sm 70 and up); with "volta" the
// program checks that it did, and that every lane counted once.
#include "buggy.h"

#include <cstring>

__global__ void locked_count(int *lock, int *count)
{
    while (atomicCAS(lock, 0, 1) != 0)          // BUG: lanes of one warp contend for the lock
        ;
    *count += 1;
    __threadfence();
    atomicExch(lock, 0);
}

int main(int argc, char **argv)
{
    bool volta = argc > 1 && std::strcmp(argv[1], "volta") == 0;
    int *lock, *count;
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(count, 0, sizeof(int));
    locked_count<<<1, 32>>>(lock, count);
    if (!volta)
        return expect_fault("warp_spinlock", cudaErrorLaunchTimeout);
    cudaError_t e = cudaDeviceSynchronize();
    int n = -1;
    cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost);
    std::printf("warp_spinlock volta: %s (%d), count %d of 32\n", cudaGetErrorName(e), (int)e, n);
    return e == cudaSuccess && n == 32 ? 0 : 1;
}

// A loop whose exit condition never becomes true: the kernel never ends
// (ptxsim stops it at its instruction budget, --max-insts).
#include "buggy.h"

__global__ void wait_for_flag(volatile int *flag, int *out)
{
    while (*flag == 0)                          // BUG: nothing ever sets the flag
        ;
    out[threadIdx.x] = 1;
}

int main()
{
    int *flag, *out;
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    wait_for_flag<<<1, 32>>>(flag, out);
    return expect_fault("infinite_loop", cudaErrorLaunchTimeout);
}

// __syncthreads() inside a branch only some threads of a warp take: the
// threads that skip it never arrive, and the others wait for them forever.
#include "buggy.h"

__global__ void partial_sync(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 48)                       // BUG: the barrier is in divergent code
        __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

int main()
{
    int *out;
    cudaMalloc(&out, 64 * sizeof(int));
    partial_sync<<<1, 64>>>(out);
    return expect_fault("barrier_divergent", cudaErrorLaunchTimeout);
}

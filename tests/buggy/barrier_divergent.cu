// __syncthreads() inside a branch only some threads of a warp take.  CUDA
// allows it in conditional code only if the condition is the same across
// the block; otherwise the code "is likely to hang or produce unintended
// side effects".  In ptxsim, as on GPUs before Volta, a warp's lanes run in
// lockstep: the lanes that skip the barrier cannot run on while the rest of
// their warp waits there, so it never completes (on Volta and later they
// may run on and exit instead; the result is still undefined).
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

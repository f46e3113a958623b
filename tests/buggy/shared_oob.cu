// A stencil that reads its right neighbour from dynamic shared memory sized
// for exactly one value per thread: the last thread reads past the end of
// the block's shared memory (always checked: shared memory has no slack).
#include "buggy.h"

__global__ void right_neighbour(float *out, const float *in)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x + 1];   // BUG: thread 63 reads tile[64]
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    right_neighbour<<<1, 64, 64 * sizeof(float)>>>(out, in);
    return expect_fault("shared_oob", cudaErrorIllegalAddress);
}

// An off-by-one bound: the last thread writes one float past the end of
// the array (caught with --check memory; without it the write lands in the
// allocation's padding, as it would on a GPU).
#include "buggy.h"

__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)                                 // BUG: should be i < n
        out[i] = 2.0f * in[i % n];
}

int main()
{
    const int n = 1000;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(out, in, n);
    return expect_fault("oob_write", cudaErrorIllegalAddress);
}

// A shared array indexed past its end, in a program with a second kernel.
// The module lays both kernels' shared arrays out one after the other, so
// the overrun lands in the other kernel's array, inside shared memory;
// --check memory bounds shared accesses by the variables the kernel names.
#include "buggy.h"

__global__ void reverse_row(float *out, const float *in)
{
    __shared__ float row[32];
    if (threadIdx.x < 32)
        row[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = row[31 - threadIdx.x % 32] + row[threadIdx.x];  // BUG: 64 threads, 32 entries
}

__global__ void scale(float *out)
{
    __shared__ float factors[64];
    factors[threadIdx.x] = 0.5f * threadIdx.x;
    __syncthreads();
    out[threadIdx.x] *= factors[63 - threadIdx.x];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    scale<<<1, 64>>>(out);
    reverse_row<<<1, 64>>>(out, in);
    return expect_fault("shared_var_oob", cudaErrorIllegalAddress);
}

// A table in constant memory indexed past its end (caught with --check
// memory, which names the variable).
#include "buggy.h"

__constant__ float coeffs[16];

__global__ void apply(float *out)
{
    out[threadIdx.x] = coeffs[threadIdx.x];    // BUG: 32 threads, 16 coefficients
}

int main()
{
    float h[16] = {0};
    cudaMemcpyToSymbol(coeffs, h, sizeof h);
    float *out;
    cudaMalloc(&out, 32 * sizeof(float));
    apply<<<1, 32>>>(out);
    return expect_fault("const_oob", cudaErrorIllegalAddress);
}

// A float4 load through a pointer that is 4 bytes off a 16-byte boundary:
// ld.global.v4.f32 needs 16-byte alignment (cudaErrorMisalignedAddress).
#include "buggy.h"

__global__ void sum4(float *out, const float *in)
{
    const float4 *v = reinterpret_cast<const float4 *>(in + 1);  // BUG: in + 1 is not 16-byte aligned
    float4 x = v[threadIdx.x];
    out[threadIdx.x] = x.x + x.y + x.z + x.w;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 1024 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    sum4<<<1, 64>>>(out, in);
    return expect_fault("misaligned_load", cudaErrorMisalignedAddress);
}

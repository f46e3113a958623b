// Repro: cp.reduce.async.bulk (non-tensor) with the element types the PTX ISA lists besides
// 32/64-bit integers: .add.f32, .add.noftz.f16, .add.noftz.bf16, .min.bf16 (sm_90).
// K=0 gives the size as an immediate (128): ptxsim reads it as the f32 bit pattern of 128.0
// (0x43000000 bytes) -> bogus "illegal memory access"; K=4 is the same with the size in a register.
// One CTA reduces 32 elements of 1.5 (min: 0.5) into a global array holding 2.0.
#include "common.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <int K> __global__ void k(void* g) {
  __shared__ alignas(128) uint8_t buf[128];
  if (threadIdx.x < 32) {
    if (K == 0 || K == 4) ((float*)buf)[threadIdx.x] = 1.5f;
    else if (K == 1) ((__half*)buf)[threadIdx.x] = __float2half(1.5f);
    else if (K == 2) ((__nv_bfloat16*)buf)[threadIdx.x] = __float2bfloat16(1.5f);
    else ((__nv_bfloat16*)buf)[threadIdx.x] = __float2bfloat16(0.5f);
  }
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    if (K == 0) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 128;" :: "l"(g), "r"(smem_u32(buf)) : "memory");
    if (K == 1) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], 64;" :: "l"(g), "r"(smem_u32(buf)) : "memory");
    if (K == 2) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%0], [%1], 64;" :: "l"(g), "r"(smem_u32(buf)) : "memory");
    if (K == 4) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" :: "l"(g), "r"(smem_u32(buf)), "r"(128) : "memory");
    if (K == 3) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16 [%0], [%1], 64;" :: "l"(g), "r"(smem_u32(buf)) : "memory");
    bulk_commit(); bulk_wait0();
  }
}
template <int K> int run(const char* name) {
  void* d; cudaMalloc(&d, 128);
  uint8_t h[128];
  for (int i = 0; i < 32; i++) {
    if (K == 0 || K == 4) ((float*)h)[i] = 2.f;
    else if (K == 1) ((__half*)h)[i] = __float2half(2.f);
    else ((__nv_bfloat16*)h)[i] = __float2bfloat16(2.f);
  }
  cudaMemcpy(d, h, 128, cudaMemcpyHostToDevice);
  k<K><<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);
  float v = K == 0 || K == 4 ? ((float*)h)[5] : K == 1 ? __half2float(((__half*)h)[5]) : __bfloat162float(((__nv_bfloat16*)h)[5]);
  float want = K == 3 ? 0.5f : 3.5f;
  printf("%s %s: %s, element 5 = %g (want %g)\n", e == cudaSuccess && v == want ? "PASS" : "FAIL", name, cudaGetErrorString(e), v, want);
  cudaGetLastError();
  return !(e == cudaSuccess && v == want);
}
// one case per process (an illegal access poisons the context, as on a GPU): bulk_reduce_types 0..4
int main(int argc, char** argv) {
  int c = argc > 1 ? atoi(argv[1]) : 0;
  switch (c) {
    case 0: return run<0>("add.f32 (size immediate)");
    case 4: return run<4>("add.f32 (size in register)");
    case 1: return run<1>("add.noftz.f16");
    case 2: return run<2>("add.noftz.bf16");
    default: return run<3>("min.bf16");
  }
}

// Minimal repro: cp.reduce.async.bulk(.tensor) from many CTAs into the same elements loses updates
// when ptxsim runs blocks on several host threads.  PTX ISA: each element's reduction by
// cp.reduce.async.bulk{.tensor} is performed with .relaxed.gpu semantics, i.e. atomically, so
// the result of integer adds must not depend on the order or on concurrency.
// Each of P CTAs adds +1 (min: its own index) to every element of one 16x16 (or 256-element) tile.
#include "common.h"
#include <cuda_fp16.h>

constexpr int BX = 16, BY = 16, P = 256, REPS = 4;

template <typename T, int OP, bool TENSOR>
__global__ void red(const __grid_constant__ CUtensorMap m, T* g) {
  __shared__ alignas(128) T tile[BY * BX];
  for (int i = threadIdx.x; i < BX * BY; i += blockDim.x) {
    if constexpr (std::is_same<T, __half>::value) tile[i] = __float2half(1.f);
    else tile[i] = OP == 0 ? (T)1 : (T)(blockIdx.x + 5);
  }
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    if (TENSOR) {
      if (OP == 0) asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {0, 0}], [%1];" :: "l"(&m), "r"(smem_u32(tile)) : "memory");
      else asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {0, 0}], [%1];" :: "l"(&m), "r"(smem_u32(tile)) : "memory");
    } else {
      if constexpr (sizeof(T) == 4) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 1024;" :: "l"(g), "r"(smem_u32(tile)) : "memory");
      else asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64 [%0], [%1], 2048;" :: "l"(g), "r"(smem_u32(tile)) : "memory");
    }
    bulk_commit();
    bulk_wait0();
  }
}

template <typename T, int OP, bool TENSOR>
static int test(const char* name, CUtensorMapDataType dt) {
  T* d; CK(cudaMalloc(&d, BX * BY * sizeof(T)));
  uint64_t dims[2] = {BX, BY}; uint32_t box[2] = {BX, BY};
  CUtensorMap m = make_map(dt, sizeof(T), 2, d, dims, box);
  int lost = 0;
  for (int r = 0; r < REPS; r++) {
    std::vector<T> h(BX * BY);
    for (auto& v : h) { if constexpr (std::is_same<T, __half>::value) v = __float2half(0.f); else v = OP == 0 ? (T)0 : (T)1000000; }
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    red<T, OP, TENSOR><<<P, 64>>>(m, d);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    for (auto& v : h) {
      double got;
      if constexpr (std::is_same<T, __half>::value) got = __half2float(v); else got = (double)v;
      double want = OP == 0 ? P : 5;
      if (got != want) lost++;
    }
  }
  printf("%s %s: %d of %d elements wrong\n", lost ? "FAIL" : "PASS", name, lost, REPS * BX * BY);
  cudaFree(d);
  return lost != 0;
}

int main() {
  int rc = 0;
  rc |= test<int32_t, 0, true>("tensor add.s32", CU_TENSOR_MAP_DATA_TYPE_INT32);
  rc |= test<uint32_t, 0, true>("tensor add.u32", CU_TENSOR_MAP_DATA_TYPE_UINT32);
  rc |= test<uint64_t, 0, true>("tensor add.u64", CU_TENSOR_MAP_DATA_TYPE_UINT64);
  rc |= test<float, 0, true>("tensor add.f32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  rc |= test<__half, 0, true>("tensor add.f16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  rc |= test<int32_t, 1, true>("tensor min.s32", CU_TENSOR_MAP_DATA_TYPE_INT32);
  rc |= test<uint32_t, 0, false>("bulk add.u32", CU_TENSOR_MAP_DATA_TYPE_UINT32);
  rc |= test<uint64_t, 0, false>("bulk add.u64", CU_TENSOR_MAP_DATA_TYPE_UINT64);
  return rc;
}

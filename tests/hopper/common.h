// Shared helpers for the Hopper test programs (written from the PTX ISA / CUDA docs).
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL %s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

// ---------------------------------------------------------------- host: tensor maps
typedef CUresult (*EncodeTiledFn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
    const cuuint64_t*, const cuuint64_t*, const cuuint32_t*, const cuuint32_t*,
    CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static EncodeTiledFn get_encode(bool byVersion = true) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (byVersion) {
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  } else {
#pragma nv_diag_suppress 1444
    CK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q));
  }
  if (q != cudaDriverEntryPointSuccess || !fn) { printf("FAIL entry point query %d\n", (int)q); exit(1); }
  return (EncodeTiledFn)fn;
}

// rank-N tiled map; dims/box given innermost first; strides (bytes) for dims 1..N-1 computed densely
// unless `strides` is given.
static CUtensorMap make_map(CUtensorMapDataType dt, int esize, int rank, void* gaddr,
                            const uint64_t* dims, const uint32_t* box,
                            CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_NONE,
                            const uint64_t* strides = nullptr, const uint32_t* estr = nullptr,
                            CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) {
  static EncodeTiledFn enc = nullptr;
  if (!enc) enc = get_encode(true);
  CUtensorMap m;
  cuuint64_t gd[5], gs[5];
  cuuint32_t bd[5], es[5];
  uint64_t s = esize;
  for (int i = 0; i < rank; i++) {
    gd[i] = dims[i]; bd[i] = box[i]; es[i] = estr ? estr[i] : 1;
    if (i > 0) gs[i - 1] = strides ? strides[i - 1] : s;
    s *= dims[i];
  }
  CUresult r = enc(&m, dt, rank, gaddr, gd, gs, bd, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                   CU_TENSOR_MAP_L2_PROMOTION_NONE, fill);
  if (r != CUDA_SUCCESS) { printf("FAIL cuTensorMapEncodeTiled -> %d\n", (int)r); exit(1); }
  return m;
}

// ---------------------------------------------------------------- device helpers
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_mbar_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_u32(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(smem_u32(bar)) : "memory");
}
// arrive on the barrier at the same offset in CTA `rank` of the cluster
__device__ __forceinline__ void mbar_arrive_cluster(uint64_t* bar, uint32_t rank) {
  asm volatile("{ .reg .b32 ra; mapa.shared::cluster.u32 ra, %0, %1;\n"
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [ra]; }"
               :: "r"(smem_u32(bar)), "r"(rank) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  uint32_t ok;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(smem_u32(bar)), "r"(parity) : "memory");
  } while (!ok);
}
// acquire at cluster scope (for barriers completed by remote arrivals / multicast)
__device__ __forceinline__ void mbar_wait_cluster(uint64_t* bar, uint32_t parity) {
  uint32_t ok;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(smem_u32(bar)), "r"(parity) : "memory");
  } while (!ok);
}

__device__ __forceinline__ void tma_load_1d(void* dst, const CUtensorMap* m, uint64_t* bar, int c0) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3}], [%2];"
               :: "r"(smem_u32(dst)), "l"(m), "r"(smem_u32(bar)), "r"(c0) : "memory");
}
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* m, uint64_t* bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(smem_u32(dst)), "l"(m), "r"(smem_u32(bar)), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* m, uint64_t* bar, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
               :: "r"(smem_u32(dst)), "l"(m), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2) : "memory");
}
__device__ __forceinline__ void tma_load_4d(void* dst, const CUtensorMap* m, uint64_t* bar, int c0, int c1, int c2, int c3) {
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];"
               :: "r"(smem_u32(dst)), "l"(m), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
}
__device__ __forceinline__ void tma_load_5d(void* dst, const CUtensorMap* m, uint64_t* bar, int c0, int c1, int c2, int c3, int c4) {
  asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];"
               :: "r"(smem_u32(dst)), "l"(m), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4) : "memory");
}
__device__ __forceinline__ void tma_load_2d_mc(void* dst, const CUtensorMap* m, uint64_t* bar, int c0, int c1, uint16_t mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;"
               :: "r"(smem_u32(dst)), "l"(m), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "h"(mask) : "memory");
}
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* m, const void* src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
               :: "l"(m), "r"(smem_u32(src)), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void tma_reduce_add_2d(const CUtensorMap* m, const void* src, int c0, int c1) {
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];"
               :: "l"(m), "r"(smem_u32(src)), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r;
}
__device__ __forceinline__ void cluster_sync_ptx() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// ---------------------------------------------------------------- wgmma
// Descriptor (PTX ISA "Matrix Descriptor Format"): bits 0-13 start>>4, 16-29 LBO>>4,
// 32-45 SBO>>4, 49-51 base offset, 62-63 swizzle (0 none, 1 128B, 2 64B, 3 32B).
__device__ __forceinline__ uint64_t make_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo, uint32_t swz) {
  uint64_t d = 0;
  d |= (uint64_t)((saddr & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
  d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
  d |= (uint64_t)(swz & 3) << 62;
  return d;
}
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");
}

#define R8(i) "+f"(d[i+0]), "+f"(d[i+1]), "+f"(d[i+2]), "+f"(d[i+3]), "+f"(d[i+4]), "+f"(d[i+5]), "+f"(d[i+6]), "+f"(d[i+7])
#define S8(a) "%" #a "0, %" #a "1, %" #a "2, %" #a "3, %" #a "4, %" #a "5, %" #a "6, %" #a "7"

// m64n64k16 / m64n128k16 with f32 accumulators; TYPES = "f16.f16" or "bf16.bf16" ...
// operand numbering: d0..d(N/2-1), then descA, descB, scaled
#define WGMMA_N64(NAME, SHAPE_TYPES, TA, TB)                                                   \
  __device__ __forceinline__ void NAME(float* d, uint64_t da, uint64_t db, int scaled) {        \
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %34, 0;\n"                                     \
      "wgmma.mma_async.sync.aligned." SHAPE_TYPES " {"                                          \
      "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                                  \
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1"    \
      TA TB "; }"                                                                               \
      : R8(0), R8(8), R8(16), R8(24) : "l"(da), "l"(db), "r"(scaled));                          \
  }
#define NOTRANS ", 0"
#define TRANS ", 1"
#define NONE ""

WGMMA_N64(wgmma_n64_f16, "m64n64k16.f32.f16.f16", NOTRANS, NOTRANS)
WGMMA_N64(wgmma_n64_f16_tB, "m64n64k16.f32.f16.f16", NOTRANS, TRANS)
WGMMA_N64(wgmma_n64_f16_tAB, "m64n64k16.f32.f16.f16", TRANS, TRANS)
WGMMA_N64(wgmma_n64_bf16, "m64n64k16.f32.bf16.bf16", NOTRANS, NOTRANS)
// fp8: no transpose operands and no imm-trans in the syntax
WGMMA_N64(wgmma_n64_e4m3e4m3, "m64n64k32.f32.e4m3.e4m3", NONE, NONE)
WGMMA_N64(wgmma_n64_e4m3e5m2, "m64n64k32.f32.e4m3.e5m2", NONE, NONE)

#define WGMMA_N128(NAME, SHAPE_TYPES, TRANSAB)                                                          \
  __device__ __forceinline__ void NAME(float* d, uint64_t da, uint64_t db, int scaled) {        \
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %66, 0;\n"                                     \
      "wgmma.mma_async.sync.aligned." SHAPE_TYPES " {"                                          \
      "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                                  \
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"                        \
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"                        \
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1" TRANSAB "; }" \
      : R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56)                            \
      : "l"(da), "l"(db), "r"(scaled));                                                         \
  }
WGMMA_N128(wgmma_n128_f16, "m64n128k16.f32.f16.f16", ", 0, 0")
WGMMA_N128(wgmma_n128_f16_tB, "m64n128k16.f32.f16.f16", ", 0, 1")
WGMMA_N128(wgmma_n128_bf16, "m64n128k16.f32.bf16.bf16", ", 0, 0")

// Accumulator fragment (PTX ISA, wgmma D for .m64nNk*): thread t of the warpgroup, register i:
// row = 16*(t/32) + (t%32)/4 + 8*((i/2)%2), col = 8*(i/4) + 2*(t%4) + (i%2)
__device__ __forceinline__ int acc_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
__device__ __forceinline__ int acc_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + (i % 2); }

// ---------------------------------------------------------------- host misc
static uint32_t g_rng = 12345;
static inline int rnd(int lo, int hi) {  // inclusive
  g_rng = g_rng * 1664525u + 1013904223u;
  return lo + (int)((g_rng >> 8) % (uint32_t)(hi - lo + 1));
}

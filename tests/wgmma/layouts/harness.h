// Test harness: a kernel that only moves bytes and issues wgmma, and a host runner that
// builds the operand images, runs, and checks every element of D against a host matmul.
#pragma once
#include <cuda_runtime.h>
#include <vector>
#include <string>
#include <algorithm>
#include "layout.h"
#include "wgmma_ops.h"

#define MAX_STEPS 4

struct DevArgs {
  const uint8_t* imgA;  // shared-memory image of A (unused when A is in registers)
  const uint8_t* imgB;  // shared-memory image of B
  int bytesA, bytesB;   // image sizes (multiples of 16)
  int offB;             // where the B image starts in shared memory, from the 1024-aligned base
  uint64_t fieldsA, fieldsB;    // descriptor bits other than the start address
  int stepA[MAX_STEPS], stepB[MAX_STEPS];  // descriptor start offsets of each K step
  const uint32_t* aregs;  // [steps][128][4] A fragments (A in registers)
  const uint32_t* dinit;  // [128][NR] initial accumulator registers
  uint32_t* dout;         // [128][NR] accumulator registers after the wait
  int scale_d0;           // scale-d of the first step (later steps always accumulate)
  int* no_wgmma;          // set to 1 by a kernel built without the sm_90a feature set
};

#ifdef WG_HOST_MODEL
#include "model.h"
#endif

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}
// Keeps a register value materialised at this point (so that the moves into the accumulator
// registers happen before wgmma.fence, and reads of them after wgmma.wait_group).
__device__ __forceinline__ void pin(float& x) { asm volatile("" : "+f"(x)::"memory"); }
__device__ __forceinline__ void pin(uint32_t& x) { asm volatile("" : "+r"(x)::"memory"); }
// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, for the start-address field.
__device__ __forceinline__ uint64_t desc_encode_dev(uint32_t x) { return (uint64_t)((x & 0x3FFFFu) >> 4); }

template <class Op, int SA, int SB, int TA, int TB, int STEPS>
__global__ void __launch_bounds__(128) wg_kernel(DevArgs g) {
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // nvcc 13 embeds plain compute_90 PTX next to compute_90a for -arch=sm_90a; wgmma does
  // not exist there, so that copy of the kernel only reports that it ran.
  if (threadIdx.x == 0) *g.no_wgmma = 1;
#else
  extern __shared__ uint8_t smem_raw[];
  typedef typename Op::acc_t acc_t;
  const int t = threadIdx.x;
  // 1024-aligned base in the shared window (128B-swizzle atoms must start on 1024 B).
  uint32_t raw = smem_u32(smem_raw);
  uint32_t base = (raw + 1023u) & ~1023u;
  uint8_t* sbase = smem_raw + (base - raw);
  if (!Op::A_REGS)
    for (int i = t * 4; i < g.bytesA; i += 128 * 4)
      *(uint32_t*)(sbase + i) = *(const uint32_t*)(g.imgA + i);
  for (int i = t * 4; i < g.bytesB; i += 128 * 4)
    *(uint32_t*)(sbase + g.offB + i) = *(const uint32_t*)(g.imgB + i);
  // Generic-proxy writes must be made visible to the async proxy that wgmma reads through.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();

  acc_t d[Op::NR];
#pragma unroll
  for (int i = 0; i < Op::NR; ++i) {
    uint32_t v = g.dinit[t * Op::NR + i];
    memcpy(&d[i], &v, 4);
  }
  uint32_t a[STEPS][4];
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
#pragma unroll
    for (int j = 0; j < 4; ++j) a[s][j] = Op::A_REGS ? g.aregs[(s * 128 + t) * 4 + j] : 0u;

#pragma unroll
  for (int i = 0; i < Op::NR; ++i) pin(d[i]);
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
#pragma unroll
    for (int j = 0; j < 4; ++j) pin(a[s][j]);
#ifndef WG_DRY
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    uint64_t bdesc = g.fieldsB | desc_encode_dev(base + g.offB + g.stepB[s]);
    int sd = s == 0 ? g.scale_d0 : 1;
    if constexpr (Op::A_REGS) {
      Op::template mma<SA, SB, TA, TB>(d, a[s], bdesc, sd);
    } else {
      uint64_t adesc = g.fieldsA | desc_encode_dev(base + g.stepA[s]);
      Op::template mma<SA, SB, TA, TB>(d, adesc, bdesc, sd);
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#else
  // WG_DRY: plumbing check only (no wgmma): operands are staged in shared memory as usual
  // and the accumulator registers must come back unchanged.
  (void)a;
#endif
#pragma unroll
  for (int i = 0; i < Op::NR; ++i) pin(d[i]);
#pragma unroll
  for (int i = 0; i < Op::NR; ++i) {
    uint32_t v;
    memcpy(&v, &d[i], 4);
    g.dout[t * Op::NR + i] = v;
  }
#endif
}

// ---------------------------------------------------------------------------------------
struct CaseCfg {
  std::string name;
  int steps = 0;           // if set, must equal the STEPS template argument
  SmemLayout la{}, lb{};   // la ignored when A is in registers
  int scale_d0 = 0;        // 0: D = A*B (initial D is NaN / garbage), 1: D = A*B + C
  int vlo_a = -4, vhi_a = 4, vlo_b = -4, vhi_b = 4;
};

static int g_pass = 0, g_fail = 0;

static void fail_cuda(const char* what, cudaError_t e, const std::string& name) {
  printf("FAIL %s: CUDA error at %s: %s\n", name.c_str(), what, cudaGetErrorString(e));
  ++g_fail;
}

template <class Op, int SA, int SB, int TA, int TB, int STEPS>
static bool run_case(const CaseCfg& c) {
  const int M = 64, N = Op::N, K = Op::K, KT = K * STEPS, NR = Op::NR;
  const int EA = elem_bytes(Op::TYA), EB = elem_bytes(Op::TYB);
  std::string name = std::string(Op::name()) + " " + c.name;
  // Consistency of the case with the instruction form.
  if (!Op::A_REGS && c.la.E != EA) { printf("FAIL %s: bad case (A elem size)\n", name.c_str()); ++g_fail; return false; }
  if (c.lb.E != EB) { printf("FAIL %s: bad case (B elem size)\n", name.c_str()); ++g_fail; return false; }
  if (c.steps && c.steps != STEPS) { printf("FAIL %s: bad case (steps)\n", name.c_str()); ++g_fail; return false; }
  if ((TA != (Op::A_REGS ? 0 : c.la.major)) || TB != c.lb.major) {
    printf("FAIL %s: bad case (trans flags vs layout)\n", name.c_str()); ++g_fail; return false;
  }

  // Values: small integers, exact in every type and every partial sum.
  uint32_t tag = 2166136261u;  // FNV-1a of the case name: different data per case
  for (char ch : name) tag = (tag ^ (uint8_t)ch) * 16777619u;
  std::vector<double> A(M * KT), B(KT * N), C(M * N);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < KT; ++k) A[m * KT + k] = small_int(tag, m, k, c.vlo_a, c.vhi_a);
  for (int k = 0; k < KT; ++k)
    for (int n = 0; n < N; ++n) B[k * N + n] = small_int(tag ^ 0x55u, k, n, c.vlo_b, c.vhi_b);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) C[m * N + n] = small_int(tag ^ 0xAAu, m, n, -8, 8);

  // Expected D = (scale_d0 ? C : 0) + sum_k (SA*A)(SB*B).
  std::vector<double> W(M * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = c.scale_d0 ? C[m * N + n] : 0.0;
      for (int k = 0; k < KT; ++k) acc += (SA * A[m * KT + k]) * (SB * B[k * N + n]);
      W[m * N + n] = acc;
    }

  // Shared-memory images, built element by element from the layout functions; every byte
  // may be written once only (checks that the layout is one-to-one).
  auto build = [&](const SmemLayout& L, int rows, bool isA, int ty, std::vector<uint8_t>& img) -> bool {
    int maxoff = 0;
    for (int mn = 0; mn < rows; ++mn)
      for (int k = 0; k < KT; ++k) maxoff = std::max(maxoff, smem_offset(L, mn, k) + L.E);
    int size = (maxoff + 1023) / 1024 * 1024;
    img.assign(size, 0xEE);  // filler: decodes to large values (f16 -7104, e4m3 -224, s8 -18, ...)
    std::vector<uint8_t> used(size, 0);
    for (int mn = 0; mn < rows; ++mn)
      for (int k = 0; k < KT; ++k) {
        if (raw_offset(L, mn, k) != canonical_offset(L, mn, k)) {
          printf("FAIL %s: layout formula disagrees with the canonical table at (%d,%d)\n", name.c_str(), mn, k);
          return false;
        }
        int off = smem_offset(L, mn, k);
        double v = isA ? A[mn * KT + k] : B[k * N + mn];
        uint32_t bits = encode_elem(ty, v);
        for (int b = 0; b < L.E; ++b) {
          if (used[off + b]) { printf("FAIL %s: layout maps two elements to byte %d\n", name.c_str(), off + b); return false; }
          used[off + b] = 1;
          img[off + b] = (uint8_t)(bits >> (8 * b));
        }
      }
    return true;
  };
  std::vector<uint8_t> imgA, imgB;
  if (!Op::A_REGS && !build(c.la, M, true, Op::TYA, imgA)) { ++g_fail; return false; }
  if (!build(c.lb, N, false, Op::TYB, imgB)) { ++g_fail; return false; }

  DevArgs g;
  memset(&g, 0, sizeof g);
  g.bytesA = (int)imgA.size();
  g.bytesB = (int)imgB.size();
  g.offB = (g.bytesA + 1023) / 1024 * 1024;
  g.fieldsA = Op::A_REGS ? 0 : desc_fields(c.la);
  g.fieldsB = desc_fields(c.lb);
  for (int s = 0; s < STEPS; ++s) {
    if (!Op::A_REGS) g.stepA[s] = step_start(c.la, s * K);
    g.stepB[s] = step_start(c.lb, s * K);
    if ((g.stepA[s] | g.stepB[s]) & 15) { printf("FAIL %s: step start not 16-byte aligned\n", name.c_str()); ++g_fail; return false; }
  }
  g.scale_d0 = c.scale_d0;

  // A fragments (A in registers): element i of thread t, step s, goes to register i/2,
  // half i%2, and is A[row][s*K + k] with (row, k) from a16_coord.
  std::vector<uint32_t> aregs(Op::A_REGS ? STEPS * 128 * 4 : 4, 0);
  if (Op::A_REGS)
    for (int s = 0; s < STEPS; ++s)
      for (int t = 0; t < 128; ++t)
        for (int i = 0; i < 8; ++i) {
          int row, k;
          a16_coord(t, i, &row, &k);
          uint32_t bits = encode_elem(Op::TYA, A[row * KT + s * K + k]);
          aregs[(s * 128 + t) * 4 + i / 2] |= bits << (16 * (i % 2));
        }

  // Initial accumulator: C placed by the D fragment map when scale-d = 1, else poison
  // (NaN for floating accumulators) that must not leak into D = A*B.
  std::vector<uint32_t> dinit(128 * NR);
  for (int t = 0; t < 128; ++t)
    for (int j = 0; j < NR; ++j) {
      uint32_t v = 0;
      if (Op::DT == DT_F16) {
        for (int h = 0; h < 2; ++h) {
          int row, col;
          d_coord(t, 2 * j + h, &row, &col);
          uint32_t bits = c.scale_d0 ? enc_fp(C[row * N + col], 5, 10) : 0x7E00u;  // f16 NaN
          v |= bits << (16 * h);
        }
      } else {
        int row, col;
        d_coord(t, j, &row, &col);
        if (Op::DT == DT_F32) {
          float f = c.scale_d0 ? (float)C[row * N + col] : NAN;
          memcpy(&v, &f, 4);
        } else {
          v = c.scale_d0 ? (uint32_t)(int32_t)C[row * N + col] : 0x12345678u;
        }
      }
      dinit[t * NR + j] = v;
    }

  char lbuf[2][96];
  std::string desc = std::string("[A ") + (Op::A_REGS ? std::string("regs") : std::string(layout_name(c.la, lbuf[0]))) +
                     " | B " + layout_name(c.lb, lbuf[1]) + " | steps " + std::to_string(STEPS) +
                     " scale-d " + std::to_string(c.scale_d0) + " scale-a " + std::to_string(SA) +
                     " scale-b " + std::to_string(SB) + " smem " + std::to_string(1024 + g.offB + g.bytesB) + "B]";
  std::vector<uint32_t> dout(128 * NR, 0);
#ifdef WG_HOST_MODEL
  host_model<Op, SA, SB, TA, TB, STEPS>(g, imgA, imgB, aregs, dinit, dout);
#else
  // Device run.
  uint8_t *dA = nullptr, *dB = nullptr;
  uint32_t *dAr = nullptr, *dDi = nullptr, *dDo = nullptr;
  int* dFlag = nullptr;
  cudaError_t e;
  size_t smem = 1024 + g.offB + g.bytesB;  // room to align the base up to 1024
  if ((e = cudaMalloc(&dA, std::max<size_t>(imgA.size(), 16))) != cudaSuccess) { fail_cuda("cudaMalloc", e, name); return false; }
  cudaMalloc(&dB, imgB.size());
  cudaMalloc(&dAr, aregs.size() * 4);
  cudaMalloc(&dDi, dinit.size() * 4);
  cudaMalloc(&dDo, dinit.size() * 4);
  if (!imgA.empty()) cudaMemcpy(dA, imgA.data(), imgA.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, imgB.data(), imgB.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dAr, aregs.data(), aregs.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dDi, dinit.data(), dinit.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dDo, 0xFF, dinit.size() * 4);
  cudaMalloc(&dFlag, sizeof(int));
  cudaMemset(dFlag, 0, sizeof(int));
  g.no_wgmma = dFlag;
  g.imgA = dA; g.imgB = dB; g.aregs = dAr; g.dinit = dDi; g.dout = dDo;
  auto kern = wg_kernel<Op, SA, SB, TA, TB, STEPS>;
  cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  kern<<<1, 128, smem>>>(g);
  e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(dout.data(), dDo, dout.size() * 4, cudaMemcpyDeviceToHost);
  int flag = 0;
  if (e == cudaSuccess) e = cudaMemcpy(&flag, dFlag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dFlag);
  cudaFree(dA); cudaFree(dB); cudaFree(dAr); cudaFree(dDi); cudaFree(dDo);
  if (e != cudaSuccess) { fail_cuda("launch/sync", e, name + " " + desc); return false; }
  if (flag) {
    printf("FAIL %s %s: the kernel that ran is the compute_90 PTX copy without wgmma; build with "
           "-gencode arch=compute_90a,code=[sm_90a,compute_90a]\n", name.c_str(), desc.c_str());
    ++g_fail;
    return false;
  }
#endif

#ifdef WG_DRY
  for (size_t i = 0; i < dout.size(); ++i)
    if (dout[i] != dinit[i]) {
      printf("FAIL(dry) %s: register word %zu changed\n", name.c_str(), i);
      ++g_fail;
      return false;
    }
  printf("PASS(dry) %s %s\n", name.c_str(), desc.c_str());
  ++g_pass;
  return true;
#endif
  // Check every register of every thread.
  int bad = 0;
  char first[600] = "";
  const int per = Op::DT == DT_F16 ? 2 : 1;
  for (int t = 0; t < 128; ++t)
    for (int j = 0; j < NR; ++j)
      for (int h = 0; h < per; ++h) {
        int ei = j * per + h, row, col;
        d_coord(t, ei, &row, &col);
        double got;
        if (Op::DT == DT_F16) got = dec_fp((dout[t * NR + j] >> (16 * h)) & 0xFFFF, 5, 10);
        else if (Op::DT == DT_F32) { float f; memcpy(&f, &dout[t * NR + j], 4); got = f; }
        else got = (double)(int32_t)dout[t * NR + j];
        double want = W[row * N + col];
        if (!(got == want)) {
          if (bad == 0) {
            // Where would 'got' belong?  (A placement mistake in D usually shows up as a
            // right value in the wrong register; said only when the value is unique in D.)
            char where[120] = "";
            int hits = 0, hr = -1, hc = -1;
            for (int rr = 0; rr < M; ++rr)
              for (int cc = 0; cc < N; ++cc)
                if (W[rr * N + cc] == got) { ++hits; hr = rr; hc = cc; }
            if (hits == 1) snprintf(where, sizeof where, "; that value belongs only at D[%d][%d]", hr, hc);
            if (per == 2)
              snprintf(first, sizeof first, "D[%d][%d] got %g want %g (thread %d = warp %d lane %d, register %d %s half, element d%d)%s",
                       row, col, got, want, t, t / 32, t % 32, j, h ? "high" : "low", ei, where);
            else
              snprintf(first, sizeof first, "D[%d][%d] got %g want %g (thread %d = warp %d lane %d, register d%d)%s",
                       row, col, got, want, t, t / 32, t % 32, j, where);
          }
          ++bad;
        }
      }
  if (bad) {
    printf("FAIL %s %s: %d of %d elements wrong; first %s\n", name.c_str(), desc.c_str(), bad, M * N, first);
    ++g_fail;
    return false;
  }
  printf("PASS %s %s\n", name.c_str(), desc.c_str());
  ++g_pass;
  return true;
}

static int finish(const char* prog) {
  printf("%s: %d passed, %d failed\n", prog, g_pass, g_fail);
  return g_fail ? 1 : 0;
}

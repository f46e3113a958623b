// Host-side statement of where wgmma.mma_async expects its operands, written from the
// PTX ISA text, section 9.7.15 ("Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
//   9.7.15.5.1.1  register fragments (A in registers, accumulator D),
//   9.7.15.5.1.2  shared-memory matrix layout (K-major / MN-major, swizzle atoms,
//                 leading/stride dimension byte offsets, canonical layouts),
//   9.7.15.5.1.2.2 matrix descriptor format.
// Nothing here runs on the device; the test kernels only move bytes, and every placement
// decision is made (and checked) by these functions.
#pragma once
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "types.h"

// ---------------------------------------------------------------------------------------
// 1. Register fragments
// ---------------------------------------------------------------------------------------
// Accumulator D of every m64nNkK shape (ISA figures "register fragment layout for
// accumulator matrix D", one per K; they are the same picture):
//  * the 4 warps of the warpgroup own 16 rows each: warp w holds rows 16w .. 16w+15;
//  * inside a warp, lane l belongs to group g = l/4 (0..7) with index q = l%4 in the group;
//  * the thread's elements d0, d1, d2, ... (low to high in the register list) go in runs of
//    four per 8-column block: block b = i/4 covers columns 8b .. 8b+7, and inside it
//      d[4b+0], d[4b+1] -> row 16w+g,   columns 8b+2q, 8b+2q+1
//      d[4b+2], d[4b+3] -> row 16w+g+8, columns 8b+2q, 8b+2q+1
//  * .f32/.s32 D: element i is register i (N/2 registers).  .f16 D: N/4 .f16x2
//    registers, register j holds d[2j] in its low 16 bits and d[2j+1] in its high 16 bits.
static inline void d_coord(int t, int i, int* row, int* col) {
  int w = t / 32, l = t % 32, g = l / 4, q = l % 4;
  *row = 16 * w + g + 8 * ((i / 2) % 2);
  *col = 8 * (i / 4) + 2 * q + (i % 2);
}

// Multiplicand A in registers for .m64nNk16 with .f16/.bf16 (ISA figure "WGMMA .m64nNk16
// register fragment layout for matrix A"): four .f16x2 registers, elements a0..a7 low to
// high, so register j = i/2 holds a[2j] (low half) and a[2j+1] (high half).  Warp w owns
// rows 16w..16w+15, and inside a warp the 16x16 slice is spread like the accumulator of an
// 8-column block, twice along K:
//      a0,a1 -> row 16w+g,   k = 2q, 2q+1          a4,a5 -> row 16w+g,   k = 8+2q, 8+2q+1
//      a2,a3 -> row 16w+g+8, k = 2q, 2q+1          a6,a7 -> row 16w+g+8, k = 8+2q, 8+2q+1
static inline void a16_coord(int t, int i, int* row, int* k) {
  int w = t / 32, l = t % 32, g = l / 4, q = l % 4;
  *row = 16 * w + g + 8 * ((i / 2) % 2);
  *k = 8 * (i / 4) + 2 * q + (i % 2);
}

// ---------------------------------------------------------------------------------------
// 2. Shared-memory layouts
// ---------------------------------------------------------------------------------------
// Orientation (ISA 9.7.15.5.2 description and 9.7.15.5.1.2):  "Matrices A and B are stored
// in row-major and column-major format respectively"; imm-trans-a/b = 0 means K-major, 1
// means M-major (A) / N-major (B).  We address every operand element as (mn, k): for A,
// mn = row m of the 64xK matrix; for B, mn = column n of the KxN matrix.
//   K-major : consecutive k of one mn are adjacent in memory (A row-major, B column-major).
//   MN-major: consecutive mn of one k are adjacent in memory.
//
// Everything is measured in 16-byte units ("128-bit normalized elements"):
// T = 16 / sizeof(element) elements per 16 bytes (f16/bf16: 8, tf32: 4, 8-bit: 16).
// A "core matrix" is 8 rows of 16 bytes, i.e. 128 contiguous bytes.
//
// Canonical layouts (ISA table "Canonical Layouts", CuTe notation (shape):(stride) in
// elements), with S = swizzle width in bytes and W = S/16:
//   K-major, none    : ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
//   K-major, S-swz   : ((8,m),(T,2k)) : ((W*T,SBO),(1,T))        LBO unused ("assumed 1")
//   MN-major, none   : ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
//   MN-major, S-swz  : ((T,W,m),(8,k)) : ((1,T,LBO),(W*T,SBO))
// and the swizzle functor Swizzle<B,4,3> (B = 0,1,2,3 for none,32B,64B,128B) is applied on
// top.  Read literally in bytes that gives the offset functions below:
//
//  K-major, no swizzle: row mn lives in core matrix (mn/8) along M/N and chunk k/T along K;
//    inside the core matrix, row mn%8 is the 16-byte line (mn%8), element k%T of the line.
//    LBO = bytes between core matrices adjacent in K, SBO = between those adjacent in M/N.
//       off = (mn/8)*SBO + (k/T)*LBO + (mn%8)*16 + (k%T)*E
//  K-major, S-byte swizzle: an atom is 8 rows of S bytes; row mn%8 is line mn%8 (stride S),
//    k runs contiguously along the line; groups of 8 rows are SBO apart.
//       off = (mn/8)*SBO + (mn%8)*S + k*E            (k*E < S)
//    One instruction reads 32 bytes of K (k16 f16, k8 tf32, k32 8-bit), which always fits
//    in one line; K beyond one line belongs to another atom column, which a kernel reaches
//    by moving the descriptor start address (our 'kblk' below, never in a descriptor).
//  MN-major, no swizzle: a core matrix is 8 k-lines of 16 bytes = T consecutive mn.
//    SBO = bytes between core matrices adjacent in M/N, LBO = between those adjacent in K.
//       off = (mn/T)*SBO + (k/8)*LBO + (k%8)*16 + (mn%T)*E
//  MN-major, S-byte swizzle: an atom is 8 k-lines of S bytes, each line holding W*T
//    consecutive mn.  LBO = bytes between atoms adjacent in M/N, SBO = between atoms
//    adjacent in K (groups of 8 k).
//       off = (mn/(W*T))*LBO + (k/8)*SBO + (k%8)*S + (mn%(W*T))*E
//
// Swizzle<B,4,3> in bytes: bits [4, 4+B) of the address are XORed with bits [7, 7+B):
//   128B: 16-byte chunk index (bits 4..6) ^= bits 7..9 (the line index inside a 1024-byte atom)
//    64B: bits 4..5 ^= bits 7..8      32B: bit 4 ^= bit 7
// The descriptor section says the repeating pattern is anchored at 1024/512/256-byte
// boundaries (base offset 0 when it starts there), which we read as: the XOR uses the bits
// of the shared-memory ADDRESS.  All our buffers start on a 1024-byte boundary, so address
// bits equal offset bits, except where a test deliberately moves the descriptor start
// address inside a swizzle line (K-major, K steps of 32 bytes): there the address, not the
// offset from the start address, is what gets swizzled.
enum { MAJOR_K = 0, MAJOR_MN = 1 };

struct SmemLayout {
  int major;  // MAJOR_K or MAJOR_MN
  int swz;    // 0 (none / "interleave"), 32, 64 or 128 bytes
  int lbo;    // leading dimension byte offset, as put in the descriptor (unused: K-major swizzled)
  int sbo;    // stride dimension byte offset, as put in the descriptor
  int kblk;   // K-major swizzled only: bytes between successive S-byte K columns of atoms
  int E;      // element size in bytes
};

static inline int swizzle_bytes(int off, int swz) {
  switch (swz) {
    case 128: return off ^ (((off >> 7) & 7) << 4);
    case 64: return off ^ (((off >> 7) & 3) << 4);
    case 32: return off ^ (((off >> 7) & 1) << 4);
    default: return off;
  }
}

// Offset before the swizzle.
static inline int raw_offset(const SmemLayout& L, int mn, int k) {
  int E = L.E, T = 16 / E;
  if (L.major == MAJOR_K) {
    if (L.swz == 0) return (mn / 8) * L.sbo + (k / T) * L.lbo + (mn % 8) * 16 + (k % T) * E;
    int kl = L.swz / E;  // elements of K per swizzle line
    return (k / kl) * L.kblk + (mn / 8) * L.sbo + (mn % 8) * L.swz + (k % kl) * E;
  } else {
    if (L.swz == 0) return (mn / T) * L.sbo + (k / 8) * L.lbo + (k % 8) * 16 + (mn % T) * E;
    int ml = L.swz / E;  // elements of M/N per swizzle line (W*T)
    return (mn / ml) * L.lbo + (k / 8) * L.sbo + (k % 8) * L.swz + (mn % ml) * E;
  }
}

// The same thing read literally off the ISA's canonical-layout table (CuTe shapes and
// strides in elements, first sub-mode fastest), used to cross-check raw_offset for every
// element of every test operand.  For swizzled K-major operands it covers one S-byte line
// of K (k < S/E); further lines are our 'kblk' blocks.
static inline int cute_mode(int x, const int* shape, const int* stride, int n) {
  int off = 0;
  for (int i = 0; i < n; ++i) { off += (x % shape[i]) * stride[i]; x /= shape[i]; }
  return off;
}
static inline int canonical_offset(const SmemLayout& L, int mn, int k) {
  const int E = L.E, T = 16 / E, BIG = 1 << 20;
  const int lbo = L.lbo / E, sbo = L.sbo / E;  // strides in elements
  int extra = 0;
  if (L.major == MAJOR_K) {
    if (L.swz == 0) {  // ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
      int s0[] = {8, BIG}, d0[] = {T, sbo}, s1[] = {T, BIG}, d1[] = {1, lbo};
      return (cute_mode(mn, s0, d0, 2) + cute_mode(k, s1, d1, 2)) * E;
    }
    int W = L.swz / 16, kl = W * T;  // ((8,m),(T,2k)) : ((W*T,SBO),(1,T)) inside one line
    extra = (k / kl) * L.kblk;
    k %= kl;
    int s0[] = {8, BIG}, d0[] = {W * T, sbo}, s1[] = {T, BIG}, d1[] = {1, T};
    return extra + (cute_mode(mn, s0, d0, 2) + cute_mode(k, s1, d1, 2)) * E;
  } else {
    if (L.swz == 0) {  // ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
      int s0[] = {T, 1, BIG}, d0[] = {1, T, sbo}, s1[] = {8, BIG}, d1[] = {T, lbo};
      return (cute_mode(mn, s0, d0, 3) + cute_mode(k, s1, d1, 2)) * E;
    }
    int W = L.swz / 16;  // ((T,W,m),(8,k)) : ((1,T,LBO),(W*T,SBO))
    int s0[] = {T, W, BIG}, d0[] = {1, T, lbo}, s1[] = {8, BIG}, d1[] = {W * T, sbo};
    return (cute_mode(mn, s0, d0, 3) + cute_mode(k, s1, d1, 2)) * E;
  }
}

// Byte offset of element (mn, k) from the (1024-aligned) start of the operand image.
static inline int smem_offset(const SmemLayout& L, int mn, int k) {
  return swizzle_bytes(raw_offset(L, mn, k), L.swz);
}

// Where the descriptor of the K step starting at element k0 points, relative to the image
// start: the un-swizzled offset of element (0, k0).  The hardware adds the per-element
// offsets of the 64xK (or NxK) slice to this address and swizzles the sum.
static inline int step_start(const SmemLayout& L, int k0) { return raw_offset(L, 0, k0); }

// Builds a layout for an operand of 'mn' rows and 'kt' total K.  'order' chooses which of the
// two directions is packed innermost (0: M/N-adjacent blocks are nearest, 1: K-adjacent
// ones are), and 'pad' adds unused gaps (in core matrices / atoms) so that a reader that
// assumes packed strides instead of reading LBO/SBO gets the wrong data.
static inline SmemLayout make_layout(int major, int swz, int mn, int kt, int E, int order, int pad) {
  SmemLayout L;
  memset(&L, 0, sizeof L);
  L.major = major; L.swz = swz; L.E = E;
  int T = 16 / E;
  if (major == MAJOR_K) {
    if (swz == 0) {
      int nm = mn / 8, nk = (kt + T - 1) / T;  // core matrices along M/N and along K
      if (order == 0) { L.sbo = 128 * (1 + pad); L.lbo = L.sbo * nm + 16 * pad; }
      else            { L.lbo = 128 * (1 + pad); L.sbo = L.lbo * nk + 16 * pad; }
    } else {
      int atom = 8 * swz;
      L.lbo = 16;  // "not used, assumed to be 1" (encoded value 1 = 16 bytes)
      L.sbo = atom * (1 + pad);
      L.kblk = L.sbo * (mn / 8) + atom * pad;
    }
  } else {
    if (swz == 0) {
      int nm = (mn + T - 1) / T, nk = (kt + 7) / 8;
      if (order == 0) { L.sbo = 128 * (1 + pad); L.lbo = L.sbo * nm + 16 * pad; }
      else            { L.lbo = 128 * (1 + pad); L.sbo = L.lbo * nk + 16 * pad; }
    } else {
      int atom = 8 * swz, ml = swz / E;
      int nm = (mn + ml - 1) / ml, nk = (kt + 7) / 8;
      if (order == 0) { L.lbo = atom * (1 + pad); L.sbo = L.lbo * nm + atom * pad; }
      else            { L.sbo = atom * (1 + pad); L.lbo = L.sbo * nk + atom * pad; }
    }
  }
  return L;
}

// ---------------------------------------------------------------------------------------
// 3. Matrix descriptor (ISA 9.7.15.5.1.2.2)
// ---------------------------------------------------------------------------------------
//   bits 13..0  : encode(start address)           encode(x) = (x & 0x3FFFF) >> 4
//   bits 29..16 : encode(leading dimension byte offset)
//   bits 45..32 : encode(stride dimension byte offset)
//   bits 51..49 : matrix base offset (0: every pattern of ours starts on its 1024/512/256 B boundary)
//   bits 63..62 : swizzle mode 0 none, 1 128B, 2 64B, 3 32B
// The device ORs in the start address; the host supplies everything else.
static inline uint64_t desc_encode(uint64_t x) { return (x & 0x3FFFF) >> 4; }
static inline uint64_t desc_fields(const SmemLayout& L) {
  uint64_t mode = L.swz == 128 ? 1 : L.swz == 64 ? 2 : L.swz == 32 ? 3 : 0;
  return (desc_encode((uint64_t)L.lbo) << 16) | (desc_encode((uint64_t)L.sbo) << 32) | (mode << 62);
}

static inline const char* layout_name(const SmemLayout& L, char* buf) {
  sprintf(buf, "%s-major %s LBO=%d SBO=%d", L.major == MAJOR_K ? "K" : "MN",
          L.swz == 0 ? "noswz" : L.swz == 32 ? "32B" : L.swz == 64 ? "64B" : "128B", L.lbo, L.sbo);
  return buf;
}

// ---------------------------------------------------------------------------------------
// 4. Element encodings (values are always small exact numbers, so no rounding is involved)
// ---------------------------------------------------------------------------------------
// IEEE-style binary with 'eb' exponent bits and 'mb' mantissa bits (normal numbers and 0).
static inline uint32_t enc_fp(double v, int eb, int mb) {
  if (v == 0) return 0;
  uint32_t s = v < 0 ? 1u : 0u;
  double a = fabs(v);
  int e = (int)floor(log2(a));
  double frac = a / ldexp(1.0, e) - 1.0;
  double mant = ldexp(frac, mb);
  int bias = (1 << (eb - 1)) - 1;
  if (mant != floor(mant) || e + bias <= 0 || e + bias >= (1 << eb)) {
    fprintf(stderr, "internal: %g is not exact in e%dm%d\n", v, eb, mb);
    exit(2);
  }
  return (s << (eb + mb)) | ((uint32_t)(e + bias) << mb) | (uint32_t)mant;
}
static inline double dec_fp(uint32_t b, int eb, int mb) {
  uint32_t s = (b >> (eb + mb)) & 1, e = (b >> mb) & ((1u << eb) - 1), m = b & ((1u << mb) - 1);
  int bias = (1 << (eb - 1)) - 1;
  double v;
  if (e == 0) v = ldexp((double)m, 1 - bias - mb);
  else if (e == (1u << eb) - 1) v = m ? NAN : INFINITY;
  else v = ldexp(1.0 + ldexp((double)m, -mb), (int)e - bias);
  return s ? -v : v;
}
static inline int elem_bytes(int ty) {
  switch (ty) { case TY_F16: case TY_BF16: return 2; case TY_TF32: return 4; default: return 1; }
}
// Bits of value v stored as type ty (low elem_bytes(ty) bytes are meaningful).
static inline uint32_t encode_elem(int ty, double v) {
  switch (ty) {
    case TY_F16: return enc_fp(v, 5, 10);
    case TY_BF16: return enc_fp(v, 8, 7);
    case TY_TF32: return enc_fp(v, 8, 23);  // a .tf32 operand is a 32-bit float pattern
    case TY_E4M3: return enc_fp(v, 4, 3);
    case TY_E5M2: return enc_fp(v, 5, 2);
    case TY_S8: return (uint32_t)(int32_t)v & 0xFF;
    case TY_U8: return (uint32_t)v & 0xFF;
  }
  return 0;
}

// Deterministic small integers, different for every (tag, i, j).
static inline uint32_t mix(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16;
  return x;
}
static inline int small_int(uint32_t tag, int i, int j, int lo, int hi) {
  uint32_t h = mix(tag * 0x9E3779B9u ^ mix((uint32_t)i * 65537u + (uint32_t)j * 31u + 7u));
  return lo + (int)(h % (uint32_t)(hi - lo + 1));
}

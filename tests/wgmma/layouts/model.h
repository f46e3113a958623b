// WG_HOST_MODEL builds only: a host stand-in for the device, so that the harness itself
// (images, descriptors, step offsets, register packing, decoding, the checker) can be run
// without a GPU or a wgmma-capable emulator.  It executes the instruction the way layout.h
// reads the ISA, starting from the 64-bit descriptors exactly as the kernel forms them.
// WG_MODEL_BUG=<n> in the environment injects a known mistake to see the checker fail:
//   1 swap LBO and SBO   2 swizzle relative to the start address   3 D rows 8..15 swapped
//   4 A register halves swapped   5 ignore imm-scale-a
#pragma once
#include <stdlib.h>

static inline double decode_elem(int ty, uint32_t b) {
  switch (ty) {
    case TY_F16: return dec_fp(b & 0xFFFF, 5, 10);
    case TY_BF16: return dec_fp(b & 0xFFFF, 8, 7);
    case TY_TF32: return dec_fp(b & 0xFFFFE000u, 8, 23);  // tf32: top 19 bits
    case TY_E4M3: return dec_fp(b & 0xFF, 4, 3);
    case TY_E5M2: return dec_fp(b & 0xFF, 5, 2);
    case TY_S8: return (double)(int8_t)(b & 0xFF);
    case TY_U8: return (double)(b & 0xFF);
  }
  return 0;
}

template <class Op, int SA, int SB, int TA, int TB, int STEPS>
static void host_model(const DevArgs& g, const std::vector<uint8_t>& imgA, const std::vector<uint8_t>& imgB,
                       const std::vector<uint32_t>& aregs, const std::vector<uint32_t>& dinit,
                       std::vector<uint32_t>& dout) {
  const int bug = getenv("WG_MODEL_BUG") ? atoi(getenv("WG_MODEL_BUG")) : 0;
  const int K = Op::K, NR = Op::NR;
  const uint32_t base = 0x2400;  // some 1024-aligned shared address
  std::vector<uint8_t> smem(base + g.offB + imgB.size() + 1024, 0);
  memcpy(&smem[base], imgA.data(), imgA.size());
  memcpy(&smem[base + g.offB], imgB.data(), imgB.size());
  // Reads element (mn, k), k < K, of one instruction's operand through a descriptor.
  auto rd = [&](uint64_t desc, int major, int ty, int mn, int k) -> double {
    uint32_t start = (uint32_t)(desc & 0x3FFF) << 4;
    SmemLayout L;
    memset(&L, 0, sizeof L);
    L.lbo = (int)((desc >> 16) & 0x3FFF) << 4;
    L.sbo = (int)((desc >> 32) & 0x3FFF) << 4;
    if (bug == 1) std::swap(L.lbo, L.sbo);
    int mode = (int)(desc >> 62);
    L.swz = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
    L.major = major;
    L.E = elem_bytes(ty);
    int addr = bug == 2 ? (int)start + swizzle_bytes(raw_offset(L, mn, k), L.swz)
                        : swizzle_bytes((int)start + raw_offset(L, mn, k), L.swz);
    if (addr < 0 || addr + L.E > (int)smem.size()) return NAN;  // outside shared memory
    uint32_t b = 0;
    for (int i = 0; i < L.E; ++i) b |= (uint32_t)smem[addr + i] << (8 * i);
    return decode_elem(ty, b);
  };
  // A fragments back into a matrix (register i/2, half i%2 holds a_i).
  std::vector<double> Areg(STEPS * 64 * K, 0);
  if (Op::A_REGS)
    for (int s = 0; s < STEPS; ++s)
      for (int t = 0; t < 128; ++t)
        for (int i = 0; i < 8; ++i) {
          int row, k;
          a16_coord(t, i, &row, &k);
          int h = bug == 4 ? 1 - i % 2 : i % 2;
          Areg[(s * 64 + row) * K + k] = decode_elem(Op::TYA, aregs[(s * 128 + t) * 4 + i / 2] >> (16 * h));
        }
  const int per = Op::DT == DT_F16 ? 2 : 1;
  for (int t = 0; t < 128; ++t)
    for (int j = 0; j < NR; ++j) {
      uint32_t word = 0;
      for (int h = 0; h < per; ++h) {
        int ei = j * per + h, row, col;
        d_coord(t, ei, &row, &col);
        if (bug == 3) row ^= 8;
        double acc;
        uint32_t in = per == 2 ? (dinit[t * NR + j] >> (16 * h)) & 0xFFFF : dinit[t * NR + j];
        if (Op::DT == DT_F16) acc = dec_fp(in, 5, 10);
        else if (Op::DT == DT_F32) { float f; memcpy(&f, &in, 4); acc = f; }
        else acc = (double)(int32_t)in;
        for (int s = 0; s < STEPS; ++s) {
          if (s == 0 && !g.scale_d0) acc = 0;
          uint64_t bdesc = g.fieldsB | desc_encode(base + g.offB + g.stepB[s]);
          uint64_t adesc = g.fieldsA | desc_encode(base + g.stepA[s]);
          for (int k = 0; k < K; ++k) {
            double a = Op::A_REGS ? Areg[(s * 64 + row) * K + k] : rd(adesc, TA, Op::TYA, row, k);
            double b = rd(bdesc, TB, Op::TYB, col, k);
            acc += (bug == 5 ? 1 : SA) * a * (SB * b);
          }
        }
        if (Op::DT == DT_S32 && !(fabs(acc) < 2147483648.0)) acc = 0x7FFFFFFF;
        if (Op::DT == DT_F16) {
          // exact results only come out of a correct model; anything else becomes a NaN
          bool exact = acc == 0 || (fabs(acc) < 65504 && fabs(acc) >= 1.0 / 16384 &&
                                    ldexp(acc, 10 - (int)floor(log2(fabs(acc)))) == floor(ldexp(acc, 10 - (int)floor(log2(fabs(acc))))));
          word |= (exact ? enc_fp(acc, 5, 10) : 0x7E00u) << (16 * h);
        }
        else if (Op::DT == DT_F32) { float f = (float)acc; memcpy(&word, &f, 4); }
        else word = (uint32_t)(int32_t)acc;
      }
      dout[t * NR + j] = word;
    }
}

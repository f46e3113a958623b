// Host-only checks of layout.h against the PTX ISA's own worked examples, run by every test
// program before any launch (they need no GPU and no emulator).
#pragma once
#include "layout.h"
#include <vector>


static int selfcheck_fail = 0;
static void sc_expect(bool ok, const char* what) {
  if (!ok) { printf("SELFCHECK FAIL: %s\n", what); ++selfcheck_fail; }
}

// ISA example: "Exact layout" (in elements) vs our byte offsets (before swizzle) for every
// (mn, k) in the example's domain.
static void sc_example(const char* what, const SmemLayout& L, int mnext, int kext,
                       const int* s0, const int* d0, int n0, const int* s1, const int* d1, int n1) {
  bool ok = true;
  for (int mn = 0; mn < mnext && ok; ++mn)
    for (int k = 0; k < kext && ok; ++k) {
      int want = (cute_mode(mn, s0, d0, n0) + cute_mode(k, s1, d1, n1)) * L.E;
      int got = raw_offset(L, mn, k);
      if (want != got) {
        printf("SELFCHECK %s: (mn=%d,k=%d) ISA %d bytes, ours %d\n", what, mn, k, want, got);
        ok = false;
      }
    }
  sc_expect(ok, what);
}

static int self_check() {
  // 1. Fragment maps are one-to-one and onto.
  for (int N : {8, 64, 256}) {
    std::vector<int> seen(64 * N, 0);
    for (int t = 0; t < 128; ++t)
      for (int i = 0; i < N / 2; ++i) {
        int r, c;
        d_coord(t, i, &r, &c);
        if (r >= 0 && r < 64 && c >= 0 && c < N) seen[r * N + c]++;
      }
    bool ok = true;
    for (int v : seen) ok &= v == 1;
    sc_expect(ok, "D fragment map is a bijection onto 64xN");
  }
  {
    std::vector<int> seen(64 * 16, 0);
    for (int t = 0; t < 128; ++t)
      for (int i = 0; i < 8; ++i) {
        int r, k;
        a16_coord(t, i, &r, &k);
        if (r >= 0 && r < 64 && k >= 0 && k < 16) seen[r * 16 + k]++;
      }
    bool ok = true;
    for (int v : seen) ok &= v == 1;
    sc_expect(ok, "A k16 fragment map is a bijection onto 64x16");
  }
  // Spot values read off the ISA figures: thread 0 holds D[0][0],D[0][1],D[8][0],D[8][1],
  // then D[0][8]...; thread 37 (warp 1 lane 5) starts at D[17][2].
  {
    int r, c;
    d_coord(0, 2, &r, &c); sc_expect(r == 8 && c == 0, "D: thread 0 d2 = (8,0)");
    d_coord(0, 4, &r, &c); sc_expect(r == 0 && c == 8, "D: thread 0 d4 = (0,8)");
    d_coord(37, 0, &r, &c); sc_expect(r == 17 && c == 2, "D: thread 37 d0 = (17,2)");
    d_coord(127, 127, &r, &c); sc_expect(r == 63 && c == 255, "D: thread 127 d127 = (63,255)");
  }

  // 2. The ISA's worked examples of canonical layouts (9.7.15.5.1.2.1.3).
  SmemLayout L;
  // K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)), LBO = 64*4, SBO = 32*4.
  L = SmemLayout{MAJOR_K, 0, 64 * 4, 32 * 4, 0, 4};
  { int s0[] = {8, 2}, d0[] = {4, 32}, s1[] = {4, 4}, d1[] = {1, 64};
    sc_example("K-major none tf32", L, 16, 16, s0, d0, 2, s1, d1, 2); }
  // K-major, 32B swizzle, tf32: ((8,2),(4,4)):((8,64),(1,4)), SBO = 64*4.  Only k < 8 (one
  // 32-byte line): the example's K extent of 16 tf32 = 64 bytes would overlap the next row
  // (row stride 32 bytes), so it cannot be meant literally beyond one line.
  L = SmemLayout{MAJOR_K, 32, 16, 64 * 4, 0, 4};
  { int s0[] = {8, 2}, d0[] = {8, 64}, s1[] = {4, 2}, d1[] = {1, 4};
    sc_example("K-major 32B tf32 (first line)", L, 16, 8, s0, d0, 2, s1, d1, 2); }
  // MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO = 128*2, SBO = 64*2.
  L = SmemLayout{MAJOR_MN, 0, 128 * 2, 64 * 2, 0, 2};
  { int s0[] = {8, 1, 2}, d0[] = {1, 8, 64}, s1[] = {8, 2}, d1[] = {8, 128};
    sc_example("MN-major none bf16", L, 16, 16, s0, d0, 3, s1, d1, 2); }
  // MN-major, 32B swizzle, bf16: ((8,2,2),(8,2)):((1,8,128),(16,256)), LBO = 128*2, SBO = 256*2.
  L = SmemLayout{MAJOR_MN, 32, 128 * 2, 256 * 2, 0, 2};
  { int s0[] = {8, 2, 2}, d0[] = {1, 8, 128}, s1[] = {8, 2}, d1[] = {16, 256};
    sc_example("MN-major 32B bf16", L, 32, 16, s0, d0, 3, s1, d1, 2); }
  // MN-major, 64B swizzle, bf16: ((8,4,2),(8,2)):((1,8,256),(32,512)), LBO = 256*2, SBO = 512*2.
  L = SmemLayout{MAJOR_MN, 64, 256 * 2, 512 * 2, 0, 2};
  { int s0[] = {8, 4, 2}, d0[] = {1, 8, 256}, s1[] = {8, 2}, d1[] = {32, 512};
    sc_example("MN-major 64B bf16", L, 64, 16, s0, d0, 3, s1, d1, 2); }
  // Descriptor encodings given with the examples: LBO 64*4 -> 16, SBO 32*4 -> 8.
  sc_expect(desc_encode(64 * 4) == 16 && desc_encode(32 * 4) == 8, "descriptor encode");
  // 128B swizzle: in a 1024-byte atom, line r's 16-byte chunk c lands at chunk c ^ r.
  sc_expect(swizzle_bytes(3 * 128 + 5 * 16 + 6, 128) == 3 * 128 + (5 ^ 3) * 16 + 6, "128B swizzle");
  sc_expect(swizzle_bytes(3 * 64 + 1 * 16 + 2, 64) == 3 * 64 + (1 ^ 1) * 16 + 2, "64B swizzle");
  sc_expect(swizzle_bytes(5 * 32 + 0 * 16 + 2, 32) == 5 * 32 + 1 * 16 + 2, "32B swizzle");
  // Element encodings.
  sc_expect(encode_elem(TY_F16, 1.0) == 0x3C00 && encode_elem(TY_F16, -2.0) == 0xC000, "f16 encode");
  sc_expect(encode_elem(TY_BF16, 1.0) == 0x3F80 && encode_elem(TY_BF16, -3.0) == 0xC040, "bf16 encode");
  sc_expect(encode_elem(TY_E4M3, 1.0) == 0x38 && encode_elem(TY_E4M3, -6.0) == 0xCC, "e4m3 encode");
  sc_expect(encode_elem(TY_E5M2, 1.0) == 0x3C && encode_elem(TY_E5M2, 6.0) == 0x46, "e5m2 encode");
  sc_expect(encode_elem(TY_TF32, 2.0) == 0x40000000u, "tf32 encode");
  if (selfcheck_fail) printf("SELFCHECK: %d failures\n", selfcheck_fail);
  else printf("SELFCHECK ok (fragment maps, ISA layout examples, encodings)\n");
  return selfcheck_fail;
}

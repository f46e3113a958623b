// wgmma.mma_async with .f16 / .bf16 multiplicands: f32 and f16 accumulators, A from a
// descriptor and from registers, K-major and MN-major (imm-trans = 1) operands, no swizzle
// and 32B/64B/128B swizzles, scale-d 0 and 1, imm-scale-a/b = -1.
#include "harness.h"
#include "selfcheck.h"

// Layout shorthands: (rows in M/N, total K, element bytes, order, pad)
#define KN(r, kt, o, p) make_layout(MAJOR_K, 0, r, kt, 2, o, p)
#define KS(s, r, kt, p) make_layout(MAJOR_K, s, r, kt, 2, 0, p)
#define MNN(r, kt, o, p) make_layout(MAJOR_MN, 0, r, kt, 2, o, p)
#define MNS(s, r, kt, o, p) make_layout(MAJOR_MN, s, r, kt, 2, o, p)

static CaseCfg mk(const char* name, int steps, SmemLayout la, SmemLayout lb, int sd) {
  CaseCfg c;
  c.name = name; c.steps = steps; c.la = la; c.lb = lb; c.scale_d0 = sd;
  return c;
}

typedef Op_m64n8k16_f32_f16_f16_SS F16_8;
typedef Op_m64n64k16_f32_f16_f16_SS F16_64;
typedef Op_m64n256k16_f32_f16_f16_SS F16_256;
typedef Op_m64n8k16_f32_bf16_bf16_SS BF_8;
typedef Op_m64n64k16_f32_bf16_bf16_SS BF_64;
typedef Op_m64n256k16_f32_bf16_bf16_SS BF_256;
typedef Op_m64n8k16_f16_f16_f16_SS H_8;
typedef Op_m64n64k16_f16_f16_f16_SS H_64;
typedef Op_m64n8k16_f32_f16_f16_RS R_8;
typedef Op_m64n64k16_f32_f16_f16_RS R_64;
typedef Op_m64n256k16_f32_f16_f16_RS R_256;
typedef Op_m64n64k16_f32_bf16_bf16_RS RBF_64;
typedef Op_m64n64k16_f16_f16_f16_RS RH_64;

static SmemLayout none_layout() { SmemLayout L; memset(&L, 0, sizeof L); L.E = 2; return L; }

int main() {
  if (self_check()) return 2;
  const SmemLayout RA = none_layout();  // A in registers

  // ---- f32 += f16 * f16, A and B by descriptor ----
  // Template: <Op, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b, K steps>
  run_case<F16_8, 1, 1, 0, 0, 1>(mk("K/K noswz", 1, KN(64, 16, 0, 0), KN(8, 16, 1, 1), 0));
  run_case<F16_8, 1, 1, 1, 1, 1>(mk("MN/MN 128B/noswz", 1, MNS(128, 64, 16, 0, 0), MNN(8, 16, 0, 1), 1));
  run_case<F16_64, 1, 1, 0, 0, 4>(mk("K/K 128B, 4 K-steps inside one 128B line (start +32B)", 4, KS(128, 64, 64, 0), KS(128, 64, 64, 1), 0));
  run_case<F16_64, 1, 1, 0, 0, 2>(mk("K/K 64B/32B accumulate", 2, KS(64, 64, 32, 0), KS(32, 64, 32, 1), 1));
  run_case<F16_64, 1, 1, 0, 0, 2>(mk("K/K noswz/noswz accumulate", 2, KN(64, 32, 1, 1), KN(64, 32, 0, 0), 1));
  run_case<F16_64, 1, 1, 1, 1, 1>(mk("MN/MN noswz", 1, MNN(64, 16, 0, 1), MNN(64, 16, 1, 0), 1));
  run_case<F16_64, 1, 1, 1, 1, 2>(mk("MN/MN 128B", 2, MNS(128, 64, 32, 0, 0), MNS(128, 64, 32, 1, 1), 0));
  run_case<F16_64, 1, 1, 1, 1, 2>(mk("MN/MN 64B/32B", 2, MNS(64, 64, 32, 0, 1), MNS(32, 64, 32, 1, 0), 1));
  run_case<F16_64, -1, 1, 0, 1, 1>(mk("K/MN 32B/64B negA", 1, KS(32, 64, 16, 1), MNS(64, 64, 16, 0, 0), 1));
  run_case<F16_64, 1, -1, 1, 0, 1>(mk("MN/K 32B/noswz negB", 1, MNS(32, 64, 16, 1, 1), KN(64, 16, 0, 1), 1));
  run_case<F16_256, 1, 1, 0, 0, 1>(mk("K/K 128B", 1, KS(128, 64, 16, 0), KS(128, 256, 16, 0), 0));
  run_case<F16_256, 1, 1, 1, 1, 2>(mk("MN/MN 64B/128B accumulate", 2, MNS(64, 64, 32, 0, 0), MNS(128, 256, 32, 0, 1), 1));
  run_case<F16_256, -1, -1, 0, 1, 1>(mk("K/MN noswz negA negB", 1, KN(64, 16, 0, 0), MNN(256, 16, 1, 1), 1));

  // ---- f32 += bf16 * bf16 ----
  run_case<BF_8, 1, 1, 0, 0, 1>(mk("K/K noswz", 1, KN(64, 16, 1, 0), KN(8, 16, 0, 0), 0));
  run_case<BF_64, 1, 1, 0, 0, 4>(mk("K/K 128B accumulate", 4, KS(128, 64, 64, 1), KS(128, 64, 64, 0), 1));
  run_case<BF_64, 1, 1, 1, 1, 1>(mk("MN/MN 128B/64B", 1, MNS(128, 64, 16, 0, 0), MNS(64, 64, 16, 1, 1), 0));
  run_case<BF_256, -1, 1, 0, 1, 1>(mk("K/MN 64B/32B negA", 1, KS(64, 64, 16, 0), MNS(32, 256, 16, 0, 0), 1));

  // ---- f16 += f16 * f16 (f16 accumulator, packed two per register) ----
  run_case<H_8, -1, 1, 0, 0, 1>(mk("K/K noswz/32B negA", 1, KN(64, 16, 0, 1), KS(32, 8, 16, 0), 1));
  run_case<H_64, 1, 1, 0, 0, 2>(mk("K/K 128B accumulate", 2, KS(128, 64, 32, 0), KS(128, 64, 32, 0), 1));
  run_case<H_64, 1, 1, 1, 1, 1>(mk("MN/MN noswz/128B", 1, MNN(64, 16, 1, 1), MNS(128, 64, 16, 0, 0), 0));

  // ---- A from registers ----
  run_case<R_8, 1, 1, 0, 0, 1>(mk("B K noswz", 1, RA, KN(8, 16, 0, 1), 0));
  run_case<R_64, 1, 1, 0, 0, 4>(mk("B K 128B accumulate", 4, RA, KS(128, 64, 64, 0), 1));
  run_case<R_64, -1, 1, 0, 1, 2>(mk("B MN 64B negA accumulate", 2, RA, MNS(64, 64, 32, 1, 0), 1));
  run_case<R_256, 1, 1, 0, 1, 1>(mk("B MN 128B", 1, RA, MNS(128, 256, 16, 0, 1), 0));
  run_case<R_256, 1, -1, 0, 0, 2>(mk("B K 32B negB accumulate", 2, RA, KS(32, 256, 32, 0), 1));
  run_case<RBF_64, 1, 1, 0, 0, 2>(mk("bf16, B K 64B accumulate", 2, RA, KS(64, 64, 32, 1), 1));
  run_case<RH_64, -1, 1, 0, 1, 2>(mk("f16 acc, B MN noswz negA", 2, RA, MNN(64, 32, 0, 1), 1));
  return finish("test_f16");
}

// wgmma.mma_async .m64nNk32 with .e4m3/.e5m2 multiplicands (mixed too) into .f32 and .f16:
// A and B by descriptor, K-major only, no swizzle and 32B/64B/128B, scale-d 0/1,
// imm-scale-a/b = -1.  Values are integers in [-6, 6], exact in both 8-bit formats.
#include "harness.h"
#include "selfcheck.h"

#define KN(r, kt, o, p) make_layout(MAJOR_K, 0, r, kt, 1, o, p)
#define KS(s, r, kt, p) make_layout(MAJOR_K, s, r, kt, 1, 0, p)

static CaseCfg mk(const char* name, SmemLayout la, SmemLayout lb, int sd) {
  CaseCfg c;
  c.name = name; c.la = la; c.lb = lb; c.scale_d0 = sd;
  c.vlo_a = c.vlo_b = -6; c.vhi_a = c.vhi_b = 6;
  return c;
}
typedef Op_m64n8k32_f32_e4m3_e4m3_SS E8;
typedef Op_m64n64k32_f32_e4m3_e4m3_SS E64;
typedef Op_m64n64k32_f32_e5m2_e5m2_SS F64;
typedef Op_m64n256k32_f32_e4m3_e5m2_SS EF256;
typedef Op_m64n64k32_f16_e4m3_e4m3_SS H64;

int main() {
  if (self_check()) return 2;
  run_case<E8, 1, 1, 0, 0, 1>(mk("K/K noswz", KN(64, 32, 0, 0), KN(8, 32, 1, 1), 0));
  run_case<E64, 1, 1, 0, 0, 4>(mk("K/K 128B, 4 K-steps inside one 128B line", KS(128, 64, 128, 0), KS(128, 64, 128, 1), 1));
  run_case<E64, -1, 1, 0, 0, 2>(mk("K/K 32B/64B negA accumulate", KS(32, 64, 64, 0), KS(64, 64, 64, 1), 1));
  run_case<F64, 1, -1, 0, 0, 1>(mk("K/K noswz/128B negB", KN(64, 32, 1, 1), KS(128, 64, 32, 0), 1));
  run_case<EF256, 1, 1, 0, 0, 2>(mk("e4m3 x e5m2 K/K 64B/128B", KS(64, 64, 64, 1), KS(128, 256, 64, 0), 0));
  run_case<H64, 1, 1, 0, 0, 1>(mk("f16 acc K/K 128B/noswz", KS(128, 64, 32, 0), KN(64, 32, 0, 1), 1));
  return finish("test_fp8");
}

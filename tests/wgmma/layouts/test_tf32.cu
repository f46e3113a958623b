// wgmma.mma_async .m64nNk8 .f32.tf32.tf32: A and B by descriptor, K-major only (the ISA
// allows imm-trans only for .f16/.bf16), no swizzle and 32B/64B/128B swizzles, scale-d 0/1,
// imm-scale-a/b = -1.  A .tf32 element occupies 4 bytes (T = 4 elements per 16 bytes).
#include "harness.h"
#include "selfcheck.h"

#define KN(r, kt, o, p) make_layout(MAJOR_K, 0, r, kt, 4, o, p)
#define KS(s, r, kt, p) make_layout(MAJOR_K, s, r, kt, 4, 0, p)

static CaseCfg mk(const char* name, SmemLayout la, SmemLayout lb, int sd) {
  CaseCfg c;
  c.name = name; c.la = la; c.lb = lb; c.scale_d0 = sd;
  c.vlo_a = c.vlo_b = -8; c.vhi_a = c.vhi_b = 8;
  return c;
}
typedef Op_m64n8k8_f32_tf32_tf32_SS T8;
typedef Op_m64n64k8_f32_tf32_tf32_SS T64;

int main() {
  if (self_check()) return 2;
  run_case<T8, 1, 1, 0, 0, 1>(mk("K/K noswz", KN(64, 8, 0, 0), KN(8, 8, 1, 1), 0));
  run_case<T8, 1, 1, 0, 0, 2>(mk("K/K 32B/128B accumulate", KS(32, 64, 16, 0), KS(128, 8, 16, 1), 1));
  run_case<T64, 1, 1, 0, 0, 4>(mk("K/K 128B, 4 K-steps inside one 128B line", KS(128, 64, 32, 0), KS(128, 64, 32, 1), 0));
  run_case<T64, 1, 1, 0, 0, 2>(mk("K/K noswz accumulate", KN(64, 16, 1, 1), KN(64, 16, 0, 1), 1));
  run_case<T64, -1, 1, 0, 0, 2>(mk("K/K 32B/64B negA accumulate", KS(32, 64, 16, 1), KS(64, 64, 16, 0), 1));
  run_case<T64, 1, -1, 0, 0, 1>(mk("K/K 64B/noswz negB", KS(64, 64, 8, 0), KN(64, 8, 1, 0), 0));
  return finish("test_tf32");
}

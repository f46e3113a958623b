// wgmma.mma_async .m64nNk32 .s32 with .s8/.u8 multiplicands: A and B by descriptor,
// K-major only, no imm-scale operands (integer form: d, a-desc, b-desc, scale-d), no swizzle
// and 32B/64B/128B, scale-d 0/1.  Values span the whole 8-bit range so that a sign or
// zero-extension mistake shows.
#include "harness.h"
#include "selfcheck.h"

#define KN(r, kt, o, p) make_layout(MAJOR_K, 0, r, kt, 1, o, p)
#define KS(s, r, kt, p) make_layout(MAJOR_K, s, r, kt, 1, 0, p)

static CaseCfg mk(const char* name, SmemLayout la, SmemLayout lb, int sd, bool ua = false) {
  CaseCfg c;
  c.name = name; c.la = la; c.lb = lb; c.scale_d0 = sd;
  c.vlo_a = ua ? 0 : -128; c.vhi_a = ua ? 255 : 127;
  c.vlo_b = -128; c.vhi_b = 127;
  return c;
}
typedef Op_m64n8k32_s32_s8_s8_SS S8;
typedef Op_m64n64k32_s32_s8_s8_SS S64;
typedef Op_m64n64k32_s32_u8_s8_SS U64;

int main() {
  if (self_check()) return 2;
  run_case<S8, 1, 1, 0, 0, 1>(mk("K/K noswz", KN(64, 32, 0, 0), KN(8, 32, 1, 1), 0));
  run_case<S64, 1, 1, 0, 0, 2>(mk("K/K 128B accumulate (start +32B)", KS(128, 64, 64, 0), KS(128, 64, 64, 1), 1));
  run_case<S64, 1, 1, 0, 0, 2>(mk("K/K 32B/64B", KS(32, 64, 64, 1), KS(64, 64, 64, 0), 0));
  run_case<U64, 1, 1, 0, 0, 2>(mk("u8 x s8 K/K noswz/32B accumulate", KN(64, 64, 1, 0), KS(32, 64, 64, 0), 1, true));
  return finish("test_int8");
}

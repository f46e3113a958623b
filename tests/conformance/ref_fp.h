/*
 * ref_fp.h -- binary floating-point formats for the references, from their
 * definitions: a sign, an exponent field of ebits with bias 2^(ebits-1) - 1,
 * a fraction of mbits; exponent field 0 holds the subnormals, all ones the
 * infinities and NaNs (e4m3 instead has no infinities and one NaN
 * magnitude, S.1111.111).
 *
 * Values are carried as __float128 (113-bit significands).  A result that
 * is not exact in it is computed rounded to odd (toward zero, then the last
 * bit set when anything was lost), which keeps the side of every rounding
 * boundary of any narrower format, so rounding it once more with
 * rf_round() is exact in every mode.
 */
#ifndef PTXSIM_REF_FP_H
#define PTXSIM_REF_FP_H

#include "conf.h"

typedef __float128 quad;

typedef struct ref_fmt {
    int ebits, mbits;
    bool ieee;              /* infinities and NaNs as IEEE 754 (not e4m3) */
} ref_fmt;

extern const ref_fmt RF_F16, RF_BF16, RF_TF32, RF_F32, RF_F64, RF_E4M3, RF_E5M2;

/* The format of a scalar conf_type (element type for pairs), or NULL. */
const ref_fmt *rf_of(uint8_t t);

int rf_bits(const ref_fmt *f);                  /* 1 + ebits + mbits */
uint64_t rf_sign(const ref_fmt *f);             /* the sign bit */
uint64_t rf_inf(const ref_fmt *f);              /* +infinity's bits (e4m3: its NaN) */
uint64_t rf_max(const ref_fmt *f);              /* the largest finite magnitude's bits */
bool rf_isnan(const ref_fmt *f, uint64_t b);
bool rf_isinf(const ref_fmt *f, uint64_t b);
bool rf_issub(const ref_fmt *f, uint64_t b);    /* subnormal (not zero) */
bool rf_iszero(const ref_fmt *f, uint64_t b);
bool rf_neg(const ref_fmt *f, uint64_t b);
/* .ftz on an input or a result: a subnormal becomes a zero of its sign. */
uint64_t rf_ftz(const ref_fmt *f, uint64_t b);
/* .ftz on a result before it is rounded under mode: x (exact, or rounded
 * to odd) becomes a zero of its sign when it is tiny after rounding, that
 * is when rounded to the format's precision with no lower bound on the
 * exponent it is still below the smallest normal (IEEE 754's "after
 * rounding"; an H200 gives +0 for mul.ftz.f32 0x3F7FFFFF, 0x00800000,
 * (1 - 2^-24) * 2^-126, and 2^-126 for cvt.rn.ftz.f32.f64 of
 * (1 - 2^-25) * 2^-126). */
quad rf_flush_tiny(const ref_fmt *f, quad x, int mode);

/* The exact value of b (NaN for NaNs). */
quad rf_value(const ref_fmt *f, uint64_t b);

/* x rounded to the format under mode (CR_RN, CR_RZ, CR_RM, CR_RP, CR_RNA),
 * with IEEE overflow: to infinity, or to the largest finite value when the
 * mode rounds toward zero from there.  NaN gives the format's canonical
 * quiet NaN with every fraction bit set (0x7FFF...; the ISA names it for
 * the conversions that mention one); -0 stays -0.  e4m3 has no infinity:
 * overflow gives its NaN. */
uint64_t rf_round(const ref_fmt *f, quad x, int mode);
/* .sat on a float result r (not a NaN): clamped to [0, 1]; a zero may then
 * have either sign (*zero_any is set). */
uint64_t rf_saturate(const ref_fmt *f, uint64_t r, bool *zero_any);
/* True if x overflows the format under mode (is past the largest finite
 * value after rounding), for .satfinite. */
bool rf_overflows(const ref_fmt *f, quad x, int mode);

/* Round-to-odd arithmetic on quads (see above).  Exact zero results keep
 * IEEE's sign rules for round toward zero: +0 for x + (-x). */
quad rq_add(quad a, quad b);
quad rq_mul(quad a, quad b);
quad rq_div(quad a, quad b);

/* NaN and infinity tests on quads. */
static inline bool q_isnan(quad x) { return x != x; }
static inline bool q_isinf(quad x) { return !q_isnan(x) && (x - x) != 0; }
static inline bool q_signbit(quad x)
{
    return __builtin_signbit((double)x) || (x == 0 && 1 / (double)x < 0);
}

/* Host IEEE arithmetic in a rounding mode (fesetround around it). */
int rf_host_mode(int mode);                     /* conf_rnd -> FE_* */

#endif /* PTXSIM_REF_FP_H */

/*
 * ref_half.c -- references for half-precision arithmetic (PTX ISA 9.7.4
 * "Half Precision Floating-Point Instructions"): add sub mul fma neg abs
 * min max ex2 tanh on .f16, .f16x2, .bf16 and .bf16x2, and fma.rn.oob.
 *
 * Each element (bits 15..0, and 31..16 for the x2 types) is computed on
 * its own: the exact result (round to odd where it is not exact) rounded
 * once to the element's format (.rn, the only rounding these take);
 * .ftz flushes subnormal inputs and results to zeros of their sign; .sat
 * clamps to [0.0, 1.0] (NaN to +0); .relu makes negative results +0 and
 * NaN the canonical NaN 0x7FFF.  min/max as for f32, with the canonical
 * NaN 0x7FFF.  Other NaN results: any NaN.
 */
#include "refs.h"
#include "ref_fp.h"

#include <math.h>

static uint8_t ty(const conf_form *f) { return f->type[f->ntypes - 1]; }
static bool pair(const conf_form *f) { return ty(f) == CT_F16X2 || ty(f) == CT_BF16X2; }
static const ref_fmt *fmt(const conf_form *f) { return rf_of(ty(f)); }

static uint64_t elem(uint64_t v, unsigned at) { return (v >> at) & 0xFFFF; }

/* An element's value after .ftz. */
static quad hv(const conf_form *f, uint64_t v, unsigned at)
{
    uint64_t b = elem(v, at);
    return rf_value(fmt(f), conf_has(f, CF_FTZ) ? rf_ftz(fmt(f), b) : b);
}

static uint64_t hresult(const conf_form *f, quad x, conf_want *w)
{
    const ref_fmt *fm = fmt(f);
    if (q_isnan(x)) {
        if (conf_has(f, CF_SAT))
            return 0;
        w->nan_any[0] |= !conf_has(f, CF_RELU);
        return rf_round(fm, x, CR_RN);         /* 0x7FFF, the canonical NaN */
    }
    if (conf_has(f, CF_FTZ))
        x = rf_flush_tiny(fm, x, CR_RN);       /* tiny after rounding */
    uint64_t r = rf_round(fm, x, CR_RN);
    if (conf_has(f, CF_FTZ))
        r = rf_ftz(fm, r);
    if (conf_has(f, CF_RELU) && rf_neg(fm, r))
        r = 0;
    if (conf_has(f, CF_SAT))
        r = rf_saturate(fm, r, &w->zero_any[0]);
    return r;
}

/* p + c rounded to odd, with the exact-zero sign rules of round to nearest. */
static quad hsum(quad p, quad c)
{
    quad r = rq_add(p, c);
    if (r == 0 && !q_isnan(r))
        return p == 0 && c == 0 && q_signbit(p) && q_signbit(c) ? -0.0Q : 0.0Q;
    return r;
}

typedef quad (*hop)(quad x, quad y, quad z);
static quad op_add(quad x, quad y, quad z) { (void)z; return hsum(x, y); }
static quad op_sub(quad x, quad y, quad z) { (void)z; return hsum(x, -y); }
static quad op_mul(quad x, quad y, quad z) { (void)z; return x * y; }     /* exact: 22 bits */
static quad op_fma(quad x, quad y, quad z) { return hsum(x * y, z); }

static void each(const conf_form *f, const uint64_t *s, conf_want *w, hop op, unsigned nsrc)
{
    uint64_t d = 0;
    for (unsigned at = 0; at < (pair(f) ? 32u : 16u); at += 16) {
        quad x = hv(f, s[0], at), y = nsrc > 1 ? hv(f, s[1], at) : 0, z = nsrc > 2 ? hv(f, s[2], at) : 0;
        d |= hresult(f, op(x, y, z), w) << at;
    }
    w->v[0] = d;
}

void ref_hadd(const conf_form *f, const uint64_t *s, conf_want *w) { each(f, s, w, op_add, 2); }
void ref_hsub(const conf_form *f, const uint64_t *s, conf_want *w) { each(f, s, w, op_sub, 2); }
void ref_hmul(const conf_form *f, const uint64_t *s, conf_want *w) { each(f, s, w, op_mul, 2); }
void ref_hfma(const conf_form *f, const uint64_t *s, conf_want *w) { each(f, s, w, op_fma, 3); }

/* fma.rn.oob: as fma.rn, except that an operand which is the tensor
 * unit's out-of-bounds NaN gives +0.  The ISA does not give that NaN's
 * bits, so a lane with any NaN operand element is left unchecked (and
 * sem_test.c pins ptxsim's choice); every other lane is plain fma.rn. */
void ref_hfma_oob(const conf_form *f, const uint64_t *s, conf_want *w)
{
    for (unsigned k = 0; k < 3; k++)
        for (unsigned at = 0; at < (pair(f) ? 32u : 16u); at += 16)
            if (q_isnan(rf_value(fmt(f), elem(s[k], at))))
                w->skip = true;
    each(f, s, w, op_fma, 3);
}

/* neg / abs: the sign bit flipped / cleared (after .ftz); a NaN stays a NaN. */
static void sign_op(const conf_form *f, const uint64_t *s, conf_want *w, bool flip)
{
    uint64_t d = 0;
    for (unsigned at = 0; at < (pair(f) ? 32u : 16u); at += 16) {
        uint64_t b = elem(s[0], at);
        if (conf_has(f, CF_FTZ))
            b = rf_ftz(fmt(f), b);
        d |= (flip ? b ^ 0x8000 : b & 0x7FFF) << at;
    }
    w->v[0] = d;
    w->nan_any[0] = true;
}

void ref_hneg(const conf_form *f, const uint64_t *s, conf_want *w) { sign_op(f, s, w, true); }
void ref_habs(const conf_form *f, const uint64_t *s, conf_want *w) { sign_op(f, s, w, false); }

/* min/max per element: NaN operands as for f32 (the other operand; two
 * NaNs or .NaN: canonical 0x7FFF); -0 below +0; .xorsign.abs on magnitudes
 * with the XOR of the signs. */
static uint64_t hminmax1(const conf_form *f, uint64_t a, uint64_t b, bool is_max)
{
    const ref_fmt *fm = fmt(f);
    if (conf_has(f, CF_FTZ)) {
        a = rf_ftz(fm, a);
        b = rf_ftz(fm, b);
    }
    uint64_t sign = (a ^ b) & 0x8000;
    bool xs = conf_has(f, CF_XORSIGN);
    if (xs) {
        a &= 0x7FFF;
        b &= 0x7FFF;
    }
    bool an = rf_isnan(fm, a), bn = rf_isnan(fm, b);
    if (an || bn) {
        if (conf_has(f, CF_NAN) || (an && bn))
            return 0x7FFF;
        uint64_t r = an ? b : a;
        return xs ? (r & 0x7FFF) | sign : r;
    }
    quad x = rf_value(fm, a), y = rf_value(fm, b);
    uint64_t r;
    if (x == y)
        r = is_max ? (rf_neg(fm, a) ? b : a) : (rf_neg(fm, a) ? a : b);
    else
        r = (is_max ? x > y : x < y) ? a : b;
    return xs ? (r & 0x7FFF) | sign : r;
}

static void hminmax(const conf_form *f, const uint64_t *s, conf_want *w, bool is_max)
{
    uint64_t d = 0;
    for (unsigned at = 0; at < (pair(f) ? 32u : 16u); at += 16)
        d |= hminmax1(f, elem(s[0], at), elem(s[1], at), is_max) << at;
    w->v[0] = d;
}

void ref_hmin(const conf_form *f, const uint64_t *s, conf_want *w) { hminmax(f, s, w, false); }
void ref_hmax(const conf_form *f, const uint64_t *s, conf_want *w) { hminmax(f, s, w, true); }

/* ex2.approx: relative error 2^-9.9 (f16) and 2^-7 (bf16), 3 ulp of the
 * element's format with the wanted value's own rounding; tanh.approx:
 * absolute error 2^-10.987 (f16) and 2^-8 (bf16), plus that rounding. */
static quad fn_ex2(quad x, quad y, quad z) { (void)y; (void)z; return (quad)exp2l((long double)x); }
static quad fn_tanh(quad x, quad y, quad z) { (void)y; (void)z; return (quad)tanhl((long double)x); }

void ref_hex2(const conf_form *f, const uint64_t *s, conf_want *w)
{
    each(f, s, w, fn_ex2, 1);
    w->ulp = 3;
    w->nan_any[0] = true;
}

void ref_htanh(const conf_form *f, const uint64_t *s, conf_want *w)
{
    each(f, s, w, fn_tanh, 1);
    w->abs_err = fmt(f) == &RF_BF16 ? 0x1p-8 + 0x1p-9 : 0x1.01p-11 + 0x1p-12;
    w->nan_any[0] = true;
}

/*
 * ref_float.c -- references for f32 and f64 arithmetic (PTX ISA 9.7.3
 * "Floating-Point Instructions"): add sub mul fma mad div rcp sqrt rsqrt
 * sin cos lg2 ex2 tanh abs neg min max copysign testp.
 *
 * The ISA's rules used here:
 *   - .rn .rz .rm .rp round the exact result once (no modifier: .rn);
 *     fma and mad with a rounding modifier are fused: a * b + c rounded
 *     once.  Results are computed as exact or round-to-odd quads and
 *     rounded by ref_fp.c, never through the host's float arithmetic.
 *   - .ftz: subnormal inputs and results become zeros of their sign
 *     (.f32 only; .f64 keeps subnormals); a result is flushed when it is
 *     tiny after rounding (rf_flush_tiny: what an H200 does).
 *   - .sat clamps the result to [0.0, 1.0], NaN to +0.
 *   - NaN results: any NaN, except min/max's "canonical NaN" (0x7FFFFFFF).
 *   - exact zero sums of opposite signs are +0, -0 under .rm (IEEE 754).
 *   - .approx forms are checked against the correctly rounded value with
 *     the error bound the ISA states for each (commented at each one);
 *     their special values (zeros, infinities, NaN) exactly.
 */
#include "refs.h"
#include "ref_fp.h"

#include <fenv.h>
#include <math.h>

static const ref_fmt *fmt_of(const conf_form *f) { return rf_of(f->type[f->ntypes - 1]); }
static bool ftz(const conf_form *f) { return f->type[f->ntypes - 1] == CT_F32 && conf_has(f, CF_FTZ); }
static uint64_t bits_of(const ref_fmt *fm, uint64_t v) { return v & ((rf_sign(fm) << 1) - 1); }

/* Source k's exact value after .ftz. */
static quad in(const conf_form *f, const uint64_t *s, unsigned k)
{
    const ref_fmt *fm = fmt_of(f);
    uint64_t b = bits_of(fm, s[k]);
    return rf_value(fm, ftz(f) ? rf_ftz(fm, b) : b);
}

static int mode_of(const conf_form *f)
{
    return f->rnd == CR_NONE ? CR_RN : f->rnd;
}

/* x rounded into the result (of the first type: mixed precision has
 * half sources) with .ftz and .sat; NaN loose. */
static void result(const conf_form *f, quad x, conf_want *w)
{
    const ref_fmt *fm = rf_of(f->type[0]);
    if (q_isnan(x)) {
        if (conf_has(f, CF_SAT)) {
            w->v[0] = 0;
            return;
        }
        w->v[0] = rf_round(fm, x, CR_RN);
        w->nan_any[0] = true;
        return;
    }
    if (ftz(f))
        x = rf_flush_tiny(fm, x, mode_of(f));
    uint64_t r = rf_round(fm, x, mode_of(f));
    if (ftz(f))
        r = rf_ftz(fm, r);
    if (conf_has(f, CF_SAT))
        r = rf_saturate(fm, r, &w->zero_any[0]);
    w->v[0] = r;
}

/* p + c, round to odd, with IEEE's signs of exact zeros under the mode. */
static quad sum(quad p, quad c, int mode)
{
    quad r = rq_add(p, c);
    if (r == 0 && !q_isnan(r)) {
        if (p == 0 && c == 0 && q_signbit(p) == q_signbit(c))
            return p;
        return mode == CR_RM ? -0.0Q : 0.0Q;
    }
    return r;
}

/* ---- add sub mul fma mad -------------------------------------------------------- */

void ref_fadd(const conf_form *f, const uint64_t *s, conf_want *w)
{
    result(f, sum(in(f, s, 0), in(f, s, 1), mode_of(f)), w);
}

void ref_fsub(const conf_form *f, const uint64_t *s, conf_want *w)
{
    result(f, sum(in(f, s, 0), -in(f, s, 1), mode_of(f)), w);
}

void ref_fmul(const conf_form *f, const uint64_t *s, conf_want *w)
{
    result(f, rq_mul(in(f, s, 0), in(f, s, 1)), w);
}

/* fma, and mad with a rounding modifier: a * b exact (at most 106 bits),
 * + c rounded once. */
void ref_ffma(const conf_form *f, const uint64_t *s, conf_want *w)
{
    result(f, sum(in(f, s, 0) * in(f, s, 1), in(f, s, 2), mode_of(f)), w);
}

/* .f32x2 (PTX ISA 8.6): the f32 operation on each element of the pairs
 * (fA[i] = a[32i+31:32i] ...), without .sat. */
static void pair(const conf_form *f, const uint64_t *s, conf_want *w,
                 void (*fn)(const conf_form *, const uint64_t *, conf_want *))
{
    conf_form e = *f;
    e.type[0] = CT_F32;
    e.dst[0].type = CT_F32;
    for (unsigned k = 0; k < e.nsrc; k++)
        e.src[k].type = CT_F32;
    for (unsigned h = 0; h < 64; h += 32) {
        uint64_t se[CONF_MAX_SRC + 1] = {0};
        for (unsigned k = 0; k < f->nsrc; k++)
            se[k] = (s[k] >> h) & 0xFFFFFFFFu;
        conf_want we = {0};
        fn(&e, se, &we);
        w->v[0] |= (we.v[0] & 0xFFFFFFFFu) << h;
        w->nan_any[0] |= we.nan_any[0];         /* (a NaN wanted in either element is any NaN) */
    }
}

void ref_fadd2(const conf_form *f, const uint64_t *s, conf_want *w) { pair(f, s, w, ref_fadd); }
void ref_fsub2(const conf_form *f, const uint64_t *s, conf_want *w) { pair(f, s, w, ref_fsub); }
void ref_fmul2(const conf_form *f, const uint64_t *s, conf_want *w) { pair(f, s, w, ref_fmul); }
void ref_ffma2(const conf_form *f, const uint64_t *s, conf_want *w) { pair(f, s, w, ref_ffma); }

/* Mixed precision (PTX ISA 9.7.5): add/sub{.rnd}{.sat}.f32.atype d, a, c
 * and fma.rnd{.sat}.f32.abtype d, a, b, c: the half inputs converted to
 * f32 (exactly), then the f32 operation. */
void ref_mixed(const conf_form *f, const uint64_t *s, conf_want *w)
{
    const ref_fmt *h = rf_of(f->type[1]);
    quad a = rf_value(h, s[0] & 0xFFFF), c = rf_value(&RF_F32, s[f->nsrc - 1] & 0xFFFFFFFF);
    int mode = mode_of(f);
    quad r;
    if (!strcmp(f->op, "fma"))
        r = sum(a * rf_value(h, s[1] & 0xFFFF), c, mode);
    else
        r = sum(a, !strcmp(f->op, "sub") ? -c : c, mode);
    result(f, r, w);
}

/* ---- div rcp sqrt rsqrt ------------------------------------------------------------ */

static void approx(conf_want *w, double ulp)
{
    w->ulp = ulp;
    w->nan_any[0] = true;
}

static quad qabs(quad x) { return x < 0 ? -x : x; }

void ref_fdiv(const conf_form *f, const uint64_t *s, conf_want *w)
{
    quad a = in(f, s, 0), b = in(f, s, 1);
    if (conf_has(f, CF_APPROX)) {
        /* div.approx.f32: d = a * (1 / b), at most 2 ulp from the quotient
         * for |b| in [2^-126, 2^126]; for 2^126 < |b| < 2^128 it is 0, or
         * NaN when a is infinite (or NaN: a * (1/b) of a NaN is a NaN,
         * which the ISA's sentence leaves out).  Subnormal divisors: no
         * bound given. */
        quad ab = qabs(b);
        if (ab > 0x1p126Q && ab < 0x1p128Q) {
            if (q_isinf(a) || q_isnan(a))
                w->v[0] = 0x7FFFFFFF, w->nan_any[0] = true;
            else
                w->v[0] = 0, w->zero_any[0] = true;
            return;
        }
        if (ab != 0 && ab < 0x1p-126Q) {
            w->skip = true;
            return;
        }
        result(f, rq_div(a, b), w);
        approx(w, 2);
        return;
    }
    result(f, rq_div(a, b), w);
    if (conf_has(f, CF_FULL))                   /* div.full.f32: 2 ulp across the full range */
        approx(w, 2);
}

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 work on the upper word of
 * a (1.11.20, a subnormal flushed to a zero of its sign) and write the
 * upper word of d; "the least significant 32 bits of d are all zeros",
 * and a NaN gives 0x7FFFFFFF00000000.  The ISA calls the value a "gross
 * approximation" from 20 mantissa bits and gives no bound: 2 units of the
 * 20-bit mantissa here. */
static const ref_fmt RF_F64_HI = { 11, 20, true };

static void upper_word(const uint64_t *s, conf_want *w, bool rsqrt)
{
    uint64_t hi = s[0] >> 32;
    quad x = rf_value(&RF_F64_HI, rf_ftz(&RF_F64_HI, hi));
    quad r;
    if (rsqrt)
        r = x == 0 ? (q_signbit(x) ? -__builtin_infq() : __builtin_infq()) : (quad)(1.0L / sqrtl((long double)x));
    else
        r = rq_div(1, x);
    uint64_t d = rf_ftz(&RF_F64_HI, rf_round(&RF_F64_HI, r, CR_RN));
    w->v[0] = q_isnan(r) ? 0x7FFFFFFF00000000ull : d << 32;
    w->zero_bits[0] = 0xFFFFFFFF;
    w->ulp = 0x1p33;
}

void ref_rcp(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (conf_has(f, CF_APPROX) && fmt_of(f) == &RF_F64) {
        upper_word(s, w, false);
        return;
    }
    result(f, rq_div(1, in(f, s, 0)), w);
    if (conf_has(f, CF_APPROX))                 /* rcp.approx.f32: 1 ulp across the full range */
        approx(w, 1);
}

/* sqrt of a double as a round-to-odd double (the host's sqrt is correctly
 * rounded; toward zero plus the inexact flag gives round to odd), exact
 * enough to round once more to f32. */
static quad sqrt_odd(double x)
{
    int saved = fegetround();
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double r = sqrt(x);
    bool inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(saved);
    double v = r;
    if (inexact) {
        uint64_t u;
        memcpy(&u, &v, 8);
        u |= 1;
        memcpy(&v, &u, 8);
    }
    return v;
}

static quad sqrt_f64_mode(double x, int mode)
{
    int saved = fegetround();
    fesetround(rf_host_mode(mode));
    volatile double r = sqrt(x);
    fesetround(saved);
    return r;
}

void ref_sqrt(const conf_form *f, const uint64_t *s, conf_want *w)
{
    quad a = in(f, s, 0);
    quad r = fmt_of(f) == &RF_F64 ? sqrt_f64_mode((double)a, mode_of(f)) : sqrt_odd((double)a);
    result(f, r, w);
    if (conf_has(f, CF_APPROX))                 /* sqrt.approx.f32: relative 2^-23, 2 ulp */
        approx(w, 2);
}

/* rsqrt.approx: 1/sqrt(a); f32: relative 2^-22.9 over the positive range
 * (4 ulp here); rsqrt.approx.f64 has no bound in the ISA (checked at
 * about f32's, 2^30 ulp); rsqrt.approx.ftz.f64 as upper_word() says. */
void ref_rsqrt(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (fmt_of(f) == &RF_F64 && conf_has(f, CF_FTZ)) {
        upper_word(s, w, true);
        return;
    }
    quad a = in(f, s, 0);
    long double r = 1.0L / sqrtl((long double)a);
    if (a == 0)
        r = q_signbit(a) ? -INFINITY : INFINITY;
    result(f, (quad)r, w);
    approx(w, fmt_of(f) == &RF_F64 ? 0x1p30 : 4);
}

/* ---- transcendental approximations (f32) ------------------------------------------- */

/* sin.approx / cos.approx: absolute error 2^-20.5 in [-2pi, 2pi] and
 * 2^-14.7 in [-100pi, 100pi]; "only best effort" beyond, not checked. */
static void trig(const conf_form *f, const uint64_t *s, conf_want *w, bool cosine)
{
    quad a = in(f, s, 0);
    if (!q_isnan(a) && !q_isinf(a) && qabs(a) > 314.159Q) {
        w->skip = true;
        return;
    }
    long double x = (long double)a;
    result(f, (quad)(cosine ? cosl(x) : sinl(x)), w);
    w->nan_any[0] = true;
    w->abs_err = qabs(a) <= 6.28318Q ? 0x1.6a09e6p-21 : 0x1.3755p-15;    /* 2^-20.5, 2^-14.7 */
    if (a == 0 && !cosine)
        w->abs_err = 0;                         /* sin(+-0) = +-0 */
}

void ref_sin(const conf_form *f, const uint64_t *s, conf_want *w) { trig(f, s, w, false); }
void ref_cos(const conf_form *f, const uint64_t *s, conf_want *w) { trig(f, s, w, true); }

/* lg2.approx.f32: absolute error 2^-22 for a in (0.5, 2), relative
 * 2^-22 for other positive finite a (5 ulp with the wanted value's own
 * rounding).  log2(+-0) = -inf, negative inputs NaN. */
void ref_lg2(const conf_form *f, const uint64_t *s, conf_want *w)
{
    quad a = in(f, s, 0);
    long double r = a == 0 ? -INFINITY : log2l((long double)a);
    result(f, (quad)r, w);
    w->nan_any[0] = true;
    if (a > 0.5Q && a < 2)
        w->abs_err = 0x1p-22;
    else
        w->ulp = 5;
}

/* ex2.approx.f32: at most 2 ulp from the correctly rounded result across
 * the full range; 2^-inf = +0. */
void ref_ex2(const conf_form *f, const uint64_t *s, conf_want *w)
{
    quad a = in(f, s, 0);
    result(f, (quad)exp2l((long double)a), w);
    approx(w, 2);
}

/* tanh.approx.f32: relative error 2^-11 over the whole range (2^13 f32
 * ulp and the wanted value's rounding). */
void ref_tanh(const conf_form *f, const uint64_t *s, conf_want *w)
{
    quad a = in(f, s, 0);
    result(f, (quad)tanhl((long double)a), w);
    approx(w, 8800);
}

/* ---- sign operations, min max -------------------------------------------------------- */

/* abs and neg: the sign bit cleared or flipped (a NaN stays a NaN). */
void ref_fabs(const conf_form *f, const uint64_t *s, conf_want *w)
{
    const ref_fmt *fm = fmt_of(f);
    uint64_t b = bits_of(fm, s[0]);
    if (ftz(f))
        b = rf_ftz(fm, b);
    w->v[0] = b & (rf_sign(fm) - 1);
    w->nan_any[0] = true;
}

void ref_fneg(const conf_form *f, const uint64_t *s, conf_want *w)
{
    const ref_fmt *fm = fmt_of(f);
    uint64_t b = bits_of(fm, s[0]);
    if (ftz(f))
        b = rf_ftz(fm, b);
    w->v[0] = b ^ rf_sign(fm);
    w->nan_any[0] = true;
}

/* min/max: a NaN operand gives the other operand, two NaNs (or, with .NaN,
 * any) the canonical NaN; -0 is below +0.  .xorsign.abs compares the
 * magnitudes and gives the result the XOR of the operands' signs. */
static void minmax(const conf_form *f, const uint64_t *s, conf_want *w, bool is_max)
{
    const ref_fmt *fm = fmt_of(f);
    uint64_t a = bits_of(fm, s[0]), b = bits_of(fm, s[1]);
    if (ftz(f)) {
        a = rf_ftz(fm, a);
        b = rf_ftz(fm, b);
    }
    uint64_t sign = (a ^ b) & rf_sign(fm);
    bool xs = conf_has(f, CF_XORSIGN);
    if (xs) {
        a &= rf_sign(fm) - 1;
        b &= rf_sign(fm) - 1;
    }
    bool an = rf_isnan(fm, a), bn = rf_isnan(fm, b);
    uint64_t canon = rf_sign(fm) - 1;           /* 0x7FFFFFFF */
    if (an || bn) {
        w->v[0] = conf_has(f, CF_NAN) || (an && bn) ? canon : an ? b : a;
        if (xs && !(conf_has(f, CF_NAN) || (an && bn)))
            w->v[0] = (w->v[0] & (rf_sign(fm) - 1)) | sign;
        w->nan_any[0] = fm == &RF_F64;          /* the ISA names f32's canonical NaN */
        return;
    }
    quad x = rf_value(fm, a), y = rf_value(fm, b);
    uint64_t r;
    if (x == y)                                 /* equal values; zeros of either sign: -0 < +0 */
        r = is_max ? (rf_neg(fm, a) ? b : a) : (rf_neg(fm, a) ? a : b);
    else
        r = (is_max ? x > y : x < y) ? a : b;
    w->v[0] = xs ? (r & (rf_sign(fm) - 1)) | sign : r;
}

/* Three inputs (min/max{.ftz}{.NaN}{.abs}.f32 d, a, b, c): the two-input
 * rule applied to a and b, then to that and c (.abs on all three). */
static void minmax3(const conf_form *f, const uint64_t *s, conf_want *w, bool is_max)
{
    uint64_t ab[2] = { s[0], s[1] };
    if (conf_has(f, CF_ABS)) {
        ab[0] &= 0x7FFFFFFF;
        ab[1] &= 0x7FFFFFFF;
    }
    conf_want first = {0};
    minmax(f, ab, &first, is_max);
    uint64_t zc[2] = { first.v[0], conf_has(f, CF_ABS) ? s[2] & 0x7FFFFFFF : s[2] };
    minmax(f, zc, w, is_max);
}

void ref_fmin(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (f->nsrc == 3)
        minmax3(f, s, w, false);
    else
        minmax(f, s, w, false);
}

void ref_fmax(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (f->nsrc == 3)
        minmax3(f, s, w, true);
    else
        minmax(f, s, w, true);
}

/* copysign d, a, b: b with the sign of a (bits; NaNs included). */
void ref_copysign(const conf_form *f, const uint64_t *s, conf_want *w)
{
    const ref_fmt *fm = fmt_of(f);
    w->v[0] = (bits_of(fm, s[1]) & (rf_sign(fm) - 1)) | (s[0] & rf_sign(fm));
}

/* testp: finite, infinite, number (not NaN), notanumber, normal (zeros
 * count as normal, as the ISA says), subnormal. */
void ref_testp(const conf_form *f, const uint64_t *s, conf_want *w)
{
    const ref_fmt *fm = fmt_of(f);
    uint64_t b = bits_of(fm, s[0]);
    bool nan = rf_isnan(fm, b), inf = rf_isinf(fm, b), sub = rf_issub(fm, b);
    bool t;
    if (!strcmp(f->mode, "finite")) t = !nan && !inf;
    else if (!strcmp(f->mode, "infinite")) t = inf;
    else if (!strcmp(f->mode, "number")) t = !nan;
    else if (!strcmp(f->mode, "notanumber")) t = nan;
    else if (!strcmp(f->mode, "normal")) t = !nan && !inf && !sub;
    else t = sub;
    w->v[0] = t;
}

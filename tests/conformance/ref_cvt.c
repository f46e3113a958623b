/*
 * ref_cvt.c -- references for cvt (PTX ISA 9.7.9.21) and cvt.pack
 * (9.7.9.22), from the ISA's rules:
 *
 *   - float to integer: round to an integral value by .rni (nearest, ties
 *     to even) .rzi .rmi .rpi, then clamp to the destination's range
 *     (float-to-integer conversions always saturate).  NaN gives 0 when the
 *     source is not .f64 and the destination is not 64 bits wide, else
 *     1 << (width - 1) (MININT of a signed type, (MAXINT >> 1) + 1 of an
 *     unsigned one).
 *   - integer to integer: sign- or zero-extended by the source's type, cut
 *     to the destination; .sat clamps to the destination's range instead.
 *   - to a float: rounded by .rn .rz .rm .rp (exact when it fits);
 *     same-size float to float with .rni... rounds to an integral value of
 *     the type.  .sat clamps the result to [0.0, 1.0], NaN to +0.
 *   - .ftz flushes subnormal .f32 inputs and .f32 results to zeros of
 *     their sign -- but not the .f32 input of a conversion to .f16: an
 *     H200 gives cvt.rp.ftz.f16.f32 of 0x00000001 as 0x0001 (the ISA
 *     does not say; the flush shows only under .rm and .rp).
 *   - .relu (f16, bf16, tf32 and the 8-bit destinations) makes negative
 *     results +0 and NaN the canonical NaN; .satfinite makes a result past
 *     the largest finite value (infinity included) that value, with its
 *     sign, and keeps NaN a NaN.
 *   - the pair forms: cvt.f16x2.f32 d, a, b puts a's result in the upper
 *     half and b's in the lower; e4m3x2/e5m2x2 likewise by bytes; from a
 *     packed source the upper element goes to the upper part.
 *   - cvt.pack.sat: a and b clamped to the narrow type, b's in the low
 *     bits, a's above it, and for .u8/.s8 c's low 16 bits above both.
 *
 * Where the ISA gives a NaN result no bit pattern, any NaN is accepted.
 */
#include "refs.h"
#include "ref_fp.h"

static uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static bool is_int(uint8_t t) { uint8_t k = conf_types[t].kind; return k == CK_U || k == CK_S || k == CK_B; }
static bool is_irnd(uint8_t r) { return r == CR_RNI || r == CR_RZI || r == CR_RMI || r == CR_RPI; }

/* An integer operand's value. */
static __int128 int_val(uint8_t t, uint64_t v)
{
    unsigned n = conf_types[t].bits;
    v &= mask(n);
    if (conf_types[t].kind == CK_S && (v >> (n - 1)) & 1)
        return (__int128)v - ((__int128)1 << n);
    return (__int128)v;
}

static __int128 int_min(uint8_t t)
{
    return conf_types[t].kind == CK_S ? -((__int128)1 << (conf_types[t].bits - 1)) : 0;
}

static __int128 int_max(uint8_t t)
{
    unsigned n = conf_types[t].bits;
    return conf_types[t].kind == CK_S ? ((__int128)1 << (n - 1)) - 1 : ((__int128)1 << n) - 1;
}

static uint64_t clamp_int(uint8_t t, __int128 v)
{
    if (v < int_min(t))
        v = int_min(t);
    if (v > int_max(t))
        v = int_max(t);
    return (uint64_t)v & mask(conf_types[t].bits);
}

/* x rounded to an integral value by an integer rounding mode; x finite.
 * A zero result keeps x's sign (IEEE roundToIntegral). */
static quad round_integral(quad x, uint8_t rnd)
{
    if (x >= (quad)1e34 || x <= -(quad)1e34)   /* past 2^112: already integral */
        return x;
    __int128 t = (__int128)x;                   /* toward zero */
    quad frac = x - (quad)t;
    switch (rnd) {
    case CR_RMI: if (frac < 0) t -= 1; break;
    case CR_RPI: if (frac > 0) t += 1; break;
    case CR_RNI:
        if (frac > 0.5Q || (frac == 0.5Q && (t & 1)))
            t += 1;
        else if (frac < -0.5Q || (frac == -0.5Q && (t & 1)))
            t -= 1;
        break;
    default: break;
    }
    quad r = (quad)t;
    if (r == 0 && q_signbit(x))
        r = -r;
    return r;
}

/* The source as an exact value (NaN, infinities included). */
static quad source_value(const conf_form *f, uint8_t st, uint64_t a)
{
    if (is_int(st))
        return (quad)int_val(st, a);
    const ref_fmt *fm = rf_of(st);
    uint64_t b = a & mask((unsigned)rf_bits(fm));
    if (st == CT_F32 && conf_has(f, CF_FTZ) && f->type[0] != CT_F16)
        b = rf_ftz(fm, b);
    return rf_value(fm, b);
}

/* x into the float format of dt under the form's modifiers, as bits of one
 * element; w's NaN and zero leeway set for result i. */
static uint64_t to_float(const conf_form *f, uint8_t dt, quad x, int mode, conf_want *w, unsigned i)
{
    const ref_fmt *fm = rf_of(dt);
    if (q_isnan(x)) {
        if (conf_has(f, CF_SAT))
            return 0;                           /* NaN results flush to +0 */
        w->nan_any[i] = !conf_has(f, CF_RELU);  /* .relu: the canonical NaN */
        return rf_round(fm, x, mode);
    }
    if (conf_has(f, CF_RELU) && q_signbit(x))
        return 0;
    if (dt == CT_F32 && conf_has(f, CF_FTZ))
        x = rf_flush_tiny(fm, x, mode);        /* tiny after rounding */
    uint64_t r = rf_round(fm, x, mode);
    if (conf_has(f, CF_SATFINITE) && rf_overflows(fm, x, mode))
        r = (r & rf_sign(fm)) | rf_max(fm);
    if (dt == CT_F32 && conf_has(f, CF_FTZ))
        r = rf_ftz(fm, r);
    if (conf_has(f, CF_SAT)) {
        quad v = rf_value(fm, r);
        if (v <= 0) {
            r = 0;
            w->zero_any[i] = true;              /* the ISA's [0.0, 1.0] does not say which zero */
        } else if (v > 1) {
            r = rf_round(fm, 1, CR_RN);
        }
    }
    return r;
}

/* A scalar conversion between the ISA's integer and float types. */
static uint64_t convert(const conf_form *f, uint8_t dt, uint8_t st, uint64_t a, conf_want *w)
{
    quad x = source_value(f, st, a);
    if (is_int(dt)) {
        if (is_int(st))
            return conf_has(f, CF_SAT) ? clamp_int(dt, int_val(st, a))
                                       : (uint64_t)int_val(st, a) & mask(conf_types[dt].bits);
        unsigned n = conf_types[dt].bits;
        if (q_isnan(x))
            return st != CT_F64 && n < 64 ? 0 : 1ull << (n - 1);
        if (q_isinf(x))
            return clamp_int(dt, x > 0 ? int_max(dt) : int_min(dt));
        quad r = round_integral(x, f->rnd);
        if (r >= (quad)int_max(dt))
            return clamp_int(dt, int_max(dt));
        if (r <= (quad)int_min(dt))
            return clamp_int(dt, int_min(dt));
        return clamp_int(dt, (__int128)r);
    }
    if (is_irnd(f->rnd) && !q_isnan(x) && !q_isinf(x))
        x = round_integral(x, f->rnd);
    int mode = f->rnd == CR_NONE || is_irnd(f->rnd) ? CR_RN : f->rnd;
    return to_float(f, dt, x, mode, w, 0);
}

/* One 8-bit float from x, .satfinite always (the ISA requires it on these
 * destinations). */
static uint64_t to_f8(const conf_form *f, const ref_fmt *fm, quad x, conf_want *w)
{
    if (q_isnan(x)) {
        w->nan_any[0] = !conf_has(f, CF_RELU);
        return rf_round(fm, x, CR_RN);
    }
    if (conf_has(f, CF_RELU) && q_signbit(x))
        return 0;
    uint64_t r = rf_round(fm, x, CR_RN);
    if (rf_overflows(fm, x, CR_RN))
        r = (q_signbit(x) ? rf_sign(fm) : 0) | rf_max(fm);
    return r;
}

void ref_cvt(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint8_t dt = f->type[0], st = f->type[1];
    int mode = f->rnd == CR_NONE ? CR_RN : f->rnd;
    if (dt == CT_F16X2 || dt == CT_BF16X2) {
        uint8_t et = dt == CT_F16X2 ? CT_F16 : CT_BF16;
        if (st == CT_F32) {                     /* d = {a, b} */
            quad hi = source_value(f, st, s[0]), lo = source_value(f, st, s[1]);
            w->v[0] = to_float(f, et, hi, mode, w, 0) << 16 | to_float(f, et, lo, mode, w, 0);
            return;
        }
        const ref_fmt *src = rf_of(st);         /* from e4m3x2 / e5m2x2: exact */
        quad hi = rf_value(src, (s[0] >> 8) & 0xFF), lo = rf_value(src, s[0] & 0xFF);
        w->v[0] = to_float(f, et, hi, CR_RN, w, 0) << 16 | to_float(f, et, lo, CR_RN, w, 0);
        return;
    }
    if (dt == CT_E4M3X2 || dt == CT_E5M2X2) {
        const ref_fmt *fm = rf_of(dt);
        quad hi, lo;
        if (st == CT_F32) {
            hi = rf_value(&RF_F32, s[0] & 0xFFFFFFFF);
            lo = rf_value(&RF_F32, s[1] & 0xFFFFFFFF);
        } else {
            const ref_fmt *src = rf_of(st);
            hi = rf_value(src, (s[0] >> 16) & 0xFFFF);
            lo = rf_value(src, s[0] & 0xFFFF);
        }
        w->v[0] = to_f8(f, fm, hi, w) << 8 | to_f8(f, fm, lo, w);
        return;
    }
    if (dt == CT_TF32) {
        /* tf32 in an f32 register: the f32 bit pattern of the rounded value.
         * .rna as an H200 does it, where the ISA says less: a NaN keeps its
         * sign and upper payload bits, the low 13 cut off (a NaN with only
         * those becomes an infinity); .satfinite then takes one unit of the
         * last place off any result at or past infinity's pattern (so
         * +inf gives the largest finite value, and a NaN another NaN). */
        uint32_t a = (uint32_t)s[0];
        quad x = rf_value(&RF_F32, a);
        if (f->rnd != CR_RNA) {
            w->v[0] = to_float(f, CT_TF32, x, mode, w, 0) << 13;
            return;
        }
        uint32_t r = (a & 0x7FFFFFFFu) > 0x7F800000u ? a & 0xFFFFE000u
                   : (uint32_t)rf_round(&RF_TF32, x, CR_RNA) << 13;
        if (conf_has(f, CF_SATFINITE) && (r & 0x7FFFFFFFu) >= 0x7F800000u)
            r -= 0x2000u;
        w->v[0] = r;
        return;
    }
    w->v[0] = convert(f, dt, st, s[0], w);
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b: d = {sat(a), sat(b)};
 * cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c: d = {c[15:0], sat(a), sat(b)}. */
void ref_cvt_pack(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint8_t t = f->type[0];
    unsigned n = conf_types[t].bits;
    uint64_t a = clamp_int(t, int_val(CT_S32, s[0])), b = clamp_int(t, int_val(CT_S32, s[1]));
    uint64_t d = a << n | b;
    if (f->nsrc == 3)                   /* bits 2n up of d: c's from bit 0 */
        d |= (s[2] & 0xFFFFFFFF) << 2 * n;
    w->v[0] = d & 0xFFFFFFFF;
}

/* One f32 (bits u) to f16 or bf16 under .rs, by the bits of the ISA's
 * description: the f32's significand is cut to the destination's precision
 * at the destination's exponent, and the nrand-bit random value r, put
 * under the top of the cut-off bits, is added to them as integers; a carry
 * out of them rounds the kept part away from zero (the kept part's own
 * carry moving into the exponent).  A value past the largest finite one is
 * infinity (the ISA's type conversion rule), or with .satfinite the largest
 * finite value of its sign. */
static uint64_t half_rs(const conf_form *f, bool bf, uint32_t u, uint32_t r, conf_want *w)
{
    const int mbits = bf ? 7 : 10, emin = bf ? -126 : -14, emax = bf ? 127 : 15, nrand = bf ? 16 : 13;
    const uint32_t inf = bf ? 0x7F80u : 0x7C00u;
    uint32_t sign = u >> 31 ? 0x8000u : 0, ex = u >> 23 & 0xFF, man = u & 0x7FFFFF;
    if (ex == 0xFF && man) {                    /* NaN: the canonical NaN under .relu, else any */
        w->nan_any[0] = !conf_has(f, CF_RELU);
        return 0x7FFF;
    }
    if (conf_has(f, CF_RELU) && sign)
        return 0;
    bool satf = conf_has(f, CF_SATFINITE);
    if (ex == 0xFF)
        return sign | (satf ? inf - 1 : inf);
    if (ex == 0 && man == 0)
        return sign;
    /* value = sig * 2^(e - 23) */
    uint64_t sig = ex ? (1u << 23) | man : man;
    int e = ex ? (int)ex - 127 : -126;
    int top = 63 - __builtin_clzll(sig);        /* the value's leading bit is 2^(e - 23 + top) */
    int re = e - 23 + top;
    if (re > emax)
        return sign | (satf ? inf - 1 : inf);
    if (re < emin)
        re = emin;
    int cut = (re - mbits) - (e - 23);          /* bits below the result's last place */
    uint64_t kept, carry;
    if (cut >= 64) {
        kept = 0;
        carry = 0;                              /* r under the top of >= 64 cut bits cannot reach past sig */
    } else {
        kept = sig >> cut;
        unsigned __int128 dropped = sig & ((1ull << cut) - 1);
        unsigned __int128 sum = cut >= nrand ? dropped + ((unsigned __int128)r << (cut - nrand))
                                             : ((dropped << (nrand - cut)) + r);
        carry = (uint64_t)(sum >> (cut >= nrand ? cut : nrand)) & 1;
    }
    uint64_t bits = ((uint64_t)(re - emin) << mbits) + kept + carry;
    if (bits >= inf)
        bits = satf ? inf - 1 : inf;
    return sign | bits;
}

/* cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits: a's result
 * in d's upper half with rbits[31:16] as its random bits, b's in the lower
 * with rbits[15:0]; f16 takes the 13 low bits of each half, bf16 all 16. */
void ref_cvt_rs(const conf_form *f, const uint64_t *s, conf_want *w)
{
    bool bf = f->type[0] == CT_BF16X2;
    uint32_t rm = bf ? 0xFFFFu : 0x1FFFu, rb = (uint32_t)s[2];
    w->v[0] = half_rs(f, bf, (uint32_t)s[0], rb >> 16 & rm, w) << 16 | half_rs(f, bf, (uint32_t)s[1], rb & rm, w);
}

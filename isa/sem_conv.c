/*
 * sem_conv.c -- data movement and conversion: mov cvt cvta isspacep
 * (PTX ISA 9.7.9.x).
 */
#include "isa_int.h"

#include <limits.h>

/* ---- mov ------------------------------------------------------------- */

/* mov.b128 (PTX ISA 8.3): a .b128 register is two 64-bit columns, low half
 * first (isa_reg_slots), so packing d = {a, b} puts a in d's low column and
 * b in its high one, unpacking does the reverse, and a copy moves both. */
static ptx_status mov128(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const isa_opd *dst = &in->opd[0], *src = &in->opd[1];
    uint16_t dc[2], sc[2];
    for (unsigned i = 0; i < 2; i++) {
        const isa_opd *o = i ? src : dst;
        uint16_t *c = i ? sc : dc;
        if (o->kind == ISA_OPD_VEC && o->nvec == 2) {
            c[0] = o->vec[0];
            c[1] = o->vec[1];
        } else if (o->kind == ISA_OPD_REG) {
            c[0] = o->reg;
            c[1] = (uint16_t)(o->reg + 1);
        } else {
            return PTX_E_UNSUPPORTED;
        }
    }
    for (unsigned h = 0; h < 2; h++) {
        if (dc[h] == ISA_NOREG)
            continue;
        uint64_t *d = w->r + (size_t)dc[h] * ISA_WARP_SIZE;
        if (sc[h] == ISA_NOREG) {
            LANES(mask, d[l] = 0);
            continue;
        }
        const uint64_t *a = w->r + (size_t)sc[h] * ISA_WARP_SIZE;
        LANES(mask, d[l] = a[l]);
    }
    return PTX_OK;
}

ptx_status isa_sem_mov(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const isa_opd *dst = &in->opd[0], *src = &in->opd[1];
    if (in->type == ISA_TYPE_PRED) {
        /* mov.pred p, %is_explicit_cluster: a special register's value
         * per lane, true where non-zero. */
        uint32_t bits = 0;
        if (src->kind == ISA_OPD_SREG) {
            const uint64_t *a = SRC(1);
            LANES(mask, bits |= (uint32_t)(a[l] != 0) << l);
        } else {
            bits = isa_pred(w, src);
        }
        isa_set_pred(w, dst->reg, mask, bits);
        return PTX_OK;
    }
    unsigned n = type_bytes(in->type);
    if (n == 16)
        return mov128(w, in, mask);
    if (in->vec > 1 && dst->kind == ISA_OPD_VEC && src->kind == ISA_OPD_VEC) {
        /* mov.v2.u32 {d0, d1}, {a0, a1}: element by element (vector
         * registers, GCC's nvptx backend's; each {...} is one register
         * of the vector), read before any is written. */
        uint64_t wm = width_mask(n ? n : 8);
        uint64_t v[ISA_INLINE_VEC][ISA_WARP_SIZE];
        unsigned nv = dst->nvec < src->nvec ? dst->nvec : src->nvec;
        for (unsigned k = 0; k < nv; k++)
            if (src->vec[k] != ISA_NOREG)
                LANES(mask, v[k][l] = w->r[(size_t)src->vec[k] * ISA_WARP_SIZE + l] & wm);
        for (unsigned k = 0; k < nv; k++)
            if (dst->vec[k] != ISA_NOREG && src->vec[k] != ISA_NOREG)
                LANES(mask, w->r[(size_t)dst->vec[k] * ISA_WARP_SIZE + l] = v[k][l]);
        return PTX_OK;
    }
    if (src->kind == ISA_OPD_VEC) {             /* pack {a, b, ...} into d */
        unsigned part = n / src->nvec * 8;
        uint64_t *d = DST(0);
        LANES(mask, {
            uint64_t v = 0;
            for (unsigned k = 0; k < src->nvec; k++)
                if (src->vec[k] != ISA_NOREG)
                    v |= (w->r[(size_t)src->vec[k] * ISA_WARP_SIZE + l] &
                          width_mask(part / 8)) << (k * part);
            d[l] = v;
        });
        return PTX_OK;
    }
    const uint64_t *a = SRC(1);
    if (dst->kind == ISA_OPD_VEC) {             /* unpack a into {d0, d1, ...} */
        unsigned part = n / dst->nvec * 8;
        for (unsigned k = 0; k < dst->nvec; k++) {
            if (dst->vec[k] == ISA_NOREG)
                continue;
            uint64_t *d = w->r + (size_t)dst->vec[k] * ISA_WARP_SIZE;
            LANES(mask, d[l] = (a[l] >> (k * part)) & width_mask(part / 8));
        }
        return PTX_OK;
    }
    uint64_t *d = DST(0);
    uint64_t wm = width_mask(n ? n : 8);
    LANES(mask, d[l] = a[l] & wm);
    return PTX_OK;
}

/* ---- cvt ------------------------------------------------------------- */

/* Float to integer: round as asked, saturate to the type's range (PTX ISA:
 * float-to-integer conversions always saturate).  NaN gives 0 when the
 * source is not .f64 and the destination is not 64 bits wide, and 1 <<
 * (bits - 1) of the destination otherwise: INT_MIN of a signed type, half
 * the range of an unsigned one (PTX ISA 9.0, cvt). */
static uint64_t float_to_int(double x, uint8_t stype, uint8_t dtype, uint8_t rnd)
{
    unsigned n = type_bytes(dtype);
    if (x != x)
        return stype != ISA_TYPE_F64 && n < 8 ? 0 : 1ull << (n * 8 - 1);
    switch (rnd) {
    case ISA_RND_RNI: x = nearbyint(x); break;        /* default mode is to-nearest-even */
    case ISA_RND_RMI: x = floor(x); break;
    case ISA_RND_RPI: x = ceil(x); break;
    default: x = trunc(x); break;
    }
    if (type_signed(dtype)) {
        double lo = -ldexp(1.0, (int)n * 8 - 1), hi = ldexp(1.0, (int)n * 8 - 1);
        if (x <= lo)
            return (uint64_t)(int64_t)lo & width_mask(n);
        if (x >= hi)
            return (uint64_t)(n == 8 ? INT64_MAX : (int64_t)hi - 1) & width_mask(n);
        return (uint64_t)(int64_t)x & width_mask(n);
    }
    if (x <= 0)
        return 0;
    if (x >= ldexp(1.0, (int)n * 8))
        return width_mask(n);
    return (uint64_t)x;
}

/* Integer to integer: extend from the source type, then cut (or, with
 * .sat, clamp) to the destination type. */
static uint64_t int_to_int(uint64_t v, uint8_t stype, uint8_t dtype, bool sat)
{
    unsigned sn = type_bytes(stype), dn = type_bytes(dtype);
    if (!sat)
        return (type_signed(stype) ? (uint64_t)sext(v, sn) : v & width_mask(sn)) & width_mask(dn);
    if (type_signed(stype)) {
        int64_t x = sext(v, sn);
        if (type_signed(dtype)) {
            int64_t lo = dn >= 8 ? INT64_MIN : -(1ll << (dn * 8 - 1));
            int64_t hi = dn >= 8 ? INT64_MAX : (1ll << (dn * 8 - 1)) - 1;
            x = x < lo ? lo : x > hi ? hi : x;
            return (uint64_t)x & width_mask(dn);
        }
        if (x < 0)
            return 0;
        return (uint64_t)x > width_mask(dn) ? width_mask(dn) : (uint64_t)x;
    }
    uint64_t x = v & width_mask(sn);
    uint64_t hi = type_signed(dtype) ? width_mask(dn) >> 1 : width_mask(dn);
    return x > hi ? hi : x;
}

/* Any float source as a double (exact for f16, bf16, f32). */
static double float_in(uint64_t v, uint8_t t, bool ftz)
{
    switch (t) {
    case ISA_TYPE_F16: return f16_to_f32((uint16_t)v);
    case ISA_TYPE_BF16: return bf16_to_f32((uint16_t)v);
    case ISA_TYPE_F32: {
        float f = f32_of(v);
        return ftz ? ftz32(f) : f;
    }
    default: return f64_of(v);
    }
}

/* .satfinite on an f16/bf16 result (PTX ISA 9.7.9.21 cvt, "Saturation
 * modifier"): a magnitude beyond the largest finite value, infinity
 * included, becomes the largest finite value of its sign; NaN stays the
 * canonical NaN. */
static uint32_t half_satfinite(uint32_t h, bool bf)
{
    return (h & 0x7FFFu) == half_inf(bf) ? h - 1 : h;
}

/* A double as the destination float type, rounded once as asked (a double
 * source goes straight to f16/bf16: through f32 it would be rounded twice).
 * .sat clamps the rounded result, as the arithmetic's does (sem_arith.c):
 * a negative value too small for the type rounds to -0, which .sat makes +0.
 * .relu (f16/bf16 only) turns a negative result, -0 included, into +0, as
 * max(x, +0) does (the sequence nvcc uses where .relu is missing). */
static uint64_t float_out(double x, uint8_t t, uint8_t rnd, bool ftz, bool sat, bool relu, bool satf)
{
    if (relu && signbit(x) && x == x)
        x = 0.0;
    switch (t) {
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: case ISA_TYPE_BF16: case ISA_TYPE_BF16X2: {
        bool bf = type_bf16(t);
        uint32_t h = isa_half_round(x, bf, rnd);
        if (sat)
            h = half_sat01(h, bf);
        return satf ? half_satfinite(h, bf) : h;
    }
    case ISA_TYPE_F32: {
        bool dir = rnd == ISA_RND_RZ || rnd == ISA_RND_RM || rnd == ISA_RND_RP;
        int saved = dir ? isa_round_begin(rnd) : 0;
        float f = (float)x;
        if (dir)
            isa_round_end(saved);
        /* .ftz: a result tiny after rounding is flushed, also when the
         * exponent's bound rounded it up to 2^-126 (isa_tiny_after_rounding;
         * an H200 flushes (1 - 2^-24) * 2^-126 from f64). */
        if (ftz && fabsf(f) == 0x1p-126f && isa_tiny_after_rounding(x, 24, -126, rnd))
            f = copysignf(0.0f, f);
        if (sat)
            f = sat01f(f);
        return f32_result(f, ftz);
    }
    default: return f64_result(sat ? sat01d(x) : x);
    }
}

/* ---- tf32 and the 8-bit floats --------------------------------------------
 *
 * tf32 is an f32 bit pattern whose low 13 fraction bits are zero: f32's
 * exponent range with a 10-bit fraction.  e4m3 (bias 7) has no infinities:
 * S.1111.111 is its only NaN and 448 its largest value; e5m2 (bias 15) is
 * laid out like the top byte of an f16, with infinities, and 57344 is its
 * largest finite value (PTX ISA, "Alternate Floating-Point Data Formats").
 * cvt produces and reads them in pairs, in a .b16 register. */

/* NaN results: f32's canonical NaN with the low 13 bits cleared, and the
 * positive all-ones pattern of the 8-bit formats (the ISA asks for "NaN in
 * the destination format" and, under .relu, "canonical NaN"). */
#define TF32_CANON_NAN 0x7FFFE000u
#define F8_CANON_NAN 0x7Fu

typedef struct {
    uint8_t mbits;          /* fraction bits */
    int8_t emin;            /* smallest normal exponent, 1 - bias */
    uint8_t max;            /* largest finite pattern, without the sign */
    bool inf;               /* max + 1 is infinity (e5m2), not NaN (e4m3) */
} f8_format;

static const f8_format F8_E4M3 = { 3, -6, 0x7E, false };
static const f8_format F8_E5M2 = { 2, -14, 0x7B, true };

static bool type_f8(uint8_t t)
{
    return t == ISA_TYPE_E4M3 || t == ISA_TYPE_E5M2 || t == ISA_TYPE_E4M3X2 || t == ISA_TYPE_E5M2X2;
}

/* The format of a pair type; NULL for the rest, the single e4m3 and e5m2
 * included (they name mma operands; no cvt converts one alone). */
static const f8_format *f8_of(uint8_t t)
{
    return t == ISA_TYPE_E4M3X2 ? &F8_E4M3 : t == ISA_TYPE_E5M2X2 ? &F8_E5M2 : NULL;
}

/* What every narrowing of a float shares: NaN becomes the format's
 * canonical NaN, .relu makes negatives +0, a zero keeps its sign.  True
 * with the result in *out; else *ax is the magnitude to round and *sign
 * the result's sign bit (sign_bit or 0). */
static bool narrow_special(double x, bool relu, uint32_t canon_nan, uint32_t sign_bit, uint32_t *out, double *ax,
                           uint32_t *sign)
{
    bool neg = signbit(x);
    *sign = neg ? sign_bit : 0;
    *ax = fabs(x);
    *out = x != x ? canon_nan : relu && neg ? 0 : *sign;
    return x != x || (relu && neg) || *ax == 0;
}

/* x rounded to an 8-bit float.  .relu makes negatives (and -0) +0;
 * .satfinite (mandatory in PTX for these destinations) turns a magnitude
 * past the largest finite value, infinity included, into that value with
 * x's sign.  Without it, as __NV_NOSAT does in cuda_fp8.hpp, e5m2
 * overflows to infinity and e4m3 to NaN. */
static uint32_t f8_out(double x, const f8_format *f, uint8_t rnd, bool satf, bool relu)
{
    uint32_t sign, out;
    double ax;
    if (narrow_special(x, relu, F8_CANON_NAN, 0x80u, &out, &ax, &sign))
        return out;
    uint32_t bits = isinf(ax) ? 0xFFu : isa_fp_round_bits(ax, sign != 0, f->mbits, f->emin, rnd);
    if (bits > f->max)
        return satf ? sign | f->max : f->inf ? sign | (f->max + 1u) : F8_CANON_NAN;
    return sign | bits;
}

/* An 8-bit float's value (exact in double; NaN for its NaN patterns). */
static double f8_value(uint32_t b, const f8_format *f)
{
    uint32_t mag = b & 0x7Fu, e = mag >> f->mbits, m = mag & ((1u << f->mbits) - 1);
    double s = b & 0x80u ? -1.0 : 1.0;
    if (mag > f->max)
        return f->inf && mag == f->max + 1u ? s * INFINITY : NAN;
    if (!e)
        return s * ldexp(m, f->emin - f->mbits);
    return s * ldexp((double)((1u << f->mbits) | m), (int)e - 1 + f->emin - f->mbits);
}

double isa_f8_to_f64(uint32_t bits, uint8_t type)
{
    return f8_value(bits & 0xFFu, type == ISA_TYPE_E5M2 ? &F8_E5M2 : &F8_E4M3);
}

/* f32 to tf32: .rna (ties away from zero), .rn or .rz; .satfinite keeps
 * overflow and infinities at the largest finite value; .relu as for f16. */
static uint32_t tf32_out(float x, uint8_t rnd, bool satf, bool relu)
{
    const uint32_t inf = 0xFFu << 10;          /* in units of the 10-bit fraction */
    uint32_t sign, out;
    double ax;
    if (narrow_special(x, relu, TF32_CANON_NAN, 0x80000000u, &out, &ax, &sign))
        return out;
    uint32_t bits = isinf(ax) ? inf : isa_fp_round_bits(ax, sign != 0, 10, -126, rnd);
    if (bits >= inf)                            /* toward zero, overflow stops at the largest finite */
        bits = satf || (rnd == ISA_RND_RZ && !isinf(ax)) ? inf - 1 : inf;
    return sign | bits << 13;
}

/* cvt.rna{.satfinite}.tf32.f32 as an H200 does it, by bits, where the ISA
 * says less: a NaN keeps its sign and upper payload, the low 13 bits cut
 * off (so a NaN with only those becomes an infinity); .satfinite then
 * takes one unit of the last place off any result at or past infinity's
 * pattern (+inf gives the largest finite value, a NaN another NaN). */
static uint32_t tf32_rna(uint32_t x, bool satf)
{
    uint32_t r = (x & 0x7FFFFFFFu) > 0x7F800000u ? x & 0xFFFFE000u : tf32_out(f32_of(x), ISA_RND_RNA, false, false);
    if (satf && (r & 0x7FFFFFFFu) >= 0x7F800000u)
        r -= 0x2000u;
    return r;
}

/* The conversions into and out of tf32 and the 8-bit pairs (PTX ISA
 * 9.7.9.21): PTX_E_UNSUPPORTED for a pairing the ISA does not define. */
static ptx_status cvt_narrow(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint8_t dt = in->type, st = in->type2, rnd = in->rnd;
    bool satf = in->flags & ISA_MOD_FLAG(SATFINITE), relu = in->flags & ISA_MOD_FLAG(RELU);
    const f8_format *fd = f8_of(dt), *fs = f8_of(st);
    if (dt == ISA_TYPE_TF32 && st == ISA_TYPE_F32 && rnd == ISA_RND_RNA && !relu) {
        LANES(mask, d[l] = tf32_rna((uint32_t)a[l], satf));
    } else if (dt == ISA_TYPE_TF32 && st == ISA_TYPE_F32) {
        LANES(mask, d[l] = tf32_out(f32_of(a[l]), rnd, satf, relu));
    } else if (fd && st == ISA_TYPE_F32 && in->nopd == 3) {
        /* cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b: a in bits 15..8, b in 7..0. */
        const uint64_t *b = SRC(2);
        LANES(mask, d[l] = f8_out(f32_of(a[l]), fd, rnd, satf, relu) << 8 |
                           f8_out(f32_of(b[l]), fd, rnd, satf, relu));
    } else if (fd && type_x2(st)) {
        /* From f16x2 (and bf16x2): the upper half to bits 15..8. */
        bool bf = type_bf16(st);
        LANES(mask, d[l] = f8_out(half_to_f64(half_at(a[l], 16), bf), fd, rnd, satf, relu) << 8 |
                           f8_out(half_to_f64(half_at(a[l], 0), bf), fd, rnd, satf, relu));
    } else if (fs && dt == ISA_TYPE_F16X2) {
        /* cvt.rn{.relu}.f16x2.e4m3x2 d, a: bits 15..8 widen to d's upper
         * half.  Every e4m3 and e5m2 value is an f16 value, so the rounding
         * is exact; NaN becomes f16's canonical NaN. */
        LANES(mask, d[l] = float_out(f8_value((uint32_t)a[l] >> 8 & 0xFF, fs), dt, ISA_RND_RN,
                                     false, false, relu, false) << 16 |
                           float_out(f8_value((uint32_t)a[l] & 0xFF, fs), dt, ISA_RND_RN,
                                     false, false, relu, false));
    } else {
        return PTX_E_UNSUPPORTED;
    }
    return PTX_OK;
}

/* An f32 as f16 or bf16 under .rs with the random value r (13 bits for
 * f16, 16 for bf16).  NaN is the canonical NaN; .relu makes negatives +0.
 * A magnitude past the largest finite value is infinity ("conversions to
 * floating-point that are beyond the range ... are represented with ...
 * Inf", PTX ISA "Type Conversion"), or with .satfinite the largest finite
 * value of its sign; a value below it that rounds away past it likewise. */
static uint32_t half_rs(float x, bool bf, uint32_t r, bool relu, bool satf)
{
    const uint32_t inf = half_inf(bf);
    uint32_t sign, out;
    double ax;
    if (narrow_special(x, relu, HALF_CANON_NAN, 0x8000u, &out, &ax, &sign))
        return out;
    uint32_t bits = isinf(ax) ? inf : isa_fp_round_bits_rs(ax, bf ? 7 : 10, bf ? -126 : -14, r, bf ? 16 : 13);
    if (bits >= inf)
        bits = satf ? inf - 1 : inf;
    return sign | bits;
}

/* cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits (PTX ISA
 * 8.7): a to the upper half with the random bits of rbits' upper 16, b to
 * the lower with those of its lower 16; f16 uses the 13 low bits of each
 * half (the ISA asks for the 3 above them to be 0; they are ignored), bf16
 * all 16.  The .rs forms of the 8-, 6- and 4-bit x4 destinations
 * (cvt.rs.satfinite.e4m3x4.f32 d, {a, b, e, f}, rbits) share one 16-bit
 * half of rbits between two operands in a layout the ISA gives only as a
 * figure: ptxsim refuses them rather than guess. */
static ptx_status cvt_rs(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint8_t dt = in->type;
    if (!type_x2(dt) || in->type2 != ISA_TYPE_F32 || in->nopd != 4)
        return PTX_E_UNSUPPORTED;
    const uint64_t *a = SRC(1), *b = SRC(2), *r = SRC(3);
    uint64_t *d = DST(0);
    bool bf = type_bf16(dt), relu = in->flags & ISA_MOD_FLAG(RELU), satf = in->flags & ISA_MOD_FLAG(SATFINITE);
    uint32_t rm = bf ? 0xFFFFu : 0x1FFFu;
    LANES(mask, d[l] = half_rs(f32_of(a[l]), bf, (uint32_t)(r[l] >> 16) & rm, relu, satf) << 16 |
                       half_rs(f32_of(b[l]), bf, (uint32_t)r[l] & rm, relu, satf));
    return PTX_OK;
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}
 * .s32.b32 d, a, b{, c} (PTX ISA cvt.pack): a and b saturated to the type,
 * b in the low bits and a above it, and c's low bits above both. */
static ptx_status cvt_pack(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    unsigned bits = isa_type_bits(in->type);
    if (bits > 16 || isa_types[in->type].kind == ISA_KIND_F || isa_types[in->type].kind == ISA_KIND_B ||
        in->type2 != ISA_TYPE_S32 || in->nopd < 3 || (bits == 16 && in->nopd > 3))
        return PTX_E_UNSUPPORTED;
    bool sign = type_signed(in->type);
    int64_t hi = sign ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1, lo = sign ? -hi - 1 : 0;
    uint32_t low = (1u << bits) - 1;
    const uint64_t *a = SRC(1), *b = SRC(2), *c = in->nopd > 3 ? SRC(3) : NULL;
    uint64_t *d = DST(0);
#define PACK_SAT(v) ((uint32_t)((int32_t)(v) < lo ? lo : (int32_t)(v) > hi ? hi : (int32_t)(v)) & low)
    LANES(mask, d[l] = PACK_SAT(a[l]) << bits | PACK_SAT(b[l]) | (c ? (uint32_t)(c[l] << 2 * bits) : 0));
#undef PACK_SAT
    return PTX_OK;
}

ptx_status isa_sem_cvt(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (in->mode == ISA_MODE_PACK)
        return cvt_pack(w, in, mask);
    if (in->rnd == ISA_RND_RS)
        return cvt_rs(w, in, mask);
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint8_t dt = in->type, st = in->type2, rnd = in->rnd;
    bool ftz = in->flags & ISA_MOD_FLAG(FTZ), sat = in->flags & ISA_MOD_FLAG(SAT);
    bool relu = in->flags & ISA_MOD_FLAG(RELU), satf = in->flags & ISA_MOD_FLAG(SATFINITE);
    bool dflt = type_float(dt), sflt = type_float(st);
    if (type_x2(dt) && st == ISA_TYPE_F32 && in->nopd == 3) {
        /* cvt.frnd2{.relu}{.satfinite}.f16x2.f32 d, a, b: a in the upper half, b in the lower. */
        const uint64_t *b = SRC(2);
        LANES(mask, d[l] = float_out(f32_of(a[l]), dt, rnd, false, false, relu, satf) << 16 |
                           float_out(f32_of(b[l]), dt, rnd, false, false, relu, satf));
        return PTX_OK;
    }
    if (dt == ISA_TYPE_TF32 || type_f8(dt) || type_f8(st))
        return cvt_narrow(w, in, mask);
    if (type_x2(dt) || type_x2(st) || st == ISA_TYPE_TF32)
        return PTX_E_UNSUPPORTED;
    if (st == ISA_TYPE_BF16 && dt == ISA_TYPE_F32 && rnd == ISA_RND_NONE && !sat) {
        /* bf16 is the upper half of an f32: the widening keeps a NaN's sign
         * and payload, as cuda_bf16.hpp's __bfloat162float does both on the
         * host and before sm_90 (mov.b32 d, {0, h}), where sm_90 uses this cvt.
         * With .sat the general path below clamps to [0.0, 1.0] (NaN to +0). */
        LANES(mask, {
            uint32_t x = (uint32_t)(a[l] & 0xFFFF) << 16;
            d[l] = ftz && (x & 0x7F800000u) == 0 ? x & 0x80000000u : x;
        });
        return PTX_OK;
    }
    if (!dflt && !sflt) {
        LANES(mask, d[l] = int_to_int(a[l], st, dt, sat));
    } else if (dflt && sflt) {
        /* Float to float; with .rni etc. round to an integral value.  .ftz
         * leaves the .f32 source of a conversion to .f16 alone: an H200
         * gives cvt.rp.ftz.f16.f32 of 0x00000001 as 0x0001 (the ISA does not
         * say; the flush would show only under .rm and .rp). */
        bool flush_in = ftz && dt != ISA_TYPE_F16;
        LANES(mask, {
            double x = float_in(a[l], st, flush_in);
            switch (rnd) {
            case ISA_RND_RNI: x = nearbyint(x); break;
            case ISA_RND_RZI: x = trunc(x); break;
            case ISA_RND_RMI: x = floor(x); break;
            case ISA_RND_RPI: x = ceil(x); break;
            default: break;
            }
            d[l] = float_out(x, dt, rnd, ftz, sat, relu, satf);
        });
    } else if (sflt) {
        LANES(mask, d[l] = float_to_int(float_in(a[l], st, ftz), st, dt, rnd));
    } else if (dt != ISA_TYPE_F32 && dt != ISA_TYPE_F64) {
        /* Integer to f16/bf16: the integer as a double rounded to odd (its
         * upper and lower 32 bits are each exact), then rounded once. */
        unsigned sn = type_bytes(st);
        bool sgn = type_signed(st);
        LANES(mask, {
            uint64_t v = a[l] & width_mask(sn);
            bool neg = sgn && sext(v, sn) < 0;
            uint64_t mag = neg ? 0 - (uint64_t)sext(v, sn) : v;
            double x = sum_odd((double)(mag & 0xFFFFFFFF00000000ull), (double)(mag & 0xFFFFFFFFu));
            d[l] = float_out(neg ? -x : x, dt, rnd, false, sat, relu, satf);
        });
    } else {
        /* Integer to f32/f64.  A 64-bit integer does not fit a double exactly,
         * so convert straight to the destination under the rounding mode. */
        bool dir = rnd == ISA_RND_RZ || rnd == ISA_RND_RM || rnd == ISA_RND_RP;
        int saved = dir ? isa_round_begin(rnd) : 0;
        unsigned sn = type_bytes(st);
        bool sgn = type_signed(st);
        LANES(mask, {
            uint64_t v = a[l] & width_mask(sn);
            int64_t s = sext(v, sn);
            if (dt == ISA_TYPE_F32) {
                float f = sgn ? (float)s : (float)v;
                if (sat) f = f < 0 ? 0.0f : f > 1 ? 1.0f : f;
                d[l] = f32_result(f, ftz);
            } else {
                double x = sgn ? (double)s : (double)v;
                if (sat) x = x < 0 ? 0.0 : x > 1 ? 1.0 : x;
                d[l] = bits_f64(x);
            }
        });
        if (dir)
            isa_round_end(saved);
    }
    return PTX_OK;
}

/* ---- generic addressing ------------------------------------------------- */

ptx_status isa_sem_cvta(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint64_t win = in->space == ISA_SPACE_SHARED ? w->mem->shared_win
                 : in->space == ISA_SPACE_LOCAL ? w->mem->local_win : 0;
    uint64_t wm = width_mask(type_bytes(in->type));
    if (in->flags & ISA_MOD_FLAG(TO))       /* generic -> space */
        LANES(mask, d[l] = (a[l] - win) & wm);
    else if (in->space == ISA_SPACE_PARAM && w->mem->param_shift)    /* this launch's own parameters */
        LANES(mask, d[l] = isa_param_at(w->mem, a[l]) & wm);
    else                                    /* space -> generic */
        LANES(mask, d[l] = (a[l] + win) & wm);
    return PTX_OK;
}

ptx_status isa_sem_isspacep(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    const isa_mem *m = w->mem;
    uint32_t t = 0;
    LANES(mask, {
        uint64_t x = a[l];
        bool sh = x - m->shared_win < ISA_WINDOW_BYTES, lo = x - m->local_win < ISA_WINDOW_BYTES;
        bool r;
        switch (in->space) {
        /* .shared::cta: the CTA's own shared memory; .shared::cluster:
         * that of any CTA of the cluster (isa.h, ISA_CLUSTER_SLOT). */
        case ISA_SPACE_SHARED:
            r = sh && ((in->flags & ISA_MOD_FLAG(SHCLUSTER)) || x - m->shared_win < ISA_CLUSTER_SLOT);
            break;
        case ISA_SPACE_LOCAL: r = lo; break;
        case ISA_SPACE_GLOBAL: case ISA_SPACE_CONST: case ISA_SPACE_PARAM:
            r = !sh && !lo && x >= m->global_lo && x < m->global_hi;
            break;
        default: r = false; break;
        }
        t |= (uint32_t)r << l;
    });
    isa_set_pred_dst(w, in, mask, t);
    return PTX_OK;
}

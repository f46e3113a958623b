/*
 * ref_fp.c -- see ref_fp.h.  Rounding works on the quad's integer
 * significand: the bits below the target's last place are dropped and the
 * kept part is moved up by the mode's rule; a carry out of the significand
 * moves into the exponent (and a subnormal that rounds up to the smallest
 * normal becomes it) through the same addition.
 */
#include "ref_fp.h"

#include <fenv.h>
#include <string.h>

const ref_fmt RF_F16 = { 5, 10, true };
const ref_fmt RF_BF16 = { 8, 7, true };
const ref_fmt RF_TF32 = { 8, 10, true };
const ref_fmt RF_F32 = { 8, 23, true };
const ref_fmt RF_F64 = { 11, 52, true };
const ref_fmt RF_E4M3 = { 4, 3, false };
const ref_fmt RF_E5M2 = { 5, 2, true };

const ref_fmt *rf_of(uint8_t t)
{
    switch (t) {
    case CT_F16: case CT_F16X2: return &RF_F16;
    case CT_BF16: case CT_BF16X2: return &RF_BF16;
    case CT_TF32: return &RF_TF32;
    case CT_F32: case CT_F32X2: return &RF_F32;
    case CT_F64: return &RF_F64;
    case CT_E4M3X2: case CT_E4M3: return &RF_E4M3;
    case CT_E5M2X2: case CT_E5M2: return &RF_E5M2;
    default: return NULL;
    }
}

int rf_bits(const ref_fmt *f) { return 1 + f->ebits + f->mbits; }
uint64_t rf_sign(const ref_fmt *f) { return 1ull << (f->ebits + f->mbits); }
static uint64_t mag_mask(const ref_fmt *f) { return rf_sign(f) - 1; }
uint64_t rf_inf(const ref_fmt *f)
{
    return f->ieee ? ((1ull << f->ebits) - 1) << f->mbits : mag_mask(f);
}
uint64_t rf_max(const ref_fmt *f) { return rf_inf(f) - 1; }

bool rf_isnan(const ref_fmt *f, uint64_t b)
{
    uint64_t m = b & mag_mask(f);
    return f->ieee ? m > rf_inf(f) : m == mag_mask(f);
}
bool rf_isinf(const ref_fmt *f, uint64_t b) { return f->ieee && (b & mag_mask(f)) == rf_inf(f); }
bool rf_iszero(const ref_fmt *f, uint64_t b) { return (b & mag_mask(f)) == 0; }
bool rf_issub(const ref_fmt *f, uint64_t b)
{
    uint64_t m = b & mag_mask(f);
    return m != 0 && (m >> f->mbits) == 0;
}
bool rf_neg(const ref_fmt *f, uint64_t b) { return (b & rf_sign(f)) != 0; }
uint64_t rf_ftz(const ref_fmt *f, uint64_t b) { return rf_issub(f, b) ? b & rf_sign(f) : b; }

/* ---- quads by bits --------------------------------------------------------- */

typedef unsigned __int128 u128;

static u128 q_bits(quad x)
{
    u128 u;
    memcpy(&u, &x, 16);
    return u;
}

static quad q_from(u128 u)
{
    quad x;
    memcpy(&x, &u, 16);
    return x;
}

/* 2^k for k in the quad's normal range. */
static quad pow2q(int k)
{
    return q_from((u128)(uint64_t)(k + 16383) << 112);
}

quad rf_flush_tiny(const ref_fmt *f, quad x, int mode)
{
    if (q_isnan(x) || x == 0)
        return x;
    const ref_fmt wide = { 15, f->mbits, true };          /* the precision, quad's exponent range */
    quad r = rf_value(&wide, rf_round(&wide, x, mode));
    if ((r < 0 ? -r : r) < pow2q(2 - (1 << (f->ebits - 1))))     /* 2^(1 - bias) */
        return x < 0 ? -(quad)0 : (quad)0;
    return x;
}

quad rf_value(const ref_fmt *f, uint64_t b)
{
    bool neg = rf_neg(f, b);
    if (rf_isnan(f, b))
        return neg ? -__builtin_nanq("") : __builtin_nanq("");
    if (rf_isinf(f, b))
        return neg ? -__builtin_infq() : __builtin_infq();
    uint64_t m = b & mag_mask(f), e = m >> f->mbits, frac = m & ((1ull << f->mbits) - 1);
    int bias = (1 << (f->ebits - 1)) - 1;
    quad v;
    if (e == 0)
        v = (quad)frac * pow2q(1 - bias - f->mbits);
    else
        v = (quad)(frac | 1ull << f->mbits) * pow2q((int)e - bias - f->mbits);
    return neg ? -v : v;
}

/* The magnitude's bits after rounding, not bounded above. */
static uint64_t round_mag(const ref_fmt *f, quad x, int mode, bool neg)
{
    u128 u = q_bits(x);
    int qe = (int)((u >> 112) & 0x7FFF) - 16383;            /* |x| in [2^qe, 2^(qe+1)) */
    u128 sig = (u & (((u128)1 << 112) - 1)) | (u128)1 << 112;
    int bias = (1 << (f->ebits - 1)) - 1, emin = 1 - bias;
    int q = (qe < emin ? emin : qe) - f->mbits;              /* the result's last place */
    int shift = q - (qe - 112);                              /* > 0 for every format here */
    u128 kept, rem, half;
    bool above, tie, any;
    if (shift > 113) {
        kept = 0;
        above = tie = false;
        any = true;
    } else {
        kept = sig >> shift;
        rem = sig & (((u128)1 << shift) - 1);
        half = (u128)1 << (shift - 1);
        above = rem > half;
        tie = rem == half;
        any = rem != 0;
    }
    bool up;
    switch (mode) {
    case CR_RZ: up = false; break;
    case CR_RM: up = neg && any; break;
    case CR_RP: up = !neg && any; break;
    case CR_RNA: up = above || tie; break;
    default: up = above || (tie && (kept & 1)); break;
    }
    kept += up;
    /* kept * 2^q as bits: a normal significand's leading one lands in the
     * exponent field, (biased - 1) << mbits + kept == biased << mbits +
     * fraction, where biased - 1 == q + mbits - emin; a subnormal has q ==
     * emin - mbits and is kept itself.  A carry out of the significand (or
     * out of the subnormals) lands in the exponent by the same sum. */
    return ((uint64_t)(q + f->mbits - emin) << f->mbits) + (uint64_t)kept;
}

bool rf_overflows(const ref_fmt *f, quad x, int mode)
{
    if (q_isnan(x) || x == 0)
        return false;
    if (q_isinf(x))
        return true;
    bool neg = q_signbit(x);
    return round_mag(f, neg ? -x : x, mode, neg) > rf_max(f);
}

uint64_t rf_round(const ref_fmt *f, quad x, int mode)
{
    uint64_t nan = mag_mask(f);
    if (q_isnan(x))
        return nan;
    bool neg = q_signbit(x);
    uint64_t sign = neg ? rf_sign(f) : 0;
    if (x == 0)
        return sign;
    if (!f->ieee && q_isinf(x))
        return sign | nan;
    if (q_isinf(x))
        return sign | rf_inf(f);
    uint64_t m = round_mag(f, neg ? -x : x, mode, neg);
    if (m > rf_max(f)) {
        if (!f->ieee)
            return sign | nan;
        bool to_max = mode == CR_RZ || (mode == CR_RM && !neg) || (mode == CR_RP && neg);
        m = to_max ? rf_max(f) : rf_inf(f);
    }
    return sign | m;
}

/* ---- round to odd ------------------------------------------------------------ */

static quad odd(quad r, bool inexact)
{
    return inexact ? q_from(q_bits(r) | 1) : r;
}

#define ODD_OP(name, expr)                                                   \
    quad name(quad a, quad b)                                               \
    {                                                                       \
        int saved = fegetround();                                           \
        fesetround(FE_TOWARDZERO);                                          \
        feclearexcept(FE_INEXACT);                                          \
        volatile quad r = (expr);                                           \
        bool inexact = fetestexcept(FE_INEXACT) != 0;                       \
        fesetround(saved);                                                  \
        return odd(r, inexact);                                             \
    }

ODD_OP(rq_add, a + b)
ODD_OP(rq_mul, a * b)
ODD_OP(rq_div, a / b)

int rf_host_mode(int mode)
{
    switch (mode) {
    case CR_RZ: case CR_RZI: return FE_TOWARDZERO;
    case CR_RM: case CR_RMI: return FE_DOWNWARD;
    case CR_RP: case CR_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

uint64_t rf_saturate(const ref_fmt *f, uint64_t r, bool *zero_any)
{
    quad v = rf_value(f, r);
    if (v <= 0) {
        *zero_any = true;
        return 0;
    }
    return v > 1 ? rf_round(f, 1, CR_RN) : r;
}

/*
 * fp_round.c -- switching the host rounding mode for PTX's directed
 * rounding modifiers (.rz .rm .rp and their integer forms).  The common .rn
 * path never calls these, so ordinary arithmetic runs at full speed and
 * nothing leaks into the host program's floating-point state.
 *
 * Half precision (f16, bf16), tf32 and the 8-bit floats (e4m3, e5m2) are
 * rounded explicitly instead, by bits, from an exact double or one rounded
 * to odd (sum_odd in isa_int.h).
 */
#include "isa_int.h"

#include <fenv.h>

int isa_round_begin(uint8_t rnd)
{
    int saved = fegetround();
    int mode = FE_TONEAREST;
    switch (rnd) {
    case ISA_RND_RZ: case ISA_RND_RZI: mode = FE_TOWARDZERO; break;
    case ISA_RND_RM: case ISA_RND_RMI: mode = FE_DOWNWARD; break;
    case ISA_RND_RP: case ISA_RND_RPI: mode = FE_UPWARD; break;
    default: break;
    }
    if (mode != saved)
        fesetround(mode);
    return saved;
}

void isa_round_end(int saved)
{
    if (fegetround() != saved)
        fesetround(saved);
}

/* The magnitude ax (finite, > 0) rounded to a binary format with `mbits`
 * fraction bits whose smallest normal exponent is emin (1 - bias), as that
 * format's bits without the sign: ((biased exponent) << mbits) | fraction.
 * The significand is scaled to units of the result's last place, split into
 * kept integer and dropped fraction (both exact in double), and the kept part
 * rounded by the mode; a carry out of the significand moves into the
 * exponent field, and a subnormal that rounds up to 2^emin becomes the
 * smallest normal, both by the same addition.  The result is not bounded
 * above: each caller compares it with its format's largest finite pattern,
 * since the formats differ in what lies beyond (infinity, NaN or nothing). */
/* ax's exponent in the format (emin for a subnormal result), its
 * significand in units of the result's last place cut to an integer k,
 * and the dropped part rest in [0, 1), both exact in double. */
static int split(double ax, int mbits, int emin, double *k, double *rest)
{
    int e;
    frexp(ax, &e);
    e -= 1;                                     /* ax in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin;                               /* subnormal: fixed last place 2^(emin-mbits) */
    double m = ldexp(ax, mbits - e);            /* < 2^(mbits+1) */
    *k = floor(m);
    *rest = m - *k;
    return e;
}

uint32_t isa_fp_round_bits(double ax, bool neg, int mbits, int emin, uint8_t rnd)
{
    double k, rest;
    int e = split(ax, mbits, emin, &k, &rest);
    bool up;
    switch (rnd) {
    case ISA_RND_RZ: up = false; break;
    case ISA_RND_RM: up = neg && rest > 0; break;
    case ISA_RND_RP: up = !neg && rest > 0; break;
    case ISA_RND_RNA: up = rest >= 0.5; break;  /* ties away from zero */
    default: up = rest > 0.5 || (rest == 0.5 && fmod(k, 2.0) != 0); break;
    }
    /* Normal: ((e + bias) << mbits) + (k - 2^mbits) == ((e - emin) << mbits) + k. */
    return ((uint32_t)(e - emin) << mbits) + (uint32_t)k + up;
}

/* .rs (PTX ISA cvt, "Floating Point Notes"): "rounded in the direction
 * toward zero or away from zero based on the carry out of the integer
 * addition of the supplied random bits (rbits) to the truncated off
 * (discarded) bits of mantissa from the input".  The random value's top bit
 * lines up with the first discarded bit, so the addition carries exactly
 * when rest + rbits / 2^nrand reaches 1: the probability of rounding away is
 * the dropped fraction, to nrand bits.  For an f32 rounded to a normal f16
 * (13 random bits) or any bf16 (16), the discarded bits are exactly the
 * f32's low 13 or 16 and the alignment is the ISA's; for an f16 subnormal,
 * where more bits drop, the ISA's text does not place the random bits and
 * this alignment is ptxsim's choice.  The comparison is exact: 1 - rbits /
 * 2^nrand has nrand bits. */
uint32_t isa_fp_round_bits_rs(double ax, int mbits, int emin, uint32_t rbits, unsigned nrand)
{
    double k, rest;
    int e = split(ax, mbits, emin, &k, &rest);
    bool up = rest > 0 && rest >= 1.0 - ldexp((double)rbits, -(int)nrand);
    return ((uint32_t)(e - emin) << mbits) + (uint32_t)k + up;
}

/* x rounded to f16 (5 exponent bits, 10 fraction bits, bias 15) or bf16
 * (8, 7, bias 127); past the largest finite value, infinity or (rounding
 * toward zero) the largest finite value. */
uint32_t isa_half_round(double x, bool bf, uint8_t rnd)
{
    const uint32_t inf = half_inf(bf);
    if (x != x)
        return HALF_CANON_NAN;
    bool neg = signbit(x);
    uint32_t sign = neg ? 0x8000u : 0;
    double ax = fabs(x);
    if (ax == 0)
        return sign;
    if (isinf(ax))
        return sign | inf;
    uint32_t bits = isa_fp_round_bits(ax, neg, bf ? 7 : 10, bf ? -126 : -14, rnd);
    if (bits >= inf)                            /* overflow: inf, or the largest finite toward zero */
        bits = rnd == ISA_RND_RZ || (rnd == ISA_RND_RM && !neg) || (rnd == ISA_RND_RP && neg)
               ? inf - 1 : inf;
    return sign | bits;
}

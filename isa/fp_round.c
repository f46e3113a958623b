/*
 * fp_round.c -- switching the host rounding mode for PTX's directed
 * rounding modifiers (.rz .rm .rp and their integer forms).  The common .rn
 * path never calls these, so ordinary arithmetic runs at full speed and
 * nothing leaks into the host program's floating-point state.
 *
 * Half precision (f16, bf16) is rounded explicitly instead, by bits, from an
 * exact double or one rounded to odd (sum_odd in isa_int.h).
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

/* x rounded to f16 (5 exponent bits, 10 fraction bits, bias 15) or bf16
 * (8, 7, bias 127).  The significand is scaled to units of the result's
 * last place, split into kept integer and dropped fraction (both exact in
 * double), and the kept part rounded by the mode; a carry out of the
 * significand moves into the exponent field, and a subnormal that rounds
 * up to 2^emin becomes the smallest normal, both by the same addition. */
uint32_t isa_half_round(double x, bool bf, uint8_t rnd)
{
    const int mbits = bf ? 7 : 10, emin = bf ? -126 : -14;
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
    int e;
    frexp(ax, &e);
    e -= 1;                                     /* ax in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin;                               /* subnormal: fixed last place 2^(emin-mbits) */
    double m = ldexp(ax, mbits - e);            /* < 2^(mbits+1) */
    double k = floor(m), rest = m - k;
    bool up;
    switch (rnd) {
    case ISA_RND_RZ: up = false; break;
    case ISA_RND_RM: up = neg && rest > 0; break;
    case ISA_RND_RP: up = !neg && rest > 0; break;
    default: up = rest > 0.5 || (rest == 0.5 && fmod(k, 2.0) != 0); break;
    }
    /* Normal: ((e + bias) << mbits) + (k - 2^mbits) == ((e - emin) << mbits) + k. */
    uint32_t bits = ((uint32_t)(e - emin) << mbits) + (uint32_t)k + up;
    if (bits >= inf)                            /* overflow: inf, or the largest finite toward zero */
        bits = rnd == ISA_RND_RZ || (rnd == ISA_RND_RM && !neg) || (rnd == ISA_RND_RP && neg)
               ? inf - 1 : inf;
    return sign | bits;
}

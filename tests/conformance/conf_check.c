/*
 * conf_check.c -- comparing a lane's result with what its reference wants:
 * bit for bit, except where the ISA leaves room (any NaN where it names
 * none; the .approx forms' error bounds).  Packed pairs are compared
 * element by element.
 */
#include "ref_fp.h"

static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Sign-magnitude bits as a number that grows with the value, so that the
 * distance between two results counts the representable values between
 * them (units in the last place, across binades and through zero). */
static int64_t ordered(const ref_fmt *f, uint64_t b)
{
    int64_t m = (int64_t)(b & (rf_sign(f) - 1));
    return rf_neg(f, b) ? -m : m;
}

static bool elem_match(const ref_fmt *f, uint64_t want, uint64_t got, const conf_want *w, bool nan_any,
                       bool zero_any)
{
    if (rf_isnan(f, want))
        return nan_any ? rf_isnan(f, got) : got == want;
    if (got == want || (zero_any && rf_iszero(f, want) && rf_iszero(f, got)))
        return true;
    if (w->ulp == 0 && w->abs_err == 0)
        return false;
    if (rf_isnan(f, got) || rf_isinf(f, want) || rf_isinf(f, got))
        return false;
    int64_t d = ordered(f, got) - ordered(f, want);
    if (d < 0)
        d = -d;
    if (w->ulp > 0 && (double)d <= w->ulp)
        return true;
    if (w->abs_err > 0) {
        quad diff = rf_value(f, got) - rf_value(f, want);
        if (diff < 0)
            diff = -diff;
        return diff <= (quad)w->abs_err;
    }
    return false;
}

bool conf_match(const conf_want *w, unsigned i, uint8_t t, uint64_t got)
{
    unsigned bits = conf_types[t].bits;
    uint64_t want = w->v[i];
    if (got & w->zero_bits[i])
        return false;
    const ref_fmt *f = rf_of(t);
    if (!f)
        return ((got ^ want) & mask_of(bits)) == 0;
    unsigned eb = (unsigned)rf_bits(f);
    if (t == CT_TF32) {
        /* tf32: the f32 bit pattern; the low 13 bits must be zero. */
        if ((got & 0x1FFF) || (want & 0x1FFF))
            return ((got ^ want) & 0xFFFFFFFF) == 0;
        got = (got >> 13) & mask_of(19);
        want = (want >> 13) & mask_of(19);
        return elem_match(f, want, got, w, w->nan_any[i], w->zero_any[i]);
    }
    for (unsigned sh = 0; sh < bits; sh += eb)
        if (!elem_match(f, (want >> sh) & mask_of(eb), (got >> sh) & mask_of(eb), w, w->nan_any[i],
                        w->zero_any[i]))
            return false;
    return true;
}

/*
 * ref_atom.c -- the reference for atom and red (PTX ISA 9.7.13.5 and
 * 9.7.13.6), written from the ISA's semantics:
 *
 *   atomic { d = *a; *a = (op == cas) ? op(*a, b, c) : op(*a, b); }
 *   inc(r, s) = (r >= s) ? 0 : r + 1
 *   dec(r, s) = (r == 0 || r > s) ? s : r - 1
 *   exch(r, s) = s;   cas(r, s, t) = (r == s) ? t : r
 *
 * and/or/xor on the bits; add wraps for the integer types; min/max compare
 * as the type says (signed for .s32/.s64).  The floating-point add rounds
 * to nearest even; atom.add.f32 on global memory flushes subnormal inputs
 * and results to zeros of their sign, on shared memory it keeps them; the
 * .noftz half forms keep them, each element of a pair on its own.  The ISA
 * names no NaN for an add, so any NaN matches any NaN (ref_atom_same).
 * min and max of the half types (.noftz, the vector forms) are 9.7.4's
 * min and max of each element.  .b128 (cas, exch) compares and moves all
 * 16 bytes at once.  A vector form is one such operation per element.
 */
#include "refs.h"

#include "ref_fp.h"

static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* The operation of the form: the first of its words that names one. */
const char *ref_atom_op(const conf_form *f)
{
    static const char *const ops[] = { "and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min", "max" };
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (conf_word(f, ops[i]))
            return ops[i];
    return "";
}

/* The element format of a float type, or NULL. */
static const ref_fmt *float_fmt(uint8_t t)
{
    return conf_types[t].kind == CK_F ? rf_of(t) : NULL;
}

/* x + y in the format, rounded to nearest even; flush: .ftz on the inputs
 * and the result. */
static uint64_t fadd(const ref_fmt *fm, uint64_t x, uint64_t y, bool flush)
{
    if (flush) {
        x = rf_ftz(fm, x);
        y = rf_ftz(fm, y);
    }
    quad a = rf_value(fm, x), b = rf_value(fm, y), r = rq_add(a, b);
    if (r == 0 && !q_isnan(r))
        r = a == 0 && b == 0 && q_signbit(a) && q_signbit(b) ? -0.0Q : 0.0Q;
    uint64_t out = rf_round(fm, r, CR_RN);
    return flush ? rf_ftz(fm, out) : out;
}

uint64_t ref_atom_apply(const conf_form *f, bool flush, uint64_t r, uint64_t b, uint64_t c)
{
    uint8_t t = f->type[0];
    unsigned bits = conf_types[t].bits;
    uint64_t m = mask_of(bits);
    const char *op = ref_atom_op(f);
    r &= m, b &= m, c &= m;
    const ref_fmt *fm = float_fmt(t);
    if ((!strcmp(op, "min") || !strcmp(op, "max")) && fm) {
        /* min/max.noftz of the half types (the vector forms): min and max
         * of 9.7.4 on each element, subnormals kept. */
        conf_want w = {0};
        uint64_t s[CONF_MAX_SRC + 1] = { r, b };
        (!strcmp(op, "min") ? ref_hmin : ref_hmax)(f, s, &w);
        return w.v[0] & m;
    }
    if (!strcmp(op, "add") && fm) {
        unsigned eb = (unsigned)rf_bits(fm);
        uint64_t out = 0;
        for (unsigned sh = 0; sh < bits; sh += eb)
            out |= fadd(fm, (r >> sh) & mask_of(eb), (b >> sh) & mask_of(eb), flush && t == CT_F32) << sh;
        return out;
    }
    bool sgn = conf_types[t].kind == CK_S;
    int64_t sr = bits < 64 && (r >> (bits - 1)) & 1 ? (int64_t)(r | ~m) : (int64_t)r;
    int64_t sb = bits < 64 && (b >> (bits - 1)) & 1 ? (int64_t)(b | ~m) : (int64_t)b;
    bool less = sgn ? sb < sr : b < r;          /* b below r */
    if (!strcmp(op, "and"))
        return r & b;
    if (!strcmp(op, "or"))
        return r | b;
    if (!strcmp(op, "xor"))
        return r ^ b;
    if (!strcmp(op, "exch"))
        return b;
    if (!strcmp(op, "cas"))
        return r == b ? c : r;
    if (!strcmp(op, "add"))
        return (r + b) & m;
    if (!strcmp(op, "inc"))
        return r >= b ? 0 : (r + 1) & m;
    if (!strcmp(op, "dec"))
        return r == 0 || r > b ? b : (r - 1) & m;
    if (!strcmp(op, "min"))
        return less ? b : r;
    if (!strcmp(op, "max"))
        return less ? r : b;
    return r;
}

void ref_atom_apply128(const conf_form *f, const uint64_t *r, const uint64_t *b, const uint64_t *c, uint64_t *out)
{
    const char *op = ref_atom_op(f);
    bool take_b = !strcmp(op, "exch"), take_c = !strcmp(op, "cas") && r[0] == b[0] && r[1] == b[1];
    const uint64_t *v = take_b ? b : take_c ? c : r;
    out[0] = v[0];
    out[1] = v[1];
}

bool ref_atom_same(const conf_form *f, uint64_t x, uint64_t y)
{
    uint8_t t = f->type[0];
    unsigned bits = conf_types[t].bits;
    const ref_fmt *fm = float_fmt(t);
    if (!fm || strcmp(ref_atom_op(f), "add") != 0)
        return ((x ^ y) & mask_of(bits)) == 0;
    unsigned eb = (unsigned)rf_bits(fm);
    for (unsigned sh = 0; sh < bits; sh += eb) {
        uint64_t a = (x >> sh) & mask_of(eb), b = (y >> sh) & mask_of(eb);
        if (a != b && !(rf_isnan(fm, a) && rf_isnan(fm, b)))
            return false;
    }
    return true;
}

/*
 * ref_int.c -- references for integer arithmetic (PTX ISA 9.7.1 "Integer
 * Arithmetic Instructions" and 9.7.2 "Extended-Precision Integer
 * Arithmetic Instructions"), written from the ISA's descriptions:
 *
 *   add/sub       d = a +- b in the type's width; .sat (s32) clamps to
 *                 MININT..MAXINT instead of wrapping.
 *   mul           t = a * b, 2n bits; .lo d = t<n-1..0>, .hi d = t<2n-1..n>,
 *                 .wide d = t (d 2n bits).
 *   mad           mul's t, then + c (.wide: c and d 2n bits); mad.hi.sat.s32
 *                 clamps t.hi + c to 32 signed bits.
 *   mul24/mad24   t = a<23..0> * b<23..0> (sign-extended from bit 23 for
 *                 .s32), 48 bits; .lo d = t<31..0>, .hi d = t<47..16>.
 *   sad           d = c + |a - b| (signed types compare signed).
 *   div/rem       truncating quotient and the remainder with the
 *                 dividend's sign; division by zero is unspecified.
 *   abs/neg/min/max on the type's values; min/max.relu clamp at 0; the
 *                 .u16x2/.s16x2 forms work on each 16-bit half.
 *   add.cc ...    CC.CF is the carry out of the n-bit sum; addc/subc/madc
 *                 read it, and only those three read it.  A difference is
 *                 a + ~b + 1 (sub.cc) or a + ~b + CF (subc), so CF after
 *                 one is the carry of that sum: 1 when there is no
 *                 borrow.  The ISA's "d = a - (b + CC.CF)" reads as if CF
 *                 were a borrow; an H200 computes 0 - 0 with sub.cc to CF
 *                 1, and subc 0, 0 with CF 0 to 0xFFFFFFFF, so a chain of
 *                 sub.cc and subc subtracts correctly either way but a
 *                 flag passed between add and sub follows the hardware.
 */
#include "refs.h"

/* ---- helpers -------------------------------------------------------------- */

static unsigned width(const conf_form *f) { return conf_types[f->type[f->ntypes - 1]].bits; }
static bool is_signed(const conf_form *f) { return conf_types[f->type[f->ntypes - 1]].kind == CK_S; }
static uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* The operand's value: sign-extended for signed types. */
static __int128 val(const conf_form *f, uint64_t v)
{
    unsigned n = width(f);
    v &= mask(n);
    if (is_signed(f) && n < 64 && (v >> (n - 1)) & 1)
        return (__int128)(int64_t)(v | ~mask(n));
    if (is_signed(f) && n == 64)
        return (__int128)(int64_t)v;
    return (__int128)v;
}

static uint64_t clamp_s32(__int128 v)
{
    if (v > INT32_MAX)
        v = INT32_MAX;
    if (v < INT32_MIN)
        v = INT32_MIN;
    return (uint64_t)(uint32_t)(int32_t)v;
}

/* The 2n-bit product of two n-bit operands, as bits. */
static unsigned __int128 product(const conf_form *f, uint64_t a, uint64_t b)
{
    if (is_signed(f))                           /* |a * b| <= 2^126: fits */
        return (unsigned __int128)(val(f, a) * val(f, b));
    return (unsigned __int128)(a & mask(width(f))) * (b & mask(width(f)));
}

static uint64_t half_of(const conf_form *f, unsigned __int128 t)
{
    unsigned n = width(f);
    return conf_has(f, CF_HI) ? (uint64_t)(t >> n) & mask(n) : (uint64_t)t & mask(n);
}

/* ---- add sub ---------------------------------------------------------------- */

/* add/sub on each 16-bit half of .u16x2/.s16x2 operands (wrapping). */
static bool halves(const conf_form *f)
{
    uint8_t t = f->type[f->ntypes - 1];
    return t == CT_U16X2 || t == CT_S16X2;
}

static void addsub_x2(const uint64_t *s, conf_want *w, bool sub)
{
    uint64_t d = 0;
    for (unsigned at = 0; at < 32; at += 16) {
        uint64_t a = (s[0] >> at) & 0xFFFF, b = (s[1] >> at) & 0xFFFF;
        d |= ((sub ? a - b : a + b) & 0xFFFF) << at;
    }
    w->v[0] = d;
}

void ref_int_add(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (halves(f)) {
        addsub_x2(s, w, false);
        return;
    }
    if (conf_has(f, CF_SAT)) {
        w->v[0] = clamp_s32(val(f, s[0]) + val(f, s[1]));
        return;
    }
    unsigned __int128 sum = (unsigned __int128)(s[0] & mask(width(f))) + (s[1] & mask(width(f)));
    w->v[0] = (uint64_t)sum & mask(width(f));
    if (f->carry_out)
        w->v[1] = (uint64_t)(sum >> width(f)) & 1;
}

void ref_int_sub(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (halves(f)) {
        addsub_x2(s, w, true);
        return;
    }
    if (conf_has(f, CF_SAT)) {
        w->v[0] = clamp_s32(val(f, s[0]) - val(f, s[1]));
        return;
    }
    uint64_t a = s[0] & mask(width(f)), b = s[1] & mask(width(f));
    w->v[0] = (a - b) & mask(width(f));
    if (f->carry_out)
        w->v[1] = a >= b;                       /* no borrow */
}

/* addc d = a + b + CF; subc d = a + ~b + CF; the carry out of the whole
 * sum with .cc. */
void ref_addc(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = width(f);
    unsigned __int128 sum = (unsigned __int128)(s[0] & mask(n)) + (s[1] & mask(n)) + s[CONF_MAX_SRC];
    w->v[0] = (uint64_t)sum & mask(n);
    if (f->carry_out)
        w->v[1] = (uint64_t)(sum >> n) & 1;
}

void ref_subc(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = width(f);
    unsigned __int128 sum = (unsigned __int128)(s[0] & mask(n)) + (~s[1] & mask(n)) + s[CONF_MAX_SRC];
    w->v[0] = (uint64_t)sum & mask(n);
    if (f->carry_out)
        w->v[1] = (uint64_t)(sum >> n) & 1;
}

/* ---- mul mad ---------------------------------------------------------------- */

void ref_int_mul(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned __int128 t = product(f, s[0], s[1]);
    w->v[0] = conf_has(f, CF_WIDE) ? (uint64_t)t & mask(2 * width(f)) : half_of(f, t);
}

void ref_int_mad(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = width(f);
    unsigned __int128 t = product(f, s[0], s[1]);
    if (conf_has(f, CF_WIDE)) {
        w->v[0] = (uint64_t)(t + s[2]) & mask(2 * n);
        return;
    }
    if (conf_has(f, CF_SAT)) {                  /* mad.hi.sat.s32 */
        w->v[0] = clamp_s32((__int128)(int32_t)(uint32_t)half_of(f, t) + val(f, s[2]));
        return;
    }
    unsigned __int128 sum = (unsigned __int128)half_of(f, t) + (s[2] & mask(n)) +
                            (f->carry_in ? s[CONF_MAX_SRC] : 0);
    w->v[0] = (uint64_t)sum & mask(n);
    if (f->carry_out)
        w->v[1] = (uint64_t)(sum >> n) & 1;
}

static __int128 low24(const conf_form *f, uint64_t v)
{
    v &= 0xFFFFFF;
    if (is_signed(f) && (v & 0x800000))
        return (__int128)v - 0x1000000;
    return (__int128)v;
}

static uint64_t mul24(const conf_form *f, uint64_t a, uint64_t b)
{
    uint64_t t = (uint64_t)(low24(f, a) * low24(f, b)) & mask(48);
    return conf_has(f, CF_HI) ? t >> 16 : t & mask(32);
}

void ref_mul24(const conf_form *f, const uint64_t *s, conf_want *w)
{
    w->v[0] = mul24(f, s[0], s[1]);
}

void ref_mad24(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint64_t t = mul24(f, s[0], s[1]);
    if (conf_has(f, CF_SAT))                    /* mad24.hi.sat.s32 */
        w->v[0] = clamp_s32((__int128)(int32_t)(uint32_t)t + (int32_t)(uint32_t)s[2]);
    else
        w->v[0] = (t + s[2]) & mask(32);
}

void ref_sad(const conf_form *f, const uint64_t *s, conf_want *w)
{
    __int128 a = val(f, s[0]), b = val(f, s[1]);
    __int128 d = a > b ? a - b : b - a;
    w->v[0] = (uint64_t)((unsigned __int128)d + s[2]) & mask(width(f));
}

/* ---- div rem ------------------------------------------------------------------ */

void ref_int_div(const conf_form *f, const uint64_t *s, conf_want *w)
{
    __int128 a = val(f, s[0]), b = val(f, s[1]);
    if (b == 0) {
        w->skip = true;                          /* "unspecified, machine-specific" */
        return;
    }
    w->v[0] = (uint64_t)(a / b) & mask(width(f));
}

void ref_int_rem(const conf_form *f, const uint64_t *s, conf_want *w)
{
    __int128 a = val(f, s[0]), b = val(f, s[1]);
    if (b == 0) {
        w->skip = true;
        return;
    }
    w->v[0] = (uint64_t)(a % b) & mask(width(f));
}

/* ---- abs neg min max ----------------------------------------------------------- */

void ref_int_abs(const conf_form *f, const uint64_t *s, conf_want *w)
{
    __int128 a = val(f, s[0]);
    w->v[0] = (uint64_t)(a < 0 ? -a : a) & mask(width(f));
}

void ref_int_neg(const conf_form *f, const uint64_t *s, conf_want *w)
{
    w->v[0] = (uint64_t)(-val(f, s[0])) & mask(width(f));
}

/* min/max on each 16-bit half of .u16x2/.s16x2 operands. */
static void minmax_x2(const conf_form *f, const uint64_t *s, conf_want *w, bool is_max)
{
    bool sgn = f->type[f->ntypes - 1] == CT_S16X2;
    uint64_t d = 0;
    for (unsigned at = 0; at < 32; at += 16) {
        int32_t a = (int32_t)((s[0] >> at) & 0xFFFF), b = (int32_t)((s[1] >> at) & 0xFFFF);
        if (sgn) {
            a = (int16_t)a;
            b = (int16_t)b;
        }
        int32_t r = is_max ? (a > b ? a : b) : (a < b ? a : b);
        if (conf_has(f, CF_RELU) && r < 0)
            r = 0;
        d |= (uint64_t)(r & 0xFFFF) << at;
    }
    w->v[0] = d;
}

void ref_int_min(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (f->type[f->ntypes - 1] == CT_U16X2 || f->type[f->ntypes - 1] == CT_S16X2) {
        minmax_x2(f, s, w, false);
        return;
    }
    __int128 a = val(f, s[0]), b = val(f, s[1]), r = a < b ? a : b;
    if (conf_has(f, CF_RELU) && r < 0)
        r = 0;
    w->v[0] = (uint64_t)r & mask(width(f));
}

void ref_int_max(const conf_form *f, const uint64_t *s, conf_want *w)
{
    if (f->type[f->ntypes - 1] == CT_U16X2 || f->type[f->ntypes - 1] == CT_S16X2) {
        minmax_x2(f, s, w, true);
        return;
    }
    __int128 a = val(f, s[0]), b = val(f, s[1]), r = a > b ? a : b;
    if (conf_has(f, CF_RELU) && r < 0)
        r = 0;
    w->v[0] = (uint64_t)r & mask(width(f));
}

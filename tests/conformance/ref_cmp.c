/*
 * ref_cmp.c -- references for comparison and selection (PTX ISA 9.7.3
 * "Comparison and Selection Instructions": setp set selp slct, and the
 * half-precision setp and set of 9.7.4).
 *
 * Comparison operators (ISA tables "Operators for signed integer, unsigned
 * integer and bit-size types" and "Floating-point comparison operators"):
 * eq ne lt le gt ge compare values (signed types as signed), lo ls hi hs
 * compare unsigned; on floats the ordered operators are false when either
 * operand is NaN, the unordered ones (equ neu ltu leu gtu geu) true, num
 * is "neither is NaN" and nan "either is NaN".  .ftz makes subnormal
 * inputs zeros of their sign first.
 *
 * setp: p = (a CmpOp b) BoolOp c, q = !(a CmpOp b) BoolOp c; for the
 * packed f16x2/bf16x2 types p is the lower elements' comparison and q the
 * upper's, each combined with c.  set: d is all ones of an integer d (1.0
 * for a float d) when (a CmpOp b) BoolOp c holds, else 0; packed sources
 * set each 16-bit half of d from their own elements (0xFFFF, or 1.0 in a
 * packed float d).
 */
#include "refs.h"
#include "ref_fp.h"

static uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static bool cmp_quad(uint8_t cmp, quad x, quad y)
{
    bool un = q_isnan(x) || q_isnan(y);
    switch (cmp) {
    case CC_EQ: return !un && x == y;
    case CC_NE: return !un && x != y;
    case CC_LT: return !un && x < y;
    case CC_LE: return !un && x <= y;
    case CC_GT: return !un && x > y;
    case CC_GE: return !un && x >= y;
    case CC_EQU: return un || x == y;
    case CC_NEU: return un || x != y;
    case CC_LTU: return un || x < y;
    case CC_LEU: return un || x <= y;
    case CC_GTU: return un || x > y;
    case CC_GEU: return un || x >= y;
    case CC_NUM: return !un;
    case CC_NAN: return un;
    default: return false;
    }
}

/* a CmpOp b for the element at bit `at` of operands of type t. */
static bool compare(const conf_form *f, uint8_t t, uint64_t a, uint64_t b, unsigned at)
{
    const ref_fmt *fm = rf_of(t);
    if (fm) {
        uint64_t m = mask((unsigned)rf_bits(fm));
        uint64_t x = (a >> at) & m, y = (b >> at) & m;
        if (conf_has(f, CF_FTZ)) {
            x = rf_ftz(fm, x);
            y = rf_ftz(fm, y);
        }
        return cmp_quad(f->cmp, rf_value(fm, x), rf_value(fm, y));
    }
    unsigned n = conf_types[t].bits;
    uint64_t ux = a & mask(n), uy = b & mask(n);
    bool sgn = conf_types[t].kind == CK_S;
    __int128 sx = sgn && n < 64 && (ux >> (n - 1)) ? (__int128)ux - ((__int128)1 << n)
                : sgn && n == 64 ? (__int128)(int64_t)ux : (__int128)ux;
    __int128 sy = sgn && n < 64 && (uy >> (n - 1)) ? (__int128)uy - ((__int128)1 << n)
                : sgn && n == 64 ? (__int128)(int64_t)uy : (__int128)uy;
    switch (f->cmp) {
    case CC_EQ: return ux == uy;
    case CC_NE: return ux != uy;
    case CC_LT: return sx < sy;
    case CC_LE: return sx <= sy;
    case CC_GT: return sx > sy;
    case CC_GE: return sx >= sy;
    case CC_LO: return ux < uy;
    case CC_LS: return ux <= uy;
    case CC_HI: return ux > uy;
    case CC_HS: return ux >= uy;
    default: return false;
    }
}

static bool combine(const conf_form *f, bool t, uint64_t c)
{
    switch (f->boolop) {
    case CB_AND: return t && c;
    case CB_OR: return t || c;
    case CB_XOR: return t != (c != 0);
    default: return t;
    }
}

static bool packed(uint8_t t) { return t == CT_F16X2 || t == CT_BF16X2; }

void ref_setp(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint8_t t = f->type[f->ntypes - 1];
    uint64_t c = f->boolop ? s[2] : 0;
    bool lo = compare(f, t, s[0], s[1], 0);
    w->v[0] = combine(f, lo, c);
    if (f->ndst == 2)
        w->v[1] = combine(f, packed(t) ? compare(f, t, s[0], s[1], 16) : !lo, c);
}

/* The value set writes for true into a d of type t (one element). */
static uint64_t set_true(uint8_t t)
{
    switch (t) {
    case CT_F32: return 0x3F800000;
    case CT_F16: case CT_F16X2: return 0x3C00;
    case CT_BF16: case CT_BF16X2: return 0x3F80;
    default: return mask(conf_types[t].bits);
    }
}

void ref_set(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint8_t dt = f->type[0], st = f->type[f->ntypes - 1];
    uint64_t c = f->boolop ? s[2] : 0;
    if (packed(st)) {
        uint64_t one = packed(dt) ? set_true(dt) : 0xFFFF;
        for (unsigned at = 0; at < 32; at += 16)
            if (combine(f, compare(f, st, s[0], s[1], at), c))
                w->v[0] |= one << at;
        return;
    }
    w->v[0] = combine(f, compare(f, st, s[0], s[1], 0), c) ? set_true(dt) : 0;
}

/* selp: d = c ? a : b */
void ref_selp(const conf_form *f, const uint64_t *s, conf_want *w)
{
    (void)f;
    w->v[0] = s[2] ? s[0] : s[1];
}

/* slct: d = (c >= 0) ? a : b, c an s32 or an f32 (-0 counts as zero, a
 * NaN compares false; .ftz flushes a subnormal c to a zero of its sign). */
void ref_slct(const conf_form *f, const uint64_t *s, conf_want *w)
{
    bool ge;
    if (f->type[f->ntypes - 1] == CT_F32) {
        uint64_t c = s[2] & 0xFFFFFFFF;
        if (conf_has(f, CF_FTZ))
            c = rf_ftz(&RF_F32, c);
        ge = rf_value(&RF_F32, c) >= 0;
    } else {
        ge = (int32_t)(uint32_t)s[2] >= 0;
    }
    w->v[0] = ge ? s[0] : s[1];
}

/*
 * ref_bits.c -- references for the logic, shift and bit-field
 * instructions (PTX ISA 9.7.7 "Logic and Shift Instructions", 9.7.1's
 * popc clz bfind fns brev bfe bfi szext dp4a dp2a, 9.7.9 prmt), from the
 * ISA's pseudocode, bit by bit where the ISA writes it that way.
 */
#include "refs.h"

static unsigned width_of(uint8_t t) { return conf_types[t].bits; }
static unsigned width(const conf_form *f) { return width_of(f->type[f->ntypes - 1]); }
static uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static unsigned bit(uint64_t v, unsigned i) { return (unsigned)(v >> i) & 1; }
static bool is_signed(const conf_form *f) { return conf_types[f->type[f->ntypes - 1]].kind == CK_S; }

/* ---- logic ------------------------------------------------------------------ */

void ref_and(const conf_form *f, const uint64_t *s, conf_want *w) { (void)f; w->v[0] = s[0] & s[1]; }
void ref_or(const conf_form *f, const uint64_t *s, conf_want *w) { (void)f; w->v[0] = s[0] | s[1]; }
void ref_xor(const conf_form *f, const uint64_t *s, conf_want *w) { (void)f; w->v[0] = s[0] ^ s[1]; }
void ref_not(const conf_form *f, const uint64_t *s, conf_want *w) { (void)f; w->v[0] = ~s[0]; }

/* cnot: d = (a == 0) ? 1 : 0 */
void ref_cnot(const conf_form *f, const uint64_t *s, conf_want *w)
{
    w->v[0] = (s[0] & mask(width(f))) == 0;
}

/* lop3: bit i of d is immLut[(a_i << 2) | (b_i << 1) | c_i] -- the LUT is
 * F(0xF0, 0xCC, 0xAA) for the function F.  lop3.or / lop3.and d|p, ..., e:
 * p is (d != 0) or / and e. */
void ref_lop3(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint64_t d = 0;
    for (unsigned i = 0; i < 32; i++)
        d |= (uint64_t)bit(f->imm, bit(s[0], i) << 2 | bit(s[1], i) << 1 | bit(s[2], i)) << i;
    w->v[0] = d;
    if (f->ndst == 2)
        w->v[1] = f->boolop == CB_AND ? d != 0 && s[4] != 0 : d != 0 || s[4] != 0;
}

/* ---- shifts -------------------------------------------------------------------- */

/* Shift amounts greater than the register width N are clamped to N. */
void ref_shl(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint64_t n = (uint32_t)s[1];
    w->v[0] = n >= width(f) ? 0 : (s[0] << n) & mask(width(f));
}

/* shr: .s types shift in the sign, .b and .u types zeros. */
void ref_shr(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = width(f);
    uint64_t k = (uint32_t)s[1], a = s[0] & mask(n);
    bool sign = is_signed(f) && bit(a, n - 1);
    uint64_t d = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned from = i + (unsigned)(k > n ? n : k);
        d |= (uint64_t)(from < n ? bit(a, from) : sign) << i;
    }
    w->v[0] = d;
}

/* shf.l: d = (b << n) | (a >> (32 - n)); shf.r: d = (b << (32 - n)) | (a >> n);
 * n = min(c, 32) (.clamp) or c & 0x1f (.wrap).  The 64-bit {b, a} shifted
 * and cut: shf.l keeps its upper word, shf.r its lower. */
void ref_shf(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint32_t c = (uint32_t)s[2];
    unsigned n = conf_has(f, CF_CLAMP) ? (c > 32 ? 32 : c) : c & 0x1F;
    uint64_t ab = (uint64_t)(uint32_t)s[1] << 32 | (uint32_t)s[0];
    if (!strcmp(f->mode, "l"))
        w->v[0] = (uint32_t)((ab << n) >> 32);  /* n <= 32: no bit of b shifts out of 64 before the cut */
    else
        w->v[0] = (uint32_t)(ab >> n);
}

/* ---- counting ------------------------------------------------------------------ */

void ref_popc(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = 0;
    for (unsigned i = 0; i < width(f); i++)
        n += bit(s[0], i);
    w->v[0] = n;
}

void ref_clz(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = width(f), z = 0;
    while (z < n && !bit(s[0], n - 1 - z))
        z++;
    w->v[0] = z;
}

/* bfind: the most significant non-sign bit (negative signed inputs are
 * complemented first), 0xFFFFFFFF if none; .shiftamt: msb - position. */
void ref_bfind(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned msb = width(f) - 1;
    uint64_t a = s[0] & mask(width(f));
    if (is_signed(f) && bit(a, msb))
        a = ~a & mask(width(f));
    uint64_t d = 0xFFFFFFFF;
    for (int i = (int)msb; i >= 0; i--)
        if (bit(a, (unsigned)i)) {
            d = (unsigned)i;
            break;
        }
    if (conf_has(f, CF_SHIFTAMT) && d != 0xFFFFFFFF)
        d = msb - d;
    w->v[0] = d;
}

void ref_brev(const conf_form *f, const uint64_t *s, conf_want *w)
{
    unsigned n = width(f);
    uint64_t d = 0;
    for (unsigned i = 0; i < n; i++)
        d |= (uint64_t)bit(s[0], i) << (n - 1 - i);
    w->v[0] = d;
}

/* ---- bit fields ---------------------------------------------------------------- */

/* pos and len: the low 8 bits (the ISA's 0..255) for the 32-bit forms;
 * all 32 bits for the 64-bit ones, as an H200 reads them (bfe.u64 with
 * len 0x80000000 takes every bit from pos, pos 0x100 none). */
static uint64_t field(const conf_form *f, uint64_t v)
{
    return width(f) == 64 ? (uint32_t)v : v & 0xFF;
}

/* bfe: sbit = 0 for .u or len == 0, else a[min(pos + len - 1, msb)];
 * d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sbit. */
void ref_bfe(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint64_t msb = width(f) - 1, pos = field(f, s[1]), len = field(f, s[2]);
    unsigned sbit = 0;
    if (is_signed(f) && len != 0)
        sbit = bit(s[0], (unsigned)(pos + len - 1 < msb ? pos + len - 1 : msb));
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++)
        d |= (uint64_t)(i < len && pos + i <= msb ? bit(s[0], (unsigned)(pos + i)) : sbit) << i;
    w->v[0] = d;
}

/* bfi f, a, b, c, d: f = b; f[pos + i] = a[i] for i < len and pos + i <= msb. */
void ref_bfi(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint64_t msb = width(f) - 1, pos = field(f, s[2]), len = field(f, s[3]);
    uint64_t d = s[1] & mask(width(f));
    for (unsigned i = 0; i < len && pos + i <= msb; i++)
        d = (d & ~(1ull << (pos + i))) | (uint64_t)bit(s[0], i) << (pos + i);
    w->v[0] = d;
}

/* szext: the low N bits of a, N = b clamped to 32 (.clamp) or b mod 32
 * (.wrap), zero- (.u32) or sign-extended (.s32) from bit N-1; N == 0 gives 0. */
void ref_szext(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint32_t b = (uint32_t)s[1];
    unsigned n = conf_has(f, CF_CLAMP) ? (b > 32 ? 32 : b) : b % 32;
    uint64_t d = 0;
    for (unsigned i = 0; i < 32; i++) {
        unsigned v = i < n ? bit(s[0], i) : (is_signed(f) && n ? bit(s[0], n - 1) : 0);
        d |= (uint64_t)v << i;
    }
    w->v[0] = d;
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit of
 * mask counting from base (upward for a positive offset, downward for a
 * negative one; offset 0: base itself if its bit is set), 0xFFFFFFFF when
 * there is none.  A base past 31 is not defined.  The ISA does not single
 * out an offset of INT_MIN, whose count no int holds; an H200 gives 0 for
 * it with every mask and base, which is taken as the answer. */
void ref_fns(const conf_form *f, const uint64_t *s, conf_want *w)
{
    (void)f;
    uint32_t mask = (uint32_t)s[0], base = (uint32_t)s[1];
    int32_t offset = (int32_t)(uint32_t)s[2];
    if (offset == INT32_MIN) {
        w->v[0] = 0;
        return;
    }
    if (base > 31) {
        w->skip = true;
        return;
    }
    uint64_t d = 0xFFFFFFFF;
    if (offset == 0) {
        if (bit(mask, base))
            d = base;
    } else {
        int64_t pos = base, count = (offset < 0 ? -(int64_t)offset : offset) - 1, inc = offset > 0 ? 1 : -1;
        for (; pos >= 0 && pos < 32; pos += inc)
            if (bit(mask, (unsigned)pos)) {
                if (count == 0) {
                    d = (uint64_t)pos;
                    break;
                }
                count--;
            }
    }
    w->v[0] = d;
}

/* bmsk.mode.b32 d, a, b: b ones from bit a up; a and b clamped to 32
 * (.clamp) or taken mod 32 (.wrap). */
void ref_bmsk(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1];
    if (conf_has(f, CF_CLAMP)) {
        a = a > 32 ? 32 : a;
        b = b > 32 ? 32 : b;
    } else {
        a &= 31;
        b &= 31;
    }
    uint64_t d = 0;
    for (unsigned i = 0; i < 32; i++)
        d |= (uint64_t)(i >= a && i < (uint64_t)a + b) << i;
    w->v[0] = d;
}

/* ---- prmt ---------------------------------------------------------------------- */

/* The modes' byte selections, written as the ISA's table does: for
 * selector c[1:0] = 0..3, the source bytes of d.b3 d.b2 d.b1 d.b0. */
static const struct { const char *mode; const char *sel[4]; } prmt_modes[] = {
    { "f4e", { "3210", "4321", "5432", "6543" } },
    { "b4e", { "5670", "6701", "7012", "0123" } },
    { "rc8", { "0000", "1111", "2222", "3333" } },
    { "ecl", { "3210", "3211", "3222", "3333" } },
    { "ecr", { "0000", "1110", "2210", "3210" } },
    { "rc16", { "1010", "3232", "1010", "3232" } },
};

void ref_prmt(const conf_form *f, const uint64_t *s, conf_want *w)
{
    uint64_t bytes = (uint64_t)(uint32_t)s[1] << 32 | (uint32_t)s[0];   /* {b, a}: a is bytes 0..3 */
    uint32_t c = (uint32_t)s[2], d = 0;
    for (size_t m = 0; m < sizeof prmt_modes / sizeof prmt_modes[0]; m++) {
        if (strcmp(f->mode, prmt_modes[m].mode) != 0)
            continue;
        const char *sel = prmt_modes[m].sel[c & 3];
        for (unsigned i = 0; i < 4; i++) {
            unsigned src = (unsigned)(sel[3 - i] - '0');
            d |= (uint32_t)((bytes >> (8 * src)) & 0xFF) << (8 * i);
        }
        w->v[0] = d;
        return;
    }
    /* Default mode: nibble i of c picks byte i; its bit 3 replicates the
     * picked byte's sign bit instead of copying the byte. */
    for (unsigned i = 0; i < 4; i++) {
        unsigned ctl = (c >> (4 * i)) & 0xF;
        uint32_t byte = (uint32_t)(bytes >> (8 * (ctl & 7))) & 0xFF;
        if (ctl & 8)
            byte = (byte & 0x80) ? 0xFF : 0;
        d |= byte << (8 * i);
    }
    w->v[0] = d;
}

/* ---- dot products ---------------------------------------------------------------- */

static int64_t part(uint64_t v, unsigned at, unsigned bits, bool sgn)
{
    uint64_t x = (v >> at) & mask(bits);
    return sgn && bit(x, bits - 1) ? (int64_t)x - (1ll << bits) : (int64_t)x;
}

/* dp4a.atype.btype d, a, b, c: d = c + sum of a.byte[i] * b.byte[i]. */
void ref_dp4a(const conf_form *f, const uint64_t *s, conf_want *w)
{
    bool as = conf_types[f->type[0]].kind == CK_S, bs = conf_types[f->type[1]].kind == CK_S;
    int64_t d = (int32_t)(uint32_t)s[2];
    for (unsigned i = 0; i < 4; i++)
        d += part(s[0], 8 * i, 8, as) * part(s[1], 8 * i, 8, bs);
    w->v[0] = (uint32_t)d;
}

/* dp2a.mode.atype.btype: d = c + a.half[0] * b.byte[k] + a.half[1] * b.byte[k+1],
 * k = 0 (.lo) or 2 (.hi). */
void ref_dp2a(const conf_form *f, const uint64_t *s, conf_want *w)
{
    bool as = conf_types[f->type[0]].kind == CK_S, bs = conf_types[f->type[1]].kind == CK_S;
    unsigned k = conf_has(f, CF_HI) ? 2 : 0;
    int64_t d = (int32_t)(uint32_t)s[2];
    for (unsigned i = 0; i < 2; i++)
        d += part(s[0], 16 * i, 16, as) * part(s[1], 8 * (k + i), 8, bs);
    w->v[0] = (uint32_t)d;
}

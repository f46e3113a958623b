/*
 * sem_bits.c -- logic, shifts and bit manipulation (PTX ISA 9.7.5 - 9.7.8):
 * and or xor not cnot lop3 shl shr shf popc clz bfind brev bfe bfi szext bmsk
 * fns prmt dp4a dp2a.  The .pred forms of and/or/xor/not act on predicate masks.
 */
#include "isa_int.h"

static ptx_status pred_logic(isa_warp *w, const isa_inst *in, uint32_t mask, int op)
{
    uint32_t x = isa_pred(w, &in->opd[1]);
    uint32_t y = in->nopd > 2 ? isa_pred(w, &in->opd[2]) : 0;
    uint32_t r = op == 0 ? x & y : op == 1 ? x | y : op == 2 ? x ^ y : ~x;
    isa_set_pred_dst(w, in, mask, r);
    return PTX_OK;
}

#define LOGIC_SEM(name, opn, expr)                                            \
    ptx_status isa_sem_##name(isa_warp *w, const isa_inst *in, uint32_t mask) \
    {                                                                         \
        if (in->type == ISA_TYPE_PRED)                                        \
            return pred_logic(w, in, mask, opn);                              \
        const uint64_t *a = SRC(1), *b = opn == 3 ? a : SRC(2);               \
        uint64_t *d = DST(0);                                                 \
        uint64_t wm = width_mask(type_bytes(in->type));                       \
        (void)b;                                                              \
        LANES(mask, d[l] = (expr) & wm);                                      \
        return PTX_OK;                                                        \
    }

LOGIC_SEM(and, 0, a[l] & b[l])
LOGIC_SEM(or,  1, a[l] | b[l])
LOGIC_SEM(xor, 2, a[l] ^ b[l])
LOGIC_SEM(not, 3, ~a[l])

ptx_status isa_sem_cnot(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint64_t wm = width_mask(type_bytes(in->type));
    LANES(mask, d[l] = (a[l] & wm) == 0);
    return PTX_OK;
}

/* lop3.b32 d, a, b, c, immLut: bit i of d is immLut[{a_i, b_i, c_i}].
 * lop3.{or,and}.b32 d|p, a, b, c, immLut, q also sets p to (d != 0) or /
 * and q. */
ptx_status isa_sem_lop3(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    uint8_t lut = (uint8_t)in->opd[4].imm;
    uint32_t nonzero = 0;
    LANES(mask, {
        uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l], z = (uint32_t)c[l], r = 0;
        for (unsigned k = 0; k < 8; k++) {
            if (!((lut >> k) & 1))
                continue;
            uint32_t t = (k & 4) ? x : ~x;
            t &= (k & 2) ? y : ~y;
            t &= (k & 1) ? z : ~z;
            r |= t;
        }
        d[l] = r;
        nonzero |= (uint32_t)(r != 0) << l;
    });
    if (in->opd[0].reg2 != ISA_NOREG) {
        uint32_t q = in->nopd > 5 ? isa_pred(w, &in->opd[5]) : 0;
        isa_set_pred(w, in->opd[0].reg2, mask, in->aop == ISA_AOP_AND ? nonzero & q : nonzero | q);
    }
    return PTX_OK;
}

/* Shifts: amounts of the width or more give 0 (shl, shr.u) or the sign (shr.s). */
ptx_status isa_sem_shl(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type), bits = n * 8;
    uint64_t wm = width_mask(n);
    LANES(mask, {
        uint32_t s = (uint32_t)b[l];
        d[l] = s >= bits ? 0 : (a[l] << s) & wm;
    });
    return PTX_OK;
}

ptx_status isa_sem_shr(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type), bits = n * 8;
    uint64_t wm = width_mask(n);
    if (type_signed(in->type))
        LANES(mask, {
            uint32_t s = (uint32_t)b[l];
            d[l] = (uint64_t)(sext(a[l], n) >> (s >= bits ? bits - 1 : s)) & wm;
        });
    else
        LANES(mask, {
            uint32_t s = (uint32_t)b[l];
            d[l] = s >= bits ? 0 : (a[l] & wm) >> s;
        });
    return PTX_OK;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: shift the 64-bit {b:a} by c. */
ptx_status isa_sem_shf(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    bool left = in->mode == ISA_MODE_L, clamp = in->flags & ISA_MOD_FLAG(CLAMP);
    LANES(mask, {
        uint32_t s = (uint32_t)c[l];
        s = clamp ? (s > 32 ? 32 : s) : s & 31;
        uint64_t v = ((uint64_t)(uint32_t)b[l] << 32) | (uint32_t)a[l];
        d[l] = left ? (uint32_t)((v << s) >> 32) : (uint32_t)(v >> s);
    });
    return PTX_OK;
}

ptx_status isa_sem_popc(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint64_t wm = width_mask(type_bytes(in->type));
    LANES(mask, d[l] = (uint32_t)__builtin_popcountll(a[l] & wm));
    return PTX_OK;
}

ptx_status isa_sem_clz(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    unsigned bits = type_bytes(in->type) * 8;
    LANES(mask, {
        uint64_t x = a[l] & width_mask(bits / 8);
        d[l] = x ? (uint32_t)(__builtin_clzll(x) - (64 - bits)) : bits;
    });
    return PTX_OK;
}

/* bfind: bit position of the most significant non-sign bit, 0xFFFFFFFF if
 * none; .shiftamt returns the left shift that would normalise instead. */
ptx_status isa_sem_bfind(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type), bits = n * 8;
    bool sgn = type_signed(in->type), shamt = in->flags & ISA_MOD_FLAG(SHIFTAMT);
    LANES(mask, {
        uint64_t x = a[l] & width_mask(n);
        if (sgn && sext(x, n) < 0)
            x = ~x & width_mask(n);
        uint32_t r = 0xFFFFFFFFu;
        if (x) {
            r = 63u - (uint32_t)__builtin_clzll(x);
            if (shamt)
                r = bits - 1 - r;
        }
        d[l] = r;
    });
    return PTX_OK;
}

ptx_status isa_sem_brev(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    unsigned bits = type_bytes(in->type) * 8;
    LANES(mask, {
        uint64_t x = a[l], r = 0;
        for (unsigned k = 0; k < bits; k++)
            r |= ((x >> k) & 1) << (bits - 1 - k);
        d[l] = r;
    });
    return PTX_OK;
}

/* The position and length operands of bfe and bfi.  The ISA takes them
 * "in the range 0..255" (their low 8 bits); the 64-bit forms on an H200
 * read the whole 32-bit values instead (bfe.u64 with len 0x80000000
 * extracts everything from pos; pos 0x100 gives 0), while the 32-bit ones
 * use the low 8 bits.  Both follow the hardware. */
static inline uint64_t field_operand(uint64_t v, unsigned bits)
{
    return bits == 64 ? (uint32_t)v : (uint8_t)v;
}

/* bfe d, a, pos, len: extract len bits from pos; .s sign-extends from the
 * last extracted bit (or the sign of a when the field is past the end). */
ptx_status isa_sem_bfe(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type), bits = n * 8;
    bool sgn = type_signed(in->type);
    LANES(mask, {
        uint64_t pos = field_operand(b[l], bits), len = field_operand(c[l], bits);
        uint64_t x = a[l] & width_mask(n), r = 0;
        int sbit = 0;
        if (sgn) {
            uint64_t msb = pos + len - 1;
            sbit = len == 0 ? 0 : (int)((x >> (msb >= bits ? bits - 1 : msb)) & 1);
        }
        for (unsigned k = 0; k < bits; k++) {
            int bit = k < len && pos + k < bits ? (int)((x >> (pos + k)) & 1) : sbit;
            r |= (uint64_t)bit << k;
        }
        d[l] = r;
    });
    return PTX_OK;
}

/* szext.{clamp,wrap}.{u32,s32} d, a, b: a's low b bits, zero- or
 * sign-extended; b past 32 clamps to 32 or wraps mod 32 (PTX ISA szext). */
ptx_status isa_sem_szext(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    bool sgn = type_signed(in->type), wrap = in->flags & ISA_MOD_FLAG(WRAP);
    LANES(mask, {
        uint32_t n = (uint32_t)b[l], x = (uint32_t)a[l];
        n = wrap ? n & 31 : n > 32 ? 32 : n;
        uint32_t low = n >= 32 ? ~0u : (1u << n) - 1, r = n ? x & low : 0;
        if (sgn && n && n < 32 && (x >> (n - 1) & 1))
            r |= ~low;
        d[l] = r;
    });
    return PTX_OK;
}

/* bmsk.{clamp,wrap}.b32 d, a, b: a mask of b one bits starting at bit a,
 * cut off at bit 31 (PTX ISA bmsk).  .wrap takes a and b mod 32 (so a width
 * of 32 is an empty mask); .clamp gives 0 for a start of 32 or more and
 * runs to bit 31 for a width of 32 or more. */
ptx_status isa_sem_bmsk(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    bool wrap = in->flags & ISA_MOD_FLAG(WRAP);
    LANES(mask, {
        uint32_t pos = (uint32_t)a[l], len = (uint32_t)b[l];
        uint32_t p = pos & 31, n = len & 31, r;
        if (!wrap && pos >= 32)
            r = 0;
        else if (!wrap && len >= 32)
            r = ~0u << p;
        else if (p + n >= 32)
            r = ~0u << p;
        else
            r = (~0u << p) & ~(~0u << (p + n));
        d[l] = r;
    });
    return PTX_OK;
}

/* fns.b32 d, mask, base, offset (CUDA's __fns): the position of the
 * offset-th set bit of mask counting up from bit base for a positive offset
 * and down from it for a negative one (base itself counts); offset 0 asks
 * whether bit base is set.  0xFFFFFFFF when there is no such bit.  Counting
 * bits instead of walking them: keep the bits on the searched side of base,
 * then drop the |offset| - 1 nearest ones.  A base past 31 is undefined in
 * the ISA; it finds nothing here, as on an H200.  An offset of INT_MIN
 * (whose magnitude no int holds) gives 0 there, whatever the mask and
 * base, and here. */
static uint32_t find_nth_set(uint32_t m, uint32_t base, int32_t offset)
{
    if (offset == INT32_MIN)
        return 0;
    if (base > 31)
        return ~0u;
    if (offset == 0)
        return m >> base & 1 ? base : ~0u;
    uint32_t n = offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset;
    m &= offset > 0 ? ~0u << base : ~0u >> (31 - base);
    if ((uint32_t)__builtin_popcount(m) < n)
        return ~0u;
    for (uint32_t k = 1; k < n; k++)
        m &= offset > 0 ? m - 1 : ~(0x80000000u >> __builtin_clz(m));
    return offset > 0 ? (uint32_t)__builtin_ctz(m) : 31u - (uint32_t)__builtin_clz(m);
}

ptx_status isa_sem_fns(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    LANES(mask, d[l] = find_nth_set((uint32_t)a[l], (uint32_t)b[l], (int32_t)(uint32_t)c[l]));
    return PTX_OK;
}

/* bfi d, f, b, pos, len: insert the low len bits of f into b at pos. */
ptx_status isa_sem_bfi(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *f = SRC(1), *b = SRC(2), *p = SRC(3), *ln = SRC(4);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type), bits = n * 8;
    LANES(mask, {
        uint64_t pos = field_operand(p[l], bits), len = field_operand(ln[l], bits);
        uint64_t r = b[l] & width_mask(n);
        for (uint64_t k = 0; k < len && pos + k < bits; k++) {
            uint64_t bit = 1ull << (pos + k);
            r = (r & ~bit) | (((f[l] >> k) & 1) << (pos + k));
        }
        d[l] = r;
    });
    return PTX_OK;
}

/* prmt.b32{.mode} d, a, b, c: pick bytes of the 8-byte {b, a}. */
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, uint8_t mode)
{
    uint64_t v = ((uint64_t)b << 32) | a;
    uint8_t byte[8];
    for (int i = 0; i < 8; i++)
        byte[i] = (uint8_t)(v >> (8 * i));
    uint32_t r = 0;
    unsigned sel = c & 3;
    static const uint8_t tab[6][4][4] = {
        /* f4e */  {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e */  {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8 */  {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl */  {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr */  {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
    };
    switch (mode) {
    case ISA_MODE_F4E: case ISA_MODE_B4E: case ISA_MODE_RC8:
    case ISA_MODE_ECL: case ISA_MODE_ECR: case ISA_MODE_RC16: {
        const uint8_t *t = tab[mode - ISA_MODE_F4E][sel];
        for (int i = 0; i < 4; i++)
            r |= (uint32_t)byte[t[i]] << (8 * i);
        return r;
    }
    default:
        /* Generic: nibble i of c selects byte i; bit 3 of the nibble asks for
         * the selected byte's sign replicated. */
        for (int i = 0; i < 4; i++) {
            unsigned s = (c >> (4 * i)) & 0xF;
            uint8_t bv = byte[s & 7];
            if (s & 8)
                bv = (bv & 0x80) ? 0xFF : 0x00;
            r |= (uint32_t)bv << (8 * i);
        }
        return r;
    }
}

ptx_status isa_sem_prmt(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    uint8_t mode = in->mode;
    LANES(mask, d[l] = prmt((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], mode));
    return PTX_OK;
}

/* dp4a.atype.btype d, a, b, c: c + sum of four byte products. */
ptx_status isa_sem_dp4a(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    bool as = type_signed(in->type), bs = type_signed(in->type2 ? in->type2 : in->type);
    LANES(mask, {
        int64_t s = sext(c[l], 4);
        for (int i = 0; i < 4; i++) {
            uint64_t x = (a[l] >> (8 * i)) & 0xFF, y = (b[l] >> (8 * i)) & 0xFF;
            s += (as ? sext(x, 1) : (int64_t)x) * (bs ? sext(y, 1) : (int64_t)y);
        }
        d[l] = (uint32_t)s;
    });
    return PTX_OK;
}

/* dp2a.{lo,hi}.atype.btype d, a, b, c: two 16x8 products, using the low or
 * high byte pair of b. */
ptx_status isa_sem_dp2a(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    bool as = type_signed(in->type), bs = type_signed(in->type2 ? in->type2 : in->type);
    unsigned base = in->flags & ISA_MOD_FLAG(HI) ? 2 : 0;
    LANES(mask, {
        int64_t s = sext(c[l], 4);
        for (int i = 0; i < 2; i++) {
            uint64_t x = (a[l] >> (16 * i)) & 0xFFFF, y = (b[l] >> (8 * (base + i))) & 0xFF;
            s += (as ? sext(x, 2) : (int64_t)x) * (bs ? sext(y, 1) : (int64_t)y);
        }
        d[l] = (uint32_t)s;
    });
    return PTX_OK;
}

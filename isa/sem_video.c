/*
 * sem_video.c -- the video instructions (PTX ISA 9.7.18): the scalar ones,
 * vadd vsub vabsdiff vmin vmax vshl vshr vmad vset, and the SIMD ones on
 * the two half-words of a register (vadd2 vsub2 vavrg2 vabsdiff2 vmin2
 * vmax2 vset2) or its four bytes (vadd4 ... vset4).
 *
 *   vop.dtype.atype.btype{.sat}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c}
 *       a byte (.b0 ... .b3), a half-word (.h0, .h1) or the whole word of a
 *       and of b, sign- or zero-extended by its operand's type, combined at
 *       full precision, except as a GPU (an H200) has it, where the ISA's
 *       text reads otherwise:
 *       - vadd and vsub without .sat keep the result's low 32 bits,
 *         sign-extended, whatever the types (the carry out is lost);
 *       - .sat clamps to dtype's 32-bit range (signed or not), but vadd
 *         and vsub with a u32 dtype only at 0 (a result of 2^32 or more
 *         wraps, and is its low word as above); into a byte or half-word
 *         of d it clamps the result, read as unsigned, to the top of that
 *         element's range (a negative result gives 0x7f, 0xff, 0x7fff or
 *         0xffff), whatever the operation; vshl and vshr clamp the .s34
 *         result (the low 34 bits, signed) to dtype's word, whatever d.dsel
 *         names;
 *       - the result is not cut to 33 bits; c is extended by dtype (vset's
 *         by atype) and .min/.max compare signed for a signed dtype, else
 *         unsigned on 64 bits (a negative result is above any c);
 *       - d.h1 takes the result's upper half-word (d.b1-.b3 and d.h0 its
 *         low byte or half-word); .add wraps at 32 bits.
 *       vshl and vshr shift by b (unsigned): .clamp by at most 32, .wrap by
 *       b mod 32; vset's result is 1 or 0.
 *   vmad.dtype.atype.btype{.po}{.sat}{.shr7,.shr15} d, {-}a, {-}b, {-}c
 *       a * b + c at full precision, the product or c negated as ~x + 1,
 *       .po adding 1 instead; signedFinal when an operand is signed or
 *       negated.  As the GPU has it, a whole-word a or b is a signed 32-bit
 *       value whatever its type (a byte or half-word extends by its type),
 *       and c is sign-extended always.  .shr7/.shr15 shift the 64-bit sum
 *       right, arithmetically when signedFinal, else logically; .sat clamps
 *       to the signed or unsigned 32-bit range by signedFinal.
 *   vop2/vop4.dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c
 *   vop2/vop4.dtype.atype.btype.add   d{.mask}, a{.asel}, b{.bsel}, c
 *       element i of each source is the element the selector's digit i
 *       picks from b:a (eight bytes, or four half-words); by default a's
 *       own for a (.b3210, .h10) and b's for b (.b7654, .h32).  .sat clamps
 *       each result to an element of dtype; then d's elements the mask
 *       names (all by default) are the results and the others c's, or,
 *       with .add, d = c + the sum of the results the mask names, wrapping
 *       at 32 bits.  vavrg rounds half away from zero.
 *
 * The selectors and masks stand in the register operands (isa.h,
 * ISA_VSEL_ON); isa_video_form_error refuses what the ISA does not allow.
 */
#include "isa_int.h"

typedef enum { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_SET, V_SHL, V_SHR, V_MAD } video_op;

/* Element i, `bits` wide, of x, extended by type t. */
static int64_t element(uint64_t x, unsigned i, unsigned bits, uint8_t t)
{
    uint64_t e = (x >> (i * bits)) & ((1ull << bits) - 1);
    return type_signed(t) ? sext(e, bits / 8) : (int64_t)e;
}

/* A register operand's selector, or 0 (an immediate's imm is its value). */
static uint64_t selector(const isa_opd *o)
{
    return o->kind == ISA_OPD_REG && (o->imm & ISA_VSEL_ON) ? o->imm : 0;
}

static unsigned selector_bits(uint64_t sel) { return sel & ISA_VSEL_HALF ? 16 : 8; }

static bool compare(int64_t x, int64_t y, uint8_t cmp)
{
    switch (cmp) {
    case ISA_CMP_EQ: return x == y;
    case ISA_CMP_NE: return x != y;
    case ISA_CMP_LT: return x < y;
    case ISA_CMP_LE: return x <= y;
    case ISA_CMP_GT: return x > y;
    default: return x >= y;        /* .ge: the parser takes no other */
    }
}

static int64_t combine(video_op op, int64_t x, int64_t y, uint8_t cmp)
{
    switch (op) {
    case V_ADD: return x + y;
    case V_SUB: return x - y;
    case V_AVRG: return x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
    case V_ABSDIFF: return x > y ? x - y : y - x;
    case V_MIN: return x < y ? x : y;
    case V_MAX: return x > y ? x : y;
    default: return compare(x, y, cmp);
    }
}

/* t clamped to the range of a `bits`-bit integer, signed or not. */
static __int128 clamp_bits(__int128 t, bool sgn, unsigned bits)
{
    __int128 lo = sgn ? -((__int128)1 << (bits - 1)) : 0;
    __int128 hi = sgn ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    return t < lo ? lo : t > hi ? hi : t;
}

/* ---- scalar ------------------------------------------------------------- */

/* A scalar source: the selected byte or half-word, or the word, extended. */
static int64_t part(uint32_t x, uint64_t sel, uint8_t t)
{
    return sel ? element(x, isa_vsel_digit(sel, 0), selector_bits(sel), t) : element(x, 0, 32, t);
}

static ptx_status scalar(isa_warp *w, const isa_inst *in, uint32_t mask, video_op op)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = in->nopd > 3 ? SRC(3) : NULL;
    uint64_t *d = DST(0);
    uint64_t sa = selector(&in->opd[1]), sb = selector(&in->opd[2]), sd = selector(&in->opd[0]);
    /* vop.dtype.atype.btype; vset.atype.btype, its c extended (and
     * compared) by atype, as if that were its dtype (so the GPU) */
    bool set = op == V_SET, shift = op == V_SHL || op == V_SHR, addsub = op == V_ADD || op == V_SUB;
    uint8_t dt = in->type, at = set ? in->type : in->type2, bt = set ? in->type2 : in->type3;
    bool sat = in->flags & ISA_MOD_FLAG(SAT), sgn = type_signed(dt);
    bool clamp = in->flags & ISA_MOD_FLAG(CLAMP);
    /* vadd/vsub.u32 .sat into a word: the GPU clamps only at 0, above it
     * the result wraps at 32 bits */
    bool floor_only = addsub && sat && !sd && !sgn;
    unsigned dbits = sd ? selector_bits(sd) : 32, dpos = sd ? isa_vsel_digit(sd, 0) * dbits : 0;
    uint32_t dmask = (uint32_t)(((1ull << dbits) - 1) << dpos);
    /* d.h1 takes the result's upper half as it stands; the others move the
     * low byte or half-word up to its place */
    unsigned dmove = dbits == 16 && dpos == 16 ? 0 : dpos;
    LANES(mask, {
        __int128 x = part((uint32_t)a[l], sa, at), y = part((uint32_t)b[l], sb, bt), t;
        if (shift) {
            unsigned n = clamp ? (y > 32 ? 32u : (unsigned)y) : (unsigned)y & 31;
            t = op == V_SHL ? x * ((__int128)1 << n) : x >> n;
        } else {
            t = combine(op, (int64_t)x, (int64_t)y, in->cmp);
        }
        if (addsub && !sat) {
            t = (int32_t)(uint32_t)t;               /* the low word, sign-extended */
        } else if (floor_only) {
            t = t < 0 ? 0 : (int32_t)(uint32_t)t;   /* 0, or the low word as above */
        } else if (sat && shift) {
            t = (int64_t)((uint64_t)t << 30) >> 30; /* the .s34 intermediate, */
            t = clamp_bits(t, sgn, 32);             /* to dtype's word */
        } else if (sat && sd) {
            uint64_t top = sgn ? (1ull << (dbits - 1)) - 1 : (1ull << dbits) - 1;
            t = t < 0 || t > (__int128)top ? (__int128)top : t;     /* unsigned, at the top only */
        } else if (sat) {
            t = clamp_bits(t, sgn, 32);
        }
        uint32_t r = (uint32_t)t;
        if (c) {
            uint32_t z = (uint32_t)c[l];
            int64_t zv = sgn ? (int64_t)(int32_t)z : (int64_t)z;
            /* signed dtype: signed; unsigned: on 64 bits, unsigned */
            bool lt = sgn ? t < zv : (uint64_t)t < (uint64_t)zv;
            switch (in->aop) {
            case ISA_AOP_ADD: r += z; break;
            case ISA_AOP_MIN: r = lt ? (uint32_t)t : z; break;
            case ISA_AOP_MAX: r = lt ? z : (uint32_t)t; break;
            default: r = (z & ~dmask) | ((r << dmove) & dmask); break;  /* d.dsel */
            }
        }
        d[l] = r;
    });
    return PTX_OK;
}

/* vmad: the ISA's 128-bit form as the GPU has it: whole-word a and b are
 * signed 32-bit values and c is sign-extended, whatever the types; the
 * sum, shifted, is 64 bits, read as signed or not by signedFinal. */
static ptx_status mad(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    uint64_t sa = selector(&in->opd[1]), sb = selector(&in->opd[2]);
    bool na = opd_negated(&in->opd[1]), nb = opd_negated(&in->opd[2]), nc = opd_negated(&in->opd[3]);
    bool po = isa_vmad_po(in->mode);
    unsigned scale = isa_vmad_scale(in->mode);
    bool sgn = type_signed(in->type2) || type_signed(in->type3) || na != nb || nc;
    bool sat = in->flags & ISA_MOD_FLAG(SAT);
    LANES(mask, {
        int64_t xa = sa ? part((uint32_t)a[l], sa, in->type2) : (int32_t)(uint32_t)a[l];
        int64_t xb = sb ? part((uint32_t)b[l], sb, in->type3) : (int32_t)(uint32_t)b[l];
        __int128 p = (__int128)xa * xb, z = (int32_t)(uint32_t)c[l];
        if (!po && na != nb)
            p = -p;
        else if (!po && nc)
            z = -z;
        __int128 t = p + z + po;
        if (scale)
            t = sgn ? t >> scale : (__int128)((uint64_t)t >> scale);
        if (sat)
            t = clamp_bits(t, sgn, 32);
        d[l] = (uint32_t)t;
    });
    return PTX_OK;
}

/* ---- SIMD --------------------------------------------------------------- */

static ptx_status simd(isa_warp *w, const isa_inst *in, uint32_t mask, video_op op, unsigned n)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    /* vop.dtype.atype.btype; vset.atype.btype */
    uint8_t dt = in->type, at = op == V_SET ? in->type : in->type2, bt = op == V_SET ? in->type2 : in->type3;
    unsigned bits = 32 / n;
    bool add = in->aop == ISA_AOP_ADD, sat = in->flags & ISA_MOD_FLAG(SAT) && op != V_SET;
    /* Which element of b:a feeds each lane, and which lanes d takes. */
    uint64_t sa = selector(&in->opd[1]), sb = selector(&in->opd[2]), sd = selector(&in->opd[0]);
    unsigned from_a[4], from_b[4];
    uint32_t keep = sd ? 0 : ~0u;
    for (unsigned i = 0; i < n; i++) {
        from_a[i] = sa ? isa_vsel_digit(sa, i) : i;
        from_b[i] = sb ? isa_vsel_digit(sb, i) : n + i;
    }
    for (unsigned k = 0; sd && k < isa_vsel_count(sd); k++)
        keep |= ((1u << bits) - 1) << (isa_vsel_digit(sd, k) * bits);
    LANES(mask, {
        uint64_t ba = (uint64_t)(uint32_t)b[l] << 32 | (uint32_t)a[l];
        uint32_t z = (uint32_t)c[l], r = 0;
        for (unsigned i = 0; i < n; i++) {
            int64_t t = combine(op, element(ba, from_a[i], bits, at), element(ba, from_b[i], bits, bt), in->cmp);
            if (sat)
                t = (int64_t)clamp_bits(t, type_signed(dt), bits);
            uint32_t lane = ((1u << bits) - 1) << (i * bits);
            if (add)
                r += keep & lane ? (uint32_t)t : 0;
            else
                r |= ((uint32_t)t << (i * bits)) & lane;
        }
        d[l] = add ? z + r : (r & keep) | (z & ~keep);
    });
    return PTX_OK;
}

#define SCALAR_SEM(name, op)                                                  \
    ptx_status isa_sem_##name(isa_warp *w, const isa_inst *in, uint32_t mask) \
    {                                                                         \
        return scalar(w, in, mask, op);                                       \
    }
#define SIMD_SEM(name, op, n)                                                 \
    ptx_status isa_sem_##name(isa_warp *w, const isa_inst *in, uint32_t mask) \
    {                                                                         \
        return simd(w, in, mask, op, n);                                      \
    }

SCALAR_SEM(vadd, V_ADD)
SCALAR_SEM(vsub, V_SUB)
SCALAR_SEM(vabsdiff, V_ABSDIFF)
SCALAR_SEM(vmin, V_MIN)
SCALAR_SEM(vmax, V_MAX)
SCALAR_SEM(vshl, V_SHL)
SCALAR_SEM(vshr, V_SHR)
SCALAR_SEM(vset, V_SET)
ptx_status isa_sem_vmad(isa_warp *w, const isa_inst *in, uint32_t mask) { return mad(w, in, mask); }
SIMD_SEM(vadd2, V_ADD, 2)
SIMD_SEM(vsub2, V_SUB, 2)
SIMD_SEM(vavrg2, V_AVRG, 2)
SIMD_SEM(vabsdiff2, V_ABSDIFF, 2)
SIMD_SEM(vmin2, V_MIN, 2)
SIMD_SEM(vmax2, V_MAX, 2)
SIMD_SEM(vset2, V_SET, 2)
SIMD_SEM(vadd4, V_ADD, 4)
SIMD_SEM(vsub4, V_SUB, 4)
SIMD_SEM(vavrg4, V_AVRG, 4)
SIMD_SEM(vabsdiff4, V_ABSDIFF, 4)
SIMD_SEM(vmin4, V_MIN, 4)
SIMD_SEM(vmax4, V_MAX, 4)
SIMD_SEM(vset4, V_SET, 4)

/* ---- forms -------------------------------------------------------------- */

static bool word_type(uint8_t t) { return t == ISA_TYPE_U32 || t == ISA_TYPE_S32; }

/* Whether sel is one `count` digits long (0: any of 1 to 4, strictly
 * falling: a mask), of kind `half`, each digit at most `max`. */
static bool selector_is(uint64_t sel, bool half, unsigned count, unsigned max)
{
    unsigned k = isa_vsel_count(sel);
    if (!!(sel & ISA_VSEL_HALF) != half || (count ? k != count : k < 1 || k > 4))
        return false;
    for (unsigned i = 0; i < k; i++)
        if (isa_vsel_digit(sel, i) > max || (!count && i && isa_vsel_digit(sel, i) <= isa_vsel_digit(sel, i - 1)))
            return false;
    return true;
}

/* A scalar source's or destination's selector: one byte or one half. */
static bool one_element(uint64_t sel)
{
    return !sel || selector_is(sel, false, 1, 3) || selector_is(sel, true, 1, 1);
}

const char *isa_video_form_error(const isa_inst *in)
{
    unsigned n = isa_video_lanes(in->op);
    bool set = in->op == ISA_OP_VSET || in->op == ISA_OP_VSET2 || in->op == ISA_OP_VSET4;
    bool shift = in->op == ISA_OP_VSHL || in->op == ISA_OP_VSHR, vmad = in->op == ISA_OP_VMAD;
    bool sat = in->flags & ISA_MOD_FLAG(SAT);
    const uint8_t types[3] = { in->type, in->type2, in->type3 };
    for (unsigned i = 0; i < (set ? 2u : 3u); i++)
        if (!word_type(types[i]))
            return set ? "takes two types, .atype.btype, each .u32 or .s32"
                       : "takes three types, .dtype.atype.btype, each .u32 or .s32";
    if (set && (in->type3 || in->cmp < ISA_CMP_EQ || in->cmp > ISA_CMP_GE))
        return "compares with .eq, .ne, .lt, .le, .gt or .ge, after two types";
    if (shift && in->type3 != ISA_TYPE_U32)
        return "shifts by an unsigned amount: b's type, the third, is .u32";
    uint32_t wrap = ISA_MOD_FLAG(CLAMP) | ISA_MOD_FLAG(WRAP);
    if (shift && (in->flags & wrap) != ISA_MOD_FLAG(CLAMP) && (in->flags & wrap) != ISA_MOD_FLAG(WRAP))
        return "takes one of .clamp and .wrap";
    if (in->flags & ~(ISA_MOD_FLAG(SAT) | (shift ? wrap : 0)))
        return "a modifier of another instruction";
    if (in->mode && !vmad)
        return "a modifier of another instruction (.po and .shr7/.shr15 are vmad's)";
    if (set && sat)
        return ".sat is not allowed on vset";
    if (in->aop && vmad)
        return "vmad takes no secondary operation";
    if (in->aop && ((n > 1 && in->aop != ISA_AOP_ADD) ||
                    (in->aop != ISA_AOP_ADD && in->aop != ISA_AOP_MIN && in->aop != ISA_AOP_MAX)))
        return n > 1 ? "the SIMD forms' one secondary operation is .add" : "a secondary operation of .add, .min or .max only";
    if (n > 1 && sat && in->aop)
        return ".sat is not allowed with .add";
    if (in->nopd < 3 || in->opd[0].kind != ISA_OPD_REG)
        return "takes a register d and sources a, b (and c)";
    uint64_t sd = selector(&in->opd[0]), sa = selector(&in->opd[1]), sb = selector(&in->opd[2]);
    if (in->nopd > 3 && selector(&in->opd[3]))
        return "c takes no selector";
    for (unsigned i = 0; i < in->nopd; i++)
        if (opd_negated(&in->opd[i]) && (!vmad || i == 0))
            return "only vmad's sources may be negated";
    if (vmad) {
        bool po = isa_vmad_po(in->mode);
        if (in->nopd != 4 || sd)
            return "takes d, a, b, c, and d no selector";
        bool na = opd_negated(&in->opd[1]), nb = opd_negated(&in->opd[2]), nc = opd_negated(&in->opd[3]);
        if (!one_element(sa) || !one_element(sb))
            return "selects one byte (.b0 to .b3) or half-word (.h0, .h1) of a source";
        if (po && (na || nb || nc))
            return "negates no operand with .po";
        if (na != nb && nc)
            return "negates either the product or c, not both";
        return NULL;
    }
    if (n == 1) {
        if (!one_element(sa) || !one_element(sb) || !one_element(sd))
            return "selects one byte (.b0 to .b3) or half-word (.h0, .h1) of an operand";
        /* ptxas takes a c that nothing reads, too: vadd.u32.u32.u32 d, a, b, c. */
        if (in->nopd > 4 || (in->nopd != 4 && (in->aop || sd)))
            return "takes c with a secondary operation (.add, .min, .max) or a merge (d.b0 ... d.h1)";
        if (in->aop && sd)
            return "takes a secondary operation or a merge into a byte or half of d (d.b0), not both";
        return NULL;
    }
    if (in->nopd != 4)
        return "takes four operands, d, a, b, c";
    if ((sa && !selector_is(sa, n == 2, n, n == 2 ? 3 : 7)) || (sb && !selector_is(sb, n == 2, n, n == 2 ? 3 : 7)))
        return n == 2 ? "selects a source's half-words from b:a with two digits, 0 to 3 (.h10, .h32)"
                      : "selects a source's bytes from b:a with four digits, 0 to 7 (.b3210, .b7654)";
    if (sd && !selector_is(sd, n == 2, 0, n - 1))
        return n == 2 ? "masks d with .h0, .h1 or .h10" : "masks d with falling digits 0 to 3 (.b0, .b10, .b3210, ...)";
    return NULL;
}

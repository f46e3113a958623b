/*
 * sem_video.c -- the SIMD video instructions (PTX ISA 9.7.18.2): vadd2
 * vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 on the two half-words of a
 * register, and their four-byte forms vadd4 ... vset4.
 *
 *   vop.dtype.atype.btype{.sat} d, a, b, c     each element of a and b
 *       (half-word or byte), sign- or zero-extended by its operand's type,
 *       combined; .sat clamps the result to dtype's 16- or 8-bit range; the
 *       results' low bits make up d, element by element.
 *   vop.dtype.atype.btype.add d, a, b, c       d = c + the results' sum
 *       (at full precision; the sum wraps at 32 bits).
 *   vset.atype.btype.cmp{.add} d, a, b, c      the same with 1 or 0 as
 *       each element's result, from comparing the extended elements.
 *
 * vavrg rounds half away from zero: (x + y + 1) >> 1 where the sum is not
 * negative, (x + y) >> 1 (rounding down) where it is.  The element
 * selectors (a.b3210, b.h32) and the destination masks (d.b0) are taken at
 * their defaults -- each element of a against the same one of b, every
 * element of d written -- which is what nvcc and clang emit for CUDA's
 * SIMD intrinsics (__vadd4, __vabsdiffu4, __vcmpgts2, __vsads4, ...);
 * other selectors and masks, and the scalar video instructions (vadd,
 * vmad, vshl, ...), are refused with the reason (isa_video_form_error).
 */
#include "isa_int.h"

typedef enum { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_SET } video_op;

/* Element i (of `n` in a word) of x, extended by type t. */
static int64_t element(uint32_t x, unsigned i, unsigned n, uint8_t t)
{
    unsigned bits = 32 / n;
    uint64_t e = (x >> (i * bits)) & ((1u << bits) - 1);
    return type_signed(t) ? sext(e, bits / 8) : (int64_t)e;
}

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

static ptx_status video(isa_warp *w, const isa_inst *in, uint32_t mask, video_op op, unsigned n)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    /* vop.dtype.atype.btype; vset.atype.btype */
    uint8_t dt = in->type, at = op == V_SET ? in->type : in->type2, bt = op == V_SET ? in->type2 : in->type3;
    if (!bt)
        bt = at;
    unsigned bits = 32 / n;
    bool add = in->aop == ISA_AOP_ADD, sat = in->flags & ISA_MOD_FLAG(SAT) && op != V_SET;
    int64_t lo = type_signed(dt) ? -(1ll << (bits - 1)) : 0;
    int64_t hi = type_signed(dt) ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    LANES(mask, {
        uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l], r = add ? (uint32_t)c[l] : 0;
        for (unsigned i = 0; i < n; i++) {
            int64_t t = combine(op, element(x, i, n, at), element(y, i, n, bt), in->cmp);
            if (sat)
                t = t < lo ? lo : t > hi ? hi : t;
            if (add)
                r += (uint32_t)t;
            else
                r |= ((uint32_t)t & ((1u << bits) - 1)) << (i * bits);
        }
        d[l] = r;
    });
    return PTX_OK;
}

#define VIDEO_SEM(name, op, n)                                                \
    ptx_status isa_sem_##name(isa_warp *w, const isa_inst *in, uint32_t mask) \
    {                                                                         \
        return video(w, in, mask, op, n);                                     \
    }

VIDEO_SEM(vadd2, V_ADD, 2)
VIDEO_SEM(vsub2, V_SUB, 2)
VIDEO_SEM(vavrg2, V_AVRG, 2)
VIDEO_SEM(vabsdiff2, V_ABSDIFF, 2)
VIDEO_SEM(vmin2, V_MIN, 2)
VIDEO_SEM(vmax2, V_MAX, 2)
VIDEO_SEM(vset2, V_SET, 2)
VIDEO_SEM(vadd4, V_ADD, 4)
VIDEO_SEM(vsub4, V_SUB, 4)
VIDEO_SEM(vavrg4, V_AVRG, 4)
VIDEO_SEM(vabsdiff4, V_ABSDIFF, 4)
VIDEO_SEM(vmin4, V_MIN, 4)
VIDEO_SEM(vmax4, V_MAX, 4)
VIDEO_SEM(vset4, V_SET, 4)

const char *isa_video_form_error(const isa_inst *in)
{
    bool set = in->op == ISA_OP_VSET2 || in->op == ISA_OP_VSET4;
    const uint8_t types[3] = { in->type, in->type2, in->type3 };
    for (unsigned i = 0; i < (set ? 2u : 3u); i++)
        if (types[i] != ISA_TYPE_U32 && types[i] != ISA_TYPE_S32)
            return set ? "takes two types, .atype.btype, each .u32 or .s32"
                       : "takes three types, .dtype.atype.btype, each .u32 or .s32";
    if (set && (in->type3 || in->cmp < ISA_CMP_EQ || in->cmp > ISA_CMP_GE))
        return "compares with .eq, .ne, .lt, .le, .gt or .ge, after two types";
    if (in->aop && in->aop != ISA_AOP_ADD)
        return "the secondary operations .min and .max belong to the scalar video instructions, "
               "which ptxsim does not run";
    if ((in->flags & ISA_MOD_FLAG(SAT)) && (set || in->aop))
        return ".sat is not allowed with .add, nor on vset";
    if (in->flags & ~ISA_MOD_FLAG(SAT))
        return "a modifier other than .sat or .add";
    if (in->nopd != 4)
        return "takes four operands, d, a, b, c, and no element selectors or masks (a.b3210, d.b0), "
               "which ptxsim does not run";
    return NULL;
}

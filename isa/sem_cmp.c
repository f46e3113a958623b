/*
 * sem_cmp.c -- comparison and selection: setp set selp slct (PTX ISA 9.7.3.x).
 *
 * Ordered float comparisons are false when either operand is NaN; the
 * unordered ones (equ, neu, ltu, ...) are true.  lo/ls/hi/hs compare unsigned.
 */
#include "isa_int.h"

/* A float comparison (f16 and bf16 values widened exactly to double). */
static inline bool fcmp(uint8_t cmp, double x, double y)
{
    bool un = x != x || y != y;
    switch (cmp) {
    case ISA_CMP_EQ: return !un && x == y;
    case ISA_CMP_NE: return !un && x != y;
    case ISA_CMP_LT: return !un && x < y;
    case ISA_CMP_LE: return !un && x <= y;
    case ISA_CMP_GT: return !un && x > y;
    case ISA_CMP_GE: return !un && x >= y;
    case ISA_CMP_EQU: return un || x == y;
    case ISA_CMP_NEU: return un || x != y;
    case ISA_CMP_LTU: return un || x < y;
    case ISA_CMP_LEU: return un || x <= y;
    case ISA_CMP_GTU: return un || x > y;
    case ISA_CMP_GEU: return un || x >= y;
    case ISA_CMP_NUM: return !un;
    case ISA_CMP_NAN: return un;
    default: return false;
    }
}

/* The lanes of mask where `a CMP b` holds for the f16/bf16 element at
 * shift h (0, or 16 for the upper element of an x2 type). */
static uint32_t compare_half(const isa_inst *in, uint8_t type, const uint64_t *a,
                             const uint64_t *b, uint32_t mask, unsigned h)
{
    uint32_t t = 0;
    bool bf = type_bf16(type), ftz = in->flags & ISA_MOD_FLAG(FTZ);
    LANES(mask, {
        uint32_t x = half_at(a[l], h), y = half_at(b[l], h);
        if (ftz) { x = half_ftz(x, bf); y = half_ftz(y, bf); }
        t |= (uint32_t)fcmp(in->cmp, half_to_f64(x, bf), half_to_f64(y, bf)) << l;
    });
    return t;
}

/* The lanes of mask where `a CMP b` holds (the lower element for x2 types).
 * Always inlined: where the instruction is a constant (the compiled tier)
 * its type and comparison fold away; out of line it cost a sixth of a
 * compiled tiled matmul's time. */
static inline __attribute__((always_inline)) uint32_t compare(const isa_inst *in, uint8_t type, const uint64_t *a,
                        const uint64_t *b, uint32_t mask)
{
    uint32_t t = 0;
    unsigned n = type_bytes(type);
    uint8_t cmp = in->cmp;
    if (type == ISA_TYPE_F32 || type == ISA_TYPE_F64) {
        bool f64 = type == ISA_TYPE_F64, ftz = in->flags & ISA_MOD_FLAG(FTZ);
        LANES(mask, {
            double x, y;
            if (f64) {
                x = f64_of(a[l]);
                y = f64_of(b[l]);
            } else {
                float fx = f32_of(a[l]), fy = f32_of(b[l]);
                if (ftz) { fx = ftz32(fx); fy = ftz32(fy); }
                x = fx;
                y = fy;
            }
            t |= (uint32_t)fcmp(cmp, x, y) << l;
        });
        return t;
    }
    if (type_float(type))
        return compare_half(in, type, a, b, mask, 0);
    bool sgn = type_signed(type);
    uint64_t wm = width_mask(n);
    LANES(mask, {
        uint64_t ux = a[l] & wm, uy = b[l] & wm;
        int64_t sx = sext(ux, n), sy = sext(uy, n);
        bool r;
        switch (cmp) {
        case ISA_CMP_EQ: r = ux == uy; break;
        case ISA_CMP_NE: r = ux != uy; break;
        case ISA_CMP_LT: r = sgn ? sx < sy : ux < uy; break;
        case ISA_CMP_LE: r = sgn ? sx <= sy : ux <= uy; break;
        case ISA_CMP_GT: r = sgn ? sx > sy : ux > uy; break;
        case ISA_CMP_GE: r = sgn ? sx >= sy : ux >= uy; break;
        case ISA_CMP_LO: r = ux < uy; break;
        case ISA_CMP_LS: r = ux <= uy; break;
        case ISA_CMP_HI: r = ux > uy; break;
        case ISA_CMP_HS: r = ux >= uy; break;
        default: r = false; break;
        }
        t |= (uint32_t)r << l;
    });
    return t;
}

static inline uint32_t combine(uint8_t aop, uint32_t t, uint32_t c)
{
    switch (aop) {
    case ISA_AOP_AND: return t & c;
    case ISA_AOP_OR: return t | c;
    case ISA_AOP_XOR: return t ^ c;
    default: return t;
    }
}

/* setp.CmpOp[.BoolOp].type p[|q], a, b[, {!}c].  q is the complement of
 * the comparison, except for f16x2/bf16x2: p is the lower elements'
 * comparison and q the upper's, each combined with c. */
ptx_status isa_sem_setp(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint32_t t = compare(in, in->type, a, b, mask);
    uint32_t c = in->aop != ISA_AOP_NONE ? isa_pred(w, &in->opd[3]) : 0;
    isa_set_pred_dst(w, in, mask, combine(in->aop, t, c));
    if (in->opd[0].reg2 != ISA_NOREG) {
        uint32_t q = type_x2(in->type) ? compare_half(in, in->type, a, b, mask, 16) : ~t;
        isa_set_pred(w, in->opd[0].reg2, mask, combine(in->aop, q, c));
    }
    return PTX_OK;
}

/* The value set writes for true: 1.0 in a float destination, all ones in
 * an integer one (per element for x2 types). */
static uint64_t set_true(uint8_t dtype)
{
    switch (dtype) {
    case ISA_TYPE_F32: return 0x3F800000u;
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: return 0x3C00u;
    case ISA_TYPE_BF16: case ISA_TYPE_BF16X2: return 0x3F80u;
    default: return width_mask(type_bytes(dtype));
    }
}

/* set.CmpOp[.BoolOp].dtype.stype d, a, b[, {!}c]: d = all ones (or 1.0).
 * With an f16x2/bf16x2 source each element of d is set from its own
 * comparison: 1.0 in an x2 destination, 0xFFFF in a u32/s32 one. */
ptx_status isa_sem_set(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint8_t st = in->type2 ? in->type2 : in->type;
    uint32_t c = in->aop != ISA_AOP_NONE ? isa_pred(w, &in->opd[3]) : 0;
    uint64_t *d = DST(0);
    if (type_x2(st)) {
        uint32_t lo = combine(in->aop, compare_half(in, st, a, b, mask, 0), c);
        uint32_t hi = combine(in->aop, compare_half(in, st, a, b, mask, 16), c);
        uint64_t one = type_x2(in->type) ? set_true(in->type) : 0xFFFFu;
        LANES(mask, d[l] = ((hi >> l) & 1 ? one << 16 : 0) | ((lo >> l) & 1 ? one : 0));
        return PTX_OK;
    }
    uint32_t t = combine(in->aop, compare(in, st, a, b, mask), c);
    uint64_t one = set_true(in->type);
    LANES(mask, d[l] = (t >> l) & 1 ? one : 0);
    return PTX_OK;
}

/* selp.type d, a, b, c: d = c ? a : b */
ptx_status isa_sem_selp(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    uint32_t c = isa_pred(w, &in->opd[3]);
    LANES(mask, d[l] = (c >> l) & 1 ? a[l] : b[l]);
    return PTX_OK;
}

/* slct.dtype.stype d, a, b, c: d = c >= 0 ? a : b (c signed int or f32;
 * -0.0 counts as >= 0, NaN as negative). */
ptx_status isa_sem_slct(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    if (in->type2 == ISA_TYPE_F32) {
        bool ftz = in->flags & ISA_MOD_FLAG(FTZ);
        LANES(mask, {
            float x = f32_of(c[l]);
            if (ftz) x = ftz32(x);
            d[l] = x >= 0.0f ? a[l] : b[l];
        });
    } else {
        LANES(mask, d[l] = sext(c[l], 4) >= 0 ? a[l] : b[l]);
    }
    return PTX_OK;
}

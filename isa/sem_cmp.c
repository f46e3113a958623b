/*
 * sem_cmp.c -- comparison and selection: setp set selp slct (PTX ISA 9.7.3.x).
 *
 * Ordered float comparisons are false when either operand is NaN; the
 * unordered ones (equ, neu, ltu, ...) are true.  lo/ls/hi/hs compare unsigned.
 */
#include "isa_int.h"

/* The lanes of mask where `a CMP b` holds. */
static uint32_t compare(const isa_inst *in, uint8_t type, const uint64_t *a,
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
            bool un = x != x || y != y, r;
            switch (cmp) {
            case ISA_CMP_EQ: r = !un && x == y; break;
            case ISA_CMP_NE: r = !un && x != y; break;
            case ISA_CMP_LT: r = !un && x < y; break;
            case ISA_CMP_LE: r = !un && x <= y; break;
            case ISA_CMP_GT: r = !un && x > y; break;
            case ISA_CMP_GE: r = !un && x >= y; break;
            case ISA_CMP_EQU: r = un || x == y; break;
            case ISA_CMP_NEU: r = un || x != y; break;
            case ISA_CMP_LTU: r = un || x < y; break;
            case ISA_CMP_LEU: r = un || x <= y; break;
            case ISA_CMP_GTU: r = un || x > y; break;
            case ISA_CMP_GEU: r = un || x >= y; break;
            case ISA_CMP_NUM: r = !un; break;
            case ISA_CMP_NAN: r = un; break;
            default: r = false; break;
            }
            t |= (uint32_t)r << l;
        });
        return t;
    }
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

/* setp.CmpOp[.BoolOp].type p[|q], a, b[, {!}c] */
ptx_status isa_sem_setp(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint32_t t = compare(in, in->type, SRC(1), SRC(2), mask);
    uint32_t c = in->aop != ISA_AOP_NONE ? isa_pred(w, &in->opd[3]) : 0;
    isa_set_pred(w, in->opd[0].reg, mask, combine(in->aop, t, c));
    if (in->opd[0].reg2 != ISA_NOREG)
        isa_set_pred(w, in->opd[0].reg2, mask, combine(in->aop, ~t, c));
    return PTX_OK;
}

/* set.CmpOp[.BoolOp].dtype.stype d, a, b[, {!}c]: d = all ones (or 1.0f). */
ptx_status isa_sem_set(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint8_t st = in->type2 ? in->type2 : in->type;
    uint32_t t = compare(in, st, SRC(1), SRC(2), mask);
    if (in->aop != ISA_AOP_NONE)
        t = combine(in->aop, t, isa_pred(w, &in->opd[3]));
    uint64_t *d = DST(0);
    uint64_t one = in->type == ISA_TYPE_F32 ? 0x3F800000u : 0xFFFFFFFFu;
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

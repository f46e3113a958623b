/*
 * sem_warp.c -- barriers and warp-level operations: bar barrier vote shfl
 * activemask match redux (PTX ISA 9.7.13 and 9.7.14).
 *
 * Warp-level semantics see the whole warp's register columns, so a shuffle
 * reads another lane's value directly.  `mask` is the set of lanes that
 * execute the instruction together.
 */
#include "isa_int.h"

/* CTA barriers are counted by exec/, which knows the other warps. */
ptx_status isa_sem_bar(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    w->taken = mask;
    return PTX_CTL_BARRIER;
}

ptx_status isa_sem_barrier(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    return isa_sem_bar(w, in, mask);
}

/* vote{.sync}.mode.type d, {!}a{, membermask} */
ptx_status isa_sem_vote(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint32_t a = isa_pred(w, &in->opd[1]) & mask;
    if (in->mode == ISA_MODE_BALLOT) {
        uint64_t *d = DST(0);
        LANES(mask, d[l] = a);
        return PTX_OK;
    }
    bool r;
    switch (in->mode) {
    case ISA_MODE_ALL: r = a == mask; break;
    case ISA_MODE_ANY: r = a != 0; break;
    default: r = a == 0 || a == mask; break;     /* .uni */
    }
    isa_set_pred(w, in->opd[0].reg, mask, r ? FULL_MASK : 0);
    return PTX_OK;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask -- the ISA's pseudocode:
 * c packs the clamp value (bits 4:0) and the segment mask (bits 12:8). */
ptx_status isa_sem_shfl(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t snap[ISA_WARP_SIZE];
    memcpy(snap, a, sizeof snap);                 /* d may be a */
    uint64_t *d = DST(0);
    uint32_t valid = 0;
    uint8_t mode = in->mode;
    LANES(mask, {
        int lane = (int)l, bval = (int)(b[l] & 31), cval = (int)(c[l] & 31);
        int seg = (int)((c[l] >> 8) & 31);
        int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg, j;
        bool pval;
        switch (mode) {
        case ISA_MODE_UP: j = lane - bval; pval = j >= maxl; break;
        case ISA_MODE_DOWN: j = lane + bval; pval = j <= maxl; break;
        case ISA_MODE_BFLY: j = lane ^ bval; pval = j <= maxl; break;
        default: j = minl | (bval & ~seg); pval = j <= maxl; break;
        }
        if (!pval || j < 0 || j > 31)
            j = lane;
        d[l] = (uint32_t)snap[j];
        valid |= (uint32_t)pval << l;
    });
    if (in->opd[0].reg2 != ISA_NOREG)
        isa_set_pred(w, in->opd[0].reg2, mask, valid);
    return PTX_OK;
}

/* elect.sync d|p, membermask: of the executing lanes in membermask, the one
 * with the lowest lane id is the leader (PTX ISA elect.sync: one leader,
 * chosen deterministically); p is true in it alone, and d (or the sink '_')
 * is its lane id in every executing lane. */
ptx_status isa_sem_elect(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const isa_opd *o = &in->opd[0];
    const uint64_t *m = SRC(1);
    uint32_t members = mask & (uint32_t)m[__builtin_ctz(mask)];
    uint32_t leader = members ? (uint32_t)__builtin_ctz(members) : 0;
    if (o->kind == ISA_OPD_REG) {
        uint64_t *d = DST(0);
        LANES(mask, d[l] = leader);
    }
    if (o->reg2 != ISA_NOREG)
        isa_set_pred(w, o->reg2, mask, members ? 1u << leader : 0);
    return PTX_OK;
}

ptx_status isa_sem_activemask(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint64_t *d = DST(0);
    LANES(mask, d[l] = mask);
    return PTX_OK;
}

/* match.{any,all}.sync.type d[|p], a, membermask */
ptx_status isa_sem_match(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    uint64_t wm = width_mask(type_bytes(in->type));
    uint64_t snap[ISA_WARP_SIZE];
    memcpy(snap, a, sizeof snap);
    uint32_t same[ISA_WARP_SIZE] = {0};
    LANES(mask, {
        uint32_t s = 0;
        for (unsigned k = 0; k < ISA_WARP_SIZE; k++)
            if (((mask >> k) & 1) && (snap[k] & wm) == (snap[l] & wm))
                s |= 1u << k;
        same[l] = s;
    });
    if (in->mode == ISA_MODE_ALL) {
        bool all = true;
        LANES(mask, all = all && same[l] == mask);
        LANES(mask, d[l] = all ? mask : 0);
        if (in->opd[0].reg2 != ISA_NOREG)
            isa_set_pred(w, in->opd[0].reg2, mask, all ? FULL_MASK : 0);
    } else {
        LANES(mask, d[l] = same[l]);
    }
    return PTX_OK;
}

/* redux.sync.{min,max}{.abs}{.NaN}.f32 (PTX ISA 8.6, sm_100a): min/max's
 * two-input rule folded over the lanes, so NaN inputs are ignored unless
 * all are NaN or .NaN is given, and then the result is the canonical NaN;
 * +0 > -0; .abs takes each input's magnitude. */
static void redux_f32(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    bool nan = in->flags & ISA_MOD_FLAG(NAN), absv = in->flags & ISA_MOD_FLAG(ABS);
    bool is_max = in->aop == ISA_AOP_MAX, first = true;
    float acc = 0;
    LANES(mask, {
        float v = f32_of(a[l]);
        if (absv)
            v = fabsf(v);
        acc = first ? v : is_max ? fmax32(acc, v, nan) : fmin32(acc, v, nan);
        first = false;
    });
    uint64_t r = f32_result(acc, false);        /* a lone NaN input: canonical */
    LANES(mask, d[l] = r);
}

/* redux.sync.op.type d, a, membermask */
ptx_status isa_sem_redux(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    if (in->type == ISA_TYPE_F32) {
        redux_f32(w, in, mask);
        return PTX_OK;
    }
    bool sgn = type_signed(in->type);
    uint64_t acc = in->aop == ISA_AOP_AND ? 0xFFFFFFFFu : 0;
    bool first = true;
    LANES(mask, {
        uint32_t v = (uint32_t)a[l];
        switch (in->aop) {
        case ISA_AOP_ADD: acc = (uint32_t)(acc + v); break;
        case ISA_AOP_AND: acc &= v; break;
        case ISA_AOP_OR: acc |= v; break;
        case ISA_AOP_XOR: acc ^= v; break;
        case ISA_AOP_MIN:
            acc = first ? v : sgn ? (uint32_t)((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
            break;
        case ISA_AOP_MAX:
            acc = first ? v : sgn ? (uint32_t)((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
            break;
        default: break;
        }
        first = false;
    });
    LANES(mask, d[l] = acc);
    return PTX_OK;
}

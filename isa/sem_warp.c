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

/* The lanes that lane l's warp-level operation takes in: its membermask
 * (operand i, where the instruction has one) among those executing.  The
 * lanes need not name the same mask: the tiles of a warp (cooperative
 * groups' thread_block_tile<4>, labeled partitions) each name their own and
 * vote, match and reduce apart in one instruction.  (A lane outside its own
 * membermask is undefined behaviour; it gets what its mask says.) */
static const uint64_t *member_column(isa_warp *w, const isa_inst *in, unsigned i)
{
    return in->nopd > i ? SRC(i) : NULL;
}

static uint32_t group_of(const uint64_t *members, uint32_t mask, unsigned l)
{
    return members ? (uint32_t)members[l] & mask : mask;
}

/* vote{.sync}.mode.type d, {!}a{, membermask} */
ptx_status isa_sem_vote(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *members = member_column(w, in, 2);
    uint32_t a = isa_pred(w, &in->opd[1]) & mask;
    if (in->mode == ISA_MODE_BALLOT) {
        uint64_t *d = DST(0);
        LANES(mask, d[l] = a & group_of(members, mask, l));
        return PTX_OK;
    }
    uint32_t r = 0;
    LANES(mask, {
        uint32_t g = group_of(members, mask, l), v = a & g;
        bool t;
        switch (in->mode) {
        case ISA_MODE_ALL: t = v == g; break;
        case ISA_MODE_ANY: t = v != 0; break;
        default: t = v == 0 || v == g; break;    /* .uni */
        }
        r |= (uint32_t)t << l;
    });
    isa_set_pred_dst(w, in, mask, r);
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
 * is its lane id in every executing lane -- each lane's of its own
 * membermask's lanes. */
ptx_status isa_sem_elect(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const isa_opd *o = &in->opd[0];
    const uint64_t *m = SRC(1);
    uint64_t *d = o->kind == ISA_OPD_REG ? DST(0) : NULL;
    uint32_t p = 0;
    LANES(mask, {
        uint32_t members = mask & (uint32_t)m[l];
        uint32_t leader = members ? (uint32_t)__builtin_ctz(members) : 0;
        if (d)
            d[l] = leader;
        p |= (uint32_t)(members && leader == l) << l;
    });
    if (o->reg2 != ISA_NOREG)
        isa_set_pred(w, o->reg2, mask, p);
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
    const uint64_t *a = SRC(1), *members = member_column(w, in, 2);
    uint64_t *d = DST(0);
    uint64_t wm = width_mask(type_bytes(in->type));
    uint64_t snap[ISA_WARP_SIZE];
    memcpy(snap, a, sizeof snap);
    uint32_t all = 0;
    LANES(mask, {
        uint32_t g = group_of(members, mask, l), s = 0;
        for (uint32_t k = g; k; k &= k - 1) {
            unsigned j = (unsigned)__builtin_ctz(k);
            if ((snap[j] & wm) == (snap[l] & wm))
                s |= 1u << j;
        }
        if (in->mode == ISA_MODE_ALL) {
            d[l] = s == g ? g : 0;
            all |= (uint32_t)(s == g) << l;
        } else {
            d[l] = s;
        }
    });
    if (in->mode == ISA_MODE_ALL && in->opd[0].reg2 != ISA_NOREG)
        isa_set_pred(w, in->opd[0].reg2, mask, all);
    return PTX_OK;
}

/* redux.sync.{min,max}{.abs}{.NaN}.f32 (PTX ISA 8.6, sm_100a): min/max's
 * two-input rule folded over the lanes of g, so NaN inputs are ignored
 * unless all are NaN or .NaN is given, and then the result is the
 * canonical NaN; +0 > -0; .abs takes each input's magnitude. */
static uint64_t redux_f32(const isa_inst *in, const uint64_t *a, uint32_t g)
{
    bool nan = in->flags & ISA_MOD_FLAG(NAN), absv = in->flags & ISA_MOD_FLAG(ABS);
    bool is_max = in->aop == ISA_AOP_MAX, first = true;
    float acc = 0;
    LANES(g, {
        float v = f32_of(a[l]);
        if (absv)
            v = fabsf(v);
        acc = first ? v : is_max ? fmax32(acc, v, nan) : fmin32(acc, v, nan);
        first = false;
    });
    return f32_result(acc, false);              /* a lone NaN input: canonical */
}

/* ... and the integer operations' fold over the lanes of g. */
static uint64_t redux_int(const isa_inst *in, const uint64_t *a, uint32_t g)
{
    bool sgn = type_signed(in->type);
    uint32_t acc = in->aop == ISA_AOP_AND ? 0xFFFFFFFFu : 0;
    bool first = true;
    LANES(g, {
        uint32_t v = (uint32_t)a[l];
        switch (in->aop) {
        case ISA_AOP_ADD: acc += v; break;
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
    return acc;
}

/* redux.sync.op.type d, a, membermask: each group of lanes naming the same
 * membermask reduced once. */
ptx_status isa_sem_redux(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *members = member_column(w, in, 2);
    uint64_t *d = DST(0);
    uint64_t (*fold)(const isa_inst *, const uint64_t *, uint32_t) = in->type == ISA_TYPE_F32 ? redux_f32 : redux_int;
    uint64_t snap[ISA_WARP_SIZE];
    memcpy(snap, a, sizeof snap);               /* d may be a */
    uint32_t done_g = 0;
    uint64_t done_r = 0;
    bool done = false;
    LANES(mask, {
        uint32_t g = group_of(members, mask, l);
        if (!done || g != done_g) {
            done = true;
            done_g = g;
            done_r = fold(in, snap, g);
        }
        d[l] = done_r;
    });
    return PTX_OK;
}

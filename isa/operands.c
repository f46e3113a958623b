/*
 * operands.c -- the slow path of operand access: immediates, special
 * registers and frame-relative addresses broadcast into a scratch column.
 */
#include "isa_int.h"

static uint64_t uniform_sreg(const isa_warp *w, unsigned id)
{
    switch (id) {
    case ISA_SREG_NTID_X: return w->ntid[0];
    case ISA_SREG_NTID_Y: return w->ntid[1];
    case ISA_SREG_NTID_Z: return w->ntid[2];
    case ISA_SREG_CTAID_X: return w->ctaid[0];
    case ISA_SREG_CTAID_Y: return w->ctaid[1];
    case ISA_SREG_CTAID_Z: return w->ctaid[2];
    case ISA_SREG_NCTAID_X: return w->nctaid[0];
    case ISA_SREG_NCTAID_Y: return w->nctaid[1];
    case ISA_SREG_NCTAID_Z: return w->nctaid[2];
    case ISA_SREG_WARPID: return w->warpid;
    case ISA_SREG_NWARPID: return w->nwarpid;
    case ISA_SREG_SMID: return w->smid;
    case ISA_SREG_NSMID: return w->nsmid;
    case ISA_SREG_GRIDID: return w->gridid;
    case ISA_SREG_CLOCK: return (uint32_t)*w->clock;
    case ISA_SREG_CLOCK_HI: return (uint32_t)(*w->clock >> 32);
    case ISA_SREG_CLOCK64: return *w->clock;
    /* The global timer runs in nanoseconds; ptxsim's clock is 1 GHz-ish. */
    case ISA_SREG_GLOBALTIMER: return *w->clock;
    case ISA_SREG_GLOBALTIMER_LO: return (uint32_t)*w->clock;
    case ISA_SREG_GLOBALTIMER_HI: return (uint32_t)(*w->clock >> 32);
    case ISA_SREG_DYNAMIC_SMEM_SIZE: return w->dynamic_smem;
    case ISA_SREG_TOTAL_SMEM_SIZE: return w->total_smem;
    case ISA_SREG_RESERVED_SMEM_BEGIN: case ISA_SREG_RESERVED_SMEM_0: return ISA_RESERVED_SMEM_AT;
    case ISA_SREG_RESERVED_SMEM_END: return ISA_RESERVED_SMEM_AT + ISA_RESERVED_SMEM_BYTES;
    case ISA_SREG_RESERVED_SMEM_CAP: return ISA_RESERVED_SMEM_BYTES;
    case ISA_SREG_RESERVED_SMEM_1: return ISA_RESERVED_SMEM_AT + ISA_RESERVED_SMEM_BYTES / 2;
    case ISA_SREG_WARPSZ: return ISA_WARP_SIZE;
    case ISA_SREG_AGGR_SMEM_SIZE: return w->total_smem + ISA_RESERVED_SMEM_BYTES;
    case ISA_SREG_CLUSTERID_X: case ISA_SREG_CLUSTERID_Y: case ISA_SREG_CLUSTERID_Z:
        return w->clusterid[id - ISA_SREG_CLUSTERID_X];
    case ISA_SREG_NCLUSTERID_X: case ISA_SREG_NCLUSTERID_Y: case ISA_SREG_NCLUSTERID_Z:
        return w->nclusterid[id - ISA_SREG_NCLUSTERID_X];
    case ISA_SREG_CLUSTER_CTAID_X: case ISA_SREG_CLUSTER_CTAID_Y: case ISA_SREG_CLUSTER_CTAID_Z:
        return w->cluster_ctaid[id - ISA_SREG_CLUSTER_CTAID_X];
    case ISA_SREG_CLUSTER_NCTAID_X: case ISA_SREG_CLUSTER_NCTAID_Y: case ISA_SREG_CLUSTER_NCTAID_Z:
        return w->cluster_nctaid[id - ISA_SREG_CLUSTER_NCTAID_X];
    case ISA_SREG_CLUSTER_CTARANK: return w->cluster_ctarank;
    case ISA_SREG_CLUSTER_NCTARANK: return w->cluster_nctarank;
    case ISA_SREG_IS_EXPLICIT_CLUSTER: return w->explicit_cluster;
    default:
        if (id >= ISA_SREG_ENVREG0 && id <= ISA_SREG_ENVREG31)
            return w->envreg ? w->envreg[id - ISA_SREG_ENVREG0] : 0;
        return 0;
    }
}

static void sreg_column(const isa_warp *w, unsigned id, uint64_t *out)
{
    switch (id) {
    case ISA_SREG_TID_X: case ISA_SREG_TID_Y: case ISA_SREG_TID_Z: {
        const uint32_t *t = w->tid[id - ISA_SREG_TID_X];
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = t[l];
        return;
    }
    case ISA_SREG_LANEID:
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = l;
        return;
    case ISA_SREG_LANEMASK_EQ:
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = 1u << l;
        return;
    case ISA_SREG_LANEMASK_LT:
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = (1u << l) - 1;
        return;
    case ISA_SREG_LANEMASK_LE:
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = (uint32_t)((2ull << l) - 1);
        return;
    case ISA_SREG_LANEMASK_GT:
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = (uint32_t)~((2ull << l) - 1);
        return;
    case ISA_SREG_LANEMASK_GE:
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = ~((1u << l) - 1);
        return;
    default: {
        uint64_t v = uniform_sreg(w, id);
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = v;
    }
    }
}

const uint64_t *isa_src_slow(isa_warp *w, const isa_inst *in, unsigned i)
{
    const isa_opd *o = &in->opd[i];
    uint64_t *s = w->scratch[i & 3];
    uint64_t v;
    switch (o->kind) {
    case ISA_OPD_SREG:
        sreg_column(w, o->reg, s);
        return s;
    case ISA_OPD_LOCAL:
        v = w->frame + (uint64_t)o->off;
        break;
    case ISA_OPD_PRED: {
        uint32_t m = isa_pred(w, o);
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            s[l] = (m >> l) & 1;
        return s;
    }
    default:            /* IMM, and resolved symbol addresses */
        v = o->imm;
        break;
    }
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        s[l] = v;
    return s;
}

void isa_extend_dst(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const isa_opd *o = &in->opd[0];
    unsigned from = isa_signed_result_bytes(in);
    uint64_t keep = width_mask(o->ext);
    uint16_t regs[ISA_MAX_LIST];
    unsigned nr = isa_opd_regs(o, w->lists, regs);
    for (unsigned k = 0; k < nr; k++) {
        uint16_t r = regs[k];
        if (r == ISA_NOREG)
            continue;
        uint64_t *d = w->r + (size_t)r * ISA_WARP_SIZE;
        LANES(mask, d[l] = (uint64_t)sext(d[l], from) & keep);
    }
}

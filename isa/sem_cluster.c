/*
 * sem_cluster.c -- distributed shared memory of thread block clusters:
 * mapa and getctarank (PTX ISA 9.7.9.22 and 9.7.9.23).
 *
 *   mapa{.shared::cluster}.type d, a, b     d = address a in the CTA of rank b
 *   getctarank{.shared::cluster}.type d, a  d = rank of the CTA holding address a
 *
 * With .shared::cluster the addresses are shared-memory addresses; without
 * it they are generic addresses in the shared window.  Either way a CTA's
 * own shared memory is at [0, ISA_CLUSTER_SLOT) of the window and rank r's
 * at slot r + 1 (isa.h).  mapa does not check the rank: an address in a
 * CTA the cluster does not have faults when it is used, and the report
 * names the rank.  barrier.cluster is a barrier (sem_warp.c, exec/).
 */
#include "isa_int.h"

/* The offset of shared address x (or of generic address x in the shared
 * window) in its CTA's shared memory, and that CTA's rank. */
static uint64_t split(const isa_warp *w, const isa_inst *in, uint64_t x, uint32_t *rank)
{
    const isa_mem *m = w->mem;
    uint64_t off = in->space == ISA_SPACE_SHARED ? (uint32_t)x : x - m->shared_win;
    if (off >= ISA_CLUSTER_SLOT && off < ISA_WINDOW_BYTES) {
        *rank = (uint32_t)(off / ISA_CLUSTER_SLOT - 1);
        return off % ISA_CLUSTER_SLOT;
    }
    *rank = m->cluster_rank;
    return off;
}

ptx_status isa_sem_mapa(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    uint64_t win = in->space == ISA_SPACE_SHARED ? 0 : w->mem->shared_win;
    uint64_t wm = in->type == ISA_TYPE_U32 || in->type == ISA_TYPE_B32 ? 0xFFFFFFFFull : ~0ull;
    LANES(mask, {
        uint32_t rank;
        uint64_t off = split(w, in, a[l], &rank);
        uint64_t to = (uint32_t)b[l];
        /* A rank past the largest cluster lands outside the window: the
         * access faults there, naming the rank (exec/ reports). */
        uint64_t slot = to < ISA_CLUSTER_MAX ? (to + 1) * ISA_CLUSTER_SLOT : ISA_WINDOW_BYTES - ISA_CLUSTER_SLOT;
        d[l] = (win + slot + off) & wm;
    });
    return PTX_OK;
}

ptx_status isa_sem_getctarank(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    LANES(mask, {
        uint32_t rank;
        split(w, in, a[l], &rank);
        d[l] = rank;
    });
    return PTX_OK;
}

/*
 * lsu.c -- the memory stage: coalescing, shared-memory banks, the constant
 * cache, and what happens when an access cannot complete.
 *
 * A warp's global or local access becomes one transaction per L1 line it
 * touches (with the sectors it needs); a shared-memory access needs one
 * pass per group of lanes that conflict on a bank; a constant access one
 * pass per distinct address (with a constant cache, one transaction per
 * address on its line); a texture fetch one transaction per line of the
 * texture cache, or of the L1D without one.  Under the stall policy the
 * memory stage works through them one per cycle and holds the instruction
 * while an access is refused (no MSHR, miss queue full, every line of the
 * set reserved, merge limit), so collector units fill up behind it.  A
 * mechanism may take the instruction out instead (the replay policy,
 * replay.c: each issue gets one transaction or pass; the rest -- or the
 * refused one -- is squashed and the warp re-issues it later).  Every
 * hazard is counted where it arises: memory-stage cycles under stall,
 * squashes under replay.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

/* Group a warp access into lines and sectors of cache l1. */
static void coalesce(const tm_cache *l1, tm_minst *m)
{
    const isa_access *a = &m->rec.access;
    m->ntxn = 0;
    for (uint32_t lanes = a->lanes; lanes;) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        uint64_t addr = a->addr[l];
        /* A vector access may straddle two lines. */
        for (uint64_t at = addr; at < addr + (a->bytes ? a->bytes : 1);) {
            uint64_t line = at >> l1->line_shift;
            uint64_t end = ((line + 1) << l1->line_shift);
            uint64_t stop = addr + a->bytes < end ? addr + a->bytes : end;
            uint32_t sec = tm_sector_mask(l1, at, (uint32_t)(stop - at));
            uint32_t t = 0;
            while (t < m->ntxn && m->txn_addr[t] != line)
                t++;
            if (t == m->ntxn && t < 64) {
                m->txn_addr[t] = line;
                m->txn_sectors[t] = 0;
                m->txn_lanes[t] = 0;
                m->ntxn++;
            }
            if (t < 64) {
                m->txn_sectors[t] |= sec;
                m->txn_lanes[t] |= 1u << l;
            }
            at = stop;
        }
    }
}

/* Shared-memory passes: each bank delivers one word a pass, so the passes
 * are the most distinct words any bank holds among the words the lanes
 * touch (the same word is broadcast).  A wide access touches several words
 * a lane: 32 lanes of ld.shared.v4 or ldmatrix.x4 take at least 4 passes. */
static uint32_t shared_passes(const tm_config *c, const isa_access *a)
{
    enum { MAX_BANKS = 64, PER_BANK = 64 };
    uint32_t nb = (uint32_t)c->shmem_banks, passes = 1;
    uint32_t n[MAX_BANKS] = {0};
    uint64_t words[MAX_BANKS][PER_BANK];
    for (uint32_t lanes = a->lanes; lanes;) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        uint64_t first = a->addr[l] / 4, last = (a->addr[l] + (a->bytes ? a->bytes : 1) - 1) / 4;
        for (uint64_t word = first; word <= last; word++) {
            uint32_t b = (uint32_t)(word % nb);
            bool seen = false;
            for (uint32_t k = 0; k < n[b] && !seen; k++)
                seen = words[b][k] == word;
            if (!seen && n[b] < PER_BANK) {
                words[b][n[b]++] = word;
                if (n[b] > passes)
                    passes = n[b];
            }
        }
    }
    return passes;
}

/* A constant access through the L1C: one transaction per distinct address
 * (the cache broadcasts one word a cycle), each on the line holding it. */
static void constant_txns(const tm_cache *l1c, tm_minst *m)
{
    const isa_access *a = &m->rec.access;
    m->ntxn = 0;
    for (uint32_t lanes = a->lanes; lanes;) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        uint32_t t = 0;
        while (t < m->ntxn && a->addr[__builtin_ctz(m->txn_lanes[t])] != a->addr[l])
            t++;
        if (t == m->ntxn) {
            m->txn_addr[t] = a->addr[l] >> l1c->line_shift;
            m->txn_sectors[t] = 1;
            m->txn_lanes[t] = 0;
            m->ntxn++;
        }
        m->txn_lanes[t] |= 1u << l;
    }
}

static uint32_t distinct_addresses(const isa_access *a)
{
    uint64_t seen[32];
    uint32_t n = 0;
    for (uint32_t lanes = a->lanes; lanes;) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        bool dup = false;
        for (uint32_t k = 0; k < n && !dup; k++)
            dup = seen[k] == a->addr[l];
        if (!dup)
            seen[n++] = a->addr[l];
    }
    return n ? n : 1;
}

static void recycle(tm_sm *sm, tm_minst *m)
{
    m->next = sm->spare;
    sm->spare = m;
}

tm_load *tm_load_new(tm_gpu *g, tm_sm *sm, tm_warp *w, uint32_t outstanding)
{
    tm_load *ld = tm_load_alloc();
    if (!ld) {
        tm_out_of_memory(g);
        return NULL;
    }
    ld->warp = w;
    ld->lanes = ~0u;
    ld->outstanding = outstanding;
    ld->issued = ld->done = sm->now;
    return ld;
}

/* A pre-load gives up n of its lines: they will never complete. */
static void drop_lines(tm_gpu *g, tm_minst *m, uint32_t n)
{
    g->st->pm_preload_drops += n;
    m->load->outstanding -= n;
    if (!m->load->outstanding)
        tm_load_free(m->load);
}

/* A cleared record from the SM's spares, on its way into the pipeline;
 * the mechanisms' blocks follow it. */
static tm_minst *minst_alloc(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    size_t bytes = sizeof(tm_minst) + g->mech_minst_bytes;
    tm_minst *m = sm->spare;
    if (m)
        sm->spare = m->next;
    else if (!(m = malloc(bytes))) {
        tm_out_of_memory(g);
        return NULL;
    }
    memset(m, 0, bytes);
    m->warp = w;
    m->seq = sm->oc_seq;
    return m;
}

tm_minst *tm_minst_new(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec)
{
    const tm_config *c = &g->c;
    const isa_access *a = &rec->access;
    if (!a->lanes || a->bytes == 0)
        return NULL;                    /* prefetch hints, or every lane predicated off */
    tm_minst *m = minst_alloc(g, sm, w);
    if (!m)
        return NULL;
    m->rec = *rec;
    /* cp.async is a load whose data go to shared memory: the warp waits
     * for it at cp.async.wait_group, not at a register. */
    bool async = isa_cp_async(rec->inst);
    bool loads = rec->ndst > 0 || async;
    switch (a->space) {
    case ISA_SPACE_SHARED:
        m->passes = shared_passes(c, a);
        sm->st->shmem_accesses++;
        sm->st->shmem_conflict_passes += m->passes - 1;
        break;
    case ISA_SPACE_CONST:
    case ISA_SPACE_PARAM:
        sm->st->const_accesses++;
        if (!sm->l1c.sets || a->store) {
            m->passes = distinct_addresses(a);
            break;
        }
        m->ro = &sm->l1c;
        constant_txns(m->ro, m);
        goto transactions;
    case ISA_SPACE_TEX:
        if (sm->l1t.sets) {
            m->ro = &sm->l1t;
            coalesce(m->ro, m);
            goto transactions;
        }
        /* Without an L1T, textures go through the L1D. */
        __attribute__((fallthrough));
    default:
        coalesce(&sm->l1, m);
        sm->st->gmem_insts++;
        sm->st->gmem_transactions += m->ntxn;
        for (uint32_t t = 0; t < m->ntxn; t++)
            sm->st->gmem_sectors += (uint64_t)__builtin_popcount(m->txn_sectors[t]);
    transactions:
        m->global = true;
        if (loads) {
            tm_load *ld = tm_load_new(g, sm, w, m->ntxn);
            if (!ld) {
                recycle(sm, m);
                return NULL;
            }
            ld->nregs = rec->ndst;
            ld->constant = m->ro && m->ro == &sm->l1c;
            if (async) {
                uint32_t slot = w->async_committed % TM_ASYNC_GROUPS;
                ld->async_group = (uint8_t)(slot + 1);
                w->async_pending[slot]++;
            }
            for (uint8_t k = 0; k < ld->nregs; k++)
                ld->regs[k] = (uint16_t)(rec->dst[k] & ~EXEC_REG_PRED);
            ld->lanes = tm_write_lanes(g, rec);
            w->loads_in_flight++;
            m->load = ld;
        }
        break;
    }
    for (uint8_t k = 0; k < rec->ndst; k++)
        tm_mark(w, rec->dst[k], tm_write_lanes(g, rec), TM_NEVER, m->global);
    return m;
}

tm_minst *tm_minst_preload(tm_gpu *g, tm_sm *sm, tm_warp *w, const isa_access *a)
{
    if (!a->lanes || a->bytes == 0 || a->space == ISA_SPACE_SHARED)
        return NULL;
    tm_minst *m = minst_alloc(g, sm, w);
    if (!m)
        return NULL;
    m->rec.access = *a;
    m->rec.access.store = false;
    m->global = true;
    m->preload = true;
    coalesce(&sm->l1, m);
    /* Lines already in the L1 or on their way need no pre-load. */
    uint32_t k = 0;
    for (uint32_t t = 0; t < m->ntxn; t++) {
        uint64_t addr = m->txn_addr[t] << sm->l1.line_shift;
        if (tm_cache_present(&sm->l1, addr, m->txn_sectors[t]) || tm_mshr_find(&sm->l1, m->txn_addr[t]))
            continue;
        m->txn_addr[k] = m->txn_addr[t];
        m->txn_sectors[k] = m->txn_sectors[t];
        m->txn_lanes[k++] = m->txn_lanes[t];
    }
    m->ntxn = k;
    if (!m->ntxn) {
        recycle(sm, m);
        return NULL;
    }
    tm_load *ld = tm_load_new(g, sm, w, m->ntxn);
    if (!ld) {
        recycle(sm, m);
        return NULL;
    }
    ld->preload = true;
    m->load = ld;
    return m;
}

void tm_lsu_begin(tm_gpu *g, tm_sm *sm, tm_minst *m)
{
    (void)sm;
    m->pass_start = sm->now;
}

/* The instruction has been through the memory stage completely. */
static void finish(tm_gpu *g, tm_sm *sm, tm_minst *m, uint64_t regs_ready)
{
    tm_warp *w = m->warp;
    if (!m->global)
        for (uint8_t k = 0; k < m->rec.ndst; k++)
            tm_mark(w, m->rec.dst[k], tm_write_lanes(g, &m->rec), regs_ready, false);
    if (!m->global && m->rec.ndst)
        w->not_before = 0;
    sm->lsu = NULL;
    /* Out of the warp's instruction buffer, if a mechanism kept it there. */
    for (tm_minst **p = &w->retained; w->nretained && *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            w->nretained--;
            break;
        }
    recycle(sm, m);
}

/* The stage cannot finish m this cycle, for `hazard`: a mechanism may take
 * it out of the stage (replay squashes it); otherwise the stage keeps it
 * and the cycle is a hazard cycle. */
static void blocked(tm_gpu *g, tm_sm *sm, tm_minst *m, uint8_t hazard)
{
    bool taken = false;
    TM_EACH(g, refused, mech)
        taken = (*mech)->refused(g, sm, m, hazard) || taken;
    if (!taken)
        sm->st->hazard_cycles[hazard]++;
}

/* A load's transaction on a read-only L1 (constants, textures). */
static tm_acc ro_access(tm_gpu *g, tm_sm *sm, tm_cache *c, uint64_t line, tm_load *ld)
{
    if (!tm_ro_hit(c, line))
        return tm_ro_miss(g, sm, c, line, ld);
    uint64_t latency = c == &sm->l1c ? g->c.const_latency : g->c.l1t_latency;
    if (ld)
        tm_load_complete(g, ld, sm->now + latency * g->core_ps);
    return (tm_acc){ ACC_HIT, 0, NULL };
}

/* Is a demand (N-mode) memory instruction ready to enter the stage? */
static bool demand_waiting(const tm_gpu *g, const tm_sm *sm)
{
    for (uint32_t i = 0; i < sm->noc; i++) {
        const tm_oc *o = &sm->oc[i];
        if (o->used && o->cls == OC_MEM && !o->by && o->ready <= sm->now)
            return true;
    }
    return false;
}

void tm_lsu_cycle(tm_gpu *g, tm_sm *sm)
{
    tm_minst *m = sm->lsu;
    if (!m) {
        /* An idle stage: a mechanism may send an access of its own. */
        TM_EACH(g, lsu_idle, mech)
            if ((*mech)->lsu_idle(g, sm))
                break;
        return;
    }
    const tm_config *c = &g->c;
    if (!m->global) {
        bool shared = m->rec.access.space == ISA_SPACE_SHARED;
        uint64_t latency = (shared ? c->shmem_latency : c->const_latency) * g->core_ps;
        m->pass++;
        if (m->pass < m->passes) {
            blocked(g, sm, m, shared ? TM_HZ_BANK : TM_HZ_DIV);
            return;
        }
        if (shared && m->rec.access.lanes) {
            /* Distributed shared memory: an access to another CTA of the
             * cluster (isa.h, ISA_CLUSTER_SLOT) crosses the SM-to-SM
             * network there and back. */
            bool remote = false;
            uint64_t base = m->rec.inst->space == ISA_SPACE_GENERIC ? g->shared_win : 0;
            for (uint32_t rest = m->rec.access.lanes; rest && !remote; rest &= rest - 1)
                remote = m->rec.access.addr[__builtin_ctz(rest)] - base >= ISA_CLUSTER_SLOT;
            if (remote)
                latency += 2 * c->icnt_latency * g->icnt_ps;
        }
        finish(g, sm, m, sm->now + latency);
        return;
    }
    if (m->preload && demand_waiting(g, sm)) {
        /* N-mode first: a pre-load gives the memory stage up to a demand
         * instruction, dropping the lines it has not sent. */
        drop_lines(g, m, m->ntxn - m->next_txn);
        finish(g, sm, m, 0);
        return;
    }
    /* From the access itself: stores (st, sust) write; atomics with a
     * result wait for it; a red's answer nobody waits for. */
    const isa_access *a = &m->rec.access;
    uint8_t kind = !a->store ? REQ_READ : a->atomic && m->rec.ndst ? REQ_ATOMIC : REQ_WRITE;
    uint32_t t = m->next_txn;
    uint32_t bytes = (uint32_t)__builtin_popcount(m->txn_sectors[t]) * sm->l1.sector_bytes;
    tm_load *ld = (m->split_txns >> t) & 1 ? m->split : m->load;
    tm_acc acc = m->ro ? ro_access(g, sm, m->ro, m->txn_addr[t], ld)
                       : tm_l1_access(g, sm, m->txn_addr[t], m->txn_sectors[t], kind, bytes, ld);
    if (kind == REQ_READ && !m->preload && !m->ro) {
        TM_EACH(g, l1_access, mech)
            (*mech)->l1_access(g, sm, m, t, &acc);
        if (m->rec.access.space == ISA_SPACE_GLOBAL && acc.result != ACC_FAIL) {
            sm->st->nmode_l1_accesses++;
            sm->st->nmode_l1_hits += acc.result == ACC_HIT;
            /* A miss without an MSHR of its own merged into one (when the
             * L1 allocates at all). */
            sm->st->nmode_l1_merges += acc.result == ACC_MISS && !acc.mshr && c->l1_global == 0 && !sm->l1.bypass;
        }
    }
    sm->wake = sm->now + g->core_ps;
    if (acc.result == ACC_FAIL && m->preload) {
        /* A pre-load line the L1 cannot take now is dropped: it never
         * holds the memory stage against demand loads, nor is it replayed. */
        drop_lines(g, m, 1);
        if (++m->next_txn == m->ntxn)
            finish(g, sm, m, 0);
        return;
    }
    if (acc.result == ACC_FAIL) {
        blocked(g, sm, m, acc.hazard);
        return;
    }
    if (++m->next_txn == m->ntxn) {
        finish(g, sm, m, 0);
        return;
    }
    /* More lines to go: memory divergence. */
    blocked(g, sm, m, TM_HZ_DIV);
}

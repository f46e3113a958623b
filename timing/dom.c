/*
 * dom.c -- diverge on miss (Tarjan, Meng, Skadron, SC'09): when some lanes
 * of a global load hit in the L1 and some miss, the missing lanes are
 * parked and the warp runs on with the lanes that hit; the parked lanes
 * rejoin the next time the running lanes reach their pc with the data in.
 *
 * The engine keeps a parked group as a SIMT entry of its own, just below
 * the running entry and with the same reconvergence point
 * (exec_warp_park), so each lane still executes exactly its own
 * instructions, once each and in order; only their interleaving across
 * lanes changes.  Functional results are therefore those of blocking
 * execution for every program whose lanes do not communicate outside
 * warp-synchronous instructions -- and those force reconvergence:
 *
 *   - rejoin: the running lanes stand at a parked group's pc and its data
 *     have come: the two entries merge (exec_warp_rejoin);
 *   - slip limit: running lanes that have passed a parked group's pc
 *     dom_max_slip times wait there for it (fixed, or adapted per SM);
 *   - forced reconvergence: before a barrier, a warp-collective
 *     instruction (shfl, vote, match, redux, activemask, bar.warp.sync), a
 *     fence, a call, a return or an exit, a parked sibling group runs first
 *     (exec_warp_swap) up to where the others wait, and they merge there;
 *   - a group that comes to the top of the stack because the running lanes
 *     reached the reconvergence point waits for its data and then runs
 *     on its own.
 *
 * When the warp already has dom_groups groups, a partial miss blocks as
 * without the mechanism (a fallback).  Hit and miss are decided at issue,
 * once the load's addresses are known, by looking up every line in the L1
 * tags (the lookup the paper's cache does first); lanes predicated off run
 * ahead with the hits.  Global loads and texture and surface reads take
 * part.  The load's
 * registers are released to the running lanes when the hit transactions
 * complete; the parked group becomes ready when the missed ones have.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

static tm_dom_group *group_of(tm_warp *w, uint32_t lanes)
{
    for (uint32_t i = 0; i < TM_DOM_MAX_GROUPS; i++)
        if (w->dom[i].used && w->dom[i].lanes == lanes)
            return &w->dom[i];
    return NULL;
}

static tm_dom_group *new_group(tm_warp *w, uint32_t lanes, uint32_t pc, uint64_t ready, bool waiting)
{
    for (uint32_t i = 0; i < TM_DOM_MAX_GROUPS; i++)
        if (!w->dom[i].used) {
            w->dom[i] = (tm_dom_group){ .lanes = lanes, .pc = pc, .ready = ready, .used = true,
                                        .waiting = waiting };
            w->ndom++;
            return &w->dom[i];
        }
    return NULL;
}

static void release(tm_warp *w, tm_dom_group *gr)
{
    gr->used = false;
    w->ndom--;
}

/* Instructions every lane of the warp must reach together. */
static bool forces_reconvergence(const isa_inst *in)
{
    switch (in->op) {
    case ISA_OP_BAR: case ISA_OP_BARRIER: case ISA_OP_VOTE: case ISA_OP_SHFL:
    case ISA_OP_ACTIVEMASK: case ISA_OP_MATCH: case ISA_OP_REDUX: case ISA_OP_MEMBAR:
    case ISA_OP_FENCE: case ISA_OP_CALL: case ISA_OP_RET: case ISA_OP_EXIT:
        return true;
    default:
        return false;
    }
}

uint32_t tm_dom_slip_limit(const tm_gpu *g, const tm_sm *sm)
{
    return g->c.dom_slip == TM_SLIP_ADAPTIVE ? sm->dom_max_slip : (uint32_t)g->c.dom_max_slip;
}

int tm_dom_check(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at)
{
    exec_warp *xw = w->xw;
    /* Each step below either returns or removes a group, so this ends. */
    for (uint32_t step = 0; w->ndom && step < 2 * TM_DOM_MAX_GROUPS + 2; step++) {
        if (exec_warp_state(xw) != EXEC_WARP_RUNNING)
            return -1;
        uint32_t pc = exec_warp_pc(xw), lanes = exec_warp_active(xw);
        /* A parked group at the top of the stack: it runs once its data are in. */
        tm_dom_group *run = group_of(w, lanes);
        if (run) {
            if (run->ready > g->now) {
                if (run->ready < *ready_at)
                    *ready_at = run->ready;
                return TM_SLOT_RAW_MEM;
            }
            release(w, run);
            continue;
        }
        uint32_t spc, slanes;
        tm_dom_group *sib = exec_warp_sibling(xw, &spc, &slanes) ? group_of(w, slanes) : NULL;
        if (!sib)
            return -1;
        if (spc == pc && sib->ready <= g->now) {
            exec_warp_rejoin(xw);
            release(w, sib);
            g->st->dom_rejoins++;
            w->regs_valid = false;
            continue;
        }
        if (spc == pc && sib->slip >= tm_dom_slip_limit(g, sm)) {
            if (!sib->slip_waited) {
                g->st->dom_slip_waits++;
                sib->slip_waited = true;
            }
            if (sib->ready < *ready_at)
                *ready_at = sib->ready;
            return TM_SLOT_RAW_MEM;
        }
        const isa_inst *in = exec_warp_inst(xw);
        if (in && forces_reconvergence(in) && !sib->waiting) {
            /* The parked lanes go first; these wait here, ready.  (Lanes
             * that are themselves waiting for us are not swapped back:
             * two groups that end at different sync points -- one exits,
             * the other waits at a barrier -- would take turns forever.) */
            exec_warp_swap(xw);
            new_group(w, lanes, pc, 0, true);
            g->st->dom_forced++;
            w->regs_valid = false;
            continue;
        }
        return -1;
    }
    return -1;
}

/* Lanes of the access whose lines are all in the L1 with the sectors the
 * warp wants (the tag lookup the cache does before anything else). */
static uint32_t hit_lanes(tm_sm *sm, const isa_access *a)
{
    tm_cache *l1 = &sm->l1;
    uint64_t line[64];
    uint32_t sectors[64], lanes_of[64], n = 0;
    for (uint32_t rest = a->lanes; rest;) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        for (uint64_t at = a->addr[l]; at < a->addr[l] + (a->bytes ? a->bytes : 1);) {
            uint64_t ln = at >> l1->line_shift, end = (ln + 1) << l1->line_shift;
            uint64_t stop = a->addr[l] + a->bytes < end ? a->addr[l] + a->bytes : end;
            uint32_t t = 0;
            while (t < n && line[t] != ln)
                t++;
            if (t == n) {
                if (n == 64)
                    return 0;
                line[n] = ln;
                sectors[n] = 0;
                lanes_of[n++] = 0;
            }
            sectors[t] |= tm_sector_mask(l1, at, (uint32_t)(stop - at));
            lanes_of[t] |= 1u << l;
            at = stop;
        }
    }
    uint32_t miss = 0;
    for (uint32_t t = 0; t < n; t++)
        if (!tm_cache_present(l1, line[t] << l1->line_shift, sectors[t]))
            miss |= lanes_of[t];
    return a->lanes & ~miss;
}

uint32_t tm_dom_decide(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec)
{
    const isa_inst *in = rec->inst;
    const isa_access *a = &rec->access;
    bool load = in->op == ISA_OP_LD || in->op == ISA_OP_LDU || in->op == ISA_OP_TEX ||
                in->op == ISA_OP_TLD4 || in->op == ISA_OP_SULD;
    if (!load || (in->flags & ISA_MOD_FLAG(VOLATILE)) || g->c.l1_global == 1 || !a->lanes ||
        (a->space != ISA_SPACE_GLOBAL && a->space != ISA_SPACE_TEX))
        return 0;
    uint32_t running = exec_warp_active(w->xw);
    uint32_t miss = a->lanes & ~hit_lanes(sm, a);
    if (!miss || (running & ~miss) == 0 || (miss & ~running))
        return 0;               /* all hit, nothing could run ahead, or control moved on */
    if (w->ndom >= g->c.dom_groups) {
        g->st->dom_fallbacks++;
        return 0;
    }
    return miss;
}

void tm_dom_passing(tm_gpu *g, tm_warp *w)
{
    uint32_t spc, slanes;
    if (!w->ndom || !exec_warp_sibling(w->xw, &spc, &slanes))
        return;
    tm_dom_group *sib = group_of(w, slanes);
    if (sib && spc == exec_warp_pc(w->xw) && sib->ready > g->now) {
        sib->slip++;
        if (sib->slip > g->st->dom_max_lead)
            g->st->dom_max_lead = sib->slip;
    }
}

bool tm_dom_park(tm_gpu *g, tm_warp *w, uint32_t lanes)
{
    if (exec_warp_park(w->xw, lanes) != PTX_OK)
        return false;
    if (!new_group(w, lanes, exec_warp_pc(w->xw), TM_NEVER, false))
        return false;
    g->st->dom_divergences++;
    return true;
}

void tm_dom_split_load(tm_gpu *g, tm_minst *m, tm_warp *w, uint32_t parked)
{
    tm_dom_group *gr = group_of(w, parked);
    tm_load *ld = m->load;
    if (!gr || !ld)
        return;
    uint64_t park_txns = 0;
    uint32_t n = 0;
    for (uint32_t t = 0; t < m->ntxn && t < 64; t++)
        if (!(m->txn_lanes[t] & ~parked)) {
            park_txns |= 1ull << t;
            n++;
        }
    if (!n || n == ld->outstanding) {
        gr->ready = g->now;     /* nothing of theirs to wait for after all */
        return;
    }
    tm_load *pk = calloc(1, sizeof *pk);
    if (!pk) {
        g->fault = PTX_E_NOMEM;
        return;
    }
    *pk = (tm_load){ .warp = w, .group = gr, .outstanding = n, .issued = g->now, .done = g->now };
    w->loads_in_flight++;
    ld->outstanding -= n;
    m->park = pk;
    m->park_txns = park_txns;
}

/* ---- adaptive slip (the paper's "adaptive diff", per SM) --------------------- */

void tm_dom_sample(tm_gpu *g, tm_sm *sm)
{
    const tm_config *c = &g->c;
    if (c->dom != TM_DOM_ON || c->dom_slip != TM_SLIP_ADAPTIVE)
        return;
    uint64_t period = c->dom_period * g->core_ps;
    if (g->now < sm->dom_sample_at)
        return;
    if (sm->dom_sample_at) {
        /* ALU-bound: the SM issued nearly every cycle; bandwidth-bound: its
         * L1 misses used more than its share of the DRAM bandwidth. */
        double cycles = (double)c->dom_period;
        double idle = cycles - (double)sm->dom_issued;
        double fair = (double)c->n_partitions * (double)c->dram_bus_bytes * (double)c->dram_clock_mhz /
                      (double)c->core_clock_mhz / (double)c->n_sm;
        double used = (double)sm->dom_miss_bytes / cycles;
        bool alu = idle / cycles < 0.05, bandwidth = used > fair;
        if (alu || bandwidth) {
            if (sm->dom_max_slip > 1)
                sm->dom_max_slip--;
        } else if (sm->dom_max_slip < 255) {
            sm->dom_max_slip++;
        }
    }
    sm->dom_issued = 0;
    sm->dom_miss_bytes = 0;
    sm->dom_sample_at = g->now + period;
}

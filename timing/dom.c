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
    return (isa_ops[in->op].flags & ISA_F_WARPSYNC) != 0;
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

void tm_dom_diverge(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m)
{
    const isa_inst *in = m->rec.inst;
    /* Loads whose lanes each wait for their own data (ld, ldu, tex, tld4,
     * suld); an atomic's lanes are served together at the L2. */
    unsigned fl = isa_ops[in->op].flags;
    bool load = (fl & ISA_F_LOAD) && !(fl & (ISA_F_ATOMIC | ISA_F_MATRIX));
    uint8_t space = m->rec.access.space;
    if (!load || (space != ISA_SPACE_GLOBAL && space != ISA_SPACE_TEX) || !m->load ||
        (in->flags & ISA_MOD_FLAG(VOLATILE)) || g->c.l1_global == 1 || m->ntxn > 64)
        return;
    /* A lane misses if any line it needs is not in the L1 with its sectors
     * (the tag lookup the cache does before anything else). */
    uint32_t miss = 0;
    for (uint32_t t = 0; t < m->ntxn; t++)
        if (!tm_cache_present(&sm->l1, m->txn_addr[t] << sm->l1.line_shift, m->txn_sectors[t]))
            miss |= m->txn_lanes[t];
    uint32_t running = exec_warp_active(w->xw);
    if (!miss || (running & ~miss) == 0 || (miss & ~running))
        return;                 /* all hit, nothing could run ahead, or control moved on */
    if (w->ndom >= g->c.dom_groups) {
        g->st->dom_fallbacks++;
        return;
    }
    if (exec_warp_park(w->xw, miss) != PTX_OK)
        return;
    tm_dom_group *gr = new_group(w, miss, exec_warp_pc(w->xw), TM_NEVER, false);
    if (!gr)
        return;
    g->st->dom_divergences++;
    /* The transactions only parked lanes wait for complete the group; the
     * others, the running lanes' registers. */
    uint64_t park_txns = 0;
    uint32_t n = 0;
    for (uint32_t t = 0; t < m->ntxn; t++)
        if (!(m->txn_lanes[t] & ~miss)) {
            park_txns |= 1ull << t;
            n++;
        }
    if (!n || n == m->load->outstanding) {
        gr->ready = g->now;     /* nothing of theirs to wait for apart from the others */
        return;
    }
    tm_load *pk = calloc(1, sizeof *pk);
    if (!pk) {
        g->fault = PTX_E_NOMEM;
        return;
    }
    *pk = (tm_load){ .warp = w, .group = gr, .outstanding = n, .issued = g->now, .done = g->now };
    w->loads_in_flight++;
    m->load->outstanding -= n;
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

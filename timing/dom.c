/*
 * dom.c -- diverge on miss (Tarjan, Meng, Skadron, SC'09): when some lanes
 * of a global load hit in the L1 and some miss, the missing lanes are
 * parked and the warp runs on with the lanes that hit; the parked lanes
 * rejoin the next time the running lanes reach their pc with the data in.
 *
 * The engine keeps a parked group as a SIMT entry of its own, below the
 * running entry and with the same reconvergence point (exec_warp_park);
 * the model finds a group by its pc, as the paper's memory divergence
 * table does, and brings it next to the running lanes (exec_warp_raise).
 * So each lane still executes exactly its own instructions, once each and
 * in order; only their interleaving across lanes changes.  Functional results are therefore those of blocking
 * execution for every program whose lanes do not communicate outside
 * warp-synchronous instructions -- and those force reconvergence:
 *
 *   - rejoin: the running lanes stand at a parked group's pc and its data
 *     have come: the two entries merge (exec_warp_rejoin) -- at the latest
 *     when the running lanes execute the load again, before that load's own
 *     missing lanes are parked (the paper's memory divergence table
 *     re-enables ready lanes along with the lanes that hit);
 *   - slip limit: each lane counts how many executions of a divergent load
 *     it leads the slowest lane of its warp by (the paper's per-thread
 *     slip counters and their decrement rule, below).  At dom_max_slip
 *     (fixed, or adapted per SM) either the lanes at the limit are
 *     disabled until the others catch up (dom_slip_action=wait, the
 *     paper's rule: they wait at their pc as a group of their own, and
 *     when no running lane is below the limit the slowest group runs
 *     first) or the whole warp runs its loads blocking until the lead
 *     falls (block, the paper's first version);
 *   - forced reconvergence: before a barrier, a warp-collective
 *     instruction (shfl, vote, match, redux, activemask, bar.warp.sync), a
 *     fence, a call, a return or an exit, a parked sibling group runs first
 *     (exec_warp_swap) up to where the others wait, and they merge there;
 *   - a group that comes to the top of the stack because the running lanes
 *     reached the reconvergence point waits for its data and then runs
 *     on its own;
 *   - catch-up (dom_catch_up): while the running lanes wait on a load, a
 *     parked group whose data are in runs, up to where they wait.
 *
 * A partial miss of a load whose running lanes stand, after it, at the pc of
 * a parked group still waiting for data joins that group (the paper merges
 * a second miss at the same pc into the existing table entry); the group
 * then waits for both loads.  Otherwise, when the warp already has
 * dom_groups groups, a partial miss blocks as without the mechanism (a
 * fallback).  Hit and miss are decided at issue,
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

/* The lanes one execution of a load parked, and when their data are in
 * (TM_NEVER: not yet): the paper keeps a status per lane in the miss
 * coalescing buffer, and the lanes of one load get their data together. */
typedef struct dom_part {
    uint32_t lanes;             /* 0: a free slot */
    uint64_t ready;
} dom_part;

#define MAX_PARTS 4             /* loads a group may merge; a further one blocks */

/* Lanes of a warp parked at a pc until their data come, by the load that
 * parked them.  A group is also made of lanes that wait for parked ones to
 * catch up (forced reconvergence); those are ready at once. */
typedef struct dom_group {
    uint32_t lanes, pc;
    dom_part part[MAX_PARTS];
    bool used;
    bool slip_waited;           /* counted once in dom_slip_waits */
    bool waiting;               /* lanes waiting for a parked group to catch up, not parked */
    bool at_sync;               /* ... at an instruction every lane must reach (forced reconvergence) */
    bool fresh;                 /* waiting at the running lanes' pc since they stood there: no rejoin yet */
    bool on_load;               /* ... lanes that waited on a load while a parked group caught up (catch_up) */
} dom_group;

#define MAX_GROUPS 16           /* dom_groups (at most 8) parked, and lanes waiting (slip limit, forced);
                                   the slip limit leaves the last one to forced reconvergence */

/* Per warp: its groups (the memory divergence table), and each lane's lead
 * over the slowest lane of the warp in executions of divergent loads (the
 * paper's 8-bit slip counters). */
typedef struct dom_warp {
    dom_group group[MAX_GROUPS];
    uint32_t n;
    uint8_t lead[32];
} dom_warp;

/* Per SM, adaptive slip: the limit (kept across launches), and this
 * period's issues and the SM's bytes sent and memory-wait scheduler cycles
 * at its start. */
typedef struct dom_sm {
    uint32_t max_slip;
    uint64_t issued, bytes_at, mem_wait_at, sample_at;
} dom_sm;

static dom_warp *warp_state(const tm_gpu *g, const tm_warp *w) { return tm_mech_warp(g, w, TM_MECH_DOM); }
static dom_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_DOM); }

static dom_group *group_of(dom_warp *d, uint32_t lanes)
{
    for (uint32_t i = 0; i < MAX_GROUPS; i++)
        if (d->group[i].used && d->group[i].lanes == lanes)
            return &d->group[i];
    return NULL;
}

static dom_group *new_group(dom_warp *d, uint32_t lanes, uint32_t pc, uint64_t ready, bool waiting)
{
    for (uint32_t i = 0; i < MAX_GROUPS; i++)
        if (!d->group[i].used) {
            d->group[i] = (dom_group){ .lanes = lanes, .pc = pc, .used = true, .waiting = waiting };
            d->group[i].part[0] = (dom_part){ .lanes = lanes, .ready = ready };
            d->n++;
            return &d->group[i];
        }
    return NULL;
}

static void release(dom_warp *d, dom_group *gr)
{
    gr->used = false;
    d->n--;
}

/* A free part of the group, or NULL. */
static dom_part *free_part(dom_group *gr)
{
    for (uint32_t i = 0; i < MAX_PARTS; i++)
        if (!gr->part[i].lanes)
            return &gr->part[i];
    return NULL;
}

/* When the first (first) or the last of the group's parts is ready. */
static uint64_t group_ready(const dom_group *gr, bool first)
{
    uint64_t t = first ? TM_NEVER : 0;
    for (uint32_t i = 0; i < MAX_PARTS; i++)
        if (gr->part[i].lanes && (first ? gr->part[i].ready < t : gr->part[i].ready > t))
            t = gr->part[i].ready;
    return t;
}

/* The group's lanes whose data are in. */
static uint32_t ready_lanes(const dom_group *gr, uint64_t now)
{
    uint32_t lanes = 0;
    for (uint32_t i = 0; i < MAX_PARTS; i++)
        if (gr->part[i].lanes && gr->part[i].ready <= now)
            lanes |= gr->part[i].lanes;
    return lanes;
}

/* The group's lanes whose data are in rejoin the running ones, which stand
 * at its pc (the whole group when all are in).  Returns those lanes. */
static uint32_t rejoin_ready(tm_gpu *g, tm_warp *w, dom_warp *d, dom_group *gr)
{
    uint32_t lanes = ready_lanes(gr, g->now);
    if (!lanes || !exec_warp_rejoin(w->xw, lanes))
        return 0;
    for (uint32_t i = 0; i < MAX_PARTS; i++)
        if (gr->part[i].lanes & lanes)
            gr->part[i].lanes = 0;
    gr->lanes &= ~lanes;
    if (!gr->lanes)
        release(d, gr);
    g->st->dom_rejoins++;
    w->regs_valid = false;
    return lanes;
}

/* Lanes in the warp's parked and waiting groups. */
static uint32_t grouped_lanes(const dom_warp *d)
{
    uint32_t lanes = 0;
    for (uint32_t i = 0; i < MAX_GROUPS; i++)
        if (d->group[i].used)
            lanes |= d->group[i].lanes;
    return lanes;
}

/* Groups of parked lanes: the memory divergence table's entries (lanes
 * waiting at the slip limit or for a forced reconvergence take none). */
static uint32_t parked_groups(const dom_warp *d)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < MAX_GROUPS; i++)
        n += d->group[i].used && !d->group[i].waiting;
    return n;
}

static uint32_t lead_of(const dom_warp *d, uint32_t lanes, bool most)
{
    uint32_t v = most ? 0 : 255;
    for (uint32_t t = 0; t < 32; t++)
        if (lanes >> t & 1)
            v = most ? (d->lead[t] > v ? d->lead[t] : v) : (d->lead[t] < v ? d->lead[t] : v);
    return v;
}

/* The slip counters at an execution of a load that could diverge: the
 * lanes that go on past it (those that hit, and parked lanes that rejoined
 * with it) gain one, the lanes that stay (new misses, parked groups) do
 * not, and then every lane of the warp's running and parked groups loses
 * the smallest count among them, so the slowest lane is at 0.  This
 * reproduces each case the paper states: in an undiverged warp the lanes
 * that hit go to 1; in a diverged warp whose slowest lanes all hit, the
 * lanes that missed lose one; disabled leaders lose one as the others go
 * on.  Lanes off in the branch stack are left alone. */
static void count_slip(tm_gpu *g, dom_warp *d, uint32_t live, uint32_t proceed)
{
    for (uint32_t t = 0; t < 32; t++)
        if ((proceed >> t & 1) && d->lead[t] < 255)
            d->lead[t]++;
    uint32_t least = lead_of(d, live, false), most = 0;
    for (uint32_t t = 0; t < 32; t++)
        if (live >> t & 1) {
            d->lead[t] = (uint8_t)(d->lead[t] - least);
            if (d->lead[t] > most)
                most = d->lead[t];
        }
    if (most > g->st->dom_max_lead)
        g->st->dom_max_lead = most;
}

/* A load whose lanes may part on a miss (mem_issue's kinds; the space may
 * be generic, so only the kind is known before it executes). */
static bool may_diverge(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    return (fl & ISA_F_LOAD) && !(fl & (ISA_F_ATOMIC | ISA_F_MATRIX)) && isa_op_lane_access(in->op) &&
           (in->space == ISA_SPACE_GLOBAL || in->space == ISA_SPACE_GENERIC || in->space == ISA_SPACE_TEX);
}

/* Instructions every lane of the warp must reach together. */
static bool forces_reconvergence(const isa_inst *in)
{
    return (isa_ops[in->op].flags & ISA_F_WARPSYNC) != 0;
}

/* The slip limit in force on the SM. */
static uint32_t slip_limit(const tm_gpu *g, const tm_sm *sm)
{
    return g->c.dom_slip == TM_SLIP_ADAPTIVE ? sm_state(g, sm)->max_slip : (uint32_t)g->c.dom_max_slip;
}

/* The warp's group standing at pc (a waiting one too, if `waiting`), made
 * the first of the running lanes' siblings; NULL if none is among them.
 * The paper's table finds a parked group by its pc. */
static dom_group *group_at(dom_warp *d, exec_warp *xw, uint32_t pc, bool waiting)
{
    for (uint32_t i = 0; i < MAX_GROUPS; i++) {
        dom_group *gr = &d->group[i];
        if (gr->used && gr->pc == pc && !gr->fresh && (waiting || !gr->waiting) &&
            exec_warp_raise(xw, gr->lanes))
            return gr;
    }
    return NULL;
}

/* Lanes waiting at a sync point for the others: they go on only when all
 * have come, so nobody waits for them. */
static uint32_t sync_lanes(const dom_warp *d)
{
    uint32_t lanes = 0;
    for (uint32_t i = 0; i < MAX_GROUPS; i++)
        if (d->group[i].used && d->group[i].at_sync)
            lanes |= d->group[i].lanes;
    return lanes;
}

/* The group holding the warp's slowest lane (the least lead) that may run,
 * or NULL. */
static dom_group *slowest_group(dom_warp *d)
{
    dom_group *slow = NULL;
    uint32_t least = 256;
    for (uint32_t i = 0; i < MAX_GROUPS; i++) {
        dom_group *gr = &d->group[i];
        uint32_t lead = gr->used && !gr->at_sync ? lead_of(d, gr->lanes, false) : 256;
        if (lead < least) {
            least = lead;
            slow = gr;
        }
    }
    return slow;
}

/* The slip limit, at a load the running lanes would go on past: lanes
 * that lead the warp's slowest lane by the limit are disabled until the
 * others catch up (dom_slip_action=wait, the paper's rule).  Some of the
 * running lanes at the limit: they wait here, as a group of their own,
 * while the rest go on.  All of them: a group parked here is waited for
 * (its data), else the group with the slowest lanes runs first, up to
 * here.  Returns a TM_SLOT_* reason to wait, 1 when the warp's groups
 * changed, 0 when the limit holds nothing back. */
static int slip_limit_reached(tm_gpu *g, tm_sm *sm, tm_warp *w, dom_warp *d, uint64_t *ready_at)
{
    exec_warp *xw = w->xw;
    uint32_t pc = exec_warp_pc(xw), lanes = exec_warp_active(xw);
    uint32_t floor = lead_of(d, lanes | (grouped_lanes(d) & ~sync_lanes(d)), false);
    uint32_t limit = slip_limit(g, sm), leaders = 0;
    for (uint32_t t = 0; t < 32; t++)
        if ((lanes >> t & 1) && d->lead[t] >= floor + limit)
            leaders |= 1u << t;
    if (!leaders)
        return 0;
    if (leaders != lanes) {
        if (d->n + 1 >= MAX_GROUPS || exec_warp_park(xw, leaders) != PTX_OK) {
            g->st->dom_slip_unheld++;
            return 0;
        }
        g->st->dom_slip_waits++;
        /* Fresh: the lanes going on stand at its pc now; it rejoins them
         * when they come back to it. */
        new_group(d, leaders, pc, 0, true)->fresh = true;
        w->regs_valid = false;
        return 1;
    }
    dom_group *here = group_at(d, xw, pc, false);
    if (here) {
        if (!here->slip_waited) {
            g->st->dom_slip_waits++;
            here->slip_waited = true;
        }
        uint64_t ready = group_ready(here, true);
        if (ready < *ready_at)
            *ready_at = ready;
        return TM_SLOT_RAW_MEM;
    }
    /* (The slowest group may lie under entries of a branch the running
     * lanes took since: it cannot run before they reconverge.) */
    dom_group *slow = slowest_group(d);
    if (!slow || d->n + 1 >= MAX_GROUPS || !exec_warp_raise(xw, slow->lanes) || !exec_warp_swap(xw)) {
        g->st->dom_slip_unheld++;
        return 0;
    }
    new_group(d, lanes, pc, 0, true);
    g->st->dom_slip_waits++;
    g->st->dom_slip_swaps++;
    w->regs_valid = false;
    return 1;
}

/* The running lanes wait for a load's data.  Rather than the warp waiting
 * with them, the parked group with the slowest lanes whose data are in runs
 * meanwhile (the paper's slipping lanes "catch up when other threads miss
 * in the cache"; dom_catch_up).  The waiting lanes stay at their pc, as
 * lanes held at the slip limit do, and rejoin when the others come to it;
 * the scoreboard keeps their load's registers busy until its data are in,
 * so whichever lanes read or write them next wait for it.  True when the
 * group runs now. */
static bool catch_up(tm_gpu *g, tm_warp *w, dom_warp *d, uint32_t lanes, uint32_t pc)
{
    if (g->c.dom_catch_up != TM_DOM_ON || d->n + 1 >= MAX_GROUPS)
        return false;
    dom_group *slow = NULL;
    uint32_t least = 256;
    for (uint32_t i = 0; i < MAX_GROUPS; i++) {
        dom_group *gr = &d->group[i];
        if (!gr->used || gr->waiting || gr->at_sync || group_ready(gr, false) > g->now)
            continue;
        uint32_t lead = lead_of(d, gr->lanes, false);
        if (lead < least) {
            least = lead;
            slow = gr;
        }
    }
    /* (A group under a branch's entries the running lanes took since
     * cannot run before they reconverge.) */
    if (!slow || !tm_warp_waits_on_load(g, w) || !exec_warp_raise(w->xw, slow->lanes) || !exec_warp_swap(w->xw))
        return false;
    new_group(d, lanes, pc, 0, true)->on_load = true;
    g->st->dom_catch_ups++;
    w->regs_valid = false;
    return true;
}

/* Leapfrog (dom_leapfrog): the running lanes stand where lanes that waited
 * on a load wait (`here`, left there by catch_up).  With a scoreboard per
 * lane each of the two may still wait on its own load: they merge only
 * when neither does; when only the running lanes do, the others run
 * instead; when `here` does, it stays and the running lanes go on (or,
 * both waiting, the warp waits for whichever load comes first: a load's
 * return looks at the warp again).  Returns 1 when the running lanes
 * changed, 0 to merge as without leapfrogging, -1 to leave `here`. */
static int leapfrog(tm_gpu *g, tm_warp *w, dom_warp *d, dom_group *here, uint32_t lanes, uint32_t pc)
{
    if (g->c.dom_leapfrog != TM_DOM_ON || g->c.dom_lane_scoreboard != TM_DOM_ON || !here->on_load)
        return 0;
    if (tm_lanes_wait(g, w, here->lanes))
        return -1;
    if (!tm_lanes_wait(g, w, lanes))
        return 0;
    /* (group_at raised `here` next to the running lanes.) */
    if (!exec_warp_swap(w->xw))
        return 0;
    release(d, here);
    new_group(d, lanes, pc, 0, true)->on_load = true;
    g->st->dom_catch_ups++;
    w->regs_valid = false;
    return 1;
}

/* Rejoin, swap in or wait for parked groups: a TM_SLOT_* reason when the
 * warp cannot issue now, else -1. */
static int regroup(tm_gpu *g, tm_sm *sm, tm_warp *w, dom_warp *d, uint64_t *ready_at)
{
    exec_warp *xw = w->xw;
    /* Each step below either returns or removes or adds a group (at most
     * MAX_GROUPS), so this ends. */
    for (uint32_t step = 0; d->n && step < 4 * MAX_GROUPS + 2; step++) {
        if (exec_warp_state(xw) != EXEC_WARP_RUNNING)
            return -1;
        uint32_t pc = exec_warp_pc(xw), lanes = exec_warp_active(xw);
        /* A parked group at the top of the stack: it runs once its data are in. */
        dom_group *run = group_of(d, lanes);
        if (run) {
            uint64_t ready = group_ready(run, false);
            if (ready > g->now) {
                if (ready < *ready_at)
                    *ready_at = ready;
                return TM_SLOT_RAW_MEM;
            }
            release(d, run);
            continue;
        }
        /* A group standing where the running lanes stand: its lanes whose
         * data are in rejoin them (waiting lanes, at once). */
        dom_group *here = group_at(d, xw, pc, true);
        if (here) {
            int leap = leapfrog(g, w, d, here, lanes, pc);
            if (leap > 0 || (leap == 0 && rejoin_ready(g, w, d, here)))
                continue;
        }
        const isa_inst *in = exec_warp_inst(xw);
        if (g->c.dom_slip_action == TM_SLIP_WAIT && in && may_diverge(in)) {
            int why = slip_limit_reached(g, sm, w, d, ready_at);
            if (why == 1)
                continue;
            if (why)
                return why;
        }
        if (in && forces_reconvergence(in)) {
            /* Parked or held lanes go first; these wait here, ready.
             * (Lanes that are themselves waiting at a sync point are not
             * swapped back: two groups that end at different sync points --
             * one exits, the other waits at a barrier -- would take turns
             * forever.) */
            dom_group *behind = NULL;
            for (uint32_t i = 0; i < MAX_GROUPS && !behind; i++) {
                dom_group *gr = &d->group[i];
                if (gr->used && !gr->at_sync && exec_warp_raise(xw, gr->lanes))
                    behind = gr;
            }
            if (behind && d->n < MAX_GROUPS && exec_warp_swap(xw)) {
                new_group(d, lanes, pc, 0, true)->at_sync = true;
                g->st->dom_forced++;
                w->regs_valid = false;
                continue;
            }
        }
        if (catch_up(g, w, d, lanes, pc))
            continue;
        return -1;
    }
    return -1;
}

/* Before the warp's next instruction is decoded: rejoin, swap in or wait
 * for its parked groups. */
static int before_decode(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at)
{
    dom_warp *d = warp_state(g, w);
    if (!d->n)
        return TM_MECH_PASS;
    int why = regroup(g, sm, w, d, ready_at);
    if (why >= 0)
        return why;
    if (exec_warp_state(w->xw) != EXEC_WARP_RUNNING)
        return exec_warp_state(w->xw) == EXEC_WARP_BARRIER ? TM_SLOT_BARRIER : TM_SLOT_IDLE;
    return TM_MECH_PASS;
}

/* The warp issues at its pc: count the issue for adaptive slip. */
static void before_step(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    dom_warp *d = warp_state(g, w);
    g->st->dom_split_issues += d->n != 0;
    sm_state(g, sm)->issued++;
    for (uint32_t i = 0; d->n && i < MAX_GROUPS; i++)
        d->group[i].fresh = false;          /* the running lanes move on */
}

/* A load just executed: if some of its lanes hit in the L1 and some
 * missed, park the missing ones and give them a load of their own. */
static void mem_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m, bool again)
{
    if (again)
        return;
    dom_warp *d = warp_state(g, w);
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
    uint32_t running = exec_warp_active(w->xw), pc = exec_warp_pc(w->xw);
    if (miss & ~running)
        return;                 /* control moved on */
    /* A parked group standing where the running lanes now stand: if its
     * data are in, it rejoins with this execution; if not, new misses
     * join it. */
    dom_group *sib = d->n ? group_at(d, w->xw, pc, false) : NULL;
    uint32_t rejoined = sib ? rejoin_ready(g, w, d, sib) : 0;
    if (sib && !sib->used)
        sib = NULL;
    uint32_t live = running | rejoined | grouped_lanes(d);
    running |= rejoined;
    if (!miss || (running & ~miss) == 0) {
        count_slip(g, d, live, running);        /* all hit or all missed: no divergence */
        return;
    }
    if (g->c.dom_slip_action == TM_SLIP_BLOCK && lead_of(d, live, true) >= slip_limit(g, sm)) {
        g->st->dom_slip_blocks++;               /* a lane at the limit: the warp blocks */
        count_slip(g, d, live, running);
        return;
    }
    /* (A partial rejoin above left the sibling's lanes and sib->lanes alike.)
     * The new misses join it if it has a part free; they are ready now
     * until a load of theirs says otherwise. */
    dom_part *part = sib ? free_part(sib) : NULL;
    if (part) {
        if (exec_warp_park_join(w->xw, miss) != PTX_OK)
            return;
        *part = (dom_part){ .lanes = miss, .ready = g->now };
        sib->lanes |= miss;
        g->st->dom_merges++;
    } else {
        if (parked_groups(d) >= g->c.dom_groups) {
            g->st->dom_fallbacks++;
            count_slip(g, d, live, running);
            return;
        }
        if (exec_warp_park(w->xw, miss) != PTX_OK)
            return;
        dom_group *gr = new_group(d, miss, pc, g->now, false);
        if (!gr)
            return;
        part = &gr->part[0];
    }
    g->st->dom_divergences++;
    count_slip(g, d, live, running & ~miss);
    /* The transactions only parked lanes wait for complete the group; the
     * others, the running lanes' registers. */
    uint64_t park_txns = 0;
    uint32_t n = 0;
    for (uint32_t t = 0; t < m->ntxn; t++)
        if (!(m->txn_lanes[t] & ~miss)) {
            park_txns |= 1ull << t;
            n++;
        }
    if (!n || n == m->load->outstanding)
        return;                 /* nothing of theirs to wait for apart from the others */
    tm_load *pk = tm_load_new(g, sm, w, n);
    if (!pk)
        return;
    pk->owner = &tm_mech_dom;
    pk->owner_data = part;
    part->ready = TM_NEVER;
    w->loads_in_flight++;
    m->load->outstanding -= n;
    m->split = pk;
    m->split_txns = park_txns;
}

/* The parked lanes' data are in.  With catch-up, the scheduler looks at
 * the warp again: if its running lanes wait on a load, these may run. */
static void load_done(tm_gpu *g, tm_load *ld)
{
    ((dom_part *)ld->owner_data)->ready = ld->done;
    if (g->c.dom_catch_up == TM_DOM_ON) {
        ld->warp->not_before = 0;
        tm_sm_look_warp(ld->warp);
    }
}

/* ---- adaptive slip (the paper's "adaptive diff", per SM) --------------------- */

/* Once per dom_period, per SM: up when it was neither ALU- nor
 * bandwidth-bound; kept when it was also latency-bound, about as much as
 * it was the other (the paper's "roughly in balance"); down otherwise.
 * The paper gives the rule, not its thresholds: ALU-bound is issuing on
 * 95% of the cycles, bandwidth-bound sending more than the SM's share of
 * the DRAM bandwidth toward the L2, latency-bound every ready warp waiting
 * on a load for a quarter of the scheduler cycles, and "in balance" the two
 * scores within 0.10. */
static void sm_visit(tm_gpu *g, tm_sm *sm)
{
    const tm_config *c = &g->c;
    if (c->dom_slip != TM_SLIP_ADAPTIVE)
        return;
    dom_sm *ds = sm_state(g, sm);
    uint64_t period = c->dom_period * g->core_ps;
    if (g->now < ds->sample_at)
        return;
    if (ds->sample_at) {
        /* ALU-bound: the SM issued nearly every cycle; bandwidth-bound: its
         * L1 misses used more than its share of the DRAM bandwidth. */
        double cycles = (double)c->dom_period;
        double idle = cycles - (double)ds->issued;
        double fair = (double)c->n_partitions * (double)c->dram_bus_bytes * (double)c->dram_clock_mhz /
                      (double)c->core_clock_mhz / (double)c->n_sm;
        double used = (double)(sm->sent_bytes - ds->bytes_at) / cycles;
        double latency = (double)(sm->mem_wait_slots - ds->mem_wait_at) / (cycles * (double)c->n_schedulers);
        double alu_score = idle > 0 ? 1.0 - idle / cycles : 1.0, bw_score = used < fair ? used / fair : 1.0;
        bool alu = idle / cycles < 0.05, bandwidth = used > fair;
        double other = alu_score > bw_score ? alu_score : bw_score;
        if (!alu && !bandwidth) {
            if (ds->max_slip < 255)
                ds->max_slip++;
        } else if (latency > 0.25 && latency - other <= 0.10 && other - latency <= 0.10) {
            g->st->dom_slip_holds++;
        } else if (ds->max_slip > 1) {
            ds->max_slip--;
        }
    }
    ds->issued = 0;
    ds->bytes_at = sm->sent_bytes;
    ds->mem_wait_at = sm->mem_wait_slots;
    ds->sample_at = g->now + period;
}

/* ---- the mechanism ----------------------------------------------------------- */

static bool enabled(const tm_config *c) { return c->dom == TM_DOM_ON; }

/* Adaptive slip starts from the configured limit and keeps what it learnt
 * from one launch to the next. */
static bool init(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        sm_state(g, &g->sms[i])->max_slip = (uint32_t)g->c.dom_max_slip;
    return true;
}

static void stats_reset(const tm_config *c, tm_stats *st)
{
    st->dom_slip_limit = (uint32_t)c->dom_max_slip;
}

/* The slip limit at the end, averaged over the SMs. */
static void finish(tm_gpu *g)
{
    uint64_t slip = 0;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        slip += slip_limit(g, &g->sms[i]);
    g->st->dom_slip_limit = (uint32_t)((slip + g->c.n_sm / 2) / g->c.n_sm);
}

const tm_mech tm_mech_dom = {
    .name = "diverge_on_miss",
    .enabled = enabled,
    .sm_bytes = sizeof(dom_sm),
    .warp_bytes = sizeof(dom_warp),
    .always_look = true,
    .init = init,
    .stats_reset = stats_reset,
    .finish = finish,
    .sm_visit = sm_visit,
    .before_decode = before_decode,
    .before_step = before_step,
    .mem_issue = mem_issue,
    .load_done = load_done,
};

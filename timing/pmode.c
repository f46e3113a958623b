/*
 * pmode.c -- P-mode: warped pre-execution (Kim, Lee, Yoon, Koo, Ro,
 * Annavaram, "Warped-Preexecution", HPCA 2016).
 *
 * A warp whose next instruction waits on a global load enters P-mode.  While
 * no normal-mode (N-mode) warp of its scheduler can issue, it runs ahead of
 * the stalled instruction: instructions that do not depend on an outstanding
 * long-latency load are pre-executed into renamed registers, those that do
 * are skipped and pass the dependence on to what they write, global loads
 * become pre-loads that only fill the L1, stores and barriers are skipped,
 * and a branch that depends on the load ends pre-execution.  When the stalled
 * instruction's loads have returned, the warp goes back to N-mode and takes
 * pre-executed results from the head of its P-queue instead of executing
 * those instructions again.
 *
 * How it is built here.  Pre-execution runs on a copy of the warp
 * (exec_warp_copy): registers, predicates, SIMT stack.  The copy never
 * writes memory -- every instruction with a side effect is skipped -- and
 * the real warp still executes every instruction itself, in order, when
 * N-mode reaches it; a "reused" instruction is one whose issue costs no
 * collector or functional unit and whose result is ready when the
 * pre-executed one was.  So P-mode changes timing and cache contents only,
 * never what the program computes: correct by construction.
 *
 * The choices the paper leaves open (docs/pmode.md has the reasoning):
 *   - exit: when none of the stalled instruction's operands still waits on a
 *     long-latency load (several outstanding loads: the last one to return);
 *   - the stalled instruction itself is skipped in P-mode and run by N-mode;
 *   - rename registers are released when their P-queue entry is reused or
 *     dropped, or, for results the full P-queue did not take, at the exit;
 *     the pool is pmode_rename, at most the registers no resident CTA uses;
 *   - a pre-executed result not yet written when N-mode reaches it is
 *     reused anyway and N-mode waits for it; one still in its collector is
 *     not reused (N-mode executes the instruction again);
 *   - the P-queue is flushed (its entries dropped) when the warp enters
 *     P-mode again: entries belong to one stall;
 *   - shared, constant and parameter loads are pre-executed with their
 *     load latency but without occupying the memory stage;
 *   - texture and surface loads are pre-loads like global ones;
 *   - calls, returns, exits and traps end pre-execution, as does an
 *     instruction more than pmode_range instructions from the stalled one
 *     (the paper's 10-bit PC offset), and a load that would fault;
 *   - one P-mode warp per scheduler fetches per cycle, round robin; a skip
 *     takes that cycle's fetch, a pre-executed instruction its issue slot;
 *     no P-mode warp fetches while the rename pool is empty (the paper's
 *     deadlock rule, which also throttles pre-execution when occupancy
 *     leaves few registers unused);
 *   - P-mode never takes the last free collector unit, and a pre-load in
 *     the memory stage gives way to a demand instruction; a pre-load line
 *     already present or in flight is not sent, and one the L1 refuses is
 *     dropped.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

/* An instruction pre-executed for N-mode to reuse, at the P-queue's head
 * when N-mode reaches it. */
typedef struct pq_entry {
    uint32_t pc;
    uint64_t ready;             /* its result is written by then (TM_NEVER: not yet dispatched) */
    uint8_t nregs;              /* rename registers it holds */
} pq_entry;

/* Per warp. */
typedef struct pmode_warp {
    exec_warp *copy;            /* the pre-executing copy of the warp (kept allocated) */
    bool on;                    /* P-mode: the warp waits on a global load; the copy runs */
    bool halted;                /* ... but the copy can go no further */
    bool store_skipped;         /* a store was skipped: later shared loads would read stale data */
    bool barrier_passed;        /* a barrier was skipped: likewise */
    uint32_t blocked_pc;        /* the N-mode instruction that waits (pmode_range counts from it) */
    exec_record blocked;        /* its registers: P-mode ends when none is a pending load's */
    uint32_t nregs, nkeys;      /* P-scoreboard keys: registers, then predicates */
    uint8_t *poison;            /* per key: depends on an outstanding long-latency load */
    uint64_t *ready;            /* per key: when its renamed value is written */
    pq_entry *pq;               /* the P-queue: pmode_pqueue entries, a ring */
    uint32_t pq_head, pq_len, epoch;    /* epoch: the P-queue's generation */
    uint32_t held;              /* rename registers held by results outside the P-queue */
    uint64_t start;             /* pre-execution starts then (the switch latency) */
} pmode_warp;

/* Per SM: rename registers in use; per scheduler (n_schedulers is at most
 * 16, params.def), where its round robin over P-mode warps starts. */
typedef struct pmode_sm {
    uint32_t renamed;
    uint32_t rr[16];
} pmode_sm;

static pmode_warp *warp_state(const tm_gpu *g, const tm_warp *w) { return tm_mech_warp(g, w, TM_MECH_PMODE); }
static pmode_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_PMODE); }

/* A collector unit's cookie: the P-queue slot (+ 1; 0: none) of the
 * instruction it holds and the P-queue's generation then. */
static uint64_t cookie(int32_t slot, uint32_t epoch) { return (uint64_t)epoch << 32 | (uint32_t)(slot + 1); }

/* The P-scoreboard's index of a register key; nkeys when out of range. */
static uint32_t key_index(const pmode_warp *pm, uint16_t key)
{
    uint32_t i = key & EXEC_REG_PRED ? pm->nregs + (key & ~EXEC_REG_PRED) : key;
    return i < pm->nkeys ? i : pm->nkeys;
}

static bool poisoned(const pmode_warp *pm, uint16_t key)
{
    uint32_t i = key_index(pm, key);
    return i == pm->nkeys || pm->poison[i];     /* unknown registers: assume the worst */
}

static void set_poison(pmode_warp *pm, uint16_t key, bool on, uint64_t ready)
{
    uint32_t i = key_index(pm, key);
    if (i < pm->nkeys) {
        pm->poison[i] = on;
        pm->ready[i] = ready;
    }
}

/* Rename registers the SM can still hand out. */
static uint32_t rename_free(const tm_gpu *g, const tm_sm *sm)
{
    uint64_t unused = ((uint64_t)g->c.sm_registers - sm->regs) / 32;
    uint64_t pool = g->c.pmode_rename < unused ? g->c.pmode_rename : unused;
    uint32_t renamed = sm_state(g, sm)->renamed;
    return pool > renamed ? (uint32_t)(pool - renamed) : 0;
}

static void release(const tm_gpu *g, tm_sm *sm, uint32_t n)
{
    pmode_sm *ps = sm_state(g, sm);
    ps->renamed = ps->renamed > n ? ps->renamed - n : 0;
}

/* Drop the P-queue's entries: N-mode did not reach them. */
static void flush(tm_gpu *g, tm_sm *sm, pmode_warp *pm)
{
    uint32_t size = (uint32_t)g->c.pmode_pqueue;
    for (uint32_t i = 0; i < pm->pq_len; i++)
        release(g, sm, pm->pq[(pm->pq_head + i) % size].nregs);
    g->st->pm_dropped += pm->pq_len;
    pm->pq_head = pm->pq_len = 0;
    pm->epoch++;
}

/* Stop pre-executing; the warp waits for its load as it would without
 * P-mode. */
static void halt(tm_gpu *g, pmode_warp *pm, int why)
{
    pm->halted = true;
    if (why >= 0)
        g->st->pm_halts[why]++;
}

/* The warp's next instruction (blocked) waits on a global load: switch to
 * P-mode, with a copy of the warp positioned after it. */
static void enter(tm_gpu *g, tm_sm *sm, tm_warp *w, pmode_warp *pm, const exec_record *blocked)
{
    uint32_t nregs, npreds;
    exec_warp_reg_keys(w->xw, &nregs, &npreds);
    if (nregs + npreds > pm->nkeys || !pm->poison) {
        free(pm->poison);
        free(pm->ready);
        pm->poison = calloc(nregs + npreds, 1);
        pm->ready = calloc(nregs + npreds, sizeof *pm->ready);
    }
    if (!pm->pq && g->c.pmode_pqueue)
        pm->pq = calloc((size_t)g->c.pmode_pqueue, sizeof *pm->pq);
    if (!pm->poison || !pm->ready || (!pm->pq && g->c.pmode_pqueue) ||
        exec_warp_copy(w->xw, &pm->copy) != PTX_OK) {
        tm_out_of_memory(g);
        return;
    }
    pm->nregs = nregs;
    pm->nkeys = nregs + npreds;
    flush(g, sm, pm);
    /* The P-scoreboard starts as a copy of the N-scoreboard: a register a
     * global load will write is long-latency (poisoned), one a short
     * operation will write is ready when that one is. */
    memset(pm->poison, 0, pm->nkeys);
    memset(pm->ready, 0, pm->nkeys * sizeof *pm->ready);
    for (uint32_t i = 0; i < w->npend; i++) {
        const tm_pending *p = &w->pend[i];
        if (p->ready <= g->now)
            continue;
        uint16_t key = p->reg | (p->pred ? EXEC_REG_PRED : 0);
        set_poison(pm, key, p->mem, p->mem ? 0 : p->ready);
    }
    pm->on = true;
    pm->halted = false;
    pm->store_skipped = pm->barrier_passed = false;
    pm->blocked = *blocked;
    pm->blocked_pc = exec_warp_pc(w->xw);
    pm->held = 0;
    pm->start = g->now + g->c.pmode_switch * g->core_ps;
    g->st->pm_entries++;
    /* The stalled instruction itself is skipped: what it writes depends on
     * the load. */
    for (uint8_t k = 0; k < blocked->ndst; k++)
        set_poison(pm, blocked->dst[k], true, 0);
    g->st->pm_skipped++;
    if (!exec_warp_skip(pm->copy))
        halt(g, pm, -1);
}

/* Back to N-mode (the P-queue stays for reuse). */
static void leave(tm_gpu *g, tm_sm *sm, pmode_warp *pm)
{
    pm->on = false;
    pm->halted = false;
    release(g, sm, pm->held);
    pm->held = 0;
}

/* Does the blocked instruction still wait on a long-latency load? */
static bool still_blocked(const tm_gpu *g, const tm_warp *w, const pmode_warp *pm)
{
    const exec_record *b = &pm->blocked;
    for (uint32_t i = 0; i < w->npend; i++) {
        const tm_pending *p = &w->pend[i];
        if (!p->mem || p->ready <= g->now)
            continue;
        uint16_t key = p->reg | (p->pred ? EXEC_REG_PRED : 0);
        for (uint8_t k = 0; k < b->nsrc; k++)
            if (b->src[k] == key)
                return true;
        for (uint8_t k = 0; k < b->ndst; k++)
            if (b->dst[k] == key)
                return true;
    }
    return false;
}

/* Each look at the warp: leave P-mode once the stalled instruction's
 * loads are in; enter it when the next instruction waits on a load. */
static void registers(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_pending *blocker)
{
    pmode_warp *pm = warp_state(g, w);
    if (pm->on && !still_blocked(g, w, pm))
        leave(g, sm, pm);
    if (blocker && blocker->mem && !pm->on)
        enter(g, sm, w, pm, &w->regs);
}

/* The warp's CTA retires: give back what its P-mode holds. */
static void warp_end(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    pmode_warp *pm = warp_state(g, w);
    if (pm->pq)
        flush(g, sm, pm);
    release(g, sm, pm->held);
    exec_warp_copy_free(pm->copy);
    free(pm->poison);
    free(pm->ready);
    free(pm->pq);
    memset(pm, 0, sizeof *pm);
}

/* ---- one step of the copy ---------------------------------------------------- */

/* Skip the copy's next instruction: what it writes now depends on the load. */
static void skip(tm_gpu *g, pmode_warp *pm, const exec_record *r)
{
    for (uint8_t k = 0; k < r->ndst; k++)
        set_poison(pm, r->dst[k], true, 0);
    g->st->pm_skipped++;
    if (!exec_warp_skip(pm->copy))
        halt(g, pm, -1);
}

/* Run the copy's next instruction for real (it has no side effect). */
static bool run(tm_gpu *g, pmode_warp *pm, exec_record *rec)
{
    exec_stats scratch = {0};
    if (exec_warp_step(pm->copy, ~0u, &scratch, rec, NULL) != PTX_OK) {
        halt(g, pm, TM_PM_HALT_FAULT);
        return false;
    }
    return true;
}

/* Run the copy's next instruction (registers r) if the pool has rename
 * registers for its results; false when it must wait or has halted. */
static bool rename_and_run(tm_gpu *g, tm_sm *sm, pmode_warp *pm, const exec_record *r, exec_record *rec)
{
    if (r->ndst > rename_free(g, sm)) {
        g->st->pm_rename_waits++;
        return false;
    }
    return run(g, pm, rec);
}

/* Rename the results of a pre-executed instruction and give it a P-queue
 * entry if there is room; returns the entry's slot or -1. */
static int32_t rename_results(tm_gpu *g, tm_sm *sm, pmode_warp *pm, const exec_record *rec, uint64_t ready)
{
    for (uint8_t k = 0; k < rec->ndst; k++)
        set_poison(pm, rec->dst[k], false, ready);
    sm_state(g, sm)->renamed += rec->ndst;
    g->st->pm_renames += rec->ndst;
    g->st->pm_pre_executed++;
    uint32_t size = (uint32_t)g->c.pmode_pqueue;
    if (pm->pq_len < size && rec->ndst) {
        uint32_t slot = (pm->pq_head + pm->pq_len++) % size;
        pm->pq[slot] = (pq_entry){ rec->pc, ready, rec->ndst };
        g->st->pm_queued++;
        g->st->pm_pq_accesses++;
        return (int32_t)slot;
    }
    pm->held += rec->ndst;
    return -1;
}

/* One P-mode step of warp w: 1 pre-executed (the issue slot is used), 0
 * skipped an instruction, -1 nothing this cycle. */
static int step(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    const tm_config *c = &g->c;
    pmode_warp *pm = warp_state(g, w);
    if (!pm->on || pm->halted || g->now < pm->start)
        return -1;
    if (!rename_free(g, sm)) {
        /* "P-mode warps are selected for issue only when renaming
         * registers are available": the pool throttles pre-execution. */
        g->st->pm_rename_waits++;
        return -1;
    }
    const isa_inst *in = exec_warp_next(pm->copy);
    if (!in) {
        halt(g, pm, -1);
        return -1;
    }
    uint32_t pc = exec_warp_pc(pm->copy);
    uint32_t dist = pc > pm->blocked_pc ? pc - pm->blocked_pc : pm->blocked_pc - pc;
    if (dist > c->pmode_range) {
        halt(g, pm, TM_PM_HALT_RANGE);
        return -1;
    }
    exec_record r;
    exec_inst_regs(pm->copy, in, &r);
    int kind = isa_ops[in->op].pmode;        /* opcodes.def's pmode column */
    bool dep = false;
    for (uint8_t k = 0; k < r.nsrc; k++)
        dep = dep || poisoned(pm, r.src[k]);
    if (kind == ISA_PM_HALT) {
        halt(g, pm, TM_PM_HALT_CONTROL);
        return -1;
    }
    if (kind == ISA_PM_BRANCH && dep) {
        halt(g, pm, TM_PM_HALT_BRANCH);
        return -1;
    }
    if (kind == ISA_PM_STORE)
        pm->store_skipped = true;
    if (kind == ISA_PM_BARRIER)
        pm->barrier_passed = true;
    if (dep || kind == ISA_PM_STORE || kind == ISA_PM_BARRIER || kind == ISA_PM_SKIP) {
        skip(g, pm, &r);
        return 0;
    }
    /* Operands a short operation of P-mode (or of N-mode before) is still
     * producing: wait for them, as the P-scoreboard would. */
    for (uint8_t k = 0; k < r.nsrc; k++) {
        uint32_t i = key_index(pm, r.src[k]);
        if (i < pm->nkeys && pm->ready[i] > g->now)
            return -1;
    }
    if (kind == ISA_PM_LOAD) {
        bool image = (isa_ops[in->op].flags & ISA_F_IMAGE) != 0;
        isa_access a = {0};
        uint8_t space = ISA_SPACE_GLOBAL;
        if (!image && exec_warp_peek_access(pm->copy, &a))
            space = a.space;
        if (space == ISA_SPACE_SHARED || space == ISA_SPACE_CONST || space == ISA_SPACE_PARAM) {
            if (space == ISA_SPACE_SHARED && (pm->store_skipped || pm->barrier_passed)) {
                skip(g, pm, &r);
                return 0;
            }
            exec_record rec;
            if (!rename_and_run(g, sm, pm, &r, &rec))
                return -1;
            uint64_t lat = space == ISA_SPACE_SHARED ? c->shmem_latency : c->const_latency;
            rename_results(g, sm, pm, &rec, g->now + lat * g->core_ps);
            return 1;
        }
        /* Global, local, texture: a pre-load.  Its destination stays
         * long-latency; the line comes into the L1 for N-mode to find. */
        if (c->pmode_preload == 0) {
            skip(g, pm, &r);
            return 0;
        }
        if (!tm_sm_can_collect(g, sm, OC_MEM))
            return -1;
        if (image) {
            exec_record rec;
            if (!run(g, pm, &rec))
                return -1;
            a = rec.access;
        } else if (!exec_warp_skip(pm->copy)) {
            halt(g, pm, -1);
        }
        for (uint8_t k = 0; k < r.ndst; k++)
            set_poison(pm, r.dst[k], true, 0);
        g->st->pm_preloads++;
        tm_minst *m = tm_minst_preload(g, sm, w, &a);
        if (m) {
            g->st->pm_preload_txns += m->ntxn;
            tm_sm_collect(g, sm, w, OC_MEM, NULL, m)->by = &tm_mech_pmode;
        }
        return 1;
    }
    if (kind == ISA_PM_BRANCH) {
        /* Independent: it moves the copy's SIMT stack (the P-SIMT stack).
         * N-mode runs it again: a branch is never reused. */
        exec_record rec;
        if (!run(g, pm, &rec))
            return -1;
        g->st->pm_pre_executed++;
        return 1;
    }
    int cls = tm_sm_unit_free(g, sm, in, NULL);
    if (cls < 0)
        return -1;
    exec_record rec;
    if (!rename_and_run(g, sm, pm, &r, &rec))
        return -1;
    int32_t slot = rename_results(g, sm, pm, &rec, TM_NEVER);
    tm_oc *o = tm_sm_collect(g, sm, w, (uint8_t)cls, &rec, NULL);
    o->by = &tm_mech_pmode;
    o->cookie = cookie(slot, pm->epoch);
    return 1;
}

/* A pre-executed instruction leaves its collector; its results are
 * written by `ready`. */
static void written(tm_gpu *g, tm_oc *o, uint64_t ready)
{
    pmode_warp *pm = warp_state(g, o->warp);
    if (pm->on)
        for (uint8_t k = 0; k < o->ndst; k++) {
            uint32_t i = key_index(pm, o->dst[k]);
            if (i < pm->nkeys && !pm->poison[i])
                pm->ready[i] = ready;
        }
    int32_t slot = (int32_t)(uint32_t)o->cookie - 1;
    if (slot >= 0 && o->cookie >> 32 == pm->epoch)
        pm->pq[slot].ready = ready;
}

/* Scheduler s issued nothing from N-mode: step one of its P-mode warps,
 * round robin.  1 pre-executed, 0 made progress or waits, -1 none to run. */
static int idle(tm_gpu *g, tm_sm *sm, uint32_t s)
{
    pmode_sm *ps = sm_state(g, sm);
    tm_warp **list = sm->sched[s];
    uint32_t n = sm->nsched[s];
    bool waiting = false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (ps->rr[s] + i) % n;
        tm_warp *w = list[at];
        pmode_warp *pm = warp_state(g, w);
        if (!pm->on || pm->halted)
            continue;
        int r = step(g, sm, w);
        if (r < 0) {
            waiting = waiting || !pm->halted;
            continue;
        }
        ps->rr[s] = (at + 1) % n;
        return r;
    }
    return waiting ? 0 : -1;
}

/* ---- N-mode: reuse ------------------------------------------------------------- */

/* N-mode: the next instruction, not a memory one, is at the head of the
 * P-queue with its result on its way: it issues without a unit. */
static int can_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *again, uint64_t *ready_at)
{
    (void)sm;
    (void)ready_at;
    const pmode_warp *pm = warp_state(g, w);
    if (again || !pm->pq_len || (isa_ops[w->regs.inst->op].flags & ISA_F_MEM))
        return TM_MECH_PASS;
    const pq_entry *e = &pm->pq[pm->pq_head];
    return e->pc == w->regs_pc && e->ready != TM_NEVER ? TM_SLOT_ISSUE : TM_MECH_PASS;
}

/* N-mode just executed rec: if the P-queue's head is that instruction,
 * take its result (true: no unit needed). */
static bool reuse(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec)
{
    pmode_warp *pm = warp_state(g, w);
    if (!pm->pq_len || pm->pq[pm->pq_head].pc != rec->pc)
        return false;
    pq_entry e = pm->pq[pm->pq_head];
    g->st->pm_pq_accesses++;
    release(g, sm, e.nregs);
    pm->pq_head = (pm->pq_head + 1) % (uint32_t)g->c.pmode_pqueue;
    pm->pq_len--;
    if (e.ready == TM_NEVER) {
        /* Still in its collector: execute it again. */
        g->st->pm_late++;
        return false;
    }
    uint64_t ready = e.ready > g->now + g->core_ps ? e.ready : g->now + g->core_ps;
    for (uint8_t k = 0; k < rec->ndst; k++)
        tm_mark(w, rec->dst[k], tm_write_lanes(g, rec), ready, false);
    g->st->pm_reused++;
    return true;
}

/* ---- the mechanism ----------------------------------------------------------- */

static bool enabled(const tm_config *c) { return c->pmode == TM_PMODE_ON; }

const tm_mech tm_mech_pmode = {
    .name = "pmode",
    .enabled = enabled,
    .sm_bytes = sizeof(pmode_sm),
    .warp_bytes = sizeof(pmode_warp),
    .always_look = true,
    .warp_end = warp_end,
    .registers = registers,
    .can_issue = can_issue,
    .idle = idle,
    .reuse = reuse,
    .written = written,
};

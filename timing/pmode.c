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

/* The P-scoreboard's index of a register key; nkeys when out of range. */
static uint32_t key_index(const tm_pmode *pm, uint16_t key)
{
    uint32_t i = key & EXEC_REG_PRED ? pm->nregs + (key & ~EXEC_REG_PRED) : key;
    return i < pm->nkeys ? i : pm->nkeys;
}

static bool poisoned(const tm_pmode *pm, uint16_t key)
{
    uint32_t i = key_index(pm, key);
    return i == pm->nkeys || pm->poison[i];     /* unknown registers: assume the worst */
}

static void set_poison(tm_pmode *pm, uint16_t key, bool on, uint64_t ready)
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
    return pool > sm->pm_renamed ? (uint32_t)(pool - sm->pm_renamed) : 0;
}

static void release(tm_sm *sm, uint32_t n)
{
    sm->pm_renamed = sm->pm_renamed > n ? sm->pm_renamed - n : 0;
}

/* Drop the P-queue's entries: N-mode did not reach them. */
static void flush(tm_gpu *g, tm_sm *sm, tm_pmode *pm)
{
    uint32_t size = (uint32_t)g->c.pmode_pqueue;
    for (uint32_t i = 0; i < pm->pq_len; i++)
        release(sm, pm->pq[(pm->pq_head + i) % size].nregs);
    g->st->pm_dropped += pm->pq_len;
    pm->pq_head = pm->pq_len = 0;
    pm->epoch++;
}

/* Stop pre-executing; the warp waits for its load as it would without
 * P-mode. */
static void halt(tm_gpu *g, tm_pmode *pm, int why)
{
    pm->halted = true;
    if (why >= 0)
        g->st->pm_halts[why]++;
}

void tm_pmode_enter(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *blocked)
{
    tm_pmode *pm = &w->pm;
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
        g->fault = PTX_E_NOMEM;
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

void tm_pmode_exit(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    tm_pmode *pm = &w->pm;
    (void)g;
    pm->on = false;
    pm->halted = false;
    release(sm, pm->held);
    pm->held = 0;
}

bool tm_pmode_still_blocked(const tm_gpu *g, const tm_warp *w)
{
    const exec_record *b = &w->pm.blocked;
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

void tm_pmode_release(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    tm_pmode *pm = &w->pm;
    if (pm->pq)
        flush(g, sm, pm);
    release(sm, pm->held);
    exec_warp_copy_free(pm->copy);
    free(pm->poison);
    free(pm->ready);
    free(pm->pq);
    memset(pm, 0, sizeof *pm);
}

/* ---- one step of the copy ---------------------------------------------------- */

/* Skip the copy's next instruction: what it writes now depends on the load. */
static void skip(tm_gpu *g, tm_pmode *pm, const exec_record *r)
{
    for (uint8_t k = 0; k < r->ndst; k++)
        set_poison(pm, r->dst[k], true, 0);
    g->st->pm_skipped++;
    if (!exec_warp_skip(pm->copy))
        halt(g, pm, -1);
}

/* Run the copy's next instruction for real (it has no side effect). */
static bool run(tm_gpu *g, tm_pmode *pm, exec_record *rec)
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
static bool rename_and_run(tm_gpu *g, tm_sm *sm, tm_pmode *pm, const exec_record *r, exec_record *rec)
{
    if (r->ndst > rename_free(g, sm)) {
        g->st->pm_rename_waits++;
        return false;
    }
    return run(g, pm, rec);
}

/* Rename the results of a pre-executed instruction and give it a P-queue
 * entry if there is room; returns the entry's slot or -1. */
static int32_t rename_results(tm_gpu *g, tm_sm *sm, tm_pmode *pm, const exec_record *rec, uint64_t ready)
{
    for (uint8_t k = 0; k < rec->ndst; k++)
        set_poison(pm, rec->dst[k], false, ready);
    sm->pm_renamed += rec->ndst;
    g->st->pm_renames += rec->ndst;
    g->st->pm_pre_executed++;
    uint32_t size = (uint32_t)g->c.pmode_pqueue;
    if (pm->pq_len < size && rec->ndst) {
        uint32_t slot = (pm->pq_head + pm->pq_len++) % size;
        pm->pq[slot] = (tm_pq_entry){ rec->pc, ready, rec->ndst };
        g->st->pm_queued++;
        g->st->pm_pq_accesses++;
        return (int32_t)slot;
    }
    pm->held += rec->ndst;
    return -1;
}

int tm_pmode_step(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    const tm_config *c = &g->c;
    tm_pmode *pm = &w->pm;
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
            tm_sm_collect(g, sm, w, OC_MEM, NULL, m)->pre = true;
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
    o->pre = true;
    o->pq_slot = slot;
    o->pq_epoch = pm->epoch;
    return 1;
}

void tm_pmode_written(tm_gpu *g, tm_oc *o, uint64_t ready)
{
    tm_pmode *pm = &o->warp->pm;
    (void)g;
    if (pm->on)
        for (uint8_t k = 0; k < o->ndst; k++) {
            uint32_t i = key_index(pm, o->dst[k]);
            if (i < pm->nkeys && !pm->poison[i])
                pm->ready[i] = ready;
        }
    if (o->pq_slot >= 0 && o->pq_epoch == pm->epoch)
        pm->pq[o->pq_slot].ready = ready;
}

int tm_pmode_issue(tm_gpu *g, tm_sm *sm, uint32_t s)
{
    tm_warp **list = sm->sched[s];
    uint32_t n = sm->nsched[s];
    bool waiting = false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (sm->pm_rr[s] + i) % n;
        tm_warp *w = list[at];
        if (!w->pm.on || w->pm.halted)
            continue;
        int r = tm_pmode_step(g, sm, w);
        if (r < 0) {
            waiting = waiting || !w->pm.halted;
            continue;
        }
        sm->pm_rr[s] = (at + 1) % n;
        return r;
    }
    return waiting ? 0 : -1;
}

/* ---- N-mode: reuse ------------------------------------------------------------- */

bool tm_pmode_head_is(const tm_gpu *g, const tm_warp *w, uint32_t pc)
{
    const tm_pmode *pm = &w->pm;
    (void)g;
    return pm->pq_len && pm->pq[pm->pq_head].pc == pc && pm->pq[pm->pq_head].ready != TM_NEVER;
}

bool tm_pmode_reuse(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec)
{
    tm_pmode *pm = &w->pm;
    if (!pm->pq_len || pm->pq[pm->pq_head].pc != rec->pc)
        return false;
    tm_pq_entry e = pm->pq[pm->pq_head];
    g->st->pm_pq_accesses++;
    release(sm, e.nregs);
    pm->pq_head = (pm->pq_head + 1) % (uint32_t)g->c.pmode_pqueue;
    pm->pq_len--;
    if (e.ready == TM_NEVER) {
        /* Still in its collector: execute it again. */
        g->st->pm_late++;
        return false;
    }
    uint64_t ready = e.ready > g->now + g->core_ps ? e.ready : g->now + g->core_ps;
    for (uint8_t k = 0; k < rec->ndst; k++)
        tm_mark(w, rec->dst[k], ready, false);
    g->st->pm_reused++;
    return true;
}

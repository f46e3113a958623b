/*
 * sm.c -- one streaming multiprocessor: warp schedulers, the scoreboard,
 * functional units and the load/store unit.
 *
 * Each cycle every scheduler looks at its warps (warp slot % n_schedulers)
 * in its policy's order and issues the first whose next instruction has no
 * outstanding register dependence (RAW on a source, WAW on a destination)
 * and whose functional unit can accept it.  exec/ executes the instruction
 * at that moment; the model then marks its destination registers busy for
 * the unit's latency, or, for a load, until its memory transactions return.
 * A cycle on which a scheduler issues nothing is charged to the reason that
 * held back the warp closest to issuing.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

/* ---- the scoreboard ------------------------------------------------------------ */

/* Drop entries whose registers are written by now. */
static void retire(tm_warp *w, uint64_t now)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->npend; i++)
        if (w->pend[i].ready > now)
            w->pend[k++] = w->pend[i];
    w->npend = k;
}

/* The pending entry that blocks rec's instruction, or NULL. */
static const tm_pending *blocker(const tm_warp *w, const exec_record *rec, uint64_t now)
{
    for (uint32_t i = 0; i < w->npend; i++) {
        const tm_pending *p = &w->pend[i];
        if (p->ready <= now)
            continue;
        uint16_t key = p->reg | (p->pred ? EXEC_REG_PRED : 0);
        for (uint8_t k = 0; k < rec->nsrc; k++)
            if (rec->src[k] == key)
                return p;
        for (uint8_t k = 0; k < rec->ndst; k++)
            if (rec->dst[k] == key)
                return p;
    }
    return NULL;
}

static void mark(tm_warp *w, uint16_t key, uint64_t ready, bool mem)
{
    if (w->npend == sizeof w->pend / sizeof w->pend[0])
        return;
    w->pend[w->npend++] = (tm_pending){ (uint16_t)(key & ~EXEC_REG_PRED), (key & EXEC_REG_PRED) != 0, mem, ready };
}

/* ---- functional units ------------------------------------------------------------- */

typedef struct unit_choice {
    uint64_t *free;             /* the pipelines of this kind */
    uint32_t n;
    uint64_t latency, ii;       /* core cycles */
} unit_choice;

static unit_choice unit_for(const tm_gpu *g, tm_sm *sm, const isa_inst *in, uint8_t family)
{
    const tm_config *c = &g->c;
    unit_choice u = { sm->sp_free, (uint32_t)c->n_sp, c->lat_int, c->ii_int };
    switch (family) {
    case ISA_FAM_FP:
        u.latency = c->lat_fp;
        u.ii = c->ii_fp;
        if (in->op == ISA_OP_DIV)
            u.latency = c->lat_fdiv;
        break;
    case ISA_FAM_DP:
        u = (unit_choice){ sm->dp_free, (uint32_t)c->n_dp, c->lat_dp, c->ii_dp };
        break;
    case ISA_FAM_SFU:
        u = (unit_choice){ sm->sfu_free, (uint32_t)c->n_sfu, c->lat_sfu, c->ii_sfu };
        break;
    default:
        if (in->op == ISA_OP_MUL || in->op == ISA_OP_MAD || in->op == ISA_OP_MUL24 || in->op == ISA_OP_MAD24)
            u.latency = c->lat_imul;
        if (in->op == ISA_OP_DIV || in->op == ISA_OP_REM) {
            u.latency = c->lat_idiv;
            u.ii = c->ii_idiv;
        }
        break;
    }
    return u;
}

static uint64_t *free_pipe(unit_choice *u, uint64_t now)
{
    for (uint32_t i = 0; i < u->n; i++)
        if (u->free[i] <= now)
            return &u->free[i];
    return NULL;
}

static uint64_t earliest_pipe(const unit_choice *u)
{
    uint64_t t = TM_NEVER;
    for (uint32_t i = 0; i < u->n; i++)
        if (u->free[i] < t)
            t = u->free[i];
    return t;
}

/* ---- the load/store unit -------------------------------------------------------------- */

/* Group a warp access into L1 lines and sectors. */
static void coalesce(tm_sm *sm, tm_lsu *lsu)
{
    const isa_access *a = &lsu->rec.access;
    tm_cache *l1 = &sm->l1;
    lsu->ntxn = lsu->next = 0;
    for (uint32_t m = a->lanes; m;) {
        unsigned l = (unsigned)__builtin_ctz(m);
        m &= m - 1;
        uint64_t addr = a->addr[l];
        /* A vector access may straddle two lines. */
        for (uint64_t at = addr; at < addr + (a->bytes ? a->bytes : 1);) {
            uint64_t line = at >> l1->line_shift;
            uint64_t end = ((line + 1) << l1->line_shift);
            uint64_t stop = addr + a->bytes < end ? addr + a->bytes : end;
            uint32_t sec = tm_sector_mask(l1, at, (uint32_t)(stop - at));
            uint32_t t = 0;
            while (t < lsu->ntxn && lsu->txn_addr[t] != line)
                t++;
            if (t == lsu->ntxn && t < 64) {
                lsu->txn_addr[t] = line;
                lsu->txn_sectors[t] = 0;
                lsu->ntxn++;
            }
            if (t < 64)
                lsu->txn_sectors[t] |= sec;
            at = stop;
        }
    }
}

/* Shared-memory passes: lanes that hit the same bank at different words
 * serialise; the same word is broadcast. */
static uint32_t shared_passes(const tm_config *c, const isa_access *a)
{
    uint32_t passes = 1;
    uint32_t nb = (uint32_t)c->shmem_banks;
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t words[32];
        uint32_t n = 0;
        for (uint32_t m = a->lanes; m;) {
            unsigned l = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            uint64_t word = a->addr[l] / 4;
            if (word % nb != b)
                continue;
            bool seen = false;
            for (uint32_t k = 0; k < n && !seen; k++)
                seen = words[k] == word;
            if (!seen && n < 32)
                words[n++] = word;
        }
        if (n > passes)
            passes = n;
    }
    return passes;
}

/* Start a memory instruction in the LSU (it was just executed). */
static void lsu_start(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec)
{
    const tm_config *c = &g->c;
    tm_lsu *lsu = &sm->lsu;
    const isa_access *a = &rec->access;
    bool loads = rec->ndst > 0;
    uint8_t space = a->space;
    uint64_t now = g->now, cyc = g->core_ps;
    if (!a->lanes || a->bytes == 0)
        return;                                   /* prefetch hints, fully predicated off */
    if (space == ISA_SPACE_SHARED) {
        uint32_t passes = shared_passes(c, a);
        g->st->shmem_accesses++;
        g->st->shmem_conflict_passes += passes - 1;
        lsu->free_at = now + passes * cyc;
        for (uint8_t k = 0; k < rec->ndst; k++)
            mark(w, rec->dst[k], now + (c->shmem_latency + passes - 1) * cyc, false);
        return;
    }
    if (space == ISA_SPACE_CONST || space == ISA_SPACE_PARAM) {
        /* Constant cache: one pass per distinct address, as a broadcast. */
        uint32_t distinct = 0;
        uint64_t seen[32];
        for (uint32_t m = a->lanes; m;) {
            unsigned l = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            bool dup = false;
            for (uint32_t k = 0; k < distinct && !dup; k++)
                dup = seen[k] == a->addr[l];
            if (!dup)
                seen[distinct++] = a->addr[l];
        }
        g->st->const_accesses++;
        lsu->free_at = now + distinct * cyc;
        for (uint8_t k = 0; k < rec->ndst; k++)
            mark(w, rec->dst[k], now + (c->const_latency + distinct - 1) * cyc, false);
        return;
    }
    /* Global and local: transactions through the L1. */
    lsu->busy = true;
    lsu->warp = w;
    lsu->rec = *rec;
    coalesce(sm, lsu);
    g->st->gmem_insts++;
    g->st->gmem_transactions += lsu->ntxn;
    for (uint32_t t = 0; t < lsu->ntxn; t++)
        g->st->gmem_sectors += (uint64_t)__builtin_popcount(lsu->txn_sectors[t]);
    lsu->load = NULL;
    if (loads) {
        tm_load *ld = calloc(1, sizeof *ld);
        if (!ld) {
            g->fault = PTX_E_NOMEM;
            return;
        }
        ld->warp = w;
        ld->outstanding = lsu->ntxn ? lsu->ntxn : 1;
        ld->issued = now;
        ld->done = now;
        ld->nregs = rec->ndst < 4 ? rec->ndst : 4;
        for (uint8_t k = 0; k < ld->nregs; k++)
            ld->regs[k] = (uint16_t)(rec->dst[k] & ~EXEC_REG_PRED);
        ld->pred = false;
        for (uint8_t k = 0; k < rec->ndst; k++)
            mark(w, rec->dst[k], TM_NEVER, true);
        w->loads_in_flight++;
        lsu->load = ld;
        if (!lsu->ntxn) {
            lsu->busy = false;
            tm_load_complete(g, ld, now + cyc);
        }
    }
}

/* Send the LSU's next transaction; one per cycle. */
static void lsu_cycle(tm_gpu *g, tm_sm *sm)
{
    tm_lsu *lsu = &sm->lsu;
    if (!lsu->busy)
        return;
    uint8_t kind = lsu->rec.inst->op == ISA_OP_ST ? REQ_WRITE
                 : (lsu->rec.inst->op == ISA_OP_ATOM || lsu->rec.inst->op == ISA_OP_RED) ? REQ_ATOMIC
                 : REQ_READ;
    uint32_t t = lsu->next;
    uint32_t bytes = (uint32_t)__builtin_popcount(lsu->txn_sectors[t]) * sm->l1.sector_bytes;
    if (kind == REQ_ATOMIC && !lsu->load) {
        /* red: nothing waits for the answer. */
        kind = REQ_WRITE;
    }
    if (!tm_l1_access(g, sm, lsu->txn_addr[t], lsu->txn_sectors[t], kind, bytes, lsu->load)) {
        sm->wake = g->now + g->core_ps;          /* reservation failure: retry next cycle */
        return;
    }
    if (++lsu->next == lsu->ntxn)
        lsu->busy = false;
    sm->wake = g->now + g->core_ps;
}

/* ---- issue ------------------------------------------------------------------------------- */

/* Why a candidate warp cannot issue now (TM_SLOT_ISSUE if it can). */
static int check(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at)
{
    if (w->not_before > g->now) {
        if (w->not_before < *ready_at)
            *ready_at = w->not_before;
        return w->held;
    }
    exec_warp *xw = w->xw;
    int state = exec_warp_state(xw);
    if (state == EXEC_WARP_BARRIER)
        return TM_SLOT_BARRIER;
    if (state != EXEC_WARP_RUNNING)
        return TM_SLOT_IDLE;
    uint32_t pc = exec_warp_pc(xw);
    if (!w->regs_valid || w->regs_pc != pc) {
        const isa_inst *in = exec_warp_inst(xw);
        if (!in)
            return TM_SLOT_IDLE;
        exec_inst_regs(in, &w->regs);
        w->regs.inst = in;
        w->regs_pc = pc;
        w->regs_valid = true;
    }
    const exec_record *rec = &w->regs;
    const isa_inst *in = rec->inst;
    retire(w, g->now);
    const tm_pending *p = blocker(w, rec, g->now);
    if (p) {
        /* Held until that register is written; a load's return clears it. */
        w->not_before = p->ready;
        w->held = p->mem ? TM_SLOT_RAW_MEM : TM_SLOT_RAW;
        if (p->ready < *ready_at)
            *ready_at = p->ready;
        return w->held;
    }
    if (w->npend >= g->c.max_pending_writes) {
        *ready_at = g->now + g->core_ps;
        return TM_SLOT_RAW;
    }
    if (isa_ops[in->op].flags & ISA_F_MEM) {
        if (sm->lsu.busy || sm->lsu.free_at > g->now) {
            uint64_t t = sm->lsu.busy ? g->now + g->core_ps : sm->lsu.free_at;
            if (t < *ready_at)
                *ready_at = t;
            return TM_SLOT_MEM;
        }
        return TM_SLOT_ISSUE;
    }
    uint8_t fam = isa_ops[in->op].family;
    if (fam == ISA_FAM_INT || fam == ISA_FAM_FP) {
        uint8_t t = in->op == ISA_OP_CVT && in->type2 == ISA_TYPE_F64 ? ISA_TYPE_F64 : in->type;
        fam = t == ISA_TYPE_F64 ? ISA_FAM_DP : isa_types[t].kind == ISA_KIND_F ? ISA_FAM_FP : fam;
    }
    unit_choice u = unit_for(g, sm, in, fam);
    if (!free_pipe(&u, g->now)) {
        uint64_t t = earliest_pipe(&u);
        if (t < *ready_at)
            *ready_at = t;
        return TM_SLOT_STRUCT;
    }
    return TM_SLOT_ISSUE;
}

/* Issue warp w's next instruction. */
static void issue(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    exec_record rec;
    exec_cta_set_clock(w->cta->xc, g->now / g->core_ps);
    ptx_status st = exec_warp_step(w->xw, ~0u, g->xst, &rec, g->err);
    w->regs_valid = false;
    w->not_before = 0;
    if (st != PTX_OK) {
        g->fault = st;
        return;
    }
    g->st->warp_insts++;
    g->st->thread_insts += (uint64_t)__builtin_popcount(rec.issued);
    if (rec.ctl == PTX_CTL_BARRIER || rec.ctl == PTX_CTL_EXIT || rec.ctl == PTX_CTL_RET)
        w->cta->sync_needed = true;
    const isa_inst *in = rec.inst;
    if (rec.mem) {
        lsu_start(g, sm, w, &rec);
        return;
    }
    unit_choice u = unit_for(g, sm, in, rec.family);
    uint64_t *pipe = free_pipe(&u, g->now);
    if (pipe)
        *pipe = g->now + u.ii * g->core_ps;
    uint64_t ready = g->now + u.latency * g->core_ps;
    for (uint8_t k = 0; k < rec.ndst; k++)
        mark(w, rec.dst[k], ready, false);
}

/* The order a scheduler considers its warps in: fills order[] and returns
 * how many.  The scheduler's list is kept oldest first, so GTO needs no
 * sort: the last warp issued, then the list. */
static uint32_t candidates(tm_gpu *g, tm_sm *sm, uint32_t s, tm_warp **order)
{
    const tm_config *c = &g->c;
    tm_warp **list = sm->sched[s];
    uint32_t n = sm->nsched[s];
    if (!n)
        return 0;
    if (c->scheduler == TM_SCHED_GTO) {
        tm_warp *last = sm->last[s];
        uint32_t k = 0;
        if (last)
            order[k++] = last;
        for (uint32_t i = 0; i < n; i++)
            if (list[i] != last)
                order[k++] = list[i];
        return k;
    }
    /* Round robin from the warp after the last one issued; two-level limits
     * the rotation to an active window of the first two_level_active warps
     * that are not waiting on memory. */
    uint32_t start = sm->rr[s] % n;
    for (uint32_t i = 0; i < n; i++)
        order[i] = list[(start + i) % n];
    if (c->scheduler == TM_SCHED_TWO_LEVEL) {
        tm_warp *active[1024];
        uint32_t k = 0;
        for (uint32_t i = 0; i < n && k < c->two_level_active; i++)
            if (!order[i]->loads_in_flight)
                active[k++] = order[i];
        for (uint32_t i = 0; i < n && k < c->two_level_active; i++)
            if (order[i]->loads_in_flight)
                active[k++] = order[i];
        memcpy(order, active, k * sizeof *order);
        return k;
    }
    return n;
}

void tm_sm_cycle(tm_gpu *g, tm_sm *sm)
{
    const tm_config *c = &g->c;
    uint64_t now = g->now;
    sm->wake = TM_NEVER;
    lsu_cycle(g, sm);
    tm_sm_inject(g, sm);
    tm_warp *order[1024];
    for (uint32_t s = 0; s < c->n_schedulers && !g->fault; s++) {
        uint32_t n = candidates(g, sm, s, order);
        uint32_t issued = 0;
        int why = TM_SLOT_IDLE;
        uint64_t ready_at = TM_NEVER;
        for (uint32_t i = 0; i < n && issued < c->issue_width && !g->fault; i++) {
            tm_warp *w = order[i];
            int r = check(g, sm, w, &ready_at);
            if (r != TM_SLOT_ISSUE) {
                /* Charge the cycle to the most telling reason seen. */
                if (why == TM_SLOT_IDLE || (why == TM_SLOT_BARRIER && r != TM_SLOT_IDLE))
                    why = r;
                continue;
            }
            issue(g, sm, w);
            issued++;
            sm->last[s] = w;
            sm->rr[s] = (sm->rr[s] + i + 1) % n;
        }
        sm->why[s] = issued ? TM_SLOT_ISSUE : why;
        if (issued) {
            g->st->slots[TM_SLOT_ISSUE]++;
            sm->wake = now + g->core_ps;
        } else {
            g->st->slots[why]++;
            if (ready_at < sm->wake)
                sm->wake = ready_at > now ? ready_at : now + g->core_ps;
        }
    }
    if (sm->lsu.busy || sm->missq)
        if (sm->wake > now + g->core_ps)
            sm->wake = now + g->core_ps;
}

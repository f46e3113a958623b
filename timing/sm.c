/*
 * sm.c -- one streaming multiprocessor: warp schedulers, the scoreboard,
 * collector units and the functional units.  The memory stage is lsu.c.
 *
 * Each cycle:
 *   1. the memory stage works on its instruction (lsu.c);
 *   2. collector units whose operands are read dispatch, oldest first, to a
 *      free pipeline (or to the memory stage, if it is free);
 *   3. every scheduler looks at its warps (warp slot % n_schedulers) in its
 *      policy's order and issues the first whose next instruction has no
 *      outstanding register dependence (RAW on a source, WAW on a
 *      destination), whose functional unit could take it, and for which a
 *      collector unit is free.  A warp with a squashed memory instruction
 *      waiting presents that first (the oldest: forward progress).
 * exec/ executes an instruction when it first issues; the model then keeps
 * its destination registers busy until the unit's latency has passed, or,
 * for a load, until its memory transactions return.  A scheduler cycle
 * without an issue is charged to the reason that held back its warps.
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

/* The pending entry that blocks rec's instruction for `lanes`, or NULL:
 * one of its registers, written for some of them. */
static const tm_pending *blocker(const tm_gpu *g, const tm_warp *w, const exec_record *rec, uint32_t lanes)
{
    for (uint32_t i = 0; i < w->npend; i++) {
        const tm_pending *p = &w->pend[i];
        if (p->ready <= w->cta->sm->now || !(p->lanes & lanes))
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

/* The lanes whose pending writes the warp's next instruction waits for:
 * all, as a warp's scoreboard is kept, or its running lanes
 * (dom_lane_scoreboard). */
static uint32_t running_lanes(const tm_gpu *g, const tm_warp *w)
{
    return g->c.dom_lane_scoreboard == TM_DOM_ON ? exec_warp_active(w->xw) : ~0u;
}

void tm_sm_look_all(tm_sm *sm)
{
    for (uint32_t s = 0; s < sm->nschedulers; s++)
        sm->look_at[s] = 0;
    for (uint32_t i = 0; i < sm->nslots; i++)      /* a barrier may have released these */
        if (sm->slots[i] && sm->slots[i]->held == TM_SLOT_BARRIER && sm->slots[i]->not_before == TM_NEVER)
            sm->slots[i]->not_before = 0;
}

void tm_sm_look_warp(tm_warp *w)
{
    tm_sm *sm = w->cta->sm;
    sm->look_at[w->slot % sm->nschedulers] = 0;
}

void tm_mark(tm_warp *w, uint16_t key, uint32_t lanes, uint64_t ready, bool mem)
{
    tm_sm_look_warp(w);         /* a register changed: its scheduler looks again */
    for (uint32_t i = 0; i < w->npend; i++) {
        tm_pending *p = &w->pend[i];
        /* (Other lanes' write of it is an entry of its own.) */
        if ((p->reg | (p->pred ? EXEC_REG_PRED : 0)) == key && (p->lanes & lanes)) {
            p->lanes = lanes;
            p->ready = ready;
            p->mem = mem;
            w->not_before = 0;      /* whoever waited on it may go sooner */
            return;
        }
    }
    if (w->npend == sizeof w->pend / sizeof w->pend[0])
        return;
    w->pend[w->npend++] = (tm_pending){ (uint16_t)(key & ~EXEC_REG_PRED), (key & EXEC_REG_PRED) != 0, mem, lanes, ready };
}

/* ---- functional units ------------------------------------------------------------- */

/* The pipelines, latency and issue interval of an instruction of latency
 * class lat (isa_inst_lat). */
static tm_unit unit_for(const tm_gpu *g, tm_sm *sm, const isa_inst *in, uint8_t lat)
{
    const tm_config *c = &g->c;
    tm_unit u = { sm->sp_free, (uint32_t)c->n_sp, c->lat_int, c->ii_int, OC_ALU };
    switch (lat) {
    case ISA_LAT_IMUL:
        u.latency = c->lat_imul;
        break;
    case ISA_LAT_IDIV:
        u.latency = c->lat_idiv;
        u.ii = c->ii_idiv;
        break;
    case ISA_LAT_FP:
    case ISA_LAT_FDIV:
        u.latency = lat == ISA_LAT_FDIV ? c->lat_fdiv : c->lat_fp;
        u.ii = c->ii_fp;
        break;
    case ISA_LAT_DP:
        u = (tm_unit){ sm->dp_free, (uint32_t)c->n_dp, c->lat_dp, c->ii_dp, OC_ALU };
        break;
    case ISA_LAT_SFU:
        u = (tm_unit){ sm->sfu_free, (uint32_t)c->n_sfu, c->lat_sfu, c->ii_sfu, OC_SFU };
        break;
    case ISA_LAT_TENSOR: {
        /* A pipeline is busy for the multiply-adds the shape needs at the
         * type's rate; the result comes after the latency, or after the
         * busy time when that is longer. */
        unsigned m, n, k;
        isa_shape_dims(in->shape, &m, &n, &k);
        uint64_t work = (uint64_t)m * n * k * 2;        /* in half f16 multiply-adds */
        switch (in->type2) {
        case ISA_TYPE_TF32: work *= 2; break;
        case ISA_TYPE_S8: case ISA_TYPE_U8: case ISA_TYPE_E4M3: case ISA_TYPE_E5M2: work /= 2; break;
        case ISA_TYPE_F64: work *= 16; break;
        default: break;
        }
        uint64_t ii = (work + 2 * (uint64_t)c->tensor_fma - 1) / (2 * (uint64_t)c->tensor_fma);
        u = (tm_unit){ sm->tensor_free, (uint32_t)c->n_tensor, ii > c->lat_tensor ? ii : c->lat_tensor,
                       ii ? ii : 1, OC_ALU };
        break;
    }
    default:                    /* ALU */
        break;
    }
    return u;
}

static uint64_t *free_pipe(const tm_unit *u, uint64_t now)
{
    for (uint32_t i = 0; i < u->n; i++)
        if (u->free[i] <= now)
            return &u->free[i];
    return NULL;
}

static uint64_t earliest_pipe(const tm_unit *u)
{
    uint64_t t = TM_NEVER;
    for (uint32_t i = 0; i < u->n; i++)
        if (u->free[i] < t)
            t = u->free[i];
    return t;
}

/* ---- collector units ------------------------------------------------------------------ */

static uint32_t oc_limit(const tm_config *c, uint8_t cls)
{
    if (c->opcoll == TM_OC_GENERIC)
        return (uint32_t)c->opcoll_slots;
    return (uint32_t)(cls == OC_ALU ? c->opcoll_alu : cls == OC_SFU ? c->opcoll_sfu : c->opcoll_mem);
}

/* How many more instructions of a class the collector units can take (the
 * SM counts its busy units by class, so the schedulers ask this of every
 * candidate without a walk over the units). */
static uint32_t oc_units(const tm_gpu *g, const tm_sm *sm, uint8_t cls)
{
    uint32_t used = g->c.opcoll == TM_OC_GENERIC ? sm->oc_busy : sm->oc_busy_cls[cls];
    uint32_t limit = oc_limit(&g->c, cls), by_class = used < limit ? limit - used : 0;
    uint32_t free = sm->noc - sm->oc_busy;
    return by_class < free ? by_class : free;
}

/* The ports from the schedulers into the units of a class take so many
 * instructions a cycle, whichever scheduler issues them: is one left? */
static bool oc_port(const tm_gpu *g, const tm_sm *sm, uint8_t cls)
{
    uint32_t ports = (uint32_t)(cls == OC_ALU ? g->c.oc_ports_alu : cls == OC_SFU ? g->c.oc_ports_sfu
                                                                                   : g->c.oc_ports_mem);
    return !ports || sm->oc_in[cls] < ports;
}

/* How many more the units can take now. */
static uint32_t oc_room(const tm_gpu *g, const tm_sm *sm, uint8_t cls)
{
    return oc_port(g, sm, cls) ? oc_units(g, sm, cls) : 0;
}

/* A candidate finds no room in the units of a class: when its port is
 * what is used up, that ends next cycle, and the scheduler must look
 * again then; full units wait for a dispatch (oc_waiting). */
static int oc_stall(const tm_gpu *g, tm_sm *sm, uint8_t cls)
{
    if (!oc_port(g, sm, cls))
        sm->stall_retry = true;
    return TM_SLOT_STALL;
}

static tm_oc *oc_free_slot(const tm_gpu *g, tm_sm *sm, uint8_t cls)
{
    if (!oc_room(g, sm, cls))
        return NULL;
    for (uint32_t i = 0; i < sm->noc; i++)
        if (!sm->oc[i].used)
            return &sm->oc[i];
    return NULL;
}

/* Cycles to read the source registers: the register file's banks serve one
 * read each per cycle; the same register of different warps sits in
 * different banks (bank = register + warp slot). */
static uint64_t operand_cycles(const tm_gpu *g, const tm_warp *w, const exec_record *rec)
{
    uint32_t nb = (uint32_t)g->c.rf_banks, bank[EXEC_MAX_SRC], n = 0, worst = 1;
    for (uint8_t k = 0; k < rec->nsrc; k++) {
        if (rec->src[k] & EXEC_REG_PRED)
            continue;
        uint32_t b = (rec->src[k] + w->slot) % nb, same = 1;
        for (uint32_t j = 0; j < n; j++)
            same += bank[j] == b;
        bank[n++] = b;
        if (same > worst)
            worst = same;
    }
    return worst;
}

/* The schedulers in mask look at their warps again. */
static void look_again(tm_sm *sm, uint32_t mask)
{
    sm->oc_waiting &= ~mask;
    sm->unit_waiting &= ~mask;
    for (uint32_t s = 0; mask; s++, mask >>= 1)
        if (mask & 1)
            sm->look_at[s] = 0;
}

/* Move collector units whose operands are read to their units. */
static void dispatch(tm_gpu *g, tm_sm *sm)
{
    for (;;) {
        tm_oc *best = NULL;
        for (uint32_t i = 0; i < sm->noc; i++) {
            tm_oc *o = &sm->oc[i];
            if (!o->used || o->ready > sm->now)
                continue;
            if (o->cls == OC_MEM && sm->lsu)
                continue;
            if (o->cls != OC_MEM && !free_pipe(&o->unit, sm->now))
                continue;
            /* Oldest first, the warps' own before mechanisms' (P-mode). */
            if (!best || (!o->by == !best->by ? o->seq < best->seq : !o->by))
                best = o;
        }
        if (!best)
            return;
        if (best->cls == OC_MEM) {
            sm->lsu = best->minst;
            tm_lsu_begin(g, sm, best->minst);
        } else {
            const tm_unit *u = &best->unit;
            uint64_t *pipe = free_pipe(u, sm->now);
            *pipe = sm->now + u->ii * g->core_ps;
            /* The latency counts from issue: the cycle spent reading operands
             * in the collector is part of it; bank conflicts add to it. */
            uint64_t ready = sm->now + (u->latency - 1) * g->core_ps;
            if (best->by)
                best->by->written(g, best, ready);
            else
                for (uint8_t k = 0; k < best->ndst; k++)
                    tm_mark(best->warp, best->dst[k], best->lanes, ready, false);
        }
        best->used = false;
        sm->oc_busy--;
        sm->oc_busy_cls[best->cls]--;
        look_again(sm, sm->oc_waiting | sm->unit_waiting);    /* room for the warps that waited on it */
    }
}

/* ---- issue ------------------------------------------------------------------------------- */

/* An instruction a mechanism holds for w to issue before its next one
 * (replay: a squashed memory instruction), or NULL.  Such instructions sit
 * in the warp's instruction buffer: an empty one holds none, and the
 * schedulers' common case costs one test. */
static tm_minst *held_instruction(tm_gpu *g, tm_warp *w)
{
    if (!w->nretained)
        return NULL;
    TM_EACH(g, held, mech) {
        tm_minst *m = (*mech)->held(g, w);
        if (m)
            return m;
    }
    return NULL;
}

/* Whether a collector unit of the instruction's class is free and its
 * pipeline can take it next cycle: TM_SLOT_ISSUE, else why not. */
static int unit_ready(tm_gpu *g, tm_sm *sm, const isa_inst *in, uint8_t lat, uint64_t *ready_at)
{
    tm_unit u = unit_for(g, sm, in, lat);
    if (!oc_room(g, sm, u.cls))
        return oc_stall(g, sm, u.cls);
    uint64_t t = earliest_pipe(&u);
    if (t > sm->now + g->core_ps) {
        /* It can issue the cycle before the pipeline frees. */
        if (ready_at && t - g->core_ps < *ready_at)
            *ready_at = t - g->core_ps;
        return TM_SLOT_STRUCT;
    }
    return TM_SLOT_ISSUE;
}

/* A mechanism uses a collector unit only while another of its kind stays
 * free for the warps' own instructions: pre-execution must not hold back
 * the warps it runs beside. */
bool tm_sm_can_collect(tm_gpu *g, tm_sm *sm, uint8_t cls)
{
    return oc_port(g, sm, cls) && oc_units(g, sm, cls) >= 2;
}

int tm_sm_unit_free(tm_gpu *g, tm_sm *sm, const isa_inst *in, uint64_t *ready_at)
{
    uint8_t lat = isa_inst_lat(in);
    if (unit_ready(g, sm, in, lat, ready_at) != TM_SLOT_ISSUE)
        return -1;
    uint8_t cls = unit_for(g, sm, in, lat).cls;
    return tm_sm_can_collect(g, sm, cls) ? cls : -1;
}

/* cp.async.wait_group N: whether a group committed before the newest N
 * still has copies in flight; cp.async.wait_all: whether any copy does,
 * the uncommitted ones included. */
static bool async_waiting(const tm_warp *w, const isa_inst *in)
{
    bool all = in->mode == ISA_MODE_WAIT_ALL;
    uint32_t end = w->async_committed + all, newest = all || in->opd[0].kind != ISA_OPD_IMM ? 0 : (uint32_t)in->opd[0].imm;
    for (uint32_t k = newest; k < TM_ASYNC_GROUPS && k < end; k++)
        if (w->async_pending[(end - 1 - k) % TM_ASYNC_GROUPS])
            return true;
    return false;
}

/* wgmma.wait_group N: when the groups committed before the newest N are
 * all done (0: they are, or there are none). */
static uint64_t wgmma_pending_until(const tm_warp *w, const isa_inst *in)
{
    uint32_t newest = in->nopd && in->opd[0].kind == ISA_OPD_IMM ? (uint32_t)in->opd[0].imm : 0, end = w->wgmma_committed;
    uint64_t until = 0;
    for (uint32_t k = newest; k < TM_ASYNC_GROUPS && k < end; k++) {
        uint64_t t = w->wgmma_done[(end - 1 - k) % TM_ASYNC_GROUPS];
        until = t > until ? t : until;
    }
    return until;
}

/* Decode the warp's next instruction's registers into w->regs, unless they
 * are (they stay valid until the warp issues: issue() clears regs_valid,
 * and nothing else moves its pc but a mechanism, which clears it too).
 * False when the warp has no next instruction. */
static bool decode(tm_warp *w)
{
    if (w->regs_valid)
        return true;
    exec_warp *xw = w->xw;
    const isa_inst *in = exec_warp_inst(xw);
    if (!in)
        return false;
    exec_inst_regs(xw, in, &w->regs);
    w->regs.inst = in;
    w->regs.lat = isa_inst_lat(in);
    w->regs_pc = exec_warp_pc(xw);
    w->regs_valid = true;
    return true;
}

/* The pending write that holds the warp's next instruction back for
 * `lanes`, or NULL (decoding the instruction if need be). */
static const tm_pending *next_blocker(tm_gpu *g, tm_warp *w, uint32_t lanes)
{
    if (!decode(w))
        return NULL;
    retire(w, w->cta->sm->now);
    return blocker(g, w, &w->regs, lanes);
}

bool tm_warp_waits_on_load(tm_gpu *g, tm_warp *w)
{
    const tm_pending *p = next_blocker(g, w, running_lanes(g, w));
    return p && p->mem;
}

bool tm_lanes_wait(tm_gpu *g, tm_warp *w, uint32_t lanes) { return next_blocker(g, w, lanes) != NULL; }

/* Why the core holds the warp's next instruction back -- a register, the
 * warp's state, its lanes (before_decode hooks), fetch, the scoreboard, a
 * cp.async wait -- or TM_SLOT_ISSUE if nothing does. */
static int held_back(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at)
{
    const tm_config *c = &g->c;
    if (w->not_before > sm->now) {
        if (w->not_before < *ready_at)
            *ready_at = w->not_before;
        return w->held;
    }
    exec_warp *xw = w->xw;
    int state = exec_warp_state(xw);
    if (state != EXEC_WARP_RUNNING) {
        /* Nothing it does changes that: it is passed over until a barrier
         * release (tm_sm_look_all), or for good once it has finished.  (A
         * cluster barrier can be released by another SM's warp: looked at
         * every time.) */
        w->held = state == EXEC_WARP_BARRIER ? TM_SLOT_BARRIER : TM_SLOT_IDLE;
        if (state == EXEC_WARP_DONE || !w->cta->cl_next)
            w->not_before = TM_NEVER;
        return w->held;
    }
    TM_EACH(g, before_decode, mech) {
        int why = (*mech)->before_decode(g, sm, w, ready_at);
        if (why != TM_MECH_PASS)
            return why;
    }
    if (!decode(w))
        return TM_SLOT_IDLE;
    if (sm->l1i.sets) {
        uint64_t line = tm_code_line(g, sm, w->regs_pc);
        if (w->fetched != line + 1 && !tm_fetch(g, sm, w, line, ready_at))
            return w->held;
    }
    const exec_record *rec = &w->regs;
    retire(w, sm->now);
    const tm_pending *p = blocker(g, w, rec, running_lanes(g, w));
    TM_EACH(g, registers, mech)
        (*mech)->registers(g, sm, w, p);
    if (p) {
        /* Held until that register is written; a load's return clears it. */
        w->not_before = p->ready;
        w->held = p->mem ? TM_SLOT_RAW_MEM : TM_SLOT_RAW;
        if (p->ready < *ready_at)
            *ready_at = p->ready;
        return w->held;
    }
    if (w->npend >= c->max_pending_writes) {
        *ready_at = sm->now + g->core_ps;
        return TM_SLOT_RAW;
    }
    uint64_t wg_done = isa_wgmma_waits(rec->inst) ? wgmma_pending_until(w, rec->inst) : 0;
    if (wg_done > sm->now) {
        w->not_before = wg_done;        /* the older groups' multiplies are done then */
        w->held = TM_SLOT_RAW;
        if (wg_done < *ready_at)
            *ready_at = wg_done;
        return w->held;
    }
    if (isa_cp_waits(rec->inst) && async_waiting(w, rec->inst)) {
        w->not_before = TM_NEVER;       /* until a copy completes (tm_load_complete) */
        w->held = TM_SLOT_RAW_MEM;
        return w->held;
    }
    return TM_SLOT_ISSUE;
}

bool tm_inst_wants_mshr(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    return (fl & ISA_F_LOAD) && !(fl & ISA_F_ATOMIC) && isa_op_lane_access(in->op) &&
           (in->space == ISA_SPACE_GLOBAL || in->space == ISA_SPACE_LOCAL || in->space == ISA_SPACE_GENERIC);
}

/* ... and a memory instruction already issued, whose accesses are known. */
static bool minst_wants_mshr(const tm_minst *m)
{
    return m->global && !m->ro && !m->preload && !m->rec.access.store;
}

/* The instruction a candidate warp would issue: one a mechanism holds for
 * it (`again`), else its next. */
static bool candidate_wants_mshr(const tm_warp *w, const tm_minst *again)
{
    return again ? minst_wants_mshr(again) : tm_inst_wants_mshr(w->regs.inst);
}

/* Why a candidate warp cannot issue now (TM_SLOT_ISSUE if it can).  The
 * instruction is one a mechanism holds for it (`again`), else its next
 * one (w->regs); the last word is a collector unit for a memory
 * instruction, the mechanisms, then a functional unit for the others. */
static int check(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at)
{
    tm_minst *again = held_instruction(g, w);
    if (!again) {
        int why = held_back(g, sm, w, ready_at);
        if (why != TM_SLOT_ISSUE)
            return why;
    }
    bool mem = again || (isa_ops[w->regs.inst->op].flags & ISA_F_MEM);
    if (mem && !oc_room(g, sm, OC_MEM)) {
        sm->load_held = sm->load_held || candidate_wants_mshr(w, again);
        return oc_stall(g, sm, OC_MEM);
    }
    TM_EACH(g, can_issue, mech) {
        int why = (*mech)->can_issue(g, sm, w, again, ready_at);
        if (why != TM_MECH_PASS) {
            sm->load_held = sm->load_held || (mem && candidate_wants_mshr(w, again));
            sm->stall_retry = true;     /* when it ends is the mechanism's business */
            return why;
        }
    }
    return mem ? TM_SLOT_ISSUE : unit_ready(g, sm, w->regs.inst, w->regs.lat, ready_at);
}

tm_oc *tm_sm_collect(tm_gpu *g, tm_sm *sm, tm_warp *w, uint8_t cls, const exec_record *rec, tm_minst *m)
{
    tm_oc *o = oc_free_slot(g, sm, cls);
    if (sm->unit_waiting)           /* a warp that waited on a pipeline may find its unit full */
        look_again(sm, sm->unit_waiting);
    o->used = true;
    sm->oc_busy++;
    sm->oc_busy_cls[cls]++;
    sm->oc_in[cls]++;
    o->by = NULL;
    o->cookie = 0;
    o->cls = cls;
    o->seq = sm->oc_seq++;
    o->warp = w;
    o->minst = m;
    if (rec) {
        o->unit = unit_for(g, sm, rec->inst, rec->lat);
        o->ndst = rec->ndst;
        memcpy(o->dst, rec->dst, rec->ndst * sizeof *rec->dst);
        o->lanes = tm_write_lanes(g, rec);
    }
    o->ready = sm->now + operand_cycles(g, w, rec ? rec : &m->rec) * g->core_ps;
    if (sm->wake > o->ready)
        sm->wake = o->ready;
    return o;
}

/* How long a warp whose mbarrier wait failed stays out of a throttled
 * scheduler's active set, letting the warps it waits for in. */
#define TM_YIELD_CYCLES 32

/* Issue warp w's next instruction (or one a mechanism holds for it). */
static void issue(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    tm_minst *again = held_instruction(g, w);
    if (again) {
        TM_EACH(g, mem_issue, mech)
            (*mech)->mem_issue(g, sm, w, again, true);
        tm_sm_collect(g, sm, w, OC_MEM, NULL, again);
        return;
    }
    if (g->step_insts >= g->budget) {
        exec_warp_error(w->xw, PTX_E_HANG, sm->err);
        sm->fault = PTX_E_HANG;
        return;
    }
    exec_record rec;
    exec_cta_set_clock(w->cta->xc, sm->now / g->core_ps);
    TM_EACH(g, before_step, mech)
        (*mech)->before_step(g, sm, w);
    ptx_status st = exec_warp_step(w->xw, ~0u, sm->xst, &rec, sm->err);
    w->regs_valid = false;
    w->not_before = 0;
    if (st != PTX_OK) {
        sm->fault = st;
        return;
    }
    sm->st->warp_insts++;
    sm->st->thread_insts += (uint64_t)__builtin_popcount(rec.issued);
    sm->thread_insts += (uint64_t)__builtin_popcount(rec.issued);
    if (rec.ctl == PTX_CTL_YIELD)
        w->yielded_until = sm->now + TM_YIELD_CYCLES * g->core_ps;
    /* A failed mbarrier wait too: the CTA may be stuck (exec_cta_sync). */
    if (rec.ctl == PTX_CTL_BARRIER || rec.ctl == PTX_CTL_EXIT || rec.ctl == PTX_CTL_RET ||
        rec.ctl == PTX_CTL_YIELD) {
        w->cta->sync_needed = sm->cta_look = true;
        if (w->cta->cl_next)
            tm_cluster_wake(g, w->cta);
    }
    if (exec_warp_state(w->xw) == EXEC_WARP_DONE)
        w->cta->maybe_done = sm->cta_look = true;
    if (isa_cp_commits(rec.inst))
        w->async_committed++;           /* wait_all commits the open group too */
    if (isa_wgmma_commits(rec.inst)) {
        w->wgmma_done[w->wgmma_committed++ % TM_ASYNC_GROUPS] = w->wgmma_open_done;
        w->wgmma_open_done = 0;
    }
    if (rec.mem) {
        sm->st->nmode_global_loads += rec.access.space == ISA_SPACE_GLOBAL && !rec.access.store;
        tm_minst *m = tm_minst_new(g, sm, w, &rec);
        if (m) {
            TM_EACH(g, mem_issue, mech)
                (*mech)->mem_issue(g, sm, w, m, false);
            tm_sm_collect(g, sm, w, OC_MEM, NULL, m);
        }
        return;
    }
    sm->st->nmode_short++;
    TM_EACH(g, reuse, mech)
        if ((*mech)->reuse(g, sm, w, &rec))
            return;
    tm_unit u = unit_for(g, sm, rec.inst, rec.lat);
    if (isa_wgmma_multiplies(rec.inst)) {
        /* Its result is due a latency from now (the collector's wait aside). */
        uint64_t done = sm->now + u.latency * g->core_ps;
        w->wgmma_open_done = done > w->wgmma_open_done ? done : w->wgmma_open_done;
    }
    tm_sm_collect(g, sm, w, u.cls, &rec, NULL);
    /* Destinations are busy from now on; the unit's latency is added when
     * the instruction leaves its collector. */
    for (uint8_t k = 0; k < rec.ndst; k++)
        tm_mark(w, rec.dst[k], tm_write_lanes(g, &rec), TM_NEVER, false);
}

/* The order a scheduler considers its warps in: fills order[] and returns
 * how many; next_rr[i] is where round robin starts after order[i] issues
 * (GTO leaves it unset).
 * The scheduler's list is kept oldest first, so GTO needs no sort: the last
 * warp issued, then the list. */
static uint32_t candidates(tm_gpu *g, tm_sm *sm, uint32_t s, tm_warp **order, uint32_t *next_rr, uint64_t *ready_at)
{
    const tm_config *c = &g->c;
    tm_warp **list = sm->sched[s];
    uint32_t n = sm->nsched[s];
    if (!n)
        return 0;
    tm_warp **limited = sm->limited;
    if (sm->warp_limit && sm->warp_limit < n) {
        /* Throttling: only the oldest warp_limit running warps may issue.
         * Warps waiting at a barrier (or finished) do not count, so the ones
         * a barrier waits for can always get in: it never deadlocks.  Nor,
         * for a while, does a warp whose mbarrier wait just failed: it
         * spins until another warp arrives, which needs its turn. */
        uint32_t k = 0, active = 0;
        for (uint32_t i = 0; i < n && active < sm->warp_limit; i++) {
            if (exec_warp_state(list[i]->xw) != EXEC_WARP_RUNNING)
                continue;
            if (list[i]->yielded_until > sm->now) {
                if (list[i]->yielded_until < *ready_at)
                    *ready_at = list[i]->yielded_until;
                continue;
            }
            limited[k++] = list[i];
            active++;
        }
        list = limited;
        n = k;
        if (!n)
            return 0;
    }
    if (c->scheduler == TM_SCHED_GTO) {     /* it does not rotate: next_rr is not read */
        tm_warp *last = sm->last[s];
        uint32_t at = n;                    /* where the last warp issued stands in the list */
        for (uint32_t i = 0; i < n && last && at == n; i++)
            if (list[i] == last)
                at = i;
        if (at == n) {
            memcpy(order, list, n * sizeof *order);
            return n;
        }
        order[0] = last;
        memcpy(order + 1, list, at * sizeof *order);
        memcpy(order + 1 + at, list + at + 1, (n - at - 1) * sizeof *order);
        return n;
    }
    /* Round robin from the warp after the last one issued; two-level limits
     * the rotation to an active window of the first two_level_active warps
     * that are not waiting on memory. */
    uint32_t start = sm->rr[s] % n;
    if (c->scheduler != TM_SCHED_TWO_LEVEL) {
        for (uint32_t i = 0; i < n; i++) {
            order[i] = list[(start + i) % n];
            next_rr[i] = (start + i + 1) % n;
        }
        return n;
    }
    /* Two-level: the active set is the first two_level_active warps in
     * rotation that can make progress (running, not waiting on memory);
     * the others follow, so that when no active warp can issue one of them
     * does -- a pending warp promoted as active ones wait.  A warp that
     * cannot issue never holds back one that can: the window cannot
     * livelock. */
    uint32_t k = 0, nactive = 0;
    bool *taken = sm->taken;
    memset(taken, 0, n * sizeof *taken);
    for (uint32_t i = 0; i < n && nactive < c->two_level_active; i++) {
        tm_warp *w = list[(start + i) % n];
        if (!w->loads_in_flight && !w->nretained && exec_warp_state(w->xw) == EXEC_WARP_RUNNING) {
            taken[i] = true;
            order[k] = w;
            next_rr[k++] = (start + i + 1) % n;
            nactive++;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (!taken[i]) {
            order[k] = list[(start + i) % n];
            next_rr[k++] = (start + i + 1) % n;
        }
    return k;
}

static bool schedule(tm_gpu *g, tm_sm *sm, uint64_t now, bool quiet);

/* Rank of a reason for charging a cycle: the closest to issuing wins. */
static int rank(int why)
{
    switch (why) {
    case TM_SLOT_RESTRICT: return 7;
    case TM_SLOT_STALL: return 6;
    case TM_SLOT_STRUCT: return 5;
    case TM_SLOT_RAW: return 4;
    case TM_SLOT_RAW_MEM: return 3;
    case TM_SLOT_FETCH: return 2;
    case TM_SLOT_BARRIER: return 1;
    default: return 0;
    }
}

void tm_sm_charge(tm_gpu *g, tm_sm *sm, uint64_t upto)
{
    if (sm->nctas && upto > sm->charged) {
        uint64_t n = (upto - sm->charged) / g->core_ps;
        for (uint32_t s = 0; s < g->c.n_schedulers; s++) {
            sm->st->slots[sm->why[s]] += n;
            if (sm->why[s] == TM_SLOT_RAW_MEM)
                sm->mem_wait_slots += n;
        }
        if (sm->mshr_opportunity)
            sm->st->mshr_opportunity_cycles += n;
    }
    if (upto > sm->charged)
        sm->charged = upto;
}

/* Turner's MSHR opportunity (thesis Fig 7.12): an L1D MSHR is free while a
 * load that needs one waits to issue (held back by a full pipeline or by
 * hazard prediction) or is in the memory pipeline (a collector unit or the
 * memory stage).  Found at the SM's cycles; it holds while the SM sleeps. */
static bool mshr_opportunity(const tm_sm *sm)
{
    if (sm->l1.mshr_used >= sm->l1.nmshr)
        return false;
    if (sm->load_held || (sm->lsu && minst_wants_mshr(sm->lsu)))
        return true;
    for (uint32_t i = 0; i < sm->noc && sm->oc_busy_cls[OC_MEM]; i++) {
        const tm_oc *o = &sm->oc[i];
        if (o->used && o->cls == OC_MEM && o->minst && minst_wants_mshr(o->minst))
            return true;
    }
    return false;
}

static void end_cycle(tm_gpu *g, tm_sm *sm);

void tm_sm_cycle(tm_gpu *g, tm_sm *sm)
{
    uint64_t now = sm->now;
    /* The cycles it slept through, for the reasons it last found. */
    tm_sm_charge(g, sm, now);
    sm->wake = TM_NEVER;
    tm_lsu_cycle(g, sm);
    dispatch(g, sm);
    tm_sm_inject(g, sm);
    /* While a scheduler's warps wait only on time -- a register ready at a
     * known cycle, a load, a barrier -- and nothing they wait on has changed
     * (whatever changes one resets its look_at), looking at them again would
     * charge the same reason: schedule() charges it without looking.  Some
     * mechanisms (tm_mech.always_look) need the schedulers to look always. */
    sm->load_held = false;
    memset(sm->oc_in, 0, sizeof sm->oc_in);
    if (schedule(g, sm, now, g->quiet))
        end_cycle(g, sm);
}

void tm_sm_resume(tm_gpu *g, tm_sm *sm)
{
    if (schedule(g, sm, sm->now, g->quiet))
        end_cycle(g, sm);
}

/* The cycle's last part, once every scheduler has had its turn. */
static void end_cycle(tm_gpu *g, tm_sm *sm)
{
    uint64_t now = sm->now;
    sm->mshr_opportunity = mshr_opportunity(sm);
    tm_sm_charge(g, sm, now + g->core_ps);     /* this cycle, for what was found now */
    for (uint32_t i = 0; i < sm->noc; i++)
        if (sm->oc[i].used) {
            uint64_t t = sm->oc[i].ready > now ? sm->oc[i].ready : now + g->core_ps;
            if (t < sm->wake)
                sm->wake = t;
        }
    if ((sm->lsu || sm->missq) && sm->wake > now + g->core_ps)
        sm->wake = now + g->core_ps;
}

/* Stepping in parallel, whether the cycle stops before w's next
 * instruction: one that reaches beyond the SM's CTAs runs in SM order --
 * but for a store the SM's log takes in a window, and for a read of what
 * it logged, which stops too (stores.c). */
static bool must_wait(const tm_sm *sm, const tm_warp *w)
{
    if (sm->ordered)
        return false;
    if (!exec_inst_private(w->xw, w->regs.inst))
        return !(sm->logging && exec_inst_logged(w->regs.inst));
    return sm->logging && tm_log_read(sm, w);
}

/* Every scheduler picks what to issue this cycle, and notes in look_at the
 * earliest time it could see something new if it issued nothing.  False
 * when the SM stopped before an instruction it must issue in SM order
 * (must_wait): sm->park says where, and the next call, ordered, goes on
 * from there, as if the cycle had not stopped. */
static bool schedule(tm_gpu *g, tm_sm *sm, uint64_t now, bool quiet)
{
    const tm_config *c = &g->c;
    tm_park *p = &sm->park;
    tm_warp *w = NULL;
    uint32_t s = 0;
    if (sm->parked) {
        sm->parked = false;
        s = p->s;
        w = sm->order[p->i];
        if (p->second)
            goto issue_second;
        goto issue_first;
    }
    for (; s < c->n_schedulers && !sm->fault; s++) {
        /* Nothing this scheduler's warps wait on changed: it keeps its reason. */
        if (quiet && now < sm->look_at[s]) {
            if (sm->look_at[s] < sm->wake)
                sm->wake = sm->look_at[s];
            if ((sm->oc_waiting | sm->unit_waiting) & (1u << s))
                sm->load_held = sm->load_held || sm->waiting_load_held[s];
            continue;
        }
        sm->oc_waiting &= ~(1u << s);
        sm->unit_waiting &= ~(1u << s);
        sm->stall_retry = false;
        *p = (tm_park){ .s = s, .why = TM_SLOT_IDLE, .ready_at = TM_NEVER, .load_held = sm->load_held };
        sm->load_held = false;
        p->n = candidates(g, sm, s, sm->order, sm->next_rr, &p->ready_at);
        for (uint32_t i = 0; i < p->n && i < 2; i++)
            __builtin_prefetch(sm->order[i]);
        for (p->i = 0; p->i < p->n && p->issued < c->issue_width && !sm->fault; p->i++) {
            w = sm->order[p->i];
            /* A warp's first line is all most checks read, and it is rarely
             * in the host's cache after a cycle of the other SMs: ask for
             * the one after next while this one is looked at. */
            if (p->i + 2 < p->n)
                __builtin_prefetch(sm->order[p->i + 2]);
            int r = check(g, sm, w, &p->ready_at);
            if (r != TM_SLOT_ISSUE) {
                if (rank(r) > rank(p->why))
                    p->why = r;
                continue;
            }
            if (must_wait(sm, w)) {
                p->second = false;
                return !(sm->parked = true);
            }
        issue_first:
            issue(g, sm, w);
            p->issued++;
            sm->last[s] = w;
            if (c->scheduler != TM_SCHED_GTO)
                sm->rr[s] = sm->next_rr[p->i];
            /* A second issue slot goes to the same warp first (greedy), and
             * with issue_more=same_warp only to it. */
            if (p->issued < c->issue_width && check(g, sm, w, &p->ready_at) == TM_SLOT_ISSUE) {
                if (must_wait(sm, w)) {
                    p->second = true;
                    return !(sm->parked = true);
                }
            issue_second:
                issue(g, sm, w);
                p->issued++;
            }
            if (c->issue_more == TM_MORE_SAME_WARP)
                break;
        }
        uint32_t issued = p->issued;
        int why = p->why;
        uint64_t ready_at = p->ready_at;
        bool held_load = sm->load_held;
        sm->load_held = held_load || p->load_held;
        /* No warp could issue: a mechanism may use the slot (P-mode). */
        TM_EACH(g, idle, mech) {
            if (issued || sm->fault)
                break;
            int pre = (*mech)->idle(g, sm, s);
            if (pre >= 0 && sm->wake > now + g->core_ps)
                sm->wake = now + g->core_ps;
            if (pre == 1) {
                why = TM_SLOT_PRE;
                break;
            }
        }
        sm->why[s] = issued > 1 ? TM_SLOT_ISSUE2 : issued ? TM_SLOT_ISSUE : why;
        if (issued) {
            sm->wake = now + g->core_ps;
        } else if ((why == TM_SLOT_STALL || why == TM_SLOT_STRUCT) && !sm->stall_retry && quiet) {
            /* Its warps wait on full collector units, busy pipelines or
             * time: looked at again when a unit frees or at ready_at, which
             * a busy pipeline sets to the cycle before it frees. */
            if (why == TM_SLOT_STALL)
                sm->oc_waiting |= 1u << s;
            else
                sm->unit_waiting |= 1u << s;
            sm->waiting_load_held[s] = held_load;
            if (ready_at < sm->wake)
                sm->wake = ready_at > now ? ready_at : now + g->core_ps;
        } else {
            if (why == TM_SLOT_STALL || why == TM_SLOT_RESTRICT || why == TM_SLOT_STRUCT)
                ready_at = now + g->core_ps;
            if (ready_at < sm->wake)
                sm->wake = ready_at > now ? ready_at : now + g->core_ps;
        }
        sm->look_at[s] = issued ? now + g->core_ps : ready_at;
    }
    return true;
}

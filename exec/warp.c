/*
 * warp.c -- one warp's execution: the interpreter loop and the SIMT
 * reconvergence stack.
 *
 * The stack holds (pc, rpc, mask) entries; the top one is what the warp
 * executes.  A divergent branch turns the top into the reconvergence entry
 * (pc = the branch's immediate post-dominator) and pushes one entry per
 * path; an entry whose pc reaches its rpc is popped, so the paths meet again
 * at the post-dominator with the union of their lanes.  Exited lanes are
 * removed from every entry.  Calls push an entry whose rpc is never reached;
 * it ends when all its lanes have returned.
 */
#include "exec_int.h"
#include "warp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL_RPC 0xFFFFFFFEu        /* rpc of a call's entry: ends by return */

static bool push(exec_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->sp == w->stack_cap) {
        uint32_t nc = w->stack_cap ? w->stack_cap * 2 : 16;
        exec_simt *s = realloc(w->stack, nc * sizeof *s);
        if (!s)
            return false;
        w->stack = s;
        w->stack_cap = nc;
    }
    w->stack[w->sp++] = (exec_simt){ pc, rpc, mask };
    return true;
}

ptx_status exec_warp_init(exec_warp *w, exec_cta *cta, uint32_t index, uint32_t first_thread)
{
    const exec_kernel *k = cta->k;
    exec_program *p = cta->prog;
    w->cta = cta;
    w->index = index;
    w->state = EXEC_WARP_RUNNING;
    w->exited = 0;
    w->insts = 0;
    w->spin_pc = w->spin_repeats = 0;
    w->spin_addr = w->spin_insts = w->spin_ops = 0;
    w->yielded = false;
    w->split = false;
    w->v.atomic_spins = 0;
    w->cl_arrived = w->cl_done = w->cl_waiting = 0;
    w->red_lanes = w->red_pc = 0;
    w->bar_parked = 0;
    exec_warp_groups_free(w);
    memset(w->bar_lanes, 0, sizeof w->bar_lanes);
    /* The loop watch starts afresh: a warp reused from an ended CTA (of
     * this launch or, in timing mode, an earlier one) must not bring its
     * samples along. */
    w->loop_turns = w->loop_power = 0;
    w->looping = false;
    w->quiet_insts = 0;
    w->func = k->func;
    w->reg_off = w->pred_off = 0;
    w->nframes = 0;
    w->sp = 0;
    uint32_t want_regs = k->max_regs ? k->max_regs : 1, want_preds = k->max_preds ? k->max_preds : 1;
    if (w->regs_cap < want_regs) {
        free(w->regs);
        w->regs = malloc((size_t)want_regs * ISA_WARP_SIZE * sizeof *w->regs);
        w->regs_cap = w->regs ? want_regs : 0;
    }
    if (w->preds_cap < want_preds) {
        free(w->preds);
        w->preds = malloc(want_preds * sizeof *w->preds);
        w->preds_cap = w->preds ? want_preds : 0;
    }
    if (!w->regs || !w->preds)
        return PTX_E_NOMEM;
    /* Registers start as zero so runs are deterministic (a GPU leaves them
     * undefined): in a functional launch those the kernel may read before
     * writing them (live_in.c), else every one; a callee's window is
     * zeroed at its call. */
    if (cta->grid->lazy_regs)
        exec_frame_zero(&p->funcs[k->func], w->regs, false);
    else
        memset(w->regs, 0, (size_t)want_regs * ISA_WARP_SIZE * sizeof *w->regs);
    memset(w->preds, 0, want_preds * sizeof *w->preds);
    exec_warp_set_window(w);
    uint32_t n = cta->nthreads - first_thread;
    w->valid = n >= ISA_WARP_SIZE ? 0xFFFFFFFFu : (1u << n) - 1;
    isa_warp *v = &w->v;
    w->mem = *exec_memory_windows(p->mem);
    w->mem.shared = cta->shared;
    w->mem.shared_bytes = cta->mem_shared_bytes;
    w->mem.reserved = cta->reserved;
    w->mem.mbar_ops = &cta->mbar_ops;
    w->mem.cluster_shared = cta->cluster->shared;
    w->mem.cluster_size = cta->grid->csize;
    w->mem.cluster_rank = cta->rank;
    w->mem.local = cta->local + (size_t)index * ISA_WARP_SIZE * cta->local_stride;
    w->mem.local_stride = cta->local_stride;
    if (cta->grid->l.check_memory) {
        w->mem.check = exec_memory_check;
        w->mem.check_ctx = p->mem;
        w->mem.shared_map = cta->grid->shared_map;
        w->mem.shared_map_bytes = p->dynamic_base;
    }
    if (cta->grid->race_global || cta->grid->l.check_race)
        w->mem.fence = exec_race_fence;
    w->mem.concurrent = cta->grid->concurrent;
    if (cta->grid->param_slot) {
        w->mem.param_lo = k->param_addr;
        w->mem.param_len = k->info.param_bytes;
        w->mem.param_shift = (uint64_t)cta->grid->param_slot * k->param_stride;
    }
    w->mem.rmw_locks = cta->grid->rmw_locks;
    v->mem = &w->mem;
    v->frame = 0;
    v->frame_end = p->funcs[k->func].frame_bytes;
    v->stack_ptr = w->mem.local_stride;
    v->cc = 0;
    /* The race check reads every access's addresses back (race.c). */
    v->access = cta->race ? &w->acc : NULL;
    /* The first lane's thread index by division, the rest by counting on
     * (three divisions a lane cost more than the rest of a short warp);
     * a warp within one row of the block, the common case, in one sweep. */
    uint32_t x = first_thread % cta->ntid[0], y = first_thread / cta->ntid[0] % cta->ntid[1],
             z = first_thread / (cta->ntid[0] * cta->ntid[1]);
    if (x + ISA_WARP_SIZE <= cta->ntid[0]) {
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            v->tid[0][l] = x + l;
            v->tid[1][l] = y;
            v->tid[2][l] = z;
        }
    } else {
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            v->tid[0][l] = x;
            v->tid[1][l] = y;
            v->tid[2][l] = z;
            if (++x == cta->ntid[0]) {
                x = 0;
                if (++y == cta->ntid[1]) {
                    y = 0;
                    z++;
                }
            }
        }
    }
    memcpy(v->ntid, cta->ntid, sizeof v->ntid);
    memcpy(v->ctaid, cta->ctaid, sizeof v->ctaid);
    memcpy(v->nctaid, cta->nctaid, sizeof v->nctaid);
    v->warpid = index;
    /* %nwarpid is an SM's warp slots; %warpid, the warp's slot, is the
     * warp's index in its block here (the ISA lets it be any slot). */
    uint32_t slots = cta->grid->l.sm_warps;
    v->nwarpid = slots > cta->nwarps ? slots : cta->nwarps;
    v->smid = cta->smid;
    v->nsmid = cta->nsmid;
    v->gridid = 1;
    const exec_grid *g = cta->grid;
    for (int d = 0; d < 3; d++) {
        v->clusterid[d] = cta->clusterid[d];
        v->nclusterid[d] = cta->nctaid[d] / g->cdim[d];
        v->cluster_ctaid[d] = cta->cluster_ctaid[d];
        v->cluster_nctaid[d] = g->cdim[d];
    }
    v->cluster_ctarank = cta->rank;
    v->cluster_nctarank = g->csize;
    v->explicit_cluster = g->explicit_cluster;
    v->dynamic_smem = cta->dynamic_shared;
    v->total_smem = cta->mem_shared_bytes;
    v->clock = &cta->clock;
    v->envreg = cta->grid->envreg;
    v->lists = p->m->lists;
    v->ctx = w;
    if (!push(w, p->funcs[k->func].start, ISA_PC_EXIT, w->valid))
        return PTX_E_NOMEM;
    return PTX_OK;
}

void exec_warp_release(exec_warp *w)
{
    exec_warp_groups_free(w);
    free(w->groups);
    free(w->stack);
    free(w->frames);
    free(w->regs);
    free(w->preds);
    memset(w, 0, sizeof *w);
}

/* Drop entries that have reached their reconvergence point or lost all
 * their lanes.  Returns false when the warp has nothing left to run. */
static inline bool settle(exec_warp *w)
{
    for (;;) {
        while (w->sp) {
            exec_simt *top = &w->stack[w->sp - 1];
            if (top->mask && top->pc != top->rpc) {
                /* Lanes parked past a barrier (w->bar_parked) wait there once
                 * nothing else of the warp can run: their barrier holds the warp. */
                if (__builtin_expect(w->bar_parked != 0, 0) && !(top->mask & ~w->bar_parked)) {
                    if (w->ngroups && exec_warp_switch_group(w))
                        continue;
                    w->state = EXEC_WARP_BARRIER;
                    return false;
                }
                return true;
            }
            w->sp--;
        }
        /* The running lane group is done: another takes its place. */
        if (!w->ngroups)
            break;
        exec_warp_group_done(w);
    }
    w->state = EXEC_WARP_DONE;
    return false;
}

/* ---- control outcomes ------------------------------------------------- */

static ptx_status branch(exec_warp *w, const isa_inst *in, uint32_t pc, uint32_t mask)
{
    exec_simt *top = &w->stack[w->sp - 1];
    uint32_t taken = w->v.taken, stay = mask & ~taken;
    uint32_t target = in->target;
    if (isa_ops[in->op].flags & ISA_F_TABLE) {
        /* brx.idx: lanes may go to several targets; group them by target
         * and push one entry per group, lowest target on top. */
        const exec_program *p = w->cta->prog;
        uint32_t t = (uint32_t)in->opd[1].imm;
        const uint64_t *idx = in->opd[0].kind == ISA_OPD_REG
                                  ? w->v.r + (size_t)in->opd[0].reg * ISA_WARP_SIZE : NULL;
        uint32_t left = taken;
        uint32_t groups_pc[ISA_WARP_SIZE], groups_mask[ISA_WARP_SIZE], ng = 0;
        while (left) {
            unsigned l = (unsigned)__builtin_ctz(left);
            uint64_t i = idx ? (uint32_t)idx[l] : in->opd[0].imm;
            if (i >= p->brx_counts[t]) {
                w->v.fault.lane = l;
                return PTX_E_ILLEGAL_INSTRUCTION;
            }
            uint32_t dest = p->brx[t][i], gm = 0;
            for (uint32_t rest = left; rest;) {
                unsigned k = (unsigned)__builtin_ctz(rest);
                rest &= rest - 1;
                uint64_t ik = idx ? (uint32_t)idx[k] : in->opd[0].imm;
                if (ik < p->brx_counts[t] && p->brx[t][ik] == dest)
                    gm |= 1u << k;
            }
            groups_pc[ng] = dest;
            groups_mask[ng++] = gm;
            left &= ~gm;
        }
        if (ng == 1 && !stay) {
            top->pc = groups_pc[0];
            return PTX_OK;
        }
        uint32_t rpc = in->rpc;
        if (top->rpc == rpc) {
            w->sp--;            /* the entry below already reconverges there */
        } else {
            top->pc = rpc;
        }
        if (stay && !push(w, pc + 1, rpc, stay))
            return PTX_E_NOMEM;
        for (uint32_t g = ng; g-- > 0;)
            if (!push(w, groups_pc[g], rpc, groups_mask[g]))
                return PTX_E_NOMEM;
        return PTX_OK;
    }
    if (!stay) {
        top->pc = target;
        return PTX_OK;
    }
    if (!taken) {
        top->pc = pc + 1;
        return PTX_OK;
    }
    /* Divergence.  If the top entry already reconverges at the same point,
     * reuse it for the fall-through path instead of stacking another
     * reconvergence entry (keeps loops with divergent exits at constant
     * depth). */
    uint32_t rpc = in->rpc;
    if (top->rpc == rpc) {
        top->pc = pc + 1;
        top->mask = stay;
    } else {
        top->pc = rpc;
        if (!push(w, pc + 1, rpc, stay))
            return PTX_E_NOMEM;
    }
    if (!push(w, target, rpc, taken))
        return PTX_E_NOMEM;
    return PTX_OK;
}

/* The innermost call is over (every lane of it has returned or exited):
 * back to the caller's stack entries, frame and registers. */
static void leave_call(exec_warp *w)
{
    exec_program *p = w->cta->prog;
    exec_frame *fr = &w->frames[w->nframes - 1];
    w->sp = fr->base;
    w->v.frame = fr->local;
    w->v.frame_end = fr->local + p->funcs[fr->func].frame_bytes;
    w->reg_off = fr->reg_off;
    w->pred_off = fr->pred_off;
    w->func = fr->func;
    w->v.stack_ptr = fr->stack_ptr;     /* what the call allocated is freed */
    w->nframes--;
    exec_warp_set_window(w);
}

/* Whether no lane is left in the innermost call's stack entries. */
static bool call_emptied(const exec_warp *w)
{
    for (uint32_t i = w->frames[w->nframes - 1].base; i < w->sp; i++)
        if (w->stack[i].mask)
            return false;
    return true;
}

/* Lanes in `lanes` leave the warp for good.  Inside a call, the call ends
 * with them when they were the last of it still running (the others
 * returned already): so do the calls around it that they empty. */
static void exit_lanes(exec_warp *w, uint32_t lanes, uint32_t pc)
{
    w->exited |= lanes;
    for (uint32_t i = 0; i < w->sp; i++)
        w->stack[i].mask &= ~lanes;
    exec_simt *top = &w->stack[w->sp - 1];
    if (top->mask)
        top->pc = pc + 1;
    exec_warp_leave_emptied_calls(w);
}

void exec_warp_leave_emptied_calls(exec_warp *w)
{
    while (w->nframes && call_emptied(w))
        leave_call(w);
}

static void copy_frame_bytes(exec_warp *w, uint32_t lanes, uint64_t dst, uint64_t src, uint64_t n)
{
    uint8_t *local = w->mem.local;
    uint32_t stride = w->mem.local_stride;
    while (lanes) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        memmove(local + (size_t)l * stride + dst, local + (size_t)l * stride + src, n);
    }
}

static ptx_status call(exec_warp *w, const isa_inst *in, uint32_t pc, uint32_t mask)
{
    exec_program *p = w->cta->prog;
    const isa_module *m = p->m;
    const isa_func *caller = &m->funcs[in->opd[1].imm];
    const isa_call *c = &caller->calls[in->opd[0].imm];
    uint32_t callee = 0, later = 0;
    exec_simt *top = &w->stack[w->sp - 1];
    if (c->callee >= 0) {
        callee = (uint32_t)c->callee;
    } else if (mask) {
        /* Indirect: the register holds a function's address
         * (exec_func_address).  Lanes may hold different ones; the lanes
         * of the lowest lane's target call now, and the others wait at
         * this call, on an entry that reconverges just after it, where
         * they run it again (and split again if they still differ). */
        const uint64_t *r = w->v.r + (size_t)c->target_reg * ISA_WARP_SIZE;
        unsigned l0 = (unsigned)__builtin_ctz(mask);
        uint64_t a = r[l0];
        uint32_t now = 0;
        for (uint32_t rest = mask; rest;) {
            unsigned l = (unsigned)__builtin_ctz(rest);
            rest &= rest - 1;
            now |= (uint32_t)(r[l] == a) << l;
        }
        if (!exec_func_at(p, a, &callee) || m->funcs[callee].is_entry ||
            (!m->funcs[callee].ncode && !exec_is_builtin(m->funcs[callee].name))) {
            w->v.fault.lane = l0;       /* the pc stays at the call, for the report */
            w->v.fault.addr = a;
            return PTX_E_ILLEGAL_INSTRUCTION;
        }
        later = mask & ~now;
        mask = now;
    }
    top->pc = pc + 1;
    if (!mask)
        return PTX_OK;
    if (later && !push(w, pc, pc + 1, later))
        return PTX_E_NOMEM;
    if (!m->funcs[callee].ncode) {
        ptx_status st = exec_builtin_call(w, c, callee, mask);
        if (ptx_failed(st))
            w->stack[w->sp - 1].pc = pc;        /* the report names the call (a failed assert) */
        return st;
    }
    const exec_func *cf = &p->funcs[w->func], *ef = &p->funcs[callee];
    const isa_func *ecf = &m->funcs[callee];
    uint64_t new_frame = w->v.frame + cf->frame_bytes;
    if (new_frame + ef->frame_bytes > w->v.stack_ptr)       /* (below what alloca took) */
        return PTX_E_STACK_OVERFLOW;
    uint32_t new_reg = w->reg_off + cf->nregs, new_pred = w->pred_off + cf->npreds;
    if (new_reg + ef->nregs > w->regs_cap || new_pred + ef->npreds > w->preds_cap) {
        /* Recursion deeper than the register file: grow it. */
        uint32_t nr = (new_reg + ef->nregs) * 2, np = (new_pred + ef->npreds) * 2;
        uint64_t *r = realloc(w->regs, (size_t)nr * ISA_WARP_SIZE * sizeof *r);
        if (!r)
            return PTX_E_STACK_OVERFLOW;
        w->regs = r;
        w->regs_cap = nr;
        uint32_t *pp = realloc(w->preds, np * sizeof *pp);
        if (!pp)
            return PTX_E_STACK_OVERFLOW;
        w->preds = pp;
        w->preds_cap = np;
    }
    /* Arguments: caller's argument blocks into the callee's formals. */
    for (uint32_t i = 0; i < c->nargs && i < ecf->nparams; i++) {
        const isa_var *a = &m->vars[c->args[i]], *f = &m->vars[ecf->params[i]];
        uint64_t n = a->size < f->size ? a->size : f->size;
        copy_frame_bytes(w, mask, new_frame + p->var_addr[ecf->params[i]],
                         w->v.frame + p->var_addr[c->args[i]], n);
    }
    if (w->nframes == w->frames_cap) {
        uint32_t nc = w->frames_cap ? w->frames_cap * 2 : 8;
        exec_frame *fr = realloc(w->frames, nc * sizeof *fr);
        if (!fr)
            return PTX_E_NOMEM;
        w->frames = fr;
        w->frames_cap = nc;
    }
    w->frames[w->nframes++] = (exec_frame){ w->sp, pc, w->v.frame, w->reg_off, w->pred_off, w->func,
                                            w->v.stack_ptr };
    if (!push(w, ef->start, CALL_RPC, mask))
        return PTX_E_NOMEM;
    w->v.frame = new_frame;
    w->v.frame_end = new_frame + ef->frame_bytes;
    w->reg_off = new_reg;
    w->pred_off = new_pred;
    w->func = callee;
    exec_warp_set_window(w);
    /* The callee's registers start as zero, for determinism (those it may
     * read before writing them, as the kernel's: exec_warp_init).  Where
     * another lane group may be in a call at this depth, its lanes' half
     * of the window is its own: only the calling lanes' is zeroed. */
    if (__builtin_expect(w->ngroups != 0, 0)) {
        for (uint32_t r = 0; r < ef->nregs; r++)
            for (uint32_t rest = mask; rest; rest &= rest - 1)
                w->v.r[(size_t)r * ISA_WARP_SIZE + (unsigned)__builtin_ctz(rest)] = 0;
        for (uint32_t q = 0; q < ef->npreds; q++)
            w->v.p[q] &= ~mask;
    } else {
        exec_frame_zero(ef, w->v.r, !w->cta->grid->lazy_regs);
        memset(w->v.p, 0, ef->npreds * sizeof *w->v.p);
    }
    return PTX_OK;
}

static ptx_status ret(exec_warp *w, const isa_inst *in, uint32_t pc, uint32_t mask)
{
    if (w->nframes == 0) {          /* ret from the kernel is exit */
        if (mask)
            exit_lanes(w, mask, pc);
        else
            w->stack[w->sp - 1].pc = pc + 1;
        return PTX_OK;
    }
    exec_program *p = w->cta->prog;
    const isa_module *m = p->m;
    exec_frame *fr = &w->frames[w->nframes - 1];
    exec_simt *top = &w->stack[w->sp - 1];
    top->pc = pc + 1;
    if (!mask)
        return PTX_OK;
    /* Return values go to the caller's return blocks as lanes return. */
    const isa_inst *ci = &p->code[fr->call_pc];
    const isa_call *c = &m->funcs[ci->opd[1].imm].calls[ci->opd[0].imm];
    const isa_func *self = &m->funcs[w->func];
    for (uint32_t i = 0; i < c->nrets && i < self->nrets; i++) {
        const isa_var *a = &m->vars[c->rets[i]], *f = &m->vars[self->rets[i]];
        uint64_t n = a->size < f->size ? a->size : f->size;
        copy_frame_bytes(w, mask, fr->local + p->var_addr[c->rets[i]],
                         w->v.frame + p->var_addr[self->rets[i]], n);
    }
    for (uint32_t i = fr->base; i < w->sp; i++)
        w->stack[i].mask &= ~mask;
    (void)in;
    if (call_emptied(w))
        leave_call(w);      /* every lane of the call has returned (or exited) */
    return PTX_OK;
}

/* barrier.cluster.arrive and .wait by `mask` lanes (cta.c has the phase
 * rule).  An arrive never waits; a wait lets the lanes go at once when the
 * phase they arrived in has completed, and otherwise holds the warp until
 * it does.  A wait by lanes that did not arrive waits for a phase that
 * needs their own arrival: a deadlock, reported as such. */
static ptx_status cluster_barrier(exec_warp *w, const isa_inst *in, uint32_t mask)
{
    if (!mask)
        return PTX_OK;
    exec_cluster *cl = w->cta->cluster;
    if (in->mode == ISA_MODE_ARRIVE) {
        w->cl_arrived |= mask & ~w->cl_done;
        exec_cluster_release(cl);
        return PTX_OK;
    }
    if (!(mask & ~w->cl_done)) {
        w->cl_done &= ~mask;
        return PTX_OK;
    }
    w->cl_waiting = mask;
    w->state = EXEC_WARP_BARRIER;
    w->bar_id = EXEC_BAR_CLUSTER;
    exec_cluster_release(cl);
    return PTX_OK;
}

/* Whether a lane at pc can only end: what it executes from there is at
 * most a few unconditional branches and then an exit, or a ret of the
 * kernel itself (kernel_level: pc is in the kernel's own code). */
static bool only_ends(const isa_inst *code, uint32_t pc, bool kernel_level)
{
    for (int hops = 0; hops < 8; hops++) {
        const isa_inst *in = &code[pc];
        if (in->guard != ISA_NOREG)
            return false;
        if (isa_inst_ends_thread(in, kernel_level))
            return true;
        if (!isa_inst_is_jump(in))
            return false;
        pc = in->target;
    }
    return false;
}

/* Lanes of a warp arriving at a barrier that wait, below the running
 * entry, where they can only end (only_ends).  That is where
 * `if (...) return;` leaves the returning lanes of a warp whose other lanes
 * go on to __syncthreads(): on the path to the kernel's final ret, or at
 * it.  A GPU ends those threads there and then, and a barrier does not
 * wait for threads that have ended; the lanes end here, before their last
 * instructions, so the barrier can complete without them. */
static void exit_parked(exec_warp *w)
{
    const isa_inst *code = w->cta->prog->code;
    uint32_t kernel_depth = w->nframes ? w->frames[0].base : w->sp;
    uint32_t above = w->stack[w->sp - 1].mask, parked = 0;
    for (uint32_t i = w->sp - 1; i-- > 0;) {
        const exec_simt *e = &w->stack[i];
        if ((e->mask & ~above & ~w->bar_parked) && only_ends(code, e->pc, i < kernel_depth))
            parked |= e->mask & ~above & ~w->bar_parked;
        above |= e->mask;
    }
    if (!parked)
        return;
    w->exited |= parked;
    for (uint32_t i = 0; i < w->sp; i++)
        w->stack[i].mask &= ~parked;
}

/* A barrier's id or thread count: an immediate, or the register's value
 * in the first lane of mask (the ISA asks for the same value in all). */
static uint32_t uniform_value(const exec_warp *w, const isa_opd *o, uint32_t mask)
{
    return o->kind == ISA_OPD_IMM ? (uint32_t)o->imm
         : (uint32_t)w->v.r[(size_t)o->reg * ISA_WARP_SIZE + (unsigned)__builtin_ctz(mask)];
}

/* Park the lanes in `mask`, which just arrived at a barrier in the top
 * entry, and bring to the top a sibling entry (one with the same
 * reconvergence point, inside the current call) that has lanes still to
 * arrive; false if there is none and the warp must wait. */
static bool run_other_path(exec_warp *w, uint32_t mask)
{
    w->bar_parked |= mask;
    uint32_t base = w->nframes ? w->frames[w->nframes - 1].base : 0, top = w->sp - 1;
    for (uint32_t i = top; i-- > base && w->stack[i].rpc == w->stack[top].rpc;) {
        if (!(w->stack[i].mask & ~w->bar_parked) || w->stack[i].pc == w->stack[i].rpc)
            continue;
        exec_simt t = w->stack[top];
        w->stack[top] = w->stack[i];
        w->stack[i] = t;
        return true;
    }
    return false;
}

/* A warp arrives at a barrier with `mask` lanes. */
static ptx_status barrier(exec_warp *w, const isa_inst *in, uint32_t pc, uint32_t mask)
{
    exec_simt *top = &w->stack[w->sp - 1];
    top->pc = pc + 1;
    if (in->scope == ISA_SCOPE_CLUSTER)
        return cluster_barrier(w, in, mask);
    if (in->flags & ISA_MOD_FLAG(WARP)) {       /* bar.warp.sync: lanes converge here */
        if (w->cta->race)
            exec_race_syncwarp(w->cta->race, w->index);
        return PTX_OK;
    }
    if (!mask)
        return PTX_OK;
    /* bar{.sync,.arrive} a{, b} and bar.red.op d, a{, b}, {!}c: the
     * barrier a and thread count b follow bar.red's destination. */
    bool red = in->mode == ISA_MODE_RED;
    unsigned at = red ? 1 : 0;
    uint32_t id = 0;
    if (in->nopd > at)
        id = uniform_value(w, &in->opd[at], mask);
    if (id >= 16) {
        w->v.fault.lane = (uint32_t)__builtin_ctz(mask);
        return PTX_E_ILLEGAL_INSTRUCTION;
    }
    exec_cta *c = w->cta;
    exit_parked(w);
    if (in->nopd > at + 1 + red) {
        uint32_t count = uniform_value(w, &in->opd[at + 1], mask);
        if (c->bar_arrived[id] == 0)
            c->bar_expected[id] = count;
    }
    c->bar_arrived[id] += (uint32_t)__builtin_popcount(mask);
    w->bar_lanes[id] |= mask;
    if (red) {
        const isa_opd *p = &in->opd[in->nopd - 1];
        uint32_t pred = p->kind == ISA_OPD_IMM ? (p->imm ? ~0u : 0)
                      : p->neg ? ~w->v.p[p->reg] : w->v.p[p->reg];
        c->bar_red_arrived[id] += (uint32_t)__builtin_popcount(mask);
        c->bar_red_true[id] += (uint32_t)__builtin_popcount(mask & pred);
        w->red_lanes |= mask;
        w->red_pc = pc;
    }
    /* A barrier with a thread count completes as its last warp arrives:
     * the block's other warps may spin meanwhile, waiting for one of those
     * at the barrier (GCC's OpenMP runtime waits for a lock so; its holder
     * waits at `bar.sync 1, 64` for a second warp), so the scheduler's look
     * at barriers once the block runs out of work would never come. */
    bool counted = c->bar_expected[id] != 0;
    if (in->mode == ISA_MODE_ARRIVE) {
        if (counted)
            exec_cta_release_barriers(c);
        return PTX_OK;                          /* bar.arrive does not wait */
    }
    w->bar_id = (uint8_t)id;
    /* barrier{.sync,.red} without .aligned may be reached by the lanes of a
     * warp at different instructions (PTX ISA barrier; bar is
     * barrier.aligned): these lanes wait past it while the warp's other
     * paths run until they arrive too, or until nothing else can run
     * (settle).  An aligned barrier holds the whole warp at once. */
    if (in->op == ISA_OP_BARRIER && !(in->flags & ISA_MOD_FLAG(ALIGNED)) && run_other_path(w, mask))
        return PTX_OK;
    /* A warp whose lanes run independently (exec_warp_run_others) counts
     * at a barrier by thread, as from Volta on: the lanes that arrived wait
     * past it while its others run on (a lane still spinning for another
     * block's flag, while its warp-mates went ahead to __syncthreads). */
    if (w->split) {
        w->bar_parked |= mask;
        if (exec_warp_run_others(w))
            return PTX_OK;
    }
    w->state = EXEC_WARP_BARRIER;
    if (counted)
        exec_cta_release_barriers(c);
    return PTX_OK;
}

/* A spin loop around a wait runs a few instructions between two waits
 * (libcu++'s back-off loop: about 12); more than this, and the warp did
 * something else in between. */
#define SPIN_GAP 64

void exec_warp_spin(exec_warp *w, uint32_t pc)
{
    uint64_t ops = w->cta->mbar_ops;
    if (pc == w->spin_pc && ops == w->spin_ops && w->insts - w->spin_insts <= SPIN_GAP) {
        if (w->spin_repeats < UINT32_MAX)
            w->spin_repeats++;
    } else {
        w->spin_pc = pc;
        w->spin_repeats = 1;
    }
    w->spin_addr = w->v.fault.addr;
    w->spin_insts = w->insts;
    w->spin_ops = ops;
    w->yielded = true;
}

bool exec_warp_stuck(const exec_warp *w)
{
    return w->spin_repeats >= EXEC_SPIN_LIMIT && w->spin_ops == w->cta->mbar_ops &&
           w->insts - w->spin_insts <= SPIN_GAP;
}

bool exec_warp_yielded(const exec_warp *w) { return w->yielded; }

/* A diverged warp's lanes that fail an mbarrier wait let the lanes on the
 * other side of the branch run first: those may be the ones whose arrivals
 * the wait needs (cuda::barrier's arrive_and_drop on odd lanes, the wait
 * on even ones), which lanes that run independently (Volta on) would make
 * and lockstep SIMT, running the spinning side to the end first, never
 * would.  The two sides are the top two entries with one reconvergence
 * point (branch()); the spinning side resumes after the wait when the other
 * reconverges or yields in turn. */
static bool yield_to_sibling(exec_warp *w)
{
    if (w->sp < 2)
        return false;
    exec_simt *top = &w->stack[w->sp - 1], *below = &w->stack[w->sp - 2];
    if (below->rpc != top->rpc || below->pc == top->rpc)
        return false;           /* no sibling: the reconvergence entry itself */
    exec_simt t = *top;
    *top = *below;
    *below = t;
    return true;
}

static bool run_others_in_call(exec_warp *w);

/* Independent thread scheduling, when it is needed: the warp's running
 * lanes spin (the loop watch proved that they repeat a loop that changes
 * nothing, hang.c, or their atomics keep failing, spin_atomic), or wait at
 * a warp-synchronous instruction for lanes elsewhere (sync_arrive) or at a
 * barrier (barrier).  Lanes that run independently (Volta on) would not
 * wait for them; here every other group of the warp's lanes that could run
 * goes above the top entry, to run before it again:
 *   - an entry not yet run: another path of a branch below (its pc is not
 *     its reconvergence point, and it is no reconvergence entry of the top);
 *   - the lanes that wait at a reconvergence entry of the top (its pc is the
 *     point) for lanes still running above it: a spin lock's holder waits so
 *     for its warp-mates, which spin on the lock it holds.  They leave the
 *     entry and go on, in one of their own, to its own reconvergence point,
 *     where they wait for the others as its entry would have.
 * Groups keep their order (the one nearest the top runs first).  These
 * are the innermost call's entries; with none, lanes waiting in a caller,
 * whose registers are the caller's, run as a lane group of their own
 * (exec_warp_fork), and with none of those either, another lane group
 * (exec_warp_switch_group).  False when no other lanes can run. */
bool exec_warp_run_others(exec_warp *w)
{
    if (w->state != EXEC_WARP_RUNNING)
        return false;
    /* Finished entries go, as settle() would have them; lanes parked past
     * a barrier at the top stay (barrier() asks while they arrive). */
    while (w->sp && (!w->stack[w->sp - 1].mask || w->stack[w->sp - 1].pc == w->stack[w->sp - 1].rpc))
        w->sp--;
    if (!w->sp)
        return false;
    return run_others_in_call(w) || exec_warp_fork(w) || exec_warp_switch_group(w);
}

/* exec_warp_run_others within the innermost call. */
static bool run_others_in_call(exec_warp *w)
{
    uint32_t base = w->nframes ? w->frames[w->nframes - 1].base : 0, top = w->sp - 1;
    if (top <= base)
        return false;
    /* From the top down: the entries that stay (filled from the end of
     * kept, the top first) and the groups that go above them. */
    uint32_t n = w->sp - base, nkept = 0, nmoved = 0;
    exec_simt *kept = malloc(2 * (size_t)n * sizeof *kept), *moved = kept + n;
    if (!kept)
        return false;
    uint32_t held = w->exited | w->bar_parked, running = w->stack[top].mask, joins_at = w->stack[top].rpc;
    kept[n - 1] = w->stack[top];
    for (uint32_t i = top; i-- > base;) {
        exec_simt e = w->stack[i];
        bool parked = e.pc == e.rpc;
        if (!parked && e.pc == joins_at) {
            /* A reconvergence entry of the top's: its lanes not running
             * above it wait at its pc. */
            uint32_t waiting = e.mask & ~running & ~held;
            if (waiting)
                moved[nmoved++] = (exec_simt){ e.pc, e.rpc, waiting };
            running |= e.mask;
            e.mask &= ~waiting;
            joins_at = e.rpc;
        } else if (!parked && (e.mask & ~held)) {
            moved[nmoved++] = e;            /* a path not yet run */
            running |= e.mask;
            continue;
        }
        kept[n - 1 - ++nkept] = e;
    }
    uint32_t need = base + nkept + 1 + nmoved;   /* a join with waiting lanes is in both */
    if (nmoved && need > w->stack_cap) {
        exec_simt *grown = realloc(w->stack, need * sizeof *grown);
        if (!grown)
            nmoved = 0;
        else {
            w->stack = grown;
            w->stack_cap = need;
        }
    }
    if (nmoved) {
        /* Lanes a group takes away wait nowhere else any more. */
        uint32_t gone = 0;
        for (uint32_t k = 0; k < nmoved; k++)
            gone |= moved[k].mask;
        exec_simt *s = &w->stack[base];
        for (uint32_t k = 0; k <= nkept; k++) {
            s[k] = kept[n - 1 - nkept + k];
            if (s[k].pc == s[k].rpc)
                s[k].mask &= ~gone;
        }
        for (uint32_t k = 0; k < nmoved; k++)
            s[nkept + 1 + k] = moved[nmoved - 1 - k];
        w->sp = need;
        w->split = true;
    }
    free(kept);
    return nmoved != 0;
}

/* The lanes a warp-synchronous instruction names: the union of its
 * executing lanes' membermasks (bar.warp.sync, vote, match, redux, shfl,
 * elect), or the executing lanes where it names none. */
static uint32_t sync_members(const exec_warp *w, const isa_inst *in, uint32_t active)
{
    return exec_sync_members(in, w->v.r, active);
}

uint32_t exec_sync_members(const isa_inst *in, const uint64_t *r, uint32_t active)
{
    unsigned at;
    switch (in->op) {
    case ISA_OP_BAR: at = (in->flags & ISA_MOD_FLAG(WARP)) ? 0 : 255; break;
    case ISA_OP_VOTE: case ISA_OP_MATCH: case ISA_OP_REDUX: at = 2; break;
    case ISA_OP_SHFL: at = 4; break;
    case ISA_OP_ELECT: at = 1; break;
    default: at = 255; break;
    }
    if (at >= in->nopd)
        return active;
    const isa_opd *o = &in->opd[at];
    if (o->kind == ISA_OPD_IMM)
        return (uint32_t)o->imm;
    if (o->kind != ISA_OPD_REG)
        return active;
    uint32_t members = 0;
    const uint64_t *col = r + (size_t)o->reg * ISA_WARP_SIZE;
    for (uint32_t m = active; m; m &= m - 1)
        members |= (uint32_t)col[__builtin_ctz(m)];
    return members;
}

enum { SYNC_READY, SYNC_MERGED, SYNC_WAIT };

static bool is_warp_sync(const isa_inst *in)
{
    return in->op == ISA_OP_BAR && (in->flags & ISA_MOD_FLAG(WARP));
}

/* bar.warp.sync from sm_70 on: a lane waits until every lane of its member
 * mask has executed a bar.warp.sync with the same mask -- not necessarily
 * the same instruction (`if (odd) { ...; __syncwarp(); } else { ...;
 * __syncwarp(); }`).  True when each of the `missing` lanes waits, in an
 * entry of the call all of whose lanes are there, at such a bar.warp.sync:
 * those entries then pass theirs with the top's. */
static bool others_synced(exec_warp *w, const isa_inst *in, uint32_t base, uint32_t missing)
{
    const isa_inst *code = w->cta->prog->code;
    uint32_t members = sync_members(w, in, w->stack[w->sp - 1].mask), above = 0, there = 0;
    for (uint32_t i = w->sp - 1; i-- > base;) {
        const exec_simt *e = &w->stack[i];
        if ((e->mask & missing) && !(e->mask & above) && e->pc != e->rpc && is_warp_sync(&code[e->pc]) &&
            sync_members(w, &code[e->pc], e->mask) == members)
            there |= e->mask & missing;
        above |= e->mask;
    }
    if ((missing & ~there) != 0)
        return false;
    above = 0;
    for (uint32_t i = w->sp - 1; i-- > base;) {
        exec_simt *e = &w->stack[i];
        if ((e->mask & there) && !(e->mask & above))
            e->pc++;                /* its bar.warp.sync is done */
        above |= e->mask;
    }
    return true;
}

/* A split warp's top lanes reach a warp-synchronous instruction at pc.
 * Lanes it names that wait at the same pc in another entry of the same
 * reconvergence point join the top (SYNC_MERGED); lanes it names that are
 * elsewhere, and could run, run first (SYNC_WAIT: the top stays at pc, below
 * them), as a GPU that schedules threads independently makes the
 * instruction wait for them.  SYNC_READY: it runs with the lanes it has. */
static int sync_arrive(exec_warp *w, const isa_inst *in, uint32_t pc, uint32_t active)
{
    const exec_simt top = w->stack[w->sp - 1];
    uint32_t missing = sync_members(w, in, active) & w->valid & ~w->exited & ~top.mask;
    if (!missing)
        return SYNC_READY;
    /* Lanes of an entry below the top, within the call, that wait at pc
     * with the top's reconvergence point join it.  An entry's lanes that
     * run in an entry above it are not at its pc (a reconvergence entry
     * waits there for them): they stay.  An entry left empty is popped
     * when it comes to the top, as one whose lanes all exited. */
    uint32_t base = w->nframes ? w->frames[w->nframes - 1].base : 0, above = 0, joined = 0;
    for (uint32_t i = w->sp - 1; i-- > base;) {
        exec_simt *e = &w->stack[i];
        uint32_t here = e->mask & ~above & missing & ~w->bar_parked;
        above |= e->mask;
        if (e->pc == pc && e->rpc == top.rpc && here) {
            e->mask &= ~here;
            joined |= here;
        }
    }
    missing &= ~joined;
    w->stack[w->sp - 1].mask |= joined;
    bool merged = joined != 0;
    if (missing && is_warp_sync(in)) {
        /* Lanes of other lane groups count too, when their group stands
         * at a bar.warp.sync of the same mask (in a -G build, __syncwarp()
         * is one function: every call of it, the same instruction). */
        uint32_t members = sync_members(w, in, w->stack[w->sp - 1].mask);
        uint32_t in_groups = w->ngroups ? exec_warp_groups_synced(w, members, missing, false) : 0;
        if (others_synced(w, in, base, missing & ~in_groups)) {
            if (in_groups)
                exec_warp_groups_synced(w, members, in_groups, true);
            return merged ? SYNC_MERGED : SYNC_READY;
        }
    }
    if (missing && exec_warp_run_others(w))
        return SYNC_WAIT;
    return merged ? SYNC_MERGED : SYNC_READY;
}

/* The warp's atomics keep leaving memory as they found it (ISA_ATOMIC_SPINS
 * in a row): it spins on a lock, maybe one held by lanes of its own that
 * wait for it to reconverge.  From Volta on, lanes are scheduled
 * independently: its other lanes run first (exec_warp_run_others), sooner
 * than the loop watch's proof would have them (a spin on plain loads still
 * waits for that).  The interpreter and compiled code (PTX_CTL_SPIN) do
 * this at the same instruction. */
static void spin_atomic(exec_warp *w)
{
    w->v.atomic_spins = 0;
    if (!w->cta->grid->l.lockstep && !w->is_copy)
        exec_warp_run_others(w);
}

/* ---- the interpreter loop --------------------------------------------- */


/* One body runs a warp both ways exec/ needs; each caller passes a constant
 * `stepping`, and always_inline gives each its own copy with the other's
 * work compiled out (Spike builds its fast and logged instruction
 * functions from one template the same way):
 *   exec_warp_run   runs until the warp waits, finishes, faults or yields,
 *                   or *budget is spent, and keeps no record: functional
 *                   mode's speed rests on this copy;
 *   exec_warp_step  runs one instruction for the lanes in `lanes` (split off
 *                   when not all of them) and describes it in rec, when
 *                   non-NULL: the timing model, P-mode's copies, the debugger.
 * Counts are kept in locals and written back once the loop ends, before
 * anything that reads them (exec_warp_spin, a fault report). */
static inline __attribute__((always_inline)) ptx_status
interpret(exec_warp *w, const bool stepping, uint32_t lanes, uint64_t *budget, exec_stats *stats,
          exec_record *rec, exec_error *err)
{
    const isa_inst *code = w->cta->prog->code;
    exec_region *const *regions = stepping ? NULL : w->cta->grid->region_at;
    exec_program *prog = w->cta->prog;
    uint64_t warp_insts = 0, thread_insts = 0, writes = 0, seen_writes = 0;
    /* Work run from compiled-tier blocks, not yet added to the unit's
     * count: kept here while the warp stays in one unit, so that host
     * threads do not write the shared count at every block entry. */
    exec_region *credit_at = NULL;
    uint64_t credit = 0;
    const uint64_t limit = stepping ? 1 : *budget;
    uint32_t yield_pc = ISA_PC_EXIT;
    ptx_status st = PTX_OK;
    if (!stepping)
        w->yielded = false;
    while (w->state == EXEC_WARP_RUNNING) {
        if (!settle(w))
            break;
        exec_simt *top = &w->stack[w->sp - 1];
        uint32_t pc = top->pc, mask = top->mask;
        if (stepping) {
            mask &= lanes;
            if (!mask)
                return PTX_E_INVALID_VALUE;
            if (mask != top->mask) {
                /* Split: the lanes left out wait at this pc in an entry of
                 * their own and run it once the stepped lanes reach the
                 * reconvergence point. */
                top->mask &= ~mask;
                if (!push(w, top->pc, top->rpc, mask))
                    return PTX_E_NOMEM;
                top = &w->stack[w->sp - 1];
            }
        }
        exec_region *rg;
        if (__builtin_expect(w->split, 0)) {
            if (w->sp == 1 && !w->nframes && !w->ngroups)
                w->split = false;       /* one entry again */
            else
                goto interpret_one;     /* compiled code does not wait at warp syncs */
        }
        if (!stepping && regions && (rg = regions[pc])) {
            jit_fn *fn = __atomic_load_n(&rg->fn, __ATOMIC_ACQUIRE);
            if (credit_at && credit_at->unit != rg->unit) {
                exec_region_credit(prog, credit_at, credit);
                credit = 0;
            }
            credit_at = rg;
            if (!fn) {
                if ((credit += rg->len) >= EXEC_CREDIT_BATCH) {
                    exec_region_credit(prog, rg, credit);
                    credit = 0;
                }
                goto interpret_one;
            }
            /* Compiled code (compiled.c): on from block to block while the
             * warp's branches are uniform, counted as one at a time.  It
             * returns at the entry's reconvergence point, where settle()
             * would switch to other lanes. */
            jit_run run = { .budget = limit - warp_insts, .stop_pc = top->rpc, .st = PTX_OK,
                            .mem_ops = stats->mem_ops };
            w->v.atomic_writes = 0;
            uint32_t next = fn(&w->v, mask, pc, &w->cta->clock, &run);
            if (!run.insts)
                goto interpret_one;     /* its first block would overrun the budget */
            /* Quick code earns optimised code, at half the interpreter's
             * rate: it runs the long loops that stay in it in about half
             * the time, and the threshold stands for time spent
             * (EXEC_JIT_HOT).  Optimised code no longer counts. */
            if ((credit += (run.insts + 1) / 2) >= EXEC_CREDIT_BATCH) {
                exec_region_credit(prog, rg, credit);
                credit = 0;
            }
            warp_insts += run.insts;
            stats->compiled_insts += run.insts;
            thread_insts += run.insts * (uint32_t)__builtin_popcount(mask);
            writes += run.writes + w->v.atomic_writes;
            seen_writes += run.writes + w->v.atomic_writes;     /* compiled code does not tell .local apart */
            top->pc = next;
            if (run.st == PTX_CTL_SPIN) {
                top->pc = next + 1;     /* the atomic at next is done */
                spin_atomic(w);
            } else if (run.st != PTX_OK) {
                st = run.st;            /* the instruction at next failed; counted above */
                break;
            }
            continue;
        }
    interpret_one:;
        const isa_inst *in = &code[pc];
        uint32_t active = mask;
        if (in->guard != ISA_NOREG) {
            uint32_t g = w->v.p[in->guard];
            active &= in->guard_neg ? ~g : g;
        }
        if (warp_insts == limit)
            break;
        warp_insts++;
        w->cta->clock++;
        thread_insts += (uint32_t)__builtin_popcount(mask);
        uint16_t fl = isa_ops[in->op].flags;
        uint32_t depth = w->sp;
        if (stepping) {
            w->yielded = false;
            if (rec) {
                memset(rec, 0, sizeof *rec);
                rec->pc = pc;
                rec->inst = in;
                rec->family = isa_inst_family(in);
                rec->lat = isa_inst_lat(in);
                rec->issued = mask;
                rec->active = active;
                rec->rpc = ISA_PC_EXIT;
                exec_inst_regs(w, in, rec);
                rec->mem = (fl & ISA_F_MEM) != 0;
                if (rec->mem)
                    w->v.access = &rec->access;
            }
        }
        /* Warp-synchronous instructions wait for the lanes they name, as
         * from Volta on: every one in a split warp; in a divergent warp
         * not split, bar.warp.sync only (it is never compiled; shfl, vote
         * and the like are, and keep to the lanes at hand there). */
        if (__builtin_expect((fl & ISA_F_WARPSYNC) != 0, 0) &&
            (w->split || (is_warp_sync(in) && mask != w->valid && !w->cta->grid->l.lockstep)) &&
            active && !(stepping && lanes != ~0u)) {
            int arrival = sync_arrive(w, in, pc, active);
            if (arrival == SYNC_WAIT) {
                if (stepping)
                    break;      /* issued, to be issued again: the others run first */
                continue;
            }
            if (arrival == SYNC_MERGED) {
                top = &w->stack[w->sp - 1];
                depth = w->sp;
                mask = top->mask;
                active = mask;
                if (in->guard != ISA_NOREG) {
                    uint32_t g = w->v.p[in->guard];
                    active &= in->guard_neg ? ~g : g;
                }
                if (stepping && rec) {
                    rec->issued = mask;
                    rec->active = active;
                }
            }
        }
        if (!(fl & ISA_F_CTRL)) {
            bool may_write = false, spun = false;
            uint64_t hits = w->v.local_hits;
            if (fl & ISA_F_MEM) {
                stats->mem_ops[in->space]++;
                /* Anything but a plain load may change memory (hang.c). */
                may_write = !(fl & ISA_F_LOAD) || (fl & (ISA_F_STORE | ISA_F_ATOMIC));
            }
            if (active) {
                st = isa_execute(&w->v, in, active);
                /* A write another block may see: not to local memory, nor
                 * a generic one whose lanes all hit local memory (a -G
                 * build's frames), nor an atomic that left memory as it
                 * was (a spin lock's failed compare-and-swap). */
                if (may_write && (fl & ISA_F_ATOMIC) && st == PTX_OK && !isa_atomic_note(&w->v, in, active)) {
                    may_write = false;
                    spun = w->v.atomic_spins >= ISA_ATOMIC_SPINS;
                }
                writes += may_write;
                if (may_write && in->space != ISA_SPACE_LOCAL)
                    seen_writes += in->space != ISA_SPACE_GENERIC ||
                                   w->v.local_hits - hits < (uint64_t)__builtin_popcount(active);
                if (st != PTX_OK) {
                    if (st == PTX_CTL_YIELD) {  /* a failed mbarrier wait: the turn ends */
                        if (stepping && rec)
                            rec->ctl = PTX_CTL_YIELD;
                        top->pc = pc + 1;
                        yield_pc = pc;
                        st = PTX_OK;
                        /* Lanes that wait to reconverge with the waiting
                         * ones may be those whose arrivals it needs: from
                         * Volta on they run (exec_warp_run_others). */
                        if (!yield_to_sibling(w) && !w->cta->grid->l.lockstep && !w->is_copy)
                            exec_warp_run_others(w);
                    }
                    break;
                }
                if ((fl & ISA_F_MEM) && w->cta->race && !w->is_copy) {
                    if (w->v.access != &w->acc)     /* recorded in rec->access */
                        w->acc = *w->v.access;
                    exec_race_access(w, in, pc);
                } else if (in->op == ISA_OP_MBARRIER && w->cta->race && !w->is_copy) {
                    exec_race_sync(w, in, active);
                }
            }
            top->pc = pc + 1;
            if (__builtin_expect(spun, 0))
                spin_atomic(w);
        } else {
            st = isa_execute(&w->v, in, active);
            if (stepping && rec)
                rec->ctl = (uint8_t)st;
            switch (st) {
            case PTX_CTL_BRANCH:
                if (stepping && rec)
                    rec->taken = w->v.taken;
                st = branch(w, in, pc, mask);
                if (stepping && rec && w->sp > depth) {
                    rec->diverged = true;
                    rec->rpc = in->rpc;
                }
                break;
            case PTX_CTL_EXIT: exit_lanes(w, active, pc); st = PTX_OK; break;
            case PTX_CTL_CALL: st = call(w, in, pc, active); break;
            case PTX_CTL_RET: st = ret(w, in, pc, active); break;
            case PTX_CTL_BARRIER: st = barrier(w, in, pc, active); break;
            case PTX_OK: top->pc = pc + 1; break;
            default: break;
            }
            if (st != PTX_OK)
                break;
        }
        if (stepping)
            break;
    }
    if (credit)
        exec_region_credit(prog, credit_at, credit);
    stats->warp_insts += warp_insts;
    stats->thread_insts += thread_insts;
    w->insts += warp_insts;
    w->cta->writes += writes;       /* the launch's count gets it once a round (hang.c) */
    w->cta->seen_writes += seen_writes;
    if (yield_pc != ISA_PC_EXIT && !w->is_copy)
        exec_warp_spin(w, yield_pc);
    if (!stepping) {
        *budget = limit - warp_insts;
        return st;
    }
    if (!warp_insts)
        return PTX_OK;          /* nothing to run: finished, or waiting at a barrier */
    w->v.access = w->cta->race ? &w->acc : NULL;
    if (st != PTX_OK) {
        if (err)
            exec_cta_report(w->cta, w, st, err);
        return st;
    }
    settle(w);
    if (rec)
        rec->next_pc = exec_warp_pc(w);
    if (!w->is_copy)            /* P-mode's copies are not the launch's warps */
        exec_hang_watch_step(w);
    return PTX_OK;
}

ptx_status exec_warp_run(exec_warp *w, uint64_t *budget, exec_stats *stats)
{
    return interpret(w, false, ~0u, budget, stats, NULL, NULL);
}

ptx_status exec_warp_step(exec_warp *w, uint32_t lanes, exec_stats *stats, exec_record *rec,
                          exec_error *err)
{
    return interpret(w, true, lanes, NULL, stats, rec, err);
}

uint32_t exec_warp_pc(const exec_warp *w)
{
    return w->sp ? w->stack[w->sp - 1].pc : 0;
}

uint32_t exec_warp_active(const exec_warp *w)
{
    return w->sp ? w->stack[w->sp - 1].mask : 0;
}

int exec_warp_state(const exec_warp *w) { return w->state; }

const isa_inst *exec_warp_inst(const exec_warp *w)
{
    return w->sp && w->state != EXEC_WARP_DONE ? &w->cta->prog->code[w->stack[w->sp - 1].pc] : NULL;
}

/* ---- what the next instruction will do (timing model, debugger) --------- */

bool exec_warp_peek_access(const exec_warp *w, isa_access *out)
{
    const isa_inst *in = exec_warp_inst(w);
    /* Texture and surface addresses depend on the object's layout, and a
     * matrix load or store (wmma, ldmatrix) has many addresses a lane: they
     * are known only once the instruction runs (isa_lane_addr_opd). */
    int ai = in ? isa_lane_addr_opd(in) : -1;
    if (ai < 0)
        return false;
    /* st, red and prefetch write no register: to a timing model all three
     * are stores, which nothing waits for. */
    bool store = (isa_ops[in->op].flags & ISA_F_NODST) != 0;
    const isa_opd *o = &in->opd[ai];
    uint32_t mask = exec_warp_active(w);
    if (in->guard != ISA_NOREG) {
        uint32_t g = w->v.p[in->guard];
        mask &= in->guard_neg ? ~g : g;
    }
    const isa_mem *m = &w->mem;
    memset(out, 0, sizeof *out);
    out->lanes = mask;
    out->bytes = (uint8_t)(isa_types[in->type].bytes * in->vec);
    out->store = store;
    out->space = in->space;
    for (uint32_t rest = mask; rest;) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        uint64_t a = (uint64_t)o->off;
        if (o->kind == ISA_OPD_ADDR && o->reg != ISA_NOREG)
            a += w->v.r[(size_t)o->reg * ISA_WARP_SIZE + l];
        else if (o->kind == ISA_OPD_ADDR_LOCAL)
            a += w->v.frame;
        if (in->space == ISA_SPACE_GENERIC) {
            if (a - m->shared_win < ISA_WINDOW_BYTES) {
                out->space = ISA_SPACE_SHARED;
                a -= m->shared_win;
            } else if (a - m->local_win < ISA_WINDOW_BYTES) {
                out->space = ISA_SPACE_LOCAL;
                a -= m->local_win;
            } else {
                out->space = ISA_SPACE_GLOBAL;
            }
        }
        out->addr[l] = a;
    }
    return true;
}

bool exec_inst_private(const exec_warp *w, const isa_inst *in)
{
    uint16_t fl = isa_ops[in->op].flags;
    if (fl & ISA_F_CALL) {
        /* A call of a function with a body stays in the warp; the
         * runtime's functions (and an indirect call, which may reach one)
         * reach the whole process. */
        const isa_module *m = w->cta->prog->m;
        const isa_call *c = &m->funcs[in->opd[1].imm].calls[in->opd[0].imm];
        return c->callee >= 0 && m->funcs[c->callee].ncode;
    }
    if (!(fl & ISA_F_MEM) || in->op == ISA_OP_PREFETCH || in->op == ISA_OP_PREFETCHU)
        return true;
    if ((fl & ISA_F_LOAD) && !(fl & (ISA_F_STORE | ISA_F_ATOMIC)))
        return true;            /* reads only */
    if (in->op == ISA_OP_TENSORMAP && in->mode == ISA_MODE_TM_CP_FENCEPROXY_GENERIC)
        return false;           /* shared to global: its space is the source's */
    if (in->op == ISA_OP_CP) {
        /* Its space is the source: out of global memory into shared is
         * private, and so is a commit or a wait (no address). */
        bool addressed = false;
        for (unsigned k = 0; k < in->nopd; k++)
            addressed = addressed || in->opd[k].kind == ISA_OPD_ADDR || in->opd[k].kind == ISA_OPD_ADDR_SYM ||
                                    in->opd[k].kind == ISA_OPD_ADDR_LOCAL;
        return in->space == ISA_SPACE_GLOBAL || !addressed;
    }
    return in->space == ISA_SPACE_SHARED || in->space == ISA_SPACE_LOCAL;
}

bool exec_inst_logged(const isa_inst *in)
{
    return in->op == ISA_OP_ST && (in->space == ISA_SPACE_GLOBAL || in->space == ISA_SPACE_GENERIC);
}

/* A register named twice (add r1, r1, r1; an mma's repeated C) is read or
 * written once. */
static void add_reg(uint16_t *list, uint8_t *n, unsigned cap, uint16_t r)
{
    if (r == ISA_NOREG || *n >= cap)
        return;
    for (unsigned i = 0; i < *n; i++)
        if (list[i] == r)
            return;
    list[(*n)++] = r;
}

/* Which registers an instruction writes and reads, for the scoreboard. */
void exec_inst_regs(const exec_warp *w, const isa_inst *in, exec_record *rec)
{
    rec->ndst = rec->nsrc = 0;
    bool pdst = (isa_ops[in->op].flags & ISA_F_PDST) || in->type == ISA_TYPE_PRED;
    bool no_dst = !isa_inst_has_dst(in);
    if (in->guard != ISA_NOREG)
        add_reg(rec->src, &rec->nsrc, EXEC_MAX_SRC, (uint16_t)(in->guard | EXEC_REG_PRED));
    for (unsigned i = 0; i < in->nopd; i++) {
        const isa_opd *o = &in->opd[i];
        bool is_dst = i == 0 && !no_dst;
        uint16_t *list = is_dst ? rec->dst : rec->src;
        uint8_t *n = is_dst ? &rec->ndst : &rec->nsrc;
        unsigned cap = is_dst ? EXEC_MAX_DST : EXEC_MAX_SRC;
        switch (o->kind) {
        case ISA_OPD_REG:
            add_reg(list, n, cap, is_dst && pdst ? (uint16_t)(o->reg | EXEC_REG_PRED) : o->reg);
            if (o->reg2 != ISA_NOREG)
                add_reg(list, n, cap, (uint16_t)(o->reg2 | EXEC_REG_PRED));
            break;
        case ISA_OPD_PRED:
            add_reg(list, n, cap, (uint16_t)(o->reg | EXEC_REG_PRED));
            if (o->reg2 != ISA_NOREG)
                add_reg(list, n, cap, (uint16_t)(o->reg2 | EXEC_REG_PRED));
            break;
        case ISA_OPD_ADDR:
            add_reg(rec->src, &rec->nsrc, EXEC_MAX_SRC, o->reg);
            break;
        case ISA_OPD_NONE:                      /* _|p */
            if (o->reg2 != ISA_NOREG)
                add_reg(list, n, cap, (uint16_t)(o->reg2 | EXEC_REG_PRED));
            break;
        case ISA_OPD_VEC:
        case ISA_OPD_LIST: {
            uint16_t regs[ISA_MAX_LIST];
            unsigned nr = isa_opd_regs(o, w->v.lists, regs);
            for (unsigned k = 0; k < nr; k++)
                add_reg(list, n, cap, regs[k]);
            break;
        }
        default:
            break;
        }
    }
}

/* ---- diverge on miss: splitting a warp's lanes and joining them again ---- */

/* The running entry and the one just below it, when the two are siblings:
 * the same reconvergence point, both inside the current call (a parked
 * group and the lanes that ran ahead, or two sides of a branch). */
static bool siblings(exec_warp *w, exec_simt **top, exec_simt **below)
{
    if (w->state != EXEC_WARP_RUNNING || !settle(w) || w->sp < 2)
        return false;
    uint32_t base = w->nframes ? w->frames[w->nframes - 1].base : 0;
    if (w->sp - 2 < base)
        return false;
    *top = &w->stack[w->sp - 1];
    *below = &w->stack[w->sp - 2];
    return (*below)->rpc == (*top)->rpc && (*below)->mask;
}

ptx_status exec_warp_park(exec_warp *w, uint32_t lanes)
{
    if (w->state != EXEC_WARP_RUNNING || !settle(w))
        return PTX_E_INVALID_VALUE;
    exec_simt *top = &w->stack[w->sp - 1];
    uint32_t run = top->mask & ~lanes;
    if (!(lanes & top->mask) || !run)
        return PTX_E_INVALID_VALUE;
    /* The parked lanes keep the entry; the others get one of their own on
     * top, with the same pc and reconvergence point. */
    top->mask &= lanes;
    return push(w, top->pc, top->rpc, run) ? PTX_OK : PTX_E_NOMEM;
}

ptx_status exec_warp_park_join(exec_warp *w, uint32_t lanes)
{
    exec_simt *top, *below;
    if (!siblings(w, &top, &below) || below->pc != top->pc || (lanes & ~top->mask) || !(top->mask & ~lanes) ||
        !lanes)
        return PTX_E_INVALID_VALUE;
    top->mask &= ~lanes;
    below->mask |= lanes;
    return PTX_OK;
}

bool exec_warp_sibling(exec_warp *w, uint32_t *pc, uint32_t *lanes)
{
    exec_simt *top, *below;
    if (!siblings(w, &top, &below))
        return false;
    *pc = below->pc;
    *lanes = below->mask;
    return true;
}

bool exec_warp_rejoin(exec_warp *w, uint32_t lanes)
{
    exec_simt *top, *below;
    if (!siblings(w, &top, &below) || below->pc != top->pc || !lanes || (lanes & ~below->mask))
        return false;
    if (lanes == below->mask) {
        below->mask |= top->mask;
        w->sp--;
    } else {
        below->mask &= ~lanes;
        top->mask |= lanes;
    }
    return true;
}

bool exec_warp_swap(exec_warp *w)
{
    exec_simt *top, *below;
    if (!siblings(w, &top, &below))
        return false;
    exec_simt t = *top;
    *top = *below;
    *below = t;
    return true;
}

bool exec_warp_raise(exec_warp *w, uint32_t lanes)
{
    exec_simt *top, *below;
    if (!lanes || !siblings(w, &top, &below))
        return false;
    uint32_t base = w->nframes ? w->frames[w->nframes - 1].base : 0;
    /* The siblings: entries under the running one with its reconvergence
     * point, each still short of it (an entry whose pc is its
     * reconvergence point holds lanes that wait for others). */
    for (uint32_t i = w->sp - 1; i-- > base;) {
        exec_simt *e = &w->stack[i];
        if (e->rpc != top->rpc || !e->mask || e->pc == e->rpc)
            return false;
        if (e->mask == lanes) {
            exec_simt t = *e;
            memmove(e, e + 1, (size_t)(w->sp - 2 - i) * sizeof *e);
            w->stack[w->sp - 2] = t;
            return true;
        }
    }
    return false;
}

/* ---- copies for pre-execution ------------------------------------------ */

/* Grow *buf to hold n elements of size sz (keeping nothing). */
static bool reserve(void **buf, uint32_t *cap, uint32_t n, size_t sz)
{
    if (*cap >= n && *buf)
        return true;
    void *b = realloc(*buf, (size_t)(n ? n : 1) * sz);
    if (!b)
        return false;
    *buf = b;
    *cap = n ? n : 1;
    return true;
}

ptx_status exec_warp_copy(const exec_warp *w, exec_warp **copy)
{
    exec_warp *c = *copy;
    if (!c && !(c = *copy = calloc(1, sizeof *c)))
        return PTX_E_NOMEM;
    /* Keep the copy's own arrays, take everything else from w. */
    exec_simt *stack = c->stack;
    exec_frame *frames = c->frames;
    uint64_t *regs = c->regs;
    uint32_t *preds = c->preds;
    uint32_t stack_cap = c->stack_cap, frames_cap = c->frames_cap, regs_cap = c->regs_cap,
             preds_cap = c->preds_cap;
    *c = *w;
    c->stack = stack, c->frames = frames, c->regs = regs, c->preds = preds;
    c->stack_cap = stack_cap, c->frames_cap = frames_cap, c->regs_cap = regs_cap, c->preds_cap = preds_cap;
    uint32_t reg_cells = c->regs_cap * ISA_WARP_SIZE;
    bool ok = reserve((void **)&c->stack, &c->stack_cap, w->sp, sizeof *c->stack) &&
              reserve((void **)&c->frames, &c->frames_cap, w->nframes, sizeof *c->frames) &&
              reserve((void **)&c->regs, &reg_cells, w->regs_cap * ISA_WARP_SIZE, sizeof *c->regs) &&
              reserve((void **)&c->preds, &c->preds_cap, w->preds_cap, sizeof *c->preds);
    c->regs_cap = reg_cells / ISA_WARP_SIZE;
    if (!ok)
        return PTX_E_NOMEM;
    memcpy(c->stack, w->stack, w->sp * sizeof *c->stack);
    if (w->nframes)             /* a kernel without calls has no frame array */
        memcpy(c->frames, w->frames, w->nframes * sizeof *c->frames);
    memcpy(c->regs, w->regs, (size_t)w->regs_cap * ISA_WARP_SIZE * sizeof *c->regs);
    memcpy(c->preds, w->preds, w->preds_cap * sizeof *c->preds);
    c->groups = NULL;           /* a copy runs the running lane group only */
    c->ngroups = c->groups_cap = 0;
    c->is_copy = true;
    c->v.mem = &c->mem;
    c->v.ctx = c;
    c->v.access = NULL;
    exec_warp_set_window(c);
    return PTX_OK;
}

void exec_warp_copy_free(exec_warp *copy)
{
    if (!copy)
        return;
    free(copy->stack);
    free(copy->frames);
    free(copy->regs);
    free(copy->preds);
    free(copy);
}

const isa_inst *exec_warp_next(exec_warp *w)
{
    if (w->state != EXEC_WARP_RUNNING || !settle(w))
        return NULL;
    return &w->cta->prog->code[w->stack[w->sp - 1].pc];
}

bool exec_warp_skip(exec_warp *w)
{
    const isa_inst *in = exec_warp_next(w);
    if (!in || (isa_ops[in->op].flags & ISA_F_CTRL))
        return false;
    w->stack[w->sp - 1].pc++;
    return exec_warp_next(w) != NULL;
}

void exec_warp_reg_keys(const exec_warp *w, uint32_t *nregs, uint32_t *npreds)
{
    *nregs = w->regs_cap;
    *npreds = w->preds_cap;
}

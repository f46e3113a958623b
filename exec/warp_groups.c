/*
 * warp_groups.c -- a warp's lanes in groups that run apart.
 *
 * A warp's lanes share one reconvergence stack (warp.c), and for most
 * code that is all independent thread scheduling needs: a lane that
 * waits for its warp-mates -- a spin lock's holder waiting to reconverge
 * with the lanes spinning on the lock it holds -- is let run above them
 * (exec_warp_run_others).  That works within one call.  Lanes that wait
 * in a caller cannot go there: the stack above them is the call's, and so
 * are the register window and the local frame.  Take the lock in a
 * function that is not inlined (every function of a -G build): the lane
 * that wins returns from lock() and waits in the kernel for the call to
 * end, while the losers spin inside lock() for ever.
 *
 * So those lanes become a group of their own (exec_warp_fork): a copy of
 * the stack entries and calls below the innermost call, with their masks
 * cut to those lanes, and the caller's window; the lanes leave the
 * original's entries.  Each group then runs as a warp would -- its calls
 * push frames and windows over the other group's, which is harmless as
 * every lane's registers and local memory are its own (a call zeroes
 * only its own lanes' registers while groups exist, warp.c).  The warp
 * runs one group at a time, in its own fields; the others wait here, and
 * run when the running one finishes, parks at a barrier, or cannot go on
 * (the same triggers as exec_warp_run_others).  Two groups that stand at
 * the same place -- the same calls, entries and pcs, say both after a
 * barrier -- become one again, so a warp whose lanes each passed the lock
 * alone runs in step once more after the next __syncthreads().
 */
#include "exec_int.h"
#include "warp.h"

#include <stdlib.h>
#include <string.h>

static void save(const exec_warp *w, exec_lane_group *g)
{
    *g = (exec_lane_group){ w->stack, w->sp, w->stack_cap, w->frames, w->nframes, w->frames_cap,
                            w->func, w->reg_off, w->pred_off, w->v.frame, w->v.frame_end, w->v.stack_ptr };
}

static void load(exec_warp *w, const exec_lane_group *g)
{
    w->stack = g->stack, w->sp = g->sp, w->stack_cap = g->stack_cap;
    w->frames = g->frames, w->nframes = g->nframes, w->frames_cap = g->frames_cap;
    w->func = g->func, w->reg_off = g->reg_off, w->pred_off = g->pred_off;
    w->v.frame = g->frame, w->v.frame_end = g->frame_end, w->v.stack_ptr = g->stack_ptr;
    exec_warp_set_window(w);
}

static void drop(exec_warp *w, uint32_t i)
{
    memmove(&w->groups[i], &w->groups[i + 1], (w->ngroups - i - 1) * sizeof *w->groups);
    w->ngroups--;
}

static bool room(exec_warp *w)
{
    if (w->ngroups < w->groups_cap)
        return true;
    uint32_t nc = w->groups_cap ? w->groups_cap * 2 : 4;
    exec_lane_group *g = realloc(w->groups, nc * sizeof *g);
    if (!g)
        return false;
    w->groups = g;
    w->groups_cap = nc;
    return true;
}

bool exec_warp_fork(exec_warp *w)
{
    if (!w->nframes || w->is_copy || !room(w))
        return false;
    uint32_t base = w->frames[w->nframes - 1].base, lanes = 0, in_call = 0;
    for (uint32_t i = 0; i < w->sp; i++) {
        lanes |= w->stack[i].mask;
        if (i >= base)
            in_call |= w->stack[i].mask;
    }
    uint32_t out = lanes & ~in_call & ~w->exited & ~w->bar_parked;
    if (!out)
        return false;
    uint32_t nframes = w->nframes - 1;
    exec_simt *stack = malloc((base ? base : 1) * sizeof *stack);
    exec_frame *frames = malloc((nframes ? nframes : 1) * sizeof *frames);
    if (!stack || !frames) {
        free(stack);
        free(frames);
        return false;
    }
    for (uint32_t i = 0; i < base; i++) {
        stack[i] = w->stack[i];
        stack[i].mask &= out;
        w->stack[i].mask &= ~out;
    }
    memcpy(frames, w->frames, nframes * sizeof *frames);
    /* The new group stands where the innermost call was made, in its
     * caller's window and frame. */
    const exec_frame *call = &w->frames[nframes];
    exec_lane_group g = { stack, base, base ? base : 1, frames, nframes, nframes ? nframes : 1,
                          call->func, call->reg_off, call->pred_off, call->local,
                          call->local + w->cta->prog->funcs[call->func].frame_bytes, call->stack_ptr };
    save(w, &w->groups[w->ngroups++]);
    load(w, &g);
    /* Calls none of its lanes are in any more (they returned further out)
     * end for it at once. */
    exec_warp_leave_emptied_calls(w);
    w->split = true;
    return true;
}

/* Whether group g stands exactly where the running one does. */
static bool same_place(const exec_warp *w, const exec_lane_group *g)
{
    if (g->sp != w->sp || g->nframes != w->nframes || g->func != w->func || g->reg_off != w->reg_off ||
        g->frame != w->v.frame)
        return false;
    for (uint32_t i = 0; i < g->sp; i++)
        if (g->stack[i].pc != w->stack[i].pc || g->stack[i].rpc != w->stack[i].rpc)
            return false;
    for (uint32_t i = 0; i < g->nframes; i++) {
        const exec_frame *a = &g->frames[i], *b = &w->frames[i];
        if (a->base != b->base || a->call_pc != b->call_pc || a->local != b->local || a->func != b->func ||
            a->reg_off != b->reg_off || a->stack_ptr != b->stack_ptr)
            return false;
    }
    return true;
}

/* Group i's lanes join the running group's entries. */
static void merge(exec_warp *w, uint32_t i)
{
    exec_lane_group *g = &w->groups[i];
    for (uint32_t k = 0; k < g->sp; k++)
        w->stack[k].mask |= g->stack[k].mask;
    free(g->stack);
    free(g->frames);
    drop(w, i);
}

/* Group g's top entry: the one that runs when g does (finished entries
 * above it go then), or NULL. */
static exec_simt *top_of(const exec_lane_group *g)
{
    for (uint32_t i = g->sp; i-- > 0;)
        if (g->stack[i].mask && g->stack[i].pc != g->stack[i].rpc)
            return &g->stack[i];
    return NULL;
}

/* Whether group g has lanes that could run now: its top entry, once the
 * finished ones above it go, has lanes not parked at a barrier. */
static bool can_run(const exec_warp *w, const exec_lane_group *g)
{
    const exec_simt *top = top_of(g);
    return top && (top->mask & ~w->bar_parked) != 0;
}

uint32_t exec_warp_groups_synced(exec_warp *w, uint32_t members, uint32_t lanes, bool pass)
{
    const isa_inst *code = w->cta->prog->code;
    uint32_t there = 0;
    for (uint32_t i = 0; i < w->ngroups; i++) {
        exec_lane_group *g = &w->groups[i];
        exec_simt *top = top_of(g);
        if (!top || !(top->mask & lanes))
            continue;
        const isa_inst *in = &code[top->pc];
        if (in->op != ISA_OP_BAR || !(in->flags & ISA_MOD_FLAG(WARP)) ||
            exec_sync_members(in, w->regs + (size_t)g->reg_off * ISA_WARP_SIZE, top->mask) != members)
            continue;
        there |= top->mask & lanes;
        if (pass)
            top->pc++;
    }
    return there;
}

/* Groups at the running one's place join it; true if any did. */
static bool join_same_place(exec_warp *w)
{
    bool joined = false;
    for (uint32_t i = w->ngroups; i-- > 0;)
        if (same_place(w, &w->groups[i])) {
            merge(w, i);
            joined = true;
        }
    return joined;
}

/* The first waiting group that can run, or ngroups if none can. */
static uint32_t first_runnable(const exec_warp *w)
{
    uint32_t i = 0;
    while (i < w->ngroups && !can_run(w, &w->groups[i]))
        i++;
    return i;
}

/* The first waiting group that can run takes the running one's turn; the
 * running one waits last in line. */
static bool switch_to_runnable(exec_warp *w)
{
    uint32_t i = first_runnable(w);
    if (i == w->ngroups)
        return false;
    exec_lane_group next = w->groups[i];
    drop(w, i);
    save(w, &w->groups[w->ngroups++]);
    load(w, &next);
    return true;
}

bool exec_warp_switch_group(exec_warp *w)
{
    /* Every caller has just run an instruction of the running group (a
     * failed atomic, a warp sync or barrier it arrived at, a turn the loop
     * watch looked at) or parked it at a barrier, so groups that wait for
     * each other still spend the budget, and the loop watch sees them. */
    return w->ngroups && (join_same_place(w) || switch_to_runnable(w));
}

void exec_warp_group_done(exec_warp *w)
{
    /* One that can run if any; else the first, parked at a barrier. */
    uint32_t pick = first_runnable(w);
    if (pick == w->ngroups)
        pick = 0;
    exec_lane_group next = w->groups[pick];
    drop(w, pick);
    free(w->stack);
    free(w->frames);
    load(w, &next);
}

/* The waiting group that holds lane, and its topmost entry holding it;
 * NULL if the lane is in the running group (or past the warp's lanes). */
static const exec_lane_group *waiting_group_of(const exec_warp *w, unsigned lane, const exec_simt **entry)
{
    for (uint32_t i = 0; i < w->ngroups && lane < ISA_WARP_SIZE; i++) {
        const exec_lane_group *g = &w->groups[i];
        for (uint32_t k = g->sp; k-- > 0;)
            if ((g->stack[k].mask >> lane) & 1) {
                *entry = &g->stack[k];
                return g;
            }
    }
    return NULL;
}

void exec_warp_lane_group(const exec_warp *w, unsigned lane, exec_lane_group *out)
{
    const exec_simt *entry;
    const exec_lane_group *g = waiting_group_of(w, lane, &entry);
    if (g)
        *out = *g;
    else
        save(w, out);
}

bool exec_warp_lane_apart(const exec_warp *w, unsigned lane, uint32_t *pc)
{
    const exec_simt *entry;
    if (!waiting_group_of(w, lane, &entry))
        return false;
    *pc = entry->pc;
    return true;
}

void exec_warp_groups_free(exec_warp *w)
{
    for (uint32_t i = 0; i < w->ngroups; i++) {
        free(w->groups[i].stack);
        free(w->groups[i].frames);
    }
    w->ngroups = 0;
}

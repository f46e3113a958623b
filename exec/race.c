/*
 * race.c -- the shared-memory race check (--check race): accesses to the
 * same shared byte by two threads of a CTA with no barrier between them,
 * at least one of them a write.
 *
 * Every shared byte has a shadow cell: its last writer and three of its
 * readers since (see add_reader), each with the CTA's barrier epoch and the
 * accessing warp's warp-sync count at the time.  A barrier release starts a new
 * epoch, so an access recorded in an older epoch is ordered before every
 * later one.  Two accesses by lanes of one warp are ordered by a
 * bar.warp.sync (__syncwarp) between them; without one they are a hazard
 * too, since with independent thread scheduling (Volta on) lanes of a warp
 * need not run in step -- even though ptxsim runs them in lockstep.  That
 * includes two lanes writing the same byte in one instruction; many lanes
 * reading one byte is fine.  Atomics are not races and are not recorded.
 *
 * Three readers per byte are a summary, not the set, chosen so that a write
 * finds an unordered reader whenever there is one, with one exception (see
 * add_reader).  Named and
 * partial barriers (bar.sync 1, 64) start an epoch for the whole CTA, which
 * can hide hazards between threads the barrier did not order.
 *
 * Within an epoch the memory model's synchronisation orders accesses too,
 * as in the global check: two strong accesses (volatile, .relaxed,
 * .acquire, .release) never race, and a thread's access is published by a
 * release it executes after it -- st.release, a fence, an atom with
 * .release or .acq_rel, an mbarrier arrive (cuda::barrier's arrive,
 * .release by default) -- and seen by a thread that acquires after that:
 * ld.acquire, a fence, such an atom, an mbarrier test_wait or try_wait.
 * So a shared flag handed over with release and acquire, and an exchange
 * through a cuda::barrier, are not reported.  A __syncwarp carries that
 * order between lanes: a lane's access before it is published by another
 * lane's release after it (exec_race_syncwarp).  Each thread's latest release
 * alone is kept: a later release by the same thread hides the earlier one,
 * and the pair then reported was ordered (rare: the writer released twice
 * before the reader acquired).
 *
 * The global check (race_global.c) rides on the same hooks: this file
 * hands it every global access.
 *
 * Cost: 80 bytes of shadow per shared byte and a cell update per byte
 * accessed, paid only with the check on (hotspot at size small: 1.34 s of
 * user time against 0.91 s; matmul_shared 0.22 against 0.11).  With it off
 * the interpreter tests one pointer after each memory instruction, which
 * does not show: histogram, srad and lud at size small took 0.91, 0.39 and
 * 0.65 s against 0.96, 0.40 and 0.82 s before the check existed (the
 * least of five runs each, on a loaded machine).
 */
#include "exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One recorded access: epoch 0 is "none". */
typedef struct race_access {
    uint32_t epoch;
    uint32_t pc;
    uint32_t wsync;             /* the accessing warp's bar.warp.sync count */
    uint32_t clock;             /* the CTA's sync clock at the access */
    uint16_t thread;            /* linear thread index in the CTA */
    uint16_t strong;            /* volatile, relaxed, acquire or release */
} race_access;

typedef struct race_cell {
    race_access w;              /* last writer */
    race_access r1, r2, r3;     /* readers this epoch: see add_reader */
} race_cell;

struct exec_race {
    race_cell *cells;           /* one per shared byte */
    uint32_t bytes;
    uint32_t epoch;             /* the CTA's barrier epoch; never reset, so a
                                 * reused shadow needs no clearing */
    uint32_t *wsync;            /* per warp */
    uint32_t nwarps;
    /* Synchronisation within an epoch: a clock counting releases and
     * acquires, and per thread the clock of its latest of each. */
    uint32_t clock;
    uint32_t *released, *acquired;
    /* Per warp: the clock at its latest __syncwarp, and at the latest
     * release by any of its lanes with the __syncwarp clock before that
     * release: what any lane accessed before that __syncwarp it published. */
    uint32_t *synced, *warp_released, *warp_released_sync;
};

exec_race *exec_race_new(uint32_t shared_bytes, uint32_t nwarps)
{
    exec_race *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cells = calloc(shared_bytes ? shared_bytes : 1, sizeof *r->cells);
    r->wsync = calloc(nwarps ? nwarps : 1, sizeof *r->wsync);
    r->released = calloc((nwarps ? nwarps : 1) * ISA_WARP_SIZE, sizeof *r->released);
    r->acquired = calloc((nwarps ? nwarps : 1) * ISA_WARP_SIZE, sizeof *r->acquired);
    r->synced = calloc(nwarps ? nwarps : 1, sizeof *r->synced);
    r->warp_released = calloc(nwarps ? nwarps : 1, sizeof *r->warp_released);
    r->warp_released_sync = calloc(nwarps ? nwarps : 1, sizeof *r->warp_released_sync);
    if (!r->cells || !r->wsync || !r->released || !r->acquired || !r->synced || !r->warp_released ||
        !r->warp_released_sync) {
        exec_race_free(r);
        return NULL;
    }
    r->bytes = shared_bytes;
    r->nwarps = nwarps;
    return r;
}

void exec_race_free(exec_race *r)
{
    if (!r)
        return;
    free(r->cells);
    free(r->wsync);
    free(r->released);
    free(r->acquired);
    free(r->synced);
    free(r->warp_released);
    free(r->warp_released_sync);
    free(r);
}

/* A new CTA (or a barrier release): nothing recorded before is unordered
 * with what follows. */
void exec_race_epoch(exec_race *r) { r->epoch++; }

/* A __syncwarp orders the warp's lanes (wsync), and carries the memory
 * model's order through them: what a lane accessed before it, a release by
 * any lane after it publishes; what a lane acquired before it, every lane
 * has seen after it.  Its mask is not looked at: a partial __syncwarp is
 * taken to order the whole warp, which could hide a hazard with a lane
 * outside the mask. */
void exec_race_syncwarp(exec_race *r, uint32_t warp)
{
    r->wsync[warp]++;
    r->synced[warp] = ++r->clock;
    uint32_t *acq = &r->acquired[warp * ISA_WARP_SIZE], seen = 0;
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        seen = acq[l] > seen ? acq[l] : seen;
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        acq[l] = seen;
}
uint32_t exec_race_epoch_of(const exec_race *r) { return r->epoch; }
uint32_t exec_race_wsync_of(const exec_race *r, uint32_t warp) { return r->wsync[warp]; }

/* The lanes of warp `warp` in mask release (publish what they accessed
 * before) or acquire (see what was published before). */
static void release_lanes(exec_race *r, uint32_t warp, uint32_t mask)
{
    uint32_t c = ++r->clock;
    if (mask) {
        r->warp_released[warp] = c;
        r->warp_released_sync[warp] = r->synced[warp];
    }
    for (; mask; mask &= mask - 1)
        r->released[warp * ISA_WARP_SIZE + (uint32_t)__builtin_ctz(mask)] = c;
}

static void acquire_lanes(exec_race *r, uint32_t warp, uint32_t mask)
{
    uint32_t c = ++r->clock;
    for (; mask; mask &= mask - 1)
        r->acquired[warp * ISA_WARP_SIZE + (uint32_t)__builtin_ctz(mask)] = c;
}

/* Is the recorded access a unordered with an access by thread t now
 * (strong: that one is)? */
static inline bool unordered(const exec_race *r, const race_access *a, uint32_t t, bool strong)
{
    if (a->epoch != r->epoch || a->thread == t || (a->strong && strong))
        return false;
    uint32_t rel = r->released[a->thread];
    if (a->clock < rel && rel < r->acquired[t])
        return false;           /* published after it, seen by t since */
    uint32_t warp = a->thread / ISA_WARP_SIZE;
    if (a->clock < r->warp_released_sync[warp] && r->warp_released[warp] < r->acquired[t])
        return false;           /* the same through a __syncwarp and another lane's release */
    return warp != t / ISA_WARP_SIZE || a->wsync == r->wsync[warp];
}

static void thread_xyz(const exec_cta *c, uint32_t t, uint32_t out[3])
{
    out[0] = t % c->ntid[0];
    out[1] = t / c->ntid[0] % c->ntid[1];
    out[2] = t / (c->ntid[0] * c->ntid[1]);
}

bool exec_race_seen(exec_grid *g, uint32_t pc0, uint32_t pc1, uint8_t kind)
{
    for (uint32_t i = 0; i < g->nrace_pairs; i++)
        if (g->race_pairs[i].pc[0] == pc0 && g->race_pairs[i].pc[1] == pc1 &&
            g->race_pairs[i].kind == kind)
            return true;
    if (g->nrace_pairs < EXEC_RACE_PAIRS)
        g->race_pairs[g->nrace_pairs++] = (exec_race_pair){ { pc0, pc1 }, kind };
    return false;
}

enum { RAW = EXEC_RACE_RAW, WAR = EXEC_RACE_WAR, WAW = EXEC_RACE_WAW };
const char *const exec_race_kind_names[3] = { "read-after-write", "write-after-read", "write-after-write" };

/* A hazard between the recorded access a and thread t's access now at pc
 * (cold path).  The first of each (pc, pc, kind) is reported; the rest are
 * counted. */
static void hazard(exec_warp *w, const race_access *a, uint32_t t, uint32_t pc, uint8_t kind,
                   uint64_t addr, unsigned bytes)
{
    exec_cta *c = w->cta;
    exec_grid *g = c->grid;
    g->race_hits++;
    if (exec_race_seen(g, a->pc, pc, kind))
        return;
    g->races++;
    exec_race_report rep;
    memset(&rep, 0, sizeof rep);
    rep.kernel = c->k->info.name;
    rep.kind = exec_race_kind_names[kind];
    memcpy(rep.ctaid[0], c->ctaid, sizeof rep.ctaid[0]);
    memcpy(rep.ctaid[1], c->ctaid, sizeof rep.ctaid[1]);
    rep.addr = addr;
    rep.pc[0] = a->pc;
    rep.pc[1] = pc;
    thread_xyz(c, a->thread, rep.tid[0]);
    thread_xyz(c, t, rep.tid[1]);
    char at0[200], at1[200];
    exec_program_where_text(c->prog, a->pc, at0, sizeof at0);
    exec_program_where_text(c->prog, pc, at1, sizeof at1);
    bool same_warp = a->thread / ISA_WARP_SIZE == t / ISA_WARP_SIZE;
    char var[300] = "";
    const char *name;
    uint64_t in_var;
    if (exec_kernel_shared_var(c->prog, c->k, addr, &name, &in_var))
        snprintf(var, sizeof var, " ('%s' + %llu)", name, (unsigned long long)in_var);
    snprintf(rep.msg, sizeof rep.msg,
             "race: %s hazard on shared memory in kernel '%s', block (%u,%u,%u), at shared address "
             "0x%llx%s: thread (%u,%u,%u) %s %u bytes at %s after thread (%u,%u,%u) %s it at %s, "
             "with no %s between them",
             rep.kind, rep.kernel, c->ctaid[0], c->ctaid[1], c->ctaid[2], (unsigned long long)addr, var,
             rep.tid[1][0], rep.tid[1][1], rep.tid[1][2], kind == RAW ? "read" : "wrote", bytes, at1,
             rep.tid[0][0], rep.tid[0][1], rep.tid[0][2], kind == WAR ? "read" : "wrote", at0,
             same_warp ? "__syncwarp() or barrier (the threads share a warp)" : "barrier");
    if (g->l.on_race)
        g->l.on_race(g->l.race_ctx, &rep);
}

/* Record a read.  A later write by thread T must find an unordered reader
 * whenever one exists.  Readers of another warp than T's are unordered with
 * it (same epoch); readers of T's warp are when they are not T and no
 * __syncwarp came between.  So the cell keeps r1, the latest reader; r2,
 * the latest reader of another warp than r1's (one of r1, r2 is outside
 * any T's warp); and r3, the latest reader of r1's warp other than r1's
 * thread (for T = r1).  When a new reader's warp differs from r1's, r3
 * becomes the old r2 if that is of the new reader's warp and another
 * thread; otherwise the latest such reader is not known and r3 is empty.
 * So the one hazard that can go unseen: threads A and B of one warp read,
 * a thread of another warp reads, A reads again, then A writes before a
 * __syncwarp (B's read is forgotten). */
static void add_reader(const exec_race *r, race_cell *cell, race_access now)
{
    static const race_access none;
    if (cell->r1.epoch != r->epoch) {
        cell->r1 = now;
        cell->r2 = cell->r3 = none;
        return;
    }
    uint32_t warp = now.thread / ISA_WARP_SIZE, warp1 = cell->r1.thread / ISA_WARP_SIZE;
    if (now.thread == cell->r1.thread) {
        /* r2 and r3 stay what they were relative to this thread */
    } else if (warp == warp1) {
        cell->r3 = cell->r1;
    } else {
        race_access old2 = cell->r2;
        cell->r2 = cell->r1;
        cell->r3 = old2.epoch == r->epoch && old2.thread / ISA_WARP_SIZE == warp && old2.thread != now.thread
                 ? old2 : none;
    }
    cell->r1 = now;
}

/* Check and record one lane's access of `bytes` bytes at shared offset off.
 * Stops at the lane's first hazard: one report per access is enough. */
static void access_bytes(exec_warp *w, exec_race *r, uint32_t t, uint32_t pc, uint64_t off,
                         unsigned bytes, bool store, bool strong)
{
    race_access now = { r->epoch, pc, r->wsync[w->index], r->clock, (uint16_t)t, strong };
    bool reported = false;
    for (unsigned b = 0; b < bytes; b++) {
        race_cell *cell = &r->cells[off + b];
        if (store) {
            if (!reported) {
                const race_access *prior = unordered(r, &cell->w, t, strong) ? &cell->w
                                         : unordered(r, &cell->r1, t, strong) ? &cell->r1
                                         : unordered(r, &cell->r2, t, strong) ? &cell->r2
                                         : unordered(r, &cell->r3, t, strong) ? &cell->r3 : NULL;
                if (prior) {
                    hazard(w, prior, t, pc, prior == &cell->w ? WAW : WAR, off, bytes);
                    reported = true;
                }
            }
            cell->w = now;
        } else {
            if (!reported && unordered(r, &cell->w, t, strong)) {
                hazard(w, &cell->w, t, pc, RAW, off, bytes);
                reported = true;
            }
            add_reader(r, cell, now);
        }
    }
}

static bool releases(uint8_t order)
{
    return order == ISA_ORDER_RELEASE || order == ISA_ORDER_ACQ_REL || order == ISA_ORDER_SC;
}

static bool acquires(uint8_t order)
{
    return order == ISA_ORDER_ACQUIRE || order == ISA_ORDER_ACQ_REL || order == ISA_ORDER_SC;
}

void exec_race_access(exec_warp *w, const isa_inst *in, uint32_t pc)
{
    if (w->cta->grid->race_global && in->space != ISA_SPACE_SHARED)
        exec_race_global_access(w, in, pc);
    unsigned fl = isa_ops[in->op].flags;
    if (!isa_op_lane_access(in->op))
        return;                 /* prefetches touch nothing */
    exec_race *r = w->cta->race;
    const isa_access *a = &w->acc;
    /* (A release orders what came before it, an acquire what comes after:
     * the access itself is on the near side of either.) */
    if (releases(in->order))
        release_lanes(r, w->index, a->lanes);
    if (acquires(in->order))
        acquire_lanes(r, w->index, a->lanes);
    if (fl & ISA_F_ATOMIC)
        return;                 /* atomics are not races */
    if (in->space != ISA_SPACE_SHARED && in->space != ISA_SPACE_GENERIC)
        return;
    bool store = (fl & ISA_F_STORE) != 0;
    bool strong = (in->flags & ISA_MOD_FLAG(VOLATILE)) || in->order == ISA_ORDER_RELAXED || releases(in->order) ||
                  acquires(in->order);
    for (uint32_t rest = a->lanes; rest;) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        uint64_t off = a->addr[l];
        if (in->space == ISA_SPACE_GENERIC) {
            if (off - w->mem.shared_win >= ISA_WINDOW_BYTES)
                continue;       /* global or local */
            off -= w->mem.shared_win;
        }
        if (off + a->bytes > r->bytes)
            continue;           /* cannot happen: the access succeeded */
        access_bytes(w, r, w->index * ISA_WARP_SIZE + l, pc, off, a->bytes, store, strong);
    }
}

void exec_race_sync(exec_warp *w, const isa_inst *in, uint32_t mask)
{
    exec_race *r = w->cta->race;
    if (in->op == ISA_OP_FENCE || in->op == ISA_OP_MEMBAR) {
        if (in->mode)
            return;             /* fence.proxy and mbarrier_init: no order between threads */
        release_lanes(r, w->index, mask);
        acquire_lanes(r, w->index, mask);
        return;
    }
    if (in->op != ISA_OP_MBARRIER || in->order == ISA_ORDER_RELAXED)
        return;
    switch (in->mode) {
    case ISA_MODE_ARRIVE: case ISA_MODE_ARRIVE_DROP: case ISA_MODE_ARRIVE_EXPECT_TX:
    case ISA_MODE_ARRIVE_DROP_EXPECT_TX: case ISA_MODE_ARRIVE_NOCOMPLETE: case ISA_MODE_ARRIVE_DROP_NOCOMPLETE:
        release_lanes(r, w->index, mask);
        break;
    case ISA_MODE_TEST_WAIT: case ISA_MODE_TRY_WAIT: case ISA_MODE_TEST_WAIT_PARITY: case ISA_MODE_TRY_WAIT_PARITY:
        acquire_lanes(r, w->index, mask);
        break;
    default:
        break;
    }
}

void exec_race_fence(isa_warp *v, const isa_inst *in, uint32_t mask)
{
    exec_warp *w = v->ctx;
    if (w->cta->race)
        exec_race_sync(w, in, mask);
    if (w->cta->grid->race_global)
        exec_race_global_fence(v, in, mask);
}

/*
 * step.c -- the SMs' cycles side by side on several host threads.
 *
 * A step of the main loop (gpu.c) runs in two parts.  First every SM due
 * runs its cycle on one of the threads, up to its first instruction that
 * reaches beyond its CTAs -- a store or atomic to global memory, a call of
 * printf or malloc (exec_inst_private) -- and stops there (sm->parked).
 * Until then a cycle touches only its own SM, reads global memory, and
 * counts into the SM's own blocks; nothing it reads is written by another
 * thread, so what it does cannot depend on the others.  Then, on the
 * calling thread: the events the SMs made join the queue in SM order, and
 * gpu.c finishes the stopped cycles in SM order and adds the SMs' counts
 * to the launch's.  One thread or sixty-four, every SM sees the
 * same memory at the same point of the same cycle: the statistics are the
 * same, cycle for cycle.
 *
 * What the two parts change against stepping each SM whole in turn: a
 * global store issued this cycle by a lower SM is seen by a higher SM's
 * loads from the next cycle on, not this one.  Memory takes hundreds of
 * cycles to cross a GPU; no program can tell.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

/* One SM's blocks while SMs step side by side: what its cycles count,
 * execute and report, and the events they make.  Whichever thread steps
 * the SM writes them; they are added up in SM order (tm_gather_*), so the
 * sums do not depend on which thread that was. */
typedef struct tm_blocks {
    tm_stats st;
    exec_stats xst;
    exec_error err;
    tm_outbox out;
    uint64_t *sets;             /* its L1's per-set accesses and misses */
} tm_blocks;

/* The threads and a step's job: the SMs due, in pieces, each thread's the
 * due SMs of its own run of SM ids (work, below, says who runs which). */
typedef struct tm_stepper {
    tm_pool *pool;
    uint32_t threads;
    tm_blocks *blocks;          /* by SM */
    tm_sm *const *due;
    uint32_t n;
    uint32_t *from;             /* per piece: its first SM in due, and the next piece's (from[c + 1]) */
    uint64_t job;               /* the job in progress (the pool's number for it) */
    uint64_t *claimed;          /* per piece: the last job that claimed it */
    uint32_t done;              /* pieces of this job finished */
} tm_stepper;

/* Pieces a thread's share is cut into, so that others can take some. */
#define PIECES_PER_THREAD 4

/* By default a step is offered to the other threads only when the SMs
 * whose cycles have come hold this many warps: a step's work follows the
 * warps its schedulers look at, and a step of less (a few SMs, or SMs of
 * one small block each) is cheaper on one thread than handed over and
 * gathered again (gesummv's 16 blocks of 8 warps: 1.35x slower shared;
 * gemm's steps of 28 SMs with 2-3 blocks each: 1.2x faster). */
#define MIN_WARPS 256

void tm_set_threads(tm_gpu *g, uint32_t threads, uint32_t min_warps)
{
    g->threads = threads ? threads : 1;
    g->min_warps = min_warps ? min_warps : MIN_WARPS;
}

void tm_stepper_free(tm_gpu *g)
{
    tm_stepper *s = g->stepper;
    if (!s)
        return;
    tm_pool_free(s->pool);
    for (uint32_t i = 0; s->blocks && i < g->c.n_sm; i++) {
        free(s->blocks[i].sets);
        free(s->blocks[i].out.v);
    }
    free(s->blocks);
    free(s->claimed);
    free(s->from);
    free(s);
    g->stepper = NULL;
}

static void work(void *ctx, uint32_t k, uint64_t job);

/* The threads and the SMs' blocks, made at the first launch that steps
 * SMs side by side. */
static bool stepper_ready(tm_gpu *g)
{
    if (g->stepper)
        return true;
    tm_stepper *s = g->stepper = calloc(1, sizeof *s);
    if (!s || !(s->blocks = calloc(g->c.n_sm, sizeof *s->blocks)))
        return false;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        if (!(s->blocks[i].sets = calloc(2 * g->c.l1_sets, sizeof *s->blocks[i].sets)))
            return false;
    uint32_t n = g->threads < g->c.n_sm ? g->threads : (uint32_t)g->c.n_sm;
    if (n > 1 && !(s->pool = tm_pool_new(n, work, g)))
        return false;
    s->threads = tm_pool_threads(s->pool);
    uint32_t np = s->threads * PIECES_PER_THREAD;
    return (s->claimed = calloc(np, sizeof *s->claimed)) && (s->from = calloc(np + 1, sizeof *s->from));
}

/* Point sm's counts and reports at blocks b (the launch's own for NULL). */
static void point(tm_gpu *g, tm_sm *sm, tm_blocks *b)
{
    tm_stats *st = b ? &b->st : g->st;
    sm->st = st;
    sm->xst = b ? &b->xst : g->xst;
    sm->err = b ? &b->err : g->err;
    sm->l1.stats = &st->l1d;
    sm->l1i.stats = &st->l1i;
    sm->l1c.stats = &st->l1c;
    sm->l1t.stats = &st->l1t;
    uint64_t *sets = b ? b->sets : g->set_counts;
    sm->l1.set_accesses = sets;
    sm->l1.set_misses = sets + g->c.l1_sets;
    sm->outbox = NULL;
}

void tm_point_launch(tm_gpu *g, tm_sm *sm) { point(g, sm, NULL); }

bool tm_point_own_blocks(tm_gpu *g)
{
    if (!stepper_ready(g))
        return false;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        point(g, &g->sms[i], &g->stepper->blocks[i]);
    return true;
}

/* The cycles of due[from..to), in order, each up to where it must wait,
 * their events into the SMs' outboxes (blocks non-NULL) or straight onto
 * the queue; the first failure ends the run (the launch ends at that SM,
 * or a lower one). */
static void run(tm_gpu *g, tm_sm *const *due, uint32_t from, uint32_t to, tm_blocks *blocks)
{
    for (uint32_t i = from; i < to; i++) {
        tm_sm *sm = due[i];
        sm->outbox = blocks ? &blocks[sm->id].out : NULL;
        tm_sm_cycle(g, sm);
        sm->outbox = NULL;
        if (sm->fault)
            break;
    }
}

static bool claim(tm_stepper *s, uint32_t c, uint64_t job)
{
    uint64_t expected = job - 1;
    return __atomic_compare_exchange_n(&s->claimed[c], &expected, job, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* Thread k's part of job `job`: its own pieces (the SMs due in its run of
 * SMs, so that an SM's state stays in one core's caches), then those of
 * any thread that has not come to the job at all (a helper the machine
 * keeps off its core).  A thread that has come keeps its pieces: moving an
 * SM to the other core costs more than its cycle.  A piece is claimed by
 * moving its mark from job - 1 to job; while job J is in progress every
 * mark is J - 1 (a piece not yet claimed) or J, so a helper that comes
 * late, with the number of a job already done, claims nothing. */
static void work(void *ctx, uint32_t k, uint64_t job)
{
    tm_gpu *g = ctx;
    tm_stepper *s = g->stepper;
    for (uint32_t t = 0; t < s->threads; t++) {
        uint32_t owner = (k + t) % s->threads, first = owner * PIECES_PER_THREAD;
        for (uint32_t j = 0; j < PIECES_PER_THREAD; j++) {
            if (!claim(s, first + j, job)) {
                if (j == 0)
                    break;      /* its owner is at work on them */
                continue;
            }
            run(g, s->due, s->from[first + j], s->from[first + j + 1], s->blocks);
            __atomic_add_fetch(&s->done, 1, __ATOMIC_RELEASE);
        }
    }
}

/* Add SM sm's counts into the launch's and clear them: every counter of
 * tm_stats up to the per-set pointers (the few that are not sums -- the
 * credit pool's low point, DWT's and DoM's chosen limits -- belong to
 * mechanisms, which keep a launch off this path, and stay 0 here). */
static void gather(tm_gpu *g, tm_blocks *b)
{
    _Static_assert(offsetof(tm_stats, l1_set_accesses) % sizeof(uint64_t) == 0, "tm_stats counters are words");
    uint64_t *to = (uint64_t *)(void *)g->st, *from = (uint64_t *)(void *)&b->st;
    for (size_t i = 0; i < offsetof(tm_stats, l1_set_accesses) / sizeof(uint64_t); i++) {
        to[i] += from[i];
        from[i] = 0;
    }
    if (g->xst)
        exec_stats_add(g->xst, &b->xst);
    memset(&b->xst, 0, sizeof b->xst);
    for (uint64_t i = 0; i < 2 * g->c.l1_sets; i++) {
        g->set_counts[i] += b->sets[i];
        b->sets[i] = 0;
    }
}

void tm_gather_all(tm_gpu *g)
{
    for (uint32_t i = 0; g->stepper && i < g->c.n_sm; i++)
        gather(g, &g->stepper->blocks[i]);
}

void tm_gather_insts(tm_gpu *g, tm_sm *const *sms, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        tm_stats *st = &g->stepper->blocks[sms[i]->id].st;
        g->st->warp_insts += st->warp_insts;
        st->warp_insts = 0;
    }
}

void tm_step_side_by_side(tm_gpu *g, tm_sm *const *due, uint32_t n)
{
    tm_stepper *s = g->stepper;
    uint64_t warps = 0;
    for (uint32_t i = 0; i < n && warps < g->min_warps; i++)
        warps += due[i]->resident_warps;
    if (s->threads < 2 || warps < g->min_warps || n < 2) {
        run(g, due, 0, n, NULL);        /* on this thread, in SM order */
        return;
    }
    /* Thread k's pieces cut its run of SMs' due ones in PIECES_PER_THREAD. */
    uint32_t np = s->threads * PIECES_PER_THREAD, nsm = (uint32_t)g->c.n_sm;
    uint64_t job = ++s->job;
    s->due = due;
    s->n = n;
    for (uint32_t k = 0, at = 0; k < s->threads; k++) {
        uint32_t lo = at, end = (uint32_t)((uint64_t)nsm * (k + 1) / s->threads);
        while (at < n && due[at]->id < end)
            at++;
        for (uint32_t j = 0; j < PIECES_PER_THREAD; j++)
            s->from[k * PIECES_PER_THREAD + j] = lo + (at - lo) * j / PIECES_PER_THREAD;
    }
    s->from[np] = n;
    for (uint32_t c = 0; c < np; c++)
        __atomic_store_n(&s->claimed[c], job - 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->done, 0, __ATOMIC_RELAXED);
    tm_pool_offer(s->pool, job);
    work(g, 0, job);
    tm_pool_wait(&s->done, np);
    /* The events in SM order, numbered as one thread would number them. */
    for (uint32_t i = 0; i < n; i++) {
        tm_outbox *o = &s->blocks[due[i]->id].out;
        for (uint32_t e = 0; e < o->n; e++)
            tm_push_event(g, o->v[e].time, (tm_event_kind)o->v[e].kind, o->v[e].where, o->v[e].ptr);
        o->n = 0;
    }
}

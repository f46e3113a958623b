/*
 * step.c -- the components' work of a step side by side on several host
 * threads: the memory partitions' events, the replies reaching each SM, and
 * the SMs' cycles.
 *
 * A step of the main loop (gpu.c) runs in two parts.  First, on the
 * threads, every memory partition fires its events due by now, and every
 * SM takes the replies due by now, then runs its cycle if it is due, up to
 * its first instruction that reaches beyond its CTAs -- a store or atomic
 * to global memory, a call of printf or malloc (exec_inst_private) -- and
 * stops there (sm->parked).  Until then each touches only its own state,
 * reads global memory, counts into blocks of its own, and puts what it
 * sends another component in its outbox: nothing it reads is written by
 * another thread, so what it does cannot depend on the others (events.c:
 * nothing sent in a step is due within it).  Then, on the calling thread:
 * the outboxes are delivered in a fixed order (SMs', then partitions', by
 * id), and gpu.c finishes the stopped cycles in SM order and adds the
 * counts up.  One thread or sixty-four, every component sees the same
 * events in the same order and the same memory at the same point of the
 * same cycle: the statistics are the same, cycle for cycle.
 *
 * What the two parts change against stepping each SM whole in turn: a
 * global store issued this cycle by a lower SM is seen by a higher SM's
 * loads from the next cycle on, not this one.  Memory takes hundreds of
 * cycles to cross a GPU; no program can tell.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

/* One component's blocks while components step side by side: what it
 * counts, executes and reports, and the events it sends.  Whichever thread
 * runs the component writes them; they are added up in id order
 * (tm_gather_*), so the sums do not depend on which thread that was. */
typedef struct tm_blocks {
    tm_stats st;
    exec_stats xst;
    exec_error err;
    tm_outbox out;
    uint64_t *sets;             /* its cache's per-set accesses and misses (L1D of an SM, L2 slice) */
} tm_blocks;

/* The threads and a step's job: the partitions and SMs with work, in
 * pieces, each thread's those of its own run of ids (work, below, says who
 * runs which). */
typedef struct tm_stepper {
    tm_pool *pool;
    uint32_t threads;
    tm_blocks *blocks;          /* by SM */
    tm_blocks *pblocks;         /* by partition */
    const uint32_t *parts;      /* the job: partitions with events due */
    tm_sm *const *sms;          /* ... SMs with replies due or their cycle come */
    int what;                   /* ... and what they do (STEP_*) */
    uint32_t *from, *pfrom;     /* per piece: its first SM in sms (partition in parts), and the next piece's */
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

/* ... where a partition with events due counts as this many warps. */
#define PARTITION_WARPS 32

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
    for (uint32_t p = 0; s->pblocks && p < g->c.n_partitions; p++) {
        free(s->pblocks[p].sets);
        free(s->pblocks[p].out.v);
    }
    free(s->blocks);
    free(s->pblocks);
    free(s->claimed);
    free(s->from);
    free(s->pfrom);
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
    if (!s || !(s->blocks = calloc(g->c.n_sm, sizeof *s->blocks)) ||
        !(s->pblocks = calloc(g->c.n_partitions, sizeof *s->pblocks)))
        return false;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        if (!(s->blocks[i].sets = calloc(2 * g->c.l1_sets, sizeof *s->blocks[i].sets)))
            return false;
    for (uint32_t p = 0; p < g->c.n_partitions; p++)
        if (!(s->pblocks[p].sets = calloc(2 * g->c.l2_sets, sizeof *s->pblocks[p].sets)))
            return false;
    uint32_t n = g->threads < g->c.n_sm ? g->threads : (uint32_t)g->c.n_sm;
    if (n > 1 && !(s->pool = tm_pool_new(n, work, g)))
        return false;
    s->threads = tm_pool_threads(s->pool);
    uint32_t np = s->threads * PIECES_PER_THREAD;
    return (s->claimed = calloc(np, sizeof *s->claimed)) && (s->from = calloc(np + 1, sizeof *s->from)) &&
           (s->pfrom = calloc(np + 1, sizeof *s->pfrom));
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

/* ... and partition p's. */
static void point_partition(tm_gpu *g, tm_partition *p, tm_blocks *b)
{
    tm_stats *st = b ? &b->st : g->st;
    p->st = st;
    p->l2.stats = &st->l2;
    uint64_t *sets = b ? b->sets : g->set_counts + 2 * g->c.l1_sets;
    p->l2.set_accesses = sets;
    p->l2.set_misses = sets + g->c.l2_sets;
    p->outbox = NULL;
}

void tm_point_launch(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        point(g, &g->sms[i], NULL);
    for (uint32_t p = 0; p < g->c.n_partitions; p++)
        point_partition(g, &g->parts[p], NULL);
}

bool tm_point_own_blocks(tm_gpu *g)
{
    if (!stepper_ready(g))
        return false;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        point(g, &g->sms[i], &g->stepper->blocks[i]);
    for (uint32_t p = 0; p < g->c.n_partitions; p++)
        point_partition(g, &g->parts[p], &g->stepper->pblocks[p]);
    return true;
}

/* An SM of a step: the replies due by now, then (STEP_CYCLE) its cycle if
 * it has work and its time has come, up to where it must wait. */
static void run_sm(tm_gpu *g, tm_sm *sm, int what)
{
    if (what & STEP_FIRE)
        tm_fire_inbox(g, sm);
    if ((what & STEP_CYCLE) && (sm->nctas || sm->missq || sm->lsu) && sm->wake <= g->now)
        tm_sm_cycle(g, sm);
}

/* Partitions parts[pfrom..pto) and SMs sms[from..to), in order, what they
 * send into their outboxes (blocks non-NULL) or straight to its receivers;
 * an SM's failure ends the run (the launch ends at that SM, or a lower
 * one). */
static void run(tm_gpu *g, const uint32_t *parts, uint32_t pfrom, uint32_t pto, tm_sm *const *sms, uint32_t from,
                uint32_t to, int what, tm_stepper *s)
{
    for (uint32_t i = pfrom; i < pto; i++) {
        tm_partition *p = &g->parts[parts[i]];
        p->outbox = s ? &s->pblocks[parts[i]].out : NULL;
        tm_fire_partition(g, parts[i]);
        p->outbox = NULL;
    }
    for (uint32_t i = from; i < to; i++) {
        tm_sm *sm = sms[i];
        sm->outbox = s ? &s->blocks[sm->id].out : NULL;
        run_sm(g, sm, what);
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
            uint32_t c = first + j;
            run(g, s->parts, s->pfrom[c], s->pfrom[c + 1], s->sms, s->from[c], s->from[c + 1], s->what, s);
            __atomic_add_fetch(&s->done, 1, __ATOMIC_RELEASE);
        }
    }
}

/* Add a component's counts into the launch's and clear them: every counter
 * of tm_stats up to the per-set pointers (the few that are not sums -- the
 * credit pool's low point, DWT's and DoM's chosen limits -- belong to
 * mechanisms, which keep a launch off this path, and stay 0 here), and its
 * cache's nsets per-set counts into sets. */
static void gather(tm_gpu *g, tm_blocks *b, uint64_t *sets, uint64_t nsets)
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
    for (uint64_t i = 0; i < 2 * nsets; i++) {
        sets[i] += b->sets[i];
        b->sets[i] = 0;
    }
}

void tm_gather_all(tm_gpu *g)
{
    const tm_config *c = &g->c;
    for (uint32_t i = 0; g->stepper && i < c->n_sm; i++)
        gather(g, &g->stepper->blocks[i], g->set_counts, c->l1_sets);
    for (uint32_t p = 0; g->stepper && p < c->n_partitions; p++)
        gather(g, &g->stepper->pblocks[p], g->set_counts + 2 * c->l1_sets, c->l2_sets);
}

void tm_gather_insts(tm_gpu *g, tm_sm *const *sms, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        tm_stats *st = &g->stepper->blocks[sms[i]->id].st;
        g->st->warp_insts += st->warp_insts;
        st->warp_insts = 0;
    }
}

/* Cut ids[0..n) (ascending, below `count`) into the threads' pieces:
 * thread k's are those of its run of ids, in PIECES_PER_THREAD. */
static void cut(uint32_t *from, uint32_t threads, uint32_t count, const uint32_t *ids, tm_sm *const *sms, uint32_t n)
{
    for (uint32_t k = 0, at = 0; k < threads; k++) {
        uint32_t lo = at, end = (uint32_t)((uint64_t)count * (k + 1) / threads);
        while (at < n && (ids ? ids[at] : sms[at]->id) < end)
            at++;
        for (uint32_t j = 0; j < PIECES_PER_THREAD; j++)
            from[k * PIECES_PER_THREAD + j] = lo + (at - lo) * j / PIECES_PER_THREAD;
    }
    from[threads * PIECES_PER_THREAD] = n;
}

void tm_step_side_by_side(tm_gpu *g, const uint32_t *parts, uint32_t nparts, tm_sm *const *sms, uint32_t nsms,
                          int what)
{
    tm_stepper *s = g->stepper;
    /* A step's work follows the warps its schedulers look at and the
     * events its partitions fire. */
    uint64_t weight = nparts * (uint64_t)PARTITION_WARPS;
    for (uint32_t i = 0; i < nsms && weight < g->min_warps; i++)
        if (what & STEP_CYCLE)
            weight += sms[i]->resident_warps;
    if (s->threads < 2 || weight < g->min_warps || nparts + nsms < 2) {
        run(g, parts, 0, nparts, sms, 0, nsms, what, NULL);     /* on this thread, in id order */
        return;
    }
    uint32_t np = s->threads * PIECES_PER_THREAD;
    uint64_t job = ++s->job;
    s->parts = parts;
    s->sms = sms;
    s->what = what;
    cut(s->pfrom, s->threads, (uint32_t)g->c.n_partitions, parts, NULL, nparts);
    cut(s->from, s->threads, (uint32_t)g->c.n_sm, NULL, sms, nsms);
    for (uint32_t c = 0; c < np; c++)
        __atomic_store_n(&s->claimed[c], job - 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->done, 0, __ATOMIC_RELAXED);
    tm_pool_offer(s->pool, job);
    work(g, 0, job);
    tm_pool_wait(&s->done, np);
    /* What they sent, SMs' then partitions', by id: as one thread sends it. */
    for (uint32_t i = 0; i < nsms; i++)
        tm_deliver(g, &s->blocks[sms[i]->id].out);
    for (uint32_t i = 0; i < nparts; i++)
        tm_deliver(g, &s->pblocks[parts[i]].out);
}

/*
 * dwt.c -- dynamic warp throttling by core sampling (DWT-CS, Khairy 2015).
 *
 * Every dwt_period cycles the L1D misses per thousand thread-instructions
 * of the period are compared with dwt_mpki.  After dwt_detect thrashing
 * periods in a row -- at any time (dwt_window=any, the thesis's DWT-CS
 * alone), or only the kernel's first dwt_detect periods (first, its
 * combined DWT-PRIC) -- each core runs a different limit (core i: 1 + i
 * mod the warps per scheduler) for dwt_sample periods; the core that
 * committed most thread-instructions wins.  When the winner is the last
 * core, with the highest limit tried, and a scheduler has more warps than
 * that, a second round tries the limits from it up to all of them (the
 * thesis's 16-24).  The limit applies to every core until the kernel ends
 * and, remembered by kernel, to later launches of the same kernel as soon
 * as they thrash.  The limit is the schedulers' warp_limit (sm.c's
 * candidates).
 *
 * DBSA (dbsa.c) waits while DWT-CS detects thrashing in its first window
 * or samples (tm_dwt_deciding): streaming and thrashing both miss, and the
 * thesis tests for thrashing first so that DBSA does not bypass a cache
 * that throttling would have made work.
 */
#include "sm.h"

enum { MONITOR, SAMPLE, APPLIED, DONE };

typedef struct dwt_gpu {
    int state;
    uint32_t periods;           /* consecutive thrashing periods, or sampling periods done */
    uint32_t seen;              /* periods of the launch monitored */
    uint32_t round;             /* sampling round: 1, or 2 for the limits above the cores' */
    uint64_t misses, insts;     /* L1D misses and thread-instructions at the period's start */
    struct { const char *kernel; uint32_t limit; } memo[64];   /* limits chosen, by kernel */
    uint32_t nmemo;
} dwt_gpu;

/* Per SM: its thread-instructions when sampling began. */
typedef struct dwt_sm {
    uint64_t insts_at;
} dwt_sm;

static dwt_gpu *state(const tm_gpu *g) { return tm_mech_gpu(g, TM_MECH_DWT); }
static dwt_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_DWT); }

static void apply(tm_gpu *g, uint32_t limit)
{
    tm_set_warp_limit(g, limit);
    g->st->dwt_limit = limit;
    state(g)->state = APPLIED;
}

/* Thrashing for long enough: a remembered limit, or sample the cores. */
/* Each core i a limit from `lo`: lo + i mod the limits up to per_sched. */
static void sample(tm_gpu *g, dwt_gpu *d, uint32_t lo, uint32_t per_sched)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++) {
        g->sms[i].warp_limit = lo + i % (per_sched - lo + 1);
        tm_sm_look_all(&g->sms[i]);
        sm_state(g, &g->sms[i])->insts_at = g->sms[i].thread_insts;
    }
    g->st->dwt_samplings++;
    d->state = SAMPLE;
    d->periods = 0;
}

static void monitor(tm_gpu *g, dwt_gpu *d, uint64_t misses, uint64_t insts, uint32_t per_sched)
{
    const tm_config *c = &g->c;
    bool thrashing = insts && misses * 1000 > c->dwt_mpki * insts;
    d->periods = thrashing ? d->periods + 1 : 0;
    d->seen++;
    if (d->periods < c->dwt_detect) {
        if (c->dwt_window == TM_DWT_FIRST && d->seen >= c->dwt_detect)
            d->state = DONE;    /* the first window did not thrash throughout */
        return;
    }
    for (uint32_t k = 0; k < d->nmemo; k++)
        if (d->memo[k].kernel == g->kernel) {
            apply(g, d->memo[k].limit);
            return;
        }
    d->round = 1;
    sample(g, d, 1, per_sched);
}

/* Sampling is over: the limit of the core that committed most. */
static void choose(tm_gpu *g, dwt_gpu *d, uint32_t per_sched)
{
    const tm_config *c = &g->c;
    if (++d->periods < c->dwt_sample)
        return;
    uint32_t best = 0, highest = 0;
    uint64_t most = 0;
    for (uint32_t i = 0; i < c->n_sm; i++) {
        uint64_t insts = g->sms[i].thread_insts - sm_state(g, &g->sms[i])->insts_at;
        if (g->sms[i].warp_limit > highest)
            highest = g->sms[i].warp_limit;
        if (insts > most) {
            most = insts;
            best = g->sms[i].warp_limit;
        }
    }
    if (!best)
        best = per_sched;
    if (d->round == 1 && best == highest && highest < per_sched) {
        d->round = 2;           /* the last core won: try the limits above it */
        sample(g, d, highest, per_sched);
        return;
    }
    apply(g, best);
    if (d->nmemo < sizeof d->memo / sizeof d->memo[0]) {
        d->memo[d->nmemo].kernel = g->kernel;
        d->memo[d->nmemo++].limit = best;
    }
}

static void decide(tm_gpu *g)
{
    const tm_config *c = &g->c;
    dwt_gpu *d = state(g);
    tm_stats *st = g->st;
    uint64_t misses = st->l1d.misses - d->misses, insts = st->thread_insts - d->insts;
    d->misses = st->l1d.misses;
    d->insts = st->thread_insts;
    uint32_t per_sched = (uint32_t)(c->sm_max_threads / 32 / c->n_schedulers);
    if (d->state == MONITOR)
        monitor(g, d, misses, insts, per_sched);
    else if (d->state == SAMPLE)
        choose(g, d, per_sched);
}

static uint64_t period(const tm_config *c) { return c->dwt_period; }

static bool enabled(const tm_config *c) { return c->throttle == TM_THROTTLE_DWT; }

/* Each launch starts monitoring, without a limit; the memo stays. */
static void launch(tm_gpu *g)
{
    dwt_gpu *d = state(g);
    d->state = MONITOR;
    d->periods = d->seen = d->round = 0;
    d->misses = d->insts = 0;
}

bool tm_dwt_deciding(const tm_gpu *g)
{
    if (g->c.throttle != TM_THROTTLE_DWT)
        return false;
    const dwt_gpu *d = state(g);
    return d->state == SAMPLE || (d->state == MONITOR && g->c.dwt_window == TM_DWT_FIRST);
}

const tm_mech tm_mech_dwt = {
    .name = "dwt",
    .enabled = enabled,
    .gpu_bytes = sizeof(dwt_gpu),
    .sm_bytes = sizeof(dwt_sm),
    .launch = launch,
    .period = period,
    .decide = decide,
};

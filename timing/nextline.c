/*
 * nextline.c -- a next-line L1 prefetcher (nextline_prefetch=on), written
 * through the mechanism hooks alone: docs/extending.md walks through it.
 *
 * When a demand global load misses in the L1D, the line after the missed
 * one is prefetched.  It waits in a small queue per SM and goes to the L1
 * when the memory stage has nothing else to do, as a pre-load: it fills
 * the L1 and writes no register.  A line already in the L1, already on its
 * way or already queued is not asked for again; a full queue, or an L1
 * that refuses the prefetch, drops it.  A prefetched line that a demand
 * load then finds -- a hit, or a miss merged into the prefetch's fill --
 * was useful.
 */
#include "sm.h"

#include <stdlib.h>

#define QUEUE 16                /* lines waiting for an idle memory stage, per SM */
#define RECENT 64               /* prefetched lines remembered per SM, to count the useful ones */

typedef struct nextline_sm {
    uint64_t queue[QUEUE];      /* a ring */
    uint32_t head, len;
    uint64_t recent[RECENT];    /* line + 1, at line % RECENT (0: none) */
} nextline_sm;

typedef struct nextline_stats {
    uint64_t queued, issued, useful, dropped;
} nextline_stats;

static nextline_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_NEXTLINE); }
static nextline_stats *stats(const tm_gpu *g) { return tm_mech_stats(g, TM_MECH_NEXTLINE); }

static bool enabled(const tm_config *c) { return c->nextline_prefetch != 0; }

static uint32_t all_sectors(const tm_sm *sm)
{
    return sm->l1.sectors_per_line >= 32 ? ~0u : (1u << sm->l1.sectors_per_line) - 1;
}

/* Is the whole line in the L1, or on its way there? */
static bool have(tm_sm *sm, uint64_t line)
{
    return tm_cache_present(&sm->l1, line << sm->l1.line_shift, all_sectors(sm)) || tm_mshr_find(&sm->l1, line);
}

/* A demand load's transaction reached the L1: count a useful prefetch;
 * after a global load's miss, queue the next line. */
static void l1_access(tm_gpu *g, tm_sm *sm, tm_minst *m, uint32_t txn, const tm_acc *acc)
{
    nextline_sm *n = sm_state(g, sm);
    uint64_t line = m->txn_addr[txn];
    uint64_t *seen = &n->recent[line % RECENT];
    if (*seen == line + 1 && (acc->result == ACC_HIT || (acc->result == ACC_MISS && !acc->mshr))) {
        stats(g)->useful++;
        *seen = 0;
    }
    if (acc->result != ACC_MISS || m->rec.access.space != ISA_SPACE_GLOBAL || have(sm, line + 1))
        return;
    for (uint32_t i = 0; i < n->len; i++)
        if (n->queue[(n->head + i) % QUEUE] == line + 1)
            return;
    if (n->len == QUEUE) {
        stats(g)->dropped++;
        return;
    }
    n->queue[(n->head + n->len++) % QUEUE] = line + 1;
    stats(g)->queued++;
}

/* The memory stage is idle: send the oldest queued line to the L1. */
static bool lsu_idle(tm_gpu *g, tm_sm *sm)
{
    nextline_sm *n = sm_state(g, sm);
    if (!n->len)
        return false;
    uint64_t line = n->queue[n->head];
    n->head = (n->head + 1) % QUEUE;
    n->len--;
    if (have(sm, line))                 /* a demand load brought it meanwhile */
        return false;
    tm_load *ld = tm_load_new(g, sm, NULL, 1);
    if (!ld)
        return true;
    ld->preload = true;
    tm_acc acc = tm_l1_access(g, sm, line, all_sectors(sm), REQ_READ, sm->l1.line_bytes, ld);
    if (acc.result == ACC_FAIL) {
        stats(g)->dropped++;
        tm_load_free(ld);
        return true;
    }
    stats(g)->issued++;
    n->recent[line % RECENT] = line + 1;
    sm->wake = sm->now + g->core_ps;     /* more may wait: the SM runs its next cycle */
    return true;
}

static void stats_json(FILE *out, const tm_config *c, const void *block)
{
    const nextline_stats *s = block;
    (void)c;
    fprintf(out, "{\"queued\":%llu,\"issued\":%llu,\"useful\":%llu,\"dropped\":%llu}",
            (unsigned long long)s->queued, (unsigned long long)s->issued, (unsigned long long)s->useful,
            (unsigned long long)s->dropped);
}

static const struct tm_stat_doc stats_doc[] = {
    { "queued", "lines", "next lines queued after a demand global load's L1D miss" },
    { "issued", "lines", "prefetches sent to the L1D" },
    { "useful", "lines", "prefetched lines a demand load then hit, or missed on while the fill was on its way" },
    { "dropped", "lines", "lines not prefetched: the queue was full, or the L1D refused the prefetch" },
    { NULL, NULL, NULL },
};

const tm_mech tm_mech_nextline = {
    .name = "nextline_prefetch",
    .enabled = enabled,
    .sm_bytes = sizeof(nextline_sm),
    .stats_bytes = sizeof(nextline_stats),
    .l1_access = l1_access,
    .lsu_idle = lsu_idle,
    .stats_json = stats_json,
    .stats_doc = stats_doc,
};

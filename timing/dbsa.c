/*
 * dbsa.c -- streaming bypass of the L1D and the L2 (DBSA, Khairy 2015).
 *
 * At each period's end (dbsa_period cycles), a level whose miss rate over
 * the period is above dbsa_threshold percent stops allocating on misses
 * (tm_cache.bypass: the data go past it, the lines already there stay and
 * keep serving hits); a bypassed level whose miss rate falls back below
 * allocates again.  While a level is bypassed its own miss rate says
 * nothing about whether allocating would pay, so it is measured on a
 * tag-only copy of the level that goes on allocating (one per L1, one per
 * L2 slice).  l1_dbsa and l2_dbsa turn the levels on separately.  With
 * DWT-CS on, DBSA decides only once DWT-CS has (dwt.c).
 */
#include "sm.h"

#include <stdlib.h>

/* Per level (0: the L1Ds, 1: the L2 slices): whether it is on, this
 * period's accesses and misses, and the tag-only copies. */
typedef struct dbsa_level {
    bool on;
    uint64_t accesses, misses;
    tm_cache *tags;             /* one per SM or per partition */
    uint32_t ntags;
} dbsa_level;

typedef struct dbsa_gpu {
    dbsa_level level[2];
} dbsa_gpu;

static dbsa_gpu *state(const tm_gpu *g) { return tm_mech_gpu(g, TM_MECH_DBSA); }

/* Every L1D (level 0) or every L2 slice (level 1). */
static void set_bypass(tm_gpu *g, int lv, bool on)
{
    if (lv == 0)
        for (uint32_t i = 0; i < g->c.n_sm; i++)
            g->sms[i].l1.bypass = on;
    else
        for (uint32_t p = 0; p < g->c.n_partitions; p++)
            g->parts[p].l2.bypass = on;
}

/* An accepted access: while the level is bypassed, the tag-only copy
 * decides whether it would have missed. */
static void cache_access(tm_gpu *g, int lv, uint32_t where, uint64_t addr, bool hit)
{
    dbsa_level *d = &state(g)->level[lv];
    if (!d->on)
        return;
    bool bypassed = lv == 0 ? g->sms[where].l1.bypass : g->parts[where].l2.bypass;
    bool miss = bypassed ? !tm_cache_touch_tags(&d->tags[where], addr) : !hit;
    d->accesses++;
    d->misses += miss;
}

static void decide(tm_gpu *g)
{
    const tm_config *c = &g->c;
    if (tm_dwt_deciding(g)) {           /* thrashing is told apart first */
        for (int lv = 0; lv < 2; lv++)
            state(g)->level[lv].accesses = state(g)->level[lv].misses = 0;
        return;
    }
    for (int lv = 0; lv < 2; lv++) {
        dbsa_level *d = &state(g)->level[lv];
        if (!d->on)
            continue;
        bool bypassed = lv == 0 ? g->sms[0].l1.bypass : g->parts[0].l2.bypass;
        if (d->accesses) {
            uint64_t rate = d->misses * 100 / d->accesses;
            bypassed = rate > c->dbsa_threshold;
            set_bypass(g, lv, bypassed);
        }
        if (bypassed)
            *(lv ? &g->st->l2_bypass_periods : &g->st->l1_bypass_periods) += 1;
        d->accesses = d->misses = 0;
    }
}

static uint64_t period(const tm_config *c) { return c->dbsa_period; }

static bool enabled(const tm_config *c) { return c->l1_dbsa || c->l2_dbsa; }

/* The tag-only copies: the geometry and index function of the level, one
 * sector a line. */
static bool init(tm_gpu *g)
{
    const tm_config *c = &g->c;
    dbsa_level *l1 = &state(g)->level[0], *l2 = &state(g)->level[1];
    l1->on = c->l1_dbsa != 0;
    l2->on = c->l2_dbsa != 0;
    if (l1->on) {
        if (!(l1->tags = calloc(c->n_sm, sizeof *l1->tags)))
            return false;
        l1->ntags = (uint32_t)c->n_sm;
        for (uint32_t i = 0; i < c->n_sm; i++) {
            if (!tm_cache_init(&l1->tags[i], "L1D tags", (uint32_t)c->l1_sets, (uint32_t)c->l1_assoc,
                               (uint32_t)c->l1_line, (uint32_t)c->l1_line, c->l1_index, 1, 1, &g->scratch.l1d))
                return false;
            tm_cache_set_hash(&l1->tags[i], (uint32_t)c->l1_pric_poly, (uint32_t)c->index_hi_bit, 0);
        }
    }
    if (l2->on) {
        if (!(l2->tags = calloc(c->n_partitions, sizeof *l2->tags)))
            return false;
        l2->ntags = (uint32_t)c->n_partitions;
        for (uint32_t p = 0; p < c->n_partitions; p++) {
            if (!tm_cache_init(&l2->tags[p], "L2 tags", (uint32_t)c->l2_sets, (uint32_t)c->l2_assoc,
                               (uint32_t)c->l2_line, (uint32_t)c->l2_line, c->l2_index, 1, 1, &g->scratch.l2))
                return false;
            tm_cache_set_hash(&l2->tags[p], (uint32_t)c->l2_pric_poly, (uint32_t)c->index_hi_bit, 0);
            tm_cache_set_slices(&l2->tags[p], tm_l2_slice_lines(c), (uint32_t)c->n_partitions);
        }
    }
    return true;
}

static void fini(tm_gpu *g)
{
    for (int lv = 0; lv < 2; lv++) {
        dbsa_level *d = &state(g)->level[lv];
        for (uint32_t i = 0; i < d->ntags; i++)        /* tm_cache_free takes a cleared one too */
            tm_cache_free(&d->tags[i]);
        free(d->tags);
    }
}

/* Each launch starts with both levels allocating. */
static void launch(tm_gpu *g)
{
    for (int lv = 0; lv < 2; lv++) {
        set_bypass(g, lv, false);
        state(g)->level[lv].accesses = state(g)->level[lv].misses = 0;
    }
}

const tm_mech tm_mech_dbsa = {
    .name = "dbsa",
    .enabled = enabled,
    .gpu_bytes = sizeof(dbsa_gpu),
    .init = init,
    .fini = fini,
    .launch = launch,
    .period = period,
    .decide = decide,
    .cache_access = cache_access,
};

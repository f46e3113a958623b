/*
 * locality.c -- where the L1D's reuse comes from (Khairy 2015, Sec 4.2 and
 * Fig 4.3), an observer that changes no timing (locality=on).
 *
 * Every transaction of a demand load that reaches an SM's L1D either
 * touches its line on that SM for the first time or re-references it.  A
 * re-reference is classed by the last access to the line on the SM:
 *
 *   intra_thread   the same warp, and a lane that is in both accesses
 *   inter_thread   the same warp, other lanes
 *   intra_block    another warp of the same CTA
 *   intra_core     a warp of another CTA on the same SM
 *   inter_kernel   an earlier launch
 *
 * The classes are counted twice, as the thesis measures them: for an
 * unbounded L1 (fully associative and infinite, where every re-reference
 * hits and only first touches miss) and for the real one (the
 * re-references that hit it).  Locality between SMs (the thesis's
 * inter-core class) only an L2 can use; each SM keeps its own record, so
 * another SM's earlier touch counts as a first touch here.  A hit on a line
 * no demand load of the SM touched (a prefetch brought it) is counted as
 * unrecorded.
 */
#include "sm.h"

#include <stdlib.h>

enum { INTRA_THREAD, INTER_THREAD, INTRA_BLOCK, INTRA_CORE, INTER_KERNEL, CLASSES };

static const char *const class_names[CLASSES] = { "intra_thread", "inter_thread", "intra_block", "intra_core",
                                                  "inter_kernel" };

/* The last demand access to a line on an SM. */
typedef struct touch {
    uint64_t key;               /* line + 1 (0: an empty slot) */
    uint64_t cta;               /* tm_cta.linear */
    uint32_t launch, warp, lanes;
} touch;

/* Per SM: an open-addressing table of its lines' last touches. */
typedef struct locality_sm {
    touch *slot;
    uint32_t cap, used;         /* cap: a power of two, or 0 before the first touch */
} locality_sm;

typedef struct locality_gpu {
    uint32_t launch;            /* launches so far, this one included */
} locality_gpu;

typedef struct locality_stats {
    uint64_t first;
    uint64_t unbounded[CLASSES], hits[CLASSES];
    uint64_t unrecorded;
} locality_stats;

static locality_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_LOCALITY); }
static locality_stats *stats(const tm_gpu *g) { return tm_mech_stats(g, TM_MECH_LOCALITY); }

static bool enabled(const tm_config *c) { return c->locality != 0; }

static uint64_t hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    return key ^ (key >> 33);
}

static touch *find(locality_sm *l, uint64_t key)
{
    for (uint64_t i = hash(key) & (l->cap - 1);; i = (i + 1) & (l->cap - 1))
        if (l->slot[i].key == key || !l->slot[i].key)
            return &l->slot[i];
}

/* Room for one more line: the table doubles at half full. */
static bool grow(locality_sm *l)
{
    if (l->cap && 2 * (l->used + 1) <= l->cap)
        return true;
    uint32_t cap = l->cap ? 2 * l->cap : 1024;
    touch *old = l->slot;
    uint32_t n = l->cap;
    if (!(l->slot = calloc(cap, sizeof *l->slot))) {
        l->slot = old;
        return false;
    }
    l->cap = cap;
    for (uint32_t i = 0; i < n; i++)
        if (old[i].key)
            *find(l, old[i].key) = old[i];
    free(old);
    return true;
}

static int class_of(const touch *t, uint32_t launch, uint64_t cta, uint32_t warp, uint32_t lanes)
{
    if (t->launch != launch)
        return INTER_KERNEL;
    if (t->cta != cta)
        return INTRA_CORE;
    if (t->warp != warp)
        return INTRA_BLOCK;
    return t->lanes & lanes ? INTRA_THREAD : INTER_THREAD;
}

static void l1_access(tm_gpu *g, tm_sm *sm, tm_minst *m, uint32_t txn, const tm_acc *acc)
{
    if (acc->result == ACC_FAIL)        /* refused: it comes back */
        return;
    locality_sm *l = sm_state(g, sm);
    locality_stats *st = stats(g);
    if (!grow(l)) {
        tm_out_of_memory(g);
        return;
    }
    const tm_warp *w = m->warp;
    uint64_t cta = w->cta->linear;
    uint32_t warp = (uint32_t)(w - w->cta->warps), lanes = m->txn_lanes[txn];
    uint32_t launch = ((locality_gpu *)tm_mech_gpu(g, TM_MECH_LOCALITY))->launch;
    touch *t = find(l, m->txn_addr[txn] + 1);
    if (!t->key) {
        st->first++;
        st->unrecorded += acc->result == ACC_HIT;
        t->key = m->txn_addr[txn] + 1;
        l->used++;
    } else {
        int k = class_of(t, launch, cta, warp, lanes);
        st->unbounded[k]++;
        st->hits[k] += acc->result == ACC_HIT;
    }
    t->launch = launch;
    t->cta = cta;
    t->warp = warp;
    t->lanes = lanes;
}

static void launch(tm_gpu *g)
{
    ((locality_gpu *)tm_mech_gpu(g, TM_MECH_LOCALITY))->launch++;
}

static void fini(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        free(sm_state(g, &g->sms[i])->slot);
}

static void stats_json(FILE *out, const tm_config *c, const void *block)
{
    const locality_stats *s = block;
    (void)c;
    fprintf(out, "{\"first_touches\":%llu,\"unrecorded_hits\":%llu", (unsigned long long)s->first,
            (unsigned long long)s->unrecorded);
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t *v = pass ? s->hits : s->unbounded;
        fprintf(out, ",\"%s\":{", pass ? "bounded" : "unbounded");
        for (int k = 0; k < CLASSES; k++)
            fprintf(out, "%s\"%s\":%llu", k ? "," : "", class_names[k], (unsigned long long)v[k]);
        fputc('}', out);
    }
    fputc('}', out);
}

static const struct tm_stat_doc stats_doc[] = {
    { "first_touches", "transactions", "demand load transactions that touched their line on the SM for the first time" },
    { "unrecorded_hits", "transactions", "L1D hits on lines no demand load of the SM touched (a prefetch brought them)" },
    { "unbounded.<class>", "transactions", "re-references by class of the line's last access on the SM (intra_thread, "
      "inter_thread, intra_block, intra_core, inter_kernel): what an unbounded L1D would hit" },
    { "bounded.<class>", "transactions", "the re-references of each class that hit the real L1D" },
    { NULL, NULL, NULL },
};

const tm_mech tm_mech_locality = {
    .name = "locality",
    .enabled = enabled,
    .gpu_bytes = sizeof(locality_gpu),
    .sm_bytes = sizeof(locality_sm),
    .stats_bytes = sizeof(locality_stats),
    .fini = fini,
    .launch = launch,
    .l1_access = l1_access,
    .stats_json = stats_json,
    .stats_doc = stats_doc,
};

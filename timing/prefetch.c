/*
 * prefetch.c -- the stride prefetcher P-mode is compared with
 * ("DirectPrefetch" in Kim et al., after the many-thread-aware prefetchers):
 * per warp and load pc, the stride between the addresses of successive
 * executions.  After prefetch_threshold consecutive confirmations, each line
 * the load touched is followed by a prefetch of the line one stride further.
 * Prefetches wait in a queue and go to the L1 only when the memory stage has
 * no demand instruction; they fill the L1 and write no register.  A full
 * queue drops new ones, and so does an L1 that refuses one.
 */
#include "sm.h"

#include <stdlib.h>

/* Per warp: a few load pcs, indexed by pc. */
#define ENTRIES 8
typedef struct stride_entry {
    uint32_t pc;
    bool used;
    uint8_t conf;               /* consecutive confirmations of the stride */
    uint64_t last;              /* address of the first lane last time */
    int64_t stride;
} stride_entry;

typedef struct stride_warp {
    stride_entry e[ENTRIES];
} stride_warp;

/* Per SM: lines waiting for an idle memory stage (a ring of prefetch_queue,
 * allocated at the first prefetch; what is left at a launch's end is sent
 * in the next). */
typedef struct stride_sm {
    uint64_t *lines;
    uint32_t head, len;
} stride_sm;

static stride_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_PREFETCH); }

static uint32_t all_sectors(const tm_sm *sm)
{
    return sm->l1.sectors_per_line >= 32 ? ~0u : (1u << sm->l1.sectors_per_line) - 1;
}

static void enqueue(tm_gpu *g, tm_sm *sm, uint64_t line)
{
    stride_sm *q = sm_state(g, sm);
    uint32_t cap = (uint32_t)g->c.prefetch_queue;
    if (!q->lines && !(q->lines = calloc(cap, sizeof *q->lines))) {
        tm_out_of_memory(g);
        return;
    }
    for (uint32_t i = 0; i < q->len; i++)
        if (q->lines[(q->head + i) % cap] == line)
            return;                         /* already asked for */
    if (q->len == cap) {
        g->st->prefetch_drops++;
        return;
    }
    q->lines[(q->head + q->len++) % cap] = line;
}

/* A demand global load went to the memory stage: train, maybe queue
 * prefetches. */
static void mem_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m, bool again)
{
    const isa_access *a = &m->rec.access;
    if (again || !m->load || a->space != ISA_SPACE_GLOBAL || a->store)
        return;
    uint64_t addr = a->addr[__builtin_ctz(a->lanes)];
    stride_warp *sw = tm_mech_warp(g, w, TM_MECH_PREFETCH);
    stride_entry *e = &sw->e[m->rec.pc % ENTRIES];
    if (!e->used || e->pc != m->rec.pc) {
        *e = (stride_entry){ m->rec.pc, true, 0, addr, 0 };
        return;
    }
    int64_t stride = (int64_t)(addr - e->last);
    if (stride == e->stride && stride != 0) {
        if (e->conf < 15)
            e->conf++;
    } else {
        e->conf = 0;
        e->stride = stride;
    }
    e->last = addr;
    if (e->conf < g->c.prefetch_threshold)
        return;
    uint32_t shift = sm->l1.line_shift;
    for (uint32_t t = 0; t < m->ntxn; t++) {
        uint64_t next = (uint64_t)((int64_t)(m->txn_addr[t] << shift) + stride) >> shift;
        if (!tm_cache_present(&sm->l1, next << shift, all_sectors(sm)))
            enqueue(g, sm, next);
    }
}

/* The memory stage is idle: send one queued prefetch to the L1. */
static bool lsu_idle(tm_gpu *g, tm_sm *sm)
{
    stride_sm *q = sm_state(g, sm);
    if (!q->len)
        return false;
    uint32_t cap = (uint32_t)g->c.prefetch_queue;
    uint64_t line = q->lines[q->head];
    q->head = (q->head + 1) % cap;
    q->len--;
    tm_load *ld = tm_load_new(g, sm, NULL, 1);
    if (!ld)
        return true;
    ld->preload = true;
    tm_acc acc = tm_l1_access(g, sm, line, all_sectors(sm), REQ_READ, sm->l1.line_bytes, ld);
    if (acc.result == ACC_FAIL) {
        g->st->prefetch_drops++;
        tm_load_free(ld);
        return true;
    }
    g->st->prefetches++;
    sm->wake = sm->now + g->core_ps;
    return true;
}

static bool enabled(const tm_config *c) { return c->prefetch == TM_PREFETCH_STRIDE; }

static void fini(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        free(sm_state(g, &g->sms[i])->lines);
}

const tm_mech tm_mech_prefetch = {
    .name = "prefetch",
    .enabled = enabled,
    .sm_bytes = sizeof(stride_sm),
    .warp_bytes = sizeof(stride_warp),
    .fini = fini,
    .mem_issue = mem_issue,
    .lsu_idle = lsu_idle,
};

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

static uint32_t all_sectors(const tm_sm *sm)
{
    return sm->l1.sectors_per_line >= 32 ? ~0u : (1u << sm->l1.sectors_per_line) - 1;
}

static void enqueue(tm_gpu *g, tm_sm *sm, uint64_t line)
{
    uint32_t cap = (uint32_t)g->c.prefetch_queue;
    if (!sm->pf_lines && !(sm->pf_lines = calloc(cap, sizeof *sm->pf_lines))) {
        g->fault = PTX_E_NOMEM;
        return;
    }
    for (uint32_t i = 0; i < sm->pf_len; i++)
        if (sm->pf_lines[(sm->pf_head + i) % cap] == line)
            return;                         /* already asked for */
    if (sm->pf_len == cap) {
        g->st->prefetch_drops++;
        return;
    }
    sm->pf_lines[(sm->pf_head + sm->pf_len++) % cap] = line;
}

void tm_prefetch_train(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *m)
{
    const isa_access *a = &m->rec.access;
    uint64_t addr = a->addr[__builtin_ctz(a->lanes)];
    tm_stride *e = &w->stride[m->rec.pc % TM_STRIDE_ENTRIES];
    if (!e->used || e->pc != m->rec.pc) {
        *e = (tm_stride){ m->rec.pc, true, 0, addr, 0 };
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

void tm_prefetch_issue(tm_gpu *g, tm_sm *sm)
{
    uint32_t cap = (uint32_t)g->c.prefetch_queue;
    uint64_t line = sm->pf_lines[sm->pf_head];
    sm->pf_head = (sm->pf_head + 1) % cap;
    sm->pf_len--;
    tm_load *ld = tm_load_new(g, NULL, 1);
    if (!ld)
        return;
    ld->preload = true;
    tm_acc acc = tm_l1_access(g, sm, line, all_sectors(sm), REQ_READ, sm->l1.line_bytes, ld);
    if (acc.result == ACC_FAIL) {
        g->st->prefetch_drops++;
        free(ld);
        return;
    }
    g->st->prefetches++;
    sm->wake = g->now + g->core_ps;
}

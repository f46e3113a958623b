/*
 * events.c -- the model's event queues: one per component.
 *
 * Each memory partition has a queue of its own events (L2 and DRAM ticks,
 * DRAM completions) and of the requests the SMs send it; each SM an inbox
 * of the replies coming back.  Nothing crosses from one component to
 * another in less than a cycle (the interconnect's latency, at least one
 * flit), so within one step of the main loop every component's events due
 * by now depend on nothing another component does in the same step: the
 * components can fire them side by side, on several host threads (step.c),
 * and what they send each other is delivered after the step in a fixed
 * order -- SMs', then partitions', each by id.  Within a queue, events of
 * one time fire in the order they arrived there.
 *
 * The main loop finds the queues with an event due through g->wakes, a
 * heap of (time, queue) entries: every queue with events has an entry for
 * its earliest (made when an event for another component lowers it, or
 * when the queue has fired and its next event is noted), and an entry
 * whose queue has nothing due when it comes up is dropped.
 */
#include "sm.h"

#include <stdlib.h>

enum { WAKE_PARTITION, WAKE_SM };

/* ---- one queue ------------------------------------------------------------------ */

static bool earlier(const tm_event *a, const tm_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

bool tm_heap_push(tm_heap *h, uint64_t time, uint8_t kind, uint32_t where, void *ptr)
{
    if (h->n == h->cap) {
        uint32_t nc = h->cap ? h->cap * 2 : 64;
        tm_event *v = realloc(h->v, nc * sizeof *v);
        if (!v)
            return false;
        h->v = v;
        h->cap = nc;
    }
    tm_event e = { time, h->seq++, kind, where, ptr };
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!earlier(&e, &h->v[up]))
            break;
        h->v[i] = h->v[up];
        i = up;
    }
    h->v[i] = e;
    return true;
}

bool tm_heap_pop(tm_heap *h, tm_event *out)
{
    if (!h->n)
        return false;
    *out = h->v[0];
    tm_event last = h->v[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        const tm_event *best = &last;
        if (l < h->n && earlier(&h->v[l], best))
            m = l, best = &h->v[l];
        if (r < h->n && earlier(&h->v[r], best))
            m = r;
        if (m == i)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (h->n)
        h->v[i] = last;
    return true;
}

void tm_heap_free(tm_heap *h)
{
    free(h->v);
    *h = (tm_heap){ 0 };
}

/* ---- sending ------------------------------------------------------------------- */

static tm_heap *queue_of(tm_gpu *g, uint8_t wake_kind, uint32_t where)
{
    return wake_kind == WAKE_SM ? &g->sms[where].inbox : &g->parts[where].events;
}

static void wake_at(tm_gpu *g, uint64_t time, uint8_t wake_kind, uint32_t where)
{
    if (!tm_heap_push(&g->wakes, time, wake_kind, where, NULL))
        tm_out_of_memory(g);
}

void tm_push_event(tm_gpu *g, uint64_t time, tm_event_kind kind, uint32_t where, void *ptr)
{
    uint8_t wk = kind == EV_SM_ARRIVE ? WAKE_SM : WAKE_PARTITION;
    tm_heap *q = queue_of(g, wk, where);
    uint64_t was = tm_heap_top(q);
    if (!tm_heap_push(q, time, (uint8_t)kind, where, ptr)) {
        tm_out_of_memory(g);
        return;
    }
    if (time < was)
        wake_at(g, time, wk, where);
}

void tm_part_event(tm_gpu *g, uint32_t part, uint64_t time, tm_event_kind kind, void *ptr)
{
    /* The partition is firing: its next event is noted after (tm_note_queues). */
    if (!tm_heap_push(&g->parts[part].events, time, (uint8_t)kind, part, ptr))
        tm_out_of_memory(g);
}

static bool post(tm_outbox *o, uint64_t time, tm_event_kind kind, uint32_t where, void *ptr)
{
    if (o->n == o->cap) {
        uint32_t nc = o->cap ? o->cap * 2 : 256;
        tm_event *v = realloc(o->v, nc * sizeof *v);
        if (!v)
            return false;
        o->v = v;
        o->cap = nc;
    }
    o->v[o->n++] = (tm_event){ time, 0, (uint8_t)kind, where, ptr };
    return true;
}

void tm_sm_push_event(tm_gpu *g, tm_sm *sm, uint64_t time, tm_event_kind kind, uint32_t where, void *ptr)
{
    if (!sm->outbox)
        tm_push_event(g, time, kind, where, ptr);
    else if (!post(sm->outbox, time, kind, where, ptr))
        sm->fault = PTX_E_NOMEM;
}

void tm_part_reply(tm_gpu *g, tm_partition *p, uint64_t time, uint32_t sm, void *ptr)
{
    if (!p->outbox)
        tm_push_event(g, time, EV_SM_ARRIVE, sm, ptr);
    else if (!post(p->outbox, time, EV_SM_ARRIVE, sm, ptr))
        tm_out_of_memory(g);
}

void tm_deliver(tm_gpu *g, tm_outbox *o)
{
    for (uint32_t e = 0; e < o->n; e++)
        tm_push_event(g, o->v[e].time, (tm_event_kind)o->v[e].kind, o->v[e].where, o->v[e].ptr);
    o->n = 0;
}

/* ---- firing --------------------------------------------------------------------- */

static void set_bit(uint64_t *bits, uint32_t i) { bits[i / 64] |= 1ull << (i % 64); }

void tm_due_queues(tm_gpu *g, uint64_t *parts, uint64_t *sms, uint32_t *nparts, uint32_t *nsms)
{
    const tm_config *c = &g->c;
    for (uint32_t w = 0; w < (c->n_partitions + 63) / 64; w++)
        parts[w] = 0;
    for (uint32_t w = 0; w < (c->n_sm + 63) / 64; w++)
        sms[w] = 0;
    *nparts = *nsms = 0;
    tm_event e;
    while (tm_heap_top(&g->wakes) <= g->now && tm_heap_pop(&g->wakes, &e)) {
        uint64_t *bits = e.kind == WAKE_SM ? sms : parts;
        if (tm_heap_top(queue_of(g, e.kind, e.where)) > g->now || bits[e.where / 64] >> (e.where % 64) & 1)
            continue;       /* fired since, or a second entry */
        set_bit(bits, e.where);
        ++*(e.kind == WAKE_SM ? nsms : nparts);
    }
}

static void fire(tm_gpu *g, tm_heap *q)
{
    tm_event e;
    while (tm_heap_top(q) <= g->now && tm_heap_pop(q, &e))
        tm_dispatch_event(g, &e);
}

void tm_fire_partition(tm_gpu *g, uint32_t part) { fire(g, &g->parts[part].events); }

void tm_fire_inbox(tm_gpu *g, tm_sm *sm) { fire(g, &sm->inbox); }

static void note(tm_gpu *g, const uint64_t *bits, uint32_t n, uint8_t wake_kind)
{
    for (uint32_t w = 0; w < (n + 63) / 64; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(b);
            uint64_t next = tm_heap_top(queue_of(g, wake_kind, i));
            if (next != TM_NEVER)
                wake_at(g, next, wake_kind, i);
        }
}

void tm_note_queues(tm_gpu *g, const uint64_t *parts, const uint64_t *sms)
{
    note(g, parts, (uint32_t)g->c.n_partitions, WAKE_PARTITION);
    note(g, sms, (uint32_t)g->c.n_sm, WAKE_SM);
}

uint64_t tm_next_event(tm_gpu *g)
{
    return tm_heap_top(&g->wakes);
}

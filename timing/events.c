/*
 * events.c -- the model's event queues: one per component, and the mail
 * between them.
 *
 * Each memory partition has a queue of its own events (L2 and DRAM ticks,
 * DRAM completions) and of the requests the SMs send it; each SM an inbox
 * of the replies coming back.  Nothing crosses from one component to
 * another in less than a cycle (the interconnect's latency, at least one
 * flit), so within one step of the main loop every component's events due
 * by now depend on nothing another component does in the same step: the
 * lanes (step.c) fire them side by side.  What a component sends goes into
 * an outbox for the receiver's lane -- its lane's for a partition, its
 * chunk's for an SM (step.c: any thread may step a chunk) -- and is queued
 * at the receiver at the start of the next step, in a fixed order -- what
 * SMs sent, by SM id; what partitions sent, by partition id; what the
 * ordered part of the step sent -- the same whatever the lanes.  Within a
 * queue, events of one time fire in the order they arrived there.
 *
 * Outboxes come in two parities, one a step: receivers read last step's
 * while senders fill this step's.
 *
 * Ties of time in a queue break by key: the cycle an event was queued in,
 * what arrived in a cycle before what the component itself made in it,
 * then the order of queuing.  An event sent in cycle v counts as queued
 * at the start of cycle v + 1, whenever it is: a window's SMs (step.c)
 * send for several cycles before anything they sent is queued, yet each
 * queue sees its events in the order a step at a time gives them.
 *
 * Each lane finds its queues with an event due through its wakes, a heap of
 * (time, queue) entries: every queue with events has an entry for its
 * earliest (made when something arrives that is earlier than it had, or
 * when the queue has fired and its next event is noted); an entry whose
 * queue has nothing due when it comes up is dropped.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

enum { WAKE_PARTITION, WAKE_SM };

/* ---- one queue ------------------------------------------------------------------ */

static bool earlier(const tm_event *a, const tm_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

bool tm_heap_push(tm_heap *h, uint64_t time, uint64_t seq, uint8_t kind, uint32_t where, void *ptr)
{
    if (h->n == h->cap) {
        uint32_t nc = h->cap ? h->cap * 2 : 64;
        tm_event *v = realloc(h->v, nc * sizeof *v);
        if (!v)
            return false;
        h->v = v;
        h->cap = nc;
    }
    tm_event e = { time, seq, kind, where, ptr };
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

/* The ways of queuing, in the order they come within a cycle. */
enum { KEY_ARRIVED, KEY_MADE };

/* The key of an event queued in q in `cycle` one way: the events of one
 * cycle and way are queued one after another, so a count since the last
 * (cycle, way) orders them. */
static uint64_t queue_key(tm_heap *q, uint64_t cycle, unsigned way)
{
    uint64_t at = cycle << 1 | way;
    if (at != q->key_at) {
        q->key_at = at;
        q->key_n = 0;
    }
    return at << 23 | (q->key_n++ & 0x7fffffu);
}

/* ---- sending ------------------------------------------------------------------- */

static tm_heap *queue_of(tm_gpu *g, uint8_t wake_kind, uint32_t where)
{
    return wake_kind == WAKE_SM ? &g->sms[where].inbox : &g->parts[where].events;
}

void tm_part_event(tm_gpu *g, uint32_t part, uint64_t time, tm_event_kind kind, void *ptr)
{
    /* The partition is firing: its next event is noted after. */
    tm_heap *q = &g->parts[part].events;
    if (!tm_heap_push(q, time, queue_key(q, g->parts[part].now / g->core_ps, KEY_MADE), (uint8_t)kind, part, ptr))
        tm_out_of_memory(g);
}

static bool post(tm_outbox *o, uint64_t key, uint64_t time, tm_event_kind kind, uint32_t where, void *ptr)
{
    if (o->n == o->cap) {
        uint32_t nc = o->cap ? o->cap * 2 : 256;
        tm_event *v = realloc(o->v, nc * sizeof *v);
        if (!v)
            return false;
        o->v = v;
        o->cap = nc;
    }
    o->v[o->n++] = (tm_event){ time, key, (uint8_t)kind, where, ptr };
    return true;
}

void tm_sm_push_event(tm_gpu *g, tm_sm *sm, uint64_t time, tm_event_kind kind, uint32_t where, void *ptr)
{
    /* The ordered part of a step (an SM stopped in the parallel part, or
     * every SM while mechanisms run) sends after the lanes. */
    uint32_t to = g->parts[where].lane;
    uint64_t key = tm_send_key(sm->now / g->core_ps, sm->ordered, sm->id);
    if (sm->ordered) {
        if (!post(&g->late[to], key, time, kind, where, ptr))
            tm_out_of_memory(g);
        else if (time < g->late_min)
            g->late_min = time;
        return;
    }
    tm_chunk *ch = &g->chunks[sm->chunk];
    if (!post(&ch->requests[g->parity][to], key, time, kind, where, ptr))
        sm->fault = PTX_E_NOMEM;
    else if (time < ch->sent_min)
        ch->sent_min = time;
}

void tm_part_reply(tm_gpu *g, tm_partition *p, uint64_t time, uint32_t sm, void *ptr)
{
    tm_lane *L = &g->lanes[p->lane];
    uint64_t key = tm_send_key(p->now / g->core_ps, 0, (uint32_t)(p - g->parts));
    if (!post(&L->replies[g->parity][g->sms[sm].lane], key, time, EV_SM_ARRIVE, sm, ptr))
        tm_out_of_memory(g);
    else if (time < L->sent_min)
        L->sent_min = time;
}

/* ---- receiving ------------------------------------------------------------------ */

static void wake_at(tm_gpu *g, tm_lane *L, uint64_t time, uint8_t wake_kind, uint32_t where)
{
    if (!tm_heap_push(&L->wakes, time, L->wakes.key_n++, wake_kind, where, NULL))   /* (their order is no matter) */
        tm_out_of_memory(g);
}

/* Queue what o holds at its receivers (lane L's components, or, with L
 * NULL, anyone's as a launch ends: the next launch notes them). */
static void receive(tm_gpu *g, tm_lane *L, tm_outbox *o)
{
    for (uint32_t e = 0; e < o->n; e++) {
        const tm_event *ev = &o->v[e];
        uint8_t wk = ev->kind == EV_SM_ARRIVE ? WAKE_SM : WAKE_PARTITION;
        tm_heap *q = queue_of(g, wk, ev->where);
        uint64_t was = tm_heap_top(q);
        if (!tm_heap_push(q, ev->time, queue_key(q, tm_send_cycle(ev->seq) + 1, KEY_ARRIVED), ev->kind, ev->where, ev->ptr))
            tm_out_of_memory(g);
        else if (L && ev->time < was)
            wake_at(g, L, ev->time, wk, ev->where);
    }
    o->n = 0;
}

void tm_receive(tm_gpu *g, tm_lane *L, tm_outbox *o) { receive(g, L, o); }

/* What the lanes' partitions sent lane r's SMs (parity `sent`), queued in
 * the order of the senders' ids: each outbox holds its senders' in id
 * order (a lane fires its partitions in id order), so this merges them, a
 * sender's run at a time. */
static void receive_replies(tm_gpu *g, tm_lane *L, uint32_t r, uint32_t sent)
{
    /* One lane sent anything (always so with one lane, and mostly so when
     * a launch's few blocks sit in one lane): its outbox is in order. */
    tm_outbox *only = NULL;
    uint32_t senders = 0;
    for (uint32_t s = 0; s < g->nlanes; s++) {
        tm_outbox *o = &g->lanes[s].replies[sent][r];
        if (o->n) {
            only = o;
            senders++;
        }
    }
    if (senders <= 1) {
        if (only)
            receive(g, L, only);
        return;
    }
    uint32_t at[g->nlanes];
    for (uint32_t s = 0; s < g->nlanes; s++)
        at[s] = 0;
    for (;;) {
        tm_outbox *first = NULL;
        uint32_t from = 0;
        for (uint32_t s = 0; s < g->nlanes; s++) {
            tm_outbox *o = &g->lanes[s].replies[sent][r];
            if (at[s] < o->n && (!first || o->v[at[s]].seq < first->v[at[from]].seq))
                first = o, from = s;
        }
        if (!first)
            break;
        uint64_t sender = first->v[at[from]].seq;
        uint32_t end = at[from];
        while (end < first->n && first->v[end].seq == sender)
            end++;
        receive(g, L, &(tm_outbox){ first->v + at[from], end - at[from], 0 });
        at[from] = end;
    }
    for (uint32_t s = 0; s < g->nlanes; s++)
        g->lanes[s].replies[sent][r].n = 0;
}

/* One event of an outbox, by its send key and where it lies. */
typedef struct tm_sent_at {
    uint64_t key;
    uint32_t box, i;
} sent_at;

static int by_key(const void *a, const void *b)
{
    const sent_at *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->box != y->box)
        return x->box < y->box ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* What the SMs sent lane r's partitions (parity `sent`) -- in their
 * chunks' outboxes, and the ordered part's -- queued by send key: by
 * cycle, a cycle's parallel part before its ordered part, by SM, each
 * SM's in the order it sent them.  A step's outboxes are in that order
 * already (chunk by chunk, each in SM order, then the ordered part); a
 * window's are not (each SM sends cycle after cycle), so they are sorted. */
static void receive_requests(tm_gpu *g, tm_lane *L, uint32_t r, uint32_t sent)
{
    uint32_t nbox = g->nchunks + 1, total = 0;
    bool sorted = true;
    uint64_t last = 0;
    for (uint32_t b = 0; b < nbox; b++) {
        const tm_outbox *o = b < g->nchunks ? &g->chunks[b].requests[sent][r] : &g->late[r];
        for (uint32_t i = 0; i < o->n; i++) {
            sorted = sorted && o->v[i].seq >= last;
            last = o->v[i].seq;
        }
        total += o->n;
    }
    if (sorted) {
        for (uint32_t b = 0; b < nbox; b++) {
            tm_outbox *o = b < g->nchunks ? &g->chunks[b].requests[sent][r] : &g->late[r];
            if (o->n)
                receive(g, L, o);
        }
        return;
    }
    tm_lane *own = &g->lanes[r];    /* (its buffer, kept from window to window) */
    if (total > own->order_cap) {
        sent_at *more = realloc(own->order, total * sizeof *more);
        if (!more) {
            tm_out_of_memory(g);
            return;
        }
        own->order = more;
        own->order_cap = total;
    }
    sent_at *order = own->order;
    uint32_t n = 0;
    for (uint32_t b = 0; b < nbox; b++) {
        const tm_outbox *o = b < g->nchunks ? &g->chunks[b].requests[sent][r] : &g->late[r];
        for (uint32_t i = 0; i < o->n; i++)
            order[n++] = (sent_at){ o->v[i].seq, b, i };
    }
    qsort(order, n, sizeof *order, by_key);
    for (uint32_t k = 0; k < n; k++) {
        tm_outbox *o = order[k].box < g->nchunks ? &g->chunks[order[k].box].requests[sent][r] : &g->late[r];
        receive(g, L, &(tm_outbox){ o->v + order[k].i, 1, 0 });
    }
    for (uint32_t b = 0; b < nbox; b++)
        (b < g->nchunks ? &g->chunks[b].requests[sent][r] : &g->late[r])->n = 0;
}

/* What was sent to lane r's components last step or window (parity
 * `sent`), in the fixed order, queued (L: lane r, or NULL as a launch
 * ends): what the SMs sent (the parallel part's and the ordered part's),
 * what the partitions sent. */
static void receive_all(tm_gpu *g, tm_lane *L, uint32_t r, uint32_t sent)
{
    receive_requests(g, L, r, sent);
    receive_replies(g, L, r, sent);
}

/* ---- firing --------------------------------------------------------------------- */

static void fire(tm_gpu *g, tm_heap *q, uint64_t now)
{
    tm_event e;
    while (tm_heap_top(q) <= now && tm_heap_pop(q, &e))
        tm_dispatch_event(g, &e);
}

/* Each queue marked in bits (of n), in id order, fired up to the lane's
 * time and its next event noted.  (Firing one queue cannot add to
 * another's: what it sends goes to the outboxes.) */
static void fire_marked(tm_gpu *g, tm_lane *L, const uint64_t *bits, uint32_t n, uint8_t wake_kind)
{
    for (uint32_t w = 0; w < (n + 63) / 64; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(b);
            tm_heap *q = queue_of(g, wake_kind, i);
            if (wake_kind == WAKE_PARTITION)
                g->parts[i].now = L->now;
            else
                g->sms[i].now = L->now;
            fire(g, q, L->now);
            if (q->n)
                wake_at(g, L, tm_heap_top(q), wake_kind, i);
        }
}

void tm_lane_fire_due(tm_gpu *g, tm_lane *L)
{
    for (uint32_t w = 0; w < (g->c.n_partitions + 63) / 64; w++)
        L->part_bits[w] = 0;
    for (uint32_t w = 0; w < (g->c.n_sm + 63) / 64; w++)
        L->inbox_bits[w] = 0;
    tm_event e;
    while (tm_heap_top(&L->wakes) <= L->now && tm_heap_pop(&L->wakes, &e)) {
        uint64_t *bits = e.kind == WAKE_SM ? L->inbox_bits : L->part_bits;
        if (tm_heap_top(queue_of(g, e.kind, e.where)) <= L->now)
            bits[e.where / 64] |= 1ull << (e.where % 64);       /* else fired since */
    }
    fire_marked(g, L, L->part_bits, (uint32_t)g->c.n_partitions, WAKE_PARTITION);
    fire_marked(g, L, L->inbox_bits, (uint32_t)g->c.n_sm, WAKE_SM);
    L->next = tm_heap_top(&L->wakes);
}

void tm_lane_receive(tm_gpu *g, tm_lane *L)
{
    receive_all(g, L, L->index, g->parity ^ 1);
    L->sent_min = TM_NEVER;
    memset(L->fired_at, 0, sizeof L->fired_at);
}

void tm_lane_fire(tm_gpu *g, tm_lane *L)
{
    tm_lane_receive(g, L);
    L->now = g->now;
    tm_lane_fire_due(g, L);
}

/* ---- windows -------------------------------------------------------------------- */

uint64_t tm_sm_take_replies(tm_gpu *g, tm_sm *sm)
{
    fire(g, &sm->inbox, sm->now);
    return tm_heap_top(&sm->inbox);
}

void tm_lane_fire_parts(tm_gpu *g, tm_lane *L, uint64_t end)
{
    for (;;) {
        /* Its SMs' entries are dropped as they come up: their SMs take
         * their replies themselves, cycle by cycle. */
        tm_event e;
        while (L->wakes.n && L->wakes.v[0].kind == WAKE_SM && L->wakes.v[0].time < end)
            tm_heap_pop(&L->wakes, &e);
        uint64_t t = tm_edge(g, tm_heap_top(&L->wakes));
        if (t >= end)
            break;
        L->now = t;
        uint64_t bit = (t - g->win_start) / g->core_ps;
        L->fired_at[bit / 64] |= 1ull << bit % 64;
        for (uint32_t w = 0; w < (g->c.n_partitions + 63) / 64; w++)
            L->part_bits[w] = 0;
        while (tm_heap_top(&L->wakes) <= t && tm_heap_pop(&L->wakes, &e))
            if (e.kind == WAKE_PARTITION && tm_heap_top(queue_of(g, e.kind, e.where)) <= t)
                L->part_bits[e.where / 64] |= 1ull << (e.where % 64);
        fire_marked(g, L, L->part_bits, (uint32_t)g->c.n_partitions, WAKE_PARTITION);
    }
    L->next = tm_heap_top(&L->wakes);
}

void tm_events_rewake(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        if (g->sms[i].inbox.n)
            wake_at(g, &g->lanes[g->sms[i].lane], tm_heap_top(&g->sms[i].inbox), WAKE_SM, i);
    for (uint32_t k = 0; k < g->nlanes; k++)
        g->lanes[k].next = tm_heap_top(&g->lanes[k].wakes);
}

/* ---- launches ------------------------------------------------------------------- */

void tm_events_begin(tm_gpu *g)
{
    g->late_min = TM_NEVER;
    for (uint32_t c = 0; c < g->nchunks; c++)
        g->chunks[c].sent_min = TM_NEVER;
    for (uint32_t k = 0; k < g->nlanes; k++) {
        tm_lane *L = &g->lanes[k];
        L->wakes.n = 0;
        L->sent_min = TM_NEVER;
        for (uint32_t p = 0; p < g->c.n_partitions; p++)
            if (g->parts[p].lane == k)
            if (g->parts[p].events.n)
                wake_at(g, L, tm_heap_top(&g->parts[p].events), WAKE_PARTITION, p);
        for (uint32_t i = 0; i < g->c.n_sm; i++)
            if (g->sms[i].lane == k)
            if (g->sms[i].inbox.n)
                wake_at(g, L, tm_heap_top(&g->sms[i].inbox), WAKE_SM, i);
        L->next = tm_heap_top(&L->wakes);
    }
}

void tm_events_end(tm_gpu *g)
{
    for (uint32_t r = 0; r < g->nlanes; r++)
        receive_all(g, NULL, r, g->parity);
}

uint64_t tm_next_event(const tm_gpu *g)
{
    uint64_t next = g->late_min;
    for (uint32_t k = 0; k < g->nlanes; k++) {
        const tm_lane *L = &g->lanes[k];
        if (L->next < next)
            next = L->next;
        if (L->sent_min < next)
            next = L->sent_min;
    }
    for (uint32_t c = 0; c < g->nchunks; c++)
        if (g->chunks[c].sent_min < next)
            next = g->chunks[c].sent_min;
    return next;
}

/*
 * pipe.c -- the memory partitions on a host thread of their own, a stage
 * of a pipeline beside the SMs.
 *
 * Nothing an SM sends reaches a partition sooner than a flit and the
 * interconnect's latency, nor anything a partition sends an SM
 * (tm_sm_inject and respond, memsys.c): the partitions' events at time t
 * depend only on what the SMs sent before t - lat, and the SMs' step at t
 * only on what the partitions sent before t - lat.  So the SMs step on the
 * calling thread exactly as they do on one thread (one lane of every SM,
 * then the ordered part: step.c), the partitions fire their events on a
 * helper, and each side runs up to lat ahead of the other:
 *
 *  - After each step the SMs publish what they sent as a batch marked with
 *    the step's time, then how far the partitions may go (sm_clear): up to
 *    the SMs' next step, which is no earlier than the earliest reply not yet
 *    published could be due (part_done + lat).  The SMs take that step once
 *    every reply due by it is published.
 *  - The partitions fire the step at t once t <= sm_clear, having queued
 *    the batches of the SM steps before t and only those (events of one
 *    time fire in the order they arrived, and on one thread a batch arrives
 *    at the step after it was sent); then they publish their replies as a
 *    batch marked t, and how far they are (part_done).
 *  - On one thread a launch ends at the first step after the one at which
 *    the SMs have nothing left: the partitions' next, or the next reply's
 *    to an SM.  So then the SMs ask the partitions for their next step
 *    (sm_last, part_next), take the earlier of the two as the last
 *    (sm_end), and both sides fire that step and stop.
 *
 * Every queue receives the same events in the same order as on one thread
 * and fires them at the same times: the statistics are the same, cycle for
 * cycle.  What the SMs do takes most of a compute-bound launch's time, and
 * the SMs' lanes (step.c) share that better; a memory-bound launch with few
 * blocks spends as much in its partitions, and its steps are too short to
 * share (gesummv's few microseconds), so the pipeline suits it.
 *
 * The batches travel in rings, one each way: the sender fills the slot at
 * tail with its outbox (swapping in the slot's emptied storage) and moves
 * tail on; the receiver queues the slot's events and moves head on.  Each
 * side empties its incoming ring whenever it waits, so neither waits on a
 * full ring forever.
 *
 * The pool never waits for a helper to come (pool.c), and neither does the
 * pipe: whoever holds a token fires the partitions' next step, and the
 * SMs' side, after waiting a while on the partitions, takes the token and
 * fires their steps itself.  On a machine with fewer free cores than
 * threads the launch then runs at about one thread's speed instead of at
 * the pace of the host's scheduler (two such launches side by side took
 * 20-80 s for what takes half a second).
 */
#include "sm.h"

#include <stdlib.h>

#define RING 4096               /* batches a ring holds (a power of two) */

typedef struct tm_batch {
    uint64_t time;              /* the step that sent it */
    tm_outbox box;
} tm_batch;

typedef struct tm_ring {
    tm_batch *v;
    _Alignas(TM_LINE) uint64_t tail;    /* the sender's */
    _Alignas(TM_LINE) uint64_t head;    /* the receiver's */
} tm_ring;

struct tm_pipe {
    tm_ring up, down;                   /* requests to the partitions, replies to the SMs */
    _Alignas(TM_LINE) uint64_t sm_clear;    /* the partitions may fire steps up to this */
    _Alignas(TM_LINE) uint64_t part_done;   /* the partitions have fired every step up to this */
    /* The partitions' next step (TM_NEVER: none) as they last saw it, and
     * the SM batches they had taken in by then. */
    uint64_t part_next;
    _Alignas(TM_LINE) uint64_t part_seen;
    _Alignas(TM_LINE) uint64_t sm_end;      /* the launch's last step (TM_NEVER until it ends) */
    /* The launch's end: the SMs' step after which they have nothing left
     * (TM_NEVER until then), and the partitions' answer, their next step
     * after it (part_next, once part_final). */
    uint64_t sm_last;
    _Alignas(TM_LINE) uint64_t part_final;
    uint64_t lat;                       /* the least time from a send to its arrival */
    /* Whoever holds the token fires the partitions' steps: the helper, or
     * the SMs' side when the helper is slow to come (help); and the state
     * of that side. */
    _Alignas(TM_LINE) uint32_t token;
    bool answered, finished;
};

static uint64_t load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

uint64_t tm_pipe_latency(const tm_gpu *g)
{
    /* At least a flit and the interconnect's latency each way, and the
     * L2's pipeline: before the tag lookup on the way in, its return part
     * on the way out (memsys.c). */
    uint64_t in = (g->c.l2_latency - g->c.l2_return_latency) * g->l2_ps;
    uint64_t out = g->c.l2_return_latency * g->l2_ps;
    return (1 + g->c.icnt_latency) * g->icnt_ps + (in < out ? in : out);
}

bool tm_pipe_ready(tm_gpu *g)
{
    if (!g->pipe && !(g->pipe = tm_alloc_lines(1, sizeof *g->pipe)))
        return false;
    tm_pipe *p = g->pipe;
    for (tm_ring *r = &p->up; r <= &p->down; r++)
        if (!r->v && !(r->v = calloc(RING, sizeof *r->v)))
            return false;
    p->lat = tm_pipe_latency(g);
    p->up.head = p->up.tail = p->down.head = p->down.tail = 0;
    /* Nothing is on its way; the partitions may fire the first step.  (The
     * SMs' bound counts replies due before part_done + lat as in, so
     * part_done may say the step to come.) */
    p->sm_clear = p->part_done = g->now;
    p->part_next = 0;
    p->part_seen = TM_NEVER;
    p->sm_end = p->sm_last = TM_NEVER;
    p->part_final = 0;
    p->token = 0;
    p->answered = p->finished = false;
    return true;
}

void tm_pipe_free(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    if (!p)
        return;
    for (tm_ring *r = &p->up; r <= &p->down; r++)
        for (uint32_t i = 0; r->v && i < RING; i++)
            free(r->v[i].box.v);
    free(p->up.v);
    free(p->down.v);
    free(p);
    g->pipe = NULL;
}

/* ---- the rings ---------------------------------------------------------------- */

/* Queue at their receivers the batches of ring r sent before `before`
 * (every one for TM_NEVER), in order; lane L notes the wakes. */
static void receive_before(tm_gpu *g, tm_lane *L, tm_ring *r, uint64_t before)
{
    uint64_t head = r->head, tail = load(&r->tail);
    for (; head < tail && r->v[head % RING].time < before; head++)
        tm_receive(g, L, &r->v[head % RING].box);
    store(&r->head, head);
}

/* Send what outbox o holds as the batch of step `time`.  While the ring
 * is full the sender empties its own incoming ring into lane L (the
 * receiver may be waiting for that). */
static void send(tm_gpu *g, tm_ring *r, uint64_t time, tm_outbox *o, tm_lane *L, tm_ring *in, uint64_t in_before)
{
    if (!o->n)
        return;
    for (uint32_t spins = 0; r->tail - load(&r->head) == RING;) {
        receive_before(g, L, in, in_before);
        tm_wait_a_little(&spins);
    }
    tm_batch *b = &r->v[r->tail % RING];
    tm_outbox empty = b->box;           /* the receiver left it empty */
    b->box = *o;
    b->time = time;
    *o = empty;
    store(&r->tail, r->tail + 1);
}

/* ---- the SMs' side (the calling thread) ----------------------------------------- */

static void help(tm_gpu *g, uint32_t spins);

void tm_pipe_sm_receive(tm_gpu *g)
{
    receive_before(g, &g->lanes[0], &g->pipe->down, TM_NEVER);
}

void tm_pipe_sm_sent(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    /* In the order one thread queues them: the lanes' sendings, then the
     * ordered part's. */
    send(g, &p->up, g->now, &g->chunks[0].requests[g->parity][1], &g->lanes[0], &p->down, TM_NEVER);
    send(g, &p->up, g->now, &g->late[1], &g->lanes[0], &p->down, TM_NEVER);
    g->late_min = TM_NEVER;
}

uint64_t tm_pipe_sm_next(tm_gpu *g, uint64_t own_next)
{
    tm_pipe *p = g->pipe;
    uint64_t next;
    for (uint32_t spins = 0;; tm_wait_a_little(&spins), help(g, spins)) {
        /* part_done first: the batches of every step up to it are then in. */
        uint64_t done = load(&p->part_done);
        tm_pipe_sm_receive(g);
        next = tm_heap_top(&g->lanes[0].wakes);
        next = tm_step_after_now(g, own_next < next ? own_next : next);
        /* Replies not yet in come from steps after done: due after safe. */
        uint64_t safe = done == TM_NEVER ? TM_NEVER : done + p->lat - 1;
        if (next <= safe)
            break;
        /* Nothing to come from either side: the partitions have fired all
         * the SMs allowed and have nothing left (the launch ends, or the
         * model has stalled). */
        if (next == TM_NEVER && load(&p->part_seen) == p->up.tail &&
            __atomic_load_n(&p->part_next, __ATOMIC_RELAXED) == TM_NEVER && p->down.head == load(&p->down.tail))
            return TM_NEVER;
        if (safe > p->sm_clear)
            store(&p->sm_clear, safe);
    }
    if (next > p->sm_clear)
        store(&p->sm_clear, next);
    return next;
}

uint64_t tm_pipe_sm_last(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    store(&p->sm_last, g->now);
    for (uint32_t spins = 0; !load(&p->part_final); tm_wait_a_little(&spins), help(g, spins))
        tm_pipe_sm_receive(g);
    uint64_t t = __atomic_load_n(&p->part_next, __ATOMIC_RELAXED);
    tm_pipe_sm_receive(g);
    uint64_t e = tm_step_after_now(g, tm_heap_top(&g->lanes[0].wakes));
    e = t < e ? t : e;
    uint64_t end = e == TM_NEVER ? g->now : e;
    if (end > p->sm_clear)
        store(&p->sm_clear, end);
    store(&p->sm_end, end);
    return e;
}

void tm_pipe_sm_end(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    store(&p->sm_end, g->now);
    if (g->now > p->sm_clear)
        store(&p->sm_clear, g->now);
}

void tm_pipe_finish(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    receive_before(g, NULL, &p->up, TM_NEVER);
    receive_before(g, NULL, &p->down, TM_NEVER);
}

/* ---- the partitions' side ------------------------------------------------------ */

enum { PART_IDLE, PART_FIRED, PART_DONE };

/* One look of the partitions' side, by whichever thread holds the token:
 * the next step fired if the SMs allow it (PART_FIRED), or how far the
 * partitions are idle published (PART_IDLE); PART_DONE once the launch's
 * last step is fired. */
static int part_step(tm_gpu *g, tm_pipe *p)
{
    tm_lane *L = &g->lanes[1];
    if (p->finished)
        return PART_DONE;
    uint64_t clear = load(&p->sm_clear), end = load(&p->sm_end), last = load(&p->sm_last);
    /* The next step: the earliest event, counting the batches sent before
     * it (what they hold is due after they were sent). */
    uint64_t t;
    for (;;) {
        t = tm_edge(g, tm_heap_top(&L->wakes));
        uint64_t head = p->up.head;
        if (head == load(&p->up.tail) || p->up.v[head % RING].time >= t)
            break;
        receive_before(g, L, &p->up, t);
    }
    if (t > end) {
        __atomic_store_n(&p->finished, true, __ATOMIC_RELEASE);
        store(&p->part_done, TM_NEVER);
        return PART_DONE;
    }
    if (t != p->part_next || p->up.head != p->part_seen) {
        __atomic_store_n(&p->part_next, t, __ATOMIC_RELAXED);
        store(&p->part_seen, p->up.head);
    }
    if (t > last && !p->answered) {
        /* Every step up to the SMs' last is fired, and nothing more will
         * come from them: t is the step after it. */
        store(&p->part_final, 1);
        p->answered = true;
    }
    if (t > clear) {
        /* Nothing to fire up to clear, nor after it before t or before
         * what an SM step from clear on can send arrives. */
        uint64_t idle = (t < clear + p->lat ? t : clear + p->lat) - 1;
        if (idle > p->part_done)
            store(&p->part_done, idle);
        return PART_IDLE;
    }
    L->now = t;
    tm_lane_fire_due(g, L);
    send(g, &p->down, t, &L->replies[g->parity][0], L, &p->up, t);
    store(&p->part_done, t);
    return PART_FIRED;
}

/* The token: one thread at a time looks at the partitions. */
static bool take(tm_pipe *p)
{
    uint32_t free_ = 0;
    return __atomic_load_n(&p->token, __ATOMIC_RELAXED) == 0 &&
           __atomic_compare_exchange_n(&p->token, &free_, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void give(tm_pipe *p) { __atomic_store_n(&p->token, 0, __ATOMIC_RELEASE); }

/* The SMs' side waiting on the partitions fires their steps itself once
 * it has waited HELP_AFTER looks: the helper may be off its core. */
#define HELP_AFTER 256

static void help(tm_gpu *g, uint32_t spins)
{
    tm_pipe *p = g->pipe;
    if (spins >= HELP_AFTER && take(p)) {
        part_step(g, p);
        give(p);
    }
}

void tm_pipe_partitions(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    for (uint32_t spins = 0;;) {
        int r = PART_IDLE;
        if (take(p)) {
            r = part_step(g, p);
            give(p);
        }
        if (r == PART_DONE)
            break;
        if (r == PART_FIRED)
            spins = 0;
        else
            tm_wait_a_little(&spins);
    }
}

void tm_pipe_drain(tm_gpu *g)
{
    tm_pipe *p = g->pipe;
    for (uint32_t spins = 0; !__atomic_load_n(&p->finished, __ATOMIC_ACQUIRE); tm_wait_a_little(&spins))
        help(g, HELP_AFTER);
}

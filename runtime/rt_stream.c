/*
 * rt_stream.c -- streams and events.
 *
 * Work issued to a stream runs on the device thread, in the order the
 * program issues it (rt_queue.c): a valid CUDA order, since work in one
 * stream runs in order and nothing orders work across streams except what
 * the program asks for.  So a stream is idle once the queue has run its
 * last operation, and an event has completed once its record has run.  A
 * wait on another stream's event matters only to work run beside a
 * waiting kernel, out of issue order: the queue is told of it.  Handles are
 * checked against the live set: a destroyed or made-up one is
 * cudaErrorInvalidResourceHandle.  A capturing stream records instead
 * (rt_capture.c): an event recorded there stands for captured work, which
 * a wait in another stream joins.
 */
#include "rt_int.h"

#include <stdlib.h>

double rt_timestamp(void)
{
    /* In timing mode events measure the simulated device. */
    return rt.cfg.timing ? rt_timing_seconds() : rt_wall_seconds();
}

static bool is_default_stream(cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

static rt_stream *stream_of(cudaStream_t s)
{
    return rt_ptrmap_get(&rt.streams, s);
}

cudaError_t rt_stream_check(cudaStream_t s)
{
    if (is_default_stream(s))
        return cudaSuccess;
    rt_lock();
    bool ok = stream_of(s) != NULL;
    rt_unlock();
    return ok ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t rt_stream_create(unsigned flags, int priority, cudaStream_t *out)
{
    /* Bookkeeping: it does not wait for the device (a kernel may spin
     * until the host, which makes a stream first, sets a flag). */
    RT_ASYNC_ENTRY();
    if (!out || (flags & ~(unsigned)cudaStreamNonBlocking))
        return cudaErrorInvalidValue;
    rt_ctx *ctx = rt_ctx_current();     /* takes the lock itself */
    rt_lock();
    cudaError_t e = rt.sticky;
    rt_stream *s = e == cudaSuccess ? calloc(1, sizeof *s) : NULL;
    if (e == cudaSuccess && !s)
        e = cudaErrorMemoryAllocation;
    if (s) {
        const rt_device *d = &rt.cfg.dev;
        /* CUDA clamps a priority outside the device's range into it. */
        if (priority > d->stream_prio_least)
            priority = d->stream_prio_least;
        if (priority < d->stream_prio_greatest)
            priority = d->stream_prio_greatest;
        *s = (rt_stream){ RT_MAGIC_STREAM, flags, .id = rt.next_stream_id++, .ctx = ctx ? ctx : &rt.primary };
        rt_attrs_init(&s->attrs);
        s->attrs.priority = priority;
        if (rt_ptrmap_put(&rt.streams, s, s)) {
            *out = (cudaStream_t)s;
        } else {
            free(s);
            e = cudaErrorMemoryAllocation;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_stream_destroy(cudaStream_t h)
{
    rt_lock();
    rt_stream *s = stream_of(h);
    if (s) {
        rt_capture_stream_gone(h);
        rt_ptrmap_del(&rt.streams, s);
        s->magic = 0;
        free(s);
    }
    rt_unlock();
    return s ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t rt_stream_ctx(cudaStream_t h, rt_ctx **out)
{
    if (is_default_stream(h)) {
        *out = rt_ctx_current();
        return cudaSuccess;
    }
    rt_lock();
    rt_stream *s = stream_of(h);
    if (s)
        *out = s->ctx;
    rt_unlock();
    return s ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t rt_stream_info(cudaStream_t h, unsigned *flags, int *priority, unsigned long long *id)
{
    unsigned f = 0;
    int p = 0;
    /* The legacy default stream is 0; the per-thread one 1. */
    unsigned long long i = h == cudaStreamPerThread ? 1 : 0;
    rt_lock();
    rt_stream *s = is_default_stream(h) ? NULL : stream_of(h);
    cudaError_t e = is_default_stream(h) || s ? cudaSuccess : cudaErrorInvalidResourceHandle;
    p = rt.stream0_attrs.priority;
    if (s) {
        f = s->flags;
        p = s->attrs.priority;
        i = s->id;
    }
    rt_unlock();
    if (e == cudaSuccess) {
        if (flags)
            *flags = f;
        if (priority)
            *priority = p;
        if (id)
            *id = i;
    }
    return e;
}

/* The attributes of stream h (the lock held); NULL if it is no stream. */
static rt_attrs *attrs_of(cudaStream_t h)
{
    if (is_default_stream(h))
        return &rt.stream0_attrs;
    rt_stream *s = stream_of(h);
    return s ? &s->attrs : NULL;
}

cudaError_t rt_stream_attr(cudaStream_t h, int id, cudaLaunchAttributeValue *v, bool set)
{
    rt_lock();
    rt_attrs *a = attrs_of(h);
    cudaError_t e = !a ? cudaErrorInvalidResourceHandle
                    : set ? rt_attr_set(a, RT_ATTRS_STREAM, id, v)
                          : rt_attr_get(a, RT_ATTRS_STREAM, id, v);
    rt_unlock();
    return e;
}

cudaError_t rt_stream_copy_attrs(cudaStream_t dst, cudaStream_t src)
{
    rt_lock();
    rt_attrs *d = attrs_of(dst), *s = attrs_of(src);
    if (d && s)
        *d = *s;
    rt_unlock();
    return d && s ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

void rt_stream_note_op(cudaStream_t h, uint64_t seq)
{
    rt_stream *s = is_default_stream(h) ? NULL : stream_of(h);
    if (s)
        s->last_op = seq;
}

rt_stream_order rt_stream_order_of(cudaStream_t h)
{
    rt_stream *s = is_default_stream(h) ? NULL : stream_of(h);
    return !s ? RT_ORDER_LEGACY : s->flags & cudaStreamNonBlocking ? RT_ORDER_NONBLOCKING : RT_ORDER_BLOCKING;
}

/* The queue's number of the last operation stream h waits for: every one
 * queued, for a default stream (the legacy stream waits for the blocking
 * streams' work; the per-thread one is taken as legacy). */
static uint64_t last_op_of(cudaStream_t h)
{
    rt_lock();
    rt_stream *s = is_default_stream(h) ? NULL : stream_of(h);
    uint64_t seq = s ? s->last_op : UINT64_MAX;
    rt_unlock();
    return seq;
}

/* Pools give back what they hold past their threshold at a wait, once
 * nothing runs that could use it. */
static void pool_sync_if_idle(void)
{
    if (rt_queue_idle())
        rt_pool_sync();
}

/* cudaStreamSynchronize (wait) and cudaStreamQuery: the stream's work has
 * run, or cudaErrorNotReady. */
static cudaError_t stream_done(cudaStream_t s, bool wait)
{
    RT_ASYNC_ENTRY();
    cudaError_t e = rt_stream_check(s);
    if (e == cudaSuccess)
        e = rt_capture_sync(s);
    if (e != cudaSuccess)
        return e;
    uint64_t seq = last_op_of(s);
    if (wait)
        rt_queue_wait(seq);
    else if (!rt_queue_done(seq))
        return cudaErrorNotReady;
    rt_queue_flush_output();
    pool_sync_if_idle();
    return rt_sticky();
}

cudaError_t rt_stream_sync(cudaStream_t s) { return stream_done(s, true); }

cudaError_t rt_stream_query(cudaStream_t s) { return stream_done(s, false); }

static rt_event *event_of(cudaEvent_t e)
{
    return rt_ptrmap_get(&rt.events, e);
}

cudaError_t rt_stream_wait_event(cudaStream_t s, cudaEvent_t ev, unsigned flags)
{
    RT_ASYNC_ENTRY();
    if (flags & ~(unsigned)cudaEventWaitExternal)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    rt_event *evp = event_of(ev);
    e = evp ? rt.sticky : cudaErrorInvalidResourceHandle;
    bool done = false;
    if (e == cudaSuccess)
        e = rt_capture_event_wait(s, evp, &done);
    /* A record still queued: the stream's later work waits for it, which
     * matters only to work run beside a waiting kernel (rt_queue.c). */
    if (e == cudaSuccess && !done && evp->pending && rt_queue_async() && !rt_queue_done(evp->pending))
        rt_queue_wait_for(s, evp->pending);
    rt_unlock();
    return e;
}

cudaError_t rt_event_create(unsigned flags, cudaEvent_t *out)
{
    RT_ASYNC_ENTRY();       /* bookkeeping, as rt_stream_create */
    unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (!out || (flags & ~known))
        return cudaErrorInvalidValue;
    /* An interprocess event must not record timing (CUDA's rule). */
    if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
        return cudaErrorInvalidValue;
    rt_lock();
    cudaError_t e = rt.sticky;
    rt_event *ev = e == cudaSuccess ? calloc(1, sizeof *ev) : NULL;
    if (e == cudaSuccess && !ev)
        e = cudaErrorMemoryAllocation;
    if (ev) {
        *ev = (rt_event){ .magic = RT_MAGIC_EVENT, .flags = flags };
        if (rt_ptrmap_put(&rt.events, ev, ev)) {
            *out = (cudaEvent_t)ev;
        } else {
            free(ev);
            e = cudaErrorMemoryAllocation;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_event_destroy(cudaEvent_t h)
{
    rt_lock();
    rt_event *ev = event_of(h);
    if (ev) {
        rt_ptrmap_del(&rt.events, ev);
        rt_capture_forget(&ev->capture);
        ev->magic = 0;
        free(ev);
    }
    rt_unlock();
    return ev ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t rt_event_record(cudaEvent_t h, cudaStream_t s, unsigned flags)
{
    RT_ASYNC_ENTRY();
    if (flags & ~(unsigned)cudaEventRecordExternal)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    rt_event *ev = event_of(h);
    e = ev ? rt.sticky : cudaErrorInvalidResourceHandle;
    bool captured = false;
    /* cudaEventRecordExternal in a capture: an event record node, which
     * records the event each time the graph runs (without the flag the
     * event only marks the capture's work, for other streams to join). */
    bool external = false;
    if (e == cudaSuccess && (flags & cudaEventRecordExternal))
        e = rt_capture_route(s, &external);
    if (e == cudaSuccess && external) {
        rt_graph_op op = { .type = cudaGraphNodeTypeEventRecord, .u.event = h };
        e = rt_capture_add(s, &op);
        captured = true;
    } else if (e == cudaSuccess) {
        e = rt_capture_event_record(ev, s, &captured);
    }
    if (e == cudaSuccess && !captured && rt_queue_current() && ev->pending && ev->pending != rt_queue_current()) {
        /* The device runs a record the program has made again since: the
         * later record sets the event. */
    } else if (e == cudaSuccess && !captured) {
        if (rt_queue_async() && !rt_queue_idle()) {
            /* It fires when the work queued before it has run. */
            rt_graph_op op = { .type = cudaGraphNodeTypeEventRecord, .u.event = h };
            ev->pending = rt_queue_push(s, &op, false);
        } else {
            /* Everything issued before has completed: the event fires now. */
            ev->recorded = true;
            ev->pending = 0;
            ev->time = rt_timestamp();
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_event_sync(cudaEvent_t h)
{
    RT_ASYNC_ENTRY();
    rt_lock();
    rt_event *ev = event_of(h);
    uint64_t seq = ev ? ev->pending : 0;       /* the queued record it waits for */
    rt_unlock();
    if (seq)
        rt_queue_wait(seq);
    cudaError_t e = rt_event_query(h);
    if (e == cudaSuccess)
        pool_sync_if_idle();
    return e;
}

cudaError_t rt_event_query(cudaEvent_t h)
{
    RT_ASYNC_ENTRY();
    rt_lock();
    /* Recorded events have completed once their record has run; one never
     * recorded counts as done.  One recorded in a capture stands for work
     * not run yet. */
    rt_event *ev = event_of(h);
    uint64_t seq = ev ? ev->pending : 0;
    cudaError_t e = !ev ? cudaErrorInvalidResourceHandle
                    : seq && !rt_queue_done(seq) ? cudaErrorNotReady : rt_surface();
    if (e == cudaSuccess && rt_capture_event_captured(ev))
        e = cudaErrorCapturedEvent;
    rt_unlock();
    if (e == cudaSuccess && seq)
        rt_queue_flush_output();
    return e;
}

cudaError_t rt_event_elapsed(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_event *a = event_of(start), *b = event_of(end);
    cudaError_t e = rt.sticky;
    /* CUDA's rule: both recorded, both timing. */
    if (e == cudaSuccess && (!a || !b || !a->recorded || !b->recorded ||
                             ((a->flags | b->flags) & cudaEventDisableTiming)))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        *ms = (float)((b->time - a->time) * 1e3);
    rt_unlock();
    return e;
}

void rt_stream_reset(void)
{
    rt_lock();
    for (uint32_t i = 0; i < rt.streams.cap; i++) {
        rt_stream *st = rt_ptrmap_slot(&rt.streams, i);
        if (st) {
            rt_capture_forget(&st->capture);
            free(st);
        }
    }
    for (uint32_t i = 0; i < rt.events.cap; i++) {
        rt_event *ev = rt_ptrmap_slot(&rt.events, i);
        if (ev) {
            rt_capture_forget(&ev->capture);
            free(ev);
        }
    }
    rt_ptrmap_free(&rt.streams);
    rt_ptrmap_free(&rt.events);
    rt_unlock();
}

/*
 * rt_capture.c -- stream capture: between cudaStreamBeginCapture and
 * cudaStreamEndCapture, work issued to the stream is recorded as graph
 * nodes instead of run.  Each stream in a capture carries the set of nodes
 * the next one depends on (rt_capture_deps): a node is added after that set
 * and becomes the set.  An event recorded in a capturing stream remembers
 * the set, and a stream that waits on it joins the capture with that set --
 * how programs fork work into other streams and join it back.
 *
 * The rules CUDA documents are kept: the legacy stream cannot capture, and
 * work issued to it while a blocking stream captures would depend on the
 * capture implicitly (cudaErrorStreamCaptureImplicit); calls that are unsafe
 * during capture (synchronous copies, cudaMalloc, synchronisations) are
 * cudaErrorStreamCaptureUnsupported as the capture mode decides, and either
 * invalidates the capture, so everything after it in the sequence is
 * cudaErrorStreamCaptureInvalidated and cudaStreamEndCapture returns no
 * graph.  A capture ends only in the stream that began it, after every
 * stream forked from it has been joined back.
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

struct rt_capture {
    unsigned long long id;
    rt_graph *graph;
    int mode;                   /* enum cudaStreamCaptureMode */
    pthread_t thread;           /* that began it */
    bool invalid;
    cudaStream_t origin;
    bool into;                  /* into the program's graph (cudaStreamBeginCaptureToGraph), kept on failure */
    uint32_t first;             /* the graph's nodes before it: not the capture's to join */
};

/* The per-thread default stream is one per thread, so is its capture. */
static _Thread_local rt_capture_deps per_thread;
/* cudaThreadExchangeStreamCaptureMode: this thread's interaction mode. */
static _Thread_local int thread_mode = cudaStreamCaptureModeGlobal;

static bool is_legacy(cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy;
}

/* The capture d is part of, if it still goes on (a capture that ended,
 * or one whose memory was reused, reads as none). */
static rt_capture *live(rt_capture_deps *d)
{
    rt_capture *c = d->cap ? rt_ptrmap_get(&rt.captures, d->cap) : NULL;
    if (c && c->id == d->id)
        return c;
    d->cap = NULL;
    d->n = 0;
    return NULL;
}

/* Stream s's capture state (the lock is held); NULL for the legacy
 * stream and for handles that are not streams. */
static rt_capture_deps *deps_of(cudaStream_t s)
{
    if (s == cudaStreamPerThread)
        return &per_thread;
    if (is_legacy(s))
        return NULL;
    rt_stream *st = rt_ptrmap_get(&rt.streams, s);
    return st ? &st->capture : NULL;
}

/* Room for n dependencies in d.  Nodes passed in may be d's own array
 * (cudaStreamGetCaptureInfo hands it out): it only moves when it grows. */
static bool reserve(rt_capture_deps *d, uint32_t n)
{
    while (d->capn < n) {
        uint32_t nc = d->capn ? d->capn * 2 : 8;
        rt_graph_node **a = realloc(d->nodes, nc * sizeof *a);
        if (!a)
            return false;
        d->nodes = a;
        cudaGraphEdgeData *ed = realloc(d->edges, nc * sizeof *ed);
        if (!ed)
            return false;
        d->edges = ed;
        d->capn = nc;
    }
    return true;
}

static bool set_deps(rt_capture_deps *d, rt_graph_node *const *nodes, uint32_t n)
{
    if (!reserve(d, n))
        return false;
    /* n == 0 may find the arrays not yet made (NULL). */
    if (n) {
        memmove(d->nodes, nodes, n * sizeof *nodes);
        memset(d->edges, 0, n * sizeof *d->edges);
    }
    d->n = n;
    return true;
}

/* Add the nodes not in d already. */
static bool union_deps(rt_capture_deps *d, rt_graph_node *const *nodes, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        bool have = false;
        for (uint32_t k = 0; k < d->n && !have; k++)
            have = d->nodes[k] == nodes[i];
        if (have)
            continue;
        rt_graph_node *one = nodes[i];
        if (!reserve(d, d->n + 1))
            return false;
        d->nodes[d->n] = one;
        d->edges[d->n] = (cudaGraphEdgeData){0};
        d->n++;
    }
    return true;
}

void rt_capture_forget(rt_capture_deps *d)
{
    free(d->nodes);
    free(d->edges);
    *d = (rt_capture_deps){0};
}

/* Whether any blocking stream (one that synchronises with the legacy
 * stream) is capturing: the legacy stream cannot be used then. */
static bool blocking_capture(bool invalidate)
{
    bool any = false;
    for (uint32_t i = 0; i < rt.streams.cap; i++) {
        rt_stream *st = rt_ptrmap_slot(&rt.streams, i);
        rt_capture *c = st && !(st->flags & cudaStreamNonBlocking) ? live(&st->capture) : NULL;
        if (c) {
            any = true;
            if (invalidate)
                c->invalid = true;
        }
    }
    rt_capture *c = live(&per_thread);
    if (c) {
        any = true;
        if (invalidate)
            c->invalid = true;
    }
    return any;
}

cudaError_t rt_capture_route(cudaStream_t s, bool *record)
{
    *record = false;
    rt_lock();
    cudaError_t e = cudaSuccess;
    if (is_legacy(s)) {
        if (rt.captures.n && blocking_capture(true))
            e = cudaErrorStreamCaptureImplicit;
    } else {
        rt_capture_deps *d = deps_of(s);
        rt_capture *c = d ? live(d) : NULL;
        if (c && c->invalid)
            e = cudaErrorStreamCaptureInvalidated;
        else if (c)
            *record = true;
    }
    rt_unlock();
    return e;
}

cudaError_t rt_capture_add(cudaStream_t s, rt_graph_op *op)
{
    rt_lock();
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = d ? live(d) : NULL;
    cudaError_t e = !c ? cudaErrorIllegalState : c->invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
    rt_graph_node *n = NULL;
    if (e == cudaSuccess)
        e = rt_graph_add(c->graph, d->nodes, d->n, op, &n);
    else
        rt_graph_op_free(op);
    if (e == cudaSuccess && !set_deps(d, &n, 1))
        e = cudaErrorMemoryAllocation;
    /* An operation that could not be recorded breaks the sequence. */
    if (e != cudaSuccess && c)
        c->invalid = true;
    rt_unlock();
    return e;
}

cudaError_t rt_capture_refuse(cudaStream_t s)
{
    rt_lock();
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = d ? live(d) : NULL;
    cudaError_t e = cudaSuccess;
    if (c) {
        e = c->invalid ? cudaErrorStreamCaptureInvalidated : cudaErrorStreamCaptureUnsupported;
        c->invalid = true;
    } else if (is_legacy(s) && rt.captures.n && blocking_capture(true)) {
        e = cudaErrorStreamCaptureImplicit;
    }
    rt_unlock();
    return e;
}

cudaError_t rt_capture_unsafe(void)
{
    if (thread_mode == cudaStreamCaptureModeRelaxed)
        return cudaSuccess;
    rt_lock();
    cudaError_t e = cudaSuccess;
    pthread_t self = pthread_self();
    /* Prohibited by this thread's own capture unless it is relaxed, or in
     * global mode by another thread's global capture. */
    for (uint32_t i = 0; i < rt.captures.cap; i++) {
        rt_capture *c = rt_ptrmap_slot(&rt.captures, i);
        if (!c || c->mode == cudaStreamCaptureModeRelaxed)
            continue;
        bool mine = pthread_equal(c->thread, self);
        if (mine || (thread_mode == cudaStreamCaptureModeGlobal && c->mode == cudaStreamCaptureModeGlobal)) {
            c->invalid = true;
            e = cudaErrorStreamCaptureUnsupported;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_capture_sync(cudaStream_t s)
{
    rt_lock();
    cudaError_t e = cudaSuccess;
    if (is_legacy(s)) {
        if (rt.captures.n && blocking_capture(true))
            e = cudaErrorStreamCaptureImplicit;
    } else {
        rt_capture_deps *d = deps_of(s);
        rt_capture *c = d ? live(d) : NULL;
        if (c) {
            c->invalid = true;
            e = cudaErrorStreamCaptureUnsupported;
        }
    }
    rt_unlock();
    return e;
}

/* Begin a capture in stream s into graph g (made for it, unless into),
 * its first operations after deps. */
static cudaError_t begin(cudaStream_t s, rt_graph *g, bool into, rt_graph_node *const *deps, uint32_t ndeps,
                         int mode)
{
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = NULL;
    cudaError_t e = cudaSuccess;
    if (live(d))
        e = cudaErrorIllegalState;      /* capturing already */
    else if (!(c = calloc(1, sizeof *c)))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        *c = (rt_capture){ ++rt.next_capture_id, g, mode, pthread_self(), false, s, into, g->n };
        if (rt_ptrmap_put(&rt.captures, c, c) && set_deps(d, deps, ndeps)) {
            d->cap = c;
            d->id = c->id;
        } else {
            rt_ptrmap_del(&rt.captures, c);
            e = cudaErrorMemoryAllocation;
        }
    }
    if (e != cudaSuccess)
        free(c);
    return e;
}

static cudaError_t check_begin(cudaStream_t s, int mode)
{
    if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
        mode != cudaStreamCaptureModeRelaxed)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return e;
    return is_legacy(s) ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t rt_capture_begin(cudaStream_t s, int mode)
{
    cudaError_t e = check_begin(s, mode);
    rt_graph *g = NULL;
    if (e == cudaSuccess)
        e = rt_graph_create(0, &g);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    e = begin(s, g, false, NULL, 0, mode);
    if (e != cudaSuccess)
        rt_graph_destroy(g);
    rt_unlock();
    return e;
}

cudaError_t rt_capture_begin_into(cudaStream_t s, rt_graph *h, rt_graph_node *const *deps, size_t ndeps, int mode)
{
    cudaError_t e = check_begin(s, mode);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    if (!g || (ndeps && !deps) || rt_capture_owns(g))
        e = cudaErrorInvalidValue;
    for (size_t i = 0; e == cudaSuccess && i < ndeps; i++) {
        rt_graph_node *n = rt_graph_node_live(deps[i]);
        if (!n || n->graph != g)
            e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess)
        e = begin(s, g, true, deps, (uint32_t)ndeps, mode);
    rt_unlock();
    return e;
}

/* Mark n and everything it depends on. */
static void mark_ancestors(const rt_graph_node *n, bool *seen)
{
    if (seen[n->index])
        return;
    seen[n->index] = true;
    for (uint32_t i = 0; i < n->ndeps; i++)
        mark_ancestors(n->deps[i], seen);
}

/* Every node the capture recorded leads to the origin's current set:
 * work forked into other streams was joined back. */
static bool joined(const rt_capture *c, const rt_capture_deps *origin)
{
    const rt_graph *g = c->graph;
    bool *seen = calloc(g->n ? g->n : 1, sizeof *seen);
    if (!seen)
        return false;
    for (uint32_t i = 0; i < origin->n; i++)
        mark_ancestors(origin->nodes[i], seen);
    bool all = true;
    for (uint32_t i = c->first; i < g->n && all; i++)
        all = seen[i];
    free(seen);
    return all;
}

cudaError_t rt_capture_end(cudaStream_t s, rt_graph **out)
{
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return out ? e : cudaErrorInvalidValue;
    rt_lock();
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = d ? live(d) : NULL;
    if (!out && (!c || !c->into)) {
        /* Only a capture into the program's own graph may end without
         * asking for it (NVIDIA's graphConditionalNodes sample does so). */
        e = cudaErrorInvalidValue;
    } else if (!c) {
        e = cudaErrorIllegalState;
    } else if (c->origin != s) {
        /* Joined from another stream: the capture ends where it began. */
        c->invalid = true;
        e = cudaErrorStreamCaptureUnmatched;
    } else if (c->mode != cudaStreamCaptureModeRelaxed && !pthread_equal(c->thread, pthread_self())) {
        e = cudaErrorStreamCaptureWrongThread;
    } else {
        rt_graph *g = c->graph;
        bool into = c->into;
        if (c->invalid)
            e = cudaErrorStreamCaptureInvalidated;
        else if (!joined(c, d))
            e = cudaErrorStreamCaptureUnjoined;
        /* The sequence is over for every stream in it (they find the
         * capture gone), and the graph is the program's or destroyed. */
        rt_ptrmap_del(&rt.captures, c);
        free(c);
        d->cap = NULL;
        d->n = 0;
        if (out)
            *out = e == cudaSuccess ? g : NULL;
        if (e != cudaSuccess && !into)
            rt_graph_destroy(g);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_capture_info(cudaStream_t s, enum cudaStreamCaptureStatus *status, unsigned long long *id,
                            rt_graph **graph, rt_graph_node *const **deps, const cudaGraphEdgeData **edges,
                            size_t *n)
{
    if (!status || (edges && !deps))
        return cudaErrorInvalidValue;
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    if (is_legacy(s)) {
        if (rt.captures.n && blocking_capture(false))
            e = cudaErrorStreamCaptureImplicit;
        else
            *status = cudaStreamCaptureStatusNone;
    } else {
        rt_capture_deps *d = deps_of(s);
        rt_capture *c = d ? live(d) : NULL;
        *status = !c ? cudaStreamCaptureStatusNone
                : c->invalid ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
        if (c && !c->invalid) {
            if (id)
                *id = c->id;
            if (graph)
                *graph = c->graph;
            if (deps)
                *deps = d->nodes;
            if (edges)
                *edges = d->edges;
            if (n)
                *n = d->n;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_capture_update(cudaStream_t s, rt_graph_node *const *nodes, size_t n, unsigned flags)
{
    if ((n && !nodes) || (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies))
        return cudaErrorInvalidValue;
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = d ? live(d) : NULL;
    if (!c || c->invalid)
        e = cudaErrorIllegalState;
    for (size_t i = 0; e == cudaSuccess && i < n; i++) {
        rt_graph_node *x = rt_graph_node_live(nodes[i]);
        if (!x || x->graph != c->graph)
            e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess) {
        bool ok = flags == cudaStreamSetCaptureDependencies ? set_deps(d, nodes, (uint32_t)n)
                                                            : union_deps(d, nodes, (uint32_t)n);
        if (!ok)
            e = cudaErrorMemoryAllocation;
    }
    rt_unlock();
    return e;
}

int rt_capture_exchange_mode(int mode)
{
    int old = thread_mode;
    thread_mode = mode;
    return old;
}

cudaError_t rt_capture_event_record(rt_event *ev, cudaStream_t s, bool *done)
{
    *done = false;
    rt_lock();
    cudaError_t e = cudaSuccess;
    if (is_legacy(s)) {
        if (rt.captures.n && blocking_capture(true))
            e = cudaErrorStreamCaptureImplicit;
    } else {
        rt_capture_deps *d = deps_of(s);
        rt_capture *c = d ? live(d) : NULL;
        if (c && c->invalid) {
            e = cudaErrorStreamCaptureInvalidated;
        } else if (c) {
            /* The event stands for the stream's work so far in the capture. */
            if (set_deps(&ev->capture, d->nodes, d->n)) {
                ev->capture.cap = c;
                ev->capture.id = c->id;
            } else {
                c->invalid = true;
                e = cudaErrorMemoryAllocation;
            }
            *done = true;
        } else {
            ev->capture.cap = NULL;     /* recorded outside any capture now */
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_capture_event_wait(cudaStream_t s, rt_event *ev, bool *done)
{
    *done = false;
    rt_lock();
    cudaError_t e = cudaSuccess;
    rt_capture *ec = live(&ev->capture);
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = d ? live(d) : NULL;
    if (c && c->invalid) {
        e = cudaErrorStreamCaptureInvalidated;
    } else if (ec && is_legacy(s)) {
        ec->invalid = true;
        e = cudaErrorStreamCaptureImplicit;
    } else if (ec && c && c != ec) {
        c->invalid = ec->invalid = true;
        e = cudaErrorStreamCaptureMerge;
    } else if (ec) {
        /* Waiting on captured work: the stream joins (or stays in) the
         * capture, after that work. */
        if (!c) {
            d->cap = ec;
            d->id = ec->id;
            d->n = 0;
        }
        if (!union_deps(d, ev->capture.nodes, ev->capture.n)) {
            ec->invalid = true;
            e = cudaErrorMemoryAllocation;
        }
        *done = true;
    } else if (c) {
        /* An event recorded outside the capture completed already: the
         * wait adds no dependency. */
        *done = true;
    }
    rt_unlock();
    return e;
}

bool rt_capture_owns(const rt_graph *g)
{
    rt_lock();
    bool owned = false;
    for (uint32_t i = 0; i < rt.captures.cap && !owned; i++) {
        rt_capture *c = rt_ptrmap_slot(&rt.captures, i);
        owned = c && c->graph == g;
    }
    rt_unlock();
    return owned;
}

bool rt_capture_event_captured(rt_event *ev)
{
    rt_lock();
    bool captured = live(&ev->capture) != NULL;
    rt_unlock();
    return captured;
}

void rt_capture_stream_gone(cudaStream_t s)
{
    rt_lock();
    rt_capture_deps *d = deps_of(s);
    rt_capture *c = d ? live(d) : NULL;
    /* A capture whose stream is gone can never end: it goes too. */
    if (c && c->origin == s) {
        rt_ptrmap_del(&rt.captures, c);
        if (!c->into)
            rt_graph_destroy(c->graph);
        free(c);
    }
    if (d)
        rt_capture_forget(d);
    rt_unlock();
}

void rt_capture_reset(void)
{
    rt_lock();
    for (uint32_t i = 0; i < rt.captures.cap; i++)
        free(rt_ptrmap_slot(&rt.captures, i));
    rt_ptrmap_free(&rt.captures);
    rt_capture_forget(&per_thread);
    rt_unlock();
}

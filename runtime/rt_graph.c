/*
 * rt_graph.c -- CUDA graphs: operations as nodes, the dependencies between
 * them, instantiation into an executable graph, and its launch.
 *
 * Work runs one operation at a time in the order it is issued (rt_queue.c),
 * so launching a graph runs its nodes one after another in a topological
 * order of its dependencies -- an order a GPU could also have chosen --
 * through rt_graph_op_run, the same function that runs the async copies,
 * memsets and host functions a stream is given directly.  Graph,
 * node and executable handles are checked against live sets, so a destroyed
 * or made-up one is cudaErrorInvalidValue, never a dereference.
 *
 * An executable graph is a snapshot: instantiation copies every node's
 * operation (kernel arguments included), so changing or destroying the
 * graph afterwards leaves it alone, as CUDA documents.
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

/* An executable graph: the operations in the order they run.  A child
 * graph's operation holds an executable graph of its own (not a live
 * handle: only its parent reaches it). */
struct rt_graph_exec {
    uint32_t magic;             /* RT_MAGIC_EXEC while live */
    unsigned long long flags;
    rt_graph_op *ops;
    const rt_graph_node **from; /* the node each op was copied from (compared, never read) */
    uint32_t *order;            /* ops[i] came from the graph's node order[i] (creation index) */
    bool *disabled;             /* cudaGraphNodeSetEnabled: ops[i] does nothing at launch */
    uint32_t n;
    rt_userobj_refs *refs;      /* the graph's user-object references, duplicated */
    rt_cond_refs *conds;        /* the graph's conditional handles: their defaults at each launch */
};

static void graph_free(rt_graph *g);
static void graph_exec_free(rt_graph_exec *x);
static cudaError_t make_exec(const rt_graph *g, unsigned long long flags, rt_graph_exec **out);

/* ---- operations ------------------------------------------------------------ */

static bool is_mem(const rt_graph_op *op)
{
    return op->type == cudaGraphNodeTypeMemAlloc || op->type == cudaGraphNodeTypeMemFree;
}

void rt_graph_op_free(rt_graph_op *op)
{
    if (op->type == cudaGraphNodeTypeKernel) {
        free(op->u.kernel.params);
        free(op->u.kernel.argv);
        op->u.kernel.params = NULL;
        op->u.kernel.argv = NULL;
    } else if (op->type == cudaGraphNodeTypeGraph) {
        if (op->u.child.graph)
            graph_free(op->u.child.graph);
        if (op->u.child.exec)
            graph_exec_free(op->u.child.exec);
        op->u.child.graph = NULL;
        op->u.child.exec = NULL;
    } else if (is_mem(op)) {
        rt_gmem_op_free(op);
    } else if (op->type == cudaGraphNodeTypeConditional) {
        for (uint32_t i = 0; i < op->u.cond.size; i++) {
            if (op->u.cond.bodies && op->u.cond.bodies[i])
                graph_free(op->u.cond.bodies[i]);
            if (op->u.cond.execs && op->u.cond.execs[i])
                graph_exec_free(op->u.cond.execs[i]);
        }
        free(op->u.cond.bodies);
        free(op->u.cond.execs);
        op->u.cond.bodies = NULL;
        op->u.cond.execs = NULL;
    }
}

cudaError_t rt_graph_op_copy(rt_graph_op *dst, const rt_graph_op *src)
{
    if (src->type == cudaGraphNodeTypeConditional || is_mem(src)) {
        /* CUDA documents that a graph with conditional or memory nodes
         * cannot be cloned (nor so embedded as a child graph: a graph with
         * memory nodes may be moved into one). */
        *dst = (rt_graph_op){ .type = cudaGraphNodeTypeEmpty };
        rt_say("a graph with a %s node cannot be cloned or copied into a child graph node",
               is_mem(src) ? "memory" : "conditional");
        return cudaErrorNotSupported;
    }
    *dst = *src;
    if (src->type == cudaGraphNodeTypeGraph) {
        /* A node's embedded graph is its own: copied whole. */
        dst->u.child.exec = NULL;
        dst->u.child.graph = NULL;
        return src->u.child.graph ? rt_graph_clone(src->u.child.graph, &dst->u.child.graph) : cudaSuccess;
    }
    if (src->type != cudaGraphNodeTypeKernel)
        return cudaSuccess;
    /* The argument pointers point into params: rebase them on the copy. */
    const exec_kernel_info *ki = exec_program_kernel_info(src->u.kernel.f->mod->prog, src->u.kernel.f->index);
    size_t bytes = ki->param_bytes;
    dst->u.kernel.params = malloc(bytes ? bytes : 1);
    dst->u.kernel.argv = calloc(src->u.kernel.nargs ? src->u.kernel.nargs : 1, sizeof(void *));
    if (!dst->u.kernel.params || !dst->u.kernel.argv) {
        free(dst->u.kernel.params);
        free(dst->u.kernel.argv);
        dst->u.kernel.params = NULL;
        dst->u.kernel.argv = NULL;
        return cudaErrorMemoryAllocation;
    }
    memcpy(dst->u.kernel.params, src->u.kernel.params, bytes);
    for (uint32_t i = 0; i < src->u.kernel.nargs; i++)
        dst->u.kernel.argv[i] = dst->u.kernel.params + ki->params[i].offset;
    return cudaSuccess;
}

/* An operation as an executable graph holds it: a child graph instantiated. */
static cudaError_t exec_op_copy(rt_graph_op *dst, const rt_graph_op *src)
{
    if (is_mem(src)) {
        rt_gmem_op_copy(dst, src, true);
        return cudaSuccess;
    }
    if (src->type == cudaGraphNodeTypeConditional) {
        /* The bodies instantiated (an error leaves the rest NULL, which
         * rt_graph_op_free passes over). */
        *dst = *src;
        dst->u.cond.bodies = NULL;
        dst->u.cond.execs = calloc(src->u.cond.size, sizeof *dst->u.cond.execs);
        cudaError_t e = dst->u.cond.execs ? cudaSuccess : cudaErrorMemoryAllocation;
        for (uint32_t i = 0; e == cudaSuccess && i < src->u.cond.size; i++)
            e = make_exec(src->u.cond.bodies[i], 0, &dst->u.cond.execs[i]);
        return e;
    }
    if (src->type != cudaGraphNodeTypeGraph)
        return rt_graph_op_copy(dst, src);
    *dst = (rt_graph_op){ .type = cudaGraphNodeTypeGraph };
    return make_exec(src->u.child.graph, 0, &dst->u.child.exec);
}

bool rt_graph_exec_has_kernel(const rt_graph_exec *x)
{
    for (uint32_t i = 0; i < x->n; i++) {
        const rt_graph_op *op = &x->ops[i];
        if (x->disabled[i])
            continue;
        if (op->type == cudaGraphNodeTypeKernel)
            return true;
        if (op->type == cudaGraphNodeTypeGraph && rt_graph_exec_has_kernel(op->u.child.exec))
            return true;
        for (uint32_t k = 0; op->type == cudaGraphNodeTypeConditional && k < op->u.cond.size; k++)
            if (rt_graph_exec_has_kernel(op->u.cond.execs[k]))
                return true;
    }
    return false;
}

/* Run an executable graph's operations in their order, the disabled ones
 * as empty nodes. */
static cudaError_t run_exec(const rt_graph_exec *x, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    for (uint32_t i = 0; e == cudaSuccess && i < x->n; i++)
        e = x->disabled[i] ? rt_sticky() : rt_graph_op_run(&x->ops[i], s);
    return e;
}

cudaError_t rt_graph_op_run(const rt_graph_op *op, cudaStream_t s)
{
    switch (op->type) {
    case cudaGraphNodeTypeGraph:
        return run_exec(op->u.child.exec, s);
    case cudaGraphNodeTypeConditional:
        return rt_cond_run(op, s, run_exec);
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree: {
        cudaError_t e = rt_sticky();
        return e == cudaSuccess ? rt_gmem_run(op) : e;
    }
    case cudaGraphNodeTypeKernel: {
        rt_launch_req r = {
            .cooperative = op->u.kernel.attrs.cooperative != 0,
            .f = op->u.kernel.f,
            .grid = { op->u.kernel.grid[0], op->u.kernel.grid[1], op->u.kernel.grid[2] },
            .block = { op->u.kernel.block[0], op->u.kernel.block[1], op->u.kernel.block[2] },
            .shared = op->u.kernel.shared,
            .cluster = { op->u.kernel.cluster[0], op->u.kernel.cluster[1], op->u.kernel.cluster[2] },
            .stream = s,
            .args = op->u.kernel.argv,
        };
        return rt_launch(&r);
    }
    case cudaGraphNodeTypeMemcpy:
        if (op->u.copy.is3d)
            return rt_memcpy3d(&op->u.copy.c3);
        return rt_memcpy2d(op->u.copy.dst, op->u.copy.dpitch, op->u.copy.src, op->u.copy.spitch,
                           op->u.copy.width, op->u.copy.height, op->u.copy.kind);
    case cudaGraphNodeTypeMemset: {
        const struct cudaMemsetParams *m = &op->u.memset;
        return rt_memset(m->dst, m->height > 1 ? m->pitch : m->width * m->elementSize, m->value,
                         m->elementSize, m->width, m->height);
    }
    case cudaGraphNodeTypeHost: {
        /* A host function learns of nothing; a fault before it stops it. */
        cudaError_t e = rt_sticky();
        if (e == cudaSuccess)
            op->u.host.fn(op->u.host.userData);
        return e;
    }
    case cudaGraphNodeTypeEventRecord:
        return rt_event_record(op->u.event, s, 0);
    case cudaGraphNodeTypeWaitEvent:
    case cudaGraphNodeTypeEmpty:
        /* Everything before has completed: nothing to wait for. */
        return rt_sticky();
    default:
        return cudaErrorNotSupported;
    }
}

/* What can be checked of an operation before it runs. */
static cudaError_t check_op(const rt_graph_op *op)
{
    switch (op->type) {
    case cudaGraphNodeTypeMemcpy:
        if ((unsigned)op->u.copy.kind > cudaMemcpyDefault)
            return cudaErrorInvalidMemcpyDirection;
        return cudaSuccess;
    case cudaGraphNodeTypeMemset: {
        const struct cudaMemsetParams *m = &op->u.memset;
        return m->elementSize == 1 || m->elementSize == 2 || m->elementSize == 4 ? cudaSuccess
                                                                                : cudaErrorInvalidValue;
    }
    case cudaGraphNodeTypeHost:
        return op->u.host.fn ? cudaSuccess : cudaErrorInvalidValue;
    default:
        return cudaSuccess;
    }
}

/* Whether op, issued while the device is busy, can wait in the queue:
 * what it returns is checked now (*e); a copy touching pageable host
 * memory, and the rarer kinds, run now, after the queue. */
static bool can_queue(const rt_graph_op *op, cudaError_t *e)
{
    *e = cudaSuccess;
    switch (op->type) {
    case cudaGraphNodeTypeMemcpy: {
        if (op->u.copy.is3d)
            return false;
        bool pageable;
        *e = rt_memcpy2d_check(op->u.copy.dst, op->u.copy.dpitch, op->u.copy.src, op->u.copy.spitch,
                               op->u.copy.width, op->u.copy.height, op->u.copy.kind, &pageable);
        return !pageable;
    }
    case cudaGraphNodeTypeMemset: {
        const struct cudaMemsetParams *m = &op->u.memset;
        *e = rt_memset_check(m->dst, m->height > 1 ? m->pitch : m->width * m->elementSize, m->elementSize,
                             m->width, m->height);
        return true;
    }
    case cudaGraphNodeTypeKernel:
    case cudaGraphNodeTypeHost:
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
    case cudaGraphNodeTypeEmpty:
        return true;
    default:
        return false;
    }
}

cudaError_t rt_enqueue(cudaStream_t s, rt_graph_op *op)
{
    RT_ASYNC_ENTRY();
    cudaError_t e = rt_stream_check(s);
    if (e == cudaSuccess)
        e = check_op(op);
    bool record = false;
    if (e == cudaSuccess)
        e = rt_capture_route(s, &record);
    if (e != cudaSuccess) {
        rt_graph_op_free(op);
        return e;
    }
    if (record)
        return rt_capture_add(s, op);
    if (rt_queue_async() && !rt_queue_idle()) {
        /* Behind queued work: it waits its turn (rt_queue.c). */
        if (can_queue(op, &e) || e != cudaSuccess) {
            if (e == cudaSuccess)
                rt_queue_push(s, op, false);
            else
                rt_graph_op_free(op);
            return e;
        }
    }
    rt_queue_wait(UINT64_MAX);
    e = rt_graph_op_run(op, s);
    rt_graph_op_free(op);
    return e;
}

/* ---- graphs and nodes ---------------------------------------------------------- */

rt_graph *rt_graph_live(const void *h)
{
    rt_lock();
    rt_graph *x = h ? rt_ptrmap_get(&rt.graphs, h) : NULL;
    rt_unlock();
    return x;
}

rt_graph_node *rt_graph_node_live(const void *h)
{
    rt_lock();
    rt_graph_node *x = h ? rt_ptrmap_get(&rt.nodes, h) : NULL;
    rt_unlock();
    return x;
}

rt_graph_exec *rt_graph_exec_live(const void *h)
{
    rt_lock();
    rt_graph_exec *x = h ? rt_ptrmap_get(&rt.execs, h) : NULL;
    rt_unlock();
    return x;
}

cudaError_t rt_graph_create(unsigned flags, rt_graph **out)
{
    if (!out || flags)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = calloc(1, sizeof *g);
    cudaError_t e = g ? cudaSuccess : cudaErrorMemoryAllocation;
    if (g) {
        g->magic = RT_MAGIC_GRAPH;
        if (rt_ptrmap_put(&rt.graphs, g, g)) {
            *out = g;
        } else {
            free(g);
            e = cudaErrorMemoryAllocation;
        }
    }
    rt_unlock();
    return e;
}

static void free_node(rt_graph_node *n)
{
    rt_ptrmap_del(&rt.nodes, n);
    rt_graph_op_free(&n->op);
    free(n->deps);
    n->magic = 0;
    free(n);
}

/* The graph, its nodes (and the graphs they embed) and its references to
 * user objects go (the lock held). */
static void graph_free(rt_graph *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        free_node(g->nodes[i]);
    free(g->nodes);
    rt_userobj_refs_free(&g->refs);
    rt_cond_graph_gone(g->conds);
    rt_cond_refs_free(&g->conds);
    rt_ptrmap_del(&rt.graphs, g);
    g->magic = 0;
    free(g);
}

cudaError_t rt_graph_destroy(rt_graph *h)
{
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    /* A graph a capture is recording into is the capture's until it ends. */
    if (g && rt_capture_owns(g)) {
        rt_unlock();
        return cudaErrorIllegalState;
    }
    /* A child-graph node's embedded graph goes with the node. */
    if (g && g->owner)
        g = NULL;
    if (g)
        graph_free(g);
    rt_unlock();
    return g ? cudaSuccess : cudaErrorInvalidValue;
}

static bool has_dep(const rt_graph_node *n, const rt_graph_node *d)
{
    for (uint32_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d)
            return true;
    return false;
}

static bool add_dep(rt_graph_node *n, rt_graph_node *d)
{
    if (!rt_grow((void ***)&n->deps, &n->capdeps, n->ndeps))
        return false;
    n->deps[n->ndeps++] = d;
    return true;
}

/* Each dependency a live node of graph g, named once. */
static cudaError_t check_deps(const rt_graph *g, rt_graph_node *const *deps, size_t ndeps)
{
    for (size_t i = 0; i < ndeps; i++) {
        rt_graph_node *d = rt_graph_node_live(deps[i]);
        if (!d || d->graph != g)
            return cudaErrorInvalidValue;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* Whether g is the body of a conditional node, or embedded in one. */
static bool in_cond_body(const rt_graph *g)
{
    for (const rt_graph *up = g; up && up->owner; up = up->owner->graph)
        if (up->owner->op.type == cudaGraphNodeTypeConditional)
            return true;
    return false;
}

/* The kinds of node CUDA allows in a conditional body, at any depth. */
static bool allowed_in_body(const rt_graph_op *op)
{
    switch (op->type) {
    case cudaGraphNodeTypeKernel:
    case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset:
    case cudaGraphNodeTypeEmpty:
    case cudaGraphNodeTypeConditional:
        return true;
    case cudaGraphNodeTypeGraph:
        for (uint32_t i = 0; i < op->u.child.graph->n; i++)
            if (!allowed_in_body(&op->u.child.graph->nodes[i]->op))
                return false;
        return true;
    default:
        return false;
    }
}

cudaError_t rt_graph_add(rt_graph *h, rt_graph_node *const *deps, size_t ndeps, rt_graph_op *op,
                         rt_graph_node **out)
{
    cudaError_t e = cudaSuccess;
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    if (!g || !out || (ndeps && !deps))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = check_op(op);
    if (e == cudaSuccess && in_cond_body(g) && !allowed_in_body(op)) {
        rt_say("a conditional node's body graph holds only kernel, copy, set, empty, child-graph and "
               "conditional nodes (CUDA's rule); not this one");
        e = cudaErrorNotSupported;
    }
    if (e == cudaSuccess)
        e = check_deps(g, deps, ndeps);
    rt_graph_node *n = e == cudaSuccess ? calloc(1, sizeof *n) : NULL;
    if (e == cudaSuccess && (!n || !rt_grow((void ***)&g->nodes, &g->cap, g->n)))
        e = cudaErrorMemoryAllocation;
    for (size_t i = 0; e == cudaSuccess && i < ndeps; i++)
        if (!add_dep(n, deps[i]))
            e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && !rt_ptrmap_put(&rt.nodes, n, n))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        n->magic = RT_MAGIC_NODE;
        n->graph = g;
        n->index = g->n;
        n->op = *op;
        if (op->type == cudaGraphNodeTypeGraph)
            op->u.child.graph->owner = n;
        for (uint32_t i = 0; op->type == cudaGraphNodeTypeConditional && i < op->u.cond.size; i++)
            op->u.cond.bodies[i]->owner = n;
        if (op->type == cudaGraphNodeTypeMemAlloc)
            rt_gmem_placed(op->u.gmem.mem, g);
        g->nodes[g->n++] = n;
        *out = n;
    } else {
        rt_graph_op_free(op);
        if (n)
            free(n->deps);
        free(n);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_graph_add_edges(rt_graph *h, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                               const cudaGraphEdgeData *edges, size_t n, bool add)
{
    if (n && (!from || !to))
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    cudaError_t e = g ? cudaSuccess : cudaErrorInvalidValue;
    /* Check every edge before changing anything: a failed call changes
     * nothing.  Only the default edge (all zero) exists without
     * programmatic launches. */
    for (size_t i = 0; e == cudaSuccess && i < n; i++) {
        rt_graph_node *a = rt_graph_node_live(from[i]), *b = rt_graph_node_live(to[i]);
        cudaGraphEdgeData zero = {0};
        if (!a || !b || a->graph != g || b->graph != g || a == b)
            e = cudaErrorInvalidValue;
        else if (edges && memcmp(&edges[i], &zero, sizeof zero) != 0)
            e = cudaErrorNotSupported;
        else if (add == has_dep(b, a))
            e = cudaErrorInvalidValue;  /* adding an edge there already, removing one that is not */
    }
    for (size_t i = 0; e == cudaSuccess && i < n; i++) {
        rt_graph_node *a = (rt_graph_node *)from[i], *b = (rt_graph_node *)to[i];
        if (add) {
            if (!has_dep(b, a) && !add_dep(b, a))
                e = cudaErrorMemoryAllocation;
        } else {
            for (uint32_t k = 0; k < b->ndeps; k++)
                if (b->deps[k] == a) {
                    memmove(&b->deps[k], &b->deps[k + 1], (b->ndeps - k - 1) * sizeof *b->deps);
                    b->ndeps--;
                    break;
                }
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_graph_clone(rt_graph *h, rt_graph **out)
{
    if (!out)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = rt_graph_live(h), *c = NULL;
    cudaError_t e = g ? rt_graph_create(0, &c) : cudaErrorInvalidValue;
    /* The nodes first, then the edges (an edge may run from a node made
     * after the one it leads to). */
    for (uint32_t i = 0; e == cudaSuccess && i < g->n; i++) {
        rt_graph_op op;
        rt_graph_node *made;
        if ((e = rt_graph_op_copy(&op, &g->nodes[i]->op)) == cudaSuccess)
            e = rt_graph_add(c, NULL, 0, &op, &made);
    }
    for (uint32_t i = 0; e == cudaSuccess && i < g->n; i++)
        for (uint32_t k = 0; e == cudaSuccess && k < g->nodes[i]->ndeps; k++) {
            cudaGraphNode_t from = (cudaGraphNode_t)c->nodes[g->nodes[i]->deps[k]->index];
            cudaGraphNode_t to = (cudaGraphNode_t)c->nodes[i];
            e = rt_graph_add_edges(c, &from, &to, NULL, 1, true);
        }
    if (e == cudaSuccess)
        e = rt_userobj_refs_copy(&c->refs, g->refs);
    if (e == cudaSuccess) {
        c->origin = g;
        *out = c;
    } else if (c) {
        graph_free(c);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_graph_find_in_clone(rt_graph_node *original, rt_graph *clone, rt_graph_node **out)
{
    if (!out)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph_node *n = rt_graph_node_live(original);
    rt_graph *c = rt_graph_live(clone);
    cudaError_t e = n && c && c->origin == n->graph && n->index < c->n ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *out = c->nodes[n->index];
    rt_unlock();
    return e;
}

/* Whether any node of g, or of a graph embedded in it, is one `is` says. */
static bool any_node(const rt_graph *g, bool (*is)(const rt_graph_op *op))
{
    for (uint32_t i = 0; i < g->n; i++) {
        const rt_graph_op *op = &g->nodes[i]->op;
        if (is(op) || (op->type == cudaGraphNodeTypeGraph && any_node(op->u.child.graph, is)))
            return true;
    }
    return false;
}

cudaError_t rt_graph_destroy_node(rt_graph_node *h)
{
    rt_lock();
    rt_graph_node *n = rt_graph_node_live(h);
    /* "Nodes and edges of the graph cannot be deleted" once it has memory nodes. */
    if (n && any_node(n->graph, is_mem)) {
        rt_unlock();
        rt_say("cudaGraphDestroyNode: the graph has memory nodes, whose nodes cannot be deleted");
        return cudaErrorNotSupported;
    }
    if (n) {
        rt_graph *g = n->graph;
        /* Its edges go with it. */
        for (uint32_t i = 0; i < g->n; i++) {
            rt_graph_node *m = g->nodes[i];
            for (uint32_t k = 0; k < m->ndeps; k++)
                if (m->deps[k] == n) {
                    memmove(&m->deps[k], &m->deps[k + 1], (m->ndeps - k - 1) * sizeof *m->deps);
                    m->ndeps--;
                    break;
                }
        }
        memmove(&g->nodes[n->index], &g->nodes[n->index + 1], (g->n - n->index - 1) * sizeof *g->nodes);
        g->n--;
        for (uint32_t i = n->index; i < g->n; i++)
            g->nodes[i]->index = i;
        free_node(n);
    }
    rt_unlock();
    return n ? cudaSuccess : cudaErrorInvalidValue;
}

/* ---- instantiation and launch ------------------------------------------------- */

/* The nodes in an order that respects every dependency, earliest-created
 * first among those ready (Kahn's algorithm, so the order is the same from
 * run to run); false if the dependencies have a cycle. */
static bool topo_order(const rt_graph *g, uint32_t *order)
{
    uint32_t *waiting = calloc(g->n ? g->n : 1, sizeof *waiting);
    bool *done = calloc(g->n ? g->n : 1, sizeof *done);
    bool ok = waiting && done;
    for (uint32_t i = 0; ok && i < g->n; i++)
        waiting[i] = g->nodes[i]->ndeps;
    uint32_t placed = 0;
    while (ok && placed < g->n) {
        uint32_t pick = g->n;
        for (uint32_t i = 0; i < g->n && pick == g->n; i++)
            if (!done[i] && waiting[i] == 0)
                pick = i;
        if (pick == g->n) {
            ok = false;             /* every node left waits on another: a cycle */
            break;
        }
        done[pick] = true;
        order[placed++] = pick;
        for (uint32_t i = 0; i < g->n; i++)
            if (!done[i] && has_dep(g->nodes[i], g->nodes[pick]))
                waiting[i]--;
    }
    free(waiting);
    free(done);
    return ok;
}

static void graph_exec_free(rt_graph_exec *x)
{
    for (uint32_t i = 0; i < x->n; i++)
        rt_graph_op_free(&x->ops[i]);
    free(x->ops);
    free(x->from);
    free(x->order);
    free(x->disabled);
    rt_userobj_refs_free(&x->refs);
    rt_cond_refs_free(&x->conds);
    x->magic = 0;
    free(x);
}

/* Fill x with copies of g's operations in a dependency order. */
static cudaError_t snapshot(rt_graph_exec *x, const rt_graph *g)
{
    x->n = 0;
    x->ops = calloc(g->n ? g->n : 1, sizeof *x->ops);
    x->from = calloc(g->n ? g->n : 1, sizeof *x->from);
    x->order = calloc(g->n ? g->n : 1, sizeof *x->order);
    x->disabled = calloc(g->n ? g->n : 1, sizeof *x->disabled);
    if (!x->ops || !x->from || !x->order || !x->disabled)
        return cudaErrorMemoryAllocation;
    if (!topo_order(g, x->order))
        return cudaErrorInvalidValue;   /* cudaGraphInstantiateInvalidStructure */
    for (uint32_t i = 0; i < g->n; i++) {
        cudaError_t e = exec_op_copy(&x->ops[i], &g->nodes[x->order[i]]->op);
        if (e != cudaSuccess) {
            rt_graph_op_free(&x->ops[i]);       /* what of it was made */
            return e;
        }
        x->from[i] = g->nodes[x->order[i]];
        x->n = i + 1;
    }
    return cudaSuccess;
}

cudaError_t rt_graph_instantiate(rt_graph *h, unsigned long long flags, rt_graph_exec **out)
{
    unsigned long long known = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                               cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;
    if (!out || (flags & ~known))
        return cudaErrorInvalidValue;
    /* Graphs launched from the device need device-side launch, which the
     * engine does not have. */
    if (flags & cudaGraphInstantiateFlagDeviceLaunch)
        return cudaErrorNotSupported;
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    rt_graph_exec *x = NULL;
    cudaError_t e = g ? cudaSuccess : cudaErrorInvalidValue;
    /* A graph with allocation or conditional nodes has one executable at
     * a time. */
    if (e == cudaSuccess && (any_node(g, rt_gmem_instantiated) || rt_cond_instantiated(g->conds))) {
        rt_say("cudaGraphInstantiate: the graph has %s nodes and an executable graph already (destroy it first)",
               rt_cond_instantiated(g->conds) ? "conditional" : "memory allocation");
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess)
        e = make_exec(g, flags, &x);
    if (e == cudaSuccess && !rt_ptrmap_put(&rt.execs, x, x))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        *out = x;
    else if (x)
        graph_exec_free(x);
    rt_unlock();
    return e;
}

/* An executable graph of g, not yet a live handle (the lock held). */
static cudaError_t make_exec(const rt_graph *g, unsigned long long flags, rt_graph_exec **out)
{
    rt_graph_exec *x = calloc(1, sizeof *x);
    if (!x)
        return cudaErrorMemoryAllocation;
    x->magic = RT_MAGIC_EXEC;
    x->flags = flags;
    cudaError_t e = snapshot(x, g);
    if (e == cudaSuccess)
        e = rt_userobj_refs_copy(&x->refs, g->refs);
    if (e == cudaSuccess)
        e = rt_cond_refs_copy(&x->conds, g->conds);
    if (e == cudaSuccess)
        *out = x;
    else
        graph_exec_free(x);
    return e;
}

cudaError_t rt_graph_exec_destroy(rt_graph_exec *h)
{
    rt_lock();
    rt_graph_exec *x = rt_graph_exec_live(h);
    if (x) {
        rt_ptrmap_del(&rt.execs, x);
        graph_exec_free(x);
    }
    rt_unlock();
    return x ? cudaSuccess : cudaErrorInvalidValue;
}

unsigned long long rt_graph_exec_flags(const rt_graph_exec *x)
{
    return x->flags;
}

/* Before a launch: every allocation of the executable graph's last launch
 * freed, or (auto_free) freed now. */
static cudaError_t check_allocations(const rt_graph_exec *x, bool auto_free)
{
    cudaError_t e = cudaSuccess;
    for (uint32_t i = 0; e == cudaSuccess && i < x->n; i++) {
        const rt_graph_op *op = &x->ops[i];
        if (is_mem(op))
            e = rt_gmem_before_launch(op, auto_free);
        else if (op->type == cudaGraphNodeTypeGraph)
            e = check_allocations(op->u.child.exec, auto_free);
    }
    return e;
}

/* Memory nodes and conditional handles hold state each launch reads and
 * changes as it runs: such a graph is launched once earlier work has run,
 * and has run when its launch call returns. */
static bool has_launch_state(const rt_graph_exec *x)
{
    if (x->conds)
        return true;
    for (uint32_t i = 0; i < x->n; i++)
        if (is_mem(&x->ops[i]) || x->ops[i].type == cudaGraphNodeTypeConditional ||
            (x->ops[i].type == cudaGraphNodeTypeGraph && has_launch_state(x->ops[i].u.child.exec)))
            return true;
    return false;
}

cudaError_t rt_graph_launch(rt_graph_exec *h, cudaStream_t s)
{
    RT_ASYNC_ENTRY();
    cudaError_t e = rt_stream_check(s);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    rt_graph_exec *x = rt_graph_exec_live(h);
    e = x ? rt.sticky : cudaErrorInvalidValue;
    rt_unlock();
    bool record = false;
    if (e == cudaSuccess)
        e = rt_capture_route(s, &record);
    /* Capturing a graph launch would make a child-graph node, which ptxsim
     * does not have. */
    if (e == cudaSuccess && record)
        e = rt_capture_refuse(s);
    bool stateful = e == cudaSuccess && has_launch_state(x);
    if (stateful)
        rt_queue_wait(UINT64_MAX);
    if (e == cudaSuccess)
        e = check_allocations(x, (x->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0);
    if (e != cudaSuccess)
        return e;
    rt_cond_launch_defaults(x->conds);
    /* The nodes run without the lock (host nodes may call CUDA); the
     * executable graph must not be destroyed while it is launched, as in
     * CUDA (cudaGraphExecDestroy waits for the queue).  One whose launches
     * carry state has run when the call returns, which also reports what
     * the state forbids (a conditional loop that cannot end). */
    if (rt_queue_async()) {
        rt_graph_op op = { .type = cudaGraphNodeTypeGraph, .u.child.exec = x };
        if (stateful)
            return rt_queue_run(s, &op, true);
        rt_queue_push(s, &op, true);
        return cudaSuccess;
    }
    return run_exec(x, s);
}

static uint32_t exec_slot(const rt_graph_exec *x, const rt_graph_node *node)
{
    for (uint32_t i = 0; i < x->n; i++)
        if (x->from[i] == node)
            return i;
    return x->n;
}

cudaError_t rt_graph_exec_set(rt_graph_exec *h, const rt_graph_node *node, rt_graph_op *op)
{
    rt_lock();
    rt_graph_exec *x = rt_graph_exec_live(h);
    rt_graph_node *n = rt_graph_node_live(node);
    uint32_t i = x && n ? exec_slot(x, n) : 0;
    cudaError_t e = x && n && i < x->n ? check_op(op) : cudaErrorInvalidValue;
    /* The node keeps its type; a kernel node, its kernel's context. */
    if (e == cudaSuccess && x->ops[i].type != op->type)
        e = cudaErrorInvalidValue;
    /* New parameters leave a kernel's attributes as they were. */
    if (e == cudaSuccess && op->type == cudaGraphNodeTypeKernel) {
        op->u.kernel.attrs = x->ops[i].u.kernel.attrs;
        memcpy(op->u.kernel.cluster, x->ops[i].u.kernel.cluster, sizeof op->u.kernel.cluster);
    }
    if (e == cudaSuccess) {
        rt_graph_op_free(&x->ops[i]);
        x->ops[i] = *op;
    } else {
        rt_graph_op_free(op);
    }
    rt_unlock();
    return e;
}

static cudaError_t exec_update(rt_graph_exec *x, rt_graph *g, cudaGraphExecUpdateResultInfo *info);

cudaError_t rt_graph_exec_update(rt_graph_exec *hx, rt_graph *hg, cudaGraphExecUpdateResultInfo *info)
{
    if (!info)
        return cudaErrorInvalidValue;
    *info = (cudaGraphExecUpdateResultInfo){ cudaGraphExecUpdateError, NULL, NULL };
    rt_lock();
    rt_graph_exec *x = rt_graph_exec_live(hx);
    rt_graph *g = rt_graph_live(hg);
    cudaError_t e = x && g ? exec_update(x, g, info) : cudaErrorInvalidValue;
    rt_unlock();
    return e;
}

/* Give x g's parameters, g having x's topology (the lock held). */
static cudaError_t exec_update(rt_graph_exec *x, rt_graph *g, cudaGraphExecUpdateResultInfo *info)
{
    cudaError_t e = cudaSuccess;
    /* The same topology: node i (by creation order) where the executable
     * has it, of the same type, with the same dependencies. */
    if (e == cudaSuccess && g->n != x->n) {
        info->result = cudaGraphExecUpdateErrorTopologyChanged;
        e = cudaErrorGraphExecUpdateFailure;
    }
    uint32_t *slot = e == cudaSuccess ? calloc(g->n ? g->n : 1, sizeof *slot) : NULL;
    if (e == cudaSuccess && !slot)
        e = cudaErrorMemoryAllocation;
    for (uint32_t i = 0; e == cudaSuccess && i < x->n; i++)
        slot[x->order[i]] = i;
    for (uint32_t i = 0; e == cudaSuccess && i < g->n; i++) {
        const rt_graph_node *n = g->nodes[i];
        if (x->ops[slot[i]].type != n->op.type) {
            info->result = cudaGraphExecUpdateErrorNodeTypeChanged;
            info->errorNode = (cudaGraphNode_t)n;
            e = cudaErrorGraphExecUpdateFailure;
        }
        /* A memory node's allocation (its address) cannot change. */
        else if (is_mem(&n->op) && x->ops[slot[i]].u.gmem.mem != n->op.u.gmem.mem) {
            info->result = cudaGraphExecUpdateErrorNotSupported;
            info->errorNode = (cudaGraphNode_t)n;
            e = cudaErrorGraphExecUpdateFailure;
        }
        /* Nor a conditional node's kind or body count ("changing node
         * parameters is not supported"; its handle's default may change). */
        else if (n->op.type == cudaGraphNodeTypeConditional &&
                 (x->ops[slot[i]].u.cond.kind != n->op.u.cond.kind || x->ops[slot[i]].u.cond.size != n->op.u.cond.size)) {
            info->result = cudaGraphExecUpdateErrorParametersChanged;
            info->errorNode = (cudaGraphNode_t)n;
            e = cudaErrorGraphExecUpdateFailure;
        }
    }
    /* The executable's order must still respect every dependency of g. */
    for (uint32_t i = 0; e == cudaSuccess && i < g->n; i++)
        for (uint32_t k = 0; k < g->nodes[i]->ndeps; k++)
            if (slot[g->nodes[i]->deps[k]->index] > slot[i]) {
                info->result = cudaGraphExecUpdateErrorTopologyChanged;
                info->errorNode = (cudaGraphNode_t)g->nodes[i];
                info->errorFromNode = (cudaGraphNode_t)g->nodes[i]->deps[k];
                e = cudaErrorGraphExecUpdateFailure;
                break;
            }
    rt_graph_op *fresh = e == cudaSuccess ? calloc(g->n ? g->n : 1, sizeof *fresh) : NULL;
    if (e == cudaSuccess && !fresh)
        e = cudaErrorMemoryAllocation;
    uint32_t made = 0;
    for (; e == cudaSuccess && made < g->n; made++)
        e = exec_op_copy(&fresh[slot[made]], &g->nodes[made]->op);
    /* The handles' flags and defaults are g's from now on. */
    rt_cond_refs *conds = NULL;
    if (e == cudaSuccess)
        e = rt_cond_refs_copy(&conds, g->conds);
    if (e == cudaSuccess) {
        for (uint32_t i = 0; i < x->n; i++) {
            rt_graph_op_free(&x->ops[i]);
            x->ops[i] = fresh[i];
            x->from[i] = g->nodes[x->order[i]];
        }
        rt_cond_refs_free(&x->conds);
        x->conds = conds;
        info->result = cudaGraphExecUpdateSuccess;
    } else if (fresh) {
        for (uint32_t i = 0; i < made; i++)
            rt_graph_op_free(&fresh[slot[i]]);
        rt_cond_refs_free(&conds);
    }
    free(fresh);
    free(slot);
    return e;
}

cudaError_t rt_graph_add_child(rt_graph *h, rt_graph_node *const *deps, size_t n, rt_graph *hchild,
                               rt_graph_node **out)
{
    rt_lock();
    rt_graph *child = rt_graph_live(hchild);
    rt_graph_op op = { .type = cudaGraphNodeTypeGraph };
    cudaError_t e = child && rt_graph_live(h) && out ? rt_graph_clone(child, &op.u.child.graph)
                                                     : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_graph_add(h, deps, n, &op, out);     /* frees the copy on failure */
    rt_unlock();
    return e;
}

cudaError_t rt_graph_move_child(rt_graph *h, rt_graph_node *const *deps, size_t n, rt_graph *hchild,
                                rt_graph_node **out)
{
    rt_lock();
    rt_graph *g = rt_graph_live(h), *child = rt_graph_live(hchild);
    cudaError_t e = g && child && out && !child->owner && !rt_capture_owns(child) ? cudaSuccess
                                                                                  : cudaErrorInvalidValue;
    /* Not into itself, nor into a graph embedded in it. */
    for (const rt_graph *up = g; e == cudaSuccess && up; up = up->owner ? up->owner->graph : NULL)
        if (up == child)
            e = cudaErrorInvalidValue;
    rt_graph_op op = { .type = cudaGraphNodeTypeGraph, .u.child.graph = child };
    /* What rt_graph_add would refuse, refused first: a refused op is
     * freed, and the child is the program's until the move succeeds. */
    if (e == cudaSuccess && (!deps && n))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = check_deps(g, deps, n);
    if (e == cudaSuccess && in_cond_body(g) && !allowed_in_body(&op))
        e = cudaErrorNotSupported;
    if (e == cudaSuccess)
        e = rt_graph_add(g, deps, n, &op, out);     /* (the child's owner from now on: the node) */
    rt_unlock();
    return e;
}

cudaError_t rt_graph_exec_set_child(rt_graph_exec *h, const rt_graph_node *node, rt_graph *hchild)
{
    rt_lock();
    rt_graph_exec *x = rt_graph_exec_live(h);
    rt_graph_node *n = rt_graph_node_live(node);
    rt_graph *child = rt_graph_live(hchild);
    uint32_t i = x && n ? exec_slot(x, n) : 0;
    cudaError_t e = x && n && child && i < x->n && x->ops[i].type == cudaGraphNodeTypeGraph
                        ? cudaSuccess : cudaErrorInvalidValue;
    cudaGraphExecUpdateResultInfo info;
    /* The topology must be the embedded graph's: as cudaGraphExecUpdate
     * requires, and with its error as the call's documented one. */
    if (e == cudaSuccess && exec_update(x->ops[i].u.child.exec, child, &info) != cudaSuccess)
        e = cudaErrorInvalidValue;
    rt_unlock();
    return e;
}

cudaError_t rt_graph_exec_enable(rt_graph_exec *h, const rt_graph_node *node, unsigned *enabled, bool set)
{
    if (!enabled)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph_exec *x = rt_graph_exec_live(h);
    rt_graph_node *n = rt_graph_node_live(node);
    uint32_t i = x && n ? exec_slot(x, n) : 0;
    cudaError_t e = x && n && i < x->n ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess && set)
        x->disabled[i] = *enabled == 0;
    else if (e == cudaSuccess)
        *enabled = !x->disabled[i];
    rt_unlock();
    return e;
}

void rt_graph_reset(void)
{
    rt_lock();
    rt_capture_reset();
    for (uint32_t i = 0; i < rt.execs.cap; i++) {
        rt_graph_exec *x = rt_ptrmap_slot(&rt.execs, i);
        if (x)
            graph_exec_free(x);
    }
    rt_ptrmap_free(&rt.execs);
    /* The graphs the program made; each takes the graphs its nodes embed
     * with it (collected first: freeing changes the live set). */
    rt_graph **top = calloc(rt.graphs.cap ? rt.graphs.cap : 1, sizeof *top);
    uint32_t ntop = 0;
    for (uint32_t i = 0; top && i < rt.graphs.cap; i++) {
        rt_graph *g = rt_ptrmap_slot(&rt.graphs, i);
        if (g && !g->owner)
            top[ntop++] = g;
    }
    for (uint32_t i = 0; i < ntop; i++)
        graph_free(top[i]);
    free(top);
    rt_ptrmap_free(&rt.graphs);
    rt_ptrmap_free(&rt.nodes);
    rt_ptrmap_free(&rt.conds);
    rt_unlock();
}

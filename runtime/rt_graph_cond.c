/*
 * rt_graph_cond.c -- conditional graph nodes: if/else, while and switch
 * over the value of a conditional handle that kernels in the graph set.
 *
 * A handle (cudaGraphConditionalHandleCreate) is made for one graph and
 * holds one value.  CUDA allows a graph with conditional nodes only one
 * executable at a time, so the value lives in the handle, not in each
 * executable.  A conditional node owns its body graphs, which the program
 * fills through the array cudaGraphAddNode hands back (or by capturing a
 * stream into them); instantiation instantiates them with the node, and a
 * launch runs a body as it runs a child graph.  ptxsim completes each node
 * before the next starts (rt_graph.c), so the value a conditional node reads
 * is the one the kernels before it left.
 *
 * Kernels set the value with cudaGraphSetConditional, a function the
 * driver supplies (exec/builtins.c); the handle a kernel passes is looked up
 * among the live ones, so a made-up handle is an error naming it, never a
 * write to wherever it points.
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

enum { RT_MAGIC_COND = 0x436f6e64 };

struct rt_cond {
    uint32_t magic;             /* RT_MAGIC_COND while live */
    uint32_t refs;              /* its graph's, and one per executable graph made from it */
    unsigned value;             /* read and written with atomics: kernels set it from any host thread */
    unsigned dflt, flags;       /* cudaGraphConditionalHandleCreate's defaultLaunchValue and flags */
    const rt_graph *graph;      /* made for; NULL once that graph is destroyed */
};

/* The handles a graph made, or an executable graph of it holds. */
struct rt_cond_refs {
    rt_cond **conds;
    uint32_t n, cap;
};

static bool refs_add(rt_cond_refs **refs, rt_cond *c)
{
    if (!*refs && !(*refs = calloc(1, sizeof **refs)))
        return false;
    rt_cond_refs *r = *refs;
    if (!rt_grow((void ***)&r->conds, &r->cap, r->n))
        return false;
    r->conds[r->n++] = c;
    c->refs++;
    return true;
}

static void release(rt_cond *c)
{
    if (--c->refs == 0) {
        rt_ptrmap_del(&rt.conds, c);
        c->magic = 0;
        free(c);
    }
}

cudaError_t rt_cond_create(rt_graph *h, unsigned dflt, unsigned flags, unsigned long long *out)
{
    if (!out || (flags & ~(unsigned)cudaGraphCondAssignDefault))
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    cudaError_t e = g ? cudaSuccess : cudaErrorInvalidValue;
    rt_cond *c = e == cudaSuccess ? calloc(1, sizeof *c) : NULL;
    if (e == cudaSuccess && !c)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        *c = (rt_cond){ RT_MAGIC_COND, 0, dflt, dflt, flags, g };
        if (!rt_ptrmap_put(&rt.conds, c, c)) {
            e = cudaErrorMemoryAllocation;
        } else if (!refs_add(&g->conds, c)) {
            rt_ptrmap_del(&rt.conds, c);
            e = cudaErrorMemoryAllocation;
        }
    }
    if (e == cudaSuccess)
        *out = (unsigned long long)(uintptr_t)c;
    else
        free(c);
    rt_unlock();
    return e;
}

static rt_cond *cond_live(unsigned long long h)
{
    rt_cond *c = h ? rt_ptrmap_get(&rt.conds, (const void *)(uintptr_t)h) : NULL;
    return c && c->magic == RT_MAGIC_COND ? c : NULL;
}

rt_cond *rt_cond_for(const rt_graph *g, unsigned long long h)
{
    rt_cond *c = cond_live(h);
    /* Up through the nodes embedding g: bodies of conditionals, child graphs. */
    for (const rt_graph *up = g; c && up; up = up->owner ? up->owner->graph : NULL)
        if (c->graph == up)
            return c;
    return NULL;
}

cudaError_t rt_cond_op(rt_graph *g, const struct cudaConditionalNodeParams *p, rt_graph_op *op)
{
    bool size_ok = p->type == cudaGraphCondTypeWhile ? p->size == 1
                 : p->type == cudaGraphCondTypeIf ? p->size == 1 || p->size == 2
                 : p->type == cudaGraphCondTypeSwitch ? p->size > 0
                 : false;
    if (!size_ok)
        return cudaErrorInvalidValue;
    rt_cond *c = rt_cond_for(g, p->handle);
    if (!c)
        return cudaErrorInvalidValue;
    *op = (rt_graph_op){ .type = cudaGraphNodeTypeConditional };
    op->u.cond.cond = c;
    op->u.cond.kind = p->type;
    op->u.cond.size = p->size;
    op->u.cond.bodies = calloc(p->size, sizeof *op->u.cond.bodies);
    if (!op->u.cond.bodies)
        return cudaErrorMemoryAllocation;
    for (uint32_t i = 0; i < p->size; i++) {
        cudaError_t e = rt_graph_create(0, &op->u.cond.bodies[i]);
        if (e != cudaSuccess) {
            rt_graph_op_free(op);
            return e;
        }
    }
    return cudaSuccess;
}

cudaError_t rt_cond_refs_copy(rt_cond_refs **dst, const rt_cond_refs *src)
{
    for (uint32_t i = 0; src && i < src->n; i++)
        if (!refs_add(dst, src->conds[i]))
            return cudaErrorMemoryAllocation;
    return cudaSuccess;
}

void rt_cond_refs_free(rt_cond_refs **refs)
{
    rt_cond_refs *r = *refs;
    for (uint32_t i = 0; r && i < r->n; i++)
        release(r->conds[i]);
    if (r)
        free(r->conds);
    free(r);
    *refs = NULL;
}

bool rt_cond_instantiated(const rt_cond_refs *refs)
{
    /* A handle's references: its graph's, and one per executable of it. */
    for (uint32_t i = 0; refs && i < refs->n; i++)
        if (refs->conds[i]->refs > 1)
            return true;
    return false;
}

void rt_cond_graph_gone(const rt_cond_refs *refs)
{
    for (uint32_t i = 0; refs && i < refs->n; i++)
        refs->conds[i]->graph = NULL;
}

void rt_cond_launch_defaults(const rt_cond_refs *refs)
{
    for (uint32_t i = 0; refs && i < refs->n; i++)
        if (refs->conds[i]->flags & cudaGraphCondAssignDefault)
            __atomic_store_n(&refs->conds[i]->value, refs->conds[i]->dflt, __ATOMIC_RELAXED);
}

cudaError_t rt_cond_run(const rt_graph_op *op, cudaStream_t s,
                        cudaError_t (*run)(const rt_graph_exec *x, cudaStream_t s))
{
    unsigned *value = &op->u.cond.cond->value;
    rt_graph_exec *const *body = op->u.cond.execs;
    unsigned v = __atomic_load_n(value, __ATOMIC_RELAXED);
    cudaError_t e = rt_sticky();
    switch (op->u.cond.kind) {
    case cudaGraphCondTypeIf:
        if (e == cudaSuccess && (v || op->u.cond.size == 2))
            e = run(body[v ? 0 : 1], s);
        return e;
    case cudaGraphCondTypeSwitch:
        return e == cudaSuccess && v < op->u.cond.size ? run(body[v], s) : e;
    default:
        /* A body that launches no kernel cannot change the value: with
         * the value nonzero the loop would never end, on a GPU too. */
        if (e == cudaSuccess && v && !rt_graph_exec_has_kernel(body[0])) {
            rt_say("a conditional while node's body launches no kernel, so nothing clears its "
                   "condition (%u): the loop would never end", v);
            return cudaErrorLaunchTimeout;
        }
        while (e == cudaSuccess && __atomic_load_n(value, __ATOMIC_RELAXED))
            e = run(body[0], s);
        return e;
    }
}

ptx_status rt_cond_device_set(unsigned long long handle, unsigned value)
{
    /* Without the lock, which the launching thread holds: no API call
     * changes the set of handles while a kernel runs. */
    rt_cond *c = cond_live(handle);
    if (!c) {
        rt_say("cudaGraphSetConditional in a kernel: %#llx is not a conditional handle "
               "(cudaGraphConditionalHandleCreate makes them)", handle);
        return PTX_E_INVALID_VALUE;
    }
    __atomic_store_n(&c->value, value, __ATOMIC_RELAXED);
    return PTX_OK;
}

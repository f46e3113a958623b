/*
 * rt_graph_mem.c -- graph memory nodes: allocations a graph makes and
 * frees as it runs (cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode, and
 * cudaMallocAsync / cudaFreeAsync captured from a stream).
 *
 * CUDA fixes an allocation node's address when the node is made and keeps
 * it across instantiations and launches; the memory is the graph's to use
 * from the node's run until it is freed -- by a free node in the same
 * graph, or, for an allocation that outlives its launch, by cudaFree,
 * cudaFreeAsync, a free node in another graph, or the next launch of an
 * executable graph instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch.
 * Here the address is a device allocation made with the node (so the
 * address stays fixed) and kept while the node, an executable copy of it,
 * or an unfreed allocation needs it; what the graph does is the allocation's
 * state: allocated (between its node's run and its free) or not, and only
 * allocated is it valid to copies and to --check memory (exec_memory_map).  The rules
 * CUDA documents are kept: a launch that finds one of its allocations still
 * unfreed is cudaErrorInvalidValue (without the auto-free flag), an
 * allocation is freed once, in its own graph or outside it, never both, and
 * a graph with memory nodes has one executable at a time.
 *
 * The graph-memory attributes (cudaDeviceGetGraphMemAttribute) count the
 * allocated bytes (used) and the bytes held for graphs (reserved), with
 * their high-water marks.
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

enum { RT_MAGIC_GMEM = 0x476d656d };
enum { FREED_NOWHERE, FREED_IN_OWN_GRAPH, FREED_ELSEWHERE };     /* where its free node is */

struct rt_gmem {
    uint32_t magic;             /* RT_MAGIC_GMEM while live */
    uint32_t refs;              /* nodes and executable nodes naming it */
    uint32_t execs;             /* executable copies of its allocation node */
    uint32_t free_refs;         /* free nodes (and their executable copies) naming it */
    void *addr;
    size_t bytes;
    bool allocated;             /* between its node's run and its free */
    int freed_in;               /* FREED_* */
    const rt_graph *graph;      /* the graph of its allocation node */
    struct cudaMemPoolProps props;
    struct cudaMemAccessDesc *access;   /* owned, for cudaGraphMemAllocNodeGetParams */
    size_t naccess;
};

/* Bytes allocated by graphs now, and held for them, and their highs. */
static uint64_t used, used_high, reserved, reserved_high;

static void account(int64_t used_delta, int64_t reserved_delta)
{
    used += (uint64_t)used_delta;
    reserved += (uint64_t)reserved_delta;
    used_high = used > used_high ? used : used_high;
    reserved_high = reserved > reserved_high ? reserved : reserved_high;
}

/* The lock held.  An allocation goes once nothing names it and it is not
 * allocated (an unfreed one waits for its cudaFree). */
static void maybe_release(rt_gmem *m)
{
    if (m->refs || m->allocated)
        return;
    rt_ptrmap_del(&rt.gmems, m->addr);
    exec_memory_reserve(rt.mem, (uint64_t)(uintptr_t)m->addr, false);
    rt_mem_free(m->addr, RT_KIND(RT_MEM_DEVICE));
    account(0, -(int64_t)m->bytes);
    m->magic = 0;
    free(m->access);
    free(m);
}

static rt_gmem *gmem_at(const void *p)
{
    rt_gmem *m = p ? rt_ptrmap_get(&rt.gmems, p) : NULL;
    return m && m->magic == RT_MAGIC_GMEM ? m : NULL;
}

/* Allocated or not: accounted, and valid to copies and --check memory
 * only while allocated (the block is reserved addresses, mapped whole). */
static void set_allocated(rt_gmem *m, bool on)
{
    if (m->allocated != on) {
        account(on ? (int64_t)m->bytes : -(int64_t)m->bytes, 0);
        exec_memory_map(rt.mem, (uint64_t)(uintptr_t)m->addr, m->bytes, on);
    }
    m->allocated = on;
}

cudaError_t rt_gmem_alloc_op(const struct cudaMemAllocNodeParams *p, rt_graph_op *op)
{
    if (!p || !p->bytesize || p->poolProps.allocType != cudaMemAllocationTypePinned ||
        p->poolProps.location.type != cudaMemLocationTypeDevice || (p->accessDescCount && !p->accessDescs))
        return cudaErrorInvalidValue;
    if (p->poolProps.location.id != 0)
        return cudaErrorInvalidDevice;
    if (p->poolProps.handleTypes != cudaMemHandleTypeNone)
        return cudaErrorNotSupported;           /* (IPC: not for graph allocations) */
    for (size_t i = 0; i < p->accessDescCount; i++)
        if (p->accessDescs[i].location.type != cudaMemLocationTypeDevice || p->accessDescs[i].location.id != 0)
            return cudaErrorInvalidDevice;      /* (peers: one device) */
    rt_gmem *m = calloc(1, sizeof *m);
    if (!m)
        return cudaErrorMemoryAllocation;
    m->access = p->accessDescCount ? malloc(p->accessDescCount * sizeof *m->access) : NULL;
    cudaError_t e = p->accessDescCount && !m->access ? cudaErrorMemoryAllocation
                                                      : rt_mem_alloc(p->bytesize, RT_MEM_DEVICE, 0, &m->addr);
    rt_lock();
    if (e == cudaSuccess && (exec_memory_reserve(rt.mem, (uint64_t)(uintptr_t)m->addr, true) != PTX_OK ||
                             !rt_ptrmap_put(&rt.gmems, m->addr, m))) {
        exec_memory_reserve(rt.mem, (uint64_t)(uintptr_t)m->addr, false);
        rt_mem_free(m->addr, RT_KIND(RT_MEM_DEVICE));
        e = cudaErrorMemoryAllocation;
    }
    if (e == cudaSuccess) {
        m->magic = RT_MAGIC_GMEM;
        m->refs = 1;
        m->bytes = p->bytesize;
        m->props = p->poolProps;
        if (m->access)
            memcpy(m->access, p->accessDescs, p->accessDescCount * sizeof *m->access);
        m->naccess = p->accessDescCount;
        account(0, (int64_t)m->bytes);
        *op = (rt_graph_op){ .type = cudaGraphNodeTypeMemAlloc, .u.gmem = { m, false } };
    } else {
        free(m->access);
        free(m);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_gmem_free_op(const rt_graph *g, const void *dptr, rt_graph_op *op)
{
    rt_lock();
    rt_gmem *m = gmem_at(dptr);
    /* An address an allocation node returned, freed once, in its own
     * graph or in one other. */
    cudaError_t e = m && m->freed_in == FREED_NOWHERE ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        bool own = false;
        for (const rt_graph *up = g; up && !own; up = up->owner ? up->owner->graph : NULL)
            own = up == m->graph;
        m->freed_in = own ? FREED_IN_OWN_GRAPH : FREED_ELSEWHERE;
        m->refs++;
        m->free_refs++;
        *op = (rt_graph_op){ .type = cudaGraphNodeTypeMemFree, .u.gmem = { m, false } };
    }
    rt_unlock();
    return e;
}

void rt_gmem_placed(rt_gmem *m, const rt_graph *g)
{
    m->graph = g;
}

void rt_gmem_op_copy(rt_graph_op *dst, const rt_graph_op *src, bool exec)
{
    rt_lock();
    rt_gmem *m = src->u.gmem.mem;
    *dst = *src;
    dst->u.gmem.exec = exec;
    m->refs++;
    if (src->type == cudaGraphNodeTypeMemFree)
        m->free_refs++;
    else if (exec)
        m->execs++;
    rt_unlock();
}

void rt_gmem_op_free(rt_graph_op *op)
{
    rt_lock();
    rt_gmem *m = op->u.gmem.mem;
    if (m) {
        m->refs--;
        /* The last free node of it gone (its graph destroyed), it may be
         * freed elsewhere again. */
        if (op->type == cudaGraphNodeTypeMemFree && --m->free_refs == 0)
            m->freed_in = FREED_NOWHERE;
        else if (op->type == cudaGraphNodeTypeMemAlloc && op->u.gmem.exec)
            m->execs--;
        else if (op->type == cudaGraphNodeTypeMemAlloc)
            m->graph = NULL;            /* its graph is going: no later graph is its own */
        maybe_release(m);
    }
    op->u.gmem.mem = NULL;
    rt_unlock();
}

bool rt_gmem_instantiated(const rt_graph_op *op)
{
    return op->type == cudaGraphNodeTypeMemAlloc && op->u.gmem.mem->execs > 0;
}

cudaError_t rt_gmem_run(const rt_graph_op *op)
{
    rt_lock();
    rt_gmem *m = op->u.gmem.mem;
    cudaError_t e = cudaSuccess;
    if (op->type == cudaGraphNodeTypeMemAlloc) {
        set_allocated(m, true);
    } else if (!m->allocated) {
        rt_say("a memory free node frees %p, which is not allocated now", m->addr);
        e = cudaErrorInvalidValue;
    } else {
        set_allocated(m, false);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_gmem_before_launch(const rt_graph_op *op, bool auto_free)
{
    rt_lock();
    rt_gmem *m = op->u.gmem.mem;
    cudaError_t e = cudaSuccess;
    if (op->type == cudaGraphNodeTypeMemAlloc && m->allocated) {
        if (auto_free) {
            set_allocated(m, false);
        } else {
            rt_say("cudaGraphLaunch: the graph's allocation at %p from its last launch is not freed yet "
                   "(free it, or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch)", m->addr);
            e = cudaErrorInvalidValue;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_gmem_free_outside(const void *p, bool *handled)
{
    rt_lock();
    rt_gmem *m = gmem_at(p);
    *handled = m != NULL;
    cudaError_t e = cudaSuccess;
    if (m && (m->freed_in != FREED_NOWHERE || !m->allocated)) {
        rt_say("%p is a graph's allocation that %s", p,
               m->freed_in != FREED_NOWHERE ? "a free node frees: it cannot be freed outside the graph too"
                                            : "is not allocated now");
        e = cudaErrorInvalidValue;
    } else if (m) {
        set_allocated(m, false);
        maybe_release(m);
    }
    rt_unlock();
    return e;
}

void rt_gmem_params(const rt_graph_op *op, struct cudaMemAllocNodeParams *out)
{
    const rt_gmem *m = op->u.gmem.mem;
    *out = (struct cudaMemAllocNodeParams){ m->props, m->access, m->naccess, m->bytes, m->addr };
}

void *rt_gmem_addr(const rt_graph_op *op)
{
    return op->u.gmem.mem->addr;
}

cudaError_t rt_gmem_attribute(int attr, void *value, bool set)
{
    if (!value)
        return cudaErrorInvalidValue;
    rt_lock();
    cudaError_t e = cudaSuccess;
    uint64_t *high = attr == cudaGraphMemAttrUsedMemHigh ? &used_high
                   : attr == cudaGraphMemAttrReservedMemHigh ? &reserved_high : NULL;
    if (set) {
        /* Only the high-water marks, and only to zero (back to the
         * current amount, which they never fall below). */
        if (!high || *(uint64_t *)value != 0)
            e = cudaErrorInvalidValue;
        else
            *high = high == &used_high ? used : reserved;
    } else {
        switch (attr) {
        case cudaGraphMemAttrUsedMemCurrent: *(uint64_t *)value = used; break;
        case cudaGraphMemAttrUsedMemHigh: *(uint64_t *)value = used_high; break;
        case cudaGraphMemAttrReservedMemCurrent: *(uint64_t *)value = reserved; break;
        case cudaGraphMemAttrReservedMemHigh: *(uint64_t *)value = reserved_high; break;
        default: e = cudaErrorInvalidValue; break;
        }
    }
    rt_unlock();
    return e;
}

void rt_gmem_reset(void)
{
    rt_lock();
    /* Unfreed allocations whose graphs are gone (device memory itself is
     * reset by the caller). */
    for (uint32_t i = 0; i < rt.gmems.cap; i++) {
        rt_gmem *m = rt_ptrmap_slot(&rt.gmems, i);
        if (m) {
            free(m->access);
            free(m);
        }
    }
    rt_ptrmap_free(&rt.gmems);
    used = used_high = reserved = reserved_high = 0;
    rt_unlock();
}

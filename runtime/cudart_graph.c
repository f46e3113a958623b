/*
 * cudart_graph.c -- the runtime API's CUDA graphs: stream capture, graphs
 * built node by node, instantiation, launch and update.  The core keeps
 * the graphs (rt_graph.c) and the capture sequences (rt_capture.c); this
 * file turns the API's parameter structures into graph operations and back.
 *
 * Graph, node and executable-graph handles that are NULL, destroyed or
 * made up are cudaErrorInvalidValue, as CUDA documents for these calls.
 * Node kinds ptxsim does not have (memory allocation and free, which
 * stream capture of cudaMallocAsync does not make either; conditionals;
 * external semaphores) stay unimplemented: those entry points warn once
 * and return cudaErrorNotSupported.
 */
#include "rt_int.h"

#include <string.h>

/* The driver's copy of this file (cu_graph_api.c) returns errors without
 * keeping them as the runtime's last error. */
#ifdef RT_GRAPH_FOR_DRIVER
#define rt_set_error(e) (e)
#endif

#define GRAPH(h) ((cudaGraph_t)(void *)(h))
#define NODE(h) ((cudaGraphNode_t)(void *)(h))

/* ---- stream capture ---------------------------------------------------------- */

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return rt_set_error(rt_capture_begin(stream, (int)mode));
}
RT_ALIAS(cudaStreamBeginCapture, cudaStreamBeginCapture_ptsz);

static bool default_edges(const cudaGraphEdgeData *edges, size_t n);

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                          enum cudaStreamCaptureMode mode)
{
    if (!default_edges(dependencyData, numDependencies))
        return rt_set_error(cudaErrorNotSupported);   /* (programmatic edges, ports) */
    return rt_set_error(rt_capture_begin_into(stream, (rt_graph *)graph, (rt_graph_node *const *)dependencies,
                                              numDependencies, (int)mode));
}
RT_ALIAS(cudaStreamBeginCaptureToGraph, cudaStreamBeginCaptureToGraph_ptsz);

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    rt_graph *g = NULL;
    cudaError_t e = rt_capture_end(stream, pGraph ? &g : NULL);
    if (pGraph && e != cudaErrorInvalidValue && e != cudaErrorInvalidResourceHandle)
        *pGraph = GRAPH(g);
    return rt_set_error(e);
}
RT_ALIAS(cudaStreamEndCapture, cudaStreamEndCapture_ptsz);

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    return rt_set_error(rt_capture_info(stream, pCaptureStatus, NULL, NULL, NULL, NULL, NULL));
}
RT_ALIAS(cudaStreamIsCapturing, cudaStreamIsCapturing_ptsz);

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    rt_graph *g = NULL;
    cudaError_t e = rt_capture_info(stream, captureStatus_out, id_out, graph_out ? &g : NULL,
                                    (rt_graph_node *const **)dependencies_out, edgeData_out, numDependencies_out);
    if (e == cudaSuccess && graph_out)
        *graph_out = GRAPH(g);
    return rt_set_error(e);
}
RT_ALIAS(cudaStreamGetCaptureInfo, cudaStreamGetCaptureInfo_ptsz);

/* Only the default edge (all zero) exists without programmatic launch. */
static bool default_edges(const cudaGraphEdgeData *edges, size_t n)
{
    cudaGraphEdgeData zero;
    memset(&zero, 0, sizeof zero);
    for (size_t i = 0; edges && i < n; i++)
        if (memcmp(&edges[i], &zero, sizeof zero) != 0)
            return false;
    return true;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                unsigned int flags)
{
    if (!default_edges(dependencyData, numDependencies))
        return rt_set_error(cudaErrorNotSupported);
    return rt_set_error(rt_capture_update(stream, (rt_graph_node *const *)dependencies, numDependencies, flags));
}
RT_ALIAS(cudaStreamUpdateCaptureDependencies, cudaStreamUpdateCaptureDependencies_ptsz);

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
        return rt_set_error(cudaErrorInvalidValue);
    *mode = (enum cudaStreamCaptureMode)rt_capture_exchange_mode((int)*mode);
    return cudaSuccess;
}

/* ---- graphs and nodes ------------------------------------------------------------ */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    return rt_set_error(rt_graph_create(flags, (rt_graph **)pGraph));
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    return rt_set_error(rt_graph_destroy((rt_graph *)graph));
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    return rt_set_error(rt_graph_clone((rt_graph *)originalGraph, (rt_graph **)pGraphClone));
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph)
{
    return rt_set_error(rt_graph_find_in_clone((rt_graph_node *)originalNode, (rt_graph *)clonedGraph,
                                               (rt_graph_node **)pNode));
}

static cudaError_t add(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                       rt_graph_op *op)
{
    return rt_set_error(rt_graph_add((rt_graph *)graph, (rt_graph_node *const *)deps, n, op,
                                     (rt_graph_node **)pNode));
}

/* A kernel node's parameters as an operation (checked as a launch is). */
static cudaError_t kernel_op(const struct cudaKernelNodeParams *p, rt_graph_op *op)
{
    if (!p)
        return cudaErrorInvalidValue;
    rt_func *f = rt_func_lookup(p->func);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    rt_launch_req r = {
        .f = f,
        .grid = { p->gridDim.x, p->gridDim.y, p->gridDim.z },
        .block = { p->blockDim.x, p->blockDim.y, p->blockDim.z },
        .shared = p->sharedMemBytes,
        .args = p->kernelParams,
        .extra = p->extra,
    };
    return rt_launch_record(&r, op);
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams)
{
    rt_graph_op op;
    cudaError_t e = kernel_op(pNodeParams, &op);
    return e != cudaSuccess ? rt_set_error(e) : add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

/* The live node h of the given type (the lock is held by the caller). */
static rt_graph_node *node_of(cudaGraphNode_t h, enum cudaGraphNodeType type)
{
    rt_graph_node *n = rt_graph_node_live(h);
    return n && n->op.type == type ? n : NULL;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
    rt_lock();
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeKernel);
    if (n && p) {
        const rt_func *f = n->op.u.kernel.f;
        *p = (struct cudaKernelNodeParams){
            .func = (void *)(f->host_fn ? f->host_fn : (const void *)f),
            .gridDim = { n->op.u.kernel.grid[0], n->op.u.kernel.grid[1], n->op.u.kernel.grid[2] },
            .blockDim = { n->op.u.kernel.block[0], n->op.u.kernel.block[1], n->op.u.kernel.block[2] },
            .sharedMemBytes = (unsigned)n->op.u.kernel.shared,
            .kernelParams = n->op.u.kernel.argv,
        };
    }
    rt_unlock();
    return rt_set_error(n && p ? cudaSuccess : cudaErrorInvalidValue);
}

/* Give node h (of op's type) a new operation. */
static cudaError_t set_node(cudaGraphNode_t h, rt_graph_op *op)
{
    rt_lock();
    rt_graph_node *n = node_of(h, op->type);
    /* New parameters leave a kernel's attributes as they were. */
    if (n && op->type == cudaGraphNodeTypeKernel) {
        op->u.kernel.attrs = n->op.u.kernel.attrs;
        memcpy(op->u.kernel.cluster, n->op.u.kernel.cluster, sizeof op->u.kernel.cluster);
    }
    if (n) {
        rt_graph_op_free(&n->op);
        n->op = *op;
    } else {
        rt_graph_op_free(op);
    }
    rt_unlock();
    return rt_set_error(n ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    rt_graph_op op;
    cudaError_t e = kernel_op(pNodeParams, &op);
    return e != cudaSuccess ? rt_set_error(e) : set_node(node, &op);
}

static cudaError_t memcpy3d_op(const struct cudaMemcpy3DParms *p, rt_graph_op *op)
{
    if (!p)
        return cudaErrorInvalidValue;
    *op = (rt_graph_op){ .type = cudaGraphNodeTypeMemcpy };
    op->u.copy.is3d = true;
    op->u.copy.c3 = *p;
    return cudaSuccess;
}

static rt_graph_op memcpy1d_op(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    rt_graph_op op = { .type = cudaGraphNodeTypeMemcpy };
    op.u.copy.dst = dst;
    op.u.copy.src = src;
    op.u.copy.dpitch = op.u.copy.spitch = op.u.copy.width = count;
    op.u.copy.height = 1;
    op.u.copy.kind = kind;
    return op;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
    rt_graph_op op;
    cudaError_t e = memcpy3d_op(pCopyParams, &op);
    return e != cudaSuccess ? rt_set_error(e) : add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind)
{
    rt_graph_op op = memcpy1d_op(dst, src, count, kind);
    return add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p)
{
    rt_lock();
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeMemcpy);
    if (n && p) {
        if (n->op.u.copy.is3d) {
            *p = n->op.u.copy.c3;
        } else {
            /* A 1-D or 2-D copy as the 3-D copy it is. */
            memset(p, 0, sizeof *p);
            p->srcPtr = (struct cudaPitchedPtr){ (void *)n->op.u.copy.src, n->op.u.copy.spitch, n->op.u.copy.width,
                                                 n->op.u.copy.height };
            p->dstPtr = (struct cudaPitchedPtr){ n->op.u.copy.dst, n->op.u.copy.dpitch, n->op.u.copy.width,
                                                 n->op.u.copy.height };
            p->extent = (struct cudaExtent){ n->op.u.copy.width, n->op.u.copy.height, 1 };
            p->kind = n->op.u.copy.kind;
        }
    }
    rt_unlock();
    return rt_set_error(n && p ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams)
{
    rt_graph_op op;
    cudaError_t e = memcpy3d_op(pNodeParams, &op);
    return e != cudaSuccess ? rt_set_error(e) : set_node(node, &op);
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                           enum cudaMemcpyKind kind)
{
    rt_graph_op op = memcpy1d_op(dst, src, count, kind);
    return set_node(node, &op);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
    if (!pMemsetParams)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeMemset, .u.memset = *pMemsetParams };
    return add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p)
{
    rt_lock();
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeMemset);
    if (n && p)
        *p = n->op.u.memset;
    rt_unlock();
    return rt_set_error(n && p ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    if (!p)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeMemset, .u.memset = *p };
    return set_node(node, &op);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeHost, .u.host = *pNodeParams };
    return add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p)
{
    rt_lock();
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeHost);
    if (n && p)
        *p = n->op.u.host;
    rt_unlock();
    return rt_set_error(n && p ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
    if (!p || !p->fn)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeHost, .u.host = *p };
    return set_node(node, &op);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
    rt_graph_op op = { .type = cudaGraphNodeTypeEmpty };
    return add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

static cudaError_t event_node(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                              cudaEvent_t event, enum cudaGraphNodeType type)
{
    /* Querying is how a live event is told from a made-up one. */
    if (rt_event_query(event) == cudaErrorInvalidResourceHandle)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = type, .u.event = event };
    return add(pNode, graph, deps, n, &op);
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                        cudaEvent_t event)
{
    return event_node(pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                      cudaEvent_t event)
{
    return event_node(pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeWaitEvent);
}

static cudaError_t event_get(cudaGraphNode_t node, cudaEvent_t *out, enum cudaGraphNodeType type)
{
    rt_lock();
    rt_graph_node *n = node_of(node, type);
    if (n && out)
        *out = n->op.u.event;
    rt_unlock();
    return rt_set_error(n && out ? cudaSuccess : cudaErrorInvalidValue);
}

static cudaError_t event_set(cudaGraphNode_t node, cudaEvent_t event, enum cudaGraphNodeType type)
{
    if (rt_event_query(event) == cudaErrorInvalidResourceHandle)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = type, .u.event = event };
    return set_node(node, &op);
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_get(node, event_out, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    return event_set(node, event, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_get(node, event_out, cudaGraphNodeTypeWaitEvent);
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    return event_set(node, event, cudaGraphNodeTypeWaitEvent);
}

/* ---- child graphs ---------------------------------------------------------------- */

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph)
{
    return rt_set_error(rt_graph_add_child((rt_graph *)graph, (rt_graph_node *const *)pDependencies,
                                           numDependencies, (rt_graph *)childGraph, (rt_graph_node **)pGraphNode));
}

/* The embedded graph itself, not a copy: changing it changes the node. */
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    rt_lock();
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeGraph);
    if (n && pGraph)
        *pGraph = GRAPH(n->op.u.child.graph);
    rt_unlock();
    return rt_set_error(n && pGraph ? cudaSuccess : cudaErrorInvalidValue);
}

/* ---- kernel node attributes ------------------------------------------------------- */

/* The cluster dimensions are the operation's own (a launch checks them);
 * the rest are kept as a stream keeps its own (rt_attr.c). */
static cudaError_t kernel_attr(cudaGraphNode_t node, cudaKernelNodeAttrID attr, cudaKernelNodeAttrValue *v, bool set)
{
    rt_lock();
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeKernel);
    cudaError_t e = n && v ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess && attr == cudaLaunchAttributeClusterDimension) {
        uint32_t *c = n->op.u.kernel.cluster;
        if (set) {
            c[0] = v->clusterDim.x;
            c[1] = v->clusterDim.y;
            c[2] = v->clusterDim.z;
        } else {
            memset(v, 0, sizeof *v);
            v->clusterDim.x = c[0];
            v->clusterDim.y = c[1];
            v->clusterDim.z = c[2];
        }
    } else if (e == cudaSuccess) {
        e = set ? rt_attr_set(&n->op.u.kernel.attrs, RT_ATTRS_KERNEL, (int)attr, v)
                : rt_attr_get(&n->op.u.kernel.attrs, RT_ATTRS_KERNEL, (int)attr, v);
    }
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                            cudaKernelNodeAttrValue *value_out)
{
    return kernel_attr(hNode, attr, value_out, false);
}

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                            const cudaKernelNodeAttrValue *value)
{
    return kernel_attr(hNode, attr, (cudaKernelNodeAttrValue *)value, true);
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    rt_lock();
    rt_graph_node *d = node_of(hDst, cudaGraphNodeTypeKernel), *s = node_of(hSrc, cudaGraphNodeTypeKernel);
    if (d && s) {
        d->op.u.kernel.attrs = s->op.u.kernel.attrs;
        memcpy(d->op.u.kernel.cluster, s->op.u.kernel.cluster, sizeof d->op.u.kernel.cluster);
    }
    rt_unlock();
    return rt_set_error(d && s ? cudaSuccess : cudaErrorInvalidValue);
}

/* ---- copies to and from symbols ----------------------------------------------------- */

/* Where `count` bytes at `offset` into symbol lie, for a copy to it (to)
 * or from it, in the directions such a copy allows. */
static cudaError_t symbol_at(const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, bool to,
                             void **at)
{
    enum cudaMemcpyKind other = to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != other && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    uint64_t addr;
    size_t bytes;
    cudaError_t e = rt_symbol_address(symbol, &addr, &bytes);
    if (e == cudaSuccess && (offset > bytes || count > bytes - offset))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *at = (char *)(uintptr_t)addr + offset;
    return e;
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const void *symbol, const void *src, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    void *at;
    cudaError_t e = symbol_at(symbol, count, offset, kind, true, &at);
    if (e != cudaSuccess)
        return rt_set_error(e);
    rt_graph_op op = memcpy1d_op(at, src, count, kind);
    return add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             void *dst, const void *symbol, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind)
{
    void *at;
    cudaError_t e = symbol_at(symbol, count, offset, kind, false, &at);
    if (e != cudaSuccess)
        return rt_set_error(e);
    rt_graph_op op = memcpy1d_op(dst, at, count, kind);
    return add(pGraphNode, graph, pDependencies, numDependencies, &op);
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src,
                                                 size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    void *at;
    cudaError_t e = symbol_at(symbol, count, offset, kind, true, &at);
    if (e != cudaSuccess)
        return rt_set_error(e);
    rt_graph_op op = memcpy1d_op(at, src, count, kind);
    return set_node(node, &op);
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol,
                                                   size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    void *at;
    cudaError_t e = symbol_at(symbol, count, offset, kind, false, &at);
    if (e != cudaSuccess)
        return rt_set_error(e);
    rt_graph_op op = memcpy1d_op(dst, at, count, kind);
    return set_node(node, &op);
}

/* ---- user objects -------------------------------------------------------------------- */

cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                 unsigned int initialRefcount, unsigned int flags)
{
    return rt_set_error(rt_userobj_create(ptr, destroy, initialRefcount, flags, (rt_userobj **)object_out));
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
    return rt_set_error(rt_userobj_retain((rt_userobj *)object, count));
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
    return rt_set_error(rt_userobj_release((rt_userobj *)object, count));
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count,
                                      unsigned int flags)
{
    return rt_set_error(rt_graph_retain_userobj((rt_graph *)graph, (rt_userobj *)object, count, flags));
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count)
{
    return rt_set_error(rt_graph_release_userobj((rt_graph *)graph, (rt_userobj *)object, count));
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    return rt_set_error(rt_graph_dot((rt_graph *)graph, path, flags));
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    rt_lock();
    rt_graph_node *n = rt_graph_node_live(node);
    if (n && pType)
        *pType = n->op.type;
    rt_unlock();
    return rt_set_error(n && pType ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    return rt_set_error(rt_graph_destroy_node((rt_graph_node *)node));
}

/* ---- walking a graph ------------------------------------------------------------------ */

/* The list-returning calls' rule: with no array, the count; else up to
 * *count entries, the rest of the array NULL, and *count the number given. */
typedef struct list_out {
    cudaGraphNode_t *a, *b;     /* one or two parallel arrays (edges: from, to) */
    cudaGraphEdgeData *edges;
    size_t room, n;
} list_out;

static void list_put(list_out *o, const rt_graph_node *x, const rt_graph_node *y)
{
    if (o->a && o->n < o->room) {
        o->a[o->n] = NODE(x);
        if (o->b)
            o->b[o->n] = NODE(y);
        if (o->edges)
            memset(&o->edges[o->n], 0, sizeof *o->edges);
    }
    o->n++;
}

static void list_end(list_out *o, size_t *count)
{
    if (!o->a) {
        *count = o->n;
        return;
    }
    for (size_t i = o->n; i < o->room; i++) {
        o->a[i] = NULL;
        if (o->b)
            o->b[i] = NULL;
    }
    *count = o->n < o->room ? o->n : o->room;
}

static cudaError_t graph_list(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count, bool roots)
{
    if (!count)
        return rt_set_error(cudaErrorInvalidValue);
    rt_lock();
    rt_graph *g = rt_graph_live(graph);
    if (g) {
        list_out o = { nodes, NULL, NULL, *count, 0 };
        for (uint32_t i = 0; i < g->n; i++)
            if (!roots || g->nodes[i]->ndeps == 0)
                list_put(&o, g->nodes[i], NULL);
        list_end(&o, count);
    }
    rt_unlock();
    return rt_set_error(g ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    return graph_list(graph, nodes, numNodes, false);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    return graph_list(graph, pRootNodes, pNumRootNodes, true);
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    if (!numEdges || (!from != !to) || (edgeData && !from))
        return rt_set_error(cudaErrorInvalidValue);
    rt_lock();
    rt_graph *g = rt_graph_live(graph);
    if (g) {
        list_out o = { from, to, edgeData, *numEdges, 0 };
        for (uint32_t i = 0; i < g->n; i++)
            for (uint32_t k = 0; k < g->nodes[i]->ndeps; k++)
                list_put(&o, g->nodes[i]->deps[k], g->nodes[i]);
        list_end(&o, numEdges);
    }
    rt_unlock();
    return rt_set_error(g ? cudaSuccess : cudaErrorInvalidValue);
}

static cudaError_t node_list(cudaGraphNode_t node, cudaGraphNode_t *out, cudaGraphEdgeData *edges, size_t *count,
                             bool dependents)
{
    if (!count || (edges && !out))
        return rt_set_error(cudaErrorInvalidValue);
    rt_lock();
    rt_graph_node *n = rt_graph_node_live(node);
    if (n) {
        list_out o = { out, NULL, edges, *count, 0 };
        if (!dependents) {
            for (uint32_t k = 0; k < n->ndeps; k++)
                list_put(&o, n->deps[k], NULL);
        } else {
            const rt_graph *g = n->graph;
            for (uint32_t i = 0; i < g->n; i++)
                for (uint32_t k = 0; k < g->nodes[i]->ndeps; k++)
                    if (g->nodes[i]->deps[k] == n)
                        list_put(&o, g->nodes[i], NULL);
        }
        list_end(&o, count);
    }
    rt_unlock();
    return rt_set_error(n ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    return node_list(node, pDependencies, edgeData, pNumDependencies, false);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    return node_list(node, pDependentNodes, edgeData, pNumDependentNodes, true);
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    return rt_set_error(rt_graph_add_edges((rt_graph *)graph, from, to, edgeData, numDependencies, true));
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    return rt_set_error(rt_graph_add_edges((rt_graph *)graph, from, to, edgeData, numDependencies, false));
}

/* ---- executable graphs --------------------------------------------------------------- */

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return rt_set_error(rt_graph_instantiate((rt_graph *)graph, flags, (rt_graph_exec **)pGraphExec));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams)
{
    if (!instantiateParams)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = rt_graph_instantiate((rt_graph *)graph, instantiateParams->flags, (rt_graph_exec **)pGraphExec);
    instantiateParams->errNode_out = NULL;
    instantiateParams->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
    return rt_set_error(e);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    rt_graph_exec *x = rt_graph_exec_live(graphExec);
    if (!x || !flags)
        return rt_set_error(cudaErrorInvalidValue);
    *flags = rt_graph_exec_flags(x);
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_graph_launch((rt_graph_exec *)graphExec, stream));
}
RT_ALIAS(cudaGraphLaunch, cudaGraphLaunch_ptsz);

/* Nothing to upload: the device's memory is the host's. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess && !rt_graph_exec_live(graphExec))
        e = cudaErrorInvalidValue;
    return rt_set_error(e);
}
RT_ALIAS(cudaGraphUpload, cudaGraphUpload_ptsz);

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    return rt_set_error(rt_graph_exec_destroy((rt_graph_exec *)graphExec));
}

static cudaError_t exec_set(cudaGraphExec_t x, cudaGraphNode_t node, rt_graph_op *op)
{
    return rt_set_error(rt_graph_exec_set((rt_graph_exec *)x, (const rt_graph_node *)node, op));
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    rt_graph_op op;
    cudaError_t e = kernel_op(pNodeParams, &op);
    return e != cudaSuccess ? rt_set_error(e) : exec_set(hGraphExec, node, &op);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
    rt_graph_op op;
    cudaError_t e = memcpy3d_op(pNodeParams, &op);
    return e != cudaSuccess ? rt_set_error(e) : exec_set(hGraphExec, node, &op);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                               const void *src, size_t count, enum cudaMemcpyKind kind)
{
    rt_graph_op op = memcpy1d_op(dst, src, count, kind);
    return exec_set(hGraphExec, node, &op);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    if (!pNodeParams)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeMemset, .u.memset = *pNodeParams };
    return exec_set(hGraphExec, node, &op);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeHost, .u.host = *pNodeParams };
    return exec_set(hGraphExec, node, &op);
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                     const void *symbol, const void *src, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind)
{
    void *at;
    cudaError_t e = symbol_at(symbol, count, offset, kind, true, &at);
    if (e != cudaSuccess)
        return rt_set_error(e);
    rt_graph_op op = memcpy1d_op(at, src, count, kind);
    return exec_set(hGraphExec, node, &op);
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind)
{
    void *at;
    cudaError_t e = symbol_at(symbol, count, offset, kind, false, &at);
    if (e != cudaSuccess)
        return rt_set_error(e);
    rt_graph_op op = memcpy1d_op(dst, at, count, kind);
    return exec_set(hGraphExec, node, &op);
}

static cudaError_t exec_event(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t event,
                              enum cudaGraphNodeType type)
{
    if (rt_event_query(event) == cudaErrorInvalidResourceHandle)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = type, .u.event = event };
    return exec_set(x, node, &op);
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event)
{
    return exec_event(hGraphExec, hNode, event, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event)
{
    return exec_event(hGraphExec, hNode, event, cudaGraphNodeTypeWaitEvent);
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                 cudaGraph_t childGraph)
{
    return rt_set_error(rt_graph_exec_set_child((rt_graph_exec *)hGraphExec, (const rt_graph_node *)node,
                                                (rt_graph *)childGraph));
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled)
{
    return rt_set_error(rt_graph_exec_enable((rt_graph_exec *)hGraphExec, (const rt_graph_node *)hNode,
                                             &isEnabled, true));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled)
{
    return rt_set_error(rt_graph_exec_enable((rt_graph_exec *)hGraphExec, (const rt_graph_node *)hNode,
                                             isEnabled, false));
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
    return rt_set_error(rt_graph_exec_update((rt_graph_exec *)hGraphExec, (rt_graph *)hGraph, resultInfo));
}

/* ---- the generic node calls (cudaGraphNodeParams) ------------------------------- */

/* The union's kernel, memset and host members are laid out as the first
 * versions of their structures, which the kinds' own calls take. */
_Static_assert(sizeof(struct cudaMemAllocNodeParamsV2) == sizeof(struct cudaMemAllocNodeParams) &&
               sizeof(struct cudaKernelNodeParamsV2) == sizeof(struct cudaKernelNodeParams) &&
               sizeof(struct cudaMemsetParamsV2) == sizeof(struct cudaMemsetParams) &&
               sizeof(struct cudaHostNodeParamsV2) == sizeof(struct cudaHostNodeParams),
               "the V2 node parameters are the first versions'");

/* A kind of node the generic calls do not make or change here. */
static cudaError_t generic_refused(const char *call, enum cudaGraphNodeType type)
{
    static const char *const names[] = {
        [cudaGraphNodeTypeExtSemaphoreSignal] = "an external-semaphore signal",
        [cudaGraphNodeTypeExtSemaphoreWait] = "an external-semaphore wait",
        [cudaGraphNodeTypeMemAlloc] = "a memory-allocation", [cudaGraphNodeTypeMemFree] = "a memory-free",
        [cudaGraphNodeTypeConditional] = "a conditional",
    };
    const char *name = (unsigned)type < sizeof names / sizeof names[0] && names[type] ? names[type] : NULL;
    if (!name)
        return rt_set_error(cudaErrorInvalidValue);
    rt_say("%s of %s node: not implemented (graphs hold kernel, copy, set, host, event, child-graph and "
           "empty nodes)", call, name);
    return rt_set_error(cudaErrorNotSupported);
}

/* ---- memory nodes (rt_graph_mem.c) ------------------------------------------------ */

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                     size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams)
{
    rt_graph_op op;
    cudaError_t e = pGraphNode ? rt_gmem_alloc_op(nodeParams, &op) : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        void *addr = rt_gmem_addr(&op);
        e = add(pGraphNode, graph, pDependencies, numDependencies, &op);
        if (e == cudaSuccess)
            nodeParams->dptr = addr;
    }
    return rt_set_error(e);
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                    size_t numDependencies, void *dptr)
{
    rt_lock();
    rt_graph *g = rt_graph_live(graph);
    rt_graph_op op;
    cudaError_t e = g && pGraphNode ? rt_gmem_free_op(g, dptr, &op) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = add(pGraphNode, graph, pDependencies, numDependencies, &op);
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeMemAlloc);
    if (!n || !params_out)
        return rt_set_error(cudaErrorInvalidValue);
    rt_gmem_params(&n->op, params_out);
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    rt_graph_node *n = node_of(node, cudaGraphNodeTypeMemFree);
    if (!n || !dptr_out)
        return rt_set_error(cudaErrorInvalidValue);
    *(void **)dptr_out = rt_gmem_addr(&n->op);
    return cudaSuccess;
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
    /* Graphs hold no memory beyond their allocations' (reserved). */
    return rt_set_error(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    return rt_set_error(device != 0 ? cudaErrorInvalidDevice : rt_gmem_attribute((int)attr, value, false));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    return rt_set_error(device != 0 ? cudaErrorInvalidDevice : rt_gmem_attribute((int)attr, value, true));
}

/* A conditional node: its body graphs made empty, handed back in
 * p->phGraph_out (the node's own array, as long as it lives). */
static cudaError_t add_conditional(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                                   struct cudaConditionalNodeParams *p)
{
    rt_lock();
    rt_graph *g = rt_graph_live(graph);
    rt_graph_op op;
    cudaError_t e = g && pNode ? rt_cond_op(g, p, &op) : cudaErrorInvalidValue;
    rt_graph_node *made = NULL;
    if (e == cudaSuccess)
        e = rt_graph_add(g, (rt_graph_node *const *)deps, n, &op, &made);
    if (e == cudaSuccess) {
        *pNode = NODE(made);
        p->phGraph_out = (cudaGraph_t *)made->op.u.cond.bodies;
    }
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags)
{
    return rt_set_error(rt_cond_create((rt_graph *)graph, defaultLaunchValue, flags, pHandle_out));
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *p)
{
    if (!p)
        return rt_set_error(cudaErrorInvalidValue);
    if (!default_edges(dependencyData, numDependencies))
        return rt_set_error(cudaErrorNotSupported);   /* (programmatic edges, ports: as capture) */
    const cudaGraphNode_t *deps = pDependencies;
    size_t n = numDependencies;
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
        return cudaGraphAddKernelNode(pGraphNode, graph, deps, n, (const struct cudaKernelNodeParams *)&p->kernel);
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags)
            return rt_set_error(cudaErrorInvalidValue);
        return cudaGraphAddMemcpyNode(pGraphNode, graph, deps, n, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
        return cudaGraphAddMemsetNode(pGraphNode, graph, deps, n, (const struct cudaMemsetParams *)&p->memset);
    case cudaGraphNodeTypeHost:
        return cudaGraphAddHostNode(pGraphNode, graph, deps, n, (const struct cudaHostNodeParams *)&p->host);
    case cudaGraphNodeTypeGraph:
        /* Moved: the node takes the child itself (which may hold memory
         * nodes, as a copy may not). */
        if (p->graph.ownership == cudaGraphChildGraphOwnershipMove)
            return rt_set_error(rt_graph_move_child((rt_graph *)graph, (rt_graph_node *const *)deps, n,
                                                    (rt_graph *)p->graph.graph, (rt_graph_node **)pGraphNode));
        if (p->graph.ownership != cudaGraphChildGraphOwnershipClone)
            return rt_set_error(cudaErrorInvalidValue);
        return cudaGraphAddChildGraphNode(pGraphNode, graph, deps, n, p->graph.graph);
    case cudaGraphNodeTypeMemAlloc:
        return cudaGraphAddMemAllocNode(pGraphNode, graph, deps, n, (struct cudaMemAllocNodeParams *)&p->alloc);
    case cudaGraphNodeTypeMemFree:
        return cudaGraphAddMemFreeNode(pGraphNode, graph, deps, n, p->free.dptr);
    case cudaGraphNodeTypeEmpty:
        return cudaGraphAddEmptyNode(pGraphNode, graph, deps, n);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphAddEventWaitNode(pGraphNode, graph, deps, n, p->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphAddEventRecordNode(pGraphNode, graph, deps, n, p->eventRecord.event);
    case cudaGraphNodeTypeConditional:
        return add_conditional(pGraphNode, graph, deps, n, &p->conditional);
    default:
        return generic_refused("cudaGraphAddNode", p->type);
    }
}

/* The node's kind must be the parameters'. */
static cudaError_t same_type(cudaGraphNode_t node, const struct cudaGraphNodeParams *p)
{
    enum cudaGraphNodeType t;
    if (!p)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = cudaGraphNodeGetType(node, &t);
    return e != cudaSuccess ? e : t != p->type ? rt_set_error(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *p)
{
    cudaError_t e = same_type(node, p);
    if (e != cudaSuccess)
        return e;
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
        return cudaGraphKernelNodeSetParams(node, (const struct cudaKernelNodeParams *)&p->kernel);
    case cudaGraphNodeTypeMemcpy:
        return p->memcpy.flags ? rt_set_error(cudaErrorInvalidValue)
                               : cudaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
        return cudaGraphMemsetNodeSetParams(node, (const struct cudaMemsetParams *)&p->memset);
    case cudaGraphNodeTypeHost:
        return cudaGraphHostNodeSetParams(node, (const struct cudaHostNodeParams *)&p->host);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphEventWaitNodeSetEvent(node, p->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphEventRecordNodeSetEvent(node, p->eventRecord.event);
    case cudaGraphNodeTypeEmpty:
        return cudaSuccess;
    default:
        return generic_refused("cudaGraphNodeSetParams", p->type);
    }
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node, struct cudaGraphNodeParams *p)
{
    cudaError_t e = same_type(node, p);
    if (e != cudaSuccess)
        return e;
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
        return cudaGraphExecKernelNodeSetParams(graphExec, node, (const struct cudaKernelNodeParams *)&p->kernel);
    case cudaGraphNodeTypeMemcpy:
        return p->memcpy.flags ? rt_set_error(cudaErrorInvalidValue)
                               : cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
        return cudaGraphExecMemsetNodeSetParams(graphExec, node, (const struct cudaMemsetParams *)&p->memset);
    case cudaGraphNodeTypeHost:
        return cudaGraphExecHostNodeSetParams(graphExec, node, (const struct cudaHostNodeParams *)&p->host);
    case cudaGraphNodeTypeGraph:
        return cudaGraphExecChildGraphNodeSetParams(graphExec, node, p->graph.graph);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphExecEventWaitNodeSetEvent(graphExec, node, p->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphExecEventRecordNodeSetEvent(graphExec, node, p->eventRecord.event);
    case cudaGraphNodeTypeEmpty:
        return cudaSuccess;
    default:
        return generic_refused("cudaGraphExecNodeSetParams", p->type);
    }
}

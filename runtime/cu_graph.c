/*
 * cu_graph.c -- the driver API's stream capture and executable graphs: what
 * NVIDIA's static runtime calls for cudaStreamBeginCapture, cudaStreamEnd-
 * Capture, cudaGraphInstantiate, cudaGraphLaunch and their destroys (a
 * program linked the nvcc default way that captures work into a graph and
 * replays it: CUB and Thrust calls on a stream, say).  The graphs are the
 * core's (rt_graph.c, rt_capture.c), the runtime API's as well; a capture
 * records the driver's launches, copies and memsets as it records the
 * runtime's, since both reach the same core.
 *
 * Graphs built node by node (cuGraphAdd*Node, cuGraphAddNode), their
 * queries and edits, conditional nodes, and the executable graph's updates
 * are the runtime's calls (cudart_graph.c, compiled into the core as
 * cu_graph_api.c), with the driver's parameter structures turned into the
 * runtime's.  Most are the same bytes: a CUgraphNode is a cudaGraphNode_t,
 * a CUDA_MEMSET_NODE_PARAMS a cudaMemsetParams, and so on; a kernel node's
 * function may be a CUkernel, and a copy node's CUDA_MEMCPY3D becomes a
 * copy between pitched pointers.
 */
#include "cu_int.h"

#include <string.h>

#define GRAPH(h) ((cudaGraph_t)(void *)(h))
#define NODE(h) ((cudaGraphNode_t)(void *)(h))
#define NODES(p) ((const cudaGraphNode_t *)(const void *)(p))
#define EXEC(h) ((cudaGraphExec_t)(void *)(h))

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    CU_ENTER(true);
    return rt_cu_result(rt_capture_begin((cudaStream_t)hStream, (int)mode));
}
RT_ALIAS(cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz);

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    CU_ENTER(true);
    rt_graph *g = NULL;
    cudaError_t e = rt_capture_end((cudaStream_t)hStream, phGraph ? &g : NULL);
    if (phGraph && e != cudaErrorInvalidValue && e != cudaErrorInvalidResourceHandle)
        *phGraph = (CUgraph)(void *)g;
    return rt_cu_result(e);
}
RT_ALIAS(cuStreamEndCapture, cuStreamEndCapture_ptsz);

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_graph_create(flags, (rt_graph **)phGraph));
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
    CU_ENTER(true);
    return rt_cu_result(rt_graph_destroy((rt_graph *)hGraph));
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_graph_instantiate((rt_graph *)hGraph, flags, (rt_graph_exec **)phGraphExec));
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_graph_launch((rt_graph_exec *)hGraphExec, (cudaStream_t)hStream));
}
RT_ALIAS(cuGraphLaunch, cuGraphLaunch_ptsz);

/* Nothing to upload: the device's memory is the host's. */
CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    cudaError_t e = rt_stream_check((cudaStream_t)hStream);
    if (e == cudaSuccess && !rt_graph_exec_live(hGraphExec))
        e = cudaErrorInvalidValue;
    return rt_cu_result(e);
}
RT_ALIAS(cuGraphUpload, cuGraphUpload_ptsz);

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    CU_ENTER(true);
    return rt_cu_result(rt_graph_exec_destroy((rt_graph_exec *)hGraphExec));
}

/* ---- capture ------------------------------------------------------------------ */

CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                     CUstreamCaptureMode mode)
{
    CU_ENTER(true);
    return rt_cu_result(cudaStreamBeginCaptureToGraph((cudaStream_t)hStream, GRAPH(hGraph), NODES(dependencies),
                                                      (const cudaGraphEdgeData *)dependencyData, numDependencies,
                                                      (enum cudaStreamCaptureMode)mode));
}
RT_ALIAS(cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph_ptsz);

CUresult cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                              const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                              unsigned int flags)
{
    CU_ENTER(true);
    return rt_cu_result(cudaStreamUpdateCaptureDependencies((cudaStream_t)hStream, (cudaGraphNode_t *)dependencies,
                                                            (const cudaGraphEdgeData *)dependencyData,
                                                            numDependencies, flags));
}
RT_ALIAS(cuStreamUpdateCaptureDependencies, cuStreamUpdateCaptureDependencies_v2_ptsz);

/* The first forms, without edge data (programs built with older headers). */
CUresult cuStreamUpdateCaptureDependencies_v1(CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
                                              unsigned int flags) __asm__("cuStreamUpdateCaptureDependencies");
CUresult cuStreamUpdateCaptureDependencies_v1(CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
                                              unsigned int flags)
{
    return cuStreamUpdateCaptureDependencies(hStream, dependencies, NULL, numDependencies, flags);
}
CUresult cuStreamUpdateCaptureDependencies_v1_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                   size_t numDependencies, unsigned int flags)
    __asm__("cuStreamUpdateCaptureDependencies_ptsz");
CUresult cuStreamUpdateCaptureDependencies_v1_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                   size_t numDependencies, unsigned int flags)
{
    return cuStreamUpdateCaptureDependencies(hStream, dependencies, NULL, numDependencies, flags);
}

/* ---- graphs and their nodes ------------------------------------------------------- */

CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphClone((cudaGraph_t *)phGraphClone, GRAPH(originalGraph)));
}

CUresult cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphNodeFindInClone((cudaGraphNode_t *)phNode, NODE(hOriginalNode), GRAPH(hClonedGraph)));
}

CUresult cuGraphDestroyNode(CUgraphNode hNode)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphDestroyNode(NODE(hNode)));
}

CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphNodeGetType(NODE(hNode), (enum cudaGraphNodeType *)type));
}

CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphGetNodes(GRAPH(hGraph), (cudaGraphNode_t *)nodes, numNodes));
}

CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphGetRootNodes(GRAPH(hGraph), (cudaGraphNode_t *)rootNodes, numRootNodes));
}

CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                            size_t *numEdges)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphGetEdges(GRAPH(hGraph), (cudaGraphNode_t *)from, (cudaGraphNode_t *)to,
                                          (cudaGraphEdgeData *)edgeData, numEdges));
}

CUresult cuGraphGetEdges_v1(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges) __asm__("cuGraphGetEdges");
CUresult cuGraphGetEdges_v1(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
    return cuGraphGetEdges(hGraph, from, to, NULL, numEdges);
}

CUresult cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
                                       size_t *numDependencies)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphNodeGetDependencies(NODE(hNode), (cudaGraphNode_t *)dependencies,
                                                     (cudaGraphEdgeData *)edgeData, numDependencies));
}

CUresult cuGraphNodeGetDependencies_v1(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies) __asm__("cuGraphNodeGetDependencies");
CUresult cuGraphNodeGetDependencies_v1(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies)
{
    return cuGraphNodeGetDependencies(hNode, dependencies, NULL, numDependencies);
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes, CUgraphEdgeData *edgeData,
                                         size_t *numDependentNodes)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphNodeGetDependentNodes(NODE(hNode), (cudaGraphNode_t *)dependentNodes,
                                                       (cudaGraphEdgeData *)edgeData, numDependentNodes));
}

CUresult cuGraphNodeGetDependentNodes_v1(CUgraphNode hNode, CUgraphNode *dependentNodes, size_t *numDependentNodes) __asm__("cuGraphNodeGetDependentNodes");
CUresult cuGraphNodeGetDependentNodes_v1(CUgraphNode hNode, CUgraphNode *dependentNodes, size_t *numDependentNodes)
{
    return cuGraphNodeGetDependentNodes(hNode, dependentNodes, NULL, numDependentNodes);
}

CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                   const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddDependencies(GRAPH(hGraph), NODES(from), NODES(to),
                                                 (const cudaGraphEdgeData *)edgeData, numDependencies));
}

CUresult cuGraphAddDependencies_v1(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies) __asm__("cuGraphAddDependencies");
CUresult cuGraphAddDependencies_v1(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies)
{
    return cuGraphAddDependencies(hGraph, from, to, NULL, numDependencies);
}

CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                      const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphRemoveDependencies(GRAPH(hGraph), NODES(from), NODES(to),
                                                    (const cudaGraphEdgeData *)edgeData, numDependencies));
}

CUresult cuGraphRemoveDependencies_v1(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies) __asm__("cuGraphRemoveDependencies");
CUresult cuGraphRemoveDependencies_v1(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies)
{
    return cuGraphRemoveDependencies(hGraph, from, to, NULL, numDependencies);
}

CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphDebugDotPrint(GRAPH(hGraph), path, flags));
}

/* ---- nodes of each kind -------------------------------------------------------------- */

CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                             size_t numDependencies)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddEmptyNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                              numDependencies));
}

/* A kernel node's parameters as the runtime's: the function is a
 * CUfunction, or a CUkernel where that is NULL; both are ptxsim's function
 * handles, which the runtime's calls take as they take a kernel's stub. */
static struct cudaKernelNodeParams kernel_params(const CUDA_KERNEL_NODE_PARAMS *p)
{
    return (struct cudaKernelNodeParams){
        .func = p->func ? (void *)p->func : (void *)p->kern,
        .gridDim = { p->gridDimX, p->gridDimY, p->gridDimZ },
        .blockDim = { p->blockDimX, p->blockDimY, p->blockDimZ },
        .sharedMemBytes = p->sharedMemBytes,
        .kernelParams = p->kernelParams,
        .extra = p->extra,
    };
}

CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams p = kernel_params(nodeParams);
    return rt_cu_result(cudaGraphAddKernelNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                               numDependencies, &p));
}

CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    struct cudaKernelNodeParams p;
    cudaError_t e = nodeParams ? cudaGraphKernelNodeGetParams(NODE(hNode), &p) : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        /* The handle, not a kernel's stub: what the driver's calls take. */
        rt_func *f = rt_func_lookup(p.func);
        *nodeParams = (CUDA_KERNEL_NODE_PARAMS){
            .func = (CUfunction)f,
            .kern = (CUkernel)f,                /* (one handle is both, in ptxsim) */
            .gridDimX = p.gridDim.x, .gridDimY = p.gridDim.y, .gridDimZ = p.gridDim.z,
            .blockDimX = p.blockDim.x, .blockDimY = p.blockDim.y, .blockDimZ = p.blockDim.z,
            .sharedMemBytes = p.sharedMemBytes,
            .kernelParams = p.kernelParams,
        };
    }
    return rt_cu_result(e);
}

CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams p = kernel_params(nodeParams);
    return rt_cu_result(cudaGraphKernelNodeSetParams(NODE(hNode), &p));
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaKernelNodeParams p = kernel_params(nodeParams);
    return rt_cu_result(cudaGraphExecKernelNodeSetParams(EXEC(hGraphExec), NODE(hNode), &p));
}

/* The first forms take CUDA_KERNEL_NODE_PARAMS_v1, the v2 structure
 * without its last two fields (kern, ctx). */
static CUDA_KERNEL_NODE_PARAMS from_v1(const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS k = {0};
    memcpy(&k, p, sizeof *p);
    return k;
}

CUresult cuGraphAddKernelNode_v1(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
    __asm__("cuGraphAddKernelNode");
CUresult cuGraphAddKernelNode_v1(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS k = from_v1(nodeParams);
    return cuGraphAddKernelNode(phGraphNode, hGraph, dependencies, numDependencies, &k);
}

CUresult cuGraphKernelNodeGetParams_v1(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
    __asm__("cuGraphKernelNodeGetParams");
CUresult cuGraphKernelNodeGetParams_v1(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS k;
    CUresult r = cuGraphKernelNodeGetParams(hNode, &k);
    if (r == CUDA_SUCCESS)
        memcpy(nodeParams, &k, sizeof *nodeParams);
    return r;
}

CUresult cuGraphKernelNodeSetParams_v1(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
    __asm__("cuGraphKernelNodeSetParams");
CUresult cuGraphKernelNodeSetParams_v1(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS k = from_v1(nodeParams);
    return cuGraphKernelNodeSetParams(hNode, &k);
}

CUresult cuGraphExecKernelNodeSetParams_v1(CUgraphExec hGraphExec, CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
    __asm__("cuGraphExecKernelNodeSetParams");
CUresult cuGraphExecKernelNodeSetParams_v1(CUgraphExec hGraphExec, CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS k = from_v1(nodeParams);
    return cuGraphExecKernelNodeSetParams(hGraphExec, hNode, &k);
}

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr, CUkernelNodeAttrValue *value_out)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphKernelNodeGetAttribute(NODE(hNode), (cudaKernelNodeAttrID)attr,
                                                        (cudaKernelNodeAttrValue *)value_out));
}

CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr, const CUkernelNodeAttrValue *value)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphKernelNodeSetAttribute(NODE(hNode), (cudaKernelNodeAttrID)attr,
                                                        (const cudaKernelNodeAttrValue *)value));
}

_Static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == sizeof(struct cudaMemsetParams) &&
               sizeof(CUDA_HOST_NODE_PARAMS) == sizeof(struct cudaHostNodeParams) &&
               sizeof(CUgraphNodeParams) == sizeof(struct cudaGraphNodeParams) &&
               sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) == sizeof(struct cudaMemAllocNodeParams),
               "the driver's node parameters are the runtime's bytes");

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                              size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    CU_ENTER(true);
    (void)ctx;                                  /* (one device, one context's memory) */
    return rt_cu_result(cudaGraphAddMemsetNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                               numDependencies, (const struct cudaMemsetParams *)memsetParams));
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphMemsetNodeGetParams(NODE(hNode), (struct cudaMemsetParams *)nodeParams));
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphMemsetNodeSetParams(NODE(hNode), (const struct cudaMemsetParams *)nodeParams));
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                        const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    CU_ENTER(true);
    (void)ctx;
    return rt_cu_result(cudaGraphExecMemsetNodeSetParams(EXEC(hGraphExec), NODE(hNode),
                                                         (const struct cudaMemsetParams *)memsetParams));
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                            size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddHostNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                             numDependencies, (const struct cudaHostNodeParams *)nodeParams));
}

CUresult cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphHostNodeGetParams(NODE(hNode), (struct cudaHostNodeParams *)nodeParams));
}

CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphHostNodeSetParams(NODE(hNode), (const struct cudaHostNodeParams *)nodeParams));
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphExecHostNodeSetParams(EXEC(hGraphExec), NODE(hNode),
                                                       (const struct cudaHostNodeParams *)nodeParams));
}

/* The kind of memory p is, for a copy's side: the device's (managed
 * memory too) or the host's. */
static CUmemorytype memory_of(const void *p)
{
    struct cudaPointerAttributes a;
    return rt_mem_attributes(p, &a) == cudaSuccess &&
                   (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged)
               ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
}

/* A driver 3-D copy as the runtime's, between pitched pointers at each
 * side's first byte. */
static CUresult copy_params(const CUDA_MEMCPY3D *p, struct cudaMemcpy3DParms *out)
{
    if (!p || p->srcLOD || p->dstLOD)
        return CUDA_ERROR_INVALID_VALUE;
    /* One row: its pitch says nothing (cuMemcpy3D takes 0 there too). */
    bool row = p->Height <= 1 && p->Depth <= 1;
    size_t sp = row && !p->srcPitch ? p->srcXInBytes + p->WidthInBytes : p->srcPitch;
    size_t dp = row && !p->dstPitch ? p->dstXInBytes + p->WidthInBytes : p->dstPitch;
    char *s, *d;
    size_t spitch, sslice, dpitch, dslice;
    CUresult r = cu_copy_side3d(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, sp, p->srcHeight,
                                p->srcXInBytes, p->srcY, p->srcZ, p, &s, &spitch, &sslice);
    if (r == CUDA_SUCCESS)
        r = cu_copy_side3d(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, dp, p->dstHeight,
                           p->dstXInBytes, p->dstY, p->dstZ, p, &d, &dpitch, &dslice);
    if (r != CUDA_SUCCESS)
        return r;
    memset(out, 0, sizeof *out);
    out->srcPtr = (struct cudaPitchedPtr){ s, spitch, spitch, spitch ? sslice / spitch : 0 };
    out->dstPtr = (struct cudaPitchedPtr){ d, dpitch, dpitch, dpitch ? dslice / dpitch : 0 };
    out->extent = (struct cudaExtent){ p->WidthInBytes, p->Height, p->Depth };
    /* The direction, as the runtime's nodes name it (graph queries, DOT). */
    bool from_device = memory_of(s) == CU_MEMORYTYPE_DEVICE, to_device = memory_of(d) == CU_MEMORYTYPE_DEVICE;
    out->kind = from_device ? (to_device ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                            : (to_device ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
    return CUDA_SUCCESS;
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                              size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    CU_ENTER(true);
    (void)ctx;
    struct cudaMemcpy3DParms p;
    CUresult r = copy_params(copyParams, &p);
    return r != CUDA_SUCCESS ? r : rt_cu_result(cudaGraphAddMemcpyNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph),
                                                                      NODES(dependencies), numDependencies, &p));
}

CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
    CU_ENTER(true);
    struct cudaMemcpy3DParms p;
    CUresult r = copy_params(nodeParams, &p);
    return r != CUDA_SUCCESS ? r : rt_cu_result(cudaGraphMemcpyNodeSetParams(NODE(hNode), &p));
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_MEMCPY3D *copyParams,
                                        CUcontext ctx)
{
    CU_ENTER(true);
    (void)ctx;
    struct cudaMemcpy3DParms p;
    CUresult r = copy_params(copyParams, &p);
    return r != CUDA_SUCCESS ? r : rt_cu_result(cudaGraphExecMemcpyNodeSetParams(EXEC(hGraphExec), NODE(hNode), &p));
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                   size_t numDependencies, CUevent event)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddEventRecordNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph),
                                                    NODES(dependencies), numDependencies, (cudaEvent_t)event));
}

CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, CUevent event)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddEventWaitNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                                  numDependencies, (cudaEvent_t)event));
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphEventRecordNodeGetEvent(NODE(hNode), (cudaEvent_t *)event_out));
}

CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphEventRecordNodeSetEvent(NODE(hNode), (cudaEvent_t)event));
}

CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphEventWaitNodeGetEvent(NODE(hNode), (cudaEvent_t *)event_out));
}

CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphEventWaitNodeSetEvent(NODE(hNode), (cudaEvent_t)event));
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphExecEventRecordNodeSetEvent(EXEC(hGraphExec), NODE(hNode), (cudaEvent_t)event));
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphExecEventWaitNodeSetEvent(EXEC(hGraphExec), NODE(hNode), (cudaEvent_t)event));
}

CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                  size_t numDependencies, CUgraph childGraph)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddChildGraphNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph),
                                                   NODES(dependencies), numDependencies, GRAPH(childGraph)));
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphChildGraphNodeGetGraph(NODE(hNode), (cudaGraph_t *)phGraph));
}

CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphExecChildGraphNodeSetParams(EXEC(hGraphExec), NODE(hNode), GRAPH(childGraph)));
}

CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddMemAllocNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                                 numDependencies, (struct cudaMemAllocNodeParams *)nodeParams));
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphMemAllocNodeGetParams(NODE(hNode), (struct cudaMemAllocNodeParams *)params_out));
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                               size_t numDependencies, CUdeviceptr dptr)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphAddMemFreeNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                                numDependencies, (void *)(uintptr_t)dptr));
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphMemFreeNodeGetParams(NODE(hNode), (void *)dptr_out));
}

CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx,
                                        unsigned int defaultLaunchValue, unsigned int flags)
{
    CU_ENTER(true);
    (void)ctx;
    return rt_cu_result(cudaGraphConditionalHandleCreate((cudaGraphConditionalHandle *)pHandle_out, GRAPH(hGraph),
                                                         defaultLaunchValue, flags));
}

/* The generic parameters as the runtime's: the same bytes but for a
 * kernel's function (a CUkernel where it is NULL) and a copy's
 * CUDA_MEMCPY3D. */
static CUresult node_params(const CUgraphNodeParams *p, struct cudaGraphNodeParams *out)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(out, p, sizeof *out);
    if (p->type == CU_GRAPH_NODE_TYPE_KERNEL) {
        _Static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS_v3) == sizeof(CUDA_KERNEL_NODE_PARAMS),
                       "the generic call's kernel parameters are the v2 structure's");
        CUDA_KERNEL_NODE_PARAMS k;
        memcpy(&k, &p->kernel, sizeof k);
        struct cudaKernelNodeParams rk = kernel_params(&k);
        memset(&out->kernel, 0, sizeof out->kernel);
        memcpy(&out->kernel, &rk, sizeof rk);
    } else if (p->type == CU_GRAPH_NODE_TYPE_MEMCPY) {
        struct cudaMemcpy3DParms c;
        CUresult r = copy_params(&p->memcpy.copyParams, &c);
        if (r != CUDA_SUCCESS)
            return r;
        memset(&out->memcpy, 0, sizeof out->memcpy);
        out->memcpy.copyParams = c;
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                           const CUgraphEdgeData *dependencyData, size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    CU_ENTER(true);
    struct cudaGraphNodeParams p;
    CUresult r = node_params(nodeParams, &p);
    if (r != CUDA_SUCCESS)
        return r;
    cudaError_t e = cudaGraphAddNode((cudaGraphNode_t *)phGraphNode, GRAPH(hGraph), NODES(dependencies),
                                     (const cudaGraphEdgeData *)dependencyData, numDependencies, &p);
    /* What the call hands back: a conditional node's bodies (an array the
     * node owns), an allocation's address. */
    if (e == cudaSuccess && nodeParams->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        nodeParams->conditional.phGraph_out = (CUgraph *)p.conditional.phGraph_out;
    if (e == cudaSuccess && nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
        nodeParams->alloc.dptr = (CUdeviceptr)(uintptr_t)p.alloc.dptr;
    return rt_cu_result(e);
}

CUresult cuGraphAddNode_v1(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies,
                        CUgraphNodeParams *nodeParams) __asm__("cuGraphAddNode");
CUresult cuGraphAddNode_v1(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies,
                        CUgraphNodeParams *nodeParams)
{
    return cuGraphAddNode(phGraphNode, hGraph, dependencies, NULL, numDependencies, nodeParams);
}

CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    CU_ENTER(true);
    struct cudaGraphNodeParams p;
    CUresult r = node_params(nodeParams, &p);
    return r != CUDA_SUCCESS ? r : rt_cu_result(cudaGraphNodeSetParams(NODE(hNode), &p));
}

CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    CU_ENTER(true);
    struct cudaGraphNodeParams p;
    CUresult r = node_params(nodeParams, &p);
    return r != CUDA_SUCCESS ? r : rt_cu_result(cudaGraphExecNodeSetParams(EXEC(hGraphExec), NODE(hNode), &p));
}

/* ---- executable graphs ---------------------------------------------------------------- */

CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphInstantiateWithParams((cudaGraphExec_t *)phGraphExec, GRAPH(hGraph),
                                                       (cudaGraphInstantiateParams *)instantiateParams));
}
RT_ALIAS(cuGraphInstantiateWithParams, cuGraphInstantiateWithParams_ptsz);

CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphExecGetFlags(EXEC(hGraphExec), (unsigned long long *)flags));
}

CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphExecUpdate(EXEC(hGraphExec), GRAPH(hGraph), (cudaGraphExecUpdateResultInfo *)resultInfo));
}

CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphNodeSetEnabled(EXEC(hGraphExec), NODE(hNode), isEnabled));
}

CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphNodeGetEnabled(EXEC(hGraphExec), NODE(hNode), isEnabled));
}

/* ---- user objects ------------------------------------------------------------------- */

CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount,
                            unsigned int flags)
{
    CU_ENTER(true);
    return rt_cu_result(cudaUserObjectCreate((cudaUserObject_t *)object_out, ptr, destroy, initialRefcount, flags));
}

CUresult cuUserObjectRetain(CUuserObject object, unsigned int count)
{
    CU_ENTER(true);
    return rt_cu_result(cudaUserObjectRetain((cudaUserObject_t)object, count));
}

CUresult cuUserObjectRelease(CUuserObject object, unsigned int count)
{
    CU_ENTER(true);
    return rt_cu_result(cudaUserObjectRelease((cudaUserObject_t)object, count));
}

CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphRetainUserObject(GRAPH(graph), (cudaUserObject_t)object, count, flags));
}

CUresult cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphReleaseUserObject(GRAPH(graph), (cudaUserObject_t)object, count));
}

CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
    CU_ENTER(true);
    return rt_cu_result(cudaGraphKernelNodeCopyAttributes(NODE(dst), NODE(src)));
}

/* A copy node's parameters as the driver gives them: each side the
 * device's memory, the host's or an array. */
CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    CU_ENTER(true);
    struct cudaMemcpy3DParms p;
    cudaError_t e = nodeParams ? cudaGraphMemcpyNodeGetParams(NODE(hNode), &p) : cudaErrorInvalidValue;
    if (e != cudaSuccess)
        return rt_cu_result(e);
    memset(nodeParams, 0, sizeof *nodeParams);
    if (p.srcArray) {
        nodeParams->srcMemoryType = CU_MEMORYTYPE_ARRAY;
        nodeParams->srcArray = (CUarray)p.srcArray;
    } else {
        nodeParams->srcMemoryType = memory_of(p.srcPtr.ptr);
        if (nodeParams->srcMemoryType == CU_MEMORYTYPE_DEVICE)
            nodeParams->srcDevice = (CUdeviceptr)(uintptr_t)p.srcPtr.ptr;
        else
            nodeParams->srcHost = p.srcPtr.ptr;
        nodeParams->srcPitch = p.srcPtr.pitch;
        nodeParams->srcHeight = p.srcPtr.ysize;
    }
    if (p.dstArray) {
        nodeParams->dstMemoryType = CU_MEMORYTYPE_ARRAY;
        nodeParams->dstArray = (CUarray)p.dstArray;
    } else {
        nodeParams->dstMemoryType = memory_of(p.dstPtr.ptr);
        if (nodeParams->dstMemoryType == CU_MEMORYTYPE_DEVICE)
            nodeParams->dstDevice = (CUdeviceptr)(uintptr_t)p.dstPtr.ptr;
        else
            nodeParams->dstHost = p.dstPtr.ptr;
        nodeParams->dstPitch = p.dstPtr.pitch;
        nodeParams->dstHeight = p.dstPtr.ysize;
    }
    nodeParams->srcXInBytes = p.srcPos.x;
    nodeParams->srcY = p.srcPos.y;
    nodeParams->srcZ = p.srcPos.z;
    nodeParams->dstXInBytes = p.dstPos.x;
    nodeParams->dstY = p.dstPos.y;
    nodeParams->dstZ = p.dstPos.z;
    nodeParams->WidthInBytes = p.extent.width;
    nodeParams->Height = p.extent.height;
    nodeParams->Depth = p.extent.depth;
    return CUDA_SUCCESS;
}

/* ---- graph memory of the device ---------------------------------------------------------- */

CUresult cuDeviceGraphMemTrim(CUdevice device)
{
    CU_ENTER(false);
    return rt_cu_result(cudaDeviceGraphMemTrim(device));
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    CU_ENTER(false);
    return rt_cu_result(cudaDeviceGetGraphMemAttribute(device, (enum cudaGraphMemAttributeType)attr, value));
}

CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    CU_ENTER(false);
    return rt_cu_result(cudaDeviceSetGraphMemAttribute(device, (enum cudaGraphMemAttributeType)attr, value));
}

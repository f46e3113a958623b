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
 * Building graphs node by node through the driver API (cuGraphAddKernelNode
 * and the rest) is not here: those entry points stay warning stubs.
 */
#include "cu_int.h"

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    CU_ENTER(true);
    return rt_cu_result(rt_capture_begin((cudaStream_t)hStream, (int)mode));
}
RT_ALIAS(cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz);

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    CU_ENTER(true);
    if (!phGraph)
        return CUDA_ERROR_INVALID_VALUE;
    rt_graph *g = NULL;
    cudaError_t e = rt_capture_end((cudaStream_t)hStream, &g);
    if (e != cudaErrorInvalidValue && e != cudaErrorInvalidResourceHandle)
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
    CU_ENTER(true);
    return rt_cu_result(rt_graph_launch((rt_graph_exec *)hGraphExec, (cudaStream_t)hStream));
}
RT_ALIAS(cuGraphLaunch, cuGraphLaunch_ptsz);

/* Nothing to upload: the device's memory is the host's. */
CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
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

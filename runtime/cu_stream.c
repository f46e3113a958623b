/*
 * cu_stream.c -- the driver API's streams, events, host functions and
 * profiler markers, over the same core as the runtime's (rt_stream.c).
 * CUstream and cudaStream_t are the same handles, as are CUevent and
 * cudaEvent_t.
 */
#include "cu_int.h"

#include <cudaProfiler.h>

#define S(h) ((cudaStream_t)(h))
#define E(h) ((cudaEvent_t)(h))

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_create(Flags, 0, (cudaStream_t *)phStream));
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_create(flags, priority, (cudaStream_t *)phStream));
}

CUresult cuStreamDestroy(CUstream hStream)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_destroy(S(hStream)));
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_stream_sync(S(hStream)));
}
RT_ALIAS(cuStreamSynchronize, cuStreamSynchronize_ptsz);

CUresult cuStreamQuery(CUstream hStream)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_stream_query(S(hStream)));
}
RT_ALIAS(cuStreamQuery, cuStreamQuery_ptsz);

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_stream_wait_event(S(hStream), E(hEvent), Flags));
}
RT_ALIAS(cuStreamWaitEvent, cuStreamWaitEvent_ptsz);

/* CUlaunchAttributeValue is cudaLaunchAttributeValue, number for number
 * and byte for byte (rt_attr.c). */
CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_attr(S(hStream), (int)attr, (cudaLaunchAttributeValue *)value_out, false));
}
RT_ALIAS(cuStreamGetAttribute, cuStreamGetAttribute_ptsz);

CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_attr(S(hStream), (int)attr, (cudaLaunchAttributeValue *)value, true));
}
RT_ALIAS(cuStreamSetAttribute, cuStreamSetAttribute_ptsz);

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_copy_attrs(S(dst), S(src)));
}
RT_ALIAS(cuStreamCopyAttributes, cuStreamCopyAttributes_ptsz);

CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    CU_ENTER(true);
    if (!priority)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_stream_info(S(hStream), NULL, priority, NULL));
}
RT_ALIAS(cuStreamGetPriority, cuStreamGetPriority_ptsz);

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    CU_ENTER(true);
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_stream_info(S(hStream), flags, NULL, NULL));
}
RT_ALIAS(cuStreamGetFlags, cuStreamGetFlags_ptsz);

CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
    CU_ENTER(true);
    if (!streamId)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_stream_info(S(hStream), NULL, NULL, streamId));
}
RT_ALIAS(cuStreamGetId, cuStreamGetId_ptsz);

CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    CU_ENTER(true);
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    rt_ctx *c = NULL;
    cudaError_t e = rt_stream_ctx(S(hStream), &c);
    if (e == cudaSuccess)
        *pctx = (CUcontext)c;
    return rt_cu_result(e);
}
RT_ALIAS(cuStreamGetCtx, cuStreamGetCtx_ptsz);

/* ptxsim has no green contexts: a stream's is always NULL. */
CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    if (!pGreenCtx)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuStreamGetCtx(hStream, pCtx);
    if (r == CUDA_SUCCESS)
        *pGreenCtx = NULL;
    return r;
}
RT_ALIAS(cuStreamGetCtx_v2, cuStreamGetCtx_v2_ptsz);

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    CU_ENTER(true);
    if (!callback || flags)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_stream_check(S(hStream));
    /* Graphs have no callback nodes (cuLaunchHostFunc's host nodes replace
     * them): capture refuses it, as CUDA does. */
    if (e == cudaSuccess)
        e = rt_capture_refuse(S(hStream));
    if (e != cudaSuccess)
        return rt_cu_result(e);
    callback(hStream, rt_cu_result(rt_sticky()), userData);
    return CUDA_SUCCESS;
}
RT_ALIAS(cuStreamAddCallback, cuStreamAddCallback_ptsz);

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    /* A stream operation as the runtime's: in a capture, a host node. */
    rt_graph_op op = { .type = cudaGraphNodeTypeHost, .u.host = { fn, userData } };
    return rt_cu_result(rt_enqueue(S(hStream), &op));
}
RT_ALIAS(cuLaunchHostFunc, cuLaunchHostFunc_ptsz);

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_event_create(Flags, (cudaEvent_t *)phEvent));
}

CUresult cuEventDestroy(CUevent hEvent)
{
    CU_ENTER(true);
    return rt_cu_result(rt_event_destroy(E(hEvent)));
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_event_record(E(hEvent), S(hStream), 0));
}
RT_ALIAS(cuEventRecord, cuEventRecord_ptsz);

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_event_record(E(hEvent), S(hStream), flags));
}
RT_ALIAS(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz);

CUresult cuEventQuery(CUevent hEvent)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_event_query(E(hEvent)));
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    return rt_cu_result(rt_event_sync(E(hEvent)));
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CU_ENTER(true);
    return rt_cu_result(rt_event_elapsed(pMilliseconds, E(hStart), E(hEnd)));
}

CUresult cuProfilerStart(void)
{
    CU_ENTER(true);
    rt_profiler(true);
    return CUDA_SUCCESS;
}

CUresult cuProfilerStop(void)
{
    CU_ENTER(true);
    rt_profiler(false);
    return CUDA_SUCCESS;
}

CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
    CU_ENTER(true);
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_stream_check((cudaStream_t)hStream);
    if (e == cudaSuccess)
        *device = 0;
    return rt_cu_result(e);
}
RT_ALIAS(cuStreamGetDevice, cuStreamGetDevice_ptsz);

/* ---- capture queries ------------------------------------------------------- */

/* The driver API cannot begin a capture (cuStreamBeginCapture is not
 * implemented), but a stream may be capturing through the runtime API, and
 * NVIDIA's static runtime asks before its stream operations. */
CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    CU_ENTER(true);
    if (!captureStatus)
        return CUDA_ERROR_INVALID_VALUE;
    enum cudaStreamCaptureStatus st;
    cudaError_t e = rt_capture_info((cudaStream_t)hStream, &st, NULL, NULL, NULL, NULL, NULL);
    if (e == cudaSuccess)
        *captureStatus = (CUstreamCaptureStatus)st;
    return rt_cu_result(e);
}
RT_ALIAS(cuStreamIsCapturing, cuStreamIsCapturing_ptsz);

CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    CU_ENTER(true);
    if (!captureStatus_out)
        return CUDA_ERROR_INVALID_VALUE;
    enum cudaStreamCaptureStatus st;
    unsigned long long id = 0;
    rt_graph *g = NULL;
    cudaError_t e = rt_capture_info((cudaStream_t)hStream, &st, &id, graph_out ? &g : NULL,
                                    (rt_graph_node *const **)dependencies_out,
                                    (const cudaGraphEdgeData **)edgeData_out, numDependencies_out);
    if (e != cudaSuccess)
        return rt_cu_result(e);
    *captureStatus_out = (CUstreamCaptureStatus)st;
    if (id_out)
        *id_out = id;
    if (graph_out)
        *graph_out = (CUgraph)g;
    return CUDA_SUCCESS;
}
RT_ALIAS(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_v3_ptsz);

/* The CUDA 10.1 and 11.3 forms (cudaTypedefs.h's PFN types), under the
 * names cuda.h maps to the newest. */
CUresult cuStreamGetCaptureInfo_v1(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                   cuuint64_t *id_out) __asm__("cuStreamGetCaptureInfo");
CUresult cuStreamGetCaptureInfo_v1(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out)
{
    return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CUresult cuStreamGetCaptureInfo_v1_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out) __asm__("cuStreamGetCaptureInfo_ptsz");
CUresult cuStreamGetCaptureInfo_v1_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out)
{
    return cuStreamGetCaptureInfo_v1(hStream, captureStatus_out, id_out);
}

CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                   CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                   size_t *numDependencies_out);
CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                   CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                   size_t *numDependencies_out)
{
    return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                                     numDependencies_out);
}
RT_ALIAS_(cuStreamGetCaptureInfo_v2, cuStreamGetCaptureInfo_v2_ptsz);

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    if (!mode || (unsigned)*mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = (CUstreamCaptureMode)rt_capture_exchange_mode((int)*mode);
    return CUDA_SUCCESS;
}

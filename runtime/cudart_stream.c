/*
 * cudart_stream.c -- the runtime API's streams, events, stream callbacks
 * and host functions.  Work completes in issue order before each call
 * returns (rt_stream.c), so a callback or host function runs at once, in
 * the calling thread, with nothing of ptxsim locked (it may call CUDA).
 * Stream capture and graphs are in cudart_graph.c.
 */
#include "rt_int.h"

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return rt_set_error(rt_stream_create(cudaStreamDefault, 0, pStream));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return rt_set_error(rt_stream_create(flags, 0, pStream));
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    return rt_set_error(rt_stream_create(flags, priority, pStream));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    return rt_set_error(rt_stream_destroy(stream));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_stream_sync(stream));
}
RT_ALIAS(cudaStreamSynchronize, cudaStreamSynchronize_ptsz);

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_stream_query(stream));
}
RT_ALIAS(cudaStreamQuery, cudaStreamQuery_ptsz);

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_stream_wait_event(stream, event, flags));
}
RT_ALIAS(cudaStreamWaitEvent, cudaStreamWaitEvent_ptsz);

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    if (!priority)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_stream_info(hStream, NULL, priority, NULL));
}
RT_ALIAS(cudaStreamGetPriority, cudaStreamGetPriority_ptsz);

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    if (!flags)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_stream_info(hStream, flags, NULL, NULL));
}
RT_ALIAS(cudaStreamGetFlags, cudaStreamGetFlags_ptsz);

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    if (!streamId)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_stream_info(hStream, NULL, NULL, streamId));
}
RT_ALIAS(cudaStreamGetId, cudaStreamGetId_ptsz);

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    if (!device)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = rt_stream_check(hStream);
    if (e == cudaSuccess)
        *device = 0;
    return rt_set_error(e);
}
RT_ALIAS(cudaStreamGetDevice, cudaStreamGetDevice_ptsz);

/* Launch attributes kept per stream (rt_attr.c: read back as set, changing
 * neither results nor timing). */
cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out)
{
    return rt_set_error(rt_stream_attr(hStream, (int)attr, value_out, false));
}
RT_ALIAS(cudaStreamGetAttribute, cudaStreamGetAttribute_ptsz);

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    return rt_set_error(rt_stream_attr(hStream, (int)attr, (cudaStreamAttrValue *)value, true));
}
RT_ALIAS(cudaStreamSetAttribute, cudaStreamSetAttribute_ptsz);

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    return rt_set_error(rt_stream_copy_attrs(dst, src));
}
RT_ALIAS(cudaStreamCopyAttributes, cudaStreamCopyAttributes_ptsz);

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags)
{
    if (!callback || flags)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = rt_stream_check(stream);
    /* Graphs have no callback nodes (cudaLaunchHostFunc's host nodes
     * replace them): capture refuses it, as CUDA does. */
    if (e == cudaSuccess)
        e = rt_capture_refuse(stream);
    if (e != cudaSuccess)
        return rt_set_error(e);
    /* The callback learns of a fault in the work before it, as in CUDA. */
    callback(stream, rt_sticky(), userData);
    return cudaSuccess;
}
RT_ALIAS(cudaStreamAddCallback, cudaStreamAddCallback_ptsz);

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    RT_ASYNC_ENTRY();
    if (!fn)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeHost, .u.host = { fn, userData } };
    return rt_set_error(rt_enqueue(stream, &op));
}
RT_ALIAS(cudaLaunchHostFunc, cudaLaunchHostFunc_ptsz);

/* ---- events --------------------------------------------------------------- */

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return rt_set_error(rt_event_create(cudaEventDefault, event));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    return rt_set_error(rt_event_create(flags, event));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    return rt_set_error(rt_event_destroy(event));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_event_record(event, stream, 0));
}
RT_ALIAS(cudaEventRecord, cudaEventRecord_ptsz);

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_event_record(event, stream, flags));
}
RT_ALIAS(cudaEventRecordWithFlags, cudaEventRecordWithFlags_ptsz);

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_event_query(event));
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(rt_event_sync(event));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    return rt_set_error(rt_event_elapsed(ms, start, end));
}

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
    CU_ENTER(true);
    return rt_cu_result(rt_stream_sync(S(hStream)));
}
RT_ALIAS(cuStreamSynchronize, cuStreamSynchronize_ptsz);

CUresult cuStreamQuery(CUstream hStream)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_sync(S(hStream)));
}
RT_ALIAS(cuStreamQuery, cuStreamQuery_ptsz);

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_wait_event(S(hStream), E(hEvent), Flags));
}
RT_ALIAS(cuStreamWaitEvent, cuStreamWaitEvent_ptsz);

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

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    CU_ENTER(true);
    if (!callback || flags)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_stream_check(S(hStream));
    if (e != cudaSuccess)
        return rt_cu_result(e);
    callback(hStream, rt_cu_result(rt_sticky()), userData);
    return CUDA_SUCCESS;
}
RT_ALIAS(cuStreamAddCallback, cuStreamAddCallback_ptsz);

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    CU_ENTER(true);
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_stream_check(S(hStream));
    if (e == cudaSuccess)
        e = rt_sticky();
    if (e != cudaSuccess)
        return rt_cu_result(e);
    fn(userData);
    return CUDA_SUCCESS;
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
    CU_ENTER(true);
    return rt_cu_result(rt_event_record(E(hEvent), S(hStream), 0));
}
RT_ALIAS(cuEventRecord, cuEventRecord_ptsz);

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_event_record(E(hEvent), S(hStream), flags));
}
RT_ALIAS(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz);

CUresult cuEventQuery(CUevent hEvent)
{
    CU_ENTER(true);
    return rt_cu_result(rt_event_query(E(hEvent)));
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    CU_ENTER(true);
    return rt_cu_result(rt_event_query(E(hEvent)));
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

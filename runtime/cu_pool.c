/*
 * cu_pool.c -- the driver API's memory pools and stream-ordered
 * allocation (cuMemAllocAsync, cuMemAllocFromPoolAsync, cuMemFreeAsync,
 * cuMemPool*, cuDevice{Get,Set}MemPool), as cuda.core's
 * DeviceMemoryResource and CuPy's MemoryAsyncPool use them.  The pools
 * are the core's (rt_pool.c), the same the runtime API's cudaMallocAsync
 * draws from, so a pool made by either API works in the other.
 *
 * Streams run their work at once, so "stream-ordered" changes nothing but
 * the checks: the stream must be valid and not capturing (a capture would
 * record a memory-allocation node, which ptxsim's graphs lack).  A freed
 * block goes back to its pool, which keeps it reserved up to its release
 * threshold, as the runtime API's does.
 */
#include "cu_int.h"

#include <string.h>

/* The two APIs' pool properties are one layout (cuda.h, driver_types.h). */
_Static_assert(sizeof(CUmemPoolProps) == sizeof(struct cudaMemPoolProps), "pool properties differ");

#define POOL(p) ((CUmemoryPool)(void *)(p))

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
    CU_ENTER(false);
    if (!pool_out)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *pool_out = POOL(rt_pool_default());
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CU_ENTER(false);
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *pool = POOL(rt_pool_current());
    return CUDA_SUCCESS;
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    CU_ENTER(false);
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    rt_pool *p = rt_pool_live(pool);
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    rt_pool_set_current(p);
    return CUDA_SUCCESS;
}

/* CUDA 13's by-location forms: device 0's pool for pinned (device)
 * allocations; host and NUMA locations ptxsim has no pools for. */
static CUresult device_location(const CUmemLocation *loc, CUmemAllocationType type)
{
    if (!loc || type != CU_MEM_ALLOCATION_TYPE_PINNED)
        return CUDA_ERROR_INVALID_VALUE;
    if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE)
        return loc->type == CU_MEM_LOCATION_TYPE_INVALID ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_SUPPORTED;
    return loc->id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location, CUmemAllocationType type)
{
    CU_ENTER(false);
    CUresult r = pool_out ? device_location(location, type) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *pool_out = POOL(rt_pool_default());
    return r;
}

CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type)
{
    CU_ENTER(false);
    CUresult r = pool ? device_location(location, type) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *pool = POOL(rt_pool_current());
    return r;
}

CUresult cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool)
{
    CU_ENTER(false);
    CUresult r = device_location(location, type);
    rt_pool *p = rt_pool_live(pool);
    if (r == CUDA_SUCCESS && !p)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        rt_pool_set_current(p);
    return r;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
    CU_ENTER(false);
    if (!pool || !poolProps)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaMemPoolProps props;
    memcpy(&props, poolProps, sizeof props);
    return rt_cu_result(rt_pool_create(&props, (rt_pool **)pool));
}

CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
    CU_ENTER(false);
    return rt_cu_result(rt_pool_destroy((rt_pool *)pool));
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    CU_ENTER(false);
    rt_pool *p = rt_pool_live(pool);
    return p ? rt_cu_result(rt_pool_trim(p, minBytesToKeep)) : CUDA_ERROR_INVALID_VALUE;
}

/* The attributes have the runtime API's numbers and value types. */
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    CU_ENTER(false);
    rt_pool *p = rt_pool_live(pool);
    return p ? rt_cu_result(rt_pool_attribute(p, (int)attr, value, true)) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    CU_ENTER(false);
    rt_pool *p = rt_pool_live(pool);
    return p ? rt_cu_result(rt_pool_attribute(p, (int)attr, value, false)) : CUDA_ERROR_INVALID_VALUE;
}

/* One device: it always has read-write access to its own pools. */
CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
    CU_ENTER(false);
    if (!rt_pool_live(pool) || (count && !map))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE)
            return CUDA_ERROR_INVALID_VALUE;
        if (map[i].location.id != 0)
            return CUDA_ERROR_INVALID_DEVICE;
        if (map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return CUDA_ERROR_INVALID_VALUE;    /* the owning device keeps read-write */
    }
    return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
    CU_ENTER(false);
    if (!flags || !location || !rt_pool_live(memPool) || location->type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (location->id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return CUDA_SUCCESS;
}

/* An allocation from `pool` ordered on `stream` (in a capture, a memory
 * allocation node). */
static CUresult pool_alloc(CUdeviceptr *dptr, size_t bytes, rt_pool *pool, CUstream stream)
{
    void *p = NULL;
    cudaError_t e = rt_stream_alloc(pool, bytes, (cudaStream_t)stream, dptr ? &p : NULL);
    if (e == cudaSuccess)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return rt_cu_result(e);
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    CU_ENTER(true);
    return pool_alloc(dptr, bytesize, rt_pool_current(), hStream);
}
RT_ALIAS(cuMemAllocAsync, cuMemAllocAsync_ptsz);

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    CU_ENTER(true);
    return pool_alloc(dptr, bytesize, rt_pool_live(pool), hStream);
}
RT_ALIAS(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz);

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    CU_ENTER(true);
    return rt_cu_result(rt_stream_free((void *)(uintptr_t)dptr, (cudaStream_t)hStream));
}
RT_ALIAS(cuMemFreeAsync, cuMemFreeAsync_ptsz);

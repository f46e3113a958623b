/*
 * cudart_pool.c -- the runtime API's memory pools: the device's default
 * and current pool, pools the program creates, their attributes and
 * trimming.  The pools themselves are rt_pool.c's; cudaMallocAsync,
 * cudaMallocFromPoolAsync and cudaFreeAsync are in cudart_memory.c.
 * Handles that are NULL, destroyed or made up are cudaErrorInvalidValue.
 */
#include "rt_int.h"

#define POOL(p) ((cudaMemPool_t)(void *)(p))

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return rt_set_error(cudaErrorInvalidValue);
    if (device != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    *memPool = POOL(rt_pool_default());
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return rt_set_error(cudaErrorInvalidValue);
    if (device != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    *memPool = POOL(rt_pool_current());
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    if (device != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    rt_pool *p = rt_pool_live(memPool);
    if (!p)
        return rt_set_error(cudaErrorInvalidValue);
    rt_pool_set_current(p);
    return cudaSuccess;
}

/* CUDA 13's by-location forms: device 0's pool for device allocations. */
static cudaError_t device_location(const struct cudaMemLocation *loc, enum cudaMemAllocationType type)
{
    if (!loc || type != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    if (loc->type != cudaMemLocationTypeDevice)
        return loc->type == cudaMemLocationTypeInvalid ? cudaErrorInvalidValue : cudaErrorNotSupported;
    return loc->id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type)
{
    cudaError_t e = memPool ? device_location(location, type) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *memPool = POOL(rt_pool_default());
    return rt_set_error(e);
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                              enum cudaMemAllocationType type)
{
    cudaError_t e = memPool ? device_location(location, type) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *memPool = POOL(rt_pool_current());
    return rt_set_error(e);
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                              cudaMemPool_t memPool)
{
    cudaError_t e = device_location(location, type);
    rt_pool *p = rt_pool_live(memPool);
    if (e == cudaSuccess && !p)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        rt_pool_set_current(p);
    return rt_set_error(e);
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    return rt_set_error(rt_pool_create(poolProps, (rt_pool **)memPool));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    return rt_set_error(rt_pool_destroy((rt_pool *)memPool));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    rt_pool *p = rt_pool_live(memPool);
    return rt_set_error(p ? rt_pool_trim(p, minBytesToKeep) : cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    rt_pool *p = rt_pool_live(memPool);
    return rt_set_error(p ? rt_pool_attribute(p, (int)attr, value, true) : cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    rt_pool *p = rt_pool_live(memPool);
    return rt_set_error(p ? rt_pool_attribute(p, (int)attr, value, false) : cudaErrorInvalidValue);
}

/* One device: it always has read-write access to its own pools. */
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count)
{
    if (!rt_pool_live(memPool) || (count && !descList))
        return rt_set_error(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++) {
        if (descList[i].location.type != cudaMemLocationTypeDevice)
            return rt_set_error(cudaErrorInvalidValue);
        if (descList[i].location.id != 0)
            return rt_set_error(cudaErrorInvalidDevice);
        if (descList[i].flags != cudaMemAccessFlagsProtReadWrite)
            return rt_set_error(cudaErrorInvalidValue);     /* the owning device keeps read-write */
    }
    return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location)
{
    if (!flags || !location || !rt_pool_live(memPool) || location->type != cudaMemLocationTypeDevice)
        return rt_set_error(cudaErrorInvalidValue);
    if (location->id != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    *flags = cudaMemAccessFlagsProtReadWrite;
    return cudaSuccess;
}

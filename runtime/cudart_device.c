/*
 * cudart_device.c -- the device: count, selection, properties, attributes,
 * flags, limits, reset, synchronisation, versions and profiler markers.
 *
 * ptxsim shows one device, described by rt_device (rt_config.c).  Every
 * operation completes before its call returns, so synchronisation only
 * reports a sticky fault.
 */
#include "rt_int.h"

#include <cuda.h>
#include <cuda_profiler_api.h>
#include <stdio.h>
#include <string.h>

#define CHECK_DEVICE(d) \
    do { if ((d) != 0) return rt_set_error(cudaErrorInvalidDevice); } while (0)

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_set_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return rt_set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    CHECK_DEVICE(device);
    return rt_set_error(cudaSuccess);   /* (binds the primary context) */
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    CHECK_DEVICE(device);
    if (flags)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_device_flags_set(deviceFlags));
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return rt_set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop)
        return rt_set_error(cudaErrorInvalidValue);
    CHECK_DEVICE(device);
    rt_device_props(prop);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (!value)
        return rt_set_error(cudaErrorInvalidValue);
    CHECK_DEVICE(device);
    return rt_set_error(rt_device_attribute((int)attr, value));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    const rt_device *d = rt_device_get();
    if (leastPriority)
        *leastPriority = d->stream_prio_least;
    if (greatestPriority)
        *greatestPriority = d->stream_prio_greatest;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    return rt_set_error(rt_device_flags_set(flags));
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return rt_set_error(cudaErrorInvalidValue);
    *flags = rt_device_flags_get();
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    return rt_set_error(rt_limit_set((int)limit, value));
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    return rt_set_error(rt_limit_get((int)limit, pValue));
}

/* Cache and shared-memory preferences: accepted and remembered by nobody,
 * as the hint they are (the functional model has no L1 to split). */
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual)
        return rt_set_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig)
        return rt_set_error(cudaErrorInvalidValue);
    *pCacheConfig = cudaFuncCachePreferNone;
    return cudaSuccess;
}

/* Deprecated (the bank width is fixed since compute capability 5.0), still
 * called by older programs. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    int c = (int)config;
    return rt_set_error(rt_shared_mem_config(&c, true));
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    int c = 0;
    cudaError_t e = pConfig ? rt_shared_mem_config(&c, false) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *pConfig = (enum cudaSharedMemConfig)c;
    return rt_set_error(e);
}
#pragma GCC diagnostic pop

/* Persisting L2 lines: the device has none (cudaDevAttrMaxPersistingL2CacheSize
 * is 0, and the timing model's L2 has no persisting state), so there is
 * nothing to reset. */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return rt_set_error(rt_sticky());
}

cudaError_t cudaDeviceReset(void)
{
    /* A reset is how a program recovers from a fault: the calling thread
     * starts over with no error either. */
    rt_reset();
    rt_last_error(true);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    RT_CAPTURE_UNSAFE();
    rt_queue_wait(UINT64_MAX);
    rt_pool_sync();
    return rt_set_error(rt_sticky());
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    if (!free_bytes || !total)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = rt_sticky();
    if (e == cudaSuccess)
        rt_mem_info(free_bytes, total);
    return rt_set_error(e);
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return rt_set_error(cudaErrorInvalidValue);
    *driverVersion = FE_PTX_DRIVER_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return rt_set_error(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
    rt_profiler(true);
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    rt_profiler(false);
    return cudaSuccess;
}

/* Driver functions by name, for programs and libraries that call the driver
 * without linking libcuda (cu_proc.c). */
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *driverStatus)
{
    if (!symbol || !funcPtr || strncmp(symbol, "cu", 2) != 0 || strlen(symbol) > 200 ||
        (flags & ~(unsigned long long)(cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream)))
        return rt_set_error(cudaErrorInvalidValue);
    /* The statuses have the driver's numbers.  Not finding a symbol is an
     * answer, not an error (CUDA's rule). */
    int status = rt_driver_entry(symbol, (int)cudaVersion, flags, funcPtr);
    if (driverStatus)
        *driverStatus = (enum cudaDriverEntryPointQueryResult)status;
    return cudaSuccess;
}
RT_ALIAS(cudaGetDriverEntryPointByVersion, cudaGetDriverEntryPointByVersion_ptsz);

/* Deprecated in CUDA 13 for ...ByVersion, and still imported by programs. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}
RT_ALIAS(cudaGetDriverEntryPoint, cudaGetDriverEntryPoint_ptsz);
#pragma GCC diagnostic pop

/* ---- peers and the PCI address (one device; cu_peer.c says why) ---------- */

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return rt_set_error(cudaErrorInvalidValue);
    CHECK_DEVICE(device);
    CHECK_DEVICE(peerDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    if (flags)
        return rt_set_error(cudaErrorInvalidValue);
    CHECK_DEVICE(peerDevice);
    return rt_set_error(cudaErrorInvalidDevice);    /* the current device itself */
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    CHECK_DEVICE(peerDevice);
    return rt_set_error(cudaErrorPeerAccessNotEnabled);
}

cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice)
{
    if (!value)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(cudaErrorInvalidDevice);    /* needs two different devices */
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0)
        return rt_set_error(cudaErrorInvalidValue);
    CHECK_DEVICE(device);
    int domain = 0, bus = 0, dev = 0;
    rt_device_attribute(cudaDevAttrPciDomainId, &domain);
    rt_device_attribute(cudaDevAttrPciBusId, &bus);
    rt_device_attribute(cudaDevAttrPciDeviceId, &dev);
    snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", (unsigned)domain, (unsigned)bus, (unsigned)dev);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId)
        return rt_set_error(cudaErrorInvalidValue);
    CUdevice d = 0;
    CUresult r = cuDeviceGetByPCIBusId(&d, pciBusId);
    if (r != CUDA_SUCCESS)
        return rt_set_error(r == CUDA_ERROR_INVALID_DEVICE ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    *device = (int)d;
    return cudaSuccess;
}

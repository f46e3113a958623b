/*
 * api_device -- the device calls: count and selection, properties and
 * attributes (one description, so they must agree with each other and with
 * cudaMemGetInfo), flags, limits, versions, reset; and misuse of each.
 */
#include "rt_test.h"

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main()
{
    test_name = "api_device";
    int n = -1, dev = -1;
    OK(cudaGetDeviceCount(&n));
    EXPECT(n == 1);
    OK(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    OK(cudaSetDevice(0));
    EXPECT_MISUSE(cudaSetDevice(1), cudaErrorInvalidDevice);
    EXPECT_MISUSE(cudaSetDevice(-1), cudaErrorInvalidDevice);
    EXPECT_MISUSE(cudaGetDeviceCount(NULL), cudaErrorInvalidValue);

    cudaDeviceProp p;
    OK(cudaGetDeviceProperties(&p, 0));
    EXPECT(std::strstr(p.name, "ptxsim") != NULL);
    const char *sm = std::getenv("PTXSIM_SM");
    int want_cc = sm && *sm ? std::atoi(sm) : 90;
    EXPECT(p.major * 10 + p.minor == want_cc);
    EXPECT(p.warpSize == 32);
    EXPECT(p.maxThreadsPerBlock == 1024);
    EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[2] == 64);
    EXPECT(p.maxGridSize[0] == 0x7FFFFFFF && p.maxGridSize[1] == 65535);
    EXPECT(p.maxThreadsPerMultiProcessor == 2048);
    EXPECT(p.regsPerMultiprocessor == 65536);
    EXPECT(p.sharedMemPerBlock == 48 * 1024);
    EXPECT(p.sharedMemPerBlockOptin == 227 * 1024);
    EXPECT(p.sharedMemPerMultiprocessor == 228 * 1024);
    EXPECT(p.managedMemory == 1 && p.unifiedAddressing == 1 && p.canMapHostMemory == 1);
    EXPECT(p.l2CacheSize > 0 && p.memoryBusWidth > 0);
    EXPECT(p.totalConstMem == 64 * 1024);
    /* The image limits of compute capability 8.x/9.0, in the properties
     * and the attributes alike; pools and (sm_90) clusters. */
    EXPECT(p.maxTexture1D == 131072 && p.maxTexture2D[0] == 131072 && p.maxTexture2D[1] == 65536);
    EXPECT(p.maxTexture3D[2] == 16384 && p.maxTextureCubemap == 32768 && p.maxTexture2DLayered[2] == 2048);
    EXPECT(p.maxSurface2D[0] == 131072 && p.maxSurface3D[0] == 16384 && p.maxSurfaceCubemapLayered[1] == 2046);
    int a = 0;
    OK(cudaDeviceGetAttribute(&a, cudaDevAttrMaxTexture2DLinearPitch, 0));
    EXPECT(a == p.maxTexture2DLinear[2] && a > 0);
    OK(cudaDeviceGetAttribute(&a, cudaDevAttrMaxSurface1DLayeredLayers, 0));
    EXPECT(a == p.maxSurface1DLayered[1] && a > 0);
    EXPECT(p.memoryPoolsSupported == 1 && p.clusterLaunch == (p.major >= 9));
    EXPECT_MISUSE(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);

    /* Attributes and properties come from one description. */
    int v = 0;
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == p.multiProcessorCount);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == p.major);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    EXPECT((size_t)v == p.sharedMemPerBlockOptin);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v > 1000000);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0));
    EXPECT(v > 1000000);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0));
    EXPECT(v == p.l2CacheSize);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxBlocksPerMultiprocessor, 0));
    EXPECT(v == p.maxBlocksPerMultiProcessor);
    EXPECT_MISUSE(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 2), cudaErrorInvalidDevice);

    /* Memory reported consistently. */
    size_t free0 = 0, total = 0, free1 = 0;
    OK(cudaMemGetInfo(&free0, &total));
    EXPECT(total == p.totalGlobalMem);
    EXPECT(total >= (64ull << 30));
    EXPECT(free0 <= total);
    void *big = NULL;
    OK(cudaMalloc(&big, 64 << 20));
    OK(cudaMemGetInfo(&free1, &total));
    EXPECT(free0 - free1 >= (64u << 20));
    OK(cudaFree(big));

    int chosen = -1;
    OK(cudaChooseDevice(&chosen, &p));
    EXPECT(chosen == 0);
    EXPECT_MISUSE(cudaChooseDevice(&chosen, NULL), cudaErrorInvalidValue);

    /* Flags. */
    unsigned flags = 0;
    OK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    OK(cudaGetDeviceFlags(&flags));
    EXPECT((flags & cudaDeviceScheduleBlockingSync) && (flags & cudaDeviceMapHost));
    EXPECT_MISUSE(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaSetDeviceFlags(0x10000), cudaErrorInvalidValue);

    /* Limits. */
    size_t lim = 0;
    OK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    EXPECT(lim == 1024);
    OK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    OK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    EXPECT(lim == 4096);
    OK(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize));
    EXPECT(lim == (1 << 20));
    OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
    OK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    EXPECT(lim == (32u << 20));
    EXPECT_MISUSE(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 100), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaDeviceGetLimit(&lim, (cudaLimit)77), cudaErrorUnsupportedLimit);

    int lo = 1, hi = 1;
    OK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    EXPECT(lo == 0 && hi < 0);

    int drv = 0, rtv = 0;
    OK(cudaDriverGetVersion(&drv));
    OK(cudaRuntimeGetVersion(&rtv));
    EXPECT(drv >= 13000 && rtv >= 13000);
    EXPECT_MISUSE(cudaRuntimeGetVersion(NULL), cudaErrorInvalidValue);

    /* Reset frees memory; the device keeps working. */
    int *d = NULL;
    OK(cudaMalloc(&d, 32 * sizeof(int)));
    OK(cudaDeviceReset());
    EXPECT_MISUSE(cudaFree(d), cudaErrorInvalidValue);      /* freed by the reset */
    OK(cudaMalloc(&d, 32 * sizeof(int)));
    touch<<<1, 32>>>(d);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    int h[32];
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[31] == 31);
    OK(cudaFree(d));
    /* The deprecated shared-memory bank configuration: remembered, the
     * default read as the width it stands for (four bytes). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    cudaSharedMemConfig smc = (cudaSharedMemConfig)-1;
    OK(cudaDeviceGetSharedMemConfig(&smc));
    EXPECT(smc == cudaSharedMemBankSizeFourByte);
    OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    OK(cudaDeviceGetSharedMemConfig(&smc));
    EXPECT(smc == cudaSharedMemBankSizeEightByte);
    OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault));
    OK(cudaDeviceGetSharedMemConfig(&smc));
    EXPECT(smc == cudaSharedMemBankSizeFourByte);
    EXPECT_MISUSE(cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)3), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaDeviceGetSharedMemConfig(NULL), cudaErrorInvalidValue);
    OK(cudaFuncSetSharedMemConfig((const void *)touch, cudaSharedMemBankSizeEightByte));
    EXPECT_MISUSE(cudaFuncSetSharedMemConfig((const void *)touch, (cudaSharedMemConfig)7), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaFuncSetSharedMemConfig((const void *)&n, cudaSharedMemBankSizeFourByte),
                  cudaErrorInvalidDeviceFunction);
#pragma GCC diagnostic pop
    /* No persisting L2 lines, nothing to reset. */
    OK(cudaCtxResetPersistingL2Cache());

    /* Driver functions by name, as libraries reach them. */
    void *fn = NULL;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    OK(cudaGetDriverEntryPointByVersion("cuDeviceGetCount", &fn, 13000, cudaEnableDefault, &q));
    EXPECT(q == cudaDriverEntryPointSuccess && fn != NULL);
    int drv_count = 0;
    if (fn)
        EXPECT(((int (*)(int *))fn)(&drv_count) == 0 && drv_count == 1);
    OK(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &q));
    EXPECT(q == cudaDriverEntryPointSymbolNotFound);

    OK(cudaProfilerStart());
    OK(cudaProfilerStop());
    return finish();
}

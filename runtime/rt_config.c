/*
 * rt_config.c -- what the simulated GPU looks like, and ptxsim's settings
 * from the environment (each `ptxsim run` option is also a PTXSIM_*
 * variable, so programs started by scripts can be configured too).
 *
 * rt_device is the one description of the device: cudaGetDeviceProperties,
 * cudaDeviceGetAttribute, cuDeviceGetAttribute, the launch checks, the
 * occupancy calculator and `ptxsim info` all read it.  The default is an
 * H100-class part (SXM5, 80 GB); the compute capability follows PTXSIM_SM.
 */
#define _GNU_SOURCE                     /* sched_getaffinity */
#include "rt_int.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the variable is set to 1. */
static bool env_flag(const char *name)
{
    const char *s = getenv(name);
    return s && strcmp(s, "1") == 0;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end == 'G' || *end == 'g')
        v <<= 30;
    else if (*end == 'M' || *end == 'm')
        v <<= 20;
    else if (*end == 'K' || *end == 'k')
        v <<= 10;
    else if (*end != '\0') {
        rt_say("ignoring %s=%s: not a number", name, s);
        return dflt;
    }
    return v;
}

/* The cores this process may run on (its affinity mask: a container or
 * taskset may allow fewer than the machine has). */
static uint32_t host_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (uint32_t)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1;
}

static void default_device(rt_device *d, uint32_t sm, uint32_t nsm)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "ptxsim H100 (functional)");
    d->cc_major = (int)(sm / 10);
    d->cc_minor = (int)(sm % 10);
    d->sms = (int)nsm;
    d->warp = ISA_WARP_SIZE;
    d->max_threads_block = 1024;
    d->max_block[0] = 1024;
    d->max_block[1] = 1024;
    d->max_block[2] = 64;
    d->max_grid[0] = 0x7FFFFFFF;
    d->max_grid[1] = 65535;
    d->max_grid[2] = 65535;
    d->max_threads_sm = 2048;
    d->max_blocks_sm = 32;
    d->regs_sm = 65536;
    d->regs_block = 65536;
    d->max_regs_thread = 255;
    d->reg_alloc_unit = 256;
    d->shared_sm = 228 * 1024;
    d->shared_block = 48 * 1024;
    d->shared_block_optin = 227 * 1024;
    d->shared_reserved_block = 1024;
    d->const_bytes = 64 * 1024;
    d->l2_bytes = 50 * 1024 * 1024;
    d->clock_khz = 1980000;             /* boost clock of the SXM5 part */
    d->mem_clock_khz = 2619000;         /* HBM3 */
    d->mem_bus_bits = 5120;
    d->async_engines = 3;
    d->stream_prio_least = 0;
    d->stream_prio_greatest = -5;
    static const unsigned char uuid[16] = { 'p', 't', 'x', 's', 'i', 'm', '-', 'H', '1', '0', '0',
                                            '-', 'f', 'u', 'n', 'c' };
    memcpy(d->uuid, uuid, sizeof d->uuid);
}

bool rt_check_parse(const char *list, bool *out_memory, bool *out_race, bool *out_race_global)
{
    bool memory = false, race = false, global = false;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 6 && strncmp(p, "memory", n) == 0)
            memory = true;
        else if (n == 4 && strncmp(p, "race", n) == 0)
            race = true;
        else if (n == 11 && strncmp(p, "race-global", n) == 0)
            race = global = true;
        else if (!(n == 4 && strncmp(p, "none", n) == 0))
            return false;
        p += n + (p[n] == ',');
    }
    *out_memory = memory;
    *out_race = race;
    if (out_race_global)
        *out_race_global = global;
    return true;
}

void rt_config_load(rt_config *cfg)
{
    cfg->quiet = env_u64("PTXSIM_QUIET", 0) != 0;
    cfg->trace_driver = env_u64("PTXSIM_TRACE_DRIVER", 0) != 0;
    cfg->sm = (uint32_t)env_u64("PTXSIM_SM", 90);
    if (cfg->sm < 50 || cfg->sm > 129) {
        rt_say("ignoring PTXSIM_SM=%u: expected a compute capability such as 75, 80 or 90", cfg->sm);
        cfg->sm = 90;
    }
    uint32_t nsm = (uint32_t)env_u64("PTXSIM_NSM", 132);
    if (nsm == 0 || nsm > 4096) {
        rt_say("ignoring PTXSIM_NSM=%u: expected 1 to 4096 SMs", nsm);
        nsm = 132;
    }
    cfg->max_warp_insts = env_u64("PTXSIM_MAX_INSTS", EXEC_DEFAULT_MAX_WARP_INSTS);
    const char *threads = getenv("PTXSIM_THREADS");
    cfg->threads_set = threads && *threads;
    cfg->threads = (uint32_t)env_u64("PTXSIM_THREADS", 0);
    if (cfg->threads_set && (cfg->threads == 0 || cfg->threads > 1024)) {
        rt_say("ignoring PTXSIM_THREADS=%s: expected 1 to 1024 threads", threads);
        cfg->threads_set = false;
        cfg->threads = 0;
    }
    if (!cfg->threads)
        cfg->threads = host_cores();
    /* The compiled tier by default: code too brief to become hot never
     * waits for LLVM, and what does runs compiled (docs/results/jit.md). */
    const char *engine = getenv("PTXSIM_ENGINE");
    cfg->engine = EXEC_ENGINE_JIT;
    if (engine && strcmp(engine, "interp") == 0)
        cfg->engine = EXEC_ENGINE_INTERP;
    else if (engine && *engine && strcmp(engine, "jit") != 0)
        rt_say("ignoring PTXSIM_ENGINE=%s: expected interp or jit", engine);
    uint64_t hot = env_u64("PTXSIM_JIT_HOT", EXEC_JIT_HOT);
    cfg->jit_hot = hot > UINT32_MAX ? UINT32_MAX : (uint32_t)hot;
    uint64_t warm = env_u64("PTXSIM_JIT_WARM", EXEC_JIT_WARM);
    cfg->jit_warm = warm > UINT32_MAX ? UINT32_MAX : (uint32_t)warm;
    cfg->verbose = env_flag("PTXSIM_VERBOSE");
    /* Independent thread scheduling came with Volta (7.0). */
    cfg->lockstep = env_flag("PTXSIM_LOCKSTEP") || cfg->sm < 70;
    cfg->async = !env_flag("PTXSIM_SYNC");
    cfg->jit_quick_only = env_flag("PTXSIM_JIT_QUICK_ONLY");
    /* 80 GB as on the part; only touched pages cost host memory. */
    cfg->memory_bytes = env_u64("PTXSIM_MEMORY", 80ull << 30);
    const char *stats = getenv("PTXSIM_STATS");
    cfg->stats_path = stats && *stats ? stats : NULL;
    const char *format = getenv("PTXSIM_STATS_FORMAT");
    cfg->stats_gpgpusim = format && strcmp(format, "gpgpusim") == 0;
    if (format && *format && !cfg->stats_gpgpusim && strcmp(format, "json") != 0)
        rt_say("ignoring PTXSIM_STATS_FORMAT=%s: expected json or gpgpusim", format);
    const char *check = getenv("PTXSIM_CHECK");
    if (check && *check &&
        !rt_check_parse(check, &cfg->check_memory, &cfg->check_race, &cfg->check_race_global))
        rt_say("ignoring PTXSIM_CHECK=%s: expected memory, race, race-global, a list of them "
               "(memory,race) or none", check);
    default_device(&cfg->dev, cfg->sm, nsm);
    cfg->dev.memory_bytes = cfg->memory_bytes;
    const char *mode = getenv("PTXSIM_MODE");
    if (mode && strcmp(mode, "timing") == 0) {
        /* A bad configuration must not silently give functional results
         * where cycles were asked for. */
        if (!rt_timing_init())
            exit(2);
        cfg->timing = true;
        rt_timing_device(&cfg->dev);
    } else if (mode && *mode && strcmp(mode, "functional") != 0)
        rt_say("ignoring PTXSIM_MODE=%s: expected functional or timing", mode);
}

const rt_device *rt_device_get(void)
{
    rt_lock();
    const rt_device *d = &rt.cfg.dev;
    rt_unlock();
    return d;
}

/* The largest textures and surfaces, as the CUDA Programming Guide's
 * technical specifications give them for compute capability 8.x and 9.0
 * (every preset's; ptxsim's own images have no limit below these). */
static const struct {
    int attr, value;
} image_limits[] = {
    { cudaDevAttrMaxTexture1DWidth, 131072 },
    { cudaDevAttrMaxTexture1DMipmappedWidth, 32768 },
    { cudaDevAttrMaxTexture1DLinearWidth, 1 << 28 },
    { cudaDevAttrMaxTexture2DWidth, 131072 },
    { cudaDevAttrMaxTexture2DHeight, 65536 },
    { cudaDevAttrMaxTexture2DMipmappedWidth, 32768 },
    { cudaDevAttrMaxTexture2DMipmappedHeight, 32768 },
    { cudaDevAttrMaxTexture2DLinearWidth, 131072 },
    { cudaDevAttrMaxTexture2DLinearHeight, 65000 },
    { cudaDevAttrMaxTexture2DLinearPitch, 2097120 },
    { cudaDevAttrMaxTexture2DGatherWidth, 32768 },
    { cudaDevAttrMaxTexture2DGatherHeight, 32768 },
    { cudaDevAttrMaxTexture3DWidth, 16384 },
    { cudaDevAttrMaxTexture3DHeight, 16384 },
    { cudaDevAttrMaxTexture3DDepth, 16384 },
    { cudaDevAttrMaxTexture3DWidthAlt, 8192 },
    { cudaDevAttrMaxTexture3DHeightAlt, 8192 },
    { cudaDevAttrMaxTexture3DDepthAlt, 32768 },
    { cudaDevAttrMaxTextureCubemapWidth, 32768 },
    { cudaDevAttrMaxTexture1DLayeredWidth, 32768 },
    { cudaDevAttrMaxTexture1DLayeredLayers, 2048 },
    { cudaDevAttrMaxTexture2DLayeredWidth, 32768 },
    { cudaDevAttrMaxTexture2DLayeredHeight, 32768 },
    { cudaDevAttrMaxTexture2DLayeredLayers, 2048 },
    { cudaDevAttrMaxTextureCubemapLayeredWidth, 32768 },
    { cudaDevAttrMaxTextureCubemapLayeredLayers, 2046 },
    { cudaDevAttrMaxSurface1DWidth, 32768 },
    { cudaDevAttrMaxSurface2DWidth, 131072 },
    { cudaDevAttrMaxSurface2DHeight, 65536 },
    { cudaDevAttrMaxSurface3DWidth, 16384 },
    { cudaDevAttrMaxSurface3DHeight, 16384 },
    { cudaDevAttrMaxSurface3DDepth, 16384 },
    { cudaDevAttrMaxSurface1DLayeredWidth, 32768 },
    { cudaDevAttrMaxSurface1DLayeredLayers, 2048 },
    { cudaDevAttrMaxSurface2DLayeredWidth, 32768 },
    { cudaDevAttrMaxSurface2DLayeredHeight, 32768 },
    { cudaDevAttrMaxSurface2DLayeredLayers, 2048 },
    { cudaDevAttrMaxSurfaceCubemapWidth, 32768 },
    { cudaDevAttrMaxSurfaceCubemapLayeredWidth, 32768 },
    { cudaDevAttrMaxSurfaceCubemapLayeredLayers, 2046 },
};

cudaError_t rt_device_attribute(int attr, int *value)
{
    rt_lock();
    const rt_device *d = &rt.cfg.dev;
    rt_unlock();
    int v = 0;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = d->max_threads_block; break;
    case cudaDevAttrMaxBlockDimX: v = d->max_block[0]; break;
    case cudaDevAttrMaxBlockDimY: v = d->max_block[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = d->max_block[2]; break;
    case cudaDevAttrMaxGridDimX: v = d->max_grid[0]; break;
    case cudaDevAttrMaxGridDimY: v = d->max_grid[1]; break;
    case cudaDevAttrMaxGridDimZ: v = d->max_grid[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = d->shared_block; break;
    case cudaDevAttrTotalConstantMemory: v = d->const_bytes; break;
    case cudaDevAttrWarpSize: v = d->warp; break;
    case cudaDevAttrMaxPitch: v = 0x7FFFFFFF; break;
    case cudaDevAttrMaxRegistersPerBlock: v = d->regs_block; break;
    case cudaDevAttrClockRate: v = d->clock_khz; break;
    case cudaDevAttrTextureAlignment: v = 512; break;
    case cudaDevAttrGpuOverlap: v = 1; break;
    case cudaDevAttrMultiProcessorCount: v = d->sms; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrIntegrated: v = 0; break;
    case cudaDevAttrCanMapHostMemory: v = 1; break;
    case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
    case cudaDevAttrSurfaceAlignment: v = 512; break;
    case cudaDevAttrConcurrentKernels: v = 1; break;
    case cudaDevAttrEccEnabled: v = 0; break;
    case cudaDevAttrPciBusId: v = 0; break;
    case cudaDevAttrPciDeviceId: v = 0; break;
    case cudaDevAttrTccDriver: v = 0; break;
    case cudaDevAttrMemoryClockRate: v = d->mem_clock_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = d->mem_bus_bits; break;
    case cudaDevAttrL2CacheSize: v = d->l2_bytes; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = d->max_threads_sm; break;
    case cudaDevAttrAsyncEngineCount: v = d->async_engines; break;
    case cudaDevAttrUnifiedAddressing: v = 1; break;
    case cudaDevAttrPciDomainId: v = 0; break;
    case cudaDevAttrTexturePitchAlignment: v = 32; break;
    case cudaDevAttrComputeCapabilityMajor: v = d->cc_major; break;
    case cudaDevAttrComputeCapabilityMinor: v = d->cc_minor; break;
    case cudaDevAttrStreamPrioritiesSupported: v = 1; break;
    case cudaDevAttrGlobalL1CacheSupported: v = 1; break;
    case cudaDevAttrLocalL1CacheSupported: v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = d->shared_sm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = d->regs_sm; break;
    case cudaDevAttrManagedMemory: v = 1; break;
    case cudaDevAttrIsMultiGpuBoard: v = 0; break;
    case cudaDevAttrMultiGpuBoardGroupID: v = 0; break;
    case cudaDevAttrHostNativeAtomicSupported: v = 0; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = 2; break;
    case cudaDevAttrPageableMemoryAccess: v = 0; break;
    /* Managed memory is one allocation both sides use directly. */
    case cudaDevAttrConcurrentManagedAccess: v = 1; break;
    case cudaDevAttrComputePreemptionSupported: v = 1; break;
    /* Registered host memory is mirrored in device memory (rt_memory.c), so
     * kernels must use the pointer cudaHostGetDevicePointer returns. */
    case cudaDevAttrCanUseHostPointerForRegisteredMem: v = 0; break;
    case cudaDevAttrCooperativeLaunch: v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = d->shared_block_optin; break;
    case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
    case cudaDevAttrHostRegisterSupported: v = 1; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: v = 0; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: v = 1; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = d->max_blocks_sm; break;
    case cudaDevAttrMaxPersistingL2CacheSize: v = 0; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: v = 0; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = d->shared_reserved_block; break;
    case cudaDevAttrHostRegisterReadOnlySupported: v = 1; break;
    case cudaDevAttrMemoryPoolsSupported: v = 1; break;   /* rt_pool.c, both APIs */
    case 102: v = 1; break;     /* CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED (cu_vmm.c) */
    case cudaDevAttrClusterLaunch: v = d->cc_major >= 9; break;   /* thread block clusters: sm_90 on */
    case cudaDevAttrMemSyncDomainCount: v = 1; break;
    case cudaDevAttrNumaConfig: v = 0; break;
    case cudaDevAttrNumaId: v = -1; break;
    case cudaDevAttrHostNumaId: v = -1; break;
    default:
        v = 0;
        for (size_t i = 0; i < sizeof image_limits / sizeof image_limits[0]; i++)
            if (image_limits[i].attr == attr)
                v = image_limits[i].value;
        /* Interop and the like: ptxsim has none. */
        if (attr <= 0 || attr > cudaDevAttrOnlyPartialHostNativeAtomicSupported)
            return cudaErrorInvalidValue;
        break;
    }
    *value = v;
    return cudaSuccess;
}

static int attr(int a)
{
    int v = 0;
    rt_device_attribute(a, &v);
    return v;
}

void rt_device_props(struct cudaDeviceProp *p)
{
    rt_lock();
    const rt_device *d = &rt.cfg.dev;
    uint64_t total = rt.mem ? exec_memory_capacity(rt.mem) : d->memory_bytes;
    rt_unlock();
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", d->name);
    memcpy(&p->uuid, d->uuid, sizeof p->uuid);
    p->totalGlobalMem = total;
    p->sharedMemPerBlock = (size_t)d->shared_block;
    p->regsPerBlock = d->regs_block;
    p->warpSize = d->warp;
    p->memPitch = (size_t)attr(cudaDevAttrMaxPitch);
    p->maxThreadsPerBlock = d->max_threads_block;
    memcpy(p->maxThreadsDim, d->max_block, sizeof p->maxThreadsDim);
    memcpy(p->maxGridSize, d->max_grid, sizeof p->maxGridSize);
    p->totalConstMem = (size_t)d->const_bytes;
    p->major = d->cc_major;
    p->minor = d->cc_minor;
    p->textureAlignment = (size_t)attr(cudaDevAttrTextureAlignment);
    p->texturePitchAlignment = (size_t)attr(cudaDevAttrTexturePitchAlignment);
    p->multiProcessorCount = d->sms;
    p->canMapHostMemory = 1;
    p->surfaceAlignment = (size_t)attr(cudaDevAttrSurfaceAlignment);
    p->concurrentKernels = 1;
    p->asyncEngineCount = d->async_engines;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = d->mem_bus_bits;
    p->l2CacheSize = d->l2_bytes;
    p->maxThreadsPerMultiProcessor = d->max_threads_sm;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = (size_t)d->shared_sm;
    p->regsPerMultiprocessor = d->regs_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = attr(cudaDevAttrConcurrentManagedAccess);
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = attr(cudaDevAttrCanUseHostPointerForRegisteredMem);
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = (size_t)d->shared_block_optin;
    p->directManagedMemAccessFromHost = attr(cudaDevAttrDirectManagedMemAccessFromHost);
    p->maxBlocksPerMultiProcessor = d->max_blocks_sm;
    p->reservedSharedMemPerBlock = (size_t)d->shared_reserved_block;
    p->hostRegisterSupported = 1;
    p->hostRegisterReadOnlySupported = 1;
    p->memoryPoolsSupported = attr(cudaDevAttrMemoryPoolsSupported);
    p->clusterLaunch = attr(cudaDevAttrClusterLaunch);
#define A(name) attr(cudaDevAttr##name)
    p->maxTexture1D = A(MaxTexture1DWidth);
    p->maxTexture1DMipmap = A(MaxTexture1DMipmappedWidth);
    p->maxTexture2D[0] = A(MaxTexture2DWidth), p->maxTexture2D[1] = A(MaxTexture2DHeight);
    p->maxTexture2DMipmap[0] = A(MaxTexture2DMipmappedWidth), p->maxTexture2DMipmap[1] = A(MaxTexture2DMipmappedHeight);
    p->maxTexture2DLinear[0] = A(MaxTexture2DLinearWidth), p->maxTexture2DLinear[1] = A(MaxTexture2DLinearHeight);
    p->maxTexture2DLinear[2] = A(MaxTexture2DLinearPitch);
    p->maxTexture2DGather[0] = A(MaxTexture2DGatherWidth), p->maxTexture2DGather[1] = A(MaxTexture2DGatherHeight);
    p->maxTexture3D[0] = A(MaxTexture3DWidth), p->maxTexture3D[1] = A(MaxTexture3DHeight);
    p->maxTexture3D[2] = A(MaxTexture3DDepth);
    p->maxTexture3DAlt[0] = A(MaxTexture3DWidthAlt), p->maxTexture3DAlt[1] = A(MaxTexture3DHeightAlt);
    p->maxTexture3DAlt[2] = A(MaxTexture3DDepthAlt);
    p->maxTextureCubemap = A(MaxTextureCubemapWidth);
    p->maxTexture1DLayered[0] = A(MaxTexture1DLayeredWidth), p->maxTexture1DLayered[1] = A(MaxTexture1DLayeredLayers);
    p->maxTexture2DLayered[0] = A(MaxTexture2DLayeredWidth), p->maxTexture2DLayered[1] = A(MaxTexture2DLayeredHeight);
    p->maxTexture2DLayered[2] = A(MaxTexture2DLayeredLayers);
    p->maxTextureCubemapLayered[0] = A(MaxTextureCubemapLayeredWidth);
    p->maxTextureCubemapLayered[1] = A(MaxTextureCubemapLayeredLayers);
    p->maxSurface1D = A(MaxSurface1DWidth);
    p->maxSurface2D[0] = A(MaxSurface2DWidth), p->maxSurface2D[1] = A(MaxSurface2DHeight);
    p->maxSurface3D[0] = A(MaxSurface3DWidth), p->maxSurface3D[1] = A(MaxSurface3DHeight);
    p->maxSurface3D[2] = A(MaxSurface3DDepth);
    p->maxSurface1DLayered[0] = A(MaxSurface1DLayeredWidth), p->maxSurface1DLayered[1] = A(MaxSurface1DLayeredLayers);
    p->maxSurface2DLayered[0] = A(MaxSurface2DLayeredWidth), p->maxSurface2DLayered[1] = A(MaxSurface2DLayeredHeight);
    p->maxSurface2DLayered[2] = A(MaxSurface2DLayeredLayers);
    p->maxSurfaceCubemap = A(MaxSurfaceCubemapWidth);
    p->maxSurfaceCubemapLayered[0] = A(MaxSurfaceCubemapLayeredWidth);
    p->maxSurfaceCubemapLayered[1] = A(MaxSurfaceCubemapLayeredLayers);
#undef A
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

cudaError_t rt_limit_set(int limit, size_t value)
{
    cudaError_t e = cudaSuccess;
    rt_lock();
    switch (limit) {
    case cudaLimitMallocHeapSize:
        /* The heap is made at the first launch that may call malloc or
         * free, and stays: after that, the limit is fixed (CUDA's rule). */
        if (rt.mem && exec_heap_made(rt.mem)) {
            e = cudaErrorInvalidValue;
            break;
        }
        rt.limits[limit] = value;
        break;
    case cudaLimitStackSize:
    case cudaLimitPrintfFifoSize:
    case cudaLimitDevRuntimePendingLaunchCount:
        rt.limits[limit] = value;
        break;
    case cudaLimitMaxL2FetchGranularity:
        /* A power of two from 0 to 128 bytes (CUDA's rule). */
        if (value > 128 || (value & (value - 1)))
            e = cudaErrorInvalidValue;
        else
            rt.limits[limit] = value;
        break;
    case cudaLimitPersistingL2CacheSize:
        /* The device reports no persisting L2 (cudaDevAttrMaxPersistingL2CacheSize 0). */
        if (value)
            e = cudaErrorInvalidValue;
        break;
    default:
        /* cudaLimitDevRuntimeSyncDepth is gone since compute capability 9.0,
         * as is device-side synchronisation in ptxsim. */
        e = cudaErrorUnsupportedLimit;
        break;
    }
    rt_unlock();
    return e;
}

cudaError_t rt_limit_get(int limit, size_t *value)
{
    if (!value)
        return cudaErrorInvalidValue;
    if (limit < 0 || limit > cudaLimitPersistingL2CacheSize || limit == cudaLimitDevRuntimeSyncDepth)
        return cudaErrorUnsupportedLimit;
    rt_lock();
    *value = rt.limits[limit];
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_device_flags_set(unsigned flags)
{
    unsigned sched = flags & cudaDeviceScheduleMask;
    unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax |
                     cudaDeviceSyncMemops;
    /* One scheduling policy at most. */
    if ((flags & ~known) || (sched & (sched - 1)))
        return cudaErrorInvalidValue;
    rt_lock();
    rt.device_flags = flags;
    rt_unlock();
    return cudaSuccess;
}

unsigned rt_device_flags_get(void)
{
    rt_lock();
    /* Host memory is always mappable, as with unified addressing. */
    unsigned f = rt.device_flags | cudaDeviceMapHost;
    rt_unlock();
    return f;
}

/* Shared memory banks are four bytes wide from compute capability 5.0 on,
 * and the width can no longer be changed, so the setting changes nothing;
 * it is remembered for the programs that read it back.  The default reads
 * as the width it stands for. */
cudaError_t rt_shared_mem_config(int *config, bool set)
{
    if (!config || (set && (unsigned)*config > cudaSharedMemBankSizeEightByte))
        return cudaErrorInvalidValue;
    rt_lock();
    if (set)
        rt.shared_mem_config = *config;
    else
        *config = rt.shared_mem_config == cudaSharedMemBankSizeEightByte ? cudaSharedMemBankSizeEightByte
                                                                          : cudaSharedMemBankSizeFourByte;
    rt_unlock();
    return cudaSuccess;
}

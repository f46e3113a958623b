/*
 * cudart_launch.c -- the runtime API's launches and kernel queries: the
 * call configuration of `<<<>>>`, nvcc 13's __cudaGetKernel /
 * __cudaLaunchKernel, clang's cudaLaunchKernel, cudaLaunchKernelExC,
 * cooperative launches, kernel attributes and the occupancy calculator.
 * Every launch goes to rt_launch (rt_launch.c).
 */
#include "cudart_entry.h"
#include "rt_int.h"

#include <string.h>

/* `<<<g, b, s, st>>>` pushes a configuration; the host stub pops it. */
typedef struct call_config {
    dim3 grid, block;
    size_t shared;
    void *stream;
} call_config;

static _Thread_local call_config config_stack[16];
static _Thread_local unsigned config_depth;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream)
{
    if (config_depth == 16)
        return (unsigned)rt_set_error(cudaErrorInvalidConfiguration);
    config_stack[config_depth++] = (call_config){ gridDim, blockDim, sharedMem, stream };
    return cudaSuccess;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (config_depth == 0)
        return rt_set_error(cudaErrorMissingConfiguration);
    call_config c = config_stack[--config_depth];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *(void **)stream = c.stream;
    return cudaSuccess;
}

static cudaError_t launch(rt_func *f, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream, bool cooperative, const uint32_t cluster[3])
{
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    rt_launch_req r = {
        .cluster = { cluster ? cluster[0] : 0, cluster ? cluster[1] : 0, cluster ? cluster[2] : 0 },
        .f = f,
        .grid = { grid.x, grid.y, grid.z },
        .block = { block.x, block.y, block.z },
        .shared = shared,
        .stream = stream,
        .args = args,
        .cooperative = cooperative,
    };
    return rt_set_error(rt_launch(&r));
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    RT_ASYNC_ENTRY();
    rt_func *f = rt_func_lookup(hostFun);
    if (!f || !kernel)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    *kernel = (cudaKernel_t)f;
    return cudaSuccess;
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    if (!kernelPtr)
        return rt_set_error(cudaErrorInvalidValue);
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    rt_func *f = rt_func_lookup(symbolPtr);
    if (!functionPtr)
        return rt_set_error(cudaErrorInvalidValue);
    if (!f || rt_func_resolve(f) != cudaSuccess)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    *functionPtr = (cudaFunction_t)f;
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    rt_func *f = rt_func_lookup(kernel);
    if (!f)
        return rt_set_error(cudaErrorInvalidResourceHandle);
    return launch(f, gridDim, blockDim, args, sharedMem, stream, false, NULL);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return launch(rt_func_lookup(func), gridDim, blockDim, args, sharedMem, stream, false, NULL);
}
RT_ALIAS(cudaLaunchKernel, cudaLaunchKernel_ptsz);

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    /* The engine runs a grid's blocks one after another, so a grid-wide
     * barrier in the kernel cannot complete yet; the launch itself is
     * checked and run as CUDA would. */
    return launch(rt_func_lookup(func), gridDim, blockDim, args, sharedMem, stream, true, NULL);
}
RT_ALIAS(cudaLaunchCooperativeKernel, cudaLaunchCooperativeKernel_ptsz);

/* What a launch configuration's attributes ask for: a cooperative launch,
 * cluster dimensions (0: none).  Priorities, policies and hints have no
 * effect here. */
static void launch_attrs(const cudaLaunchConfig_t *config, bool *cooperative, uint32_t cluster[3])
{
    cluster[0] = cluster[1] = cluster[2] = 0;
    for (unsigned i = 0; config && i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative)
            *cooperative = a->val.cooperative != 0;
        else if (a->id == cudaLaunchAttributeClusterDimension) {
            cluster[0] = a->val.clusterDim.x;
            cluster[1] = a->val.clusterDim.y;
            cluster[2] = a->val.clusterDim.z;
        }
    }
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    RT_ASYNC_ENTRY();
    if (!config || (config->numAttrs && !config->attrs))
        return rt_set_error(cudaErrorInvalidValue);
    bool cooperative = false;
    uint32_t cluster[3];
    launch_attrs(config, &cooperative, cluster);
    return launch(rt_func_lookup(func), config->gridDim, config->blockDim, args,
                  config->dynamicSmemBytes, config->stream, cooperative, cluster);
}
RT_ALIAS(cudaLaunchKernelExC, cudaLaunchKernelExC_ptsz);

/* ---- kernel attributes ------------------------------------------------------ */

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    return rt_set_error(rt_func_attributes(f, attr));
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    return rt_set_error(rt_func_set_attribute(f, (int)attr, value));
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual)
        return rt_set_error(cudaErrorInvalidValue);
    f->cache_config = (int)cacheConfig;
    return cudaSuccess;
}

/* Deprecated, still called by older programs: remembered, changes nothing
 * (rt_shared_mem_config says why). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    if ((unsigned)config > cudaSharedMemBankSizeEightByte)
        return rt_set_error(cudaErrorInvalidValue);
    f->shared_mem_config = (int)config;
    return cudaSuccess;
}
#pragma GCC diagnostic pop

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    rt_func *f = rt_func_lookup(func);
    if (!name)
        return rt_set_error(cudaErrorInvalidValue);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cudaSuccess;
}

/* ---- occupancy ------------------------------------------------------------- */

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    return rt_set_error(rt_occupancy(f, blockSize, dynamicSMemSize, flags, numBlocks));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, cudaOccupancyDefault);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    return rt_set_error(rt_occupancy_smem(f, numBlocks, blockSize, dynamicSmemSize));
}

/* ---- clusters --------------------------------------------------------------- */

static cudaError_t cluster_occupancy(int *out, const void *func, const cudaLaunchConfig_t *config,
                                     bool potential)
{
    rt_func *f = rt_func_lookup(func);
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    if (!out || !config || (config->numAttrs && !config->attrs))
        return rt_set_error(cudaErrorInvalidValue);
    bool cooperative = false;
    uint32_t cluster[3];
    launch_attrs(config, &cooperative, cluster);
    const uint32_t grid[3] = { config->gridDim.x, config->gridDim.y, config->gridDim.z };
    uint32_t threads = config->blockDim.x * config->blockDim.y * config->blockDim.z;
    return rt_set_error(rt_cluster_occupancy(f, cluster, grid, threads, config->dynamicSmemBytes, potential,
                                             out));
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                 const cudaLaunchConfig_t *launchConfig)
{
    return cluster_occupancy(clusterSize, func, launchConfig, true);
}

cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                           const cudaLaunchConfig_t *launchConfig)
{
    return cluster_occupancy(numClusters, func, launchConfig, false);
}

/*
 * cudart_launch.c -- the runtime API's launches and kernel queries: the
 * call configuration of `<<<>>>`, nvcc 13's __cudaGetKernel /
 * __cudaLaunchKernel, clang's cudaLaunchKernel, cudaLaunchKernelExC,
 * cooperative launches, kernel attributes and the occupancy calculator.
 * Every launch goes to rt_launch (rt_launch.c).
 */
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
                          cudaStream_t stream, bool cooperative)
{
    if (!f)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    rt_launch_req r = {
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
    rt_func *f = rt_func_lookup(kernel);
    if (!f)
        return rt_set_error(cudaErrorInvalidResourceHandle);
    return launch(f, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    return launch(rt_func_lookup(func), gridDim, blockDim, args, sharedMem, stream, false);
}
RT_ALIAS(cudaLaunchKernel, cudaLaunchKernel_ptsz);

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    /* The engine runs a grid's blocks one after another, so a grid-wide
     * barrier in the kernel cannot complete yet; the launch itself is
     * checked and run as CUDA would. */
    return launch(rt_func_lookup(func), gridDim, blockDim, args, sharedMem, stream, true);
}
RT_ALIAS(cudaLaunchCooperativeKernel, cudaLaunchCooperativeKernel_ptsz);

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config || (config->numAttrs && !config->attrs))
        return rt_set_error(cudaErrorInvalidValue);
    bool cooperative = false;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeCooperative:
            cooperative = a->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
            /* The device reports no cluster launch. */
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
                return rt_set_error(cudaErrorNotSupported);
            break;
        default:
            break;              /* priorities, policies and hints: no effect here */
        }
    }
    return launch(rt_func_lookup(func), config->gridDim, config->blockDim, args,
                  config->dynamicSmemBytes, config->stream, cooperative);
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

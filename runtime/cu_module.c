/*
 * cu_module.c -- the driver API's modules and launches: PTX text and fat
 * binaries loaded at run time (NVRTC's output, cuModuleLoad of a .ptx or
 * .fatbin file), kernels and globals looked up by name, cuLaunchKernel in
 * both of its argument forms, and kernel attributes.
 */
#include "cu_int.h"

#include <stdlib.h>
#include <string.h>

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    CU_ENTER(true);
    if (!module || !fname)
        return CUDA_ERROR_INVALID_VALUE;
    rt_module *m = NULL;
    cudaError_t e = rt_module_load_file(fname, &m);
    if (e == cudaSuccess)
        *module = (CUmodule)m;
    return rt_cu_result(e);
}

/* caller: who called the entry point, for messages. */
static CUresult load_data(CUmodule *module, const void *image, const void *caller)
{
    CU_ENTER_AS(true, "cuModuleLoadData");
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    rt_module *m = NULL;
    cudaError_t e = rt_module_load_image(image, caller, &m);
    if (e == cudaSuccess)
        *module = (CUmodule)m;
    return rt_cu_result(e);
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return load_data(module, image, __builtin_return_address(0));
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                            CUjit_option *options, void **optionValues)
{
    /* JIT options tune ptxas, which ptxsim does not run; loading reports
     * its problems on stderr and in the error log. */
    if (numOptions && (!options || !optionValues))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = load_data(module, image, __builtin_return_address(0));
    rt_cu_jit_outputs(numOptions, options, optionValues, r == CUDA_SUCCESS ? NULL : rt_module_load_log());
    return r;
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return load_data(module, fatCubin, __builtin_return_address(0));
}

CUresult cuModuleUnload(CUmodule hmod)
{
    CU_ENTER(true);
    return rt_cu_result(rt_module_unload((rt_module *)hmod));
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CU_ENTER(true);
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    rt_func *f = NULL;
    cudaError_t e = rt_module_function((rt_module *)hmod, name, &f);
    if (e == cudaSuccess)
        *hfunc = (CUfunction)f;
    return rt_cu_result(e);
}

CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    CU_ENTER(true);
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t addr = 0;
    size_t n = 0;
    cudaError_t e = rt_module_global((rt_module *)hmod, name, &addr, &n);
    if (e == cudaSuccess) {
        if (dptr)
            *dptr = (CUdeviceptr)addr;
        if (bytes)
            *bytes = n;
    }
    return rt_cu_result(e);
}

rt_func *rt_cu_func(const void *f)
{
    rt_lock();
    rt_func *r = rt_ptrmap_get(&rt.funcs, f);
    rt_unlock();
    return r;
}

static CUresult launch(const char *entry, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shared, CUstream stream, void **params, void **extra,
                       bool cooperative, const uint32_t cluster[3])
{
    CU_ENTER_AS(true, entry);
    rt_func *fn = rt_cu_func(f);
    if (!fn)
        return CUDA_ERROR_INVALID_HANDLE;
    rt_launch_req r = {
        .f = fn,
        .grid = { gx, gy, gz },
        .block = { bx, by, bz },
        .shared = shared,
        .stream = (cudaStream_t)stream,
        .args = params,
        .extra = extra,
        .cooperative = cooperative,
        .cluster = { cluster ? cluster[0] : 0, cluster ? cluster[1] : 0, cluster ? cluster[2] : 0 },
    };
    return rt_cu_result(rt_launch(&r));
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    RT_ASYNC_ENTRY();
    return launch(__func__, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                  hStream, kernelParams, extra, false, NULL);
}
RT_ALIAS(cuLaunchKernel, cuLaunchKernel_ptsz);

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                   unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams)
{
    RT_ASYNC_ENTRY();
    return launch(__func__, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                  hStream, kernelParams, NULL, true, NULL);
}
RT_ALIAS(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel_ptsz);

/* cuLaunchKernelEx: the runtime's launch with the attributes it takes (a
 * cooperative launch, cluster dimensions); the rest are hints. */
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    RT_ASYNC_ENTRY();
    if (!config || (config->numAttrs && !config->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    bool cooperative = false;
    uint32_t cluster[3] = { 0, 0, 0 };
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
            cooperative = a->value.cooperative != 0;
        else if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            cluster[0] = a->value.clusterDim.x;
            cluster[1] = a->value.clusterDim.y;
            cluster[2] = a->value.clusterDim.z;
        }
    }
    return launch(__func__, f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                  config->blockDimY, config->blockDimZ, config->sharedMemBytes, config->hStream, kernelParams,
                  extra, cooperative, cluster);
}
RT_ALIAS(cuLaunchKernelEx, cuLaunchKernelEx_ptsz);

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(hfunc);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaFuncAttributes a;
    cudaError_t e = rt_func_attributes(f, &a);
    if (e != cudaSuccess)
        return rt_cu_result(e);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.sharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.constSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.localSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.clusterDimMustBeSet; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = a.requiredClusterWidth; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = a.requiredClusterHeight; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = a.requiredClusterDepth; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = a.nonPortableClusterSizeAllowed; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = a.clusterSchedulingPolicyPreference; break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(hfunc);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    /* The two settable attributes have the runtime's numbers. */
    return rt_cu_result(rt_func_set_attribute(f, (int)attrib, value));
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(hfunc);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    f->cache_config = (int)config;
    return CUDA_SUCCESS;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(hfunc);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        return CUDA_ERROR_INVALID_VALUE;
    f->shared_mem_config = (int)config;
    return CUDA_SUCCESS;
}
#pragma GCC diagnostic pop

CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(hfunc);
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    *name = f->name;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                              int blockSize, size_t dynamicSMemSize,
                                                              unsigned int flags)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(func);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    return rt_cu_result(rt_occupancy(f, blockSize, dynamicSMemSize, flags, numBlocks));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, CU_OCCUPANCY_DEFAULT);
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    const char *env = getenv("CUDA_MODULE_LOADING");
    *mode = env && strcmp(env, "EAGER") == 0 ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                 int blockSize)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(func);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!dynamicSmemSize)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_occupancy_smem(f, numBlocks, blockSize, dynamicSmemSize));
}

/* The cluster occupancy calculator: the configuration's grid, block,
 * dynamic shared memory and cluster-dimension attribute (else the
 * kernel's own clusters). */
static CUresult cluster_occupancy(const char *entry, int *out, CUfunction func, const CUlaunchConfig *config, bool potential)
{
    CU_ENTER_AS(true, entry);
    rt_func *f = rt_cu_func(func);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!out || !config || (config->numAttrs && !config->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    uint32_t cluster[3] = { 0, 0, 0 };
    for (unsigned i = 0; i < config->numAttrs; i++)
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            cluster[0] = config->attrs[i].value.clusterDim.x;
            cluster[1] = config->attrs[i].value.clusterDim.y;
            cluster[2] = config->attrs[i].value.clusterDim.z;
        }
    const uint32_t grid[3] = { config->gridDimX, config->gridDimY, config->gridDimZ };
    uint32_t threads = config->blockDimX * config->blockDimY * config->blockDimZ;
    return rt_cu_result(rt_cluster_occupancy(f, cluster, grid, threads, config->sharedMemBytes, potential, out));
}

CUresult cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func, const CUlaunchConfig *config)
{
    return cluster_occupancy(__func__, clusterSize, func, config, true);
}

CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config)
{
    return cluster_occupancy(__func__, numClusters, func, config, false);
}

/* ---- functions: module, loading state, parameters, block size ------------- */

CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    CU_ENTER(true);
    if (!hmod)
        return CUDA_ERROR_INVALID_VALUE;
    rt_func *f = rt_cu_func(hfunc);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    *hmod = (CUmodule)f->mod;
    return CUDA_SUCCESS;
}

/* A kernel is loaded once its module's PTX is parsed and laid out, which
 * happens at its first use (lazy loading) or here. */
CUresult cuFuncLoad(CUfunction function)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(function);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    return rt_cu_result(rt_func_resolve(f));
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    CU_ENTER(true);
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    rt_func *f = rt_cu_func(function);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    *state = f->index >= 0 ? CU_FUNCTION_LOADING_STATE_LOADED : CU_FUNCTION_LOADING_STATE_UNLOADED;
    return CUDA_SUCCESS;
}

/* The offset and size of parameter paramIndex in the kernel's parameter
 * buffer, from its PTX (.param declarations, with their alignment). */
CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    CU_ENTER(true);
    rt_func *f = rt_cu_func(func);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    cudaError_t e = rt_func_resolve(f);
    if (e != cudaSuccess)
        return rt_cu_result(e);
    const exec_kernel_info *k = exec_program_kernel_info(f->mod->prog, f->index);
    if (paramIndex >= k->nparams)
        return CUDA_ERROR_INVALID_VALUE;
    if (paramOffset)
        *paramOffset = k->params[paramIndex].offset;
    if (paramSize)
        *paramSize = k->params[paramIndex].bytes;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    return cuLibraryGetKernelCount(count, (CUlibrary)mod);
}

CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    return cuLibraryEnumerateKernels((CUkernel *)functions, numFunctions, (CUlibrary)mod);
}

/* The block size that gives the most resident warps per SM (the largest
 * such, a multiple of the warp size up to blockSizeLimit and the kernel's
 * limit), and the grid that fills the device at that size, as cuda.h
 * describes.  The dynamic shared memory per block is dynamicSMemSize, or
 * what blockSizeToDynamicSMemSize says for each candidate. */
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags)
{
    CU_ENTER(true);
    if (!minGridSize || !blockSize || blockSizeLimit < 0)
        return CUDA_ERROR_INVALID_VALUE;
    rt_func *f = rt_cu_func(func);
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    int max_threads = 0, sms = 0, warp = 32;
    CUresult r = cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func);
    if (r != CUDA_SUCCESS)
        return r;
    rt_device_attribute(cudaDevAttrMultiProcessorCount, &sms);
    rt_device_attribute(cudaDevAttrWarpSize, &warp);
    int limit = blockSizeLimit > 0 && blockSizeLimit < max_threads ? blockSizeLimit : max_threads;
    int best_block = 0, best_blocks = 0, best_threads = -1;
    for (int b = warp; b <= limit; b += warp) {
        size_t smem = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(b) : dynamicSMemSize;
        int blocks = 0;
        cudaError_t e = rt_occupancy(f, b, smem, flags, &blocks);
        if (e != cudaSuccess)
            return rt_cu_result(e);
        if (blocks * b >= best_threads) {
            best_threads = blocks * b;
            best_block = b;
            best_blocks = blocks;
        }
    }
    if (best_block == 0 && limit > 0) {
        /* A limit under one warp: that many threads. */
        best_block = limit;
        size_t smem = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(limit) : dynamicSMemSize;
        cudaError_t e = rt_occupancy(f, limit, smem, flags, &best_blocks);
        if (e != cudaSuccess)
            return rt_cu_result(e);
    }
    *blockSize = best_block;
    *minGridSize = best_blocks * sms;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                          int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                     dynamicSMemSize, blockSizeLimit, CU_OCCUPANCY_DEFAULT);
}

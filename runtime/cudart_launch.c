/*
 * cudart_launch.c -- kernel launches: the call configuration of `<<<>>>`,
 * nvcc's __cudaGetKernel/__cudaLaunchKernel, clang's cudaLaunchKernel, and
 * the per-kernel summary on stderr.
 */
#include "rt_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
        return rt_set_error(cudaErrorInvalidConfiguration);
    call_config c = config_stack[--config_depth];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *(void **)stream = c.stream;
    return cudaSuccess;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Find (and load) the kernel behind a host stub. */
static cudaError_t resolve_kernel(rt_kernel *k)
{
    if (k->index >= 0)
        return cudaSuccess;
    cudaError_t e = rt_module_load(k->mod);
    if (e != cudaSuccess)
        return e;
    k->index = exec_program_kernel(k->mod->prog, k->name);
    if (k->index < 0) {
        rt_say("kernel '%s' is registered by the program but its PTX does not define it", k->name);
        return cudaErrorInvalidDeviceFunction;
    }
    return cudaSuccess;
}

static cudaError_t launch(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared)
{
    if (rt.sticky != cudaSuccess)
        return rt.sticky;
    cudaError_t e = resolve_kernel(k);
    if (e != cudaSuccess)
        return e;
    const exec_kernel_info *info = exec_program_kernel_info(k->mod->prog, k->index);
    uint8_t stackbuf[4096], *params = stackbuf;
    if (info->param_bytes > sizeof stackbuf && !(params = malloc(info->param_bytes)))
        return cudaErrorMemoryAllocation;
    memset(params, 0, info->param_bytes);
    if (info->nparams && !args) {
        if (params != stackbuf)
            free(params);
        return cudaErrorInvalidValue;
    }
    for (uint32_t i = 0; i < info->nparams; i++)
        memcpy(params + info->params[i].offset, args[i], info->params[i].bytes);
    exec_launch l = {
        .grid = { grid.x, grid.y, grid.z },
        .block = { block.x, block.y, block.z },
        .dynamic_shared = (uint32_t)shared,
        .args = params,
        .max_warp_insts = rt.cfg.max_warp_insts,
        .nsm = rt.cfg.nsm,
        .host = rt_device_call,
    };
    exec_stats stats = {0};
    exec_error err = {0};
    double t0 = now_seconds();
    ptx_status st = exec_launch_run(k->mod->prog, k->index, &l, &stats, &err);
    double dt = now_seconds() - t0;
    if (params != stackbuf)
        free(params);
    rt.launches++;
    char name[256];
    rt_demangle(k->name, name, sizeof name);
    if (st != PTX_OK) {
        cudaError_t ce = rt_error_of(st);
        /* The engine names kernels as the PTX does; users know them demangled. */
        char msg[sizeof err.msg + 256];
        const char *at = err.kernel ? strstr(err.msg, err.kernel) : NULL;
        if (at)
            snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - err.msg), err.msg, name, at + strlen(err.kernel));
        else
            snprintf(msg, sizeof msg, "%s", err.msg[0] ? err.msg : ptx_status_message(st));
        rt_say("error: %s", msg);
        if (st == PTX_E_LAUNCH_CONFIG || st == PTX_E_NOMEM)
            return ce;
        /* A fault inside a kernel poisons the context, as on a GPU: this
         * and every later call report it. */
        rt.sticky = ce;
        return cudaSuccess;
    }
    if (!rt.cfg.quiet) {
        double simd = stats.warp_insts ? 100.0 * (double)stats.thread_insts /
                                             ((double)stats.warp_insts * ISA_WARP_SIZE) : 0;
        fprintf(stderr,
                "ptxsim: %s grid (%u,%u,%u) block (%u,%u,%u): %llu warp-insts, %llu thread-insts, "
                "SIMD efficiency %.1f%%, %.3f s (%.1f M thread-insts/s)\n",
                name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                (unsigned long long)stats.warp_insts, (unsigned long long)stats.thread_insts, simd, dt,
                dt > 0 ? (double)stats.thread_insts / dt * 1e-6 : 0.0);
    }
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    rt_lock();
    rt_kernel *k = rt_find_kernel(hostFun);
    rt_unlock();
    if (!k || !kernel)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    *kernel = (cudaKernel_t)k;
    return cudaSuccess;
}

static cudaError_t launch_checked(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared)
{
    rt_lock();
    cudaError_t e = launch(k, grid, block, args, shared);
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    rt_lock();
    rt_kernel *k = NULL;
    for (uint32_t i = 0; i < rt.nkernels && !k; i++)
        if ((cudaKernel_t)rt.kernels[i] == kernel)
            k = rt.kernels[i];
    rt_unlock();
    if (!k)
        return rt_set_error(cudaErrorInvalidResourceHandle);
    return launch_checked(k, gridDim, blockDim, args, sharedMem);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    rt_lock();
    rt_kernel *k = rt_find_kernel(func);
    rt_unlock();
    if (!k)
        return rt_set_error(cudaErrorInvalidDeviceFunction);
    return launch_checked(k, gridDim, blockDim, args, sharedMem);
}

/*
 * cu_context.c -- the driver API's initialisation, errors, device queries
 * and contexts.
 *
 * ptxsim has one device and one device memory, so a context is a handle
 * with flags: every context sees the same allocations, modules and streams.
 * What the driver API does keep per thread is the stack of current
 * contexts, and the rule that a call needing a context fails with
 * CUDA_ERROR_INVALID_CONTEXT when none is current.  The runtime API binds
 * the primary context to every thread, as CUDA's does on first use.
 */
#include "cu_int.h"

#include <stdlib.h>
#include <string.h>

#define CTX_DEPTH 64

static _Thread_local rt_ctx *ctx_stack[CTX_DEPTH];
static _Thread_local int ctx_depth;

/* ---- errors -------------------------------------------------------------- */

static const struct { CUresult code; const char *name, *message; } cu_errors[] = {
#define CU_ERROR(name, msg) { name, #name, msg },
#include "driver_errors.def"
#undef CU_ERROR
};

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
        if (cu_errors[i].code == error) {
            *pStr = cu_errors[i].name;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
        if (cu_errors[i].code == error) {
            *pStr = cu_errors[i].message;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult rt_cu_result(cudaError_t e)
{
    switch (e) {
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidHostPointer:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorMissingConfiguration:
        return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorInvalidSymbol:
        return CUDA_ERROR_NOT_FOUND;
    case cudaErrorInvalidDeviceFunction:
        return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorStartupFailure:
        return CUDA_ERROR_UNKNOWN;
    default:
        return (CUresult)e;     /* the same number in both APIs */
    }
}

/* ---- contexts -------------------------------------------------------------- */

bool rt_ctx_valid(const rt_ctx *c)
{
    rt_lock();
    bool ok = c && rt_ptrmap_get(&rt.ctxs, c) != NULL;
    rt_unlock();
    return ok;
}

rt_ctx *rt_ctx_current(void)
{
    RT_ASYNC_ENTRY();
    if (ctx_depth > 0)
        return ctx_stack[ctx_depth - 1];
    rt_lock();
    rt_ctx *c = rt.runtime_used ? &rt.primary : NULL;
    rt_unlock();
    return c;
}

void rt_cu_trace_call(const char *name)
{
    RT_ASYNC_ENTRY();
    rt_lock();
    bool first = false;
    if (rt.cfg.trace_driver) {
        unsigned i = 0;
        while (i < rt.ncalled && rt.called[i] != name)
            i++;
        first = i == rt.ncalled && rt.ncalled < sizeof rt.called / sizeof rt.called[0];
        if (first)
            rt.called[rt.ncalled++] = name;
    }
    rt_unlock();
    if (first)
        rt_say("driver: %s called", name);
}

/* Bookkeeping only: it never waits for the device queue. */
CUresult rt_cu_enter(bool need_ctx, const char *name)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call(name);
    rt_lock();
    bool inited = rt.driver_inited || rt.runtime_used;
    rt_unlock();
    if (!inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (need_ctx) {
        rt_ctx *c = rt_ctx_current();
        if (!c)
            return CUDA_ERROR_INVALID_CONTEXT;
        if (!rt_ctx_valid(c))
            return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int Flags)
{
    if (Flags)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    rt.driver_inited = true;
    bool ok = rt.mem != NULL;
    rt_unlock();
    return ok ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = FE_PTX_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

static const unsigned ctx_flags_known = CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | CU_CTX_LMEM_RESIZE_TO_MAX |
                                        CU_CTX_COREDUMP_ENABLE | CU_CTX_USER_COREDUMP_ENABLE |
                                        CU_CTX_SYNC_MEMOPS;

CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
    (void)ctxCreateParams;      /* execution affinity and CIG: nothing to apply */
    CU_ENTER(false);
    if (!pctx || (flags & ~ctx_flags_known))
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (ctx_depth == CTX_DEPTH)
        return CUDA_ERROR_OUT_OF_MEMORY;
    rt_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    static uint64_t last_id = 1;                /* the primary context's */
    *c = (rt_ctx){ .magic = RT_MAGIC_CTX, .flags = flags, .refs = 1, .id = __atomic_add_fetch(&last_id, 1, __ATOMIC_RELAXED) };
    rt_lock();
    bool ok = rt_ptrmap_put(&rt.ctxs, c, c);
    rt_unlock();
    if (!ok) {
        free(c);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ctx_stack[ctx_depth++] = c;
    *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

/* ---- context-local storage ----------------------------------------------- */

cudaError_t rt_cls_put(rt_ctx *c, void *owner, void *state, rt_cls_dtor dtor)
{
    rt_lock();
    cudaError_t e = cudaSuccess;
    uint32_t i = 0;
    while (i < rt.ncls && !(rt.cls[i].ctx == c && rt.cls[i].owner == owner))
        i++;
    if (i == rt.ncls) {
        if (rt.ncls == rt.capcls) {
            uint32_t cap = rt.capcls ? 2 * rt.capcls : 8;
            rt_cls *a = realloc(rt.cls, cap * sizeof *a);
            if (!a)
                e = cudaErrorMemoryAllocation;
            else {
                rt.cls = a;
                rt.capcls = cap;
            }
        }
        if (e == cudaSuccess)
            rt.ncls++;
    }
    if (e == cudaSuccess)
        rt.cls[i] = (rt_cls){ c, owner, state, dtor };
    rt_unlock();
    return e;
}

bool rt_cls_get(rt_ctx *c, void *owner, void **state)
{
    rt_lock();
    bool found = false;
    for (uint32_t i = 0; i < rt.ncls && !found; i++)
        if (rt.cls[i].ctx == c && rt.cls[i].owner == owner) {
            *state = rt.cls[i].state;
            found = true;
        }
    rt_unlock();
    return found;
}

bool rt_cls_delete(rt_ctx *c, void *owner)
{
    rt_lock();
    bool found = false;
    for (uint32_t i = 0; i < rt.ncls && !found; i++)
        if (rt.cls[i].ctx == c && rt.cls[i].owner == owner) {
            rt.cls[i] = rt.cls[--rt.ncls];
            found = true;
        }
    rt_unlock();
    return found;
}

/* A context going away: each owner's destructor runs (without the lock: it
 * calls back into the driver) and its entry is gone. */
static void cls_drop(rt_ctx *c)
{
    for (;;) {
        rt_lock();
        uint32_t i = 0;
        while (i < rt.ncls && rt.cls[i].ctx != c)
            i++;
        rt_cls e = i < rt.ncls ? rt.cls[i] : (rt_cls){ 0 };
        if (i < rt.ncls)
            rt.cls[i] = rt.cls[--rt.ncls];
        rt_unlock();
        if (!e.ctx)
            return;
        if (e.dtor)
            e.dtor(c, e.owner, e.state);
    }
}

CUresult cuCtxDestroy(CUcontext ctx)
{
    CU_ENTER(false);
    rt_ctx *c = (rt_ctx *)ctx;
    if (!rt_ctx_valid(c) || c->primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    cls_drop(c);
    rt_lock();
    rt_ptrmap_del(&rt.ctxs, c);
    rt_unlock();
    /* Destroying the current context pops it. */
    if (ctx_depth > 0 && ctx_stack[ctx_depth - 1] == c)
        ctx_depth--;
    c->magic = 0;
    free(c);
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CU_ENTER(false);
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = (CUcontext)rt_ctx_current();
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CU_ENTER(false);
    if (!ctx) {
        if (ctx_depth > 0)
            ctx_depth--;
        return CUDA_SUCCESS;
    }
    if (!rt_ctx_valid((rt_ctx *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx_depth == 0)
        ctx_depth = 1;
    ctx_stack[ctx_depth - 1] = (rt_ctx *)ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
    CU_ENTER(false);
    if (!rt_ctx_valid((rt_ctx *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx_depth == CTX_DEPTH)
        return CUDA_ERROR_OUT_OF_MEMORY;
    ctx_stack[ctx_depth++] = (rt_ctx *)ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *pctx)
{
    CU_ENTER(false);
    if (ctx_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    rt_ctx *c = ctx_stack[--ctx_depth];
    if (pctx)
        *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

/* A synchronisation is where pools give back what they hold past their
 * release threshold (rt_pool_sync), in either API. */
CUresult cuCtxSynchronize(void)
{
    CU_ENTER(true);
    CU_CAPTURE_UNSAFE();
    rt_queue_wait(UINT64_MAX);
    rt_pool_sync();
    return rt_cu_result(rt_sticky());
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    CU_ENTER(true);
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
    CU_ENTER(true);
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = rt_ctx_current()->flags;
    return CUDA_SUCCESS;
}

/* The driver's limits past the runtime's cudaLimit: those of CIG
 * (CUDA in graphics) contexts, which ptxsim never makes.  cuBLAS asks
 * whether its context is one (CU_LIMIT_CIG_ENABLED) when it makes a
 * handle, and without an answer leaves the handle without its device. */
static size_t cig_shmem_fallback = 1;

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    CU_ENTER(true);
    if (limit == CU_LIMIT_SHMEM_SIZE || limit == CU_LIMIT_CIG_ENABLED)
        return CUDA_ERROR_INVALID_VALUE;        /* "can only be queried" */
    if (limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED) {
        rt_lock();
        cig_shmem_fallback = value != 0;
        rt_unlock();
        return CUDA_SUCCESS;
    }
    return rt_cu_result(rt_limit_set((int)limit, value));
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    CU_ENTER(true);
    if (!pvalue)
        return CUDA_ERROR_INVALID_VALUE;
    switch (limit) {
    case CU_LIMIT_SHMEM_SIZE:                   /* what a kernel may have: the opt-in maximum */
        *pvalue = (size_t)rt_device_get()->shared_block_optin;
        return CUDA_SUCCESS;
    case CU_LIMIT_CIG_ENABLED:
        *pvalue = 0;
        return CUDA_SUCCESS;
    case CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED:
        rt_lock();
        *pvalue = cig_shmem_fallback;
        rt_unlock();
        return CUDA_SUCCESS;
    default:
        return rt_cu_result(rt_limit_get((int)limit, pvalue));
    }
}

/* Deprecated; kept as the runtime's cudaDeviceSetSharedMemConfig keeps it
 * (CUsharedconfig has cudaSharedMemConfig's numbers). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    CU_ENTER(true);
    int c = (int)config;
    return rt_cu_result(rt_shared_mem_config(&c, true));
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    CU_ENTER(true);
    int c = 0;
    cudaError_t e = pConfig ? rt_shared_mem_config(&c, false) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *pConfig = (CUsharedconfig)c;
    return rt_cu_result(e);
}
#pragma GCC diagnostic pop

/* No persisting L2 lines to reset (cudaCtxResetPersistingL2Cache). */
CUresult cuCtxResetPersistingL2Cache(void)
{
    CU_ENTER(true);
    return rt_cu_result(rt_sticky());
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CU_ENTER(false);
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    rt_lock();
    rt.primary.refs++;
    rt_unlock();
    *pctx = (CUcontext)&rt.primary;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    CU_ENTER(false);
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    rt_lock();
    CUresult r = rt.primary.refs > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS)
        rt.primary.refs--;
    rt_unlock();
    return r;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    CU_ENTER(false);
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    rt_lock();
    *flags = rt.primary.flags;
    *active = rt.primary.refs > 0 || rt.runtime_used;
    rt_unlock();
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    CU_ENTER(false);
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (flags & ~ctx_flags_known)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    rt.primary.flags = flags;
    rt_unlock();
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    CU_ENTER(false);
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    rt_reset();
    return CUDA_SUCCESS;
}

/* ---- the device ---------------------------------------------------------- */

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CU_ENTER(false);
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    CU_ENTER(false);
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CU_ENTER(false);
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "%s", rt_device_get()->name);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    CU_ENTER(false);
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    /* CUdevice_attribute and cudaDeviceAttr share their numbers. */
    return rt_cu_result(rt_device_attribute((int)attrib, pi));
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    CU_ENTER(false);
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    size_t free_bytes;
    rt_mem_info(&free_bytes, bytes);
    return CUDA_SUCCESS;
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    CU_ENTER(false);
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *major = rt_device_get()->cc_major;
    *minor = rt_device_get()->cc_minor;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    CU_ENTER(false);
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    memcpy(uuid->bytes, rt_device_get()->uuid, sizeof uuid->bytes);
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    CU_ENTER(false);
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (!ctx)
        return cuCtxGetDevice(device);
    if (!rt_ctx_valid((rt_ctx *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    *device = 0;
    return CUDA_SUCCESS;
}

/* A context's id, unique in the process (the primary context's is 1);
 * NULL asks for the current context's. */
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    CU_ENTER(ctx == NULL);
    if (!ctxId)
        return CUDA_ERROR_INVALID_VALUE;
    rt_ctx *c = ctx ? (rt_ctx *)ctx : rt_ctx_current();
    if (!c || !rt_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    *ctxId = c->id;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    CU_ENTER(ctx == NULL);
    if (ctx && !rt_ctx_valid((rt_ctx *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    CU_CAPTURE_UNSAFE();
    /* Every context shares the one device's work. */
    rt_queue_wait(UINT64_MAX);
    rt_pool_sync();
    return rt_cu_result(rt_sticky());
}

/* The driver API version a context was made with: every context speaks
 * the _v2 ABI, which CUDA numbers 3020. */
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CU_ENTER(ctx == NULL);
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    if (ctx && !rt_ctx_valid((rt_ctx *)ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CU_ENTER(true);
    const rt_device *d = rt_device_get();
    if (leastPriority)
        *leastPriority = d->stream_prio_least;
    if (greatestPriority)
        *greatestPriority = d->stream_prio_greatest;
    return CUDA_SUCCESS;
}

/*
 * cudart_memory.c -- device memory: allocation, copies, memset, symbols.
 *
 * A device pointer is a host address inside ptxsim's device-memory
 * reservation, so copies are memcpy after checking the device side lies in
 * a live allocation (as CUDA does, returning cudaErrorInvalidValue).
 */
#include "rt_int.h"

#include <string.h>

static bool is_device(const void *p)
{
    const isa_mem *w = exec_memory_windows(rt.mem);
    uintptr_t a = (uintptr_t)p;
    return a >= w->global_lo && a < w->global_lo + exec_memory_capacity(rt.mem);
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    if (!devPtr)
        return rt_set_error(cudaErrorInvalidValue);
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess) {
        uint64_t addr = 0;
        ptx_status st = rt.mem ? exec_malloc(rt.mem, size, 256, &addr) : PTX_E_OUT_OF_DEVICE_MEMORY;
        if (st == PTX_OK)
            *devPtr = (void *)(uintptr_t)addr;
        else
            e = cudaErrorMemoryAllocation;
    }
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaFree(void *devPtr)
{
    if (!devPtr)
        return cudaSuccess;
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess && exec_free(rt.mem, (uint64_t)(uintptr_t)devPtr) != PTX_OK)
        e = cudaErrorInvalidValue;
    rt_unlock();
    return rt_set_error(e);
}

/* Check a copy's device side(s) and do it; the lock is held. */
static cudaError_t copy_locked(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    if (rt.sticky != cudaSuccess)
        return rt.sticky;
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    bool dst_dev, src_dev;
    switch (kind) {
    case cudaMemcpyHostToHost: dst_dev = src_dev = false; break;
    case cudaMemcpyHostToDevice: dst_dev = true; src_dev = false; break;
    case cudaMemcpyDeviceToHost: dst_dev = false; src_dev = true; break;
    case cudaMemcpyDeviceToDevice: dst_dev = src_dev = true; break;
    case cudaMemcpyDefault: dst_dev = is_device(dst); src_dev = is_device(src); break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if (dst_dev && !exec_memory_valid(rt.mem, (uint64_t)(uintptr_t)dst, count))
        return cudaErrorInvalidValue;
    if (src_dev && !exec_memory_valid(rt.mem, (uint64_t)(uintptr_t)src, count))
        return cudaErrorInvalidValue;
    memmove(dst, src, count);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    rt_lock();
    cudaError_t e = copy_locked(dst, src, count, kind);
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;       /* every operation completes before the call returns */
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess && count) {
        if (!exec_memory_valid(rt.mem, (uint64_t)(uintptr_t)devPtr, count))
            e = cudaErrorInvalidValue;
        else
            memset(devPtr, value, count);
    }
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(devPtr, value, count);
}

/* The device address of a registered __device__/__constant__ variable. */
static cudaError_t symbol_locked(const void *symbol, uint64_t *addr, uint64_t *bytes)
{
    rt_symbol *s = rt_find_symbol(symbol);
    if (!s)
        return cudaErrorInvalidSymbol;
    cudaError_t e = rt_module_load(s->mod);
    if (e != cudaSuccess)
        return e;
    if (!exec_program_symbol(s->mod->prog, s->name, addr, bytes))
        return cudaErrorInvalidSymbol;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    rt_lock();
    uint64_t addr = 0, bytes = 0;
    cudaError_t e = rt.sticky != cudaSuccess ? rt.sticky : symbol_locked(symbol, &addr, &bytes);
    if (e == cudaSuccess && devPtr)
        *devPtr = (void *)(uintptr_t)addr;
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    rt_lock();
    uint64_t addr = 0, bytes = 0;
    cudaError_t e = rt.sticky != cudaSuccess ? rt.sticky : symbol_locked(symbol, &addr, &bytes);
    if (e == cudaSuccess && size)
        *size = bytes;
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    rt_lock();
    uint64_t addr = 0, bytes = 0;
    cudaError_t e = rt.sticky != cudaSuccess ? rt.sticky : symbol_locked(symbol, &addr, &bytes);
    if (e == cudaSuccess && (offset > bytes || count > bytes - offset))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = copy_locked((void *)(uintptr_t)(addr + offset), src, count,
                        kind == cudaMemcpyDefault ? cudaMemcpyDefault : cudaMemcpyHostToDevice);
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    rt_lock();
    uint64_t addr = 0, bytes = 0;
    cudaError_t e = rt.sticky != cudaSuccess ? rt.sticky : symbol_locked(symbol, &addr, &bytes);
    if (e == cudaSuccess && (offset > bytes || count > bytes - offset))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = copy_locked(dst, (const void *)(uintptr_t)(addr + offset), count,
                        kind == cudaMemcpyDefault ? cudaMemcpyDefault : cudaMemcpyDeviceToHost);
    rt_unlock();
    return rt_set_error(e);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    rt_lock();
    uint64_t cap = rt.mem ? exec_memory_capacity(rt.mem) : 0, used = rt.mem ? exec_memory_in_use(rt.mem) : 0;
    rt_unlock();
    if (free_bytes)
        *free_bytes = cap - used;
    if (total)
        *total = cap;
    return cudaSuccess;
}

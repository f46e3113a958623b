/*
 * cudart_memory.c -- the runtime API's memory calls: allocation of every
 * kind, copies and memsets in one, two and three dimensions, symbols,
 * pointer attributes, and the managed-memory hints.  The work is done by
 * the core (rt_memory.c); the *Async forms check their stream and complete
 * before returning.
 */
#include "rt_int.h"

#include <string.h>

/* ---- allocation ----------------------------------------------------------- */

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    return rt_set_error(rt_mem_alloc(size, RT_MEM_DEVICE, 0, devPtr));
}

cudaError_t cudaFree(void *devPtr)
{
    return rt_set_error(rt_mem_free(devPtr, RT_KIND(RT_MEM_DEVICE) | RT_KIND(RT_MEM_MANAGED)));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    cudaError_t e = rt_stream_check(hStream);
    return rt_set_error(e != cudaSuccess ? e : rt_mem_alloc(size, RT_MEM_DEVICE, 0, devPtr));
}
RT_ALIAS(cudaMallocAsync, cudaMallocAsync_ptsz);

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    cudaError_t e = rt_stream_check(hStream);
    return rt_set_error(e != cudaSuccess ? e : rt_mem_free(devPtr, RT_KIND(RT_MEM_DEVICE)));
}
RT_ALIAS(cudaFreeAsync, cudaFreeAsync_ptsz);

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_mem_alloc(size, RT_MEM_HOST, flags, pHost));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *ptr)
{
    return rt_set_error(rt_mem_free(ptr, RT_KIND(RT_MEM_HOST)));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    if (flags)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_mem_host_device_ptr(pHost, pDevice));
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    struct cudaPointerAttributes a;
    if (!pFlags || rt_mem_attributes(pHost, &a) != cudaSuccess || a.type != cudaMemoryTypeHost)
        return rt_set_error(cudaErrorInvalidValue);
    *pFlags = cudaHostAllocMapped;
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    return rt_set_error(rt_mem_register(ptr, size, flags));
}

cudaError_t cudaHostUnregister(void *ptr)
{
    return rt_set_error(rt_mem_unregister(ptr));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    if (!size || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_mem_alloc(size, RT_MEM_MANAGED, flags, devPtr));
}

/* Rows are padded to 512 bytes, which meets every alignment rule for
 * pitched memory the device reports. */
static size_t pitch_of(size_t width)
{
    return (width + 511) & ~(size_t)511;
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!devPtr || !pitch)
        return rt_set_error(cudaErrorInvalidValue);
    size_t p = pitch_of(width);
    if (height && p > SIZE_MAX / height)
        return rt_set_error(cudaErrorMemoryAllocation);
    cudaError_t e = rt_mem_alloc(p * height, RT_MEM_DEVICE, 0, devPtr);
    if (e == cudaSuccess)
        *pitch = p;
    return rt_set_error(e);
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr)
        return rt_set_error(cudaErrorInvalidValue);
    size_t p = pitch_of(extent.width), rows = extent.height * extent.depth;
    if ((extent.height && extent.depth > SIZE_MAX / extent.height) || (rows && p > SIZE_MAX / rows))
        return rt_set_error(cudaErrorMemoryAllocation);
    void *ptr = NULL;
    cudaError_t e = rt_mem_alloc(p * rows, RT_MEM_DEVICE, 0, &ptr);
    if (e == cudaSuccess)
        *pitchedDevPtr = (struct cudaPitchedPtr){ ptr, p, extent.width, extent.height };
    return rt_set_error(e);
}

/* ---- copies ------------------------------------------------------------- */

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_set_error(rt_memcpy(dst, src, count, kind));
}
RT_ALIAS(cudaMemcpy, cudaMemcpy_ptds);

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : rt_memcpy(dst, src, count, kind));
}
RT_ALIAS(cudaMemcpyAsync, cudaMemcpyAsync_ptsz);

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    if (dstDevice != 0 || srcDevice != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    return rt_set_error(rt_memcpy(dst, src, count, cudaMemcpyDeviceToDevice));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    return rt_set_error(rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind));
}
RT_ALIAS(cudaMemcpy2D, cudaMemcpy2D_ptds);

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind));
}
RT_ALIAS(cudaMemcpy2DAsync, cudaMemcpy2DAsync_ptsz);

/* An array side of a 3-D copy as pitched memory: positions and the extent
 * are in the array's elements, so they are scaled to bytes here. */
static cudaError_t array_side(cudaArray_const_t a, struct cudaPitchedPtr *pp, struct cudaPos *pos,
                              size_t *elem, const struct cudaExtent *x)
{
    struct cudaExtent ext;
    cudaError_t e = rt_array_info(rt_array_live(a), NULL, &ext, NULL);
    if (e != cudaSuccess)
        return e;
    *elem = rt_array_texel(rt_array_live(a));
    size_t h = ext.height ? ext.height : 1, depth = ext.depth ? ext.depth : 1;
    if (pos->x + x->width > ext.width || pos->y + x->height > h || pos->z + x->depth > depth)
        return cudaErrorInvalidValue;
    rt_array_pitched(rt_array_live(a), pp);
    pos->x *= *elem;
    return cudaSuccess;
}

/* A 3-D copy, one 2-D copy per slice.  Either side may be a CUDA array;
 * then the extent counts that array's elements, else bytes. */
static cudaError_t copy3d(const struct cudaMemcpy3DParms *p)
{
    if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
        return cudaErrorInvalidValue;
    struct cudaPitchedPtr sp_ = p->srcPtr, dp_ = p->dstPtr;
    struct cudaPos spos = p->srcPos, dpos = p->dstPos;
    struct cudaExtent x = p->extent;
    const struct cudaPitchedPtr *s = &sp_, *d = &dp_;
    enum cudaMemcpyKind kind = p->kind;
    size_t elem = 1, delem = 1;
    cudaError_t e;
    if (p->srcArray && (e = array_side(p->srcArray, &sp_, &spos, &elem, &x)) != cudaSuccess)
        return e;
    if (p->dstArray && (e = array_side(p->dstArray, &dp_, &dpos, &delem, &x)) != cudaSuccess)
        return e;
    if (!p->srcArray)
        elem = delem;
    if (p->srcArray || p->dstArray) {
        x.width *= elem;
        /* The array side is device memory whatever the kind says of it. */
        if (kind == cudaMemcpyHostToHost)
            kind = p->srcArray ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    }
    if (!x.width || !x.height || !x.depth)
        return cudaSuccess;
    if (spos.x + x.width > s->pitch || dpos.x + x.width > d->pitch)
        return cudaErrorInvalidPitchValue;
    size_t sslice = s->pitch * (s->ysize ? s->ysize : spos.y + x.height);
    size_t dslice = d->pitch * (d->ysize ? d->ysize : dpos.y + x.height);
    for (size_t z = 0; z < x.depth; z++) {
        const char *sp = (const char *)s->ptr + (spos.z + z) * sslice + spos.y * s->pitch + spos.x;
        char *dp = (char *)d->ptr + (dpos.z + z) * dslice + dpos.y * d->pitch + dpos.x;
        e = rt_memcpy2d(dp, d->pitch, sp, s->pitch, x.width, x.height, kind);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return rt_set_error(copy3d(p));
}
RT_ALIAS(cudaMemcpy3D, cudaMemcpy3D_ptds);

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : copy3d(p));
}
RT_ALIAS(cudaMemcpy3DAsync, cudaMemcpy3DAsync_ptsz);

/* ---- memsets ----------------------------------------------------------------- */

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    return rt_set_error(rt_memset(devPtr, count, (unsigned)value, 1, count, 1));
}
RT_ALIAS(cudaMemset, cudaMemset_ptds);

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : rt_memset(devPtr, count, (unsigned)value, 1, count, 1));
}
RT_ALIAS(cudaMemsetAsync, cudaMemsetAsync_ptsz);

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_set_error(rt_memset(devPtr, pitch, (unsigned)value, 1, width, height));
}
RT_ALIAS(cudaMemset2D, cudaMemset2D_ptds);

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : rt_memset(devPtr, pitch, (unsigned)value, 1, width, height));
}
RT_ALIAS(cudaMemset2DAsync, cudaMemset2DAsync_ptsz);

static cudaError_t memset3d(struct cudaPitchedPtr p, int value, struct cudaExtent x)
{
    if (!x.width || !x.height || !x.depth)
        return cudaSuccess;
    size_t slice = p.pitch * (p.ysize ? p.ysize : x.height);
    for (size_t z = 0; z < x.depth; z++) {
        cudaError_t e = rt_memset((char *)p.ptr + z * slice, p.pitch, (unsigned)value, 1, x.width, x.height);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return rt_set_error(memset3d(pitchedDevPtr, value, extent));
}
RT_ALIAS(cudaMemset3D, cudaMemset3D_ptds);

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : memset3d(pitchedDevPtr, value, extent));
}
RT_ALIAS(cudaMemset3DAsync, cudaMemset3DAsync_ptsz);

/* ---- __device__ / __constant__ symbols -------------------------------------------- */

static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, char **at)
{
    uint64_t addr;
    size_t bytes;
    cudaError_t e = rt_sticky();
    if (e == cudaSuccess)
        e = rt_symbol_address(symbol, &addr, &bytes);
    if (e == cudaSuccess && (offset > bytes || count > bytes - offset))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *at = (char *)(uintptr_t)addr + offset;
    return e;
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    char *at;
    cudaError_t e = symbol_range(symbol, count, offset, &at);
    return e != cudaSuccess ? e : rt_memcpy(at, src, count, kind);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    char *at;
    cudaError_t e = symbol_range(symbol, count, offset, &at);
    return e != cudaSuccess ? e : rt_memcpy(dst, at, count, kind);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return rt_set_error(to_symbol(symbol, src, count, offset, kind));
}
RT_ALIAS(cudaMemcpyToSymbol, cudaMemcpyToSymbol_ptds);

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return rt_set_error(from_symbol(dst, symbol, count, offset, kind));
}
RT_ALIAS(cudaMemcpyFromSymbol, cudaMemcpyFromSymbol_ptds);

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : to_symbol(symbol, src, count, offset, kind));
}
RT_ALIAS(cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync_ptsz);

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : from_symbol(dst, symbol, count, offset, kind));
}
RT_ALIAS(cudaMemcpyFromSymbolAsync, cudaMemcpyFromSymbolAsync_ptsz);

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    char *at;
    if (!devPtr)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = symbol_range(symbol, 0, 0, &at);
    if (e == cudaSuccess)
        *devPtr = at;
    return rt_set_error(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    uint64_t addr;
    size_t bytes;
    if (!size)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = rt_sticky();
    if (e == cudaSuccess)
        e = rt_symbol_address(symbol, &addr, &bytes);
    if (e == cudaSuccess)
        *size = bytes;
    return rt_set_error(e);
}

/* ---- attributes and managed-memory hints --------------------------------------- */

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    return rt_set_error(rt_mem_attributes(ptr, attributes));
}

static cudaError_t check_location(struct cudaMemLocation loc)
{
    switch (loc.type) {
    case cudaMemLocationTypeDevice:
        return loc.id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent:
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

/* Managed memory is one allocation both sides use directly: prefetching
 * and advice have nothing to move, but their arguments are checked. */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess && flags)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = check_location(location);
    if (e == cudaSuccess)
        e = rt_mem_check_managed(devPtr, count);
    return rt_set_error(e);
}
RT_ALIAS(cudaMemPrefetchAsync, cudaMemPrefetchAsync_ptsz);

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
    if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = advice == cudaMemAdviseSetReadMostly || advice == cudaMemAdviseUnsetReadMostly
                        ? cudaSuccess : check_location(location);
    if (e == cudaSuccess)
        e = rt_mem_check_managed(devPtr, count);
    return rt_set_error(e);
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags)
{
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
        flags != cudaMemAttachSingle)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_mem_check_managed(devPtr, length);
    return rt_set_error(e);
}
RT_ALIAS(cudaStreamAttachMemAsync, cudaStreamAttachMemAsync_ptsz);

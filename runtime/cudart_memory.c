/*
 * cudart_memory.c -- the runtime API's memory calls: allocation of every
 * kind, copies and memsets in one, two and three dimensions, symbols,
 * pointer attributes, and the managed-memory hints.  The work is done by
 * the core (rt_memory.c); the *Async forms check their stream and complete
 * before returning, or are recorded when their stream is capturing
 * (rt_enqueue); the synchronous forms are refused during a capture.
 */
#include "rt_int.h"

#include <string.h>

/* ---- allocation ----------------------------------------------------------- */

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_mem_alloc(size, RT_MEM_DEVICE, 0, devPtr));
}

cudaError_t cudaFree(void *devPtr)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_mem_free_device(devPtr, RT_KIND(RT_MEM_DEVICE) | RT_KIND(RT_MEM_MANAGED)));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    return rt_set_error(rt_stream_alloc(rt_pool_current(), size, hStream, devPtr));
}
RT_ALIAS(cudaMallocAsync, cudaMallocAsync_ptsz);

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return rt_set_error(rt_stream_alloc(rt_pool_live(memPool), size, stream, ptr));
}
RT_ALIAS(cudaMallocFromPoolAsync, cudaMallocFromPoolAsync_ptsz);

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    return rt_set_error(rt_stream_free(devPtr, hStream));
}
RT_ALIAS(cudaFreeAsync, cudaFreeAsync_ptsz);

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    RT_CAPTURE_UNSAFE();
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
    RT_CAPTURE_UNSAFE();
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
    return rt_set_error(rt_mem_host_flags(pHost, pFlags));
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
    RT_CAPTURE_UNSAFE();
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
    RT_CAPTURE_UNSAFE();
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
    RT_CAPTURE_UNSAFE();
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
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_memcpy(dst, src, count, kind));
}
RT_ALIAS(cudaMemcpy, cudaMemcpy_ptds);

/* An async 2-D copy (height 1: a plain one), run or captured (rt_enqueue). */
static cudaError_t copy_async(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    rt_graph_op op = { .type = cudaGraphNodeTypeMemcpy };
    op.u.copy.dst = dst;
    op.u.copy.dpitch = dpitch;
    op.u.copy.src = src;
    op.u.copy.spitch = spitch;
    op.u.copy.width = width;
    op.u.copy.height = height;
    op.u.copy.kind = kind;
    return rt_enqueue(stream, &op);
}

static cudaError_t memset_async(void *dst, size_t pitch, int value, size_t width, size_t height,
                                cudaStream_t stream)
{
    rt_graph_op op = { .type = cudaGraphNodeTypeMemset };
    op.u.memset = (struct cudaMemsetParams){ dst, pitch, (unsigned)value, 1, width, height };
    return rt_enqueue(stream, &op);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(copy_async(dst, count, src, count, count, 1, kind, stream));
}
RT_ALIAS(cudaMemcpyAsync, cudaMemcpyAsync_ptsz);

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    RT_CAPTURE_UNSAFE();
    if (dstDevice != 0 || srcDevice != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    return rt_set_error(rt_memcpy(dst, src, count, cudaMemcpyDeviceToDevice));
}

/* The one device is its own peer: a peer copy is a copy within it, issued
 * as cudaMemcpyAsync issues one. */
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    if (dstDevice != 0 || srcDevice != 0)
        return rt_set_error(cudaErrorInvalidDevice);
    return rt_set_error(copy_async(dst, count, src, count, count, 1, cudaMemcpyDeviceToDevice, stream));
}

/* A 3-D peer copy as the 3-D copy it is on one device; either side may be
 * an array, so the kind is left to the pointers (unified addressing). */
static cudaError_t peer3d(const struct cudaMemcpy3DPeerParms *p, struct cudaMemcpy3DParms *out)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->srcDevice != 0 || p->dstDevice != 0)
        return cudaErrorInvalidDevice;
    memset(out, 0, sizeof *out);
    out->srcArray = p->srcArray;
    out->srcPos = p->srcPos;
    out->srcPtr = p->srcPtr;
    out->dstArray = p->dstArray;
    out->dstPos = p->dstPos;
    out->dstPtr = p->dstPtr;
    out->extent = p->extent;
    out->kind = cudaMemcpyDefault;
    return cudaSuccess;
}

cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
    RT_CAPTURE_UNSAFE();
    struct cudaMemcpy3DParms c;
    cudaError_t e = peer3d(p, &c);
    return rt_set_error(e != cudaSuccess ? e : rt_memcpy3d(&c));
}
RT_ALIAS(cudaMemcpy3DPeer, cudaMemcpy3DPeer_ptds);

cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    rt_graph_op op = { .type = cudaGraphNodeTypeMemcpy };
    op.u.copy.is3d = true;
    cudaError_t e = peer3d(p, &op.u.copy.c3);
    return rt_set_error(e != cudaSuccess ? e : rt_enqueue(stream, &op));
}
RT_ALIAS(cudaMemcpy3DPeerAsync, cudaMemcpy3DPeerAsync_ptsz);

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind));
}
RT_ALIAS(cudaMemcpy2D, cudaMemcpy2D_ptds);

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(copy_async(dst, dpitch, src, spitch, width, height, kind, stream));
}
RT_ALIAS(cudaMemcpy2DAsync, cudaMemcpy2DAsync_ptsz);

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_memcpy3d(p));
}
RT_ALIAS(cudaMemcpy3D, cudaMemcpy3D_ptds);

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    if (!p)
        return rt_set_error(cudaErrorInvalidValue);
    rt_graph_op op = { .type = cudaGraphNodeTypeMemcpy };
    op.u.copy.is3d = true;
    op.u.copy.c3 = *p;
    return rt_set_error(rt_enqueue(stream, &op));
}
RT_ALIAS(cudaMemcpy3DAsync, cudaMemcpy3DAsync_ptsz);

/* ---- memsets ----------------------------------------------------------------- */

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_memset(devPtr, count, (unsigned)value, 1, count, 1));
}
RT_ALIAS(cudaMemset, cudaMemset_ptds);

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(memset_async(devPtr, count, value, count, 1, stream));
}
RT_ALIAS(cudaMemsetAsync, cudaMemsetAsync_ptsz);

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(rt_memset(devPtr, pitch, (unsigned)value, 1, width, height));
}
RT_ALIAS(cudaMemset2D, cudaMemset2D_ptds);

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(memset_async(devPtr, pitch, value, width, height, stream));
}
RT_ALIAS(cudaMemset2DAsync, cudaMemset2DAsync_ptsz);

/* One memset per slice; with a stream, each is issued to it (so a capture
 * records a chain of them), else run now. */
static cudaError_t memset3d(struct cudaPitchedPtr p, int value, struct cudaExtent x, const cudaStream_t *stream)
{
    if (!x.width || !x.height || !x.depth)
        return stream ? rt_stream_check(*stream) : cudaSuccess;
    size_t slice = p.pitch * (p.ysize ? p.ysize : x.height);
    for (size_t z = 0; z < x.depth; z++) {
        char *at = (char *)p.ptr + z * slice;
        cudaError_t e = stream ? memset_async(at, p.pitch, value, x.width, x.height, *stream)
                               : rt_memset(at, p.pitch, (unsigned)value, 1, x.width, x.height);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(memset3d(pitchedDevPtr, value, extent, NULL));
}
RT_ALIAS(cudaMemset3D, cudaMemset3D_ptds);

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    return rt_set_error(memset3d(pitchedDevPtr, value, extent, &stream));
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

/* A copy to or from a symbol: issued to *stream, or (NULL) run now. */
static cudaError_t symbol_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                               const cudaStream_t *stream)
{
    return stream ? copy_async(dst, count, src, count, count, 1, kind, *stream) : rt_memcpy(dst, src, count, kind);
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, const cudaStream_t *stream)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    char *at;
    cudaError_t e = symbol_range(symbol, count, offset, &at);
    return e != cudaSuccess ? e : symbol_copy(at, src, count, kind, stream);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, const cudaStream_t *stream)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    char *at;
    cudaError_t e = symbol_range(symbol, count, offset, &at);
    return e != cudaSuccess ? e : symbol_copy(dst, at, count, kind, stream);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(to_symbol(symbol, src, count, offset, kind, NULL));
}
RT_ALIAS(cudaMemcpyToSymbol, cudaMemcpyToSymbol_ptds);

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    RT_CAPTURE_UNSAFE();
    return rt_set_error(from_symbol(dst, symbol, count, offset, kind, NULL));
}
RT_ALIAS(cudaMemcpyFromSymbol, cudaMemcpyFromSymbol_ptds);

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : to_symbol(symbol, src, count, offset, kind, &stream));
}
RT_ALIAS(cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync_ptsz);

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    return rt_set_error(e != cudaSuccess ? e : from_symbol(dst, symbol, count, offset, kind, &stream));
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
 * and advice have nothing to move, but their arguments are checked and
 * they are remembered by page for cudaMemRangeGetAttribute (rt_managed.c). */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    RT_ASYNC_ENTRY();
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess && flags)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = check_location(location);
    if (e == cudaSuccess)
        e = rt_managed_prefetch(devPtr, count, (int)location.type, location.id);
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
        e = rt_managed_advise(devPtr, count, (int)advice, (int)location.type, location.id);
    return rt_set_error(e);
}

cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                     const void *devPtr, size_t count)
{
    return rt_set_error(rt_managed_range_attr(data, dataSize, (int)attribute, devPtr, count));
}

cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
                                      size_t numAttributes, const void *devPtr, size_t count)
{
    if (!data || !dataSizes || !attributes || !numAttributes)
        return rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; e == cudaSuccess && i < numAttributes; i++)
        e = rt_managed_range_attr(data[i], dataSizes[i], (int)attributes[i], devPtr, count);
    return rt_set_error(e);
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags)
{
    RT_ASYNC_ENTRY();
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
        flags != cudaMemAttachSingle)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_mem_check_managed(devPtr, length);
    return rt_set_error(e);
}
RT_ALIAS(cudaStreamAttachMemAsync, cudaStreamAttachMemAsync_ptsz);

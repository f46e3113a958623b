/*
 * cu_memory.c -- the driver API's memory calls, over the same core as the
 * runtime's (rt_memory.c): a CUdeviceptr is the device address, which in
 * ptxsim is also a host address.
 */
#include "cu_int.h"

#include <string.h>

#define DPTR(p) ((void *)(uintptr_t)(p))

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    CU_ENTER(true);
    if (!dptr || !bytesize)
        return CUDA_ERROR_INVALID_VALUE;
    CU_CAPTURE_UNSAFE();
    void *p = NULL;
    cudaError_t e = rt_mem_alloc(bytesize, RT_MEM_DEVICE, 0, &p);
    if (e == cudaSuccess)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return rt_cu_result(e);
}

CUresult cuMemFree(CUdeviceptr dptr)
{
    CU_ENTER(true);
    CU_CAPTURE_UNSAFE();
    return rt_cu_result(rt_mem_free_device(DPTR(dptr), RT_KIND(RT_MEM_DEVICE) | RT_KIND(RT_MEM_MANAGED)));
}

CUresult cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                         unsigned int ElementSizeBytes)
{
    CU_ENTER(true);
    if (!dptr || !pPitch || !WidthInBytes || !Height ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
        return CUDA_ERROR_INVALID_VALUE;
    size_t pitch = (WidthInBytes + 511) & ~(size_t)511;
    void *p = NULL;
    cudaError_t e = rt_mem_alloc(pitch * Height, RT_MEM_DEVICE, 0, &p);
    if (e == cudaSuccess) {
        *dptr = (CUdeviceptr)(uintptr_t)p;
        *pPitch = pitch;
    }
    return rt_cu_result(e);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    CU_ENTER(true);
    if (!dptr || !bytesize || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    cudaError_t e = rt_mem_alloc(bytesize, RT_MEM_MANAGED, flags, &p);
    if (e == cudaSuccess)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return rt_cu_result(e);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    CU_ENTER(true);
    if (!pp || (Flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
                                    CU_MEMHOSTALLOC_WRITECOMBINED)))
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_mem_alloc(bytesize, RT_MEM_HOST, Flags, pp));
}

CUresult cuMemAllocHost(void **pp, size_t bytesize)
{
    return cuMemHostAlloc(pp, bytesize, 0);
}

CUresult cuMemFreeHost(void *p)
{
    CU_ENTER(true);
    return rt_cu_result(rt_mem_free(p, RT_KIND(RT_MEM_HOST)));
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    CU_ENTER(true);
    if (!pdptr || Flags)
        return CUDA_ERROR_INVALID_VALUE;
    void *d = NULL;
    cudaError_t e = rt_mem_host_device_ptr(p, &d);
    if (e == cudaSuccess)
        *pdptr = (CUdeviceptr)(uintptr_t)d;
    return rt_cu_result(e);
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    CU_ENTER(true);
    return rt_cu_result(rt_mem_host_flags(p, pFlags));
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    CU_ENTER(true);
    return rt_cu_result(rt_mem_register(p, bytesize, Flags));
}

CUresult cuMemHostUnregister(void *p)
{
    CU_ENTER(true);
    return rt_cu_result(rt_mem_unregister(p));
}

CUresult cuMemGetInfo(size_t *free_bytes, size_t *total)
{
    CU_ENTER(true);
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    rt_mem_info(free_bytes, total);
    return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    CU_ENTER(true);
    uint64_t base = 0;
    size_t size = 0;
    if (rt_mem_range(DPTR(dptr), &base, &size) != cudaSuccess)
        return CUDA_ERROR_NOT_FOUND;
    if (pbase)
        *pbase = (CUdeviceptr)base;
    if (psize)
        *psize = size;
    return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    CU_ENTER(true);
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaPointerAttributes a;
    rt_mem_attributes(DPTR(ptr), &a);
    if (a.type == cudaMemoryTypeUnregistered)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t base = 0;
    size_t size = 0;
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = (CUcontext)rt_ctx_current();
        break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = a.type == cudaMemoryTypeHost ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)a.devicePointer;
        break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!a.hostPointer)
            return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = a.hostPointer;
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(unsigned *)data = a.type == cudaMemoryTypeManaged;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = 0;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        if (rt_mem_range(DPTR(ptr), &base, &size) != cudaSuccess)
            return CUDA_ERROR_INVALID_VALUE;
        if (attribute == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR)
            *(CUdeviceptr *)data = (CUdeviceptr)base;
        else
            *(size_t *)data = size;
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: {
        /* Unique within the process: the allocation's serial number, which
         * a later allocation at the same address does not share. */
        uint64_t id = rt_mem_buffer_id(DPTR(ptr));
        if (!id)
            return CUDA_ERROR_INVALID_VALUE;
        *(unsigned long long *)data = id;
        break;
    }
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* ---- copies and memsets ------------------------------------------------------- */

/* A copy; an async one is a stream operation, which a capturing stream
 * records into its graph (rt_enqueue) as the runtime's are. */
static CUresult copy(const char *entry, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, CUstream stream,
                     bool async)
{
    CU_ENTER_AS(true, entry);
    if (async) {
        rt_graph_op op = { .type = cudaGraphNodeTypeMemcpy };
        op.u.copy.dst = dst;
        op.u.copy.dpitch = op.u.copy.spitch = op.u.copy.width = n;
        op.u.copy.src = src;
        op.u.copy.height = 1;
        op.u.copy.kind = kind;
        return rt_cu_result(rt_enqueue((cudaStream_t)stream, &op));
    }
    /* A synchronous copy while a capture records the work it may depend
     * on: refused, as the runtime's cudaMemcpy is. */
    CU_CAPTURE_UNSAFE();
    cudaError_t e = rt_stream_check((cudaStream_t)stream);
    return rt_cu_result(e != cudaSuccess ? e : rt_memcpy(dst, src, n, kind));
}

CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return copy(__func__, DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, NULL, false);
}
RT_ALIAS(cuMemcpyHtoD, cuMemcpyHtoD_v2_ptds);

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy(__func__, dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost, NULL, false);
}
RT_ALIAS(cuMemcpyDtoH, cuMemcpyDtoH_v2_ptds);

CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy(__func__, DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, NULL, false);
}
RT_ALIAS(cuMemcpyDtoD, cuMemcpyDtoD_v2_ptds);

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return copy(__func__, DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault, NULL, false);
}
RT_ALIAS(cuMemcpy, cuMemcpy_ptds);

CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return copy(__func__, DPTR(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream, true);
}
RT_ALIAS(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2_ptsz);

CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return copy(__func__, dstHost, DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream, true);
}
RT_ALIAS(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2_ptsz);

CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return copy(__func__, DPTR(dstDevice), DPTR(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream, true);
}
RT_ALIAS(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2_ptsz);

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return copy(__func__, DPTR(dst), DPTR(src), ByteCount, cudaMemcpyDefault, hStream, true);
}
RT_ALIAS(cuMemcpyAsync, cuMemcpyAsync_ptsz);

static CUresult set(const char *entry, CUdeviceptr dst, size_t pitch, unsigned value, unsigned elem, size_t width,
                    size_t height, CUstream stream, bool async)
{
    CU_ENTER_AS(true, entry);
    /* "The dstDevice pointer must be two / four byte aligned" (cuMemsetD16,
     * cuMemsetD32, and their 2-D forms, whose pitch too). */
    if (dst % elem || (height > 1 && pitch % elem))
        return CUDA_ERROR_INVALID_VALUE;
    if (async) {
        rt_graph_op op = { .type = cudaGraphNodeTypeMemset };
        op.u.memset = (struct cudaMemsetParams){ DPTR(dst), pitch, value, elem, width, height };
        return rt_cu_result(rt_enqueue((cudaStream_t)stream, &op));
    }
    CU_CAPTURE_UNSAFE();
    cudaError_t e = rt_stream_check((cudaStream_t)stream);
    return rt_cu_result(e != cudaSuccess ? e : rt_memset(DPTR(dst), pitch, value, elem, width, height));
}

CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return set(__func__, dstDevice, N, uc, 1, N, 1, NULL, false);
}
RT_ALIAS(cuMemsetD8, cuMemsetD8_v2_ptds);

CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return set(__func__, dstDevice, 2 * N, us, 2, N, 1, NULL, false);
}
RT_ALIAS(cuMemsetD16, cuMemsetD16_v2_ptds);

CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return set(__func__, dstDevice, 4 * N, ui, 4, N, 1, NULL, false);
}
RT_ALIAS(cuMemsetD32, cuMemsetD32_v2_ptds);

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return set(__func__, dstDevice, N, uc, 1, N, 1, hStream, true);
}
RT_ALIAS(cuMemsetD8Async, cuMemsetD8Async_ptsz);

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return set(__func__, dstDevice, 2 * N, us, 2, N, 1, hStream, true);
}
RT_ALIAS(cuMemsetD16Async, cuMemsetD16Async_ptsz);

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
    RT_ASYNC_ENTRY();
    return set(__func__, dstDevice, 4 * N, ui, 4, N, 1, hStream, true);
}
RT_ALIAS(cuMemsetD32Async, cuMemsetD32Async_ptsz);

CUresult cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
    return set(__func__, dstDevice, dstPitch, uc, 1, Width, Height, NULL, false);
}
RT_ALIAS(cuMemsetD2D8, cuMemsetD2D8_v2_ptds);

CUresult cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)
{
    return set(__func__, dstDevice, dstPitch, ui, 4, Width, Height, NULL, false);
}
RT_ALIAS(cuMemsetD2D32, cuMemsetD2D32_v2_ptds);

/* Many attributes at once.  Unlike cuPointerGetAttribute, a pointer that is
 * not CUDA memory (or an attribute that does not apply to it) is no error:
 * its values are zero, NULL, or -2 for the device ordinal, as CUDA
 * documents. */
CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr)
{
    CU_ENTER(true);
    if (!numAttributes || !attributes || !data)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < numAttributes; i++) {
        void *out = data[i];
        if (!out)
            return CUDA_ERROR_INVALID_VALUE;
        switch (attributes[i]) {
        case CU_POINTER_ATTRIBUTE_CONTEXT:
        case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
            *(void **)out = NULL;
            break;
        case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
            *(unsigned long long *)out = 0;
            break;
        case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
            *(size_t *)out = 0;
            break;
        case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
            *(int *)out = -2;
            break;
        case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
            memset(out, 0, sizeof(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS));
            break;
        default:                        /* the boolean and flag attributes */
            *(unsigned *)out = 0;
            break;
        }
        CUresult r = cuPointerGetAttribute(out, attributes[i], ptr);
        if (r != CUDA_SUCCESS && r != CUDA_ERROR_INVALID_VALUE)
            return r;
    }
    return CUDA_SUCCESS;
}

/* ---- managed memory ------------------------------------------------------------ */

static CUresult check_location(CUmemLocation loc)
{
    switch (loc.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        return loc.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* Managed memory is one allocation both sides use directly: prefetching
 * and advice have nothing to move, but their arguments are checked. */
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                            CUstream hStream)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    cudaError_t e = rt_stream_check((cudaStream_t)hStream);
    if (e != cudaSuccess)
        return rt_cu_result(e);
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = check_location(location);
    return r != CUDA_SUCCESS ? r
                             : rt_cu_result(rt_managed_prefetch(DPTR(devPtr), count, (int)location.type, location.id));
}
RT_ALIAS(cuMemPrefetchAsync, cuMemPrefetchAsync_v2_ptsz);

CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
    CU_ENTER(true);
    if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = advice == CU_MEM_ADVISE_SET_READ_MOSTLY || advice == CU_MEM_ADVISE_UNSET_READ_MOSTLY
                     ? CUDA_SUCCESS : check_location(location);
    /* CUmem_advise, CUmemLocationType and CUmem_range_attribute have the
     * runtime's numbers. */
    return r != CUDA_SUCCESS ? r
                             : rt_cu_result(rt_managed_advise(DPTR(devPtr), count, (int)advice, (int)location.type,
                                                              location.id));
}

CUresult cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute, CUdeviceptr devPtr,
                                size_t count)
{
    CU_ENTER(true);
    return rt_cu_result(rt_managed_range_attr(data, dataSize, (int)attribute, DPTR(devPtr), count));
}

CUresult cuMemRangeGetAttributes(void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
                                 size_t numAttributes, CUdeviceptr devPtr, size_t count)
{
    CU_ENTER(true);
    if (!data || !dataSizes || !attributes || !numAttributes)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; e == cudaSuccess && i < numAttributes; i++)
        e = rt_managed_range_attr(data[i], dataSizes[i], (int)attributes[i], DPTR(devPtr), count);
    return rt_cu_result(e);
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    RT_ASYNC_ENTRY();
    CU_ENTER(true);
    cudaError_t e = rt_stream_check((cudaStream_t)hStream);
    if (e != cudaSuccess)
        return rt_cu_result(e);
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_mem_check_managed(DPTR(dptr), length));
}
RT_ALIAS(cuStreamAttachMemAsync, cuStreamAttachMemAsync_ptsz);

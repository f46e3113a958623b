/*
 * cu_image.c -- the driver API's CUDA arrays, texture and surface objects,
 * and 2-D copies (which may have an array on either side), over the same
 * core as the runtime's (rt_image.c).  The driver describes formats by
 * CUarray_format and a channel count, and reads integer textures as
 * normalised floats unless CU_TRSF_READ_AS_INTEGER says otherwise.
 */
#include "cu_int.h"

#include <string.h>

#define DPTR(p) ((void *)(uintptr_t)(p))

/* A driver format as the runtime's channel descriptor. */
static bool channel_desc(CUarray_format f, unsigned channels, struct cudaChannelFormatDesc *d)
{
    int bits;
    enum cudaChannelFormatKind kind;
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_HALF: bits = 16; kind = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32; kind = cudaChannelFormatKindFloat; break;
    default: return false;
    }
    if (channels != 1 && channels != 2 && channels != 4)
        return false;
    *d = (struct cudaChannelFormatDesc){ bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0,
                                         channels > 2 ? bits : 0, kind };
    return true;
}

/* ---- arrays ------------------------------------------------------------------ */

CUresult cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *p)
{
    CU_ENTER(true);
    struct cudaChannelFormatDesc d;
    if (!pHandle || !p || !channel_desc(p->Format, p->NumChannels, &d))
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_array_create(&d, p->Width, p->Height, 0, 0, (rt_array **)pHandle));
}

CUresult cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p)
{
    CU_ENTER(true);
    struct cudaChannelFormatDesc d;
    if (!pHandle || !p || !channel_desc(p->Format, p->NumChannels, &d))
        return CUDA_ERROR_INVALID_VALUE;
    /* CUDA_ARRAY3D_LAYERED, _SURFACE_LDST, _CUBEMAP, _TEXTURE_GATHER have
     * the runtime's cudaArray* values. */
    return rt_cu_result(rt_array_create(&d, p->Width, p->Height, p->Depth, p->Flags, (rt_array **)pHandle));
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p,
                                unsigned int numMipmapLevels)
{
    CU_ENTER(true);
    struct cudaChannelFormatDesc d;
    if (!pHandle || !p || !channel_desc(p->Format, p->NumChannels, &d))
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaExtent x = { p->Width, p->Height, p->Depth };
    return rt_cu_result(rt_mipmap_create(&d, x, numMipmapLevels, p->Flags, (rt_mipmap **)pHandle));
}

CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level)
{
    CU_ENTER(true);
    return rt_cu_result(rt_mipmap_level((const rt_mipmap *)hMipmappedArray, level, (rt_array **)pLevelArray));
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)
{
    CU_ENTER(true);
    return rt_cu_result(rt_mipmap_destroy((rt_mipmap *)hMipmappedArray));
}

CUresult cuArrayDestroy(CUarray hArray)
{
    CU_ENTER(true);
    if (!rt_array_live(hArray))
        return CUDA_ERROR_INVALID_HANDLE;
    return rt_cu_result(rt_array_destroy((rt_array *)hArray));
}

/* A runtime channel descriptor as the driver's format and channel count
 * (the inverse of channel_desc). */
static void format_of(const struct cudaChannelFormatDesc *d, CUarray_format *fmt, unsigned *channels)
{
    *channels = 1 + (d->y > 0) + (d->z > 0) + (d->w > 0);
    bool s = d->f == cudaChannelFormatKindSigned, f = d->f == cudaChannelFormatKindFloat;
    *fmt = f ? (d->x == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT)
         : d->x == 8 ? (s ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8)
         : d->x == 16 ? (s ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16)
                      : (s ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32);
}

/* The driver's format of an array, from its runtime descriptor. */
static CUresult describe(CUarray a, CUarray_format *fmt, unsigned *channels, struct cudaExtent *ext,
                         unsigned *flags)
{
    struct cudaChannelFormatDesc d;
    if (rt_array_info(rt_array_live(a), &d, ext, flags) != cudaSuccess)
        return CUDA_ERROR_INVALID_HANDLE;
    format_of(&d, fmt, channels);
    return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *p, CUarray hArray)
{
    CU_ENTER(true);
    struct cudaExtent ext;
    unsigned flags, channels;
    CUarray_format fmt;
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = describe(hArray, &fmt, &channels, &ext, &flags);
    if (r == CUDA_SUCCESS)
        *p = (CUDA_ARRAY3D_DESCRIPTOR){ ext.width, ext.height, ext.depth, fmt, channels, flags };
    return r;
}

CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *p, CUarray hArray)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = p ? cuArray3DGetDescriptor(&d, hArray) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *p = (CUDA_ARRAY_DESCRIPTOR){ d.Width, d.Height, d.Format, d.NumChannels };
    return r;
}

/* ---- 2-D copies ------------------------------------------------------------------ */

/* One side of a 2-D copy as a pointer to its first byte and a pitch. */
static CUresult side(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray arr, size_t pitch,
                     size_t x, size_t y, size_t width, size_t height, char **at, size_t *out_pitch)
{
    struct cudaPitchedPtr pp;
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        *at = (char *)host + y * pitch + x;
        *out_pitch = pitch;
        return CUDA_SUCCESS;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        *at = (char *)DPTR(dev) + y * pitch + x;
        *out_pitch = pitch;
        return CUDA_SUCCESS;
    case CU_MEMORYTYPE_ARRAY:
        if (rt_array_pitched(rt_array_live(arr), &pp) != cudaSuccess)
            return CUDA_ERROR_INVALID_HANDLE;
        if (x + width > pp.pitch || y + height > pp.ysize)
            return CUDA_ERROR_INVALID_VALUE;
        *at = (char *)pp.ptr + y * pp.pitch + x;
        *out_pitch = pp.pitch;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D *p)
{
    CU_ENTER(true);
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    char *s, *d;
    size_t sp, dp;
    CUresult r = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcXInBytes,
                      p->srcY, p->WidthInBytes, p->Height, &s, &sp);
    if (r == CUDA_SUCCESS)
        r = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstXInBytes, p->dstY,
                 p->WidthInBytes, p->Height, &d, &dp);
    if (r != CUDA_SUCCESS)
        return r;
    /* Every device-side address lies in ptxsim's reservation, so the core
     * tells the sides apart itself. */
    return rt_cu_result(rt_memcpy2d(d, dp, s, sp, p->WidthInBytes, p->Height, cudaMemcpyDefault));
}
RT_ALIAS(cuMemcpy2D, cuMemcpy2DUnaligned);
RT_ALIAS(cuMemcpy2D, cuMemcpy2D_v2_ptds);
RT_ALIAS(cuMemcpy2D, cuMemcpy2DUnaligned_v2_ptds);

/* The async forms: work runs in issue order, so after the stream is
 * checked a copy is done at once, as cuMemcpyAsync's are. */
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    CU_ENTER(true);
    cudaError_t e = rt_stream_check((cudaStream_t)hStream);
    return e != cudaSuccess ? rt_cu_result(e) : cuMemcpy2D(pCopy);
}
RT_ALIAS(cuMemcpy2DAsync, cuMemcpy2DAsync_v2_ptsz);

/* ---- 3-D copies ------------------------------------------------------------------ */

/* One side of a 3-D copy: its first byte, row pitch and slice pitch.  An
 * array's slices follow one another, rows packed (rt_array_pitched). */
CUresult cu_copy_side3d(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray arr, size_t pitch,
                        size_t height, size_t x, size_t y, size_t z, const CUDA_MEMCPY3D *p, char **at,
                        size_t *out_pitch, size_t *out_slice)
{
    if (type == CU_MEMORYTYPE_ARRAY) {
        struct cudaPitchedPtr pp;
        struct cudaExtent ext;
        rt_array *a = rt_array_live(arr);
        if (!a || rt_array_pitched(a, &pp) != cudaSuccess || rt_array_info(a, NULL, &ext, NULL) != cudaSuccess)
            return CUDA_ERROR_INVALID_HANDLE;
        size_t depth = ext.depth ? ext.depth : 1;
        if (x + p->WidthInBytes > pp.pitch || y + p->Height > pp.ysize || z + p->Depth > depth)
            return CUDA_ERROR_INVALID_VALUE;
        *out_pitch = pp.pitch;
        *out_slice = pp.pitch * pp.ysize;
        *at = (char *)pp.ptr + z * *out_slice + y * pp.pitch + x;
        return CUDA_SUCCESS;
    }
    if (p->Depth > 1 && height < p->Height)
        return CUDA_ERROR_INVALID_VALUE;
    *out_pitch = pitch;
    *out_slice = pitch * height;
    if (type == CU_MEMORYTYPE_HOST)
        *at = (char *)host;
    else if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED)
        *at = (char *)DPTR(dev);
    else
        return CUDA_ERROR_INVALID_VALUE;
    *at += z * *out_slice + y * pitch + x;
    return CUDA_SUCCESS;
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D *p)
{
    CU_ENTER(true);
    if (!p || p->srcLOD || p->dstLOD)
        return CUDA_ERROR_INVALID_VALUE;
    char *s, *d;
    size_t sp, ss, dp, ds;
    CUresult r = cu_copy_side3d(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight,
                        p->srcXInBytes, p->srcY, p->srcZ, p, &s, &sp, &ss);
    if (r == CUDA_SUCCESS)
        r = cu_copy_side3d(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight,
                   p->dstXInBytes, p->dstY, p->dstZ, p, &d, &dp, &ds);
    for (size_t z = 0; r == CUDA_SUCCESS && z < p->Depth; z++)
        r = rt_cu_result(rt_memcpy2d(d + z * ds, dp, s + z * ss, sp, p->WidthInBytes, p->Height,
                                     cudaMemcpyDefault));
    return r;
}
RT_ALIAS(cuMemcpy3D, cuMemcpy3D_v2_ptds);

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    CU_ENTER(true);
    cudaError_t e = rt_stream_check((cudaStream_t)hStream);
    return e != cudaSuccess ? rt_cu_result(e) : cuMemcpy3D(pCopy);
}
RT_ALIAS(cuMemcpy3DAsync, cuMemcpy3DAsync_v2_ptsz);

CUresult cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
    CU_ENTER(true);
    struct cudaPitchedPtr pp;
    if (rt_array_pitched(rt_array_live(dstArray), &pp) != cudaSuccess)
        return CUDA_ERROR_INVALID_HANDLE;
    if (dstOffset + ByteCount > pp.pitch * pp.ysize || dstOffset + ByteCount < dstOffset)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_memcpy((char *)pp.ptr + dstOffset, srcHost, ByteCount, cudaMemcpyHostToDevice));
}
RT_ALIAS(cuMemcpyHtoA, cuMemcpyHtoA_v2_ptds);

CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    CU_ENTER(true);
    struct cudaPitchedPtr pp;
    if (rt_array_pitched(rt_array_live(srcArray), &pp) != cudaSuccess)
        return CUDA_ERROR_INVALID_HANDLE;
    if (srcOffset + ByteCount > pp.pitch * pp.ysize || srcOffset + ByteCount < srcOffset)
        return CUDA_ERROR_INVALID_VALUE;
    return rt_cu_result(rt_memcpy(dstHost, (char *)pp.ptr + srcOffset, ByteCount, cudaMemcpyDeviceToHost));
}
RT_ALIAS(cuMemcpyAtoH, cuMemcpyAtoH_v2_ptds);

/* ---- texture and surface objects ---------------------------------------------- */

static CUresult resource(const CUDA_RESOURCE_DESC *r, struct cudaResourceDesc *out)
{
    memset(out, 0, sizeof *out);
    out->flags = r->flags;
    switch (r->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        out->resType = cudaResourceTypeArray;
        out->res.array.array = (cudaArray_t)r->res.array.hArray;
        return CUDA_SUCCESS;
    case CU_RESOURCE_TYPE_LINEAR:
        out->resType = cudaResourceTypeLinear;
        out->res.linear.devPtr = DPTR(r->res.linear.devPtr);
        out->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        return channel_desc(r->res.linear.format, r->res.linear.numChannels, &out->res.linear.desc)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_RESOURCE_TYPE_PITCH2D:
        out->resType = cudaResourceTypePitch2D;
        out->res.pitch2D.devPtr = DPTR(r->res.pitch2D.devPtr);
        out->res.pitch2D.width = r->res.pitch2D.width;
        out->res.pitch2D.height = r->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        return channel_desc(r->res.pitch2D.format, r->res.pitch2D.numChannels, &out->res.pitch2D.desc)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        out->resType = cudaResourceTypeMipmappedArray;
        out->res.mipmap.mipmap = (cudaMipmappedArray_t)r->res.mipmap.hMipmappedArray;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    CU_ENTER(true);
    (void)pResViewDesc;             /* views (reinterpreted formats, sub-ranges) are not modelled */
    struct cudaResourceDesc res;
    if (!pTexObject || !pResDesc || !pTexDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = resource(pResDesc, &res);
    if (r != CUDA_SUCCESS)
        return r;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    for (int i = 0; i < 3; i++)
        td.addressMode[i] = (enum cudaTextureAddressMode)pTexDesc->addressMode[i];
    td.filterMode = (enum cudaTextureFilterMode)pTexDesc->filterMode;
    td.readMode = pTexDesc->flags & CU_TRSF_READ_AS_INTEGER ? cudaReadModeElementType
                                                             : cudaReadModeNormalizedFloat;
    td.normalizedCoords = (pTexDesc->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    memcpy(td.borderColor, pTexDesc->borderColor, sizeof td.borderColor);
    td.mipmapFilterMode = (enum cudaTextureFilterMode)pTexDesc->mipmapFilterMode;
    td.mipmapLevelBias = pTexDesc->mipmapLevelBias;
    td.minMipmapLevelClamp = pTexDesc->minMipmapLevelClamp;
    td.maxMipmapLevelClamp = pTexDesc->maxMipmapLevelClamp;
    uint64_t h = 0;
    r = rt_cu_result(rt_image_create(&h, &res, &td, NULL, false));
    if (r == CUDA_SUCCESS)
        *pTexObject = h;
    return r;
}

CUresult cuTexObjectDestroy(CUtexObject texObject)
{
    CU_ENTER(true);
    return rt_cu_result(rt_image_destroy(texObject, false));
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    CU_ENTER(true);
    struct cudaResourceDesc res;
    if (!pSurfObject || !pResDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = resource(pResDesc, &res);
    uint64_t h = 0;
    if (r == CUDA_SUCCESS)
        r = rt_cu_result(rt_image_create(&h, &res, NULL, NULL, true));
    if (r == CUDA_SUCCESS)
        *pSurfObject = h;
    return r;
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
    CU_ENTER(true);
    return rt_cu_result(rt_image_destroy(surfObject, true));
}

/* ---- descriptors of texture and surface objects ------------------------------- */

/* The runtime's resource descriptor as the driver's (the inverse of resource). */
static void resource_back(const struct cudaResourceDesc *r, CUDA_RESOURCE_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->flags = r->flags;
    unsigned channels;
    switch (r->resType) {
    case cudaResourceTypeArray:
        out->resType = CU_RESOURCE_TYPE_ARRAY;
        out->res.array.hArray = (CUarray)r->res.array.array;
        break;
    case cudaResourceTypeMipmappedArray:
        out->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
        out->res.mipmap.hMipmappedArray = (CUmipmappedArray)r->res.mipmap.mipmap;
        break;
    case cudaResourceTypeLinear:
        out->resType = CU_RESOURCE_TYPE_LINEAR;
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
        out->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        format_of(&r->res.linear.desc, &out->res.linear.format, &channels);
        out->res.linear.numChannels = channels;
        break;
    default:
        out->resType = CU_RESOURCE_TYPE_PITCH2D;
        out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
        out->res.pitch2D.width = r->res.pitch2D.width;
        out->res.pitch2D.height = r->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        format_of(&r->res.pitch2D.desc, &out->res.pitch2D.format, &channels);
        out->res.pitch2D.numChannels = channels;
        break;
    }
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    CU_ENTER(true);
    struct cudaResourceDesc r;
    if (!pResDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = rt_cu_result(rt_image_desc(texObject, false, &r, NULL, NULL));
    if (e == CUDA_SUCCESS)
        resource_back(&r, pResDesc);
    return e;
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    CU_ENTER(true);
    struct cudaResourceDesc r;
    if (!pResDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = rt_cu_result(rt_image_desc(surfObject, true, &r, NULL, NULL));
    if (e == CUDA_SUCCESS)
        resource_back(&r, pResDesc);
    return e;
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    CU_ENTER(true);
    struct cudaTextureDesc t;
    if (!pTexDesc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = rt_cu_result(rt_image_desc(texObject, false, NULL, &t, NULL));
    if (e != CUDA_SUCCESS)
        return e;
    memset(pTexDesc, 0, sizeof *pTexDesc);
    for (int i = 0; i < 3; i++)
        pTexDesc->addressMode[i] = (CUaddress_mode)t.addressMode[i];
    pTexDesc->filterMode = (CUfilter_mode)t.filterMode;
    /* cuTexObjectCreate stored the flags as the runtime's fields. */
    pTexDesc->flags = (t.readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
                      (t.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0);
    pTexDesc->maxAnisotropy = t.maxAnisotropy;
    pTexDesc->mipmapFilterMode = (CUfilter_mode)t.mipmapFilterMode;
    pTexDesc->mipmapLevelBias = t.mipmapLevelBias;
    pTexDesc->minMipmapLevelClamp = t.minMipmapLevelClamp;
    pTexDesc->maxMipmapLevelClamp = t.maxMipmapLevelClamp;
    memcpy(pTexDesc->borderColor, t.borderColor, sizeof pTexDesc->borderColor);
    return CUDA_SUCCESS;
}

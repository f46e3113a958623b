/*
 * cudart_image.c -- the runtime API's CUDA arrays, texture objects and
 * surface objects, and the copies into and out of arrays.  The work is
 * done by the core (rt_image.c).
 */
#include "rt_int.h"

/* ---- channel formats ------------------------------------------------------ */

/* The one runtime call that returns a value instead of an error (the
 * templates in channel_descriptor.h call it). */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){ x, y, z, w, f };
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    if (!desc)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_array_info(rt_array_live(array), desc, NULL, NULL));
}

/* ---- arrays ---------------------------------------------------------------- */

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags)
{
    if (flags & (cudaArrayLayered | cudaArrayCubemap))
        return rt_set_error(cudaErrorInvalidValue);    /* those need cudaMalloc3DArray */
    return rt_set_error(rt_array_create(desc, width, height, 0, flags, (rt_array **)array));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags)
{
    return rt_set_error(rt_array_create(desc, extent.width, extent.height, extent.depth, flags,
                                        (rt_array **)array));
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    return rt_set_error(rt_array_destroy((rt_array *)array));
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int numLevels, unsigned int flags)
{
    return rt_set_error(rt_mipmap_create(desc, extent, numLevels, flags, (rt_mipmap **)mipmappedArray));
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level)
{
    return rt_set_error(rt_mipmap_level((const rt_mipmap *)mipmappedArray, level, (rt_array **)levelArray));
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    return rt_set_error(rt_mipmap_destroy((rt_mipmap *)mipmappedArray));
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array)
{
    return rt_set_error(rt_array_info(rt_array_live(array), desc, extent, flags));
}

/* ---- copies into and out of arrays -------------------------------------- */

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return rt_set_error(rt_array_copy2d((rt_array *)dst, wOffset, hOffset, 0, (void *)src, spitch, width,
                                        height, kind, true));
}
RT_ALIAS(cudaMemcpy2DToArray, cudaMemcpy2DToArray_ptds);

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t spitch, size_t width, size_t height,
                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess)
        e = rt_capture_refuse(stream);      /* array copies are not captured */
    return e != cudaSuccess ? rt_set_error(e)
                            : cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
RT_ALIAS(cudaMemcpy2DToArrayAsync, cudaMemcpy2DToArrayAsync_ptsz);

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return rt_set_error(rt_array_copy2d((rt_array *)src, wOffset, hOffset, 0, dst, dpitch, width, height,
                                        kind, false));
}
RT_ALIAS(cudaMemcpy2DFromArray, cudaMemcpy2DFromArray_ptds);

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height,
                                       enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess)
        e = rt_capture_refuse(stream);      /* array copies are not captured */
    return e != cudaSuccess ? rt_set_error(e)
                            : cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
RT_ALIAS(cudaMemcpy2DFromArrayAsync, cudaMemcpy2DFromArrayAsync_ptsz);

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height, enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_set_error(cudaErrorInvalidMemcpyDirection);
    return rt_set_error(rt_array_copy_array((rt_array *)dst, wOffsetDst, hOffsetDst, (const rt_array *)src,
                                            wOffsetSrc, hOffsetSrc, width, height));
}
RT_ALIAS(cudaMemcpy2DArrayToArray, cudaMemcpy2DArrayToArray_ptds);

/* The deprecated 1-D forms copy `count` bytes starting at (wOffset,
 * hOffset) and running on into the following rows: as one 2-D copy when
 * they start a row, else a partial row first. */
static cudaError_t copy_linear(rt_array *a, size_t x, size_t y, void *p, size_t count,
                               enum cudaMemcpyKind kind, bool to_array)
{
    struct cudaPitchedPtr pp;
    cudaError_t e = rt_array_pitched(a, &pp);
    if (e != cudaSuccess)
        return e;
    size_t row = pp.pitch;
    while (count && e == cudaSuccess) {
        size_t n = x + count > row ? row - x : count;
        if (x == 0 && count >= row) {
            size_t rows = count / row;
            e = rt_array_copy2d(a, 0, y, 0, p, row, row, rows, kind, to_array);
            n = rows * row;
            y += rows;
        } else {
            e = rt_array_copy2d(a, x, y, 0, p, n, n, 1, kind, to_array);
            x = 0;
            y++;
        }
        p = (char *)p + n;
        count -= n;
    }
    return e;
}

/* Deprecated in CUDA's headers, still called by older programs. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind)
{
    return rt_set_error(copy_linear((rt_array *)dst, wOffset, hOffset, (void *)src, count, kind, true));
}
RT_ALIAS(cudaMemcpyToArray, cudaMemcpyToArray_ptds);

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, enum cudaMemcpyKind kind)
{
    return rt_set_error(copy_linear((rt_array *)src, wOffset, hOffset, dst, count, kind, false));
}
RT_ALIAS(cudaMemcpyFromArray, cudaMemcpyFromArray_ptds);

/* `count` bytes from one array into another, each side running on into
 * its following rows: piece by piece, each piece as long as both rows
 * allow. */
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_set_error(cudaErrorInvalidMemcpyDirection);
    struct cudaPitchedPtr dp, sp;
    cudaError_t e = rt_array_pitched(rt_array_live(dst), &dp);
    if (e == cudaSuccess)
        e = rt_array_pitched(rt_array_live(src), &sp);
    size_t dx = wOffsetDst, dy = hOffsetDst, sx = wOffsetSrc, sy = hOffsetSrc;
    /* Both ranges inside their arrays before anything is copied. */
    if (e == cudaSuccess && (dx >= dp.pitch || sx >= sp.pitch || dy >= dp.ysize || sy >= sp.ysize ||
                             count > (dp.ysize - dy) * dp.pitch - dx || count > (sp.ysize - sy) * sp.pitch - sx))
        e = cudaErrorInvalidValue;
    while (e == cudaSuccess && count) {
        size_t n = count;
        if (dp.pitch - dx < n)
            n = dp.pitch - dx;
        if (sp.pitch - sx < n)
            n = sp.pitch - sx;
        e = rt_array_copy_array((rt_array *)dst, dx, dy, (const rt_array *)src, sx, sy, n, 1);
        if ((dx += n) == dp.pitch)
            dx = 0, dy++;
        if ((sx += n) == sp.pitch)
            sx = 0, sy++;
        count -= n;
    }
    return rt_set_error(e);
}
RT_ALIAS(cudaMemcpyArrayToArray, cudaMemcpyArrayToArray_ptds);

/* The async forms: checked as the 2-D ones are (array copies are not
 * captured), then done before returning, as all work is. */
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess)
        e = rt_capture_refuse(stream);
    return e != cudaSuccess ? rt_set_error(e) : cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}
RT_ALIAS(cudaMemcpyToArrayAsync, cudaMemcpyToArrayAsync_ptsz);

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess)
        e = rt_capture_refuse(stream);
    return e != cudaSuccess ? rt_set_error(e) : cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}
RT_ALIAS(cudaMemcpyFromArrayAsync, cudaMemcpyFromArrayAsync_ptsz);
#pragma GCC diagnostic pop

/* ---- texture and surface objects ------------------------------------------ */

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc)
{
    if (!pTexDesc)
        return rt_set_error(cudaErrorInvalidValue);
    return rt_set_error(rt_image_create((uint64_t *)pTexObject, pResDesc, pTexDesc, pResViewDesc, false));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    return rt_set_error(rt_image_destroy(texObject, false));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    return rt_set_error(pResDesc ? rt_image_desc(texObject, false, pResDesc, NULL, NULL) : cudaErrorInvalidValue);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    return rt_set_error(pTexDesc ? rt_image_desc(texObject, false, NULL, pTexDesc, NULL) : cudaErrorInvalidValue);
}

cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                 cudaTextureObject_t texObject)
{
    return rt_set_error(pResViewDesc ? rt_image_desc(texObject, false, NULL, NULL, pResViewDesc)
                                     : cudaErrorInvalidValue);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    return rt_set_error(rt_image_create((uint64_t *)pSurfObject, pResDesc, NULL, NULL, true));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return rt_set_error(rt_image_destroy(surfObject, true));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)
{
    return rt_set_error(pResDesc ? rt_image_desc(surfObject, true, pResDesc, NULL, NULL) : cudaErrorInvalidValue);
}

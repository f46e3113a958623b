/*
 * rt_image.c -- CUDA arrays, texture objects and surface objects.
 *
 * An array is an allocation in device memory holding its texels row after
 * row (a GPU tiles them; no program can tell, since arrays are reached only
 * through copies, textures and surfaces).  A texture or surface object is
 * an isa_image registered with the engine (exec_image_create): the handle
 * the engine returns is the cudaTextureObject_t the program passes to its
 * kernels.  The descriptors the object was made from are kept so the
 * cudaGet*ObjectResourceDesc calls can return them.
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

enum { RT_MAGIC_ARRAY = 0x41727279, RT_MAGIC_MIPMAP = 0x4d69706d };

struct rt_array {
    uint32_t magic;
    const struct rt_mipmap *owner;      /* a level of this mipmapped array (not the program's to free) */
    uint64_t addr;                      /* texels in device memory */
    struct cudaChannelFormatDesc desc;
    size_t width, height, depth;        /* as allocated (0 for absent dimensions) */
    unsigned flags;                     /* cudaArray* flags */
    unsigned texel;                     /* bytes per texel */
};

/* A mipmapped array: its levels, each an array of its own (which
 * cudaGetMipmappedArrayLevel hands out for copies and surfaces). */
struct rt_mipmap {
    uint32_t magic;
    unsigned levels;
    rt_array *level[ISA_MAX_MIP_LEVELS];
};

typedef struct rt_image_obj {
    bool surface;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    struct cudaResourceViewDesc view;
    bool has_view;
} rt_image_obj;

/* Channel layout of a format descriptor: false if CUDA refuses it. */
static bool channel_layout(const struct cudaChannelFormatDesc *d, unsigned *channels, unsigned *bytes,
                           uint8_t *kind)
{
    int bits[4] = { d->x, d->y, d->z, d->w };
    unsigned n = 0;
    while (n < 4 && bits[n] > 0)
        n++;
    for (unsigned i = n; i < 4; i++)
        if (bits[i] != 0)
            return false;               /* a gap: x and z but no y */
    if (n == 0 || n == 3)
        return false;
    for (unsigned i = 1; i < n; i++)
        if (bits[i] != bits[0])
            return false;
    if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)
        return false;
    switch (d->f) {
    case cudaChannelFormatKindSigned: *kind = ISA_CHAN_SIGNED; break;
    case cudaChannelFormatKindUnsigned: *kind = ISA_CHAN_UNSIGNED; break;
    case cudaChannelFormatKindFloat:
        if (bits[0] == 8)
            return false;
        *kind = ISA_CHAN_FLOAT;
        break;
    default:
        return false;
    }
    *channels = n;
    *bytes = (unsigned)bits[0] / 8;
    return true;
}

rt_array *rt_array_live(const void *a)
{
    if (!a)
        return NULL;
    rt_lock();
    rt_array *r = rt_ptrmap_get(&rt.arrays, a);
    rt_unlock();
    return r;
}

cudaError_t rt_array_create(const struct cudaChannelFormatDesc *desc, size_t w, size_t h, size_t d,
                            unsigned flags, rt_array **out)
{
    unsigned known = cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap |
                     cudaArrayTextureGather;
    unsigned channels, bytes;
    uint8_t kind;
    if (!out || !desc || !w || (flags & ~known))
        return cudaErrorInvalidValue;
    if (!channel_layout(desc, &channels, &bytes, &kind))
        return cudaErrorInvalidChannelDescriptor;
    bool layered = flags & cudaArrayLayered, cube = flags & cudaArrayCubemap;
    if (cube && (w != h || !d || d % 6 || (!layered && d != 6)))
        return cudaErrorInvalidValue;
    if (layered && !d)
        return cudaErrorInvalidValue;
    if (!h && d && !layered)
        return cudaErrorInvalidValue;   /* 3-D needs a height */
    const size_t limit = (size_t)1 << 16;
    if (w > ((size_t)1 << 17) || h > limit || d > limit)
        return cudaErrorInvalidValue;
    unsigned texel = channels * bytes;
    uint64_t total = (uint64_t)w * texel * (h ? h : 1) * (d ? d : 1);
    rt_array *a = calloc(1, sizeof *a);
    if (!a)
        return cudaErrorMemoryAllocation;
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess && !rt.mem)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && exec_malloc(rt.mem, total, 512, &a->addr) != PTX_OK)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        a->magic = RT_MAGIC_ARRAY;
        a->desc = *desc;
        a->width = w;
        a->height = h;
        a->depth = d;
        a->flags = flags;
        a->texel = texel;
        if (!rt_ptrmap_put(&rt.arrays, a, a)) {
            exec_free(rt.mem, a->addr);
            e = cudaErrorMemoryAllocation;
        }
    }
    rt_unlock();
    if (e != cudaSuccess) {
        free(a);
        return e;
    }
    *out = a;
    return cudaSuccess;
}

cudaError_t rt_array_destroy(rt_array *a)
{
    if (!a)
        return cudaSuccess;             /* cudaFreeArray(NULL) does nothing */
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess && (!rt_ptrmap_get(&rt.arrays, a) || a->owner))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        rt_ptrmap_del(&rt.arrays, a);
        if (rt.mem)
            exec_free(rt.mem, a->addr);
        a->magic = 0;
        free(a);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_array_info(const rt_array *a, struct cudaChannelFormatDesc *desc,
                          struct cudaExtent *extent, unsigned *flags)
{
    if (!rt_array_live(a))
        return cudaErrorInvalidValue;
    if (desc)
        *desc = a->desc;
    if (extent)
        *extent = (struct cudaExtent){ a->width, a->height, a->depth };
    if (flags)
        *flags = a->flags;
    return cudaSuccess;
}

/* Rows of an array are width * texel bytes, tightly packed; layers and
 * depth slices follow each other. */
static size_t row_bytes(const rt_array *a) { return a->width * a->texel; }
static size_t rows(const rt_array *a) { return a->height ? a->height : 1; }

cudaError_t rt_array_copy2d(rt_array *a, size_t x, size_t y, size_t z, void *host, size_t hpitch,
                            size_t width, size_t height, enum cudaMemcpyKind kind, bool to_array)
{
    if (!rt_array_live(a))
        return cudaErrorInvalidValue;
    size_t slices = a->depth ? a->depth : 1;
    if (x + width > row_bytes(a) || y + height > rows(a) || z >= slices || x + width < x ||
        y + height < y)
        return cudaErrorInvalidValue;
    void *at = (void *)(uintptr_t)(a->addr + (z * rows(a) + y) * row_bytes(a) + x);
    return to_array ? rt_memcpy2d(at, row_bytes(a), host, hpitch, width, height, kind)
                    : rt_memcpy2d(host, hpitch, at, row_bytes(a), width, height, kind);
}

cudaError_t rt_array_copy_array(rt_array *dst, size_t dx, size_t dy, const rt_array *src, size_t sx,
                                size_t sy, size_t width, size_t height)
{
    if (!rt_array_live(dst) || !rt_array_live(src))
        return cudaErrorInvalidValue;
    if (dx + width > row_bytes(dst) || dy + height > rows(dst) || sx + width > row_bytes(src) ||
        sy + height > rows(src))
        return cudaErrorInvalidValue;
    return rt_memcpy2d((void *)(uintptr_t)(dst->addr + dy * row_bytes(dst) + dx), row_bytes(dst),
                       (const void *)(uintptr_t)(src->addr + sy * row_bytes(src) + sx), row_bytes(src),
                       width, height, cudaMemcpyDeviceToDevice);
}

unsigned rt_array_texel(const rt_array *a)
{
    return rt_array_live(a) ? a->texel : 0;
}

cudaError_t rt_array_pitched(const rt_array *a, struct cudaPitchedPtr *p)
{
    if (!rt_array_live(a))
        return cudaErrorInvalidValue;
    *p = (struct cudaPitchedPtr){ (void *)(uintptr_t)a->addr, row_bytes(a), row_bytes(a), rows(a) };
    return cudaSuccess;
}

/* ---- mipmapped arrays --------------------------------------------------- */

rt_mipmap *rt_mipmap_live(const void *m)
{
    rt_lock();
    rt_mipmap *r = m ? rt_ptrmap_get(&rt.mipmaps, m) : NULL;
    rt_unlock();
    return r && r->magic == RT_MAGIC_MIPMAP ? r : NULL;
}

static void mipmap_free(rt_mipmap *m)
{
    for (unsigned l = 0; l < m->levels; l++) {
        m->level[l]->owner = NULL;
        rt_array_destroy(m->level[l]);
    }
    rt_ptrmap_del(&rt.mipmaps, m);
    m->magic = 0;
    free(m);
}

cudaError_t rt_mipmap_create(const struct cudaChannelFormatDesc *desc, struct cudaExtent x, unsigned levels,
                             unsigned flags, rt_mipmap **out)
{
    if (!out || !x.width)
        return cudaErrorInvalidValue;
    /* Clamped to [1, 1 + floor(log2(the largest dimension))], as CUDA
     * documents; a layered array's depth counts layers, not texels. */
    bool layered = flags & (cudaArrayLayered | cudaArrayCubemap);
    size_t largest = x.width;
    if (x.height > largest)
        largest = x.height;
    if (!layered && x.depth > largest)
        largest = x.depth;
    unsigned most = 1;
    while (most < ISA_MAX_MIP_LEVELS && largest >> most)
        most++;
    levels = levels < 1 ? 1 : levels > most ? most : levels;
    rt_mipmap *m = calloc(1, sizeof *m);
    if (!m)
        return cudaErrorMemoryAllocation;
    rt_lock();
    cudaError_t e = cudaSuccess;
    for (unsigned l = 0; e == cudaSuccess && l < levels; l++) {
        size_t w = x.width >> l ? x.width >> l : 1;
        size_t h = x.height ? (x.height >> l ? x.height >> l : 1) : 0;
        size_t d = layered ? x.depth : x.depth ? (x.depth >> l ? x.depth >> l : 1) : 0;
        e = rt_array_create(desc, w, h, d, flags, &m->level[l]);
        if (e == cudaSuccess) {
            m->level[l]->owner = m;
            m->levels = l + 1;
        }
    }
    m->magic = RT_MAGIC_MIPMAP;
    if (e == cudaSuccess && !rt_ptrmap_put(&rt.mipmaps, m, m))
        e = cudaErrorMemoryAllocation;
    if (e != cudaSuccess)
        mipmap_free(m);
    else
        *out = m;
    rt_unlock();
    return e;
}

cudaError_t rt_mipmap_level(const rt_mipmap *m, unsigned level, rt_array **out)
{
    if (!rt_mipmap_live(m) || !out || level >= m->levels)
        return cudaErrorInvalidValue;
    *out = m->level[level];
    return cudaSuccess;
}

cudaError_t rt_mipmap_destroy(rt_mipmap *m)
{
    if (!m)
        return cudaSuccess;
    rt_lock();
    cudaError_t e = rt_mipmap_live(m) ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        mipmap_free(m);
    rt_unlock();
    return e;
}

/* The image a resource descriptor describes (layout only). */
static cudaError_t image_of_resource(const struct cudaResourceDesc *r, bool surface, isa_image *img)
{
    memset(img, 0, sizeof *img);
    unsigned channels, bytes;
    uint8_t kind;
    const struct cudaChannelFormatDesc *desc;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        rt_array *a = rt_array_live(r->res.array.array);
        if (!a)
            return cudaErrorInvalidResourceHandle;
        if (surface && !(a->flags & cudaArraySurfaceLoadStore))
            return cudaErrorInvalidValue;
        desc = &a->desc;
        bool layered = a->flags & cudaArrayLayered, cube = a->flags & cudaArrayCubemap;
        img->base = a->addr;
        img->width = (uint32_t)a->width;
        img->height = (uint32_t)rows(a);
        img->depth = layered || cube || !a->depth ? 1 : (uint32_t)a->depth;
        img->layers = layered || cube ? (uint32_t)a->depth : 0;
        img->cubemap = cube;
        img->pitch = row_bytes(a);
        break;
    }
    case cudaResourceTypeLinear:
    case cudaResourceTypePitch2D: {
        if (surface)
            return cudaErrorInvalidValue;   /* surfaces need an array */
        bool linear = r->resType == cudaResourceTypeLinear;
        void *p = linear ? r->res.linear.devPtr : r->res.pitch2D.devPtr;
        desc = linear ? &r->res.linear.desc : &r->res.pitch2D.desc;
        if (!channel_layout(desc, &channels, &bytes, &kind))
            return cudaErrorInvalidChannelDescriptor;
        uint64_t texel = channels * bytes;
        uint64_t w = linear ? r->res.linear.sizeInBytes / texel : r->res.pitch2D.width;
        uint64_t h = linear ? 1 : r->res.pitch2D.height;
        uint64_t pitch = linear ? r->res.linear.sizeInBytes : r->res.pitch2D.pitchInBytes;
        uint64_t base;
        size_t span;
        if (!p || !w || !h || (uintptr_t)p % (linear ? 512 : 32) ||
            (!linear && (pitch % 32 || pitch < w * texel)))
            return cudaErrorInvalidValue;
        if (linear && w > (1u << 27))
            return cudaErrorInvalidValue;
        if (rt_mem_range(p, &base, &span) != cudaSuccess ||
            (uint64_t)(uintptr_t)p + (h - 1) * pitch + w * texel > base + span)
            return cudaErrorInvalidValue;
        img->base = (uint64_t)(uintptr_t)p;
        img->width = (uint32_t)w;
        img->height = (uint32_t)h;
        img->depth = 1;
        img->pitch = pitch;
        img->linear_memory = linear;
        break;
    }
    case cudaResourceTypeMipmappedArray: {
        rt_mipmap *m = rt_mipmap_live(r->res.mipmap.mipmap);
        if (!m)
            return cudaErrorInvalidResourceHandle;
        if (surface)
            return cudaErrorInvalidValue;   /* surfaces take one level (cudaGetMipmappedArrayLevel) */
        struct cudaResourceDesc first = { .resType = cudaResourceTypeArray };
        first.res.array.array = (cudaArray_t)m->level[0];
        cudaError_t e = image_of_resource(&first, false, img);
        if (e != cudaSuccess)
            return e;
        img->levels = (uint8_t)m->levels;
        for (unsigned l = 0; l < m->levels; l++) {
            const rt_array *a = m->level[l];
            img->level_base[l] = a->addr;
            img->level_pitch[l] = row_bytes(a);
            img->level_slice[l] = row_bytes(a) * rows(a);
        }
        return cudaSuccess;
    }
    default:
        return cudaErrorInvalidValue;
    }
    if (!channel_layout(desc, &channels, &bytes, &kind))
        return cudaErrorInvalidChannelDescriptor;
    img->channels = (uint8_t)channels;
    img->channel_bytes = (uint8_t)bytes;
    img->channel_kind = kind;
    img->slice = img->pitch * img->height;
    img->layer_stride = img->slice;
    img->surface = surface;
    return cudaSuccess;
}

static uint8_t address_mode(enum cudaTextureAddressMode m)
{
    switch (m) {
    case cudaAddressModeWrap: return ISA_ADDRESS_WRAP;
    case cudaAddressModeMirror: return ISA_ADDRESS_MIRROR;
    case cudaAddressModeBorder: return ISA_ADDRESS_BORDER;
    default: return ISA_ADDRESS_CLAMP;
    }
}

cudaError_t rt_image_create(uint64_t *out, const struct cudaResourceDesc *r,
                            const struct cudaTextureDesc *t, const struct cudaResourceViewDesc *v,
                            bool surface)
{
    if (!out || !r || (!surface && !t) || r->flags)
        return cudaErrorInvalidValue;
    isa_image img;
    cudaError_t e = image_of_resource(r, surface, &img);
    if (e != cudaSuccess)
        return e;
    if (!surface) {
        for (unsigned d = 0; d < 3; d++) {
            if ((unsigned)t->addressMode[d] > cudaAddressModeBorder)
                return cudaErrorInvalidValue;
            img.address[d] = address_mode(t->addressMode[d]);
        }
        if ((unsigned)t->filterMode > cudaFilterModeLinear ||
            (unsigned)t->readMode > cudaReadModeNormalizedFloat)
            return cudaErrorInvalidValue;
        img.filter_linear = t->filterMode == cudaFilterModeLinear;
        img.read_normalized = t->readMode == cudaReadModeNormalizedFloat &&
                              img.channel_kind != ISA_CHAN_FLOAT && img.channel_bytes < 4;
        img.normalized_coords = t->normalizedCoords != 0;
        memcpy(img.border, t->borderColor, sizeof img.border);
        if ((unsigned)t->mipmapFilterMode > cudaFilterModeLinear)
            return cudaErrorInvalidValue;
        img.mip_linear = t->mipmapFilterMode == cudaFilterModeLinear;
        img.lod_bias = t->mipmapLevelBias;
        img.lod_min = t->minMipmapLevelClamp;
        img.lod_max = t->maxMipmapLevelClamp;
    }
    rt_image_obj *o = calloc(1, sizeof *o);
    if (!o)
        return cudaErrorMemoryAllocation;
    o->surface = surface;
    o->res = *r;
    if (t)
        o->tex = *t;
    if (v) {
        o->view = *v;
        o->has_view = true;
    }
    rt_lock();
    e = rt.sticky;
    uint64_t h = 0;
    if (e == cudaSuccess && (!rt.mem || exec_image_create(rt.mem, &img, &h) != PTX_OK))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && !rt_ptrmap_put(&rt.images, (void *)(uintptr_t)h, o)) {
        exec_image_destroy(rt.mem, h);
        e = cudaErrorMemoryAllocation;
    }
    rt_unlock();
    if (e != cudaSuccess) {
        free(o);
        return e;
    }
    *out = h;
    return cudaSuccess;
}

static rt_image_obj *object(uint64_t h, bool surface)
{
    rt_image_obj *o = h ? rt_ptrmap_get(&rt.images, (void *)(uintptr_t)h) : NULL;
    return o && o->surface == surface ? o : NULL;
}

cudaError_t rt_image_destroy(uint64_t h, bool surface)
{
    if (!h)
        return cudaSuccess;             /* destroying object 0 does nothing */
    rt_lock();
    rt_image_obj *o = object(h, surface);
    cudaError_t e = o ? cudaSuccess : cudaErrorInvalidValue;
    if (o) {
        rt_ptrmap_del(&rt.images, (void *)(uintptr_t)h);
        if (rt.mem)
            exec_image_destroy(rt.mem, h);
        free(o);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_image_desc(uint64_t h, bool surface, struct cudaResourceDesc *r,
                          struct cudaTextureDesc *t, struct cudaResourceViewDesc *v)
{
    if (!r && !t && !v)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_image_obj *o = object(h, surface);
    cudaError_t e = o ? cudaSuccess : cudaErrorInvalidValue;
    if (o && v && !o->has_view)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        if (r)
            *r = o->res;
        if (t)
            *t = o->tex;
        if (v)
            *v = o->view;
    }
    rt_unlock();
    return e;
}

void rt_image_reset(void)
{
    rt_lock();
    for (uint32_t i = 0; i < rt.images.cap; i++) {
        rt_image_obj *o = rt_ptrmap_slot(&rt.images, i);
        if (o) {
            if (rt.mem)
                exec_image_destroy(rt.mem, (uint64_t)rt.images.keys[i]);
            free(o);
        }
    }
    rt_ptrmap_free(&rt.images);
    for (uint32_t i = 0; i < rt.mipmaps.cap; i++) {
        rt_mipmap *m = rt_ptrmap_slot(&rt.mipmaps, i);
        if (m) {
            m->magic = 0;
            free(m);                    /* (its levels go with the arrays below) */
        }
    }
    rt_ptrmap_free(&rt.mipmaps);
    for (uint32_t i = 0; i < rt.arrays.cap; i++) {
        rt_array *a = rt_ptrmap_slot(&rt.arrays, i);
        if (a) {
            if (rt.mem)
                exec_free(rt.mem, a->addr);
            free(a);
        }
    }
    rt_ptrmap_free(&rt.arrays);
    rt_unlock();
}

/*
 * rt_memory.c -- device, pinned, mapped, managed and registered memory;
 * copies and memsets.
 *
 * A device pointer is a host address inside ptxsim's device-memory
 * reservation.  Pinned (cudaMallocHost, cudaHostAlloc) and managed memory
 * are allocated there too, so one address works on the host and in kernels,
 * as CUDA's unified addressing promises.  Copies are memmove after checking
 * that every pointer inside the reservation lies in one live allocation (a
 * copy past an allocation, or through a freed or made-up device pointer, is
 * cudaErrorInvalidValue, as CUDA returns, never a host fault).
 *
 * Memory the program registers (cudaHostRegister) lives outside the
 * reservation, where kernels cannot reach it: it gets a mirror allocation,
 * which cudaHostGetDevicePointer returns.  The host range is the real copy;
 * each launch copies it into the mirror first and back afterwards (all work
 * completes before a call returns, so nothing else can watch in between).
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

/* The whole reservation, windows included: an address here is never a
 * plain host address. */
static bool in_reservation(uint64_t a)
{
    const isa_mem *w = exec_memory_windows(rt.mem);
    return a >= w->shared_win && a < exec_memory_end(rt.mem);
}

/* The live allocation holding [a, a+n), recorded by the runtime or not
 * (module variables): false if there is none. */
static bool live_block(uint64_t a, uint64_t n, exec_alloc_info *out)
{
    if (!exec_memory_find(rt.mem, a, out) || !out->live)
        return false;
    /* A lookup (n == 0) asks about the byte at a; a zero-byte allocation
     * still owns its address. */
    uint64_t want = n ? n : 1, end = out->addr + (out->bytes ? out->bytes : 1);
    return a >= out->addr && a + want <= end && a + want > a;
}

static rt_alloc *alloc_holding(uint64_t a)
{
    exec_alloc_info b;
    return live_block(a, 0, &b) ? rt_ptrmap_get(&rt.allocs, (void *)(uintptr_t)b.addr) : NULL;
}

static rt_alloc *registered_holding(uint64_t host, uint64_t n)
{
    for (uint32_t i = 0; i < rt.nregistered; i++) {
        rt_alloc *r = rt.registered[i];
        uint64_t h = (uint64_t)(uintptr_t)r->host;
        if (host >= h && host < h + r->bytes && host + n <= h + r->bytes)
            return r;
    }
    return NULL;
}

cudaError_t rt_mem_reserve(size_t bytes, uint64_t align, uint64_t *out)
{
    rt_lock();
    uint64_t addr = 0;
    rt_alloc *a = calloc(1, sizeof *a);
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess && (!a || !rt.mem || exec_malloc(rt.mem, bytes, align, &addr) != PTX_OK))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        *a = (rt_alloc){ .addr = addr, .bytes = bytes, .kind = RT_MEM_VMM };
        if (exec_memory_reserve(rt.mem, addr, true) == PTX_OK && rt_ptrmap_put(&rt.allocs, (void *)(uintptr_t)addr, a)) {
            *out = addr;
            a = NULL;
        } else {
            exec_free(rt.mem, addr);
            e = cudaErrorMemoryAllocation;
        }
    }
    free(a);
    rt_unlock();
    return e;
}

/* Allocations this large or larger start on a page of this size. */
#define RT_LARGE_ALLOC (2ull << 20)

cudaError_t rt_mem_alloc(size_t bytes, int kind, unsigned flags, void **out)
{
    if (!out)
        return cudaErrorInvalidValue;
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess && !bytes && kind == RT_MEM_DEVICE) {
        *out = NULL;            /* cudaMalloc of 0 bytes: success, and no allocation (as CUDA's runtime) */
    } else if (e == cudaSuccess) {
        uint64_t addr = 0;
        rt_alloc *a = calloc(1, sizeof *a);
        /* 512 bytes: the texture alignment, so any allocation can back a
         * texture object over linear memory (GPUs align this much too).
         * Large ones start on a 2 MiB page, as a GPU's do: Taichi sizes its
         * memory pool exactly, counting on a page-aligned start. */
        uint64_t align = bytes >= RT_LARGE_ALLOC ? RT_LARGE_ALLOC : 512;
        ptx_status st = rt.mem && a ? exec_malloc(rt.mem, bytes, align, &addr) : PTX_E_OUT_OF_DEVICE_MEMORY;
        if (st == PTX_OK) {
            *a = (rt_alloc){ .addr = addr, .bytes = bytes, .kind = kind, .flags = flags };
            if (rt_ptrmap_put(&rt.allocs, (void *)(uintptr_t)addr, a)) {
                *out = (void *)(uintptr_t)addr;
                a = NULL;
            } else {
                exec_free(rt.mem, addr);
                e = cudaErrorMemoryAllocation;
            }
        } else {
            e = cudaErrorMemoryAllocation;
        }
        free(a);
    }
    rt_unlock();
    return e;
}

static void drop_registered(rt_alloc *a)
{
    for (uint32_t i = 0; i < rt.nregistered; i++)
        if (rt.registered[i] == a) {
            rt.registered[i] = rt.registered[--rt.nregistered];
            break;
        }
}

static void release(rt_alloc *a)
{
    rt_ptrmap_del(&rt.allocs, (void *)(uintptr_t)a->addr);
    if (a->kind == RT_MEM_VMM)
        exec_memory_reserve(rt.mem, a->addr, false);
    if (a->kind == RT_MEM_REGISTERED)
        drop_registered(a);
    exec_free(rt.mem, a->addr);
    free(a->advice);
    free(a);
}

cudaError_t rt_mem_free_device(void *p, unsigned kinds)
{
    bool graphs = false;
    cudaError_t e = rt_gmem_free_outside(p, &graphs);
    return graphs ? e : rt_mem_free(p, kinds);
}

cudaError_t rt_mem_free(void *p, unsigned kinds)
{
    if (!p)
        return cudaSuccess;
    rt_lock();
    cudaError_t e = rt_surface();       /* cudaFree waits for the device */
    if (e == cudaSuccess) {
        rt_alloc *a = rt_ptrmap_get(&rt.allocs, p);
        /* Freed twice, never allocated, or the wrong free for its kind. */
        if (!a || !(kinds & RT_KIND(a->kind)))
            e = cudaErrorInvalidValue;
        else if (a->pool)
            rt_pool_give_back(a);       /* kept reserved by its pool (rt_pool.c) */
        else
            release(a);
    }
    rt_unlock();
    return e;
}

void rt_mem_reset(void)
{
    rt_lock();
    for (uint32_t i = 0; i < rt.allocs.cap; i++) {
        rt_alloc *a = rt_ptrmap_slot(&rt.allocs, i);
        if (a) {
            release(a);
            i--;        /* deletion shifts a later entry into this slot */
        }
    }
    rt_unlock();
}

static int by_address(const void *a, const void *b)
{
    uint64_t x = (*(rt_alloc *const *)a)->addr, y = (*(rt_alloc *const *)b)->addr;
    return x < y ? -1 : x > y;
}

void rt_mem_report_leaks(void)
{
    enum { SHOWN = 20 };
    rt_alloc **live = calloc(rt.allocs.cap ? rt.allocs.cap : 1, sizeof *live);
    if (!live)
        return;
    uint32_t n = 0;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < rt.allocs.cap; i++) {
        rt_alloc *a = rt_ptrmap_slot(&rt.allocs, i);
        if (a && (a->kind == RT_MEM_DEVICE || a->kind == RT_MEM_MANAGED)) {
            live[n++] = a;
            bytes += a->bytes;
        }
    }
    if (n == 0) {
        rt_say("leak check: every device allocation was freed");
        free(live);
        return;
    }
    /* By address, so the list reads the same from run to run. */
    qsort(live, n, sizeof *live, by_address);
    rt_say("leak check: %u device allocation%s (%llu bytes) never freed:", n, n == 1 ? "" : "s",
           (unsigned long long)bytes);
    for (uint32_t i = 0; i < n && i < SHOWN; i++)
        rt_say("  %llu bytes at 0x%llx (%s)", (unsigned long long)live[i]->bytes,
               (unsigned long long)live[i]->addr,
               live[i]->kind == RT_MEM_MANAGED ? "cudaMallocManaged" : "cudaMalloc");
    if (n > SHOWN)
        rt_say("  ... and %u more", n - SHOWN);
    free(live);
}

cudaError_t rt_mem_register(void *host, size_t bytes, unsigned flags)
{
    unsigned known = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                     cudaHostRegisterReadOnly;
    if (!host || !bytes || (flags & ~known))
        return cudaErrorInvalidValue;
    rt_lock();
    cudaError_t e = rt.sticky;
    uint64_t h = (uint64_t)(uintptr_t)host;
    if (e == cudaSuccess && rt.mem && in_reservation(h))
        e = cudaErrorHostMemoryAlreadyRegistered;      /* pinned or device memory already */
    for (uint32_t i = 0; e == cudaSuccess && i < rt.nregistered; i++) {
        uint64_t lo = (uint64_t)(uintptr_t)rt.registered[i]->host, hi = lo + rt.registered[i]->bytes;
        if (h < hi && lo < h + bytes)
            e = cudaErrorHostMemoryAlreadyRegistered;
    }
    void *mirror = NULL;
    if (e == cudaSuccess && !rt_grow((void ***)&rt.registered, &rt.capregistered, rt.nregistered))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        e = rt_mem_alloc(bytes, RT_MEM_REGISTERED, flags, &mirror);
    if (e == cudaSuccess) {
        rt_alloc *a = rt_ptrmap_get(&rt.allocs, mirror);
        a->host = host;
        rt.registered[rt.nregistered++] = a;
        memcpy(mirror, host, bytes);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_mem_unregister(void *host)
{
    rt_lock();
    cudaError_t e = rt.sticky;
    if (e == cudaSuccess) {
        e = cudaErrorHostMemoryNotRegistered;
        for (uint32_t i = 0; i < rt.nregistered; i++)
            if (rt.registered[i]->host == host) {
                release(rt.registered[i]);
                e = cudaSuccess;
                break;
            }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_mem_host_device_ptr(void *host, void **dev)
{
    if (!host || !dev)
        return cudaErrorInvalidValue;
    rt_lock();
    uint64_t h = (uint64_t)(uintptr_t)host;
    cudaError_t e = cudaErrorInvalidValue;
    rt_alloc *a = rt.mem && in_reservation(h) ? alloc_holding(h) : NULL;
    if (a && (a->kind == RT_MEM_HOST || a->kind == RT_MEM_MANAGED)) {
        *dev = host;
        e = cudaSuccess;
    } else if ((a = registered_holding(h, 1)) != NULL) {
        *dev = (void *)(uintptr_t)(a->addr + (h - (uint64_t)(uintptr_t)a->host));
        e = cudaSuccess;
    }
    rt_unlock();
    return e;
}

void rt_mem_mirror_in(void)
{
    for (uint32_t i = 0; i < rt.nregistered; i++)
        memcpy((void *)(uintptr_t)rt.registered[i]->addr, rt.registered[i]->host, rt.registered[i]->bytes);
}

void rt_mem_mirror_out(void)
{
    for (uint32_t i = 0; i < rt.nregistered; i++)
        if (!(rt.registered[i]->flags & cudaHostRegisterReadOnly))
            memcpy(rt.registered[i]->host, (void *)(uintptr_t)rt.registered[i]->addr, rt.registered[i]->bytes);
}

/* Check one side of a copy, [p, p+span), and find where its bytes really
 * are: a mirror of registered memory stands for the host range, which is
 * the real copy between launches. */
static cudaError_t check_side(const void *p, uint64_t span, bool device, uint64_t *out)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    *out = a;
    if (!p)
        return cudaErrorInvalidValue;
    if (!in_reservation(a))
        /* Host memory; a "device" pointer outside device memory is wrong
         * unless the program registered it. */
        return !device || registered_holding(a, span) ? cudaSuccess : cudaErrorInvalidValue;
    /* exec_memory_valid is a binary search; finding the allocation's base
     * is a walk, needed only when some allocation is a mirror. */
    if (!exec_memory_valid(rt.mem, a, span))
        return cudaErrorInvalidValue;
    exec_alloc_info b;
    rt_alloc *r = rt.nregistered && live_block(a, span, &b) ? rt_ptrmap_get(&rt.allocs, (void *)(uintptr_t)b.addr)
                                                            : NULL;
    if (r && r->kind == RT_MEM_REGISTERED)
        *out = (uint64_t)(uintptr_t)r->host + (a - r->addr);
    return cudaSuccess;
}

static cudaError_t sides_of(enum cudaMemcpyKind kind, bool *dst_dev, bool *src_dev)
{
    switch (kind) {
    case cudaMemcpyHostToHost: *dst_dev = *src_dev = false; return cudaSuccess;
    case cudaMemcpyHostToDevice: *dst_dev = true; *src_dev = false; return cudaSuccess;
    case cudaMemcpyDeviceToHost: *dst_dev = false; *src_dev = true; return cudaSuccess;
    case cudaMemcpyDeviceToDevice: *dst_dev = *src_dev = true; return cudaSuccess;
    /* Unified addressing: where the pointers lie says it. */
    case cudaMemcpyDefault: *dst_dev = *src_dev = false; return cudaSuccess;
    default: return cudaErrorInvalidMemcpyDirection;
    }
}

/* A 2-D copy, or with `check` only what it would return, and whether it
 * touches host memory outside the reservation (*pageable). */
static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, enum cudaMemcpyKind kind, bool check, bool *pageable)
{
    bool dd, sd;
    cudaError_t e = sides_of(kind, &dd, &sd);
    if (e != cudaSuccess)
        return e;
    if (height > 1 && (width > dpitch || width > spitch))
        return cudaErrorInvalidPitchValue;
    if (!width || !height)
        return cudaSuccess;
    rt_lock();
    e = check ? rt.sticky : rt_surface();       /* a copy waits for the kernels before it */
    uint64_t d = 0, s = 0;
    uint64_t dspan = (uint64_t)(height - 1) * dpitch + width, sspan = (uint64_t)(height - 1) * spitch + width;
    if (e == cudaSuccess && !rt.mem)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = check_side(dst, dspan, dd, &d);
    if (e == cudaSuccess)
        e = check_side(src, sspan, sd, &s);
    if (pageable)
        *pageable = !in_reservation(d) || !in_reservation(s);
    if (e == cudaSuccess && !check) {
        if (height == 1 || (dpitch == width && spitch == width))
            memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, (size_t)(height - 1) * width + width);
        else
            for (size_t r = 0; r < height; r++)
                memmove((void *)(uintptr_t)(d + r * dpitch), (const void *)(uintptr_t)(s + r * spitch), width);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, enum cudaMemcpyKind kind)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, false, NULL);
}

cudaError_t rt_memcpy2d_check(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, bool *pageable)
{
    *pageable = false;
    return copy2d(dst, dpitch, src, spitch, width, height, kind, true, pageable);
}

cudaError_t rt_memcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    return rt_memcpy2d(dst, n, src, n, n, 1, kind);
}

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

/* A 3-D copy, one 2-D copy per slice. */
cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p)
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

/* A memset, or with `check` only what it would return. */
static cudaError_t set2d(void *dst, size_t pitch, unsigned value, unsigned elem, size_t width, size_t height,
                         bool check)
{
    if (height > 1 && width * elem > pitch)
        return cudaErrorInvalidValue;     /* (cudaMemset2D's only error; a copy's is InvalidPitchValue) */
    if (!width || !height)
        return cudaSuccess;
    rt_lock();
    cudaError_t e = rt.sticky;
    uint64_t d = 0;
    if (e == cudaSuccess && !rt.mem)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = check_side(dst, (uint64_t)(height - 1) * pitch + (uint64_t)width * elem, true, &d);
    for (size_t r = 0; e == cudaSuccess && !check && r < height; r++) {
        uint8_t *row = (uint8_t *)(uintptr_t)(d + r * pitch);
        if (elem == 1) {
            memset(row, (int)(value & 0xFF), width);
        } else if (elem == 2) {
            uint16_t v = (uint16_t)value;
            for (size_t i = 0; i < width; i++)
                memcpy(row + 2 * i, &v, 2);
        } else {
            uint32_t v = value;
            for (size_t i = 0; i < width; i++)
                memcpy(row + 4 * i, &v, 4);
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_memset(void *dst, size_t pitch, unsigned value, unsigned elem, size_t width, size_t height)
{
    return set2d(dst, pitch, value, elem, width, height, false);
}

cudaError_t rt_memset_check(void *dst, size_t pitch, unsigned elem, size_t width, size_t height)
{
    return set2d(dst, pitch, 0, elem, width, height, true);
}

cudaError_t rt_mem_host_flags(const void *p, unsigned *flags)
{
    if (!flags)
        return cudaErrorInvalidValue;
    uint64_t addr = (uint64_t)(uintptr_t)p;
    rt_lock();
    exec_alloc_info b;
    rt_alloc *r = rt.mem && in_reservation(addr) && live_block(addr, 0, &b)
                      ? rt_ptrmap_get(&rt.allocs, (void *)(uintptr_t)b.addr) : registered_holding(addr, 1);
    bool host = r && (r->kind == RT_MEM_HOST || r->host);
    /* Page-locked memory is mapped whatever the flags said: the address
     * space is unified. */
    if (host)
        *flags = r->flags | cudaHostAllocMapped;
    rt_unlock();
    return host ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t rt_mem_attributes(const void *p, struct cudaPointerAttributes *a)
{
    if (!a)
        return cudaErrorInvalidValue;
    memset(a, 0, sizeof *a);
    uint64_t addr = (uint64_t)(uintptr_t)p;
    rt_lock();
    rt_alloc *r = NULL;
    exec_alloc_info b;
    bool dev = rt.mem && in_reservation(addr) && live_block(addr, 0, &b);
    if (dev)
        r = rt_ptrmap_get(&rt.allocs, (void *)(uintptr_t)b.addr);
    a->device = 0;
    if (dev && (!r || r->kind == RT_MEM_DEVICE || r->kind == RT_MEM_VMM)) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)p;
    } else if (dev && r->kind == RT_MEM_HOST) {
        a->type = cudaMemoryTypeHost;
        a->devicePointer = a->hostPointer = (void *)p;
    } else if (dev && r->kind == RT_MEM_MANAGED) {
        a->type = cudaMemoryTypeManaged;
        a->devicePointer = a->hostPointer = (void *)p;
    } else if (dev) {                   /* the mirror of registered memory */
        a->type = cudaMemoryTypeHost;
        a->devicePointer = (void *)p;
        a->hostPointer = (uint8_t *)r->host + (addr - r->addr);
    } else if ((r = registered_holding(addr, 1)) != NULL) {
        a->type = cudaMemoryTypeHost;
        a->hostPointer = (void *)p;
        a->devicePointer = (void *)(uintptr_t)(r->addr + (addr - (uint64_t)(uintptr_t)r->host));
    } else {
        a->type = cudaMemoryTypeUnregistered;
        a->device = -2;
    }
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_mem_range(const void *p, uint64_t *base, size_t *bytes)
{
    rt_lock();
    exec_alloc_info b;
    uint64_t addr = (uint64_t)(uintptr_t)p;
    cudaError_t e = rt.mem && in_reservation(addr) && live_block(addr, 0, &b) ? cudaSuccess
                                                                              : cudaErrorInvalidValue;
    rt_unlock();
    if (e == cudaSuccess) {
        if (base)
            *base = b.addr;
        if (bytes)
            *bytes = (size_t)b.bytes;
    }
    return e;
}

uint64_t rt_mem_buffer_id(const void *p)
{
    rt_lock();
    exec_alloc_info b;
    uint64_t addr = (uint64_t)(uintptr_t)p;
    uint64_t id = rt.mem && in_reservation(addr) && live_block(addr, 0, &b) ? b.serial : 0;
    rt_unlock();
    return id;
}

rt_alloc *rt_mem_managed_holding(const void *p, size_t n)
{
    uint64_t addr = (uint64_t)(uintptr_t)p;
    exec_alloc_info b;
    rt_alloc *r = NULL;
    if (rt.mem && in_reservation(addr) && live_block(addr, n, &b))
        r = rt_ptrmap_get(&rt.allocs, (void *)(uintptr_t)b.addr);
    return r && r->kind == RT_MEM_MANAGED ? r : NULL;
}

cudaError_t rt_mem_check_managed(const void *p, size_t n)
{
    rt_lock();
    cudaError_t e = rt_mem_managed_holding(p, n) ? cudaSuccess : cudaErrorInvalidValue;
    rt_unlock();
    return e;
}

void rt_mem_info(size_t *free_bytes, size_t *total)
{
    rt_lock();
    uint64_t cap = rt.mem ? exec_memory_capacity(rt.mem) : 0, used = rt.mem ? exec_memory_in_use(rt.mem) : 0;
    rt_unlock();
    if (free_bytes)
        *free_bytes = cap > used ? cap - used : 0;
    if (total)
        *total = cap;
}

/*
 * rt_pool.c -- stream-ordered memory pools (cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaMemPool*).
 *
 * A pool's allocations are ordinary device allocations (rt_memory.c) that
 * remember their pool.  Freeing one returns it to the pool, which keeps it
 * allocated -- reserved -- for the next request of the same size, as CUDA's
 * pools keep memory to avoid going back to the OS.  At each synchronisation
 * a pool holding more than its release threshold gives the rest back
 * (threshold 0, the default, gives all back), and cudaMemPoolTrimTo does so
 * on demand.  So the attributes report what happened: UsedMemCurrent is the
 * bytes handed out and not freed, ReservedMemCurrent those plus the bytes
 * kept, and the high-water marks are maxima of those since their reset.
 *
 * Work completes as it is issued, so every free has completed and every
 * kept block may be reused at once, whichever stream asks.  A kept block
 * is still device memory, so --check memory does not report a kernel that
 * touches it after its free (on a GPU the pool keeps it mapped as well).
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

static void pool_init(rt_pool *p, const struct cudaMemPoolProps *props)
{
    *p = (rt_pool){ .magic = RT_MAGIC_POOL, .props = *props, .reuse = { 1, 1, 1 } };
}

/* The device's pool, made on first use (the lock is held). */
static rt_pool *default_pool(void)
{
    if (rt.default_pool.magic != RT_MAGIC_POOL) {
        struct cudaMemPoolProps props = { .allocType = cudaMemAllocationTypePinned,
                                          .location = { cudaMemLocationTypeDevice, 0 } };
        pool_init(&rt.default_pool, &props);
    }
    return &rt.default_pool;
}

rt_pool *rt_pool_default(void)
{
    rt_lock();
    rt_pool *p = default_pool();
    rt_unlock();
    return p;
}

rt_pool *rt_pool_live(const void *h)
{
    rt_lock();
    rt_pool *p = h == (const void *)&rt.default_pool ? default_pool() : h ? rt_ptrmap_get(&rt.pools, h) : NULL;
    rt_unlock();
    return p;
}

rt_pool *rt_pool_current(void)
{
    rt_lock();
    rt_pool *p = rt.current_pool ? rt.current_pool : default_pool();
    rt_unlock();
    return p;
}

void rt_pool_set_current(rt_pool *p)
{
    rt_lock();
    rt.current_pool = p == &rt.default_pool ? NULL : p;
    rt_unlock();
}

cudaError_t rt_pool_create(const struct cudaMemPoolProps *props, rt_pool **out)
{
    if (!out || !props || props->allocType != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    for (size_t i = 0; i < sizeof props->reserved; i++)
        if (props->reserved[i])
            return cudaErrorInvalidValue;
    /* Pools of device memory; host and managed pools, and handles shared
     * with other processes, are not modelled. */
    if (props->location.type != cudaMemLocationTypeDevice)
        return props->location.type == cudaMemLocationTypeInvalid ? cudaErrorInvalidValue : cudaErrorNotSupported;
    if (props->location.id != 0)
        return cudaErrorInvalidDevice;
    if (props->handleTypes != cudaMemHandleTypeNone)
        return cudaErrorNotSupported;
    rt_pool *p = calloc(1, sizeof *p);
    if (!p)
        return cudaErrorMemoryAllocation;
    pool_init(p, props);
    rt_lock();
    bool ok = rt_ptrmap_put(&rt.pools, p, p);
    rt_unlock();
    if (!ok) {
        free(p);
        return cudaErrorMemoryAllocation;
    }
    *out = p;
    return cudaSuccess;
}

/* Give up to the kept blocks until at most `keep` bytes are reserved. */
static void trim(rt_pool *p, uint64_t keep)
{
    while (p->reserved > keep && p->nkept) {
        rt_alloc *a = p->kept[--p->nkept];
        p->reserved -= a->bytes;
        exec_free(rt.mem, a->addr);
        free(a);
    }
}

cudaError_t rt_pool_destroy(rt_pool *h)
{
    rt_lock();
    rt_pool *p = h && h != &rt.default_pool ? rt_ptrmap_get(&rt.pools, h) : NULL;
    if (p) {
        /* Allocations still out become plain ones, freed when the program
         * frees them: CUDA releases such a pool once they are. */
        for (uint32_t i = 0; i < rt.allocs.cap; i++) {
            rt_alloc *a = rt_ptrmap_slot(&rt.allocs, i);
            if (a && a->pool == p)
                a->pool = NULL;
        }
        trim(p, 0);
        free(p->kept);
        if (rt.current_pool == p)
            rt.current_pool = NULL;
        rt_ptrmap_del(&rt.pools, p);
        p->magic = 0;
        free(p);
    }
    rt_unlock();
    return p ? cudaSuccess : cudaErrorInvalidValue;
}

static void count_use(rt_pool *p, uint64_t bytes, bool fresh)
{
    p->used += bytes;
    if (p->used > p->used_high)
        p->used_high = p->used;
    if (fresh) {
        p->reserved += bytes;
        if (p->reserved > p->reserved_high)
            p->reserved_high = p->reserved;
    }
}

cudaError_t rt_pool_alloc(rt_pool *h, size_t bytes, void **out)
{
    if (!out)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_pool *p = h == &rt.default_pool ? default_pool() : h ? rt_ptrmap_get(&rt.pools, h) : NULL;
    cudaError_t e = !p ? cudaErrorInvalidValue : rt.sticky;
    if (e == cudaSuccess && !bytes) {
        *out = NULL;            /* as cudaMalloc of 0 bytes: success, and no allocation */
        rt_unlock();
        return cudaSuccess;
    }
    /* A kept block of exactly this size is reused: the common pattern of
     * the same buffers every iteration then reserves nothing new. */
    for (uint32_t i = 0; e == cudaSuccess && i < p->nkept; i++) {
        rt_alloc *a = p->kept[i];
        if (a->bytes != bytes)
            continue;
        if (!rt_ptrmap_put(&rt.allocs, (void *)(uintptr_t)a->addr, a)) {
            e = cudaErrorMemoryAllocation;
            break;
        }
        p->kept[i] = p->kept[--p->nkept];
        count_use(p, bytes, false);
        *out = (void *)(uintptr_t)a->addr;
        rt_unlock();
        return cudaSuccess;
    }
    if (e == cudaSuccess && p->props.maxSize && p->reserved + bytes > p->props.maxSize) {
        /* Over the pool's maximum: make room from what it keeps, if that is enough. */
        if (bytes <= p->props.maxSize)
            trim(p, p->props.maxSize - bytes);
        if (p->reserved + bytes > p->props.maxSize)
            e = cudaErrorMemoryAllocation;
    }
    void *ptr = NULL;
    if (e == cudaSuccess && (e = rt_mem_alloc(bytes, RT_MEM_DEVICE, 0, &ptr)) == cudaErrorMemoryAllocation) {
        /* Out of device memory: what the pools keep is free to use. */
        trim(p, 0);
        e = rt_mem_alloc(bytes, RT_MEM_DEVICE, 0, &ptr);
    }
    if (e == cudaSuccess) {
        rt_alloc *a = rt_ptrmap_get(&rt.allocs, ptr);
        a->pool = p;
        count_use(p, bytes, true);
        *out = ptr;
    }
    rt_unlock();
    return e;
}

void rt_pool_give_back(rt_alloc *a)
{
    rt_pool *p = a->pool;
    rt_ptrmap_del(&rt.allocs, (void *)(uintptr_t)a->addr);
    p->used -= a->bytes;
    if (!rt_grow((void ***)&p->kept, &p->capkept, p->nkept)) {
        p->reserved -= a->bytes;
        exec_free(rt.mem, a->addr);
        free(a);
        return;
    }
    p->kept[p->nkept++] = a;
}

cudaError_t rt_pool_trim(rt_pool *p, size_t keep)
{
    rt_lock();
    trim(p, keep);
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_pool_attribute(rt_pool *p, int attr, void *value, bool set)
{
    if (!value)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    rt_lock();
    uint64_t *counter = NULL, *high_of = NULL;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: {
        /* Every free has completed by the time anything is issued, so
         * these policies cannot change what is reused; they are kept. */
        int *v = &p->reuse[attr - cudaMemPoolReuseFollowEventDependencies];
        if (set)
            *v = *(const int *)value != 0;
        else
            *(int *)value = *v;
        break;
    }
    case cudaMemPoolAttrReleaseThreshold:
        if (set)
            p->threshold = *(const uint64_t *)value;
        else
            *(uint64_t *)value = p->threshold;
        break;
    case cudaMemPoolAttrReservedMemCurrent: counter = &p->reserved; break;
    case cudaMemPoolAttrUsedMemCurrent: counter = &p->used; break;
    case cudaMemPoolAttrReservedMemHigh: counter = &p->reserved_high; high_of = &p->reserved; break;
    case cudaMemPoolAttrUsedMemHigh: counter = &p->used_high; high_of = &p->used; break;
    default: e = cudaErrorInvalidValue; break;
    }
    if (counter && !set)
        *(uint64_t *)value = *counter;
    else if (counter) {
        /* Only a high-water mark can be set, and only to 0: a reset, after
         * which it follows the current value again. */
        if (!high_of || *(const uint64_t *)value != 0)
            e = cudaErrorInvalidValue;
        else
            *counter = *high_of;
    }
    rt_unlock();
    return e;
}

void rt_pool_sync(void)
{
    rt_lock();
    if (rt.default_pool.magic == RT_MAGIC_POOL)
        trim(&rt.default_pool, rt.default_pool.threshold);
    for (uint32_t i = 0; i < rt.pools.cap; i++) {
        rt_pool *p = rt_ptrmap_slot(&rt.pools, i);
        if (p)
            trim(p, p->threshold);
    }
    rt_unlock();
}

void rt_pool_reset(void)
{
    rt_lock();
    /* The allocations were freed with the rest of device memory
     * (rt_mem_reset); what the pools kept goes now. */
    if (rt.default_pool.magic == RT_MAGIC_POOL) {
        trim(&rt.default_pool, 0);
        free(rt.default_pool.kept);
        rt.default_pool.magic = 0;
    }
    for (uint32_t i = 0; i < rt.pools.cap; i++) {
        rt_pool *p = rt_ptrmap_slot(&rt.pools, i);
        if (p) {
            trim(p, 0);
            free(p->kept);
            free(p);
        }
    }
    rt_ptrmap_free(&rt.pools);
    rt.current_pool = NULL;
    rt_unlock();
}

/* ---- stream-ordered allocation --------------------------------------------- */

cudaError_t rt_stream_alloc(rt_pool *pool, size_t size, cudaStream_t stream, void **out)
{
    bool record = false;
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess)
        e = rt_capture_route(stream, &record);
    if (e == cudaSuccess && (!pool || !out))
        e = cudaErrorInvalidValue;
    if (e != cudaSuccess)
        return e;
    if (!record)
        return rt_pool_alloc(pool, size, out);
    /* In a capture: a memory allocation node of the capture's graph. */
    struct cudaMemAllocNodeParams p = {
        .poolProps = { .allocType = cudaMemAllocationTypePinned,
                       .location = { .type = cudaMemLocationTypeDevice, .id = 0 } },
        .bytesize = size,
    };
    rt_graph_op op;
    if ((e = rt_gmem_alloc_op(&p, &op)) == cudaSuccess) {
        void *addr = rt_gmem_addr(&op);
        if ((e = rt_capture_add(stream, &op)) == cudaSuccess)
            *out = addr;
    }
    return e;
}

cudaError_t rt_stream_free(void *ptr, cudaStream_t stream)
{
    bool record = false;
    cudaError_t e = rt_stream_check(stream);
    if (e == cudaSuccess)
        e = rt_capture_route(stream, &record);
    if (e == cudaSuccess && record) {
        /* In a capture: a free node of a graph's allocation. */
        enum cudaStreamCaptureStatus status;
        rt_graph *g = NULL;
        rt_graph_op op;
        e = rt_capture_info(stream, &status, NULL, &g, NULL, NULL, NULL);
        if (e == cudaSuccess && (e = rt_gmem_free_op(g, ptr, &op)) != cudaSuccess)
            rt_capture_refuse(stream);         /* (the capture cannot go on without the free) */
        return e == cudaSuccess ? rt_capture_add(stream, &op) : e;
    }
    return e != cudaSuccess ? e : rt_mem_free_device(ptr, RT_KIND(RT_MEM_DEVICE));
}

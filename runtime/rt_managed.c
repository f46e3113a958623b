/*
 * rt_managed.c -- what programs tell CUDA about managed memory
 * (cudaMemAdvise, cudaMemPrefetchAsync), remembered so that
 * cudaMemRangeGetAttribute reads it back as CUDA documents.
 *
 * Managed memory is one allocation both sides use directly, so advice and
 * prefetches move nothing; only their record matters.  CUDA keeps them per
 * page; ptxsim keeps, per managed allocation, a sorted list of segments --
 * runs of pages in the same state -- split where a call's range begins and
 * ends and merged again after, so a call costs a few segments however large
 * the allocation, and an allocation never advised has no list at all.
 */
#include "rt_int.h"

#include <stdlib.h>
#include <string.h>

enum { PAGE = 4096 };

/* The state of a run of pages. */
typedef struct seg_state {
    uint8_t read_mostly;
    uint8_t accessed_by;        /* bit 0: device 0, bit 1: the host */
    int8_t pref_type;           /* cudaMemLocationType; Invalid: none */
    int8_t prefetch_type;       /* the last explicit prefetch's; Invalid: none */
    int32_t pref_id, prefetch_id;
} seg_state;

typedef struct seg {
    uint64_t start;             /* page-aligned offset into the allocation; ends where the next starts */
    seg_state s;
} seg;

struct rt_advice {
    uint32_t n, cap;
    seg segs[];
};

static uint64_t pages_end(const rt_alloc *a)
{
    return (a->bytes + PAGE - 1) / PAGE * PAGE;
}

/* a's segment list, made (one segment, nothing set) on first use. */
static struct rt_advice *advice_of(rt_alloc *a)
{
    if (!a->advice) {
        a->advice = malloc(sizeof *a->advice + 4 * sizeof(seg));
        if (!a->advice)
            return NULL;
        a->advice->n = 1;
        a->advice->cap = 4;
        a->advice->segs[0] = (seg){ 0, { 0 } };
    }
    return a->advice;
}

/* A segment boundary at offset `at` (no-op where one is); false if out of memory. */
static bool split(rt_alloc *a, uint64_t at)
{
    struct rt_advice *v = a->advice;
    uint32_t i = 0;
    while (i + 1 < v->n && v->segs[i + 1].start <= at)
        i++;
    if (v->segs[i].start == at || at >= pages_end(a))
        return true;
    if (v->n == v->cap) {
        struct rt_advice *m = realloc(v, sizeof *v + 2 * v->cap * sizeof(seg));
        if (!m)
            return false;
        a->advice = v = m;
        v->cap *= 2;
    }
    memmove(&v->segs[i + 2], &v->segs[i + 1], (v->n - i - 1) * sizeof(seg));
    v->segs[i + 1] = (seg){ at, v->segs[i].s };
    v->n++;
    return true;
}

static void merge(struct rt_advice *v)
{
    uint32_t k = 0;
    for (uint32_t i = 1; i < v->n; i++)
        if (memcmp(&v->segs[i].s, &v->segs[k].s, sizeof(seg_state)) != 0)
            v->segs[++k] = v->segs[i];
    v->n = k + 1;
}

/* The pages [p, p+n) touches, as offsets into the managed allocation. */
static rt_alloc *pages(const void *p, size_t n, uint64_t *lo, uint64_t *hi)
{
    rt_alloc *a = n ? rt_mem_managed_holding(p, n) : NULL;
    if (a) {
        uint64_t off = (uint64_t)(uintptr_t)p - a->addr;
        *lo = off / PAGE * PAGE;
        *hi = (off + n + PAGE - 1) / PAGE * PAGE;
    }
    return a;
}

/* A host location as the one NUMA node there is (the current one is it). */
static void normalise(int *type, int *id)
{
    if (*type == cudaMemLocationTypeHost)
        *id = 0;
    if (*type == cudaMemLocationTypeHostNumaCurrent) {
        *type = cudaMemLocationTypeHostNuma;
        *id = 0;
    }
}

static unsigned accessor_bit(int type)
{
    return type == cudaMemLocationTypeDevice ? 1u : 2u;
}

/* Apply to each segment of [lo, hi) one advice or prefetch. */
static cudaError_t update(rt_alloc *a, uint64_t lo, uint64_t hi, int what, int type, int id)
{
    if (!advice_of(a) || !split(a, lo) || !split(a, hi))
        return cudaErrorMemoryAllocation;
    struct rt_advice *v = a->advice;
    for (uint32_t i = 0; i < v->n; i++) {
        seg_state *s = &v->segs[i].s;
        if (v->segs[i].start < lo || v->segs[i].start >= hi)
            continue;
        switch (what) {
        case cudaMemAdviseSetReadMostly: s->read_mostly = 1; break;
        case cudaMemAdviseUnsetReadMostly: s->read_mostly = 0; break;
        case cudaMemAdviseSetPreferredLocation: s->pref_type = (int8_t)type; s->pref_id = id; break;
        case cudaMemAdviseUnsetPreferredLocation: s->pref_type = cudaMemLocationTypeInvalid; s->pref_id = 0; break;
        case cudaMemAdviseSetAccessedBy: s->accessed_by |= accessor_bit(type); break;
        case cudaMemAdviseUnsetAccessedBy: s->accessed_by &= ~accessor_bit(type); break;
        default: s->prefetch_type = (int8_t)type; s->prefetch_id = id; break;  /* a prefetch (what 0) */
        }
    }
    merge(v);
    return cudaSuccess;
}

cudaError_t rt_managed_advise(const void *p, size_t n, int advice, int type, int id)
{
    normalise(&type, &id);
    rt_lock();
    uint64_t lo, hi;
    rt_alloc *a = pages(p, n, &lo, &hi);
    /* A zero-byte range inside managed memory changes nothing. */
    cudaError_t e = a ? update(a, lo, hi, advice, type, id) : rt_mem_managed_holding(p, 0) && !n ? cudaSuccess
                                                                                              : cudaErrorInvalidValue;
    rt_unlock();
    return e;
}

cudaError_t rt_managed_prefetch(const void *p, size_t n, int type, int id)
{
    normalise(&type, &id);
    rt_lock();
    uint64_t lo, hi;
    rt_alloc *a = pages(p, n, &lo, &hi);
    cudaError_t e = a ? update(a, lo, hi, 0, type, id) : rt_mem_managed_holding(p, 0) && !n ? cudaSuccess
                                                                                         : cudaErrorInvalidValue;
    rt_unlock();
    return e;
}

/* What the pages of [lo, hi) have in common. */
typedef struct summary {
    bool read_mostly;           /* every page */
    unsigned accessed_by;       /* the accessors every page has */
    bool pref_same, prefetch_same;
    int pref_type, pref_id, prefetch_type, prefetch_id;
} summary;

static void summarise(const rt_alloc *a, uint64_t lo, uint64_t hi, summary *out)
{
    static const seg none = { 0, { 0 } };
    const struct rt_advice *v = a->advice;
    uint32_t n = v ? v->n : 1;
    bool first = true;
    *out = (summary){ 0 };
    for (uint32_t i = 0; i < n; i++) {
        const seg *g = v ? &v->segs[i] : &none;
        uint64_t end = v && i + 1 < n ? v->segs[i + 1].start : pages_end(a);
        if (end <= lo || g->start >= hi)
            continue;
        const seg_state *s = &g->s;
        if (first) {
            *out = (summary){ s->read_mostly, s->accessed_by, true, true, s->pref_type, s->pref_id,
                              s->prefetch_type, s->prefetch_id };
            first = false;
            continue;
        }
        out->read_mostly = out->read_mostly && s->read_mostly;
        out->accessed_by &= s->accessed_by;
        out->pref_same = out->pref_same && s->pref_type == out->pref_type && s->pref_id == out->pref_id;
        out->prefetch_same = out->prefetch_same && s->prefetch_type == out->prefetch_type &&
                             s->prefetch_id == out->prefetch_id;
    }
    if (!out->pref_same)
        out->pref_type = cudaMemLocationTypeInvalid;
    if (!out->prefetch_same)
        out->prefetch_type = cudaMemLocationTypeInvalid;
}

/* A location as the device ids of the older attributes. */
static int device_id(int type, int id)
{
    switch (type) {
    case cudaMemLocationTypeDevice: return id;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma: return cudaCpuDeviceId;
    default: return cudaInvalidDeviceId;
    }
}

cudaError_t rt_managed_range_attr(void *data, size_t size, int attr, const void *p, size_t n)
{
    if (!data)
        return cudaErrorInvalidValue;
    /* The sizes each attribute's answer takes. */
    bool list = attr == cudaMemRangeAttributeAccessedBy;
    if (attr < cudaMemRangeAttributeReadMostly || attr > cudaMemRangeAttributeLastPrefetchLocationId ||
        (list ? size == 0 || size % 4 : size != 4))
        return cudaErrorInvalidValue;
    rt_lock();
    uint64_t lo, hi;
    rt_alloc *a = pages(p, n, &lo, &hi);
    summary s = { 0 };
    if (a)
        summarise(a, lo, hi, &s);
    rt_unlock();
    if (!a)
        return cudaErrorInvalidValue;
    int *out = data;
    switch (attr) {
    case cudaMemRangeAttributeReadMostly: *out = s.read_mostly; break;
    case cudaMemRangeAttributePreferredLocation: *out = device_id(s.pref_type, s.pref_id); break;
    case cudaMemRangeAttributeLastPrefetchLocation: *out = device_id(s.prefetch_type, s.prefetch_id); break;
    case cudaMemRangeAttributePreferredLocationType: *out = s.pref_type; break;
    case cudaMemRangeAttributePreferredLocationId: *out = s.pref_id; break;
    case cudaMemRangeAttributeLastPrefetchLocationType: *out = s.prefetch_type; break;
    case cudaMemRangeAttributeLastPrefetchLocationId: *out = s.prefetch_id; break;
    case cudaMemRangeAttributeAccessedBy: {
        size_t k = 0, room = size / 4;
        if ((s.accessed_by & 1) && k < room)
            out[k++] = 0;
        if ((s.accessed_by & 2) && k < room)
            out[k++] = cudaCpuDeviceId;
        while (k < room)
            out[k++] = cudaInvalidDeviceId;
        break;
    }
    }
    return cudaSuccess;
}

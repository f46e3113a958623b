/*
 * rt_userobj.c -- user objects: reference-counted objects a program hands
 * CUDA (cudaUserObjectCreate), whose destructor runs when the last
 * reference is released.  The program owns the references it creates and
 * retains; a graph owns those it is given (cudaGraphRetainUserObject), and
 * releases them when it is destroyed.  As the CUDA programming guide
 * describes, a graph's references are duplicated into what is made from
 * it -- its clones, the copy a child-graph node embeds, its executable
 * graphs -- which release theirs when they are destroyed in turn; so an
 * object outlives every graph that may still run work needing it.
 *
 * CUDA runs destructors on an internal thread, later; ptxsim runs one at
 * the release of the last reference.  Destructors may not call CUDA, so
 * running one with the lock held is safe.  Handles are checked against the
 * live set: a released or made-up one is cudaErrorInvalidValue.
 */
#include "rt_int.h"

#include <limits.h>
#include <stdlib.h>

struct rt_userobj {
    void *ptr;
    cudaHostFn_t destroy;
    uint64_t refs;
};

/* A holder's references: one entry per object. */
struct rt_userobj_refs {
    uint32_t n, cap;
    struct { rt_userobj *o; uint64_t count; } e[];
};

static rt_userobj *live(const void *h)
{
    return h ? rt_ptrmap_get(&rt.userobjs, h) : NULL;
}

/* Drop count references of o (the lock held): the last runs the destructor. */
static void drop(rt_userobj *o, uint64_t count)
{
    o->refs -= count;
    if (o->refs == 0) {
        rt_ptrmap_del(&rt.userobjs, o);
        o->destroy(o->ptr);
        free(o);
    }
}

cudaError_t rt_userobj_create(void *ptr, cudaHostFn_t destroy, unsigned count, unsigned flags, rt_userobj **out)
{
    /* The one flag there is is required (the destructor is never waited for). */
    if (!out || !destroy || count == 0 || count > INT_MAX || flags != cudaUserObjectNoDestructorSync)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_userobj *o = calloc(1, sizeof *o);
    cudaError_t e = o ? cudaSuccess : cudaErrorMemoryAllocation;
    if (o) {
        *o = (rt_userobj){ ptr, destroy, count };
        if (rt_ptrmap_put(&rt.userobjs, o, o)) {
            *out = o;
        } else {
            free(o);
            e = cudaErrorMemoryAllocation;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_userobj_retain(rt_userobj *h, unsigned count)
{
    if (count == 0 || count > INT_MAX)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_userobj *o = live(h);
    if (o)
        o->refs += count;
    rt_unlock();
    return o ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t rt_userobj_release(rt_userobj *h, unsigned count)
{
    if (count == 0 || count > INT_MAX)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_userobj *o = live(h);
    /* Releasing more than exist is the program's error (CUDA calls it
     * undefined); refused here rather than run the destructor twice. */
    cudaError_t e = o && o->refs >= count ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        drop(o, count);
    rt_unlock();
    return e;
}

/* The entry for o in *r, made (count 0) if need be; NULL if out of memory. */
static uint64_t *entry(rt_userobj_refs **r, rt_userobj *o)
{
    rt_userobj_refs *l = *r;
    for (uint32_t i = 0; l && i < l->n; i++)
        if (l->e[i].o == o)
            return &l->e[i].count;
    if (!l || l->n == l->cap) {
        uint32_t cap = l ? l->cap * 2 : 4;
        rt_userobj_refs *m = realloc(l, sizeof *m + cap * sizeof m->e[0]);
        if (!m)
            return NULL;
        if (!l)
            m->n = 0;
        m->cap = cap;
        *r = l = m;
    }
    l->e[l->n].o = o;
    l->e[l->n].count = 0;
    return &l->e[l->n++].count;
}

cudaError_t rt_graph_retain_userobj(rt_graph *hg, rt_userobj *h, unsigned count, unsigned flags)
{
    if (count == 0 || count > INT_MAX || (flags & ~(unsigned)cudaGraphUserObjectMove))
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = rt_graph_live(hg);
    rt_userobj *o = live(h);
    cudaError_t e = g && o ? cudaSuccess : cudaErrorInvalidValue;
    uint64_t *c = e == cudaSuccess ? entry(&g->refs, o) : NULL;
    if (e == cudaSuccess && !c)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        *c += count;
        /* A move hands over the caller's references; else new ones. */
        if (!(flags & cudaGraphUserObjectMove))
            o->refs += count;
    }
    rt_unlock();
    return e;
}

cudaError_t rt_graph_release_userobj(rt_graph *hg, rt_userobj *h, unsigned count)
{
    if (count == 0 || count > INT_MAX)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = rt_graph_live(hg);
    rt_userobj *o = live(h);
    cudaError_t e = g && o ? cudaSuccess : cudaErrorInvalidValue;
    rt_userobj_refs *l = e == cudaSuccess ? g->refs : NULL;
    uint32_t i = 0;
    while (l && i < l->n && l->e[i].o != o)
        i++;
    /* Only references the graph holds. */
    if (e == cudaSuccess && (!l || i == l->n || l->e[i].count < count))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        if ((l->e[i].count -= count) == 0)
            l->e[i] = l->e[--l->n];
        drop(o, count);
    }
    rt_unlock();
    return e;
}

cudaError_t rt_userobj_refs_copy(rt_userobj_refs **dst, const rt_userobj_refs *src)
{
    for (uint32_t i = 0; src && i < src->n; i++) {
        uint64_t *c = entry(dst, src->e[i].o);
        if (!c)
            return cudaErrorMemoryAllocation;
        *c += src->e[i].count;
        src->e[i].o->refs += src->e[i].count;
    }
    return cudaSuccess;
}

void rt_userobj_refs_free(rt_userobj_refs **refs)
{
    rt_userobj_refs *l = *refs;
    for (uint32_t i = 0; l && i < l->n; i++)
        drop(l->e[i].o, l->e[i].count);
    free(l);
    *refs = NULL;
}

/* cudaDeviceReset, after the graphs have gone (releasing their references):
 * the objects the program still holds references to are freed, their
 * destructors not run -- the program may still use what they point to. */
void rt_userobj_reset(void)
{
    rt_lock();
    for (uint32_t i = 0; i < rt.userobjs.cap; i++)
        free(rt_ptrmap_slot(&rt.userobjs, i));
    rt_ptrmap_free(&rt.userobjs);
    rt_unlock();
}

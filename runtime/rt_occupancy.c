/*
 * rt_occupancy.c -- a kernel's attributes and the occupancy calculator,
 * from the device's limits (rt_device) and the kernel's resource use
 * (exec_kernel_info).
 *
 * Registers: what the kernel's machine code allocates (rt_regs.c: the
 * program's cubin, or ptxas); without machine code, the engine's count of
 * PTX virtual registers, which overstates it (often by several times).
 * Either is capped by what the largest block the kernel may be launched
 * with (1024 threads, or its launch bounds) leaves each thread.  With that rule registers never forbid a launch that
 * the kernel's launch bounds allow, and the reported numRegs,
 * maxThreadsPerBlock and occupancy agree with one another.
 */
#include "rt_int.h"

#include <stdarg.h>

#include <string.h>

static uint32_t product(const uint32_t v[3])
{
    return v[0] ? v[0] * (v[1] ? v[1] : 1) * (v[2] ? v[2] : 1) : 0;
}

/* The most threads a block of f may have. */
static int max_threads(const exec_kernel_info *ki)
{
    int n = rt.cfg.dev.max_threads_block;
    uint32_t mx = product(ki->maxntid), rq = product(ki->reqntid);
    if (mx && (int)mx < n)
        n = (int)mx;
    if (rq && (int)rq < n)
        n = (int)rq;
    return n;
}

static const isa_func *ir_func(const rt_func *f)
{
    const isa_module *m = exec_program_module(f->mod->prog);
    int i = isa_find_func(m, f->name);
    return i >= 0 ? &m->funcs[i] : NULL;
}

static int regs_estimate(const rt_func *f, const exec_kernel_info *ki)
{
    const rt_device *d = &rt.cfg.dev;
    int regs = (int)ki->machine_regs;
    const isa_func *fn = ir_func(f);
    if (!regs) {
        regs = (int)ki->regs;
        if (fn && fn->maxnreg && regs > (int)fn->maxnreg)
            regs = (int)fn->maxnreg;
    }
    int block = max_threads(ki);
    int warps = (block + d->warp - 1) / d->warp;
    /* Registers go to warps in allocation units. */
    int fit = d->regs_sm / warps / d->reg_alloc_unit * d->reg_alloc_unit / d->warp;
    if (regs > fit)
        regs = fit;
    if (regs > d->max_regs_thread)
        regs = d->max_regs_thread;
    return regs < 1 ? 1 : regs;
}

static uint64_t const_bytes(const rt_func *f)
{
    const isa_module *m = exec_program_module(f->mod->prog);
    uint64_t n = 0;
    for (uint32_t v = 0; v < m->nvars; v++)
        if (m->vars[v].space == ISA_SPACE_CONST && m->vars[v].func < 0)
            n += m->vars[v].size;
    return n;
}

static int max_dynamic_shared(const rt_func *f, const exec_kernel_info *ki)
{
    const rt_device *d = &rt.cfg.dev;
    if (f->max_dynamic_shared >= 0)
        return f->max_dynamic_shared;
    return (int)ki->static_shared < d->shared_block ? d->shared_block - (int)ki->static_shared : 0;
}

/* Resolve f (its module loaded) and take the runtime lock: f's kernel
 * information, for the caller to read before rt_unlock. */
static cudaError_t lock_kernel(rt_func *f, const exec_kernel_info **ki)
{
    cudaError_t e = rt_func_resolve(f);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    rt_module_machine_regs(f->mod);
    *ki = exec_program_kernel_info(f->mod->prog, f->index);
    return cudaSuccess;
}

cudaError_t rt_func_attributes(rt_func *f, struct cudaFuncAttributes *a)
{
    if (!a)
        return cudaErrorInvalidValue;
    const exec_kernel_info *ki;
    cudaError_t e = lock_kernel(f, &ki);
    if (e != cudaSuccess)
        return e;
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = ki->static_shared;
    a->constSizeBytes = (size_t)const_bytes(f);
    a->localSizeBytes = ki->local_bytes;
    a->maxThreadsPerBlock = max_threads(ki);
    a->numRegs = regs_estimate(f, ki);
    /* The virtual architecture the PTX was written for (.target sm_75 ->
     * 75), not the PTX ISA version (.version): CUB picks its tuning policy
     * by matching ptxVersion * 10 against the architectures it was compiled
     * for, and fails with cudaErrorInvalidDeviceFunction when none match.
     * The kernel's own unit's: a program linked with libcudadevrt's PTX
     * (dynamic parallelism) holds units of a newer target. */
    a->ptxVersion = (int)(ki->sm ? ki->sm : 75);
    /* The PTX is JIT-compiled for the device, as the driver would. */
    a->binaryVersion = rt.cfg.dev.cc_major * 10 + rt.cfg.dev.cc_minor;
    a->maxDynamicSharedSizeBytes = max_dynamic_shared(f, ki);
    a->preferredShmemCarveout = f->carveout;
    const uint32_t *rc = ki->cluster[0] ? ki->cluster : f->req_cluster;
    a->requiredClusterWidth = (int)rc[0];
    a->requiredClusterHeight = (int)rc[1];
    a->requiredClusterDepth = (int)rc[2];
    a->clusterDimMustBeSet = ki->explicit_cluster && !ki->cluster[0];
    a->nonPortableClusterSizeAllowed = f->nonportable_cluster;
    a->clusterSchedulingPolicyPreference = f->cluster_policy;
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_func_set_attribute(rt_func *f, int attr, int value)
{
    const exec_kernel_info *ki;
    cudaError_t e = lock_kernel(f, &ki);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || (int64_t)ki->static_shared + value > rt.cfg.dev.shared_block_optin)
            e = cudaErrorInvalidValue;
        else
            f->max_dynamic_shared = value;
        break;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        if (value < -1 || value > 100)
            e = cudaErrorInvalidValue;
        else
            f->carveout = value;
        break;
    case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight:
    case cudaFuncAttributeRequiredClusterDepth:
        /* Dimensions set at compile time (__cluster_dims__) stay. */
        if (ki->cluster[0])
            e = cudaErrorNotPermitted;
        else if (value < 0)
            e = cudaErrorInvalidValue;
        else
            f->req_cluster[attr - cudaFuncAttributeRequiredClusterWidth] = (uint32_t)value;
        break;
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
        if (value < 0 || value > 1)
            e = cudaErrorInvalidValue;
        else
            f->nonportable_cluster = value;
        break;
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
        if (value < cudaClusterSchedulingPolicyDefault || value > cudaClusterSchedulingPolicyLoadBalancing)
            e = cudaErrorInvalidValue;
        else
            f->cluster_policy = value;
        break;
    default:
        e = cudaErrorInvalidValue;  /* read-only (cudaFuncAttributeClusterDimMustBeSet) or unknown */
        break;
    }
    rt_unlock();
    return e;
}

/* Blocks of `block` threads and `dyn` dynamic shared bytes one SM holds. */
static int blocks_per_sm(const rt_func *f, const exec_kernel_info *ki, int block, size_t dyn)
{
    const rt_device *d = &rt.cfg.dev;
    if (block > max_threads(ki) || dyn > (size_t)max_dynamic_shared(f, ki))
        return 0;
    int warps = (block + d->warp - 1) / d->warp;
    int n = d->max_blocks_sm;
    int by_warps = d->max_threads_sm / d->warp / warps;
    if (by_warps < n)
        n = by_warps;
    int regs = regs_estimate(f, ki);
    int per_warp = (regs * d->warp + d->reg_alloc_unit - 1) / d->reg_alloc_unit * d->reg_alloc_unit;
    int by_regs = d->regs_sm / per_warp / warps;
    if (by_regs < n)
        n = by_regs;
    uint64_t smem = ki->static_shared + dyn;
    if (smem) {
        uint64_t per_block = smem + (uint64_t)d->shared_reserved_block;
        int by_smem = (int)((uint64_t)d->shared_sm / per_block);
        if (by_smem < n)
            n = by_smem;
    }
    return n;
}

cudaError_t rt_occupancy(rt_func *f, int block, size_t dynamic_shared, unsigned flags, int *out)
{
    if (!out || block <= 0 || (flags & ~(unsigned)cudaOccupancyDisableCachingOverride))
        return cudaErrorInvalidValue;
    const exec_kernel_info *ki;
    cudaError_t e = lock_kernel(f, &ki);
    if (e != cudaSuccess)
        return e;
    *out = blocks_per_sm(f, ki, block, dynamic_shared);
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_occupancy_smem(rt_func *f, int blocks, int block, size_t *out)
{
    if (!out || blocks <= 0 || block <= 0)
        return cudaErrorInvalidValue;
    const exec_kernel_info *ki;
    cudaError_t e = lock_kernel(f, &ki);
    if (e != cudaSuccess)
        return e;
    const rt_device *d = &rt.cfg.dev;
    size_t avail = 0;
    if (blocks_per_sm(f, ki, block, 0) >= blocks) {
        uint64_t per_block = (uint64_t)d->shared_sm / (uint64_t)blocks;
        uint64_t fixed = ki->static_shared + (uint64_t)d->shared_reserved_block;
        uint64_t dyn = per_block > fixed ? per_block - fixed : 0;
        uint64_t cap = (uint64_t)max_dynamic_shared(f, ki);
        avail = (size_t)(dyn < cap ? dyn : cap);
    }
    *out = avail;
    rt_unlock();
    return cudaSuccess;
}

/* ---- thread block clusters ------------------------------------------------- */

/* A cluster's blocks must be resident at once on the SMs of one GPC.  The
 * device's SMs are taken as GPCs of RT_GPC_SMS (H100: 8 GPCs of 16 to 18
 * SMs, 132 in all); a GPU with fewer SMs is one GPC. */
#define RT_GPC_SMS 16
/* Blocks per cluster: portable (sm_90) and at most (with
 * cudaFuncAttributeNonPortableClusterSizeAllowed). */
#define RT_CLUSTER_PORTABLE 8
#define RT_CLUSTER_NONPORTABLE 16

static int gpc_sms(void)
{
    return rt.cfg.dev.sms < RT_GPC_SMS ? rt.cfg.dev.sms : RT_GPC_SMS;
}

/* The kernel's own cluster dimensions (__cluster_dims__, or set with
 * cudaFuncSetAttribute), NULL when it has none; *bad when the run-time
 * ones are partly 0. */
static const uint32_t *own_cluster(const rt_func *f, const exec_kernel_info *ki, bool *bad)
{
    const uint32_t *rc = f->req_cluster;
    *bad = false;
    if (ki->cluster[0])
        return ki->cluster;
    if (!rc[0] && !rc[1] && !rc[2])
        return NULL;
    *bad = !rc[0] || !rc[1] || !rc[2];
    return rc;
}

static uint64_t volume(const uint32_t v[3])
{
    return (uint64_t)v[0] * v[1] * v[2];
}

/* A refused cluster configuration: the reason into why (when asked). */
static cudaError_t bad_cluster(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cudaError_t bad_cluster(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return cudaErrorInvalidClusterSize;
}

cudaError_t rt_cluster_dims(rt_func *f, const exec_kernel_info *ki, const uint32_t want[3],
                            const uint32_t grid[3], uint32_t block_threads, size_t shared, uint32_t out[3],
                            char *why, size_t n)
{
    const rt_device *d = &rt.cfg.dev;
    memset(out, 0, 3 * sizeof *out);
    bool bad;
    const uint32_t *own = own_cluster(f, ki, &bad), *use;
    bool asked = want && (want[0] || want[1] || want[2]);
    if (bad)
        return bad_cluster(why, n, "the kernel's required cluster dimensions have a 0");
    if (asked) {
        if (!want[0] || !want[1] || !want[2])
            return bad_cluster(why, n, "cluster dimensions (%u,%u,%u) have a 0", want[0], want[1], want[2]);
        /* A kernel with cluster dimensions of its own takes only those. */
        if (own && (own[0] != want[0] || own[1] != want[1] || own[2] != want[2]))
            return bad_cluster(why, n, "cluster dimensions (%u,%u,%u) for a kernel compiled with (%u,%u,%u)",
                               want[0], want[1], want[2], own[0], own[1], own[2]);
        use = want;
    } else if (own) {
        use = own;
    } else if (ki->explicit_cluster) {
        return bad_cluster(why, n, "the kernel (.explicitcluster) must be launched with cluster dimensions");
    } else {
        return cudaSuccess;                     /* no clusters */
    }
    uint64_t size = volume(use);
    if (d->cc_major < 9)
        return bad_cluster(why, n, "thread block clusters need compute capability 9.0; the device has %d.%d",
                           d->cc_major, d->cc_minor);
    for (int i = 0; i < 3; i++)
        if (grid[i] % use[i])
            return bad_cluster(why, n, "grid (%u,%u,%u) is not a whole number of (%u,%u,%u) clusters", grid[0],
                               grid[1], grid[2], use[0], use[1], use[2]);
    uint64_t most = f->nonportable_cluster ? RT_CLUSTER_NONPORTABLE : RT_CLUSTER_PORTABLE;
    if (size > most)
        return bad_cluster(why, n, "clusters of %llu blocks; at most %llu%s", (unsigned long long)size,
                           (unsigned long long)most, f->nonportable_cluster ? ""
                           : " (more with cudaFuncAttributeNonPortableClusterSizeAllowed)");
    if (ki->maxclusterrank && size > ki->maxclusterrank)
        return bad_cluster(why, n, "clusters of %llu blocks; the kernel allows %u (.maxclusterrank)",
                           (unsigned long long)size, ki->maxclusterrank);
    /* All of a cluster's blocks must fit on one GPC at once. */
    uint64_t fit = (uint64_t)blocks_per_sm(f, ki, (int)block_threads, shared) * (uint64_t)gpc_sms();
    if (fit < size)
        return bad_cluster(why, n, "clusters of %llu blocks; %llu such blocks fit on one GPC at once",
                           (unsigned long long)size, (unsigned long long)fit);
    memcpy(out, use, 3 * sizeof *out);
    return cudaSuccess;
}

cudaError_t rt_cluster_occupancy(rt_func *f, const uint32_t want[3], const uint32_t grid[3],
                                 uint32_t block_threads, size_t shared, bool potential, int *out)
{
    (void)grid;
    if (!out || !block_threads)
        return cudaErrorInvalidValue;
    const exec_kernel_info *ki;
    cudaError_t e = lock_kernel(f, &ki);
    if (e != cudaSuccess)
        return e;
    const rt_device *d = &rt.cfg.dev;
    int per_sm = blocks_per_sm(f, ki, (int)block_threads, shared);
    uint64_t per_gpc = (uint64_t)per_sm * (uint64_t)gpc_sms();
    uint32_t limit = f->nonportable_cluster ? RT_CLUSTER_NONPORTABLE : RT_CLUSTER_PORTABLE;
    bool bad;
    const uint32_t *own = own_cluster(f, ki, &bad);
    bool asked = want && (want[0] || want[1] || want[2]);
    *out = 0;
    if (d->cc_major < 9) {
        e = cudaErrorInvalidClusterSize;
    } else if (potential) {
        /* The cluster size in the configuration is ignored; a kernel with
         * its own gets that. */
        uint64_t size = own ? volume(own) : limit;
        if (!own && size > per_gpc)
            size = per_gpc;
        *out = own && (size > per_gpc || size > limit) ? 0 : (int)size;
    } else if (bad || (!asked && !own) || (asked && (!want[0] || !want[1] || !want[2])) ||
               (asked && own && (own[0] != want[0] || own[1] != want[1] || own[2] != want[2]))) {
        e = cudaErrorInvalidClusterSize;
    } else {
        uint64_t size = volume(asked ? want : own);
        if (size > limit || (ki->maxclusterrank && size > ki->maxclusterrank))
            e = cudaErrorInvalidClusterSize;
        else
            *out = (int)(per_gpc / size * (uint64_t)(d->sms / gpc_sms()));
    }
    rt_unlock();
    return e;
}

/*
 * rt_occupancy.c -- a kernel's attributes and the occupancy calculator,
 * from the device's limits (rt_device) and the kernel's resource use
 * (exec_kernel_info).
 *
 * Registers: the engine counts PTX virtual registers, which overstate what
 * ptxas allocates (often by several times).  ptxas must fit a kernel to the
 * largest block it may be launched with (1024 threads, or its launch
 * bounds), so the estimate is the PTX count capped by what such a block
 * leaves each thread.  With that rule registers never forbid a launch that
 * the kernel's launch bounds allow, and the reported numRegs,
 * maxThreadsPerBlock and occupancy agree with one another.
 */
#include "rt_int.h"

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
    int regs = (int)ki->regs;
    const isa_func *fn = ir_func(f);
    if (fn && fn->maxnreg && regs > (int)fn->maxnreg)
        regs = (int)fn->maxnreg;
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

cudaError_t rt_func_attributes(rt_func *f, struct cudaFuncAttributes *a)
{
    if (!a)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_func_resolve(f);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    const exec_kernel_info *ki = exec_program_kernel_info(f->mod->prog, f->index);
    const isa_module *m = exec_program_module(f->mod->prog);
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = ki->static_shared;
    a->constSizeBytes = (size_t)const_bytes(f);
    a->localSizeBytes = ki->local_bytes;
    a->maxThreadsPerBlock = max_threads(ki);
    a->numRegs = regs_estimate(f, ki);
    a->ptxVersion = (int)m->version;
    /* The PTX is JIT-compiled for the device, as the driver would. */
    a->binaryVersion = rt.cfg.dev.cc_major * 10 + rt.cfg.dev.cc_minor;
    a->maxDynamicSharedSizeBytes = max_dynamic_shared(f, ki);
    a->preferredShmemCarveout = f->carveout;
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_func_set_attribute(rt_func *f, int attr, int value)
{
    cudaError_t e = rt_func_resolve(f);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    const exec_kernel_info *ki = exec_program_kernel_info(f->mod->prog, f->index);
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
    default:
        e = cudaErrorInvalidValue;  /* clusters: the device reports none */
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
    cudaError_t e = rt_func_resolve(f);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    *out = blocks_per_sm(f, exec_program_kernel_info(f->mod->prog, f->index), block, dynamic_shared);
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_occupancy_smem(rt_func *f, int blocks, int block, size_t *out)
{
    if (!out || blocks <= 0 || block <= 0)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_func_resolve(f);
    if (e != cudaSuccess)
        return e;
    rt_lock();
    const rt_device *d = &rt.cfg.dev;
    const exec_kernel_info *ki = exec_program_kernel_info(f->mod->prog, f->index);
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

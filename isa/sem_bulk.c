/*
 * sem_bulk.c -- bulk asynchronous copies: cp.async.bulk,
 * cp.reduce.async.bulk, cp.async.bulk.prefetch, .commit_group and
 * .wait_group (PTX ISA 9.7.9.25).
 *
 *   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [a], size, [mbar]
 *   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [d], [a], size, [mbar]
 *   cp.async.bulk.global.shared::cta.bulk_group [d], [a], size
 *   cp.reduce.async.bulk.<same forms>.op.type [d], [a], size {, [mbar]}
 *
 * Each lane that executes one copies `size` bytes on its own.  Both
 * addresses must be 16-byte aligned and the size a multiple of 16, or the
 * copy faults with PTX_E_MISALIGNED.  ptxsim performs the copy at once,
 * then the complete-tx of `size` bytes on the mbarrier (sem_mbarrier.c);
 * bulk groups are therefore always complete and commit_group/wait_group
 * have nothing to do.  A .shared::cluster destination (and its mbarrier)
 * may lie in another CTA of the cluster, at an address mapa made.  Which way a copy goes
 * is its form: the last state space the mnemonic names is the source (the
 * parser keeps that one in isa_inst.space).
 */
#include "isa_int.h"
#include "mem_int.h"

/* [addr, addr + n) in space (shared or global) for lane l, or NULL with the
 * fault filled and *st set. */
static uint8_t *range(isa_warp *w, uint8_t space, uint64_t addr, uint64_t n, unsigned l, ptx_status *st)
{
    const isa_mem *m = w->mem;
    uint8_t *p = NULL;
    if (space == ISA_SPACE_SHARED) {
        addr = (uint32_t)addr;
        if (n <= ISA_CLUSTER_SLOT)
            p = isa_shared_at(m, addr, (unsigned)n);
    } else if (addr >= m->global_lo && addr + n <= m->global_hi && addr + n >= addr &&
               (!m->check || m->check(m->check_ctx, addr, n))) {
        p = (uint8_t *)(uintptr_t)addr;
    }
    w->fault.addr = addr;
    w->fault.lane = l;
    w->fault.bytes = (uint32_t)n;
    w->fault.space = space;
    if (!p) {
        *st = PTX_E_ILLEGAL_ADDRESS;
        return NULL;
    }
    if ((addr | n) & 15) {
        *st = PTX_E_MISALIGNED;
        return NULL;
    }
    return p;
}


bool isa_reduce_value(uint8_t type, uint8_t aop, uint64_t x, uint64_t y, uint64_t *out)
{
    unsigned n = type_bytes(type);
    uint64_t r;
    bool sgn = type_signed(type);
    int64_t sx = sext(x, n), sy = sext(y, n);
    if (type == ISA_TYPE_F16 || type == ISA_TYPE_BF16) {
        /* .add.noftz (subnormals kept), .min, .max on halves. */
        bool bf = type == ISA_TYPE_BF16;
        if (aop == ISA_AOP_ADD)
            r = isa_half_round(half_to_f64((uint32_t)x, bf) + half_to_f64((uint32_t)y, bf), bf, ISA_RND_RN);
        else if (aop == ISA_AOP_MIN || aop == ISA_AOP_MAX)
            r = half_minmax((uint32_t)x, (uint32_t)y, bf, aop == ISA_AOP_MAX, false, false);
        else
            return false;
    } else if (type == ISA_TYPE_F32 || type == ISA_TYPE_F64) {
        if (aop != ISA_AOP_ADD)
            return false;
        r = n == 4 ? bits_f32(f32_of(x) + f32_of(y)) : bits_f64(f64_of(x) + f64_of(y));
    } else if (type_float(type) || (n != 4 && n != 8)) {
        return false;
    } else {
        switch (aop) {
        case ISA_AOP_ADD: r = x + y; break;
        case ISA_AOP_MIN: r = sgn ? (uint64_t)(sx < sy ? sx : sy) : (x < y ? x : y); break;
        case ISA_AOP_MAX: r = sgn ? (uint64_t)(sx > sy ? sx : sy) : (x > y ? x : y); break;
        case ISA_AOP_AND: r = x & y; break;
        case ISA_AOP_OR: r = x | y; break;
        case ISA_AOP_XOR: r = x ^ y; break;
        case ISA_AOP_INC: r = x >= y ? 0 : x + 1; break;
        case ISA_AOP_DEC: r = x == 0 || x > y ? y : x - 1; break;
        default: return false;
        }
    }
    *out = r;
    return true;
}

bool isa_reduce_elem(const isa_warp *w, uint8_t space, uint8_t type, uint8_t aop, uint8_t *d, const uint8_t *s)
{
    unsigned n = type_bytes(type);
    uint64_t x = 0, y = 0, r;
    memcpy(&y, s, n);
    if (space == ISA_SPACE_GLOBAL && w->mem->concurrent) {
        x = host_load(d, n, __ATOMIC_RELAXED);
        do {
            if (!isa_reduce_value(type, aop, x, y, &r))
                return false;
        } while (!host_cas(d, n, &x, r, __ATOMIC_RELAXED));
        return true;
    }
    memcpy(&x, d, n);
    if (!isa_reduce_value(type, aop, x, y, &r))
        return false;
    memcpy(d, &r, n);
    return true;
}

ptx_status isa_cp_bulk(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint8_t mode = in->mode;
    switch (mode) {
    case ISA_MODE_ASYNC_BULK_COMMIT: case ISA_MODE_ASYNC_BULK_WAIT: case ISA_MODE_ASYNC_BULK_WAIT_READ:
    case ISA_MODE_ASYNC_BULK_PREFETCH_L2:
        return PTX_OK;                  /* copies are complete; a prefetch is a hint */
    case ISA_MODE_ASYNC_BULK_MBAR: case ISA_MODE_REDUCE_BULK_MBAR:
    case ISA_MODE_ASYNC_BULK_GROUP: case ISA_MODE_REDUCE_BULK_GROUP:
        break;
    default:
        return PTX_E_UNSUPPORTED;
    }
    bool mbar = mode == ISA_MODE_ASYNC_BULK_MBAR || mode == ISA_MODE_REDUCE_BULK_MBAR;
    bool red = mode == ISA_MODE_REDUCE_BULK_MBAR || mode == ISA_MODE_REDUCE_BULK_GROUP;
    /* mbarrier forms: into shared memory from global (or shared) memory;
     * bulk groups: from shared memory into global memory. */
    uint8_t to = mbar ? ISA_SPACE_SHARED : ISA_SPACE_GLOBAL;
    uint8_t from = mbar ? (in->space == ISA_SPACE_GLOBAL ? ISA_SPACE_GLOBAL : ISA_SPACE_SHARED) : ISA_SPACE_SHARED;
    if (in->nopd < (mbar ? 4u : 3u) || in->opd[0].kind != ISA_OPD_ADDR || in->opd[1].kind != ISA_OPD_ADDR ||
        (mbar && in->opd[3].kind != ISA_OPD_ADDR))
        return PTX_E_UNSUPPORTED;
    unsigned elem = red ? type_bytes(in->type) : 1;
    if (red && elem != 2 && elem != 4 && elem != 8)
        return PTX_E_UNSUPPORTED;
    const uint64_t *size = isa_src(w, in, 2);
    ptx_status st = PTX_OK;
    LANES(mask, {
        uint64_t n = (uint32_t)size[l];
        uint8_t *src = range(w, from, isa_lane_address(w, &in->opd[1], l), n, l, &st);
        if (!src)
            return st;
        uint8_t *dst = range(w, to, isa_lane_address(w, &in->opd[0], l), n, l, &st);
        if (!dst)
            return st;
        if (!red) {
            memmove(dst, src, n);
        } else {
            for (uint64_t k = 0; k < n; k += elem)
                if (!isa_reduce_elem(w, to, in->type, in->aop, dst + k, src + k))
                    return PTX_E_UNSUPPORTED;
        }
        if (mbar && (st = isa_mbar_complete_tx(w, ISA_SPACE_SHARED, isa_lane_address(w, &in->opd[3], l),
                                               (uint32_t)n, l)) != PTX_OK)
            return st;
    });
    return PTX_OK;
}

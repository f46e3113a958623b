/*
 * mem_int.h -- how a semantic function reaches memory: locating an address
 * in its state space (with the bounds, alignment and memory checks that turn
 * a bad access into a fault report, never a host crash), the per-lane
 * addresses of an address operand, and the access record the timing model
 * and the checkers read.  Shared by sem_mem.c and sem_mma.c.
 */
#ifndef PTXSIM_MEM_INT_H
#define PTXSIM_MEM_INT_H

#include "isa_int.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* The value an atomic leaves in a cell holding `old` when its operand is b
 * (and c, cas's new value), for in's operation and type; `global`: the cell
 * is in global memory, where .add.f32 flushes subnormals.  atom, red and
 * sured share it. */
uint64_t isa_atomic_apply(const isa_inst *in, bool global, uint64_t old, uint64_t b, uint64_t c);

/* One atomic read-modify-write of the n-byte cell at p (1, 2, 4 or 8
 * bytes) with in's operation: the cell becomes isa_atomic_apply(old, b, c)
 * and old is returned.  `global`: the cell is in global memory, which
 * other host threads reach too while w->mem->concurrent -- then it is a
 * host compare-and-swap loop with the instruction's ordering. */
uint64_t isa_atomic_rmw(const isa_warp *w, const isa_inst *in, uint8_t *p, unsigned n, bool global,
                        uint64_t b, uint64_t c);

/* The host location of `bytes` bytes at `addr` in `space` for lane l, or
 * NULL when the access is illegal (fault filled in). */
static inline uint8_t *locate(isa_warp *w, uint8_t space, uint64_t addr, unsigned bytes,
                              unsigned l, uint8_t *out_space)
{
    const isa_mem *m = w->mem;
    if (space == ISA_SPACE_GENERIC) {
        if (addr - m->shared_win < ISA_WINDOW_BYTES) {
            space = ISA_SPACE_SHARED;
            addr -= m->shared_win;
        } else if (addr - m->local_win < ISA_WINDOW_BYTES) {
            space = ISA_SPACE_LOCAL;
            addr -= m->local_win;
            w->local_hits++;
        } else {
            space = ISA_SPACE_GLOBAL;
        }
    }
    *out_space = space;
    uint8_t *p;
    switch (space) {
    case ISA_SPACE_SHARED:
        p = isa_shared_at(m, addr, bytes);
        break;
    case ISA_SPACE_LOCAL:
        /* (Checked: the frames in use, or what alloca gave, at the top.) */
        p = addr + bytes <= (m->check && addr < w->stack_ptr ? w->frame_end : m->local_stride)
                ? m->local + (size_t)l * m->local_stride + addr : NULL;
        break;
    default:        /* global, const, kernel param: device memory */
        p = addr >= m->global_lo && addr + bytes <= m->global_hi && addr + bytes > addr
                ? (uint8_t *)(uintptr_t)addr : NULL;
        if (p && m->check && !m->check(m->check_ctx, addr, bytes))
            p = NULL;
        break;
    }
    if (p && (addr & (bytes - 1)) == 0)
        return p;
    w->fault.addr = addr;
    w->fault.lane = l;
    w->fault.bytes = bytes;
    w->fault.space = space;
    return NULL;
}

/* The fast path of a warp's access: when every lane in mask reaches, with
 * its n-byte access aligned, memory that needs no check beyond its bounds
 * -- device memory without memory checking, the CTA's own shared memory,
 * the lane's local memory -- the host address of each lane into hp[] and
 * the space they all resolved to; else ISA_SPACE_COUNT, and the caller
 * takes locate() lane by lane, which faults at the first bad lane.  The
 * bounds are locate()'s, so either way the outcome is the same. */
static inline uint8_t plain_lanes(const isa_warp *w, uint8_t space, const uint64_t *addr, uint32_t mask,
                                  unsigned n, uint8_t **hp)
{
    const isa_mem *m = w->mem;
    uint64_t bad = 0;
    switch (space) {
    case ISA_SPACE_SHARED:
        /* Only the CTA's own memory below the reserved block, unmapped. */
        if (m->shared_map || m->shared_bytes > ISA_RESERVED_SMEM_AT || m->shared_bytes < n)
            return ISA_SPACE_COUNT;
        LANES(mask, {
            bad |= (addr[l] > m->shared_bytes - n) | (addr[l] & (n - 1));
            hp[l] = m->shared + (addr[l] & 0xFFFFFFFFu);
        });
        return bad ? ISA_SPACE_COUNT : ISA_SPACE_SHARED;
    case ISA_SPACE_LOCAL: {
        if (m->check && w->stack_ptr != m->local_stride)
            return ISA_SPACE_COUNT;     /* two ranges, frames and alloca's: locate() */
        uint64_t end = m->check ? w->frame_end : m->local_stride;
        if (end < n)
            return ISA_SPACE_COUNT;
        LANES(mask, {
            bad |= (addr[l] > end - n) | (addr[l] & (n - 1));
            hp[l] = m->local + (size_t)l * m->local_stride + (addr[l] & 0xFFFFFFFFu);
        });
        return bad ? ISA_SPACE_COUNT : ISA_SPACE_LOCAL;
    }
    default: {                  /* device memory, and generic addresses outside both windows */
        bool generic = space == ISA_SPACE_GENERIC;
        if (m->check || m->global_hi - m->global_lo < n)
            return ISA_SPACE_COUNT;
        LANES(mask, {
            uint64_t a = addr[l];
            bad |= (a < m->global_lo) | (a > m->global_hi - n) | (a & (n - 1));
            if (generic)
                bad |= (a - m->shared_win < ISA_WINDOW_BYTES) | (a - m->local_win < ISA_WINDOW_BYTES);
            hp[l] = (uint8_t *)(uintptr_t)a;
        });
        return bad ? ISA_SPACE_COUNT : generic ? ISA_SPACE_GLOBAL : space;
    }
    }
}

static inline ptx_status fault_status(const isa_warp *w, uint64_t addr, unsigned bytes)
{
    (void)w;
    return (addr & (bytes - 1)) ? PTX_E_MISALIGNED : PTX_E_ILLEGAL_ADDRESS;
}

/* The per-lane address of an address operand, in its state space.  Shared
 * and local addresses are 32 bits: a base that went below zero wraps, as
 * compilers rely on ([%r - 140 + 68] is fine). */
static inline const uint64_t *address(isa_warp *w, const isa_inst *in, unsigned i)
{
    const isa_opd *o = &in->opd[i];
    uint64_t *s = w->scratch[i & 3];
    if (o->kind == ISA_OPD_ADDR && o->reg != ISA_NOREG) {
        const uint64_t *r = w->r + (size_t)o->reg * ISA_WARP_SIZE;
        if (in->space == ISA_SPACE_SHARED || in->space == ISA_SPACE_LOCAL) {
            for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
                s[l] = (uint32_t)(r[l] + (uint64_t)o->off);
            return s;
        }
        if (in->space == ISA_SPACE_PARAM && w->mem->param_shift) {
            for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
                s[l] = isa_param_at(w->mem, r[l] + (uint64_t)o->off);
            return s;
        }
        if (o->off == 0)
            return r;
        for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
            s[l] = r[l] + (uint64_t)o->off;
        return s;
    }
    uint64_t v = o->kind == ISA_OPD_ADDR_LOCAL ? w->frame + (uint64_t)o->off : (uint64_t)o->off;
    if (in->space == ISA_SPACE_PARAM && w->mem->param_shift)
        v = isa_param_at(w->mem, v);
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        s[l] = v;
    return s;
}

static inline void record(isa_warp *w, const isa_inst *in, const uint64_t *addr, uint32_t mask,
                          unsigned bytes, uint8_t space, bool store, bool atomic)
{
    isa_access *acc = w->access;
    acc->lanes = mask;
    acc->space = space;
    acc->bytes = (uint8_t)bytes;
    acc->store = store;
    acc->atomic = atomic;
    (void)in;
    LANES(mask, acc->addr[l] = addr[l]);
}

/* n bytes at p, zero-extended as every register value is; a signed load
 * into a wider register is sign-extended to that register's width after
 * the instruction (isa_execute). */
static inline uint64_t load_bytes(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void store_bytes(uint8_t *p, unsigned n, uint64_t v)
{
    switch (n) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* ---- global memory shared with other host threads (isa_mem.concurrent) --
 * PTX's orders as the host's: an instruction without .sem (atom, red) is
 * .relaxed, as the ISA says; .weak and .mmio have nothing to order.  The
 * scope does not change the host order: a .cta-scoped access to global
 * memory may still meet another CTA's access to the same cell, so it is
 * made atomic all the same, and relaxed costs a plain move on x86-64. */
static inline int host_rmw_order(uint8_t order)
{
    switch (order) {
    case ISA_ORDER_ACQUIRE: return __ATOMIC_ACQUIRE;
    case ISA_ORDER_RELEASE: return __ATOMIC_RELEASE;
    case ISA_ORDER_ACQ_REL: return __ATOMIC_ACQ_REL;
    case ISA_ORDER_SC: return __ATOMIC_SEQ_CST;
    default: return __ATOMIC_RELAXED;
    }
}

static inline int host_load_order(uint8_t order)
{
    return order == ISA_ORDER_SC ? __ATOMIC_SEQ_CST
         : order == ISA_ORDER_ACQUIRE || order == ISA_ORDER_ACQ_REL ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED;
}

static inline int host_store_order(uint8_t order)
{
    return order == ISA_ORDER_SC ? __ATOMIC_SEQ_CST
         : order == ISA_ORDER_RELEASE || order == ISA_ORDER_ACQ_REL ? __ATOMIC_RELEASE : __ATOMIC_RELAXED;
}

/* ld and st that other threads' accesses may meet on purpose (a flag, a
 * lock word): .relaxed, .acquire, .release, .sc and .volatile forms. */
static inline bool strong_access(const isa_warp *w, const isa_inst *in)
{
    return w->mem->concurrent && ((in->order != ISA_ORDER_NONE && in->order != ISA_ORDER_WEAK &&
                                   in->order != ISA_ORDER_MMIO) || (in->flags & ISA_MOD_FLAG(VOLATILE)));
}

/* Naturally aligned host atomics of 1, 2, 4 or 8 bytes (locate checked
 * the alignment); values zero-extended as load_bytes gives them.  The
 * order is a run-time value, and a compiler makes an __atomic access whose
 * order it cannot see the strongest kind: on x86 every store an xchg (a
 * locked instruction, some 20 cycles, which took srad's two-thread run 12%
 * of its time), on Arm every load an ldar.  So each order the callers pass
 * (host_load_order, host_store_order) gets an access of its own, inlined
 * into the lane loops that call it (out of line, host_load's call took
 * 7% of that run). */
#define HOST_LOAD(o)                                                                      \
    switch (n) {                                                                          \
    case 1: return __atomic_load_n((const uint8_t *)p, o);                                \
    case 2: return __atomic_load_n((const uint16_t *)(const void *)p, o);                 \
    case 4: return __atomic_load_n((const uint32_t *)(const void *)p, o);                 \
    default: return __atomic_load_n((const uint64_t *)(const void *)p, o);                \
    }
__attribute__((always_inline)) static inline uint64_t host_load(const uint8_t *p, unsigned n, int order)
{
    if (order == __ATOMIC_RELAXED) {
        HOST_LOAD(__ATOMIC_RELAXED)
    } else if (order == __ATOMIC_ACQUIRE) {
        HOST_LOAD(__ATOMIC_ACQUIRE)
    } else {
        HOST_LOAD(__ATOMIC_SEQ_CST)
    }
}
#undef HOST_LOAD

#define HOST_STORE(o)                                                                     \
    switch (n) {                                                                          \
    case 1: __atomic_store_n(p, (uint8_t)v, o); return;                                   \
    case 2: __atomic_store_n((uint16_t *)(void *)p, (uint16_t)v, o); return;              \
    case 4: __atomic_store_n((uint32_t *)(void *)p, (uint32_t)v, o); return;              \
    default: __atomic_store_n((uint64_t *)(void *)p, v, o); return;                       \
    }
__attribute__((always_inline)) static inline void host_store(uint8_t *p, unsigned n, uint64_t v, int order)
{
    if (order == __ATOMIC_RELAXED) {
        HOST_STORE(__ATOMIC_RELAXED)
    } else if (order == __ATOMIC_RELEASE) {
        HOST_STORE(__ATOMIC_RELEASE)
    } else {
        HOST_STORE(__ATOMIC_SEQ_CST)
    }
}
#undef HOST_STORE

/* A whole vector of 8 or 16 bytes as one access, as the GPU makes an
 * aligned vector access (CUB's decoupled look-back publishes a 16-byte
 * status-and-value descriptor with one st.v2.u64 and reads it with one
 * ld.v2.u64: read column by column while another host thread writes it,
 * the pair tears, and cub_scan's 64-bit scans went wrong on two threads).
 * 16 bytes go through one aligned SSE access (a volatile __m128i, which
 * compilers keep whole: movdqa; no inline assembly, which the compiled
 * tier's LLVM could not assemble), which Intel and AMD document as atomic
 * on every processor with AVX (and which older ones carry out whole in
 * practice); the fences give the order asked for.  host_vector_fits says
 * whether the host has such an access for `total` bytes (where it has
 * not, the caller goes column by column, and a racing reader may see half
 * of a write). */
static inline bool host_vector_fits(unsigned total)
{
#if defined(__x86_64__)
    return total == 8 || total == 16;
#else
    return total == 8;
#endif
}

static inline void host_vector_load(const uint8_t *p, unsigned total, int order, uint8_t *out)
{
    if (total == 8) {
        uint64_t v = host_load(p, 8, order);
        memcpy(out, &v, 8);
        return;
    }
#if defined(__x86_64__)
    __m128i v = *(const volatile __m128i *)(const void *)p;     /* one movdqa */
    memcpy(out, &v, 16);
    if (order != __ATOMIC_RELAXED)
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

static inline void host_vector_store(uint8_t *p, unsigned total, int order, const uint8_t *in)
{
    if (total == 8) {
        uint64_t v;
        memcpy(&v, in, 8);
        host_store(p, 8, v, order);
        return;
    }
#if defined(__x86_64__)
    if (order != __ATOMIC_RELAXED)
        __atomic_thread_fence(order == __ATOMIC_SEQ_CST ? __ATOMIC_SEQ_CST : __ATOMIC_RELEASE);
    __m128i v;
    memcpy(&v, in, 16);
    *(volatile __m128i *)(void *)p = v;                         /* one movdqa */
    if (order == __ATOMIC_SEQ_CST)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* Compare-and-swap; on failure *expected gets the cell's value.  The
 * failure order is relaxed: a failed swap is retried, only the one that
 * lands carries the instruction's order. */
static inline bool host_cas(uint8_t *p, unsigned n, uint64_t *expected, uint64_t desired, int order)
{
    bool ok;
    switch (n) {
    case 1: {
        uint8_t e = (uint8_t)*expected;
        ok = __atomic_compare_exchange_n(p, &e, (uint8_t)desired, false, order, __ATOMIC_RELAXED);
        *expected = e;
        break;
    }
    case 2: {
        uint16_t e = (uint16_t)*expected;
        ok = __atomic_compare_exchange_n((uint16_t *)(void *)p, &e, (uint16_t)desired, false, order,
                                         __ATOMIC_RELAXED);
        *expected = e;
        break;
    }
    case 4: {
        uint32_t e = (uint32_t)*expected;
        ok = __atomic_compare_exchange_n((uint32_t *)(void *)p, &e, (uint32_t)desired, false, order,
                                         __ATOMIC_RELAXED);
        *expected = e;
        break;
    }
    default:
        ok = __atomic_compare_exchange_n((uint64_t *)(void *)p, expected, desired, false, order,
                                         __ATOMIC_RELAXED);
        break;
    }
    return ok;
}

#endif /* PTXSIM_MEM_INT_H */

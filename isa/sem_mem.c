/*
 * sem_mem.c -- memory: ld ldu st prefetch atom red cp.async membar fence
 * (cp.async.bulk: sem_bulk.c; cp.async.mbarrier.arrive: sem_mbarrier.c)
 * (PTX ISA 9.7.9 and 9.7.13).
 *
 * Device memory is host memory at its own address, so a global access is a
 * bounds check against the device heap and a plain load or store.  Shared
 * and local addresses are offsets into the CTA's and the lane's buffers;
 * generic addresses are sorted into the three by the windows in isa_mem.
 * Every access is checked: an address outside its space, or not aligned to
 * its size, ends the instruction with PTX_E_ILLEGAL_ADDRESS or
 * PTX_E_MISALIGNED and fills w->fault -- never a host crash.
 */
#include "mem_int.h"

#include <stdlib.h>

/* The registers of a data operand, one 64-bit column per 8 bytes of each
 * element: cols[k * slots + h] holds bytes 8h.. of element k.  A .b128
 * element is a .b128 register (its two columns, isa_reg_slots) or, written
 * as a braced pair {lo, hi}, two 64-bit registers; .v8 data comes as a
 * register list.  The count of columns, or 0 when the operand has fewer
 * registers than the vector needs. */
static unsigned data_cols(const isa_warp *w, const isa_opd *o, unsigned nv, unsigned slots, uint16_t *cols)
{
    uint16_t regs[ISA_MAX_LIST];
    unsigned nr = o->kind == ISA_OPD_REG || o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_LIST
                ? isa_opd_regs(o, w->lists, regs) : 0;
    if (nr == nv * slots) {                       /* one register per column */
        memcpy(cols, regs, nr * sizeof *regs);
        return nr;
    }
    if (nr != nv)
        return 0;
    for (unsigned k = 0; k < nv; k++)             /* .b128 registers: two columns each */
        for (unsigned h = 0; h < slots; h++)
            cols[k * slots + h] = regs[k] == ISA_NOREG ? ISA_NOREG : (uint16_t)(regs[k] + h);
    return nv * slots;
}

/* An element of n bytes occupies `slots` columns of min(n, 8) bytes. */
static inline unsigned slots_of(unsigned n) { return n > 8 ? n / 8 : 1; }
static inline unsigned part_of(unsigned n) { return n > 8 ? 8 : n; }

/* Is the access one whole vector of 8 or 16 bytes in two or more columns,
 * which host_vector_load and _store move as one? */
static inline bool whole_vector(unsigned ncols, unsigned part, unsigned total)
{
    return ncols > 1 && ncols * part == total && host_vector_fits(total);
}

/* Lane l's columns from / into the bytes of one vector. */
static inline void spread(isa_warp *w, const uint16_t *cols, unsigned ncols, unsigned part, unsigned l,
                          const uint8_t *buf)
{
    for (unsigned k = 0; k < ncols; k++)
        if (cols[k] != ISA_NOREG)
            w->r[(size_t)cols[k] * ISA_WARP_SIZE + l] = load_bytes(buf + k * part, part);
}

static inline void gather(const isa_warp *w, const uint16_t *cols, unsigned ncols, unsigned part, unsigned l,
                          uint8_t *buf)
{
    for (unsigned k = 0; k < ncols; k++)
        store_bytes(buf + k * part, part, w->r[(size_t)cols[k] * ISA_WARP_SIZE + l]);
}

static ptx_status load(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    unsigned n = type_bytes(in->type), nv = in->vec, total = n * nv;
    unsigned slots = slots_of(n), part = part_of(n), ncols;
    const uint64_t *addr = address(w, in, 1);
    uint8_t space = in->space, actual = space;
    uint16_t cols[2 * ISA_MAX_VEC];
    if (nv * slots > ISA_MAX_VEC * 2 || !(ncols = data_cols(w, &in->opd[0], nv, slots, cols)))
        return PTX_E_UNSUPPORTED;
    bool shared = w->mem->concurrent;
    int order = strong_access(w, in) ? host_load_order(in->order) : __ATOMIC_RELAXED;
    uint8_t *hp[ISA_WARP_SIZE];
    uint8_t fast = plain_lanes(w, space, addr, mask, total, hp);
    if (fast != ISA_SPACE_COUNT) {
        bool host_atomic = shared && fast == ISA_SPACE_GLOBAL;
        if (host_atomic && whole_vector(ncols, part, total)) {
            uint8_t buf[16];
            LANES(mask, {
                host_vector_load(hp[l], total, order, buf);
                spread(w, cols, ncols, part, l, buf);
            });
            if (w->access)
                record(w, in, addr, mask, total, fast, false, false);
            return PTX_OK;
        }
        /* A relaxed host access of an aligned word is the plain load the
         * host makes anyway; each size gets a loop of its own, with no
         * choice of size or order left inside it. */
        for (unsigned k = 0; k < ncols; k++) {
            if (cols[k] == ISA_NOREG)
                continue;
            uint64_t *d = w->r + (size_t)cols[k] * ISA_WARP_SIZE;
            unsigned at = k * part;
            if (host_atomic && order != __ATOMIC_RELAXED)
                LANES(mask, d[l] = host_load(hp[l] + at, part, order));
            else if (part == 4)
                LANES(mask, d[l] = host_load(hp[l] + at, 4, __ATOMIC_RELAXED));
            else if (part == 8)
                LANES(mask, d[l] = host_load(hp[l] + at, 8, __ATOMIC_RELAXED));
            else
                LANES(mask, d[l] = host_load(hp[l] + at, part, __ATOMIC_RELAXED));
        }
        if (w->access)
            record(w, in, addr, mask, total, fast, false, false);
        return PTX_OK;
    }
    LANES(mask, {
        const uint8_t *p = locate(w, space, addr[l], total, l, &actual);
        if (!p)
            return fault_status(w, w->fault.addr, total);
        uint8_t buf[16];
        if (shared && actual == ISA_SPACE_GLOBAL && whole_vector(ncols, part, total)) {
            host_vector_load(p, total, order, buf);
            spread(w, cols, ncols, part, l, buf);
            continue;
        }
        for (unsigned k = 0; k < ncols; k++)
            if (cols[k] != ISA_NOREG)
                w->r[(size_t)cols[k] * ISA_WARP_SIZE + l] = shared && actual == ISA_SPACE_GLOBAL
                    ? host_load(p + k * part, part, order) : load_bytes(p + k * part, part);
    });
    if (w->access)
        record(w, in, addr, mask, total, actual, false, false);
    return PTX_OK;
}

ptx_status isa_sem_ld(isa_warp *w, const isa_inst *in, uint32_t mask) { return load(w, in, mask); }
ptx_status isa_sem_ldu(isa_warp *w, const isa_inst *in, uint32_t mask) { return load(w, in, mask); }

/* A register's value as st writes it: itself, or (from_u64) converted
 * from an unsigned 64-bit integer to f32's bits. */
static inline uint64_t stored(uint64_t v, bool from_u64)
{
    return from_u64 ? bits_f32((float)v) : v;
}

void isa_store_log_add(isa_store_log *log, uint64_t addr, unsigned n, uint64_t bits)
{
    if (log->n == log->cap) {
        uint32_t nc = log->cap ? log->cap * 2 : 64;
        isa_store *v = realloc(log->v, nc * sizeof *v);
        if (!v) {
            log->failed = true;
            return;
        }
        log->v = v;
        log->cap = nc;
    }
    log->v[log->n++] = (isa_store){ addr, bits, log->tag, n };
    if (addr < log->lo)
        log->lo = addr;
    if (addr + n > log->hi)
        log->hi = addr + n;
}

static ptx_status store(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    unsigned n = type_bytes(in->type), nv = in->vec, total = n * nv;
    unsigned slots = slots_of(n), part = part_of(n), ncols = 0;
    const uint64_t *addr = address(w, in, 0);
    const isa_opd *src = &in->opd[1];
    uint8_t space = in->space, actual = space;
    uint16_t cols[2 * ISA_MAX_VEC];
    /* A scalar source that is not a register (an immediate) is broadcast. */
    const uint64_t *scalar = src->kind == ISA_OPD_REG || src->kind == ISA_OPD_VEC || src->kind == ISA_OPD_LIST
                           ? NULL : SRC(1);
    if (scalar && slots > 1)
        return PTX_E_UNSUPPORTED;                 /* no 128-bit immediates */
    if (!scalar && (nv * slots > ISA_MAX_VEC * 2 || !(ncols = data_cols(w, src, nv, slots, cols))))
        return PTX_E_UNSUPPORTED;
    bool shared = w->mem->concurrent;
    int order = strong_access(w, in) ? host_store_order(in->order) : __ATOMIC_RELAXED;
    /* st.f32 from a 64-bit register stores it converted as a u64 (see
     * isa_mark_wide_dsts): a conversion the fast path below does not do */
    bool from_u64 = src->ext == 8;
    /* a vector (or .b128) of 8 or 16 bytes from registers: one host store
     * when other threads may read it (host_vector_store) */
    bool one_store = shared && !scalar && !from_u64 && whole_vector(ncols, part, total);
    for (unsigned k = 0; one_store && k < ncols; k++)
        one_store = cols[k] != ISA_NOREG;
    uint8_t *hp[ISA_WARP_SIZE];
    uint8_t fast = plain_lanes(w, space, addr, mask, total, hp);
    isa_store_log *log = w->mem->log;
    if (fast != ISA_SPACE_COUNT && !(fast == ISA_SPACE_GLOBAL && (log || (shared && order != __ATOMIC_RELAXED))) &&
        !scalar && ncols == 1 && cols[0] != ISA_NOREG && !from_u64) {
        /* The common store: one register a lane, aligned.  Lanes in order,
         * as below, so lanes storing to one address leave the last.  A
         * relaxed host store is the plain one the host makes anyway, and
         * what memory other host threads share needs. */
        const uint64_t *v = w->r + (size_t)cols[0] * ISA_WARP_SIZE;
        if (part == 4)
            LANES(mask, host_store(hp[l], 4, v[l], __ATOMIC_RELAXED));
        else if (part == 8)
            LANES(mask, host_store(hp[l], 8, v[l], __ATOMIC_RELAXED));
        else
            LANES(mask, host_store(hp[l], part, v[l], __ATOMIC_RELAXED));
        if (w->access)
            record(w, in, addr, mask, total, fast, true, false);
        return PTX_OK;
    }
    /* Where plain_lanes found every lane's address (a store to memory other
     * threads share, or to the store log), it is taken as found. */
    if (fast != ISA_SPACE_COUNT)
        actual = fast;
    LANES(mask, {
        uint8_t *p = fast != ISA_SPACE_COUNT ? hp[l] : locate(w, space, addr[l], total, l, &actual);
        if (!p)
            return fault_status(w, w->fault.addr, total);
        if (log && actual == ISA_SPACE_GLOBAL) {
            uint64_t a = (uint64_t)(uintptr_t)p;
            if (scalar)
                for (unsigned k = 0; k < nv; k++)
                    isa_store_log_add(log, a + k * n, n, scalar[l]);
            for (unsigned k = 0; k < ncols; k++)
                if (cols[k] != ISA_NOREG)
                    isa_store_log_add(log, a + k * part, part,
                                      stored(w->r[(size_t)cols[k] * ISA_WARP_SIZE + l], from_u64));
            continue;
        }
        if (shared && actual == ISA_SPACE_GLOBAL) {
            uint8_t buf[16];
            if (one_store) {
                gather(w, cols, ncols, part, l, buf);
                host_vector_store(p, total, order, buf);
                continue;
            }
            if (scalar)
                for (unsigned k = 0; k < nv; k++)
                    host_store(p + k * n, n, scalar[l], order);
            for (unsigned k = 0; k < ncols; k++)
                if (cols[k] != ISA_NOREG)
                    host_store(p + k * part, part, stored(w->r[(size_t)cols[k] * ISA_WARP_SIZE + l], from_u64),
                               order);
            continue;
        }
        if (scalar)
            for (unsigned k = 0; k < nv; k++)
                store_bytes(p + k * n, n, scalar[l]);
        for (unsigned k = 0; k < ncols; k++)
            if (cols[k] != ISA_NOREG)
                store_bytes(p + k * part, part, stored(w->r[(size_t)cols[k] * ISA_WARP_SIZE + l], from_u64));
    });
    if (w->access)
        record(w, in, addr, mask, total, actual, true, false);
    return PTX_OK;
}

/* st, and st.async's store before its complete-tx (sem_async.c). */
ptx_status isa_sem_st(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    ptx_status st = store(w, in, mask);
    if (st == PTX_OK && in->mode == ISA_MODE_ASYNC_MBAR)
        st = isa_async_complete(w, in, mask, type_bytes(in->type) * in->vec);
    return st;
}

static ptx_status prefetch(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    /* No architectural effect; the address goes to the timing model. */
    if (w->access) {
        const uint64_t *addr = address(w, in, 0);
        record(w, in, addr, mask, 0, in->space, false, false);
    }
    return PTX_OK;
}

ptx_status isa_sem_prefetch(isa_warp *w, const isa_inst *in, uint32_t mask) { return prefetch(w, in, mask); }
ptx_status isa_sem_prefetchu(isa_warp *w, const isa_inst *in, uint32_t mask) { return prefetch(w, in, mask); }

/* discard.global.L2 [a], 128 lets the L2 drop a line without writing it
 * back: its data becomes indeterminate, and keeping it is one of the
 * values it may take.  applypriority.global.L2::evict_normal [a], 128
 * only changes an eviction priority.  Neither changes what ptxsim runs. */
ptx_status isa_sem_discard(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)w, (void)in, (void)mask;
    return PTX_OK;
}

ptx_status isa_sem_applypriority(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    return isa_sem_discard(w, in, mask);
}

/* alloca.type ptr, size{, align}, stacksave.type d, stackrestore.type a
 * (PTX ISA 9.7.17): a stack in the thread's local memory that grows down
 * from its top, while the frames of calls grow up from 0 (exec/ keeps the
 * callees' frames below the stack pointer and restores it as a function
 * returns, which frees what the function allocated).  The pointer is the
 * warp's: each allocation takes the most any lane of the warp asks for, so
 * every lane's block lies at the same local address (local addresses are
 * each lane's own).  An allocation that reaches the frames is a stack
 * overflow; restoring a pointer stacksave never gave is refused as one. */
ptx_status isa_sem_alloca(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *size = SRC(1);
    uint64_t *d = DST(0);
    uint64_t align = in->nopd > 2 && in->opd[2].kind == ISA_OPD_IMM && in->opd[2].imm > 8 ? in->opd[2].imm : 8;
    uint64_t wm = width_mask(type_bytes(in->type)), most = 0;
    LANES(mask, most = (size[l] & wm) > most ? size[l] & wm : most);
    if (!mask)
        return PTX_OK;
    if (most > w->stack_ptr || ((w->stack_ptr - most) & ~(align - 1)) < w->frame_end) {
        w->fault.lane = (uint32_t)__builtin_ctz(mask);
        return PTX_E_STACK_OVERFLOW;
    }
    w->stack_ptr = (w->stack_ptr - most) & ~(align - 1);
    LANES(mask, d[l] = w->stack_ptr);
    return PTX_OK;
}

ptx_status isa_sem_stacksave(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint64_t *d = DST(0);
    LANES(mask, d[l] = w->stack_ptr);
    return PTX_OK;
}

ptx_status isa_sem_stackrestore(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (!mask)
        return PTX_OK;
    unsigned l0 = (unsigned)__builtin_ctz(mask);
    uint64_t a = SRC(0)[l0] & width_mask(type_bytes(in->type));
    if (a < w->frame_end || a > w->mem->local_stride) {
        w->fault.lane = l0;
        return PTX_E_STACK_OVERFLOW;
    }
    w->stack_ptr = a;
    return PTX_OK;
}

/* createpolicy.{fractional,range,cvt}...b64 d, ...: a cache policy, an
 * opaque 64-bit value that loads and stores with .L2::cache_hint take --
 * and ptxsim's caches ignore, as hints.  .cvt converts a policy of the
 * old encoding: it is passed on; the others give one fixed non-zero
 * value. */
#define CACHE_POLICY 0x1000000000000000ull

ptx_status isa_sem_createpolicy(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint64_t *d = DST(0);
    if ((in->mode == ISA_MODE_CVT || in->mode == ISA_MODE_CVT_L2) && in->nopd > 1) {
        const uint64_t *a = SRC(1);
        LANES(mask, d[l] = a[l]);
    } else {
        LANES(mask, d[l] = CACHE_POLICY);
    }
    return PTX_OK;
}

/* ---- atomics ----------------------------------------------------------- */

/* One atomic read-modify-write on the value `old`; returns the new value.
 * A warp's lanes apply in lane order.  On one host thread the outcome is
 * deterministic; with CTAs on several (isa_mem.concurrent) another CTA's
 * atomics on the same cell may come between, as on a GPU, which changes
 * the values atom returns and, for floating-point add, the rounding of the
 * sum -- never an integer cell's final value under add, and/or/xor,
 * min/max or inc/dec alone. */
/* add, min and max on f16, bf16 and their pairs (atom.add.noftz.f16x2 is
 * atomicAdd(__half2 *)): each element on its own, subnormals kept, the sum
 * rounded to nearest. */
static uint64_t atomic_half(const isa_inst *in, uint64_t old, uint64_t b)
{
    bool bf = type_bf16(in->type);
    uint64_t out = 0;
    HALF_SHIFTS(in->type, h) {
        uint32_t x = half_at(old, h), y = half_at(b, h);
        uint32_t r = in->aop == ISA_AOP_ADD
                   ? isa_half_round(sum_odd(half_to_f64(x, bf), half_to_f64(y, bf)), bf, ISA_RND_RN)
                   : half_minmax(x, y, bf, in->aop == ISA_AOP_MAX, false, false);
        out |= (uint64_t)r << h;
    }
    return out;
}

/* `global`: the cell is in global memory, where atom.add.f32 flushes
 * subnormal inputs and results to zeros of their sign; on shared memory it
 * keeps them (PTX ISA 9.7.13.5 atom: "atom.add.f32 on shared memory
 * supports subnormal inputs and results and doesn't flush them to zero"). */
uint64_t isa_atomic_apply(const isa_inst *in, bool global, uint64_t old, uint64_t b, uint64_t c)
{
    unsigned n = type_bytes(in->type);
    if (type_float(in->type) && n <= 4 && in->type != ISA_TYPE_F32 &&
        (in->aop == ISA_AOP_ADD || in->aop == ISA_AOP_MIN || in->aop == ISA_AOP_MAX))
        return atomic_half(in, old, b);
    uint64_t wm = width_mask(n);
    switch (in->aop) {
    case ISA_AOP_AND: return old & b;
    case ISA_AOP_OR: return old | b;
    case ISA_AOP_XOR: return old ^ b;
    case ISA_AOP_EXCH: return b;
    case ISA_AOP_CAS: return (old & wm) == (b & wm) ? c : old;
    case ISA_AOP_INC: return (old & wm) >= (b & wm) ? 0 : old + 1;
    case ISA_AOP_DEC: return (old & wm) == 0 || (old & wm) > (b & wm) ? b : old - 1;
    case ISA_AOP_ADD:
        if (in->type == ISA_TYPE_F32 && global)
            return f32_result(ftz32(ftz32(f32_of(old)) + ftz32(f32_of(b))), true);
        if (in->type == ISA_TYPE_F32)
            return f32_result(f32_of(old) + f32_of(b), false);
        if (in->type == ISA_TYPE_F64)
            return f64_result(f64_of(old) + f64_of(b));
        return old + b;
    case ISA_AOP_MIN: case ISA_AOP_MAX: {
        bool mx = in->aop == ISA_AOP_MAX;
        if (in->type == ISA_TYPE_F32) {
            float x = f32_of(old), y = f32_of(b);
            return bits_f32(mx ? fmaxf(x, y) : fminf(x, y));
        }
        if (in->type == ISA_TYPE_F64) {
            double x = f64_of(old), y = f64_of(b);
            return bits_f64(mx ? fmax(x, y) : fmin(x, y));
        }
        if (type_signed(in->type)) {
            int64_t x = sext(old, n), y = sext(b, n);
            return (uint64_t)(mx ? (x > y ? x : y) : (x < y ? x : y));
        }
        uint64_t x = old & wm, y = b & wm;
        return mx ? (x > y ? x : y) : (x < y ? x : y);
    }
    default: return old;
    }
}

/* atom.{cas,exch}.b128 (PTX ISA 8.3, sm_90): the 16-byte cell, b, c and d
 * each as two 64-bit columns (data_cols); one lane at a time, like the
 * narrower forms. */
/* The destination is the sink `_` (atom.global.add.u64 _, [a], b): the
 * old value goes nowhere. */
static inline bool sink(const isa_inst *in) { return in->opd[0].kind == ISA_OPD_NONE; }

static ptx_status atomic128(isa_warp *w, const isa_inst *in, uint32_t mask, bool returns)
{
    unsigned ai = returns ? 1 : 0;
    const uint64_t *addr = address(w, in, ai);
    uint16_t b[2], c[2] = { ISA_NOREG, ISA_NOREG }, d[2] = { ISA_NOREG, ISA_NOREG };
    bool cas = in->aop == ISA_AOP_CAS;
    if ((in->aop != ISA_AOP_EXCH && !cas) || !data_cols(w, &in->opd[ai + 1], 1, 2, b) ||
        (cas && !data_cols(w, &in->opd[ai + 2], 1, 2, c)) || (returns && !sink(in) && !data_cols(w, &in->opd[0], 1, 2, d)))
        return PTX_E_UNSUPPORTED;
    uint8_t actual = in->space;
#define COL(reg, l) ((reg) == ISA_NOREG ? 0 : w->r[(size_t)(reg) * ISA_WARP_SIZE + (l)])
    LANES(mask, {
        uint8_t *p = locate(w, in->space, addr[l], 16, l, &actual);
        if (!p)
            return fault_status(w, w->fault.addr, 16);
        uint32_t *lock = w->mem->concurrent && actual == ISA_SPACE_GLOBAL && w->mem->rmw_locks
                       ? &w->mem->rmw_locks[(addr[l] >> 4) % ISA_RMW_LOCKS] : NULL;
        while (lock && __atomic_exchange_n(lock, 1u, __ATOMIC_ACQUIRE))
            ;
        uint64_t old[2] = { load_bytes(p, 8), load_bytes(p + 8, 8) };
        uint64_t bv[2] = { COL(b[0], l), COL(b[1], l) };
        if (!cas || (old[0] == bv[0] && old[1] == bv[1])) {
            store_bytes(p, 8, cas ? COL(c[0], l) : bv[0]);
            store_bytes(p + 8, 8, cas ? COL(c[1], l) : bv[1]);
        }
        if (lock)
            __atomic_store_n(lock, 0u, __ATOMIC_RELEASE);
        for (unsigned h = 0; h < 2; h++)
            if (d[h] != ISA_NOREG)
                w->r[(size_t)d[h] * ISA_WARP_SIZE + l] = old[h];
    });
#undef COL
    if (w->access)
        record(w, in, addr, mask, 16, actual, true, true);
    return PTX_OK;
}

/* The vector forms, atom/red.global.{add,min,max}.v2/.v4/.v8 (PTX ISA 8.1,
 * sm_90; .f32 add, the half types with .noftz): each element is an atomic
 * operation of its own on its element of the cell (the ISA promises no
 * atomicity across elements), d's element k the value before it. */
static ptx_status atomic_vec(isa_warp *w, const isa_inst *in, uint32_t mask, bool returns)
{
    unsigned n = type_bytes(in->type), nv = in->vec, total = n * nv, ai = returns ? 1 : 0;
    const uint64_t *addr = address(w, in, ai);
    uint16_t b[ISA_MAX_VEC], d[ISA_MAX_VEC];
    if (n > 4 || in->aop == ISA_AOP_CAS || !data_cols(w, &in->opd[ai + 1], nv, 1, b) ||
        (returns && !sink(in) && !data_cols(w, &in->opd[0], nv, 1, d)))
        return PTX_E_UNSUPPORTED;
    returns = returns && !sink(in);
    uint8_t actual = in->space;
    LANES(mask, {
        uint8_t *p = locate(w, in->space, addr[l], total, l, &actual);
        if (!p)
            return fault_status(w, w->fault.addr, total);
        for (unsigned k = 0; k < nv; k++) {
            uint64_t bv = b[k] == ISA_NOREG ? 0 : w->r[(size_t)b[k] * ISA_WARP_SIZE + l];
            uint64_t old = isa_atomic_rmw(w, in, p + k * n, n, actual == ISA_SPACE_GLOBAL, bv, 0);
            if (returns && d[k] != ISA_NOREG)
                w->r[(size_t)d[k] * ISA_WARP_SIZE + l] = old;
        }
    });
    if (w->access)
        record(w, in, addr, mask, total, actual, true, true);
    return PTX_OK;
}

uint64_t isa_atomic_rmw(const isa_warp *w, const isa_inst *in, uint8_t *p, unsigned n, bool global,
                        uint64_t b, uint64_t c)
{
    if (!global || !w->mem->concurrent) {
        uint64_t old = load_bytes(p, n);
        store_bytes(p, n, isa_atomic_apply(in, global, old, b, c));
        return old;
    }
    int order = host_rmw_order(in->order);
    uint64_t old = host_load(p, n, __ATOMIC_RELAXED);
    while (!host_cas(p, n, &old, isa_atomic_apply(in, true, old, b, c), order))
        ;
    return old;
}

static ptx_status atomic(isa_warp *w, const isa_inst *in, uint32_t mask, bool returns)
{
    unsigned n = type_bytes(in->type);
    if (in->type == ISA_TYPE_TF32)
        return PTX_E_UNSUPPORTED;
    if (n == 16)
        return atomic128(w, in, mask, returns);
    if (in->vec > 1)
        return atomic_vec(w, in, mask, returns);
    unsigned ai = returns ? 1 : 0;
    const uint64_t *addr = address(w, in, ai);
    /* Address columns live in scratch[ai]; operands sit after it. */
    const uint64_t *b = SRC(ai + 1);
    const uint64_t *c = in->aop == ISA_AOP_CAS ? SRC(ai + 2) : NULL;
    uint64_t *d = returns && !sink(in) ? DST(0) : NULL;
    uint8_t actual = in->space;
    LANES(mask, {
        uint8_t *p = locate(w, in->space, addr[l], n, l, &actual);
        if (!p)
            return fault_status(w, w->fault.addr, n);
        uint64_t old = isa_atomic_rmw(w, in, p, n, actual == ISA_SPACE_GLOBAL, b[l], c ? c[l] : 0);
        if (d)
            d[l] = old;
    });
    if (w->access)
        record(w, in, addr, mask, n, actual, true, true);
    return PTX_OK;
}

ptx_status isa_sem_atom(isa_warp *w, const isa_inst *in, uint32_t mask) { return atomic(w, in, mask, true); }
/* Whether an atomic just executed by the lanes in active may have changed
 * memory, judged from its result and operands: a compare-and-swap whose
 * compare failed, an exchange of the value already there, an integer add,
 * or or xor of 0 and an and with all ones change nothing.  The loop watch
 * (exec/hang.c) then sees a spin on a lock or a flag polled with atomicAdd(p, 0)
 * as the constant memory it is.  Anything else, or an atomic without a
 * result register, may have written. */
bool isa_atomic_changed(const isa_warp *w, const isa_inst *in, uint32_t active)
{
    if (in->op != ISA_OP_ATOM || in->opd[0].kind != ISA_OPD_REG || in->vec > 1 || in->nopd < 3)
        return true;
    unsigned bits = isa_type_bits(in->type);
    if (bits == 0 || bits > 64 || isa_types[in->type].kind == ISA_KIND_F)
        return true;
    uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    const isa_opd *bo = &in->opd[2], *co = in->nopd > 3 ? &in->opd[3] : NULL;
    if ((bo->kind != ISA_OPD_REG && bo->kind != ISA_OPD_IMM) ||
        (in->aop == ISA_AOP_CAS && (!co || (co->kind != ISA_OPD_REG && co->kind != ISA_OPD_IMM))))
        return true;
    const uint64_t *r = w->r;
    for (uint32_t rest = active; rest; rest &= rest - 1) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        uint64_t old = r[(size_t)in->opd[0].reg * ISA_WARP_SIZE + l] & m;
        uint64_t b = (bo->kind == ISA_OPD_IMM ? bo->imm : r[(size_t)bo->reg * ISA_WARP_SIZE + l]) & m;
        switch (in->aop) {
        case ISA_AOP_CAS: {
            uint64_t c = (co->kind == ISA_OPD_IMM ? co->imm : r[(size_t)co->reg * ISA_WARP_SIZE + l]) & m;
            if (old == b && c != old)
                return true;
            break;
        }
        case ISA_AOP_EXCH:
            if (b != old)
                return true;
            break;
        case ISA_AOP_ADD: case ISA_AOP_OR: case ISA_AOP_XOR:
            if (b)
                return true;
            break;
        case ISA_AOP_AND:
            if ((old & b) != old)
                return true;
            break;
        default:
            return true;
        }
    }
    return false;
}

bool isa_atomic_note(isa_warp *w, const isa_inst *in, uint32_t active)
{
    if (isa_atomic_changed(w, in, active)) {
        w->atomic_spins = 0;
        return true;
    }
    w->atomic_spins++;
    return false;
}

/* red, and red.async's reduction before its complete-tx (sem_async.c). */
ptx_status isa_sem_red(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    ptx_status st = atomic(w, in, mask, false);
    if (st == PTX_OK && in->mode == ISA_MODE_ASYNC_MBAR)
        st = isa_async_complete(w, in, mask, type_bytes(in->type));
    return st;
}

/* On one host thread, warps run one at a time in a fixed order, so every
 * access is already globally ordered: fences have nothing to do here (the
 * timing model gives them their cost) but tell the race check, which
 * judges the program by the memory model rather than by that order.  With
 * CTAs on several host threads (isa_mem.concurrent) a fence is a host
 * fence: fence.acq_rel an acquire-release one, membar and fence.sc
 * sequentially consistent ones (membar is fence.sc, PTX ISA 9.7.13.4). */
static void host_fence(const isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (w->mem->concurrent && mask)
        __atomic_thread_fence(in->order == ISA_ORDER_ACQ_REL ? __ATOMIC_ACQ_REL : __ATOMIC_SEQ_CST);
}

ptx_status isa_sem_membar(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    host_fence(w, in, mask);
    if (w->mem->fence && mask)
        w->mem->fence(w, in, mask);
    return PTX_OK;
}

ptx_status isa_sem_fence(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    host_fence(w, in, mask);
    if (w->mem->fence && mask)
        w->mem->fence(w, in, mask);
    return PTX_OK;
}

/* cp.async.{ca,cg}.shared.global{.L2::cache_hint} [d], [a], cp-size
 * {, src-size | , ignore-src}{, cache-policy}: copy cp-size bytes from
 * global to shared memory, the bytes past src-size zero, all of them where
 * the predicate ignore-src is true (the cache policy is a hint).  ptxsim completes the copy at once, which the ISA allows (a copy
 * may complete any time before the wait that covers it), so
 * cp.async.commit_group, .wait_group and .wait_all have nothing to do. */
ptx_status isa_sem_cp(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (in->mode == ISA_MODE_ASYNC_MBARRIER_ARRIVE || in->mode == ISA_MODE_ASYNC_MBARRIER_ARRIVE_NOINC)
        return isa_cp_mbarrier_arrive(w, in, mask);
    if (in->mode != ISA_MODE_ASYNC && in->mode != ISA_MODE_COMMIT_GROUP && in->mode != ISA_MODE_WAIT_GROUP &&
        in->mode != ISA_MODE_WAIT_ALL)
        return isa_cp_is_tensor(in) ? isa_cp_tensor(w, in, mask)    /* cp.async.bulk.tensor */
                                    : isa_cp_bulk(w, in, mask);     /* cp.async.bulk, cp.reduce.async.bulk */
    if (in->mode == ISA_MODE_COMMIT_GROUP || in->mode == ISA_MODE_WAIT_GROUP || in->mode == ISA_MODE_WAIT_ALL)
        return PTX_OK;
    const isa_opd *d = &in->opd[0], *a = &in->opd[1];
    if (in->mode != ISA_MODE_ASYNC || in->nopd < 3 || d->kind != ISA_OPD_ADDR || a->kind != ISA_OPD_ADDR ||
        in->opd[2].kind != ISA_OPD_IMM)
        return PTX_E_UNSUPPORTED;
    unsigned n = (unsigned)in->opd[2].imm;
    if (n != 4 && n != 8 && n != 16)
        return PTX_E_UNSUPPORTED;
    /* The operand after cp-size, unless it is the cache policy. */
    bool extra = in->nopd > 4 || (in->nopd == 4 && !(in->layout & ISA_CP_CACHE_HINT));
    const isa_opd *limit = extra ? &in->opd[3] : NULL;
    const uint64_t *src_size = limit && limit->kind != ISA_OPD_PRED ? SRC(3) : NULL;
    uint32_t ignored = 0;                       /* lanes whose ignore-src is true */
    if (limit && limit->kind == ISA_OPD_PRED)
        ignored = isa_pred(w, limit);
    ptx_status st = PTX_OK;
    uint64_t read[ISA_WARP_SIZE];               /* the global side, for the timing model */
    uint32_t reading = 0;
    LANES(mask, {
        uint64_t dst = (uint32_t)((d->reg != ISA_NOREG ? w->r[(size_t)d->reg * ISA_WARP_SIZE + l] : 0) +
                                  (uint64_t)d->off);
        uint64_t src = (a->reg != ISA_NOREG ? w->r[(size_t)a->reg * ISA_WARP_SIZE + l] : 0) + (uint64_t)a->off;
        unsigned keep = ignored >> l & 1 ? 0 : src_size && src_size[l] < n ? (unsigned)src_size[l] : n;
        uint8_t space;
        uint8_t *to = locate(w, ISA_SPACE_SHARED, dst, n, l, &space);
        const uint8_t *from = keep ? locate(w, ISA_SPACE_GLOBAL, src, n, l, &space) : NULL;
        if (!to || (keep && !from)) {
            st = fault_status(w, w->fault.addr, n);
            break;
        }
        uint8_t buf[16] = {0};
        if (keep)
            memcpy(buf, from, keep);
        memcpy(to, buf, n);
        read[l] = src;
        reading |= keep ? 1u << l : 0;
    });
    if (w->access && st == PTX_OK)
        record(w, in, read, reading, n, ISA_SPACE_GLOBAL, false, false);
    return st;
}

/*
 * sem_mbarrier.c -- mbarrier objects: mbarrier.init .inval .arrive
 * .arrive_drop .expect_tx .complete_tx .test_wait .try_wait .pending_count,
 * and cp.async.mbarrier.arrive (PTX ISA 9.7.13.15).
 *
 * An mbarrier is a 64-bit object in shared memory that counts arrivals and
 * asynchronous transfer bytes (the tx-count) per phase.  A phase completes
 * when its pending arrivals and its tx-count are both zero; the object then
 * moves to the next phase with the pending count reloaded from the expected
 * count.  ptxsim encodes the word as follows (the hardware's encoding is
 * opaque; a program only reads it through these instructions):
 *
 *   bits  0..19  pending arrivals of the current phase   (0 .. 2^20-1)
 *   bits 20..39  expected arrivals of each phase         (0 .. 2^20-1)
 *   bits 40..60  tx-count, 21-bit two's complement       (-(2^20-1) .. 2^20-1)
 *   bit  61      invalidated: set by mbarrier.inval, which clears the rest
 *                but the phase bit
 *   bit  62      valid: set by mbarrier.init, cleared by mbarrier.inval
 *   bit  63      parity of the current phase
 *
 * Shared memory starts zeroed, so a barrier used before mbarrier.init (or
 * after mbarrier.inval) is caught by its clear valid bit.  One use after
 * mbarrier.inval is let pass: a wait for a phase that had completed before
 * the barrier was invalidated succeeds.  The ISA leaves any operation on an
 * invalidated barrier undefined, but programs invalidate a barrier as soon
 * as their own wait returns while other threads still poll a phase that is
 * complete (NVIDIA's globalToShmemTMACopy sample), and GPUs run them.
 *
 * The state an arrive returns is the word as the arrive left it before the
 * phase completed: its phase bit names the phase arrived on (test_wait and
 * try_wait with that state succeed once the barrier's phase bit differs)
 * and its low bits hold the pending arrivals after the arrive
 * (mbarrier.pending_count).  The .parity forms compare the phase bit with
 * the parity operand the same way.  As on the hardware, one bit of phase
 * cannot tell phase n from phase n+2.
 *
 * ptxsim completes asynchronous copies at once (cp.async, cp.async.bulk),
 * so their arrive-on and complete-tx operations happen when the copy is
 * issued.  That order is one the ISA allows: a producer may issue a bulk
 * copy before the mbarrier.expect_tx that covers it, which is why the
 * tx-count is signed.
 *
 * A test_wait or try_wait that finds its phase incomplete sets its
 * predicate false and returns PTX_CTL_YIELD, with w->fault naming the
 * barrier: exec/ then lets the warp's turn end, so the warps it waits for
 * run, and counts the waits that fail with no mbarrier changed in between
 * (isa_mem.mbar_ops) to find a barrier nobody can complete.
 *
 * Misuse -- a barrier not initialised, a count outside 1..2^20-1, more
 * arrivals than are pending, a tx-count leaving its range, an arrive
 * .noComplete that would complete the phase -- ends the launch with
 * PTX_E_MBARRIER, w->fault.addr the barrier's shared-memory offset and
 * w->fault.bytes the count the instruction gave.  A barrier outside shared
 * memory is PTX_E_ILLEGAL_ADDRESS, one not 8-byte aligned PTX_E_MISALIGNED.
 */
#include "isa_int.h"

#define MBAR_COUNT_BITS 20
#define MBAR_MAX_COUNT ((1u << MBAR_COUNT_BITS) - 1)
#define MBAR_EXPECTED_SHIFT 20
#define MBAR_TX_SHIFT 40
#define MBAR_TX_BITS 21
#define MBAR_INVALIDATED (1ull << 61)
#define MBAR_VALID (1ull << 62)
#define MBAR_PHASE (1ull << 63)

typedef isa_mbar_fields mbar;

isa_mbar_fields isa_mbar_decode(uint64_t word)
{
    mbar b;
    b.valid = (word & MBAR_VALID) != 0;
    b.phase = (uint8_t)(word >> 63);
    b.pending = (uint32_t)word & MBAR_MAX_COUNT;
    b.expected = (uint32_t)(word >> MBAR_EXPECTED_SHIFT) & MBAR_MAX_COUNT;
    uint32_t tx = (uint32_t)(word >> MBAR_TX_SHIFT) & ((1u << MBAR_TX_BITS) - 1);
    b.tx = (int32_t)(tx << (32 - MBAR_TX_BITS)) >> (32 - MBAR_TX_BITS);
    return b;
}

static uint64_t encode(const mbar *b)
{
    return (b->valid ? MBAR_VALID : 0) | (b->phase ? MBAR_PHASE : 0) | (b->pending & MBAR_MAX_COUNT) |
           (uint64_t)(b->expected & MBAR_MAX_COUNT) << MBAR_EXPECTED_SHIFT |
           (uint64_t)((uint32_t)b->tx & ((1u << MBAR_TX_BITS) - 1)) << MBAR_TX_SHIFT;
}

/* The word of the mbarrier at `addr` in `space` (shared, or a generic
 * address in the shared window; a .shared::cluster address, or a generic
 * one mapa made, may be in another CTA of the cluster), for lane l; NULL
 * with the fault filled and *st set when it is not a shared, 8-byte
 * aligned word. */
static uint8_t *locate(isa_warp *w, uint8_t space, uint64_t addr, unsigned l, ptx_status *st)
{
    const isa_mem *m = w->mem;
    bool shared = true;
    if (space == ISA_SPACE_GENERIC) {
        shared = addr - m->shared_win < ISA_WINDOW_BYTES;
        if (shared)
            addr -= m->shared_win;
    } else if (space == ISA_SPACE_SHARED) {
        addr = (uint32_t)addr;
    } else {
        shared = false;
    }
    uint8_t *p = shared ? isa_shared_at(m, addr, 8) : NULL;
    bool ok = p != NULL;
    w->fault.addr = addr;
    w->fault.lane = l;
    w->fault.bytes = 8;
    w->fault.space = shared ? ISA_SPACE_SHARED : space == ISA_SPACE_GENERIC ? ISA_SPACE_GLOBAL : space;
    if (!ok) {
        *st = PTX_E_ILLEGAL_ADDRESS;
        return NULL;
    }
    if (addr & 7) {
        *st = PTX_E_MISALIGNED;
        return NULL;
    }
    return p;
}


static ptx_status misuse(isa_warp *w, uint64_t count)
{
    w->fault.bytes = (uint32_t)count;
    return PTX_E_MBARRIER;
}

static uint64_t load_word(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void store_bits(isa_warp *w, uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
    if (w->mem->mbar_ops)
        (*w->mem->mbar_ops)++;
}

static void store_word(isa_warp *w, uint8_t *p, const mbar *b) { store_bits(w, p, encode(b)); }

/* Complete the phase when nothing is pending. */
static void maybe_complete(mbar *b)
{
    if (b->pending == 0 && b->tx == 0) {
        b->phase ^= 1;
        b->pending = b->expected;
    }
}

/* tx-count += delta, within its range. */
static bool add_tx(mbar *b, int64_t delta)
{
    int64_t tx = (int64_t)b->tx + delta;
    if (tx > (int64_t)MBAR_MAX_COUNT || tx < -(int64_t)MBAR_MAX_COUNT)
        return false;
    b->tx = (int32_t)tx;
    return true;
}

/* One lane's arrive-on of `count` arrivals (dropping `drop` of the expected
 * ones first), after an expect-tx of `tx` bytes; *out_state is the state. */
static ptx_status arrive(isa_warp *w, uint8_t *p, uint32_t count, uint32_t drop, int64_t tx,
                         bool no_complete, uint64_t *out_state)
{
    mbar b = isa_mbar_decode(load_word(p));
    if (!b.valid || count == 0 || count > MBAR_MAX_COUNT || drop > b.expected || !add_tx(&b, tx))
        return misuse(w, count);
    b.expected -= drop;
    if (count > b.pending)
        return misuse(w, count);
    b.pending -= count;
    if (out_state)
        *out_state = encode(&b);
    uint8_t before = b.phase;
    maybe_complete(&b);
    if (no_complete && b.phase != before)
        return misuse(w, count);
    store_word(w, p, &b);
    return PTX_OK;
}

ptx_status isa_mbar_complete_tx(isa_warp *w, uint8_t space, uint64_t addr, uint32_t bytes, unsigned l)
{
    ptx_status st = PTX_OK;
    uint8_t *p = locate(w, space, addr, l, &st);
    if (!p)
        return st;
    mbar b = isa_mbar_decode(load_word(p));
    if (!b.valid || bytes > MBAR_MAX_COUNT || !add_tx(&b, -(int64_t)bytes))
        return misuse(w, bytes);
    maybe_complete(&b);
    store_word(w, p, &b);
    return PTX_OK;
}

/* A count operand's value for lane l (1 when the instruction has none). */
static uint64_t count_of(isa_warp *w, const isa_inst *in, unsigned i, unsigned l)
{
    if (i >= in->nopd)
        return 1;
    const uint64_t *c = isa_src(w, in, i);
    return (uint32_t)c[l];
}

/* mbarrier.test_wait / try_wait{.parity} p, [a], state|parity {, hint} */
static ptx_status wait(isa_warp *w, const isa_inst *in, uint32_t mask, bool parity)
{
    const isa_opd *d = &in->opd[0], *a = &in->opd[1];
    if (in->nopd < 3 || d->kind != ISA_OPD_PRED)
        return PTX_E_UNSUPPORTED;
    const uint64_t *want = isa_src(w, in, 2);
    uint32_t done = 0, failed = 0;
    isa_fault first = {0};
    ptx_status st = PTX_OK;
    LANES(mask, {
        uint8_t *p = locate(w, in->space, isa_lane_address(w, a, l), l, &st);
        if (!p)
            return st;
        uint64_t word = load_word(p);
        mbar b = isa_mbar_decode(word);
        unsigned phase = parity ? (unsigned)(want[l] & 1) : (unsigned)(want[l] >> 63);
        if (!b.valid && !((word & MBAR_INVALIDATED) && b.phase != phase))
            return misuse(w, 0);
        if (b.phase != phase) {
            done |= 1u << l;
        } else if (!failed++) {
            first = w->fault;
        }
    });
    isa_set_pred(w, d->reg, mask, done);
    if (!failed)
        return PTX_OK;
    w->fault = first;
    return PTX_CTL_YIELD;
}

ptx_status isa_sem_mbarrier(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    uint8_t mode = in->mode;
    switch (mode) {
    case ISA_MODE_TEST_WAIT: case ISA_MODE_TRY_WAIT:
        return wait(w, in, mask, false);
    case ISA_MODE_TEST_WAIT_PARITY: case ISA_MODE_TRY_WAIT_PARITY:
        return wait(w, in, mask, true);
    case ISA_MODE_PENDING_COUNT: {          /* pending_count.b64 d, state */
        if (in->nopd < 2 || in->opd[0].kind != ISA_OPD_REG)
            return PTX_E_UNSUPPORTED;
        const uint64_t *s = isa_src(w, in, 1);
        uint64_t *d = DST(0);
        LANES(mask, d[l] = (uint32_t)s[l] & MBAR_MAX_COUNT);
        return PTX_OK;
    }
    default:
        break;
    }
    /* The rest act on [a]: operand 0 for init, inval, expect_tx and
     * complete_tx, operand 1 (after the state) for the arrives. */
    bool arrives = mode == ISA_MODE_ARRIVE || mode == ISA_MODE_ARRIVE_DROP || mode == ISA_MODE_ARRIVE_EXPECT_TX ||
                   mode == ISA_MODE_ARRIVE_DROP_EXPECT_TX || mode == ISA_MODE_ARRIVE_NOCOMPLETE ||
                   mode == ISA_MODE_ARRIVE_DROP_NOCOMPLETE;
    if (!arrives && mode != ISA_MODE_INIT && mode != ISA_MODE_INVAL && mode != ISA_MODE_EXPECT_TX &&
        mode != ISA_MODE_COMPLETE_TX)
        return PTX_E_UNSUPPORTED;
    unsigned ai = arrives ? 1 : 0;
    if (in->nopd <= ai || in->opd[ai].kind != ISA_OPD_ADDR)
        return PTX_E_UNSUPPORTED;
    bool drop = mode == ISA_MODE_ARRIVE_DROP || mode == ISA_MODE_ARRIVE_DROP_EXPECT_TX ||
                mode == ISA_MODE_ARRIVE_DROP_NOCOMPLETE;
    bool expect = mode == ISA_MODE_ARRIVE_EXPECT_TX || mode == ISA_MODE_ARRIVE_DROP_EXPECT_TX;
    bool no_complete = mode == ISA_MODE_ARRIVE_NOCOMPLETE || mode == ISA_MODE_ARRIVE_DROP_NOCOMPLETE;
    uint64_t *state = arrives && in->opd[0].kind == ISA_OPD_REG ? DST(0) : NULL;
    ptx_status st = PTX_OK;
    /* Lanes act in lane order, as the engine's other shared-memory
     * read-modify-writes do, so the outcome is deterministic. */
    LANES(mask, {
        uint8_t *p = locate(w, in->space, isa_lane_address(w, &in->opd[ai], l), l, &st);
        if (!p)
            return st;
        switch (mode) {
        case ISA_MODE_INIT: {               /* init [a], count */
            uint64_t n = count_of(w, in, 1, l);
            if (n == 0 || n > MBAR_MAX_COUNT)
                return misuse(w, n);
            mbar b = { .valid = true, .phase = 0, .pending = (uint32_t)n, .expected = (uint32_t)n, .tx = 0 };
            store_word(w, p, &b);
            break;
        }
        case ISA_MODE_INVAL: {
            store_bits(w, p, MBAR_INVALIDATED | (load_word(p) & MBAR_PHASE));
            break;
        }
        case ISA_MODE_EXPECT_TX: case ISA_MODE_COMPLETE_TX: {   /* [a], txCount */
            uint64_t n = count_of(w, in, 1, l);
            mbar b = isa_mbar_decode(load_word(p));
            if (!b.valid || n > MBAR_MAX_COUNT || !add_tx(&b, mode == ISA_MODE_EXPECT_TX ? (int64_t)n : -(int64_t)n))
                return misuse(w, n);
            maybe_complete(&b);
            store_word(w, p, &b);
            break;
        }
        default: {                          /* arrive*: state|_, [a] {, count | txCount} */
            uint64_t n = count_of(w, in, 2, l), s = 0;
            if (expect && n > MBAR_MAX_COUNT)
                return misuse(w, n);
            st = expect ? arrive(w, p, 1, drop, (int64_t)n, no_complete, &s)
                        : arrive(w, p, (uint32_t)(n > MBAR_MAX_COUNT ? 0 : n), drop ? (uint32_t)n : 0, 0,
                                 no_complete, &s);
            if (st != PTX_OK)
                return st;
            if (state)
                state[l] = s;
            break;
        }
        }
    });
    return PTX_OK;
}

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a]: an arrive-on
 * triggered when the thread's earlier cp.async copies complete.  Without
 * .noinc the pending count is first raised by one, so the arrive-on leaves
 * it where it was (the thread arrives on its own as well); with .noinc the
 * arrive-on counts as one of the phase's arrivals.  ptxsim's copies are
 * already complete, so the first is a check of the barrier and the second
 * an arrive. */
ptx_status isa_cp_mbarrier_arrive(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (in->nopd < 1 || in->opd[0].kind != ISA_OPD_ADDR)
        return PTX_E_UNSUPPORTED;
    bool noinc = in->mode == ISA_MODE_ASYNC_MBARRIER_ARRIVE_NOINC;
    ptx_status st = PTX_OK;
    LANES(mask, {
        uint8_t *p = locate(w, in->space, isa_lane_address(w, &in->opd[0], l), l, &st);
        if (!p)
            return st;
        if (noinc) {
            if ((st = arrive(w, p, 1, 0, 0, false, NULL)) != PTX_OK)
                return st;
        } else if (!isa_mbar_decode(load_word(p)).valid) {
            return misuse(w, 1);
        }
    });
    return PTX_OK;
}

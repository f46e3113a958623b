/*
 * stores.c -- a window's global stores, logged and put in memory in order.
 *
 * In a window (step.c) the SMs run their cycles side by side, each reading
 * global memory that nobody writes meanwhile.  An SM's stores (st to
 * global addresses) would stop it until the ordered part, where they take
 * effect in SM order; instead the engine logs them (isa_store_log, one log
 * an SM, each store tagged with its cycle in the window) and the SM runs
 * on.  The logs go to memory in the order a cycle at a time gives stores
 * -- by cycle, then by SM, each SM's in its order -- as the ordered part
 * reaches each cycle (its SMs then read what every SM stored before it)
 * and when the window ends.  An SM about to read what it logged itself and
 * has not yet put in memory stops instead (tm_log_read), and its log up to
 * there goes to memory before the ordered part runs that instruction; so
 * does an SM about to run an atomic, printf or any other instruction that
 * stops it.  So every CTA sees its own stores, and other SMs see them from
 * the next window on, as they would a store that stopped its SM.
 */
#include "sm.h"

#include <string.h>

/* Put entry e in memory: device memory is host memory at its address. */
static void put(const isa_store *e)
{
    memcpy((void *)(uintptr_t)e->addr, &e->bits, e->bytes);   /* little-endian host: the low bytes */
}

void tm_logs_apply(tm_gpu *g, uint32_t tag)
{
    /* The SMs with stores before tag not yet in memory, in id order: those
     * of the chunks whose SMs logged any (all of them of the window's
     * active chunks: only their SMs run). */
    tm_sm *pending[g->c.n_sm];
    uint32_t n = 0, first = UINT32_MAX;
    for (uint32_t a = 0; a < g->nactive; a++) {
        const tm_chunk *ch = &g->chunks[g->active[a]];
        for (uint32_t i = ch->first; ch->logged && i < ch->end; i++) {
            tm_sm *sm = &g->sms[i];
            if (sm->applied < sm->log.n && sm->log.v[sm->applied].tag < tag) {
                pending[n++] = sm;
                if (sm->log.v[sm->applied].tag < first)
                    first = sm->log.v[sm->applied].tag;
            }
        }
    }
    for (uint32_t t = first; n && t < tag;) {
        uint32_t next = UINT32_MAX;
        for (uint32_t k = 0; k < n; k++) {
            tm_sm *sm = pending[k];
            while (sm->applied < sm->log.n && sm->log.v[sm->applied].tag == t)
                put(&sm->log.v[sm->applied++]);
            if (sm->applied < sm->log.n && sm->log.v[sm->applied].tag < next)
                next = sm->log.v[sm->applied].tag;
        }
        t = next;
    }
}

void tm_log_apply_own(tm_sm *sm)
{
    while (sm->applied < sm->log.n)
        put(&sm->log.v[sm->applied++]);
}

bool tm_logs_flush(tm_gpu *g)
{
    tm_logs_apply(g, UINT32_MAX);
    bool ok = true;
    for (uint32_t a = 0; a < g->nactive; a++) {
        tm_chunk *ch = &g->chunks[g->active[a]];
        for (uint32_t i = ch->first; ch->logged && i < ch->end; i++) {
            isa_store_log *log = &g->sms[i].log;
            ok = ok && !log->failed;
            log->n = 0;
            log->failed = false;
            log->lo = UINT64_MAX;
            log->hi = 0;
            g->sms[i].applied = 0;
        }
        ch->logged = false;
    }
    return ok;
}

bool tm_log_read(const tm_sm *sm, const tm_warp *w)
{
    const isa_store_log *log = &sm->log;
    if (sm->applied == log->n)
        return false;
    const isa_inst *in = w->regs.inst;
    if (!(isa_ops[in->op].flags & ISA_F_LOAD) || in->space == ISA_SPACE_SHARED || in->space == ISA_SPACE_LOCAL)
        return false;
    /* A plain load's addresses are known before it runs; any other reader
     * of global memory (an async copy, a texture, a matrix load) stops. */
    isa_access a;
    if ((in->op != ISA_OP_LD && in->op != ISA_OP_LDU) || !exec_warp_peek_access(w->xw, &a))
        return true;
    for (uint32_t rest = a.lanes; rest; rest &= rest - 1) {
        uint64_t lo = a.addr[__builtin_ctz(rest)], hi = lo + a.bytes;
        if (hi <= log->lo || lo >= log->hi)
            continue;
        for (uint32_t k = sm->applied; k < log->n; k++)
            if (lo < log->v[k].addr + log->v[k].bytes && log->v[k].addr < hi)
                return true;
    }
    return false;
}

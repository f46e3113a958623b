/*
 * hazard.c -- MSHR-hazard prediction (Turner 2012, chapter 6): a predictor
 * says whether a load will miss in the L1 (and so need an MSHR), a tracker
 * whether an MSHR will be there for it; a load predicted to miss issues
 * only when the tracker allows, so it is not squashed for want of one.
 *
 * Predictors: "false" predicts a hit unless the load is known to miss (it
 * was squashed for MSHR, COMQ or RSV); "true" always predicts a miss;
 * "satctr" keeps a saturating counter per load PC, shared by every SM and
 * trained by each load's first access; "oracle" looks the line up in the
 * L1 at issue.  Trackers: "naive" allows a predicted miss when an MSHR is
 * free now; "credit" hands out one credit per MSHR at issue: a load that
 * hits returns it at the memory stage, one that allocates an MSHR binds it
 * until the MSHR is freed, one refused returns it; an uncredited load that
 * takes an MSHR anyway takes a virtual credit, and the pool may go
 * negative.  Only global and local loads are considered; stores need no
 * MSHR.
 */
#include "sm.h"

/* A plain load (ld, ldu): atomics, texture and matrix loads are not predicted. */
static bool is_load(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    return isa_op_lane_access(in->op) && (fl & ISA_F_LOAD) && !(fl & ISA_F_ATOMIC);
}

static uint8_t *counter(tm_gpu *g, uint32_t pc)
{
    return &g->satctr[pc % (sizeof g->satctr / sizeof g->satctr[0])];
}

/* Does the oracle see the line missing from the L1 now? */
static bool oracle_miss(tm_sm *sm, uint64_t line, uint32_t sectors)
{
    tm_line *l;
    uint64_t stamp = sm->l1.stamp;
    tm_probe pr = tm_cache_probe(&sm->l1, line << sm->l1.line_shift, sectors, &l);
    if (pr == PROBE_HIT) {
        l->last_use = stamp;            /* a look, not a use: leave LRU as it was */
        sm->l1.stamp = stamp;
    }
    return pr != PROBE_HIT;
}

static bool predict(tm_gpu *g, tm_sm *sm, uint32_t pc, bool known_miss, uint64_t line, uint32_t sectors)
{
    switch (g->c.hp_predictor) {
    case TM_HP_FALSE: return known_miss;
    case TM_HP_TRUE: return true;
    case TM_HP_SATCTR: return known_miss || *counter(g, pc) >= g->c.hp_satctr_threshold;
    case TM_HP_ORACLE: return known_miss || oracle_miss(sm, line, sectors);
    default: return false;
    }
}

static bool tracker_allows(const tm_gpu *g, const tm_sm *sm)
{
    if (g->c.hp_tracker == TM_TRACK_CREDIT)
        return sm->credits > 0;
    return sm->l1.mshr_used < sm->l1.nmshr;
}

bool tm_hp_allow(tm_gpu *g, tm_sm *sm, tm_minst *m)
{
    if (g->c.hp_predictor == TM_HP_NONE || !m->global || m->ro || !is_load(m->rec.inst))
        return true;
    uint32_t t = m->next_txn;
    return !predict(g, sm, m->rec.pc, m->known_miss, m->txn_addr[t], m->txn_sectors[t]) || tracker_allows(g, sm);
}

bool tm_hp_allow_first(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    if (g->c.hp_predictor == TM_HP_NONE)
        return true;
    const isa_inst *in = w->regs.inst;
    if (!is_load(in))
        return true;
    uint64_t line = 0;
    uint32_t sectors = 1;
    if (g->c.hp_predictor == TM_HP_ORACLE) {
        isa_access a;
        if (!exec_warp_peek_access(w->xw, &a) || !a.lanes ||
            (a.space != ISA_SPACE_GLOBAL && a.space != ISA_SPACE_LOCAL))
            return true;
        unsigned l = (unsigned)__builtin_ctz(a.lanes);
        line = a.addr[l] >> sm->l1.line_shift;
        sectors = tm_sector_mask(&sm->l1, a.addr[l], a.bytes);
    } else if (in->space != ISA_SPACE_GLOBAL && in->space != ISA_SPACE_LOCAL &&
               in->space != ISA_SPACE_GENERIC) {
        return true;
    }
    return !predict(g, sm, w->regs_pc, false, line, sectors) || tracker_allows(g, sm);
}

void tm_hp_take(tm_gpu *g, tm_sm *sm, tm_minst *m)
{
    if (g->c.hp_predictor == TM_HP_NONE || !m->global || m->ro || !is_load(m->rec.inst) || m->credited)
        return;
    uint32_t t = m->next_txn;
    bool miss = predict(g, sm, m->rec.pc, m->known_miss, m->txn_addr[t], m->txn_sectors[t]);
    if (!m->classified)
        m->predicted_miss = miss;
    if (miss && g->c.hp_tracker == TM_TRACK_CREDIT && sm->credits > 0) {
        sm->credits--;
        m->credited = true;
        g->st->credits_taken++;
        if (sm->credits < g->st->credits_min)
            g->st->credits_min = sm->credits;
    }
}

void tm_hp_observe(tm_gpu *g, tm_sm *sm, tm_minst *m, const tm_acc *acc)
{
    if (g->c.hp_predictor == TM_HP_NONE || !is_load(m->rec.inst))
        return;
    bool missed = acc->result != ACC_HIT;
    if (!m->classified) {
        m->classified = true;
        g->st->predicted[m->predicted_miss][missed]++;
        uint8_t *ctr = counter(g, m->rec.pc), top = (uint8_t)((1u << g->c.hp_satctr_bits) - 1);
        if (missed && *ctr < top)
            (*ctr)++;
        else if (!missed && *ctr > 0)
            (*ctr)--;
    }
    if (g->c.hp_tracker != TM_TRACK_CREDIT)
        return;
    if (m->credited) {
        if (acc->result == ACC_MISS && acc->mshr) {
            acc->mshr->credited = true;     /* returned when the MSHR is freed */
        } else {
            sm->credits++;                  /* a hit, a merge, or refused */
            g->st->credits_returned_hit++;
        }
        m->credited = false;
    } else if (acc->result == ACC_MISS && acc->mshr) {
        /* Took an MSHR without a credit: a virtual one. */
        sm->credits--;
        acc->mshr->credited = true;
        g->st->credits_virtual++;
        if (sm->credits < g->st->credits_min)
            g->st->credits_min = sm->credits;
    }
}

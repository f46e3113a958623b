/*
 * hazard.c -- MSHR-hazard prediction (Turner 2012, chapter 6): a predictor
 * says whether a load will miss in the L1 (and so need an MSHR), a tracker
 * whether an MSHR will be there for it; a load predicted to miss issues
 * only when the tracker allows, so it is not squashed for want of one.
 *
 * What is known overrides every predictor: a load squashed for MSHR, COMQ
 * or RSV is known to miss, unless its line has been filled since (a memory
 * pickup is there for it: known to hit).  Predictors: "false" predicts a
 * hit unless the load is known to miss; "true" always predicts a miss;
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

#include <stdlib.h>
#include <string.h>

/* Per-PC counters, shared by all SMs. */
typedef struct hazard_gpu {
    uint8_t satctr[4096];
} hazard_gpu;

/* The credit tracker's pool, and which MSHRs of the L1D hold a credit
 * until they are freed. */
typedef struct hazard_sm {
    int64_t credits;
    bool *mshr_credited;        /* l1_mshr of them */
} hazard_sm;

typedef struct hazard_minst {
    bool known_miss;            /* refused for MSHR, COMQ or RSV: it needs an MSHR */
    bool credited;              /* holds a credit of the tracker */
    bool predicted_miss;
    bool classified;            /* its first access trained the predictor */
} hazard_minst;

static hazard_sm *sm_state(const tm_gpu *g, const tm_sm *sm) { return tm_mech_sm(g, sm, TM_MECH_HAZARD); }
static hazard_minst *minst_state(const tm_gpu *g, const tm_minst *m) { return tm_mech_minst(g, m, TM_MECH_HAZARD); }

/* A plain load (ld, ldu): atomics, texture and matrix loads are not predicted. */
static bool is_load(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    return isa_op_lane_access(in->op) && (fl & ISA_F_LOAD) && !(fl & ISA_F_ATOMIC);
}

static uint8_t *counter(tm_gpu *g, uint32_t pc)
{
    hazard_gpu *h = tm_mech_gpu(g, TM_MECH_HAZARD);
    return &h->satctr[pc % (sizeof h->satctr / sizeof h->satctr[0])];
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

/* A load refused for want of an MSHR (or a miss-queue entry, or a line)
 * whose line another miss has filled meanwhile: its data waits in the L1,
 * and the re-issue will hit. */
static bool known_hit(const tm_sm *sm, const hazard_minst *hm, uint64_t line, uint32_t sectors)
{
    return hm->known_miss && tm_cache_present(&sm->l1, line << sm->l1.line_shift, sectors);
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
        return sm_state(g, sm)->credits > 0;
    return sm->l1.mshr_used < sm->l1.nmshr;
}

/* May this squashed memory instruction be re-issued now? */
static bool allow_again(tm_gpu *g, tm_sm *sm, const tm_minst *m)
{
    if (!m->global || m->ro || !is_load(m->rec.inst))
        return true;
    uint32_t t = m->next_txn;
    const hazard_minst *hm = minst_state(g, m);
    return known_hit(sm, hm, m->txn_addr[t], m->txn_sectors[t]) ||
           !predict(g, sm, m->rec.pc, hm->known_miss, m->txn_addr[t], m->txn_sectors[t]) || tracker_allows(g, sm);
}

/* May the warp's next instruction (a memory instruction) issue now? */
static bool allow_first(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    const isa_inst *in = w->regs.inst;
    if (!tm_inst_wants_mshr(in))
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
    }
    return !predict(g, sm, w->regs_pc, false, line, sectors) || tracker_allows(g, sm);
}

/* A load predicted to miss issues only when the tracker allows. */
static int can_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *again, uint64_t *ready_at)
{
    (void)ready_at;
    if (again)
        return allow_again(g, sm, again) ? TM_MECH_PASS : TM_SLOT_RESTRICT;
    if (!(isa_ops[w->regs.inst->op].flags & ISA_F_MEM))
        return TM_MECH_PASS;
    return allow_first(g, sm, w) ? TM_MECH_PASS : TM_SLOT_RESTRICT;
}

/* The instruction issues (again): take a credit if it is predicted to miss. */
static void mem_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m, bool again)
{
    (void)w;
    (void)again;
    hazard_minst *hm = minst_state(g, m);
    if (!m->global || m->ro || !is_load(m->rec.inst) || hm->credited)
        return;
    uint32_t t = m->next_txn;
    bool hit = known_hit(sm, hm, m->txn_addr[t], m->txn_sectors[t]);
    g->st->known_hits += hit;
    bool miss = !hit && predict(g, sm, m->rec.pc, hm->known_miss, m->txn_addr[t], m->txn_sectors[t]);
    if (!hm->classified)
        hm->predicted_miss = miss;
    hazard_sm *hs = sm_state(g, sm);
    if (miss && g->c.hp_tracker == TM_TRACK_CREDIT && hs->credits > 0) {
        hs->credits--;
        hm->credited = true;
        g->st->credits_taken++;
        if (hs->credits < g->st->credits_min)
            g->st->credits_min = hs->credits;
    }
}

/* An access refused for want of an MSHR, a miss-queue entry or a line:
 * the instruction will miss (replay re-issues it knowing that). */
static bool refused(tm_gpu *g, tm_sm *sm, tm_minst *m, uint8_t hazard)
{
    (void)sm;
    if (hazard == TM_HZ_MSHR || hazard == TM_HZ_COMQ || hazard == TM_HZ_RSV)
        minst_state(g, m)->known_miss = true;
    return false;
}

/* Its access reached the L1 with this outcome: train, account credits. */
static void l1_access(tm_gpu *g, tm_sm *sm, tm_minst *m, uint32_t txn, const tm_acc *acc)
{
    (void)txn;
    if (!is_load(m->rec.inst))
        return;
    hazard_minst *hm = minst_state(g, m);
    hazard_sm *hs = sm_state(g, sm);
    bool missed = acc->result != ACC_HIT;
    if (!hm->classified) {
        hm->classified = true;
        g->st->predicted[hm->predicted_miss][missed]++;
        uint8_t *ctr = counter(g, m->rec.pc), top = (uint8_t)((1u << g->c.hp_satctr_bits) - 1);
        if (missed && *ctr < top)
            (*ctr)++;
        else if (!missed && *ctr > 0)
            (*ctr)--;
    }
    if (g->c.hp_tracker != TM_TRACK_CREDIT)
        return;
    if (hm->credited) {
        if (acc->result == ACC_MISS && acc->mshr) {
            hs->mshr_credited[acc->mshr - sm->l1.mshr] = true;     /* returned when the MSHR is freed */
        } else {
            hs->credits++;                  /* a hit, a merge, or refused */
            g->st->credits_returned_hit++;
        }
        hm->credited = false;
    } else if (acc->result == ACC_MISS && acc->mshr) {
        /* Took an MSHR without a credit: a virtual one. */
        hs->credits--;
        hs->mshr_credited[acc->mshr - sm->l1.mshr] = true;
        g->st->credits_virtual++;
        if (hs->credits < g->st->credits_min)
            g->st->credits_min = hs->credits;
    }
}

/* The credit bound to a filled MSHR comes back. */
static void l1_fill(tm_gpu *g, tm_sm *sm, tm_cache *c, tm_mshr *mshr)
{
    hazard_sm *hs = sm_state(g, sm);
    if (c != &sm->l1 || !hs->mshr_credited[mshr - c->mshr])
        return;
    hs->mshr_credited[mshr - c->mshr] = false;
    hs->credits++;
    g->st->credits_returned_fill++;
}

static bool enabled(const tm_config *c) { return c->hp_predictor != TM_HP_NONE; }

static bool init(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++) {
        hazard_sm *hs = sm_state(g, &g->sms[i]);
        if (!(hs->mshr_credited = calloc(g->sms[i].l1.nmshr, sizeof *hs->mshr_credited)))
            return false;
    }
    return true;
}

static void fini(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        free(sm_state(g, &g->sms[i])->mshr_credited);
}

/* Each launch starts afresh: a full pool, untrained counters. */
static void launch(tm_gpu *g)
{
    hazard_gpu *h = tm_mech_gpu(g, TM_MECH_HAZARD);
    memset(h->satctr, 0, sizeof h->satctr);
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        sm_state(g, &g->sms[i])->credits = (int64_t)g->c.l1_mshr;
}

static void stats_reset(const tm_config *c, tm_stats *st)
{
    st->credits_min = (int64_t)c->l1_mshr;
}

const tm_mech tm_mech_hazard = {
    .name = "hazard_prediction",
    .enabled = enabled,
    .gpu_bytes = sizeof(hazard_gpu),
    .sm_bytes = sizeof(hazard_sm),
    .minst_bytes = sizeof(hazard_minst),
    .init = init,
    .fini = fini,
    .launch = launch,
    .stats_reset = stats_reset,
    .can_issue = can_issue,
    .mem_issue = mem_issue,
    .refused = refused,
    .l1_access = l1_access,
    .l1_fill = l1_fill,
};

/*
 * replay.c -- the replay hazard policy (Turner 2012): a memory instruction
 * the memory stage cannot finish is squashed instead of holding the stage,
 * and its warp issues it again later.
 *
 * Each issue of a memory instruction gets one transaction or one pass;
 * whatever is left -- further transactions or passes, or the refused one --
 * is squashed.  The warp keeps every memory instruction it issues in its
 * instruction buffer (w->retained, at most ibuffer_entries; a full buffer
 * holds back the next memory instruction) until the memory stage has been
 * through all of it, and its scheduler re-issues the oldest squashed one
 * before anything else of the warp's.
 */
#include "sm.h"

/* Per memory instruction: squashed, waiting to be issued again. */
typedef struct replay_minst {
    bool squashed;
} replay_minst;

static bool enabled(const tm_config *c) { return c->hazard_policy == TM_HAZ_REPLAY; }

/* The warp's oldest squashed memory instruction, if any. */
static tm_minst *held(tm_gpu *g, tm_warp *w)
{
    for (tm_minst *m = w->retained; m; m = m->next)
        if (((replay_minst *)tm_mech_minst(g, m, TM_MECH_REPLAY))->squashed)
            return m;
    return NULL;
}

/* Retained instructions fill the warp's buffer. */
static int can_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *again, uint64_t *ready_at)
{
    (void)sm;
    (void)ready_at;
    if (!again && (isa_ops[w->regs.inst->op].flags & ISA_F_MEM) && w->nretained >= g->c.ibuffer_entries)
        return TM_SLOT_STALL;
    return TM_MECH_PASS;
}

/* A new memory instruction: the warp keeps it until every part has gone
 * through (lsu.c's finish takes it out).  A squashed one: issued again. */
static void mem_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m, bool again)
{
    (void)sm;
    if (again) {
        ((replay_minst *)tm_mech_minst(g, m, TM_MECH_REPLAY))->squashed = false;
        g->st->replay_issues++;
        return;
    }
    tm_minst **tail = &w->retained;
    while (*tail)
        tail = &(*tail)->next;
    *tail = m;
    m->next = NULL;
    w->nretained++;
}

/* Squash what is left; the warp re-issues it later. */
static bool refused(tm_gpu *g, tm_sm *sm, tm_minst *m, uint8_t hazard)
{
    g->st->replays[hazard]++;
    ((replay_minst *)tm_mech_minst(g, m, TM_MECH_REPLAY))->squashed = true;
    sm->lsu = NULL;
    sm->wake = g->now + g->core_ps;
    return true;
}

const tm_mech tm_mech_replay = {
    .name = "replay",
    .enabled = enabled,
    .minst_bytes = sizeof(replay_minst),
    .always_look = true,
    .held = held,
    .can_issue = can_issue,
    .mem_issue = mem_issue,
    .refused = refused,
};

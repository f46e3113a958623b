/*
 * replay.c -- the replay hazard policy (Turner 2012): a memory instruction
 * the memory stage cannot finish is squashed instead of holding the stage,
 * and its warp issues it again later.
 *
 * Each issue of a memory instruction gets one transaction or one pass;
 * whatever is left -- further transactions or passes, or the refused one --
 * is squashed.  The warp keeps every memory instruction it issues in its
 * instruction buffer (w->retained) until the memory stage has been through
 * all of it, and its scheduler re-issues the oldest squashed one before
 * anything else of the warp's.
 *
 * The buffer is the thesis's per-warp circular buffer of ibuffer_entries
 * instructions: the fill pointer may not pass the oldest retained
 * instruction, so every instruction issued after it -- memory or not --
 * still holds a slot, and when the slots from it to the next instruction
 * run out the warp issues nothing new until it leaves.
 */
#include "sm.h"

/* Per memory instruction: squashed, waiting to be issued again; and its
 * place in its warp's instruction stream. */
typedef struct replay_minst {
    bool squashed;
    uint64_t seq;
} replay_minst;

/* Per warp: instructions it has issued (each one once). */
typedef struct replay_warp {
    uint64_t issued;
} replay_warp;

static replay_minst *of(tm_gpu *g, const tm_minst *m) { return tm_mech_minst(g, m, TM_MECH_REPLAY); }
static replay_warp *warp_state(tm_gpu *g, const tm_warp *w) { return tm_mech_warp(g, w, TM_MECH_REPLAY); }

static bool enabled(const tm_config *c) { return c->hazard_policy == TM_HAZ_REPLAY; }

/* The warp's oldest squashed memory instruction, if any. */
static tm_minst *held(tm_gpu *g, tm_warp *w)
{
    for (tm_minst *m = w->retained; m; m = m->next)
        if (of(g, m)->squashed)
            return m;
    return NULL;
}

/* The next instruction needs a slot of the buffer: the oldest retained
 * instruction and everything issued since hold theirs. */
static int can_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *again, uint64_t *ready_at)
{
    (void)sm;
    (void)ready_at;
    if (!again && w->retained && warp_state(g, w)->issued - of(g, w->retained)->seq + 1 >= g->c.ibuffer_entries) {
        g->st->replay_ibuffer_full++;
        return TM_SLOT_STALL;
    }
    return TM_MECH_PASS;
}

static void before_step(tm_gpu *g, tm_sm *sm, tm_warp *w)
{
    (void)sm;
    warp_state(g, w)->issued++;
}

/* A new memory instruction: the warp keeps it until every part has gone
 * through (lsu.c's finish takes it out).  A squashed one: issued again. */
static void mem_issue(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m, bool again)
{
    (void)sm;
    if (again) {
        of(g, m)->squashed = false;
        g->st->replay_issues++;
        return;
    }
    of(g, m)->seq = warp_state(g, w)->issued;
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
    of(g, m)->squashed = true;
    sm->lsu = NULL;
    sm->wake = sm->now + g->core_ps;
    return true;
}

const tm_mech tm_mech_replay = {
    .name = "replay",
    .enabled = enabled,
    .minst_bytes = sizeof(replay_minst),
    .warp_bytes = sizeof(replay_warp),
    .always_look = true,
    .held = held,
    .can_issue = can_issue,
    .before_step = before_step,
    .mem_issue = mem_issue,
    .refused = refused,
};

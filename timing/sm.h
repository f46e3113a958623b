/*
 * sm.h -- one streaming multiprocessor and its memory stage (internal to
 * timing/).
 */
#ifndef PTXSIM_TM_SM_H
#define PTXSIM_TM_SM_H

#include "tm_int.h"

/* One core cycle of the SM at g->now: the memory stage, dispatch from the
 * collector units, issue, injection.  Sets sm->wake to the next time it has
 * anything to do. */
void tm_sm_cycle(tm_gpu *g, tm_sm *sm);

/* Mark a register busy until `ready` (TM_NEVER: until a load returns). */
void tm_mark(tm_warp *w, uint16_t key, uint64_t ready, bool mem);

/* lsu.c: the memory stage. */
/* A memory instruction just executed: its transactions or passes, its load. */
tm_minst *tm_minst_new(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec);
/* It enters the memory stage. */
void tm_lsu_begin(tm_gpu *g, tm_sm *sm, tm_minst *m);
/* One cycle of the memory stage. */
void tm_lsu_cycle(tm_gpu *g, tm_sm *sm);

/* hazard.c: hazard prediction (Turner 2012, chapter 6). */
/* May this squashed memory instruction be re-issued now? */
bool tm_hp_allow(tm_gpu *g, tm_sm *sm, tm_minst *m);
/* May the warp's next instruction (a memory instruction) issue now? */
bool tm_hp_allow_first(tm_gpu *g, tm_sm *sm, tm_warp *w);
/* The instruction issues: take a credit if it is predicted to miss. */
void tm_hp_take(tm_gpu *g, tm_sm *sm, tm_minst *m);
/* Its access reached the L1 with this outcome: train, account credits. */
void tm_hp_observe(tm_gpu *g, tm_sm *sm, tm_minst *m, const tm_acc *acc);

/* dom.c: diverge on miss (Tarjan, Meng, Skadron). */
/* Before the warp's next issue: rejoin, swap in or wait for parked groups.
 * A TM_SLOT_* reason when it cannot issue now, else -1. */
int tm_dom_check(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t *ready_at);
/* The warp issues at its pc: count a pass over a parked group there. */
void tm_dom_passing(tm_gpu *g, tm_warp *w);
/* A load just executed: if some of its lanes hit in the L1 and some
 * missed, park the missing ones and give them a load of their own. */
void tm_dom_diverge(tm_gpu *g, tm_sm *sm, tm_warp *w, tm_minst *m);
/* The slip limit in force on the SM; its adaptation once per period. */
uint32_t tm_dom_slip_limit(const tm_gpu *g, const tm_sm *sm);
void tm_dom_sample(tm_gpu *g, tm_sm *sm);

#endif /* PTXSIM_TM_SM_H */

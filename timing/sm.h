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
/* Charge the SM's schedulers, for the reasons they last found, with the
 * cycles from where their charge stands up to (not including) `upto`:
 * every cycle an SM holds a CTA is charged once per scheduler, whether it
 * ran that cycle or slept through it. */
void tm_sm_charge(tm_gpu *g, tm_sm *sm, uint64_t upto);

/* Mark a register busy until `ready` (TM_NEVER: until a load returns). */
void tm_mark(tm_warp *w, uint16_t key, uint64_t ready, bool mem);

/* Something the SM's schedulers wait on changed, so they look again: all of
 * them (a block came or went, a barrier released, a throttle moved), or
 * only warp w's (one of its registers, or its loads). */
void tm_sm_look_all(tm_sm *sm);
void tm_sm_look_warp(tm_warp *w);

/* Issue helpers P-mode shares with the schedulers: whether the
 * instruction's unit and a collector can take a P-mode instruction now (its
 * collector class, or -1); whether a collector of a class is free for one
 * (P-mode leaves the last free collector to N-mode); send an instruction
 * (rec) or a memory instruction (m) to a collector unit. */
int tm_sm_unit_free(tm_gpu *g, tm_sm *sm, const isa_inst *in, uint64_t *ready_at);
bool tm_sm_can_collect(tm_gpu *g, tm_sm *sm, uint8_t cls);
tm_oc *tm_sm_collect(tm_gpu *g, tm_sm *sm, tm_warp *w, uint8_t cls, const exec_record *rec, tm_minst *m);

/* fetch.c: instruction fetch through the L1I. */
/* A launch of `program` begins: its code region. */
void tm_fetch_begin(tm_gpu *g, const void *program);
/* The L1I line holding the instruction at pc. */
static inline uint64_t tm_code_line(const tm_gpu *g, const tm_sm *sm, uint32_t pc)
{
    return (g->code_base + (uint64_t)pc * g->c.inst_bytes) >> sm->l1i.line_shift;
}
/* w moves to code line `line`: whether it is fetched; if not, w is held
 * (held, not_before) until it is. */
bool tm_fetch(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t line, uint64_t *ready_at);

/* lsu.c: the memory stage. */
/* A memory instruction just executed: its transactions or passes, its load. */
tm_minst *tm_minst_new(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec);
/* A warp load (w may be NULL for a prefetch) waiting on `outstanding`
 * transactions, issued now. */
tm_load *tm_load_new(tm_gpu *g, tm_warp *w, uint32_t outstanding);
/* A pre-load of these addresses (P-mode): fills the L1, writes nothing. */
tm_minst *tm_minst_preload(tm_gpu *g, tm_sm *sm, tm_warp *w, const isa_access *a);
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

/* pmode.c: P-mode, warped pre-execution (Kim et al.). */
/* The warp's next instruction (blocked) waits on a global load: switch to
 * P-mode, with a copy of the warp positioned after it. */
void tm_pmode_enter(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *blocked);
/* Does the blocked instruction still wait on a long-latency load? */
bool tm_pmode_still_blocked(const tm_gpu *g, const tm_warp *w);
/* Back to N-mode (the P-queue stays for reuse). */
void tm_pmode_exit(tm_gpu *g, tm_sm *sm, tm_warp *w);
/* The warp's CTA retires: give back what its P-mode holds. */
void tm_pmode_release(tm_gpu *g, tm_sm *sm, tm_warp *w);
/* One P-mode step of warp w: 1 pre-executed (the issue slot is used), 0
 * skipped an instruction, -1 nothing this cycle. */
int tm_pmode_step(tm_gpu *g, tm_sm *sm, tm_warp *w);
/* Scheduler s issued nothing from N-mode: step one of its P-mode warps,
 * round robin.  1 pre-executed, 0 made progress or waits, -1 none to run. */
int tm_pmode_issue(tm_gpu *g, tm_sm *sm, uint32_t s);
/* A pre-executed instruction leaves its collector; its results are
 * written by `ready`. */
void tm_pmode_written(tm_gpu *g, tm_oc *o, uint64_t ready);
/* N-mode: is pc at the head of the P-queue with its result on its way? */
bool tm_pmode_head_is(const tm_gpu *g, const tm_warp *w, uint32_t pc);
/* N-mode just executed rec: if the P-queue's head is that instruction,
 * take its result (true: no unit needed). */
bool tm_pmode_reuse(tm_gpu *g, tm_sm *sm, tm_warp *w, const exec_record *rec);

/* prefetch.c: the stride prefetcher (DirectPrefetch, Kim et al.'s comparison). */
/* A demand global load went to the memory stage: train, maybe queue prefetches. */
void tm_prefetch_train(tm_gpu *g, tm_sm *sm, tm_warp *w, const tm_minst *m);
/* The memory stage is idle: send one queued prefetch to the L1. */
void tm_prefetch_issue(tm_gpu *g, tm_sm *sm);

#endif /* PTXSIM_TM_SM_H */

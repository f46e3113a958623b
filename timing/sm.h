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
/* The rest of a cycle that stopped in the parallel part of a step
 * (sm->parked), in SM order. */
void tm_sm_resume(tm_gpu *g, tm_sm *sm);

/* Release the barriers of the SM's CTAs whose threads have all arrived --
 * each CTA's own business, so a lane does it for its SMs -- and keep
 * sm->cta_look only if a CTA may have finished (retiring one places
 * another: gpu.c, in SM order).  False, with sm->fault and sm->err, when a
 * barrier can never be released. */
bool tm_sm_sync_ctas(tm_gpu *g, tm_sm *sm);

/* step.c: the lanes (tm_set_threads).  A launch's lanes (for `ctas`
 * blocks: tm_set_split's choice), its components counting into blocks of
 * their own when it steps on several threads (false: out of memory); their counts added to the launch's (before the
 * statistics are read); an SM's warp-instructions since last taken. */
bool tm_steps_begin(tm_gpu *g, uint64_t ctas);
void tm_gather_all(tm_gpu *g);
uint64_t tm_take_insts(tm_gpu *g, const tm_sm *sm);
void tm_steps_free(tm_gpu *g);
/* A step's work in every lane, side by side on the threads when the last
 * step's was large enough, else one lane after another: STEP_FIRE, what was
 * sent arrives and the queues due fire; STEP_CYCLE, the SMs' cycles. */
enum { STEP_FIRE = 1, STEP_CYCLE = 2, STEP_PIPE = 4,
       /* A window's jobs (step.c): what was sent queued, and the SMs'
        * cycles; then the partitions' cycles. */
       STEP_RECEIVE = 8, STEP_SMS = 16, STEP_PARTS = 32 };
/* The lane jobs' flags, and the chunk jobs'. */
#define STEP_LANE_WORK (STEP_FIRE | STEP_RECEIVE | STEP_PARTS)
#define STEP_CHUNK_WORK (STEP_CYCLE | STEP_SMS)
void tm_step_lanes(tm_gpu *g, int what);
/* The host's monotonic clock, in nanoseconds. */
uint64_t tm_host_ns(void);
/* A window's chunks that are pieces of its job, from g->chunk_marks (by
 * chunk: an SM of it has something to do in the window), listed in their
 * lanes and in id order; those that stop being pieces are left as a chunk
 * with nothing to do ends a window. */
void tm_window_chunks(tm_gpu *g);
/* Lane L's SMs' cycles at L->now (the first part of a step's STEP_CYCLE). */
void tm_lane_cycles(tm_gpu *g, tm_lane *L);
/* A pipelined launch's partitions offered to the helpers
 * (tm_pipe_partitions), and the helper that took them waited for. */
void tm_pipe_start(tm_gpu *g);
void tm_pipe_join(tm_gpu *g);

/* A window's CTAs: whether one of the SM's CTAs is done and has nothing
 * left in flight, so the ordered part retires it (gpu.c).  Only the SM's
 * own state is read or written: a lane may ask. */
bool tm_sm_retiring(tm_sm *sm);

/* Has the SM anything to do: a block, a miss waiting for the interconnect,
 * a memory instruction in its memory stage? */
static inline bool tm_sm_has_work(const tm_sm *sm) { return sm->nctas || sm->missq || sm->lsu; }

/* Whether its log holds stores (or lost one) this window (stores.c). */
static inline bool tm_sm_logged(const tm_sm *sm) { return sm->log.n || sm->log.failed; }

/* Its next time: its next reply, or its wake if it has work. */
static inline uint64_t tm_sm_next_time(const tm_sm *sm)
{
    uint64_t t = tm_heap_top(&sm->inbox);
    return tm_sm_has_work(sm) && sm->wake < t ? sm->wake : t;
}

/* Charge the SM's schedulers, for the reasons they last found, with the
 * cycles from where their charge stands up to (not including) `upto`:
 * every cycle an SM holds a CTA is charged once per scheduler, whether it
 * ran that cycle or slept through it. */
void tm_sm_charge(tm_gpu *g, tm_sm *sm, uint64_t upto);

/* Mark a register busy for `lanes` until `ready` (TM_NEVER: until a load
 * returns). */
void tm_mark(tm_warp *w, uint16_t key, uint32_t lanes, uint64_t ready, bool mem);

/* The lanes whose write of rec's destinations the scoreboard tracks: all
 * of them, as a warp's scoreboard does, or those that issued it
 * (dom_lane_scoreboard). */
static inline uint32_t tm_write_lanes(const tm_gpu *g, const exec_record *rec)
{
    return g->c.dom_lane_scoreboard == TM_DOM_ON ? rec->issued : ~0u;
}

/* Something the SM's schedulers wait on changed, so they look again: all of
 * them (a block came or went, a barrier released, a throttle moved), or
 * only warp w's (one of its registers, or its loads). */
void tm_sm_look_all(tm_sm *sm);
/* Begin in the engine the CTAs placed on sm in a window (gpu.c: on the
 * thread that runs the SM next); false, with sm->fault, when one could
 * not. */
bool tm_sm_begin_ctas(tm_gpu *g, tm_sm *sm);
void tm_sm_look_warp(tm_warp *w);

/* Issue helpers for mechanisms that issue on a warp's behalf (P-mode):
 * whether the instruction's unit and a collector can take such an
 * instruction now (its collector class, or -1); whether a collector of a
 * class is free for one (the last free collector is left to the warps'
 * own instructions); send an instruction (rec) or a memory instruction (m)
 * to a collector unit. */
int tm_sm_unit_free(tm_gpu *g, tm_sm *sm, const isa_inst *in, uint64_t *ready_at);
bool tm_sm_can_collect(tm_gpu *g, tm_sm *sm, uint8_t cls);
tm_oc *tm_sm_collect(tm_gpu *g, tm_sm *sm, tm_warp *w, uint8_t cls, const exec_record *rec, tm_minst *m);

/* Does this instruction read global or local memory through the L1D (a
 * plain load, not an atomic), and so need one of its MSHRs when it misses?
 * (A generic address counts: it is global more often than not.) */
bool tm_inst_wants_mshr(const isa_inst *in);

/* Is the warp's next instruction held back by a register a load has yet
 * to write (its running lanes wait on memory)?  Decodes it if need be. */
bool tm_warp_waits_on_load(tm_gpu *g, tm_warp *w);
/* ... and is it held back for `lanes` of the warp, standing at its pc, by
 * a register written for some of them (dom_lane_scoreboard)? */
bool tm_lanes_wait(tm_gpu *g, tm_warp *w, uint32_t lanes);

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
tm_load *tm_load_new(tm_gpu *g, tm_sm *sm, tm_warp *w, uint32_t outstanding);
/* A pre-load of these addresses (P-mode): fills the L1, writes nothing. */
tm_minst *tm_minst_preload(tm_gpu *g, tm_sm *sm, tm_warp *w, const isa_access *a);
/* It enters the memory stage. */
void tm_lsu_begin(tm_gpu *g, tm_sm *sm, tm_minst *m);
/* One cycle of the memory stage. */
void tm_lsu_cycle(tm_gpu *g, tm_sm *sm);

/* gpu.c: every SM's schedulers issue from at most `limit` warps each (0: no
 * limit): a static throttle, or DWT-CS's choice. */
void tm_set_warp_limit(tm_gpu *g, uint32_t limit);
/* dwt.c: DWT-CS is still choosing a limit (detecting thrashing in its first
 * window, or sampling); DBSA waits for it (Khairy 2015's order). */
bool tm_dwt_deciding(const tm_gpu *g);

/* The mechanisms (mechs.def) are reached only through their hook tables
 * (mech.h), which sm.c, lsu.c, memsys.c and gpu.c call. */

#endif /* PTXSIM_TM_SM_H */

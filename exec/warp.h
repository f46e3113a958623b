/*
 * warp.h -- one warp's execution (internal to exec/).
 */
#ifndef PTXSIM_EXEC_WARP_H
#define PTXSIM_EXEC_WARP_H

#include "exec_int.h"

/* Set a warp up at the kernel's first instruction for the threads
 * first_thread .. first_thread+31 of its CTA. */
ptx_status exec_warp_init(exec_warp *w, exec_cta *cta, uint32_t index, uint32_t first_thread);
/* Free what exec_warp_init allocated. */
void exec_warp_release(exec_warp *w);
/* Run until the warp finishes, waits at a barrier, fails, or spends the
 * budget (decremented by the warp-instructions executed). */
ptx_status exec_warp_run(exec_warp *w, uint64_t *budget, exec_stats *stats);
uint32_t exec_warp_pc(const exec_warp *w);
/* A call to a function without a body: a builtin or the host (builtins.c). */
ptx_status exec_builtin_call(exec_warp *w, const isa_call *c, uint32_t callee, uint32_t mask);
uint32_t exec_warp_active(const exec_warp *w);

/* A wait on an mbarrier failed at pc (its semantic returned PTX_CTL_YIELD,
 * with the barrier in w->v.fault): count it, and end the warp's turn. */
void exec_warp_spin(exec_warp *w, uint32_t pc);
/* The warp has failed EXEC_SPIN_LIMIT such waits in a row, a few
 * instructions apart, with no mbarrier of its CTA changed since the first. */
bool exec_warp_stuck(const exec_warp *w);

/* The warp's running lanes cannot go on for now (the loop watch proved
 * that they repeat a loop that changes nothing, or they wait for other
 * lanes of the warp): put its other lanes that could run (paths not yet
 * run, lanes waiting to reconverge with the top ones) above them, as
 * independent thread scheduling would run them.  False if it has none. */
bool exec_warp_run_others(exec_warp *w);

/* The loop watch (hang.c), after a round of turns of the resident CTAs
 * that ran `insts` warp-instructions, kept in hw: a warp that repeats a
 * loop, when no warp of them can ever make progress again (hw->found is
 * then set), or NULL. */
exec_warp *exec_hang_watch_round(exec_grid *g, exec_hang_watch *hw, exec_cta *const *ctas, uint64_t n,
                                 uint64_t insts);
/* The same watch for warps run by exec_warp_step: a sample of w's state
 * after one of its instructions (hang.c; exec_hang_check decides). */
void exec_hang_watch_step(exec_warp *w);

/* Fill err for a failure in warp w of CTA c (cold path; cta.c). */
void exec_cta_report(exec_cta *c, exec_warp *w, ptx_status st, exec_error *err);
/* Free the CTAs a grid keeps for reuse (cta.c). */
void exec_grid_spares_free(exec_grid *g);
/* Clusters left resident (a launch that failed midway). */
void exec_grid_clusters_free(exec_grid *g);

#endif /* PTXSIM_EXEC_WARP_H */

/*
 * warp.h -- one warp's execution (internal to exec/).
 */
#ifndef PTXSIM_EXEC_WARP_H
#define PTXSIM_EXEC_WARP_H

#include "exec_int.h"

/* Point the semantics at the current register window. */
static inline void exec_warp_set_window(exec_warp *w)
{
    w->v.r = w->regs + (size_t)w->reg_off * ISA_WARP_SIZE;
    w->v.p = w->preds + w->pred_off;
}

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

/* End the innermost calls while none of their lanes is left in them. */
void exec_warp_leave_emptied_calls(exec_warp *w);

/* Lane groups (warp_groups.c): lanes of a warp that wait in a caller while
 * its others spin inside a call run apart from them, as lanes scheduled
 * independently do (Volta on), each group with its own reconvergence
 * stack and calls (exec_lane_group).
 *   exec_warp_fork         the running group's lanes outside its innermost
 *                          call become a group of their own, which runs
 *                          now; false if there are none (or w is a copy)
 *   exec_warp_switch_group the running group cannot go on (its lanes spin,
 *                          or all wait at a barrier): another group at the
 *                          same place joins it, or one that can run takes
 *                          its turn; false if none can
 *   exec_warp_group_done   the running group has finished (no stack entry
 *                          left): the next group runs
 *   exec_warp_groups_free  drop every waiting group (a warp set up again) */
/* The lanes a warp-synchronous instruction names: the union of the
 * membermasks of its `active` lanes, read in the register window r (the
 * active lanes where it names none). */
uint32_t exec_sync_members(const isa_inst *in, const uint64_t *r, uint32_t active);
/* Of the lanes `lanes`, those whose waiting group stands at a
 * bar.warp.sync naming `members`; with `pass`, those groups go past it. */
uint32_t exec_warp_groups_synced(exec_warp *w, uint32_t members, uint32_t lanes, bool pass);
/* The lane group lane is in: a waiting one, or the running one (also for
 * a lane past the warp's). */
void exec_warp_lane_group(const exec_warp *w, unsigned lane, exec_lane_group *out);
bool exec_warp_fork(exec_warp *w);
bool exec_warp_switch_group(exec_warp *w);
void exec_warp_group_done(exec_warp *w);
void exec_warp_groups_free(exec_warp *w);

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

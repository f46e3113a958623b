/*
 * sem_ctrl.c -- control flow: bra brx call ret exit trap brkpt nanosleep pmevent
 * (PTX ISA 9.7.12).
 *
 * These do not move the program counter themselves: they report which
 * lanes act (w->taken) and a CTL_* status, and exec/ updates the SIMT stack,
 * the call stack and the warp's state.  Keeping the reconvergence logic in
 * one place (exec/simt.c) is what lets the timing model split and merge
 * warps without a second interpreter.
 */
#include "isa_int.h"

ptx_status isa_sem_bra(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    w->taken = mask;
    return PTX_CTL_BRANCH;
}

ptx_status isa_sem_brx(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    w->taken = mask;
    return PTX_CTL_BRANCH;
}

ptx_status isa_sem_call(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    w->taken = mask;
    return PTX_CTL_CALL;
}

ptx_status isa_sem_ret(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    w->taken = mask;
    return PTX_CTL_RET;
}

ptx_status isa_sem_exit(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    w->taken = mask;
    return PTX_CTL_EXIT;
}

/* The launch ends with `st`, raised by the first lane in mask.  Control
 * instructions run even when their guard leaves no lane (a branch must
 * still fall through): @p trap with p false everywhere does nothing. */
static ptx_status end_launch(isa_warp *w, uint32_t mask, ptx_status st)
{
    if (!mask)
        return PTX_OK;
    w->taken = mask;
    w->fault.lane = (uint32_t)__builtin_ctz(mask);
    return st;
}

ptx_status isa_sem_trap(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    return end_launch(w, mask, PTX_E_TRAP);
}

/* brkpt is for a debugger; with none to stop in, an H200 ends the launch
 * as trap does (CUDA_ERROR_LAUNCH_FAILED), and so does ptxsim, which
 * reports it as its own error (the debugger shows it as a fault where it
 * ran, as it shows a trap). */
ptx_status isa_sem_brkpt(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)in;
    return end_launch(w, mask, PTX_E_BRKPT);
}

/* nanosleep is a scheduling hint; functional mode has no time to give away. */
ptx_status isa_sem_nanosleep(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)w; (void)in; (void)mask;
    return PTX_OK;
}

/* pmevent a / pmevent.mask a (CUDA's __prof_trigger): signal events to
 * the SM's performance monitor, for a profiler to count.  ptxsim keeps no
 * such counters, so nothing changes; the operand must still be an event
 * (0-15) or a 16-bit mask of them, as ptxas requires. */
ptx_status isa_sem_pmevent(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)w; (void)mask;
    if (in->nopd != 1 || in->opd[0].kind != ISA_OPD_IMM)
        return PTX_E_UNSUPPORTED;
    return in->opd[0].imm <= (in->mode == ISA_MODE_MASK ? 0xffffu : 15u) ? PTX_OK : PTX_E_UNSUPPORTED;
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 n (sm_90a): a warpgroup asks for
 * n registers a thread, giving some back or taking more, so producer warps
 * can leave registers to the consumers.  ptxsim's registers are the PTX's
 * own, never spilled: nothing changes what the program computes.  The
 * count must be a multiple of 8 in [24, 256] (ptxas checks it too). */
ptx_status isa_sem_setmaxnreg(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)w; (void)mask;
    uint64_t n = in->nopd && in->opd[0].kind == ISA_OPD_IMM ? in->opd[0].imm : 0;
    return n >= 24 && n <= 256 && n % 8 == 0 ? PTX_OK : PTX_E_UNSUPPORTED;
}

/* griddepcontrol.wait / .launch_dependents (PTX ISA 7.8, sm_90):
 * programmatic dependent launch.  ptxsim runs a grid only after the grids
 * launched before it have completed, with their memory visible, so .wait
 * has nothing to wait for; .launch_dependents only lets a dependent grid
 * start early, which it never does here. */
ptx_status isa_sem_griddepcontrol(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    (void)w; (void)mask;
    return in->mode == ISA_MODE_WAIT || in->mode == ISA_MODE_LAUNCH_DEPENDENTS ? PTX_OK : PTX_E_UNSUPPORTED;
}

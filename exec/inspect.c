/*
 * inspect.c -- read-only views of programs and of launches stopped between
 * warp-instructions, for the debugger (see the inspection section of
 * exec.h).  Nothing here runs on the engine's hot path; every accessor
 * checks its arguments so a tool can probe freely.
 */
#include "exec_int.h"
#include "warp.h"

#include <string.h>

uint32_t exec_program_ncode(const exec_program *p) { return p->ncode; }

const isa_inst *exec_program_inst(const exec_program *p, uint32_t pc)
{
    return pc < p->ncode ? &p->code[pc] : NULL;
}

uint32_t exec_program_func_of(const exec_program *p, uint32_t pc)
{
    return pc < p->ncode ? p->func_of[pc] : 0;
}

void exec_program_func_range(const exec_program *p, uint32_t func, uint32_t *start, uint32_t *end)
{
    *start = *end = 0;
    if (func < p->m->nfuncs) {
        *start = p->funcs[func].start;
        *end = p->funcs[func].end;
    }
}

uint64_t exec_program_param_addr(const exec_program *p, int kernel)
{
    return kernel >= 0 && (uint32_t)kernel < p->nkernels ? p->kernels[kernel].param_addr : 0;
}

bool exec_kernel_may_begin(const exec_program *p, int kernel)
{
    return kernel >= 0 && (uint32_t)kernel < p->nkernels &&
           __atomic_load_n(&p->kernels[kernel].slots_used, __ATOMIC_ACQUIRE) != (1u << EXEC_PARAM_SLOTS) - 1;
}

bool exec_kernel_serial(const exec_program *p, int kernel)
{
    return kernel >= 0 && (uint32_t)kernel < p->nkernels && p->kernels[kernel].calls_serial;
}

exec_memory *exec_program_memory(const exec_program *p) { return p->mem; }

uint64_t exec_program_var_addr(const exec_program *p, uint32_t var)
{
    return var < p->m->nvars ? p->var_addr[var] : 0;
}

void exec_cta_id(const exec_cta *c, uint32_t out_ctaid[3])
{
    memcpy(out_ctaid, c->ctaid, sizeof c->ctaid);
}

uint8_t *exec_cta_shared(exec_cta *c, uint32_t *out_bytes)
{
    *out_bytes = c->mem_shared_bytes;
    return c->shared;
}

uint32_t exec_cta_bar_arrived(const exec_cta *c, unsigned bar)
{
    return bar < 16 ? c->bar_arrived[bar] : 0;
}

exec_cta *exec_warp_cta(const exec_warp *w) { return w->cta; }
uint32_t exec_warp_index(const exec_warp *w) { return w->index; }
uint32_t exec_warp_valid(const exec_warp *w) { return w->valid; }
uint32_t exec_warp_exited(const exec_warp *w) { return w->exited; }
uint32_t exec_warp_barrier(const exec_warp *w) { return w->bar_id; }

void exec_warp_tid(const exec_warp *w, unsigned lane, uint32_t out_tid[3])
{
    lane %= ISA_WARP_SIZE;
    for (int d = 0; d < 3; d++)
        out_tid[d] = w->v.tid[d][lane];
}

uint32_t exec_warp_stack(const exec_warp *w, exec_simt_view *out, uint32_t max)
{
    for (uint32_t i = 0; i < w->sp && i < max; i++)
        out[i] = (exec_simt_view){ w->stack[i].pc, w->stack[i].rpc, w->stack[i].mask };
    return w->sp;
}

uint32_t exec_warp_depth(const exec_warp *w) { return w->nframes + 1; }

/* The register and predicate windows of frame `level` (0 = innermost) of
 * the lane group lane is in (warp_groups.c; ISA_WARP_SIZE: the running
 * one): lanes that run apart from the running ones have calls and windows
 * of their own. */
static bool window(const exec_warp *w, unsigned lane, uint32_t level, uint32_t *reg_off, uint32_t *pred_off,
                   uint32_t *func)
{
    exec_lane_group g;
    exec_warp_lane_group(w, lane, &g);
    if (level > g.nframes)
        return false;
    if (level == 0) {
        *reg_off = g.reg_off;
        *pred_off = g.pred_off;
        *func = g.func;
        return true;
    }
    /* frames[k] saved the caller's window when frame k+1 was entered. */
    const exec_frame *fr = &g.frames[g.nframes - level];
    *reg_off = fr->reg_off;
    *pred_off = fr->pred_off;
    *func = fr->func;
    return true;
}

bool exec_warp_frame(const exec_warp *w, uint32_t level, exec_frame_view *out)
{
    uint32_t r, pr, func;
    if (!window(w, ISA_WARP_SIZE, level, &r, &pr, &func))
        return false;
    out->func = func;
    if (level == 0) {
        out->pc = exec_warp_pc(w);
        out->local = w->v.frame;
    } else {
        const exec_frame *fr = &w->frames[w->nframes - level];
        out->pc = fr->call_pc;
        out->local = fr->local;
    }
    return true;
}

uint64_t exec_warp_reg(const exec_warp *w, uint32_t level, uint32_t reg, unsigned lane)
{
    uint32_t r, pr, func;
    if (lane >= ISA_WARP_SIZE || !window(w, lane, level, &r, &pr, &func) ||
        reg >= w->cta->prog->funcs[func].nregs || r + reg >= w->regs_cap)
        return 0;
    return w->regs[(size_t)(r + reg) * ISA_WARP_SIZE + lane];
}

bool exec_warp_pred(const exec_warp *w, uint32_t level, uint32_t pred, unsigned lane)
{
    uint32_t r, pr, func;
    if (lane >= ISA_WARP_SIZE || !window(w, lane, level, &r, &pr, &func) ||
        pred >= w->cta->prog->funcs[func].npreds || pr + pred >= w->preds_cap)
        return false;
    return (w->preds[pr + pred] >> lane) & 1;
}

uint8_t *exec_warp_local(exec_warp *w, unsigned lane, uint32_t *out_bytes)
{
    *out_bytes = 0;
    if (lane >= ISA_WARP_SIZE || !w->mem.local)
        return NULL;
    *out_bytes = w->mem.local_stride;
    return w->mem.local + (size_t)lane * w->mem.local_stride;
}

void exec_warp_error(exec_warp *w, ptx_status st, exec_error *err)
{
    exec_cta_report(w->cta, w, st, err);
}

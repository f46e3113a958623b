/*
 * mem.c -- the memory a stopped kernel sees, for `x`, `print *(T*)addr`
 * and watchpoints: device memory (global and const variables, kernel
 * parameters, allocations), the focused block's shared memory and the
 * focused thread's local memory.  Generic addresses inside the shared and
 * local windows are taken as those spaces, as the engine does.
 */
#include "dbg_int.h"

#include <string.h>

static const isa_mem *windows(dbg_session *s)
{
    return s->prog.p ? exec_memory_windows(exec_program_memory(s->prog.p)) : NULL;
}

void dbg_mem_classify(dbg_session *s, uint8_t *space, uint64_t *addr)
{
    const isa_mem *win = windows(s);
    if (*space != ISA_SPACE_GENERIC || !win)
        return;
    if (*addr - win->shared_win < ISA_WINDOW_BYTES) {
        *space = ISA_SPACE_SHARED;
        *addr -= win->shared_win;
    } else if (*addr - win->local_win < ISA_WINDOW_BYTES) {
        *space = ISA_SPACE_LOCAL;
        *addr -= win->local_win;
    } else {
        *space = ISA_SPACE_GLOBAL;
    }
}

void dbg_mem_label(uint8_t space, uint64_t addr, char *buf, size_t n)
{
    if (space == ISA_SPACE_GLOBAL || space == ISA_SPACE_GENERIC)
        snprintf(buf, n, "0x%llx", (unsigned long long)addr);
    else
        snprintf(buf, n, "%s:0x%llx", isa_space_names[space], (unsigned long long)addr);
}

static uint8_t *out_of_range(char *err, size_t en, uint8_t space, uint64_t addr, const char *why)
{
    char label[64];
    dbg_mem_label(space, addr, label, sizeof label);
    snprintf(err, en, "Cannot access memory at address %s%s", label, why);
    return NULL;
}

uint8_t *dbg_mem_map(dbg_session *s, const dbg_ctx *c, uint8_t space, uint64_t addr, uint64_t n,
                     char *err, size_t en)
{
    const isa_mem *win = windows(s);
    if (!win) {
        snprintf(err, en, "No program is loaded yet.");
        return NULL;
    }
    dbg_mem_classify(s, &space, &addr);
    uint32_t bytes = 0;
    uint8_t *base = NULL;
    switch (space) {
    case ISA_SPACE_GLOBAL:
    case ISA_SPACE_CONST:
        /* Device memory is host memory at the same address, readable up to
         * the engine's high-water mark. */
        if (addr < win->global_lo || addr + n > win->global_hi || addr + n < addr)
            return out_of_range(err, en, space, addr, " (not device memory)");
        return (uint8_t *)(uintptr_t)addr;
    case ISA_SPACE_PARAM: {
        if (!s->run.active) {
            snprintf(err, en, "No kernel is running.");
            return NULL;
        }
        const exec_kernel_info *ki = exec_program_kernel_info(s->run.p, s->run.kernel);
        if (addr + n > ki->param_bytes || addr + n < addr)
            return out_of_range(err, en, space, addr, " (past the kernel's parameters)");
        return (uint8_t *)(uintptr_t)(exec_program_param_addr(s->run.p, s->run.kernel) + addr);
    }
    case ISA_SPACE_SHARED:
        if (!c->w) {
            snprintf(err, en, "Shared memory belongs to a block: no block has the focus.");
            return NULL;
        }
        /* Shared addresses wrap at 32 bits, as nvcc's code expects. */
        addr &= 0xFFFFFFFFu;
        base = exec_cta_shared(exec_warp_cta(c->w), &bytes);
        break;
    case ISA_SPACE_LOCAL:
        if (!c->w) {
            snprintf(err, en, "Local memory belongs to a thread: no thread has the focus.");
            return NULL;
        }
        addr &= 0xFFFFFFFFu;
        base = exec_warp_local(c->w, c->lane, &bytes);
        break;
    default:
        snprintf(err, en, "Cannot read the %s state space.", isa_space_names[space]);
        return NULL;
    }
    if (!base || addr + n > bytes)
        return out_of_range(err, en, space, addr, bytes ? "" : " (none is allocated)");
    return base + addr;
}

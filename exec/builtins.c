/*
 * builtins.c -- calls to functions a module declares but does not define.
 *
 * CUDA C compiles printf to a call of `vprintf(format, argument buffer)`,
 * assert to `__assertfail(...)`, and device-side malloc/free to calls of
 * those names; the driver supplies them.  Here malloc and free are answered
 * by the engine from device memory, and the rest go to the runtime's host
 * function, lane by lane in lane order so output is deterministic.
 *
 * A program built with -rdc=true -lcudadevrt links the device runtime's
 * PTX (cudaGetLastError, cudaStreamCreateWithFlags, the launch of a kernel
 * from a kernel, ...), which ends in calls of the driver's entry points --
 * `__cuda_syscall_cnpv2*`, and `cnp*` for the older interface -- that no
 * PTX defines.  The runtime answers those too (rt_device_launch.c).
 */
#include "exec_int.h"
#include "warp.h"

#include <string.h>

/* The functions a driver resolves when it loads a module (the device
 * runtime's, below, aside): a module may call them without defining them.
 * cudaGraphSetConditional is answered by the runtime (rt_graph_cond.c), and
 * the device's cudaGraphLaunch too (device_calls.c: not implemented, it
 * returns an error the kernel sees). */
static const char *const builtin_names[] = { "vprintf", "malloc", "free", "__assertfail",
                                             "cudaGraphSetConditional", "cudaGraphLaunch" };

bool exec_is_device_runtime(const char *name)
{
    return strncmp(name, "__cuda_syscall_", 15) == 0 || strncmp(name, "cnp", 3) == 0;
}

bool exec_is_builtin(const char *name)
{
    if (exec_is_device_runtime(name))
        return true;
    for (size_t i = 0; i < sizeof builtin_names / sizeof builtin_names[0]; i++)
        if (strcmp(name, builtin_names[i]) == 0)
            return true;
    return false;
}

void *exec_host_ptr(const exec_host_call *c, uint64_t addr, uint64_t *avail)
{
    const exec_warp *w = c->warp;
    const isa_mem *m = &w->mem;
    *avail = 0;
    if (addr - m->shared_win < ISA_WINDOW_BYTES) {
        uint64_t off = addr - m->shared_win;
        if (off >= m->shared_bytes)
            return NULL;
        *avail = m->shared_bytes - off;
        return m->shared + off;
    }
    if (addr - m->local_win < ISA_WINDOW_BYTES) {
        uint64_t off = addr - m->local_win;
        if (off >= m->local_stride)
            return NULL;
        *avail = m->local_stride - off;
        return m->local + (size_t)c->lane * m->local_stride + off;
    }
    if (addr >= m->global_lo && addr < m->global_hi) {
        *avail = m->global_hi - addr;
        return (void *)(uintptr_t)addr;
    }
    return NULL;
}

int exec_host_kernel_at(const exec_host_call *c, uint64_t addr)
{
    const exec_warp *w = c->warp;
    const exec_program *p = w->cta->prog;
    uint32_t f;
    if (!exec_func_at(p, addr, &f) || !p->m->funcs[f].is_entry)
        return -1;
    return exec_program_kernel(p, p->m->funcs[f].name);
}

const exec_program *exec_host_program(const exec_host_call *c)
{
    return ((const exec_warp *)c->warp)->cta->prog;
}

ptx_status exec_builtin_call(exec_warp *w, const isa_call *c, uint32_t callee, uint32_t mask)
{
    exec_program *p = w->cta->prog;
    const isa_module *m = p->m;
    const char *name = m->funcs[callee].name;
    uint8_t *local = w->mem.local;
    uint32_t stride = w->mem.local_stride;
    /* Every lane of the warp that reached a failing assert reports it, as
     * on a GPU; the first one's is the warp's failure. */
    bool assertion = strcmp(name, "__assertfail") == 0;
    ptx_status failed = PTX_OK;
    for (uint32_t rest = mask; rest;) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        /* Arguments live in the caller's argument blocks, in local memory. */
        uint64_t args[EXEC_HOST_MAX_ARGS] = {0};
        exec_host_call hc = { .name = name, .args = args, .warp = w, .lane = l, .out = w->cta->out };
        hc.nargs = c->nargs < EXEC_HOST_MAX_ARGS ? c->nargs : EXEC_HOST_MAX_ARGS;
        for (unsigned i = 0; i < hc.nargs; i++) {
            const isa_var *a = &m->vars[c->args[i]];
            const uint8_t *at = local + (size_t)l * stride + w->v.frame + p->var_addr[c->args[i]];
            memcpy(&args[i], at, a->size < 8 ? a->size : 8);
            hc.arg_bytes[i] = at;
            hc.arg_size[i] = a->size;
        }
        uint64_t ret = 0;
        ptx_status st = PTX_OK;
        if (strcmp(name, "malloc") == 0) {
            /* A full heap gives NULL, as on a GPU. */
            ret = exec_heap_malloc(p->mem, args[0]);
        } else if (strcmp(name, "free") == 0) {
            /* free(NULL) does nothing; an address malloc did not give is
             * an error, not a heap corrupted without a word. */
            if (args[0] && exec_heap_free(p->mem, args[0]) != PTX_OK) {
                w->v.fault.addr = args[0];
                w->v.fault.bytes = 1;
                w->v.fault.space = ISA_SPACE_GLOBAL;
                w->v.fault.why = "free() of an address the kernels' malloc did not give (or gave and it was freed)";
                st = PTX_E_ILLEGAL_ADDRESS;
            }
        } else if (w->cta->host) {
            memcpy(hc.ctaid, w->cta->ctaid, sizeof hc.ctaid);
            memcpy(hc.nctaid, w->cta->nctaid, sizeof hc.nctaid);
            memcpy(hc.ntid, w->cta->ntid, sizeof hc.ntid);
            for (int d = 0; d < 3; d++)
                hc.tid[d] = w->v.tid[d][l];
            st = w->cta->host(w->cta->host_ctx, &hc, &ret);
        } else {
            st = PTX_E_UNSUPPORTED;
        }
        if (st != PTX_OK && failed == PTX_OK) {
            w->v.fault.lane = l;
            failed = st;
        }
        if (failed != PTX_OK) {
            if (assertion)
                continue;
            return failed;
        }
        if (c->nrets) {
            const isa_var *r = &m->vars[c->rets[0]];
            memcpy(local + (size_t)l * stride + w->v.frame + p->var_addr[c->rets[0]], &ret,
                   r->size < 8 ? r->size : 8);
        }
    }
    return failed;
}

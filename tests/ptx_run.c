/*
 * ptx_run.c -- see ptx_run.h.
 */
#include "ptx_run.h"

#include <stdio.h>
#include <string.h>

bool ptx_load(ptx_env *e, const char *ptx)
{
    memset(e, 0, sizeof *e);
    e->mem = exec_memory_new(1ull << 30);
    if (!e->mem)
        return false;
    e->m = fe_parse(ptx, strlen(ptx), "test.ptx", &e->diag);
    if (!e->m) {
        printf("parse failed: test.ptx:%u:%u: %s\n", e->diag.line, e->diag.col, e->diag.msg);
        return false;
    }
    if (exec_program_load(e->mem, e->m, &e->p, &e->diag) != PTX_OK) {
        printf("load failed: %s\n", e->diag.msg);
        return false;
    }
    return true;
}

void ptx_unload(ptx_env *e)
{
    exec_program_free(e->p);
    isa_module_free(e->m);
    exec_memory_free(e->mem);
    memset(e, 0, sizeof *e);
}

void *ptx_alloc(ptx_env *e, size_t bytes)
{
    uint64_t addr;
    if (exec_malloc(e->mem, bytes, 256, &addr) != PTX_OK)
        return NULL;
    return (void *)(uintptr_t)addr;
}

int ptx_params(ptx_env *e, const char *kernel, unsigned nargs, const uint64_t *args, uint8_t params[256])
{
    int k = exec_program_kernel(e->p, kernel);
    if (k < 0)
        return -1;
    const exec_kernel_info *ki = exec_program_kernel_info(e->p, k);
    memset(params, 0, 256);
    for (unsigned i = 0; i < nargs && i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, &args[i], ki->params[i].bytes < 8 ? ki->params[i].bytes : 8);
    return k;
}

ptx_status ptx_launch3(ptx_env *e, const char *kernel, const uint32_t grid[3],
                       const uint32_t block[3], unsigned nargs, const uint64_t *args,
                       uint32_t dynamic_shared, uint64_t max_insts)
{
    uint8_t params[256];
    int k = ptx_params(e, kernel, nargs, args, params);
    if (k < 0)
        return PTX_E_NOT_FOUND;
    exec_launch l = { .dynamic_shared = dynamic_shared, .args = params, .max_warp_insts = max_insts, .nsm = 1 };
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.block, block, sizeof l.block);
    memset(&e->stats, 0, sizeof e->stats);
    memset(&e->err, 0, sizeof e->err);
    return exec_launch_run(e->p, k, &l, &e->stats, &e->err);
}

ptx_status ptx_launch(ptx_env *e, const char *kernel, uint32_t grid, uint32_t block,
                      unsigned nargs, const uint64_t *args)
{
    uint32_t g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
    return ptx_launch3(e, kernel, g, b, nargs, args, 0, 0);
}

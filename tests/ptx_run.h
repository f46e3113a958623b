/*
 * ptx_run.h -- for tests: parse PTX text, lay it out and run a kernel
 * through exec/, without the CUDA runtime.
 */
#ifndef PTXSIM_PTX_RUN_H
#define PTXSIM_PTX_RUN_H

#include "exec.h"
#include "frontend.h"

typedef struct ptx_env {
    exec_memory *mem;
    isa_module *m;
    exec_program *p;
    ptx_diag diag;
    exec_error err;
    exec_stats stats;
} ptx_env;

/* Parse and load; false (diag filled) on failure. */
bool ptx_load(ptx_env *e, const char *ptx);
void ptx_unload(ptx_env *e);
/* Device memory (usable from the host directly), zeroed. */
void *ptx_alloc(ptx_env *e, size_t bytes);
/* Run `kernel` with the given grid and block (x only) and up to 8 parameters
 * given as 64-bit values (each cut to its parameter's size). */
ptx_status ptx_launch(ptx_env *e, const char *kernel, uint32_t grid, uint32_t block,
                      unsigned nargs, const uint64_t *args);
ptx_status ptx_launch3(ptx_env *e, const char *kernel, const uint32_t grid[3],
                       const uint32_t block[3], unsigned nargs, const uint64_t *args,
                       uint32_t dynamic_shared, uint64_t max_insts);
/* For tests that build their own exec_launch: kernel's index (-1: no such
 * kernel) and its parameter block in params, as ptx_launch lays it out. */
int ptx_params(ptx_env *e, const char *kernel, unsigned nargs, const uint64_t *args, uint8_t params[256]);

#endif /* PTXSIM_PTX_RUN_H */

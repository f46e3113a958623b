/*
 * fuzz_debug.c -- libFuzzer target: bytes as the debugger's commands.
 *
 * The input is a command script for a session over two launches of a
 * vector_add built with nvcc -G (line tables and DWARF variables, so
 * breakpoints on CUDA lines, expressions over variables and `info locals`
 * are all reached).  The commands before the first launch, at every stop
 * and after a fault all parse input; stepping runs the kernel.  Output goes
 * to /dev/null: only crashes, leaks and sanitizer reports matter.
 */
#include "fuzz.h"
#include "debug.h"
#include "frontend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 100

/* Loaded once: parsing the PTX per input would be most of the time. */
typedef struct world {
    exec_memory *mem;
    isa_module *m;
    exec_program *p;
    int kernel;
    float *a, *b, *c;
    FILE *null;
} world;

static world w;

static float *alloc_floats(void)
{
    uint64_t addr;
    return exec_malloc(w.mem, N * sizeof(float), 256, &addr) == PTX_OK ? (float *)(uintptr_t)addr : NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t len;
    char *ptx = ptx_read_file(PTXSIM_FUZZ_DEBUG_PTX, &len);
    ptx_diag d = {0};
    w.mem = exec_memory_new(1ull << 30);
    w.m = ptx && w.mem ? fe_parse(ptx, len, "vector_add.ptx", &d) : NULL;
    free(ptx);
    if (!w.m || exec_program_load(w.mem, w.m, &w.p, &d) != PTX_OK) {
        fprintf(stderr, "fuzz_debug: cannot load %s: %s\n", PTXSIM_FUZZ_DEBUG_PTX, d.msg);
        exit(1);
    }
    w.kernel = exec_program_kernel(w.p, "_Z10vector_addPKfS0_Pfi");
    w.a = alloc_floats(), w.b = alloc_floats(), w.c = alloc_floats();
    w.null = fopen("/dev/null", "w");
    if (w.kernel < 0 || !w.a || !w.b || !w.c || !w.null)
        exit(1);
    for (int i = 0; i < N; i++) {
        w.a[i] = (float)i * 0.5f;
        w.b[i] = 100.0f - (float)i;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen(size ? (void *)data : (void *)"", size ? size : 1, "r");
    if (!in)
        return 0;
    dbg_options o = { .in = in, .out = w.null, .no_readline = true };
    dbg_session *s = dbg_new(&o);
    if (!s) {
        fclose(in);
        return 0;
    }
    dbg_set_var(s, "a", (uintptr_t)w.a);
    dbg_set_var(s, "b", (uintptr_t)w.b);
    dbg_set_var(s, "c", (uintptr_t)w.c);
    dbg_start(s);
    uint64_t args[4] = { (uintptr_t)w.a, (uintptr_t)w.b, (uintptr_t)w.c, N };
    const exec_kernel_info *ki = exec_program_kernel_info(w.p, w.kernel);
    uint8_t params[64] = {0};
    for (uint32_t i = 0; i < ki->nparams && i < 4; i++)
        memcpy(params + ki->params[i].offset, &args[i], ki->params[i].bytes < 8 ? ki->params[i].bytes : 8);
    /* A small budget: a script may step forever. */
    exec_launch l = { .grid = { 2, 1, 1 }, .block = { 64, 1, 1 }, .args = params, .nsm = 1,
                      .max_warp_insts = 20000, .check_memory = true };
    int code;
    for (int i = 0; i < 2 && !dbg_exit_requested(s, &code); i++) {
        exec_stats stats = {0};
        exec_error err;
        dbg_launch(s, w.p, w.kernel, &l, &stats, &err);
    }
    dbg_free(s);
    fclose(in);
    return 0;
}

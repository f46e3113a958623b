/*
 * bench.h -- what the engine benchmarks (engine.c, jit.c) share: the host
 * clock, loading their kernels' PTX, and the algorithms both also run
 * natively.
 */
#ifndef PTXSIM_BENCH_H
#define PTXSIM_BENCH_H

#include "exec.h"
#include "frontend.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The PTX file at path, parsed and laid out in mem; exits on failure
 * (`who` names the benchmark in the message). */
static inline exec_program *bench_load(const char *who, const char *path, exec_memory *mem)
{
    size_t len;
    char *text = ptx_read_file(path, &len);
    if (!text) {
        perror(path);
        exit(1);
    }
    ptx_diag d = {0};
    isa_module *m = fe_parse(text, len, path, &d);
    exec_program *p = NULL;
    if (!m || exec_program_load(mem, m, &p, &d) != PTX_OK) {
        fprintf(stderr, "%s: %s\n", who, d.msg);
        exit(1);
    }
    return p;
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* C = A x B, n x n, row-major: bench/kernels.cu's sgemm. */
static inline void sgemm_native(const float *A, const float *B, float *C, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

/* Levels from vertex 0 (level[] -1 but for the source's 0): every level
 * of bench/kernels.cu's bfs_level. */
static inline void bfs_native(const int *off, const int *edges, int *level, int n)
{
    for (int depth = 0, changed = 1; changed; depth++) {
        changed = 0;
        for (int v = 0; v < n; v++)
            if (level[v] == depth)
                for (int e = off[v]; e < off[v + 1]; e++)
                    if (level[edges[e]] < 0) {
                        level[edges[e]] = depth + 1;
                        changed = 1;
                    }
    }
}

#endif /* PTXSIM_BENCH_H */

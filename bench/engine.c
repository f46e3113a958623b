/*
 * engine.c -- how fast ptxsim runs kernels, functionally and in the timing
 * model, against the same algorithms compiled natively for the host.
 *
 *   engine PTX_FILE [scale]
 *
 * For each of three kernels (bench/kernels.cu: compute-bound SGEMM,
 * memory-bound triad, divergent BFS) prints thread- and warp-instructions
 * per second in functional mode, warp-instructions and cycles per second
 * in timing mode (the gtx480-like defaults), and the host time of the
 * native version, all measured one after another in this one process.
 */
#include "exec.h"
#include "frontend.h"
#include "bench.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    exec_memory *mem;
    exec_program *prog;
} engine;

static void *dev(engine *e, size_t bytes)
{
    uint64_t a;
    if (exec_malloc(e->mem, bytes, 256, &a) != PTX_OK) {
        fprintf(stderr, "engine: out of device memory\n");
        exit(1);
    }
    return (void *)(uintptr_t)a;
}

/* Pack up to 6 arguments (pointers, ints, floats given as raw 64-bit). */
static exec_launch launch_of(engine *e, int k, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                             const uint64_t *args, uint8_t *params)
{
    const exec_kernel_info *ki = exec_program_kernel_info(e->prog, k);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, &args[i], ki->params[i].bytes);
    exec_launch l = { .grid = { gx, gy, 1 }, .block = { bx, by, 1 }, .args = params, .nsm = 15 };
    return l;
}

typedef struct {
    const char *name;
    double func_s, timing_s, native_s;
    exec_stats fs;
    tm_stats ts;
} result;

static void run_both(engine *e, const char *kernel, const exec_launch *l, result *r, int times)
{
    int k = exec_program_kernel(e->prog, kernel);
    exec_error err;
    double t0 = now_s();
    for (int i = 0; i < times; i++)
        if (exec_launch_run(e->prog, k, l, &r->fs, &err) != PTX_OK) {
            fprintf(stderr, "engine: %s: %s\n", kernel, err.msg);
            exit(1);
        }
    r->func_s += now_s() - t0;
    tm_config c;
    tm_config_defaults(&c);
    tm_gpu *g = tm_new(&c);
    exec_stats xs = {0};
    t0 = now_s();
    if (tm_run(g, e->prog, k, l, &r->ts, &xs, &err) != PTX_OK) {
        fprintf(stderr, "engine: %s (timing): %s\n", kernel, err.msg);
        exit(1);
    }
    r->timing_s = now_s() - t0;
    tm_free(g);
}

/* ---- native versions --------------------------------------------------------- */

static void triad_native(const float *a, const float *b, float *c, float s, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + s * b[i];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: engine PTX_FILE [scale]\n");
        return 2;
    }
    int scale = argc > 2 ? atoi(argv[2]) : 1;
    engine e = { exec_memory_new(4ull << 30), NULL };
    e.prog = bench_load("engine", argv[1], e.mem);
    result res[3] = { { "sgemm (compute-bound)" }, { "triad (memory-bound)" }, { "bfs (divergent)" } };
    uint8_t params[256];

    /* SGEMM: n x n, 16 x 16 tiles. */
    int n = 256 * scale;
    float *A = dev(&e, (size_t)n * n * 4), *B = dev(&e, (size_t)n * n * 4), *C = dev(&e, (size_t)n * n * 4);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)(i % 7) * 0.5f;
        B[i] = (float)(i % 5) * 0.25f;
    }
    uint64_t a1[] = { (uint64_t)(uintptr_t)A, (uint64_t)(uintptr_t)B, (uint64_t)(uintptr_t)C, (uint64_t)n };
    exec_launch l = launch_of(&e, exec_program_kernel(e.prog, "sgemm"), (uint32_t)n / 16, (uint32_t)n / 16, 16, 16, a1,
                              params);
    run_both(&e, "sgemm", &l, &res[0], 1);
    float *Ch = malloc((size_t)n * n * 4);
    double t0 = now_s();
    sgemm_native(A, B, Ch, n);
    res[0].native_s = now_s() - t0;
    for (int i = 0; i < n * n; i += 997)
        if (Ch[i] != C[i] && (Ch[i] - C[i]) * (Ch[i] - C[i]) > 1e-3f * Ch[i] * Ch[i])
            fprintf(stderr, "engine: sgemm differs at %d: %g vs %g\n", i, C[i], Ch[i]);

    /* Triad over 4M floats. */
    int tn = (4 << 20) * scale;
    float *ta = dev(&e, (size_t)tn * 4), *tb = dev(&e, (size_t)tn * 4), *tc = dev(&e, (size_t)tn * 4);
    float s = 3.0f;
    uint32_t sbits;
    memcpy(&sbits, &s, 4);
    uint64_t a2[] = { (uint64_t)(uintptr_t)ta, (uint64_t)(uintptr_t)tb, (uint64_t)(uintptr_t)tc, sbits, (uint64_t)tn };
    l = launch_of(&e, exec_program_kernel(e.prog, "triad"), 240, 1, 256, 1, a2, params);
    run_both(&e, "triad", &l, &res[1], 1);
    float *th = malloc((size_t)tn * 4);
    t0 = now_s();
    triad_native(ta, tb, th, s, tn);
    res[1].native_s = now_s() - t0;

    /* BFS over a random graph with uneven degrees: one launch per level. */
    int vn = 1 << 16 << (scale - 1), en = vn * 8;
    int *off = dev(&e, (size_t)(vn + 1) * 4), *edges = dev(&e, (size_t)en * 4), *level = dev(&e, (size_t)vn * 4);
    int *changed = dev(&e, 4);
    uint64_t x = 12345;
    int at = 0;
    for (int v = 0; v < vn; v++) {
        off[v] = at;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int deg = (int)((x >> 33) % 16);          /* 0..15: divergent trip counts */
        for (int k = 0; k < deg && at < en; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            edges[at++] = (int)((x >> 33) % (uint64_t)vn);
        }
    }
    off[vn] = at;
    int *level_h = malloc((size_t)vn * 4);
    for (int v = 0; v < vn; v++)
        level[v] = level_h[v] = v == 0 ? 0 : -1;
    int bfs_k = exec_program_kernel(e.prog, "bfs_level");
    double tf = 0;
    exec_stats bs = {0};
    tm_stats bts = {0};
    tm_config c;
    tm_config_defaults(&c);
    tm_gpu *g = tm_new(&c);
    double tt = 0;
    for (int depth = 0;; depth++) {
        *changed = 0;
        uint64_t a3[] = { (uint64_t)(uintptr_t)off, (uint64_t)(uintptr_t)edges, (uint64_t)(uintptr_t)level,
                          (uint64_t)depth, (uint64_t)vn, (uint64_t)(uintptr_t)changed };
        l = launch_of(&e, bfs_k, (uint32_t)(vn + 255) / 256, 1, 256, 1, a3, params);
        exec_error err;
        /* Timing mode runs the level (and computes it); functional mode is
         * timed on a copy of the state before, then checked equal. */
        int *saved = malloc((size_t)vn * 4);
        memcpy(saved, level, (size_t)vn * 4);
        double s0 = now_s();
        exec_launch_run(e.prog, bfs_k, &l, &bs, &err);
        tf += now_s() - s0;
        memcpy(level, saved, (size_t)vn * 4);
        *changed = 0;
        tm_stats one;
        exec_stats xs = {0};
        s0 = now_s();
        tm_run(g, e.prog, bfs_k, &l, &one, &xs, &err);
        tt += now_s() - s0;
        bts.warp_insts += one.warp_insts;
        bts.thread_insts += one.thread_insts;
        bts.cycles += one.cycles;
        free(saved);
        if (!*changed)
            break;
    }
    tm_free(g);
    res[2].fs = bs;
    res[2].ts = bts;
    res[2].func_s = tf;
    res[2].timing_s = tt;
    t0 = now_s();
    bfs_native(off, edges, level_h, vn);
    res[2].native_s = now_s() - t0;
    for (int v = 0; v < vn; v++)
        if (level_h[v] != level[v]) {
            fprintf(stderr, "engine: bfs differs at vertex %d\n", v);
            break;
        }

    printf("| kernel | functional M thread-insts/s | functional M warp-insts/s | slowdown vs native -O2 |"
           " timing M warp-insts/s | timing K cycles/s | SIMD efficiency |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < 3; i++) {
        result *r = &res[i];
        printf("| %s | %.1f | %.2f | %.1fx | %.3f | %.1f | %.1f%% |\n", r->name,
               (double)r->fs.thread_insts / r->func_s * 1e-6, (double)r->fs.warp_insts / r->func_s * 1e-6,
               r->func_s / r->native_s, (double)r->ts.warp_insts / r->timing_s * 1e-6,
               (double)r->ts.cycles / r->timing_s * 1e-3,
               100.0 * (double)r->fs.thread_insts / ((double)r->fs.warp_insts * 32));
    }
    return 0;
}

/*
 * jit.c -- the compiled tier against the interpreter and against native
 * code: each kernel of bench/jit_kernels.cu runs functionally in the
 * interpreter, as quick compiled code and as optimised compiled code (one
 * host thread), and as the same algorithm compiled for the host, all in
 * this one process, one after another; prints a table.
 *
 *   jit PTX_FILE [scale [kernel]]
 *
 * With kernel (a row's number, from 0), only that row's kernel runs (vector
 * add and SAXPY together): for profiling one of them.
 * Each compiled level compiles each kernel before its first launch (as
 * PTXSIM_JIT_HOT=0 does, with PTXSIM_JIT_QUICK_ONLY=1 for quick code); that
 * compile is timed on its own and left out of the engine's time, which is
 * its steady state.  Both levels' outputs must equal the interpreter's,
 * bit for bit, and the interpreter's the native ones (floats to 1e-4).
 */
#include "exec.h"
#include "frontend.h"
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The engines, in the table's order. */
enum { INTERP, QUICK, OPTIMISED, ENGINES };

static exec_memory *mem;
static exec_program *progs[ENGINES];   /* one program each (the first launch fixes a program's level) */
static exec_program *prog;              /* the interpreter's, for kernel lookups */

static void *dev(size_t bytes)
{
    uint64_t a;
    if (exec_malloc(mem, bytes, 256, &a) != PTX_OK) {
        fprintf(stderr, "jit: out of device memory\n");
        exit(1);
    }
    return (void *)(uintptr_t)a;
}

typedef struct {
    const char *name;
    double engine_s[ENGINES];
    double native_s, compile_s[ENGINES];
    exec_stats stats;               /* one engine's (both are the same) */
    void *first;                    /* the interpreter's output */
    int checked;                    /* compiled outputs equal to the interpreter's, bit for bit,
                                       and the interpreter's close to the native one */
    int ran;                        /* its kernel ran (the command line may choose one) */
} result;

/* A launch of kernel `name` with up to 6 raw 64-bit arguments. */
static exec_launch launch(const char *name, int *k, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                          const uint64_t *args, uint8_t *params)
{
    *k = exec_program_kernel(prog, name);
    const exec_kernel_info *ki = exec_program_kernel_info(prog, *k);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, &args[i], ki->params[i].bytes);
    exec_launch l = { .grid = { gx, gy, 1 }, .block = { bx, by, 1 }, .args = params, .nsm = 80 };
    return l;
}

/* Run l under engine e; returns its host seconds, adding its statistics
 * to *stats when non-NULL. */
static double run(int k, exec_launch l, int e, exec_stats *stats)
{
    l.engine = e == INTERP ? EXEC_ENGINE_INTERP : EXEC_ENGINE_JIT;
    l.jit_hot = 0;
    l.jit_quick_only = e == QUICK;
    exec_stats s = {0};
    exec_error err;
    double t0 = now_s();
    if (exec_launch_run(progs[e], k, &l, &s, &err) != PTX_OK) {
        fprintf(stderr, "jit: %s\n", err.msg);
        exit(1);
    }
    double t = now_s() - t0;
    if (stats) {
        stats->warp_insts += s.warp_insts;
        stats->thread_insts += s.thread_insts;
    }
    return t;
}

/* The compile of kernel k alone at each level (r->compile_s): a launch of
 * it under the compiled tier compiles it first; the seconds the program's
 * compiles grew by. */
static void compile(result *r, int k, exec_launch l)
{
    for (int e = QUICK; e < ENGINES; e++) {
        exec_jit_summary before, after;
        exec_program_engine(progs[e], &before);
        run(k, l, e, NULL);
        if (!exec_program_engine(progs[e], &after) || after.why) {
            fprintf(stderr, "jit: the compiled tier is unavailable: %s\n", after.why ? after.why : "?");
            exit(1);
        }
        r->compile_s[e] = after.seconds - before.seconds;
    }
}

/* Host memory for the native versions' outputs, touched now: the engines
 * write into device memory cleared before each run, so the native code
 * must not pay for first-touch page faults either. */
static void *host(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "jit: out of host memory\n");
        exit(1);
    }
    return memset(p, 0, bytes);
}

static uint64_t rng = 12345;
static uint32_t next_u32(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

/* ---- the native versions ---------------------------------------------- */

static void vadd_native(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

static void saxpy_native(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static void reduce_native(const int *in, int *out, int n)
{
    for (int b = 0; b * 512 < n; b++) {
        int s = 0;
        for (int i = b * 512; i < b * 512 + 512 && i < n; i++)
            s += in[i];
        out[b] = s;
    }
}

static void stencil_native(const float *in, float *out, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int i = y * n + x;
            out[i] = x == 0 || y == 0 || x == n - 1 || y == n - 1
                         ? in[i] : 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
        }
}

static void collatz_native(int *steps, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned long long x = (unsigned long long)i + 1;
        int s = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            s++;
        }
        steps[i] = s;
    }
}

/* ---- one kernel, three ways ---------------------------------------------- */

#define ARGS(...) ((const uint64_t[]){ __VA_ARGS__ })
#define P(x) ((uint64_t)(uintptr_t)(x))

static uint64_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* After engine e's run: the interpreter's output must be close to the
 * native one (floats within 1e-4 relative: nvcc fuses multiply-adds the
 * host's -O2 code does not), each compiled level's equal to the
 * interpreter's, bit for bit. */
static void check(result *r, int e, const void *out, const void *native, size_t bytes, int is_float)
{
    if (e == INTERP) {
        r->first = malloc(bytes);
        memcpy(r->first, out, bytes);
        r->checked = 1;
        r->ran = 1;
        for (size_t i = 0; i < bytes / 4; i++) {
            if (is_float) {
                float x = ((const float *)out)[i], y = ((const float *)native)[i];
                float tol = 1e-4f * (y < 0 ? -y : y) + 1e-6f;
                r->checked &= x - y <= tol && y - x <= tol;
            } else {
                r->checked &= ((const int *)out)[i] == ((const int *)native)[i];
            }
        }
    } else {
        r->checked &= memcmp(r->first, out, bytes) == 0;
        if (e == ENGINES - 1)
            free(r->first);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: jit PTX_FILE [scale [kernel]]\n");
        return 2;
    }
    int scale = argc > 2 ? atoi(argv[2]) : 1;
    if (scale < 1)
        scale = 1;
    int only = argc > 3 ? atoi(argv[3]) : -1;
    double t0;
    mem = exec_memory_new(8ull << 30);
    for (int e = 0; e < ENGINES; e++)
        progs[e] = bench_load("jit", argv[1], mem);
    prog = progs[INTERP];
    result res[7] = { { "vector add" }, { "SAXPY" }, { "tiled matmul" }, { "reduction" }, { "stencil" },
                      { "bfs" }, { "divergent (Collatz)" } };
    uint8_t params[256];
    int k;
    exec_launch l;

    if (only < 0 || only <= 1) {
        /* Vector add and SAXPY: 4 M floats. */
        int n = (4 << 20) * scale;
        float *a = dev((size_t)n * 4), *b = dev((size_t)n * 4), *c = dev((size_t)n * 4);
        float *ref = host((size_t)n * 4), *y0 = host((size_t)n * 4);
        for (int i = 0; i < n; i++) {
            a[i] = (float)(next_u32() % 1000) * 0.01f;
            b[i] = (float)(next_u32() % 1000) * 0.02f;
        }
        l = launch("vadd", &k, (uint32_t)(n + 255) / 256, 1, 256, 1, ARGS(P(a), P(b), P(c), (uint64_t)n), params);
        compile(&res[0], k, l);
        t0 = now_s();
        vadd_native(a, b, ref, n);
        res[0].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            memset(c, 0, (size_t)n * 4);
            res[0].engine_s[e] = run(k, l, e, e != INTERP ? NULL : &res[0].stats);
            check(&res[0], e, c, ref, (size_t)n * 4, 1);
        }
        memcpy(y0, b, (size_t)n * 4);
        l = launch("saxpy", &k, (uint32_t)(n + 255) / 256, 1, 256, 1, ARGS((uint64_t)n, f32bits(2.5f), P(a), P(b)),
                   params);
        compile(&res[1], k, l);
        memcpy(ref, y0, (size_t)n * 4);
        t0 = now_s();
        saxpy_native(n, 2.5f, a, ref);
        res[1].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            memcpy(b, y0, (size_t)n * 4);
            res[1].engine_s[e] = run(k, l, e, e != INTERP ? NULL : &res[1].stats);
            check(&res[1], e, b, ref, (size_t)n * 4, 1);
        }
    }

    if (only < 0 || only == 2) {
        /* Tiled matmul, 256 x 256 (x scale). */
        int mn = 256 * scale;
        float *A = dev((size_t)mn * mn * 4), *B = dev((size_t)mn * mn * 4), *C = dev((size_t)mn * mn * 4);
        float *Cref = host((size_t)mn * mn * 4);
        for (int i = 0; i < mn * mn; i++) {
            A[i] = (float)(i % 7) * 0.5f;
            B[i] = (float)(i % 5) * 0.25f;
        }
        l = launch("sgemm", &k, (uint32_t)mn / 16, (uint32_t)mn / 16, 16, 16, ARGS(P(A), P(B), P(C), (uint64_t)mn),
                   params);
        compile(&res[2], k, l);
        t0 = now_s();
        sgemm_native(A, B, Cref, mn);
        res[2].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            memset(C, 0, (size_t)mn * mn * 4);
            res[2].engine_s[e] = run(k, l, e, e != INTERP ? NULL : &res[2].stats);
            check(&res[2], e, C, Cref, (size_t)mn * mn * 4, 1);
        }
    }

    if (only < 0 || only == 3) {
        /* Reduction: 8 M integers into sums of 512. */
        int rn = (8 << 20) * scale, nb = rn / 512;
        int *rin = dev((size_t)rn * 4), *rout = dev((size_t)nb * 4), *rref = host((size_t)nb * 4);
        for (int i = 0; i < rn; i++)
            rin[i] = (int)(next_u32() % 1000);
        l = launch("reduce", &k, (uint32_t)nb, 1, 256, 1, ARGS(P(rin), P(rout), (uint64_t)rn), params);
        compile(&res[3], k, l);
        t0 = now_s();
        reduce_native(rin, rref, rn);
        res[3].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            memset(rout, 0, (size_t)nb * 4);
            res[3].engine_s[e] = run(k, l, e, e != INTERP ? NULL : &res[3].stats);
            check(&res[3], e, rout, rref, (size_t)nb * 4, 0);
        }
    }

    if (only < 0 || only == 4) {
        /* Stencil: 2048 x 2048, one step. */
        int sn = 2048 * scale;
        float *sin_ = dev((size_t)sn * sn * 4), *sout = dev((size_t)sn * sn * 4), *sref = host((size_t)sn * sn * 4);
        for (int i = 0; i < sn * sn; i++)
            sin_[i] = (float)(next_u32() % 1000) * 0.001f;
        l = launch("stencil", &k, (uint32_t)(sn + 31) / 32, (uint32_t)(sn + 7) / 8, 32, 8,
                   ARGS(P(sin_), P(sout), (uint64_t)sn), params);
        compile(&res[4], k, l);
        t0 = now_s();
        stencil_native(sin_, sref, sn);
        res[4].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            memset(sout, 0, (size_t)sn * sn * 4);
            res[4].engine_s[e] = run(k, l, e, e != INTERP ? NULL : &res[4].stats);
            check(&res[4], e, sout, sref, (size_t)sn * sn * 4, 1);
        }
    }

    if (only < 0 || only == 5) {
        /* BFS over a random graph of uneven degrees, a launch per level. */
        int vn = (1 << 18) * scale, en = vn * 8;
        int *off = dev((size_t)(vn + 1) * 4), *edges = dev((size_t)en * 4), *level = dev((size_t)vn * 4);
        int *changed = dev(4), *lref = host((size_t)vn * 4);
        int at = 0;
        for (int v = 0; v < vn; v++) {
            off[v] = at;
            int deg = (int)(next_u32() % 16);
            for (int j = 0; j < deg && at < en; j++)
                edges[at++] = (int)(next_u32() % (uint32_t)vn);
        }
        off[vn] = at;
        for (int v = 0; v < vn; v++)
            lref[v] = v == 0 ? 0 : -1;
        t0 = now_s();
        bfs_native(off, edges, lref, vn);
        res[5].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            for (int v = 0; v < vn; v++)
                level[v] = v == 0 ? 0 : -1;
            for (int depth = 0;; depth++) {
                *changed = 0;
                l = launch("bfs_level", &k, (uint32_t)(vn + 255) / 256, 1, 256, 1,
                           ARGS(P(off), P(edges), P(level), (uint64_t)depth, (uint64_t)vn, P(changed)), params);
                if (e == QUICK && depth == 0) {
                    /* Compile on a copy of the state, then run the level for real. */
                    int saved = *changed;
                    int *copy = malloc((size_t)vn * 4);
                    memcpy(copy, level, (size_t)vn * 4);
                    compile(&res[5], k, l);
                    memcpy(level, copy, (size_t)vn * 4);
                    *changed = saved;
                    free(copy);
                }
                res[5].engine_s[e] += run(k, l, e, e != INTERP ? NULL : &res[5].stats);
                if (!*changed)
                    break;
            }
            check(&res[5], e, level, lref, (size_t)vn * 4, 0);
        }
    }

    if (only < 0 || only == 6) {
        /* Divergent loop: Collatz steps of 1 .. 1 M. */
        int cn = (1 << 20) * scale;
        int *steps = dev((size_t)cn * 4), *cref = host((size_t)cn * 4);
        l = launch("collatz", &k, (uint32_t)(cn + 255) / 256, 1, 256, 1, ARGS(P(steps), (uint64_t)cn), params);
        compile(&res[6], k, l);
        t0 = now_s();
        collatz_native(cref, cn);
        res[6].native_s = now_s() - t0;
        for (int e = 0; e < ENGINES; e++) {
            memset(steps, 0, (size_t)cn * 4);
            res[6].engine_s[e] = run(k, l, e, e != INTERP ? NULL : &res[6].stats);
            check(&res[6], e, steps, cref, (size_t)cn * 4, 0);
        }
    }

    printf("| kernel | thread-insts | interpreter M thread-insts/s | quick M thread-insts/s | optimised M "
           "thread-insts/s | quick / interpreter | optimised / interpreter | interpreter / native | optimised / "
           "native | quick compile s | optimised compile s | outputs |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < 7; i++) {
        result *r = &res[i];
        double ti = (double)r->stats.thread_insts;
        const double *t = r->engine_s;
        if (!r->ran)
            continue;
        printf("| %s | %.1f M | %.0f | %.0f | %.0f | %.2fx faster | %.2fx faster | %.1fx slower | %.1fx slower "
               "| %.3f | %.2f | %s |\n",
               r->name, ti * 1e-6, ti / t[INTERP] * 1e-6, ti / t[QUICK] * 1e-6, ti / t[OPTIMISED] * 1e-6,
               t[INTERP] / t[QUICK], t[INTERP] / t[OPTIMISED], t[INTERP] / r->native_s, t[OPTIMISED] / r->native_s,
               r->compile_s[QUICK], r->compile_s[OPTIMISED], r->checked ? "same" : "DIFFER");
    }
    int bad = 0;
    for (int i = 0; i < 7; i++)
        bad |= res[i].ran && !res[i].checked;
    return bad;
}

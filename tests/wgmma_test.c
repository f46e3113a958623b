/*
 * wgmma_test.c -- wgmma (PTX ISA 9.7.15) end to end through the engine,
 * without the CUDA toolchain (tests/wgmma/ has the full CUDA program): one
 * m64n8k16 multiply with A and B K-major and unswizzled, placed by hand
 * from the ISA's core-matrix description (8 rows of 16 bytes, LBO along K,
 * SBO along M/N) and checked against a host multiply through D's fragment
 * layout, also under the timing model; the faults (a descriptor outside
 * shared memory, a block whose warpgroup is cut short, a diverged warp);
 * the parser's forms (sm_90a only, the immediates) and the printer.
 */
#include "check.h"
#include "ptx_run.h"
#include "timing.h"

#include <stdlib.h>

#define HEADER ".version 8.0\n.target sm_90a\n.address_size 64\n"

/* 128 threads copy a 4 KB image into shared memory, then the warpgroup
 * runs `wgmma` on the descriptors da, db (relative to the image) and each
 * thread stores its four f32 accumulators at out + 16 * tid. */
static char *kernel(char *buf, size_t n, const char *target, const char *wgmma)
{
    snprintf(buf, n,
        ".version 8.0\n.target %s\n.address_size 64\n"
        ".visible .entry wg(.param .u64 img, .param .u64 out, .param .u64 da, .param .u64 db)\n{\n"
        " .reg .b32 %%r<16>;\n .reg .b64 %%rd<16>;\n .reg .f32 %%f<4>;\n .reg .pred %%p;\n"
        " .shared .align 1024 .b8 sm[4096];\n"
        " ld.param.u64 %%rd1, [img];\n ld.param.u64 %%rd2, [out];\n"
        " ld.param.u64 %%rd3, [da];\n ld.param.u64 %%rd4, [db];\n"
        " mov.u32 %%r1, %%tid.x;\n mul.wide.u32 %%rd5, %%r1, 32;\n add.s64 %%rd6, %%rd1, %%rd5;\n"
        " mov.u32 %%r2, sm;\n mul.lo.u32 %%r3, %%r1, 32;\n add.u32 %%r4, %%r2, %%r3;\n"
        " ld.global.v4.b32 {%%r5, %%r6, %%r7, %%r8}, [%%rd6];\n st.shared.v4.b32 [%%r4], {%%r5, %%r6, %%r7, %%r8};\n"
        " ld.global.v4.b32 {%%r5, %%r6, %%r7, %%r8}, [%%rd6+16];\n st.shared.v4.b32 [%%r4+16], {%%r5, %%r6, %%r7, %%r8};\n"
        " bar.sync 0;\n"
        " cvt.u64.u32 %%rd7, %%r2;\n shr.u64 %%rd7, %%rd7, 4;\n add.s64 %%rd3, %%rd3, %%rd7;\n add.s64 %%rd4, %%rd4, %%rd7;\n"
        " mov.f32 %%f0, 0f3F800000;\n mov.f32 %%f1, 0f3F800000;\n mov.f32 %%f2, 0f3F800000;\n mov.f32 %%f3, 0f3F800000;\n"
        " setp.ne.u32 %%p, %%r1, 1000;\n"
        " wgmma.fence.sync.aligned;\n"
        " %s\n"
        " wgmma.commit_group.sync.aligned;\n wgmma.wait_group.sync.aligned 0;\n"
        " mul.wide.u32 %%rd8, %%r1, 16;\n add.s64 %%rd9, %%rd2, %%rd8;\n"
        " st.global.v4.f32 [%%rd9], {%%f0, %%f1, %%f2, %%f3};\n ret;\n}\n",
        target, wgmma);
    return buf;
}

#define WGMMA_N8 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 1, -1, 0, 0;"

static int a_val(unsigned i, unsigned k) { return (int)((i * 3 + k) % 5) - 2; }
static int b_val(unsigned k, unsigned j) { return (int)((k + 2 * j) % 3) - 1; }
static uint16_t f16_small(int v)           /* -2 .. 2 */
{
    static const uint16_t bits[5] = { 0xC000, 0xBC00, 0x0000, 0x3C00, 0x4000 };
    return bits[v + 2];
}

/* The image: A (64 x 16) at 0 and B (16 x 8) at 2048, K-major, no
 * swizzle: element (mn, k) at (mn % 8) * 16 + (mn / 8) * SBO + (k % 8) * 2 +
 * (k / 8) * LBO, LBO = 128 (the next core matrix along K), SBO = 256 (the
 * next along M/N). */
static void fill(uint8_t *img)
{
    memset(img, 0xEE, 4096);
    for (unsigned i = 0; i < 64; i++)
        for (unsigned k = 0; k < 16; k++) {
            uint16_t v = f16_small(a_val(i, k));
            memcpy(img + (i % 8) * 16 + (i / 8) * 256 + (k % 8) * 2 + (k / 8) * 128, &v, 2);
        }
    for (unsigned j = 0; j < 8; j++)
        for (unsigned k = 0; k < 16; k++) {
            uint16_t v = f16_small(b_val(k, j));
            memcpy(img + 2048 + (j % 8) * 16 + (k % 8) * 2 + (k / 8) * 128, &v, 2);
        }
}

static uint64_t desc(uint64_t start, uint64_t lbo, uint64_t sbo)
{
    return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32;
}

/* D = A * (-B) + 1 by the accumulator's layout: thread t's element e is
 * row 16 (t / 32) + (t % 32) / 4 + 8 (e / 2), column 2 (t % 4) + e % 2. */
static unsigned wrong_elements(const float *out)
{
    unsigned wrong = 0;
    for (unsigned t = 0; t < 128; t++)
        for (unsigned e = 0; e < 4; e++) {
            unsigned r = 16 * (t / 32) + (t % 32) / 4 + 8 * (e / 2), c = 2 * (t % 4) + e % 2;
            int s = 1;
            for (unsigned k = 0; k < 16; k++)
                s -= a_val(r, k) * b_val(k, c);
            if (out[t * 4 + e] != (float)s && wrong++ < 3)
                printf("  D[%u][%u] (thread %u, element %u) = %g, want %d\n", r, c, t, e, out[t * 4 + e], s);
        }
    return wrong;
}

static void test_multiply(void)
{
    char ptx[4096];
    for (int timing = 0; timing <= 1; timing++) {
        ptx_env e;
        if (!ptx_load(&e, kernel(ptx, sizeof ptx, "sm_90a", WGMMA_N8))) {
            CHECK(false, "the kernel loads: %s", e.diag.msg);
            return;
        }
        uint8_t *img = ptx_alloc(&e, 4096);
        float *out = ptx_alloc(&e, 128 * 16);
        fill(img);
        uint64_t args[4] = { (uint64_t)(uintptr_t)img, (uint64_t)(uintptr_t)out, desc(0, 128, 256),
                             desc(2048, 128, 256) };
        ptx_status st;
        if (timing) {
            tm_config c;
            tm_config_defaults(&c);
            c.n_sm = 1;
            tm_gpu *g = tm_new(&c);
            int k = exec_program_kernel(e.p, "wg");
            uint8_t params[256];
            ptx_params(&e, "wg", 4, args, params);
            exec_launch l = { .grid = { 1, 1, 1 }, .block = { 128, 1, 1 }, .args = params, .nsm = 1 };
            exec_stats xs = {0};
            tm_stats ts;
            memset(&e.err, 0, sizeof e.err);
            st = tm_run(g, e.p, k, &l, &ts, &xs, &e.err);
            tm_free(g);
        } else {
            st = ptx_launch(&e, "wg", 1, 128, 4, args);
        }
        CHECK(st == PTX_OK, "wgmma runs (timing %d): %s", timing, e.err.msg);
        CHECK(wrong_elements(out) == 0, "D = A * -B + D (timing %d)", timing);
        ptx_unload(&e);
    }
}

static void test_faults(void)
{
    char ptx[4096];
    ptx_env e;
    if (!ptx_load(&e, kernel(ptx, sizeof ptx, "sm_90a", WGMMA_N8))) {
        CHECK(false, "the kernel loads: %s", e.diag.msg);
        return;
    }
    uint8_t *img = ptx_alloc(&e, 4096);
    float *out = ptx_alloc(&e, 128 * 16);
    fill(img);
    /* A's start far past the block's 4 KB of shared memory. */
    uint64_t args[4] = { (uint64_t)(uintptr_t)img, (uint64_t)(uintptr_t)out, desc(0x30000, 128, 256),
                         desc(2048, 128, 256) };
    ptx_status st = ptx_launch(&e, "wg", 1, 128, 4, args);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS, "a descriptor outside shared memory faults: %s", ptx_status_name(st));
    CHECK(strstr(e.err.msg, "wgmma_mma_async") && strstr(e.err.msg, "descriptor for A") &&
              strstr(e.err.msg, "shared address 0x30000"),
          "the message names the instruction, the descriptor and the address: %s", e.err.msg);
    /* 96 threads: the warpgroup is three warps. */
    args[2] = desc(0, 128, 256);
    st = ptx_launch(&e, "wg", 1, 96, 4, args);
    CHECK(st == PTX_E_ILLEGAL_INSTRUCTION, "three warps are no warpgroup: %s", ptx_status_name(st));
    CHECK(strstr(e.err.msg, "warpgroup") != NULL, "the message says why: %s", e.err.msg);
    /* 128 threads again, all fine. */
    st = ptx_launch(&e, "wg", 1, 128, 4, args);
    CHECK(st == PTX_OK && wrong_elements(out) == 0, "and four run: %s", e.err.msg);
    ptx_unload(&e);
    /* A lane that does not take part (a guard false in one lane). */
    const char *guarded = "@%p wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, "
                          "%rd4, 1, 1, 1, 0, 0;";
    char *g = kernel(ptx, sizeof ptx, "sm_90a", guarded);
    char *at = strstr(g, "%r1, 1000");
    if (at)
        memcpy(at, "%r1, 0005", 9);
    if (ptx_load(&e, g)) {
        img = ptx_alloc(&e, 4096);
        out = ptx_alloc(&e, 128 * 16);
        fill(img);
        args[0] = (uint64_t)(uintptr_t)img, args[1] = (uint64_t)(uintptr_t)out;
        st = ptx_launch(&e, "wg", 1, 128, 4, args);
        CHECK(st == PTX_E_ILLEGAL_INSTRUCTION, "a diverged warp: %s", ptx_status_name(st));
        ptx_unload(&e);
    } else {
        CHECK(false, "the guarded kernel loads: %s", e.diag.msg);
    }
}

static void test_forms(void)
{
    char ptx[4096];
    static const struct { const char *target, *inst, *error; } forms[] = {
        { "sm_90", WGMMA_N8, "sm_90a" },
        { "sm_100a", WGMMA_N8, "sm_90a" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 2, 1, 0, 0;",
          "1 or -1" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 1, 1, 0, 2;",
          "0 or 1" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1}, %rd3, %rd4, %p, 1, 1, 0, 0;",
          "number of registers" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 1, 1, 0, 0;",
          "K" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 1, 1, 1, 0;",
          "expected" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p;", "N" },
        { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 1, 1;",
          "expected d, a, b-desc, scale-d" },
        { "sm_90a", "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %r1, 0, "
                    "%p, 1, 1, 0, 0;", "modifier `.sp`" },
    };
    for (unsigned i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        ptx_env e;
        bool ok = ptx_load(&e, kernel(ptx, sizeof ptx, forms[i].target, forms[i].inst));
        CHECK(!ok && strstr(e.diag.msg, forms[i].error), "form %u refused (%s): %s", i, forms[i].error,
              ok ? "loaded" : e.diag.msg);
        if (ok)
            ptx_unload(&e);
    }
    /* The printer gives back what ptxas reads: the target's suffix, the
     * immediates the parser folded. */
    ptx_diag d = {0};
    kernel(ptx, sizeof ptx, "sm_90a", WGMMA_N8);
    isa_module *m = fe_parse(ptx, strlen(ptx), "wg.ptx", &d);
    CHECK(m != NULL, "parses: %s", d.msg);
    if (!m)
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fe_print(f, m);
    fclose(f);
    CHECK(strstr(text, ".target sm_90a") != NULL, "the target keeps its suffix");
    CHECK(strstr(text, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd3, %rd4, %p, 1, -1, "
                       "0, 0;") != NULL, "the multiply prints as written:\n%s", text);
    CHECK(strstr(text, "wgmma.wait_group.sync.aligned 0;") && strstr(text, "wgmma.fence.sync.aligned;") &&
              strstr(text, "wgmma.commit_group.sync.aligned;"), "and the fence, commit and wait");
    free(text);
    isa_module_free(m);
}

static const check_case cases[] = {
    CASE(multiply),
    CASE(faults),
    CASE(forms),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, cases);
}

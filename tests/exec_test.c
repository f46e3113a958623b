/*
 * exec_test.c -- kernels run end to end through the engine: divergence and
 * reconvergence, loops with divergent trip counts, divergent exit, device
 * function calls and recursion, barriers, and the faults a kernel can
 * commit (out-of-bounds, misaligned, deadlock, hang), each checked for the
 * right status and a report that says where.
 */
#include "check.h"
#include "ptx_run.h"

#include <math.h>
#include <stdlib.h>

#define HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

/* Each thread writes a value that depends on a nested divergent branch and a
 * loop whose trip count is its lane id: out[t] = sum(0..t%7) + (t odd ? 1000 : 0)
 * + (t % 4 == 0 ? 100 : 0). */
static void test_divergence(void)
{
    const char *ptx = HEADER
        ".visible .entry div(.param .u64 out)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n"
        " mov.u32 %r1, %tid.x;\n"
        " rem.u32 %r2, %r1, 7;\n"           /* trip count */
        " mov.u32 %r3, 0;\n mov.u32 %r4, 0;\n"
        "LOOP:\n setp.gt.u32 %p1, %r4, %r2;\n @%p1 bra DONE;\n"
        " add.u32 %r3, %r3, %r4;\n add.u32 %r4, %r4, 1;\n bra LOOP;\n"
        "DONE:\n and.b32 %r5, %r1, 1;\n setp.eq.u32 %p2, %r5, 0;\n @%p2 bra EVEN;\n"
        " add.u32 %r3, %r3, 1000;\n bra JOIN;\n"
        "EVEN:\n and.b32 %r6, %r1, 3;\n setp.ne.u32 %p3, %r6, 0;\n @%p3 bra JOIN;\n"
        " add.u32 %r3, %r3, 100;\n"
        "JOIN:\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r3;\n"
        " ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "divergence kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 64 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "div", 1, 64, 1, args);
    CHECK(st == PTX_OK, "divergence kernel runs: %s", e.err.msg);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t n = t % 7, want = n * (n + 1) / 2 + (t & 1 ? 1000 : 0) + (t % 4 == 0 ? 100 : 0);
        CHECK(out[t] == want, "thread %u: got %u want %u", t, out[t], want);
    }
    CHECK(e.stats.thread_insts < e.stats.warp_insts * 32, "SIMD efficiency below 100%% in divergent code");
    ptx_unload(&e);
}

/* ptxas's contraction (frontend/contract.c): a plain mul.f64 whose product
 * only feeds a plain sub is one fused multiply-add, as on an H200; a
 * product read twice, or a mul.rn, is rounded on its own; PTXSIM_FMAD=0
 * turns the contraction off.  The operands make x * y inexact in double
 * (1 + 2^-30 squared needs 61 bits), so fused and separate differ. */
static void test_contraction(void)
{
    const char *ptx = HEADER
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .f64 %fd<12>;\n .reg .b64 %rd<2>;\n"
        " ld.param.u64 %rd1, [out];\n"
        " mov.f64 %fd1, 0d3FF0000000400000;\n"             /* 1 + 2^-30 */
        " mov.f64 %fd2, 0d3FF0000000800000;\n"             /* 1 + 2^-29 */
        " mul.f64 %fd3, %fd1, %fd1;\n sub.f64 %fd4, %fd3, %fd2;\n"     /* fused: 2^-60 */
        " mul.f64 %fd5, %fd1, %fd1;\n sub.f64 %fd6, %fd2, %fd5;\n"     /* fused: -2^-60 */
        " mul.f64 %fd7, %fd1, %fd1;\n add.f64 %fd8, %fd7, %fd7;\n"     /* read twice: rounded */
        " mul.rn.f64 %fd9, %fd1, %fd1;\n sub.f64 %fd10, %fd9, %fd2;\n" /* mul.rn: rounded, 0 */
        " st.global.f64 [%rd1], %fd4;\n st.global.f64 [%rd1+8], %fd6;\n"
        " st.global.f64 [%rd1+16], %fd8;\n st.global.f64 [%rd1+24], %fd10;\n ret;\n}\n";
    for (int fmad = 1; fmad >= 0; fmad--) {
        if (!fmad)
            setenv("PTXSIM_FMAD", "0", 1);
        ptx_env e;
        if (!ptx_load(&e, ptx)) {
            CHECK(false, "contraction kernel loads");
            unsetenv("PTXSIM_FMAD");
            return;
        }
        double *out = ptx_alloc(&e, 4 * 8);
        uint64_t args[] = { (uint64_t)(uintptr_t)out };
        CHECK(ptx_launch(&e, "k", 1, 1, 1, args) == PTX_OK, "contraction kernel runs: %s", e.err.msg);
        double tiny = fmad ? 0x1p-60 : 0.0;
        CHECK(out[0] == tiny, "fmad=%d: mul then sub gave %a, want %a", fmad, out[0], tiny);
        CHECK(out[1] == -tiny, "fmad=%d: sub of a product gave %a, want %a", fmad, out[1], -tiny);
        CHECK(out[2] == 2 * (1 + 0x1p-29), "fmad=%d: a product read twice gave %a", fmad, out[2]);
        CHECK(out[3] == 0.0, "fmad=%d: mul.rn then sub gave %a, want 0", fmad, out[3]);
        ptx_unload(&e);
    }
    unsetenv("PTXSIM_FMAD");
}

/* Lanes exit at different points; the survivors still reach the barrier and
 * the store, and exited lanes do not hold the barrier up. */
static void test_divergent_exit_and_barrier(void)
{
    const char *ptx = HEADER
        ".visible .entry ex(.param .u64 out)\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
        " .shared .align 4 .b32 buf[128];\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " st.global.u32 [%rd3], 7;\n"
        " and.b32 %r2, %r1, 3;\n setp.eq.u32 %p1, %r2, 3;\n @%p1 exit;\n"      /* every 4th lane leaves */
        " mov.u32 %r3, buf;\n shl.b32 %r4, %r1, 2;\n add.u32 %r5, %r3, %r4;\n"
        " st.shared.u32 [%r5], %r1;\n"
        " bar.sync 0;\n"
        " xor.b32 %r6, %r1, 1;\n shl.b32 %r6, %r6, 2;\n add.u32 %r6, %r3, %r6;\n"
        " ld.shared.u32 %r7, [%r6];\n"                                         /* neighbour's value */
        " st.global.u32 [%rd3], %r7;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "exit kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 128 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "ex", 1, 128, 1, args);
    CHECK(st == PTX_OK, "exit kernel runs: %s", e.err.msg);
    for (uint32_t t = 0; t < 128; t++) {
        /* Exited lanes keep 7; the others read their neighbour (t^1), whose
         * slot is 0 (never written) if that neighbour exited. */
        uint32_t nb = t ^ 1, want = (t & 3) == 3 ? 7 : ((nb & 3) == 3 ? 0 : nb);
        CHECK(out[t] == want, "thread %u: got %u want %u", t, out[t], want);
    }
    ptx_unload(&e);
}

/* Thirty kernels with 40 KB of static shared memory each (module-scope
 * .shared variables, as CUB declares its temp_storage): 1.2 MB together,
 * more than a CTA's shared window, so the layout packs them.  Each
 * kernel's own variables stay apart; the two kernels that share
 * `common` keep it apart from both of theirs. */
#define PACK_KERNELS 30
static void test_shared_packing(void)
{
    static char ptx[PACK_KERNELS * 1024];
    int n = snprintf(ptx, sizeof ptx, "%s", HEADER
        ".shared .align 4 .b8 common[64];\n");
    for (int k = 0; k < PACK_KERNELS; k++)
        n += snprintf(ptx + n, sizeof ptx - (size_t)n,
            ".shared .align 16 .b8 big%d_a[20480];\n.shared .align 16 .b8 big%d_b[20480];\n"
            ".visible .entry k%d(.param .u64 out)\n{\n"
            " .reg .b32 %%r<12>;\n .reg .b64 %%rd<4>;\n"
            " ld.param.u64 %%rd1, [out];\n mov.u32 %%r1, %%tid.x;\n shl.b32 %%r2, %%r1, 2;\n"
            " mov.u32 %%r3, big%d_a;\n add.u32 %%r4, %%r3, %%r2;\n add.u32 %%r5, %%r1, %d;\n"
            " st.shared.u32 [%%r4], %%r5;\n"
            " mov.u32 %%r6, big%d_b;\n add.u32 %%r7, %%r6, %%r2;\n add.u32 %%r8, %%r1, %d;\n"
            " st.shared.u32 [%%r7], %%r8;\n%s"
            " bar.sync 0;\n ld.shared.u32 %%r9, [%%r4];\n ld.shared.u32 %%r10, [%%r7];\n"
            " add.u32 %%r11, %%r9, %%r10;\n"
            " mul.wide.u32 %%rd2, %%r1, 4;\n add.s64 %%rd3, %%rd1, %%rd2;\n st.global.u32 [%%rd3], %%r11;\n"
            " ret;\n}\n",
            k, k, k, k, 1000 * (k + 1), k, 100000 * (k + 1),
            k < 2 ? " mov.u32 %r9, common;\n st.shared.u32 [%r9], 5;\n" : "");
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "packing kernels load: %s", e.diag.msg);
        return;
    }
    uint32_t *out = ptx_alloc(&e, 64 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    for (int k = 0; k < PACK_KERNELS; k++) {
        char name[8];
        snprintf(name, sizeof name, "k%d", k);
        ptx_status st = ptx_launch(&e, name, 1, 64, 1, args);
        CHECK(st == PTX_OK, "kernel %s runs: %s", name, e.err.msg);
        for (uint32_t t = 0; t < 64; t++)
            CHECK(out[t] == 2 * t + 101000u * (uint32_t)(k + 1), "%s thread %u: got %u", name, t, out[t]);
        int idx = exec_program_kernel(e.p, name);
        uint32_t want = k < 2 ? 40960 + 64 : 40960;
        CHECK(idx >= 0 && exec_program_kernel_info(e.p, idx)->static_shared == want,
              "%s: %u bytes of static shared memory, want %u", name,
              idx >= 0 ? exec_program_kernel_info(e.p, idx)->static_shared : 0, want);
    }
    ptx_unload(&e);
}

/* A device function called from divergent code, and a recursive one. */
static void test_calls(void)
{
    const char *ptx = HEADER
        ".func (.param .b32 r) square_plus(.param .b32 x, .param .b32 y)\n{\n"
        " .reg .b32 %r<5>;\n ld.param.b32 %r1, [x];\n ld.param.b32 %r2, [y];\n"
        " mul.lo.s32 %r3, %r1, %r1;\n add.s32 %r4, %r3, %r2;\n st.param.b32 [r], %r4;\n ret;\n}\n"
        ".func (.param .b32 r) fib(.param .b32 n)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n"
        " ld.param.b32 %r1, [n];\n setp.lt.u32 %p1, %r1, 2;\n @%p1 bra BASE;\n"
        " sub.u32 %r2, %r1, 1;\n"
        " { .param .b32 a; .param .b32 b; st.param.b32 [a], %r2; call (b), fib, (a); ld.param.b32 %r3, [b]; }\n"
        " sub.u32 %r4, %r1, 2;\n"
        " { .param .b32 a; .param .b32 b; st.param.b32 [a], %r4; call (b), fib, (a); ld.param.b32 %r5, [b]; }\n"
        " add.u32 %r6, %r3, %r5;\n st.param.b32 [r], %r6;\n ret;\n"
        "BASE:\n st.param.b32 [r], %r1;\n ret;\n}\n"
        ".visible .entry calls(.param .u64 out)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, 5;\n"
        " and.b32 %r3, %r1, 1;\n setp.eq.u32 %p1, %r3, 0;\n @%p1 bra SKIP;\n"
        " { .param .b32 a0; .param .b32 a1; .param .b32 rv;\n"
        "   st.param.b32 [a0], %r1; st.param.b32 [a1], 3;\n"
        "   call.uni (rv), square_plus, (a0, a1);\n ld.param.b32 %r2, [rv]; }\n"
        "SKIP:\n and.b32 %r4, %r1, 15;\n"
        " { .param .b32 a; .param .b32 b; st.param.b32 [a], %r4; call (b), fib, (a); ld.param.b32 %r5, [b]; }\n"
        " mul.lo.u32 %r6, %r5, 1000;\n add.u32 %r7, %r6, %r2;\n"
        " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r7;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "calls kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 32 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "calls", 1, 32, 1, args);
    CHECK(st == PTX_OK, "calls kernel runs: %s", e.err.msg);
    uint32_t fib[16] = { 0, 1 };
    for (int i = 2; i < 16; i++)
        fib[i] = fib[i - 1] + fib[i - 2];
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t want = fib[t & 15] * 1000 + (t & 1 ? t * t + 3 : 5);
        CHECK(out[t] == want, "thread %u: got %u want %u", t, out[t], want);
    }
    ptx_unload(&e);
}

/* A function declared again after its definition (as a module joined from
 * two texts may do) keeps the parameters its body reads. */
static void test_redeclared_function(void)
{
    const char *ptx = HEADER
        ".func (.param .b32 r) inc(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n add.s32 %r2, %r1, 1;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".func (.param .b32 r2) inc(.param .b32 x2);\n"
        ".visible .entry redecl(.param .u64 out)\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, 41;\n"
        " { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1; call (rv), inc, (a); ld.param.b32 %r2, [rv]; }\n"
        " st.global.u32 [%rd1], %r2;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "redeclaration kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "redecl", 1, 1, 1, args);
    CHECK(st == PTX_OK && out[0] == 42, "call after a redeclaration: %u (%s)", out[0], e.err.msg);
    ptx_unload(&e);
}

/* Function addresses: a table of them in a global initialiser, a vtable
 * ({0, 0, f, g}, as C++ compilers lay one out), `mov` of a function's name,
 * and calls through a register whose lanes hold different functions.  Each
 * group of lanes runs its target and the warp is whole again after the
 * call (activemask), so the divergence is the call's alone. */
static void test_indirect_calls(void)
{
    const char *ptx = HEADER
        ".func (.param .b32 r) f0(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n add.s32 %r2, %r1, 1;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".func (.param .b32 r) f1(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n mul.lo.s32 %r2, %r1, 2;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        /* f2 diverges inside the call, and so must reconverge inside it first. */
        ".func (.param .b32 r) f2(.param .b32 x)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n mov.b32 %r2, 7;\n and.b32 %r0, %r1, 8;\n"
        " setp.ne.s32 %p1, %r0, 0;\n @%p1 bra BIG;\n sub.s32 %r2, %r1, 3;\n"
        "BIG:\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".global .align 8 .u64 tbl[3] = {f0, f1, f2};\n"
        ".global .align 8 .u64 vt[4] = {0, 0, f1, f2};\n"
        ".visible .entry icall(.param .u64 out)\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " rem.u32 %r2, %r1, 3;\n mul.wide.u32 %rd2, %r2, 8;\n"
        " mov.u64 %rd3, tbl;\n add.s64 %rd4, %rd3, %rd2;\n ld.global.u64 %rd5, [%rd4];\n"
        " { .param .b32 a; .param .b32 rv;\n st.param.b32 [a], %r1;\n"
        "   proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "   call (rv), %rd5, (a), proto;\n ld.param.b32 %r3, [rv]; }\n"
        " activemask.b32 %r4;\n"
        /* The vtable's slots 2 and 3, by lane parity, through a .calltargets list;
         * odd lanes 5, 11, 17, ... skip the call (a guard). */
        " and.b32 %r5, %r1, 1;\n mul.wide.u32 %rd6, %r5, 8;\n mov.u64 %rd7, vt;\n"
        " add.s64 %rd8, %rd7, %rd6;\n ld.global.u64 %rd9, [%rd8+16];\n"
        " rem.u32 %r6, %r1, 6;\n setp.eq.u32 %p1, %r6, 5;\n mov.u32 %r7, 0;\n"
        " { .param .b32 a; .param .b32 rv;\n st.param.b32 [a], %r1;\n"
        "   targets : .calltargets f1, f2;\n"
        "   @!%p1 call (rv), %rd9, (a), targets;\n @!%p1 ld.param.b32 %r7, [rv]; }\n"
        " activemask.b32 %r8;\n"
        /* mov of a name gives the address the table holds; no two differ
         * only by being 0. */
        " mov.u64 %rd10, f1;\n ld.global.u64 %rd11, [tbl+8];\n"
        " setp.eq.u64 %p2, %rd10, %rd11;\n selp.u32 %r9, 1, 0, %p2;\n"
        " mul.wide.u32 %rd2, %r1, 16;\n add.s64 %rd4, %rd1, %rd2;\n"
        " st.global.v4.u32 [%rd4], {%r3, %r4, %r7, %r8};\n"
        " setp.eq.u32 %p2, %r1, 0;\n @!%p2 bra DONE;\n"
        " ld.global.u64 %rd5, [tbl];\n ld.global.u64 %rd6, [tbl+16];\n"
        " st.global.u64 [%rd1+1024], %rd5;\n st.global.u64 [%rd1+1032], %rd11;\n"
        " st.global.u64 [%rd1+1040], %rd6;\n st.global.u32 [%rd1+1048], %r9;\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "indirect-call kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 2048);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "icall", 1, 32, 1, args);
    CHECK(st == PTX_OK, "indirect-call kernel runs: %s", e.err.msg);
    unsigned bad = 0;
    for (uint32_t t = 0; t < 32 && st == PTX_OK; t++) {
        int32_t x = (int32_t)t;
        int32_t f2 = x & 8 ? 7 : x - 3;
        int32_t want0 = t % 3 == 0 ? x + 1 : t % 3 == 1 ? 2 * x : f2;
        int32_t want2 = t % 6 == 5 ? 0 : t & 1 ? f2 : 2 * x;
        const uint32_t *o = out + t * 4;
        if ((int32_t)o[0] != want0 || o[1] != 0xFFFFFFFFu || (int32_t)o[2] != want2 || o[3] != 0xFFFFFFFFu) {
            bad++;
            printf("thread %u: %d %08x %d %08x, want %d ffffffff %d ffffffff\n", t, (int32_t)o[0], o[1],
                   (int32_t)o[2], o[3], want0, want2);
        }
    }
    CHECK(bad == 0, "divergent calls through a table and a vtable (%u threads wrong)", bad);
    uint64_t a[3];
    memcpy(a, out + 256, sizeof a);
    CHECK(a[0] && a[1] && a[2] && a[0] != a[1] && a[1] != a[2] && a[0] != a[2],
          "function addresses are non-zero and distinct: 0x%llx 0x%llx 0x%llx", (unsigned long long)a[0],
          (unsigned long long)a[1], (unsigned long long)a[2]);
    CHECK(out[262] == 1, "mov of a function's name gives the address its initialiser holds");
    ptx_unload(&e);

    /* A call through a value that is no function's address is reported at
     * the call, naming the address. */
    const char *bad_ptx = HEADER
        ".func f0()\n{\n ret;\n}\n"
        ".visible .entry wild(.param .u64 out)\n{\n .reg .b64 %rd<3>;\n"
        " ld.param.u64 %rd1, [out];\n add.s64 %rd2, %rd1, 4;\n"
        " { proto : .callprototype ()_ ();\n call %rd2, (), proto; }\n ret;\n}\n";
    if (!ptx_load(&e, bad_ptx)) {
        CHECK(false, "wild-call kernel loads");
        return;
    }
    st = ptx_launch(&e, "wild", 1, 32, 1, args);
    CHECK(st == PTX_E_ILLEGAL_INSTRUCTION && e.err.ptx_line == 14 && strstr(e.err.msg, "not the address of a device function"),
          "call through a wild pointer: %s (line %u)", e.err.msg, e.err.ptx_line);
    ptx_unload(&e);
}

/* Addresses of variables in initialisers: plain, generic(), with offsets, a
 * pointer to a pointer, and the byte-mask form compilers use for a pointer
 * in a packed structure.  Each must equal the address ld/st use. */
static void test_address_initialisers(void)
{
    const char *ptx = HEADER
        ".global .align 4 .b8 gv[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};\n"
        ".global .align 8 .u64 p[2] = {gv, gv+8};\n"
        ".global .align 8 .u64 q[2] = {generic(gv), generic(gv)+12};\n"
        ".global .align 8 .u64 pp = generic(q)+8;\n"
        ".const .align 8 .u64 cp = generic(gv)+4;\n"
        ".global .align 8 .u8 pk[16] = {3, 0, 0, 0, 0, 0, 0, 0, 0xFF(generic(gv)+4), 0xFF00(generic(gv)+4), 0xFF0000(generic(gv)+4),"
        " 0xFF000000(generic(gv)+4), 0xFF00000000(generic(gv)+4), 0xFF0000000000(generic(gv)+4),"
        " 0xFF000000000000(generic(gv)+4), 0xFF00000000000000(generic(gv)+4)};\n"
        ".visible .entry addrs(.param .u64 out)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
        " ld.param.u64 %rd1, [out];\n"
        " ld.global.u64 %rd2, [p+8];\n ld.u32 %r1, [%rd2];\n"          /* gv[2] = 3 */
        " ld.global.u64 %rd3, [q+8];\n ld.u32 %r2, [%rd3];\n"          /* gv[3] = 4 */
        " ld.global.u64 %rd4, [pp];\n ld.u64 %rd4, [%rd4];\n ld.u32 %r3, [%rd4];\n"  /* *q[1] = 4 */
        " ld.const.u64 %rd5, [cp];\n ld.u32 %r4, [%rd5];\n"            /* gv[1] = 2 */
        " ld.global.u64 %rd6, [pk+8];\n ld.u32 %r5, [%rd6];\n"         /* gv[1] = 2 */
        " mov.u64 %rd7, gv;\n ld.global.u64 %rd6, [p];\n"
        " setp.eq.u64 %p1, %rd6, %rd7;\n selp.u32 %r6, 1, 0, %p1;\n"
        " st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n st.global.v2.u32 [%rd1+16], {%r5, %r6};\n"
        " ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "address-initialiser kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 64);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "addrs", 1, 1, 1, args);
    CHECK(st == PTX_OK, "address-initialiser kernel runs: %s", e.err.msg);
    CHECK(out[0] == 3 && out[1] == 4 && out[2] == 4 && out[3] == 2 && out[4] == 2 && out[5] == 1,
          "addresses in initialisers: %u %u %u %u %u %u, want 3 4 4 2 2 1", out[0], out[1], out[2], out[3],
          out[4], out[5]);
    ptx_unload(&e);
}

/* Two modules as nvcc -rdc=true makes them, linked: a kernel in one calls
 * an .extern function and reads an .extern variable the other defines;
 * each has a private function and string of the same name; a .weak
 * function both define runs the first definition; the other module's
 * function-pointer table names a function of the first.  Then two .visible
 * definitions of one name, which must be refused naming both places. */
static void run_linked(isa_module *m, const char *what);

static void test_link(void)
{
    const char *a = HEADER
        ".extern .func (.param .b32 r) g(.param .b32 x);\n"
        ".extern .global .align 4 .u32 v;\n"
        ".extern .global .align 8 .u64 tbl[2];\n"
        ".global .align 1 .b8 $str[2] = {65, 0};\n"
        ".global .align 8 .u64 pv = v;\n"
        ".func (.param .f64 r) musub(.param .f64 x)\n{\n .reg .f64 %fd<4>;\n"
        " ld.param.f64 %fd1, [x];\n mul.f64 %fd2, %fd1, %fd1;\n sub.f64 %fd3, %fd2, %fd1;\n st.param.f64 [r], %fd3;\n ret;\n}\n"
        ".func (.param .b32 r) h(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n add.s32 %r2, %r1, 1000;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".weak .func (.param .b32 r) w(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n add.s32 %r2, %r1, 1;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".visible .func (.param .b32 r) fa(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n mul.lo.s32 %r2, %r1, 7;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".visible .entry ka(.param .u64 out)\n{\n .reg .b32 %r<10>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1; call (rv), g, (a); ld.param.b32 %r2, [rv]; }\n"
        " { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1; call (rv), h, (a); ld.param.b32 %r3, [rv]; }\n"
        " { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1; call (rv), w, (a); ld.param.b32 %r4, [rv]; }\n"
        " and.b32 %r5, %r1, 1;\n mul.wide.u32 %rd2, %r5, 8;\n mov.u64 %rd3, tbl;\n add.s64 %rd3, %rd3, %rd2;\n"
        " ld.global.u64 %rd4, [%rd3];\n"
        " { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1;\n"
        "   p : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "   call (rv), %rd4, (a), p; ld.param.b32 %r6, [rv]; }\n"
        " ld.global.u32 %r7, [v];\n ld.global.u8 %r8, [$str];\n"
        " mul.wide.u32 %rd2, %r1, 32;\n add.s64 %rd5, %rd1, %rd2;\n"
        " st.global.v4.u32 [%rd5], {%r2, %r3, %r4, %r6};\n st.global.v2.u32 [%rd5+16], {%r7, %r8};\n ret;\n}\n";
    const char *b = HEADER
        ".extern .func (.param .b32 r) fa(.param .b32 x);\n"
        ".func (.param .b32 r) h(.param .b32 x);\n"
        ".global .align 1 .b8 $str[2] = {66, 0};\n"
        ".visible .global .align 4 .u32 v = 42;\n"
        ".visible .func (.param .b32 r) g(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1;"
        " call (rv), h, (a); ld.param.b32 %r2, [rv]; }\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".func (.param .b32 r) h(.param .b32 x)\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n"
        " ld.param.b32 %r1, [x];\n ld.global.u8 %r2, [$str];\n add.s32 %r2, %r2, %r1;\n"
        " st.param.b32 [r], %r2;\n ret;\n}\n"
        ".weak .func (.param .b32 r) w(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.b32 %r1, [x];\n add.s32 %r2, %r1, 2;\n st.param.b32 [r], %r2;\n ret;\n}\n"
        ".visible .global .align 8 .u64 tbl[2] = {fa, g};\n";
    ptx_diag d = {0};
    isa_module *ma = fe_parse(a, strlen(a), "a.ptx", &d), *mb = fe_parse(b, strlen(b), "b.ptx", &d);
    CHECK(ma && mb, "both units parse: %s", d.msg);
    isa_module *units[2] = { ma, mb };
    isa_module *m = ma && mb ? fe_link(units, 2, "ab", &d) : NULL;
    CHECK(m != NULL, "the units link: %s", d.msg);
    run_linked(m, "linked");

    /* cuLinkComplete's image is the linked module printed: it must parse
     * again (and ptxas take it) -- each unit's private $str printed apart,
     * v's definition before pv's initialiser that holds its address, and
     * the sub of a product as written, not as a contracted fma of -%fd1. */
    isa_module *wa = fe_parse_as_written(a, strlen(a), "a.ptx", &d), *wb = fe_parse_as_written(b, strlen(b), "b.ptx", &d);
    isa_module *written[2] = { wa, wb };
    isa_module *wl = wa && wb ? fe_link(written, 2, "ab", &d) : NULL;
    char *printed = NULL;
    size_t plen = 0;
    FILE *pf = wl ? open_memstream(&printed, &plen) : NULL;
    if (pf) {
        fe_print(pf, wl);
        fclose(pf);
    }
    isa_module *again = printed ? fe_parse(printed, plen, "printed", &d) : NULL;
    CHECK(again != NULL, "the printed linked module parses again: %u:%u %s", d.line, d.col, d.msg);
    CHECK(printed && !strstr(printed, "-%") && strstr(printed, "sub.f64"), "printed as written, not contracted");
    if (again)
        run_linked(again, "printed and parsed again");
    free(printed);
    isa_module_free(again);
    isa_module_free(wl);
    isa_module_free(wa);
    isa_module_free(wb);

    const char *c = HEADER ".visible .func fa()\n{\n ret;\n}\n";
    memset(&d, 0, sizeof d);
    isa_module *mc = fe_parse(c, strlen(c), "c.ptx", &d);
    isa_module *twice[2] = { ma, mc };
    isa_module_free(m);
    isa_module_free(mb);
    m = ma && mc ? fe_link(twice, 2, "ac", &d) : NULL;
    CHECK(m == NULL && d.st == PTX_E_SYNTAX && d.line == 4 && d.file && strcmp(d.file, "c.ptx") == 0 &&
          strstr(d.msg, "'fa' is defined here and in a.ptx (line 34)"),
          "two definitions: %s:%u: %s", d.file ? d.file : "?", d.line, d.msg);
    isa_module_free(m);
    isa_module_free(mc);
    isa_module_free(ma);
}

/* Run test_link's kernel ka of linked module m and check what it wrote. */
static void run_linked(isa_module *m, const char *what)
{
    ptx_diag d = {0};
    exec_memory *mem = exec_memory_new(1ull << 30);
    exec_program *p = NULL;
    if (m && mem && exec_program_load(mem, m, &p, &d) == PTX_OK) {
        uint64_t addr;
        uint32_t *out = exec_malloc(mem, 32 * 32, 256, &addr) == PTX_OK ? (uint32_t *)(uintptr_t)addr : NULL;
        uint8_t params[8];
        memcpy(params, &addr, 8);
        exec_launch l = { .args = params, .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .nsm = 1 };
        exec_stats stats = {0};
        exec_error err = {0};
        ptx_status st = out ? exec_launch_run(p, exec_program_kernel(p, "ka"), &l, &stats, &err) : PTX_E_NOMEM;
        CHECK(st == PTX_OK, "%s: linked kernel runs: %s", what, err.msg);
        unsigned bad = 0;
        for (uint32_t t = 0; t < 32 && st == PTX_OK; t++) {
            const uint32_t *o = out + t * 8;
            uint32_t want_ptr = t & 1 ? 66 + t : 7 * t;
            bad += o[0] != 66 + t || o[1] != 1000 + t || o[2] != t + 1 || o[3] != want_ptr || o[4] != 42 || o[5] != 65;
        }
        CHECK(bad == 0, "%s: calls and variables across units resolve (%u threads wrong)", what, bad);
        uint64_t vaddr, vbytes;
        CHECK(exec_program_symbol(p, "v", &vaddr, &vbytes) && *(uint32_t *)(uintptr_t)vaddr == 42,
              "%s: the defined variable, not the declaration, is found by name", what);
        uint64_t pvaddr, pvbytes;
        CHECK(exec_program_symbol(p, "pv", &pvaddr, &pvbytes) && *(uint64_t *)(uintptr_t)pvaddr == vaddr,
              "%s: pv's initialiser holds v's address", what);
        exec_program_free(p);
    } else {
        CHECK(false, "%s: the linked module loads: %s", what, d.msg);
    }
    exec_memory_free(mem);
}

static ptx_status run_fault_checked(const char *body, const char *kernel, uint32_t block, exec_error *err,
                                    uint64_t max_insts, bool check)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HEADER ".visible .entry %s(.param .u64 buf)\n{\n"
             " .reg .pred %%p<3>;\n .reg .b32 %%r<8>;\n .reg .b64 %%rd<6>;\n"
             " .shared .align 4 .b32 sh[32];\n%s}\n", kernel, body);
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return PTX_E_SYNTAX;
    void *buf = ptx_alloc(&e, 400);
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    uint32_t g[3] = { 2, 1, 1 }, b[3] = { block, 1, 1 };
    int k = exec_program_kernel(e.p, kernel);
    uint8_t params[8];
    memcpy(params, &args[0], 8);
    exec_launch l = { .args = params, .max_warp_insts = max_insts, .nsm = 1, .check_memory = check };
    memcpy(l.grid, g, sizeof g);
    memcpy(l.block, b, sizeof b);
    exec_stats stats = {0};
    ptx_status st = exec_launch_run(e.p, k, &l, &stats, err);
    ptx_unload(&e);
    return st;
}

/* Race check: run body (one block of `block` threads) with --check race;
 * returns the hazards reported and the first report's text in first. */
static void count_race(void *ctx, const exec_race_report *r)
{
    char *first = ctx;
    if (!first[0])
        snprintf(first, 1024, "%s", r->msg);
}

static uint64_t run_race(const char *body, uint32_t block, char first[1024])
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HEADER ".visible .entry racy(.param .u64 buf)\n{\n"
             " .reg .pred %%p<3>;\n .reg .b32 %%r<8>;\n .reg .b64 %%rd<6>;\n"
             " .shared .align 4 .b32 sh[64];\n%s}\n", body);
    first[0] = 0;
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return UINT64_MAX;
    uint8_t params[8] = {0};
    exec_launch l = { .grid = { 1, 1, 1 }, .block = { block, 1, 1 }, .args = params, .nsm = 1,
                      .check_race = true, .on_race = count_race, .race_ctx = first };
    exec_stats stats = {0};
    exec_error err;
    ptx_status st = exec_launch_run(e.p, exec_program_kernel(e.p, "racy"), &l, &stats, &err);
    ptx_unload(&e);
    return st == PTX_OK ? stats.races : UINT64_MAX;
}

static void test_race(void)
{
    char first[1024];
    /* Each thread writes its word, a barrier, then reads its neighbour's:
     * ordered. */
    const char *write_own = " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n st.shared.u32 [%r2], %r1;\n";
    const char *read_next = " add.u32 %r3, %r1, 1;\n and.b32 %r3, %r3, 63;\n shl.b32 %r3, %r3, 2;\n"
                            " ld.shared.u32 %r4, [%r3];\n ret;\n";
    char body[1024];
    snprintf(body, sizeof body, "%s%s%s", write_own, " bar.sync 0;\n", read_next);
    uint64_t n = run_race(body, 64, first);
    CHECK(n == 0, "barrier orders the accesses: %llu hazards (%s)", (unsigned long long)n, first);
    /* Without the barrier, thread 31 reads word 32 of warp 1 (unwritten when
     * warp 0 runs first): warp 1's write then follows an unordered read. */
    snprintf(body, sizeof body, "%s%s%s", write_own, "", read_next);
    n = run_race(body, 64, first);
    CHECK(n >= 1 && strstr(first, "hazard on shared memory in kernel 'racy', block (0,0,0)") &&
              strstr(first, "('sh' + ") &&
              strstr(first, "with no"),
          "missing barrier: %llu hazards: %s", (unsigned long long)n, first);
    /* Within one warp, __syncwarp (bar.warp.sync) orders lanes. */
    snprintf(body, sizeof body, "%s%s%s", write_own, " bar.warp.sync -1;\n", read_next);
    n = run_race(body, 32, first);
    CHECK(n == 0, "bar.warp.sync orders a warp's lanes: %llu hazards (%s)", (unsigned long long)n, first);
    snprintf(body, sizeof body, "%s%s%s", write_own, "", read_next);
    n = run_race(body, 32, first);
    CHECK(n == 1 && strstr(first, "read-after-write") && strstr(first, "(the threads share a warp)"),
          "lanes of one warp without __syncwarp: %llu hazards: %s", (unsigned long long)n, first);
    /* Many lanes reading one word is fine; two lanes writing it in one
     * instruction is a race; atomics are not races. */
    n = run_race(" mov.u32 %r1, 0;\n ld.shared.u32 %r2, [%r1];\n ret;\n", 64, first);
    CHECK(n == 0, "shared reads: %llu hazards (%s)", (unsigned long long)n, first);
    n = run_race(" mov.u32 %r1, %tid.x;\n mov.u32 %r2, 0;\n st.shared.u32 [%r2], %r1;\n ret;\n", 32, first);
    CHECK(n == 1 && strstr(first, "write-after-write"), "same-instruction writes: %llu: %s",
          (unsigned long long)n, first);
    n = run_race(" mov.u32 %r2, 0;\n atom.shared.add.u32 %r1, [%r2], 1;\n ret;\n", 64, first);
    CHECK(n == 0, "atomics: %llu hazards (%s)", (unsigned long long)n, first);
    /* Warp 0's 32 lanes read word 0, then warp 1's; after its __syncwarp,
     * thread 32's write still races with warp 0's reads (a reader summary
     * of the last two distinct threads would keep only warp 1's). */
    n = run_race(" mov.u32 %r1, %tid.x;\n mov.u32 %r2, 0;\n ld.shared.u32 %r3, [%r2];\n bar.warp.sync -1;\n"
                 " setp.ne.u32 %p1, %r1, 32;\n @%p1 ret;\n st.shared.u32 [%r2], %r1;\n ret;\n", 64, first);
    CHECK(n == 1 && strstr(first, "write-after-read") && strstr(first, "thread (32,0,0) wrote"),
          "write after many readers: %llu hazards: %s", (unsigned long long)n, first);
    /* Warp 0's lanes write their words; lane 0 publishes them with a
     * release store of a flag, which warp 1 acquires (all its lanes, or
     * lane 0 and then a __syncwarp) before reading them.  A __syncwarp
     * between the writes and lane 0's release carries the order; without
     * one the other lanes' writes are unpublished. */
    const char *hand_over =
        " mov.u32 %%r1, %%tid.x;\n and.b32 %%r2, %%r1, 31;\n shl.b32 %%r2, %%r2, 2;\n"
        " setp.ge.u32 %%p1, %%r1, 32;\n @%%p1 bra READER;\n"
        " st.shared.u32 [%%r2], %%r1;\n%s"
        " setp.ne.u32 %%p2, %%r1, 0;\n @%%p2 ret;\n mov.u32 %%r3, 1;\n st.release.cta.shared.u32 [160], %%r3;\n ret;\n"
        "READER:\n%s"
        "SPIN:\n ld.acquire.cta.shared.u32 %%r5, [160];\n setp.eq.u32 %%p2, %%r5, 0;\n @%%p2 bra SPIN;\n"
        "READ:\n%s ld.shared.u32 %%r4, [%%r2];\n ret;\n";
    const char *lane0_only = " setp.ne.u32 %p2, %r1, 32;\n @%p2 bra READ;\n";
    snprintf(body, sizeof body, hand_over, " bar.warp.sync -1;\n", "", "");
    n = run_race(body, 64, first);
    CHECK(n == 0, "__syncwarp, then lane 0's release: %llu hazards (%s)", (unsigned long long)n, first);
    snprintf(body, sizeof body, hand_over, " bar.warp.sync -1;\n", lane0_only, " bar.warp.sync -1;\n");
    n = run_race(body, 64, first);
    CHECK(n == 0, "release, lane 0's acquire, then __syncwarp: %llu hazards (%s)", (unsigned long long)n, first);
    snprintf(body, sizeof body, hand_over, "", "", "");
    n = run_race(body, 64, first);
    CHECK(n == 1 && strstr(first, "read-after-write") && strstr(first, "thread (1,0,0) wrote"),
          "lane 0's release without a __syncwarp publishes only its own write: %llu hazards: %s",
          (unsigned long long)n, first);
}

/* Global race check: run body on `grid` blocks of `block` threads with a
 * zeroed 256-byte buffer in %rd1 and %r1 the thread's index in the grid;
 * returns the hazards reported and the first report's text in first. */
static uint64_t run_race_global(const char *body, uint32_t grid, uint32_t block, char first[1024])
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HEADER ".visible .entry gracy(.param .u64 buf)\n{\n"
             " .reg .pred %%p<3>;\n .reg .b32 %%r<8>;\n .reg .b64 %%rd<6>;\n"
             " .shared .align 4 .b32 sh[64];\n"
             " ld.param.u64 %%rd1, [buf];\n mov.u32 %%r1, %%ctaid.x;\n mov.u32 %%r2, %%ntid.x;\n"
             " mov.u32 %%r3, %%tid.x;\n mad.lo.u32 %%r1, %%r1, %%r2, %%r3;\n%s}\n", body);
    first[0] = 0;
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return UINT64_MAX;
    uint64_t buf = (uint64_t)(uintptr_t)ptx_alloc(&e, 256);
    uint8_t params[8];
    memcpy(params, &buf, 8);
    exec_launch l = { .grid = { grid, 1, 1 }, .block = { block, 1, 1 }, .args = params, .nsm = 1,
                      .check_race = true, .check_race_global = true, .on_race = count_race,
                      .race_ctx = first };
    exec_stats stats = {0};
    exec_error err;
    ptx_status st = exec_launch_run(e.p, exec_program_kernel(e.p, "gracy"), &l, &stats, &err);
    ptx_unload(&e);
    return st == PTX_OK ? stats.races : UINT64_MAX;
}

static void test_race_global(void)
{
    char first[1024];
    /* Every block's thread 0 writes word 0: blocks are never ordered. */
    uint64_t n = run_race_global(" setp.ne.u32 %p1, %r3, 0;\n @%p1 ret;\n st.global.u32 [%rd1], %r1;\n ret;\n",
                                 2, 32, first);
    CHECK(n == 1 && strstr(first, "write-after-write hazard on global memory in kernel 'gracy' at global address 0x") &&
              strstr(first, ", 0 bytes into the 256-byte allocation at 0x") &&
              strstr(first, "block (1,0,0) thread (0,0,0) wrote 4 bytes at PTX line") &&
              strstr(first, "after block (0,0,0) thread (0,0,0) wrote it") &&
              strstr(first, "nothing ordering the two blocks"),
          "two blocks writing one word: %llu hazards: %s", (unsigned long long)n, first);
    /* Each thread its own word (a byte each: one word holds four threads'
     * bytes, told apart by the byte mask); and atomics on one word. */
    n = run_race_global(" cvt.u64.u32 %rd2, %r1;\n add.u64 %rd2, %rd1, %rd2;\n st.global.u8 [%rd2], %r1;\n"
                        " ld.global.u8 %r4, [%rd2];\n ret;\n", 4, 64, first);
    CHECK(n == 0, "own bytes: %llu hazards (%s)", (unsigned long long)n, first);
    n = run_race_global(" atom.global.add.u32 %r4, [%rd1], 1;\n red.global.add.u32 [%rd1+4], 1;\n ret;\n", 4, 64,
                        first);
    CHECK(n == 0, "atomics: %llu hazards (%s)", (unsigned long long)n, first);
    /* Block 0 writes word 1 then raises a flag in word 0; block 1 reads the
     * flag then word 1.  Ordered only with a fence on both sides and a
     * strong flag. */
    const char *pc_fmt = " setp.ne.u32 %%p1, %%r3, 0;\n @%%p1 ret;\n mov.u32 %%r5, %%ctaid.x;\n"
                         " setp.ne.u32 %%p2, %%r5, 0;\n @%%p2 bra CONSUME;\n st.global.u32 [%%rd1+4], 42;\n%s"
                         " st%s.global.u32 [%%rd1], 1;\n ret;\nCONSUME:\n ld%s.global.u32 %%r6, [%%rd1];\n%s"
                         " ld.global.u32 %%r7, [%%rd1+4];\n ret;\n";
    char body[1024];
    snprintf(body, sizeof body, pc_fmt, " membar.gl;\n", ".volatile", ".volatile", " fence.sc.gpu;\n");
    n = run_race_global(body, 2, 32, first);
    CHECK(n == 0, "fenced flag: %llu hazards (%s)", (unsigned long long)n, first);
    snprintf(body, sizeof body, pc_fmt, "", "", ".volatile", "");
    n = run_race_global(body, 2, 32, first);
    CHECK(n == 2 && strstr(first, "read-after-write hazard on global memory") &&
              strstr(first, "block (1,0,0) thread (0,0,0) read 4 bytes"),
          "plain flag: %llu hazards: %s", (unsigned long long)n, first);
    /* In one block, a barrier orders warps. */
    const char *neighbour = " cvt.u64.u32 %%rd2, %%r1;\n shl.b64 %%rd2, %%rd2, 2;\n add.u64 %%rd2, %%rd1, %%rd2;\n"
                            " st.global.u32 [%%rd2], %%r1;\n%s xor.b32 %%r4, %%r1, 32;\n cvt.u64.u32 %%rd3, %%r4;\n"
                            " shl.b64 %%rd3, %%rd3, 2;\n add.u64 %%rd3, %%rd1, %%rd3;\n ld.global.u32 %%r5, [%%rd3];\n ret;\n";
    snprintf(body, sizeof body, neighbour, " bar.sync 0;\n");
    n = run_race_global(body, 1, 64, first);
    CHECK(n == 0, "barrier: %llu hazards (%s)", (unsigned long long)n, first);
    snprintf(body, sizeof body, neighbour, "");
    n = run_race_global(body, 1, 64, first);
    CHECK(n >= 1 && strstr(first, "hazard on global memory") && strstr(first, "with no barrier between them"),
          "no barrier: %llu hazards: %s", (unsigned long long)n, first);
}

static ptx_status run_fault(const char *body, const char *kernel, uint32_t block, exec_error *err,
                            uint64_t max_insts)
{
    return run_fault_checked(body, kernel, block, err, max_insts, false);
}

static void test_faults(void)
{
    exec_error err;
    /* A wild store far past the only buffer (small overruns that stay in
     * mapped device memory are what --check memory is for). */
    ptx_status st = run_fault(
        " ld.param.u64 %rd1, [buf];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n setp.lt.u32 %p1, %r1, 5;\n @%p1 bra END;\n"
        " st.global.u32 [%rd3+0x40000000], %r1;\nEND:\n ret;\n", "oob", 128, &err, 0);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS, "wild store is an illegal address, got %s", ptx_status_name(st));
    CHECK(strstr(err.msg, "block (0,0,0) thread (5,0,0) wrote 4 bytes at global address") != NULL &&
              strstr(err.msg, "PTX line 16") != NULL && strstr(err.msg, "past the end of the 400-byte allocation") != NULL,
          "report names thread, line and allocation: %s", err.msg);
    /* Off by one: 100 words, thread 100 of block 0 writes one past the end.
     * Unchecked, that lands in mapped device memory, as on a GPU; with memory
     * checking it is reported with the allocation it missed. */
    const char *off_by_one =
        " ld.param.u64 %rd1, [buf];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n setp.gt.u32 %p1, %r1, 100;\n @%p1 bra END;\n"
        " st.global.u32 [%rd3], %r1;\nEND:\n ret;\n";
    st = run_fault_checked(off_by_one, "obo", 128, &err, 0, false);
    CHECK(st == PTX_OK, "unchecked off-by-one goes unnoticed, got %s", ptx_status_name(st));
    st = run_fault_checked(off_by_one, "obo", 128, &err, 0, true);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS && strstr(err.msg, "thread (100,0,0) wrote 4 bytes") &&
              strstr(err.msg, "0 bytes past the end of the 400-byte allocation"), "checked off-by-one: %s", err.msg);
    /* Misaligned 8-byte load. */
    st = run_fault(" ld.param.u64 %rd1, [buf];\n ld.global.u64 %rd2, [%rd1+4];\n ret;\n", "mis", 32, &err, 0);
    CHECK(st == PTX_E_MISALIGNED, "misaligned load, got %s", ptx_status_name(st));
    /* Shared memory past the CTA's allocation. */
    st = run_fault(" mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 3;\n st.shared.u32 [%r2], %r1;\n ret;\n",
                   "shoob", 32, &err, 0);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS && strstr(err.msg, "shared address"), "shared overflow: %s", err.msg);
    /* Null pointer through a generic load. */
    st = run_fault(" mov.u64 %rd1, 0;\n ld.u32 %r1, [%rd1];\n ret;\n", "null", 32, &err, 0);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS, "null load, got %s", ptx_status_name(st));
    /* mma.sp whose metadata differs from chunk to chunk: the ISA places it
     * only in figures, so ptxsim says so instead of guessing; one nibble
     * repeated runs; a nibble naming one column twice is undefined. */
    const char *sparse =
        " mov.b32 %%r1, 0x%08x;\n mov.b32 %%r2, 0x3C003C00;\n"
        " mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%r3, %%r4, %%r5, %%r6}, {%%r2, %%r2}, {%%r2, %%r2},"
        " {%%r2, %%r2, %%r2, %%r2}, %%r1, 1;\n ret;\n";
    char body[512];
    snprintf(body, sizeof body, sparse, 0x00000048u);
    st = run_fault(body, "sp_mixed", 32, &err, 0);
    CHECK(st == PTX_E_UNSUPPORTED && err.ptx_line == 12 && strstr(err.msg, "`mma.sp.f32`") &&
              strstr(err.msg, "differs from chunk to chunk") && strstr(err.msg, "only in figures"),
          "mma.sp with mixed metadata: %s", err.msg);
    snprintf(body, sizeof body, sparse, 0x44444444u);
    st = run_fault(body, "sp_uniform", 32, &err, 0);
    CHECK(st == PTX_OK, "mma.sp with one nibble: %s", err.msg);
    snprintf(body, sizeof body, sparse, 0x55555555u);
    st = run_fault(body, "sp_twice", 32, &err, 0);
    CHECK(st == PTX_E_UNSUPPORTED && strstr(err.msg, "naming one column twice"), "mma.sp 0b0101: %s", err.msg);
    /* A barrier that half the block never reaches. */
    st = run_fault(" mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 32;\n @%p1 bra WAIT;\n"
                   " LOOP: bra LOOP2;\n LOOP2: bar.sync 1;\n ret;\nWAIT:\n bar.sync 0;\n ret;\n",
                   "dead", 64, &err, 0);
    CHECK(st == PTX_E_DEADLOCK && strstr(err.msg, "deadlock") && strstr(err.msg, "warp 0 at barrier 0"),
          "deadlock report: %s", err.msg);
    /* A barrier inside divergent code of one warp, whose other lanes have
     * more to do after it.  (Lanes that only return do not hold a barrier
     * up: test_return_before_barrier.) */
    st = run_fault(" mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 16;\n @%p1 bra SKIP;\n bar.sync 0;\n"
                   "SKIP:\n add.u32 %r1, %r1, 1;\n ret;\n", "divbar", 32, &err, 0);
    CHECK(st == PTX_E_DEADLOCK, "barrier in divergent code, got %s", ptx_status_name(st));
    st = run_fault(" mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 16;\n @%p1 bra SKIP;\n bar.sync 0;\n"
                   "SKIP:\n ret;\n", "divret", 32, &err, 0);
    CHECK(st == PTX_OK, "a barrier some lanes return before completes without them, got %s",
          ptx_status_name(st));
    /* An infinite loop is stopped by the budget. */
    st = run_fault("SPIN:\n bra SPIN;\n", "spin", 32, &err, 100000);
    CHECK(st == PTX_E_HANG && strstr(err.msg, "is hung: it ran 100000 warp-instructions"), "hang report: %s", err.msg);
    /* pmevent (__prof_trigger) changes nothing; its event must be 0-15,
     * a .mask 16 bits. */
    st = run_fault(" pmevent 15;\n pmevent.mask 0xffff;\n ret;\n", "pm", 32, &err, 0);
    CHECK(st == PTX_OK, "pmevent, got %s", ptx_status_name(st));
    st = run_fault(" pmevent 16;\n ret;\n", "pm16", 32, &err, 0);
    CHECK(st == PTX_E_UNSUPPORTED, "pmevent 16, got %s", ptx_status_name(st));
    /* trap */
    st = run_fault(" trap;\n", "trapper", 32, &err, 0);
    CHECK(st == PTX_E_TRAP, "trap, got %s", ptx_status_name(st));
}

/* The stepping contract: a caller steps a subset of a warp's lanes; the
 * others wait at the same pc and the two groups reconverge. */
static void test_stepping(void)
{
    const char *ptx = HEADER
        ".visible .entry st(.param .u64 out)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " ld.global.u32 %r2, [%rd3];\n"
        " add.u32 %r3, %r2, %r1;\n"
        " setp.lt.u32 %p1, %r1, 8;\n @%p1 bra SKIP;\n"
        " mul.lo.u32 %r3, %r3, 2;\n"
        "SKIP:\n st.global.u32 [%rd3], %r3;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "stepping kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 32 * 4);
    for (uint32_t t = 0; t < 32; t++)
        out[t] = 100 * t;
    uint64_t arg = (uint64_t)(uintptr_t)out;
    int k = exec_program_kernel(e.p, "st");
    exec_launch l = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .args = &arg, .nsm = 1 };
    exec_grid *g;
    exec_cta *c;
    exec_error err = {0};
    exec_stats stats = {0};
    CHECK(exec_grid_begin(e.p, k, &l, &g, &err) == PTX_OK, "grid begins");
    CHECK(exec_cta_begin(g, 0, 0, &c) == PTX_OK, "cta begins");
    exec_warp *w = exec_cta_warp(c, 0);
    exec_record rec;
    unsigned steps = 0, split_done = 0;
    while (exec_warp_state(w) == EXEC_WARP_RUNNING && steps < 200) {
        const isa_inst *in = exec_warp_inst(w);
        uint32_t lanes = ~0u;
        /* At the load, step the even lanes first: as a timing model does
         * when some lanes hit and others miss. */
        if (in->op == ISA_OP_LD && in->space == ISA_SPACE_GLOBAL && !split_done++)
            lanes = 0x55555555u;
        ptx_status st = exec_warp_step(w, lanes, &stats, &rec, &err);
        CHECK(st == PTX_OK, "step %u: %s", steps, err.msg);
        if (st != PTX_OK)
            break;
        if (rec.inst->op == ISA_OP_LD && rec.inst->space == ISA_SPACE_GLOBAL) {
            CHECK(rec.mem && rec.access.space == ISA_SPACE_GLOBAL && rec.access.bytes == 4,
                  "load record has its access");
            CHECK(rec.access.addr[3] == arg + 12 || !(rec.issued & 8), "lane 3's address");
            CHECK(rec.ndst == 1 && rec.nsrc == 1, "load reads one register and writes one");
        }
        if (rec.inst->op == ISA_OP_BRA && rec.diverged)
            CHECK(rec.taken == 0xFFu || rec.taken == (0xFFu & rec.issued), "branch taken by lanes < 8: 0x%x", rec.taken);
        steps++;
    }
    CHECK(exec_warp_state(w) == EXEC_WARP_DONE, "warp finishes");
    CHECK(split_done >= 1, "the load was split");
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t v = 100 * t + t, want = t < 8 ? v : 2 * v;
        CHECK(out[t] == want, "thread %u: got %u want %u", t, out[t], want);
    }
    exec_cta_end(c);
    exec_grid_end(g);
    ptx_unload(&e);
}

/* The record's family, which the timing model keys its units on: float
 * arithmetic of every width is FP, f64 is DP, comparisons go by their
 * source type, integers stay INT. */
static void test_families(void)
{
    const char *ptx = HEADER
        ".visible .entry fam()\n{\n"
        " .reg .pred %p<3>;\n .reg .b16 %h<4>;\n .reg .b32 %r<4>;\n .reg .f32 %f<3>;\n .reg .f64 %d<3>;\n"
        " mov.b16 %h1, 0x3C00;\n add.f16 %h2, %h1, %h1;\n fma.rn.bf16 %h3, %h1, %h2, %h1;\n"
        " mov.b32 %r1, 0x3C003C00;\n fma.rn.f16x2 %r2, %r1, %r1, %r1;\n setp.lt.f16x2 %p1|%p2, %r1, %r2;\n"
        " mov.f32 %f1, 0f3F800000;\n cvt.rn.f16x2.f32 %r3, %f1, %f1;\n add.f32 %f2, %f1, %f1;\n"
        " cvt.f64.f32 %d1, %f1;\n add.f64 %d2, %d1, %d1;\n add.s32 %r3, %r1, %r2;\n ret;\n}\n";
    static const struct { uint16_t op; uint8_t type, family; } want[] = {
        { ISA_OP_ADD, ISA_TYPE_F16, ISA_FAM_FP }, { ISA_OP_FMA, ISA_TYPE_BF16, ISA_FAM_FP },
        { ISA_OP_FMA, ISA_TYPE_F16X2, ISA_FAM_FP }, { ISA_OP_SETP, ISA_TYPE_F16X2, ISA_FAM_FP },
        { ISA_OP_CVT, ISA_TYPE_F16X2, ISA_FAM_FP }, { ISA_OP_ADD, ISA_TYPE_F32, ISA_FAM_FP },
        { ISA_OP_CVT, ISA_TYPE_F64, ISA_FAM_DP }, { ISA_OP_ADD, ISA_TYPE_F64, ISA_FAM_DP },
        { ISA_OP_ADD, ISA_TYPE_S32, ISA_FAM_INT },
    };
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "family kernel loads");
        return;
    }
    exec_launch l = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .nsm = 1 };
    exec_grid *g;
    exec_cta *c;
    exec_error err = {0};
    exec_stats stats = {0};
    CHECK(exec_grid_begin(e.p, exec_program_kernel(e.p, "fam"), &l, &g, &err) == PTX_OK, "grid begins");
    CHECK(exec_cta_begin(g, 0, 0, &c) == PTX_OK, "cta begins");
    exec_warp *w = exec_cta_warp(c, 0);
    exec_record rec;
    unsigned seen = 0;
    while (exec_warp_state(w) == EXEC_WARP_RUNNING && exec_warp_step(w, ~0u, &stats, &rec, &err) == PTX_OK) {
        for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
            if (rec.inst->op == want[i].op && rec.inst->type == want[i].type) {
                CHECK(rec.family == want[i].family, "%s.%s: family %u, want %u", isa_ops[want[i].op].name,
                      isa_types[want[i].type].name, rec.family, want[i].family);
                seen |= 1u << i;
            }
    }
    CHECK(exec_warp_state(w) == EXEC_WARP_DONE, "family kernel finishes: %s", err.msg);
    CHECK(seen == (1u << (sizeof want / sizeof want[0])) - 1, "every instruction stepped: 0x%x", seen);
    exec_cta_end(c);
    exec_grid_end(g);
    ptx_unload(&e);
}

/* Warps that wait on each other's writes through global memory (no
 * barrier) must all make progress: warp 0 spins until warp 1 sets a flag,
 * so the scheduler must take warp 0 off before it finishes. */
static void test_spin_between_warps(void)
{
    const char *ptx = HEADER
        ".visible .entry spin(.param .u64 flag)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n"
        " ld.param.u64 %rd1, [flag];\n mov.u32 %r1, %tid.x;\n"
        " setp.ge.u32 %p1, %r1, 32;\n @%p1 bra WRITER;\n"
        "WAIT:\n ld.volatile.global.u32 %r2, [%rd1];\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra WAIT;\n"
        " st.global.u32 [%rd1+4], %r2;\n ret;\n"
        "WRITER:\n st.volatile.global.u32 [%rd1], 42;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "spin kernel loads");
        return;
    }
    uint32_t *flag = ptx_alloc(&e, 8);
    uint64_t args[] = { (uint64_t)(uintptr_t)flag };
    ptx_status st = ptx_launch(&e, "spin", 1, 64, 1, args);
    CHECK(st == PTX_OK && flag[1] == 42, "spinning warp sees the flag: %s", e.err.msg);
    ptx_unload(&e);
}

/* Vector stores whose elements include immediates (clang writes these),
 * also right after a label so the hidden movs land before it correctly. */
static void test_vector_immediates(void)
{
    const char *ptx = HEADER ".visible .entry vi(.param .u64 out)\n{\n .reg .pred %p1;\n .reg .b32 %r<3>;\n"
        " .reg .b64 %rd<3>;\n .reg .f32 %f<2>;\n ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra SKIP;\nSKIP:\n st.global.v2.b32 [%rd1], {%r1, -559038737};\n"
        " mov.f32 %f1, 0f40000000;\n st.global.v4.f32 [%rd1+16], {%f1, 0f3F800000, %f1, 0d4008000000000000};\n"
        " ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "vector-immediate kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 64);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "vi", 1, 1, 1, args);
    float f[4];
    memcpy(f, out + 4, 16);
    CHECK(st == PTX_OK && out[0] == 0 && out[1] == 0xDEADBEEFu && f[0] == 2.0f && f[1] == 1.0f && f[3] == 3.0f,
          "vector immediates: %x %x %g %g %g", out[0], out[1], f[0], f[1], f[3]);
    ptx_unload(&e);
}

/* Load tests/ptx/<file> of the corpus; false (and a failed check) if it
 * cannot be read or loaded. */
static bool load_corpus(ptx_env *e, const char *dir, const char *file)
{
    memset(e, 0, sizeof *e);
    char path[1024];
    snprintf(path, sizeof path, "%s/ptx/%s", dir, file);
    size_t n = 0;
    char *text = ptx_read_file(path, &n);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text)
        return false;
    bool loaded = n && ptx_load(e, text);
    free(text);
    CHECK(loaded, "%s loads: %s", file, e->diag.msg);
    return loaded;
}

/* Grid-wide synchronisation (cooperative groups) as nvcc compiles it: the
 * workspace comes from %envreg1:%envreg2, and the blocks spin on it. */
static void test_grid_sync(void)
{
    ptx_env e;
    if (!load_corpus(&e, check_src_dir, "grid_sync.nvcc.ptx"))
        return;
    unsigned threads = 4 * 96;
    uint32_t *x = ptx_alloc(&e, threads * 4), *y = ptx_alloc(&e, threads * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y, threads };
    int k = exec_program_kernel(e.p, "_Z13grid_exchangePjS_j");
    const exec_kernel_info *ki = exec_program_kernel_info(e.p, k);
    uint8_t params[64] = {0};
    for (unsigned i = 0; i < 3; i++)
        memcpy(params + ki->params[i].offset, &args[i], ki->params[i].bytes);
    exec_launch l = { .grid = { 4, 1, 1 }, .block = { 96, 1, 1 }, .args = params, .nsm = 1, .cooperative = true };
    exec_stats stats = {0};
    ptx_status st = exec_launch_run(e.p, k, &l, &stats, &e.err);
    CHECK(st == PTX_OK, "cooperative launch runs: %s", e.err.msg);
    unsigned wrong = 0;
    for (unsigned r = 0; r < threads; r++)
        wrong += y[r] != ((r + 1) % threads) * 3 + 1;
    CHECK(wrong == 0, "%u threads read a neighbour's value before the grid barrier", wrong);
    /* Without a cooperative launch there is no workspace, and the kernel
     * traps, as on a GPU. */
    l.cooperative = false;
    st = exec_launch_run(e.p, k, &l, &stats, &e.err);
    CHECK(st == PTX_E_TRAP, "grid sync outside a cooperative launch traps, got %s", ptx_status_name(st));
    ptx_unload(&e);
}

/* The 8-bit float and tf32 conversions as nvcc emits them for cuda_fp8.h
 * (tests/ptx/fp8_convert.nvcc.ptx; the CUDA source is at its top).  Each
 * expected pattern was worked out by hand from the formats: e4m3 keeps 3
 * fraction bits (bias 7, largest 448, NaN 0x7F), e5m2 2 (bias 15, largest
 * 57344); .satfinite clamps, ties go to even; y lands in the upper byte. */
static void test_fp8_convert(void)
{
    ptx_env e;
    if (!load_corpus(&e, check_src_dir, "fp8_convert.nvcc.ptx"))
        return;
    /* (x, y) per thread: plain values, overflow, NaN and infinity, ties
     * (1.0625, 2^-10, 1.1875, 61440, -480), -0, underflow, 0.1. */
    static const float in[8][2] = {
        { 1.0f, -2.5f }, { 448.0f, 1000.0f }, { NAN, INFINITY }, { 1.0625f, 0x1p-10f },
        { -0.0f, 57344.0f }, { 1.1875f, 61440.0f }, { 1e-7f, -480.0f }, { 0.1f, 3.0f },
    };
    static const uint16_t want_e4[8] = { 0xC238, 0x7E7E, 0x7E7F, 0x0038, 0x7E80, 0x7E3A, 0xFE00, 0x441D };
    static const uint16_t want_e5[8] = { 0xC13C, 0x645F, 0x7B7F, 0x143C, 0x7B80, 0x7B3D, 0xE000, 0x422E };
    float *x = ptx_alloc(&e, sizeof in);
    uint16_t *e4 = ptx_alloc(&e, 16), *e5 = ptx_alloc(&e, 16);
    uint32_t *back4 = ptx_alloc(&e, 32), *back5 = ptx_alloc(&e, 32), *tf = ptx_alloc(&e, 32),
             *hs = ptx_alloc(&e, 32);
    memcpy(x, in, sizeof in);
    uint64_t args[] = { (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)e4, (uint64_t)(uintptr_t)e5,
                        (uint64_t)(uintptr_t)back4, (uint64_t)(uintptr_t)back5, (uint64_t)(uintptr_t)tf,
                        (uint64_t)(uintptr_t)hs };
    ptx_status st = ptx_launch(&e, "fp8_convert", 1, 8, 7, args);
    CHECK(st == PTX_OK, "fp8 kernel runs: %s", e.err.msg);
    for (unsigned i = 0; i < 8; i++) {
        CHECK_EQ_U64(e4[i], want_e4[i], "e4m3x2 of lane");
        CHECK_EQ_U64(e5[i], want_e5[i], "e5m2x2 of lane");
        CHECK_EQ_U64(hs[i], want_e4[i], "e4m3x2 through f16x2 of lane");
    }
    /* Back to f16x2: e4m3 -2.5 and 1.0 are f16 0xC100 and 0x3C00; 448 is
     * 0x5F00; NaN becomes f16's canonical NaN; e5m2 is f16's upper byte. */
    CHECK_EQ_U64(back4[0], 0xC1003C00u, "f16x2 of e4m3x2 0xC238");
    CHECK_EQ_U64(back5[0], 0xC1003C00u, "f16x2 of e5m2x2 0xC13C");
    CHECK_EQ_U64(back4[2], 0x5F007FFFu, "f16x2 of e4m3x2 0x7E7F");
    CHECK_EQ_U64(back5[2], 0x7B007FFFu, "f16x2 of e5m2x2 0x7B7F");
    CHECK_EQ_U64(back5[6], 0xE0000000u, "f16x2 of e5m2x2 0xE000");
    /* tf32 of x, rounded to nearest with ties away: 0.1f (0x3DCCCCCD) drops
     * 0xCCD < 0x1000; NaN (0x7FC00000) through .satfinite is 0x7FBFE000,
     * one unit of the last place below, as an H200 gives it. */
    CHECK_EQ_U64(tf[0], 0x3F800000u, "tf32 of 1.0");
    CHECK_EQ_U64(tf[2], 0x7FBFE000u, "tf32 of NaN");
    CHECK_EQ_U64(tf[4], 0x80000000u, "tf32 of -0");
    CHECK_EQ_U64(tf[7], 0x3DCCC000u, "tf32 of 0.1");
    ptx_unload(&e);
}

/* Shared addresses are 32 bits: a base register that went below zero
 * wraps back when the offset is added (nvcc's code relies on it). */
static void test_shared_wrap(void)
{
    const char *ptx = HEADER ".visible .entry wrap(.param .u64 out)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
        " .shared .align 4 .b32 s[4];\n ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " mov.u32 %r2, s;\n shl.b32 %r3, %r1, 2;\n add.u32 %r4, %r2, %r3;\n add.u32 %r5, %r1, 10;\n"
        " st.shared.u32 [%r4], %r5;\n bar.sync 0;\n add.s32 %r4, %r2, -8;\n ld.shared.u32 %r5, [%r4+12];\n"
        " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r5;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "wrap kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 16);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "wrap", 1, 4, 1, args);
    CHECK(st == PTX_OK && out[0] == 11 && out[3] == 11, "wrapped shared address reads s[1] = 11: %s got %u",
          e.err.msg, out[0]);
    ptx_unload(&e);
}

/* Each kernel reports the static shared memory it (and what it calls)
 * names, not the module's total: occupancy and cudaFuncGetAttributes read
 * it.  big uses 1024 bytes itself and 256 through helper; small only 64. */
static void test_shared_per_kernel(void)
{
    const char *ptx = HEADER ".shared .align 4 .b8 helper_buf[256];\n"
        ".func helper()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, helper_buf;\n st.shared.u32 [%r1], 1;\n ret;\n}\n"
        ".visible .entry big()\n{\n .reg .b32 %r<2>;\n .shared .align 8 .b8 b[1024];\n"
        " mov.u32 %r1, b;\n st.shared.u32 [%r1], 2;\n call helper, ();\n ret;\n}\n"
        ".visible .entry small()\n{\n .reg .b32 %r<2>;\n .shared .align 4 .b8 t[64];\n"
        " mov.u32 %r1, t;\n st.shared.u32 [%r1], 3;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "shared-per-kernel module loads");
        return;
    }
    const exec_kernel_info *big = exec_program_kernel_info(e.p, exec_program_kernel(e.p, "big"));
    const exec_kernel_info *small = exec_program_kernel_info(e.p, exec_program_kernel(e.p, "small"));
    CHECK(big->static_shared == 1024 + 256, "big names 1280 shared bytes, reported %u", big->static_shared);
    CHECK(small->static_shared == 64, "small names 64 shared bytes, reported %u", small->static_shared);
    CHECK(ptx_launch(&e, "big", 1, 32, 1, NULL) == PTX_OK && ptx_launch(&e, "small", 1, 32, 1, NULL) == PTX_OK,
          "both kernels run: %s", e.err.msg);
    ptx_unload(&e);
}

/* Matrix instructions (PTX ISA 9.7.14): stmatrix writes back what ldmatrix
 * read (x2, plain and .trans: .trans stores the transpose of the tiles it
 * loaded transposed, so the round trip is the identity either way), an
 * mma.sync executed by half a warp is an illegal instruction, not a guess,
 * and a fragment of the wrong size is refused when the PTX is read. */
static void test_matrix(void)
{
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry mat(.param .u64 in, .param .u64 out)\n{\n"
        " .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n .shared .align 16 .b8 s[512];\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n"
        " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 4;\n"                 /* 16 bytes a lane */
        " cvt.u64.u32 %rd3, %r2;\n add.s64 %rd4, %rd1, %rd3;\n"
        " ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd4];\n"
        " mov.u32 %r7, s;\n add.u32 %r8, %r7, %r2;\n"
        " st.shared.v4.u32 [%r8], {%r3, %r4, %r5, %r6};\n bar.warp.sync -1;\n"
        " and.b32 %r9, %r1, 15;\n shl.b32 %r9, %r9, 4;\n add.u32 %r9, %r7, %r9;\n"  /* rows of tiles 0, 1 */
        " ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r10, %r11}, [%r9];\n"
        " add.u32 %r9, %r9, 256;\n"                                              /* rows of tiles 2, 3 */
        " stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r9], {%r10, %r11};\n bar.warp.sync -1;\n"
        " add.u32 %r8, %r8, 256;\n and.b32 %r8, %r8, 511;\n"
        " ld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [%r8];\n"
        " add.s64 %rd5, %rd2, %rd3;\n st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r6};\n"
        " ret;\n}\n"
        ".visible .entry half_warp(.param .u64 out)\n{\n"
        " .reg .pred %p1;\n .reg .b32 %r<16>;\n .reg .f32 %f<8>;\n"
        " mov.u32 %r1, %tid.x;\n setp.ge.u32 %p1, %r1, 16;\n @%p1 bra DONE;\n"
        " mov.b32 %r2, 0;\n mov.f32 %f1, 0f00000000;\n"
        " mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r2, %r2}, {%r2}, {%f1, %f1, %f1, %f1};\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "matrix kernels load");
        return;
    }
    uint16_t *in = ptx_alloc(&e, 512), *out = ptx_alloc(&e, 512);
    for (unsigned i = 0; i < 256; i++)
        in[i] = (uint16_t)(i * 7 + 1);
    uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
    CHECK(ptx_launch(&e, "mat", 1, 32, 2, args) == PTX_OK, "ldmatrix/stmatrix kernel runs");
    unsigned bad = 0;
    for (unsigned i = 0; i < 256; i++)
        bad += out[i] != (uint16_t)(i % 128 * 7 + 1);  /* tiles 2, 3 became tiles 0, 1 */
    CHECK(bad == 0, "stmatrix.trans writes back what ldmatrix.trans read (%u wrong)", bad);
    ptx_status st = ptx_launch(&e, "half_warp", 1, 32, 1, args);
    CHECK(st == PTX_E_ILLEGAL_INSTRUCTION, "mma.sync by half a warp is an illegal instruction (got %d)", (int)st);
    ptx_unload(&e);

    const char *wrong = ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry w()\n{\n .reg .b32 %r<4>;\n .reg .f32 %f<8>;\n"
        " mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f1, %f2, %f3, %f4};\n"
        " ret;\n}\n";
    CHECK(!ptx_load(&e, wrong) && e.diag.count > 0 && strstr(e.diag.msg, "wrong number of registers"),
          "an m16n8k16 A fragment of two registers is refused when read");
    ptx_unload(&e);
}

/* The shared memory CUDA reserves per block (%reserved_smem_offset_*),
 * where cooperative groups keep per-block state in -G builds for sm_80 and
 * later: readable and writable through generic and .shared addresses, apart
 * from the program's own shared memory, so that an access between the two
 * faults.  (Past its end start the cluster slots: rank 0 is the block itself.) */
static void test_reserved_smem(void)
{
    const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry res(.param .u64 out, .param .u32 past)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n .shared .align 4 .b8 s[64];\n"
        " ld.param.u64 %rd1, [out];\n ld.param.u32 %r9, [past];\n"
        " mov.u32 %r1, %reserved_smem_offset_begin;\n mov.u32 %r2, %reserved_smem_offset_end;\n"
        " mov.u32 %r3, %reserved_smem_offset_cap;\n mov.u32 %r4, %reserved_smem_offset_0;\n"
        " mov.u32 %r5, %reserved_smem_offset_1;\n"
        " mov.u32 %r6, %tid.x;\n setp.ne.u32 %p1, %r6, 0;\n @%p1 bra DONE;\n"
        " st.shared.u32 [s], 7;\n"
        " cvt.u64.u32 %rd2, %r5;\n cvta.shared.u64 %rd3, %rd2;\n st.u32 [%rd3], 1234;\n"   /* generic */
        " ld.shared.u32 %r7, [%r5];\n ld.shared.u32 %r8, [s];\n"
        " st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n st.global.v4.u32 [%rd1+16], {%r5, %r7, %r8, %r9};\n"
        " add.u32 %r10, %r1, %r9;\n ld.shared.u32 %r11, [%r10];\n st.global.u32 [%rd1+32], %r11;\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "reserved-smem kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 64);
    uint64_t args[2] = { (uint64_t)(uintptr_t)out, 1020 };     /* the last word inside */
    ptx_status st = ptx_launch(&e, "res", 1, 32, 2, args);
    CHECK(st == PTX_OK && out[1] == out[0] + 1024 && out[2] == 1024 && out[3] == out[0] &&
              out[4] == out[0] + 512 && out[5] == 1234 && out[6] == 7,
          "reserved shared memory: begin %u end %u cap %u offsets %u %u, read back %u, own shared %u (%s)", out[0],
          out[1], out[2], out[3], out[4], out[5], out[6], e.err.msg);
    args[1] = (uint64_t)-4 & 0xFFFFFFFFu;           /* the word below it: past the program's shared memory */
    st = ptx_launch(&e, "res", 1, 32, 2, args);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS, "an access just below the reserved block faults (got %s)", ptx_status_name(st));
    ptx_unload(&e);
}

/* cvt.pack, szext and elect.sync, each lane against a host computation of
 * the PTX ISA's definition: cvt.pack saturates a and b to the type and
 * packs b low, a above, c's low bits above both; szext extends a's low b
 * bits (b clamped to 32, or taken mod 32); elect.sync picks the lowest
 * executing lane of the member mask. */
static int32_t sat_to(int64_t v, int64_t lo, int64_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

static void test_pack_szext_elect(void)
{
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<20>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n"
        " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 12;\n add.s64 %rd4, %rd1, %rd3;\n"
        " ld.global.u32 %r2, [%rd4];\n ld.global.u32 %r3, [%rd4+4];\n ld.global.u32 %r4, [%rd4+8];\n"
        " cvt.pack.sat.u8.s32.b32 %r5, %r2, %r3, %r4;\n cvt.pack.sat.s8.s32.b32 %r6, %r2, %r3, %r4;\n"
        " cvt.pack.sat.u16.s32 %r7, %r2, %r3;\n cvt.pack.sat.s16.s32 %r8, %r2, %r3;\n"
        " szext.clamp.s32 %r9, %r2, %r4;\n szext.wrap.u32 %r10, %r2, %r4;\n szext.wrap.s32 %r11, %r3, %r4;\n"
        " elect.sync %r12|%p1, 0xFFFFFFF0;\n selp.u32 %r13, 1, 0, %p1;\n"
        " setp.ge.u32 %p2, %r1, 7;\n @%p2 bra SKIP;\n"          /* lanes 0-6 only */
        " elect.sync _|%p1, 0x000000FC;\n selp.u32 %r14, 1, 0, %p1;\n"
        "SKIP:\n mul.wide.u32 %rd3, %r1, 48;\n add.s64 %rd5, %rd2, %rd3;\n"
        " st.global.v4.u32 [%rd5], {%r5, %r6, %r7, %r8};\n st.global.v4.u32 [%rd5+16], {%r9, %r10, %r11, %r12};\n"
        " st.global.u32 [%rd5+32], %r13;\n @!%p2 st.global.u32 [%rd5+32], %r14;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "cvt.pack/szext/elect kernel loads");
        return;
    }
    int32_t *in = ptx_alloc(&e, 32 * 12);
    uint32_t *out = ptx_alloc(&e, 32 * 48);
    static const int32_t vals[] = { 0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, -32769, 65535,
                                    65536, INT32_MIN, INT32_MAX, 0x12345678, -0x12345678 };
    static const int32_t widths[] = { 0, 1, 7, 8, 16, 31, 32, 33, 40, 64, 100, -1 };
    for (unsigned t = 0; t < 32; t++) {
        in[3 * t] = vals[t % 18];
        in[3 * t + 1] = vals[(t * 7 + 3) % 18];
        in[3 * t + 2] = t < 12 ? widths[t] : (int32_t)(0xABCD0000u + t * 3);
    }
    uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "k", 1, 32, 2, args);
    CHECK(st == PTX_OK, "cvt.pack/szext/elect kernel runs: %s", e.err.msg);
    unsigned bad = 0;
    for (unsigned t = 0; t < 32 && st == PTX_OK; t++) {
        int64_t a = in[3 * t], b = in[3 * t + 1];
        uint32_t c = (uint32_t)in[3 * t + 2], *o = out + 12 * t;
        uint32_t want[9];
        want[0] = (uint32_t)sat_to(b, 0, 255) | (uint32_t)sat_to(a, 0, 255) << 8 | c << 16;
        want[1] = ((uint32_t)sat_to(b, -128, 127) & 0xFF) | ((uint32_t)sat_to(a, -128, 127) & 0xFF) << 8 | c << 16;
        want[2] = (uint32_t)sat_to(b, 0, 65535) | (uint32_t)sat_to(a, 0, 65535) << 16;
        want[3] = ((uint32_t)sat_to(b, -32768, 32767) & 0xFFFF) | (uint32_t)sat_to(a, -32768, 32767) << 16;
        /* szext by arithmetic on 64-bit values: keep n bits, then extend. */
        uint64_t nc = c > 32 ? 32 : c, nw = c % 32;
        int64_t sa = nc ? (int64_t)((uint64_t)a << (64 - nc)) >> (64 - nc) : 0;
        uint64_t ua = nw ? (uint64_t)(uint32_t)a & ((1ull << nw) - 1) : 0;
        int64_t sb = nw ? (int64_t)((uint64_t)b << (64 - nw)) >> (64 - nw) : 0;
        want[4] = (uint32_t)sa;
        want[5] = (uint32_t)ua;
        want[6] = (uint32_t)sb;
        want[7] = 4;                                    /* lowest of lanes 4..31 */
        want[8] = t < 7 ? t == 2 : t == 4;              /* lanes 0-6 with mask 0xFC: lane 2 */
        for (unsigned k = 0; k < 9; k++)
            if (o[k] != want[k] && bad++ < 6)
                printf("  lane %u result %u: 0x%08x, want 0x%08x (a %d b %d c 0x%x)\n", t, k, o[k], want[k],
                       (int)a, (int)b, c);
    }
    CHECK(bad == 0, "cvt.pack, szext and elect.sync match the ISA's definitions (%u wrong)", bad);
    ptx_unload(&e);
}

/* bmsk (which CUB's radix sort uses to mask a key's digit): every lane
 * against a host computation written as the PTX ISA states it, for starts
 * and widths around 0, 31, 32 and beyond, in both modes, with register and
 * immediate operands. */
static uint32_t bmsk_ref(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint64_t mask0 = (uint64_t)0xFFFFFFFFu << a1 & 0xFFFFFFFFu;
    uint64_t mask1 = (uint64_t)0xFFFFFFFFu << sum & 0xFFFFFFFFu;
    bool overflow = sum >= 32;
    if (clamp) {
        if (a >= 32) {
            overflow = true;
            mask0 = 0;
        }
        if (b >= 32)
            overflow = true;
    }
    if (overflow)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = 0xFFFFFFFFu;
    return (uint32_t)(mask0 & ~mask1);
}

static void test_bmsk(void)
{
    const char *ptx = ".version 7.6\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
        " .reg .b32 %r<10>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n"
        " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 8;\n add.s64 %rd4, %rd1, %rd3;\n"
        " ld.global.u32 %r2, [%rd4];\n ld.global.u32 %r3, [%rd4+4];\n"
        " bmsk.clamp.b32 %r4, %r2, %r3;\n bmsk.wrap.b32 %r5, %r2, %r3;\n"
        " bmsk.wrap.b32 %r6, 1, 2;\n bmsk.clamp.b32 %r7, %r2, 8;\n"
        " mul.wide.u32 %rd3, %r1, 16;\n add.s64 %rd5, %rd2, %rd3;\n"
        " st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "bmsk kernel loads");
        return;
    }
    enum { LANES_N = 256 };
    static const uint32_t vals[] = { 0, 1, 4, 8, 24, 30, 31, 32, 33, 40, 63, 64, 0x80000000u, 0xFFFFFFFFu, 7, 25 };
    uint32_t *in = ptx_alloc(&e, LANES_N * 8);
    uint32_t *out = ptx_alloc(&e, LANES_N * 16);
    for (unsigned t = 0; t < LANES_N; t++) {
        in[2 * t] = vals[t % 16];
        in[2 * t + 1] = vals[t / 16];
    }
    uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "k", 1, LANES_N, 2, args);
    CHECK(st == PTX_OK, "bmsk kernel runs: %s", e.err.msg);
    unsigned bad = 0;
    for (unsigned t = 0; t < LANES_N && st == PTX_OK; t++) {
        uint32_t a = in[2 * t], b = in[2 * t + 1], *o = out + 4 * t;
        uint32_t want[4] = { bmsk_ref(a, b, true), bmsk_ref(a, b, false), bmsk_ref(1, 2, false),
                             bmsk_ref(a, 8, true) };
        for (unsigned k = 0; k < 4; k++)
            if (o[k] != want[k] && bad++ < 6)
                printf("  lane %u result %u: 0x%08x, want 0x%08x (a %u b %u)\n", t, k, o[k], want[k], a, b);
    }
    CHECK(bad == 0, "bmsk.clamp and bmsk.wrap match the ISA's definition (%u wrong)", bad);
    CHECK(st != PTX_OK || out[2] == 0x6, "bmsk.wrap.b32 d, 1, 2 is 0x00000006 (the ISA's example)");
    CHECK(st != PTX_OK || (out[4 * (7 * 16 + 2)] == 0xFFFFFFF0u), "bmsk.clamp from bit 4, width 32: bits 4..31");
    ptx_unload(&e);
}

/* bar.red (what __syncthreads_count, _and and _or compile to) in a block of
 * 256 threads: the reduction over every arriving thread's predicate reaches
 * every thread, after a branch some lanes took (they reconverge before the
 * barrier), on barrier 0 and 1, with a negated predicate, and with threads
 * that exited before the barrier left out of both the wait and the result. */
static void test_bar_red(void)
{
    const char *ptx = HEADER
        ".visible .entry red(.param .u64 in, .param .u64 out, .param .u32 quit)\n{\n"
        " .reg .pred %p<8>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r9, [quit];\n"
        " mov.u32 %r1, %tid.x;\n setp.ge.u32 %p7, %r1, %r9;\n @%p7 exit;\n"
        " mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r2, [%rd4];\n"
        " and.b32 %r3, %r2, 1;\n setp.eq.u32 %p1, %r3, 0;\n @%p1 bra EVEN;\n"
        " add.u32 %r2, %r2, 6;\n"
        "EVEN:\n setp.gt.u32 %p2, %r2, 40;\n"
        " bar.red.popc.u32 %r4, 0, %p2;\n"
        " bar.red.and.pred %p3, 0, %p2;\n"
        " bar.red.or.pred %p4, 0, %p2;\n"
        " barrier.red.popc.u32 %r5, 1, !%p2;\n"
        " setp.lt.u32 %p5, %r2, 1000;\n bar.red.and.pred %p6, 1, %p5;\n"
        " selp.u32 %r6, 1, 0, %p3;\n selp.u32 %r7, 1, 0, %p4;\n selp.u32 %r8, 1, 0, %p6;\n"
        " mul.wide.u32 %rd3, %r1, 32;\n add.s64 %rd5, %rd2, %rd3;\n"
        " st.global.v4.u32 [%rd5], {%r4, %r6, %r7, %r5};\n st.global.u32 [%rd5+16], %r8;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "bar.red kernel loads: %s", e.diag.msg);
        return;
    }
    uint32_t *in = ptx_alloc(&e, 256 * 4), *out = ptx_alloc(&e, 256 * 32);
    static const uint32_t quits[] = { 256, 200, 37 };
    for (unsigned q = 0; q < 3; q++) {
        uint32_t quit = quits[q], n = 0, t_true = 0;
        for (uint32_t t = 0; t < 256; t++)
            in[t] = q == 2 ? 100 + t : (t * 37 + q) % 61;
        memset(out, 0, 256 * 32);
        for (uint32_t t = 0; t < quit; t++) {
            uint32_t v = in[t] & 1 ? in[t] + 6 : in[t];
            n++;
            t_true += v > 40;
        }
        uint64_t args[3] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, quit };
        ptx_status st = ptx_launch(&e, "red", 1, 256, 3, args);
        CHECK(st == PTX_OK, "bar.red kernel runs with %u threads staying: %s", quit, e.err.msg);
        unsigned bad = 0;
        for (uint32_t t = 0; t < 256 && st == PTX_OK; t++) {
            const uint32_t *o = out + 8 * t;
            uint32_t want[5] = { t_true, t_true == n, t_true != 0, n - t_true, 1 };
            if (t >= quit)
                memset(want, 0, sizeof want);
            for (unsigned k = 0; k < 5; k++)
                if (o[k] != want[k] && bad++ < 4)
                    printf("  quit %u thread %u result %u: %u, want %u\n", quit, t, k, o[k], want[k]);
        }
        CHECK(bad == 0, "bar.red popc/and/or with %u of 256 threads staying (%u wrong)", quit, bad);
    }
    ptx_unload(&e);
}

/* A { } block's registers shadow the function's of the same name only up
 * to its closing brace (nvcc's inline mad.lo.cc chains in the math library
 * declare %r0..%r3 in a block of a function with %r<38>). */
static void test_scoped_registers(void)
{
    const char *ptx = HEADER
        ".visible .entry sc(.param .u64 out)\n{\n"
        " .reg .b32 %r<4>;\n .reg .b32 t;\n .reg .b64 %rd<3>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, 11;\n mov.u32 %r2, 22;\n mov.u32 %r3, 33;\n mov.u32 t, 44;\n"
        " {\n .reg .b32 %r1, %r3, t;\n mov.u32 %r1, 1;\n mov.u32 %r3, 3;\n mov.u32 t, 4;\n"
        "  {\n .reg .b32 %r<3>;\n mov.u32 %r2, 5;\n add.u32 %r1, %r2, t;\n st.global.u32 [%rd1+28], %r1;\n }\n"
        "  add.u32 %r2, %r2, %r1;\n add.u32 %r2, %r2, %r3;\n }\n"
        " st.global.v4.u32 [%rd1], {%r1, %r2, %r3, t};\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "scoped-register kernel loads: %s", e.diag.msg);
        return;
    }
    uint32_t *out = ptx_alloc(&e, 32);
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "sc", 1, 1, 1, args);
    CHECK(st == PTX_OK && out[0] == 11 && out[1] == 26 && out[2] == 33 && out[3] == 44 && out[7] == 9,
          "block-scoped registers end with their block: %u %u %u %u %u (want 11 26 33 44 9): %s", out[0],
          out[1], out[2], out[3], out[7], e.err.msg);
    ptx_unload(&e);
}

/* A register read before anything wrote it reads 0, in every block,
 * though a functional launch zeroes only the registers a function may
 * read first (exec/live_in.c): here a guarded write that leaves other
 * threads' register unwritten, a loop whose first trip reads what later
 * trips write, a sum of registers nothing writes (one of them read first
 * by nanosleep, whose operand is not a destination, one perhaps numbered
 * as the predicate an mbarrier wait writes), and a callee's register.
 * Each block then writes large values into them all, so that the next
 * block, which reuses the warp's register memory, would read those if the
 * analysis missed one. */
static void test_unwritten_registers(void)
{
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".func (.param .b32 r) reads_first()\n{\n"
        " .reg .b32 %r<4>;\n add.u32 %r2, %r1, 1;\n st.param.b32 [r], %r2;\n mov.u32 %r1, 777;\n ret;\n}\n"
        ".visible .entry unwritten(.param .u64 out)\n{\n"
        " .reg .pred %p<5>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<6>;\n .shared .align 8 .b64 bar;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n"
        " setp.eq.u32 %p1, %r1, 0;\n @%p1 mov.u32 %r5, 7;\n add.u32 %r6, %r5, 0;\n"
        " @%p1 mbarrier.init.shared.b64 [bar], 32;\n bar.sync 0;\n"
        " mbarrier.arrive.shared.b64 %rd4, [bar];\n"
        "WAIT:\n mbarrier.try_wait.shared.b64 %p4, [bar], %rd4;\n @!%p4 bra WAIT;\n"
        " nanosleep.u32 %r15;\n"
        " mov.u32 %r8, 0;\n"
        "LOOP:\n add.u32 %r7, %r7, 1;\n add.u32 %r8, %r8, 1;\n setp.lt.u32 %p2, %r8, 3;\n @%p2 bra LOOP;\n"
        " mov.b64 {%r9, %r10}, %rd1;\n add.u32 %r11, %r12, %r13;\n add.u32 %r11, %r11, %r0;\n"
        " add.u32 %r11, %r11, %r4;\n add.u32 %r11, %r11, %r15;\n"
        " { .param .b32 rv; call (rv), reads_first, (); ld.param.b32 %r14, [rv]; }\n"
        " mad.lo.u32 %r3, %r2, 32, %r1;\n mul.wide.u32 %rd2, %r3, 16;\n add.s64 %rd3, %rd1, %rd2;\n"
        " st.global.v4.u32 [%rd3], {%r6, %r7, %r11, %r14};\n"
        " mov.u32 %r5, 12345;\n mov.u32 %r7, 999;\n mov.u32 %r12, 555;\n mov.u32 %r13, 444;\n"
        " mov.u32 %r0, 333;\n mov.u32 %r4, 222;\n mov.u32 %r15, 111;\n"
        " { .param .b32 rv; call (rv), reads_first, (); ld.param.b32 %r14, [rv]; }\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "unwritten-register kernel loads: %s", e.diag.msg);
        return;
    }
    enum { BLOCKS = 6 };
    uint32_t *out = ptx_alloc(&e, BLOCKS * 32 * 16);
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "unwritten", BLOCKS, 32, 1, args);
    CHECK(st == PTX_OK, "unwritten-register kernel runs: %s", e.err.msg);
    for (uint32_t i = 0; st == PTX_OK && i < BLOCKS * 32; i++) {
        const uint32_t *o = out + 4 * i;
        uint32_t want5 = i % 32 == 0 ? 7 : 0;
        CHECK(o[0] == want5 && o[1] == 3 && o[2] == 0 && o[3] == 1,
              "block %u thread %u: guarded %u (want %u), loop %u (want 3), unwritten sum %u (want 0), "
              "callee %u (want 1)", i / 32, i % 32, o[0], want5, o[1], o[2], o[3]);
    }
    ptx_unload(&e);
}

/* `if (threadIdx.x >= quit) return;` before __syncthreads(), as nvcc -O2
 * compiles it (a branch straight to the kernel's final ret, which is also
 * where the warp reconverges) and as nvcc -G and clang -O0 do (the
 * returning lanes take the fall-through path, then bra.uni to the ret):
 * the returning lanes of a warp whose other lanes wait at the barrier end
 * without holding it up, as on a GPU.  Lanes that skip a barrier and then
 * do more work still deadlock (tests/buggy/barrier_divergent). */
static void test_return_before_barrier(void)
{
    const char *ptx = HEADER
        ".visible .entry o2(.param .u64 out, .param .u32 quit)\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n ld.param.u32 %r2, [quit];\n mov.u32 %r1, %tid.x;\n"
        " setp.ge.u32 %p1, %r1, %r2;\n @%p1 bra DONE;\n"
        " bar.sync 0;\n setp.ne.u32 %p2, %r1, 0;\n bar.red.popc.u32 %r3, 0, %p2;\n"
        " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r3;\n"
        "DONE:\n ret;\n}\n"
        ".visible .entry g(.param .u64 out, .param .u32 quit)\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n ld.param.u32 %r2, [quit];\n mov.u32 %r1, %tid.x;\n"
        " setp.lt.u32 %p1, %r1, %r2;\n @%p1 bra STAY;\n bra.uni OUT;\n"
        "OUT:\n bra.uni DONE;\n"
        "STAY:\n bar.sync 0;\n setp.ne.u32 %p2, %r1, 0;\n bar.red.popc.u32 %r3, 0, %p2;\n"
        " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r3;\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "return-before-barrier kernels load: %s", e.diag.msg);
        return;
    }
    uint32_t *out = ptx_alloc(&e, 256 * 4);
    static const char *const kernels[] = { "o2", "g" };
    static const uint32_t quits[] = { 256, 200, 37, 1 };
    for (unsigned k = 0; k < 2; k++)
        for (unsigned q = 0; q < 4; q++) {
            memset(out, 0xEE, 256 * 4);
            uint64_t args[2] = { (uint64_t)(uintptr_t)out, quits[q] };
            ptx_status st = ptx_launch(&e, kernels[k], 1, 256, 2, args);
            CHECK(st == PTX_OK, "%s: %u of 256 threads reach the barriers: %s", kernels[k], quits[q], e.err.msg);
            unsigned bad = 0;
            for (uint32_t t = 0; t < 256 && st == PTX_OK; t++)
                bad += out[t] != (t < quits[q] ? quits[q] - 1 : 0xEEEEEEEEu);
            CHECK(bad == 0, "%s with %u threads staying: %u wrong results", kernels[k], quits[q], bad);
        }
    ptx_unload(&e);
}

/* sured (surface reductions, PTX ISA 9.7.10): 256 threads reduce into the
 * 8 elements of 1-D surfaces -- a u32 histogram by add, s32 min and max, b32
 * and/or, u64 add -- checked against the host's serial sums; out-of-range
 * coordinates are dropped by .zero, moved to the last element by .clamp,
 * and fault under .trap. */
static void test_sured(void)
{
    const char *ptx = HEADER
        ".visible .entry k(.param .u64 s32, .param .u64 s64, .param .u32 far)\n{\n"
        " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [s32];\n ld.param.u64 %rd2, [s64];\n ld.param.u32 %r7, [far];\n"
        " mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 7;\n shl.b32 %r3, %r2, 2;\n"
        " sub.s32 %r4, 100, %r1;\n"                       /* 100 - t: negative for most threads */
        " sured.b.add.1d.u32.trap [%rd1, {%r3}], %r1;\n"
        " add.s32 %r5, %r3, 32;\n sured.b.min.1d.s32.trap [%rd1, {%r5}], %r4;\n"
        " add.s32 %r5, %r3, 64;\n sured.b.max.1d.s32.trap [%rd1, {%r5}], %r4;\n"
        " add.s32 %r5, %r3, 96;\n shl.b32 %r6, 1, %r2;\n sured.b.or.1d.b32.trap [%rd1, {%r5}], %r1;\n"
        " add.s32 %r5, %r3, 128;\n sured.b.and.1d.b32.trap [%rd1, {%r5}], %r1;\n"
        " shl.b32 %r5, %r2, 3;\n cvt.u64.u32 %rd3, %r1;\n shl.b64 %rd3, %rd3, 32;\n"
        " sured.b.add.1d.u64.trap [%rd2, {%r5}], %rd3;\n"
        " sured.b.add.1d.u32.zero [%rd1, {%r7}], 1;\n"     /* far past the end: dropped */
        " sured.b.add.1d.u32.clamp [%rd1, {%r7}], 1;\n"    /* clamped to the last element */
        " ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "sured kernel loads: %s", e.diag.msg);
        return;
    }
    enum { N = 256, W32 = 48, W64 = 8 };
    uint32_t *a = ptx_alloc(&e, W32 * 4);
    uint64_t *b = ptx_alloc(&e, W64 * 8);
    for (unsigned i = 0; i < 8; i++) {
        a[8 + i] = 0x7FFFFFFFu;                          /* min's identity */
        a[16 + i] = 0x80000000u;                         /* max's identity */
        a[32 + i] = 0xFFFFFFFFu;                         /* and's identity */
    }
    isa_image img32 = { .base = (uint64_t)(uintptr_t)a, .width = W32, .height = 1, .depth = 1, .pitch = W32 * 4,
                        .channels = 1, .channel_bytes = 4, .channel_kind = ISA_CHAN_UNSIGNED, .surface = 1 };
    isa_image img64 = img32;
    img64.base = (uint64_t)(uintptr_t)b;
    img64.width = W64 * 2;
    img64.pitch = W64 * 8;
    uint64_t h32 = 0, h64 = 0;
    exec_memory *mem = exec_program_memory(e.p);
    ptx_status st = exec_image_create(mem, &img32, &h32);
    if (st == PTX_OK)
        st = exec_image_create(mem, &img64, &h64);
    uint64_t args[3] = { h32, h64, 100000 };
    if (st == PTX_OK)
        st = ptx_launch(&e, "k", 1, N, 3, args);
    CHECK(st == PTX_OK, "sured kernel runs: %s", e.err.msg);
    unsigned bad = 0;
    for (unsigned i = 0; i < 8 && st == PTX_OK; i++) {
        uint32_t sum = 0, orv = 0, andv = 0xFFFFFFFFu;
        int32_t mn = INT32_MAX, mx = INT32_MIN;
        uint64_t sum64 = 0;
        for (unsigned t = i; t < N; t += 8) {
            sum += t;
            int32_t v = 100 - (int32_t)t;
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
            orv |= t;
            andv &= t;
            sum64 += (uint64_t)t << 32;
        }
        uint32_t got[5] = { a[i], a[8 + i], a[16 + i], a[24 + i], a[32 + i] };
        uint32_t want[5] = { sum, (uint32_t)mn, (uint32_t)mx, orv, andv };
        for (unsigned k = 0; k < 5; k++)
            if (got[k] != want[k] && bad++ < 6)
                printf("  element %u of reduction %u: 0x%08x, want 0x%08x\n", i, k, got[k], want[k]);
        if (b[i] != sum64 && bad++ < 6)
            printf("  u64 element %u: 0x%llx, want 0x%llx\n", i, (unsigned long long)b[i], (unsigned long long)sum64);
    }
    CHECK(bad == 0, "sured add/min/max/or/and on u32, s32, b32 and u64 match serial reductions (%u wrong)", bad);
    CHECK(st != PTX_OK || a[W32 - 1] == N, ".clamp reduces into the last element (%u, want %u); .zero drops",
          a[W32 - 1], (unsigned)N);

    /* .trap past the end: an illegal address naming the surface's memory. */
    const char *trap = HEADER ".visible .entry t(.param .u64 s)\n{\n .reg .b64 %rd1;\n"
                       " ld.param.u64 %rd1, [s];\n sured.b.add.1d.u32.trap [%rd1, {1000}], 1;\n ret;\n}\n";
    ptx_env e2;
    if (ptx_load(&e2, trap)) {
        uint32_t *c = ptx_alloc(&e2, 16);
        isa_image im = img32;
        im.base = (uint64_t)(uintptr_t)c;
        im.width = 4;
        im.pitch = 16;
        uint64_t h = 0;
        ptx_status s2 = exec_image_create(exec_program_memory(e2.p), &im, &h);
        if (s2 == PTX_OK)
            s2 = ptx_launch(&e2, "t", 1, 1, 1, &h);
        CHECK(s2 == PTX_E_ILLEGAL_ADDRESS, "sured.trap past the surface's end is an illegal address: %s",
              ptx_status_name(s2));
        ptx_unload(&e2);
    } else {
        CHECK(false, "sured.trap kernel loads: %s", e2.diag.msg);
    }
    ptx_unload(&e);
}


/* What GCC's nvptx backend writes (OpenMP and OpenACC offloading): '%'-named
 * parameters (%in_ar0, %value_out), call arguments declared as a
 * parameterized range (.param .u64 %P<2>), vector registers (.reg .v2 .u32
 * %v: elements %v.x and %v.y, %v alone the vector), and the address of a
 * variable with an offset (cvta.global.u64 %r, arr+8). */
static void test_gcc_idioms(void)
{
    const char *ptx = HEADER
        ".func (.param .u32 %value_out) add2 (.param .u64 %in_ar0, .param .u32 %in_ar1)\n{\n"
        " .reg .u64 %ar0;\n .reg .u32 %ar1;\n .reg .u32 %r<3>;\n"
        " ld.param.u64 %ar0, [%in_ar0];\n ld.param.u32 %ar1, [%in_ar1];\n"
        " ld.u32 %r1, [%ar0];\n add.u32 %r2, %r1, %ar1;\n st.param.u32 [%value_out], %r2;\n ret;\n}\n"
        ".global .align 4 .u32 arr[4] = {1, 2, 3, 4};\n"
        ".global .align 8 .s64 most_negative = -9223372036854775808;\n"
        ".visible .entry k(.param .u64 %out)\n{\n"
        " .reg .u64 %R<4>;\n .reg .u32 %r<8>;\n .reg .v2 .u32 %v;\n .reg .v4 .f32 %q, %w;\n"
        " ld.param.u64 %R0, [%out];\n mov.u32 %r0, %tid.x;\n"
        " mul.wide.u32 %R1, %r0, 64;\n add.u64 %R2, %R0, %R1;\n"
        " mov.v2.u32 %v, { 0, 0 };\n mov.u32 %v.x, %r0;\n add.u32 %v.y, %r0, 100;\n"
        " st.v2.u32 [%R2], %v;\n"
        " {\n .param .u64 %P<2>;\n .param .u32 %rv;\n"
        "  st.param.u64 [%P0], %R2;\n st.param.u32 [%P1], 7;\n"
        "  call (%rv), add2, (%P0, %P1);\n ld.param.u32 %r1, [%rv];\n }\n"
        " st.u32 [%R2+8], %r1;\n"
        " mov.v2.u32 %v, { 0x12345678, 0x9abcdef0 };\n st.v2.u32 [%R2+32], %v;\n"
        " cvt.rn.f32.u32 %q.r, %r0;\n mov.f32 %q.g, 0f3F800000;\n mov.f32 %q.b, 0f40000000;\n mov.f32 %q.a, 0f40400000;\n"
        " st.v4.f32 [%R2+16], %q;\n ld.v4.f32 %w, [%R2+16];\n"
        " cvta.global.u64 %R3, arr+8;\n ld.u32 %r2, [%R3];\n mov.u64 %R3, arr + 12;\n ld.global.u32 %r3, [%R3];\n"
        " mad.lo.u32 %r2, %r3, 10, %r2;\n st.u32 [%R2+40], %r2;\n"
        " ld.global.u64 %R3, [most_negative];\n st.u64 [%R2+48], %R3;\n"
        " add.f32 %w.w, %w.x, %w.w;\n st.f32 [%R2+12], %w.w;\n"
        " ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "GCC-style kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 32 * 64);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "k", 1, 32, 1, args);
    CHECK(st == PTX_OK, "GCC-style kernel runs: %s", e.err.msg);
    for (uint32_t t = 0; t < 32 && st == PTX_OK; t++) {
        const uint32_t *o = out + t * 16;
        float q[5];
        memcpy(q, o + 3, sizeof q);
        CHECK(o[0] == t && o[1] == t + 100, "thread %u: vector register stored {%u, %u}", t, o[0], o[1]);
        CHECK(o[2] == t + 7, "thread %u: call through %%-named parameters gave %u", t, o[2]);
        CHECK(o[10] == 43, "thread %u: cvta/mov of var+imm read %u", t, o[10]);
        CHECK(o[12] == 0 && o[13] == 0x80000000u, "thread %u: an initialiser of -2^63 (gfortran's -huge()-1) %#x %#x",
              t, o[12], o[13]);
        CHECK(o[8] == 0x12345678 && o[9] == 0x9abcdef0, "thread %u: mov.v2.u32 of immediates gave {%#x, %#x}", t,
              o[8], o[9]);
        CHECK(q[0] == (float)t + 3.0f && q[1] == (float)t && q[2] == 1.0f && q[3] == 2.0f && q[4] == 3.0f,
              "thread %u: .v4 register's elements (.r .g .b .a, .x .w) %g %g %g %g %g", t, q[0], q[1], q[2], q[3], q[4]);
    }
    ptx_unload(&e);

    static const struct { const char *ptx, *says; } bad[] = {
        { ".visible .entry k()\n{\n .reg .v2 .u32 %v;\n mov.u32 %v.z, 1;\n ret;\n}\n", "has no element '.z'" },
        { ".visible .entry k()\n{\n .reg .v2 .u32 %v<4>;\n ret;\n}\n", "a range of vector registers" },
        { ".visible .entry k()\n{\n .reg .v2 .pred %v;\n ret;\n}\n", "8- to 64-bit" },
        { ".visible .entry k()\n{\n .local .u32 %l<2> = { 1, 2 };\n ret;\n}\n", "take no array size or initialiser" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", HEADER, bad[i].ptx);
        ptx_diag d = {0};
        isa_module *m = fe_parse(text, strlen(text), "bad.ptx", &d);
        CHECK(!m && strstr(d.msg, bad[i].says), "bad declaration %zu refused saying '%s': %s", i, bad[i].says, d.msg);
        isa_module_free(m);
    }
}

/* A barrier with a thread count completes as its last warp arrives, though
 * other warps of the block spin meanwhile: warp 0 and warp 2 meet at
 * `bar.sync 1, 64`, then warp 0 raises a flag in shared memory that warp 1
 * spins on (GCC's OpenMP runtime: a lock's holder waits at such a barrier
 * while other warps spin on the lock).  Were the barrier looked at only
 * once no warp could run, the block would spin until the budget. */
static void test_counted_barrier_beside_spinners(void)
{
    const char *ptx = HEADER
        ".visible .entry k(.param .u64 out)\n{\n"
        " .shared .u32 flag;\n .reg .pred %p<3>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<3>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n shr.u32 %r2, %r1, 5;\n"
        " setp.eq.u32 %p1, %r2, 1;\n @%p1 bra SPIN;\n"
        " bar.sync 1, 64;\n setp.ne.u32 %p2, %r2, 0;\n @%p2 bra DONE;\n"
        " mov.u32 %r3, 1;\n st.volatile.shared.u32 [flag], %r3;\n bra DONE;\n"
        "SPIN:\n ld.volatile.shared.u32 %r4, [flag];\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra SPIN;\n"
        "DONE:\n mul.wide.u32 %rd2, %r1, 4;\n add.u64 %rd2, %rd1, %rd2;\n st.u32 [%rd2], %r2;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "counted-barrier kernel loads");
        return;
    }
    uint32_t *out = ptx_alloc(&e, 96 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 96, 1, 1 };
    ptx_status st = ptx_launch3(&e, "k", grid, block, 1, args, 0, 1u << 22);
    CHECK(st == PTX_OK, "warps meet at bar.sync 1, 64 while another spins: %s", e.err.msg);
    for (uint32_t t = 0; t < 96 && st == PTX_OK; t++)
        CHECK(out[t] == t / 32, "thread %u finished with %u", t, out[t]);
    ptx_unload(&e);
}


/* The sink `_` as a destination writes no register: atom's old value
 * (libgomp releases its locks with `atom.exch.b32 _, [lock], 0` and counts
 * with `atom.global.add.u64 _, [n], k`; these landed in the function's first
 * register, a pointer there) and setp's predicate half (`_|%q`). */
static void test_sink_destinations(void)
{
    const char *ptx = HEADER
        ".visible .entry k(.param .u64 out)\n{\n"
        " .reg .b64 %keep;\n .reg .pred %first, %q;\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
        " mov.b64 %keep, 0x1122334455667788;\n setp.eq.u32 %first, 1, 0;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " atom.global.add.u32 _, [%rd1+8], 1;\n atom.global.exch.b32 _, [%rd1+12], 5;\n"
        " atom.global.add.u64 _, [%rd1+16], 3;\n"
        " setp.lt.u32 _|%q, %r1, 100;\n"
        " @%q bra DONE;\n selp.u32 %r3, 7, 9, %first;\n"
        " st.global.u64 [%rd1], %keep;\n st.global.u32 [%rd1+24], %r3;\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "sink kernel loads");
        return;
    }
    uint64_t *out = ptx_alloc(&e, 64);
    memset(out, 0, 64);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "k", 1, 32, 1, args);
    CHECK(st == PTX_OK, "sink kernel runs: %s", e.err.msg);
    uint32_t *w = (uint32_t *)out;
    CHECK(out[0] == 0x1122334455667788ull, "atom with a `_` destination left the first register alone: %#llx",
          (unsigned long long)out[0]);
    CHECK(w[2] == 32 && w[3] == 5 && out[2] == 96, "the atomics ran: %u %u %llu", w[2], w[3], (unsigned long long)out[2]);
    CHECK(w[6] == 9, "setp's `_` half left the first predicate alone (%u)", w[6]);
    ptx_unload(&e);
}

/* More variables than 16 bits count: a module linked with MathDx declares
 * 105,758.  The 70,000th and later are named by index, by parameters and
 * by variables' addresses alike (they were cut to 16 bits: the kernel read
 * another variable for its parameter). */
static void test_many_variables(void)
{
    enum { NVARS = 70000 };
    size_t cap = (size_t)NVARS * 48 + 4096, n = 0;
    char *ptx = malloc(cap);
    if (!ptx) {
        CHECK(false, "memory for the module");
        return;
    }
    n += (size_t)snprintf(ptx + n, cap - n, "%s", HEADER);
    for (unsigned i = 0; i < NVARS; i++)
        n += (size_t)snprintf(ptx + n, cap - n, ".global .align 4 .u32 g%u = %u;\n", i, i);
    snprintf(ptx + n, cap - n,
             ".visible .entry k(.param .u64 out, .param .u64 v)\n{\n .reg .b32 %%r<3>;\n .reg .b64 %%rd<5>;\n"
             " ld.param.u64 %%rd1, [out];\n ld.param.u64 %%rd2, [v];\n ld.global.u32 %%r1, [g69999];\n"
             " mov.u64 %%rd3, g65537;\n ld.global.u32 %%r2, [%%rd3];\n"
             " st.global.u64 [%%rd1], %%rd2;\n st.global.u32 [%%rd1+8], %%r1;\n st.global.u32 [%%rd1+12], %%r2;\n"
             " ret;\n}\n");
    ptx_env e;
    bool loaded = ptx_load(&e, ptx);
    free(ptx);
    if (!loaded) {
        CHECK(false, "a module of %u variables loads: %s", NVARS, e.diag.msg);
        return;
    }
    uint64_t *out = ptx_alloc(&e, 16);
    uint64_t args[] = { (uint64_t)(uintptr_t)out, 0x1234567890ull };
    ptx_status st = ptx_launch(&e, "k", 1, 1, 2, args);
    CHECK(st == PTX_OK, "the kernel runs: %s", e.err.msg);
    uint32_t *w = (uint32_t *)out;
    CHECK(out[0] == 0x1234567890ull, "its parameter reads as given: %#llx", (unsigned long long)out[0]);
    CHECK(w[2] == 69999 && w[3] == 65537, "variables 69999 and 65537 read by name and by address: %u %u", w[2], w[3]);
    ptx_unload(&e);
}

static const check_case cases[] = {
    CASE(shared_per_kernel),
    CASE(many_variables),
    CASE(shared_wrap),
    CASE(grid_sync),
    CASE(fp8_convert),
    CASE(vector_immediates),
    CASE(stepping),
    CASE(families),
    CASE(spin_between_warps),
    CASE(divergence),
    CASE(contraction),
    CASE(divergent_exit_and_barrier),
    CASE(calls),
    CASE(redeclared_function),
    CASE(indirect_calls),
    CASE(address_initialisers),
    CASE(link),
    CASE(faults),
    CASE(race),
    CASE(race_global),
    CASE(matrix),
    CASE(reserved_smem),
    CASE(pack_szext_elect),
    CASE(bmsk),
    CASE(sured),
    CASE(bar_red),
    CASE(scoped_registers),
    CASE(unwritten_registers),
    CASE(return_before_barrier),
    CASE(shared_packing),
    CASE(gcc_idioms),
    CASE(counted_barrier_beside_spinners),
    CASE(sink_destinations),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, cases);
}

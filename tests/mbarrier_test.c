/*
 * mbarrier_test.c -- mbarrier objects, cp.async.mbarrier.arrive and bulk
 * copies run end to end through the engine: phases with several warps
 * arriving and waiting, parity waits, arrivals with a count, arrive_drop,
 * expect_tx with cp.async.bulk, pending_count; and the faults: a
 * misaligned bulk copy, an uninitialised barrier, a count out of range, and
 * a barrier nobody completes, reported as a deadlock rather than spun on;
 * and the same under the timing model.
 */
#include "check.h"
#include "ptx_run.h"
#include "timing.h"

#include <stdlib.h>

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

static bool load(ptx_env *e, const char *ptx, const char *what)
{
    if (ptx_load(e, ptx))
        return true;
    CHECK(false, "%s loads: %s", what, e->diag.msg);
    return false;
}

/* 128 threads (4 warps) pass 3 rounds through two barriers: `full` after
 * each writes its slot of a shared buffer, `empty` after each has read
 * another thread's slot (so the next round may overwrite it).  full is
 * waited on with the arrive's state (test_wait), empty with the phase
 * parity (try_wait.parity).  Warp 3 dawdles before writing, so the others
 * must wait for it.  out[t] = sum over rounds r of (r * 1000 + (t + 37) % 128). */
static void test_phases(void)
{
    const char *ptx = HEADER
        ".visible .entry phases(.param .u64 out)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<20>;\n .reg .b64 %rd<8>;\n"
        " .shared .align 8 .b64 full;\n .shared .align 8 .b64 empty;\n .shared .align 4 .b32 buf[128];\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n"
        " mbarrier.init.shared.b64 [full], 128;\n mbarrier.init.shared::cta.b64 [empty], 128;\n"
        "READY:\n bar.sync 0;\n"
        " mov.u32 %r2, 0;\n mov.u32 %r3, 0;\n"           /* round, sum */
        " add.u32 %r4, %r1, 37;\n rem.u32 %r4, %r4, 128;\n"
        " mov.u32 %r10, buf;\n shl.b32 %r11, %r1, 2;\n add.u32 %r11, %r10, %r11;\n"
        " shl.b32 %r12, %r4, 2;\n add.u32 %r12, %r10, %r12;\n"
        "ROUND:\n"
        " setp.lt.u32 %p2, %r1, 96;\n @%p2 bra WRITE;\n"
        " mov.u32 %r5, 0;\n"
        "DAWDLE:\n add.u32 %r5, %r5, 1;\n setp.lt.u32 %p3, %r5, 3000;\n @%p3 bra DAWDLE;\n"
        "WRITE:\n mul.lo.u32 %r6, %r2, 1000;\n add.u32 %r7, %r6, %r1;\n st.shared.u32 [%r11], %r7;\n"
        " mbarrier.arrive.shared.b64 %rd2, [full];\n"
        "WFULL:\n mbarrier.test_wait.shared.b64 %p1, [full], %rd2;\n @!%p1 bra WFULL;\n"
        " ld.shared.u32 %r8, [%r12];\n add.u32 %r3, %r3, %r8;\n"
        " and.b32 %r9, %r2, 1;\n"
        " mbarrier.arrive.release.cta.shared::cta.b64 %rd3, [empty];\n"
        "WEMPTY:\n mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [empty], %r9;\n @!%p1 bra WEMPTY;\n"
        " add.u32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, 3;\n @%p2 bra ROUND;\n"
        " mul.wide.u32 %rd4, %r1, 4;\n add.s64 %rd5, %rd1, %rd4;\n st.global.u32 [%rd5], %r3;\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "phases"))
        return;
    uint32_t *out = ptx_alloc(&e, 128 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "phases", 2, 128, 1, args);
    CHECK(st == PTX_OK, "phases kernel runs: %s", e.err.msg);
    unsigned wrong = 0;
    for (uint32_t t = 0; t < 128; t++)
        wrong += out[t] != 3000 + 3 * ((t + 37) % 128);
    CHECK(wrong == 0, "%u threads read a slot before its writer arrived (out[0] = %u)", wrong, out[0]);
    ptx_unload(&e);
}

/* Arrivals with a count, pending_count, arrive_drop and arrive.noComplete:
 * two warps whose lane 0 arrives; out[] records what each saw. */
static void test_counts_and_drop(void)
{
    const char *ptx = HEADER
        ".visible .entry counts(.param .u64 out)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n"
        " .shared .align 8 .b64 bar;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n mbarrier.init.shared.b64 [bar], 5;\nREADY:\n bar.sync 0;\n"
        " and.b32 %r2, %r1, 31;\n setp.ne.u32 %p2, %r2, 0;\n @%p2 bra WAIT0;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra WARP1;\n"
        /* warp 0: 3 arrivals of 5; pending_count says 2 are left */
        " mbarrier.arrive.shared::cta.b64 %rd2, [bar], 3;\n mbarrier.pending_count.b64 %r3, %rd2;\n"
        " st.global.u32 [%rd1], %r3;\n bra WAIT0;\n"
        /* warp 1: the last 2, one dropped for later phases: phase 0 completes */
        "WARP1:\n mbarrier.arrive.noComplete.shared.b64 %rd3, [bar], 1;\n"
        " mbarrier.pending_count.b64 %r4, %rd3;\n st.global.u32 [%rd1+4], %r4;\n"
        " mbarrier.arrive_drop.shared.b64 %rd3, [bar];\n"
        "WAIT0:\n mbarrier.try_wait.parity.shared::cta.b64 %p3, [bar], 0;\n @!%p3 bra WAIT0;\n"
        " bar.sync 0;\n"
        /* phase 1 expects 4: warp 0 lane 0 arrives 4 at once and sees it complete */
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra DONE;\n"
        " mbarrier.test_wait.parity.shared.b64 %p3, [bar], 1;\n selp.u32 %r5, 1, 0, %p3;\n st.global.u32 [%rd1+8], %r5;\n"
        " mbarrier.arrive.shared::cta.b64 %rd4, [bar], 4;\n mbarrier.pending_count.b64 %r6, %rd4;\n"
        " st.global.u32 [%rd1+12], %r6;\n"
        " mbarrier.test_wait.shared.b64 %p3, [bar], %rd4;\n selp.u32 %r7, 1, 0, %p3;\n st.global.u32 [%rd1+16], %r7;\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "counts"))
        return;
    uint32_t *out = ptx_alloc(&e, 8 * 4);
    memset(out, 0xFF, 32);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "counts", 1, 64, 1, args);
    CHECK(st == PTX_OK, "counts kernel runs: %s", e.err.msg);
    CHECK(out[0] == 2 && out[1] == 1, "pending after arrive 3 of 5: %u (want 2); after 1 more: %u (want 1)",
          out[0], out[1]);
    CHECK(out[2] == 0, "phase 1 not complete before its arrivals, test_wait said %u", out[2]);
    CHECK(out[3] == 0 && out[4] == 1, "arrive_drop left 4 expected: pending %u (want 0), complete %u (want 1)",
          out[3], out[4]);
    ptx_unload(&e);
}

/* expect_tx with cp.async.bulk: phase 0 with the expectation first
 * (arrive.expect_tx), phase 1 with the bytes first (as nvcc orders
 * cuda::memcpy_async); then a bulk copy and a bulk add back out. */
static void test_bulk(void)
{
    const char *ptx = HEADER
        ".visible .entry bulk(.param .u64 in, .param .u64 out, .param .u64 sum)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
        " .shared .align 8 .b64 bar;\n .shared .align 16 .b32 buf[64];\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n ld.param.u64 %rd3, [sum];\n"
        " mov.u32 %r1, %tid.x;\n mov.u32 %r2, buf;\n mov.u32 %r3, bar;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n mbarrier.init.shared.b64 [%r3], 1;\nREADY:\n bar.sync 0;\n"
        " @%p1 bra WAIT0;\n"
        " mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%r3], 256;\n"
        " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 256, [%r3];\n"
        "WAIT0:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;\n @!%p2 bra WAIT0;\n"
        " shl.b32 %r4, %r1, 2;\n add.u32 %r5, %r2, %r4;\n ld.shared.u32 %r6, [%r5];\n"
        " mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd2, %rd5;\n st.global.u32 [%rd6], %r6;\n"
        " bar.sync 0;\n"
        " @%p1 bra WAIT1;\n"
        " add.s64 %rd7, %rd1, 256;\n"
        " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd7], 256, [%r3];\n"
        " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r3], 256;\n"
        " mbarrier.arrive.shared::cta.b64 %rd4, [%r3];\n"
        "WAIT1:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 1;\n @!%p2 bra WAIT1;\n"
        " ld.shared.u32 %r6, [%r5];\n st.global.u32 [%rd6+256], %r6;\n"
        " bar.sync 0;\n @%p1 bra DONE;\n"
        " fence.proxy.async.shared::cta;\n"
        " cp.async.bulk.global.shared::cta.bulk_group [%rd2+512], [%r2], 256;\n"
        " cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [%r2], 256;\n"
        " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n"
        "DONE:\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "bulk"))
        return;
    uint32_t *in = ptx_alloc(&e, 512), *out = ptx_alloc(&e, 768), *sum = ptx_alloc(&e, 256);
    for (uint32_t i = 0; i < 128; i++)
        in[i] = i * 7 + 1;
    for (uint32_t i = 0; i < 64; i++)
        sum[i] = 1000;
    uint64_t args[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)sum };
    ptx_status st = ptx_launch(&e, "bulk", 1, 64, 3, args);
    CHECK(st == PTX_OK, "bulk kernel runs: %s", e.err.msg);
    unsigned wrong = 0;
    for (uint32_t i = 0; i < 128; i++)
        wrong += out[i] != in[i];
    for (uint32_t i = 0; i < 64; i++)
        wrong += out[128 + i] != in[64 + i] || sum[i] != 1000 + in[64 + i];
    CHECK(wrong == 0, "%u words wrong after bulk copies (out[0] %u out[64] %u sum[0] %u)", wrong, out[0], out[64],
          sum[0]);
    ptx_unload(&e);
}

/* cp.async with cp.async.mbarrier.arrive: without .noinc the thread still
 * arrives itself (count = threads); with .noinc the copy's arrive counts
 * (count = 2 * threads). */
static void test_cp_async_arrive(void)
{
    const char *ptx = HEADER
        ".visible .entry cpa(.param .u64 in, .param .u64 out, .param .u32 noinc)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
        " .shared .align 8 .b64 bar;\n .shared .align 16 .b32 buf[64];\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r9, [noinc];\n"
        " setp.ne.u32 %p3, %r9, 0;\n"
        " mov.u32 %r1, %tid.x;\n mov.u32 %r2, buf;\n mov.u32 %r3, bar;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n"
        " selp.u32 %r8, 128, 64, %p3;\n mbarrier.init.shared.b64 [%r3], %r8;\nREADY:\n bar.sync 0;\n"
        " shl.b32 %r4, %r1, 2;\n add.u32 %r5, %r2, %r4;\n mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd1, %rd5;\n"
        " cp.async.ca.shared.global [%r5], [%rd6], 4;\n"
        " @%p3 cp.async.mbarrier.arrive.noinc.shared.b64 [%r3];\n"
        " @!%p3 cp.async.mbarrier.arrive.shared.b64 [%r3];\n"
        " mbarrier.arrive.shared.b64 %rd3, [%r3];\n"
        "WAIT:\n mbarrier.test_wait.shared.b64 %p2, [%r3], %rd3;\n @!%p2 bra WAIT;\n"
        " xor.b32 %r6, %r4, 252;\n add.u32 %r7, %r2, %r6;\n ld.shared.u32 %r8, [%r7];\n"
        " add.s64 %rd7, %rd2, %rd5;\n st.global.u32 [%rd7], %r8;\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "cp.async arrive"))
        return;
    uint32_t *in = ptx_alloc(&e, 256), *out = ptx_alloc(&e, 256);
    for (uint32_t i = 0; i < 64; i++)
        in[i] = i * 3 + 5;
    for (uint64_t noinc = 0; noinc < 2; noinc++) {
        memset(out, 0, 256);
        uint64_t args[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, noinc };
        ptx_status st = ptx_launch(&e, "cpa", 1, 64, 3, args);
        CHECK(st == PTX_OK, "cp.async.mbarrier.arrive%s runs: %s", noinc ? ".noinc" : "", e.err.msg);
        unsigned wrong = 0;
        for (uint32_t i = 0; i < 64; i++)
            wrong += out[i] != in[63 - i];
        CHECK(wrong == 0, "cp.async.mbarrier.arrive%s: %u words wrong", noinc ? ".noinc" : "", wrong);
    }
    ptx_unload(&e);
}

/* A producer warp works longer than a scheduler slice before it arrives;
 * the consumers spinning on try_wait must neither hold it up nor be taken
 * for a deadlock. */
static void test_slow_producer(void)
{
    const char *ptx = HEADER
        ".visible .entry slow(.param .u64 out)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n .shared .align 8 .b64 bar;\n"
        " .shared .align 4 .b32 val;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n mbarrier.init.shared.b64 [bar], 1;\nREADY:\n bar.sync 0;\n"
        " @%p1 bra WAIT;\n mov.u32 %r2, 0;\n mov.u32 %r3, 0;\n"
        "WORK:\n add.u32 %r3, %r3, %r2;\n add.u32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, 20000;\n @%p2 bra WORK;\n"
        " st.shared.u32 [val], %r3;\n mbarrier.arrive.release.cta.shared::cta.b64 _, [bar];\n"
        "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %p3, [bar], 0, 100;\n @!%p3 bra WAIT;\n"
        " ld.shared.u32 %r4, [val];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " st.global.u32 [%rd3], %r4;\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "slow producer"))
        return;
    uint32_t *out = ptx_alloc(&e, 256 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    ptx_status st = ptx_launch(&e, "slow", 1, 256, 1, args);
    uint32_t want = 20000u * 19999u / 2;
    CHECK(st == PTX_OK && out[0] == want && out[255] == want, "slow producer: %s; out[255] = %u", e.err.msg,
          out[255]);
    CHECK(e.stats.warp_insts < 200000, "consumers yield rather than spin through their slices: %llu warp-insts",
          (unsigned long long)e.stats.warp_insts);
    ptx_unload(&e);
}

/* Run `body` as kernel "f" in 1 block of `threads`; the error in *err. */
static ptx_status run_fault(const char *body, unsigned threads, exec_error *err)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HEADER ".visible .entry f(.param .u64 g)\n{\n"
             " .reg .pred %%p<4>;\n .reg .b32 %%r<12>;\n .reg .b64 %%rd<8>;\n"
             " .shared .align 16 .b64 bar[2];\n .shared .align 16 .b8 buf[256];\n"
             " ld.param.u64 %%rd1, [g];\n mov.u32 %%r1, %%tid.x;\n mov.u32 %%r2, buf;\n mov.u32 %%r3, bar;\n%s}\n",
             body);
    ptx_env e;
    if (!load(&e, ptx, "fault kernel"))
        return PTX_E_SYNTAX;
    void *g = ptx_alloc(&e, 1024);
    uint64_t args[] = { (uint64_t)(uintptr_t)g };
    ptx_status st = ptx_launch(&e, "f", 1, threads, 1, args);
    *err = e.err;
    ptx_unload(&e);
    return st;
}

static void test_faults(void)
{
    exec_error err;
    /* A bulk copy whose size is not a multiple of 16. */
    ptx_status st = run_fault(" mbarrier.init.shared.b64 [%r3], 1;\n"
        " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 100, [%r3];\n ret;\n",
        1, &err);
    CHECK(st == PTX_E_MISALIGNED && strstr(err.msg, "cp.async.bulk") && strstr(err.msg, "multiple of 16"),
          "bulk copy of 100 bytes: %s", err.msg);
    /* One from a misaligned global address. */
    st = run_fault(" mbarrier.init.shared.b64 [%r3], 1;\n"
        " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1+8], 64, [%r3];\n ret;\n",
        1, &err);
    CHECK(st == PTX_E_MISALIGNED && strstr(err.msg, "global address"), "misaligned bulk source: %s", err.msg);
    /* Out of the shared buffer. */
    st = run_fault(" mbarrier.init.shared.b64 [%r3], 1;\n"
        " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2+128], [%rd1], 512, [%r3];\n ret;\n",
        1, &err);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS && strstr(err.msg, "shared address"), "bulk copy past shared: %s", err.msg);
    /* An arrive on a barrier nobody initialised. */
    st = run_fault(" mbarrier.arrive.shared.b64 %rd2, [%r3+8];\n ret;\n", 32, &err);
    CHECK(st == PTX_E_MBARRIER && strstr(err.msg, "not initialised") && strstr(err.msg, "'bar' + 8"),
          "arrive on an uninitialised barrier: %s", err.msg);
    /* A count out of range, and more arrivals than are pending. */
    st = run_fault(" mbarrier.init.shared.b64 [%r3], 0;\n ret;\n", 1, &err);
    CHECK(st == PTX_E_MBARRIER && strstr(err.msg, "count 0"), "init count 0: %s", err.msg);
    st = run_fault(" mbarrier.init.shared.b64 [%r3], 2;\n mbarrier.arrive.shared.b64 %rd2, [%r3], 3;\n ret;\n", 1,
                   &err);
    CHECK(st == PTX_E_MBARRIER && strstr(err.msg, "2 of 2 arrivals pending"), "arrive 3 of 2: %s", err.msg);
    /* A barrier that is not 8-byte aligned. */
    st = run_fault(" mbarrier.init.shared.b64 [%r3+4], 1;\n ret;\n", 1, &err);
    CHECK(st == PTX_E_MISALIGNED, "misaligned barrier, got %s", ptx_status_name(st));
    /* A barrier that expects 64 arrivals in a block of 32 threads: the
     * waits fail for ever.  Reported as a deadlock, not spun on until the
     * instruction budget runs out. */
    st = run_fault(" setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n mbarrier.init.shared.b64 [%r3], 64;\n"
                   "READY:\n bar.sync 0;\n mbarrier.arrive.shared.b64 %rd2, [%r3];\n"
                   "WAIT:\n mbarrier.try_wait.shared.b64 %p2, [%r3], %rd2;\n @!%p2 bra WAIT;\n ret;\n", 32, &err);
    CHECK(st == PTX_E_DEADLOCK && strstr(err.msg, "mbarrier") && strstr(err.msg, "32 of 64 arrivals pending") &&
              err.ptx_line > 0, "barrier never completed: %s", err.msg);
    /* Two warps each waiting for the other's barrier, one more warp at a
     * bar.sync they never reach. */
    st = run_fault(" setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n mbarrier.init.shared.b64 [%r3], 1;\n"
                   " mbarrier.init.shared.b64 [%r3+8], 1;\nREADY:\n bar.sync 0;\n"
                   " setp.ge.u32 %p3, %r1, 64;\n @%p3 bra LATE;\n"
                   " setp.lt.u32 %p1, %r1, 32;\n selp.u32 %r4, 0, 8, %p1;\n add.u32 %r5, %r3, %r4;\n"
                   "WAIT:\n mbarrier.test_wait.parity.shared.b64 %p2, [%r5], 0;\n @!%p2 bra WAIT;\n"
                   " xor.b32 %r4, %r4, 8;\n add.u32 %r5, %r3, %r4;\n mbarrier.arrive.shared.b64 _, [%r5];\n ret;\n"
                   "LATE:\n bar.sync 1, 64;\n ret;\n", 96, &err);
    CHECK(st == PTX_E_DEADLOCK && strstr(err.msg, "warp 0 waits") && strstr(err.msg, "warp 1 waits") &&
              strstr(err.msg, "1 wait at bar.sync"), "crossed waits: %s", err.msg);
}

/* The timing model runs what the engine runs: a producer and spinning
 * consumers, then a barrier nobody completes (a deadlock, not a hang). */
static void test_timing(void)
{
    const char *ptx = HEADER
        ".visible .entry k(.param .u64 out, .param .u32 need)\n{\n"
        " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n .shared .align 8 .b64 bar;\n"
        " .shared .align 4 .b32 val;\n"
        " ld.param.u64 %rd1, [out];\n ld.param.u32 %r9, [need];\n mov.u32 %r1, %tid.x;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra READY;\n mbarrier.init.shared.b64 [bar], %r9;\nREADY:\n bar.sync 0;\n"
        " @%p1 bra WAIT;\n mov.u32 %r2, 0;\n mov.u32 %r3, 0;\n"
        "WORK:\n add.u32 %r3, %r3, %r2;\n add.u32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, 500;\n @%p2 bra WORK;\n"
        " st.shared.u32 [val], %r3;\n mbarrier.arrive.shared::cta.b64 %rd4, [bar];\n"
        "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %p3, [bar], 0;\n @!%p3 bra WAIT;\n"
        " ld.shared.u32 %r4, [val];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " st.global.u32 [%rd3], %r4;\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "timing kernel"))
        return;
    uint32_t *out = ptx_alloc(&e, 128 * 4);
    tm_config c;
    tm_config_defaults(&c);
    c.n_sm = 1;
    for (uint32_t need = 1; need <= 2; need++) {
        tm_gpu *g = tm_new(&c);
        int k = exec_program_kernel(e.p, "k");
        const exec_kernel_info *ki = exec_program_kernel_info(e.p, k);
        uint8_t params[16] = {0};
        uint64_t a = (uint64_t)(uintptr_t)out;
        memcpy(params + ki->params[0].offset, &a, 8);
        memcpy(params + ki->params[1].offset, &need, 4);
        exec_launch l = { .grid = { 1, 1, 1 }, .block = { 128, 1, 1 }, .args = params, .nsm = 1 };
        exec_stats xs = {0};
        tm_stats st;
        memset(&e.err, 0, sizeof e.err);
        ptx_status r = tm_run(g, e.p, k, &l, &st, &xs, &e.err);
        if (need == 1)
            CHECK(r == PTX_OK && out[127] == 500 * 499 / 2, "timing: producer and consumers: %s, out %u",
                  e.err.msg, out[127]);
        else
            CHECK(r == PTX_E_DEADLOCK && strstr(e.err.msg, "mbarrier"), "timing: barrier never completes: %s %s",
                  ptx_status_name(r), e.err.msg);
        tm_free(g);
    }
    ptx_unload(&e);
}

/* Every spelling in tests/ptx/mbarrier_forms.ptx parses and runs. */
static void test_forms(void)
{
    const char *dir = check_src_dir;
    char path[512];
    snprintf(path, sizeof path, "%s/ptx/mbarrier_forms.ptx", dir);
    size_t len;
    char *text = ptx_read_file(path, &len);
    CHECK(text != NULL, "read %s", path);
    if (!text)
        return;
    ptx_env e;
    if (load(&e, text, "mbarrier_forms.ptx")) {
        uint32_t *in = ptx_alloc(&e, 256), *out = ptx_alloc(&e, 256), *out2 = ptx_alloc(&e, 256);
        for (uint32_t i = 0; i < 64; i++)
            in[i] = i + 1, out2[i] = 5;
        uint64_t args[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)out2 };
        ptx_status st = ptx_launch(&e, "forms", 1, 1, 3, args);
        CHECK(st == PTX_OK, "mbarrier_forms.ptx runs: %s", e.err.msg);
        unsigned wrong = 0;
        for (uint32_t i = 0; i < 64; i++)
            wrong += out[i] != i + 1 || out2[i] != i + 6;
        CHECK(wrong == 0, "mbarrier_forms.ptx: %u words wrong", wrong);
        ptx_unload(&e);
    }
    free(text);
}

static const check_case cases[] = {
    CASE(phases),
    CASE(counts_and_drop),
    CASE(bulk),
    CASE(cp_async_arrive),
    CASE(slow_producer),
    CASE(faults),
    CASE(timing),
    CASE(forms),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, cases);
}

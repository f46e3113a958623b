/*
 * cluster_test.c -- thread block clusters run end to end through the
 * engine: the cluster special registers of a 2x2 cluster grid, mapa with
 * remote loads and stores between the CTAs of a cluster around
 * barrier.cluster, remote atomics from every CTA into rank 0, getctarank
 * and isspacep; st.async and red.async completing on the next CTA's
 * mbarrier (and the forms refused); and what goes wrong: a rank the cluster does not have
 * (a fault naming the rank and address), a thread that never arrives (a
 * deadlock, not a hang), a CTA that exits instead of arriving (not waited
 * for), launches whose grid is no whole number of clusters; and the same
 * kernels under the timing model.
 */
#include "check.h"
#include "ptx_run.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

static bool load(ptx_env *e, const char *ptx, const char *what)
{
    if (ptx_load(e, ptx))
        return true;
    CHECK(false, "%s loads: %s", what, e->diag.msg);
    return false;
}

/* Launch `kernel` with up to 4 64-bit arguments; cluster all 0: the
 * kernel's own cluster dimensions.  timing: through the timing model. */
static ptx_status run(ptx_env *e, const char *kernel, const uint32_t grid[3], uint32_t block,
                      const uint32_t cluster[3], unsigned nargs, const uint64_t *args, bool timing)
{
    uint8_t params[256];
    int k = ptx_params(e, kernel, nargs, args, params);
    if (k < 0)
        return PTX_E_NOT_FOUND;
    exec_launch l = { .block = { block, 1, 1 }, .args = params, .nsm = 4, .max_warp_insts = 1u << 24 };
    memcpy(l.grid, grid, sizeof l.grid);
    if (cluster)
        memcpy(l.cluster, cluster, sizeof l.cluster);
    memset(&e->stats, 0, sizeof e->stats);
    memset(&e->err, 0, sizeof e->err);
    if (!timing)
        return exec_launch_run(e->p, k, &l, &e->stats, &e->err);
    tm_config c;
    tm_config_defaults(&c);
    c.n_sm = 3;             /* fewer SMs than some clusters have CTAs */
    tm_gpu *g = tm_new(&c);
    tm_stats st;
    ptx_status r = tm_run(g, e->p, k, &l, &st, &e->stats, &e->err);
    tm_free(g);
    return r;
}

/* Every special register of every CTA of a 4x4 grid of 2x2 clusters
 * (out[cta * 16 + i]), and of a launch without clusters. */
static void test_sregs(bool timing)
{
    const char *ptx = HEADER
        ".visible .entry ids(.param .u64 out)\n.explicitcluster\n.reqnctapercluster 2, 2, 1\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<8>;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n setp.ne.u32 %p1, %r1, 0;\n @%p1 bra DONE;\n"
        " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ctaid.y;\n mov.u32 %r4, %nctaid.x;\n"
        " mad.lo.u32 %r5, %r3, %r4, %r2;\n mul.wide.u32 %rd2, %r5, 64;\n add.s64 %rd3, %rd1, %rd2;\n"
        " mov.u32 %r6, %clusterid.x;\n st.global.u32 [%rd3], %r6;\n"
        " mov.u32 %r6, %clusterid.y;\n st.global.u32 [%rd3+4], %r6;\n"
        " mov.u32 %r6, %clusterid.z;\n st.global.u32 [%rd3+8], %r6;\n"
        " mov.u32 %r6, %nclusterid.x;\n st.global.u32 [%rd3+12], %r6;\n"
        " mov.u32 %r6, %nclusterid.y;\n st.global.u32 [%rd3+16], %r6;\n"
        " mov.u32 %r6, %nclusterid.z;\n st.global.u32 [%rd3+20], %r6;\n"
        " mov.u32 %r6, %cluster_ctaid.x;\n st.global.u32 [%rd3+24], %r6;\n"
        " mov.u32 %r6, %cluster_ctaid.y;\n st.global.u32 [%rd3+28], %r6;\n"
        " mov.u32 %r6, %cluster_ctaid.z;\n st.global.u32 [%rd3+32], %r6;\n"
        " mov.u32 %r6, %cluster_nctaid.x;\n st.global.u32 [%rd3+36], %r6;\n"
        " mov.u32 %r6, %cluster_nctaid.y;\n st.global.u32 [%rd3+40], %r6;\n"
        " mov.u32 %r6, %cluster_nctaid.z;\n st.global.u32 [%rd3+44], %r6;\n"
        " mov.u32 %r6, %cluster_ctarank;\n st.global.u32 [%rd3+48], %r6;\n"
        " mov.u32 %r6, %cluster_nctarank;\n st.global.u32 [%rd3+52], %r6;\n"
        " mov.u32 %r6, %is_explicit_cluster;\n st.global.u32 [%rd3+56], %r6;\n"
        "DONE:\n ret;\n}\n"
        ".visible .entry plain(.param .u64 out)\n{\n"
        " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [out];\n"
        " mov.u32 %r1, %cluster_nctarank;\n mov.u32 %r2, %is_explicit_cluster;\n mov.u32 %r3, %clusterid.x;\n"
        " st.global.v2.u32 [%rd1], {%r1, %r2};\n mov.u32 %r1, %cluster_ctarank;\n"
        " st.global.v2.u32 [%rd1+8], {%r1, %r3};\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "ids"))
        return;
    uint32_t *out = ptx_alloc(&e, 16 * 64);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    uint32_t grid[3] = { 4, 4, 1 };
    ptx_status st = run(&e, "ids", grid, 64, NULL, 1, args, timing);
    CHECK(st == PTX_OK, "ids runs (%s): %s", timing ? "timing" : "functional", e.err.msg);
    unsigned wrong = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            const uint32_t *o = out + (y * 4 + x) * 16;
            uint32_t want[15] = { x / 2, y / 2, 0, 2, 2, 1, x % 2, y % 2, 0, 2, 2, 1, x % 2 + 2 * (y % 2), 4, 1 };
            for (int i = 0; i < 15; i++)
                if (o[i] != want[i]) {
                    if (wrong++ < 4)
                        printf("  block (%u,%u) register %d: %u, expected %u\n", x, y, i, o[i], want[i]);
                }
        }
    CHECK(wrong == 0, "%u cluster register values wrong", wrong);
    uint32_t one[3] = { 1, 1, 1 };
    st = run(&e, "plain", one, 32, NULL, 1, args, timing);
    CHECK(st == PTX_OK && out[0] == 1 && out[1] == 0 && out[2] == 0 && out[3] == 0,
          "a launch without clusters: clusters of one, implicit: %s %u %u %u %u", e.err.msg, out[0], out[1],
          out[2], out[3]);
    ptx_unload(&e);
}

/* Clusters of 4 along x: each CTA's threads write their words into the
 * next CTA's buffer (generic mapa, st), meet at barrier.cluster, read back
 * their own buffer and the previous CTA's through mapa.shared::cluster and
 * ld.shared::cluster, and add one into rank 0's counter with a remote
 * atomic; rank 0 publishes the count after a second barrier.  Also
 * getctarank and isspacep on the mapped addresses.
 * out[cta * 64 + t] = (own buffer word t) + 1000 * (previous CTA's word t),
 * count[cluster] = threads of the cluster. */
static const char *exchange_ptx = HEADER
    ".visible .entry xchg(.param .u64 out, .param .u64 count, .param .u64 ranks)\n"
    ".reqnctapercluster 4\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<24>;\n"
    " .shared .align 4 .b32 buf[64];\n .shared .align 4 .b32 counter;\n"
    " ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [count];\n ld.param.u64 %rd20, [ranks];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %cluster_ctarank;\n"
    " mov.u32 %r4, %cluster_nctarank;\n"
    /* next = (rank + 1) % n, prev = (rank + n - 1) % n */
    " add.u32 %r5, %r3, 1;\n rem.u32 %r5, %r5, %r4;\n add.u32 %r6, %r3, %r4;\n sub.u32 %r6, %r6, 1;\n"
    " rem.u32 %r6, %r6, %r4;\n"
    " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra ZEROED;\n st.shared.u32 [counter], 0;\nZEROED:\n"
    " barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n"
    /* generic store into the next CTA's buf[t]: ctaid * 100 + t */
    " mov.u64 %rd3, buf;\n cvta.shared.u64 %rd4, %rd3;\n mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd4, %rd5;\n"
    " mapa.u64 %rd7, %rd6, %r5;\n mad.lo.u32 %r7, %r2, 100, %r1;\n st.u32 [%rd7], %r7;\n"
    /* remote atomic into rank 0's counter */
    " mov.u32 %r8, counter;\n mapa.shared::cluster.u32 %r9, %r8, 0;\n"
    " atom.shared::cluster.add.u32 %r10, [%r9], 1;\n"
    /* getctarank of both mapped addresses, isspacep */
    " getctarank.u64 %r11, %rd7;\n getctarank.shared::cluster.u32 %r12, %r9;\n"
    " isspacep.shared::cluster %p2, %rd7;\n isspacep.shared::cta %p3, %rd7;\n"
    " selp.u32 %r13, 1, 0, %p2;\n selp.u32 %r14, 2, 0, %p3;\n or.b32 %r13, %r13, %r14;\n"
    " barrier.cluster.arrive;\n barrier.cluster.wait;\n"
    /* own buf[t] (written by the previous CTA) and the previous CTA's buf[t] */
    " mov.u32 %r15, buf;\n shl.b32 %r16, %r1, 2;\n add.u32 %r17, %r15, %r16;\n ld.shared.u32 %r18, [%r17];\n"
    " mapa.shared::cluster.u32 %r19, %r17, %r6;\n ld.shared::cluster.u32 %r20, [%r19];\n"
    " mad.lo.u32 %r21, %r20, 1000, %r18;\n"
    " mad.lo.u32 %r22, %r2, 64, %r1;\n mul.wide.u32 %rd8, %r22, 4;\n add.s64 %rd9, %rd1, %rd8;\n"
    " st.global.u32 [%rd9], %r21;\n"
    /* ranks[cta * 64 + t] = getctarank(next) | getctarank(rank 0) << 8 | isspacep bits << 16 */
    " shl.b32 %r23, %r12, 8;\n or.b32 %r23, %r23, %r11;\n shl.b32 %r24, %r13, 16;\n or.b32 %r23, %r23, %r24;\n"
    " add.s64 %rd21, %rd20, %rd8;\n st.global.u32 [%rd21], %r23;\n"
    /* everyone has added and read: rank 0 publishes its counter */
    " barrier.cluster.arrive;\n barrier.cluster.wait;\n"
    " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra DONE;\n setp.ne.u32 %p1, %r3, 0;\n @%p1 bra DONE;\n"
    " mov.u32 %r25, %clusterid.x;\n ld.shared.u32 %r26, [counter];\n mul.wide.u32 %rd10, %r25, 4;\n"
    " add.s64 %rd11, %rd2, %rd10;\n st.global.u32 [%rd11], %r26;\n"
    "DONE:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

static void test_exchange(bool timing)
{
    ptx_env e;
    if (!load(&e, exchange_ptx, "xchg"))
        return;
    const uint32_t nctas = 8;
    uint32_t *out = ptx_alloc(&e, nctas * 64 * 4), *count = ptx_alloc(&e, 16), *ranks = ptx_alloc(&e, nctas * 64 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)count, (uint64_t)(uintptr_t)ranks };
    uint32_t grid[3] = { nctas, 1, 1 };
    ptx_status st = run(&e, "xchg", grid, 64, NULL, 3, args, timing);
    CHECK(st == PTX_OK, "xchg runs (%s): %s", timing ? "timing" : "functional", e.err.msg);
    unsigned wrong = 0;
    for (uint32_t c = 0; c < nctas; c++) {
        uint32_t base = c / 4 * 4, rank = c % 4, prev = base + (rank + 3) % 4, prev2 = base + (rank + 2) % 4;
        for (uint32_t t = 0; t < 64; t++) {
            /* own buf: written by prev; prev's buf: written by prev's prev */
            uint32_t want = prev * 100 + t + 1000 * (prev2 * 100 + t);
            uint32_t want_ranks = (rank + 1) % 4 | 0u << 8 | 1u << 16;
            if (out[c * 64 + t] != want || ranks[c * 64 + t] != want_ranks) {
                if (wrong++ < 4)
                    printf("  cta %u thread %u: %u (ranks 0x%x), expected %u (0x%x)\n", c, t, out[c * 64 + t],
                           ranks[c * 64 + t], want, want_ranks);
            }
        }
    }
    CHECK(wrong == 0, "%u exchanged words wrong", wrong);
    CHECK(count[0] == 256 && count[1] == 256, "remote atomics into rank 0: %u %u, expected 256", count[0],
          count[1]);
    ptx_unload(&e);
}

/* st.async and red.async: each thread of a cluster of 4 CTAs stores a
 * pair into the next CTA's buf and adds to its sum, both completing on the
 * next CTA's mbarrier, which expects 64 x (8 + 4) bytes; each CTA waits on
 * its own mbarrier, then reads what arrived.  out[(cta * 64 + t) * 2 + k]
 * = buf[2t + k]; sums[cta] = sum. */
static const char *async_ptx = HEADER
    ".visible .entry push(.param .u64 out, .param .u64 sums)\n.reqnctapercluster 4\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<24>;\n"
    " .shared .align 8 .b32 buf[128];\n .shared .align 8 .b64 bar;\n .shared .align 4 .u32 sum;\n"
    " ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [sums];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %cluster_ctarank;\n"
    " add.u32 %r5, %r3, 1;\n rem.u32 %r5, %r5, 4;\n"
    " mov.u32 %r6, bar;\n setp.ne.u32 %p1, %r1, 0;\n @%p1 bra INITED;\n"
    " mbarrier.init.shared::cta.b64 [%r6], 1;\n st.shared.u32 [sum], 0;\n fence.mbarrier_init.release.cluster;\n"
    "INITED:\n barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n"
    " @%p1 bra EXPECTED;\n mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 768;\n"
    "EXPECTED:\n barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n"
    /* into the next CTA: buf[2t], buf[2t+1] = ctaid * 1000 + t, + 500; sum += t + 1 */
    " mov.u32 %r7, buf;\n shl.b32 %r8, %r1, 3;\n add.u32 %r9, %r7, %r8;\n mapa.shared::cluster.u32 %r10, %r9, %r5;\n"
    " mapa.shared::cluster.u32 %r11, %r6, %r5;\n mov.u32 %r12, sum;\n mapa.shared::cluster.u32 %r13, %r12, %r5;\n"
    " mad.lo.u32 %r14, %r2, 1000, %r1;\n add.u32 %r15, %r14, 500;\n add.u32 %r16, %r1, 1;\n"
    " st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r10], {%r14, %r15}, [%r11];\n"
    " red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r13], %r16, [%r11];\n"
    "WAIT:\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p2, [%r6], 0;\n @!%p2 bra WAIT;\n"
    " add.u32 %r17, %r7, %r8;\n ld.shared.v2.u32 {%r18, %r19}, [%r17];\n"
    " mad.lo.u32 %r20, %r2, 64, %r1;\n mul.wide.u32 %rd3, %r20, 8;\n add.s64 %rd4, %rd1, %rd3;\n"
    " st.global.v2.u32 [%rd4], {%r18, %r19};\n"
    " @%p1 bra DONE;\n ld.shared.u32 %r21, [sum];\n mul.wide.u32 %rd5, %r2, 4;\n add.s64 %rd6, %rd2, %rd5;\n"
    " st.global.u32 [%rd6], %r21;\n"
    "DONE:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

static void test_async(bool timing)
{
    ptx_env e;
    if (!load(&e, async_ptx, "push"))
        return;
    const uint32_t nctas = 8;
    uint32_t *out = ptx_alloc(&e, nctas * 64 * 8), *sums = ptx_alloc(&e, nctas * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)sums };
    uint32_t grid[3] = { nctas, 1, 1 };
    ptx_status st = run(&e, "push", grid, 64, NULL, 2, args, timing);
    CHECK(st == PTX_OK, "push runs (%s): %s", timing ? "timing" : "functional", e.err.msg);
    unsigned wrong = 0;
    for (uint32_t c = 0; c < nctas; c++) {
        uint32_t prev = c / 4 * 4 + (c % 4 + 3) % 4;
        for (uint32_t t = 0; t < 64; t++)
            for (uint32_t k = 0; k < 2; k++) {
                uint32_t got = out[(c * 64 + t) * 2 + k], want = prev * 1000 + t + 500 * k;
                if (got != want && wrong++ < 4)
                    printf("  cta %u thread %u word %u: %u, expected %u\n", c, t, k, got, want);
            }
        if (sums[c] != 64 * 65 / 2 && wrong++ < 4)
            printf("  cta %u: sum %u, expected %u\n", c, sums[c], 64 * 65 / 2);
    }
    CHECK(wrong == 0, "%u words stored by st.async / red.async wrong", wrong);
    ptx_unload(&e);

    /* Forms ptxsim does not take are refused with the reason. */
    static const struct { const char *inst, *why; } refused[] = {
        { "st.async.global.mbarrier::complete_tx::bytes.u32 [%rd1], %r2, [%r3];", "shared memory" },
        { "st.async.weak.cluster.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];",
          "not both" },
        { "st.async.shared::cluster.u32 [%r1], %r2;", "mbarrier::complete_tx::bytes" },
        { "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.u64 [%r1], {%rd1, %rd1, %rd1, %rd1}, [%r3];",
          ".v4 of 32-bit" },
        { "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [%r1], %r2, [%r3];",
          "red.async takes" },
        { "red.async.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];", ".relaxed.cluster" },
        { "red.async.relaxed.cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];",
          "writes .shared::cluster" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 HEADER ".visible .entry k()\n{\n .reg .b32 %%r<4>;\n .reg .b64 %%rd<2>;\n %s\n ret;\n}\n",
                 refused[i].inst);
        ptx_env bad;
        bool loaded = ptx_load(&bad, ptx);
        CHECK(!loaded && strstr(bad.diag.msg, refused[i].why), "`%s` refused naming %s: %s", refused[i].inst,
              refused[i].why, loaded ? "loaded" : bad.diag.msg);
        if (loaded)
            ptx_unload(&bad);
    }
}

/* Faults and deadlocks. */
static void test_faults(bool timing)
{
    const char *ptx = HEADER
        /* a rank the cluster (of 2) does not have */
        ".visible .entry badrank(.param .u32 rank)\n.reqnctapercluster 2, 1, 1\n{\n"
        " .reg .b32 %r<8>;\n .shared .align 4 .b32 w[4];\n ld.param.u32 %r1, [rank];\n"
        " barrier.cluster.arrive;\n barrier.cluster.wait;\n"
        " mov.u32 %r2, w;\n mapa.shared::cluster.u32 %r3, %r2, %r1;\n ld.shared::cluster.u32 %r4, [%r3+4];\n"
        " barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n"
        /* rank 1 waits without arriving: rank 0 waits for it forever */
        ".visible .entry noarrive()\n.reqnctapercluster 2, 1, 1\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n mov.u32 %r1, %cluster_ctarank;\n setp.eq.u32 %p1, %r1, 1;\n"
        " @%p1 bra SKIP;\n barrier.cluster.arrive;\nSKIP:\n barrier.cluster.wait;\n ret;\n}\n"
        /* rank 1 exits instead: exited threads are not waited for */
        ".visible .entry leaves(.param .u64 out)\n.reqnctapercluster 2, 1, 1\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [out];\n"
        " mov.u32 %r1, %cluster_ctarank;\n setp.eq.u32 %p1, %r1, 1;\n @%p1 bra OUT;\n"
        " barrier.cluster.arrive;\n barrier.cluster.wait;\n mov.u32 %r2, 7;\n st.global.u32 [%rd1], %r2;\n"
        "OUT:\n ret;\n}\n"
        /* no __cluster_dims__: clusters come from the launch */
        ".visible .entry any()\n{\n barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";
    ptx_env e;
    if (!load(&e, ptx, "faults"))
        return;
    const char *mode = timing ? "timing" : "functional";
    uint32_t grid[3] = { 4, 1, 1 };
    uint64_t args[1] = { 5 };
    ptx_status st = run(&e, "badrank", grid, 32, NULL, 1, args, timing);
    CHECK(st == PTX_E_ILLEGAL_ADDRESS && strstr(e.err.msg, "block rank 5 of the cluster") &&
              strstr(e.err.msg, "only 2 blocks") && strstr(e.err.msg, "address 0x300004"),
          "%s: rank 5 of a cluster of 2: %s: %s", mode, ptx_status_name(st), e.err.msg);
    args[0] = 1;
    st = run(&e, "badrank", grid, 32, NULL, 1, args, timing);
    CHECK(st == PTX_OK, "%s: rank 1 of a cluster of 2 is fine: %s", mode, e.err.msg);

    st = run(&e, "noarrive", grid, 64, NULL, 0, NULL, timing);
    CHECK(st == PTX_E_DEADLOCK && strstr(e.err.msg, "barrier.cluster") &&
              strstr(e.err.msg, "waiting without having arrived"),
          "%s: a CTA that never arrives: %s: %s", mode, ptx_status_name(st), e.err.msg);

    uint32_t *out = ptx_alloc(&e, 4);
    uint64_t oa[1] = { (uint64_t)(uintptr_t)out };
    st = run(&e, "leaves", grid, 64, NULL, 1, oa, timing);
    CHECK(st == PTX_OK && *out == 7, "%s: a CTA that exits is not waited for: %s", mode, e.err.msg);

    /* Launch configurations. */
    uint32_t three[3] = { 3, 1, 1 }, c2[3] = { 2, 1, 1 }, c4[3] = { 4, 1, 1 }, c32[3] = { 32, 1, 1 };
    st = run(&e, "noarrive", three, 32, NULL, 0, NULL, timing);
    CHECK(st == PTX_E_LAUNCH_CONFIG && strstr(e.err.msg, "whole number of clusters"),
          "%s: 3 blocks in clusters of 2: %s", mode, e.err.msg);
    st = run(&e, "noarrive", grid, 32, c4, 0, NULL, timing);
    CHECK(st == PTX_E_LAUNCH_CONFIG && strstr(e.err.msg, "__cluster_dims__"),
          "%s: a launch cluster size unlike the kernel's: %s", mode, e.err.msg);
    st = run(&e, "any", grid, 32, c2, 0, NULL, timing);
    CHECK(st == PTX_OK, "%s: clusters from the launch: %s", mode, e.err.msg);
    uint32_t big[3] = { 32, 1, 1 };
    st = run(&e, "any", big, 32, c32, 0, NULL, timing);
    CHECK(st == PTX_E_LAUNCH_CONFIG && strstr(e.err.msg, "at most 16"), "%s: clusters of 32: %s", mode,
          e.err.msg);
    ptx_unload(&e);
}

/* Each case in functional mode and in the timing model. */
static void test_sregs_functional(void) { test_sregs(false); }
static void test_sregs_timing(void) { test_sregs(true); }
static void test_exchange_functional(void) { test_exchange(false); }
static void test_exchange_timing(void) { test_exchange(true); }
static void test_async_functional(void) { test_async(false); }
static void test_async_timing(void) { test_async(true); }
static void test_faults_functional(void) { test_faults(false); }
static void test_faults_timing(void) { test_faults(true); }

static const check_case cases[] = {
    CASE(sregs_functional),
    CASE(sregs_timing),
    CASE(exchange_functional),
    CASE(exchange_timing),
    CASE(async_functional),
    CASE(async_timing),
    CASE(faults_functional),
    CASE(faults_timing),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, cases);
}

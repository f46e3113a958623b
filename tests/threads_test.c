/*
 * threads_test.c -- launches whose CTAs run on a pool of host threads
 * (exec/grid.c, exec/pool.c): atomics under contention across CTAs, a CAS
 * lock, flags passed from block to block with acquire and release, a wait
 * on a later block (which needs it resident), hangs and faults reported as
 * one thread reports them, cluster launches, memory checking, and the
 * launches that must stay on one thread.  Each result is compared with the
 * same launch on one thread.
 */
#include "check.h"
#include "ptx_run.h"

#include <stdlib.h>

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"
#define THREADS 4

typedef struct launch_opts {
    exec_pool *pool;
    uint64_t max_insts;
    bool check_memory, check_race;
    uint32_t cluster;           /* CTAs per cluster along x; 0: none */
} launch_opts;

static ptx_status run(ptx_env *e, const char *kernel, uint32_t grid, uint32_t block, unsigned nargs,
                      const uint64_t *args, const launch_opts *o)
{
    uint8_t params[256];
    int k = ptx_params(e, kernel, nargs, args, params);
    if (k < 0)
        return PTX_E_NOT_FOUND;
    exec_launch l = { .grid = { grid, 1, 1 }, .block = { block, 1, 1 }, .args = params, .nsm = 8,
                      .pool = o->pool, .max_warp_insts = o->max_insts, .check_memory = o->check_memory,
                      .check_race = o->check_race, .cluster = { o->cluster, o->cluster ? 1 : 0, o->cluster ? 1 : 0 } };
    memset(&e->stats, 0, sizeof e->stats);
    memset(&e->err, 0, sizeof e->err);
    return exec_launch_run(e->p, k, &l, &e->stats, &e->err);
}

static bool load(ptx_env *e, const char *ptx, const char *what)
{
    if (ptx_load(e, ptx))
        return true;
    CHECK(false, "%s loads: %s", what, e->diag.msg);
    return false;
}

/* ---- atomics under contention ------------------------------------------ */

/* Every thread of 64 blocks of 128: a ticket from atom.add (each ticket
 * must come out once: a lost update would repeat one), red.add of its id
 * into a 64-bit sum, atom.max, atom.or of a bit, atom.inc with a bound,
 * and a float add of 1.0 (exact in any order); lane 0 of each warp also
 * takes a CAS spin lock (acquire) around a plain read-modify-write of a
 * counter and releases it with st.release. */
static const char *count_ptx = HEADER
    ".visible .entry count(.param .u64 p, .param .u64 tickets)\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<12>;\n .reg .f32 %f<2>;\n"
    " ld.param.u64 %rd1, [p];\n ld.param.u64 %rd2, [tickets];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
    " mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    " atom.global.add.u32 %r5, [%rd1], 1;\n"
    " mul.wide.u32 %rd3, %r5, 4;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r4;\n"
    " cvt.u64.u32 %rd5, %r4;\n red.global.add.u64 [%rd1+8], %rd5;\n"
    " atom.global.max.s32 %r6, [%rd1+16], %r4;\n"
    " and.b32 %r7, %r4, 31;\n shl.b32 %r8, 1, %r7;\n atom.global.or.b32 %r9, [%rd1+20], %r8;\n"
    " atom.global.inc.u32 %r10, [%rd1+24], 999;\n"
    " atom.global.add.f32 %f1, [%rd1+28], 0f3F800000;\n"
    " and.b32 %r11, %r1, 31;\n setp.ne.u32 %p1, %r11, 0;\n @%p1 bra DONE;\n"
    "LOCK:\n atom.acquire.gpu.global.cas.b32 %r12, [%rd1+32], 0, 1;\n setp.ne.u32 %p2, %r12, 0;\n"
    " @%p2 bra LOCK;\n"
    " ld.global.u32 %r13, [%rd1+36];\n add.u32 %r13, %r13, 1;\n st.global.u32 [%rd1+36], %r13;\n"
    " st.release.gpu.global.u32 [%rd1+32], 0;\n"
    "DONE:\n ret;\n}\n";

static void run_count(exec_pool *pool, uint32_t *cells, uint32_t *tickets_copy)
{
    ptx_env e;
    if (!load(&e, count_ptx, "count"))
        return;
    const uint32_t grid = 64, block = 128, n = grid * block;
    uint32_t *p = ptx_alloc(&e, 64), *tickets = ptx_alloc(&e, n * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)p, (uint64_t)(uintptr_t)tickets };
    launch_opts o = { .pool = pool };
    ptx_status st = run(&e, "count", grid, block, 2, args, &o);
    CHECK(st == PTX_OK, "count runs on %u threads: %s", exec_pool_threads(pool), e.err.msg);
    memcpy(cells, p, 40);
    memcpy(tickets_copy, tickets, n * 4);
    ptx_unload(&e);
}

static void test_atomics(void)
{
    const uint32_t n = 64 * 128;
    exec_pool *pool = exec_pool_new(THREADS);
    uint32_t one[10], many[10];
    uint32_t *t1 = calloc(n, 4), *tn = calloc(n, 4);
    bool *seen = calloc(n, 1);
    run_count(NULL, one, t1);
    run_count(pool, many, tn);
    uint64_t sum;
    memcpy(&sum, &many[2], 8);
    CHECK(many[0] == n, "atom.add: %u tickets, expected %u", many[0], n);
    CHECK(sum == (uint64_t)n * (n - 1) / 2, "red.add.u64: %llu", (unsigned long long)sum);
    CHECK(many[4] == n - 1, "atom.max: %u", many[4]);
    CHECK(many[5] == 0xFFFFFFFFu, "atom.or: 0x%x", many[5]);
    CHECK(many[6] == n % 1000, "atom.inc wraps at 999: %u, expected %u", many[6], n % 1000);
    float f;
    memcpy(&f, &many[7], 4);
    CHECK(f == (float)n, "atom.add.f32 of 1.0: %g", f);
    CHECK(many[8] == 0, "the lock is free at the end: %u", many[8]);
    CHECK(many[9] == n / 32, "the CAS lock kept %u increments of %u", many[9], n / 32);
    CHECK(memcmp(one, many, sizeof one) == 0, "final cells are those of one thread");
    unsigned dup = 0;
    for (uint32_t i = 0; i < n; i++) {
        dup += tn[i] >= n || seen[tn[i]];
        if (tn[i] < n)
            seen[tn[i]] = true;
    }
    CHECK(dup == 0, "%u tickets given twice or never", dup);
    free(t1);
    free(tn);
    free(seen);
    exec_pool_free(pool);
}

/* The same kernel without the lock: no instruction's count depends on
 * the order, so the statistics are those of one thread too. */
static void test_statistics(void)
{
    const char *ptx = HEADER
        ".visible .entry hist(.param .u64 bins, .param .u64 in)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n"
        " .shared .align 4 .b32 sh[16];\n"
        " ld.param.u64 %rd1, [bins];\n ld.param.u64 %rd2, [in];\n"
        " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
        " mad.lo.u32 %r4, %r2, %r3, %r1;\n"
        " setp.lt.u32 %p1, %r1, 16;\n shl.b32 %r5, %r1, 2;\n mov.u32 %r6, sh;\n add.u32 %r7, %r6, %r5;\n"
        " @%p1 st.shared.u32 [%r7], 0;\n bar.sync 0;\n"
        " mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd4, %rd2, %rd3;\n ld.global.u32 %r8, [%rd4];\n"
        " and.b32 %r9, %r8, 15;\n shl.b32 %r9, %r9, 2;\n add.u32 %r10, %r6, %r9;\n"
        " atom.shared.add.u32 %r11, [%r10], 1;\n bar.sync 0;\n"
        " @!%p1 bra DONE;\n ld.shared.u32 %r11, [%r7];\n mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd1, %rd5;\n"
        " red.global.add.u32 [%rd6], %r11;\n"
        "DONE:\n ret;\n}\n";
    exec_pool *pool = exec_pool_new(THREADS);
    exec_stats stats[2];
    uint32_t bins[2][16];
    for (int t = 0; t < 2; t++) {
        ptx_env e;
        if (!load(&e, ptx, "hist"))
            break;
        const uint32_t grid = 200, block = 96;
        uint32_t *b = ptx_alloc(&e, 64), *in = ptx_alloc(&e, grid * block * 4);
        for (uint32_t i = 0; i < grid * block; i++)
            in[i] = i * 2654435761u;
        uint64_t args[] = { (uint64_t)(uintptr_t)b, (uint64_t)(uintptr_t)in };
        launch_opts o = { .pool = t ? pool : NULL };
        CHECK(run(&e, "hist", grid, block, 2, args, &o) == PTX_OK, "hist runs: %s", e.err.msg);
        stats[t] = e.stats;
        memcpy(bins[t], b, sizeof bins[t]);
        ptx_unload(&e);
    }
    CHECK(memcmp(bins[0], bins[1], sizeof bins[0]) == 0, "the histogram is one thread's");
    CHECK(memcmp(&stats[0], &stats[1], sizeof stats[0]) == 0,
          "statistics: %llu/%llu warp-insts, %llu/%llu thread-insts, %llu/%llu CTAs",
          (unsigned long long)stats[0].warp_insts, (unsigned long long)stats[1].warp_insts,
          (unsigned long long)stats[0].thread_insts, (unsigned long long)stats[1].thread_insts,
          (unsigned long long)stats[0].ctas, (unsigned long long)stats[1].ctas);
    exec_pool_free(pool);
}

/* ---- flags between blocks ------------------------------------------------ */

/* Block i waits for block i-1's flag (ld.acquire, or ld.volatile: `vol`)
 * and publishes its own, one more, with st.release: the chain of a
 * decoupled look-back.  Blocks are taken in launch order, so the block
 * waited for is always running or done. */
static const char *chain_ptx = HEADER
    ".visible .entry chain(.param .u64 flags)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [flags];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n"
    " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra DONE;\n"
    " mov.u32 %r3, 0;\n setp.eq.u32 %p2, %r2, 0;\n @%p2 bra PUBLISH;\n"
    " sub.u32 %r4, %r2, 1;\n mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    "WAIT:\n ld.acquire.gpu.global.u32 %r3, [%rd3];\n setp.eq.u32 %p2, %r3, 0;\n @%p2 bra WAIT;\n"
    "PUBLISH:\n add.u32 %r5, %r3, 1;\n mul.wide.u32 %rd4, %r2, 4;\n add.s64 %rd5, %rd1, %rd4;\n"
    " st.release.gpu.global.u32 [%rd5], %r5;\n"
    "DONE:\n ret;\n}\n"
    /* block 0 waits for the last block's flag */
    ".visible .entry backward(.param .u64 flags)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [flags];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r6, %nctaid.x;\n"
    " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra DONE;\n"
    " sub.u32 %r7, %r6, 1;\n setp.eq.u32 %p2, %r2, %r7;\n @%p2 bra LAST;\n"
    " setp.ne.u32 %p2, %r2, 0;\n @%p2 bra DONE;\n"
    " mul.wide.u32 %rd2, %r7, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    "WAIT:\n ld.volatile.global.u32 %r3, [%rd3];\n setp.eq.u32 %p2, %r3, 0;\n @%p2 bra WAIT;\n"
    " st.volatile.global.u32 [%rd1], %r3;\n bra DONE;\n"
    "LAST:\n mul.wide.u32 %rd4, %r2, 4;\n add.s64 %rd5, %rd1, %rd4;\n st.volatile.global.u32 [%rd5], 7;\n"
    "DONE:\n ret;\n}\n"
    /* every block waits for a flag nobody sets */
    ".visible .entry never(.param .u64 flags)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [flags];\n"
    "WAIT:\n ld.relaxed.gpu.global.u32 %r1, [%rd1];\n setp.eq.u32 %p1, %r1, 0;\n @%p1 bra WAIT;\n"
    " ret;\n}\n";

static void test_flag_chain(void)
{
    exec_pool *pool = exec_pool_new(THREADS);
    for (int t = 0; t < 2; t++) {
        ptx_env e;
        if (!load(&e, chain_ptx, "chain"))
            break;
        const uint32_t grid = 256;
        uint32_t *flags = ptx_alloc(&e, grid * 4);
        uint64_t args[] = { (uint64_t)(uintptr_t)flags };
        launch_opts o = { .pool = t ? pool : NULL };
        ptx_status st = run(&e, "chain", grid, 64, 1, args, &o);
        CHECK(st == PTX_OK, "the chain completes on %d threads: %s", t ? THREADS : 1, e.err.msg);
        unsigned wrong = 0;
        for (uint32_t i = 0; i < grid; i++)
            wrong += flags[i] != i + 1;
        CHECK(wrong == 0, "%u flags of the chain wrong (%d threads)", wrong, t ? THREADS : 1);
        ptx_unload(&e);
    }
    exec_pool_free(pool);
}

/* Block 0 waits for the last block.  With the grid no larger than the
 * threads every block is resident; on one thread, block 0 spins until the
 * thread brings in the blocks after it -- either way as on a GPU with room
 * for them.  (A wait that can never end is test_hang's.) */
static void test_wait_for_later_block(void)
{
    exec_pool *pool = exec_pool_new(THREADS);
    for (int t = 0; t < 2; t++) {
        ptx_env e;
        if (!load(&e, chain_ptx, "backward"))
            break;
        uint32_t *flags = ptx_alloc(&e, 64);
        uint64_t args[] = { (uint64_t)(uintptr_t)flags };
        launch_opts o = { .pool = t ? pool : NULL };
        ptx_status st = run(&e, "backward", THREADS, 32, 1, args, &o);
        /* On one thread too: block 0 spins, so the thread brings in the
         * blocks after it, as a GPU would have them resident. */
        CHECK(st == PTX_OK && flags[0] == 7, "%s: block 0 sees the last block's flag: %s %u",
              t ? "threads" : "one thread", e.err.msg, flags[0]);
        ptx_unload(&e);
    }
    exec_pool_free(pool);
}

/* Every block spins on a flag nobody sets: the workers prove it together
 * and the report names block 0, as one thread's does. */
static void test_hang(void)
{
    exec_pool *pool = exec_pool_new(THREADS);
    ptx_env e;
    if (load(&e, chain_ptx, "never")) {
        uint32_t *flags = ptx_alloc(&e, 64);
        uint64_t args[] = { (uint64_t)(uintptr_t)flags };
        launch_opts o = { .pool = pool };
        ptx_status st = run(&e, "never", 40, 64, 1, args, &o);
        CHECK(st == PTX_E_HANG && strstr(e.err.msg, "repeats a loop") && e.err.ctaid[0] == 0,
              "a hang proved across threads, reported in block 0: %s (block %u)", e.err.msg, e.err.ctaid[0]);
        /* The budget ends it too when the proof is off the table. */
        o.max_insts = 200000;
        st = run(&e, "never", 40, 64, 1, args, &o);
        CHECK(st == PTX_E_HANG && strstr(e.err.msg, "budget"), "the budget is the launch's: %s", e.err.msg);
        ptx_unload(&e);
    }
    exec_pool_free(pool);
}

/* ---- faults -------------------------------------------------------------- */

/* Blocks from 37 on write through a null pointer; the one reported is
 * block 37 every time, whichever thread failed first, and the blocks
 * before it did their work, as on one thread.  With memory checking a
 * store one past the buffer is caught the same way. */
static const char *fault_ptx = HEADER
    ".visible .entry fault(.param .u64 out, .param .u32 bad)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [out];\n ld.param.u32 %r6, [bad];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
    " mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    " setp.ge.u32 %p1, %r2, %r6;\n @%p1 mov.u64 %rd1, 0;\n"
    " mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r4;\n ret;\n}\n";

static void test_first_fault(void)
{
    exec_pool *pool = exec_pool_new(THREADS);
    ptx_env e;
    if (load(&e, fault_ptx, "fault")) {
        const uint32_t grid = 64, block = 64;
        uint32_t *out = ptx_alloc(&e, grid * block * 4);
        for (int rep = 0; rep < 5; rep++) {
            memset(out, 0, grid * block * 4);
            uint64_t args[] = { (uint64_t)(uintptr_t)out, 37 };
            launch_opts o = { .pool = pool };
            ptx_status st = run(&e, "fault", grid, block, 2, args, &o);
            CHECK(st == PTX_E_ILLEGAL_ADDRESS && e.err.ctaid[0] == 37,
                  "the lowest faulting block is reported: block %u: %s", e.err.ctaid[0], e.err.msg);
            unsigned missing = 0;
            for (uint32_t i = 0; i < 37 * block; i++)
                missing += out[i] != i;
            CHECK(missing == 0, "%u words of the blocks before the fault missing", missing);
        }
        /* --check memory: a buffer one word short; the last block's last
         * thread writes past it. */
        uint32_t *shorter = ptx_alloc(&e, grid * block * 4 - 4);
        uint64_t args[] = { (uint64_t)(uintptr_t)shorter, grid };
        launch_opts o = { .pool = pool, .check_memory = true };
        int k = exec_program_kernel(e.p, "fault");
        exec_launch l = { .grid = { grid, 1, 1 }, .block = { block, 1, 1 }, .pool = pool, .check_memory = true };
        const char *why;
        CHECK(exec_launch_threads(e.p, k, &l, &why) == THREADS, "memory checking runs on %u threads", THREADS);
        ptx_status st = run(&e, "fault", grid, block, 2, args, &o);
        CHECK(st == PTX_E_ILLEGAL_ADDRESS && e.err.ctaid[0] == grid - 1 && e.err.tid[0] == block - 1,
              "checked: block %u thread %u: %s", e.err.ctaid[0], e.err.tid[0], e.err.msg);
        ptx_unload(&e);
    }
    exec_pool_free(pool);
}

/* ---- clusters, and launches that keep one thread --------------------------- */

/* Clusters of 2: each CTA reads its partner's block number out of the
 * partner's shared memory (mapa, ld.shared::cluster) between two
 * barrier.cluster; a cluster runs on one thread, clusters side by side. */
static void test_clusters(void)
{
    const char *ptx = HEADER
        ".visible .entry pair(.param .u64 out)\n.reqnctapercluster 2\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n"
        " .shared .align 4 .b32 mine;\n"
        " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n"
        " mov.u32 %r3, %cluster_ctarank;\n xor.b32 %r4, %r3, 1;\n"
        " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra SYNC;\n st.shared.u32 [mine], %r2;\n"
        "SYNC:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n"
        " mov.u32 %r5, mine;\n mapa.shared::cluster.u32 %r6, %r5, %r4;\n ld.shared::cluster.u32 %r7, [%r6];\n"
        " mov.u32 %r8, %ntid.x;\n mad.lo.u32 %r9, %r2, %r8, %r1;\n mul.wide.u32 %rd2, %r9, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r7;\n"
        " barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";
    exec_pool *pool = exec_pool_new(THREADS);
    ptx_env e;
    if (load(&e, ptx, "pair")) {
        const uint32_t grid = 64, block = 64;
        uint32_t *out = ptx_alloc(&e, grid * block * 4);
        uint64_t args[] = { (uint64_t)(uintptr_t)out };
        launch_opts o = { .pool = pool };
        ptx_status st = run(&e, "pair", grid, block, 1, args, &o);
        CHECK(st == PTX_OK, "pairs run: %s", e.err.msg);
        unsigned wrong = 0;
        for (uint32_t i = 0; i < grid * block; i++)
            wrong += out[i] != ((i / block) ^ 1);
        CHECK(wrong == 0, "%u words wrong", wrong);
        CHECK(e.stats.ctas == grid, "%llu CTAs counted", (unsigned long long)e.stats.ctas);
        ptx_unload(&e);
    }
    exec_pool_free(pool);
}

static void test_one_thread(void)
{
    const char *ptx = HEADER
        ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
        ".global .align 1 .b8 fmt[4] = {104, 105, 10, 0};\n"
        ".visible .entry talk()\n{\n .reg .b64 %rd<3>;\n .reg .b32 %r<2>;\n"
        " mov.u64 %rd1, fmt;\n cvta.global.u64 %rd2, %rd1;\n"
        " { .param .b64 f;\n .param .b64 a;\n .param .b32 r;\n st.param.b64 [f], %rd2;\n st.param.b64 [a], 0;\n"
        " call.uni (r), vprintf, (f, a);\n ld.param.b32 %r1, [r];\n }\n ret;\n}\n"
        ".extern .func (.param .b64 p) malloc(.param .b64 n);\n"
        ".visible .entry heap()\n{\n .reg .b64 %rd<2>;\n"
        " { .param .b64 n;\n .param .b64 p;\n st.param.b64 [n], 16;\n call.uni (p), malloc, (n);\n"
        " ld.param.b64 %rd1, [p];\n }\n ret;\n}\n"
        ".visible .entry quiet()\n{\n ret;\n}\n";
    exec_pool *pool = exec_pool_new(THREADS);
    ptx_env e;
    if (load(&e, ptx, "talk")) {
        exec_launch l = { .grid = { 100, 1, 1 }, .block = { 32, 1, 1 }, .pool = pool };
        const char *why;
        int talk = exec_program_kernel(e.p, "talk"), quiet = exec_program_kernel(e.p, "quiet");
        int heap = exec_program_kernel(e.p, "heap");
        CHECK(exec_launch_threads(e.p, quiet, &l, &why) == THREADS && !why, "a plain launch uses the pool");
        /* printf runs on every thread (each unit's output buffered, printed in
         * launch order); malloc keeps the heap's addresses one thread's. */
        CHECK(exec_launch_threads(e.p, talk, &l, &why) == THREADS && !why, "printf uses the pool: %s",
              why ? why : "none");
        CHECK(exec_launch_threads(e.p, heap, &l, &why) == 1 && why && strstr(why, "malloc"), "malloc: %s",
              why ? why : "none");
        l.check_race = true;
        CHECK(exec_launch_threads(e.p, quiet, &l, &why) == 1 && why && strstr(why, "race"), "race: %s",
              why ? why : "none");
        l.check_race = false;
        l.cooperative = true;
        CHECK(exec_launch_threads(e.p, quiet, &l, &why) == 1 && why && strstr(why, "cooperative"),
              "cooperative: %s", why ? why : "none");
        l.cooperative = false;
        l.grid[0] = 3;
        CHECK(exec_launch_threads(e.p, quiet, &l, &why) == 3 && !why, "no more threads than blocks");
        ptx_unload(&e);
    }
    exec_pool_free(pool);
}

static const check_case cases[] = {
    CASE(atomics),
    CASE(statistics),
    CASE(flag_chain),
    CASE(wait_for_later_block),
    CASE(hang),
    CASE(first_fault),
    CASE(clusters),
    CASE(one_thread),
};

int main(int argc, char **argv) { return CHECK_MAIN(argc, argv, cases); }

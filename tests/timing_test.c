/*
 * timing_test.c -- microbenchmarks whose answers follow from the timing
 * configuration: a dependent ALU chain runs at the ALU latency, independent
 * warps at the issue rate, a pointer chase at the L1, L2 and DRAM
 * latencies, streaming at the DRAM bandwidth; an N-way shared-memory bank
 * conflict costs N passes; a burst of uncoalesced misses exhausts the
 * MSHRs.  And the same run twice gives the same cycle count.
 */
#define _GNU_SOURCE
#include "check.h"
#include "ptx_run.h"
#include "timing.h"

#include <stdlib.h>

#define HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

/* One SM with a perfect instruction cache: each microbenchmark measures one
 * mechanism, and instruction fetch has tests of its own. */
static tm_config base_config(void)
{
    tm_config c;
    tm_config_defaults(&c);
    c.n_sm = 1;
    c.l1i_sets = 0;
    return c;
}

static ptx_status run_on(tm_gpu *g, ptx_env *e, const char *kernel, uint32_t grid, uint32_t block,
                         unsigned nargs, const uint64_t *args, tm_stats *st)
{
    const tm_config *c = tm_config_of(g);
    int k = exec_program_kernel(e->p, kernel);
    const exec_kernel_info *ki = exec_program_kernel_info(e->p, k);
    uint8_t params[128] = {0};
    for (unsigned i = 0; i < nargs && i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, &args[i], ki->params[i].bytes < 8 ? ki->params[i].bytes : 8);
    exec_launch l = { .grid = { grid, 1, 1 }, .block = { block, 1, 1 }, .args = params, .nsm = (uint32_t)c->n_sm };
    exec_stats xs = {0};
    memset(&e->err, 0, sizeof e->err);
    return tm_run(g, e->p, k, &l, st, &xs, &e->err);
}

static ptx_status run_timed(const tm_config *c, ptx_env *e, const char *kernel, uint32_t grid, uint32_t block,
                            unsigned nargs, const uint64_t *args, tm_stats *st)
{
    tm_gpu *g = tm_new(c);
    if (!g)
        return PTX_E_NOMEM;
    ptx_status s = run_on(g, e, kernel, grid, block, nargs, args, st);
    tm_free(g);
    return s;
}

/* A kernel `chain` of n dependent adds, unrolled, storing the sum. */
static bool load_chain(ptx_env *e, int n)
{
    char ptx[65536];
    int at = snprintf(ptx, sizeof ptx, HEADER ".visible .entry chain(.param .u64 out)\n{\n .reg .b32 %%r<3>;\n"
                      " .reg .b64 %%rd<2>;\n mov.u32 %%r1, 0;\n");
    for (int i = 0; i < n; i++)
        at += snprintf(ptx + at, sizeof ptx - at, " add.u32 %%r1, %%r1, 1;\n");
    snprintf(ptx + at, sizeof ptx - at, " ld.param.u64 %%rd1, [out];\n st.global.u32 [%%rd1], %%r1;\n ret;\n}\n");
    return ptx_load(e, ptx);
}

static void test_alu_chain(void)
{
    ptx_env e;
    if (!load_chain(&e, 1000))
        return;
    uint32_t *out = ptx_alloc(&e, 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    tm_config c = base_config();
    tm_stats st;
    ptx_status s = run_timed(&c, &e, "chain", 1, 32, 1, args, &st);
    CHECK(s == PTX_OK && *out == 1000, "chain runs and computes: %s", e.err.msg);
    double cpi = (double)st.cycles / 1000;
    CHECK(cpi > c.lat_int * 0.95 && cpi < c.lat_int * 1.1, "dependent chain: %.2f cycles per add, latency %llu",
          cpi, (unsigned long long)c.lat_int);
    /* The same with a longer latency. */
    c.lat_int = 9;
    s = run_timed(&c, &e, "chain", 1, 32, 1, args, &st);
    cpi = (double)st.cycles / 1000;
    CHECK(s == PTX_OK && cpi > 9 * 0.95 && cpi < 9 * 1.1, "latency 9: %.2f cycles per add", cpi);
    CHECK(st.mshr_opportunity_cycles == 0, "no load wants an MSHR: %llu MSHR-opportunity cycles",
          (unsigned long long)st.mshr_opportunity_cycles);
    ptx_unload(&e);
}

/* Dual issue (issue_width 2) on eight warps of dependent add chains: a
 * second slot may take another warp's instruction (any_warp), or only the
 * same warp's next (same_warp, Turner 2012), which in a dependent chain is
 * never ready -- so same_warp takes about twice the cycles.  (Each warp
 * may dual-issue the independent instructions after its last add: at most
 * two.) */
static void test_dual_issue(void)
{
    ptx_env e;
    if (!load_chain(&e, 1000))
        return;
    uint32_t *out = ptx_alloc(&e, 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    tm_config c = base_config();
    c.n_schedulers = 1;
    c.issue_width = 2;
    c.n_sp = 2;
    tm_stats any, same;
    ptx_status s = run_timed(&c, &e, "chain", 1, 256, 1, args, &any);
    c.issue_more = TM_MORE_SAME_WARP;
    ptx_status s2 = run_timed(&c, &e, "chain", 1, 256, 1, args, &same);
    double ratio = (double)same.cycles / (double)any.cycles;
    CHECK(s == PTX_OK && s2 == PTX_OK && ratio > 1.8 && ratio < 2.2 && any.slots[TM_SLOT_ISSUE2] > 0 &&
          same.slots[TM_SLOT_ISSUE2] <= 16, "same_warp %llu cycles, any_warp %llu (%.2fx; dual issues %llu and %llu)",
          (unsigned long long)same.cycles, (unsigned long long)any.cycles, ratio,
          (unsigned long long)any.slots[TM_SLOT_ISSUE2], (unsigned long long)same.slots[TM_SLOT_ISSUE2]);
    ptx_unload(&e);
}

/* Independent adds from many warps: the SM issues at its peak rate. */
/* A kernel `name` of n adds in eight independent chains. */
static bool load_adds(ptx_env *e, const char *name, int n)
{
    char ptx[65536];
    int at = snprintf(ptx, sizeof ptx, HEADER ".visible .entry %s(.param .u64 out)\n{\n .reg .b32 %%r<9>;\n", name);
    for (int i = 0; i < n; i++)
        at += snprintf(ptx + at, sizeof ptx - at, " add.u32 %%r%d, %%r%d, 1;\n", 1 + i % 8, 1 + i % 8);
    snprintf(ptx + at, sizeof ptx - at, " ret;\n}\n");
    return ptx_load(e, ptx);
}

static void test_issue_rate(void)
{
    ptx_env e;
    if (!load_adds(&e, "ind", 256))
        return;
    tm_config c = base_config();
    tm_stats st;
    uint64_t args[] = { 0 };
    ptx_status s = run_timed(&c, &e, "ind", 1, 1024, 1, args, &st);
    double ipc = (double)st.warp_insts / (double)st.cycles;
    double peak = (double)(c.n_schedulers * c.issue_width < c.n_sp ? c.n_schedulers * c.issue_width : c.n_sp);
    CHECK(s == PTX_OK && ipc > peak * 0.9 && ipc <= peak * 1.001,
          "independent issue: %.3f warp-instructions per cycle, peak %.0f", ipc, peak);
    /* One port into the ALU collector units (GPGPU-Sim's ID_OC_SP width 1):
     * the schedulers together put one add a cycle in, whatever they could
     * issue. */
    c.oc_ports_alu = 1;
    s = run_timed(&c, &e, "ind", 1, 1024, 1, args, &st);
    double one = (double)st.warp_insts / (double)st.cycles;
    CHECK(s == PTX_OK && peak >= 2 && one > 0.9 && one <= 1.001,
          "one ALU port: %.3f warp-instructions per cycle (%.3f with as many as the schedulers)", one, ipc);
    ptx_unload(&e);
}

/* Occupancy: 8 CTAs of 128 threads fit on one SM at once (32 of its 48
 * warp slots, its 8 CTA slots), so the SM holds all of them from the start
 * and, as warps finish, averages well over 12 resident warps.  (Placement
 * that ended its pass one SM early kept one CTA resident on a one-SM GPU:
 * 4 warps.) */
static void test_occupancy(void)
{
    ptx_env e;
    if (!load_adds(&e, "busy", 512))
        return;
    tm_config c = base_config();
    tm_stats st;
    uint64_t args[] = { 0 };
    ptx_status s = run_timed(&c, &e, "busy", 8, 128, 1, args, &st);
    double warps = st.sm_cycles ? (double)st.active_warp_cycles / (double)st.sm_cycles : 0;
    CHECK(s == PTX_OK && warps > 12 && warps <= 32.001, "8 CTAs of 4 warps on one SM: %.1f resident warps on average",
          warps);
    /* Two SMs share them: 16 warps each at first. */
    c.n_sm = 2;
    s = run_timed(&c, &e, "busy", 8, 128, 1, args, &st);
    warps = st.sm_cycles ? (double)st.active_warp_cycles / (double)st.sm_cycles : 0;
    CHECK(s == PTX_OK && warps > 6 && warps <= 16.001, "8 CTAs of 4 warps on two SMs: %.1f resident warps per SM", warps);
    ptx_unload(&e);
}

/* A pointer chase: each load's address is the previous load's value. */
static double chase(const tm_config *c, uint32_t stride_words, uint32_t hops, uint32_t nodes, tm_stats *st)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HEADER ".visible .entry chase(.param .u64 buf, .param .u32 n)\n{\n"
             " .reg .pred %%p<2>;\n .reg .b32 %%r<4>;\n .reg .b64 %%rd<4>;\n"
             " ld.param.u64 %%rd1, [buf];\n ld.param.u32 %%r1, [n];\n mov.u64 %%rd2, %%rd1;\n"
             "LOOP:\n ld.global.u64 %%rd2, [%%rd2];\n sub.u32 %%r1, %%r1, 1;\n setp.ne.u32 %%p1, %%r1, 0;\n"
             " @%%p1 bra LOOP;\n st.global.u64 [%%rd1+8], %%rd2;\n ret;\n}\n");
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return 0;
    uint64_t *buf = ptx_alloc(&e, (size_t)nodes * stride_words * 8 + 64);
    for (uint32_t i = 0; i < nodes; i++)
        buf[(size_t)i * stride_words] = (uint64_t)(uintptr_t)&buf[(size_t)((i + 1) % nodes) * stride_words];
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, hops };
    /* One thread: launch a single warp with only lane 0 doing work by
     * giving the block one thread. */
    ptx_status s = run_timed(c, &e, "chase", 1, 1, 2, args, st);
    CHECK(s == PTX_OK, "chase runs: %s", e.err.msg);
    ptx_unload(&e);
    return (double)st->cycles / hops;
}

static void test_load_latency(void)
{
    tm_config c = base_config();
    tm_stats st;
    /* 16 nodes 128 B apart: after the first lap every load hits the L1. */
    double l1 = chase(&c, 16, 2000, 16, &st);
    double loop = c.lat_int * 2;    /* sub and setp on the loop's critical path are independent of the load */
    CHECK(l1 > c.l1_latency && l1 < c.l1_latency + loop + 4, "L1 hit chase: %.1f cycles per hop (L1 %llu)", l1,
          (unsigned long long)c.l1_latency);
    /* Nodes 128 B apart over 64 KB: misses the 16 KB L1, hits the L2. */
    double l2 = chase(&c, 16, 2000, 512, &st);
    double l2_core = (double)c.l2_latency * c.core_clock_mhz / c.l2_clock_mhz;
    CHECK(l2 > l2_core && l2 < l2_core + 120, "L2 hit chase: %.1f cycles per hop (L2 %.0f core cycles)", l2, l2_core);
    CHECK(st.l1d.misses > 1500 && st.l2.hits > 1400, "L2 chase misses L1 (%llu) and hits L2 (%llu)",
          (unsigned long long)st.l1d.misses, (unsigned long long)st.l2.hits);
    /* Nodes 4 KB apart over 16 MB: misses both, every hop goes to DRAM. */
    double dram = chase(&c, 512, 1000, 4096, &st);
    CHECK(dram > l2 + c.dram_latency * 0.9, "DRAM chase: %.1f cycles per hop, above the L2's %.1f + %llu", dram, l2,
          (unsigned long long)c.dram_latency);
    CHECK(st.dram_reads >= 1000, "DRAM chase reads DRAM (%llu)", (unsigned long long)st.dram_reads);
}

/* A working set of three quarters of the L2, chased for three laps: after
 * the first (cold) lap every hop hits the L2, whatever the set count and
 * index function, because each slice is indexed by the address within its
 * partition.  (Indexed by the global address, a slice of six partitions
 * interleaved every 256 B reaches only half its sets, and this misses.) */
static void test_l2_capacity(void)
{
    static const struct { uint32_t sets, fn; } shapes[] = {
        { 64, TM_INDEX_LINEAR }, { 64, TM_INDEX_XOR }, { 64, TM_INDEX_PRIC },
        { 48, TM_INDEX_LINEAR }, { 48, TM_INDEX_XOR }, { 48, TM_INDEX_PRIC },
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        tm_config c = base_config();
        c.l2_sets = shapes[i].sets;
        c.l2_index = shapes[i].fn;
        uint32_t lines = (uint32_t)(c.l2_sets * c.l2_assoc * c.n_partitions);
        uint32_t nodes = lines / 4 * 3;
        tm_stats st;
        chase(&c, (uint32_t)(c.l2_line / 8), 3 * nodes, nodes, &st);
        CHECK(st.l2.misses <= nodes + nodes / 50,
              "%u sets, index %u: %llu L2 misses for %u lines chased three times (cold misses only)",
              shapes[i].sets, shapes[i].fn, (unsigned long long)st.l2.misses, nodes);
        CHECK(st.l2.conflict_misses <= nodes / 50, "%u sets, index %u: %llu conflict misses", shapes[i].sets,
              shapes[i].fn, (unsigned long long)st.l2.conflict_misses);
    }
    /* Every set index stays in range for set counts that are not powers of two. */
    uint32_t worst = 0;
    for (uint32_t fn = TM_INDEX_LINEAR; fn <= TM_INDEX_PRIME; fn++)
        for (uint64_t line = 0; line < 100000; line += 7) {
            uint32_t set = tm_index(line * 2654435761u, 2560, fn, 0, 0, 7);
            worst = set > worst ? set : worst;
        }
    CHECK(worst < 2560, "2560 sets: indexes stay below 2560 (largest %u)", worst);
}

/* Streaming: every SM reads a large array once, coalesced. */
static void test_bandwidth(void)
{
    const char *ptx = HEADER ".visible .entry stream(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n .reg .f32 %f<4>;\n"
        " ld.param.u64 %rd1, [in];\n ld.param.u32 %r1, [n];\n"
        " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n mad.lo.u32 %r5, %r2, %r3, %r4;\n"
        " mov.u32 %r6, %nctaid.x;\n mul.lo.u32 %r6, %r6, %r3;\n mov.f32 %f1, 0f00000000;\n"
        "LOOP:\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
        " mul.wide.u32 %rd2, %r5, 4;\n add.s64 %rd3, %rd1, %rd2;\n ld.global.f32 %f2, [%rd3];\n"
        " add.f32 %f1, %f1, %f2;\n add.u32 %r5, %r5, %r6;\n bra LOOP;\n"
        "DONE:\n ld.param.u64 %rd4, [out];\n st.global.f32 [%rd4], %f1;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    uint32_t n = 1u << 20;          /* 4 MB of floats: 34 loads a thread, long past the ramp-up */
    float *in = ptx_alloc(&e, (size_t)n * 4);
    float *out = ptx_alloc(&e, 4);
    tm_config c = base_config();
    c.n_sm = 15;
    tm_stats st;
    uint64_t args[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, n };
    ptx_status s = run_timed(&c, &e, "stream", 60, 512, 3, args, &st);
    double seconds = (double)st.cycles / (c.core_clock_mhz * 1e6);
    double gbs = (double)n * 4 / seconds / 1e9;
    double peak = (double)c.n_partitions * c.dram_bus_bytes * c.dram_clock_mhz * 1e6 / 1e9;
    printf("bandwidth: %.1f of %.1f GB/s\n", gbs, peak);
    CHECK(s == PTX_OK && gbs > peak * 0.6 && gbs <= peak * 1.01,
          "streaming reaches %.1f GB/s of the configured %.1f GB/s", gbs, peak);
    ptx_unload(&e);
}

/* Shared memory: lane i reads word i * stride; stride 2 is a 2-way
 * conflict, stride 32 a 32-way one, stride 1 none. */
static void test_bank_conflicts(void)
{
    const char *ptx = HEADER ".visible .entry bank(.param .u32 stride)\n{\n"
        " .reg .b32 %r<6>;\n .shared .align 4 .b32 sh[1024];\n"
        " ld.param.u32 %r1, [stride];\n mov.u32 %r2, %tid.x;\n mul.lo.u32 %r3, %r2, %r1;\n"
        " and.b32 %r3, %r3, 1023;\n shl.b32 %r3, %r3, 2;\n mov.u32 %r4, sh;\n add.u32 %r4, %r4, %r3;\n"
        " ld.shared.u32 %r5, [%r4];\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    tm_config c = base_config();
    uint32_t strides[] = { 1, 2, 4, 32 };
    for (int i = 0; i < 4; i++) {
        tm_stats st;
        uint64_t args[] = { strides[i] };
        ptx_status s = run_timed(&c, &e, "bank", 1, 32, 1, args, &st);
        uint64_t want = strides[i] - 1;       /* an N-way conflict costs N passes */
        CHECK(s == PTX_OK && st.shmem_conflict_passes == want, "stride %u: %llu extra passes, want %llu", strides[i],
              (unsigned long long)st.shmem_conflict_passes, (unsigned long long)want);
    }
    ptx_unload(&e);
}

/* Every lane of many warps misses a different line: more misses than
 * MSHRs, so reservation failures appear, and the run still finishes. */
static void test_mshr_exhaustion(void)
{
    const char *ptx = HEADER ".visible .entry scatter(.param .u64 buf)\n{\n"
        " .reg .b32 %r<4>;\n .reg .b64 %rd<5>;\n .reg .f32 %f<2>;\n"
        " ld.param.u64 %rd1, [buf];\n mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
        " mad.lo.u32 %r1, %r1, %r2, %r3;\n mul.wide.u32 %rd2, %r1, 256;\n add.s64 %rd3, %rd1, %rd2;\n"
        " ld.global.f32 %f1, [%rd3];\n st.global.f32 [%rd3+4], %f1;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    void *buf = ptx_alloc(&e, 256u * 1024 * 4);
    tm_config c = base_config();
    tm_stats st;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    ptx_status s = run_timed(&c, &e, "scatter", 4, 256, 1, args, &st);
    CHECK(s == PTX_OK && st.l1d.fail[TM_FAIL_MSHR] + st.l1d.fail[TM_FAIL_QUEUE] > 0,
          "uncoalesced burst: %llu MSHR and %llu miss-queue reservation failures",
          (unsigned long long)st.l1d.fail[TM_FAIL_MSHR], (unsigned long long)st.l1d.fail[TM_FAIL_QUEUE]);
    CHECK(st.gmem_transactions >= 1024 * 2, "every lane its own transaction: %llu",
          (unsigned long long)st.gmem_transactions);
    /* Determinism: the same run, the same cycles. */
    tm_stats again;
    run_timed(&c, &e, "scatter", 4, 256, 1, args, &again);
    CHECK(again.cycles == st.cycles && again.l1d.fail[TM_FAIL_MSHR] == st.l1d.fail[TM_FAIL_MSHR],
          "deterministic: %llu and %llu cycles", (unsigned long long)st.cycles, (unsigned long long)again.cycles);
    ptx_unload(&e);
}

/* Turner 2012's hazards, each where it should fire, under stall and under
 * replay; and replay always finishing (tm_run's progress watchdog would
 * report a livelock as a hang). */
static void test_hazards(void)
{
    /* Every lane reads word tid * stride of a big buffer: stride 32 words is
     * one line per lane (divergence); stride l1_sets * line / 4 words puts
     * every line in the same L1 set (reservation failures). */
    const char *ptx = HEADER ".visible .entry hz(.param .u64 buf, .param .u32 stride)\n{\n"
        " .reg .b32 %r<6>;\n .reg .b64 %rd<5>;\n .reg .f32 %f<3>;\n .shared .align 4 .b32 sh[1024];\n"
        " ld.param.u64 %rd1, [buf];\n ld.param.u32 %r1, [stride];\n mov.u32 %r2, %tid.x;\n"
        " mul.lo.u32 %r3, %r2, %r1;\n mul.wide.u32 %rd2, %r3, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " ld.global.f32 %f1, [%rd3];\n"
        " and.b32 %r4, %r3, 1023;\n shl.b32 %r4, %r4, 2;\n mov.u32 %r5, sh;\n add.u32 %r5, %r5, %r4;\n"
        " st.shared.f32 [%r5], %f1;\n ld.shared.f32 %f2, [%r5];\n"
        " st.global.f32 [%rd3+4], %f2;\n ret;\n}\n"
        /* The same loads and nothing else (a store would find the queue full
         * whatever the order). */
        ".visible .entry ld_only(.param .u64 buf, .param .u32 stride)\n{\n"
        " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<2>;\n"
        " ld.param.u64 %rd1, [buf];\n ld.param.u32 %r1, [stride];\n mov.u32 %r2, %tid.x;\n"
        " mul.lo.u32 %r3, %r2, %r1;\n mul.wide.u32 %rd2, %r3, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " ld.global.f32 %f1, [%rd3];\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    tm_config c = base_config();
    void *buf = ptx_alloc(&e, 64u << 20);
    for (int policy = 0; policy < 2; policy++) {
        c.hazard_policy = (uint32_t)policy;
        const char *name = policy ? "replay" : "stall";
        tm_stats st;
        /* Uncoalesced and bank-conflicted (stride 32 words: every lane its
         * own line and the same bank). */
        uint64_t args[] = { (uint64_t)(uintptr_t)buf, 32 };
        ptx_status s = run_timed(&c, &e, "hz", 4, 256, 2, args, &st);
        const uint64_t *h = policy ? st.replays : st.hazard_cycles;
        CHECK(s == PTX_OK && h[TM_HZ_DIV] > 0 && h[TM_HZ_BANK] > 0, "%s: divergence %llu, bank %llu (%s)", name,
              (unsigned long long)h[TM_HZ_DIV], (unsigned long long)h[TM_HZ_BANK], e.err.msg);
        CHECK(h[TM_HZ_MSHR] + h[TM_HZ_COMQ] > 0, "%s: 1024 lines in flight exhaust MSHRs or the miss queue (%llu, %llu)",
              name, (unsigned long long)h[TM_HZ_MSHR], (unsigned long long)h[TM_HZ_COMQ]);
        /* Same-set lines: every way reserved. */
        uint64_t same_set[] = { (uint64_t)(uintptr_t)buf, (uint32_t)(c.l1_sets * c.l1_line / 4) };
        s = run_timed(&c, &e, "hz", 1, 64, 2, same_set, &st);
        CHECK(s == PTX_OK && h[TM_HZ_RSV] > 0, "%s: set conflicts give reservation failures (%llu): %s", name,
              (unsigned long long)h[TM_HZ_RSV], e.err.msg);
        if (policy)
            CHECK(st.replay_issues > 0, "replays re-issue (%llu)", (unsigned long long)st.replay_issues);
        /* Turner's order, MSHR -> COMQ -> RSV.  A one-way L1 with linear
         * indexing, a one-entry miss queue and a slow interconnect: lane 0's
         * miss leaves at once and holds the port, lane 1's (another set)
         * waits in the queue, and lane 2's (lane 0's set) then finds the
         * queue full and the way reserved at once: a COMQ hazard. */
        tm_config one = c;
        one.l1_assoc = 1;
        one.l1_index = 0;
        one.l1_miss_queue = 1;
        one.icnt_clock_mhz = 100;
        uint64_t half_set[] = { (uint64_t)(uintptr_t)buf, (uint32_t)(one.l1_sets * one.l1_line / 8) };
        s = run_timed(&one, &e, "ld_only", 1, 3, 2, half_set, &st);
        CHECK(s == PTX_OK && h[TM_HZ_COMQ] > 0, "%s: a full miss queue is found before a reserved way (COMQ %llu, "
              "RSV %llu): %s", name, (unsigned long long)h[TM_HZ_COMQ], (unsigned long long)h[TM_HZ_RSV], e.err.msg);
    }
    /* Hazard prediction: "credit false" holds back loads known to miss until
     * an MSHR can be had, so fewer MSHR squashes happen. */
    c.hazard_policy = TM_HAZ_REPLAY;
    tm_stats plain, predicted;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, 32 };
    run_timed(&c, &e, "hz", 4, 256, 2, args, &plain);
    c.hp_predictor = TM_HP_FALSE;
    c.hp_tracker = TM_TRACK_CREDIT;
    ptx_status s = run_timed(&c, &e, "hz", 4, 256, 2, args, &predicted);
    uint64_t classified = predicted.predicted[0][0] + predicted.predicted[0][1] + predicted.predicted[1][0] +
                          predicted.predicted[1][1];
    CHECK(s == PTX_OK && predicted.replays[TM_HZ_MSHR] < plain.replays[TM_HZ_MSHR],
          "credit false: MSHR replays %llu, without prediction %llu",
          (unsigned long long)predicted.replays[TM_HZ_MSHR], (unsigned long long)plain.replays[TM_HZ_MSHR]);
    CHECK(classified == predicted.gmem_insts / 2 && predicted.credits_taken > 0,
          "every load classified once (%llu of %llu), credits taken %llu", (unsigned long long)classified,
          (unsigned long long)predicted.gmem_insts / 2, (unsigned long long)predicted.credits_taken);
    /* The four blocks read the same lines: a load refused for want of an
     * MSHR often finds its line filled by another block's miss when it
     * goes again -- known to hit, so it takes no credit. */
    CHECK(predicted.known_hits > 0 && plain.known_hits == 0, "known hits: %llu with prediction, %llu without",
          (unsigned long long)predicted.known_hits, (unsigned long long)plain.known_hits);
    /* MSHR opportunity (Turner's Fig 7.12): some cycles, never more than
     * the SMs' cycles. */
    CHECK(plain.mshr_opportunity_cycles > 0 && plain.mshr_opportunity_cycles <= plain.sm_cycles,
          "MSHR opportunity: %llu of %llu SM cycles", (unsigned long long)plain.mshr_opportunity_cycles,
          (unsigned long long)plain.sm_cycles);
    printf("# replay: MSHR opportunity %llu of %llu SM cycles; credit false: %llu known hits\n",
           (unsigned long long)plain.mshr_opportunity_cycles, (unsigned long long)plain.sm_cycles,
           (unsigned long long)predicted.known_hits);
    for (uint32_t p = TM_HP_TRUE; p <= TM_HP_ORACLE; p++) {
        c.hp_predictor = p;
        s = run_timed(&c, &e, "hz", 4, 256, 2, args, &predicted);
        CHECK(s == PTX_OK, "predictor %u finishes: %s", p, e.err.msg);
    }
    ptx_unload(&e);
}

/* Turner 2012's warp buffer under replay: a load that takes many passes
 * (every lane its own line) stays retained, and the adds after it -- not
 * dependent on it -- fill the buffer's remaining slots; with two slots the
 * warp then waits for the load to leave, with 64 it does not. */
static void test_ibuffer(void)
{
    char ptx[16384];
    int at = snprintf(ptx, sizeof ptx, HEADER ".visible .entry ib(.param .u64 buf)\n{\n"
                      " .reg .b32 %%r<3>;\n .reg .b64 %%rd<4>;\n .reg .f32 %%f<2>;\n"
                      " ld.param.u64 %%rd1, [buf];\n mov.u32 %%r1, %%tid.x;\n mul.wide.u32 %%rd2, %%r1, 128;\n"
                      " add.s64 %%rd3, %%rd1, %%rd2;\n ld.global.f32 %%f1, [%%rd3];\n");
    for (int i = 0; i < 100; i++)       /* work that does not wait for the load */
        at += snprintf(ptx + at, sizeof ptx - at, " add.u32 %%r1, %%r1, 1;\n");
    snprintf(ptx + at, sizeof ptx - at, " st.global.f32 [%%rd3], %%f1;\n st.global.u32 [%%rd3+4], %%r1;\n ret;\n}\n");
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    void *buf = ptx_alloc(&e, 1u << 20);
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    tm_config c = base_config();
    c.hazard_policy = TM_HAZ_REPLAY;
    tm_stats small, big;
    c.ibuffer_entries = 2;
    ptx_status s = run_timed(&c, &e, "ib", 1, 32, 1, args, &small);
    c.ibuffer_entries = 64;
    ptx_status s2 = run_timed(&c, &e, "ib", 1, 32, 1, args, &big);
    CHECK(s == PTX_OK && s2 == PTX_OK && small.replay_ibuffer_full > 0 && big.replay_ibuffer_full == 0 &&
          small.cycles > big.cycles, "2 slots: held %llu times, %llu cycles; 64 slots: held %llu, %llu cycles",
          (unsigned long long)small.replay_ibuffer_full, (unsigned long long)small.cycles,
          (unsigned long long)big.replay_ibuffer_full, (unsigned long long)big.cycles);
    ptx_unload(&e);
}

/* A machine without an L2 (l2_allocate=off, the tarjan-2009 preset's): a
 * warp whose 32 lanes each load their own line has 32 misses in flight at
 * once, where an L2 of one line per slice that reserves it for each miss
 * would let them through one at a time.  Stores go on to DRAM too. */
static void test_no_l2(void)
{
    const char *ptx = HEADER ".visible .entry lines(.param .u64 buf)\n{\n"
        " .reg .b32 %r<2>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<3>;\n"
        " ld.param.u64 %rd1, [buf];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 128;\n"
        " add.s64 %rd3, %rd1, %rd2;\n ld.global.f32 %f1, [%rd3];\n add.f32 %f2, %f1, 0f3F800000;\n"
        " st.global.f32 [%rd3+4], %f2;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    float *buf = ptx_alloc(&e, 32 * 128);
    for (int i = 0; i < 32; i++)
        buf[i * 32] = (float)i;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    tm_config c = base_config();
    c.n_partitions = 1;
    c.l2_sets = 1;
    c.l2_assoc = 1;
    tm_stats one_line, none;
    ptx_status s = run_timed(&c, &e, "lines", 1, 32, 1, args, &one_line);
    c.l2_allocate = 0;
    ptx_status s2 = run_timed(&c, &e, "lines", 1, 32, 1, args, &none);
    unsigned bad = 0;
    for (int i = 0; i < 32; i++)
        bad += buf[i * 32 + 1] != (float)i + 1.0f;
    CHECK(s == PTX_OK && s2 == PTX_OK && bad == 0 && none.l2.hits == 0 && none.cycles * 4 < one_line.cycles,
          "no L2: %llu cycles, a one-line L2: %llu (%u wrong)", (unsigned long long)none.cycles,
          (unsigned long long)one_line.cycles, bad);
    ptx_unload(&e);
}

/* The locality counts (timing/locality.c): one line of 32 floats, read by
 * lanes 0-15, then by lanes 16-31, then by all.  The first read touches the
 * line, the second re-references it from other lanes of the warp
 * (inter_thread), the third from the same lanes (intra_thread).  Two warps
 * of one CTA, or two CTAs on the SM, add intra_block or intra_core
 * re-references; a second launch begins with an inter_kernel one. */
typedef struct { unsigned long long first, u[5], b[5]; } locality_counts;

static bool locality_of(const tm_config *c, const tm_stats *st, locality_counts *n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tm_stats_json(f, c, st);
    fclose(f);
    const char *at = strstr(text, "\"locality\":{");
    bool ok = at && sscanf(at, "\"locality\":{\"first_touches\":%llu,\"unrecorded_hits\":%*u,\"unbounded\":{"
                           "\"intra_thread\":%llu,\"inter_thread\":%llu,\"intra_block\":%llu,\"intra_core\":%llu,"
                           "\"inter_kernel\":%llu},\"bounded\":{\"intra_thread\":%llu,\"inter_thread\":%llu,"
                           "\"intra_block\":%llu,\"intra_core\":%llu,\"inter_kernel\":%llu}",
                           &n->first, &n->u[0], &n->u[1], &n->u[2], &n->u[3], &n->u[4], &n->b[0], &n->b[1], &n->b[2],
                           &n->b[3], &n->b[4]) == 11;
    free(text);
    return ok;
}

static void test_locality(void)
{
    const char *ptx = HEADER ".visible .entry loc(.param .u64 buf)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<3>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<4>;\n"
        " ld.param.u64 %rd1, [buf];\n mov.u32 %r1, %tid.x;\n and.b32 %r1, %r1, 31;\n mul.wide.u32 %rd2, %r1, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n setp.lt.u32 %p1, %r1, 16;\n"
        " @%p1 ld.global.f32 %f1, [%rd3];\n @!%p1 ld.global.f32 %f2, [%rd3];\n ld.global.f32 %f3, [%rd3];\n"
        " ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    void *buf = ptx_alloc(&e, 4096);
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    tm_config c = base_config();
    c.locality = 1;
    tm_gpu *g = tm_new(&c);
    if (!g) {
        ptx_unload(&e);
        return;
    }
    tm_stats st;
    locality_counts n;
    ptx_status s = run_on(g, &e, "loc", 1, 32, 1, args, &st);
    CHECK(s == PTX_OK && locality_of(&c, &st, &n) && n.first == 1 && n.u[1] == 1 && n.u[0] == 1 &&
          n.u[2] + n.u[3] + n.u[4] == 0, "one warp: first %llu, inter_thread %llu, intra_thread %llu (%s)",
          n.first, n.u[1], n.u[0], e.err.msg);
    for (int k = 0; k < 5; k++)
        CHECK(n.b[k] <= n.u[k], "the real L1D hits no more than an unbounded one (class %d: %llu > %llu)", k,
              n.b[k], n.u[k]);
    s = run_on(g, &e, "loc", 1, 32, 1, args, &st);
    CHECK(s == PTX_OK && locality_of(&c, &st, &n) && n.first == 0 && n.u[4] == 1 && n.u[1] == 1 && n.u[0] == 1,
          "a second launch: inter_kernel %llu, first %llu", n.u[4], n.first);
    tm_free(g);
    /* The statistics block belongs to the model: read it before tm_free. */
    g = tm_new(&c);
    s = g ? run_on(g, &e, "loc", 1, 64, 1, args, &st) : PTX_E_NOMEM;
    CHECK(s == PTX_OK && locality_of(&c, &st, &n) && n.first == 1 && n.u[2] >= 1 && n.u[3] == 0 &&
          n.u[0] + n.u[1] + n.u[2] == 5, "two warps of a CTA: first %llu, intra_block %llu, intra_core %llu, "
          "%llu + %llu + %llu re-references", n.first, n.u[2], n.u[3], n.u[0], n.u[1], n.u[2]);
    tm_free(g);
    g = tm_new(&c);
    s = g ? run_on(g, &e, "loc", 2, 32, 1, args, &st) : PTX_E_NOMEM;
    CHECK(s == PTX_OK && locality_of(&c, &st, &n) && n.first == 1 && n.u[3] >= 1 && n.u[2] == 0,
          "two CTAs on the SM: first %llu, intra_core %llu, intra_block %llu", n.first, n.u[3], n.u[2]);
    tm_free(g);
    c.locality = 0;
    g = tm_new(&c);
    s = g ? run_on(g, &e, "loc", 1, 32, 1, args, &st) : PTX_E_NOMEM;
    CHECK(s == PTX_OK && !locality_of(&c, &st, &n), "off: no locality statistics");
    tm_free(g);
    ptx_unload(&e);
}

/* Set-index functions against hand-computed vectors (Khairy 2015). */
static void test_index_functions(void)
{
    /* PRIC with x^5 + x^2 + 1 (37), 32 sets, 128-B lines: address bit k
     * contributes x^(k-7) mod P -- the thesis's table T[k] for k = 7..26. */
    static const uint32_t T[20] = { 1, 2, 4, 8, 16, 5, 10, 20, 13, 26, 17, 7, 14, 28, 29, 31, 27, 19, 3, 6 };
    for (uint32_t k = 7; k <= 26; k++)
        CHECK_EQ_U64(tm_index(1ull << (k - 7), 32, TM_INDEX_PRIC, 37, 0, 7), T[k - 7], "pric bit");
    /* A stride of 32 lines (a 4 KB row) puts every line in one set under
     * linear indexing; xor and pric spread them over all 32. */
    for (uint32_t fn = TM_INDEX_LINEAR; fn <= TM_INDEX_PRIC; fn++) {
        uint32_t used = 0;
        for (uint64_t i = 0; i < 32; i++)
            used |= 1u << tm_index(i * 32, 32, fn, 0, 0, 7);
        CHECK(__builtin_popcount(used) == (fn == TM_INDEX_LINEAR ? 1 : 32), "stride 32 under %u uses %d sets", fn,
              __builtin_popcount(used));
    }
    /* And the cases where the hash is worse: lines that linear indexing
     * separates but the hash puts together. */
    CHECK(tm_index(0, 32, TM_INDEX_XOR, 0, 0, 7) == tm_index(33, 32, TM_INDEX_XOR, 0, 0, 7) &&
          tm_index(0, 32, TM_INDEX_LINEAR, 0, 0, 7) != tm_index(33, 32, TM_INDEX_LINEAR, 0, 0, 7),
          "xor folds line 33 onto line 0");
    CHECK(tm_index(37, 32, TM_INDEX_PRIC, 37, 0, 7) == 0 && tm_index(37, 32, TM_INDEX_LINEAR, 0, 0, 7) == 5,
          "pric maps the polynomial itself to set 0");
    CHECK(tm_index(31, 32, TM_INDEX_PRIME, 0, 0, 7) == 0 && tm_index(31, 32, TM_INDEX_LINEAR, 0, 0, 7) == 31,
          "prime modulo 31 leaves set 31 unused");
    /* Only address bits up to index_hi_bit are hashed. */
    CHECK(tm_index(1ull << 20, 32, TM_INDEX_PRIC, 37, 26, 7) == 0 && tm_index(1ull << 19, 32, TM_INDEX_PRIC, 37, 26, 7) != 0,
          "bits above A[26] do not reach the index");
}

/* DBSA and warp throttling, as state machines. */
static void test_cache_management(void)
{
    /* Each thread streams through its own region: every line is used once. */
    const char *ptx = HEADER ".visible .entry stream2(.param .u64 buf, .param .u32 reps, .param .u32 span)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<5>;\n .reg .f32 %f<3>;\n"
        " ld.param.u64 %rd1, [buf];\n ld.param.u32 %r1, [reps];\n ld.param.u32 %r6, [span];\n"
        " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n mad.lo.u32 %r5, %r2, %r3, %r4;\n"
        " mov.f32 %f1, 0f00000000;\n"
        "LOOP:\n rem.u32 %r7, %r5, %r6;\n mul.wide.u32 %rd2, %r7, 4;\n add.s64 %rd3, %rd1, %rd2;\n ld.global.f32 %f2, [%rd3];\n"
        " add.f32 %f1, %f1, %f2;\n add.u32 %r5, %r5, 4096;\n sub.u32 %r1, %r1, 1;\n setp.ne.u32 %p1, %r1, 0;\n"
        " @%p1 bra LOOP;\n st.global.f32 [%rd3], %f1;\n bar.sync 0;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    void *buf = ptx_alloc(&e, 64u << 20);
    tm_config c = base_config();
    c.l1_dbsa = 1;
    c.dbsa_period = 500;
    tm_stats st;
    uint64_t streaming[] = { (uint64_t)(uintptr_t)buf, 64, 16u << 20 };
    ptx_status s = run_timed(&c, &e, "stream2", 16, 256, 3, streaming, &st);
    CHECK(s == PTX_OK && st.l1_bypass_periods > 0 && st.l1_bypassed > 0,
          "streaming turns the L1 off: %llu bypass periods, %llu accesses bypassed (%s)",
          (unsigned long long)st.l1_bypass_periods, (unsigned long long)st.l1_bypassed, e.err.msg);
    /* The same loop over 4 KB, which the L1 holds: after the cold start
     * (which may bypass for a period) the tag-only copy's hits turn the L1
     * back on, and it serves the reuse. */
    uint64_t reuse[] = { (uint64_t)(uintptr_t)buf, 256, 1024 };
    s = run_timed(&c, &e, "stream2", 4, 256, 3, reuse, &st);
    uint64_t periods = st.cycles / c.dbsa_period;
    CHECK(s == PTX_OK && st.l1_bypass_periods * 4 < periods && st.l1d.hits > 4 * st.l1d.misses,
          "reuse keeps the L1 on: bypassed %llu of %llu periods, %llu hits, %llu misses",
          (unsigned long long)st.l1_bypass_periods, (unsigned long long)periods, (unsigned long long)st.l1d.hits,
          (unsigned long long)st.l1d.misses);
    CHECK(st.l1d.conflict_misses + st.l1d.capacity_misses == st.l1d.misses, "every miss classified");
    /* Static throttling to one warp per scheduler, with a barrier at the
     * end: it must not deadlock, and it takes longer. */
    c = base_config();
    tm_stats free_run, one;
    run_timed(&c, &e, "stream2", 1, 256, 3, reuse, &free_run);
    c.throttle = TM_THROTTLE_STATIC;
    c.throttle_warps = 1;
    s = run_timed(&c, &e, "stream2", 1, 256, 3, reuse, &one);
    CHECK(s == PTX_OK && one.cycles > free_run.cycles, "one warp per scheduler: %llu cycles against %llu (%s)",
          (unsigned long long)one.cycles, (unsigned long long)free_run.cycles, e.err.msg);
    /* DWT-CS on a thrashing kernel: it samples once and picks a limit; a
     * second launch of the same kernel reuses the limit without sampling. */
    c = base_config();
    c.n_sm = 8;
    c.throttle = TM_THROTTLE_DWT;
    c.dwt_mpki = 1;                 /* coalesced streaming: about 3.5 misses per kilo-instruction */
    c.dwt_period = 300;
    c.dwt_detect = 2;
    c.dwt_sample = 2;
    tm_gpu *g = tm_new(&c);
    tm_stats first, second;
    s = run_on(g, &e, "stream2", 16, 256, 3, streaming, &first);
    ptx_status s2 = run_on(g, &e, "stream2", 16, 256, 3, streaming, &second);
    uint32_t per_sched = (uint32_t)(c.sm_max_threads / 32 / c.n_schedulers);
    /* Eight cores try 1 to 8 warps; if 8 wins, a second round tries 8 to
     * all 24 (the thesis's 16-24 on its 15 cores). */
    CHECK(s == PTX_OK && first.dwt_limit >= 1 && first.dwt_limit <= per_sched &&
          (first.dwt_samplings == 1 ? first.dwt_limit <= 8 : first.dwt_samplings == 2 && first.dwt_limit >= 8),
          "DWT-CS samples and picks %u warps (%llu samplings)", first.dwt_limit,
          (unsigned long long)first.dwt_samplings);
    CHECK(s2 == PTX_OK && second.dwt_samplings == 0 && second.dwt_limit == first.dwt_limit,
          "a second launch reuses %u without sampling (%llu samplings, limit %u)", first.dwt_limit,
          (unsigned long long)second.dwt_samplings, second.dwt_limit);
    tm_free(g);
    /* The thesis's order (its combined DWT-PRIC): DBSA waits while DWT-CS
     * watches the kernel's first periods and samples, so streaming is
     * bypassed for fewer periods than by DBSA alone, but still bypassed. */
    c.l1_dbsa = 1;
    c.dbsa_period = c.dwt_period = 1000;    /* the first 300 cycles see no miss complete */
    tm_stats alone, after;
    c.throttle = TM_THROTTLE_OFF;
    s = run_timed(&c, &e, "stream2", 16, 256, 3, streaming, &alone);
    c.throttle = TM_THROTTLE_DWT;
    c.dwt_window = TM_DWT_FIRST;
    s2 = run_timed(&c, &e, "stream2", 16, 256, 3, streaming, &after);
    CHECK(s == PTX_OK && s2 == PTX_OK && after.dwt_samplings >= 1 && after.l1_bypass_periods > 0 &&
          after.l1_bypass_periods < alone.l1_bypass_periods,
          "DBSA after DWT-CS: %llu bypass periods (%llu samplings), DBSA alone %llu",
          (unsigned long long)after.l1_bypass_periods, (unsigned long long)after.dwt_samplings,
          (unsigned long long)alone.l1_bypass_periods);
    /* With the first window only, a kernel that does not thrash from the
     * start is never sampled. */
    uint64_t reuse_long[] = { (uint64_t)(uintptr_t)buf, 256, 1024 };
    c.l1_dbsa = 0;
    s = run_timed(&c, &e, "stream2", 16, 256, 3, reuse_long, &after);
    CHECK(s == PTX_OK && after.dwt_samplings == 0, "no thrashing in the first window: %llu samplings",
          (unsigned long long)after.dwt_samplings);
    ptx_unload(&e);
}

/* The time series adds up to the totals; the timeline has every CTA. */
static void test_outputs(void)
{
    const char *ptx = HEADER ".visible .entry w(.param .u64 buf)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
        " .reg .f32 %f<2>;\n ld.param.u64 %rd1, [buf];\n mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %tid.x;\n"
        " mad.lo.u32 %r3, %r1, 256, %r2;\n mul.wide.u32 %rd2, %r3, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
        " ld.global.f32 %f1, [%rd3];\n add.f32 %f1, %f1, 0f3F800000;\n st.global.f32 [%rd3], %f1;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    void *buf = ptx_alloc(&e, 64 * 256 * 4);
    tm_config c = base_config();
    c.n_sm = 4;
    c.sample_cycles = 200;
    tm_stats st;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf };
    /* The samples and spans belong to the model: keep it until the end. */
    tm_gpu *g = tm_new(&c);
    ptx_status s = g ? run_on(g, &e, "w", 64, 256, 1, args, &st) : PTX_E_NOMEM;
    if (s != PTX_OK) {
        CHECK(false, "outputs kernel runs: %s", e.err.msg);
        tm_free(g);
        ptx_unload(&e);
        return;
    }
    uint64_t insts = 0;
    for (uint32_t i = 0; i < st.nsamples; i++)
        insts += st.samples[i].warp_insts;
    CHECK(s == PTX_OK && st.nsamples >= st.cycles / 200 && insts == st.warp_insts,
          "%u samples over %llu cycles add up to %llu of %llu warp-instructions", st.nsamples,
          (unsigned long long)st.cycles, (unsigned long long)insts, (unsigned long long)st.warp_insts);
    CHECK(st.nspans == 64, "one timeline span per CTA: %u", st.nspans);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tm_trace_json(f, "w", &c, &st, 0);
    fclose(f);
    unsigned spans = 0;
    for (char *p = text; (p = strstr(p, "\"ph\":\"X\"")); p++)
        spans++;
    CHECK(strncmp(text, "{\"traceEvents\":[", 16) == 0 && spans == 64, "trace has %u CTA events", spans);
    free(text);
    /* The statistics are one JSON object: braces balance and close at the end. */
    f = open_memstream(&text, &len);
    tm_stats_json(f, &c, &st);
    fclose(f);
    int depth = 0;
    bool closed_early = false;
    for (char *p = text; *p; p++) {
        depth += (*p == '{') - (*p == '}');
        closed_early = closed_early || (depth == 0 && p[1] != '\0');
    }
    CHECK(text[0] == '{' && depth == 0 && !closed_early, "statistics JSON is one object (depth %d, closed early %d)",
          depth, closed_early);
    free(text);
    tm_free(g);
    ptx_unload(&e);
}

/* The next-line prefetcher (timing/nextline.c, docs/extending.md), a
 * mechanism written through the hooks alone: one warp streams through 64
 * consecutive lines, each load's value needed before the next iteration,
 * so the memory stage idles while a miss is out and the prefetch of the
 * following line goes out then.  Later loads find those lines: the L1
 * hits, where without the prefetcher every load misses.  Its statistics
 * are in the JSON output, and only when it is on. */
static void test_nextline_prefetch(void)
{
    const char *ptx = HEADER ".visible .entry walk(.param .u64 in, .param .u64 out)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [in];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n mov.u32 %r2, 0;\n mov.u32 %r3, 0;\n"
        "LOOP:\n ld.global.u32 %r4, [%rd3];\n add.u32 %r2, %r2, %r4;\n add.s64 %rd3, %rd3, 128;\n"
        " add.u32 %r3, %r3, 1;\n setp.lt.u32 %p1, %r3, 64;\n @%p1 bra LOOP;\n"
        " ld.param.u64 %rd4, [out];\n add.s64 %rd5, %rd4, %rd2;\n st.global.u32 [%rd5], %r2;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    uint32_t *in = ptx_alloc(&e, 64 * 128), *out = ptx_alloc(&e, 32 * 4);
    for (uint32_t i = 0; i < 64 * 32; i++)
        in[i] = 1;
    uint64_t args[] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
    /* The statistics belong to the models: keep them until the end. */
    tm_config c = base_config(), cp = c;
    cp.nextline_prefetch = 1;
    tm_gpu *g = tm_new(&c), *gp = tm_new(&cp);
    tm_stats plain, pf;
    ptx_status s = g ? run_on(g, &e, "walk", 1, 32, 2, args, &plain) : PTX_E_NOMEM;
    CHECK(s == PTX_OK && out[0] == 64 && out[31] == 64, "walk runs and sums 64 ones: %s", e.err.msg);
    s = gp ? run_on(gp, &e, "walk", 1, 32, 2, args, &pf) : PTX_E_NOMEM;
    CHECK(s == PTX_OK && out[0] == 64, "walk runs with the prefetcher: %s", e.err.msg);
    if (!g || !gp) {
        tm_free(g);
        tm_free(gp);
        ptx_unload(&e);
        return;
    }
    printf("nextline: %llu L1 hits and %llu cycles without, %llu and %llu with\n",
           (unsigned long long)plain.l1d.hits, (unsigned long long)plain.cycles, (unsigned long long)pf.l1d.hits,
           (unsigned long long)pf.cycles);
    CHECK(plain.l1d.hits == 0 && pf.l1d.hits >= 16,
          "L1 hits: %llu without the prefetcher, %llu with it (of 64 loads)", (unsigned long long)plain.l1d.hits,
          (unsigned long long)pf.l1d.hits);
    CHECK(pf.cycles < plain.cycles, "the prefetcher saves time: %llu cycles against %llu",
          (unsigned long long)pf.cycles, (unsigned long long)plain.cycles);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tm_stats_json(f, &cp, &pf);
    fclose(f);
    unsigned long long issued = 0, useful = 0;
    const char *at = strstr(text, "\"nextline_prefetch\":{");
    CHECK(at && sscanf(at, "\"nextline_prefetch\":{\"queued\":%*u,\"issued\":%llu,\"useful\":%llu", &issued,
                       &useful) == 2 && issued >= 16 && useful >= 16,
          "JSON: %llu prefetches issued, %llu useful", issued, useful);
    free(text);
    f = open_memstream(&text, &len);
    tm_stats_json(f, &c, &plain);
    fclose(f);
    CHECK(!strstr(text, "nextline_prefetch"), "no prefetcher, no statistics of it");
    free(text);
    tm_free(g);
    tm_free(gp);
    ptx_unload(&e);
}

static void test_config_errors(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bad.cfg", check_bin_dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs("# a config with three mistakes\nn_sm = 4\nl1_sets = lots\nwarp_magic = 3\nscheduler = fifo\n", f);
    fclose(f);
    tm_config c;
    tm_config_defaults(&c);
    ptx_diag d = {0};
    ptx_status s = tm_config_load(&c, path, NULL, &d);
    CHECK(s != PTX_OK && d.count == 3 && d.line == 3, "three errors, first on line 3: %u errors, line %u", d.count,
          d.line);
    CHECK(strstr(d.msg, "l1_sets needs a non-negative integer") != NULL, "message: %s", d.msg);
    CHECK(c.n_sm == 4, "good lines still apply");
    memset(&d, 0, sizeof d);
    CHECK(tm_config_set(&c, "n_sm=0", &d) != PTX_OK && strstr(d.msg, "out of range"), "range: %s", d.msg);
    remove(path);
}

/* The shipped presets load cleanly and pass the consistency checks. */
/* Diverge on miss (Tarjan, Meng, Skadron): in iteration k, lanes with
 * (lane + k) % 8 == 0 read a new line (a miss); the others read one line
 * that stays in the L1.  Blocking, every iteration waits for a miss; with
 * diverge on miss the missing lanes are parked, the others run ahead (at
 * most dom_max_slip passes) and the parked ones rejoin at the load's pc.
 * Results are those of blocking execution. */
#define DOM_LOOP_PTX HEADER \
    ".visible .entry domloop(.param .u64 buf, .param .u64 out, .param .u32 iters)\n{\n" \
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<9>;\n .reg .f32 %f<4>;\n" \
    " ld.param.u64 %rd1, [buf];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r7, [iters];\n" \
    " mov.u32 %r1, %tid.x;\n mov.f32 %f1, 0f00000000;\n mov.u32 %r2, 0;\n" \
    "L:\n add.u32 %r3, %r1, %r2;\n and.b32 %r3, %r3, 7;\n setp.ne.u32 %p1, %r3, 0;\n" \
    " mad.lo.u32 %r4, %r2, 32, %r1;\n mul.wide.u32 %rd3, %r4, 128;\n add.s64 %rd3, %rd3, 1048576;\n" \
    " mul.wide.u32 %rd4, %r1, 4;\n selp.b64 %rd5, %rd4, %rd3, %p1;\n add.s64 %rd6, %rd1, %rd5;\n" \
    " ld.global.f32 %f2, [%rd6];\n add.f32 %f1, %f1, %f2;\n" \
    " add.u32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, %r7;\n @%p2 bra L;\n" \
    " add.s64 %rd7, %rd2, %rd4;\n st.global.f32 [%rd7], %f1;\n ret;\n}\n" \
    /* A partial miss right before a barrier and a shuffle: both force the \
     * parked lanes back first. */ \
    ".visible .entry domsync(.param .u64 buf, .param .u64 out)\n{\n" \
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<6>;\n" \
    " ld.param.u64 %rd1, [buf];\n ld.param.u64 %rd2, [out];\n mov.u32 %r1, %tid.x;\n" \
    " ld.global.f32 %f1, [%rd1];\n add.f32 %f1, %f1, 0f3F800000;\n" \
    " and.b32 %r3, %r1, 1;\n setp.eq.u32 %p1, %r3, 0;\n mul.wide.u32 %rd4, %r1, 4;\n" \
    " mul.wide.u32 %rd3, %r1, 128;\n add.s64 %rd3, %rd3, 2097152;\n selp.b64 %rd5, %rd4, %rd3, %p1;\n" \
    " add.s64 %rd6, %rd1, %rd5;\n ld.global.f32 %f2, [%rd6];\n bar.sync 0;\n" \
    " add.s64 %rd6, %rd6, 64;\n ld.global.f32 %f3, [%rd6];\n" \
    " shfl.sync.bfly.b32 %f4, %f3, 1, 31, -1;\n add.f32 %f5, %f2, %f4;\n add.f32 %f5, %f5, %f1;\n" \
    " add.s64 %rd7, %rd2, %rd4;\n st.global.f32 [%rd7], %f5;\n ret;\n}\n" \
    /* Two loads in the loop, missing in different lanes: a group parked at \
     * the first is under the second's when the lanes come round to it, \
     * and is found by its pc. */ \
    ".visible .entry domtwo(.param .u64 buf, .param .u64 out, .param .u32 iters)\n{\n" \
    " .reg .pred %p<4>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<10>;\n .reg .f32 %f<4>;\n" \
    " ld.param.u64 %rd1, [buf];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r7, [iters];\n" \
    " mov.u32 %r1, %tid.x;\n mov.f32 %f1, 0f00000000;\n mov.u32 %r2, 0;\n mul.wide.u32 %rd4, %r1, 4;\n" \
    "L2:\n add.u32 %r3, %r1, %r2;\n and.b32 %r3, %r3, 7;\n setp.ne.u32 %p1, %r3, 0;\n" \
    " setp.ne.u32 %p2, %r3, 4;\n mad.lo.u32 %r4, %r2, 32, %r1;\n mul.wide.u32 %rd3, %r4, 128;\n" \
    " add.s64 %rd3, %rd3, 1048576;\n selp.b64 %rd5, %rd4, %rd3, %p1;\n add.s64 %rd6, %rd1, %rd5;\n" \
    " ld.global.f32 %f2, [%rd6];\n add.f32 %f1, %f1, %f2;\n" \
    " add.s64 %rd7, %rd3, 3145728;\n selp.b64 %rd8, %rd4, %rd7, %p2;\n add.s64 %rd8, %rd1, %rd8;\n" \
    " ld.global.f32 %f3, [%rd8];\n add.f32 %f1, %f1, %f3;\n" \
    " add.u32 %r2, %r2, 1;\n setp.lt.u32 %p3, %r2, %r7;\n @%p3 bra L2;\n" \
    " add.s64 %rd9, %rd2, %rd4;\n st.global.f32 [%rd9], %f1;\n ret;\n}\n"

static void test_diverge_on_miss(void)
{
    ptx_env e;
    if (!ptx_load(&e, DOM_LOOP_PTX))
        return;
    float *buf = ptx_alloc(&e, 8u << 20), *out = ptx_alloc(&e, 4096);
    for (uint32_t i = 0; i < (8u << 20) / 4; i++)
        buf[i] = (float)(i % 1000) * 0.25f;
    tm_config c = base_config();
    float want[32], got[32];
    tm_stats off, on;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)out, 24 };
    ptx_status s = run_timed(&c, &e, "domloop", 1, 32, 3, args, &off);
    memcpy(want, out, sizeof want);
    CHECK(s == PTX_OK && off.dom_divergences == 0, "blocking run: %s", e.err.msg);
    c.dom = TM_DOM_ON;
    c.dom_max_slip = 3;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "domloop", 1, 32, 3, args, &on);
    memcpy(got, out, sizeof got);
    CHECK(s == PTX_OK && memcmp(want, got, sizeof want) == 0, "diverge on miss computes what blocking does: %s",
          e.err.msg);
    CHECK(on.dom_divergences > 0 && on.dom_rejoins > 0, "odd lanes parked (%llu) and rejoined (%llu)",
          (unsigned long long)on.dom_divergences, (unsigned long long)on.dom_rejoins);
    CHECK(on.dom_max_lead <= 3 && on.dom_slip_waits > 0, "the slip limit holds: lead %u, waits %llu",
          on.dom_max_lead, (unsigned long long)on.dom_slip_waits);
    if (getenv("DOM_VERBOSE"))
        fprintf(stderr, "dom: off %llu cycles, on %llu cycles, div %llu merged %llu rejoin %llu waits %llu lead %u "
                "forced %llu split %llu\n", (unsigned long long)off.cycles, (unsigned long long)on.cycles,
                (unsigned long long)on.dom_divergences, (unsigned long long)on.dom_merges,
                (unsigned long long)on.dom_rejoins, (unsigned long long)on.dom_slip_waits, on.dom_max_lead,
                (unsigned long long)on.dom_forced, (unsigned long long)on.dom_split_issues);
    /* Iteration k+1's missing lanes stand, after the load, where iteration
     * k's wait: they join that group instead of taking a second one. */
    CHECK(on.dom_merges > 0 && on.dom_fallbacks == 0, "new misses join the parked group at their pc: %llu merges, "
          "%llu fallbacks", (unsigned long long)on.dom_merges, (unsigned long long)on.dom_fallbacks);
    CHECK(on.cycles < off.cycles, "running ahead hides latency: %llu cycles, blocking %llu",
          (unsigned long long)on.cycles, (unsigned long long)off.cycles);
    /* The paper's first version of the limit: at it, the warp's loads block
     * (no new divergence) until the lead falls; results stay exact. */
    c.dom_slip_action = TM_SLIP_BLOCK;
    c.dom_max_slip = 2;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "domloop", 1, 32, 3, args, &on);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0, "blocking at the limit: still right (%s)", e.err.msg);
    CHECK(on.dom_slip_blocks > 0 && on.dom_slip_waits == 0 && on.dom_divergences > 0,
          "lanes at the limit block the warp's loads: %llu blocks, %llu waits, %llu divergences",
          (unsigned long long)on.dom_slip_blocks, (unsigned long long)on.dom_slip_waits,
          (unsigned long long)on.dom_divergences);
    c.dom_slip_action = TM_SLIP_WAIT;
    /* One group per warp: a second divergence while one is parked blocks. */
    c.dom_groups = 1;
    c.dom_max_slip = 255;
    s = run_timed(&c, &e, "domloop", 1, 32, 3, args, &on);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0 && on.dom_divergences > 0,
          "one group: still right (%s)", e.err.msg);

    /* Two loads a loop: each parked group is found at its pc (the paper's
     * table), whatever was parked after it, and the fixed limit holds
     * every lane within it of the slowest (without catch-up, which would
     * let the slowest lanes run while the others wait on the second load,
     * so that none reaches the limit). */
    c.dom = TM_DOM_OFF;
    s = run_timed(&c, &e, "domtwo", 1, 32, 3, args, &off);
    memcpy(want, out, sizeof want);
    c.dom = TM_DOM_ON;
    c.dom_slip = TM_SLIP_FIXED;
    c.dom_catch_up = TM_DOM_OFF;
    for (uint32_t limit = 2; limit <= 255; limit += 253) {
        c.dom_max_slip = limit;
        memset(out, 0, 4096);
        s = run_timed(&c, &e, "domtwo", 1, 32, 3, args, &on);
        CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0, "two loads, limit %u: right (%s)", limit,
              e.err.msg);
        CHECK(on.dom_divergences > 0 && on.dom_rejoins >= on.dom_divergences / 2 && on.dom_max_lead <= limit,
              "two loads, limit %u: %llu divergences, %llu rejoins, lead %u", limit,
              (unsigned long long)on.dom_divergences, (unsigned long long)on.dom_rejoins, on.dom_max_lead);
        if (limit == 2)
            CHECK(on.dom_slip_waits > 0, "two loads, limit 2: lanes wait at it (%llu)",
                  (unsigned long long)on.dom_slip_waits);
        if (getenv("DOM_VERBOSE"))
            fprintf(stderr, "domtwo limit %u: off %llu on %llu cycles, div %llu merges %llu rejoins %llu waits %llu "
                    "swaps %llu lead %u fallbacks %llu\n", limit, (unsigned long long)off.cycles,
                    (unsigned long long)on.cycles, (unsigned long long)on.dom_divergences,
                    (unsigned long long)on.dom_merges, (unsigned long long)on.dom_rejoins,
                    (unsigned long long)on.dom_slip_waits, (unsigned long long)on.dom_slip_swaps, on.dom_max_lead,
                    (unsigned long long)on.dom_fallbacks);
    }
    /* Catch-up: lanes parked at the first load whose data are in run while
     * the others wait on the second; results stay exact and the lanes stay
     * within the limit.  (It does not pay here: the catching-up lanes run
     * alone up to the second load, whose register the waiting lanes' load
     * holds in the warp's scoreboard, and wait there for it.) */
    tm_stats without = on;
    c.dom_catch_up = TM_DOM_ON;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "domtwo", 1, 32, 3, args, &on);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0, "two loads, catching up: right (%s)", e.err.msg);
    CHECK(on.dom_catch_ups > 0 && without.dom_catch_ups == 0 && on.dom_max_lead <= c.dom_max_slip,
          "parked lanes catch up while the others wait: %llu (off: %llu), lead %u",
          (unsigned long long)on.dom_catch_ups, (unsigned long long)without.dom_catch_ups, on.dom_max_lead);
    if (getenv("DOM_VERBOSE"))
        fprintf(stderr, "domtwo catching up: %llu cycles, without %llu\n", (unsigned long long)on.cycles,
                (unsigned long long)without.cycles);
    /* With the scoreboard kept per lane, the catching-up lanes issue the
     * second load for themselves instead of waiting on the others': their
     * misses overlap, and catching up costs less.  (Still more than not
     * catching up: the two groups merge where the others wait, and the
     * merged warp waits for the later of the two loads.) */
    tm_stats per_register = on;
    c.dom_lane_scoreboard = TM_DOM_ON;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "domtwo", 1, 32, 3, args, &on);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0, "two loads, lane scoreboard: right (%s)", e.err.msg);
    CHECK(on.dom_catch_ups > 0 && on.dom_max_lead <= c.dom_max_slip && on.cycles < per_register.cycles,
          "catching up with a scoreboard per lane: %llu cycles (per register %llu, no catch-up %llu), %llu catch-ups, "
          "lead %u", (unsigned long long)on.cycles, (unsigned long long)per_register.cycles,
          (unsigned long long)without.cycles, (unsigned long long)on.dom_catch_ups, on.dom_max_lead);
    /* Leapfrogging: the caught-up lanes do not merge with lanes still
     * waiting on a load; whichever group has its data runs. */
    tm_stats per_lane = on;
    c.dom_leapfrog = TM_DOM_ON;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "domtwo", 1, 32, 3, args, &on);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0, "two loads, leapfrogging: right (%s)", e.err.msg);
    CHECK(on.dom_catch_ups > 0 && on.dom_max_lead <= c.dom_max_slip,
          "leapfrogging: %llu cycles (merging %llu, no catch-up %llu), %llu catch-ups, lead %u",
          (unsigned long long)on.cycles, (unsigned long long)per_lane.cycles, (unsigned long long)without.cycles,
          (unsigned long long)on.dom_catch_ups, on.dom_max_lead);
    if (getenv("DOM_VERBOSE"))
        fprintf(stderr, "domtwo leapfrogging: %llu cycles, merging %llu, without catch-up %llu\n",
                (unsigned long long)on.cycles, (unsigned long long)per_lane.cycles,
                (unsigned long long)without.cycles);
    c.dom_leapfrog = TM_DOM_OFF;
    c.dom_lane_scoreboard = TM_DOM_OFF;
    c.dom_slip = TM_SLIP_ADAPTIVE;

    /* Forced reconvergence at a barrier and at a shuffle. */
    c.dom_groups = 2;
    uint64_t sargs[] = { (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)out };
    c.dom = TM_DOM_OFF;
    s = run_timed(&c, &e, "domsync", 1, 32, 2, sargs, &off);
    memcpy(want, out, sizeof want);
    c.dom = TM_DOM_ON;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "domsync", 1, 32, 2, sargs, &on);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0, "barrier and shuffle see every lane: %s", e.err.msg);
    CHECK(on.dom_divergences >= 2 && on.dom_forced >= 2, "parked twice (%llu), forced back twice (%llu)",
          (unsigned long long)on.dom_divergences, (unsigned long long)on.dom_forced);
    /* The replay policy and diverge on miss do not go together. */
    c.hazard_policy = TM_HAZ_REPLAY;
    ptx_diag d = {0};
    CHECK(tm_config_check(&c, &d) != PTX_OK && strstr(d.msg, "dom"), "dom with replay refused: %s", d.msg);
    ptx_unload(&e);
}

/* P-mode (Kim et al.): in pmloop every iteration's load misses (a new line)
 * and its value is used at once; a chain of integer work, the loop counter
 * and the next iteration's address do not depend on it -- the shape of the
 * paper's Fig. 5.  In pmchase every instruction after the load depends on
 * it, down to the branch that ends the loop. */
#define PMODE_PTX HEADER \
    ".visible .entry pmloop(.param .u64 buf, .param .u64 out, .param .u32 iters)\n{\n" \
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<9>;\n .reg .f32 %f<4>;\n" \
    " ld.param.u64 %rd1, [buf];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r7, [iters];\n" \
    " mov.u32 %r1, %tid.x;\n mov.f32 %f1, 0f00000000;\n mov.u32 %r2, 0;\n mov.u32 %r5, %r1;\n" \
    "L:\n mad.lo.u32 %r4, %r2, 32, %r1;\n mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd6, %rd1, %rd3;\n" \
    " ld.global.f32 %f2, [%rd6];\n add.f32 %f1, %f1, %f2;\n" \
    " mul.lo.u32 %r5, %r5, 1103515245;\n add.u32 %r5, %r5, 12345;\n" \
    " mul.lo.u32 %r5, %r5, 1103515245;\n add.u32 %r5, %r5, 12345;\n" \
    " mul.lo.u32 %r5, %r5, 1103515245;\n add.u32 %r5, %r5, 12345;\n" \
    " add.u32 %r2, %r2, 1;\n setp.lt.u32 %p2, %r2, %r7;\n @%p2 bra L;\n" \
    " mul.wide.u32 %rd4, %r1, 8;\n add.s64 %rd7, %rd2, %rd4;\n st.global.f32 [%rd7], %f1;\n" \
    " st.global.u32 [%rd7+4], %r5;\n ret;\n}\n" \
    ".visible .entry pmchase(.param .u64 buf, .param .u64 out)\n{\n" \
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<8>;\n" \
    " ld.param.u64 %rd1, [buf];\n ld.param.u64 %rd2, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r3, 1;\n" \
    " mov.u32 %r4, 0;\n" \
    "L:\n mul.wide.u32 %rd3, %r3, 1024;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r3, [%rd4];\n" \
    " add.u32 %r4, %r4, %r3;\n setp.ne.u32 %p1, %r3, 0;\n @%p1 bra L;\n" \
    " mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd2, %rd5;\n st.global.u32 [%rd6], %r4;\n ret;\n}\n"

static void test_pmode(void)
{
    ptx_env e;
    if (!ptx_load(&e, PMODE_PTX))
        return;
    float *buf = ptx_alloc(&e, 4u << 20);
    uint32_t *out = ptx_alloc(&e, 4096);
    for (uint32_t i = 0; i < (4u << 20) / 4; i++)
        buf[i] = (float)(i % 997) * 0.5f;
    tm_config c = base_config();
    uint32_t want[64], got[64];
    tm_stats off, on;
    uint64_t args[] = { (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)out, 40 };
    ptx_status s = run_timed(&c, &e, "pmloop", 1, 32, 3, args, &off);
    memcpy(want, out, sizeof want);
    CHECK(s == PTX_OK && off.pm_entries == 0, "baseline run: %s", e.err.msg);
    c.pmode = TM_PMODE_ON;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "pmloop", 1, 32, 3, args, &on);
    memcpy(got, out, sizeof got);
    CHECK(s == PTX_OK && memcmp(want, got, sizeof want) == 0, "P-mode computes what in-order execution does: %s",
          e.err.msg);
    if (getenv("PMODE_VERBOSE"))
        fprintf(stderr, "pmode: off %llu cycles (raw_memory %llu), on %llu (raw_memory %llu): entries %llu pre %llu "
                "skipped %llu preloads %llu reused %llu late %llu halts b%llu r%llu c%llu\n",
                (unsigned long long)off.cycles, (unsigned long long)off.slots[TM_SLOT_RAW_MEM],
                (unsigned long long)on.cycles, (unsigned long long)on.slots[TM_SLOT_RAW_MEM],
                (unsigned long long)on.pm_entries, (unsigned long long)on.pm_pre_executed,
                (unsigned long long)on.pm_skipped, (unsigned long long)on.pm_preloads,
                (unsigned long long)on.pm_reused, (unsigned long long)on.pm_late,
                (unsigned long long)on.pm_halts[0], (unsigned long long)on.pm_halts[1],
                (unsigned long long)on.pm_halts[2]);
    CHECK(on.pm_entries > 0 && on.pm_pre_executed > 0 && on.pm_preloads > 0 && on.pm_reused > 0,
          "independent work pre-executed (%llu), loads pre-loaded (%llu), results reused (%llu)",
          (unsigned long long)on.pm_pre_executed, (unsigned long long)on.pm_preloads,
          (unsigned long long)on.pm_reused);
    CHECK(on.slots[TM_SLOT_RAW_MEM] < off.slots[TM_SLOT_RAW_MEM] && on.cycles < off.cycles,
          "the long-latency stall shrinks: %llu -> %llu cycles waiting, %llu -> %llu in all",
          (unsigned long long)off.slots[TM_SLOT_RAW_MEM], (unsigned long long)on.slots[TM_SLOT_RAW_MEM],
          (unsigned long long)off.cycles, (unsigned long long)on.cycles);
    CHECK(on.nmode_l1_hits + on.nmode_l1_merges > off.nmode_l1_hits + off.nmode_l1_merges,
          "pre-loads turn N-mode misses into hits or merges: %llu+%llu -> %llu+%llu",
          (unsigned long long)off.nmode_l1_hits, (unsigned long long)off.nmode_l1_merges,
          (unsigned long long)on.nmode_l1_hits, (unsigned long long)on.nmode_l1_merges);

    /* No P-queue: pre-loads only, nothing reused. */
    tm_stats nopq;
    c.pmode_pqueue = 0;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "pmloop", 1, 32, 3, args, &nopq);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0 && nopq.pm_reused == 0 && nopq.pm_queued == 0 &&
          nopq.pm_preloads > 0, "P-queue 0: %llu pre-loads, %llu reused", (unsigned long long)nopq.pm_preloads,
          (unsigned long long)nopq.pm_reused);
    /* No rename registers: P-mode can only skip. */
    c.pmode_pqueue = 8;
    c.pmode_rename = 0;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "pmloop", 1, 32, 3, args, &nopq);
    CHECK(s == PTX_OK && memcmp(want, out, sizeof want) == 0 && nopq.pm_pre_executed == nopq.pm_preloads &&
          nopq.pm_reused == 0, "no rename registers: nothing renamed (%llu pre-executed, %llu pre-loads)",
          (unsigned long long)nopq.pm_pre_executed, (unsigned long long)nopq.pm_preloads);
    /* Replay drops refused pre-loads instead of replaying them. */
    c.pmode_rename = 128;
    c.hazard_policy = TM_HAZ_REPLAY;
    c.l1_mshr = 2;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "pmloop", 2, 64, 3, args, &nopq);
    memcpy(got, out, sizeof got);
    c.pmode = TM_PMODE_OFF;
    memset(out, 0, 4096);
    ptx_status s2 = run_timed(&c, &e, "pmloop", 2, 64, 3, args, &off);
    CHECK(s == PTX_OK && s2 == PTX_OK && memcmp(want, got, sizeof want) == 0 && memcmp(got, out, sizeof got) == 0,
          "replay with two MSHRs: same results (%s)", e.err.msg);

    /* Everything depends on the load: nothing to pre-execute, and the
     * dependent branch ends P-mode. */
    uint32_t *chain = (uint32_t *)buf;
    memset(chain, 0, 1u << 20);
    for (uint32_t i = 1; i < 30; i++)
        chain[i * 256] = (i * 7) % 29 + 1 == 1 ? 0 : i + 1;
    chain[30 * 256] = 0;
    c = base_config();
    s = run_timed(&c, &e, "pmchase", 1, 32, 2, args, &off);
    memcpy(want, out, 128);
    c.pmode = TM_PMODE_ON;
    memset(out, 0, 4096);
    s = run_timed(&c, &e, "pmchase", 1, 32, 2, args, &on);
    CHECK(s == PTX_OK && memcmp(want, out, 128) == 0 && want[0] != 0, "pointer chase: same result %u (%s)",
          want[0], e.err.msg);
    CHECK(on.pm_entries > 0 && on.pm_pre_executed == 0 && on.pm_preloads == 0 &&
          on.pm_halts[TM_PM_HALT_BRANCH] == on.pm_entries,
          "all dependent: %llu entries, %llu pre-executed, %llu halted at the branch",
          (unsigned long long)on.pm_entries, (unsigned long long)on.pm_pre_executed,
          (unsigned long long)on.pm_halts[TM_PM_HALT_BRANCH]);
    /* Diverge on miss and P-mode do not go together. */
    c.dom = TM_DOM_ON;
    ptx_diag d = {0};
    CHECK(tm_config_check(&c, &d) != PTX_OK && strstr(d.msg, "pmode"), "dom with pmode refused: %s", d.msg);
    ptx_unload(&e);
}

/* Every cycle an SM holds a block is charged once per scheduler, to some
 * reason, whether the SM ran that cycle or slept through it: the reasons
 * add up to the SMs' busy cycles times the schedulers. */
static void test_slot_accounting(void)
{
    ptx_env e;
    if (!ptx_load(&e, PMODE_PTX))
        return;
    float *buf = ptx_alloc(&e, 4u << 20);
    uint32_t *out = ptx_alloc(&e, 1u << 16);
    memset(buf, 0, 4u << 20);
    tm_config c = base_config();
    c.n_sm = 4;
    for (int pm = 0; pm < 2; pm++) {
        c.pmode = pm ? TM_PMODE_ON : TM_PMODE_OFF;
        tm_stats st;
        uint64_t args[] = { (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)out, 12 };
        ptx_status s = run_timed(&c, &e, "pmloop", 6, 64, 3, args, &st);
        uint64_t slots = 0;
        for (int k = 0; k < TM_SLOT_COUNT; k++)
            slots += st.slots[k];
        uint64_t want = st.sm_cycles * c.n_schedulers;
        CHECK(s == PTX_OK && slots + 6 * c.n_schedulers >= want && slots <= want + 6 * c.n_schedulers,
              "P-mode %s: %llu scheduler cycles charged for %llu SM cycles x %u schedulers", pm ? "on" : "off",
              (unsigned long long)slots, (unsigned long long)st.sm_cycles, (unsigned)c.n_schedulers);
    }
    ptx_unload(&e);
}

static void test_presets(void)
{
    const char *names[] = { "gtx480", "h100", "turner-2012", "khairy-2015", "tarjan-2009", "kim-2015" };
    for (int i = 0; i < 6; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/../configs/%s.cfg", check_src_dir, names[i]);
        tm_config c;
        tm_config_defaults(&c);
        ptx_diag d = {0};
        ptx_status s = tm_config_load(&c, path, NULL, &d);
        if (s == PTX_OK)
            s = tm_config_check(&c, &d);
        CHECK(s == PTX_OK, "%s: %s:%u: %s", names[i], d.file ? d.file : "", d.line, d.msg);
    }
}

/* Tensor cores: a chain of dependent mma.sync (D feeds the next C) runs at
 * the tensor latency; independent ones from many warps at the pipelines'
 * rate, an m16n8k16 on f16 keeping a pipeline busy for m*n*k / tensor_fma
 * cycles. */
static void test_tensor(void)
{
    char ptx[65536];
    int at = snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                      ".visible .entry mmas()\n{\n .reg .b32 %%r<8>;\n .reg .f32 %%f<8>;\n"
                      " mov.b32 %%r1, 0;\n mov.f32 %%f1, 0f00000000;\n mov.f32 %%f2, 0f00000000;\n"
                      " mov.f32 %%f3, 0f00000000;\n mov.f32 %%f4, 0f00000000;\n");
    for (int i = 0; i < 200; i++)
        at += snprintf(ptx + at, sizeof ptx - at, " mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                       "{%%f1, %%f2, %%f3, %%f4}, {%%r1, %%r1, %%r1, %%r1}, {%%r1, %%r1}, {%%f1, %%f2, %%f3, %%f4};\n");
    snprintf(ptx + at, sizeof ptx - at, " ret;\n}\n");
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "mma chain loads: %s", e.diag.msg);
        return;
    }
    tm_config c = base_config();
    tm_stats st;
    ptx_status s = run_timed(&c, &e, "mmas", 1, 32, 0, NULL, &st);
    double cpi = (double)st.cycles / 200;
    CHECK(s == PTX_OK && cpi > c.lat_tensor * 0.95 && cpi < c.lat_tensor * 1.1,
          "dependent mma chain: %.2f cycles per mma, latency %llu", cpi, (unsigned long long)c.lat_tensor);
    /* 32 warps, each its own chain: the pipelines are the limit. */
    s = run_timed(&c, &e, "mmas", 1, 1024, 0, NULL, &st);
    double busy = 16.0 * 8 * 16 / (double)c.tensor_fma;     /* cycles a pipeline spends on one */
    double rate = 32.0 * 200 / (double)st.cycles, peak = (double)c.n_tensor / busy;
    CHECK(s == PTX_OK && rate > peak * 0.85 && rate <= peak * 1.01,
          "independent mma: %.3f a cycle, pipelines' peak %.3f", rate, peak);
    ptx_unload(&e);
}

/* cp.async is a load into shared memory the warp waits for at
 * cp.async.wait_group (PTX ISA 9.7.9.25), not at a register.  One warp
 * copies from n distinct lines: with a wait after every copy the copies
 * run one after another; committed as separate groups and waited for
 * once, they overlap; wait_group 1 lets the newest group still be in
 * flight.  The copied data are right in every case. */
static void test_async_copy(void)
{
    enum { N = 8 };
    char ptx[16384];
    static const char *const waits[3] = { "serial", "overlap", "newest" };
    int at = snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_80\n.address_size 64\n");
    for (int v = 0; v < 3; v++) {
        at += snprintf(ptx + at, sizeof ptx - at,
                       ".visible .entry %s(.param .u64 src, .param .u64 out)\n{\n"
                       " .reg .b32 %%r<8>;\n .reg .b64 %%rd<8>;\n .shared .align 16 .b8 s[%d];\n"
                       " ld.param.u64 %%rd1, [src];\n ld.param.u64 %%rd2, [out];\n"
                       " mov.u32 %%r1, %%tid.x;\n shl.b32 %%r2, %%r1, 2;\n mov.u32 %%r3, s;\n add.u32 %%r3, %%r3, %%r2;\n"
                       " cvt.u64.u32 %%rd3, %%r2;\n add.s64 %%rd4, %%rd1, %%rd3;\n",
                       waits[v], N * 128);
        for (int i = 0; i < N; i++) {
            at += snprintf(ptx + at, sizeof ptx - at, " cp.async.ca.shared.global [%%r3+%d], [%%rd4+%d], 4;\n"
                           " cp.async.commit_group;\n", i * 128, i * 4096);
            if (v == 0)
                at += snprintf(ptx + at, sizeof ptx - at, " cp.async.wait_group 0;\n");
        }
        at += snprintf(ptx + at, sizeof ptx - at, "%s", v == 2 ? " cp.async.wait_group 1;\n" : " cp.async.wait_all;\n");
        /* After wait_group 1 only the newest copy may be missing: add up the others. */
        at += snprintf(ptx + at, sizeof ptx - at, " mov.u32 %%r5, 0;\n");
        for (int i = 0; i < N - (v == 2); i++)
            at += snprintf(ptx + at, sizeof ptx - at, " ld.shared.u32 %%r4, [%%r3+%d];\n add.u32 %%r5, %%r5, %%r4;\n",
                           i * 128);
        at += snprintf(ptx + at, sizeof ptx - at, " add.s64 %%rd5, %%rd2, %%rd3;\n st.global.u32 [%%rd5], %%r5;\n"
                       " ret;\n}\n");
    }
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        CHECK(false, "cp.async kernels load: %s", e.diag.msg);
        return;
    }
    uint32_t *src = ptx_alloc(&e, N * 4096), *out = ptx_alloc(&e, 128);
    for (unsigned i = 0; i < N * 1024; i++)
        src[i] = i;
    uint64_t args[] = { (uint64_t)(uintptr_t)src, (uint64_t)(uintptr_t)out };
    tm_config c = base_config();
    tm_stats st;
    uint64_t cycles[3];
    for (int v = 0; v < 3; v++) {
        memset(out, 0, 128);
        ptx_status s = run_timed(&c, &e, waits[v], 1, 32, 2, args, &st);
        cycles[v] = st.cycles;
        unsigned wrong = 0;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t want = 0;
            for (unsigned i = 0; i < (unsigned)N - (v == 2); i++)
                want += i * 1024 + l;
            wrong += out[l] != want;
        }
        CHECK(s == PTX_OK && wrong == 0, "cp.async %s: runs and copies (%u lanes wrong): %s", waits[v], wrong, e.err.msg);
        CHECK(st.l1d.misses >= N, "cp.async %s: %llu L1 misses for %d lines", waits[v],
              (unsigned long long)st.l1d.misses, N);
    }
    double dram = (double)c.dram_latency;
    CHECK(cycles[0] > N * dram, "cp.async waited for one at a time: %llu cycles, more than %d DRAM latencies",
          (unsigned long long)cycles[0], N);
    CHECK(cycles[1] * 2 < cycles[0], "cp.async groups overlap: %llu cycles against %llu one at a time",
          (unsigned long long)cycles[1], (unsigned long long)cycles[0]);
    CHECK(cycles[2] <= cycles[1] && cycles[1] > dram, "wait_group 1 (%llu cycles) waits no longer than wait_all (%llu)",
          (unsigned long long)cycles[2], (unsigned long long)cycles[1]);
    ptx_unload(&e);
}

/* Instruction fetch through the L1I: `adds` dependent adds in a loop run
 * `iters` times by one warp; the code is about adds + 8 instructions. */
static void icache_loop(ptx_env *e, const tm_config *c, int adds, int iters, tm_stats *st)
{
    char ptx[65536];
    int at = snprintf(ptx, sizeof ptx, HEADER ".visible .entry loop(.param .u64 out, .param .u32 n)\n{\n"
                      " .reg .b32 %%r<4>;\n .reg .b64 %%rd<2>;\n .reg .pred %%p1;\n"
                      " mov.u32 %%r1, 0;\n ld.param.u32 %%r2, [n];\n mov.u32 %%r3, 0;\nL:\n");
    for (int i = 0; i < adds; i++)
        at += snprintf(ptx + at, sizeof ptx - at, " add.u32 %%r1, %%r1, 1;\n");
    snprintf(ptx + at, sizeof ptx - at, " add.u32 %%r3, %%r3, 1;\n setp.lt.u32 %%p1, %%r3, %%r2;\n @%%p1 bra L;\n"
             " ld.param.u64 %%rd1, [out];\n st.global.u32 [%%rd1], %%r1;\n ret;\n}\n");
    memset(st, 0, sizeof *st);
    if (!ptx_load(e, ptx))
        return;
    uint32_t *out = ptx_alloc(e, 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out, (uint64_t)iters };
    ptx_status s = run_timed(c, e, "loop", 1, 32, 2, args, st);
    CHECK(s == PTX_OK && *out == (uint32_t)(adds * iters), "icache loop %d x %d: %s", adds, iters, e->err.msg);
    ptx_unload(e);
}

static void test_icache(void)
{
    ptx_env e;
    tm_config c = base_config();
    c.l1i_sets = 4;             /* 2 KB: 256 instructions of 8 bytes, 16 per line */
    c.l1i_assoc = 4;
    c.l1i_line = 128;
    c.inst_bytes = 8;
    c.l1i_prefetch = 0;
    uint64_t per_line = c.l1i_line / c.inst_bytes;
    tm_stats st, perfect;

    /* A loop that fits: the first pass misses once per line, the rest hit;
     * fetch costs next to nothing. */
    icache_loop(&e, &c, 48, 200, &st);
    uint64_t lines = (48 + 8 + per_line - 1) / per_line;
    CHECK(st.l1i.misses >= lines - 1 && st.l1i.misses <= lines + 1 && st.l1i.capacity_misses == st.l1i.misses,
          "loop in the L1I: %llu misses for about %llu lines of code", (unsigned long long)st.l1i.misses,
          (unsigned long long)lines);
    tm_config off = c;
    off.l1i_sets = 0;
    icache_loop(&e, &off, 48, 200, &perfect);
    CHECK(st.cycles > perfect.cycles && st.cycles < perfect.cycles * 1.05,
          "a loop that fits costs only its cold misses: %llu cycles, %llu with a perfect L1I",
          (unsigned long long)st.cycles, (unsigned long long)perfect.cycles);
    CHECK(st.slots[TM_SLOT_FETCH] > 0 && perfect.slots[TM_SLOT_FETCH] == 0 && perfect.l1i.accesses == 0,
          "ifetch cycles: %llu with an L1I, %llu without", (unsigned long long)st.slots[TM_SLOT_FETCH],
          (unsigned long long)perfect.slots[TM_SLOT_FETCH]);

    /* A loop twice the cache's size: LRU loses every line each pass. */
    icache_loop(&e, &c, 504, 10, &st);
    lines = (504 + 8) / per_line;
    CHECK(st.l1i.misses >= 10 * lines && st.l1i.misses <= 10 * (lines + 2),
          "loop twice the L1I: %llu misses, %llu lines x 10 passes", (unsigned long long)st.l1i.misses,
          (unsigned long long)lines);
    icache_loop(&e, &off, 504, 10, &perfect);
    double per_miss = (double)(st.cycles - perfect.cycles) / (double)st.l1i.misses;
    CHECK(per_miss > (double)c.l2_latency, "each L1I miss holds the warp for a trip to the L2: %.0f cycles per miss",
          per_miss);

    /* Sequential prefetch hides most of that for straight-line code. */
    tm_config pf = c;
    pf.l1i_prefetch = 8;
    pf.l1i_mshr = 8;
    tm_stats st_pf;
    icache_loop(&e, &pf, 504, 10, &st_pf);
    CHECK(st_pf.cycles * 2 < st.cycles && st_pf.l1i.misses < st.l1i.misses / 4,
          "prefetching 8 lines: %llu cycles and %llu demand misses, against %llu and %llu",
          (unsigned long long)st_pf.cycles, (unsigned long long)st_pf.l1i.misses, (unsigned long long)st.cycles,
          (unsigned long long)st.l1i.misses);

    /* Wider instructions fill more lines. */
    tm_config wide = c;
    wide.inst_bytes = 16;
    icache_loop(&e, &wide, 48, 200, &st);
    lines = (48 + 8) * 16 / c.l1i_line + 1;
    CHECK(st.l1i.misses >= lines - 1 && st.l1i.misses <= lines + 1, "16-byte instructions: %llu misses for %llu lines",
          (unsigned long long)st.l1i.misses, (unsigned long long)lines);
}

/* The constant cache: one warp walks a constant table `iters` times, one
 * new 64-byte line per step over `lines` lines, all lanes at one address
 * (or, divergent, each lane at its own line); returns the cycles. */
static uint64_t constant_walk(const tm_config *c, int lines, int steps, bool divergent, tm_stats *st)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HEADER ".const .align 64 .b32 tab[8192];\n"
             ".visible .entry walk(.param .u64 out, .param .u32 n, .param .u32 mask)\n{\n"
             " .reg .b32 %%r<10>;\n .reg .b64 %%rd<4>;\n .reg .pred %%p1;\n"
             " ld.param.u32 %%r2, [n];\n ld.param.u32 %%r3, [mask];\n mov.u32 %%r1, 0;\n mov.u32 %%r4, 0;\n"
             " mov.u32 %%r7, %%tid.x;\n mul.lo.u32 %%r7, %%r7, %d;\n"
             "L:\n and.b32 %%r5, %%r4, %%r3;\n mul.lo.u32 %%r5, %%r5, 64;\n add.u32 %%r5, %%r5, %%r7;\n"
             " and.b32 %%r5, %%r5, 32767;\n cvt.u64.u32 %%rd1, %%r5;\n mov.u64 %%rd2, tab;\n add.u64 %%rd1, %%rd1, %%rd2;\n"
             " ld.const.u32 %%r6, [%%rd1];\n add.u32 %%r1, %%r1, %%r6;\n"
             " add.u32 %%r4, %%r4, 1;\n setp.lt.u32 %%p1, %%r4, %%r2;\n @%%p1 bra L;\n"
             " ld.param.u64 %%rd3, [out];\n st.global.u32 [%%rd3], %%r1;\n ret;\n}\n", divergent ? 64 : 0);
    ptx_env e;
    memset(st, 0, sizeof *st);
    if (!ptx_load(&e, ptx))
        return 0;
    uint32_t *out = ptx_alloc(&e, 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out, (uint64_t)steps, (uint64_t)lines - 1 };   /* lines: a power of two */
    ptx_status s = run_timed(c, &e, "walk", 1, 32, 3, args, st);
    CHECK(s == PTX_OK && *out == 0, "constant walk runs: %s", e.err.msg);
    ptx_unload(&e);
    return st->cycles;
}

static void test_constant_cache(void)
{
    tm_config c = base_config();            /* 8 KB: 64 sets x 2 ways x 64 B */
    uint64_t capacity = c.l1c_sets * c.l1c_assoc;
    tm_stats st;
    /* A table that fits, walked twice: the second pass hits.  (The
     * parameters' line misses twice more: at the start, and at the end
     * after the table has pushed it out.  A miss that merges into one on
     * its way counts as a miss and a merge.) */
    uint64_t fits = constant_walk(&c, (int)capacity, 2 * (int)capacity, false, &st);
    CHECK(st.l1c.misses - st.l1c.merges >= capacity && st.l1c.misses - st.l1c.merges <= capacity + 2 &&
          st.l1c.hits >= capacity, "constant table of %llu lines walked twice: %llu misses (%llu merged), %llu hits",
          (unsigned long long)capacity, (unsigned long long)st.l1c.misses, (unsigned long long)st.l1c.merges,
          (unsigned long long)st.l1c.hits);
    /* Twice the cache: every step misses. */
    uint64_t thrash = constant_walk(&c, 2 * (int)capacity, 4 * (int)capacity, false, &st);
    CHECK(st.l1c.misses >= 4 * capacity, "constant table of twice the L1C: %llu misses in %llu steps",
          (unsigned long long)st.l1c.misses, (unsigned long long)(4 * capacity));
    /* Lanes at different addresses are served one address a cycle. */
    constant_walk(&c, (int)capacity, 2 * (int)capacity, true, &st);
    CHECK(st.l1c.accesses >= 32 * 2 * capacity, "divergent constant loads: %llu accesses for %llu steps of 32 addresses",
          (unsigned long long)st.l1c.accesses, (unsigned long long)(2 * capacity));
    /* Without an L1C every constant load hits. */
    tm_config off = c;
    off.l1c_sets = 0;
    uint64_t perfect = constant_walk(&off, 2 * (int)capacity, 4 * (int)capacity, false, &st);
    CHECK(st.l1c.accesses == 0, "no L1C: no accesses counted");
    double per_miss = (double)(thrash - perfect) / (double)(4 * capacity);
    CHECK(per_miss > (double)c.l2_latency, "each L1C miss waits for the L2: %.0f cycles (%llu against %llu with every load a hit)",
          per_miss, (unsigned long long)thrash, (unsigned long long)perfect);
    CHECK(fits < thrash / 2, "a table that fits: %llu cycles for half the steps", (unsigned long long)fits);
}

/* The texture cache: one warp fetches texels of a 1D texture over linear
 * memory, 32 consecutive ints a step (one 128-byte line), over `lines`
 * lines, `steps` steps. */
static void texture_walk(const tm_config *c, int lines, int steps, tm_stats *st)
{
    const char *ptx = HEADER ".visible .entry walk(.param .u64 out, .param .u64 tex, .param .u32 n, .param .u32 mask)\n{\n"
                      " .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n .reg .pred %p1;\n"
                      " ld.param.u64 %rd1, [tex];\n ld.param.u32 %r2, [n];\n ld.param.u32 %r3, [mask];\n"
                      " mov.u32 %r1, 0;\n mov.u32 %r4, 0;\n mov.u32 %r7, %tid.x;\n"
                      "L:\n and.b32 %r5, %r4, %r3;\n shl.b32 %r5, %r5, 5;\n add.u32 %r5, %r5, %r7;\n"
                      " tex.1d.v4.s32.s32 {%r8, %r9, %r10, %r11}, [%rd1, {%r5}];\n add.u32 %r1, %r1, %r8;\n"
                      " add.u32 %r4, %r4, 1;\n setp.lt.u32 %p1, %r4, %r2;\n @%p1 bra L;\n"
                      " ld.param.u64 %rd3, [out];\n mul.wide.u32 %rd2, %r7, 4;\n add.u64 %rd3, %rd3, %rd2;\n"
                      " st.global.u32 [%rd3], %r1;\n ret;\n}\n";
    ptx_env e;
    memset(st, 0, sizeof *st);
    if (!ptx_load(&e, ptx))
        return;
    uint32_t n = (uint32_t)lines * 32;
    int32_t *texels = ptx_alloc(&e, n * 4);
    for (uint32_t i = 0; i < n; i++)
        texels[i] = (int32_t)i;
    uint32_t *out = ptx_alloc(&e, 32 * 4);
    isa_image img = { .base = (uint64_t)(uintptr_t)texels, .width = n, .height = 1, .depth = 1, .pitch = n * 4,
                      .channels = 1, .channel_bytes = 4, .channel_kind = ISA_CHAN_SIGNED, .linear_memory = 1 };
    uint64_t handle = 0;
    ptx_status s = exec_image_create(exec_program_memory(e.p), &img, &handle);
    uint64_t args[] = { (uint64_t)(uintptr_t)out, handle, (uint64_t)steps, (uint64_t)lines - 1 };
    if (s == PTX_OK)
        s = run_timed(c, &e, "walk", 1, 32, 4, args, st);
    uint32_t want = 0;
    for (int k = 0; k < steps; k++)
        want += (uint32_t)((k & (lines - 1)) * 32 + 5);
    CHECK(s == PTX_OK && out[5] == want, "texture walk runs and reads its texels: %u against %u: %s", out[5], want,
          e.err.msg);
    ptx_unload(&e);
}

static void test_texture_cache(void)
{
    tm_config c = base_config();
    uint64_t capacity = c.l1t_sets * c.l1t_assoc;     /* lines */
    tm_stats st;
    texture_walk(&c, 64, 128, &st);
    CHECK(st.l1t.misses - st.l1t.merges == 64 && st.l1t.hits == 64 && st.l1d.accesses == 0,
          "64 texture lines fetched twice through the L1T (%llu lines): %llu misses, %llu hits; %llu L1D accesses",
          (unsigned long long)capacity, (unsigned long long)(st.l1t.misses - st.l1t.merges),
          (unsigned long long)st.l1t.hits, (unsigned long long)st.l1d.accesses);
    tm_config off = c;
    off.l1t_sets = 0;
    texture_walk(&off, 64, 128, &st);
    CHECK(st.l1t.accesses == 0 && st.l1d.accesses == 128, "without an L1T, texture fetches go through the L1D: %llu accesses",
          (unsigned long long)st.l1d.accesses);
}

/* barrier.sync without .aligned reached by the odd and the even lanes of
 * each warp at two instructions (PTX ISA barrier): in timing mode too,
 * where warps advance one instruction at a time, the arriving lanes wait
 * while their warp's other path runs, and every thread then reads the
 * value the next warp's thread wrote before the barrier. */
static void test_split_barrier(void)
{
    static const char ptx[] = HEADER
        ".visible .entry split(.param .u64 out)\n{\n"
        " .reg .b32 %r<6>;\n .reg .b64 %rd<3>;\n .reg .pred %p;\n .shared .align 4 .b32 sm[128];\n"
        " mov.u32 %r1, %tid.x;\n mov.u32 %r2, sm;\n mad.lo.u32 %r3, %r1, 4, %r2;\n"
        " mul.lo.u32 %r4, %r1, 7;\n st.shared.u32 [%r3], %r4;\n"
        " and.b32 %r5, %r1, 1;\n setp.ne.u32 %p, %r5, 0;\n @%p bra ODD;\n barrier.sync 0;\n bra JOIN;\n"
        "ODD:\n barrier.sync 0;\nJOIN:\n"
        " add.u32 %r5, %r1, 32;\n and.b32 %r5, %r5, 127;\n mad.lo.u32 %r5, %r5, 4, %r2;\n ld.shared.u32 %r4, [%r5];\n"
        " ld.param.u64 %rd1, [out];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd1, %rd1, %rd2;\n"
        " st.global.u32 [%rd1], %r4;\n ret;\n}\n";
    ptx_env e;
    if (!ptx_load(&e, ptx))
        return;
    uint32_t *out = ptx_alloc(&e, 128 * 4);
    uint64_t args[] = { (uint64_t)(uintptr_t)out };
    tm_config c = base_config();
    tm_stats st;
    ptx_status s = run_timed(&c, &e, "split", 1, 128, 1, args, &st);
    CHECK(s == PTX_OK, "split barrier runs in timing mode: %s", e.err.msg);
    unsigned bad = 0;
    for (unsigned t = 0; t < 128 && s == PTX_OK; t++)
        bad += out[t] != ((t + 32) % 128) * 7;
    CHECK(s != PTX_OK || bad == 0, "every thread reads the next warp's value after the barrier: %u wrong", bad);
}

static const check_case cases[] = {
    CASE(presets),
    CASE(alu_chain),
    CASE(dual_issue),
    CASE(issue_rate),
    CASE(occupancy),
    CASE(load_latency),
    CASE(l2_capacity),
    CASE(bandwidth),
    CASE(bank_conflicts),
    CASE(mshr_exhaustion),
    CASE(hazards),
    CASE(ibuffer),
    CASE(index_functions),
    CASE(cache_management),
    CASE(locality),
    CASE(no_l2),
    CASE(outputs),
    CASE(diverge_on_miss),
    CASE(pmode),
    CASE(slot_accounting),
    CASE(tensor),
    CASE(async_copy),
    CASE(icache),
    CASE(constant_cache),
    CASE(texture_cache),
    CASE(nextline_prefetch),
    CASE(config_errors),
    CASE(split_barrier),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, cases);
}

/*
 * fuzz_timing.c -- libFuzzer target: the timing model under random
 * configurations, each parameter inside its documented range.
 *
 * The input chooses up to 16 parameters and a value for each (its
 * magnitude first, so that small and huge values are both common), and
 * the configuration check decides whether the combination is valid.  A
 * valid one runs a small kernel with shared memory, a barrier, a loop
 * whose trip count differs by lane, global atomics and stores through the
 * model.  Whatever the configuration, the run must finish and compute what
 * the kernel computes: a timing parameter never changes a result.  Crashes
 * and memory errors are the sanitizers' to report.
 */
#include "fuzz.h"
#include "exec.h"
#include "frontend.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each thread sums its lane's trip count of its block's shared words,
 * after a barrier, adds the sum into a global counter and stores it. */
static const char kernel_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 total)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n"
    " .shared .align 4 .b32 sh[128];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
    " mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    " shl.b32 %r5, %r1, 2;\n mov.u32 %r6, sh;\n add.u32 %r6, %r6, %r5;\n st.shared.u32 [%r6], %r4;\n"
    " bar.sync 0;\n"
    " and.b32 %r7, %r1, 7;\n mov.u32 %r8, 0;\n mov.u32 %r9, 0;\n mov.u32 %r10, sh;\n"
    "LOOP:\n setp.gt.u32 %p1, %r9, %r7;\n @%p1 bra DONE;\n"
    " ld.shared.u32 %r11, [%r10];\n add.u32 %r8, %r8, %r11;\n add.u32 %r10, %r10, 4;\n"
    " add.u32 %r9, %r9, 1;\n bra LOOP;\n"
    "DONE:\n ld.param.u64 %rd1, [total];\n atom.global.add.u32 %r11, [%rd1], %r8;\n"
    " ld.param.u64 %rd2, [out];\n mul.wide.u32 %rd3, %r4, 4;\n add.u64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r8;\n ret;\n}\n";

enum { GRID = 3, BLOCK = 96 };

static exec_memory *mem;
static isa_module *mod;
static exec_program *prog;
static uint32_t *out, *total;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ptx_diag d = {0};
    uint64_t a, b;
    mem = exec_memory_new(1ull << 30);
    mod = mem ? fe_parse(kernel_ptx, strlen(kernel_ptx), "fuzz_timing.ptx", &d) : NULL;
    if (!mod || exec_program_load(mem, mod, &prog, &d) != PTX_OK ||
        exec_malloc(mem, GRID * BLOCK * 4, 256, &a) != PTX_OK || exec_malloc(mem, 4, 256, &b) != PTX_OK)
        abort();
    out = (uint32_t *)(uintptr_t)a;
    total = (uint32_t *)(uintptr_t)b;
    return 0;
}

/* What thread t of a block computes: the sum of its block's first
 * (t % 8) + 1 global thread indexes. */
static uint32_t expected(uint32_t block, uint32_t t)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i <= t % 8; i++)
        s += block * BLOCK + i;
    return s;
}

/* Bytes of cache state the configuration asks for: configurations far past
 * any real GPU's are skipped rather than allowed to exhaust the fuzzer's
 * memory limit (they are valid, only not worth the memory here). */
static uint64_t state_bytes(const tm_config *c)
{
    uint64_t l1 = c->l1_sets * c->l1_assoc + c->l1i_sets * c->l1i_assoc + c->l1c_sets * c->l1c_assoc +
                  c->l1t_sets * c->l1t_assoc;
    uint64_t lines = c->n_sm * l1 + c->n_partitions * c->l2_sets * c->l2_assoc;
    return lines * 64 + c->n_sm * (c->sm_max_threads / 32) * 4096 + c->n_partitions * c->dram_banks * 64;
}

/* Say what went wrong (with the configuration) and stop: a finding. */
static void fail(const char *what, const char *detail, const char *msg)
{
    fprintf(stderr, "fuzz_timing: %s: %s %s\n", what, detail, msg);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_config c;
    tm_config_defaults(&c);
    c.n_sm = 2;
    size_t np = tm_param_count();
    for (size_t at = 0; at + 6 <= size && at < 16 * 6; at += 6) {
        tm_param_desc p = tm_param_at((data[at] | data[at + 1] << 8) % np);
        uint32_t raw;
        memcpy(&raw, data + at + 2, 4);
        uint64_t span = p.hi - p.lo, v = raw;
        /* A magnitude from the low bits, then a value of that many bits. */
        unsigned bits = (unsigned)(raw & 63) % 33;
        v = bits ? (uint64_t)(raw >> 6) & ((1ull << bits) - 1) : 0;
        v = span == UINT64_MAX ? p.lo + v : p.lo + v % (span + 1);
        /* Through the text interface, as a user's --set would. */
        char set[160];
        if (p.is_enum) {
            const char *w = p.words;
            for (uint64_t k = 0; k < v && strchr(w, '|'); k++)
                w = strchr(w, '|') + 1;
            snprintf(set, sizeof set, "%s=%.*s", p.name, (int)strcspn(w, "|"), w);
        } else {
            snprintf(set, sizeof set, "%s=%llu", p.name, (unsigned long long)v);
        }
        ptx_diag d = {0};
        if (tm_config_set(&c, set, &d) != PTX_OK)
            fail("an in-range value is refused", set, d.msg);
    }
    ptx_diag d = {0};
    if (tm_config_check(&c, &d) != PTX_OK || state_bytes(&c) > (512u << 20))
        return 0;
    tm_gpu *g = tm_new(&c);
    if (!g)
        return 0;
    memset(out, 0, GRID * BLOCK * 4);
    *total = 0;
    uint64_t args[2] = { (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)total };
    exec_launch l = { .grid = { GRID, 1, 1 }, .block = { BLOCK, 1, 1 }, .args = (const uint8_t *)args,
                      .nsm = (uint32_t)c.n_sm, .max_warp_insts = 1u << 20 };
    exec_stats xs = {0};
    exec_error err = {0};
    tm_stats st;
    ptx_status s = tm_run(g, prog, exec_program_kernel(prog, "k"), &l, &st, &xs, &err);
    tm_free(g);
    if (s == PTX_E_LAUNCH_CONFIG)
        return 0;                       /* a block does not fit the SM (few registers, say): refused, rightly */
    if (s != PTX_OK)
        fail("a valid configuration does not run the kernel", ptx_status_message(s), err.msg);
    uint32_t sum = 0;
    for (uint32_t b = 0; b < GRID; b++)
        for (uint32_t t = 0; t < BLOCK; t++) {
            if (out[b * BLOCK + t] != expected(b, t))
                fail("a timing parameter changed a result", "out", "");
            sum += expected(b, t);
        }
    if (*total != sum)
        fail("a timing parameter changed a result", "total", "");
    return 0;
}

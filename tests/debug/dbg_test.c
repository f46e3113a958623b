/*
 * dbg_test.c -- the debugger driven by command scripts, as a user would
 * drive it, with its transcript compared to the one expected.
 *
 *   dbg_test SRCDIR BINDIR            run every scenario below: its script
 *                                     SRCDIR/NAME.cmd in --batch mode, the
 *                                     transcript against SRCDIR/NAME.expected
 *                                     (a differing one is left in BINDIR)
 *   dbg_test SRCDIR BINDIR --update   write the expected transcripts anew
 *   dbg_test SRCDIR --interactive NAME   debug one scenario at the terminal
 *                                     (the pty test types into this; `spin`,
 *                                     a kernel that never ends, is only here)
 *
 * Each scenario also runs without the debugger; the debugged launches
 * must leave the same memory, statistics and status (debugging changes
 * nothing), unless the script ends the program early.  Device addresses
 * differ from run to run, so transcripts have every long hex number
 * replaced by 0x<addr> before they are compared.
 */
#include "check.h"
#include "debug.h"
#include "ptx_run.h"

#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct scenario {
    const char *name;           /* NAME.cmd, NAME.expected */
    const char *ptx;            /* relative to SRCDIR */
    const char *kernel;
    uint32_t grid, block;
    unsigned launches;
    bool early;                 /* the prompt comes before any launch (dbg_start) */
    bool check_memory, cooperative;
    ptx_status want;            /* what the launches return when run to the end */
} scenario;

static const scenario scenarios[] = {
    { "vector_add", "../ptx/vector_add.nvcc-G.ptx", "_Z10vector_addPKfS0_Pfi",
      2, 64, 2, true, false, false, PTX_OK },
    { "diverge", "dbg_kernels.ptx", "_Z7divergePi",
      2, 64, 1, false, false, false, PTX_OK },
    { "shared", "dbg_kernels.ptx", "_Z14reverse_sharedPi",
      2, 64, 1, false, false, false, PTX_OK },
    { "conditional", "dbg_kernels.ptx", "_Z7divergePi",
      2, 64, 1, false, false, false, PTX_OK },
    { "oob", "dbg_kernels.ptx", "_Z7scatterPii",
      1, 64, 1, false, true, false, PTX_E_ILLEGAL_ADDRESS },
    { "deadlock", "dbg_kernels.ptx", "_Z5stuckPi",
      1, 64, 1, false, false, false, PTX_E_DEADLOCK },
    { "quit", "dbg_kernels.ptx", "_Z7divergePi",
      2, 64, 1, false, false, false, PTX_OK },
    /* Without line information; all blocks resident at a grid-wide barrier. */
    { "grid_sync", "../ptx/grid_sync.nvcc.ptx", "_Z13grid_exchangePjS_j",
      4, 96, 1, false, false, true, PTX_OK },
    /* The same kernel launched without cooperation traps. */
    { "trap", "../ptx/grid_sync.nvcc.ptx", "_Z13grid_exchangePjS_j",
      4, 96, 1, false, false, false, PTX_E_TRAP },
    /* .b128 registers (hand-written PTX without line information). */
    { "b128", "b128.ptx", "wide",
      1, 32, 1, false, false, false, PTX_OK },
    /* A lock taken in a function: lanes through it run apart. */
    { "lock_calls", "lock_calls.ptx", "_Z12take_ticketsPi",
      1, 32, 1, false, false, false, PTX_OK },
};

/* Interactive only: a kernel that never ends, to interrupt with Ctrl-C. */
static const scenario spin = { "spin", "dbg_kernels.ptx", "_Z4spinPViPi",
                                1, 32, 1, false, false, false, PTX_OK };

/* Device buffers of one scenario, and the launch's arguments. */
typedef struct world {
    ptx_env e;
    uint8_t *buf;               /* the buffer the kernel writes */
    size_t bytes;
    uint64_t args[4];
    unsigned nargs;
    const char *names[3];       /* convenience variables: $a $b $c, $out, $data */
    uint64_t addrs[3];
    unsigned nnames;
} world;

static bool world_load(world *w, const char *srcdir, const scenario *sc)
{
    memset(w, 0, sizeof *w);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir, sc->ptx);
    size_t len;
    char *ptx = ptx_read_file(path, &len);
    if (!ptx) {
        printf("cannot read %s\n", path);
        return false;
    }
    bool ok = ptx_load(&w->e, ptx);
    free(ptx);
    if (!ok)
        return false;
    uint32_t threads = sc->grid * sc->block;
    if (strcmp(sc->name, "vector_add") == 0) {
        uint32_t n = 100;
        float *a = ptx_alloc(&w->e, n * 4), *b = ptx_alloc(&w->e, n * 4), *c = ptx_alloc(&w->e, n * 4);
        for (uint32_t i = 0; i < n; i++) {
            a[i] = (float)i * 0.5f;
            b[i] = 100.0f - (float)i;
        }
        w->buf = (uint8_t *)c;
        w->bytes = n * 4;
        uint64_t args[] = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c, n };
        memcpy(w->args, args, sizeof args);
        w->nargs = 4;
        w->names[0] = "a", w->names[1] = "b", w->names[2] = "c";
        w->addrs[0] = (uintptr_t)a, w->addrs[1] = (uintptr_t)b, w->addrs[2] = (uintptr_t)c;
        w->nnames = 3;
        return true;
    }
    if (strcmp(sc->ptx, "../ptx/grid_sync.nvcc.ptx") == 0) {
        w->bytes = (size_t)threads * 4;
        uint32_t *x = ptx_alloc(&w->e, w->bytes), *y = ptx_alloc(&w->e, w->bytes);
        w->buf = (uint8_t *)y;
        uint64_t args[] = { (uintptr_t)x, (uintptr_t)y, threads };
        memcpy(w->args, args, sizeof args);
        w->nargs = 3;
        w->names[0] = "x", w->names[1] = "y";
        w->addrs[0] = (uintptr_t)x, w->addrs[1] = (uintptr_t)y;
        w->nnames = 2;
        return true;
    }
    bool oob = strcmp(sc->name, "oob") == 0;
    w->bytes = (size_t)threads * 4;
    int32_t *out = ptx_alloc(&w->e, w->bytes);
    if (strcmp(sc->name, "spin") == 0) {
        int32_t *flag = ptx_alloc(&w->e, 4);   /* stays 0: the kernel spins */
        w->buf = (uint8_t *)out;
        w->args[0] = (uintptr_t)flag;
        w->args[1] = (uintptr_t)out;
        w->nargs = 2;
        w->names[0] = "flag";
        w->addrs[0] = (uintptr_t)flag;
        w->nnames = 1;
        return true;
    }
    for (uint32_t i = 0; i < threads; i++)
        out[i] = strcmp(sc->name, "shared") == 0 ? (int32_t)(i * 3) : -1;
    w->buf = (uint8_t *)out;
    w->args[0] = (uintptr_t)out;
    w->args[1] = threads;
    w->nargs = oob ? 2 : 1;
    w->names[0] = strcmp(sc->name, "shared") == 0 ? "data" : "out";
    w->addrs[0] = (uintptr_t)out;
    w->nnames = 1;
    return true;
}

/* One launch of the scenario's kernel, under the debugger when s is set. */
static ptx_status world_launch(world *w, const scenario *sc, dbg_session *s, exec_stats *stats,
                               exec_error *err)
{
    int k = exec_program_kernel(w->e.p, sc->kernel);
    const exec_kernel_info *ki = exec_program_kernel_info(w->e.p, k);
    uint8_t params[64] = { 0 };
    for (unsigned i = 0; i < w->nargs && i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, &w->args[i], ki->params[i].bytes < 8 ? ki->params[i].bytes : 8);
    exec_launch l = { .grid = { sc->grid, 1, 1 }, .block = { sc->block, 1, 1 }, .args = params, .nsm = 1,
                      .check_memory = sc->check_memory, .cooperative = sc->cooperative };
    memset(err, 0, sizeof *err);
    return s ? dbg_launch(s, w->e.p, k, &l, stats, err) : exec_launch_run(w->e.p, k, &l, stats, err);
}

/* Long hex numbers (device and host addresses) differ between runs. */
static void normalise(char *t)
{
    char *o = t;
    for (const char *p = t; *p;) {
        if (p[0] == '0' && p[1] == 'x') {
            size_t n = 0;
            while (isxdigit((unsigned char)p[2 + n]))
                n++;
            if (n >= 9) {
                memcpy(o, "0x<addr>", 8);
                o += 8;
                p += 2 + n;
                continue;
            }
        }
        *o++ = *p++;
    }
    *o = 0;
}

static void show_difference(const char *want, const char *got)
{
    unsigned line = 1;
    while (*want && *want == *got) {
        line += *want == '\n';
        want++;
        got++;
    }
    printf("  first difference at transcript line %u:\n  want: %.*s\n  got:  %.*s\n", line,
           (int)strcspn(want, "\n"), want, (int)strcspn(got, "\n"), got);
}

static void run_scenario(const char *srcdir, const char *bindir, const scenario *sc, bool update)
{
    world plain, dbg;
    if (!world_load(&plain, srcdir, sc) || !world_load(&dbg, srcdir, sc)) {
        CHECK(false, "%s: the PTX loads", sc->name);
        return;
    }
    char script[4096], expected[4096], actual[4096], spath[4096];
    snprintf(script, sizeof script, "%s/%s.cmd", srcdir, sc->name);
    snprintf(expected, sizeof expected, "%s/%s.expected", srcdir, sc->name);
    snprintf(actual, sizeof actual, "%s/%s.actual", bindir, sc->name);
    snprintf(spath, sizeof spath, "%s:%s/../../samples", srcdir, srcdir);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    dbg_options o = { .in = stdin, .out = out, .script = script, .batch = true, .source_path = spath };
    dbg_session *s = dbg_new(&o);
    CHECK(s != NULL, "%s: a session starts", sc->name);
    if (!s) {
        fclose(out);
        free(text);
        return;
    }
    for (unsigned i = 0; i < dbg.nnames; i++)
        dbg_set_var(s, dbg.names[i], dbg.addrs[i]);
    if (sc->early)
        dbg_start(s);
    exec_stats ps = { 0 }, ds = { 0 };
    exec_error pe, de;
    ptx_status pst = PTX_OK, dst = PTX_OK;
    for (unsigned i = 0; i < sc->launches; i++) {
        pst = world_launch(&plain, sc, NULL, &ps, &pe);
        dst = world_launch(&dbg, sc, s, &ds, &de);
        fprintf(out, "[test: launch %u returned %s]\n", i + 1, ptx_status_name(dst));
    }
    int code = 0;
    bool ended = dbg_exit_requested(s, &code);
    if (ended)
        fprintf(out, "[test: the program was ended in the debugger, exit status %d]\n", code);
    else
        fprintf(out, "[test: the program ran to its end]\n");
    dbg_free(s);
    fclose(out);
    normalise(text);

    CHECK(pst == sc->want, "%s: plain run returns %s, got %s", sc->name, ptx_status_name(sc->want),
          ptx_status_name(pst));
    if (!ended) {
        CHECK(dst == pst, "%s: debugged run returns %s, as the plain run (%s)", sc->name,
              ptx_status_name(dst), ptx_status_name(pst));
        CHECK(memcmp(plain.buf, dbg.buf, plain.bytes) == 0, "%s: debugged run leaves the same memory",
              sc->name);
        if (pst == PTX_OK) {
            CHECK_EQ_U64(ds.warp_insts, ps.warp_insts, "debugged warp-instructions");
            CHECK_EQ_U64(ds.thread_insts, ps.thread_insts, "debugged thread-instructions");
            CHECK_EQ_U64(ds.ctas, ps.ctas, "debugged CTAs");
        } else {
            CHECK(de.st == pe.st && de.pc == pe.pc && memcmp(de.tid, pe.tid, sizeof de.tid) == 0 &&
                      memcmp(de.ctaid, pe.ctaid, sizeof de.ctaid) == 0,
                  "%s: the same fault at the same place (%s / %s)", sc->name, de.msg, pe.msg);
        }
    } else {
        CHECK(dst == PTX_E_TRAP, "%s: a launch ended in the debugger returns PTX_E_TRAP", sc->name);
    }

    if (update) {
        FILE *f = fopen(expected, "w");
        CHECK(f != NULL, "%s: can write", expected);
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    } else {
        size_t want_len;
        char *want = ptx_read_file(expected, &want_len);
        bool same = want && strcmp(want, text) == 0;
        CHECK(same, "%s: transcript matches %s (this one: %s)", sc->name, expected, actual);
        if (!same) {
            FILE *f = fopen(actual, "w");
            if (f) {
                fputs(text, f);
                fclose(f);
            }
            if (want)
                show_difference(want, text);
        }
        free(want);
    }
    free(text);
    ptx_unload(&plain.e);
    ptx_unload(&dbg.e);
}

/* The session Ctrl-C interrupts, as the runtime keeps it. */
static dbg_session *interrupt_target;

static void on_sigint(int sig)
{
    /* Outside a launch Ctrl-C ends the program, as without the debugger. */
    if (!dbg_interrupt(interrupt_target)) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* Debug one scenario at the terminal; says PASS when the results are right. */
static int interactive(const char *srcdir, const char *name)
{
    const scenario *sc = strcmp(name, "spin") == 0 ? &spin : NULL;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (strcmp(scenarios[i].name, name) == 0)
            sc = &scenarios[i];
    if (!sc) {
        printf("no scenario %s\n", name);
        return 2;
    }
    world w, ref;
    if (!world_load(&w, srcdir, sc) || !world_load(&ref, srcdir, sc))
        return 2;
    char spath[4096];
    snprintf(spath, sizeof spath, "%s:%s/../../samples", srcdir, srcdir);
    dbg_options o = { .source_path = spath };
    dbg_session *s = dbg_new(&o);
    if (!s)
        return 2;
    interrupt_target = s;
    signal(SIGINT, on_sigint);
    for (unsigned i = 0; i < w.nnames; i++)
        dbg_set_var(s, w.names[i], w.addrs[i]);
    ptx_status st = PTX_OK, want = PTX_OK;
    for (unsigned i = 0; i < sc->launches; i++) {
        exec_stats stats = { 0 };
        exec_error err;
        if (sc != &spin)               /* the reference run would never end */
            want = world_launch(&ref, sc, NULL, &stats, &err);
        st = world_launch(&w, sc, s, &stats, &err);
    }
    int code = 0;
    bool ended = dbg_exit_requested(s, &code);
    signal(SIGINT, SIG_DFL);
    interrupt_target = NULL;
    dbg_free(s);
    bool pass = !ended && st == want && memcmp(w.buf, ref.buf, w.bytes) == 0;
    printf("%s %s\n", ended ? "ENDED" : pass ? "PASS" : "FAIL", sc->name);
    ptx_unload(&w.e);
    ptx_unload(&ref.e);
    return ended ? code : pass ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[2], "--interactive") == 0)
        return interactive(argv[1], argv[3]);
    if (argc < 3) {
        printf("usage: dbg_test SRCDIR BINDIR [--update] | dbg_test SRCDIR --interactive NAME\n");
        return 2;
    }
    bool update = argc > 3 && strcmp(argv[3], "--update") == 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        run_scenario(argv[1], argv[2], &scenarios[i], update);
    return check_summary();
}

/*
 * ptxsim_main.c -- the `ptxsim` command.
 *
 *   ptxsim run [options] -- PROGRAM ARGS...   run a CUDA program under ptxsim
 *   ptxsim ptx [--print] FILE...              check PTX (or the PTX in a program
 *                                             or fat binary), list its kernels
 *   ptxsim info [options]                     describe the simulated device
 *
 * `run` checks the program first, so a program ptxsim cannot run gets one
 * clear sentence saying why and what to do, then execs it with the shims'
 * directory (libcudart.so.13 and libcuda.so.1) first on LD_LIBRARY_PATH.
 * Every option is also a PTXSIM_* environment variable, which is how it
 * reaches the shims in the program.
 */
#define _GNU_SOURCE
#include "elf_check.h"
#include "exec.h"
#include "frontend.h"
#include "rt_int.h"
#include "timing.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *prog_name = "ptxsim";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim run [options] -- PROGRAM [ARGS...]   run a CUDA program\n"
            "       ptxsim ptx [--print] FILE...              check PTX, list kernels\n"
            "       ptxsim info [options]                     describe the simulated device\n"
            "       ptxsim debug [options] -- PROGRAM [ARGS...] debug its kernels (breakpoints, stepping)\n"
            "       ptxsim configs [NAME]                     list timing presets, or show one\n"
            "       ptxsim configs --from-gpgpusim FILE       translate a GPGPU-Sim gpgpusim.config\n"
            "       ptxsim plot STATS.json OUT.png            picture of a timing run's time series\n"
            "       ptxsim sweep SPEC [--local|--slurm]       run a study's cells, resumably\n"
            "       ptxsim sweep --collect DIR                tables and a plot of a sweep's statistics\n"
            "       ptxsim --version                          version, commit and build\n"
            "\n"
            "ptxsim COMMAND --help describes each command and its options.\n");
}

/* The device options `run` and `info` share, with their variables. */
static const char device_options[] =
    "  --sm N              compute capability to simulate and pick PTX for, e.g. 90\n"
    "                      (PTXSIM_SM; default 90)\n"
    "  --nsm N             streaming multiprocessors (PTXSIM_NSM; default 132)\n"
    "  --memory BYTES      device memory, e.g. 80G (PTXSIM_MEMORY; default 80G)\n";

static void usage_run(FILE *out)
{
    fprintf(out,
            "usage: ptxsim run [options] -- PROGRAM [ARGS...]\n"
            "\n"
            "Runs a CUDA program built by nvcc or clang with PTX in its fat binary, on\n"
            "ptxsim's libcudart.so.13 and libcuda.so.1 (NVIDIA's static runtime, nvcc's\n"
            "default, runs on ptxsim's libcuda.so.1).  Each option is also an environment\n"
            "variable, for programs started by scripts:\n"
            "\n"
            "  --quiet             no per-kernel summary on stderr, and no status line of a\n"
            "                      long launch on a terminal (PTXSIM_QUIET=1)\n"
            "  --stats FILE        one JSON record per launch in FILE (PTXSIM_STATS)\n"
            "  --stats-format F    json (default), or gpgpusim: in timing mode, also write\n"
            "                      each launch's statistics to stdout as GPGPU-Sim's log\n"
            "                      does, for its scraping scripts (PTXSIM_STATS_FORMAT)\n"
            "  --threads N         host threads that run a launch's blocks side by side\n"
            "                      (PTXSIM_THREADS; default: this machine's cores); results\n"
            "                      are one thread's unless floating-point atomics or atomics'\n"
            "                      returned values make the order matter (README).  Timing\n"
            "                      mode, the debugger, --check race, cooperative launches and\n"
            "                      kernels that call malloc, free or assert use one thread\n"
            "                      (printf's output is kept in launch order)\n"
            "  --engine E          functional mode: jit (the default: hot functions compiled\n"
            "                      through LLVM in the background) or interp (the interpreter\n"
            "                      only) (PTXSIM_ENGINE)\n"
            "  --verbose           say what each compile of the compiled tier made of each\n"
            "                      function: its level, its instructions, and which it left\n"
            "                      to the interpreter and why (PTXSIM_VERBOSE=1)\n"
            "  --max-insts N       report a kernel as hung after N warp-instructions\n"
            "                      (PTXSIM_MAX_INSTS)\n"
            "  --sync              run each kernel inside its launch call, so the host waits\n"
            "                      for it there (PTXSIM_SYNC=1).  Else a launch returns at\n"
            "                      once and one device thread runs the work queued, in the\n"
            "                      order it was issued, while the program goes on\n"
            "  --lockstep          run a warp's lanes in lockstep only, as GPUs before Volta\n"
            "                      do: lanes that wait to reconverge never run ahead, so a\n"
            "                      spin lock held within a warp is reported as a livelock\n"
            "                      (PTXSIM_LOCKSTEP=1; the default below --sm 70).  Else\n"
            "                      lanes a looping warp holds back get their turn, as\n"
            "                      independent thread scheduling gives it\n"
            "  --check memory      every global access must lie inside a live allocation;\n"
            "                      one that does not stops the kernel with its address and\n"
            "                      what it missed (a freed block is named); device memory\n"
            "                      still allocated at exit is listed (PTXSIM_CHECK)\n"
            "  --check race        report shared-memory hazards between threads of a block\n"
            "                      with no barrier between them, as warnings; the run then\n"
            "                      exits 1 (--check memory,race: both)\n"
            "  --check race-global the same for shared and global memory: global hazards\n"
            "                      between threads of a launch, including other blocks', that\n"
            "                      no barrier, atomic or fence orders (docs/checking.md)\n"
            "  --mode MODE         functional (default) or timing: run every launch in the\n"
            "                      cycle-level model and report its cycles (PTXSIM_MODE)\n"
            "  --config NAME       timing: the machine, a preset from `ptxsim configs` or a\n"
            "                      file, ptxsim's or GPGPU-Sim's gpgpusim.config (PTXSIM_CONFIG;\n"
            "                      default gtx480)\n"
            "  --set K=V[,K=V]     timing: override parameters; may be repeated (PTXSIM_SET)\n"
            "  --trace FILE        timing: a Chrome-trace / Perfetto timeline of CTAs on SMs\n"
            "                      (PTXSIM_TRACE)\n"
            "%s"
            "\n"
            "Python stacks run too (python script.py as PROGRAM): ptxsim's libnvJitLink.so.13\n"
            "keeps Numba's and cuda.core's linked PTX as PTX, and CUPY_COMPILE_WITH_PTX=1 is\n"
            "set, unless already set, so that CuPy hands its kernels to the driver as PTX.\n",
            device_options);
}

static void usage_debug(FILE *out)
{
    fprintf(out,
            "usage: ptxsim debug [options] [run options] -- PROGRAM [ARGS...]\n"
            "\n"
            "Runs PROGRAM as `ptxsim run` does, with every kernel launch under a cuda-gdb-like\n"
            "prompt: breakpoints on kernels, functions, CUDA and PTX lines; stepping a warp;\n"
            "registers, predicates, memory, variables of -G builds and the SIMT stack.  `help`\n"
            "at the prompt lists the commands (see docs/debugger.md).\n"
            "\n"
            "  -x FILE             run the commands in FILE first (PTXSIM_DEBUG_SCRIPT)\n"
            "  --batch             do not read the terminal; the end of the script ends the\n"
            "                      program (PTXSIM_DEBUG_BATCH=1)\n"
            "  --source-path DIRS  ':'-separated folders where CUDA sources are found by name\n"
            "                      (PTXSIM_SOURCE_PATH)\n");
}

static void usage_ptx(FILE *out)
{
    fprintf(out,
            "usage: ptxsim ptx [--print] FILE...\n"
            "\n"
            "Checks PTX files, or the PTX inside a program or fat binary: reports every error\n"
            "with file:line:col and lists each kernel with its parameters and resource use.\n"
            "\n"
            "  --print             write the PTX back out as ptxsim understood it (before the\n"
            "                      multiply-add contraction ptxas also makes, which runs add\n"
            "                      and sub of a product as fma; PTXSIM_FMAD=0 turns it off)\n");
}

static void usage_info(FILE *out)
{
    fprintf(out,
            "usage: ptxsim info [options]\n"
            "\n"
            "Describes the simulated device as programs see it (cudaGetDeviceProperties).\n"
            "\n"
            "%s",
            device_options);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}


/* PROGRAM as execvp would find it. */
static bool find_program(const char *name, char *out, size_t n)
{
    if (strchr(name, '/')) {
        snprintf(out, n, "%s", name);
        return access(out, F_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", name);
        if (access(out, X_OK) == 0)
            return true;
        path += len + (end ? 1 : 0);
    }
    return false;
}

static bool has_ptx(void *ctx, const fe_fatbin_entry *e)
{
    bool *ptx = ctx;
    *ptx = *ptx || e->kind == FE_ENTRY_PTX;
    return !*ptx;
}

/* Whether an entry has code: nvcc links a program without kernels of its
 * own (a driver API program, built from .cpp) with an empty cubin. */
static bool has_code(void *ctx, const fe_fatbin_entry *e)
{
    bool *code = ctx;
    if (e->kind != FE_ENTRY_CUBIN) {
        *code = true;
    } else {
        char *elf = NULL;
        size_t len = 0;
        ptx_diag d = {0};
        *code = fe_fatbin_payload(e, &elf, &len, &d) != PTX_OK || fe_cubin_has_code((const uint8_t *)elf, len);
        free(elf);
    }
    return !*code;
}

/* Returns 0 if the program looks runnable under ptxsim, else prints why. */
static int preflight(const char *program)
{
    char path[PATH_MAX];
    if (!find_program(program, path, sizeof path))
        return fail("cannot find program '%s'", program);
    size_t n;
    uint8_t *img = (uint8_t *)ptx_read_file(path, &n);
    if (!img)
        return fail("cannot read '%s': %s", path, strerror(errno));
    elf_info info;
    const char *why = NULL;
    int rc = 0;
    if (!elf_inspect(img, n, &info, &why)) {
        rc = fail("'%s' is a corrupt ELF file: %s", path, why);
    } else if (!info.is_elf) {
        if (n < 2 || img[0] != '#' || img[1] != '!')
            rc = fail("'%s' is neither an executable program nor a script; ptxsim runs CUDA "
                      "programs built with nvcc or clang", path);
    } else if (info.fatbin) {
        /* Either runtime works: the shared one is replaced by ptxsim's
         * libcudart.so.13, and the static one (nvcc's default) reaches the
         * driver through ptxsim's libcuda.so.1. */
        bool ptx = false;
        ptx_diag d = {0};
        ptx_status st = fe_fatbin_walk(info.fatbin, info.fatbin_bytes, has_ptx, &ptx, &d);
        /* -rdc=true: the device-linked fat binary holds machine code
         * only; the translation units' own hold the PTX. */
        if (!ptx && info.relfatbin) {
            ptx_diag rd = {0};
            if (fe_fatbin_walk(info.relfatbin, info.relfatbin_bytes, has_ptx, &ptx, &rd) != PTX_OK && !ptx) {
                st = PTX_E_BAD_FATBIN;
                d = rd;
            }
        }
        /* (A program without kernels of its own -- a driver API program
         * loading its PTX at run time, linked to libcudart as nvcc links
         * every program -- runs.) */
        bool code = false;      /* (looked at only when there is no PTX: decompresses cubins) */
        if (st != PTX_OK && !ptx)
            rc = fail("'%s' has a corrupt fat binary: %s", path, d.msg);
        else if (!ptx && fe_fatbin_walk(info.fatbin, info.fatbin_bytes, has_code, &code, &d) == PTX_OK && code)
            rc = fail("'%s' carries no PTX in its fat binary, and ptxsim runs PTX: rebuild it with "
                      "PTX included (clang: --cuda-include-ptx=sm_75; nvcc: "
                      "-gencode arch=compute_75,code=compute_75 or -arch=sm_75)", path);
    }
    free(img);
    return rc;
}

/* The folder this executable is in (no trailing '/'). */
static bool self_dir(char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return false;
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return (size_t)snprintf(out, n, "%s", self) < n;
}

/* The directory holding libcudart.so.13 and libcuda.so.1: lib/ptxsim
 * beside this executable's bin/ when installed (`cmake --install`, the
 * .deb), lib/ in a build tree. */
static bool shim_dir(char *out, size_t n)
{
    const char *env = getenv("PTXSIM_LIB_DIR");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return true;
    }
    char bin[PATH_MAX];
    if (!self_dir(bin, sizeof bin))
        return false;
    static const char *const beside[] = { "../lib/ptxsim", "../lib" };
    for (size_t k = 0; k < sizeof beside / sizeof beside[0]; k++) {
        if ((size_t)snprintf(out, n, "%s/%s", bin, beside[k]) >= n)
            return false;
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s/libcudart.so.13", out);
        if (access(probe, R_OK) != 0)
            continue;
        snprintf(probe, sizeof probe, "%s/libcuda.so.1", out);
        if (access(probe, R_OK) == 0)
            return true;
    }
    return false;
}

/* --sm, --nsm, --memory: set the variable and step over the value. */
static bool device_option(int argc, char **argv, int *i)
{
    static const char *const opts[][2] = {
        { "--sm", "PTXSIM_SM" }, { "--nsm", "PTXSIM_NSM" }, { "--memory", "PTXSIM_MEMORY" },
    };
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
        if (strcmp(argv[*i], opts[k][0]) == 0 && *i + 1 < argc) {
            setenv(opts[k][1], argv[++*i], 1);
            return true;
        }
    return false;
}

static int cmd_info(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage_info(stdout);
            return 0;
        }
        if (!device_option(argc, argv, &i))
            return fail("unknown option '%s' (see ptxsim info --help)", argv[i]);
    }
    unsetenv("PTXSIM_STATS");          /* describing the device launches nothing */
    struct cudaDeviceProp p;
    rt_device_props(&p);
    const rt_device *d = rt_device_get();
    printf("device 0: %s\n", p.name);
    printf("  compute capability        %d.%d (PTXSIM_SM)\n", p.major, p.minor);
    printf("  streaming multiprocessors %d\n", p.multiProcessorCount);
    printf("  device memory             %.1f GiB (%zu bytes)\n", (double)p.totalGlobalMem / (1 << 30),
           p.totalGlobalMem);
    printf("  warp size                 %d\n", p.warpSize);
    printf("  threads per block         %d (block %d x %d x %d, grid %d x %d x %d)\n",
           p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
           p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("  threads per SM            %d (%d blocks)\n", p.maxThreadsPerMultiProcessor,
           p.maxBlocksPerMultiProcessor);
    printf("  registers                 %d per SM, %d per block, %d per thread\n",
           p.regsPerMultiprocessor, p.regsPerBlock, d->max_regs_thread);
    printf("  shared memory             %zu KB per SM, %zu KB per block (%zu KB opt-in), "
           "%zu B reserved per block\n",
           p.sharedMemPerMultiprocessor >> 10, p.sharedMemPerBlock >> 10, p.sharedMemPerBlockOptin >> 10,
           p.reservedSharedMemPerBlock);
    printf("  constant memory           %zu KB\n", p.totalConstMem >> 10);
    printf("  L2 cache                  %d MB\n", p.l2CacheSize >> 20);
    printf("  clocks                    %d MHz core, %d MHz memory, %d-bit bus\n", d->clock_khz / 1000,
           d->mem_clock_khz / 1000, p.memoryBusWidth);
    printf("  stream priorities         %d (least) to %d (greatest)\n", d->stream_prio_least,
           d->stream_prio_greatest);
    printf("  execution                 functional: every operation completes in issue order\n");
    return 0;
}

/* With the race check on, the program runs as a child so that hazards can
 * fail the run: the runtime writes its count to a pipe at exit
 * (PTXSIM_RACE_FD), and a program that otherwise succeeded exits 1.  A
 * program that failed keeps its own status. */
static int run_race_checked(char **argv)
{
    int fds[2];
    if (pipe(fds) != 0)
        return fail("cannot create a pipe: %s", strerror(errno));
    char fd[16];
    snprintf(fd, sizeof fd, "%d", fds[1]);
    setenv("PTXSIM_RACE_FD", fd, 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return fail("cannot start '%s': %s", argv[0], strerror(errno));
    if (pid == 0) {
        close(fds[0]);
        execvp(argv[0], argv);
        fprintf(stderr, "ptxsim: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    /* Ctrl-C reaches the program, which decides; this process waits. */
    signal(SIGINT, SIG_IGN);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    /* The count (a few bytes) is in the pipe by now; a child the program
     * left running could hold the pipe open, so never wait for its end. */
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    char buf[32] = "";
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    close(fds[0]);
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    return rc == 0 && strtoull(buf, NULL, 10) > 0 ? 1 : rc;
}

static int cmd_run(int argc, char **argv)
{
    bool race = false;
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage_run(stdout);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            setenv("PTXSIM_QUIET", "1", 1);
        } else if (strcmp(a, "--mode") == 0 && i + 1 < argc) {
            const char *mode = argv[++i];
            if (strcmp(mode, "functional") != 0 && strcmp(mode, "timing") != 0)
                return fail("--mode %s: expected functional or timing", mode);
            setenv("PTXSIM_MODE", mode, 1);
        } else if (strcmp(a, "--config") == 0 && i + 1 < argc) {
            setenv("PTXSIM_CONFIG", argv[++i], 1);
        } else if (strcmp(a, "--set") == 0 && i + 1 < argc) {
            const char *old = getenv("PTXSIM_SET");
            char *all;
            if (asprintf(&all, "%s%s%s", old && *old ? old : "", old && *old ? "," : "", argv[++i]) < 0)
                return fail("out of memory");
            setenv("PTXSIM_SET", all, 1);
            free(all);
        } else if (strcmp(a, "--trace") == 0 && i + 1 < argc) {
            setenv("PTXSIM_TRACE", argv[++i], 1);
        } else if (strcmp(a, "--check") == 0 && i + 1 < argc) {
            const char *what = argv[++i];
            bool memory;
            if (!rt_check_parse(what, &memory, &race, NULL))
                return fail("--check %s: expected memory, race, race-global, a list of them "
                            "(memory,race) or none", what);
            setenv("PTXSIM_CHECK", what, 1);
        } else if (strcmp(a, "--threads") == 0 && i + 1 < argc) {
            const char *n = argv[++i];
            char *end;
            unsigned long v = strtoul(n, &end, 10);
            if (!*n || *end || v == 0 || v > 1024)
                return fail("--threads %s: expected 1 to 1024 host threads", n);
            setenv("PTXSIM_THREADS", n, 1);
        } else if (strcmp(a, "--engine") == 0 && i + 1 < argc) {
            const char *engine = argv[++i];
            if (strcmp(engine, "interp") != 0 && strcmp(engine, "jit") != 0)
                return fail("--engine %s: expected interp or jit", engine);
            setenv("PTXSIM_ENGINE", engine, 1);
        } else if (strcmp(a, "--verbose") == 0) {
            setenv("PTXSIM_VERBOSE", "1", 1);
        } else if (strcmp(a, "--lockstep") == 0) {
            setenv("PTXSIM_LOCKSTEP", "1", 1);
        } else if (strcmp(a, "--sync") == 0) {
            setenv("PTXSIM_SYNC", "1", 1);
        } else if (strcmp(a, "--max-insts") == 0 && i + 1 < argc) {
            setenv("PTXSIM_MAX_INSTS", argv[++i], 1);
        } else if (strcmp(a, "--stats") == 0 && i + 1 < argc) {
            setenv("PTXSIM_STATS", argv[++i], 1);
        } else if (strcmp(a, "--stats-format") == 0 && i + 1 < argc) {
            const char *format = argv[++i];
            if (strcmp(format, "json") != 0 && strcmp(format, "gpgpusim") != 0)
                return fail("--stats-format %s: expected json or gpgpusim", format);
            setenv("PTXSIM_STATS_FORMAT", format, 1);
        } else if (device_option(argc, argv, &i)) {
            continue;
        } else if (a[0] == '-') {
            return fail("unknown option '%s' (see ptxsim run --help)", a);
        } else {
            break;                      /* the program, without a "--" */
        }
    }
    if (i >= argc)
        return fail("no program to run: ptxsim run [options] -- PROGRAM [ARGS...]");
    /* A bad timing configuration is reported before the program starts. */
    const char *mode = getenv("PTXSIM_MODE");
    const char *format = getenv("PTXSIM_STATS_FORMAT");
    if (format && strcmp(format, "gpgpusim") == 0 && !(mode && strcmp(mode, "timing") == 0))
        return fail("--stats-format gpgpusim reports the timing model's statistics: add --mode timing");
    if (mode && strcmp(mode, "timing") == 0) {
        const char *name = getenv("PTXSIM_CONFIG");
        tm_config c;
        if (!rt_timing_config(name && *name ? name : "gtx480", getenv("PTXSIM_SET"), stderr, &c))
            return 2;
        setenv("PTXSIM_CONFIG_NOTED", "1", 1);     /* listed here; the program's runtime needs not */
    }
    int rc = preflight(argv[i]);
    if (rc)
        return rc;
    char dir[PATH_MAX];
    if (!shim_dir(dir, sizeof dir))
        return fail("cannot find libcudart.so.13 and libcuda.so.1 in ../lib next to the ptxsim command "
                    "(set PTXSIM_LIB_DIR)");
    const char *old = getenv("LD_LIBRARY_PATH");
    char *lp;
    if (asprintf(&lp, "%s%s%s", dir, old && *old ? ":" : "", old ? old : "") < 0)
        return fail("out of memory");
    setenv("LD_LIBRARY_PATH", lp, 1);
    free(lp);
    /* CuPy compiles its kernels with NVRTC to a cubin for the device's
     * architecture, machine code ptxsim cannot run; its documented switch
     * makes it compile to PTX and load that instead.  Harmless to programs
     * that are not CuPy; a value the user set is kept. */
    setenv("CUPY_COMPILE_WITH_PTX", "1", 0);
    /* A program linked to NVRTC that asks it for a cubin gets its PTX
     * (nvrtc_cubin.c); preloaded after what the user preloads (a sanitizer
     * runtime must come first). */
    char nvrtc[PATH_MAX + 32];
    snprintf(nvrtc, sizeof nvrtc, "%s/libptxsim_nvrtc.so", dir);
    if (access(nvrtc, R_OK) == 0) {
        const char *pre = getenv("LD_PRELOAD");
        char *all;
        if (asprintf(&all, "%s%s%s", pre && *pre ? pre : "", pre && *pre ? ":" : "", nvrtc) < 0)
            return fail("out of memory");
        setenv("LD_PRELOAD", all, 1);
        free(all);
    }
    const char *check = getenv("PTXSIM_CHECK");
    bool memory;
    if (!race && check && *check)
        rt_check_parse(check, &memory, &race, NULL);
    if (race)
        return run_race_checked(argv + i);
    execvp(argv[i], argv + i);
    return fail("cannot run '%s': %s", argv[i], strerror(errno));
}

/* ---- ptxsim ptx ------------------------------------------------------------ */

static void print_error(void *ctx, const ptx_diag *d)
{
    (void)ctx;
    fprintf(stderr, "%s:%u:%u: %s\n", d->file ? d->file : "<ptx>", d->line, d->col, d->msg);
}

static void list_kernels(const isa_module *m, const char *name)
{
    exec_memory *mem = exec_memory_new(1ull << 30);
    exec_program *p = NULL;
    ptx_diag d = { .sink = print_error };
    if (!mem || exec_program_load(mem, m, &p, &d) != PTX_OK) {
        fprintf(stderr, "%s: cannot lay the module out: %s\n", name, d.msg);
        exec_memory_free(mem);
        return;
    }
    uint64_t const_bytes = 0;
    for (uint32_t v = 0; v < m->nvars; v++)
        if (m->vars[v].space == ISA_SPACE_CONST && m->vars[v].func < 0)
            const_bytes += m->vars[v].size;
    for (int k = 0; exec_program_kernel_info(p, k); k++) {
        const exec_kernel_info *ki = exec_program_kernel_info(p, k);
        printf("%s: kernel %s(", name, ki->name);
        for (uint32_t i = 0; i < ki->nparams; i++)
            printf("%s%u bytes", i ? ", " : "", ki->params[i].bytes);
        printf(")\n    registers %u, shared %u bytes, local %u bytes per thread, constant %llu bytes\n",
               ki->regs, ki->static_shared, ki->local_bytes, (unsigned long long)const_bytes);
    }
    exec_program_free(p);
    exec_memory_free(mem);
}

static int check_ptx_text(const char *text, size_t len, const char *name, bool print)
{
    ptx_diag d = { .sink = print_error };
    isa_module *m = fe_parse(text, len, name, &d);
    if (!m) {
        fprintf(stderr, "%s: %u error%s\n", name, d.count, d.count == 1 ? "" : "s");
        return 1;
    }
    if (print)
        fe_print(stdout, m);
    else
        list_kernels(m, name);
    isa_module_free(m);
    return 0;
}

typedef struct { const char *name; bool print; int rc; unsigned n; } ptx_walk;

static bool check_entry(void *ctx, const fe_fatbin_entry *e)
{
    ptx_walk *w = ctx;
    if (e->kind != FE_ENTRY_PTX)
        return true;
    ptx_diag d = {0};
    char *text;
    size_t len;
    char label[512];
    snprintf(label, sizeof label, "%s[ptx %u, sm_%u]", w->name, w->n++, e->sm);
    if (fe_fatbin_payload(e, &text, &len, &d) != PTX_OK) {
        fprintf(stderr, "%s: %s\n", label, d.msg);
        w->rc = 1;
        return true;
    }
    w->rc |= check_ptx_text(text, len, label, w->print);
    free(text);
    return true;
}

static int check_fatbin(const uint8_t *data, size_t n, const char *name, bool print)
{
    ptx_walk w = { name, print, 0, 0 };
    ptx_diag d = {0};
    if (fe_fatbin_walk(data, n, check_entry, &w, &d) != PTX_OK) {
        fprintf(stderr, "%s: %s\n", name, d.msg);
        return 1;
    }
    if (w.n == 0) {
        fprintf(stderr, "%s: the fat binary holds no PTX\n", name);
        return 1;
    }
    return w.rc;
}

/* -rdc=true: the translation units' fat binaries lie end to end in
 * __nv_relfatbin; their PTX is linked as the runtime links it (the newest
 * PTX of each), then checked as one module. */
static int check_linked(const uint8_t *data, size_t n, const char *name, bool print)
{
    const uint8_t **units = NULL;
    size_t *sizes = NULL;
    char **names = NULL;
    unsigned count = 0, cap = 0;
    int rc = 1;
    ptx_diag d = { .sink = print_error };
    for (size_t off = 0;;) {
        while (off < n && data[off] == 0)       /* 8-byte alignment padding */
            off++;
        if (off >= n)
            break;
        size_t bytes;
        if (fe_fatbin_size(data + off, n - off, &bytes, &d) != PTX_OK)
            goto done;
        if (count == cap) {
            cap = cap ? cap * 2 : 8;
            const uint8_t **u = realloc(units, cap * sizeof *u);
            size_t *sz = u ? realloc(sizes, cap * sizeof *sz) : NULL;
            char **nm = sz ? realloc(names, cap * sizeof *nm) : NULL;
            units = u ? u : units;
            sizes = sz ? sz : sizes;
            names = nm ? nm : names;
            if (!nm) {
                fprintf(stderr, "%s: out of memory\n", name);
                goto done;
            }
        }
        units[count] = data + off;
        sizes[count] = bytes;
        if (asprintf(&names[count], "%s[unit %u]", name, count + 1) < 0) {
            fprintf(stderr, "%s: out of memory\n", name);
            goto done;
        }
        count++;
        off += bytes;
    }
    isa_module *m = fe_link_fatbins(units, sizes, (const char *const *)names, count, UINT32_MAX, name, &d);
    if (m) {
        if (print)
            fe_print(stdout, m);
        else
            list_kernels(m, name);
        isa_module_free(m);
        rc = 0;
    } else {
        fprintf(stderr, "%s: %u error%s in its %u linked translation units\n", name, d.count,
                d.count == 1 ? "" : "s", count);
    }
done:
    for (unsigned i = 0; i < count; i++)
        free(names[i]);
    free(names);
    free(units);
    free(sizes);
    return rc;
}

static int cmd_ptx(int argc, char **argv)
{
    bool print = false;
    int rc = 0, files = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--print") == 0) {
            /* The PTX as written: contraction (frontend/contract.c) makes
             * fma sources that PTX cannot spell (a negated register). */
            print = true;
            setenv("PTXSIM_FMAD", "0", 1);
            continue;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage_ptx(stdout);
            return 0;
        }
        files++;
        size_t n;
        uint8_t *img = (uint8_t *)ptx_read_file(argv[i], &n);
        if (!img) {
            rc |= fail("cannot read '%s': %s", argv[i], strerror(errno));
            continue;
        }
        elf_info info;
        const char *why = NULL;
        if (!elf_inspect(img, n, &info, &why)) {
            rc |= fail("'%s' is a corrupt ELF file: %s", argv[i], why);
        } else if (info.is_elf) {
            if (info.relfatbin)
                rc |= check_linked(info.relfatbin, info.relfatbin_bytes, argv[i], print);
            else if (!info.fatbin)
                rc |= fail("'%s' holds no CUDA fat binary (.nv_fatbin section)", argv[i]);
            else
                rc |= check_fatbin(info.fatbin, info.fatbin_bytes, argv[i], print);
        } else if (n >= 4 && img[0] == 0x50 && img[1] == 0xED && img[2] == 0x55 && img[3] == 0xBA) {
            rc |= check_fatbin(img, n, argv[i], print);
        } else if (!fe_is_ptx_text((const char *)img, n, &n)) {
            rc |= fail("'%s' is neither PTX text, a fat binary nor a program", argv[i]);
        } else {
            rc |= check_ptx_text((const char *)img, n, argv[i], print);
        }
        free(img);
    }
    if (!files)
        return fail("no files: ptxsim ptx [--print] FILE...");
    return rc;
}

/* `ptxsim debug`: its own options, then those of `run`. */
static int cmd_debug(int argc, char **argv)
{
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage_debug(stdout);
            return 0;
        }
        if (strcmp(a, "-x") == 0 && i + 1 < argc)
            setenv("PTXSIM_DEBUG_SCRIPT", argv[++i], 1);
        else if (strcmp(a, "--batch") == 0)
            setenv("PTXSIM_DEBUG_BATCH", "1", 1);
        else if (strcmp(a, "--source-path") == 0 && i + 1 < argc)
            setenv("PTXSIM_SOURCE_PATH", argv[++i], 1);
        else
            break;
    }
    const char *mode = getenv("PTXSIM_MODE");
    for (int k = i; k + 1 < argc && strcmp(argv[k], "--") != 0; k++)
        if (strcmp(argv[k], "--mode") == 0)
            mode = argv[k + 1];
    if (mode && strcmp(mode, "timing") == 0)
        return fail("debug: the debugger runs kernels functionally; leave out --mode timing");
    setenv("PTXSIM_DEBUG", "1", 1);
    return cmd_run(argc - i, argv + i);
}

/* Whether `python` runs and can import the modules in `imports` (a Python
 * import statement). */
static bool python_has(const char *python, const char *imports)
{
    char *args[] = { (char *)python, (char *)"-c", (char *)imports, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int status = 1;
    bool ok = posix_spawnp(&pid, python, &fa, NULL, args, environ) == 0 && waitpid(pid, &status, 0) == pid &&
              WIFEXITED(status) && WEXITSTATUS(status) == 0;
    posix_spawn_file_actions_destroy(&fa);
    return ok;
}

/* The Python to run a script with: the first of PTXSIM_PYTHON, the python3
 * on PATH and Debian's /usr/bin/python3 that can import `need` and
 * `want`, else the first that can import `need` (python3 when none can,
 * which then says what is missing).  A python3 earlier on PATH (pyenv, a
 * venv) may not see the Debian packages setup.sh installs. */
static const char *pick_python(const char *need, const char *want)
{
    const char *env = getenv("PTXSIM_PYTHON");
    const char *candidates[] = { env && *env ? env : "python3", "python3", "/usr/bin/python3" };
    enum { N = sizeof candidates / sizeof *candidates };
    char both[256];
    snprintf(both, sizeof both, "%s%s%s", need, *need && *want ? "; " : "", want);
    for (size_t i = 0; i < N; i++)
        if (python_has(candidates[i], both))
            return candidates[i];
    for (size_t i = 0; *need && i < N; i++)
        if (python_has(candidates[i], need))
            return candidates[i];
    return "python3";
}

/* A script of ours: the environment variable `var`, else share/ptxsim/rel
 * beside an installed command, else `source` in the tree this was built
 * from. */
static const char *find_script(const char *var, const char *rel, const char *source, char *buf, size_t n)
{
    const char *script = getenv(var);
    char bin[PATH_MAX];
    if ((!script || !*script) && self_dir(bin, sizeof bin)) {
        snprintf(buf, n, "%s/../share/ptxsim/%s", bin, rel);
        if (access(buf, R_OK) == 0)
            script = buf;
    }
    return script && *script ? script : source;
}

/* Exec `python script extra argv...`. */
static int exec_script(const char *what, const char *python, const char *script, const char *const *extra,
                       int nextra, int argc, char **argv)
{
    char **args = calloc((size_t)argc + (size_t)nextra + 3, sizeof *args);
    if (!args)
        return fail("out of memory");
    int k = 0;
    args[k++] = (char *)python;
    args[k++] = (char *)script;
    for (int i = 0; i < nextra; i++)
        args[k++] = (char *)extra[i];
    for (int i = 0; i < argc; i++)
        args[k++] = argv[i];
    execvp(python, args);
    return fail("%s: cannot run %s %s: %s", what, python, script, strerror(errno));
}

/* `ptxsim plot`: the time series of a timing run's statistics as a picture,
 * drawn by a Python script with matplotlib (experiments/plot_timeseries.py).
 * The interpreter is the first of PTXSIM_PYTHON, the python3 on PATH and
 * Debian's /usr/bin/python3 that has matplotlib: a python3 earlier on PATH
 * (pyenv, a venv) may not see the Debian package setup.sh installs. */
static int cmd_plot(int argc, char **argv)
{
    char buf[PATH_MAX + 64];
    const char *script = find_script("PTXSIM_PLOT_SCRIPT", "plot_timeseries.py", PTXSIM_PLOT_SCRIPT, buf,
                                     sizeof buf);
    return exec_script("plot", pick_python("", "import matplotlib"), script, NULL, 0, argc, argv);
}

/* `ptxsim sweep`: a study's cells run locally or as a Slurm job array, and
 * their statistics collected (experiments/sweep/sweep.py, which needs
 * Python 3.11's tomllib, and matplotlib for its plot).  The script is told
 * this command's path, which every cell runs. */
static int cmd_sweep(int argc, char **argv)
{
    char buf[PATH_MAX + 64], self[PATH_MAX];
    const char *script = find_script("PTXSIM_SWEEP_SCRIPT", "sweep/sweep.py", PTXSIM_SWEEP_SCRIPT, buf, sizeof buf);
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return fail("sweep: cannot find this command's path: %s", strerror(errno));
    self[len] = '\0';
    const char *extra[] = { "--ptxsim", self };
    return exec_script("sweep", pick_python("import tomllib", "import matplotlib"), script, extra, 2, argc, argv);
}

/* `ptxsim configs`: the presets with the first line of each file's
 * comment; `ptxsim configs NAME [--set K=V]`: every parameter's value;
 * `ptxsim configs --from-gpgpusim FILE`: a GPGPU-Sim gpgpusim.config
 * translated, as a file --config reads back. */
/* The presets' names in dir (malloc'd; sorted), at most max. */
static int preset_names(const char *dir, char **names, int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < max;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".cfg") == 0)
            names[n++] = strndup(e->d_name, len - 4);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

/* `ptxsim configs --reference`: every parameter with its range, meaning
 * and value in every preset, as Markdown.  docs/parameters.md is this
 * output, and a test keeps it so. */
static int configs_reference(const char *dir)
{
    char *names[64];
    int n = preset_names(dir, names, 64);
    if (n < 0)
        return fail("cannot read the preset folder %s: %s", dir, strerror(errno));
    tm_config *cfg = calloc((size_t)n + 1, sizeof *cfg);
    if (!cfg)
        return fail("out of memory");
    tm_config_defaults(&cfg[0]);
    for (int k = 0; k < n; k++)
        if (!rt_timing_config(names[k], NULL, NULL, &cfg[k + 1]))
            return 2;
    printf("# Timing parameters\n\n"
           "Generated by `ptxsim configs --reference` from timing/params.def and configs/*.cfg;\n"
           "the test `docs.parameters` fails when this page is not current.  Each group names the\n"
           "work its model follows; each preset's file (configs/NAME.cfg) gives the source of each of\n"
           "its values.  Cycles are core cycles unless the unit says otherwise.\n");
    const char *group = NULL;
    for (size_t i = 0; i < tm_param_count(); i++) {
        tm_param_desc p = tm_param_at(i);
        char range[64], val[64];
        if (p.group != group) {         /* a new group: its heading, source and table head */
            group = p.group;
            printf("\n## %s\n\nSource: %s.\n\n| parameter | unit | range | default |", group, p.source);
            for (int k = 0; k < n; k++)
                printf(" %s |", names[k]);
            printf(" meaning |\n|---|---|---|---|");
            for (int k = 0; k < n; k++)
                printf("---|");
            printf("---|\n");
        }
        if (p.is_enum)
            snprintf(range, sizeof range, "%s", p.words);
        else
            snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)p.lo, (unsigned long long)p.hi);
        for (char *c = range; *c; c++)
            if (*c == '|')
                *c = '/';
        tm_param_format(&cfg[0], i, val, sizeof val);
        printf("| `%s` | %s | %s | %s |", p.name, p.unit ? p.unit : "word", range, val);
        for (int k = 0; k < n; k++) {
            tm_param_format(&cfg[k + 1], i, val, sizeof val);
            printf(" %s |", val);
        }
        putchar(' ');
        for (const char *c = p.doc; *c; c++)
            printf(*c == '|' ? "\\|" : "%c", *c);
        printf(" |\n");
    }
    for (int k = 0; k < n; k++)
        free(names[k]);
    free(cfg);
    return 0;
}

/* `ptxsim configs --stats-reference`: every member of a --stats record,
 * for docs/statistics.md. */
static int stats_reference(void)
{
    printf("# Statistics reference\n\n"
           "Generated by `ptxsim configs --stats-reference` from runtime/rt_stats.c, timing/stats.def and the\n"
           "timing mechanisms' own tables; `tests/stats_keys.py` checks that every member a run writes is\n"
           "listed and every listed member is written.\n\n"
           "`ptxsim run --stats FILE` writes one JSON record a line, one per launch. A GPGPU-Sim name in\n"
           "backticks has the same meaning there (`--stats-format gpgpusim` writes GPGPU-Sim's text with\n"
           "those names); \"~\" marks one that is close but not the same, and `<CACHE>` stands for `L1D`,\n"
           "`L2`, `L1I`, `L1C` or `L1T`.\n\n"
           "## The launch record\n\n");
    rt_stats_record_reference(stdout);
    printf("\n## `timing`: the timing model's statistics (timing mode only)\n\n");
    tm_stats_reference(stdout);
    return 0;
}

static int cmd_configs(int argc, char **argv)
{
    char buf[PATH_MAX];
    const char *dir = rt_timing_config_dir(buf, sizeof buf);
    if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        printf("usage: ptxsim configs [NAME|FILE [--set K=V[,K=V]]]\n"
               "       ptxsim configs --from-gpgpusim GPGPUSIM_CONFIG\n"
               "       ptxsim configs --reference   (docs/parameters.md: every parameter in every preset)\n"
               "       ptxsim configs --stats-reference   (docs/statistics.md: every statistic --stats writes)\n\n"
               "Lists the timing presets (in %s, or PTXSIM_CONFIG_DIR), or writes every\n"
               "parameter of one with its value and meaning.  A FILE may be a GPGPU-Sim\n"
               "gpgpusim.config; --from-gpgpusim writes its translation as a ptxsim config\n"
               "file, and lists the options it did not translate on stderr.\n", dir);
        return 0;
    }
    if (argc > 0 && strcmp(argv[0], "--reference") == 0)
        return configs_reference(dir);
    if (argc > 0 && strcmp(argv[0], "--stats-reference") == 0)
        return stats_reference();
    if (argc > 0 && strcmp(argv[0], "--from-gpgpusim") == 0) {
        if (argc != 2)
            return fail("usage: ptxsim configs --from-gpgpusim GPGPUSIM_CONFIG");
        size_t len;
        char *text = ptx_read_file(argv[1], &len);
        if (!text)
            return fail("cannot read '%s': %s", argv[1], strerror(errno));
        bool gs = tm_gpgpusim_detect(text, len);
        free(text);
        if (!gs)
            return fail("'%s' is not a GPGPU-Sim configuration: its first option line does not start "
                        "with '-'", argv[1]);
        /* A path, never a preset's name. */
        char path[PATH_MAX + 2];
        snprintf(path, sizeof path, "%s%s", strchr(argv[1], '/') ? "" : "./", argv[1]);
        tm_config c;
        if (!rt_timing_config(path, NULL, stderr, &c))
            return 2;
        printf("# translated by ptxsim from the GPGPU-Sim configuration %s\n", argv[1]);
        tm_config_print(stdout, &c);
        return 0;
    }
    if (argc > 0) {
        const char *set = argc > 2 && strcmp(argv[1], "--set") == 0 ? argv[2] : NULL;
        tm_config c;
        if (!rt_timing_config(argv[0], set, stderr, &c))
            return 2;
        tm_config_print(stdout, &c);
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d)
        return fail("cannot read the preset folder %s: %s", dir, strerror(errno));
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".cfg") == 0)
            names[n++] = strndup(e->d_name, len - 4);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int k = 0; k < n; k++) {
        char path[PATH_MAX], line[256] = "";
        snprintf(path, sizeof path, "%s/%s.cfg", dir, names[k]);
        FILE *f = fopen(path, "r");
        /* The first comment line says what the machine is. */
        while (f && fgets(line, sizeof line, f) && (line[0] != '#' || line[1] == '\n'))
            line[0] = '\0';
        if (f)
            fclose(f);
        line[strcspn(line, "\n")] = '\0';
        const char *what = line[0] == '#' ? line + 1 + (line[1] == ' ') : "";
        size_t nl = strlen(names[k]);
        if (strncmp(what, names[k], nl) == 0 && strncmp(what + nl, " -- ", 4) == 0)
            what += nl + 4;             /* "# NAME -- what it is" */
        printf("%-14s %s\n", names[k], what);
        free(names[k]);
    }
    return 0;
}

extern char **environ;

static int cmd_version(void)
{
    printf("ptxsim %s (%s), %s build\n", PTXSIM_VERSION, PTXSIM_GIT, PTXSIM_BUILD);
    printf("engines: interpreter (functional), cycle-level timing model, debugger\n");
    printf("PTX: ISA versions %u.%u to %u.%u (a CUDA %u.%u driver's); fat binaries: plain, LZ4- and zstd-compressed\n",
           FE_PTX_OLDEST / 10, FE_PTX_OLDEST % 10, FE_PTX_NEWEST / 10, FE_PTX_NEWEST % 10,
           FE_PTX_DRIVER_VERSION / 1000, FE_PTX_DRIVER_VERSION % 1000 / 10);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0)
        return cmd_version();
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 2, argv + 2);
    if (strcmp(argv[1], "ptx") == 0)
        return cmd_ptx(argc - 2, argv + 2);
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc - 2, argv + 2);
    if (strcmp(argv[1], "debug") == 0)
        return cmd_debug(argc - 2, argv + 2);
    if (strcmp(argv[1], "plot") == 0)
        return cmd_plot(argc - 2, argv + 2);
    if (strcmp(argv[1], "configs") == 0)
        return cmd_configs(argc - 2, argv + 2);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc - 2, argv + 2);
    fail("unknown command '%s'", argv[1]);
    usage(stderr);
    return 2;
}

/*
 * rt_timing.c -- timing mode: with PTXSIM_MODE=timing (`ptxsim run --mode
 * timing`) every launch runs in the cycle-level model of timing/ instead of
 * the functional scheduler.  Results are the same; what changes is that
 * each launch also reports cycles and the model's statistics, and that
 * simulated time is the time the program sees: CUDA events and
 * cudaEventElapsedTime measure simulated device time.
 *
 * The machine is a preset from configs/ (PTXSIM_CONFIG: a name such as
 * gtx480, or a path) with PTXSIM_SET overrides ("key=value,...").  One model
 * lives for the whole process, so caches and DRAM rows carry over from one
 * launch to the next as on a GPU.
 */
#define _GNU_SOURCE     /* dladdr */
#include "rt_int.h"
#include "timing.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static tm_gpu *gpu;
static const char *preset_name;
static FILE *trace;
static bool trace_first = true;
static bool host_report;        /* PTXSIM_THREADS_REPORT */
/* Totals over every launch, and over those between cudaProfilerStart and
 * Stop: a program that calls cudaProfilerStart is reported for its ranges
 * only, as profilers do. */
static uint64_t total_cycles, total_warp_insts, profiled_cycles, profiled_warp_insts;
/* GPGPU-Sim's running totals, for --stats-format gpgpusim. */
static tm_gpgpusim_log gs_log;

bool rt_timing_on(void) { return gpu != NULL; }

/* Where the preset files are: PTXSIM_CONFIG_DIR, else share/ptxsim/configs
 * of the installation this code is part of (the command in bin/, the
 * libraries in lib/ptxsim/), else the source tree this was built from. */
const char *rt_timing_config_dir(char *buf, size_t n)
{
    const char *env = getenv("PTXSIM_CONFIG_DIR");
    if (env && *env)
        return env;
    Dl_info info;
    if (dladdr((void *)rt_timing_config_dir, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        static const char *const up[] = { "..", "../.." };
        for (size_t k = 0; slash && k < sizeof up / sizeof up[0]; k++) {
            snprintf(buf, n, "%.*s/%s/share/ptxsim/configs", (int)(slash - info.dli_fname), info.dli_fname, up[k]);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    return PTXSIM_SOURCE_CONFIGS;
}

/* A preset name (no '/', ".cfg" or ".config") names a file in the config
 * folder. */
static const char *config_path(const char *name, char *buf, size_t n)
{
    if (strchr(name, '/') || strstr(name, ".cfg") || strstr(name, ".config"))
        return name;
    char dir[PATH_MAX];
    snprintf(buf, n, "%s/%s.cfg", rt_timing_config_dir(dir, sizeof dir), name);
    return buf;
}

/* A configuration error with its file and line. */
static void say_diag(const char *what, const ptx_diag *d)
{
    if (d->file && d->line)
        rt_say("%s:%u: %s", d->file, d->line, d->msg);
    else
        rt_say("%s: %s", d->file ? d->file : what, d->msg);
}

bool rt_timing_config(const char *name, const char *set, FILE *notes, tm_config *c)
{
    tm_config_defaults(c);
    ptx_diag diag = {0};
    char path[PATH_MAX];
    const char *file = config_path(name, path, sizeof path);
    if (access(file, R_OK) != 0) {
        char dir[PATH_MAX];
        rt_say("no timing configuration '%s' (%s); `ptxsim configs` lists those in %s", name, file,
               rt_timing_config_dir(dir, sizeof dir));
        return false;
    }
    if (tm_config_load(c, file, notes, &diag) != PTX_OK) {
        say_diag(file, &diag);
        return false;
    }
    if (set && *set && tm_config_set(c, set, &diag) != PTX_OK) {
        diag.file = NULL;
        say_diag("--set/PTXSIM_SET", &diag);
        return false;
    }
    if (tm_config_check(c, &diag) != PTX_OK) {
        /* Values that do not fit together may come from the file or the
         * overrides: name both. */
        char what[PATH_MAX + 64];
        snprintf(what, sizeof what, set && *set ? "%s with --set/PTXSIM_SET %s" : "%s", file, set);
        diag.file = NULL;
        say_diag(what, &diag);
        return false;
    }
    return true;
}

bool rt_timing_init(void)
{
    const char *name = getenv("PTXSIM_CONFIG");
    if (!name || !*name)
        name = "gtx480";
    tm_config c;
    /* What a GPGPU-Sim file held that is not translated is listed once: the
     * ptxsim command, which checks the configuration before the program
     * starts, says when it has listed it. */
    const char *listed = getenv("PTXSIM_CONFIG_NOTED");
    if (!rt_timing_config(name, getenv("PTXSIM_SET"), listed && *listed == '1' ? NULL : stderr, &c))
        return false;
    if (!(gpu = tm_new(&c))) {
        rt_say("out of host memory for the timing model");
        return false;
    }
    /* The model steps on the host threads functional launches would run
     * blocks on (the debugger steps warps itself: one); PTXSIM_THREADS_MIN_NS
     * moves the point where a step is worth sharing (0: always). */
    const char *min_ns = getenv("PTXSIM_THREADS_MIN_NS");
    tm_set_threads(gpu, rt.dbg ? 1 : rt.cfg.threads, min_ns && *min_ns ? strtoll(min_ns, NULL, 10) : -1);
    const char *window = getenv("PTXSIM_TIMING_WINDOW");
    if (window && *window)
        tm_set_window(gpu, (uint32_t)strtoul(window, NULL, 10));
    const char *report = getenv("PTXSIM_THREADS_REPORT");
    host_report = report && *report && *report != '0';
    tm_set_host_time(gpu, host_report);
    const char *split = getenv("PTXSIM_TIMING_SPLIT");
    if (split && *split) {
        if (!strcmp(split, "lanes"))
            tm_set_split(gpu, TM_SPLIT_LANES);
        else if (!strcmp(split, "pipe"))
            tm_set_split(gpu, TM_SPLIT_PIPE);
        else if (strcmp(split, "auto"))
            rt_say("PTXSIM_TIMING_SPLIT=%s: not auto, lanes or pipe; using auto", split);
    }
    preset_name = name;
    const char *t = getenv("PTXSIM_TRACE");
    if (t && *t && !(trace = fopen(t, "w")))
        rt_say("PTXSIM_TRACE=%s: cannot write it; no timeline", t);
    else if (trace)
        fputs("{\"traceEvents\":[\n", trace);
    return true;
}

/* The device the program sees follows the configured machine. */
void rt_timing_device(rt_device *d)
{
    const tm_config *c = tm_config_of(gpu);
    d->sms = (int)c->n_sm;
    d->clock_khz = (int)(c->core_clock_mhz * 1000);
    d->mem_clock_khz = (int)(c->dram_clock_mhz * 1000);
    d->max_threads_sm = (int)c->sm_max_threads;
    if (d->max_threads_block > d->max_threads_sm)
        d->max_threads_block = d->max_threads_sm;
    d->max_blocks_sm = (int)c->sm_max_ctas;
    d->regs_sm = (int)c->sm_registers;
    if (d->regs_block > d->regs_sm)
        d->regs_block = d->regs_sm;
    d->reg_alloc_unit = (int)c->reg_alloc_unit;
    d->shared_sm = (int)c->sm_shared_bytes;
    if ((uint64_t)d->shared_block_optin > c->sm_shared_bytes)
        d->shared_block_optin = (int)c->sm_shared_bytes;
    if ((uint64_t)d->shared_block > c->sm_shared_bytes)
        d->shared_block = (int)c->sm_shared_bytes;
    d->l2_bytes = (int)(c->l2_sets * c->l2_assoc * c->l2_line * c->n_partitions);
    snprintf(d->name, sizeof d->name, "ptxsim %s (timing)", preset_name);
}

double rt_timing_seconds(void)
{
    return (double)tm_now(gpu) / ((double)tm_config_of(gpu)->core_clock_mhz * 1e6);
}

ptx_status rt_timing_run(exec_program *p, int kernel, const exec_launch *l, exec_stats *xs,
                         exec_error *err, tm_stats *ts, uint64_t *start_cycle)
{
    *start_cycle = tm_now(gpu);
    ptx_status st = tm_run(gpu, p, kernel, l, ts, xs, err);
    total_cycles += ts->cycles;
    total_warp_insts += ts->warp_insts;
    if (rt.profiling) {
        profiled_cycles += ts->cycles;
        profiled_warp_insts += ts->warp_insts;
    }
    return st;
}

/* PTXSIM_THREADS_REPORT: where the launch's host time went -- its jobs
 * shared by the threads, those its calling thread ran alone, and the rest,
 * which only one thread can do (timing.h, tm_host_time) -- and what that
 * rest allows: n threads at best take the jobs' time down n-fold. */
void rt_timing_host_report(const char *kernel)
{
    if (!host_report)
        return;
    tm_host_time h;
    tm_host_time_of(gpu, &h);
    double all = (double)h.launch_ns, jobs = (double)(h.shared_ns + h.alone_ns);
    double rest = all > jobs ? all - jobs : 0;
    fprintf(stderr, "ptxsim: %s: host %.3f s on %u thread%s: jobs shared %.1f%% (%llu), jobs alone %.1f%% (%llu), "
            "one thread's part %.1f%%",
            kernel, all * 1e-9, rt.cfg.threads, rt.cfg.threads == 1 ? "" : "s",
            all > 0 ? 100.0 * (double)h.shared_ns / all : 0.0, (unsigned long long)h.shared_jobs,
            all > 0 ? 100.0 * (double)h.alone_ns / all : 0.0, (unsigned long long)h.alone_jobs,
            all > 0 ? 100.0 * rest / all : 0.0);
    if (h.shared_ns)
        fprintf(stderr, ", the threads at work %.1f%% of the shared jobs' time",
                100.0 * (double)h.shared_work_ns / ((double)h.shared_ns * rt.cfg.threads));
    if (rt.cfg.threads == 1 && all > 0)
        fprintf(stderr, " (at best %.2fx on 2 threads, %.2fx on 8)", all / (rest + jobs / 2), all / (rest + jobs / 8));
    fputc('\n', stderr);
}

void rt_timing_summary(const char *kernel, const tm_stats *s)
{
    double ipc = s->cycles ? (double)s->thread_insts / (double)s->cycles : 0;
    double occ = s->sm_cycles && s->max_warps ? (double)s->active_warp_cycles / ((double)s->sm_cycles * (double)s->max_warps) : 0;
    double l1 = s->l1d.accesses ? (double)s->l1d.misses / (double)s->l1d.accesses : 0;
    double l2 = s->l2.accesses ? (double)s->l2.misses / (double)s->l2.accesses : 0;
    fprintf(stderr,
            "ptxsim: %s: %llu cycles on %s, IPC %.2f, occupancy %.1f%%, L1D miss %.1f%%, L2 miss %.1f%%\n",
            kernel, (unsigned long long)s->cycles, preset_name, ipc, 100.0 * occ, 100.0 * l1, 100.0 * l2);
    if (s->dom_divergences || s->dom_fallbacks)
        fprintf(stderr, "ptxsim: %s: diverge on miss: %llu divergences (%llu merged), %llu rejoins, %llu forced, "
                "%llu fallbacks, %llu slip waits, %llu slip blocks\n", kernel,
                (unsigned long long)s->dom_divergences, (unsigned long long)s->dom_merges,
                (unsigned long long)s->dom_rejoins, (unsigned long long)s->dom_forced,
                (unsigned long long)s->dom_fallbacks, (unsigned long long)s->dom_slip_waits,
                (unsigned long long)s->dom_slip_blocks);
    if (s->pm_entries)
        fprintf(stderr, "ptxsim: %s: P-mode: %llu entries, %llu pre-executed, %llu skipped, %llu pre-loads, "
                "%llu reused\n", kernel, (unsigned long long)s->pm_entries,
                (unsigned long long)s->pm_pre_executed, (unsigned long long)s->pm_skipped,
                (unsigned long long)s->pm_preloads, (unsigned long long)s->pm_reused);
}

void rt_timing_json(FILE *out, const tm_stats *s)
{
    tm_stats_json(out, tm_config_of(gpu), s);
}

void rt_timing_gpgpusim(const char *kernel, const tm_stats *s, uint64_t ctas, double seconds)
{
    tm_gpgpusim_kernel(rt_device_out ? rt_device_out : stdout, &gs_log, tm_config_of(gpu), s, kernel, ctas, seconds);
}

void rt_timing_trace(const char *kernel, const tm_stats *s, uint64_t start_cycle)
{
    if (!trace)
        return;
    tm_trace_events(trace, kernel, tm_config_of(gpu), s, start_cycle, trace_first);
    if (s->nspans || s->nsamples)
        trace_first = false;
}

void rt_timing_finish(void)
{
    if (!gpu)
        return;
    if (gs_log.launches)
        tm_gpgpusim_exit(stdout, &gs_log, (uint32_t)tm_config_of(gpu)->core_clock_mhz);
    if (trace) {
        fputs("\n],\"displayTimeUnit\":\"ns\"}\n", trace);
        fclose(trace);
        trace = NULL;
    }
    if (rt.cfg.quiet || rt.launches < 2)
        return;
    if (rt.profiler_used)
        rt_say("timing total between cudaProfilerStart and Stop: %llu cycles, %llu warp-insts on %s",
               (unsigned long long)profiled_cycles, (unsigned long long)profiled_warp_insts, preset_name);
    else
        rt_say("timing total: %llu cycles, %llu warp-insts in %llu launches on %s",
               (unsigned long long)total_cycles, (unsigned long long)total_warp_insts,
               (unsigned long long)rt.launches, preset_name);
}

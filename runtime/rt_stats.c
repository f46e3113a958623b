/*
 * rt_stats.c -- what each launch reports: a one-line summary on stderr
 * (unless PTXSIM_QUIET) and, with PTXSIM_STATS=FILE (`ptxsim run --stats
 * FILE`), one JSON record per line in FILE:
 *
 *   {"launch":1,"kernel":"vector_add(float const*, float const*, float*, int)",
 *    "mangled":"_Z10vector_addPKfS0_Pfi","grid":[4,1,1],"block":[256,1,1],
 *    "dynamic_shared":0,"stream":0,"status":"ok","warp_insts":120,
 *    "thread_insts":3750,"simd_efficiency":0.977,"ctas":4,
 *    "mem_ops":{"global":12,"shared":0,...},"wall_s":0.000151,"profiled":true}
 *
 * With PTXSIM_STATS_FORMAT=gpgpusim (`--stats-format gpgpusim`), timing
 * mode also writes each launch's statistics to stdout as GPGPU-Sim's log
 * does (timing/gpgpusim_stats.c), for scripts that scrape such logs.
 *
 * cudaProfilerStart/Stop are recorded as {"marker":"profiler_start"} lines,
 * and each launch says whether it ran between them ("profiled"): the timing
 * model will report only that part.  A program that never calls
 * cudaProfilerStart has no markers and is profiled whole, as profilers
 * treat it by default.
 */
#include "rt_int.h"

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* The key of state space i in "mem_ops", or NULL for the spaces that are
 * not memory (registers); the generic space has no name of its own in the
 * table (its entry is the empty string). */
static const char *space_key(int i)
{
    if (i == ISA_SPACE_REG || i == ISA_SPACE_SREG)
        return NULL;
    return i == ISA_SPACE_GENERIC ? "generic" : isa_space_names[i];
}

/* The members json_record writes, for docs/statistics.md. */
static const struct {
    const char *path, *unit, *gpgpusim, *meaning;
} record_rows[] = {
    { "launch", "count", "kernel_launch_uid", "the launch's number in the program, from 1" },
    { "kernel", "name", "", "the kernel's demangled signature" },
    { "mangled", "name", "kernel_name", "the kernel's name as the PTX has it" },
    { "grid[]", "blocks", "", "the grid's size in x, y, z" },
    { "block[]", "threads", "", "the block's size in x, y, z" },
    { "dynamic_shared", "bytes", "", "dynamic shared memory the launch asked for" },
    { "stream", "id", "", "the stream it ran on (0: the legacy default stream)" },
    { "status", "text", "", "\"ok\", or what stopped the kernel (an illegal address, a trap, a deadlock, ...)" },
    { "warp_insts", "warp-instructions", "gpgpu_n_tot_w_icount", "instructions executed, once per warp" },
    { "thread_insts", "thread-instructions", "gpu_sim_insn", "instructions executed, once per active thread" },
    { "simd_efficiency", "fraction", "", "thread_insts / (32 x warp_insts)" },
    { "ctas", "blocks", "gpu_tot_issued_cta (per launch)", "blocks that ran to completion" },
    { "mem_ops.<space>", "warp-instructions", "", "memory instructions executed, by state space" },
    { "wall_s", "seconds", "", "host time the launch took to simulate" },
    { "profiled", "boolean", "", "whether it ran between cudaProfilerStart and cudaProfilerStop (or no such calls)" },
    { "registers", "registers per thread", "", "what occupancy was computed with (machine code when it can be had)" },
    { "registers_from", "text", "", "where that count came from: the program's cubin, ptxas, the nearest cubin, or the PTX" },
    { "timing", "object", "", "the timing model's statistics (timing mode only; below)" },
};

void rt_stats_record_reference(FILE *out)
{
    fputs("| member | unit | GPGPU-Sim | meaning |\n|---|---|---|---|\n", out);
    for (size_t i = 0; i < sizeof record_rows / sizeof record_rows[0]; i++)
        fprintf(out, "| `%s` | %s | %s%s%s | %s |\n", record_rows[i].path, record_rows[i].unit,
                *record_rows[i].gpgpusim ? "`" : "", record_rows[i].gpgpusim, *record_rows[i].gpgpusim ? "`" : "",
                record_rows[i].meaning);
    fputs("\n- `<space>`:", out);
    bool first = true;
    for (int i = 0; i < ISA_SPACE_COUNT; i++) {
        const char *name = space_key(i);
        if (!name)
            continue;
        fprintf(out, "%s `%s`", first ? "" : ",", name);
        first = false;
    }
    fputc('\n', out);
}

static void json_record(const rt_launch_report *r, double simd)
{
    /* From the queue, a record without its number, which the queue gives
     * it when it writes the record out, in issue order. */
    FILE *out = rt_records_out ? rt_records_out : rt.stats;
    const exec_stats *s = r->stats;
    if (rt_records_out)
        fputs("{\"kernel\":", out);
    else
        fprintf(out, "{\"launch\":%llu,\"kernel\":", (unsigned long long)rt.launches);
    json_string(out, rt_func_pretty(r->f));
    fputs(",\"mangled\":", out);
    json_string(out, r->f->name);
    fprintf(out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_shared\":%zu,\"stream\":%llu,"
                 "\"status\":",
            r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->shared,
            r->stream);
    json_string(out, r->st == PTX_OK ? "ok" : ptx_status_message(r->st));
    fprintf(out, ",\"warp_insts\":%llu,\"thread_insts\":%llu,\"simd_efficiency\":%.4f,\"ctas\":%llu,"
                 "\"mem_ops\":{",
            (unsigned long long)s->warp_insts, (unsigned long long)s->thread_insts, simd,
            (unsigned long long)s->ctas);
    bool first = true;
    for (int i = 0; i < ISA_SPACE_COUNT; i++) {
        const char *name = space_key(i);
        if (!name)
            continue;
        fprintf(out, "%s\"%s\":%llu", first ? "" : ",", name, (unsigned long long)s->mem_ops[i]);
        first = false;
    }
    fprintf(out, "},\"wall_s\":%.6f,\"profiled\":%s", r->seconds, rt.profiling ? "true" : "false");
    const exec_kernel_info *ki = exec_program_kernel_info(r->f->mod->prog, r->f->index);
    if (ki && ki->machine_regs_from)
        fprintf(out, ",\"registers\":%u,\"registers_from\":\"%s\"", ki->machine_regs, ki->machine_regs_from);
    if (r->timing) {
        fputs(",\"timing\":", out);
        rt_timing_json(out, r->timing);
    }
    fputs("}\n", out);
}

void rt_report_launch(const rt_launch_report *r)
{
    const exec_stats *s = r->stats;
    double simd = s->warp_insts ? (double)s->thread_insts / ((double)s->warp_insts * ISA_WARP_SIZE) : 0;
    if (rt.stats)
        json_record(r, simd);
    if (rt.cfg.stats_gpgpusim && r->timing && r->st == PTX_OK)
        rt_timing_gpgpusim(r->f->name, r->timing, s->ctas, r->seconds);
    if (rt.cfg.quiet || r->st != PTX_OK)
        return;
    fprintf(stderr,
            "ptxsim: %s grid (%u,%u,%u) block (%u,%u,%u): %llu warp-insts, %llu thread-insts, "
            "SIMD efficiency %.1f%%, %.3f s (%.1f M thread-insts/s)\n",
            rt_func_pretty(r->f), r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1],
            r->block[2], (unsigned long long)s->warp_insts, (unsigned long long)s->thread_insts,
            100.0 * simd, r->seconds, r->seconds > 0 ? (double)s->thread_insts / r->seconds * 1e-6 : 0.0);
    exec_jit_summary js;
    if (!r->timing && exec_program_engine(r->f->mod->prog, &js) && !js.why && js.quick + js.optimised)
        fprintf(stderr, "ptxsim: %s: %.1f%% of warp-instructions compiled; %llu instructions compiled "
                "so far in %.3f s (%llu of them taken from the cache): %llu quick, %llu optimised\n",
                rt_func_pretty(r->f),
                s->warp_insts ? 100.0 * (double)s->compiled_insts / (double)s->warp_insts : 0.0,
                (unsigned long long)(js.quick + js.optimised), js.seconds, (unsigned long long)js.cached,
                (unsigned long long)js.quick, (unsigned long long)js.optimised);
    if (r->timing) {
        rt_timing_summary(rt_func_pretty(r->f), r->timing);
        const exec_kernel_info *ki = exec_program_kernel_info(r->f->mod->prog, r->f->index);
        if (ki && ki->machine_regs_from)
            fprintf(stderr, "ptxsim: %s: %u registers per thread (%s)\n", rt_func_pretty(r->f),
                    ki->machine_regs, ki->machine_regs_from);
        else if (ki)
            fprintf(stderr, "ptxsim: %s: no machine code: registers estimated from the PTX's %u\n",
                    rt_func_pretty(r->f), ki->regs);
    }
}

void rt_stats_marker(const char *what)
{
    rt_lock();
    if (rt.stats)
        fprintf(rt.stats, "{\"marker\":\"%s\",\"after_launch\":%llu}\n", what,
                (unsigned long long)rt.launches);
    rt_unlock();
}

void rt_stats_close(void)
{
    if (rt.stats)
        fflush(rt.stats);
}

static void profiler_switch(void *start)
{
    rt_lock();
    bool change = rt.profiling != (start != NULL);
    rt.profiling = start != NULL;
    rt.profiler_used |= start != NULL;
    rt_unlock();
    if (change)
        rt_stats_marker(start ? "profiler_start" : "profiler_stop");
}

void rt_profiler(bool start)
{
    /* Profiling starts or stops between the launches issued before the
     * call and those after it: with work queued, the switch is queued
     * behind that work (on the legacy stream, which follows all of it),
     * and the call does not wait for the device. */
    RT_ASYNC_ENTRY();
    static int on;
    if (rt_queue_async() && !rt_queue_idle()) {
        rt_graph_op op = { .type = cudaGraphNodeTypeHost, .u.host = { profiler_switch, start ? &on : NULL } };
        rt_queue_push(NULL, &op, false);
    } else {
        profiler_switch(start ? &on : NULL);
    }
}

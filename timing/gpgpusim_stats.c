/*
 * gpgpusim_stats.c -- the timing statistics as the text GPGPU-Sim prints
 * after each kernel, with its names and line formats, so scripts that
 * scrape GPGPU-Sim's logs with a regular expression per name (Accel-Sim's
 * get_stats.py and its stats YAML lists) read ptxsim's unchanged.
 *
 * A name is written only where ptxsim measures the quantity; names with no
 * counterpart are left out rather than written as zero.  docs/gpgpusim.md
 * lists which names are exact and how the others are approximated.
 *
 * As in GPGPU-Sim, the gpu_tot_* lines and the DRAM totals count every
 * launch so far in the process, so scripts that take per-kernel figures
 * by differencing consecutive kernels get them right.
 */
#include "timing.h"

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static uint64_t fails(const tm_cache_stats *c)
{
    uint64_t n = 0;
    for (int i = 0; i < TM_FAIL_COUNT; i++)
        n += c->fail[i];
    return n;
}

/* GPGPU-Sim counts an access that merges into a pending miss as a pending
 * hit, not a miss; ptxsim counts it in both misses and merges. */
static uint64_t own_misses(const tm_cache_stats *c)
{
    return c->misses >= c->merges ? c->misses - c->merges : 0;
}

/* One cache's totals, GPGPU-Sim's "L1D_cache:" block (tab-indented). */
static void cache_block(FILE *out, const char *name, const tm_cache_stats *c)
{
    fprintf(out, "%s_cache:\n", name);
    fprintf(out, "\t%s_total_cache_accesses = %llu\n", name, (unsigned long long)c->accesses);
    fprintf(out, "\t%s_total_cache_misses = %llu\n", name, (unsigned long long)own_misses(c));
    if (c->accesses)
        fprintf(out, "\t%s_total_cache_miss_rate = %.4f\n", name, ratio(own_misses(c), c->accesses));
    fprintf(out, "\t%s_total_cache_pending_hits = %llu\n", name, (unsigned long long)c->merges);
    fprintf(out, "\t%s_total_cache_reservation_fails = %llu\n", name, (unsigned long long)fails(c));
}

void tm_gpgpusim_kernel(FILE *out, tm_gpgpusim_log *log, const tm_config *c, const tm_stats *s,
                        const char *kernel, uint64_t ctas, double wall_seconds)
{
    log->launches++;
    log->cycles += s->cycles;
    log->insts += s->thread_insts;
    log->ctas += ctas;
    log->dram_reads += s->dram_reads;
    log->dram_writes += s->dram_writes;
    uint64_t slots = s->sm_cycles * (s->max_warps ? s->max_warps : 1);
    log->active_warp_cycles += s->active_warp_cycles;
    log->warp_slot_cycles += slots;
    log->wall_seconds += wall_seconds;

    fprintf(out, "kernel_name = %s \n", kernel);
    fprintf(out, "kernel_launch_uid = %llu \n", (unsigned long long)log->launches);
    fprintf(out, "gpu_sim_cycle = %llu\n", (unsigned long long)s->cycles);
    fprintf(out, "gpu_sim_insn = %llu\n", (unsigned long long)s->thread_insts);
    fprintf(out, "gpu_ipc = %12.4f\n", ratio(s->thread_insts, s->cycles));
    fprintf(out, "gpu_tot_sim_cycle = %llu\n", (unsigned long long)log->cycles);
    fprintf(out, "gpu_tot_sim_insn = %llu\n", (unsigned long long)log->insts);
    fprintf(out, "gpu_tot_ipc = %12.4f\n", ratio(log->insts, log->cycles));
    fprintf(out, "gpu_tot_issued_cta = %llu\n", (unsigned long long)log->ctas);
    fprintf(out, "gpu_occupancy = %.4f%% \n", 100 * ratio(s->active_warp_cycles, slots));
    fprintf(out, "gpu_tot_occupancy = %.4f%% \n", 100 * ratio(log->active_warp_cycles, log->warp_slot_cycles));
    /* L2 requests refused because the DRAM queue was full. */
    fprintf(out, "gpu_stall_dramfull = %llu\n", (unsigned long long)s->l2.fail[TM_FAIL_QUEUE]);
    /* Bytes the interconnect carried back to the SMs, per second of
     * simulated time. */
    double seconds = (double)s->cycles / ((double)c->core_clock_mhz * 1e6);
    fprintf(out, "L2_BW  = %12.4f GB/Sec\n", seconds > 0 ? (double)s->icnt_down_bytes / seconds / 1e9 : 0.0);

    if (c->l1i_sets)
        cache_block(out, "L1I", &s->l1i);
    cache_block(out, "L1D", &s->l1d);
    if (c->l1c_sets)
        cache_block(out, "L1C", &s->l1c);
    if (c->l1t_sets)
        cache_block(out, "L1T", &s->l1t);

    fprintf(out, "gpgpu_n_tot_thrd_icount = %llu\n", (unsigned long long)s->thread_insts);
    fprintf(out, "gpgpu_n_tot_w_icount = %llu\n", (unsigned long long)s->warp_insts);
    uint64_t mem_stall = 0;
    for (int i = 0; i < TM_HZ_COUNT; i++)
        mem_stall += s->hazard_cycles[i];
    fprintf(out, "gpgpu_n_stall_shd_mem = %llu\n", (unsigned long long)mem_stall);
    fprintf(out, "gpgpu_n_shmem_bkconflict = %llu\n", (unsigned long long)s->shmem_conflict_passes);

    fprintf(out, "total dram reads = %llu\n", (unsigned long long)log->dram_reads);
    fprintf(out, "total dram writes = %llu\n", (unsigned long long)log->dram_writes);

    fprintf(out, "\n========= L2 cache stats =========\n");
    fprintf(out, "L2_total_cache_accesses = %llu\n", (unsigned long long)s->l2.accesses);
    fprintf(out, "L2_total_cache_misses = %llu\n", (unsigned long long)own_misses(&s->l2));
    if (s->l2.accesses)
        fprintf(out, "L2_total_cache_miss_rate = %.4f\n", ratio(own_misses(&s->l2), s->l2.accesses));
    fprintf(out, "L2_total_cache_pending_hits = %llu\n", (unsigned long long)s->l2.merges);
    fprintf(out, "L2_total_cache_reservation_fails = %llu\n", (unsigned long long)fails(&s->l2));

    /* Packets are flits of icnt_flit_bytes. */
    uint64_t flit = c->icnt_flit_bytes ? c->icnt_flit_bytes : 1;
    fprintf(out, "\nicnt_total_pkts_mem_to_simt=%llu\n", (unsigned long long)((s->icnt_down_bytes + flit - 1) / flit));
    fprintf(out, "icnt_total_pkts_simt_to_mem=%llu\n", (unsigned long long)((s->icnt_up_bytes + flit - 1) / flit));
    fflush(out);
}

void tm_gpgpusim_exit(FILE *out, const tm_gpgpusim_log *log, uint32_t core_clock_mhz)
{
    /* Host time, in whole seconds and at least one, as GPGPU-Sim counts it. */
    uint64_t secs = (uint64_t)log->wall_seconds;
    if (secs < 1)
        secs = 1;
    fprintf(out, "\n\ngpgpu_simulation_time = %llu days, %llu hrs, %llu min, %llu sec (%llu sec)\n",
            (unsigned long long)(secs / 86400), (unsigned long long)(secs / 3600 % 24),
            (unsigned long long)(secs / 60 % 60), (unsigned long long)(secs % 60), (unsigned long long)secs);
    fprintf(out, "gpgpu_simulation_rate = %llu (inst/sec)\n", (unsigned long long)(log->insts / secs));
    uint64_t cps = log->cycles / secs;
    fprintf(out, "gpgpu_simulation_rate = %llu (cycle/sec)\n", (unsigned long long)cps);
    if (cps)
        fprintf(out, "gpgpu_silicon_slowdown = %llux\n", (unsigned long long)core_clock_mhz * 1000000ull / cps);
    /* The line scripts look for to know the run finished. */
    fprintf(out, "GPGPU-Sim: *** exit detected ***\n");
    fflush(out);
}

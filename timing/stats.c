/*
 * stats.c -- the timing model's statistics as text and JSON.  Where a
 * quantity is the same as one GPGPU-Sim reports, it has GPGPU-Sim's name,
 * so scripts written for it read these.
 */
#include "mech.h"

static const char *const slot_names[TM_SLOT_COUNT] = {
    [TM_SLOT_ISSUE] = "issue1", [TM_SLOT_ISSUE2] = "issue2", [TM_SLOT_IDLE] = "idle",
    [TM_SLOT_RAW] = "raw_short", [TM_SLOT_RAW_MEM] = "raw_memory", [TM_SLOT_STRUCT] = "structural",
    [TM_SLOT_STALL] = "stall", [TM_SLOT_BARRIER] = "barrier", [TM_SLOT_RESTRICT] = "restrict",
    [TM_SLOT_PRE] = "pre_issue", [TM_SLOT_FETCH] = "ifetch",
};
static const char *const halt_names[TM_PM_HALT_COUNT] = {
    [TM_PM_HALT_BRANCH] = "branch", [TM_PM_HALT_RANGE] = "range", [TM_PM_HALT_CONTROL] = "control",
    [TM_PM_HALT_FAULT] = "fault",
};

/* Energy per event of P-mode's structures (Kim et al., Table 1), pJ. */
#define PM_RENAME_PJ 2.94
#define PM_SWITCH_PJ 100.0
#define PM_PQUEUE_PJ 4.15
static const char *const hazard_names[TM_HZ_COUNT] = {
    [TM_HZ_DIV] = "div", [TM_HZ_BANK] = "bank", [TM_HZ_MSHR] = "mshr", [TM_HZ_COMQ] = "comq",
    [TM_HZ_RSV] = "rsv", [TM_HZ_MERGE] = "merge",
};
static const char *const fail_names[TM_FAIL_COUNT] = {
    [TM_FAIL_LINE] = "line_alloc_fail", [TM_FAIL_MSHR] = "mshr_entry_fail",
    [TM_FAIL_MERGE] = "mshr_merge_fail", [TM_FAIL_QUEUE] = "miss_queue_full",
};

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void counts_json(FILE *out, const uint64_t *v, uint32_t n)
{
    fputc('[', out);
    for (uint32_t i = 0; v && i < n; i++)
        fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
    fputc(']', out);
}

static void cache_json(FILE *out, const char *name, const tm_cache_stats *c, uint64_t cycles,
                       const uint64_t *set_acc, const uint64_t *set_miss, uint32_t sets)
{
    fprintf(out, "\"%s\":{\"accesses\":%llu,\"hits\":%llu,\"misses\":%llu,\"merges\":%llu,\"miss_rate\":%.6f,"
            "\"conflict_misses\":%llu,\"capacity_misses\":%llu,"
            "\"writebacks\":%llu,\"reservation_fails\":{", name, (unsigned long long)c->accesses,
            (unsigned long long)c->hits, (unsigned long long)c->misses, (unsigned long long)c->merges,
            ratio(c->misses, c->accesses), (unsigned long long)c->conflict_misses,
            (unsigned long long)c->capacity_misses, (unsigned long long)c->writebacks);
    for (int i = 0; i < TM_FAIL_COUNT; i++)
        fprintf(out, "%s\"%s\":%llu", i ? "," : "", fail_names[i], (unsigned long long)c->fail[i]);
    fputs("},\"reservation_fails_per_kilocycle\":{", out);
    for (int i = 0; i < TM_FAIL_COUNT; i++)
        fprintf(out, "%s\"%s\":%.3f", i ? "," : "", fail_names[i], 1000 * ratio(c->fail[i], cycles));
    fputs("},\"set_accesses\":", out);
    counts_json(out, set_acc, sets);
    fputs(",\"set_misses\":", out);
    counts_json(out, set_miss, sets);
    fputc('}', out);
}

void tm_stats_json(FILE *out, const tm_config *c, const tm_stats *s)
{
    double seconds = (double)s->cycles / ((double)c->core_clock_mhz * 1e6);
    fprintf(out, "{\"gpu_sim_cycle\":%llu,\"gpu_sim_insn\":%llu,\"gpu_sim_warp_insn\":%llu,\"gpu_ipc\":%.4f,"
            "\"gpu_occupancy\":%.4f,\"simd_efficiency\":%.4f,\"scheduler_cycles\":{",
            (unsigned long long)s->cycles, (unsigned long long)s->thread_insts,
            (unsigned long long)s->warp_insts, ratio(s->thread_insts, s->cycles),
            ratio(s->active_warp_cycles, s->sm_cycles * (s->max_warps ? s->max_warps : 1)),
            ratio(s->thread_insts, s->warp_insts * 32));
    for (int i = 0; i < TM_SLOT_COUNT; i++)
        fprintf(out, "%s\"%s\":%llu", i ? "," : "", slot_names[i], (unsigned long long)s->slots[i]);
    fputs("},", out);
    cache_json(out, "l1d", &s->l1d, s->cycles, s->l1_set_accesses, s->l1_set_misses, s->l1_sets);
    fputc(',', out);
    cache_json(out, "l2", &s->l2, s->cycles, s->l2_set_accesses, s->l2_set_misses, s->l2_sets);
    fputc(',', out);
    cache_json(out, "l1i", &s->l1i, s->cycles, NULL, NULL, 0);
    fputc(',', out);
    cache_json(out, "l1c", &s->l1c, s->cycles, NULL, NULL, 0);
    fputc(',', out);
    cache_json(out, "l1t", &s->l1t, s->cycles, NULL, NULL, 0);
    fprintf(out, ",\"shared\":{\"accesses\":%llu,\"bank_conflict_passes\":%llu},"
            "\"global\":{\"instructions\":%llu,\"transactions\":%llu,\"sectors\":%llu},"
            "\"icnt\":{\"up_bytes\":%llu,\"down_bytes\":%llu},"
            "\"dram\":{\"reads\":%llu,\"writes\":%llu,\"row_buffer_hit_rate\":%.4f,\"bandwidth_gbs\":%.3f},"
            "\"load_latency\":{\"mean\":%.1f,\"histogram_pow2\":[",
            (unsigned long long)s->shmem_accesses, (unsigned long long)s->shmem_conflict_passes,
            (unsigned long long)s->gmem_insts, (unsigned long long)s->gmem_transactions,
            (unsigned long long)s->gmem_sectors, (unsigned long long)s->icnt_up_bytes,
            (unsigned long long)s->icnt_down_bytes, (unsigned long long)s->dram_reads,
            (unsigned long long)s->dram_writes, ratio(s->dram_row_hits, s->dram_reads + s->dram_writes),
            seconds > 0 ? (double)(s->dram_reads + s->dram_writes) * (double)c->l2_sector / seconds / 1e9 : 0.0,
            ratio(s->load_latency_sum, s->loads));
    for (int i = 0; i < TM_LAT_BUCKETS; i++)
        fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)s->load_latency[i]);
    fputs("]},\"hazard_cycles\":{", out);
    for (int i = 0; i < TM_HZ_COUNT; i++)
        fprintf(out, "%s\"%s\":%llu", i ? "," : "", hazard_names[i], (unsigned long long)s->hazard_cycles[i]);
    fputs("},\"replays\":{", out);
    for (int i = 0; i < TM_HZ_COUNT; i++)
        fprintf(out, "%s\"%s\":%llu", i ? "," : "", hazard_names[i], (unsigned long long)s->replays[i]);
    fprintf(out, "},\"replay_issues\":%llu,\"replay_ibuffer_full\":%llu,\"mshr_opportunity_cycles\":%llu,"
            "\"mshr_opportunity_rate\":%.6f,"
            "\"hazard_prediction\":{\"predicted_miss_was_miss\":%llu,"
            "\"predicted_miss_was_hit\":%llu,\"predicted_hit_was_miss\":%llu,\"predicted_hit_was_hit\":%llu,"
            "\"credits_taken\":%llu,\"credits_returned_at_stage\":%llu,\"credits_returned_on_fill\":%llu,"
            "\"virtual_credits\":%llu,\"credits_min\":%lld,\"known_hits\":%llu}",
            (unsigned long long)s->replay_issues, (unsigned long long)s->replay_ibuffer_full,
            (unsigned long long)s->mshr_opportunity_cycles, ratio(s->mshr_opportunity_cycles, s->sm_cycles),
            (unsigned long long)s->predicted[1][1],
            (unsigned long long)s->predicted[1][0], (unsigned long long)s->predicted[0][1],
            (unsigned long long)s->predicted[0][0], (unsigned long long)s->credits_taken,
            (unsigned long long)s->credits_returned_hit, (unsigned long long)s->credits_returned_fill,
            (unsigned long long)s->credits_virtual, (long long)s->credits_min, (unsigned long long)s->known_hits);
    fprintf(out, ",\"cache_management\":{\"l1_bypass_periods\":%llu,\"l2_bypass_periods\":%llu,"
            "\"l1_bypassed\":%llu,\"l2_bypassed\":%llu,\"dwt_samplings\":%llu,\"dwt_limit\":%u}",
            (unsigned long long)s->l1_bypass_periods, (unsigned long long)s->l2_bypass_periods,
            (unsigned long long)s->l1_bypassed, (unsigned long long)s->l2_bypassed,
            (unsigned long long)s->dwt_samplings, s->dwt_limit);
    fprintf(out, ",\"diverge_on_miss\":{\"divergences\":%llu,\"rejoins\":%llu,\"forced_reconvergences\":%llu,"
            "\"fallbacks_to_blocking\":%llu,\"merges\":%llu,\"slip_blocks\":%llu,\"slip_waits\":%llu,"
            "\"slip_swaps\":%llu,\"slip_unheld\":%llu,\"catch_ups\":%llu,\"split_issues\":%llu,\"max_lead\":%u,\"slip_limit\":%u,\"slip_holds\":%llu}",
            (unsigned long long)s->dom_divergences, (unsigned long long)s->dom_rejoins,
            (unsigned long long)s->dom_forced, (unsigned long long)s->dom_fallbacks,
            (unsigned long long)s->dom_merges, (unsigned long long)s->dom_slip_blocks,
            (unsigned long long)s->dom_slip_waits, (unsigned long long)s->dom_slip_swaps,
            (unsigned long long)s->dom_slip_unheld, (unsigned long long)s->dom_catch_ups,
            (unsigned long long)s->dom_split_issues, s->dom_max_lead,
            s->dom_slip_limit, (unsigned long long)s->dom_slip_holds);
    fprintf(out, ",\"pmode\":{\"entries\":%llu,\"halts\":{", (unsigned long long)s->pm_entries);
    for (int i = 0; i < TM_PM_HALT_COUNT; i++)
        fprintf(out, "%s\"%s\":%llu", i ? "," : "", halt_names[i], (unsigned long long)s->pm_halts[i]);
    fprintf(out, "},\"pre_executed\":%llu,\"skipped\":%llu,\"preloads\":%llu,\"preload_lines\":%llu,"
            "\"preload_drops\":%llu,\"queued\":%llu,\"reused\":%llu,\"reuse_late\":%llu,\"dropped\":%llu,\"rename_waits\":%llu,"
            "\"pre_executed_per_entry\":%.2f,\"skipped_per_entry\":%.2f,"
            "\"reuse_coverage\":%.4f,\"preload_coverage\":%.4f,"
            "\"nmode_l1_hit_rate\":%.4f,\"nmode_l1_hit_or_merge_rate\":%.4f,"
            "\"energy_pj\":{\"renaming\":%.1f,\"switches\":%.1f,\"pqueue\":%.1f}},"
            "\"prefetch\":{\"issued\":%llu,\"dropped\":%llu}",
            (unsigned long long)s->pm_pre_executed, (unsigned long long)s->pm_skipped,
            (unsigned long long)s->pm_preloads, (unsigned long long)s->pm_preload_txns,
            (unsigned long long)s->pm_preload_drops,
            (unsigned long long)s->pm_queued, (unsigned long long)s->pm_reused, (unsigned long long)s->pm_late,
            (unsigned long long)s->pm_dropped, (unsigned long long)s->pm_rename_waits,
            ratio(s->pm_pre_executed, s->pm_entries), ratio(s->pm_skipped, s->pm_entries),
            ratio(s->pm_reused, s->nmode_short), ratio(s->pm_preloads, s->nmode_global_loads),
            ratio(s->nmode_l1_hits, s->nmode_l1_accesses),
            ratio(s->nmode_l1_hits + s->nmode_l1_merges, s->nmode_l1_accesses),
            (double)s->pm_renames * PM_RENAME_PJ, (double)(2 * s->pm_entries) * PM_SWITCH_PJ,
            (double)s->pm_pq_accesses * PM_PQUEUE_PJ,
            (unsigned long long)s->prefetches, (unsigned long long)s->prefetch_drops);
    for (int id = 0; s->mech_stats && id < TM_MECH_COUNT; id++)
        if (s->mech_stats[id] && tm_mechs[id]->stats_json) {
            fprintf(out, ",\"%s\":", tm_mechs[id]->name);
            tm_mechs[id]->stats_json(out, c, s->mech_stats[id]);
        }
    fputs(",\"timeseries\":[", out);
    for (uint32_t i = 0; i < s->nsamples; i++) {
        const tm_sample *p = &s->samples[i];
        uint64_t slots = 0;
        for (int k = 0; k < TM_SLOT_COUNT; k++)
            slots += p->slots[k];
        uint64_t span = i ? p->cycle - s->samples[i - 1].cycle : p->cycle;
        fprintf(out, "%s{\"cycle\":%llu,\"ipc\":%.3f,\"active_warps\":%u,\"l1_miss_rate\":%.4f,"
                "\"l2_miss_rate\":%.4f,\"dram_gbs\":%.3f,\"stalls\":{", i ? "," : "", (unsigned long long)p->cycle,
                ratio(p->thread_insts, span), p->active_warps, ratio(p->l1_misses, p->l1_accesses),
                ratio(p->l2_misses, p->l2_accesses),
                span ? (double)p->dram_bytes / ((double)span / ((double)c->core_clock_mhz * 1e6)) / 1e9 : 0.0);
        for (int k = 0; k < TM_SLOT_COUNT; k++)
            fprintf(out, "%s\"%s\":%.4f", k ? "," : "", slot_names[k], ratio(p->slots[k], slots));
        fputs("}}", out);
    }
    fputs("]}", out);
}

void tm_trace_events(FILE *out, const char *kernel, const tm_config *c, const tm_stats *s, uint64_t base,
                     bool first)
{
    /* Chrome's trace format counts microseconds; one simulated cycle is
     * shown as 1/clock-rate of a microsecond so spans line up with time. */
    double us_per_cycle = 1.0 / (double)c->core_clock_mhz;
    for (uint32_t i = 0; i < s->nspans; i++) {
        const tm_span *sp = &s->spans[i];
        fprintf(out, "%s{\"name\":\"%s cta %llu\",\"cat\":\"cta\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,"
                "\"ts\":%.4f,\"dur\":%.4f}", first && !i ? "" : ",\n", kernel, (unsigned long long)sp->cta, sp->sm,
                (double)(base + sp->begin) * us_per_cycle, (double)(sp->end - sp->begin) * us_per_cycle);
    }
    for (uint32_t i = 0; i < s->nsamples; i++)
        fprintf(out, "%s{\"name\":\"IPC\",\"ph\":\"C\",\"pid\":0,\"ts\":%.4f,\"args\":{\"ipc\":%.3f}}",
                first && !s->nspans && !i ? "" : ",\n", (double)(base + s->samples[i].cycle) * us_per_cycle,
                ratio(s->samples[i].thread_insts, i ? s->samples[i].cycle - s->samples[i - 1].cycle : s->samples[i].cycle));
}

void tm_trace_json(FILE *out, const char *kernel, const tm_config *c, const tm_stats *s, uint64_t base)
{
    fputs("{\"traceEvents\":[\n", out);
    tm_trace_events(out, kernel, c, s, base, true);
    fputs("\n],\"displayTimeUnit\":\"ns\"}\n", out);
}

void tm_stats_print(FILE *out, const tm_config *c, const tm_stats *s)
{
    fprintf(out, "gpu_sim_cycle = %llu\ngpu_sim_insn = %llu\ngpu_ipc = %.4f\n", (unsigned long long)s->cycles,
            (unsigned long long)s->thread_insts, ratio(s->thread_insts, s->cycles));
    fprintf(out, "warp instructions = %llu, SIMD efficiency = %.1f%%, occupancy = %.1f%%\n",
            (unsigned long long)s->warp_insts, 100 * ratio(s->thread_insts, s->warp_insts * 32),
            100 * ratio(s->active_warp_cycles, s->sm_cycles * (s->max_warps ? s->max_warps : 1)));
    uint64_t total = 0;
    for (int i = 0; i < TM_SLOT_COUNT; i++)
        total += s->slots[i];
    fputs("scheduler cycles:", out);
    for (int i = 0; i < TM_SLOT_COUNT; i++)
        fprintf(out, " %s %.1f%%", slot_names[i], 100 * ratio(s->slots[i], total));
    fprintf(out, "\nL1D: %llu accesses, miss rate %.3f; L2: %llu accesses, miss rate %.3f\n",
            (unsigned long long)s->l1d.accesses, ratio(s->l1d.misses, s->l1d.accesses),
            (unsigned long long)s->l2.accesses, ratio(s->l2.misses, s->l2.accesses));
    const struct { const char *name; uint64_t on; const tm_cache_stats *st; } ro[] = {
        { "L1I", c->l1i_sets, &s->l1i }, { "L1C", c->l1c_sets, &s->l1c }, { "L1T", c->l1t_sets, &s->l1t },
    };
    for (size_t i = 0; i < sizeof ro / sizeof ro[0]; i++)
        if (ro[i].on)
            fprintf(out, "%s: %llu accesses, miss rate %.3f\n", ro[i].name, (unsigned long long)ro[i].st->accesses,
                    ratio(ro[i].st->misses, ro[i].st->accesses));
    fprintf(out, "DRAM: %llu reads, %llu writes, row-buffer hit rate %.3f; mean load latency %.1f cycles\n",
            (unsigned long long)s->dram_reads, (unsigned long long)s->dram_writes,
            ratio(s->dram_row_hits, s->dram_reads + s->dram_writes), ratio(s->load_latency_sum, s->loads));
}

/* ---- the reference (docs/statistics.md) -------------------------------------- */

static const struct {
    const char *path, *unit, *gpgpusim, *meaning;
} stat_rows[] = {
#define TM_STAT(path, unit, gpgpusim, meaning) { path, unit, gpgpusim, meaning },
#include "stats.def"
#undef TM_STAT
};

static void names_line(FILE *out, const char *family, const char *const *names, int n)
{
    fprintf(out, "- `%s`:", family);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s `%s`", i ? "," : "", names[i]);
    fputc('\n', out);
}

void tm_stats_reference(FILE *out)
{
    fputs("| member of `timing` | unit | GPGPU-Sim | meaning |\n|---|---|---|---|\n", out);
    for (size_t i = 0; i < sizeof stat_rows / sizeof stat_rows[0]; i++)
        fprintf(out, "| `%s` | %s | %s%s%s | %s |\n", stat_rows[i].path, stat_rows[i].unit,
                *stat_rows[i].gpgpusim ? "`" : "", stat_rows[i].gpgpusim, *stat_rows[i].gpgpusim ? "`" : "",
                stat_rows[i].meaning);
    fputs("\nA timing mechanism that is on adds a member of its own, named after it:\n\n"
          "| member of `timing` | unit | GPGPU-Sim | meaning |\n|---|---|---|---|\n", out);
    for (int id = 0; id < TM_MECH_COUNT; id++)
        for (const struct tm_stat_doc *d = tm_mechs[id]->stats_doc; d && d->name; d++)
            fprintf(out, "| `%s.%s` | %s |  | %s |\n", tm_mechs[id]->name, d->name, d->unit, d->meaning);
    fputs("\nThe families of names in the paths above:\n\n", out);
    static const char *const caches[] = { "l1d", "l2", "l1i", "l1c", "l1t" };
    names_line(out, "<cache>", caches, 5);
    names_line(out, "<reason>", slot_names, TM_SLOT_COUNT);
    names_line(out, "<cause>", hazard_names, TM_HZ_COUNT);
    names_line(out, "<fail>", fail_names, TM_FAIL_COUNT);
    names_line(out, "<halt>", halt_names, TM_PM_HALT_COUNT);
}

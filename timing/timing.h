/*
 * timing.h -- the cycle-level GPU model.
 *
 * The model decides when each warp issues and how long its instructions
 * and memory accesses take; exec/ computes what each instruction does, at
 * the moment the model issues it (exec_warp_step and its record are the
 * whole contract).  The model keeps its state -- caches, DRAM rows, the
 * clock -- across launches, so consecutive kernels see each other's data.
 */
#ifndef PTXSIM_TIMING_H
#define PTXSIM_TIMING_H

#include "exec.h"

#include <stdio.h>

/* ---- configuration --------------------------------------------------------- */

/* The scoreboard's size bound (max_pending_writes' largest value). */
#define TM_MAX_PENDING_WRITES 64

typedef struct tm_config {
#define TM_GROUP(title, source)
#define TM_INT(name, dflt, lo, hi, unit, doc) uint64_t name;
#define TM_ENUM(name, dflt, words, doc) uint32_t name;
#include "params.def"
#undef TM_GROUP
#undef TM_INT
#undef TM_ENUM
} tm_config;

/* Enumerated values, in the order params.def lists their words. */
enum { TM_SCHED_LRR, TM_SCHED_GTO, TM_SCHED_TWO_LEVEL };
enum { TM_OC_GENERIC, TM_OC_SEPARATE };
enum { TM_MORE_ANY_WARP, TM_MORE_SAME_WARP };
enum { TM_HAZ_STALL, TM_HAZ_REPLAY };
enum { TM_HP_NONE, TM_HP_FALSE, TM_HP_TRUE, TM_HP_SATCTR, TM_HP_ORACLE };
enum { TM_TRACK_NAIVE, TM_TRACK_CREDIT };
enum { TM_THROTTLE_OFF, TM_THROTTLE_STATIC, TM_THROTTLE_DWT };
enum { TM_DWT_ANY, TM_DWT_FIRST };
enum { TM_INDEX_LINEAR, TM_INDEX_XOR, TM_INDEX_PRIC, TM_INDEX_PRIME };
enum { TM_DOM_OFF, TM_DOM_ON };
enum { TM_SLIP_FIXED, TM_SLIP_ADAPTIVE };
enum { TM_SLIP_WAIT, TM_SLIP_BLOCK };
enum { TM_PMODE_OFF, TM_PMODE_ON };
enum { TM_PREFETCH_OFF, TM_PREFETCH_STRIDE };

void tm_config_defaults(tm_config *c);

/* The set (of n) a line address maps to under an index function TM_INDEX_*:
 * pric divides by `poly` over GF(2) (0: a built-in irreducible polynomial
 * of the right degree), xor and pric see address bits up to hi_bit (0: all)
 * of lines of 2^line_shift bytes.  Caches and partition mapping use it. */
uint32_t tm_index(uint64_t line, uint32_t n, uint32_t fn, uint32_t poly, uint32_t hi_bit, uint32_t line_shift);
/* Apply a config file ("key = value" lines, '#' comments), or a GPGPU-Sim
 * gpgpusim.config (told by its "-option value" lines; see below).  Every
 * problem (unknown key, bad value, value out of range) is reported with the
 * file and line; returns PTX_OK or PTX_E_INVALID_VALUE.  notes (may be
 * NULL) gets what a GPGPU-Sim file held that was not translated. */
ptx_status tm_config_load(tm_config *c, const char *path, FILE *notes, ptx_diag *diag);
/* The same from text in memory (name is used in messages). */
ptx_status tm_config_parse(tm_config *c, const char *text, size_t len, const char *name, ptx_diag *diag);
/* Apply "key=value[,key=value...]" (command-line and environment overrides). */
ptx_status tm_config_set(tm_config *c, const char *assignments, ptx_diag *diag);
/* Set one parameter from its text, checked against its range or words;
 * false with the reason in why. */
bool tm_config_set_one(tm_config *c, const char *key, const char *val, char *why, size_t wn);

/* GPGPU-Sim's gpgpusim.config (gpgpusim_config.c): whether the text is one
 * (its first option line starts with '-'), and its translation onto c.  Each
 * option that maps onto a parameter sets it; the others are listed once on
 * notes by group (not modelled, approximated, functional-simulator only,
 * statistics and output, unknown).  Bad values and malformed lines are
 * errors with the file and line, as in the native format. */
bool tm_gpgpusim_detect(const char *text, size_t len);
ptx_status tm_gpgpusim_parse(tm_config *c, const char *text, size_t len, const char *name, FILE *notes,
                             ptx_diag *diag);

/* Check values that constrain each other (powers of two, divisibility). */
ptx_status tm_config_check(const tm_config *c, ptx_diag *diag);
/* Write every parameter with its value and meaning. */
void tm_config_print(FILE *out, const tm_config *c);
/* The parameters themselves, for tools that walk them (the configuration
 * fuzzer, generated references): name, meaning, unit (NULL for an enum),
 * default and range (for an enum, the words "a|b|c" and lo..hi over their
 * indexes), and the group params.def lists it under with that group's
 * source. */
typedef struct tm_param_desc {
    const char *name, *doc, *words, *unit, *group, *source;
    bool is_enum;
    uint64_t dflt, lo, hi;
} tm_param_desc;
size_t tm_param_count(void);
/* Parameter i (i < tm_param_count()). */
tm_param_desc tm_param_at(size_t i);
/* Parameter i's value in c as a config file spells it (an enum's word). */
void tm_param_format(const tm_config *c, size_t i, char *buf, size_t n);

/* ---- statistics -------------------------------------------------------------- */

/* What a scheduler did on a cycle (one count per scheduler cycle). */
enum {
    TM_SLOT_ISSUE,          /* issued one instruction */
    TM_SLOT_ISSUE2,         /* issued two */
    TM_SLOT_IDLE,           /* no warp to schedule */
    TM_SLOT_RAW,            /* every ready warp waits on a register (short latency) */
    TM_SLOT_RAW_MEM,        /* ... on a register a memory load will write */
    TM_SLOT_STRUCT,         /* a functional unit was busy */
    TM_SLOT_STALL,          /* no collector unit free: back-pressure from the memory stage */
    TM_SLOT_BARRIER,        /* every warp waits at a barrier */
    TM_SLOT_RESTRICT,       /* hazard prediction held a load back */
    TM_SLOT_PRE,            /* P-mode: no warp could issue; one pre-executed an instruction */
    TM_SLOT_FETCH,          /* ... every other warp waits for its instructions (an L1I miss) */
    TM_SLOT_COUNT
};

enum { TM_FAIL_LINE, TM_FAIL_MSHR, TM_FAIL_MERGE, TM_FAIL_QUEUE, TM_FAIL_COUNT };

/* Why P-mode stopped pre-executing before its load returned. */
enum { TM_PM_HALT_BRANCH,   /* a branch depends on the long-latency value */
       TM_PM_HALT_RANGE,    /* the next instruction is beyond pmode_range */
       TM_PM_HALT_CONTROL,  /* a call, return, exit or trap */
       TM_PM_HALT_FAULT,    /* running ahead would have faulted */
       TM_PM_HALT_COUNT };

/* Memory-stage hazards (Turner 2012): divergence (more than one pass),
 * shared-memory bank conflicts, no MSHR, the miss queue full (COMQ), every
 * line of the set reserved (RSV), the MSHR's merge limit. */
enum { TM_HZ_DIV, TM_HZ_BANK, TM_HZ_MSHR, TM_HZ_COMQ, TM_HZ_RSV, TM_HZ_MERGE, TM_HZ_COUNT };

typedef struct tm_cache_stats {
    uint64_t accesses, hits, misses, merges;
    uint64_t conflict_misses, capacity_misses;  /* against a fully associative cache of the same size */
    uint64_t fail[TM_FAIL_COUNT];   /* reservation failures by cause */
    uint64_t writebacks;
} tm_cache_stats;

#define TM_LAT_BUCKETS 16           /* load latency histogram: [2^i, 2^(i+1)) cycles */

typedef struct tm_stats {
    uint64_t cycles;                /* gpu_sim_cycle */
    uint64_t warp_insts;            /* gpu_sim_insn counts thread-instructions; this warp */
    uint64_t thread_insts;
    uint64_t slots[TM_SLOT_COUNT];
    uint64_t active_warp_cycles;    /* sum over cycles of resident warps (occupancy) */
    uint64_t sm_cycles;             /* cycles SMs had work, summed over SMs */
    uint64_t max_warps;             /* resident-warp capacity per SM (for occupancy) */
    tm_cache_stats l1d, l2, l1i, l1c, l1t;
    uint64_t shmem_accesses, shmem_conflict_passes;
    uint64_t const_accesses;
    uint64_t gmem_insts, gmem_transactions, gmem_sectors;
    uint64_t icnt_up_bytes, icnt_down_bytes;
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_busy_cycles;
    uint64_t load_latency[TM_LAT_BUCKETS];
    uint64_t load_latency_sum, loads;
    uint64_t hazard_cycles[TM_HZ_COUNT];    /* stall: memory-stage cycles blocked, by cause */
    uint64_t replays[TM_HZ_COUNT];          /* replay: squashes, by cause */
    uint64_t replay_issues;                 /* issues that were replays */
    uint64_t replay_ibuffer_full;           /* looks at a warp whose instruction buffer was full */
    uint64_t mshr_opportunity_cycles;       /* SM cycles a load wanted an MSHR while one was free */
    uint64_t known_hits;                    /* re-issues known to hit: their line was filled meanwhile */
    uint64_t predicted[2][2];               /* [predicted miss][was miss], first access of a load */
    uint64_t credits_taken, credits_returned_hit, credits_returned_fill, credits_virtual;
    int64_t credits_min;                    /* lowest the credit pool went (it may go negative) */
    /* Cache management (Khairy 2015). */
    uint64_t l1_bypass_periods, l2_bypass_periods, l1_bypassed, l2_bypassed;
    uint64_t dwt_samplings;                 /* times DWT-CS sampled the cores */
    uint32_t dwt_limit;                     /* the warp limit chosen (0: none) */
    /* Diverge on miss (Tarjan, Meng, Skadron). */
    uint64_t dom_divergences;               /* loads whose missing lanes were parked */
    uint64_t dom_rejoins;                   /* parked groups that rejoined at their pc */
    uint64_t dom_forced;                    /* forced reconvergences (barrier, collective, call, exit) */
    uint64_t dom_fallbacks;                 /* partial misses that blocked: no group free */
    uint64_t dom_merges;                    /* partial misses that joined a parked group at their pc */
    uint64_t dom_slip_blocks;               /* partial misses that blocked: a lane at the slip limit */
    uint64_t dom_slip_holds;                /* adaptive slip: periods that kept the limit (in balance) */
    uint64_t dom_slip_waits;                /* times running lanes waited at the slip limit */
    uint64_t dom_slip_swaps;                /* ... for a group parked elsewhere, which ran first */
    uint64_t dom_slip_unheld;               /* lanes at the limit that could not be held (their laggards unreachable) */
    uint64_t dom_catch_ups;                 /* all running lanes missed: a parked group ran meanwhile */
    uint64_t dom_split_issues;              /* issues while some of the warp's lanes were parked */
    uint32_t dom_max_lead;                  /* largest lead of a lane over its warp's slowest (slip counter) */
    uint32_t dom_slip_limit;                /* the slip limit at the end (adaptive: as adapted) */
    /* P-mode (Kim et al.) and the stride prefetcher it is compared with. */
    uint64_t pm_entries;                    /* switches into P-mode (each back out is an exit) */
    uint64_t pm_halts[TM_PM_HALT_COUNT];    /* pre-execution stopped before the load returned, by cause */
    uint64_t pm_pre_executed, pm_skipped;   /* instructions run ahead, and skipped as dependent */
    uint64_t pm_preloads, pm_preload_txns;  /* global loads turned into L1 fills, and their lines */
    uint64_t pm_preload_drops;              /* pre-load lines the L1 refused (dropped) */
    uint64_t pm_queued, pm_reused, pm_late, pm_dropped;  /* P-queue entries: made, reused, not ready, unused */
    uint64_t pm_rename_waits;               /* P-mode issue cycles lost to an empty rename pool */
    uint64_t pm_renames, pm_pq_accesses;    /* energy events besides the switches */
    uint64_t nmode_short, nmode_global_loads;   /* N-mode instructions: non-memory, global loads */
    uint64_t nmode_l1_accesses, nmode_l1_hits, nmode_l1_merges;   /* N-mode global load transactions */
    uint64_t prefetches, prefetch_drops;    /* stride prefetcher: lines asked for, dropped */
    /* Per-set accesses and misses, aggregated over the L1s and over the L2
     * slices (owned by the model; valid until its next run). */
    const uint64_t *l1_set_accesses, *l1_set_misses, *l2_set_accesses, *l2_set_misses;
    uint32_t l1_sets, l2_sets;
    /* Per registered mechanism, its own statistics block (NULL when it is
     * off; owned by the model, valid until its next run). */
    const void *const *mech_stats;
    /* The time series (sample_cycles > 0) and the timeline of CTAs on SMs,
     * owned by the model; valid until its next run. */
    const struct tm_sample *samples;
    uint32_t nsamples;
    const struct tm_span *spans;
    uint32_t nspans;
} tm_stats;

/* One point of the time series: what happened during the sample_cycles
 * cycles ending at `cycle` (relative to the launch's start). */
typedef struct tm_sample {
    uint64_t cycle;
    uint64_t warp_insts, thread_insts;
    uint64_t slots[TM_SLOT_COUNT];
    uint64_t l1_accesses, l1_misses, l2_accesses, l2_misses;
    uint64_t dram_bytes;
    uint32_t active_warps;          /* resident warps at the sample */
} tm_sample;

/* A CTA's time on an SM, for the timeline (cycles from the launch's start). */
typedef struct tm_span {
    uint32_t sm;
    uint64_t cta;                   /* linear CTA index */
    uint64_t begin, end;
} tm_span;

/* The timeline as Chrome-trace / Perfetto JSON (one row per SM): a whole
 * document, or only the events (comma-separated; a leading comma unless
 * first) for a document holding several launches. */
void tm_trace_json(FILE *out, const char *kernel, const tm_config *c, const tm_stats *s, uint64_t launch_start_cycle);
void tm_trace_events(FILE *out, const char *kernel, const tm_config *c, const tm_stats *s,
                     uint64_t launch_start_cycle, bool first);

/* The statistics as GPGPU-Sim's per-kernel log (gpgpusim_stats.c): its names
 * and line formats, for scripts that scrape GPGPU-Sim's output.  The log
 * keeps the totals over launches that GPGPU-Sim's gpu_tot_* lines report;
 * tm_gpgpusim_exit writes the lines GPGPU-Sim ends a run with. */
typedef struct tm_gpgpusim_log {
    uint64_t launches, cycles, insts, ctas;
    uint64_t dram_reads, dram_writes;
    uint64_t active_warp_cycles, warp_slot_cycles;
    double wall_seconds;                    /* host time spent in launches */
} tm_gpgpusim_log;

void tm_gpgpusim_kernel(FILE *out, tm_gpgpusim_log *log, const tm_config *c, const tm_stats *s,
                        const char *kernel, uint64_t ctas, double wall_seconds);
void tm_gpgpusim_exit(FILE *out, const tm_gpgpusim_log *log, uint32_t core_clock_mhz);

/* ---- the model ------------------------------------------------------------------- */

typedef struct tm_gpu tm_gpu;

tm_gpu *tm_new(const tm_config *c);
void tm_free(tm_gpu *g);
const tm_config *tm_config_of(const tm_gpu *g);
/* Step the model on up to `threads` host threads (1: the calling thread
 * only), each owning a lane of memory partitions and SMs (step.c), in the
 * steps that follow a step whose sharing would have saved at least
 * min_saving_ns of host time (negative: a default that pays on this
 * machine; 0: every step, as the determinism tests want).  Every
 * statistic is the same for any number:
 * nothing sent between components is due in the step it was sent, SMs step
 * side by side up to their first instruction that reaches beyond their
 * CTAs (exec_inst_private), and the rest of each cycle runs in SM order.
 * Launches with a mechanism on, with clusters or with checks step on one
 * thread, in SM order all the way. */
void tm_set_threads(tm_gpu *g, uint32_t threads, int64_t min_saving_ns);
/* How a launch stepping on two threads or more shares the work: its SMs
 * split over lanes (TM_SPLIT_LANES), or its memory partitions on a helper
 * pipelined with the SMs on the calling thread (TM_SPLIT_PIPE: pipe.c), or
 * by default (TM_SPLIT_AUTO) over lanes in windows (tm_set_window), and
 * pipelined when windows are off and it has fewer blocks than the GPU has
 * SMs (its steps of a cycle are then too short to share over lanes).  The
 * pipe needs steps of a cycle: a launch in windows uses lanes whatever the
 * split.  The statistics are the same either way. */
enum { TM_SPLIT_AUTO, TM_SPLIT_LANES, TM_SPLIT_PIPE };
void tm_set_split(tm_gpu *g, int split);
/* Steps of up to `cycles` core cycles (step.c's windows; 0: steps of a
 * cycle, the ordered part after each).  A window is never longer than the least time anything takes
 * to cross the interconnect, so nothing sent within it is due within it;
 * its SMs run their cycles one after another each, side by side, up to
 * their first instruction that reaches beyond their CTAs (their global
 * stores logged meanwhile) or a CTA to retire, and those SMs go on in the
 * ordered part, cycle by cycle.  The statistics are the same for any
 * number of threads; they differ from a cycle at a time only where CTAs
 * of different SMs talk through memory within a window (a store seen a
 * few cycles later). */
void tm_set_window(tm_gpu *g, uint32_t cycles);
/* The default: as long as the interconnect allows. */
#define TM_WINDOW_LONGEST UINT32_MAX
/* Where a launch's host time went, for a report on how it shares over the
 * threads (tm_set_host_time): the launch's wall time, that of its jobs
 * shared by the threads (tm_step_lanes), that of the jobs run on the
 * calling thread alone (a job too short to share, or one thread), and how
 * many of each; and the threads' time at work in the shared jobs, summed
 * (the rest of threads x shared_ns they waited: for a share of work, or
 * for each other at the job's end).  The rest of the launch is what only
 * one thread can do: placing blocks, a window's plan and its ordered part,
 * moving time on. */
typedef struct tm_host_time {
    uint64_t launch_ns, shared_ns, alone_ns, shared_work_ns;
    uint64_t shared_jobs, alone_jobs;
} tm_host_time;
/* Keep it (two clock reads a job), or not (the default); the last launch's. */
void tm_set_host_time(tm_gpu *g, bool on);
void tm_host_time_of(const tm_gpu *g, tm_host_time *out);
/* Simulated time so far (core cycles since the model was created). */
uint64_t tm_now(const tm_gpu *g);

/* Run one launch to completion in the timing model.  stats gets this
 * launch's figures; err the first failure. */
ptx_status tm_run(tm_gpu *g, exec_program *p, int kernel, const exec_launch *l, tm_stats *stats,
                  exec_stats *xstats, exec_error *err);

/* The statistics as text (GPGPU-Sim's names where the quantity is the same)
 * and as a JSON object (no trailing newline). */
void tm_stats_print(FILE *out, const tm_config *c, const tm_stats *s);
void tm_stats_json(FILE *out, const tm_config *c, const tm_stats *s);
/* The JSON object's members as Markdown tables, for docs/statistics.md
 * (stats.def, and each mechanism's stats_doc). */
void tm_stats_reference(FILE *out);

#endif /* PTXSIM_TIMING_H */

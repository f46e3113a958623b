/*
 * exec.h -- the execution engine: device memory, programs loaded for
 * execution, and grids of CTAs of warps run on a SIMT reconvergence stack.
 *
 * exec/ knows nothing of cycles.  Functional mode runs a launch with
 * exec_launch_run(); a timing model (or the debugger) drives the same
 * warps one instruction at a time with exec_warp_step(), choosing the lane
 * mask, and reads back an exec_record of what the instruction did.
 */
#ifndef PTXSIM_EXEC_H
#define PTXSIM_EXEC_H

#include "isa.h"

#include <stdio.h>

/* ---- device memory ------------------------------------------------------- */

/* One reserved range of the host address space holds all device memory, so
 * a device address is a host address (a global load is a plain load after
 * a bounds check), and the shared and local windows of the generic space
 * are carved out of the same reservation so nothing can ever overlap them. */
typedef struct exec_memory exec_memory;

typedef struct exec_alloc_info {
    uint64_t addr, bytes;
    uint64_t serial;            /* 1, 2, ... in the order the memory's blocks were made: never reused */
    bool live;                  /* false: freed (kept for use-after-free reports) */
} exec_alloc_info;

exec_memory *exec_memory_new(uint64_t capacity);
void exec_memory_free(exec_memory *m);
ptx_status exec_malloc(exec_memory *m, uint64_t bytes, uint64_t align, uint64_t *out_addr);
ptx_status exec_free(exec_memory *m, uint64_t addr);
/* The driver's virtual memory management: a block of reserved addresses is
 * valid (exec_memory_valid: copies, --check memory) only in the ranges
 * mapped into it; on = false undoes either. */
ptx_status exec_memory_reserve(exec_memory *m, uint64_t addr, bool on);
ptx_status exec_memory_map(exec_memory *m, uint64_t addr, uint64_t bytes, bool on);
/* The device heap kernels' malloc and free take from: one allocation of
 * `bytes` (cudaLimitMallocHeapSize), made at the first launch that may call
 * them -- before its warps start, so that they reach all of it -- and kept.
 * exec_heap_malloc gives 0 once it cannot find room (as malloc's NULL);
 * exec_heap_free PTX_E_INVALID_VALUE for an address malloc did not give. */
ptx_status exec_heap_ready(exec_memory *m, uint64_t bytes);
#define EXEC_DEFAULT_HEAP_BYTES (8ull << 20)   /* CUDA's default; exec_launch.heap_bytes 0 */
bool exec_heap_made(const exec_memory *m);
uint64_t exec_heap_malloc(exec_memory *m, uint64_t bytes);
ptx_status exec_heap_free(exec_memory *m, uint64_t addr);
/* Keep freed blocks' addresses out of reuse while there is other room, so
 * a later access through a stale pointer still names the freed block
 * (memory checking). */
void exec_memory_keep_freed(exec_memory *m, bool on);
/* The allocation containing [addr, addr+bytes), or the nearest one. */
bool exec_memory_find(const exec_memory *m, uint64_t addr, exec_alloc_info *out);
/* True if [addr, addr+bytes) lies inside one live allocation. */
bool exec_memory_valid(const exec_memory *m, uint64_t addr, uint64_t bytes);
/* The same with the signature isa_mem.check wants. */
bool exec_memory_check(const void *m, uint64_t addr, uint64_t bytes);
uint64_t exec_memory_capacity(const exec_memory *m);
/* The end of the address range device memory reserves (windows first). */
uint64_t exec_memory_end(const exec_memory *m);
uint64_t exec_memory_in_use(const exec_memory *m);
const isa_mem *exec_memory_windows(const exec_memory *m);

/* Texture and surface objects: views of device memory kernels reach by
 * handle (tex, tld4, suld, sust).  The handle is what the program passes as
 * its cudaTextureObject_t or cudaSurfaceObject_t. */
ptx_status exec_image_create(exec_memory *m, const isa_image *img, uint64_t *handle);
ptx_status exec_image_destroy(exec_memory *m, uint64_t handle);

/* ---- programs ------------------------------------------------------------ */

typedef struct exec_program exec_program;

typedef struct exec_param_info {
    uint32_t offset, bytes;
} exec_param_info;

typedef struct exec_kernel_info {
    const char *name;
    uint32_t nparams;
    const exec_param_info *params;
    uint32_t param_bytes;
    uint32_t static_shared;     /* bytes of .shared the kernel (and its callees) names */
    uint32_t local_bytes;       /* per-thread local memory, frames included */
    uint32_t regs;              /* registers per thread (64-bit columns, all frames) */
    /* What the machine code allocates per thread, when the loader knows it
     * (exec_program_set_machine_regs; 0: unknown), and where it was read:
     * the real occupancy comes from this, not from the PTX count. */
    uint32_t machine_regs;
    const char *machine_regs_from;
    uint32_t sm;                /* the .target of the PTX it came from (sm_90: 90; 0: none given) */
    uint32_t maxntid[3], reqntid[3];
    uint32_t cluster[3];        /* .reqnctapercluster (__cluster_dims__); 0: none */
    uint32_t maxclusterrank;    /* .maxclusterrank; 0: none */
    bool explicit_cluster;      /* .explicitcluster */
} exec_kernel_info;

/* Lay the module out in device memory and decode it for execution.  The
 * module must outlive the program. */
ptx_status exec_program_load(exec_memory *mem, const isa_module *m, exec_program **out,
                             ptx_diag *diag);
void exec_program_free(exec_program *p);
const isa_module *exec_program_module(const exec_program *p);
/* Kernel by name: its index for exec_launch_run, or -1. */
int exec_program_kernel(const exec_program *p, const char *name);
const exec_kernel_info *exec_program_kernel_info(const exec_program *p, int kernel);
/* Record the registers per thread the machine code of `kernel` uses and
 * where the count came from (a static string, e.g. "cubin sm_75"). */
void exec_program_set_machine_regs(exec_program *p, int kernel, uint32_t regs, const char *from);
/* Device address and size of a module-scope .global/.const variable. */
bool exec_program_symbol(const exec_program *p, const char *name, uint64_t *addr, uint64_t *bytes);

/* ---- calls to the host ------------------------------------------------- */

/* A call, by one lane, to a function the module declares but does not
 * define and the engine does not provide itself (vprintf, __assertfail,
 * the device runtime's entry points).  The runtime answers it. */
#define EXEC_HOST_MAX_ARGS 8
typedef struct exec_host_call {
    const char *name;
    uint32_t ctaid[3], tid[3];
    uint32_t nctaid[3], ntid[3];
    const uint64_t *args;       /* each argument's value, zero-extended to 64 bits */
    unsigned nargs;
    /* Each argument whole (a dim3 is 12 bytes), in the caller's frame. */
    const void *arg_bytes[EXEC_HOST_MAX_ARGS];
    uint32_t arg_size[EXEC_HOST_MAX_ARGS];
    const void *warp;           /* for exec_host_ptr */
    uint32_t lane;
    FILE *out;                  /* where what it prints goes (NULL: stdout) */
} exec_host_call;

/* The host memory behind a generic address as the calling lane sees it, and
 * how many bytes from there on are valid (*avail); NULL if none are. */
void *exec_host_ptr(const exec_host_call *c, uint64_t addr, uint64_t *avail);

/* Returns PTX_OK with *ret set, or a failure that ends the launch (an
 * assertion: PTX_E_ASSERT). */
typedef ptx_status (*exec_host_fn)(void *ctx, const exec_host_call *c, uint64_t *ret);

/* The kernel (exec_program_kernel's index) whose address (`mov.u64 %rd,
 * kernel`) is addr, in the calling lane's program; -1 if none is. */
int exec_host_kernel_at(const exec_host_call *c, uint64_t addr);
/* The program the calling lane runs. */
const exec_program *exec_host_program(const exec_host_call *c);

/* Names the engine or the host answers; a module that calls any other
 * undefined function is refused at load.  The device runtime's entry
 * points (exec_is_device_runtime) are among them: a module built with
 * -rdc=true -lcudadevrt carries the library's PTX, which calls them. */
bool exec_is_builtin(const char *name);
bool exec_is_device_runtime(const char *name);

/* ---- launches ------------------------------------------------------------ */

/* Instructions a warp runs before the next one gets its turn in the
 * functional scheduler (and the debugger, which must run in the same
 * order).  Large enough that switching costs nothing measurable (under 0.1%
 * on matmul_shared), small enough that a warp spinning on a flag lets the
 * writer run soon. */
#define EXEC_SLICE 4096

/* A hazard the race check found (--check race): two threads of a block
 * accessed the same shared byte, at least one writing, with no barrier
 * between them; or (check_race_global) two threads of a launch did so to a
 * global byte with nothing ordering them.  pc[0], ctaid[0], tid[0] is the
 * earlier access. */
typedef struct exec_race_report {
    const char *kernel;
    const char *kind;           /* "read-after-write", "write-after-read", "write-after-write" */
    bool global;                /* global memory (else shared) */
    uint32_t ctaid[2][3];
    uint64_t addr;              /* offset in shared memory, or the global address */
    uint32_t pc[2];
    uint32_t tid[2][3];
    char msg[1024];             /* the whole report, one paragraph */
} exec_race_report;

/* Called once per hazard (per pair of instructions and kind, per launch). */
typedef void (*exec_race_fn)(void *ctx, const exec_race_report *r);

/* How far a long launch has come, for a caller that shows it
 * (exec_launch.progress). */
typedef struct exec_progress {
    uint64_t warp_insts;        /* executed so far */
    uint64_t ctas_done, ctas_total;
    uint64_t cycles;            /* timing mode: simulated cycles so far; functional: 0 */
} exec_progress;
typedef void (*exec_progress_fn)(void *ctx, const exec_progress *p);

/* Host threads that run the CTAs of functional launches side by side
 * (grid.c has the rules that keep the results those of one thread).  One
 * pool serves every launch; `threads` counts the calling thread, which
 * works too. */
typedef struct exec_pool exec_pool;
exec_pool *exec_pool_new(uint32_t threads);
void exec_pool_free(exec_pool *p);
uint32_t exec_pool_threads(const exec_pool *p);
/* Work for helpers no launch needs: fn runs on one when poked, again for
 * as long as it returns true (it found something to do), and on the next
 * helper to come back from a launch when none was idle at the poke.  The
 * runtime's runs queued kernels of other streams there (rt_queue.c). */
void exec_pool_set_idle_work(exec_pool *p, bool (*fn)(void *ctx), void *ctx);
void exec_pool_poke(exec_pool *p);

/* A recursive kernel's per-thread stack, at least: its frames grow at run
 * time into this much local memory beyond its other frames, or more where
 * the launch asks (exec_launch.stack_bytes).  A GPU's default is 1 KB
 * (cudaLimitStackSize); recursion that fits a GPU's stack fits here. */
#define EXEC_RECURSION_STACK_BYTES 16384

typedef struct exec_launch {
    uint32_t grid[3], block[3];
    uint32_t dynamic_shared;
    uint64_t stack_bytes;       /* a recursive kernel's stack per thread (cudaLimitStackSize), if more */
    uint64_t heap_bytes;        /* the device heap's size (cudaLimitMallocHeapSize; exec_heap_ready; 0: 8 MiB) */
    const void *args;           /* the parameter buffer, laid out per exec_param_info */
    uint64_t max_warp_insts;    /* hang guard; 0 = the default */
    uint32_t nsm;               /* SMs to report in %nsmid / spread %smid over */
    uint32_t sm_warps;          /* warps an SM holds: %nwarpid (0: the block's warps) */
    exec_host_fn host;          /* answers vprintf and friends (may be NULL) */
    void *host_ctx;
    bool cooperative;           /* all CTAs resident at once (grid-wide sync) */
    /* A warp's lanes run in lockstep only, as on GPUs before Volta
     * (compute capability below 7.0): a spin lock held within a warp is a
     * livelock.  Otherwise lanes a spinning or waiting warp holds back
     * get their turn, as independent thread scheduling gives it (warp.c,
     * exec_warp_run_others: after failing atomics, a warp sync or barrier
     * that waits for them, or the loop watch's proof, hang.c). */
    bool lockstep;
    /* Thread block clusters: CTAs per cluster in each dimension (the
     * launch attribute); all 0: the kernel's .reqnctapercluster, or no
     * clusters (clusters of one CTA).  A cluster's CTAs are resident
     * together and share their shared memory (mapa, barrier.cluster). */
    uint32_t cluster[3];
    bool check_memory;          /* every global access must lie in a live allocation */
    bool check_race;            /* report shared-memory hazards (race.c) */
    bool check_race_global;     /* and global-memory ones (race_global.c); implies check_race */
    exec_race_fn on_race;       /* where they go (may be NULL: only counted) */
    void *race_ctx;
    /* Called now and then while the launch runs (after each CTA or cluster
     * functionally, every few thousand steps of the timing model); may be
     * NULL.  It must not touch the launch. */
    exec_progress_fn progress;
    void *progress_ctx;
    /* exec_launch_run: run CTAs on the pool's threads (NULL: the calling
     * thread alone).  Ignored where one thread must run the launch: see
     * exec_launch_threads. */
    exec_pool *pool;
    /* exec_launch_run: how warps run.  The interpreter is the reference;
     * the compiled tier (jit/) runs straight-line code as host code and is
     * used only where nothing watches single instructions: a launch with
     * --check memory or race is interpreted whatever this says.  jit_hot:
     * how much running a function's code must have cost before it is
     * compiled optimised, in the background -- warp-instructions run in one
     * of its blocks per instruction compiled (0: all code, at once, before
     * the launch runs; compiled.c); jit_warm: the same for its quick
     * compile (jit.h's JIT_QUICK), which comes first (0: none);
     * jit_quick_only: quick compiles alone, never optimised (with jit_hot
     * 0, all code quick before the launch runs: for the tests).  The first
     * launch of a program that asks for the tier fixes them. */
    uint8_t engine;             /* exec_engine */
    uint32_t jit_warm, jit_hot;
    bool jit_quick_only;
    /* Non-NULL: each compile says there what it made of each function
     * (level, instructions, what it left to the interpreter and why). */
    FILE *jit_log;
    /* Where what kernels print goes (NULL: stdout). */
    FILE *out;
    /* Memory the launch reads may change from outside it (a host running
     * beside it): the loop watch proves a launch hung only once this says
     * nothing outside can write any more (true); false means it waited for
     * that, and the proof starts over.  NULL: nothing outside writes.
     * `writes`: the count of writes (below) every worker proved its blocks
     * loop at. */
    bool (*settled)(void *ctx, uint64_t writes);
    /* A worker's resident blocks have written nothing others could see
     * for EXEC_QUIET_LONG warp-instructions and no more blocks of the
     * launch can come: they may wait for work outside it (another
     * stream's kernel) through a loop the watch cannot prove, one that
     * reads the clock (a wait with back-off).  Returns true if the caller
     * ran such work meanwhile.  NULL: nothing outside runs. */
    bool (*quiet)(void *ctx);
    void *watch_ctx;            /* what settled and quiet are given */
    /* The loop watch's count of instructions that may have written memory,
     * shared with launches that run at the same time (any write of theirs
     * starts a proof over), or NULL: the launch counts its own. */
    uint64_t *writes;
} exec_launch;

/* Warp-instructions without a visible write before exec_launch.quiet:
 * far beyond what blocks that compute before they write run (a few
 * hundred thousand to a few million), a fifth of a second interpreted. */
#define EXEC_QUIET_LONG (1u << 24)

typedef enum { EXEC_ENGINE_INTERP, EXEC_ENGINE_JIT } exec_engine;
/* The default jit_hot.  On the development machine (an AMD EPYC, 2
 * cores) compiling costs about 9 ms of host time an instruction and 0.3 s
 * a compile (the ~40 instructions' worth added to every unit),
 * interpreting about 90 ns a warp-instruction: a unit is compiled once
 * interpreting it has cost four times what compiling it will, so that a
 * program that ends just after (and waits for the compile at its launch's
 * end) pays at most a fifth more than interpreting
 * (docs/results/jit.md, bench/run-jit-samples). */
#define EXEC_JIT_HOT 400000
#define EXEC_JIT_FIXED 40
/* The default jit_warm, and what every quick compile costs besides its
 * instructions, in the same measure: quick code compiles in about 0.23 ms
 * an instruction and 7 ms a compile, so a unit is compiled quick once
 * interpreting it has cost four times that, as for EXEC_JIT_HOT. */
#define EXEC_JIT_WARM 10000
#define EXEC_JIT_QUICK_FIXED 30

/* What a program's compiles have done so far. */
typedef struct exec_jit_summary {
    double seconds;             /* host time they took */
    uint64_t quick, optimised;  /* instructions compiled at each level */
    uint64_t cached;            /* of them, those whose code came from a cache */
    const char *why;            /* why a compile failed (the program then runs interpreted), or NULL */
} exec_jit_summary;

/* Whether p has asked for the compiled tier, and what its compiles have
 * done (*out). */
bool exec_program_engine(exec_program *p, exec_jit_summary *out);

typedef struct exec_stats {
    uint64_t warp_insts;        /* warp-instructions issued */
    uint64_t thread_insts;      /* active lanes summed over them */
    uint64_t mem_ops[ISA_SPACE_COUNT];  /* warp-level memory instructions by space */
    uint64_t compiled_insts;    /* of warp_insts, those run compiled (jit/); which ones
                                   depends on when the background compiles land */
    uint64_t ctas;
    uint64_t races;             /* distinct hazards (check_race) */
} exec_stats;

/* Add s's counts to `to`. */
void exec_stats_add(exec_stats *to, const exec_stats *s);

/* What went wrong in a launch, with where. */
typedef struct exec_error {
    ptx_status st;
    const char *kernel;
    uint32_t pc, ptx_line;
    const char *src_file;
    uint32_t src_line;
    uint32_t ctaid[3], tid[3];
    uint64_t addr;
    uint32_t bytes;
    uint8_t space;
    char msg[1024];             /* the whole report, one paragraph */
} exec_error;

/* Run a whole launch functionally. */
ptx_status exec_launch_run(exec_program *p, int kernel, const exec_launch *l, exec_stats *stats,
                           exec_error *err);

/* How many host threads exec_launch_run would run this launch on, and, when
 * that is one although the pool has more, why (a static string): a
 * cooperative launch (grid-wide sync needs every CTA resident, and one
 * thread keeps them so), the race checks (their shadows and reports are
 * the launch's), a kernel that calls printf, malloc, free or assert (the
 * order of output and heap addresses is one thread's), or too few CTAs. */
uint32_t exec_launch_threads(const exec_program *p, int kernel, const exec_launch *l, const char **why);

/* ---- stepping: the contract with the timing model and the debugger ------- */

/* A launch in progress.  The caller creates CTAs when it has room for them,
 * steps their warps one instruction at a time with a lane mask of its
 * choosing, releases barriers, and retires CTAs when they are done. */
typedef struct exec_grid exec_grid;
typedef struct exec_cta exec_cta;
typedef struct exec_warp exec_warp;

ptx_status exec_grid_begin(exec_program *p, int kernel, const exec_launch *l, exec_grid **out,
                           exec_error *err);
void exec_grid_end(exec_grid *g);
uint64_t exec_grid_ctas(const exec_grid *g);        /* CTAs in the launch */
const exec_kernel_info *exec_grid_kernel(const exec_grid *g);

/* Clusters: CTAs per cluster (1 without clusters), and the launch number
 * (x fastest) of the CTA of rank `rank` in cluster `cluster` (clusters
 * numbered x fastest too).  A caller that places CTAs cluster by cluster,
 * every CTA of a cluster at once, gives them what they need; a CTA that
 * reaches another CTA of its cluster not begun or already ended faults. */
uint32_t exec_grid_cluster_size(const exec_grid *g);
uint64_t exec_grid_cluster_cta(const exec_grid *g, uint64_t cluster, uint32_t rank);

/* CTA number `linear` (x fastest) of the launch, placed on SM `smid`. */
ptx_status exec_cta_begin(exec_grid *g, uint64_t linear, uint32_t smid, exec_cta **out);
void exec_cta_end(exec_cta *c);
/* The same, taking a finished CTA for reuse from *spare and leaving it
 * there.  Without clusters, a CTA begun so writes nothing of the grid's: a
 * caller with a list of its own per host thread (or per SM) may begin and
 * end CTAs on several threads at once.  A list is the grid's and ends
 * before it (exec_cta_spares_free). */
ptx_status exec_cta_begin_from(exec_grid *g, exec_cta **spare, uint64_t linear, uint32_t smid, exec_cta **out);
void exec_cta_end_to(exec_cta *c, exec_cta **spare);
void exec_cta_spares_free(exec_cta **spare);
/* Keep for grid g's CTAs those of a list kept from an earlier grid (ended
 * since) that have the room they need, and free the others: a caller that
 * keeps its lists from launch to launch neither frees nor allocates them
 * again for launches of blocks of the same shape. */
void exec_cta_spares_adopt(exec_grid *g, exec_cta **spare);
uint32_t exec_cta_nwarps(const exec_cta *c);
exec_warp *exec_cta_warp(exec_cta *c, uint32_t i);
/* True when every warp has finished. */
bool exec_cta_done(const exec_cta *c);
/* Set the time %clock and %clock64 read in this CTA (timing models). */
void exec_cta_set_clock(exec_cta *c, uint64_t cycle);
/* Put the CTA's global stores (st) in log instead of memory (NULL: in
 * memory), for a timing model to apply in its own order (isa_store_log). */
void exec_cta_log_stores(exec_cta *c, isa_store_log *log);
/* Release barriers whose threads have all arrived (barrier.cluster: every
 * live thread of the cluster).  Returns false when some warp waits at a
 * barrier that can never complete, or every running warp spins on an
 * mbarrier nobody can complete (err describes it); a CTA of a cluster
 * whose other CTAs still run is never declared stuck. */
bool exec_cta_sync(exec_cta *c, exec_error *err);

/* A warp whose mbarrier test_wait or try_wait fails keeps running (it loops
 * and asks again), but its turn ends there so the warps it waits for run
 * (exec_warp_yielded tells a scheduler).  Once every running warp of a CTA
 * has failed EXEC_SPIN_LIMIT waits in a row at one pc, a few instructions
 * apart, with no mbarrier of the CTA changed meanwhile, and no barrier can
 * be released, nothing can complete those barriers: exec_cta_sync reports
 * a deadlock. */
#define EXEC_SPIN_LIMIT 4096

enum { EXEC_WARP_RUNNING, EXEC_WARP_BARRIER, EXEC_WARP_DONE };
/* True when the warp's last instruction was a failed mbarrier wait. */
bool exec_warp_yielded(const exec_warp *w);
int exec_warp_state(const exec_warp *w);
/* The next instruction's pc and the lanes that would execute it. */
uint32_t exec_warp_pc(const exec_warp *w);
uint32_t exec_warp_active(const exec_warp *w);
const isa_inst *exec_warp_inst(const exec_warp *w);

/* What one executed warp-instruction did: the whole contract with a timing
 * model.  Register numbers are the instruction's own (per function). */
/* The most registers one instruction writes and reads: wmma.mma with f32
 * fragments writes 8 and reads 24 (and a guard). */
#define EXEC_MAX_DST 8
#define EXEC_MAX_SRC 32

typedef struct exec_record {
    uint32_t pc, next_pc;
    const isa_inst *inst;
    uint8_t family;             /* isa_family, refined by type (isa_inst_family) */
    uint8_t lat;                /* isa_lat, refined by type (isa_inst_lat) */
    uint32_t issued;            /* lanes that issued (the mask stepped) */
    uint32_t active;            /* lanes that executed (guard applied) */
    uint8_t ndst, nsrc;
    uint16_t dst[EXEC_MAX_DST], src[EXEC_MAX_SRC]; /* registers written and read (EXEC_REG_PRED marks predicates) */
    bool mem;                   /* access below is valid */
    isa_access access;          /* per-lane addresses, space, size */
    uint8_t ctl;                /* 0, or the PTX_CTL_* outcome */
    uint32_t taken;             /* branch: lanes that took it */
    bool diverged;              /* the branch split the warp */
    uint32_t rpc;               /* reconvergence point of a divergent branch */
} exec_record;

#define EXEC_REG_PRED 0x8000u

/* Fill rec's register lists (ndst, dst, nsrc, src) for an instruction of
 * the warp's program, as a scoreboard needs them before the instruction
 * executes.  The guard predicate counts as a source. */
void exec_inst_regs(const exec_warp *w, const isa_inst *in, exec_record *rec);

/* Whether instruction `in` of the warp's program keeps what it does to
 * the warp's CTA -- its registers, its CTA's shared memory, its lanes'
 * local memory -- and reads global memory at most.  The timing model steps
 * its SMs on several host threads at once up to the first instruction for
 * which this is false (a store, atomic or reduction to global or generic
 * addresses, a copy out of shared memory, a call of the runtime's device
 * functions: printf, malloc), and runs the rest in SM order. */
bool exec_inst_private(const exec_warp *w, const isa_inst *in);
/* ... and whether one that is not is a store the CTA's log would take
 * (exec_cta_log_stores): st to global or generic addresses. */
bool exec_inst_logged(const isa_inst *in);

/* The per-lane addresses the warp's next instruction (a load or store)
 * would access, without executing it (a timing model's oracle).  False if
 * the next instruction does not access memory. */
bool exec_warp_peek_access(const exec_warp *w, isa_access *out);

/* Execute the instruction at the warp's pc for the lanes in `lanes` that
 * are active there (all of them: pass ~0u).  Lanes left out stay at this pc
 * and run it later; they reconverge with the others at the current
 * reconvergence point.  rec may be NULL. */
ptx_status exec_warp_step(exec_warp *w, uint32_t lanes, exec_stats *stats, exec_record *rec,
                          exec_error *err);

/* Diverge on miss (Tarjan, Meng, Skadron): a timing model lets the lanes
 * of a load that hit run ahead of those that missed.  The engine keeps the
 * parked lanes in a SIMT entry of their own just below the running one,
 * with the same reconvergence point, so every lane still runs exactly its
 * own instructions in order; the model decides when they join again.
 *
 * exec_warp_park   park `lanes` (a proper subset of the running ones) at the
 *                  warp's pc; the rest keep running.
 * exec_warp_park_join park `lanes` (the same) with the sibling entry, which
 *                  stands at the same pc: they join its lanes.
 * exec_warp_sibling the entry just below the running one, if it is a sibling
 *                  (same reconvergence point, same call): its pc and lanes.
 * exec_warp_rejoin merge `lanes` of the sibling (all of them: the sibling
 *                  goes) into the running entry when both stand at the same
 *                  pc (false otherwise).
 * exec_warp_swap   run the sibling first (forced reconvergence: the parked
 *                  lanes catch up with the others, which wait).
 * exec_warp_raise  make the entry with exactly `lanes`, among the siblings
 *                  stacked just below the running entry, the first of them
 *                  (the one exec_warp_sibling names); false if none is.
 *                  Siblings have lanes of their own and one reconvergence
 *                  point, so their order is free: the model finds a parked
 *                  group by its pc, as the paper's table does. */
ptx_status exec_warp_park(exec_warp *w, uint32_t lanes);
ptx_status exec_warp_park_join(exec_warp *w, uint32_t lanes);
bool exec_warp_sibling(exec_warp *w, uint32_t *pc, uint32_t *lanes);
bool exec_warp_rejoin(exec_warp *w, uint32_t lanes);
bool exec_warp_swap(exec_warp *w);
bool exec_warp_raise(exec_warp *w, uint32_t lanes);

/* Pre-execution (P-mode, Kim et al.): a timing model runs a copy of a
 * warp stalled on memory ahead of it, to learn the addresses of later loads
 * and the outcomes of independent instructions.  The copy shares the CTA's
 * memory; the caller steps only instructions without side effects (it
 * skips stores, atomics and barriers), so the copy never changes what the
 * program computes.  The race check never sees a copy's accesses.
 *
 * exec_warp_copy      make *copy (allocated on first use, reused after) a
 *                     copy of w: registers, predicates, SIMT stack, frames.
 * exec_warp_next      drop SIMT entries that have finished; the instruction
 *                     the warp runs next, or NULL when it has none.
 * exec_warp_skip      move past the next instruction without executing it
 *                     (not a control instruction); false when nothing is left.
 * exec_warp_reg_keys  how many registers and predicates a frame may name. */
ptx_status exec_warp_copy(const exec_warp *w, exec_warp **copy);
void exec_warp_copy_free(exec_warp *copy);
const isa_inst *exec_warp_next(exec_warp *w);
bool exec_warp_skip(exec_warp *w);
void exec_warp_reg_keys(const exec_warp *w, uint32_t *nregs, uint32_t *npreds);

/* Default per-launch instruction budget (a kernel that runs longer is
 * reported as hung). */
#define EXEC_DEFAULT_MAX_WARP_INSTS (1ull << 36)

/* ---- inspection: the debugger's view ---- */

/* Read-only views of a loaded program and of a launch stopped between two
 * warp-instructions, for tools that show state to a person (the debugger).
 * None of these is meant for a hot path.  Pcs are the program's global pcs
 * (all functions' code laid end to end), as exec_warp_pc returns them. */

/* The program's code as laid out for execution (symbols resolved). */
uint32_t exec_program_ncode(const exec_program *p);
const isa_inst *exec_program_inst(const exec_program *p, uint32_t pc);
/* The module function (index into isa_module.funcs) holding pc. */
uint32_t exec_program_func_of(const exec_program *p, uint32_t pc);
/* The pcs [start, end) of module function `func`. */
void exec_program_func_range(const exec_program *p, uint32_t func, uint32_t *start, uint32_t *end);
/* Where pc comes from: its PTX line, and its CUDA file and line when the
 * PTX has line information (*out_file NULL otherwise); and the same as
 * "PTX line N (file:line)", as reports write it. */
void exec_program_where(const exec_program *p, uint32_t pc, uint32_t *out_ptx_line,
                        const char **out_file, uint32_t *out_line);
void exec_program_where_text(const exec_program *p, uint32_t pc, char *buf, size_t n);
/* The .shared variable holding shared-memory offset off, and the offset
 * in it; false if none does. */
bool exec_program_shared_var(const exec_program *p, uint64_t off, const char **out_name,
                             uint64_t *out_offset);
/* The device address of a kernel's parameter buffer (0 if no such kernel). */
uint64_t exec_program_param_addr(const exec_program *p, int kernel);
/* Launches of one kernel that may run at once (one beside another that
 * waits for it, rt_queue.c): each has its own parameters. */
#define EXEC_PARAM_SLOTS 8
/* Whether one more launch of the kernel may begin while those running run. */
bool exec_kernel_may_begin(const exec_program *p, int kernel);
/* Whether the kernel calls malloc, free, assert or the device runtime: its
 * launches run on one thread, and one such launch at a time (the device
 * heap is one). */
bool exec_kernel_serial(const exec_program *p, int kernel);
exec_memory *exec_program_memory(const exec_program *p);
/* Where module variable `var` lives: a device address (.global, .const,
 * kernel parameters), an offset in shared memory, or an offset in its
 * function's local-memory frame (.local and device-function .param). */
uint64_t exec_program_var_addr(const exec_program *p, uint32_t var);

/* A CTA of a launch in progress. */
void exec_cta_id(const exec_cta *c, uint32_t out_ctaid[3]);
/* Its rank in its cluster and the cluster's size (0 and 1 without clusters). */
uint32_t exec_cta_cluster_rank(const exec_cta *c, uint32_t *out_size);
/* Its shared memory (static plus dynamic) and how many bytes it has. */
uint8_t *exec_cta_shared(exec_cta *c, uint32_t *out_bytes);
/* Threads that have arrived at barrier `bar` (0..15) and not been released. */
uint32_t exec_cta_bar_arrived(const exec_cta *c, unsigned bar);

/* A warp of a launch in progress. */
exec_cta *exec_warp_cta(const exec_warp *w);
uint32_t exec_warp_index(const exec_warp *w);         /* warp number in its CTA */
uint32_t exec_warp_valid(const exec_warp *w);         /* lanes that exist */
uint32_t exec_warp_exited(const exec_warp *w);        /* lanes that have exited */
uint32_t exec_warp_barrier(const exec_warp *w);       /* barrier waited at (EXEC_WARP_BARRIER) */
void exec_warp_tid(const exec_warp *w, unsigned lane, uint32_t out_tid[3]);

/* One entry of the SIMT reconvergence stack: the lanes in mask run from pc
 * until they reach rpc (ISA_PC_EXIT: never; 0xFFFFFFFE: a call's entry,
 * ended by its return). */
typedef struct exec_simt_view {
    uint32_t pc, rpc, mask;
} exec_simt_view;
/* Copies up to `max` entries, bottom first (the last one executes); returns
 * the stack's depth. */
uint32_t exec_warp_stack(const exec_warp *w, exec_simt_view *out, uint32_t max);
/* Lanes that wait in a call's caller while their warp-mates spin inside it
 * run as a lane group of their own (independent thread scheduling), with
 * its own stack: true if `lane` is in such a group, not the one running
 * (not in exec_warp_stack), with the pc it waits at.  Registers read by
 * lane are that lane's group's. */
bool exec_warp_lane_apart(const exec_warp *w, unsigned lane, uint32_t *pc);

/* Call frames.  Level 0 is the function executing now, level 1 its caller,
 * up to level exec_warp_depth(w) - 1, the kernel. */
typedef struct exec_frame_view {
    uint32_t func;              /* module function index */
    uint32_t pc;                /* level 0: the next pc; above: the call instruction */
    uint64_t local;             /* the frame's offset in each lane's local memory */
} exec_frame_view;
uint32_t exec_warp_depth(const exec_warp *w);
bool exec_warp_frame(const exec_warp *w, uint32_t level, exec_frame_view *out);
/* Register `reg` (a dense index of the frame's function) of one lane, as
 * the 64 bits of its column; predicate `pred` of one lane.  Out-of-range
 * registers read as 0. */
uint64_t exec_warp_reg(const exec_warp *w, uint32_t level, uint32_t reg, unsigned lane);
bool exec_warp_pred(const exec_warp *w, uint32_t level, uint32_t pred, unsigned lane);
/* One lane's local memory (every frame of it) and its size. */
uint8_t *exec_warp_local(exec_warp *w, unsigned lane, uint32_t *out_bytes);
/* Describe a failure of warp w at its pc, as the engine's own reports do
 * (a launch driven by exec_warp_step that gives up, e.g. on a budget). */
void exec_warp_error(exec_warp *w, ptx_status st, exec_error *err);

/* The loop watch for a launch driven by exec_warp_step (functional mode
 * runs it by itself): called every so many warp-instructions with the
 * resident CTAs ctas[0..n) and the warp-instructions issued since the last
 * call, it returns a warp that repeats a loop when no warp of them can
 * ever make progress again (every running one repeats a loop that changes
 * nothing while the others wait at barriers), else NULL.  Report it with
 * exec_warp_error(w, PTX_E_HANG, err), which then explains the proof.
 * *moved says whether it ran other lanes of looping warps instead (unless
 * exec_launch.lockstep): their next instruction may have changed. */
exec_warp *exec_hang_check(exec_grid *g, exec_cta *const *ctas, uint64_t n, uint64_t insts, bool *moved);

#endif /* PTXSIM_EXEC_H */

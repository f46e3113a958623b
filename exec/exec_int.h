/*
 * exec_int.h -- the engine's internal structures (internal to exec/).
 */
#ifndef PTXSIM_EXEC_INT_H
#define PTXSIM_EXEC_INT_H

#include "exec.h"
#include "jit.h"

#include <pthread.h>

/* Functions' code is concatenated into one array, so a pc is global to the
 * program and a call is a jump to the callee's first instruction. */
typedef struct exec_func {
    uint32_t start, end;            /* [start, end) in exec_program.code */
    uint16_t nregs, npreds;         /* this function's register window */
    uint32_t frame_bytes;           /* its local-memory frame */
    const isa_func *ir;
    /* The registers it may read before writing them (live_in.c): those a
     * functional launch's new frame zeroes; every one when !analysed. */
    uint16_t *live_in;
    uint32_t nlive_in;
    bool analysed;
} exec_func;

/* A kernel parameter buffer lives in device memory so ld.param (and
 * generic pointers to parameters) are plain loads. */
typedef struct exec_kernel {
    exec_kernel_info info;
    uint32_t func;                  /* index into exec_program.funcs */
    /* The buffer in device memory: EXEC_PARAM_SLOTS of param_stride
     * bytes, one for each launch running at once.  The code names the
     * first; a launch in slot i reaches its own through
     * isa_mem.param_shift.  Bit i of slots_used: slot i is taken. */
    uint64_t param_addr;
    uint32_t param_stride;
    uint32_t slots_used;
    uint32_t max_regs, max_preds;   /* register file over the deepest call chain */
    bool recursive;                 /* its stack grows at run time: a cycle in the call graph, or alloca */
    uint32_t frame_bytes;           /* local memory of its deepest chain of calls that do not recur */
    /* It (or a callee) calls malloc, free or __assertfail: its launches run
     * on one host thread, so the heap's addresses, and where an assertion's
     * message falls among the output, are one thread's (exec_launch_threads).
     * It calls vprintf: with several threads each unit of CTAs prints into a
     * buffer of its own, printed in launch order (exec_launch_run), so the
     * output is one thread's. */
    bool calls_serial, calls_print;
    bool calls_heap;                /* it (or a callee) calls malloc or free: the device heap is made first */
    bool jit_marked;                /* eager compiling: its units have been compiled */
    uint8_t *shared_map;            /* memory checking: see exec_kernel_shared_map */
    bool *vars_used;                /* by module variable: it (or a callee) names it (NULL: not known) */
} exec_kernel;

/* Memory checking: one byte per byte of the module's static shared memory,
 * 1 where a .shared variable the kernel (or its callees) names lies, so an
 * access between or into other kernels' variables is caught.  Made at the
 * first checked launch, kept with the program; NULL when the module has no
 * static shared memory or memory is short (then only the size is checked). */
const uint8_t *exec_kernel_shared_map(exec_program *p, exec_kernel *k);

/* Where the interpreter may enter compiled code (compiled.c): a block of a
 * unit (a function's code, compiled whole), with the unit's function once
 * there is one. */
typedef struct exec_region {
    jit_fn *fn;                     /* set once (atomically) when compiled; NULL until then */
    uint32_t unit;                  /* index into exec_program.units */
    uint32_t len;                   /* instructions to the next block's start */
    uint64_t work;                  /* warp-instructions entered here, counted to `hot` */
    uint64_t warm, hot;             /* the work that compiles its unit quick, optimised (compiled.c) */
} exec_region;

typedef struct exec_unit {
    uint32_t start, n;              /* the function's instructions [start, start + n) */
    uint32_t first, nregions;       /* its blocks: exec_program.regions[first, first + nregions) */
    uint8_t level;                  /* handed to the compiler: 0 not yet, else 1 + jit_level (jit_lock) */
    bool probed;                    /* the caches asked for its optimised code, once warm (jit_lock) */
    bool made;                      /* ... and they have it: taken at warm, instead of quick code */
} exec_unit;

/* The regions of p by the pc they start at (NULL where none does), cut at
 * the first call, which also fixes the thresholds (l's jit_warm, jit_hot,
 * jit_quick_only): hot 0 compiles every unit of `kernel` and what it may
 * call now, before the launch; else a unit is compiled quick in the
 * background once one of its regions has run `warm` warp-instructions per
 * instruction of it, and optimised once one has run `hot`
 * (exec_program_hot).
 * NULL when out of memory. */
exec_region *const *exec_program_regions(exec_program *p, const exec_launch *l, int kernel);
/* The functions kernel function fi may reach by calls (a calloc'd flag per
 * function, which the caller frees), or NULL when out of memory. */
bool *exec_program_reachable(exec_program *p, uint32_t fi);
/* A region has just become warm or hot: start the compiler thread if it
 * is idle. */
void exec_program_hot(exec_program *p);

/* Fill each function's live_in (live_in.c); a function left unanalysed
 * (too large, or out of memory) has every register zeroed. */
void exec_program_live_in(exec_program *p);
/* Zero a new frame of ef's registers at regs: those it may read before
 * writing them, or, with all (timing runs, the debugger), every one. */
void exec_frame_zero(const exec_func *ef, uint64_t *regs, bool all);

/* Count n warp-instructions run from rg's unit, interpreted or compiled,
 * until the unit is hot.  Without a locked add: a count another host
 * thread overwrites only makes the block hot a little later, and asking
 * twice for a compile is harmless.  A warp adds its work in batches of up
 * to EXEC_CREDIT_BATCH while it stays in one unit (warp.c). */
#define EXEC_CREDIT_BATCH 4096

static inline void exec_region_credit(exec_program *p, exec_region *rg, uint64_t n)
{
    uint64_t was = __atomic_load_n(&rg->work, __ATOMIC_RELAXED);
    if (was >= rg->hot)
        return;
    __atomic_store_n(&rg->work, was + n, __ATOMIC_RELAXED);
    if ((was < rg->warm && was + n >= rg->warm) || was + n >= rg->hot)
        exec_program_hot(p);
}
/* Return once no compile of p is in flight. */
void exec_program_wait_compiles(exec_program *p);
void exec_program_free_regions(exec_program *p);

struct exec_program {
    exec_memory *mem;
    const isa_module *m;
    isa_inst *code;
    uint32_t ncode;
    uint32_t *func_of;              /* function of each pc */
    exec_func *funcs;               /* parallel to m->funcs */
    exec_kernel *kernels;
    uint32_t nkernels;
    uint64_t *var_addr;             /* per module var: device address, shared or frame offset */
    uint64_t *global_allocs;        /* device allocations to free */
    uint32_t nglobal_allocs;
    uint32_t static_shared;
    uint32_t dynamic_base;          /* where dynamic shared memory starts */
    uint32_t **brx;                 /* relocated brx tables, per program */
    uint32_t *brx_counts;
    uint32_t nbrx;
    uint64_t func_base;             /* where function 0's address is (exec_func_address) */
    bool *func_taken;               /* functions whose address is taken, once (program.c) */
    /* The compiled tier (compiled.c), set up at the first launch that wants it. */
    pthread_mutex_t jit_lock;
    pthread_cond_t jit_idle;        /* the compiler thread has finished */
    bool jit_partitioned, jit_compiling, jit_failed;
    bool jit_eager;                 /* each kernel's code compiled at its first launch */
    bool jit_quick, jit_optimised;  /* the levels it compiles at */
    FILE *jit_log;                  /* exec_launch.jit_log */
    uint32_t jit_warm, jit_hot;     /* warp-instructions per instruction (exec_launch) */
    exec_region *regions;
    uint32_t nregions;
    exec_region **region_at;        /* by pc */
    exec_unit *units;
    uint32_t nunits;
    uint8_t *leader;                /* by pc: where control flow arrives (compiled.c) */
    struct jit_code **jit_batches;  /* what each compile made */
    uint32_t jit_nbatches;
    double jit_seconds;             /* host time spent compiling */
    uint64_t jit_insts[2];          /* instructions compiled, by jit_level */
    uint64_t jit_cached;            /* of them, taken from a cache (jit.h) */
    char jit_why[256];              /* why there is no compiled code */
};

/* Device functions have addresses: `mov.u64 %rd, f`, function pointers in
 * initialisers (tables of them, vtables), and what an indirect call jumps
 * through.  Function i of a program is at func_base + i * EXEC_FUNC_BYTES,
 * inside a device allocation of the program's own, so an address is never
 * 0, differs between functions and between loaded programs, and is mapped
 * back to the function in constant time. */
#define EXEC_FUNC_BYTES 16u

static inline uint64_t exec_func_address(const exec_program *p, uint32_t f)
{
    return p->func_base + (uint64_t)f * EXEC_FUNC_BYTES;
}

/* The function at addr; false when addr is no function's address. */
static inline bool exec_func_at(const exec_program *p, uint64_t addr, uint32_t *f)
{
    uint64_t off = addr - p->func_base;
    if (addr < p->func_base || off % EXEC_FUNC_BYTES || off / EXEC_FUNC_BYTES >= p->m->nfuncs)
        return false;
    *f = (uint32_t)(off / EXEC_FUNC_BYTES);
    return true;
}

/* Texture and surface objects of a device memory (image.c). */
typedef struct exec_images exec_images;
exec_images **exec_memory_images(exec_memory *m);
void exec_images_free(exec_images *t);
const isa_image *exec_image_get(const void *mem, uint64_t handle);

/* One entry of the SIMT reconvergence stack. */
typedef struct exec_simt {
    uint32_t pc, rpc, mask;
} exec_simt;

/* A device-function activation. */
typedef struct exec_frame {
    uint32_t base;                  /* SIMT depth of the call's entry */
    uint32_t call_pc;               /* the call instruction */
    uint64_t local;                 /* the caller's frame offset */
    uint32_t reg_off, pred_off;     /* the caller's register window */
    uint32_t func;                  /* the caller */
    uint64_t stack_ptr;             /* alloca's stack pointer at the call */
} exec_frame;

/* The shared-memory race check of one CTA (race.c); NULL when off. */
typedef struct exec_race exec_race;
exec_race *exec_race_new(uint32_t shared_bytes, uint32_t nwarps);
void exec_race_free(exec_race *r);
/* A new CTA, or a barrier released: everything before is ordered. */
void exec_race_epoch(exec_race *r);
/* The CTA's barrier epoch now, and warp's bar.warp.sync count (for the
 * global check, which orders a block's threads as the shared one does). */
uint32_t exec_race_epoch_of(const exec_race *r);
uint32_t exec_race_wsync_of(const exec_race *r, uint32_t warp);
/* bar.warp.sync by warp `warp`: its lanes' accesses before are ordered. */
void exec_race_syncwarp(exec_race *r, uint32_t warp);
/* Check and record the shared accesses of the instruction the warp just
 * executed at pc (its addresses in warp->acc). */
void exec_race_access(exec_warp *w, const isa_inst *in, uint32_t pc);
/* A fence, membar or mbarrier arrive or wait by the lanes in mask: the
 * synchronisation that orders accesses within a barrier epoch (race.c);
 * exec_race_fence is isa_mem.fence while a check is on. */
/* exec_program_shared_var among the variables kernel k names first: where
 * the module packs kernels' shared variables over each other, another
 * kernel's may lie at the same offset. */
bool exec_kernel_shared_var(const exec_program *p, const exec_kernel *k, uint64_t off, const char **out_name,
                            uint64_t *out_offset);
void exec_race_sync(exec_warp *w, const isa_inst *in, uint32_t mask);
void exec_race_fence(isa_warp *v, const isa_inst *in, uint32_t mask);

/* Hazards already reported in a launch: (earlier pc, later pc, kind). */
typedef struct exec_race_pair {
    uint32_t pc[2];
    uint8_t kind;
} exec_race_pair;
#define EXEC_RACE_PAIRS 256
/* True if (pc0, pc1, kind) was reported before in this launch; records it
 * (while there is room) if not. */
bool exec_race_seen(exec_grid *g, uint32_t pc0, uint32_t pc1, uint8_t kind);
enum { EXEC_RACE_RAW, EXEC_RACE_WAR, EXEC_RACE_WAW };
extern const char *const exec_race_kind_names[3];

/* The global-memory race check of a launch (race_global.c); NULL when off.
 * Its shadow lives as long as the launch, so hazards between CTAs that never
 * ran side by side are found too. */
typedef struct exec_race_global exec_race_global;
exec_race_global *exec_race_global_new(uint64_t nctas);
void exec_race_global_free(exec_race_global *s);
/* Check and record the global accesses of the instruction the warp just
 * executed at pc. */
void exec_race_global_access(exec_warp *w, const isa_inst *in, uint32_t pc);
/* membar and fence: isa_mem.fence while the check is on. */
void exec_race_global_fence(isa_warp *v, const isa_inst *in, uint32_t mask);

/* " (the global variable 'name')" appended to buf when a module variable
 * starts at addr. */
void exec_name_variable(const exec_program *p, uint64_t addr, char *buf, size_t n);
/* What the loop watch (hang.c) keeps of a launch, or of one worker's CTAs
 * when host threads run the launch side by side (grid.c). */
typedef struct exec_hang_watch {
    uint64_t writes;                /* exec_grid.writes when last looked at */
    uint64_t quiet;                 /* warp-instructions since anything changed */
    uint64_t states;                /* warp states when last looked at (a digest) */
    uint32_t pc;                    /* a looping warp's pc, for the report */
    bool found;                     /* the launch can never finish */
    uint32_t starved;               /* of its running warps, those a timing model never let step */
    /* Several workers: exec_grid.writes + 1 when this worker's CTAs were
     * last proved to loop (0: not now), and whether the worker is done (no
     * CTA and none left to take).  Read by the other workers (atomics). */
    uint64_t proven;
    bool idle;
    /* Independent scheduling: rounds that ran looping warps' other lanes
     * (exec_warp_run_others), in all and since anything last changed. */
    uint64_t ran_others;
    uint32_t fruitless;
} exec_hang_watch;

/* A group of a warp's lanes that runs apart from the others, each group
 * with its own reconvergence stack, calls and register window: lanes that
 * wait in a caller while their warp-mates spin inside a call (a spin lock
 * taken in a function that is not inlined).  The warp holds one group in
 * its own fields, the one running, and the others here (warp_groups.c). */
typedef struct exec_lane_group {
    exec_simt *stack;
    uint32_t sp, stack_cap;
    exec_frame *frames;
    uint32_t nframes, frames_cap;
    uint32_t func, reg_off, pred_off;
    uint64_t frame, frame_end, stack_ptr;
} exec_lane_group;

typedef struct exec_warp {
    isa_warp v;                     /* what the semantics see (must stay first) */
    exec_cta *cta;
    isa_mem mem;                    /* the CTA's memory, with this warp's local slice */
    uint32_t index;                 /* warp index in the CTA */
    uint8_t state;
    uint8_t bar_id;
    uint32_t valid;                 /* lanes that exist (the last warp may be partial) */
    uint32_t exited;
    uint32_t func;                  /* function executing now */
    uint32_t reg_off, pred_off;     /* current register window in regs/preds */
    exec_simt *stack;
    uint32_t sp, stack_cap;
    exec_frame *frames;
    uint32_t nframes, frames_cap;
    uint64_t *regs;                 /* the whole register file */
    uint32_t *preds;
    uint32_t regs_cap, preds_cap;   /* in registers (columns) and predicates */
    isa_access acc;                 /* race check: the last access's addresses */
    /* mbarrier waits that failed (exec_warp_spin): the last one's pc, the
     * barrier's shared-memory offset, the warp's instruction count and the
     * CTA's mbarrier changes then, and how many failed in a row at that pc
     * a few instructions apart with no mbarrier of the CTA changed. */
    uint64_t insts;                 /* warp-instructions executed */
    uint32_t spin_pc, spin_repeats;
    uint64_t spin_addr, spin_insts, spin_ops;
    bool yielded;                   /* the last instruction was such a wait */
    /* exec_warp_run_others split the warp's lanes out of stack order: until
     * they are one entry again, warp-synchronous instructions wait for the
     * lanes they name (sync_arrive), and compiled code, which does not,
     * is not run. */
    bool split;
    /* The lane groups waiting while another runs (exec_lane_group): none
     * until lanes in a caller are let run. */
    exec_lane_group *groups;
    uint32_t ngroups, groups_cap;
    /* barrier.cluster: lanes that arrived in the cluster barrier's current
     * phase, lanes whose arrival phase has completed and that have not
     * waited yet, and the lanes of a wait in progress (state BARRIER,
     * bar_id EXEC_BAR_CLUSTER). */
    uint32_t cl_arrived, cl_done, cl_waiting;
    /* bar.red / barrier.red: the lanes waiting for the reduction's result,
     * and the pc of the instruction whose destination receives it when
     * the barrier completes (exec_cta_release_barriers in cta.c). */
    uint32_t red_lanes, red_pc;
    /* Lanes that arrived at a barrier without .aligned while other lanes
     * of the warp were on another path: they wait in their stack entry,
     * already past the barrier, while those paths run on (warp.c,
     * barrier); cleared when the barrier releases the warp. */
    uint32_t bar_parked;
    /* By barrier: the lanes that arrived at it in its current phase.  A
     * barrier with a thread count counts warps, not lanes (cta.c,
     * exec_cta_release_barriers): a warp has arrived once every lane of it that
     * exists and has not exited has. */
    uint32_t bar_lanes[16];
    bool is_copy;                   /* a pre-execution copy: the race check ignores it */
    /* The loop watch (hang.c): the warp's state hashed at the end of its
     * turns while nothing in the launch changes memory (Brent's cycle
     * search: the hash saved with its cheaper keys (hang.c, warp_key and
     * lane0_key), turns since, and the next power of two), and whether a
     * later turn ended in the saved state. */
    uint64_t loop_hash, loop_key, loop_lane0;
    uint32_t loop_turns, loop_power;
    bool looping;
    uint64_t quiet_insts;           /* insts when the watch began hashing (starvation, hang.c) */
} exec_warp;

/* bar_id of a warp waiting at barrier.cluster.wait. */
#define EXEC_BAR_CLUSTER 16

/* A thread block cluster with CTAs resident: what they share.  Made when
 * its first CTA begins, freed when its last ends (grid.c keeps a list). */
typedef struct exec_cluster {
    struct exec_cluster *next;
    uint64_t id;                    /* cluster number in the launch (x fastest) */
    uint32_t begun, live;           /* CTAs begun so far, and not yet ended */
    exec_cta *ctas[ISA_CLUSTER_MAX];      /* by rank; NULL before begin and after end */
    uint8_t *shared[ISA_CLUSTER_MAX];     /* their shared memory (isa_mem.cluster_shared) */
    uint64_t phases;                /* barrier.cluster phases completed */
} exec_cluster;

/* A launch in progress: what every CTA of it shares. */
struct exec_grid {
    exec_program *prog;
    const exec_kernel *k;
    exec_launch l;                  /* args point at the copy below */
    uint64_t nctas;
    uint32_t nthreads, nwarps;
    uint32_t cdim[3], csize;        /* CTAs per cluster in each dimension, and in all */
    bool explicit_cluster;          /* a cluster launch (%is_explicit_cluster) */
    exec_cluster *clusters[64];     /* clusters with CTAs resident, hashed by id */
    uint32_t shared_bytes;          /* static plus dynamic, per CTA */
    uint32_t local_stride;          /* local bytes per thread */
    /* Warp-instructions left before a hang is declared.  Workers on other
     * host threads take it in chunks (grid.c): host atomics. */
    uint64_t budget;
    /* The loop watch (hang.c): instructions that may have written memory
     * (counted by the interpreter per CTA, added here once a round of
     * turns with a host atomic, as every worker adds to it), and what the
     * watch saw last (one worker; several have their own: watches, and
     * hung once they all proved theirs loop). */
    uint64_t *writes;               /* own_writes, or the count launches beside it share (exec_launch.writes) */
    uint64_t own_writes;
    exec_hang_watch hang;
    exec_hang_watch **watches;
    uint32_t nwatches;
    bool hung;
    /* Host threads run CTAs side by side (grid.c): global memory is shared
     * between them (isa_mem.concurrent), with the 16-byte atomics' locks,
     * and the cluster table takes cluster_lock. */
    bool concurrent;
    /* A functional launch: new frames zero only the registers their
     * function may read before writing them (live_in.c).  Timing runs and
     * the debugger zero every one. */
    bool lazy_regs;
    uint32_t rmw_locks[ISA_RMW_LOCKS];
    pthread_mutex_t cluster_lock;
    const uint8_t *shared_map;      /* memory checking: the kernel's shared variables */
    exec_region *const *region_at;  /* the compiled tier's regions by pc, or NULL */
    uint32_t envreg[32];            /* %envreg values (the grid-sync workspace) */
    uint64_t workspace;             /* a cooperative launch's grid-sync words */
    uint32_t param_slot;            /* its slot of the kernel's parameter buffer */
    exec_cta *spare;                /* finished CTAs kept for reuse */
    exec_race_global *race_global;  /* the global race check's shadow, or NULL */
    uint64_t races, race_hits;      /* race check: hazards reported, and found */
    exec_race_pair race_pairs[EXEC_RACE_PAIRS];
    uint32_t nrace_pairs;
};

struct exec_cta {
    exec_grid *grid;
    exec_cta *next_spare;
    exec_program *prog;
    const exec_kernel *k;
    exec_warp *warps;
    uint32_t nwarps, nthreads;
    uint32_t ntid[3], ctaid[3], nctaid[3];
    uint32_t smid, nsmid;
    uint32_t dynamic_shared;
    uint32_t mem_shared_bytes;      /* static plus dynamic */
    uint8_t *shared;
    uint8_t reserved[ISA_RESERVED_SMEM_BYTES];  /* the block's reserved shared memory */
    uint8_t *local;                 /* all lanes of all warps */
    uint32_t local_stride;
    size_t shared_room, local_room; /* the bytes allocated at shared and local */
    exec_host_fn host;
    void *host_ctx;
    FILE *out;                      /* where its host calls print (NULL: stdout) */
    uint32_t bar_arrived[16];       /* threads arrived at each barrier */
    uint32_t bar_expected[16];
    /* bar.red: threads arrived with the reduction, and those of them whose
     * predicate was true (popc is the second, and all or any follow). */
    uint32_t bar_red_arrived[16], bar_red_true[16];
    uint64_t clock;
    exec_race *race;                /* the race check's shadow, or NULL */
    exec_hang_watch *hang;          /* the loop watch over it: the grid's, or its worker's */
    uint64_t writes;                /* counted for exec_grid.writes, not yet added */
    uint64_t seen_writes;           /* of them, ones other threads may see (not .local): grid.c */
    uint64_t linear;                /* CTA number in the launch (x fastest) */
    uint32_t acquired;              /* global race check: the launch's sync clock at
                                     * this CTA's latest fence or atomic */
    uint64_t mbar_ops;              /* changes to its mbarriers (isa_mem.mbar_ops) */
    exec_cluster *cluster;          /* its cluster: solo below, or the grid's */
    exec_cluster solo;              /* the cluster of one of a launch without clusters */
    uint32_t rank;                  /* its rank in the cluster */
    uint32_t clusterid[3], cluster_ctaid[3];
};

/* A job's workers (pool.c): the calling thread and the helpers it claimed. */
typedef struct exec_helper exec_helper;
typedef struct exec_crew {
    exec_pool *pool;
    uint32_t workers;               /* the caller included */
    exec_helper *helpers;
    uint32_t running;               /* helpers not through yet */
    void (*fn)(void *ctx, uint32_t worker);
    void *ctx;
} exec_crew;

/* Claim up to workers - 1 idle helpers of pool p (NULL: none) for a job;
 * returns the workers the job has, the caller included: fewer than asked
 * where other jobs hold the pool's threads. */
uint32_t exec_pool_claim(exec_pool *p, uint32_t workers, exec_crew *c);
/* Run fn(ctx, i) for i in 0 .. c->workers - 1, i = 0 on the calling
 * thread, and return once all have returned; the helpers go back idle. */
void exec_pool_run(exec_crew *c, void (*fn)(void *ctx, uint32_t worker), void *ctx);
/* Give the crew's helpers back unused. */
void exec_pool_release(exec_crew *c);

/* barrier.cluster (cta.c): complete the cluster's phase if every live
 * thread has arrived, and let waiting warps whose phase completed go on.
 * True if some warp was let go. */
bool exec_cluster_release(exec_cluster *cl);

/* Release every barrier of c whose expected threads have arrived; false if
 * none could be.  A barrier with a thread count is released as its last
 * warp arrives (warp.c), since warps outside it may spin meanwhile. */
bool exec_cta_release_barriers(exec_cta *c);

#endif /* PTXSIM_EXEC_INT_H */

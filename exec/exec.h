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

/* ---- device memory ------------------------------------------------------- */

/* One reserved range of the host address space holds all device memory, so
 * a device address is a host address (a global load is a plain load after
 * a bounds check), and the shared and local windows of the generic space
 * are carved out of the same reservation so nothing can ever overlap them. */
typedef struct exec_memory exec_memory;

typedef struct exec_alloc_info {
    uint64_t addr, bytes;
    bool live;                  /* false: freed (kept for use-after-free reports) */
} exec_alloc_info;

exec_memory *exec_memory_new(uint64_t capacity);
void exec_memory_free(exec_memory *m);
ptx_status exec_malloc(exec_memory *m, uint64_t bytes, uint64_t align, uint64_t *out_addr);
ptx_status exec_free(exec_memory *m, uint64_t addr);
/* The allocation containing [addr, addr+bytes), or the nearest one. */
bool exec_memory_find(const exec_memory *m, uint64_t addr, exec_alloc_info *out);
/* True if [addr, addr+bytes) lies inside one live allocation. */
bool exec_memory_valid(const exec_memory *m, uint64_t addr, uint64_t bytes);
/* The same with the signature isa_mem.check wants. */
bool exec_memory_check(const void *m, uint64_t addr, uint64_t bytes);
uint64_t exec_memory_capacity(const exec_memory *m);
uint64_t exec_memory_in_use(const exec_memory *m);
const isa_mem *exec_memory_windows(const exec_memory *m);

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
    uint32_t maxntid[3], reqntid[3];
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
/* Device address and size of a module-scope .global/.const variable. */
bool exec_program_symbol(const exec_program *p, const char *name, uint64_t *addr, uint64_t *bytes);

/* ---- calls to the host ------------------------------------------------- */

/* A call, by one lane, to a function the module declares but does not
 * define and the engine does not provide itself (vprintf, __assertfail).
 * The runtime answers it. */
typedef struct exec_host_call {
    const char *name;
    uint32_t ctaid[3], tid[3];
    const uint64_t *args;       /* each argument's value, zero-extended to 64 bits */
    unsigned nargs;
    const void *warp;           /* for exec_host_ptr */
    uint32_t lane;
} exec_host_call;

/* The host memory behind a generic address as the calling lane sees it, and
 * how many bytes from there on are valid (*avail); NULL if none are. */
void *exec_host_ptr(const exec_host_call *c, uint64_t addr, uint64_t *avail);

/* Returns PTX_OK with *ret set, or a failure that ends the launch (an
 * assertion: PTX_E_ASSERT). */
typedef ptx_status (*exec_host_fn)(void *ctx, const exec_host_call *c, uint64_t *ret);

/* Names the engine or the host answers; a module that calls any other
 * undefined function is refused at load. */
bool exec_is_builtin(const char *name);

/* ---- launches ------------------------------------------------------------ */

typedef struct exec_launch {
    uint32_t grid[3], block[3];
    uint32_t dynamic_shared;
    const void *args;           /* the parameter buffer, laid out per exec_param_info */
    uint64_t max_warp_insts;    /* hang guard; 0 = the default */
    uint32_t nsm;               /* SMs to report in %nsmid / spread %smid over */
    exec_host_fn host;          /* answers vprintf and friends (may be NULL) */
    void *host_ctx;
    bool cooperative;           /* all CTAs resident at once (grid-wide sync) */
    bool check_memory;          /* every global access must lie in a live allocation */
} exec_launch;

typedef struct exec_stats {
    uint64_t warp_insts;        /* warp-instructions issued */
    uint64_t thread_insts;      /* active lanes summed over them */
    uint64_t mem_ops[ISA_SPACE_COUNT];  /* warp-level memory instructions by space */
    uint64_t ctas;
} exec_stats;

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
    char msg[512];              /* the whole report, one paragraph */
} exec_error;

/* Run a whole launch functionally. */
ptx_status exec_launch_run(exec_program *p, int kernel, const exec_launch *l, exec_stats *stats,
                           exec_error *err);

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

/* CTA number `linear` (x fastest) of the launch, placed on SM `smid`. */
ptx_status exec_cta_begin(exec_grid *g, uint64_t linear, uint32_t smid, exec_cta **out);
void exec_cta_end(exec_cta *c);
uint32_t exec_cta_nwarps(const exec_cta *c);
exec_warp *exec_cta_warp(exec_cta *c, uint32_t i);
/* True when every warp has finished. */
bool exec_cta_done(const exec_cta *c);
/* Set the time %clock and %clock64 read in this CTA (timing models). */
void exec_cta_set_clock(exec_cta *c, uint64_t cycle);
/* Release barriers whose threads have all arrived.  Returns false when some
 * warp waits at a barrier that can never complete (err describes it). */
bool exec_cta_sync(exec_cta *c, exec_error *err);

enum { EXEC_WARP_RUNNING, EXEC_WARP_BARRIER, EXEC_WARP_DONE };
int exec_warp_state(const exec_warp *w);
/* The next instruction's pc and the lanes that would execute it. */
uint32_t exec_warp_pc(const exec_warp *w);
uint32_t exec_warp_active(const exec_warp *w);
const isa_inst *exec_warp_inst(const exec_warp *w);

/* What one executed warp-instruction did: the whole contract with a timing
 * model.  Register numbers are the instruction's own (per function). */
typedef struct exec_record {
    uint32_t pc, next_pc;
    const isa_inst *inst;
    uint8_t family;             /* isa_family, refined by type (FP, DP) */
    uint32_t issued;            /* lanes that issued (the mask stepped) */
    uint32_t active;            /* lanes that executed (guard applied) */
    uint8_t ndst, nsrc;
    uint16_t dst[4], src[8];    /* registers written and read (EXEC_REG_PRED marks predicates) */
    bool mem;                   /* access below is valid */
    isa_access access;          /* per-lane addresses, space, size */
    uint8_t ctl;                /* 0, or the PTX_CTL_* outcome */
    uint32_t taken;             /* branch: lanes that took it */
    bool diverged;              /* the branch split the warp */
    uint32_t rpc;               /* reconvergence point of a divergent branch */
} exec_record;

#define EXEC_REG_PRED 0x8000u

/* Fill rec's register lists (ndst, dst, nsrc, src) for an instruction, as
 * a scoreboard needs them before the instruction executes.  The guard
 * predicate counts as a source. */
void exec_inst_regs(const isa_inst *in, exec_record *rec);

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

/* Default per-launch instruction budget (a kernel that runs longer is
 * reported as hung). */
#define EXEC_DEFAULT_MAX_WARP_INSTS (1ull << 36)

#endif /* PTXSIM_EXEC_H */

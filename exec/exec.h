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
    uint32_t static_shared;     /* bytes of .shared the kernel's module declares */
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

/* Default per-launch instruction budget (a kernel that runs longer is
 * reported as hung). */
#define EXEC_DEFAULT_MAX_WARP_INSTS (1ull << 36)

#endif /* PTXSIM_EXEC_H */

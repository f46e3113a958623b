/*
 * rt_int.h -- the CUDA runtime shim's internals (internal to runtime/).
 *
 * runtime/ is the only layer that knows about the CUDA API, processes and
 * environment variables, and the only one with mutable globals: CUDA's
 * implicit state (registered fat binaries, the sticky error, the call
 * configuration) lives in rt_state.c behind one lock.
 */
#ifndef PTXSIM_RT_INT_H
#define PTXSIM_RT_INT_H

#include <cuda_runtime_api.h>
#include <pthread.h>

#include "exec.h"
#include "frontend.h"

/* One fat binary handed to __cudaRegisterFatBinary, loaded on first use. */
typedef struct rt_module {
    const void *wrapper;
    const uint8_t *fatbin;
    size_t fatbin_bytes;
    isa_module *ir;
    exec_program *prog;
    bool tried;                 /* loading was attempted (ok or not) */
    cudaError_t load_error;
    char *load_message;         /* why loading failed (malloc'd) */
} rt_module;

typedef struct rt_kernel {
    const void *host_fn;        /* the host stub's address: the kernel's identity */
    const char *name;           /* mangled device name (the program's string) */
    rt_module *mod;
    int index;                  /* in mod->prog once loaded */
} rt_kernel;

typedef struct rt_symbol {
    const void *host_var;
    const char *name;
    rt_module *mod;
    size_t bytes;
} rt_symbol;

typedef struct rt_config {
    bool quiet;                 /* no per-kernel summary on stderr */
    uint32_t sm;                /* compute capability of the simulated GPU, e.g. 90 */
    uint32_t nsm;
    uint64_t max_warp_insts;    /* hang guard per launch */
    uint64_t memory_bytes;      /* device memory size */
} rt_config;

typedef struct rt_state {
    pthread_mutex_t lock;
    bool ready;
    rt_config cfg;
    exec_memory *mem;
    rt_module **mods;
    uint32_t nmods, capmods;
    rt_kernel **kernels;
    uint32_t nkernels, capkernels;
    rt_symbol **symbols;
    uint32_t nsymbols, capsymbols;
    cudaError_t sticky;         /* a device fault poisons the context */
    uint64_t launches;
} rt_state;

extern rt_state rt;

/* Take the lock and make sure the state is initialised. */
void rt_lock(void);
void rt_unlock(void);

/* The calling thread's last error (cudaGetLastError clears it). */
cudaError_t rt_set_error(cudaError_t e);
cudaError_t rt_last_error(bool clear);

/* Load a module's PTX if not yet done; returns cudaSuccess or its error. */
cudaError_t rt_module_load(rt_module *m);
rt_kernel *rt_find_kernel(const void *host_fn);
rt_symbol *rt_find_symbol(const void *host_var);

/* A message on stderr, prefixed "ptxsim: ". */
void rt_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ptx_status to the cudaError_t a GPU would give. */
cudaError_t rt_error_of(ptx_status st);

/* The host side of vprintf and __assertfail (device_calls.c). */
ptx_status rt_device_call(void *ctx, const exec_host_call *c, uint64_t *ret);

/* A demangled kernel name for reports, into buf. */
const char *rt_demangle(const char *name, char *buf, size_t n);

#endif /* PTXSIM_RT_INT_H */

/*
 * rt_state.c -- CUDA's implicit state: the lock, initialisation, device
 * memory, the error state, and warnings for entry points ptxsim does not
 * implement.
 */
#define _GNU_SOURCE
#include "rt_int.h"
#include "debug.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Recursive, so core functions can call one another with the lock held; a
 * launch holds it from start to end. */
rt_state rt = { .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP };

static _Thread_local cudaError_t last_error;

void rt_say(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxsim: %s\n", buf);
}

/* The race check's verdict: a count on stderr, and for `ptxsim run`, which
 * fails a run with hazards, on the pipe it names (PTXSIM_RACE_FD). */
static void report_races(void)
{
    const char *what = rt.cfg.check_race_global ? "shared- and global-memory" : "shared-memory";
    if (rt.races)
        rt_say("race check: %llu %s hazard%s found", (unsigned long long)rt.races, what,
               rt.races == 1 ? "" : "s");
    else
        rt_say("race check: no %s hazards found",
               rt.cfg.check_race_global ? "shared- or global-memory" : "shared-memory");
    const char *fd = getenv("PTXSIM_RACE_FD");
    if (fd && *fd) {
        char buf[32];
        int n = snprintf(buf, sizeof buf, "%llu\n", (unsigned long long)rt.races);
        if (write(atoi(fd), buf, (size_t)n) != n)
            rt_say("cannot report the race count to ptxsim run (PTXSIM_RACE_FD=%s)", fd);
    }
}

static void at_exit(void)
{
    /* Work still queued runs to its end, and what it printed is written,
     * before the process goes (a GPU would drop it; a user would rather
     * see it). */
    if (!rt_queue_on_device_thread()) {
        rt_queue_wait(UINT64_MAX);
        rt_queue_flush_output();
    }
    /* Another thread may be inside a call as the process exits: flush what
     * is written either way rather than wait for it. */
    bool locked = pthread_mutex_trylock(&rt.lock) == 0;
    rt_timing_finish();
    rt_stats_close();
    if (rt.cfg.check_memory)
        rt_mem_report_leaks();
    if (rt.cfg.check_race)
        report_races();
    if (locked)
        pthread_mutex_unlock(&rt.lock);
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Ctrl-C stops the kernel being debugged; with none running it ends the
 * program as usual. */
static void on_sigint(int sig)
{
    if (!dbg_interrupt(rt.dbg)) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* `ptxsim debug` (PTXSIM_DEBUG=1): every launch runs under the debugger,
 * which reads its commands from the terminal (or PTXSIM_DEBUG_SCRIPT). */
static void start_debugger(void)
{
    dbg_options o = {
        .script = getenv("PTXSIM_DEBUG_SCRIPT"),
        .batch = env_flag("PTXSIM_DEBUG_BATCH"),
        .source_path = getenv("PTXSIM_SOURCE_PATH"),
    };
    rt.dbg = dbg_new(&o);
    if (!rt.dbg) {
        rt_say("the debugger could not start; running without it");
        return;
    }
    signal(SIGINT, on_sigint);
}

static void init_locked(void)
{
    if (rt.ready)
        return;
    rt.ready = true;
    rt_config_load(&rt.cfg);
    rt.mem = exec_memory_new(rt.cfg.memory_bytes);
    if (!rt.mem)
        rt_say("cannot reserve %llu bytes of address space for device memory",
               (unsigned long long)rt.cfg.memory_bytes);
    else if (rt.cfg.check_memory)
        exec_memory_keep_freed(rt.mem, true);
    rt.primary = (rt_ctx){ .magic = RT_MAGIC_CTX, .primary = true, .id = 1 };
    rt_ptrmap_put(&rt.ctxs, &rt.primary, &rt.primary);
    /* The defaults CUDA documents for cudaDeviceGetLimit. */
    rt.limits[cudaLimitStackSize] = 1024;
    rt.limits[cudaLimitPrintfFifoSize] = 1 << 20;
    rt.limits[cudaLimitMallocHeapSize] = 8 << 20;
    rt.limits[cudaLimitDevRuntimePendingLaunchCount] = 2048;
    rt.limits[cudaLimitMaxL2FetchGranularity] = 64;
    rt_attrs_init(&rt.stream0_attrs);
    rt.next_stream_id = 16;     /* 0..15: the default streams */
    if (rt.cfg.stats_path) {
        rt.stats = fopen(rt.cfg.stats_path, "w");
        if (!rt.stats)
            rt_say("cannot write launch statistics to '%s' (PTXSIM_STATS)", rt.cfg.stats_path);
    }
    if (env_flag("PTXSIM_DEBUG"))
        start_debugger();
    atexit(at_exit);
}

/* How many times this thread holds the lock. */
static _Thread_local unsigned lock_depth;

/* A host thread's first hold of the lock waits until the device queue is
 * empty (rt_queue.c), so that a call sees the device's state as if all work
 * were synchronous -- except in the calls that queue work or wait for part
 * of it (rt_async_call), and on the device thread itself. */
void rt_lock(void)
{
    if (lock_depth == 0 && !rt_async_call()) {
        for (;;) {
            pthread_mutex_lock(&rt.lock);
            if (rt_queue_idle())
                break;
            pthread_mutex_unlock(&rt.lock);
            rt_queue_wait(UINT64_MAX);
        }
        lock_depth = 1;
        rt_queue_flush_output();
    } else {
        pthread_mutex_lock(&rt.lock);
        lock_depth++;
    }
    init_locked();
}

void rt_unlock(void)
{
    lock_depth--;
    pthread_mutex_unlock(&rt.lock);
}

unsigned rt_lock_drop(void)
{
    unsigned held = lock_depth;
    lock_depth = 0;
    for (unsigned i = 0; i < held; i++)
        pthread_mutex_unlock(&rt.lock);
    return held;
}

void rt_lock_retake(unsigned held)
{
    for (unsigned i = 0; i < held; i++)
        pthread_mutex_lock(&rt.lock);
    lock_depth = held;
}

/* The runtime initialises the driver and binds the primary context at its
 * first call, not when libcudart is loaded: a program that only calls the
 * driver API (nvcc links libcudart into it all the same) finds no context
 * current until it makes one, as in CUDA.  Every runtime call ends here. */
cudaError_t rt_set_error(cudaError_t e)
{
    if (!__atomic_load_n(&rt.runtime_used, __ATOMIC_RELAXED)) {
        rt_lock();
        rt.runtime_used = true;
        rt_unlock();
    }
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

cudaError_t rt_last_error(bool clear)
{
    cudaError_t e = last_error;
    if (clear)
        last_error = cudaSuccess;
    rt_lock();
    if (e == cudaSuccess && rt.sticky != cudaSuccess)
        e = rt.sticky;
    rt_unlock();
    return e;
}

cudaError_t rt_surface(void)
{
    if (rt.fault != cudaSuccess && rt.sticky == cudaSuccess)
        rt.sticky = rt.fault;
    rt.fault = cudaSuccess;
    return rt.sticky;
}

cudaError_t rt_sticky(void)
{
    rt_lock();
    cudaError_t e = rt_surface();
    rt_unlock();
    return e;
}

int rt_unimplemented(const char *name)
{
    rt_lock();
    /* Names are the stubs' string literals: one pointer per entry point. */
    bool first = !rt_ptrmap_get(&rt.warned, name);
    if (first)
        rt_ptrmap_put(&rt.warned, name, (void *)name);
    rt_unlock();
    if (first)
        rt_say("warning: %s is not implemented by ptxsim; it returns cudaErrorNotSupported", name);
    rt_set_error(cudaErrorNotSupported);
    return cudaErrorNotSupported;
}

cudaError_t rt_error_of(ptx_status st)
{
    switch (st) {
    case PTX_OK: return cudaSuccess;
    case PTX_E_NOMEM: return cudaErrorMemoryAllocation;
    case PTX_E_OUT_OF_DEVICE_MEMORY: return cudaErrorMemoryAllocation;
    case PTX_E_BAD_FATBIN: return cudaErrorInvalidKernelImage;
    case PTX_E_NO_PTX: return cudaErrorNoKernelImageForDevice;
    case PTX_E_SYNTAX: case PTX_E_UNDEFINED: return cudaErrorInvalidPtx;
    case PTX_E_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case PTX_E_INVALID_VALUE: return cudaErrorInvalidValue;
    case PTX_E_LAUNCH_CONFIG: return cudaErrorInvalidConfiguration;
    case PTX_E_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case PTX_E_MISALIGNED: return cudaErrorMisalignedAddress;
    case PTX_E_ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
    case PTX_E_TRAP: case PTX_E_BRKPT: return cudaErrorLaunchFailure;
    case PTX_E_ASSERT: return cudaErrorAssert;
    case PTX_E_DEADLOCK: case PTX_E_HANG: return cudaErrorLaunchTimeout;
    case PTX_E_STACK_OVERFLOW: case PTX_E_MBARRIER: return cudaErrorLaunchFailure;
    case PTX_E_UNSUPPORTED: return cudaErrorNotSupported;
    case PTX_E_PTX_VERSION: return cudaErrorUnsupportedPtxVersion;
    default: return cudaErrorUnknown;
    }
}

const char *rt_demangle(const char *name, char *buf, size_t n)
{
    /* The host program is C++ and has libstdc++'s demangler loaded; look it
     * up rather than link the shim against libstdc++. */
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    demangle_fn fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (fn && name[0] == '_' && name[1] == 'Z') {
        int status = 0;
        char *d = fn(name, NULL, NULL, &status);
        if (d && status == 0) {
            snprintf(buf, n, "%s", d);
            free(d);
            return buf;
        }
        free(d);
    }
    snprintf(buf, n, "%s", name);
    return buf;
}

double rt_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool rt_grow(void ***arr, uint32_t *cap, uint32_t n)
{
    if (n < *cap)
        return true;
    uint32_t nc = *cap ? *cap * 2 : 16;
    void **a = realloc(*arr, nc * sizeof *a);
    if (!a)
        return false;
    *arr = a;
    *cap = nc;
    return true;
}

void rt_reset(void)
{
    rt_lock();
    rt_image_reset();
    rt_graph_reset();
    rt_gmem_reset();
    rt_userobj_reset();
    rt_vmm_reset();
    rt_mem_reset();
    rt_pool_reset();
    rt_stream_reset();
    rt.sticky = rt.fault = cudaSuccess;
    rt.device_flags = 0;
    rt.shared_mem_config = cudaSharedMemBankSizeDefault;
    rt_attrs_init(&rt.stream0_attrs);
    rt_unlock();
}

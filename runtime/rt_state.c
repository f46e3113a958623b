/*
 * rt_state.c -- CUDA's implicit state: the lock, configuration from the
 * environment, device memory, the registered modules, kernels and symbols,
 * and the error state.
 */
#define _GNU_SOURCE
#include "rt_int.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rt_state rt = { .lock = PTHREAD_MUTEX_INITIALIZER };

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

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end == 'G' || *end == 'g')
        v <<= 30;
    else if (*end == 'M' || *end == 'm')
        v <<= 20;
    else if (*end != '\0') {
        rt_say("ignoring %s=%s: not a number", name, s);
        return dflt;
    }
    return v;
}

static void init_locked(void)
{
    if (rt.ready)
        return;
    rt.cfg.quiet = env_u64("PTXSIM_QUIET", 0) != 0;
    rt.cfg.sm = (uint32_t)env_u64("PTXSIM_SM", 90);
    rt.cfg.nsm = (uint32_t)env_u64("PTXSIM_NSM", 132);
    rt.cfg.max_warp_insts = env_u64("PTXSIM_MAX_INSTS", EXEC_DEFAULT_MAX_WARP_INSTS);
    rt.cfg.memory_bytes = env_u64("PTXSIM_MEMORY", 16ull << 30);
    const char *mode = getenv("PTXSIM_MODE");
    if (mode && *mode && strcmp(mode, "functional") != 0)
        rt_say("PTXSIM_MODE=%s: only functional mode is available in this build; running functionally",
               mode);
    rt.mem = exec_memory_new(rt.cfg.memory_bytes);
    if (!rt.mem)
        rt_say("cannot reserve %llu bytes of address space for device memory",
               (unsigned long long)rt.cfg.memory_bytes);
    rt.ready = true;
}

void rt_lock(void)
{
    pthread_mutex_lock(&rt.lock);
    init_locked();
}

void rt_unlock(void) { pthread_mutex_unlock(&rt.lock); }

cudaError_t rt_set_error(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

cudaError_t rt_last_error(bool clear)
{
    cudaError_t e = last_error;
    if (clear)
        last_error = cudaSuccess;
    if (e == cudaSuccess && rt.sticky != cudaSuccess)
        e = rt.sticky;
    return e;
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
    case PTX_E_TRAP: return cudaErrorLaunchFailure;
    case PTX_E_ASSERT: return cudaErrorAssert;
    case PTX_E_DEADLOCK: case PTX_E_HANG: return cudaErrorLaunchTimeout;
    case PTX_E_STACK_OVERFLOW: return cudaErrorLaunchFailure;
    case PTX_E_UNSUPPORTED: return cudaErrorNotSupported;
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

rt_kernel *rt_find_kernel(const void *host_fn)
{
    for (uint32_t i = 0; i < rt.nkernels; i++)
        if (rt.kernels[i]->host_fn == host_fn)
            return rt.kernels[i];
    return NULL;
}

rt_symbol *rt_find_symbol(const void *host_var)
{
    for (uint32_t i = 0; i < rt.nsymbols; i++)
        if (rt.symbols[i]->host_var == host_var)
            return rt.symbols[i];
    return NULL;
}

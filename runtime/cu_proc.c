/*
 * cu_proc.c -- driver entry points by name and version (cuGetProcAddress,
 * and the runtime's cudaGetDriverEntryPoint over it), as libraries and
 * NVIDIA's static runtime use to reach driver functions without linking
 * libcuda.
 *
 * A name is the base name programs write ("cuMemAlloc") and a version the
 * CUDA version whose ABI the caller expects: the function is the one
 * cudaTypedefs.h gives for that version (cuMemAlloc at 3020 or later is
 * cuMemAlloc_v2, cuGetProcAddress at 11030 is the four-argument one), in
 * its per-thread default stream form (_ptsz / _ptds) when asked for.  The
 * table of versions is generated from cudaTypedefs.h (gen_versions.sh).
 * Every name cuda.h declares is exported (unimplemented ones as warning
 * stubs), so a name that resolves here is one CUDA 13 has.
 */
#define _GNU_SOURCE
#include "cu_int.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef struct proc_version {
    const char *name;
    int version;
} proc_version;

/* Sorted by name (strcmp order), then version. */
static const proc_version proc_versions[] = {
#define PROC_VERSION(n, v) { n, v },
#include "cuda_versions.inc"
#undef PROC_VERSION
};

/* The exported name of `symbol` at `version` (<= 0: the newest) into out;
 * false if the entry point is newer than version. */
static bool abi_name(const char *symbol, int version, char *out, size_t n)
{
    size_t lo = 0, hi = sizeof proc_versions / sizeof proc_versions[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(proc_versions[mid].name, symbol) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    int k = 0, all = 0;
    for (size_t i = lo; i < sizeof proc_versions / sizeof proc_versions[0] &&
                        strcmp(proc_versions[i].name, symbol) == 0; i++) {
        all++;
        if (version <= 0 || proc_versions[i].version <= version)
            k++;
    }
    if (all == 0) {
        /* Not in cudaTypedefs.h: the name as it is. */
        snprintf(out, n, "%s", symbol);
        return true;
    }
    if (k == 0)
        return false;
    if (k == 1)
        snprintf(out, n, "%s", symbol);
    else
        snprintf(out, n, "%s_v%d", symbol, k);
    return true;
}

/* This library's own handle, so that a program's function of the same
 * name is never returned. */
static void *self_handle(void)
{
    rt_lock();
    if (!rt.driver_self) {
        Dl_info self;
        if (dladdr((void *)&rt_driver_entry, &self) && self.dli_fname)
            rt.driver_self = dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (!rt.driver_self)
            rt.driver_self = RTLD_DEFAULT;
    }
    void *h = rt.driver_self;
    rt_unlock();
    return h;
}

static void *lookup(const char *name, bool per_thread)
{
    void *h = self_handle();
    static const char *const streams[] = { "_ptsz", "_ptds" };
    char full[256];
    for (size_t s = 0; per_thread && s < 2; s++) {
        snprintf(full, sizeof full, "%s%s", name, streams[s]);
        void *fn = dlsym(h, full);
        if (fn)
            return fn;
    }
    return dlsym(h, name);
}

int rt_driver_entry(const char *symbol, int version, unsigned long long flags, void **fn)
{
    *fn = NULL;
    char name[256];
    int status;
    if (strncmp(symbol, "cu", 2) != 0)
        status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;     /* never the core's rt_* */
    else if (!abi_name(symbol, version, name, sizeof name))
        status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    else {
        *fn = lookup(name, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0);
        status = *fn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    }
    rt_lock();
    bool trace = rt.cfg.trace_driver;
    rt_unlock();
    if (trace) {
        Dl_info at;
        const char *got = *fn && dladdr(*fn, &at) && at.dli_sname ? at.dli_sname : "?";
        rt_say("driver: cuGetProcAddress(\"%s\", %d, flags %llu) -> %s", symbol, version, flags,
               status == CU_GET_PROC_ADDRESS_SUCCESS ? got
               : status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? "newer than that version"
                                                                     : "not found");
    }
    return status;
}

/* The checks both entry points make. */
static CUresult proc_address(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    if (!symbol || !pfn || strlen(symbol) > 200 ||
        (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)))
        return CUDA_ERROR_INVALID_VALUE;
    int status = rt_driver_entry(symbol, cudaVersion, flags, pfn);
    if (symbolStatus)
        *symbolStatus = (CUdriverProcAddressQueryResult)status;
    return status == CU_GET_PROC_ADDRESS_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *symbolStatus)
{
    return proc_address(symbol, pfn, cudaVersion, flags, symbolStatus);
}

/* The CUDA 11.3 form, without the status (what cuGetProcAddress at 11030
 * resolves to).  cuda.h renames cuGetProcAddress to _v2, so this one is
 * declared here. */
#undef cuGetProcAddress
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return proc_address(symbol, pfn, cudaVersion, flags, NULL);
}

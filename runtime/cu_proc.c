/*
 * cu_proc.c -- driver entry points by name (cuGetProcAddress, and the
 * runtime's cudaGetDriverEntryPoint over it), as libraries use to reach
 * driver functions without linking libcuda.
 *
 * A name is the base name programs write ("cuMemAlloc"); the function is
 * the newest ABI version libcuda.so.1 exports (cuMemAlloc_v2), in its
 * per-thread default stream form (_ptsz / _ptds) when asked for.  Every
 * name cuda.h declares is exported (unimplemented ones as warning stubs),
 * so a name that resolves here is one CUDA 13 has.
 */
#define _GNU_SOURCE
#include "cu_int.h"

#include <dlfcn.h>
#include <string.h>

static void *lookup(const char *symbol, bool per_thread)
{
    static const char *const versions[] = { "_v4", "_v3", "_v2", "" };
    static const char *const streams[] = { "_ptsz", "_ptds" };
    char name[256];
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
        for (size_t s = 0; per_thread && s < 2; s++) {
            snprintf(name, sizeof name, "%s%s%s", symbol, versions[v], streams[s]);
            void *fn = dlsym(RTLD_DEFAULT, name);
            if (fn)
                return fn;
        }
        snprintf(name, sizeof name, "%s%s", symbol, versions[v]);
        void *fn = dlsym(RTLD_DEFAULT, name);
        if (fn)
            return fn;
    }
    return NULL;
}

cudaError_t rt_driver_entry(const char *symbol, unsigned long long flags, void **fn, int *found)
{
    if (!symbol || !fn || strncmp(symbol, "cu", 2) != 0 || strlen(symbol) > 200 ||
        (flags & ~(unsigned long long)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                                        CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)))
        return cudaErrorInvalidValue;
    *fn = lookup(symbol, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0);
    if (found)
        *found = *fn != NULL;
    return *fn ? cudaSuccess : cudaErrorSymbolNotFound;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *symbolStatus)
{
    (void)cudaVersion;          /* CUDA 13 is the newest version ptxsim speaks */
    int found = 0;
    cudaError_t e = rt_driver_entry(symbol, flags, pfn, &found);
    if (symbolStatus)
        *symbolStatus = found ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return rt_cu_result(e);
}

/*
 * cu_int.h -- what the driver API (cu_*.c) shares: the core's internals
 * (rt_int.h) and the mapping of the core's cudaError_t to CUresult.
 */
#ifndef PTXSIM_CU_INT_H
#define PTXSIM_CU_INT_H

#include "rt_int.h"

#include <cuda.h>

/* The CUresult for a core error.  Most codes have the same number in both
 * APIs; the runtime-only ones map to what the driver documents. */
CUresult rt_cu_result(cudaError_t e);

/* The checks every driver call makes first: cuInit was called (or the
 * runtime is in use) and, with need_ctx, a context is current.  `name` is
 * the entry point's, which PTXSIM_TRACE_DRIVER=1 logs at its first call:
 * what a library really calls, of all it looks up. */
CUresult rt_cu_enter(bool need_ctx, const char *name);

/* Under PTXSIM_TRACE_DRIVER=1, log "driver: NAME called" the first time
 * NAME (a string literal: one pointer per name) is seen. */
void rt_cu_trace_call(const char *name);

/* The kernel behind a CUfunction or CUkernel handle (the same record):
 * only kernels found through a module or library, or registered by host
 * code; NULL for anything else, an invalid handle. */
rt_func *rt_cu_func(const void *f);

/* The JIT options' outputs after loading or linking (cu_link.c): the
 * info log empty, the error log `error` (or empty), each log's size the
 * bytes written, the wall time 0 (ptxsim compiles nothing).  A caller's
 * log buffers are never left as they were, holding stale bytes. */
void rt_cu_jit_outputs(unsigned n, const CUjit_option *opts, void **values, const char *error);

/* Separately compiled PTX modules (n texts, names for messages) linked as
 * the device linker links them (fe_link) and printed as one PTX module
 * into *out (malloc'd, *out_len bytes).  A CUresult; on failure err says
 * why.  Exported from libcuda.so.1 for ptxsim's libnvJitLink.so.13, which
 * links several PTX inputs with it (nvjitlink.c). */
int rt_link_ptx(const char *const *ptx, const char *const *names, unsigned n, char **out, size_t *out_len,
                char *err, size_t err_size);

/* One side of a driver 3-D copy p (cuMemcpy3D, a graph's copy node): its
 * first byte, row pitch and slice pitch; an array by the memory behind it
 * (cu_image.c). */
CUresult cu_copy_side3d(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray arr, size_t pitch,
                        size_t height, size_t x, size_t y, size_t z, const CUDA_MEMCPY3D *p, char **at,
                        size_t *out_pitch, size_t *out_slice);

/* Opens a driver call that is unsafe during capture, as RT_CAPTURE_UNSAFE
 * a runtime one (NVIDIA's static runtime makes cudaMalloc, cudaFree,
 * cudaMemcpy and cudaDeviceSynchronize these calls). */
#define CU_CAPTURE_UNSAFE() RT_CAPTURE_UNSAFE_AS(rt_cu_result)

/* CU_ENTER in an entry point; CU_ENTER_AS in a helper that several entry
 * points share, with the caller's name (its __func__), so that the trace
 * names the entry point rather than the helper. */
#define CU_ENTER(need_ctx) CU_ENTER_AS(need_ctx, __func__)
#define CU_ENTER_AS(need_ctx, name)                         \
    do {                                                    \
        CUresult cu_e_ = rt_cu_enter(need_ctx, name);       \
        if (cu_e_ != CUDA_SUCCESS)                          \
            return cu_e_;                                   \
    } while (0)

#endif /* PTXSIM_CU_INT_H */

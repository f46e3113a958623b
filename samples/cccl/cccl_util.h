/*
 * cccl_util.h -- what the CCCL samples share beside sample.h: running a CUB
 * device-wide algorithm the way CUB asks (once with no temporary storage to
 * learn its size, then for real), and reading one value back.
 */
#ifndef PTXSIM_CCCL_UTIL_H
#define PTXSIM_CCCL_UTIL_H

#include "sample.h"

/* f(temp, bytes) is one CUB call: with temp null it only sets bytes. */
template <typename F> static void cub_call(F f)
{
    size_t bytes = 0;
    CHECK(f(nullptr, bytes));
    void *temp = nullptr;
    CHECK(cudaMalloc(&temp, bytes ? bytes : 1));
    CHECK(f(temp, bytes));
    CHECK(cudaGetLastError());
    CHECK(cudaFree(temp));
}

template <typename T> static T fetch(const T *d)
{
    T v;
    CHECK(cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost));
    return v;
}

#endif /* PTXSIM_CCCL_UTIL_H */

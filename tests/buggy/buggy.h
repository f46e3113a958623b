/*
 * buggy.h -- what every deliberately buggy test program shares.
 *
 * Each program launches one kernel with one classic bug.  The fault must
 * surface at the next synchronisation with the error code a GPU gives, and
 * stay: a fault in a kernel poisons the context, so every later call
 * returns it too.  The program prints both codes and exits 0 only when they
 * are the expected ones; the test around it checks ptxsim's report.
 */
#ifndef PTXSIM_BUGGY_H
#define PTXSIM_BUGGY_H

#include <cstdio>

static inline int expect_fault(const char *name, cudaError_t want)
{
    cudaError_t e = cudaDeviceSynchronize();
    void *p = nullptr;
    cudaError_t later = cudaMalloc(&p, 16);
    std::printf("%s: synchronize: %s (%d); later cudaMalloc: %s (%d)\n", name, cudaGetErrorName(e),
                (int)e, cudaGetErrorName(later), (int)later);
    if (e == want && later == want)
        return 0;
    std::printf("%s: wanted %s (%d) from both\n", name, cudaGetErrorName(want), (int)want);
    return 1;
}

#endif /* PTXSIM_BUGGY_H */

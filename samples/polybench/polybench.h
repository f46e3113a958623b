/*
 * polybench.h -- what the PolyBench-class samples share on top of sample.h.
 *
 * Every sample keeps its inputs and its reference in double on the host and
 * runs the device code twice, with float and with double elements.  Inputs
 * are generated as float values, so both variants (and the reference) start
 * from exactly the same numbers; only the device arithmetic differs.
 *
 * The error measure is max |got - want| / max(|want|, rms(want)): a true
 * relative error for the elements of typical size or larger, and an error
 * relative to the typical size for those that cancel to near zero (where a
 * relative error would only measure the cancellation, not the program).
 */
#ifndef PTXSIM_POLYBENCH_H
#define PTXSIM_POLYBENCH_H

#include <vector>

#include "sample.h"

typedef std::vector<double> vec;

/* Blocks of b threads needed to cover n. */
static inline unsigned blocks_for(int n, int b) { return (unsigned)((n + b - 1) / b); }

/* Uniform values in [lo, hi), each a float so that both variants see it exactly. */
static inline void fill_uniform(vec &a, uint64_t seed, float lo, float hi)
{
    lcg rng(seed);
    for (double &x : a)
        x = rng.uniform(lo, hi);
}

/* A new device array of T holding h (converted from double). */
template <typename T> static T *to_device(const vec &h)
{
    std::vector<T> tmp(h.begin(), h.end());
    T *d;
    CHECK(cudaMalloc(&d, sizeof(T) * h.size()));
    CHECK(cudaMemcpy(d, tmp.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
    return d;
}

/* A new device array of n T filled with NaN bytes, for outputs the kernels
 * must write in full: an element they miss shows up as NaN in the check. */
template <typename T> static T *device_nan(size_t n)
{
    T *d;
    CHECK(cudaMalloc(&d, sizeof(T) * n));
    CHECK(cudaMemset(d, 0xFF, sizeof(T) * n));
    return d;
}

/* The device array d of n T, as doubles. */
template <typename T> static vec from_device(const T *d, size_t n)
{
    std::vector<T> tmp(n);
    CHECK(cudaMemcpy(tmp.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return vec(tmp.begin(), tmp.end());
}

/* The error measure described above.  A NaN anywhere makes the result NaN. */
static inline double max_rel_err(const vec &got, const vec &want)
{
    double ss = 0;
    for (double w : want)
        ss += w * w;
    double rms = want.empty() ? 0 : std::sqrt(ss / want.size());
    double worst = 0;
    for (size_t i = 0; i < want.size(); i++) {
        double scale = std::fabs(want[i]) > rms ? std::fabs(want[i]) : rms;
        double e = std::fabs(got[i] - want[i]) / (scale > 0 ? scale : 1.0);
        if (!(e <= worst)) {
            worst = e;
            if (worst != worst)
                break;
        }
    }
    return worst;
}

/* The larger of two errors, NaN winning. */
static inline double worse(double a, double b)
{
    if (a != a || b != b)
        return a != a ? a : b;
    return a > b ? a : b;
}

/* The verdict line for both variants; NaN errors fail. */
static inline int report_variants(sample_size size, const char *dims, double err_f, double tol_f, double err_d,
                                  double tol_d)
{
    bool ok = err_f <= tol_f && err_d <= tol_d;
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "size=%s %s float max_rel_err=%.3g double max_rel_err=%.3g (tolerance float %g, double %g)",
                  size_name(size), dims, err_f, err_d, tol_f, tol_d);
    return report(ok, detail);
}

#endif /* PTXSIM_POLYBENCH_H */

/*
 * atax -- y = A^T (A x) for an m x n matrix A, as two kernels: tmp = A x
 * with one thread per row (each walks a row), then y = A^T tmp with one
 * thread per column (each walks a column).  tmp and y are both checked.
 * Each is a sum of a few dozen to a few thousand terms; float is held to
 * 1e-4, double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void atax_ax(const T *A, const T *x, T *tmp, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    T sum = 0;
    for (int j = 0; j < n; j++)
        sum += A[i * n + j] * x[j];
    tmp[i] = sum;
}

template <typename T> __global__ void atax_aty(const T *A, const T *tmp, T *y, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    T sum = 0;
    for (int i = 0; i < m; i++)
        sum += A[i * n + j] * tmp[i];
    y[j] = sum;
}

struct problem {
    int m, n;
    vec A, x, want_tmp, want_y;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *x = to_device<T>(p.x);
    T *tmp = device_nan<T>(p.m), *y = device_nan<T>(p.n);
    atax_ax<T><<<blocks_for(p.m, 256), 256>>>(A, x, tmp, p.m, p.n);
    CHECK(cudaGetLastError());
    atax_aty<T><<<blocks_for(p.n, 256), 256>>>(A, tmp, y, p.m, p.n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(tmp, p.m), p.want_tmp), max_rel_err(from_device(y, p.n), p.want_y));
    CHECK(cudaFree(A));
    CHECK(cudaFree(x));
    CHECK(cudaFree(tmp));
    CHECK(cudaFree(y));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "atax");
    problem p;
    p.m = 38, p.n = 42;
    if (size == SIZE_SMALL)
        p.m = 1900, p.n = 2100;
    else if (size == SIZE_STANDARD)
        p.m = 3800, p.n = 4200;
    p.A.resize((size_t)p.m * p.n), p.x.resize(p.n);
    fill_uniform(p.A, 31, -1, 1);
    fill_uniform(p.x, 32, -1, 1);
    p.want_tmp.assign(p.m, 0.0), p.want_y.assign(p.n, 0.0);
    for (int i = 0; i < p.m; i++) {
        for (int j = 0; j < p.n; j++)
            p.want_tmp[i] += p.A[(size_t)i * p.n + j] * p.x[j];
        for (int j = 0; j < p.n; j++)
            p.want_y[j] += p.A[(size_t)i * p.n + j] * p.want_tmp[i];
    }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "m=%d n=%d", p.m, p.n);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

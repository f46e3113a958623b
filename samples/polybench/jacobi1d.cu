/*
 * jacobi1d -- Jacobi smoothing of a 1-D array: each step replaces every
 * interior point by the mean of itself and its two neighbours (a division
 * by 3, so the device's correctly rounded division is exercised) into B,
 * and a second kernel copies B back into A.  The time loop is on the host;
 * the end points are fixed.  Averaging cannot amplify rounding, so the
 * error grows by at most about one rounding per step: float is held to
 * 1e-4 (up to 500 steps of 6e-8), double to 1e-12.
 */
#include "polybench.h"

template <typename T> __global__ void jacobi1d_step(const T *A, T *B, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < n - 1)
        B[i] = (A[i - 1] + A[i] + A[i + 1]) / (T)3;
}

template <typename T> __global__ void jacobi1d_copy(const T *B, T *A, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < n - 1)
        A[i] = B[i];
}

struct problem {
    int n, steps;
    vec A, want;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B = to_device<T>(p.A);
    for (int t = 0; t < p.steps; t++) {
        jacobi1d_step<T><<<blocks_for(p.n, 256), 256>>>(A, B, p.n);
        CHECK(cudaGetLastError());
        jacobi1d_copy<T><<<blocks_for(p.n, 256), 256>>>(B, A, p.n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(A, p.n), p.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "jacobi1d");
    problem p;
    p.n = 1000, p.steps = 20;
    if (size == SIZE_SMALL)
        p.n = 50000, p.steps = 100;
    else if (size == SIZE_STANDARD)
        p.n = (1 << 20) + 5, p.steps = 500;
    p.A.resize(p.n);
    fill_uniform(p.A, 131, -1, 1);
    vec a = p.A, b = p.A;
    for (int t = 0; t < p.steps; t++) {
        for (int i = 1; i < p.n - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
        for (int i = 1; i < p.n - 1; i++)
            a[i] = b[i];
    }
    p.want = a;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d steps=%d", p.n, p.steps);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-12);
}

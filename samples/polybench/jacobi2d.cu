/*
 * jacobi2d -- Jacobi smoothing on an n x n grid: each step replaces every
 * interior point by a fifth of the sum of itself and its four neighbours,
 * into B, and a second kernel copies B's interior back into A.  The time
 * loop is on the host; the border is fixed.  Averaging cannot amplify
 * rounding, so the error grows by at most about one rounding per step (and
 * float's 0.2 is itself off by 1.5e-8): float is held to 1e-4, double to
 * 1e-12.
 */
#include "polybench.h"

template <typename T> __global__ void jacobi2d_step(const T *A, T *B, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        B[i * n + j] = (T)0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] + A[(i - 1) * n + j] +
                                 A[(i + 1) * n + j]);
}

template <typename T> __global__ void jacobi2d_copy(const T *B, T *A, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        A[i * n + j] = B[i * n + j];
}

struct problem {
    int n, steps;
    vec A, want;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B = to_device<T>(p.A);
    dim3 block(32, 8), grid(blocks_for(p.n, 32), blocks_for(p.n, 8));
    for (int t = 0; t < p.steps; t++) {
        jacobi2d_step<T><<<grid, block>>>(A, B, p.n);
        CHECK(cudaGetLastError());
        jacobi2d_copy<T><<<grid, block>>>(B, A, p.n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(A, p.A.size()), p.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "jacobi2d");
    problem p;
    p.n = 42, p.steps = 10;
    if (size == SIZE_SMALL)
        p.n = 500, p.steps = 20;
    else if (size == SIZE_STANDARD)
        p.n = 2000, p.steps = 100;
    int n = p.n;
    p.A.resize((size_t)n * n);
    fill_uniform(p.A, 141, -1, 1);
    vec a = p.A, b = p.A;
    for (int t = 0; t < p.steps; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                b[i * n + j] = 0.2 * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i - 1) * n + j] +
                                      a[(i + 1) * n + j]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                a[i * n + j] = b[i * n + j];
    }
    p.want = a;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d steps=%d", n, p.steps);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-12);
}

/*
 * mvt -- x1 += A y1 and x2 += A^T y2 for a square n x n matrix, one kernel
 * each (a thread per row, then a thread per column).  The updates start
 * from nonzero x1 and x2, so a kernel that overwrote instead of adding
 * shows.  Float is held to 1e-4, double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void mvt_x1(const T *A, const T *y1, T *x1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = 0; j < n; j++)
        x1[i] += A[i * n + j] * y1[j];
}

template <typename T> __global__ void mvt_x2(const T *A, const T *y2, T *x2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = 0; j < n; j++)
        x2[i] += A[j * n + i] * y2[j];
}

struct problem {
    int n;
    vec A, x1, x2, y1, y2, want_x1, want_x2;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *x1 = to_device<T>(p.x1), *x2 = to_device<T>(p.x2);
    T *y1 = to_device<T>(p.y1), *y2 = to_device<T>(p.y2);
    mvt_x1<T><<<blocks_for(p.n, 256), 256>>>(A, y1, x1, p.n);
    CHECK(cudaGetLastError());
    mvt_x2<T><<<blocks_for(p.n, 256), 256>>>(A, y2, x2, p.n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(x1, p.n), p.want_x1), max_rel_err(from_device(x2, p.n), p.want_x2));
    CHECK(cudaFree(A));
    CHECK(cudaFree(x1));
    CHECK(cudaFree(x2));
    CHECK(cudaFree(y1));
    CHECK(cudaFree(y2));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "mvt");
    problem p;
    p.n = 45;
    if (size == SIZE_SMALL)
        p.n = 2000;
    else if (size == SIZE_STANDARD)
        p.n = 4000;
    int n = p.n;
    p.A.resize((size_t)n * n), p.x1.resize(n), p.x2.resize(n), p.y1.resize(n), p.y2.resize(n);
    fill_uniform(p.A, 51, -1, 1);
    fill_uniform(p.x1, 52, -1, 1);
    fill_uniform(p.x2, 53, -1, 1);
    fill_uniform(p.y1, 54, -1, 1);
    fill_uniform(p.y2, 55, -1, 1);
    p.want_x1 = p.x1, p.want_x2 = p.x2;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            p.want_x1[i] += p.A[(size_t)i * n + j] * p.y1[j];
            p.want_x2[j] += p.A[(size_t)i * n + j] * p.y2[i];
        }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[32];
    std::snprintf(dims, sizeof dims, "n=%d", n);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

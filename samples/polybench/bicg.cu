/*
 * bicg -- the two matrix-vector products of a BiCG iteration, q = A p and
 * s = A^T r, for an n x m matrix A: one kernel with a thread per row of A
 * and one with a thread per column.  Float is held to 1e-4, double to
 * 1e-10 (sums of up to a few thousand terms of size one).
 */
#include "polybench.h"

/* s (m) = A^T r: thread j walks column j. */
template <typename T> __global__ void bicg_s(const T *A, const T *r, T *s, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    T sum = 0;
    for (int i = 0; i < n; i++)
        sum += r[i] * A[i * m + j];
    s[j] = sum;
}

/* q (n) = A p: thread i walks row i. */
template <typename T> __global__ void bicg_q(const T *A, const T *pv, T *q, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    T sum = 0;
    for (int j = 0; j < m; j++)
        sum += A[i * m + j] * pv[j];
    q[i] = sum;
}

struct problem {
    int n, m;
    vec A, p, r, want_s, want_q;
};

template <typename T> static double run(const problem &pb)
{
    T *A = to_device<T>(pb.A), *pv = to_device<T>(pb.p), *r = to_device<T>(pb.r);
    T *s = device_nan<T>(pb.m), *q = device_nan<T>(pb.n);
    bicg_s<T><<<blocks_for(pb.m, 256), 256>>>(A, r, s, pb.n, pb.m);
    CHECK(cudaGetLastError());
    bicg_q<T><<<blocks_for(pb.n, 256), 256>>>(A, pv, q, pb.n, pb.m);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(s, pb.m), pb.want_s), max_rel_err(from_device(q, pb.n), pb.want_q));
    CHECK(cudaFree(A));
    CHECK(cudaFree(pv));
    CHECK(cudaFree(r));
    CHECK(cudaFree(s));
    CHECK(cudaFree(q));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "bicg");
    problem pb;
    pb.n = 41, pb.m = 37;
    if (size == SIZE_SMALL)
        pb.n = 2100, pb.m = 1900;
    else if (size == SIZE_STANDARD)
        pb.n = 4200, pb.m = 3800;
    pb.A.resize((size_t)pb.n * pb.m), pb.p.resize(pb.m), pb.r.resize(pb.n);
    fill_uniform(pb.A, 41, -1, 1);
    fill_uniform(pb.p, 42, -1, 1);
    fill_uniform(pb.r, 43, -1, 1);
    pb.want_s.assign(pb.m, 0.0), pb.want_q.assign(pb.n, 0.0);
    for (int i = 0; i < pb.n; i++)
        for (int j = 0; j < pb.m; j++) {
            double a = pb.A[(size_t)i * pb.m + j];
            pb.want_s[j] += pb.r[i] * a;
            pb.want_q[i] += a * pb.p[j];
        }
    double ef = run<float>(pb), ed = run<double>(pb);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d m=%d", pb.n, pb.m);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

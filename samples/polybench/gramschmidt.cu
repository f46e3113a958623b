/*
 * gramschmidt -- QR factorisation of an m x n matrix (m >= n) by modified
 * Gram-Schmidt.  The host loops over the columns k and launches three
 * kernels per k: a single thread forms the norm of column k (R[k][k], a
 * square root), one thread per row scales the column into Q, and one
 * thread per later column j forms R[k][j] = Q[:,k] . A[:,j] and removes
 * that component from A[:,j].  Q and R are checked.  A is a random matrix
 * plus twice sqrt(m) on its diagonal, which keeps its condition number
 * below about 4; Gram-Schmidt loses accuracy in proportion to it, so float
 * is held to 1e-4 and double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void gs_norm(const T *A, T *R, int m, int n, int k)
{
    T sum = 0;
    for (int i = 0; i < m; i++)
        sum += A[i * n + k] * A[i * n + k];
    R[k * n + k] = sqrt(sum);
}

template <typename T> __global__ void gs_q(const T *A, const T *R, T *Q, int m, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        Q[i * n + k] = A[i * n + k] / R[k * n + k];
}

template <typename T> __global__ void gs_project(T *A, const T *Q, T *R, int m, int n, int k)
{
    int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    T dot = 0;
    for (int i = 0; i < m; i++)
        dot += Q[i * n + k] * A[i * n + j];
    R[k * n + j] = dot;
    for (int i = 0; i < m; i++)
        A[i * n + j] -= Q[i * n + k] * dot;
}

struct problem {
    int m, n;
    vec A, want_Q, want_R;
};

template <typename T> static double run(const problem &p)
{
    int m = p.m, n = p.n;
    T *A = to_device<T>(p.A), *Q = device_nan<T>((size_t)m * n), *R;
    CHECK(cudaMalloc(&R, sizeof(T) * n * n));
    CHECK(cudaMemset(R, 0, sizeof(T) * n * n));
    for (int k = 0; k < n; k++) {
        gs_norm<T><<<1, 1>>>(A, R, m, n, k);
        CHECK(cudaGetLastError());
        gs_q<T><<<blocks_for(m, 256), 256>>>(A, R, Q, m, n, k);
        CHECK(cudaGetLastError());
        if (k + 1 < n) {
            gs_project<T><<<blocks_for(n - k - 1, 256), 256>>>(A, Q, R, m, n, k);
            CHECK(cudaGetLastError());
        }
    }
    CHECK(cudaDeviceSynchronize());
    /* R's diagonal is about 2 sqrt(m) and its other entries about one, so
     * they are measured apart; R below the diagonal must stay zero. */
    vec got_R = from_device(R, (size_t)n * n), gd, wd, go, wo;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            (i == j ? gd : go).push_back(got_R[i * n + j]);
            (i == j ? wd : wo).push_back(p.want_R[i * n + j]);
        }
    double err = max_rel_err(from_device(Q, (size_t)m * n), p.want_Q);
    err = worse(err, worse(max_rel_err(gd, wd), max_rel_err(go, wo)));
    CHECK(cudaFree(A));
    CHECK(cudaFree(Q));
    CHECK(cudaFree(R));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "gramschmidt");
    problem p;
    p.m = 40, p.n = 32;
    if (size == SIZE_SMALL)
        p.m = 240, p.n = 200;
    else if (size == SIZE_STANDARD)
        p.m = 1200, p.n = 1000;
    int m = p.m, n = p.n;
    p.A.resize((size_t)m * n);
    fill_uniform(p.A, 181, -1, 1);
    for (int i = 0; i < n; i++)
        p.A[(size_t)i * n + i] = (float)(p.A[(size_t)i * n + i] + 2 * std::sqrt((double)m));
    vec a = p.A, Q((size_t)m * n), R((size_t)n * n, 0.0);
    for (int k = 0; k < n; k++) {
        double sum = 0;
        for (int i = 0; i < m; i++)
            sum += a[(size_t)i * n + k] * a[(size_t)i * n + k];
        R[(size_t)k * n + k] = std::sqrt(sum);
        for (int i = 0; i < m; i++)
            Q[(size_t)i * n + k] = a[(size_t)i * n + k] / R[(size_t)k * n + k];
        for (int j = k + 1; j < n; j++) {
            double dot = 0;
            for (int i = 0; i < m; i++)
                dot += Q[(size_t)i * n + k] * a[(size_t)i * n + j];
            R[(size_t)k * n + j] = dot;
            for (int i = 0; i < m; i++)
                a[(size_t)i * n + j] -= Q[(size_t)i * n + k] * dot;
        }
    }
    p.want_Q = Q, p.want_R = R;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "m=%d n=%d", m, n);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

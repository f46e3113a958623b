/*
 * gemver -- a rank-2 update followed by two matrix-vector products:
 *   A += u1 v1^T + u2 v2^T,  x += beta * A^T y,  x += z,  w += alpha * A x
 * as four kernels, in that order, each reading what the one before wrote.
 * A, x and w are all checked.  Float is held to 1e-4, double to 1e-10.
 */
#include "polybench.h"

template <typename T>
__global__ void gemver_rank2(T *A, const T *u1, const T *v1, const T *u2, const T *v2, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n)
        A[i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

template <typename T> __global__ void gemver_atx(const T *A, const T *y, T *x, int n, T beta)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    T sum = 0;
    for (int j = 0; j < n; j++)
        sum += A[j * n + i] * y[j];
    x[i] += beta * sum;
}

template <typename T> __global__ void gemver_addz(T *x, const T *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += z[i];
}

template <typename T> __global__ void gemver_ax(const T *A, const T *x, T *w, int n, T alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    T sum = 0;
    for (int j = 0; j < n; j++)
        sum += A[i * n + j] * x[j];
    w[i] += alpha * sum;
}

struct problem {
    int n;
    double alpha, beta;
    vec A, u1, v1, u2, v2, w, x, y, z, want_A, want_x, want_w;
};

template <typename T> static double run(const problem &p)
{
    int n = p.n;
    T *A = to_device<T>(p.A), *u1 = to_device<T>(p.u1), *v1 = to_device<T>(p.v1);
    T *u2 = to_device<T>(p.u2), *v2 = to_device<T>(p.v2), *w = to_device<T>(p.w);
    T *x = to_device<T>(p.x), *y = to_device<T>(p.y), *z = to_device<T>(p.z);
    gemver_rank2<T><<<dim3(blocks_for(n, 32), blocks_for(n, 8)), dim3(32, 8)>>>(A, u1, v1, u2, v2, n);
    CHECK(cudaGetLastError());
    gemver_atx<T><<<blocks_for(n, 256), 256>>>(A, y, x, n, (T)p.beta);
    CHECK(cudaGetLastError());
    gemver_addz<T><<<blocks_for(n, 256), 256>>>(x, z, n);
    CHECK(cudaGetLastError());
    gemver_ax<T><<<blocks_for(n, 256), 256>>>(A, x, w, n, (T)p.alpha);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(A, p.A.size()), p.want_A);
    err = worse(err, max_rel_err(from_device(x, n), p.want_x));
    err = worse(err, max_rel_err(from_device(w, n), p.want_w));
    T *all[] = {A, u1, v1, u2, v2, w, x, y, z};
    for (T *d : all)
        CHECK(cudaFree(d));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "gemver");
    problem p;
    p.n = 43;
    if (size == SIZE_SMALL)
        p.n = 1500;
    else if (size == SIZE_STANDARD)
        p.n = 4000;
    p.alpha = 1.25, p.beta = 0.75;
    int n = p.n;
    p.A.resize((size_t)n * n);
    fill_uniform(p.A, 71, -1, 1);
    vec *vecs[] = {&p.u1, &p.v1, &p.u2, &p.v2, &p.w, &p.x, &p.y, &p.z};
    for (int k = 0; k < 8; k++) {
        vecs[k]->resize(n);
        fill_uniform(*vecs[k], 72 + k, -1, 1);
    }
    p.want_A = p.A, p.want_x = p.x, p.want_w = p.w;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            p.want_A[(size_t)i * n + j] += p.u1[i] * p.v1[j] + p.u2[i] * p.v2[j];
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++)
            sum += p.want_A[(size_t)j * n + i] * p.y[j];
        p.want_x[i] += p.beta * sum + p.z[i];
    }
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++)
            sum += p.want_A[(size_t)i * n + j] * p.want_x[j];
        p.want_w[i] += p.alpha * sum;
    }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[32];
    std::snprintf(dims, sizeof dims, "n=%d", n);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

/*
 * gesummv -- y = alpha * A x + beta * B x for square n x n A and B, one
 * thread per row computing both products in one pass (the intermediate
 * A x is kept in tmp and checked too).  Float is held to 1e-4, double to
 * 1e-10.
 */
#include "polybench.h"

template <typename T>
__global__ void gesummv_kernel(const T *A, const T *B, const T *x, T *tmp, T *y, int n, T alpha, T beta)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    T ta = 0, tb = 0;
    for (int j = 0; j < n; j++) {
        ta += A[i * n + j] * x[j];
        tb += B[i * n + j] * x[j];
    }
    tmp[i] = ta;
    y[i] = alpha * ta + beta * tb;
}

struct problem {
    int n;
    double alpha, beta;
    vec A, B, x, want_tmp, want_y;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B = to_device<T>(p.B), *x = to_device<T>(p.x);
    T *tmp = device_nan<T>(p.n), *y = device_nan<T>(p.n);
    gesummv_kernel<T><<<blocks_for(p.n, 256), 256>>>(A, B, x, tmp, y, p.n, (T)p.alpha, (T)p.beta);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(tmp, p.n), p.want_tmp), max_rel_err(from_device(y, p.n), p.want_y));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(x));
    CHECK(cudaFree(tmp));
    CHECK(cudaFree(y));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "gesummv");
    problem p;
    p.n = 47;
    if (size == SIZE_SMALL)
        p.n = 1800;
    else if (size == SIZE_STANDARD)
        p.n = 4000;
    p.n = dimension_arg(argc, argv, 0, p.n);   /* gesummv SIZE [N] */
    p.alpha = 1.75, p.beta = -0.5;
    int n = p.n;
    p.A.resize((size_t)n * n), p.B.resize((size_t)n * n), p.x.resize(n);
    fill_uniform(p.A, 61, -1, 1);
    fill_uniform(p.B, 62, -1, 1);
    fill_uniform(p.x, 63, -1, 1);
    p.want_tmp.resize(n), p.want_y.resize(n);
    for (int i = 0; i < n; i++) {
        double ta = 0, tb = 0;
        for (int j = 0; j < n; j++) {
            ta += p.A[(size_t)i * n + j] * p.x[j];
            tb += p.B[(size_t)i * n + j] * p.x[j];
        }
        p.want_tmp[i] = ta;
        p.want_y[i] = p.alpha * ta + p.beta * tb;
    }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[32];
    std::snprintf(dims, sizeof dims, "n=%d", n);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

/*
 * syrk -- the symmetric rank-k update C = alpha * A A^T + beta * C on the
 * lower triangle of the n x n matrix C (A is n x m), one thread per element
 * of C: threads above the diagonal return at once, so whole warps diverge
 * along the diagonal.  The upper triangle must come back untouched.  Float
 * is held to 1e-4, double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void syrk_kernel(const T *A, T *C, int n, int m, T alpha, T beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j > i)
        return;
    T sum = 0;
    for (int k = 0; k < m; k++)
        sum += A[i * m + k] * A[j * m + k];
    C[i * n + j] = alpha * sum + beta * C[i * n + j];
}

struct problem {
    int n, m;
    double alpha, beta;
    vec A, C, want;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *C = to_device<T>(p.C);
    dim3 block(32, 8), grid(blocks_for(p.n, 32), blocks_for(p.n, 8));
    syrk_kernel<T><<<grid, block>>>(A, C, p.n, p.m, (T)p.alpha, (T)p.beta);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(C, p.C.size()), p.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(C));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "syrk");
    problem p;
    p.n = 45, p.m = 37;
    if (size == SIZE_SMALL)
        p.n = 300, p.m = 250;
    else if (size == SIZE_STANDARD)
        p.n = 1200, p.m = 1000;
    p.n = dimension_arg(argc, argv, 0, p.n);   /* syrk SIZE [N [M]] */
    p.m = dimension_arg(argc, argv, 1, p.m);
    p.alpha = 1.5, p.beta = 1.25;
    int n = p.n, m = p.m;
    p.A.resize((size_t)n * m), p.C.resize((size_t)n * n);
    fill_uniform(p.A, 81, -1, 1);
    fill_uniform(p.C, 82, -1, 1);
    p.want = p.C;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double sum = 0;
            for (int k = 0; k < m; k++)
                sum += p.A[i * m + k] * p.A[j * m + k];
            p.want[i * n + j] = p.alpha * sum + p.beta * p.C[i * n + j];
        }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d m=%d", n, m);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

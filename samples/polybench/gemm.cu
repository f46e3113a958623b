/*
 * gemm -- C = alpha * A * B + beta * C, one thread per element of C, with
 * A ni x nk, B nk x nj and C ni x nj, none a multiple of the 32 x 8 block.
 * Each element is a dot product of length nk summed in the element type;
 * the float variant is held to 1e-4 (about sqrt(nk) roundings of 6e-8 on
 * terms of size one), the double variant to 1e-10.  The kernel takes its
 * three int sizes before the pointers, as the PolyBench ports do, so the
 * first pointer follows a 4-byte parameter and needs padding to 8 bytes.
 */
#include "polybench.h"

template <typename T>
__global__ void gemm_kernel(int ni, int nj, int nk, T alpha, T beta, const T *A, const T *B, T *C)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    T sum = 0;
    for (int k = 0; k < nk; k++)
        sum += A[i * nk + k] * B[k * nj + j];
    C[i * nj + j] = alpha * sum + beta * C[i * nj + j];
}

struct problem {
    int ni, nj, nk;
    double alpha, beta;
    vec A, B, C, want;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B = to_device<T>(p.B), *C = to_device<T>(p.C);
    dim3 block(32, 8), grid(blocks_for(p.nj, 32), blocks_for(p.ni, 8));
    gemm_kernel<T><<<grid, block>>>(p.ni, p.nj, p.nk, (T)p.alpha, (T)p.beta, A, B, C);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(C, p.C.size()), p.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "gemm");
    problem p;
    p.ni = 37, p.nj = 29, p.nk = 41;
    if (size == SIZE_SMALL)
        p.ni = 200, p.nj = 190, p.nk = 210;
    else if (size == SIZE_STANDARD)
        p.ni = 1000, p.nj = 1100, p.nk = 1200;
    p.alpha = 1.25, p.beta = -0.75;
    p.A.resize((size_t)p.ni * p.nk), p.B.resize((size_t)p.nk * p.nj), p.C.resize((size_t)p.ni * p.nj);
    fill_uniform(p.A, 1, -1, 1);
    fill_uniform(p.B, 2, -1, 1);
    fill_uniform(p.C, 3, -1, 1);
    p.want.resize(p.C.size());
    for (int i = 0; i < p.ni; i++)
        for (int j = 0; j < p.nj; j++) {
            double sum = 0;
            for (int k = 0; k < p.nk; k++)
                sum += p.A[i * p.nk + k] * p.B[k * p.nj + j];
            p.want[i * p.nj + j] = p.alpha * sum + p.beta * p.C[i * p.nj + j];
        }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "ni=%d nj=%d nk=%d", p.ni, p.nj, p.nk);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

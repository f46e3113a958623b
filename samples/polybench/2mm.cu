/*
 * 2mm -- two chained matrix products, D = alpha * A * B * C + beta * D,
 * computed as the PolyBench GPU ports do: one kernel forms
 * tmp = alpha * A * B, a second forms D = tmp * C + beta * D.  Both tmp
 * and D are checked.  The sizes differ from one another and from the
 * 32 x 8 block, so a transposed index or a missed edge shows.  Two dot
 * products of a few hundred terms in float stay well inside 1e-4; double
 * is held to 1e-10.
 */
#include "polybench.h"

/* tmp (ni x nj) = alpha * A (ni x nk) * B (nk x nj) */
template <typename T>
__global__ void mm2_tmp(const T *A, const T *B, T *tmp, int ni, int nj, int nk, T alpha)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    T sum = 0;
    for (int k = 0; k < nk; k++)
        sum += alpha * A[i * nk + k] * B[k * nj + j];
    tmp[i * nj + j] = sum;
}

/* D (ni x nl) = tmp (ni x nj) * C (nj x nl) + beta * D */
template <typename T>
__global__ void mm2_d(const T *tmp, const T *C, T *D, int ni, int nl, int nj, T beta)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || l >= nl)
        return;
    T sum = beta * D[i * nl + l];
    for (int j = 0; j < nj; j++)
        sum += tmp[i * nj + j] * C[j * nl + l];
    D[i * nl + l] = sum;
}

struct problem {
    int ni, nj, nk, nl;
    double alpha, beta;
    vec A, B, C, D, want_tmp, want_D;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B = to_device<T>(p.B), *C = to_device<T>(p.C), *D = to_device<T>(p.D);
    T *tmp = device_nan<T>(p.want_tmp.size());
    dim3 block(32, 8);
    mm2_tmp<T><<<dim3(blocks_for(p.nj, 32), blocks_for(p.ni, 8)), block>>>(A, B, tmp, p.ni, p.nj, p.nk,
                                                                          (T)p.alpha);
    CHECK(cudaGetLastError());
    mm2_d<T><<<dim3(blocks_for(p.nl, 32), blocks_for(p.ni, 8)), block>>>(tmp, C, D, p.ni, p.nl, p.nj, (T)p.beta);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(tmp, p.want_tmp.size()), p.want_tmp),
                       max_rel_err(from_device(D, p.want_D.size()), p.want_D));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    CHECK(cudaFree(D));
    CHECK(cudaFree(tmp));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "2mm");
    problem p;
    p.ni = 37, p.nj = 29, p.nk = 41, p.nl = 33;
    if (size == SIZE_SMALL)
        p.ni = 180, p.nj = 190, p.nk = 210, p.nl = 200;
    else if (size == SIZE_STANDARD)
        p.ni = 800, p.nj = 900, p.nk = 1100, p.nl = 1200;
    p.alpha = 1.5, p.beta = 0.625;
    int ni = p.ni, nj = p.nj, nk = p.nk, nl = p.nl;
    p.A.resize((size_t)ni * nk), p.B.resize((size_t)nk * nj), p.C.resize((size_t)nj * nl);
    p.D.resize((size_t)ni * nl);
    fill_uniform(p.A, 11, -1, 1);
    fill_uniform(p.B, 12, -1, 1);
    fill_uniform(p.C, 13, -1, 1);
    fill_uniform(p.D, 14, -1, 1);
    p.want_tmp.assign((size_t)ni * nj, 0.0);
    p.want_D.resize(p.D.size());
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            for (int j = 0; j < nj; j++)
                p.want_tmp[i * nj + j] += p.alpha * p.A[i * nk + k] * p.B[k * nj + j];
    for (int i = 0; i < ni; i++)
        for (int l = 0; l < nl; l++) {
            double sum = p.beta * p.D[i * nl + l];
            for (int j = 0; j < nj; j++)
                sum += p.want_tmp[i * nj + j] * p.C[j * nl + l];
            p.want_D[i * nl + l] = sum;
        }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[80];
    std::snprintf(dims, sizeof dims, "ni=%d nj=%d nk=%d nl=%d", ni, nj, nk, nl);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

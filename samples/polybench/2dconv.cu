/*
 * 2dconv -- a 3 x 3 convolution of an ni x nj image with fixed weights,
 * one thread per output pixel.  Only interior pixels have all nine
 * neighbours; the border of the output keeps its initial zeros and is
 * checked too.  The weights are binary fractions (exact in float) written
 * into the kernel, so they become immediates.  Nine products of size one
 * per pixel: float is held to 1e-5, double to 1e-12.
 */
#include "polybench.h"

static const double weights[3][3] = {{0.0625, -0.125, 0.25}, {0.5, 1.0, -0.5}, {-0.25, 0.375, 0.1875}};

template <typename T> __global__ void conv2d_kernel(const T *A, T *B, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1)
        return;
    const T w[3][3] = {{(T)0.0625, (T)-0.125, (T)0.25}, {(T)0.5, (T)1.0, (T)-0.5}, {(T)-0.25, (T)0.375, (T)0.1875}};
    T sum = 0;
    for (int di = 0; di < 3; di++)
        for (int dj = 0; dj < 3; dj++)
            sum += w[di][dj] * A[(i + di - 1) * nj + (j + dj - 1)];
    B[i * nj + j] = sum;
}

struct problem {
    int ni, nj;
    vec A, want;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B;
    CHECK(cudaMalloc(&B, sizeof(T) * p.want.size()));
    CHECK(cudaMemset(B, 0, sizeof(T) * p.want.size()));
    dim3 block(32, 8), grid(blocks_for(p.nj, 32), blocks_for(p.ni, 8));
    conv2d_kernel<T><<<grid, block>>>(A, B, p.ni, p.nj);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(B, p.want.size()), p.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "2dconv");
    problem p;
    p.ni = 45, p.nj = 39;
    if (size == SIZE_SMALL)
        p.ni = 1000, p.nj = 1100;
    else if (size == SIZE_STANDARD)
        p.ni = 4096, p.nj = 4096;
    int ni = p.ni, nj = p.nj;
    p.A.resize((size_t)ni * nj);
    fill_uniform(p.A, 111, 0, 1);
    p.want.assign(p.A.size(), 0.0);
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++) {
            double sum = 0;
            for (int di = 0; di < 3; di++)
                for (int dj = 0; dj < 3; dj++)
                    sum += weights[di][dj] * p.A[(size_t)(i + di - 1) * nj + (j + dj - 1)];
            p.want[(size_t)i * nj + j] = sum;
        }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "ni=%d nj=%d", ni, nj);
    return report_variants(size, dims, ef, 1e-5, ed, 1e-12);
}

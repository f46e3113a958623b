/*
 * 3dconv -- a 3 x 3 x 3 convolution of an ni x nj x nk volume, one thread
 * per output point on a three-dimensional grid (blockIdx.z is the plane).
 * The 27 weights live in a small device array, so each point does 27
 * loads of weights and 27 of neighbours.  Border points keep their
 * initial zeros and are checked too.  Float is held to 1e-5, double to
 * 1e-12 (27 products of size one per point).
 */
#include "polybench.h"

template <typename T> __global__ void conv3d_kernel(const T *A, const T *w, T *B, int ni, int nj, int nk)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int i = blockIdx.z;
    if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1 || k < 1 || k >= nk - 1)
        return;
    T sum = 0;
    for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++)
            for (int dk = -1; dk <= 1; dk++)
                sum += w[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] * A[((i + di) * nj + (j + dj)) * nk + (k + dk)];
    B[(i * nj + j) * nk + k] = sum;
}

struct problem {
    int ni, nj, nk;
    vec A, w, want;
};

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *w = to_device<T>(p.w), *B;
    CHECK(cudaMalloc(&B, sizeof(T) * p.want.size()));
    CHECK(cudaMemset(B, 0, sizeof(T) * p.want.size()));
    dim3 block(32, 8), grid(blocks_for(p.nk, 32), blocks_for(p.nj, 8), p.ni);
    conv3d_kernel<T><<<grid, block>>>(A, w, B, p.ni, p.nj, p.nk);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(B, p.want.size()), p.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(w));
    CHECK(cudaFree(B));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "3dconv");
    problem p;
    p.ni = 18, p.nj = 20, p.nk = 36;
    if (size == SIZE_SMALL)
        p.ni = 96, p.nj = 100, p.nk = 110;
    else if (size == SIZE_STANDARD)
        p.ni = 256, p.nj = 256, p.nk = 256;
    int ni = p.ni, nj = p.nj, nk = p.nk;
    p.A.resize((size_t)ni * nj * nk);
    fill_uniform(p.A, 121, 0, 1);
    /* Weights in eighths from -4/8 to 4/8, consecutive ones different. */
    p.w.resize(27);
    for (int t = 0; t < 27; t++)
        p.w[t] = ((t * 5 + 3) % 9 - 4) / 8.0;
    p.want.assign(p.A.size(), 0.0);
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            for (int k = 1; k < nk - 1; k++) {
                double sum = 0;
                for (int t = 0; t < 27; t++)
                    sum += p.w[t] * p.A[((size_t)(i + t / 9 - 1) * nj + (j + t / 3 % 3 - 1)) * nk + (k + t % 3 - 1)];
                p.want[((size_t)i * nj + j) * nk + k] = sum;
            }
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "ni=%d nj=%d nk=%d", ni, nj, nk);
    return report_variants(size, dims, ef, 1e-5, ed, 1e-12);
}

/*
 * covariance -- the m x m sample covariance matrix of n observations of m
 * variables (data is n x m), as three kernels: the mean of each column,
 * the data centred in place, and one thread per variable j1 that fills
 * cov[j1][j2] and cov[j2][j1] for all j2 >= j1 (loops of different lengths
 * within a warp), dividing by n - 1.  Each column has its own offset, so
 * the centring matters; the columns share a common factor, so the matrix
 * is not near diagonal.  Float is held to 1e-4, double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void cov_mean(const T *data, T *mean, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    T sum = 0;
    for (int i = 0; i < n; i++)
        sum += data[i * m + j];
    mean[j] = sum / (T)n;
}

template <typename T> __global__ void cov_center(T *data, const T *mean, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m)
        data[i * m + j] -= mean[j];
}

template <typename T> __global__ void cov_matrix(const T *data, T *cov, int n, int m)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 >= m)
        return;
    for (int j2 = j1; j2 < m; j2++) {
        T sum = 0;
        for (int i = 0; i < n; i++)
            sum += data[i * m + j1] * data[i * m + j2];
        sum /= (T)(n - 1);
        cov[j1 * m + j2] = sum;
        cov[j2 * m + j1] = sum;
    }
}

struct problem {
    int n, m;
    vec data, want_mean, want_cov;
};

template <typename T> static double run(const problem &p)
{
    int n = p.n, m = p.m;
    T *data = to_device<T>(p.data), *mean = device_nan<T>(m), *cov = device_nan<T>((size_t)m * m);
    cov_mean<T><<<blocks_for(m, 256), 256>>>(data, mean, n, m);
    CHECK(cudaGetLastError());
    cov_center<T><<<dim3(blocks_for(m, 32), blocks_for(n, 8)), dim3(32, 8)>>>(data, mean, n, m);
    CHECK(cudaGetLastError());
    cov_matrix<T><<<blocks_for(m, 256), 256>>>(data, cov, n, m);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(mean, m), p.want_mean),
                       max_rel_err(from_device(cov, (size_t)m * m), p.want_cov));
    CHECK(cudaFree(data));
    CHECK(cudaFree(mean));
    CHECK(cudaFree(cov));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "covariance");
    problem p;
    p.n = 44, p.m = 30;
    if (size == SIZE_SMALL)
        p.n = 400, p.m = 300;
    else if (size == SIZE_STANDARD)
        p.n = 1400, p.m = 1200;
    int n = p.n, m = p.m;
    p.data.resize((size_t)n * m);
    lcg rng(201);
    for (int i = 0; i < n; i++) {
        double z = rng.uniform(-1, 1);
        for (int j = 0; j < m; j++)
            p.data[(size_t)i * m + j] =
                (float)((j % 4) - 1.5 + z * (((j * 5) % 9 - 4) / 4.0) + rng.uniform(-1, 1));
    }
    vec d = p.data, mean(m), cov((size_t)m * m);
    for (int j = 0; j < m; j++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += d[(size_t)i * m + j];
        mean[j] = sum / n;
        for (int i = 0; i < n; i++)
            d[(size_t)i * m + j] -= mean[j];
    }
    for (int j1 = 0; j1 < m; j1++)
        for (int j2 = j1; j2 < m; j2++) {
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += d[(size_t)i * m + j1] * d[(size_t)i * m + j2];
            cov[(size_t)j1 * m + j2] = cov[(size_t)j2 * m + j1] = sum / (n - 1);
        }
    p.want_mean = mean, p.want_cov = cov;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d m=%d", n, m);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

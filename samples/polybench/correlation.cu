/*
 * correlation -- the m x m correlation matrix of n observations of m
 * variables (data is n x m), as four kernels: the mean of each column, its
 * standard deviation (a square root, with columns whose deviation is at
 * most 0.1 taken as 1 so that a constant column does not divide by zero),
 * the data centred and scaled by sqrt(n) times the deviation, and then one
 * thread per variable j1 that sets corr[j1][j1] = 1 and fills corr[j1][j2]
 * and corr[j2][j1] for all j2 > j1, so threads of a warp run loops of
 * different lengths.  Column 3 is constant, to take the guard.  The data
 * are correlated (each column mixes a shared factor with its own noise),
 * so the matrix is not near the identity.  Correlations lie in [-1, 1];
 * float is held to 1e-4, double to 1e-10.
 */
#include "polybench.h"

static const double EPS = 0.1;

template <typename T> __global__ void corr_mean(const T *data, T *mean, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    T sum = 0;
    for (int i = 0; i < n; i++)
        sum += data[i * m + j];
    mean[j] = sum / (T)n;
}

template <typename T> __global__ void corr_stddev(const T *data, const T *mean, T *stddev, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    T sum = 0;
    for (int i = 0; i < n; i++) {
        T d = data[i * m + j] - mean[j];
        sum += d * d;
    }
    T s = sqrt(sum / (T)n);
    stddev[j] = s <= (T)EPS ? (T)1 : s;
}

template <typename T> __global__ void corr_normalize(T *data, const T *mean, const T *stddev, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m)
        data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrt((T)n) * stddev[j]);
}

template <typename T> __global__ void corr_matrix(const T *data, T *corr, int n, int m)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 >= m)
        return;
    corr[j1 * m + j1] = 1;
    for (int j2 = j1 + 1; j2 < m; j2++) {
        T sum = 0;
        for (int i = 0; i < n; i++)
            sum += data[i * m + j1] * data[i * m + j2];
        corr[j1 * m + j2] = sum;
        corr[j2 * m + j1] = sum;
    }
}

struct problem {
    int n, m;
    vec data, want_mean, want_std, want_corr;
};

template <typename T> static double run(const problem &p)
{
    int n = p.n, m = p.m;
    T *data = to_device<T>(p.data), *mean = device_nan<T>(m), *stddev = device_nan<T>(m);
    T *corr = device_nan<T>((size_t)m * m);
    corr_mean<T><<<blocks_for(m, 256), 256>>>(data, mean, n, m);
    CHECK(cudaGetLastError());
    corr_stddev<T><<<blocks_for(m, 256), 256>>>(data, mean, stddev, n, m);
    CHECK(cudaGetLastError());
    corr_normalize<T><<<dim3(blocks_for(m, 32), blocks_for(n, 8)), dim3(32, 8)>>>(data, mean, stddev, n, m);
    CHECK(cudaGetLastError());
    corr_matrix<T><<<blocks_for(m, 256), 256>>>(data, corr, n, m);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(mean, m), p.want_mean);
    err = worse(err, max_rel_err(from_device(stddev, m), p.want_std));
    err = worse(err, max_rel_err(from_device(corr, (size_t)m * m), p.want_corr));
    CHECK(cudaFree(data));
    CHECK(cudaFree(mean));
    CHECK(cudaFree(stddev));
    CHECK(cudaFree(corr));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "correlation");
    problem p;
    p.n = 40, p.m = 28;
    if (size == SIZE_SMALL)
        p.n = 400, p.m = 300;
    else if (size == SIZE_STANDARD)
        p.n = 1400, p.m = 1200;
    int n = p.n, m = p.m;
    p.data.resize((size_t)n * m);
    lcg rng(191);
    for (int i = 0; i < n; i++) {
        double z = rng.uniform(-1, 1);
        for (int j = 0; j < m; j++)
            p.data[(size_t)i * m + j] = j == 3 ? 0.5 : (float)(z * (((j * 7) % 11 - 5) / 4.0) + rng.uniform(-1, 1));
    }
    vec d = p.data, mean(m), sd(m), corr((size_t)m * m);
    for (int j = 0; j < m; j++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += d[(size_t)i * m + j];
        mean[j] = sum / n;
        double ss = 0;
        for (int i = 0; i < n; i++)
            ss += (d[(size_t)i * m + j] - mean[j]) * (d[(size_t)i * m + j] - mean[j]);
        sd[j] = std::sqrt(ss / n);
        if (sd[j] <= EPS)
            sd[j] = 1;
        for (int i = 0; i < n; i++)
            d[(size_t)i * m + j] = (d[(size_t)i * m + j] - mean[j]) / (std::sqrt((double)n) * sd[j]);
    }
    for (int j1 = 0; j1 < m; j1++) {
        corr[(size_t)j1 * m + j1] = 1;
        for (int j2 = j1 + 1; j2 < m; j2++) {
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += d[(size_t)i * m + j1] * d[(size_t)i * m + j2];
            corr[(size_t)j1 * m + j2] = corr[(size_t)j2 * m + j1] = sum;
        }
    }
    p.want_mean = mean, p.want_std = sd, p.want_corr = corr;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d m=%d", n, m);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

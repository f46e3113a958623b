/*
 * cub_scan -- device-wide prefix scans with CUB: cub::DeviceScan::
 * ExclusiveSum and InclusiveSum of unsigned ints (also in place) and of
 * floats, and InclusiveScan / ExclusiveScan with user functors (a running
 * maximum, a running minimum from an initial value).
 *
 * CUB scans in one pass with decoupled look-back: each block publishes its
 * tile's aggregate and then its inclusive prefix in a tile-status array, and
 * a block whose predecessors have not finished spins on their flags.  The
 * lengths below span one tile (no look-back) to dozens of tiles.  Unsigned
 * sums wrap the same on host and device and running max/min are exact;
 * float prefixes are compared with a double-precision host prefix within a
 * relative 1e-5 of the running sum of magnitudes.
 */
#include "cccl_util.h"

#include <cub/device/device_scan.cuh>

#include <climits>
#include <vector>

struct MaxOp {
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

struct MinOp {
    __host__ __device__ int operator()(int a, int b) const { return b < a ? b : a; }
};

template <typename T> static std::vector<T> download(const T *d, int n)
{
    std::vector<T> v(n);
    CHECK(cudaMemcpy(v.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return v;
}

/* Every scan over n elements; returns the number of wrong elements. */
static int check_length(int n, lcg &rng, unsigned *last_total)
{
    std::vector<unsigned> u(n);
    std::vector<int> s(n);
    std::vector<float> f(n);
    for (int i = 0; i < n; i++) {
        u[i] = rng.next();
        s[i] = (int)(rng.next() % 2000001) - 1000000;
        f[i] = rng.uniform(-1.0f, 2.0f);
    }
    unsigned *du, *dux, *dui, *duin;
    int *ds, *dsmax, *dsmin;
    float *df, *dfi;
    CHECK(cudaMalloc(&du, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dux, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dui, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&duin, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&ds, sizeof(int) * n));
    CHECK(cudaMalloc(&dsmax, sizeof(int) * n));
    CHECK(cudaMalloc(&dsmin, sizeof(int) * n));
    CHECK(cudaMalloc(&df, sizeof(float) * n));
    CHECK(cudaMalloc(&dfi, sizeof(float) * n));
    CHECK(cudaMemcpy(du, u.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(duin, u.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, s.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(df, f.data(), sizeof(float) * n, cudaMemcpyHostToDevice));

    cub_call([&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, du, dux, n); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, du, dui, n); });
    /* In place: the input is overwritten by its own inclusive scan. */
    cub_call([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, duin, duin, n); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, df, dfi, n); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveScan(t, b, ds, dsmax, MaxOp(), n); });
    cub_call([&](void *t, size_t &b) {
        return cub::DeviceScan::ExclusiveScan(t, b, ds, dsmin, MinOp(), INT_MAX, n);
    });
    CHECK(cudaDeviceSynchronize());

    std::vector<unsigned> ux = download(dux, n), ui = download(dui, n), uin = download(duin, n);
    std::vector<int> smax = download(dsmax, n), smin = download(dsmin, n);
    std::vector<float> fi = download(dfi, n);
    int wrong = 0, first = -1;
    unsigned acc = 0;
    int run_max = INT_MIN, run_min = INT_MAX;
    double facc = 0, fmag = 0;
    for (int i = 0; i < n; i++) {
        int bad = 0;
        bad += ux[i] != acc;
        bad += smin[i] != run_min;
        acc += u[i];
        run_max = s[i] > run_max ? s[i] : run_max;
        run_min = s[i] < run_min ? s[i] : run_min;
        facc += f[i];
        fmag += std::fabs(f[i]);
        bad += ui[i] != acc;
        bad += uin[i] != acc;
        bad += smax[i] != run_max;
        bad += !(std::fabs(fi[i] - facc) <= 1e-5 * (fmag + 1.0));
        if (bad && first < 0)
            first = i;
        wrong += bad;
    }
    if (wrong)
        std::printf("n=%d: %d wrong, first at %d: exclusive %u inclusive %u in-place %u (want %u then %u) "
                    "max %d min %d float %.7g\n",
                    n, wrong, first, ux[first], ui[first], uin[first], 0u, 0u, smax[first], smin[first],
                    fi[first]);
    *last_total = acc;
    for (void *p : {(void *)du, (void *)dux, (void *)dui, (void *)duin, (void *)ds, (void *)dsmax,
                    (void *)dsmin, (void *)df, (void *)dfi})
        CHECK(cudaFree(p));
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cub_scan");
    /* One element, part of a tile, and many tiles (whose blocks look back). */
    std::vector<int> lengths = {1, 7, 1000};
    if (size == SIZE_TINY)
        lengths.push_back(20000 + 3);
    else if (size == SIZE_SMALL)
        lengths.insert(lengths.end(), {100000 + 3, 1000000 + 7});
    else
        lengths.insert(lengths.end(), {1000000 + 7, (1 << 24) + 5});

    lcg rng(23);
    int wrong = 0;
    unsigned total = 0;
    for (int n : lengths)
        wrong += check_length(n, rng, &total);

    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s lengths=%zu largest n=%d total=%u wrong=%d (tolerance: exact, float prefixes 1e-5 relative)",
                  size_name(size), lengths.size(), lengths.back(), total, wrong);
    return report(wrong == 0, detail);
}

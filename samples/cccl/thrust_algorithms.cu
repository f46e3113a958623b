/*
 * thrust_algorithms -- the Thrust algorithms programs reach for first, on
 * thrust::device_vector: transform (a saxpy and a unary functor),
 * reduce (sum, and max with a functor), inclusive_scan and exclusive_scan,
 * sort (of ints, which Thrust hands to CUB's radix sort, and of floats
 * with a user comparator, which takes its merge sort), sort_by_key,
 * count_if, and copies between host and device vectors.
 *
 * Integer results are exact; float results that are sums (the saxpy is
 * exact elementwise, a reduction is not) are compared with a
 * double-precision host computation within a relative 1e-5.
 */
#include "sample.h"

#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <vector>

struct saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct square {
    __host__ __device__ int operator()(int x) const { return x * x; }
};

struct int_max {
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

/* Descending by magnitude: a comparator Thrust cannot radix-sort with. */
struct by_magnitude_desc {
    __host__ __device__ bool operator()(float a, float b) const
    {
        return (a < 0 ? -a : a) > (b < 0 ? -b : b);
    }
};

static int check_length(int n, lcg &rng, long long *sum_out)
{
    std::vector<int> hi(n);
    std::vector<float> hx(n), hy(n);
    for (int i = 0; i < n; i++) {
        hi[i] = (int)(rng.next() % 20001) - 10000;
        /* Multiples of 1/64 below 64 in magnitude: 2*x + y is exact in float. */
        hx[i] = (float)((int)(rng.next() % 8192) - 4096) / 64.0f;
        hy[i] = (float)((int)(rng.next() % 8192) - 4096) / 64.0f;
    }
    int wrong = 0;

    thrust::device_vector<int> di(hi.begin(), hi.end());
    thrust::device_vector<float> dx(hx.begin(), hx.end()), dy(hy.begin(), hy.end());

    /* transform: z = 2x + y, and squares of the ints. */
    thrust::device_vector<float> dz(n);
    thrust::transform(dx.begin(), dx.end(), dy.begin(), dz.begin(), saxpy{2.0f});
    thrust::device_vector<int> dsq(n);
    thrust::transform(di.begin(), di.end(), dsq.begin(), square());
    thrust::host_vector<float> z = dz;
    thrust::host_vector<int> sq = dsq;
    for (int i = 0; i < n; i++)
        wrong += z[i] != 2.0f * hx[i] + hy[i] || sq[i] != hi[i] * hi[i];

    /* reduce: sums of ints (exact) and floats, and a max with a functor. */
    long long want_sum = std::accumulate(hi.begin(), hi.end(), 0ll);
    int sum = thrust::reduce(di.begin(), di.end());
    int mx = thrust::reduce(di.begin(), di.end(), INT_MIN, int_max());
    float fsum = thrust::reduce(dz.begin(), dz.end(), 0.0f, thrust::plus<float>());
    double want_fsum = 0, mag = 0;
    for (int i = 0; i < n; i++) {
        want_fsum += (double)z[i];
        mag += std::fabs((double)z[i]);
    }
    wrong += sum != (int)want_sum;
    wrong += mx != *std::max_element(hi.begin(), hi.end());
    wrong += !(std::fabs(fsum - want_fsum) <= 1e-5 * (mag + 1.0));
    *sum_out = want_sum;

    /* count_if */
    int odd = (int)thrust::count_if(di.begin(), di.end(), is_odd());
    wrong += odd != (int)std::count_if(hi.begin(), hi.end(), [](int x) { return x & 1; });

    /* inclusive_scan and exclusive_scan of the ints. */
    thrust::device_vector<int> dscan(n), dex(n);
    thrust::inclusive_scan(di.begin(), di.end(), dscan.begin());
    thrust::exclusive_scan(di.begin(), di.end(), dex.begin(), 100);
    thrust::host_vector<int> scan = dscan, ex = dex;
    int acc = 0;
    for (int i = 0; i < n; i++) {
        wrong += ex[i] != acc + 100;
        acc += hi[i];
        wrong += scan[i] != acc;
    }

    /* sort: ints ascending (radix sort), floats by a comparator (merge sort). */
    thrust::device_vector<int> dsorted = di;
    thrust::sort(dsorted.begin(), dsorted.end());
    std::vector<int> want_sorted = hi;
    std::sort(want_sorted.begin(), want_sorted.end());
    thrust::host_vector<int> sorted = dsorted;
    for (int i = 0; i < n; i++)
        wrong += sorted[i] != want_sorted[i];

    thrust::device_vector<float> dmag = dz;
    thrust::stable_sort(dmag.begin(), dmag.end(), by_magnitude_desc());
    std::vector<float> want_mag(z.begin(), z.end());
    std::stable_sort(want_mag.begin(), want_mag.end(), by_magnitude_desc());
    thrust::host_vector<float> mag_sorted = dmag;
    for (int i = 0; i < n; i++)
        wrong += mag_sorted[i] != want_mag[i];

    /* sort_by_key: the ints carry their positions along. */
    thrust::device_vector<int> dkeys = di, dpos(n);
    thrust::sequence(dpos.begin(), dpos.end());
    thrust::sort_by_key(dkeys.begin(), dkeys.end(), dpos.begin());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hi[a] < hi[b]; });
    thrust::host_vector<int> pos = dpos;
    for (int i = 0; i < n; i++)
        wrong += pos[i] != order[i];

    if (wrong)
        std::printf("n=%d: %d wrong (sum %d want %lld, max %d, float sum %.7g want %.7g, odd %d)\n", n, wrong,
                    sum, want_sum, mx, fsum, want_fsum, odd);
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "thrust_algorithms");
    std::vector<int> lengths = {1, 100};
    if (size == SIZE_TINY)
        lengths.push_back(10000 + 3);
    else if (size == SIZE_SMALL)
        lengths.insert(lengths.end(), {100000 + 3, 1000000 + 7});
    else
        lengths.insert(lengths.end(), {1000000 + 7, (1 << 23) + 5});

    lcg rng(31);
    int wrong = 0;
    long long sum = 0;
    for (int n : lengths)
        wrong += check_length(n, rng, &sum);

    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s lengths=%zu largest n=%d int sum=%lld wrong=%d (tolerance: exact, float sums 1e-5 relative)",
                  size_name(size), lengths.size(), lengths.back(), sum, wrong);
    return report(wrong == 0, detail);
}

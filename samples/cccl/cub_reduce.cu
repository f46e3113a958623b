/*
 * cub_reduce -- device-wide reductions with CUB: cub::DeviceReduce::Sum and
 * ::Max on int and float, and ::Reduce with user functors (the largest
 * magnitude of ints, the smallest float, and a struct carrying a float's
 * minimum and maximum at once).  Each call is made the way CUB asks: once
 * with no temporary storage to learn its size, then for real.
 *
 * Several lengths run, from one element (CUB's single-tile kernel) to many
 * tiles (its two-pass reduction: per-block partials, then one block over
 * those).  Integer results and float maxima and minima are exact; float sums
 * are compared with a double-precision host sum, within a relative 1e-5
 * (the device adds in another order).
 */
#include "cccl_util.h"

#include <cub/device/device_reduce.cuh>

#include <cfloat>
#include <climits>
#include <vector>

/* max(|a|, |b|): commutative and associative, so CUB may apply it in any order. */
struct AbsMax {
    __host__ __device__ int operator()(int a, int b) const
    {
        int x = a < 0 ? -a : a, y = b < 0 ? -b : b;
        return x > y ? x : y;
    }
};

struct FloatMin {
    __host__ __device__ float operator()(float a, float b) const { return b < a ? b : a; }
};

/* A reduction whose value is a struct: the range of the inputs. */
struct Range {
    float lo, hi;
};

struct RangeOp {
    __host__ __device__ Range operator()(const Range &a, const Range &b) const
    {
        return Range{b.lo < a.lo ? b.lo : a.lo, b.hi > a.hi ? b.hi : a.hi};
    }
};

/* Each float becomes the one-point range [x, x]. */
struct ToRange {
    __host__ __device__ Range operator()(float x) const { return Range{x, x}; }
};

/* Every reduction over n elements; returns the number of wrong results. */
static int check_length(int n, lcg &rng, long long *int_sum_out)
{
    std::vector<int> ints(n);
    std::vector<float> floats(n);
    for (int i = 0; i < n; i++) {
        ints[i] = (int)(rng.next() % 2001) - 1000;
        floats[i] = rng.uniform(-1.0f, 3.0f);
    }
    long long isum = 0;
    int imax = INT_MIN, iabs = 0;
    double fsum = 0, fabs_sum = 0;
    float fmax = -FLT_MAX, fmin = FLT_MAX;
    for (int i = 0; i < n; i++) {
        isum += ints[i];
        imax = ints[i] > imax ? ints[i] : imax;
        iabs = AbsMax()(iabs, ints[i]);
        fsum += floats[i];
        fabs_sum += std::fabs(floats[i]);
        fmax = floats[i] > fmax ? floats[i] : fmax;
        fmin = floats[i] < fmin ? floats[i] : fmin;
    }

    int *din, *dout;
    float *fin, *fout;
    Range *rout;
    CHECK(cudaMalloc(&din, sizeof(int) * n));
    CHECK(cudaMalloc(&fin, sizeof(float) * n));
    CHECK(cudaMalloc(&dout, sizeof(int) * 3));
    CHECK(cudaMalloc(&fout, sizeof(float) * 3));
    CHECK(cudaMalloc(&rout, sizeof(Range)));
    CHECK(cudaMemcpy(din, ints.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(fin, floats.data(), sizeof(float) * n, cudaMemcpyHostToDevice));

    cub_call([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, din, dout, n); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, din, dout + 1, n); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceReduce::Reduce(t, b, din, dout + 2, n, AbsMax(), 0); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, fin, fout, n); });
    cub_call([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, fin, fout + 1, n); });
    cub_call([&](void *t, size_t &b) {
        return cub::DeviceReduce::Reduce(t, b, fin, fout + 2, n, FloatMin(), FLT_MAX);
    });
    cub_call([&](void *t, size_t &b) {
        return cub::DeviceReduce::TransformReduce(t, b, fin, rout, n, RangeOp(), ToRange(),
                                                  Range{FLT_MAX, -FLT_MAX});
    });
    CHECK(cudaDeviceSynchronize());

    int wrong = 0;
    int got_isum = fetch(dout), got_imax = fetch(dout + 1), got_iabs = fetch(dout + 2);
    float got_fsum = fetch(fout), got_fmax = fetch(fout + 1), got_fmin = fetch(fout + 2);
    Range got_range = fetch(rout);
    wrong += got_isum != (int)isum;
    wrong += got_imax != imax;
    wrong += got_iabs != iabs;
    /* The error bound of a sum in any order scales with the sum of magnitudes. */
    wrong += !(std::fabs(got_fsum - fsum) <= 1e-5 * (fabs_sum + 1.0));
    wrong += got_fmax != fmax;
    wrong += got_fmin != fmin;
    wrong += got_range.lo != fmin || got_range.hi != fmax;
    if (wrong)
        std::printf("n=%d: int sum %d (want %lld) max %d (%d) absmax %d (%d); float sum %.7g (%.7g) "
                    "max %.9g (%.9g) min %.9g (%.9g) range [%.9g, %.9g]\n",
                    n, got_isum, isum, got_imax, imax, got_iabs, iabs, got_fsum, fsum, got_fmax, fmax,
                    got_fmin, fmin, got_range.lo, got_range.hi);
    *int_sum_out = isum;

    CHECK(cudaFree(din));
    CHECK(cudaFree(fin));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(fout));
    CHECK(cudaFree(rout));
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cub_reduce");
    /* One element, a partial tile, and lengths of several tiles (not a
     * multiple of any tile), so both of CUB's paths run. */
    std::vector<int> lengths = {1, 7, 1000};
    if (size == SIZE_TINY)
        lengths.push_back(20000 + 3);
    else if (size == SIZE_SMALL)
        lengths.insert(lengths.end(), {100000 + 3, 1000000 + 7});
    else
        lengths.insert(lengths.end(), {1000000 + 7, (1 << 24) + 5});

    lcg rng(17);
    int wrong = 0;
    long long last_sum = 0;
    for (int n : lengths)
        wrong += check_length(n, rng, &last_sum);

    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s lengths=%zu largest n=%d int sum=%lld wrong=%d (tolerance: exact, float sums 1e-5 relative)",
                  size_name(size), lengths.size(), lengths.back(), last_sum, wrong);
    return report(wrong == 0, detail);
}

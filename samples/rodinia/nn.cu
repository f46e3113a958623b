/*
 * nn -- k nearest neighbours of a few query locations among many records
 * (latitude, longitude).  The device computes every record's Euclidean
 * distance to the query, one thread per record; the host then selects the
 * k smallest.  Several queries, one launch each.
 *
 * Checked against the host: every distance to relative 1e-6 (the device's
 * float sqrt against a double one), and the selected records must be the
 * host's k nearest, except where two distances agree to 1e-6 relative (a
 * tie that float rounding may order either way).
 */
#include "sample.h"

#include <algorithm>
#include <vector>

struct latlng {
    float lat, lng;
};

__global__ void distances(const latlng *rec, float *dist, int n, float qlat, float qlng)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float dy = rec[i].lat - qlat, dx = rec[i].lng - qlng;
        dist[i] = sqrtf(dx * dx + dy * dy);
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "nn");
    int n = size == SIZE_TINY ? 5000 : size == SIZE_SMALL ? 1000000 : 8000000;
    const int k = 10, nq = 4;

    lcg rng(91);
    std::vector<latlng> rec(n);
    for (int i = 0; i < n; i++) {
        rec[i].lat = rng.uniform(-60.0f, 70.0f);
        rec[i].lng = rng.uniform(-180.0f, 180.0f);
    }
    latlng *d_rec;
    float *d_dist;
    CHECK(cudaMalloc(&d_rec, sizeof(latlng) * n));
    CHECK(cudaMalloc(&d_dist, sizeof(float) * n));
    CHECK(cudaMemcpy(d_rec, rec.data(), sizeof(latlng) * n, cudaMemcpyHostToDevice));

    std::vector<float> dist(n);
    std::vector<int> idx(n);
    double max_rel = 0;
    int wrong = 0;
    float nearest = 0;
    for (int q = 0; q < nq; q++) {
        float qlat = rng.uniform(-50.0f, 60.0f), qlng = rng.uniform(-170.0f, 170.0f);
        distances<<<(n + 255) / 256, 256>>>(d_rec, d_dist, n, qlat, qlng);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(dist.data(), d_dist, sizeof(float) * n, cudaMemcpyDeviceToHost));

        /* Host selection of the k nearest from the device's distances. */
        for (int i = 0; i < n; i++)
            idx[i] = i;
        std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                          [&](int a, int b) { return dist[a] != dist[b] ? dist[a] < dist[b] : a < b; });
        std::vector<int> got(idx.begin(), idx.begin() + k);
        if (q == 0)
            nearest = dist[got[0]];

        /* Reference distances in double, and the true k nearest. */
        std::vector<double> ref(n);
        for (int i = 0; i < n; i++) {
            double dy = (double)rec[i].lat - qlat, dx = (double)rec[i].lng - qlng;
            ref[i] = std::sqrt(dx * dx + dy * dy);
            double rel = std::fabs(dist[i] - ref[i]) / (ref[i] > 1e-3 ? ref[i] : 1e-3);
            if (!(rel <= max_rel))
                max_rel = rel;
        }
        for (int i = 0; i < n; i++)
            idx[i] = i;
        std::partial_sort(idx.begin(), idx.begin() + k + 1, idx.end(),
                          [&](int a, int b) { return ref[a] != ref[b] ? ref[a] < ref[b] : a < b; });
        for (int j = 0; j < k; j++)
            if (got[j] != idx[j]) {
                /* Acceptable only as a near-tie with the reference's j-th (or the (k+1)-th). */
                double a = ref[got[j]], b = ref[idx[j]];
                if (std::fabs(a - b) > 1e-6 * b)
                    wrong++;
            }
    }
    bool ok = max_rel <= 1e-6 && wrong == 0;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s records=%d queries=%d k=%d nearest=%.4f max_rel_err=%.3g wrong neighbours=%d "
                  "(tolerance 1e-6)",
                  size_name(size), n, nq, k, nearest, max_rel, wrong);
    CHECK(cudaFree(d_rec));
    CHECK(cudaFree(d_dist));
    return report(ok, detail);
}

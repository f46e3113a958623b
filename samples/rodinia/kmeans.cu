/*
 * kmeans -- Lloyd's k-means clustering: the assignment step on the device,
 * the centroid update on the host, repeated until few points move.
 *
 * A first kernel transposes the point-major features into feature-major
 * order so that, in the assignment kernel, neighbouring threads (points)
 * read neighbouring words.  The centroids go to __constant__ memory with
 * cudaMemcpyToSymbol before each assignment launch; every thread reads the
 * same centroid element at the same time, the access constant memory is
 * made for.  The assignment kernel reads the features through a texture
 * object over the linear feature array (tex1Dfetch), as the Rodinia version
 * does, so they go through the texture path.
 *
 * Each assignment step is checked against the host's, given the same
 * centroids: a point may only differ if its two candidate distances agree
 * to 1e-5 relative (a tie that float rounding may break either way).  The
 * centroids the host derives from the device's assignments are what the
 * next step uses, so the two never drift apart.
 */
#include "sample.h"

#include <vector>

#define MAX_K 8
#define MAX_F 16

__constant__ float c_centroids[MAX_K * MAX_F];

__global__ void transpose_features(const float *points, float *features, int n, int nf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int f = 0; f < nf; f++)
            features[f * n + i] = points[i * nf + f];
}

__global__ void assign(cudaTextureObject_t features, int *membership, int *changed, int n, int nf, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int best = 0;
    float best_d = 3.0e38f;
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
        for (int f = 0; f < nf; f++) {
            float diff = tex1Dfetch<float>(features, f * n + i) - c_centroids[c * nf + f];
            d += diff * diff;
        }
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    if (membership[i] != best) {
        membership[i] = best;
        atomicAdd(changed, 1);
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "kmeans");
    int n = 2048, nf = 8, k = 5, max_iters = 12;
    if (size == SIZE_SMALL)
        n = 32768, nf = 16, k = 8, max_iters = 20;
    else if (size == SIZE_STANDARD)
        n = 494020, nf = 16, k = 8, max_iters = 30;

    /* Points scattered around k (unevenly spread) true centres. */
    lcg rng(53);
    std::vector<float> centre(k * nf), points(n * nf);
    for (int c = 0; c < k * nf; c++)
        centre[c] = rng.uniform(-10.0f, 10.0f);
    for (int i = 0; i < n; i++) {
        int c = (int)(rng.next() % k);
        float spread = 1.0f + (float)c;
        for (int f = 0; f < nf; f++)
            points[i * nf + f] = centre[c * nf + f] + rng.uniform(-spread, spread);
    }
    /* Start from the first k points. */
    std::vector<float> centroids(points.begin(), points.begin() + k * nf);

    float *d_points, *d_features;
    int *d_member, *d_changed;
    CHECK(cudaMalloc(&d_points, sizeof(float) * n * nf));
    CHECK(cudaMalloc(&d_features, sizeof(float) * n * nf));
    CHECK(cudaMalloc(&d_member, sizeof(int) * n));
    CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CHECK(cudaMemcpy(d_points, points.data(), sizeof(float) * n * nf, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_member, 0xff, sizeof(int) * n)); /* -1: no cluster yet */
    int block = 128, grid = (n + block - 1) / block;
    transpose_features<<<grid, block>>>(d_points, d_features, n, nf);
    CHECK(cudaGetLastError());
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_features;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = sizeof(float) * n * nf;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t features;
    CHECK(cudaCreateTextureObject(&features, &res, &td, nullptr));

    std::vector<int> member(n, -1), prev(n, -1);
    int iters = 0, bad = 0, ties = 0, count_bad = 0, changed = n;
    while (iters < max_iters && changed > n / 1000) {
        CHECK(cudaMemcpyToSymbol(c_centroids, centroids.data(), sizeof(float) * k * nf));
        CHECK(cudaMemset(d_changed, 0, sizeof(int)));
        assign<<<grid, block>>>(features, d_member, d_changed, n, nf, k);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(member.data(), d_member, sizeof(int) * n, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        iters++;

        /* Check this step: the device's cluster must be the nearest, up to ties. */
        int moved = 0;
        for (int i = 0; i < n; i++) {
            double dist[MAX_K];
            int best = 0;
            for (int c = 0; c < k; c++) {
                dist[c] = 0;
                for (int f = 0; f < nf; f++) {
                    double d = (double)points[i * nf + f] - centroids[c * nf + f];
                    dist[c] += d * d;
                }
                if (dist[c] < dist[best])
                    best = c;
            }
            int got = member[i];
            if (got < 0 || got >= k)
                bad++;
            else if (got != best) {
                if (dist[got] - dist[best] <= 1e-5 * dist[best])
                    ties++;
                else
                    bad++;
            }
            moved += member[i] != prev[i];
        }
        count_bad += moved != changed;
        prev = member;

        /* Centroid update, on the host. */
        std::vector<double> sum(k * nf, 0.0);
        std::vector<int> count(k, 0);
        for (int i = 0; i < n; i++) {
            int c = member[i] >= 0 && member[i] < k ? member[i] : 0;
            count[c]++;
            for (int f = 0; f < nf; f++)
                sum[c * nf + f] += points[i * nf + f];
        }
        for (int c = 0; c < k; c++)
            if (count[c])
                for (int f = 0; f < nf; f++)
                    centroids[c * nf + f] = (float)(sum[c * nf + f] / count[c]);
    }
    bool ok = bad == 0 && count_bad == 0 && iters > 1;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s points=%d features=%d k=%d iterations=%d wrong assignments=%d near-ties=%d "
                  "wrong change counts=%d (tolerance: exact up to 1e-5 ties)",
                  size_name(size), n, nf, k, iters, bad, ties, count_bad);
    CHECK(cudaFree(d_points));
    CHECK(cudaDestroyTextureObject(features));
    CHECK(cudaFree(d_features));
    CHECK(cudaFree(d_member));
    CHECK(cudaFree(d_changed));
    return report(ok, detail);
}

/*
 * streamcluster -- the local-search step of facility-location clustering:
 * candidate points are tried one at a time as new centres, and a candidate
 * is opened (closing any centres it makes unprofitable) when that lowers
 * the total cost (weighted squared distances plus a fixed cost z per open
 * centre).
 *
 * Per candidate x, the device does the O(n d) part:
 *   gain:   every point computes its weighted distance to x; a point closer
 *           to x than to its centre adds its saving to a per-block sum
 *           (shared-memory reduction), any other point adds the extra cost
 *           it would pay if its centre closed to that centre's total
 *           (global float atomics, indexed through the assignment);
 *   apply:  if the host opens x, points that gain, and the points of the
 *           centres it closes, move to x.
 * The host reads the sums, decides, and launches apply: hundreds of
 * candidates, so many small launches.
 *
 * Checked per candidate: every distance to 1e-5 relative against double;
 * the savings and per-centre extra costs against double sums of the same
 * terms, to 1e-4 relative to the sum of the terms' magnitudes (float
 * accumulation in another order).  The host mirrors the assignment with the
 * device's decisions, so at the end the device's assignment and costs must
 * equal the mirror exactly.
 */
#include "sample.h"

#include <vector>

#define GAIN_BLOCK 128

__device__ __host__ inline float wdist(const float *coord, const float *weight, int n, int dims, int i, int x)
{
    float s = 0.0f;
    for (int k = 0; k < dims; k++) {
        float d = coord[k * n + i] - coord[k * n + x];
        s += d * d;
    }
    return weight[i] * s;
}

__global__ void init_assign(const float *coord, const float *weight, int *assign, float *cost, int n, int dims,
                            int first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assign[i] = first;
        cost[i] = wdist(coord, weight, n, dims, i, first);
    }
}

__global__ void gain(const float *coord, const float *weight, const int *assign, const float *cost, float *dist,
                     float *work, float *block_save, int n, int dims, int x)
{
    __shared__ float save[GAIN_BLOCK];
    int t = threadIdx.x, i = blockIdx.x * GAIN_BLOCK + t;
    float s = 0.0f;
    if (i < n) {
        float d = wdist(coord, weight, n, dims, i, x);
        dist[i] = d;
        if (d < cost[i])
            s = cost[i] - d;
        else
            atomicAdd(&work[assign[i]], d - cost[i]);
    }
    save[t] = s;
    __syncthreads();
    for (int stride = GAIN_BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride)
            save[t] += save[t + stride];
        __syncthreads();
    }
    if (t == 0)
        block_save[blockIdx.x] = save[0];
}

__global__ void apply(const float *dist, const char *closing, int *assign, float *cost, int n, int x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (dist[i] < cost[i] || closing[assign[i]])) {
        assign[i] = x;
        cost[i] = dist[i];
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "streamcluster");
    int n = 1024, dims = 8, candidates = 40;
    if (size == SIZE_SMALL)
        n = 8192, dims = 16, candidates = 300;
    else if (size == SIZE_STANDARD)
        n = 65536, dims = 64, candidates = 1000;
    const int clusters = 12;

    /* Points around a dozen centres; weights in [1, 2). */
    lcg rng(127);
    std::vector<float> centre(clusters * dims), coord(dims * n), weight(n);
    for (int k = 0; k < clusters * dims; k++)
        centre[k] = rng.uniform(0.0f, 10.0f);
    for (int i = 0; i < n; i++) {
        int c = (int)(rng.next() % clusters);
        for (int k = 0; k < dims; k++)
            coord[k * n + i] = centre[c * dims + k] + rng.uniform(-1.0f, 1.0f);
        weight[i] = rng.uniform(1.0f, 2.0f);
    }
    const float z = 40.0f * dims; /* cost of an open centre */

    int grid = (n + GAIN_BLOCK - 1) / GAIN_BLOCK;
    float *d_coord, *d_weight, *d_cost, *d_dist, *d_work, *d_save;
    int *d_assign;
    char *d_closing;
    CHECK(cudaMalloc(&d_coord, sizeof(float) * dims * n));
    CHECK(cudaMalloc(&d_weight, sizeof(float) * n));
    CHECK(cudaMalloc(&d_cost, sizeof(float) * n));
    CHECK(cudaMalloc(&d_dist, sizeof(float) * n));
    CHECK(cudaMalloc(&d_work, sizeof(float) * n));
    CHECK(cudaMalloc(&d_save, sizeof(float) * grid));
    CHECK(cudaMalloc(&d_assign, sizeof(int) * n));
    CHECK(cudaMalloc(&d_closing, n));
    CHECK(cudaMemcpy(d_coord, coord.data(), sizeof(float) * dims * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_weight, weight.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
    init_assign<<<grid, GAIN_BLOCK>>>(d_coord, d_weight, d_assign, d_cost, n, dims, 0);
    CHECK(cudaGetLastError());

    /* The host's mirror of the state. */
    std::vector<int> assign(n, 0);
    std::vector<float> cost(n), dist(n), work(n), save(grid);
    std::vector<char> is_centre(n, 0), closing(n, 0);
    is_centre[0] = 1;
    CHECK(cudaMemcpy(cost.data(), d_cost, sizeof(float) * n, cudaMemcpyDeviceToHost));

    double dist_err = 0, sum_err = 0;
    auto note = [](double &worst, double e) {
        if (!(e <= worst))
            worst = e;
    };
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = 0; k < dims; k++)
            s += ((double)coord[k * n + i] - coord[k * n]) * ((double)coord[k * n + i] - coord[k * n]);
        s *= weight[i];
        note(dist_err, std::fabs(cost[i] - s) / (s > 1e-6 ? s : 1e-6));
    }

    int launches = 1, opened = 0, closed = 0;
    for (int cand = 0; cand < candidates; cand++) {
        int x = (int)(rng.next() % n);
        if (is_centre[x])
            continue;
        CHECK(cudaMemset(d_work, 0, sizeof(float) * n));
        gain<<<grid, GAIN_BLOCK>>>(d_coord, d_weight, d_assign, d_cost, d_dist, d_work, d_save, n, dims, x);
        CHECK(cudaGetLastError());
        launches++;
        CHECK(cudaMemcpy(dist.data(), d_dist, sizeof(float) * n, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(work.data(), d_work, sizeof(float) * n, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(save.data(), d_save, sizeof(float) * grid, cudaMemcpyDeviceToHost));

        /* Check the device's distances and sums against double. */
        std::vector<double> ref_work(n, 0.0), abs_work(n, 0.0);
        double ref_save = 0, abs_save = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < dims; k++) {
                double d = (double)coord[k * n + i] - coord[k * n + x];
                s += d * d;
            }
            s *= weight[i];
            note(dist_err, std::fabs(dist[i] - s) / (s > 1e-6 ? s : 1e-6));
            double term = (double)dist[i] - cost[i];
            if (dist[i] < cost[i]) {
                ref_save -= term;
                abs_save -= term;
            } else {
                ref_work[assign[i]] += term;
                abs_work[assign[i]] += std::fabs(term);
            }
        }
        double dev_save = 0;
        for (int b = 0; b < grid; b++)
            dev_save += save[b];
        if (abs_save > 0)
            note(sum_err, std::fabs(dev_save - ref_save) / abs_save);
        for (int m = 0; m < n; m++)
            if (is_centre[m] && abs_work[m] > 0)
                note(sum_err, std::fabs(work[m] - ref_work[m]) / abs_work[m]);
            else if (!is_centre[m] && work[m] != 0.0f)
                note(sum_err, 1.0); /* extra cost charged to a point that is no centre */

        /* Decide, with the device's numbers. */
        double g = dev_save - z;
        for (int m = 0; m < n; m++) {
            closing[m] = is_centre[m] && z - work[m] > 0;
            if (closing[m])
                g += z - work[m];
        }
        if (g <= 0)
            continue;
        CHECK(cudaMemcpy(d_closing, closing.data(), n, cudaMemcpyHostToDevice));
        apply<<<grid, GAIN_BLOCK>>>(d_dist, d_closing, d_assign, d_cost, n, x);
        CHECK(cudaGetLastError());
        launches++;
        opened++;
        for (int i = 0; i < n; i++)
            if (dist[i] < cost[i] || closing[assign[i]]) {
                assign[i] = x;
                cost[i] = dist[i];
            }
        for (int m = 0; m < n; m++)
            if (closing[m]) {
                is_centre[m] = 0;
                closed++;
            }
        is_centre[x] = 1;
    }
    std::vector<int> got_assign(n);
    std::vector<float> got_cost(n);
    CHECK(cudaMemcpy(got_assign.data(), d_assign, sizeof(int) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_cost.data(), d_cost, sizeof(float) * n, cudaMemcpyDeviceToHost));
    int state_wrong = 0, centres = 0;
    double total = 0;
    for (int i = 0; i < n; i++) {
        state_wrong += got_assign[i] != assign[i] || std::memcmp(&got_cost[i], &cost[i], sizeof(float)) != 0;
        centres += is_centre[i];
        total += cost[i];
    }
    total += (double)z * centres;
    bool ok = dist_err <= 1e-5 && sum_err <= 1e-4 && state_wrong == 0 && opened > 0;
    char detail[240];
    std::snprintf(detail, sizeof detail,
                  "size=%s points=%d dims=%d launches=%d opened=%d closed=%d centres=%d cost=%.1f dist_rel_err=%.3g "
                  "sum_rel_err=%.3g state mismatches=%d (tolerance 1e-5, 1e-4, exact)",
                  size_name(size), n, dims, launches, opened, closed, centres, total, dist_err, sum_err, state_wrong);
    CHECK(cudaFree(d_coord));
    CHECK(cudaFree(d_weight));
    CHECK(cudaFree(d_cost));
    CHECK(cudaFree(d_dist));
    CHECK(cudaFree(d_work));
    CHECK(cudaFree(d_save));
    CHECK(cudaFree(d_assign));
    CHECK(cudaFree(d_closing));
    return report(ok, detail);
}

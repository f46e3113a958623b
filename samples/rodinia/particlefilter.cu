/*
 * particlefilter -- tracks a bright disk moving across noisy video frames
 * with a sequential importance-resampling particle filter, in double.
 *
 * Per frame, four launches:
 *   propagate:  each particle moves by the motion model plus Gaussian noise
 *               drawn on the device (its own hand-written 64-bit LCG and a
 *               Box-Muller transform: log, sqrt, cos), then weighs itself by
 *               the likelihood of the pixels under a disk around it;
 *   sum:        one block reduces the weights in shared memory;
 *   normalise:  one block normalises the weights, forms the position
 *               estimate, and builds the cumulative distribution with a
 *               chunked scan in shared memory;
 *   resample:   systematic resampling, each new particle a binary search of
 *               the distribution, its weight reset to 1/N.
 *
 * The host runs the same filter with the same generators.  Resampling
 * picks indices, so device and host must choose the same particles at every
 * frame (exactly); the estimates and final positions must then agree to
 * 1e-9 relative (device and host libm differ in the last bits).
 */
#include "sample.h"

#include <algorithm>
#include <vector>

#define SUM_THREADS 256
#define CDF_THREADS 256

__host__ __device__ inline double uniform01(unsigned long long *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return ((double)(*s >> 11) + 0.5) * (1.0 / 9007199254740992.0); /* in (0, 1) */
}

__host__ __device__ inline double gauss(unsigned long long *s)
{
    double u1 = uniform01(s), u2 = uniform01(s);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Mean log-likelihood of the pixels under the disk at (x, y): object
 * pixels are ~228, background ~100. */
__host__ __device__ inline double log_likelihood(const unsigned char *frame, int w, int h, const int *disk, int nd,
                                                 double x, double y)
{
    int cx = (int)floor(x + 0.5), cy = (int)floor(y + 0.5);
    double sum = 0.0;
    for (int k = 0; k < nd; k++) {
        int px = cx + disk[2 * k], py = cy + disk[2 * k + 1];
        px = px < 0 ? 0 : px >= w ? w - 1 : px;
        py = py < 0 ? 0 : py >= h ? h - 1 : py;
        double v = frame[py * w + px];
        sum += ((v - 100.0) * (v - 100.0) - (v - 228.0) * (v - 228.0)) / 50.0;
    }
    return sum / nd;
}

__global__ void propagate(double *x, double *y, double *wt, unsigned long long *seed, const unsigned char *frame,
                          int w, int h, const int *disk, int nd, double vx, double vy, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long s = seed[i];
    double px = x[i] + vx + 2.0 * gauss(&s), py = y[i] + vy + 2.0 * gauss(&s);
    seed[i] = s;
    x[i] = px;
    y[i] = py;
    wt[i] *= exp(log_likelihood(frame, w, h, disk, nd, px, py));
}

__global__ void sum_weights(const double *wt, double *total, int n)
{
    __shared__ double part[SUM_THREADS];
    int t = threadIdx.x;
    double s = 0.0;
    for (int i = t; i < n; i += SUM_THREADS)
        s += wt[i];
    part[t] = s;
    __syncthreads();
    for (int stride = SUM_THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride)
            part[t] += part[t + stride];
        __syncthreads();
    }
    if (t == 0)
        *total = part[0];
}

/* One block: weights /= total; estimate = sum w x; cdf = prefix sums of w.
 * Thread t owns the contiguous chunk [t*chunk, (t+1)*chunk). */
__global__ void normalise(double *wt, const double *x, const double *y, const double *total, double *cdf,
                          double *estimate, int n)
{
    __shared__ double run[CDF_THREADS], ex[CDF_THREADS], ey[CDF_THREADS];
    int t = threadIdx.x, chunk = (n + CDF_THREADS - 1) / CDF_THREADS;
    int lo = t * chunk, hi = lo + chunk < n ? lo + chunk : n;
    double inv = 1.0 / *total, s = 0.0, sx = 0.0, sy = 0.0;
    for (int i = lo; i < hi; i++) {
        double w = wt[i] * inv;
        wt[i] = w;
        s += w;
        cdf[i] = s;
        sx += w * x[i];
        sy += w * y[i];
    }
    run[t] = s;
    ex[t] = sx;
    ey[t] = sy;
    __syncthreads();
    if (t == 0) {
        double acc = 0.0, ax = 0.0, ay = 0.0;
        for (int k = 0; k < CDF_THREADS; k++) {
            double c = run[k];
            run[k] = acc; /* exclusive */
            acc += c;
            ax += ex[k];
            ay += ey[k];
        }
        estimate[0] = ax;
        estimate[1] = ay;
    }
    __syncthreads();
    for (int i = lo; i < hi; i++)
        cdf[i] += run[t];
}

__global__ void resample(const double *cdf, const double *x, const double *y, double *nx, double *ny, double *wt,
                         int *picked, double u0, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    double u = (u0 + j) / n;
    int lo = 0, hi = n - 1; /* first index with cdf >= u */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cdf[mid] >= u)
            hi = mid;
        else
            lo = mid + 1;
    }
    nx[j] = x[lo];
    ny[j] = y[lo];
    wt[j] = 1.0 / n;
    picked[j] = lo;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "particlefilter");
    int n = 256, frames = 4, w = 48, h = 48;
    if (size == SIZE_SMALL)
        n = 8192, frames = 10, w = 128, h = 128;
    else if (size == SIZE_STANDARD)
        n = 100000, frames = 20, w = 256, h = 256;
    const double vx = 2.0, vy = 1.0; /* the object's motion per frame */
    const int radius = 4;

    /* Video: a disk of radius 4 moving by (vx, vy) per frame, plus noise. */
    lcg rng(101);
    double ox = w / 4.0, oy = h / 3.0;
    std::vector<unsigned char> video((size_t)frames * w * h);
    for (int f = 0; f < frames; f++)
        for (int py = 0; py < h; py++)
            for (int px = 0; px < w; px++) {
                double dx = px - (ox + f * vx), dy = py - (oy + f * vy);
                int v = (dx * dx + dy * dy <= radius * radius ? 228 : 100) + (int)(rng.next() % 21) - 10;
                video[((size_t)f * h + py) * w + px] = (unsigned char)v;
            }
    std::vector<int> disk;
    for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++)
            if (dx * dx + dy * dy <= radius * radius) {
                disk.push_back(dx);
                disk.push_back(dy);
            }
    int nd = (int)disk.size() / 2;

    std::vector<double> x(n, ox), y(n, oy), wt(n, 1.0 / n);
    std::vector<unsigned long long> seed(n);
    for (int i = 0; i < n; i++)
        seed[i] = (unsigned long long)i * 0x9E3779B97F4A7C15ull + 12345;

    double *d_x, *d_y, *d_nx, *d_ny, *d_wt, *d_cdf, *d_total, *d_est;
    unsigned long long *d_seed;
    unsigned char *d_video;
    int *d_disk, *d_picked;
    size_t db = sizeof(double) * n;
    CHECK(cudaMalloc(&d_x, db));
    CHECK(cudaMalloc(&d_y, db));
    CHECK(cudaMalloc(&d_nx, db));
    CHECK(cudaMalloc(&d_ny, db));
    CHECK(cudaMalloc(&d_wt, db));
    CHECK(cudaMalloc(&d_cdf, db));
    CHECK(cudaMalloc(&d_total, sizeof(double)));
    CHECK(cudaMalloc(&d_est, 2 * sizeof(double)));
    CHECK(cudaMalloc(&d_seed, sizeof(unsigned long long) * n));
    CHECK(cudaMalloc(&d_video, video.size()));
    CHECK(cudaMalloc(&d_disk, sizeof(int) * disk.size()));
    CHECK(cudaMalloc(&d_picked, sizeof(int) * n));
    CHECK(cudaMemcpy(d_x, x.data(), db, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), db, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_wt, wt.data(), db, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_seed, seed.data(), sizeof(unsigned long long) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_video, video.data(), video.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_disk, disk.data(), sizeof(int) * disk.size(), cudaMemcpyHostToDevice));

    std::vector<int> picked(n);
    std::vector<double> cdf(n), nx(n), ny(n);
    double max_rel = 0, est[2] = {0, 0};
    int wrong_picks = 0;
    int block = 128, grid = (n + block - 1) / block;
    for (int f = 1; f < frames; f++) {
        const unsigned char *frame = video.data() + (size_t)f * w * h;
        double u0 = rng.uniform(0.0f, 1.0f);
        propagate<<<grid, block>>>(d_x, d_y, d_wt, d_seed, d_video + (size_t)f * w * h, w, h, d_disk, nd, vx, vy, n);
        CHECK(cudaGetLastError());
        sum_weights<<<1, SUM_THREADS>>>(d_wt, d_total, n);
        CHECK(cudaGetLastError());
        normalise<<<1, CDF_THREADS>>>(d_wt, d_x, d_y, d_total, d_cdf, d_est, n);
        CHECK(cudaGetLastError());
        resample<<<grid, block>>>(d_cdf, d_x, d_y, d_nx, d_ny, d_wt, d_picked, u0, n);
        CHECK(cudaGetLastError());
        std::swap(d_x, d_nx);
        std::swap(d_y, d_ny);
        CHECK(cudaMemcpy(est, d_est, sizeof est, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(picked.data(), d_picked, sizeof(int) * n, cudaMemcpyDeviceToHost));

        /* The host's frame. */
        double total = 0, sx = 0, sy = 0, acc = 0;
        for (int i = 0; i < n; i++) {
            x[i] += vx + 2.0 * gauss(&seed[i]);
            y[i] += vy + 2.0 * gauss(&seed[i]);
            wt[i] *= std::exp(log_likelihood(frame, w, h, disk.data(), nd, x[i], y[i]));
            total += wt[i];
        }
        for (int i = 0; i < n; i++) {
            wt[i] /= total;
            sx += wt[i] * x[i];
            sy += wt[i] * y[i];
            acc += wt[i];
            cdf[i] = acc;
        }
        double rel = std::fmax(std::fabs(est[0] - sx) / std::fabs(sx), std::fabs(est[1] - sy) / std::fabs(sy));
        if (!(rel <= max_rel))
            max_rel = rel;
        for (int j = 0; j < n; j++) {
            double u = (u0 + j) / n;
            int k = (int)(std::lower_bound(cdf.begin(), cdf.end() - 1, u) - cdf.begin());
            wrong_picks += picked[j] != k;
            nx[j] = x[k];
            ny[j] = y[k];
        }
        x.swap(nx);
        y.swap(ny);
        wt.assign(n, 1.0 / n);
    }
    CHECK(cudaMemcpy(nx.data(), d_x, db, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ny.data(), d_y, db, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double rel = std::fmax(std::fabs(nx[i] - x[i]) / std::fabs(x[i]), std::fabs(ny[i] - y[i]) / std::fabs(y[i]));
        if (!(rel <= max_rel))
            max_rel = rel;
    }
    double true_x = ox + (frames - 1) * vx, true_y = oy + (frames - 1) * vy;
    char detail[220];
    std::snprintf(detail, sizeof detail,
                  "size=%s particles=%d frames=%d estimate=(%.2f,%.2f) true=(%.1f,%.1f) wrong resample picks=%d "
                  "max_rel_err=%.3g (tolerance exact picks, 1e-9)",
                  size_name(size), n, frames, est[0], est[1], true_x, true_y, wrong_picks, max_rel);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_nx));
    CHECK(cudaFree(d_ny));
    CHECK(cudaFree(d_wt));
    CHECK(cudaFree(d_cdf));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_est));
    CHECK(cudaFree(d_seed));
    CHECK(cudaFree(d_video));
    CHECK(cudaFree(d_disk));
    CHECK(cudaFree(d_picked));
    return report(wrong_picks == 0 && max_rel <= 1e-9, detail);
}

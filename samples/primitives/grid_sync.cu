/*
 * grid_sync -- a whole-grid barrier from cooperative groups:
 * this_grid().sync() inside one kernel launched with
 * cudaLaunchCooperativeKernel.  The kernel runs STEPS rounds of an integer
 * stencil over a ring of n cells (each round reads neighbours that other
 * blocks wrote in the round before, so a missing barrier shows), then sums
 * the ring: every block writes a partial sum, the grid syncs once more, and
 * block 0 adds the partials.  The grid is as large as can be co-resident
 * (occupancy times multiprocessors, as a cooperative launch requires, capped
 * at what the data needs); grid-stride loops make the result independent of
 * it.  Unsigned arithmetic wraps the same on host and device: exact.
 */
#include <cooperative_groups.h>

#include "sample.h"

namespace cg = cooperative_groups;

#define BLOCK 128

__global__ void stencil_rounds(unsigned *a, unsigned *b, unsigned *partial, unsigned *total, int n, int steps)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ unsigned part[BLOCK];
    unsigned long long stride = grid.size();
    for (int s = 0; s < steps; s++) {
        const unsigned *from = s % 2 ? b : a;
        unsigned *to = s % 2 ? a : b;
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += stride) {
            unsigned left = from[i == 0 ? n - 1 : i - 1], right = from[i + 1 == (unsigned long long)n ? 0 : i + 1];
            to[i] = left + 2 * from[i] + 3 * right + (unsigned)s;
        }
        grid.sync(); /* the next round reads cells other blocks wrote */
    }
    const unsigned *last = steps % 2 ? b : a;
    unsigned sum = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += stride)
        sum += last[i] * (unsigned)(i + 1);
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int h = BLOCK / 2; h > 0; h >>= 1) {
        if ((int)threadIdx.x < h)
            part[threadIdx.x] += part[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = part[0];
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned t = 0;
        for (unsigned k = 0; k < gridDim.x; k++)
            t += partial[k];
        *total = t;
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "grid_sync");
    int n = size == SIZE_TINY ? 3000 + 1 : size == SIZE_SMALL ? 200000 + 1 : 4000000 + 1;
    int steps = size == SIZE_TINY ? 6 : size == SIZE_SMALL ? 20 : 50;

    int dev, coop = 0, sms = 0, per_sm = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop)
        return report(false, "device does not support cooperative launch");
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stencil_rounds, BLOCK, 0));
    int grid = sms * per_sm, needed = (n + BLOCK - 1) / BLOCK;
    if (grid > needed)
        grid = needed;
    if (grid < 1)
        return report(false, "occupancy calculator allows no block of this kernel");

    unsigned *h = (unsigned *)std::malloc(sizeof(unsigned) * n), *g = (unsigned *)std::malloc(sizeof(unsigned) * n);
    lcg rng(31);
    for (int i = 0; i < n; i++)
        h[i] = rng.next();
    unsigned *da, *db, *dpartial, *dtotal;
    CHECK(cudaMalloc(&da, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&db, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dpartial, sizeof(unsigned) * grid));
    CHECK(cudaMalloc(&dtotal, sizeof(unsigned)));
    CHECK(cudaMemcpy(da, h, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    void *params[] = {&da, &db, &dpartial, &dtotal, &n, &steps};
    CHECK(cudaLaunchCooperativeKernel((const void *)stencil_rounds, dim3(grid), dim3(BLOCK), params, 0, 0));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned got_total;
    CHECK(cudaMemcpy(g, steps % 2 ? db : da, sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&got_total, dtotal, sizeof got_total, cudaMemcpyDeviceToHost));

    /* Host rounds, same arithmetic. */
    unsigned *x = (unsigned *)std::malloc(sizeof(unsigned) * n), *y = (unsigned *)std::malloc(sizeof(unsigned) * n);
    std::memcpy(x, h, sizeof(unsigned) * n);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            y[i] = x[i == 0 ? n - 1 : i - 1] + 2 * x[i] + 3 * x[i + 1 == n ? 0 : i + 1] + (unsigned)s;
        unsigned *tmp = x;
        x = y;
        y = tmp;
    }
    unsigned want_total = 0;
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        want_total += x[i] * (unsigned)(i + 1);
        wrong += g[i] != x[i];
    }
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s n=%d steps=%d grid=%d mismatches=%d total %u vs %u (tolerance: exact)",
                  size_name(size), n, steps, grid, wrong, got_total, want_total);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dpartial));
    CHECK(cudaFree(dtotal));
    std::free(h);
    std::free(g);
    std::free(x);
    std::free(y);
    return report(wrong == 0 && got_total == want_total, detail);
}

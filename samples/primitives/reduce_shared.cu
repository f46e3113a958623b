/*
 * reduce_shared -- sum of n values by a tree reduction in shared memory:
 * each thread first accumulates a grid-stride slice, then the block halves
 * its partial sums with __syncthreads() between the steps, and a second
 * one-block launch reduces the per-block partials.
 *
 * Done twice: over ints (exact: the device sum must equal the host's, with
 * wrap-around the same on both), and over floats, checked against a
 * double-precision host sum with relative tolerance 1e-5 (the device adds
 * in float, in a tree order).  n is not a multiple of the block, and the
 * grid is smaller than n / block so the grid-stride loop runs more than once.
 */
#include "sample.h"

#define BLOCK 256

template <typename T> __global__ void reduce_block(const T *in, T *out, int n)
{
    __shared__ T part[BLOCK];
    unsigned tid = threadIdx.x;
    T sum = 0;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        sum += in[i];
    part[tid] = sum;
    __syncthreads();
    /* Halve the active threads each step; the barrier must be outside the
     * if so every thread reaches it. */
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            part[tid] += part[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = part[0];
}

/* Two launches: grid blocks -> grid partials -> one value. */
template <typename T> static T reduce_on_device(const T *host, int n, int grid)
{
    T *din, *dpart, *dsum, result;
    CHECK(cudaMalloc(&din, sizeof(T) * n));
    CHECK(cudaMalloc(&dpart, sizeof(T) * grid));
    CHECK(cudaMalloc(&dsum, sizeof(T)));
    CHECK(cudaMemcpy(din, host, sizeof(T) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dsum, 0xFF, sizeof(T)));
    reduce_block<T><<<grid, BLOCK>>>(din, dpart, n);
    CHECK(cudaGetLastError());
    reduce_block<T><<<1, BLOCK>>>(dpart, dsum, grid);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&result, dsum, sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dsum));
    return result;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "reduce_shared");
    int n = size == SIZE_TINY ? 10007 : size == SIZE_SMALL ? (1 << 24) + 17 : (1 << 26) + 17;
    int grid = size == SIZE_TINY ? 13 : size == SIZE_SMALL ? 480 : 2000;
    int *ai = (int *)std::malloc(sizeof(int) * n);
    float *af = (float *)std::malloc(sizeof(float) * n);
    lcg rng(11);
    unsigned isum = 0; /* unsigned: wrap-around is defined on the host */
    double fsum = 0, fabs_sum = 0;
    for (int i = 0; i < n; i++) {
        ai[i] = (int)rng.next() - (1 << 30);
        af[i] = rng.uniform(-1.0f, 1.0f);
        isum += (unsigned)ai[i];
        fsum += af[i];
        fabs_sum += std::fabs(af[i]);
    }
    int got_i = reduce_on_device<int>(ai, n, grid);
    float got_f = reduce_on_device<float>(af, n, grid);
    /* Relative to the sum of magnitudes: the sum itself can be near zero. */
    double rel = std::fabs(got_f - fsum) / fabs_sum;
    bool ok = (unsigned)got_i == isum && rel <= 1e-5;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s n=%d grid=%d int: %d vs %d (exact) float: rel_err=%.3g (tolerance 1e-5)", size_name(size),
                  n, grid, got_i, (int)isum, rel);
    std::free(ai);
    std::free(af);
    return report(ok, detail);
}

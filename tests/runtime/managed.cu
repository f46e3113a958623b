/*
 * managed -- unified memory: arrays from cudaMallocManaged are written by
 * the host, transformed by kernels and read back by the host with no copy,
 * with prefetch and advice along the way.  nvcc builds also use a
 * __managed__ variable (clang does not support them for CUDA).
 */
#include "sample.h"

#include <cuda_runtime.h>

#if !defined(__clang__)
__managed__ int launches;
#endif

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
#if !defined(__clang__)
    if (i == 0)
        atomicAdd(&launches, 1);
#endif
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "managed");
    int n = size == SIZE_TINY ? 5000 : size == SIZE_SMALL ? (1 << 20) : (1 << 24);
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float)));
    lcg rng(11);
    for (int i = 0; i < n; i++) {
        x[i] = rng.uniform(-1.0f, 1.0f);
        y[i] = (float)(i % 13);
    }
    cudaMemLocation gpu = { cudaMemLocationTypeDevice, 0 }, cpu = { cudaMemLocationTypeHost, 0 };
    CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, gpu));
    CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), gpu, 0, 0));
    CHECK(cudaMemPrefetchAsync(y, n * sizeof(float), gpu, 0, 0));
    const int rounds = 3;
    for (int r = 0; r < rounds; r++)
        saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemPrefetchAsync(y, n * sizeof(float), cpu, 0, 0));
    CHECK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        float want = (float)(i % 13);
        for (int r = 0; r < rounds; r++)
            want = 2.0f * x[i] + want;
        if (y[i] != want)
            wrong++;
    }
    int counted = rounds;
#if !defined(__clang__)
    counted = launches;
#endif
    char detail[160];
    std::snprintf(detail, sizeof detail, "size=%s n=%d mismatches=%d launches=%d (tolerance: exact)",
                  size_name(size), n, wrong, counted);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return report(wrong == 0 && counted == rounds, detail);
}

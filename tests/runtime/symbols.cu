/*
 * symbols -- __constant__ and __device__ variables: polynomial
 * coefficients uploaded with cudaMemcpyToSymbol, a device histogram read
 * back with cudaMemcpyFromSymbol, and a table reached through
 * cudaGetSymbolAddress.  Checks every value against the host.
 */
#include "sample.h"

#include <cuda_runtime.h>

#define NCOEF 8
#define NBINS 16

__constant__ float coef[NCOEF];
__device__ unsigned hist[NBINS];
__device__ int table[256];

__global__ void evaluate(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int k = NCOEF - 1; k >= 0; k--)
        acc = acc * x[i] + coef[k];
    y[i] = acc + (float)table[i & 255];
    atomicAdd(&hist[i % NBINS], 1u);
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "symbols");
    int n = size == SIZE_TINY ? 3000 : size == SIZE_SMALL ? (1 << 20) : (1 << 23);
    float c[NCOEF];
    for (int k = 0; k < NCOEF; k++)
        c[k] = 1.0f / (float)(k + 1);
    CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
    unsigned zero[NBINS] = {0};
    CHECK(cudaMemcpyToSymbol(hist, zero, sizeof zero));
    int *tab = NULL;
    size_t tab_bytes = 0;
    CHECK(cudaGetSymbolAddress((void **)&tab, table));
    CHECK(cudaGetSymbolSize(&tab_bytes, table));
    int htab[256];
    for (int i = 0; i < 256; i++)
        htab[i] = i % 7;
    CHECK(cudaMemcpy(tab, htab, tab_bytes, cudaMemcpyHostToDevice));
    float *x = (float *)std::malloc(n * sizeof(float)), *y = (float *)std::malloc(n * sizeof(float));
    lcg rng(3);
    for (int i = 0; i < n; i++)
        x[i] = rng.uniform(-1.0f, 1.0f);
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    evaluate<<<(n + 255) / 256, 256>>>(dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    unsigned h[NBINS];
    CHECK(cudaMemcpyFromSymbol(h, hist, sizeof h));
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = NCOEF - 1; k >= 0; k--)
            acc = acc * x[i] + c[k];
        acc += (float)htab[i & 255];
        if (std::fabs(y[i] - acc) > 1e-5f * (1.0f + std::fabs(acc)))
            wrong++;
    }
    int bad_bins = 0;
    for (int b = 0; b < NBINS; b++)
        bad_bins += h[b] != (unsigned)(n / NBINS + (b < n % NBINS));
    char detail[160];
    std::snprintf(detail, sizeof detail, "size=%s n=%d mismatches=%d bad_bins=%d table=%zu bytes (tolerance: 1e-5 relative)",
                  size_name(size), n, wrong, bad_bins, tab_bytes);
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    std::free(x);
    std::free(y);
    return report(wrong == 0 && bad_bins == 0 && tab_bytes == sizeof htab, detail);
}

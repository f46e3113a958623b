/*
 * histogram -- 256-bin histogram of n bytes.  Each block counts into its own
 * bins in shared memory with atomicAdd (cheap, contended only within the
 * block), then adds its non-zero bins to the global histogram with a second
 * atomicAdd.  The bytes are skewed (about half of them fall in four bins)
 * so many threads hit the same shared and global counters at once.  A
 * second kernel reads the input four bytes at a time, as packed words.
 * Counts are checked exactly against a host histogram.
 */
#include "sample.h"

#define BINS 256
#define BLOCK 192 /* not a multiple of the bins: clearing and flushing loop */

__global__ void histogram_bytes(const unsigned char *in, int n, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

/* The same over n4 32-bit words: four bins per load (the order of the bytes
 * in a word does not matter to a count).  The n % 4 bytes left over go to a
 * one-block launch of the byte kernel. */
__global__ void histogram_words(const unsigned *in, int n4, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        unsigned w = in[i];
        atomicAdd(&local[w & 0xFF], 1u);
        atomicAdd(&local[(w >> 8) & 0xFF], 1u);
        atomicAdd(&local[(w >> 16) & 0xFF], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

static int compare(const unsigned *got, const unsigned *want)
{
    int wrong = 0;
    for (int b = 0; b < BINS; b++)
        wrong += got[b] != want[b];
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "histogram");
    int n = size == SIZE_TINY ? 20000 + 3 : size == SIZE_SMALL ? (1 << 25) + 3 : (1 << 27) + 3;
    int grid = size == SIZE_TINY ? 8 : size == SIZE_SMALL ? 480 : 1920;
    unsigned char *in = (unsigned char *)std::malloc(n + 4);
    unsigned want[BINS] = {0}, got[BINS];
    lcg rng(3);
    for (int i = 0; i < n; i++) {
        uint32_t r = rng.next();
        in[i] = (r & 1) ? (unsigned char)(100 + ((r >> 1) & 3)) : (unsigned char)(r >> 8);
        want[in[i]]++;
    }
    unsigned char *din;
    unsigned *dbins;
    CHECK(cudaMalloc(&din, n + 4));
    CHECK(cudaMalloc(&dbins, sizeof(unsigned) * BINS));
    CHECK(cudaMemcpy(din, in, n, cudaMemcpyHostToDevice));

    CHECK(cudaMemset(dbins, 0, sizeof(unsigned) * BINS));
    histogram_bytes<<<grid, BLOCK>>>(din, n, dbins);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
    int wrong_bytes = compare(got, want);

    /* cudaMalloc memory is aligned well past 4 bytes, so din is word-aligned. */
    int n4 = n / 4;
    CHECK(cudaMemset(dbins, 0, sizeof(unsigned) * BINS));
    histogram_words<<<grid, BLOCK>>>((const unsigned *)din, n4, dbins);
    CHECK(cudaGetLastError());
    histogram_bytes<<<1, BLOCK>>>(din + 4 * n4, n - 4 * n4, dbins);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
    int wrong_words = compare(got, want);

    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s n=%d bins=%d wrong bins: byte kernel %d, word kernel %d (tolerance: exact)",
                  size_name(size), n, BINS, wrong_bytes, wrong_words);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dbins));
    std::free(in);
    return report(wrong_bytes == 0 && wrong_words == 0, detail);
}

/*
 * async_copy -- a block sums its slice of an array in tiles it stages in
 * shared memory with asynchronous copies (__pipeline_memcpy_async: PTX
 * cp.async on sm_80 and later), double buffered: the copy of tile k+1 is
 * in flight while tile k is summed.  Each thread then reads another
 * thread's element of the tile, so a copy that had not landed would show.
 * Integer sums: exact.
 */
#include "sample.h"

#include <cuda_pipeline.h>
#include <vector>

#define TILE 128

__global__ void tile_sums(const int4 *in, long long *out, int tiles_per_block)
{
    __shared__ int4 buf[2][TILE];
    int t = threadIdx.x;
    const int4 *base = in + (size_t)blockIdx.x * tiles_per_block * TILE;
    long long sum = 0;
    __pipeline_memcpy_async(&buf[0][t], &base[t], sizeof(int4));
    __pipeline_commit();
    for (int k = 0; k < tiles_per_block; k++) {
        if (k + 1 < tiles_per_block)
            __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &base[(size_t)(k + 1) * TILE + t], sizeof(int4));
        __pipeline_commit();
        __pipeline_wait_prior(1);       /* tile k has landed; k + 1 may still be in flight */
        __syncthreads();
        int4 v = buf[k & 1][TILE - 1 - t];
        sum += (long long)v.x + v.y + v.z + v.w;
        __syncthreads();                /* everyone is done with buffer k & 1 before it is refilled */
    }
    out[(size_t)blockIdx.x * TILE + t] = sum;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "async_copy");
    int blocks = 8, tiles = 6;
    if (size == SIZE_SMALL)
        blocks = 128, tiles = 32;
    else if (size == SIZE_STANDARD)
        blocks = 1024, tiles = 64;
    size_t n = (size_t)blocks * tiles * TILE;
    std::vector<int4> in(n);
    lcg rng(71);
    for (auto &v : in)
        v = make_int4((int)rng.next() - (1 << 30), (int)(rng.next() >> 8), -(int)(rng.next() >> 4), (int)rng.next());
    int4 *din;
    long long *dout;
    CHECK(cudaMalloc(&din, sizeof(int4) * n));
    CHECK(cudaMalloc(&dout, sizeof(long long) * blocks * TILE));
    CHECK(cudaMemcpy(din, in.data(), sizeof(int4) * n, cudaMemcpyHostToDevice));
    tile_sums<<<blocks, TILE>>>(din, dout, tiles);
    CHECK(cudaGetLastError());
    std::vector<long long> got((size_t)blocks * TILE);
    CHECK(cudaMemcpy(got.data(), dout, sizeof(long long) * got.size(), cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < TILE; t++) {
            long long want = 0;
            for (int k = 0; k < tiles; k++) {
                int4 v = in[((size_t)b * tiles + k) * TILE + TILE - 1 - t];
                want += (long long)v.x + v.y + v.z + v.w;
            }
            wrong += got[(size_t)b * TILE + t] != want;
        }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    char detail[128];
    std::snprintf(detail, sizeof detail, "size=%s blocks=%d tiles=%d: wrong sums=%ld (exact)", size_name(size),
                  blocks, tiles, wrong);
    return report(wrong == 0, detail);
}

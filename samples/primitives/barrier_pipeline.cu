/*
 * barrier_pipeline -- a block sums its slice of an array in tiles it stages
 * in shared memory with cuda::memcpy_async, double buffered, each buffer
 * guarded by a cuda::barrier<thread_scope_block>: the copy of tile k+1 is
 * in flight while tile k is summed.  On sm_80 and later libcu++ makes the
 * barriers mbarrier objects (mbarrier.init, .arrive, .test_wait) and the
 * copies cp.async with cp.async.mbarrier.arrive.  Each thread reads another
 * thread's element of the tile, so a copy that had not landed, or a buffer
 * refilled too early, would show.  Integer sums: exact.
 */
#include "sample.h"

#include <cuda/barrier>
#include <vector>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define TILE 128

__global__ void tile_sums(const int *in, long long *out, int tiles_per_block)
{
    __shared__ int buf[2][TILE];
    /* Raw storage: init() constructs the barriers (a __shared__ object with
     * a constructor would need dynamic initialisation). */
    __shared__ alignas(block_barrier) unsigned char storage[2 * sizeof(block_barrier)];
    block_barrier *bar = reinterpret_cast<block_barrier *>(storage);
    int t = threadIdx.x;
    if (t == 0) {
        init(&bar[0], blockDim.x);
        init(&bar[1], blockDim.x);
    }
    __syncthreads();
    /* Each thread copies its own element of a tile; the barrier of the
     * buffer completes its phase once every thread's copy has landed. */
    const int *base = in + (size_t)blockIdx.x * tiles_per_block * TILE;
    long long sum = 0;
    cuda::memcpy_async(&buf[0][t], &base[t], cuda::aligned_size_t<4>(sizeof(int)), bar[0]);
    for (int k = 0; k < tiles_per_block; k++) {
        int s = k & 1;
        if (k + 1 < tiles_per_block)
            cuda::memcpy_async(&buf[s ^ 1][t], &base[(size_t)(k + 1) * TILE + t], cuda::aligned_size_t<4>(sizeof(int)),
                               bar[s ^ 1]);
        bar[s].arrive_and_wait();       /* tile k has landed */
        sum += (long long)buf[s][TILE - 1 - t] * (k + 1);
        bar[s].arrive_and_wait();       /* everyone has read buffer s before it is refilled */
    }
    out[(size_t)blockIdx.x * TILE + t] = sum;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "barrier_pipeline");
    int blocks = 4, tiles = 6;
    if (size == SIZE_SMALL)
        blocks = 64, tiles = 32;
    else if (size == SIZE_STANDARD)
        blocks = 1024, tiles = 64;
    size_t n = (size_t)blocks * tiles * TILE;
    std::vector<int> in(n);
    lcg rng(83);
    for (auto &v : in)
        v = (int)rng.next() - (1 << 30);
    int *din;
    long long *dout;
    CHECK(cudaMalloc(&din, sizeof(int) * n));
    CHECK(cudaMalloc(&dout, sizeof(long long) * blocks * TILE));
    CHECK(cudaMemcpy(din, in.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    tile_sums<<<blocks, TILE>>>(din, dout, tiles);
    CHECK(cudaGetLastError());
    std::vector<long long> got((size_t)blocks * TILE);
    CHECK(cudaMemcpy(got.data(), dout, sizeof(long long) * got.size(), cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < TILE; t++) {
            long long want = 0;
            for (int k = 0; k < tiles; k++)
                want += (long long)in[((size_t)b * tiles + k) * TILE + TILE - 1 - t] * (k + 1);
            wrong += got[(size_t)b * TILE + t] != want;
        }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    char detail[128];
    std::snprintf(detail, sizeof detail, "size=%s blocks=%d tiles=%d: wrong sums=%ld (exact)", size_name(size),
                  blocks, tiles, wrong);
    return report(wrong == 0, detail);
}

/*
 * barrier_bulk -- barrier_pipeline's tile sums on sm_90, where a block-wide
 * cuda::memcpy_async of 16-byte aligned tiles is one bulk copy
 * (cp.async.bulk with mbarrier::complete_tx, and mbarrier.expect_tx,
 * .try_wait on the cuda::barrier).  The block's sums then leave shared
 * memory by bulk copies the other way (cuda::ptx::cp_async_bulk into a
 * bulk group) and are added into a total over all blocks
 * (cuda::ptx::cp_reduce_async_bulk).  Integer sums: exact.
 */
#include "sample.h"

#include <cuda/barrier>
#include <cuda/ptx>
#include <vector>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define TILE 128

/* The whole block as the group memcpy_async shares a copy out in (what
 * cooperative_groups::this_thread_block() provides, without its scratch
 * memory). */
struct whole_block {
    __device__ unsigned thread_rank() const { return threadIdx.x; }
    __device__ unsigned size() const { return blockDim.x; }
    __device__ void sync() const { __syncthreads(); }
};

__global__ void tile_sums(const int *in, long long *out, uint64_t *total, int tiles_per_block)
{
    __shared__ alignas(16) int buf[2][TILE];
#if __CUDA_ARCH__ >= 900
    __shared__ alignas(16) long long sums[TILE];
#endif
    __shared__ alignas(block_barrier) unsigned char storage[2 * sizeof(block_barrier)];
    block_barrier *bar = reinterpret_cast<block_barrier *>(storage);
    whole_block block;
    int t = threadIdx.x;
    if (t == 0) {
        init(&bar[0], blockDim.x);
        init(&bar[1], blockDim.x);
    }
    __syncthreads();
    const int *base = in + (size_t)blockIdx.x * tiles_per_block * TILE;
    const cuda::aligned_size_t<16> tile_bytes(sizeof(int) * TILE);
    long long sum = 0;
    cuda::memcpy_async(block, buf[0], base, tile_bytes, bar[0]);
    for (int k = 0; k < tiles_per_block; k++) {
        int s = k & 1;
        if (k + 1 < tiles_per_block)
            cuda::memcpy_async(block, buf[s ^ 1], base + (size_t)(k + 1) * TILE, tile_bytes, bar[s ^ 1]);
        bar[s].arrive_and_wait();       /* tile k has landed */
        sum += (long long)buf[s][TILE - 1 - t] * (k + 1);
        bar[s].arrive_and_wait();       /* everyone has read buffer s before it is refilled */
    }
#if __CUDA_ARCH__ >= 900
    sums[t] = sum;
    /* The bulk copies read shared memory through the async proxy: the
     * threads' writes must be visible to it first. */
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    __syncthreads();
    if (t == 0) {
        cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                                 out + (size_t)blockIdx.x * TILE, sums, (uint32_t)sizeof sums);
        cuda::ptx::cp_reduce_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, cuda::ptx::op_add,
                                        total, reinterpret_cast<const uint64_t *>(sums),
                                        (uint32_t)sizeof sums);
        cuda::ptx::cp_async_bulk_commit_group();
        cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
    }
#else
    /* Before sm_90 (the sm_75 code of the fat binary): plain stores. */
    out[(size_t)blockIdx.x * TILE + t] = sum;
    atomicAdd(reinterpret_cast<unsigned long long *>(&total[t]), (unsigned long long)sum);
#endif
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "barrier_bulk");
    int blocks = 4, tiles = 6;
    if (size == SIZE_SMALL)
        blocks = 64, tiles = 32;
    else if (size == SIZE_STANDARD)
        blocks = 1024, tiles = 64;
    size_t n = (size_t)blocks * tiles * TILE;
    std::vector<int> in(n);
    lcg rng(89);
    for (auto &v : in)
        v = (int)rng.next() - (1 << 30);
    int *din;
    long long *dout;
    uint64_t *dtotal;
    CHECK(cudaMalloc(&din, sizeof(int) * n));
    CHECK(cudaMalloc(&dout, sizeof(long long) * blocks * TILE));
    CHECK(cudaMalloc(&dtotal, sizeof(uint64_t) * TILE));
    CHECK(cudaMemcpy(din, in.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dtotal, 0, sizeof(uint64_t) * TILE));
    tile_sums<<<blocks, TILE>>>(din, dout, dtotal, tiles);
    CHECK(cudaGetLastError());
    std::vector<long long> got((size_t)blocks * TILE);
    std::vector<uint64_t> total(TILE);
    CHECK(cudaMemcpy(got.data(), dout, sizeof(long long) * got.size(), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(total.data(), dtotal, sizeof(uint64_t) * TILE, cudaMemcpyDeviceToHost));
    long wrong = 0;
    std::vector<uint64_t> want_total(TILE, 0);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < TILE; t++) {
            long long want = 0;
            for (int k = 0; k < tiles; k++)
                want += (long long)in[((size_t)b * tiles + k) * TILE + TILE - 1 - t] * (k + 1);
            wrong += got[(size_t)b * TILE + t] != want;
            want_total[t] += (uint64_t)want;
        }
    for (int t = 0; t < TILE; t++)
        wrong += total[t] != want_total[t];
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dtotal));
    char detail[128];
    std::snprintf(detail, sizeof detail, "size=%s blocks=%d tiles=%d: wrong sums=%ld (exact)", size_name(size),
                  blocks, tiles, wrong);
    return report(wrong == 0, detail);
}

/*
 * cg_tiles.cu -- cooperative groups inside a block: thread_block, tiles of
 * 32 and 8 threads (tiled_partition), and the tile collectives reduce,
 * inclusive_scan, shfl_down and ballot, around block-wide syncs.  Each block
 * computes, for its slice of the input, per-tile sums and prefix sums and a
 * block total through shared memory; the host checks every value.  The
 * 8-thread tiles also vote (ballot, any, all): every lane of the warp
 * executes the vote at once, each naming its own tile's lanes as the
 * membermask, and each tile must vote apart.  With
 * compute_80 PTX, -G builds of thread_block read the block's reserved
 * shared memory (%reserved_smem_offset_1).
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <vector>

#include "sample.h"

namespace cg = cooperative_groups;

#define BLOCK 256

__global__ void tiles(const int *in, int *sum32, int *scan8, int *total, unsigned *votes, unsigned *votes8, int n)
{
    __shared__ int partial[BLOCK / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(block);
    int i = blockIdx.x * BLOCK + (int)block.thread_rank();
    int v = i < n ? in[i] : 0;

    int s = cg::reduce(warp, v, cg::plus<int>());
    int shuffled = v;
    for (int d = 16; d > 0; d /= 2)             /* the same sum by hand */
        shuffled += warp.shfl_down(shuffled, d);
    if (warp.thread_rank() == 0) {
        sum32[i / 32] = s == shuffled ? s : -1;
        partial[warp.meta_group_rank()] = s;
    }
    if (i < n)
        scan8[i] = cg::inclusive_scan(eighth, v, cg::plus<int>());
    unsigned ballot = warp.ballot(v < 0);
    if (warp.thread_rank() == 0)
        votes[i / 32] = ballot;
    /* ballot's bits are the tile's thread ranks */
    unsigned ballot8 = eighth.ballot(v > 0);
    bool any8 = eighth.any(v > 900), all8 = eighth.all(v > -900);
    if (eighth.thread_rank() == 0)
        votes8[i / 8] = ballot8 | (unsigned)any8 << 8 | (unsigned)all8 << 9;
    block.sync();
    if (block.thread_rank() == 0) {
        int t = 0;
        for (unsigned w = 0; w < block.size() / 32; w++)
            t += partial[w];
        total[blockIdx.x] = t;
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cg_tiles");
    int n = size == SIZE_TINY ? 5000 : size == SIZE_SMALL ? 200000 : 4000000;
    int blocks = (n + BLOCK - 1) / BLOCK;
    std::vector<int> h(n);
    lcg rng(7);
    for (int i = 0; i < n; i++)
        h[i] = (int)(rng.next() % 2001) - 1000;
    int *in, *sum32, *scan8, *total;
    unsigned *votes, *votes8;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&sum32, blocks * (BLOCK / 32) * sizeof(int)));
    CHECK(cudaMalloc(&scan8, n * sizeof(int)));
    CHECK(cudaMalloc(&total, blocks * sizeof(int)));
    CHECK(cudaMalloc(&votes, blocks * (BLOCK / 32) * sizeof(unsigned)));
    CHECK(cudaMalloc(&votes8, blocks * (BLOCK / 8) * sizeof(unsigned)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    tiles<<<blocks, BLOCK>>>(in, sum32, scan8, total, votes, votes8, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> s32(blocks * (BLOCK / 32)), s8(n), tot(blocks);
    std::vector<unsigned> vt(blocks * (BLOCK / 32)), vt8(blocks * (BLOCK / 8));
    CHECK(cudaMemcpy(s32.data(), sum32, s32.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(s8.data(), scan8, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(tot.data(), total, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(vt.data(), votes, vt.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(vt8.data(), votes8, vt8.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int w = 0; w < blocks * (BLOCK / 32); w++) {
        int s = 0;
        unsigned ballot = 0;
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            s += i < n ? h[i] : 0;
            ballot |= (unsigned)(i < n && h[i] < 0) << l;
        }
        wrong += s32[w] != s;
        wrong += vt[w] != ballot;
    }
    for (int t = 0; t < blocks * (BLOCK / 8); t++) {
        unsigned ballot = 0;
        bool any = false, all = true;
        for (int r = 0; r < 8; r++) {
            int v = t * 8 + r < n ? h[t * 8 + r] : 0;
            ballot |= (unsigned)(v > 0) << r;
            any = any || v > 900;
            all = all && v > -900;
        }
        wrong += vt8[t] != (ballot | (unsigned)any << 8 | (unsigned)all << 9);
    }
    for (int i = 0, run = 0; i < n; i++) {
        run = i % 8 ? run + h[i] : h[i];
        wrong += s8[i] != run;
    }
    for (int b = 0; b < blocks; b++) {
        int t = 0;
        for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < n; i++)
            t += h[i];
        wrong += tot[b] != t;
    }
    std::printf("%s cg_tiles size=%s n=%d blocks=%d mismatches=%d (tolerance: exact)\n", wrong ? "FAIL" : "PASS",
                size_name(size), n, blocks, wrong);
    return wrong ? 1 : 0;
}

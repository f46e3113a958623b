/*
 * block_primitives -- CUB's block- and warp-wide collectives inside a
 * hand-written kernel, as programs use them to build their own algorithms:
 * cub::BlockLoad / BlockStore (through a shared-memory transpose),
 * cub::BlockReduce (sum; max over a partial tile with valid_items),
 * cub::BlockScan (exclusive sum with the block aggregate, inclusive scan
 * with a functor), cub::WarpReduce (sum, and max over a partial warp) and
 * cub::WarpScan, each with its TempStorage in shared memory.
 *
 * The kernel runs for three algorithm choices (BlockReduce's warp
 * reductions, raking and commutative raking; BlockScan's raking, warp scans
 * and memoised raking), for a block of 128 threads and one of 96 (three
 * warps: not a power of two), four items per thread.  The last block gets a
 * partial tile.  Everything is integer, so every check is exact.
 */
#include "sample.h"

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

#include <vector>

#define ITEMS 4

struct IntMax {
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

/* Per block: the tile's sum and its max over the valid items; per item:
 * the exclusive prefix sum and the running max within the tile; per warp:
 * the sum of each warp's first item and the max over the warp's first
 * `lanes` lanes; per thread: the inclusive warp prefix of its first item. */
struct Outputs {
    int *block_sum, *block_max;
    int *prefix, *running_max, *warp_prefix;
    int *warp_sum, *warp_partial_max;
};

template <int BLOCK, cub::BlockReduceAlgorithm RA, cub::BlockScanAlgorithm SA>
__global__ void __launch_bounds__(BLOCK) collectives(const int *in, int n, Outputs out)
{
    using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Store = cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
    using Reduce = cub::BlockReduce<int, BLOCK, RA>;
    using Scan = cub::BlockScan<int, BLOCK, SA>;
    using WReduce = cub::WarpReduce<int>;
    using WScan = cub::WarpScan<int>;
    constexpr int WARPS = BLOCK / 32;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
    } tmp;
    __shared__ typename WReduce::TempStorage wreduce[WARPS];
    __shared__ typename WScan::TempStorage wscan[WARPS];
    __shared__ int block_sum;

    int base = blockIdx.x * BLOCK * ITEMS;
    int valid = n - base < BLOCK * ITEMS ? n - base : BLOCK * ITEMS;
    int items[ITEMS];
    /* Out-of-range items read as 0, which leaves sums alone. */
    Load(tmp.load).Load(in + base, items, valid, 0);
    __syncthreads();

    int sum = Reduce(tmp.reduce).Sum(items);
    __syncthreads();
    /* Max over the valid items only: one item per thread, `valid / ITEMS`
     * threads (rounded up) take part. */
    int first_valid = threadIdx.x * ITEMS < valid ? items[0] : 0;
    int threads_valid = (valid + ITEMS - 1) / ITEMS;
    int mx = Reduce(tmp.reduce).Reduce(first_valid, IntMax(), threads_valid);
    __syncthreads();
    /* A block reduction's result is valid in thread 0 only. */
    if (threadIdx.x == 0) {
        out.block_sum[blockIdx.x] = sum;
        out.block_max[blockIdx.x] = mx;
        block_sum = sum;
    }

    int prefix[ITEMS], run_max[ITEMS], aggregate;
    Scan(tmp.scan).ExclusiveSum(items, prefix, aggregate);
    __syncthreads();
    Scan(tmp.scan).InclusiveScan(items, run_max, IntMax());
    __syncthreads();
    /* A block scan gives every thread the aggregate: the block's sum.  (The
     * barriers after the reduction publish block_sum.) */
    if (aggregate != block_sum)
        prefix[0] = -1;
    Store(tmp.store).Store(out.prefix + base, prefix, valid);
    __syncthreads();
    Store(tmp.store).Store(out.running_max + base, run_max, valid);

    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wsum = WReduce(wreduce[warp]).Sum(items[0]);
    int lanes = 1 + (blockIdx.x * 7 + warp * 5) % 32;
    int wmax = WReduce(wreduce[warp]).Reduce(items[0], IntMax(), lanes);
    int wpre;
    WScan(wscan[warp]).InclusiveSum(items[0], wpre);
    int g = blockIdx.x * WARPS + warp;
    if (lane == 0) {
        out.warp_sum[g] = wsum;
        out.warp_partial_max[g] = wmax;
    }
    out.warp_prefix[blockIdx.x * BLOCK + threadIdx.x] = wpre;
}

template <typename T> static T *dalloc(size_t count)
{
    T *p;
    CHECK(cudaMalloc(&p, sizeof(T) * (count ? count : 1)));
    return p;
}

template <typename T> static std::vector<T> download(const T *d, size_t count)
{
    std::vector<T> v(count);
    CHECK(cudaMemcpy(v.data(), d, sizeof(T) * count, cudaMemcpyDeviceToHost));
    return v;
}

/* One configuration over n items; returns the number of wrong results. */
template <int BLOCK, cub::BlockReduceAlgorithm RA, cub::BlockScanAlgorithm SA>
static int run(const std::vector<int> &h, const int *din, const char *what)
{
    int n = (int)h.size();
    constexpr int TILE = BLOCK * ITEMS, WARPS = BLOCK / 32;
    int blocks = (n + TILE - 1) / TILE;
    Outputs o;
    o.block_sum = dalloc<int>(blocks);
    o.block_max = dalloc<int>(blocks);
    o.prefix = dalloc<int>(n);
    o.running_max = dalloc<int>(n);
    o.warp_prefix = dalloc<int>((size_t)blocks * BLOCK);
    o.warp_sum = dalloc<int>((size_t)blocks * WARPS);
    o.warp_partial_max = dalloc<int>((size_t)blocks * WARPS);
    collectives<BLOCK, RA, SA><<<blocks, BLOCK>>>(din, n, o);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<int> bsum = download(o.block_sum, blocks), bmax = download(o.block_max, blocks);
    std::vector<int> prefix = download(o.prefix, n), rmax = download(o.running_max, n);
    std::vector<int> wpre = download(o.warp_prefix, (size_t)blocks * BLOCK);
    std::vector<int> wsum = download(o.warp_sum, (size_t)blocks * WARPS);
    std::vector<int> wmax = download(o.warp_partial_max, (size_t)blocks * WARPS);

    int wrong = 0;
    for (int b = 0; b < blocks; b++) {
        int base = b * TILE, valid = n - base < TILE ? n - base : TILE;
        /* Thread t holds items base + t*ITEMS .. +ITEMS-1 (blocked arrangement). */
        auto item = [&](int t, int k) { int i = t * ITEMS + k; return i < valid ? h[base + i] : 0; };
        int s = 0, m = INT32_MIN, acc = 0, run_m = INT32_MIN;
        for (int i = 0; i < valid; i++) {
            s += h[base + i];
            wrong += prefix[base + i] != acc;
            acc += h[base + i];
            run_m = h[base + i] > run_m ? h[base + i] : run_m;
            wrong += rmax[base + i] != run_m;
        }
        for (int t = 0; t * ITEMS < valid; t++)
            m = item(t, 0) > m ? item(t, 0) : m;
        wrong += bsum[b] != s;
        wrong += bmax[b] != m;
        for (int w = 0; w < WARPS; w++) {
            int ws = 0, wm = INT32_MIN, lanes = 1 + (b * 7 + w * 5) % 32;
            for (int l = 0; l < 32; l++) {
                int v = item(w * 32 + l, 0);
                ws += v;
                if (l < lanes)
                    wm = v > wm ? v : wm;
                wrong += wpre[(size_t)b * BLOCK + w * 32 + l] != ws;
            }
            wrong += wsum[(size_t)b * WARPS + w] != ws;
            wrong += wmax[(size_t)b * WARPS + w] != wm;
        }
    }
    if (wrong)
        std::printf("%s, block %d, n=%d: %d wrong\n", what, BLOCK, n, wrong);
    for (int *p : {o.block_sum, o.block_max, o.prefix, o.running_max, o.warp_prefix, o.warp_sum,
                   o.warp_partial_max})
        CHECK(cudaFree(p));
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "block_primitives");
    int n = size == SIZE_TINY ? 5000 + 3 : size == SIZE_SMALL ? 1000000 + 7 : (1 << 24) + 5;
    std::vector<int> h(n);
    lcg rng(37);
    for (int i = 0; i < n; i++)
        h[i] = (int)(rng.next() % 20001) - 10000;
    int *din = dalloc<int>(n);
    CHECK(cudaMemcpy(din, h.data(), sizeof(int) * n, cudaMemcpyHostToDevice));

    int wrong = 0;
    wrong += run<128, cub::BLOCK_REDUCE_WARP_REDUCTIONS, cub::BLOCK_SCAN_RAKING>(h, din, "warp reductions, raking scan");
    wrong += run<128, cub::BLOCK_REDUCE_RAKING, cub::BLOCK_SCAN_WARP_SCANS>(h, din, "raking reduce, warp scans");
    wrong += run<128, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, cub::BLOCK_SCAN_RAKING_MEMOIZE>(
        h, din, "commutative raking reduce, memoised raking scan");
    wrong += run<96, cub::BLOCK_REDUCE_WARP_REDUCTIONS, cub::BLOCK_SCAN_WARP_SCANS>(h, din, "warp reductions, warp scans");
    wrong += run<96, cub::BLOCK_REDUCE_RAKING, cub::BLOCK_SCAN_RAKING>(h, din, "raking reduce, raking scan");
    CHECK(cudaFree(din));

    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s n=%d configurations=5 wrong=%d (tolerance: exact)",
                  size_name(size), n, wrong);
    return report(wrong == 0, detail);
}

/*
 * cluster_push -- producers writing straight into a consumer's shared
 * memory (sm_90): each block of a cluster of four sends its slice of the
 * input to the next block of the ring with cuda::ptx::st_async (a pair of
 * words, .v2.b32, and a 64-bit word, .b64) and cuda::ptx::red_async (an
 * .add.u32 into the next block's sum, a .max.u32 into its maximum), every
 * one completing its bytes on an mbarrier in the next block.  Each block
 * waits on its own mbarrier only -- no cluster barrier between the sends
 * and the reads -- then writes out what arrived.  Checked on the host
 * against the input, word by word; the sums and maxima are integers: exact.
 */
#include <cooperative_groups.h>
#include <cuda/ptx>

#include "sample.h"

namespace cg = cooperative_groups;

#define BLOCK 128
#define CLUSTER 4

/* The cluster parts exist in the sm_90 PTX only; the sm_75 build of the
 * same file gets an empty kernel it never runs. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define HAS_CLUSTERS 0
#else
#define HAS_CLUSTERS 1
#endif

/* What each block expects to arrive: per thread of the previous block, a
 * pair (8 bytes), a 64-bit word (8) and two reductions (4 each). */
#define EXPECTED_BYTES (BLOCK * (8 + 8 + 4 + 4))

/* out[(block * BLOCK + t) * 4 + 0..3] = pair[t][0], pair[t][1], the 64-bit
 * word's low and high halves; stats[block * 2 + 0..1] = sum, maximum. */
__global__ void push(const unsigned *in, unsigned *out, unsigned *stats)
{
#if HAS_CLUSTERS
    __shared__ alignas(8) unsigned pair[BLOCK][2];
    __shared__ alignas(8) unsigned long long wide[BLOCK];
    __shared__ unsigned sum, maximum;
    __shared__ alignas(8) uint64_t bar;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned t = threadIdx.x, next = (cluster.block_rank() + 1) % cluster.num_blocks();
    if (t == 0) {
        cuda::ptx::mbarrier_init(&bar, 1);
        sum = 0;
        maximum = 0;
        cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    }
    cluster.sync(); /* every block's mbarrier and counters are ready */
    if (t == 0)
        cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared,
                                             &bar, EXPECTED_BYTES);
    cluster.sync(); /* ... and expecting its bytes before any arrive */

    unsigned x = in[blockIdx.x * BLOCK + t];
    uint64_t *their_bar = cluster.map_shared_rank(&bar, next);
    const unsigned two[2] = { x, x * 3u + 1u };
    cuda::ptx::st_async(cluster.map_shared_rank(&pair[t][0], next), two, their_bar);
    cuda::ptx::st_async(cluster.map_shared_rank(&wide[t], next), (unsigned long long)x << 32 | t, their_bar);
    cuda::ptx::red_async(cuda::ptx::op_add, cluster.map_shared_rank(&sum, next), x, their_bar);
    cuda::ptx::red_async(cuda::ptx::op_max, cluster.map_shared_rank(&maximum, next), x, their_bar);

    while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0))
        ;
    unsigned *o = out + ((size_t)blockIdx.x * BLOCK + t) * 4;
    o[0] = pair[t][0];
    o[1] = pair[t][1];
    o[2] = (unsigned)wide[t];
    o[3] = (unsigned)(wide[t] >> 32);
    if (t == 0) {
        stats[blockIdx.x * 2] = sum;
        stats[blockIdx.x * 2 + 1] = maximum;
    }
    cluster.sync(); /* no block leaves while another may still write into it */
#endif
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cluster_push");
    int grid = size == SIZE_TINY ? 8 : size == SIZE_SMALL ? 64 : 512;
    int n = grid * BLOCK;

    int dev, cluster_launch = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, dev));
    if (!cluster_launch)
        return report(false, "device does not support cluster launch");

    unsigned *h = (unsigned *)std::malloc(sizeof(unsigned) * n);
    unsigned *got = (unsigned *)std::malloc(sizeof(unsigned) * n * 4), *stats = (unsigned *)std::malloc(sizeof(unsigned) * grid * 2);
    lcg rng(2024);
    for (int i = 0; i < n; i++)
        h[i] = rng.next() >> 8; /* sums of 128 stay below 2^32 */
    unsigned *din, *dout, *dstats;
    CHECK(cudaMalloc(&din, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dout, sizeof(unsigned) * n * 4));
    CHECK(cudaMalloc(&dstats, sizeof(unsigned) * grid * 2));
    CHECK(cudaMemcpy(din, h, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xff, sizeof(unsigned) * n * 4));

    /* The cluster size from the launch (clang records no __cluster_dims__). */
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute la[1];
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(BLOCK);
    la[0].id = cudaLaunchAttributeClusterDimension;
    la[0].val.clusterDim.x = CLUSTER;
    la[0].val.clusterDim.y = 1;
    la[0].val.clusterDim.z = 1;
    cfg.attrs = la;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, push, (const unsigned *)din, dout, dstats));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dout, sizeof(unsigned) * n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(stats, dstats, sizeof(unsigned) * grid * 2, cudaMemcpyDeviceToHost));

    char why[200];
    for (int b = 0; b < grid; b++) {
        int prev = b / CLUSTER * CLUSTER + (b % CLUSTER + CLUSTER - 1) % CLUSTER;
        unsigned want_sum = 0, want_max = 0;
        for (int t = 0; t < BLOCK; t++) {
            unsigned x = h[prev * BLOCK + t];
            unsigned want[4] = { x, x * 3u + 1u, (unsigned)t, x };
            want_sum += x;
            want_max = x > want_max ? x : want_max;
            for (int k = 0; k < 4; k++)
                if (got[((size_t)b * BLOCK + t) * 4 + k] != want[k]) {
                    std::snprintf(why, sizeof why, "block %d thread %d word %d: %u, expected %u (from block %d)", b,
                                  t, k, got[((size_t)b * BLOCK + t) * 4 + k], want[k], prev);
                    return report(false, why);
                }
        }
        if (stats[b * 2] != want_sum || stats[b * 2 + 1] != want_max) {
            std::snprintf(why, sizeof why, "block %d: sum %u max %u, expected %u and %u", b, stats[b * 2],
                          stats[b * 2 + 1], want_sum, want_max);
            return report(false, why);
        }
    }
    std::snprintf(why, sizeof why, "size=%s grid=%d cluster=%d: %d words and %d sums by st.async/red.async",
                  size_name(size), grid, CLUSTER, n * 4, grid * 2);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dstats));
    std::free(h);
    std::free(got);
    std::free(stats);
    return report(true, why);
}

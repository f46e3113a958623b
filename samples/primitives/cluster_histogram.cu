/*
 * cluster_histogram -- thread block clusters (sm_90) and distributed shared
 * memory.  A histogram of NBINS bins is spread over the shared memory of the
 * blocks of a cluster: block rank r of a cluster of c blocks owns bins
 * [r * NBINS / c, (r + 1) * NBINS / c).  Every thread adds its values into
 * whichever block owns the bin, through cluster.map_shared_rank, with
 * shared-memory atomics on the other block's memory; cluster.sync() makes
 * sure every block has zeroed its bins before anyone adds, and that every
 * addition has landed before the owners flush their bins to the global
 * histogram (and before any block exits while others still write to it).
 *
 * The same kernel code runs three ways:
 *   - hist_static: the cluster size is in the kernel (__cluster_dims__), the
 *     launch is a plain <<<>>>.  A compiler that does not record the
 *     attribute (clang) gives a kernel without clusters, where every block
 *     is a cluster of one: the histogram is the same, and the sample checks
 *     that the cluster size the blocks saw is the one the kernel's
 *     attributes report.
 *   - hist_dynamic: cudaLaunchKernelEx with the cluster-dimension attribute.
 *   - ring: a 2x2 cluster where every block reads a word another block of
 *     its cluster wrote, checking block_index(), dim_blocks(), block_rank()
 *     and num_blocks().
 * Counts are integers: exact.
 */
#include <cooperative_groups.h>

#include "sample.h"

namespace cg = cooperative_groups;

#define NBINS 256
#define BLOCK 128
#define STATIC_CLUSTER 2

/* The cluster parts exist in the sm_90 PTX only; the sm_75 build of the
 * same file gets empty kernels it never runs. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_DIMS(x, y, z)
#define HAS_CLUSTERS 0
#else
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#define HAS_CLUSTERS 1
#endif

/* info[block] = rank | cluster size << 8 | dim_blocks.x << 16 */
__device__ void cluster_hist(const unsigned *in, int n, unsigned *hist, unsigned *info)
{
#if HAS_CLUSTERS
    __shared__ unsigned bins[NBINS];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned size = cluster.num_blocks(), rank = cluster.block_rank();
    unsigned per_block = NBINS / size;
    for (unsigned j = threadIdx.x; j < per_block; j += blockDim.x)
        bins[j] = 0;
    cluster.sync(); /* every block's bins are zero before anyone adds */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned bin = in[i] % NBINS;
        unsigned *owner = cluster.map_shared_rank(bins, bin / per_block);
        atomicAdd(owner + bin % per_block, 1u);
    }
    cluster.sync(); /* every addition has landed; no block exits before */
    for (unsigned j = threadIdx.x; j < per_block; j += blockDim.x)
        if (bins[j])
            atomicAdd(&hist[rank * per_block + j], bins[j]);
    if (threadIdx.x == 0)
        info[blockIdx.x] = rank | size << 8 | cluster.dim_blocks().x << 16;
#endif
}

__global__ void CLUSTER_DIMS(STATIC_CLUSTER, 1, 1)
    hist_static(const unsigned *in, int n, unsigned *hist, unsigned *info)
{
    cluster_hist(in, n, hist, info);
}

__global__ void hist_dynamic(const unsigned *in, int n, unsigned *hist, unsigned *info)
{
    cluster_hist(in, n, hist, info);
}

/* out[block] = the word block (rank + 1) % size of the cluster holds,
 * and out[grid + block] its cluster coordinates and rank. */
__global__ void ring(unsigned *out)
{
#if HAS_CLUSTERS
    __shared__ unsigned word;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned block = blockIdx.x + blockIdx.y * gridDim.x;
    unsigned blocks = gridDim.x * gridDim.y;
    if (threadIdx.x == 0)
        word = 1000 + block;
    cluster.sync();
    unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
    unsigned *theirs = cluster.map_shared_rank(&word, next);
    if (threadIdx.x == 0) {
        dim3 at = cluster.block_index(), dims = cluster.dim_blocks();
        out[block] = *theirs;
        out[blocks + block] = at.x | at.y << 4 | dims.x << 8 | dims.y << 12 | cluster.block_rank() << 16 |
                              cluster.num_blocks() << 24;
    }
    cluster.sync(); /* the neighbour reads our word: stay until it has */
#endif
}

static bool check_hist(const unsigned *got, const unsigned *want, const unsigned *info, int grid,
                       unsigned cluster, char *why, size_t n)
{
    for (int b = 0; b < NBINS; b++)
        if (got[b] != want[b]) {
            std::snprintf(why, n, "bin %d: %u, expected %u", b, got[b], want[b]);
            return false;
        }
    for (int b = 0; b < grid; b++) {
        unsigned want_info = (unsigned)b % cluster | cluster << 8 | cluster << 16;
        if (info[b] != want_info) {
            std::snprintf(why, n, "block %d saw rank %u of %u (cluster width %u), expected %u of %u",
                          b, info[b] & 255, info[b] >> 8 & 255, info[b] >> 16, (unsigned)b % cluster, cluster);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cluster_histogram");
    int n = size == SIZE_TINY ? 20000 : size == SIZE_SMALL ? 1 << 20 : 1 << 24;
    int grid = size == SIZE_TINY ? 8 : size == SIZE_SMALL ? 64 : 256;

    int dev, cluster_launch = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, dev));
    if (!cluster_launch)
        return report(false, "device does not support cluster launch");

    unsigned *h = (unsigned *)std::malloc(sizeof(unsigned) * n);
    unsigned want[NBINS] = {0}, got[NBINS], info[256];
    lcg rng(77);
    for (int i = 0; i < n; i++) {
        /* Skewed: low bins are hit far more often, so the blocks that own
         * them take most of the remote atomics. */
        unsigned v = rng.next();
        h[i] = (v & 3) ? v % 32 : v;
        want[h[i] % NBINS]++;
    }
    unsigned *din, *dhist, *dinfo, *dring;
    CHECK(cudaMalloc(&din, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dhist, sizeof(unsigned) * NBINS));
    CHECK(cudaMalloc(&dinfo, sizeof(unsigned) * 256));
    CHECK(cudaMalloc(&dring, sizeof(unsigned) * 64));
    CHECK(cudaMemcpy(din, h, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    char why[200];

    /* 1. The cluster size from the kernel. */
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, hist_static));
    unsigned static_cluster = attr.requiredClusterWidth ? (unsigned)attr.requiredClusterWidth : 1;
    if (attr.requiredClusterWidth && attr.requiredClusterWidth != STATIC_CLUSTER) {
        std::snprintf(why, sizeof why, "hist_static reports a cluster width of %d, expected %d",
                      attr.requiredClusterWidth, STATIC_CLUSTER);
        return report(false, why);
    }
    CHECK(cudaMemset(dhist, 0, sizeof(unsigned) * NBINS));
    hist_static<<<grid, BLOCK>>>(din, n, dhist, dinfo);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dhist, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(info, dinfo, sizeof(unsigned) * grid, cudaMemcpyDeviceToHost));
    if (!check_hist(got, want, info, grid, static_cluster, why, sizeof why))
        return report(false, why);

    /* 2. The cluster size from the launch. */
    const unsigned dynamic_cluster = 4;
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute la[1];
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(BLOCK);
    la[0].id = cudaLaunchAttributeClusterDimension;
    la[0].val.clusterDim.x = dynamic_cluster;
    la[0].val.clusterDim.y = 1;
    la[0].val.clusterDim.z = 1;
    cfg.attrs = la;
    cfg.numAttrs = 1;
    int active = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&active, hist_dynamic, &cfg));
    if (active < 1)
        return report(false, "cudaOccupancyMaxActiveClusters allows no cluster of 4 blocks");
    CHECK(cudaMemset(dhist, 0, sizeof(unsigned) * NBINS));
    CHECK(cudaLaunchKernelEx(&cfg, hist_dynamic, (const unsigned *)din, n, dhist, dinfo));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dhist, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(info, dinfo, sizeof(unsigned) * grid, cudaMemcpyDeviceToHost));
    if (!check_hist(got, want, info, grid, dynamic_cluster, why, sizeof why))
        return report(false, why);

    /* 3. A 2-D cluster: 2x2 clusters on a 4x2 grid. */
    cudaLaunchConfig_t rc = {};
    rc.gridDim = dim3(4, 2);
    rc.blockDim = dim3(32);
    la[0].val.clusterDim.x = 2;
    la[0].val.clusterDim.y = 2;
    rc.attrs = la;
    rc.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&rc, ring, dring));
    CHECK(cudaGetLastError());
    unsigned out[16];
    CHECK(cudaMemcpy(out, dring, sizeof out, cudaMemcpyDeviceToHost));
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned b = x + 4 * y, cx = x % 2, cy = y % 2, rank = cx + 2 * cy;
            unsigned nr = (rank + 1) % 4, nx = x - cx + nr % 2, ny = y - cy + nr / 2;
            unsigned want_word = 1000 + nx + 4 * ny;
            unsigned want_id = cx | cy << 4 | 2u << 8 | 2u << 12 | rank << 16 | 4u << 24;
            if (out[b] != want_word || out[8 + b] != want_id) {
                std::snprintf(why, sizeof why, "ring: block (%u,%u) read %u (id 0x%x), expected %u (id 0x%x)",
                              x, y, out[b], out[8 + b], want_word, want_id);
                return report(false, why);
            }
        }

    CHECK(cudaFree(din));
    CHECK(cudaFree(dhist));
    CHECK(cudaFree(dinfo));
    CHECK(cudaFree(dring));
    std::free(h);
    std::snprintf(why, sizeof why, "(%s: %d values, %d bins, clusters of %u and %u blocks, a 2x2 ring)",
                  size_name(size), n, NBINS, static_cluster, dynamic_cluster);
    return report(true, why);
}

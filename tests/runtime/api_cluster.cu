/*
 * api_cluster -- thread block clusters through the runtime API: the device
 * attribute, the cluster function attributes (compile-time __cluster_dims__
 * and set at run time), cudaLaunchKernelEx with the cluster-dimension
 * attribute, the occupancy calculator's cluster calls, and the errors of
 * misconfigured clusters (cudaErrorInvalidClusterSize: a grid that is no
 * whole number of clusters, more than 8 blocks without the non-portable
 * attribute, more than 16 with it, dimensions unlike the kernel's own;
 * cudaErrorNotPermitted: changing compile-time dimensions).
 *
 * clang records no __cluster_dims__, so the checks of compile-time
 * dimensions apply where the kernel's attributes report them.
 */
#include <cooperative_groups.h>

#include "rt_test.h"

namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_DIMS(x, y, z)
#define HAS_CLUSTERS 0
#else
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#define HAS_CLUSTERS 1
#endif

/* out[block] = rank | size << 8 */
__device__ void ranks(unsigned *out)
{
#if HAS_CLUSTERS
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = cluster.block_rank() | cluster.num_blocks() << 8;
#endif
}

__global__ void CLUSTER_DIMS(2, 1, 1) fixed(unsigned *out) { ranks(out); }
__global__ void any_size(unsigned *out) { ranks(out); }
__global__ void set_later(unsigned *out) { ranks(out); }

static cudaError_t launch(const void *k, unsigned grid, unsigned block, unsigned cluster, unsigned *out)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute a[1];
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cluster;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = cluster ? 1 : 0;
    void *args[] = { &out };
    return cudaLaunchKernelExC(&cfg, k, args);
}

static bool ranks_are(const unsigned *dout, unsigned grid, unsigned size)
{
    unsigned h[64];
    if (cudaMemcpy(h, dout, grid * sizeof(unsigned), cudaMemcpyDeviceToHost) != cudaSuccess)
        return false;
    for (unsigned b = 0; b < grid; b++)
        if (h[b] != (b % size | size << 8)) {
            std::printf("  block %u: rank %u of %u, expected %u of %u\n", b, h[b] & 255, h[b] >> 8, b % size, size);
            return false;
        }
    return true;
}

int main()
{
    test_name = "api_cluster";
    int dev = 0, v = 0;
    OK(cudaGetDevice(&dev));
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, dev));
    EXPECT(v == 1);
    unsigned *out;
    OK(cudaMalloc(&out, 64 * sizeof(unsigned)));

    /* Attributes. */
    cudaFuncAttributes fa;
    OK(cudaFuncGetAttributes(&fa, any_size));
    EXPECT(fa.requiredClusterWidth == 0 && fa.requiredClusterHeight == 0 && fa.requiredClusterDepth == 0);
    EXPECT(fa.nonPortableClusterSizeAllowed == 0 && fa.clusterDimMustBeSet == 0);
    OK(cudaFuncGetAttributes(&fa, fixed));
    bool compile_time = fa.requiredClusterWidth != 0;   /* nvcc records __cluster_dims__, clang does not */
    if (compile_time) {
        EXPECT(fa.requiredClusterWidth == 2 && fa.requiredClusterHeight == 1 && fa.requiredClusterDepth == 1);
        EXPECT_MISUSE(cudaFuncSetAttribute(fixed, cudaFuncAttributeRequiredClusterWidth, 4), cudaErrorNotPermitted);
        /* A launch with other dimensions than the kernel's own. */
        EXPECT_MISUSE(launch((const void *)fixed, 8, 32, 4, out), cudaErrorInvalidClusterSize);
        /* Its own, from <<<>>> and from the attribute. */
        fixed<<<8, 32>>>(out);
        OK(cudaGetLastError());
        EXPECT(ranks_are(out, 8, 2));
        OK(launch((const void *)fixed, 6, 32, 2, out));
        EXPECT(ranks_are(out, 6, 2));
        /* A grid of 3 blocks is no whole number of clusters of 2. */
        fixed<<<3, 32>>>(out);
        EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidClusterSize);
    }

    /* Clusters from the launch. */
    OK(launch((const void *)any_size, 8, 64, 4, out));
    OK(cudaDeviceSynchronize());
    EXPECT(ranks_are(out, 8, 4));
    OK(launch((const void *)any_size, 4, 64, 0, out));        /* no attribute: clusters of one */
    EXPECT(ranks_are(out, 4, 1));
    EXPECT_MISUSE(launch((const void *)any_size, 6, 32, 4, out), cudaErrorInvalidClusterSize);
    /* 16 blocks is not portable: only with the attribute; 32 never. */
    EXPECT_MISUSE(launch((const void *)any_size, 16, 32, 16, out), cudaErrorInvalidClusterSize);
    EXPECT_MISUSE(cudaFuncSetAttribute(any_size, cudaFuncAttributeNonPortableClusterSizeAllowed, 2),
                  cudaErrorInvalidValue);
    OK(cudaFuncSetAttribute(any_size, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    OK(cudaFuncGetAttributes(&fa, any_size));
    EXPECT(fa.nonPortableClusterSizeAllowed == 1);
    OK(launch((const void *)any_size, 32, 32, 16, out));
    EXPECT(ranks_are(out, 32, 16));
    EXPECT_MISUSE(launch((const void *)any_size, 32, 32, 32, out), cudaErrorInvalidClusterSize);

    /* Dimensions set at run time act as the kernel's own. */
    OK(cudaFuncSetAttribute(set_later, cudaFuncAttributeRequiredClusterWidth, 4));
    OK(cudaFuncSetAttribute(set_later, cudaFuncAttributeRequiredClusterHeight, 1));
    OK(cudaFuncSetAttribute(set_later, cudaFuncAttributeRequiredClusterDepth, 1));
    OK(cudaFuncGetAttributes(&fa, set_later));
    EXPECT(fa.requiredClusterWidth == 4 && fa.requiredClusterHeight == 1 && fa.requiredClusterDepth == 1);
    set_later<<<8, 32>>>(out);
    OK(cudaGetLastError());
    EXPECT(ranks_are(out, 8, 4));
    set_later<<<6, 32>>>(out);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidClusterSize);

    /* The occupancy calculator. */
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute a[1];
    cfg.gridDim = dim3(64);
    cfg.blockDim = dim3(128);
    int n = -1;
    OK(cudaOccupancyMaxPotentialClusterSize(&n, (const void *)fixed, &cfg));
    EXPECT(n == (compile_time ? 2 : 8));
    OK(cudaOccupancyMaxPotentialClusterSize(&n, (const void *)any_size, &cfg));
    EXPECT(n == 16);                /* non-portable sizes allowed above */
    EXPECT_MISUSE(cudaOccupancyMaxActiveClusters(&n, (const void *)any_size, &cfg), cudaErrorInvalidClusterSize);
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = 4;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = 1;
    n = 0;
    OK(cudaOccupancyMaxActiveClusters(&n, (const void *)any_size, &cfg));
    int sms = 0, per_sm = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, any_size, 128, 0));
    EXPECT(n > 0 && n <= sms * per_sm / 4);

    OK(cudaFree(out));
    return finish();
}

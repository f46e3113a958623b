/*
 * api_launch -- launches and kernel queries: <<<>>>, cudaLaunchKernel,
 * cudaLaunchKernelExC, cooperative launches (grid-wide barriers: one made
 * of atomics, and cooperative_groups' grid.sync()),
 * attributes, dynamic shared memory opt-in, the occupancy calculator; and
 * misuse: too many threads, too much shared memory, launch bounds, a
 * function that is not a kernel, and a fault that poisons the context until
 * cudaDeviceReset.
 */
#include "rt_test.h"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void fill(int *p, int v)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void __launch_bounds__(128) bounded(int *p)
{
    p[threadIdx.x] = 1;
}

__global__ void static_shared(int *out)
{
    __shared__ int tile[1024];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

/* Uses every byte of its dynamic shared memory. */
__global__ void dynamic_shared(int *out, int words)
{
    extern __shared__ int buf[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        buf[i] = i;
    __syncthreads();
    int sum = 0;
    for (int i = 0; i < words; i++)
        sum += buf[i] & 1;
    if (threadIdx.x == 0)
        *out = sum;
}

/* Every block waits for all the others: only a cooperative launch, with
 * every block resident at once, gets through. */
__global__ void grid_barrier(unsigned *arrived, int *out)
{
    if (threadIdx.x == 0) {
        atomicAdd(arrived, 1u);
        while (atomicAdd(arrived, 0u) < gridDim.x)
            ;
        out[blockIdx.x] = (int)atomicAdd(arrived, 0u);
    }
}

/* cooperative_groups' grid-wide barrier between a write and a read of it. */
__global__ void grid_sum(int *a, int *out)
{
    cg::grid_group g = cg::this_grid();
    a[g.thread_rank()] = 1;
    g.sync();
    if (g.thread_rank() == 0) {
        int s = 0;
        for (unsigned long long i = 0; i < g.size(); i++)
            s += a[i];
        *out = s;
    }
}

/* A recursive sum whose frames hold a 64-byte array each: depth d takes
 * about d * 100 bytes of stack per thread. */
__device__ int deep_sum(int d, volatile int *seed)
{
    int scratch[16];
    for (int i = 0; i < 16; i++)
        scratch[i] = *seed + d + i;
    if (d == 0)
        return scratch[3];
    return scratch[d % 16] + deep_sum(d - 1, seed);
}

__global__ void recurse(int depth, int *out, volatile int *seed)
{
    out[threadIdx.x] = deep_sum(depth + (int)threadIdx.x, seed);
}

/* %nwarpid: the warp slots of an SM, whatever the block's size. */
__global__ void warp_slots(unsigned *out)
{
    unsigned n, id;
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(n));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(id));
    if (threadIdx.x == 0)
        out[0] = n;
    if (id >= n)
        out[1] = 1;
    /* The monitoring counters, whose values the ISA leaves open: 0. */
    unsigned pm;
    unsigned long long pm64;
    asm volatile("mov.u32 %0, %%pm3;" : "=r"(pm));
    asm volatile("mov.u64 %0, %%pm7_64;" : "=l"(pm64));
    if (pm || pm64)
        out[3] = 1;
}

__global__ void wild_store(int *p)
{
    p[1 << 28] = 1;
}

static void launch_paths(void)
{
    int *d = NULL, h[256];
    OK(cudaMalloc(&d, 256 * sizeof(int)));
    fill<<<2, 128>>>(d, 7);
    OK(cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 7 && h[255] == 7);

    int v = 9;
    void *args[] = { &d, &v };
    OK(cudaLaunchKernel((const void *)fill, dim3(4), dim3(64), args, 0, 0));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 9 && h[255] == 9);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(256);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributePriority;
    attr.val.priority = 0;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    v = 11;
    OK(cudaLaunchKernelExC(&cfg, (const void *)fill, args));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[100] == 11);
    v = 12;
    OK(cudaLaunchKernelEx(&cfg, fill, d, v));       /* the C++ template over ExC */
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[200] == 12);

    /* Not a kernel. */
    EXPECT_MISUSE(cudaLaunchKernel((const void *)launch_paths, dim3(1), dim3(1), args, 0, 0),
                  cudaErrorInvalidDeviceFunction);
    /* Bad configurations. */
    fill<<<1, 2048>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<1, dim3(1, 1, 65)>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<dim3(1, 70000), 1>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<0, 32>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    bounded<<<1, 256>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorLaunchOutOfResources);
    bounded<<<1, 128>>>(d);
    OK(cudaGetLastError());
    fill<<<1, 32, 0, (cudaStream_t)0x5678>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    OK(cudaGetLastError());
    OK(cudaFree(d));
}

static void attributes_and_shared(void)
{
    cudaFuncAttributes a;
    OK(cudaFuncGetAttributes(&a, bounded));
    EXPECT(a.maxThreadsPerBlock == 128);
    EXPECT(a.numRegs > 0 && a.numRegs <= 255);
    /* The PTX's target architecture (compute_75 here), as CUB reads it. */
    EXPECT(a.ptxVersion == 75);
    EXPECT(a.binaryVersion >= 50);
    OK(cudaFuncGetAttributes(&a, static_shared));
    EXPECT(a.sharedSizeBytes >= 1024 * sizeof(int));
    EXPECT(a.maxThreadsPerBlock == 1024);
    EXPECT_MISUSE(cudaFuncGetAttributes(&a, (const void *)launch_paths), cudaErrorInvalidDeviceFunction);
    const char *name = NULL;
    OK(cudaFuncGetName(&name, fill));
    EXPECT(name && std::strstr(name, "fill"));

    int *d = NULL, h[1024];
    OK(cudaMalloc(&d, sizeof h));
    static_shared<<<1, 1024>>>(d);
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 1023 && h[1023] == 0);

    /* More than 48 KB of dynamic shared memory needs the opt-in; a GPU
     * refuses the launch as an invalid argument. */
    const int big = 100 * 1024;
    dynamic_shared<<<1, 256, big>>>(d, big / 4);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    OK(cudaFuncGetAttributes(&a, dynamic_shared));
    /* 48 KB in all by default, static and dynamic. */
    EXPECT(a.maxDynamicSharedSizeBytes + a.sharedSizeBytes == 48 * 1024);
    OK(cudaFuncSetAttribute(dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
    OK(cudaFuncGetAttributes(&a, dynamic_shared));
    EXPECT(a.maxDynamicSharedSizeBytes == big);
    dynamic_shared<<<1, 256, big>>>(d, big / 4);
    OK(cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == big / 4 / 2);
    dynamic_shared<<<1, 256, big + 4>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaFuncSetAttribute(dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024),
                  cudaErrorInvalidValue);
    OK(cudaFuncSetAttribute(dynamic_shared, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    OK(cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1));
    EXPECT_MISUSE(cudaFuncSetCacheConfig(fill, (cudaFuncCache)9), cudaErrorInvalidValue);

    /* Occupancy, from the device's limits. */
    int blocks = 0;
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0));
    EXPECT(blocks == 8);                        /* 2048 threads per SM */
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 32, 0));
    EXPECT(blocks == 32);                       /* 32 blocks per SM */
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, dynamic_shared, 64, big));
    EXPECT(blocks == 2);                        /* 228 KB per SM */
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 256, 0));
    EXPECT(blocks == 0);                        /* above its launch bounds */
    EXPECT_MISUSE(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, fill, 256, 0, 8),
                  cudaErrorInvalidValue);
    int min_grid = 0, block = 0;
    OK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fill, 0, 0));
    EXPECT(block > 0 && block <= 1024 && min_grid >= 132);
    OK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded, 0, 0));
    EXPECT(block > 0 && block <= 128);
    size_t avail = 0;
    OK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dynamic_shared, 2, 64));
    EXPECT(avail >= 100 * 1024 && avail < 114 * 1024);   /* capped by the kernel's limit */
    OK(cudaFree(d));
}

static void cooperative(void)
{
    unsigned *arrived = NULL;
    int *out = NULL, h[64];
    OK(cudaMalloc(&arrived, sizeof(unsigned)));
    OK(cudaMalloc(&out, sizeof h));
    OK(cudaMemset(arrived, 0, sizeof(unsigned)));
    void *args[] = { &arrived, &out };
    OK(cudaLaunchCooperativeKernel((const void *)grid_barrier, dim3(64), dim3(32), args, 0, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 64 && h[63] == 64);
    int *a = NULL;
    OK(cudaMalloc(&a, 16 * 256 * sizeof(int)));
    void *gargs[] = { &a, &out };
    OK(cudaLaunchCooperativeKernel((const void *)grid_sum, dim3(16), dim3(256), gargs, 0, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 16 * 256);
    OK(cudaFree(a));
    int per_sm = 0, sms = 0;
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_barrier, 1024, 0));
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT_MISUSE(cudaLaunchCooperativeKernel((const void *)grid_barrier, dim3(per_sm * sms + 1), dim3(1024),
                                              args, 0, 0),
                  cudaErrorCooperativeLaunchTooLarge);
    OK(cudaFree(arrived));
    OK(cudaFree(out));
}

/* cudaLimitStackSize sizes a recursive kernel's stack: a recursion of
 * 1000 frames (about 100 KB a thread) runs once the limit allows it. */
static void stack_limit(void)
{
    const int depth = 1000, threads = 4;
    int *out, *seed;
    OK(cudaMalloc(&out, threads * sizeof(int)));
    OK(cudaMalloc(&seed, sizeof(int)));
    OK(cudaMemset(seed, 0, sizeof(int)));
    size_t was = 0, now = 0;
    OK(cudaDeviceGetLimit(&was, cudaLimitStackSize));
    OK(cudaDeviceSetLimit(cudaLimitStackSize, 256 << 10));
    OK(cudaDeviceGetLimit(&now, cudaLimitStackSize));
    EXPECT(now == 256 << 10);
    recurse<<<1, threads>>>(depth, out, seed);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    int got[threads];
    OK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int want = 3;                              /* deep_sum(0) */
        for (int d = 1; d <= depth + t; d++)
            want += d + d % 16;
        EXPECT(got[t] == want);
    }
    OK(cudaDeviceSetLimit(cudaLimitStackSize, was));
    OK(cudaFree(out));
    OK(cudaFree(seed));
}

static void special_registers(void)
{
    unsigned *out, got[4];
    OK(cudaMalloc(&out, sizeof got));
    OK(cudaMemset(out, 0, sizeof got));
    warp_slots<<<2, 96>>>(out);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int per_sm = 0;
    OK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    EXPECT(got[0] == (unsigned)per_sm / 32);
    EXPECT(got[1] == 0);                        /* every %warpid below %nwarpid */
    EXPECT(got[3] == 0);
    OK(cudaFree(out));
}

static void sticky_fault(void)
{
    int *d = NULL;
    OK(cudaMalloc(&d, 64));
    wild_store<<<1, 1>>>(d);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    /* The context is poisoned: every call reports the fault. */
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    void *p = NULL;
    EXPECT_ERR(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    fill<<<1, 1>>>(d, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaStreamSynchronize(0), cudaErrorIllegalAddress);
    OK(cudaDeviceReset());
    OK(cudaGetLastError());
    OK(cudaMalloc(&d, 64));
    fill<<<1, 16>>>(d, 3);
    OK(cudaDeviceSynchronize());
    int h = 0;
    OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 3);
    OK(cudaFree(d));
}

int main()
{
    test_name = "api_launch";
    launch_paths();
    attributes_and_shared();
    cooperative();
    stack_limit();
    special_registers();
    sticky_fault();
    return finish();
}

/*
 * api_pool -- stream-ordered memory pools: cudaMallocAsync from the
 * device's default pool and cudaMallocFromPoolAsync from a created one,
 * the current pool, freed memory kept reserved and reused, the release
 * threshold applied at synchronisation, cudaMemPoolTrimTo, the used and
 * reserved attributes and their high-water marks; and misuse: NULL and
 * destroyed pools, the default pool's destruction, read-only attributes,
 * other devices.
 */
#include "rt_test.h"

#include <cstdint>
#include <cuda_runtime.h>

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

static uint64_t attr(cudaMemPool_t p, cudaMemPoolAttr a)
{
    uint64_t v = ~0ull;
    OK(cudaMemPoolGetAttribute(p, a, &v));
    return v;
}

static void default_pool(void)
{
    cudaMemPool_t def = NULL, cur = NULL;
    OK(cudaDeviceGetDefaultMemPool(&def, 0));
    OK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(def != NULL && def == cur);
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    const int n = 1 << 16;
    const uint64_t bytes = n * sizeof(int);
    uint64_t used0 = attr(def, cudaMemPoolAttrUsedMemCurrent);
    uint64_t res0 = attr(def, cudaMemPoolAttrReservedMemCurrent);
    EXPECT(used0 == 0 && res0 == 0);
    EXPECT(attr(def, cudaMemPoolAttrReleaseThreshold) == 0);

    int *p = NULL, *q = NULL;
    OK(cudaMallocAsync((void **)&p, bytes, s));
    OK(cudaMallocAsync((void **)&q, bytes, s));
    EXPECT(attr(def, cudaMemPoolAttrUsedMemCurrent) == 2 * bytes);
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == 2 * bytes);
    fill<<<n / 256, 256, 0, s>>>(p, n, 42);
    int h[4] = {0};
    OK(cudaMemcpyAsync(h, p + n - 4, sizeof h, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    EXPECT(h[0] == 42 && h[3] == 42);
    cudaPointerAttributes pa;
    OK(cudaPointerGetAttributes(&pa, p));
    EXPECT(pa.type == cudaMemoryTypeDevice);

    /* Freed memory stays reserved until a synchronisation finds more than
     * the threshold (0): then it is released. */
    OK(cudaFreeAsync(q, s));
    EXPECT(attr(def, cudaMemPoolAttrUsedMemCurrent) == bytes);
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == 2 * bytes);
    EXPECT(attr(def, cudaMemPoolAttrUsedMemHigh) == 2 * bytes);
    OK(cudaStreamSynchronize(s));
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == bytes);

    /* With a high threshold it is kept, and an allocation of the same size
     * reuses it without reserving more. */
    uint64_t keep = UINT64_MAX;
    OK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &keep));
    EXPECT(attr(def, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX);
    OK(cudaFreeAsync(p, s));
    OK(cudaStreamSynchronize(s));
    EXPECT(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0);
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == bytes);
    /* A freed pointer is no allocation to the program. */
    EXPECT_MISUSE(cudaFree(p), cudaErrorInvalidValue);
    int *r = NULL;
    OK(cudaMallocAsync((void **)&r, bytes, s));
    EXPECT(r == p);
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == bytes);
    EXPECT(attr(def, cudaMemPoolAttrUsedMemCurrent) == bytes);
    /* cudaFree works on pool memory too, returning it to the pool. */
    OK(cudaFree(r));
    EXPECT(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0);

    /* Trimming gives back what is kept, down to the bytes asked for. */
    OK(cudaMemPoolTrimTo(def, bytes));
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == bytes);
    OK(cudaMemPoolTrimTo(def, 0));
    EXPECT(attr(def, cudaMemPoolAttrReservedMemCurrent) == 0);

    /* High-water marks reset to the current value with 0, nothing else. */
    EXPECT(attr(def, cudaMemPoolAttrReservedMemHigh) == 2 * bytes);
    uint64_t zero = 0, one = 1;
    OK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemHigh, &zero));
    OK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
    EXPECT(attr(def, cudaMemPoolAttrReservedMemHigh) == 0);
    EXPECT(attr(def, cudaMemPoolAttrUsedMemHigh) == 0);
    EXPECT_MISUSE(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemCurrent, &zero), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, NULL), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemPoolGetAttribute(def, (cudaMemPoolAttr)99, &zero), cudaErrorInvalidValue);
    int reuse = 0;
    OK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    EXPECT(reuse == 1);
    reuse = 0;
    OK(cudaMemPoolSetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    reuse = 5;
    OK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    EXPECT(reuse == 0);
    OK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &zero));

    EXPECT_MISUSE(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaDeviceGetDefaultMemPool(&def, 1), cudaErrorInvalidDevice);
    EXPECT_MISUSE(cudaDeviceGetDefaultMemPool(NULL, 0), cudaErrorInvalidValue);
    OK(cudaStreamDestroy(s));
}

static void created_pool(void)
{
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool = NULL, def = NULL, cur = NULL;
    OK(cudaMemPoolCreate(&pool, &props));
    OK(cudaDeviceGetDefaultMemPool(&def, 0));
    EXPECT(pool != def);
    cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };
    cudaMemAccessFlags fl;
    OK(cudaMemPoolGetAccess(&fl, pool, &loc));
    EXPECT(fl == cudaMemAccessFlagsProtReadWrite);

    const size_t bytes = 4096;
    void *a = NULL, *b = NULL;
    OK(cudaMallocFromPoolAsync(&a, bytes, pool, 0));
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == bytes);
    EXPECT(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0);
    OK(cudaMemsetAsync(a, 0x11, bytes, 0));
    unsigned char h = 0;
    OK(cudaMemcpy(&h, (char *)a + 100, 1, cudaMemcpyDeviceToHost));
    EXPECT(h == 0x11);

    /* The current pool serves cudaMallocAsync. */
    OK(cudaDeviceSetMemPool(0, pool));
    OK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(cur == pool);
    OK(cudaMallocAsync(&b, bytes * 2, 0));
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 3 * bytes);
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) == 3 * bytes);
    OK(cudaFreeAsync(b, 0));
    OK(cudaDeviceSynchronize());
    EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == bytes);
    OK(cudaDeviceSetMemPool(0, def));

    /* Destroying a pool with memory still out: the memory stays usable and
     * is freed normally. */
    OK(cudaMemPoolDestroy(pool));
    OK(cudaMemsetAsync(a, 0x22, bytes, 0));
    OK(cudaFreeAsync(a, 0));
    EXPECT_MISUSE(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMallocFromPoolAsync(&a, 16, pool, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemPoolTrimTo(pool, 0), cudaErrorInvalidValue);
    uint64_t v;
    EXPECT_MISUSE(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaDeviceSetMemPool(0, pool), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemPoolCreate(&pool, NULL), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemPoolCreate(NULL, &props), cudaErrorInvalidValue);
    props.location.id = 3;
    EXPECT_MISUSE(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidDevice);
    props.location.id = 0;
    props.allocType = cudaMemAllocationTypeInvalid;
    EXPECT_MISUSE(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidValue);

    /* A pool with a maximum size refuses to grow past it. */
    props.allocType = cudaMemAllocationTypePinned;
    props.maxSize = 8192;
    OK(cudaMemPoolCreate(&pool, &props));
    OK(cudaMallocFromPoolAsync(&a, 8192, pool, 0));
    EXPECT_MISUSE(cudaMallocFromPoolAsync(&b, 16, pool, 0), cudaErrorMemoryAllocation);
    OK(cudaFreeAsync(a, 0));
    OK(cudaMallocFromPoolAsync(&b, 16, pool, 0));   /* the kept 8192 bytes make room */
    OK(cudaFreeAsync(b, 0));
    OK(cudaMemPoolDestroy(pool));

    /* Stream-ordered allocation inside a capture is a memory node of the
     * graph (api_graph_mem); freeing memory from outside any graph there
     * is not, and breaks the capture. */
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(cudaMallocAsync(&b, 64, 0));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMallocAsync(&a, 64, s));
    OK(cudaFreeAsync(a, s));
    EXPECT_MISUSE(cudaFreeAsync(b, s), cudaErrorInvalidValue);
    cudaGraph_t g;
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    OK(cudaFree(b));
    OK(cudaStreamDestroy(s));
}

int main()
{
    test_name = "api_pool";
    default_pool();
    created_pool();
    return finish();
}

/*
 * device_heap.cu -- kernels' malloc and free (CUDA C Programming Guide,
 * "Dynamic Global Memory Allocation and Operations"; cudaDeviceSetLimit):
 *
 *  - the heap is cudaLimitMallocHeapSize, set before the first kernel that
 *    calls malloc (12 MiB here): 1 MiB blocks run out after 12 (11 where
 *    the allocator keeps some of the heap for itself, as a GPU's may), and
 *    malloc then gives NULL; freeing one makes room for one more;
 *  - a block is usable memory however large: 3 MiB written end to end by
 *    a block's threads (past the 2 MiB the device had mapped before), read
 *    back by another kernel through the pointer it left in global memory;
 *  - many threads' small blocks, freed and taken again, never overlap;
 *  - once such a kernel ran, the limit cannot change: cudaErrorInvalidValue.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__global__ void take_all(unsigned long long *got, int *count, size_t bytes)
{
    int n = 0;
    for (int i = 0; i < 64; i++) {
        void *p = malloc(bytes);
        got[i] = (unsigned long long)p;
        if (p)
            n++;
    }
    *count = n;
}

__global__ void free_one_take_one(unsigned long long *got, size_t bytes, unsigned long long *again)
{
    free((void *)got[3]);
    again[0] = (unsigned long long)malloc(bytes);
    again[1] = (unsigned long long)malloc(bytes);    /* full again: NULL */
}

__global__ void free_all(unsigned long long *got, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i])
            free((void *)got[i]);
}

/* One thread takes 3 MiB; every thread of the block writes its words. */
__global__ void big_block(unsigned **out, size_t words)
{
    __shared__ unsigned *p;
    if (threadIdx.x == 0)
        p = (unsigned *)malloc(words * 4);
    __syncthreads();
    if (threadIdx.x == 0)
        *out = p;
    if (!p)
        return;
    for (size_t i = threadIdx.x; i < words; i += blockDim.x)
        p[i] = (unsigned)(i * 2654435761u);
}

__global__ void sum_block(unsigned *const *in, size_t words, unsigned long long *sum)
{
    unsigned long long s = 0;
    for (size_t i = 0; i < words; i++)
        s += (*in)[i];
    *sum = s;
    free(*in);
}

/* Each thread: a block of 16 + tid % 48 bytes, filled with its id, freed
 * and taken again (16 + (tid * 7) % 64 bytes), filled again, checked. */
__global__ void many_small(int *bad)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned char *a = (unsigned char *)malloc(16 + t % 48);
    if (!a) {
        atomicAdd(bad, 1);
        return;
    }
    for (unsigned i = 0; i < 16 + t % 48; i++)
        a[i] = (unsigned char)t;
    free(a);
    unsigned n = 16 + (t * 7) % 64;
    unsigned char *b = (unsigned char *)malloc(n);
    if (!b || ((unsigned long long)b & 15)) {
        atomicAdd(bad, 1);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        b[i] = (unsigned char)(t * 3);
    __syncthreads();
    for (unsigned i = 0; i < n; i++)
        if (b[i] != (unsigned char)(t * 3))
            atomicAdd(bad, 1);
    free(b);
}

int main()
{
    test_name = "device_heap";
    const size_t limit = 12u << 20, mib = 1u << 20;
    OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, limit));
    size_t got_limit = 0;
    OK(cudaDeviceGetLimit(&got_limit, cudaLimitMallocHeapSize));
    EXPECT(got_limit == limit);

    unsigned long long *got, *again, *sum;
    int *count, *bad;
    unsigned **big;
    OK(cudaMallocManaged(&got, 64 * sizeof *got));
    OK(cudaMallocManaged(&again, 2 * sizeof *again));
    OK(cudaMallocManaged(&sum, sizeof *sum));
    OK(cudaMallocManaged(&count, sizeof *count));
    OK(cudaMallocManaged(&bad, sizeof *bad));
    OK(cudaMallocManaged(&big, sizeof *big));

    take_all<<<1, 1>>>(got, count, mib);
    OK(cudaDeviceSynchronize());
    EXPECT(*count == 11 || *count == 12);
    for (int i = 0; i < *count; i++)
        for (int j = 0; j < i; j++)
            EXPECT(got[i] + mib <= got[j] || got[j] + mib <= got[i]);
    free_one_take_one<<<1, 1>>>(got, mib, again);
    OK(cudaDeviceSynchronize());
    EXPECT(again[0] != 0 && again[1] == 0);
    got[3] = again[0];
    free_all<<<1, 1>>>(got, 64);
    OK(cudaDeviceSynchronize());

    const size_t words = 3 * mib / 4;
    big_block<<<1, 256>>>(big, words);
    sum_block<<<1, 1>>>(big, words, sum);
    OK(cudaDeviceSynchronize());
    unsigned long long want = 0;
    for (size_t i = 0; i < words; i++)
        want += (unsigned)(i * 2654435761u);
    EXPECT(*big != nullptr);
    EXPECT(*sum == want);

    *bad = 0;
    many_small<<<8, 128>>>(bad);
    OK(cudaDeviceSynchronize());
    EXPECT(*bad == 0);

    EXPECT_MISUSE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 * limit), cudaErrorInvalidValue);
    OK(cudaDeviceGetLimit(&got_limit, cudaLimitMallocHeapSize));
    EXPECT(got_limit == limit);
    return finish();
}

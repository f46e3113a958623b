/*
 * device_alloca.cu -- stack memory a device function asks for at run time:
 * alloca() (the PTX alloca instruction) for a buffer whose size depends on
 * the thread, in a function called per element, and stacksave /
 * stackrestore around an alloca in a loop, which frees each iteration's
 * block (a thousand 64-byte blocks would not fit the stack otherwise).
 * The host checks every value.
 */
#include <alloca.h>

#include <vector>

#include "sample.h"

#define BLOCK 64

/* The sum of every second element of a[0..n) where a[i] = i * t. */
__device__ __noinline__ int odd_sum(int n, int t)
{
    int *a = (int *)alloca(n * sizeof(int));
    for (int i = 0; i < n; i++)
        a[i] = i * t;
    int s = 0;
    for (int i = n - 1; i >= 0; i -= 2)
        s += a[i];
    return s;
}

/* rounds blocks of 16 ints, each freed before the next is taken. */
__device__ __noinline__ int rounds_sum(int rounds, int t)
{
    int s = 0;
    for (int r = 0; r < rounds; r++) {
        unsigned long long sp;
        asm volatile("stacksave.u64 %0;" : "=l"(sp));
        volatile int *a = (volatile int *)alloca(16 * sizeof(int));
        for (int i = 0; i < 16; i++)
            a[i] = r + i + t;
        s += a[r % 16];
        asm volatile("stackrestore.u64 %0;" ::"l"(sp));
    }
    return s;
}

__global__ void stack_users(int *sums, int *loops, int rounds, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n)
        return;
    sums[i] = odd_sum(i % 13 + 1, i);
    loops[i] = rounds_sum(rounds, i);
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "device_alloca");
    int n = size == SIZE_TINY ? 256 : size == SIZE_SMALL ? 8192 : 65536, rounds = 1000;
    int *sums, *loops;
    CHECK(cudaMalloc(&sums, n * sizeof(int)));
    CHECK(cudaMalloc(&loops, n * sizeof(int)));
    stack_users<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(sums, loops, rounds, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> hs(n), hl(n);
    CHECK(cudaMemcpy(hs.data(), sums, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hl.data(), loops, n * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        int m = i % 13 + 1, s = 0, l = 0;
        for (int k = m - 1; k >= 0; k -= 2)
            s += k * i;
        for (int r = 0; r < rounds; r++)
            l += r + r % 16 + i;
        wrong += hs[i] != s;
        wrong += hl[i] != l;
    }
    std::printf("%s device_alloca size=%s n=%d mismatches=%d (tolerance: exact)\n", wrong ? "FAIL" : "PASS",
                size_name(size), n, wrong);
    return wrong ? 1 : 0;
}

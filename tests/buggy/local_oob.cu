// A device function that fills a local array one element too far.  Its
// frame is the last in use, so the extra element lands past every live
// frame (caught with --check memory, which bounds local accesses by the
// frames in use; without it the write lands in stack another call used
// before, as it would on a GPU).
#include "buggy.h"

__device__ __noinline__ int sum_squares(int n)
{
    volatile int sq[8];
    for (int i = 0; i <= n; i++)                // BUG: should be i < n
        sq[i] = i * i;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += sq[i];
    return s;
}

__device__ __noinline__ int sum_table(int n)
{
    volatile int t[64];                         // a deeper frame than sum_squares'
    for (int i = 0; i < 64; i++)
        t[i] = i * n;
    return t[n] + t[63 - n];
}

__global__ void squares(int *out, int n)
{
    out[threadIdx.x] = sum_table(n) + sum_squares(n);
}

int main()
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    squares<<<1, 32>>>(out, 8);
    return expect_fault("local_oob", cudaErrorIllegalAddress);
}

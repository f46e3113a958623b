// A kernel writes through a pointer whose allocation was already freed
// (caught with --check memory, which names the freed allocation).
#include "buggy.h"

__global__ void fill(int *p, int v)
{
    p[threadIdx.x] = v;
}

int main()
{
    int *p;
    cudaMalloc(&p, 128 * sizeof(int));
    cudaFree(p);
    fill<<<1, 128>>>(p, 7);                     // BUG: p was freed above
    return expect_fault("use_after_free", cudaErrorIllegalAddress);
}

// A stencil that reads one row above its first row: row -1 lies 8 KB before
// the program's first allocation.  A GPU maps device memory in 2 MiB pages
// and keeps its runtime's own buffers below the program's, so the read
// returns whatever is there and the program runs; with --check memory
// ptxsim names the overrun.
#include <cstdio>

#include "buggy.h"

#define WIDTH 2048

__global__ void smooth(float *out, const float *in, int rows)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < WIDTH && y < rows)
        out[y * WIDTH + x] = 0.5f * (in[y * WIDTH + x] + in[(y - 1) * WIDTH + x]);   // BUG: y == 0 reads row -1
}

int main()
{
    const int rows = 4;
    float *in, *out;
    cudaMalloc(&in, rows * WIDTH * sizeof(float));
    cudaMalloc(&out, rows * WIDTH * sizeof(float));
    smooth<<<dim3(WIDTH / 256, rows), 256>>>(out, in, rows);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("before_first_alloc: synchronize: %s (%d)\n", cudaGetErrorName(e), (int)e);
    return 0;
}

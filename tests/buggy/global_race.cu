// Each block sums its part of the input in shared memory (correctly), then
// thread 0 adds the block's sum to the grand total with a plain `+=`: blocks
// are not ordered, so one block's read-modify-write can overwrite another's
// (caught by --check race-global).  "atomic" runs the correct version, an
// atomicAdd after a grid-stride scaling pass, which the check must pass
// without a report.
#include "buggy.h"

#include <cstring>

// Doubles every element: a grid-stride loop with fewer threads than
// elements, so each thread visits several, and no two threads one.
__global__ void scale2(int *x, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] *= 2;
}

template <bool ATOMIC>
__global__ void sum_blocks(const int *in, int *total)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        if (ATOMIC)
            atomicAdd(total, s[0]);
        else
            *total += s[0];                     // BUG: blocks race on *total
    }
}

int main(int argc, char **argv)
{
    bool atomic = argc > 1 && std::strcmp(argv[1], "atomic") == 0;
    const int blocks = 4, n = blocks * 128;
    int h[n], sum = 0;
    for (int i = 0; i < n; i++)
        h[i] = i % 5;
    int *in, *total;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&total, sizeof sum);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(total, 0, sizeof sum);
    if (atomic) {
        scale2<<<2, 64>>>(in, n);
        sum_blocks<true><<<blocks, 128>>>(in, total);
    } else {
        sum_blocks<false><<<blocks, 128>>>(in, total);
    }
    cudaError_t e = cudaMemcpy(&sum, total, sizeof sum, cudaMemcpyDeviceToHost);
    // A race is a warning, not a fault: the launches themselves succeed.
    std::printf("global_race%s: %s, total %d\n", atomic ? " (atomic)" : "", cudaGetErrorName(e), sum);
    return e == cudaSuccess ? 0 : 1;
}

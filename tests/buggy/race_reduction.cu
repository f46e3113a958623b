// A shared-memory tree reduction without __syncthreads() between its
// steps: each step reads partial sums other warps may not have written yet
// (caught by --check race).  "sync" runs the correct version, which the
// race check must pass without a report.
#include "buggy.h"

#include <cstring>

template <bool SYNC>
__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    if (SYNC)
        __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];              // BUG without SYNC: no barrier between steps
        if (SYNC)
            __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main(int argc, char **argv)
{
    bool sync = argc > 1 && std::strcmp(argv[1], "sync") == 0;
    const int blocks = 2, n = blocks * 256;
    int h[n], sums[blocks];
    for (int i = 0; i < n; i++)
        h[i] = i % 7;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (sync)
        block_sum<true><<<blocks, 256>>>(in, out);
    else
        block_sum<false><<<blocks, 256>>>(in, out);
    cudaError_t e = cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    // A race is a warning, not a fault: the launch itself succeeds.
    std::printf("race_reduction%s: %s, sums %d %d\n", sync ? " (sync)" : "", cudaGetErrorName(e),
                sums[0], sums[1]);
    return e == cudaSuccess ? 0 : 1;
}

/*
 * cache_hints.cu -- the L2 cache hints CUDA 11+ offers, which change no
 * result: libcu++'s annotated_ptr with an access property (createpolicy,
 * then loads and stores with .L2::cache_hint), apply_access_property
 * (applypriority) and discard_memory (discard.global.L2), on sm_80 and
 * newer.  Each block scales its slice through an annotated pointer, marks
 * it normal again, and discards a scratch area it no longer needs; the
 * host checks every value.
 */
#include <cuda/annotated_ptr>

#include <vector>

#include "sample.h"

#define BLOCK 128

__global__ void scale(int *data, int *scratch, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    cuda::access_property keep(data, n * sizeof(int), n * sizeof(int), cuda::access_property::persisting{});
    cuda::annotated_ptr<int, cuda::access_property> p(data, keep);
    if (i < n) {
        scratch[i] = p[i] * 3;
        p[i] = scratch[i] + 1;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int *mine = data + blockIdx.x * BLOCK;
        cuda::apply_access_property(mine, BLOCK * sizeof(int), cuda::access_property::normal{});
        cuda::discard_memory(scratch + blockIdx.x * BLOCK, BLOCK * sizeof(int));
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cache_hints");
    int n = size == SIZE_TINY ? 4096 : size == SIZE_SMALL ? 65536 : 1 << 20;
    int blocks = (n + BLOCK - 1) / BLOCK;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = i - n / 2;
    int *data, *scratch;
    CHECK(cudaMalloc(&data, n * sizeof(int)));
    CHECK(cudaMalloc(&scratch, blocks * BLOCK * sizeof(int)));
    CHECK(cudaMemcpy(data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    scale<<<blocks, BLOCK>>>(data, scratch, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> out(n);
    CHECK(cudaMemcpy(out.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += out[i] != h[i] * 3 + 1;
    std::printf("%s cache_hints size=%s n=%d mismatches=%d (tolerance: exact)\n", wrong ? "FAIL" : "PASS",
                size_name(size), n, wrong);
    return wrong ? 1 : 0;
}

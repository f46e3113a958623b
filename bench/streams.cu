/*
 * streams -- independent kernels in several streams for bench/run-threads:
 * STREAMS streams, each LAUNCHES launches of a kernel of BLOCKS blocks of
 * 64 threads running WORK steps of a dependent integer chain.  Kernels of
 * few blocks leave most host threads idle unless kernels of different
 * streams run at once (runtime/rt_queue.c's side threads).  Prints a
 * checksum, the same for every thread count, and PASS.
 *
 *   streams STREAMS LAUNCHES BLOCKS WORK
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

__global__ void chain(unsigned *out, unsigned seed, int work)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, x = i ^ seed;
    for (int k = 0; k < work; k++)
        x = x * 1664525u + 1013904223u;
    out[i] += x;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: streams STREAMS LAUNCHES BLOCKS WORK\n");
        return 2;
    }
    int ns = std::atoi(argv[1]), launches = std::atoi(argv[2]), blocks = std::atoi(argv[3]);
    int work = std::atoi(argv[4]);
    size_t per = (size_t)blocks * 64;
    unsigned *d = nullptr;
    if (cudaMalloc(&d, ns * per * sizeof *d) != cudaSuccess || cudaMemset(d, 0, ns * per * sizeof *d) != cudaSuccess)
        return 1;
    std::vector<cudaStream_t> s(ns);
    for (auto &st : s)
        cudaStreamCreate(&st);
    for (int k = 0; k < launches; k++)
        for (int i = 0; i < ns; i++)
            chain<<<blocks, 64, 0, s[i]>>>(d + i * per, 977u * i + k, work);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    std::vector<unsigned> h(ns * per);
    cudaMemcpy(h.data(), d, h.size() * sizeof *d, cudaMemcpyDeviceToHost);
    unsigned long long sum = 0;
    for (unsigned v : h)
        sum = sum * 31 + v;
    std::printf("checksum %llu\nPASS\n", sum);
    return 0;
}

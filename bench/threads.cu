/*
 * threads -- a synthetic many-block kernel for bench/run-threads: BLOCKS
 * blocks of THREADS threads, each thread running WORK steps of a
 * dependent integer chain and storing the result.  WORK sets how much a
 * block computes against what it costs to start one, which is where
 * running blocks on several host threads stops paying off.  Prints a
 * checksum, the same for every thread count.
 *
 *   threads BLOCKS THREADS WORK
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

__global__ void chain(unsigned *out, int work)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, x = i;
    for (int k = 0; k < work; k++)
        x = x * 1664525u + 1013904223u;
    out[i] = x;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: threads BLOCKS THREADS WORK\n");
        return 2;
    }
    int blocks = std::atoi(argv[1]), threads = std::atoi(argv[2]), work = std::atoi(argv[3]);
    size_t n = (size_t)blocks * threads;
    unsigned *d = nullptr;
    if (cudaMalloc(&d, n * sizeof *d) != cudaSuccess)
        return 1;
    chain<<<blocks, threads>>>(d, work);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    std::vector<unsigned> h(n);
    cudaMemcpy(h.data(), d, n * sizeof *d, cudaMemcpyDeviceToHost);
    unsigned long long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += h[i] ^ i;
    std::printf("PASS threads blocks=%d threads=%d work=%d checksum=%llx\n", blocks, threads, work, sum);
    cudaFree(d);
    return 0;
}

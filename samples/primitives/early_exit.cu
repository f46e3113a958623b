/*
 * early_exit.cu -- threads that leave a kernel early, and the threads that
 * go on: an exit inside a (not inlined) device function, after which the
 * caller's remaining threads carry on with their registers; then block
 * barriers, a named barrier with a thread count (bar.sync 1, 64) and a
 * producer/consumer pair of named barriers (bar.arrive / bar.sync), all
 * reached by warps some of whose threads have exited -- a barrier counts
 * a warp's arrival for all its threads (PTX ISA, barrier), so they
 * complete -- and a block whose last warp is partial.  The host checks
 * every value.
 */
#include <vector>

#include "sample.h"

#define BLOCK 128

__device__ __noinline__ void leave_if(bool done)
{
    if (done)
        asm volatile("exit;");
}

__device__ bool leaves(int t) { return t % 9 == 8; }

__global__ void stages(int *out)
{
    __shared__ int sh[BLOCK];
    int t = threadIdx.x, warp = t / 32;
    int *o = out + blockIdx.x * BLOCK;
    o[t] = -1;
    leave_if(leaves(t));
    sh[t] = t * 3;
    __syncthreads();
    int got = sh[(t + 32) % BLOCK];
    __syncthreads();
    /* Warps 0 and 2 meet at barrier 1 (64 threads); warp 1 hands warp 3 a
     * value through barrier 2 (64 threads: one warp arrives, one waits). */
    if (warp == 0 || warp == 2)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    if (warp == 1) {
        sh[t] = 1000 + t;
        asm volatile("bar.arrive 2, 64;" ::: "memory");
    }
    if (warp == 3) {
        asm volatile("bar.sync 2, 64;" ::: "memory");
        got += sh[t - 64];
    }
    o[t] = got;
}

/* A block of 48 threads: its second warp has 16; 64 threads of barrier 1
 * are its two warps. */
__global__ void partial(int *tail)
{
    __shared__ int sh[64];
    int t = threadIdx.x;
    sh[t] = t + 1;
    asm volatile("bar.sync 1, 64;" ::: "memory");
    tail[t] = sh[47 - t];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "early_exit");
    int blocks = size == SIZE_TINY ? 4 : size == SIZE_SMALL ? 64 : 1024;
    int *out, *tail;
    CHECK(cudaMalloc(&out, blocks * BLOCK * sizeof(int)));
    CHECK(cudaMalloc(&tail, 48 * sizeof(int)));
    stages<<<blocks, BLOCK>>>(out);
    CHECK(cudaGetLastError());
    partial<<<1, 48>>>(tail);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> h(blocks * BLOCK), ht(48);
    CHECK(cudaMemcpy(h.data(), out, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ht.data(), tail, ht.size() * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < BLOCK; t++) {
            int src = (t + 32) % BLOCK, want;
            if (t % 9 == 8)
                want = -1;                      /* left before writing */
            else if (src % 9 == 8)
                continue;                       /* read a slot its thread never wrote */
            else {
                want = src * 3;
                if (t / 32 == 3) {
                    if ((t - 64) % 9 == 8)
                        continue;
                    want += 1000 + (t - 64);
                }
            }
            wrong += h[b * BLOCK + t] != want;
        }
    for (int t = 0; t < 48; t++)
        wrong += ht[t] != 48 - t;
    std::printf("%s early_exit size=%s blocks=%d mismatches=%d (tolerance: exact)\n", wrong ? "FAIL" : "PASS",
                size_name(size), blocks, wrong);
    return wrong ? 1 : 0;
}

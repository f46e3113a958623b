// Half the block takes a __syncthreads() that the other half never reaches,
// because it waits on a shared flag only the first half sets after the
// barrier: the kernel can never finish.  ptxsim's loop watch proves it
// within a second (every warp either waits at the barrier or repeats a
// loop that changes nothing) instead of running out the instruction budget.
// With "ok", the flag is set without the barrier, after a long computation
// in registers: the spinning warps must wait for it and the run succeed.
#include <cstdio>
#include <cstring>

#include "buggy.h"

__global__ void half_sync(int *out, int ok)
{
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x < 128) {
        if (ok) {
            unsigned x = threadIdx.x;
            for (int i = 0; i < (1 << 16); i++)     // long, changes registers only
                x = x * 1664525u + 1013904223u;
            out[256 + threadIdx.x] = (int)x;
        } else {
            __syncthreads();                        // BUG: the other half never gets here
        }
        flag = 1;
    } else {
        while (flag == 0)
            ;
    }
    out[threadIdx.x] = flag;
}

int main(int argc, char **argv)
{
    bool ok = argc > 1 && std::strcmp(argv[1], "ok") == 0;
    int *out;
    cudaMalloc(&out, 512 * sizeof(int));
    half_sync<<<1, 256>>>(out, ok);
    if (!ok)
        return expect_fault("barrier_spin", cudaErrorLaunchTimeout);
    int h[256];
    cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 256; i++)
        bad += h[i] != 1;
    std::printf("barrier_spin ok: %s (%d), %d wrong\n", cudaGetErrorName(e), (int)e, bad);
    return e == cudaSuccess && bad == 0 ? 0 : 1;
}

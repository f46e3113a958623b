// Block 0 fills a buffer and raises a flag; block 1 waits for the flag and
// reads the buffer.  The flag is a plain store and nothing orders the
// buffer's writes before it (no __threadfence()), so block 1 may see the
// flag and stale data (caught by --check race-global).  "fence" runs the
// correct version: a fence, then a volatile flag store; after the wait,
// another fence.
#include "buggy.h"

#include <cstring>

template <bool FENCED>
__global__ void handoff(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        for (int i = 0; i < 4; i++)
            data[i] = 10 + i;
        if (FENCED) {
            __threadfence();
            *(volatile int *)flag = 1;
        } else {
            *flag = 1;                          // BUG: a plain flag, no fence
        }
    } else {
        while (*(volatile int *)flag == 0)
            ;
        if (FENCED)
            __threadfence();
        int sum = 0;
        for (int i = 0; i < 4; i++)
            sum += data[i];
        *out = sum;
    }
}

int main(int argc, char **argv)
{
    bool fenced = argc > 1 && std::strcmp(argv[1], "fence") == 0;
    int *data, *flag, *out, sum = 0;
    cudaMalloc(&data, 4 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    if (fenced)
        handoff<true><<<2, 32>>>(data, flag, out);
    else
        handoff<false><<<2, 32>>>(data, flag, out);
    cudaError_t e = cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
    std::printf("flag_handoff%s: %s, sum %d\n", fenced ? " (fence)" : "", cudaGetErrorName(e), sum);
    return e == cudaSuccess ? 0 : 1;
}

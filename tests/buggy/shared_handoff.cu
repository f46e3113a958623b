// Thread 0 fills a shared buffer and raises a shared flag; thread 32 (the
// next warp) waits for the flag and reads the buffer.  The flag is a plain
// store, so nothing publishes the buffer's writes (caught by --check race).
// "acqrel" runs it right: the flag stored with st.release and polled with
// ld.acquire (cuda::atomic_ref's store and load); "barrier" hands the
// buffer over through an mbarrier (cuda::barrier's arrive and wait), every
// thread writing its word and reading a neighbour's.
#include "buggy.h"

#include <cstring>

enum { PLAIN, ACQREL, BARRIER };

__device__ void flag_store(volatile int *flag, int mode)
{
    if (mode == ACQREL)
        asm volatile("st.release.cta.shared.b32 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared((void *)flag))
                     : "memory");
    else
        *(int *)flag = 1;                       // BUG: a plain flag
}

__device__ int flag_load(volatile int *flag, int mode)
{
    int v;
    if (mode == ACQREL)
        asm volatile("ld.acquire.cta.shared.b32 %0, [%1];"
                     : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared((void *)flag)) : "memory");
    else
        v = *flag;
    return v;
}

__global__ void handoff(int mode, int *out)
{
    __shared__ int buf[64];
    __shared__ volatile int flag;
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    if (mode == BARRIER && t == 0) {
#if __CUDA_ARCH__ >= 800
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&bar)), "r"(64));
#endif
    }
    __syncthreads();
    if (mode == BARRIER) {
#if __CUDA_ARCH__ >= 800
        unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
        unsigned long long state;
        buf[t] = t * 3;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
        asm volatile("{ .reg .pred p; W: mbarrier.test_wait.shared.b64 p, [%0], %1; @!p bra W; }"
                     ::"r"(b), "l"(state) : "memory");
        out[t] = buf[(t + 1) % 64];
#endif
        return;
    }
    if (t == 0) {
        for (int i = 0; i < 64; i++)
            buf[i] = i * 3;
        flag_store(&flag, mode);
    } else if (t == 32) {
        while (flag_load(&flag, mode) == 0)
            ;
        int sum = 0;
        for (int i = 0; i < 64; i++)
            sum += buf[i];
        *out = sum;
    }
}

int main(int argc, char **argv)
{
    int mode = argc > 1 && std::strcmp(argv[1], "acqrel") == 0 ? ACQREL
             : argc > 1 && std::strcmp(argv[1], "barrier") == 0 ? BARRIER : PLAIN;
    int *out, h[64] = { 0 };
    cudaMalloc(&out, sizeof h);
    handoff<<<1, 64>>>(mode, out);
    cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int want = mode == BARRIER ? 3 : 64 * 63 / 2 * 3;
    std::printf("shared_handoff (%s): %s, %s\n", argc > 1 ? argv[1] : "plain", cudaGetErrorName(e),
                h[0] == want ? "right" : "wrong");
    return e == cudaSuccess && h[0] == want ? 0 : 1;
}

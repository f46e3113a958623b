/*
 * warp_paths.cu -- lanes of one warp that wait on an mbarrier for other
 * lanes of the same warp (valid from Volta on, where a warp's lanes run
 * independently; PTX ISA "mbarrier", CUDA's cuda::barrier):
 *
 *  - half the lanes leave the barrier (arrive_drop) while the other half
 *    arrive and wait for the phase, which the leavers complete;
 *  - one lane waits for data the other 31 write and then arrive with;
 *  - one lane waits, inside a branch, for arrivals the others make after
 *    the branch (they must not wait for it to reconverge first);
 *  - (four warps) thread 0 invalidates the barrier as soon as its own wait
 *    returns, while other warps still poll the completed phase, as NVIDIA's
 *    globalToShmemTMACopy sample does: their waits succeed;
 *
 * each with either side as the waiters (the branch's taken or fall-through
 * path, so that whichever side ptxsim runs first, the waiters get there
 * first in one of the two), and every lane's result checked.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* mbarrier waits need sm_80: the compute_75 build's kernels are empty. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define SM80 1
#endif

__device__ void wait_phase(unsigned bar, unsigned parity)
{
#ifdef SM80
    asm volatile("{ .reg .pred p; W: mbarrier.test_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }"
                 ::"r"(bar), "r"(parity) : "memory");
#endif
}

/* Lane 0 sets the barrier up for `count` arrivals, before any lane arrives. */
__device__ void init_barrier(unsigned bar, unsigned count)
{
#ifdef SM80
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
    __syncwarp();
#endif
}

__device__ void arrive(unsigned bar)
{
#ifdef SM80
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
#endif
}

/* Lanes with (lane & 1) == leaver_bit drop out; the others arrive and wait,
 * then read what every lane wrote before. */
__global__ void drop_half(int leaver_bit, int *out)
{
#ifdef SM80
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int data[32];
    unsigned l = threadIdx.x, b = smem(&bar);
    init_barrier(b, 32);
    data[l] = (int)l * 7;
    if ((int)(l & 1) == leaver_bit) {
        asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
        out[l] = -1;
    } else {
        arrive(b);
        wait_phase(b, 0);
        out[l] = data[l ^ 1];
    }
#endif
}

/* What every lane but `waiter` wrote, added up. */
__device__ int others_sum(const int *data, int waiter)
{
    int s = 0;
    for (int i = 0; i < 32; i++)
        s += i == waiter ? 0 : data[i];
    return s;
}

/* Lane `waiter` waits for the 31 others, which write data and arrive. */
__global__ void one_waits(int waiter, int *out)
{
#ifdef SM80
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int data[32];
    unsigned l = threadIdx.x, b = smem(&bar);
    init_barrier(b, 31);
    if ((int)l == waiter) {
        wait_phase(b, 0);
        out[l] = others_sum(data, waiter);
    } else {
        data[l] = (int)l + 100;
        arrive(b);
        out[l] = 0;
    }
#endif
}

/* Lane `waiter` waits inside a branch for arrivals the other lanes make
 * after it, past the branch's reconvergence point: they wait there for the
 * waiter, which from Volta on does not hold them (lockstep SIMT would
 * never let them arrive). */
__global__ void arrive_after(int waiter, int *out)
{
#ifdef SM80
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int data[32];
    unsigned l = threadIdx.x, b = smem(&bar);
    init_barrier(b, 31);
    int got = 0;
    if ((int)l == waiter) {
        wait_phase(b, 0);
        got = others_sum(data, waiter);
    }
    data[l] = (int)l * 3 + 1;       /* every lane, past the reconvergence point */
    if ((int)l != waiter)
        arrive(b);
    out[l] = got;
#endif
}

/* Every thread of the block arrives and waits; thread 0 invalidates the
 * barrier once its wait returns, while the other warps may not have seen
 * the phase complete yet. */
__global__ void inval_after_wait(int *out)
{
#ifdef SM80
    __shared__ __align__(8) unsigned long long bar;
    unsigned t = threadIdx.x, b = smem(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x));
    __syncthreads();
    arrive(b);
    wait_phase(b, 0);
    if (t == 0)
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(b) : "memory");
    out[t] = (int)t + 1;
#endif
}

int main()
{
    test_name = "warp_paths";
    int *out, h[32];
    OK(cudaMalloc(&out, sizeof h));
    for (int leaver = 0; leaver < 2; leaver++) {
        drop_half<<<1, 32>>>(leaver, out);
        OK(cudaDeviceSynchronize());
        OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; l++)
            EXPECT(h[l] == ((l & 1) == leaver ? -1 : (l ^ 1) * 7));
    }
    for (int waiter : { 0, 31, 13 }) {
        one_waits<<<1, 32>>>(waiter, out);
        OK(cudaDeviceSynchronize());
        OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        int want = 0;
        for (int i = 0; i < 32; i++)
            want += i == waiter ? 0 : i + 100;
        for (int l = 0; l < 32; l++)
            EXPECT(h[l] == (l == waiter ? want : 0));
    }
    for (int waiter : { 0, 17 }) {
        arrive_after<<<1, 32>>>(waiter, out);
        OK(cudaDeviceSynchronize());
        OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        int want = 0;
        for (int i = 0; i < 32; i++)
            want += i == waiter ? 0 : i * 3 + 1;
        for (int l = 0; l < 32; l++)
            EXPECT(h[l] == (l == waiter ? want : 0));
    }
    int *wide, hw[128];
    OK(cudaMalloc(&wide, sizeof hw));
    inval_after_wait<<<1, 128>>>(wide);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(hw, wide, sizeof hw, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 128; t++)
        EXPECT(hw[t] == t + 1);
    OK(cudaFree(wide));
    OK(cudaFree(out));
    return finish();
}

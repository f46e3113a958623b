/*
 * sim_time.cu -- what a program sees of time: a kernel reads %clock64
 * around a dependent chain of FMAs and %globaltimer, and the host measures
 * the launch with CUDA events.  Prints the figures for timing_check.sh,
 * which compares them with the timing model's cycle count.  The results
 * themselves are checked here, so the program passes in both modes.
 */
#include <cuda_runtime.h>

#include <cmath>

#include "rt_test.h"

__global__ void chain(float *out, long long *clocks, int n)
{
    long long t0 = clock64();
    float x = out[threadIdx.x];
    for (int i = 0; i < n; i++)
        x = __fmaf_rn(x, 0.999f, 1.0f);     /* each FMA waits for the last */
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) {
        clocks[0] = t0;
        clocks[1] = t1;
    }
}

int main()
{
    test_name = "sim_time";
    const int n = 200, threads = 64;
    float *out;
    long long *clocks;
    OK(cudaMalloc(&out, threads * sizeof(float)));
    OK(cudaMalloc(&clocks, 2 * sizeof(long long)));
    OK(cudaMemset(out, 0, threads * sizeof(float)));
    cudaEvent_t start, stop;
    OK(cudaEventCreate(&start));
    OK(cudaEventCreate(&stop));
    OK(cudaEventRecord(start));
    chain<<<1, threads>>>(out, clocks, n);
    OK(cudaGetLastError());
    OK(cudaEventRecord(stop));
    OK(cudaEventSynchronize(stop));
    float ms = -1;
    OK(cudaEventElapsedTime(&ms, start, stop));
    float host[threads];
    long long c[2];
    OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(c, clocks, sizeof c, cudaMemcpyDeviceToHost));
    float want = 0;
    for (int i = 0; i < n; i++)
        want = std::fmaf(want, 0.999f, 1.0f);
    for (int i = 0; i < threads; i++)
        EXPECT(host[i] == want);
    EXPECT(ms >= 0);
    EXPECT(c[1] > c[0]);
    std::printf("elapsed_ms=%.9f clock_delta=%lld iterations=%d\n", ms, c[1] - c[0], n);
    return finish();
}

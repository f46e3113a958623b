/*
 * launch -- launch overhead: an empty kernel launched many times, through
 * `<<<>>>` and through cudaLaunchKernel with arguments, timed on the host.
 * Prints one line per form with launches per second.
 *
 *   launch [N]    N launches per form (default 200000)
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void empty() {}

__global__ void empty_args(int *p, int n, float x) {}

static double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        std::fprintf(stderr, "launch: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
    return 0;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? std::atol(argv[1]) : 200000;
    if (n <= 0)
        n = 200000;
    int *d = NULL;
    check(cudaMalloc(&d, 4), "cudaMalloc");
    empty<<<1, 32>>>();                         /* loads the module */
    check(cudaDeviceSynchronize(), "warm-up");

    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; i++)
        empty<<<1, 32>>>();
    check(cudaDeviceSynchronize(), "<<<>>>");
    double s = seconds_since(t0);
    std::printf("<<<1,32>>> empty kernel: %ld launches in %.3f s: %.0f launches per second\n", n, s, n / s);

    int k = 3;
    float x = 1.5f;
    void *args[] = { &d, &k, &x };
    t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; i++)
        cudaLaunchKernel((const void *)empty_args, dim3(1), dim3(32), args, 0, 0);
    check(cudaDeviceSynchronize(), "cudaLaunchKernel");
    s = seconds_since(t0);
    std::printf("cudaLaunchKernel, 3 arguments: %ld launches in %.3f s: %.0f launches per second\n", n, s, n / s);
    check(cudaFree(d), "cudaFree");
    return 0;
}

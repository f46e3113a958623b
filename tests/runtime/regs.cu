// regs.cu: kernels of very different register pressure, for regs_check.sh.
// Prints each kernel's cudaFuncGetAttributes numRegs and localSizeBytes, and
// runs each once so that a timing-mode --stats file has a record of each.
#include <cstdio>

#include "rt_test.h"

__global__ void light(float *a, float b) { a[threadIdx.x] += b; }

// Forty values live at once, mixed with divisions: over a hundred registers.
__global__ void heavy(double *a, int n)
{
    double acc[40];
    for (int i = 0; i < 40; i++)
        acc[i] = a[i * n + threadIdx.x];
    double s = 0;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 40; j++)
            s += acc[i] * acc[j] / (acc[(i + j) % 40] + 1.0);
    a[threadIdx.x] = s;
}

// A local array indexed at run time lives in the stack frame.
__global__ void framed(int *a, int k)
{
    int t[64];
    for (int i = 0; i < 64; i++)
        t[i] = a[i] * k;
    a[threadIdx.x] = t[(threadIdx.x * k) & 63];
}

template <typename K> static void report(const char *name, K kernel)
{
    cudaFuncAttributes at;
    OK(cudaFuncGetAttributes(&at, kernel));
    printf("attributes %s regs %d local %zu\n", name, at.numRegs, at.localSizeBytes);
}

int main()
{
    test_name = "regs";
    report("light", light);
    report("heavy", heavy);
    report("framed", framed);
    double *d;
    OK(cudaMalloc(&d, 64 * 64 * sizeof(double)));
    OK(cudaMemset(d, 0, 64 * 64 * sizeof(double)));
    light<<<1, 32>>>((float *)d, 1.0f);
    heavy<<<1, 64>>>(d, 64);
    framed<<<1, 64>>>((int *)d, 3);
    OK(cudaDeviceSynchronize());
    return finish();
}

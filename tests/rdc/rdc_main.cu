/*
 * rdc_main.cu -- a program of two translation units built with nvcc
 * -rdc=true: its kernels call device functions the other unit defines, read
 * its variables (one set by the host through cudaMemcpyToSymbol), call
 * through its table of function pointers (which names functions of both
 * units) and through the vtable of a class it defines; each unit has a
 * private helper of the same name and a printf string of its own.
 * Prints "PASS rdc" when every thread's result matches the host's.
 */
#include "rdc.h"

static __device__ __noinline__ int helper(int x) { return x - 1; }

__device__ int rdc_main_fn(int x) { return 7 * x; }

__global__ void rdc_main_kernel(int *out)
{
    __shared__ long long storage[4];
    int i = threadIdx.x;
    if (i == 0)
        rdc_make_square(storage);
    __syncthreads();
    const rdc_shape *s = reinterpret_cast<const rdc_shape *>(storage);
    out[i] = rdc_table[i % 3](i) + helper(i) + rdc_lib_fn(i) + rdc_counter + s->area(i);
    if (i == 0)
        printf("main: %d\n", out[0]);
}

int main()
{
    int *d, h[32], scale = 3, bad = 0;
    cudaMalloc(&d, sizeof h);
    cudaMemcpyToSymbol(rdc_scale, &scale, sizeof scale);
    rdc_main_kernel<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++) {
        int lib = (i * 3 + 1) * scale;
        int t = i % 3 == 0 ? 7 * i : i % 3 == 1 ? lib : 2 * i;
        bad += h[i] != t + (i - 1) + lib + 42 + i * i;
    }
    rdc_lib_kernel<<<1, 32>>>(d);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        bad += h[i] != (i + 1) * 2 + 2 * i;
    std::printf("%s rdc %d threads wrong (%s)\n", bad || e ? "FAIL" : "PASS", bad, cudaGetErrorString(e));
    return bad || e;
}

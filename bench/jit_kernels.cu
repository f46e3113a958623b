/*
 * jit_kernels.cu -- the kernels bench/jit.c runs under both functional
 * engines and natively: two memory-bound (vector add, SAXPY), a
 * compute-bound tiled matrix multiply, a shared-memory reduction, a 2-D
 * stencil, one level of a BFS (divergent, irregular) and a divergent loop
 * with data-dependent trip counts (Collatz steps).  The matrix multiply and
 * the BFS level are bench/kernels.cu's.
 */
#include "kernels.cu"          /* sgemm (16 x 16 tiles), triad, bfs_level */

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

/* Each block sums 2 x 256 integers into out[blockIdx.x] (integers: the
 * native version's order of additions gives the same sums). */
extern "C" __global__ void reduce(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 512 + t;
    int v = (i < n ? in[i] : 0) + (i + 256 < n ? in[i + 256] : 0);
    s[t] = v;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

/* One Jacobi step of the 5-point stencil on an n x n grid (edges copied). */
extern "C" __global__ void stencil(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n)
        return;
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
        out[i] = in[i];
    else
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
}

/* Steps of the Collatz sequence from i + 1: neighbouring lanes loop for
 * very different counts. */
extern "C" __global__ void collatz(int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = (unsigned long long)i + 1;
    int s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        s++;
    }
    steps[i] = s;
}

/*
 * kernels.cu -- the three kernels the engine benchmark runs, compiled to
 * PTX by nvcc: compute-bound (shared-memory SGEMM), memory-bound (a
 * streaming triad) and divergent (one level of a BFS over an irregular
 * graph).  bench/engine.c runs them in ptxsim and the same algorithms
 * natively on the host.
 */
#define TILE 16

extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

extern "C" __global__ void triad(const float *a, const float *b, float *c, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + s * b[i];
}

extern "C" __global__ void bfs_level(const int *offsets, const int *edges, int *level, int depth, int n,
                                     int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != depth)
        return;
    for (int e = offsets[v]; e < offsets[v + 1]; e++) {
        int u = edges[e];
        if (level[u] < 0) {
            level[u] = depth + 1;
            *changed = 1;
        }
    }
}

/*
 * matmul_shared -- C = A * B with square tiles staged in shared memory and
 * __syncthreads() between the loads and the products.  Matrix sizes are
 * not multiples of the tile, so edge tiles are partly padded with zeros.
 * Checked against a double-precision host product, relative tolerance 1e-4
 * (the device sums in float, in a different order).
 */
#include "sample.h"

#define TILE 16

__global__ void matmul_shared(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < M && ak < K ? A[row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = bk < K && col < N ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "matmul_shared");
    int M = 37, N = 29, K = 41;
    if (size == SIZE_SMALL)
        M = 200, N = 190, K = 210;
    else if (size == SIZE_STANDARD)
        M = 1000, N = 1000, K = 1000;
    float *A = (float *)std::malloc(sizeof(float) * M * K);
    float *B = (float *)std::malloc(sizeof(float) * K * N);
    float *C = (float *)std::malloc(sizeof(float) * M * N);
    lcg rng(7);
    for (int i = 0; i < M * K; i++)
        A[i] = rng.uniform(-1.0f, 1.0f);
    for (int i = 0; i < K * N; i++)
        B[i] = rng.uniform(-1.0f, 1.0f);
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, sizeof(float) * M * K));
    CHECK(cudaMalloc(&dB, sizeof(float) * K * N));
    CHECK(cudaMalloc(&dC, sizeof(float) * M * N));
    CHECK(cudaMemcpy(dA, A, sizeof(float) * M * K, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, sizeof(float) * K * N, cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_shared<<<grid, block>>>(dA, dB, dC, M, N, K);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(C, dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    double max_rel = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = 0;
            for (int k = 0; k < K; k++)
                want += (double)A[i * K + k] * B[k * N + j];
            double rel = std::fabs(C[i * N + j] - want) / (std::fabs(want) > 1.0 ? std::fabs(want) : 1.0);
            if (!(rel <= max_rel))
                max_rel = rel;
        }
    bool ok = max_rel <= 1e-4;
    char detail[160];
    std::snprintf(detail, sizeof detail, "size=%s M=%d N=%d K=%d max_rel_err=%.3g (tolerance 1e-4)", size_name(size),
                  M, N, K, max_rel);
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    std::free(A);
    std::free(B);
    std::free(C);
    return report(ok, detail);
}

/*
 * lud -- in-place LU factorisation (Doolittle, no pivoting) of an n x n
 * matrix, blocked in 16x16 tiles.
 *
 * For each diagonal tile k, three kernels:
 *   diagonal:  one block factors tile (k,k) in shared memory, row by row;
 *   perimeter: each block takes one tile to the right of it (solving
 *              L_kk U = A for the U row strip) and one below it (solving
 *              L U_kk = A for the L column strip), both in shared memory;
 *   internal:  each block updates one trailing tile, A -= L_ik U_kj, from
 *              the two strips staged in shared memory.
 * The last diagonal tile is factored on its own at the end.
 *
 * The matrix is strictly diagonally dominant, so no pivoting is needed.
 * Checked against the same factorisation done unblocked on the host in
 * double: the largest error in each of L and U relative to that factor's
 * largest magnitude, tolerance 1e-5.
 */
#include "sample.h"

#include <vector>

#define BS 16

__global__ void lud_diagonal(float *a, int n, int k)
{
    __shared__ float t[BS][BS];
    int r = threadIdx.x, off = k * BS;
    for (int c = 0; c < BS; c++)
        t[r][c] = a[(off + r) * n + off + c];
    __syncthreads();
    for (int i = 0; i < BS - 1; i++) {
        /* Row i is final; each thread below it eliminates its own row. */
        if (r > i) {
            float l = t[r][i] / t[i][i];
            t[r][i] = l;
            for (int c = i + 1; c < BS; c++)
                t[r][c] -= l * t[i][c];
        }
        __syncthreads();
    }
    for (int c = 0; c < BS; c++)
        a[(off + r) * n + off + c] = t[r][c];
}

__global__ void lud_perimeter(float *a, int n, int k)
{
    __shared__ float diag[BS][BS], row[BS][BS], col[BS][BS];
    int t = threadIdx.x, off = k * BS, other = (k + 1 + blockIdx.x) * BS;
    /* Threads 0..15 load one row each of the three tiles, 16..31 help. */
    for (int i = t; i < BS * BS; i += 2 * BS) {
        int r = i / BS, c = i % BS;
        diag[r][c] = a[(off + r) * n + off + c];
        row[r][c] = a[(off + r) * n + other + c];
        col[r][c] = a[(other + r) * n + off + c];
    }
    __syncthreads();
    if (t < BS) {
        /* Column t of the U strip: forward substitution with unit L_kk. */
        for (int i = 1; i < BS; i++) {
            float s = row[i][t];
            for (int m = 0; m < i; m++)
                s -= diag[i][m] * row[m][t];
            row[i][t] = s;
        }
    } else {
        /* Row t-16 of the L strip: solve against U_kk from the left. */
        int r = t - BS;
        for (int j = 0; j < BS; j++) {
            float s = col[r][j];
            for (int m = 0; m < j; m++)
                s -= col[r][m] * diag[m][j];
            col[r][j] = s / diag[j][j];
        }
    }
    __syncthreads();
    for (int i = t; i < BS * BS; i += 2 * BS) {
        int r = i / BS, c = i % BS;
        a[(off + r) * n + other + c] = row[r][c];
        a[(other + r) * n + off + c] = col[r][c];
    }
}

__global__ void lud_internal(float *a, int n, int k)
{
    __shared__ float l[BS][BS], u[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y, off = k * BS;
    int gr = (k + 1 + blockIdx.y) * BS + ty, gc = (k + 1 + blockIdx.x) * BS + tx;
    l[ty][tx] = a[gr * n + off + tx];
    u[ty][tx] = a[(off + ty) * n + gc];
    __syncthreads();
    float s = 0.0f;
    for (int m = 0; m < BS; m++)
        s += l[ty][m] * u[m][tx];
    a[gr * n + gc] -= s;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "lud");
    int n = size == SIZE_TINY ? 64 : size == SIZE_SMALL ? 512 : 2048;
    int nb = n / BS;

    lcg rng(71);
    std::vector<float> a(n * n);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a[i * n + j] = rng.uniform(-1.0f, 1.0f);
        a[i * n + i] += (float)n * 0.5f + 1.0f;
    }
    float *d_a;
    CHECK(cudaMalloc(&d_a, sizeof(float) * n * n));
    CHECK(cudaMemcpy(d_a, a.data(), sizeof(float) * n * n, cudaMemcpyHostToDevice));
    int launches = 0;
    for (int k = 0; k < nb - 1; k++) {
        int rest = nb - 1 - k;
        lud_diagonal<<<1, BS>>>(d_a, n, k);
        CHECK(cudaGetLastError());
        lud_perimeter<<<rest, 2 * BS>>>(d_a, n, k);
        CHECK(cudaGetLastError());
        lud_internal<<<dim3(rest, rest), dim3(BS, BS)>>>(d_a, n, k);
        CHECK(cudaGetLastError());
        launches += 3;
    }
    lud_diagonal<<<1, BS>>>(d_a, n, nb - 1);
    CHECK(cudaGetLastError());
    launches++;
    std::vector<float> got(n * n);
    CHECK(cudaMemcpy(got.data(), d_a, sizeof(float) * n * n, cudaMemcpyDeviceToHost));

    /* Reference: unblocked Doolittle in double (same L and U, up to rounding). */
    std::vector<double> r(a.begin(), a.end());
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double l = r[j * n + i] / r[i * n + i];
            r[j * n + i] = l;
            for (int c = i + 1; c < n; c++)
                r[j * n + c] -= l * r[i * n + c];
        }
    /* L's entries are far smaller than U's, so each factor is judged on its own scale. */
    double err[2] = {0, 0}, scale[2] = {0, 0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int part = j < i; /* 1: strictly lower, L */
            double e = std::fabs(got[i * n + j] - r[i * n + j]);
            if (!(e <= err[part]))
                err[part] = e;
            if (std::fabs(r[i * n + j]) > scale[part])
                scale[part] = std::fabs(r[i * n + j]);
        }
    double rel = err[0] / scale[0];
    if (!(err[1] / scale[1] <= rel))
        rel = err[1] / scale[1];
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s n=%d launches=%d max_rel_err=%.3g (tolerance 1e-5)",
                  size_name(size), n, launches, rel);
    CHECK(cudaFree(d_a));
    return report(rel <= 1e-5, detail);
}

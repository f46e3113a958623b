/*
 * gaussian -- solves A x = b by Gaussian elimination without pivoting,
 * column by column, with two small launches per column: the first forms
 * the multipliers of the rows below the pivot, the second subtracts the
 * scaled pivot row from them (and from b).  An n x n system is 2(n-1)
 * launches; the host finishes with back substitution.
 *
 * The matrix is strictly diagonally dominant, so no pivoting is needed and
 * the float elimination is stable.  Checked against the same elimination
 * in double on the host: the reduced matrix and the solution, each as its
 * largest error relative to its largest magnitude, tolerance 1e-5.
 */
#include "sample.h"

#include <vector>

__global__ void multipliers(const float *a, float *m, int n, int t)
{
    int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        m[i] = a[i * n + t] / a[t * n + t];
}

__global__ void eliminate(float *a, float *b, const float *m, int n, int t)
{
    int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    int j = t + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || j >= n)
        return;
    if (j == t) {
        a[i * n + t] = 0.0f; /* eliminated exactly, not left as rounding noise */
        b[i] -= m[i] * b[t];
    } else {
        a[i * n + j] -= m[i] * a[t * n + j];
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "gaussian");
    int n = size == SIZE_TINY ? 48 : size == SIZE_SMALL ? 256 : 1024;

    lcg rng(9);
    std::vector<float> a(n * n), b(n);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a[i * n + j] = rng.uniform(-1.0f, 1.0f);
        a[i * n + i] += (float)n;
        b[i] = rng.uniform(-10.0f, 10.0f);
    }

    float *d_a, *d_b, *d_m;
    CHECK(cudaMalloc(&d_a, sizeof(float) * n * n));
    CHECK(cudaMalloc(&d_b, sizeof(float) * n));
    CHECK(cudaMalloc(&d_m, sizeof(float) * n));
    CHECK(cudaMemcpy(d_a, a.data(), sizeof(float) * n * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
    int launches = 0;
    for (int t = 0; t < n - 1; t++) {
        int rows = n - 1 - t;
        multipliers<<<(rows + 127) / 128, 128>>>(d_a, d_m, n, t);
        CHECK(cudaGetLastError());
        dim3 block(16, 16), grid((n - t + 15) / 16, (rows + 15) / 16);
        eliminate<<<grid, block>>>(d_a, d_b, d_m, n, t);
        CHECK(cudaGetLastError());
        launches += 2;
    }
    std::vector<float> u(n * n), c(n), x(n);
    CHECK(cudaMemcpy(u.data(), d_a, sizeof(float) * n * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(c.data(), d_b, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int i = n - 1; i >= 0; i--) {
        float s = c[i];
        for (int j = i + 1; j < n; j++)
            s -= u[i * n + j] * x[j];
        x[i] = s / u[i * n + i];
    }

    /* Reference: the same elimination and back substitution in double. */
    std::vector<double> ra(a.begin(), a.end()), rb(b.begin(), b.end()), rx(n);
    for (int t = 0; t < n - 1; t++)
        for (int i = t + 1; i < n; i++) {
            double mi = ra[i * n + t] / ra[t * n + t];
            for (int j = t; j < n; j++)
                ra[i * n + j] -= mi * ra[t * n + j];
            ra[i * n + t] = 0;
            rb[i] -= mi * rb[t];
        }
    for (int i = n - 1; i >= 0; i--) {
        double s = rb[i];
        for (int j = i + 1; j < n; j++)
            s -= ra[i * n + j] * rx[j];
        rx[i] = s / ra[i * n + i];
    }
    double u_err = 0, u_max = 0, x_err = 0, x_max = 0;
    for (int k = 0; k < n * n; k++) {
        double e = std::fabs(u[k] - ra[k]);
        if (!(e <= u_err))
            u_err = e;
        if (std::fabs(ra[k]) > u_max)
            u_max = std::fabs(ra[k]);
    }
    for (int i = 0; i < n; i++) {
        double e = std::fabs(x[i] - rx[i]);
        if (!(e <= x_err))
            x_err = e;
        if (std::fabs(rx[i]) > x_max)
            x_max = std::fabs(rx[i]);
    }
    double u_rel = u_err / u_max, x_rel = x_err / x_max;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s n=%d launches=%d matrix_rel_err=%.3g solution_rel_err=%.3g (tolerance 1e-5)",
                  size_name(size), n, launches, u_rel, x_rel);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_m));
    return report(u_rel <= 1e-5 && x_rel <= 1e-5, detail);
}

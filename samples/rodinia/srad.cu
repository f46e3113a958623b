/*
 * srad -- speckle-reducing anisotropic diffusion of an image: diffusion
 * that smooths homogeneous regions and stops at edges, steered by the
 * local coefficient of variation compared with that of a reference region.
 *
 * Per iteration, three launches:
 *   roi_sums:  block partial sums of J and J^2 over the reference region
 *              (shared-memory reduction); the host finishes them into the
 *              region's squared coefficient of variation q0^2;
 *   coeff:     each pixel's four differences to its neighbours and its
 *              diffusion coefficient from the instantaneous q^2, clamped
 *              to [0, 1];
 *   update:    J += lambda/4 * div(c grad J), using the coefficients of the
 *              pixel itself and of its south and east neighbours.
 * Border pixels have no outer neighbour and use themselves instead, so the
 * threads on the image edges take different branches.
 *
 * Checked against the same iterations on the host in double, relative
 * tolerance 1e-4 (the device works in float and the coefficient divides by
 * small local statistics: the error grows to about 1e-5 over the 100
 * iterations of the standard size).
 */
#include "sample.h"

#include <vector>

#define SUM_BLOCK 256

__global__ void roi_sums(const float *img, int cols, int r0, int r1, int c0, int c1, float *partial)
{
    __shared__ float s1[SUM_BLOCK], s2[SUM_BLOCK];
    int t = threadIdx.x, w = c1 - c0, n = (r1 - r0) * w;
    float a = 0.0f, b = 0.0f;
    for (int k = blockIdx.x * SUM_BLOCK + t; k < n; k += gridDim.x * SUM_BLOCK) {
        float v = img[(r0 + k / w) * cols + c0 + k % w];
        a += v;
        b += v * v;
    }
    s1[t] = a;
    s2[t] = b;
    __syncthreads();
    for (int stride = SUM_BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride) {
            s1[t] += s1[t + stride];
            s2[t] += s2[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        partial[2 * blockIdx.x] = s1[0];
        partial[2 * blockIdx.x + 1] = s2[0];
    }
}

__global__ void coeff(const float *img, float *c, float *dn, float *ds, float *dw, float *de, int rows, int cols,
                      float q0sqr)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    int k = y * cols + x;
    float jc = img[k];
    float n = (y == 0 ? jc : img[k - cols]) - jc;
    float s = (y == rows - 1 ? jc : img[k + cols]) - jc;
    float w = (x == 0 ? jc : img[k - 1]) - jc;
    float e = (x == cols - 1 ? jc : img[k + 1]) - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - 0.0625f * l * l;
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cv = 1.0f / (1.0f + den);
    c[k] = cv < 0.0f ? 0.0f : cv > 1.0f ? 1.0f : cv;
    dn[k] = n;
    ds[k] = s;
    dw[k] = w;
    de[k] = e;
}

__global__ void update(float *img, const float *c, const float *dn, const float *ds, const float *dw, const float *de,
                       int rows, int cols, float lambda)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    int k = y * cols + x;
    float cc = c[k];
    float cs = y == rows - 1 ? cc : c[k + cols];
    float ce = x == cols - 1 ? cc : c[k + 1];
    float div = cc * dn[k] + cs * ds[k] + cc * dw[k] + ce * de[k];
    img[k] += 0.25f * lambda * div;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "srad");
    int rows = 64, cols = 64, iters = 4;
    if (size == SIZE_SMALL)
        rows = 256, cols = 256, iters = 20;
    else if (size == SIZE_STANDARD)
        rows = 2048, cols = 2048, iters = 100;
    const float lambda = 0.5f;
    const int r0 = rows / 8, r1 = rows / 4, c0 = cols / 8, c1 = cols / 4; /* homogeneous reference region */

    /* A few flat regions with sharp edges, under multiplicative speckle. */
    lcg rng(113);
    std::vector<float> img(rows * cols);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            float base = (x > cols / 2 && y > rows / 3) ? 1.2f : (x + y) % 40 < 6 ? 0.8f : 0.4f;
            if (y >= r0 - 2 && y < r1 + 2 && x >= c0 - 2 && x < c1 + 2)
                base = 0.4f;
            img[y * cols + x] = base * rng.uniform(0.6f, 1.4f);
        }

    size_t bytes = sizeof(float) * rows * cols;
    int sum_blocks = 8;
    float *d_img, *d_c, *d_dn, *d_ds, *d_dw, *d_de, *d_partial;
    CHECK(cudaMalloc(&d_img, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMalloc(&d_dn, bytes));
    CHECK(cudaMalloc(&d_ds, bytes));
    CHECK(cudaMalloc(&d_dw, bytes));
    CHECK(cudaMalloc(&d_de, bytes));
    CHECK(cudaMalloc(&d_partial, sizeof(float) * 2 * sum_blocks));
    CHECK(cudaMemcpy(d_img, img.data(), bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((cols + 15) / 16, (rows + 15) / 16);
    float partial[2 * 8];
    double roi_n = (double)(r1 - r0) * (c1 - c0), first_q0 = 0;
    for (int it = 0; it < iters; it++) {
        roi_sums<<<sum_blocks, SUM_BLOCK>>>(d_img, cols, r0, r1, c0, c1, d_partial);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(partial, d_partial, sizeof partial, cudaMemcpyDeviceToHost));
        double sum = 0, sum2 = 0;
        for (int b = 0; b < sum_blocks; b++) {
            sum += partial[2 * b];
            sum2 += partial[2 * b + 1];
        }
        double mean = sum / roi_n, var = sum2 / roi_n - mean * mean;
        float q0sqr = (float)(var / (mean * mean));
        if (it == 0)
            first_q0 = q0sqr;
        coeff<<<grid, block>>>(d_img, d_c, d_dn, d_ds, d_dw, d_de, rows, cols, q0sqr);
        CHECK(cudaGetLastError());
        update<<<grid, block>>>(d_img, d_c, d_dn, d_ds, d_dw, d_de, rows, cols, lambda);
        CHECK(cudaGetLastError());
    }
    std::vector<float> got(rows * cols);
    CHECK(cudaMemcpy(got.data(), d_img, bytes, cudaMemcpyDeviceToHost));

    std::vector<double> J(img.begin(), img.end()), C(rows * cols), N(rows * cols), S(rows * cols), W(rows * cols),
        E(rows * cols);
    for (int it = 0; it < iters; it++) {
        double sum = 0, sum2 = 0;
        for (int y = r0; y < r1; y++)
            for (int x = c0; x < c1; x++) {
                sum += J[y * cols + x];
                sum2 += J[y * cols + x] * J[y * cols + x];
            }
        double mean = sum / roi_n, q0sqr = (sum2 / roi_n - mean * mean) / (mean * mean);
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int k = y * cols + x;
                double jc = J[k];
                N[k] = (y == 0 ? jc : J[k - cols]) - jc;
                S[k] = (y == rows - 1 ? jc : J[k + cols]) - jc;
                W[k] = (x == 0 ? jc : J[k - 1]) - jc;
                E[k] = (x == cols - 1 ? jc : J[k + 1]) - jc;
                double g2 = (N[k] * N[k] + S[k] * S[k] + W[k] * W[k] + E[k] * E[k]) / (jc * jc);
                double l = (N[k] + S[k] + W[k] + E[k]) / jc;
                double qsqr = (0.5 * g2 - 0.0625 * l * l) / ((1 + 0.25 * l) * (1 + 0.25 * l));
                double cv = 1.0 / (1.0 + (qsqr - q0sqr) / (q0sqr * (1 + q0sqr)));
                C[k] = cv < 0 ? 0 : cv > 1 ? 1 : cv;
            }
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int k = y * cols + x;
                double cs = y == rows - 1 ? C[k] : C[k + cols], ce = x == cols - 1 ? C[k] : C[k + 1];
                J[k] += 0.25 * lambda * (C[k] * N[k] + cs * S[k] + C[k] * W[k] + ce * E[k]);
            }
    }
    double max_rel = 0;
    for (int k = 0; k < rows * cols; k++) {
        double rel = std::fabs(got[k] - J[k]) / std::fabs(J[k]);
        if (!(rel <= max_rel))
            max_rel = rel;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s image=%dx%d iterations=%d q0^2=%.4f max_rel_err=%.3g (tolerance 1e-4)", size_name(size),
                  rows, cols, iters, first_q0, max_rel);
    CHECK(cudaFree(d_img));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_dn));
    CHECK(cudaFree(d_ds));
    CHECK(cudaFree(d_dw));
    CHECK(cudaFree(d_de));
    CHECK(cudaFree(d_partial));
    return report(max_rel <= 1e-4, detail);
}

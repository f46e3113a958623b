/*
 * math_libs -- NVIDIA's CUDA math libraries run under ptxsim: cuBLAS level
 * 1 and a single-precision GEMM, a cuFFT complex transform, and cuRAND's
 * device generator, each checked against a host reference written here.
 *
 * The libraries are NVIDIA's binaries, linked against their own static
 * CUDA runtime, so they reach ptxsim through libcuda.so.1 and its export
 * tables; they carry PTX for some kernels and machine code only for others.
 * The calls below are ones whose kernels ship with PTX for the device
 * ptxsim models by default.  A call whose kernel is machine code only fails
 * with cudaErrorNoKernelImageForDevice and a message naming the library;
 * README, "CUDA libraries".
 */
#include "rt_test.h"

#include <cmath>
#include <complex>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <curand.h>

#define BLAS_OK(call) EXPECT((call) == CUBLAS_STATUS_SUCCESS)
#define FFT_OK(call) EXPECT((call) == CUFFT_SUCCESS)
#define RAND_OK(call) EXPECT((call) == CURAND_STATUS_SUCCESS)

/* Deterministic inputs in [-1, 1). */
static std::vector<float> ramp(int n, unsigned seed)
{
    std::vector<float> v(n);
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
    }
    return v;
}

static float *to_device(const std::vector<float> &v)
{
    float *d = nullptr;
    OK(cudaMalloc(&d, v.size() * sizeof(float)));
    OK(cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static std::vector<float> to_host(const float *d, size_t n)
{
    std::vector<float> v(n);
    OK(cudaMemcpy(v.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return v;
}

/* |got - want| within a relative tolerance of the size of the terms. */
static bool close_to(double got, double want, double scale, double rel)
{
    return std::fabs(got - want) <= rel * (scale > 1 ? scale : 1);
}

static void blas(void)
{
    cublasHandle_t h;
    BLAS_OK(cublasCreate(&h));
    const int n = 1000;
    std::vector<float> x = ramp(n, 1), y = ramp(n, 2);
    float *dx = to_device(x), *dy = to_device(y);

    float dot = 0;
    BLAS_OK(cublasSdot(h, n, dx, 1, dy, 1, &dot));
    double want = 0, scale = 0;
    for (int i = 0; i < n; i++) {
        want += (double)x[i] * y[i];
        scale += std::fabs((double)x[i] * y[i]);
    }
    EXPECT(close_to(dot, want, scale, 1e-5));

    const float alpha = 2.5f;
    BLAS_OK(cublasSaxpy(h, n, &alpha, dx, 1, dy, 1));
    std::vector<float> got = to_host(dy, n);
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += got[i] != std::fmaf(alpha, x[i], y[i]) && got[i] != alpha * x[i] + y[i];
    EXPECT(wrong == 0);

    int at = 0;
    BLAS_OK(cublasIsamax(h, n, dx, 1, &at));
    int want_at = 0;
    for (int i = 1; i < n; i++)
        if (std::fabs(x[i]) > std::fabs(x[want_at]))
            want_at = i;
    EXPECT(at == want_at + 1);             /* BLAS counts from 1 */

    /* C = alpha A B + beta C, column-major, m x k times k x n. */
    const int m = 48, kk = 40, nn = 36;
    std::vector<float> a = ramp(m * kk, 3), b = ramp(kk * nn, 4), c = ramp(m * nn, 5);
    float *da = to_device(a), *db = to_device(b), *dc = to_device(c);
    const float beta = -0.5f;
    BLAS_OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, nn, kk, &alpha, da, m, db, kk, &beta, dc, m));
    got = to_host(dc, (size_t)m * nn);
    wrong = 0;
    for (int j = 0; j < nn; j++)
        for (int i = 0; i < m; i++) {
            double s = 0, sc = 0;
            for (int p = 0; p < kk; p++) {
                s += (double)a[i + p * m] * b[p + j * kk];
                sc += std::fabs((double)a[i + p * m] * b[p + j * kk]);
            }
            double w = alpha * s + beta * c[i + j * m];
            wrong += !close_to(got[i + j * m], w, alpha * sc + std::fabs(beta * c[i + j * m]), 1e-5);
        }
    EXPECT(wrong == 0);

    OK(cudaFree(da));
    OK(cudaFree(db));
    OK(cudaFree(dc));
    OK(cudaFree(dx));
    OK(cudaFree(dy));
    BLAS_OK(cublasDestroy(h));
}

/* A forward complex transform of a length that is not a power of two (cuFFT
 * takes its mixed-radix path) against the naive DFT. */
static void fft(int n)
{
    std::vector<float> re = ramp(n, 6), im = ramp(n, 7);
    std::vector<cufftComplex> in(n), out(n);
    for (int i = 0; i < n; i++)
        in[i] = make_cuComplex(re[i], im[i]);
    cufftComplex *d = nullptr;
    OK(cudaMalloc(&d, n * sizeof(cufftComplex)));
    OK(cudaMemcpy(d, in.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle plan;
    FFT_OK(cufftPlan1d(&plan, n, CUFFT_C2C, 1));
    FFT_OK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(out.data(), d, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    int wrong = 0;
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n; k++) {
        std::complex<double> s = 0;
        for (int t = 0; t < n; t++)
            s += std::complex<double>(re[t], im[t]) *
                 std::polar(1.0, -2 * pi * (double)((long long)k * t % n) / n);
        /* Each output sums n terms of magnitude up to sqrt(2). */
        wrong += !close_to(out[k].x, s.real(), n, 1e-5) || !close_to(out[k].y, s.imag(), n, 1e-5);
    }
    if (wrong)
        std::printf("cuFFT n=%d: %d wrong outputs\n", n, wrong);
    EXPECT(wrong == 0);
    FFT_OK(cufftDestroy(plan));
    OK(cudaFree(d));
}

/* cuRAND's device generator against its host generator: the same seed gives
 * the same numbers, wherever they are made. */
static void rand_uniform(void)
{
    const size_t n = 4096;
    curandGenerator_t dev, host;
    RAND_OK(curandCreateGenerator(&dev, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    RAND_OK(curandCreateGeneratorHost(&host, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    RAND_OK(curandSetPseudoRandomGeneratorSeed(dev, 1234));
    RAND_OK(curandSetPseudoRandomGeneratorSeed(host, 1234));
    float *d = nullptr;
    OK(cudaMalloc(&d, n * sizeof(float)));
    RAND_OK(curandGenerateUniform(dev, d, n));
    std::vector<float> got = to_host(d, n), want(n);
    RAND_OK(curandGenerateUniform(host, want.data(), n));
    int wrong = 0;
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        wrong += got[i] != want[i] || !(got[i] > 0.0f && got[i] <= 1.0f);
        mean += got[i];
    }
    EXPECT(wrong == 0);
    EXPECT(std::fabs(mean / n - 0.5) < 0.02);
    RAND_OK(curandDestroyGenerator(dev));
    RAND_OK(curandDestroyGenerator(host));
    OK(cudaFree(d));
}

int main(int argc, char **argv)
{
    test_name = "math_libs";
    (void)argc;
    (void)argv;
    blas();
    fft(97);
    fft(1000);
    rand_uniform();
    return finish();
}

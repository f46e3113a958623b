/*
 * half_precision -- __half, __half2, __nv_bfloat16 and __nv_bfloat162
 * arithmetic, comparisons and conversions in a kernel, each result checked
 * bit for bit against the same cuda_fp16.h / cuda_bf16.h functions run on
 * the host (which compute through float and round correctly).  The device
 * fma has no host version: its reference is a * b + c in double, exact
 * because every random input is zero or at least 1/16 in magnitude (the sum
 * then spans under 53 bits), rounded once by __double2half.
 *
 * The first rows are edge cases: overflow to infinity and .sat, a NaN, ties
 * to even, subnormal results, signed zeros, and .relu of a negative fma.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <vector>

#include "sample.h"

enum {
    /* __half */
    H_ADD, H_SUB, H_MUL, H_FMA, H_ADD_SAT, H_FMA_RELU, H_NEG, H_ABS, H_MIN, H_MAX_NAN,
    H_LT, H_GEU, H_FROM_F32_RN, H_FROM_F32_RZ, H_TO_F32,
    /* __half2 */
    H2_ADD, H2_MUL, H2_FMA, H2_LT, H2_ALL_GT, H2_FROM_F32, H2_MAX,
    /* __nv_bfloat16 and __nv_bfloat162 */
    B_ADD, B_MUL, B_FMA, B_FMA_RELU, B_MAX, B_LT, B_FROM_F32, B_TO_F32,
    B2_FMA, B2_ADD, B2_FROM_F32,
    NRESULTS
};

static const char *const result_names[NRESULTS] = {
    "__hadd", "__hsub", "__hmul", "__hfma", "__hadd_sat", "__hfma_relu", "__hneg", "__habs",
    "__hmin", "__hmax_nan", "__hlt", "__hgeu", "__float2half_rn", "__float2half_rz", "__half2float",
    "__hadd2", "__hmul2", "__hfma2", "__hlt2", "__hbgt2", "__floats2half2_rn", "__hmax2",
    "__hadd(bf16)", "__hmul(bf16)", "__hfma(bf16)", "__hfma_relu(bf16)", "__hmax(bf16)",
    "__hlt(bf16)", "__float2bfloat16", "__bfloat162float", "__hfma2(bf16)", "__hadd2(bf16)",
    "__floats2bfloat162_rn",
};

static __host__ __device__ unsigned bits(__half h) { return __half_as_ushort(h); }
static __host__ __device__ unsigned bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
static __host__ __device__ unsigned bits(__half2 h) { return bits(__low2half(h)) | bits(__high2half(h)) << 16; }
static __host__ __device__ unsigned bits(__nv_bfloat162 h)
{
    return bits(__low2bfloat16(h)) | bits(__high2bfloat16(h)) << 16;
}
static __host__ __device__ unsigned bits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The fma forms have no host version: there (and for bf16 before sm_80)
 * the exact double value a * b + c, rounded once (see the top). */
static __host__ __device__ __half fma_h(__half a, __half b, __half c)
{
#ifdef __CUDA_ARCH__
    return __hfma(a, b, c);
#else
    return __double2half((double)__half2float(a) * __half2float(b) + __half2float(c));
#endif
}

static __host__ __device__ __nv_bfloat16 fma_b(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __hfma(a, b, c);
#else
    return __double2bfloat16((double)__bfloat162float(a) * __bfloat162float(b) + __bfloat162float(c));
#endif
}

/* .relu: a negative result (or -0) becomes +0, a NaN stays the canonical
 * NaN.  Not __hmax_nan(r, 0): its emulation before sm_80 keeps -0. */
template <typename T> static __host__ __device__ T relu(T h)
{
    return (bits(h) & 0x8000u) && !__hisnan(h) ? T(0.0f) : h;
}

static __host__ __device__ __half fma_relu_h(__half a, __half b, __half c)
{
#ifdef __CUDA_ARCH__
    return __hfma_relu(a, b, c);
#else
    return relu(fma_h(a, b, c));
#endif
}

static __host__ __device__ __nv_bfloat16 fma_relu_b(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __hfma_relu(a, b, c);
#else
    return relu(fma_b(a, b, c));
#endif
}

static __host__ __device__ __half2 fma2_h(__half2 a, __half2 b, __half2 c)
{
#ifdef __CUDA_ARCH__
    return __hfma2(a, b, c);
#else
    return __halves2half2(fma_h(__low2half(a), __low2half(b), __low2half(c)),
                          fma_h(__high2half(a), __high2half(b), __high2half(c)));
#endif
}

static __host__ __device__ __nv_bfloat162 fma2_b(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __hfma2(a, b, c);
#else
    return __halves2bfloat162(fma_b(__low2bfloat16(a), __low2bfloat16(b), __low2bfloat16(c)),
                              fma_b(__high2bfloat16(a), __high2bfloat16(b), __high2bfloat16(c)));
#endif
}

/* Every result for one row, on the device (the kernel) and on the host
 * (the reference): the same functions on both sides. */
static __host__ __device__ void results(__half a, __half b, __half c, __nv_bfloat16 x, __nv_bfloat16 y,
                                        __nv_bfloat16 z, float f, float g, unsigned *r)
{
    __half2 p = __halves2half2(a, b), q = __halves2half2(c, a), s = __halves2half2(b, c);
    r[H_ADD] = bits(__hadd(a, b));
    r[H_SUB] = bits(__hsub(a, b));
    r[H_MUL] = bits(__hmul(a, b));
    r[H_FMA] = bits(fma_h(a, b, c));
    r[H_ADD_SAT] = bits(__hadd_sat(a, b));
    r[H_FMA_RELU] = bits(fma_relu_h(a, b, c));
    r[H_NEG] = bits(__hneg(a));
    r[H_ABS] = bits(__habs(a));
    r[H_MIN] = bits(__hmin(a, b));
    r[H_MAX_NAN] = bits(__hmax_nan(a, b));
    r[H_LT] = __hlt(a, b);
    r[H_GEU] = __hgeu(a, b);
    r[H_FROM_F32_RN] = bits(__float2half_rn(f));
    r[H_FROM_F32_RZ] = bits(__float2half_rz(f));
    r[H_TO_F32] = bits(__half2float(a));
    r[H2_ADD] = bits(__hadd2(p, q));
    r[H2_MUL] = bits(__hmul2(p, q));
    r[H2_FMA] = bits(fma2_h(p, q, s));
    r[H2_LT] = bits(__hlt2(p, q));
    r[H2_ALL_GT] = __hbgt2(p, q);
    r[H2_FROM_F32] = bits(__floats2half2_rn(f, g));
    r[H2_MAX] = bits(__hmax2(p, q));
    __nv_bfloat162 u = __halves2bfloat162(x, y), v = __halves2bfloat162(z, x), w = __halves2bfloat162(y, z);
    r[B_ADD] = bits(__hadd(x, y));
    r[B_MUL] = bits(__hmul(x, y));
    r[B_FMA] = bits(fma_b(x, y, z));
    r[B_FMA_RELU] = bits(fma_relu_b(x, y, z));
    r[B_MAX] = bits(__hmax(x, y));
    r[B_LT] = __hlt(x, y);
    r[B_FROM_F32] = bits(__float2bfloat16(f));
    r[B_TO_F32] = bits(__bfloat162float(x));
    r[B2_FMA] = bits(fma2_b(u, v, w));
    r[B2_ADD] = bits(__hadd2(u, v));
    r[B2_FROM_F32] = bits(__floats2bfloat162_rn(f, g));
}

__global__ void half_ops(const __half *ha, const __half *hb, const __half *hc, const __nv_bfloat16 *ba,
                         const __nv_bfloat16 *bb, const __nv_bfloat16 *bc, const float *fa, const float *fb,
                         unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        results(ha[i], hb[i], hc[i], ba[i], bb[i], bc[i], fa[i], fb[i], out + (size_t)i * NRESULTS);
}

/* Shuffles of halves (cuda_fp16.hpp's and cuda_bf16.hpp's __shfl*_sync,
 * whose PTX moves the ISA's WARP_SZ constant into a register): each lane
 * takes lane (l + 5) % 32's __half, l ^ 6's __half2, l - 3's
 * __nv_bfloat16 and l + 7's __nv_bfloat162 (or keeps its own past the
 * warp's end), the values the lane's index in bits. */
__global__ void half_shuffles(unsigned *out)
{
    unsigned l = threadIdx.x;
    __half h = __ushort_as_half((unsigned short)(0x3C00 + l));
    __half2 h2 = __halves2half2(__ushort_as_half((unsigned short)(0x4000 + l)),
                                __ushort_as_half((unsigned short)(0x4400 + l)));
    __nv_bfloat16 b = __ushort_as_bfloat16((unsigned short)(0x3F80 + l));
    __nv_bfloat162 b2 = __halves2bfloat162(__ushort_as_bfloat16((unsigned short)(0x4000 + l)),
                                           __ushort_as_bfloat16((unsigned short)(0x4080 + l)));
    __half sh = __shfl_sync(0xFFFFFFFFu, h, (int)(l + 5) % 32);
    __half2 sh2 = __shfl_xor_sync(0xFFFFFFFFu, h2, 6);
    __nv_bfloat16 sb = __shfl_up_sync(0xFFFFFFFFu, b, 3);
    __nv_bfloat162 sb2 = __shfl_down_sync(0xFFFFFFFFu, b2, 7);
    out[4 * l + 0] = __half_as_ushort(sh);
    out[4 * l + 1] = __half_as_ushort(__low2half(sh2)) | (unsigned)__half_as_ushort(__high2half(sh2)) << 16;
    out[4 * l + 2] = __bfloat16_as_ushort(sb);
    out[4 * l + 3] = __bfloat16_as_ushort(__low2bfloat16(sb2)) |
                     (unsigned)__bfloat16_as_ushort(__high2bfloat16(sb2)) << 16;
}

static long check_shuffles(void)
{
    unsigned *d, got[128];
    CHECK(cudaMalloc(&d, sizeof got));
    half_shuffles<<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    long wrong = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned a = (l + 5) % 32, x = l ^ 6, up = l >= 3 ? l - 3 : l, dn = l + 7 < 32 ? l + 7 : l;
        unsigned want[4] = { 0x3C00 + a, (0x4000 + x) | (0x4400 + x) << 16, 0x3F80 + up,
                             (0x4000 + dn) | (0x4080 + dn) << 16 };
        for (int k = 0; k < 4; k++)
            wrong += got[4 * l + k] != want[k];
    }
    return wrong;
}

/* A copy of v in device memory. */
template <typename T> static T *to_device(const std::vector<T> &v)
{
    T *d;
    CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

/* A random input: zero, or at least 1/16 in magnitude (see the top). */
static float operand(lcg &rng)
{
    float f = rng.uniform(-8.0f, 8.0f);
    return std::fabs(f) < 0.0625f ? 0.0f : f;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "half_precision");
    int n = size == SIZE_TINY ? 1000 : size == SIZE_SMALL ? 100003 : 1000003;
    std::vector<__half> ha(n), hb(n), hc(n);
    std::vector<__nv_bfloat16> ba(n), bb(n), bc(n);
    std::vector<float> fa(n), fb(n);
    lcg rng(7);
    for (int i = 0; i < n; i++) {
        float a = operand(rng), b = operand(rng), c = operand(rng);
        ha[i] = __float2half_rn(a);
        hb[i] = __float2half_rn(b);
        hc[i] = __float2half_rn(c);
        ba[i] = __float2bfloat16_rn(b);
        bb[i] = __float2bfloat16_rn(c);
        bc[i] = __float2bfloat16_rn(a);
        fa[i] = rng.uniform(-1000.0f, 1000.0f);
        fb[i] = rng.uniform(-1.0f, 1.0f);
    }
    /* Edge rows: {a, b, c} as f16 bits, the same as bf16 bits, and two floats. */
    static const unsigned short edge_h[][3] = {
        { 0x7BFF, 0x7BFF, 0x0000 },     /* 65504 + 65504: infinity; .sat gives 1 */
        { 0x7FFF, 0x3C00, 0x4000 },     /* NaN operand */
        { 0x3C00, 0x1000, 0xBC00 },     /* 1 + 2^-11: a tie, to even (1) */
        { 0x3C01, 0x1000, 0x0000 },     /* (1 + 2^-10) + 2^-11: a tie, to even (1 + 2^-9) */
        { 0x0010, 0x0008, 0x0000 },     /* subnormal sum kept, product underflows to 0 */
        { 0x8000, 0x0000, 0x8000 },     /* signed zeros */
        { 0xC000, 0x4200, 0x3C00 },     /* -2 * 3 + 1 < 0: .relu gives +0 */
    };
    static const unsigned short edge_b[][3] = {
        { 0x7F7F, 0x7F7F, 0x0000 }, { 0x7FFF, 0x3F80, 0x4000 }, { 0x3F80, 0x3B80, 0xBF80 },
        { 0x3F81, 0x3B80, 0x0000 }, { 0x0010, 0x0008, 0x0000 }, { 0x8000, 0x0000, 0x8000 },
        { 0xC000, 0x4040, 0x3F80 },
    };
    static const float edge_f[][2] = {
        { 65520.0f, -65520.0f }, { NAN, 1.0f }, { 1.00048828125f, -1.00048828125f }, { 1e-8f, -3e-38f },
        { -0.0f, 0.0f }, { 3.0e38f, -1.0f }, { 0.1f, 0.2f },
    };
    int nedge = (int)(sizeof edge_h / sizeof edge_h[0]);
    for (int i = 0; i < nedge && i < n; i++) {
        ha[i] = __ushort_as_half(edge_h[i][0]);
        hb[i] = __ushort_as_half(edge_h[i][1]);
        hc[i] = __ushort_as_half(edge_h[i][2]);
        ba[i] = __ushort_as_bfloat16(edge_b[i][0]);
        bb[i] = __ushort_as_bfloat16(edge_b[i][1]);
        bc[i] = __ushort_as_bfloat16(edge_b[i][2]);
        fa[i] = edge_f[i][0];
        fb[i] = edge_f[i][1];
    }

    __half *dha = to_device(ha), *dhb = to_device(hb), *dhc = to_device(hc);
    __nv_bfloat16 *dba = to_device(ba), *dbb = to_device(bb), *dbc = to_device(bc);
    float *dfa = to_device(fa), *dfb = to_device(fb);
    size_t obytes = (size_t)n * NRESULTS * sizeof(unsigned);
    unsigned *dout;
    CHECK(cudaMalloc(&dout, obytes));
    CHECK(cudaMemset(dout, 0xFF, obytes));
    int block = 128, grid = (n + block - 1) / block;
    half_ops<<<grid, block>>>(dha, dhb, dhc, dba, dbb, dbc, dfa, dfb, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> out((size_t)n * NRESULTS);
    CHECK(cudaMemcpy(out.data(), dout, obytes, cudaMemcpyDeviceToHost));

    long wrong = 0;
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s n=%d results=%d", size_name(size), n, NRESULTS);
    for (int i = 0; i < n; i++) {
        unsigned want[NRESULTS];
        results(ha[i], hb[i], hc[i], ba[i], bb[i], bc[i], fa[i], fb[i], want);
        for (int k = 0; k < NRESULTS; k++) {
            unsigned got = out[(size_t)i * NRESULTS + k];
            if (got != want[k] && wrong++ == 0)
                std::snprintf(detail, sizeof detail, "size=%s n=%d first mismatch: %s at %d: 0x%x != 0x%x",
                              size_name(size), n, result_names[k], i, got, want[k]);
        }
    }
    long shuffles_wrong = check_shuffles();
    if (shuffles_wrong && wrong++ == 0)
        std::snprintf(detail, sizeof detail, "size=%s n=%d: %ld shuffled halves wrong", size_name(size), n,
                      shuffles_wrong);
    if (wrong)
        std::snprintf(detail + std::strlen(detail), sizeof detail - std::strlen(detail), " (%ld mismatches)", wrong);
    else
        std::snprintf(detail + std::strlen(detail), sizeof detail - std::strlen(detail),
                      " mismatches=0 (tolerance: exact)");
    void *bufs[] = { dha, dhb, dhc, dba, dbb, dbc, dfa, dfb, dout };
    for (void *p : bufs)
        CHECK(cudaFree(p));
    return report(wrong == 0, detail);
}

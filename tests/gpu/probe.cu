// probe.cu -- ask a GPU what the PTX ISA leaves open, and print the answers
// as plain "what input: output" lines, so that a run on a real GPU and a run
// under ptxsim can be compared with diff (tests/gpu/run runs it on the GPU;
// `ptxsim run -- probe` here).  Each question is one where the conformance
// generator found the hardware and the references apart and the data it
// printed did not settle the rule:
//
//   tex     the weight linear filtering gives a fraction (a 2-texel
//           texture of 0 and 1 sampled across the gap): how many bits, and
//           rounded or cut
//   tex2    the same in two dimensions: the weight of each corner of a
//           2x2 texture (one texel 1, the others 0) at fractions i/32, j/32
//   tf32    cvt.rna{.satfinite}.tf32.f32 on NaNs, infinities and ties
//   fns     fns.b32 with offsets at and past the ends of the int range
//   st      st.f32 from a .b64 register: which 32 bits are stored, or
//           what conversion
//   ftz     results that round up to the smallest normal under .ftz in
//           the instructions the generator did not reach: rcp, cvt.f32.f64
//   blend   how linear filtering combines texel values with those weights
//           (random texels, fractions at exact 256ths): the order and
//           precision of the weighted sum
//   fmad    which plain mul feeding an add or sub ptxas contracts into one
//           fused multiply-add (--fmad=true, its default): a product read
//           twice, through a neg, across a branch, beside .ftz or .rn, ...
//           Each pattern is inline PTX over inputs where the fused and the
//           separately rounded results differ (c is about -a*b)
//   sat     the sign of a zero that .sat gives: a negative product too
//           small for the format (rounded to -0), and -0 itself
//   approx64  rsqrt.approx.ftz.f64 and rcp.approx.ftz.f64 (the ISA gives
//           their error, not their bits), and hypot(2, DBL_MAX), whose
//           library code seeds a Newton step with rsqrt.approx.ftz.f64
//   hsign   abs and neg on f16 and bf16 NaNs: payload kept or canonical
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            std::printf("error %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));             \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

// ---- tex -------------------------------------------------------------------------

__global__ void tex_weights(cudaTextureObject_t t, float base, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<float>(t, base + 0.5f + (float)i / (float)n);
}

__global__ void tex_weights2(cudaTextureObject_t t, int n, float *out)
{
    int i = threadIdx.x, j = blockIdx.x;
    if (i <= n && j <= n)
        out[j * (n + 1) + i] = tex2D<float>(t, 0.5f + (float)i / (float)n, 0.5f + (float)j / (float)n);
}

// ---- the instruction probes: one thread per input -------------------------------

__global__ void tf32_rna(const uint32_t *in, uint32_t *out, uint32_t *out_sat, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t r, s;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(__uint_as_float(in[i])));
    asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(s) : "f"(__uint_as_float(in[i])));
    out[i] = r;
    out_sat[i] = s;
}

__global__ void fns(const uint32_t *mask, const uint32_t *base, const int32_t *off, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t r;
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(mask[i]), "r"(base[i]), "r"(off[i]));
    out[i] = r;
}

__global__ void st_f32_b64(const uint64_t *in, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    asm volatile("st.global.f32 [%0], %1;" ::"l"(out + i), "l"(in[i]) : "memory");
}

__global__ void ftz_probe(const uint32_t *f, const uint64_t *dbl, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t r0, r1, r2, r3, r4;
    float x = __uint_as_float(f[i]);
    double y = __longlong_as_double((long long)dbl[i]);
    asm("rcp.rn.ftz.f32 %0, %1;" : "=r"(r0) : "f"(x));
    asm("rcp.approx.ftz.f32 %0, %1;" : "=r"(r1) : "f"(x));
    asm("cvt.rn.ftz.f32.f64 %0, %1;" : "=r"(r2) : "d"(y));
    asm("cvt.rp.ftz.f32.f64 %0, %1;" : "=r"(r3) : "d"(y));
    asm("cvt.rn.f32.f64 %0, %1;" : "=r"(r4) : "d"(y));
    out[5 * i + 0] = r0;
    out[5 * i + 1] = r1;
    out[5 * i + 2] = r2;
    out[5 * i + 3] = r3;
    out[5 * i + 4] = r4;
}

// ---- sat, approx64, hsign --------------------------------------------------------

__global__ void sat_probe(uint32_t *out)
{
    uint32_t r[8];
    float tiny = 1e-30f, ntiny = -1e-30f, nz = -0.0f;
    unsigned short h;
    asm("mul.sat.f32 %0, %1, %2;" : "=r"(r[0]) : "f"(ntiny), "f"(tiny));
    asm("mul.rn.sat.f32 %0, %1, %2;" : "=r"(r[1]) : "f"(nz), "f"(tiny));
    asm("add.sat.f32 %0, %1, %1;" : "=r"(r[2]) : "f"(nz));
    asm("cvt.sat.f32.f32 %0, %1;" : "=r"(r[3]) : "f"(nz));
    asm("{ .reg .f16 a, b, d; mov.b16 a, 0x8001; mov.b16 b, 0x0001; mul.sat.f16 d, a, b; mov.b16 %0, d; }" : "=h"(h));
    r[4] = h;
    asm("{ .reg .f16 a, b, d; mov.b16 a, 0xBC00; mov.b16 b, 0x0000; mul.sat.f16 d, a, b; mov.b16 %0, d; }" : "=h"(h));
    r[5] = h;
    asm("{ .reg .f16 a, b, c, d; mov.b16 a, 0x8001; mov.b16 b, 0x0001; mov.b16 c, 0x8000;"
        " fma.rn.sat.f16 d, a, b, c; mov.b16 %0, d; }" : "=h"(h));
    r[6] = h;
    double dn = -1e-300;
    asm("cvt.rn.sat.f32.f64 %0, %1;" : "=r"(r[7]) : "d"(dn));
    for (int k = 0; k < 8; k++)
        out[k] = r[k];
}

__global__ void approx64_probe(const uint64_t *in, uint64_t *out, int n, double *hyp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        volatile double two = 2.0, big = 1.7976931348623157e308, small = -1e-310;
        hyp[0] = hypot(two, big);
        hyp[1] = hypot(big, small);
    }
    if (i >= n)
        return;
    double x = __longlong_as_double((long long)in[i]), r, q;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(q) : "d"(x));
    out[2 * i] = (uint64_t)__double_as_longlong(r);
    out[2 * i + 1] = (uint64_t)__double_as_longlong(q);
}

__global__ void hsign_probe(const uint32_t *in, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned short v = (unsigned short)in[i], a, g, ba, bg;
    asm("{ .reg .f16 x, y; mov.b16 x, %1; abs.f16 y, x; mov.b16 %0, y; }" : "=h"(a) : "h"(v));
    asm("{ .reg .f16 x, y; mov.b16 x, %1; neg.f16 y, x; mov.b16 %0, y; }" : "=h"(g) : "h"(v));
    asm("{ .reg .b16 x, y; mov.b16 x, %1; abs.bf16 y, x; mov.b16 %0, y; }" : "=h"(ba) : "h"(v));
    asm("{ .reg .b16 x, y; mov.b16 x, %1; neg.bf16 y, x; mov.b16 %0, y; }" : "=h"(bg) : "h"(v));
    out[4 * i] = a;
    out[4 * i + 1] = g;
    out[4 * i + 2] = ba;
    out[4 * i + 3] = bg;
}

// ---- fmad ------------------------------------------------------------------------

// One pattern per asm statement; a, b, g, h are factors, c and e about
// -a*b and -g*h, so the rounding of each product shows in the results.
__global__ void fmad_probe(const float *in, const double *ind, uint32_t *out, unsigned long long *outd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = in[6 * i], b = in[6 * i + 1], c = in[6 * i + 2], e = in[6 * i + 3], g = in[6 * i + 4],
          h = in[6 * i + 5];
    float r[24] = {};
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.f32 %0, p, %3; }" : "=f"(r[0]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; mul.f32 p, %2, %3; add.f32 %0, p, %4; add.f32 %1, p, %5; }"
        : "=f"(r[1]), "=f"(r[2]) : "f"(a), "f"(b), "f"(c), "f"(e));
    asm("{ .reg .f32 p, q; mul.f32 p, %1, %2; neg.f32 q, p; sub.f32 %0, q, %3; }"
        : "=f"(r[3]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; mul.f32 p, %2, %3; add.f32 %0, p, %4; mov.f32 %1, p; }"
        : "=f"(r[4]), "=f"(r[5]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p, k; .reg .pred q; mul.f32 p, %1, %2; mov.f32 k, %3; setp.gt.f32 q, %4, 0f00000000;"
        " @q bra DONE; mov.f32 k, %5; DONE: add.f32 %0, p, k; }"
        : "=f"(r[6]) : "f"(a), "f"(b), "f"(c), "f"(a), "f"(e));
    asm("{ .reg .f32 p, q; mul.f32 p, %1, %2; mul.f32 q, %3, %4; add.f32 %0, p, q; }"
        : "=f"(r[7]) : "f"(a), "f"(b), "f"(g), "f"(h));
    asm("{ .reg .f32 p, q; mul.f32 p, %1, %2; mul.f32 q, %3, %4; add.f32 %0, q, p; }"
        : "=f"(r[8]) : "f"(a), "f"(b), "f"(g), "f"(h));
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; fma.rn.f32 %0, %3, %4, p; }"
        : "=f"(r[9]) : "f"(a), "f"(b), "f"(g), "f"(h));
    asm("{ .reg .f32 p; mul.ftz.f32 p, %1, %2; add.f32 %0, p, %3; }" : "=f"(r[10]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.rn.f32 %0, p, %3; }" : "=f"(r[11]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p, q; mul.f32 p, %1, %2; mul.f32 q, p, %3; add.f32 %0, q, %4; }"
        : "=f"(r[12]) : "f"(a), "f"(b), "f"(g), "f"(e));
    asm("{ .reg .f32 p; mul.f32 p, %2, %3; sub.f32 %0, %4, p; sub.f32 %1, p, %5; }"
        : "=f"(r[13]), "=f"(r[14]) : "f"(a), "f"(b), "f"(c), "f"(e));
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.f32 %0, p, p; }" : "=f"(r[15]) : "f"(a), "f"(b));
    asm("{ .reg .f32 p; mul.f32 p, %1, 0f3F8CCCCD; add.f32 %0, p, %2; }" : "=f"(r[16]) : "f"(a), "f"(c));
    asm("{ .reg .f32 p; mul.f32 p, %2, %3; add.f32 %0, p, %4; mul.f32 %1, p, %5; }"
        : "=f"(r[17]), "=f"(r[18]) : "f"(a), "f"(b), "f"(c), "f"(g));
    asm("{ .reg .f32 p; mul.f32 p, %2, %3; add.f32 %0, p, %4; fma.rn.f32 %1, %5, %6, p; }"
        : "=f"(r[19]), "=f"(r[20]) : "f"(a), "f"(b), "f"(c), "f"(g), "f"(h));
    asm("{ .reg .f32 p; .reg .pred q; mov.f32 %0, %3; setp.gt.f32 q, %1, 0f00000000; mul.f32 p, %1, %2;"
        " @q add.f32 %0, p, %3; }"
        : "=f"(r[21]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; .reg .u32 k; .reg .pred q; mov.f32 %0, %3; mov.u32 k, 0; mul.f32 p, %1, %2;"
        " LOOP: add.f32 %0, p, %0; add.u32 k, k, 1; setp.lt.u32 q, k, 3; @q bra LOOP; }"
        : "+f"(r[22]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.sat.f32 %0, p, %3; }" : "=f"(r[23]) : "f"(a), "f"(b), "f"(e));
    for (int k = 0; k < 24; k++)
        out[24 * i + k] = __float_as_uint(r[k]);
    double x = ind[4 * i], y = ind[4 * i + 1], z = ind[4 * i + 2], w = ind[4 * i + 3], s[4];
    asm("{ .reg .f64 p; mul.f64 p, %2, %3; add.f64 %0, p, %4; sub.f64 %1, %5, p; }"
        : "=d"(s[0]), "=d"(s[1]) : "d"(x), "d"(y), "d"(z), "d"(w));
    asm("{ .reg .f64 p; mul.f64 p, %1, %2; sub.f64 %0, p, %3; }" : "=d"(s[2]) : "d"(x), "d"(y), "d"(w));
    asm("{ .reg .f64 p, q; mul.f64 p, %1, %2; neg.f64 q, p; add.f64 %0, q, %3; }"
        : "=d"(s[3]) : "d"(x), "d"(y), "d"(z));
    for (int k = 0; k < 4; k++)
        outd[4 * i + k] = (unsigned long long)__double_as_longlong(s[k]);
}

// The second round: what the first left open.
__global__ void fmad_probe2(const float *in, uint32_t *out, int n, int trips)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = in[6 * i], b = in[6 * i + 1], c = in[6 * i + 2], e = in[6 * i + 3], g = in[6 * i + 4],
          h = in[6 * i + 5];
    float r[14] = {};
    asm("{ .reg .f32 p; .reg .u32 k; .reg .pred q; mov.f32 %0, %3; mov.u32 k, 0; mul.f32 p, %1, %2;"
        " LOOP: add.f32 %0, p, %0; add.u32 k, k, 1; setp.lt.u32 q, k, %4; @q bra LOOP; }"
        : "+f"(r[0]) : "f"(a), "f"(b), "f"(c), "r"(trips));
    asm("{ .reg .f32 p; .reg .pred q; mul.f32 p, %2, %3; add.f32 %0, p, %4; setp.gt.f32 q, %2, 0f00000000;"
        " mov.f32 %1, %4; @q bra DONE; add.f32 %1, p, %5; DONE: }"
        : "=f"(r[1]), "=f"(r[2]) : "f"(a), "f"(b), "f"(c), "f"(e));
    asm("{ .reg .f32 p; .reg .pred q; mov.f32 p, 0f00000000; setp.ne.f32 q, %1, 0f00000000; @q mul.f32 p, %1, %2;"
        " add.f32 %0, p, %3; }"
        : "=f"(r[3]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; mul.sat.f32 p, %1, %2; add.f32 %0, p, %3; }" : "=f"(r[4]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p, q; mul.f32 p, %2, %3; neg.f32 q, p; add.f32 %0, q, %5; add.f32 %1, p, %4; }"
        : "=f"(r[5]), "=f"(r[6]) : "f"(a), "f"(b), "f"(c), "f"(e));
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.ftz.f32 %0, p, %3; }" : "=f"(r[7]) : "f"(a), "f"(b), "f"(c));
    asm("{ .reg .f32 p; mul.f32 p, %1, %2; sub.f32 %0, p, 0f3F800000; }" : "=f"(r[8]) : "f"(a), "f"(b));
    asm("{ .reg .f32 p; mul.f32 p, 0f3F8CCCCD, %1; sub.f32 %0, %2, p; }" : "=f"(r[9]) : "f"(a), "f"(c));
    asm("{ .reg .f32 p, q; mul.f32 p, %2, %3; mul.f32 q, %4, %5; add.f32 %0, p, q; mov.f32 %1, p; }"
        : "=f"(r[10]), "=f"(r[11]) : "f"(a), "f"(b), "f"(g), "f"(h));
    asm("{ .reg .f32 p, x; mov.f32 x, %2; mul.f32 p, x, %3; add.f32 x, p, %4; add.f32 %1, p, %5; mov.f32 %0, x; }"
        : "=f"(r[12]), "=f"(r[13]) : "f"(a), "f"(b), "f"(c), "f"(c));
    for (int k = 0; k < 14; k++)
        out[14 * i + k] = __float_as_uint(r[k]);
}

// ---- blend -----------------------------------------------------------------------

// Texel pairs (2i, 2i + 1) of a 1-D texture, each sampled at n fractions
// (k + 0.5) / n of the gap: weights of exactly 256 (k + 0.5) / n 256ths.
__global__ void tex_blend1(cudaTextureObject_t t, int pairs, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs * n)
        out[i] = tex1D<float>(t, 2.0f * (float)(i / n) + 0.5f + ((float)(i % n) + 0.5f) / (float)n);
}

// Texel quads (columns 2i, 2i + 1 of rows 0, 1) of a 2-D texture, each at
// an n x n grid of such fractions.
__global__ void tex_blend2(cudaTextureObject_t t, int quads, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= quads * n * n)
        return;
    int q = i / (n * n), k = i % (n * n);
    out[i] = tex2D<float>(t, 2.0f * (float)q + 0.5f + ((float)(k % n) + 0.5f) / (float)n,
                          0.5f + ((float)(k / n) + 0.5f) / (float)n);
}

template <typename T> static T *dev(const T *host, int n)
{
    T *p = nullptr;
    if (cudaMalloc(&p, sizeof(T) * (n ? n : 1)) != cudaSuccess)
        return nullptr;
    if (host)
        cudaMemcpy(p, host, sizeof(T) * n, cudaMemcpyHostToDevice);
    return p;
}

static int probe_tex()
{
    // 1024 texels alternating 0, 1: between texel b and b + 1 the result is
    // the weight of b + 1 (b even) or 1 minus it (b odd).
    const int w = 1024, n = 4096;
    float img[w];
    for (int i = 0; i < w; i++)
        img[i] = (float)(i & 1);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &cd, w, 1));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, sizeof img, sizeof img, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    float *d = dev<float>(nullptr, n), out[n];
    for (float base : {0.0f, 500.0f}) {
        tex_weights<<<n / 256, 256>>>(t, base, n, d);
        CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
        // Runs of equal results: the fraction steps where the weight changes.
        int start = 0;
        for (int i = 1; i <= n; i++)
            if (i == n || out[i] != out[start]) {
                std::printf("tex base %g: fraction [%d/%d, %d/%d] -> %.9g (x256 = %.6g)\n", base, start, n, i - 1,
                            n, out[start], out[start] * 256.0);
                start = i;
            }
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(arr);
    cudaFree(d);
    return 0;
}

static int probe_tex2()
{
    const int n = 32, m = (n + 1) * (n + 1);
    float *d = dev<float>(nullptr, m), out[m];
    for (int corner = 0; corner < 4; corner++) {
        float img[4] = { 0, 0, 0, 0 };
        img[corner] = 1;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &cd, 2, 2));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, 2 * sizeof(float), 2 * sizeof(float), 2, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear;
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        tex_weights2<<<n + 1, n + 1>>>(t, n, d);
        CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
        for (int j = 0; j <= n; j++) {
            std::printf("tex2 corner %d row %d/%d (x65536):", corner, j, n);
            for (int i = 0; i <= n; i++)
                std::printf(" %.6g", out[j * (n + 1) + i] * 65536.0);
            std::printf("\n");
        }
        cudaDestroyTextureObject(t);
        cudaFreeArray(arr);
    }
    cudaFree(d);
    return 0;
}

static int probe_tf32()
{
    const uint32_t v[] = { 0x7f800001, 0x7f800fff, 0x7f801000, 0x7f801001, 0x7f802000, 0x7fc00000, 0x7fc00001,
                           0x7fffffff, 0x7fffefff, 0x7fffe000, 0x7fbfffff, 0xff800001, 0xffffffff, 0x7f800000,
                           0xff800000, 0x7f7fffff, 0x7f7ff000, 0x7f7fefff, 0x3f801000, 0x3f800fff, 0x3f803000,
                           0xbf801000, 0x00001000, 0x00000fff, 0x00801000, 0x00000001 };
    const int n = sizeof v / sizeof v[0];
    uint32_t *din = dev(v, n), *d1 = dev<uint32_t>(nullptr, n), *d2 = dev<uint32_t>(nullptr, n), r[n], s[n];
    tf32_rna<<<1, 32>>>(din, d1, d2, n);
    CHECK(cudaMemcpy(r, d1, sizeof r, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(s, d2, sizeof s, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        std::printf("tf32 rna 0x%08x: 0x%08x  satfinite: 0x%08x\n", v[i], r[i], s[i]);
    return 0;
}

static int probe_fns()
{
    const uint32_t masks[] = { 0x1, 0x10000, 0x20, 0xffffffff, 0x80000001, 0x0, 0xaaaaaaaa };
    const uint32_t bases[] = { 0, 3, 15, 31, 32, 33, 100, 0xffffffff };
    const int32_t offs[] = { INT32_MIN, INT32_MIN + 1, -65, -64, -63, -33, -32, -31, -2, -1, 0, 1, 2, 31, 32, 33, 64,
                             INT32_MAX };
    const int nm = 7, nb = 8, no = 18, n = nm * nb * no;
    uint32_t m[n], b[n], r[n];
    int32_t o[n];
    for (int i = 0; i < n; i++) {
        m[i] = masks[i / (nb * no)];
        b[i] = bases[i / no % nb];
        o[i] = offs[i % no];
    }
    uint32_t *dm = dev(m, n), *db = dev(b, n), *dr = dev<uint32_t>(nullptr, n);
    int32_t *dof = dev(o, n);
    fns<<<(n + 127) / 128, 128>>>(dm, db, dof, dr, n);
    CHECK(cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        std::printf("fns mask 0x%08x base %u offset %d: 0x%08x\n", m[i], b[i], o[i], r[i]);
    return 0;
}

static int probe_st()
{
    const uint64_t v[] = { 0x6b0eda075addfd3bull, 0x1cbd4c355b897461ull, 0x3ff0000000000000ull, 0x000000003f800000ull,
                           0x4000000000000000ull, 0xbff8000000000000ull, 0x7ff0000000000000ull, 0x0000000000000001ull,
                           0x3f80000000000000ull, 0x123456789abcdef0ull };
    const int n = sizeof v / sizeof v[0];
    uint64_t *din = dev(v, n);
    uint32_t *dout = dev<uint32_t>(nullptr, n), r[n];
    st_f32_b64<<<1, 32>>>(din, dout, n);
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        std::printf("st.f32 from .b64 0x%016llx: 0x%08x\n", (unsigned long long)v[i], r[i]);
    return 0;
}

static int probe_ftz()
{
    // rcp of values about 2^126 (the reciprocal about the smallest normal);
    // f64 values about 2^-126 converted to f32.
    const uint32_t f[] = { 0x7e800000, 0x7e800001, 0x7e800002, 0x7e7fffff, 0xfe800001, 0x7effffff, 0x7f000000 };
    const uint64_t dbl[] = { 0x3810000000000000ull, 0x380fffffffffffffull, 0x380ffffff0000000ull,
                             0x380fffffe0000000ull, 0x380fffffc0000000ull, 0xb80fffffffffffffull,
                             0x380ffffff8000000ull };
    const int n = sizeof f / sizeof f[0];
    uint32_t *df = dev(f, n), *dout = dev<uint32_t>(nullptr, 5 * n), r[5 * n];
    uint64_t *dd = dev(dbl, n);
    ftz_probe<<<1, 32>>>(df, dd, dout, n);
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        std::printf("ftz rcp.rn 0x%08x: 0x%08x  rcp.approx: 0x%08x | cvt.f32.f64 0x%016llx rn.ftz: 0x%08x rp.ftz: "
                    "0x%08x rn: 0x%08x\n",
                    f[i], r[5 * i], r[5 * i + 1], (unsigned long long)dbl[i], r[5 * i + 2], r[5 * i + 3],
                    r[5 * i + 4]);
    return 0;
}

static int probe_sat()
{
    const char *what[] = { "mul.sat.f32 -1e-30*1e-30", "mul.rn.sat.f32 -0*1e-30", "add.sat.f32 -0+-0",
                           "cvt.sat.f32.f32 -0",       "mul.sat.f16 0x8001*0x0001", "mul.sat.f16 -1*+0",
                           "fma.rn.sat.f16 0x8001*0x0001+-0", "cvt.rn.sat.f32.f64 -1e-300" };
    uint32_t *dout = dev<uint32_t>(nullptr, 8), r[8];
    sat_probe<<<1, 1>>>(dout);
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 8; k++)
        std::printf("sat %s: 0x%08x\n", what[k], r[k]);
    return 0;
}

static int probe_approx64()
{
    const uint64_t v[] = { 0x3ff0000000000000ull, 0x4000000000000000ull, 0x4008000000000000ull,
                           0x3fe0000000000000ull, 0x400fffffffffffffull, 0x7fefffffffffffffull,
                           0x3ff8000000000000ull, 0x3ff0000100000000ull, 0x3fefffff00000000ull,
                           0x4010000000000000ull, 0x0010000000000000ull, 0x3ff5555555555555ull,
                           0x4059000000000000ull, 0x3f1a36e2eb1c432dull, 0x7fe0000000000000ull,
                           0x3fffffff00000000ull };
    const int n = sizeof v / sizeof v[0];
    uint64_t *din = dev(v, n), *dout = dev<uint64_t>(nullptr, 2 * n), r[2 * n];
    double *dh = dev<double>(nullptr, 2), h[2];
    approx64_probe<<<1, 32>>>(din, dout, n, dh);
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h, dh, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        std::printf("approx64 0x%016llx: rsqrt 0x%016llx rcp 0x%016llx\n", (unsigned long long)v[i],
                    (unsigned long long)r[2 * i], (unsigned long long)r[2 * i + 1]);
    uint64_t b0, b1;
    std::memcpy(&b0, &h[0], 8);
    std::memcpy(&b1, &h[1], 8);
    std::printf("approx64 hypot(2, DBL_MAX): 0x%016llx\n", (unsigned long long)b0);
    std::printf("approx64 hypot(DBL_MAX, -1e-310): 0x%016llx\n", (unsigned long long)b1);
    return 0;
}

static int probe_hsign()
{
    const uint32_t v[] = { 0x7e00, 0x7c01, 0xfe01, 0x7fff, 0x7fc1, 0xffc0, 0x7f81, 0x3c00 };
    const int n = sizeof v / sizeof v[0];
    uint32_t *din = dev(v, n), *dout = dev<uint32_t>(nullptr, 4 * n), r[4 * n];
    hsign_probe<<<1, 32>>>(din, dout, n);
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        std::printf("hsign 0x%04x: abs.f16 0x%04x neg.f16 0x%04x abs.bf16 0x%04x neg.bf16 0x%04x\n", v[i],
                    r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
    return 0;
}

static int probe_fmad()
{
    static const char *const names[24] = {
        "mul; add",                   "mul; add; add (1st)",     "mul; add; add (2nd)",
        "mul; neg; sub",              "mul; add; mov (add)",     "mul; add; mov (product)",
        "mul; bra; add",              "mul p; mul q; add p, q",  "mul p; mul q; add q, p",
        "mul; fma addend",            "mul.ftz; add",            "mul; add.rn",
        "mul; mul; add",              "mul; sub c, p",           "mul; sub p, e",
        "mul; add p, p",              "mul imm; add",            "mul; add; mul (add)",
        "mul; add; mul (mul)",        "mul; add; fma (add)",     "mul; add; fma (fma)",
        "mul; @p add",                "mul; loop add",           "mul; add.sat",
    };
    static const char *const dnames[4] = { "f64 mul; add; sub (add)", "f64 mul; add; sub (sub)", "f64 mul; sub p, w",
                                           "f64 mul; neg; add" };
    const int n = 8;
    float in[6 * n];
    double ind[4 * n];
    uint32_t seed = 12345;
    auto next = [&]() { return seed = seed * 1664525u + 1013904223u; };
    for (int i = 0; i < n; i++) {
        float a = 1.0f + (float)(next() >> 8) * 0x1p-24f, b = 1.0f + (float)(next() >> 8) * 0x1p-24f;
        float g = 1.0f + (float)(next() >> 8) * 0x1p-24f, h = 1.0f + (float)(next() >> 8) * 0x1p-24f;
        if (i & 1)
            a = -a;
        float *v = in + 6 * i;
        v[0] = a, v[1] = b, v[2] = -(a * b), v[3] = -(g * h), v[4] = g, v[5] = h;
        double x = 1.0 + (double)(next() >> 8) * 0x1p-24 + (double)next() * 0x1p-56;
        double y = 1.0 + (double)(next() >> 8) * 0x1p-24 + (double)next() * 0x1p-56;
        double *d = ind + 4 * i;
        d[0] = x, d[1] = y, d[2] = -(x * y), d[3] = x * y * 0.75;
    }
    float *din = dev(in, 6 * n);
    double *dd = dev(ind, 4 * n);
    uint32_t *dout = dev<uint32_t>(nullptr, 24 * n), r[24 * n];
    unsigned long long *doutd = dev<unsigned long long>(nullptr, 4 * n), rd[4 * n];
    fmad_probe<<<1, 32>>>(din, dd, dout, doutd, n);
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rd, doutd, sizeof rd, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 24; k++) {
        std::printf("fmad %s:", names[k]);
        for (int i = 0; i < n; i++)
            std::printf(" %08x", r[24 * i + k]);
        std::printf("\n");
    }
    for (int k = 0; k < 4; k++) {
        std::printf("fmad %s:", dnames[k]);
        for (int i = 0; i < n; i++)
            std::printf(" %016llx", rd[4 * i + k]);
        std::printf("\n");
    }
    static const char *const names2[14] = {
        "mul; loop add (3 trips, from a parameter)", "mul; add; bra; add (1st)", "mul; add; bra; add (2nd)",
        "@p mul; add",                               "mul.sat; add",             "mul; neg; add; add (neg)",
        "mul; neg; add; add (product)",              "mul; add.ftz",             "mul; sub p, imm",
        "mul imm, a; sub c, p",                      "mul p; mul q; add p, q; mov p (add)",
        "mul p; mul q; add p, q; mov p (mov)",       "mul p, x; add x, p; add (1st)",
        "mul p, x; add x, p; add (2nd)",
    };
    uint32_t *dout2 = dev<uint32_t>(nullptr, 14 * n), r2[14 * n];
    fmad_probe2<<<1, 32>>>(din, dout2, n, 3);
    CHECK(cudaMemcpy(r2, dout2, sizeof r2, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 14; k++) {
        std::printf("fmad %s:", names2[k]);
        for (int i = 0; i < n; i++)
            std::printf(" %08x", r2[14 * i + k]);
        std::printf("\n");
    }
    return 0;
}

static cudaTextureObject_t linear_texture(const float *img, int w, int h, cudaArray_t *arr)
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaTextureObject_t t = 0;
    if (cudaMallocArray(arr, &cd, w, h) != cudaSuccess ||
        cudaMemcpy2DToArray(*arr, 0, 0, img, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice) !=
            cudaSuccess)
        return 0;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = *arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    if (cudaCreateTextureObject(&t, &rd, &td, nullptr) != cudaSuccess)
        return 0;
    return t;
}

static int probe_blend()
{
    const int pairs = 24, n1 = 32, quads = 8, n2 = 8;
    uint32_t seed = 777;
    auto next = [&]() { return seed = seed * 1664525u + 1013904223u; };
    // Values of mixed sign and magnitude with full mantissas.
    auto value = [&]() {
        float m = 1.0f + (float)(next() >> 9) * 0x1p-23f;
        int e = (int)(next() >> 29) - 3;
        return ((next() >> 31) ? -m : m) * std::ldexp(1.0f, e);
    };
    float img1[2 * pairs], img2[2 * 2 * quads];
    for (float &v : img1)
        v = value();
    for (float &v : img2)
        v = value();
    cudaArray_t a1, a2;
    cudaTextureObject_t t1 = linear_texture(img1, 2 * pairs, 1, &a1), t2 = linear_texture(img2, 2 * quads, 2, &a2);
    if (!t1 || !t2) {
        std::printf("error: the blend textures\n");
        return 1;
    }
    float *d1 = dev<float>(nullptr, pairs * n1), *d2 = dev<float>(nullptr, quads * n2 * n2);
    static float r1[pairs * n1], r2[quads * n2 * n2];
    tex_blend1<<<(pairs * n1 + 255) / 256, 256>>>(t1, pairs, n1, d1);
    tex_blend2<<<(quads * n2 * n2 + 255) / 256, 256>>>(t2, quads, n2, d2);
    CHECK(cudaMemcpy(r1, d1, sizeof r1, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r2, d2, sizeof r2, cudaMemcpyDeviceToHost));
    uint32_t u;
    for (int i = 0; i < pairs; i++) {
        std::memcpy(&u, &img1[2 * i], 4);
        std::printf("blend1 %08x", u);
        std::memcpy(&u, &img1[2 * i + 1], 4);
        std::printf(" %08x:", u);
        for (int k = 0; k < n1; k++) {
            std::memcpy(&u, &r1[i * n1 + k], 4);
            std::printf(" %08x", u);
        }
        std::printf("\n");
    }
    for (int q = 0; q < quads; q++) {
        std::printf("blend2");
        for (int c = 0; c < 4; c++) {
            std::memcpy(&u, &img2[(c >> 1) * 2 * quads + 2 * q + (c & 1)], 4);
            std::printf(" %08x", u);
        }
        std::printf(":");
        for (int k = 0; k < n2 * n2; k++) {
            std::memcpy(&u, &r2[q * n2 * n2 + k], 4);
            std::printf(" %08x", u);
        }
        std::printf("\n");
    }
    return 0;
}

int main()
{
    int bad = probe_tex() | probe_tex2() | probe_tf32() | probe_fns() | probe_st() | probe_ftz() | probe_fmad() | probe_blend() |
              probe_sat() | probe_approx64() | probe_hsign();
    CHECK(cudaDeviceSynchronize());
    return bad;
}

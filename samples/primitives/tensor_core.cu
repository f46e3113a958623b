/*
 * tensor_core.cu -- the tensor-core instructions as CUDA code reaches them:
 * the WMMA API (wmma.load, wmma.mma, wmma.store) in a tiled GEMM through
 * shared memory, and the inline-PTX style of hand-tuned kernels (mma.sync
 * fed by ldmatrix, movmatrix), with each thread packing its fragment
 * registers by the PTX ISA's layout tables ("Matrix fragments for mma.mMnNkK"),
 * written out here shape by shape.
 *
 * Inputs are small multiples of powers of two, so every product and sum is
 * exact in every accumulator type and results compare bit for bit with the
 * host.  The sm_80 forms (bf16, tf32, f64, m16n8k16/k32) are compiled only
 * into the compute_80 and newer PTX, the fp8 ones (e4m3, e5m2) into the
 * compute_89 PTX; run with --sm 75 or 80 the missing ones report themselves
 * skipped.
 */
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <mma.h>

#include <vector>

#include "sample.h"

using namespace nvcuda;

#define TILE 16

/* ---- 1. WMMA GEMM: C = A * B + C, one warp per 16x16 tile of C ------------- */

__global__ void wmma_gemm(const half *a, const half *b, float *c, int n)
{
    __shared__ half as[TILE * TILE], bs[TILE * TILE];
    int ti = blockIdx.y * TILE, tj = blockIdx.x * TILE;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c + ti * n + tj, n, wmma::mem_row_major);
    for (int k = 0; k < n; k += TILE) {
        for (int e = threadIdx.x; e < TILE * TILE; e += 32) {
            as[e] = a[(ti + e / TILE) * n + k + e % TILE];
            bs[e] = b[(tj + e / TILE) * n + k + e % TILE];     /* B^T stored: column-major B */
        }
        __syncwarp();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, as, TILE);
        wmma::load_matrix_sync(fb, bs, TILE);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(c + ti * n + tj, acc, n, wmma::mem_row_major);
}

/* The other two f16 shapes and 8-bit integers, one tile each, straight from
 * global memory; D = A * B (+ C = 1 for the f16 ones). */
template <int M, int N, int K>
__global__ void wmma_f16_shape(const half *a, const half *b, half *d)
{
    wmma::fragment<wmma::matrix_a, M, N, K, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, half> acc;
    wmma::fill_fragment(acc, __float2half(1.0f));
    wmma::load_matrix_sync(fa, a, M);       /* A column-major: M rows */
    wmma::load_matrix_sync(fb, b, N);       /* B row-major: N columns */
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, M, wmma::mem_col_major);
}

__global__ void wmma_s8(const signed char *a, const signed char *b, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, -7);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

/* ---- 2. inline PTX: fragments by the ISA's tables ------------------------- */

/* mma.m16n8k8 (f16 -> f32), A by ldmatrix.x2 from a row-major 16x8 tile,
 * B by ldmatrix.x1.trans from a row-major 8x8 (K x N) tile; D written by
 * the C/D table: d0,d1 at (g, 2t..2t+1), d2,d3 at (g+8, 2t..2t+1). */
__global__ void mma_m16n8k8_ldmatrix(const half *a, const half *b, const float *c, float *d)
{
    __shared__ __align__(16) half as[16 * 8], bs[8 * 8];
    int l = threadIdx.x, g = l / 4, t = l % 4;
    for (int e = l; e < 128; e += 32)
        as[e] = a[e];
    for (int e = l; e < 64; e += 32)
        bs[e] = b[e];
    __syncwarp();
    unsigned a0, a1, b0;
    unsigned arow = (unsigned)__cvta_generic_to_shared(&as[(l % 16) * 8]);
    unsigned brow = (unsigned)__cvta_generic_to_shared(&bs[(l % 8) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(a0), "=r"(a1) : "r"(arow));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(b0) : "r"(brow));
    float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1], c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(b0), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
    d[(g + 8) * 8 + 2 * t] = d2;
    d[(g + 8) * 8 + 2 * t + 1] = d3;
}

/* ldmatrix.x4 and .x4.trans of four 8x8 tiles, and movmatrix: every lane
 * writes out the registers it received. */
__global__ void ldmatrix_movmatrix(const unsigned short *m, unsigned *out)
{
    __shared__ __align__(16) unsigned short s[4 * 64];
    int l = threadIdx.x;
    for (int e = l; e < 256; e += 32)
        s[e] = m[e];
    __syncwarp();
    unsigned row = (unsigned)__cvta_generic_to_shared(&s[l * 8]);     /* lane l: row l%8 of tile l/8 */
    unsigned r[4], q[4], mv;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3]) : "r"(row));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(mv) : "r"(r[0]));
    for (int i = 0; i < 4; i++) {
        out[i * 32 + l] = r[i];
        out[128 + i * 32 + l] = q[i];
    }
    out[256 + l] = mv;
}

/* mma.m8n8k16.s32.s8.s8.s32: A (g, 4t+i), B (4t+i, g), C/D (g, 2t+i). */
__global__ void mma_m8n8k16_s8(const signed char *a, const signed char *b, const int *c, int *d)
{
    int l = threadIdx.x, g = l / 4, t = l % 4;
    unsigned pa = 0, pb = 0;
    for (int i = 0; i < 4; i++) {
        pa |= (unsigned)(unsigned char)a[g * 16 + 4 * t + i] << (8 * i);
        pb |= (unsigned)(unsigned char)b[(4 * t + i) * 8 + g] << (8 * i);
    }
    int d0, d1;
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(d0), "=r"(d1) : "r"(pa), "r"(pb), "r"(c[g * 8 + 2 * t]), "r"(c[g * 8 + 2 * t + 1]));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
}

/* ---- 3. sm_80: bf16, tf32, f64 and the m16n8k16 / m16n8k32 shapes -------- */

__device__ unsigned pack2(unsigned short lo, unsigned short hi) { return lo | (unsigned)hi << 16; }

/* One mma.sync whose D and C are four f32 registers, A four and B two
 * 32-bit registers (m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 fp8). */
#define MMA_F32(inst, dv, ra, rb, cv)                                                                  \
    asm volatile(inst " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                     \
                 : "=f"(dv[0]), "=f"(dv[1]), "=f"(dv[2]), "=f"(dv[3])                                  \
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),            \
                   "f"(cv[0]), "f"(cv[1]), "f"(cv[2]), "f"(cv[3]))

/* Where C/D element i of this lane lies in a row-major 16x8 matrix: rows g
 * and g+8, columns 2t and 2t+1. */
__device__ int cd_at(int i)
{
    int l = threadIdx.x;
    return (l / 4 + 8 * (i >> 1)) * 8 + 2 * (l % 4) + (i & 1);
}

/* The m16n8k32 byte fragments (s8, e4m3, e5m2): a_i at row g (i in 0..3,
 * 8..11) or g+8, column 4t+(i&3) (+16 for i >= 8); b_i at row 4t+(i&3)
 * (+16 for i >= 4), column g. */
__device__ void pack_m16n8k32(const unsigned char *a, const unsigned char *b, unsigned ra[4], unsigned rb[2])
{
    int l = threadIdx.x, g = l / 4, t = l % 4;
    ra[0] = ra[1] = ra[2] = ra[3] = rb[0] = rb[1] = 0;
    for (int i = 0; i < 16; i++) {
        int row = g + 8 * ((i >> 2) & 1), col = 4 * t + (i & 3) + 16 * (i >> 3);
        ra[i / 4] |= (unsigned)a[row * 32 + col] << (8 * (i % 4));
    }
    for (int i = 0; i < 8; i++)
        rb[i / 4] |= (unsigned)b[(4 * t + (i & 3) + 16 * (i >> 2)) * 8 + g] << (8 * (i % 4));
}

/* mma.m16n8k16 with f16 (f32 and f16 accumulators) or bf16 inputs.
 * A: a_i at row g (i in 0,1,4,5) or g+8, column 2t+(i&1) (+8 for i >= 4);
 * B: b_i at row 2t+(i&1) (+8 for i >= 2), column g. */
template <bool BF16, bool F16_ACC>
__global__ void mma_m16n8k16(const unsigned short *a, const unsigned short *b, const float *c, float *d, int *skipped)
{
#if __CUDA_ARCH__ >= 800
    int l = threadIdx.x, g = l / 4, t = l % 4;
    unsigned ra[4], rb[2];
    for (int r = 0; r < 4; r++) {
        int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        ra[r] = pack2(a[row * 16 + col], a[row * 16 + col + 1]);
    }
    for (int r = 0; r < 2; r++) {
        int k = 2 * t + 8 * r;
        rb[r] = pack2(b[k * 8 + g], b[(k + 1) * 8 + g]);
    }
    float cv[4], dv[4];
    for (int i = 0; i < 4; i++)
        cv[i] = c[cd_at(i)];
    if (F16_ACC) {
        unsigned c01 = pack2(__half_as_ushort(__float2half(cv[0])), __half_as_ushort(__float2half(cv[1])));
        unsigned c23 = pack2(__half_as_ushort(__float2half(cv[2])), __half_as_ushort(__float2half(cv[3])));
        unsigned d01, d23;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                     : "=r"(d01), "=r"(d23)
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(c01), "r"(c23));
        dv[0] = __half2float(__ushort_as_half((unsigned short)d01));
        dv[1] = __half2float(__ushort_as_half((unsigned short)(d01 >> 16)));
        dv[2] = __half2float(__ushort_as_half((unsigned short)d23));
        dv[3] = __half2float(__ushort_as_half((unsigned short)(d23 >> 16)));
    } else if (BF16) {
        MMA_F32("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", dv, ra, rb, cv);
    } else {
        MMA_F32("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", dv, ra, rb, cv);
    }
    for (int i = 0; i < 4; i++)
        d[cd_at(i)] = dv[i];
#else
    if (threadIdx.x == 0)
        *skipped |= 1;
#endif
}

/* mma.m16n8k8 with tf32: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4);
 * b0 (t, g), b1 (t+4, g). */
__global__ void mma_m16n8k8_tf32(const float *a, const float *b, const float *c, float *d, int *skipped)
{
#if __CUDA_ARCH__ >= 800
    int l = threadIdx.x, g = l / 4, t = l % 4;
    unsigned ra[4], rb[2];
    for (int r = 0; r < 4; r++)
        ra[r] = __float_as_uint(a[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)]);
    for (int r = 0; r < 2; r++)
        rb[r] = __float_as_uint(b[(t + 4 * r) * 8 + g]);
    float cv[4], dv[4];
    for (int i = 0; i < 4; i++)
        cv[i] = c[cd_at(i)];
    MMA_F32("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", dv, ra, rb, cv);
    for (int i = 0; i < 4; i++)
        d[cd_at(i)] = dv[i];
#else
    if (threadIdx.x == 0)
        *skipped |= 1;
#endif
}

/* mma.m16n8k32 s8 with .satfinite. */
__global__ void mma_m16n8k32_s8(const signed char *a, const signed char *b, const int *c, int *d, int *skipped)
{
#if __CUDA_ARCH__ >= 800
    unsigned ra[4], rb[2];
    pack_m16n8k32((const unsigned char *)a, (const unsigned char *)b, ra, rb);
    int dv[4];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=r"(dv[0]), "=r"(dv[1]), "=r"(dv[2]), "=r"(dv[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                   "r"(c[cd_at(0)]), "r"(c[cd_at(1)]), "r"(c[cd_at(2)]), "r"(c[cd_at(3)]));
    for (int i = 0; i < 4; i++)
        d[cd_at(i)] = dv[i];
#else
    if (threadIdx.x == 0)
        *skipped |= 1;
#endif
}

/* WMMA on bf16 (m16n16k16), tf32 (m16n16k8) and f64 (m8n8k4). */
__global__ void wmma_sm80(const __nv_bfloat16 *ab, const __nv_bfloat16 *bb, float *db, const float *at,
                          const float *bt, float *dt, const double *ad, const double *bd, double *dd, int *skipped)
{
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fab;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fbb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> accb;
    wmma::fill_fragment(accb, 0.5f);
    wmma::load_matrix_sync(fab, ab, 16);
    wmma::load_matrix_sync(fbb, bb, 16);
    wmma::mma_sync(accb, fab, fbb, accb);
    wmma::store_matrix_sync(db, accb, 16, wmma::mem_row_major);

    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fat;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fbt;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acct;
    wmma::fill_fragment(acct, 0.0f);
    wmma::load_matrix_sync(fat, at, 8);
    wmma::load_matrix_sync(fbt, bt, 8);
    wmma::mma_sync(acct, fat, fbt, acct);
    wmma::store_matrix_sync(dt, acct, 16, wmma::mem_col_major);

    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fad;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fbd;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> accd;
    wmma::fill_fragment(accd, 0.25);
    wmma::load_matrix_sync(fad, ad, 4);
    wmma::load_matrix_sync(fbd, bd, 4);
    wmma::mma_sync(accd, fad, fbd, accd);
    wmma::store_matrix_sync(dd, accd, 8, wmma::mem_row_major);
#else
    if (threadIdx.x == 0)
        *skipped |= 1;
#endif
}

/* mma.m16n8k32 with e4m3 A and e5m2 B, in the s8 layout. */
__global__ void mma_m16n8k32_f8(const unsigned char *a, const unsigned char *b, const float *c, float *d, int *skipped)
{
#if __CUDA_ARCH__ >= 890
    unsigned ra[4], rb[2];
    pack_m16n8k32(a, b, ra, rb);
    float cv[4] = { c[cd_at(0)], c[cd_at(1)], c[cd_at(2)], c[cd_at(3)] }, dv[4];
    MMA_F32("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", dv, ra, rb, cv);
    for (int i = 0; i < 4; i++)
        d[cd_at(i)] = dv[i];
#else
    if (threadIdx.x == 0)
        *skipped |= 2;
#endif
}

/* ---- host --------------------------------------------------------------- */

static int failures = 0;

static void expect(const char *what, int i, double got, double want)
{
    if (got != want && failures++ < 8)
        std::printf("  %s[%d] = %.9g, expected %.9g\n", what, i, got, want);
}

/* A small value on a 1/4 grid in [-2, 2): exact in every input type. */
static float grid_value(lcg &r) { return (float)((int)(r.next() % 16) - 8) / 4.0f; }

static unsigned short bf16_bits(float f) { unsigned u; std::memcpy(&u, &f, 4); return (unsigned short)(u >> 16); }
static unsigned short half_bits(float f) { __half h = __float2half(f); unsigned short u; std::memcpy(&u, &h, 2); return u; }

template <typename T> static T *dev(size_t n)
{
    T *p;
    CHECK(cudaMallocManaged(&p, n * sizeof(T)));
    return p;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "tensor_core");
    lcg rng(2024);
    int *skipped = dev<int>(1);
    *skipped = 0;

    /* 1. The WMMA GEMM: n = 32, 64 or 128. */
    int n = size == SIZE_TINY ? 32 : size == SIZE_SMALL ? 64 : 128;
    half *a = dev<half>((size_t)n * n), *bt = dev<half>((size_t)n * n);
    float *c = dev<float>((size_t)n * n);
    std::vector<float> af(n * n), btf(n * n), cf(n * n);
    for (int i = 0; i < n * n; i++) {
        af[i] = grid_value(rng);
        btf[i] = grid_value(rng);
        cf[i] = grid_value(rng);
        a[i] = __float2half(af[i]);
        bt[i] = __float2half(btf[i]);
        c[i] = cf[i];
    }
    wmma_gemm<<<dim3(n / TILE, n / TILE), 32>>>(a, bt, c, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = cf[i * n + j];
            for (int k = 0; k < n; k++)
                s += (double)af[i * n + k] * btf[j * n + k];
            expect("wmma_gemm", i * n + j, c[i * n + j], s);
        }

    /* m32n8k16 and m8n32k16, f16 accumulators; A column-major, B row-major. */
    half *sa = dev<half>(512), *sb = dev<half>(512), *sd = dev<half>(256);
    std::vector<float> saf(512), sbf(512);
    for (int i = 0; i < 512; i++) {
        saf[i] = grid_value(rng);
        sbf[i] = grid_value(rng);
        sa[i] = __float2half(saf[i]);
        sb[i] = __float2half(sbf[i]);
    }
    for (int shape = 0; shape < 2; shape++) {
        int M = shape ? 8 : 32, N = shape ? 32 : 8;
        if (shape)
            wmma_f16_shape<8, 32, 16><<<1, 32>>>(sa, sb, sd);
        else
            wmma_f16_shape<32, 8, 16><<<1, 32>>>(sa, sb, sd);
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 1;
                for (int k = 0; k < 16; k++)
                    s += (double)saf[k * M + i] * sbf[k * N + j];
                expect(shape ? "wmma_m8n32k16" : "wmma_m32n8k16", j * M + i, __half2float(sd[j * M + i]), s);
            }
    }

    /* s8 WMMA: values across the whole s8 range. */
    signed char *ia = dev<signed char>(256), *ib = dev<signed char>(256);
    int *id = dev<int>(256);
    for (int i = 0; i < 256; i++) {
        ia[i] = (signed char)(rng.next() & 0xFF);
        ib[i] = (signed char)(rng.next() & 0xFF);
    }
    wmma_s8<<<1, 32>>>(ia, ib, id);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int s = -7;
            for (int k = 0; k < 16; k++)
                s += ia[i * 16 + k] * ib[j * 16 + k];
            expect("wmma_s8", i * 16 + j, id[i * 16 + j], s);
        }

    /* 2. mma.m16n8k8 through ldmatrix. */
    float *mc = dev<float>(128), *md = dev<float>(128);
    half *ma = dev<half>(128), *mb = dev<half>(64);
    std::vector<float> maf(128), mbf(64);
    for (int i = 0; i < 128; i++) {
        maf[i] = grid_value(rng);
        ma[i] = __float2half(maf[i]);
        mc[i] = grid_value(rng);
    }
    for (int i = 0; i < 64; i++) {
        mbf[i] = grid_value(rng);
        mb[i] = __float2half(mbf[i]);
    }
    mma_m16n8k8_ldmatrix<<<1, 32>>>(ma, mb, mc, md);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double s = mc[i * 8 + j];
            for (int k = 0; k < 8; k++)
                s += (double)maf[i * 8 + k] * mbf[k * 8 + j];
            expect("mma_m16n8k8", i * 8 + j, md[i * 8 + j], s);
        }

    /* ldmatrix.x4 (and .trans) and movmatrix against the ISA's table: lane l
     * holds row l/4, columns 2(l%4) and 2(l%4)+1 of each tile. */
    unsigned short *tiles = dev<unsigned short>(256);
    unsigned *lm = dev<unsigned>(288);
    for (int i = 0; i < 256; i++)
        tiles[i] = (unsigned short)(i * 257 + 3);
    ldmatrix_movmatrix<<<1, 32>>>(tiles, lm);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < 32; l++) {
            int r = l / 4, c2 = 2 * (l % 4);
            const unsigned short *tl = tiles + 64 * i;
            expect("ldmatrix", i * 32 + l, lm[i * 32 + l], tl[r * 8 + c2] | (unsigned)tl[r * 8 + c2 + 1] << 16);
            expect("ldmatrix.trans", i * 32 + l, lm[128 + i * 32 + l],
                   tl[c2 * 8 + r] | (unsigned)tl[(c2 + 1) * 8 + r] << 16);
            if (i == 0)
                expect("movmatrix", l, lm[256 + l], tl[c2 * 8 + r] | (unsigned)tl[(c2 + 1) * 8 + r] << 16);
        }

    /* mma.m8n8k16 on s8. */
    signed char *qa = dev<signed char>(128), *qb = dev<signed char>(128);
    int *qc = dev<int>(64), *qd = dev<int>(64);
    for (int i = 0; i < 128; i++) {
        qa[i] = (signed char)(rng.next() & 0xFF);
        qb[i] = (signed char)(rng.next() & 0xFF);
    }
    for (int i = 0; i < 64; i++)
        qc[i] = (int)(rng.next() % 20001) - 10000;
    mma_m8n8k16_s8<<<1, 32>>>(qa, qb, qc, qd);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int s = qc[i * 8 + j];
            for (int k = 0; k < 16; k++)
                s += qa[i * 16 + k] * qb[k * 8 + j];
            expect("mma_m8n8k16_s8", i * 8 + j, qd[i * 8 + j], s);
        }

    /* 3. The sm_80 forms. */
    unsigned short *ha = dev<unsigned short>(256), *hb = dev<unsigned short>(128);
    float *hc = dev<float>(128), *hd = dev<float>(128);
    std::vector<float> haf(256), hbf(128);
    for (int i = 0; i < 256; i++)
        haf[i] = grid_value(rng);
    for (int i = 0; i < 128; i++) {
        hbf[i] = grid_value(rng);
        hc[i] = grid_value(rng);
    }
    const char *names[3] = { "mma_m16n8k16_f16", "mma_m16n8k16_f16acc", "mma_m16n8k16_bf16" };
    for (int v = 0; v < 3; v++) {
        for (int i = 0; i < 256; i++)
            ha[i] = v == 2 ? bf16_bits(haf[i]) : half_bits(haf[i]);
        for (int i = 0; i < 128; i++)
            hb[i] = v == 2 ? bf16_bits(hbf[i]) : half_bits(hbf[i]);
        if (v == 0)
            mma_m16n8k16<false, false><<<1, 32>>>(ha, hb, hc, hd, skipped);
        else if (v == 1)
            mma_m16n8k16<false, true><<<1, 32>>>(ha, hb, hc, hd, skipped);
        else
            mma_m16n8k16<true, false><<<1, 32>>>(ha, hb, hc, hd, skipped);
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; !(*skipped & 1) && i < 16; i++)
            for (int j = 0; j < 8; j++) {
                double s = hc[i * 8 + j];
                for (int k = 0; k < 16; k++)
                    s += (double)haf[i * 16 + k] * hbf[k * 8 + j];
                expect(names[v], i * 8 + j, hd[i * 8 + j], s);
            }
    }

    float *ta = dev<float>(128), *tb = dev<float>(64), *tc = dev<float>(128), *td = dev<float>(128);
    for (int i = 0; i < 128; i++) {
        ta[i] = grid_value(rng);
        tc[i] = grid_value(rng);
    }
    for (int i = 0; i < 64; i++)
        tb[i] = grid_value(rng);
    mma_m16n8k8_tf32<<<1, 32>>>(ta, tb, tc, td, skipped);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; !(*skipped & 1) && i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double s = tc[i * 8 + j];
            for (int k = 0; k < 8; k++)
                s += (double)ta[i * 8 + k] * tb[k * 8 + j];
            expect("mma_m16n8k8_tf32", i * 8 + j, td[i * 8 + j], s);
        }

    /* s8 m16n8k32 with .satfinite: C near the int32 limits saturates. */
    signed char *xa = dev<signed char>(512), *xb = dev<signed char>(256);
    int *xc = dev<int>(128), *xd = dev<int>(128);
    for (int i = 0; i < 512; i++)
        xa[i] = (signed char)(rng.next() & 0xFF);
    for (int i = 0; i < 256; i++)
        xb[i] = (signed char)(rng.next() & 0xFF);
    for (int i = 0; i < 128; i++)
        xc[i] = i % 3 == 0 ? 2147483000 : i % 3 == 1 ? -2147483000 : (int)(rng.next() % 1000);
    mma_m16n8k32_s8<<<1, 32>>>(xa, xb, xc, xd, skipped);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; !(*skipped & 1) && i < 16; i++)
        for (int j = 0; j < 8; j++) {
            long long s = xc[i * 8 + j];
            for (int k = 0; k < 32; k++)
                s += xa[i * 32 + k] * xb[k * 8 + j];
            s = s > 2147483647LL ? 2147483647LL : s < -2147483648LL ? -2147483648LL : s;
            expect("mma_m16n8k32_s8", i * 8 + j, xd[i * 8 + j], (double)s);
        }

    __nv_bfloat16 *wa = dev<__nv_bfloat16>(256), *wb = dev<__nv_bfloat16>(256);
    float *wd = dev<float>(256), *wta = dev<float>(128), *wtb = dev<float>(128), *wtd = dev<float>(256);
    double *wda = dev<double>(32), *wdb = dev<double>(32), *wdd = dev<double>(64);
    std::vector<float> waf(256), wbf(256);
    for (int i = 0; i < 256; i++) {
        waf[i] = grid_value(rng);
        wbf[i] = grid_value(rng);
        wa[i] = __float2bfloat16(waf[i]);
        wb[i] = __float2bfloat16(wbf[i]);
    }
    for (int i = 0; i < 128; i++) {
        wta[i] = grid_value(rng);
        wtb[i] = grid_value(rng);
    }
    for (int i = 0; i < 32; i++) {
        wda[i] = grid_value(rng);
        wdb[i] = grid_value(rng);
    }
    wmma_sm80<<<1, 32>>>(wa, wb, wd, wta, wtb, wtd, wda, wdb, wdd, skipped);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; !(*skipped & 1) && i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double s = 0.5, st = 0;
            for (int k = 0; k < 16; k++)
                s += (double)waf[i * 16 + k] * wbf[k * 16 + j];
            for (int k = 0; k < 8; k++)
                st += (double)wta[i * 8 + k] * wtb[j * 8 + k];
            expect("wmma_bf16", i * 16 + j, wd[i * 16 + j], s);
            expect("wmma_tf32", j * 16 + i, wtd[j * 16 + i], st);
        }
    for (int i = 0; !(*skipped & 1) && i < 8; i++)
        for (int j = 0; j < 8; j++) {
            double s = 0.25;
            for (int k = 0; k < 4; k++)
                s = std::fma(wda[i * 4 + k], wdb[j * 4 + k], s);
            expect("wmma_f64", i * 8 + j, wdd[i * 8 + j], s);
        }

    unsigned char *fa = dev<unsigned char>(512), *fb = dev<unsigned char>(256);
    float *fc = dev<float>(128), *fd = dev<float>(128);
    std::vector<float> faf(512), fbf(256);
    for (int i = 0; i < 512; i++) {
        faf[i] = grid_value(rng);
        fa[i] = __nv_cvt_float_to_fp8(faf[i], __NV_SATFINITE, __NV_E4M3);
    }
    for (int i = 0; i < 256; i++) {
        fbf[i] = grid_value(rng);
        fb[i] = __nv_cvt_float_to_fp8(fbf[i], __NV_SATFINITE, __NV_E5M2);
    }
    for (int i = 0; i < 128; i++)
        fc[i] = grid_value(rng);
    mma_m16n8k32_f8<<<1, 32>>>(fa, fb, fc, fd, skipped);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; !(*skipped & 2) && i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double s = fc[i * 8 + j];
            for (int k = 0; k < 32; k++)
                s += (double)faf[i * 32 + k] * fbf[k * 8 + j];
            expect("mma_m16n8k32_e4m3_e5m2", i * 8 + j, fd[i * 8 + j], s);
        }

    bool pass = failures == 0;
    std::printf("%s tensor_core n=%d (%s) wmma f16/s8, mma m16n8k8/m8n8k16, ldmatrix, movmatrix%s%s, %d mismatches\n",
                pass ? "PASS" : "FAIL", n, size_name(size),
                *skipped & 1 ? "; sm_80 forms skipped (PTX older than compute_80)" : ", sm_80 bf16/tf32/f64/m16n8k16/k32",
                *skipped & 2 ? "; fp8 skipped (PTX older than compute_89)" : ", fp8 e4m3/e5m2", failures);
    return pass ? 0 : 1;
}

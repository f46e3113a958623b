/*
 * tensor_core_subbyte.cu -- the tensor cores' 4-bit and 1-bit integer forms
 * as quantised-inference and binary-network kernels reach them:
 *
 *  1. mma.sync on .s4/.u4 (m8n8k32, m16n8k32, m16n8k64, with .satfinite)
 *     and on .b1 with .xor.popc / .and.popc (m8n8k128, m16n8k128,
 *     m16n8k256), each thread packing its fragment registers by the PTX
 *     ISA's layout tables, written out here shape by shape;
 *  2. the WMMA API's experimental sub-byte fragments (precision::s4, u4,
 *     b1 with bmmaBitOpXOR / AND), loaded from global memory;
 *  3. an int4 GEMM in the style of a quantised linear layer: activations
 *     quantised on the device (cvt.rni, then cvt.pack.sat.s4 packs eight
 *     saturated 4-bit values per word), multiplied by packed int4 weights
 *     with m16n8k64 over K.
 *
 * Every result is an exact integer: compared bit for bit with the host.
 * The m16n8 shapes and .and.popc need sm_80: the kernels are compiled into
 * the compute_80 PTX (the compute_75 PTX holds only arch_probe's answer,
 * and the sample says it skipped on an older device).
 */
#include <mma.h>

#include <vector>

#include "sample.h"

using namespace nvcuda;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define SM80(...) __VA_ARGS__
#else
#define SM80(...)
#endif

__global__ void arch_probe(int *arch)
{
#ifdef __CUDA_ARCH__
    *arch = __CUDA_ARCH__;
#endif
}

/* ---- 1. mma.sync forms ---------------------------------------------------- */

/* One mma per warp: each lane reads its NA/NB/NC registers (lane-major) and
 * writes its NC results. */
#define MMA_KERNEL(name, NA, NB, NC, ptx, ...)                                                  \
    __global__ void name(const unsigned *a, const unsigned *b, const int *c, int *d)          \
    {                                                                                           \
        SM80(unsigned l = threadIdx.x, ra[NA], rb[NB];                                          \
             int rc[NC], rd[NC];                                                                \
             for (int i = 0; i < NA; i++) ra[i] = a[l * NA + i];                                \
             for (int i = 0; i < NB; i++) rb[i] = b[l * NB + i];                                \
             for (int i = 0; i < NC; i++) rc[i] = c[l * NC + i];                                \
             asm volatile(ptx : __VA_ARGS__);                                                   \
             for (int i = 0; i < NC; i++) d[l * NC + i] = rd[i];)                               \
    }

MMA_KERNEL(mma_m8n8k32_s4s4, 1, 1, 2,
           "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0,%1}, {%2}, {%3}, {%4,%5};",
           "=r"(rd[0]), "=r"(rd[1]) : "r"(ra[0]), "r"(rb[0]), "r"(rc[0]), "r"(rc[1]))
MMA_KERNEL(mma_m8n8k32_u4s4_sat, 1, 1, 2,
           "mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32 {%0,%1}, {%2}, {%3}, {%4,%5};",
           "=r"(rd[0]), "=r"(rd[1]) : "r"(ra[0]), "r"(rb[0]), "r"(rc[0]), "r"(rc[1]))
MMA_KERNEL(mma_m16n8k32_u4u4, 2, 1, 4,
           "mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};",
           "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]),
           "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]))
MMA_KERNEL(mma_m16n8k64_s4u4, 4, 2, 4,
           "mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
           "{%10,%11,%12,%13};",
           "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
           "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]))
MMA_KERNEL(mma_m8n8k128_xor, 1, 1, 2,
           "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0,%1}, {%2}, {%3}, {%4,%5};",
           "=r"(rd[0]), "=r"(rd[1]) : "r"(ra[0]), "r"(rb[0]), "r"(rc[0]), "r"(rc[1]))
MMA_KERNEL(mma_m16n8k128_and, 2, 1, 4,
           "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, "
           "{%7,%8,%9,%10};",
           "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]),
           "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]))
MMA_KERNEL(mma_m16n8k256_xor, 4, 2, 4,
           "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
           "{%10,%11,%12,%13};",
           "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
           "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]))

/* The layout tables (PTX ISA, "Matrix fragments for mma.m8n8k32",
 * "mma.m16n8k32", "mma.m16n8k64", "mma.m8n8k128", "mma.m16n8k128",
 * "mma.m16n8k256"): element i of lane l's fragment, with groupID g = l/4
 * and threadID_in_group t = l%4; `bits` elements per 32-bit register,
 * element 0 in the low bits. */
struct form {
    const char *name;
    void (*kernel)(const unsigned *, const unsigned *, const int *, int *);
    int M, N, K, bits;              /* bits: 4 or 1 */
    bool a_signed, b_signed, sat, and_op;
};

static void a_coord(const form &f, int l, int i, int *row, int *col)
{
    int g = l / 4, t = l % 4, per = 32 / f.bits, j = i / per, e = i % per;
    int regs = f.M * f.K * f.bits / 32 / 32;
    if (regs == 1)                                  /* m8n8k32, m8n8k128 */
        *row = g, *col = t * per + e;
    else if (regs == 2)                             /* m16n8k32, m16n8k128: rows g, g + 8 */
        *row = g + 8 * j, *col = t * per + e;
    else                                            /* m16n8k64, m16n8k256: then K's second half */
        *row = g + 8 * (j % 2), *col = t * per + e + (j / 2) * 4 * per;
}

static void b_coord(const form &f, int l, int i, int *row, int *col)
{
    int g = l / 4, t = l % 4, per = 32 / f.bits, j = i / per, e = i % per;
    *row = t * per + e + j * 4 * per;               /* a second register: K's second half */
    *col = g;
}

static void c_coord(const form &f, int l, int i, int *row, int *col)
{
    int g = l / 4, t = l % 4;
    *row = g + 8 * (i / 2);                          /* (m8n8: i < 2) */
    *col = 2 * t + i % 2;
    (void)f;
}

static int element(unsigned v, bool sign, int bits)
{
    if (bits == 1)
        return v & 1;
    int x = v & 15;
    return sign && x >= 8 ? x - 16 : x;
}

static void free_buffers(void *a, void *b, void *c, void *d)
{
    for (void *p : { a, b, c, d })
        CHECK(cudaFree(p));
}

static bool run_form(const form &f, lcg &rng, int rounds, long *checks)
{
    int na = f.M * f.K * f.bits / 32 / 32, nb = f.K * f.N * f.bits / 32 / 32, nc = f.M * f.N / 32;
    std::vector<unsigned> ha(32 * na), hb(32 * nb);
    std::vector<int> hc(32 * nc), hd(32 * nc);
    unsigned *da, *db;
    int *dc, *dd;
    CHECK(cudaMalloc(&da, ha.size() * 4));
    CHECK(cudaMalloc(&db, hb.size() * 4));
    CHECK(cudaMalloc(&dc, hc.size() * 4));
    CHECK(cudaMalloc(&dd, hd.size() * 4));
    bool ok = true;
    for (int round = 0; round < rounds && ok; round++) {
        for (auto &v : ha) v = rng.next() ^ rng.next() << 16;
        for (auto &v : hb) v = rng.next() ^ rng.next() << 16;
        for (auto &v : hc) {
            v = (int)(rng.next() % 2001) - 1000;
            /* .satfinite: accumulators near the limits, so that some sums clamp. */
            if (f.sat && round % 2)
                v = (rng.next() & 1) ? INT32_MAX - (int)(rng.next() % 200) : INT32_MIN + (int)(rng.next() % 200);
        }
        CHECK(cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dc, hc.data(), hc.size() * 4, cudaMemcpyHostToDevice));
        f.kernel<<<1, 32>>>(da, db, dc, dd);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(hd.data(), dd, hd.size() * 4, cudaMemcpyDeviceToHost));
        /* The matrices, from the lanes' registers. */
        std::vector<int> A(f.M * f.K), B(f.K * f.N), C(f.M * f.N);
        int per = 32 / f.bits;
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < na * per; i++) {
                int r, c;
                a_coord(f, l, i, &r, &c);
                A[r * f.K + c] = element(ha[l * na + i / per] >> (i % per * f.bits), f.a_signed, f.bits);
            }
            for (int i = 0; i < nb * per; i++) {
                int r, c;
                b_coord(f, l, i, &r, &c);
                B[r * f.N + c] = element(hb[l * nb + i / per] >> (i % per * f.bits), f.b_signed, f.bits);
            }
            for (int i = 0; i < nc; i++) {
                int r, c;
                c_coord(f, l, i, &r, &c);
                C[r * f.N + c] = hc[l * nc + i];
            }
        }
        for (int l = 0; l < 32 && ok; l++)
            for (int i = 0; i < nc; i++) {
                int r, c;
                c_coord(f, l, i, &r, &c);
                long long s = C[r * f.N + c];
                for (int k = 0; k < f.K; k++) {
                    int x = A[r * f.K + k], y = B[k * f.N + c];
                    s += f.bits == 1 ? (f.and_op ? x & y : x ^ y) : (long long)x * y;
                }
                if (f.sat)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                int want = (int)(unsigned)(unsigned long long)s;
                ++*checks;
                if (hd[l * nc + i] != want) {
                    std::printf("  %s: D[%d][%d] = %d, expected %d (lane %d, element %d)\n", f.name, r, c,
                                hd[l * nc + i], want, l, i);
                    ok = false;
                    break;
                }
            }
    }
    free_buffers(da, db, dc, dd);
    return ok;
}

/* ---- 2. WMMA's experimental sub-byte fragments ---------------------------- */

template <typename T, int K>
__global__ void wmma_subbyte(const void *a, const void *b, const int *c, int *d, int lda, int ldb)
{
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 8, 8, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, K, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, K, int> acc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(acc, c, 8, wmma::mem_row_major);
    if constexpr (K == 128)
        wmma::bmma_sync(acc, fa, fb, acc, wmma::experimental::bmmaBitOpXOR);
    else
        wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
#endif
}

/* A (8 x K, rows lda elements apart) and B (K x 8, columns ldb apart) as
 * packed bits in memory: element e of a row at bit e * bits. */
static int packed_at(const std::vector<unsigned> &m, long e, int bits, bool sign)
{
    return element(m[e * bits / 32] >> (e * bits % 32), sign, bits);
}

template <typename T, int K>
static bool run_wmma(const char *name, int bits, bool sign, lcg &rng, long *checks)
{
    int lda = K + 2 * 32 / bits, ldb = K + 32 / bits;          /* padded rows, as tiles in a larger matrix */
    std::vector<unsigned> ha(8 * lda * bits / 32), hb(8 * ldb * bits / 32);
    std::vector<int> hc(64), hd(64);
    for (auto &v : ha) v = rng.next() ^ rng.next() << 16;
    for (auto &v : hb) v = rng.next() ^ rng.next() << 16;
    for (auto &v : hc) v = (int)(rng.next() % 201) - 100;
    unsigned *da, *db;
    int *dc, *dd;
    CHECK(cudaMalloc(&da, ha.size() * 4));
    CHECK(cudaMalloc(&db, hb.size() * 4));
    CHECK(cudaMalloc(&dc, 256));
    CHECK(cudaMalloc(&dd, 256));
    CHECK(cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc.data(), 256, cudaMemcpyHostToDevice));
    wmma_subbyte<T, K><<<1, 32>>>(da, db, dc, dd, lda, ldb);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hd.data(), dd, 256, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < 8 && ok; r++)
        for (int c = 0; c < 8; c++) {
            int s = hc[r * 8 + c];
            for (int k = 0; k < K; k++) {
                int x = packed_at(ha, (long)r * lda + k, bits, sign), y = packed_at(hb, (long)c * ldb + k, bits, sign);
                s += bits == 1 ? x ^ y : x * y;
            }
            ++*checks;
            if (hd[r * 8 + c] != s) {
                std::printf("  %s: D[%d][%d] = %d, expected %d\n", name, r, c, hd[r * 8 + c], s);
                ok = false;
                break;
            }
        }
    free_buffers(da, db, dc, dd);
    return ok;
}

/* ---- 3. A quantised int4 linear layer --------------------------------------- */

/* x (M x K floats) quantised to s4 with one scale: q = clamp(rni(x / scale)),
 * eight to a word by cvt.pack.sat.s4 (pairs: b low, a above it, then the
 * rest of the word from c). */
__global__ void quantise_s4(const float *x, unsigned *q, int n_words, float inv_scale)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= n_words)
        return;
    int v[8];
    for (int e = 0; e < 8; e++)
        asm("cvt.rni.s32.f32 %0, %1;" : "=r"(v[e]) : "f"(x[w * 8 + e] * inv_scale));
    unsigned word = 0;
    for (int e = 6; e >= 0; e -= 2)     /* elements e (low) and e + 1 above it, below the pairs after them */
        asm("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(word) : "r"(v[e + 1]), "r"(v[e]), "r"(word));
    q[w] = word;
}

/* Y (M x N, s32) = Xq (M x K, s4, row-major words) * W (K x N, s4, stored
 * by columns: N rows of K), one warp per 16 x 8 tile, m16n8k64 over K. */
__global__ void gemm_s4(const unsigned *xq, const unsigned *w, int *y, int M, int N, int K)
{
#if __CUDA_ARCH__ >= 800
    int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8, l = threadIdx.x, g = l / 4, t = l % 4;
    int kw = K / 8;                     /* words per row */
    int acc[4] = { 0, 0, 0, 0 };
    for (int k0 = 0; k0 < K; k0 += 64) {
        unsigned a[4], b[2];
        for (int j = 0; j < 4; j++)
            a[j] = xq[(tile_m + g + 8 * (j % 2)) * kw + k0 / 8 + t + 4 * (j / 2)];
        for (int j = 0; j < 2; j++)
            b[j] = w[(tile_n + g) * kw + k0 / 8 + t + 4 * j];
        asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    for (int i = 0; i < 4; i++)
        y[(tile_m + g + 8 * (i / 2)) * N + tile_n + 2 * t + i % 2] = acc[i];
#endif
}

static bool run_linear(int M, int N, int K, lcg &rng, long *checks)
{
    const float scale = 0.25f;
    std::vector<float> x((size_t)M * K);
    for (auto &v : x) v = rng.uniform(-2.5f, 2.5f);        /* beyond 7 * 0.25: some saturate */
    std::vector<unsigned> w((size_t)N * K / 8), xq((size_t)M * K / 8);
    for (auto &v : w) v = rng.next() ^ rng.next() << 16;
    std::vector<int> y((size_t)M * N);
    float *dx;
    unsigned *dxq, *dw;
    int *dy;
    CHECK(cudaMalloc(&dx, x.size() * 4));
    CHECK(cudaMalloc(&dxq, xq.size() * 4));
    CHECK(cudaMalloc(&dw, w.size() * 4));
    CHECK(cudaMalloc(&dy, y.size() * 4));
    CHECK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice));
    int words = (int)xq.size();
    quantise_s4<<<(words + 127) / 128, 128>>>(dx, dxq, words, 1.0f / scale);
    gemm_s4<<<dim3(N / 8, M / 16), 32>>>(dxq, dw, dy, M, N, K);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(xq.data(), dxq, xq.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost));
    cudaFree(dx);
    cudaFree(dxq);
    cudaFree(dw);
    cudaFree(dy);
    /* The host's quantisation: round half to even, saturate to -8..7. */
    std::vector<int> q((size_t)M * K);
    for (size_t i = 0; i < q.size(); i++) {
        float r = std::nearbyint(x[i] * (1.0f / scale));
        q[i] = r < -8 ? -8 : r > 7 ? 7 : (int)r;
        ++*checks;
        if (packed_at(xq, (long)i, 4, true) != q[i]) {
            std::printf("  quantise: element %zu of x = %g gave %d, expected %d\n", i, x[i],
                        packed_at(xq, (long)i, 4, true), q[i]);
            return false;
        }
    }
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            int s = 0;
            for (int k = 0; k < K; k++)
                s += q[(size_t)r * K + k] * packed_at(w, (long)c * K + k, 4, true);
            ++*checks;
            if (y[(size_t)r * N + c] != s) {
                std::printf("  linear: Y[%d][%d] = %d, expected %d\n", r, c, y[(size_t)r * N + c], s);
                return false;
            }
        }
    return true;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "tensor_core_subbyte");
    int rounds = size == SIZE_TINY ? 4 : size == SIZE_SMALL ? 16 : 64;
    int M = size == SIZE_TINY ? 32 : size == SIZE_SMALL ? 128 : 256, N = M, K = size == SIZE_TINY ? 128 : 512;
    lcg rng(2026);
    int arch = 0, *darch;
    CHECK(cudaMalloc(&darch, sizeof arch));
    arch_probe<<<1, 1>>>(darch);
    CHECK(cudaMemcpy(&arch, darch, sizeof arch, cudaMemcpyDeviceToHost));
    if (arch < 800)
        return report(true, "(skipped: the device runs compute_75 PTX; these forms need sm_80)");
    const form forms[] = {
        { "m8n8k32.s4.s4", mma_m8n8k32_s4s4, 8, 8, 32, 4, true, true, false, false },
        { "m8n8k32.satfinite.u4.s4", mma_m8n8k32_u4s4_sat, 8, 8, 32, 4, false, true, true, false },
        { "m16n8k32.u4.u4", mma_m16n8k32_u4u4, 16, 8, 32, 4, false, false, false, false },
        { "m16n8k64.s4.u4", mma_m16n8k64_s4u4, 16, 8, 64, 4, true, false, false, false },
        { "m8n8k128.b1.xor.popc", mma_m8n8k128_xor, 8, 8, 128, 1, false, false, false, false },
        { "m16n8k128.b1.and.popc", mma_m16n8k128_and, 16, 8, 128, 1, false, false, false, true },
        { "m16n8k256.b1.xor.popc", mma_m16n8k256_xor, 16, 8, 256, 1, false, false, false, false },
    };
    long checks = 0;
    bool ok = true;
    for (const form &f : forms)
        ok &= run_form(f, rng, rounds, &checks);
    ok &= run_wmma<wmma::experimental::precision::s4, 32>("wmma m8n8k32 s4", 4, true, rng, &checks);
    ok &= run_wmma<wmma::experimental::precision::u4, 32>("wmma m8n8k32 u4", 4, false, rng, &checks);
    ok &= run_wmma<wmma::experimental::precision::b1, 128>("wmma m8n8k128 b1 xor", 1, false, rng, &checks);
    ok &= run_linear(M, N, K, rng, &checks);
    char detail[96];
    std::snprintf(detail, sizeof detail, "size=%s: %ld results exact (7 mma forms, 3 wmma, an int4 layer)",
                  size_name(size), checks);
    return report(ok, detail);
}

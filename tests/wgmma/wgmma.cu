// wgmma.cu -- Hopper's warpgroup matrix multiply (wgmma.mma_async, PTX ISA
// 9.7.15) through inline PTX, built with nvcc -arch=sm_90a, checked against
// a plain host matrix multiply.  Prints "PASS wgmma N checks" or the first
// failures.
//
// Each kernel is one wgmma form (the immediates -- scales and transposes --
// are part of the instruction text); each runs with every swizzle mode of
// the matrix descriptors and with scale-d 0 and 1.  The host places A (64 x
// K) and B (K x N) in a shared-memory image by the ISA's canonical layouts,
// written here as the ISA writes them (shape and stride tuples of core
// matrices, 16-byte "T" groups of elements, then the address swizzle), and
// builds the descriptors; the kernel copies the image into shared memory,
// loads D (and A, for the register forms) from global memory by the ISA's
// fragment layouts, runs fence / mma_async / commit_group / wait_group 0
// and stores D back.  Inputs are small integers, so every result is exact
// in every accumulator type.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <vector>

static int failures, checks;
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        checks++;                                                             \
        if (!(cond) && failures++ < 20) {                                     \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                       \
            printf(__VA_ARGS__);                                              \
            printf("\n");                                                     \
        }                                                                     \
    } while (0)
#define CUDA(call)                                                            \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));           \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

// ---- the PTX: D lives in .b32 registers dA0..dH15 (16 a block) ---------
#define R_(X, i) "%%" #X #i
#define LD_(X, i, o) "ld.global.b32 %%" #X #i ", [pd+" #o "];\n"
#define ST_(X, i, o) "st.global.b32 [po+" #o "], %%" #X #i ";\n"
#define LIST16(X) R_(X, 0) ", " R_(X, 1) ", " R_(X, 2) ", " R_(X, 3) ", " R_(X, 4) ", " R_(X, 5) ", " R_(X, 6) ", " R_(X, 7) ", " R_(X, 8) ", " R_(X, 9) ", " R_(X, 10) ", " R_(X, 11) ", " R_(X, 12) ", " R_(X, 13) ", " R_(X, 14) ", " R_(X, 15)
#define LD16(X) LD_(X, 0, 0) LD_(X, 1, 4) LD_(X, 2, 8) LD_(X, 3, 12) LD_(X, 4, 16) LD_(X, 5, 20) LD_(X, 6, 24) LD_(X, 7, 28) LD_(X, 8, 32) LD_(X, 9, 36) LD_(X, 10, 40) LD_(X, 11, 44) LD_(X, 12, 48) LD_(X, 13, 52) LD_(X, 14, 56) LD_(X, 15, 60) "add.s64 pd, pd, 64;\n"
#define ST16(X) ST_(X, 0, 0) ST_(X, 1, 4) ST_(X, 2, 8) ST_(X, 3, 12) ST_(X, 4, 16) ST_(X, 5, 20) ST_(X, 6, 24) ST_(X, 7, 28) ST_(X, 8, 32) ST_(X, 9, 36) ST_(X, 10, 40) ST_(X, 11, 44) ST_(X, 12, 48) ST_(X, 13, 52) ST_(X, 14, 56) ST_(X, 15, 60) "add.s64 po, po, 64;\n"
#define LIST2 R_(dA, 0) ", " R_(dA, 1)
#define LIST4 LIST2 ", " R_(dA, 2) ", " R_(dA, 3)
#define LIST32 LIST16(dA) ", " LIST16(dB)
#define LIST64 LIST32 ", " LIST16(dC) ", " LIST16(dD)
#define LIST128 LIST64 ", " LIST16(dE) ", " LIST16(dF) ", " LIST16(dG) ", " LIST16(dH)
#define LD2 LD_(dA, 0, 0) LD_(dA, 1, 4)
#define LD4 LD2 LD_(dA, 2, 8) LD_(dA, 3, 12)
#define LD32 LD16(dA) LD16(dB)
#define LD64 LD32 LD16(dC) LD16(dD)
#define LD128 LD64 LD16(dE) LD16(dF) LD16(dG) LD16(dH)
#define ST2 ST_(dA, 0, 0) ST_(dA, 1, 4)
#define ST4 ST2 ST_(dA, 2, 8) ST_(dA, 3, 12)
#define ST32 ST16(dA) ST16(dB)
#define ST64 ST32 ST16(dC) ST16(dD)
#define ST128 ST64 ST16(dE) ST16(dF) ST16(dG) ST16(dH)
#define AREGS "{%%a0, %%a1, %%a2, %%a3}"

// One kernel a form: operands %0 D in, %1 D out (this thread's registers),
// %2 A's descriptor, %3 B's, %4 scale-d, %5 this thread's A registers.
#define WG_KERNEL(NAME, NREG, INSTR)                                                              \
    __global__ void NAME(const uint4 *img, int img_words, const uint32_t *dinit, uint32_t *dout,    \
                         uint64_t da, uint64_t db, int scale, const uint32_t *areg)               \
    {                                                                                             \
        extern __shared__ __align__(1024) uint4 smem[];                                           \
        for (int i = threadIdx.x; i < img_words; i += blockDim.x)                                 \
            smem[i] = img[i];                                                                     \
        __syncthreads();                                                                          \
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                              \
        uint64_t base = ((uint64_t)__cvta_generic_to_shared(smem) & 0x3FFFF) >> 4;                \
        da += base;                                                                               \
        db += base;                                                                               \
        const uint32_t *pi = dinit + threadIdx.x * NREG, *pa = areg + threadIdx.x * 4;            \
        uint32_t *po = dout + threadIdx.x * NREG;                                                 \
        asm volatile("{\n .reg .b32 %%dA<16>, %%dB<16>, %%dC<16>, %%dD<16>, %%dE<16>, %%dF<16>, %%dG<16>, %%dH<16>;\n" \
                     " .reg .b32 %%a<4>;\n .reg .b64 pd, po;\n .reg .pred p;\n"                     \
                     "mov.b64 pd, %0;\nmov.b64 po, %1;\nsetp.ne.s32 p, %4, 0;\n"                  \
                     "ld.global.b32 %%a0, [%5];\nld.global.b32 %%a1, [%5+4];\n"                   \
                     "ld.global.b32 %%a2, [%5+8];\nld.global.b32 %%a3, [%5+12];\n"                \
                     LD##NREG "wgmma.fence.sync.aligned;\n" INSTR                                 \
                     "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n"       \
                     ST##NREG "}\n"                                                               \
                     :: "l"(pi), "l"(po), "l"(da), "l"(db), "r"(scale), "l"(pa) : "memory");      \
    }

#define WG(shape_types, dlist, a, imms) \
    "wgmma.mma_async.sync.aligned." shape_types " {" dlist "}, " a ", %3, p" imms ";\n"

WG_KERNEL(k_f16_n64, 32, WG("m64n64k16.f32.f16.f16", LIST32, "%2", ", 1, 1, 0, 0"))
WG_KERNEL(k_f16_n64_t, 32, WG("m64n64k16.f32.f16.f16", LIST32, "%2", ", -1, 1, 1, 1"))
WG_KERNEL(k_f16_n8_h, 2, WG("m64n8k16.f16.f16.f16", LIST2, "%2", ", 1, -1, 0, 1"))
WG_KERNEL(k_bf16_n256_t, 128, WG("m64n256k16.f32.bf16.bf16", LIST128, "%2", ", 1, 1, 1, 0"))
WG_KERNEL(k_bf16_n64_r, 32, WG("m64n64k16.f32.bf16.bf16", LIST32, AREGS, ", 1, 1, 1"))
WG_KERNEL(k_f16_n8_r, 4, WG("m64n8k16.f32.f16.f16", LIST4, AREGS, ", -1, -1, 0"))
WG_KERNEL(k_f16_n256_hr, 64, WG("m64n256k16.f16.f16.f16", LIST64, AREGS, ", 1, 1, 1"))
WG_KERNEL(k_tf32_n64, 32, WG("m64n64k8.f32.tf32.tf32", LIST32, "%2", ", 1, 1"))
WG_KERNEL(k_tf32_n8_r, 4, WG("m64n8k8.f32.tf32.tf32", LIST4, AREGS, ", -1, 1"))
WG_KERNEL(k_e4m3_e5m2_n64, 32, WG("m64n64k32.f32.e4m3.e5m2", LIST32, "%2", ", 1, 1"))
WG_KERNEL(k_e5m2_e4m3_n256_h, 64, WG("m64n256k32.f16.e5m2.e4m3", LIST64, "%2", ", 1, -1"))
WG_KERNEL(k_e4m3_n8_r, 4, WG("m64n8k32.f32.e4m3.e4m3", LIST4, AREGS, ", -1, -1"))
WG_KERNEL(k_e5m2_n64_r, 32, WG("m64n64k32.f32.e5m2.e5m2", LIST32, AREGS, ", 1, 1"))
WG_KERNEL(k_s8u8_n64, 32, WG("m64n64k32.s32.s8.u8", LIST32, "%2", ""))
WG_KERNEL(k_u8s8_n256_sat, 128, WG("m64n256k32.satfinite.s32.u8.s8", LIST128, "%2", ""))
WG_KERNEL(k_s8_n8_r, 4, WG("m64n8k32.s32.s8.s8", LIST4, AREGS, ""))
WG_KERNEL(k_u8_n64_r_sat, 32, WG("m64n64k32.satfinite.s32.u8.u8", LIST32, AREGS, ""))

typedef void (*wg_fn)(const uint4 *, int, const uint32_t *, uint32_t *, uint64_t, uint64_t, int, const uint32_t *);

// ---- the host side ------------------------------------------------------
enum ty { F16, BF16, TF32, E4M3, E5M2, S8, U8, F32, S32 };
static unsigned ty_bytes(ty t) { return t == F16 || t == BF16 ? 2 : t == TF32 || t == F32 || t == S32 ? 4 : 1; }

struct form {
    const char *name;
    wg_fn fn;
    unsigned n, k;
    ty d, a, b;
    bool a_regs;
    int scale_a, scale_b;
    bool trans_a, trans_b, sat;
};

static const form forms[] = {
    { "m64n64k16.f32.f16.f16", k_f16_n64, 64, 16, F32, F16, F16, false, 1, 1, false, false, false },
    { "m64n64k16.f32.f16.f16 -A, A and B transposed", k_f16_n64_t, 64, 16, F32, F16, F16, false, -1, 1, true, true, false },
    { "m64n8k16.f16.f16.f16 -B, B transposed", k_f16_n8_h, 8, 16, F16, F16, F16, false, 1, -1, false, true, false },
    { "m64n256k16.f32.bf16.bf16 A transposed", k_bf16_n256_t, 256, 16, F32, BF16, BF16, false, 1, 1, true, false, false },
    { "m64n64k16.f32.bf16.bf16 A in registers, B transposed", k_bf16_n64_r, 64, 16, F32, BF16, BF16, true, 1, 1, false, true, false },
    { "m64n8k16.f32.f16.f16 A in registers, -A, -B", k_f16_n8_r, 8, 16, F32, F16, F16, true, -1, -1, false, false, false },
    { "m64n256k16.f16.f16.f16 A in registers, B transposed", k_f16_n256_hr, 256, 16, F16, F16, F16, true, 1, 1, false, true, false },
    { "m64n64k8.f32.tf32.tf32", k_tf32_n64, 64, 8, F32, TF32, TF32, false, 1, 1, false, false, false },
    { "m64n8k8.f32.tf32.tf32 A in registers, -A", k_tf32_n8_r, 8, 8, F32, TF32, TF32, true, -1, 1, false, false, false },
    { "m64n64k32.f32.e4m3.e5m2", k_e4m3_e5m2_n64, 64, 32, F32, E4M3, E5M2, false, 1, 1, false, false, false },
    { "m64n256k32.f16.e5m2.e4m3 -B", k_e5m2_e4m3_n256_h, 256, 32, F16, E5M2, E4M3, false, 1, -1, false, false, false },
    { "m64n8k32.f32.e4m3.e4m3 A in registers, -A, -B", k_e4m3_n8_r, 8, 32, F32, E4M3, E4M3, true, -1, -1, false, false, false },
    { "m64n64k32.f32.e5m2.e5m2 A in registers", k_e5m2_n64_r, 64, 32, F32, E5M2, E5M2, true, 1, 1, false, false, false },
    { "m64n64k32.s32.s8.u8", k_s8u8_n64, 64, 32, S32, S8, U8, false, 1, 1, false, false, false },
    { "m64n256k32.satfinite.s32.u8.s8", k_u8s8_n256_sat, 256, 32, S32, U8, S8, false, 1, 1, false, false, true },
    { "m64n8k32.s32.s8.s8 A in registers", k_s8_n8_r, 8, 32, S32, S8, S8, true, 1, 1, false, false, false },
    { "m64n64k32.satfinite.s32.u8.u8 A in registers", k_u8_n64_r_sat, 64, 32, S32, U8, U8, true, 1, 1, false, false, true },
};

// The bits of a small integer v in an input type (exact in each).
static uint32_t encode(ty t, int v)
{
    switch (t) {
    case F16: { __half h = __float2half((float)v); uint16_t u; memcpy(&u, &h, 2); return u; }
    case BF16: { __nv_bfloat16 h = __float2bfloat16((float)v); uint16_t u; memcpy(&u, &h, 2); return u; }
    case TF32: case F32: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); return u; }
    case E4M3: { __nv_fp8_e4m3 q((float)v); uint8_t u; memcpy(&u, &q, 1); return u; }
    case E5M2: { __nv_fp8_e5m2 q((float)v); uint8_t u; memcpy(&u, &q, 1); return u; }
    default: return (uint32_t)v & (ty_bytes(t) == 1 ? 0xFFu : 0xFFFFFFFFu);
    }
}

// D's element value from its bits.
static double decode_d(ty t, uint32_t bits)
{
    if (t == F16) { uint16_t u = (uint16_t)bits; __half h; memcpy(&h, &u, 2); return __half2float(h); }
    if (t == F32) { float f; memcpy(&f, &bits, 4); return f; }
    return (double)(int32_t)bits;
}

// ---- shared-memory layouts (PTX ISA 9.7.15.5.1.2) ----------------------
// An element's byte offset before swizzling, from the canonical layouts
// the ISA gives as (shape):(stride) tuples over the M/N index and the K
// index (T = elements in 16 bytes, W = swizzle bytes, strides in elements
// except LBO and SBO, which are bytes):
//   K-major  none  ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//   K-major  W     ((8,m),(T,2k)):((W/16 T,SBO),(1,T))
//   MN-major none  ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//   MN-major W     ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))
struct mode { unsigned n; unsigned shape[3]; uint64_t stride[3]; };   // strides in bytes

static uint64_t eval(const mode &m, unsigned x)
{
    uint64_t off = 0;
    for (unsigned i = 0; i < m.n; i++) {
        unsigned c = i + 1 < m.n ? x % m.shape[i] : x;      // the last mode takes the rest
        off += c * m.stride[i];
        x = i + 1 < m.n ? x / m.shape[i] : 0;
    }
    return off;
}

struct layout { mode mn, k; unsigned width; uint64_t lbo, sbo; };

// The layout of a matrix with eb-byte elements, MN extent mn_ext, in
// swizzle mode sw (0 none, 1 128B, 2 64B, 3 32B); LBO and SBO are chosen
// with gaps, so that exchanging them, or ignoring one, shows.
static layout make_layout(bool mn_major, unsigned eb, unsigned sw, unsigned mn_ext)
{
    static const unsigned widths[4] = { 0, 128, 64, 32 };
    unsigned T = 16 / eb, W = widths[sw];
    layout L;
    L.width = W;
    if (!mn_major && !W) {              // core matrices: 8 rows x 16 bytes; 2 along K
        L.lbo = 128;
        L.sbo = 2 * 128 + 64;
        L.mn = { 2, { 8, 0, 0 }, { 16, L.sbo, 0 } };
        L.k = { 2, { T, 0, 0 }, { eb, L.lbo, 0 } };
    } else if (!mn_major) {             // 8 rows of W bytes a pattern
        L.lbo = 16;                     // "not used"
        L.sbo = W == 128 ? 8 * W : 2 * 8 * W;   // (a gap but for 128B, to fit 48 KB)
        L.mn = { 2, { 8, 0, 0 }, { W, L.sbo, 0 } };
        L.k = { 2, { T, 0, 0 }, { eb, 16, 0 } };
    } else if (!W) {                    // core matrices: 8 K-rows x 16 bytes of M/N
        L.lbo = 128 + 32;
        L.sbo = 2 * L.lbo + 64;
        L.mn = { 3, { T, 1, 0 }, { eb, 16, L.sbo } };
        L.k = { 2, { 8, 0, 0 }, { 16, L.lbo, 0 } };
    } else {                            // 8 K-rows of W bytes of M/N a pattern
        L.sbo = 8 * W;                  // the next 8 K-rows
        L.lbo = 3 * 8 * W;              // the next W bytes of M/N (a gap of one pattern)
        L.mn = { 3, { T, W / 16, 0 }, { eb, 16, L.lbo } };
        L.k = { 2, { 8, 0, 0 }, { W, L.sbo, 0 } };
    }
    (void)mn_ext;
    return L;
}

// The swizzle: in each repeating pattern (8 rows of W bytes), the 16-byte
// chunk index (address bits 4 and up) XOR the row (bits 7 and up), as many
// bits as a row has chunks.
static uint64_t swizzle(uint64_t addr, unsigned W)
{
    if (!W)
        return addr;
    uint64_t bits = W / 16 - 1;
    return addr ^ (((addr >> 7) & bits) << 4);
}

static uint64_t place(const layout &L, unsigned mn, unsigned k) { return swizzle(eval(L.mn, mn) + eval(L.k, k), L.width); }

static uint64_t descriptor(uint64_t start, const layout &L, unsigned sw)
{
    return (start >> 4 & 0x3FFF) | (L.lbo >> 4 & 0x3FFF) << 16 | (L.sbo >> 4 & 0x3FFF) << 32 | (uint64_t)sw << 62;
}

// ---- fragments (PTX ISA 9.7.15.5.1.1) -----------------------------------
// D: thread t of the warpgroup, warp w = t / 32, lane group g = lane / 4,
// q = lane % 4; its element e is at row 16w + g + 8 * (e / 2 % 2), column
// 8 * (e / 4) + 2q + e % 2 (two elements a register for .f16).
static void d_coord(unsigned t, unsigned e, unsigned *r, unsigned *c)
{
    unsigned w = t / 32, l = t % 32, g = l / 4, q = l % 4;
    *r = 16 * w + g + 8 * (e / 2 % 2);
    *c = 8 * (e / 4) + 2 * q + e % 2;
}

// A in registers (four .b32): .f16/.bf16 eight elements, rows g and g + 8
// alternating by pairs, columns 2q.. then 2q + 8..; .tf32 four, (g, q),
// (g + 8, q), (g, q + 4), (g + 8, q + 4); 8-bit sixteen, four a register,
// columns 4q.. then 4q + 16...
static void a_coord(ty a, unsigned t, unsigned e, unsigned *r, unsigned *c)
{
    unsigned w = t / 32, l = t % 32, g = l / 4, q = l % 4;
    unsigned per = 4 / ty_bytes(a), j = e / per;          // j: the register
    *r = 16 * w + g + 8 * (j % 2);
    *c = (j / 2) * 4 * per + q * per + e % per;
}

static int rnd(int lo, int hi) { return lo + rand() % (hi - lo + 1); }

static void run_form(const form &f, unsigned sw, int scale_d)
{
    const unsigned M = 64, N = f.n, K = f.k, eba = ty_bytes(f.a), ebb = ty_bytes(f.b);
    bool ints = f.d == S32;
    std::vector<int> A(M * K), B(K * N), D0(M * N);
    for (auto &v : A) v = f.a == U8 ? rnd(0, 5) : rnd(-3, 3);
    for (auto &v : B) v = f.b == U8 ? rnd(0, 5) : rnd(-3, 3);
    for (auto &v : D0) v = rnd(-20, 20);
    // Shared-memory image (48 KB, which every GPU has): A from 0, B from
    // 16 KB (both pattern-aligned).
    layout LA = make_layout(f.trans_a, eba, sw, M), LB = make_layout(f.trans_b, ebb, sw, N);
    const uint64_t b_at = 16384;
    std::vector<uint8_t> img(b_at + 32768, 0xEE);         // unplaced bytes: garbage
    if (!f.a_regs)
        for (unsigned i = 0; i < M; i++)
            for (unsigned k = 0; k < K; k++) {
                uint64_t at = place(LA, i, k);
                uint32_t bits = encode(f.a, A[i * K + k]);
                if (at + eba > b_at) { CHECK(false, "%s: A does not fit", f.name); return; }
                memcpy(&img[at], &bits, eba);
            }
    for (unsigned j = 0; j < N; j++)
        for (unsigned k = 0; k < K; k++) {
            uint64_t at = b_at + place(LB, j, k);
            uint32_t bits = encode(f.b, B[k * N + j]);
            if (at + ebb > img.size()) { CHECK(false, "%s: B does not fit", f.name); return; }
            memcpy(&img[at], &bits, ebb);
        }
    // D's registers in, A's registers, by the fragment layouts.
    unsigned nd = N / 2, nreg = f.d == F16 ? N / 4 : N / 2;
    std::vector<uint32_t> din(128 * nreg, 0), areg(128 * 4, 0);
    int32_t big = 2147483647 - 600;                        // near the top: .satfinite shows
    for (unsigned t = 0; t < 128; t++)
        for (unsigned e = 0; e < nd; e++) {
            unsigned r, c;
            d_coord(t, e, &r, &c);
            if (f.sat && (r + c) % 3 == 0)
                D0[r * N + c] = big + (int)(r % 7) * 100;
            uint32_t bits = f.d == F16 ? encode(F16, D0[r * N + c]) : f.d == F32 ? encode(F32, D0[r * N + c])
                                                                               : (uint32_t)D0[r * N + c];
            if (f.d == F16)
                din[t * nreg + e / 2] |= bits << (16 * (e % 2));
            else
                din[t * nreg + e] = bits;
        }
    if (f.a_regs)
        for (unsigned t = 0; t < 128; t++)
            for (unsigned e = 0; e < 16 / eba; e++) {
                unsigned r, c, per = 4 / eba;
                a_coord(f.a, t, e, &r, &c);
                areg[t * 4 + e / per] |= encode(f.a, A[r * K + c]) << (8 * eba * (e % per));
            }
    uint8_t *d_img;
    uint32_t *d_din, *d_dout, *d_areg;
    CUDA(cudaMalloc(&d_img, img.size()));
    CUDA(cudaMalloc(&d_din, din.size() * 4));
    CUDA(cudaMalloc(&d_dout, din.size() * 4));
    CUDA(cudaMalloc(&d_areg, areg.size() * 4));
    CUDA(cudaMemcpy(d_img, img.data(), img.size(), cudaMemcpyHostToDevice));
    CUDA(cudaMemcpy(d_din, din.data(), din.size() * 4, cudaMemcpyHostToDevice));
    CUDA(cudaMemcpy(d_areg, areg.data(), areg.size() * 4, cudaMemcpyHostToDevice));
    CUDA(cudaMemset(d_dout, 0xFF, din.size() * 4));
    int smem = (int)img.size();
    f.fn<<<1, 128, smem>>>((const uint4 *)d_img, smem / 16, d_din, d_dout, descriptor(0, LA, sw),
                           descriptor(b_at, LB, sw), scale_d, d_areg);
    CUDA(cudaGetLastError());
    CUDA(cudaDeviceSynchronize());
    std::vector<uint32_t> dout(din.size());
    CUDA(cudaMemcpy(dout.data(), d_dout, dout.size() * 4, cudaMemcpyDeviceToHost));
    CUDA(cudaFree(d_img));
    CUDA(cudaFree(d_din));
    CUDA(cudaFree(d_dout));
    CUDA(cudaFree(d_areg));
    // The host's multiply, and D's registers against it.
    int bad = 0;
    for (unsigned t = 0; t < 128; t++)
        for (unsigned e = 0; e < nd; e++) {
            unsigned r, c;
            d_coord(t, e, &r, &c);
            int64_t s = scale_d ? D0[r * N + c] : 0;
            for (unsigned k = 0; k < K; k++)
                s += (int64_t)f.scale_a * A[r * K + k] * f.scale_b * B[k * N + c];
            if (ints && f.sat)
                s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            else if (ints)
                s = (int32_t)(uint32_t)s;
            uint32_t bits = f.d == F16 ? dout[t * nreg + e / 2] >> (16 * (e % 2)) & 0xFFFF : dout[t * nreg + e];
            double got = decode_d(f.d, bits);
            if (got != (double)s && bad++ < 3)
                CHECK(false, "%s, swizzle mode %u, scale-d %d: D[%u][%u] (thread %u, element %u) is %g, want %lld",
                      f.name, sw, scale_d, r, c, t, e, got, (long long)s);
        }
    CHECK(bad == 0, "%s, swizzle mode %u, scale-d %d: %d elements wrong", f.name, sw, scale_d, bad);
}

int main()
{
    srand(12345);
    for (const form &f : forms)
        for (unsigned sw = 0; sw < 4; sw++)
            for (int scale_d = 0; scale_d <= 1; scale_d++) {
                if (f.a_regs && !f.trans_b && sw && scale_d == 0)
                    continue;               // (A in registers: B's layouts get the swizzles)
                run_form(f, sw, scale_d);
            }
    if (failures) {
        printf("FAIL wgmma: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("PASS wgmma %d checks\n", checks);
    return 0;
}

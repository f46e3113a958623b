/*
 * simd_video.cu -- the SIMD video instructions (PTX ISA 9.7.18.2: vadd2
 * vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 and their four-byte forms) and
 * CUDA's SIMD intrinsics (__vadd2, __vcmpeq4, __vsads4, ...), which clang
 * compiles to those instructions and nvcc to some of them.
 *
 * Each of 384 instruction forms -- every op, each .dtype.atype.btype of
 * .u32/.s32, plain, .sat and .add; vset with each comparison -- runs through
 * inline asm with the default masks and selectors, and 57 intrinsics run as
 * called, on inputs that walk the edge bytes and half-words (0x7f, 0x80,
 * 0xff, 0x7fff, 0x8000, ...) and random words.  The host computes every
 * result from the ISA's pseudocode and the CUDA Math API's descriptions,
 * and first checks that reference against cases worked by hand and the
 * intrinsics' reference against the instructions' (__vsads4 is
 * vabsdiff4.s32.s32.s32.add with c = 0, and so on).
 */
#include "sample.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

// ---------------------------------------------------------------------------
// Form enumeration (shared by device and host through X-macros)
// kind: 0 = vop2, 1 = vop4, 2 = vset2, 3 = vset4
// mode: 0 = plain (SIMD merge), 1 = .sat (merge), 2 = .add (accumulate)
// type index: u32 -> 0, s32 -> 1
// ---------------------------------------------------------------------------
#define TIDX_u32       0
#define TIDX_s32       1
#define NUM_VOP_FORMS  (2 * 6 * 3 * 8) // 288
#define NUM_VSET_FORMS (2 * 6 * 2 * 4) // 96
#define NUM_FORMS      (NUM_VOP_FORMS + NUM_VSET_FORMS)

#define VOP_ID(K, OPI, MODE, D, A, B)                                                                        \
    ((((K)*6 + (OPI)) * 3 + (MODE)) * 8 + TIDX_##D * 4 + TIDX_##A * 2 + TIDX_##B)
#define VSET_ID(K, CI, MODE, A, B)                                                                           \
    (NUM_VOP_FORMS + ((((K)-2) * 6 + (CI)) * 2 + ((MODE) == 2 ? 1 : 0)) * 4 + TIDX_##A * 2 + TIDX_##B)

// vop: 8 dtype/atype/btype combinations
#define VOP_TYPES(X, K, OPN, OPI, MODE, SUF)                                                                 \
    X(K, OPN, OPI, MODE, SUF, u32, u32, u32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, u32, u32, s32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, u32, s32, u32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, u32, s32, s32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, s32, u32, u32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, s32, u32, s32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, s32, s32, u32)                                                                 \
    X(K, OPN, OPI, MODE, SUF, s32, s32, s32)
#define VOP_MODES(X, K, OPN, OPI)                                                                            \
    VOP_TYPES(X, K, OPN, OPI, 0, "")                                                                         \
    VOP_TYPES(X, K, OPN, OPI, 1, ".sat")                                                                     \
    VOP_TYPES(X, K, OPN, OPI, 2, ".add")
#define VOP_ALL(X)                                                                                           \
    VOP_MODES(X, 0, vadd2, 0)                                                                                \
    VOP_MODES(X, 0, vsub2, 1) VOP_MODES(X, 0, vavrg2, 2) VOP_MODES(X, 0, vabsdiff2, 3)                       \
        VOP_MODES(X, 0, vmin2, 4) VOP_MODES(X, 0, vmax2, 5) VOP_MODES(X, 1, vadd4, 0)                        \
            VOP_MODES(X, 1, vsub4, 1) VOP_MODES(X, 1, vavrg4, 2) VOP_MODES(X, 1, vabsdiff4, 3)               \
                VOP_MODES(X, 1, vmin4, 4) VOP_MODES(X, 1, vmax4, 5)

// vset: 4 atype/btype combinations
#define VSET_TYPES(X, K, OPN, CMPN, CI, MODE, SUF)                                                           \
    X(K, OPN, CMPN, CI, MODE, SUF, u32, u32)                                                                 \
    X(K, OPN, CMPN, CI, MODE, SUF, u32, s32)                                                                 \
    X(K, OPN, CMPN, CI, MODE, SUF, s32, u32)                                                                 \
    X(K, OPN, CMPN, CI, MODE, SUF, s32, s32)
#define VSET_MODES(X, K, OPN, CMPN, CI)                                                                      \
    VSET_TYPES(X, K, OPN, CMPN, CI, 0, "")                                                                   \
    VSET_TYPES(X, K, OPN, CMPN, CI, 2, ".add")
#define VSET_CMPS(X, K, OPN)                                                                                 \
    VSET_MODES(X, K, OPN, eq, 0)                                                                             \
    VSET_MODES(X, K, OPN, ne, 1) VSET_MODES(X, K, OPN, lt, 2) VSET_MODES(X, K, OPN, le, 3)                   \
        VSET_MODES(X, K, OPN, gt, 4) VSET_MODES(X, K, OPN, ge, 5)
#define VSET_ALL(X) VSET_CMPS(X, 2, vset2) VSET_CMPS(X, 3, vset4)

// ---------------------------------------------------------------------------
// Device side
// ---------------------------------------------------------------------------
#define DEV_VOP_CASE(K, OPN, OPI, MODE, SUF, D, A, B)                                                        \
    case VOP_ID(K, OPI, MODE, D, A, B):                                                                      \
        asm volatile(#OPN "." #D "." #A "." #B SUF " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));   \
        break;
#define DEV_VSET_CASE(K, OPN, CMPN, CI, MODE, SUF, A, B)                                                     \
    case VSET_ID(K, CI, MODE, A, B):                                                                         \
        asm volatile(#OPN "." #A "." #B "." #CMPN SUF " %0, %1, %2, %3;"                                     \
                     : "=r"(d)                                                                               \
                     : "r"(a), "r"(b), "r"(c));                                                              \
        break;

__global__ void video_kernel(const uint32_t *__restrict__ A, const uint32_t *__restrict__ B,
                             const uint32_t *__restrict__ C, uint32_t *__restrict__ D, int n)
{
    int form = blockIdx.y;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t a = A[i], b = B[i], c = C[i], d = 0xdeadbeefu;
    switch (form) {
        VOP_ALL(DEV_VOP_CASE)
        VSET_ALL(DEV_VSET_CASE)
    default:
        break;
    }
    D[(size_t)form * n + i] = d;
}

// CUDA SIMD intrinsics.  Unary ones use only a.
#define INTRINSICS(X)                                                                                        \
    X(__vadd2, 2)                                                                                            \
    X(__vadd4, 2) X(__vaddss4, 2) X(__vaddss2, 2) X(__vaddus2, 2) X(__vaddus4, 2) X(__vsub2, 2)              \
        X(__vsub4, 2) X(__vsubus2, 2) X(__vsubss4, 2) X(__vsubss2, 2) X(__vsubus4, 2) X(__vabsdiffu4, 2)     \
            X(__vabsdiffu2, 2) X(__vabsdiffs2, 2) X(__vabsdiffs4, 2) X(__vavgu4, 2) X(__vavgu2, 2)           \
                X(__vavgs2, 2) X(__vavgs4, 2) X(__vhaddu2, 2) X(__vhaddu4, 2) X(__vmaxs4, 2) X(__vmaxu4, 2)  \
                    X(__vmaxs2, 2) X(__vmaxu2, 2) X(__vminu2, 2) X(__vmins2, 2) X(__vminu4, 2)               \
                        X(__vmins4, 2) X(__vcmpeq4, 2) X(__vcmpne2, 2) X(__vcmpgts2, 2) X(__vcmpgtu2, 2)     \
                            X(__vcmpleu4, 2) X(__vcmples4, 2) X(__vcmpltu4, 2) X(__vcmpges4, 2)              \
                                X(__vsetgeu2, 2) X(__vsetgts2, 2) X(__vseteq2, 2) X(__vsetlts4, 2)           \
                                    X(__vsetgtu4, 2) X(__vsetne4, 2) X(__vsetles4, 2) X(__vsads4, 2)         \
                                        X(__vsadu4, 2) X(__vsadu2, 2) X(__vsads2, 2) X(__vneg4, 1)           \
                                            X(__vneg2, 1) X(__vabs2, 1) X(__vabs4, 1) X(__vabsss4, 1)        \
                                                X(__vabsss2, 1) X(__vnegss2, 1) X(__vnegss4, 1)

enum {
#define ENUM_X(F, AR) I_##F,
    INTRINSICS(ENUM_X)
#undef ENUM_X
        NUM_INTRINSICS
};

#define CALL1(F) F(a)
#define CALL2(F) F(a, b)
#define DEV_INTR_CASE(F, AR)                                                                                 \
    case I_##F:                                                                                              \
        d = CALL##AR(F);                                                                                     \
        break;

__global__ void intrinsic_kernel(const uint32_t *__restrict__ A, const uint32_t *__restrict__ B,
                                 uint32_t *__restrict__ D, int n)
{
    int f = blockIdx.y;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t a = A[i], b = B[i], d = 0xdeadbeefu;
    switch (f) {
        INTRINSICS(DEV_INTR_CASE)
    default:
        break;
    }
    D[(size_t)f * n + i] = d;
}

// ---------------------------------------------------------------------------
// Host reference, from the ISA pseudo-code (9.7.18.2.x)
// ---------------------------------------------------------------------------
struct Form {
    int kind, op, dt, at, bt, mode;
    const char *name;
};
static Form g_forms[NUM_FORMS];

#define HOST_VOP_ENTRY(K, OPN, OPI, MODE, SUF, D, A, B)                                                      \
    g_forms[VOP_ID(K, OPI, MODE, D, A, B)] =                                                                 \
        Form{K, OPI, TIDX_##D, TIDX_##A, TIDX_##B, MODE, #OPN "." #D "." #A "." #B SUF};
#define HOST_VSET_ENTRY(K, OPN, CMPN, CI, MODE, SUF, A, B)                                                   \
    g_forms[VSET_ID(K, CI, MODE, A, B)] =                                                                    \
        Form{K, CI, 0, TIDX_##A, TIDX_##B, MODE, #OPN "." #A "." #B "." #CMPN SUF};

static void init_forms()
{
    memset(g_forms, 0, sizeof(g_forms));
    VOP_ALL(HOST_VOP_ENTRY)
    VSET_ALL(HOST_VSET_ENTRY)
    for (int i = 0; i < NUM_FORMS; i++)
        if (!g_forms[i].name) {
            fprintf(stderr, "internal error: form %d not defined\n", i);
            exit(2);
        }
}

// Element i (width bits) of w, sign- or zero-extended.
static int64_t ext_lane(uint32_t w, int i, int bits, int is_signed)
{
    uint32_t m = (bits == 8) ? 0xffu : 0xffffu;
    uint32_t v = (w >> (i * bits)) & m;
    if (is_signed && (v >> (bits - 1)) & 1)
        return (int64_t)v - ((int64_t)1 << bits);
    return (int64_t)v;
}

// floor(s / 2) without relying on >> of negative values
static int64_t floor_half(int64_t s)
{
    return s >= 0 ? s / 2 : -((-s + 1) / 2);
}

static int64_t vop_elem(int op, int64_t x, int64_t y)
{
    switch (op) {
    case 0:
        return x + y; // vadd
    case 1:
        return x - y; // vsub
    case 2: {         // vavrg
        int64_t s = x + y;
        return s >= 0 ? floor_half(s + 1) : floor_half(s);
    }
    case 3:
        return x > y ? x - y : y - x; // vabsdiff
    case 4:
        return x < y ? x : y; // vmin
    default:
        return x > y ? x : y; // vmax
    }
}

static bool cmp_elem(int cmp, int64_t x, int64_t y)
{
    switch (cmp) {
    case 0:
        return x == y;
    case 1:
        return x != y;
    case 2:
        return x < y;
    case 3:
        return x <= y;
    case 4:
        return x > y;
    default:
        return x >= y;
    }
}

static uint32_t ref_form(const Form &f, uint32_t a, uint32_t b, uint32_t c)
{
    int bits = (f.kind == 0 || f.kind == 2) ? 16 : 8;
    int nel = 32 / bits;
    uint32_t emask = (bits == 8) ? 0xffu : 0xffffu;
    bool is_set = f.kind >= 2;
    uint32_t d = (f.mode == 2) ? c : 0u;
    for (int i = 0; i < nel; i++) {
        int64_t x = ext_lane(a, i, bits, f.at);
        int64_t y = ext_lane(b, i, bits, f.bt);
        int64_t t;
        if (is_set) {
            t = cmp_elem(f.op, x, y) ? 1 : 0;
        } else {
            t = vop_elem(f.op, x, y);
            if (f.mode == 1) {
                int64_t lo, hi;
                if (f.dt) {
                    lo = -((int64_t)1 << (bits - 1));
                    hi = ((int64_t)1 << (bits - 1)) - 1;
                } else {
                    lo = 0;
                    hi = ((int64_t)1 << bits) - 1;
                }
                if (t < lo)
                    t = lo;
                if (t > hi)
                    t = hi;
            }
        }
        if (f.mode == 2)
            d += (uint32_t)(uint64_t)t; // full-precision element, mod 2^32
        else
            d |= ((uint32_t)(uint64_t)t & emask) << (i * bits);
    }
    return d;
}

// ---- reference for the intrinsics, from the CUDA Math API descriptions ----
static uint32_t lanes2(uint32_t a, uint32_t b, int bits,
                       int64_t (*f)(int64_t ua, int64_t ub, int64_t sa, int64_t sb, int bits))
{
    uint32_t r = 0, m = (bits == 8) ? 0xffu : 0xffffu;
    for (int i = 0; i < 32 / bits; i++) {
        int64_t ua = ext_lane(a, i, bits, 0), ub = ext_lane(b, i, bits, 0);
        int64_t sa = ext_lane(a, i, bits, 1), sb = ext_lane(b, i, bits, 1);
        r |= ((uint32_t)(uint64_t)f(ua, ub, sa, sb, bits) & m) << (i * bits);
    }
    return r;
}
static uint32_t lanesum(uint32_t a, uint32_t b, int bits, int sgn)
{
    uint32_t s = 0;
    for (int i = 0; i < 32 / bits; i++) {
        int64_t x = ext_lane(a, i, bits, sgn), y = ext_lane(b, i, bits, sgn);
        s += (uint32_t)(x > y ? x - y : y - x);
    }
    return s;
}
static int64_t smax(int bits)
{
    return ((int64_t)1 << (bits - 1)) - 1;
}
static int64_t smin(int bits)
{
    return -((int64_t)1 << (bits - 1));
}
static int64_t umax(int bits)
{
    return ((int64_t)1 << bits) - 1;
}
static int64_t clampv(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}
static int64_t allones(int bits)
{
    return umax(bits);
}

#define L2(expr)                                                                                             \
    [](int64_t ua, int64_t ub, int64_t sa, int64_t sb, int bits) -> int64_t {                                \
        (void)ua;                                                                                            \
        (void)ub;                                                                                            \
        (void)sa;                                                                                            \
        (void)sb;                                                                                            \
        (void)bits;                                                                                          \
        return (expr);                                                                                       \
    }

static uint32_t ref_intrinsic(int f, uint32_t a, uint32_t b)
{
    switch (f) {
    case I___vadd2:
        return lanes2(a, b, 16, L2(ua + ub));
    case I___vadd4:
        return lanes2(a, b, 8, L2(ua + ub));
    case I___vaddss4:
        return lanes2(a, b, 8, L2(clampv(sa + sb, smin(bits), smax(bits))));
    case I___vaddss2:
        return lanes2(a, b, 16, L2(clampv(sa + sb, smin(bits), smax(bits))));
    case I___vaddus2:
        return lanes2(a, b, 16, L2(clampv(ua + ub, 0, umax(bits))));
    case I___vaddus4:
        return lanes2(a, b, 8, L2(clampv(ua + ub, 0, umax(bits))));
    case I___vsub2:
        return lanes2(a, b, 16, L2(ua - ub));
    case I___vsub4:
        return lanes2(a, b, 8, L2(ua - ub));
    case I___vsubus2:
        return lanes2(a, b, 16, L2(clampv(ua - ub, 0, umax(bits))));
    case I___vsubss4:
        return lanes2(a, b, 8, L2(clampv(sa - sb, smin(bits), smax(bits))));
    case I___vsubss2:
        return lanes2(a, b, 16, L2(clampv(sa - sb, smin(bits), smax(bits))));
    case I___vsubus4:
        return lanes2(a, b, 8, L2(clampv(ua - ub, 0, umax(bits))));
    case I___vabsdiffu4:
        return lanes2(a, b, 8, L2(ua > ub ? ua - ub : ub - ua));
    case I___vabsdiffu2:
        return lanes2(a, b, 16, L2(ua > ub ? ua - ub : ub - ua));
    case I___vabsdiffs2:
        return lanes2(a, b, 16, L2(sa > sb ? sa - sb : sb - sa));
    case I___vabsdiffs4:
        return lanes2(a, b, 8, L2(sa > sb ? sa - sb : sb - sa));
    case I___vavgu4:
        return lanes2(a, b, 8, L2((ua + ub + 1) / 2));
    case I___vavgu2:
        return lanes2(a, b, 16, L2((ua + ub + 1) / 2));
    // signed rounded average: rounding as PTX vavrg (half away from zero)
    case I___vavgs2:
        return lanes2(a, b, 16, L2(sa + sb >= 0 ? (sa + sb + 1) / 2 : -((-(sa + sb) + 1) / 2)));
    case I___vavgs4:
        return lanes2(a, b, 8, L2(sa + sb >= 0 ? (sa + sb + 1) / 2 : -((-(sa + sb) + 1) / 2)));
    case I___vhaddu2:
        return lanes2(a, b, 16, L2((ua + ub) / 2));
    case I___vhaddu4:
        return lanes2(a, b, 8, L2((ua + ub) / 2));
    case I___vmaxs4:
        return lanes2(a, b, 8, L2(sa > sb ? sa : sb));
    case I___vmaxu4:
        return lanes2(a, b, 8, L2(ua > ub ? ua : ub));
    case I___vmaxs2:
        return lanes2(a, b, 16, L2(sa > sb ? sa : sb));
    case I___vmaxu2:
        return lanes2(a, b, 16, L2(ua > ub ? ua : ub));
    case I___vminu2:
        return lanes2(a, b, 16, L2(ua < ub ? ua : ub));
    case I___vmins2:
        return lanes2(a, b, 16, L2(sa < sb ? sa : sb));
    case I___vminu4:
        return lanes2(a, b, 8, L2(ua < ub ? ua : ub));
    case I___vmins4:
        return lanes2(a, b, 8, L2(sa < sb ? sa : sb));
    case I___vcmpeq4:
        return lanes2(a, b, 8, L2(ua == ub ? allones(bits) : 0));
    case I___vcmpne2:
        return lanes2(a, b, 16, L2(ua != ub ? allones(bits) : 0));
    case I___vcmpgts2:
        return lanes2(a, b, 16, L2(sa > sb ? allones(bits) : 0));
    case I___vcmpgtu2:
        return lanes2(a, b, 16, L2(ua > ub ? allones(bits) : 0));
    case I___vcmpleu4:
        return lanes2(a, b, 8, L2(ua <= ub ? allones(bits) : 0));
    case I___vcmples4:
        return lanes2(a, b, 8, L2(sa <= sb ? allones(bits) : 0));
    case I___vcmpltu4:
        return lanes2(a, b, 8, L2(ua < ub ? allones(bits) : 0));
    case I___vcmpges4:
        return lanes2(a, b, 8, L2(sa >= sb ? allones(bits) : 0));
    // __vset*: per-element 1/0 (see notes at the end of the file)
    case I___vsetgeu2:
        return lanes2(a, b, 16, L2(ua >= ub ? 1 : 0));
    case I___vsetgts2:
        return lanes2(a, b, 16, L2(sa > sb ? 1 : 0));
    case I___vseteq2:
        return lanes2(a, b, 16, L2(ua == ub ? 1 : 0));
    case I___vsetlts4:
        return lanes2(a, b, 8, L2(sa < sb ? 1 : 0));
    case I___vsetgtu4:
        return lanes2(a, b, 8, L2(ua > ub ? 1 : 0));
    case I___vsetne4:
        return lanes2(a, b, 8, L2(ua != ub ? 1 : 0));
    case I___vsetles4:
        return lanes2(a, b, 8, L2(sa <= sb ? 1 : 0));
    case I___vsads4:
        return lanesum(a, b, 8, 1);
    case I___vsadu4:
        return lanesum(a, b, 8, 0);
    case I___vsadu2:
        return lanesum(a, b, 16, 0);
    case I___vsads2:
        return lanesum(a, b, 16, 1);
    case I___vneg4:
        return lanes2(a, 0, 8, L2(-sa));
    case I___vneg2:
        return lanes2(a, 0, 16, L2(-sa));
    case I___vabs2:
        return lanes2(a, 0, 16, L2(sa < 0 ? -sa : sa));
    case I___vabs4:
        return lanes2(a, 0, 8, L2(sa < 0 ? -sa : sa));
    case I___vabsss4:
        return lanes2(a, 0, 8, L2(clampv(sa < 0 ? -sa : sa, smin(bits), smax(bits))));
    case I___vabsss2:
        return lanes2(a, 0, 16, L2(clampv(sa < 0 ? -sa : sa, smin(bits), smax(bits))));
    case I___vnegss2:
        return lanes2(a, 0, 16, L2(clampv(-sa, smin(bits), smax(bits))));
    case I___vnegss4:
        return lanes2(a, 0, 8, L2(clampv(-sa, smin(bits), smax(bits))));
    }
    return 0xdeadbeefu;
}

static const char *g_intr_names[NUM_INTRINSICS] = {
#define NAME_X(F, AR) #F,
    INTRINSICS(NAME_X)
#undef NAME_X
};

// ---------------------------------------------------------------------------
// Hand-derived spot checks of the host reference (each value worked out by
// hand from the ISA text, independent of ref_form()).
// ---------------------------------------------------------------------------
struct Spot {
    const char *form;
    uint32_t a, b, c, expect;
};
static const Spot g_spots[] = {
    // vavrg, negative sums: (s)>>1 = floor(s/2); non-negative: (s+1)>>1
    {"vavrg4.s32.s32.s32", 0x000000ffu, 0x000000feu, 0, 0x000000feu}, // -1+-2=-3 -> -2
    {"vavrg4.s32.s32.s32", 0x0000ff00u, 0x00000000u, 0, 0x0000ff00u}, // -1+0=-1 -> -1
    // b3: 1+0=1 -> 1; b2: -128+127=-1 -> -1; b1: 0+127=127 -> 64; b0: -128+-128 -> -128
    {"vavrg4.s32.s32.s32", 0x01800080u, 0x007f7f80u, 0, 0x01ff4080u},
    {"vavrg4.u32.u32.u32", 0x0000ffffu, 0x000000ffu, 0, 0x000080ffu},     // 255+255->255, 255+0->128
    {"vavrg4.s32.s32.u32", 0x00000080u, 0x000000ffu, 0, 0x00000040u},     // -128+255=127 -> 64
    {"vavrg4.u32.u32.s32", 0x00000000u, 0x000000ffu, 0, 0x000000ffu},     // 0+-1=-1 -> -1 -> 0xff
    {"vavrg4.u32.u32.s32.sat", 0x00000000u, 0x000000ffu, 0, 0x00000000u}, // -1 clamped to 0
    {"vavrg2.s32.s32.s32", 0xfffffffdu, 0x0000fffcu, 0, 0xfffffffcu}, // lo: -3+-4=-7 -> -4; hi: -1+0 -> -1
    {"vavrg2.u32.u32.u32", 0xffff0003u, 0xffff0004u, 0, 0xffff0004u}, // lo: 7 -> 4; hi: 131070 -> 65535
    // .sat with mixed signedness
    {"vadd4.s32.u32.s32.sat", 0x000000ffu, 0x00000001u, 0, 0x0000007fu}, // 255+1=256 -> 127
    {"vadd4.s32.u32.s32.sat", 0x00000000u, 0x00008000u, 0, 0x00008000u}, // 0+-128 -> -128 (byte1)
    {"vsub4.u32.s32.u32.sat", 0x00007f80u, 0x0000ff00u, 0, 0x00000000u}, // -128-0 -> 0 ; 127-255 -> 0
    {"vsub4.s32.u32.u32.sat", 0x00000000u, 0x000000ffu, 0, 0x00000080u}, // 0-255 -> -128
    {"vadd4.u32.s32.s32.sat", 0x00007f80u, 0x00007fffu, 0, 0x0000fe00u}, // 127+127=254 ; -128+-1 -> 0
    {"vmin4.u32.s32.u32.sat", 0x00000080u, 0x00000005u, 0, 0x00000000u}, // min(-128,5) -> 0
    {"vmin4.u32.s32.u32", 0x00000080u, 0x00000005u, 0, 0x00000080u},     // no sat: low byte of -128
    {"vmax2.s32.u32.u32.sat", 0x0000ffffu, 0x00000000u, 0, 0x00007fffu}, // 65535 -> 32767
    {"vmax2.u32.s32.s32.sat", 0x80008000u, 0xffff0001u, 0,
     0x00000001u}, // hi max(-32768,-1)=-1 -> 0 ; lo max(-32768,1)=1
    // vabsdiff with signed extremes
    {"vabsdiff4.s32.s32.s32", 0x0000007fu, 0x00000080u, 0, 0x000000ffu},     // |127+128|=255
    {"vabsdiff4.s32.s32.s32.sat", 0x0000007fu, 0x00000080u, 0, 0x0000007fu}, // 255 -> 127
    {"vabsdiff4.u32.s32.s32.sat", 0x0000007fu, 0x00000080u, 0, 0x000000ffu}, // 255 stays 255
    {"vabsdiff2.s32.s32.s32", 0x00007fffu, 0x00008000u, 0, 0x0000ffffu},     // 65535
    {"vabsdiff2.s32.s32.s32.sat", 0x00007fffu, 0x00008000u, 0, 0x00007fffu},
    {"vabsdiff4.u32.u32.s32", 0x000000ffu, 0x00000080u, 0, 0x0000007fu}, // 255-(-128)=383 -> 0x17f -> 0x7f
    {"vabsdiff4.u32.u32.s32.sat", 0x000000ffu, 0x00000080u, 0, 0x000000ffu},
    {"vabsdiff4.s32.u32.s32.sat", 0x000000ffu, 0x00000080u, 0, 0x0000007fu},
    // .add accumulation with signed elements (32-bit wrap)
    {"vsub4.s32.s32.s32.add", 0x00000000u, 0x01010101u, 0, 0xfffffffcu},           // 4 x -1
    {"vsub4.u32.u32.u32.add", 0x00000000u, 0x01010101u, 0, 0xfffffffcu},           // zero-ext, still -1 each
    {"vadd2.s32.s32.s32.add", 0x80008000u, 0x80008000u, 5, 0xfffe0005u},           // 5 - 2*65536
    {"vadd2.u32.u32.u32.add", 0x80008000u, 0x80008000u, 5, 0x00020005u},           // 5 + 2*65536
    {"vavrg4.s32.s32.s32.add", 0xffffffffu, 0xfefefefeu, 0, 0xfffffff8u},          // 4 x -2
    {"vmin4.s32.s32.s32.add", 0x80808080u, 0x00000000u, 0x1000u, 0x00000e00u},     // 0x1000 - 512
    {"vabsdiff4.u32.s32.s32.add", 0x7f7f7f7fu, 0x80808080u, 0, 0x000003fcu},       // 4 x 255
    {"vmax4.s32.s32.s32.add", 0x80808080u, 0xffffffffu, 0xffffffffu, 0xfffffffbu}, // -1 + 4*-1
    {"vadd4.u32.u32.u32.add", 0xffffffffu, 0xffffffffu, 0xfffff800u, 0xfffffff8u}, // -2048 + 4*510 = -8
    // vset
    {"vset4.s32.u32.lt", 0x000000ffu, 0x00000000u, 0xffffffffu, 0x00000001u}, // -1 < 0 ; bytes 1..3: 0<0 no
    {"vset4.u32.s32.gt", 0x00000080u, 0x000000ffu, 0, 0x00000001u},           // 128 > -1
    {"vset4.u32.u32.eq", 0x12345678u, 0x12005678u, 0, 0x01000101u},
    {"vset4.s32.s32.lt.add", 0x80808080u, 0x00000000u, 0xffffffffu, 0x00000003u}, // -1 + 4
    {"vset2.s32.s32.lt.add", 0x80000000u, 0x00000000u, 10, 11},                   // hi -32768<0
    {"vset2.u32.u32.lt.add", 0x80000000u, 0x00000000u, 10, 10},
    {"vset2.s32.u32.ge", 0xffff0001u, 0x00000001u, 0x12345678u, 0x00000001u}, // hi -1>=0 no; lo 1>=1
};
static int find_form(const char *name)
{
    for (int i = 0; i < NUM_FORMS; i++)
        if (strcmp(g_forms[i].name, name) == 0)
            return i;
    return -1;
}

// Cross-check of the two host references (ISA-based ref_form vs the
// intrinsic-doc-based ref_intrinsic) where an intrinsic is, by definition,
// one video-instruction form with c = 0 (unary: a op 0, or 0 op a).
struct Pair {
    int intr;
    const char *form;
    int unary_swap;
}; // 0: (a,b) 1: (a,0) 2: (0,a)
static const Pair g_pairs[] = {
    {I___vadd2, "vadd2.u32.u32.u32", 0},           {I___vaddss4, "vadd4.s32.s32.s32.sat", 0},
    {I___vaddus2, "vadd2.u32.u32.u32.sat", 0},     {I___vsubus2, "vsub2.u32.u32.u32.sat", 0},
    {I___vsubss4, "vsub4.s32.s32.s32.sat", 0},     {I___vabsdiffu4, "vabsdiff4.u32.u32.u32", 0},
    {I___vabsdiffs2, "vabsdiff2.s32.s32.s32", 0},  {I___vavgu4, "vavrg4.u32.u32.u32", 0},
    {I___vavgs2, "vavrg2.s32.s32.s32", 0},         {I___vmaxs4, "vmax4.s32.s32.s32", 0},
    {I___vminu2, "vmin2.u32.u32.u32", 0},          {I___vsetgeu2, "vset2.u32.u32.ge", 0},
    {I___vsetlts4, "vset4.s32.s32.lt", 0},         {I___vsads4, "vabsdiff4.s32.s32.s32.add", 0},
    {I___vsadu2, "vabsdiff2.u32.u32.u32.add", 0},  {I___vabs2, "vabsdiff2.s32.s32.s32", 1},
    {I___vabsss4, "vabsdiff4.s32.s32.s32.sat", 1}, {I___vneg4, "vsub4.s32.s32.s32", 2},
    {I___vnegss2, "vsub2.s32.s32.s32.sat", 2},
};

static int self_test_reference()
{
    int bad = 0;
    for (size_t k = 0; k < sizeof(g_pairs) / sizeof(g_pairs[0]); k++) {
        int f = find_form(g_pairs[k].form);
        if (f < 0) {
            printf("REFERENCE SELF-TEST: unknown form %s\n", g_pairs[k].form);
            bad++;
            continue;
        }
        uint32_t x = 0x2545f491u;
        for (int it = 0; it < 200000; it++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            uint32_t a = x * 0x9e3779b1u, b = (x >> 7) ^ (x << 11);
            if (it < 65536) {
                a = (uint32_t)it * 0x00010001u;
                b = ((uint32_t)it >> 8) * 0x01010101u;
                a = (a & 0xffff) | ((uint32_t)(it & 0xff) * 0x01010000u);
                b ^= (uint32_t)(it & 0xff);
            }
            uint32_t fa = a, fb = b;
            if (g_pairs[k].unary_swap == 1)
                fb = 0;
            if (g_pairs[k].unary_swap == 2) {
                fa = 0;
                fb = a;
            }
            uint32_t r1 = ref_intrinsic(g_pairs[k].intr, a, b), r2 = ref_form(g_forms[f], fa, fb, 0);
            if (r1 != r2) {
                printf("REFERENCE SELF-TEST: %s vs %s disagree a=%08x b=%08x: %08x vs %08x\n",
                       g_intr_names[g_pairs[k].intr], g_pairs[k].form, a, b, r1, r2);
                bad++;
                break;
            }
        }
    }
    for (size_t k = 0; k < sizeof(g_spots) / sizeof(g_spots[0]); k++) {
        const Spot &s = g_spots[k];
        int f = find_form(s.form);
        if (f < 0) {
            printf("REFERENCE SELF-TEST: unknown form %s\n", s.form);
            bad++;
            continue;
        }
        uint32_t r = ref_form(g_forms[f], s.a, s.b, s.c);
        if (r != s.expect) {
            printf("REFERENCE SELF-TEST FAILED: %s a=%08x b=%08x c=%08x ref=%08x hand=%08x\n", s.form, s.a,
                   s.b, s.c, r, s.expect);
            bad++;
        }
    }
    return bad;
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------
static uint32_t g_rng = 0x9e3779b9u;
static uint32_t rnd()
{ // xorshift32
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 17;
    g_rng ^= g_rng << 5;
    return g_rng;
}
static const uint8_t E8[] = {0x00, 0x01, 0x02, 0x3f, 0x40, 0x7e, 0x7f, 0x80, 0x81, 0xc0, 0xfe, 0xff};
static const uint16_t E16[] = {0x0000, 0x0001, 0x0002, 0x00ff, 0x0100, 0x3fff, 0x4000, 0x7ffe,
                               0x7fff, 0x8000, 0x8001, 0xc000, 0xff00, 0xff80, 0xfffe, 0xffff};
#define NE8  (int)(sizeof(E8) / sizeof(E8[0]))
#define NE16 (int)(sizeof(E16) / sizeof(E16[0]))

static uint32_t edge_c(uint32_t i)
{
    static const uint32_t cs[] = {0u, 1u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0xfffffff0u};
    return (i % 3 == 0) ? cs[(i / 3) % 6] : rnd();
}

static void make_inputs(int n, std::vector<uint32_t> &A, std::vector<uint32_t> &B, std::vector<uint32_t> &C)
{
    A.resize(n);
    B.resize(n);
    C.resize(n);
    int k8 = 0, k16 = 0;
    for (int i = 0; i < n; i++) {
        uint32_t a = 0, b = 0;
        switch (i % 6) {
        case 0: { // systematic byte edge pairs: lane j gets pair (x+j, y+3j)
            int x = k8 % NE8, y = (k8 / NE8) % NE8;
            k8++;
            for (int j = 0; j < 4; j++) {
                a |= (uint32_t)E8[(x + j) % NE8] << (8 * j);
                b |= (uint32_t)E8[(y + 3 * j) % NE8] << (8 * j);
            }
            break;
        }
        case 1: { // systematic halfword edge pairs
            int x = k16 % NE16, y = (k16 / NE16) % NE16;
            k16++;
            a = E16[x] | ((uint32_t)E16[(x + 5) % NE16] << 16);
            b = E16[y] | ((uint32_t)E16[(y + 7) % NE16] << 16);
            break;
        }
        case 2: // random edge bytes
            for (int j = 0; j < 4; j++) {
                a |= (uint32_t)E8[rnd() % NE8] << (8 * j);
                b |= (uint32_t)E8[rnd() % NE8] << (8 * j);
            }
            break;
        case 3: // random edge halves
            a = E16[rnd() % NE16] | ((uint32_t)E16[rnd() % NE16] << 16);
            b = E16[rnd() % NE16] | ((uint32_t)E16[rnd() % NE16] << 16);
            break;
        case 4: // random a, b equal in some lanes (exercise eq/le/ge)
            a = rnd();
            b = a ^ (rnd() & 0xff00ff00u);
            if (rnd() & 1)
                b ^= 0x00010000u;
            break;
        default: // fully random
            a = rnd();
            b = rnd();
            break;
        }
        A[i] = a;
        B[i] = b;
        C[i] = edge_c(i);
    }
}

// ---------------------------------------------------------------------------

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "simd_video");
    int n = size == SIZE_TINY ? 512 : size == SIZE_SMALL ? 4096 : 32768;

    init_forms();
    long mismatches = self_test_reference();

    std::vector<uint32_t> A, B, C;
    make_inputs(n, A, B, C);

    uint32_t *dA, *dB, *dC, *dD, *dI;
    CHECK(cudaMalloc(&dA, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dB, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dC, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dD, (size_t)NUM_FORMS * n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&dI, (size_t)NUM_INTRINSICS * n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(dA, A.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, C.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dD, 0xa5, (size_t)NUM_FORMS * n * sizeof(uint32_t)));
    CHECK(cudaMemset(dI, 0xa5, (size_t)NUM_INTRINSICS * n * sizeof(uint32_t)));

    const int bs = 256;
    dim3 g1((n + bs - 1) / bs, NUM_FORMS);
    video_kernel<<<g1, bs>>>(dA, dB, dC, dD, n);
    CHECK(cudaGetLastError());
    dim3 g2((n + bs - 1) / bs, NUM_INTRINSICS);
    intrinsic_kernel<<<g2, bs>>>(dA, dB, dI, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<uint32_t> D((size_t)NUM_FORMS * n), I((size_t)NUM_INTRINSICS * n);
    CHECK(cudaMemcpy(D.data(), dD, D.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(I.data(), dI, I.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int bad_forms = 0;
    for (int f = 0; f < NUM_FORMS; f++) {
        long cnt = 0;
        char buf[512];
        int len = 0;
        for (int i = 0; i < n; i++) {
            uint32_t exp = ref_form(g_forms[f], A[i], B[i], C[i]);
            uint32_t got = D[(size_t)f * n + i];
            if (got != exp) {
                if (cnt < 3 && len < 400)
                    len += snprintf(buf + len, sizeof(buf) - len, " [a=%08x b=%08x c=%08x got=%08x exp=%08x]",
                                    A[i], B[i], C[i], got, exp);
                cnt++;
            }
        }
        if (cnt) {
            printf("MISMATCH %-28s %ld/%d:%s\n", g_forms[f].name, cnt, n, buf);
            mismatches += cnt;
            bad_forms++;
        }
    }
    for (int f = 0; f < NUM_INTRINSICS; f++) {
        long cnt = 0;
        char buf[512];
        int len = 0;
        for (int i = 0; i < n; i++) {
            uint32_t exp = ref_intrinsic(f, A[i], B[i]);
            uint32_t got = I[(size_t)f * n + i];
            if (got != exp) {
                if (cnt < 3 && len < 400)
                    len += snprintf(buf + len, sizeof(buf) - len, " [a=%08x b=%08x got=%08x exp=%08x]", A[i],
                                    B[i], got, exp);
                cnt++;
            }
        }
        if (cnt) {
            printf("MISMATCH %-28s %ld/%d:%s\n", g_intr_names[f], cnt, n, buf);
            mismatches += cnt;
            bad_forms++;
        }
    }

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dD);
    cudaFree(dI);
    printf("%s simd_video size=%s forms=%d intrinsics=%d inputs=%d mismatches=%ld failing=%d (tolerance: "
           "exact)\n",
           mismatches ? "FAIL" : "PASS", size_name(size), NUM_FORMS, (int)NUM_INTRINSICS, n, mismatches,
           bad_forms);
    return mismatches ? 1 : 0;
}

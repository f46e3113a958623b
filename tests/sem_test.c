/*
 * sem_test.c -- instruction semantics, table-driven.
 *
 * Each case is one PTX instruction run on 32 lanes.  Inputs are edge values
 * (zeros of both signs, infinities, NaNs, subnormals, INT_MIN, shift counts
 * of 32 and more, ...) followed by pseudo-random values; every lane's result
 * is compared bit for bit with an independent host computation (C
 * arithmetic, libm, fesetround for the rounding modes).  Where the GPU's
 * behaviour is not what C does, the reference says why and cites the ISA.
 */
#define _GNU_SOURCE
#include "check.h"
#include "ptx_run.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#define N 32

typedef uint64_t (*ref_fn)(uint64_t a, uint64_t b, uint64_t c);

/* Operand and result register types, and how many sources. */
typedef struct {
    const char *inst;       /* e.g. "add.s32 %d, %a, %b" */
    const char *dt, *st;    /* register types of d and of a, b, c */
    ref_fn ref;
    const uint64_t *edges;  /* edge inputs, in turn for a, b and c; 0-terminated by count */
    unsigned nedges;
} sem_case;

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Run inst on 32 lanes; d[l] gets the raw result bits. */
static bool run_inst(const char *inst, const char *dt, const char *st, const uint64_t *a,
                     const uint64_t *b, const uint64_t *c, uint64_t *d)
{
    char store[128], ptx[4096];
    if (strcmp(dt, "pred") == 0)
        snprintf(store, sizeof store, " selp.u32 %%r2, 1, 0, %%d;\n st.global.u32 [%%rd9], %%r2;\n");
    else
        snprintf(store, sizeof store, " st.global.%s [%%rd9], %%d;\n", dt);
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry t(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
             " .reg .b64 %%rd<12>;\n .reg .b32 %%r<4>;\n"
             " .reg .%s %%a, %%b, %%c;\n .reg .%s %%d;\n"
             " ld.param.u64 %%rd1, [pa];\n ld.param.u64 %%rd2, [pb];\n ld.param.u64 %%rd3, [pc];\n"
             " ld.param.u64 %%rd4, [pd];\n"
             " mov.u32 %%r1, %%tid.x;\n mul.wide.u32 %%rd5, %%r1, 8;\n"
             " add.s64 %%rd6, %%rd1, %%rd5;\n add.s64 %%rd7, %%rd2, %%rd5;\n add.s64 %%rd8, %%rd3, %%rd5;\n"
             " add.s64 %%rd9, %%rd4, %%rd5;\n"
             " ld.global.%s %%a, [%%rd6];\n ld.global.%s %%b, [%%rd7];\n ld.global.%s %%c, [%%rd8];\n"
             " %s;\n%s ret;\n}\n",
             st, dt, st, st, st, inst, store);
    ptx_env e;
    if (!ptx_load(&e, ptx)) {
        printf("%s\n", ptx);
        return false;
    }
    uint64_t *da = ptx_alloc(&e, N * 8), *db = ptx_alloc(&e, N * 8), *dc = ptx_alloc(&e, N * 8),
             *dd = ptx_alloc(&e, N * 8);
    memcpy(da, a, N * 8);
    memcpy(db, b, N * 8);
    memcpy(dc, c, N * 8);
    uint64_t args[] = { (uint64_t)(uintptr_t)da, (uint64_t)(uintptr_t)db, (uint64_t)(uintptr_t)dc,
                        (uint64_t)(uintptr_t)dd };
    ptx_status status = ptx_launch(&e, "t", 1, N, 4, args);
    if (status != PTX_OK)
        printf("%s: %s\n", inst, e.err.msg);
    memcpy(d, dd, N * 8);
    ptx_unload(&e);
    return status == PTX_OK;
}

/* Bits of a PTX type name: the digits after its letters ("s8", "f16", "u64"). */
static unsigned type_bits(const char *t)
{
    if (strcmp(t, "pred") == 0)
        return 1;
    while (*t && (*t < '0' || *t > '9'))
        t++;
    return (unsigned)atoi(t);
}

/* Run a case and compare each lane with its reference. */
static void run_case(const sem_case *k)
{
    uint64_t a[N], b[N], c[N], d[N];
    unsigned sbits = type_bits(k->st), dbits = type_bits(k->dt);
    uint64_t smask = sbits >= 64 ? ~0ull : (1ull << sbits) - 1;
    uint64_t dmask = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
    for (unsigned l = 0; l < N; l++) {
        /* Lane l combines edges (l, l/ne, l/ne^2) so pairs of edge values meet. */
        unsigned ne = k->nedges;
        if (ne) {
            a[l] = k->edges[l % ne];
            b[l] = k->edges[(l / ne + l) % ne];
            c[l] = k->edges[(l / (ne * ne) + 2 * l) % ne];
        }
        if (!ne || l >= ne * 2) {
            a[l] = rnd64();
            b[l] = rnd64();
            c[l] = rnd64();
        }
        a[l] &= smask;
        b[l] &= smask;
        c[l] &= smask;
    }
    if (!run_inst(k->inst, k->dt, k->st, a, b, c, d)) {
        CHECK(false, "%s did not run", k->inst);
        return;
    }
    for (unsigned l = 0; l < N; l++) {
        uint64_t want = k->ref(a[l], b[l], c[l]) & dmask, got = d[l] & dmask;
        CHECK(got == want, "%s lane %u: a=0x%llx b=0x%llx c=0x%llx: got 0x%llx want 0x%llx", k->inst, l,
              (unsigned long long)a[l], (unsigned long long)b[l], (unsigned long long)c[l],
              (unsigned long long)got, (unsigned long long)want);
    }
}

/* ---- references ---------------------------------------------------------- */

static float f32(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static double f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t b32(float f)
{
    if (f != f)
        return 0x7FFFFFFFu;                 /* GPUs return the canonical NaN */
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t b64(double d)
{
    if (d != d)
        return 0x7FFFFFFFFFFFFFFFull;
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static uint64_t bits_abs32(uint64_t v) { return v & 0x7FFFFFFFu; }
static float ftz(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0, x) : x; }
static int32_t s32(uint64_t v) { return (int32_t)(uint32_t)v; }

static uint64_t r_add_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)((uint32_t)a + (uint32_t)b); }
static uint64_t r_add_sat_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t s = (int64_t)s32(a) + s32(b);
    return (uint32_t)(s > INT_MAX ? INT_MAX : s < INT_MIN ? INT_MIN : s);
}
static uint64_t r_sub_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a - b; }
static uint64_t r_mul_hi_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)(((int64_t)s32(a) * s32(b)) >> 32); }
static uint64_t r_mul_hi_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)(((uint64_t)(uint32_t)a * (uint32_t)b) >> 32); }
static uint64_t r_mul_wide_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint64_t)((int64_t)s32(a) * s32(b)); }
static uint64_t r_mul_hi_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static uint64_t r_mul_hi_s64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64); }
static uint64_t r_mad_lo_s32(uint64_t a, uint64_t b, uint64_t c) { return (uint32_t)((uint32_t)a * (uint32_t)b + (uint32_t)c); }
static uint64_t r_mad_wide_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint64_t)(uint32_t)a * (uint32_t)b + (uint32_t)c; }

/* Extended precision (PTX ISA 9.7.1.x add.cc ... madc): only addc, subc and
 * madc read CC.CF; add.cc, sub.cc and mad.{lo,hi}.cc write it and ignore
 * what it held.  Each case first sets CC.CF to the carry (or no-borrow)
 * of a + b (a - b), which the instruction under test must either use or ignore, then
 * reads the carry it leaves with addc d, 0, 0 where the result is the carry. */
static uint64_t carry_u32(uint64_t a, uint64_t b) { return ((uint64_t)(uint32_t)a + (uint32_t)b) >> 32; }
static uint64_t carry_u64(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a + b) >> 64); }
/* add.cc's carry where the destination is also a source (the sum must be
 * taken before the register is written): a + b, and a - 1 as a 128-bit
 * decrement's low half (clang's unsigned __int128 division counts so). */
static uint64_t r_add_cc_alias_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return carry_u64(a, b); }
static uint64_t r_add_cc_alias_m1(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return carry_u64(a, ~0ull); }
static uint64_t r_mad_lo_cc_u32(uint64_t a, uint64_t b, uint64_t c) { return (uint32_t)((uint32_t)a * (uint32_t)b + (uint32_t)c); }
static uint64_t r_mad_lo_cc_cf_u32(uint64_t a, uint64_t b, uint64_t c)
{
    return ((uint64_t)(uint32_t)((uint32_t)a * (uint32_t)b) + (uint32_t)c) >> 32;
}
static uint64_t r_mad_hi_cc_u64(uint64_t a, uint64_t b, uint64_t c)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64) + c;
}
static uint64_t r_mad_hi_cc_cf_u64(uint64_t a, uint64_t b, uint64_t c)
{
    return carry_u64((uint64_t)(((unsigned __int128)a * b) >> 64), c);
}
static uint64_t r_madc_lo_u32(uint64_t a, uint64_t b, uint64_t c)
{
    return (uint32_t)((uint32_t)a * (uint32_t)b + (uint32_t)c + (uint32_t)carry_u32(a, b));
}
static uint64_t r_madc_hi_cc_cf_u64(uint64_t a, uint64_t b, uint64_t c)
{
    unsigned __int128 s = (((unsigned __int128)a * b) >> 64) + (unsigned __int128)c + carry_u64(a, b);
    return (uint64_t)(s >> 64);
}
static uint64_t r_addc_u32(uint64_t a, uint64_t b, uint64_t c) { return (uint32_t)((uint32_t)c + (uint32_t)a + (uint32_t)carry_u32(a, b)); }
static uint64_t r_add_cc_u32(uint64_t a, uint64_t b, uint64_t c) { (void)b; return (uint32_t)((uint32_t)a + (uint32_t)c); }
/* subc d, c, a after sub.cc a - b: d = c - (a + borrow of a - b). */
static uint64_t r_subc_u32(uint64_t a, uint64_t b, uint64_t c)
{
    return (uint32_t)((uint32_t)c - (uint32_t)a - ((uint32_t)a < (uint32_t)b));
}
static uint64_t r_sub_cc_u64(uint64_t a, uint64_t b, uint64_t c) { (void)b; return c - a; }
/* The flag subc.cc leaves, read back by addc: the carry of c + ~a + CF,
 * that is 1 when c - a - borrow does not borrow (as the hardware does;
 * ref_int.c in tests/conformance has the measurement). */
static uint64_t r_subc_cc_bf_u64(uint64_t a, uint64_t b, uint64_t c)
{
    unsigned __int128 take = (unsigned __int128)a + (a < b);
    return (unsigned __int128)c >= take;
}

/* PTX ISA 9.7.1.8 div: "division by zero yields an unspecified,
 * machine-specific value"; NVIDIA GPUs give all ones for the quotient, and
 * ptxsim does the same.  INT_MIN / -1 wraps to INT_MIN. */
static uint64_t r_div_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int32_t x = s32(a), y = s32(b);
    if (y == 0) return 0xFFFFFFFFu;
    if (x == INT_MIN && y == -1) return (uint32_t)INT_MIN;
    return (uint32_t)(x / y);
}
static uint64_t r_rem_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int32_t x = s32(a), y = s32(b);
    if (y == 0) return (uint32_t)x;
    if (y == -1) return 0;
    return (uint32_t)(x % y);
}
static uint64_t r_div_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return b ? a / b : ~0ull; }

/* Shift counts of the register width or more: 0 for shl and shr.u, the sign
 * for shr.s (PTX ISA 9.7.8.7/8: "shift amounts greater than the register
 * width N are clamped to N"). */
static uint64_t r_shl_b32(uint64_t a, uint64_t b, uint64_t c) { (void)c; uint32_t s = (uint32_t)b; return s >= 32 ? 0 : (uint32_t)((uint32_t)a << s); }
static uint64_t r_shr_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; uint32_t s = (uint32_t)b; return (uint32_t)(s32(a) >> (s >= 32 ? 31 : s)); }
static uint64_t r_shr_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; uint32_t s = (uint32_t)b; return s >= 64 ? 0 : a >> s; }
static uint64_t r_popc_b64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)__builtin_popcountll(a); }
static uint64_t r_clz_b32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)a ? (uint64_t)__builtin_clz((uint32_t)a) : 32; }
static uint64_t r_brev_b32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint32_t x = (uint32_t)a, r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
static uint64_t r_bfind_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    int32_t x = s32(a);
    uint32_t u = x < 0 ? ~(uint32_t)x : (uint32_t)x;
    return u ? 31u - (uint32_t)__builtin_clz(u) : 0xFFFFFFFFu;
}
/* bfe.u32 with pos and len from b and c bytes (PTX ISA 9.7.8.14). */
static uint64_t r_bfe_u32(uint64_t a, uint64_t b, uint64_t c)
{
    unsigned pos = (uint8_t)b, len = (uint8_t)c;
    uint32_t x = (uint32_t)a, r = 0;
    for (unsigned i = 0; i < len && pos + i < 32; i++)
        r |= ((x >> (pos + i)) & 1u) << i;
    return r;
}
static uint64_t r_and_b32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)(a & b); }
static uint64_t r_xor_b64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a ^ b; }
static uint64_t r_min_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)(s32(a) < s32(b) ? s32(a) : s32(b)); }
static uint64_t r_max_u16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint16_t)a > (uint16_t)b ? (uint16_t)a : (uint16_t)b; }
/* min/max{.relu}.{u16x2,s16x2}: each 16-bit half on its own (.relu: a
 * negative half becomes 0). */
static uint64_t packed16(uint64_t a, uint64_t b, bool sgn, bool is_max, bool relu)
{
    uint64_t r = 0;
    for (int h = 0; h < 32; h += 16) {
        int32_t x = sgn ? (int16_t)(a >> h) : (uint16_t)(a >> h), y = sgn ? (int16_t)(b >> h) : (uint16_t)(b >> h);
        int32_t m = is_max ? (x > y ? x : y) : (x < y ? x : y);
        if (relu && m < 0)
            m = 0;
        r |= (uint64_t)(uint16_t)m << h;
    }
    return r;
}
static uint64_t r_min_s16x2(uint64_t a, uint64_t b, uint64_t c) { (void)c; return packed16(a, b, true, false, false); }
static uint64_t r_max_u16x2(uint64_t a, uint64_t b, uint64_t c) { (void)c; return packed16(a, b, false, true, false); }
static uint64_t r_max_relu_s16x2(uint64_t a, uint64_t b, uint64_t c) { (void)c; return packed16(a, b, true, true, true); }

static uint64_t f32_op(uint64_t a, uint64_t b, int op, int mode)
{
    int saved = fegetround();
    fesetround(mode);
    volatile float x = f32(a), y = f32(b), r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x * y; break;
    default: r = x / y; break;
    }
    fesetround(saved);
    return b32(r);
}
static uint64_t r_add_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f32_op(a, b, 0, FE_TONEAREST); }
static uint64_t r_add_rz_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f32_op(a, b, 0, FE_TOWARDZERO); }
static uint64_t r_mul_rm_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f32_op(a, b, 1, FE_DOWNWARD); }
static uint64_t r_div_rp_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f32_op(a, b, 2, FE_UPWARD); }
static uint64_t r_div_rn_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f32_op(a, b, 2, FE_TONEAREST); }
/* .ftz flushes subnormal inputs and results to zero of the same sign. */
static uint64_t r_add_ftz_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float r = ftz(f32(a)) + ftz(f32(b));
    return b32(ftz(r));
}
static uint64_t r_fma_f32(uint64_t a, uint64_t b, uint64_t c) { return b32(fmaf(f32(a), f32(b), f32(c))); }
static uint64_t r_fma_f64(uint64_t a, uint64_t b, uint64_t c) { return b64(fma(f64(a), f64(b), f64(c))); }
static uint64_t r_add_f64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return b64(f64(a) + f64(b)); }
/* min.f32: one NaN operand gives the other; -0 is less than +0
 * (PTX ISA 9.7.3.10). */
static uint64_t r_min_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float x = f32(a), y = f32(b);
    if (x != x && y != y) return 0x7FFFFFFFu;
    if (x != x) return b32(y);
    if (y != y) return b32(x);
    if (x == 0 && y == 0) return signbit(x) ? b32(x) : b32(y);
    return b32(x < y ? x : y);
}
static uint64_t r_max_nan_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float x = f32(a), y = f32(b);
    if (x != x || y != y) return 0x7FFFFFFFu;
    if (x == 0 && y == 0) return signbit(x) ? b32(y) : b32(x);
    return b32(x > y ? x : y);
}
/* .xorsign.abs: the min of the magnitudes, with the XOR of the signs. */
static uint64_t r_min_xorsign_abs_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    uint64_t m = r_min_f32(bits_abs32(a), bits_abs32(b), 0);
    return f32(m) != f32(m) ? m : m | ((a ^ b) & 0x80000000u);
}
static uint64_t r_setp_lt_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f32(a) < f32(b); }
static uint64_t r_setp_ltu_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return isnan(f32(a)) || isnan(f32(b)) || f32(a) < f32(b);
}
static uint64_t r_setp_ge_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return s32(a) >= s32(b); }
static uint64_t r_setp_hi_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)a > (uint32_t)b; }

/* testp (PTX ISA 9.7.3.x): classes read from the bits.  .normal is true
 * for normal numbers and, as the ISA says, for +0 and -0 too; .subnormal
 * for nonzero values with a zero exponent field; .finite for everything
 * but infinities and NaNs; .number for everything but NaNs. */
enum { TP_FINITE, TP_INFINITE, TP_NUMBER, TP_NAN, TP_NORMAL, TP_SUBNORMAL };
static uint64_t testp_ref(uint64_t v, bool dbl, int kind)
{
    uint64_t expmask = dbl ? 0x7FF0000000000000ull : 0x7F800000u;
    uint64_t mag = v & (dbl ? 0x7FFFFFFFFFFFFFFFull : 0x7FFFFFFFu);
    uint64_t e = mag & expmask;
    bool nan = e == expmask && mag != expmask, inf = mag == expmask;
    switch (kind) {
    case TP_FINITE: return e != expmask;
    case TP_INFINITE: return inf;
    case TP_NUMBER: return !nan;
    case TP_NAN: return nan;
    case TP_NORMAL: return mag == 0 || (e != 0 && e != expmask);
    default: return e == 0 && mag != 0;
    }
}
#define TESTP_REF(name, dbl, kind) \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return testp_ref(a, dbl, kind); }
TESTP_REF(r_testp_normal_f32, false, TP_NORMAL)
TESTP_REF(r_testp_subnormal_f32, false, TP_SUBNORMAL)
TESTP_REF(r_testp_finite_f32, false, TP_FINITE)
TESTP_REF(r_testp_infinite_f32, false, TP_INFINITE)
TESTP_REF(r_testp_number_f32, false, TP_NUMBER)
TESTP_REF(r_testp_notanumber_f32, false, TP_NAN)
TESTP_REF(r_testp_normal_f64, true, TP_NORMAL)
TESTP_REF(r_testp_subnormal_f64, true, TP_SUBNORMAL)
TESTP_REF(r_testp_finite_f64, true, TP_FINITE)
TESTP_REF(r_testp_infinite_f64, true, TP_INFINITE)
TESTP_REF(r_testp_number_f64, true, TP_NUMBER)
TESTP_REF(r_testp_notanumber_f64, true, TP_NAN)

/* cvt float -> int: round as asked, saturate (PTX ISA 9.7.9.21).  NaN
 * gives 0 when the source is not .f64 and the destination is not 64 bits
 * wide, and otherwise 1 << (bits - 1) of the destination: INT_MIN for the
 * signed types, MAXINT / 2 + 1 for the unsigned ones (PTX ISA 9.0, cvt). */
typedef __float128 quad;
static quad hq(uint64_t h, bool bf);
static uint64_t f2i_nan(bool f64_source, unsigned dbits)
{
    return !f64_source && dbits < 64 ? 0 : 1ull << (dbits - 1);
}
static uint64_t f2i(double x, double (*round)(double), int64_t lo, int64_t hi, uint64_t nan)
{
    if (x != x) return nan;
    x = round(x);
    if (x <= (double)lo) return (uint64_t)lo;
    if (x >= (double)hi) return (uint64_t)hi;
    return (uint64_t)(int64_t)x;
}
static uint64_t r_cvt_rzi_s32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)f2i(f32(a), trunc, INT_MIN, INT_MAX, f2i_nan(false, 32)); }
static uint64_t r_cvt_rni_s32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)f2i(f32(a), nearbyint, INT_MIN, INT_MAX, f2i_nan(false, 32)); }
static uint64_t r_cvt_rmi_u32_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)f2i(f64(a), floor, 0, UINT32_MAX, f2i_nan(true, 32)); }
static uint64_t r_cvt_rzi_s32_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)f2i(f64(a), trunc, INT_MIN, INT_MAX, f2i_nan(true, 32)); }
static uint64_t r_cvt_rzi_s64_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f2i(f64(a), trunc, INT64_MIN, INT64_MAX, f2i_nan(true, 64)); }
static uint64_t r_cvt_rni_u64_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    float x = f32(a);
    if (x != x) return f2i_nan(false, 64);
    x = nearbyintf(x);
    return x <= 0 ? 0 : x >= 0x1p64f ? UINT64_MAX : (uint64_t)x;
}
static uint64_t r_cvt_rzi_s16_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint16_t)f2i(f64(a), trunc, INT16_MIN, INT16_MAX, f2i_nan(true, 16)); }
static uint64_t r_cvt_rpi_u8_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint8_t)f2i(f64(a), ceil, 0, UINT8_MAX, f2i_nan(true, 8)); }
static uint64_t r_cvt_rzi_u16_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint16_t)f2i(f32(a), trunc, 0, UINT16_MAX, f2i_nan(false, 16)); }
static uint64_t r_cvt_rzi_s64_f16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f2i((double)hq(a, false), trunc, INT64_MIN, INT64_MAX, f2i_nan(false, 64)); }
static uint64_t r_cvt_rn_f32_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return b32((float)s32(a)); }
static uint64_t r_cvt_rz_f32_u64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    int saved = fegetround();
    fesetround(FE_TOWARDZERO);
    volatile float f = (float)a;
    fesetround(saved);
    return b32(f);
}
static uint64_t r_cvt_rn_f32_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return b32((float)f64(a)); }
static uint64_t r_cvt_f64_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return b64((double)f32(a)); }
static uint64_t r_cvt_sat_s8_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    int32_t x = s32(a);
    return (uint8_t)(x > 127 ? 127 : x < -128 ? -128 : x);
}
/* PTX ISA, "Operand Size Exceeding Instruction-Type Size": a destination
 * register wider than the instruction type gets the result sign-extended
 * when the type is a signed integer (zero-extended otherwise).  These cases
 * store the whole register (dt) after an instruction of a narrower type. */
static int64_t sat_s(int64_t x, int bits)
{
    int64_t hi = (1ll << (bits - 1)) - 1, lo = -hi - 1;
    return x > hi ? hi : x < lo ? lo : x;
}
static uint64_t r_cvt_rni_sat_s8_f32_b32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    float x = f32(a);
    int64_t v = x != x ? 0 : x >= 128.0f ? 127 : x <= -129.0f ? -128 : sat_s((int64_t)nearbyintf(x), 8);
    return (uint32_t)(int32_t)v;
}
static uint64_t r_cvt_sat_s8_s32_b32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)(int32_t)sat_s(s32(a), 8); }
static uint64_t r_cvt_rzi_s8_f64_b32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    double x = f64(a);
    int64_t v = x != x ? -128 : x >= 128.0 ? 127 : x <= -129.0 ? -128 : (int64_t)trunc(x);
    return (uint32_t)(int32_t)v;
}
static uint64_t r_cvt_s32_s8_b64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)(int64_t)(int8_t)a; }
static uint64_t r_cvt_s16_s32_b64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)(int64_t)(int16_t)a; }
static uint64_t r_ld_s8_b32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint32_t)(int32_t)(int8_t)a; }
static uint64_t r_ld_s8_b16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint16_t)(int16_t)(int8_t)a; }
static uint64_t r_ld_s16_b64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)(int64_t)(int16_t)a; }
static uint64_t r_ld_s32_b64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)(int64_t)(int32_t)a; }
static uint64_t r_ld_u8_b32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint8_t)a; }
static uint64_t r_ld_v2_s8_b32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    return (uint64_t)(uint32_t)(int32_t)(int8_t)(a >> 8) << 32 | (uint32_t)(int32_t)(int8_t)a;
}
/* cvt.pack writes packed bytes, which no extension may touch. */
static uint64_t r_cvt_pack_sat_s8_s32_b32(uint64_t a, uint64_t b, uint64_t c)
{
    return (uint32_t)((uint64_t)(uint8_t)sat_s(s32(a), 8) << 8 | (uint8_t)sat_s(s32(b), 8) | c << 16);
}
static uint64_t r_mul_wide_s16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)((int32_t)(int16_t)a * (int16_t)b); }

static uint64_t r_cvt_s64_s16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)(int64_t)(int16_t)a; }
static uint64_t r_cvt_rn_f16_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    _Float16 h = (_Float16)f32(a);
    uint16_t u;
    memcpy(&u, &h, 2);
    if (h != h)
        return 0x7FFF;                      /* canonical f16 NaN */
    return u;
}
static uint64_t r_cvt_f32_f16(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    _Float16 h;
    uint16_t u = (uint16_t)a;
    memcpy(&h, &u, 2);
    /* A NaN becomes the canonical NaN, as every float result in ptxsim
     * does (b32); to be confirmed against a GPU. */
    return b32((float)h);
}

/* ---- half precision ------------------------------------------------------
 *
 * References compute in __float128, where an f16 a * b + c is exact (at
 * most 81 significant bits) and is rounded once to f16 by the compiler's
 * own conversion, which honours fesetround.  bf16 sums can span more than
 * 113 bits, so they are rounded to odd at 113 bits (TwoSum), then to odd at
 * 24 bits, then to nearest-even at 8 bits: each step keeps at least two
 * bits more than the next (only .rn exists for bf16 arithmetic). */

static quad hq(uint64_t h, bool bf)
{
    uint16_t u = (uint16_t)h;
    if (bf)
        return f32((uint32_t)u << 16);
    _Float16 x;
    memcpy(&x, &u, 2);
    return (float)x;
}

static bool hnan(uint64_t h, bool bf) { return ((uint16_t)h & 0x7FFF) > (bf ? 0x7F80 : 0x7C00); }
static uint64_t hflush(uint64_t h, bool bf) { return ((uint16_t)h & (bf ? 0x7F80 : 0x7C00)) ? (uint16_t)h : (uint16_t)h & 0x8000; }

/* p + c rounded to odd at 113 bits. */
static quad qsum_odd(quad p, quad c)
{
    quad s = p + c;
    if (s != s || s - s != 0)
        return s;
    quad cv = s - p, e = (p - (s - cv)) + (c - cv);
    uint64_t lo;
    memcpy(&lo, &s, 8);                 /* little-endian: the low significand bits */
    if (e != 0 && !(lo & 1)) {
        quad ulp = s;                   /* step one unit in the last place toward e */
        memcpy(&lo, &ulp, 8);
        lo += (e > 0) == (s > 0) ? 1 : (uint64_t)-1;
        memcpy(&ulp, &lo, 8);
        s = ulp;
    }
    return s;
}

/* q rounded to a half format, NaN canonical. */
static uint64_t qhalf(quad q, bool bf, int mode)
{
    if (q != q)
        return 0x7FFF;
    if (!bf) {
        int saved = fegetround();
        fesetround(mode);
        volatile _Float16 h = (_Float16)q;
        fesetround(saved);
        uint16_t u;
        _Float16 hv = h;
        memcpy(&u, &hv, 2);
        return u;
    }
    float f = (float)q;                 /* to odd at 24 bits, then bf16 nearest-even */
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((quad)f != q && !(u & 1) && (u & 0x7FFFFFFF) < 0x7F800000)
        u += ((quad)f < q) == (f > 0) || f == 0 ? 1 : (uint32_t)-1;
    if ((u & 0x7FFFFFFF) == 0x7F800000)
        return (u >> 16) & 0xFFFF;
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF;
}

enum { HADD, HSUB, HMUL, HFMA };
enum { H_FTZ = 1, H_SAT = 2, H_RELU = 4, H_BF = 8, H_X2 = 16 };

static uint64_t href1(uint64_t a, uint64_t b, uint64_t c, int op, int fl, int mode)
{
    bool bf = fl & H_BF;
    if (fl & H_FTZ) { a = hflush(a, bf); b = hflush(b, bf); c = hflush(c, bf); }
    quad x = hq(a, bf), y = hq(b, bf), z = hq(c, bf), r;
    switch (op) {
    case HADD: r = qsum_odd(x, y); break;
    case HSUB: r = qsum_odd(x, -y); break;
    case HMUL: r = x * y; break;
    default: r = qsum_odd(x * y, z); break;
    }
    if (r == 0 && op != HMUL) {                 /* an exact zero sum: IEEE 754 6.3 */
        quad s1 = op == HFMA ? x * y : x, s2 = op == HADD ? y : op == HSUB ? -y : z;
        if (signbit((double)s1) != signbit((double)s2))
            r = mode == FE_DOWNWARD ? -0.0 : 0.0;
    }
    uint64_t h = qhalf(r, bf, mode);
    if ((fl & H_RELU) && (h & 0x8000) && !hnan(h, bf))
        h = 0;
    /* .sat clamps the rounded result, as on f32: NaN, negative values and
     * -0 to +0 (an H200's answer: tests/gpu/h200-probe.txt), past 1.0 to
     * 1.0.  Then .ftz flushes. */
    if (fl & H_SAT) {
        uint64_t one = bf ? 0x3F80 : 0x3C00;
        if (hnan(h, bf) || (h & 0x8000))
            h = 0;
        else if (!(h & 0x8000) && h > one)
            h = one;
    }
    return (fl & H_FTZ) ? hflush(h, bf) : h;
}

static uint64_t href(uint64_t a, uint64_t b, uint64_t c, int op, int fl, int mode)
{
    uint64_t lo = href1(a & 0xFFFF, b & 0xFFFF, c & 0xFFFF, op, fl, mode);
    if (!(fl & H_X2))
        return lo;
    return lo | href1(a >> 16 & 0xFFFF, b >> 16 & 0xFFFF, c >> 16 & 0xFFFF, op, fl, mode) << 16;
}

#define HREF(name, op, fl, mode) \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c) { return href(a, b, c, op, fl, mode); }
HREF(r_add_f16, HADD, 0, FE_TONEAREST)
HREF(r_add_ftz_f16, HADD, H_FTZ, FE_TONEAREST)
HREF(r_add_sat_f16, HADD, H_SAT, FE_TONEAREST)
HREF(r_sub_f16, HSUB, 0, FE_TONEAREST)
HREF(r_mul_f16, HMUL, 0, FE_TONEAREST)
HREF(r_mul_ftz_sat_f16, HMUL, H_FTZ | H_SAT, FE_TONEAREST)
HREF(r_mul_sat_f16, HMUL, H_SAT, FE_TONEAREST)
HREF(r_fma_sat_f16, HFMA, H_SAT, FE_TONEAREST)
HREF(r_fma_f16, HFMA, 0, FE_TONEAREST)
HREF(r_fma_ftz_sat_f16, HFMA, H_FTZ | H_SAT, FE_TONEAREST)
HREF(r_fma_relu_f16, HFMA, H_RELU, FE_TONEAREST)
HREF(r_fma_rz_f16, HFMA, 0, FE_TOWARDZERO)
HREF(r_fma_rm_f16, HFMA, 0, FE_DOWNWARD)
HREF(r_add_rp_f16, HADD, 0, FE_UPWARD)
HREF(r_add_f16x2, HADD, H_X2, FE_TONEAREST)
HREF(r_fma_f16x2, HFMA, H_X2, FE_TONEAREST)
HREF(r_fma_ftz_relu_f16x2, HFMA, H_X2 | H_FTZ | H_RELU, FE_TONEAREST)
HREF(r_add_bf16, HADD, H_BF, FE_TONEAREST)
HREF(r_mul_bf16x2, HMUL, H_BF | H_X2, FE_TONEAREST)
HREF(r_fma_bf16, HFMA, H_BF, FE_TONEAREST)
HREF(r_fma_bf16x2, HFMA, H_BF | H_X2, FE_TONEAREST)
HREF(r_fma_relu_bf16, HFMA, H_BF | H_RELU, FE_TONEAREST)

/* neg/abs flip or clear the sign bit (after .ftz); a NaN becomes the
 * canonical NaN, as the host versions of __hneg/__habs in cuda_fp16.hpp
 * return. */
static uint64_t hsign(uint64_t h, bool bf, bool flip) { return hnan(h, bf) ? 0x7FFF : flip ? h ^ 0x8000 : h & 0x7FFF; }
static uint64_t r_neg_f16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return hsign(a & 0xFFFF, false, true); }
static uint64_t r_abs_ftz_f16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return hsign(hflush(a, false), false, false); }
static uint64_t r_neg_bf16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    return hsign(a & 0xFFFF, true, true) | hsign(a >> 16 & 0xFFFF, true, true) << 16;
}

/* min/max: PTX ISA 9.7.4.9/10: a NaN operand yields the other one, two NaNs
 * (or any with .NaN) the canonical NaN; -0 < +0; .xorsign.abs compares
 * magnitudes and gives a non-NaN result the XOR of the operand signs. */
static uint64_t hmm1(uint64_t a, uint64_t b, bool bf, bool mx, bool nan, bool xs)
{
    uint64_t sign = (a ^ b) & 0x8000;
    if (xs) { a &= 0x7FFF; b &= 0x7FFF; }
    bool an = hnan(a, bf), bn = hnan(b, bf);
    if (an || bn) {
        if (nan || (an && bn))
            return 0x7FFF;
        return xs ? ((an ? b : a) & 0x7FFF) | sign : an ? b : a;   /* non-NaN: signed too */
    }
    quad x = hq(a, bf), y = hq(b, bf);
    uint64_t r;
    if (x == y && x == 0)
        r = mx ? (signbit((double)x) ? b : a) : (signbit((double)x) ? a : b);
    else
        r = (mx ? x > y : x < y) ? a : b;
    return xs ? (r & 0x7FFF) | sign : r;
}
static uint64_t r_min_f16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return hmm1(a & 0xFFFF, b & 0xFFFF, false, false, false, false); }
static uint64_t r_max_nan_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return hmm1(a & 0xFFFF, b & 0xFFFF, false, true, true, false) |
           hmm1(a >> 16 & 0xFFFF, b >> 16 & 0xFFFF, false, true, true, false) << 16;
}
static uint64_t r_min_xorsign_abs_bf16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return hmm1(a & 0xFFFF, b & 0xFFFF, true, false, false, true); }
static uint64_t r_max_bf16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return hmm1(a & 0xFFFF, b & 0xFFFF, true, true, false, false); }

/* Comparisons: the values as quads, unordered when either is NaN. */
static bool hlt(uint64_t a, uint64_t b, bool bf) { return !hnan(a, bf) && !hnan(b, bf) && hq(a, bf) < hq(b, bf); }
static bool hge(uint64_t a, uint64_t b, bool bf) { return !hnan(a, bf) && !hnan(b, bf) && hq(a, bf) >= hq(b, bf); }
static uint64_t r_setp_lt_f16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return hlt(a, b, false); }
static uint64_t r_setp_gtu_bf16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return !(hlt(a, b, true) || (!hnan(a, true) && !hnan(b, true) && hq(a, true) == hq(b, true))); }
/* setp.ge.f16x2 p|q: bit 0 is p (the lower halves), bit 1 is q (the upper). */
static uint64_t r_setp_ge_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (uint64_t)hge(a & 0xFFFF, b & 0xFFFF, false) | (uint64_t)hge(a >> 16 & 0xFFFF, b >> 16 & 0xFFFF, false) << 1;
}
static uint64_t r_set_lt_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (hlt(a & 0xFFFF, b & 0xFFFF, false) ? 0x3C00u : 0) | (hlt(a >> 16 & 0xFFFF, b >> 16 & 0xFFFF, false) ? 0x3C000000u : 0);
}
static uint64_t r_set_ge_u32_bf16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (hge(a & 0xFFFF, b & 0xFFFF, true) ? 0xFFFFu : 0) | (hge(a >> 16 & 0xFFFF, b >> 16 & 0xFFFF, true) ? 0xFFFF0000u : 0);
}
static uint64_t r_set_lt_f16_f16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return hlt(a, b, false) ? 0x3C00 : 0; }

/* Conversions into half precision, each rounded once from the exact source. */
static uint64_t r_cvt_rn_f16_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return qhalf(f64(a), false, FE_TONEAREST); }
static uint64_t r_cvt_rz_f16_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return qhalf(f64(a), false, FE_TOWARDZERO); }
static uint64_t r_cvt_rm_f16_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return qhalf(f32(a), false, FE_DOWNWARD); }
static uint64_t r_cvt_rn_bf16_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return qhalf(f64(a), true, FE_TONEAREST); }
static uint64_t r_cvt_rn_bf16_u64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return qhalf((quad)a, true, FE_TONEAREST); }
static uint64_t r_cvt_rn_f16x2_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return qhalf(f32(a), false, FE_TONEAREST) << 16 | qhalf(f32(b), false, FE_TONEAREST);
}
static uint64_t r_cvt_rn_relu_bf16x2_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    uint64_t hi = qhalf(f32(a), true, FE_TONEAREST), lo = qhalf(f32(b), true, FE_TONEAREST);
    if ((hi & 0x8000) && !hnan(hi, true)) hi = 0;
    if ((lo & 0x8000) && !hnan(lo, true)) lo = 0;
    return hi << 16 | lo;
}
/* cvt.f32.bf16 widens by bits: a NaN keeps its payload (cuda_bf16.hpp's
 * __bfloat162float is the same shift on the host and before sm_90). */
static uint64_t r_cvt_f32_bf16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (a & 0xFFFF) << 16; }
/* ex2.approx.f16: ptxsim rounds the double exp2 to nearest, within the
 * ISA's 2^-9.9 relative error. */
static uint64_t r_ex2_f16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return qhalf(exp2((double)hq(a, false)), false, FE_TONEAREST); }

/* ---- tf32, .satfinite and the 8-bit floats (PTX ISA 9.7.9.21 cvt) --------
 *
 * tf32 references work on the f32 bits: keep the upper 19 bits after adding
 * half an ulp of the 13 dropped bits (.rna: ties away from zero), or half an
 * ulp less one plus the kept last bit (.rn: ties to even), or nothing (.rz).
 * A carry into the exponent is the right result, up to infinity.  NaN gives
 * 0x7FFFE000, f32's canonical NaN without the dropped bits, under .rn and
 * .rz; under .rna the NaN itself with the dropped bits cut (an infinity when
 * only they were set), and .satfinite there takes one unit of the last place
 * off anything at or past infinity, NaNs too (both as an H200 does). */
enum { T_RNA, T_RN, T_RZ };
static uint64_t tf32_ref(uint64_t a, int mode, bool satf, bool relu)
{
    uint32_t u = (uint32_t)a, sign = u & 0x80000000u, mag = u & 0x7FFFFFFFu;
    if (mag > 0x7F800000u && mode == T_RNA && !relu) {
        uint32_t r = u & 0xFFFFE000u;
        return satf && (r & 0x7FFFFFFFu) >= 0x7F800000u ? r - 0x2000u : r;
    }
    if (mag > 0x7F800000u)
        return 0x7FFFE000u;
    if (relu && sign)
        return 0;
    if (mag != 0x7F800000u) {
        uint32_t add = mode == T_RNA ? 0x1000u : mode == T_RN ? 0xFFFu + ((mag >> 13) & 1) : 0;
        mag = (mag + add) & 0xFFFFE000u;
    }
    if (satf && mag >= 0x7F800000u)
        mag = 0x7F7FE000u;                  /* |x| > MAX_NORM: MAX_NORM */
    return sign | mag;
}
static uint64_t r_cvt_rna_tf32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return tf32_ref(a, T_RNA, false, false); }
static uint64_t r_cvt_rna_satfinite_tf32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return tf32_ref(a, T_RNA, true, false); }
static uint64_t r_cvt_rn_tf32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return tf32_ref(a, T_RN, false, false); }
static uint64_t r_cvt_rz_relu_tf32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return tf32_ref(a, T_RZ, false, true); }
static uint64_t r_cvt_rn_satfinite_relu_tf32_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return tf32_ref(a, T_RN, true, true); }

/* .satfinite on f16/bf16: rounded as without it, then an infinity (from an
 * infinite input or an overflow) becomes the largest finite value of its
 * sign; NaN stays the canonical NaN. */
static uint64_t hsatf(uint64_t h, bool bf)
{
    return ((uint16_t)h & 0x7FFF) == (bf ? 0x7F80 : 0x7C00) ? h - 1 : h;
}
static uint64_t hrelu(uint64_t h, bool bf) { return (h & 0x8000) && !hnan(h, bf) ? 0 : h; }
static uint64_t r_cvt_rn_satfinite_f16_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return hsatf(qhalf(f32(a), false, FE_TONEAREST), false); }
static uint64_t r_cvt_rn_satfinite_bf16_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return hsatf(qhalf(f32(a), true, FE_TONEAREST), true); }
static uint64_t r_cvt_rn_satfinite_relu_f16x2_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return hrelu(hsatf(qhalf(f32(a), false, FE_TONEAREST), false), false) << 16 |
           hrelu(hsatf(qhalf(f32(b), false, FE_TONEAREST), false), false);
}
/* bf16 is the upper half of an f32: rounding an f32 toward zero drops the
 * lower half (qhalf only rounds bf16 to nearest). */
static uint64_t bf16_rz(uint64_t a) { return ((uint32_t)a & 0x7FFFFFFF) > 0x7F800000 ? 0x7FFF : (uint32_t)a >> 16; }
static uint64_t r_cvt_rz_satfinite_bf16x2_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return hsatf(bf16_rz(a), true) << 16 | hsatf(bf16_rz(b), true);
}

/* e4m3: S.EEEE.MMM, bias 7, no infinities, S.1111.111 NaN, largest 448.
 * e5m2: S.EEEEE.MM, bias 15, IEEE-like, largest finite 57344.  Values are
 * decoded by formula; a conversion picks the nearest of the 256 codes by
 * search, ties to the code with an even last bit (round to nearest even). */
static double f8_decode(unsigned code, bool e5)
{
    unsigned mb = e5 ? 2 : 3, e = (code & 0x7F) >> mb, m = code & ((1u << mb) - 1);
    int bias = e5 ? 15 : 7;
    double v;
    if (e5 && e == 31)
        v = m ? NAN : INFINITY;
    else if (!e5 && (code & 0x7F) == 0x7F)
        v = NAN;
    else if (e == 0)
        v = ldexp(m, 1 - bias - (int)mb);
    else
        v = ldexp((double)(m + (1u << mb)), (int)e - bias - (int)mb);
    return code & 0x80 ? -v : v;
}

/* x (exact in double) to e4m3/e5m2 with .satfinite, .relu as asked. */
static uint64_t f8_ref(double x, bool e5, bool relu)
{
    if (x != x)
        return 0x7F;
    if (relu && signbit(x))
        return 0;
    unsigned sign = signbit(x) ? 0x80 : 0, maxc = e5 ? 0x7B : 0x7E;
    double ax = fabs(x);
    if (ax > f8_decode(maxc, e5))
        return sign | maxc;                 /* |x| > MAX_NORM: MAX_NORM */
    unsigned best = 0;
    for (unsigned k = 1; k <= maxc; k++) {
        double dk = fabs(f8_decode(k, e5) - ax), db = fabs(f8_decode(best, e5) - ax);
        if (dk < db || (dk == db && !(k & 1)))
            best = k;
    }
    return sign | best;
}
static uint64_t f8x2_f32(uint64_t a, uint64_t b, bool e5, bool relu)
{
    return f8_ref(f32(a), e5, relu) << 8 | f8_ref(f32(b), e5, relu);
}
static uint64_t r_cvt_e4m3x2_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f8x2_f32(a, b, false, false); }
static uint64_t r_cvt_relu_e4m3x2_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f8x2_f32(a, b, false, true); }
static uint64_t r_cvt_e5m2x2_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f8x2_f32(a, b, true, false); }
static uint64_t r_cvt_relu_e5m2x2_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return f8x2_f32(a, b, true, true); }
static uint64_t f8x2_f16x2(uint64_t a, bool e5, bool relu)
{
    return f8_ref((double)hq(a >> 16, false), e5, relu) << 8 | f8_ref((double)hq(a, false), e5, relu);
}
static uint64_t r_cvt_e4m3x2_f16x2(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f8x2_f16x2(a, false, false); }
static uint64_t r_cvt_relu_e5m2x2_f16x2(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f8x2_f16x2(a, true, true); }

/* Widening: every e4m3 and e5m2 value is an f16 value; NaN gives f16's
 * canonical NaN (as cuda_fp8.hpp's host __nv_cvt_fp8_to_halfraw does);
 * .relu makes negatives +0. */
static uint64_t f16_of_f8(unsigned code, bool e5, bool relu)
{
    double v = f8_decode(code, e5);
    if (v != v)
        return 0x7FFF;
    if (relu && signbit(v))
        return 0;
    _Float16 h = (_Float16)v;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static uint64_t f16x2_f8x2(uint64_t a, bool e5, bool relu)
{
    return f16_of_f8((a >> 8) & 0xFF, e5, relu) << 16 | f16_of_f8(a & 0xFF, e5, relu);
}
static uint64_t r_cvt_f16x2_e4m3x2(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f16x2_f8x2(a, false, false); }
static uint64_t r_cvt_f16x2_e5m2x2(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f16x2_f8x2(a, true, false); }
static uint64_t r_cvt_relu_f16x2_e4m3x2(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return f16x2_f8x2(a, false, true); }

/* fma.rn.oob (PTX ISA, half-precision fma, "Out Of Bounds modifier"):
 * +0 in each element where an operand is the OOB-NaN a tensor copy fills
 * with (Tensors, 5.5.3.3), taken to be 0x7FF7 since the ISA gives no bits;
 * any other NaN propagates as the canonical NaN. */
static uint64_t oob1(uint64_t a, uint64_t b, uint64_t c, int fl)
{
    if (a == 0x7FF7 || b == 0x7FF7 || c == 0x7FF7)
        return 0;
    return href1(a, b, c, HFMA, fl, FE_TONEAREST);
}
static uint64_t oob_ref(uint64_t a, uint64_t b, uint64_t c, int fl)
{
    uint64_t lo = oob1(a & 0xFFFF, b & 0xFFFF, c & 0xFFFF, fl);
    if (!(fl & H_X2))
        return lo;
    return lo | oob1(a >> 16 & 0xFFFF, b >> 16 & 0xFFFF, c >> 16 & 0xFFFF, fl) << 16;
}
static uint64_t r_fma_oob_f16(uint64_t a, uint64_t b, uint64_t c) { return oob_ref(a, b, c, 0); }
static uint64_t r_fma_oob_f16x2(uint64_t a, uint64_t b, uint64_t c) { return oob_ref(a, b, c, H_X2); }
static uint64_t r_fma_oob_relu_bf16(uint64_t a, uint64_t b, uint64_t c) { return oob_ref(a, b, c, H_BF | H_RELU); }
static uint64_t r_fma_oob_relu_bf16x2(uint64_t a, uint64_t b, uint64_t c) { return oob_ref(a, b, c, H_BF | H_X2 | H_RELU); }

/* ---- edge values -------------------------------------------------------- */

static const uint64_t int32_edges[] = { 0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 2, 31, 32, 33, 0xFFFFFFFE, 7, 0xFFFFFFF9 };
static const uint64_t int64_edges[] = { 0, 1, ~0ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 63, 64, 65, 0xFFFFFFFFull };
static const uint64_t f32_edges[] = {
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
    0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x3EAAAAAB, 0x4F000000, 0xCF000001, 0x3FC00000, 0x40200000,
    0xBFC00000, 0x33800000, 0x4B800001,
};
static const uint64_t f64_edges[] = {
    0, 0x8000000000000000ull, 0x3FF0000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
    0x7FF8000000000000ull, 0x0000000000000001ull, 0x3FF8000000000000ull, 0x41F0000000000000ull,
    0xC1E0000000000000ull, 0x3FE5555555555555ull,
};

/* Half edges: zeros, ones, infinities, NaNs (quiet, signalling), the
 * smallest and largest subnormals and normals, the largest finite, 2^-10
 * and 2^-11 (an ulp and a half ulp of 1: ties), 1 + ulp, and values whose
 * sums overflow. */
static const uint64_t f16_edges[] = {
    0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0001, 0x83FF,
    0x0400, 0x7BFF, 0x1400, 0x1000, 0x3C01, 0x3800, 0xC000, 0x7800, 0x3555, 0x8400,
};
static const uint64_t bf16_edges[] = {
    0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x0001, 0x807F,
    0x0080, 0x7F7F, 0x3C00, 0x3B80, 0x3F81, 0x3F00, 0xC000, 0x7F00, 0x3EAB, 0x8080,
};
/* Packed pairs: each element its own edge, so the two halves differ. */
static const uint64_t f16x2_edges[] = {
    0x3C001000, 0x10003C00, 0x7C00FC00, 0x7E003C00, 0x00018000, 0x7BFF7BFF, 0x83FF0400,
    0x3C013800, 0xBC00C000, 0x00000000, 0x80003C00, 0x35557800,
};
static const uint64_t bf16x2_edges[] = {
    0x3F803B80, 0x3B803F80, 0x7F80FF80, 0x7FC03F80, 0x00018000, 0x7F7F7F7F, 0x807F0080,
    0x3F813F00, 0xBF80C000, 0x00000000, 0x80003F80, 0x3EAB7F00,
};

/* tf32: ties of the 13 dropped bits (1 + 2^-11, 1 + 3 * 2^-11, their
 * negatives), just below a tie, the largest f32 (overflows when rounded up)
 * and the tie at its last tf32 step, subnormals (the largest carries into
 * the smallest normal; a subnormal tie), signed zeros, infinities, NaNs. */
static const uint64_t tf32_edges[] = {
    0x00000000, 0x80000000, 0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFF800001,
    0x3F801000, 0x3F803000, 0xBF801000, 0x3F800FFF, 0x7F7FFFFF, 0x7F7FF000, 0xFF7FF000,
    0x007FFFFF, 0x00001000, 0x80003000, 0x00000001, 0x477FE000, 0x3EAAAAAB,
};
/* f16/bf16 .satfinite: the largest finite f16 (65504) and bf16, the ties
 * just above them that round to infinity, far overflow, infinities, NaN. */
static const uint64_t satf_edges[] = {
    0x477FE000, 0x477FF000, 0xC77FF000, 0x477FEFFF, 0x47C35000, 0x7F7F8000, 0x7F7F7FFF,
    0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000, 0x3F800000, 0x33800000,
    0x00000001, 0xBF800000,
};
/* 8-bit floats from f32: e4m3's largest (448), the tie above it (464) and
 * beyond; e5m2's largest (57344) and the tie above (61440); the smallest
 * subnormals (e4m3 2^-9, e5m2 2^-16), ties at half of them (to 0) and at
 * 1.5 times (to the subnormal); normal ties at 1 + 1/16, 1 + 3/16 (e4m3) and
 * 1 + 1/8, 1 + 3/8 (e5m2); signed zeros, infinities, NaN, negatives. */
static const uint64_t f8_f32_edges[] = {
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000,
    0x43E00000, 0x43E80000, 0xC3E80001, 0x47600000, 0x47700000, 0xC7700000, 0x3B000000,
    0x3A800000, 0x3AC00000, 0x37800000, 0x37000000, 0xB7400000, 0x3F880000, 0x3F980000,
    0x3F900000, 0x3FB00000, 0xC0533333, 0x49742400, 0x00000001,
};
/* The same from f16x2, two edges per register. */
static const uint64_t f8_f16x2_edges[] = {
    0x5F005F40, 0x5F417B00, 0x7B80FB80, 0x18001400, 0x1600A600, 0x3C403CC0, 0x3C803D80,
    0x7C00FC00, 0x7E008000, 0x00010000, 0xBC00C19A, 0x7BFF0400,
};
/* e4m3x2/e5m2x2 sources: zeros, the largest finite, NaN and infinity
 * patterns, subnormals, negatives. */
static const uint64_t f8x2_edges[] = {
    0x0000, 0x8000, 0x7E7F, 0xFEFF, 0x7B7C, 0xFBFC, 0x7D7E, 0x0102, 0x0708, 0x8381,
    0x3840, 0xB8C0, 0x7780, 0x0F10,
};
/* fma.oob: the OOB-NaN 0x7FF7 among other NaNs, infinities, zeros and
 * ordinary values, in f16 and bf16 (and per element for the x2 types). */
static const uint64_t oob_f16_edges[] = {
    0x7FF7, 0x3C00, 0x7E00, 0x7FFF, 0xBC00, 0x0000, 0x7C00, 0x8000, 0x3555, 0xFFF7, 0x4000,
};
static const uint64_t oob_bf16_edges[] = {
    0x7FF7, 0x3F80, 0x7FC0, 0x7FFF, 0xBF80, 0x0000, 0x7F80, 0x8000, 0x3EAB, 0xFFF7, 0x4000,
};
static const uint64_t oob_f16x2_edges[] = {
    0x7FF73C00, 0x3C007FF7, 0x40003C00, 0x7E00BC00, 0x7FF77FF7, 0xBC003555, 0x00007C00,
    0x3C003C00,
};
static const uint64_t oob_bf16x2_edges[] = {
    0x7FF73F80, 0x3F807FF7, 0x40003F80, 0x7FC0BF80, 0x7FF77FF7, 0xBF803EAB, 0x00007F80,
    0xBF80BF80,
};

#define EDGES(x) x, sizeof x / sizeof x[0]

/* setp on f16x2 writes two predicates; store p as bit 0 and q as bit 1. */
#define SETP_X2(cmp, t)                                                       \
    ".reg .pred p, q; .reg .b32 t; setp." cmp "." t " p|q, %a, %b; "           \
    "selp.b32 %d, 1, 0, p; selp.b32 t, 2, 0, q; or.b32 %d, %d, t"

static const sem_case cases[] = {
    { "add.s32 %d, %a, %b", "s32", "s32", r_add_s32, EDGES(int32_edges) },
    { "add.sat.s32 %d, %a, %b", "s32", "s32", r_add_sat_s32, EDGES(int32_edges) },
    { "sub.u64 %d, %a, %b", "u64", "u64", r_sub_u64, EDGES(int64_edges) },
    { "mul.hi.s32 %d, %a, %b", "s32", "s32", r_mul_hi_s32, EDGES(int32_edges) },
    { "mul.hi.u32 %d, %a, %b", "u32", "u32", r_mul_hi_u32, EDGES(int32_edges) },
    { "mul.hi.u64 %d, %a, %b", "u64", "u64", r_mul_hi_u64, EDGES(int64_edges) },
    { "mul.wide.s32 %d, %a, %b", "s64", "s32", r_mul_wide_s32, EDGES(int32_edges) },
    { "mad.wide.u32 %d, %a, %b, %c", "u64", "u32", r_mad_wide_u32, EDGES(int32_edges) },
    { "mul.hi.s64 %d, %a, %b", "s64", "s64", r_mul_hi_s64, EDGES(int64_edges) },
    { ".reg .b32 t; add.cc.u32 t, %a, %b; mad.lo.cc.u32 %d, %a, %b, %c", "u32", "u32", r_mad_lo_cc_u32,
      EDGES(int32_edges) },
    { ".reg .b32 t; add.cc.u32 t, %a, %b; mad.lo.cc.u32 t, %a, %b, %c; addc.u32 %d, 0, 0", "u32", "u32",
      r_mad_lo_cc_cf_u32, EDGES(int32_edges) },
    { ".reg .b64 t; add.cc.u64 t, %a, %b; mad.hi.cc.u64 %d, %a, %b, %c", "u64", "u64", r_mad_hi_cc_u64,
      EDGES(int64_edges) },
    { ".reg .b64 t; mov.b64 t, %a; add.cc.u64 t, t, %b; addc.u64 %d, 0, 0", "u64", "u64", r_add_cc_alias_u64,
      EDGES(int64_edges) },
    { ".reg .b64 t; mov.b64 t, %a; add.cc.s64 t, t, -1; addc.u64 %d, 0, 0", "u64", "s64", r_add_cc_alias_m1,
      EDGES(int64_edges) },
    { ".reg .b64 t; add.cc.u64 t, %a, %b; mad.hi.cc.u64 t, %a, %b, %c; addc.u64 %d, 0, 0", "u64", "u64",
      r_mad_hi_cc_cf_u64, EDGES(int64_edges) },
    { ".reg .b32 t; add.cc.u32 t, %a, %b; madc.lo.u32 %d, %a, %b, %c", "u32", "u32", r_madc_lo_u32,
      EDGES(int32_edges) },
    { ".reg .b64 t; add.cc.u64 t, %a, %b; madc.hi.cc.u64 t, %a, %b, %c; addc.u64 %d, 0, 0", "u64", "u64",
      r_madc_hi_cc_cf_u64, EDGES(int64_edges) },
    { ".reg .b32 t; add.cc.u32 t, %a, %b; addc.u32 %d, %c, %a", "u32", "u32", r_addc_u32, EDGES(int32_edges) },
    { ".reg .b32 t; add.cc.u32 t, %a, %b; add.cc.u32 %d, %a, %c", "u32", "u32", r_add_cc_u32,
      EDGES(int32_edges) },
    { ".reg .b32 t; sub.cc.u32 t, %a, %b; subc.u32 %d, %c, %a", "u32", "u32", r_subc_u32, EDGES(int32_edges) },
    { ".reg .b64 t; sub.cc.u64 t, %a, %b; sub.cc.u64 %d, %c, %a", "u64", "u64", r_sub_cc_u64,
      EDGES(int64_edges) },
    { ".reg .b64 t; sub.cc.u64 t, %a, %b; subc.cc.u64 t, %c, %a; addc.u64 %d, 0, 0", "u64", "u64",
      r_subc_cc_bf_u64, EDGES(int64_edges) },
    { "mad.lo.s32 %d, %a, %b, %c", "s32", "s32", r_mad_lo_s32, EDGES(int32_edges) },
    { "div.s32 %d, %a, %b", "s32", "s32", r_div_s32, EDGES(int32_edges) },
    { "rem.s32 %d, %a, %b", "s32", "s32", r_rem_s32, EDGES(int32_edges) },
    { "div.u64 %d, %a, %b", "u64", "u64", r_div_u64, EDGES(int64_edges) },
    { "shl.b32 %d, %a, %b", "b32", "b32", r_shl_b32, EDGES(int32_edges) },
    { "shr.s32 %d, %a, %b", "s32", "s32", r_shr_s32, EDGES(int32_edges) },
    { "shr.u64 %d, %a, %b", "u64", "u64", r_shr_u64, EDGES(int64_edges) },
    { "popc.b64 %d, %a", "b64", "b64", r_popc_b64, EDGES(int64_edges) },
    { "clz.b32 %d, %a", "b32", "b32", r_clz_b32, EDGES(int32_edges) },
    { "brev.b32 %d, %a", "b32", "b32", r_brev_b32, EDGES(int32_edges) },
    { "bfind.s32 %d, %a", "s32", "s32", r_bfind_s32, EDGES(int32_edges) },
    { "bfe.u32 %d, %a, %b, %c", "u32", "u32", r_bfe_u32, EDGES(int32_edges) },
    { "and.b32 %d, %a, %b", "b32", "b32", r_and_b32, EDGES(int32_edges) },
    { "xor.b64 %d, %a, %b", "b64", "b64", r_xor_b64, EDGES(int64_edges) },
    { "min.s32 %d, %a, %b", "s32", "s32", r_min_s32, EDGES(int32_edges) },
    { "max.u16 %d, %a, %b", "u16", "u16", r_max_u16, EDGES(int32_edges) },
    { "min.s16x2 %d, %a, %b", "b32", "b32", r_min_s16x2, EDGES(int32_edges) },
    { "max.u16x2 %d, %a, %b", "b32", "b32", r_max_u16x2, EDGES(int32_edges) },
    { "max.relu.s16x2 %d, %a, %b", "b32", "b32", r_max_relu_s16x2, EDGES(int32_edges) },
    { "add.f32 %d, %a, %b", "f32", "f32", r_add_f32, EDGES(f32_edges) },
    { "add.rz.f32 %d, %a, %b", "f32", "f32", r_add_rz_f32, EDGES(f32_edges) },
    { "add.ftz.f32 %d, %a, %b", "f32", "f32", r_add_ftz_f32, EDGES(f32_edges) },
    { "mul.rm.f32 %d, %a, %b", "f32", "f32", r_mul_rm_f32, EDGES(f32_edges) },
    { "div.rp.f32 %d, %a, %b", "f32", "f32", r_div_rp_f32, EDGES(f32_edges) },
    { "div.rn.f32 %d, %a, %b", "f32", "f32", r_div_rn_f32, EDGES(f32_edges) },
    { "fma.rn.f32 %d, %a, %b, %c", "f32", "f32", r_fma_f32, EDGES(f32_edges) },
    { "fma.rn.f64 %d, %a, %b, %c", "f64", "f64", r_fma_f64, EDGES(f64_edges) },
    { "add.f64 %d, %a, %b", "f64", "f64", r_add_f64, EDGES(f64_edges) },
    { "min.f32 %d, %a, %b", "f32", "f32", r_min_f32, EDGES(f32_edges) },
    { "max.NaN.f32 %d, %a, %b", "f32", "f32", r_max_nan_f32, EDGES(f32_edges) },
    { "min.xorsign.abs.f32 %d, %a, %b", "f32", "f32", r_min_xorsign_abs_f32, EDGES(f32_edges) },
    { "setp.lt.f32 %d, %a, %b", "pred", "f32", r_setp_lt_f32, EDGES(f32_edges) },
    { "setp.ltu.f32 %d, %a, %b", "pred", "f32", r_setp_ltu_f32, EDGES(f32_edges) },
    { "setp.ge.s32 %d, %a, %b", "pred", "s32", r_setp_ge_s32, EDGES(int32_edges) },
    { "setp.hi.u32 %d, %a, %b", "pred", "u32", r_setp_hi_u32, EDGES(int32_edges) },
    { "testp.normal.f32 %d, %a", "pred", "f32", r_testp_normal_f32, EDGES(f32_edges) },
    { "testp.normal.f64 %d, %a", "pred", "f64", r_testp_normal_f64, EDGES(f64_edges) },
    { "testp.subnormal.f32 %d, %a", "pred", "f32", r_testp_subnormal_f32, EDGES(f32_edges) },
    { "testp.subnormal.f64 %d, %a", "pred", "f64", r_testp_subnormal_f64, EDGES(f64_edges) },
    { "testp.finite.f32 %d, %a", "pred", "f32", r_testp_finite_f32, EDGES(f32_edges) },
    { "testp.finite.f64 %d, %a", "pred", "f64", r_testp_finite_f64, EDGES(f64_edges) },
    { "testp.infinite.f32 %d, %a", "pred", "f32", r_testp_infinite_f32, EDGES(f32_edges) },
    { "testp.infinite.f64 %d, %a", "pred", "f64", r_testp_infinite_f64, EDGES(f64_edges) },
    { "testp.number.f32 %d, %a", "pred", "f32", r_testp_number_f32, EDGES(f32_edges) },
    { "testp.number.f64 %d, %a", "pred", "f64", r_testp_number_f64, EDGES(f64_edges) },
    { "testp.notanumber.f32 %d, %a", "pred", "f32", r_testp_notanumber_f32, EDGES(f32_edges) },
    { "testp.notanumber.f64 %d, %a", "pred", "f64", r_testp_notanumber_f64, EDGES(f64_edges) },
    { "cvt.rzi.s32.f32 %d, %a", "s32", "f32", r_cvt_rzi_s32_f32, EDGES(f32_edges) },
    { "cvt.rni.s32.f32 %d, %a", "s32", "f32", r_cvt_rni_s32_f32, EDGES(f32_edges) },
    { "cvt.rmi.u32.f64 %d, %a", "u32", "f64", r_cvt_rmi_u32_f64, EDGES(f64_edges) },
    { "cvt.rzi.s32.f64 %d, %a", "s32", "f64", r_cvt_rzi_s32_f64, EDGES(f64_edges) },
    { "cvt.rzi.s64.f64 %d, %a", "s64", "f64", r_cvt_rzi_s64_f64, EDGES(f64_edges) },
    { "cvt.rni.u64.f32 %d, %a", "u64", "f32", r_cvt_rni_u64_f32, EDGES(f32_edges) },
    { "cvt.rzi.s16.f64 %d, %a", "s16", "f64", r_cvt_rzi_s16_f64, EDGES(f64_edges) },
    { "cvt.rpi.u8.f64 %d, %a", "u8", "f64", r_cvt_rpi_u8_f64, EDGES(f64_edges) },
    { "cvt.rzi.u16.f32 %d, %a", "u16", "f32", r_cvt_rzi_u16_f32, EDGES(f32_edges) },
    { "cvt.rzi.s64.f16 %d, %a", "s64", "b16", r_cvt_rzi_s64_f16, EDGES(f16_edges) },
    { "cvt.rn.f32.s32 %d, %a", "f32", "s32", r_cvt_rn_f32_s32, EDGES(int32_edges) },
    { "cvt.rz.f32.u64 %d, %a", "f32", "u64", r_cvt_rz_f32_u64, EDGES(int64_edges) },
    { "cvt.rn.f32.f64 %d, %a", "f32", "f64", r_cvt_rn_f32_f64, EDGES(f64_edges) },
    { "cvt.f64.f32 %d, %a", "f64", "f32", r_cvt_f64_f32, EDGES(f32_edges) },
    { "cvt.sat.s8.s32 %d, %a", "s8", "s32", r_cvt_sat_s8_s32, EDGES(int32_edges) },
    { "cvt.s64.s16 %d, %a", "s64", "s16", r_cvt_s64_s16, EDGES(int32_edges) },
    { "cvt.rni.sat.s8.f32 %d, %a", "b32", "f32", r_cvt_rni_sat_s8_f32_b32, EDGES(f32_edges) },
    { "cvt.sat.s8.s32 %d, %a", "b32", "s32", r_cvt_sat_s8_s32_b32, EDGES(int32_edges) },
    { "cvt.rzi.s8.f64 %d, %a", "b32", "f64", r_cvt_rzi_s8_f64_b32, EDGES(f64_edges) },
    { "cvt.s32.s8 %d, %a", "b64", "b16", r_cvt_s32_s8_b64, EDGES(int32_edges) },
    { "cvt.s16.s32 %d, %a", "b64", "s32", r_cvt_s16_s32_b64, EDGES(int32_edges) },
    { "ld.global.s8 %d, [%rd6]", "b32", "b32", r_ld_s8_b32, EDGES(int32_edges) },
    { "ld.global.s8 %d, [%rd6]", "b16", "b16", r_ld_s8_b16, EDGES(int32_edges) },
    { "ld.global.s16 %d, [%rd6]", "b64", "b64", r_ld_s16_b64, EDGES(int64_edges) },
    { "ld.global.s32 %d, [%rd6]", "b64", "b64", r_ld_s32_b64, EDGES(int64_edges) },
    { "ld.global.u8 %d, [%rd6]", "b32", "b32", r_ld_u8_b32, EDGES(int32_edges) },
    { ".reg .b32 x, y; ld.global.v2.s8 {x, y}, [%rd6]; mov.b64 %d, {x, y}", "b64", "b64", r_ld_v2_s8_b32,
      EDGES(int64_edges) },
    { "cvt.pack.sat.s8.s32.b32 %d, %a, %b, %c", "b32", "s32", r_cvt_pack_sat_s8_s32_b32, EDGES(int32_edges) },
    { "mul.wide.s16 %d, %a, %b", "b32", "s16", r_mul_wide_s16, EDGES(int32_edges) },
    { "cvt.rn.f16.f32 %d, %a", "b16", "f32", r_cvt_rn_f16_f32, EDGES(f32_edges) },
    { "cvt.f32.f16 %d, %a", "f32", "b16", r_cvt_f32_f16, EDGES(int32_edges) },
    { "add.f16 %d, %a, %b", "b16", "b16", r_add_f16, EDGES(f16_edges) },
    { "add.ftz.f16 %d, %a, %b", "b16", "b16", r_add_ftz_f16, EDGES(f16_edges) },
    { "add.sat.f16 %d, %a, %b", "b16", "b16", r_add_sat_f16, EDGES(f16_edges) },
    { "sub.rn.f16 %d, %a, %b", "b16", "b16", r_sub_f16, EDGES(f16_edges) },
    { "mul.f16 %d, %a, %b", "b16", "b16", r_mul_f16, EDGES(f16_edges) },
    { "mul.ftz.sat.f16 %d, %a, %b", "b16", "b16", r_mul_ftz_sat_f16, EDGES(f16_edges) },
    /* 0x0001 * 0x83FF rounds to -0, which .sat makes +0 (as on f32) */
    { "mul.sat.f16 %d, %a, %b", "b16", "b16", r_mul_sat_f16, EDGES(f16_edges) },
    { "fma.rn.sat.f16 %d, %a, %b, %c", "b16", "b16", r_fma_sat_f16, EDGES(f16_edges) },
    { "fma.rn.f16 %d, %a, %b, %c", "b16", "b16", r_fma_f16, EDGES(f16_edges) },
    { "fma.rn.ftz.sat.f16 %d, %a, %b, %c", "b16", "b16", r_fma_ftz_sat_f16, EDGES(f16_edges) },
    { "fma.rn.relu.f16 %d, %a, %b, %c", "b16", "b16", r_fma_relu_f16, EDGES(f16_edges) },
    { "fma.rz.f16 %d, %a, %b, %c", "b16", "b16", r_fma_rz_f16, EDGES(f16_edges) },
    { "fma.rm.f16 %d, %a, %b, %c", "b16", "b16", r_fma_rm_f16, EDGES(f16_edges) },
    { "add.rp.f16 %d, %a, %b", "b16", "b16", r_add_rp_f16, EDGES(f16_edges) },
    { "add.f16x2 %d, %a, %b", "b32", "b32", r_add_f16x2, EDGES(f16x2_edges) },
    { "fma.rn.f16x2 %d, %a, %b, %c", "b32", "b32", r_fma_f16x2, EDGES(f16x2_edges) },
    { "fma.rn.ftz.relu.f16x2 %d, %a, %b, %c", "b32", "b32", r_fma_ftz_relu_f16x2, EDGES(f16x2_edges) },
    { "add.bf16 %d, %a, %b", "b16", "b16", r_add_bf16, EDGES(bf16_edges) },
    { "mul.rn.bf16x2 %d, %a, %b", "b32", "b32", r_mul_bf16x2, EDGES(bf16x2_edges) },
    { "fma.rn.bf16 %d, %a, %b, %c", "b16", "b16", r_fma_bf16, EDGES(bf16_edges) },
    { "fma.rn.bf16x2 %d, %a, %b, %c", "b32", "b32", r_fma_bf16x2, EDGES(bf16x2_edges) },
    { "fma.rn.relu.bf16 %d, %a, %b, %c", "b16", "b16", r_fma_relu_bf16, EDGES(bf16_edges) },
    { "neg.f16 %d, %a", "b16", "b16", r_neg_f16, EDGES(f16_edges) },
    { "abs.ftz.f16 %d, %a", "b16", "b16", r_abs_ftz_f16, EDGES(f16_edges) },
    { "neg.bf16x2 %d, %a", "b32", "b32", r_neg_bf16x2, EDGES(bf16x2_edges) },
    { "min.f16 %d, %a, %b", "b16", "b16", r_min_f16, EDGES(f16_edges) },
    { "max.NaN.f16x2 %d, %a, %b", "b32", "b32", r_max_nan_f16x2, EDGES(f16x2_edges) },
    { "min.xorsign.abs.bf16 %d, %a, %b", "b16", "b16", r_min_xorsign_abs_bf16, EDGES(bf16_edges) },
    { "max.bf16 %d, %a, %b", "b16", "b16", r_max_bf16, EDGES(bf16_edges) },
    { "setp.lt.f16 %d, %a, %b", "pred", "b16", r_setp_lt_f16, EDGES(f16_edges) },
    { "setp.gtu.bf16 %d, %a, %b", "pred", "b16", r_setp_gtu_bf16, EDGES(bf16_edges) },
    { SETP_X2("ge", "f16x2"), "b32", "b32", r_setp_ge_f16x2, EDGES(f16x2_edges) },
    { "set.lt.f16x2.f16x2 %d, %a, %b", "b32", "b32", r_set_lt_f16x2, EDGES(f16x2_edges) },
    { "set.ge.u32.bf16x2 %d, %a, %b", "b32", "b32", r_set_ge_u32_bf16x2, EDGES(bf16x2_edges) },
    { "set.lt.f16.f16 %d, %a, %b", "b16", "b16", r_set_lt_f16_f16, EDGES(f16_edges) },
    { "cvt.rn.f16.f64 %d, %a", "b16", "f64", r_cvt_rn_f16_f64, EDGES(f64_edges) },
    { "cvt.rz.f16.f64 %d, %a", "b16", "f64", r_cvt_rz_f16_f64, EDGES(f64_edges) },
    { "cvt.rm.f16.f32 %d, %a", "b16", "f32", r_cvt_rm_f16_f32, EDGES(f32_edges) },
    { "cvt.rn.bf16.f64 %d, %a", "b16", "f64", r_cvt_rn_bf16_f64, EDGES(f64_edges) },
    { "cvt.rn.bf16.u64 %d, %a", "b16", "u64", r_cvt_rn_bf16_u64, EDGES(int64_edges) },
    { "cvt.rn.f16x2.f32 %d, %a, %b", "b32", "f32", r_cvt_rn_f16x2_f32, EDGES(f32_edges) },
    { "cvt.rn.relu.bf16x2.f32 %d, %a, %b", "b32", "f32", r_cvt_rn_relu_bf16x2_f32, EDGES(f32_edges) },
    { "cvt.f32.bf16 %d, %a", "f32", "b16", r_cvt_f32_bf16, EDGES(bf16_edges) },
    { "ex2.approx.f16 %d, %a", "b16", "b16", r_ex2_f16, EDGES(f16_edges) },
    { "cvt.rna.tf32.f32 %d, %a", "b32", "f32", r_cvt_rna_tf32_f32, EDGES(tf32_edges) },
    { "cvt.rna.satfinite.tf32.f32 %d, %a", "b32", "f32", r_cvt_rna_satfinite_tf32_f32, EDGES(tf32_edges) },
    { "cvt.rn.tf32.f32 %d, %a", "b32", "f32", r_cvt_rn_tf32_f32, EDGES(tf32_edges) },
    { "cvt.rz.relu.tf32.f32 %d, %a", "b32", "f32", r_cvt_rz_relu_tf32_f32, EDGES(tf32_edges) },
    { "cvt.rn.satfinite.relu.tf32.f32 %d, %a", "b32", "f32", r_cvt_rn_satfinite_relu_tf32_f32,
      EDGES(tf32_edges) },
    { "cvt.rn.satfinite.f16.f32 %d, %a", "b16", "f32", r_cvt_rn_satfinite_f16_f32, EDGES(satf_edges) },
    { "cvt.rn.satfinite.bf16.f32 %d, %a", "b16", "f32", r_cvt_rn_satfinite_bf16_f32, EDGES(satf_edges) },
    { "cvt.rn.satfinite.relu.f16x2.f32 %d, %a, %b", "b32", "f32", r_cvt_rn_satfinite_relu_f16x2_f32,
      EDGES(satf_edges) },
    { "cvt.rz.satfinite.bf16x2.f32 %d, %a, %b", "b32", "f32", r_cvt_rz_satfinite_bf16x2_f32,
      EDGES(satf_edges) },
    { "cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b", "b16", "f32", r_cvt_e4m3x2_f32, EDGES(f8_f32_edges) },
    { "cvt.rn.satfinite.relu.e4m3x2.f32 %d, %a, %b", "b16", "f32", r_cvt_relu_e4m3x2_f32,
      EDGES(f8_f32_edges) },
    { "cvt.rn.satfinite.e5m2x2.f32 %d, %a, %b", "b16", "f32", r_cvt_e5m2x2_f32, EDGES(f8_f32_edges) },
    { "cvt.rn.relu.satfinite.e5m2x2.f32 %d, %a, %b", "b16", "f32", r_cvt_relu_e5m2x2_f32,
      EDGES(f8_f32_edges) },
    { "cvt.rn.satfinite.e4m3x2.f16x2 %d, %a", "b16", "b32", r_cvt_e4m3x2_f16x2, EDGES(f8_f16x2_edges) },
    { "cvt.rn.satfinite.relu.e5m2x2.f16x2 %d, %a", "b16", "b32", r_cvt_relu_e5m2x2_f16x2,
      EDGES(f8_f16x2_edges) },
    { "cvt.rn.f16x2.e4m3x2 %d, %a", "b32", "b16", r_cvt_f16x2_e4m3x2, EDGES(f8x2_edges) },
    { "cvt.rn.f16x2.e5m2x2 %d, %a", "b32", "b16", r_cvt_f16x2_e5m2x2, EDGES(f8x2_edges) },
    { "cvt.rn.relu.f16x2.e4m3x2 %d, %a", "b32", "b16", r_cvt_relu_f16x2_e4m3x2, EDGES(f8x2_edges) },
    { "fma.rn.oob.f16 %d, %a, %b, %c", "b16", "b16", r_fma_oob_f16, EDGES(oob_f16_edges) },
    { "fma.rn.oob.f16x2 %d, %a, %b, %c", "b32", "b32", r_fma_oob_f16x2, EDGES(oob_f16x2_edges) },
    { "fma.rn.oob.relu.bf16 %d, %a, %b, %c", "b16", "b16", r_fma_oob_relu_bf16, EDGES(oob_bf16_edges) },
    { "fma.rn.oob.relu.bf16x2 %d, %a, %b, %c", "b32", "b32", r_fma_oob_relu_bf16x2, EDGES(oob_bf16x2_edges) },
    /* Atomics on a's own slot, then read back: the slot holds a OP b. */
    { "atom.global.add.noftz.f16 %d, [%rd6], %b; ld.global.b16 %d, [%rd6]", "b16", "b16", r_add_f16,
      EDGES(f16_edges) },
    { "red.global.add.noftz.f16x2 [%rd6], %b; ld.global.b32 %d, [%rd6]", "b32", "b32", r_add_f16x2,
      EDGES(f16x2_edges) },
    { "atom.global.add.noftz.bf16 %d, [%rd6], %b; ld.global.b16 %d, [%rd6]", "b16", "b16", r_add_bf16,
      EDGES(bf16_edges) },
    { "atom.global.min.f16 %d, [%rd6], %b; ld.global.b16 %d, [%rd6]", "b16", "b16", r_min_f16,
      EDGES(f16_edges) },
};

/* Every f16 value through cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2,
 * and every 8-bit code back through cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}:
 * 64 values a launch, each compared with the search reference. */
static void test_f8_exhaustive(void)
{
    static const struct { const char *inst; bool e5, relu, widen; } forms[] = {
        { "cvt.rn.satfinite.e4m3x2.f16x2 %d, %a", false, false, false },
        { "cvt.rn.satfinite.relu.e4m3x2.f16x2 %d, %a", false, true, false },
        { "cvt.rn.satfinite.e5m2x2.f16x2 %d, %a", true, false, false },
        { "cvt.rn.satfinite.relu.e5m2x2.f16x2 %d, %a", true, true, false },
        { "cvt.rn.f16x2.e4m3x2 %d, %a", false, false, true },
        { "cvt.rn.relu.f16x2.e4m3x2 %d, %a", false, true, true },
        { "cvt.rn.f16x2.e5m2x2 %d, %a", true, false, true },
        { "cvt.rn.relu.f16x2.e5m2x2 %d, %a", true, true, true },
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        bool widen = forms[f].widen;
        unsigned total = widen ? 256 : 65536, shift = widen ? 8 : 16, bad = 0;
        for (unsigned base = 0; base < total && bad < 4; base += 2 * N) {
            uint64_t a[N], zero[N] = {0}, d[N];
            for (unsigned l = 0; l < N; l++)
                a[l] = (uint64_t)(base + 2 * l + 1) << shift | (base + 2 * l);
            if (!run_inst(forms[f].inst, widen ? "b32" : "b16", widen ? "b16" : "b32", a, zero, zero, d)) {
                CHECK(false, "%s did not run", forms[f].inst);
                break;
            }
            for (unsigned l = 0; l < N; l++) {
                uint64_t want = widen ? f16x2_f8x2(a[l], forms[f].e5, forms[f].relu)
                                      : f8x2_f16x2(a[l], forms[f].e5, forms[f].relu);
                uint64_t got = d[l] & (widen ? 0xFFFFFFFFu : 0xFFFFu);
                if (got != want && bad++ < 4)
                    CHECK(false, "%s a=0x%llx: got 0x%llx want 0x%llx", forms[f].inst,
                          (unsigned long long)a[l], (unsigned long long)got, (unsigned long long)want);
            }
        }
        CHECK(bad == 0, "%s: every input converts as the reference does", forms[f].inst);
    }
}

/* Every row of the table above against its reference. */
static void test_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
}

static const check_case test_cases[] = {
    CASE(table),
    CASE(f8_exhaustive),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, test_cases);
}

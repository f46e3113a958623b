/*
 * sem_arith.c -- arithmetic: add sub mul mad div rem abs neg min max and
 * their carry, 24-bit and float-only relatives (PTX ISA 9.7.1 - 9.7.4).
 *
 * Integer registers hold values zero-extended to 64 bits; every integer
 * result is cut to the instruction's width.  f32 results go through
 * f32_result() so NaNs are the GPU's canonical NaN and .ftz flushes;
 * f16/bf16 results (and each element of f16x2/bf16x2) through half_out(),
 * which rounds them once, by bits, from a double.
 */
#include "isa_int.h"

#include <limits.h>

#define FTZ(in) (((in)->flags & ISA_MOD_FLAG(FTZ)) != 0)
#define SAT(in) (((in)->flags & ISA_MOD_FLAG(SAT)) != 0)

static inline bool directed(uint8_t rnd)
{
    return rnd != ISA_RND_NONE && rnd != ISA_RND_RN;
}

/* .ftz flushes a result that is tiny after rounding (isa_tiny_after_rounding):
 * an H200 gives 0 for mul.ftz.f32 0x3F7FFFFF, 0x00800000, whose product,
 * (1 - 2^-24) * 2^-126, rounds up to 2^-126 only because of the exponent's
 * lower bound.  A rounded result below 2^-126 is subnormal and flushed
 * anyway; one of exactly 2^-126 may be tiny, and `tiny` (an expression in
 * x, y, z and the mode rnd_) says whether it is.  The operations whose
 * result can round up to 2^-126 give their test (tiny_product, tiny_fma,
 * tiny_quotient); a sum cannot (a sum of f32 values below 2^-126 is
 * exact). */
#define F32_MIN_NORMAL 0x1p-126f
#define FLUSH_TINY(r, tiny)                                                   \
    do {                                                                      \
        if (ftz_ && fabsf(r) == F32_MIN_NORMAL && (tiny))                     \
            r = copysignf(0.0f, r);                                           \
    } while (0)

static inline bool tiny_product(float x, float y, uint8_t rnd)
{
    return isa_tiny_after_rounding((double)x * y, 24, -126, rnd);     /* exact: 48 bits */
}

/* x * y + z rounded to odd in double (sum_odd needs the host's
 * round-to-nearest, which F32_LOOP may have changed). */
static inline bool tiny_fma(float x, float y, float z, uint8_t rnd)
{
    int saved = isa_round_begin(ISA_RND_RN);
    double v = sum_odd((double)x * y, z);
    isa_round_end(saved);
    return isa_tiny_after_rounding(v, 24, -126, rnd);
}

static inline bool tiny_quotient(float x, float y, uint8_t rnd)
{
    return isa_tiny_after_rounding(quotient_odd(x, y), 24, -126, rnd);
}

/* One f32 lane loop over `expr` (in x, y, z), with .ftz, .sat and the
 * instruction's rounding mode. */
#define F32_LOOP(expr) F32_LOOP_T(expr, false)
#define F32_LOOP_T(expr, tiny)                                                \
    do {                                                                      \
        const bool ftz_ = FTZ(in), sat_ = SAT(in);                            \
        const bool dir_ = directed(in->rnd);                                  \
        const uint8_t rnd_ = in->rnd;                                         \
        (void)rnd_;                                                           \
        int saved_ = dir_ ? isa_round_begin(in->rnd) : 0;                     \
        LANES(mask, {                                                         \
            float x = f32_of(a[l]), y = f32_of(b ? b[l] : 0),                 \
                  z = f32_of(c ? c[l] : 0);                                   \
            if (ftz_) { x = ftz32(x); y = ftz32(y); z = ftz32(z); }           \
            (void)y; (void)z;                                                 \
            float r_ = (expr);                                                \
            FLUSH_TINY(r_, tiny);                                             \
            if (sat_) r_ = sat01f(r_);                                        \
            d[l] = f32_result(r_, ftz_);                                      \
        });                                                                   \
        if (dir_) isa_round_end(saved_);                                      \
    } while (0)

/* The same on each f32 of an .f32x2 pair (no .sat: the ISA gives the
 * pair forms none). */
#define F32X2_LOOP(expr, tiny)                                                \
    do {                                                                      \
        const bool ftz_ = FTZ(in), dir_ = directed(in->rnd);                  \
        const uint8_t rnd_ = in->rnd;                                         \
        (void)rnd_;                                                           \
        int saved_ = dir_ ? isa_round_begin(in->rnd) : 0;                     \
        LANES(mask, {                                                         \
            uint64_t r2_ = 0;                                                 \
            for (unsigned h_ = 0; h_ < 64; h_ += 32) {                        \
                float x = f32_of(a[l] >> h_), y = f32_of(b ? b[l] >> h_ : 0), \
                      z = f32_of(c ? c[l] >> h_ : 0);                         \
                if (ftz_) { x = ftz32(x); y = ftz32(y); z = ftz32(z); }       \
                (void)y; (void)z;                                             \
                float r_ = (expr);                                            \
                FLUSH_TINY(r_, tiny);                                         \
                r2_ |= (f32_result(r_, ftz_) & 0xFFFFFFFFu) << h_;            \
            }                                                                 \
            d[l] = r2_;                                                       \
        });                                                                   \
        if (dir_) isa_round_end(saved_);                                      \
    } while (0)

#define F64_LOOP(expr)                                                        \
    do {                                                                      \
        const bool sat_ = SAT(in), dir_ = directed(in->rnd);                  \
        int saved_ = dir_ ? isa_round_begin(in->rnd) : 0;                     \
        LANES(mask, {                                                         \
            double x = f64_of(a[l]), y = f64_of(b ? b[l] : 0),                \
                   z = f64_of(c ? c[l] : 0);                                  \
            (void)y; (void)z;                                                 \
            double r_ = (expr);                                               \
            if (sat_) r_ = sat01d(r_);                                        \
            d[l] = f64_result(r_);                                            \
        });                                                                   \
        if (dir_) isa_round_end(saved_);                                      \
    } while (0)

/* A half-precision result: `r` is the exact value, or one rounded to odd
 * (sum_odd), rounded once under the mode, in the order of the f32 forms
 * (F32_LOOP_T): under .ftz a result that rounded up to the smallest normal
 * only because of the exponent's bound is flushed to a zero of its sign
 * (an H200 gives 0 for mul.ftz.f16 0x3BFF, 0x0400); .sat then clamps the
 * rounded value to [+0, 1] (NaN and -0 to +0, as on f32); .ftz flushes a subnormal result; .relu makes
 * negative results (and -0) +0. */
static inline uint32_t half_out(double r, bool bf, uint8_t rnd, bool ftz, bool sat, bool relu)
{
    uint32_t h = isa_half_round(r, bf, rnd);
    const uint32_t min_normal = bf ? 0x0080u : 0x0400u;
    if (ftz && (h & 0x7FFFu) == min_normal && isa_tiny_after_rounding(r, bf ? 8 : 11, bf ? -126 : -14, rnd))
        h &= 0x8000u;
    if (sat)
        h = half_sat01(h, bf);
    if (relu && (h & 0x8000u) && !half_isnan(h, bf))
        h = 0;
    return ftz ? half_ftz(h, bf) : h;
}

/* p + c for half-precision results.  An exact zero sum of opposite-signed
 * operands is +0, but -0 under .rm (IEEE 754 6.3); the host sum, always in
 * round-to-nearest here, gives +0. */
static inline double half_sum(double p, double c, uint8_t rnd)
{
    double s = sum_odd(p, c);
    if (s == 0 && rnd == ISA_RND_RM && signbit(p) != signbit(c))
        return -0.0;
    return s;
}

/* The OOB-NaN that a tensor copy's NaN fill mode writes for elements
 * outside the tensor (PTX ISA 5.5.3.3), as f16 and as bf16.  The ISA does
 * not give its bits; 0x7FF7 in every 16-bit element is what the tensor unit
 * is reported to write (0x7FF7 is a NaN in both formats, and not the
 * canonical NaN arithmetic produces, so fma.oob tells them apart). */
#define HALF_OOB_NAN 0x7FF7u

/* One f16/bf16 lane loop over `expr` (in doubles x, y, z and the mode rnd),
 * once per element for the x2 types: element 0 in bits 15..0, element 1 in
 * bits 31..16.  The host stays in round-to-nearest (sum_odd needs it).
 * An element for which `zero` (over the raw halves ha_, hb_, hc_) holds is
 * +0 (fma.oob); HALF_LOOP has no such elements. */
#define HALF_LOOP(expr) HALF_LOOP_ZERO(expr, false)
#define HALF_LOOP_ZERO(expr, zero)                                            \
    do {                                                                      \
        const bool bf_ = type_bf16(in->type), ftz_ = FTZ(in), sat_ = SAT(in); \
        const bool relu_ = (in->flags & ISA_MOD_FLAG(RELU)) != 0;             \
        const uint8_t rnd = in->rnd;                                          \
        LANES(mask, {                                                         \
            uint64_t out_ = 0;                                                \
            HALF_SHIFTS(in->type, h_) {                                       \
                uint32_t ha_ = half_at(a[l], h_);                             \
                uint32_t hb_ = b ? half_at(b[l], h_) : 0;                     \
                uint32_t hc_ = c ? half_at(c[l], h_) : 0;                     \
                if (zero)                                                     \
                    continue;                                                 \
                if (ftz_) {                                                   \
                    ha_ = half_ftz(ha_, bf_);                                 \
                    hb_ = half_ftz(hb_, bf_);                                 \
                    hc_ = half_ftz(hc_, bf_);                                 \
                }                                                             \
                double x = half_to_f64(ha_, bf_), y = half_to_f64(hb_, bf_),  \
                       z = half_to_f64(hc_, bf_);                             \
                (void)y; (void)z;                                             \
                out_ |= (uint64_t)half_out((expr), bf_, rnd, ftz_, sat_,      \
                                           relu_) << h_;                      \
            }                                                                 \
            d[l] = out_;                                                      \
        });                                                                   \
    } while (0)

/* The element(s) of a half-precision operand, cut to the type's width and
 * flushed under .ftz. */
static inline uint64_t half_flush(uint64_t v, const isa_inst *in)
{
    uint64_t out = 0;
    bool bf = type_bf16(in->type);
    HALF_SHIFTS(in->type, h)
        out |= (uint64_t)(FTZ(in) ? half_ftz(half_at(v, h), bf) : half_at(v, h)) << h;
    return out;
}

/* neg (flip = 1) and abs (flip = 0) on each element's sign bit.  A NaN
 * becomes the canonical NaN, as in the host versions of __hneg and __habs
 * in cuda_fp16.hpp and cuda_bf16.hpp, which mirror the device's results. */
static inline uint64_t half_sign(uint64_t v, uint8_t t, unsigned flip)
{
    uint64_t out = 0;
    bool bf = type_bf16(t);
    HALF_SHIFTS(t, h) {
        uint32_t e = half_at(v, h);
        e = half_isnan(e, bf) ? HALF_CANON_NAN : flip ? e ^ 0x8000u : e & 0x7FFFu;
        out |= (uint64_t)e << h;
    }
    return out;
}

#define HALF_TYPES                                                            \
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: case ISA_TYPE_BF16: case ISA_TYPE_BF16X2

/* Float arithmetic by type, and the half-precision form, whose double value
 * must round once to the right result (exact, or half_sum). */
#define FLOAT_CASES(expr) FLOAT_CASES_T(expr, false)
#define FLOAT_CASES_T(expr, tiny)                                             \
    case ISA_TYPE_F32: F32_LOOP_T(expr, tiny); return PTX_OK;                 \
    case ISA_TYPE_F32X2: F32X2_LOOP(expr, tiny); return PTX_OK;               \
    case ISA_TYPE_F64: F64_LOOP(expr); return PTX_OK;                         \
    case ISA_TYPE_TF32: return PTX_E_UNSUPPORTED;
#define HALF_CASES(hexpr) HALF_TYPES: HALF_LOOP(hexpr); return PTX_OK;

/* Mixed precision (PTX ISA 9.7.5, sm_100): add/sub{.rnd}{.sat}.f32.atype
 * d, a, c and fma.rnd{.sat}.f32.abtype d, a, b, c with .f16 or .bf16 a
 * (and b): the half sources widen to f32 (exactly), then the f32
 * operation.  op: 0 add, 1 sub, 2 fma. */
static bool is_mixed(const isa_inst *in)
{
    return in->type == ISA_TYPE_F32 && (in->type2 == ISA_TYPE_F16 || in->type2 == ISA_TYPE_BF16);
}

static ptx_status mixed(isa_warp *w, const isa_inst *in, uint32_t mask, int op)
{
    const bool bf = in->type2 == ISA_TYPE_BF16, sat = SAT(in), dir = directed(in->rnd);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = op == 2 ? SRC(3) : NULL;
    uint64_t *d = DST(0);
    int saved = dir ? isa_round_begin(in->rnd) : 0;
    LANES(mask, {
        float x = (float)half_to_f64(half_at(a[l], 0), bf), r;
        if (op == 2)
            r = fmaf(x, (float)half_to_f64(half_at(b[l], 0), bf), f32_of(c[l]));
        else
            r = op ? x - f32_of(b[l]) : x + f32_of(b[l]);
        d[l] = f32_result(sat ? sat01f(r) : r, false);
    });
    if (dir)
        isa_round_end(saved);
    return PTX_OK;
}

/* Signed saturation to 32 bits, for add.sat.s32 / sub.sat.s32 / mad.sat. */
static inline uint64_t sat_s32(int64_t v)
{
    return (uint32_t)(v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : v);
}

/* add, sub, min, max (and .relu) of .u16x2 and .s16x2 (PTX ISA 8.0,
 * sm_90): each 16-bit element on its own, sums wrapping. */
enum { PAIR_ADD, PAIR_SUB, PAIR_MIN, PAIR_MAX };

static bool is_pair16(const isa_inst *in) { return in->type == ISA_TYPE_U16X2 || in->type == ISA_TYPE_S16X2; }

static ptx_status pair16(isa_warp *w, const isa_inst *in, uint32_t mask, unsigned op)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    bool sgn = in->type == ISA_TYPE_S16X2, relu = in->flags & ISA_MOD_FLAG(RELU);
    LANES(mask, {
        uint64_t r = 0;
        for (unsigned h = 0; h < 32; h += 16) {
            uint32_t xu = (uint32_t)(a[l] >> h) & 0xFFFF, yu = (uint32_t)(b[l] >> h) & 0xFFFF;
            int32_t x = sgn ? (int16_t)xu : (int32_t)xu, y = sgn ? (int16_t)yu : (int32_t)yu, e;
            switch (op) {
            case PAIR_ADD: e = x + y; break;
            case PAIR_SUB: e = x - y; break;
            case PAIR_MIN: e = x < y ? x : y; break;
            default: e = x > y ? x : y; break;
            }
            if (relu && e < 0)
                e = 0;
            r |= (uint64_t)((uint32_t)e & 0xFFFF) << h;
        }
        d[l] = r;
    });
    return PTX_OK;
}

ptx_status isa_sem_add(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (is_pair16(in))
        return pair16(w, in, mask, PAIR_ADD);
    if (is_mixed(in))
        return mixed(w, in, mask, 0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = NULL;
    uint64_t *d = DST(0);
    switch (in->type) {
    FLOAT_CASES(x + y)
    HALF_CASES(half_sum(x, y, rnd))
    default: break;
    }
    (void)c;
    unsigned n = type_bytes(in->type);
    uint64_t wm = width_mask(n);
    if (SAT(in)) {
        LANES(mask, d[l] = sat_s32(sext(a[l], 4) + sext(b[l], 4)));
    } else if (in->flags & ISA_MOD_FLAG(CC)) {
        /* The carry from the sum at full width, before d (which may be a
         * or b: add.cc.u64 %rd1, %rd1, -1) is written. */
        uint32_t cf = 0;
        LANES(mask, {
            unsigned __int128 s = (unsigned __int128)(a[l] & wm) + (b[l] & wm);
            cf |= (uint32_t)((s >> (n * 8)) & 1) << l;
            d[l] = (uint64_t)s & wm;
        });
        w->cc = (w->cc & ~mask) | cf;
    } else {
        LANES(mask, d[l] = (a[l] + b[l]) & wm);
    }
    return PTX_OK;
}

ptx_status isa_sem_sub(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (is_pair16(in))
        return pair16(w, in, mask, PAIR_SUB);
    if (is_mixed(in))
        return mixed(w, in, mask, 1);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = NULL;
    uint64_t *d = DST(0);
    switch (in->type) {
    FLOAT_CASES(x - y)
    HALF_CASES(half_sum(x, -y, rnd))
    default: break;
    }
    (void)c;
    uint64_t wm = width_mask(type_bytes(in->type));
    if (SAT(in)) {
        LANES(mask, d[l] = sat_s32(sext(a[l], 4) - sext(b[l], 4)));
    } else if (in->flags & ISA_MOD_FLAG(CC)) {
        /* CC.CF is the carry out of a + ~b + 1, as the hardware computes a
         * difference: 1 when there is no borrow (measured on an H200: 0 -
         * 0 leaves CF set), which subc reads back the same way. */
        uint32_t cf = 0;
        LANES(mask, {
            cf |= (uint32_t)((a[l] & wm) >= (b[l] & wm)) << l;
            d[l] = (a[l] - b[l]) & wm;
        });
        w->cc = (w->cc & ~mask) | cf;
    } else {
        LANES(mask, d[l] = (a[l] - b[l]) & wm);
    }
    return PTX_OK;
}

/* addc / subc / madc: consume CC.CF, and produce it again with .cc.
 * mad.lo.cc and mad.hi.cc (carry_in false) only produce it: in the PTX ISA
 * only the instructions whose name ends in c (addc, subc, madc) read CC.CF,
 * which is how a chain starts with a carry of 0 whatever the flag held. */
static ptx_status carry_op(isa_warp *w, const isa_inst *in, uint32_t mask, int kind, bool carry_in)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    const uint64_t *c = kind == 2 ? SRC(3) : NULL;
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type);
    uint64_t wm = width_mask(n);
    bool sgn = type_signed(in->type);
    uint32_t cin = carry_in ? w->cc : 0, cout = 0;
    LANES(mask, {
        unsigned __int128 x = a[l] & wm, y = b[l] & wm, r;
        unsigned ci = (cin >> l) & 1;
        if (kind == 1) {                        /* subc: a + ~b + CF, i.e. a - b - !CF */
            r = x + (~y & wm) + ci;
            cout |= (uint32_t)((r >> (n * 8)) & 1) << l;
        } else {
            if (kind == 2) {                    /* madc: a * b (.lo/.hi) + c + CF */
                /* The product of the operands' values: signed for .s32
                 * and .s64, whose .hi half differs from the unsigned one
                 * (PTX ISA, mad.cc and madc: "multiplies two values"). */
                unsigned __int128 p = sgn ? (unsigned __int128)((__int128)sext(x, n) * sext(y, n)) : x * y;
                x = in->flags & ISA_MOD_FLAG(HI) ? (p >> (n * 8)) & wm : p & wm;
                y = c[l] & wm;
            }
            r = x + y + ci;
            cout |= (uint32_t)((r >> (n * 8)) & 1) << l;
        }
        d[l] = (uint64_t)r & wm;
    });
    if (in->flags & ISA_MOD_FLAG(CC))
        w->cc = (w->cc & ~mask) | cout;
    return PTX_OK;
}

ptx_status isa_sem_addc(isa_warp *w, const isa_inst *in, uint32_t mask) { return carry_op(w, in, mask, 0, true); }
ptx_status isa_sem_subc(isa_warp *w, const isa_inst *in, uint32_t mask) { return carry_op(w, in, mask, 1, true); }
ptx_status isa_sem_madc(isa_warp *w, const isa_inst *in, uint32_t mask) { return carry_op(w, in, mask, 2, true); }

/* The integer product a * b as .lo, .hi or .wide asks. */
static inline uint64_t int_mul(uint64_t x, uint64_t y, unsigned n, bool sgn, uint32_t flags)
{
    if (flags & ISA_MOD_FLAG(WIDE)) {           /* n <= 4: exact in 64 bits */
        if (sgn)
            return (uint64_t)(sext(x, n) * sext(y, n)) & width_mask(2 * n);
        return ((x & width_mask(n)) * (y & width_mask(n))) & width_mask(2 * n);
    }
    if (flags & ISA_MOD_FLAG(HI)) {
        if (n == 8) {
            if (sgn)
                return (uint64_t)(((__int128)(int64_t)x * (int64_t)y) >> 64);
            return (uint64_t)(((unsigned __int128)x * y) >> 64);
        }
        if (sgn)
            return (uint64_t)((sext(x, n) * sext(y, n)) >> (n * 8)) & width_mask(n);
        return (((x & width_mask(n)) * (y & width_mask(n))) >> (n * 8)) & width_mask(n);
    }
    return (x * y) & width_mask(n);
}

ptx_status isa_sem_mul(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = NULL;
    uint64_t *d = DST(0);
    switch (in->type) {
    FLOAT_CASES_T(x * y, tiny_product((float)x, (float)y, rnd_))
    HALF_CASES(x * y)           /* exact in double: at most 22 significant bits */
    default: break;
    }
    (void)c;
    unsigned n = type_bytes(in->type);
    bool sgn = type_signed(in->type);
    uint32_t fl = in->flags;
    if (!(fl & (ISA_MOD_FLAG(HI) | ISA_MOD_FLAG(WIDE)))) {
        uint64_t wm = width_mask(n);
        LANES(mask, d[l] = (a[l] * b[l]) & wm);
    } else {
        LANES(mask, d[l] = int_mul(a[l], b[l], n, sgn, fl));
    }
    return PTX_OK;
}

ptx_status isa_sem_mad(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    switch (in->type) {
    /* mad.f32/f64 with a rounding modifier is a fused multiply-add (sm_20+);
     * the ISA has no half-precision mad. */
    FLOAT_CASES_T(in->type != ISA_TYPE_F64 ? fmaf((float)x, (float)y, (float)z) : fma(x, y, z),
                  tiny_fma((float)x, (float)y, (float)z, rnd_))
    HALF_TYPES: return PTX_E_UNSUPPORTED;
    default: break;
    }
    unsigned n = type_bytes(in->type);
    bool sgn = type_signed(in->type);
    uint32_t fl = in->flags;
    if (fl & ISA_MOD_FLAG(SAT)) {               /* mad.hi.sat.s32 */
        LANES(mask, d[l] = sat_s32(sext(int_mul(a[l], b[l], 4, true, ISA_MOD_FLAG(HI)), 4) +
                                   sext(c[l], 4)));
    } else if (fl & ISA_MOD_FLAG(CC)) {
        return carry_op(w, in, mask, 2, false);
    } else {
        unsigned rn = fl & ISA_MOD_FLAG(WIDE) ? 2 * n : n;
        uint64_t wm = width_mask(rn);
        LANES(mask, d[l] = (int_mul(a[l], b[l], n, sgn, fl) + c[l]) & wm);
    }
    return PTX_OK;
}

ptx_status isa_sem_fma(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (is_mixed(in))
        return mixed(w, in, mask, 2);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    if (in->mode == ISA_MODE_OOB) {
        /* fma.rn.oob{.relu} (PTX ISA, half-precision fma, "Out Of Bounds
         * modifier", PTX 8.1, sm_90): +0 where an operand is the OOB-NaN. */
        switch (in->type) {
        HALF_TYPES:
            HALF_LOOP_ZERO(half_sum(x * y, z, rnd),
                           ha_ == HALF_OOB_NAN || hb_ == HALF_OOB_NAN || hc_ == HALF_OOB_NAN);
            return PTX_OK;
        default: return PTX_E_UNSUPPORTED;      /* f16, bf16 and their pairs only */
        }
    }
    /* A negated register source (never written in PTX): what contraction
     * makes of `sub` (frontend/contract.c), as the machine's FFMA -a, b, -c
     * does.  Negation is exact, so it comes before the one rounding. */
    const bool na = opd_negated(&in->opd[1]), nc = opd_negated(&in->opd[3]);
    switch (in->type) {
    case ISA_TYPE_F32:
        F32_LOOP_T(fmaf(na ? -x : x, y, nc ? -z : z), tiny_fma(na ? -x : x, y, nc ? -z : z, rnd_));
        return PTX_OK;
    case ISA_TYPE_F64: F64_LOOP(fma(na ? -x : x, y, nc ? -z : z)); return PTX_OK;
    case ISA_TYPE_F32X2: F32X2_LOOP(fmaf(x, y, z), tiny_fma(x, y, z, rnd_)); return PTX_OK;
    case ISA_TYPE_TF32: return PTX_E_UNSUPPORTED;
    /* x * y is exact in double, so half_sum's rounding is the only one. */
    HALF_CASES(half_sum(x * y, z, rnd))
    default: return PTX_E_UNSUPPORTED;
    }
}

/* mul24/mad24: the 48-bit product of the low 24 bits of each operand. */
static inline uint64_t mul24(uint64_t x, uint64_t y, bool sgn, bool hi)
{
    int64_t p = sgn ? sext(x & 0xFFFFFF, 3) * sext(y & 0xFFFFFF, 3)
                    : (int64_t)((x & 0xFFFFFF) * (y & 0xFFFFFF));
    return (uint32_t)(hi ? (uint64_t)p >> 16 : (uint64_t)p);
}

ptx_status isa_sem_mul24(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    bool sgn = type_signed(in->type), hi = in->flags & ISA_MOD_FLAG(HI);
    LANES(mask, d[l] = mul24(a[l], b[l], sgn, hi));
    return PTX_OK;
}

ptx_status isa_sem_mad24(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    bool sgn = type_signed(in->type), hi = in->flags & ISA_MOD_FLAG(HI);
    if (SAT(in))
        LANES(mask, d[l] = sat_s32(sext(mul24(a[l], b[l], true, hi), 4) + sext(c[l], 4)));
    else
        LANES(mask, d[l] = (uint32_t)(mul24(a[l], b[l], sgn, hi) + c[l]));
    return PTX_OK;
}

ptx_status isa_sem_sad(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type);
    uint64_t wm = width_mask(n);
    if (type_signed(in->type))
        LANES(mask, {
            int64_t x = sext(a[l], n), y = sext(b[l], n);
            /* |a - b| of .s64 operands can pass INT64_MAX: subtract
             * unsigned (the difference is exact modulo 2^64). */
            d[l] = ((x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x) + c[l]) & wm;
        });
    else
        LANES(mask, {
            uint64_t x = a[l] & wm, y = b[l] & wm;
            d[l] = ((x > y ? x - y : y - x) + c[l]) & wm;
        });
    return PTX_OK;
}

/* Integer division by zero has no trap on a GPU: the quotient is all ones
 * and the remainder is the dividend (what the hardware's reciprocal
 * sequence yields); INT_MIN / -1 wraps to INT_MIN. */
static inline uint64_t idiv(uint64_t x, uint64_t y, unsigned n, bool sgn, bool rem)
{
    uint64_t wm = width_mask(n);
    if (sgn) {
        int64_t sx = sext(x, n), sy = sext(y, n);
        if (sy == 0)
            return rem ? (uint64_t)sx & wm : wm;
        if (sy == -1)
            return rem ? 0 : (uint64_t)(-(uint64_t)sx) & wm;
        return (uint64_t)(rem ? sx % sy : sx / sy) & wm;
    }
    x &= wm;
    y &= wm;
    if (y == 0)
        return rem ? x : wm;
    return rem ? x % y : x / y;
}

ptx_status isa_sem_div(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2), *c = NULL;
    uint64_t *d = DST(0);
    if (in->type == ISA_TYPE_F32 && (in->flags & ISA_MOD_FLAG(APPROX))) {
        /* PTX ISA div: div.approx.f32 is a * (1 / b), and "for 2^126 <
         * |b| < 2^128, if a is infinity, div.approx.f32 returns NaN,
         * otherwise returns 0" (the reciprocal is below the normal range
         * and flushed).  Elsewhere the quotient, within the 2 ulp bound. */
        const bool ftz = FTZ(in);
        LANES(mask, {
            float x = f32_of(a[l]), y = f32_of(b[l]);
            if (ftz) { x = ftz32(x); y = ftz32(y); }
            float r = fabsf(y) > 0x1p126f && !isinf(y) ? x * copysignf(0.0f, y) : x / y;
            if (ftz && fabsf(r) == F32_MIN_NORMAL && tiny_quotient(x, y, ISA_RND_RN))
                r = copysignf(0.0f, r);         /* tiny before rounding, as div.rn.ftz */
            d[l] = f32_result(r, ftz);
        });
        return PTX_OK;
    }
    switch (in->type) {
    /* div.full.f32 promises 2 ulp; ptxsim returns the correctly rounded
     * quotient, which is within that bound. */
    FLOAT_CASES_T(x / y, tiny_quotient((float)x, (float)y, rnd_))
    HALF_TYPES: return PTX_E_UNSUPPORTED;   /* no half-precision div in the ISA */
    default: break;
    }
    (void)c;
    unsigned n = type_bytes(in->type);
    bool sgn = type_signed(in->type);
    LANES(mask, d[l] = idiv(a[l], b[l], n, sgn, false));
    return PTX_OK;
}

ptx_status isa_sem_rem(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type);
    bool sgn = type_signed(in->type);
    LANES(mask, d[l] = idiv(a[l], b[l], n, sgn, true));
    return PTX_OK;
}

ptx_status isa_sem_abs(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type);
    switch (in->type) {
    case ISA_TYPE_F32: {                 /* clears the sign bit; NaN payload kept */
        bool ftz = FTZ(in);
        LANES(mask, d[l] = bits_f32(ftz ? ftz32(fabsf(f32_of(a[l]))) : fabsf(f32_of(a[l]))));
        return PTX_OK;
    }
    case ISA_TYPE_F64:
        LANES(mask, d[l] = a[l] & 0x7FFFFFFFFFFFFFFFull);
        return PTX_OK;
    HALF_TYPES:                          /* clears the sign bits; .ftz flushes first */
        LANES(mask, d[l] = half_sign(half_flush(a[l], in), in->type, 0));
        return PTX_OK;
    default:
        LANES(mask, {
            int64_t x = sext(a[l], n);
            d[l] = (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x) & width_mask(n);
        });
        return PTX_OK;
    }
}

ptx_status isa_sem_neg(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type);
    switch (in->type) {
    case ISA_TYPE_F32: {
        bool ftz = FTZ(in);
        LANES(mask, d[l] = bits_f32(ftz ? ftz32(-f32_of(a[l])) : -f32_of(a[l])));
        return PTX_OK;
    }
    case ISA_TYPE_F64:
        LANES(mask, d[l] = a[l] ^ 0x8000000000000000ull);
        return PTX_OK;
    HALF_TYPES:                          /* flips the sign bits; .ftz flushes first */
        LANES(mask, d[l] = half_sign(half_flush(a[l], in), in->type, 1));
        return PTX_OK;
    default:
        LANES(mask, d[l] = (0 - a[l]) & width_mask(n));
        return PTX_OK;
    }
}

/* min/max on f64 (fmin32 and fmax32 are in isa_int.h). */
static inline double fmin64(double x, double y)
{
    if (x != x || y != y)
        return x != x && y != y ? f64_of(F64_CANON_NAN) : (x != x ? y : x);
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}

static inline double fmax64(double x, double y)
{
    if (x != x || y != y)
        return x != x && y != y ? f64_of(F64_CANON_NAN) : (x != x ? y : x);
    if (x == y)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}

static ptx_status minmax(isa_warp *w, const isa_inst *in, uint32_t mask, bool is_max)
{
    if (is_pair16(in))
        return pair16(w, in, mask, is_max ? PAIR_MAX : PAIR_MIN);
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    unsigned n = type_bytes(in->type);
    bool nan = in->flags & ISA_MOD_FLAG(NAN);
    switch (in->type) {
    case ISA_TYPE_F32: {
        bool ftz = FTZ(in), xs = in->flags & ISA_MOD_FLAG(XORSIGN), absv = in->flags & ISA_MOD_FLAG(ABS);
        /* min/max{.ftz}{.NaN}{.abs}.f32 d, a, b, c (PTX ISA 8.8): the
         * two-input rule on a and b, then on that and c. */
        const uint64_t *c3 = in->nopd > 3 ? SRC(3) : NULL;
        LANES(mask, {
            float x = f32_of(a[l]), y = f32_of(b[l]);
            if (ftz) { x = ftz32(x); y = ftz32(y); }
            bool neg = signbit(x) != signbit(y);
            if (xs || absv) { x = fabsf(x); y = fabsf(y); }  /* .xorsign.abs, as for the halves */
            float r = is_max ? fmax32(x, y, nan) : fmin32(x, y, nan);
            if (c3) {
                float z = f32_of(c3[l]);
                if (ftz) z = ftz32(z);
                if (absv) z = fabsf(z);
                r = is_max ? fmax32(r, z, nan) : fmin32(r, z, nan);
            }
            if (xs && r == r)
                r = copysignf(r, neg ? -1.0f : 1.0f);
            d[l] = bits_f32(r);
        });
        return PTX_OK;
    }
    case ISA_TYPE_F64:
        LANES(mask, d[l] = bits_f64(is_max ? fmax64(f64_of(a[l]), f64_of(b[l]))
                                           : fmin64(f64_of(a[l]), f64_of(b[l]))));
        return PTX_OK;
    HALF_TYPES: {
        bool bf = type_bf16(in->type), xs = in->flags & ISA_MOD_FLAG(XORSIGN);
        LANES(mask, {
            uint64_t x = half_flush(a[l], in), y = half_flush(b[l], in), r = 0;
            HALF_SHIFTS(in->type, h)
                r |= (uint64_t)half_minmax(half_at(x, h), half_at(y, h), bf, is_max, nan, xs) << h;
            d[l] = r;
        });
        return PTX_OK;
    }
    default:
        break;
    }
    if (type_signed(in->type)) {
        /* min.relu.s32 / max.relu.s32 (PTX ISA 8.0, sm_90): a negative
         * result becomes 0. */
        bool relu = in->flags & ISA_MOD_FLAG(RELU);
        LANES(mask, {
            int64_t x = sext(a[l], n), y = sext(b[l], n);
            int64_t r = (is_max ? x > y : x < y) ? x : y;
            d[l] = (uint64_t)(relu && r < 0 ? 0 : r) & width_mask(n);
        });
    } else {
        LANES(mask, {
            uint64_t x = a[l] & width_mask(n), y = b[l] & width_mask(n);
            d[l] = (is_max ? x > y : x < y) ? x : y;
        });
    }
    return PTX_OK;
}

const char *isa_type_form_error(const isa_inst *in)
{
    bool packed = in->type == ISA_TYPE_U16X2 || in->type == ISA_TYPE_S16X2 || in->type2 == ISA_TYPE_U16X2 ||
                  in->type2 == ISA_TYPE_S16X2;
    if (packed && in->op != ISA_OP_ADD && in->op != ISA_OP_SUB && in->op != ISA_OP_MIN && in->op != ISA_OP_MAX)
        return "packed 16-bit integers (.u16x2, .s16x2) are operands of add, sub, min and max only";
    /* A .b128 element is as wide as a vector may be: ptxas refuses .v2.b128
     * and .v4.b128 ("Vector type too large, exceeds 128 bit limit"). */
    if (in->vec > 1 && in->type == ISA_TYPE_B128 && !(isa_ops[in->op].flags & ISA_F_MATRIX))
        return "vectors of .b128 are not PTX (ptxas: vector type too large); move each .b128 on its own";
    if (isa_ops[in->op].flags & ISA_F_VIDEO)
        return isa_video_form_error(in);
    if ((in->op == ISA_OP_ST || in->op == ISA_OP_RED) && in->mode)
        return isa_async_form_error(in);
    if (in->op == ISA_OP_TENSORMAP)
        return isa_tensormap_form_error(in);
    return NULL;
}

ptx_status isa_sem_min(isa_warp *w, const isa_inst *in, uint32_t mask) { return minmax(w, in, mask, false); }
ptx_status isa_sem_max(isa_warp *w, const isa_inst *in, uint32_t mask) { return minmax(w, in, mask, true); }

/* ---- floating-point only ------------------------------------------------ */

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 (PTX ISA): computed from
 * the upper word of a alone (1.11.20; the lower word is ignored), the
 * result in the upper word of d cut to 20 mantissa bits and "the
 * least significant 32 bits of d are all zeros"; subnormal inputs and
 * results flush to zeros of their sign; a NaN gives 0x7FFFFFFF00000000. */
static uint64_t f64_upper_approx(uint64_t v, bool rsqrt)
{
    const uint64_t sign = 0x8000000000000000ull, upper = 0xFFFFFFFF00000000ull;
    double x = f64_of(v & upper);
    if (fpclassify(x) == FP_SUBNORMAL)
        x = copysign(0.0, x);
    double r = rsqrt ? 1.0 / sqrt(x) : 1.0 / x;  /* rsqrt(-0) = 1 / -0 = -inf */
    if (r != r)
        return 0x7FFFFFFF00000000ull;
    if (fpclassify(r) == FP_SUBNORMAL)
        return bits_f64(r) & sign;
    uint64_t bits = bits_f64(r);
    if (!isinf(r))
        bits &= upper;          /* toward zero, as an H200's answers (tests/gpu/probe.cu) */
    return bits;
}

/* Unary f32/f64 operations.  The .approx forms (sin, cos, lg2, ex2, rsqrt,
 * tanh, and rcp/sqrt .approx) are computed with the host's libm in single
 * or double precision: within the ISA's stated error bounds, but not the
 * last-bit pattern of a particular GPU's approximation.  `halves` is
 * HALF_CASES(...) for the instructions with f16/bf16 forms (ex2.approx and
 * tanh.approx): the double result rounded once to nearest, again within
 * the bounds (2^-9.9 relative for ex2.f16, 2^-7 for bf16).  `tiny` is
 * FLUSH_TINY's test for the result (rcp's can round up to 2^-126). */
#define UNARY_SEM(name, e32, tiny, e64, halves, upper)                        \
    ptx_status isa_sem_##name(isa_warp *w, const isa_inst *in, uint32_t mask) \
    {                                                                         \
        const uint64_t *a = SRC(1), *b = NULL, *c = NULL;                     \
        uint64_t *d = DST(0);                                                 \
        if (upper && in->type == ISA_TYPE_F64 && FTZ(in) &&                   \
            (in->flags & ISA_MOD_FLAG(APPROX))) {                             \
            LANES(mask, d[l] = f64_upper_approx(a[l], upper == 2));           \
            return PTX_OK;                                                    \
        }                                                                     \
        switch (in->type) {                                                   \
        case ISA_TYPE_F32: F32_LOOP_T(e32, tiny); return PTX_OK;              \
        case ISA_TYPE_F64: F64_LOOP(e64); return PTX_OK;                      \
        halves                                                                \
        default: return PTX_E_UNSUPPORTED;                                    \
        }                                                                     \
    }

UNARY_SEM(rcp,   1.0f / x,          tiny_quotient(1.0f, x, rnd_), 1.0 / x, , 1)
UNARY_SEM(sqrt,  sqrtf(x),          false, sqrt(x), , 0)
UNARY_SEM(rsqrt, 1.0f / sqrtf(x),   false, 1.0 / sqrt(x), , 2)
UNARY_SEM(sin,   sinf(x),           false, sin(x), , 0)
UNARY_SEM(cos,   cosf(x),           false, cos(x), , 0)
UNARY_SEM(lg2,   log2f(x),          false, log2(x), , 0)
UNARY_SEM(ex2,   exp2f(x),          false, exp2(x), HALF_CASES(exp2(x)), 0)
UNARY_SEM(tanh,  tanhf(x),          false, tanh(x), HALF_CASES(tanh(x)), 0)

ptx_status isa_sem_copysign(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint64_t *d = DST(0);
    if (in->type == ISA_TYPE_F32)
        LANES(mask, d[l] = (b[l] & 0x7FFFFFFFu) | (a[l] & 0x80000000u));
    else
        LANES(mask, d[l] = (b[l] & 0x7FFFFFFFFFFFFFFFull) | (a[l] & 0x8000000000000000ull));
    return PTX_OK;
}

ptx_status isa_sem_testp(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *a = SRC(1);
    uint32_t bits = 0;
    bool f64 = in->type == ISA_TYPE_F64;
    LANES(mask, {
        int cls = f64 ? fpclassify(f64_of(a[l])) : fpclassify(f32_of(a[l]));
        bool t;
        switch (in->mode) {
        case ISA_MODE_FINITE: t = cls != FP_NAN && cls != FP_INFINITE; break;
        case ISA_MODE_INFINITE: t = cls == FP_INFINITE; break;
        case ISA_MODE_NUMBER: t = cls != FP_NAN; break;
        case ISA_MODE_NOTANUMBER: t = cls == FP_NAN; break;
        /* The ISA counts +0 and -0 as normal numbers here. */
        case ISA_MODE_NORMAL: t = cls == FP_NORMAL || cls == FP_ZERO; break;
        case ISA_MODE_SUBNORMAL: t = cls == FP_SUBNORMAL; break;
        default: t = false; break;
        }
        bits |= (uint32_t)t << l;
    });
    isa_set_pred_dst(w, in, mask, bits);
    return PTX_OK;
}

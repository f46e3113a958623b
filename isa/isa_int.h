/*
 * isa_int.h -- what the semantic functions share: the lane loop, operand
 * access and bit-level conversions.  Internal to isa/.
 *
 * Every semantic function has the shape
 *
 *     ptx_status isa_sem_xxx(isa_warp *w, const isa_inst *in, uint32_t mask)
 *     {
 *         const uint64_t *a = SRC(1), *b = SRC(2);
 *         uint64_t *d = DST(0);
 *         switch (in->type) { ... one LANES() loop per type ... }
 *     }
 *
 * The type is chosen once per warp-instruction, outside the lane loop, so
 * each loop body is straight-line code over plain arrays.
 */
#ifndef PTXSIM_ISA_INT_H
#define PTXSIM_ISA_INT_H

#include "isa.h"

#include <math.h>
#include <string.h>

#define FULL_MASK 0xFFFFFFFFu

/* Every semantic function, declared from opcodes.def with the one type
 * isa_sem_fn: a definition with another signature fails to compile. */
#define PTX_OP(E, id, fam, lat, pm, fl) isa_sem_fn isa_sem_##id;
#include "opcodes.def"
#undef PTX_OP

/* Run the body (the macro's remaining arguments) for every lane l set in mask.  A full warp takes the plain
 * counted loop, which the compiler can unroll and vectorise; partial masks
 * walk the set bits. */
#define LANES(mask, ...)                                                     \
    do {                                                                      \
        uint32_t m_ = (mask);                                                 \
        if (m_ == FULL_MASK) {                                                \
            for (unsigned l = 0; l < ISA_WARP_SIZE; l++) { __VA_ARGS__; }            \
        } else {                                                              \
            while (m_) {                                                      \
                unsigned l = (unsigned)__builtin_ctz(m_);                     \
                m_ &= m_ - 1;                                                 \
                __VA_ARGS__;                                                  \
            }                                                                 \
        }                                                                     \
    } while (0)

/* Operand access.  Sources that are not registers (immediates, special
 * registers, symbol addresses) are broadcast into a scratch column so every
 * loop reads plain columns. */
const uint64_t *isa_src_slow(isa_warp *w, const isa_inst *in, unsigned i);

static inline const uint64_t *isa_src(isa_warp *w, const isa_inst *in, unsigned i)
{
    const isa_opd *o = &in->opd[i];
    if (o->kind == ISA_OPD_REG)
        return w->r + (size_t)o->reg * ISA_WARP_SIZE;
    return isa_src_slow(w, in, i);
}

static inline uint64_t *isa_dst(isa_warp *w, const isa_inst *in, unsigned i)
{
    /* A '_' destination (atom.global.add.u64 _, [a], b): the result goes
     * to a column nobody reads, not to the function's first register. */
    if (in->opd[i].kind == ISA_OPD_NONE)
        return w->sink;
    return w->r + (size_t)in->opd[i].reg * ISA_WARP_SIZE;
}

/* A predicate operand as a lane mask (honouring `!p`). */
static inline uint32_t isa_pred(const isa_warp *w, const isa_opd *o)
{
    if (o->kind == ISA_OPD_IMM)
        return o->imm ? FULL_MASK : 0;
    uint32_t m = w->p[o->reg];
    return o->neg ? ~m : m;
}

/* Write predicate bits for the lanes in mask. */
static inline void isa_set_pred(isa_warp *w, unsigned p, uint32_t mask, uint32_t bits)
{
    w->p[p] = (w->p[p] & ~mask) | (bits & mask);
}

/* Write the predicate destination (operand 0) for the lanes in mask; the
 * sink `_` (setp.lt.s32 _|%p, a, b) takes nothing. */
static inline void isa_set_pred_dst(isa_warp *w, const isa_inst *in, uint32_t mask, uint32_t bits)
{
    if (in->opd[0].kind != ISA_OPD_NONE)
        isa_set_pred(w, in->opd[0].reg, mask, bits);
}

/* Lane l's address in an address operand ([reg + off] or [imm]), unwrapped:
 * for instructions that check each lane's address themselves. */
static inline uint64_t isa_lane_address(const isa_warp *w, const isa_opd *o, unsigned l)
{
    uint64_t a = (uint64_t)o->off;
    if (o->kind == ISA_OPD_ADDR && o->reg != ISA_NOREG)
        a += w->r[(size_t)o->reg * ISA_WARP_SIZE + l];
    return a;
}

#define SRC(i) isa_src(w, in, (i))
#define DST(i) isa_dst(w, in, (i))

/* ---- bit-level helpers -------------------------------------------------- */

static inline float f32_of(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static inline uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Bytes of a type as a mask of its low bits (for 1, 2, 4, 8 bytes). */
static inline uint64_t width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

/* Sign-extend the low `bytes` bytes of v. */
static inline int64_t sext(uint64_t v, unsigned bytes)
{
    unsigned sh = 64 - bytes * 8;
    return bytes >= 8 ? (int64_t)v : (int64_t)(v << sh) >> sh;
}

/* Whether a source is a negated register: a contracted fma's -a
 * (frontend/contract.c), vmad's -a, -b, -c.  (An immediate's neg is its
 * literal's flavour.) */
static inline bool opd_negated(const isa_opd *o) { return o->kind == ISA_OPD_REG && o->neg; }

static inline unsigned type_bytes(uint8_t t) { return isa_types[t].bytes; }
static inline bool type_signed(uint8_t t) { return isa_types[t].kind == ISA_KIND_S; }
static inline bool type_float(uint8_t t) { return isa_types[t].kind == ISA_KIND_F; }

/* The canonical NaNs NVIDIA GPUs produce for arithmetic on NaN inputs. */
#define F32_CANON_NAN 0x7FFFFFFFu
#define F64_CANON_NAN 0x7FFFFFFFFFFFFFFFull

/* Flush a subnormal f32 to a zero of the same sign (.ftz). */
static inline float ftz32(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* The result of an f32 operation as GPU bits: NaN canonical, .ftz applied. */
static inline uint64_t f32_result(float r, bool ftz)
{
    if (r != r)
        return F32_CANON_NAN;
    return bits_f32(ftz ? ftz32(r) : r);
}

/* min/max on f32 (min, max, redux.sync): a NaN operand yields the other
 * operand; two NaNs (or any NaN with .NaN) yield the canonical NaN.  -0
 * orders below +0. */
static inline float fmin32(float x, float y, bool nan)
{
    if (x != x || y != y)
        return nan || (x != x && y != y) ? f32_of(F32_CANON_NAN) : (x != x ? y : x);
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}

static inline float fmax32(float x, float y, bool nan)
{
    if (x != x || y != y)
        return nan || (x != x && y != y) ? f32_of(F32_CANON_NAN) : (x != x ? y : x);
    if (x == y)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}

static inline uint64_t f64_result(double r)
{
    return r != r ? F64_CANON_NAN : bits_f64(r);
}

/* ---- half precision (f16, bf16), by bits ------------------------------- */

/* f16 and bf16 values are the low 16 bits of a register, or the two halves
 * of an .f16x2/.bf16x2 one (element 0 in bits 15..0).  Both formats share
 * the canonical NaN the GPU produces. */
#define HALF_CANON_NAN 0x7FFFu

static inline bool type_bf16(uint8_t t) { return t == ISA_TYPE_BF16 || t == ISA_TYPE_BF16X2; }
static inline bool type_x2(uint8_t t) { return t == ISA_TYPE_F16X2 || t == ISA_TYPE_BF16X2; }

/* Infinity (the exponent field all ones) in f16 (bf = false) or bf16. */
static inline uint32_t half_inf(bool bf) { return bf ? 0x7F80u : 0x7C00u; }

static inline bool half_isnan(uint32_t h, bool bf) { return (h & 0x7FFFu) > half_inf(bf); }

/* .ftz: a subnormal becomes a zero of the same sign. */
static inline uint32_t half_ftz(uint32_t h, bool bf)
{
    return (h & half_inf(bf)) == 0 ? h & 0x8000u : h;
}

/* .sat on a rounded result (f32, f64, or a half's bits): NaN, negative
 * values and -0 become +0, values past 1.0 (infinity too) 1.0 -- so a
 * negative result too small for the format, rounded to -0, is +0 (an
 * H200's answer for f32 and f16 products, sums and conversions). */
static inline float sat01f(float x)
{
    return x != x || x <= 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

static inline double sat01d(double x)
{
    return x != x || x <= 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

static inline uint32_t half_sat01(uint32_t h, bool bf)
{
    const uint32_t one = bf ? 0x3F80u : 0x3C00u;
    if (half_isnan(h, bf) || (h & 0x8000u))
        return 0;
    return h > one && !(h & 0x8000u) ? one : h;
}

/* Each element of a half-precision value of type t: shift h = 0, and 16
 * for the x2 types. */
#define HALF_SHIFTS(t, h) for (unsigned h = 0; h < (type_x2(t) ? 32u : 16u); h += 16)

/* The element at shift h. */
static inline uint32_t half_at(uint64_t v, unsigned h) { return (uint32_t)(v >> h) & 0xFFFFu; }

static inline float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    uint32_t x;
    if (exp == 0x1F)
        x = sign | 0x7F800000 | (man << 13);
    else if (exp)
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    else if (!man)
        x = sign;
    else {
        int e = -1;
        do { man <<= 1; e++; } while (!(man & 0x400));
        x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3FF) << 13);
    }
    return f32_of(x);
}

static inline float bf16_to_f32(uint16_t h) { return f32_of((uint32_t)h << 16); }

/* A half value as a double (exact). */
static inline double half_to_f64(uint32_t h, bool bf)
{
    return bf ? bf16_to_f32((uint16_t)h) : f16_to_f32((uint16_t)h);
}

/* min/max on f16/bf16 bits: a NaN operand yields the other, two NaNs (or
 * one with .NaN) the canonical NaN, -0 orders below +0; with .xorsign.abs
 * the magnitudes are compared and a non-NaN result takes the XOR of the
 * operands' signs. */
static inline uint32_t half_minmax(uint32_t x, uint32_t y, bool bf, bool is_max, bool nan, bool xorsign)
{
    uint32_t sign = (x ^ y) & 0x8000u;
    if (xorsign) {
        x &= 0x7FFFu;
        y &= 0x7FFFu;
    }
    bool xn = half_isnan(x, bf), yn = half_isnan(y, bf);
    if (nan || (xn && yn))
        if (xn || yn)
            return HALF_CANON_NAN;
    /* One NaN: the other operand, which with .xorsign.abs still takes the
     * XOR of the signs (PTX ISA min/max: the sign is set on any non-NaN d). */
    if (xn || yn)
        return xorsign ? ((xn ? y : x) & 0x7FFFu) | sign : xn ? y : x;
    double dx = half_to_f64(x, bf), dy = half_to_f64(y, bf);
    uint32_t r;
    if (dx == dy)                   /* identical bits, or zeros: -0 orders below +0 */
        r = is_max ? x & y : x | y;
    else
        r = (is_max ? dx > dy : dx < dy) ? x : y;
    return xorsign ? (r & 0x7FFFu) | sign : r;
}

/* x rounded once to f16 or bf16 under rnd (RN for NONE and the integer
 * modes), by bits; NaN becomes the canonical NaN.  See fp_round.c. */
uint32_t isa_half_round(double x, bool bf, uint8_t rnd);

/* The value of an e4m3 or e5m2 byte (type ISA_TYPE_E4M3 or _E5M2). */
double isa_f8_to_f64(uint32_t bits, uint8_t type);
/* The finite magnitude ax > 0 rounded to a format with mbits fraction bits
 * and smallest normal exponent emin, as its unsigned bit pattern (not
 * bounded above; .rna rounds ties away from zero).  See fp_round.c. */
uint32_t isa_fp_round_bits(double ax, bool neg, int mbits, int emin, uint8_t rnd);
/* The same under .rs (stochastic rounding): away from zero when the
 * nrand-bit random value rbits, added to the discarded bits from their top,
 * carries out of them.  See fp_round.c. */
uint32_t isa_fp_round_bits_rs(double ax, int mbits, int emin, uint32_t rbits, unsigned nrand);

/* p + c rounded to odd in double (round toward zero, then set the last bit
 * if anything was lost), so that rounding it once more to f16 or bf16 gives
 * the correctly rounded p + c in every mode: round-to-odd at 53 bits keeps
 * the inexactness and the side of every 11- or 8-bit rounding boundary,
 * since 53 >= 11 + 2.  A plain rounded double sum would not do: bf16
 * operands may lie 250 binades apart, and an f16 a * b (down to 2^-48) plus
 * c (up to 2^16) spans more than 53 bits, so the first rounding can hide
 * which side of a boundary the exact sum lies on (wrong under .rz/.rm/.rp;
 * round-to-odd makes every mode exact without a case analysis).  Needs the
 * host in round-to-nearest, which the half-precision paths never leave. */
static inline double sum_odd(double p, double c)
{
    double s = p + c;
    if (!isfinite(s))
        return s;
    double cv = s - p, pv = s - cv;
    double e = (p - pv) + (c - cv);             /* s + e == p + c exactly (TwoSum) */
    if (e != 0 && !(bits_f64(s) & 1))
        s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    return s;
}

/* .ftz's test of a result (IEEE 754's tininess "after rounding"): v, the
 * exact value or one rounded to odd with at least p + 2 bits, rounded to
 * p significant bits under rnd as if the exponent had no lower bound; is
 * it below 2^emin, the format's smallest normal?  Then .ftz makes the
 * result a zero of v's sign.  An H200 flushes cvt.rn.ftz.f32.f64 of
 * (1 - 2^-24) * 2^-126 (24 bits: it stays below) but not of
 * (1 - 2^-25) * 2^-126 (it rounds to 2^-126 first), and mul.ftz.f32
 * 0x3F7FFFFF, 0x00800000 (the first of those) to +0. */
static inline bool isa_tiny_after_rounding(double v, int p, int emin, uint8_t rnd)
{
    if (v == 0 || v != v || fabs(v) >= ldexp(1.0, emin))
        return false;
    int e;
    double s = ldexp(frexp(fabs(v), &e), p), whole = floor(s), frac = s - whole;   /* all exact */
    bool neg = signbit(v), up;
    switch (rnd) {
    case ISA_RND_RZ: up = false; break;
    case ISA_RND_RM: up = neg && frac != 0; break;
    case ISA_RND_RP: up = !neg && frac != 0; break;
    default: up = frac > 0.5 || (frac == 0.5 && fmod(whole, 2.0) != 0); break;
    }
    return ldexp(whole + (up ? 1.0 : 0.0), e - p) < ldexp(1.0, emin);
}

/* x / y rounded to odd in double (exact for f32 operands' quotients to be
 * rounded once more to 24 bits): the nearest quotient, moved to its odd
 * neighbour toward the exact one when it is inexact and even. */
static inline double quotient_odd(double x, double y)
{
    double q = x / y;
    if (!isfinite(q) || q == 0)
        return q;
    double r = fma(-q, y, x);                   /* exact: the remainder */
    if (r != 0 && !(bits_f64(q) & 1))
        q = nextafter(q, (signbit(r) != signbit(y)) ? -INFINITY : INFINITY);
    return q;
}

/* Asynchronous copies and mbarriers (sem_mbarrier.c, sem_bulk.c), which
 * isa_sem_cp hands its bulk and mbarrier forms to; and the complete-tx of
 * `bytes` on the mbarrier at addr (in space) that a copy's completion does. */
ptx_status isa_cp_mbarrier_arrive(isa_warp *w, const isa_inst *in, uint32_t mask);
/* A shared-memory address as a swizzle of `span` bytes (32, 64, 128; 0:
 * none) places it: the 16-byte chunk's index within its span XORed with
 * the address's 128-byte row index (less `base`, a pattern's offset), so
 * the pattern repeats every 8 rows -- the layout the tensor copies write and
 * wgmma's swizzled operands read (sem_tensor.c, sem_mma.c). */
static inline uint64_t isa_swizzle_addr(uint64_t a, unsigned span, unsigned base)
{
    return span ? a ^ ((((a >> 7) - base) & (span / 16 - 1)) << 4) : a;
}

ptx_status isa_cp_bulk(isa_warp *w, const isa_inst *in, uint32_t mask);
/* One element of a bulk or tensor reduction: *out = OP(x, y) on 32- and
 * 64-bit integers (add, min, max, and, or, xor, inc, dec), f32/f64 (add)
 * and f16/bf16 (add, min, max); false for an operation the type does not
 * take (sem_bulk.c).  isa_reduce_elem applies it to *d with *s: in global
 * memory other host threads reach too (isa_mem.concurrent), as a relaxed
 * host atomic, as the reduction is (PTX ISA: .relaxed.gpu). */
bool isa_reduce_value(uint8_t type, uint8_t aop, uint64_t x, uint64_t y, uint64_t *out);
bool isa_reduce_elem(const isa_warp *w, uint8_t space, uint8_t type, uint8_t aop, uint8_t *d, const uint8_t *s);
ptx_status isa_cp_tensor(isa_warp *w, const isa_inst *in, uint32_t mask);
ptx_status isa_mbar_complete_tx(isa_warp *w, uint8_t space, uint64_t addr, uint32_t bytes, unsigned l);
/* st.async / red.async: the complete-tx of `bytes` on each lane's mbarrier
 * (operand 2), once its store or reduction is done (sem_async.c). */
ptx_status isa_async_complete(isa_warp *w, const isa_inst *in, uint32_t mask, unsigned bytes);

/* Directed rounding: the .rn common path never touches the host FP mode;
 * the other modes switch it around one lane loop (see fp_round.c). */
int isa_round_begin(uint8_t rnd);      /* returns the previous mode */
void isa_round_end(int saved);

/* The host location of `bytes` bytes at shared address `addr` (an offset
 * in the CTA's own shared memory or its reserved block, or in another
 * CTA's slot of the cluster: ISA_CLUSTER_SLOT), or NULL when no live CTA of
 * the cluster has them.  Memory checking also wants them inside the
 * kernel's .shared variables (or the dynamic shared memory above them). */
static inline uint8_t *isa_shared_at(const isa_mem *m, uint64_t addr, unsigned bytes)
{
    uint8_t *base = m->shared;
    if (addr >= ISA_CLUSTER_SLOT) {
        uint64_t rank = addr / ISA_CLUSTER_SLOT - 1;
        if (rank >= m->cluster_size || !m->cluster_shared || !(base = m->cluster_shared[rank]))
            return NULL;
        addr %= ISA_CLUSTER_SLOT;
    } else if (addr >= ISA_RESERVED_SMEM_AT) {
        return m->reserved && addr + bytes <= ISA_RESERVED_SMEM_AT + ISA_RESERVED_SMEM_BYTES
                   ? m->reserved + (addr - ISA_RESERVED_SMEM_AT) : NULL;
    }
    if (addr + bytes > m->shared_bytes)
        return NULL;
    if (m->shared_map)
        for (uint64_t a = addr; a < addr + bytes && a < m->shared_map_bytes; a++)
            if (!m->shared_map[a])
                return NULL;
    return base + addr;
}

#endif /* PTXSIM_ISA_INT_H */

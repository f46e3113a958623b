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

/* IEEE half (bits) to float, exactly (sem_conv.c). */
float isa_f16_to_f32(uint16_t h);

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

static inline uint64_t f64_result(double r)
{
    return r != r ? F64_CANON_NAN : bits_f64(r);
}

/* Directed rounding: the .rn common path never touches the host FP mode;
 * the other modes switch it around one lane loop (see fp_round.c). */
int isa_round_begin(uint8_t rnd);      /* returns the previous mode */
void isa_round_end(int saved);

#endif /* PTXSIM_ISA_INT_H */

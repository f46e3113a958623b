/*
 * sem_mma.c -- matrix multiply-accumulate and matrix moves: wmma.load
 * wmma.store wmma.mma mma ldmatrix stmatrix movmatrix (PTX ISA 9.7.14
 * "Warp Level Matrix Multiply-Accumulate Instructions"), and Hopper's
 * warpgroup multiply wgmma (9.7.15; its own part at the end of the file).
 *
 * A fragment is the part of a matrix one lane holds, in the registers of a
 * braced operand.  The ISA fixes mma's fragment layouts, shape by shape and
 * type by type, and every one of them follows one rule, which frag_coord
 * states.  Cut the matrix into blocks of 8 rows (of N for B, whose blocks
 * are its transpose's); in a block, lane l holds row l/4 (the ISA's
 * groupID) and the (l%4)'th run of consecutive columns (threadID_in_group):
 * one register's worth of A or B elements (two f16, four s8, one tf32 or
 * f64), or two C/D elements.  A fragment walks the blocks down the rows
 * first (A, C, D) or down K first (B).  For example mma.m16n8k16's A: a0,a1
 * row g, columns 2t..2t+1; a2,a3 row g+8; a4..a7 the same at columns +8.
 *
 * wmma's layouts are unspecified ("implementation-dependent"): ptxsim uses
 * the same rule, so a 16x16 accumulator is the two m16n8 accumulators side
 * by side, as on sm_80.  A wmma fragment with more elements than a lane
 * needs (f16 A and B: 16 elements for 8 distinct ones) holds them twice.
 *
 * Arithmetic.  Products of the input elements are exact (f16, bf16 and tf32
 * products fit a long double, as do e4m3 and e5m2), the sum C + sum_k A*B is formed in long
 * double in k order and rounded once to D's type, to nearest; a NaN result
 * is the canonical NaN.  Tensor cores accumulate with truncation in ways
 * NVIDIA does not document, so a GPU's last bit may differ: ptxsim gives
 * the correctly rounded value (almost always).  tf32 inputs use their top
 * 19 bits, as the hardware does; f64 is a chain of fused multiply-adds in k
 * order (.rn, IEEE like the DMMA unit); integers are exact, wrapping at 32
 * bits or clamping with .satfinite.
 *
 * mma.sp (9.7.14.6) multiplies a structured-sparse A: half of each row of
 * the M x K matrix is zero, and A's fragment holds the other M x K/2
 * elements laid out exactly as a dense M x N x K/2 A of the same type
 * (compare the sparse layouts' row and firstcol formulas with the dense
 * ones: each stored pair of 16- or 8-bit elements, or each stored tf32,
 * stands for one chunk).  The metadata operand e places them: .f16,
 * .bf16, .s8, .u8, .e4m3 and .e5m2 are 2:4 sparse, a nibble per chunk of
 * four columns whose low two bits give the column of the chunk's first
 * stored element and whose high two bits the second's (the meaningful
 * ::ordered_metadata values 0b0100 ... 0b1110 put the lower column low);
 * .tf32 is 1:2, a nibble per chunk of two, 0b0100 for column 0 and 0b1110
 * for column 1.  The ISA's text says which lanes of each group of four
 * contribute metadata (the sparsity selector f picks them) and that they
 * hold it for the whole group, whose rows are g and g + 8; which nibble of
 * which lane belongs to which chunk it shows only in figures (119, 122,
 * 125, 127, 129, 136 and 137).  So ptxsim executes mma.sp when each group's
 * contributing registers repeat one nibble, where every layout agrees, and
 * refuses other metadata rather than guess.  Equal indices, and unordered
 * ones under ::ordered_metadata, are undefined behaviour: refused too.
 *
 * Every lane of the warp must execute these together (.sync.aligned): a
 * partial warp is an illegal instruction, not a guess.
 */
#include "mem_int.h"

#include <stdio.h>

/* One operand's fragment: which matrix and how its elements pack. */
typedef struct frag {
    uint8_t type;           /* element type */
    uint8_t which;          /* ISA_MATRIX_A, _B or _C (C and D share layouts) */
    unsigned rows, cols;    /* A: M x K, B: K x N, C and D: M x N */
    unsigned bits;          /* element width */
    unsigned per_reg;       /* elements per register */
} frag;

static unsigned elem_bits(uint8_t t)
{
    switch (t) {
    case ISA_TYPE_F16: case ISA_TYPE_BF16: case ISA_TYPE_B16: return 16;
    case ISA_TYPE_TF32: case ISA_TYPE_F32: case ISA_TYPE_S32: return 32;
    case ISA_TYPE_F64: return 64;
    case ISA_TYPE_S8: case ISA_TYPE_U8: case ISA_TYPE_E4M3: case ISA_TYPE_E5M2: return 8;
    case ISA_TYPE_S4: case ISA_TYPE_U4: return 4;
    case ISA_TYPE_B1: return 32;        /* (a word of 32 bits: make_frag) */
    default: return 0;
    }
}

/* A .b1 fragment is held as words of 32 bits along K: each of its
 * registers is 32 consecutive elements, as the rule above lays them (a lane
 * holds a run of 32 columns of A, 32 rows of B), so the matrix is kept as
 * rows x K/32 words of A (K/32 x cols of B) and multiplied word by word. */
static bool make_frag(frag *f, uint8_t which, uint8_t type, unsigned m, unsigned n, unsigned k)
{
    f->type = type;
    f->which = which == ISA_MATRIX_D ? ISA_MATRIX_C : which;
    if (type == ISA_TYPE_B1)
        k /= 32;
    f->rows = f->which == ISA_MATRIX_B ? k : m;
    f->cols = f->which == ISA_MATRIX_A ? k : n;
    f->bits = elem_bits(type);
    if (!f->bits || !k)
        return false;
    f->per_reg = (f->bits == 64 ? 64 : 32) / f->bits;
    return true;
}

/* Elements per lane the layout needs (the rest of a longer fragment repeat). */
static unsigned frag_distinct(const frag *f) { return f->rows * f->cols / ISA_WARP_SIZE; }

/* The matrix element (row, col) that element e of lane `lane` holds. */
static void frag_coord(const frag *f, unsigned lane, unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (f->which == ISA_MATRIX_C) {
        unsigned nrb = f->rows / 8, nblocks = nrb * (f->cols / 8), j = (e / 2) % nblocks;
        *row = (j % nrb) * 8 + g;
        *col = (j / nrb) * 8 + 2 * t + e % 2;
    } else if (f->which == ISA_MATRIX_A) {
        unsigned w = 4 * f->per_reg, nrb = f->rows / 8, nblocks = nrb * (f->cols / w);
        unsigned j = (e / f->per_reg) % nblocks;
        *row = (j % nrb) * 8 + g;
        *col = (j / nrb) * w + t * f->per_reg + e % f->per_reg;
    } else {
        unsigned h = 4 * f->per_reg, nkb = f->rows / h, nblocks = nkb * (f->cols / 8);
        unsigned j = (e / f->per_reg) % nblocks;
        *row = (j % nkb) * h + t * f->per_reg + e % f->per_reg;
        *col = (j / nkb) * 8 + g;
    }
}


static uint64_t elem_mask(const frag *f) { return f->bits == 64 ? ~0ull : (1ull << f->bits) - 1; }

/* Element e of lane l, as raw bits ('_' and immediates read as zero). */
static uint64_t frag_get(const isa_warp *w, const frag *f, const uint16_t *regs, unsigned l, unsigned e)
{
    uint16_t r = regs[e / f->per_reg];
    if (r == ISA_NOREG)
        return 0;
    return (w->r[(size_t)r * ISA_WARP_SIZE + l] >> (e % f->per_reg * f->bits)) & elem_mask(f);
}

/* Whether the operand's register count fits the fragment (wmma's f16 A and
 * B hold their elements twice; mma's hold them once). */
static bool frag_fits(const frag *f, unsigned nregs, bool repeat_ok)
{
    unsigned n = nregs * f->per_reg, need = frag_distinct(f);
    return need && (n == need || (repeat_ok && n % need == 0));
}

/* ---- forms ---------------------------------------------------------------- */

static unsigned opd_regs(const isa_opd *o)
{
    return o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_LIST ? o->nvec : 1;
}

static bool is_sparse(const isa_inst *in)
{
    return in->op == ISA_OP_MMA && (in->mode == ISA_MODE_SP || in->mode == ISA_MODE_SP_ORDERED);
}

/* The A, B, C and D fragments of an mma or wmma.mma (mma.sp's A holds K/2
 * columns: the non-zero half). */
static bool mma_frags(const isa_inst *in, frag f[4])
{
    unsigned m, n, k;
    isa_shape_dims(in->shape, &m, &n, &k);
    return k && make_frag(&f[0], ISA_MATRIX_A, in->type2, m, n, is_sparse(in) ? k / 2 : k) &&
           make_frag(&f[1], ISA_MATRIX_B, in->type3, m, n, k) &&
           make_frag(&f[2], ISA_MATRIX_C, in->type4, m, n, k) &&
           make_frag(&f[3], ISA_MATRIX_D, in->type, m, n, k);
}

static bool int_type(uint8_t t)
{
    return t == ISA_TYPE_S8 || t == ISA_TYPE_U8 || t == ISA_TYPE_S32 || t == ISA_TYPE_S4 || t == ISA_TYPE_U4 ||
           t == ISA_TYPE_B1;
}

/* The sub-byte forms (PTX ISA 9.7.14.5.14, 9.7.14.4): .u4 and .s4 A and B
 * in m8n8k32, m16n8k32 and m16n8k64 (wmma: m8n8k32), .b1 with .xor.popc or
 * .and.popc in m8n8k128, m16n8k128 and m16n8k256 (wmma: m8n8k128), A by
 * rows and B by columns, s32 accumulators. */
static const char *sub_byte_form_error(const isa_inst *in)
{
    bool four_a = in->type2 == ISA_TYPE_S4 || in->type2 == ISA_TYPE_U4;
    bool four_b = in->type3 == ISA_TYPE_S4 || in->type3 == ISA_TYPE_U4;
    bool wmma = in->op == ISA_OP_WMMA_MMA;
    unsigned s = in->shape;
    if (four_a || four_b) {
        if (!four_a || !four_b)
            return "a 4-bit A with a B of another type (or the reverse)";
        if (wmma ? s != ISA_SHAPE_M8N8K32
                 : s != ISA_SHAPE_M8N8K32 && s != ISA_SHAPE_M16N8K32 && s != ISA_SHAPE_M16N8K64)
            return wmma ? ".u4/.s4 wmma.mma takes only .m8n8k32"
                        : ".u4/.s4 mma takes .m8n8k32, .m16n8k32 or .m16n8k64";
        if (in->aop)
            return "a bit operation on 4-bit integers (.xor.popc and .and.popc are .b1's)";
    } else if (in->type2 == ISA_TYPE_B1 || in->type3 == ISA_TYPE_B1) {
        if (in->type2 != in->type3)
            return "a .b1 A with a B of another type (or the reverse)";
        if (wmma ? s != ISA_SHAPE_M8N8K128
                 : s != ISA_SHAPE_M8N8K128 && s != ISA_SHAPE_M16N8K128 && s != ISA_SHAPE_M16N8K256)
            return wmma ? ".b1 wmma.mma takes only .m8n8k128" : ".b1 mma takes .m8n8k128, .m16n8k128 or .m16n8k256";
        if (in->aop != ISA_AOP_XOR_POPC && in->aop != ISA_AOP_AND_POPC)
            return ".b1 without its bit operation and count (.xor.popc or .and.popc)";
        if (in->flags & ISA_MOD_FLAG(SATFINITE))
            return ".satfinite on .b1 (a count cannot overflow)";
    } else {
        return in->aop ? "a bit operation (.xor.popc, .and.popc) on elements other than .b1" : NULL;
    }
    if ((in->layout & (ISA_LAYOUT_A_COL | ISA_LAYOUT_B_COL)) != ISA_LAYOUT_B_COL)
        return "sub-byte elements with a layout other than .row.col";
    return NULL;
}

/* Lanes of a group of four that hold mma.sp's metadata: the group's rows g
 * and g + 8 have K / chunk chunks each, a nibble per chunk (9.7.14.6.1:
 * one lane for m16n8k16 .f16 and m16n8k8 .tf32, a pair for the k32 and
 * k16 .tf32 shapes, all four for m16n8k64). */
static unsigned sparse_chunk(const isa_inst *in) { return in->type2 == ISA_TYPE_TF32 ? 2 : 4; }
static unsigned sparse_lanes(const isa_inst *in)
{
    unsigned m, n, k;
    isa_shape_dims(in->shape, &m, &n, &k);
    return 2 * (k / sparse_chunk(in)) * 4 / 32;
}

/* mma.sp's forms (PTX ISA 9.0, 9.7.14.6.3), without the .kind:: and block
 * scaling ones and the sub-byte types, which ptxsim does not multiply. */
static const char *sparse_form_error(const isa_inst *in)
{
    uint8_t a = in->type2, b = in->type3;
    bool f8a = a == ISA_TYPE_E4M3 || a == ISA_TYPE_E5M2, f8b = b == ISA_TYPE_E4M3 || b == ISA_TYPE_E5M2;
    bool i8a = a == ISA_TYPE_S8 || a == ISA_TYPE_U8, i8b = b == ISA_TYPE_S8 || b == ISA_TYPE_U8;
    unsigned s = in->shape;
    bool ok;
    if (a == ISA_TYPE_F16 || a == ISA_TYPE_BF16)
        ok = b == a && (s == ISA_SHAPE_M16N8K16 || s == ISA_SHAPE_M16N8K32) && in->type == in->type4 &&
             (in->type == ISA_TYPE_F32 || (a == ISA_TYPE_F16 && in->type == ISA_TYPE_F16));
    else if (a == ISA_TYPE_TF32)
        ok = b == a && (s == ISA_SHAPE_M16N8K8 || s == ISA_SHAPE_M16N8K16) && in->type == ISA_TYPE_F32 &&
             in->type4 == ISA_TYPE_F32;
    else if (i8a)
        ok = i8b && (s == ISA_SHAPE_M16N8K32 || s == ISA_SHAPE_M16N8K64) && in->type == ISA_TYPE_S32 &&
             in->type4 == ISA_TYPE_S32;
    else if (f8a)
        ok = f8b && s == ISA_SHAPE_M16N8K64 && in->type == ISA_TYPE_F32 && in->type4 == ISA_TYPE_F32;
    else
        ok = false;
    if (!ok)
        return "a shape and types mma.sp does not take (m16n8k16/k32 .f16, .bf16; m16n8k8/k16 .tf32; m16n8k32/k64 "
               ".s8, .u8; m16n8k64 .e4m3, .e5m2)";
    if ((in->flags & ISA_MOD_FLAG(SATFINITE)) && !i8a)
        return ".satfinite on floating-point mma.sp";
    if (in->nopd != 6)
        return "expected six operands d, a, b, c, e (metadata), f (sparsity selector)";
    if (in->opd[4].kind != ISA_OPD_REG && in->opd[4].kind != ISA_OPD_IMM)
        return "the metadata e must be a .b32 register or a constant";
    if (in->opd[5].kind != ISA_OPD_IMM)
        return "the sparsity selector f must be a constant";
    if (in->opd[5].imm >= 4 / sparse_lanes(in))
        return sparse_lanes(in) == 4 ? "a sparsity selector other than 0 for this shape (undefined behaviour)"
               : sparse_lanes(in) == 2 ? "a sparsity selector other than 0 or 1 for this shape (undefined behaviour)"
                                       : "a sparsity selector outside 0..3";
    return NULL;
}

static const char *mma_form_error(const isa_inst *in)
{
    frag f[4];
    if (in->mode && !is_sparse(in))
        return "a modifier mma does not take";
    if (!in->shape)
        return "no shape (.m16n8k16 etc.)";
    if (!in->type4)
        return "expected the D, A, B and C types (.f32.f16.f16.f32 etc.)";
    if (!mma_frags(in, f))
        return "element types ptxsim does not multiply (f16, bf16, tf32, e4m3, e5m2, f64, s8, u8, s4, u4, b1 "
               "with f16, f32, f64 or s32 accumulators)";
    bool ints = int_type(in->type2);
    if (ints != int_type(in->type3) || ints != (in->type == ISA_TYPE_S32) || ints != (in->type4 == ISA_TYPE_S32))
        return "integer and floating-point fragments mixed";
    bool f8 = (in->type2 == ISA_TYPE_E4M3 || in->type2 == ISA_TYPE_E5M2) &&
              (in->type3 == ISA_TYPE_E4M3 || in->type3 == ISA_TYPE_E5M2);
    if (!ints && !f8 && in->type2 != in->type3)
        return "A and B of different floating-point types";
    const char *why = sub_byte_form_error(in);
    if (why)
        return why;
    if (is_sparse(in)) {
        if (in->type2 == ISA_TYPE_S4 || in->type2 == ISA_TYPE_U4 || in->type2 == ISA_TYPE_B1)
            return "mma.sp on sub-byte elements (ptxsim multiplies .u4, .s4 and .b1 dense only)";
        if ((why = sparse_form_error(in)) != NULL)
            return why;
    } else if (in->nopd != 4) {
        return "expected four operands d, a, b, c";
    }
    if (in->type2 == ISA_TYPE_F16 && in->shape == ISA_SHAPE_M8N8K4 && in->op == ISA_OP_MMA)
        return "the sm_70 quad-pair form m8n8k4 with .f16 inputs";
    if ((in->type == ISA_TYPE_F64) != (in->type2 == ISA_TYPE_F64) || in->type == ISA_TYPE_BF16 ||
        in->type == ISA_TYPE_TF32)
        return "an accumulator type this shape does not take";
    bool wmma = in->op == ISA_OP_WMMA_MMA;
    for (unsigned i = 0; i < 4; i++) {
        const frag *fr = &f[i == 0 ? 3 : i - 1];
        if (!frag_fits(fr, opd_regs(&in->opd[i]), wmma))
            return "a fragment with the wrong number of registers for its shape and type";
    }
    return NULL;
}

static const char *wmma_move_form_error(const isa_inst *in)
{
    unsigned m, n, k;
    isa_shape_dims(in->shape, &m, &n, &k);
    bool load = in->op == ISA_OP_WMMA_LOAD;
    if (!k)
        return "no shape (.m16n16k16 etc.)";
    if (!in->matrix || (load && in->matrix == ISA_MATRIX_D) || (!load && in->matrix != ISA_MATRIX_D))
        return load ? "wmma.load takes .a, .b or .c" : "wmma.store takes .d";
    frag f;
    if (!make_frag(&f, in->matrix, in->type, m, n, k))
        return "an element type ptxsim does not move";
    unsigned fo = load ? 0 : 1, ao = load ? 1 : 0;
    if (in->nopd < 2 || in->nopd > 3 || in->opd[ao].kind != ISA_OPD_ADDR)
        return load ? "expected d, [a] and an optional stride" : "expected [d], a and an optional stride";
    if (!frag_fits(&f, opd_regs(&in->opd[fo]), true))
        return "a fragment with the wrong number of registers for its shape and type";
    bool sub_byte = isa_type_bits(in->type) < 8;
    if (sub_byte && in->shape != (in->type == ISA_TYPE_B1 ? ISA_SHAPE_M8N8K128 : ISA_SHAPE_M8N8K32))
        return in->type == ISA_TYPE_B1 ? ".b1 fragments take only .m8n8k128" : ".u4/.s4 fragments take only .m8n8k32";
    if (sub_byte && !!(in->layout & ISA_LAYOUT_A_COL) != (in->matrix == ISA_MATRIX_B))
        return in->matrix == ISA_MATRIX_A ? "a sub-byte A other than .row" : "a sub-byte B other than .col";
    return NULL;
}

static const char *matrix_move_form_error(const isa_inst *in)
{
    if (in->shape != ISA_SHAPE_M8N8 || (in->type != ISA_TYPE_B16 && in->type != ISA_TYPE_NONE))
        return "only the .m8n8 shape with .b16 elements";
    if (in->op == ISA_OP_MOVMATRIX)
        return in->mode == ISA_MODE_TRANS && in->nopd == 2 && in->opd[0].kind == ISA_OPD_REG &&
                       in->opd[1].kind == ISA_OPD_REG
                   ? NULL : "expected movmatrix.sync.aligned.m8n8.trans.b16 d, a";
    unsigned count = in->vec ? in->vec : 0;
    unsigned fo = in->op == ISA_OP_LDMATRIX ? 0 : 1;
    if (!count)
        return "no matrix count (.x1, .x2 or .x4)";
    if (in->nopd != 2 || in->opd[1 - fo].kind != ISA_OPD_ADDR || opd_regs(&in->opd[fo]) != count)
        return "expected one register per matrix and a shared-memory address";
    return NULL;
}

static const char *wgmma_form_error(const isa_inst *in);

const char *isa_matrix_form_error(const isa_inst *in)
{
    switch (in->op) {
    case ISA_OP_WGMMA_MMA_ASYNC: return wgmma_form_error(in);
    case ISA_OP_MMA: case ISA_OP_WMMA_MMA: return mma_form_error(in);
    case ISA_OP_WMMA_LOAD: case ISA_OP_WMMA_STORE: return wmma_move_form_error(in);
    default: return matrix_move_form_error(in);
    }
}

/* ---- multiply-accumulate ------------------------------------------------ */

static long double float_of(uint8_t t, uint64_t bits)
{
    switch (t) {
    case ISA_TYPE_F16: return half_to_f64((uint32_t)bits, false);
    case ISA_TYPE_BF16: return half_to_f64((uint32_t)bits, true);
    case ISA_TYPE_TF32: return f32_of(bits & 0xFFFFE000u);     /* the low 13 bits are not read */
    case ISA_TYPE_F32: return f32_of(bits);
    case ISA_TYPE_E4M3: case ISA_TYPE_E5M2: return isa_f8_to_f64((uint32_t)bits, t);
    default: return f64_of(bits);
    }
}

static int64_t int_of(uint8_t t, uint64_t bits)
{
    switch (t) {
    case ISA_TYPE_S8: return (int8_t)bits;
    case ISA_TYPE_U8: return (uint8_t)bits;
    case ISA_TYPE_S4: return (int64_t)((bits & 0xF) ^ 8) - 8;
    case ISA_TYPE_U4: return bits & 0xF;
    default: return (int32_t)bits;
    }
}

/* Gather a whole matrix from the warp's fragments (the first lane and
 * element holding each position wins; a repeat holds the same value unless
 * the program changed one copy). */
static void gather(const isa_warp *w, const frag *f, const uint16_t *regs, unsigned nregs, uint64_t *mat)
{
    unsigned n = nregs * f->per_reg, distinct = frag_distinct(f);
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        for (unsigned e = 0; e < n && e < distinct; e++) {
            unsigned r, c;
            frag_coord(f, l, e, &r, &c);
            mat[r * f->cols + c] = frag_get(w, f, regs, l, e);
        }
}

/* Write a whole matrix into the warp's fragment registers. */
static void scatter(isa_warp *w, const frag *f, const uint16_t *regs, unsigned nregs, const uint64_t *mat)
{
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        for (unsigned i = 0; i < nregs; i++) {
            if (regs[i] == ISA_NOREG)
                continue;
            uint64_t v = 0;
            for (unsigned s = 0; s < f->per_reg; s++) {
                unsigned r, c;
                frag_coord(f, l, i * f->per_reg + s, &r, &c);
                v |= (mat[r * f->cols + c] & elem_mask(f)) << (s * f->bits);
            }
            w->r[(size_t)regs[i] * ISA_WARP_SIZE + l] = v;
        }
}

static uint64_t round_to(uint8_t t, long double s)
{
    if (isnan(s))
        return t == ISA_TYPE_F16 ? 0x7FFFu : t == ISA_TYPE_F64 ? F64_CANON_NAN : F32_CANON_NAN;
    switch (t) {
    case ISA_TYPE_F16: return isa_half_round((double)s, false, ISA_RND_RN);
    case ISA_TYPE_F64: return bits_f64((double)s);
    default: return bits_f32((float)s);
    }
}

/* D = A * B + C on whole matrices (at most 32 x 16 x 32 elements). */
static void multiply(const isa_inst *in, const frag f[4], const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, uint64_t *d)
{
    unsigned M = f[3].rows, N = f[3].cols, K = f[1].rows;
    bool sat = in->flags & ISA_MOD_FLAG(SATFINITE);
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            uint64_t *out = &d[i * N + j];
            if (f[0].type == ISA_TYPE_B1) {     /* K words: C + popc(a op b), word by word */
                uint32_t s = (uint32_t)c[i * N + j];
                for (unsigned k = 0; k < K; k++) {
                    uint32_t x = (uint32_t)a[i * K + k], y = (uint32_t)b[k * N + j];
                    s += (uint32_t)__builtin_popcount(in->aop == ISA_AOP_AND_POPC ? x & y : x ^ y);
                }
                *out = s;
            } else if (f[3].type == ISA_TYPE_S32) {
                int64_t s = int_of(f[2].type, c[i * N + j]);
                for (unsigned k = 0; k < K; k++)
                    s += int_of(f[0].type, a[i * K + k]) * int_of(f[1].type, b[k * N + j]);
                if (sat)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                *out = (uint32_t)(int32_t)(uint32_t)s;
            } else if (f[3].type == ISA_TYPE_F64) {
                double s = f64_of(c[i * N + j]);
                for (unsigned k = 0; k < K; k++)
                    s = fma(f64_of(a[i * K + k]), f64_of(b[k * N + j]), s);
                *out = round_to(ISA_TYPE_F64, s);
            } else {
                long double s = float_of(f[2].type, c[i * N + j]);
                for (unsigned k = 0; k < K; k++)
                    s += float_of(f[0].type, a[i * K + k]) * float_of(f[1].type, b[k * N + j]);
                *out = round_to(f[3].type, s);
            }
        }
}

#define MAT_MAX 1024    /* elements of the largest matrix: mma.sp m16n8k64's A, 16 x 64 */

/* mma.sp: spread the M x K/2 stored elements of A over the M x K matrix by
 * the metadata (see the head of this file).  Returns why it cannot, or NULL. */
static const char *sparse_expand(isa_warp *w, const isa_inst *in, const frag *fa, const uint64_t *packed,
                                 uint64_t *full, uint32_t *lane)
{
    unsigned chunk = sparse_chunk(in), stored = chunk / 2, half = fa->cols, K = 2 * half;
    unsigned nl = sparse_lanes(in), first = (unsigned)in->opd[5].imm * nl;
    bool ordered = in->mode == ISA_MODE_SP_ORDERED;
    const uint64_t *e = SRC(4);
    memset(full, 0, sizeof(uint64_t) * fa->rows * K);
    for (unsigned g = 0; g < ISA_WARP_SIZE / 4; g++) {
        *lane = 4 * g + first;
        uint32_t nib = (uint32_t)e[4 * g + first] & 0xF;
        for (unsigned j = 0; j < nl; j++)
            if ((uint32_t)e[4 * g + first + j] != nib * 0x11111111u)
                return "mma.sp metadata that differs from chunk to chunk: the PTX ISA gives which bits of "
                       "which lane describe which chunk of A only in figures, so ptxsim executes mma.sp "
                       "only where each group's contributing registers repeat one nibble";
        unsigned idx[2] = { nib & 3, nib >> 2 }, col[2];
        if (chunk == 2) {
            if (nib != 0x4 && nib != 0xE)
                return "mma.sp .tf32 metadata other than 0b0100 and 0b1110 (undefined behaviour)";
            col[0] = nib == 0x4 ? 0 : 1;
        } else {
            if (idx[0] == idx[1] || (ordered && idx[0] > idx[1]))
                return ordered ? "mma.sp::ordered_metadata metadata outside 0b0100, 0b1000, 0b1001, 0b1100, "
                                 "0b1101, 0b1110 (undefined behaviour)"
                               : "mma.sp metadata naming one column twice (undefined behaviour)";
            col[0] = idx[0], col[1] = idx[1];
        }
        for (unsigned r = g; r < fa->rows; r += 8)
            for (unsigned c = 0; c < half; c++)
                full[r * K + c / stored * chunk + col[c % stored]] = packed[r * half + c];
    }
    return NULL;
}

static ptx_status mma(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    frag f[4];
    if (mask != FULL_MASK || !mma_frags(in, f))
        return mask != FULL_MASK ? PTX_E_ILLEGAL_INSTRUCTION : PTX_E_UNSUPPORTED;
    uint16_t regs[4][ISA_MAX_LIST];
    unsigned nregs[4];
    for (unsigned i = 0; i < 4; i++)
        nregs[i] = isa_opd_regs(&in->opd[i], w->lists, regs[i]);
    uint64_t mat[4][MAT_MAX];
    for (unsigned i = 1; i < 4; i++) {
        memset(mat[i], 0, sizeof mat[i]);
        gather(w, &f[i - 1], regs[i], nregs[i], mat[i]);
    }
    if (is_sparse(in)) {
        uint64_t packed[MAT_MAX];
        memcpy(packed, mat[1], sizeof packed);
        if ((w->fault.why = sparse_expand(w, in, &f[0], packed, mat[1], &w->fault.lane)) != NULL)
            return PTX_E_UNSUPPORTED;
    }
    multiply(in, f, mat[1], mat[2], mat[3], mat[0]);
    scatter(w, &f[3], regs[0], nregs[0], mat[0]);
    return PTX_OK;
}

ptx_status isa_sem_mma(isa_warp *w, const isa_inst *in, uint32_t mask) { return mma(w, in, mask); }
ptx_status isa_sem_wmma_mma(isa_warp *w, const isa_inst *in, uint32_t mask) { return mma(w, in, mask); }

/* ---- wmma.load and wmma.store ----------------------------------------------- */

/* wmma.load.{a,b,c} d, [a]{, stride} and wmma.store.d [d], a{, stride}: the
 * matrix is row- or column-major in memory with `stride` elements between
 * rows (columns); the fragment is loaded or stored element by element, so
 * each element must be aligned to its size.  Sub-byte elements pack in
 * memory as in registers, element 0 in a byte's low bits; a .b1 fragment's
 * unit is a word of 32 of them.  The access record holds one memory row
 * (column) per lane: the lines and banks the warp touches. */
static ptx_status wmma_move(isa_warp *w, const isa_inst *in, uint32_t mask, bool load)
{
    unsigned m, n, k;
    isa_shape_dims(in->shape, &m, &n, &k);
    frag f;
    if (mask != FULL_MASK || !make_frag(&f, in->matrix, in->type, m, n, k))
        return mask != FULL_MASK ? PTX_E_ILLEGAL_INSTRUCTION : PTX_E_UNSUPPORTED;
    unsigned fo = load ? 0 : 1, ao = load ? 1 : 0;
    uint16_t regs[ISA_MAX_LIST];
    /* A unit of the fragment (an element, or .b1's word) is upe elements of
     * ebits each along the matrix's rows (columns), ubytes bytes read. */
    unsigned nregs = isa_opd_regs(&in->opd[fo], w->lists, regs), ebits = isa_type_bits(in->type);
    unsigned upe = f.bits / ebits, ubytes = f.bits < 8 ? 1 : f.bits / 8;
    bool col_major = in->layout & ISA_LAYOUT_A_COL;
    const uint64_t *base = address(w, in, ao);
    const uint64_t *stride = in->nopd > 2 ? SRC(2) : NULL;
    uint64_t mat[MAT_MAX], dense = (col_major ? f.rows : f.cols) * upe;
    if (!load)
        gather(w, &f, regs, nregs, mat);
    uint8_t space = in->space;
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++) {
        uint64_t ld = stride ? (uint32_t)stride[l] : dense;
        for (unsigned e = 0; e < nregs * f.per_reg; e++) {
            unsigned r, c;
            frag_coord(&f, l, e, &r, &c);
            uint64_t bit = (col_major ? (uint64_t)c * ld + (uint64_t)r * upe : (uint64_t)r * ld + (uint64_t)c * upe) * ebits;
            uint64_t at = base[l] + bit / 8;
            if (f.bits >= 8 && bit % 8) {       /* a .b1 word off a byte: a stride not a multiple of 8 */
                w->fault.addr = at, w->fault.lane = l, w->fault.bytes = ubytes, w->fault.space = in->space;
                return PTX_E_MISALIGNED;
            }
            uint8_t *p = locate(w, in->space, at, ubytes, l, &space);
            if (!p)
                return fault_status(w, w->fault.addr, ubytes);
            uint64_t *v = &mat[r * f.cols + c];
            if (f.bits < 8) {           /* (only A and B are sub-byte: wmma.store's D is s32) */
                if (load)
                    *v = (uint64_t)(*p >> (bit % 8)) & elem_mask(&f);
            } else if (load) {
                *v = load_bytes(p, ubytes);
            } else {
                store_bytes(p, ubytes, *v);
            }
        }
    }
    if (load)
        scatter(w, &f, regs, nregs, mat);
    if (w->access) {
        unsigned lines = col_major ? f.cols : f.rows, seg = (unsigned)((dense * ebits + 7) / 8);
        uint64_t ld = stride ? (uint32_t)stride[0] : dense;
        uint64_t *at = w->scratch[3];
        for (unsigned i = 0; i < lines; i++)
            at[i] = base[i] + i * ld * ebits / 8;
        record(w, in, at, lines == 32 ? FULL_MASK : (1u << lines) - 1, seg, space, !load, false);
    }
    return PTX_OK;
}

ptx_status isa_sem_wmma_load(isa_warp *w, const isa_inst *in, uint32_t mask) { return wmma_move(w, in, mask, true); }
ptx_status isa_sem_wmma_store(isa_warp *w, const isa_inst *in, uint32_t mask) { return wmma_move(w, in, mask, false); }

/* ---- ldmatrix, stmatrix, movmatrix ---------------------------------------- */

/* An 8x8 matrix of b16 held by a warp as mma holds an accumulator: lane l
 * has row l/4, columns 2(l%4) and 2(l%4)+1, low half first.  .trans moves
 * the transpose instead. */
typedef uint16_t mat8[8][8];

static uint32_t lane_pair(const mat8 m, unsigned l, bool trans)
{
    unsigned r = l / 4, c = 2 * (l % 4);
    return trans ? (uint32_t)m[c][r] | (uint32_t)m[c + 1][r] << 16 : (uint32_t)m[r][c] | (uint32_t)m[r][c + 1] << 16;
}

static void set_pair(mat8 m, unsigned l, bool trans, uint32_t v)
{
    unsigned r = l / 4, c = 2 * (l % 4);
    if (trans) {
        m[c][r] = (uint16_t)v;
        m[c + 1][r] = (uint16_t)(v >> 16);
    } else {
        m[r][c] = (uint16_t)v;
        m[r][c + 1] = (uint16_t)(v >> 16);
    }
}

/* ldmatrix d, [a] / stmatrix [d], a: lanes 8i..8i+7 give the addresses of
 * matrix i's eight 16-byte rows (16-byte aligned, shared memory). */
static ptx_status matrix_move(isa_warp *w, const isa_inst *in, uint32_t mask, bool load)
{
    if (mask != FULL_MASK)
        return PTX_E_ILLEGAL_INSTRUCTION;
    unsigned count = in->vec, fo = load ? 0 : 1;
    bool trans = in->mode == ISA_MODE_TRANS;
    uint16_t regs[ISA_MAX_LIST];
    isa_opd_regs(&in->opd[fo], w->lists, regs);
    const uint64_t *addr = address(w, in, load ? 1 : 0);
    uint8_t *row[32];
    uint8_t space = in->space;
    for (unsigned q = 0; q < 8 * count; q++)
        if (!(row[q] = locate(w, in->space, addr[q], 16, q, &space)))
            return fault_status(w, w->fault.addr, 16);
    for (unsigned i = 0; i < count; i++) {
        mat8 m;
        if (load) {
            for (unsigned r = 0; r < 8; r++)
                memcpy(m[r], row[8 * i + r], 16);
            if (regs[i] != ISA_NOREG)
                for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
                    w->r[(size_t)regs[i] * ISA_WARP_SIZE + l] = lane_pair(m, l, trans);
        } else {
            for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
                set_pair(m, l, trans, regs[i] == ISA_NOREG ? 0 : (uint32_t)w->r[(size_t)regs[i] * ISA_WARP_SIZE + l]);
            for (unsigned r = 0; r < 8; r++)
                memcpy(row[8 * i + r], m[r], 16);
        }
    }
    if (w->access)
        record(w, in, addr, count == 4 ? FULL_MASK : (1u << (8 * count)) - 1, 16, space, !load, false);
    return PTX_OK;
}

ptx_status isa_sem_ldmatrix(isa_warp *w, const isa_inst *in, uint32_t mask) { return matrix_move(w, in, mask, true); }
ptx_status isa_sem_stmatrix(isa_warp *w, const isa_inst *in, uint32_t mask) { return matrix_move(w, in, mask, false); }

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: d is a's matrix transposed. */
ptx_status isa_sem_movmatrix(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    if (mask != FULL_MASK)
        return PTX_E_ILLEGAL_INSTRUCTION;
    mat8 m;
    const uint64_t *a = SRC(1);
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        set_pair(m, l, false, (uint32_t)a[l]);
    uint64_t *d = DST(0);
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        d[l] = lane_pair(m, l, true);
    return PTX_OK;
}

/* ---- wgmma.mma_async (PTX ISA 9.7.15) --------------------------------------
 *
 * wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b, scale-d
 * (the parser folded imm-scale-a/b and imm-trans-a/b into ISA_LAYOUT_*
 * bits): D = (+-A) * (+-B) + D, or without D where scale-d is false, for a
 * 64 x N x K multiply done by the four warps of a warpgroup together.
 *
 * Who holds what (9.7.15.5.1.1).  Warp r of the warpgroup (its index in the
 * block mod 4) holds rows 16r .. 16r + 15 of D, and of A when A is in
 * registers, laid out as mma.m16n8k*'s accumulator and A fragments are
 * (frag_coord with 16 rows): D's registers go down the two 8-row halves,
 * then across the N/8 column blocks.  So each warp computes its own 16 rows
 * from its own registers and the whole B, and the warps need not meet: this
 * function runs once a warp, as the hardware's four sub-cores do.
 *
 * Shared memory (9.7.15.5.1.2).  A (unless in registers) and B come
 * through 64-bit matrix descriptors: start address, leading-dimension byte
 * offset (LBO) and stride-dimension byte offset (SBO), each stored >> 4 in
 * 14 bits; a 3-bit base offset (bits 49-51); the swizzle mode (bits 62-63:
 * none, 128B, 64B, 32B).  With T elements in 16 bytes, an element's address
 * before swizzling follows the ISA's canonical layouts (in elements; LBO and
 * SBO in bytes; W the swizzle width in bytes, m and k the repeats):
 *   K-major,  no swizzle  ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
 *   K-major,  W swizzle   ((8,m),(T,2k)) : ((W/16 T,SBO),(1,T))
 *   MN-major, no swizzle  ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
 *   MN-major, W swizzle   ((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16 T,SBO))
 * so a core matrix is 8 rows of 16 bytes; without swizzling LBO steps
 * along K and SBO along M/N; swizzled K-major layouts do not use LBO, and
 * swizzled MN-major ones step along M/N by LBO and along K by SBO.  The
 * swizzle then permutes the 16-byte chunks of each row of W bytes within
 * its repeating pattern of 8 such rows (1024, 512, 256 bytes): address bits
 * [4, 4 + b) are XORed with bits [7, 7 + b), b = log2(W / 16).
 *
 * Where the ISA text had to be read (tests/wgmma checks the reading):
 *   - the swizzle is a function of the address, so a start address that is
 *     not at a pattern's start (a K-slice 32 bytes into a 128-byte row) sees
 *     the chunks as the pattern placed them -- which is what lets a program
 *     step the start address along K within a swizzled row;
 *   - the base offset: the ISA says it is (pattern start >> 7) & 7 when the
 *     pattern does not start at its boundary; ptxsim subtracts it from the
 *     row bits [7, 10) before the XOR, so that such a pattern swizzles as
 *     if it were aligned;
 *   - imm-trans (MN-major) is for .f16 and .bf16 only, so MN-major
 *     layouts always have T = 8.
 *
 * Arithmetic as mma's (see the head of this file): exact products, the sum
 * rounded once; .satfinite clamps the s32 result.  A tensor core may differ
 * in the last bit of a float result.  The multiply is complete when it
 * issues, which the ISA allows (the results may be read after
 * wgmma.wait_group); a program that reads D or changes A's registers or
 * the shared memory before waiting gets what the hardware does not promise,
 * and ptxsim's answer is the finished one.
 *
 * .sync.aligned: every lane of four whole warps executes it; a warp with a
 * lane missing, or one whose warpgroup is cut short by the block's size, is
 * an illegal instruction.  (That the four warps reach the same wgmma is not
 * checked: each warp's part is its own.) */

#define WG_ROWS 16                      /* rows of D a warp holds */

static unsigned wgmma_k(uint8_t a)
{
    switch (a) {
    case ISA_TYPE_F16: case ISA_TYPE_BF16: return 16;
    case ISA_TYPE_TF32: return 8;
    case ISA_TYPE_E4M3: case ISA_TYPE_E5M2: case ISA_TYPE_S8: case ISA_TYPE_U8: return 32;
    default: return 0;
    }
}

static bool is_f8(uint8_t t) { return t == ISA_TYPE_E4M3 || t == ISA_TYPE_E5M2; }
static bool is_i8(uint8_t t) { return t == ISA_TYPE_S8 || t == ISA_TYPE_U8; }

static const char *wgmma_form_error(const isa_inst *in)
{
    unsigned m, n, k;
    isa_shape_dims(in->shape, &m, &n, &k);
    uint8_t a = in->type2, b = in->type3, d = in->type;
    if (in->mode)
        return in->mode == ISA_MODE_SP ? "the sparse wgmma.mma_async.sp (ptxsim runs the dense forms)"
                                       : "a modifier wgmma.mma_async does not take";
    if (m != 64 || !n)
        return "no m64nNk8/k16/k32 shape";
    if (!wgmma_k(a) || !b || in->type4)
        return "expected the D, A and B types (.f32.f16.f16, .s32.s8.u8 etc.): .f16, .bf16, .tf32, .e4m3, .e5m2, "
               ".s8 or .u8 inputs";
    if (is_f8(a) ? !is_f8(b) : is_i8(a) ? !is_i8(b) : a != b)
        return "A and B of types that do not go together";
    if (k != wgmma_k(a))
        return "a K that does not fit the inputs (k16 .f16/.bf16, k8 .tf32, k32 .e4m3/.e5m2/.s8/.u8)";
    bool d_ok = is_i8(a) ? d == ISA_TYPE_S32 : a == ISA_TYPE_TF32 ? d == ISA_TYPE_F32
              : d == ISA_TYPE_F32 || d == ISA_TYPE_F16;
    if (!d_ok)
        return "an accumulator type these inputs do not take (.f16 or .f32; .f32 for .tf32; .s32 for .s8/.u8)";
    if (is_i8(a) && n > 32 && n % 16)
        return "an N the integer forms do not take (8, 16, 24, 32, then multiples of 16 to 256)";
    if ((in->flags & ISA_MOD_FLAG(SATFINITE)) && !is_i8(a))
        return ".satfinite on a floating-point wgmma";
    if (in->nopd != 4)
        return "expected d, a-desc or a, b-desc, scale-d";
    unsigned dregs = n / 2 / (d == ISA_TYPE_F16 ? 2 : 1);
    if ((in->opd[0].kind != ISA_OPD_VEC && in->opd[0].kind != ISA_OPD_LIST) || in->opd[0].nvec != dregs)
        return "a D with the wrong number of registers for its shape and type (N/2 for .f32 and .s32, N/4 for .f16)";
    if (in->opd[1].kind != ISA_OPD_REG && !(in->opd[1].kind == ISA_OPD_VEC && in->opd[1].nvec == 4))
        return "A must be a 64-bit matrix descriptor or four registers";
    if (in->opd[2].kind != ISA_OPD_REG)
        return "B must be a 64-bit matrix descriptor";
    if (in->opd[3].kind != ISA_OPD_PRED && in->opd[3].kind != ISA_OPD_IMM)
        return "scale-d must be a predicate or a constant";
    bool half = a == ISA_TYPE_F16 || a == ISA_TYPE_BF16;
    if ((in->layout & (ISA_LAYOUT_TRANS_A | ISA_LAYOUT_TRANS_B)) && !half)
        return "a transpose of inputs other than .f16 and .bf16";
    if ((in->layout & ISA_LAYOUT_TRANS_A) && in->opd[1].kind != ISA_OPD_REG)
        return "a transpose of A in registers";
    return NULL;
}

/* A matrix descriptor, decoded. */
typedef struct wg_desc {
    uint64_t start, lbo, sbo;           /* bytes */
    unsigned base;                      /* base offset */
    unsigned width;                     /* swizzle width in bytes, 0 for none */
} wg_desc;

static wg_desc wg_decode(uint64_t d)
{
    static const unsigned widths[4] = { 0, 128, 64, 32 };
    return (wg_desc){ (d & 0x3FFF) << 4, (d >> 16 & 0x3FFF) << 4, (d >> 32 & 0x3FFF) << 4,
                      (unsigned)(d >> 49 & 7), widths[d >> 62] };
}

/* The shared address of element (mn, k) of a matrix with eb-byte elements
 * (mn: A's row or B's column), K-major unless mn_major (the layouts at the
 * head of this part). */
static uint64_t wg_addr(const wg_desc *d, bool mn_major, unsigned eb, unsigned mn, unsigned k)
{
    unsigned t = 16 / eb, w = d->width;
    uint64_t a = d->start;
    if (!mn_major && !w)
        a += (mn % 8) * 16 + (uint64_t)(mn / 8) * d->sbo + (k % t) * eb + (uint64_t)(k / t) * d->lbo;
    else if (!mn_major)
        a += (mn % 8) * w + (uint64_t)(mn / 8) * d->sbo + (k % t) * eb + (k / t) * 16;
    else if (!w)
        a += (mn % t) * eb + (uint64_t)(mn / t) * d->sbo + (k % 8) * 16 + (uint64_t)(k / 8) * d->lbo;
    else
        a += (mn % t) * eb + (mn / t % (w / 16)) * 16 + (uint64_t)(mn / t / (w / 16)) * d->lbo + (k % 8) * w +
             (uint64_t)(k / 8) * d->sbo;
    return isa_swizzle_addr(a, w, d->base);
}

/* Read rows x K elements (mn from mn0) of a matrix through its descriptor
 * into out[row * K + k], raw bits. */
static ptx_status wg_load(isa_warp *w, uint64_t desc, bool mn_major, unsigned eb, unsigned mn0, unsigned rows,
                          unsigned K, uint64_t *out)
{
    wg_desc d = wg_decode(desc);
    for (unsigned r = 0; r < rows; r++)
        for (unsigned k = 0; k < K; k++) {
            uint64_t a = wg_addr(&d, mn_major, eb, mn0 + r, k);
            uint8_t space;
            uint8_t *p = locate(w, ISA_SPACE_SHARED, a & ~15ull, 16, 0, &space);
            if (!p)
                return fault_status(w, w->fault.addr, 16);
            out[r * K + k] = load_bytes(p + (a & 15), eb);
        }
    return PTX_OK;
}

static double wg_value(uint8_t t, uint64_t bits, bool neg)
{
    double v = is_i8(t) ? (double)int_of(t, bits) : (double)float_of(t, bits);
    return neg ? -v : v;
}

ptx_status isa_sem_wgmma_mma_async(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    unsigned m, N, K;
    isa_shape_dims(in->shape, &m, &N, &K);
    uint32_t nthreads = w->ntid[0] * w->ntid[1] * w->ntid[2], group = w->warpid / 4;
    if (mask != FULL_MASK || (group + 1) * 4 * ISA_WARP_SIZE > nthreads) {
        w->fault.why = "wgmma.mma_async is executed by the 128 threads of a warpgroup together (.sync.aligned): "
                       "four whole warps, the first of them warp 4i of the block, every lane converged";
        return PTX_E_ILLEGAL_INSTRUCTION;
    }
    unsigned row0 = (w->warpid % 4) * WG_ROWS, eb_a = elem_bits(in->type2) / 8, eb_b = elem_bits(in->type3) / 8;
    frag fa, fd;
    make_frag(&fa, ISA_MATRIX_A, in->type2, WG_ROWS, N, K);
    make_frag(&fd, ISA_MATRIX_D, in->type, WG_ROWS, N, K);
    uint16_t dregs[ISA_MAX_LIST], aregs[ISA_MAX_LIST];
    unsigned nd = isa_opd_regs(&in->opd[0], w->lists, dregs);

    /* A (this warp's 16 rows) and B, as raw bits, then as values. */
    uint64_t araw[WG_ROWS * 32], braw[256 * 32], dmat[WG_ROWS * 256];    /* 100 KB of stack */
    ptx_status st;
    if (in->opd[1].kind == ISA_OPD_REG) {
        if ((st = wg_load(w, w->r[(size_t)in->opd[1].reg * ISA_WARP_SIZE], in->layout & ISA_LAYOUT_TRANS_A, eb_a,
                          row0, WG_ROWS, K, araw)) != PTX_OK) {
            w->fault.why = "the address comes from wgmma.mma_async's matrix descriptor for A, which must point "
                           "into the block's shared memory";
            return st;
        }
    } else {
        unsigned na = isa_opd_regs(&in->opd[1], w->lists, aregs);
        gather(w, &fa, aregs, na, araw);
    }
    /* B: every warp reads the whole K x N (stored here N x K). */
    if ((st = wg_load(w, w->r[(size_t)in->opd[2].reg * ISA_WARP_SIZE], in->layout & ISA_LAYOUT_TRANS_B, eb_b, 0,
                      N, K, braw)) != PTX_OK) {
        w->fault.why = "the address comes from wgmma.mma_async's matrix descriptor for B, which must point into "
                       "the block's shared memory";
        return st;
    }
    /* The values, in place (every input and every product of two is exact
     * in a double). */
    for (unsigned i = 0; i < WG_ROWS * K; i++)
        araw[i] = bits_f64(wg_value(in->type2, araw[i], in->layout & ISA_LAYOUT_NEG_A));
    for (unsigned i = 0; i < N * K; i++)
        braw[i] = bits_f64(wg_value(in->type3, braw[i], in->layout & ISA_LAYOUT_NEG_B));

    /* D: where a lane's scale-d is false, its elements start from zero. */
    gather(w, &fd, dregs, nd, dmat);
    uint32_t keep = isa_pred(w, &in->opd[3]);
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++)
        if (!(keep >> l & 1))
            for (unsigned e = 0; e < frag_distinct(&fd); e++) {
                unsigned r, c;
                frag_coord(&fd, l, e, &r, &c);
                dmat[r * N + c] = 0;
            }
    bool sat = in->flags & ISA_MOD_FLAG(SATFINITE);
    for (unsigned i = 0; i < WG_ROWS; i++)
        for (unsigned j = 0; j < N; j++) {
            uint64_t *out = &dmat[i * N + j];
            const uint64_t *ar = &araw[i * K], *bc = &braw[j * K];
            if (in->type == ISA_TYPE_S32) {
                int64_t s = (int32_t)*out;
                for (unsigned k = 0; k < K; k++)
                    s += (int64_t)f64_of(ar[k]) * (int64_t)f64_of(bc[k]);
                if (sat)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                *out = (uint32_t)s;
            } else {
                long double s = float_of(in->type, *out);
                for (unsigned k = 0; k < K; k++)
                    s += (long double)f64_of(ar[k]) * f64_of(bc[k]);
                *out = round_to(in->type, s);
            }
        }
    scatter(w, &fd, dregs, nd, dmat);
    return PTX_OK;
}

/* wgmma.fence, wgmma.commit_group, wgmma.wait_group: the multiply is done
 * when it issues, so functionally they order nothing that is not already
 * in order; the timing model makes the warp wait at wait_group (sm.c). */
static ptx_status wgmma_sync(isa_warp *w, uint32_t mask)
{
    (void)w;
    return mask == FULL_MASK ? PTX_OK : PTX_E_ILLEGAL_INSTRUCTION;
}

ptx_status isa_sem_wgmma_fence(isa_warp *w, const isa_inst *in, uint32_t mask) { (void)in; return wgmma_sync(w, mask); }
ptx_status isa_sem_wgmma_commit_group(isa_warp *w, const isa_inst *in, uint32_t mask) { (void)in; return wgmma_sync(w, mask); }
ptx_status isa_sem_wgmma_wait_group(isa_warp *w, const isa_inst *in, uint32_t mask) { (void)in; return wgmma_sync(w, mask); }

/*
 * contract.c -- floating-point contraction as ptxas does it by default
 * (--fmad=true).  The PTX ISA allows it ("mul/add/sub with no rounding
 * modifier ... may be optimized aggressively by the code generator, e.g.
 * into fma"), and real programs see it: an H200 runs lu's
 * `mul.f64 %fd3, %fd2, %fd1; ... sub.f64 %fd5, %fd4, %fd3` fused, so that
 * its result differs from the host's rounded product by 2.4e-16 where a
 * separate rounding would agree exactly (docs/results/gpu-h200.md).
 *
 * The rule is the one tests/gpu/probe.cu's "fmad" answers and the machine
 * code ptxas made of them show (docs/results/gpu-h200.md):
 *
 *   - a product is a mul.f32 or mul.f64 with no rounding modifier and no
 *     .sat, unguarded;
 *   - it is contracted into every add and sub that reads it when all of
 *     its reads are such adds and subs (no rounding modifier; .sat, a
 *     guard and a second read elsewhere in the block allowed) in its own
 *     basic block, each with the mul's .ftz, or negs whose every read is
 *     one -- a single read by anything else (a store, a mov, a mul, an fma,
 *     an add reading it twice, a block after a branch) keeps the product
 *     rounded for all of them;
 *   - an add or sub of two products fuses the one it reads first.
 *
 * Each add or sub becomes one fused multiply-add, rounded once; a negated
 * source is a register operand with `neg` set, as the machine's FFMA has
 * (isa_sem_fma), a negated literal its sign bit flipped:
 *
 *   add d, p, c  (or c, p)    ->  fma.rn d, a, b, c
 *   sub d, c, p               ->  fma.rn d, -a, b, c
 *   sub d, p, c               ->  fma.rn d, a, b, -c
 *
 * and through a neg q, p the product's sign flips.  The mul (and neg) stay
 * where they are, now computing a value nothing reads, so instruction counts
 * and pcs do not move.  PTXSIM_FMAD=0 turns the contraction off, as
 * ptxas --fmad=false does.
 */
#include "frontend.h"

#include <stdlib.h>
#include <string.h>

static bool float_type(uint8_t t) { return t == ISA_TYPE_F32 || t == ISA_TYPE_F64; }

/* mul/add/sub/neg of f32 or f64 with no rounding modifier (and not the
 * mixed-precision add.f32.f16 and its kind, whose type2 names a source). */
static bool plain(const isa_inst *in, uint16_t op, unsigned nopd)
{
    return in->op == op && float_type(in->type) && in->type2 == ISA_TYPE_NONE && in->rnd == ISA_RND_NONE &&
           in->nopd == nopd;
}

/* A product ptxas may contract: unguarded, no .sat. */
static bool product(const isa_inst *in)
{
    return plain(in, ISA_OP_MUL, 3) && in->guard == ISA_NOREG && !(in->flags & ISA_MOD_FLAG(SAT)) &&
           in->opd[0].kind == ISA_OPD_REG;
}

/* The data registers operand o names (registers, vectors, lists, an
 * address's base). */
static unsigned regs_of(const isa_opd *o, const uint16_t *lists, uint16_t *regs)
{
    if (o->kind == ISA_OPD_ADDR) {
        regs[0] = o->reg;
        return o->reg != ISA_NOREG;
    }
    if (o->kind == ISA_OPD_REG || o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_LIST)
        return isa_opd_regs(o, lists, regs);
    return 0;
}

static bool has_dst(const isa_inst *in)
{
    return in->nopd && !(isa_ops[in->op].flags & ISA_F_NODST) && in->opd[0].kind != ISA_OPD_ADDR;
}

/* How many of in's source operands name register r. */
static unsigned reads_of(const isa_inst *in, const uint16_t *lists, uint16_t r)
{
    unsigned n = 0;
    for (unsigned k = has_dst(in) ? 1 : 0; k < in->nopd; k++) {
        uint16_t regs[ISA_MAX_LIST];
        unsigned c = regs_of(&in->opd[k], lists, regs);
        for (unsigned j = 0; j < c; j++)
            n += regs[j] == r;
    }
    return n;
}

/* Does instruction `in` write register r? */
static bool writes(const isa_inst *in, const uint16_t *lists, uint16_t r)
{
    uint16_t regs[ISA_MAX_LIST];
    if (!has_dst(in))
        return false;
    unsigned n = regs_of(&in->opd[0], lists, regs);
    for (unsigned k = 0; k < n; k++)
        if (regs[k] == r)
            return true;
    return false;
}

/* Is operand o unchanged from pc `from` up to (not including) `to`? */
static bool steady(const isa_func *f, const uint16_t *lists, const isa_opd *o, uint32_t from, uint32_t to)
{
    if (o->kind == ISA_OPD_IMM)
        return true;
    if (o->kind != ISA_OPD_REG)
        return false;
    for (uint32_t i = from; i < to; i++)
        if (writes(&f->code[i], lists, o->reg))
            return false;
    return true;
}

typedef struct contraction {
    const isa_module *m;
    const isa_func *f;
    const uint32_t *block_of;
    const uint32_t *reads;      /* every register's reads in the function */
} contraction;

/* An add or sub that may take in the product of mul (in register r): of
 * its type and .ftz, reading r once. */
static bool takes_product(const isa_inst *in, const isa_inst *mul, uint16_t r, const uint16_t *lists)
{
    return (plain(in, ISA_OP_ADD, 3) || plain(in, ISA_OP_SUB, 3)) && in->type == mul->type &&
           !((in->flags ^ mul->flags) & ISA_MOD_FLAG(FTZ)) && reads_of(in, lists, r) == 1;
}

/* Whether every read of the value the instruction at pc writes into its
 * register r is an add or sub that may take in the product `mul` (through
 * negs, depth levels more), all in pc's block.  A read anywhere else --
 * another block, after the register is written again -- says no. */
static bool all_reads_contract(const contraction *c, uint32_t pc, uint16_t r, const isa_inst *mul, int depth)
{
    const isa_func *f = c->f;
    const uint16_t *lists = c->m->lists;
    uint32_t seen = 0;
    for (uint32_t i = pc + 1; i < f->ncode && c->block_of[i] == c->block_of[pc]; i++) {
        const isa_inst *in = &f->code[i];
        unsigned n = reads_of(in, lists, r);
        if (n) {
            seen += n;
            bool through_neg = depth > 0 && plain(in, ISA_OP_NEG, 2) && in->type == mul->type &&
                               in->guard == ISA_NOREG && in->opd[0].kind == ISA_OPD_REG && n == 1 &&
                               in->opd[0].reg != r && !((in->flags ^ mul->flags) & ISA_MOD_FLAG(FTZ)) &&
                               all_reads_contract(c, i, in->opd[0].reg, mul, depth - 1);
            if (!through_neg && !takes_product(in, mul, r, lists))
                return false;
        }
        /* Written again: the value's reads end here, unless the write is
         * guarded (some lanes keep the value). */
        if (writes(in, lists, r))
            return seen > 0 && in->guard == ISA_NOREG;
    }
    /* It may live on past the block: only if nothing else reads r. */
    return seen > 0 && seen == c->reads[r];
}

/* The product the add or sub at pc reads in register r: the mul writing
 * r last before it in its block, directly (*negated false) or through one
 * neg.  -1 when there is none to contract. */
static int64_t product_of(const contraction *c, uint32_t pc, uint16_t r, const uint8_t *fuse, bool *negated)
{
    const isa_func *f = c->f;
    const uint16_t *lists = c->m->lists;
    *negated = false;
    for (uint32_t i = pc; i-- > 0 && c->block_of[i] == c->block_of[pc];) {
        const isa_inst *in = &f->code[i];
        if (!writes(in, lists, r))
            continue;
        if (product(in))
            return fuse[i] ? (int64_t)i : -1;
        if (!*negated && plain(in, ISA_OP_NEG, 2) && in->guard == ISA_NOREG && in->opd[1].kind == ISA_OPD_REG) {
            *negated = true;
            r = in->opd[1].reg;
            continue;
        }
        return -1;
    }
    return -1;
}

/* Negate a source of type t: a register by its operand's `neg`, a
 * literal by its sign bit. */
static bool negate(isa_opd *o, uint8_t t)
{
    if (o->kind == ISA_OPD_REG) {
        o->neg = 1;
        return true;
    }
    if (o->kind == ISA_OPD_IMM && o->neg == (t == ISA_TYPE_F32 ? ISA_LIT_F32 : ISA_LIT_F64)) {
        o->imm ^= t == ISA_TYPE_F32 ? 0x80000000u : 1ull << 63;
        return true;
    }
    return false;
}

/* Fold the product at mul into the add or sub `in` (reading it as source
 * `side`, negated when through a neg). */
static bool fold(const contraction *c, uint32_t mul_pc, uint32_t pc, unsigned side, bool negated)
{
    const isa_func *f = c->f;
    const isa_inst *mul = &f->code[mul_pc];
    isa_inst *in = &f->code[pc];
    isa_opd a = mul->opd[1], b = mul->opd[2], addend = in->opd[3 - side];
    if (!steady(f, c->m->lists, &a, mul_pc + 1, pc) || !steady(f, c->m->lists, &b, mul_pc + 1, pc))
        return false;
    bool neg_product = negated != (in->op == ISA_OP_SUB && side == 2);     /* c - p */
    bool neg_addend = in->op == ISA_OP_SUB && side == 1;                    /* p - c */
    if (neg_product && a.kind != ISA_OPD_REG) {
        isa_opd t = a;                          /* a register factor carries the sign */
        a = b;
        b = t;
    }
    if ((neg_product && !negate(&a, in->type)) || (neg_addend && !negate(&addend, in->type)))
        return false;
    in->op = ISA_OP_FMA;
    in->rnd = ISA_RND_RN;
    in->opd[1] = a;
    in->opd[2] = b;
    in->opd[3] = addend;
    in->nopd = 4;
    return true;
}

void fe_contract(isa_module *m, isa_func *f, const uint32_t *block_of)
{
    const char *env = getenv("PTXSIM_FMAD");
    if ((env && strcmp(env, "0") == 0) || m->as_written || !f->nregs)
        return;
    uint32_t *reads = calloc(f->nregs, sizeof *reads);
    uint8_t *fuse = calloc(f->ncode, 1);
    if (!reads || !fuse) {
        free(reads);
        free(fuse);
        return;
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        const isa_inst *in = &f->code[i];
        for (unsigned k = has_dst(in) ? 1 : 0; k < in->nopd; k++) {
            uint16_t regs[ISA_MAX_LIST];
            unsigned n = regs_of(&in->opd[k], m->lists, regs);
            for (unsigned j = 0; j < n; j++)
                if (regs[j] < f->nregs)
                    reads[regs[j]]++;
        }
    }
    contraction c = { m, f, block_of, reads };
    /* Which products contract, judged on the code as written. */
    for (uint32_t i = 0; i < f->ncode; i++) {
        const isa_inst *in = &f->code[i];
        uint16_t p = in->opd[0].reg;
        fuse[i] = product(in) && p < f->nregs && !(in->opd[1].kind == ISA_OPD_REG && in->opd[1].reg == p) &&
                  !(in->opd[2].kind == ISA_OPD_REG && in->opd[2].reg == p) && all_reads_contract(&c, i, p, in, 1);
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        isa_inst *in = &f->code[i];
        if (!plain(in, ISA_OP_ADD, 3) && !plain(in, ISA_OP_SUB, 3))
            continue;
        for (unsigned side = 1; side <= 2; side++) {
            const isa_opd *t = &in->opd[side];
            bool negated;
            int64_t mul = t->kind == ISA_OPD_REG && t->reg < f->nregs ? product_of(&c, i, t->reg, fuse, &negated)
                                                                       : -1;
            if (mul >= 0 && fold(&c, (uint32_t)mul, i, side, negated))
                break;
        }
    }
    free(reads);
    free(fuse);
}

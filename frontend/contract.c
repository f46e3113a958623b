/*
 * contract.c -- floating-point contraction as ptxas does it by default
 * (--fmad=true): a mul.f32 or mul.f64 with no rounding modifier whose
 * product only feeds an add or sub with no rounding modifier becomes one
 * fused multiply-add, rounded once.  The PTX ISA allows it ("mul/add/sub
 * with no rounding modifier ... may be optimized aggressively by the code
 * generator, e.g. into fma"), and real programs see it: an H200 runs lu's
 * `mul.f64 %fd3, %fd2, %fd1; ... sub.f64 %fd5, %fd4, %fd3` fused, so that
 * its result differs from the host's rounded product by 2.4e-16 where a
 * separate rounding would agree exactly (docs/results/gpu-h200.md).
 *
 * Rewritten within a basic block only, when the product's register is read
 * by that add or sub and nowhere else, both are unguarded, agree in type
 * and .ftz, carry no .sat, and nothing between them writes a source:
 *
 *   add d, t, c  (or c, t)    ->  fma.rn d, a, b, c
 *   sub d, c, t               ->  the mul becomes neg t, a; fma.rn d, t, b, c
 *   sub d, t, c               ->  the mul becomes neg t, c; fma.rn d, a, b, t
 *
 * The mul's slot stays (as the dead product, or the negation the sub
 * needs), so instruction counts and pcs do not move.  PTXSIM_FMAD=0 turns
 * the contraction off, as ptxas --fmad=false does.
 */
#include "frontend.h"

#include <stdlib.h>
#include <string.h>

static bool float_type(uint8_t t) { return t == ISA_TYPE_F32 || t == ISA_TYPE_F64; }

/* mul/add/sub of f32 or f64 that ptxas may contract: no rounding
 * modifier, no .sat, unguarded. */
static bool contractible(const isa_inst *in, uint16_t op)
{
    return in->op == op && float_type(in->type) && in->rnd == ISA_RND_NONE && in->guard == ISA_NOREG &&
           !(in->flags & ISA_MOD_FLAG(SAT)) && in->nopd == 3;
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

static bool names(const isa_opd *o, const uint16_t *lists, uint16_t r)
{
    uint16_t regs[ISA_MAX_VEC];
    unsigned n = regs_of(o, lists, regs);
    for (unsigned k = 0; k < n; k++)
        if (regs[k] == r)
            return true;
    return false;
}

/* Does instruction `in` write register r? */
static bool writes(const isa_inst *in, const uint16_t *lists, uint16_t r)
{
    return in->nopd && !(isa_ops[in->op].flags & ISA_F_NODST) && in->opd[0].kind != ISA_OPD_ADDR &&
           names(&in->opd[0], lists, r);
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

void fe_contract(isa_module *m, isa_func *f, const uint32_t *block_of)
{
    const char *env = getenv("PTXSIM_FMAD");
    if ((env && strcmp(env, "0") == 0) || !f->nregs)
        return;
    /* How many operands read each register (the product must have one). */
    uint32_t *reads = calloc(f->nregs, sizeof *reads);
    if (!reads)
        return;
    for (uint32_t i = 0; i < f->ncode; i++) {
        const isa_inst *in = &f->code[i];
        bool dst = !(isa_ops[in->op].flags & ISA_F_NODST) && in->opd[0].kind != ISA_OPD_ADDR;
        for (unsigned k = dst ? 1 : 0; k < in->nopd; k++) {
            uint16_t regs[ISA_MAX_VEC];
            unsigned n = regs_of(&in->opd[k], m->lists, regs);
            for (unsigned j = 0; j < n; j++)
                if (regs[j] < f->nregs)
                    reads[regs[j]]++;
        }
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        isa_inst *add = &f->code[i];
        bool is_sub = contractible(add, ISA_OP_SUB);
        if (!is_sub && !contractible(add, ISA_OP_ADD))
            continue;
        /* Which source is a lone product, and the mul that made it. */
        for (unsigned side = 1; side <= 2; side++) {
            const isa_opd *t = &add->opd[side];
            if (t->kind != ISA_OPD_REG || t->reg >= f->nregs || reads[t->reg] != 1)
                continue;
            uint32_t at = i;
            while (at > 0 && block_of[at - 1] == block_of[i] && !writes(&f->code[at - 1], m->lists, t->reg))
                at--;
            if (at == 0 || block_of[at - 1] != block_of[i])
                continue;
            isa_inst *mul = &f->code[at - 1];
            if (!contractible(mul, ISA_OP_MUL) || mul->type != add->type || mul->opd[0].kind != ISA_OPD_REG ||
                ((mul->flags ^ add->flags) & ISA_MOD_FLAG(FTZ)))
                continue;
            isa_opd a = mul->opd[1], b = mul->opd[2], c = add->opd[3 - side];
            if (!steady(f, m->lists, &a, at, i) || !steady(f, m->lists, &b, at, i) ||
                (a.kind == ISA_OPD_REG && a.reg == t->reg) || (b.kind == ISA_OPD_REG && b.reg == t->reg))
                continue;
            isa_opd prod = mul->opd[0];
            if (is_sub && side == 2) {                  /* c - a*b = (-a)*b + c */
                if (a.kind != ISA_OPD_REG)
                    continue;
                mul->op = ISA_OP_NEG;
                mul->nopd = 2;
                a = prod;
            } else if (is_sub) {                        /* a*b - c = a*b + (-c) */
                if (c.kind != ISA_OPD_REG || !steady(f, m->lists, &c, at, i))
                    continue;
                mul->op = ISA_OP_NEG;
                mul->opd[1] = c;
                mul->nopd = 2;
                c = prod;
            }
            add->op = ISA_OP_FMA;
            add->rnd = ISA_RND_RN;
            add->opd[1] = a;
            add->opd[2] = b;
            add->opd[3] = c;
            add->nopd = 4;
            break;
        }
    }
    free(reads);
}

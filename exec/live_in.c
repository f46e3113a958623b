/*
 * live_in.c -- the registers each function may read before it writes them.
 *
 * A new frame starts with its registers zeroed -- a warp's kernel
 * registers when its block starts, a callee's at a call -- so that what a
 * program reads from a register it never wrote is 0 on every run and on
 * any number of host threads (a GPU leaves it undefined).  Zeroing every
 * register cost short blocks dearly: bfs's kernel has 55 registers, 14 KB
 * a warp to clear for some thirty instructions a warp, and the clearing
 * was 4-6% of bfs's and srad's functional runs, memory traffic that two
 * host threads share.  Compilers write nearly every register before they
 * read it, so a functional launch zeroes only the registers live at the
 * function's entry: those some path from the entry may read before any
 * instruction on it has surely written them (the usual backward dataflow,
 * instruction by instruction).  The rest keep whatever the warp's host
 * memory held, which no instruction can see: a thread reads only what it,
 * or the lanes it exchanges with on the same path, wrote first.  shfl is
 * the exception: it reads its source in whichever lane it names, in the
 * member mask or not, on the same path or not (NVIDIA's reduction sample
 * shuffles from lanes outside its mask), so its source registers are
 * zeroed at the entry whatever the paths say.
 *
 * The analysis errs toward zeroing.  A register counts as read wherever an
 * operand names it; it counts as written only by the destination of an
 * unguarded instruction (a guard may leave a thread's register as it
 * was) whose opcode is one known to write its first operand whole, for
 * every lane it runs in (writes_first, below).  Any other first operand is
 * taken as read: matrix fragments (wgmma.mma_async accumulates into its
 * D), nanosleep's duration, mbarrier's waits, whose first operand is a
 * predicate.  A function too large to analyse in bounded memory has every
 * register zeroed, as before.
 *
 * Timing runs and the debugger zero every register still: P-mode runs
 * ahead past loads it does not perform and reads their destinations, and
 * its statistics must not depend on what a warp's memory held.
 */
#include "exec_int.h"

#include <stdlib.h>
#include <string.h>

/* A function gets the analysis when its sets fit in this many 64-bit
 * words (32 MB): instructions times the words of a register set. */
#define LIVE_MAX_WORDS (4u << 20)

static void mark(uint64_t *set, uint32_t nregs, uint16_t r)
{
    if (r != ISA_NOREG && r < nregs)
        set[r / 64] |= 1ull << (r % 64);
}

/* Whether op writes its first operand, a register (or a vector or list
 * of them), whole in every lane that runs it.  A list of what compilers
 * emit, not a property of the opcode table, so that an opcode added later
 * is taken as reading its first operand until it is added here. */
static bool writes_first(uint16_t op)
{
    switch (op) {
    case ISA_OP_ADD: case ISA_OP_SUB: case ISA_OP_ADDC: case ISA_OP_SUBC: case ISA_OP_MUL: case ISA_OP_MAD:
    case ISA_OP_MADC: case ISA_OP_MUL24: case ISA_OP_MAD24: case ISA_OP_SAD: case ISA_OP_DIV: case ISA_OP_REM:
    case ISA_OP_ABS: case ISA_OP_NEG: case ISA_OP_MIN: case ISA_OP_MAX: case ISA_OP_POPC: case ISA_OP_CLZ:
    case ISA_OP_BFIND: case ISA_OP_BREV: case ISA_OP_BFE: case ISA_OP_BFI: case ISA_OP_SZEXT: case ISA_OP_BMSK:
    case ISA_OP_FNS: case ISA_OP_PRMT: case ISA_OP_AND: case ISA_OP_OR: case ISA_OP_XOR: case ISA_OP_NOT:
    case ISA_OP_CNOT: case ISA_OP_LOP3: case ISA_OP_SHL: case ISA_OP_SHR: case ISA_OP_SHF: case ISA_OP_DP4A:
    case ISA_OP_DP2A: case ISA_OP_FMA: case ISA_OP_RCP: case ISA_OP_SQRT: case ISA_OP_RSQRT: case ISA_OP_SIN:
    case ISA_OP_COS: case ISA_OP_LG2: case ISA_OP_EX2: case ISA_OP_TANH: case ISA_OP_COPYSIGN: case ISA_OP_SET:
    case ISA_OP_SELP: case ISA_OP_SLCT: case ISA_OP_MOV: case ISA_OP_CVT: case ISA_OP_CVTA: case ISA_OP_LD:
    case ISA_OP_LDU: case ISA_OP_ATOM: case ISA_OP_MAPA: case ISA_OP_GETCTARANK: case ISA_OP_STACKSAVE:
    case ISA_OP_SHFL: case ISA_OP_VOTE: case ISA_OP_ACTIVEMASK: case ISA_OP_MATCH: case ISA_OP_REDUX:
        return true;
    default:
        return false;
    }
}

/* The registers in of f reads (into use) and surely writes (into def). */
static void uses_and_defs(const isa_module *m, const isa_func *f, const isa_inst *in, uint64_t *use,
                          uint64_t *def)
{
    uint32_t nregs = f->nregs;
    uint16_t flags = isa_ops[in->op].flags;
    if (flags & ISA_F_CALL) {
        /* The callee's registers are a window of their own; arguments and
         * results pass through .param variables.  An indirect call reads
         * the register holding its target. */
        const isa_call *c = &f->calls[in->opd[0].imm];
        if (c->callee < 0)
            mark(use, nregs, c->target_reg);
        return;
    }
    bool has_dst = isa_inst_has_dst(in);
    bool pred_dst = (flags & ISA_F_PDST) || in->type == ISA_TYPE_PRED;
    bool kills = in->guard == ISA_NOREG && writes_first(in->op);
    for (unsigned i = 0; i < in->nopd; i++) {
        const isa_opd *o = &in->opd[i];
        bool dst = i == 0 && has_dst;
        switch (o->kind) {
        case ISA_OPD_REG:
        case ISA_OPD_VEC:
        case ISA_OPD_LIST: {
            if (dst && pred_dst)
                break;                  /* a predicate, not a register */
            uint16_t regs[ISA_MAX_LIST];
            unsigned n = isa_opd_regs(o, m->lists, regs);
            for (unsigned k = 0; k < n; k++)
                mark(dst && kills ? def : use, nregs, regs[k]);
            break;
        }
        case ISA_OPD_ADDR:
            mark(use, nregs, o->reg);
            break;
        default:                        /* immediates, predicates, special registers, labels, symbols */
            break;
        }
    }
}

/* f's live-in registers into ef->live_in; false when out of memory or too
 * large (ef->live_in stays NULL: zero them all). */
static bool analyse(const isa_module *m, const isa_func *f, exec_func *ef)
{
    uint32_t n = f->ncode, nregs = f->nregs, words = (nregs + 63) / 64;
    if (!n || !words)
        return true;
    if ((uint64_t)(n + 1) * words * 3 > LIVE_MAX_WORDS)
        return false;
    /* live[i]: live into instruction i (live[n]: out of the function, none);
     * use and def per instruction. */
    uint64_t *live = calloc((size_t)(n + 1) * words, sizeof *live);
    uint64_t *use = calloc((size_t)n * words, sizeof *use), *def = calloc((size_t)n * words, sizeof *def);
    uint64_t *out = malloc(words * sizeof *out);
    uint32_t *next = malloc(isa_func_max_successors(f) * sizeof *next);
    bool ok = live && use && def && out && next;
    if (ok) {
        for (uint32_t i = 0; i < n; i++)
            uses_and_defs(m, f, &f->code[i], use + (size_t)i * words, def + (size_t)i * words);
        /* Backward passes until nothing changes: as many as the deepest
         * nest of loops, plus one. */
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = n; i-- > 0;) {
                memset(out, 0, words * sizeof *out);
                uint32_t ns = isa_func_successors(f, i, next);
                for (uint32_t k = 0; k < ns; k++)
                    for (uint32_t w = 0; w < words; w++)
                        out[w] |= live[(size_t)next[k] * words + w];
                uint64_t *mine = live + (size_t)i * words;
                const uint64_t *u = use + (size_t)i * words, *d = def + (size_t)i * words;
                for (uint32_t w = 0; w < words; w++) {
                    uint64_t v = u[w] | (out[w] & ~d[w]);
                    if (v != mine[w]) {
                        mine[w] = v;
                        changed = true;
                    }
                }
            }
        }
        /* shfl's sources, read in lanes that may not have written them. */
        for (uint32_t i = 0; i < n; i++) {
            const isa_inst *in = &f->code[i];
            if (in->op == ISA_OP_SHFL && in->nopd > 1 && in->opd[1].kind == ISA_OPD_REG)
                mark(live, nregs, in->opd[1].reg);
        }
        uint32_t count = 0;
        for (uint32_t w = 0; w < words; w++)
            count += (uint32_t)__builtin_popcountll(live[w]);
        ef->live_in = malloc((count ? count : 1) * sizeof *ef->live_in);
        ok = ef->live_in != NULL;
        for (uint32_t r = 0; ok && r < nregs; r++)
            if (live[r / 64] >> (r % 64) & 1)
                ef->live_in[ef->nlive_in++] = (uint16_t)r;
    }
    free(live);
    free(use);
    free(def);
    free(out);
    free(next);
    return ok;
}

void exec_program_live_in(exec_program *p)
{
    for (uint32_t fi = 0; fi < p->m->nfuncs; fi++) {
        exec_func *ef = &p->funcs[fi];
        ef->analysed = analyse(p->m, &p->m->funcs[fi], ef);
        if (!ef->analysed) {
            free(ef->live_in);
            ef->live_in = NULL;
            ef->nlive_in = 0;
        }
    }
}

void exec_frame_zero(const exec_func *ef, uint64_t *regs, bool all)
{
    if (all || !ef->analysed) {
        memset(regs, 0, (size_t)ef->nregs * ISA_WARP_SIZE * sizeof *regs);
        return;
    }
    for (uint32_t i = 0; i < ef->nlive_in; i++)
        memset(regs + (size_t)ef->live_in[i] * ISA_WARP_SIZE, 0, ISA_WARP_SIZE * sizeof *regs);
}

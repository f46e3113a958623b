/*
 * print.c -- the module IR written back out as PTX text.
 *
 * The output is what ptxsim understood, in a canonical spelling: modifiers
 * in the order the ISA's syntax lines use, labels renamed $L__<index>.  It
 * parses back into the same IR, and ptxas accepts it.
 */
#include "frontend.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Declaration r opens a vector register (the parser's elements %v.x,
 * %v.y[, %v.z, %v.w], declared one after another): its length, else 0. */
static unsigned vector_reg_length(const isa_func *f, uint32_t r)
{
    static const char fields[] = "xyzw";
    unsigned k = 0;
    size_t n = strlen(f->regs[r].name);
    if (n < 3 || strcmp(f->regs[r].name + n - 2, ".x") != 0)
        return 0;
    while (k < 4 && r + k < f->nregdecls) {
        const char *e = f->regs[r + k].name;
        if (f->regs[r + k].count || strlen(e) != n || strncmp(e, f->regs[r].name, n - 1) != 0 || e[n - 1] != fields[k])
            break;
        k++;
    }
    return k == 2 || k == 4 ? k : 0;
}

static const char *linkage_names[] = { "", ".visible ", ".extern ", ".weak ", ".common " };

#define FLAG(in, F) (((in)->flags & ISA_MOD_FLAG(F)) != 0)

/* Parameters and return values are named in the function's signature
 * (the prototype's and the definition's are separate variables). */
static bool is_signature(const isa_var *v)
{
    return v->role == ISA_VAR_KPARAM || v->role == ISA_VAR_FPARAM || v->role == ISA_VAR_FRET;
}

/* A variable's name as printed.  Variables of nested { } scopes (call-site
 * argument blocks, often all named param0, retval0) are printed at
 * function scope: one whose name an earlier variable of the function
 * already has gets its position among the function's variables appended.
 * Positions survive a round trip, so printing is a fixed point. */
static void put_var(FILE *out, const isa_module *m, uint32_t v)
{
    const isa_var *var = &m->vars[v];
    if (var->func < 0) {
        /* Modules linked into one keep their private variables apart
         * ($LC0 of each of GCC's units): a private one whose name an
         * earlier variable or one with linkage has is printed with its
         * index, as ptxas refuses a second definition. */
        for (uint32_t i = 0; i < m->nvars && var->linkage == ISA_LINK_NONE; i++)
            if (i != v && m->vars[i].func < 0 && (i < v || m->vars[i].linkage != ISA_LINK_NONE) &&
                strcmp(m->vars[i].name, var->name) == 0) {
                fprintf(out, "%s__%u", var->name, v);
                return;
            }
        fputs(var->name, out);
        return;
    }
    if (is_signature(var)) {
        fputs(var->name, out);
        return;
    }
    uint32_t pos = 0;
    bool dup = false;
    for (uint32_t i = 0; i < v; i++)
        if (m->vars[i].func == var->func) {
            pos++;
            dup = dup || (!is_signature(&m->vars[i]) && strcmp(m->vars[i].name, var->name) == 0);
        }
    if (dup)
        fprintf(out, "%s__%u", var->name, pos);
    else
        fputs(var->name, out);
}

/* A function's name as printed: as put_var's module variables, private
 * functions of linked modules that share a name get their index. */
static void put_func(FILE *out, const isa_module *m, uint32_t fi)
{
    const char *name = m->funcs[fi].name;
    for (uint32_t i = 0; i < m->nfuncs && m->funcs[fi].linkage == ISA_LINK_NONE && !m->funcs[fi].is_entry; i++)
        if (i != fi && (i < fi || m->funcs[i].linkage != ISA_LINK_NONE) && strcmp(m->funcs[i].name, name) == 0) {
            fprintf(out, "%s__%u", name, fi);
            return;
        }
    fputs(name, out);
}

static void put_flag(FILE *out, const isa_inst *in, unsigned bit)
{
    if (in->flags & (1u << bit))
        fprintf(out, ".%s", isa_flag_names[bit]);
}

/* The vector width and the types: .v4.f32.s32 */
static void put_shape(FILE *out, const isa_inst *in)
{
    if (in->vec > 1)
        fprintf(out, ".v%u", in->vec);
    if (in->type)
        fprintf(out, ".%s", isa_types[in->type].name);
    if (in->type2)
        fprintf(out, ".%s", isa_types[in->type2].name);
    if (in->type3)
        fprintf(out, ".%s", isa_types[in->type3].name);
}

/* tex.level.2d.v4.f32.f32, tld4.r.2d..., suld.b.2d.v4.b32.trap: the
 * texture and surface instructions put their modifiers in their own order. */
static void print_image_mnemonic(FILE *out, const isa_inst *in)
{
    bool surface = (isa_ops[in->op].flags & ISA_F_SURFACE) != 0;
    fputs(isa_ops[in->op].name, out);
    if (surface)
        fputs(".b", out);
    if (surface && in->aop)
        fprintf(out, ".%s", isa_aop_names[in->aop]);    /* sured.b.add */
    if (!surface && in->mode)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
    if (in->geom)
        fprintf(out, ".%s", isa_geom_names[in->geom]);
    put_shape(out, in);
    if (surface && in->mode)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
    if (surface)
        put_flag(out, in, ISA_FLAGBIT_CLAMP);
}

static void put_layout(FILE *out, const isa_inst *in)
{
    if (in->layout & ISA_LAYOUT_SEEN_A)
        fputs(in->layout & ISA_LAYOUT_A_COL ? ".col" : ".row", out);
    if (in->layout & ISA_LAYOUT_SEEN_B)
        fputs(in->layout & ISA_LAYOUT_B_COL ? ".col" : ".row", out);
}

/* wmma.load.a.sync.aligned.row.m16n16k16.global.f16,
 * mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32,
 * ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16: the matrix instructions
 * (their table names spell wmma's '.' as '_'). */
static void print_matrix_mnemonic(FILE *out, const isa_inst *in)
{
    const char *name = isa_ops[in->op].name, *us = strchr(name, '_');
    if (us)
        fprintf(out, "%.*s.%s", (int)(us - name), name, us + 1);
    else
        fputs(name, out);
    bool mode_first = in->op == ISA_OP_MMA;     /* mma.sp.sync.aligned... */
    if (mode_first && in->mode)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
    if (in->matrix)
        fprintf(out, ".%c", 'a' + (in->matrix - ISA_MATRIX_A));
    fputs(".sync.aligned", out);
    bool wmma = in->op == ISA_OP_WMMA_LOAD || in->op == ISA_OP_WMMA_STORE || in->op == ISA_OP_WMMA_MMA;
    if (wmma)
        put_layout(out, in);
    fprintf(out, ".%s", isa_shape_names[in->shape]);
    if (in->op == ISA_OP_WGMMA_MMA_ASYNC) {     /* wgmma.mma_async.sync.aligned.shape.satfinite.s32.s8.s8 */
        put_flag(out, in, ISA_FLAGBIT_SATFINITE);
        fprintf(out, ".%s.%s.%s", isa_types[in->type].name, isa_types[in->type2].name, isa_types[in->type3].name);
        return;
    }
    if (!wmma)
        put_layout(out, in);
    if (in->op == ISA_OP_LDMATRIX || in->op == ISA_OP_STMATRIX)
        fprintf(out, ".x%u", in->vec);
    if (in->mode && !mode_first)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
    if (in->space)
        fprintf(out, ".%s", isa_space_names[in->space]);
    bool f16_pair = in->op == ISA_OP_WMMA_MMA && in->type2 == ISA_TYPE_F16;    /* .f32.f32: D and C */
    const uint8_t types[4] = { in->type, f16_pair ? in->type4 : in->type2, f16_pair ? 0 : in->type3,
                               f16_pair ? 0 : in->type4 };
    for (unsigned i = 0; i < 4; i++)
        if (types[i])
            fprintf(out, ".%s", isa_types[types[i]].name);
    if (in->rnd)
        fprintf(out, ".%s", isa_rnd_names[in->rnd]);
    put_flag(out, in, ISA_FLAGBIT_SATFINITE);
    if (in->aop)
        fprintf(out, ".%s", isa_aop_names[in->aop]);     /* .b1's .xor.popc */
}

/* The bulk and mbarrier forms of cp, whose modes (mods.def) spell most of
 * the mnemonic; the state spaces go where ptxas wants them, and a cache
 * policy operand past the usual ones brings its .L2::cache_hint back. */
static bool print_cp_async_form(FILE *out, const isa_inst *in)
{
    const char *name = isa_mode_names[in->mode];
    unsigned usual = 0;
    switch (in->mode) {
    case ISA_MODE_ASYNC_MBARRIER_ARRIVE: case ISA_MODE_ASYNC_MBARRIER_ARRIVE_NOINC:
        fprintf(out, "cp.%s%s", name, in->space ? ".shared" : "");
        put_shape(out, in);
        return true;
    case ISA_MODE_ASYNC_BULK_COMMIT: case ISA_MODE_ASYNC_BULK_WAIT: case ISA_MODE_ASYNC_BULK_WAIT_READ:
        fprintf(out, "cp.%s", name);
        return true;
    case ISA_MODE_ASYNC_BULK_PREFETCH_L2:
        fputs("cp.async.bulk.prefetch.L2.global", out);
        usual = 2;
        break;
    case ISA_MODE_ASYNC_BULK_MBAR: case ISA_MODE_REDUCE_BULK_MBAR:
        fprintf(out, "cp.%s.shared::cluster.%s.mbarrier::complete_tx::bytes",
                in->mode == ISA_MODE_REDUCE_BULK_MBAR ? "reduce.async.bulk" : "async.bulk",
                in->space == ISA_SPACE_GLOBAL ? "global" : "shared::cta");
        usual = 4;
        break;
    case ISA_MODE_ASYNC_BULK_GROUP: case ISA_MODE_REDUCE_BULK_GROUP:
        fprintf(out, "cp.%s.global.shared::cta.bulk_group",
                in->mode == ISA_MODE_REDUCE_BULK_GROUP ? "reduce.async.bulk" : "async.bulk");
        usual = 3;
        break;
    case ISA_MODE_ASYNC_BULK_TENSOR_MBAR:
        fprintf(out, "cp.async.bulk.tensor.%ud.shared::cluster.global.tile.mbarrier::complete_tx::bytes%s",
                isa_tensor_rank(in), in->layout & ISA_CP_MULTICAST ? ".multicast::cluster" : "");
        usual = in->layout & ISA_CP_MULTICAST ? 5 : 4;
        break;
    case ISA_MODE_ASYNC_BULK_TENSOR_GROUP: case ISA_MODE_REDUCE_BULK_TENSOR_GROUP:
        fprintf(out, "cp.%s.%ud.global.shared::cta", in->mode == ISA_MODE_REDUCE_BULK_TENSOR_GROUP
                ? "reduce.async.bulk.tensor" : "async.bulk.tensor", isa_tensor_rank(in));
        if (in->aop)
            fprintf(out, ".%s", isa_aop_names[in->aop]);
        fputs(".tile.bulk_group", out);
        if (in->nopd > 3)
            fputs(".L2::cache_hint", out);
        return true;
    case ISA_MODE_ASYNC_BULK_PREFETCH_TENSOR_L2:
        fprintf(out, "cp.async.bulk.prefetch.tensor.%ud.L2.global.tile", isa_tensor_rank(in));
        usual = 2;
        break;
    default:
        return false;
    }
    if (in->nopd > usual)
        fputs(".L2::cache_hint", out);
    if (in->aop)
        fprintf(out, ".%s", isa_aop_names[in->aop]);
    put_flag(out, in, ISA_FLAGBIT_NOFTZ);
    put_shape(out, in);
    return true;
}

/* wgmma.mma_async's immediates, which the parser folded into layout bits:
 * the scales (but for integers), then the transposes (.f16, .bf16; A's
 * only when A is in shared memory). */
static void print_wgmma_imms(FILE *out, const isa_inst *in)
{
    if (in->type2 == ISA_TYPE_S8 || in->type2 == ISA_TYPE_U8)
        return;
    fprintf(out, ", %d, %d", in->layout & ISA_LAYOUT_NEG_A ? -1 : 1, in->layout & ISA_LAYOUT_NEG_B ? -1 : 1);
    if (in->type2 != ISA_TYPE_F16 && in->type2 != ISA_TYPE_BF16)
        return;
    if (in->opd[1].kind == ISA_OPD_REG)
        fprintf(out, ", %d", (in->layout & ISA_LAYOUT_TRANS_A) != 0);
    fprintf(out, ", %d", (in->layout & ISA_LAYOUT_TRANS_B) != 0);
}

static void print_mnemonic(FILE *out, const isa_inst *in)
{
    if (in->shape) {
        print_matrix_mnemonic(out, in);
        return;
    }
    if (in->op == ISA_OP_CP && print_cp_async_form(out, in))
        return;
    if (in->op == ISA_OP_MBARRIER || (in->op == ISA_OP_FENCE && in->mode)) {
        /* mbarrier.try_wait.parity.acquire.cta.shared::cta.b64,
         * fence.proxy.async.shared::cta: the mode first.  An arrive whose
         * state goes to the sink '_' is on a .shared::cluster barrier. */
        bool sink = in->op == ISA_OP_MBARRIER && in->nopd && in->opd[0].kind == ISA_OPD_NONE;
        fprintf(out, "%s.%s", isa_ops[in->op].name, isa_mode_names[in->mode]);
        if (in->order)
            fprintf(out, ".%s", isa_order_names[in->order]);
        if (in->scope)
            fprintf(out, ".%s", isa_scope_names[in->scope]);
        if (in->space == ISA_SPACE_SHARED)
            fputs(sink || (in->flags & ISA_MOD_FLAG(SHCLUSTER)) ? ".shared::cluster" : in->op == ISA_OP_FENCE ? ".shared::cta" : ".shared", out);
        else if (in->space)
            fprintf(out, ".%s", isa_space_names[in->space]);
        put_shape(out, in);
        return;
    }
    if (in->op == ISA_OP_CP) {          /* cp.async.cg.shared.global, cp.async.wait_group */
        fputs("cp.async", out);
        if (in->mode != ISA_MODE_ASYNC) {
            fprintf(out, ".%s", isa_mode_names[in->mode]);
            return;
        }
        put_flag(out, in, ISA_FLAGBIT_CA);
        put_flag(out, in, ISA_FLAGBIT_CG);
        fputs(".shared.global", out);
        if (in->layout & ISA_CP_CACHE_HINT)
            fputs(".L2::cache_hint", out);
        return;
    }
    if (isa_ops[in->op].flags & ISA_F_IMAGE) {
        print_image_mnemonic(out, in);
        return;
    }
    if (in->op == ISA_OP_CREATEPOL) {
        /* createpolicy.fractional.L2::evict_last.b64, .range.global..., .cvt.L2: the
         * priorities, which change nothing here, are not kept; any one will do. */
        fprintf(out, "createpolicy.%s", isa_mode_names[in->mode]);
        if (in->space)
            fprintf(out, ".%s", isa_space_names[in->space]);
        if (in->mode != ISA_MODE_CVT_L2)
            fputs(".L2::evict_last", out);
        put_shape(out, in);
        return;
    }
    if (in->op == ISA_OP_WGMMA_FENCE || in->op == ISA_OP_WGMMA_COMMIT || in->op == ISA_OP_WGMMA_WAIT) {
        const char *name = isa_ops[in->op].name;      /* wgmma_fence: wgmma.fence.sync.aligned */
        fprintf(out, "wgmma.%s.sync.aligned", name + 6);
        return;
    }
    if ((in->op == ISA_OP_ST || in->op == ISA_OP_RED) && in->mode == ISA_MODE_ASYNC_MBAR) {
        /* st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32,
         * red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 */
        fprintf(out, "%s.async", isa_ops[in->op].name);
        if (in->order)
            fprintf(out, ".%s", isa_order_names[in->order]);
        if (in->scope)
            fprintf(out, ".%s", isa_scope_names[in->scope]);
        fputs(in->flags & ISA_MOD_FLAG(SHCLUSTER) ? ".shared::cluster" : ".shared::cta", out);
        fputs(".mbarrier::complete_tx::bytes", out);
        if (in->aop)
            fprintf(out, ".%s", isa_aop_names[in->aop]);
        put_shape(out, in);
        return;
    }
    if (in->op == ISA_OP_TENSORMAP) {
        /* tensormap.replace.tile.box_dim.shared::cta.b1024.b32,
         * tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned */
        if (in->mode == ISA_MODE_TM_CP_FENCEPROXY_GENERIC) {
            fputs("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release", out);
            fprintf(out, ".%s.sync.aligned", isa_scope_names[in->scope]);
            return;
        }
        fprintf(out, "tensormap.%s", isa_mode_names[in->mode]);
        if (in->space == ISA_SPACE_SHARED)
            fputs(".shared::cta", out);
        else if (in->space)
            fprintf(out, ".%s", isa_space_names[in->space]);
        fprintf(out, ".b1024.%s", isa_types[in->type].name);
        return;
    }
    if (in->op == ISA_OP_SETMAXNREG) {        /* setmaxnreg.inc.sync.aligned.u32: the action first */
        fprintf(out, "setmaxnreg.%s.sync.aligned.u32", isa_aop_names[in->aop]);
        return;
    }
    if (in->op == ISA_OP_BARRIER && in->scope == ISA_SCOPE_CLUSTER) {
        /* barrier.cluster.arrive.release.aligned */
        fprintf(out, "barrier.cluster.%s", isa_mode_names[in->mode]);
        if (in->order)
            fprintf(out, ".%s", isa_order_names[in->order]);
        put_flag(out, in, ISA_FLAGBIT_ALIGNED);
        return;
    }
    fputs(isa_ops[in->op].name, out);
    bool prmt_mode = in->op == ISA_OP_PRMT;
    bool match = in->op == ISA_OP_MATCH;
    put_flag(out, in, ISA_FLAGBIT_VOLATILE);
    if (in->order)
        fprintf(out, ".%s", isa_order_names[in->order]);
    if (in->scope)
        fprintf(out, ".%s", isa_scope_names[in->scope]);
    put_flag(out, in, ISA_FLAGBIT_TO);
    if (in->flags & ISA_MOD_FLAG(SHCLUSTER))
        fputs(".shared::cluster", out);
    else if (in->space)
        fprintf(out, ".%s", isa_space_names[in->space]);
    if (match && in->mode)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
    put_flag(out, in, ISA_FLAGBIT_WARP);
    put_flag(out, in, ISA_FLAGBIT_SYNC);
    put_flag(out, in, ISA_FLAGBIT_ALIGNED);
    if (in->mode && !prmt_mode && !match)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
    static const unsigned cache[] = { ISA_FLAGBIT_NC, ISA_FLAGBIT_CA, ISA_FLAGBIT_CG, ISA_FLAGBIT_CS,
                                      ISA_FLAGBIT_LU, ISA_FLAGBIT_CV, ISA_FLAGBIT_WB, ISA_FLAGBIT_WT };
    for (size_t i = 0; i < sizeof cache / sizeof cache[0]; i++)
        put_flag(out, in, cache[i]);
    /* The hints the parser lets go, where ptxas wants them back: a load's
     * or store's cache-policy operand, discard's and applypriority's level. */
    if ((in->op == ISA_OP_LD || in->op == ISA_OP_ST) && in->nopd == 3)
        fputs(".L2::cache_hint", out);
    if (in->op == ISA_OP_DISCARD)
        fputs(".L2", out);
    if (in->op == ISA_OP_APPLYPRIO)
        fputs(".L2::evict_normal", out);
    if (in->cmp)
        fprintf(out, ".%s", isa_cmp_names[in->cmp]);
    if (in->aop)
        fprintf(out, ".%s", isa_aop_names[in->aop]);
    if (in->rnd)
        fprintf(out, ".%s", isa_rnd_names[in->rnd]);
    static const unsigned rest[] = { ISA_FLAGBIT_APPROX, ISA_FLAGBIT_FULL, ISA_FLAGBIT_HI,
                                     ISA_FLAGBIT_LO, ISA_FLAGBIT_WIDE, ISA_FLAGBIT_CC,
                                     ISA_FLAGBIT_SHIFTAMT, ISA_FLAGBIT_WRAP, ISA_FLAGBIT_CLAMP,
                                     ISA_FLAGBIT_FTZ, ISA_FLAGBIT_NOFTZ, ISA_FLAGBIT_SAT,
                                     ISA_FLAGBIT_NAN, ISA_FLAGBIT_XORSIGN, ISA_FLAGBIT_ABS,
                                     ISA_FLAGBIT_RELU, ISA_FLAGBIT_SATFINITE, ISA_FLAGBIT_UNI };
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
        put_flag(out, in, rest[i]);
    put_shape(out, in);
    if (prmt_mode && in->mode)
        fprintf(out, ".%s", isa_mode_names[in->mode]);
}

static void print_reg(FILE *out, const isa_func *f, unsigned reg, bool pred)
{
    char buf[64];
    fputs(isa_reg_name(f, reg, pred, buf, sizeof buf), out);
}

static void print_imm(FILE *out, const isa_inst *in, unsigned i, const isa_opd *o)
{
    uint8_t t = isa_opd_type(in, i);
    if (o->neg == ISA_LIT_F32)
        fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
    else if (o->neg == ISA_LIT_F64)
        fprintf(out, "0d%016" PRIX64, o->imm);
    else if (isa_types[t].kind == ISA_KIND_S || (int64_t)o->imm < 0)
        fprintf(out, "%" PRId64, (int64_t)o->imm);
    else
        fprintf(out, "%" PRIu64, o->imm);
}

static void print_offset(FILE *out, int64_t off)
{
    if (off > 0)
        fprintf(out, "+%" PRId64, off);
    else if (off < 0)
        fprintf(out, "+%" PRId64, off);
}

/* A video instruction's element selector: .b1, .h0, .b3210, .h10 ... */
static void print_video_sel(FILE *out, uint64_t sel)
{
    fputs(sel & ISA_VSEL_HALF ? ".h" : ".b", out);
    for (unsigned k = isa_vsel_count(sel); k-- > 0;)
        fputc('0' + (int)isa_vsel_digit(sel, k), out);
}

static void print_operand(FILE *out, const isa_module *m, const isa_func *f, const isa_inst *in,
                          unsigned i)
{
    const isa_opd *o = &in->opd[i];
    switch (o->kind) {
    case ISA_OPD_NONE:
        fputs("_", out);
        if (o->reg2 != ISA_NOREG) {             /* _|p */
            fputs("|", out);
            print_reg(out, f, o->reg2, true);
        }
        break;
    case ISA_OPD_REG:
        if (o->neg)                             /* a negated fma source (contract.c), vmad's -a */
            fputs("-", out);
        print_reg(out, f, o->reg, false);
        if (o->imm & ISA_VSEL_ON)
            print_video_sel(out, o->imm);
        if (o->reg2 != ISA_NOREG) {
            fputs("|", out);
            print_reg(out, f, o->reg2, true);
        }
        break;
    case ISA_OPD_PRED:
        if (o->neg)
            fputs("!", out);
        print_reg(out, f, o->reg, true);
        if (o->reg2 != ISA_NOREG) {
            fputs("|", out);
            print_reg(out, f, o->reg2, true);
        }
        break;
    case ISA_OPD_IMM:
        if (in->op == ISA_OP_BRX && i == 1)
            fprintf(out, "$T__%" PRIu64, o->imm);
        else
            print_imm(out, in, i, o);
        break;
    case ISA_OPD_SREG:
        fprintf(out, "%%%s", isa_sreg_names[o->reg]);
        break;
    case ISA_OPD_VEC:
    case ISA_OPD_LIST: {
        uint16_t regs[ISA_MAX_LIST];
        unsigned n = isa_opd_regs(o, m->lists, regs);
        fputs("{", out);
        for (unsigned k = 0; k < n; k++) {
            if (k)
                fputs(", ", out);
            if (regs[k] == ISA_NOREG)
                fputs("_", out);
            else
                print_reg(out, f, regs[k], false);
        }
        fputs("}", out);
        break;
    }
    case ISA_OPD_ADDR:
        fputs("[", out);
        if (o->reg != ISA_NOREG) {
            print_reg(out, f, o->reg, false);
            print_offset(out, o->off);
        } else {
            fprintf(out, "%" PRId64, o->off);
        }
        fputs("]", out);
        break;
    case ISA_OPD_SYM:
        put_var(out, m, isa_opd_var(o));
        print_offset(out, o->off);
        break;
    case ISA_OPD_ADDR_SYM:
        fputs("[", out);
        put_var(out, m, isa_opd_var(o));
        print_offset(out, o->off);
        fputs("]", out);
        break;
    case ISA_OPD_LABEL:
        fprintf(out, "$L__%" PRIu64, o->imm);
        break;
    case ISA_OPD_FUNC:
        put_func(out, m, o->reg);
        break;
    default:
        fprintf(out, "/* operand kind %u */", o->kind);
        break;
    }
}

static void print_param_names(FILE *out, const isa_module *m, const uint32_t *vars, unsigned n)
{
    fputs("(", out);
    for (unsigned k = 0; k < n; k++) {
        fputs(k ? ", " : "", out);
        put_var(out, m, vars[k]);
    }
    fputs(")", out);
}

/* One parameter of a call prototype, from the call site's .param variable:
 * ".param .b64 _" or ".param .align 8 .b8 _[16]". */
static void print_proto_param(FILE *out, const isa_var *v)
{
    unsigned esz = isa_types[v->type].bytes ? isa_types[v->type].bytes : 1;
    if (v->size != esz || v->type == ISA_TYPE_B8)
        fprintf(out, ".param .align %u .%s _[%" PRIu64 "]", v->align, isa_types[v->type].name, v->size / esz);
    else
        fprintf(out, ".param .%s _", isa_types[v->type].name);
}

/* The parser checks an indirect call's prototype at the call and keeps only
 * its name; the declaration is written back from the call's own
 * parameters, just before the first call that names it:
 * "prototype_7 : .callprototype (.param .b32 _) _ (.param .b64 _);" */
static void print_call_prototype(FILE *out, const isa_module *m, const isa_func *f, const isa_inst *in)
{
    const isa_call *c = &f->calls[in->opd[0].imm];
    if (!c->proto || c->callee >= 0)
        return;
    for (const isa_inst *prev = f->code; prev < in; prev++)
        if (prev->op == ISA_OP_CALL && f->calls[prev->opd[0].imm].proto &&
            strcmp(f->calls[prev->opd[0].imm].proto, c->proto) == 0)
            return;
    fprintf(out, "\t%s : .callprototype (", c->proto);
    for (unsigned k = 0; k < c->nrets; k++) {
        fputs(k ? ", " : "", out);
        print_proto_param(out, &m->vars[c->rets[k]]);
    }
    fputs(") _ (", out);
    for (unsigned k = 0; k < c->nargs; k++) {
        fputs(k ? ", " : "", out);
        print_proto_param(out, &m->vars[c->args[k]]);
    }
    fputs(");\n", out);
}

static void print_call(FILE *out, const isa_module *m, const isa_func *f, const isa_inst *in)
{
    const isa_call *c = &f->calls[in->opd[0].imm];
    fputs(" ", out);
    if (c->nrets) {
        print_param_names(out, m, c->rets, c->nrets);
        fputs(", ", out);
    }
    if (c->callee >= 0)
        put_func(out, m, (uint32_t)c->callee);
    else
        print_reg(out, f, c->target_reg, false);
    fputs(", ", out);
    print_param_names(out, m, c->args, c->nargs);
    if (c->proto)
        fprintf(out, ", %s", c->proto);
}

static void print_var(FILE *out, const isa_module *m, const isa_var *v, bool in_list)
{
    if (!in_list)
        fputs(linkage_names[v->linkage < 5 ? v->linkage : 0], out);
    fprintf(out, ".%s .align %u .%s ", isa_space_names[v->space], v->align, isa_types[v->type].name);
    put_var(out, m, (uint32_t)(v - m->vars));
    unsigned esz = isa_types[v->type].bytes ? isa_types[v->type].bytes : 1;
    bool array = v->size != esz || v->type == ISA_TYPE_B8;
    if (v->size == 0 && v->linkage == ISA_LINK_EXTERN)
        fputs("[]", out);
    else if (array)
        fprintf(out, "[%" PRIu64 "]", v->size / esz);
    if (v->init) {
        fputs(array ? " = {" : " = ", out);
        for (uint64_t at = 0; at < v->size; at += esz) {
            uint64_t x = 0;
            memcpy(&x, v->init + at, esz > 8 ? 8 : esz);
            fputs(at ? ", " : "", out);
            const isa_reloc *rl = NULL;
            for (uint32_t r = 0; r < v->nrelocs; r++)
                if (v->relocs[r].at == at)
                    rl = &v->relocs[r];
            if (rl) {
                if (rl->masked)
                    fprintf(out, "0x%llX(", 0xFFull << rl->shift);
                fputs(rl->generic ? "generic(" : "", out);
                if (rl->func)
                    put_func(out, m, rl->var);
                else
                    put_var(out, m, rl->var);
                fputs(rl->generic ? ")" : "", out);
                if (rl->addend)
                    fprintf(out, "+%" PRId64, rl->addend);
                if (rl->masked)
                    fputs(")", out);
            } else if (v->type == ISA_TYPE_F32) {
                fprintf(out, "0f%08" PRIX32, (uint32_t)x);
            } else if (v->type == ISA_TYPE_F64) {
                fprintf(out, "0d%016" PRIX64, x);
            } else {
                fprintf(out, "%" PRIu64, x);
            }
        }
        if (array)
            fputs("}", out);
    }
}

/* Module variables in their order, each after those whose addresses its
 * initialiser holds (a linked module's first units may point at what a
 * later one defines: newlib's __sf), as a declaration must come before a
 * use.  state: 0 not printed, 1 being placed, 2 printed; a cycle of
 * initialisers is printed in index order from where it was entered. */
static void print_var_after_uses(FILE *out, const isa_module *m, uint32_t i, uint8_t *state)
{
    if (state[i])
        return;
    state[i] = 1;
    const isa_var *v = &m->vars[i];
    for (uint32_t r = 0; r < v->nrelocs; r++) {
        const isa_reloc *rl = &v->relocs[r];
        if (!rl->func && rl->var < m->nvars && m->vars[rl->var].func < 0)
            print_var_after_uses(out, m, rl->var, state);
    }
    print_var(out, m, v, false);
    fputs(";\n", out);
    state[i] = 2;
}

static void print_module_vars(FILE *out, const isa_module *m)
{
    uint8_t *state = calloc(m->nvars + 1, 1);
    for (uint32_t i = 0; i < m->nvars; i++) {
        if (m->vars[i].func >= 0)
            continue;
        if (state)
            print_var_after_uses(out, m, i, state);
        else {
            print_var(out, m, &m->vars[i], false);
            fputs(";\n", out);
        }
    }
    free(state);
}

void fe_print(FILE *out, const isa_module *m)
{
    fprintf(out, "//\n// printed by ptxsim from %s\n//\n\n", m->source_name ? m->source_name : "?");
    fprintf(out, ".version %u.%u\n.target sm_%u%s\n.address_size %u\n\n", m->version / 10,
            m->version % 10, m->sm ? m->sm : 75, m->sm && m->sm_suffix == 'a' ? "a" : m->sm && m->sm_suffix == 'f' ? "f" : "",
            m->address_size);
    for (uint32_t i = 1; i < m->nfiles; i++)
        if (m->files[i] && m->files[i][0])
            fprintf(out, ".file %u \"%s\"\n", i, m->files[i]);
    /* Function declarations first, so calls may precede definitions and
     * initialisers may hold functions' addresses. */
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const isa_func *f = &m->funcs[fi];
        if (f->is_entry)
            continue;
        fputs(".func ", out);
        if (f->nrets) {
            fputs("(", out);
            for (uint32_t k = 0; k < f->nrets; k++) {
                fputs(k ? ", " : "", out);
                print_var(out, m, &m->vars[f->rets[k]], true);
            }
            fputs(") ", out);
        }
        put_func(out, m, fi);
        fputs("(", out);
        for (uint32_t k = 0; k < f->nparams; k++) {
            fputs(k ? ", " : "", out);
            print_var(out, m, &m->vars[f->params[k]], true);
        }
        fputs(");\n", out);
    }
    print_module_vars(out, m);
    /* Definitions in the order the source defines them (functions are
     * numbered at first mention), so a printed module prints alike. */
    uint32_t *order = malloc((m->nfuncs + 1) * sizeof *order);
    if (!order)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        uint32_t k = i;
        for (; k > 0 && m->funcs[order[k - 1]].line > m->funcs[i].line; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (uint32_t oi = 0; oi < m->nfuncs; oi++) {
        uint32_t fi = order[oi];
        const isa_func *f = &m->funcs[fi];
        if (f->is_extern)
            continue;
        fprintf(out, "\n%s", f->is_entry ? ".visible .entry " : ".func ");
        if (f->nrets) {
            fputs("(", out);
            for (uint32_t k = 0; k < f->nrets; k++) {
                fputs(k ? ", " : "", out);
                print_var(out, m, &m->vars[f->rets[k]], true);
            }
            fputs(") ", out);
        }
        put_func(out, m, fi);
        fputs("(\n", out);
        for (uint32_t k = 0; k < f->nparams; k++) {
            fputs("\t", out);
            print_var(out, m, &m->vars[f->params[k]], true);
            fputs(k + 1 < f->nparams ? ",\n" : "\n", out);
        }
        fputs(")\n", out);
        if (f->explicitcluster)
            fputs(".explicitcluster\n", out);
        if (f->reqnctapercluster[0])
            fprintf(out, ".reqnctapercluster %u, %u, %u\n", f->reqnctapercluster[0],
                    f->reqnctapercluster[1], f->reqnctapercluster[2]);
        if (f->maxclusterrank)
            fprintf(out, ".maxclusterrank %u\n", f->maxclusterrank);
        fputs("{\n", out);
        for (uint32_t r = 0; r < f->nregdecls; r++) {
            const isa_regdecl *d = &f->regs[r];
            char name[256];
            const char *dn = isa_regdecl_name(f, r, name, sizeof name);
            unsigned vec = vector_reg_length(f, r);
            if (vec) {                          /* %v.x, %v.y, ...: .reg .vN .type %v */
                size_t n = strlen(dn);
                fprintf(out, "\t.reg .v%u .%s %.*s;\n", vec, isa_types[d->type].name, (int)(n - 2), dn);
                r += vec - 1;
            } else if (d->count)
                fprintf(out, "\t.reg .%s %s<%u>;\n", isa_types[d->type].name, dn, d->count);
            else
                fprintf(out, "\t.reg .%s %s;\n", isa_types[d->type].name, dn);
        }
        for (uint32_t i = 0; i < m->nvars; i++) {
            const isa_var *v = &m->vars[i];
            if (v->func != (int32_t)fi || v->role == ISA_VAR_KPARAM || v->role == ISA_VAR_FPARAM ||
                v->role == ISA_VAR_FRET)
                continue;
            fputs("\t", out);
            print_var(out, m, v, false);
            fputs(";\n", out);
        }
        /* Branch tables before the code: ptxas wants them declared first. */
        for (uint32_t t = 0; t < f->nbrx; t++) {
            fprintf(out, "$T__%u: .branchtargets ", t);
            for (uint32_t k = 0; k < f->brx_counts[t]; k++)
                fprintf(out, "%s$L__%u", k ? ", " : "", f->brx_targets[t][k]);
            fputs(";\n", out);
        }
        /* Which instructions are branch targets, marked in one pass (a
         * search per instruction was quadratic: seconds for CUB's -G
         * modules). */
        uint8_t *target = calloc(f->ncode + 1, 1);
        if (!target)
            break;
        for (uint32_t j = 0; j < f->ncode; j++)
            if (f->code[j].op == ISA_OP_BRA && f->code[j].target < f->ncode)
                target[f->code[j].target] = 1;
        for (uint32_t t = 0; t < f->nbrx; t++)
            for (uint32_t k = 0; k < f->brx_counts[t]; k++)
                if (f->brx_targets[t][k] < f->ncode)
                    target[f->brx_targets[t][k]] = 1;
        for (uint32_t i = 0; i < f->ncode; i++) {
            if (target[i])
                fprintf(out, "$L__%u:\n", i);
            const isa_inst *in = &f->code[i];
            if (in->op == ISA_OP_CALL)
                print_call_prototype(out, m, f, in);
            fputs("\t", out);
            if (in->guard != ISA_NOREG) {
                fputs(in->guard_neg ? "@!" : "@", out);
                print_reg(out, f, in->guard, true);
                fputs(" ", out);
            }
            print_mnemonic(out, in);
            if (in->op == ISA_OP_CALL) {
                print_call(out, m, f, in);
            } else {
                /* A texture, surface or tensor address is two operands:
                 * [handle, {coordinates}]. */
                unsigned image = isa_pair_address_opd(in);
                for (unsigned k = 0; k < in->nopd; k++) {
                    fputs(k ? ", " : " ", out);
                    if (k == image)
                        fputs("[", out);
                    print_operand(out, m, f, in, k);
                    if (k == image && k + 1 < in->nopd) {
                        fputs(", ", out);
                        print_operand(out, m, f, in, ++k);
                        fputs("]", out);
                    }
                }
                if (in->op == ISA_OP_WGMMA_MMA_ASYNC)
                    print_wgmma_imms(out, in);
            }
            fputs(";\n", out);
        }
        free(target);
        fputs("}\n", out);
    }
    free(order);
}

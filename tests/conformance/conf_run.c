/*
 * conf_run.c -- running one instruction form: a kernel of one-warp blocks
 * in which each thread loads its operands, executes the form once and
 * stores its results.  The kernel text is the same whichever engine runs
 * it (conf_engine.c: ptxsim's parser and interpreter; conf_engine_cuda.c:
 * a CUDA driver, so the references can be checked against a real GPU).
 */
#include "conf.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The register type a value of type t is declared with.  Half, 8-bit
 * float and tf32 values live in bit registers of their size, and 8-bit
 * integers in 16-bit ones (PTX has no 8-bit registers). */
static const char *reg_type(uint8_t t)
{
    switch (t) {
    case CT_B8: case CT_U8: return "b16";
    case CT_S8: return "s16";
    case CT_F16: case CT_BF16: case CT_E4M3X2: case CT_E5M2X2: return "b16";
    case CT_F16X2: case CT_BF16X2: case CT_TF32: case CT_U16X2: case CT_S16X2: return "b32";
    case CT_F32X2: return "b64";            /* packed types have no registers of their own */
    default: return conf_types[t].name;
    }
}

static unsigned reg_bits(uint8_t t)
{
    unsigned b = conf_types[t].bits;
    return b < 16 ? 16 : b;
}

void conf_put(conf_text *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= s->cap - s->n)
        s->over = true;
    else
        s->n += (size_t)k;
}

bool conf_text_over(const conf_text *t, char *msg, size_t n)
{
    if (t->over)
        snprintf(msg, n, "kernel text too long");
    return t->over;
}

void conf_dump(const char *ptx, size_t len)
{
    const char *path = getenv("PTXSIM_CONF_DUMP");
    FILE *f = path && *path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    fwrite(ptx, 1, len, f);
    fclose(f);
}

unsigned conf_block_lanes(unsigned warps, unsigned block)
{
    unsigned lanes = warps * 32;
    lanes -= lanes % block;
    return lanes < block ? block : lanes;
}

/* Is result i the carry flag, read back after the instruction? */
static bool is_carry_result(const conf_form *f, unsigned i)
{
    return f->carry_out && i == f->ndst - 1u;
}

static void build_ptx(const conf_form *f, unsigned lanes, conf_text *s)
{
    uint64_t col = (uint64_t)lanes * 8;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
           ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
           " .reg .b64 %%xa, %%xo, %%xi;\n .reg .b32 %%xt, %%xc, %%xv;\n");
    for (unsigned k = 0; k < f->nsrc; k++) {
        if (f->src[k].kind == CO_PRED)
            conf_put(s, " .reg .pred %%s%u;\n", k);
        else if (f->src[k].kind == CO_REG)
            conf_put(s, " .reg .%s %%s%u;\n", reg_type(f->src[k].type), k);
    }
    for (unsigned i = 0; i < f->ndst; i++) {
        if (is_carry_result(f, i))
            continue;
        if (f->dst[i].kind == CO_PRED)
            conf_put(s, " .reg .pred %%d%u;\n", i);
        else
            conf_put(s, " .reg .%s %%d%u;\n", reg_type(f->dst[i].type), i);
    }
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xt, %%xt, 32, %%xc;\n"
           " mul.wide.u32 %%xi, %%xt, 8;\n"
           " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
           " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n");
    for (unsigned k = 0; k < f->nsrc; k++) {
        if (f->src[k].kind == CO_PRED)
            conf_put(s, " ld.global.u32 %%xv, [%%xa+%" PRIu64 "];\n setp.ne.u32 %%s%u, %%xv, 0;\n", k * col, k);
        else if (f->src[k].kind == CO_REG)
            conf_put(s, " ld.global.b%u %%s%u, [%%xa+%" PRIu64 "];\n",
                conf_types[f->src[k].type].bits == 8 ? 8 : reg_bits(f->src[k].type), k, k * col);
    }
    /* CC.CF before the instruction: 1 + 0xFFFFFFFF carries, 0 + 0xFFFFFFFF
     * does not.  Forms that only write the flag get one too, which they
     * must ignore. */
    if (f->carry_in || f->carry_out)
        conf_put(s, " ld.global.u32 %%xv, [%%xa+%" PRIu64 "];\n add.cc.u32 %%xv, %%xv, 0xFFFFFFFF;\n",
            (uint64_t)CONF_MAX_SRC * col);
    conf_put(s, " %s ", f->text);
    if (f->ndst - (f->carry_out ? 1 : 0) == 2)
        conf_put(s, "%%d0|%%d1");
    else
        conf_put(s, "%%d0");
    for (unsigned k = 0; k < f->nsrc; k++) {
        if (f->src[k].kind == CO_IMM)
            conf_put(s, ", 0x%" PRIx32, f->imm);
        else
            conf_put(s, ", %%s%u", k);
    }
    conf_put(s, ";\n");
    for (unsigned i = 0; i < f->ndst; i++) {
        uint64_t at = i * col;
        if (is_carry_result(f, i))
            conf_put(s, " addc.u32 %%xv, 0, 0;\n st.global.u32 [%%xo+%" PRIu64 "], %%xv;\n", at);
        else if (f->dst[i].kind == CO_PRED)
            conf_put(s, " selp.u32 %%xv, 1, 0, %%d%u;\n st.global.u32 [%%xo+%" PRIu64 "], %%xv;\n", i, at);
        else
            conf_put(s, " st.global.b%u [%%xo+%" PRIu64 "], %%d%u;\n", reg_bits(f->dst[i].type), at, i);
    }
    conf_put(s, " ret;\n}\n");
}

conf_outcome conf_launch_cluster(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                                 unsigned cluster, char *msg, size_t n)
{
    if (lanes == 0 || block == 0 || block % 32 || block > 1024 || lanes % block || lanes > CONF_MAX_LANES) {
        snprintf(msg, n, "bad lane count %u (blocks of %u)", lanes, block);
        return CONF_ERROR;
    }
    conf_dump(ptx, len);
    return conf_engine_launch(e, ptx, len, lanes, block, cluster, msg, n);
}

conf_outcome conf_launch(conf_engine *e, const char *ptx, size_t len, unsigned lanes, char *msg, size_t n)
{
    return conf_launch_cta(e, ptx, len, lanes, 32, msg, n);
}

conf_outcome conf_launch_cta(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                             char *msg, size_t n)
{
    return conf_launch_cluster(e, ptx, len, lanes, block, 0, msg, n);
}

conf_outcome conf_run(conf_engine *e, const conf_form *f, unsigned lanes, uint64_t *const *srcs,
                      uint64_t *const *out, char *msg, size_t n)
{
    if (lanes == 0 || lanes % 32 || lanes > CONF_MAX_LANES) {
        snprintf(msg, n, "bad lane count %u", lanes);
        return CONF_ERROR;
    }
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build_ptx(f, lanes, &s);
    if (conf_text_over(&s, msg, n))
        return CONF_ERROR;
    for (unsigned k = 0; k <= CONF_MAX_SRC; k++)
        if (srcs[k])
            memcpy(conf_engine_in(e) + (size_t)k * lanes, srcs[k], lanes * 8ull);
    memset(conf_engine_out(e), 0, (size_t)CONF_MAX_DST * lanes * 8);
    conf_outcome oc = conf_launch(e, s.p, s.n, lanes, msg, n);
    if (oc == CONF_RAN)
        for (unsigned i = 0; i < f->ndst; i++)
            memcpy(out[i], conf_engine_out(e) + (size_t)i * lanes, lanes * 8ull);
    return oc;
}

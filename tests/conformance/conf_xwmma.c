/*
 * conf_xwmma.c -- the wmma family's runner: wmma.load, wmma.mma and
 * wmma.store (PTX ISA 9.7.14.4), checked through memory.
 *
 * The ISA leaves a wmma fragment's layout to the implementation, so the
 * registers are never looked at: each warp loads A, B and C from memory,
 * multiplies, and stores D, and D is compared with A * B + C (ref_wmma.c).
 * The form under test is one of the five instructions; the other four are
 * spelt to match it (its shape and types; row-major A, C and D and
 * column-major B unless the form says otherwise; global memory).  A load
 * or store form runs with the matrix in the space it names (generic:
 * global), its rows `stride` elements apart, the stride random (the
 * matrix's width, or 16 elements more).  The elements are small integers,
 * so every product and sum is exact whatever order a tensor core adds in,
 * and D is compared bit for bit.
 */
#include "refs.h"

#include "ref_fp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M_A, M_B, M_C, M_D };
static const char *const mat_names = "abcd";

typedef struct {
    unsigned m, n, k;
    const char *shape;
    uint8_t type[4];            /* A, B, C, D element types */
    bool col[4];                /* column-major */
    bool sat;                   /* .satfinite (integers) */
    int which;                  /* the form: M_A/M_B/M_C load, M_D store, -1 mma */
    unsigned space;             /* the form's matrix: 0 global, 1 shared, 2 generic */
} wcase;

static unsigned bits_of(uint8_t t) { return t == CT_U8 || t == CT_S8 ? 8 : t == CT_F16 || t == CT_BF16 ? 16 : t == CT_F64 ? 64 : 32; }

static unsigned rows_of(const wcase *w, unsigned x) { return x == M_B ? w->k : w->m; }
static unsigned cols_of(const wcase *w, unsigned x) { return x == M_A ? w->k : w->n; }

/* Registers of a fragment: its elements over the warp, packed into 32-bit
 * registers (64-bit for f64), except f16 A and B, which take eight. */
static unsigned nregs(const wcase *w, unsigned x)
{
    uint8_t t = w->type[x];
    if ((x == M_A || x == M_B) && t == CT_F16)
        return 8;
    unsigned per = bits_of(t) == 64 ? 1 : 32 / bits_of(t);
    return rows_of(w, x) * cols_of(w, x) / 32 / per;
}

/* Read the case from the form's spelling. */
static bool read_case(const conf_form *f, wcase *w)
{
    static const struct { const char *name; unsigned m, n, k; } shapes[] = {
        { "m16n16k16", 16, 16, 16 }, { "m32n8k16", 32, 8, 16 }, { "m8n32k16", 8, 32, 16 },
        { "m16n16k8", 16, 16, 8 }, { "m8n8k4", 8, 8, 4 },
    };
    memset(w, 0, sizeof *w);
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (conf_word(f, shapes[i].name))
            w->shape = shapes[i].name, w->m = shapes[i].m, w->n = shapes[i].n, w->k = shapes[i].k;
    if (!w->shape)
        return false;
    w->col[M_B] = true;
    w->space = conf_word(f, "shared") ? 1 : conf_word(f, "global") ? 0 : 2;
    w->sat = conf_has(f, CF_SATFINITE);
    /* the layouts, in spelling order */
    unsigned nl = 0;
    bool lay[2] = { false, false };
    for (unsigned i = 0; i < f->nwords; i++)
        if ((!strcmp(f->words[i], "row") || !strcmp(f->words[i], "col")) && nl < 2)
            lay[nl++] = !strcmp(f->words[i], "col");
    uint8_t in = CT_F16, acc = CT_F32;
    if (conf_word(f, "mma")) {
        w->which = -1;
        w->col[M_A] = lay[0], w->col[M_B] = lay[1];
        if (f->ntypes == 2) {                   /* .dtype.ctype of f16 inputs */
            w->type[M_A] = w->type[M_B] = CT_F16;
            w->type[M_D] = f->type[0], w->type[M_C] = f->type[1];
        } else if (f->ntypes == 4) {            /* .dtype.atype.btype.ctype */
            w->type[M_D] = f->type[0], w->type[M_A] = f->type[1], w->type[M_B] = f->type[2];
            w->type[M_C] = f->type[3];
        } else {
            return false;
        }
        return true;
    }
    unsigned x = conf_word(f, "a") ? M_A : conf_word(f, "b") ? M_B : conf_word(f, "c") ? M_C : M_D;
    w->which = (int)x;
    w->col[x] = lay[0];
    uint8_t t = f->type[0];
    /* the other matrices' types, from the one the form names */
    if (x == M_A || x == M_B) {
        in = t;
        acc = t == CT_S8 || t == CT_U8 ? CT_S32 : t == CT_F64 ? CT_F64 : CT_F32;
    } else {
        acc = t;
        in = t == CT_S32 ? CT_S8 : t == CT_F64 ? CT_F64 : (w->k == 8 ? CT_TF32 : CT_F16);
    }
    w->type[M_A] = w->type[M_B] = in;
    w->type[M_C] = w->type[M_D] = acc;
    return true;
}

/* The mma spelling for the case's types. */
static void mma_text(const wcase *w, char *buf, size_t n)
{
    const char *la = w->col[M_A] ? "col" : "row", *lb = w->col[M_B] ? "col" : "row";
    uint8_t a = w->type[M_A];
    if (a == CT_F16)
        snprintf(buf, n, "wmma.mma.sync.aligned.%s.%s.%s.%s.%s", la, lb, w->shape, conf_types[w->type[M_D]].name,
                 conf_types[w->type[M_C]].name);
    else
        snprintf(buf, n, "wmma.mma.sync.aligned.%s.%s.%s.%s.%s.%s.%s", la, lb, w->shape,
                 conf_types[w->type[M_D]].name, conf_types[a].name, conf_types[w->type[M_B]].name,
                 conf_types[w->type[M_C]].name);
}

static void list(conf_text *s, char r, unsigned n)
{
    conf_put(s, "{");
    for (unsigned i = 0; i < n; i++)
        conf_put(s, "%s%%%c%u", i ? ", " : "", r, i);
    conf_put(s, "}");
}

/* Input per warp: A, B and C in areas of AREA bytes (a stride that would
 * not fit is the plain width).  Output: D in the warp's AREA bytes. */
#define AREA 2048u

static void build(conf_text *s, const conf_form *f, const wcase *w, const unsigned *stride, unsigned lanes)
{
    (void)lanes;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%p<4>, %%g;\n .reg .b32 %%xt, %%xc, %%xs, %%sp, %%xv;\n"
                " .reg .pred %%xq;\n .shared .align 128 .b8 conf_sm[%u];\n",
             AREA);
    for (unsigned x = 0; x < 4; x++)
        conf_put(s, " .reg .b%u %%%c<%u>;\n", w->type[x] == CT_F64 ? 64 : 32, mat_names[x], nregs(w, x));
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n"
                " ld.param.u64 %%xa, [pin];\n mul.wide.u32 %%xi, %%xt, %u;\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n mul.wide.u32 %%xi, %%xt, %u;\n add.s64 %%xo, %%xo, %%xi;\n"
                " add.s64 %%p0, %%xa, 0;\n add.s64 %%p1, %%xa, %u;\n add.s64 %%p2, %%xa, %u;\n mov.u64 %%p3, %%xo;\n",
             3 * AREA, AREA, AREA, 2 * AREA);
    int x0 = w->which;
    const char *sp = w->space == 1 ? ".shared" : w->space == 0 ? ".global" : "";
    if (x0 >= 0 && x0 != M_D && w->space == 1) {
        /* the form's matrix into shared memory: 4 bytes a lane at a time */
        conf_put(s, " mov.u32 %%xs, %%xc;\nCOPY:\n setp.ge.u32 %%xq, %%xs, %u;\n @%%xq bra COPIED;\n"
                    " mul.wide.u32 %%xi, %%xs, 4;\n add.s64 %%g, %%p%d, %%xi;\n ld.global.b32 %%xv, [%%g];\n"
                    " mov.u32 %%sp, conf_sm;\n mad.lo.u32 %%sp, %%xs, 4, %%sp;\n st.shared.b32 [%%sp], %%xv;\n"
                    " add.u32 %%xs, %%xs, 32;\n bra COPY;\nCOPIED:\n bar.warp.sync -1;\n",
                 AREA / 4, x0);
    }
    for (unsigned x = 0; x < 3; x++) {
        const char *space = (int)x == x0 ? sp : ".global";
        const char *addr = (int)x == x0 && w->space == 1 ? "%sp" : NULL;
        if (addr)
            conf_put(s, " mov.u32 %%sp, conf_sm;\n");
        conf_put(s, " %s wmma.load.%c.sync.aligned.%s.%s%s.%s ", "", mat_names[x], w->col[x] ? "col" : "row",
                 w->shape, space, conf_types[w->type[x]].name);
        (void)f;
        list(s, mat_names[x], nregs(w, x));
        if (addr)
            conf_put(s, ", [%s], %u;\n", addr, stride[x]);
        else
            conf_put(s, ", [%%p%u], %u;\n", x, stride[x]);
    }
    char mma[128];
    mma_text(w, mma, sizeof mma);
    conf_put(s, " %s%s ", mma, w->sat ? ".satfinite" : "");
    list(s, 'd', nregs(w, M_D));
    conf_put(s, ", ");
    list(s, 'a', nregs(w, M_A));
    conf_put(s, ", ");
    list(s, 'b', nregs(w, M_B));
    conf_put(s, ", ");
    list(s, 'c', nregs(w, M_C));
    conf_put(s, ";\n");
    bool dshared = x0 == M_D && w->space == 1;
    if (dshared)
        conf_put(s, " mov.u32 %%sp, conf_sm;\n");
    conf_put(s, " wmma.store.d.sync.aligned.%s.%s%s.%s [%s], ", w->col[M_D] ? "col" : "row", w->shape,
             x0 == M_D ? sp : ".global", conf_types[w->type[M_D]].name, dshared ? "%sp" : "%p3");
    list(s, 'd', nregs(w, M_D));
    conf_put(s, ", %u;\n", stride[M_D]);
    if (dshared)
        conf_put(s, " bar.warp.sync -1;\n mov.u32 %%xs, %%xc;\nCOPY:\n setp.ge.u32 %%xq, %%xs, %u;\n @%%xq bra COPIED;\n"
                    " mov.u32 %%sp, conf_sm;\n mad.lo.u32 %%sp, %%xs, 4, %%sp;\n ld.shared.b32 %%xv, [%%sp];\n"
                    " mul.wide.u32 %%xi, %%xs, 4;\n add.s64 %%g, %%p3, %%xi;\n st.global.b32 [%%g], %%xv;\n"
                    " add.u32 %%xs, %%xs, 32;\n bra COPY;\nCOPIED:\n",
                 AREA / 4);
    conf_put(s, " ret;\n}\n");
}

int conf_xrun_wmma(conf_xctx *c, const conf_form *f)
{
    wcase w;
    if (!read_case(f, &w)) {
        snprintf(c->msg, sizeof c->msg, "cannot read the shape and types of %s", f->text);
        return CONF_ERROR;
    }
    unsigned warps = c->warps, lanes = warps * 32;
    uint8_t *in = (uint8_t *)conf_engine_in(c->e), *out = (uint8_t *)conf_engine_out(c->e);
    unsigned stride[4];
    for (unsigned x = 0; x < 4; x++) {
        unsigned width = w.col[x] ? rows_of(&w, x == M_D ? M_C : x) : cols_of(&w, x == M_D ? M_C : x);
        stride[x] = width + ((int)x == w.which && conf_rand(&c->rng) % 2 ? 16 : 0);
        unsigned height = w.col[x] ? cols_of(&w, x == M_D ? M_C : x) : rows_of(&w, x == M_D ? M_C : x);
        if (stride[x] * height * bits_of(w.type[x]) / 8 > AREA)
            stride[x] = width;
    }
    char text[12288];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, &w, stride, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    /* Put the form's own spelling in place of the kernel's: the line the
     * case built for that instruction starts with the same words. */
    char mine[128];
    if (w.which < 0) {
        mma_text(&w, mine, sizeof mine);
    } else if (w.which == M_D) {
        snprintf(mine, sizeof mine, "wmma.store.d.sync.aligned.%s.%s%s.%s", w.col[M_D] ? "col" : "row", w.shape,
                 w.space == 1 ? ".shared" : w.space == 0 ? ".global" : "", conf_types[w.type[M_D]].name);
    } else {
        snprintf(mine, sizeof mine, "wmma.load.%c.sync.aligned.%s.%s%s.%s", mat_names[w.which],
                 w.col[w.which] ? "col" : "row", w.shape, w.space == 1 ? ".shared" : w.space == 0 ? ".global" : "",
                 conf_types[w.type[w.which]].name);
    }
    if (strcmp(mine, f->text) != 0 && !(w.which < 0 && w.sat)) {
        snprintf(c->msg, sizeof c->msg, "the kernel spells %s as %s", f->text, mine);
        return CONF_ERROR;
    }
    for (unsigned wi = 0; wi < warps; wi++)
        for (unsigned x = 0; x < 3; x++)
            ref_wmma_fill(&c->rng, w.type[x], in + (size_t)wi * 3 * AREA + x * AREA, AREA);
    memset(out, 0, (size_t)warps * AREA);
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    for (unsigned wi = 0; wi < warps; wi++) {
        const uint8_t *base = in + (size_t)wi * 3 * AREA;
        ref_wmma_mat mats[4];
        for (unsigned x = 0; x < 4; x++)
            mats[x] = (ref_wmma_mat){ x == M_D ? out + (size_t)wi * AREA : base + x * AREA, w.type[x],
                                      rows_of(&w, x == M_D ? M_C : x), cols_of(&w, x == M_D ? M_C : x), stride[x],
                                      w.col[x] };
        unsigned r, col;
        uint64_t got, want;
        c->checked++;
        if (ref_wmma_check(mats, w.k, w.sat, AREA, &r, &col, &got, &want))
            continue;
        c->failed++;
        if (c->shown++ < CONF_SHOW)
            printf("FAIL %s warp %u (strides %u %u %u %u): D[%u][%u] got 0x%" PRIx64 " want 0x%" PRIx64 "\n", f->text,
                   wi, stride[0], stride[1], stride[2], stride[3], r, col, got, want);
    }
    return CONF_RAN;
}

/*
 * conf_xmma.c -- the mma family's runner: mma.sync (PTX ISA 9.7.14.5) and
 * mma.sp (9.7.14.6) on whole warps, register by register against
 * ref_mma.c's layouts.
 *
 * Every lane loads its fragments of A, B and C from the input (small
 * elements, so D is exact), executes the form, and writes its D registers
 * out; the reference assembles the matrices from all 32 lanes' fragments
 * by the ISA's layouts, multiplies, and cuts D into fragments again.
 * mma.sp also loads its metadata e: the lanes the sparsity selector names
 * hold one valid nibble repeated (a different one in each group of four),
 * the others random bits that must not be read; each selector value the
 * shape allows runs once.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROW 64u                 /* bytes per lane: A at 0, B at 16, C at 32, e at 48 */

static unsigned bytes_of(uint8_t t)
{
    return t == CT_U8 || t == CT_S8 || t == CT_E4M3 || t == CT_E5M2 ? 1
           : t == CT_F16 || t == CT_BF16 ? 2 : t == CT_F64 ? 8 : 4;
}

/* Registers of operand x (0 A, 1 B, 2 C, 3 D), and their width in bytes. */
static unsigned reg_bytes(const ref_mma_case *m, unsigned x) { return m->type[x] == CT_F64 ? 8 : 4; }
static unsigned nregs(const ref_mma_case *m, unsigned x)
{
    return ref_mma_elems(m, x) * bytes_of(m->type[x]) / reg_bytes(m, x);
}

static bool read_case(const conf_form *f, ref_mma_case *m)
{
    static const struct { const char *name; unsigned m, n, k; } shapes[] = {
        { "m16n8k16", 16, 8, 16 }, { "m16n8k8", 16, 8, 8 }, { "m16n8k32", 16, 8, 32 }, { "m8n8k4", 8, 8, 4 },
        { "m16n8k64", 16, 8, 64 },
    };
    memset(m, 0, sizeof *m);
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (conf_word(f, shapes[i].name))
            m->m = shapes[i].m, m->n = shapes[i].n, m->k = shapes[i].k;
    if (!m->m || f->ntypes != 4)
        return false;
    m->type[3] = f->type[0], m->type[0] = f->type[1], m->type[1] = f->type[2], m->type[2] = f->type[3];
    m->ordered = conf_word(f, "sp::ordered_metadata");
    m->sparse = m->ordered || conf_word(f, "sp");
    return true;
}

static void build(conf_text *s, const conf_form *f, const ref_mma_case *m, unsigned sel)
{
    static const char names[] = "abcd";
    static const unsigned at[] = { 0, 16, 32 };
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi;\n .reg .b32 %%xt, %%xc, %%xk, %%e;\n");
    for (unsigned x = 0; x < 4; x++)
        conf_put(s, " .reg .b%u %%%c<%u>;\n", 8 * reg_bytes(m, x), names[x], nregs(m, x));
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, %u;\n ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n",
             ROW);
    for (unsigned x = 0; x < 3; x++)
        for (unsigned i = 0; i < nregs(m, x); i++)
            conf_put(s, " ld.global.b%u %%%c%u, [%%xa+%u];\n", 8 * reg_bytes(m, x), names[x], i,
                     at[x] + i * reg_bytes(m, x));
    if (m->sparse)
        conf_put(s, " ld.global.b32 %%e, [%%xa+48];\n");
    conf_put(s, " %s ", f->text);
    for (unsigned x = 0; x < 4; x++) {
        unsigned y = x == 0 ? 3 : x - 1;        /* d, a, b, c */
        conf_put(s, "%s{", x ? ", " : "");
        for (unsigned i = 0; i < nregs(m, y); i++)
            conf_put(s, "%s%%%c%u", i ? ", " : "", names[y], i);
        conf_put(s, "}");
    }
    if (m->sparse)
        conf_put(s, ", %%e, %u", sel);
    conf_put(s, ";\n");
    for (unsigned i = 0; i < nregs(m, 3); i++)
        conf_put(s, " st.global.b%u [%%xo+%u], %%d%u;\n", 8 * reg_bytes(m, 3), i * reg_bytes(m, 3), i);
    conf_put(s, " ret;\n}\n");
}

/* One launch of the form with sparsity selector sel (0 for dense forms). */
static int run_once(conf_xctx *c, const conf_form *f, const ref_mma_case *m, unsigned sel)
{
    unsigned lanes = c->warps * 32;
    uint8_t *in = (uint8_t *)conf_engine_in(c->e), *out = (uint8_t *)conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, m, sel);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    static uint64_t frag[3][32][16];
    static const unsigned at[] = { 0, 16, 32 };
    uint64_t (*all)[3][32][16] = malloc(sizeof *all * (lanes / 32));
    uint32_t (*meta)[32] = malloc(sizeof *meta * (lanes / 32));
    if (!all || !meta) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    unsigned nmeta = m->sparse ? ref_mma_meta_lanes(m) : 0;
    for (unsigned w = 0; w < lanes / 32; w++) {
        for (unsigned x = 0; x < 3; x++)
            for (unsigned l = 0; l < 32; l++) {
                uint8_t *row = in + (size_t)(w * 32 + l) * ROW + at[x];
                unsigned n = bytes_of(m->type[x]);
                memset(row, 0, 16);
                for (unsigned i = 0; i < ref_mma_elems(m, x); i++) {
                    uint64_t v = ref_mma_small(&c->rng, m->type[x]);
                    all[w][x][l][i] = v;
                    memcpy(row + i * n, &v, n);         /* packed, low element first */
                }
            }
        for (unsigned g = 0; g < 8; g++) {
            uint32_t nib = m->sparse ? ref_mma_meta_nibble(&c->rng, m) : 0;
            for (unsigned t = 0; t < 4; t++) {
                bool holds = t >= sel * nmeta && t < (sel + 1) * nmeta;
                uint32_t v = holds ? nib * 0x11111111u : (uint32_t)conf_rand(&c->rng);
                meta[w][4 * g + t] = v;
                memcpy(in + (size_t)(w * 32 + 4 * g + t) * ROW + 48, &v, 4);
            }
        }
    }
    memset(out, 0, (size_t)lanes * ROW);
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc == CONF_RAN)
        for (unsigned w = 0; w < lanes / 32; w++) {
            memcpy(frag, all[w], sizeof frag);
            uint64_t d[32][16];
            ref_mma_run(m, (const uint64_t(*)[32][16])frag, meta[w], sel, d);
            unsigned n = bytes_of(m->type[3]);
            for (unsigned l = 0; l < 32; l++) {
                const uint8_t *row = out + (size_t)(w * 32 + l) * ROW;
                c->checked++;
                for (unsigned i = 0; i < ref_mma_elems(m, 3); i++) {
                    uint64_t got = 0;
                    memcpy(&got, row + i * n, n);
                    if (got == d[l][i])
                        continue;
                    c->failed++;
                    if (c->shown++ < CONF_SHOW)
                        printf("FAIL %s (selector %u) warp %u lane %u: d element %u got 0x%" PRIx64
                               " want 0x%" PRIx64 "\n", f->text, sel, w, l, i, got, d[l][i]);
                    break;
                }
            }
        }
    free(all);
    free(meta);
    return oc;
}

int conf_xrun_mma(conf_xctx *c, const conf_form *f)
{
    ref_mma_case m;
    if (!read_case(f, &m)) {
        snprintf(c->msg, sizeof c->msg, "cannot read the shape and types of %s", f->text);
        return CONF_ERROR;
    }
    unsigned sels = m.sparse ? 4 / ref_mma_meta_lanes(&m) : 1;
    int oc = CONF_RAN;
    for (unsigned sel = 0; sel < sels && oc == CONF_RAN; sel++)
        oc = run_once(c, f, &m, sel);
    return oc;
}

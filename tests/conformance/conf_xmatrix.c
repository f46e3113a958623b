/*
 * conf_xmatrix.c -- the matrix family's runner: ldmatrix, stmatrix and
 * movmatrix (PTX ISA 9.7.9.26-28) of 8x8 .b16 matrices, on whole warps.
 *
 * The warp's shared memory holds 32 rows of 16 bytes, filled from the
 * input.  Each lane names one row address (lane 8i + j: row j of matrix
 * i), through a random permutation of the 32 rows, so rows need not be
 * consecutive.  ldmatrix: each lane's registers are written out; stmatrix:
 * the lanes' registers come from the input, and the 32 rows are read back
 * whole, so a row that should not change (.x1, .x2 use fewer) shows too;
 * movmatrix: a fragment from the input, transposed.  ref_matrix.c has the
 * fragment layout.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_LD, K_ST, K_MOV };

static unsigned kind_of(const conf_form *f)
{
    return !strcmp(f->op, "ldmatrix") ? K_LD : !strcmp(f->op, "stmatrix") ? K_ST : K_MOV;
}

static unsigned count_of(const conf_form *f) { return conf_word(f, "x4") ? 4 : conf_word(f, "x2") ? 2 : 1; }

/* Input: columns 0-1 the lane's row (16 bytes), 2 the row this lane
 * names, 3.. the registers (stmatrix, movmatrix).  Output: columns 0-3 the
 * registers (ldmatrix, movmatrix) or columns 0-1 the lane's row after
 * stmatrix. */
static void build(conf_text *s, const conf_form *f, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned k = kind_of(f), n = k == K_MOV ? 1 : count_of(f);
    bool generic = !conf_word(f, "shared") && !conf_word(f, "shared::cta");
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%lo, %%hi, %%g;\n .reg .b32 %%xt, %%xc, %%xk, %%row, %%mine, %%r<4>;\n"
                " .shared .align 16 .b8 conf_sm[512];\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 16;\n ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n"
                " ld.global.v2.b64 {%%lo, %%hi}, [%%xa];\n"
                " mov.u32 %%mine, conf_sm;\n mad.lo.u32 %%mine, %%xc, 16, %%mine;\n"
                " st.shared.v2.b64 [%%mine], {%%lo, %%hi};\n"
                " ld.param.u64 %%xa, [pin];\n mul.wide.u32 %%xi, %%xk, 8;\n add.s64 %%xa, %%xa, %%xi;\n"
                " add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.u32 %%row, [%%xa+%" PRIu64 "];\n"
                " mov.u32 %%xt, conf_sm;\n mad.lo.u32 %%row, %%row, 16, %%xt;\n"
                " bar.warp.sync -1;\n",
             2 * col);
    if (generic)
        conf_put(s, " cvta.shared.u64 %%g, conf_sm;\n cvt.u64.u32 %%xi, %%row;\n mov.u64 %%lo, conf_sm;\n"
                    " sub.s64 %%xi, %%xi, %%lo;\n add.s64 %%g, %%g, %%xi;\n");
    const char *addr = generic ? "[%g]" : "[%row]";
    if (k != K_LD)
        for (unsigned i = 0; i < n; i++)
            conf_put(s, " ld.global.b32 %%r%u, [%%xa+%" PRIu64 "];\n", i, (3 + i) * col);
    static const char *const lists[] = { "", "%r0", "{%r0, %r1}", "", "{%r0, %r1, %r2, %r3}" };
    if (k == K_LD) {
        conf_put(s, " %s %s, %s;\n", f->text, n == 1 ? "{%r0}" : lists[n], addr);
        for (unsigned i = 0; i < n; i++)
            conf_put(s, " st.global.b32 [%%xo+%" PRIu64 "], %%r%u;\n", i * col, i);
    } else if (k == K_ST) {
        conf_put(s, " %s %s, %s;\n bar.warp.sync -1;\n ld.shared.v2.b64 {%%lo, %%hi}, [%%mine];\n"
                    " st.global.b64 [%%xo], %%lo;\n st.global.b64 [%%xo+%" PRIu64 "], %%hi;\n",
                 f->text, addr, n == 1 ? "{%r0}" : lists[n], col);
    } else {
        conf_put(s, " %s %%r1, %%r0;\n st.global.b32 [%%xo], %%r1;\n", f->text);
    }
    conf_put(s, " ret;\n}\n");
}

int conf_xrun_matrix(conf_xctx *c, const conf_form *f)
{
    unsigned lanes = c->warps * 32, k = kind_of(f), n = k == K_MOV ? 1 : count_of(f);
    bool trans = conf_word(f, "trans");
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (size_t i = 0; i < 2 * col; i++)
        in[i] = conf_rand(&c->rng);
    for (unsigned w = 0; w < lanes / 32; w++) {
        uint8_t perm[32];
        for (unsigned l = 0; l < 32; l++)
            perm[l] = (uint8_t)l;
        for (unsigned l = 31; l > 0; l--) {
            unsigned j = (unsigned)(conf_rand(&c->rng) % (l + 1));
            uint8_t t = perm[l];
            perm[l] = perm[j];
            perm[j] = t;
        }
        for (unsigned l = 0; l < 32; l++)
            in[2 * col + w * 32 + l] = perm[l];
    }
    for (size_t i = 3 * col; i < 7 * col; i++)
        in[i] = (uint32_t)conf_rand(&c->rng);
    memset(out, 0, 4 * col * 8);
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    for (unsigned w = 0; w < lanes / 32; w++) {
        /* the warp's rows (16 bytes each), their order, and the registers */
        uint16_t rows[32][8];
        uint8_t names[32];
        uint32_t regs[4][32];
        for (unsigned l = 0; l < 32; l++) {
            memcpy(rows[l], (const uint8_t *)in + (size_t)(w * 32 + l) * 16, 16);
            names[l] = (uint8_t)in[2 * col + w * 32 + l];
            for (unsigned i = 0; i < 4; i++)
                regs[i][l] = (uint32_t)in[(3 + i) * col + w * 32 + l];
        }
        uint32_t want[4][32];
        if (k == K_ST)
            ref_stmatrix(rows, names, regs, n, trans);
        else if (k == K_LD)
            ref_ldmatrix(rows, names, n, trans, want);
        else
            ref_movmatrix(regs[0], want[0]);
        for (unsigned l = 0; l < 32; l++) {
            size_t at = (size_t)w * 32 + l;
            c->checked++;
            bool ok = true;
            char what[160] = "";
            if (k == K_ST) {
                uint8_t got[16];
                uint64_t g2[2] = { out[at], out[col + at] };
                memcpy(got, g2, 16);
                if (memcmp(got, rows[l], 16) != 0) {
                    uint64_t wv[2];
                    memcpy(wv, rows[l], 16);
                    snprintf(what, sizeof what, "row %u got 0x%016" PRIx64 "%016" PRIx64 " want 0x%016" PRIx64
                             "%016" PRIx64, l, g2[1], g2[0], wv[1], wv[0]);
                    ok = false;
                }
            } else {
                for (unsigned i = 0; i < n && ok; i++)
                    if ((uint32_t)out[i * col + at] != want[i][l]) {
                        snprintf(what, sizeof what, "register %u got 0x%08" PRIx32 " want 0x%08" PRIx32, i,
                                 (uint32_t)out[i * col + at], want[i][l]);
                        ok = false;
                    }
            }
            if (ok)
                continue;
            c->failed++;
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s warp %u lane %u: %s\n", f->text, w, l, what);
        }
    }
    return CONF_RAN;
}

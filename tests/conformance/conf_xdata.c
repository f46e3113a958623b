/*
 * conf_xdata.c -- the data family's whole-warp runner: mov's packing and
 * unpacking (PTX ISA 9.7.9.1-2), cvta and isspacep (9.7.9.19, 9.7.9.18),
 * prefetch and prefetchu (9.7.9.15), membar and fence (9.7.13.4).
 *
 *   mov.b32/.b64/.b128  copy a register; pack {a, b ...} of every element
 *                       width the ISA allows into one register, and unpack
 *                       it again into elements (ref_data.c has the order)
 *   cvta                the generic address of a variable in each space
 *                       (.global, .shared, .local, .const): a generic load
 *                       from it reads what the space's own load reads, and
 *                       cvta.to gives the space's address back
 *   isspacep            of the generic address of a variable in each of
 *                       global, shared, local and const memory
 *   prefetch{u}         a hint: the loads around it read what memory holds
 *   membar, fence       between the data and the flag of a hand-off from
 *                       each warp's lanes to the next warp's: the reader
 *                       that sees the flag sees the data
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_MOV, K_CVTA, K_ISSPACEP, K_PREFETCH, K_FENCE };
enum { S_GLOBAL, S_SHARED, S_LOCAL, S_CONST, S_COUNT };
static const char *const space_names[] = { "global", "shared", "local", "const" };

static unsigned kind_of(const conf_form *f)
{
    if (!strcmp(f->op, "mov"))
        return K_MOV;
    if (!strcmp(f->op, "cvta"))
        return K_CVTA;
    if (!strcmp(f->op, "isspacep"))
        return K_ISSPACEP;
    if (!strcmp(f->op, "prefetch") || !strcmp(f->op, "prefetchu"))
        return K_PREFETCH;
    return K_FENCE;
}

/* The state space a cvta or isspacep form names. */
static unsigned space_of(const conf_form *f)
{
    return conf_word(f, "shared") || conf_word(f, "shared::cta") ? S_SHARED : conf_word(f, "local") ? S_LOCAL
         : conf_word(f, "const") ? S_CONST : S_GLOBAL;
}

/* ---- the kernels ---------------------------------------------------------- */

static void head(conf_text *s, unsigned lanes, unsigned block)
{
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".const .align 8 .b64 conf_c[2] = { 0x0123456789ABCDEF, 0xFEDCBA9876543210 };\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%g, %%h, %%v, %%u, %%x0, %%x1, %%x2, %%x3;\n"
                " .reg .b32 %%xt, %%xc, %%xk, %%w0, %%w1, %%w2, %%w3;\n .reg .b16 %%h0, %%h1, %%h2, %%h3;\n"
                " .reg .b128 %%q;\n .reg .pred %%p;\n"
                " .shared .align 8 .b64 conf_sm[32];\n .local .align 8 .b64 conf_lo[1];\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, %u, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.b64 %%v, [%%xa];\n ld.global.b64 %%u, [%%xa+%u];\n",
             block, lanes * 8);
}

/* Store results: the 64-bit register r into output column k. */
static void out(conf_text *s, unsigned k, const char *r, unsigned lanes)
{
    conf_put(s, " st.global.b64 [%%xo+%u], %s;\n", k * lanes * 8, r);
}

/* mov: columns 0 copy; 1.. the packed value of each element width; then
 * the elements unpacked again (each into its own column, as a .b64). */
static void build_mov(conf_text *s, const conf_form *f, unsigned lanes)
{
    uint8_t t = f->type[0];
    if (t == CT_B32) {
        conf_put(s, " cvt.u32.u64 %%w0, %%v;\n %s %%w1, %%w0;\n cvt.u64.u32 %%g, %%w1;\n", f->text);
        out(s, 0, "%g", lanes);
        conf_put(s, " cvt.u16.u64 %%h0, %%v;\n cvt.u16.u64 %%h1, %%u;\n %s %%w1, {%%h0, %%h1};\n"
                    " cvt.u64.u32 %%g, %%w1;\n", f->text);
        out(s, 1, "%g", lanes);
        conf_put(s, " %s {%%h2, %%h3}, %%w0;\n cvt.u64.u16 %%g, %%h2;\n cvt.u64.u16 %%h, %%h3;\n", f->text);
        out(s, 2, "%g", lanes);
        out(s, 3, "%h", lanes);
    } else if (t == CT_B64) {
        conf_put(s, " %s %%g, %%v;\n", f->text);
        out(s, 0, "%g", lanes);
        conf_put(s, " cvt.u32.u64 %%w0, %%v;\n cvt.u32.u64 %%w1, %%u;\n %s %%g, {%%w0, %%w1};\n", f->text);
        out(s, 1, "%g", lanes);
        conf_put(s, " cvt.u16.u64 %%h0, %%v;\n shr.b64 %%x0, %%v, 16;\n cvt.u16.u64 %%h1, %%x0;\n"
                    " cvt.u16.u64 %%h2, %%u;\n shr.b64 %%x0, %%u, 16;\n cvt.u16.u64 %%h3, %%x0;\n"
                    " %s %%g, {%%h0, %%h1, %%h2, %%h3};\n", f->text);
        out(s, 2, "%g", lanes);
        conf_put(s, " %s {%%w2, %%w3}, %%v;\n cvt.u64.u32 %%g, %%w2;\n cvt.u64.u32 %%h, %%w3;\n", f->text);
        out(s, 3, "%g", lanes);
        out(s, 4, "%h", lanes);
        conf_put(s, " %s {%%h0, %%h1, %%h2, %%h3}, %%u;\n cvt.u64.u16 %%x0, %%h0;\n cvt.u64.u16 %%x1, %%h1;\n"
                    " cvt.u64.u16 %%x2, %%h2;\n cvt.u64.u16 %%x3, %%h3;\n", f->text);
        out(s, 5, "%x0", lanes);
        out(s, 6, "%x1", lanes);
        out(s, 7, "%x2", lanes);
    } else {                                    /* .b128 */
        conf_put(s, " %s %%q, {%%v, %%u};\n %s {%%g, %%h}, %%q;\n", f->text, f->text);
        out(s, 0, "%g", lanes);
        out(s, 1, "%h", lanes);
        conf_put(s, " mov.b128 %%q, {%%u, %%v};\n .reg .b128 %%q2;\n %s %%q2, %%q;\n mov.b128 {%%g, %%h}, %%q2;\n",
                 f->text);
        out(s, 2, "%g", lanes);
        out(s, 3, "%h", lanes);
    }
}

/* The address of lane's variable in space sp: into %g (the space's own
 * address) and %h (generic, by cvta). */
static void addr_of(conf_text *s, unsigned sp)
{
    switch (sp) {
    case S_GLOBAL: conf_put(s, " mov.u64 %%g, %%xa;\n cvta.global.u64 %%h, %%g;\n"); break;
    case S_SHARED:
        conf_put(s, " mov.u64 %%g, conf_sm;\n mul.wide.u32 %%xi, %%xc, 8;\n add.s64 %%g, %%g, %%xi;\n"
                    " st.shared.b64 [%%g], %%v;\n cvta.shared.u64 %%h, %%g;\n");
        break;
    case S_LOCAL: conf_put(s, " mov.u64 %%g, conf_lo;\n st.local.b64 [%%g], %%v;\n cvta.local.u64 %%h, %%g;\n"); break;
    default: conf_put(s, " mov.u64 %%g, conf_c;\n and.b32 %%w0, %%xc, 1;\n mul.wide.u32 %%xi, %%w0, 8;\n"
                         " add.s64 %%g, %%g, %%xi;\n cvta.const.u64 %%h, %%g;\n"); break;
    }
}

static void build_cvta(conf_text *s, const conf_form *f, unsigned lanes)
{
    unsigned sp = space_of(f);
    static const char *const ld[] = { "ld.global", "ld.shared", "ld.local", "ld.const" };
    addr_of(s, sp);
    /* column 0: the space's load; 1: the generic load through the form's
     * (or cvta's) generic address; 2: the form's .to back, minus the
     * space's address (0) */
    conf_put(s, " %s.b64 %%x0, [%%g];\n", ld[sp]);
    out(s, 0, "%x0", lanes);
    if (conf_word(f, "to")) {
        conf_put(s, " ld.b64 %%x1, [%%h];\n %s %%x2, %%h;\n sub.s64 %%x2, %%x2, %%g;\n", f->text);
    } else {
        conf_put(s, " %s %%x3, %%g;\n ld.b64 %%x1, [%%x3];\n cvta.to.%s.u64 %%x2, %%x3;\n sub.s64 %%x2, %%x2, %%g;\n",
                 f->text, space_names[sp]);
    }
    out(s, 1, "%x1", lanes);
    out(s, 2, "%x2", lanes);
}

static void build_isspacep(conf_text *s, const conf_form *f, unsigned lanes)
{
    for (unsigned sp = 0; sp < S_COUNT; sp++) {
        addr_of(s, sp);
        conf_put(s, " %s %%p, %%h;\n selp.u64 %%x0, 1, 0, %%p;\n", f->text);
        out(s, sp, "%x0", lanes);
    }
}

static void build_prefetch(conf_text *s, const conf_form *f, unsigned lanes)
{
    unsigned sp = conf_word(f, "local") ? S_LOCAL : S_GLOBAL;
    bool generic = !conf_word(f, "global") && !conf_word(f, "local");
    addr_of(s, sp);
    conf_put(s, " %s [%s];\n ld.b64 %%x0, [%%h];\n", f->text, generic ? "%h" : "%g");
    out(s, 0, "%x0", lanes);
}

/* Lane l of warp w hands its value to lane l of warp w + 1 (the next warp
 * of the same block of two): data, the fence, then the flag; the reader
 * waits for the flag, fences, and reads. */
static void build_fence(conf_text *s, const conf_form *f, unsigned lanes)
{
    conf_put(s, " .shared .align 8 .b64 conf_data[32];\n .shared .align 4 .b32 conf_flag[32];\n"
                " mov.u32 %%w0, conf_data;\n mov.u32 %%w1, conf_flag;\n and.b32 %%w2, %%xc, 31;\n"
                " mad.lo.u32 %%w0, %%w2, 8, %%w0;\n mad.lo.u32 %%w1, %%w2, 4, %%w1;\n"
                " setp.ge.u32 %%p, %%xc, 32;\n @%%p bra READ;\n"
                " st.shared.b64 [%%w0], %%v;\n %s;\n st.volatile.shared.u32 [%%w1], 1;\n"
                " mov.u64 %%x0, %%v;\n bra DONE;\n"
                "READ:\n ld.volatile.shared.u32 %%w3, [%%w1];\n setp.eq.u32 %%p, %%w3, 0;\n @%%p bra READ;\n"
                " %s;\n ld.shared.b64 %%x0, [%%w0];\nDONE:\n",
             f->text, f->text);
    out(s, 0, "%x0", lanes);
}

/* ---- running and checking ------------------------------------------------- */

#define NCOLS 8

int conf_xrun_data(conf_xctx *c, const conf_form *f)
{
    unsigned lanes = c->warps * 32, k = kind_of(f);
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *outp = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    head(&s, lanes, k == K_FENCE ? 64 : 32);
    switch (k) {
    case K_MOV: build_mov(&s, f, lanes); break;
    case K_CVTA: build_cvta(&s, f, lanes); break;
    case K_ISSPACEP: build_isspacep(&s, f, lanes); break;
    case K_PREFETCH: build_prefetch(&s, f, lanes); break;
    default: build_fence(&s, f, lanes); break;
    }
    conf_put(&s, " ret;\n}\n");
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (size_t i = 0; i < 2 * col; i++)
        in[i] = conf_rand(&c->rng);
    memset(outp, 0xA5, NCOLS * col * 8);
    conf_outcome oc = k == K_FENCE ? conf_launch_cta(c->e, s.p, s.n, lanes, 64, c->msg, sizeof c->msg)
                                   : conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t want[NCOLS];
        unsigned n;
        uint64_t v = in[l], u = in[col + l];
        switch (k) {
        case K_MOV: n = ref_mov_pack(f->type[0], v, u, want); break;
        case K_CVTA:
            want[0] = want[1] = space_of(f) == S_CONST ? ref_data_const(l % 2) : v;
            want[2] = 0;
            n = 3;
            break;
        case K_ISSPACEP:
            for (unsigned sp = 0; sp < S_COUNT; sp++)
                want[sp] = ref_isspacep(space_of(f), sp);
            n = S_COUNT;
            break;
        case K_PREFETCH: want[0] = v; n = 1; break;
        default: want[0] = l % 64 < 32 ? v : in[l - 32]; n = 1; break;
        }
        c->checked++;
        for (unsigned i = 0; i < n; i++) {
            uint64_t got = outp[i * col + l];
            if (got == want[i] || (k == K_ISSPACEP && want[i] == 2))
                continue;
            c->failed++;
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s lane %u (a=0x%" PRIx64 " b=0x%" PRIx64 "): result %u%s%s got 0x%" PRIx64
                       " want 0x%" PRIx64 "\n",
                       f->text, l, v, u, i, k == K_ISSPACEP ? " for an address in " : "",
                       k == K_ISSPACEP ? space_names[i] : "", got, want[i]);
            break;
        }
    }
    return CONF_RAN;
}

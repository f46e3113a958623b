/*
 * conf_xldst.c -- the ldst family's runner: ld and st of every type and
 * vector width, in global, shared and local memory and through generic
 * addresses into each, with registers of the instruction's size and wider
 * ones (ref_ldst.c has the extension and truncation rules).
 *
 * Every lane owns a 32-byte slot.  ld: the slot is filled with random
 * bytes (in shared and local memory by plain 8-byte stores), the form
 * loads from it, and each element register is written out with a
 * bit-size store of its own width.  st: the slot is filled with random
 * bytes, the form stores registers loaded from random values into it, and
 * the whole slot is read back, so a store that writes too much or too
 * little shows.
 *
 * Each form runs with its own type's register (an 8-bit type: the 16-bit
 * register of its kind) in every space its spelling allows (a generic
 * form: global and shared, and local unless it has .volatile, .relaxed or
 * .acquire/.release, which the ISA allows with global and shared only),
 * then with every wider register the ISA's rules allow, in its first
 * space.
 *
 * A .b128 value goes into and out of its .b128 register through
 * mov.b128 with a pair of .b64 registers, and is compared byte for byte.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT 32u
#define OUT_ROW 64u             /* bytes per lane in the output: 8 elements of 8 bytes */

enum { W_GLOBAL, W_SHARED, W_LOCAL, W_GEN_GLOBAL, W_GEN_SHARED, W_GEN_LOCAL };
static const char *const where_names[] = { "global", "shared", "local", "generic->global", "generic->shared",
                                           "generic->local" };

static bool is_st(const conf_form *f) { return !strcmp(f->op, "st"); }

static unsigned vec_of(const conf_form *f)
{
    return conf_word(f, "v8") ? 8 : conf_word(f, "v4") ? 4 : conf_word(f, "v2") ? 2 : 1;
}

/* The register types the ISA allows for instruction type t, the type's
 * own first (an 8-bit type's: the 16-bit register of its kind): bit-size
 * and integer registers of its size or wider for bit-size and integer
 * types, bit-size ones for float types, float ones for bit-size types. */
static unsigned reg_types(uint8_t t, uint8_t *out)
{
    static const uint8_t regs[] = { CT_B16, CT_B32, CT_B64, CT_U16, CT_U32, CT_U64,
                                    CT_S16, CT_S32, CT_S64, CT_F32, CT_F64 };
    unsigned ib = conf_types[t].bits, n = 0;
    uint8_t kind = conf_types[t].kind;
    out[n++] = ib > 8 ? t : kind == CK_S ? CT_S16 : kind == CK_U ? CT_U16 : CT_B16;
    for (unsigned i = 0; i < sizeof regs; i++) {
        uint8_t r = regs[i], rk = conf_types[r].kind;
        if (r == out[0] || conf_types[r].bits < ib)
            continue;
        if ((kind == CK_F && rk != CK_B) || (rk == CK_F && kind != CK_B))
            continue;
        out[n++] = r;
    }
    return n;
}

static unsigned reg_bits(uint8_t r) { return conf_types[r].bits; }

/* ---- the kernel ----------------------------------------------------------- */

static void build(conf_text *s, const conf_form *f, unsigned where, uint8_t rt, unsigned lanes)
{
    unsigned nv = vec_of(f), rb = reg_bits(rt);
    const char *space = where == W_SHARED || where == W_GEN_SHARED ? "shared"
                      : where == W_LOCAL || where == W_GEN_LOCAL   ? "local" : NULL;
    unsigned esize = rb > 64 ? rb / 8 : 8;        /* bytes of a register in the rows */
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%xp, %%xv, %%xr, %%xl, %%xh;\n .reg .b32 %%xt, %%xc;\n"
                " .reg .%s %%d<%u>;\n",
             conf_types[rt].name, nv);
    if (space && !strcmp(space, "shared"))
        conf_put(s, " .shared .align 32 .b8 conf_sm[%u];\n", 32 * SLOT);
    if (space && !strcmp(space, "local"))
        conf_put(s, " .local .align 32 .b8 conf_lo[%u];\n", SLOT);
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xt, %%xt, 32, %%xc;\n"
                " ld.param.u64 %%xa, [pin];\n ld.param.u64 %%xo, [pout];\n"
                " mul.wide.u32 %%xi, %%xt, %u;\n add.s64 %%xr, %%xa, %%xi;\n add.s64 %%xo, %%xo, %%xi;\n"
                " mul.wide.u32 %%xi, %%xt, %u;\n add.s64 %%xa, %%xa, %%xi;\n",
             OUT_ROW, SLOT);
    /* %xa: the lane's input slot; %xr: its register values (st), in a
     * second area after the slots; %xo: its output row. */
    conf_put(s, " add.s64 %%xr, %%xr, %u;\n", lanes * SLOT);
    /* %xp: the slot the form addresses. */
    if (!space)
        conf_put(s, " mov.u64 %%xp, %s;\n", is_st(f) ? "%xo" : "%xa");
    else if (!strcmp(space, "shared"))
        conf_put(s, " mov.u64 %%xp, conf_sm;\n mul.wide.u32 %%xi, %%xc, %u;\n add.s64 %%xp, %%xp, %%xi;\n", SLOT);
    else
        conf_put(s, " mov.u64 %%xp, conf_lo;\n");
    if (space)                                  /* the slot's first bytes, from the input */
        for (unsigned i = 0; i < SLOT; i += 8)
            conf_put(s, " ld.global.b64 %%xv, [%%xa+%u];\n st.%s.b64 [%%xp+%u], %%xv;\n", i, space, i);
    if (where >= W_GEN_GLOBAL)
        conf_put(s, " cvta.%s.u64 %%xp, %%xp;\n", space ? space : "global");
    if (is_st(f))
        for (unsigned k = 0; k < nv; k++) {
            if (rb > 64)
                conf_put(s, " ld.global.b64 %%xl, [%%xr+%u];\n ld.global.b64 %%xh, [%%xr+%u];\n"
                            " mov.b128 %%d%u, {%%xl, %%xh};\n", k * esize, k * esize + 8, k);
            else
                conf_put(s, " ld.global.b%u %%d%u, [%%xr+%u];\n", rb, k, k * esize);
        }
    conf_put(s, " %s ", f->text);
    char list[128] = "";
    if (nv == 1) {
        snprintf(list, sizeof list, "%%d0");
    } else {
        strcat(list, "{");
        for (unsigned k = 0; k < nv; k++) {
            char one[8];
            snprintf(one, sizeof one, "%s%%d%u", k ? ", " : "", k);
            strcat(list, one);
        }
        strcat(list, "}");
    }
    if (is_st(f))
        conf_put(s, "[%%xp], %s;\n", list);
    else
        conf_put(s, "%s, [%%xp];\n", list);
    if (!is_st(f)) {
        for (unsigned k = 0; k < nv; k++) {
            if (rb > 64)
                conf_put(s, " mov.b128 {%%xl, %%xh}, %%d%u;\n st.global.b64 [%%xo+%u], %%xl;\n"
                            " st.global.b64 [%%xo+%u], %%xh;\n", k, k * esize, k * esize + 8);
            else
                conf_put(s, " st.global.b%u [%%xo+%u], %%d%u;\n", rb, k * esize, k);
        }
    } else if (space) {
        if (where >= W_GEN_GLOBAL)
            conf_put(s, " cvta.to.%s.u64 %%xp, %%xp;\n", space);
        for (unsigned i = 0; i < SLOT; i += 8)
            conf_put(s, " ld.%s.b64 %%xv, [%%xp+%u];\n st.global.b64 [%%xo+%u], %%xv;\n", space, i, i);
    }
    conf_put(s, " ret;\n}\n");
}

/* ---- running and checking ------------------------------------------------- */

static void report(conf_xctx *c, const conf_form *f, unsigned where, uint8_t rt, unsigned lane, const char *what)
{
    if (c->shown++ >= CONF_SHOW)
        return;
    printf("FAIL %s (%s, .%s register%s) lane %u: %s\n", f->text, where_names[where], conf_types[rt].name,
           vec_of(f) > 1 ? "s" : "", lane, what);
}

static conf_outcome run_case(conf_xctx *c, const conf_form *f, unsigned where, uint8_t rt)
{
    unsigned lanes = c->warps * 32, nv = vec_of(f), rb = reg_bits(rt);
    uint8_t it = f->type[0];
    uint8_t *in = (uint8_t *)conf_engine_in(c->e), *out = (uint8_t *)conf_engine_out(c->e);
    uint8_t *regs_in = in + (size_t)lanes * SLOT;
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, where, rt, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (size_t i = 0; i < (size_t)lanes * SLOT; i += 8) {
        uint64_t v = conf_rand(&c->rng);
        memcpy(in + i, &v, 8);
    }
    for (size_t i = 0; i < (size_t)lanes * OUT_ROW; i += 8) {
        uint64_t v = conf_rand(&c->rng), z = 0;
        memcpy(regs_in + i, &v, 8);
        /* st to global memory stores into the output row: its sentinel is
         * the input slot's bytes; everything else starts at zero. */
        memcpy(out + i, (i % OUT_ROW) < SLOT && is_st(f) && (where == W_GLOBAL || where == W_GEN_GLOBAL)
                            ? in + (i / OUT_ROW) * SLOT + i % OUT_ROW : (const uint8_t *)&z, 8);
    }
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    unsigned size = conf_types[it].bits / 8;
    for (unsigned l = 0; l < lanes; l++) {
        const uint8_t *slot = in + (size_t)l * SLOT, *row = out + (size_t)l * OUT_ROW;
        char what[300];
        bool ok = true;
        c->checked++;
        if (!is_st(f) && size > 8) {
            /* .b128: the register's 16 bytes are memory's, in order. */
            for (unsigned k = 0; k < nv && ok; k++)
                if (memcmp(row + k * size, slot + k * size, size) != 0) {
                    uint64_t g[2], m[2];
                    memcpy(g, row + k * size, 16);
                    memcpy(m, slot + k * size, 16);
                    snprintf(what, sizeof what, "element %u: memory 0x%016" PRIx64 "%016" PRIx64 ": got 0x%016"
                             PRIx64 "%016" PRIx64, k, m[1], m[0], g[1], g[0]);
                    ok = false;
                }
        } else if (!is_st(f)) {
            for (unsigned k = 0; k < nv && ok; k++) {
                uint64_t want = ref_ld_value(it, rt, slot + k * size), got = 0;
                memcpy(&got, row + k * 8, rb / 8);
                if (got != want) {
                    uint64_t raw = 0;
                    memcpy(&raw, slot + k * size, size);
                    snprintf(what, sizeof what, "element %u: memory 0x%" PRIx64 ": got 0x%" PRIx64
                             " want 0x%" PRIx64, k, raw, got, want);
                    ok = false;
                }
            }
        } else {
            uint8_t want[SLOT];
            uint64_t regs[16];
            unsigned words = rb > 64 ? rb / 64 : 1;     /* 64-bit words per register */
            memcpy(want, slot, SLOT);
            for (unsigned k = 0; k < nv; k++) {
                regs[k * words] = 0;
                memcpy(&regs[k * words], regs_in + (size_t)l * OUT_ROW + k * 8 * words, rb / 8);
            }
            ref_st_bytes(it, rt, nv, regs, want);
            if (memcmp(want, row, SLOT) != 0) {
                unsigned at = 0;
                while (want[at] == row[at])
                    at++;
                /* the whole element holding the first wrong byte (up to 8
                 * bytes of it), so that a wrong rule shows its shape */
                unsigned k = at / size, n = size < 8 ? size : 8;
                uint64_t got_el = 0, want_el = 0;
                memcpy(&got_el, row + k * size, n);
                memcpy(&want_el, want + k * size, n);
                snprintf(what, sizeof what, "element %u: register 0x%" PRIx64 ": stored 0x%" PRIx64 " want 0x%" PRIx64
                         " (byte %u first differs)", k, regs[k * words], got_el, want_el, at);
                ok = false;
            }
        }
        if (!ok) {
            report(c, f, where, rt, l, what);
            c->failed++;
        }
    }
    return CONF_RAN;
}

int conf_xrun_ldst(conf_xctx *c, const conf_form *f)
{
    unsigned wh[3], nw = 0;
    bool sem = conf_word(f, "volatile") || conf_word(f, "relaxed") || conf_word(f, "acquire") ||
               conf_word(f, "release");
    if (conf_word(f, "global")) {
        wh[nw++] = W_GLOBAL;
    } else if (conf_word(f, "shared") || conf_word(f, "shared::cta") || conf_word(f, "shared::cluster")) {
        wh[nw++] = W_SHARED;
    } else if (conf_word(f, "local")) {
        wh[nw++] = W_LOCAL;
    } else {
        wh[nw++] = W_GEN_GLOBAL;
        if (strcmp(f->op, "ldu") != 0) {        /* ldu: global memory only (9.7.9.9) */
            wh[nw++] = W_GEN_SHARED;
            if (!sem)
                wh[nw++] = W_GEN_LOCAL;
        }
    }
    uint8_t rt[16];
    /* ldu and ld.global.nc read as ld does (9.7.9.9, 9.7.9.8.1): their own
     * register type is enough; the wider registers' rules are ld's, checked
     * there. */
    unsigned nr = reg_types(f->type[0], rt);
    if (!strcmp(f->op, "ldu") || conf_word(f, "nc"))
        nr = 1;
    conf_outcome first = CONF_RAN;
    for (unsigned i = 0; i < nw + nr - 1; i++) {
        unsigned where = i < nw ? wh[i] : wh[0];
        uint8_t r = i < nw ? rt[0] : rt[i - nw + 1];
        conf_outcome oc = run_case(c, f, where, r);
        if (i == 0)
            first = oc;
        if (oc == CONF_ERROR || (i == 0 && oc != CONF_RAN))
            return oc;
        if (oc != CONF_RAN) {
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s (%s, .%s register): refused: %s\n", f->text, where_names[where],
                       conf_types[r].name, c->msg);
            c->failed++;
        }
    }
    return first;
}

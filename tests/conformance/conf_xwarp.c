/*
 * conf_xwarp.c -- the warp family's runner: shfl, vote, match, redux and
 * activemask run on whole warps in which some lanes may not execute the
 * instruction, and every lane is compared with ref_warp.c.
 *
 * Each lane of a warp gets a kind, read from the input: it executes the
 * instruction (RUN), exits before it (EXIT), branches around it (SKIP, a
 * divergent branch) or has its guard predicate false (OFF).  The executing
 * lanes E are the RUN lanes; the membermask is E plus, sometimes, some of
 * the exited lanes, which the ISA lets a membermask name ("all non-exited
 * threads in membermask").  Every other combination is one the ISA leaves
 * undefined (an executing lane outside membermask, a lane of membermask
 * that never arrives), so none is made.  SKIP and OFF lanes must keep
 * their destinations; they are preloaded with a sentinel and checked.
 *
 * A form runs in a few variants, each its own kernel: with the predicate
 * result and without, with vote's source negated, with immediate operands
 * (b, c and a membermask of 0xFFFFFFFF, in warps whose only missing lanes
 * have exited), and, for vote.sync, match and redux, in warps cut into
 * tiles of 2 to 16 lanes, each lane naming its own tile's lanes as the
 * membermask, as cooperative groups' thread_block_tile does.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_RUN, K_EXIT, K_SKIP, K_OFF };

/* Input columns per lane and output columns. */
enum { I_A, I_B, I_C, I_M, I_KIND, I_D0, I_P0 };
enum { O_D, O_P };

typedef struct {
    bool pred_out;          /* d|p (shfl, match.all) */
    bool neg;               /* vote's !a */
    bool imm;               /* b, c and membermask as immediates */
    uint32_t imm_b, imm_c;
    bool tiles;             /* each lane's membermask its tile's lanes (a tile size a warp) */
} variant;

static bool is_op(const conf_form *f, const char *op) { return !strcmp(f->op, op); }
static bool sync_form(const conf_form *f) { return conf_word(f, "sync"); }

/* d is a predicate for vote.all/any/uni. */
static bool pred_dst(const conf_form *f) { return is_op(f, "vote") && !conf_word(f, "ballot"); }

static unsigned a_bits(const conf_form *f) { return is_op(f, "match") && f->type[0] == CT_B64 ? 64 : 32; }

static unsigned variants(const conf_form *f, variant *v)
{
    unsigned n = 0;
    if (is_op(f, "shfl")) {
        v[n++] = (variant){ .pred_out = true };
        v[n++] = (variant){ .pred_out = false };
        v[n++] = (variant){ .pred_out = true, .imm = true, .imm_b = 1, .imm_c = 0x1F };
        v[n++] = (variant){ .pred_out = true, .imm = true, .imm_b = 5, .imm_c = 0x1C1F };
    } else if (is_op(f, "vote")) {
        v[n++] = (variant){ 0 };
        v[n++] = (variant){ .neg = true };
        if (sync_form(f)) {
            v[n++] = (variant){ .imm = true };
            v[n++] = (variant){ .tiles = true };
        }
    } else if (is_op(f, "match")) {
        v[n++] = (variant){ .pred_out = conf_word(f, "all") };
        if (conf_word(f, "all"))
            v[n++] = (variant){ .pred_out = false };
        v[n++] = (variant){ .pred_out = conf_word(f, "all"), .imm = true };
        v[n++] = (variant){ .pred_out = conf_word(f, "all"), .tiles = true };
    } else if (is_op(f, "redux")) {
        v[n++] = (variant){ 0 };
        v[n++] = (variant){ .imm = true };
        v[n++] = (variant){ .tiles = true };
    } else {
        v[n++] = (variant){ 0 };
    }
    return n;
}

/* ---- the kernel ----------------------------------------------------------- */

static const char *reg_of(const conf_form *f)
{
    if (is_op(f, "redux"))
        return conf_types[f->type[0]].name;
    return "b32";
}

static void build(conf_text *s, const conf_form *f, const variant *v, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    bool pd = pred_dst(f);
    conf_put(s, ".version 8.7\n.target %s\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi;\n .reg .b32 %%xt, %%xc, %%xk, %%b, %%c, %%m;\n"
                " .reg .pred %%xe, %%xg, %%pa, %%p;\n .reg .b%u %%a;\n",
             f->type[0] == CT_F32 ? "sm_100a" : "sm_90", a_bits(f));
    if (pd)
        conf_put(s, " .reg .pred %%d;\n");
    else
        conf_put(s, " .reg .%s %%d;\n", reg_of(f));
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xt, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xt, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n");
    if (is_op(f, "vote"))
        conf_put(s, " ld.global.u32 %%xt, [%%xa];\n setp.ne.u32 %%pa, %%xt, 0;\n");
    else
        conf_put(s, " ld.global.b%u %%a, [%%xa];\n", a_bits(f));
    conf_put(s, " ld.global.b32 %%b, [%%xa+%" PRIu64 "];\n ld.global.b32 %%c, [%%xa+%" PRIu64 "];\n"
                " ld.global.b32 %%m, [%%xa+%" PRIu64 "];\n ld.global.b32 %%xk, [%%xa+%" PRIu64 "];\n",
             I_B * col, I_C * col, I_M * col, I_KIND * col);
    if (pd)
        conf_put(s, " ld.global.u32 %%xt, [%%xa+%" PRIu64 "];\n setp.ne.u32 %%d, %%xt, 0;\n", I_D0 * col);
    else
        conf_put(s, " ld.global.b32 %%d, [%%xa+%" PRIu64 "];\n", I_D0 * col);
    conf_put(s, " ld.global.u32 %%xt, [%%xa+%" PRIu64 "];\n setp.ne.u32 %%p, %%xt, 0;\n"
                " setp.eq.u32 %%xe, %%xk, %d;\n @%%xe exit;\n"
                " setp.eq.u32 %%xe, %%xk, %d;\n @%%xe bra $Lskip;\n"
                " setp.ne.u32 %%xg, %%xk, %d;\n @%%xg %s ",
             I_P0 * col, K_EXIT, K_SKIP, K_OFF, f->text);
    conf_put(s, v->pred_out ? "%%d|%%p" : "%%d");
    char mask[16];
    snprintf(mask, sizeof mask, "%s", v->imm ? "0xFFFFFFFF" : "%m");
    if (is_op(f, "shfl")) {
        if (v->imm)
            conf_put(s, ", %%a, %u, 0x%X", v->imm_b, v->imm_c);
        else
            conf_put(s, ", %%a, %%b, %%c");
    } else if (is_op(f, "vote")) {
        conf_put(s, ", %s%%pa", v->neg ? "!" : "");
    } else if (!is_op(f, "activemask")) {
        conf_put(s, ", %%a");
    }
    if (sync_form(f))
        conf_put(s, ", %s", mask);
    conf_put(s, ";\n$Lskip:\n");
    if (pd)
        conf_put(s, " selp.u32 %%xt, 1, 0, %%d;\n st.global.u32 [%%xo], %%xt;\n");
    else
        conf_put(s, " st.global.b32 [%%xo], %%d;\n");
    conf_put(s, " selp.u32 %%xt, 1, 0, %%p;\n st.global.u32 [%%xo+%" PRIu64 "], %%xt;\n ret;\n}\n",
             O_P * col);
}

/* ---- operands ------------------------------------------------------------- */

static unsigned below(conf_rng *r, unsigned n) { return (unsigned)(conf_rand(r) % n); }

/* Lane kinds and membermask of one warp.  Immediate membermasks are
 * 0xFFFFFFFF, so only exits may leave lanes out. */
static void scenario(conf_rng *r, bool only_exits, uint8_t *kind, uint32_t *member)
{
    unsigned shape = below(r, 8);
    uint32_t exited = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned k = K_RUN;
        switch (shape) {
        case 0: case 1: case 2: break;                      /* the whole warp */
        case 3: k = below(r, 3) ? K_RUN : K_EXIT; break;
        case 4: k = below(r, 3) ? K_RUN : K_OFF; break;
        case 5: k = below(r, 3) ? K_RUN : K_SKIP; break;
        case 6: k = below(r, 4); break;                      /* a mix */
        default: k = l == below(r, 32) || below(r, 8) ? K_EXIT : K_RUN; break;  /* few left */
        }
        if (only_exits && k != K_RUN)
            k = K_EXIT;
        kind[l] = (uint8_t)k;
        exited |= (uint32_t)(k == K_EXIT) << l;
    }
    uint32_t exec = 0;
    for (unsigned l = 0; l < 32; l++)
        exec |= (uint32_t)(kind[l] == K_RUN) << l;
    /* Exited lanes may be named or not, all or some of them. */
    unsigned how = below(r, 3);
    *member = exec | (how == 0 ? exited : how == 1 ? 0 : exited & (uint32_t)conf_rand(r));
    if (only_exits)
        *member = 0xFFFFFFFF;
}

static const uint32_t int_edges[] = {
    0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 31, 32, 0x10000, 0xFFFF,
};
static const uint32_t f32_edges[] = {
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
    0x7F800001, 0x00000001, 0x80000001, 0x007FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x40490FDB, 0xC0490FDB,
};

static uint32_t f32_value(conf_rng *r)
{
    unsigned k = below(r, 4);
    if (k == 0)
        return f32_edges[below(r, sizeof f32_edges / sizeof f32_edges[0])];
    uint32_t x = (uint32_t)conf_rand(r);
    if (k == 1)                 /* near 1, so that many values compare close */
        x = (x & 0x807FFFFF) | (uint32_t)(124 + below(r, 6)) << 23;
    return x;
}

/* Source a of every lane of a warp. */
static void values_a(conf_rng *r, const conf_form *f, uint64_t *a)
{
    unsigned shape = below(r, 4);
    if (is_op(f, "vote")) {
        uint64_t bits = shape == 0 ? ~0ull : shape == 1 ? 0 : shape == 2 ? 1ull << below(r, 32) : conf_rand(r);
        if (shape == 2 && below(r, 2))
            bits = ~bits;
        for (unsigned l = 0; l < 32; l++)
            a[l] = (bits >> l) & 1;
        return;
    }
    if (is_op(f, "match")) {
        /* A few values, some differing only in their high half. */
        uint64_t pool[4];
        for (unsigned i = 0; i < 4; i++)
            pool[i] = conf_rand(r);
        pool[1] = (pool[0] & 0xFFFFFFFF) | (pool[1] << 32);
        pool[2] = (pool[0] & ~0xFFFFFFFFull) | (pool[2] & 0xFFFFFFFF);
        unsigned n = shape == 0 ? 1 : shape == 1 ? 2 : 4;
        for (unsigned l = 0; l < 32; l++)
            a[l] = pool[below(r, n)];
        return;
    }
    for (unsigned l = 0; l < 32; l++) {
        if (f->type[0] == CT_F32)
            a[l] = f32_value(r);
        else if (shape == 0)
            a[l] = int_edges[below(r, sizeof int_edges / sizeof int_edges[0])];
        else if (shape == 1)
            a[l] = below(r, 64);
        else
            a[l] = (uint32_t)conf_rand(r);
        if (shape == 3 && l)                /* a run of equal values */
            a[l] = below(r, 2) ? a[l - 1] : a[l];
    }
}

/* shfl's b and c: offsets and lanes around the warp's size, with the
 * clamp and segment mask of the ISA's examples and random ones; uniform
 * across the warp or not. */
static void values_bc(conf_rng *r, uint64_t *b, uint64_t *c)
{
    static const uint32_t segs[] = { 0, 0x10, 0x18, 0x1C, 0x1E, 0x1F, 0x08, 0x01 };
    bool ub = below(r, 2), uc = below(r, 3) != 0;
    uint32_t b0 = below(r, 40), c0 = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (l == 0 || !uc) {
            switch (below(r, 5)) {
            case 0: c0 = 0x1F; break;
            case 1: c0 = 0; break;
            case 2: c0 = segs[below(r, 8)] << 8 | below(r, 32); break;
            case 3: c0 = (uint32_t)conf_rand(r) & 0x1F1F; break;
            default: c0 = (uint32_t)conf_rand(r); break;
            }
        }
        if (l && !ub)
            b0 = below(r, 4) ? below(r, 36) : (uint32_t)conf_rand(r);
        b[l] = b0;
        c[l] = c0;
    }
}

/* ---- running and checking ------------------------------------------------- */

static void report(conf_xctx *c, const conf_form *f, const variant *v, unsigned lane, const uint8_t *kind,
                   const conf_warp_in *in, const char *what, uint64_t got, uint64_t want)
{
    if (c->shown++ >= CONF_SHOW)
        return;
    uint32_t off = 0, skip = 0;
    for (unsigned l = 0; l < 32; l++) {
        off |= (uint32_t)(kind[l] == K_OFF) << l;
        skip |= (uint32_t)(kind[l] == K_SKIP) << l;
    }
    uint32_t member = in->member;
    if (in->tile)
        member &= (uint32_t)(((1ull << in->tile) - 1) << (lane / in->tile * in->tile));
    printf("FAIL %s%s%s%s lane %u: executing 0x%08" PRIx32 " membermask 0x%08" PRIx32
           " (guard-off 0x%08" PRIx32 ", branched 0x%08" PRIx32 ", tiles of %u) a=0x%" PRIx64,
           f->text, v->pred_out ? " d|p" : "", v->neg ? " !a" : "", v->imm ? " (immediates)" : "", lane,
           in->exec, member, off, skip, in->tile ? in->tile : 32, in->a[lane]);
    if (is_op(f, "shfl"))
        printf(" b=0x%" PRIx64 " c=0x%" PRIx64, in->b[lane], in->c[lane]);
    printf(": %s got 0x%" PRIx64 " want 0x%" PRIx64 "\n", what, got, want);
}

static conf_outcome run_variant(conf_xctx *c, const conf_form *f, const variant *v)
{
    unsigned lanes = c->warps * 32;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, v, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    uint8_t *kinds = malloc(lanes);
    conf_warp_in *ws = malloc(c->warps * sizeof *ws);
    if (!kinds || !ws) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    uint64_t dmask = pred_dst(f) ? 1 : 0xFFFFFFFF;
    for (unsigned wi = 0; wi < c->warps; wi++) {
        conf_warp_in *w = &ws[wi];
        memset(w, 0, sizeof *w);
        uint8_t *kind = kinds + wi * 32;
        uint32_t member;
        scenario(&c->rng, v->imm, kind, &member);
        values_a(&c->rng, f, w->a);
        values_bc(&c->rng, w->b, w->c);
        if (v->imm)
            for (unsigned l = 0; l < 32; l++)
                w->b[l] = v->imm_b, w->c[l] = v->imm_c;
        w->member = member;
        w->neg = v->neg;
        w->tile = v->tiles ? 2u << below(&c->rng, 4) : 0;     /* 2, 4, 8 or 16 lanes */
        for (unsigned l = 0; l < 32; l++)
            w->exec |= (uint32_t)(kind[l] == K_RUN) << l;
        for (unsigned l = 0; l < 32; l++) {
            size_t at = (size_t)wi * 32 + l;
            in[I_A * lanes + at] = w->a[l];
            in[I_B * lanes + at] = w->b[l];
            in[I_C * lanes + at] = w->c[l];
            in[I_M * lanes + at] = w->tile ? member & (uint32_t)(((1ull << w->tile) - 1) << (l / w->tile * w->tile))
                                            : member;
            in[I_KIND * lanes + at] = kind[l];
            in[I_D0 * lanes + at] = conf_rand(&c->rng) & dmask;
            in[I_P0 * lanes + at] = conf_rand(&c->rng) & 1;
        }
    }
    memset(out, 0, 2ull * lanes * 8);
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc == CONF_RAN) {
        for (unsigned wi = 0; wi < c->warps; wi++) {
            const conf_warp_in *w = &ws[wi];
            const uint8_t *kind = kinds + wi * 32;
            conf_want want[32];
            ref_warp(f, w, want);
            /* activemask after a divergent branch: the ISA promises no
             * reconvergence, so any set of executing lanes that holds the
             * lane itself will do. */
            bool loose = is_op(f, "activemask") && memchr(kind, K_SKIP, 32);
            for (unsigned l = 0; l < 32; l++) {
                if (kind[l] == K_EXIT)
                    continue;
                size_t at = (size_t)wi * 32 + l;
                uint64_t d = out[O_D * lanes + at] & dmask, p = out[O_P * lanes + at];
                uint64_t wd = want[l].v[0] & dmask, wp = want[l].v[1];
                bool any_d = want[l].any[0];
                if (kind[l] != K_RUN) {                 /* must keep its registers */
                    wd = in[I_D0 * lanes + at];
                    any_d = false;
                }
                if (kind[l] != K_RUN || !v->pred_out)
                    wp = in[I_P0 * lanes + at];
                bool ok_d = any_d || d == wd;
                if (kind[l] == K_RUN && loose)
                    ok_d = (d >> l & 1) && (d & ~(uint64_t)w->exec) == 0;
                bool ok_p = p == wp;
                c->checked++;
                if (!ok_d)
                    report(c, f, v, l, kind, w, "d", d, wd);
                else if (!ok_p)
                    report(c, f, v, l, kind, w, "p", p, wp);
                c->failed += !ok_d || !ok_p;
            }
        }
    }
    free(kinds);
    free(ws);
    return oc;
}

int conf_xrun_warp(conf_xctx *c, const conf_form *f)
{
    variant v[8];
    unsigned n = variants(f, v);
    conf_outcome first = CONF_RAN;
    for (unsigned i = 0; i < n; i++) {
        conf_outcome oc = run_variant(c, f, &v[i]);
        if (i == 0)
            first = oc;
        if (oc == CONF_ERROR)
            return oc;
        if (i == 0 && oc != CONF_RAN)
            return oc;
        if (oc != CONF_RAN) {
            /* The form ran, but not this spelling of its operands. */
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s: variant %u refused: %s\n", f->text, i, c->msg);
            c->failed++;
        }
    }
    return first;
}

/*
 * conf_xbar.c -- the bar family's runner: bar and barrier (PTX ISA
 * 9.7.13.1 bar, barrier) in blocks of four warps, checked by what threads
 * see in shared memory across the barrier and by what .red returns.
 *
 * .sync: every thread writes a value to its shared slot, passes the
 * barrier and reads another warp's slot, three times (write, barrier,
 * read, barrier, write again, barrier, read again), so a barrier that lets
 * a warp through early shows as a stale read, and one that does not reset
 * for its next phase as a stale or deadlocked second round.  It runs with
 * the whole block on barrier 0, with two groups of two warps on barriers 1
 * and 2 with a thread count of 64 (barrier and count in registers), and,
 * for the forms without .aligned, with the odd and the even lanes of each
 * warp arriving at different barrier instructions.
 *
 * .arrive: warps 2 and 3 write their slots and arrive on barrier 1 with a
 * count of 128; warps 0 and 1 wait there with bar.sync and read them.
 *
 * .red: each thread's predicate (random per thread, often all the same
 * within a block so that .and and .or see both answers) is combined over
 * the block on barrier 0, over each group of two warps with a count of 64,
 * and negated (!p) over the block.
 *
 * Warps run in order, so a barrier that does not wait shows at once: warp
 * 0 reads warp 1's slot before warp 1 has written it.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 128u

enum { K_SYNC, K_ARRIVE, K_RED };
enum { C_ALL, C_GROUPS, C_SPLIT, C_NEG };
static const char *const case_names[] = { "whole block", "two groups of 64", "odd and even lanes apart",
                                          "negated predicate" };

static unsigned kind_of(const conf_form *f)
{
    return conf_word(f, "red") ? K_RED : conf_word(f, "arrive") ? K_ARRIVE : K_SYNC;
}

/* bar is barrier.aligned (9.7.13.1): only the barrier spellings without
 * .aligned may be reached by a warp's lanes at different instructions. */
static bool aligned(const conf_form *f) { return !strcmp(f->op, "bar") || conf_word(f, "aligned"); }

/* ---- the kernel ----------------------------------------------------------- */

/* The instruction under test at barrier id/count `ids` ("0", "%xb, %xn"),
 * its result %xr (red) from the predicate %xq. */
static void put_bar(conf_text *s, const conf_form *f, const char *ids, bool neg)
{
    if (kind_of(f) != K_RED)
        conf_put(s, " %s %s;\n", f->text, ids);
    else if (conf_word(f, "popc"))
        conf_put(s, " %s %%xr, %s, %s%%xq;\n", f->text, ids, neg ? "!" : "");
    else
        conf_put(s, " %s %%xs, %s, %s%%xq;\n selp.u32 %%xr, 1, 0, %%xs;\n", f->text, ids, neg ? "!" : "");
}

/* One use of the barrier in case c: the two halves of the warp apart
 * (C_SPLIT), or together. */
static void use_bar(conf_text *s, const conf_form *f, unsigned c, unsigned n)
{
    const char *ids = c == C_GROUPS ? "%xb, %xn" : "0";
    if (c != C_SPLIT) {
        put_bar(s, f, ids, c == C_NEG);
        return;
    }
    conf_put(s, " @%%xodd bra ODD%u;\n", n);
    put_bar(s, f, ids, false);
    conf_put(s, " bra JOIN%u;\nODD%u:\n", n, n);
    put_bar(s, f, ids, false);
    conf_put(s, "JOIN%u:\n", n);
}

static void build(conf_text *s, const conf_form *f, unsigned c, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%xv, %%xw, %%xp, %%xs1;\n"
                " .reg .b32 %%xt, %%xc, %%xk, %%xb, %%xn, %%xr, %%xu, %%xm;\n"
                " .reg .pred %%xq, %%xs, %%xodd, %%xhi;\n"
                " .shared .align 8 .b64 conf_sm[%u];\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, %u, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.b64 %%xv, [%%xa];\n ld.global.u32 %%xu, [%%xa+%" PRIu64 "];\n"
                " setp.ne.u32 %%xq, %%xu, 0;\n"
                " and.b32 %%xu, %%xc, 1;\n setp.ne.u32 %%xodd, %%xu, 0;\n"
                " setp.ge.u32 %%xhi, %%xc, 64;\n"
                /* groups: warps 0-1 on barrier 1, warps 2-3 on barrier 2, 64 threads each */
                " selp.u32 %%xb, 2, 1, %%xhi;\n mov.u32 %%xn, 64;\n"
                " mov.u64 %%xw, conf_sm;\n mul.wide.u32 %%xi, %%xc, 8;\n add.s64 %%xp, %%xw, %%xi;\n",
             BLOCK, BLOCK, col);
    /* %xs1: the partner's slot (ref_bar_partner) */
    if (c == C_GROUPS)
        conf_put(s, " and.b32 %%xm, %%xc, 64;\n add.u32 %%xu, %%xc, 32;\n and.b32 %%xu, %%xu, 63;\n"
                    " or.b32 %%xu, %%xu, %%xm;\n");
    else
        conf_put(s, " add.u32 %%xu, %%xc, %u;\n and.b32 %%xu, %%xu, %u;\n", kind_of(f) == K_ARRIVE ? 64 : 32,
                 BLOCK - 1);
    conf_put(s, " mul.wide.u32 %%xi, %%xu, 8;\n add.s64 %%xs1, %%xw, %%xi;\n");
    switch (kind_of(f)) {
    case K_SYNC:
        conf_put(s, " st.shared.b64 [%%xp], %%xv;\n");
        use_bar(s, f, c, 0);
        conf_put(s, " ld.shared.b64 %%xi, [%%xs1];\n st.global.b64 [%%xo], %%xi;\n");
        use_bar(s, f, c, 1);
        conf_put(s, " not.b64 %%xv, %%xv;\n st.shared.b64 [%%xp], %%xv;\n");
        use_bar(s, f, c, 2);
        conf_put(s, " ld.shared.b64 %%xi, [%%xs1];\n st.global.b64 [%%xo+%" PRIu64 "], %%xi;\n", col);
        break;
    case K_ARRIVE:
        /* warps 2-3 produce, warps 0-1 consume */
        conf_put(s, " @!%%xhi bra CONSUME;\n st.shared.b64 [%%xp], %%xv;\n %s 1, 128;\n"
                    " st.global.b64 [%%xo], %%xv;\n bra DONE;\n"
                    "CONSUME:\n bar.sync 1, 128;\n ld.shared.b64 %%xi, [%%xs1];\n st.global.b64 [%%xo], %%xi;\n"
                    "DONE:\n",
                 f->text);
        break;
    default:
        use_bar(s, f, c, 0);
        conf_put(s, " st.global.u32 [%%xo+%" PRIu64 "], %%xr;\n", 2 * col);
        break;
    }
    conf_put(s, " ret;\n}\n");
}

/* ---- running and checking ------------------------------------------------- */

static conf_outcome run_case(conf_xctx *c, const conf_form *f, unsigned cs)
{
    unsigned lanes = conf_block_lanes(c->warps, BLOCK);
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, cs, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (unsigned b = 0; b < lanes / BLOCK; b++) {
        /* predicates: all true, all false, or random, per block */
        unsigned shape = (unsigned)(conf_rand(&c->rng) % 4);
        for (unsigned t = 0; t < BLOCK; t++) {
            size_t at = (size_t)b * BLOCK + t;
            in[at] = conf_rand(&c->rng) | 1;     /* never 0 or ~0: a stale slot shows */
            in[col + at] = shape == 0 ? 1 : shape == 1 ? 0 : (conf_rand(&c->rng) >> 7) & 1;
        }
    }
    memset(out, 0, 3 * col * 8);
    conf_outcome oc = conf_launch_cta(c->e, s.p, s.n, lanes, BLOCK, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    for (unsigned b = 0; b < lanes / BLOCK; b++) {
        const uint64_t *v = in + (size_t)b * BLOCK;
        uint8_t p[BLOCK];
        for (unsigned t = 0; t < BLOCK; t++)
            p[t] = (uint8_t)in[col + (size_t)b * BLOCK + t];
        for (unsigned t = 0; t < BLOCK; t++) {
            size_t at = (size_t)b * BLOCK + t;
            uint64_t want[3], got[3] = { out[at], out[col + at], out[2 * col + at] & 0xFFFFFFFFu };
            bool check[3] = { false, false, false };
            unsigned partner = ref_bar_partner(t, BLOCK, cs == C_GROUPS, kind_of(f) == K_ARRIVE);
            switch (kind_of(f)) {
            case K_SYNC:
                want[0] = v[partner], want[1] = ~v[partner], check[0] = check[1] = true;
                break;
            case K_ARRIVE:
                want[0] = t >= 64 ? v[t] : v[partner], check[0] = true;
                break;
            default: {
                unsigned lo = cs == C_GROUPS ? t / 64 * 64 : 0, n = cs == C_GROUPS ? 64 : BLOCK;
                want[2] = ref_bar_red(f, p + lo, n, cs == C_NEG), check[2] = true;
                break;
            }
            }
            c->checked++;
            for (unsigned i = 0; i < 3; i++) {
                if (!check[i] || got[i] == want[i])
                    continue;
                if (c->shown++ < CONF_SHOW)
                    printf("FAIL %s (%s) block %u thread %u: %s got 0x%" PRIx64 " want 0x%" PRIx64 "\n", f->text,
                           case_names[cs], b, t,
                           i == 2 ? "result" : i ? "second read" : "first read", got[i], want[i]);
                c->failed++;
                break;
            }
        }
    }
    return CONF_RAN;
}

int conf_xrun_bar(conf_xctx *c, const conf_form *f)
{
    unsigned cases[4], n = 0;
    cases[n++] = C_ALL;
    if (kind_of(f) != K_ARRIVE)
        cases[n++] = C_GROUPS;
    if (kind_of(f) == K_SYNC && !aligned(f))
        cases[n++] = C_SPLIT;
    if (kind_of(f) == K_RED)
        cases[n++] = C_NEG;
    conf_outcome first = CONF_RAN;
    for (unsigned i = 0; i < n; i++) {
        conf_outcome oc = run_case(c, f, cases[i]);
        if (i == 0)
            first = oc;
        if (oc == CONF_ERROR && i == 0)
            return oc;
        if (i == 0 && oc != CONF_RAN)
            return oc;
        if (oc != CONF_RAN) {
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s (%s): %s: %s\n", f->text, case_names[cases[i]],
                       oc == CONF_ERROR ? "error" : "refused", c->msg);
            c->failed++;
        }
    }
    return first;
}

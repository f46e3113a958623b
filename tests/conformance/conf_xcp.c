/*
 * conf_xcp.c -- the cp family's runner: cp.async (PTX ISA 9.7.9.25) from
 * global to shared memory, its groups and its mbarrier arrive, in blocks
 * of four warps.
 *
 * Every thread owns a 16-byte shared slot, filled with random bytes
 * first.  It copies cp-size bytes (4, 8 or 16; .cg: 16) of its own
 * 16-byte source in global memory into the slot, with the operands the
 * copy may end with: none; a src-size (random, 0 to cp-size: the rest of
 * the cp-size bytes are zeros); an ignore-src predicate (true: all cp-size
 * bytes zeros); .L2::cache_hint's cache policy, alone or after a src-size.
 * It waits for the copy and writes the whole slot out, so bytes past
 * cp-size must be the slot's own.  The form under test is the copy
 * (then commit_group and wait_all), or commit_group, wait_group 0 or
 * wait_all after a .ca copy of 16.
 *
 * cp.async.mbarrier.arrive: the block's threads copy, make the barrier
 * track their copies (without .noinc also arriving themselves, since the
 * arrive-on then adds one pending arrival of its own), wait for the phase,
 * and read the slot of a thread of the next warp: a phase that completes
 * before every copy has landed shows as that slot's old bytes.
 *
 * ptxsim completes a copy when it is issued, which the ISA allows, so the
 * waits' own timing cannot be told apart here; what is checked is the
 * data a thread sees after its wait.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 128u
#define SLOT 16u

enum { K_COPY, K_GROUP, K_MBAR };

/* How a copy ends (after cp-size). */
enum { TAIL_NONE, TAIL_SRC_SIZE, TAIL_IGNORE_SRC, TAIL_POLICY, TAIL_SRC_SIZE_POLICY, TAILS };
static const char *const tail_names[TAILS] = { "none", "src-size", "ignore-src", "cache policy",
                                               "src-size, cache policy" };

static unsigned kind_of(const conf_form *f)
{
    if (conf_word(f, "mbarrier"))
        return K_MBAR;
    if (conf_word(f, "ca") || conf_word(f, "cg"))
        return K_COPY;
    return K_GROUP;
}

/* ---- the kernel ----------------------------------------------------------- */

/* Input: column 0 the slot's first bytes (16 per lane, columns 0-1), the
 * src-size in column 2, the sources from column 4 on (16 per lane).
 * Output: the slot after the copy (columns 0-1 as 16 bytes per lane). */
static void build(conf_text *s, const conf_form *f, unsigned size, unsigned tail, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned k = kind_of(f);
    const char *copy = k == K_COPY ? f->text : "cp.async.ca.shared.global";
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%src, %%lo, %%hi, %%st, %%mbg, %%policy;\n"
                " .reg .b32 %%xt, %%xc, %%xk, %%n, %%slot, %%other, %%mb;\n .reg .pred %%p, %%zero, %%ignore;\n"
                " .shared .align 16 .b8 conf_sm[%u];\n .shared .align 8 .b64 conf_mb;\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, %u, %%xc;\n"
                " ld.param.u64 %%xa, [pin];\n ld.param.u64 %%xo, [pout];\n"
                " mul.wide.u32 %%xi, %%xk, 16;\n add.s64 %%src, %%xa, %%xi;\n add.s64 %%src, %%src, %" PRIu64 ";\n"
                " add.s64 %%xo, %%xo, %%xi;\n add.s64 %%xa, %%xa, %%xi;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n add.s64 %%xi, %%xi, %" PRIu64 ";\n"
                " ld.param.u64 %%lo, [pin];\n add.s64 %%xi, %%lo, %%xi;\n ld.global.u32 %%n, [%%xi];\n"
                " mov.u32 %%slot, conf_sm;\n mad.lo.u32 %%slot, %%xc, %u, %%slot;\n"
                " ld.global.v2.b64 {%%lo, %%hi}, [%%xa];\n st.shared.v2.b64 [%%slot], {%%lo, %%hi};\n"
                " setp.eq.u32 %%zero, %%xc, 0;\n mov.u32 %%mb, conf_mb;\n cvta.shared.u64 %%mbg, conf_mb;\n",
             BLOCK * SLOT, BLOCK, 4 * col, 2 * col, SLOT);
    if (k == K_MBAR)
        conf_put(s, " @%%zero mbarrier.init.shared.b64 [%%mb], %u;\n bar.sync 0;\n", BLOCK);
    static const char *const operands[TAILS] = { "", ", %n", ", %ignore", ", %policy", ", %n, %policy" };
    bool hint = tail == TAIL_POLICY || tail == TAIL_SRC_SIZE_POLICY;
    if (tail == TAIL_IGNORE_SRC)
        conf_put(s, " setp.eq.u32 %%ignore, %%n, 0;\n");
    if (hint)
        conf_put(s, " createpolicy.fractional.L2::evict_first.b64 %%policy, 1.0;\n");
    conf_put(s, " %s%s [%%slot], [%%src], %u%s;\n", copy, hint ? ".L2::cache_hint" : "", size, operands[tail]);
    switch (k) {
    case K_MBAR: {
        bool shared = conf_word(f, "shared") || conf_word(f, "shared::cta");
        conf_put(s, " %s [%s];\n", f->text, shared ? "%mb" : "%mbg");
        if (!conf_word(f, "noinc"))
            conf_put(s, " mbarrier.arrive.shared.b64 %%st, [%%mb];\n");
        conf_put(s, "WAIT:\n mbarrier.try_wait.parity.shared.b64 %%p, [%%mb], 0;\n @!%%p bra WAIT;\n"
                    " add.u32 %%other, %%xc, 32;\n and.b32 %%other, %%other, %u;\n"
                    " mov.u32 %%slot, conf_sm;\n mad.lo.u32 %%slot, %%other, %u, %%slot;\n",
                 BLOCK - 1, SLOT);
        break;
    }
    case K_GROUP:
        if (conf_word(f, "commit_group"))
            conf_put(s, " %s;\n cp.async.wait_all;\n", f->text);
        else if (conf_word(f, "wait_group"))
            conf_put(s, " cp.async.commit_group;\n %s 0;\n", f->text);
        else
            conf_put(s, " cp.async.commit_group;\n %s;\n", f->text);
        break;
    default:
        conf_put(s, " cp.async.commit_group;\n cp.async.wait_all;\n");
        break;
    }
    conf_put(s, " ld.shared.v2.b64 {%%lo, %%hi}, [%%slot];\n st.global.v2.b64 [%%xo], {%%lo, %%hi};\n ret;\n}\n");
}

/* ---- running and checking ------------------------------------------------- */

static conf_outcome run_case(conf_xctx *c, const conf_form *f, unsigned size, unsigned tail)
{
    unsigned lanes = conf_block_lanes(c->warps, BLOCK);
    if (lanes > CONF_MAX_LANES / 2)
        lanes = CONF_MAX_LANES / 2;
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, size, tail, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (size_t i = 0; i < 2 * col; i++)              /* the slots' bytes */
        in[i] = conf_rand(&c->rng);
    for (size_t i = 4 * col; i < 6 * col; i++)        /* the sources */
        in[i] = conf_rand(&c->rng);
    for (unsigned l = 0; l < lanes; l++) {
        unsigned shape = (unsigned)(conf_rand(&c->rng) % 4);
        in[2 * col + l] = shape == 0 ? 0 : shape == 1 ? size : conf_rand(&c->rng) % (size + 1);
    }
    memset(out, 0, 2 * col * 8);
    conf_outcome oc = conf_launch_cta(c->e, s.p, s.n, lanes, BLOCK, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    const uint8_t *slots = (const uint8_t *)in, *src = (const uint8_t *)(in + 4 * col);
    for (unsigned l = 0; l < lanes; l++) {
        /* the lane whose slot this lane reads */
        unsigned from = kind_of(f) == K_MBAR ? l / BLOCK * BLOCK + (l % BLOCK + 32) % BLOCK : l;
        uint8_t want[SLOT];
        unsigned n = (unsigned)in[2 * col + from], keep = size;
        if (tail == TAIL_SRC_SIZE || tail == TAIL_SRC_SIZE_POLICY)
            keep = n;
        else if (tail == TAIL_IGNORE_SRC)
            keep = n == 0 ? 0 : size;
        ref_cp_slot(slots + (size_t)from * SLOT, src + (size_t)from * SLOT, size, keep, want);
        const uint8_t *got = (const uint8_t *)out + (size_t)l * SLOT;
        c->checked++;
        if (!memcmp(got, want, SLOT))
            continue;
        c->failed++;
        if (c->shown++ < CONF_SHOW) {
            uint64_t g[2], w[2];
            memcpy(g, got, 16);
            memcpy(w, want, 16);
            printf("FAIL %s (cp-size %u, then %s) thread %u reading thread %u's slot: got 0x%016" PRIx64
                   "%016" PRIx64 " want 0x%016" PRIx64 "%016" PRIx64 "\n",
                   f->text, size, tail_names[tail], l, from, g[1], g[0], w[1], w[0]);
        }
    }
    return CONF_RAN;
}

int conf_xrun_cp(conf_xctx *c, const conf_form *f)
{
    static const unsigned ca_sizes[] = { 4, 8, 16 }, cg_sizes[] = { 16 };
    bool copy = kind_of(f) == K_COPY, cg = conf_word(f, "cg");
    const unsigned *sizes = copy && !cg ? ca_sizes : cg_sizes;
    unsigned nsizes = copy && !cg ? 3 : 1;
    unsigned ntails = copy ? TAILS : 2;         /* the copy's own forms: every way it may end */
    conf_outcome first = CONF_RAN;
    for (unsigned i = 0; i < nsizes * ntails; i++) {
        unsigned size = sizes[i / ntails], tail = i % ntails;
        conf_outcome oc = run_case(c, f, size, tail);
        if (i == 0)
            first = oc;
        if (i == 0 && oc != CONF_RAN)
            return oc;
        if (oc != CONF_RAN) {
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s (cp-size %u, then %s): %s\n", f->text, size, tail_names[tail], c->msg);
            c->failed++;
        }
    }
    return first;
}

/*
 * conf_xmbar.c -- the mbar family's runner: mbarrier (PTX ISA 9.7.13.15)
 * in blocks of four warps, checked by what threads read from shared
 * memory once a phase completes.
 *
 * Thread 0 initialises one barrier for the block's 128 threads.  In each
 * of two phases every thread writes a value to its shared slot, arrives,
 * waits until the phase completes (a loop on test_wait or try_wait), and
 * reads another warp's slot; a bar.sync separates the phases.  Warps run
 * in order, so a phase that completes early shows as a stale read (warp 1
 * reads warp 2's slot before warp 2 has written it), and one that never
 * completes as a deadlock.  The form under test takes one role:
 *
 *   init, inval          thread 0's initialisation (inval: the barrier is
 *                        invalidated and initialised again between phases)
 *   arrive{,_drop}...    the arrivals of warps 0 and 1 (warps 2 and 3 use
 *                        plain arrive), with a count of 2 from the even
 *                        lanes only where the form takes a count, and:
 *                        arrive_drop -- warps 0 and 1 leave the barrier after
 *                        phase 0, so phase 1 completes with 64 arrivals, and
 *                        they neither arrive nor wait in it; .expect_tx --
 *                        8 bytes each, which warps 2 and 3 complete after
 *                        arriving (so the phase waits for the bytes too)
 *   test_wait, try_wait  the waits, with the arrive's state or (.parity)
 *                        the phase's parity, and a probe right after warp
 *                        3 arrives in phase 0, which must fail: thread 0
 *                        expected 256 bytes that warp 3 completes only
 *                        after the probe
 *   expect_tx,           thread 0 expects 256 bytes before it arrives;
 *   complete_tx          warp 3 completes 8 each after arriving
 *
 * ref_mbar.c gives the partner each thread reads and the phase rules.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 128u

enum { K_INIT, K_INVAL, K_ARRIVE, K_DROP, K_WAIT, K_EXPECT, K_COMPLETE };

static unsigned kind_of(const conf_form *f)
{
    const char *w = f->nwords ? f->words[0] : "";
    if (!strcmp(w, "init"))
        return K_INIT;
    if (!strcmp(w, "inval"))
        return K_INVAL;
    if (!strcmp(w, "arrive_drop"))
        return K_DROP;
    if (!strcmp(w, "arrive"))
        return K_ARRIVE;
    if (!strcmp(w, "expect_tx"))
        return K_EXPECT;
    if (!strcmp(w, "complete_tx"))
        return K_COMPLETE;
    return K_WAIT;
}

/* The barrier's address for the form: a shared-window offset, or (no
 * state space named) the generic address of it. */
static const char *addr_of(const conf_form *f)
{
    return conf_word(f, "shared") || conf_word(f, "shared::cta") ? "%mb" : "%mbg";
}

/* Does the arrive form take a count (.noComplete needs one; a plain
 * arrive is run with one in a second case)? */
static bool needs_count(const conf_form *f) { return conf_word(f, "noComplete"); }
static bool expects_tx(const conf_form *f) { return conf_word(f, "expect_tx"); }

/* ---- the kernel ----------------------------------------------------------- */

/* Arrive on the barrier with state in %st: the form (warps 0 and 1, when
 * it is an arrive) or the plain spelling. */
static void put_arrive(conf_text *s, const conf_form *f, bool counted, unsigned r, bool dropped)
{
    unsigned k = kind_of(f);
    bool form = k == K_ARRIVE || k == K_DROP;
    const char *plain = "mbarrier.arrive.shared.b64 %st, [%mb]";
    if (!form) {
        conf_put(s, " %s;\n", plain);
        return;
    }
    conf_put(s, " @%%hi bra PLAIN%u;\n", r);
    if (counted)                                /* even lanes with a count of 2, odd lanes not at all */
        conf_put(s, " @%%odd bra ARRIVED%u;\n", r);
    const char *a = addr_of(f);
    if (expects_tx(f))
        conf_put(s, " %s %%st, [%s], 8;\n", f->text, a);
    else if (counted)
        conf_put(s, " %s %%st, [%s], 2;\n", f->text, a);
    else
        conf_put(s, " %s %%st, [%s];\n", f->text, a);
    conf_put(s, " bra ARRIVED%u;\nPLAIN%u:\n %s;\nARRIVED%u:\n", r, r, plain, r);
    (void)dropped;
}

/* Wait for phase r: the form, or try_wait with the arrive's state (with
 * the phase's parity where some lanes did not arrive and have none). */
static void put_wait(conf_text *s, const conf_form *f, bool counted, unsigned r)
{
    bool form = kind_of(f) == K_WAIT;
    bool parity = form ? conf_word(f, "parity") : counted;
    if (parity && !form) {
        conf_put(s, "WAIT%u:\n mbarrier.try_wait.parity.shared.b64 %%p, [%%mb], %u;\n @!%%p bra WAIT%u;\n", r,
                 r & 1, r);
        return;
    }
    conf_put(s, "WAIT%u:\n", r);
    if (parity)
        conf_put(s, " %s %%p, [%s], %u;\n", f->text, addr_of(f), r & 1);
    else if (form)
        conf_put(s, " %s %%p, [%s], %%st;\n", f->text, addr_of(f));
    else
        conf_put(s, " mbarrier.try_wait.shared.b64 %%p, [%%mb], %%st;\n");
    conf_put(s, " @!%%p bra WAIT%u;\n", r);
}

static void build(conf_text *s, const conf_form *f, bool counted, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned k = kind_of(f);
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%v, %%st, %%w, %%mine, %%other, %%mbg;\n"
                " .reg .b32 %%xt, %%xc, %%xk, %%t, %%mb;\n .reg .pred %%p, %%hi, %%odd, %%zero, %%w3;\n"
                " .shared .align 8 .b64 conf_mb;\n .shared .align 8 .b64 conf_sm[%u];\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, %u, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.b64 %%v, [%%xa];\n"
                " setp.ge.u32 %%hi, %%xc, 64;\n and.b32 %%t, %%xc, 1;\n setp.ne.u32 %%odd, %%t, 0;\n"
                " setp.eq.u32 %%zero, %%xc, 0;\n setp.ge.u32 %%w3, %%xc, 96;\n"
                " mov.u32 %%mb, conf_mb;\n cvta.shared.u64 %%mbg, conf_mb;\n"
                " mov.u64 %%w, conf_sm;\n mul.wide.u32 %%xi, %%xc, 8;\n add.s64 %%mine, %%w, %%xi;\n",
             BLOCK, BLOCK);
    if (k == K_INIT)
        conf_put(s, " @%%zero %s [%s], %u;\n bar.sync 0;\n", f->text, addr_of(f), BLOCK);
    else
        conf_put(s, " @%%zero mbarrier.init.shared.b64 [%%mb], %u;\n bar.sync 0;\n", BLOCK);
    for (unsigned r = 0; r < 2; r++) {
        bool dropped = k == K_DROP && r == 1;   /* warps 0-1 left the barrier */
        /* the partner: the next warp round the block, or (after a drop)
         * the other warp of warps 2-3 */
        if (dropped)
            conf_put(s, " and.b32 %%t, %%xc, 64;\n add.u32 %%xk, %%xc, 32;\n and.b32 %%xk, %%xk, 63;\n"
                        " or.b32 %%xk, %%xk, %%t;\n");
        else
            conf_put(s, " add.u32 %%xk, %%xc, 32;\n and.b32 %%xk, %%xk, %u;\n", BLOCK - 1);
        conf_put(s, " mul.wide.u32 %%xi, %%xk, 8;\n add.s64 %%other, %%w, %%xi;\n"
                    " st.shared.b64 [%%mine], %%v;\n");
        if (dropped)
            conf_put(s, " @!%%hi bra SKIP%u;\n", r);
        /* thread 0 expects the bytes before it arrives, so the phase
         * cannot complete without them */
        if (k == K_EXPECT)
            conf_put(s, " @%%zero %s [%s], 256;\n", f->text, addr_of(f));
        if (k == K_COMPLETE || (k == K_WAIT && r == 0))
            conf_put(s, " @%%zero mbarrier.expect_tx.shared.b64 [%%mb], 256;\n");
        put_arrive(s, f, counted, r, dropped);
        if (r == 0) {                           /* the probe: is phase 0 complete yet? (a wait form: by it) */
            if (k != K_WAIT)
                conf_put(s, " mbarrier.test_wait.parity.shared.b64 %%p, [%%mb], 0;\n");
            else if (conf_word(f, "parity"))
                conf_put(s, " %s %%p, [%s], 0;\n", f->text, addr_of(f));
            else
                conf_put(s, " %s %%p, [%s], %%st;\n", f->text, addr_of(f));
            conf_put(s, " selp.u64 %%xi, 1, 0, %%p;\n st.global.b64 [%%xo+%" PRIu64 "], %%xi;\n", 2 * col);
        }
        if ((k == K_ARRIVE || k == K_DROP) && expects_tx(f) && !dropped)  /* warps 2-3 complete 0-1's bytes */
            conf_put(s, " @%%hi mbarrier.complete_tx.shared.b64 [%%mb], 8;\n");
        if (k == K_EXPECT || (k == K_WAIT && r == 0))
            conf_put(s, " @%%w3 mbarrier.complete_tx.shared.b64 [%%mb], 8;\n");
        if (k == K_COMPLETE)
            conf_put(s, " @%%w3 %s [%s], 8;\n", f->text, addr_of(f));
        put_wait(s, f, counted, r);
        conf_put(s, " ld.shared.b64 %%xi, [%%other];\n st.global.b64 [%%xo+%" PRIu64 "], %%xi;\n", r * col);
        if (dropped)
            conf_put(s, "SKIP%u:\n", r);
        conf_put(s, " not.b64 %%v, %%v;\n bar.sync 0;\n");
        if (k == K_INVAL && r == 0)
            conf_put(s, " @%%zero %s [%s];\n @%%zero mbarrier.init.shared.b64 [%%mb], %u;\n bar.sync 0;\n",
                     f->text, addr_of(f), BLOCK);
    }
    conf_put(s, " ret;\n}\n");
}

/* ---- running and checking ------------------------------------------------- */

/* Who completes bytes after arriving: warps 2-3 (arrive.expect_tx forms),
 * warp 3 (expect_tx, complete_tx), nobody. */
static unsigned kind_tx(const conf_form *f)
{
    unsigned k = kind_of(f);
    return (k == K_ARRIVE || k == K_DROP) && expects_tx(f) ? REF_MBAR_TX_HI
         : k == K_EXPECT || k == K_COMPLETE || k == K_WAIT  ? REF_MBAR_TX_W3 : REF_MBAR_TX_NONE;
}

#define SENTINEL 0x5E5E5E5E5E5E5E5Eull

static conf_outcome run_case(conf_xctx *c, const conf_form *f, bool counted)
{
    unsigned lanes = conf_block_lanes(c->warps, BLOCK);
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, counted, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (unsigned l = 0; l < lanes; l++)
        in[l] = (conf_rand(&c->rng) | 1) & ~(1ull << 63);     /* neither 0 nor ~0, nor the sentinel */
    for (unsigned l = 0; l < 3 * lanes; l++)
        out[l] = SENTINEL;
    conf_outcome oc = conf_launch_cta(c->e, s.p, s.n, lanes, BLOCK, c->msg, sizeof c->msg);
    if (oc != CONF_RAN)
        return oc;
    bool drop = kind_of(f) == K_DROP;
    for (unsigned b = 0; b < lanes / BLOCK; b++) {
        const uint64_t *v = in + (size_t)b * BLOCK;
        for (unsigned t = 0; t < BLOCK; t++) {
            size_t at = (size_t)b * BLOCK + t;
            c->checked++;
            for (unsigned r = 0; r < 2; r++) {
                int p = ref_mbar_partner(t, BLOCK, r, drop);
                uint64_t want = p < 0 ? SENTINEL : r ? ~v[p] : v[p], got = out[r * col + at];
                if (got == want)
                    continue;
                if (c->shown++ < CONF_SHOW)
                    printf("FAIL %s (%s) block %u thread %u phase %u: read 0x%" PRIx64 " want 0x%" PRIx64 "\n",
                           f->text, counted ? "count 2 from even lanes" : "one arrival each", b, t, r, got, want);
                c->failed++;
                break;
            }
            /* The probe right after the arrive must find phase 0 incomplete
             * where bytes it waits for are completed only later by this
             * very thread; elsewhere it depends on the order of the warps.
             * On a GPU a try_wait probe resolves late, after the thread's
             * complete_tx has issued (conf_engine_in_order), so there the
             * probe is not checked. */
            uint64_t probe = out[2 * col + at];
            if (ref_mbar_incomplete(kind_tx(f), t) && probe != 0 && conf_engine_in_order()) {
                if (c->shown++ < CONF_SHOW)
                    printf("FAIL %s block %u thread %u: phase 0 complete before its bytes were\n", f->text, b, t);
                c->failed++;
            }
        }
    }
    return CONF_RAN;
}

int conf_xrun_mbar(conf_xctx *c, const conf_form *f)
{
    unsigned k = kind_of(f);
    bool can_count = (k == K_ARRIVE || k == K_DROP) && !expects_tx(f);
    conf_outcome first = run_case(c, f, needs_count(f));
    if (first != CONF_RAN || !can_count || needs_count(f))
        return first;
    conf_outcome oc = run_case(c, f, true);
    if (oc != CONF_RAN) {
        if (c->shown++ < CONF_SHOW)
            printf("FAIL %s (count 2 from even lanes): %s\n", f->text, c->msg);
        c->failed++;
    }
    return first;
}

/*
 * conf_xctrl.c -- the control-flow family's runner: bra, brx.idx, call,
 * ret and exit (PTX ISA 9.7.12) in kernels whose lanes diverge, checked
 * lane by lane against ref_ctrl.c.
 *
 *   bra      a loop whose lanes leave it after different trip counts, with
 *            an if/else inside; bra.uni only where every active lane goes
 *            the same way (unconditional jumps, a branch on the block).
 *   brx.idx  a table of four targets, the index per lane (.uni: per warp).
 *   call     a callee with an early ret for some lanes and a loop for the
 *            others, called by the whole warp, by half of it from inside a
 *            branch, and (without .uni) indirectly through a .callprototype
 *            with each lane's own function pointer (two callees).
 *   ret      the same callee, its returns spelt as the form (ret.uni: a
 *            callee whose lanes return together).
 *   exit     some lanes exit; the others go on through a divergent loop.
 *   nanosleep  inside that loop: no effect on any value.
 *   trap, brkpt  executed by no lane (nothing happens), then by some lanes
 *            of the first warp: the launch ends with the error (brkpt
 *            with no debugger to stop in ends it as trap does, as on an
 *            H200: CUDA_ERROR_LAUNCH_FAILED for both).
 *   elect    among the lanes left after some exit: one leader, its lane
 *            number in every lane's d, p true in it alone (the ISA does not
 *            say which lane leads).
 *
 * Each lane writes its values and then activemask.  The ISA promises that
 * a lane is in its own active mask and no exited lane is; that the mask
 * is every live lane where the paths join is ptxsim's reconvergence at the
 * immediate post-dominator (README, "SIMT reconvergence stack"), checked
 * too on ptxsim's engine, since vote and shfl after a join rely on it; a
 * GPU with independent thread scheduling does not promise it (an H200
 * leaves the lanes of the nanosleep loop apart after it).
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_BRA, K_BRX, K_CALL, K_RET, K_EXIT, K_NANO, K_BRKPT, K_TRAP, K_ELECT };
#define SENTINEL 0xDEADBEEFu

static unsigned kind_of(const conf_form *f)
{
    return !strcmp(f->op, "bra") ? K_BRA : !strcmp(f->op, "brx") ? K_BRX : !strcmp(f->op, "call") ? K_CALL
         : !strcmp(f->op, "ret") ? K_RET : !strcmp(f->op, "nanosleep") ? K_NANO : !strcmp(f->op, "brkpt") ? K_BRKPT
         : !strcmp(f->op, "trap") ? K_TRAP : !strcmp(f->op, "elect") ? K_ELECT : K_EXIT;
}

static bool uni(const conf_form *f) { return conf_word(f, "uni"); }

/* ---- the kernel ----------------------------------------------------------- */

static void put_funcs(conf_text *s, const conf_form *f)
{
    /* fn: an early return for odd a, a loop for the others. */
    const char *ret = kind_of(f) == K_RET ? f->text : "ret";
    bool diverge = !(kind_of(f) == K_RET && uni(f));
    conf_put(s, ".func (.param .b32 r) fn(.param .b32 a)\n{\n .reg .b32 %%a, %%t, %%i, %%s;\n .reg .pred %%p;\n"
                " ld.param.b32 %%a, [a];\n");
    if (diverge)
        conf_put(s, " and.b32 %%t, %%a, 1;\n setp.ne.u32 %%p, %%t, 0;\n @!%%p bra EVEN;\n"
                    " mad.lo.u32 %%t, %%a, 3, 1;\n st.param.b32 [r], %%t;\n %s;\nEVEN:\n", ret);
    else                                        /* ret.uni: every lane takes the loop */
        conf_put(s, " and.b32 %%a, %%a, -2;\n");
    conf_put(s, " mov.u32 %%s, %%a;\n mov.u32 %%i, 0;\n rem.u32 %%t, %%a, 8;\nLOOP:\n"
                " setp.ge.u32 %%p, %%i, %%t;\n @%%p bra DONE;\n add.u32 %%s, %%s, %%i;\n add.u32 %%i, %%i, 1;\n"
                " bra LOOP;\nDONE:\n st.param.b32 [r], %%s;\n %s;\n}\n", ret);
    conf_put(s, ".func (.param .b32 r) fn2(.param .b32 a)\n{\n .reg .b32 %%a;\n ld.param.b32 %%a, [a];\n"
                " mul.lo.u32 %%a, %%a, 5;\n st.param.b32 [r], %%a;\n ret;\n}\n");
}

/* trap and brkpt: whether the lanes of sel & 1 in the first warp execute
 * it (the launch must then fail), or no lane does. */
static void build(conf_text *s, const conf_form *f, unsigned lanes, bool fire)
{
    uint64_t col = (uint64_t)lanes * 8;
    const char *op = f->text;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n");
    if (kind_of(f) == K_CALL || kind_of(f) == K_RET)
        put_funcs(s, f);
    conf_put(s, ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%fp, %%f1, %%f2;\n"
                " .reg .b32 %%xt, %%xc, %%xk, %%a, %%sel, %%x, %%n, %%m, %%t;\n .reg .pred %%p, %%q;\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.u32 %%a, [%%xa];\n ld.global.u32 %%sel, [%%xa+%" PRIu64 "];\n mov.u32 %%n, 0;\n",
             col);
    switch (kind_of(f)) {
    case K_BRA: {
        /* divergent branches: plain bra unless the form is bra */
        const char *div = uni(f) ? "bra" : op;
        conf_put(s, " rem.u32 %%x, %%a, 1000;\n add.u32 %%x, %%x, 1;\n"
                    " and.b32 %%t, %%xt, 1;\n setp.eq.u32 %%q, %%t, 0;\n @%%q %s SKIP;\n add.u32 %%x, %%x, 1000;\n"
                    "SKIP:\nLOOP:\n setp.eq.u32 %%p, %%x, 1;\n @%%p %s DONE;\n setp.ge.u32 %%p, %%n, 40;\n"
                    " @%%p %s DONE;\n and.b32 %%t, %%x, 1;\n setp.eq.u32 %%p, %%t, 0;\n @%%p %s EVEN;\n"
                    " mad.lo.u32 %%x, %%x, 3, 1;\n %s NEXT;\nEVEN:\n shr.u32 %%x, %%x, 1;\nNEXT:\n"
                    " add.u32 %%n, %%n, 1;\n %s LOOP;\nDONE:\n",
                 op, div, div, div, op, op);
        break;
    }
    case K_BRX:
        conf_put(s, " %s;\n TBL: .branchtargets L0, L1, L2, L3;\n", uni(f) ? "and.b32 %t, %xt, 3" : "and.b32 %t, %sel, 3");
        conf_put(s, " %s %%t, TBL;\nL0:\n add.u32 %%x, %%a, 11;\n bra J;\nL1:\n mul.lo.u32 %%x, %%a, 3;\n bra J;\n"
                    "L2:\n xor.b32 %%x, %%a, 0x55;\n bra J;\nL3:\n sub.u32 %%x, %%a, 7;\nJ:\n",
                 op);
        break;
    case K_CALL:
    case K_RET: {
        const char *call = kind_of(f) == K_CALL ? op : "call";
        /* the whole warp; then the odd-sel lanes from inside a branch */
        conf_put(s, " { .param .b32 pa; .param .b32 pr;\n st.param.b32 [pa], %%a;\n %s (pr), fn, (pa);\n"
                    " ld.param.b32 %%x, [pr]; }\n",
                 call);
        if (!uni(f) || kind_of(f) == K_RET) {
            conf_put(s, " and.b32 %%t, %%sel, 1;\n setp.eq.u32 %%p, %%t, 0;\n @%%p bra NOCALL;\n"
                        " { .param .b32 pa; .param .b32 pr;\n add.u32 %%t, %%a, 1;\n st.param.b32 [pa], %%t;\n"
                        " %s (pr), fn, (pa);\n ld.param.b32 %%n, [pr]; }\nNOCALL:\n",
                     kind_of(f) == K_CALL ? op : "call");
        }
        if (kind_of(f) == K_CALL && !uni(f)) {
            /* indirect: each lane's own callee */
            conf_put(s, " mov.u64 %%f1, fn;\n mov.u64 %%f2, fn2;\n and.b32 %%t, %%sel, 2;\n setp.ne.u32 %%p, %%t, 0;\n"
                        " selp.b64 %%fp, %%f2, %%f1, %%p;\n"
                        " { .param .b32 pa; .param .b32 pr;\n"
                        " proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                        " xor.b32 %%t, %%a, 0x1234;\n st.param.b32 [pa], %%t;\n %s (pr), %%fp, (pa), proto;\n"
                        " ld.param.b32 %%t, [pr];\n add.u32 %%n, %%n, %%t; }\n",
                     op);
        }
        break;
    }
    case K_NANO:
    case K_BRKPT:
    case K_TRAP:
        /* the loop of exit's kernel, no lane leaving; the form inside it */
        if (kind_of(f) == K_TRAP || kind_of(f) == K_BRKPT)
            conf_put(s, " and.b32 %%t, %%sel, 1;\n setp.ne.u32 %%p, %%t, 0;\n setp.eq.and.u32 %%p, %%xt, %s, %%p;\n"
                        " @%%p %s;\n", fire ? "0" : "0xFFFFFFFF", op);
        conf_put(s, " rem.u32 %%t, %%a, 6;\n mov.u32 %%x, %%a;\nLOOP:\n setp.ge.u32 %%p, %%n, %%t;\n @%%p bra DONE;\n"
                    " add.u32 %%x, %%x, %%n;\n add.u32 %%n, %%n, 1;\n");
        if (kind_of(f) == K_NANO)
            conf_put(s, " %s %%t;\n %s 100;\n", op, op);
        conf_put(s, " bra LOOP;\nDONE:\n");
        break;
    case K_ELECT:
        /* the odd-sel lanes exit; the others elect a leader among the
         * membermask's non-exited lanes */
        conf_put(s, " and.b32 %%t, %%sel, 1;\n setp.ne.u32 %%p, %%t, 0;\n @%%p exit;\n"
                    " %s %%x|%%q, 0xFFFFFFFF;\n selp.u32 %%n, 1, 0, %%q;\n", op);
        break;
    default:                                    /* exit: odd-sel lanes end here */
        conf_put(s, " and.b32 %%t, %%sel, 1;\n setp.ne.u32 %%p, %%t, 0;\n @%%p %s;\n"
                    " rem.u32 %%t, %%a, 6;\n mov.u32 %%x, %%a;\nLOOP:\n setp.ge.u32 %%p, %%n, %%t;\n @%%p bra DONE;\n"
                    " add.u32 %%x, %%x, %%n;\n add.u32 %%n, %%n, 1;\n bra LOOP;\nDONE:\n",
                 op);
        break;
    }
    conf_put(s, " activemask.b32 %%m;\n st.global.u32 [%%xo], %%x;\n st.global.u32 [%%xo+%" PRIu64 "], %%n;\n"
                " st.global.u32 [%%xo+%" PRIu64 "], %%m;\n ret;\n}\n",
             col, 2 * col);
}

/* ---- running and checking ------------------------------------------------- */

/* What lane l of block b must write: x, n and whether it exits. */
static bool expect(const conf_form *f, uint32_t a, uint32_t sel, unsigned b, uint32_t *x, uint32_t *n)
{
    *n = 0;
    switch (kind_of(f)) {
    case K_BRA:
        ref_ctrl_loop(a, b & 1, x, n);
        return true;
    case K_BRX:
        *x = ref_ctrl_brx(a, uni(f) ? b : sel);
        return true;
    case K_CALL:
    case K_RET: {
        bool ret_uni = kind_of(f) == K_RET && uni(f);
        uint32_t (*fn)(uint32_t) = ref_ctrl_fn;
        *x = fn(ret_uni ? a & ~1u : a);
        if ((!uni(f) || kind_of(f) == K_RET) && (sel & 1))
            *n = fn(ret_uni ? (a + 1) & ~1u : a + 1);
        if (kind_of(f) == K_CALL && !uni(f))
            *n += (sel & 2 ? ref_ctrl_fn2 : ref_ctrl_fn)(a ^ 0x1234);
        return true;
    }
    case K_ELECT:
        *x = 0;                                 /* checked against the warp's live lanes (conf_xrun_ctrl) */
        return !(sel & 1);
    default:
        if ((sel & 1) && kind_of(f) == K_EXIT)
            return false;
        *x = a;
        for (uint32_t k = 0; k < a % 6; k++)
            *x += k, ++*n;
        return true;
    }
}

static conf_outcome run(conf_xctx *c, const conf_form *f, bool fire)
{
    unsigned lanes = c->warps * 32;
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, lanes, fire);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    for (unsigned l = 0; l < lanes; l++) {
        unsigned shape = (unsigned)(conf_rand(&c->rng) % 8);
        in[l] = shape == 0 ? l % 7 : (uint32_t)conf_rand(&c->rng);   /* small values: short loops */
        in[col + l] = (uint32_t)conf_rand(&c->rng);
        if ((l / 32) % 4 == 1)                   /* some warps do not diverge at all */
            in[col + l] = (uint32_t)in[col + l / 32 * 32];
    }
    for (unsigned l = 0; l < 3 * lanes; l++)
        out[l] = SENTINEL;
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (fire) {
        /* trap in some lanes: the launch ends with the trap's error
         * (ptxsim's engine names the trap; a driver gives its error code,
         * recorded once so the hardware's choice of code is on file) */
        c->checked++;
        if (oc == CONF_ERROR && strstr(c->msg, f->op))
            return CONF_RAN;
        if (oc == CONF_ERROR && strstr(c->msg, "the kernel: ")) {
            static bool told;
            if (!told)
                printf("note: %s ended the launch on %s with %s\n", f->op, conf_engine_name(), c->msg);
            told = true;
            return CONF_RAN;
        }
        c->failed++;
        if (c->shown++ < CONF_SHOW)
            printf("FAIL %s executed by lanes of block 0: %s\n", f->text,
                   oc == CONF_RAN ? "the launch went on" : c->msg);
        return oc == CONF_ERROR ? CONF_RAN : oc;
    }
    if (oc != CONF_RAN)
        return oc;
    for (unsigned w = 0; w < lanes / 32; w++) {
        uint32_t live = 0, want_x[32], want_n[32];
        for (unsigned l = 0; l < 32; l++) {
            unsigned at = w * 32 + l;
            if (expect(f, (uint32_t)in[at], (uint32_t)in[col + at], w, &want_x[l], &want_n[l]))
                live |= 1u << l;
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned at = w * 32 + l;
            uint64_t x = out[at], n = out[col + at], m = out[2 * col + at];
            char what[200] = "";
            if (kind_of(f) == K_ELECT && (live >> l & 1)) {
                /* one leader for the live lanes: the same d for all, a live
                 * lane, and p true in it alone */
                uint32_t leader = (uint32_t)out[w * 32 + (unsigned)__builtin_ctz(live)];
                want_x[l] = leader;
                want_n[l] = l == leader;
                if (leader >= 32 || !(live >> leader & 1))
                    snprintf(what, sizeof what, "leader %u is not a live lane (0x%08" PRIx32 ")", leader, live);
            }
            if (what[0]) {
            } else if (!(live >> l & 1)) {
                if (x != SENTINEL || n != SENTINEL || m != SENTINEL)
                    snprintf(what, sizeof what, "an exited lane wrote x=0x%" PRIx64, x);
            } else if (x != want_x[l] || n != want_n[l]) {
                snprintf(what, sizeof what, "got x=0x%" PRIx64 " n=0x%" PRIx64 " want x=0x%" PRIx32 " n=0x%" PRIx32,
                         x, n, want_x[l], want_n[l]);
            } else if (!(m >> l & 1) || (m & ~(uint64_t)live)) {
                snprintf(what, sizeof what, "active mask 0x%08" PRIx64 " (live lanes 0x%08" PRIx32 ")", m, live);
            } else if (m != live && conf_engine_reconverges()) {
                snprintf(what, sizeof what, "not reconverged: active mask 0x%08" PRIx64 ", live lanes 0x%08" PRIx32,
                         m, live);
            }
            c->checked++;
            if (!what[0])
                continue;
            c->failed++;
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s warp %u lane %u a=0x%" PRIx64 " sel=0x%" PRIx64 ": %s\n", f->text, w, l, in[at],
                       in[col + at], what);
        }
    }
    return CONF_RAN;
}

int conf_xrun_ctrl(conf_xctx *c, const conf_form *f)
{
    conf_outcome oc = run(c, f, false);
    if (oc != CONF_RAN || (kind_of(f) != K_TRAP && kind_of(f) != K_BRKPT))
        return oc;
    return run(c, f, true);
}

/*
 * conf_xcluster.c -- the cluster family's runner: mapa, getctarank and
 * barrier.cluster (PTX ISA 9.7.9.17, 9.7.9.16, 9.7.13.3) in clusters of 2
 * and 4 one-warp blocks.
 *
 * Every thread writes a value into its slot of its block's shared memory,
 * the cluster passes barrier.cluster (arrive, then wait), and each thread
 * maps its slot's address into the next block of the cluster (rank + 1,
 * round the cluster) with mapa, reads the slot there (ld.shared::cluster,
 * or a generic ld for the generic form), and asks getctarank which block
 * the mapped address is in.  A second barrier.cluster keeps every block's
 * shared memory alive until all have read.  ref_cluster.c gives the block
 * a thread reads from.  The form under test is the mapa, the getctarank,
 * or the arrive or wait of both barriers.
 */
#include "refs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_MAPA, K_RANK, K_ARRIVE, K_WAIT };

static unsigned kind_of(const conf_form *f)
{
    if (!strcmp(f->op, "mapa"))
        return K_MAPA;
    if (!strcmp(f->op, "getctarank"))
        return K_RANK;
    return conf_word(f, "arrive") ? K_ARRIVE : K_WAIT;
}

static void build(conf_text *s, const conf_form *f, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned k = kind_of(f);
    /* the address forms: shared::cluster with .u32/.u64 registers, or generic */
    bool cl = (k == K_MAPA || k == K_RANK) && conf_word(f, "shared::cluster");
    bool wide = !cl || f->type[0] == CT_U64;
    const char *mapa = k == K_MAPA ? f->text : cl ? (wide ? "mapa.shared::cluster.u64" : "mapa.shared::cluster.u32")
                     : "mapa.u64";
    const char *rank = k == K_RANK ? f->text
                     : cl ? (wide ? "getctarank.shared::cluster.u64" : "getctarank.shared::cluster.u32")
                          : "getctarank.u64";
    const char *arrive = k == K_ARRIVE ? f->text : "barrier.cluster.arrive";
    const char *wait = k == K_WAIT ? f->text : "barrier.cluster.wait";
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%v, %%a, %%m;\n"
                " .reg .b32 %%xt, %%xc, %%xk, %%rank, %%n, %%to, %%a32, %%m32, %%got;\n"
                " .shared .align 8 .b64 conf_sm[32];\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n ld.global.b64 %%v, [%%xa];\n"
                " mov.u32 %%rank, %%cluster_ctarank;\n mov.u32 %%n, %%cluster_nctarank;\n"
                " add.u32 %%to, %%rank, 1;\n rem.u32 %%to, %%to, %%n;\n"
                " mov.u32 %%a32, conf_sm;\n mad.lo.u32 %%a32, %%xc, 8, %%a32;\n st.shared.b64 [%%a32], %%v;\n"
                " %s;\n %s;\n",
             arrive, wait);
    if (!cl) {                                  /* generic addresses */
        conf_put(s, " cvt.u64.u32 %%a, %%a32;\n cvta.shared.u64 %%a, %%a;\n %s %%m, %%a, %%to;\n"
                    " ld.b64 %%v, [%%m];\n %s %%got, %%m;\n", mapa, rank);
    } else if (wide) {
        conf_put(s, " cvt.u64.u32 %%a, %%a32;\n %s %%m, %%a, %%to;\n ld.shared::cluster.b64 %%v, [%%m];\n"
                    " %s %%got, %%m;\n", mapa, rank);
    } else {
        conf_put(s, " %s %%m32, %%a32, %%to;\n ld.shared::cluster.b64 %%v, [%%m32];\n %s %%got, %%m32;\n", mapa,
                 rank);
    }
    conf_put(s, " st.global.b64 [%%xo], %%v;\n st.global.u32 [%%xo+%" PRIu64 "], %%got;\n %s;\n %s;\n ret;\n}\n",
             col, arrive, wait);
}

int conf_xrun_cluster(conf_xctx *c, const conf_form *f)
{
    static const unsigned sizes[] = { 2, 4 };
    unsigned lanes = conf_block_lanes(c->warps, 128);
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    conf_outcome first = CONF_RAN;
    for (unsigned z = 0; z < 2; z++) {
        unsigned n = sizes[z];
        for (unsigned l = 0; l < lanes; l++)
            in[l] = conf_rand(&c->rng);
        memset(out, 0, 2 * col * 8);
        conf_outcome oc = conf_launch_cluster(c->e, s.p, s.n, lanes, 32, n, c->msg, sizeof c->msg);
        if (z == 0)
            first = oc;
        if (oc != CONF_RAN) {
            if (z == 0)
                return oc;
            c->failed++;
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s (clusters of %u): %s\n", f->text, n, c->msg);
            continue;
        }
        for (unsigned l = 0; l < lanes; l++) {
            unsigned block = l / 32, to_rank, from = ref_cluster_source(block, l % 32, n, &to_rank);
            uint64_t got = out[l], grank = (uint32_t)out[col + l];
            c->checked++;
            if (got == in[from] && grank == to_rank)
                continue;
            c->failed++;
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s (clusters of %u) block %u thread %u: read 0x%" PRIx64 " rank %" PRIu64
                       ", want 0x%" PRIx64 " rank %u\n",
                       f->text, n, block, l % 32, got, grank, in[from], to_rank);
        }
    }
    return first;
}

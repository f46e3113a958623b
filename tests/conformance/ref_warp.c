/*
 * ref_warp.c -- references for the warp-level instructions (PTX ISA 9.7.9.6
 * shfl.sync, 9.7.13.8 activemask, 9.7.13.9 vote.sync, 9.7.13.10
 * match.sync, 9.7.13.11 redux.sync), written from the ISA's descriptions.
 * They see the whole warp: every lane's sources, the lanes that execute the
 * instruction (E: active, guard true) and the membermask M.  The runner
 * (conf_xwarp.c) only makes warps where the ISA defines the result: every
 * lane of E is in M, and every lane of M that has not exited is in E, so
 * "the non-exited threads in membermask" are E.  In warps cut into tiles
 * (cooperative groups' thread_block_tile) each lane's membermask is its
 * tile's part of M, and each tile is a warp of its own: E and M restricted
 * to the tile.
 *
 *   shfl      the ISA's pseudocode: lane j from mode, b[4:0], the clamp
 *             c[4:0] and the segment mask c[12:8]; p = pval; d = a of lane
 *             j, where j is the lane itself when !pval.  A lane j outside E
 *             gives an unpredictable d ("SourceA ... is unpredictable for
 *             inactive/predicated-off threads"); p is still defined.
 *   vote      .all: a true in every lane of E; .any: in some; .uni: the
 *             same in all; .ballot: bit k = a of lane k for k in E, 0 for
 *             the lanes outside membermask and the exited ones.
 *   match     .any: d = the lanes of E whose a equals this lane's (all the
 *             type's bits); .all: d = E and p = true when every lane of E
 *             holds the same a, else d = 0 and p = false.
 *   redux     .add (truncated to 32 bits) .min .max (signed for .s32) over
 *             E, .and .or .xor on the bits; .f32 min/max: +0 > -0, .abs
 *             takes |a|, NaNs are ignored unless all are NaN, .NaN makes
 *             any NaN input give the result NaN; a NaN result is the
 *             canonical NaN 0x7FFFFFFF.
 *   activemask  d = E, the lanes executing it (predicated-on and active).
 */
#include "refs.h"

#include "ref_fp.h"

static bool word(const conf_form *f, const char *w) { return conf_word(f, w); }

static uint64_t width_mask(const conf_form *f)
{
    unsigned bits = conf_types[f->type[0]].bits;
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* ---- shfl ------------------------------------------------------------------ */

static void shfl(const conf_form *f, const conf_warp_in *in, conf_want *w)
{
    for (int lane = 0; lane < 32; lane++) {
        if (!((in->exec >> lane) & 1))
            continue;
        int bval = (int)(in->b[lane] & 31), cval = (int)(in->c[lane] & 31);
        int seg = (int)((in->c[lane] >> 8) & 31);
        int max_lane = (lane & seg) | (cval & ~seg), min_lane = lane & seg, j;
        bool pval;
        if (word(f, "up")) {
            j = lane - bval;
            pval = j >= max_lane;
        } else if (word(f, "down")) {
            j = lane + bval;
            pval = j <= max_lane;
        } else if (word(f, "bfly")) {
            j = lane ^ bval;
            pval = j <= max_lane;
        } else {
            j = min_lane | (bval & ~seg);
            pval = j <= max_lane;
        }
        if (!pval)
            j = lane;
        conf_want *x = &w[lane];
        x->v[1] = pval;
        if ((in->exec >> j) & 1)
            x->v[0] = in->a[j] & 0xFFFFFFFF;
        else
            x->any[0] = true;
    }
}

/* ---- vote ------------------------------------------------------------------ */

static void vote(const conf_form *f, const conf_warp_in *in, conf_want *w)
{
    uint32_t yes = 0;
    for (unsigned l = 0; l < 32; l++)
        if ((in->exec >> l) & 1 && (in->a[l] & 1) != in->neg)
            yes |= 1u << l;
    uint64_t d;
    if (word(f, "ballot"))
        d = yes;
    else if (word(f, "all"))
        d = yes == in->exec;
    else if (word(f, "any"))
        d = yes != 0;
    else
        d = yes == 0 || yes == in->exec;
    for (unsigned l = 0; l < 32; l++)
        w[l].v[0] = d;
}

/* ---- match ----------------------------------------------------------------- */

static void match(const conf_form *f, const conf_warp_in *in, conf_want *w)
{
    uint64_t m = width_mask(f);
    bool all = word(f, "all"), same = true;
    int first = -1;
    for (int l = 0; l < 32; l++) {
        if (!((in->exec >> l) & 1))
            continue;
        if (first < 0)
            first = l;
        same = same && ((in->a[l] ^ in->a[first]) & m) == 0;
        uint32_t eq = 0;
        for (unsigned k = 0; k < 32; k++)
            if ((in->exec >> k) & 1 && ((in->a[k] ^ in->a[l]) & m) == 0)
                eq |= 1u << k;
        w[l].v[0] = eq;
    }
    if (!all)
        return;
    for (unsigned l = 0; l < 32; l++) {
        w[l].v[0] = same ? in->exec : 0;
        w[l].v[1] = same;
    }
}

/* ---- redux ----------------------------------------------------------------- */

/* f32 order for min/max: -0 below +0; NaNs were taken out before. */
static bool f32_less(uint32_t x, uint32_t y)
{
    const ref_fmt *fm = &RF_F32;
    if (rf_iszero(fm, x) && rf_iszero(fm, y))
        return (x >> 31) > (y >> 31);
    return rf_value(fm, x) < rf_value(fm, y);
}

static uint64_t redux_f32(const conf_form *f, const conf_warp_in *in)
{
    bool is_max = word(f, "max"), any_nan = false, have = false;
    uint32_t acc = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!((in->exec >> l) & 1))
            continue;
        uint32_t v = (uint32_t)in->a[l];
        if (conf_has(f, CF_ABS))
            v &= 0x7FFFFFFF;
        if (rf_isnan(&RF_F32, v)) {
            any_nan = true;
            continue;
        }
        if (!have || (is_max ? f32_less(acc, v) : f32_less(v, acc)))
            acc = v;
        have = true;
    }
    if (!have || (any_nan && conf_has(f, CF_NAN)))
        return 0x7FFFFFFF;
    return acc;
}

static void redux(const conf_form *f, const conf_warp_in *in, conf_want *w)
{
    uint64_t d;
    if (f->type[0] == CT_F32) {
        d = redux_f32(f, in);
    } else {
        bool sgn = f->type[0] == CT_S32, first = true;
        uint32_t acc = 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!((in->exec >> l) & 1))
                continue;
            uint32_t v = (uint32_t)in->a[l];
            bool less = sgn ? (int32_t)v < (int32_t)acc : v < acc;
            if (first)
                acc = v;
            else if (word(f, "add"))
                acc += v;
            else if (word(f, "and"))
                acc &= v;
            else if (word(f, "or"))
                acc |= v;
            else if (word(f, "xor"))
                acc ^= v;
            else if (word(f, "min"))
                acc = less ? v : acc;
            else
                acc = less ? acc : v;
            first = false;
        }
        d = acc;
    }
    for (unsigned l = 0; l < 32; l++)
        w[l].v[0] = d;
}

/* ---- entry ----------------------------------------------------------------- */

void ref_warp(const conf_form *f, const conf_warp_in *in, conf_want w[32])
{
    if (in->tile && in->tile < 32) {
        for (unsigned first = 0; first < 32; first += in->tile) {
            uint32_t lanes = (uint32_t)(((1ull << in->tile) - 1) << first);
            conf_warp_in part = *in;
            part.tile = 0;
            part.exec &= lanes;
            part.member &= lanes;
            conf_want pw[32];
            ref_warp(f, &part, pw);
            for (unsigned l = first; l < first + in->tile; l++)
                w[l] = pw[l];
        }
        return;
    }
    memset(w, 0, 32 * sizeof *w);
    if (!strcmp(f->op, "shfl"))
        shfl(f, in, w);
    else if (!strcmp(f->op, "vote"))
        vote(f, in, w);
    else if (!strcmp(f->op, "match"))
        match(f, in, w);
    else if (!strcmp(f->op, "redux"))
        redux(f, in, w);
    else
        for (unsigned l = 0; l < 32; l++)
            w[l].v[0] = in->exec;
}

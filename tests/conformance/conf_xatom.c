/*
 * conf_xatom.c -- the atom family's runner: atom and red on global, shared
 * and generic addresses, with the lanes of a warp hitting distinct cells,
 * one cell, or a few.
 *
 * Each warp owns 256 bytes of memory (32 cells of the type's size, packed,
 * so a 16-bit atomic that spills onto its neighbour shows), set from the
 * input before the instruction and read back after it.  The order in
 * which lanes apply their operations to one cell is unspecified, so a
 * cell is checked by looking for a serial order of its lanes in which
 * every lane's returned value is the cell's value before its turn and the
 * last value is what memory holds (ref_atom.c gives each step).  red
 * returns nothing: where its lanes share a cell and the order would
 * matter (float add, inc, dec), the warp's operands are chosen so that
 * every order gives the same result -- one b for the whole warp, or small
 * integers whose sums are exact.
 *
 * A form without a state space runs twice, its generic address pointing
 * into global memory and into shared memory (cvta).
 */
#include "refs.h"

#include "ref_fp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { I_IDX, I_B, I_C, I_INIT };
enum { O_D, O_MEM };

enum { AT_GLOBAL, AT_SHARED, AT_GENERIC_GLOBAL, AT_GENERIC_SHARED };
static const char *const where_names[] = { "global", "shared", "generic->global", "generic->shared" };

static bool is_red(const conf_form *f) { return !strcmp(f->op, "red"); }
static unsigned type_bits(const conf_form *f) { return conf_types[f->type[0]].bits; }
static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static bool op_is(const conf_form *f, const char *op) { return !strcmp(ref_atom_op(f), op); }
static bool is_float(const conf_form *f) { return conf_types[f->type[0]].kind == CK_F; }

/* ---- the kernel ----------------------------------------------------------- */

static void build(conf_text *s, const conf_form *f, unsigned where, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned bits = type_bits(f), size = bits / 8;
    bool shared = where == AT_SHARED || where == AT_GENERIC_SHARED;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%xw, %%xp, %%xg, %%xv;\n .reg .b32 %%xt, %%xc, %%xk;\n"
                " .reg .b%u %%b, %%c, %%d;\n",
             bits);
    if (shared)
        conf_put(s, " .shared .align 8 .b8 conf_sm[256];\n");
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.u32 %%xk, [%%xa];\n mul.wide.u32 %%xp, %%xk, %u;\n"
                " ld.global.b%u %%b, [%%xa+%" PRIu64 "];\n ld.global.b%u %%c, [%%xa+%" PRIu64 "];\n",
             size, bits, I_B * col, bits, I_C * col);
    if (shared) {
        /* The warp's cells: copied in by lane, 8 bytes each, and out again. */
        conf_put(s, " mov.u64 %%xw, conf_sm;\n mul.wide.u32 %%xi, %%xc, 8;\n add.s64 %%xg, %%xw, %%xi;\n"
                    " ld.global.b64 %%xv, [%%xa+%" PRIu64 "];\n st.shared.b64 [%%xg], %%xv;\n bar.sync 0;\n"
                    " add.s64 %%xp, %%xw, %%xp;\n",
                 I_INIT * col);
        if (where == AT_GENERIC_SHARED)
            conf_put(s, " cvta.shared.u64 %%xp, %%xp;\n");
    } else {
        /* The warp's cells are its 32 values of the output's memory column. */
        conf_put(s, " ld.param.u64 %%xw, [pout];\n add.s64 %%xw, %%xw, %" PRIu64 ";\n"
                    " mul.wide.u32 %%xi, %%xt, 256;\n add.s64 %%xw, %%xw, %%xi;\n add.s64 %%xp, %%xw, %%xp;\n",
                 O_MEM * col);
        if (where == AT_GENERIC_GLOBAL)
            conf_put(s, " cvta.global.u64 %%xp, %%xp;\n");
    }
    if (is_red(f))
        conf_put(s, " %s [%%xp], %%b;\n mov.b%u %%d, 0;\n", f->text, bits);
    else if (op_is(f, "cas"))
        conf_put(s, " %s %%d, [%%xp], %%b, %%c;\n", f->text);
    else
        conf_put(s, " %s %%d, [%%xp], %%b;\n", f->text);
    conf_put(s, " st.global.b%u [%%xo], %%d;\n", bits);
    if (shared)
        conf_put(s, " bar.sync 0;\n ld.shared.b64 %%xv, [%%xg];\n st.global.b64 [%%xo+%" PRIu64 "], %%xv;\n",
                 O_MEM * col);
    conf_put(s, " ret;\n}\n");
}

/* ---- operands ------------------------------------------------------------- */

static unsigned below(conf_rng *r, unsigned n) { return (unsigned)(conf_rand(r) % n); }

/* Cells of the warp's lanes: distinct, all one, a few, or at random. */
static void cells(conf_rng *r, uint64_t *idx)
{
    unsigned shape = below(r, 4), one = below(r, 32), few[4];
    for (unsigned i = 0; i < 4; i++)
        few[i] = below(r, 32);
    for (unsigned l = 0; l < 32; l++)
        idx[l] = l;
    for (unsigned l = 31; l > 0; l--) {          /* a permutation */
        unsigned k = below(r, l + 1);
        uint64_t t = idx[l];
        idx[l] = idx[k];
        idx[k] = t;
    }
    for (unsigned l = 0; l < 32; l++) {
        if (shape == 1)
            idx[l] = one;
        else if (shape == 2)
            idx[l] = few[below(r, 1 + below(r, 4))];
        else if (shape == 3)
            idx[l] = below(r, 32);
    }
}

static const uint64_t int_edges[] = {
    0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE,
    0x100000000ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull,
};

/* A float element of eb bits: edges (zeros, subnormals, infinities, the
 * largest finite), values near 1 and at random. */
static uint64_t float_elem(conf_rng *r, unsigned eb)
{
    unsigned mb = eb == 64 ? 52 : eb == 32 ? 23 : 10, ebits = eb - 1 - mb;
    uint64_t sign = 1ull << (eb - 1), inf = mask_of(ebits) << mb, bias = mask_of(ebits - 1);
    uint64_t v;
    switch (below(r, 6)) {
    case 0: v = below(r, 2) ? 0 : 1 + (conf_rand(r) & mask_of(mb)); break;        /* zero, subnormal */
    case 1: v = below(r, 3) ? inf : inf - 1; break;                                  /* inf, max */
    case 2: v = (bias + below(r, 4) - 2) << mb | (conf_rand(r) & mask_of(mb)); break;
    case 3: v = ((bias + 4) << mb) | (conf_rand(r) & mask_of(mb) & ~mask_of(mb / 2)); break;
    default: v = conf_rand(r) & mask_of(eb - 1); if ((v & inf) == inf) v &= ~(1ull << (eb - 2)); break;
    }
    return (below(r, 2) ? sign : 0) | v;
}

/* A small integer in the float format of the form's elements: sums of a
 * few of them are exact in every order. */
static uint64_t exact_elem(const conf_form *f, int k)
{
    quad x = k;
    uint8_t t = f->type[0];
    const ref_fmt *fm = rf_of(t == CT_F16X2 ? CT_F16 : t == CT_BF16X2 ? CT_BF16 : t);
    return rf_round(fm, x, CR_RN);
}

static uint64_t value(conf_rng *r, const conf_form *f, bool exact, int range)
{
    unsigned bits = type_bits(f);
    if (is_float(f)) {
        unsigned eb = f->type[0] == CT_F16X2 || f->type[0] == CT_BF16X2 ? 16 : bits;
        uint64_t v = 0;
        for (unsigned sh = 0; sh < bits; sh += eb) {
            uint64_t e;
            if (exact)
                e = exact_elem(f, (int)below(r, 2u * (unsigned)range + 1) - range);
            else if (f->type[0] == CT_BF16 || f->type[0] == CT_BF16X2)
                e = float_elem(r, 32) >> 16;
            else
                e = float_elem(r, eb);
            v |= e << sh;
        }
        return v;
    }
    switch (below(r, 4)) {
    case 0: return int_edges[below(r, sizeof int_edges / sizeof int_edges[0])] & mask_of(bits);
    case 1: return below(r, 40);
    case 2: return (0 - (uint64_t)below(r, 40)) & mask_of(bits);
    default: return conf_rand(r) & mask_of(bits);
    }
}

/* One warp's operands and memory.  init[k] is cell k's value (the bytes
 * after 32 cells hold init bytes too: they must not change). */
typedef struct {
    uint64_t idx[32], b[32], c[32];
    uint8_t mem[256];
} warp_case;

static uint64_t cell_get(const uint8_t *mem, unsigned k, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, mem + k * size, size);           /* little-endian host, as the device */
    return v;
}

static void cell_set(uint8_t *mem, unsigned k, unsigned size, uint64_t v) { memcpy(mem + k * size, &v, size); }

static void make_case(conf_rng *r, const conf_form *f, warp_case *w)
{
    unsigned size = type_bits(f) / 8;
    cells(r, w->idx);
    for (unsigned i = 0; i < 256; i += 8) {
        uint64_t v = conf_rand(r);
        memcpy(w->mem + i, &v, 8);
    }
    /* red on a shared cell where the order would matter: every order must
     * give one result (see the header). */
    bool order_free = is_red(f) && (is_float(f) || op_is(f, "inc") || op_is(f, "dec"));
    bool exact = order_free && is_float(f) && below(r, 2);
    bool uniform = order_free && !exact;
    for (unsigned k = 0; k < 32; k++) {
        uint64_t v = value(r, f, exact, 64);
        if ((op_is(f, "inc") || op_is(f, "dec")) && below(r, 2))
            v = below(r, 48);
        cell_set(w->mem, k, size, v);
    }
    uint64_t pool[4];                            /* cas: values the cells may hold */
    for (unsigned i = 0; i < 4; i++)
        pool[i] = i ? value(r, f, false, 0) : cell_get(w->mem, (unsigned)w->idx[0], size);
    uint64_t b0 = value(r, f, exact, 4);
    for (unsigned l = 0; l < 32; l++) {
        w->b[l] = uniform ? b0 : value(r, f, exact, 4);
        w->c[l] = value(r, f, false, 0);
        if (op_is(f, "cas") && below(r, 4)) {
            w->b[l] = below(r, 2) ? pool[below(r, 4)] : cell_get(w->mem, (unsigned)w->idx[l], size);
            w->c[l] = pool[below(r, 4)];
        }
    }
}

/* ---- checking ------------------------------------------------------------- */

typedef struct {
    const conf_form *f;
    bool flush;
    unsigned n;
    uint64_t d[32], b[32], c[32];
    uint64_t final;
    long budget;
} chain;

/* Is there an order of the lanes in `left` that starts from v, returns
 * each lane's d and ends at final?  1 yes, 0 no, -1 gave up. */
static int order_exists(chain *ch, uint64_t v, uint32_t left)
{
    if (!left)
        return ref_atom_same(ch->f, v, ch->final);
    if (--ch->budget < 0)
        return -1;
    uint32_t tried = 0;
    for (unsigned i = 0; i < ch->n; i++) {
        if (!((left >> i) & 1) || !ref_atom_same(ch->f, ch->d[i], v))
            continue;
        bool dup = false;                        /* a lane like one tried: the same subtree */
        for (unsigned j = 0; j < i && !dup; j++)
            dup = (tried >> j) & 1 && ch->b[j] == ch->b[i] && ch->c[j] == ch->c[i];
        if (dup)
            continue;
        tried |= 1u << i;
        int r = order_exists(ch, ref_atom_apply(ch->f, ch->flush, v, ch->b[i], ch->c[i]), left & ~(1u << i));
        if (r)
            return r;
    }
    return 0;
}

static void report_cell(conf_xctx *c, const conf_form *f, unsigned where, unsigned k, uint64_t init,
                        uint64_t got, const chain *ch, const unsigned *lane, const char *why)
{
    if (c->shown++ >= CONF_SHOW)
        return;
    printf("FAIL %s (%s) cell %u: initial 0x%" PRIx64 ", final 0x%" PRIx64 ", lanes", f->text,
           where_names[where], k, init, got);
    for (unsigned i = 0; i < ch->n && i < 6; i++) {
        printf(" %u:b=0x%" PRIx64, lane[i], ch->b[i]);
        if (op_is(f, "cas"))
            printf(",c=0x%" PRIx64, ch->c[i]);
        if (!is_red(f))
            printf("->d=0x%" PRIx64, ch->d[i]);
    }
    printf("%s: %s\n", ch->n > 6 ? " ..." : "", why);
}

static void check_warp(conf_xctx *c, const conf_form *f, unsigned where, const warp_case *w, const uint64_t *d,
                       const uint8_t *mem)
{
    unsigned size = type_bits(f) / 8;
    bool flush = where == AT_GLOBAL || where == AT_GENERIC_GLOBAL;
    for (unsigned k = 0; k < 32; k++) {
        chain ch = { f, flush, 0, {0}, {0}, {0}, cell_get(mem, k, size), 100000 };
        unsigned lane[32];
        for (unsigned l = 0; l < 32; l++) {
            if (w->idx[l] != k)
                continue;
            lane[ch.n] = l;
            ch.d[ch.n] = d[l];
            ch.b[ch.n] = w->b[l];
            ch.c[ch.n] = w->c[l];
            ch.n++;
        }
        uint64_t init = cell_get(w->mem, k, size);
        c->checked++;
        int ok;
        if (is_red(f)) {
            /* Every order gives one result: lane order. */
            uint64_t v = init;
            for (unsigned i = 0; i < ch.n; i++)
                v = ref_atom_apply(f, flush, v, ch.b[i], ch.c[i]);
            ok = ref_atom_same(f, v, ch.final);
            if (!ok) {
                char why[80];
                snprintf(why, sizeof why, "want final 0x%" PRIx64, v);
                report_cell(c, f, where, k, init, ch.final, &ch, lane, why);
            }
        } else {
            ok = order_exists(&ch, init, ch.n >= 32 ? ~0u : (1u << ch.n) - 1);
            if (ok < 0) {
                if (c->verbose)
                    printf("note: %s cell %u: no order found within the search budget\n", f->text, k);
                ok = 1;
            }
            if (!ok) {
                uint64_t v = init;
                for (unsigned i = 0; i < ch.n; i++)
                    v = ref_atom_apply(f, flush, v, ch.b[i], ch.c[i]);
                char why[160];
                snprintf(why, sizeof why, "no serial order gives these (in lane order: final 0x%" PRIx64 ")",
                         v);
                report_cell(c, f, where, k, init, ch.final, &ch, lane, why);
            }
        }
        c->failed += !ok;
    }
    /* The bytes past the cells are no one's: unchanged. */
    if (memcmp(mem + 32 * size, w->mem + 32 * size, 256 - 32 * size) != 0) {
        c->failed++;
        if (c->shown++ < CONF_SHOW)
            printf("FAIL %s (%s): memory past the warp's cells changed\n", f->text, where_names[where]);
    }
}

static conf_outcome run_where(conf_xctx *c, const conf_form *f, unsigned where)
{
    unsigned lanes = c->warps * 32;
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, where, lanes);
    if (s.over) {
        snprintf(c->msg, sizeof c->msg, "kernel text too long");
        return CONF_ERROR;
    }
    warp_case *ws = malloc(c->warps * sizeof *ws);
    if (!ws) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(out, 0, 2 * col * 8);
    for (unsigned wi = 0; wi < c->warps; wi++) {
        warp_case *w = &ws[wi];
        make_case(&c->rng, f, w);
        for (unsigned l = 0; l < 32; l++) {
            size_t at = (size_t)wi * 32 + l;
            in[I_IDX * col + at] = w->idx[l];
            in[I_B * col + at] = w->b[l];
            in[I_C * col + at] = w->c[l];
        }
        memcpy(in + I_INIT * col + wi * 32, w->mem, 256);
        memcpy(out + O_MEM * col + wi * 32, w->mem, 256);
    }
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc == CONF_RAN)
        for (unsigned wi = 0; wi < c->warps; wi++)
            check_warp(c, f, where, &ws[wi], out + O_D * col + wi * 32,
                       (const uint8_t *)(out + O_MEM * col + wi * 32));
    free(ws);
    return oc;
}

int conf_xrun_atom(conf_xctx *c, const conf_form *f)
{
    unsigned wh[2], n = 0;
    if (conf_word(f, "global")) {
        wh[n++] = AT_GLOBAL;
    } else if (conf_word(f, "shared") || conf_word(f, "shared::cta") || conf_word(f, "shared::cluster")) {
        wh[n++] = AT_SHARED;
    } else {
        wh[n++] = AT_GENERIC_GLOBAL;
        wh[n++] = AT_GENERIC_SHARED;
    }
    conf_outcome first = CONF_RAN;
    for (unsigned i = 0; i < n; i++) {
        conf_outcome oc = run_where(c, f, wh[i]);
        if (i == 0)
            first = oc;
        if (oc == CONF_ERROR || (i == 0 && oc != CONF_RAN))
            return oc;
        if (oc != CONF_RAN) {
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s: refused with a %s address: %s\n", f->text, where_names[wh[i]], c->msg);
            c->failed++;
        }
    }
    return first;
}

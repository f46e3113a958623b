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
 * into global memory and into shared memory (cvta); the vector forms,
 * which the ISA allows on global memory only, run once, into global.
 *
 * The vector forms (atom/red.global.add.v4.f32, .add/.min/.max.noftz of
 * .v2-.v8 .f16/.bf16 and .v2-.v4 .f16x2/.bf16x2) are an atomic operation
 * per element: a cell is the whole vector, and each of its elements is
 * checked as a cell of its own.  .b128 (cas, exch) cells are 16 bytes.  A
 * lane's b (and c) has 16 bytes, the vector's elements packed in order,
 * in two input columns; its d likewise in two output columns.
 */
#include "refs.h"

#include "ref_fp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { I_IDX, I_B, I_C, I_INIT, I_B2, I_C2 };   /* I_B2, I_C2: bytes 8-15 of b and c */
enum { O_D, O_MEM, O_D2 };

enum { AT_GLOBAL, AT_SHARED, AT_GENERIC_GLOBAL, AT_GENERIC_SHARED };
static const char *const where_names[] = { "global", "shared", "generic->global", "generic->shared" };

static bool is_red(const conf_form *f) { return !strcmp(f->op, "red"); }
static unsigned type_bits(const conf_form *f) { return conf_types[f->type[0]].bits; }
static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static bool op_is(const conf_form *f, const char *op) { return !strcmp(ref_atom_op(f), op); }
static bool is_float(const conf_form *f) { return conf_types[f->type[0]].kind == CK_F; }
static bool is_b128(const conf_form *f) { return f->type[0] == CT_B128; }

static unsigned vec_of(const conf_form *f)
{
    return conf_word(f, "v8") ? 8 : conf_word(f, "v4") ? 4 : conf_word(f, "v2") ? 2 : 1;
}

/* Bytes of one cell (the whole vector), and the warp's cells: as many as
 * fit its 256 bytes, at most one per lane. */
static unsigned cell_bytes(const conf_form *f) { return type_bits(f) / 8 * vec_of(f); }
static unsigned ncells(const conf_form *f)
{
    unsigned n = 256 / cell_bytes(f);
    return n > 32 ? 32 : n;
}

/* Element e (of `size` bytes) of a 16-byte value held as lo and hi. */
static uint64_t elem16(uint64_t lo, uint64_t hi, unsigned e, unsigned size)
{
    unsigned at = e * size;
    uint64_t v = at < 8 ? lo : hi;
    return (v >> (8 * (at % 8))) & mask_of(size * 8);
}

static void set16(uint64_t *lo, uint64_t *hi, unsigned e, unsigned size, uint64_t v)
{
    unsigned at = e * size;
    uint64_t *p = at < 8 ? lo : hi;
    uint64_t m = mask_of(size * 8) << (8 * (at % 8));
    *p = (*p & ~m) | ((v << (8 * (at % 8))) & m);
}

/* ---- the kernel ----------------------------------------------------------- */

/* The data registers: %b0.. %c0.. %d0.. one per element (.b128: a .b128
 * register each, %bq %cq %dq, and its halves in %b0 %b1 ...). */
static void build(conf_text *s, const conf_form *f, unsigned where, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned nv = vec_of(f), esize = type_bits(f) / 8, csize = cell_bytes(f);
    bool wide = is_b128(f);
    unsigned nr = wide ? 2 : nv, rb = wide ? 64 : type_bits(f), rsize = rb / 8;
    bool shared = where == AT_SHARED || where == AT_GENERIC_SHARED;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%xw, %%xp, %%xg, %%xv;\n .reg .b32 %%xt, %%xc, %%xk;\n"
                " .reg .b%u %%b<%u>, %%c<%u>, %%d<%u>;\n",
             rb, nr, nr, nr);
    if (wide)
        conf_put(s, " .reg .b128 %%bq, %%cq, %%dq;\n");
    if (shared)
        conf_put(s, " .shared .align 16 .b8 conf_sm[256];\n");
    conf_put(s, " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n"
                " ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.u32 %%xk, [%%xa];\n mul.wide.u32 %%xp, %%xk, %u;\n",
             csize);
    /* Register k holds bytes k * rsize.. of the lane's 16 bytes of b (c). */
    for (unsigned k = 0; k < nr; k++) {
        unsigned at = k * rsize;
        conf_put(s, " ld.global.b%u %%b%u, [%%xa+%" PRIu64 "];\n ld.global.b%u %%c%u, [%%xa+%" PRIu64 "];\n",
                 rb, k, (at < 8 ? I_B : I_B2) * col + at % 8, rb, k, (at < 8 ? I_C : I_C2) * col + at % 8);
    }
    if (wide)
        conf_put(s, " mov.b128 %%bq, {%%b0, %%b1};\n mov.b128 %%cq, {%%c0, %%c1};\n");
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
    char bl[96] = "%bq", dl[96] = "%dq";
    if (!wide && nv == 1) {
        snprintf(bl, sizeof bl, "%%b0");
        snprintf(dl, sizeof dl, "%%d0");
    } else if (!wide) {
        size_t nb = 0, nd = 0;
        for (unsigned k = 0; k < nv; k++) {
            nb += (size_t)snprintf(bl + nb, sizeof bl - nb, "%s%%b%u%s", k ? ", " : "{", k, k + 1 == nv ? "}" : "");
            nd += (size_t)snprintf(dl + nd, sizeof dl - nd, "%s%%d%u%s", k ? ", " : "{", k, k + 1 == nv ? "}" : "");
        }
    }
    if (is_red(f)) {
        conf_put(s, " %s [%%xp], %s;\n", f->text, bl);
        for (unsigned k = 0; k < nr; k++)
            conf_put(s, " mov.b%u %%d%u, 0;\n", rb, k);
    } else if (op_is(f, "cas")) {
        conf_put(s, " %s %s, [%%xp], %s, %s;\n", f->text, dl, bl, wide ? "%cq" : "%c0");
    } else {
        conf_put(s, " %s %s, [%%xp], %s;\n", f->text, dl, bl);
    }
    if (wide && !is_red(f))
        conf_put(s, " mov.b128 {%%d0, %%d1}, %%dq;\n");
    for (unsigned k = 0; k < nr; k++) {
        unsigned at = k * rsize;
        conf_put(s, " st.global.b%u [%%xo+%" PRIu64 "], %%d%u;\n", rb, (at < 8 ? O_D : O_D2) * col + at % 8, k);
    }
    (void)esize;
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

/* One warp's operands and memory.  A lane's b and c have 16 bytes each
 * (b, b2: a vector's elements packed, a .b128 value's halves); mem holds
 * the cells, packed, and after them bytes that must not change. */
typedef struct {
    uint64_t idx[32], b[32], b2[32], c[32], c2[32];
    uint8_t mem[256];
} warp_case;

static uint64_t cell_get(const uint8_t *mem, unsigned k, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, mem + k * size, size);           /* little-endian host, as the device */
    return v;
}

static void cell_set(uint8_t *mem, unsigned k, unsigned size, uint64_t v) { memcpy(mem + k * size, &v, size); }

static void make_case128(conf_rng *r, const conf_form *f, warp_case *w)
{
    unsigned nc = ncells(f);
    uint64_t pool[4][2];                        /* cas: values the cells may hold */
    for (unsigned i = 0; i < 4; i++)
        for (unsigned h = 0; h < 2; h++)
            pool[i][h] = i ? conf_rand(r) : cell_get(w->mem, 2 * (unsigned)w->idx[0] + h, 8);
    for (unsigned l = 0; l < 32; l++) {
        w->b[l] = conf_rand(r), w->b2[l] = conf_rand(r);
        w->c[l] = conf_rand(r), w->c2[l] = conf_rand(r);
        if (op_is(f, "cas") && below(r, 4)) {
            /* b: the cell's value, one from the pool, or the cell's value
             * with one half changed (a compare of 8 bytes would match). */
            unsigned k = below(r, 4), at = 2 * (unsigned)(w->idx[l] % nc), how = below(r, 4);
            w->b[l] = how ? cell_get(w->mem, at, 8) : pool[k][0];
            w->b2[l] = how ? cell_get(w->mem, at + 1, 8) : pool[k][1];
            if (how == 2)
                w->b[l] ^= 1ull << below(r, 64);
            if (how == 3)
                w->b2[l] ^= 1ull << below(r, 64);
            k = below(r, 4);
            w->c[l] = pool[k][0], w->c2[l] = pool[k][1];
        }
    }
}

static void make_case(conf_rng *r, const conf_form *f, warp_case *w)
{
    unsigned size = type_bits(f) / 8, nv = vec_of(f), nc = ncells(f);
    cells(r, w->idx);
    for (unsigned l = 0; l < 32; l++)
        w->idx[l] %= nc;
    for (unsigned i = 0; i < 256; i += 8) {
        uint64_t v = conf_rand(r);
        memcpy(w->mem + i, &v, 8);
    }
    if (is_b128(f)) {
        make_case128(r, f, w);
        return;
    }
    /* red on a shared cell where the order would matter: every order must
     * give one result (see the header). */
    bool order_free = is_red(f) && (is_float(f) || op_is(f, "inc") || op_is(f, "dec"));
    bool exact = order_free && is_float(f) && below(r, 2);
    bool uniform = order_free && !exact;
    for (unsigned k = 0; k < nc * nv; k++) {
        uint64_t v = value(r, f, exact, 64);
        if ((op_is(f, "inc") || op_is(f, "dec")) && below(r, 2))
            v = below(r, 48);
        cell_set(w->mem, k, size, v);
    }
    uint64_t pool[4];                            /* cas: values the cells may hold */
    for (unsigned i = 0; i < 4; i++)
        pool[i] = i ? value(r, f, false, 0) : cell_get(w->mem, (unsigned)w->idx[0], size);
    uint64_t b0[8];
    for (unsigned e = 0; e < nv; e++)
        b0[e] = value(r, f, exact, 4);
    for (unsigned l = 0; l < 32; l++) {
        w->b[l] = w->b2[l] = w->c2[l] = 0;
        for (unsigned e = 0; e < nv; e++)
            set16(&w->b[l], &w->b2[l], e, size, uniform ? b0[e] : value(r, f, exact, 4));
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

/* .b128 cells: as order_exists, on values of two halves. */
typedef struct {
    const conf_form *f;
    unsigned n;
    uint64_t d[32][2], b[32][2], c[32][2];
    uint64_t final[2];
    long budget;
} chain128;

static int order128(chain128 *ch, const uint64_t *v, uint32_t left)
{
    if (!left)
        return v[0] == ch->final[0] && v[1] == ch->final[1];
    if (--ch->budget < 0)
        return -1;
    for (unsigned i = 0; i < ch->n; i++) {
        if (!((left >> i) & 1) || ch->d[i][0] != v[0] || ch->d[i][1] != v[1])
            continue;
        uint64_t next[2];
        ref_atom_apply128(ch->f, v, ch->b[i], ch->c[i], next);
        int r = order128(ch, next, left & ~(1u << i));
        if (r)
            return r;
    }
    return 0;
}

static void check_warp128(conf_xctx *c, const conf_form *f, unsigned where, const warp_case *w,
                          const uint64_t *d, const uint64_t *d2, const uint8_t *mem)
{
    unsigned nc = ncells(f);
    for (unsigned k = 0; k < nc; k++) {
        chain128 ch = { f, 0, {{0}}, {{0}}, {{0}}, { cell_get(mem, 2 * k, 8), cell_get(mem, 2 * k + 1, 8) }, 100000 };
        unsigned first = 32;
        for (unsigned l = 0; l < 32; l++) {
            if (w->idx[l] != k)
                continue;
            first = first < 32 ? first : l;
            uint64_t dv[2] = { d[l], d2[l] }, bv[2] = { w->b[l], w->b2[l] }, cv[2] = { w->c[l], w->c2[l] };
            memcpy(ch.d[ch.n], dv, 16);
            memcpy(ch.b[ch.n], bv, 16);
            memcpy(ch.c[ch.n], cv, 16);
            ch.n++;
        }
        if (is_red(f))
            continue;                            /* (no red.b128 in the ISA) */
        uint64_t init[2] = { cell_get(w->mem, 2 * k, 8), cell_get(w->mem, 2 * k + 1, 8) };
        c->checked++;
        int ok = order128(&ch, init, ch.n >= 32 ? ~0u : (1u << ch.n) - 1);
        if (ok < 0)
            ok = 1;
        if (!ok && c->shown++ < CONF_SHOW)
            printf("FAIL %s (%s) cell %u: initial 0x%016" PRIx64 "%016" PRIx64 ", final 0x%016" PRIx64 "%016" PRIx64
                   ", %u lanes, the first %u: b=0x%016" PRIx64 "%016" PRIx64 " -> d=0x%016" PRIx64 "%016" PRIx64
                   ": no serial order gives these\n",
                   f->text, where_names[where], k, init[1], init[0], ch.final[1], ch.final[0], ch.n, first,
                   ch.n ? ch.b[0][1] : 0, ch.n ? ch.b[0][0] : 0, ch.n ? ch.d[0][1] : 0, ch.n ? ch.d[0][0] : 0);
        c->failed += !ok;
    }
}

/* d, d2: the lanes' results (bytes 0-7 and 8-15); mem the warp's memory
 * after the instruction. */
static void check_warp(conf_xctx *c, const conf_form *f, unsigned where, const warp_case *w, const uint64_t *d,
                       const uint64_t *d2, const uint8_t *mem)
{
    unsigned size = type_bits(f) / 8, nv = vec_of(f), nc = ncells(f), used = nc * cell_bytes(f);
    bool flush = where == AT_GLOBAL || where == AT_GENERIC_GLOBAL;
    if (is_b128(f))
        check_warp128(c, f, where, w, d, d2, mem);
    for (unsigned k = 0; k < nc * nv && !is_b128(f); k++) {
        unsigned cell = k / nv, e = k % nv;     /* element e of the vector in cell `cell` */
        chain ch = { f, flush, 0, {0}, {0}, {0}, cell_get(mem, k, size), 100000 };
        unsigned lane[32];
        for (unsigned l = 0; l < 32; l++) {
            if (w->idx[l] != cell)
                continue;
            lane[ch.n] = l;
            ch.d[ch.n] = elem16(d[l], d2[l], e, size);
            ch.b[ch.n] = elem16(w->b[l], w->b2[l], e, size);
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
    if (memcmp(mem + used, w->mem + used, 256 - used) != 0) {
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
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    warp_case *ws = malloc(c->warps * sizeof *ws);
    if (!ws) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(out, 0, 3 * col * 8);
    for (unsigned wi = 0; wi < c->warps; wi++) {
        warp_case *w = &ws[wi];
        make_case(&c->rng, f, w);
        for (unsigned l = 0; l < 32; l++) {
            size_t at = (size_t)wi * 32 + l;
            in[I_IDX * col + at] = w->idx[l];
            in[I_B * col + at] = w->b[l];
            in[I_C * col + at] = w->c[l];
            in[I_B2 * col + at] = w->b2[l];
            in[I_C2 * col + at] = w->c2[l];
        }
        memcpy(in + I_INIT * col + wi * 32, w->mem, 256);
        memcpy(out + O_MEM * col + wi * 32, w->mem, 256);
    }
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    if (oc == CONF_RAN)
        for (unsigned wi = 0; wi < c->warps; wi++)
            check_warp(c, f, where, &ws[wi], out + O_D * col + wi * 32, out + O_D2 * col + wi * 32,
                       (const uint8_t *)(out + O_MEM * col + wi * 32));
    free(ws);
    return oc;
}

int conf_xrun_atom(conf_xctx *c, const conf_form *f)
{
    unsigned wh[2], n = 0;
    /* A vector form checks up to eight elements per cell and a .b128 form
     * 16-byte cells: an eighth (a quarter) of the warps gives as many
     * checks per form as the scalar forms get and keeps the family under
     * 3 s in a plain build (the 2,298 vector and .b128 forms took 3.5 s
     * with every warp). */
    unsigned div = vec_of(f) > 1 ? 8 : is_b128(f) ? 4 : 1;
    c->warps = c->warps / div ? c->warps / div : 1;
    if (conf_word(f, "global")) {
        wh[n++] = AT_GLOBAL;
    } else if (conf_word(f, "shared") || conf_word(f, "shared::cta") || conf_word(f, "shared::cluster")) {
        wh[n++] = AT_SHARED;
    } else {
        wh[n++] = AT_GENERIC_GLOBAL;
        if (vec_of(f) == 1)                     /* vectors: global memory only */
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

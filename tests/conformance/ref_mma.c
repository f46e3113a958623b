/*
 * ref_mma.c -- the reference for mma.sync (PTX ISA 9.7.14.5): the
 * fragment layouts of its "Matrix Fragments for mma.m16n8k*" figures, and
 * D = A * B + C.
 *
 * Lane l is in group g = l / 4 as thread t = l % 4.  Element i of a lane's
 * fragment (registers packed low element first) sits at:
 *
 *   A .row, 16-bit, k16:  (g + 8 (i/2 % 2), 2t + i % 2 + 8 (i / 4))
 *   A .row, 16-bit, k8:   (g + 8 (i / 2), 2t + i % 2)
 *   A tf32 k8:            (g + 8 (i % 2), t + 4 (i / 2))
 *   A 8-bit, k16:         (g + 8 (i / 4), 4t + i % 4)
 *   A 8-bit, k32:         (g + 8 (i/4 % 2), 4t + i % 4 + 16 (i / 8))
 *   A f64 m8n8k4:         (g, t)
 *   B .col:               as A's columns give its rows, with column g
 *                         (16-bit k16: (2t + i % 2 + 8 (i / 2), g); k8:
 *                         (2t + i, g); tf32: (t + 4 i, g); 8-bit k16:
 *                         (4t + i, g); k32: (4t + i % 4 + 16 (i / 4), g);
 *                         f64: (t, g))
 *   C, D m16n8:           (g + 8 (i / 2), 2t + i % 2);  m8n8 f64: (g, 2t + i)
 *
 * The elements are small integers, so D is exact in every type and order.
 */
#include "refs.h"

#include "ref_fp.h"

static unsigned bytes_of(uint8_t t)
{
    return t == CT_U8 || t == CT_S8 ? 1 : t == CT_F16 || t == CT_BF16 ? 2 : t == CT_F64 ? 8 : 4;
}

static const ref_fmt *fmt_of(uint8_t t) { return rf_of(t == CT_TF32 ? CT_F32 : t); }
static bool is_int(uint8_t t) { return t == CT_U8 || t == CT_S8 || t == CT_S32; }

unsigned ref_mma_elems(const ref_mma_case *m, unsigned which)
{
    unsigned rows = which == 1 ? m->k : m->m, cols = which == 0 ? m->k : m->n;
    return rows * cols / 32;
}

void ref_mma_coord(const ref_mma_case *m, unsigned which, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
    unsigned g = lane / 4, t = lane % 4;
    uint8_t ty = m->type[which];
    if (which >= 2) {                           /* C, D */
        if (m->m == 8)
            *r = g, *c = 2 * t + i;
        else
            *r = g + 8 * (i / 2), *c = 2 * t + i % 2;
        return;
    }
    unsigned rr, cc;                            /* A's (row, column), or B's (column, row) */
    if (ty == CT_F64)
        rr = g, cc = t;
    else if (ty == CT_TF32)
        rr = g + 8 * (i % 2), cc = t + 4 * (i / 2);
    else if (bytes_of(ty) == 2 && m->k == 16)
        rr = g + 8 * (i / 2 % 2), cc = 2 * t + i % 2 + 8 * (i / 4);
    else if (bytes_of(ty) == 2)
        rr = g + 8 * (i / 2), cc = 2 * t + i % 2;
    else if (m->k == 16)
        rr = g + 8 * (i / 4), cc = 4 * t + i % 4;
    else
        rr = g + 8 * (i / 4 % 2), cc = 4 * t + i % 4 + 16 * (i / 8);
    if (which == 0) {
        *r = rr, *c = cc;
        return;
    }
    /* B: the same walk down K with column g, over half as many rows of K
     * per register group (B has N = 8 columns, one group of lanes each) */
    if (ty == CT_F64)
        *r = t;
    else if (ty == CT_TF32)
        *r = t + 4 * i;
    else if (bytes_of(ty) == 2)
        *r = 2 * t + i % 2 + 8 * (i / 2);
    else
        *r = 4 * t + i % 4 + 16 * (i / 4);
    *c = g;
}

static uint64_t encode(uint8_t t, long v)
{
    if (is_int(t))
        return (uint64_t)v & (bytes_of(t) == 8 ? ~0ull : (1ull << (8 * bytes_of(t))) - 1);
    return rf_round(fmt_of(t), (quad)v, CR_RN);
}

static long decode(uint8_t t, uint64_t b)
{
    switch (t) {
    case CT_U8: return (long)(uint8_t)b;
    case CT_S8: return (long)(int8_t)b;
    case CT_S32: return (long)(int32_t)b;
    default: return (long)rf_value(fmt_of(t), b);
    }
}

uint64_t ref_mma_small(conf_rng *r, uint8_t t)
{
    uint64_t x = conf_rand(r);
    long v = t == CT_U8 ? (long)(x % 16) : t == CT_S8 ? (long)(x % 16) - 8 : t == CT_S32 ? (long)(x % 201) - 100
           : (long)(x % 7) - 3;
    return encode(t, v);
}

void ref_mma_run(const ref_mma_case *m, const uint64_t (*frag)[32][16], uint64_t (*d)[16])
{
    long a[16][32] = {{0}}, b[32][8] = {{0}}, c[16][8] = {{0}};
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned i = 0; i < ref_mma_elems(m, 0); i++) {
            unsigned r, col;
            ref_mma_coord(m, 0, l, i, &r, &col);
            a[r][col] = decode(m->type[0], frag[0][l][i]);
        }
        for (unsigned i = 0; i < ref_mma_elems(m, 1); i++) {
            unsigned r, col;
            ref_mma_coord(m, 1, l, i, &r, &col);
            b[r][col] = decode(m->type[1], frag[1][l][i]);
        }
        for (unsigned i = 0; i < ref_mma_elems(m, 2); i++) {
            unsigned r, col;
            ref_mma_coord(m, 2, l, i, &r, &col);
            c[r][col] = decode(m->type[2], frag[2][l][i]);
        }
    }
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < ref_mma_elems(m, 3); i++) {
            unsigned r, col;
            ref_mma_coord(m, 3, l, i, &r, &col);
            long s = c[r][col];
            for (unsigned k = 0; k < m->k; k++)
                s += a[r][k] * b[k][col];
            d[l][i] = encode(m->type[3], s);
        }
}

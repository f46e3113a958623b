/*
 * ref_mma.c -- the reference for mma.sync (PTX ISA 9.7.14.5) and mma.sp
 * (9.7.14.6): the fragment layouts of their "Matrix Fragments for
 * mma.m16n8k*" sections, the sparse storage of A, and D = A * B + C.
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
 *                         (16-bit: (2t + i % 2 + 8 (i / 2), g); tf32:
 *                         (t + 4 i, g); 8-bit: (4t + i % 4 + 16 (i / 4),
 *                         g); f64: (t, g)); the sparse shapes' B walks
 *                         further down K the same way
 *   C, D m16n8:           (g + 8 (i / 2), 2t + i % 2);  m8n8 f64: (g, 2t + i)
 *
 * .e4m3 and .e5m2 lay out as .s8 and .u8 do.
 *
 * mma.sp's A (9.7.14.6.2): element i of a lane lies in row `row` and in
 * the chunk of columns starting at `firstcol`, at the place the metadata
 * gives:
 *
 *   16-bit k16:  row g + 8 (i / 2),       firstcol 4t
 *   16-bit k32:  row g + 8 (i/2 % 2),     firstcol 4t + 16 (i / 4)
 *   tf32 k8:     row g + 8 i,             firstcol 2t
 *   tf32 k16:    row g + 8 (i % 2),       firstcol 2t + 8 (i / 2)
 *   8-bit k32:   row g + 8 (i / 4),       firstcol 8t
 *   8-bit k64:   row g + 8 (i/4 % 2),     firstcol 8t + 32 (i / 8)
 *
 * A register holds two non-zero 16-bit elements of a 4-wide chunk, one
 * tf32 of a 2-wide chunk, or four 8-bit elements of 8 consecutive columns
 * (two 4-wide chunks, the lower first).  A 4-wide chunk's metadata is two
 * 2-bit indices, the low one placing the chunk's first stored element (the
 * ::ordered_metadata values 0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110
 * are those with the low index below the high one); a 2-wide chunk's is
 * 0b0100 (column 0) or 0b1110 (column 1) (9.7.14.6.1).  The threads of a
 * group that hold the group's metadata: m16n8k16 .f16/.bf16 and m16n8k8
 * .tf32 one, lane 4g + f; the k32 and k16 .tf32 shapes a pair, 4g + 2f and
 * 4g + 2f + 1; m16n8k64 all four (f = 0).  Which of their bits describes
 * which chunk the ISA draws only in figures, so the runner gives all of a
 * group's chunks one metadata nibble, and the reference reads it from the
 * first contributing lane.
 *
 * The elements are small (integers; for e4m3 and e5m2 halves too), so D
 * is exact in every type and order.
 */
#include "refs.h"

#include "ref_fp.h"

static unsigned bytes_of(uint8_t t)
{
    return t == CT_U8 || t == CT_S8 || t == CT_E4M3 || t == CT_E5M2 ? 1
           : t == CT_F16 || t == CT_BF16 ? 2 : t == CT_F64 ? 8 : 4;
}

static const ref_fmt *fmt_of(uint8_t t) { return rf_of(t == CT_TF32 ? CT_F32 : t); }
static bool is_int(uint8_t t) { return t == CT_U8 || t == CT_S8 || t == CT_S32; }

unsigned ref_mma_elems(const ref_mma_case *m, unsigned which)
{
    unsigned k = which == 0 && m->sparse ? m->k / 2 : m->k;
    unsigned rows = which == 1 ? k : m->m, cols = which == 0 ? k : m->n;
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
    if (which == 1) {                           /* B: down K, column g */
        if (ty == CT_F64)
            *r = t;
        else if (ty == CT_TF32)
            *r = t + 4 * i;
        else if (bytes_of(ty) == 2)
            *r = 2 * t + i % 2 + 8 * (i / 2);
        else
            *r = 4 * t + i % 4 + 16 * (i / 4);
        *c = g;
        return;
    }
    if (ty == CT_F64)
        *r = g, *c = t;
    else if (ty == CT_TF32)
        *r = g + 8 * (i % 2), *c = t + 4 * (i / 2);
    else if (bytes_of(ty) == 2 && m->k == 16)
        *r = g + 8 * (i / 2 % 2), *c = 2 * t + i % 2 + 8 * (i / 4);
    else if (bytes_of(ty) == 2)
        *r = g + 8 * (i / 2), *c = 2 * t + i % 2;
    else if (m->k == 16)
        *r = g + 8 * (i / 4), *c = 4 * t + i % 4;
    else
        *r = g + 8 * (i / 4 % 2), *c = 4 * t + i % 4 + 16 * (i / 8);
}

/* mma.sp: the row of A that element i of lane's fragment lies in, the
 * first column of its chunk, and which of the chunk's stored elements it
 * is (0 or 1; always 0 for tf32). */
static void sparse_coord(const ref_mma_case *m, unsigned lane, unsigned i, unsigned *row, unsigned *first,
                         unsigned *nth)
{
    unsigned g = lane / 4, t = lane % 4;
    uint8_t ty = m->type[0];
    if (ty == CT_TF32) {
        if (m->k == 8)
            *row = g + 8 * i, *first = 2 * t;
        else
            *row = g + 8 * (i % 2), *first = 2 * t + 8 * (i / 2);
        *nth = 0;
    } else if (bytes_of(ty) == 2) {
        if (m->k == 16)
            *row = g + 8 * (i / 2), *first = 4 * t;
        else
            *row = g + 8 * (i / 2 % 2), *first = 4 * t + 16 * (i / 4);
        *nth = i % 2;
    } else {
        if (m->k == 32)
            *row = g + 8 * (i / 4), *first = 8 * t;
        else
            *row = g + 8 * (i / 4 % 2), *first = 8 * t + 32 * (i / 8);
        *first += 4 * (i % 4 / 2);              /* the register's second 4-wide chunk */
        *nth = i % 2;
    }
}

unsigned ref_mma_meta_lanes(const ref_mma_case *m)
{
    if (m->k == 64)
        return 4;
    if ((m->type[0] == CT_TF32 && m->k == 8) || (bytes_of(m->type[0]) == 2 && m->k == 16))
        return 1;
    return 2;
}

static uint64_t encode(uint8_t t, double v)
{
    if (is_int(t))
        return (uint64_t)(int64_t)v & (bytes_of(t) == 8 ? ~0ull : (1ull << (8 * bytes_of(t))) - 1);
    return rf_round(fmt_of(t), (quad)v, CR_RN);
}

static double decode(uint8_t t, uint64_t b)
{
    switch (t) {
    case CT_U8: return (double)(uint8_t)b;
    case CT_S8: return (double)(int8_t)b;
    case CT_S32: return (double)(int32_t)b;
    default: return (double)rf_value(fmt_of(t), b);
    }
}

uint64_t ref_mma_small(conf_rng *r, uint8_t t)
{
    uint64_t x = conf_rand(r);
    double v = t == CT_U8 ? (double)(x % 16) : t == CT_S8 ? (double)(x % 16) - 8
             : t == CT_S32 ? (double)(x % 201) - 100
             : t == CT_E4M3 || t == CT_E5M2 ? ((double)(x % 13) - 6) / 2    /* -3, -2.5, ..., 3 */
             : (double)(x % 7) - 3;
    return encode(t, v);
}

uint32_t ref_mma_meta_nibble(conf_rng *r, const ref_mma_case *m)
{
    static const uint8_t ordered[] = { 0x4, 0x8, 0x9, 0xC, 0xD, 0xE };
    uint64_t x = conf_rand(r);
    if (m->type[0] == CT_TF32)
        return x % 2 ? 0xE : 0x4;
    if (m->ordered)
        return ordered[x % 6];
    unsigned lo = (unsigned)(x % 4), hi = (unsigned)((lo + 1 + (x >> 8) % 3) % 4);  /* hi != lo */
    return hi << 2 | lo;
}

void ref_mma_run(const ref_mma_case *m, const uint64_t (*frag)[32][16], const uint32_t *meta, unsigned sel,
                 uint64_t (*d)[16])
{
    double a[16][64] = {{0}}, b[64][8] = {{0}}, c[16][8] = {{0}};
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned i = 0; i < ref_mma_elems(m, 0); i++) {
            unsigned r, col;
            double v = decode(m->type[0], frag[0][l][i]);
            if (!m->sparse) {
                ref_mma_coord(m, 0, l, i, &r, &col);
                a[r][col] = v;
                continue;
            }
            unsigned first, nth;
            sparse_coord(m, l, i, &r, &first, &nth);
            uint32_t nib = meta[l / 4 * 4 + sel * ref_mma_meta_lanes(m)] & 0xF;
            if (m->type[0] == CT_TF32)
                col = first + (nib == 0xE);
            else
                col = first + (nth ? nib >> 2 : nib & 3);
            a[r][col] = v;
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
            double s = c[r][col];
            for (unsigned k = 0; k < m->k; k++)
                s += a[r][k] * b[k][col];
            d[l][i] = encode(m->type[3], s);
        }
}

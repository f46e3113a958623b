/*
 * ref_matrix.c -- the reference for ldmatrix, stmatrix and movmatrix of
 * 8x8 .b16 matrices (PTX ISA 9.7.9.26-28):
 *
 *   For .x1/.x2/.x4, matrix i's row j is at the address lane 8i + j
 *   gives.  In the fragment, lane t holds row t / 4, columns 2 (t % 4) and
 *   2 (t % 4) + 1 of each matrix, in one .b32 register per matrix (the
 *   lower column in the low half); .trans swaps rows and columns (lane t
 *   holds column t / 4, rows 2 (t % 4) and 2 (t % 4) + 1).  ldmatrix reads
 *   the matrices into fragments, stmatrix writes fragments to the rows,
 *   movmatrix.trans turns one fragment into its transpose's.
 */
#include "refs.h"

/* Element (r, c) of matrix i: column c of the row lane 8i + r names. */
static uint16_t *at(uint16_t (*rows)[8], const uint8_t *names, unsigned i, unsigned r, unsigned c)
{
    return &rows[names[8 * i + r]][c];
}

void ref_ldmatrix(uint16_t (*rows)[8], const uint8_t *names, unsigned n, bool trans, uint32_t (*want)[32])
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned t = 0; t < 32; t++) {
            unsigned r = t / 4, c = 2 * (t % 4);
            uint32_t e0 = trans ? *at(rows, names, i, c, r) : *at(rows, names, i, r, c);
            uint32_t e1 = trans ? *at(rows, names, i, c + 1, r) : *at(rows, names, i, r, c + 1);
            want[i][t] = e0 | e1 << 16;
        }
}

void ref_stmatrix(uint16_t (*rows)[8], const uint8_t *names, uint32_t (*regs)[32], unsigned n, bool trans)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned t = 0; t < 32; t++) {
            unsigned r = t / 4, c = 2 * (t % 4);
            uint16_t e0 = (uint16_t)regs[i][t], e1 = (uint16_t)(regs[i][t] >> 16);
            *(trans ? at(rows, names, i, c, r) : at(rows, names, i, r, c)) = e0;
            *(trans ? at(rows, names, i, c + 1, r) : at(rows, names, i, r, c + 1)) = e1;
        }
}

void ref_movmatrix(const uint32_t *a, uint32_t *want)
{
    for (unsigned t = 0; t < 32; t++) {
        unsigned r = t / 4, c = 2 * (t % 4);
        /* element (x, y) of the source is half y % 2 of lane 4x + y / 2 */
        uint32_t e0 = (a[4 * c + r / 2] >> (16 * (r % 2))) & 0xFFFF;
        uint32_t e1 = (a[4 * (c + 1) + r / 2] >> (16 * (r % 2))) & 0xFFFF;
        want[t] = e0 | e1 << 16;
    }
}

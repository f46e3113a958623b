/*
 * ref_wmma.c -- the reference for wmma (PTX ISA 9.7.14.4), through memory:
 *
 *   wmma.load reads an M x K (A), K x N (B) or M x N (C) matrix whose
 *   element (i, j) is at i * stride + j (.row) or j * stride + i (.col),
 *   stride in elements; wmma.mma computes D = A * B + C; wmma.store writes
 *   D the same way and no other byte.  The fragments in between are the
 *   implementation's.
 *
 * The elements are small integers (ref_wmma_fill), so every product and
 * sum is exact in every type and order, and D is exact too.
 */
#include "refs.h"

#include "ref_fp.h"

static unsigned bytes_of(uint8_t t)
{
    return t == CT_U8 || t == CT_S8 ? 1 : t == CT_F16 || t == CT_BF16 ? 2 : t == CT_F64 ? 8 : 4;
}

/* The format a float type's bits are read in (tf32: its f32 container). */
static const ref_fmt *fmt_of(uint8_t t) { return rf_of(t == CT_TF32 ? CT_F32 : t); }

static bool is_int(uint8_t t) { return t == CT_U8 || t == CT_S8 || t == CT_S32; }

static uint64_t encode(uint8_t t, long v)
{
    if (is_int(t))
        return (uint64_t)v & (bytes_of(t) == 8 ? ~0ull : (1ull << (8 * bytes_of(t))) - 1);
    return rf_round(fmt_of(t), (quad)v, CR_RN);
}

void ref_wmma_fill(conf_rng *r, uint8_t type, uint8_t *p, unsigned bytes)
{
    unsigned n = bytes_of(type);
    for (unsigned at = 0; at + n <= bytes; at += n) {
        long v;
        uint64_t x = conf_rand(r);
        switch (type) {
        case CT_U8: v = (long)(x % 16); break;
        case CT_S8: v = (long)(x % 16) - 8; break;
        case CT_S32: v = (long)(x % 201) - 100; break;
        default: v = (long)(x % 7) - 3; break;
        }
        uint64_t b = encode(type, v);
        memcpy(p + at, &b, n);                  /* little-endian host, as the device */
    }
}

static uint64_t raw(const ref_wmma_mat *m, unsigned i, unsigned j)
{
    unsigned n = bytes_of(m->type);
    size_t at = ((size_t)(m->col ? j * m->stride + i : i * m->stride + j)) * n;
    uint64_t v = 0;
    memcpy(&v, m->p + at, n);
    return v;
}

static long value(const ref_wmma_mat *m, unsigned i, unsigned j)
{
    uint64_t b = raw(m, i, j);
    switch (m->type) {
    case CT_U8: return (long)(uint8_t)b;
    case CT_S8: return (long)(int8_t)b;
    case CT_S32: return (long)(int32_t)b;
    default: return (long)rf_value(fmt_of(m->type), b);
    }
}

bool ref_wmma_check(const ref_wmma_mat *m, unsigned k, bool sat, unsigned area, unsigned *out_r, unsigned *out_c,
                    uint64_t *got, uint64_t *want)
{
    (void)sat;                                  /* small values never saturate */
    const ref_wmma_mat *a = &m[0], *b = &m[1], *c = &m[2], *d = &m[3];
    unsigned n = bytes_of(d->type);
    uint8_t touched[4096] = {0};
    for (unsigned i = 0; i < d->rows; i++)
        for (unsigned j = 0; j < d->cols; j++) {
            long s = value(c, i, j);
            for (unsigned kk = 0; kk < k; kk++)
                s += value(a, i, kk) * value(b, kk, j);
            uint64_t w = encode(d->type, s), g = raw(d, i, j);
            size_t at = ((size_t)(d->col ? j * d->stride + i : i * d->stride + j)) * n;
            memset(touched + at, 1, n);
            if (g != w) {
                *out_r = i, *out_c = j, *got = g, *want = w;
                return false;
            }
        }
    for (unsigned at = 0; at < area && at < sizeof touched; at++)    /* no other byte */
        if (!touched[at] && d->p[at]) {
            *out_r = *out_c = ~0u;
            *got = d->p[at];
            *want = 0;
            return false;
        }
    return true;
}

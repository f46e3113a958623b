/*
 * conf_values.c -- operand values: the edges of each type, met in every
 * combination where the lanes allow it, then random values of shapes that
 * find rounding and overflow mistakes (short significands that make exact
 * ties, neighbours of another operand that cancel, integers and halves for
 * the round-to-integer modes, the boundaries of every integer width).
 */
#include "conf.h"

#include <string.h>

uint64_t conf_rand(conf_rng *r)
{
    /* xorshift64*: fixed seed, so every run sees the same values. */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}

static unsigned below(conf_rng *r, unsigned n) { return (unsigned)(conf_rand(r) % n); }

/* ---- edges ----------------------------------------------------------------- */

/* Integers: zero, one, all ones, the signed and unsigned boundaries of
 * every width up to the type's (so that conversions with .sat meet them),
 * shift counts around each width, alternating bit patterns. */
static const uint64_t int_edges[] = {
    0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256,
    0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0x100000000ull,
    0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x8000000000000001ull, 0xFFFFFFFFFFFFFFFFull,
    0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFF80ull, 0xFFFFFFFFFFFF8000ull, 0xFFFFFFFF80000000ull,
    0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull, 0x00FF00FF00FF00FFull, 0x0123456789ABCDEFull,
};

/* f32: zeros, ones, infinities, NaNs with payloads (quiet, signalling,
 * negative), the subnormal and normal extremes, ties for the integer
 * roundings (0.5, 1.5, 2.5), the boundaries of the integer types (2^31,
 * 2^32, 2^63, 2^64 and their neighbours), the f16 and bf16 overflow ties,
 * powers near the ends of div.approx's range, and a few ordinary values. */
static const uint64_t f32_edges[] = {
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000,
    0x7FC00000, 0x7F800001, 0xFFC00001, 0x7FFFFFFF, 0xFFBFFFFF,
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x3F000000, 0xBF000000, 0x3FC00000, 0xBFC00000, 0x40200000, 0xC0200000, 0x3F7FFFFF, 0x3F800001,
    0x4B000000, 0x4B000001, 0x4B7FFFFF, 0x4F000000, 0x4EFFFFFF, 0xCF000000, 0xCF000001, 0x4F800000,
    0x4F7FFFFF, 0x5F000000, 0x5EFFFFFF, 0xDF000000, 0xDF000001, 0x5F800000, 0x5F7FFFFF,
    0x477FE000, 0x477FF000, 0xC77FF000, 0x7F7F8000, 0x33800000, 0x33000000, 0x3EAAAAAB, 0x40490FDB,
    0x7E800000, 0x7F000000, 0x01000000, 0x42FE0000, 0xC3000000, 0x437F0000, 0x43800000, 0xBF7FFFFF,
};

static const uint64_t f64_edges[] = {
    0, 0x8000000000000000ull, 0x3FF0000000000000ull, 0xBFF0000000000000ull,
    0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x7FF8000000000000ull, 0x7FF0000000000001ull,
    0xFFF8000000000001ull, 0x7FFFFFFFFFFFFFFFull,
    0x0000000000000001ull, 0x8000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x0010000000000000ull,
    0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x3FE0000000000000ull, 0x3FF8000000000000ull,
    0xBFF8000000000000ull, 0x4004000000000000ull, 0x3FEFFFFFFFFFFFFFull, 0x3FF0000000000001ull,
    0x41E0000000000000ull, 0x41DFFFFFFFC00000ull, 0x41DFFFFFFFFFFFFFull, 0xC1E0000000000000ull,
    0xC1E0000000200000ull, 0x41F0000000000000ull, 0x41EFFFFFFFE00000ull, 0x43E0000000000000ull,
    0x43DFFFFFFFFFFFFFull, 0xC3E0000000000000ull, 0x43F0000000000000ull, 0x43EFFFFFFFFFFFFFull,
    0x47EFFFFFE0000000ull, 0x47EFFFFFF0000000ull, 0x36A0000000000000ull, 0x3690000000000000ull,
    0x380FFFFFF0000000ull, 0x3FD5555555555555ull, 0x400921FB54442D18ull, 0x40EFFE0000000000ull,
    0x40EFFF0000000000ull, 0x4330000000000000ull, 0x4330000000000001ull,
    0x3FF0020000000001ull, 0x3FF0100000000001ull, 0x3FF0000010000000ull, 0x3FF0000030000001ull,
};

/* f16 / bf16: the same shapes in 16 bits. */
static const uint64_t f16_edges[] = {
    0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE01, 0x7FFF,
    0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF, 0x3800, 0x3E00,
    0xBE00, 0x4100, 0x3BFF, 0x3C01, 0x1000, 0x1400, 0x3555, 0x5BFF, 0x6400, 0xC000,
    0x57F0, 0x5800, 0xD800, 0xD808, 0x5BF8, 0x5C00, 0x5BFC, 0x57F8, 0x3A00, 0xBA00,
};
static const uint64_t bf16_edges[] = {
    0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFC1, 0x7FFF,
    0x0001, 0x8001, 0x007F, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F, 0x3F00, 0x3FC0,
    0xBFC0, 0x4020, 0x3F7F, 0x3F81, 0x3B80, 0x3C00, 0x3EAB, 0x4B00, 0x4F00, 0xC000,
};
/* 8-bit float codes: zeros, the largest finite values, NaN and infinity
 * patterns of both formats, subnormals, ordinary values. */
static const uint64_t f8_edges[] = {
    0x00, 0x80, 0x7E, 0xFE, 0x7F, 0xFF, 0x7B, 0x7C, 0x7D, 0xFC, 0x01, 0x81, 0x07, 0x08, 0x03,
    0x04, 0x38, 0x3C, 0x40, 0xB8, 0x77, 0x78,
};

typedef struct { const uint64_t *v; unsigned n; } edge_list;
#define LIST(x) (edge_list){ x, sizeof x / sizeof x[0] }

static edge_list edges_of(uint8_t t, uint8_t gen)
{
    static const uint64_t pred_edges[] = { 0, 1 };
    if (gen == CG_SHIFT || gen == CG_BYTE || gen == CG_PRMT)
        return LIST(int_edges);
    switch (t) {
    case CT_PRED: return LIST(pred_edges);
    case CT_F32: case CT_TF32: case CT_F32X2: return LIST(f32_edges);
    case CT_F64: return LIST(f64_edges);
    case CT_F16: case CT_F16X2: return LIST(f16_edges);
    case CT_BF16: case CT_BF16X2: return LIST(bf16_edges);
    case CT_E4M3X2: case CT_E5M2X2: return LIST(f8_edges);
    default: return LIST(int_edges);
    }
}

static bool is_pair(uint8_t t)
{
    return t == CT_F16X2 || t == CT_BF16X2 || t == CT_E4M3X2 || t == CT_E5M2X2 || t == CT_F32X2;
}

/* The value of edge k (pairs: two edges, k and a partner, so the two
 * elements differ and every edge lands in each half). */
static uint64_t edge_value(edge_list e, uint8_t t, unsigned k)
{
    if (!is_pair(t))
        return e.v[k % e.n];
    unsigned hb = conf_types[t].bits / 2;
    return e.v[k % e.n] | e.v[(k * 7 + 3) % e.n] << hb;
}

/* ---- random shapes --------------------------------------------------------- */

typedef struct { unsigned ebits, mbits; } fp_shape;

static fp_shape shape_of(uint8_t t)
{
    switch (t) {
    case CT_F16: case CT_F16X2: return (fp_shape){ 5, 10 };
    case CT_BF16: case CT_BF16X2: return (fp_shape){ 8, 7 };
    case CT_F64: return (fp_shape){ 11, 52 };
    case CT_E4M3X2: return (fp_shape){ 4, 3 };
    case CT_E5M2X2: return (fp_shape){ 5, 2 };
    default: return (fp_shape){ 8, 23 };
    }
}

/* A float of the shape near 1 (exponent within +-spread of the bias), its
 * significand cut to a random number of leading bits so that sums and
 * products of such values often land exactly on rounding ties. */
static uint64_t fp_moderate(conf_rng *r, fp_shape s, unsigned spread)
{
    uint64_t bias = (1ull << (s.ebits - 1)) - 1;
    uint64_t e = bias + below(r, 2 * spread + 1) - spread;
    uint64_t emax = (1ull << s.ebits) - 2;
    if (e < 1)
        e = below(r, 2);
    if (e > emax)
        e = emax;
    uint64_t m = conf_rand(r) & ((1ull << s.mbits) - 1);
    unsigned keep = below(r, s.mbits + 1);
    m &= ~((1ull << (s.mbits - keep)) - 1);
    uint64_t sign = (conf_rand(r) & 1) << (s.ebits + s.mbits);
    return sign | e << s.mbits | m;
}

/* An integer or an integer and a half, as a float of the shape. */
static uint64_t fp_integral(conf_rng *r, fp_shape s)
{
    double v = (double)below(r, 40) - 20 + (below(r, 2) ? 0.5 : 0);
    if (s.mbits == 52) {
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    if (s.mbits == 23)
        return u;
    if (s.mbits == 7)
        return u >> 16;                     /* exact: at most 7 significant bits */
    /* f16: rebias the exponent (values up to 20.5 are exact). */
    if (!(u & 0x7FFFFFFF))
        return (u >> 16) & 0x8000;
    uint32_t e = ((u >> 23) & 0xFF) - 127 + 15;
    return ((u >> 16) & 0x8000) | e << 10 | ((u >> 13) & 0x3FF);
}

/* A neighbour of x: a few units in the last place either way, or its low
 * bits scrambled, so that subtraction cancels and comparisons tie. */
static uint64_t fp_neighbour(conf_rng *r, uint64_t x, fp_shape s)
{
    uint64_t sign = 1ull << (s.ebits + s.mbits);
    switch (below(r, 4)) {
    case 0: return x + below(r, 5) - 2;
    case 1: return x ^ (conf_rand(r) & 0xFF);
    case 2: return x ^ sign;                /* the negation: exact zero sums */
    default: return x;
    }
}

static uint64_t width_mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static uint64_t random_float(conf_rng *r, uint8_t t, const uint64_t *first, unsigned lane, uint8_t ft)
{
    if (is_pair(t)) {
        uint8_t et = t == CT_F16X2 ? CT_F16 : t == CT_BF16X2 ? CT_BF16 : t == CT_F32X2 ? CT_F32 : t;
        unsigned hb = conf_types[t].bits / 2;
        if (t == CT_E4M3X2 || t == CT_E5M2X2)
            return conf_rand(r) & 0xFFFF;
        uint64_t lo = random_float(r, et, first ? first : NULL, lane, ft == t ? et : CT_NONE);
        uint64_t hi = random_float(r, et, NULL, lane, CT_NONE);
        if (first && ft == t && below(r, 3) == 0)
            hi = fp_neighbour(r, first[lane] >> hb, shape_of(et)) & width_mask(hb);
        return (lo & width_mask(hb)) | (hi & width_mask(hb)) << hb;
    }
    fp_shape s = shape_of(t);
    unsigned bits = 1 + s.ebits + s.mbits;
    switch (below(r, 8)) {
    case 0: case 1: return conf_rand(r) & width_mask(bits);
    case 2: return fp_moderate(r, s, (1u << (s.ebits - 1)) - 2);
    case 3: case 4: return fp_moderate(r, s, s.ebits >= 8 ? 30 : 6);
    case 5: return fp_integral(r, s);
    default:
        if (first && ft == t)
            return fp_neighbour(r, first[lane], s) & width_mask(bits);
        return fp_moderate(r, s, 3);
    }
}

static uint64_t random_int(conf_rng *r, unsigned bits, uint8_t gen)
{
    if (gen == CG_SHIFT || gen == CG_BYTE) {
        unsigned top = gen == CG_BYTE ? 72 : 2 * bits + 4;
        return below(r, 4) ? below(r, top) : conf_rand(r) & 0xFFFFFFFF;
    }
    uint64_t m = width_mask(bits), v = conf_rand(r);
    switch (below(r, 6)) {
    case 0: case 1: return v & m;
    case 2: return ((uint64_t)below(r, 129) - 64) & m;                 /* small, both signs */
    case 3: return (v >> below(r, 64)) & m;                            /* a random length */
    case 4: {                                                          /* near a boundary */
        unsigned w = 8u << below(r, 4);
        uint64_t edge = below(r, 2) ? 1ull << (w - 1) : (w >= 64 ? 0 : 1ull << w);
        return (edge + below(r, 9) - 4) & m;
    }
    default: return ~(v >> below(r, 64)) & m;                          /* negative of a random length */
    }
}

void conf_values(conf_rng *r, const conf_form *f, unsigned pos, uint64_t *vals, unsigned lanes,
                 const uint64_t *first)
{
    const conf_opd *o = &f->src[pos];
    uint8_t t = o->type, gen = f->tpl->gen[pos];
    unsigned bits = conf_types[t].bits;
    /* The edge combinations: every combination when they fit in half the
     * lanes (the first source varying fastest), random ones otherwise. */
    uint64_t combos = 1, stride = 1;
    for (unsigned k = 0; k < f->nsrc; k++) {
        unsigned n = f->src[k].kind == CO_IMM ? 1 : edges_of(f->src[k].type, f->tpl->gen[k]).n;
        if (k < pos)
            stride *= n;
        combos *= n;
    }
    edge_list e = edges_of(t, gen);
    unsigned half = lanes / 2;
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t v;
        if (t == CT_PRED) {
            v = conf_rand(r) & 1;
        } else if (l < half) {
            unsigned k = combos <= half ? (unsigned)((l / stride) % e.n) : below(r, e.n * 2);
            v = edge_value(e, t, k);
        } else if (conf_types[t].kind == CK_F && gen == CG_DEFAULT) {
            v = random_float(r, t, first, l, first ? f->src[0].type : CT_NONE);
        } else {
            v = random_int(r, bits, gen);
        }
        vals[l] = v & width_mask(bits);
    }
}

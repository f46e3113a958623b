/*
 * conf_xsample.c -- the image family's sampling runner: tex on layered
 * (a1d, a2d) and cube-map (cube, acube) textures, tex.level and tex.grad,
 * and linear filtering (PTX ISA 9.7.10.3 tex), on texture objects made by
 * conf_engine_image as the runtime makes them from CUDA arrays.
 *
 * Each form runs with nearest filtering (every destination type; integer
 * coordinates on texel indices, float ones inside texels; some up to two
 * texels outside, clamped) and, where it returns floats from float
 * coordinates on a geometry that is not a cube map, with linear
 * filtering: coordinates k / 256 + 1 / 2048 past a texel centre, where an
 * 8-bit weight cut or rounded is the same, and the result compared with
 * the exact weighted sum within the error of accumulating it in f32.
 * Layers are drawn in range and, one lane in 8, past the last one (the
 * index clamps, as graphics APIs clamp an array index); cube directions aim at the centre of a texel
 * of a face, scaled by a power of two.  .level and .grad take random
 * levels of detail and gradients: the textures have one level, which they
 * must sample (the runtime creates no mipmapped arrays).
 */
#include "refs.h"

#include "isa.h"


#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define IMAGE_AT (3u << 20)     /* the image's bytes: this far into the input buffer */
#define LAYERS 3                /* of the layered textures (cube-map arrays: 2 cubes) */

typedef enum { G_1D, G_2D, G_3D, G_A1D, G_A2D, G_CUBE, G_ACUBE } geom;

static geom geom_of(const conf_form *f)
{
    static const char *const names[] = { "1d", "2d", "3d", "a1d", "a2d", "cube", "acube" };
    for (unsigned g = 0; g < 7; g++)
        if (conf_word(f, names[g]))
            return (geom)g;
    return G_1D;
}

static bool layered(geom g) { return g == G_A1D || g == G_A2D || g == G_ACUBE; }
static bool cube(geom g) { return g == G_CUBE || g == G_ACUBE; }

/* Coordinate words: layered ones start with the layer; 3-d and cube ones
 * are .v4 (the fourth ignored). */
static unsigned ncoords(geom g)
{
    switch (g) {
    case G_1D: return 1;
    case G_2D: case G_A1D: return 2;
    default: return 4;
    }
}

static ref_sampled image_of(geom g)
{
    static const uint32_t sizes[7][3] = { { 16, 1, 1 }, { 8, 8, 1 }, { 4, 4, 4 }, { 16, 1, 1 }, { 8, 8, 1 },
                                          { 8, 8, 1 }, { 8, 8, 1 } };
    ref_sampled im = { g == G_3D ? 3 : g == G_1D || g == G_A1D ? 1 : 2,
                       { sizes[g][0], sizes[g][1], sizes[g][2] }, 0, 0, 0 };
    im.pitch = (uint64_t)im.size[0] * 16;
    im.slice = im.pitch * im.size[1];
    im.layer_bytes = im.slice * im.size[2];
    return im;
}

static uint32_t layer_count(geom g) { return g == G_CUBE ? 6 : g == G_ACUBE ? 6 * 2 : layered(g) ? LAYERS : 0; }

/* Input columns: 0 the handle, 1-4 the coordinate words, 5 the level or
 * the gradients' first word (all gradient words from it).  Output 0-1:
 * the four channels. */
static void build(conf_text *s, const conf_form *f, geom g, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    bool fc = f->type[1] == CT_F32;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%h, %%lo, %%hi;\n .reg .b32 %%xt, %%xc, %%xk, %%d<4>, %%r<4>;\n"
                " .reg .f32 %%f<4>, %%g;\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n ld.global.u64 %%h, [%%xa];\n"
                " ld.global.f32 %%g, [%%xa+%" PRIu64 "];\n", 5 * col);
    unsigned n = ncoords(g);
    for (unsigned i = 0; i < n; i++)
        conf_put(s, " ld.global.b32 %%r%u, [%%xa+%" PRIu64 "];\n ld.global.f32 %%f%u, [%%xa+%" PRIu64 "];\n", i,
                 (1 + i) * col, i, (1 + i) * col);
    conf_put(s, " %s {%%d0, %%d1, %%d2, %%d3}, [%%h, {", f->text);
    for (unsigned i = 0; i < n; i++) {
        bool integer = !fc || (i == 0 && layered(g));
        conf_put(s, "%s%%%c%u", i ? ", " : "", integer ? 'r' : 'f', i);
    }
    conf_put(s, "}]");
    if (conf_word(f, "level"))
        conf_put(s, ", %%g");
    if (conf_word(f, "grad")) {
        const char *v = g == G_1D || g == G_A1D ? "{%g}" : g == G_2D || g == G_A2D ? "{%g, %g}"
                                                                                 : "{%g, %g, %g, %g}";
        conf_put(s, ", %s, %s", v, v);
    }
    conf_put(s, ";\n mov.b64 %%lo, {%%d0, %%d1};\n mov.b64 %%hi, {%%d2, %%d3};\n"
                " st.global.b64 [%%xo], %%lo;\n st.global.b64 [%%xo+%" PRIu64 "], %%hi;\n ret;\n}\n", col);
}

static float as_f32(uint64_t v)
{
    float x;
    uint32_t u = (uint32_t)v;
    memcpy(&x, &u, 4);
    return x;
}

static uint32_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

/* A lane's coordinates: words w[0..4) and, for the reference, the layer
 * (cube maps: the face's) and the unnormalised coordinates x[]. */
static void draw(conf_rng *r, const conf_form *f, geom g, const ref_sampled *im, bool linear, uint32_t *w)
{
    bool fc = f->type[1] == CT_F32;
    uint64_t z = conf_rand(r);
    unsigned first = layered(g);
    memset(w, 0, 16);
    if (first)                                  /* one in 8 past the last layer: clamped */
        w[0] = (uint32_t)(z % (g == G_ACUBE ? 2 : LAYERS)) + (z >> 60 == 0 ? 7 : 0);
    z >>= 4;
    if (cube(g)) {
        /* aim at the centre of texel (i, j) of a face: sc = 2i + 1 - W over
         * ma = W, then the face table read backwards */
        unsigned face = (unsigned)(z % 6), i = (unsigned)(z >> 3) % 8, j = (unsigned)(z >> 6) % 8;
        float scale = ldexpf(1.0f, (int)(z >> 9) % 5 - 2);
        float W = 8, sc = (float)(2 * i + 1) - W, tc = (float)(2 * j + 1) - W, v[3];
        switch (face) {
        case 0: v[0] = W; v[1] = -tc; v[2] = -sc; break;
        case 1: v[0] = -W; v[1] = -tc; v[2] = sc; break;
        case 2: v[0] = sc; v[1] = W; v[2] = tc; break;
        case 3: v[0] = sc; v[1] = -W; v[2] = -tc; break;
        case 4: v[0] = sc; v[1] = -tc; v[2] = W; break;
        default: v[0] = -sc; v[1] = -tc; v[2] = -W; break;
        }
        for (unsigned d = 0; d < 3; d++)
            w[first + d] = f32_bits(v[d] * scale);
        return;
    }
    for (unsigned d = 0; d < im->dims; d++, z >>= 12) {
        int64_t i = (int64_t)(z % (im->size[d] + 4)) - 2;     /* up to two texels outside */
        if (!fc)
            w[first + d] = (uint32_t)(int32_t)i;
        else if (linear)
            w[first + d] = f32_bits((float)i + 0.5f + (float)((z >> 5) % 256) / 256.0f + 1.0f / 2048.0f);
        else
            w[first + d] = f32_bits((float)i + (float)((z >> 5) % 8) / 8.0f);
    }
}

/* The reference's view of a lane's coordinates: layer and x[]. */
static uint32_t where(const conf_form *f, geom g, const ref_sampled *im, const uint32_t *w, double *x)
{
    unsigned first = layered(g);
    uint32_t last = g == G_ACUBE ? 1 : LAYERS - 1;
    uint32_t layer = first ? (w[0] > last ? last : w[0]) : 0;
    if (cube(g)) {
        double v[3], st[2];
        for (unsigned d = 0; d < 3; d++)
            v[d] = as_f32(w[first + d]);
        uint32_t face = ref_cube_face(v, st);
        x[0] = st[0] * im->size[0];
        x[1] = st[1] * im->size[1];
        return layer * 6 + face;
    }
    for (unsigned d = 0; d < im->dims; d++)
        x[d] = f->type[1] == CT_F32 ? (double)as_f32(w[first + d]) : (double)(int32_t)w[first + d];
    return layer;
}

static void fill(conf_rng *r, uint8_t *mem, size_t n, bool floats)
{
    for (size_t at = 0; at < n; at += 4) {
        uint32_t v = (uint32_t)conf_rand(r);
        if (floats)
            v = f32_bits((float)((int)(v % 2001) - 1000));
        memcpy(mem + at, &v, 4);
    }
}

static int run(conf_xctx *c, const conf_form *f, bool linear)
{
    geom g = geom_of(f);
    ref_sampled im = image_of(g);
    unsigned lanes = c->warps * 32;
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    uint8_t *bytes = (uint8_t *)in + IMAGE_AT;
    uint32_t layers = layer_count(g);
    size_t nbytes = im.layer_bytes * (layers ? layers : 1);
    bool floats = f->type[0] == CT_F32;
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, g, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    isa_image img = { .base = (uint64_t)(uintptr_t)bytes, .width = im.size[0], .height = im.size[1],
                      .depth = im.size[2], .layers = layers, .pitch = im.pitch, .slice = im.slice,
                      .layer_stride = im.layer_bytes, .channels = 4, .channel_bytes = 4,
                      .channel_kind = floats ? ISA_CHAN_FLOAT : f->type[0] == CT_S32 ? ISA_CHAN_SIGNED
                                                                                     : ISA_CHAN_UNSIGNED,
                      .cubemap = cube(g), .filter_linear = linear,
                      .address = { ISA_ADDRESS_CLAMP, ISA_ADDRESS_CLAMP, ISA_ADDRESS_CLAMP } };
    uint64_t handle;
    conf_outcome made = conf_engine_image(c->e, &img, &handle, c->msg, sizeof c->msg);
    if (made != CONF_RAN)
        return made;
    fill(&c->rng, bytes, nbytes, floats);
    for (unsigned l = 0; l < lanes; l++) {
        uint32_t w[4];
        draw(&c->rng, f, g, &im, linear, w);
        in[l] = handle;
        for (unsigned i = 0; i < 4; i++)
            in[(1 + i) * col + l] = w[i];
        in[5 * col + l] = f32_bits((float)((int)(conf_rand(&c->rng) % 64) - 16) / 8.0f);
    }
    memset(out, 0, 2 * col * 8);
    conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
    conf_engine_image_free(c->e, handle);
    if (oc != CONF_RAN)
        return oc;
    for (unsigned l = 0; l < lanes; l++) {
        uint32_t w[4];
        for (unsigned i = 0; i < 4; i++)
            w[i] = (uint32_t)in[(1 + i) * col + l];
        double x[3] = { 0, 0, 0 };
        uint32_t layer = where(f, g, &im, w, x);
        uint32_t got[4] = { (uint32_t)out[l], (uint32_t)(out[l] >> 32), (uint32_t)out[col + l],
                            (uint32_t)(out[col + l] >> 32) };
        bool ok = true;
        uint32_t want[4];
        if (linear) {
            double v[4], mag[4];
            ref_sample_linear(&im, bytes, layer, x, v, mag);
            for (unsigned k = 0; k < 4; k++) {
                want[k] = f32_bits((float)v[k]);
                ok &= fabs((double)as_f32(got[k]) - v[k]) <= ldexp(mag[k], -20);
            }
        } else {
            ref_sample_nearest(&im, bytes, layer, x, (uint8_t *)want);
            ok = !memcmp(got, want, 16);
        }
        c->checked++;
        if (ok)
            continue;
        c->failed++;
        if (c->shown++ < CONF_SHOW)
            printf("FAIL %s (%s) lane %u coordinates 0x%08x 0x%08x 0x%08x 0x%08x: got %08x %08x %08x %08x"
                   " want %08x %08x %08x %08x\n", f->text, linear ? "linear" : "nearest", l, w[0], w[1], w[2],
                   w[3], got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
    }
    return CONF_RAN;
}

int conf_xrun_sample(conf_xctx *c, const conf_form *f)
{
    geom g = geom_of(f);
    bool plain = g <= G_3D && !conf_word(f, "level") && !conf_word(f, "grad");
    int oc = CONF_RAN;
    if (!plain)                                 /* nearest on 1d/2d/3d is conf_ximage.c's */
        oc = run(c, f, false);
    if (oc == CONF_RAN && f->type[0] == CT_F32 && f->type[1] == CT_F32 && !cube(g))
        oc = run(c, f, true);
    return oc;
}

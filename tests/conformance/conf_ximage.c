/*
 * conf_ximage.c -- the image family's runner: tex, txq, suld, sust and suq
 * (PTX ISA 9.7.10) on texture and surface objects the runner creates
 * (conf_engine_image, as the CUDA runtime does for cudaCreateTextureObject
 * and cudaCreateSurfaceObject), over images in device memory.
 *
 *   tex    4-channel 32-bit textures of 1, 2 and 3 dimensions, nearest
 *          filtering, clamp addressing: integer coordinates (some up to 3
 *          texels outside, which clamp to the edge) and float coordinates
 *          at texel centres; each lane's four channels are checked
 *   suld   raw loads of 1 to 16 bytes at byte offset x (aligned), row y,
 *          slice z; the .zero and .clamp forms also out of range (zeros;
 *          the nearest element), the .trap forms once with a warp out of
 *          range (an illegal-address error)
 *   sust   raw stores at distinct places per lane, then the whole image
 *          compared (the .zero forms: out-of-range stores dropped); .clamp
 *          and .trap once more with a warp out of range (the store at the
 *          nearest element; the error)
 *   tld4   one channel of the 2x2 footprint of 2-d textures, at corners
 *          between texels (some outside, clamped)
 *   txq, suq  width, height and depth
 *
 * ref_image.c gives the texel a coordinate selects and the surface bytes.
 */
#include "refs.h"

#include "isa.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_TEX, K_SULD, K_SUST, K_QUERY, K_TLD4 };
#define IMAGE_AT (3u << 20)     /* the image's bytes: this far into the input buffer */
#define IMAGE_BYTES 8192u

static unsigned kind_of(const conf_form *f)
{
    return !strcmp(f->op, "tex") ? K_TEX : !strcmp(f->op, "suld") ? K_SULD : !strcmp(f->op, "sust") ? K_SUST
         : !strcmp(f->op, "tld4") ? K_TLD4 : K_QUERY;
}

static unsigned dims_of(const conf_form *f) { return conf_word(f, "3d") ? 3 : conf_word(f, "2d") ? 2 : 1; }
static bool is_texture(unsigned k) { return k == K_TEX || k == K_TLD4; }
static unsigned vec_of(const conf_form *f) { return conf_word(f, "v4") ? 4 : conf_word(f, "v2") ? 2 : 1; }

/* The image of a form: texels of 16 bytes (textures) or 4 (surfaces). */
static ref_image image_for(const conf_form *f, bool texture)
{
    /* surfaces: 1-d ones 256 texels wide, so that 32 lanes find distinct
     * 16-byte elements to store to */
    static const unsigned size[4][3] = { { 0 }, { 64, 1, 1 }, { 16, 8, 1 }, { 8, 4, 4 } };
    unsigned d = kind_of(f) == K_QUERY ? (conf_word(f, "depth") ? 3 : 2) : dims_of(f);
    ref_image im = { size[d][0] * (!texture && d == 1 ? 4 : 1), size[d][1], size[d][2], texture ? 16u : 4u, 0, 0 };
    im.pitch = im.width * im.texel;
    im.slice = im.pitch * im.height;
    return im;
}

static void coords(conf_text *s, unsigned dims, const char *t)
{
    static const char *const names[] = { "%cx", "%cy", "%cz", "%cz" };
    conf_put(s, "{");
    unsigned n = dims == 3 ? 4 : dims;
    for (unsigned i = 0; i < n; i++)
        conf_put(s, "%s%s%s", i ? ", " : "", names[i], t);
    conf_put(s, "}");
}

/* Input: column 0 the handle, 1-3 the coordinates x, y, z, 4-5 the data
 * to store.  Output: columns 0-1 the data loaded (16 bytes), 2-3 the
 * texture's channels z and w. */
static void build(conf_text *s, const conf_form *f, unsigned lanes)
{
    uint64_t col = (uint64_t)lanes * 8;
    unsigned k = kind_of(f), dims = dims_of(f), nv = vec_of(f);
    bool fcoord = is_texture(k) && f->type[1] == CT_F32;
    unsigned eb = k == K_SULD || k == K_SUST ? conf_types[f->type[0]].bits : 32;
    unsigned rb = eb < 16 ? 16 : eb;
    conf_put(s, ".version 8.7\n.target sm_90\n.address_size 64\n"
                ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
                " .reg .b64 %%xa, %%xo, %%xi, %%h, %%lo, %%hi;\n .reg .b32 %%xt, %%xc, %%xk, %%q;\n"
                " .reg .b32 %%cx, %%cy, %%cz;\n .reg .f32 %%cxf, %%cyf, %%czf;\n .reg .b%u %%d<4>;\n"
                " mov.u32 %%xt, %%ctaid.x;\n mov.u32 %%xc, %%tid.x;\n mad.lo.u32 %%xk, %%xt, 32, %%xc;\n"
                " mul.wide.u32 %%xi, %%xk, 8;\n ld.param.u64 %%xa, [pin];\n add.s64 %%xa, %%xa, %%xi;\n"
                " ld.param.u64 %%xo, [pout];\n add.s64 %%xo, %%xo, %%xi;\n"
                " ld.global.u64 %%h, [%%xa];\n ld.global.u32 %%cx, [%%xa+%" PRIu64 "];\n"
                " ld.global.u32 %%cy, [%%xa+%" PRIu64 "];\n ld.global.u32 %%cz, [%%xa+%" PRIu64 "];\n",
             rb, col, 2 * col, 3 * col);
    /* tex: texel centres, i + 0.5; tld4: i + 1, where the 2x2 footprint
     * starts at texel i */
    const char *half = k == K_TLD4 ? "0f3F800000" : "0f3F000000";
    if (fcoord)
        conf_put(s, " cvt.rn.f32.s32 %%cxf, %%cx;\n add.f32 %%cxf, %%cxf, %s;\n"
                    " cvt.rn.f32.s32 %%cyf, %%cy;\n add.f32 %%cyf, %%cyf, %s;\n"
                    " cvt.rn.f32.s32 %%czf, %%cz;\n add.f32 %%czf, %%czf, %s;\n", half, half, half);
    switch (k) {
    case K_TEX:
    case K_TLD4:
        conf_put(s, " %s {%%d0, %%d1, %%d2, %%d3}, [%%h, ", f->text);
        coords(s, dims, fcoord ? "f" : "");
        conf_put(s, "];\n mov.b64 %%lo, {%%d0, %%d1};\n mov.b64 %%hi, {%%d2, %%d3};\n"
                    " st.global.b64 [%%xo], %%lo;\n st.global.b64 [%%xo+%" PRIu64 "], %%hi;\n", col);
        break;
    case K_SULD:
    case K_SUST: {
        char list[64];
        snprintf(list, sizeof list, nv == 4 ? "{%%d0, %%d1, %%d2, %%d3}" : nv == 2 ? "{%%d0, %%d1}" : "%%d0");
        if (k == K_SUST) {
            for (unsigned i = 0; i < nv; i++)
                conf_put(s, " ld.global.b%u %%d%u, [%%xa+%" PRIu64 "];\n", eb == 8 ? 8 : rb, i,
                         (4 + i * eb / 64) * col + (i * eb / 8) % 8);
            conf_put(s, " %s [%%h, ", f->text);
            coords(s, dims, "");
            conf_put(s, "], %s;\n", list);
        } else {
            conf_put(s, " %s %s, [%%h, ", f->text, list);
            coords(s, dims, "");
            conf_put(s, "];\n");
            for (unsigned i = 0; i < nv; i++)
                conf_put(s, " st.global.b%u [%%xo+%" PRIu64 "], %%d%u;\n", eb == 8 ? 8 : rb,
                         (i * eb / 64) * col + (i * eb / 8) % 8, i);
        }
        break;
    }
    default:
        conf_put(s, " %s %%q, [%%h];\n st.global.u32 [%%xo], %%q;\n", f->text);
        break;
    }
    conf_put(s, " ret;\n}\n");
}

/* .trap, and sust's .clamp: every lane at one place outside the
 * surface (so that clamped stores agree), past the end or before the start
 * of one dimension.  .trap must end the launch with an illegal-address
 * error; sust.clamp must store at the nearest place (suld's .clamp is
 * checked lane by lane with the rest). */
static void outside_round(conf_xctx *c, const conf_form *f, const ref_image *im, uint64_t handle, uint8_t *bytes,
                          const char *ptx, size_t len, unsigned lanes)
{
    unsigned dims = dims_of(f), esize = conf_types[f->type[0]].bits / 8 * vec_of(f);
    uint64_t *in = conf_engine_in(c->e), col = lanes;
    bool trap = conf_word(f, "trap");
    ref_image_fill(&c->rng, im, bytes, false);
    uint8_t want[IMAGE_BYTES];
    memcpy(want, bytes, IMAGE_BYTES);
    int64_t xyz[3];
    ref_image_coords(&c->rng, im, dims, false, esize, false, -1, xyz);
    uint64_t x = conf_rand(&c->rng);
    unsigned d = (unsigned)(x % dims);
    int64_t end = d == 0 ? (int64_t)im->pitch : d == 1 ? (int64_t)im->height : (int64_t)im->depth;
    xyz[d] = x >> 8 & 1 ? end + (d == 0 ? (int64_t)esize * (int64_t)(x >> 9 & 3) : (int64_t)(x >> 9 & 3))
                        : -(d == 0 ? (int64_t)esize : 1) * (1 + (int64_t)(x >> 9 & 3));
    uint64_t data[2] = { conf_rand(&c->rng), conf_rand(&c->rng) };
    for (unsigned l = 0; l < lanes; l++) {
        in[l] = handle;
        for (unsigned i = 0; i < 3; i++)
            in[(1 + i) * col + l] = (uint32_t)(int32_t)xyz[i];
        in[4 * col + l] = data[0];
        in[5 * col + l] = data[1];
    }
    char msg[1200];
    conf_outcome oc = conf_launch(c->e, ptx, len, lanes, msg, sizeof msg);
    bool ok;
    if (trap) {
        ok = oc == CONF_ERROR && strstr(msg, "illegal") != NULL;
    } else {
        ref_image_store(im, want, dims, xyz, esize, true, (const uint8_t *)data);
        ok = oc == CONF_RAN && !memcmp(want, bytes, IMAGE_BYTES);
    }
    c->checked++;
    if (ok)
        return;
    c->failed++;
    if (c->shown++ < CONF_SHOW)
        printf("FAIL %s: every lane at (%" PRId64 ", %" PRId64 ", %" PRId64 "), outside: %s\n", f->text, xyz[0],
               xyz[1], xyz[2], trap ? (oc == CONF_RAN ? "no fault" : msg) : oc != CONF_RAN ? msg : "wrong store");
}

int conf_xrun_image(conf_xctx *c, const conf_form *f)
{
    unsigned k = kind_of(f), dims = dims_of(f), nv = vec_of(f);
    bool texture = is_texture(k) || !strcmp(f->op, "txq");
    unsigned esize = k == K_SULD || k == K_SUST ? conf_types[f->type[0]].bits / 8 * nv : 0;
    /* sust: one warp per launch, so that lanes never store to one place */
    unsigned lanes = k == K_SUST ? 32 : c->warps * 32, rounds = k == K_SUST ? c->warps / 8 + 1 : 1;
    uint64_t col = lanes;
    uint64_t *in = conf_engine_in(c->e), *out = conf_engine_out(c->e);
    uint8_t *bytes = (uint8_t *)in + IMAGE_AT;
    ref_image im = image_for(f, texture);
    char text[8192];
    conf_text s = { text, 0, sizeof text, false };
    build(&s, f, lanes);
    if (conf_text_over(&s, c->msg, sizeof c->msg))
        return CONF_ERROR;
    isa_image img = { .base = (uint64_t)(uintptr_t)bytes, .width = im.width, .height = im.height,
                      .depth = im.depth, .pitch = im.pitch, .slice = im.slice,
                      .channels = texture ? 4 : 1, .channel_bytes = 4,
                      .channel_kind = is_texture(k) && f->type[0] == CT_F32 ? ISA_CHAN_FLOAT
                                    : is_texture(k) && f->type[0] == CT_S32 ? ISA_CHAN_SIGNED : ISA_CHAN_UNSIGNED,
                      .surface = !texture,
                      .address = { ISA_ADDRESS_CLAMP, ISA_ADDRESS_CLAMP, ISA_ADDRESS_CLAMP } };
    uint64_t handle;
    conf_outcome made = conf_engine_image(c->e, &img, &handle, c->msg, sizeof c->msg);
    if (made != CONF_RAN)
        return made;
    conf_outcome first = CONF_RAN;
    for (unsigned round = 0; round < rounds && first == CONF_RAN; round++) {
        ref_image_fill(&c->rng, &im, bytes, is_texture(k) && f->type[0] == CT_F32);
        uint8_t before[IMAGE_BYTES];
        memcpy(before, bytes, IMAGE_BYTES);
        bool zero = conf_word(f, "zero"), clamp = conf_has(f, CF_CLAMP);
        for (unsigned l = 0; l < lanes; l++) {
            in[l] = handle;
            int64_t xyz[3];
            int slot = -1;
            if (k == K_SUST) {                  /* distinct elements: 7 is prime to their count */
                unsigned nslots = im.pitch / esize * (dims > 1 ? im.height : 1) * (dims > 2 ? im.depth : 1);
                slot = (int)((l * 7 + round * 3) % nslots);
            }
            if (k == K_QUERY)
                xyz[0] = xyz[1] = xyz[2] = 0;
            else
                ref_image_coords(&c->rng, &im, dims, texture, esize, zero || (clamp && k == K_SULD), slot, xyz);
            for (unsigned d = 0; d < 3; d++)
                in[(1 + d) * col + l] = (uint32_t)(int32_t)xyz[d];
            in[4 * col + l] = conf_rand(&c->rng);
            in[5 * col + l] = conf_rand(&c->rng);
        }
        memset(out, 0, 4 * col * 8);
        conf_outcome oc = conf_launch(c->e, s.p, s.n, lanes, c->msg, sizeof c->msg);
        if (round == 0)
            first = oc;
        if (oc != CONF_RAN)
            break;
        uint8_t want_image[IMAGE_BYTES];
        memcpy(want_image, before, IMAGE_BYTES);
        for (unsigned l = 0; l < lanes; l++) {
            int64_t xyz[3] = { (int32_t)in[col + l], (int32_t)in[2 * col + l], (int32_t)in[3 * col + l] };
            uint8_t want[16] = {0}, got[16];
            uint64_t g2[2] = { out[l], out[col + l] };
            memcpy(got, g2, 16);
            unsigned n = 16;
            switch (k) {
            case K_TEX: ref_image_texel(&im, before, dims, xyz, want); break;
            case K_TLD4: {
                static const char comps[] = "rgba";
                unsigned comp = 0;
                for (unsigned i = 0; i < 4; i++)     /* (.r reads as a mode word) */
                    if (conf_word(f, (char[]){ comps[i], 0 }) || (f->mode[0] == comps[i] && !f->mode[1]))
                        comp = i;
                ref_image_gather(&im, before, xyz, comp, want);
                break;
            }
            case K_SULD: n = esize; ref_image_surface(&im, before, dims, xyz, esize, clamp, want); break;
            case K_SUST: {
                uint8_t data[16];
                memcpy(data, &in[4 * col + l], 8);
                memcpy(data + 8, &in[5 * col + l], 8);
                ref_image_store(&im, want_image, dims, xyz, esize, clamp, data);
                n = 0;
                break;
            }
            default: {
                uint32_t v = conf_word(f, "width") ? im.width : conf_word(f, "height") ? im.height : im.depth;
                memcpy(want, &v, 4);
                n = 4;
                break;
            }
            }
            c->checked++;
            if (!memcmp(got, want, n))
                continue;
            c->failed++;
            if (c->shown++ < CONF_SHOW) {
                uint64_t w2[2];
                memcpy(w2, want, 16);
                printf("FAIL %s lane %u at (%" PRId64 ", %" PRId64 ", %" PRId64 "): got 0x%016" PRIx64 "%016" PRIx64
                       " want 0x%016" PRIx64 "%016" PRIx64 "\n", f->text, l, xyz[0], xyz[1], xyz[2], g2[1], g2[0],
                       w2[1], w2[0]);
            }
        }
        if (k == K_SUST && memcmp(want_image, bytes, IMAGE_BYTES) != 0) {
            unsigned at = 0;
            while (want_image[at] == bytes[at])
                at++;
            c->failed++;
            if (c->shown++ < CONF_SHOW)
                printf("FAIL %s: image byte %u got 0x%02x want 0x%02x\n", f->text, at, bytes[at], want_image[at]);
        }
    }
    if (first == CONF_RAN && (k == K_SULD || k == K_SUST) && !conf_word(f, "zero") &&
        (k == K_SUST || !conf_has(f, CF_CLAMP)))
        outside_round(c, f, &im, handle, bytes, s.p, s.n, lanes);
    conf_engine_image_free(c->e, handle);
    if (first == CONF_RAN && k == K_TEX)        /* linear filtering (floats from float coordinates) */
        first = conf_xrun_sample(c, f);
    return first;
}

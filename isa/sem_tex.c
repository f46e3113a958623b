/*
 * sem_tex.c -- textures and surfaces: tex tld4 txq suld sust sured suq (PTX
 * ISA 9.7.10).
 *
 * Operands after parsing: tex/tld4 `d, [a, c] {, lod | , dPdx, dPdy}`
 * are opd[0] = d (a vector), opd[1] = the handle a, opd[2] = coordinates c;
 * suld `d, [a, c]` likewise; sust `[a, c], b` is opd[0] = a, opd[1] = c,
 * opd[2] = b, and sured `[a, c], b` likewise.  The handle names an isa_image the runtime built from a
 * texture or surface object (isa_mem.image).
 *
 * txq and suq `d, [a]` read an attribute of the object a names.
 *
 * Sampling follows the CUDA programming guide's texture-fetching appendix:
 * coordinates are scaled by the size when normalised; nearest filtering
 * takes texel floor(x); linear filtering takes texels floor(x - 0.5) and the
 * next one, weighted by the fraction, which the hardware keeps as 9-bit
 * fixed point with 8 fractional bits, and combines into corner weights as
 * corner_weights() says (measured on an H200).  Addressing modes apply to
 * texel indices; wrap and mirror need normalised coordinates and act as
 * clamp otherwise, as CUDA documents.  Channels a format lacks read as 0
 * (and w as 1), the convention of graphics texture units.
 *
 * Surfaces (suld.b, sust.b) address x in bytes and move raw bits; the
 * out-of-range rule is the instruction's: .trap faults, .clamp uses the
 * nearest element, .zero reads zeros and drops stores.
 *
 * Mipmapped textures pick their level of detail from the lod operand
 * (.level), from the gradients (.grad: log2 of the longer of the two
 * derivative vectors in texels of level 0, the isotropic rule of graphics
 * APIs), or 0, add the bias and clamp it (isa_image); point mip filtering
 * takes the nearest level, linear blends the two around it with a weight
 * in 256ths as the texel weights are (the level blend's precision is not
 * measured on a GPU).  tld4 and integer coordinates read level 0.
 */
#include "isa_int.h"
#include "mem_int.h"

#include <math.h>

/* The image a lane's handle names, or NULL with the fault filled in. */
static const isa_image *image_of(isa_warp *w, uint64_t handle, unsigned l, bool surface)
{
    const isa_mem *m = w->mem;
    const isa_image *img = m->image ? m->image(m->image_ctx, handle) : NULL;
    if (img && img->surface == surface)
        return img;
    w->fault = (isa_fault){ .addr = handle, .lane = l, .bytes = 0, .space = ISA_SPACE_TEX };
    return NULL;
}

/* Host memory behind `bytes` bytes of device memory at addr, or NULL. */
static const uint8_t *device_bytes(isa_warp *w, uint64_t addr, unsigned bytes, unsigned l)
{
    const isa_mem *m = w->mem;
    if (addr >= m->global_lo && addr + bytes <= m->global_hi && addr + bytes > addr &&
        (!m->check || m->check(m->check_ctx, addr, bytes)))
        return (const uint8_t *)(uintptr_t)addr;
    w->fault = (isa_fault){ .addr = addr, .lane = l, .bytes = bytes, .space = ISA_SPACE_GLOBAL };
    return NULL;
}

/* A float coordinate as a texel index, with NaN and huge values kept in a
 * range where the integer arithmetic below cannot overflow. */
static int64_t index_of(float x)
{
    if (x != x)
        return 0;
    if (x < -1e9f)
        return -1000000000;
    if (x > 1e9f)
        return 1000000000;
    return (int64_t)floorf(x);
}

/* Texel index i along a dimension of n texels under an addressing mode;
 * false when the border colour is to be used instead. */
static bool address_index(int64_t *i, uint32_t n, uint8_t mode)
{
    int64_t v = *i, size = n;
    switch (mode) {
    case ISA_ADDRESS_WRAP:
        v %= size;
        if (v < 0)
            v += size;
        break;
    case ISA_ADDRESS_MIRROR:
        v %= 2 * size;
        if (v < 0)
            v += 2 * size;
        if (v >= size)
            v = 2 * size - 1 - v;
        break;
    case ISA_ADDRESS_BORDER:
        if (v < 0 || v >= size)
            return false;
        break;
    default:
        v = v < 0 ? 0 : v >= size ? size - 1 : v;
        break;
    }
    *i = v;
    return true;
}

/* One channel of a texel as a float (the format's read mode applied) and
 * as integer bits (element read mode). */
static float channel_float(const isa_image *img, const uint8_t *p)
{
    switch (img->channel_kind) {
    case ISA_CHAN_FLOAT:
        if (img->channel_bytes == 2) {
            uint16_t h;
            memcpy(&h, p, 2);
            return f16_to_f32(h);
        } else {
            float f;
            memcpy(&f, p, 4);
            return f;
        }
    case ISA_CHAN_SIGNED: {
        int32_t v = img->channel_bytes == 1 ? *(const int8_t *)p
                  : img->channel_bytes == 2 ? (int16_t)(p[0] | p[1] << 8)
                                            : (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
                                                        (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        if (!img->read_normalized || img->channel_bytes == 4)
            return (float)v;
        float scale = img->channel_bytes == 1 ? 127.0f : 32767.0f;
        float f = (float)v / scale;
        return f < -1.0f ? -1.0f : f;
    }
    default: {
        uint32_t v = 0;
        memcpy(&v, p, img->channel_bytes);
        if (!img->read_normalized || img->channel_bytes == 4)
            return (float)v;
        return (float)v / (img->channel_bytes == 1 ? 255.0f : 65535.0f);
    }
    }
}

static uint32_t channel_bits(const isa_image *img, const uint8_t *p)
{
    uint32_t v = 0;
    memcpy(&v, p, img->channel_bytes);
    if (img->channel_kind == ISA_CHAN_SIGNED && img->channel_bytes < 4)
        v = (uint32_t)(int32_t)(img->channel_bytes == 1 ? (int8_t)v : (int16_t)v);
    return v;
}

/* What one texel fetch produced: four channels as floats or as bits, in
 * the form the destination takes (the other is 0). */
typedef struct texel {
    float f[4];
    uint32_t u[4];
} texel;

typedef struct sampler {
    isa_warp *w;
    const isa_image *img;
    unsigned lane;
    bool floats;                /* the destination type is a float */
    uint64_t first_addr;        /* first texel read (for the timing model) */
    bool touched;
} sampler;

static const float default_channel[4] = { 0.0f, 0.0f, 0.0f, 1.0f };

/* Texel (i, j, k) of layer `layer` (indices not yet addressed). */
static ptx_status fetch(sampler *s, int64_t i, int64_t j, int64_t k, uint32_t layer, unsigned dims,
                        texel *out)
{
    const isa_image *img = s->img;
    uint32_t size[3] = { img->width, img->height, img->depth };
    int64_t idx[3] = { i, j, k };
    for (unsigned d = 0; d < 3; d++) {
        if (d >= dims) {
            idx[d] = 0;
            continue;
        }
        uint8_t mode = img->address[d];
        if (!img->normalized_coords && (mode == ISA_ADDRESS_WRAP || mode == ISA_ADDRESS_MIRROR))
            mode = ISA_ADDRESS_CLAMP;
        if (!address_index(&idx[d], size[d], mode)) {
            for (unsigned c = 0; c < 4; c++) {
                out->f[c] = img->border[c];
                out->u[c] = (uint32_t)img->border[c];
            }
            return PTX_OK;
        }
    }
    unsigned tb = (unsigned)img->channels * img->channel_bytes;
    uint64_t addr = img->base + layer * img->layer_stride + (uint64_t)idx[2] * img->slice +
                    (uint64_t)idx[1] * img->pitch + (uint64_t)idx[0] * tb;
    const uint8_t *p = device_bytes(s->w, addr, tb, s->lane);
    if (!p)
        return PTX_E_ILLEGAL_ADDRESS;
    if (!s->touched) {
        s->first_addr = addr;
        s->touched = true;
    }
    /* Only the form the destination takes (tex's type) is decoded: the
     * other costs as much again and is never read. */
    for (unsigned c = 0; c < 4; c++) {
        const uint8_t *q = p + c * img->channel_bytes;
        if (s->floats)
            out->f[c] = c < img->channels ? channel_float(img, q) : default_channel[c], out->u[c] = 0;
        else
            out->u[c] = c < img->channels ? channel_bits(img, q) : c == 3, out->f[c] = 0;
    }
    return PTX_OK;
}

/* The filtering weight of a fractional position in 256ths: 8 fractional
 * bits, the nearest with halves rounded up (an H200 weights a fraction of
 * 8/4096, half of 1/256, as 1/256, and 40/4096 as 3/256). */
static unsigned weight_of(float frac)
{
    float scaled = frac * 256.0f, whole = floorf(scaled);     /* both exact */
    return (unsigned)whole + (scaled - whole >= 0.5f ? 1u : 0u);
}

/* The weights of the 2^dims corners in 256ths, from the per-axis weights
 * a[] (of each axis's upper texel): in one dimension 256 - a and a; in two,
 * as an H200 forms them (tests/gpu/probe.cu's tex2 table, all 4356 points):
 * the far corner's a0 * a1 / 256 rounded half up, the two edges a0 and a1
 * less it, the near corner the rest, so that they sum to 256.  Three
 * dimensions are not measured: the 2-D weights times the third axis's,
 * rounded half up, the near slice taking the rest. */
static void corner_weights(const unsigned *a, unsigned dims, unsigned *w)
{
    if (dims == 1) {
        w[0] = 256 - a[0], w[1] = a[0];
        return;
    }
    unsigned far = (a[0] * a[1] + 128) >> 8;
    w[0] = 256 - a[0] - a[1] + far, w[1] = a[0] - far, w[2] = a[1] - far, w[3] = far;
    if (dims == 3)
        for (unsigned c = 0; c < 4; c++) {
            unsigned up = (w[c] * a[2] + 128) >> 8;
            w[c + 4] = up;
            w[c] -= up;
        }
}

/* Sample at float coordinates x[0..dims) (texel units or normalised). */
/* The weighted sum of the corners, as an H200 rounds it: once, to the
 * nearest float with halves away from zero (tests/gpu/probe.cu's blend
 * answers: 762 of 768 one-dimensional and 489 of 512 two-dimensional
 * samples of random texels to the bit, where a float product and sum per
 * corner gives 541 and 302; the rest lie where one texel is 30 to 100
 * times the others', the unit's own arithmetic narrower than exact there).
 * Each product of a weight (9 bits) and a texel (24) is exact in double,
 * and so is their sum but for texels of very different magnitudes. */
static float nearest_half_away(double x)
{
    /* The host's conversion rounds to nearest, ties to even; the two
     * differ only where x lies halfway between neighbouring floats, and
     * that is exact in double (a sample runs this once a channel). */
    float f = (float)x;
    double off = x - (double)f;
    if (off == 0 || !isfinite(f))
        return f;
    float other = nextafterf(f, off > 0 ? INFINITY : -INFINITY);
    if ((double)other - x != off)
        return f;                               /* not a tie */
    return fabsf(other) > fabsf(f) ? other : f;
}

static ptx_status sample(sampler *s, const float *x, unsigned dims, uint32_t layer, texel *out)
{
    const isa_image *img = s->img;
    uint32_t size[3] = { img->width, img->height, img->depth };
    float u[3] = { 0, 0, 0 };
    for (unsigned d = 0; d < dims; d++)
        u[d] = img->normalized_coords ? x[d] * (float)size[d] : x[d];
    /* Integer formats read as integers are never filtered. */
    bool linear = img->filter_linear && s->floats;
    if (!linear)
        return fetch(s, index_of(u[0]), index_of(u[1]), index_of(u[2]), layer, dims, out);
    int64_t base[3] = { 0, 0, 0 };
    unsigned a[3] = { 0, 0, 0 }, w[8];
    for (unsigned d = 0; d < dims; d++) {
        float ub = u[d] - 0.5f;
        base[d] = index_of(ub);
        a[d] = ub == ub ? weight_of(ub - floorf(ub)) : 0;
    }
    corner_weights(a, dims, w);
    double acc[4] = { 0, 0, 0, 0 };
    unsigned corners = 1u << dims;
    for (unsigned c = 0; c < corners; c++) {
        double wgt = (double)w[c] / 256.0;
        int64_t at[3] = { base[0], base[1], base[2] };
        for (unsigned d = 0; d < dims; d++)
            at[d] += (c >> d) & 1;
        texel t;
        ptx_status st = fetch(s, at[0], at[1], at[2], layer, dims, &t);
        if (st != PTX_OK)
            return st;
        for (unsigned k = 0; k < 4; k++)
            acc[k] += wgt * t.f[k];
    }
    for (unsigned k = 0; k < 4; k++) {
        out->f[k] = nearest_half_away(acc[k]);
        out->u[k] = (uint32_t)(int32_t)out->f[k];
    }
    return PTX_OK;
}

/* A cube-map direction as a face and normalised 2-D coordinates (the CUDA
 * programming guide's cubemap table). */
static uint32_t cube_face(const float *v, float *st)
{
    float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);
    float m, sc, tc;
    uint32_t face;
    if (ax >= ay && ax >= az) {
        m = ax;
        face = v[0] >= 0 ? 0 : 1;
        sc = v[0] >= 0 ? -v[2] : v[2];
        tc = -v[1];
    } else if (ay >= az) {
        m = ay;
        face = v[1] >= 0 ? 2 : 3;
        sc = v[0];
        tc = v[1] >= 0 ? v[2] : -v[2];
    } else {
        m = az;
        face = v[2] >= 0 ? 4 : 5;
        sc = v[2] >= 0 ? v[0] : -v[0];
        tc = -v[1];
    }
    st[0] = m > 0 ? (sc / m + 1.0f) * 0.5f : 0.5f;
    st[1] = m > 0 ? (tc / m + 1.0f) * 0.5f : 0.5f;
    return face;
}

/* Register of element k of a vector (or scalar) operand, ISA_NOREG if none. */
/* Level `level` of a mipmapped image, as an image of its own. */
static void level_image(const isa_image *img, unsigned level, isa_image *out)
{
    *out = *img;
    out->levels = 0;
    out->base = img->level_base[level];
    out->pitch = img->level_pitch[level];
    out->slice = out->layer_stride = img->level_slice[level];
    uint32_t size[3] = { img->width, img->height, img->depth };
    for (unsigned d = 0; d < 3; d++)
        size[d] = size[d] >> level ? size[d] >> level : 1;
    out->width = size[0], out->height = size[1], out->depth = size[2];
}

static ptx_status sample_level(sampler *s, unsigned level, const float *x, unsigned dims, uint32_t layer,
                               texel *out)
{
    const isa_image *img = s->img;
    isa_image lv;
    level_image(img, level, &lv);
    s->img = &lv;
    ptx_status st = sample(s, x, dims, layer, out);
    s->img = img;
    return st;
}

/* Sample a mipmapped image (or not) at level of detail `lod`. */
static ptx_status sample_lod(sampler *s, const float *x, unsigned dims, uint32_t layer, float lod, texel *out)
{
    const isa_image *img = s->img;
    if (img->levels <= 1)
        return sample(s, x, dims, layer, out);
    lod = lod == lod ? lod + img->lod_bias : img->lod_bias;
    lod = fminf(fmaxf(lod, img->lod_min), img->lod_max);
    lod = fminf(fmaxf(lod, 0.0f), (float)(img->levels - 1));
    if (!img->mip_linear || !s->floats)
        return sample_level(s, (unsigned)floorf(lod + 0.5f), x, dims, layer, out);
    unsigned lo = (unsigned)floorf(lod), wt = weight_of(lod - floorf(lod));
    if (lo + 1 >= img->levels || wt == 0 || wt == 256)
        return sample_level(s, wt == 256 ? lo + 1 : lo, x, dims, layer, out);
    texel a, b;
    ptx_status st = sample_level(s, lo, x, dims, layer, &a);
    if (st == PTX_OK)
        st = sample_level(s, lo + 1, x, dims, layer, &b);
    for (unsigned k = 0; st == PTX_OK && k < 4; k++) {
        out->f[k] = nearest_half_away(((double)(256 - wt) * a.f[k] + (double)wt * b.f[k]) / 256.0);
        out->u[k] = (uint32_t)(int32_t)out->f[k];
    }
    return st;
}

static uint16_t element(const isa_opd *o, unsigned k)
{
    if (o->kind == ISA_OPD_VEC)
        return k < o->nvec ? o->vec[k] : ISA_NOREG;
    return k == 0 && o->kind == ISA_OPD_REG ? o->reg : ISA_NOREG;
}

/* Element k of a source operand for lane l: a register's value, or an
 * immediate written in place of a scalar (sust's and sured's value, a 1-D
 * coordinate); a vector's immediates the parser has already moved into
 * registers. */
static uint64_t source_element(const isa_warp *w, const isa_opd *o, unsigned k, unsigned l)
{
    if (o->kind == ISA_OPD_IMM)
        return k == 0 ? o->imm : 0;
    uint16_t reg = element(o, k);
    return reg == ISA_NOREG ? 0 : w->r[(size_t)reg * ISA_WARP_SIZE + l];
}

/* The geometry's coordinates: spatial dimensions and whether element 0 is
 * a layer index. */
static unsigned geom_dims(uint8_t geom, bool *layered)
{
    *layered = geom == ISA_GEOM_A1D || geom == ISA_GEOM_A2D || geom == ISA_GEOM_ACUBE;
    switch (geom) {
    case ISA_GEOM_1D: case ISA_GEOM_A1D: return 1;
    case ISA_GEOM_2D: case ISA_GEOM_A2D: return 2;
    default: return 3;
    }
}

/* A layer index clamped to the layers there are, as graphics APIs clamp an
 * array index (OpenGL: clamp(layer, 0, d - 1)); a cube-map array's layers
 * are cubes of six faces (its `layers` counts faces, as CUDA's array depth
 * does), so an index past the last cube must not reach past the array. */
static uint32_t clamp_layer(const isa_image *img, uint64_t v)
{
    uint32_t n = img->layers ? img->layers : 1;
    if (img->cubemap)
        n = n / 6 ? n / 6 : 1;
    int32_t l = (int32_t)v;
    return l < 0 ? 0 : (uint32_t)l >= n ? n - 1 : (uint32_t)l;
}

/* The level of detail lane l asks tex for: its lod operand (.level), the
 * log2 of the longer gradient in level-0 texels (.grad), or 0. */
static float level_of_detail(const isa_warp *w, const isa_inst *in, const isa_image *img, unsigned dims, unsigned l)
{
    if (img->levels <= 1)
        return 0.0f;
    if (in->mode == ISA_MODE_LEVEL)
        return f32_of(source_element(w, &in->opd[3], 0, l));
    if (in->mode != ISA_MODE_GRAD)
        return 0.0f;
    uint32_t size[3] = { img->width, img->height, img->depth };
    double longest = 0;
    for (unsigned g = 3; g <= 4; g++) {
        double len = 0;
        for (unsigned d = 0; d < dims; d++) {
            double v = f32_of(source_element(w, &in->opd[g], d, l));
            if (img->normalized_coords)
                v *= size[d];
            len += v * v;
        }
        longest = len > longest ? len : longest;
    }
    return longest > 0 ? (float)(0.5 * log2(longest)) : -INFINITY;
}

/* Sample the lane's coordinates: what tex does for one lane. */
static ptx_status tex_lane(sampler *s, const isa_inst *in, unsigned l, texel *out)
{
    isa_warp *w = s->w;
    const isa_image *img = s->img;
    const isa_opd *c = &in->opd[2];
    bool layered;
    unsigned dims = geom_dims(in->geom, &layered);
    unsigned first = layered;
    uint32_t layer = layered ? clamp_layer(img, source_element(w, c, 0, l)) : 0;
    bool int_coords = in->type2 == ISA_TYPE_S32;
    if (in->geom == ISA_GEOM_CUBE || in->geom == ISA_GEOM_ACUBE) {
        float v[3], st[2];
        for (unsigned d = 0; d < 3; d++)
            v[d] = f32_of(source_element(w, c, first + d, l));
        uint32_t face = cube_face(v, st);
        sampler face_sampler = *s;
        isa_image face_img = *img;
        face_img.normalized_coords = 1;
        face_sampler.img = &face_img;
        ptx_status st2 = sample_lod(&face_sampler, st, 2, layer * 6 + face,
                                    level_of_detail(w, in, img, 2, l), out);
        s->first_addr = face_sampler.first_addr;
        s->touched = face_sampler.touched;
        return st2;
    }
    if (int_coords) {
        int64_t idx[3] = { 0, 0, 0 };
        for (unsigned d = 0; d < dims; d++)
            idx[d] = (int32_t)source_element(w, c, first + d, l);
        if (img->linear_memory && (idx[0] < 0 || idx[0] >= img->width)) {
            /* tex1Dfetch out of range reads zero. */
            for (unsigned k = 0; k < 4; k++)
                out->f[k] = 0.0f, out->u[k] = 0;
            return PTX_OK;
        }
        return fetch(s, idx[0], idx[1], idx[2], layer, dims, out);
    }
    float x[3] = { 0, 0, 0 };
    for (unsigned d = 0; d < dims; d++)
        x[d] = f32_of(source_element(w, c, first + d, l));
    return sample_lod(s, x, dims, layer, level_of_detail(w, in, img, dims, l), out);
}

static void write_result(isa_warp *w, const isa_inst *in, unsigned l, const texel *t)
{
    bool floats = isa_types[in->type].kind == ISA_KIND_F;
    for (unsigned k = 0; k < 4; k++) {
        uint16_t r = element(&in->opd[0], k);
        if (r != ISA_NOREG)
            w->r[(size_t)r * ISA_WARP_SIZE + l] = floats ? bits_f32(t->f[k]) : t->u[k];
    }
}

/* Lane l's access in the record the timing model and the checkers read;
 * whether it stores and is atomic (sured: the LSU sends it to the L2 as
 * red) comes from the instruction's row of the opcode table. */
static void record_image(isa_warp *w, const isa_inst *in, unsigned l, uint64_t addr, unsigned bytes,
                         uint8_t space)
{
    isa_access *acc = w->access;
    if (!acc)
        return;
    unsigned fl = isa_ops[in->op].flags;
    acc->lanes |= 1u << l;
    acc->addr[l] = addr;
    acc->bytes = (uint8_t)(bytes > 255 ? 255 : bytes);
    acc->space = space;
    acc->store = (fl & ISA_F_STORE) != 0;
    acc->atomic = (fl & ISA_F_ATOMIC) != 0;
}

static void begin_record(isa_warp *w)
{
    if (w->access) {
        w->access->lanes = 0;
        w->access->space = ISA_SPACE_TEX;
        w->access->bytes = 0;
        w->access->store = w->access->atomic = 0;
    }
}

ptx_status isa_sem_tex(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *h = SRC(1);
    bool floats = isa_types[in->type].kind == ISA_KIND_F;
    begin_record(w);
    ptx_status st = PTX_OK;
    LANES(mask, {
        if (st != PTX_OK)
            break;
        sampler s = { .w = w, .lane = l, .floats = floats };
        if (!(s.img = image_of(w, h[l], l, false))) {
            st = PTX_E_ILLEGAL_ADDRESS;
            break;
        }
        texel t;
        if ((st = tex_lane(&s, in, l, &t)) != PTX_OK)
            break;
        write_result(w, in, l, &t);
        if (s.touched)
            record_image(w, in, l, s.first_addr, (unsigned)s.img->channels * s.img->channel_bytes,
                         ISA_SPACE_TEX);
    });
    return st;
}

/* tld4.comp: component `comp` of the four texels bilinear filtering would
 * use, counter-clockwise from the lower left: (i, j+1), (i+1, j+1),
 * (i+1, j), (i, j). */
ptx_status isa_sem_tld4(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *h = SRC(1);
    const isa_opd *c = &in->opd[2];
    unsigned comp = in->mode == ISA_MODE_G ? 1 : in->mode == ISA_MODE_B ? 2 : in->mode == ISA_MODE_A ? 3 : 0;
    bool floats = isa_types[in->type].kind == ISA_KIND_F;
    begin_record(w);
    ptx_status st = PTX_OK;
    LANES(mask, {
        if (st != PTX_OK)
            break;
        sampler s = { .w = w, .lane = l, .floats = floats };
        if (!(s.img = image_of(w, h[l], l, false))) {
            st = PTX_E_ILLEGAL_ADDRESS;
            break;
        }
        bool layered;
        geom_dims(in->geom, &layered);
        uint32_t layer = layered ? clamp_layer(s.img, source_element(w, c, 0, l)) : 0;
        float u[2];
        for (unsigned d = 0; d < 2; d++) {
            float x = f32_of(source_element(w, c, layered + d, l));
            uint32_t n = d ? s.img->height : s.img->width;
            u[d] = (s.img->normalized_coords ? x * (float)n : x) - 0.5f;
        }
        int64_t i = index_of(u[0]), j = index_of(u[1]);
        static const int8_t di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
        texel out;
        for (unsigned k = 0; k < 4 && st == PTX_OK; k++) {
            texel t;
            st = fetch(&s, i + di[k], j + dj[k], 0, layer, 2, &t);
            out.f[k] = t.f[comp];
            out.u[k] = t.u[comp];
        }
        if (st != PTX_OK)
            break;
        write_result(w, in, l, &out);
        if (s.touched)
            record_image(w, in, l, s.first_addr, (unsigned)s.img->channels * s.img->channel_bytes,
                         ISA_SPACE_TEX);
    });
    return st;
}

/* The device address of a surface element for one lane, after the
 * instruction's out-of-range rule: *zero when .zero applies. */
static ptx_status surface_address(isa_warp *w, const isa_inst *in, const isa_image *img,
                                  const isa_opd *c, unsigned l, unsigned bytes, uint64_t *addr,
                                  bool *zero)
{
    bool layered;
    unsigned dims = geom_dims(in->geom, &layered);
    int64_t idx[3] = { 0, 0, 0 };
    uint32_t size[3] = { (uint32_t)((uint64_t)img->width * img->channels * img->channel_bytes),
                         img->height, img->depth };
    int64_t layer = layered ? (int32_t)source_element(w, c, 0, l) : 0;
    bool out = layered && (layer < 0 || layer >= (img->layers ? img->layers : 1));
    for (unsigned d = 0; d < dims; d++) {
        idx[d] = (int32_t)source_element(w, c, layered + d, l);
        int64_t limit = d == 0 ? (int64_t)size[0] - bytes : (int64_t)size[d] - 1;
        if (idx[d] < 0 || idx[d] > limit)
            out = true;
    }
    *zero = false;
    if (out) {
        if (in->mode == ISA_MODE_ZERO) {
            *zero = true;
            return PTX_OK;
        }
        if (!(in->flags & ISA_MOD_FLAG(CLAMP))) {
            uint64_t a = img->base + (uint64_t)idx[0];
            w->fault = (isa_fault){ .addr = a, .lane = l, .bytes = bytes, .space = ISA_SPACE_GLOBAL };
            return PTX_E_ILLEGAL_ADDRESS;
        }
        for (unsigned d = 0; d < dims; d++) {
            int64_t limit = d == 0 ? (int64_t)size[0] - bytes : (int64_t)size[d] - 1;
            idx[d] = idx[d] < 0 ? 0 : idx[d] > limit ? limit : idx[d];
        }
        uint32_t n = img->layers ? img->layers : 1;
        layer = layer < 0 ? 0 : layer >= n ? n - 1 : layer;
    }
    if (idx[0] % bytes) {
        w->fault = (isa_fault){ .addr = img->base + (uint64_t)idx[0], .lane = l, .bytes = bytes,
                                .space = ISA_SPACE_GLOBAL };
        return PTX_E_MISALIGNED;
    }
    *addr = img->base + (uint64_t)layer * img->layer_stride + (uint64_t)idx[2] * img->slice +
            (uint64_t)idx[1] * img->pitch + (uint64_t)idx[0];
    return PTX_OK;
}

/* The element a lane's suld or sust reaches: its device address, or
 * *zero when .zero applies; a failure with the fault filled in. */
static ptx_status surface_lane(isa_warp *w, const isa_inst *in, uint64_t handle, const isa_opd *c,
                               unsigned l, unsigned bytes, uint64_t *addr, bool *zero)
{
    const isa_image *img = image_of(w, handle, l, true);
    if (!img)
        return PTX_E_ILLEGAL_ADDRESS;
    ptx_status st = surface_address(w, in, img, c, l, bytes, addr, zero);
    if (st == PTX_OK && !*zero && !device_bytes(w, *addr, bytes, l))
        st = PTX_E_ILLEGAL_ADDRESS;
    return st;
}

ptx_status isa_sem_suld(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *h = SRC(1);
    unsigned n = type_bytes(in->type), nv = in->vec ? in->vec : 1, bytes = n * nv;
    begin_record(w);
    ptx_status st = PTX_OK;
    LANES(mask, {
        uint64_t addr = 0;
        bool zero;
        if ((st = surface_lane(w, in, h[l], &in->opd[2], l, bytes, &addr, &zero)) != PTX_OK)
            break;
        const uint8_t *p = zero ? NULL : (const uint8_t *)(uintptr_t)addr;
        for (unsigned k = 0; k < nv; k++) {
            uint16_t r = element(&in->opd[0], k);
            uint64_t v = 0;
            if (p)
                memcpy(&v, p + k * n, n);
            if (r != ISA_NOREG)
                w->r[(size_t)r * ISA_WARP_SIZE + l] = v;
        }
        if (p)
            record_image(w, in, l, addr, bytes, ISA_SPACE_GLOBAL);
    });
    return st;
}

ptx_status isa_sem_sust(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *h = SRC(0);
    unsigned n = type_bytes(in->type), nv = in->vec ? in->vec : 1, bytes = n * nv;
    begin_record(w);
    ptx_status st = PTX_OK;
    LANES(mask, {
        uint64_t addr = 0;
        bool zero;
        if ((st = surface_lane(w, in, h[l], &in->opd[1], l, bytes, &addr, &zero)) != PTX_OK)
            break;
        if (zero)
            continue;
        uint8_t *p = (uint8_t *)(uintptr_t)addr;
        for (unsigned k = 0; k < nv; k++) {
            uint64_t v = source_element(w, &in->opd[2], k, l);
            memcpy(p + k * n, &v, n);
        }
        record_image(w, in, l, addr, bytes, ISA_SPACE_GLOBAL);
    });
    return st;
}

/* sured.b.op.geom.type.mode [a, c], b: the surface element at c becomes
 * OP(element, b), atomically (PTX ISA sured): add on .u32 .s32 .u64, min and
 * max on .u32 .s32 .u64 .s64, and/or on .b32 (and .b64, which the ISA's
 * syntax lists).  The same arithmetic as red on global memory, reached
 * through the surface's addressing and its out-of-range rule.  sured.p,
 * formatted samples, is refused by the parser as sust.p is. */
ptx_status isa_sem_sured(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    const uint64_t *h = SRC(0);
    unsigned n = type_bytes(in->type);
    if (n != 4 && n != 8)
        return PTX_E_UNSUPPORTED;
    begin_record(w);
    ptx_status st = PTX_OK;
    LANES(mask, {
        uint64_t addr = 0, old = 0;
        bool zero;
        if ((st = surface_lane(w, in, h[l], &in->opd[1], l, n, &addr, &zero)) != PTX_OK)
            break;
        if (zero)
            continue;
        uint8_t *p = (uint8_t *)(uintptr_t)addr;
        old = isa_atomic_rmw(w, in, p, n, true, source_element(w, &in->opd[2], 0, l), 0);
        (void)old;
        record_image(w, in, l, addr, n, ISA_SPACE_GLOBAL);
    });
    return st;
}

/* One attribute of an image, as txq and suq return it. */
static bool attribute(const isa_image *img, uint8_t what, uint32_t *out)
{
    switch (what) {
    case ISA_MODE_WIDTH: *out = img->width; return true;
    case ISA_MODE_HEIGHT: *out = img->height; return true;
    case ISA_MODE_DEPTH: *out = img->depth; return true;
    case ISA_MODE_ARRAY_SIZE: *out = img->layers; return true;
    case ISA_MODE_NORMALIZED_COORDS: *out = img->normalized_coords; return true;
    case ISA_MODE_FILTER_MODE: *out = img->filter_linear; return true;
    case ISA_MODE_ADDR_MODE_0: *out = img->address[0]; return true;
    case ISA_MODE_ADDR_MODE_1: *out = img->address[1]; return true;
    case ISA_MODE_ADDR_MODE_2: *out = img->address[2]; return true;
    case ISA_MODE_NUM_MIPMAP_LEVELS: *out = img->levels ? img->levels : 1; return true;
    case ISA_MODE_NUM_SAMPLES: *out = 0; return true;           /* not multisampled */
    default: return false;
    }
}

static ptx_status query(isa_warp *w, const isa_inst *in, uint32_t mask, bool surface)
{
    const isa_opd *a = &in->opd[1];
    if (a->kind != ISA_OPD_ADDR || a->reg == ISA_NOREG)
        return PTX_E_UNSUPPORTED;
    uint64_t *d = DST(0);
    ptx_status st = PTX_OK;
    LANES(mask, {
        const isa_image *img = image_of(w, w->r[(size_t)a->reg * ISA_WARP_SIZE + l], l, surface);
        uint32_t v;
        if (!img) {
            st = PTX_E_ILLEGAL_ADDRESS;
            break;
        }
        if (!attribute(img, in->mode, &v)) {
            st = PTX_E_UNSUPPORTED;
            break;
        }
        d[l] = v;
    });
    return st;
}

ptx_status isa_sem_txq(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    return query(w, in, mask, false);
}

ptx_status isa_sem_suq(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    return query(w, in, mask, true);
}

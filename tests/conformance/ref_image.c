/*
 * ref_image.c -- the reference for tex, suld and sust (PTX ISA 9.7.10):
 *
 *   tex with nearest filtering returns the texel floor(c) in each
 *   dimension of unnormalised coordinates c (integer coordinates are the
 *   texel indices themselves); with clamp addressing an index outside
 *   the image is the nearest edge's.  A 4-channel 32-bit texel is
 *   returned as its four channels' bits.
 *   tld4.comp returns channel comp of the four texels bilinear filtering
 *   at c would use, i = floor(c.x - 0.5), j = floor(c.y - 0.5): (i, j+1),
 *   (i+1, j+1), (i+1, j), (i, j) -- the order of texture gathers (the
 *   graphics APIs' textureGather/gather4, which tld4 implements).
 *   suld.b and sust.b move raw bytes: x is a byte offset in the row, y
 *   the row, z the slice; an access outside the surface reads zeros and
 *   stores nothing with .zero, reaches "the nearest surface location
 *   (sized appropriately)" with .clamp, and faults with .trap.
 */
#include "refs.h"

static int64_t clamp(int64_t v, int64_t n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

void ref_image_fill(conf_rng *r, const ref_image *im, uint8_t *mem, bool floats)
{
    size_t n = (size_t)im->slice * im->depth;
    for (size_t at = 0; at < n; at += 4) {
        uint32_t v = (uint32_t)conf_rand(r);
        if (floats) {                           /* finite values: small integers' bits */
            float x = (float)((int)(v % 2001) - 1000);
            memcpy(&v, &x, 4);
        }
        memcpy(mem + at, &v, 4);
    }
}

void ref_image_coords(conf_rng *r, const ref_image *im, unsigned dims, bool texture, unsigned esize, bool outside,
                      int slot, int64_t *xyz)
{
    uint32_t size[3] = { texture ? im->width : im->pitch / esize, im->height, im->depth };
    uint64_t x = conf_rand(r);
    for (unsigned d = 0; d < 3; d++)
        xyz[d] = d < dims ? (int64_t)((x >> (16 * d)) % size[d]) : 0;
    if (slot >= 0) {                            /* a given element: x fastest */
        xyz[0] = slot % size[0];
        xyz[1] = dims > 1 ? slot / size[0] % size[1] : 0;
        xyz[2] = dims > 2 ? slot / size[0] / size[1] % size[2] : 0;
    }
    unsigned shape = (unsigned)(x >> 48) % 8;
    if (texture && shape == 0)                  /* outside: clamped */
        xyz[(x >> 52) % dims] += (int64_t)((x >> 56) % 7) - 3 + ((x >> 56) % 7 >= 3 ? (int64_t)size[0] : 0);
    if (!texture) {
        unsigned d = (unsigned)(x >> 52) % dims;
        if (outside && shape == 0)              /* past the end */
            xyz[d] += size[d];
        else if (outside && shape == 1)         /* before the start */
            xyz[d] = -1 - xyz[d];
        xyz[0] *= esize;                        /* surfaces: x in bytes */
    }
}

void ref_image_texel(const ref_image *im, const uint8_t *mem, unsigned dims, const int64_t *xyz, uint8_t *out)
{
    int64_t x = clamp(xyz[0], im->width), y = dims > 1 ? clamp(xyz[1], im->height) : 0;
    int64_t z = dims > 2 ? clamp(xyz[2], im->depth) : 0;
    memcpy(out, mem + z * im->slice + y * im->pitch + x * im->texel, 16);
}

static bool inside(const ref_image *im, unsigned dims, const int64_t *xyz, unsigned esize)
{
    return xyz[0] >= 0 && xyz[0] + esize <= im->pitch && (dims < 2 || (xyz[1] >= 0 && xyz[1] < im->height)) &&
           (dims < 3 || (xyz[2] >= 0 && xyz[2] < im->depth));
}

/* .clamp: "the nearest surface location (sized appropriately)": each
 * coordinate moved to the nearest one that holds a whole element. */
static void nearest(const ref_image *im, unsigned dims, const int64_t *xyz, unsigned esize, int64_t *out)
{
    int64_t limit[3] = { (int64_t)im->pitch - esize, (int64_t)im->height - 1, (int64_t)im->depth - 1 };
    for (unsigned d = 0; d < 3; d++)
        out[d] = d >= dims ? 0 : xyz[d] < 0 ? 0 : xyz[d] > limit[d] ? limit[d] : xyz[d];
}

void ref_image_surface(const ref_image *im, const uint8_t *mem, unsigned dims, const int64_t *xyz, unsigned esize,
                       bool clamp, uint8_t *out)
{
    memset(out, 0, 16);
    int64_t at[3];
    nearest(im, dims, xyz, esize, at);
    if (clamp || inside(im, dims, xyz, esize))
        memcpy(out, mem + at[2] * im->slice + at[1] * im->pitch + at[0], esize);
}

void ref_image_store(const ref_image *im, uint8_t *mem, unsigned dims, const int64_t *xyz, unsigned esize,
                     bool clamp, const uint8_t *data)
{
    int64_t at[3];
    nearest(im, dims, xyz, esize, at);
    if (clamp || inside(im, dims, xyz, esize))
        memcpy(mem + at[2] * im->slice + at[1] * im->pitch + at[0], data, esize);
}

void ref_image_gather(const ref_image *im, const uint8_t *mem, const int64_t *xyz, unsigned comp, uint8_t *out)
{
    /* the coordinates are (x + 1, y + 1): the footprint starts at (x, y) */
    static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
    for (unsigned k = 0; k < 4; k++) {
        int64_t x = clamp(xyz[0] + di[k], im->width), y = clamp(xyz[1] + dj[k], im->height);
        memcpy(out + 4 * k, mem + y * im->pitch + x * im->texel + 4 * comp, 4);
    }
}

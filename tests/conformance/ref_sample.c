/*
 * ref_sample.c -- the reference for tex's sampling (PTX ISA 9.7.10.3 tex,
 * and the CUDA programming guide's texture fetching appendix, which the ISA
 * defers to for filtering and addressing), with clamp addressing and
 * unnormalised coordinates:
 *
 *   nearest   texel floor(x) in each dimension, clamped to the image
 *   linear    texels i = floor(x - 0.5) and i + 1 in each dimension, each
 *             clamped, weighted by alpha = frac(x - 0.5) "stored in 9-bit
 *             fixed point format with 8 bits of fractional value": the
 *             per-axis weights are alpha in 256ths (the runner picks
 *             coordinates where cutting and rounding agree); a corner's
 *             weight, in 256ths, as an H200 forms it (tests/gpu/probe.cu):
 *             in two dimensions the far corner's a0 * a1 / 256 rounded
 *             half up, the edges a0 and a1 less it, the near corner the
 *             rest; in three (not measured) each of those times a2 / 256
 *             rounded half up for the far slice, the near slice the rest
 *   layered   (a1d, a2d, acube) the first coordinate selects the layer
 *             (a cube of six faces for acube), clamped to the last one as
 *             graphics APIs clamp an array index (the ISA says nothing)
 *   cube      the direction (x, y, z) picks the face of its largest
 *             component and the face coordinates (s, t) from the guide's
 *             cubemap table, s = (sc / |ma| + 1) / 2 and t likewise,
 *             normalised across the face
 *   .level and .grad on a texture of one level: level 0 (the level of
 *             detail is clamped to the levels there are)
 */
#include "refs.h"

#include <math.h>

static int64_t clampi(int64_t v, int64_t n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static const uint8_t *texel_at(const ref_sampled *im, const uint8_t *mem, uint32_t layer, const int64_t *ijk)
{
    return mem + (uint64_t)layer * im->layer_bytes + (uint64_t)clampi(ijk[2], im->size[2]) * im->slice +
           (uint64_t)clampi(ijk[1], im->size[1]) * im->pitch + (uint64_t)clampi(ijk[0], im->size[0]) * 16u;
}

uint32_t ref_cube_face(const double *v, double *st)
{
    double ax = fabs(v[0]), ay = fabs(v[1]), az = fabs(v[2]), ma, sc, tc;
    uint32_t face;
    if (ax > ay && ax > az) {
        ma = ax;
        face = v[0] > 0 ? 0 : 1;
        sc = v[0] > 0 ? -v[2] : v[2];
        tc = -v[1];
    } else if (ay > ax && ay > az) {
        ma = ay;
        face = v[1] > 0 ? 2 : 3;
        sc = v[0];
        tc = v[1] > 0 ? v[2] : -v[2];
    } else {
        ma = az;
        face = v[2] > 0 ? 4 : 5;
        sc = v[2] > 0 ? v[0] : -v[0];
        tc = -v[1];
    }
    st[0] = (sc / ma + 1) / 2;
    st[1] = (tc / ma + 1) / 2;
    return face;
}

void ref_sample_nearest(const ref_sampled *im, const uint8_t *mem, uint32_t layer, const double *x, uint8_t *out)
{
    int64_t ijk[3] = { 0, 0, 0 };
    for (unsigned d = 0; d < im->dims; d++)
        ijk[d] = (int64_t)floor(x[d]);
    memcpy(out, texel_at(im, mem, layer, ijk), 16);
}

void ref_sample_linear(const ref_sampled *im, const uint8_t *mem, uint32_t layer, const double *x, double *out,
                       double *magnitude)
{
    int64_t base[3] = { 0, 0, 0 };
    long a[3] = { 0, 0, 0 };                    /* 256ths */
    for (unsigned d = 0; d < im->dims; d++) {
        double xb = x[d] - 0.5;
        base[d] = (int64_t)floor(xb);
        a[d] = (long)floor((xb - floor(xb)) * 256);
    }
    long w[8] = { 256 - a[0], a[0] };
    if (im->dims >= 2) {
        long far = (a[0] * a[1] + 128) / 256;
        w[0] = 256 - a[0] - a[1] + far, w[1] = a[0] - far, w[2] = a[1] - far, w[3] = far;
    }
    if (im->dims == 3)
        for (unsigned c = 0; c < 4; c++) {
            w[c + 4] = (w[c] * a[2] + 128) / 256;
            w[c] -= w[c + 4];
        }
    for (unsigned k = 0; k < 4; k++)
        out[k] = magnitude[k] = 0;
    for (unsigned corner = 0; corner < 1u << im->dims; corner++) {
        int64_t ijk[3] = { base[0], base[1], base[2] };
        double wgt = w[corner] / 256.0;
        for (unsigned d = 0; d < im->dims; d++)
            ijk[d] += corner >> d & 1;
        const uint8_t *p = texel_at(im, mem, layer, ijk);
        for (unsigned k = 0; k < 4; k++) {
            float v;
            memcpy(&v, p + 4 * k, 4);
            out[k] += wgt * v;
            magnitude[k] += fabs(wgt * v);
        }
    }
}

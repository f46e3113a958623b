/*
 * md_liquid.h -- the liquid the molecular-dynamics samples work on
 * (md_neighbor_list, md_lennard_jones): n particles at the density of
 * HOOMD's benchmark liquid (packing fraction 0.2), on randomly chosen
 * sites of a cubic lattice, each moved by up to a fifth of the spacing (a
 * liquid-like spread with no two particles closer than 0.6 of it), in a
 * periodic box; the array sorted into cubic bins at least one list radius
 * wide by a stable counting sort, in place of HOOMD's space-filling-curve
 * sort (the locality of a spatially sorted particle array).  Cutoff 2.5
 * sigma, list buffer 0.3 sigma (chosen).  The minimum image is computed
 * with the same rounded operations on host and device.
 */
#ifndef PTXSIM_MD_LIQUID_H
#define PTXSIM_MD_LIQUID_H

#include "sample.h"

#include <algorithm>
#include <vector>

#define MAX_NEIGH 128
#define DENSITY 0.38197f /* packing fraction 0.2 of unit spheres: 0.2 * 6 / pi */
#define R_CUT 2.5f
#define R_BUFF 0.3f

/* __fsub_rn and friends keep nvcc and clang from fusing into fma, which
 * the host does not do. */
__device__ inline float min_image(float d, float box, float half)
{
    if (d > half)
        return __fsub_rn(d, box);
    if (d < -half)
        return __fadd_rn(d, box);
    return d;
}

static inline float host_min_image(float d, float box, float half)
{
    if (d > half)
        return d - box;
    if (d < -half)
        return d + box;
    return d;
}

struct md_liquid {
    int n, nb;                  /* particles; bins per side (nb^3 bins) */
    float box, half, side;      /* the box's edge, half of it, a bin's edge */
    std::vector<float4> pos;    /* in bin order */
    std::vector<int> bin_start; /* bin b's particles: bin_start[b] to bin_start[b + 1] */

    int coord(float x) const
    {
        int c = (int)(x / side);
        return c < nb ? c : nb - 1;
    }
    int bin_of(const float4 &p) const { return (coord(p.z) * nb + coord(p.y)) * nb + coord(p.x); }
    /* The k-th (0-26) of the 27 bins around bin b, z, y, x outermost first. */
    int around(int b, int k) const
    {
        int bx = b % nb, by = b / nb % nb, bz = b / (nb * nb);
        int dx = k % 3 - 1, dy = k / 3 % 3 - 1, dz = k / 9 - 1;
        return (((bz + dz + nb) % nb) * nb + (by + dy + nb) % nb) * nb + (bx + dx + nb) % nb;
    }
};

static md_liquid make_liquid(int n)
{
    md_liquid l;
    l.n = n;
    l.box = (float)std::cbrt((double)n / DENSITY);
    l.half = 0.5f * l.box;
    l.nb = (int)(l.box / (R_CUT + R_BUFF)); /* at least 3 at every size: 27 distinct bins */
    l.side = l.box / l.nb;
    lcg rng(2009);
    int m = (int)std::ceil(std::cbrt((double)n));
    float a = l.box / m;
    std::vector<int> site(m * m * m);
    for (int s = 0; s < (int)site.size(); s++)
        site[s] = s;
    for (int s = (int)site.size() - 1; s > 0; s--)
        std::swap(site[s], site[rng.next() % (unsigned)(s + 1)]);
    std::vector<float4> raw(n);
    for (int i = 0; i < n; i++) {
        int s = site[i];
        float x = (s % m + 0.5f + rng.uniform(-0.2f, 0.2f)) * a;
        float y = (s / m % m + 0.5f + rng.uniform(-0.2f, 0.2f)) * a;
        float z = (s / (m * m) + 0.5f + rng.uniform(-0.2f, 0.2f)) * a;
        raw[i] = make_float4(x, y, z, 0.0f);
    }
    int nbins = l.nb * l.nb * l.nb;
    l.bin_start.assign(nbins + 1, 0);
    for (int i = 0; i < n; i++)
        l.bin_start[l.bin_of(raw[i]) + 1]++;
    for (int b = 0; b < nbins; b++)
        l.bin_start[b + 1] += l.bin_start[b];
    std::vector<int> fill(l.bin_start.begin(), l.bin_start.end() - 1);
    l.pos.resize(n);
    for (int i = 0; i < n; i++)
        l.pos[fill[l.bin_of(raw[i])]++] = raw[i];
    return l;
}

#endif

/*
 * lavamd -- pairwise particle interactions in a box decomposition of 3-D
 * space, in double precision.
 *
 * Space is a cube of boxes, each with a fixed number of particles.  A
 * particle interacts only with the particles of its own box and of the up
 * to 26 boxes around it, through a Gaussian-screened potential: each pair
 * adds q_j exp(-a r^2) to the potential and 2 a q_j exp(-a r^2) (r_i - r_j)
 * to the force.  One block per home box, one thread per home particle; the
 * block walks the home box's neighbour list (built on the host), staging
 * each neighbour box's particles in shared memory.
 *
 * Checked against the same sums on the host: for each of potential and the
 * three force components, the largest error relative to the largest
 * magnitude, tolerance 1e-12 (device and host exp may differ in the last
 * bit, and the compilers contract to FMA differently).
 */
#include "sample.h"

#include <vector>

#define MAX_NBR 27

struct __align__(16) particle {
    double x, y, z, q;
};
struct __align__(16) result {
    double pot, fx, fy, fz;
};

__global__ void interact(const particle *parts, const int *nbr_count, const int *nbr, result *out, int ppb,
                         double alpha)
{
    extern __shared__ particle other[];
    int box = blockIdx.x, t = threadIdx.x;
    particle me = parts[box * ppb + t];
    result r = {0.0, 0.0, 0.0, 0.0};
    for (int j = 0; j < nbr_count[box]; j++) {
        int ob = nbr[box * MAX_NBR + j];
        __syncthreads(); /* the previous box's particles are no longer needed */
        other[t] = parts[ob * ppb + t];
        __syncthreads();
        for (int p = 0; p < ppb; p++) {
            double dx = me.x - other[p].x, dy = me.y - other[p].y, dz = me.z - other[p].z;
            double u = other[p].q * exp(-alpha * (dx * dx + dy * dy + dz * dz));
            double f = 2.0 * alpha * u;
            r.pot += u;
            r.fx += f * dx;
            r.fy += f * dy;
            r.fz += f * dz;
        }
    }
    out[box * ppb + t] = r;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "lavamd");
    int bd = 2, ppb = 32;
    if (size == SIZE_SMALL)
        bd = 4, ppb = 64;
    else if (size == SIZE_STANDARD)
        bd = 10, ppb = 100;
    int nb = bd * bd * bd, np = nb * ppb;
    const double alpha = 0.5;

    lcg rng(61);
    std::vector<particle> parts(np);
    std::vector<int> count(nb), nbr(nb * MAX_NBR);
    for (int b = 0; b < nb; b++) {
        int bx = b % bd, by = b / bd % bd, bz = b / (bd * bd);
        for (int p = 0; p < ppb; p++) {
            particle &q = parts[b * ppb + p];
            q.x = bx + rng.uniform(0.0f, 1.0f);
            q.y = by + rng.uniform(0.0f, 1.0f);
            q.z = bz + rng.uniform(0.0f, 1.0f);
            q.q = rng.uniform(0.1f, 1.0f);
        }
        int c = 0;
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x = bx + dx, y = by + dy, z = bz + dz;
                    if (x >= 0 && x < bd && y >= 0 && y < bd && z >= 0 && z < bd)
                        nbr[b * MAX_NBR + c++] = (z * bd + y) * bd + x;
                }
        count[b] = c;
    }

    particle *d_parts;
    result *d_out;
    int *d_count, *d_nbr;
    CHECK(cudaMalloc(&d_parts, sizeof(particle) * np));
    CHECK(cudaMalloc(&d_out, sizeof(result) * np));
    CHECK(cudaMalloc(&d_count, sizeof(int) * nb));
    CHECK(cudaMalloc(&d_nbr, sizeof(int) * nb * MAX_NBR));
    CHECK(cudaMemcpy(d_parts, parts.data(), sizeof(particle) * np, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_count, count.data(), sizeof(int) * nb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_nbr, nbr.data(), sizeof(int) * nb * MAX_NBR, cudaMemcpyHostToDevice));
    interact<<<nb, ppb, ppb * sizeof(particle)>>>(d_parts, d_count, d_nbr, d_out, ppb, alpha);
    CHECK(cudaGetLastError());
    std::vector<result> got(np);
    CHECK(cudaMemcpy(got.data(), d_out, sizeof(result) * np, cudaMemcpyDeviceToHost));

    std::vector<result> want(np);
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < ppb; i++) {
            const particle &me = parts[b * ppb + i];
            result r = {0, 0, 0, 0};
            for (int j = 0; j < count[b]; j++)
                for (int p = 0; p < ppb; p++) {
                    const particle &o = parts[nbr[b * MAX_NBR + j] * ppb + p];
                    double dx = me.x - o.x, dy = me.y - o.y, dz = me.z - o.z;
                    double u = o.q * std::exp(-alpha * (dx * dx + dy * dy + dz * dz)), f = 2.0 * alpha * u;
                    r.pot += u;
                    r.fx += f * dx;
                    r.fy += f * dy;
                    r.fz += f * dz;
                }
            want[b * ppb + i] = r;
        }
    double err[4] = {0, 0, 0, 0}, scale[4] = {0, 0, 0, 0}, worst = 0;
    for (int i = 0; i < np; i++) {
        const double g[4] = {got[i].pot, got[i].fx, got[i].fy, got[i].fz};
        const double w[4] = {want[i].pot, want[i].fx, want[i].fy, want[i].fz};
        for (int c = 0; c < 4; c++) {
            double e = std::fabs(g[c] - w[c]);
            if (!(e <= err[c]))
                err[c] = e;
            if (std::fabs(w[c]) > scale[c])
                scale[c] = std::fabs(w[c]);
        }
    }
    for (int c = 0; c < 4; c++)
        if (!(err[c] / scale[c] <= worst))
            worst = err[c] / scale[c];
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s boxes=%d particles=%d max_rel_err=%.3g (tolerance 1e-12)",
                  size_name(size), nb, np, worst);
    CHECK(cudaFree(d_parts));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_count));
    CHECK(cudaFree(d_nbr));
    return report(worst <= 1e-12, detail);
}

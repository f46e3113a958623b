/*
 * md_lennard_jones -- the Lennard-Jones force on every particle of a
 * liquid, from a neighbour list, one thread per particle: the
 * diverge-on-miss paper's LJ workload (HOOMD v0.8's force kernel).  A
 * thread reads its list entries (column-major, entry k of particle i at
 * k * n + i, so that read coalesces), gathers each neighbour's position
 * and, where the pair is inside the cutoff, adds the pair force and half
 * the pair energy.  The particle array is sorted by bin (the locality of
 * a spatially sorted particle array), so a warp's 32 particles are close
 * together and share many of their neighbours: most gathers of a warp
 * hit, and the lanes whose neighbour's line is not in the cache miss on
 * their own (memory divergence; the paper's Table 3 works out at about
 * three missing lines per warp memory operation at one warp per core).
 * The list holds neighbours out to the cutoff plus a buffer, so lanes
 * also differ in which pairs they compute.
 *
 * The neighbour list is built on the host, as md_neighbor_list builds it
 * on the device (27 bins around each particle, list radius = cutoff +
 * buffer); only the force kernel runs on the device.  Substituted: HOOMD's
 * benchmark liquid (64000 particles at packing fraction 0.2, first 600
 * steps) by one evaluation over a synthetic configuration at the same
 * density: randomly chosen sites of a cubic lattice, jittered, in a
 * periodic box (no two particles closer than 0.6 of the spacing, so the
 * forces stay finite), and bin order in place of HOOMD's
 * space-filling-curve sort.  Epsilon = sigma = 1, cutoff 2.5 sigma,
 * buffer 0.3 sigma (chosen).  Host and device add the same rounded
 * operations in the same order (the device's as __fadd_rn and friends,
 * which no compiler fuses into fma), so forces and energies must match bit
 * for bit.
 */
#include "md_liquid.h"

#include <cstring>

#define BLOCK 32

/* The minimum image, as branches (min_image) or as selects. */
template <bool SELECTS>
__device__ inline float image(float d, float box, float half)
{
    if (!SELECTS)
        return min_image(d, box, half);
    float below = __fsub_rn(d, box), above = __fadd_rn(d, box);
    return d > half ? below : d < -half ? above : d;
}

/* Two forms for the diverge-on-miss study's ablations, whose paper traced
 * native CPU code between memory references on cores without control flow:
 * SELECTS, every branch of the loop body made a select (the minimum image
 * and the cutoff test), so that lanes part on control flow only at the
 * loop's end (`md_lennard_jones SIZE 1`); ROWS, each particle's list in a
 * row of its own, packed one after another (as a CPU code keeps it), so a
 * lane's list entries share lines with its own earlier ones rather than
 * with the other lanes' (`md_lennard_jones SIZE 2`): n_neigh then holds the
 * rows' starts, n + 1 of them. */
template <bool SELECTS, bool ROWS>
__global__ void lj_force(const float4 *pos, const int *nlist, const int *n_neigh, int n, float box,
                         float r_cut2, float4 *force)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = pos[i];
    float half = 0.5f * box;
    float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
    int start = ROWS ? n_neigh[i] : 0;
    int cnt = ROWS ? n_neigh[i + 1] - start : n_neigh[i];
    for (int k = 0; k < cnt; k++) {
        int j = ROWS ? nlist[start + k] : nlist[k * n + i];
        float4 q = pos[j];
        float dx = image<SELECTS>(__fsub_rn(p.x, q.x), box, half);
        float dy = image<SELECTS>(__fsub_rn(p.y, q.y), box, half);
        float dz = image<SELECTS>(__fsub_rn(p.z, q.z), box, half);
        float r2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
        bool inside = r2 < r_cut2;
        if (inside || SELECTS) {
            float r2inv = __fdiv_rn(1.0f, r2);
            float r6inv = __fmul_rn(__fmul_rn(r2inv, r2inv), r2inv);
            /* F / r = 24 (2 r^-12 - r^-6) / r^2; E / 2 = 2 (r^-12 - r^-6). */
            float f_div_r = __fmul_rn(__fmul_rn(r2inv, r6inv), __fsub_rn(__fmul_rn(48.0f, r6inv), 24.0f));
            fx = inside ? __fadd_rn(fx, __fmul_rn(dx, f_div_r)) : fx;
            fy = inside ? __fadd_rn(fy, __fmul_rn(dy, f_div_r)) : fy;
            fz = inside ? __fadd_rn(fz, __fmul_rn(dz, f_div_r)) : fz;
            e = inside ? __fadd_rn(e, __fmul_rn(__fmul_rn(2.0f, r6inv), __fsub_rn(r6inv, 1.0f))) : e;
        }
    }
    force[i] = make_float4(fx, fy, fz, e);
}

/* Squared minimum-image distance, in the device's order of operations. */
static float host_r2(const float4 &p, const float4 &q, float box, float half, float *dx, float *dy, float *dz)
{
    *dx = host_min_image(p.x - q.x, box, half);
    *dy = host_min_image(p.y - q.y, box, half);
    *dz = host_min_image(p.z - q.z, box, half);
    float xx = *dx * *dx, yy = *dy * *dy, zz = *dz * *dz;
    float s = xx + yy;
    return s + zz;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "md_lennard_jones");
    int variant = dimension_arg(argc, argv, 0, 0);          /* md_lennard_jones SIZE [1|2]: lj_force's forms */
    if (variant > 2) {
        std::fprintf(stderr, "md_lennard_jones: the form after the size is 1 (selects), 2 (rows) or none\n");
        return 2;
    }
    bool select = variant == 1, rows = variant == 2;
    /* Not powers of two: the list's rows, n * 4 bytes apart, would then all
     * fall in the same L1 sets, and lanes that run ahead (diverge on miss)
     * would evict the rows their laggards still need. */
    int n = 1100;
    if (size == SIZE_SMALL)
        n = 32000;
    else if (size == SIZE_STANDARD)
        n = 64000;
    md_liquid l = make_liquid(n);
    const std::vector<float4> &pos = l.pos;
    float box = l.box, half = l.half;
    float r_list = R_CUT + R_BUFF, r_list2 = r_list * r_list, r_cut2 = R_CUT * R_CUT;

    /* Each particle's neighbours in HOOMD's order: the 27 bins around its
     * own, each bin's particles in array order. */
    std::vector<int> nlist((size_t)MAX_NEIGH * n, 0), n_neigh(n, 0);
    long listed = 0;
    for (int i = 0; i < n; i++) {
        int home = l.bin_of(pos[i]);
        for (int k = 0; k < 27; k++) {
            int b = l.around(home, k);
            for (int j = l.bin_start[b]; j < l.bin_start[b + 1]; j++) {
                float dx, dy, dz;
                if (j != i && host_r2(pos[j], pos[i], box, half, &dx, &dy, &dz) < r_list2 && n_neigh[i] < MAX_NEIGH)
                    nlist[(size_t)n_neigh[i]++ * n + i] = j;
            }
        }
        listed += n_neigh[i];
    }

    float4 *dpos, *dforce;
    int *dnlist, *dn;
    CHECK(cudaMalloc(&dpos, sizeof(float4) * n));
    CHECK(cudaMalloc(&dforce, sizeof(float4) * n));
    CHECK(cudaMalloc(&dnlist, sizeof(int) * nlist.size()));
    CHECK(cudaMalloc(&dn, sizeof(int) * n));
    CHECK(cudaMemcpy(dpos, pos.data(), sizeof(float4) * n, cudaMemcpyHostToDevice));
    if (rows) {
        /* Each particle's entries in a row of their own, rows packed. */
        std::vector<int> packed, starts(n + 1, 0);
        for (int i = 0; i < n; i++) {
            starts[i] = (int)packed.size();
            for (int k = 0; k < n_neigh[i]; k++)
                packed.push_back(nlist[(size_t)k * n + i]);
        }
        starts[n] = (int)packed.size();
        CHECK(cudaMemcpy(dnlist, packed.data(), sizeof(int) * packed.size(), cudaMemcpyHostToDevice));
        CHECK(cudaFree(dn));
        CHECK(cudaMalloc(&dn, sizeof(int) * (n + 1)));
        CHECK(cudaMemcpy(dn, starts.data(), sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    } else {
        CHECK(cudaMemcpy(dnlist, nlist.data(), sizeof(int) * nlist.size(), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dn, n_neigh.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    }
    unsigned blocks = (n + BLOCK - 1) / BLOCK;
    if (select)
        lj_force<true, false><<<blocks, BLOCK>>>(dpos, dnlist, dn, n, box, r_cut2, dforce);
    else if (rows)
        lj_force<false, true><<<blocks, BLOCK>>>(dpos, dnlist, dn, n, box, r_cut2, dforce);
    else
        lj_force<false, false><<<blocks, BLOCK>>>(dpos, dnlist, dn, n, box, r_cut2, dforce);
    CHECK(cudaGetLastError());
    std::vector<float4> got(n);
    CHECK(cudaMemcpy(got.data(), dforce, sizeof(float4) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dpos));
    CHECK(cudaFree(dforce));
    CHECK(cudaFree(dnlist));
    CHECK(cudaFree(dn));

    long wrong = 0, inside = 0;
    for (int i = 0; i < n; i++) {
        float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
        for (int k = 0; k < n_neigh[i]; k++) {
            float dx, dy, dz;
            float r2 = host_r2(pos[i], pos[nlist[(size_t)k * n + i]], box, half, &dx, &dy, &dz);
            if (r2 < r_cut2) {
                inside++;
                float r2inv = 1.0f / r2;
                float r4inv = r2inv * r2inv, r6inv = r4inv * r2inv;
                float r8inv = r2inv * r6inv, lj = 48.0f * r6inv - 24.0f, f_div_r = r8inv * lj;
                fx = fx + dx * f_div_r;
                fy = fy + dy * f_div_r;
                fz = fz + dz * f_div_r;
                float e2 = 2.0f * r6inv, e1 = r6inv - 1.0f;
                e = e + e2 * e1;
            }
        }
        float want[4] = { fx, fy, fz, e }, have[4] = { got[i].x, got[i].y, got[i].z, got[i].w };
        wrong += std::memcmp(want, have, sizeof want) != 0;
    }
    bool full = *std::max_element(n_neigh.begin(), n_neigh.end()) >= MAX_NEIGH;
    char detail[192];
    std::snprintf(detail, sizeof detail,
                  "size=%s %d particles, one per thread%s: %.1f listed neighbours, %.1f inside the cutoff%s, "
                  "wrong forces=%ld (bit-exact)",
                  size_name(size), n, select ? ", loop body as selects" : rows ? ", a row of list entries each" : "", (double)listed / n,
                  (double)inside / n, full ? ", LIST FULL" : "", wrong);
    return report(wrong == 0 && !full, detail);
}

/*
 * md_neighbor_list -- neighbour-list generation for a molecular dynamics
 * step, written the way HOOMD v0.8's binned kernel is: the diverge-on-miss
 * paper's NL workload.  The particles are sorted into cubic bins at least
 * one list radius wide; one thread per particle walks the 27 bins around
 * its own, gathers the position of every particle listed in them and keeps
 * those closer than the list radius, which is the force cutoff plus a
 * buffer (larger than the force needs, so the list stays valid for several
 * steps).  The list is stored column-major (entry k of particle i at
 * k * n + i), as HOOMD does, so a warp's writes coalesce.  The particle
 * array is kept in bin order (the locality of a spatially sorted particle
 * array), so a warp's 32 particles lie in a few neighbouring bins: the
 * lanes of one bin read the same addresses, but lanes of different bins walk
 * different member lists, of different lengths, drift out of step and
 * gather positions at their own addresses, hitting and missing
 * independently (memory divergence): the paper's Table 3 works out at
 * about one missing line per warp memory operation for NL.
 *
 * Substituted: HOOMD's benchmark liquid (64000 Lennard-Jones particles at
 * packing fraction 0.2, first 600 steps, the list rebuilt every 10) by one
 * build over a synthetic configuration at the same density: particles on
 * randomly chosen sites of a cubic lattice, jittered, in a periodic box,
 * and bin order in place of HOOMD's space-filling-curve sort.  Cutoff 2.5
 * sigma, buffer 0.3 sigma (chosen).  The distance test uses the same
 * rounded operations in the same order on host and device, so the lists
 * must match exactly (compared as sets, since the host walks the bins its
 * own way).
 */
#include "md_liquid.h"

#define BLOCK 32

__global__ void neighbor_list(const float4 *pos, const int *bin_of, const int *bin_count,
                              const int *bin_members, const int *bin_adj, int bin_cap, int n, float box,
                              float r_list2, int *nlist, int *n_neigh)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = pos[i];
    float half = 0.5f * box;
    int b = bin_of[i];
    int cnt = 0;
    for (int k = 0; k < 27; k++) {
        int nb = bin_adj[b * 27 + k];
        int members = bin_count[nb];
        for (int s = 0; s < members; s++) {
            int j = bin_members[nb * bin_cap + s];
            if (j == i)
                continue;
            float4 q = pos[j];
            float dx = min_image(__fsub_rn(q.x, p.x), box, half);
            float dy = min_image(__fsub_rn(q.y, p.y), box, half);
            float dz = min_image(__fsub_rn(q.z, p.z), box, half);
            float r2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
            if (r2 < r_list2) {
                if (cnt < MAX_NEIGH)
                    nlist[cnt * n + i] = j;
                cnt++;
            }
        }
    }
    n_neigh[i] = cnt;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "md_neighbor_list");
    /* Not powers of two, so the list's rows (n * 4 bytes apart) do not all
     * fall in the same L1 sets. */
    int n = 1100;
    if (size == SIZE_SMALL)
        n = 16000;
    else if (size == SIZE_STANDARD)
        n = 64000;
    md_liquid l = make_liquid(n);
    const std::vector<float4> &pos = l.pos;
    const std::vector<int> &bin_start = l.bin_start;
    float box = l.box, half = l.half, r_list = R_CUT + R_BUFF, r_list2 = r_list * r_list;
    int nb = l.nb, nbins = nb * nb * nb;

    /* The device's bin tables, as HOOMD keeps them: each particle's bin,
     * each bin's count and members (bin_cap a bin), each bin's 27
     * neighbours. */
    std::vector<int> bin_count(nbins), bin_of(n), bin_adj((size_t)nbins * 27);
    for (int b = 0; b < nbins; b++)
        bin_count[b] = bin_start[b + 1] - bin_start[b];
    int bin_cap = *std::max_element(bin_count.begin(), bin_count.end());
    std::vector<int> bin_members((size_t)nbins * bin_cap, -1);
    for (int b = 0; b < nbins; b++) {
        for (int s = 0; s < bin_count[b]; s++) {
            bin_of[bin_start[b] + s] = b;
            bin_members[(size_t)b * bin_cap + s] = bin_start[b] + s;
        }
        for (int k = 0; k < 27; k++)
            bin_adj[(size_t)b * 27 + k] = l.around(b, k);
    }

    float4 *dpos;
    int *dbin_of, *dcount, *dmembers, *dadj, *dnlist, *dn;
    CHECK(cudaMalloc(&dpos, sizeof(float4) * n));
    CHECK(cudaMalloc(&dbin_of, sizeof(int) * n));
    CHECK(cudaMalloc(&dcount, sizeof(int) * nbins));
    CHECK(cudaMalloc(&dmembers, sizeof(int) * bin_members.size()));
    CHECK(cudaMalloc(&dadj, sizeof(int) * bin_adj.size()));
    CHECK(cudaMalloc(&dnlist, sizeof(int) * (size_t)MAX_NEIGH * n));
    CHECK(cudaMalloc(&dn, sizeof(int) * n));
    CHECK(cudaMemcpy(dpos, pos.data(), sizeof(float4) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbin_of, bin_of.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcount, bin_count.data(), sizeof(int) * nbins, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dmembers, bin_members.data(), sizeof(int) * bin_members.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dadj, bin_adj.data(), sizeof(int) * bin_adj.size(), cudaMemcpyHostToDevice));
    neighbor_list<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(dpos, dbin_of, dcount, dmembers, dadj, bin_cap, n, box,
                                                      r_list2, dnlist, dn);
    CHECK(cudaGetLastError());
    std::vector<int> nlist((size_t)MAX_NEIGH * n), got_n(n);
    CHECK(cudaMemcpy(nlist.data(), dnlist, sizeof(int) * nlist.size(), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_n.data(), dn, sizeof(int) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dpos));
    CHECK(cudaFree(dbin_of));
    CHECK(cudaFree(dcount));
    CHECK(cudaFree(dmembers));
    CHECK(cudaFree(dadj));
    CHECK(cudaFree(dnlist));
    CHECK(cudaFree(dn));

    /* The host finds each particle's bin from its position and the bins
     * around it by offset, and takes their particles from the sorted order,
     * not through the device's bin tables. */
    long wrong = 0, total = 0;
    int most = 0;
    std::vector<int> want, got;
    for (int i = 0; i < n; i++) {
        want.clear();
        got.clear();
        int home = l.bin_of(pos[i]);
        for (int k = 0; k < 27; k++) {
            int b = l.around(home, k);
            for (int j = bin_start[b]; j < bin_start[b + 1]; j++) {
                if (j == i)
                    continue;
                float dx = host_min_image(pos[j].x - pos[i].x, box, half);
                float dy = host_min_image(pos[j].y - pos[i].y, box, half);
                float dz = host_min_image(pos[j].z - pos[i].z, box, half);
                float r2 = dx * dx + dy * dy;
                r2 = r2 + dz * dz;
                if (r2 < r_list2)
                    want.push_back(j);
            }
        }
        total += (long)want.size();
        most = std::max(most, got_n[i]);
        if (got_n[i] != (int)want.size() || got_n[i] > MAX_NEIGH) {
            wrong++;
            continue;
        }
        for (int k = 0; k < got_n[i]; k++)
            got.push_back(nlist[(size_t)k * n + i]);
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        wrong += got != want;
    }
    char detail[192];
    std::snprintf(detail, sizeof detail,
                  "size=%s %d particles, %d^3 bins, one particle per thread: %.1f neighbours each (most %d), "
                  "wrong lists=%ld (exact)",
                  size_name(size), n, nb, (double)total / n, most, wrong);
    return report(wrong == 0, detail);
}

/*
 * merge_rank -- a stable merge sort of (key, value) pairs, one element per
 * thread per pass: the "sort" of the diverge-on-miss paper's workloads,
 * written one item per thread with data-dependent addresses.  Each pass
 * merges neighbouring sorted runs of width w: a thread binary-searches its
 * key in the partner run to find how many of the partner's keys go before
 * it, and writes the pair straight to its final place in the merged run.
 * The 32 lanes of a warp hold 32 consecutive keys of one run, so their
 * searches share the first probes (hits) and split apart in the last ones,
 * each lane fetching its own line of the partner run: lanes hit and miss
 * independently, the memory-divergent pattern diverge on miss is for.
 * The first passes (short runs) stay within a few lines; the later ones,
 * over runs much larger than a warp's reach, are the divergent part.
 * Keys are drawn from a small range so equal keys are common, and the
 * value is each pair's original index, so the check against the host's
 * sort by (key, original index) is exact and also catches an unstable
 * merge.
 */
#include "sample.h"

#include <algorithm>
#include <utility>
#include <vector>

#define BLOCK 32

__global__ void merge_pass(const unsigned *keys, const unsigned *vals, unsigned *out_keys, unsigned *out_vals,
                           int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int run = i / w;
    int pair_base = (run & ~1) * w;
    bool left = (run & 1) == 0;
    int other = left ? pair_base + w : pair_base;
    int other_len = left ? min(w, n - other) : w;
    if (other_len < 0)
        other_len = 0;
    unsigned k = keys[i];
    /* A left key goes after the partner's smaller keys only; a right key
     * also after the partner's equal ones: equal keys keep their order. */
    int lo = 0, hi = other_len;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        unsigned m = keys[other + mid];
        if (m < k || (!left && m == k))
            lo = mid + 1;
        else
            hi = mid;
    }
    int dst = pair_base + (i - run * w) + lo;
    out_keys[dst] = k;
    out_vals[dst] = vals[i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "merge_rank");
    /* Not powers of two, so the last pair of runs is ragged in every pass. */
    int n = 30000;
    if (size == SIZE_SMALL)
        n = 250000;
    else if (size == SIZE_STANDARD)
        n = 2000000;
    std::vector<unsigned> keys(n), vals(n);
    lcg rng(97);
    for (int i = 0; i < n; i++) {
        keys[i] = rng.next() % (unsigned)(n / 4);
        vals[i] = (unsigned)i;
    }
    unsigned *dk[2], *dv[2];
    for (int b = 0; b < 2; b++) {
        CHECK(cudaMalloc(&dk[b], sizeof(unsigned) * n));
        CHECK(cudaMalloc(&dv[b], sizeof(unsigned) * n));
    }
    CHECK(cudaMemcpy(dk[0], keys.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv[0], vals.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    int cur = 0, passes = 0;
    for (int w = 1; w < n; w *= 2, passes++) {
        merge_pass<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(dk[cur], dv[cur], dk[cur ^ 1], dv[cur ^ 1], n, w);
        CHECK(cudaGetLastError());
        cur ^= 1;
    }
    std::vector<unsigned> got_k(n), got_v(n);
    CHECK(cudaMemcpy(got_k.data(), dk[cur], sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_v.data(), dv[cur], sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; b++) {
        CHECK(cudaFree(dk[b]));
        CHECK(cudaFree(dv[b]));
    }

    std::vector<std::pair<unsigned, unsigned>> want(n);
    for (int i = 0; i < n; i++)
        want[i] = std::make_pair(keys[i], vals[i]);
    /* Sorting by (key, original index) is what a stable sort by key gives. */
    std::sort(want.begin(), want.end());
    long wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += got_k[i] != want[i].first || got_v[i] != want[i].second;
    char detail[160];
    std::snprintf(detail, sizeof detail,
                  "size=%s %d keys, %d merge passes, one element per thread: wrong pairs=%ld (exact)",
                  size_name(size), n, passes, wrong);
    return report(wrong == 0, detail);
}

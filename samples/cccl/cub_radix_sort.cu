/*
 * cub_radix_sort -- cub::DeviceRadixSort on 32-bit unsigned keys: SortKeys,
 * SortKeysDescending, SortKeys over a bit range, SortPairs with each key's
 * index as its value, and SortPairs through a DoubleBuffer (where CUB
 * chooses which buffer ends up current).
 *
 * Short inputs take CUB's single-tile kernel; longer ones its multi-pass
 * sort (a histogram kernel, then one "onesweep" pass per 8-bit digit, whose
 * blocks take tiles from an atomic counter and look back at the digit
 * counts of earlier tiles).  Keys are drawn from a narrow range as well as
 * from all 32 bits, so equal keys are common; radix sort is stable, so the
 * expected values are those of std::stable_sort, and every check is exact.
 */
#include "cccl_util.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <numeric>
#include <vector>

template <typename T> static std::vector<T> download(const T *d, int n)
{
    std::vector<T> v(n);
    CHECK(cudaMemcpy(v.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return v;
}

template <typename T> static T *upload(const std::vector<T> &v)
{
    T *d;
    CHECK(cudaMalloc(&d, sizeof(T) * (v.size() ? v.size() : 1)));
    CHECK(cudaMemcpy(d, v.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice));
    return d;
}

static int count_diff(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want)
{
    int d = 0;
    for (size_t i = 0; i < got.size(); i++)
        d += got[i] != want[i];
    return d;
}

/* Every sort of n keys whose values lie in [0, 2^bits), or with `pairs_only`
 * SortPairs alone; returns the number of wrong elements. */
static int check_length(int n, int bits, bool pairs_only, lcg &rng, uint32_t *checksum)
{
    std::vector<uint32_t> keys(n), idx(n);
    uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    for (int i = 0; i < n; i++)
        keys[i] = (rng.next() ^ (rng.next() << 16)) & mask;
    std::iota(idx.begin(), idx.end(), 0u);

    uint32_t *dkeys = upload(keys), *didx = upload(idx);
    uint32_t *dout, *dval, *ddesc, *dlow, *dbuf_k, *dbuf_v;
    CHECK(cudaMalloc(&dout, sizeof(uint32_t) * n));
    CHECK(cudaMalloc(&dval, sizeof(uint32_t) * n));
    CHECK(cudaMalloc(&ddesc, sizeof(uint32_t) * n));
    CHECK(cudaMalloc(&dlow, sizeof(uint32_t) * n));
    CHECK(cudaMalloc(&dbuf_k, sizeof(uint32_t) * n));
    CHECK(cudaMalloc(&dbuf_v, sizeof(uint32_t) * n));

    if (!pairs_only) {
        cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, dkeys, dout, n); });
        cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeysDescending(t, b, dkeys, ddesc, n); });
        /* Only bits [4, 12) decide the order; equal digits keep their input order. */
        cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, dkeys, dlow, n, 4, 12); });
    }

    uint32_t *dpk;
    CHECK(cudaMalloc(&dpk, sizeof(uint32_t) * n));
    cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, dkeys, dpk, didx, dval, n); });
    std::vector<uint32_t> pair_keys = download(dpk, n), pair_vals = download(dval, n);

    /* DoubleBuffer: the sort ping-pongs between the two buffers and says
     * which one holds the result. */
    cub::DoubleBuffer<uint32_t> dbk(dkeys, dbuf_k), dbv(didx, dbuf_v);
    if (!pairs_only)
        cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, dbk, dbv, n); });
    CHECK(cudaDeviceSynchronize());

    /* The host's answers. */
    std::vector<uint32_t> want = keys, want_desc = keys, want_low = keys, order = idx;
    std::sort(want.begin(), want.end());
    std::sort(want_desc.begin(), want_desc.end(), [](uint32_t a, uint32_t b) { return a > b; });
    std::stable_sort(want_low.begin(), want_low.end(),
                     [](uint32_t a, uint32_t b) { return ((a >> 4) & 0xFF) < ((b >> 4) & 0xFF); });
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });

    int wrong = count_diff(pair_keys, want) + count_diff(pair_vals, order);
    if (!pairs_only) {
        std::vector<uint32_t> sorted = download(dout, n), desc = download(ddesc, n), low = download(dlow, n);
        std::vector<uint32_t> db_keys = download(dbk.Current(), n), db_vals = download(dbv.Current(), n);
        int keys_wrong = count_diff(sorted, want), desc_wrong = count_diff(desc, want_desc);
        int low_wrong = count_diff(low, want_low), dbk_wrong = count_diff(db_keys, want);
        int dbv_wrong = count_diff(db_vals, order);
        wrong += keys_wrong + desc_wrong + low_wrong + dbk_wrong + dbv_wrong;
        if (wrong)
            std::printf("n=%d bits=%d: keys %d descending %d bits[4,12) %d double-buffer %d/%d wrong\n", n, bits,
                        keys_wrong, desc_wrong, low_wrong, dbk_wrong, dbv_wrong);
    }
    if (wrong)
        std::printf("n=%d bits=%d: pairs %d/%d wrong\n", n, bits, count_diff(pair_keys, want),
                    count_diff(pair_vals, order));
    for (int i = 0; i < n; i++)
        *checksum = *checksum * 31u + want[i] + order[i];

    for (uint32_t *p : {dkeys, didx, dout, dval, ddesc, dlow, dbuf_k, dbuf_v, dpk})
        CHECK(cudaFree(p));
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cub_radix_sort");
    int big = size == SIZE_TINY ? 20000 + 3 : size == SIZE_SMALL ? 1000000 + 7 : (1 << 23) + 5;
    /* (length, key bits, pairs only): a single tile, and several tiles with
     * full-width keys and with 12-bit keys (many equal keys: pairs keep
     * their order).  Each multi-tile sort launches a histogram kernel with
     * a block per SM, the bulk of the work at tiny, so the 12-bit case sorts
     * pairs alone. */
    struct { int n, bits; bool pairs_only; } cases[] = {
        {1, 32, false}, {7, 32, false}, {1000, 32, false}, {1000, 8, false}, {big, 32, false}, {big, 12, true}};

    lcg rng(29);
    int wrong = 0;
    uint32_t checksum = 0;
    for (auto c : cases)
        wrong += check_length(c.n, c.bits, c.pairs_only, rng, &checksum);

    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s largest n=%d checksum=%08x wrong=%d (tolerance: exact)",
                  size_name(size), big, checksum, wrong);
    return report(wrong == 0, detail);
}

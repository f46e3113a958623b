/*
 * warp_vote -- the warp-wide vote and match intrinsics, and the bit counts
 * that usually go with them: __ballot_sync, __any_sync, __all_sync,
 * __activemask (converged and inside a divergent branch), __popc, __ffs,
 * and on sm_70+ __match_any_sync and __match_all_sync.
 *
 * Blocks of 80 threads, so the third warp of each block has 16 lanes and
 * every mask must leave the missing lanes out.  The predicates are all true
 * in some warps, all false in others, random in the rest; the match keys
 * take few distinct values so groups form.  Every thread writes what each
 * intrinsic returned to it, and the host recomputes all of it from the
 * inputs: exact.  (Inside a plain if on data, the lanes that take it run
 * together, so __activemask there names exactly them.)
 */
#include "sample.h"

#define BLOCK 80
#define FIELDS 13

__device__ __forceinline__ unsigned lanes_present()
{
    /* The last warp of a block whose size is not a multiple of 32 is short. */
    int here = (int)blockDim.x - (int)(threadIdx.x & ~31u);
    return here >= 32 ? 0xFFFFFFFFu : (1u << here) - 1;
}

__global__ void vote(const int *pred_in, const unsigned *key_in, unsigned *out, int *match_ran)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    unsigned mask = lanes_present();
    int pred = pred_in[t];
    unsigned key = key_in[t];
    unsigned *o = out + (size_t)t * FIELDS;

    unsigned ballot = __ballot_sync(mask, pred);
    o[0] = ballot;
    o[1] = __any_sync(mask, pred);
    o[2] = __all_sync(mask, pred);
    __syncwarp(mask);
    o[3] = __activemask();
    if (key & 1)
        o[4] = __activemask();
    else
        o[4] = ~__activemask();
    /* Votes inside a branch on the lane number, with the branch's own mask. */
    unsigned thirds = 0x49249249u; /* lanes 0, 3, 6, ... */
    if (lane % 3 != 0)
        o[5] = __ballot_sync(mask & ~thirds, pred);
    else
        o[5] = __all_sync(mask & thirds, pred) ? 0xA11u : 0x0u;
    o[6] = __popc(ballot);
    o[7] = __ffs(ballot);
    o[8] = __ffs(key);
    o[9] = __popc(key);
#if __CUDA_ARCH__ >= 700
    unsigned group = key % 5;
    o[10] = __match_any_sync(mask, group);
    /* Every fifth warp offers one value from all its lanes. */
    unsigned same = (blockIdx.x * 3 + threadIdx.x / 32) % 5 == 0 ? 7u : group;
    int all_equal = -1;
    o[11] = __match_all_sync(mask, same, &all_equal);
    o[12] = (unsigned)all_equal;
    if (t == 0)
        *match_ran = 1;
#else
    o[10] = o[11] = o[12] = 0;
    (void)match_ran;
#endif
}

static unsigned ffs_host(unsigned v)
{
    for (unsigned i = 0; i < 32; i++)
        if (v >> i & 1)
            return i + 1;
    return 0;
}

static unsigned popc_host(unsigned v)
{
    unsigned c = 0;
    for (; v; v &= v - 1)
        c++;
    return c;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "warp_vote");
    int grid = size == SIZE_TINY ? 12 : size == SIZE_SMALL ? 20000 : 60000;
    int n = grid * BLOCK;
    int *pred = (int *)std::malloc(sizeof(int) * n);
    unsigned *key = (unsigned *)std::malloc(sizeof(unsigned) * n);
    unsigned *out = (unsigned *)std::malloc(sizeof(unsigned) * n * FIELDS);
    lcg rng(29);
    for (int t = 0; t < n; t++) {
        key[t] = rng.next();
        if (rng.next() % 7 == 0)
            key[t] = 0; /* __ffs(0) is 0 */
    }
    /* The pattern of each warp's predicates; a warp is (block, t / 32 in the
     * block), since 80-thread blocks do not start on multiples of 32. */
    for (int b = 0; b < grid; b++)
        for (int w = 0; w < 3; w++) {
            int kind = (b * 3 + w) % 4;
            for (int l = 0; l < 32 && w * 32 + l < BLOCK; l++) {
                int t = b * BLOCK + w * 32 + l;
                pred[t] = kind == 0 ? 1 : kind == 1 ? 0 : (int)(rng.next() % 3 == 0);
                if (kind == 0 && rng.next() % 2)
                    pred[t] = 2 + (int)(rng.next() % 100); /* any non-zero is true */
            }
        }
    int *dpred, *dflag, flag = 0;
    unsigned *dkey, *dout;
    CHECK(cudaMalloc(&dpred, sizeof(int) * n));
    CHECK(cudaMalloc(&dkey, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dout, sizeof(unsigned) * n * FIELDS));
    CHECK(cudaMalloc(&dflag, sizeof(int)));
    CHECK(cudaMemcpy(dpred, pred, sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dkey, key, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dflag, 0, sizeof(int)));
    vote<<<grid, BLOCK>>>(dpred, dkey, dout, dflag);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(unsigned) * n * FIELDS, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&flag, dflag, sizeof flag, cudaMemcpyDeviceToHost));

    const char *field_name[FIELDS] = {"ballot",   "any",        "all",        "activemask", "activemask-branch",
                                      "vote-lane-branch", "popc",  "ffs",        "ffs-key",    "popc-key",
                                      "match_any", "match_all", "match_all-pred"};
    long wrong[FIELDS] = {0};
    int fields = flag ? FIELDS : 10;
    for (int b = 0; b < grid; b++)
        for (int w = 0; w < 3; w++) {
            int first = b * BLOCK + w * 32, count = BLOCK - w * 32 < 32 ? BLOCK - w * 32 : 32;
            unsigned mask = count == 32 ? 0xFFFFFFFFu : (1u << count) - 1;
            unsigned ballot = 0, odd = 0, branch_ballot = 0;
            bool thirds_all = true;
            for (int l = 0; l < count; l++) {
                ballot |= (pred[first + l] != 0) << l;
                odd |= (key[first + l] & 1) << l;
                if (l % 3 != 0)
                    branch_ballot |= (pred[first + l] != 0) << l;
                else if (!pred[first + l])
                    thirds_all = false;
            }
            for (int l = 0; l < count; l++) {
                int t = first + l;
                unsigned want[FIELDS];
                want[0] = ballot;
                want[1] = ballot != 0;
                want[2] = ballot == mask;
                want[3] = mask;
                want[4] = key[t] & 1 ? odd : ~(mask & ~odd);
                want[5] = l % 3 != 0 ? branch_ballot : thirds_all ? 0xA11u : 0u;
                want[6] = popc_host(ballot);
                want[7] = ffs_host(ballot);
                want[8] = ffs_host(key[t]);
                want[9] = popc_host(key[t]);
                unsigned group_mask = 0, same_all = 1;
                bool one_value = (b * 3 + w) % 5 == 0;
                for (int m = 0; m < count; m++) {
                    group_mask |= (key[first + m] % 5 == key[t] % 5) << m;
                    if (!one_value && key[first + m] % 5 != key[first] % 5)
                        same_all = 0;
                }
                want[10] = group_mask;
                want[11] = same_all ? mask : 0;
                want[12] = same_all;
                for (int f = 0; f < fields; f++)
                    wrong[f] += out[(size_t)t * FIELDS + f] != want[f];
            }
        }
    char detail[400];
    int len = std::snprintf(detail, sizeof detail, "size=%s threads=%d block=%d %s mismatches:", size_name(size), n,
                            BLOCK, flag ? "(match on)" : "(sm<70: match skipped)");
    long total = 0;
    for (int f = 0; f < fields; f++) {
        total += wrong[f];
        if (wrong[f])
            len += std::snprintf(detail + len, sizeof detail - len, " %s=%ld", field_name[f], wrong[f]);
    }
    if (!total)
        len += std::snprintf(detail + len, sizeof detail - len, " 0");
    std::snprintf(detail + len, sizeof detail - len, " (tolerance: exact)");
    CHECK(cudaFree(dpred));
    CHECK(cudaFree(dkey));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dflag));
    std::free(pred);
    std::free(key);
    std::free(out);
    return report(total == 0, detail);
}

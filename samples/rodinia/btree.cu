/*
 * btree -- many independent lookups in a B+tree built on the host.
 *
 * The tree is bulk-loaded on the host from sorted keys, with nodes filled
 * unevenly, and copied to the device with its child links already turned
 * into device addresses, so each search chases real 64-bit pointers from
 * the root to a leaf.  One thread per query: point lookups (half of the
 * keys present, half absent) return the stored value or -1; range queries
 * descend to the first leaf and then walk the leaf chain, counting the keys
 * in [lo, hi] and summing their values.  Integer results: they must equal
 * the host's binary-search answers exactly.
 */
#include "sample.h"

#include <algorithm>
#include <vector>

#define ORDER 8 /* children per internal node; a node holds up to ORDER-1 keys */

struct node {
    int nkeys;
    int is_leaf;
    int keys[ORDER - 1];
    int values[ORDER - 1];     /* leaves only */
    const node *child[ORDER];  /* internal: subtrees; leaf: child[0] is the next leaf */
};

/* Descend from the root to the leaf that would hold key.  An internal
 * node's keys[k] is the smallest key under child[k + 1]. */
__device__ const node *find_leaf(const node *n, int key)
{
    while (!n->is_leaf) {
        int k = 0;
        while (k < n->nkeys && key >= n->keys[k])
            k++;
        n = n->child[k];
    }
    return n;
}

__global__ void find_keys(const node *root, const int *queries, int *found, int nq)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq)
        return;
    int key = queries[q];
    const node *leaf = find_leaf(root, key);
    int value = -1;
    for (int k = 0; k < leaf->nkeys; k++)
        if (leaf->keys[k] == key)
            value = leaf->values[k];
    found[q] = value;
}

__global__ void find_ranges(const node *root, const int *lo, const int *hi, int *count, unsigned *sum, int nr)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nr)
        return;
    const node *leaf = find_leaf(root, lo[r]);
    int c = 0;
    unsigned s = 0;
    for (; leaf; leaf = leaf->child[0]) {
        int k = 0;
        for (; k < leaf->nkeys && leaf->keys[k] <= hi[r]; k++)
            if (leaf->keys[k] >= lo[r]) {
                c++;
                s += (unsigned)leaf->values[k];
            }
        if (k < leaf->nkeys)
            break;
    }
    count[r] = c;
    sum[r] = s;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "btree");
    int nkeys = size == SIZE_TINY ? 3000 : size == SIZE_SMALL ? 500000 : 4000000;
    int nq = size == SIZE_TINY ? 2000 : size == SIZE_SMALL ? 200000 : 1000000;
    int nr = nq / 4;

    lcg rng(5);
    std::vector<int> keys(nkeys), values(nkeys);
    int key = 10;
    for (int i = 0; i < nkeys; i++) {
        key += 1 + (int)(rng.next() % 4);
        keys[i] = key;
        values[i] = (int)(rng.next() & 0x3fffffff);
    }

    /* Bulk load: leaves first (3..7 keys each), then levels of internal
     * nodes (2..8 children each) until one node is left. */
    std::vector<node> nodes;
    std::vector<int> level_nodes, level_min; /* node indices of the current level and their smallest keys */
    for (int i = 0; i < nkeys;) {
        int fill = std::min(3 + (int)(rng.next() % 5), nkeys - i);
        node n = {};
        n.is_leaf = 1;
        n.nkeys = fill;
        for (int k = 0; k < fill; k++) {
            n.keys[k] = keys[i + k];
            n.values[k] = values[i + k];
        }
        level_nodes.push_back((int)nodes.size());
        level_min.push_back(keys[i]);
        nodes.push_back(n);
        i += fill;
    }
    std::vector<int> leaves = level_nodes;
    int depth = 1;
    while (level_nodes.size() > 1) {
        std::vector<int> up_nodes, up_min;
        for (size_t i = 0; i < level_nodes.size();) {
            int fill = std::min(2 + (int)(rng.next() % (ORDER - 1)), (int)(level_nodes.size() - i));
            if (level_nodes.size() - i - fill == 1) /* never leave a single child behind */
                fill = fill == ORDER ? fill - 1 : fill + 1;
            node n = {};
            n.nkeys = fill - 1;
            for (int c = 0; c < fill; c++) {
                /* Child indices for now, device addresses later. */
                n.child[c] = (const node *)(uintptr_t)level_nodes[i + c];
                if (c > 0)
                    n.keys[c - 1] = level_min[i + c];
            }
            up_nodes.push_back((int)nodes.size());
            up_min.push_back(level_min[i]);
            nodes.push_back(n);
            i += fill;
        }
        level_nodes.swap(up_nodes);
        level_min.swap(up_min);
        depth++;
    }
    int root = level_nodes[0];

    node *d_nodes;
    size_t nbytes = sizeof(node) * nodes.size();
    CHECK(cudaMalloc(&d_nodes, nbytes));
    for (node &n : nodes)
        if (!n.is_leaf)
            for (int c = 0; c <= n.nkeys; c++)
                n.child[c] = d_nodes + (uintptr_t)n.child[c];
    for (size_t l = 0; l + 1 < leaves.size(); l++)
        nodes[leaves[l]].child[0] = d_nodes + leaves[l + 1];
    CHECK(cudaMemcpy(d_nodes, nodes.data(), nbytes, cudaMemcpyHostToDevice));

    /* Queries: half present keys, half anything in (and just past) the key range. */
    std::vector<int> q(nq), lo(nr), hi(nr);
    for (int i = 0; i < nq; i++)
        q[i] = i % 2 ? keys[rng.next() % nkeys] : (int)(rng.next() % (unsigned)(key + 20));
    for (int i = 0; i < nr; i++) {
        lo[i] = (int)(rng.next() % (unsigned)(key + 20));
        hi[i] = lo[i] + (int)(rng.next() % 200);
    }
    int *d_q, *d_found, *d_lo, *d_hi, *d_count;
    unsigned *d_sum;
    CHECK(cudaMalloc(&d_q, sizeof(int) * nq));
    CHECK(cudaMalloc(&d_found, sizeof(int) * nq));
    CHECK(cudaMalloc(&d_lo, sizeof(int) * nr));
    CHECK(cudaMalloc(&d_hi, sizeof(int) * nr));
    CHECK(cudaMalloc(&d_count, sizeof(int) * nr));
    CHECK(cudaMalloc(&d_sum, sizeof(unsigned) * nr));
    CHECK(cudaMemcpy(d_q, q.data(), sizeof(int) * nq, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_lo, lo.data(), sizeof(int) * nr, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_hi, hi.data(), sizeof(int) * nr, cudaMemcpyHostToDevice));
    int block = 128;
    find_keys<<<(nq + block - 1) / block, block>>>(d_nodes + root, d_q, d_found, nq);
    CHECK(cudaGetLastError());
    find_ranges<<<(nr + block - 1) / block, block>>>(d_nodes + root, d_lo, d_hi, d_count, d_sum, nr);
    CHECK(cudaGetLastError());
    std::vector<int> found(nq), count(nr);
    std::vector<unsigned> sum(nr);
    CHECK(cudaMemcpy(found.data(), d_found, sizeof(int) * nq, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(count.data(), d_count, sizeof(int) * nr, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sum.data(), d_sum, sizeof(unsigned) * nr, cudaMemcpyDeviceToHost));

    /* Reference answers by binary search of the sorted keys. */
    int wrong = 0, hits = 0;
    for (int i = 0; i < nq; i++) {
        auto it = std::lower_bound(keys.begin(), keys.end(), q[i]);
        int want = it != keys.end() && *it == q[i] ? values[it - keys.begin()] : -1;
        hits += want >= 0;
        wrong += found[i] != want;
    }
    long long in_range = 0;
    for (int i = 0; i < nr; i++) {
        size_t a = std::lower_bound(keys.begin(), keys.end(), lo[i]) - keys.begin();
        size_t b = std::upper_bound(keys.begin(), keys.end(), hi[i]) - keys.begin();
        unsigned s = 0;
        for (size_t k = a; k < b; k++)
            s += (unsigned)values[k];
        in_range += (long long)(b - a);
        wrong += count[i] != (int)(b - a) || sum[i] != s;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s keys=%d nodes=%zu depth=%d lookups=%d (hits %d) ranges=%d (keys %lld) mismatches=%d "
                  "(tolerance: exact)",
                  size_name(size), nkeys, nodes.size(), depth, nq, hits, nr, in_range, wrong);
    CHECK(cudaFree(d_nodes));
    CHECK(cudaFree(d_q));
    CHECK(cudaFree(d_found));
    CHECK(cudaFree(d_lo));
    CHECK(cudaFree(d_hi));
    CHECK(cudaFree(d_count));
    CHECK(cudaFree(d_sum));
    return report(wrong == 0, detail);
}

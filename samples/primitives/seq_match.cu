/*
 * seq_match -- exact matching of short DNA reads against a reference
 * through a suffix trie, one read per thread: the diverge-on-miss paper's
 * SA workload (MUMmerGPU's exact matching mode, with the reads interleaved
 * in memory as the paper changed it to).  For every position of its read a
 * thread walks down the trie from the root, one child pointer per base,
 * until the read and the reference differ; below a node that only one
 * suffix reaches, it goes on comparing against the reference text itself.
 * It writes the length of the longest match starting there and a
 * reference position where it occurs.  Base k of read q sits at
 * k * n_reads + q, so lanes at the same base of their reads share one or
 * two lines; but which trie node a lane fetches next depends on its read,
 * and after the top levels of the trie (shared, so hits) every lane
 * chases its own pointers through nodes spread over the whole trie, each
 * hitting or missing on its own (memory divergence).
 *
 * Substituted: Bacillus anthracis (GenBank NC_003997.3) by a random
 * reference sequence from the sample's generator; reads of 20 bases at
 * tiny (shorter than the paper's shortest, to keep the test cheap), 50 at
 * small and 200 at standard (the paper averages batches of 25, 50, 200 and
 * 800, a million bases each; standard's batch is one million)
 * taken from random places of the reference, as in the paper, but with one
 * base in 16 changed at random, so matches end at different depths in
 * different lanes; and MUMmerGPU's suffix tree by a trie of the
 * reference's suffixes cut at MAX_MATCH bases, whose nodes that only one
 * suffix reaches are left out (the walk then compares with the reference).
 * Everything is integer: the check against a host walk of the trie, base
 * by base and in its own code, is exact.
 */
#include "sample.h"

#include <vector>

#define BLOCK 32
#define MAX_MATCH 32

/* child[c] > 0: the node for base c; < 0: -(p + 1), the only suffix of
 * the reference below, which starts at p; 0: none.  Node 0 is the root. */
struct trie_node {
    int child[4];
};

__global__ void match_reads(const trie_node *trie, const int *node_pos, const unsigned char *ref, int ref_len,
                            const unsigned char *reads, int n_reads, int read_len, int *match_len,
                            int *match_pos)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n_reads)
        return;
    for (int start = 0; start < read_len; start++) {
        int node = 0, depth = 0, pos = -1;
        while (start + depth < read_len && depth < MAX_MATCH) {
            int c = reads[(start + depth) * n_reads + q];
            int next = trie[node].child[c];
            if (next == 0)
                break;
            depth++;
            if (next > 0) {
                node = next;
                pos = node_pos[node];
                continue;
            }
            /* One suffix left: follow the reference text. */
            pos = -next - 1;
            while (start + depth < read_len && depth < MAX_MATCH && pos + depth < ref_len &&
                   ref[pos + depth] == reads[(start + depth) * n_reads + q])
                depth++;
            break;
        }
        match_len[start * n_reads + q] = depth;
        match_pos[start * n_reads + q] = pos;
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "seq_match");
    /* Read counts that are not powers of two: the rows of the interleaved
     * layout would then fall in a few L1 sets only. */
    int ref_len = 8192, n_reads = 1056, read_len = 20;
    if (size == SIZE_SMALL)
        ref_len = 262144, n_reads = 8000, read_len = 50;
    else if (size == SIZE_STANDARD)
        ref_len = 1 << 22, n_reads = 5000, read_len = 200;

    lcg rng(1999);
    std::vector<unsigned char> ref(ref_len);
    for (auto &b : ref)
        b = (unsigned char)(rng.next() & 3);

    /* Insert each suffix, cut at MAX_MATCH bases.  Meeting another suffix's
     * leaf, push that leaf down one level at a time until the two differ;
     * a suffix equal to an earlier one over its whole cut length adds
     * nothing (the earlier one already answers for it). */
    std::vector<trie_node> trie(1, trie_node{ { 0, 0, 0, 0 } });
    std::vector<int> node_pos(1, -1);
    for (int p = 0; p < ref_len; p++) {
        int len = std::min(MAX_MATCH, ref_len - p), node = 0;
        for (int d = 0; d < len; d++) {
            int c = ref[p + d], next = trie[node].child[c];
            if (next == 0) {
                trie[node].child[c] = -(p + 1);
                break;
            }
            if (next < 0) {
                int other = -next - 1;
                next = (int)trie.size();
                trie.push_back(trie_node{ { 0, 0, 0, 0 } });
                node_pos.push_back(other);
                trie[node].child[c] = next;
                if (d + 1 < std::min(MAX_MATCH, ref_len - other))
                    trie[next].child[ref[other + d + 1]] = -(other + 1);
            }
            node = next;
        }
    }

    /* Reads from random places, one base in 16 changed, interleaved. */
    std::vector<unsigned char> reads((size_t)read_len * n_reads);
    for (int q = 0; q < n_reads; q++) {
        int at = (int)(rng.next() % (unsigned)(ref_len - read_len));
        for (int k = 0; k < read_len; k++) {
            unsigned char b = ref[at + k];
            if ((rng.next() & 15) == 0)
                b = (unsigned char)((b + 1 + rng.next() % 3) & 3);
            reads[(size_t)k * n_reads + q] = b;
        }
    }

    trie_node *dtrie;
    int *dnode_pos, *dlen, *dpos;
    unsigned char *dref, *dreads;
    size_t n_out = (size_t)read_len * n_reads;
    CHECK(cudaMalloc(&dtrie, sizeof(trie_node) * trie.size()));
    CHECK(cudaMalloc(&dnode_pos, sizeof(int) * node_pos.size()));
    CHECK(cudaMalloc(&dref, ref_len));
    CHECK(cudaMalloc(&dreads, reads.size()));
    CHECK(cudaMalloc(&dlen, sizeof(int) * n_out));
    CHECK(cudaMalloc(&dpos, sizeof(int) * n_out));
    CHECK(cudaMemcpy(dtrie, trie.data(), sizeof(trie_node) * trie.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dnode_pos, node_pos.data(), sizeof(int) * node_pos.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dref, ref.data(), ref_len, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dreads, reads.data(), reads.size(), cudaMemcpyHostToDevice));
    match_reads<<<(n_reads + BLOCK - 1) / BLOCK, BLOCK>>>(dtrie, dnode_pos, dref, ref_len, dreads, n_reads,
                                                          read_len, dlen, dpos);
    CHECK(cudaGetLastError());
    std::vector<int> got_len(n_out), got_pos(n_out);
    CHECK(cudaMemcpy(got_len.data(), dlen, sizeof(int) * n_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_pos.data(), dpos, sizeof(int) * n_out, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dtrie));
    CHECK(cudaFree(dnode_pos));
    CHECK(cudaFree(dref));
    CHECK(cudaFree(dreads));
    CHECK(cudaFree(dlen));
    CHECK(cudaFree(dpos));

    /* The host's walk, and a check that each reported match is one: the
     * reference at the given position holds the read's bases. */
    long wrong = 0, total = 0;
    std::vector<unsigned char> read(read_len);
    for (int q = 0; q < n_reads; q++) {
        for (int k = 0; k < read_len; k++)
            read[k] = reads[(size_t)k * n_reads + q];
        for (int start = 0; start < read_len; start++) {
            int node = 0, depth = 0, pos = -1, leaf = -1;
            int limit = std::min(MAX_MATCH, read_len - start);
            while (depth < limit && leaf < 0) {
                int next = trie[node].child[read[start + depth]];
                if (next == 0)
                    break;
                depth++;
                if (next > 0)
                    pos = node_pos[node = next];
                else
                    pos = leaf = -next - 1;
            }
            if (leaf >= 0)
                while (depth < limit && leaf + depth < ref_len && ref[leaf + depth] == read[start + depth])
                    depth++;
            size_t at = (size_t)start * n_reads + q;
            bool ok = got_len[at] == depth && got_pos[at] == pos;
            for (int k = 0; ok && k < depth; k++)
                ok = pos + k < ref_len && ref[pos + k] == read[start + k];
            wrong += !ok;
            total += depth;
        }
    }
    char detail[192];
    std::snprintf(detail, sizeof detail,
                  "size=%s %d reads of %d bases, one per thread, reference %d bases, trie %zu nodes: "
                  "mean match %.2f bases, wrong matches=%ld (exact)",
                  size_name(size), n_reads, read_len, ref_len, trie.size(), (double)total / n_out, wrong);
    return report(wrong == 0, detail);
}

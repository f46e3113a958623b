/*
 * huffman -- Huffman-encodes a byte stream in parallel.
 *
 * 1. Histogram: each block counts into a shared-memory histogram (its size
 *    given by the third <<<>>> argument) with shared atomics, then adds it
 *    to the global histogram with global atomics.
 * 2. The host builds the Huffman code lengths and the canonical codes and
 *    puts the table in __constant__ memory.
 * 3. Each thread owns a chunk of symbols: one kernel sums the chunk's code
 *    lengths and scans them across the block in dynamic shared memory; the
 *    host scans the block totals; a second kernel writes each chunk's codes
 *    at its bit offset with atomicOr, since neighbouring chunks share the
 *    32-bit words at their boundaries.
 *
 * The histogram and the bit stream are integers: both must equal the
 * host's (a sequential count and a sequential encoder) exactly.
 */
#include "sample.h"

#include <algorithm>
#include <queue>
#include <vector>

#define NSYM 256
#define CHUNK 8 /* symbols per thread in the encoder */

__constant__ unsigned c_code[NSYM];
__constant__ unsigned c_len[NSYM];

__global__ void histogram(const unsigned char *data, int n, unsigned *hist)
{
    extern __shared__ unsigned local_hist[];
    for (int s = threadIdx.x; s < NSYM; s += blockDim.x)
        local_hist[s] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local_hist[data[i]], 1u);
    __syncthreads();
    for (int s = threadIdx.x; s < NSYM; s += blockDim.x)
        if (local_hist[s])
            atomicAdd(&hist[s], local_hist[s]);
}

/* Bits in each thread's chunk, scanned (exclusive) within the block. */
__global__ void chunk_offsets(const unsigned char *data, int n, unsigned *local_off, unsigned *block_total)
{
    extern __shared__ unsigned scan[];
    int t = threadIdx.x, chunk = blockIdx.x * blockDim.x + t;
    unsigned bits = 0;
    for (int i = chunk * CHUNK; i < n && i < (chunk + 1) * CHUNK; i++)
        bits += c_len[data[i]];
    scan[t] = bits;
    __syncthreads();
    /* Inclusive Hillis-Steele scan. */
    for (int d = 1; d < blockDim.x; d *= 2) {
        unsigned add = t >= d ? scan[t - d] : 0;
        __syncthreads();
        scan[t] += add;
        __syncthreads();
    }
    local_off[chunk] = scan[t] - bits;
    if (t == blockDim.x - 1)
        block_total[blockIdx.x] = scan[t];
}

__global__ void encode(const unsigned char *data, int n, const unsigned *local_off, const unsigned *block_off,
                       unsigned *out)
{
    int chunk = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned pos = block_off[blockIdx.x] + local_off[chunk];
    for (int i = chunk * CHUNK; i < n && i < (chunk + 1) * CHUNK; i++) {
        unsigned len = c_len[data[i]];
        /* Most significant bit first: place the code in a 64-bit window
         * starting at word pos / 32. */
        unsigned long long v = (unsigned long long)c_code[data[i]] << (64 - len - (pos & 31));
        atomicOr(&out[pos >> 5], (unsigned)(v >> 32));
        if ((unsigned)v)
            atomicOr(&out[(pos >> 5) + 1], (unsigned)v);
        pos += len;
    }
}

/* Huffman code lengths of the symbols with a non-zero count (ties broken by
 * node number, so the result is deterministic). */
static void code_lengths(const unsigned *hist, unsigned *len)
{
    typedef std::pair<unsigned long long, int> item;
    std::priority_queue<item, std::vector<item>, std::greater<item>> heap;
    std::vector<int> parent(2 * NSYM, -1);
    int used = 0, next = NSYM;
    for (int s = 0; s < NSYM; s++)
        if (hist[s]) {
            heap.push(item(hist[s], s));
            used++;
        }
    while (heap.size() > 1) {
        item a = heap.top();
        heap.pop();
        item b = heap.top();
        heap.pop();
        parent[a.second] = parent[b.second] = next;
        heap.push(item(a.first + b.first, next++));
    }
    for (int s = 0; s < NSYM; s++) {
        len[s] = 0;
        if (hist[s])
            for (int p = parent[s]; p >= 0; p = parent[p])
                len[s]++;
        if (hist[s] && used == 1)
            len[s] = 1;
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "huffman");
    int n = size == SIZE_TINY ? 40000 : size == SIZE_SMALL ? 4000000 : 64000000;

    /* A skewed source: a geometric run of letters, with any byte a quarter
     * of the time, so every code is at most a dozen or so bits. */
    lcg rng(41);
    std::vector<unsigned char> data(n);
    for (int i = 0; i < n; i++) {
        unsigned r = rng.next();
        if (r % 4 == 0) {
            data[i] = (unsigned char)(rng.next() & 255);
        } else {
            int k = 0;
            for (unsigned v = rng.next(); (v & 1) && k < 20; v >>= 1)
                k++;
            data[i] = (unsigned char)('a' + k);
        }
    }

    /* Code lengths and canonical codes, from the host's histogram so the
     * encoder is checked even if the device's histogram is wrong. */
    unsigned want_hist[NSYM] = {0};
    for (int i = 0; i < n; i++)
        want_hist[data[i]]++;
    unsigned len[NSYM], code[NSYM] = {0}, max_len = 0;
    code_lengths(want_hist, len);
    std::vector<int> order;
    for (int s = 0; s < NSYM; s++)
        if (len[s])
            order.push_back(s);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return len[a] != len[b] ? len[a] < len[b] : a < b; });
    unsigned c = 0, prev = 0;
    for (int s : order) {
        c <<= len[s] - prev;
        prev = len[s];
        code[s] = c++;
        max_len = std::max(max_len, len[s]);
    }
    if (max_len > 32)
        return report(false, "code longer than 32 bits: the input generator is wrong");

    unsigned char *d_data;
    unsigned *d_hist;
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_hist, sizeof(unsigned) * NSYM));
    CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_hist, 0, sizeof(unsigned) * NSYM));
    int hblocks = n / 4096 < 1 ? 1 : n / 4096 > 256 ? 256 : n / 4096;
    histogram<<<hblocks, 256, NSYM * sizeof(unsigned)>>>(d_data, n, d_hist);
    CHECK(cudaGetLastError());
    unsigned hist[NSYM];
    CHECK(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost));
    int hist_wrong = 0;
    for (int s = 0; s < NSYM; s++)
        hist_wrong += hist[s] != want_hist[s];

    CHECK(cudaMemcpyToSymbol(c_code, code, sizeof code));
    CHECK(cudaMemcpyToSymbol(c_len, len, sizeof len));

    int block = 256, chunks = (n + CHUNK - 1) / CHUNK, grid = (chunks + block - 1) / block;
    unsigned *d_local, *d_block_total, *d_block_off, *d_out;
    CHECK(cudaMalloc(&d_local, sizeof(unsigned) * grid * block));
    CHECK(cudaMalloc(&d_block_total, sizeof(unsigned) * grid));
    CHECK(cudaMalloc(&d_block_off, sizeof(unsigned) * grid));
    chunk_offsets<<<grid, block, block * sizeof(unsigned)>>>(d_data, n, d_local, d_block_total);
    CHECK(cudaGetLastError());
    std::vector<unsigned> block_off(grid);
    CHECK(cudaMemcpy(block_off.data(), d_block_total, sizeof(unsigned) * grid, cudaMemcpyDeviceToHost));
    unsigned long long total = 0;
    for (int b = 0; b < grid; b++) {
        unsigned t = block_off[b];
        block_off[b] = (unsigned)total;
        total += t;
    }
    size_t words = (size_t)((total + 31) / 32);
    CHECK(cudaMemcpy(d_block_off, block_off.data(), sizeof(unsigned) * grid, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_out, sizeof(unsigned) * (words + 1)));
    CHECK(cudaMemset(d_out, 0, sizeof(unsigned) * (words + 1)));
    encode<<<grid, block>>>(d_data, n, d_local, d_block_off, d_out);
    CHECK(cudaGetLastError());
    std::vector<unsigned> got(words + 1);
    CHECK(cudaMemcpy(got.data(), d_out, sizeof(unsigned) * (words + 1), cudaMemcpyDeviceToHost));

    /* Reference: a sequential encoder. */
    std::vector<unsigned> want(words + 1, 0);
    unsigned long long pos = 0;
    for (int i = 0; i < n; i++)
        for (int b = (int)len[data[i]] - 1; b >= 0; b--, pos++)
            if (code[data[i]] >> b & 1)
                want[pos >> 5] |= 0x80000000u >> (pos & 31);
    int stream_wrong = 0;
    for (size_t w = 0; w <= words; w++)
        stream_wrong += got[w] != want[w];
    char detail[220];
    std::snprintf(detail, sizeof detail,
                  "size=%s symbols=%d longest_code=%u bits=%llu (%.2f per symbol) histogram mismatches=%d "
                  "stream word mismatches=%d (tolerance: exact)",
                  size_name(size), n, max_len, total, (double)total / n, hist_wrong, stream_wrong);
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_hist));
    CHECK(cudaFree(d_local));
    CHECK(cudaFree(d_block_total));
    CHECK(cudaFree(d_block_off));
    CHECK(cudaFree(d_out));
    return report(hist_wrong == 0 && stream_wrong == 0 && total == pos, detail);
}

/*
 * global_rw -- blocks that read back what they just stored to global
 * memory: a thread its own words, updated in place round after round; a
 * warp its neighbours' bytes, within one 8-byte word; every warp, after
 * __syncthreads, other warps' words and the parts of their 16-byte vector
 * stores; stores and loads through generic pointers; and an atomicAdd on a
 * word another warp has just stored, whose result is read back.
 *
 * Nothing here crosses blocks, so a GPU and every way ptxsim runs it --
 * one thread or many, a cycle at a time or in windows, where the timing
 * model logs an SM's stores and puts them in memory later (README, "Host
 * threads") -- must give the same, exact, results.  The host recomputes
 * all of it.
 */
#include "sample.h"

#define BLOCK 256
#define ROUNDS 6

__device__ __noinline__ int *pass_through(int *p) { return p; }   /* a generic pointer */

__global__ void rw(int *words, unsigned char *bytes, int4 *vecs, int *sums, int *out)
{
    int b = blockIdx.x, t = threadIdx.x, i = b * BLOCK + t;
    /* Words: each round reads the thread's own last store, then another
     * warp's (37 threads on). */
    for (int r = 0; r < ROUNDS; r++) {
        words[i] = words[i] * 3 + r;
        __syncthreads();
        int other = words[b * BLOCK + (t + 37) % BLOCK];
        __syncthreads();
        words[i] ^= other;
        __syncthreads();
    }
    /* Bytes: each thread stores one, then reads its neighbour's (i ^ 1),
     * which shares an 8-byte word with it. */
    bytes[i] = (unsigned char)(i * 7 + 1);
    __syncthreads();
    unsigned char nb = bytes[i ^ 1];
    __syncthreads();
    bytes[i] = (unsigned char)(nb + 1);
    /* Vectors: one 16-byte store a thread, read back a part at a time by
     * the threads of another warp. */
    vecs[i] = make_int4(i, -i, i * 5, i ^ 0x5a5a);
    __syncthreads();
    int j = b * BLOCK + (t + 64) % BLOCK;
    const int *parts = (const int *)&vecs[j];
    int mix = parts[t & 3] + 2 * parts[(t + 1) & 3];
    /* Generic: a store and a load through a pointer the compiler cannot
     * see is global. */
    int *g = pass_through(out + i);
    *g = mix;
    int back = *g;
    /* An atomic on a word thread 0 has just stored, read back after. */
    if (t == 0)
        sums[b] = 1000 + b;
    __syncthreads();
    atomicAdd(&sums[b], t & 7);
    __syncthreads();
    out[i] = back + (t == BLOCK - 1 ? sums[b] : 0);
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "global_rw");
    int grid = size == SIZE_TINY ? 20 : size == SIZE_SMALL ? 600 : 4000;
    int n = grid * BLOCK;
    int *words = (int *)std::malloc(sizeof(int) * n), *ref = (int *)std::malloc(sizeof(int) * n);
    int *out = (int *)std::malloc(sizeof(int) * n), *sums = (int *)std::malloc(sizeof(int) * grid);
    unsigned char *bytes = (unsigned char *)std::malloc(n);
    lcg rng(41);
    for (int i = 0; i < n; i++)
        words[i] = ref[i] = (int)(rng.next() % 100000);
    int *dwords, *dsums, *dout;
    unsigned char *dbytes;
    int4 *dvecs;
    CHECK(cudaMalloc(&dwords, sizeof(int) * n));
    CHECK(cudaMalloc(&dbytes, n));
    CHECK(cudaMalloc(&dvecs, sizeof(int4) * n));
    CHECK(cudaMalloc(&dsums, sizeof(int) * grid));
    CHECK(cudaMalloc(&dout, sizeof(int) * n));
    CHECK(cudaMemcpy(dwords, words, sizeof(int) * n, cudaMemcpyHostToDevice));
    rw<<<grid, BLOCK>>>(dwords, dbytes, dvecs, dsums, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(words, dwords, sizeof(int) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bytes, dbytes, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out, dout, sizeof(int) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sums, dsums, sizeof(int) * grid, cudaMemcpyDeviceToHost));

    long bad = 0;
    int other[BLOCK];
    for (int b = 0; b < grid; b++) {
        int *w = ref + b * BLOCK;
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < BLOCK; t++)
                w[t] = w[t] * 3 + r;
            for (int t = 0; t < BLOCK; t++)
                other[t] = w[(t + 37) % BLOCK];
            for (int t = 0; t < BLOCK; t++)
                w[t] ^= other[t];
        }
        int sum = 1000 + b;
        for (int t = 0; t < BLOCK; t++)
            sum += t & 7;
        bad += sums[b] != sum;
        for (int t = 0; t < BLOCK; t++) {
            int i = b * BLOCK + t, j = b * BLOCK + (t + 64) % BLOCK;
            int v[4] = { j, -j, j * 5, j ^ 0x5a5a };
            int mix = v[t & 3] + 2 * v[(t + 1) & 3];
            bad += out[i] != mix + (t == BLOCK - 1 ? sum : 0);
            bad += bytes[i] != (unsigned char)((unsigned char)((i ^ 1) * 7 + 1) + 1);
        }
    }
    for (int i = 0; i < n; i++)
        bad += words[i] != ref[i];
    std::printf("%s global_rw size=%s blocks=%d wrong=%ld (tolerance: exact)\n", bad ? "FAIL" : "PASS",
                size_name(size), grid, bad);
    return bad ? 1 : 0;
}

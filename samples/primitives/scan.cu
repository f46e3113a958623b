/*
 * scan -- exclusive prefix sum.  First one block on its own: a work-efficient
 * (up-sweep / down-sweep) scan of up to 2*BLOCK elements in shared memory.
 * Then n elements over many blocks: each block scans its chunk and writes the
 * chunk's total, the totals are scanned the same way (recursively, when
 * there are more chunks than one block can hold), and a second pass adds each
 * chunk's offset to its elements.  Unsigned sums wrap the same on host and
 * device, so the check is exact.
 */
#include "sample.h"

#define BLOCK 256
#define CHUNK (2 * BLOCK)

/* Exclusive scan of in[0..count) (count <= CHUNK) into out; the chunk total
 * goes to *total when total is non-null.  Each thread owns two elements. */
__device__ void scan_chunk(const unsigned *in, unsigned *out, int count, unsigned *total)
{
    __shared__ unsigned s[CHUNK];
    int t = threadIdx.x;
    s[2 * t] = 2 * t < count ? in[2 * t] : 0;
    s[2 * t + 1] = 2 * t + 1 < count ? in[2 * t + 1] : 0;
    /* Up-sweep: after the step with stride d, s[k*2d + 2d-1] holds the sum of
     * its 2d-element span. */
    int d = 1;
    for (int active = CHUNK / 2; active > 0; active >>= 1, d <<= 1) {
        __syncthreads();
        if (t < active) {
            int right = d * (2 * t + 2) - 1;
            s[right] += s[right - d];
        }
    }
    __syncthreads();
    if (t == 0) {
        if (total)
            *total = s[CHUNK - 1];
        s[CHUNK - 1] = 0;
    }
    /* Down-sweep: push the prefix of each span to its halves. */
    for (int active = 1; active < CHUNK; active <<= 1) {
        d >>= 1;
        __syncthreads();
        if (t < active) {
            int right = d * (2 * t + 2) - 1;
            unsigned left = s[right - d];
            s[right - d] = s[right];
            s[right] += left;
        }
    }
    __syncthreads();
    if (2 * t < count)
        out[2 * t] = s[2 * t];
    if (2 * t + 1 < count)
        out[2 * t + 1] = s[2 * t + 1];
}

__global__ void scan_single(const unsigned *in, unsigned *out, int count)
{
    scan_chunk(in, out, count, nullptr);
}

/* Pass one: every block scans its own chunk and records the chunk's total. */
__global__ void scan_chunks(const unsigned *in, unsigned *out, unsigned *totals, int n)
{
    int base = blockIdx.x * CHUNK;
    int count = n - base < CHUNK ? n - base : CHUNK;
    scan_chunk(in + base, out + base, count, totals + blockIdx.x);
}

/* Pass two: add the scanned total of all earlier chunks. */
__global__ void add_offsets(unsigned *out, const unsigned *offsets, int n)
{
    int i = blockIdx.x * CHUNK + threadIdx.x;
    unsigned off = offsets[blockIdx.x];
    if (i < n)
        out[i] += off;
    if (i + BLOCK < n)
        out[i + BLOCK] += off;
}

/* Exclusive scan of n device elements; recursion depth is log_CHUNK(n). */
static void scan_device(const unsigned *din, unsigned *dout, int n)
{
    int chunks = (n + CHUNK - 1) / CHUNK;
    unsigned *totals;
    CHECK(cudaMalloc(&totals, sizeof(unsigned) * chunks));
    scan_chunks<<<chunks, BLOCK>>>(din, dout, totals, n);
    CHECK(cudaGetLastError());
    if (chunks > 1) {
        unsigned *offsets;
        CHECK(cudaMalloc(&offsets, sizeof(unsigned) * chunks));
        scan_device(totals, offsets, chunks);
        add_offsets<<<chunks, BLOCK>>>(dout, offsets, n);
        CHECK(cudaGetLastError());
        CHECK(cudaFree(offsets));
    }
    CHECK(cudaFree(totals));
}

static int count_wrong(const unsigned *got, const unsigned *in, int n, int *first)
{
    unsigned acc = 0;
    int wrong = 0;
    *first = -1;
    for (int i = 0; i < n; i++) {
        if (got[i] != acc && wrong++ == 0)
            *first = i;
        acc += in[i];
    }
    return wrong;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "scan");
    /* Large enough at small and standard that the chunk totals need a scan
     * of their own over several blocks (a second level of recursion). */
    int n = size == SIZE_TINY ? 5000 + 3 : size == SIZE_SMALL ? 6000000 + 7 : (1 << 25) + 7;
    unsigned *in = (unsigned *)std::malloc(sizeof(unsigned) * n);
    unsigned *out = (unsigned *)std::malloc(sizeof(unsigned) * n);
    lcg rng(5);
    for (int i = 0; i < n; i++)
        in[i] = rng.next();
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dout, sizeof(unsigned) * n));
    CHECK(cudaMemcpy(din, in, sizeof(unsigned) * n, cudaMemcpyHostToDevice));

    /* One block, for every count from a full chunk down through odd sizes. */
    int single_wrong = 0, counts[] = {1, 2, 3, 31, 255, 256, 257, CHUNK - 1, CHUNK};
    for (int c : counts) {
        int first;
        CHECK(cudaMemset(dout, 0xFF, sizeof(unsigned) * CHUNK));
        scan_single<<<1, BLOCK>>>(din, dout, c);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(out, dout, sizeof(unsigned) * CHUNK, cudaMemcpyDeviceToHost));
        single_wrong += count_wrong(out, in, c, &first);
        /* Nothing past the count may be written. */
        for (int i = c; i < CHUNK; i++)
            single_wrong += out[i] != 0xFFFFFFFFu;
    }

    CHECK(cudaMemset(dout, 0xFF, sizeof(unsigned) * n));
    scan_device(din, dout, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, dout, sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
    int first, wrong = count_wrong(out, in, n, &first);
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s n=%d single-block mismatches=%d multi-block mismatches=%d%s",
                  size_name(size), n, single_wrong, wrong, " (tolerance: exact)");
    if (wrong)
        std::snprintf(detail + std::strlen(detail), sizeof detail - std::strlen(detail), " first at %d", first);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::free(in);
    std::free(out);
    return report(single_wrong == 0 && wrong == 0, detail);
}

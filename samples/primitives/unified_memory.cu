/*
 * unified_memory -- managed memory from cudaMallocManaged, used by host and
 * device through the same pointer with no cudaMemcpy at all: the host
 * fills an array, a kernel updates it in place and writes a second array,
 * the host reads both after cudaDeviceSynchronize(), changes them, and a
 * second kernel reads the host's changes.  A managed 64-bit counter, set by
 * the host, counts the kernel's work with atomics and is read back by the
 * host directly.  (Not a __managed__ global: clang ignores that attribute.)
 * Integer arithmetic: exact.
 */
#include "sample.h"

#define BLOCK 256

__global__ void square_and_count(unsigned *data, unsigned *squares, int n, unsigned long long *work_done)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = data[i];
        squares[i] = v * v;
        data[i] = v + 1;
        atomicAdd(work_done, 1ull);
    }
}

__global__ void combine(const unsigned *data, const unsigned *squares, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = data[i] ^ squares[i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "unified_memory");
    int n = size == SIZE_TINY ? 5000 + 7 : size == SIZE_SMALL ? (1 << 20) + 7 : (1 << 24) + 7;
    unsigned *data, *squares, *out;
    unsigned long long *work_done;
    CHECK(cudaMallocManaged(&work_done, sizeof *work_done));
    CHECK(cudaMallocManaged(&data, sizeof(unsigned) * n));
    CHECK(cudaMallocManaged(&squares, sizeof(unsigned) * n));
    CHECK(cudaMallocManaged(&out, sizeof(unsigned) * n));
    unsigned *orig = (unsigned *)std::malloc(sizeof(unsigned) * n);
    lcg rng(53);
    for (int i = 0; i < n; i++)
        orig[i] = data[i] = rng.next();
    *work_done = 0;

    int grid = (n + BLOCK - 1) / BLOCK;
    square_and_count<<<grid, BLOCK>>>(data, squares, n, work_done);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize()); /* managed memory is the host's again only after this */

    int wrong_first = 0;
    for (int i = 0; i < n; i++)
        wrong_first += data[i] != orig[i] + 1 || squares[i] != orig[i] * orig[i];
    unsigned long long counted = *work_done;

    /* Host writes that the next kernel must see. */
    for (int i = 0; i < n; i += 3)
        data[i] = ~data[i];
    combine<<<grid, BLOCK>>>(data, squares, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int wrong_second = 0;
    for (int i = 0; i < n; i++) {
        unsigned d = orig[i] + 1;
        if (i % 3 == 0)
            d = ~d;
        wrong_second += out[i] != (d ^ (orig[i] * orig[i]));
    }
    bool ok = wrong_first == 0 && wrong_second == 0 && counted == (unsigned long long)n;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s n=%d mismatches: kernel 1 %d, kernel 2 %d; managed counter %llu of %d (tolerance: exact)",
                  size_name(size), n, wrong_first, wrong_second, counted, n);
    CHECK(cudaFree(data));
    CHECK(cudaFree(squares));
    CHECK(cudaFree(out));
    CHECK(cudaFree(work_done));
    std::free(orig);
    return report(ok, detail);
}

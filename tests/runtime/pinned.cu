/*
 * pinned -- zero-copy host memory: kernels read and write mapped pinned
 * memory (cudaHostAlloc) and registered memory (cudaHostRegister) through
 * the device pointers cudaHostGetDevicePointer gives, and the host sees the
 * results without a copy.  Pinned buffers also serve ordinary copies.
 */
#include "sample.h"

#include <cuda_runtime.h>

__global__ void square_into(const int *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (long long)in[i] * in[i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "pinned");
    int n = size == SIZE_TINY ? 4000 : size == SIZE_SMALL ? (1 << 20) : (1 << 23);
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
    int *in;
    CHECK(cudaHostAlloc((void **)&in, n * sizeof(int), cudaHostAllocMapped));
    long long *out = (long long *)std::malloc(n * sizeof(long long));
    CHECK(cudaHostRegister(out, n * sizeof(long long), cudaHostRegisterMapped));
    lcg rng(5);
    for (int i = 0; i < n; i++)
        in[i] = (int)(rng.next() % 200001) - 100000;
    int *din;
    long long *dout;
    CHECK(cudaHostGetDevicePointer((void **)&din, in, 0));
    CHECK(cudaHostGetDevicePointer((void **)&dout, out, 0));
    square_into<<<(n + 255) / 256, 256>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += out[i] != (long long)in[i] * in[i];
    /* Pinned memory as the source of an ordinary copy. */
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(in, 0, n * sizeof(int)));            /* mapped: a device pointer too */
    CHECK(cudaMemcpy(in, d, n * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        wrong += (long long)in[i] * in[i] != out[i];
    char detail[160];
    std::snprintf(detail, sizeof detail, "size=%s n=%d mismatches=%d (tolerance: exact)", size_name(size), n, wrong);
    CHECK(cudaHostUnregister(out));
    CHECK(cudaFreeHost(in));
    CHECK(cudaFree(d));
    std::free(out);
    return report(wrong == 0, detail);
}

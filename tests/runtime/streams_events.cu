/*
 * streams_events -- a pipelined computation over pinned memory: the input
 * is cut into chunks, each chunk is copied in, transformed and copied back
 * in its own stream; events time the whole and each stream's share; a
 * callback counts finished chunks.  Checks every element against the host.
 */
#include "sample.h"

#include <cuda_runtime.h>

__global__ void polynomial(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        out[i] = ((2.0f * x - 3.0f) * x + 0.5f) * x - 1.0f;
    }
}

static void CUDART_CB chunk_done(cudaStream_t, cudaError_t status, void *user)
{
    if (status == cudaSuccess)
        ++*(int *)user;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "streams_events");
    const int nstreams = 4;
    int chunk = size == SIZE_TINY ? 1000 : size == SIZE_SMALL ? (1 << 18) : (1 << 22);
    int n = nstreams * chunk * 2;
    size_t bytes = (size_t)n * sizeof(float);
    float *in, *out, *din, *dout;
    CHECK(cudaMallocHost((void **)&in, bytes));
    CHECK(cudaMallocHost((void **)&out, bytes));
    CHECK(cudaMalloc(&din, bytes));
    CHECK(cudaMalloc(&dout, bytes));
    lcg rng(7);
    for (int i = 0; i < n; i++)
        in[i] = rng.uniform(-2.0f, 2.0f);
    cudaStream_t s[nstreams];
    cudaEvent_t start, stop, mark[nstreams];
    for (int k = 0; k < nstreams; k++) {
        CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        CHECK(cudaEventCreate(&mark[k]));
    }
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int done = 0;
    CHECK(cudaEventRecord(start, 0));
    for (int c = 0; c < n / chunk; c++) {
        cudaStream_t st = s[c % nstreams];
        size_t off = (size_t)c * chunk;
        CHECK(cudaMemcpyAsync(din + off, in + off, chunk * sizeof(float), cudaMemcpyHostToDevice, st));
        polynomial<<<(chunk + 255) / 256, 256, 0, st>>>(din + off, dout + off, chunk);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(out + off, dout + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, st));
        CHECK(cudaStreamAddCallback(st, chunk_done, &done, 0));
    }
    for (int k = 0; k < nstreams; k++) {
        CHECK(cudaEventRecord(mark[k], s[k]));
        CHECK(cudaStreamWaitEvent(0, mark[k], 0));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0, part = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventElapsedTime(&part, start, mark[0]));
    int wrong = 0, first = -1;
    for (int i = 0; i < n; i++) {
        float x = in[i], want = ((2.0f * x - 3.0f) * x + 0.5f) * x - 1.0f;
        if (std::fabs(out[i] - want) > 1e-5f * (1.0f + std::fabs(want)) && wrong++ == 0)
            first = i;
    }
    bool ok = wrong == 0 && done == n / chunk && ms >= part && part >= 0;
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s n=%d chunks=%d callbacks=%d mismatches=%d%s (tolerance: 1e-5 relative)",
                  size_name(size), n, n / chunk, done, wrong, first >= 0 ? " first" : "");
    for (int k = 0; k < nstreams; k++) {
        CHECK(cudaStreamDestroy(s[k]));
        CHECK(cudaEventDestroy(mark[k]));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFreeHost(in));
    CHECK(cudaFreeHost(out));
    return report(ok, detail);
}

/*
 * streams_events -- two non-default streams, each taking half of an array
 * through pinned host memory: cudaMemcpyAsync in, a kernel, cudaMemcpyAsync
 * out.  Events are recorded around each stream's work and timed with
 * cudaEventElapsedTime (the times must be finite and not negative; their
 * size is the machine's business).  Then a cross-stream dependency: stream
 * 1 waits (cudaStreamWaitEvent) on an event recorded in stream 0 after a
 * kernel, and its kernel reads what stream 0's kernel wrote.  After
 * synchronising, cudaEventQuery and cudaStreamQuery must say done.
 * Integer results, exact.
 */
#include "sample.h"

#define BLOCK 256

__global__ void scale_add(const unsigned *in, unsigned *out, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * mul + add;
}

/* Reads the other half's results: only right if the wait was honoured. */
__global__ void cross(const unsigned *other, unsigned *mine, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mine[i] += other[n - 1 - i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "streams_events");
    int half = size == SIZE_TINY ? 4000 + 1 : size == SIZE_SMALL ? (1 << 20) + 1 : (1 << 23) + 1;
    int n = 2 * half;
    unsigned *h_in, *h_out;
    CHECK(cudaMallocHost(&h_in, sizeof(unsigned) * n));
    CHECK(cudaMallocHost(&h_out, sizeof(unsigned) * n));
    lcg rng(61);
    for (int i = 0; i < n; i++)
        h_in[i] = rng.next();
    unsigned *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&d_out, sizeof(unsigned) * n));

    cudaStream_t s[2];
    cudaEvent_t start[2], stop[2], produced;
    for (int k = 0; k < 2; k++) {
        CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        CHECK(cudaEventCreate(&start[k]));
        CHECK(cudaEventCreate(&stop[k]));
    }
    CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));

    int grid = (half + BLOCK - 1) / BLOCK;
    const unsigned mul[2] = {3, 5}, add[2] = {7, 11};
    for (int k = 0; k < 2; k++) {
        size_t off = (size_t)k * half;
        CHECK(cudaEventRecord(start[k], s[k]));
        CHECK(cudaMemcpyAsync(d_in + off, h_in + off, sizeof(unsigned) * half, cudaMemcpyHostToDevice, s[k]));
        scale_add<<<grid, BLOCK, 0, s[k]>>>(d_in + off, d_out + off, half, mul[k], add[k]);
        CHECK(cudaGetLastError());
        if (k == 0)
            CHECK(cudaEventRecord(produced, s[0]));
        if (k == 1) {
            /* Stream 1 reads stream 0's output: wait for it. */
            CHECK(cudaStreamWaitEvent(s[1], produced, 0));
            cross<<<grid, BLOCK, 0, s[1]>>>(d_out, d_out + off, half);
            CHECK(cudaGetLastError());
        }
        CHECK(cudaMemcpyAsync(h_out + off, d_out + off, sizeof(unsigned) * half, cudaMemcpyDeviceToHost, s[k]));
        CHECK(cudaEventRecord(stop[k], s[k]));
    }
    CHECK(cudaStreamSynchronize(s[0]));
    CHECK(cudaEventSynchronize(stop[1]));

    float ms[2];
    bool times_ok = true, queries_ok = true;
    for (int k = 0; k < 2; k++) {
        CHECK(cudaEventElapsedTime(&ms[k], start[k], stop[k]));
        times_ok &= std::isfinite(ms[k]) && ms[k] >= 0.0f;
        queries_ok &= cudaEventQuery(stop[k]) == cudaSuccess && cudaStreamQuery(s[k]) == cudaSuccess;
    }

    int wrong = 0;
    for (int i = 0; i < half; i++) {
        unsigned first = h_in[i] * mul[0] + add[0];
        unsigned second = h_in[half + i] * mul[1] + add[1] + (h_in[half - 1 - i] * mul[0] + add[0]);
        wrong += h_out[i] != first;
        wrong += h_out[half + i] != second;
    }
    char detail[240];
    std::snprintf(detail, sizeof detail,
                  "size=%s n=%d mismatches=%d (exact) event times %s (%.3f, %.3f ms) queries %s", size_name(size), n,
                  wrong, times_ok ? "ok" : "bad", ms[0], ms[1], queries_ok ? "ok" : "not done");
    for (int k = 0; k < 2; k++) {
        CHECK(cudaEventDestroy(start[k]));
        CHECK(cudaEventDestroy(stop[k]));
        CHECK(cudaStreamDestroy(s[k]));
    }
    CHECK(cudaEventDestroy(produced));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    return report(wrong == 0 && times_ok && queries_ok, detail);
}

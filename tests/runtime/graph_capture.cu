/*
 * graph_capture -- work captured from a stream into a CUDA graph and
 * replayed, as programs built the nvcc default way (NVIDIA's static
 * runtime, which captures through the driver API) do: a memset, a kernel,
 * a copy and a second kernel on one stream, an event joining a second
 * stream's kernel into the capture; the graph instantiated once and
 * launched three times, each launch's result checked on the host.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__global__ void add_index(int *a, int n, int times)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += i * times;
}

__global__ void double_into(const int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = 2 * a[i];
}

int main()
{
    test_name = "graph_capture";
    const int n = 1000;
    int *a, *b, *c;
    OK(cudaMalloc(&a, n * sizeof(int)));
    OK(cudaMalloc(&b, n * sizeof(int)));
    OK(cudaMalloc(&c, n * sizeof(int)));
    cudaStream_t s, t;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    OK(cudaStreamIsCapturing(s, &status));
    EXPECT(status == cudaStreamCaptureStatusActive);
    OK(cudaMemsetAsync(a, 0, n * sizeof(int), s));
    add_index<<<(n + 127) / 128, 128, 0, s>>>(a, n, 3);
    OK(cudaEventRecord(fork, s));
    OK(cudaStreamWaitEvent(t, fork, 0));            /* t joins the capture */
    double_into<<<(n + 127) / 128, 128, 0, t>>>(a, c, n);
    OK(cudaEventRecord(join, t));
    OK(cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
    add_index<<<(n + 127) / 128, 128, 0, s>>>(b, n, 1);
    OK(cudaStreamWaitEvent(s, join, 0));
    cudaGraph_t g = nullptr;
    OK(cudaStreamEndCapture(s, &g));
    EXPECT(g != nullptr);
    OK(cudaStreamIsCapturing(s, &status));
    EXPECT(status == cudaStreamCaptureStatusNone);

    /* Nothing ran while capturing. */
    int *h = (int *)std::malloc(3 * n * sizeof(int));
    OK(cudaMemset(b, 0x7f, n * sizeof(int)));
    OK(cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[5] == 0x7f7f7f7f);

    cudaGraphExec_t x = nullptr;
    OK(cudaGraphInstantiate(&x, g, 0));
    for (int round = 0; round < 3; round++) {
        OK(cudaMemset(a, 0x55, n * sizeof(int)));    /* the graph's memset must reset it */
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaMemcpy(h, a, n * sizeof(int), cudaMemcpyDeviceToHost));
        OK(cudaMemcpy(h + n, b, n * sizeof(int), cudaMemcpyDeviceToHost));
        OK(cudaMemcpy(h + 2 * n, c, n * sizeof(int), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int i = 0; i < n; i++)
            wrong += h[i] != 3 * i || h[n + i] != 4 * i || h[2 * n + i] != 6 * i;
        if (wrong)
            std::printf("round %d: %d wrong (a[7] %d, b[7] %d, c[7] %d)\n", round, wrong, h[7], h[n + 7],
                        h[2 * n + 7]);
        EXPECT(wrong == 0);
    }
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorIllegalState);   /* not capturing */
    OK(cudaEventDestroy(fork));
    OK(cudaEventDestroy(join));
    OK(cudaStreamDestroy(s));
    OK(cudaStreamDestroy(t));
    OK(cudaFree(a));
    OK(cudaFree(b));
    OK(cudaFree(c));
    std::free(h);
    return finish();
}

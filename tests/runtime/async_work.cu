/*
 * async_work.cu -- launches return before their kernels run, as on a GPU:
 * a kernel spins on a latch in pinned memory while the host queues more
 * work behind it (copies, kernels, events, host functions, a graph) and
 * only then sets the latch.  A runtime that ran each kernel inside its
 * launch call would never return from the first launch.
 *
 * Checked: the work behind the latch runs in stream order once it is set;
 * queries say cudaErrorNotReady while it waits; waits for work queued
 * before the latch kernel return while it still spins, and so do stream
 * and event creation and profiler switches; calls that fail
 * still fail at once; a latch never set is reported as a hang at the
 * wait for it.
 */
#include "rt_test.h"

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void spin_until(volatile unsigned *latch, unsigned want, unsigned *seen)
{
    while (*latch < want) {
    }
    *seen = *latch;
}

__global__ void add_one(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += 1;
}

__global__ void say_done(int tag)
{
    printf("kernel %d ran\n", tag);
}

static volatile int host_steps;
static int step_at_callback = -1;

static void CUDART_CB note_step(void *arg)
{
    step_at_callback = host_steps;
    *(int *)arg += 1;
}

int main()
{
    test_name = "async_work";
    const int n = 4096;
    unsigned *latch, *seen;
    int *h, *d, *d2;
    OK(cudaMallocHost(&latch, sizeof *latch));
    OK(cudaMallocHost(&seen, sizeof *seen));
    OK(cudaMallocHost(&h, n * sizeof *h));
    OK(cudaMalloc(&d, n * sizeof *d));
    OK(cudaMalloc(&d2, n * sizeof *d2));
    for (int i = 0; i < n; i++)
        h[i] = i;
    cudaStream_t s, other;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    cudaEvent_t before, behind;
    OK(cudaEventCreate(&before));
    OK(cudaEventCreate(&behind));

    /* A graph of one kernel, launched behind the latch too. */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    OK(cudaStreamBeginCapture(other, cudaStreamCaptureModeGlobal));
    add_one<<<(n + 255) / 256, 256, 0, other>>>(d, n);
    OK(cudaStreamEndCapture(other, &graph));
    OK(cudaGraphInstantiate(&exec, graph, 0));

    /* 1. Work queued behind a kernel waiting for the host. */
    *latch = 0;
    *seen = 0;
    int callbacks = 0;
    say_done<<<1, 1, 0, s>>>(1);
    OK(cudaEventRecord(before, s));
    spin_until<<<1, 1, 0, s>>>(latch, 1, seen);
    OK(cudaGetLastError());
    OK(cudaMemcpyAsync(d, h, n * sizeof *h, cudaMemcpyHostToDevice, s));
    add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    OK(cudaGraphLaunch(exec, s));
    OK(cudaMemsetAsync(d2, 0, n * sizeof *d2, s));
    OK(cudaMemcpyAsync(h, d, n * sizeof *h, cudaMemcpyDeviceToHost, s));
    OK(cudaLaunchHostFunc(s, note_step, &callbacks));
    OK(cudaEventRecord(behind, s));
    say_done<<<1, 1, 0, s>>>(2);

    /* A misuse still fails in its call, not later. */
    EXPECT_MISUSE(cudaMemcpyAsync(d, (void *)0x10, n * sizeof *h, cudaMemcpyDeviceToDevice, s),
                  cudaErrorInvalidValue);
    /* The event before the latch kernel completes; the one behind it and
     * the stream wait for the host. */
    OK(cudaEventSynchronize(before));
    OK(cudaEventQuery(before));
    EXPECT_ERR(cudaEventQuery(behind), cudaErrorNotReady);
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    EXPECT(callbacks == 0);
    /* Making streams and events is bookkeeping: it does not wait for the
     * spinning kernel either. */
    cudaStream_t made;
    cudaEvent_t made_ev;
    OK(cudaStreamCreateWithFlags(&made, cudaStreamNonBlocking));
    OK(cudaEventCreateWithFlags(&made_ev, cudaEventDisableTiming));
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    /* Nor does switching the profiler, which falls between the launches
     * (the test's record shows this one alone profiled). */
    OK(cudaProfilerStart());
    add_one<<<1, 32, 0, s>>>(d2, 32);
    OK(cudaProfilerStop());
    host_steps = 1;
    *latch = 1;
    OK(cudaStreamSynchronize(s));
    OK(cudaEventQuery(behind));
    OK(cudaStreamQuery(s));
    OK(cudaStreamDestroy(made));
    OK(cudaEventDestroy(made_ev));
    EXPECT(*seen == 1);
    EXPECT(callbacks == 1 && step_at_callback == 1);
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += h[i] != i + 2;
    EXPECT(wrong == 0);
    float ms = -1;
    OK(cudaEventElapsedTime(&ms, before, behind));
    EXPECT(ms >= 0);

    /* 1b. The host sets the latch long after the kernel proved that it
     * loops (and went to sleep until the host waits): when the host then
     * waits, the kernel looks again and finds the latch set. */
    *latch = 0;
    spin_until<<<1, 1, 0, s>>>(latch, 3, seen);
    usleep(200000);
    *latch = 3;
    OK(cudaStreamSynchronize(s));
    EXPECT(*seen == 3);

    /* 2. The default stream: a latch kernel there, then a synchronous copy,
     * which waits for it -- released first by the host. */
    *latch = 0;
    spin_until<<<1, 1>>>(latch, 2, seen);
    EXPECT_ERR(cudaStreamQuery(0), cudaErrorNotReady);
    *latch = 2;
    int back = 0;
    OK(cudaMemcpy(&back, d, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT(back == 2 && *seen == 2);

    /* 3. A latch the host never sets: a hang, reported where the host
     * waits (the kernel cannot end), as the loop watch proves it. */
    *latch = 0;
    spin_until<<<1, 1, 0, s>>>(latch, 3, seen);
    EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorLaunchTimeout);
    return finish();
}

/*
 * cross_stream.cu -- a kernel that waits for work issued after it in
 * another stream, as a GPU runs it: both resident at once.  A consumer
 * spins on a flag in device memory that a producer launched later in
 * another stream sets, after writing the data the consumer then reads.
 *
 * Checked: the producer runs and the consumer sees its data, with the
 * producer behind a memset, a copy, a host function and another kernel in
 * its stream; with the consumer on the legacy default stream and the
 * producer on a non-blocking one; with the producer's stream made to wait
 * for an event recorded after other work (which must run first); with
 * several spinning blocks; stream and event queries and waits for the
 * producer's stream return while the consumer still has to finish; with
 * the pair written with libcu++'s atomics, whose wait backs off reading
 * the clock (a loop the loop watch cannot prove); with consumer and
 * producer two launches of one kernel, its parameters read through
 * generic pointers (__grid_constant__) while the other launch runs.  Last,
 * a producer that waits for an event recorded after the consumer in the
 * consumer's own stream can never run: the wait reports the hang
 * (cudaErrorLaunchTimeout), as the deadlock it is on a GPU.
 */
#include "rt_test.h"

#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void consume(volatile unsigned *flag, unsigned want, const volatile int *data, int n, int *out)
{
    while (*flag < want) {
    }
    __threadfence();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[blockIdx.x * n + i] = data[i];
}

__global__ void produce(unsigned *flag, unsigned value, int *data, const int *add, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        data[i] += add[i];
    __syncthreads();
    __threadfence();
    if (threadIdx.x == 0)
        atomicExch(flag, value);
}

/* The consumer as libcu++ writes it: cuda::atomic_ref::wait polls with a
 * back-off that reads the clock, a loop the loop watch cannot prove. */
__global__ void consume_atomic(int *flag, int old, const int *data, int n, int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    f.wait(old, cuda::memory_order_acquire);
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = data[i];
}

__global__ void produce_atomic(int *flag, int value, int *data, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        data[i] = 5 * i;
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
        f.store(value, cuda::memory_order_release);
        f.notify_all();
    }
}

/* Both roles in one kernel: launch 0 waits for the flag, then copies the
 * data the other launch wrote.  The parameters are read through a generic
 * pointer to the kernel's own (a __grid_constant__ struct indexed at run
 * time), while the other launch of the kernel, with other parameters, runs
 * beside it. */
struct Relay {
    unsigned *flag;
    int *data;
    int *out;
    int n, role, k[4];
};

__device__ __noinline__ int pick(const int *k, int i) { return k[i & 3]; }

__global__ void relay(const __grid_constant__ Relay r)
{
    if (r.role == 0) {
        while (*(volatile unsigned *)r.flag < 6) {
        }
        __threadfence();
        for (int i = threadIdx.x; i < r.n; i += blockDim.x)
            r.out[i] = ((volatile int *)r.data)[i] + r.k[i & 3];
    } else {
        for (int i = threadIdx.x; i < r.n; i += blockDim.x)
            r.data[i] = pick(r.k, i) * i;      /* a generic pointer to the parameter */
        __syncthreads();
        __threadfence();
        if (threadIdx.x == 0)
            atomicExch(r.flag, 6);
    }
}

/* A chain of launches of one kernel, each waiting for the next: they run
 * nested, three at once, each with its own parameters. */
__global__ void chain(unsigned *flag, unsigned wait_for, unsigned set_to, unsigned *order, unsigned *log, int id)
{
    while (*(volatile unsigned *)flag < wait_for) {
    }
    log[id] = atomicAdd(order, 1);
    __threadfence();
    atomicExch(flag, set_to);
}

__global__ void scale(int *a, int k, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        a[i] *= k;
}

static int host_calls;
static void CUDART_CB note(void *) { host_calls++; }

static int count_equal(const int *a, int n, int (*want)(int))
{
    int ok = 0;
    for (int i = 0; i < n; i++)
        ok += a[i] == want(i);
    return ok;
}

static int plus_i(int i) { return i; }
static int twice_i(int i) { return 2 * i + 3; }
static int thrice(int i) { return 3 * i; }
static int five_times(int i) { return 5 * i; }

int main()
{
    test_name = "cross_stream";
    const int n = 256, blocks = 4;
    unsigned *flag;
    int *data, *add, *out, *h;
    OK(cudaMalloc(&flag, sizeof *flag));
    OK(cudaMalloc(&data, n * sizeof *data));
    OK(cudaMalloc(&add, n * sizeof *add));
    OK(cudaMalloc(&out, blocks * n * sizeof *out));
    OK(cudaMallocHost(&h, blocks * n * sizeof *h));
    OK(cudaMemset(flag, 0, sizeof *flag));
    cudaStream_t s1, s2, s3, nb;
    OK(cudaStreamCreate(&s1));
    OK(cudaStreamCreate(&s2));
    OK(cudaStreamCreate(&s3));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    cudaEvent_t ev, ev2;
    OK(cudaEventCreate(&ev));
    OK(cudaEventCreate(&ev2));

    /* 1. The producer behind a memset, a copy from pinned memory, a host
     * function and a kernel in its stream: data = 0 + i. */
    for (int i = 0; i < n; i++)
        h[i] = i;
    consume<<<1, 64, 0, s1>>>(flag, 1, data, n, out);
    OK(cudaMemsetAsync(data, 0, n * sizeof *data, s2));
    OK(cudaMemcpyAsync(add, h, n * sizeof *h, cudaMemcpyHostToDevice, s2));
    OK(cudaLaunchHostFunc(s2, note, nullptr));
    scale<<<1, 64, 0, s2>>>(data, 7, n);        /* zeros stay zeros */
    produce<<<1, 64, 0, s2>>>(flag, 1, data, add, n);
    OK(cudaGetLastError());
    /* The producer's stream finishes though the consumer is issued before
     * it and may not have run yet. */
    OK(cudaStreamSynchronize(s2));
    OK(cudaStreamQuery(s2));
    OK(cudaStreamSynchronize(s1));
    OK(cudaMemcpy(h, out, n * sizeof *h, cudaMemcpyDeviceToHost));
    EXPECT(count_equal(h, n, plus_i) == n);
    EXPECT(host_calls == 1);

    /* 2. The consumer on the legacy default stream, the producer on a
     * non-blocking stream, which does not wait for it: data = i + (i + 3). */
    for (int i = 0; i < n; i++)
        h[i] = i + 3;
    OK(cudaMemcpy(add, h, n * sizeof *h, cudaMemcpyHostToDevice));
    consume<<<1, 64>>>(flag, 2, data, n, out);
    produce<<<1, 64, 0, nb>>>(flag, 2, data, add, n);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, n * sizeof *h, cudaMemcpyDeviceToHost));
    EXPECT(count_equal(h, n, twice_i) == n);

    /* 3. Several spinning blocks; the producer's stream waits for an event
     * recorded in a third stream after a kernel that must run first
     * (data *= 0, then + 3i). */
    for (int i = 0; i < n; i++)
        h[i] = 3 * i;
    OK(cudaMemcpy(add, h, n * sizeof *h, cudaMemcpyHostToDevice));
    consume<<<blocks, 64, 0, s1>>>(flag, 3, data, n, out);
    OK(cudaEventRecord(ev2, s1));
    scale<<<1, 64, 0, s3>>>(data, 0, n);
    OK(cudaEventRecord(ev, s3));
    OK(cudaStreamWaitEvent(s2, ev, 0));
    produce<<<1, 64, 0, s2>>>(flag, 3, data, add, n);
    OK(cudaEventSynchronize(ev));
    OK(cudaStreamSynchronize(s2));
    OK(cudaEventSynchronize(ev2));
    OK(cudaEventQuery(ev2));
    OK(cudaMemcpy(h, out, blocks * n * sizeof *h, cudaMemcpyDeviceToHost));
    EXPECT(count_equal(h, blocks * n, [](int i) { return thrice(i % 256); }) == blocks * n);

    /* 4. The pair written with libcu++ atomics, the consumer waiting
     * with back-off (data = 5i). */
    consume_atomic<<<1, 64, 0, s1>>>((int *)flag, 3, data, n, out);
    produce_atomic<<<1, 64, 0, s2>>>((int *)flag, 4, data, n);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, n * sizeof *h, cudaMemcpyDeviceToHost));
    EXPECT(count_equal(h, n, five_times) == n);

    /* 4b. Consumer and producer one kernel: out = k1[i%4] * i + k0[i%4]. */
    Relay first = { flag, data, out, n, 0, { 1, 2, 3, 4 } };
    Relay second = { flag, data, out, n, 1, { 10, 20, 30, 40 } };
    relay<<<1, 64, 0, s1>>>(first);
    relay<<<1, 64, 0, s2>>>(second);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, n * sizeof *h, cudaMemcpyDeviceToHost));
    EXPECT(count_equal(h, n, [](int i) { return 10 * (i % 4 + 1) * i + i % 4 + 1; }) == n);

    /* 4c. Three launches of one kernel, each waiting for the next issued:
     * they finish last first.  c: flag, order, then each launch's turn. */
    unsigned *c, turns[3];
    OK(cudaMalloc(&c, 5 * sizeof *c));
    OK(cudaMemset(c, 0, 5 * sizeof *c));
    chain<<<1, 1, 0, s1>>>(c, 2, 3, c + 1, c + 2, 0);
    chain<<<1, 1, 0, s2>>>(c, 1, 2, c + 1, c + 2, 1);
    chain<<<1, 1, 0, s3>>>(c, 0, 1, c + 1, c + 2, 2);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(turns, c + 2, sizeof turns, cudaMemcpyDeviceToHost));
    EXPECT(turns[0] == 2 && turns[1] == 1 && turns[2] == 0);
    OK(cudaFree(c));

    /* 5. A producer that waits for what follows the consumer in the
     * consumer's stream: a deadlock, reported at the wait. */
    consume<<<1, 32, 0, s1>>>(flag, 7, data, n, out);
    OK(cudaEventRecord(ev2, s1));
    OK(cudaStreamWaitEvent(s2, ev2, 0));
    produce<<<1, 32, 0, s2>>>(flag, 7, data, add, n);
    OK(cudaGetLastError());
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);

    std::printf("%s cross_stream (%d failures)\n", test_failures ? "FAIL" : "PASS", test_failures);
    return test_failures ? 1 : 0;
}

/*
 * overlap.cu -- kernels of different streams running at once on the host's
 * threads (runtime/rt_queue.c's side threads), as on a GPU: results, output and
 * statistics must not depend on which ran first or on how many threads ran
 * them (tests/threads.sh compares --threads 1, 2 and 4 byte for byte).
 *
 * Checked: several streams of small launches that print, each stream's
 * launches in order (each adds to what the one before wrote); a stream
 * made to wait for an event recorded in another after its kernel; a
 * legacy-stream kernel that must see every stream's work; kernels that call
 * malloc (the device heap is one: such launches never overlap) beside
 * others; queries of streams and events.
 *
 * With the argument "pingpong", two launches of one kernel in two streams
 * pass a token back and forth twenty times, which needs both resident at
 * once (two host threads or more: run with --threads 2).  (A side that
 * waits while the host runs the other thread elsewhere spins into a proof
 * of its loop, up to 2^18 warp-instructions, then sleeps until the other
 * writes: twenty rounds stay well inside the tests' budget under load.)
 */
#include "rt_test.h"

#include <cuda_runtime.h>

#define STREAMS 4
#define ROUNDS 3
#define N 512

/* a[i] = a[i] * 3 + stream + round, so the rounds of a stream must run in
 * order to give the expected values. */
__global__ void step(int *a, int stream, int round)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        a[i] = a[i] * 3 + stream + round;
    if (i == 0)
        printf("stream %d round %d\n", stream, round);
}

/* out[i] = a[i] + b[i]: a and b written by two other streams. */
__global__ void combine(const int *a, const int *b, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        out[i] = a[i] + b[i];
}

/* The sum of every stream's array, on the legacy stream. */
__global__ void total(const int *all, long long *sum)
{
    long long s = 0;
    for (int i = threadIdx.x; i < STREAMS * N; i += blockDim.x)
        s += all[i];
    atomicAdd((unsigned long long *)sum, (unsigned long long)s);
}

/* Device malloc: a block's own buffer, filled and summed. */
__global__ void heap_user(int *out, int k)
{
    int *p = (int *)malloc(64 * sizeof(int));
    if (!p) {
        out[blockIdx.x] = -1;
        return;
    }
    for (int i = 0; i < 64; i++)
        p[i] = i * k;
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += p[i];
    free(p);
    out[blockIdx.x] = s;
}

/* Role 0 and 1 pass the token: role r waits for an even (r = 0) or odd
 * count, then moves it on. */
__global__ void pingpong(volatile int *token, int role, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        while (*token != 2 * r + role) {
        }
        __threadfence();
        *token = 2 * r + role + 1;
    }
}

static int expected(int stream, int i, int rounds)
{
    int v = i;
    for (int r = 0; r < rounds; r++)
        v = v * 3 + stream + r;
    return v;
}

static int run_pingpong()
{
    int *token;
    OK(cudaMalloc(&token, sizeof *token));
    OK(cudaMemset(token, 0, sizeof *token));
    cudaStream_t s0, s1;
    OK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    pingpong<<<1, 1, 0, s0>>>(token, 0, 20);
    pingpong<<<1, 1, 0, s1>>>(token, 1, 20);
    OK(cudaDeviceSynchronize());
    int h = 0;
    OK(cudaMemcpy(&h, token, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 40);
    std::printf("%s overlap pingpong (%d failures)\n", test_failures ? "FAIL" : "PASS", test_failures);
    return test_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    test_name = "overlap";
    if (argc > 1 && strcmp(argv[1], "pingpong") == 0)
        return run_pingpong();
    int *a, *c, *heap_out, h[STREAMS * N];
    long long *sum, hsum = 0;
    OK(cudaMalloc(&a, STREAMS * N * sizeof *a));
    OK(cudaMalloc(&c, N * sizeof *c));
    OK(cudaMalloc(&heap_out, 8 * sizeof *heap_out));
    OK(cudaMalloc(&sum, sizeof *sum));
    OK(cudaMemset(sum, 0, sizeof *sum));
    for (int i = 0; i < STREAMS * N; i++)
        h[i] = i % N;
    OK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    cudaStream_t s[STREAMS];
    for (int k = 0; k < STREAMS; k++)
        OK(cudaStreamCreate(&s[k]));
    cudaEvent_t done0;
    OK(cudaEventCreate(&done0));

    /* 1. Rounds in every stream, issued round by round across streams. */
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < STREAMS; k++)
            step<<<(N + 127) / 128, 128, 0, s[k]>>>(a + k * N, k, r);
    /* 2. Stream 1 waits for stream 0's rounds, then combines 0 and 1. */
    OK(cudaEventRecord(done0, s[0]));
    OK(cudaStreamWaitEvent(s[1], done0, 0));
    combine<<<(N + 127) / 128, 128, 0, s[1]>>>(a, a + N, c);
    /* 3. Kernels that call malloc, in two streams, beside the others. */
    heap_user<<<4, 1, 0, s[2]>>>(heap_out, 1);
    heap_user<<<4, 1, 0, s[3]>>>(heap_out + 4, 2);
    OK(cudaGetLastError());
    /* 4. The legacy stream waits for every stream. */
    total<<<1, 256>>>(a, sum);
    OK(cudaStreamSynchronize(0));
    OK(cudaStreamQuery(s[1]));
    OK(cudaEventQuery(done0));
    OK(cudaDeviceSynchronize());

    OK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long want_sum = 0;
    for (int k = 0; k < STREAMS; k++)
        for (int i = 0; i < N; i++) {
            bad += h[k * N + i] != expected(k, i, ROUNDS);
            want_sum += expected(k, i, ROUNDS);
        }
    EXPECT(bad == 0);
    int hc[N];
    OK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    int bad_c = 0;
    for (int i = 0; i < N; i++)
        bad_c += hc[i] != expected(0, i, ROUNDS) + expected(1, i, ROUNDS);
    EXPECT(bad_c == 0);
    int hh[8];
    OK(cudaMemcpy(hh, heap_out, sizeof hh, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 8; b++)
        EXPECT(hh[b] == 2016 * (b < 4 ? 1 : 2));
    OK(cudaMemcpy(&hsum, sum, sizeof hsum, cudaMemcpyDeviceToHost));
    EXPECT(hsum == want_sum);
    std::printf("%s overlap (%d failures)\n", test_failures ? "FAIL" : "PASS", test_failures);
    return test_failures ? 1 : 0;
}

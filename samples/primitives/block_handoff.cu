/*
 * block_handoff -- blocks that wait for other blocks of the same launch,
 * without a cooperative launch: CUDA promises no co-scheduling there, yet
 * programs rely on it when the grid fits on the GPU at once, and so does
 * this one (a grid of a few dozen blocks fits on any GPU):
 *   - a software grid barrier (an arrival counter and a generation word,
 *     acquire/release through cuda::atomic_ref) between three phases of a
 *     relaxation, each reading what other blocks wrote in the phase before;
 *   - block 0 waits for a flag the grid's last block raises, then adds up
 *     what the last block published.
 * The emulator must let a block that spins bring in the blocks it waits
 * for, on one host thread as on several.  Integer arithmetic: exact.
 */
#include "sample.h"

#include <cuda/atomic>
#include <vector>

#define THREADS 64

struct grid_barrier {
    unsigned arrived;
    unsigned generation;
};

__device__ void barrier_wait(grid_barrier *b)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> gen(b->generation), arrived(b->arrived);
        unsigned mine = gen.load(cuda::std::memory_order_acquire);
        if (arrived.fetch_add(1, cuda::std::memory_order_acq_rel) == gridDim.x - 1) {
            arrived.store(0, cuda::std::memory_order_relaxed);
            gen.store(mine + 1, cuda::std::memory_order_release);
        } else {
            while (gen.load(cuda::std::memory_order_acquire) == mine)
                ;
        }
    }
    __syncthreads();
}

/* Three phases over a ring of blocks: each element becomes the sum of its
 * own value and its two neighbours' in the other blocks' halves. */
__global__ void relax(int *a, int *b, grid_barrier *bar, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int phase = 0; phase < 3; phase++) {
        int *from = phase & 1 ? b : a, *to = phase & 1 ? a : b;
        int left = (i + n - THREADS) % n, right = (i + THREADS) % n;
        to[i] = from[i] + from[left] * 2 - from[right];
        barrier_wait(bar);
    }
}

__global__ void last_to_first(int *flag, int *published, int *result)
{
    if (blockIdx.x == gridDim.x - 1) {
        published[threadIdx.x] = threadIdx.x * 3 + 1;
        __syncthreads();
        if (threadIdx.x == 0)
            cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::std::memory_order_release);
    } else if (blockIdx.x == 0) {
        if (threadIdx.x == 0)
            while (cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).load(cuda::std::memory_order_acquire) == 0)
                ;
        __syncthreads();
        atomicAdd(result, published[threadIdx.x]);
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "block_handoff");
    int blocks = size == SIZE_TINY ? 12 : size == SIZE_SMALL ? 24 : 48;
    int n = blocks * THREADS;
    std::vector<int> a(n), ref(n), tmp(n);
    lcg rng(7);
    for (int i = 0; i < n; i++)
        a[i] = ref[i] = (int)(rng.next() % 1000) - 500;
    for (int phase = 0; phase < 3; phase++) {
        for (int i = 0; i < n; i++)
            tmp[i] = ref[i] + ref[(i + n - THREADS) % n] * 2 - ref[(i + THREADS) % n];
        ref.swap(tmp);
    }
    int *da, *db, *flag, *published, *result;
    grid_barrier *bar;
    CHECK(cudaMalloc(&da, n * sizeof(int)));
    CHECK(cudaMalloc(&db, n * sizeof(int)));
    CHECK(cudaMalloc(&bar, sizeof *bar));
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMalloc(&published, THREADS * sizeof(int)));
    CHECK(cudaMalloc(&result, sizeof(int)));
    CHECK(cudaMemcpy(da, a.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(bar, 0, sizeof *bar));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    CHECK(cudaMemset(result, 0, sizeof(int)));
    relax<<<blocks, THREADS>>>(da, db, bar, n);
    CHECK(cudaGetLastError());
    last_to_first<<<blocks, THREADS>>>(flag, published, result);
    CHECK(cudaGetLastError());
    std::vector<int> got(n);
    int sum = 0;
    /* After three phases the result is in b (phases 0 and 2 write b). */
    CHECK(cudaMemcpy(got.data(), db, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&sum, result, sizeof sum, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += got[i] != ref[i];
    int want = 0;
    for (int t = 0; t < THREADS; t++)
        want += t * 3 + 1;
    char detail[160];
    snprintf(detail, sizeof detail, "(%d blocks; %d of %d relaxed elements wrong; handed-off sum %d, want %d)",
             blocks, bad, n, sum, want);
    return report(bad == 0 && sum == want, detail);
}

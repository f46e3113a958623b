/*
 * warp_locks.cu -- locks and flags that lanes of one warp wait on for other
 * lanes of the same warp: correct from Volta on, where a warp's threads are
 * scheduled independently (CUDA C++ Programming Guide, "Independent Thread
 * Scheduling"), and livelocks on GPUs before it (ptxsim run --lockstep).
 *
 *  - a spin lock (atomicCAS / atomicExch) around a plain increment, taken
 *    by every thread of the grid; again with lock and unlock functions
 *    that are not inlined;
 *  - a hash table whose buckets each have a lock, filled by all threads at
 *    once (few buckets: lanes of one warp meet at the same lock);
 *  - a ticket lock: each thread waits for its turn, in ticket order, so a
 *    warp's lanes must pass each other one by one;
 *  - a flag one lane sets for another on the other side of a branch, with
 *    either side as the waiters (so that whichever path runs first, the
 *    waiting side comes first in one of the two);
 *  - a lock per block, then __syncthreads(): lanes through the lock wait
 *    at the barrier while their warp-mates still spin for it;
 *  - cells allocated on first touch by a leader the touching lanes elect,
 *    under two locks, while its warp-mates wait at __syncwarp();
 *  - __syncwarp() on both sides of a branch, each side reading what the
 *    other wrote.
 *
 * Every result is checked against what the locks guarantee.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__device__ void lock(int *l)
{
    while (atomicCAS(l, 0, 1) != 0)
        ;
    __threadfence();
}

__device__ void unlock(int *l)
{
    __threadfence();
    atomicExch(l, 0);
}

__global__ void locked_count(int *l, volatile int *count)
{
    lock(l);
    *count = *count + 1;
    unlock(l);
}

/* The lock taken and released in functions that stay calls: the lane that
 * gets it returns from lock_outlined() and waits in the kernel, outside the
 * call its warp-mates spin in (every function of a -G build is such a call:
 * warp_locks_calls builds this whole file so). */
__device__ __noinline__ void lock_outlined(int *l)
{
    while (atomicCAS(l, 0, 1) != 0)
        ;
    __threadfence();
}

__device__ __noinline__ void unlock_outlined(int *l)
{
    __threadfence();
    atomicExch(l, 0);
}

__global__ void locked_count_outlined(int *l, volatile int *count)
{
    lock_outlined(l);
    *count = *count + 1;
    unlock_outlined(l);
}

#define BUCKETS 5
#define BUCKET_CAP 1024

struct table {
    int locks[BUCKETS];
    int sizes[BUCKETS];
    int keys[BUCKETS][BUCKET_CAP];
};

__global__ void insert_keys(table *t, int n)
{
    int key = blockIdx.x * blockDim.x + threadIdx.x;
    if (key >= n)
        return;
    int b = (key * 7) % BUCKETS;
    lock(&t->locks[b]);
    volatile int *size = &t->sizes[b];
    int at = *size;
    t->keys[b][at] = key;
    *size = at + 1;
    unlock(&t->locks[b]);
}

__global__ void ticket_order(int *next, volatile int *serving, int *order)
{
    int me = atomicAdd(next, 1);
    while (*serving != me)
        ;
    __threadfence();
    order[me] = blockIdx.x * blockDim.x + threadIdx.x;
    __threadfence();
    *serving = me + 1;
}

/* Lanes with (lane & 1) == waiter_bit wait for their neighbour's flag,
 * then read what it wrote before setting it. */
__global__ void neighbour_flag(int waiter_bit, int *flags, int *data, int *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned partner = t ^ 1;
    if ((int)(t & 1) == waiter_bit) {
        while (atomicAdd(&flags[partner], 0) == 0)
            ;
        __threadfence();
        out[t] = ((volatile int *)data)[partner];
    } else {
        data[t] = (int)t * 3 + 1;
        __threadfence();
        atomicExch(&flags[t], 1);
        out[t] = -1;
    }
}

/* Every thread of the block increments its block's counter under one lock,
 * then the block syncs, and each thread reads the count: the threads of a
 * warp that got through the lock wait at __syncthreads while their
 * warp-mates still spin for it (a barrier counts threads from Volta on). */
__global__ void locked_then_sync(int *locks, int *counts, int *seen)
{
    lock(&locks[blockIdx.x]);
    ((volatile int *)counts)[blockIdx.x] += 1;
    unlock(&locks[blockIdx.x]);
    __syncthreads();
    seen[blockIdx.x * blockDim.x + threadIdx.x] = ((volatile int *)counts)[blockIdx.x];
}

/* Cells allocated on first touch, as Taichi's pointer fields are: the
 * lanes touching one cell elect a leader (__match_any_sync), which takes
 * the cell's lock and, if the cell is still empty, a second lock around
 * the allocator; the others wait at __syncwarp() for it, then read the
 * cell's pointer.  While a leader spins on a lock another warp holds, its
 * warp-mates are let run (a spin on failing atomics) to the __syncwarp,
 * where they must wait for it. */
#define CELLS 16
#define CELL_SIZE 256

struct cells {
    int locks[CELLS];
    int *ptr[CELLS];
    int alloc_lock, next;
    int pool[CELLS][CELL_SIZE];
    int ambient[CELL_SIZE];     /* where writes to a cell not allocated go */
};

__device__ int *touch(cells *c, int k)
{
    int *volatile *ptr = (int *volatile *)c->ptr;
    if (ptr[k] == 0) {
        unsigned active = __activemask();
        unsigned same = __match_any_sync(active, k);
        if ((int)(threadIdx.x & 31) == __ffs(same) - 1) {
            lock(&c->locks[k]);
            if (ptr[k] == 0) {
                lock(&c->alloc_lock);
                int slot = ((volatile int *)&c->next)[0];
                ((volatile int *)&c->next)[0] = slot + 1;
                unlock(&c->alloc_lock);
                atomicExch((unsigned long long *)&c->ptr[k], (unsigned long long)c->pool[slot]);
            }
            unlock(&c->locks[k]);
        }
        __syncwarp(active);
    }
    int *p = ptr[k];
    return p ? p : c->ambient;
}

__global__ void lazy_cells(cells *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        touch(c, i / CELL_SIZE)[i % CELL_SIZE] = i;
}

/* __syncwarp() on both sides of a branch: from sm_70 on, lanes at two
 * bar.warp.sync instructions with the same mask wait for each other, so
 * each side reads what the other side wrote before its own __syncwarp. */
__global__ void syncwarp_both_sides(int *out, int rounds)
{
    __shared__ int odd[256], even[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, acc = 0;
    for (int r = 0; r < rounds; r++) {
        if (t & 1) {
            odd[t] = t * 3 + r;
            __syncwarp();
            acc += even[t ^ 1] + 1000;
        } else {
            even[t] = t * 5 - r;
            __syncwarp();
            acc -= odd[t ^ 1] * 2;
        }
        __syncwarp();
    }
    out[i] = acc;
}

int main(int argc, char **argv)
{
    test_name = "warp_locks";
    bool tiny = argc > 1 && std::strcmp(argv[1], "tiny") == 0;
    int blocks = tiny ? 3 : 16, threads = 64, n = blocks * threads;

    int *l, *count;
    OK(cudaMalloc(&l, sizeof(int)));
    OK(cudaMalloc(&count, sizeof(int)));
    OK(cudaMemset(l, 0, sizeof(int)));
    OK(cudaMemset(count, 0, sizeof(int)));
    locked_count<<<blocks, threads>>>(l, count);
    OK(cudaDeviceSynchronize());
    int got = 0;
    OK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    if (got != n)
        std::printf("locked_count: %d increments, expected %d\n", got, n);
    EXPECT(got == n);

    OK(cudaMemset(count, 0, sizeof(int)));
    locked_count_outlined<<<blocks, threads>>>(l, count);
    OK(cudaDeviceSynchronize());
    got = 0;
    OK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    if (got != n)
        std::printf("locked_count_outlined: %d increments, expected %d\n", got, n);
    EXPECT(got == n);

    table *t;
    OK(cudaMalloc(&t, sizeof *t));
    OK(cudaMemset(t, 0, sizeof *t));
    insert_keys<<<blocks, threads>>>(t, n);
    OK(cudaDeviceSynchronize());
    table *h = (table *)std::malloc(sizeof *h);
    OK(cudaMemcpy(h, t, sizeof *h, cudaMemcpyDeviceToHost));
    int *seen = (int *)std::calloc(n, sizeof(int)), bad = 0;
    for (int b = 0; b < BUCKETS; b++) {
        EXPECT(h->locks[b] == 0);
        for (int i = 0; i < h->sizes[b] && i < BUCKET_CAP; i++) {
            int k = h->keys[b][i];
            if (k < 0 || k >= n || (k * 7) % BUCKETS != b || seen[k]++)
                bad++;
        }
    }
    for (int k = 0; k < n; k++)
        bad += seen[k] != 1;
    if (bad)
        std::printf("insert_keys: %d keys lost, repeated or misplaced\n", bad);
    EXPECT(bad == 0);

    int *next, *serving, *order;
    OK(cudaMalloc(&next, sizeof(int)));
    OK(cudaMalloc(&serving, sizeof(int)));
    OK(cudaMalloc(&order, n * sizeof(int)));
    OK(cudaMemset(next, 0, sizeof(int)));
    OK(cudaMemset(serving, 0, sizeof(int)));
    OK(cudaMemset(order, 0xff, n * sizeof(int)));
    ticket_order<<<blocks, threads>>>(next, serving, order);
    OK(cudaDeviceSynchronize());
    int *ho = (int *)std::malloc(n * sizeof(int));
    OK(cudaMemcpy(ho, order, n * sizeof(int), cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(&got, serving, sizeof got, cudaMemcpyDeviceToHost));
    std::memset(seen, 0, n * sizeof(int));
    bad = got != n;
    for (int i = 0; i < n; i++)
        bad += ho[i] < 0 || ho[i] >= n || seen[ho[i]]++;
    if (bad)
        std::printf("ticket_order: served %d of %d, %d turns wrong\n", got, n, bad);
    EXPECT(bad == 0);

    int *flags, *data, *out, *hout = (int *)std::malloc(n * sizeof(int));
    OK(cudaMalloc(&flags, n * sizeof(int)));
    OK(cudaMalloc(&data, n * sizeof(int)));
    OK(cudaMalloc(&out, n * sizeof(int)));
    for (int waiter_bit = 0; waiter_bit < 2; waiter_bit++) {
        OK(cudaMemset(flags, 0, n * sizeof(int)));
        OK(cudaMemset(data, 0, n * sizeof(int)));
        neighbour_flag<<<blocks, threads>>>(waiter_bit, flags, data, out);
        OK(cudaDeviceSynchronize());
        OK(cudaMemcpy(hout, out, n * sizeof(int), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int i = 0; i < n; i++)
            bad += hout[i] != ((i & 1) == waiter_bit ? (i ^ 1) * 3 + 1 : -1);
        if (bad)
            std::printf("neighbour_flag(%d): %d lanes wrong\n", waiter_bit, bad);
        EXPECT(bad == 0);
    }

    int *locks, *counts;
    OK(cudaMalloc(&locks, blocks * sizeof(int)));
    OK(cudaMalloc(&counts, blocks * sizeof(int)));
    OK(cudaMemset(locks, 0, blocks * sizeof(int)));
    OK(cudaMemset(counts, 0, blocks * sizeof(int)));
    locked_then_sync<<<blocks, threads>>>(locks, counts, out);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(hout, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += hout[i] != threads;
    if (bad)
        std::printf("locked_then_sync: %d threads saw a count other than %d\n", bad, threads);
    EXPECT(bad == 0);

    cells *dc;
    OK(cudaMalloc(&dc, sizeof *dc));
    OK(cudaMemset(dc, 0, sizeof *dc));
    lazy_cells<<<CELLS * CELL_SIZE / 128, 128>>>(dc, CELLS * CELL_SIZE);   /* every warp at once */
    OK(cudaDeviceSynchronize());
    cells *hc = (cells *)std::malloc(sizeof *hc);
    OK(cudaMemcpy(hc, dc, sizeof *hc, cudaMemcpyDeviceToHost));
    bad = hc->next != CELLS;
    for (int k = 0; k < CELLS; k++) {
        long slot = hc->ptr[k] ? (hc->ptr[k] - &dc->pool[0][0]) / CELL_SIZE : -1;
        if (slot < 0 || slot >= CELLS) {
            bad++;
            continue;
        }
        for (int j = 0; j < CELL_SIZE; j++)
            bad += hc->pool[slot][j] != k * CELL_SIZE + j;
    }
    if (bad)
        std::printf("lazy_cells: %d cells allocated of %d, %d wrong\n", hc->next, CELLS, bad);
    EXPECT(bad == 0);

    const int rounds = 3;
    syncwarp_both_sides<<<blocks, threads>>>(out, rounds);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(hout, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++) {
        int t = i % threads, want = 0;
        for (int r = 0; r < rounds; r++)
            want += t & 1 ? (t ^ 1) * 5 - r + 1000 : -((t ^ 1) * 3 + r) * 2;
        bad += hout[i] != want;
    }
    if (bad)
        std::printf("syncwarp_both_sides: %d threads read the other side's data wrong\n", bad);
    EXPECT(bad == 0);

    std::free(hc);
    std::free(h);
    std::free(seen);
    std::free(ho);
    std::free(hout);
    return finish();
}

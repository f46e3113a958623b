/*
 * divergence -- control flow that splits a warp and must join it again:
 *   - nested if/else on data, three levels deep, with a different
 *     computation on every path;
 *   - loops whose trip count is each thread's own (0 to 40), with a
 *     data-dependent continue and break inside;
 *   - a switch over eight cases (compilers may make it a jump table);
 *   - an early return by some threads before the block's later work, whose
 *     output slot must then keep its sentinel;
 *   - a __noinline__ recursive device function (factorial, and a recursive
 *     digit sum), so each thread recurses to its own depth.
 * Shared memory and a __syncthreads() after the divergent part check that
 * the warp came back together.  All integer arithmetic, checked exactly
 * against the same code run on the host.
 */
#include "sample.h"

#define BLOCK 128
#define SENTINEL 0xDEADBEEFu

/* Host and device share the arithmetic so the reference is the same code. */
__host__ __device__ static unsigned mix(unsigned x)
{
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x;
}

__host__ __device__ __noinline__ unsigned long long factorial(unsigned n)
{
    return n <= 1 ? 1ull : n * factorial(n - 1);
}

/* Digit sum in base b, one digit per call level. */
__host__ __device__ __noinline__ unsigned digit_sum(unsigned v, unsigned b)
{
    if (v < b)
        return v;
    return v % b + digit_sum(v / b, b);
}

__host__ __device__ static unsigned nested(unsigned x)
{
    unsigned r;
    if (x & 1) {
        if (x & 2) {
            if (x & 4)
                r = x * 3 + 1;
            else
                r = x ^ 0x5A5A5A5Au;
        } else {
            r = x >> 3;
            if (x & 8)
                r += 77;
        }
    } else {
        if ((x >> 4) % 3 == 0)
            r = x + 12345;
        else if ((x >> 4) % 3 == 1)
            r = mix(x);
        else {
            r = 0;
            if (x & 0x100)
                r = ~x;
        }
    }
    return r;
}

__host__ __device__ static unsigned loops(unsigned x)
{
    unsigned trips = x % 41, acc = x;
    for (unsigned i = 0; i < trips; i++) {
        if ((acc + i) % 5 == 0)
            continue;
        acc = acc * 33 + i;
        if ((acc & 0xFF) == 0x2A)
            break;
    }
    /* A while loop with a data-dependent exit as well. */
    unsigned steps = 0;
    while (acc > 1000 && steps < 64) {
        acc = (acc & 1) ? acc / 3 : acc / 2 + 5;
        steps++;
    }
    return acc + steps * 1000000;
}

__host__ __device__ static unsigned cases(unsigned x)
{
    switch (x % 8) {
    case 0:
        return x + 1;
    case 1:
        return x * 7;
    case 2:
        return x >> 2;
    case 3:
        return x ^ 0xFFFF;
    case 4:
        return mix(x) & 0xFFF;
    case 5:
        return x - 100;
    case 6:
        return ~x;
    default:
        return 42;
    }
}

struct result {
    unsigned nested, loops, cases, digits, after_sync, late;
    unsigned long long fact;
};

__global__ void diverge(const unsigned *in, result *out, int n)
{
    __shared__ unsigned s[BLOCK];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = t < n ? in[t] : 0;
    unsigned a = nested(x), b = loops(x), c = cases(x);
    unsigned long long f = factorial(x % 21);             /* 20! still fits in 64 bits */
    unsigned d = digit_sum(x, 2 + x % 9);
    /* Every thread, in range or not, reaches the barrier. */
    s[threadIdx.x] = a ^ b ^ c;
    __syncthreads();
    if (t >= n)
        return;
    result r;
    r.nested = a;
    r.loops = b;
    r.cases = c;
    r.fact = f;
    r.digits = d;
    r.after_sync = s[(threadIdx.x + 1) % BLOCK] + s[(threadIdx.x + BLOCK - 1) % BLOCK];
    r.late = SENTINEL;
    out[t] = r;
    /* Early return: a third of the threads leave; the rest fill in late with
     * a call, which cannot be turned into a predicated select. */
    if (x % 3 == 0)
        return;
    out[t].late = digit_sum(mix(x + 1), 10);
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "divergence");
    int n = size == SIZE_TINY ? 1000 : size == SIZE_SMALL ? 400000 : 4000000;
    unsigned *in = (unsigned *)std::malloc(sizeof(unsigned) * n);
    result *out = (result *)std::malloc(sizeof(result) * n);
    lcg rng(13);
    for (int i = 0; i < n; i++)
        in[i] = rng.next() ^ (rng.next() << 16);
    unsigned *din;
    result *dout;
    CHECK(cudaMalloc(&din, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dout, sizeof(result) * n));
    CHECK(cudaMemcpy(din, in, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0, sizeof(result) * n));
    int grid = (n + BLOCK - 1) / BLOCK;
    diverge<<<grid, BLOCK>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(result) * n, cudaMemcpyDeviceToHost));

    const char *names[7] = {"nested", "loops", "switch", "factorial", "digit_sum", "after_sync", "early_return"};
    long wrong[7] = {0};
    for (int b = 0; b < grid; b++) {
        unsigned s[BLOCK];
        for (int l = 0; l < BLOCK; l++) {
            int t = b * BLOCK + l;
            unsigned x = t < n ? in[t] : 0;
            s[l] = nested(x) ^ loops(x) ^ cases(x);
        }
        for (int l = 0; l < BLOCK && b * BLOCK + l < n; l++) {
            int t = b * BLOCK + l;
            unsigned x = in[t];
            const result &r = out[t];
            wrong[0] += r.nested != nested(x);
            wrong[1] += r.loops != loops(x);
            wrong[2] += r.cases != cases(x);
            wrong[3] += r.fact != factorial(x % 21);
            wrong[4] += r.digits != digit_sum(x, 2 + x % 9);
            wrong[5] += r.after_sync != s[(l + 1) % BLOCK] + s[(l + BLOCK - 1) % BLOCK];
            wrong[6] += r.late != (x % 3 == 0 ? SENTINEL : digit_sum(mix(x + 1), 10));
        }
    }
    char detail[300];
    int len = std::snprintf(detail, sizeof detail, "size=%s n=%d mismatches:", size_name(size), n);
    long total = 0;
    for (int i = 0; i < 7; i++) {
        total += wrong[i];
        if (wrong[i])
            len += std::snprintf(detail + len, sizeof detail - len, " %s=%ld", names[i], wrong[i]);
    }
    std::snprintf(detail + len, sizeof detail - len, "%s (tolerance: exact)", total ? "" : " 0");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::free(in);
    std::free(out);
    return report(total == 0, detail);
}

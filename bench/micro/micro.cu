/*
 * micro.cu -- microbenchmarks of a GPU's latencies and throughputs, in the
 * manner of the published dissection papers: pointer chases timed with
 * clock64() for latency, many warps with independent chains for throughput,
 * CUDA events for the whole-GPU bandwidths.  The program measures from
 * inside (clock64, events), so the same binary runs under ptxsim's timing
 * mode and on a real GPU.  bench/micro/run picks the sizes and prints the
 * table.
 *
 *   micro TEST [ARGS...]      prints one or more "RESULT key value unit"
 *
 * Tests (sizes in bytes):
 *   chase   global|l2 FOOTPRINT STRIDE WARM STEPS [SCRUB]
 *           one thread follows a ring of 64-bit pointers STRIDE apart over
 *           FOOTPRINT: WARM steps untimed, then STEPS timed.  global loads
 *           with ld.global.ca (cached in L1), l2 with ld.global.cg.
 *   dram    FOOTPRINT STEPS [SCRUB]
 *           STEPS cold loads scattered over FOOTPRINT (never touched before:
 *           each misses every cache).  SCRUB > 0 first reads SCRUB bytes of
 *           another buffer, to evict what the host's copies left in the L2 of
 *           a real GPU; ptxsim's copies do not fill its L2.
 *   shared  STEPS               pointer chase in shared memory
 *   const   FOOTPRINT STRIDE STEPS   index chase in constant memory
 *   lat     OP STEPS            one warp, a dependent chain of OP
 *   tput    OP ROUNDS           one block of 512 threads, 8 chains each
 *           OP: iadd imul imad fadd ffma dfma sin rsqrt mma
 *   l1bw    FOOTPRINT ROUNDS    one block reads FOOTPRINT (L1-resident)
 *   smembw  ROUNDS              one block reads shared memory
 *   l2bw    NSM FOOTPRINT ROUNDS      4 x NSM blocks read an L2-resident buffer
 *   drambw  NSM FOOTPRINT [SCRUB]     4 x NSM blocks stream a cold buffer
 *   bank    STRIDE STEPS        one warp, lane i chases word i*STRIDE
 *   atomic  same|distinct NSM PER_THREAD
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "micro: %s at %s:%d: %s\n", #call, __FILE__, __LINE__,      \
                         cudaGetErrorString(err_));                                          \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)

typedef unsigned long long u64;

static void result(const char *key, double value, const char *unit)
{
    std::printf("RESULT %s %.3f %s\n", key, value, unit);
}

/* ---- helpers ------------------------------------------------------------ */

/* The loads are spelt in PTX so the cache operator is the one asked for. */
__device__ __forceinline__ u64 ld_ca(u64 p)
{
    u64 v;
    asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ u64 ld_cg(u64 p)
{
    u64 v;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}

/* A warp issues in order, so a store of the chain's last value holds the
 * clock read after it until that value has arrived.
 *
 * WARMUP_PASS: every timed loop runs twice and keeps the second pass's
 * time, so the instruction cache (and, for the chases, the data cache) is
 * warm: with one pass, gtx480's 2 KB instruction cache added about 1.5
 * cycles to each step of a 512-step add chain. */
__device__ volatile unsigned g_sink;

__global__ void scrub(const float4 *buf, size_t n, float *out)
{
    float s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += buf[i].x;
    if (s == 12345.f)
        *out = s;
}

static void run_scrub(size_t bytes)
{
    if (bytes == 0)
        return;
    float4 *buf;
    float *out;
    CHECK(cudaMalloc(&buf, bytes));
    CHECK(cudaMalloc(&out, sizeof(float)));
    CHECK(cudaMemset(buf, 0, bytes));
    scrub<<<1024, 256>>>(buf, bytes / sizeof(float4), out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(buf));
    CHECK(cudaFree(out));
}

/* ---- pointer chases ------------------------------------------------------ */

template <bool CG>
__global__ void chase_global(u64 start, int warm, int steps, long long *out)
{
    u64 p = start;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        int n = pass ? steps : warm;
        p = pass ? start : p;
        t0 = clock64();
        for (int i = 0; i < n; i++)
            p = CG ? ld_cg(p) : ld_ca(p);
        g_sink = (unsigned)p;
        t1 = clock64();
    }
    out[0] = t1 - t0;
}

/* A ring of pointers over `count` slots `stride` bytes apart, visited in the
 * order `order` gives (a permutation of 0..count-1). */
static u64 *make_ring(size_t footprint, size_t stride, const std::vector<size_t> &order, u64 **out_base)
{
    u64 *dev;
    CHECK(cudaMalloc(&dev, footprint));
    size_t words = footprint / sizeof(u64);
    std::vector<u64> host(words, 0);
    size_t w = stride / sizeof(u64);
    for (size_t i = 0; i < order.size(); i++) {
        size_t from = order[i] * w, to = order[(i + 1) % order.size()] * w;
        host[from] = (u64)(uintptr_t)(dev + to);
    }
    CHECK(cudaMemcpy(dev, host.data(), footprint, cudaMemcpyHostToDevice));
    *out_base = dev;
    return dev + order[0] * w;
}

static long long launch_chase(bool cg, u64 *start, int warm, int steps)
{
    long long *out, cycles;
    CHECK(cudaMalloc(&out, sizeof(long long)));
    if (cg)
        chase_global<true><<<1, 1>>>((u64)(uintptr_t)start, warm, steps, out);
    else
        chase_global<false><<<1, 1>>>((u64)(uintptr_t)start, warm, steps, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(out));
    return cycles;
}

static int test_chase(int argc, char **argv)
{
    if (argc < 7)
        return 2;
    bool cg = std::strcmp(argv[2], "l2") == 0;
    size_t footprint = std::strtoull(argv[3], 0, 0), stride = std::strtoull(argv[4], 0, 0);
    int warm = std::atoi(argv[5]), steps = std::atoi(argv[6]);
    size_t count = footprint / stride;
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; i++)
        order[i] = i;
    u64 *base, *start = make_ring(footprint, stride, order, &base);
    run_scrub(argc > 7 ? std::strtoull(argv[7], 0, 0) : 0);
    long long cycles = launch_chase(cg, start, warm, steps);
    result(cg ? "lat.l2" : "lat.l1", (double)cycles / steps, "cycles");
    CHECK(cudaFree(base));
    return 0;
}

static int test_dram(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    size_t footprint = std::strtoull(argv[2], 0, 0);
    int steps = std::atoi(argv[3]);
    size_t stride = footprint / steps / 128 * 128;
    /* Visit the slots in a scrambled order (an odd multiplier modulo a power
     * of two is a permutation), so no stride is regular. */
    size_t pow2 = 1;
    while (pow2 < (size_t)steps)
        pow2 <<= 1;
    std::vector<size_t> order;
    for (size_t i = 0; i < pow2; i++) {
        size_t s = (i * 40503u + 7) & (pow2 - 1);
        if (s < (size_t)steps)
            order.push_back(s);
    }
    u64 *base, *start = make_ring(footprint, stride, order, &base);
    run_scrub(argc > 4 ? std::strtoull(argv[4], 0, 0) : 0);
    long long cycles = launch_chase(false, start, 0, steps);
    result("lat.dram", (double)cycles / steps, "cycles");
    CHECK(cudaFree(base));
    return 0;
}

__global__ void chase_shared(int steps, long long *out)
{
    __shared__ unsigned ring[1024];
    unsigned base = (unsigned)__cvta_generic_to_shared(ring);
    for (int i = 0; i < 1024; i++)
        ring[i] = base + ((i + 33) % 1024) * 4u;   /* 33 words on: a new bank each step */
    unsigned p = base;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        t0 = clock64();
        for (int i = 0; i < steps; i++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
        g_sink = p;
        t1 = clock64();
    }
    out[0] = t1 - t0;
}

static int test_shared(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = std::atoi(argv[2]);
    long long *out, cycles;
    CHECK(cudaMalloc(&out, sizeof(long long)));
    chase_shared<<<1, 1>>>(steps, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
    result("lat.shared", (double)cycles / steps, "cycles");
    return 0;
}

/* The constant ring holds byte offsets: one add per step forms the address
 * (in SASS the add folds into the LDC; in PTX it is an instruction). */
__constant__ unsigned c_ring[4096];

__global__ void chase_const(int warm, int steps, long long *out)
{
    unsigned j = 0;
    const char *base = (const char *)c_ring;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        int n = pass ? steps : warm;
        t0 = clock64();
        for (int i = 0; i < n; i++)
            j = *(const unsigned *)(base + j);
        g_sink = j;
        t1 = clock64();
    }
    out[0] = t1 - t0;
}

static int test_const(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    size_t footprint = std::strtoull(argv[2], 0, 0), stride = std::strtoull(argv[3], 0, 0);
    int steps = std::atoi(argv[4]);
    if (footprint > sizeof(unsigned) * 4096)
        footprint = sizeof(unsigned) * 4096;
    size_t count = footprint / stride;
    std::vector<unsigned> host(4096, 0);
    for (size_t i = 0; i < count; i++)
        host[i * stride / 4] = (unsigned)(((i + 1) % count) * stride);
    CHECK(cudaMemcpyToSymbol(c_ring, host.data(), host.size() * sizeof(unsigned)));
    long long *out, cycles;
    CHECK(cudaMalloc(&out, sizeof(long long)));
    chase_const<<<1, 1>>>((int)count, steps, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
    result("lat.const", (double)cycles / steps, "cycles");
    return 0;
}

/* ---- instruction latency and throughput ----------------------------------- */

/* OP(x, y): one instruction making x from x (and y), spelt in PTX so the
 * chain is exactly one instruction per step. */
#define OP_IADD(x, y) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y))
#define OP_IMUL(x, y) asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(y))
#define OP_IMAD(x, y) asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(x) : "r"(y))
#define OP_FADD(x, y) asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(y))
#define OP_FFMA(x, y) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(y))
#define OP_DFMA(x, y) asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(x) : "d"(y))
#define OP_SIN(x, y) asm volatile("sin.approx.f32 %0, %0;" : "+f"(x))
#define OP_RSQRT(x, y) asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(x))

#define UNROLL 16
#define CHAINS 8

/* Throughput kernels: every warp times itself; the block's span is from the
 * earliest start to the latest end. */
__device__ __forceinline__ void span(long long t0, long long t1, u64 *out)
{
    if ((threadIdx.x & 31) == 0) {
        atomicMin(&out[0], (u64)t0);
        atomicMax(&out[1], (u64)t1);
    }
}

#define OP_KERNELS(name, T, OP)                                                     \
    __global__ void lat_##name(T seed, T y, int iters, long long *out)            \
    {                                                                               \
        T x = seed;                                                                 \
        long long t0 = 0, t1 = 0;                                                   \
        _Pragma("unroll 1") for (int pass = 0; pass < 2; pass++) {                  \
            t0 = clock64();                                                         \
            for (int i = 0; i < iters; i++) {                                       \
                _Pragma("unroll") for (int k = 0; k < UNROLL; k++) OP(x, y);        \
            }                                                                       \
            g_sink = (unsigned)x;                                                   \
            t1 = clock64();                                                         \
        }                                                                           \
        if (threadIdx.x == 0)                                                       \
            out[0] = t1 - t0;                                                       \
    }                                                                               \
    __global__ void tput_##name(T seed, T y, int iters, u64 *out)                  \
    {                                                                               \
        T x[CHAINS];                                                                \
        _Pragma("unroll") for (int j = 0; j < CHAINS; j++) x[j] = seed + (T)j;      \
        long long t0 = 0, t1 = 0;                                                   \
        _Pragma("unroll 1") for (int pass = 0; pass < 2; pass++) {                  \
            __syncthreads();                                                        \
            t0 = clock64();                                                         \
            for (int i = 0; i < iters; i++) {                                       \
                _Pragma("unroll") for (int k = 0; k < UNROLL; k++)                  \
                    _Pragma("unroll") for (int j = 0; j < CHAINS; j++) OP(x[j], y); \
            }                                                                       \
            T s = 0;                                                                \
            _Pragma("unroll") for (int j = 0; j < CHAINS; j++) s += x[j];           \
            g_sink = (unsigned)s;                                                   \
            t1 = clock64();                                                         \
        }                                                                           \
        span(t0, t1, out);                                                          \
    }

OP_KERNELS(iadd, unsigned, OP_IADD)
OP_KERNELS(imul, unsigned, OP_IMUL)
OP_KERNELS(imad, unsigned, OP_IMAD)
OP_KERNELS(fadd, float, OP_FADD)
OP_KERNELS(ffma, float, OP_FFMA)
OP_KERNELS(dfma, double, OP_DFMA)
OP_KERNELS(sin, float, OP_SIN)
OP_KERNELS(rsqrt, float, OP_RSQRT)

/* mma.sync m16n8k8 f16 x f16 + f32 (sm_75): 16 x 8 x 8 = 1024 multiply-adds
 * per warp-instruction; the accumulator carries the chain. */
#define MMA(d, a0, a1, b0)                                                                          \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, " \
                 "{%0,%1,%2,%3};"                                                                   \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                   \
                 : "r"(a0), "r"(a1), "r"(b0))
#define MMA_CHAINS 4

__global__ void lat_mma(unsigned a, int iters, long long *out)
{
    float d[4] = { 0, 0, 0, 0 };
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        t0 = clock64();
        for (int i = 0; i < iters; i++) {
#pragma unroll
            for (int k = 0; k < UNROLL; k++)
                MMA(d, a, a, a);
        }
        g_sink = (unsigned)(d[0] + d[1] + d[2] + d[3]);
        t1 = clock64();
    }
    if (threadIdx.x == 0)
        out[0] = t1 - t0;
}

__global__ void tput_mma(unsigned a, int iters, u64 *out)
{
    float d[MMA_CHAINS][4] = {};
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        __syncthreads();
        t0 = clock64();
        for (int i = 0; i < iters; i++) {
#pragma unroll
            for (int k = 0; k < UNROLL; k++)
#pragma unroll
                for (int j = 0; j < MMA_CHAINS; j++)
                    MMA(d[j], a, a, a);
        }
        float s = 0;
#pragma unroll
        for (int j = 0; j < MMA_CHAINS; j++)
            s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
        g_sink = (unsigned)s;
        t1 = clock64();
    }
    span(t0, t1, out);
}

/* 512 threads: ptxsim counts 64 registers a thread (PTX names no
 * allocation), so a block of 1024 would not fit the gtx480 preset's 32 K. */
static const int TPUT_THREADS = 512;

static u64 *span_buffer()
{
    u64 *out, init[2] = { ~0ull, 0 };
    CHECK(cudaMalloc(&out, sizeof init));
    CHECK(cudaMemcpy(out, init, sizeof init, cudaMemcpyHostToDevice));
    return out;
}

static long long span_cycles(u64 *out)
{
    u64 s[2];
    CHECK(cudaMemcpy(s, out, sizeof s, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(out));
    return (long long)(s[1] - s[0]);
}

static int test_lat(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    const char *op = argv[2];
    int iters = std::atoi(argv[3]) / UNROLL;
    long long *out, cycles;
    CHECK(cudaMalloc(&out, sizeof(long long)));
#define LAT(name, T, seed, y) \
    else if (std::strcmp(op, #name) == 0) lat_##name<<<1, 32>>>((T)(seed), (T)(y), iters, out);
    if (0) {
    }
    LAT(iadd, unsigned, 1, 3)
    LAT(imul, unsigned, 1, 3)
    LAT(imad, unsigned, 1, 3)
    LAT(fadd, float, 1, 0.5)
    LAT(ffma, float, 1, 0.5)
    LAT(dfma, double, 1, 0.5)
    LAT(sin, float, 1, 0)
    LAT(rsqrt, float, 2, 0)
    else if (std::strcmp(op, "mma") == 0) lat_mma<<<1, 32>>>(0x3c003c00u, iters, out);
    else return 2;
#undef LAT
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
    char key[64];
    std::snprintf(key, sizeof key, "lat.%s", op);
    result(key, (double)cycles / (iters * UNROLL), "cycles");
    return 0;
}

static int test_tput(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    const char *op = argv[2];
    int iters = std::atoi(argv[3]) / UNROLL;
    u64 *out = span_buffer();
    double per_thread = (double)iters * UNROLL * CHAINS;
#define TPUT(name, T, seed, y) \
    else if (std::strcmp(op, #name) == 0) tput_##name<<<1, TPUT_THREADS>>>((T)(seed), (T)(y), iters, out);
    if (0) {
    }
    TPUT(iadd, unsigned, 1, 3)
    TPUT(imul, unsigned, 1, 3)
    TPUT(imad, unsigned, 1, 3)
    TPUT(fadd, float, 1, 0.5)
    TPUT(ffma, float, 1, 0.5)
    TPUT(dfma, double, 1, 0.5)
    TPUT(sin, float, 1, 0)
    TPUT(rsqrt, float, 2, 0)
    else if (std::strcmp(op, "mma") == 0) {
        tput_mma<<<1, TPUT_THREADS>>>(0x3c003c00u, iters, out);
        /* 1024 multiply-adds per warp-instruction: 32 per thread. */
        per_thread = (double)iters * UNROLL * MMA_CHAINS * 32;
    } else
        return 2;
#undef TPUT
    CHECK(cudaGetLastError());
    long long cycles = span_cycles(out);
    char key[64];
    std::snprintf(key, sizeof key, "tput.%s", op);
    result(key, per_thread * TPUT_THREADS / cycles, std::strcmp(op, "mma") == 0 ? "fma/cycle/SM" : "ops/cycle/SM");
    return 0;
}

/* ---- bandwidth ------------------------------------------------------------ */

__device__ __forceinline__ float4 ld_ca_v4(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}

__device__ __forceinline__ float4 ld_cg_v4(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}

/* One block: a warm pass, then `rounds` timed passes over n float4s. */
__global__ void l1_bw(const float4 *buf, unsigned n, int rounds, u64 *out)
{
    float s = 0;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        __syncthreads();
        t0 = clock64();
        for (int r = 0; r < rounds; r++) {
            float4 v = ld_ca_v4(buf + (threadIdx.x + r * blockDim.x) % n);
            s += v.x + v.y + v.z + v.w;
        }
        g_sink = (unsigned)s;
        t1 = clock64();
    }
    span(t0, t1, out);
}

static int test_l1bw(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    size_t footprint = std::strtoull(argv[2], 0, 0);
    int rounds = std::atoi(argv[3]);
    float4 *buf;
    CHECK(cudaMalloc(&buf, footprint));
    CHECK(cudaMemset(buf, 0, footprint));
    u64 *out = span_buffer();
    l1_bw<<<1, TPUT_THREADS>>>(buf, (unsigned)(footprint / sizeof(float4)), rounds, out);
    CHECK(cudaGetLastError());
    long long cycles = span_cycles(out);
    result("bw.l1", (double)TPUT_THREADS * rounds * sizeof(float4) / cycles, "B/cycle/SM");
    CHECK(cudaFree(buf));
    return 0;
}

__global__ void smem_bw(int rounds, u64 *out)
{
    __shared__ float s_buf[TPUT_THREADS * 4];
    for (int i = threadIdx.x; i < TPUT_THREADS * 4; i += blockDim.x)
        s_buf[i] = (float)i;
    __syncthreads();
    float s = 0;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        __syncthreads();
        t0 = clock64();
        for (int r = 0; r < rounds; r++) {
#pragma unroll
            for (int k = 0; k < 4; k++) {
                float v;
                unsigned a = (unsigned)__cvta_generic_to_shared(&s_buf[k * TPUT_THREADS + threadIdx.x]);
                asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(a));
                s += v;
            }
        }
        g_sink = (unsigned)s;
        t1 = clock64();
    }
    span(t0, t1, out);
}

static int test_smembw(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int rounds = std::atoi(argv[2]);
    u64 *out = span_buffer();
    smem_bw<<<1, TPUT_THREADS>>>(rounds, out);
    CHECK(cudaGetLastError());
    long long cycles = span_cycles(out);
    result("bw.shared", (double)TPUT_THREADS * rounds * 4 * sizeof(float) / cycles, "B/cycle/SM");
    return 0;
}

/* Many blocks read n float4s `rounds` times (grid-stride, four loads in
 * flight a thread), through the L2 only (cg) or as plain cached loads of a
 * cold buffer (ca). */
template <bool CG>
__global__ void stream(const float4 *buf, size_t n, int rounds, float *out)
{
    float s = 0;
    size_t threads = (size_t)gridDim.x * blockDim.x;
    for (int r = 0; r < rounds; r++)
        for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += 4 * threads) {
            float4 v[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                size_t j = i + k * threads;
                v[k] = j < n ? (CG ? ld_cg_v4(buf + j) : ld_ca_v4(buf + j)) : make_float4(0, 0, 0, 0);
            }
#pragma unroll
            for (int k = 0; k < 4; k++)
                s += v[k].x + v[k].y + v[k].z + v[k].w;
        }
    if (s == 12345.f)
        *out = s;
}

static double timed_stream(bool cg, int blocks, const float4 *buf, size_t n, int rounds)
{
    float *out;
    CHECK(cudaMalloc(&out, sizeof(float)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    if (cg)
        stream<true><<<blocks, 256>>>(buf, n, rounds, out);
    else
        stream<false><<<blocks, 256>>>(buf, n, rounds, out);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaFree(out));
    return (double)n * sizeof(float4) * rounds / (ms * 1e-3) / 1e9;
}

static int test_l2bw(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    int blocks = 4 * std::atoi(argv[2]);
    size_t footprint = std::strtoull(argv[3], 0, 0);
    int rounds = std::atoi(argv[4]);
    float4 *buf;
    CHECK(cudaMalloc(&buf, footprint));
    CHECK(cudaMemset(buf, 0, footprint));
    timed_stream(true, blocks, buf, footprint / sizeof(float4), 1);   /* warm the L2 */
    result("bw.l2", timed_stream(true, blocks, buf, footprint / sizeof(float4), rounds), "GB/s");
    CHECK(cudaFree(buf));
    return 0;
}

static int test_drambw(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int blocks = 4 * std::atoi(argv[2]);
    size_t footprint = std::strtoull(argv[3], 0, 0);
    float4 *buf;
    CHECK(cudaMalloc(&buf, footprint));
    CHECK(cudaMemset(buf, 0, footprint));
    run_scrub(argc > 4 ? std::strtoull(argv[4], 0, 0) : 0);
    result("bw.dram", timed_stream(false, blocks, buf, footprint / sizeof(float4), 1), "GB/s");
    CHECK(cudaFree(buf));
    return 0;
}

/* ---- shared-memory bank conflicts ----------------------------------------- */

/* Lane i chases its own word i*stride (a self-loop), so each step is one
 * warp-wide load whose lanes conflict `stride`-ways for strides 1..32. */
__global__ void bank(int stride, int steps, long long *out)
{
    __shared__ unsigned words[32 * 33];
    unsigned base = (unsigned)__cvta_generic_to_shared(words);
    unsigned mine = (threadIdx.x * stride) % (32 * 33);
    words[mine] = base + mine * 4;
    __syncwarp();
    unsigned p = base + mine * 4;
    long long t0 = 0, t1 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {  /* WARMUP_PASS */
        t0 = clock64();
        for (int i = 0; i < steps; i++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
        g_sink = p;
        t1 = clock64();
    }
    if (threadIdx.x == 0)
        out[0] = t1 - t0;
}

static int test_bank(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int stride = std::atoi(argv[2]), steps = std::atoi(argv[3]);
    long long *out, cycles;
    CHECK(cudaMalloc(&out, sizeof(long long)));
    bank<<<1, 32>>>(stride, steps, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
    char key[64];
    std::snprintf(key, sizeof key, "bank.%d", stride);
    result(key, (double)cycles / steps, "cycles");
    return 0;
}

/* ---- atomics -------------------------------------------------------------- */

__global__ void atomics(unsigned *a, int distinct, int per_thread)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *p = distinct ? a + i : a;
    for (int k = 0; k < per_thread; k++)
        atomicAdd(p, 1u);
}

static int test_atomic(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    int distinct = std::strcmp(argv[2], "distinct") == 0;
    int blocks = 2 * std::atoi(argv[3]), per_thread = std::atoi(argv[4]);
    size_t threads = (size_t)blocks * 256;
    unsigned *a;
    CHECK(cudaMalloc(&a, threads * sizeof(unsigned)));
    CHECK(cudaMemset(a, 0, threads * sizeof(unsigned)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    atomics<<<blocks, 256>>>(a, distinct, per_thread);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    unsigned first;
    CHECK(cudaMemcpy(&first, a, sizeof first, cudaMemcpyDeviceToHost));
    unsigned want = distinct ? per_thread : (unsigned)(threads * per_thread);
    if (first != want) {
        std::fprintf(stderr, "micro: atomic count %u, expected %u\n", first, want);
        return 1;
    }
    result(distinct ? "atomic.distinct" : "atomic.same", threads * per_thread / (ms * 1e-3) / 1e9, "Gatomic/s");
    CHECK(cudaFree(a));
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } tests[] = {
        { "chase", test_chase }, { "dram", test_dram },     { "shared", test_shared }, { "const", test_const },
        { "lat", test_lat },     { "tput", test_tput },     { "l1bw", test_l1bw },     { "smembw", test_smembw },
        { "l2bw", test_l2bw },   { "drambw", test_drambw }, { "bank", test_bank },     { "atomic", test_atomic },
    };
    if (argc >= 2)
        for (auto &t : tests)
            if (std::strcmp(argv[1], t.name) == 0) {
                int rc = t.fn(argc, argv);
                if (rc == 2)
                    std::fprintf(stderr, "micro: bad arguments for '%s' (see the comment at the top of micro.cu)\n",
                                 argv[1]);
                return rc;
            }
    std::fprintf(stderr, "usage: micro TEST [ARGS...] (see the comment at the top of micro.cu)\n");
    return 2;
}

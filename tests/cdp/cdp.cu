// Kernels that launch kernels (CUDA dynamic parallelism, the CUDA 12
// semantics): each part checks what the CUDA C++ Programming Guide promises
// a program -- a grid is complete only when the grids it launched are,
// launches into one stream of a block run in order, a tail launch runs
// after its grid and that grid's other children, launch errors reach the
// launching thread through cudaGetLastError -- against results computed on
// the host.  Prints "PASS cdp N checks" or the first failures.
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int failures, checks;
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        checks++;                                                             \
        if (!(cond) && failures++ < 20) {                                     \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                       \
            printf(__VA_ARGS__);                                              \
            printf("\n");                                                     \
        }                                                                     \
    } while (0)
#define CUDA(call)                                                            \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));           \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

// ---- 1. one child grid per parent block, each writing its block's part
__global__ void fill_part(int *out, int base, int scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[base + i] = (base + i) * scale;
}

__global__ void per_block_parent(int *out, int scale)
{
    if (threadIdx.x == 0)
        fill_part<<<2, 32>>>(out, blockIdx.x * 64, scale);
}

// ---- 2. recursion, to the deepest launch the device allows
__device__ int depth_error[32];

__global__ void nest(int *level_seen, int depth, int stop)
{
    level_seen[depth] = depth + 100;
    if (depth == stop)
        return;
    nest<<<1, 1>>>(level_seen, depth + 1, stop);
    depth_error[depth] = (int)cudaGetLastError();
}

// ---- 3. launches into a block's default stream run in order
__global__ void put(int *x, int v) { *x = v; }
__global__ void add_next(const int *x, int *y) { *y = *x + 1; }

__global__ void ordered_parent(int *x, int *y, int *z)
{
    put<<<1, 1>>>(x, 41);
    add_next<<<1, 1>>>(x, y);       // sees 41
    add_next<<<1, 1>>>(y, z);       // sees 42
}

// ---- 4. tail launches: after every other child, in the order made
__global__ void square_into(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = i * i;
}

__global__ void sum_into(const int *a, int n, long long *sum)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    *sum = s;
}

__global__ void scale_sum(long long *sum, int by) { *sum *= by; }

__global__ void tail_parent(int *a, int n, long long *sum)
{
    // The tail launches come first in program order and still run last.
    if (threadIdx.x == 0) {
        sum_into<<<1, 1, 0, cudaStreamTailLaunch>>>(a, n, sum);
        scale_sum<<<1, 1, 0, cudaStreamTailLaunch>>>(sum, 3);
        square_into<<<(n + 63) / 64, 64>>>(a, n);
    }
    if (threadIdx.x == 1)
        square_into<<<(n + 63) / 64, 64, 0, cudaStreamFireAndForget>>>(a, n);
}

// ---- 5. errors reach the launching thread; the host launch succeeds
__global__ void noop() {}

__global__ void error_parent(int *codes)
{
    noop<<<1, 2048>>>();                 // more threads than a block may have
    codes[0] = (int)cudaGetLastError();
    codes[1] = (int)cudaGetLastError();  // read once, then cleared
    noop<<<dim3(1, 70000), 1>>>();       // grid y beyond 65535
    codes[2] = (int)cudaPeekAtLastError();
    codes[3] = (int)cudaGetLastError();
    noop<<<1, 32>>>();
    codes[4] = (int)cudaGetLastError();
}

// ---- 6. device-side memory operations, streams, queries
__global__ void memops_parent(int *src, int *dst, int *zeroed, int *info)
{
    cudaMemcpyAsync(dst, src, 64 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
    cudaMemsetAsync(zeroed, 0, 32 * sizeof(int), 0);
    cudaStream_t s;
    info[0] = (int)cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    put<<<1, 1, 0, s>>>(&info[1], 77);
    info[2] = (int)cudaStreamDestroy(s);
    int dev = -1, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    info[3] = dev;
    info[4] = sms;
    cudaFuncAttributes fa;
    info[5] = (int)cudaFuncGetAttributes(&fa, square_into);
    info[6] = fa.maxThreadsPerBlock;
    int blocks = 0;
    info[7] = (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, square_into, 64, 0);
    info[8] = blocks;
}

// ---- 7. dynamic shared memory and a large argument
struct Big {
    int v[60];
    double scale;
};

__global__ void big_child(Big b, int *out)
{
    extern __shared__ int smem[];
    smem[threadIdx.x] = b.v[threadIdx.x] * (int)b.scale;
    __syncthreads();
    out[threadIdx.x] = smem[59 - threadIdx.x];
}

__global__ void big_parent(int *out)
{
    Big b;
    for (int i = 0; i < 60; i++)
        b.v[i] = i + 1;
    b.scale = 2.0;
    big_child<<<1, 60, 60 * sizeof(int)>>>(b, out);
}

// ---- 8. a recursive quicksort, each half in a stream of its own
#define SORT_MAX_DEPTH 12
#define SORT_SMALL 32

__device__ void selection_sort(unsigned *a, int lo, int hi)
{
    for (int i = lo; i <= hi; i++) {
        int m = i;
        for (int j = i + 1; j <= hi; j++)
            if (a[j] < a[m])
                m = j;
        unsigned t = a[i];
        a[i] = a[m];
        a[m] = t;
    }
}

__global__ void quicksort(unsigned *a, int lo, int hi, int depth)
{
    if (depth >= SORT_MAX_DEPTH || hi - lo <= SORT_SMALL) {
        selection_sort(a, lo, hi);
        return;
    }
    unsigned pivot = a[(lo + hi) / 2];
    int l = lo, r = hi;
    while (l <= r) {
        while (a[l] < pivot)
            l++;
        while (a[r] > pivot)
            r--;
        if (l <= r) {
            unsigned t = a[l];
            a[l] = a[r];
            a[r] = t;
            l++;
            r--;
        }
    }
    if (lo < r) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, lo, r, depth + 1);
        cudaStreamDestroy(s);
    }
    if (l < hi) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, l, hi, depth + 1);
        cudaStreamDestroy(s);
    }
}

// ---- 9. a grid that tail-launches itself: a loop, not a nesting
__global__ void tail_loop(int *steps, int left)
{
    steps[left] = left * 7;
    if (left > 0) {
        tail_loop<<<1, 1, 0, cudaStreamTailLaunch>>>(steps, left - 1);
        steps[100 + left] = (int)cudaGetLastError();
    }
}

// ---- 10. events: not in the tail launch or fire-and-forget streams
__global__ void events_parent(int *codes)
{
    cudaEvent_t ev;
    codes[0] = (int)cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    codes[1] = (int)cudaEventRecord(ev, cudaStreamTailLaunch);
    cudaGetLastError();
    codes[2] = (int)cudaEventRecord(ev, cudaStreamFireAndForget);
    cudaGetLastError();
    codes[3] = (int)cudaEventRecord(ev, 0);
    codes[4] = (int)cudaEventDestroy(ev);
}

static int cmp_unsigned(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    return a < b ? -1 : a > b;
}

int main()
{
    // 0: the program's PTX is linked with libcudadevrt's, of a newer target;
    // a kernel's ptxVersion is still its own unit's (CUB dispatches on it).
    cudaFuncAttributes own;
    CUDA(cudaFuncGetAttributes(&own, (const void *)per_block_parent));
    CHECK(own.ptxVersion == 75, "ptxVersion %d, built for compute_75", own.ptxVersion);
    // 1
    int *out;
    CUDA(cudaMalloc(&out, 8 * 64 * sizeof(int)));
    CUDA(cudaMemset(out, 0xff, 8 * 64 * sizeof(int)));
    per_block_parent<<<8, 64>>>(out, 3);
    CUDA(cudaGetLastError());
    CUDA(cudaDeviceSynchronize());
    int h[512];
    CUDA(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 512; i++)
        CHECK(h[i] == i * 3, "per-block children: out[%d] = %d, want %d", i, h[i], i * 3);

    // 2: depth 0 is the host's grid; the grid at depth 24 cannot launch
    int *levels;
    CUDA(cudaMalloc(&levels, 32 * sizeof(int)));
    CUDA(cudaMemset(levels, 0, 32 * sizeof(int)));
    int zero[32] = {0};
    CUDA(cudaMemcpyToSymbol(depth_error, zero, sizeof zero));
    nest<<<1, 1>>>(levels, 0, 30);
    CUDA(cudaDeviceSynchronize());
    int lv[32], de[32];
    CUDA(cudaMemcpy(lv, levels, sizeof lv, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpyFromSymbol(de, depth_error, sizeof de));
    for (int d = 0; d < 32; d++) {
        int want = d <= 24 ? d + 100 : 0;
        CHECK(lv[d] == want, "nesting: level %d wrote %d, want %d", d, lv[d], want);
    }
    for (int d = 0; d < 24; d++)
        CHECK(de[d] == cudaSuccess, "nesting: the launch at depth %d failed with %d", d, de[d]);
    CHECK(de[24] == cudaErrorLaunchMaxDepthExceeded, "nesting: depth 24's launch gave %d, want %d", de[24],
          (int)cudaErrorLaunchMaxDepthExceeded);

    // 3
    int *xyz;
    CUDA(cudaMalloc(&xyz, 3 * sizeof(int)));
    CUDA(cudaMemset(xyz, 0, 3 * sizeof(int)));
    ordered_parent<<<1, 1>>>(xyz, xyz + 1, xyz + 2);
    CUDA(cudaDeviceSynchronize());
    int hx[3];
    CUDA(cudaMemcpy(hx, xyz, sizeof hx, cudaMemcpyDeviceToHost));
    CHECK(hx[0] == 41 && hx[1] == 42 && hx[2] == 43, "stream order: %d %d %d, want 41 42 43", hx[0], hx[1], hx[2]);

    // 4
    const int n = 300;
    int *a;
    long long *sum;
    CUDA(cudaMalloc(&a, n * sizeof(int)));
    CUDA(cudaMalloc(&sum, sizeof *sum));
    CUDA(cudaMemset(a, 0, n * sizeof(int)));
    tail_parent<<<1, 2>>>(a, n, sum);
    CUDA(cudaDeviceSynchronize());
    long long hs, want = 0;
    for (int i = 0; i < n; i++)
        want += (long long)i * i;
    CUDA(cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost));
    CHECK(hs == want * 3, "tail launches: %lld, want %lld", hs, want * 3);

    // 5
    int *codes;
    CUDA(cudaMalloc(&codes, 5 * sizeof(int)));
    error_parent<<<1, 1>>>(codes);
    CHECK(cudaGetLastError() == cudaSuccess, "a parent whose launches fail launches itself");
    CUDA(cudaDeviceSynchronize());
    int hc[5];
    CUDA(cudaMemcpy(hc, codes, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(hc[0] == cudaErrorInvalidConfiguration, "2048 threads: %d, want %d", hc[0],
          (int)cudaErrorInvalidConfiguration);
    CHECK(hc[1] == cudaSuccess, "the error is read once: %d", hc[1]);
    CHECK(hc[2] == cudaErrorInvalidConfiguration && hc[3] == cudaErrorInvalidConfiguration,
          "grid y 70000: peek %d, get %d, want %d", hc[2], hc[3], (int)cudaErrorInvalidConfiguration);
    CHECK(hc[4] == cudaSuccess, "a good launch after: %d", hc[4]);

    // 6
    int *src, *dst, *zeroed, *info;
    CUDA(cudaMalloc(&src, 64 * sizeof(int)));
    CUDA(cudaMalloc(&dst, 64 * sizeof(int)));
    CUDA(cudaMalloc(&zeroed, 32 * sizeof(int)));
    CUDA(cudaMalloc(&info, 9 * sizeof(int)));
    int hsrc[64];
    for (int i = 0; i < 64; i++)
        hsrc[i] = 1000 - 7 * i;
    CUDA(cudaMemcpy(src, hsrc, sizeof hsrc, cudaMemcpyHostToDevice));
    CUDA(cudaMemset(zeroed, 0x5a, 32 * sizeof(int)));
    memops_parent<<<1, 1>>>(src, dst, zeroed, info);
    CUDA(cudaDeviceSynchronize());
    int hdst[64], hz[32], hi[9];
    CUDA(cudaMemcpy(hdst, dst, sizeof hdst, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpy(hz, zeroed, sizeof hz, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpy(hi, info, sizeof hi, cudaMemcpyDeviceToHost));
    CHECK(!memcmp(hdst, hsrc, sizeof hsrc), "device cudaMemcpyAsync copied wrong data");
    for (int i = 0; i < 32; i++)
        CHECK(hz[i] == 0, "device cudaMemsetAsync: word %d is %#x", i, hz[i]);
    int sms;
    CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaFuncAttributes fa;
    CUDA(cudaFuncGetAttributes(&fa, square_into));
    int blocks;
    CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, square_into, 64, 0));
    CHECK(hi[0] == cudaSuccess && hi[1] == 77 && hi[2] == cudaSuccess, "device stream: %d %d %d", hi[0], hi[1], hi[2]);
    CHECK(hi[3] == 0 && hi[4] == sms, "device queries: device %d, %d SMs (host: %d)", hi[3], hi[4], sms);
    CHECK(hi[5] == cudaSuccess && hi[6] == fa.maxThreadsPerBlock, "device cudaFuncGetAttributes: %d, %d threads",
          hi[5], hi[6]);
    CHECK(hi[7] == cudaSuccess && hi[8] == blocks, "device occupancy: %d, %d blocks (host: %d)", hi[7], hi[8],
          blocks);

    // 7
    int *bo;
    CUDA(cudaMalloc(&bo, 60 * sizeof(int)));
    big_parent<<<1, 1>>>(bo);
    CUDA(cudaDeviceSynchronize());
    int hb[60];
    CUDA(cudaMemcpy(hb, bo, sizeof hb, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 60; i++)
        CHECK(hb[i] == (60 - i) * 2, "large argument and dynamic shared memory: out[%d] = %d, want %d", i, hb[i],
              (60 - i) * 2);

    // 8
    const int ns = 3000;
    unsigned *hv = (unsigned *)malloc(ns * sizeof *hv), *ref = (unsigned *)malloc(ns * sizeof *ref);
    unsigned seed = 12345;
    for (int i = 0; i < ns; i++) {
        seed = seed * 1664525u + 1013904223u;
        hv[i] = ref[i] = seed >> 8;
    }
    qsort(ref, ns, sizeof *ref, cmp_unsigned);
    unsigned *dv;
    CUDA(cudaMalloc(&dv, ns * sizeof *dv));
    CUDA(cudaMemcpy(dv, hv, ns * sizeof *dv, cudaMemcpyHostToDevice));
    quicksort<<<1, 1>>>(dv, 0, ns - 1, 0);
    CUDA(cudaDeviceSynchronize());
    CUDA(cudaMemcpy(hv, dv, ns * sizeof *dv, cudaMemcpyDeviceToHost));
    CHECK(!memcmp(hv, ref, ns * sizeof *hv), "quicksort: the result is not the sorted input");

    // 9
    int *steps;
    CUDA(cudaMalloc(&steps, 200 * sizeof(int)));
    CUDA(cudaMemset(steps, 0xff, 200 * sizeof(int)));
    tail_loop<<<1, 1>>>(steps, 60);
    CUDA(cudaDeviceSynchronize());
    int hst[200];
    CUDA(cudaMemcpy(hst, steps, sizeof hst, cudaMemcpyDeviceToHost));
    for (int i = 0; i <= 60; i++)
        CHECK(hst[i] == i * 7, "tail loop: step %d wrote %d, want %d", i, hst[i], i * 7);
    for (int i = 1; i <= 60; i++)
        CHECK(hst[100 + i] == cudaSuccess, "tail loop: the launch at step %d gave %d", i, hst[100 + i]);

    // 10
    int *ecodes;
    CUDA(cudaMalloc(&ecodes, 5 * sizeof(int)));
    events_parent<<<1, 1>>>(ecodes);
    CUDA(cudaDeviceSynchronize());
    int he[5];
    CUDA(cudaMemcpy(he, ecodes, sizeof he, cudaMemcpyDeviceToHost));
    CHECK(he[0] == cudaSuccess && he[3] == cudaSuccess && he[4] == cudaSuccess, "device events: %d %d %d", he[0],
          he[3], he[4]);
    CHECK(he[1] == cudaErrorInvalidValue && he[2] == cudaErrorInvalidValue,
          "events in the tail launch / fire-and-forget streams: %d %d, want %d", he[1], he[2],
          (int)cudaErrorInvalidValue);

    if (failures) {
        printf("FAIL cdp: %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS cdp %d checks\n", checks);
    return 0;
}

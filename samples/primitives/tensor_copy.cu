/*
 * tensor_copy -- the tensor memory accelerator (sm_90): boxes of a tensor
 * copied between global and shared memory through a tensor map made by
 * cuTensorMapEncodeTiled (cp.async.bulk.tensor, with the box's bytes
 * completed on an mbarrier), and back out (into a bulk group), and
 * reduced into global memory (cp.reduce.async.bulk.tensor).  Checked on
 * the host, element by element:
 *   - boxes of a 3-d float tensor with padded rows, inside it and hanging
 *     over every edge (elements outside read as zero, or as the OOB NaN
 *     with the NaN fill), every 2nd and 3rd element in the outer dimensions;
 *   - 1-d to 5-d boxes of int tensors;
 *   - the 32-, 64- and 128-byte swizzles of shared memory (a 16-byte
 *     chunk's index within its span XOR the 128-byte row's index);
 *   - a box written back, and added (s32) and maxed (u32) into the tensor:
 *     only its elements inside the tensor change;
 *   - a copy multicast to both blocks of a cluster of two.
 * The size argument is taken for the suite's sake; the tensors are small.
 */
#include "sample.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <math.h>
#include <string.h>
#include <vector>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TMA_DEVICE 1
#endif

/* ---- device side: inline PTX, one thread issuing, the block waiting ---- */

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
#ifdef TMA_DEVICE
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/* Arrive expecting `bytes` more, then wait for the phase to complete. */
__device__ __forceinline__ void mbar_expect_and_wait(unsigned long long *bar, unsigned bytes)
{
#ifdef TMA_DEVICE
    unsigned long long state;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state) : "r"(smem_addr(bar)), "r"(bytes) : "memory");
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem_addr(bar)), "l"(state) : "memory");
#endif
}

/* The box at c[0..rank) into shared memory at dst. */
__device__ __forceinline__ void load_box(void *dst, const CUtensorMap *map, const int *c, int rank,
                                         unsigned long long *bar)
{
#ifdef TMA_DEVICE
    unsigned d = smem_addr(dst), b = smem_addr(bar);
    unsigned long long m = (unsigned long long)map;
    switch (rank) {
    case 1:
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2}], [%3];" ::"r"(d), "l"(m), "r"(c[0]), "r"(b) : "memory");
        break;
    case 2:
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(b) : "memory");
        break;
    case 3:
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];"
                     ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(b) : "memory");
        break;
    case 4:
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6];"
                     ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(b) : "memory");
        break;
    default:
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                     ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(b) : "memory");
        break;
    }
#endif
}

/* Copy one box (bytes of it) into out, through shared memory. */
__global__ void fetch_box(const __grid_constant__ CUtensorMap map, int rank, int c0, int c1, int c2, int c3, int c4,
                          unsigned bytes, unsigned char *out)
{
    __shared__ alignas(1024) unsigned char box[16384];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0)
        mbar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        int c[5] = { c0, c1, c2, c3, c4 };
#ifdef TMA_DEVICE
        asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)&map) : "memory");
#endif
        load_box(box, &map, c, rank, &bar);
        mbar_expect_and_wait(&bar, bytes);
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        out[i] = box[i];
}

/* Fill shared memory with `in`, then write the box at (c0, c1) back to
 * the tensor: op 0 stores, 1 adds, 2 takes the maximum. */
__global__ void put_box(const __grid_constant__ CUtensorMap map, int c0, int c1, int op, const unsigned char *in,
                        unsigned bytes)
{
    __shared__ alignas(128) unsigned char box[8192];
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        box[i] = in[i];
#ifndef TMA_DEVICE
    (void)map, (void)c0, (void)c1, (void)op, (void)box;
#endif
    __syncthreads();
#ifdef TMA_DEVICE
    if (threadIdx.x == 0) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        unsigned s = smem_addr(box);
        unsigned long long m = (unsigned long long)&map;
        if (op == 0)
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory");
        else if (op == 1)
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"
                         " [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory");
        else
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group"
                         " [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
#endif
}

/* A cluster of two (the launch's attribute): block 0 copies one box into
 * both blocks' shared memory; each block waits on its own mbarrier and
 * writes what landed. */
__global__ void multicast_box(const __grid_constant__ CUtensorMap map, int c0, int c1, unsigned bytes, unsigned char *out)
{
#ifdef TMA_DEVICE
    __shared__ alignas(128) unsigned char box[4096];
    __shared__ alignas(8) unsigned long long bar;
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0)
        mbar_init(&bar, 1);
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x == 0) {
        if (rank == 0) {
            unsigned short mask = 3;
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                         ::"r"(smem_addr(box)), "l"((unsigned long long)&map), "r"(c0), "r"(c1),
                         "r"(smem_addr(&bar)), "h"(mask) : "memory");
        }
        mbar_expect_and_wait(&bar, bytes);
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        out[rank * bytes + i] = box[i];
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
#endif
}

/* ---- host side ---------------------------------------------------------- */

static PFN_cuTensorMapEncodeTiled_v12000 encode_tiled;

static CUtensorMap make_map(CUtensorMapDataType type, int rank, void *base, const cuuint64_t *dims,
                            const cuuint64_t *strides, const cuuint32_t *box, const cuuint32_t *estride,
                            CUtensorMapSwizzle swizzle, CUtensorMapFloatOOBfill fill)
{
    CUtensorMap m;
    CUresult r = encode_tiled(&m, type, (cuuint32_t)rank, base, dims, strides, box, estride,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE, fill);
    if (r != CUDA_SUCCESS) {
        printf("FAIL tensor_copy: cuTensorMapEncodeTiled gave %d\n", (int)r);
        exit(1);
    }
    return m;
}

static int failures;
#define EXPECT(cond, ...)                                                                       \
    do {                                                                                        \
        if (!(cond) && failures++ < 12) {                                                       \
            printf("mismatch: ");                                                               \
            printf(__VA_ARGS__);                                                                \
            printf("\n");                                                                       \
        }                                                                                       \
    } while (0)

/* Where box byte `off` lands in shared memory under a swizzle of span
 * bytes (0: none), the box starting 1024-byte aligned. */
static unsigned swizzle_host(unsigned off, unsigned span)
{
    if (!span)
        return off;
    unsigned chunks = span / 16;
    unsigned row = off / 128, chunk = (off / 16) % 8;
    unsigned in_span = chunk % chunks, span_base = chunk - in_span;
    return row * 128 + (span_base + (in_span ^ (row % chunks))) * 16 + off % 16;
}

static void check_float_boxes(unsigned char *dout)
{
    /* 3-d tensor 37 x 11 x 5 (x innermost) of floats, rows padded to 40. */
    const int X = 37, Y = 11, Z = 5, PITCH = 40;
    std::vector<float> h((size_t)PITCH * Y * Z);
    for (size_t i = 0; i < h.size(); i++)
        h[i] = (float)(i % 1000) + 0.25f;
    float *d;
    CHECK(cudaMalloc(&d, h.size() * sizeof(float)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    cuuint64_t dims[3] = { X, Y, Z }, strides[2] = { PITCH * 4, (cuuint64_t)PITCH * Y * 4 };
    cuuint32_t box[3] = { 8, 6, 3 };
    /* A box starts on a 16-byte boundary of its rows (x a multiple of 4
     * floats): an H200 refuses any other start as an illegal instruction. */
    const int starts[][3] = { { 0, 0, 0 }, { 4, 3, 1 }, { -4, -2, -1 }, { 32, 8, 4 }, { 36, 10, 4 }, { -8, 0, 0 } };
    for (int fill = 0; fill < 2; fill++) {
        for (int strided = 0; strided < 2; strided++) {
            cuuint32_t es[3] = { 1, strided ? 2u : 1u, strided ? 3u : 1u };
            CUtensorMap m = make_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, d, dims, strides, box, es,
                                     CU_TENSOR_MAP_SWIZZLE_NONE,
                                     fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                          : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
            unsigned n[3] = { 8, (6 + es[1] - 1) / es[1], (3 + es[2] - 1) / es[2] };
            unsigned bytes = n[0] * n[1] * n[2] * 4;
            for (const auto &s : starts) {
                fetch_box<<<1, 128>>>(m, 3, s[0], s[1], s[2], 0, 0, bytes, dout);
                CHECK(cudaGetLastError());
                std::vector<uint32_t> got(bytes / 4);
                CHECK(cudaMemcpy(got.data(), dout, bytes, cudaMemcpyDeviceToHost));
                for (unsigned k = 0; k < n[2]; k++)
                    for (unsigned j = 0; j < n[1]; j++)
                        for (unsigned i = 0; i < n[0]; i++) {
                            int x = s[0] + (int)i, y = s[1] + (int)(j * es[1]), z = s[2] + (int)(k * es[2]);
                            bool inside = x >= 0 && x < X && y >= 0 && y < Y && z >= 0 && z < Z;
                            uint32_t want;
                            if (inside)
                                memcpy(&want, &h[((size_t)z * Y + y) * PITCH + x], 4);
                            else
                                want = fill ? 0x7FF77FF7u : 0u;
                            uint32_t g = got[(k * n[1] + j) * n[0] + i];
                            EXPECT(g == want, "f32 box at (%d,%d,%d) fill %d strides %u,%u: element (%d,%d,%d) "
                                   "is 0x%08x, want 0x%08x", s[0], s[1], s[2], fill, es[1], es[2], x, y, z, g, want);
                        }
            }
        }
    }
    CHECK(cudaFree(d));
}

/* Boxes of 1 to 5 dimensions of an int tensor 8 x 5 x 4 x 3 x 2, seen as
 * rank r: its first r - 1 dimensions, the last taking the rest. */
static void check_ranks(unsigned char *dout)
{
    const int D[5] = { 8, 5, 4, 3, 2 };
    std::vector<int> h(8 * 5 * 4 * 3 * 2);
    for (size_t i = 0; i < h.size(); i++)
        h[i] = (int)(i * 7 + 1);
    int *d;
    CHECK(cudaMalloc(&d, h.size() * sizeof(int)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
    for (int rank = 1; rank <= 5; rank++) {
        cuuint64_t dims[5], strides[4], pitch[5];
        cuuint32_t box[5], es[5];
        size_t below = 1;
        for (int r = 0; r < rank; r++) {
            pitch[r] = below;                   /* elements from one index to the next */
            dims[r] = r < rank - 1 ? (cuuint64_t)D[r] : h.size() / below;
            below *= D[r];
            box[r] = r == 0 ? 8 : 2;
            es[r] = 1;
            if (r)
                strides[r - 1] = pitch[r] * 4;
        }
        CUtensorMap m = make_map(CU_TENSOR_MAP_DATA_TYPE_INT32, rank, d, dims, strides, box, es,
                                 CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        /* Over the edge of dimension 0 (4 + 8 > 8) and of 1 (4 + 2 > 5); x
         * on a 16-byte boundary, as every box's start. */
        int c[5] = { 4, 4, 1, 2, 1 };
        unsigned elems = 1;
        for (int r = 0; r < rank; r++)
            elems *= box[r];
        fetch_box<<<1, 64>>>(m, rank, c[0], c[1], c[2], c[3], c[4], elems * 4, dout);
        CHECK(cudaGetLastError());
        std::vector<int> got(elems);
        CHECK(cudaMemcpy(got.data(), dout, elems * 4, cudaMemcpyDeviceToHost));
        for (unsigned e = 0; e < elems; e++) {
            unsigned rest = e;
            size_t at = 0;
            bool inside = true;
            for (int r = 0; r < rank; r++) {
                int x = c[r] + (int)(rest % box[r]);
                rest /= box[r];
                inside = inside && x < (int)dims[r];
                at += (size_t)x * pitch[r];
            }
            int want = inside ? h[at] : 0;
            EXPECT(got[e] == want, "rank %d box element %u is %d, want %d", rank, e, got[e], want);
        }
    }
    CHECK(cudaFree(d));
}

/* A 2-d u8 tensor 304 x 20; boxes of span x 16 bytes under each swizzle. */
static void check_swizzles(unsigned char *dout)
{
    const int W = 304, H = 20;
    std::vector<unsigned char> h(W * H);
    for (int i = 0; i < W * H; i++)
        h[i] = (unsigned char)(i * 13 + i / W);
    unsigned char *d;
    CHECK(cudaMalloc(&d, h.size()));
    CHECK(cudaMemcpy(d, h.data(), h.size(), cudaMemcpyHostToDevice));
    const struct { CUtensorMapSwizzle sw; unsigned span; } modes[] = {
        { CU_TENSOR_MAP_SWIZZLE_NONE, 0 }, { CU_TENSOR_MAP_SWIZZLE_32B, 32 },
        { CU_TENSOR_MAP_SWIZZLE_64B, 64 }, { CU_TENSOR_MAP_SWIZZLE_128B, 128 },
    };
    for (const auto &md : modes) {
        unsigned inner = md.span ? md.span : 48;
        cuuint64_t dims[2] = { W, H }, strides[1] = { W };
        cuuint32_t box[2] = { inner, 16 }, es[2] = { 1, 1 };
        CUtensorMap m = make_map(CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, d, dims, strides, box, es, md.sw,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        const int x0 = 16, y0 = 2;
        unsigned bytes = inner * 16;
        fetch_box<<<1, 128>>>(m, 2, x0, y0, 0, 0, 0, bytes, dout);
        CHECK(cudaGetLastError());
        std::vector<unsigned char> got(bytes);
        CHECK(cudaMemcpy(got.data(), dout, bytes, cudaMemcpyDeviceToHost));
        for (unsigned off = 0; off < bytes; off++) {
            unsigned x = off % inner, y = off / inner;
            unsigned char want = h[(y0 + y) * W + x0 + x];
            unsigned at = swizzle_host(off, md.span);
            EXPECT(got[at] == want, "swizzle %u: box byte %u (x %u, y %u) should be at %u: there is %u, want %u",
                   md.span, off, x, y, at, got[at], want);
        }
    }
    CHECK(cudaFree(d));
}

/* Store, add and max a 16 x 8 box at (20, 5) of a 32 x 10 tensor (so it
 * hangs over the right and bottom edges). */
static void check_writes(unsigned char *din)
{
    const int W = 32, H = 10, BW = 16, BH = 8, X0 = 20, Y0 = 5;
    for (int op = 0; op < 3; op++) {
        std::vector<int> h(W * H), box(BW * BH);
        for (int i = 0; i < W * H; i++)
            h[i] = op == 2 ? (int)((i * 37) % 101) : i - 100;
        for (int i = 0; i < BW * BH; i++)
            box[i] = op == 2 ? (int)((i * 53) % 97) : 1000 + i * 3;
        int *d;
        CHECK(cudaMalloc(&d, h.size() * sizeof(int)));
        CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(din, box.data(), box.size() * sizeof(int), cudaMemcpyHostToDevice));
        cuuint64_t dims[2] = { W, H }, strides[1] = { W * 4 };
        cuuint32_t bdim[2] = { BW, BH }, es[2] = { 1, 1 };
        CUtensorMap m = make_map(op == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_INT32, 2, d, dims,
                                 strides, bdim, es, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        put_box<<<1, 128>>>(m, X0, Y0, op, din, BW * BH * 4);
        CHECK(cudaGetLastError());
        std::vector<int> got(W * H);
        CHECK(cudaMemcpy(got.data(), d, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int want = h[y * W + x];
                if (x >= X0 && y >= Y0) {
                    int b = box[(y - Y0) * BW + (x - X0)];
                    want = op == 0 ? b : op == 1 ? want + b : ((unsigned)b > (unsigned)want ? b : want);
                }
                EXPECT(got[y * W + x] == want, "%s: element (%d,%d) is %d, want %d",
                       op == 0 ? "store" : op == 1 ? "add" : "max", x, y, got[y * W + x], want);
            }
        CHECK(cudaFree(d));
    }
}

static void check_multicast(unsigned char *dout)
{
    const int W = 64, H = 16;
    std::vector<unsigned short> h(W * H);
    for (int i = 0; i < W * H; i++)
        h[i] = (unsigned short)(i * 3 + 1);
    unsigned short *d;
    CHECK(cudaMalloc(&d, h.size() * 2));
    CHECK(cudaMemcpy(d, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
    cuuint64_t dims[2] = { W, H }, strides[1] = { W * 2 };
    cuuint32_t box[2] = { 32, 8 }, es[2] = { 1, 1 };
    CUtensorMap m = make_map(CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, d, dims, strides, box, es,
                             CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    unsigned bytes = 32 * 8 * 2;
    CHECK(cudaMemset(dout, 0, 2 * bytes));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(64);
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = 2;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    cfg.attrs = &cluster;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, multicast_box, m, 24, 4, bytes, dout));
    std::vector<unsigned short> got(2 * 32 * 8);
    CHECK(cudaMemcpy(got.data(), dout, 2 * bytes, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 2; r++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 32; x++) {
                unsigned short want = h[(4 + y) * W + 24 + x], g = got[r * 256 + y * 32 + x];
                EXPECT(g == want, "multicast: block %d element (%d,%d) is %u, want %u", r, x, y, g, want);
            }
    CHECK(cudaFree(d));
}

/* The driver's checks: each a documented requirement, each refused. */
static void check_encode_errors()
{
    CUtensorMap m;
    float *d;
    CHECK(cudaMalloc(&d, 4096));
    cuuint64_t dims[2] = { 64, 16 }, strides[1] = { 256 }, bad_stride[1] = { 250 };
    cuuint32_t box[2] = { 32, 8 }, es[2] = { 1, 1 }, bad_box[2] = { 3, 8 }, big_box[2] = { 512, 8 };
    struct { const char *what; CUresult r; } cases[] = {
        { "rank 6", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 6, d, dims, strides, box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) },
        { "stride not a multiple of 16", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims, bad_stride,
                                 box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) },
        { "inner box of 12 bytes", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims, strides, bad_box,
                                 es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) },
        { "box of 512", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims, strides, big_box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) },
        { "128-byte rows under a 64-byte swizzle", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims,
                                 strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) },
        { "NaN fill of integers", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, d, dims, strides, box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) },
        { "unaligned address", encode_tiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (char *)d + 4, dims, strides,
                                 box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) },
    };
    for (const auto &c : cases)
        EXPECT(c.r == CUDA_ERROR_INVALID_VALUE, "encoding with %s gave %d, want CUDA_ERROR_INVALID_VALUE", c.what,
               (int)c.r);
    CHECK(cudaFree(d));
}

int main(int argc, char **argv)
{
    parse_size(argc, argv, "tensor_copy");
    cudaDriverEntryPointQueryResult q;
    void *fn = NULL;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (!fn || q != cudaDriverEntryPointSuccess) {
        printf("FAIL tensor_copy: no cuTensorMapEncodeTiled\n");
        return 1;
    }
    encode_tiled = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    unsigned char *dout, *din;
    CHECK(cudaMalloc(&dout, 65536));
    CHECK(cudaMalloc(&din, 65536));
    check_float_boxes(dout);
    check_ranks(dout);
    check_swizzles(dout);
    check_writes(din);
    check_multicast(dout);
    check_encode_errors();
    CHECK(cudaDeviceSynchronize());
    char detail[96];
    snprintf(detail, sizeof detail, "(%d mismatches in boxes of 1-5 dimensions, swizzles, writes, multicast)",
             failures);
    return report(failures == 0, detail);
}

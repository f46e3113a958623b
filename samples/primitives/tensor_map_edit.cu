/*
 * tensor_map_edit.cu -- tensor maps made and changed on the device
 * (tensormap.replace, sm_90a), the two ways programs do it:
 *
 *  1. From nothing, as Triton's in-kernel tensor descriptors are: a block
 *     zeroes 128 bytes of shared memory, sets every field with
 *     tensormap.replace (address, rank, box, dimensions, strides, element
 *     type, swizzle, fill), copies the map to global memory with
 *     tensormap.cp_fenceproxy, fences it (fence.proxy.tensormap::generic)
 *     and loads tiles through it with cp.async.bulk.tensor -- for f32,
 *     f16, bf16 and f64 tensors (the element type's device numbering
 *     differs from the driver's for the last two), boxes running off the
 *     tensor's edges (zero or NaN fill) and a 128-byte swizzle.
 *  2. From a map the host encoded, as a grouped GEMM's per-problem maps
 *     are: each block copies the host's map into shared memory, replaces
 *     the address, dimensions and row stride with its own problem's, and
 *     copies the result to its own slot of a global workspace before
 *     loading through it.
 *
 * Every tile is compared, element by element, with the host's reading of
 * the tensor (outside: 0, or the NaN fill's bits).
 */
#include "sample.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <vector>

#define TM_REPLACE(field, type, ...) asm volatile("tensormap.replace.tile." field ".shared::cta.b1024." type " " __VA_ARGS__)

/* The device code exists in the sm_90a PTX only; the sm_75 build of the
 * same file gets empty kernels it never runs. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define SM90A 1
#endif

/* A 2-D map described by the device: what part 1 writes field by field. */
struct map2d {
    const void *base;
    unsigned cols, rows, box_cols, box_rows, elemtype, swizzle, nan_fill;
    unsigned long long row_bytes;
};

/* The tile at (x, y) of the tensor, box_rows x box_cols elements of esize
 * bytes, loaded through the map at gmap into shared memory and copied out. */
__device__ void load_tile(const void *gmap, int x, int y, unsigned bytes, unsigned char *tile, unsigned char *out)
{
#ifdef SM90A
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), t = (unsigned)__cvta_generic_to_shared(tile);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes));
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                     "[%0], [%1, {%2, %3}], [%4];" ::"r"(t), "l"(gmap), "r"(x), "r"(y), "r"(b) : "memory");
    }
    __syncthreads();
    asm volatile("{ .reg .pred p; WAIT: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra WAIT; }"
                 ::"r"(b) : "memory");
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        out[i] = tile[i];
    __syncthreads();
#endif
}

/* The map at shared address s, finished, to gmap for the copies to read:
 * copied by a warp, with the release fence, then the acquire fence. */
__device__ void publish_map(unsigned char *gmap, unsigned s)
{
#ifdef SM90A
    if (threadIdx.x < 32)
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
                     "[%0], [%1], 128;" ::"l"(gmap), "r"(s) : "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
    __syncthreads();
#endif
}

/* ---- 1. a map from nothing ------------------------------------------------ */

__global__ void build_map(map2d m, unsigned char *gmap, const int *coords, int ntiles, unsigned esize,
                          unsigned char *out)
{
#ifdef SM90A
    __shared__ __align__(128) unsigned char smap[128];
    __shared__ __align__(1024) unsigned char tile[8192];
    unsigned s = (unsigned)__cvta_generic_to_shared(smap);
    for (unsigned i = threadIdx.x; i < 32; i += blockDim.x)
        ((unsigned *)smap)[i] = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        TM_REPLACE("global_address", "b64", "[%0], %1;" ::"r"(s), "l"(m.base));
        TM_REPLACE("rank", "b32", "[%0], 1;" ::"r"(s));
        TM_REPLACE("box_dim", "b32", "[%0], 0, %1;" ::"r"(s), "r"(m.box_cols));
        TM_REPLACE("box_dim", "b32", "[%0], 1, %1;" ::"r"(s), "r"(m.box_rows));
        TM_REPLACE("global_dim", "b32", "[%0], 0, %1;" ::"r"(s), "r"(m.cols));
        TM_REPLACE("global_dim", "b32", "[%0], 1, %1;" ::"r"(s), "r"(m.rows));
        TM_REPLACE("global_stride", "b64", "[%0], 0, %1;" ::"r"(s), "l"(m.row_bytes));
        TM_REPLACE("element_stride", "b32", "[%0], 0, 1;" ::"r"(s));
        TM_REPLACE("element_stride", "b32", "[%0], 1, 1;" ::"r"(s));
        switch (m.elemtype) {       /* (the field's new value is an immediate) */
        case 6: TM_REPLACE("elemtype", "b32", "[%0], 6;" ::"r"(s)); break;
        case 7: TM_REPLACE("elemtype", "b32", "[%0], 7;" ::"r"(s)); break;
        case 9: TM_REPLACE("elemtype", "b32", "[%0], 9;" ::"r"(s)); break;
        default: TM_REPLACE("elemtype", "b32", "[%0], 10;" ::"r"(s)); break;
        }
        TM_REPLACE("interleave_layout", "b32", "[%0], 0;" ::"r"(s));
        if (m.swizzle)
            TM_REPLACE("swizzle_mode", "b32", "[%0], 3;" ::"r"(s));
        else
            TM_REPLACE("swizzle_mode", "b32", "[%0], 0;" ::"r"(s));
        if (m.nan_fill)
            TM_REPLACE("fill_mode", "b32", "[%0], 1;" ::"r"(s));
        else
            TM_REPLACE("fill_mode", "b32", "[%0], 0;" ::"r"(s));
    }
    __syncthreads();
    publish_map(gmap, s);
    unsigned bytes = m.box_cols * m.box_rows * esize;
    for (int k = 0; k < ntiles; k++)
        load_tile(gmap, coords[2 * k], coords[2 * k + 1], bytes, tile, out + (size_t)k * bytes);
#endif
}

/* ---- 2. a host map edited per problem ------------------------------------- */

struct problem {
    const float *a;
    unsigned cols, rows;
    unsigned long long row_bytes;
};

__global__ void grouped_loads(const __grid_constant__ CUtensorMap host_map, const problem *problems,
                              unsigned char *workspace, unsigned box_bytes, float *out)
{
#ifdef SM90A
    __shared__ __align__(128) unsigned char smap[128];
    __shared__ __align__(128) unsigned char tile[4096];
    const problem &p = problems[blockIdx.x];
    unsigned char *gmap = workspace + 128 * blockIdx.x;
    for (unsigned i = threadIdx.x; i < 128; i++)
        smap[i] = ((const unsigned char *)&host_map)[i];
    __syncthreads();
    unsigned s = (unsigned)__cvta_generic_to_shared(smap);
    if (threadIdx.x == 0) {
        TM_REPLACE("global_address", "b64", "[%0], %1;" ::"r"(s), "l"(p.a));
        TM_REPLACE("global_dim", "b32", "[%0], 0, %1;" ::"r"(s), "r"(p.cols));
        TM_REPLACE("global_dim", "b32", "[%0], 1, %1;" ::"r"(s), "r"(p.rows));
        TM_REPLACE("global_stride", "b64", "[%0], 0, %1;" ::"r"(s), "l"(p.row_bytes));
    }
    __syncthreads();
    publish_map(gmap, s);
    /* The problem's last tile, which runs off its edges when it is small. */
    int x = (int)((p.cols - 1) / 16 * 16), y = (int)((p.rows - 1) / 8 * 8);
    load_tile(gmap, x, y, box_bytes, tile, (unsigned char *)(out + (size_t)blockIdx.x * box_bytes / 4));
#endif
}

/* ---- host ------------------------------------------------------------------ */

static int failures;

/* The element at (r, c) as the tile holds it: the tensor's, or the fill. */
static uint64_t expected(const std::vector<unsigned char> &t, unsigned cols, unsigned rows, size_t row_bytes,
                         unsigned esize, long r, long c, bool nan_fill)
{
    if (r < 0 || c < 0 || r >= rows || c >= cols)
        return nan_fill ? 0x7FF7'7FF7'7FF7'7FF7ull & (esize == 8 ? ~0ull : (1ull << 8 * esize) - 1) : 0;
    uint64_t v = 0;
    memcpy(&v, &t[r * row_bytes + c * esize], esize);
    return v;
}

/* A 128-byte swizzle: the 16-byte chunk index (bits 4-6 of the offset) XOR
 * the 128-byte row index (bits 7-9). */
static size_t swizzled(size_t off) { return off ^ ((off >> 7 & 7) << 4); }

static void check_built(const char *name, unsigned elemtype, unsigned esize, bool swizzle, bool nan_fill, lcg &rng)
{
    const unsigned cols = 100, rows = 37, pad = 16 / esize * 3;         /* rows padded: a stride not cols' */
    size_t row_bytes = (size_t)(cols + pad) * esize;
    std::vector<unsigned char> host(row_bytes * rows);
    for (auto &b : host) b = (unsigned char)rng.next();
    map2d m;
    m.cols = cols, m.rows = rows, m.row_bytes = row_bytes, m.elemtype = elemtype;
    m.box_cols = swizzle ? 128 / esize : 24 * 4 / esize, m.box_rows = 8, m.swizzle = swizzle, m.nan_fill = nan_fill;
    const int coords[] = { 0, 0, (int)(48 / esize) * 2, 5, (int)(96 / esize), 32, -(int)(16 / esize), -3, (int)((cols - 1) * esize / 16 * 16 / esize), 33 };   /* starts on 16 bytes */
    const int ntiles = sizeof coords / sizeof coords[0] / 2;
    unsigned bytes = m.box_cols * m.box_rows * esize;
    unsigned char *dt, *dmap, *dout;
    int *dc;
    CHECK(cudaMalloc(&dt, host.size()));
    CHECK(cudaMalloc(&dmap, 128));
    CHECK(cudaMalloc(&dout, (size_t)ntiles * bytes));
    CHECK(cudaMalloc(&dc, sizeof coords));
    CHECK(cudaMemcpy(dt, host.data(), host.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, coords, sizeof coords, cudaMemcpyHostToDevice));
    m.base = dt;
    build_map<<<1, 128>>>(m, dmap, dc, ntiles, esize, dout);
    CHECK(cudaGetLastError());
    std::vector<unsigned char> out((size_t)ntiles * bytes);
    CHECK(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost));
    for (int k = 0; k < ntiles; k++)
        for (unsigned r = 0; r < m.box_rows; r++)
            for (unsigned c = 0; c < m.box_cols; c++) {
                size_t off = ((size_t)r * m.box_cols + c) * esize;
                uint64_t got = 0;
                memcpy(&got, &out[(size_t)k * bytes + (swizzle ? swizzled(off) : off)], esize);
                uint64_t want = expected(host, cols, rows, row_bytes, esize, coords[2 * k + 1] + (long)r,
                                         coords[2 * k] + (long)c, nan_fill);
                if (got != want && failures++ < 10)
                    printf("  %s: tile %d (%d, %d) element (%u, %u) = %#llx, expected %#llx\n", name, k, coords[2 * k],
                           coords[2 * k + 1], r, c, (unsigned long long)got, (unsigned long long)want);
            }
    CHECK(cudaFree(dt));
    CHECK(cudaFree(dmap));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dc));
}

static void check_grouped(lcg &rng)
{
    PFN_cuTensorMapEncodeTiled_v12000 encode;
    cudaDriverEntryPointQueryResult q;
    void *fn = NULL;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (!fn || q != cudaDriverEntryPointSuccess) {
        printf("FAIL tensor_map_edit: no cuTensorMapEncodeTiled\n");
        exit(1);
    }
    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    const unsigned shapes[][2] = { { 64, 40 }, { 20, 9 }, { 130, 17 }, { 16, 8 }, { 7, 3 } };     /* cols, rows */
    const int n = sizeof shapes / sizeof shapes[0];
    std::vector<std::vector<float>> mats(n);
    std::vector<problem> probs(n);
    std::vector<float *> dev(n);
    for (int i = 0; i < n; i++) {
        unsigned cols = shapes[i][0], rows = shapes[i][1], ld = (cols + 3) / 4 * 4 + 4 * i;   /* 16-byte rows */
        mats[i].resize((size_t)ld * rows);
        for (auto &v : mats[i]) v = (float)(rng.next() % 1000);
        CHECK(cudaMalloc(&dev[i], mats[i].size() * 4));
        CHECK(cudaMemcpy(dev[i], mats[i].data(), mats[i].size() * 4, cudaMemcpyHostToDevice));
        probs[i] = { dev[i], cols, rows, (unsigned long long)ld * 4 };
    }
    /* The host's map: the first problem's shape; each block takes its own. */
    CUtensorMap map;
    cuuint64_t dims[2] = { shapes[0][0], shapes[0][1] }, strides[1] = { probs[0].row_bytes };
    cuuint32_t box[2] = { 16, 8 }, estride[2] = { 1, 1 };
    if (encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dev[0], dims, strides, box, estride,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
        printf("FAIL tensor_map_edit: cuTensorMapEncodeTiled refused the map\n");
        exit(1);
    }
    problem *dp;
    unsigned char *ws;
    float *dout;
    CHECK(cudaMalloc(&dp, n * sizeof(problem)));
    CHECK(cudaMalloc(&ws, 128 * n));
    CHECK(cudaMalloc(&dout, (size_t)n * 16 * 8 * 4));
    CHECK(cudaMemcpy(dp, probs.data(), n * sizeof(problem), cudaMemcpyHostToDevice));
    grouped_loads<<<n, 64>>>(map, dp, ws, 16 * 8 * 4, dout);
    CHECK(cudaGetLastError());
    std::vector<float> out((size_t)n * 16 * 8);
    CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        unsigned cols = shapes[i][0], rows = shapes[i][1], ld = (unsigned)(probs[i].row_bytes / 4);
        unsigned x = (cols - 1) / 16 * 16, y = (rows - 1) / 8 * 8;
        for (unsigned r = 0; r < 8; r++)
            for (unsigned c = 0; c < 16; c++) {
                float want = y + r < rows && x + c < cols ? mats[i][(size_t)(y + r) * ld + x + c] : 0.0f;
                float got = out[(size_t)i * 128 + r * 16 + c];
                if (got != want && failures++ < 10)
                    printf("  grouped: problem %d element (%u, %u) = %g, expected %g\n", i, y + r, x + c, got, want);
            }
        CHECK(cudaFree(dev[i]));
    }
    CHECK(cudaFree(dp));
    CHECK(cudaFree(ws));
    CHECK(cudaFree(dout));
}

int main(int argc, char **argv)
{
    parse_size(argc, argv, "tensor_map_edit");
    lcg rng(90);
    check_built("f32", 7, 4, false, false, rng);
    check_built("f32 NaN fill", 7, 4, false, true, rng);
    check_built("f16 swizzled", 6, 2, true, false, rng);
    check_built("bf16 NaN fill", 10, 2, false, true, rng);
    check_built("f64 swizzled", 9, 8, true, true, rng);
    check_grouped(rng);
    CHECK(cudaDeviceSynchronize());
    return report(failures == 0, failures ? "(tiles differ from the host's)"
                                          : "5 maps built on the device, 5 problems' maps edited: every tile exact");
}

// tests/gpu/tma_probe.cu -- one tensor-map copy into shared memory, in the
// variant named by argv[1] (then FILL STRIDED X Y Z: tensor_copy's OOB fill,
// traversal strides 1,2,3 and box start), each in a process of its own (an
// illegal instruction ends the context): which detail of samples/
// primitives/tensor_copy.cu's float boxes a GPU refuses.  Prints the
// configuration and "ok" or the CUDA error.  Build: nvcc -arch=sm_90 -cudart shared -o tma_probe tma_probe.cu
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PLAIN, NO_PREFETCH, MAP_IN_GLOBAL, RANK2, NO_INIT_FENCE, CTA_DST, NVARIANTS };
static const char *names[] = { "plain", "no_prefetch", "map_in_global", "rank2", "no_init_fence", "cta_dst" };

__global__ void fetch(const __grid_constant__ CUtensorMap map, const CUtensorMap *gmap, int variant, unsigned bytes,
                      unsigned *out, int x, int y, int z)
{
    __shared__ alignas(1024) unsigned char box[4096];
    __shared__ alignas(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(box);
    unsigned long long m = variant == MAP_IN_GLOBAL ? (unsigned long long)gmap : (unsigned long long)&map;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        if (variant != NO_INIT_FENCE)
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        if (variant != NO_PREFETCH)
            asm volatile("prefetch.tensormap [%0];" ::"l"(m) : "memory");
        if (variant == RANK2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(d), "l"(m), "r"(x), "r"(y), "r"(b) : "memory");
        else if (variant == CTA_DST)
            asm volatile("cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(d), "l"(m), "r"(x), "r"(y), "r"(z), "r"(b)
                         : "memory");
        else
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(d), "l"(m), "r"(x), "r"(y), "r"(z), "r"(b)
                         : "memory");
        unsigned long long state;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(state) : "r"(b), "r"(bytes)
                     : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(b), "l"(state) : "memory");
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x)
        out[i] = ((unsigned *)box)[i];
}

int main(int argc, char **argv)
{
    int v = 0;
    while (v < NVARIANTS && (argc < 2 || strcmp(argv[1], names[v])))
        v++;
    if (v == NVARIANTS) {
        for (int i = 0; i < NVARIANTS; i++)
            printf("%s\n", names[i]);
        return 2;
    }
    void *fn = NULL;
    cudaDriverEntryPointQueryResult q;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    PFN_cuTensorMapEncodeTiled_v12000 encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    const int X = 37, Y = 11, Z = 5, PITCH = 40;
    float *t;
    unsigned *out;
    CUtensorMap *gmap;
    cudaMalloc(&t, PITCH * Y * Z * 4);
    cudaMalloc(&out, 4096);
    cudaMalloc(&gmap, sizeof(CUtensorMap));
    cuuint64_t dims[3] = { X, Y, Z }, strides[2] = { PITCH * 4, (cuuint64_t)PITCH * Y * 4 };
    // Optional: FILL STRIDED X Y Z, as tensor_copy's check_float_boxes.
    int fill = argc > 2 ? atoi(argv[2]) : 0, strided = argc > 3 ? atoi(argv[3]) : 0;
    int x = argc > 4 ? atoi(argv[4]) : 0, y = argc > 5 ? atoi(argv[5]) : 0, z = argc > 6 ? atoi(argv[6]) : 0;
    cuuint32_t box[3] = { 8, 6, 3 }, es[3] = { 1, strided ? 2u : 1u, strided ? 3u : 1u };
    int rank = v == RANK2 ? 2 : 3;
    CUtensorMap m;
    CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, rank, t, dims, strides, box, es,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                        fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    cudaMemcpy(gmap, &m, sizeof m, cudaMemcpyHostToDevice);
    unsigned n1 = (6 + es[1] - 1) / es[1], n2 = (3 + es[2] - 1) / es[2];
    unsigned bytes = rank == 2 ? 8 * n1 * 4 : 8 * n1 * n2 * 4;
    fetch<<<1, 128>>>(m, gmap, v, bytes, out, x, y, z);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s fill %d strided %d at (%d,%d,%d): encode %d, %s\n", names[v], fill, strided, x, y, z, (int)r,
           e == cudaSuccess ? "ok" : cudaGetErrorString(e));
    return e != cudaSuccess;
}

/*
 * reduce_shfl -- sum of n ints with warp shuffles instead of a shared-memory
 * tree: each warp folds its 32 values with __shfl_down_sync, lane 0 of each
 * warp leaves the warp's sum in shared memory, and the first warp folds
 * those.  Block sums go to global memory and a one-block launch finishes.
 *
 * Where the device code is compiled for sm_80 or later, a second kernel does
 * the warp step with __reduce_add_sync (redux.sync) and must give the same
 * sum; it reports through a flag whether it ran, since the host cannot see
 * which PTX the runtime picked.  n is not a multiple of the block, and a
 * third kernel shuffles within partial warps of 1..32 lanes whose mask names
 * only the lanes present.  Integer sums (with wrap-around) are checked
 * exactly.
 */
#include "sample.h"

#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ unsigned warp_sum_shfl(unsigned v)
{
    /* After the step with offset o, lane l holds the sum of lanes l..l+2o-1. */
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    return v;
}

__device__ __forceinline__ unsigned warp_sum_redux(unsigned v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(0xFFFFFFFFu, v);
#else
    return warp_sum_shfl(v);
#endif
}

/* USE_REDUX selects the warp step; every thread of the block runs it with all
 * 32 lanes present (inactive elements contribute 0), so the full mask is right. */
template <bool USE_REDUX> __global__ void reduce_warps(const unsigned *in, unsigned *out, int n, int *redux_ran)
{
    __shared__ unsigned warp_part[WARPS];
    (void)redux_ran; /* written only where redux exists */
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned v = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        v += in[i];
    v = USE_REDUX ? warp_sum_redux(v) : warp_sum_shfl(v);
    if (lane == 0)
        warp_part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < WARPS ? warp_part[lane] : 0;
        v = USE_REDUX ? warp_sum_redux(v) : warp_sum_shfl(v);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
#if __CUDA_ARCH__ >= 800
    if (USE_REDUX && blockIdx.x == 0 && threadIdx.x == 0)
        *redux_ran = 1;
#endif
}

/* A partial-warp shuffle: only the first `width` lanes take part, with the
 * mask naming exactly them.  A value shuffled from a lane outside the group
 * is undefined, so it is dropped; after the doubling steps lane l holds the
 * sum of lanes l..width-1. */
__global__ void shfl_partial(const unsigned *in, unsigned *out, int width)
{
    unsigned lane = threadIdx.x;
    if ((int)lane >= width)
        return;
    unsigned mask = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1;
    unsigned v = in[lane];
    for (int o = 1; o < 32; o <<= 1) {
        unsigned u = __shfl_down_sync(mask, v, o);
        if ((int)(lane + o) < width)
            v += u;
    }
    out[lane] = v;
}

template <bool USE_REDUX> static unsigned run(const unsigned *din, int n, int grid, unsigned *dpart, unsigned *dsum,
                                              int *dflag)
{
    reduce_warps<USE_REDUX><<<grid, BLOCK>>>(din, dpart, n, dflag);
    CHECK(cudaGetLastError());
    reduce_warps<USE_REDUX><<<1, BLOCK>>>(dpart, dsum, grid, dflag);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned r;
    CHECK(cudaMemcpy(&r, dsum, sizeof r, cudaMemcpyDeviceToHost));
    return r;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "reduce_shfl");
    int n = size == SIZE_TINY ? 10009 : size == SIZE_SMALL ? (1 << 24) + 5 : (1 << 26) + 5;
    int grid = size == SIZE_TINY ? 11 : size == SIZE_SMALL ? 480 : 2000;
    unsigned *a = (unsigned *)std::malloc(sizeof(unsigned) * n);
    lcg rng(23);
    unsigned want = 0;
    for (int i = 0; i < n; i++) {
        a[i] = rng.next() * 2654435761u;
        want += a[i];
    }
    unsigned *din, *dpart, *dsum;
    int *dflag, flag = 0;
    CHECK(cudaMalloc(&din, sizeof(unsigned) * n));
    CHECK(cudaMalloc(&dpart, sizeof(unsigned) * grid));
    CHECK(cudaMalloc(&dsum, sizeof(unsigned)));
    CHECK(cudaMalloc(&dflag, sizeof(int)));
    CHECK(cudaMemcpy(din, a, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dflag, 0, sizeof(int)));
    unsigned got_shfl = run<false>(din, n, grid, dpart, dsum, dflag);
    unsigned got_redux = run<true>(din, n, grid, dpart, dsum, dflag);
    CHECK(cudaMemcpy(&flag, dflag, sizeof flag, cudaMemcpyDeviceToHost));

    /* Partial warps of 1..32 lanes. */
    int partial_wrong = 0;
    unsigned *dseg;
    CHECK(cudaMalloc(&dseg, sizeof(unsigned) * 32));
    for (int width = 1; width <= 32; width++) {
        unsigned seg[32];
        CHECK(cudaMemset(dseg, 0, sizeof seg));
        shfl_partial<<<1, 32>>>(din, dseg, width);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(seg, dseg, sizeof seg, cudaMemcpyDeviceToHost));
        for (int l = 0; l < width; l++) {
            /* The doubling steps add lanes l..l+2^k-1, clipped at width. */
            unsigned s = 0;
            for (int j = l; j < width; j++)
                s += a[j];
            if (seg[l] != s)
                partial_wrong++;
        }
    }
    bool ok = got_shfl == want && got_redux == want && partial_wrong == 0;
    char detail[220];
    std::snprintf(detail, sizeof detail,
                  "size=%s n=%d shfl=%u redux=%u (%s) want=%u partial-warp mismatches=%d (tolerance: exact)",
                  size_name(size), n, got_shfl, got_redux, flag ? "__reduce_add_sync ran" : "sm<80: shfl only", want,
                  partial_wrong);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dsum));
    CHECK(cudaFree(dflag));
    CHECK(cudaFree(dseg));
    std::free(a);
    return report(ok, detail);
}

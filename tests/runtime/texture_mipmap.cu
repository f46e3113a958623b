/*
 * texture_mipmap -- mipmapped arrays and their textures: levels of halving
 * size (the count clamped as CUDA documents), each reached as an array of
 * its own for copies; tex2DLod with point and linear mip filtering, the
 * level bias and clamps; tex2DGrad's level from the gradients; txq's level
 * count; and misuse: a level past the last, freeing a level array.
 *
 * Level l holds the constant 10 (l + 1), so a sample says which levels it
 * read and how they were weighted.
 */
#include "rt_test.h"

#include <cuda_runtime.h>
#include <vector>

enum { SIZE = 16, LEVELS = 5, QUERIES = 10 };

struct query {
    float lod;
    float grad;         /* > 0: tex2DGrad with this gradient (normalised units) along x */
};

__global__ void sample(cudaTextureObject_t t, const query *q, float *out, unsigned *levels)
{
    int i = threadIdx.x;
    if (i < QUERIES) {
        float x = 0.3f, y = 0.6f;
        out[i] = q[i].grad > 0 ? tex2DGrad<float>(t, x, y, make_float2(q[i].grad, 0), make_float2(0, 0))
                               : tex2DLod<float>(t, x, y, q[i].lod);
    }
    if (i == 0) {
        unsigned n;
        asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(n) : "l"(t));
        *levels = n;
    }
}

static cudaTextureObject_t texture(cudaMipmappedArray_t m, cudaTextureFilterMode mip, float bias, float max_clamp)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModePoint;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.readMode = cudaReadModeElementType;
    td.mipmapFilterMode = mip;
    td.mipmapLevelBias = bias;
    td.minMipmapLevelClamp = 0;
    td.maxMipmapLevelClamp = max_clamp;
    cudaTextureObject_t t = 0;
    OK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

/* The ten queries' samples through texture t. */
static std::vector<float> run(cudaTextureObject_t t, const std::vector<query> &qs, unsigned *levels)
{
    query *dq;
    float *dout;
    unsigned *dl;
    OK(cudaMalloc(&dq, QUERIES * sizeof(query)));
    OK(cudaMalloc(&dout, QUERIES * sizeof(float)));
    OK(cudaMalloc(&dl, sizeof(unsigned)));
    OK(cudaMemcpy(dq, qs.data(), QUERIES * sizeof(query), cudaMemcpyHostToDevice));
    sample<<<1, 32>>>(t, dq, dout, dl);
    OK(cudaDeviceSynchronize());
    std::vector<float> out(QUERIES);
    OK(cudaMemcpy(out.data(), dout, QUERIES * sizeof(float), cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(levels, dl, sizeof(unsigned), cudaMemcpyDeviceToHost));
    OK(cudaFree(dq));
    OK(cudaFree(dout));
    OK(cudaFree(dl));
    return out;
}

int main()
{
    test_name = "texture_mipmap";
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    /* 16 x 16 has five levels (16, 8, 4, 2, 1): asking for nine gets five. */
    OK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(SIZE, SIZE, 0), 9, 0));
    for (unsigned l = 0; l < LEVELS; l++) {
        cudaArray_t a;
        OK(cudaGetMipmappedArrayLevel(&a, m, l));
        cudaChannelFormatDesc d;
        cudaExtent x;
        unsigned flags;
        OK(cudaArrayGetInfo(&d, &x, &flags, a));
        EXPECT(x.width == (size_t)(SIZE >> l) && x.height == (size_t)(SIZE >> l));
        int n = SIZE >> l;
        std::vector<float> v((size_t)n * n, 10.0f * (l + 1));
        OK(cudaMemcpy2DToArray(a, 0, 0, v.data(), n * sizeof(float), n * sizeof(float), n, cudaMemcpyHostToDevice));
        EXPECT_MISUSE(cudaFreeArray(a), cudaErrorInvalidValue);          /* the mipmapped array's */
    }
    cudaArray_t past;
    EXPECT_MISUSE(cudaGetMipmappedArrayLevel(&past, m, LEVELS), cudaErrorInvalidValue);

    std::vector<query> qs = { { 0, 0 }, { 1, 0 }, { 2.25f, 0 }, { 2.6f, 0 }, { 3, 0 }, { 10, 0 }, { -1, 0 },
                              { 1.25f, 0 }, { 0, 4.0f / SIZE }, { 0, 0.5f / SIZE } };
    unsigned levels = 0;
    /* Point mip filtering: the nearest level, within [0, 4]. */
    cudaTextureObject_t t = texture(m, cudaFilterModePoint, 0, LEVELS - 1);
    std::vector<float> got = run(t, qs, &levels);
    const float point[QUERIES] = { 10, 20, 30, 40, 40, 50, 10, 20, 30, 10 };
    for (int i = 0; i < QUERIES; i++)
        if (got[i] != point[i]) {
            std::printf("FAIL texture_mipmap: point query %d: %g, expected %g\n", i, got[i], point[i]);
            test_failures++;
        }
    EXPECT(levels == LEVELS);
    OK(cudaDestroyTextureObject(t));

    /* Linear: the two levels around the lod, weighted (1.25: 3/4 of 20, 1/4 of 30). */
    t = texture(m, cudaFilterModeLinear, 0, LEVELS - 1);
    got = run(t, qs, &levels);
    EXPECT(got[7] == 22.5f && got[2] == 32.5f && got[1] == 20.0f && got[5] == 50.0f);
    OK(cudaDestroyTextureObject(t));

    /* A bias of 1 moves every lod a level on; a maximum clamp of 0 (the
     * descriptor's default) keeps every sample at level 0. */
    t = texture(m, cudaFilterModePoint, 1, LEVELS - 1);
    got = run(t, qs, &levels);
    EXPECT(got[0] == 20 && got[1] == 30 && got[6] == 10);
    OK(cudaDestroyTextureObject(t));
    t = texture(m, cudaFilterModePoint, 0, 0);
    got = run(t, qs, &levels);
    EXPECT(got[3] == 10 && got[5] == 10 && got[8] == 10);
    OK(cudaDestroyTextureObject(t));

    OK(cudaFreeMipmappedArray(m));
    EXPECT_MISUSE(cudaFreeMipmappedArray(m), cudaErrorInvalidValue);
    return finish();
}

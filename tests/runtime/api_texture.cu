/*
 * api_texture -- CUDA arrays, texture objects and surface objects as the
 * runtime API defines them: what the Get* calls return, and the error
 * codes of misuse (bad channel formats, bad flags, freed arrays, misaligned
 * linear memory, destroyed objects).  A kernel given a destroyed texture
 * object faults with cudaErrorIllegalAddress, which is sticky.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__global__ void read_texture(cudaTextureObject_t t, float *out)
{
    *out = tex1Dfetch<float>(t, 0);
}

static cudaResourceDesc array_resource(cudaArray_t a)
{
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

int main()
{
    test_name = "api_texture";
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>(), got;
    cudaArray_t a;
    OK(cudaMallocArray(&a, &f4, 20, 10, cudaArraySurfaceLoadStore));
    cudaExtent ext;
    unsigned flags;
    OK(cudaArrayGetInfo(&got, &ext, &flags, a));
    EXPECT(got.x == 32 && got.w == 32 && got.f == cudaChannelFormatKindFloat);
    EXPECT(ext.width == 20 && ext.height == 10 && ext.depth == 0 && flags == cudaArraySurfaceLoadStore);
    OK(cudaGetChannelDesc(&got, a));
    EXPECT(got.y == 32);

    /* Formats and shapes CUDA refuses. */
    cudaArray_t bad;
    cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    cudaChannelFormatDesc gap = cudaCreateChannelDesc(32, 0, 32, 0, cudaChannelFormatKindFloat);
    cudaChannelFormatDesc f8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
    EXPECT_MISUSE(cudaMallocArray(&bad, &three, 4, 4), cudaErrorInvalidChannelDescriptor);
    EXPECT_MISUSE(cudaMallocArray(&bad, &gap, 4, 4), cudaErrorInvalidChannelDescriptor);
    EXPECT_MISUSE(cudaMallocArray(&bad, &f8, 4, 4), cudaErrorInvalidChannelDescriptor);
    EXPECT_MISUSE(cudaMallocArray(&bad, &f4, 0, 4), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMallocArray(&bad, &f4, 4, 4, 0x100), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMallocArray(NULL, &f4, 4, 4), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMalloc3DArray(&bad, &f4, make_cudaExtent(4, 5, 6), cudaArrayCubemap),
                  cudaErrorInvalidValue);                       /* a cube map's faces are square */

    /* Copies past the array's edge. */
    float host[20 * 4 * 10] = {0};
    EXPECT_MISUSE(cudaMemcpy2DToArray(a, 16, 0, host, 320, 320, 10, cudaMemcpyHostToDevice),
                  cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpy2DToArray(a, 0, 1, host, 320, 320, 10, cudaMemcpyHostToDevice),
                  cudaErrorInvalidValue);
    OK(cudaMemcpy2DToArray(a, 0, 0, host, 320, 320, 10, cudaMemcpyHostToDevice));

    /* A texture object returns the descriptors it was made from. */
    cudaResourceDesc res = array_resource(a), res_got;
    cudaTextureDesc td, td_got;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = cudaAddressModeMirror;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    cudaTextureObject_t t = 0;
    OK(cudaCreateTextureObject(&t, &res, &td, NULL));
    EXPECT(t != 0);
    OK(cudaGetTextureObjectResourceDesc(&res_got, t));
    EXPECT(res_got.resType == cudaResourceTypeArray && res_got.res.array.array == a);
    OK(cudaGetTextureObjectTextureDesc(&td_got, t));
    EXPECT(td_got.addressMode[0] == cudaAddressModeMirror && td_got.filterMode == cudaFilterModeLinear &&
           td_got.normalizedCoords == 1);
    EXPECT_MISUSE(cudaCreateTextureObject(&t, &res, NULL, NULL), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaCreateTextureObject(NULL, &res, &td, NULL), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaCreateTextureObject(&t, NULL, &td, NULL), cudaErrorInvalidValue);

    /* Surfaces need cudaArraySurfaceLoadStore. */
    cudaSurfaceObject_t s;
    OK(cudaCreateSurfaceObject(&s, &res));
    OK(cudaGetSurfaceObjectResourceDesc(&res_got, s));
    EXPECT(res_got.res.array.array == a);
    EXPECT_MISUSE(cudaDestroyTextureObject(s), cudaErrorInvalidValue);   /* a surface, not a texture */
    OK(cudaDestroySurfaceObject(s));
    EXPECT_MISUSE(cudaDestroySurfaceObject(s), cudaErrorInvalidValue);
    cudaArray_t plain;
    OK(cudaMallocArray(&plain, &f4, 4, 4));
    cudaResourceDesc pres = array_resource(plain);
    EXPECT_MISUSE(cudaCreateSurfaceObject(&s, &pres), cudaErrorInvalidValue);

    /* A freed array cannot back a new object; freeing twice is an error. */
    OK(cudaFreeArray(plain));
    EXPECT_MISUSE(cudaCreateTextureObject(&t, &pres, &td, NULL), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaFreeArray(plain), cudaErrorInvalidValue);
    OK(cudaFreeArray(NULL));

    /* Linear memory: aligned to the texture alignment, inside one allocation. */
    float *d;
    OK(cudaMalloc(&d, 4096));
    cudaResourceDesc lin;
    std::memset(&lin, 0, sizeof lin);
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = d + 1;
    lin.res.linear.desc = cudaCreateChannelDesc<float>();
    lin.res.linear.sizeInBytes = 1024;
    EXPECT_MISUSE(cudaCreateTextureObject(&t, &lin, &td, NULL), cudaErrorInvalidValue);
    lin.res.linear.devPtr = d;
    lin.res.linear.sizeInBytes = 8192;
    EXPECT_MISUSE(cudaCreateTextureObject(&t, &lin, &td, NULL), cudaErrorInvalidValue);
    lin.res.linear.sizeInBytes = 4096;
    cudaTextureObject_t lt;
    OK(cudaCreateTextureObject(&lt, &lin, &td, NULL));
    float one = 1.5f;
    OK(cudaMemcpy(d, &one, 4, cudaMemcpyHostToDevice));
    read_texture<<<1, 1>>>(lt, d + 8);
    OK(cudaDeviceSynchronize());
    float back = 0;
    OK(cudaMemcpy(&back, d + 8, 4, cudaMemcpyDeviceToHost));
    EXPECT(back == 1.5f);

    /* Using a destroyed object in a kernel faults, stickily. */
    OK(cudaDestroyTextureObject(lt));
    EXPECT_MISUSE(cudaDestroyTextureObject(lt), cudaErrorInvalidValue);
    OK(cudaDestroyTextureObject(0));
    read_texture<<<1, 1>>>(lt, d + 8);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaMalloc(&d, 16), cudaErrorIllegalAddress);
    OK(cudaDeviceReset());
    OK(cudaGetLastError());
    return finish();
}

/*
 * texture_modes -- the texture and surface paths beyond texture_object's
 * bilinear 2-D float case, each checked exactly against the host:
 *
 *   fetch    tex1Dfetch<int> over linear memory, indices past both ends
 *            (out of range reads zero);
 *   unorm    a uchar4 array read as normalised floats, point sampling with
 *            normalised coordinates, wrap in x and mirror in y, sampled at
 *            texel centres two image sizes beyond each edge;
 *   border   a float array with border addressing: outside reads zero;
 *   half     a half-float array read as float;
 *   snorm    a signed char array read as normalised floats (-128 -> -1);
 *   volume   a 3-D float array filled by cudaMemcpy3D, trilinear filtering
 *            at texel centres (exact) and a quarter texel off (weights of
 *            1/4 and 3/4 are exact in the texture unit's 8-bit fractions);
 *   layered  a layered 2-D array, each layer sampled;
 *   gather   tex2Dgather of the green channel of a float2 array;
 *   surface  surf2Dread / surf2Dwrite between two int arrays, and reads
 *            past the edge with cudaBoundaryModeZero.
 */
#include "sample.h"

#include <cuda_fp16.h>
#include <vector>

#define BLOCK 128

__global__ void fetch_kernel(cudaTextureObject_t t, int *out, int count, int first)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count)
        out[k] = tex1Dfetch<int>(t, first + k);
}

/* Sample a 2-D texture on a grid of texel centres in normalised or texel
 * coordinates: point (i, j) of a cols x rows grid starting at texel (i0, j0). */
__global__ void grid2d(cudaTextureObject_t t, float4 *out, int cols, int rows, int i0, int j0, float sx,
                       float sy)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= cols * rows)
        return;
    float x = (i0 + k % cols + 0.5f) * sx, y = (j0 + k / cols + 0.5f) * sy;
    out[k] = tex2D<float4>(t, x, y);
}

__global__ void grid2d_scalar(cudaTextureObject_t t, float *out, int cols, int rows, int i0, int j0)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < cols * rows)
        out[k] = tex2D<float>(t, i0 + k % cols + 0.5f, j0 + k / cols + 0.5f);
}

__global__ void volume_kernel(cudaTextureObject_t t, float *out, int w, int h, int d, float offset)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < w * h * d)
        out[k] = tex3D<float>(t, k % w + 0.5f + offset, (k / w) % h + 0.5f + offset, k / (w * h) + 0.5f + offset);
}

__global__ void layered_kernel(cudaTextureObject_t t, float *out, int w, int h, int layers)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < w * h * layers)
        out[k] = tex2DLayered<float>(t, k % w + 0.5f, (k / w) % h + 0.5f, k / (w * h));
}

__global__ void gather_kernel(cudaTextureObject_t t, float4 *out, float x, float y)
{
    *out = tex2Dgather<float4>(t, x, y, 1);
}

__global__ void surface_kernel(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h, int *zero)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < w * h) {
        int x = k % w, y = k / w;
        int v = surf2Dread<int>(in, x * 4, y);
        surf2Dwrite(2 * v + 1, out, x * 4, y);
    }
    if (k < 4) {
        /* Past the right edge, below the bottom, before the left, and both. */
        int xs[4] = { w, 0, -1, w + 5 }, ys[4] = { 0, h, 0, h + 2 };
        zero[k] = surf2Dread<int>(in, xs[k] * 4, ys[k], cudaBoundaryModeZero);
    }
}

static cudaTextureObject_t make_texture(cudaArray_t arr, cudaTextureAddressMode a0, cudaTextureAddressMode a1,
                                        cudaTextureFilterMode filter, cudaTextureReadMode read, int normalized)
{
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = a0;
    td.addressMode[1] = a1;
    td.addressMode[2] = a1;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    return t;
}

static int blocks(int n) { return (n + BLOCK - 1) / BLOCK; }

static int wrap(int i, int n) { return ((i % n) + n) % n; }
static int mirror(int i, int n)
{
    int m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "texture_modes");
    int w = 13, h = 7, d = 5, layers = 3, n = 200;
    if (size == SIZE_SMALL)
        w = 61, h = 37, d = 19, layers = 6, n = 20000;
    else if (size == SIZE_STANDARD)
        w = 250, h = 170, d = 64, layers = 16, n = 1000000;
    lcg rng(7);
    int failures = 0;
    char where[64] = "";
    auto fail = [&](const char *what) {
        if (!failures++)
            std::snprintf(where, sizeof where, "%s", what);
    };

    /* fetch: tex1Dfetch<int> over linear memory, 8 indices past each end. */
    {
        std::vector<int> v(n), got(n + 16);
        for (int i = 0; i < n; i++)
            v[i] = (int)rng.next() - (1 << 30);
        int *dv, *dout;
        CHECK(cudaMalloc(&dv, sizeof(int) * n));
        CHECK(cudaMalloc(&dout, sizeof(int) * (n + 16)));
        CHECK(cudaMemcpy(dv, v.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
        cudaResourceDesc res;
        std::memset(&res, 0, sizeof res);
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = dv;
        res.res.linear.desc = cudaCreateChannelDesc<int>();
        res.res.linear.sizeInBytes = sizeof(int) * n;
        cudaTextureDesc td;
        std::memset(&td, 0, sizeof td);
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
        fetch_kernel<<<blocks(n + 16), BLOCK>>>(t, dout, n + 16, -8);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got.data(), dout, sizeof(int) * (n + 16), cudaMemcpyDeviceToHost));
        for (int k = 0; k < n + 16; k++) {
            int i = k - 8;
            if (got[k] != (i >= 0 && i < n ? v[i] : 0))
                fail("fetch");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(dv));
        CHECK(cudaFree(dout));
    }

    /* unorm: uchar4 texels, wrap in x, mirror in y, normalised coordinates,
     * on a grid of texel centres from -2 sizes to +3 sizes. */
    float4 *d4;
    int cols = 5 * w, rows = 5 * h;
    CHECK(cudaMalloc(&d4, sizeof(float4) * cols * rows));
    std::vector<float4> got4(cols * rows);
    {
        std::vector<uchar4> img(w * h);
        for (auto &p : img)
            p = make_uchar4(rng.next() & 255, rng.next() & 255, rng.next() & 255, rng.next() & 255);
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<uchar4>();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &fmt, w, h));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), sizeof(uchar4) * w, sizeof(uchar4) * w, h,
                                  cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeWrap, cudaAddressModeMirror, cudaFilterModePoint,
                                             cudaReadModeNormalizedFloat, 1);
        grid2d<<<blocks(cols * rows), BLOCK>>>(t, d4, cols, rows, -2 * w, -2 * h, 1.0f / w, 1.0f / h);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got4.data(), d4, sizeof(float4) * cols * rows, cudaMemcpyDeviceToHost));
        for (int k = 0; k < cols * rows; k++) {
            uchar4 p = img[mirror(-2 * h + k / cols, h) * w + wrap(-2 * w + k % cols, w)];
            float4 g = got4[k];
            if (g.x != p.x / 255.0f || g.y != p.y / 255.0f || g.z != p.z / 255.0f || g.w != p.w / 255.0f)
                fail("unorm");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
    }

    /* border, half, snorm: one-channel arrays sampled at texel centres from
     * two texels before to two after the image. */
    int bc = w + 4, br = h + 4;
    float *d1;
    std::vector<float> got1(bc * br);
    CHECK(cudaMalloc(&d1, sizeof(float) * bc * br));
    {
        std::vector<float> img(w * h);
        for (auto &x : img)
            x = rng.uniform(-4.0f, 4.0f);
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &fmt, w, h));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), sizeof(float) * w, sizeof(float) * w, h,
                                  cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeBorder, cudaAddressModeBorder, cudaFilterModePoint,
                                             cudaReadModeElementType, 0);
        grid2d_scalar<<<blocks(bc * br), BLOCK>>>(t, d1, bc, br, -2, -2);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got1.data(), d1, sizeof(float) * bc * br, cudaMemcpyDeviceToHost));
        for (int k = 0; k < bc * br; k++) {
            int i = k % bc - 2, j = k / bc - 2;
            float want = i >= 0 && i < w && j >= 0 && j < h ? img[j * w + i] : 0.0f;
            if (got1[k] != want)
                fail("border");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
    }
    {
        std::vector<__half> img(w * h);
        std::vector<float> want(w * h);
        for (int i = 0; i < w * h; i++) {
            img[i] = __float2half(rng.uniform(-100.0f, 100.0f));
            want[i] = __half2float(img[i]);
        }
        cudaChannelFormatDesc fmt = cudaCreateChannelDescHalf();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &fmt, w, h));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), 2 * w, 2 * w, h, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeClamp, cudaAddressModeClamp, cudaFilterModePoint,
                                             cudaReadModeElementType, 0);
        grid2d_scalar<<<blocks(bc * br), BLOCK>>>(t, d1, bc, br, -2, -2);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got1.data(), d1, sizeof(float) * bc * br, cudaMemcpyDeviceToHost));
        for (int k = 0; k < bc * br; k++) {
            int i = std::min(std::max(k % bc - 2, 0), w - 1), j = std::min(std::max(k / bc - 2, 0), h - 1);
            if (got1[k] != want[j * w + i])
                fail("half");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
    }
    {
        std::vector<signed char> img(w * h);
        for (int i = 0; i < w * h; i++)
            img[i] = (signed char)(i == 0 ? -128 : i == 1 ? 127 : (int)(rng.next() & 255) - 128);
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<signed char>();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &fmt, w, h));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w, w, h, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeClamp, cudaAddressModeClamp, cudaFilterModePoint,
                                             cudaReadModeNormalizedFloat, 0);
        grid2d_scalar<<<blocks(w * h), BLOCK>>>(t, d1, w, h, 0, 0);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got1.data(), d1, sizeof(float) * w * h, cudaMemcpyDeviceToHost));
        for (int k = 0; k < w * h; k++)
            if (got1[k] != std::max(img[k] / 127.0f, -1.0f))
                fail("snorm");
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
    }

    /* volume: trilinear filtering of a 3-D array filled by cudaMemcpy3D. */
    {
        std::vector<float> vol(w * h * d), got(w * h * d);
        for (auto &x : vol)
            x = rng.uniform(0.0f, 1.0f);
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CHECK(cudaMalloc3DArray(&arr, &fmt, make_cudaExtent(w, h, d)));
        cudaMemcpy3DParms p;
        std::memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(vol.data(), sizeof(float) * w, w, h);
        p.dstArray = arr;
        p.extent = make_cudaExtent(w, h, d);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeClamp, cudaAddressModeClamp, cudaFilterModeLinear,
                                             cudaReadModeElementType, 0);
        float *dv;
        CHECK(cudaMalloc(&dv, sizeof(float) * w * h * d));
        auto at = [&](int i, int j, int k) {
            i = std::min(std::max(i, 0), w - 1);
            j = std::min(std::max(j, 0), h - 1);
            k = std::min(std::max(k, 0), d - 1);
            return (double)vol[(k * h + j) * w + i];
        };
        for (int pass = 0; pass < 2; pass++) {
            float off = pass ? 0.25f : 0.0f;
            volume_kernel<<<blocks(w * h * d), BLOCK>>>(t, dv, w, h, d, off);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(got.data(), dv, sizeof(float) * w * h * d, cudaMemcpyDeviceToHost));
            for (int q = 0; q < w * h * d; q++) {
                int i = q % w, j = (q / w) % h, k = q / (w * h);
                double a = off;     /* the weight of the upper neighbour */
                double want = 0;
                for (int c = 0; c < 8; c++) {
                    int di = c & 1, dj = (c >> 1) & 1, dk = c >> 2;
                    want += (di ? a : 1 - a) * (dj ? a : 1 - a) * (dk ? a : 1 - a) * at(i + di, j + dj, k + dk);
                }
                if (pass == 0 ? got[q] != vol[q] : std::fabs(got[q] - want) > 1e-5)
                    fail(pass ? "volume filtered" : "volume centres");
            }
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
        CHECK(cudaFree(dv));
    }

    /* layered: each layer of a layered 2-D array. */
    {
        std::vector<float> img(w * h * layers), got(w * h * layers);
        for (auto &x : img)
            x = rng.uniform(-1.0f, 1.0f);
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CHECK(cudaMalloc3DArray(&arr, &fmt, make_cudaExtent(w, h, layers), cudaArrayLayered));
        cudaMemcpy3DParms p;
        std::memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(img.data(), sizeof(float) * w, w, h);
        p.dstArray = arr;
        p.extent = make_cudaExtent(w, h, layers);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeClamp, cudaAddressModeClamp, cudaFilterModePoint,
                                             cudaReadModeElementType, 0);
        float *dv;
        CHECK(cudaMalloc(&dv, sizeof(float) * w * h * layers));
        layered_kernel<<<blocks(w * h * layers), BLOCK>>>(t, dv, w, h, layers);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got.data(), dv, sizeof(float) * w * h * layers, cudaMemcpyDeviceToHost));
        for (int q = 0; q < w * h * layers; q++)
            if (got[q] != img[q])
                fail("layered");
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
        CHECK(cudaFree(dv));
    }

    /* gather: the green channel of the 2x2 footprint around (2, 3),
     * counter-clockwise from the lower left. */
    {
        std::vector<float2> img(w * h);
        for (auto &p : img)
            p = make_float2(rng.uniform(0, 1), rng.uniform(0, 1));
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float2>();
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &fmt, w, h, cudaArrayTextureGather));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), sizeof(float2) * w, sizeof(float2) * w, h,
                                  cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_texture(arr, cudaAddressModeClamp, cudaAddressModeClamp, cudaFilterModePoint,
                                             cudaReadModeElementType, 0);
        gather_kernel<<<1, 1>>>(t, d4, 3.0f, 4.0f);     /* between texels 2..3 and 3..4 */
        CHECK(cudaGetLastError());
        float4 g;
        CHECK(cudaMemcpy(&g, d4, sizeof g, cudaMemcpyDeviceToHost));
        if (g.x != img[4 * w + 2].y || g.y != img[4 * w + 3].y || g.z != img[3 * w + 3].y || g.w != img[3 * w + 2].y)
            fail("gather");
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(arr));
    }

    /* surface: out = 2 * in + 1 through surface objects. */
    {
        std::vector<int> img(w * h), got(w * h);
        for (auto &x : img)
            x = (int)(rng.next() & 0xFFFFF) - 0x80000;
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<int>();
        cudaArray_t ain, aout;
        CHECK(cudaMallocArray(&ain, &fmt, w, h, cudaArraySurfaceLoadStore));
        CHECK(cudaMallocArray(&aout, &fmt, w, h, cudaArraySurfaceLoadStore));
        CHECK(cudaMemcpy2DToArray(ain, 0, 0, img.data(), 4 * w, 4 * w, h, cudaMemcpyHostToDevice));
        cudaResourceDesc res;
        std::memset(&res, 0, sizeof res);
        res.resType = cudaResourceTypeArray;
        cudaSurfaceObject_t sin, sout;
        res.res.array.array = ain;
        CHECK(cudaCreateSurfaceObject(&sin, &res));
        res.res.array.array = aout;
        CHECK(cudaCreateSurfaceObject(&sout, &res));
        int *dz, zero[4];
        CHECK(cudaMalloc(&dz, sizeof zero));
        CHECK(cudaMemset(dz, 0x55, sizeof zero));
        surface_kernel<<<blocks(w * h), BLOCK>>>(sin, sout, w, h, dz);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy2DFromArray(got.data(), 4 * w, aout, 0, 0, 4 * w, h, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(zero, dz, sizeof zero, cudaMemcpyDeviceToHost));
        for (int q = 0; q < w * h; q++)
            if (got[q] != 2 * img[q] + 1)
                fail("surface");
        for (int q = 0; q < 4; q++)
            if (zero[q] != 0)
                fail("surface boundary zero");
        CHECK(cudaDestroySurfaceObject(sin));
        CHECK(cudaDestroySurfaceObject(sout));
        CHECK(cudaFreeArray(ain));
        CHECK(cudaFreeArray(aout));
        CHECK(cudaFree(dz));
    }
    CHECK(cudaFree(d4));
    CHECK(cudaFree(d1));

    char detail[160];
    std::snprintf(detail, sizeof detail,
                  "size=%s image %dx%dx%d layers=%d linear=%d: fetch unorm border half snorm volume layered "
                  "gather surface, %d wrong%s%s",
                  size_name(size), w, h, d, layers, n, failures, failures ? ", first in " : "", where);
    return report(failures == 0, detail);
}

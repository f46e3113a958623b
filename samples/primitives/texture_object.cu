/*
 * texture_object -- a 2D float texture object over a cudaArray, read with
 * tex2D<float> in two ways:
 *   - at texel centres (i + 0.5, j + 0.5), where linear filtering gives
 *     all the weight to one texel and must return it exactly;
 *   - bilinear filtering at fractional, unnormalised coordinates on a grid
 *     that reaches past every edge, where clamp addressing repeats the edge
 *     texels.
 * The host reference filters the way the hardware does: sample point minus
 * half a texel, floor for the texel pair, the fraction as the weight, kept
 * to 8 fractional bits (rounded half up) on each axis; of the four corner
 * weights (in 256ths) the far one is a * b / 256 rounded half up, the two
 * edges a and b less it, the near one the rest -- the rule an H200 follows
 * at every point of a 33 x 33 grid of fractions.  So the result must agree
 * to float rounding (1e-6), and lie within 2/256 of exact bilinear
 * filtering (with texels in [0, 1]; an H200 is 0.0053 off at size small).
 */
#include "sample.h"

#define BLOCK 128

__global__ void sample_grid(cudaTextureObject_t tex, float *out, int cols, int rows, float x0, float y0, float step)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= cols * rows)
        return;
    float x = x0 + step * (k % cols), y = y0 + step * (k / cols);
    out[k] = tex2D<float>(tex, x, y);
}

__global__ void sample_centres(cudaTextureObject_t tex, float *out, int w, int h)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < w * h)
        out[k] = tex2D<float>(tex, k % w + 0.5f, k / w + 0.5f);
}

/* A fraction in 256ths, rounded half up. */
static int weight256(double f)
{
    double s = f * 256, whole = std::floor(s);
    return (int)whole + (s - whole >= 0.5 ? 1 : 0);
}

/* Bilinear filtering with clamp addressing: exact (hw false), or with the
 * texture unit's 8-bit weights (hw true). */
static double filter_host(const float *img, int w, int h, float x, float y, bool hw)
{
    double xb = (double)x - 0.5, yb = (double)y - 0.5;
    double fi = std::floor(xb), fj = std::floor(yb);
    double a = xb - fi, b = yb - fj;
    int i = (int)fi, j = (int)fj;
    auto at = [&](int ii, int jj) {
        ii = ii < 0 ? 0 : ii >= w ? w - 1 : ii;
        jj = jj < 0 ? 0 : jj >= h ? h - 1 : jj;
        return (double)img[jj * w + ii];
    };
    double w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
    if (hw) {
        int wa = weight256(a), wb = weight256(b), far = (wa * wb + 128) >> 8;
        w00 = (256 - wa - wb + far) / 256.0, w10 = (wa - far) / 256.0, w01 = (wb - far) / 256.0, w11 = far / 256.0;
    }
    return w00 * at(i, j) + w10 * at(i + 1, j) + w01 * at(i, j + 1) + w11 * at(i + 1, j + 1);
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "texture_object");
    int w = 37, h = 23, cols = 64, rows = 48;
    if (size == SIZE_SMALL)
        w = 300, h = 200, cols = 700, rows = 500;
    else if (size == SIZE_STANDARD)
        w = 2000, h = 1500, cols = 3000, rows = 2500;
    /* The sample grid spans the texture plus three texels beyond each edge. */
    float x0 = -3.0f, y0 = -3.0f, step = (float)(w + 6) / cols;
    if ((float)(h + 6) / rows > step)
        step = (float)(h + 6) / rows;

    float *img = (float *)std::malloc(sizeof(float) * w * h);
    lcg rng(43);
    for (int i = 0; i < w * h; i++)
        img[i] = rng.uniform(0.0f, 1.0f);

    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fmt, w, h));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, sizeof(float) * w, sizeof(float) * w, h, cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));

    int count = cols * rows > w * h ? cols * rows : w * h;
    float *dout, *out = (float *)std::malloc(sizeof(float) * count);
    CHECK(cudaMalloc(&dout, sizeof(float) * count));

    sample_centres<<<(w * h + BLOCK - 1) / BLOCK, BLOCK>>>(tex, dout, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(float) * w * h, cudaMemcpyDeviceToHost));
    int centre_wrong = 0;
    for (int i = 0; i < w * h; i++)
        centre_wrong += out[i] != img[i];

    sample_grid<<<(cols * rows + BLOCK - 1) / BLOCK, BLOCK>>>(tex, dout, cols, rows, x0, y0, step);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(float) * cols * rows, cudaMemcpyDeviceToHost));
    double max_err = 0, max_exact = 0;
    for (int k = 0; k < cols * rows; k++) {
        /* Same float arithmetic as the kernel for the coordinates. */
        float x = x0 + step * (k % cols), y = y0 + step * (k / cols);
        double err = std::fabs(out[k] - filter_host(img, w, h, x, y, true));
        double off = std::fabs(out[k] - filter_host(img, w, h, x, y, false));
        if (!(err <= max_err))
            max_err = err;
        if (!(off <= max_exact))
            max_exact = off;
    }
    bool ok = centre_wrong == 0 && max_err <= 1e-6 && max_exact <= 2.0 / 256;
    char detail[240];
    std::snprintf(detail, sizeof detail,
                  "size=%s texture %dx%d centres wrong=%d (exact) filtered %dx%d max_abs_err=%.3g (tolerance 1e-6; "
                  "from exact bilinear %.3g, within 2/256)",
                  size_name(size), w, h, centre_wrong, cols, rows, max_err, max_exact);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(dout));
    std::free(img);
    std::free(out);
    return report(ok, detail);
}

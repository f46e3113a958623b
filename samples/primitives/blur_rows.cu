/*
 * blur_rows -- a 3x3 Gaussian blur (weights 1 2 1 / 2 4 2 / 1 2 1, over 16)
 * of a random black-and-white image, written the way the diverge-on-miss
 * paper's GF kernel is: each warp takes a 32 x 32 tile and each thread one
 * row of it, walking along the row.  Neighbouring lanes read different
 * rows, so a warp's accesses touch 32 x 3 lines that hit and miss
 * independently: the memory-divergent pattern diverge on miss is for.
 * Edges are clamped.  Sums of sixteenths of 0 and 1 are exact in float, so
 * the device must match the host exactly.
 */
#include "sample.h"

#include <vector>

#define TILE 32

__global__ void blur_rows(const float *in, float *out, int w, int h)
{
    int tiles_x = (w + TILE - 1) / TILE;
    int tx = blockIdx.x % tiles_x, ty = blockIdx.x / tiles_x;
    int r = ty * TILE + threadIdx.x;
    if (r >= h)
        return;
    int up = r > 0 ? r - 1 : 0, down = r < h - 1 ? r + 1 : h - 1;
    const float *rows[3] = { in + (size_t)up * w, in + (size_t)r * w, in + (size_t)down * w };
    for (int c = tx * TILE; c < tx * TILE + TILE && c < w; c++) {
        int left = c > 0 ? c - 1 : 0, right = c < w - 1 ? c + 1 : w - 1;
        float s = 0.0f;
        for (int k = 0; k < 3; k++) {
            float wk = k == 1 ? 2.0f : 1.0f;
            s += wk * (rows[k][left] + 2.0f * rows[k][c] + rows[k][right]);
        }
        out[(size_t)r * w + c] = s * 0.0625f;
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "blur_rows");
    int w = 256, h = 128;
    if (size == SIZE_SMALL)
        w = 1024, h = 1024;
    else if (size == SIZE_STANDARD)
        w = 2048, h = 2048;
    /* blur_rows SIZE [WIDTH]: another image width.  The sizes' widths are
     * multiples of every line size, so a warp's rows cross into new lines
     * at the same column and all its lanes miss together; a width that is
     * not (an odd one, as a CPU image's rows may have) staggers the lanes'
     * crossings, and some lane misses at almost every column. */
    w = dimension_arg(argc, argv, 0, w);
    std::vector<float> img((size_t)w * h), got((size_t)w * h);
    lcg rng(61);
    for (auto &x : img)
        x = (float)(rng.next() & 1);
    float *din, *dout;
    CHECK(cudaMalloc(&din, sizeof(float) * img.size()));
    CHECK(cudaMalloc(&dout, sizeof(float) * img.size()));
    CHECK(cudaMemcpy(din, img.data(), sizeof(float) * img.size(), cudaMemcpyHostToDevice));
    int tiles = ((w + TILE - 1) / TILE) * ((h + TILE - 1) / TILE);
    blur_rows<<<tiles, TILE>>>(din, dout, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), dout, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            float s = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++) {
                    int rr = std::min(std::max(r + dr, 0), h - 1), cc = std::min(std::max(c + dc, 0), w - 1);
                    float wt = (dr ? 1.0f : 2.0f) * (dc ? 1.0f : 2.0f);
                    s += wt * img[(size_t)rr * w + cc];
                }
            wrong += got[(size_t)r * w + c] != s * 0.0625f;
        }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    char detail[128];
    std::snprintf(detail, sizeof detail, "size=%s image %dx%d, one row per thread: wrong pixels=%ld (exact)",
                  size_name(size), w, h, wrong);
    return report(wrong == 0, detail);
}

/*
 * dwt2d -- forward 2-D discrete wavelet transform with the reversible
 * integer 5/3 lifting scheme (as in lossless JPEG 2000), several levels.
 *
 * Each block stages a 32x16 tile of the image plus a two-sample halo on
 * every side in shared memory (mirrored at the image edges), lifts the rows
 * (predict the odd samples, then update the even ones), lifts the columns
 * the same way, and writes the four subbands de-interleaved: low-pass to
 * the first half of each axis, high-pass to the second.  Each further level
 * transforms the low-low quadrant of the previous one.
 *
 * All arithmetic is on integers with floor shifts, so the result must equal
 * a plain host implementation (whole rows, then whole columns) exactly.
 */
#include "sample.h"

#include <vector>

#define TW 32 /* output tile width */
#define TH 16 /* output tile height */
#define HALO 2

__device__ __host__ inline int mirror(int i, int n)
{
    if (i < 0)
        i = -i;
    if (i >= n)
        i = 2 * (n - 1) - i;
    /* Only lanes whose results are discarded can still be outside. */
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

__global__ void fdwt53_tile(const int *in, int *out, int pitch, int w, int h)
{
    __shared__ int t[TH + 2 * HALO][TW + 2 * HALO];
    const int TWH = TW + 2 * HALO, THH = TH + 2 * HALO;
    int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
    int tid = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;

    for (int k = tid; k < THH * TWH; k += nt) {
        int r = k / TWH, c = k % TWH;
        t[r][c] = in[mirror(y0 - HALO + r, h) * pitch + mirror(x0 - HALO + c, w)];
    }
    __syncthreads();
    /* Rows, predict: odd columns 1..TW+1 (tile columns and global columns
     * have the same parity, since x0 is even). */
    for (int k = tid; k < THH * (TW / 2 + 1); k += nt) {
        int r = k / (TW / 2 + 1), c = 1 + 2 * (k % (TW / 2 + 1));
        t[r][c] -= (t[r][c - 1] + t[r][c + 1]) >> 1;
    }
    __syncthreads();
    /* Rows, update: even columns 2..TW. */
    for (int k = tid; k < THH * (TW / 2); k += nt) {
        int r = k / (TW / 2), c = 2 + 2 * (k % (TW / 2));
        t[r][c] += (t[r][c - 1] + t[r][c + 1] + 2) >> 2;
    }
    __syncthreads();
    /* Columns, predict then update, on the tile's own columns only. */
    for (int k = tid; k < (TH / 2 + 1) * TW; k += nt) {
        int r = 1 + 2 * (k / TW), c = HALO + k % TW;
        t[r][c] -= (t[r - 1][c] + t[r + 1][c]) >> 1;
    }
    __syncthreads();
    for (int k = tid; k < (TH / 2) * TW; k += nt) {
        int r = 2 + 2 * (k / TW), c = HALO + k % TW;
        t[r][c] += (t[r - 1][c] + t[r + 1][c] + 2) >> 2;
    }
    __syncthreads();
    for (int k = tid; k < TH * TW; k += nt) {
        int r = k / TW, c = k % TW, gy = y0 + r, gx = x0 + c;
        if (gy < h && gx < w) {
            int oy = gy & 1 ? h / 2 + gy / 2 : gy / 2, ox = gx & 1 ? w / 2 + gx / 2 : gx / 2;
            out[oy * pitch + ox] = t[r + HALO][c + HALO];
        }
    }
}

__global__ void copy_region(const int *src, int *dst, int pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        dst[y * pitch + x] = src[y * pitch + x];
}

/* One level of the 1-D transform of n (even) samples at stride s, in place. */
static void lift_1d(int *x, int n, int s, std::vector<int> &tmp)
{
    tmp.assign(n, 0);
    int half = n / 2;
    for (int k = 0; k < half; k++) {
        int right = 2 * k + 2 < n ? x[(2 * k + 2) * s] : x[(n - 2) * s];
        tmp[half + k] = x[(2 * k + 1) * s] - ((x[2 * k * s] + right) >> 1);
    }
    for (int k = 0; k < half; k++) {
        int dl = k > 0 ? tmp[half + k - 1] : tmp[half];
        tmp[k] = x[2 * k * s] + ((dl + tmp[half + k] + 2) >> 2);
    }
    for (int i = 0; i < n; i++)
        x[i * s] = tmp[i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "dwt2d");
    int W = 64, H = 48, levels = 3;
    if (size == SIZE_SMALL)
        W = 1024, H = 768, levels = 4;
    else if (size == SIZE_STANDARD)
        W = 2048, H = 2048, levels = 5;

    lcg rng(21);
    std::vector<int> img(W * H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int v = (x * 3 + y * 2) % 200 + (int)(rng.next() % 56);
            img[y * W + x] = (x / 8 + y / 8) % 5 == 0 ? 255 - v : v; /* some sharp edges */
        }

    size_t bytes = sizeof(int) * W * H;
    int *d_img, *d_a, *d_b;
    CHECK(cudaMalloc(&d_img, bytes));
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMemcpy(d_img, img.data(), bytes, cudaMemcpyHostToDevice));
    /* Level 0 reads the image and writes a; later levels read a's low-low
     * quadrant into b and copy it back. */
    for (int l = 0; l < levels; l++) {
        int w = W >> l, h = H >> l;
        dim3 block(16, 8), grid((w + TW - 1) / TW, (h + TH - 1) / TH);
        fdwt53_tile<<<grid, block>>>(l == 0 ? d_img : d_a, l == 0 ? d_a : d_b, W, w, h);
        CHECK(cudaGetLastError());
        if (l > 0) {
            dim3 cblock(32, 8), cgrid((w + 31) / 32, (h + 7) / 8);
            copy_region<<<cgrid, cblock>>>(d_b, d_a, W, w, h);
            CHECK(cudaGetLastError());
        }
    }
    std::vector<int> got(W * H);
    CHECK(cudaMemcpy(got.data(), d_a, bytes, cudaMemcpyDeviceToHost));

    std::vector<int> want = img, tmp;
    for (int l = 0; l < levels; l++) {
        int w = W >> l, h = H >> l;
        for (int y = 0; y < h; y++)
            lift_1d(&want[y * W], w, 1, tmp);
        for (int x = 0; x < w; x++)
            lift_1d(&want[x], h, W, tmp);
    }
    int wrong = 0, first = -1;
    for (int i = 0; i < W * H; i++)
        if (got[i] != want[i] && wrong++ == 0)
            first = i;
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s image=%dx%d levels=%d mismatches=%d (tolerance: exact)",
                  size_name(size), W, H, levels, wrong);
    if (wrong)
        std::snprintf(detail + std::strlen(detail), sizeof detail - std::strlen(detail), " first at (%d,%d): %d != %d",
                      first % W, first / W, got[first], want[first]);
    CHECK(cudaFree(d_img));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    return report(wrong == 0, detail);
}

/*
 * transpose -- out = in^T for a rows x cols float matrix, three ways:
 *   naive:   each thread reads one element and writes it transposed (the
 *            writes are strided);
 *   tiled:   a 32x32 tile is read row-wise into shared memory and written
 *            out column-wise, so both global accesses are contiguous (the
 *            column reads of the tile hit one shared bank 32 times);
 *   padded:  the same with a 33-float tile row, which spreads a tile column
 *            over all 32 banks.
 * Blocks are 32x8 threads, each doing 4 rows of the tile.  The sizes are not
 * multiples of 32, so edge tiles are partial.  A transpose copies values,
 * so each result must equal the input bit for bit.
 */
#include "sample.h"

#define TILE 32
#define ROWS 8 /* threads per tile column; each does TILE / ROWS rows */

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int j = 0; j < TILE; j += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + j;
        if (x < cols && y < rows)
            out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
    }
}

/* PAD = 0 gives the bank-conflicted tile, PAD = 1 the padded one. */
template <int PAD> __global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int j = 0; j < TILE; j += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + j;
        if (x < cols && y < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)y * cols + x];
    }
    __syncthreads();
    /* Swap the block's coordinates: this block writes tile (by, bx) of out. */
    x = blockIdx.y * TILE + threadIdx.x;
    for (int j = 0; j < TILE; j += ROWS) {
        int y = blockIdx.x * TILE + threadIdx.y + j;
        if (x < rows && y < cols)
            out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "transpose");
    int rows = 45, cols = 70;
    if (size == SIZE_SMALL)
        rows = 3000, cols = 2777;
    else if (size == SIZE_STANDARD)
        rows = 6000, cols = 5001;
    size_t count = (size_t)rows * cols, bytes = count * sizeof(float);
    float *in = (float *)std::malloc(bytes), *out = (float *)std::malloc(bytes);
    lcg rng(17);
    for (size_t i = 0; i < count; i++)
        in[i] = rng.uniform(-1000.0f, 1000.0f);
    float *din, *dout;
    CHECK(cudaMalloc(&din, bytes));
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice));
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    const char *names[3] = {"naive", "tiled", "padded"};
    long wrong[3];
    char detail[200];
    int len = std::snprintf(detail, sizeof detail, "size=%s %dx%d mismatches:", size_name(size), rows, cols);
    for (int k = 0; k < 3; k++) {
        CHECK(cudaMemset(dout, 0xFF, bytes)); /* NaN everywhere: any element missed shows */
        if (k == 0)
            transpose_naive<<<grid, block>>>(din, dout, rows, cols);
        else if (k == 1)
            transpose_tiled<0><<<grid, block>>>(din, dout, rows, cols);
        else
            transpose_tiled<1><<<grid, block>>>(din, dout, rows, cols);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
        wrong[k] = 0;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                wrong[k] += std::memcmp(&out[(size_t)c * rows + r], &in[(size_t)r * cols + c], sizeof(float)) != 0;
        len += std::snprintf(detail + len, sizeof detail - len, " %s %ld", names[k], wrong[k]);
    }
    std::snprintf(detail + len, sizeof detail - len, " (tolerance: exact)");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::free(in);
    std::free(out);
    return report(wrong[0] == 0 && wrong[1] == 0 && wrong[2] == 0, detail);
}

/*
 * pathfinder -- cheapest path from the top row to each cell of the bottom
 * row of a grid of costs, moving straight down or diagonally one column
 * per row: cost[r][c] = wall[r][c] + min(cost[r-1][c-1..c+1]).
 *
 * Each 256-thread block keeps one row segment in shared memory and
 * advances it `pyramid` rows per launch; a block reads a segment wider
 * than it writes by `pyramid` columns on each side, and the region it can
 * still compute shrinks by one column per side per row (a pyramid).  The
 * grid's first and last columns have only two parents, so the edge threads
 * branch differently.
 *
 * Costs are integers: the bottom row must equal the host's row-by-row
 * dynamic programme exactly.
 */
#include "sample.h"

#include <vector>

#define BLOCK 256

__global__ void pathfinder_rows(const int *wall, const int *src, int *dst, int cols, int first_row, int rows,
                                int pyramid)
{
    __shared__ int prev[BLOCK], next[BLOCK];
    int t = threadIdx.x;
    int c = blockIdx.x * (BLOCK - 2 * pyramid) - pyramid + t;
    bool inside = c >= 0 && c < cols;
    if (inside)
        prev[t] = src[c];
    __syncthreads();
    for (int i = 0; i < rows; i++) {
        bool live = inside && t > i && t < BLOCK - 1 - i;
        if (live) {
            int best = prev[t];
            if (c > 0 && prev[t - 1] < best)
                best = prev[t - 1];
            if (c < cols - 1 && prev[t + 1] < best)
                best = prev[t + 1];
            next[t] = wall[(first_row + i) * cols + c] + best;
        }
        __syncthreads();
        if (live)
            prev[t] = next[t];
        __syncthreads();
    }
    if (inside && t >= pyramid && t < BLOCK - pyramid)
        dst[c] = prev[t];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "pathfinder");
    int cols = 1000, rows = 100, pyramid = 20;
    if (size == SIZE_SMALL)
        cols = 100000, rows = 100, pyramid = 20;
    else if (size == SIZE_STANDARD)
        cols = 1000000, rows = 200, pyramid = 20;

    lcg rng(107);
    std::vector<int> wall((size_t)rows * cols);
    for (size_t i = 0; i < wall.size(); i++)
        wall[i] = (int)(rng.next() % 10);

    int *d_wall, *d_buf[2];
    CHECK(cudaMalloc(&d_wall, sizeof(int) * rows * cols));
    CHECK(cudaMalloc(&d_buf[0], sizeof(int) * cols));
    CHECK(cudaMalloc(&d_buf[1], sizeof(int) * cols));
    CHECK(cudaMemcpy(d_wall, wall.data(), sizeof(int) * rows * cols, cudaMemcpyHostToDevice));
    /* Row 0 is the starting cost. */
    CHECK(cudaMemcpy(d_buf[0], wall.data(), sizeof(int) * cols, cudaMemcpyHostToDevice));
    int out = BLOCK - 2 * pyramid, grid = (cols + out - 1) / out, cur = 0, launches = 0;
    for (int r = 1; r < rows; r += pyramid) {
        int n = rows - r < pyramid ? rows - r : pyramid;
        pathfinder_rows<<<grid, BLOCK>>>(d_wall, d_buf[cur], d_buf[1 - cur], cols, r, n, pyramid);
        CHECK(cudaGetLastError());
        cur = 1 - cur;
        launches++;
    }
    std::vector<int> got(cols);
    CHECK(cudaMemcpy(got.data(), d_buf[cur], sizeof(int) * cols, cudaMemcpyDeviceToHost));

    std::vector<int> cost(wall.begin(), wall.begin() + cols), next(cols);
    for (int r = 1; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = cost[c];
            if (c > 0 && cost[c - 1] < best)
                best = cost[c - 1];
            if (c < cols - 1 && cost[c + 1] < best)
                best = cost[c + 1];
            next[c] = wall[(size_t)r * cols + c] + best;
        }
        cost.swap(next);
    }
    int wrong = 0, lowest = cost[0];
    for (int c = 0; c < cols; c++) {
        wrong += got[c] != cost[c];
        if (cost[c] < lowest)
            lowest = cost[c];
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s cols=%d rows=%d pyramid=%d launches=%d cheapest=%d mismatches=%d (tolerance: exact)",
                  size_name(size), cols, rows, pyramid, launches, lowest, wrong);
    CHECK(cudaFree(d_wall));
    CHECK(cudaFree(d_buf[0]));
    CHECK(cudaFree(d_buf[1]));
    return report(wrong == 0, detail);
}

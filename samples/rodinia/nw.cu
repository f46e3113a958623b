/*
 * nw -- Needleman-Wunsch global alignment scores of two protein sequences:
 * S[i][j] = max(S[i-1][j-1] + sub(a_i, b_j), S[i-1][j] - gap, S[i][j-1] - gap).
 *
 * Every cell depends on its upper, left and upper-left neighbours, so the
 * matrix is computed as a wavefront twice over: the 16x16 tiles go in
 * anti-diagonal order, one launch per tile diagonal, and inside each block
 * the tile's cells go in anti-diagonal order too, one thread per column,
 * with a barrier between inner diagonals.  A block stages its tile, the row
 * above it and the column left of it in shared memory, with the
 * substitution scores looked up from a 24x24 table in __constant__ memory.
 *
 * Scores are integers: the whole matrix must equal the host's row-by-row
 * dynamic programme exactly.
 */
#include "sample.h"

#include <vector>

#define B 16
#define NAA 24 /* amino-acid alphabet */

__constant__ int c_sub[NAA][NAA];

__global__ void nw_tiles(int *score, const unsigned char *a, const unsigned char *b, int n, int diag, int first_bi,
                         int gap)
{
    __shared__ int s[B + 1][B + 1];
    __shared__ int ref[B][B];
    int t = threadIdx.x, pitch = n + 1;
    int bi = first_bi + blockIdx.x, bj = diag - bi;
    int i0 = bi * B, j0 = bj * B; /* the row above and the column left of the tile */
    s[0][t + 1] = score[i0 * pitch + j0 + t + 1];
    s[t + 1][0] = score[(i0 + t + 1) * pitch + j0];
    if (t == 0)
        s[0][0] = score[i0 * pitch + j0];
    for (int r = 0; r < B; r++)
        ref[r][t] = c_sub[a[i0 + r + 1]][b[j0 + t + 1]];
    __syncthreads();
    for (int m = 0; m < 2 * B - 1; m++) {
        int r = m - t;
        if (r >= 0 && r < B) {
            int best = s[r][t] + ref[r][t];
            int up = s[r][t + 1] - gap, left = s[r + 1][t] - gap;
            best = up > best ? up : best;
            best = left > best ? left : best;
            s[r + 1][t + 1] = best;
        }
        __syncthreads();
    }
    for (int r = 0; r < B; r++)
        score[(i0 + r + 1) * pitch + j0 + t + 1] = s[r + 1][t + 1];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "nw");
    int n = size == SIZE_TINY ? 128 : size == SIZE_SMALL ? 1024 : 4096;
    const int gap = 10, nb = n / B, pitch = n + 1;

    lcg rng(97);
    int sub[NAA][NAA];
    for (int x = 0; x < NAA; x++)
        for (int y = 0; y <= x; y++)
            sub[x][y] = sub[y][x] = x == y ? 4 + (int)(rng.next() % 8) : -4 + (int)(rng.next() % 8);
    /* Sequence b is a mutated copy of a, so the alignment has structure. */
    std::vector<unsigned char> a(n + 1), b(n + 1);
    for (int i = 1; i <= n; i++)
        a[i] = (unsigned char)(rng.next() % NAA);
    for (int i = 1; i <= n; i++)
        b[i] = rng.next() % 4 == 0 ? (unsigned char)(rng.next() % NAA) : a[(i + 3) % n + 1];
    std::vector<int> score((size_t)pitch * pitch, 0);
    for (int i = 0; i <= n; i++) {
        score[(size_t)i * pitch] = -gap * i;
        score[i] = -gap * i;
    }

    int *d_score;
    unsigned char *d_a, *d_b;
    CHECK(cudaMalloc(&d_score, sizeof(int) * pitch * pitch));
    CHECK(cudaMalloc(&d_a, n + 1));
    CHECK(cudaMalloc(&d_b, n + 1));
    CHECK(cudaMemcpy(d_score, score.data(), sizeof(int) * pitch * pitch, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_a, a.data(), n + 1, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), n + 1, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(c_sub, sub, sizeof sub));
    int launches = 0;
    for (int d = 0; d < 2 * nb - 1; d++) {
        int first = d < nb ? 0 : d - nb + 1, last = d < nb ? d : nb - 1;
        nw_tiles<<<last - first + 1, B>>>(d_score, d_a, d_b, n, d, first, gap);
        CHECK(cudaGetLastError());
        launches++;
    }
    std::vector<int> got((size_t)pitch * pitch);
    CHECK(cudaMemcpy(got.data(), d_score, sizeof(int) * pitch * pitch, cudaMemcpyDeviceToHost));

    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            int best = score[(size_t)(i - 1) * pitch + j - 1] + sub[a[i]][b[j]];
            int up = score[(size_t)(i - 1) * pitch + j] - gap, left = score[(size_t)i * pitch + j - 1] - gap;
            best = up > best ? up : best;
            score[(size_t)i * pitch + j] = left > best ? left : best;
        }
    long wrong = 0;
    for (size_t k = 0; k < score.size(); k++)
        wrong += got[k] != score[k];
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s length=%d launches=%d final score=%d mismatches=%ld (tolerance: exact)", size_name(size), n,
                  launches, got[(size_t)n * pitch + n], wrong);
    CHECK(cudaFree(d_score));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    return report(wrong == 0, detail);
}

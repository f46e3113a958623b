/*
 * vector_add -- c = a + b over n floats, with n not a multiple of the block
 * so the bounds check in the kernel matters.  Float addition is exact to
 * compare: the device result must equal the host's bit for bit.
 */
#include "sample.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "vector_add");
    int n = size == SIZE_TINY ? 1000 : size == SIZE_SMALL ? (1 << 20) + 3 : (1 << 24) + 3;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)std::malloc(bytes), *b = (float *)std::malloc(bytes), *c = (float *)std::malloc(bytes);
    lcg rng(1);
    for (int i = 0; i < n; i++) {
        a[i] = rng.uniform(-100.0f, 100.0f);
        b[i] = rng.uniform(-100.0f, 100.0f);
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0xFF, bytes));
    int block = 256, grid = (n + block - 1) / block;
    vector_add<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    int wrong = 0, first = -1;
    for (int i = 0; i < n; i++) {
        float want = a[i] + b[i];
        if (std::memcmp(&c[i], &want, sizeof want) != 0 && wrong++ == 0)
            first = i;
    }
    char detail[160];
    std::snprintf(detail, sizeof detail, "size=%s n=%d mismatches=%d (tolerance: exact)%s", size_name(size), n,
                  wrong, wrong ? " first at" : "");
    if (wrong)
        std::snprintf(detail + std::strlen(detail), sizeof detail - std::strlen(detail), " %d: %g != %g", first,
                      c[first], a[first] + b[first]);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::free(a);
    std::free(b);
    std::free(c);
    return report(wrong == 0, detail);
}

/*
 * hotspot -- transient temperature of a chip: an explicit 5-point stencil
 * over a 2-D grid of cells, each heated by its own power and coupled to its
 * four neighbours and to the ambient.
 *
 * Each 16x16 block loads a tile with a halo of `halo` cells into shared
 * memory and takes up to `halo` time steps there before writing back, so
 * the valid region shrinks by one cell per step (a pyramid) and only the
 * centre (16 - 2 halo)^2 cells are stored.  Cells on the chip's edge have
 * no outer neighbour and use their own temperature instead, so the halo
 * code branches differently at the boundary.  Steps not a multiple of the
 * halo leave a shorter last launch.
 *
 * Checked against the same steps on the host in double, relative tolerance
 * 1e-5 (temperatures are ~300, the device works in float).
 */
#include "sample.h"

#include <vector>

#define BS 16

struct chip {
    float step_cap;  /* time step / heat capacity */
    float rx, ry, rz; /* thermal conductances: east-west, north-south, to ambient */
    float amb;
};

__global__ void hotspot_steps(const float *power, const float *tin, float *tout, int rows, int cols, int halo,
                              int steps, chip c)
{
    __shared__ float t[BS][BS], p[BS][BS], next[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * (BS - 2 * halo) - halo + tx;
    int gy = blockIdx.y * (BS - 2 * halo) - halo + ty;
    bool inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
    if (inside) {
        t[ty][tx] = tin[gy * cols + gx];
        p[ty][tx] = power[gy * cols + gx];
    }
    __syncthreads();
    for (int s = 0; s < steps; s++) {
        bool live = inside && tx > s && tx < BS - 1 - s && ty > s && ty < BS - 1 - s;
        if (live) {
            float centre = t[ty][tx];
            float n = gy == 0 ? centre : t[ty - 1][tx];
            float so = gy == rows - 1 ? centre : t[ty + 1][tx];
            float w = gx == 0 ? centre : t[ty][tx - 1];
            float e = gx == cols - 1 ? centre : t[ty][tx + 1];
            next[ty][tx] = centre + c.step_cap * (p[ty][tx] + (n + so - 2.0f * centre) * c.ry +
                                                  (e + w - 2.0f * centre) * c.rx + (c.amb - centre) * c.rz);
        }
        __syncthreads();
        if (live)
            t[ty][tx] = next[ty][tx];
        __syncthreads();
    }
    if (inside && tx >= halo && tx < BS - halo && ty >= halo && ty < BS - halo)
        tout[gy * cols + gx] = t[ty][tx];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "hotspot");
    int rows = 64, cols = 64, iters = 8, halo = 2;
    if (size == SIZE_SMALL)
        rows = 256, cols = 250, iters = 61, halo = 3;
    else if (size == SIZE_STANDARD)
        rows = 1024, cols = 1024, iters = 100, halo = 2;
    const chip c = {0.1f, 1.0f, 0.8f, 0.2f, 300.0f};

    lcg rng(13);
    std::vector<float> temp(rows * cols), power(rows * cols);
    for (int i = 0; i < rows * cols; i++) {
        temp[i] = rng.uniform(310.0f, 330.0f);
        /* A few hot units on a cool background. */
        int y = i / cols, x = i % cols;
        power[i] = ((x / 16 + y / 16) % 3 == 0 ? 6.0f : 0.5f) * rng.uniform(0.5f, 1.0f);
    }

    size_t bytes = sizeof(float) * rows * cols;
    float *d_power, *d_t[2];
    CHECK(cudaMalloc(&d_power, bytes));
    CHECK(cudaMalloc(&d_t[0], bytes));
    CHECK(cudaMalloc(&d_t[1], bytes));
    CHECK(cudaMemcpy(d_power, power.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_t[0], temp.data(), bytes, cudaMemcpyHostToDevice));
    int out = BS - 2 * halo, cur = 0, launches = 0;
    dim3 block(BS, BS), grid((cols + out - 1) / out, (rows + out - 1) / out);
    for (int done = 0; done < iters; done += halo) {
        int steps = iters - done < halo ? iters - done : halo;
        hotspot_steps<<<grid, block>>>(d_power, d_t[cur], d_t[1 - cur], rows, cols, halo, steps, c);
        CHECK(cudaGetLastError());
        cur = 1 - cur;
        launches++;
    }
    std::vector<float> got(rows * cols);
    CHECK(cudaMemcpy(got.data(), d_t[cur], bytes, cudaMemcpyDeviceToHost));

    std::vector<double> rt(temp.begin(), temp.end()), rn(rows * cols);
    for (int it = 0; it < iters; it++) {
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                double ce = rt[y * cols + x];
                double n = y > 0 ? rt[(y - 1) * cols + x] : ce, s = y < rows - 1 ? rt[(y + 1) * cols + x] : ce;
                double w = x > 0 ? rt[y * cols + x - 1] : ce, e = x < cols - 1 ? rt[y * cols + x + 1] : ce;
                rn[y * cols + x] = ce + (double)c.step_cap * (power[y * cols + x] + (n + s - 2 * ce) * (double)c.ry +
                                                              (e + w - 2 * ce) * (double)c.rx +
                                                              ((double)c.amb - ce) * (double)c.rz);
            }
        rt.swap(rn);
    }
    double max_rel = 0;
    for (int i = 0; i < rows * cols; i++) {
        double rel = std::fabs(got[i] - rt[i]) / std::fabs(rt[i]);
        if (!(rel <= max_rel))
            max_rel = rel;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s grid=%dx%d steps=%d halo=%d launches=%d max_rel_err=%.3g (tolerance 1e-5)",
                  size_name(size), rows, cols, iters, halo, launches, max_rel);
    CHECK(cudaFree(d_power));
    CHECK(cudaFree(d_t[0]));
    CHECK(cudaFree(d_t[1]));
    return report(max_rel <= 1e-5, detail);
}

/*
 * hotspot3d -- transient temperature of a stacked chip: a 7-point stencil
 * over an nx x ny x nz grid, one launch per time step.
 *
 * Each thread owns one (x, y) column and walks it bottom to top, keeping
 * the cells below, at and above the current layer in registers so each
 * layer's value is read once from memory for the vertical terms.  Cells on
 * any face of the grid use their own temperature for the missing
 * neighbour.  The new value is a weighted sum of the cell, its six
 * neighbours, its power and the ambient, with positive weights summing to
 * one (so the explicit scheme is stable).
 *
 * Checked against the same steps on the host in double, relative tolerance
 * 1e-5 (temperatures are ~300, the device works in float).
 */
#include "sample.h"

#include <vector>

struct weights {
    float cc, cw, ce, cn, cs, cb, ct; /* centre, west, east, north, south, below, above */
    float cp, ca, amb;                /* power, ambient weight, ambient temperature */
};

__global__ void hotspot3d_step(const float *power, const float *tin, float *tout, int nx, int ny, int nz, weights k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    int plane = nx * ny;
    int i = y * nx + x;
    int dw = x == 0 ? 0 : -1, de = x == nx - 1 ? 0 : 1;
    int dn = y == 0 ? 0 : -nx, ds = y == ny - 1 ? 0 : nx;
    float centre = tin[i], below = centre;
    float above = nz > 1 ? tin[i + plane] : centre;
    for (int z = 0; z < nz; z++, i += plane) {
        tout[i] = k.cc * centre + k.cw * tin[i + dw] + k.ce * tin[i + de] + k.cn * tin[i + dn] + k.cs * tin[i + ds] +
                  k.cb * below + k.ct * above + k.cp * power[i] + k.ca * k.amb;
        below = centre;
        centre = above;
        above = z + 2 < nz ? tin[i + 2 * plane] : centre;
    }
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "hotspot3d");
    int nx = 32, ny = 30, nz = 4, iters = 6;
    if (size == SIZE_SMALL)
        nx = 256, ny = 256, nz = 8, iters = 30;
    else if (size == SIZE_STANDARD)
        nx = 512, ny = 512, nz = 8, iters = 100;
    weights k = {0.0f, 0.1f, 0.1f, 0.09f, 0.09f, 0.05f, 0.04f, 0.5f, 0.02f, 300.0f};
    k.cc = 1.0f - (k.cw + k.ce + k.cn + k.cs + k.cb + k.ct + k.ca);

    int n = nx * ny * nz;
    lcg rng(31);
    std::vector<float> temp(n), power(n);
    for (int i = 0; i < n; i++) {
        temp[i] = rng.uniform(320.0f, 340.0f);
        power[i] = i / (nx * ny) == 0 ? rng.uniform(0.0f, 4.0f) : rng.uniform(0.0f, 0.5f); /* bottom layer is hot */
    }
    size_t bytes = sizeof(float) * n;
    float *d_power, *d_t[2];
    CHECK(cudaMalloc(&d_power, bytes));
    CHECK(cudaMalloc(&d_t[0], bytes));
    CHECK(cudaMalloc(&d_t[1], bytes));
    CHECK(cudaMemcpy(d_power, power.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_t[0], temp.data(), bytes, cudaMemcpyHostToDevice));
    dim3 block(32, 4), grid((nx + 31) / 32, (ny + 3) / 4);
    int cur = 0;
    for (int it = 0; it < iters; it++) {
        hotspot3d_step<<<grid, block>>>(d_power, d_t[cur], d_t[1 - cur], nx, ny, nz, k);
        CHECK(cudaGetLastError());
        cur = 1 - cur;
    }
    std::vector<float> got(n);
    CHECK(cudaMemcpy(got.data(), d_t[cur], bytes, cudaMemcpyDeviceToHost));

    std::vector<double> rt(temp.begin(), temp.end()), rn(n);
    for (int it = 0; it < iters; it++) {
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    auto at = [&](int xx, int yy, int zz) {
                        xx = xx < 0 ? 0 : xx >= nx ? nx - 1 : xx;
                        yy = yy < 0 ? 0 : yy >= ny ? ny - 1 : yy;
                        zz = zz < 0 ? 0 : zz >= nz ? nz - 1 : zz;
                        return rt[(zz * ny + yy) * nx + xx];
                    };
                    int i = (z * ny + y) * nx + x;
                    rn[i] = (double)k.cc * rt[i] + (double)k.cw * at(x - 1, y, z) + (double)k.ce * at(x + 1, y, z) +
                            (double)k.cn * at(x, y - 1, z) + (double)k.cs * at(x, y + 1, z) +
                            (double)k.cb * at(x, y, z - 1) + (double)k.ct * at(x, y, z + 1) +
                            (double)k.cp * power[i] + (double)k.ca * k.amb;
                }
        rt.swap(rn);
    }
    double max_rel = 0;
    for (int i = 0; i < n; i++) {
        double rel = std::fabs(got[i] - rt[i]) / std::fabs(rt[i]);
        if (!(rel <= max_rel))
            max_rel = rel;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s grid=%dx%dx%d steps=%d max_rel_err=%.3g (tolerance 1e-5)",
                  size_name(size), nx, ny, nz, iters, max_rel);
    CHECK(cudaFree(d_power));
    CHECK(cudaFree(d_t[0]));
    CHECK(cudaFree(d_t[1]));
    return report(max_rel <= 1e-5, detail);
}

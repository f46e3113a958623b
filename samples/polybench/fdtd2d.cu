/*
 * fdtd2d -- a 2-D finite-difference time-domain (Yee) update of the
 * fields ex, ey and hz on an nx x ny grid.  Each time step, launched from
 * the host, runs three kernels: ey from the difference of hz along i (row
 * 0 is driven by a source value for the step), ex from the difference of
 * hz along j, then hz from the curl of the new ex and ey.  The update
 * factors 0.5 and 0.6 keep the scheme inside its stability limit
 * (product below 1/2), so rounding is carried, not amplified, and grows
 * about linearly with the steps, by a rounding or two per step: float is
 * held to 1e-4 (enough for the 200 steps of the standard size), double to
 * 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void fdtd_ey(T *ey, const T *hz, const T *src, int t, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    if (i == 0)
        ey[j] = src[t];
    else
        ey[i * ny + j] -= (T)0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

template <typename T> __global__ void fdtd_ex(T *ex, const T *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j >= 1 && j < ny)
        ex[i * ny + j] -= (T)0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

template <typename T> __global__ void fdtd_hz(T *hz, const T *ex, const T *ey, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx - 1 && j < ny - 1)
        hz[i * ny + j] -= (T)0.6 * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

struct problem {
    int nx, ny, steps;
    vec ex, ey, hz, src, want_ex, want_ey, want_hz;
};

template <typename T> static double run(const problem &p)
{
    T *ex = to_device<T>(p.ex), *ey = to_device<T>(p.ey), *hz = to_device<T>(p.hz), *src = to_device<T>(p.src);
    dim3 block(32, 8), grid(blocks_for(p.ny, 32), blocks_for(p.nx, 8));
    for (int t = 0; t < p.steps; t++) {
        fdtd_ey<T><<<grid, block>>>(ey, hz, src, t, p.nx, p.ny);
        CHECK(cudaGetLastError());
        fdtd_ex<T><<<grid, block>>>(ex, hz, p.nx, p.ny);
        CHECK(cudaGetLastError());
        fdtd_hz<T><<<grid, block>>>(hz, ex, ey, p.nx, p.ny);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    size_t n = p.ex.size();
    double err = max_rel_err(from_device(ex, n), p.want_ex);
    err = worse(err, max_rel_err(from_device(ey, n), p.want_ey));
    err = worse(err, max_rel_err(from_device(hz, n), p.want_hz));
    CHECK(cudaFree(ex));
    CHECK(cudaFree(ey));
    CHECK(cudaFree(hz));
    CHECK(cudaFree(src));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "fdtd2d");
    problem p;
    p.nx = 40, p.ny = 36, p.steps = 12;
    if (size == SIZE_SMALL)
        p.nx = 300, p.ny = 330, p.steps = 30;
    else if (size == SIZE_STANDARD)
        p.nx = 1000, p.ny = 1200, p.steps = 200;
    int nx = p.nx, ny = p.ny;
    size_t n = (size_t)nx * ny;
    p.ex.resize(n), p.ey.resize(n), p.hz.resize(n), p.src.resize(p.steps);
    fill_uniform(p.ex, 151, -0.5f, 0.5f);
    fill_uniform(p.ey, 152, -0.5f, 0.5f);
    fill_uniform(p.hz, 153, -0.5f, 0.5f);
    for (int t = 0; t < p.steps; t++)
        p.src[t] = (float)std::sin(0.25 * t);
    vec ex = p.ex, ey = p.ey, hz = p.hz;
    for (int t = 0; t < p.steps; t++) {
        for (int j = 0; j < ny; j++)
            ey[j] = p.src[t];
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++)
                ey[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++)
                ex[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
        for (int i = 0; i < nx - 1; i++)
            for (int j = 0; j < ny - 1; j++)
                hz[i * ny + j] -= 0.6 * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
    p.want_ex = ex, p.want_ey = ey, p.want_hz = hz;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[64];
    std::snprintf(dims, sizeof dims, "nx=%d ny=%d steps=%d", nx, ny, p.steps);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

/*
 * cfd -- explicit finite-volume solver for the 3-D compressible Euler
 * equations on an unstructured mesh.
 *
 * Each cell holds density, momentum (3) and energy, stored variable-major.
 * Cells know their four faces only through neighbour indices and face
 * normals (-1: a wall, -2: the far field), and the cells are numbered in a
 * random order, so every neighbour read is a gather.  The free-stream state
 * and its flux tensor, and the scheme's constants, live in __constant__
 * memory set with cudaMemcpyToSymbol.  The face flux is the centred flux
 * plus Rusanov dissipation; walls only feel the pressure.  Each iteration
 * saves the state, computes a local step factor and takes three
 * Runge-Kutta stages (flux kernel, then update kernel), so the run is many
 * small launches: thousands at small.
 *
 * Checked against the same scheme on the host in double: each conserved
 * variable's largest error relative to its largest magnitude, tolerance
 * 1e-5 (the device works in float).
 */
#include "sample.h"

#include <vector>

#define NVAR 5  /* density, momentum x/y/z, energy */
#define NFACE 4 /* faces per cell */
#define RK 3    /* Runge-Kutta stages per iteration */
#define WALL -1
#define FAR_FIELD -2

__constant__ float c_ff_var[NVAR];      /* free-stream state */
__constant__ float c_ff_flux[3][NVAR];  /* its flux tensor */
__constant__ float c_ff_lambda;         /* its |u| + c */
__constant__ float c_gamma, c_cfl;

__host__ __device__ inline float root(float x) { return sqrtf(x); }
__host__ __device__ inline double root(double x) { return sqrt(x); }

/* Flux tensor f[d][k] of state u; returns |u| + c, the largest wave speed,
 * and the pressure in *p. */
template <typename T> __host__ __device__ T flux_tensor(const T u[NVAR], T gamma, T f[3][NVAR], T *p)
{
    T vel[3] = {u[1] / u[0], u[2] / u[0], u[3] / u[0]};
    T v2 = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
    *p = (gamma - T(1)) * (u[4] - T(0.5) * u[0] * v2);
    for (int d = 0; d < 3; d++) {
        f[d][0] = u[1 + d];
        for (int e = 0; e < 3; e++)
            f[d][1 + e] = u[1 + d] * vel[e] + (d == e ? *p : T(0));
        f[d][4] = vel[d] * (u[4] + *p);
    }
    return root(v2) + root(gamma * *p / u[0]);
}

/* Adds the flux through one face (normal n, outward) to r. */
template <typename T>
__host__ __device__ void face_flux(const T ui[NVAR], const T fi[3][NVAR], T li, const T uj[NVAR],
                                   const T fj[3][NVAR], T lj, const T n[3], T r[NVAR])
{
    T lam = (li > lj ? li : lj) * root(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < NVAR; k++) {
        T centred = n[0] * (fi[0][k] + fj[0][k]) + n[1] * (fi[1][k] + fj[1][k]) + n[2] * (fi[2][k] + fj[2][k]);
        r[k] += T(0.5) * centred - T(0.5) * lam * (uj[k] - ui[k]);
    }
}

__global__ void step_factor(const float *var, const float *area, float *factor, int nc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nc)
        return;
    float u[NVAR], f[3][NVAR], p;
    for (int k = 0; k < NVAR; k++)
        u[k] = var[k * nc + i];
    float lam = flux_tensor(u, c_gamma, f, &p);
    factor[i] = c_cfl / (sqrtf(area[i]) * lam);
}

__global__ void compute_flux(const float *var, const int *nbr, const float *normal, float *res, int nc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nc)
        return;
    float ui[NVAR], fi[3][NVAR], pi, r[NVAR] = {0, 0, 0, 0, 0};
    for (int k = 0; k < NVAR; k++)
        ui[k] = var[k * nc + i];
    float li = flux_tensor(ui, c_gamma, fi, &pi);
    for (int j = 0; j < NFACE; j++) {
        int nb = nbr[j * nc + i];
        float n[3] = {normal[(j * 3 + 0) * nc + i], normal[(j * 3 + 1) * nc + i], normal[(j * 3 + 2) * nc + i]};
        if (nb >= 0) {
            float uj[NVAR], fj[3][NVAR], pj;
            for (int k = 0; k < NVAR; k++)
                uj[k] = var[k * nc + nb];
            float lj = flux_tensor(uj, c_gamma, fj, &pj);
            face_flux(ui, fi, li, uj, fj, lj, n, r);
        } else if (nb == WALL) {
            for (int d = 0; d < 3; d++)
                r[1 + d] += pi * n[d];
        } else {
            face_flux(ui, fi, li, c_ff_var, c_ff_flux, c_ff_lambda, n, r);
        }
    }
    for (int k = 0; k < NVAR; k++)
        res[k * nc + i] = r[k];
}

__global__ void time_step(int stage, const float *old_var, const float *factor, const float *res, float *var, int nc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nc)
        return;
    float f = factor[i] / (float)(RK - stage);
    for (int k = 0; k < NVAR; k++)
        var[k * nc + i] = old_var[k * nc + i] - f * res[k * nc + i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "cfd");
    int nx = 24, ny = 16, iters = 8;
    if (size == SIZE_SMALL)
        nx = 32, ny = 32, iters = 300;
    else if (size == SIZE_STANDARD)
        nx = 384, ny = 256, iters = 200;
    int nc = nx * ny;
    const double gamma = 1.4, cfl = 0.4;

    /* Free stream: Mach 0.5 at a slight angle. */
    double ff[NVAR], ff_f[3][NVAR], ff_p;
    {
        double rho = 1.0, p = 1.0 / gamma, c = std::sqrt(gamma * p / rho);
        double v[3] = {0.5 * c * 0.98, 0.5 * c * 0.17, 0.5 * c * 0.1};
        ff[0] = rho;
        for (int d = 0; d < 3; d++)
            ff[1 + d] = rho * v[d];
        ff[4] = p / (gamma - 1) + 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    double ff_lambda = flux_tensor(ff, gamma, ff_f, &ff_p);
    float ffv[NVAR], fff[3][NVAR], ffl = (float)ff_lambda, g = (float)gamma, cf = (float)cfl;
    for (int k = 0; k < NVAR; k++) {
        ffv[k] = (float)ff[k];
        for (int d = 0; d < 3; d++)
            fff[d][k] = (float)ff_f[d][k];
    }
    CHECK(cudaMemcpyToSymbol(c_ff_var, ffv, sizeof ffv));
    CHECK(cudaMemcpyToSymbol(c_ff_flux, fff, sizeof fff));
    CHECK(cudaMemcpyToSymbol(c_ff_lambda, &ffl, sizeof ffl));
    CHECK(cudaMemcpyToSymbol(c_gamma, &g, sizeof g));
    CHECK(cudaMemcpyToSymbol(c_cfl, &cf, sizeof cf));

    /* Mesh: an nx x ny grid of unit cells, numbered in a random order.
     * Each interior face gets one perturbed normal, shared (negated) by its
     * two cells; x ends are far field, y ends are walls. */
    lcg rng(17);
    std::vector<int> perm(nc);
    for (int i = 0; i < nc; i++)
        perm[i] = i;
    for (int i = nc - 1; i > 0; i--)
        std::swap(perm[i], perm[rng.next() % (i + 1)]);
    std::vector<int> nbr(NFACE * nc);
    std::vector<float> normal(NFACE * 3 * nc), area(nc);
    auto jitter = [&](float s) { return rng.uniform(-s, s); };
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            int c = perm[y * nx + x];
            area[c] = 1.0f + jitter(0.2f);
            /* face 1 (+x) and face 3 (+y) of this cell are made here, with
             * face 0 (-x) of the right neighbour and face 2 (-y) of the one above. */
            float nxv[3] = {1.0f + jitter(0.1f), jitter(0.1f), jitter(0.1f)};
            float nyv[3] = {jitter(0.1f), 1.0f + jitter(0.1f), jitter(0.1f)};
            for (int d = 0; d < 3; d++) {
                normal[(1 * 3 + d) * nc + c] = nxv[d];
                normal[(3 * 3 + d) * nc + c] = nyv[d];
            }
            nbr[1 * nc + c] = x + 1 < nx ? perm[y * nx + x + 1] : FAR_FIELD;
            nbr[3 * nc + c] = y + 1 < ny ? perm[(y + 1) * nx + x] : WALL;
            if (x + 1 < nx)
                for (int d = 0; d < 3; d++)
                    normal[(0 * 3 + d) * nc + perm[y * nx + x + 1]] = -nxv[d];
            if (y + 1 < ny)
                for (int d = 0; d < 3; d++)
                    normal[(2 * 3 + d) * nc + perm[(y + 1) * nx + x]] = -nyv[d];
            if (x == 0) {
                nbr[0 * nc + c] = FAR_FIELD;
                float v[3] = {-1.0f - jitter(0.1f), jitter(0.1f), jitter(0.1f)};
                for (int d = 0; d < 3; d++)
                    normal[(0 * 3 + d) * nc + c] = v[d];
            } else
                nbr[0 * nc + c] = perm[y * nx + x - 1];
            if (y == 0) {
                nbr[2 * nc + c] = WALL;
                float v[3] = {jitter(0.1f), -1.0f - jitter(0.1f), jitter(0.1f)};
                for (int d = 0; d < 3; d++)
                    normal[(2 * 3 + d) * nc + c] = v[d];
            } else
                nbr[2 * nc + c] = perm[(y - 1) * nx + x];
        }

    /* Initial state: free stream with a smooth density and pressure bump. */
    std::vector<float> var(NVAR * nc);
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            int c = perm[y * nx + x];
            double dx = (x - nx / 3.0) / nx, dy = (y - ny / 2.0) / ny;
            double bump = 0.3 * std::exp(-40.0 * (dx * dx + dy * dy));
            double rho = ff[0] * (1 + bump), p = (1 + 1.4 * bump) / gamma;
            double v[3] = {ff[1] / ff[0], ff[2] / ff[0], ff[3] / ff[0]};
            var[0 * nc + c] = (float)rho;
            for (int d = 0; d < 3; d++)
                var[(1 + d) * nc + c] = (float)(rho * v[d]);
            var[4 * nc + c] = (float)(p / (gamma - 1) + 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
        }

    size_t vbytes = sizeof(float) * NVAR * nc;
    float *d_var, *d_old, *d_res, *d_factor, *d_normal, *d_area;
    int *d_nbr;
    CHECK(cudaMalloc(&d_var, vbytes));
    CHECK(cudaMalloc(&d_old, vbytes));
    CHECK(cudaMalloc(&d_res, vbytes));
    CHECK(cudaMalloc(&d_factor, sizeof(float) * nc));
    CHECK(cudaMalloc(&d_normal, sizeof(float) * NFACE * 3 * nc));
    CHECK(cudaMalloc(&d_area, sizeof(float) * nc));
    CHECK(cudaMalloc(&d_nbr, sizeof(int) * NFACE * nc));
    CHECK(cudaMemcpy(d_var, var.data(), vbytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_normal, normal.data(), sizeof(float) * NFACE * 3 * nc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_area, area.data(), sizeof(float) * nc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_nbr, nbr.data(), sizeof(int) * NFACE * nc, cudaMemcpyHostToDevice));

    int block = 128, grid = (nc + block - 1) / block, launches = 0;
    for (int it = 0; it < iters; it++) {
        CHECK(cudaMemcpy(d_old, d_var, vbytes, cudaMemcpyDeviceToDevice));
        step_factor<<<grid, block>>>(d_var, d_area, d_factor, nc);
        CHECK(cudaGetLastError());
        launches++;
        for (int s = 0; s < RK; s++) {
            compute_flux<<<grid, block>>>(d_var, d_nbr, d_normal, d_res, nc);
            CHECK(cudaGetLastError());
            time_step<<<grid, block>>>(s, d_old, d_factor, d_res, d_var, nc);
            CHECK(cudaGetLastError());
            launches += 2;
        }
    }
    std::vector<float> got(NVAR * nc);
    CHECK(cudaMemcpy(got.data(), d_var, vbytes, cudaMemcpyDeviceToHost));

    /* The same iterations on the host, in double. */
    std::vector<double> rv(var.begin(), var.end()), old(NVAR * nc), res(NVAR * nc), factor(nc);
    for (int it = 0; it < iters; it++) {
        old = rv;
        for (int i = 0; i < nc; i++) {
            double u[NVAR], f[3][NVAR], p;
            for (int k = 0; k < NVAR; k++)
                u[k] = rv[k * nc + i];
            factor[i] = cfl / (std::sqrt((double)area[i]) * flux_tensor(u, gamma, f, &p));
        }
        for (int s = 0; s < RK; s++) {
            for (int i = 0; i < nc; i++) {
                double ui[NVAR], fi[3][NVAR], pi, r[NVAR] = {0, 0, 0, 0, 0};
                for (int k = 0; k < NVAR; k++)
                    ui[k] = rv[k * nc + i];
                double li = flux_tensor(ui, gamma, fi, &pi);
                for (int j = 0; j < NFACE; j++) {
                    int nb = nbr[j * nc + i];
                    double n[3];
                    for (int d = 0; d < 3; d++)
                        n[d] = normal[(j * 3 + d) * nc + i];
                    if (nb >= 0) {
                        double uj[NVAR], fj[3][NVAR], pj;
                        for (int k = 0; k < NVAR; k++)
                            uj[k] = rv[k * nc + nb];
                        double lj = flux_tensor(uj, gamma, fj, &pj);
                        face_flux(ui, fi, li, uj, fj, lj, n, r);
                    } else if (nb == WALL) {
                        for (int d = 0; d < 3; d++)
                            r[1 + d] += pi * n[d];
                    } else {
                        face_flux(ui, fi, li, ff, ff_f, ff_lambda, n, r);
                    }
                }
                for (int k = 0; k < NVAR; k++)
                    res[k * nc + i] = r[k];
            }
            for (int i = 0; i < nc; i++)
                for (int k = 0; k < NVAR; k++)
                    rv[k * nc + i] = old[k * nc + i] - factor[i] / (RK - s) * res[k * nc + i];
        }
    }
    double worst = 0;
    for (int k = 0; k < NVAR; k++) {
        double scale = 0, err = 0;
        for (int i = 0; i < nc; i++) {
            double e = std::fabs(got[k * nc + i] - rv[k * nc + i]);
            if (!(e <= err))
                err = e;
            if (std::fabs(rv[k * nc + i]) > scale)
                scale = std::fabs(rv[k * nc + i]);
        }
        double rel = err / scale;
        if (!(rel <= worst))
            worst = rel;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail, "size=%s cells=%d iterations=%d launches=%d max_rel_err=%.3g (tolerance 1e-5)",
                  size_name(size), nc, iters, launches, worst);
    CHECK(cudaFree(d_var));
    CHECK(cudaFree(d_old));
    CHECK(cudaFree(d_res));
    CHECK(cudaFree(d_factor));
    CHECK(cudaFree(d_normal));
    CHECK(cudaFree(d_area));
    CHECK(cudaFree(d_nbr));
    return report(worst <= 1e-5, detail);
}

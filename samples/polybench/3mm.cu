/*
 * 3mm -- G = (A * B) * (C * D) as three products, E = A * B, F = C * D and
 * G = E * F, each a launch of the same one-thread-per-element kernel with
 * different shapes.  E, F and G are all checked.  G carries the rounding
 * of both factors and its own dot product; float is held to 1e-4, double
 * to 1e-10.
 */
#include "polybench.h"

/* X (rows x cols) = Y (rows x inner) * Z (inner x cols) */
template <typename T> __global__ void mm3_product(const T *Y, const T *Z, T *X, int rows, int cols, int inner)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    T sum = 0;
    for (int k = 0; k < inner; k++)
        sum += Y[r * inner + k] * Z[k * cols + c];
    X[r * cols + c] = sum;
}

static void host_product(const vec &Y, const vec &Z, vec &X, int rows, int cols, int inner)
{
    X.assign((size_t)rows * cols, 0.0);
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < inner; k++)
            for (int c = 0; c < cols; c++)
                X[r * cols + c] += Y[r * inner + k] * Z[k * cols + c];
}

struct problem {
    int ni, nj, nk, nl, nm;
    vec A, B, C, D, want_E, want_F, want_G;
};

template <typename T> static void launch_product(const T *Y, const T *Z, T *X, int rows, int cols, int inner)
{
    dim3 block(32, 8), grid(blocks_for(cols, 32), blocks_for(rows, 8));
    mm3_product<T><<<grid, block>>>(Y, Z, X, rows, cols, inner);
    CHECK(cudaGetLastError());
}

template <typename T> static double run(const problem &p)
{
    T *A = to_device<T>(p.A), *B = to_device<T>(p.B), *C = to_device<T>(p.C), *D = to_device<T>(p.D);
    T *E = device_nan<T>(p.want_E.size()), *F = device_nan<T>(p.want_F.size());
    T *G = device_nan<T>(p.want_G.size());
    launch_product(A, B, E, p.ni, p.nj, p.nk);
    launch_product(C, D, F, p.nj, p.nl, p.nm);
    launch_product(E, F, G, p.ni, p.nl, p.nj);
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(E, p.want_E.size()), p.want_E);
    err = worse(err, max_rel_err(from_device(F, p.want_F.size()), p.want_F));
    err = worse(err, max_rel_err(from_device(G, p.want_G.size()), p.want_G));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    CHECK(cudaFree(D));
    CHECK(cudaFree(E));
    CHECK(cudaFree(F));
    CHECK(cudaFree(G));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "3mm");
    problem p;
    p.ni = 35, p.nj = 27, p.nk = 39, p.nl = 31, p.nm = 43;
    if (size == SIZE_SMALL)
        p.ni = 160, p.nj = 170, p.nk = 180, p.nl = 190, p.nm = 200;
    else if (size == SIZE_STANDARD)
        p.ni = 800, p.nj = 900, p.nk = 1000, p.nl = 1100, p.nm = 1200;
    p.A.resize((size_t)p.ni * p.nk), p.B.resize((size_t)p.nk * p.nj);
    p.C.resize((size_t)p.nj * p.nm), p.D.resize((size_t)p.nm * p.nl);
    fill_uniform(p.A, 21, -1, 1);
    fill_uniform(p.B, 22, -1, 1);
    fill_uniform(p.C, 23, -1, 1);
    fill_uniform(p.D, 24, -1, 1);
    host_product(p.A, p.B, p.want_E, p.ni, p.nj, p.nk);
    host_product(p.C, p.D, p.want_F, p.nj, p.nl, p.nm);
    host_product(p.want_E, p.want_F, p.want_G, p.ni, p.nl, p.nj);
    double ef = run<float>(p), ed = run<double>(p);
    char dims[96];
    std::snprintf(dims, sizeof dims, "ni=%d nj=%d nk=%d nl=%d nm=%d", p.ni, p.nj, p.nk, p.nl, p.nm);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

/*
 * lu -- in-place LU factorisation without pivoting, A = L U with unit
 * lower-triangular L (Doolittle).  The host loops over the pivot k and
 * launches two kernels per k: one divides column k below the diagonal by
 * the pivot, the next subtracts the rank-one product from the trailing
 * submatrix; each launch depends on the previous one's writes, and the
 * active region shrinks from n x n to 1 x 1.  A is made diagonally
 * dominant so that no pivoting is needed and element growth is bounded;
 * the factors are then well conditioned and float is held to 1e-4
 * (n roundings on elements of size one), double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void lu_scale(T *A, int n, int k)
{
    int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        A[i * n + k] /= A[k * n + k];
}

template <typename T> __global__ void lu_update(T *A, int n, int k)
{
    int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
}

/* L's entries are about 1/n, U's diagonal about n and the rest of U about
 * one, so each of the three parts is measured against its own scale. */
static double lu_error(const vec &got, const vec &want, int n)
{
    vec g[3], w[3];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int part = i > j ? 0 : i == j ? 1 : 2;
            g[part].push_back(got[(size_t)i * n + j]);
            w[part].push_back(want[(size_t)i * n + j]);
        }
    return worse(max_rel_err(g[0], w[0]), worse(max_rel_err(g[1], w[1]), max_rel_err(g[2], w[2])));
}

struct problem {
    int n;
    vec A, want;
};

template <typename T> static double run(const problem &p)
{
    int n = p.n;
    T *A = to_device<T>(p.A);
    for (int k = 0; k < n - 1; k++) {
        int rest = n - 1 - k;
        lu_scale<T><<<blocks_for(rest, 256), 256>>>(A, n, k);
        CHECK(cudaGetLastError());
        lu_update<T><<<dim3(blocks_for(rest, 32), blocks_for(rest, 8)), dim3(32, 8)>>>(A, n, k);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    double err = lu_error(from_device(A, p.A.size()), p.want, n);
    CHECK(cudaFree(A));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "lu");
    problem p;
    p.n = 40;
    if (size == SIZE_SMALL)
        p.n = 250;
    else if (size == SIZE_STANDARD)
        p.n = 1000;
    int n = p.n;
    p.A.resize((size_t)n * n);
    fill_uniform(p.A, 171, -1, 1);
    for (int i = 0; i < n; i++)
        p.A[(size_t)i * n + i] += n;
    vec a = p.A;
    for (int k = 0; k < n - 1; k++) {
        for (int i = k + 1; i < n; i++)
            a[(size_t)i * n + k] /= a[(size_t)k * n + k];
        for (int i = k + 1; i < n; i++)
            for (int j = k + 1; j < n; j++)
                a[(size_t)i * n + j] -= a[(size_t)i * n + k] * a[(size_t)k * n + j];
    }
    p.want = a;
    double ef = run<float>(p), ed = run<double>(p);
    char dims[32];
    std::snprintf(dims, sizeof dims, "n=%d", n);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

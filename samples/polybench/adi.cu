/*
 * adi -- alternating-direction implicit time stepping of the 2-D heat
 * equation on an n x n grid with fixed boundary values (Peaceman-Rachford).
 * Each time step is two half steps, one kernel each, launched from the
 * host:
 *   rows:    (1+2r) v[i][j] - r (v[i][j-1] + v[i][j+1])
 *              = r u[i-1][j] + (1-2r) u[i][j] + r u[i+1][j]
 *   columns: the same with the roles of i and j, and of u and v, swapped.
 * Every thread solves one tridiagonal system along its row or column with
 * the Thomas algorithm, a forward sweep that writes the elimination
 * factors to the scratch arrays p and q and a backward sweep that reads
 * them back in reverse, so each thread walks a dependent chain through
 * global memory.  With r = 3/8 every factor is exact in float, the systems
 * are diagonally dominant and both half steps are contractions, so
 * rounding does not grow beyond a few roundings per step: float is held to
 * 1e-4, double to 1e-10.
 */
#include "polybench.h"

static const double R = 0.375;

/* Thread for interior row i solves for v[i][1..n-2]; v's border holds the
 * fixed boundary values. */
template <typename T> __global__ void adi_rows(const T *u, T *v, T *p, T *q, int n, T r)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (i >= n - 1)
        return;
    T *pi = p + i * n, *qi = q + i * n, *vi = v + i * n;
    pi[0] = 0;
    qi[0] = vi[0];
    for (int j = 1; j < n - 1; j++) {
        T d = r * u[(i - 1) * n + j] + (1 - 2 * r) * u[i * n + j] + r * u[(i + 1) * n + j];
        T m = (1 + 2 * r) - r * pi[j - 1];
        pi[j] = r / m;
        qi[j] = (d + r * qi[j - 1]) / m;
    }
    for (int j = n - 2; j >= 1; j--)
        vi[j] = pi[j] * vi[j + 1] + qi[j];
}

/* Thread for interior column j solves for u[1..n-2][j]. */
template <typename T> __global__ void adi_cols(const T *v, T *u, T *p, T *q, int n, T r)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j >= n - 1)
        return;
    p[j] = 0;
    q[j] = u[j];
    for (int i = 1; i < n - 1; i++) {
        T d = r * v[i * n + j - 1] + (1 - 2 * r) * v[i * n + j] + r * v[i * n + j + 1];
        T m = (1 + 2 * r) - r * p[(i - 1) * n + j];
        p[i * n + j] = r / m;
        q[i * n + j] = (d + r * q[(i - 1) * n + j]) / m;
    }
    for (int i = n - 2; i >= 1; i--)
        u[i * n + j] = p[i * n + j] * u[(i + 1) * n + j] + q[i * n + j];
}

/* The same two half steps on the host, in double. */
static void host_step(vec &u, vec &v, vec &p, vec &q, int n)
{
    for (int i = 1; i < n - 1; i++) {
        p[i * n] = 0;
        q[i * n] = v[i * n];
        for (int j = 1; j < n - 1; j++) {
            double d = R * u[(i - 1) * n + j] + (1 - 2 * R) * u[i * n + j] + R * u[(i + 1) * n + j];
            double m = (1 + 2 * R) - R * p[i * n + j - 1];
            p[i * n + j] = R / m;
            q[i * n + j] = (d + R * q[i * n + j - 1]) / m;
        }
        for (int j = n - 2; j >= 1; j--)
            v[i * n + j] = p[i * n + j] * v[i * n + j + 1] + q[i * n + j];
    }
    for (int j = 1; j < n - 1; j++) {
        p[j] = 0;
        q[j] = u[j];
        for (int i = 1; i < n - 1; i++) {
            double d = R * v[i * n + j - 1] + (1 - 2 * R) * v[i * n + j] + R * v[i * n + j + 1];
            double m = (1 + 2 * R) - R * p[(i - 1) * n + j];
            p[i * n + j] = R / m;
            q[i * n + j] = (d + R * q[(i - 1) * n + j]) / m;
        }
        for (int i = n - 2; i >= 1; i--)
            u[i * n + j] = p[i * n + j] * u[(i + 1) * n + j] + q[i * n + j];
    }
}

struct problem {
    int n, steps;
    vec u, want_u, want_v;
};

template <typename T> static double run(const problem &pb)
{
    int n = pb.n;
    size_t nn = (size_t)n * n;
    /* v starts as a copy of u so that its border holds the boundary values. */
    T *u = to_device<T>(pb.u), *v = to_device<T>(pb.u);
    T *p = device_nan<T>(nn), *q = device_nan<T>(nn);
    for (int t = 0; t < pb.steps; t++) {
        adi_rows<T><<<blocks_for(n - 2, 64), 64>>>(u, v, p, q, n, (T)R);
        CHECK(cudaGetLastError());
        adi_cols<T><<<blocks_for(n - 2, 64), 64>>>(v, u, p, q, n, (T)R);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    double err = worse(max_rel_err(from_device(u, nn), pb.want_u), max_rel_err(from_device(v, nn), pb.want_v));
    CHECK(cudaFree(u));
    CHECK(cudaFree(v));
    CHECK(cudaFree(p));
    CHECK(cudaFree(q));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "adi");
    problem pb;
    pb.n = 30, pb.steps = 8;
    if (size == SIZE_SMALL)
        pb.n = 300, pb.steps = 20;
    else if (size == SIZE_STANDARD)
        pb.n = 1000, pb.steps = 100;
    int n = pb.n;
    size_t nn = (size_t)n * n;
    pb.u.resize(nn);
    fill_uniform(pb.u, 161, 0, 1);
    vec u = pb.u, v = pb.u, p(nn), q(nn);
    for (int t = 0; t < pb.steps; t++)
        host_step(u, v, p, q, n);
    pb.want_u = u, pb.want_v = v;
    double ef = run<float>(pb), ed = run<double>(pb);
    char dims[64];
    std::snprintf(dims, sizeof dims, "n=%d steps=%d", n, pb.steps);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

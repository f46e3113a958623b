/*
 * doitgen -- a multiresolution-analysis kernel: every row A[r][q][*] of
 * the nr x nq x np array A is replaced by its product with the np x np
 * matrix C4.  As in the GPU ports, the host loops over r and launches two
 * kernels per r: one forms sum[q][p] = sum_s A[r][q][s] * C4[s][p] into a
 * scratch plane, the next copies the plane back into A[r], so the second
 * must see the first's writes.  Float is held to 1e-4, double to 1e-10.
 */
#include "polybench.h"

template <typename T> __global__ void doitgen_sum(const T *A, const T *C4, T *sum, int r, int nq, int np)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int q = blockIdx.y * blockDim.y + threadIdx.y;
    if (q >= nq || p >= np)
        return;
    const T *row = A + ((size_t)r * nq + q) * np;
    T acc = 0;
    for (int s = 0; s < np; s++)
        acc += row[s] * C4[s * np + p];
    sum[q * np + p] = acc;
}

template <typename T> __global__ void doitgen_copy(T *A, const T *sum, int r, int nq, int np)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int q = blockIdx.y * blockDim.y + threadIdx.y;
    if (q < nq && p < np)
        A[((size_t)r * nq + q) * np + p] = sum[q * np + p];
}

struct problem {
    int nr, nq, np;
    vec A, C4, want;
};

template <typename T> static double run(const problem &pb)
{
    T *A = to_device<T>(pb.A), *C4 = to_device<T>(pb.C4);
    T *sum = device_nan<T>((size_t)pb.nq * pb.np);
    dim3 block(32, 8), grid(blocks_for(pb.np, 32), blocks_for(pb.nq, 8));
    for (int r = 0; r < pb.nr; r++) {
        doitgen_sum<T><<<grid, block>>>(A, C4, sum, r, pb.nq, pb.np);
        CHECK(cudaGetLastError());
        doitgen_copy<T><<<grid, block>>>(A, sum, r, pb.nq, pb.np);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    double err = max_rel_err(from_device(A, pb.A.size()), pb.want);
    CHECK(cudaFree(A));
    CHECK(cudaFree(C4));
    CHECK(cudaFree(sum));
    return err;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "doitgen");
    problem pb;
    pb.nr = 10, pb.nq = 12, pb.np = 37;
    if (size == SIZE_SMALL)
        pb.nr = 50, pb.nq = 60, pb.np = 70;
    else if (size == SIZE_STANDARD)
        pb.nr = 150, pb.nq = 140, pb.np = 160;
    int nr = pb.nr, nq = pb.nq, np = pb.np;
    pb.A.resize((size_t)nr * nq * np), pb.C4.resize((size_t)np * np);
    fill_uniform(pb.A, 101, -1, 1);
    fill_uniform(pb.C4, 102, -1, 1);
    pb.want.assign(pb.A.size(), 0.0);
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++)
            for (int p = 0; p < np; p++)
                for (int s = 0; s < np; s++)
                    pb.want[((size_t)r * nq + q) * np + p] += pb.A[((size_t)r * nq + q) * np + s] * pb.C4[s * np + p];
    double ef = run<float>(pb), ed = run<double>(pb);
    char dims[64];
    std::snprintf(dims, sizeof dims, "nr=%d nq=%d np=%d", nr, nq, np);
    return report_variants(size, dims, ef, 1e-4, ed, 1e-10);
}

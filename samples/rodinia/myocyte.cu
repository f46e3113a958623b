/*
 * myocyte -- many independent simulations of a heart-cell membrane model,
 * integrated with classical fourth-order Runge-Kutta in double precision,
 * one thread per simulated cell.
 *
 * The model: Hodgkin-Huxley sodium and potassium currents, an L-type
 * calcium current with its own gates and a Nernst reversal potential (log),
 * a calcium store with a Hill-type uptake pump (pow with a fractional
 * exponent) and release, intracellular calcium buffered at equilibrium (the
 * free concentration is the root of a quadratic: sqrt), and a periodic
 * stimulus (fmod).  The right-hand side and its helpers are __noinline__
 * device functions, so every stage is a real call that takes its state and
 * derivative arrays through local memory.  Cells differ in conductances,
 * stimulus period and starting voltage, so some fire at once, some later
 * and some not at all, and the warps diverge.
 *
 * The same functions run on the host in double as the reference.  Each
 * state variable's largest error relative to its largest magnitude must be
 * within 1e-10: device and host libm differ in the last bits, and every
 * action-potential upstroke amplifies such differences (about 1e-15 after
 * 40 steps, 1e-12 after 2000).
 */
#include "sample.h"

#include <vector>

#define NSTATE 8 /* V, m, h, n, d, f, total Ca_i, Ca_sr */

struct cell_params {
    double g_na, g_k, g_ca, period;
};

/* x / (exp(x / y) - 1), with its limit near the removable singularity. */
__host__ __device__ __noinline__ double vtrap(double x, double y)
{
    return fabs(x / y) < 1e-6 ? y * (1.0 - x / y / 2.0) : x / (exp(x / y) - 1.0);
}

__host__ __device__ __noinline__ double nernst_ca(double ca_out, double ca_in)
{
    return 0.5 * 26.7 * log(ca_out / ca_in); /* RT/zF at 37 C, z = 2, in mV */
}

/* Free calcium from total calcium with a fast buffer (Btot, Kd) at equilibrium. */
__host__ __device__ __noinline__ double free_calcium(double total)
{
    const double btot = 0.05, kd = 0.0006;
    double b = btot + kd - total;
    return 0.5 * (sqrt(b * b + 4.0 * kd * total) - b);
}

__host__ __device__ __noinline__ void rhs(double t, const double *y, double *dy, const cell_params *p)
{
    double v = y[0], m = y[1], h = y[2], n = y[3], d = y[4], f = y[5];
    double ca = free_calcium(y[6]), ca_sr = y[7];

    double am = 0.1 * vtrap(-(v + 40.0), 10.0), bm = 4.0 * exp(-(v + 65.0) / 18.0);
    double ah = 0.07 * exp(-(v + 65.0) / 20.0), bh = 1.0 / (1.0 + exp(-(v + 35.0) / 10.0));
    double an = 0.01 * vtrap(-(v + 55.0), 10.0), bn = 0.125 * exp(-(v + 65.0) / 80.0);
    double d_inf = 1.0 / (1.0 + exp(-(v + 10.0) / 6.24)), f_inf = 1.0 / (1.0 + exp((v + 32.0) / 8.0));
    double tau_d = 1.0 + 2.0 * exp(-(v + 10.0) * (v + 10.0) / 400.0), tau_f = 20.0 + 30.0 * exp(-v * v / 900.0);

    double i_na = p->g_na * pow(m, 3.0) * h * (v - 50.0);
    double i_k = p->g_k * pow(n, 4.0) * (v + 77.0);
    double i_ca = p->g_ca * d * f * (v - nernst_ca(2.0, ca));
    double i_leak = 0.3 * (v + 54.4);
    double i_stim = fmod(t, p->period) < 0.5 ? -25.0 : 0.0;

    double uptake = 0.004 * pow(ca, 1.8) / (pow(0.0003, 1.8) + pow(ca, 1.8));
    double release = 0.05 * (ca_sr - ca) * pow(ca / (ca + 0.001), 2.0);

    dy[0] = -(i_na + i_k + i_ca + i_leak + i_stim);
    dy[1] = am * (1.0 - m) - bm * m;
    dy[2] = ah * (1.0 - h) - bh * h;
    dy[3] = an * (1.0 - n) - bn * n;
    dy[4] = (d_inf - d) / tau_d;
    dy[5] = (f_inf - f) / tau_f;
    dy[6] = -0.0002 * i_ca - uptake + release;
    dy[7] = 10.0 * (uptake - release);
}

__host__ __device__ void rk4_step(double t, double dt, double *y, const cell_params *p)
{
    double k1[NSTATE], k2[NSTATE], k3[NSTATE], k4[NSTATE], tmp[NSTATE];
    rhs(t, y, k1, p);
    for (int i = 0; i < NSTATE; i++)
        tmp[i] = y[i] + 0.5 * dt * k1[i];
    rhs(t + 0.5 * dt, tmp, k2, p);
    for (int i = 0; i < NSTATE; i++)
        tmp[i] = y[i] + 0.5 * dt * k2[i];
    rhs(t + 0.5 * dt, tmp, k3, p);
    for (int i = 0; i < NSTATE; i++)
        tmp[i] = y[i] + dt * k3[i];
    rhs(t + dt, tmp, k4, p);
    for (int i = 0; i < NSTATE; i++)
        y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

__global__ void simulate(const cell_params *params, double *state, int ncells, int steps, double dt)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= ncells)
        return;
    cell_params p = params[c];
    double y[NSTATE];
    for (int i = 0; i < NSTATE; i++)
        y[i] = state[i * ncells + c];
    for (int s = 0; s < steps; s++)
        rk4_step(s * dt, dt, y, &p);
    for (int i = 0; i < NSTATE; i++)
        state[i * ncells + c] = y[i];
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "myocyte");
    int ncells = 32, steps = 40;
    if (size == SIZE_SMALL)
        ncells = 256, steps = 600;
    else if (size == SIZE_STANDARD)
        ncells = 1024, steps = 2000;
    const double dt = 0.02; /* ms */

    lcg rng(83);
    std::vector<cell_params> params(ncells);
    std::vector<double> state(NSTATE * ncells);
    for (int c = 0; c < ncells; c++) {
        params[c].g_na = 120.0 * rng.uniform(0.8f, 1.2f);
        params[c].g_k = 36.0 * rng.uniform(0.8f, 1.2f);
        params[c].g_ca = 0.1 * rng.uniform(0.5f, 1.5f);
        params[c].period = rng.uniform(3.0f, 15.0f);
        /* Resting gates; the voltage starts anywhere from rest to past threshold. */
        double y0[NSTATE] = {-65.0 + rng.uniform(0.0f, 30.0f), 0.053, 0.596, 0.318, 0.002, 0.95, 0.0005, 0.5};
        for (int i = 0; i < NSTATE; i++)
            state[i * ncells + c] = y0[i];
    }
    cell_params *d_params;
    double *d_state;
    CHECK(cudaMalloc(&d_params, sizeof(cell_params) * ncells));
    CHECK(cudaMalloc(&d_state, sizeof(double) * NSTATE * ncells));
    CHECK(cudaMemcpy(d_params, params.data(), sizeof(cell_params) * ncells, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_state, state.data(), sizeof(double) * NSTATE * ncells, cudaMemcpyHostToDevice));
    simulate<<<(ncells + 63) / 64, 64>>>(d_params, d_state, ncells, steps, dt);
    CHECK(cudaGetLastError());
    std::vector<double> got(NSTATE * ncells);
    CHECK(cudaMemcpy(got.data(), d_state, sizeof(double) * NSTATE * ncells, cudaMemcpyDeviceToHost));

    double worst = 0, peak = -1e9;
    int fired = 0;
    std::vector<double> want(NSTATE * ncells);
    for (int c = 0; c < ncells; c++) {
        double y[NSTATE], vmax = -1e9;
        for (int i = 0; i < NSTATE; i++)
            y[i] = state[i * ncells + c];
        for (int s = 0; s < steps; s++) {
            rk4_step(s * dt, dt, y, &params[c]);
            if (y[0] > vmax)
                vmax = y[0];
        }
        fired += vmax > 0.0;
        if (vmax > peak)
            peak = vmax;
        for (int i = 0; i < NSTATE; i++)
            want[i * ncells + c] = y[i];
    }
    for (int i = 0; i < NSTATE; i++) {
        double err = 0, scale = 0;
        for (int c = 0; c < ncells; c++) {
            double e = std::fabs(got[i * ncells + c] - want[i * ncells + c]);
            if (!(e <= err))
                err = e;
            if (std::fabs(want[i * ncells + c]) > scale)
                scale = std::fabs(want[i * ncells + c]);
        }
        if (!(err / scale <= worst))
            worst = err / scale;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s cells=%d steps=%d fired=%d peak=%.1fmV max_rel_err=%.3g (tolerance 1e-10)", size_name(size),
                  ncells, steps, fired, peak, worst);
    CHECK(cudaFree(d_params));
    CHECK(cudaFree(d_state));
    return report(worst <= 1e-10, detail);
}

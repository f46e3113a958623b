/*
 * backprop -- training steps of a two-layer perceptron with a wide input
 * layer (n inputs, 16 hidden units, 1 output).
 *
 * The input-to-hidden product runs on the device: each 16x16 block takes
 * 16 inputs against the 16 hidden units, forms the products in shared
 * memory and sums them down the input axis by a tree reduction, leaving
 * one partial sum per block and hidden unit; the host adds the partials,
 * applies the sigmoid and does the small hidden-to-output layer and the
 * error terms.  The weight update (gradient step plus momentum) over the
 * whole n x 16 matrix runs on the device.  Two epochs, so the second
 * forward pass sees the updated weights.
 *
 * Checked against the same training done on the host in double: hidden
 * activations relative to their value, final weights and momentum terms
 * relative to their largest magnitude, tolerance 1e-5 (the device sums in
 * float, in tree order).
 */
#include "sample.h"

#include <vector>

#define HID 16 /* hidden units; also the tile height */

__global__ void layer_forward(const float *input, const float *weights, float *partial, int n)
{
    __shared__ float in_tile[HID];
    __shared__ float prod[HID][HID];
    int tx = threadIdx.x, ty = threadIdx.y; /* tx: hidden unit, ty: input within the tile */
    int i = blockIdx.x * HID + ty;
    if (tx == 0)
        in_tile[ty] = i < n ? input[i] : 0.0f;
    __syncthreads();
    prod[ty][tx] = i < n ? in_tile[ty] * weights[i * HID + tx] : 0.0f;
    __syncthreads();
    for (int stride = HID / 2; stride > 0; stride /= 2) {
        if (ty < stride)
            prod[ty][tx] += prod[ty + stride][tx];
        __syncthreads();
    }
    if (ty == 0)
        partial[blockIdx.x * HID + tx] = prod[0][tx];
}

__global__ void adjust_weights(const float *input, const float *delta, float *weights, float *prev_change, float eta,
                               float momentum, int n)
{
    int tx = threadIdx.x;
    int i = blockIdx.x * blockDim.y + threadIdx.y;
    if (i >= n)
        return;
    int k = i * HID + tx;
    float change = eta * delta[tx] * input[i] + momentum * prev_change[k];
    weights[k] += change;
    prev_change[k] = change;
}

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "backprop");
    int n = size == SIZE_TINY ? 1000 : size == SIZE_SMALL ? 65536 : 1 << 20;
    const int epochs = 2;
    const float eta = 0.3f, momentum = 0.3f, target = 0.1f;
    /* The input layer's step is scaled by its width, or one update would
     * move each hidden sum by O(n) and saturate the sigmoids. */
    const float eta_in = 30.0f / (float)n;

    lcg rng(3);
    std::vector<float> input(n), w(n * HID), change(n * HID, 0.0f), w_out(HID);
    for (int i = 0; i < n; i++)
        input[i] = rng.uniform(0.0f, 1.0f);
    /* Small weights so the hidden sums stay in the sigmoid's sensitive range. */
    float scale = 4.0f / (float)n;
    for (int k = 0; k < n * HID; k++)
        w[k] = rng.uniform(-scale, scale);
    for (int j = 0; j < HID; j++)
        w_out[j] = rng.uniform(-0.5f, 0.5f);

    /* Host reference state, in double. */
    std::vector<double> rw(w.begin(), w.end()), rchange(n * HID, 0.0), rw_out(w_out.begin(), w_out.end());

    int tiles = (n + HID - 1) / HID;
    float *d_in, *d_w, *d_change, *d_partial, *d_delta;
    CHECK(cudaMalloc(&d_in, sizeof(float) * n));
    CHECK(cudaMalloc(&d_w, sizeof(float) * n * HID));
    CHECK(cudaMalloc(&d_change, sizeof(float) * n * HID));
    CHECK(cudaMalloc(&d_partial, sizeof(float) * tiles * HID));
    CHECK(cudaMalloc(&d_delta, sizeof(float) * HID));
    CHECK(cudaMemcpy(d_in, input.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_w, w.data(), sizeof(float) * n * HID, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_change, 0, sizeof(float) * n * HID));

    std::vector<float> partial(tiles * HID);
    double max_rel = 0;
    for (int epoch = 0; epoch < epochs; epoch++) {
        layer_forward<<<tiles, dim3(HID, HID)>>>(d_in, d_w, d_partial, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(partial.data(), d_partial, sizeof(float) * tiles * HID, cudaMemcpyDeviceToHost));

        /* Host side of the device pass: finish the sums, then the small layers. */
        float hidden[HID], out_sum = 0.0f;
        for (int j = 0; j < HID; j++) {
            double s = 0;
            for (int t = 0; t < tiles; t++)
                s += partial[t * HID + j];
            hidden[j] = (float)sigmoid(s);
            out_sum += hidden[j] * w_out[j];
        }
        float out = (float)sigmoid(out_sum);
        float out_delta = out * (1.0f - out) * (target - out);
        float delta[HID];
        for (int j = 0; j < HID; j++) {
            delta[j] = hidden[j] * (1.0f - hidden[j]) * out_delta * w_out[j];
            w_out[j] += eta * out_delta * hidden[j];
        }
        CHECK(cudaMemcpy(d_delta, delta, sizeof delta, cudaMemcpyHostToDevice));
        adjust_weights<<<(n + HID - 1) / HID, dim3(HID, HID)>>>(d_in, d_delta, d_w, d_change, eta_in, momentum,
                                                                n);
        CHECK(cudaGetLastError());

        /* The reference epoch. */
        double rhidden[HID], rout_sum = 0;
        for (int j = 0; j < HID; j++) {
            double s = 0;
            for (int i = 0; i < n; i++)
                s += (double)input[i] * rw[i * HID + j];
            rhidden[j] = sigmoid(s);
            rout_sum += rhidden[j] * rw_out[j];
            double rel = std::fabs(hidden[j] - rhidden[j]) / std::fabs(rhidden[j]);
            if (!(rel <= max_rel))
                max_rel = rel;
        }
        double rout = sigmoid(rout_sum), rout_delta = rout * (1 - rout) * (target - rout), rdelta[HID];
        for (int j = 0; j < HID; j++) {
            rdelta[j] = rhidden[j] * (1 - rhidden[j]) * rout_delta * rw_out[j];
            rw_out[j] += eta * rout_delta * rhidden[j];
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < HID; j++) {
                int k = i * HID + j;
                rchange[k] = eta_in * rdelta[j] * input[i] + momentum * rchange[k];
                rw[k] += rchange[k];
            }
    }
    CHECK(cudaMemcpy(w.data(), d_w, sizeof(float) * n * HID, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(change.data(), d_change, sizeof(float) * n * HID, cudaMemcpyDeviceToHost));
    /* Weights and changes can be near zero, so errors are taken relative to
     * the largest magnitude of each. */
    double max_w = 0, max_w_err = 0, max_change = 0, max_change_err = 0;
    for (int k = 0; k < n * HID; k++) {
        double e = std::fabs(w[k] - rw[k]);
        if (!(e <= max_w_err))
            max_w_err = e;
        if (std::fabs(rw[k]) > max_w)
            max_w = std::fabs(rw[k]);
        e = std::fabs(change[k] - rchange[k]);
        if (!(e <= max_change_err))
            max_change_err = e;
        if (std::fabs(rchange[k]) > max_change)
            max_change = std::fabs(rchange[k]);
    }
    double max_w_rel = max_w > 0 ? max_w_err / max_w : 1.0;
    double change_rel = max_change > 0 ? max_change_err / max_change : 1.0;
    bool ok = max_rel <= 1e-5 && max_w_rel <= 1e-5 && change_rel <= 1e-5;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s inputs=%d hidden=%d epochs=%d hidden_rel_err=%.3g weight_rel_err=%.3g "
                  "change_rel_err=%.3g (tolerance 1e-5)",
                  size_name(size), n, HID, epochs, max_rel, max_w_rel, change_rel);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_w));
    CHECK(cudaFree(d_change));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_delta));
    return report(ok, detail);
}

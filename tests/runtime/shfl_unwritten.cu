/*
 * shfl_unwritten -- a shuffle that reads a lane which never wrote the
 * source register: outside the member mask and off the shuffling path (the
 * CUDA guide leaves the value undefined; NVIDIA's reduction sample shuffles
 * so).  ptxsim's registers start as zero, so the value is 0 in every mode
 * and on any number of host threads -- not what the register held for the
 * block that ran in the same warp before (block 0's lanes 16..23 write it;
 * block 1's do not, and its lanes 0..7 read them).
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__global__ void shuffle_down(float *out, const float *in)
{
    float v = 0.0f;
    bool mine = blockIdx.x == 0 ? threadIdx.x >= 16 : threadIdx.x < 8;
    if (mine) {
        v = in[threadIdx.x] * (float)(blockIdx.x + 1);
        v += __shfl_down_sync(blockIdx.x == 0 ? 0xffff0000u : 0xffu, v, 16);
    }
    out[blockIdx.x * 32 + threadIdx.x] = v;
}

int main()
{
    test_name = "shfl_unwritten";
    float h[64], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = 100.0f + (float)i;
    OK(cudaMalloc(&in, 32 * sizeof(float)));
    OK(cudaMalloc(&out, sizeof h));
    OK(cudaMemcpy(in, h, 32 * sizeof(float), cudaMemcpyHostToDevice));
    for (int reps = 0; reps < 3; reps++) {
        shuffle_down<<<2, 32>>>(out, in);
        OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 8; l++)             /* block 1: its own value, plus 0 */
            EXPECT(h[32 + l] == 2.0f * (100.0f + (float)l));
        for (int l = 16; l < 32; l++)           /* block 0: past lane 31, a lane reads its own */
            EXPECT(h[l] == 2.0f * (100.0f + (float)l));
    }
    OK(cudaFree(in));
    OK(cudaFree(out));
    return finish();
}

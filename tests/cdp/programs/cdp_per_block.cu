// One child grid per parent block; children write disjoint slices.
// Also: a child sees the global-memory writes its parent block made before
// the launch (after __syncthreads, writes of every thread in the block, not
// only of the launching thread), including a __device__ variable and a buffer
// the parent allocated with device-side cudaMalloc.
#include "common.h"

#define NB 6      // parent blocks
#define PT 64     // parent threads per block
#define SEG 96    // elements per parent block

__device__ int g_scale[NB];

__global__ void child_fill(int b, const int *in, int *out, int n,
                           int *blocks_seen, int *threads_seen, int *geom) {
  int per_block = blockDim.x * blockDim.y * blockDim.z;
  int bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int nthreads = per_block * gridDim.x * gridDim.y * gridDim.z;
  for (int i = bid * per_block + tid; i < n; i += nthreads)
    out[i] = in[i] * g_scale[b] + i;
  atomicAdd(&threads_seen[b], 1);
  if (tid == 0) atomicAdd(&blocks_seen[b], 1);
  if (bid == 0 && tid == 0)
    geom[b] = gridDim.x * 1000000 + gridDim.y * 100000 + gridDim.z * 10000 +
              blockDim.x * 100 + blockDim.y * 10 + blockDim.z;
}

__global__ void child_copy_free(int *buf, int *out2) {
  out2[threadIdx.x] = buf[threadIdx.x] + 1;
  __syncthreads();
  if (threadIdx.x == 0) cudaFree(buf);   // device-allocated, freed on device
}

__global__ void parent(int *in, int *out, int *out2, int *blocks_seen,
                       int *threads_seen, int *geom, int *errs, int *post) {
  int b = blockIdx.x;
  for (int j = threadIdx.x; j < SEG; j += blockDim.x)
    in[b * SEG + j] = (b + 1) * 1000 + j;
  if (threadIdx.x == PT - 1) g_scale[b] = b * 7 + 3;   // not the launching thread
  __shared__ int *buf;
  if (threadIdx.x == 1) {
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, 32 * sizeof(int));
    errs[NB * 2 + b] = e;
    buf = (int *)p;
  }
  __syncthreads();
  if (buf && threadIdx.x < 32) buf[threadIdx.x] = b * 100 + threadIdx.x * 3;
  __syncthreads();
  if (threadIdx.x == 0) {
    dim3 g(b % 3 + 1, 2, 1), t(16, 2, 1);
    child_fill<<<g, t>>>(b, in + b * SEG, out + b * SEG, SEG, blocks_seen,
                         threads_seen, geom);
    errs[b] = cudaGetLastError();
    if (buf) {
      child_copy_free<<<1, 32>>>(buf, out2 + b * 32);
      errs[NB + b] = cudaGetLastError();
    } else {
      errs[NB + b] = -1;
    }
  }
  // A write after the launches, to memory no child reads: the host must see
  // it once the parent's launch has completed.
  __syncthreads();
  if (threadIdx.x == 2) post[b] = -7 - b;
}

int main() {
  t_name = "cdp_per_block";
  int *in, *out, *out2, *bs, *ts, *geom, *errs, *post;
  CK(cudaMalloc(&in, NB * SEG * sizeof(int)));
  CK(cudaMalloc(&out, NB * SEG * sizeof(int)));
  CK(cudaMalloc(&out2, NB * 32 * sizeof(int)));
  CK(cudaMalloc(&bs, NB * sizeof(int)));
  CK(cudaMalloc(&ts, NB * sizeof(int)));
  CK(cudaMalloc(&geom, NB * sizeof(int)));
  CK(cudaMalloc(&errs, NB * 3 * sizeof(int)));
  CK(cudaMalloc(&post, NB * sizeof(int)));
  CK(cudaMemset(post, 0, NB * sizeof(int)));
  CK(cudaMemset(out, 0xff, NB * SEG * sizeof(int)));
  CK(cudaMemset(out2, 0xff, NB * 32 * sizeof(int)));
  CK(cudaMemset(bs, 0, NB * sizeof(int)));
  CK(cudaMemset(ts, 0, NB * sizeof(int)));
  CK(cudaMemset(geom, 0, NB * sizeof(int)));
  CK(cudaMemset(errs, 0x7f, NB * 3 * sizeof(int)));

  parent<<<NB, PT>>>(in, out, out2, bs, ts, geom, errs, post);
  CK_LAUNCH();

  int h_in[NB * SEG], h_out[NB * SEG], h_out2[NB * 32], h_bs[NB], h_ts[NB],
      h_geom[NB], h_errs[NB * 3], h_post[NB];
  CK(cudaMemcpy(h_in, in, sizeof h_in, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_out2, out2, sizeof h_out2, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_bs, bs, sizeof h_bs, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_ts, ts, sizeof h_ts, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_geom, geom, sizeof h_geom, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_errs, errs, sizeof h_errs, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_post, post, sizeof h_post, cudaMemcpyDeviceToHost));

  for (int b = 0; b < NB; b++) {
    EXPECT_EQ(h_errs[b], cudaSuccess, "block %d: cudaGetLastError after child_fill launch", b);
    EXPECT_EQ(h_errs[NB + b], cudaSuccess, "block %d: cudaGetLastError after child_copy_free launch", b);
    EXPECT_EQ(h_errs[2 * NB + b], cudaSuccess, "block %d: device cudaMalloc", b);
    int gx = b % 3 + 1;
    EXPECT_EQ(h_bs[b], gx * 2, "block %d: child blocks that ran", b);
    EXPECT_EQ(h_ts[b], gx * 2 * 32, "block %d: child threads that ran", b);
    EXPECT_EQ(h_geom[b], gx * 1000000 + 2 * 100000 + 1 * 10000 + 16 * 100 + 2 * 10 + 1,
              "block %d: child gridDim/blockDim code", b);
    int scale = b * 7 + 3;
    for (int j = 0; j < SEG; j++) {
      int want = ((b + 1) * 1000 + j) * scale + j;
      if (h_out[b * SEG + j] != want) {
        t_fail("out[%d] (block %d, j %d) = %d, expected %d (child did not see parent's writes, or did not run)",
               b * SEG + j, b, j, h_out[b * SEG + j], want);
      }
    }
    for (int j = 0; j < 32; j++)
      EXPECT_EQ(h_out2[b * 32 + j], b * 100 + j * 3 + 1, "out2[%d] (device-malloc buffer copied by child)", b * 32 + j);
    EXPECT_EQ(h_post[b], -7 - b, "post[%d] written by parent after its launches", b);
    for (int j = 0; j < SEG; j++)
      EXPECT_EQ(h_in[b * SEG + j], (b + 1) * 1000 + j, "in[%d]", b * SEG + j);
  }
  return t_report();
}

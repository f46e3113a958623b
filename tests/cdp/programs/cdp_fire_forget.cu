// cudaStreamFireAndForget: several threads of two parent blocks each launch a
// fire-and-forget child; every fourth child launches a fire-and-forget
// grandchild.  None of these may be waited for directly, but
//  - the parent's tail-launched kernel must see all of them (children and
//    grandchildren) finished,
//  - the host sees all of them once the parent's launch completes, and
//  - the next host kernel in the same stream sees all of them too.
#include "common.h"

#define PB 2        // parent blocks
#define LPB 8       // launching threads per parent block
#define NCH (PB * LPB)
#define CT 64       // threads per child

__global__ void grandchild(int id, int *gout, int *gdone) {
  gout[id * CT + threadIdx.x] = id * 7 + threadIdx.x * 2;
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(gdone, 1);
}

__global__ void child(int id, int *out, int *gout, int *done, int *gdone, int *errs) {
  out[id * CT + threadIdx.x] = id * 1000 + threadIdx.x;
  if (threadIdx.x == 0) {
    if (id % 4 == 0) {
      grandchild<<<1, CT, 0, cudaStreamFireAndForget>>>(id / 4, gout, gdone);
      errs[NCH + id / 4] = cudaGetLastError();
    }
    atomicAdd(done, 1);
  }
}

__global__ void tail_check(int *out, int *gout, int *done, int *gdone, int *res) {
  // one block of 64 threads: count correct values
  __shared__ int okc, okg;
  if (threadIdx.x == 0) { okc = 0; okg = 0; }
  __syncthreads();
  for (int k = threadIdx.x; k < NCH * CT; k += blockDim.x)
    if (out[k] == (k / CT) * 1000 + k % CT) atomicAdd(&okc, 1);
  for (int k = threadIdx.x; k < (NCH / 4) * CT; k += blockDim.x)
    if (gout[k] == (k / CT) * 7 + (k % CT) * 2) atomicAdd(&okg, 1);
  __syncthreads();
  if (threadIdx.x == 0) { res[0] = *done; res[1] = *gdone; res[2] = okc; res[3] = okg; }
}

__global__ void parent(int *out, int *gout, int *done, int *gdone, int *errs, int *res) {
  if (threadIdx.x < LPB) {
    int id = blockIdx.x * LPB + threadIdx.x;
    child<<<1, CT, 0, cudaStreamFireAndForget>>>(id, out, gout, done, gdone, errs);
    errs[id] = cudaGetLastError();
  }
  if (blockIdx.x == 0 && threadIdx.x == 31) {
    tail_check<<<1, 64, 0, cudaStreamTailLaunch>>>(out, gout, done, gdone, res);
    errs[NCH + NCH / 4] = cudaGetLastError();
  }
}

__global__ void next_host_kernel(int *done, int *gdone, int *res) {
  res[4] = *done;
  res[5] = *gdone;
}

int main() {
  t_name = "cdp_fire_forget";
  int *out, *gout, *done, *gdone, *errs, *res;
  const int NERR = NCH + NCH / 4 + 1;
  CK(cudaMalloc(&out, NCH * CT * sizeof(int)));
  CK(cudaMalloc(&gout, NCH / 4 * CT * sizeof(int)));
  CK(cudaMalloc(&done, sizeof(int)));
  CK(cudaMalloc(&gdone, sizeof(int)));
  CK(cudaMalloc(&errs, NERR * sizeof(int)));
  CK(cudaMalloc(&res, 6 * sizeof(int)));
  CK(cudaMemset(out, 0xff, NCH * CT * sizeof(int)));
  CK(cudaMemset(gout, 0xff, NCH / 4 * CT * sizeof(int)));
  CK(cudaMemset(done, 0, sizeof(int)));
  CK(cudaMemset(gdone, 0, sizeof(int)));
  CK(cudaMemset(errs, 0x7f, NERR * sizeof(int)));
  CK(cudaMemset(res, 0xff, 6 * sizeof(int)));

  parent<<<PB, 32>>>(out, gout, done, gdone, errs, res);
  CK(cudaGetLastError());
  next_host_kernel<<<1, 1>>>(done, gdone, res);
  CK_LAUNCH();

  int h_out[NCH * CT], h_gout[NCH / 4 * CT], h_err[NERR], h_res[6];
  CK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_gout, gout, sizeof h_gout, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_err, errs, sizeof h_err, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_res, res, sizeof h_res, cudaMemcpyDeviceToHost));

  for (int k = 0; k < NERR; k++) EXPECT_EQ(h_err[k], cudaSuccess, "device launch #%d result", k);
  EXPECT_EQ(h_res[0], NCH, "tail kernel: fire-and-forget children finished");
  EXPECT_EQ(h_res[1], NCH / 4, "tail kernel: fire-and-forget grandchildren finished");
  EXPECT_EQ(h_res[2], NCH * CT, "tail kernel: correct child values seen");
  EXPECT_EQ(h_res[3], NCH / 4 * CT, "tail kernel: correct grandchild values seen");
  EXPECT_EQ(h_res[4], NCH, "next host kernel: children finished");
  EXPECT_EQ(h_res[5], NCH / 4, "next host kernel: grandchildren finished");
  for (int k = 0; k < NCH * CT; k++) EXPECT_EQ(h_out[k], (k / CT) * 1000 + k % CT, "out[%d]", k);
  for (int k = 0; k < NCH / 4 * CT; k++) EXPECT_EQ(h_gout[k], (k / CT) * 7 + (k % CT) * 2, "gout[%d]", k);
  return t_report();
}

// cudaStreamTailLaunch semantics.
// Parent P (NBLK blocks): every block launches W worker grids (NULL stream);
// each worker writes its slice, launches a grandchild, and tail-launches its
// own small kernel that summarises the worker's slice.  Block 2 also launches
// a fire-and-forget grid and a grid into a device-created stream, and blocks
// 1..3 write global memory AFTER block 0 has issued its tail launches.
// Block 0 tail-launches T1 (reduce), T2, T3; T3 tail-launches T4.
//  - T1 must see every worker's, grandchild's, worker-tail's, fire-and-forget's
//    and named-stream grid's writes, and the parent's late writes.
//  - T1..T4 must run in that order (tickets from a global counter), T2 sees T1's
//    result, T3 sees T2's and that of an ordinary child T2 launched.
//  - The host launches P2 right after P into the same stream without syncing;
//    P2 must run only after all of P's tail work (T4 included) is done.
#include "common.h"

#define NBLK 4
#define W 3
#define SEGW 64
#define NPART (NBLK * W * SEGW)

struct Bufs {
  int *part, *gpart, *wt, *late, *ff, *ns;
  long long *res;
  int *seq, *order, *errs;
};

__host__ __device__ inline int fval(int b, int w, int i) { return (b * 131 + w * 17 + i * 3) % 1000; }

__global__ void grandchild(Bufs B, int b, int w) {
  int i = threadIdx.x;
  B.gpart[(b * W + w) * SEGW + i] = fval(b, w, i) + 5;
}

__global__ void worker_tail(Bufs B, int b, int w) {   // one thread
  int s = 0;
  for (int i = 0; i < SEGW; i++) s += B.part[(b * W + w) * SEGW + i];
  B.wt[b * W + w] = s;
}

__global__ void worker(Bufs B, int b, int w) {        // 2 blocks x 32 threads
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  B.part[(b * W + w) * SEGW + i] = fval(b, w, i);
  if (i == 0) {
    grandchild<<<1, SEGW>>>(B, b, w);
    int e1 = cudaGetLastError();
    worker_tail<<<1, 1, 0, cudaStreamTailLaunch>>>(B, b, w);
    int e2 = cudaGetLastError();
    if (e1 || e2) atomicAdd(&B.errs[0], 1);
  }
}

__global__ void ff_grid(Bufs B) { B.ff[threadIdx.x] = threadIdx.x * 11; }
__global__ void ns_grid(Bufs B) { B.ns[threadIdx.x] = threadIdx.x * 13; }

__global__ void T1(Bufs B) {   // 1 block x 128 threads
  __shared__ long long s[8];
  if (threadIdx.x < 8) s[threadIdx.x] = 0;
  __syncthreads();
  long long a = 0, g = 0;
  for (int k = threadIdx.x; k < NPART; k += blockDim.x) { a += B.part[k]; g += B.gpart[k]; }
  atomicAdd((unsigned long long *)&s[0], (unsigned long long)a);
  atomicAdd((unsigned long long *)&s[1], (unsigned long long)g);
  if (threadIdx.x < NBLK * W) atomicAdd((unsigned long long *)&s[2], (unsigned long long)B.wt[threadIdx.x]);
  if (threadIdx.x < NBLK) atomicAdd((unsigned long long *)&s[3], (unsigned long long)B.late[threadIdx.x]);
  if (threadIdx.x < 32) {
    atomicAdd((unsigned long long *)&s[4], (unsigned long long)B.ff[threadIdx.x]);
    atomicAdd((unsigned long long *)&s[5], (unsigned long long)B.ns[threadIdx.x]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    B.order[0] = atomicAdd(B.seq, 1);
    for (int k = 0; k < 6; k++) B.res[k] = s[k];
  }
}

__global__ void T2child(Bufs B) { B.res[10] = 4242; }

__global__ void T2(Bufs B) {   // 1 thread; also launches an ordinary child
  B.order[1] = atomicAdd(B.seq, 1);
  B.res[6] = B.res[0] * 2 + 1;
  T2child<<<1, 1>>>(B);
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&B.errs[0], 1);
}

__global__ void T4(Bufs B) {
  B.order[3] = atomicAdd(B.seq, 1);
  B.res[8] = B.res[7] + 1000;
}

__global__ void T3(Bufs B) {   // 2 blocks x 32
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    B.order[2] = atomicAdd(B.seq, 1);
    B.res[7] = B.res[6] + 7;
    B.res[11] = B.res[10];      // T2's child must be done before T3 starts
    T4<<<1, 1, 0, cudaStreamTailLaunch>>>(B);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&B.errs[0], 1);
  }
}

__global__ void P(Bufs B) {    // NBLK blocks x 64 threads
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    for (int w = 0; w < W; w++) {
      worker<<<SEGW / 32, 32>>>(B, b, w);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&B.errs[0], 1);
    }
    if (b == 0) {
      T1<<<1, 128, 0, cudaStreamTailLaunch>>>(B);
      B.errs[1] = cudaGetLastError();
      T2<<<1, 1, 0, cudaStreamTailLaunch>>>(B);
      B.errs[2] = cudaGetLastError();
      T3<<<2, 32, 0, cudaStreamTailLaunch>>>(B);
      B.errs[3] = cudaGetLastError();
      __threadfence();
      atomicExch(&B.errs[7], 1);   // "tail launches issued"
    }
    if (b == 2) {
      ff_grid<<<1, 32, 0, cudaStreamFireAndForget>>>(B);
      B.errs[4] = cudaGetLastError();
      cudaStream_t s;
      B.errs[5] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      ns_grid<<<1, 32, 0, s>>>(B);
      B.errs[6] = cudaGetLastError();
      cudaStreamDestroy(s);
    }
  }
  __syncthreads();
  // Late writes, after block 0's tail launches were issued (for block 0 by
  // program order; for other blocks at whatever time they run).
  if (threadIdx.x == 63) B.late[b] = 100 + b;
}

__global__ void P2(Bufs B) {
  B.res[9] = B.res[8];
  B.order[4] = atomicAdd(B.seq, 1);
}

int main() {
  t_name = "cdp_tail";
  Bufs B;
  CK(cudaMalloc(&B.part, NPART * sizeof(int)));
  CK(cudaMalloc(&B.gpart, NPART * sizeof(int)));
  CK(cudaMalloc(&B.wt, NBLK * W * sizeof(int)));
  CK(cudaMalloc(&B.late, NBLK * sizeof(int)));
  CK(cudaMalloc(&B.ff, 32 * sizeof(int)));
  CK(cudaMalloc(&B.ns, 32 * sizeof(int)));
  CK(cudaMalloc(&B.res, 12 * sizeof(long long)));
  CK(cudaMalloc(&B.seq, sizeof(int)));
  CK(cudaMalloc(&B.order, 5 * sizeof(int)));
  CK(cudaMalloc(&B.errs, 8 * sizeof(int)));
  CK(cudaMemset(B.part, 0, NPART * sizeof(int)));
  CK(cudaMemset(B.gpart, 0, NPART * sizeof(int)));
  CK(cudaMemset(B.wt, 0, NBLK * W * sizeof(int)));
  CK(cudaMemset(B.late, 0, NBLK * sizeof(int)));
  CK(cudaMemset(B.ff, 0, 32 * sizeof(int)));
  CK(cudaMemset(B.ns, 0, 32 * sizeof(int)));
  CK(cudaMemset(B.res, 0xff, 12 * sizeof(long long)));
  CK(cudaMemset(B.seq, 0, sizeof(int)));
  CK(cudaMemset(B.order, 0xff, 5 * sizeof(int)));
  CK(cudaMemset(B.errs, 0, 8 * sizeof(int)));

  P<<<NBLK, 64>>>(B);
  CK(cudaGetLastError());
  P2<<<1, 1>>>(B);      // same (legacy default) stream, no host sync in between
  CK_LAUNCH();

  long long res[12];
  int order[5], errs[8];
  CK(cudaMemcpy(res, B.res, sizeof res, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(order, B.order, sizeof order, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(errs, B.errs, sizeof errs, cudaMemcpyDeviceToHost));

  long long sp = 0, sg = 0, swt = 0, sl = 0, sff = 0, sns = 0;
  for (int b = 0; b < NBLK; b++)
    for (int w = 0; w < W; w++)
      for (int i = 0; i < SEGW; i++) { sp += fval(b, w, i); sg += fval(b, w, i) + 5; swt += fval(b, w, i); }
  for (int b = 0; b < NBLK; b++) sl += 100 + b;
  for (int i = 0; i < 32; i++) { sff += i * 11; sns += i * 13; }

  EXPECT_EQ(errs[0], 0, "device launches (workers/grandchildren/worker tails/T4) that failed");
  for (int k = 1; k <= 6; k++) EXPECT_EQ(errs[k], cudaSuccess, "device API result #%d in P", k);
  EXPECT_EQ(errs[7], 1, "block 0 reached the end of its launches");
  EXPECT_EQ(res[0], sp, "T1: sum of all workers' slices (tail saw every child's writes)");
  EXPECT_EQ(res[1], sg, "T1: sum of grandchildren's slices (tail waits for descendants)");
  EXPECT_EQ(res[2], swt, "T1: sum of the workers' own tail-launched results (a child's completion includes its tail launches)");
  EXPECT_EQ(res[3], sl, "T1: parent's writes made after the tail launch was issued");
  EXPECT_EQ(res[4], sff, "T1: fire-and-forget grid's writes");
  EXPECT_EQ(res[5], sns, "T1: named-stream grid's writes");
  EXPECT_EQ(res[6], sp * 2 + 1, "T2: saw T1's result");
  EXPECT_EQ(res[7], sp * 2 + 8, "T3: saw T2's result");
  EXPECT_EQ(res[10], 4242, "T2's ordinary child ran");
  EXPECT_EQ(res[11], 4242, "T3: saw the write of T2's child (a tail grid waits for the previous tail grid's descendants)");
  EXPECT_EQ(res[8], sp * 2 + 1008, "T4 (tail launch of a tail-launched grid): saw T3's result");
  EXPECT_EQ(res[9], sp * 2 + 1008, "host's next kernel P2: saw T4's result (tail work finishes before the next grid in the parent's stream)");
  for (int k = 0; k < 5; k++)
    EXPECT_EQ(order[k], k, "ticket of %s", k < 4 ? (k == 0 ? "T1" : k == 1 ? "T2" : k == 2 ? "T3" : "T4") : "P2");
  return t_report();
}

// Stream ordering of device launches.
// A. Per-block NULL stream: thread 0 of each block launches A then B; B must
//    see all of A's writes.  After __syncthreads another thread (7) of the same
//    block launches C into the NULL stream; C must see B's writes (the NULL
//    stream is shared by all threads of a block).  Thread 0 also launches a
//    chain of 5 one-thread kernels x = x*3 + k whose result depends on order.
// B. A named stream created by one thread (kept in shared memory) and used by
//    two other threads of the block, ordered by __syncthreads: in-order.
// C. Events: E1 into stream s1, cudaEventRecord(e, s1),
//    cudaStreamWaitEvent(s2, e), E2 into s2: E2 must see E1's writes.
#include "common.h"

#define NB 4
#define M 64

__global__ void kA(int b, int *buf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[b * M + i] = b * 100 + i;
}
__global__ void kB(int b, const int *buf, int *out, int *bad) {
  int i = threadIdx.x;
  int v = buf[b * M + i];
  if (v != b * 100 + i) atomicAdd(&bad[b], 1);
  out[b * M + i] = v + 1;
}
__global__ void kC(int b, const int *out, int *out2, int *bad) {
  int i = threadIdx.x;
  int v = out[b * M + i];
  if (v != b * 100 + i + 1) atomicAdd(&bad[NB + b], 1);
  out2[b * M + i] = v * 2;
}
__global__ void kchain(int *x, int k) { *x = *x * 3 + k; }

__global__ void kD1(int *nbuf) { nbuf[threadIdx.x] = threadIdx.x * 5 + 1; }
__global__ void kD2(const int *nbuf, int *nout, int *bad) {
  int v = nbuf[threadIdx.x];
  if (v != threadIdx.x * 5 + 1) atomicAdd(bad, 1);
  nout[threadIdx.x] = v + 2;
}
__global__ void kE1(int *ebuf) { ebuf[threadIdx.x] = threadIdx.x * 9 + 4; }
__global__ void kE2(const int *ebuf, int *eout, int *bad) {
  int v = ebuf[threadIdx.x];
  if (v != threadIdx.x * 9 + 4) atomicAdd(bad, 1);
  eout[threadIdx.x] = v - 4;
}

struct Bufs { int *buf, *out, *out2, *bad, *chain, *nbuf, *nout, *ebuf, *eout, *api; };

__global__ void parent(Bufs p) {
  int b = blockIdx.x;
  __shared__ cudaStream_t ns;
  if (threadIdx.x == 0) {
    kA<<<2, M / 2>>>(b, p.buf);
    if (cudaGetLastError()) atomicAdd(&p.api[0], 1);
    kB<<<1, M>>>(b, p.buf, p.out, p.bad);
    if (cudaGetLastError()) atomicAdd(&p.api[0], 1);
    for (int k = 1; k <= 5; k++) {
      kchain<<<1, 1>>>(&p.chain[b], k + b);
      if (cudaGetLastError()) atomicAdd(&p.api[0], 1);
    }
  }
  if (b == 0 && threadIdx.x == 3) {
    cudaStream_t s;
    p.api[1] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    ns = s;
  }
  __syncthreads();
  if (threadIdx.x == 7) {
    kC<<<1, M>>>(b, p.out, p.out2, p.bad);
    if (cudaGetLastError()) atomicAdd(&p.api[0], 1);
  }
  if (b == 0 && threadIdx.x == 5) {
    kD1<<<1, M, 0, ns>>>(p.nbuf);
    p.api[2] = cudaGetLastError();
  }
  __syncthreads();
  if (b == 0 && threadIdx.x == 9) {
    kD2<<<1, M, 0, ns>>>(p.nbuf, p.nout, &p.bad[2 * NB]);
    p.api[3] = cudaGetLastError();
    p.api[4] = cudaStreamDestroy(ns);
  }
  if (b == 1 && threadIdx.x == 0) {
    cudaStream_t s1, s2;
    cudaEvent_t e;
    p.api[5] = cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    p.api[6] = cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    p.api[7] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    kE1<<<1, M, 0, s1>>>(p.ebuf);
    p.api[8] = cudaGetLastError();
    p.api[9] = cudaEventRecord(e, s1);
    p.api[10] = cudaStreamWaitEvent(s2, e, 0);
    kE2<<<1, M, 0, s2>>>(p.ebuf, p.eout, &p.bad[2 * NB + 1]);
    p.api[11] = cudaGetLastError();
    p.api[12] = cudaEventDestroy(e);
    p.api[13] = cudaStreamDestroy(s1);
    p.api[14] = cudaStreamDestroy(s2);
  }
}

int main() {
  t_name = "cdp_stream_order";
  Bufs p;
  CK(cudaMalloc(&p.buf, NB * M * sizeof(int)));
  CK(cudaMalloc(&p.out, NB * M * sizeof(int)));
  CK(cudaMalloc(&p.out2, NB * M * sizeof(int)));
  CK(cudaMalloc(&p.bad, (2 * NB + 2) * sizeof(int)));
  CK(cudaMalloc(&p.chain, NB * sizeof(int)));
  CK(cudaMalloc(&p.nbuf, M * sizeof(int)));
  CK(cudaMalloc(&p.nout, M * sizeof(int)));
  CK(cudaMalloc(&p.ebuf, M * sizeof(int)));
  CK(cudaMalloc(&p.eout, M * sizeof(int)));
  CK(cudaMalloc(&p.api, 15 * sizeof(int)));
  CK(cudaMemset(p.buf, 0, NB * M * sizeof(int)));
  CK(cudaMemset(p.out, 0, NB * M * sizeof(int)));
  CK(cudaMemset(p.out2, 0, NB * M * sizeof(int)));
  CK(cudaMemset(p.bad, 0, (2 * NB + 2) * sizeof(int)));
  int ones[NB] = {1, 1, 1, 1};
  CK(cudaMemcpy(p.chain, ones, sizeof ones, cudaMemcpyHostToDevice));
  CK(cudaMemset(p.nbuf, 0, M * sizeof(int)));
  CK(cudaMemset(p.nout, 0, M * sizeof(int)));
  CK(cudaMemset(p.ebuf, 0, M * sizeof(int)));
  CK(cudaMemset(p.eout, 0, M * sizeof(int)));
  CK(cudaMemset(p.api, 0, 15 * sizeof(int)));

  parent<<<NB, 32>>>(p);
  CK_LAUNCH();

  int out2[NB * M], bad[2 * NB + 2], chain[NB], nout[M], eout[M], api[15];
  CK(cudaMemcpy(out2, p.out2, sizeof out2, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(bad, p.bad, sizeof bad, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(chain, p.chain, sizeof chain, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(nout, p.nout, sizeof nout, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(eout, p.eout, sizeof eout, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(api, p.api, sizeof api, cudaMemcpyDeviceToHost));

  EXPECT_EQ(api[0], 0, "NULL-stream launches that returned an error");
  for (int k = 1; k < 15; k++) EXPECT_EQ(api[k], cudaSuccess, "device API call #%d (streams/events part)", k);
  for (int b = 0; b < NB; b++) {
    EXPECT_EQ(bad[b], 0, "block %d: elements B read before A had written them (NULL stream order, same thread)", b);
    EXPECT_EQ(bad[NB + b], 0, "block %d: elements C read before B had written them (NULL stream order, other thread)", b);
    int x = 1;
    for (int k = 1; k <= 5; k++) x = x * 3 + k + b;
    EXPECT_EQ(chain[b], x, "block %d: order-dependent chain of 5 NULL-stream kernels", b);
    for (int i = 0; i < M; i++) EXPECT_EQ(out2[b * M + i], (b * 100 + i + 1) * 2, "out2[%d]", b * M + i);
  }
  EXPECT_EQ(bad[2 * NB], 0, "named stream: elements D2 read before D1 had written them");
  EXPECT_EQ(bad[2 * NB + 1], 0, "event wait: elements E2 read before E1 had written them");
  for (int i = 0; i < M; i++) {
    EXPECT_EQ(nout[i], i * 5 + 3, "nout[%d]", i);
    EXPECT_EQ(eout[i], i * 9, "eout[%d]", i);
  }
  return t_report();
}

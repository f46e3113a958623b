// Recursive merge sort where the merge of two halves is tail-launched:
//   msort(lo,hi): launch msort on each half, then merge<<<..., cudaStreamTailLaunch>>>.
// The merge may only start once both child grids AND everything they launched
// (their own tail-launched merges included) have completed; each merge checks
// that both of its input halves are already sorted and counts violations.
// Children go to different kinds of streams depending on depth: fire-and-forget,
// the block's NULL stream, and a device-created named stream.
#include "common.h"
#include <algorithm>
#include <vector>

#define N 3000
#define SMALL 48

enum { ST_SORTS, ST_MERGES, ST_BADINPUT, ST_ERR, ST_N };

__host__ __device__ inline void insertion(int *a, int lo, int hi) {  // [lo,hi)
  for (int i = lo + 1; i < hi; i++) {
    int v = a[i], j = i - 1;
    while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

__global__ void merge_k(int *a, int *tmp, int lo, int mid, int hi, int *st) {
  __shared__ int bad;
  if (threadIdx.x == 0) {
    bad = 0;
    for (int k = lo + 1; k < mid; k++) if (a[k - 1] > a[k]) bad = 1;
    for (int k = mid + 1; k < hi; k++) if (a[k - 1] > a[k]) bad = 1;
    if (bad) atomicAdd(&st[ST_BADINPUT], 1);
    atomicAdd(&st[ST_MERGES], 1);
    int i = lo, j = mid, o = lo;
    while (i < mid && j < hi) tmp[o++] = a[j] < a[i] ? a[j++] : a[i++];
    while (i < mid) tmp[o++] = a[i++];
    while (j < hi) tmp[o++] = a[j++];
  }
  __syncthreads();
  for (int k = lo + threadIdx.x; k < hi; k += blockDim.x) a[k] = tmp[k];
}

__global__ void msort_k(int *a, int *tmp, int lo, int hi, int depth, int *st) {
  atomicAdd(&st[ST_SORTS], 1);
  if (hi - lo <= SMALL) { insertion(a, lo, hi); return; }
  int mid = lo + (hi - lo) / 2;
  cudaError_t e1, e2, e3;
  if (depth % 2 == 0) {
    msort_k<<<1, 1, 0, cudaStreamFireAndForget>>>(a, tmp, lo, mid, depth + 1, st);
    e1 = cudaGetLastError();
    msort_k<<<1, 1, 0, cudaStreamFireAndForget>>>(a, tmp, mid, hi, depth + 1, st);
    e2 = cudaGetLastError();
  } else {
    msort_k<<<1, 1>>>(a, tmp, lo, mid, depth + 1, st);
    e1 = cudaGetLastError();
    cudaStream_t s;
    e2 = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (e2 == cudaSuccess) {
      msort_k<<<1, 1, 0, s>>>(a, tmp, mid, hi, depth + 1, st);
      e2 = cudaGetLastError();
      if (e2 == cudaSuccess) e2 = cudaStreamDestroy(s);
    }
  }
  merge_k<<<1, 32, 0, cudaStreamTailLaunch>>>(a, tmp, lo, mid, hi, st);
  e3 = cudaGetLastError();
  if (e1 != cudaSuccess || e2 != cudaSuccess || e3 != cudaSuccess) atomicAdd(&st[ST_ERR], 1);
}

static void cpu_count(int lo, int hi, int *sorts, int *merges) {
  (*sorts)++;
  if (hi - lo <= SMALL) return;
  int mid = lo + (hi - lo) / 2;
  cpu_count(lo, mid, sorts, merges);
  cpu_count(mid, hi, sorts, merges);
  (*merges)++;
}

int main() {
  t_name = "cdp_mergesort";
  std::vector<int> a(N);
  unsigned s = 777;
  for (int k = 0; k < N; k++) { s = s * 1103515245u + 12345u; a[k] = (int)((s >> 9) % 100000) - 50000; }
  int *d, *tmp, *st;
  CK(cudaMalloc(&d, N * sizeof(int)));
  CK(cudaMalloc(&tmp, N * sizeof(int)));
  CK(cudaMalloc(&st, ST_N * sizeof(int)));
  CK(cudaMemcpy(d, a.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(st, 0, ST_N * sizeof(int)));
  msort_k<<<1, 1>>>(d, tmp, 0, N, 0, st);
  CK_LAUNCH();
  std::vector<int> got(N);
  int h_st[ST_N];
  CK(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_st, st, sizeof h_st, cudaMemcpyDeviceToHost));
  std::sort(a.begin(), a.end());
  int sorts = 0, merges = 0;
  cpu_count(0, N, &sorts, &merges);
  EXPECT_EQ(h_st[ST_ERR], 0, "grids with a failed device launch / stream call");
  EXPECT_EQ(h_st[ST_BADINPUT], 0, "merges that started before their halves were sorted (tail launch ran too early)");
  EXPECT_EQ(h_st[ST_SORTS], sorts, "msort grids that ran");
  EXPECT_EQ(h_st[ST_MERGES], merges, "tail-launched merges that ran");
  int bad = 0, first = -1;
  for (int k = 0; k < N; k++) if (got[k] != a[k]) { if (first < 0) first = k; bad++; }
  if (bad) t_fail("%d of %d elements differ from std::sort, first at [%d]: %d vs %d", bad, N, first, got[first], a[first]);
  return t_report();
}

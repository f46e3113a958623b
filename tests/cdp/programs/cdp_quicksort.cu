// Recursive quicksort with dynamic parallelism: each grid (one thread)
// partitions its range, creates two device-side non-blocking streams and
// launches one child per half, then destroys the streams at once.  Small
// ranges, or ranges at the depth limit, are insertion-sorted in place.
// The CPU runs the same recursion, so the number of grids, of leaves and the
// deepest level must match exactly; the result must equal std::sort's.
#include "common.h"
#include <algorithm>
#include <vector>

#define N 4096
#define SMALL 32

enum { ST_GRIDS, ST_LEAVES, ST_MAXDEPTH, ST_LAUNCHERR, ST_STREAMERR, ST_N };

__host__ __device__ inline void insertion(int *a, int lo, int hi) {
  for (int i = lo + 1; i <= hi; i++) {
    int v = a[i], j = i - 1;
    while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

__host__ __device__ inline int med3(int x, int y, int z) {
  if (x > y) { int t = x; x = y; y = t; }
  if (y > z) { y = z; }
  return x > y ? x : y;
}

// Hoare partition around the median of three; afterwards [lo,j] <= p,
// [i,hi] >= p and everything strictly between j and i equals p.
__host__ __device__ inline void partition(int *a, int lo, int hi, int *pi, int *pj) {
  int p = med3(a[lo], a[lo + (hi - lo) / 2], a[hi]);
  int i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) i++;
    while (a[j] > p) j--;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
  }
  *pi = i; *pj = j;
}

__global__ void qsort_k(int *a, int lo, int hi, int depth, int maxdepth, int *st) {
  atomicAdd(&st[ST_GRIDS], 1);
  atomicMax(&st[ST_MAXDEPTH], depth);
  if (hi - lo + 1 <= SMALL || depth >= maxdepth) {
    insertion(a, lo, hi);
    atomicAdd(&st[ST_LEAVES], 1);
    return;
  }
  int i, j;
  partition(a, lo, hi, &i, &j);
  cudaStream_t s1, s2;
  if (cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) != cudaSuccess ||
      cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) != cudaSuccess) {
    atomicAdd(&st[ST_STREAMERR], 1);
    return;
  }
  if (lo < j) {
    qsort_k<<<1, 1, 0, s1>>>(a, lo, j, depth + 1, maxdepth, st);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&st[ST_LAUNCHERR], 1);
  }
  if (i < hi) {
    qsort_k<<<1, 1, 0, s2>>>(a, i, hi, depth + 1, maxdepth, st);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&st[ST_LAUNCHERR], 1);
  }
  if (cudaStreamDestroy(s1) != cudaSuccess) atomicAdd(&st[ST_STREAMERR], 1);
  if (cudaStreamDestroy(s2) != cudaSuccess) atomicAdd(&st[ST_STREAMERR], 1);
}

static void cpu_qsort(int *a, int lo, int hi, int depth, int maxdepth, int *st) {
  st[ST_GRIDS]++;
  st[ST_MAXDEPTH] = std::max(st[ST_MAXDEPTH], depth);
  if (hi - lo + 1 <= SMALL || depth >= maxdepth) { insertion(a, lo, hi); st[ST_LEAVES]++; return; }
  int i, j;
  partition(a, lo, hi, &i, &j);
  if (lo < j) cpu_qsort(a, lo, j, depth + 1, maxdepth, st);
  if (i < hi) cpu_qsort(a, i, hi, depth + 1, maxdepth, st);
}

static void run_case(const char *what, std::vector<int> data, int maxdepth) {
  int *d, *st;
  CK(cudaMalloc(&d, N * sizeof(int)));
  CK(cudaMalloc(&st, ST_N * sizeof(int)));
  CK(cudaMemcpy(d, data.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(st, 0, ST_N * sizeof(int)));
  qsort_k<<<1, 1>>>(d, 0, N - 1, 0, maxdepth, st);
  CK_LAUNCH();
  std::vector<int> got(N);
  int h_st[ST_N];
  CK(cudaMemcpy(got.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_st, st, sizeof h_st, cudaMemcpyDeviceToHost));

  std::vector<int> ref = data, sorted = data;
  int r_st[ST_N] = {0};
  cpu_qsort(ref.data(), 0, N - 1, 0, maxdepth, r_st);
  std::sort(sorted.begin(), sorted.end());
  if (ref != sorted) t_fail("%s: host reference itself is wrong (test bug)", what);

  EXPECT_EQ(h_st[ST_STREAMERR], 0, "%s: device cudaStreamCreateWithFlags/Destroy failures", what);
  EXPECT_EQ(h_st[ST_LAUNCHERR], 0, "%s: device launches that returned an error", what);
  EXPECT_EQ(h_st[ST_GRIDS], r_st[ST_GRIDS], "%s: grids that ran", what);
  EXPECT_EQ(h_st[ST_LEAVES], r_st[ST_LEAVES], "%s: leaf grids", what);
  EXPECT_EQ(h_st[ST_MAXDEPTH], r_st[ST_MAXDEPTH], "%s: deepest level", what);
  int bad = 0, first = -1;
  for (int k = 0; k < N; k++)
    if (got[k] != sorted[k]) { if (first < 0) first = k; bad++; }
  if (bad)
    t_fail("%s: %d of %d elements differ from std::sort, first at [%d]: %d vs %d", what,
           bad, N, first, got[first], sorted[first]);
  CK(cudaFree(d));
  CK(cudaFree(st));
}

int main() {
  t_name = "cdp_quicksort";
  std::vector<int> a(N);
  unsigned s = 12345;
  for (int k = 0; k < N; k++) { s = s * 1664525u + 1013904223u; a[k] = (int)(s >> 8) - (1 << 23); }
  run_case("random", a, 16);
  for (int k = 0; k < N; k++) { s = s * 1664525u + 1013904223u; a[k] = (s >> 16) % 7; }
  run_case("few distinct values", a, 16);
  for (int k = 0; k < N; k++) a[k] = N - k;
  run_case("descending", a, 16);
  for (int k = 0; k < N; k++) { s = s * 1664525u + 1013904223u; a[k] = (int)(s >> 4); }
  run_case("random, depth limit 3", a, 3);
  return t_report();
}

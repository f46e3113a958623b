// Recursion: a kernel launches itself (two children per grid) down to depth
// MAXD, a complete binary tree of 2^(MAXD+1)-1 grids numbered like a heap.
// The grid shape changes with depth; every thread of every grid counts itself,
// so a grid that ran with the wrong shape, twice, or not at all shows up.
// Each child derives its value from the value its parent wrote just before
// launching it (parent-to-child visibility down the whole chain).
#include "common.h"

#define MAXD 7
#define NNODES ((1 << (MAXD + 1)) - 1)

__host__ __device__ inline int nblocks(int depth) { return depth % 2 + 1; }
__host__ __device__ inline int nthreads(int depth) { return 32 * (depth % 3 + 1); }

__global__ void node(int depth, int id, int *val, int *visits, int *errs,
                     int *seen_depth) {
  atomicAdd(&visits[id], 1);
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  int parent = (id - 1) / 2;
  int v = id == 0 ? 1 : (int)(((long long)val[parent] * 3 + id) % 1000003);
  val[id] = v;
  seen_depth[id] = depth;
  if (depth < MAXD) {
    int d = depth + 1;
    node<<<nblocks(d), nthreads(d)>>>(d, 2 * id + 1, val, visits, errs, seen_depth);
    errs[2 * id + 1] = cudaGetLastError();
    node<<<nblocks(d), nthreads(d)>>>(d, 2 * id + 2, val, visits, errs, seen_depth);
    errs[2 * id + 2] = cudaGetLastError();
  }
}

int main() {
  t_name = "cdp_recursive_tree";
  int *val, *visits, *errs, *sd;
  CK(cudaMalloc(&val, NNODES * sizeof(int)));
  CK(cudaMalloc(&visits, NNODES * sizeof(int)));
  CK(cudaMalloc(&errs, NNODES * sizeof(int)));
  CK(cudaMalloc(&sd, NNODES * sizeof(int)));
  CK(cudaMemset(val, 0xff, NNODES * sizeof(int)));
  CK(cudaMemset(visits, 0, NNODES * sizeof(int)));
  CK(cudaMemset(errs, 0, NNODES * sizeof(int)));
  CK(cudaMemset(sd, 0xff, NNODES * sizeof(int)));

  node<<<nblocks(0), nthreads(0)>>>(0, 0, val, visits, errs, sd);
  CK_LAUNCH();

  static int h_val[NNODES], h_vis[NNODES], h_err[NNODES], h_sd[NNODES];
  CK(cudaMemcpy(h_val, val, sizeof h_val, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_vis, visits, sizeof h_vis, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_err, errs, sizeof h_err, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_sd, sd, sizeof h_sd, cudaMemcpyDeviceToHost));

  static int ref[NNODES];
  int per_depth[MAXD + 1] = {0};
  for (int id = 0; id < NNODES; id++) {
    int depth = 0;
    for (int k = id; k > 0; k = (k - 1) / 2) depth++;
    ref[id] = id == 0 ? 1 : (int)(((long long)ref[(id - 1) / 2] * 3 + id) % 1000003);
    EXPECT_EQ(h_err[id], cudaSuccess, "node %d: launch error (%s)", id, errname(h_err[id]));
    EXPECT_EQ(h_vis[id], nblocks(depth) * nthreads(depth), "node %d (depth %d): threads that ran", id, depth);
    EXPECT_EQ(h_sd[id], depth, "node %d: depth argument seen", id);
    EXPECT_EQ(h_val[id], ref[id], "node %d (depth %d): value", id, depth);
    if (h_vis[id] > 0) per_depth[depth]++;
  }
  for (int d = 0; d <= MAXD; d++)
    EXPECT_EQ(per_depth[d], 1 << d, "grids that ran at depth %d", d);
  return t_report();
}

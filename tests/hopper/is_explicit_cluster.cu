// Minimal repro: %is_explicit_cluster must be true in a cluster launch (PTX ISA: "whether the
// cluster launch is explicitly specified by user"), false in an ordinary launch.
#include <cstdio>
__device__ int rd() { unsigned v; asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v)); return v; }
__global__ void __cluster_dims__(2, 1, 1) kdims(int* o) { if (threadIdx.x == 0 && blockIdx.x == 0) o[0] = rd(); }
__global__ void kattr(int* o) { if (threadIdx.x == 0 && blockIdx.x == 0) o[1] = rd(); }
__global__ void kplain(int* o) { if (threadIdx.x == 0 && blockIdx.x == 0) o[2] = rd(); }
int main() {
  int* d; cudaMalloc(&d, 12); cudaMemset(d, 0xff, 12);
  kdims<<<2, 32>>>(d);
  cudaLaunchConfig_t cfg = {}; cfg.gridDim = 2; cfg.blockDim = 32;
  cudaLaunchAttribute a; a.id = cudaLaunchAttributeClusterDimension; a.val.clusterDim.x = 2; a.val.clusterDim.y = 1; a.val.clusterDim.z = 1;
  cfg.attrs = &a; cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, kattr, d);
  kplain<<<2, 32>>>(d);
  int h[3]; cudaMemcpy(h, d, 12, cudaMemcpyDeviceToHost);
  printf("__cluster_dims__: %d (want 1)  launch attribute: %d (want 1)  no cluster: %d (want 0)\n", h[0], h[1], h[2]);
  printf("%s\n", h[0] == 1 && h[1] == 1 && h[2] == 0 ? "PASS" : "FAIL");
  return !(h[0] == 1 && h[1] == 1 && h[2] == 0);
}

// Minimal repro: setmaxnreg (PTX ISA 8.0, sm_90a) makes ptxsim refuse the whole module.
// Warpgroup 0 releases registers (dec 40), warpgroup 1 takes more (inc 232); each thread then writes
// its index.  Expected: PASS.  Functionally setmaxnreg changes no values.
#include <cstdio>
__global__ void __launch_bounds__(256, 1) k(int* o) {
  if (threadIdx.x < 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  o[threadIdx.x] = threadIdx.x;
}
int main() {
  int* d; cudaMalloc(&d, 1024); cudaMemset(d, 0xff, 1024);
  k<<<1, 256>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  int h[256]; cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost);
  int bad = 0; for (int i = 0; i < 256; i++) bad += h[i] != i;
  printf("%s setmaxnreg: launch %s, %d wrong\n", e == cudaSuccess && !bad ? "PASS" : "FAIL", cudaGetErrorString(e), bad);
  return e != cudaSuccess || bad;
}

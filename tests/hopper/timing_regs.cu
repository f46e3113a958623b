// Repro: in timing mode a kernel's register count (which sets occupancy) comes from the program's
// cubin only if the program queried a function attribute first; a plain launch gets "no machine
// code: registers estimated from the PTX's N" although the fat binary carries an sm_90a cubin.
// Run: ptxsim run --mode timing --config h100 -- ./timing_regs [query]
#include <cstdio>
#include <cstring>
__global__ void k(float* p) {
  float a[24];
  for (int i = 0; i < 24; i++) a[i] = p[i * 32 + threadIdx.x];
  float s = 0;
  for (int i = 0; i < 24; i++) s += a[i] * a[(i * 7) % 24];
  p[threadIdx.x] = s;
}
int main(int argc, char** argv) {
  float* d; cudaMalloc(&d, 4096); cudaMemset(d, 0, 4096);
  if (argc > 1 && !strcmp(argv[1], "query")) {
    cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, k);
    printf("cudaFuncGetAttributes: numRegs %d\n", fa.numRegs);
  }
  k<<<1320, 256>>>(d);  // 10 blocks per SM: occupancy depends on the register count
  printf("%s\n", cudaDeviceSynchronize() == cudaSuccess ? "launched" : "launch failed");
}

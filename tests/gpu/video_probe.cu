// tests/gpu/video_probe.cu -- the scalar video forms video_forms leaves open (u32 .sat
// with signed sources, unsigned vshl with .min/.max, vabsdiff into an unsigned dtype,
// shifts and vmin/vmax into a byte or half-word), on eight inputs each; an H200's
// answers are tests/gpu/h200-video-probe.txt (gpu.video_probe.h200).
#include <cstdio>
#include <cstdint>
#define F(name, text) \
__global__ void name(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d, int n) { \
  int i = threadIdx.x; if (i < n) { uint32_t r; asm volatile(text : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(c[i])); d[i] = r; } }
F(k0, "vadd.u32.u32.s32.sat %0, %1, %2;")
F(k1, "vsub.u32.u32.s32.sat %0, %1, %2;")
F(k2, "vadd.u32.s32.u32.sat %0, %1, %2;")
F(k3, "vsub.u32.u32.u32.sat %0, %1, %2;")
F(k4, "vshl.u32.u32.u32.wrap.min %0, %1, %2, %3;")
F(k5, "vshl.u32.u32.u32.clamp.max %0, %1, %2, %3;")
F(k6, "vabsdiff.u32.s32.s32.min %0, %1, %2, %3;")
F(k7, "vabsdiff.u32.s32.s32.max %0, %1, %2, %3;")
F(k8, "vshl.u32.u32.u32.wrap %0.b0, %1, %2, %3;")
F(k9, "vshr.s32.s32.u32.wrap %0.h1, %1, %2, %3;")
F(k10, "vmin.s32.s32.s32.sat %0.b0, %1, %2, %3;")
F(k11, "vmax.u32.u32.u32.sat %0.h1, %1, %2, %3;")
typedef void (*K)(const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *, int);
int main() {
  const char *names[] = {"vadd.u32.u32.s32.sat", "vsub.u32.u32.s32.sat", "vadd.u32.s32.u32.sat", "vsub.u32.u32.u32.sat",
    "vshl.u32.u32.u32.wrap.min", "vshl.u32.u32.u32.clamp.max", "vabsdiff.u32.s32.s32.min", "vabsdiff.u32.s32.s32.max",
    "vshl.u32.u32.u32.wrap d.b0", "vshr.s32.s32.u32.wrap d.h1", "vmin.s32.s32.s32.sat d.b0", "vmax.u32.u32.u32.sat d.h1"};
  K ks[] = {k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11};
  const int n = 8;
  uint32_t A[n] = {0xffffffffu, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x5c615c89u, 0x00000001u, 0xfffffffeu, 0x12345678u};
  uint32_t B[n] = {0x7fffffffu, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x00000006u, 0x0000001fu, 0x00000002u, 0x87654321u};
  uint32_t C[n] = {0x00000001u, 0xfffffffeu, 0x11223344u, 0x80000001u, 0x12345678u, 0x7fffffffu, 0x00000003u, 0x55667788u};
  uint32_t *dA, *dB, *dC, *dD, D[n];
  cudaMalloc(&dA, 4 * n); cudaMalloc(&dB, 4 * n); cudaMalloc(&dC, 4 * n); cudaMalloc(&dD, 4 * n);
  cudaMemcpy(dA, A, 4 * n, cudaMemcpyHostToDevice); cudaMemcpy(dB, B, 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C, 4 * n, cudaMemcpyHostToDevice);
  for (int k = 0; k < 12; k++) {
    ks[k]<<<1, 32>>>(dA, dB, dC, dD, n);
    cudaError_t e = cudaMemcpy(D, dD, 4 * n, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
      printf("%s a=%08x b=%08x c=%08x: %08x%s\n", names[k], A[i], B[i], C[i], D[i], e ? " ERROR" : "");
  }
  return 0;
}

// Launch configuration and arguments of device-side launches:
//  - a child with dynamic shared memory (12000 bytes) next to static shared
//    memory, and a child with 80 KiB of dynamic shared memory, allowed by
//    cudaFuncSetAttribute on the host (per-kernel settings made on the host
//    apply to launches from the device too);
//  - by-value struct arguments larger than 64 bytes (232 bytes and 1 KiB)
//    built at run time in the parent, and a parameter list mixing char,
//    double, short, long long, float4, int, unsigned char and int2, which
//    exercises the parameter buffer's alignment rules;
//  - templated child kernels (float and double instances);
//  - a launch made by hand with cudaGetParameterBuffer + cudaLaunchDevice,
//    the documented API under <<<>>> (parameters at naturally aligned offsets).
#include "common.h"

#define NSM 3000                 // ints of dynamic shared memory (12000 bytes)
#define BIGSM (80 * 1024)        // bytes

struct Big {
  int a[50];
  double d;
  char tag[20];
  short s;
};
struct Huge { int v[256]; };

__global__ void child_smem(int b, int *out) {
  extern __shared__ int sm[];
  __shared__ int fixed[32];
  if (threadIdx.x < 32) fixed[threadIdx.x] = threadIdx.x * 1000 + b;
  for (int k = threadIdx.x; k < NSM; k += blockDim.x) sm[k] = k * 7 + blockIdx.x + b * 3;
  __syncthreads();
  int s = fixed[threadIdx.x % 32];
  for (int j = 0; j < 50; j++) s += sm[(threadIdx.x * 23 + j * 61) % NSM];
  out[(b * 2 + blockIdx.x) * 128 + threadIdx.x] = s;
}

__global__ void child_bigsmem(int b, int *out) {
  extern __shared__ int sm[];
  const int n = BIGSM / 4;
  for (int k = threadIdx.x; k < n; k += blockDim.x) sm[k] = (k ^ (b * 5)) & 1023;
  __syncthreads();
  int s = 0;
  for (int k = threadIdx.x; k < n; k += blockDim.x) s += sm[n - 1 - k];
  out[b * 64 + threadIdx.x] = s;
}

__global__ void child_big(Big g, int b, int *out) {
  int t = threadIdx.x;
  int *o = out + b * 64;
  if (t < 50) o[t] = g.a[t] * 2;
  if (t == 50) o[t] = (int)(g.d * 1000.0);
  if (t == 51) { int s = 0; for (int k = 0; k < 20; k++) s = s * 3 + g.tag[k]; o[t] = s; }
  if (t == 52) o[t] = g.s;
}

__global__ void child_huge(Huge h, int b, int *out) {
  for (int k = threadIdx.x; k < 256; k += blockDim.x) out[b * 256 + k] = h.v[k] + k;
}

__global__ void child_mixed(char c, double d, short s, long long ll, float4 f4, int i,
                            unsigned char u8, int2 i2, long long *out) {
  out[0] = c; out[1] = (long long)(d * 4.0); out[2] = s; out[3] = ll;
  out[4] = (long long)(f4.x * 2); out[5] = (long long)(f4.y * 2); out[6] = (long long)(f4.z * 2);
  out[7] = (long long)(f4.w * 2); out[8] = i; out[9] = u8; out[10] = i2.x; out[11] = i2.y;
}

template <typename T> __global__ void tscale(T *p, T f) { p[threadIdx.x] = p[threadIdx.x] * f + (T)threadIdx.x; }

__global__ void manual_k(int a, double d, char c, long long *out) {
  out[0] = a; out[1] = (long long)(d * 8.0); out[2] = c; out[3] = gridDim.x * 100 + blockDim.x;
  out[4] = blockIdx.x == 0 && threadIdx.x == 0;
}

__global__ void parent(const int *seed, int *o_smem, int *o_bigsmem, int *o_big, int *o_huge,
                       long long *o_mixed, int *errs, float *tf, double *td, long long *o_manual) {
  int b = blockIdx.x;
  if (threadIdx.x != 0) return;
  child_smem<<<2, 128, NSM * sizeof(int)>>>(b, o_smem);
  errs[b * 8 + 0] = cudaGetLastError();
  child_bigsmem<<<1, 64, BIGSM>>>(b, o_bigsmem);
  errs[b * 8 + 1] = cudaGetLastError();
  Big g;
  for (int k = 0; k < 50; k++) g.a[k] = seed[k] + b * 1000;
  g.d = 1.5 + b + seed[0] / 4.0;
  for (int k = 0; k < 20; k++) g.tag[k] = (char)('a' + (k + b) % 26);
  g.s = (short)(-300 - b);
  child_big<<<1, 64>>>(g, b, o_big);
  errs[b * 8 + 2] = cudaGetLastError();
  Huge h;
  for (int k = 0; k < 256; k++) h.v[k] = seed[k % 50] * (k + 1) - b;
  child_huge<<<1, 96>>>(h, b, o_huge);
  errs[b * 8 + 3] = cudaGetLastError();
  child_mixed<<<1, 1>>>((char)(-5 - b), 2.25 + b, (short)(-1234 + b), (1LL << 50) + seed[1] + b,
                        make_float4(1.5f, -2.5f, 3.0f + b, seed[2]), -77777 - b, (unsigned char)(200 + b),
                        make_int2(seed[3], -seed[4] - b), o_mixed + b * 12);
  errs[b * 8 + 4] = cudaGetLastError();
  tscale<float><<<1, 32>>>(tf + b * 32, 1.5f + b);
  errs[b * 8 + 5] = cudaGetLastError();
  tscale<double><<<1, 32>>>(td + b * 32, -0.25 - b);
  errs[b * 8 + 6] = cudaGetLastError();
  // by hand: int at 0, double at 8, char at 16, pointer at 24 -> 32 bytes
  char *pb = (char *)cudaGetParameterBuffer(8, 32);
  if (!pb) { errs[b * 8 + 7] = -2; return; }
  *(int *)(pb + 0) = 31 + b;
  *(double *)(pb + 8) = 0.625 + b;
  *(char *)(pb + 16) = (char)(-9 - b);
  *(long long **)(pb + 24) = o_manual + b * 5;
  errs[b * 8 + 7] = cudaLaunchDevice((void *)manual_k, pb, dim3(1, 1, 1), dim3(1, 1, 1), 0, 0);
}

int main() {
  t_name = "cdp_args_smem";
  CK(cudaFuncSetAttribute(child_bigsmem, cudaFuncAttributeMaxDynamicSharedMemorySize, BIGSM));
  int hseed[50];
  for (int k = 0; k < 50; k++) hseed[k] = k * k - 20 * k + 3;
  int *seed, *o_smem, *o_bigsmem, *o_big, *o_huge, *errs;
  long long *o_mixed, *o_manual;
  float *tf;
  double *td;
  CK(cudaMalloc(&seed, sizeof hseed));
  CK(cudaMalloc(&o_smem, 2 * 2 * 128 * sizeof(int)));
  CK(cudaMalloc(&o_bigsmem, 2 * 64 * sizeof(int)));
  CK(cudaMalloc(&o_big, 2 * 64 * sizeof(int)));
  CK(cudaMalloc(&o_huge, 2 * 256 * sizeof(int)));
  CK(cudaMalloc(&o_mixed, 2 * 12 * sizeof(long long)));
  CK(cudaMalloc(&errs, 16 * sizeof(int)));
  CK(cudaMalloc(&tf, 64 * sizeof(float)));
  CK(cudaMalloc(&td, 64 * sizeof(double)));
  CK(cudaMalloc(&o_manual, 10 * sizeof(long long)));
  CK(cudaMemset(o_manual, 0, 10 * sizeof(long long)));
  float htf[64];
  double htd[64];
  for (int k = 0; k < 64; k++) { htf[k] = 0.5f * k; htd[k] = 0.125 * k + 1; }
  CK(cudaMemcpy(tf, htf, sizeof htf, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(td, htd, sizeof htd, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(seed, hseed, sizeof hseed, cudaMemcpyHostToDevice));
  CK(cudaMemset(o_smem, 0, 2 * 2 * 128 * sizeof(int)));
  CK(cudaMemset(o_bigsmem, 0, 2 * 64 * sizeof(int)));
  CK(cudaMemset(o_big, 0, 2 * 64 * sizeof(int)));
  CK(cudaMemset(o_huge, 0, 2 * 256 * sizeof(int)));
  CK(cudaMemset(o_mixed, 0, 2 * 12 * sizeof(long long)));
  CK(cudaMemset(errs, 0x7f, 16 * sizeof(int)));

  parent<<<2, 32>>>(seed, o_smem, o_bigsmem, o_big, o_huge, o_mixed, errs, tf, td, o_manual);
  CK_LAUNCH();

  int h_smem[512], h_bigsmem[128], h_big[128], h_huge[512], h_err[16];
  long long h_mixed[24];
  CK(cudaMemcpy(h_smem, o_smem, sizeof h_smem, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_bigsmem, o_bigsmem, sizeof h_bigsmem, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_big, o_big, sizeof h_big, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_huge, o_huge, sizeof h_huge, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_mixed, o_mixed, sizeof h_mixed, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_err, errs, sizeof h_err, cudaMemcpyDeviceToHost));
  float gtf[64];
  double gtd[64];
  long long h_manual[10];
  CK(cudaMemcpy(gtf, tf, sizeof gtf, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gtd, td, sizeof gtd, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_manual, o_manual, sizeof h_manual, cudaMemcpyDeviceToHost));

  const char *which[] = {"child_smem (12000 B dynamic smem)", "child_bigsmem (80 KiB dynamic smem)",
                         "child_big (232-byte struct)", "child_huge (1 KiB struct)", "child_mixed",
                         "tscale<float>", "tscale<double>", "cudaLaunchDevice by hand"};
  for (int b = 0; b < 2; b++) {
    for (int k = 0; k < 8; k++)
      EXPECT_EQ(h_err[b * 8 + k], cudaSuccess, "block %d: launch of %s (%s)", b, which[k], errname(h_err[b * 8 + k]));
    for (int cb = 0; cb < 2; cb++)
      for (int t = 0; t < 128; t++) {
        int s = (t % 32) * 1000 + b;
        for (int j = 0; j < 50; j++) s += ((t * 23 + j * 61) % NSM) * 7 + cb + b * 3;
        EXPECT_EQ(h_smem[(b * 2 + cb) * 128 + t], s, "child_smem parent block %d child block %d thread %d", b, cb, t);
      }
    const int n = BIGSM / 4;
    for (int t = 0; t < 64; t++) {
      int s = 0;
      for (int k = t; k < n; k += 64) s += ((n - 1 - k) ^ (b * 5)) & 1023;
      EXPECT_EQ(h_bigsmem[b * 64 + t], s, "child_bigsmem block %d thread %d", b, t);
    }
    for (int k = 0; k < 50; k++) EXPECT_EQ(h_big[b * 64 + k], (hseed[k] + b * 1000) * 2, "Big.a[%d] (block %d)", k, b);
    EXPECT_EQ(h_big[b * 64 + 50], (int)((1.5 + b + hseed[0] / 4.0) * 1000.0), "Big.d (block %d)", b);
    int ts = 0;
    for (int k = 0; k < 20; k++) ts = ts * 3 + (char)('a' + (k + b) % 26);
    EXPECT_EQ(h_big[b * 64 + 51], ts, "Big.tag checksum (block %d)", b);
    EXPECT_EQ(h_big[b * 64 + 52], -300 - b, "Big.s (block %d)", b);
    for (int k = 0; k < 256; k++)
      EXPECT_EQ(h_huge[b * 256 + k], hseed[k % 50] * (k + 1) - b + k, "Huge.v[%d] (block %d)", k, b);
    long long want[12] = {-5 - b, (long long)((2.25 + b) * 4.0), -1234 + b, (1LL << 50) + hseed[1] + b,
                          3, -5, (long long)((3.0f + b) * 2), (long long)((float)hseed[2] * 2), -77777 - b,
                          200 + b, hseed[3], -hseed[4] - b};
    const char *names[12] = {"char", "double", "short", "long long", "float4.x", "float4.y", "float4.z",
                             "float4.w", "int", "unsigned char", "int2.x", "int2.y"};
    for (int k = 0; k < 12; k++) EXPECT_EQ(h_mixed[b * 12 + k], want[k], "child_mixed %s argument (block %d)", names[k], b);
    for (int t = 0; t < 32; t++) {
      float wf = htf[b * 32 + t] * (1.5f + b) + (float)t;   // exact in binary
      double wd = htd[b * 32 + t] * (-0.25 - b) + (double)t;
      if (gtf[b * 32 + t] != wf) t_fail("tscale<float> [%d]: %g, expected %g", b * 32 + t, gtf[b * 32 + t], wf);
      if (gtd[b * 32 + t] != wd) t_fail("tscale<double> [%d]: %g, expected %g", b * 32 + t, gtd[b * 32 + t], wd);
    }
    long long wm[5] = {31 + b, (long long)((0.625 + b) * 8.0), -9 - b, 101, 1};
    const char *mn[5] = {"int", "double", "char", "grid/block shape", "ran"};
    for (int k = 0; k < 5; k++) EXPECT_EQ(h_manual[b * 5 + k], wm[k], "cudaLaunchDevice by hand: %s (block %d)", mn[k], b);
  }
  return t_report();
}

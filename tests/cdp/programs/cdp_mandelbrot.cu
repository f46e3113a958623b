// Mandelbrot escape times with the Mariani-Silver subdivision, as commonly
// written with dynamic parallelism: each block owns a square; it evaluates
// the square's border; if every border pixel has the same dwell the square
// is filled with it, otherwise thread 0 launches a child grid of SUB x SUB
// blocks for the sub-squares (or, at the depth/size limit, the block
// evaluates every pixel).  Arithmetic is 64-bit fixed point, so host and
// device compute bit-identical dwells.
// Checks: the image and the number of filled / subdivided / per-pixel
// squares equal a CPU run of the same algorithm exactly; and the image
// differs from a plain per-pixel CPU rendering in at most 1% of pixels
// (Mariani-Silver is exact only up to sub-pixel features on borders).
#include "common.h"
#include <vector>

#define W 128
#define H 128
#define INIT 4                // host grid INIT x INIT squares
#define SUB 4                 // each subdivision: SUB x SUB squares
#define MAXDEPTH 3
#define MINSUB 8              // subdivide only squares at least this big
#define MAXDWELL 128
#define FRAC 26
#define X0 (-(2LL << FRAC))                 // -2.0
#define Y0 (-(5LL << FRAC) / 4)             // -1.25
#define STEP ((5LL << FRAC) / 2 / W)        // 2.5 / W

enum { S_FILL, S_SPLIT, S_PIXEL, S_ERR, S_N };

__host__ __device__ inline int dwell(int px, int py) {
  long long cx = X0 + px * STEP, cy = Y0 + py * STEP, x = 0, y = 0;
  int it = 0;
  while (it < MAXDWELL) {
    long long x2 = (x * x) >> FRAC, y2 = (y * y) >> FRAC;
    if (x2 + y2 > (4LL << FRAC)) break;
    long long xy = (x * y) >> (FRAC - 1);
    y = xy + cy;
    x = x2 - y2 + cx;
    it++;
  }
  return it;
}

__host__ __device__ inline void border_px(int k, int size, int rx, int ry, int *px, int *py) {
  int side = k / size, o = k % size;
  if (side == 0) { *px = rx + o; *py = ry; }
  else if (side == 1) { *px = rx + o; *py = ry + size - 1; }
  else if (side == 2) { *px = rx; *py = ry + o; }
  else { *px = rx + size - 1; *py = ry + o; }
}

__global__ void ms(int x0, int y0, int size, int depth, int *img, int *st) {
  int rx = x0 + blockIdx.x * size, ry = y0 + blockIdx.y * size;
  int t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
  __shared__ int ref, diff;
  if (t == 0) { ref = dwell(rx, ry); diff = 0; }
  __syncthreads();
  for (int k = t; k < 4 * size; k += nt) {
    int px, py;
    border_px(k, size, rx, ry, &px, &py);
    if (dwell(px, py) != ref) atomicOr(&diff, 1);
  }
  __syncthreads();
  if (!diff) {
    for (int k = t; k < size * size; k += nt) img[(ry + k / size) * W + rx + k % size] = ref;
    if (t == 0) atomicAdd(&st[S_FILL], 1);
  } else if (depth + 1 < MAXDEPTH && size >= MINSUB) {
    if (t == 0) {
      ms<<<dim3(SUB, SUB), dim3(8, 8)>>>(rx, ry, size / SUB, depth + 1, img, st);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&st[S_ERR], 1);
      atomicAdd(&st[S_SPLIT], 1);
    }
  } else {
    for (int k = t; k < size * size; k += nt) {
      int px = rx + k % size, py = ry + k / size;
      img[py * W + px] = dwell(px, py);
    }
    if (t == 0) atomicAdd(&st[S_PIXEL], 1);
  }
}

static void cpu_ms(int rx, int ry, int size, int depth, std::vector<int> &img, int *st) {
  int ref = dwell(rx, ry), diff = 0;
  for (int k = 0; k < 4 * size; k++) {
    int px, py;
    border_px(k, size, rx, ry, &px, &py);
    if (dwell(px, py) != ref) diff = 1;
  }
  if (!diff) {
    for (int k = 0; k < size * size; k++) img[(ry + k / size) * W + rx + k % size] = ref;
    st[S_FILL]++;
  } else if (depth + 1 < MAXDEPTH && size >= MINSUB) {
    st[S_SPLIT]++;
    for (int by = 0; by < SUB; by++)
      for (int bx = 0; bx < SUB; bx++)
        cpu_ms(rx + bx * (size / SUB), ry + by * (size / SUB), size / SUB, depth + 1, img, st);
  } else {
    for (int k = 0; k < size * size; k++) {
      int px = rx + k % size, py = ry + k / size;
      img[py * W + px] = dwell(px, py);
    }
    st[S_PIXEL]++;
  }
}

int main() {
  t_name = "cdp_mandelbrot";
  int *img, *st;
  CK(cudaMalloc(&img, W * H * sizeof(int)));
  CK(cudaMalloc(&st, S_N * sizeof(int)));
  CK(cudaMemset(img, 0xff, W * H * sizeof(int)));
  CK(cudaMemset(st, 0, S_N * sizeof(int)));
  ms<<<dim3(INIT, INIT), dim3(8, 8)>>>(0, 0, W / INIT, 0, img, st);
  CK_LAUNCH();
  std::vector<int> got(W * H);
  int hst[S_N];
  CK(cudaMemcpy(got.data(), img, W * H * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hst, st, sizeof hst, cudaMemcpyDeviceToHost));

  std::vector<int> ref(W * H, -1), plain(W * H);
  int rst[S_N] = {0};
  for (int by = 0; by < INIT; by++)
    for (int bx = 0; bx < INIT; bx++) cpu_ms(bx * (W / INIT), by * (H / INIT), W / INIT, 0, ref, rst);
  for (int py = 0; py < H; py++)
    for (int px = 0; px < W; px++) plain[py * W + px] = dwell(px, py);

  fprintf(stderr, "  [%s] reference: %d filled, %d subdivided, %d per-pixel squares\n", t_name,
          rst[S_FILL], rst[S_SPLIT], rst[S_PIXEL]);
  if (rst[S_SPLIT] < 2 || rst[S_FILL] < 2) t_fail("test bug: reference hardly subdivides");
  EXPECT_EQ(hst[S_ERR], 0, "child launches that returned an error");
  EXPECT_EQ(hst[S_FILL], rst[S_FILL], "squares filled from a uniform border");
  EXPECT_EQ(hst[S_SPLIT], rst[S_SPLIT], "squares subdivided by a child launch");
  EXPECT_EQ(hst[S_PIXEL], rst[S_PIXEL], "squares evaluated per pixel");
  int bad = 0, first = -1, vsplain = 0;
  for (int k = 0; k < W * H; k++) {
    if (got[k] != ref[k]) { if (first < 0) first = k; bad++; }
    if (ref[k] != plain[k]) vsplain++;
  }
  if (bad)
    t_fail("%d pixels differ from the CPU Mariani-Silver image, first (%d,%d): %d vs %d", bad,
           first % W, first / W, got[first], ref[first]);
  if (vsplain * 100 > W * H)
    t_fail("Mariani-Silver differs from per-pixel rendering in %d pixels (>1%%)", vsplain);
  fprintf(stderr, "  [%s] Mariani-Silver vs per-pixel: %d of %d pixels differ\n", t_name, vsplain, W * H);
  return t_report();
}

// printf from parent, child, grandchild and tail-launched kernels.  The
// program captures its own stdout (dup2 onto a temporary file around the
// launch and the cudaDeviceSynchronize that flushes device printf), then
// checks the set of lines: every expected line exactly once, nothing else
// with the test's prefix.  Output order across blocks/grids is unspecified,
// so order is not checked.
#include "common.h"
#include <map>
#include <string>
#include <unistd.h>

#define PB 2
#define CB 3
#define CT 4

__global__ void grandchild(int p) { printf("CDP|G p=%d t=%d\n", p, threadIdx.x); }

__global__ void child(int p) {
  int b = blockIdx.x, t = threadIdx.x, v = p * 100 + b * 10 + t;
  printf("CDP|C p=%d b=%d t=%d v=%d x=%x f=%.2f s=%s ll=%lld\n", p, b, t, v, 0xabc0 + t,
         0.25f * t + p, "ok", (1LL << 40) + v);
  if (b == 0 && t == 0) grandchild<<<1, 2>>>(p);
}

__global__ void tail() { printf("CDP|T done\n"); }

__global__ void parent(int *errs) {
  if (threadIdx.x == 0) {
    printf("CDP|P b=%d\n", blockIdx.x);
    child<<<CB, CT>>>(blockIdx.x);
    errs[blockIdx.x] = cudaGetLastError();
  }
  if (blockIdx.x == 0 && threadIdx.x == 1) {
    tail<<<1, 1, 0, cudaStreamTailLaunch>>>();
    errs[PB] = cudaGetLastError();
  }
}

int main() {
  t_name = "cdp_printf";
  int *errs;
  CK(cudaMalloc(&errs, (PB + 1) * sizeof(int)));
  CK(cudaMemset(errs, 0x7f, (PB + 1) * sizeof(int)));

  fflush(stdout);
  int saved = dup(1);
  char path[] = "/tmp/cdp_printf_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || saved < 0) { printf("FAIL %s: cannot redirect stdout\n", t_name); return 2; }
  dup2(fd, 1);
  parent<<<PB, 32>>>(errs);
  cudaError_t e1 = cudaGetLastError();
  cudaError_t e2 = cudaDeviceSynchronize();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CK(e1);
  CK(e2);

  std::map<std::string, int> want, got;
  char line[256];
  for (int b = 0; b < PB; b++) {
    snprintf(line, sizeof line, "CDP|P b=%d", b);
    want[line]++;
    for (int cb = 0; cb < CB; cb++)
      for (int t = 0; t < CT; t++) {
        int v = b * 100 + cb * 10 + t;
        snprintf(line, sizeof line, "CDP|C p=%d b=%d t=%d v=%d x=%x f=%.2f s=%s ll=%lld", b, cb, t, v,
                 0xabc0 + t, 0.25 * t + b, "ok", (1LL << 40) + v);
        want[line]++;
      }
    for (int t = 0; t < 2; t++) {
      snprintf(line, sizeof line, "CDP|G p=%d t=%d", b, t);
      want[line]++;
    }
  }
  want["CDP|T done"]++;

  FILE *f = fopen(path, "r");
  int other = 0, total = 0;
  while (f && fgets(line, sizeof line, f)) {
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    if (strncmp(line, "CDP|", 4) == 0) { got[line]++; total++; }
    else other++;
  }
  if (f) fclose(f);
  unlink(path);

  int h_err[PB + 1];
  CK(cudaMemcpy(h_err, errs, sizeof h_err, cudaMemcpyDeviceToHost));
  for (int k = 0; k <= PB; k++) EXPECT_EQ(h_err[k], cudaSuccess, "device launch #%d", k);
  for (auto &kv : want) {
    int g = got.count(kv.first) ? got[kv.first] : 0;
    if (g != kv.second) t_fail("line \"%s\" printed %d times, expected %d", kv.first.c_str(), g, kv.second);
  }
  for (auto &kv : got)
    if (!want.count(kv.first)) t_fail("unexpected line \"%s\" (x%d)", kv.first.c_str(), kv.second);
  fprintf(stderr, "  [%s] %d test lines captured (expected 31), %d other lines on stdout\n", t_name, total, other);
  return t_report();
}

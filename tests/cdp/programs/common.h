// Shared helpers for the CDP2 test programs (host side only).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdarg>
#include <cuda_runtime.h>

static const char *t_name = "?";
static int t_nfail = 0;
static char t_first[512];

// Record one difference. The first one goes into the FAIL line; up to 12 are
// listed on stderr as they happen.
static void t_fail(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (t_nfail == 0) snprintf(t_first, sizeof t_first, "%s", buf);
  if (t_nfail < 12) fprintf(stderr, "  [%s] %s\n", t_name, buf);
  t_nfail++;
}

// Host API call that must succeed; on failure the test ends at once.
#define CK(call)                                                              \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      printf("FAIL %s: %s returned %s (%d) at line %d\n", t_name, #call,      \
             cudaGetErrorName(e_), (int)e_, __LINE__);                        \
      fflush(stdout);                                                         \
      exit(2);                                                                \
    }                                                                         \
  } while (0)

// After a host-side launch: the launch itself and the whole launch tree
// (parent, children, tail launches) must finish without error.
#define CK_LAUNCH() do { CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); } while (0)

static int t_report() {
  if (t_nfail) {
    printf("FAIL %s: %s%s", t_name, t_first, t_nfail > 1 ? "" : "\n");
    if (t_nfail > 1) printf(" (+%d more differences)\n", t_nfail - 1);
    fflush(stdout);
    return 1;
  }
  printf("PASS %s\n", t_name);
  fflush(stdout);
  return 0;
}

// Expect a == b for an int-like pair.
#define EXPECT_EQ(a, b, ...)                                                  \
  do {                                                                        \
    long long a_ = (long long)(a), b_ = (long long)(b);                       \
    if (a_ != b_) {                                                           \
      char m_[300];                                                           \
      snprintf(m_, sizeof m_, __VA_ARGS__);                                   \
      t_fail("%s: got %lld, expected %lld", m_, a_, b_);                      \
    }                                                                         \
  } while (0)

static const char *errname(int e) { return cudaGetErrorName((cudaError_t)e); }

/* Shared helpers for the ptxsim offload battery (host-side only). */
#ifndef BATTERY_COMMON_H
#define BATTERY_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef _OPENACC
#include <openacc.h>
#endif

static int g_checks = 0, g_fail = 0;

#define CHECK(cond, ...) do { g_checks++; if (!(cond)) { g_fail++; \
    if (g_fail <= 20) { printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__); printf("\n"); } } } while (0)

/* count mismatches of an array, report first few */
#define CHECK_ARRAY_EQ(name, got, ref, n) do { long _bad = 0; \
    for (long _i = 0; _i < (long)(n); _i++) if ((got)[_i] != (ref)[_i]) { \
      if (_bad < 3) printf("  mismatch %s[%ld]: got %g ref %g\n", name, _i, \
                           (double)(got)[_i], (double)(ref)[_i]); _bad++; } \
    CHECK(_bad == 0, "%s: %ld/%ld mismatches", name, _bad, (long)(n)); } while (0)

static inline int close_rel(double a, double b, double rtol, double atol) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (isinf(a) || isinf(b)) return a == b;
  return fabs(a - b) <= atol + rtol * fabs(b);
}

#define CHECK_ARRAY_CLOSE(name, got, ref, n, rtol, atol) do { long _bad = 0; \
    for (long _i = 0; _i < (long)(n); _i++) \
      if (!close_rel((got)[_i], (ref)[_i], rtol, atol)) { \
      if (_bad < 3) printf("  mismatch %s[%ld]: got %.9g ref %.9g\n", name, _i, \
                           (double)(got)[_i], (double)(ref)[_i]); _bad++; } \
    CHECK(_bad == 0, "%s: %ld/%ld outside tolerance", name, _bad, (long)(n)); } while (0)

static int g_expect_device = 0;

#ifdef _OPENMP
/* Prints the device count and checks that a target region runs where
   expected: on the device when one exists, else on the host (fallback). */
static void omp_device_banner(const char *prog) {
  setvbuf(stdout, NULL, _IOLBF, 0);   /* keep progress visible if killed */
  int nd = omp_get_num_devices();
  int initial = -1;
  #pragma omp target map(from: initial)
  { initial = omp_is_initial_device(); }
  g_expect_device = nd > 0;
  printf("%s: omp_get_num_devices()=%d, target region ran on %s\n", prog, nd,
         initial ? "HOST (initial device)" : "DEVICE");
  CHECK(initial == (nd > 0 ? 0 : 1), "target ran on %s with %d devices",
        initial ? "host" : "device", nd);
}
/* check a flag recorded inside a later target region */
#define CHECK_RAN_ON_DEVICE(flag, what) \
  CHECK((flag) == (g_expect_device ? 0 : 1), "%s: omp_is_initial_device()=%d in region", what, (int)(flag))
#endif

#ifdef _OPENACC
static void acc_device_banner(const char *prog) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int nd = acc_get_num_devices(acc_device_nvidia);
  int ondev = -1;
  #pragma acc parallel num_gangs(1) copyout(ondev)
  { ondev = acc_on_device(acc_device_not_host); }
  g_expect_device = nd > 0;
  printf("%s: acc_get_num_devices(acc_device_nvidia)=%d, compute region ran on %s\n",
         prog, nd, ondev ? "DEVICE" : "HOST");
  CHECK(ondev == (nd > 0), "acc region on_device=%d with %d devices", ondev, nd);
}
#define CHECK_ACC_ON_DEVICE(flag, what) \
  CHECK((flag) == (g_expect_device ? 1 : 0), "%s: acc_on_device=%d in region", what, (int)(flag))
#endif

static int finish(const char *prog) {
  printf("%s: %s (%d checks, %d failed)\n", prog, g_fail ? "FAIL" : "PASS",
         g_checks, g_fail);
  return g_fail ? 1 : 0;
}
#endif

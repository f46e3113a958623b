/* declare target functions (incl. recursion, function pointers), global
   variables with declare target to / link, device_type, static locals. */
#include "common.h"
#define N 64

#pragma omp declare target
int g_table[16];
double g_scale = 1.5;
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long ackermann_small(long m, long n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann_small(m - 1, 1);
  return ackermann_small(m - 1, ackermann_small(m, n - 1));
}
static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
static double horner(const double *c, int n, double x) {
  double r = 0; for (int i = n - 1; i >= 0; i--) r = r * x + c[i]; return r;
}
typedef int (*binop)(int, int);
static int op_add(int a, int b) { return a + b; }
static int op_mul(int a, int b) { return a * b; }
static int op_sub(int a, int b) { return a - b; }
static int apply(int k, int a, int b) {
  binop ops[3] = {op_add, op_mul, op_sub};
  return ops[k % 3](a, b);
}
#pragma omp end declare target

/* declare target with explicit to() and link() clauses */
int g_counter_init = 42;
#pragma omp declare target to(g_counter_init)
double g_big[1024];
#pragma omp declare target link(g_big)

int twice(int x) { return 2 * x; }
#pragma omp declare target to(twice)

static int dev_only(int x) { return x + 1000; }
#pragma omp declare target to(dev_only) device_type(nohost)

int main(void) {
  omp_device_banner("omp_declare");
  int nd = omp_get_num_devices();
  static int fibv[N], gcdv[N], appv[N], twv[N];
  static long ackv[4];
  static double hv[N];
  double coef[5] = {1, -2, 0.5, 0.25, -0.125};
  for (int i = 0; i < 16; i++) g_table[i] = i * i;
  g_scale = 2.0;
  #pragma omp target update to(g_table, g_scale)
  int flag = -1;

  #pragma omp target teams distribute parallel for map(from: fibv, gcdv, appv, twv, hv) map(to: coef) map(tofrom: flag)
  for (int i = 0; i < N; i++) {
    if (i == 0) flag = omp_is_initial_device();
    fibv[i] = fib(i % 20) + g_table[i % 16];
    gcdv[i] = gcd(i * 36 + 12, 48 + i * 6);
    appv[i] = apply(i, i, 7);
    twv[i] = twice(i);
    hv[i] = horner(coef, 5, i * 0.1) * g_scale;
  }
  CHECK_RAN_ON_DEVICE(flag, "declare target kernel");
  int bad = 0;
  for (int i = 0; i < N; i++) {
    if (fibv[i] != fib(i % 20) + (i % 16) * (i % 16)) bad++;
    if (gcdv[i] != gcd(i * 36 + 12, 48 + i * 6)) bad++;
    if (appv[i] != apply(i, i, 7)) bad++;
    if (twv[i] != 2 * i) bad++;
    if (!close_rel(hv[i], horner(coef, 5, i * 0.1) * 2.0, 1e-14, 1e-14)) bad++;
  }
  CHECK(bad == 0, "declare target functions: %d bad", bad);

  #pragma omp target map(from: ackv)
  { for (int m = 0; m < 4; m++) ackv[m] = ackermann_small(m < 3 ? m : 2, 3); }
  CHECK(ackv[0] == 4 && ackv[1] == 5 && ackv[2] == 9 && ackv[3] == 9, "ackermann %ld %ld %ld %ld", ackv[0], ackv[1], ackv[2], ackv[3]);

  /* global modified on device, read back via update from */
  #pragma omp target
  { g_table[3] = -1; g_counter_init += 1; }
  #pragma omp target update from(g_table[3:1], g_counter_init)
  CHECK(g_table[3] == -1 && g_counter_init == 43, "global update from: %d %d", g_table[3], g_counter_init);

  /* link variable: must be mapped explicitly */
  for (int i = 0; i < 1024; i++) g_big[i] = i;
  #pragma omp target teams distribute parallel for map(tofrom: g_big)
  for (int i = 0; i < 1024; i++) g_big[i] = g_big[i] * 3 + 1;
  bad = 0; for (int i = 0; i < 1024; i++) bad += g_big[i] != i * 3.0 + 1;
  CHECK(bad == 0, "declare target link: %d bad", bad);

  /* device_type(nohost) only on device */
  if (nd > 0) {
    int r = 0;
    #pragma omp target map(from: r)
    { r = dev_only(5); }
    CHECK(r == 1005, "device_type(nohost) r=%d", r);
  }

  return finish("omp_declare");
}

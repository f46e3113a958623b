/* OpenACC routine seq/vector/worker/gang, recursion in routine seq,
   atomic update/capture/read/write, async queues with wait, wait(async),
   acc_async_test/acc_wait, and a small CG-style pipeline. */
#include "common.h"
#define N 4096
#define R 32
#define C 128

#pragma acc routine seq
static int collatz_len(long v) { int n = 0; while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; n++; } return n; }

#pragma acc routine seq
static long fact_rec(int n) { return n <= 1 ? 1 : n * fact_rec(n - 1); }

#pragma acc routine vector
static double row_dot(const double *a, const double *b, int n) {
  double s = 0;
  #pragma acc loop vector reduction(+: s)
  for (int j = 0; j < n; j++) s += a[j] * b[j];
  return s;
}

#pragma acc routine worker
static void row_scale(double *a, int n, double f) {
  #pragma acc loop worker vector
  for (int j = 0; j < n; j++) a[j] *= f;
}

#pragma acc routine gang
static void fill_gang(int *v, int n, int base) {
  #pragma acc loop gang vector
  for (int i = 0; i < n; i++) v[i] = base + i;
}

int main(void) {
  acc_device_banner("acc_routine_async");
  static int cl[N], clref[N]; static long fr[21];
  for (int i = 0; i < N; i++) clref[i] = collatz_len(i + 1);
  int ondev = -1;
  #pragma acc parallel loop copyout(cl, ondev)
  for (int i = 0; i < N; i++) { if (i == 0) ondev = acc_on_device(acc_device_not_host); cl[i] = collatz_len(i + 1); }
  CHECK_ACC_ON_DEVICE(ondev, "routine seq");
  CHECK_ARRAY_EQ("routine_seq_collatz", cl, clref, N);
  #pragma acc parallel loop copyout(fr)
  for (int i = 0; i < 21; i++) fr[i] = fact_rec(i);
  int bad = 0; for (int i = 0; i < 21; i++) bad += fr[i] != fact_rec(i);
  CHECK(bad == 0, "recursive routine seq: %d bad", bad);

  static double A[R][C], x[C], y[R], yref[R];
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) A[i][j] = (i + 1) * 0.01 * ((j % 9) - 4);
  for (int j = 0; j < C; j++) x[j] = j * 0.25;
  for (int i = 0; i < R; i++) { double s = 0; for (int j = 0; j < C; j++) s += A[i][j] * x[j]; yref[i] = s; }
  #pragma acc parallel loop gang vector_length(64) copyin(A, x) copyout(y)
  for (int i = 0; i < R; i++) y[i] = row_dot(A[i], x, C);
  CHECK_ARRAY_CLOSE("routine_vector_dot", y, yref, R, 1e-13, 1e-13);
  #pragma acc parallel loop gang num_workers(4) vector_length(32) copy(A)
  for (int i = 0; i < R; i++) row_scale(A[i], C, 2.0);
  bad = 0; for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) bad += A[i][j] != 2 * ((i + 1) * 0.01 * ((j % 9) - 4));
  CHECK(bad == 0, "routine worker scale: %d bad", bad);
  static int fg[1000];
  #pragma acc parallel num_gangs(4) vector_length(32) copyout(fg)
  fill_gang(fg, 1000, 17);
  bad = 0; for (int i = 0; i < 1000; i++) bad += fg[i] != 17 + i;
  CHECK(bad == 0, "routine gang: %d bad", bad);

  /* atomics */
  int counter = 0, cmax = 0; static int tick[N]; double dsum = 0; long lsum = 0;
  #pragma acc parallel loop copy(counter, dsum, lsum, cmax) copyout(tick)
  for (int i = 0; i < N; i++) {
    int t;
    #pragma acc atomic capture
    t = counter++;
    tick[i] = t;
    #pragma acc atomic update
    dsum += 0.5;
    #pragma acc atomic
    lsum += (long)i << 20;
    int v = (i * 37) % 1009;
    int cur;
    #pragma acc atomic read
    cur = cmax;
    while (v > cur) {   /* CAS-free max via capture loop: write only if still larger */
      int old;
      #pragma acc atomic capture
      { old = cmax; cmax = cmax > v ? cmax : v; }
      cur = old > v ? old : v;
    }
  }
  static char seen[N]; memset(seen, 0, sizeof seen); bad = 0;
  for (int i = 0; i < N; i++) { if (tick[i] < 0 || tick[i] >= N || seen[tick[i]]++) bad++; }
  CHECK(counter == N && bad == 0, "atomic capture tickets counter=%d dup=%d", counter, bad);
  CHECK(dsum == 0.5 * N && lsum == ((long)N * (N - 1) / 2) << 20, "atomic update dsum=%g lsum=%ld", dsum, lsum);
  CHECK(cmax == 1008, "atomic capture max %d", cmax);
  int wv = 0;
  #pragma acc parallel num_gangs(1) copy(wv)
  {
    #pragma acc atomic write
    wv = 77;
  }
  CHECK(wv == 77, "atomic write %d", wv);

  /* async queues */
  static float q1[N], q2[N], q3[N];
  for (int i = 0; i < N; i++) { q1[i] = i; q2[i] = 2 * i; q3[i] = 0; }
  #pragma acc enter data copyin(q1, q2) create(q3)
  #pragma acc parallel loop async(1) present(q1)
  for (int i = 0; i < N; i++) q1[i] = q1[i] * 3;
  #pragma acc parallel loop async(2) present(q2)
  for (int i = 0; i < N; i++) q2[i] = q2[i] + 5;
  /* queue 3 waits on 1 and 2 */
  #pragma acc parallel loop async(3) wait(1, 2) present(q1, q2, q3)
  for (int i = 0; i < N; i++) q3[i] = q1[i] + q2[i];
  #pragma acc update self(q3) async(3)
  #pragma acc wait(3)
  bad = 0; for (int i = 0; i < N; i++) bad += q3[i] != 3.0f * i + 2.0f * i + 5;
  CHECK(bad == 0, "async queues with wait: %d bad", bad);
  /* many launches in one queue, ordered */
  for (int k = 0; k < 8; k++) {
    #pragma acc parallel loop async(4) present(q3)
    for (int i = 0; i < N; i++) q3[i] = q3[i] * 0.5f + k;
  }
  #pragma acc update self(q3) async(4)
  acc_wait(4);
  CHECK(acc_async_test(4) != 0, "acc_async_test after wait");
  bad = 0; for (int i = 0; i < N; i++) { float v = 3.0f * i + 2.0f * i + 5; for (int k = 0; k < 8; k++) v = v * 0.5f + k; bad += q3[i] != v; }
  CHECK(bad == 0, "ordered async queue: %d bad", bad);
  /* wait async: queue 6 waits for queue 5 without host blocking */
  #pragma acc parallel loop async(5) present(q1)
  for (int i = 0; i < N; i++) q1[i] = -q1[i];
  #pragma acc wait(5) async(6)
  #pragma acc parallel loop async(6) present(q1, q2)
  for (int i = 0; i < N; i++) q2[i] = q1[i] * 2;
  #pragma acc exit data copyout(q1, q2) delete(q3) async(6)
  #pragma acc wait
  CHECK(acc_async_test_all() != 0, "acc_async_test_all after wait");
  bad = 0; for (int i = 0; i < N; i++) bad += q1[i] != -3.0f * i || q2[i] != -6.0f * i;
  CHECK(bad == 0, "wait async chaining: %d bad", bad);

  return finish("acc_routine_async");
}

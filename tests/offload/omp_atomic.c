/* Atomics across teams: update/capture/read/write/compare on int, long,
   unsigned, float, double; critical sections across teams; seq_cst. */
#include "common.h"
#define N 4096

int main(void) {
  omp_device_banner("omp_atomic");
  int isum = 0; long lsum = 0; unsigned usum = 0; float fsum = 0; double dsum = 0;
  int imax = -1000000, flag = -1; long lmul = 1;
  unsigned uor = 0, uand = 0xffffffffu, uxor = 0;
  #pragma omp target teams distribute parallel for map(tofrom: isum, lsum, usum, fsum, dsum, imax, flag, lmul, uor, uand, uxor)
  for (int i = 0; i < N; i++) {
    if (i == 0) flag = omp_is_initial_device();
    #pragma omp atomic
    isum += i % 7;
    #pragma omp atomic update
    lsum += (long)i * 1000003L;
    #pragma omp atomic
    usum -= 3u;
    #pragma omp atomic
    fsum += 0.5f;              /* exact in float up to 2^24 */
    #pragma omp atomic
    dsum += i * 0.25;
    #pragma omp atomic
    uor |= 1u << (i % 32);
    #pragma omp atomic
    uand &= ~(1u << (i % 29 == 3 ? 5 : 31));
    #pragma omp atomic
    uxor ^= (unsigned)i;
    if (i % 512 == 0) {
      #pragma omp atomic
      lmul *= 2;
    }
    int v = (i * 7919) % 10007;
    #pragma omp atomic compare
    if (imax < v) { imax = v; }
  }
  CHECK_RAN_ON_DEVICE(flag, "atomic kernel");
  long lref = 0; int iref = 0, mref = -1000000; unsigned xref = 0;
  double dref = 0;
  for (int i = 0; i < N; i++) { iref += i % 7; lref += (long)i * 1000003L; dref += i * 0.25; xref ^= i;
    int v = (i * 7919) % 10007; if (v > mref) mref = v; }
  CHECK(isum == iref, "atomic int += %d vs %d", isum, iref);
  CHECK(lsum == lref, "atomic long += %ld vs %ld", lsum, lref);
  CHECK(usum == (unsigned)(0u - 3u * N), "atomic unsigned -= %u", usum);
  CHECK(fsum == 0.5f * N, "atomic float += %g", fsum);
  CHECK(dsum == dref, "atomic double += %.17g vs %.17g", dsum, dref);
  CHECK(uor == 0xffffffffu, "atomic |= %x", uor);
  CHECK(uand == (0xffffffffu & ~(1u << 5) & ~(1u << 31)), "atomic &= %x", uand);
  CHECK(uxor == xref, "atomic ^= %x vs %x", uxor, xref);
  CHECK(lmul == 256, "atomic *= %ld", lmul);
  CHECK(imax == mref, "atomic compare max %d vs %d", imax, mref);

  /* capture: each iteration gets a unique ticket */
  static int ticket[N], seen[N];
  int counter = 0;
  #pragma omp target teams distribute parallel for map(tofrom: counter) map(from: ticket)
  for (int i = 0; i < N; i++) {
    int t;
    #pragma omp atomic capture
    t = counter++;
    ticket[i] = t;
  }
  memset(seen, 0, sizeof seen);
  int bad = 0;
  for (int i = 0; i < N; i++) { if (ticket[i] < 0 || ticket[i] >= N || seen[ticket[i]]++) bad++; }
  CHECK(counter == N && bad == 0, "atomic capture tickets counter=%d bad=%d", counter, bad);

  /* capture form {v = x; x += e;} on double and long */
  double dcap = 0; long lcap = 0; static double dold[256]; static long lold[256];
  #pragma omp target teams distribute parallel for map(tofrom: dcap, lcap) map(from: dold, lold)
  for (int i = 0; i < 256; i++) {
    double o; long lo;
    #pragma omp atomic capture
    { o = dcap; dcap += 1.0; }
    #pragma omp atomic capture
    { lcap += 2; lo = lcap; }
    dold[i] = o; lold[i] = lo;
  }
  { static int s1[256], s2[257]; memset(s1, 0, sizeof s1); memset(s2, 0, sizeof s2); int b2 = 0;
    for (int i = 0; i < 256; i++) {
      int k = (int)dold[i]; if (k < 0 || k >= 256 || dold[i] != k || s1[k]++) b2++;
      long q = lold[i]; if (q < 2 || q > 512 || (q & 1) || s2[q / 2]++) b2++; }
    CHECK(dcap == 256.0 && lcap == 512 && b2 == 0, "capture forms dcap=%g lcap=%ld bad=%d", dcap, lcap, b2); }

  /* atomic compare capture (CAS loop emulating a lock-free min) */
  int amin = 1 << 30;
  #pragma omp target teams distribute parallel for map(tofrom: amin)
  for (int i = 0; i < N; i++) {
    int v = 5000 - (i * 31) % 4099;
    #pragma omp atomic compare
    amin = amin > v ? v : amin;
  }
  int aref = 1 << 30; for (int i = 0; i < N; i++) { int v = 5000 - (i * 31) % 4099; if (v < aref) aref = v; }
  CHECK(amin == aref, "atomic compare min %d vs %d", amin, aref);

  /* atomic compare with == (CAS): only first thread swaps 0 -> id+1 */
  int owner = 0, wins = 0;
  #pragma omp target teams distribute parallel for map(tofrom: owner, wins)
  for (int i = 0; i < N; i++) {
    int old;
    #pragma omp atomic compare capture
    { old = owner; if (owner == 0) { owner = i + 1; } }
    if (old == 0) {
      #pragma omp atomic
      wins++;
    }
  }
  CHECK(wins == 1 && owner >= 1 && owner <= N, "atomic CAS wins=%d owner=%d", wins, owner);

  /* read/write: writer sets, readers observe */
  int shared_v = 0; int reads_ok = 0;
  #pragma omp target map(tofrom: shared_v, reads_ok)
  {
    #pragma omp atomic write
    shared_v = 1234;
    int r;
    #pragma omp atomic read
    r = shared_v;
    reads_ok = (r == 1234);
  }
  CHECK(reads_ok == 1 && shared_v == 1234, "atomic read/write %d %d", reads_ok, shared_v);

  /* seq_cst atomic + critical across teams updating a small struct */
  struct { long count; double total; int maxi; } acc = {0, 0.0, -1};
  #pragma omp target teams distribute parallel for num_teams(8) map(tofrom: acc)
  for (int i = 0; i < 600; i++) {
    #pragma omp critical (acc_lock)
    {
      acc.count++;
      acc.total += i;
      if (i > acc.maxi) acc.maxi = i;
    }
  }
  CHECK(acc.count == 600 && acc.total == 599.0 * 600 / 2 && acc.maxi == 599,
        "critical across teams count=%ld total=%g maxi=%d", acc.count, acc.total, acc.maxi);

  int sc = 0;
  #pragma omp target teams distribute parallel for map(tofrom: sc)
  for (int i = 0; i < 1000; i++) {
    #pragma omp atomic seq_cst
    sc += 3;
  }
  CHECK(sc == 3000, "seq_cst atomic %d", sc);

  return finish("omp_atomic");
}

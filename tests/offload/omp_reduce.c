/* Reductions over teams: + * max min && || & | ^ on int/long/float/double,
   multiple reduction variables, array-section reduction. */
#include "common.h"
#define N 5000

int main(void) {
  omp_device_banner("omp_reduce");
  static int ia[N]; static long la[N]; static float fa[N]; static double da[N];
  for (int i = 0; i < N; i++) {
    ia[i] = (i * 37) % 1000 - 500;
    la[i] = (long)i * 100003L - 7;
    fa[i] = (float)((i % 64) * 0.25);          /* exactly representable, sums exact */
    da[i] = sin((double)i) * 100.0;
  }
  /* host references */
  int isum = 0, imax = -2147483647, imin = 2147483647, iand_ = -1, ior_ = 0, ixor = 0;
  long lsum = 0, lmax = -1L << 62; float fsum = 0, fmax_ = -1e30f, fmin_ = 1e30f;
  double dsum = 0, dmax = -1e300, dmin = 1e300, dprod = 1;
  int land = 1, lor = 0;
  for (int i = 0; i < N; i++) {
    isum += ia[i]; imax = ia[i] > imax ? ia[i] : imax; imin = ia[i] < imin ? ia[i] : imin;
    iand_ &= (ia[i] | 0x100); ior_ |= ia[i] & 0xff; ixor ^= ia[i];
    lsum += la[i]; lmax = la[i] > lmax ? la[i] : lmax;
    fsum += fa[i]; fmax_ = fa[i] > fmax_ ? fa[i] : fmax_; fmin_ = fa[i] < fmin_ ? fa[i] : fmin_;
    dsum += da[i]; dmax = da[i] > dmax ? da[i] : dmax; dmin = da[i] < dmin ? da[i] : dmin;
    land = land && (ia[i] > -501); lor = lor || (ia[i] == 499);
  }
  for (int i = 0; i < 40; i++) dprod *= 1.0 + (i % 5) * 0.01;

  int g_isum = 0, g_imax = -2147483647, g_imin = 2147483647, g_iand = -1, g_ior = 0, g_ixor = 0;
  long g_lsum = 0, g_lmax = -1L << 62;
  float g_fsum = 0, g_fmax = -1e30f, g_fmin = 1e30f;
  double g_dsum = 0, g_dmax = -1e300, g_dmin = 1e300, g_dprod = 1;
  int g_land = 1, g_lor = 0, flag = -1;

  #pragma omp target teams distribute parallel for map(to: ia, la, fa, da) map(tofrom: flag) \
      reduction(+: g_isum, g_lsum, g_fsum, g_dsum) reduction(max: g_imax, g_lmax, g_fmax, g_dmax) \
      reduction(min: g_imin, g_fmin, g_dmin) reduction(&: g_iand) reduction(|: g_ior) reduction(^: g_ixor) \
      reduction(&&: g_land) reduction(||: g_lor)
  for (int i = 0; i < N; i++) {
    if (i == 0) flag = omp_is_initial_device();
    g_isum += ia[i]; g_lsum += la[i]; g_fsum += fa[i]; g_dsum += da[i];
    g_imax = ia[i] > g_imax ? ia[i] : g_imax; g_lmax = la[i] > g_lmax ? la[i] : g_lmax;
    g_fmax = fmaxf(g_fmax, fa[i]); g_dmax = fmax(g_dmax, da[i]);
    g_imin = ia[i] < g_imin ? ia[i] : g_imin; g_fmin = fminf(g_fmin, fa[i]); g_dmin = fmin(g_dmin, da[i]);
    g_iand &= (ia[i] | 0x100); g_ior |= ia[i] & 0xff; g_ixor ^= ia[i];
    g_land = g_land && (ia[i] > -501); g_lor = g_lor || (ia[i] == 499);
  }
  CHECK_RAN_ON_DEVICE(flag, "reduction");
  CHECK(g_isum == isum, "int + %d vs %d", g_isum, isum);
  CHECK(g_lsum == lsum, "long + %ld vs %ld", g_lsum, lsum);
  CHECK(g_fsum == fsum, "float + %.9g vs %.9g", g_fsum, fsum);
  CHECK(close_rel(g_dsum, dsum, 1e-12, 1e-9), "double + %.17g vs %.17g", g_dsum, dsum);
  CHECK(g_imax == imax, "int max %d vs %d", g_imax, imax);
  CHECK(g_lmax == lmax, "long max %ld vs %ld", g_lmax, lmax);
  CHECK(g_fmax == fmax_, "float max %g vs %g", g_fmax, fmax_);
  CHECK(g_dmax == dmax, "double max %.17g vs %.17g", g_dmax, dmax);
  CHECK(g_imin == imin, "int min %d vs %d", g_imin, imin);
  CHECK(g_fmin == fmin_, "float min %g vs %g", g_fmin, fmin_);
  CHECK(g_dmin == dmin, "double min %.17g vs %.17g", g_dmin, dmin);
  CHECK(g_iand == iand_, "int & %x vs %x", g_iand, iand_);
  CHECK(g_ior == ior_, "int | %x vs %x", g_ior, ior_);
  CHECK(g_ixor == ixor, "int ^ %x vs %x", g_ixor, ixor);
  CHECK(g_land == land, "&& %d vs %d", g_land, land);
  CHECK(g_lor == lor, "|| %d vs %d", g_lor, lor);

  /* products: int * (small values so no overflow), double * */
  long lprod = 1, g_lprod = 1;
  for (int i = 0; i < 40; i++) lprod *= (i % 3 == 0) ? 2 : 1;
  #pragma omp target teams distribute parallel for reduction(*: g_lprod, g_dprod)
  for (int i = 0; i < 40; i++) { g_lprod *= (i % 3 == 0) ? 2 : 1; g_dprod *= 1.0 + (i % 5) * 0.01; }
  CHECK(g_lprod == lprod, "long * %ld vs %ld", g_lprod, lprod);
  CHECK(close_rel(g_dprod, dprod, 1e-13, 0), "double * %.17g vs %.17g", g_dprod, dprod);

  /* float * with powers of two (exact) */
  float fprod = 1, g_fprod = 1;
  for (int i = 0; i < 60; i++) fprod *= (i % 4 == 0) ? 2.0f : ((i % 4 == 1) ? 0.5f : 1.0f);
  #pragma omp target teams distribute parallel for reduction(*: g_fprod)
  for (int i = 0; i < 60; i++) g_fprod *= (i % 4 == 0) ? 2.0f : ((i % 4 == 1) ? 0.5f : 1.0f);
  CHECK(g_fprod == fprod, "float * %g vs %g", g_fprod, fprod);

  /* reduction with explicit num_teams / thread_limit and teams-only reduction */
  long t_sum = 0;
  #pragma omp target teams num_teams(7) thread_limit(64) reduction(+: t_sum)
  {
    #pragma omp parallel reduction(+: t_sum)
    t_sum += 1;
  }
  /* each team contributes its number of threads; must be positive and bounded */
  CHECK(t_sum >= 1 && t_sum <= 7 * 64, "teams-level thread count sum %ld", t_sum);

  /* array-section reduction (OpenMP 4.5) */
  long bins[8] = {0}, binsref[8] = {0};
  for (int i = 0; i < N; i++) binsref[(ia[i] + 500) % 8] += 1;
  #pragma omp target teams distribute parallel for map(to: ia) reduction(+: bins[0:8])
  for (int i = 0; i < N; i++) bins[(ia[i] + 500) % 8] += 1;
  CHECK_ARRAY_EQ("array_reduction", bins, binsref, 8);

  /* collapsed reduction */
  double csum = 0, csumref = 0;
  for (int i = 0; i < 60; i++) for (int j = 0; j < 50; j++) csumref += (double)(i * j % 17);
  #pragma omp target teams distribute parallel for collapse(2) reduction(+: csum)
  for (int i = 0; i < 60; i++) for (int j = 0; j < 50; j++) csum += (double)(i * j % 17);
  CHECK(csum == csumref, "collapse reduction %g vs %g", csum, csumref);

  return finish("omp_reduce");
}

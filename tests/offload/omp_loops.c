/* saxpy / 2-D stencil with target teams distribute parallel for, simd,
   collapse(2), schedule(static,1), schedule(dynamic), dist_schedule. */
#include "common.h"
#define N 6000
#define NX 48
#define NY 40

int main(void) {
  omp_device_banner("omp_loops");
  static float x[N], y[N], yref[N];
  static double u[NX][NY], v[NX][NY], vref[NX][NY];
  float a = 2.5f;
  for (int i = 0; i < N; i++) { x[i] = (float)(i % 97) * 0.5f; y[i] = (float)(i % 13); }
  memcpy(yref, y, sizeof y);
  for (int i = 0; i < N; i++) yref[i] = a * x[i] + yref[i];

  int flag = -1;
  /* 1: saxpy combined construct */
  #pragma omp target teams distribute parallel for map(to: x) map(tofrom: y, flag)
  for (int i = 0; i < N; i++) {
    if (i == 0) flag = omp_is_initial_device();
    y[i] = a * x[i] + y[i];
  }
  CHECK_RAN_ON_DEVICE(flag, "saxpy");
  CHECK_ARRAY_EQ("saxpy", y, yref, N);

  /* 2: simd variant */
  for (int i = 0; i < N; i++) { y[i] = (float)(i % 13); }
  #pragma omp target teams distribute parallel for simd map(to: x) map(tofrom: y)
  for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
  CHECK_ARRAY_EQ("saxpy_simd", y, yref, N);

  /* 3: schedule(static,1) */
  static int sq[N], sqref[N];
  for (int i = 0; i < N; i++) sqref[i] = (i * 7) % 1001 - 3 * i;
  #pragma omp target teams distribute parallel for schedule(static, 1) map(from: sq)
  for (int i = 0; i < N; i++) sq[i] = (i * 7) % 1001 - 3 * i;
  CHECK_ARRAY_EQ("static1", sq, sqref, N);

  /* 4: schedule(dynamic, 4) with uneven work */
  static long tri[512], triref[512];
  for (int i = 0; i < 512; i++) { long s = 0; for (int k = 0; k <= i; k++) s += k * (long)k; triref[i] = s; }
  #pragma omp target teams distribute parallel for schedule(dynamic, 4) map(from: tri)
  for (int i = 0; i < 512; i++) { long s = 0; for (int k = 0; k <= i; k++) s += k * (long)k; tri[i] = s; }
  CHECK_ARRAY_EQ("dynamic", tri, triref, 512);

  /* 5: guided + dist_schedule(static, 64) */
  memset(sq, 0, sizeof sq);
  #pragma omp target teams distribute parallel for dist_schedule(static, 64) schedule(guided) map(from: sq)
  for (int i = 0; i < N; i++) sq[i] = (i * 7) % 1001 - 3 * i;
  CHECK_ARRAY_EQ("guided_dist", sq, sqref, N);

  /* 6: 5-point stencil, collapse(2) */
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) { u[i][j] = sin(i * 0.1) + cos(j * 0.2); v[i][j] = 0; }
  for (int i = 1; i < NX - 1; i++) for (int j = 1; j < NY - 1; j++)
    vref[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]) - u[i][j];
  for (int i = 0; i < NX; i++) { vref[i][0] = vref[i][NY-1] = 0; }
  for (int j = 0; j < NY; j++) { vref[0][j] = vref[NX-1][j] = 0; }
  #pragma omp target teams distribute parallel for collapse(2) map(to: u) map(tofrom: v)
  for (int i = 1; i < NX - 1; i++)
    for (int j = 1; j < NY - 1; j++)
      v[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]) - u[i][j];
  CHECK_ARRAY_CLOSE("stencil_collapse2", &v[0][0], &vref[0][0], NX * NY, 1e-15, 1e-15);

  /* 7: separate constructs: target / teams distribute / parallel for simd inner */
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) v[i][j] = 0;
  #pragma omp target map(to: u) map(tofrom: v)
  #pragma omp teams distribute
  for (int i = 1; i < NX - 1; i++) {
    #pragma omp parallel for simd
    for (int j = 1; j < NY - 1; j++)
      v[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]) - u[i][j];
  }
  CHECK_ARRAY_CLOSE("stencil_nested", &v[0][0], &vref[0][0], NX * NY, 1e-15, 1e-15);

  /* 8: loop with negative stride and non-unit step, long induction */
  static int w[N];
  memset(w, 0, sizeof w);
  #pragma omp target teams distribute parallel for map(tofrom: w)
  for (long i = N - 1; i >= 0; i -= 3) w[i] = (int)(i * 2 + 1);
  int bad = 0;
  for (long i = 0; i < N; i++) { int e = ((N - 1 - i) % 3 == 0) ? (int)(i * 2 + 1) : 0; if (w[i] != e) bad++; }
  CHECK(bad == 0, "neg stride: %d bad", bad);

  /* 9: omp loop construct (OpenMP 5.0) */
  memset(sq, 0, sizeof sq);
  #pragma omp target teams loop map(from: sq)
  for (int i = 0; i < N; i++) sq[i] = (i * 7) % 1001 - 3 * i;
  CHECK_ARRAY_EQ("teams_loop", sq, sqref, N);

  return finish("omp_loops");
}

/* C99 complex numbers (float/double) on the device, structs and arrays of
   structs mapped (including nested arrays and pointer members with
   mapper-less manual deep copy), unions/bitfields, malloc/free inside a
   target region. */
#include "common.h"
#include <complex.h>
#define N 512

typedef struct { double pos[3]; float w; int id; char tag[6]; short s; } particle_t;
typedef struct { int n; double *data; } vec_t;
typedef struct { unsigned a : 5, b : 11, c : 16; } bits_t;
typedef union { float f; unsigned u; } fu_t;

int main(void) {
  omp_device_banner("omp_complex_struct");
  /* complex double: z^2 + c iteration, cexp, cabs, conj, carg */
  static double complex z[N], zr[N];
  static float complex zf[N], zfr[N];
  static double mag[N], magr[N];
  for (int i = 0; i < N; i++) {
    double complex c = (i * 0.01 - 2.0) + (i % 17) * 0.05 * I;
    double complex w = 0;
    for (int k = 0; k < 8; k++) w = w * w + c;
    zr[i] = w * conj(c) / (c + 3.0);
    magr[i] = cabs(cexp(c * 0.3 * I)) + carg(c);
    float complex cf = (float)(i % 9) - 4.0f + (float)(i % 5) * 1.0f * I;
    zfr[i] = cf * cf - cf / (1.0f + 2.0f * I);
  }
  int flag = -1;
  #pragma omp target teams distribute parallel for map(from: z, zf, mag) map(tofrom: flag)
  for (int i = 0; i < N; i++) {
    if (i == 0) flag = omp_is_initial_device();
    double complex c = (i * 0.01 - 2.0) + (i % 17) * 0.05 * I;
    double complex w = 0;
    for (int k = 0; k < 8; k++) w = w * w + c;
    z[i] = w * conj(c) / (c + 3.0);
    mag[i] = cabs(cexp(c * 0.3 * I)) + carg(c);
    float complex cf = (float)(i % 9) - 4.0f + (float)(i % 5) * 1.0f * I;
    zf[i] = cf * cf - cf / (1.0f + 2.0f * I);
  }
  CHECK_RAN_ON_DEVICE(flag, "complex");
  int bad = 0;
  for (int i = 0; i < N; i++) {
    if (!close_rel(creal(z[i]), creal(zr[i]), 1e-9, 1e-9 * cabs(zr[i])) || !close_rel(cimag(z[i]), cimag(zr[i]), 1e-9, 1e-9 * cabs(zr[i]))) bad++;
    if (!close_rel(crealf(zf[i]), crealf(zfr[i]), 1e-5, 1e-5) || !close_rel(cimagf(zf[i]), cimagf(zfr[i]), 1e-5, 1e-5)) bad++;
  }
  CHECK(bad == 0, "complex arithmetic: %d bad (z[3]=%g%+gi ref %g%+gi)", bad, creal(z[3]), cimag(z[3]), creal(zr[3]), cimag(zr[3]));
  CHECK_ARRAY_CLOSE("cexp/cabs/carg", mag, magr, N, 1e-12, 1e-12);

  /* complex reduction via separate real/imag parts and a complex reduction */
  double complex csum = 0, csumref = 0;
  for (int i = 0; i < N; i++) csumref += zr[i] * 1e-6;
  double re = 0, im = 0;
  #pragma omp target teams distribute parallel for map(to: z) reduction(+: re, im)
  for (int i = 0; i < N; i++) { re += creal(z[i] * 1e-6); im += cimag(z[i] * 1e-6); }
  csum = re + im * I;
  CHECK(cabs(csum - csumref) <= 1e-9 * cabs(csumref), "complex sum %g%+gi vs %g%+gi", creal(csum), cimag(csum), creal(csumref), cimag(csumref));

  /* array of structs */
  static particle_t p[N], pref[N];
  for (int i = 0; i < N; i++) {
    p[i].pos[0] = i; p[i].pos[1] = -i; p[i].pos[2] = i * 0.5; p[i].w = 1.0f / (i + 1); p[i].id = i;
    snprintf(p[i].tag, sizeof p[i].tag, "p%03d", i % 1000); p[i].s = (short)(i * 3);
  }
  memcpy(pref, p, sizeof p);
  for (int i = 0; i < N; i++) {
    pref[i].pos[0] += pref[i].w; pref[i].pos[2] *= 2; pref[i].id = -pref[i].id; pref[i].tag[0] = 'q'; pref[i].s = (short)(pref[i].s - 7);
  }
  #pragma omp target teams distribute parallel for map(tofrom: p)
  for (int i = 0; i < N; i++) {
    p[i].pos[0] += p[i].w; p[i].pos[2] *= 2; p[i].id = -p[i].id; p[i].tag[0] = 'q'; p[i].s = (short)(p[i].s - 7);
  }
  CHECK(memcmp(p, pref, sizeof p) == 0, "array of structs differs");

  /* struct passed by value (firstprivate) and returned via map(from) */
  particle_t one = p[5], outp;
  #pragma omp target map(from: outp)
  { outp = one; outp.pos[1] = outp.pos[0] + outp.pos[2]; outp.tag[4] = '!'; }
  CHECK(outp.pos[1] == one.pos[0] + one.pos[2] && outp.tag[4] == '!' && outp.id == one.id, "struct firstprivate/from");

  /* struct with pointer member: map struct + pointee (pointer attachment) */
  vec_t v; v.n = N; v.data = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) v.data[i] = i;
  #pragma omp target map(to: v) map(tofrom: v.data[0:v.n])
  {
    for (int i = 0; i < v.n; i++) v.data[i] = v.data[i] * v.data[i];
  }
  bad = 0; for (int i = 0; i < N; i++) bad += v.data[i] != (double)i * i;
  CHECK(bad == 0, "struct pointer member deep map: %d bad", bad);
  /* manual deep copy with enter data */
  vec_t *vp = &v; double *vd = v.data;
  #pragma omp target enter data map(to: vd[0:N])
  #pragma omp target teams distribute parallel for map(to: vp[0:1])
  for (int i = 0; i < N; i++) vd[i] += 1;
  #pragma omp target exit data map(from: vd[0:N])
  bad = 0; for (int i = 0; i < N; i++) bad += v.data[i] != (double)i * i + 1;
  CHECK(bad == 0, "enter data of pointee: %d bad", bad);

  /* bitfields and union type punning */
  static bits_t bf[64]; static fu_t fu[64]; static unsigned bfo[64], fuo[64];
  for (int i = 0; i < 64; i++) { bf[i].a = i & 31; bf[i].b = i * 29; bf[i].c = i * 1001; fu[i].f = i * 0.75f - 3; }
  #pragma omp target teams distribute parallel for map(tofrom: bf, fu) map(from: bfo, fuo)
  for (int i = 0; i < 64; i++) {
    bf[i].b += 1; bfo[i] = bf[i].a + bf[i].b + bf[i].c;
    fuo[i] = fu[i].u ^ 0x80000000u; fu[i].u = fuo[i];
  }
  bad = 0;
  for (int i = 0; i < 64; i++) {
    bits_t e; e.a = i & 31; e.b = i * 29 + 1; e.c = i * 1001;
    if (bfo[i] != e.a + e.b + e.c || bf[i].b != e.b || bf[i].c != e.c) bad++;
    if (fu[i].f != -(i * 0.75f - 3)) bad++;
  }
  CHECK(bad == 0, "bitfields/unions: %d bad", bad);

  /* malloc/free inside a target region */
  long msum[8]; int mok[8];
  #pragma omp target teams distribute parallel for map(from: msum, mok)
  for (int t = 0; t < 8; t++) {
    int n = 100 + t * 10;
    long *buf = (long *)malloc(n * sizeof(long));
    mok[t] = buf != NULL;
    long s = 0;
    if (buf) {
      for (int i = 0; i < n; i++) buf[i] = i * t;
      for (int i = 0; i < n; i++) s += buf[i];
      free(buf);
    }
    msum[t] = s;
  }
  bad = 0; for (int t = 0; t < 8; t++) { int n = 100 + t * 10; bad += !mok[t] || msum[t] != (long)t * n * (n - 1) / 2; }
  CHECK(bad == 0, "malloc in target: %d bad (ok0=%d sum0=%ld)", bad, mok[0], msum[0]);
  /* calloc / realloc */
  int cr_ok = 0;
  #pragma omp target map(from: cr_ok)
  {
    int *c = (int *)calloc(50, sizeof(int)); int ok = c != NULL;
    for (int i = 0; ok && i < 50; i++) ok &= c[i] == 0;
    if (ok) { for (int i = 0; i < 50; i++) c[i] = i; c = (int *)realloc(c, 200 * sizeof(int)); ok = c != NULL; }
    for (int i = 0; ok && i < 50; i++) ok &= c[i] == i;
    free(c); cr_ok = ok;
  }
  CHECK(cr_ok == 1, "calloc/realloc in target");

  free(v.data);
  return finish("omp_complex_struct");
}

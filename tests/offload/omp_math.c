/* Math library on the device (newlib libm for nvptx + PTX builtins):
   float and double transcendental functions compared with tolerance,
   exactly-rounded ops compared exactly, integer/bit helpers, special values. */
#include "common.h"
#define N 200
#define NFF 12
#define NDF 22

static void eval_f(float x, float y, float *o) {
  o[0] = sinf(x); o[1] = cosf(x); o[2] = expf(x * 0.5f); o[3] = logf(y); o[4] = powf(y, 1.7f);
  o[5] = sqrtf(y); o[6] = tanhf(x); o[7] = atan2f(x, y); o[8] = fmodf(x * 10, 3.3f);
  o[9] = erff(x * 0.3f); o[10] = cbrtf(x); o[11] = hypotf(x, y);
}
static void eval_d(double x, double y, double *o) {
  o[0] = sin(x); o[1] = cos(x); o[2] = exp(x * 0.5); o[3] = log(y); o[4] = pow(y, 2.3);
  o[5] = sqrt(y); o[6] = tan(x * 0.3); o[7] = atan2(x, y); o[8] = fmod(x * 10, 3.3);
  o[9] = erf(x * 0.3); o[10] = erfc(x * 0.3); o[11] = lgamma(y); o[12] = tgamma(y * 0.5 + 0.1);
  o[13] = log1p(y); o[14] = expm1(x * 0.1); o[15] = sinh(x * 0.5); o[16] = acos(x / 11.0);
  o[17] = asinh(x); o[18] = log10(y); o[19] = cbrt(x); o[20] = exp2(x); o[21] = remainder(x * 7, 2.5);
}
static const char *fnames[NFF] = {"sinf","cosf","expf","logf","powf","sqrtf","tanhf","atan2f","fmodf","erff","cbrtf","hypotf"};
static const char *dnames[NDF] = {"sin","cos","exp","log","pow","sqrt","tan","atan2","fmod","erf","erfc","lgamma","tgamma","log1p","expm1","sinh","acos","asinh","log10","cbrt","exp2","remainder"};

int main(void) {
  omp_device_banner("omp_math");
  static float xf[N], yf[N], of[N][NFF], rf[N][NFF];
  static double xd[N], yd[N], od[N][NDF], rd[N][NDF];
  for (int i = 0; i < N; i++) {
    xd[i] = -10.0 + 20.0 * i / N + 0.013; yd[i] = 0.05 + 0.17 * i;
    xf[i] = (float)xd[i]; yf[i] = (float)yd[i];
    eval_f(xf[i], yf[i], rf[i]); eval_d(xd[i], yd[i], rd[i]);
  }
  int flag = -1;
  #pragma omp target teams distribute parallel for map(to: xf, yf, xd, yd) map(from: of, od) map(tofrom: flag)
  for (int i = 0; i < N; i++) {
    if (i == 0) flag = omp_is_initial_device();
    float *o = of[i]; double *p = od[i];
    float x = xf[i], y = yf[i]; double xx = xd[i], yy = yd[i];
    o[0] = sinf(x); o[1] = cosf(x); o[2] = expf(x * 0.5f); o[3] = logf(y); o[4] = powf(y, 1.7f);
    o[5] = sqrtf(y); o[6] = tanhf(x); o[7] = atan2f(x, y); o[8] = fmodf(x * 10, 3.3f);
    o[9] = erff(x * 0.3f); o[10] = cbrtf(x); o[11] = hypotf(x, y);
    p[0] = sin(xx); p[1] = cos(xx); p[2] = exp(xx * 0.5); p[3] = log(yy); p[4] = pow(yy, 2.3);
    p[5] = sqrt(yy); p[6] = tan(xx * 0.3); p[7] = atan2(xx, yy); p[8] = fmod(xx * 10, 3.3);
    p[9] = erf(xx * 0.3); p[10] = erfc(xx * 0.3); p[11] = lgamma(yy); p[12] = tgamma(yy * 0.5 + 0.1);
    p[13] = log1p(yy); p[14] = expm1(xx * 0.1); p[15] = sinh(xx * 0.5); p[16] = acos(xx / 11.0);
    p[17] = asinh(xx); p[18] = log10(yy); p[19] = cbrt(xx); p[20] = exp2(xx); p[21] = remainder(xx * 7, 2.5);
  }
  CHECK_RAN_ON_DEVICE(flag, "math");
  for (int f = 0; f < NFF; f++) {
    int bad = 0; double worst = 0; int wi = 0;
    for (int i = 0; i < N; i++) {
      double g = of[i][f], r = rf[i][f], e = fabs(g - r) / (fabs(r) + 1e-30);
      /* fmod of inexact products may differ by a multiple near the modulus */
      if (!close_rel(g, r, 4e-6, 4e-6) && !(f == 8 && fabs(fabs(g - r) - 3.3) < 1e-4)) { bad++; if (e > worst) { worst = e; wi = i; } }
    }
    CHECK(bad == 0, "%s: %d values off, worst rel %.3g at x=%g y=%g (dev %.9g host %.9g)", fnames[f], bad, worst, xf[wi], yf[wi], of[wi][f], rf[wi][f]);
  }
  for (int f = 0; f < NDF; f++) {
    int bad = 0; double worst = 0; int wi = 0;
    for (int i = 0; i < N; i++) {
      double g = od[i][f], r = rd[i][f], e = fabs(g - r) / (fabs(r) + 1e-300);
      if (!close_rel(g, r, 1e-12, 1e-13)) { bad++; if (e > worst) { worst = e; wi = i; } }
    }
    CHECK(bad == 0, "%s: %d values off, worst rel %.3g at x=%g y=%g (dev %.17g host %.17g)", dnames[f], bad, worst, xd[wi], yd[wi], od[wi][f], rd[wi][f]);
  }

  /* exactly specified operations: must match bit for bit */
  static double ex[N][10], exr[N][10]; static int ei[N][4], eir[N][4];
  for (int i = 0; i < N; i++) {
    double x = xd[i] * 1.37;
    exr[i][0] = floor(x); exr[i][1] = ceil(x); exr[i][2] = round(x); exr[i][3] = trunc(x); exr[i][4] = fabs(x);
    exr[i][5] = fmin(x, 1.5); exr[i][6] = fmax(x, -1.5); exr[i][7] = copysign(2.0, x); exr[i][8] = ldexp(x, i % 9 - 4);
    double ip; exr[i][9] = modf(x, &ip) + ip * 1000;
    int e2; frexp(x, &e2); eir[i][0] = e2; eir[i][1] = (int)lround(x); eir[i][2] = ilogb(x + 100.5); eir[i][3] = signbit(x) != 0;
  }
  #pragma omp target teams distribute parallel for map(to: xd) map(from: ex, ei)
  for (int i = 0; i < N; i++) {
    double x = xd[i] * 1.37;
    ex[i][0] = floor(x); ex[i][1] = ceil(x); ex[i][2] = round(x); ex[i][3] = trunc(x); ex[i][4] = fabs(x);
    ex[i][5] = fmin(x, 1.5); ex[i][6] = fmax(x, -1.5); ex[i][7] = copysign(2.0, x); ex[i][8] = ldexp(x, i % 9 - 4);
    double ip; ex[i][9] = modf(x, &ip) + ip * 1000;
    int e2; frexp(x, &e2); ei[i][0] = e2; ei[i][1] = (int)lround(x); ei[i][2] = ilogb(x + 100.5); ei[i][3] = signbit(x) != 0;
  }
  CHECK_ARRAY_EQ("exact_double_ops", &ex[0][0], &exr[0][0], N * 10);
  CHECK_ARRAY_EQ("exact_int_ops", &ei[0][0], &eir[0][0], N * 4);

  /* special values: inf, nan, -0, denormals, integer conversions */
  double sp[12]; int spi[6]; long long spl[2];
  volatile double zero = 0.0;
  #pragma omp target map(from: sp, spi, spl) map(to: zero)
  {
    double inf = 1.0 / zero, nan_ = zero / zero;
    sp[0] = inf; sp[1] = -inf; sp[2] = sqrt(-1.0 + zero); sp[3] = exp(1000.0 + zero); sp[4] = log(zero);
    sp[5] = 1e-310 * (1.0 + zero); sp[6] = sp[5] * 0.5; sp[7] = -zero; sp[8] = nan_;
    sp[9] = fmax(nan_, 3.0); sp[10] = atan(inf); sp[11] = pow(zero, 0.0);
    spi[0] = isnan(nan_) != 0; spi[1] = isinf(inf) != 0; spi[2] = (int)(-3.7 + zero); spi[3] = (int)(float)(2.5 + zero);
    spi[4] = (unsigned)(4294967295.0 + zero) == 4294967295u; spi[5] = fpclassify(1e-310 + zero) == FP_SUBNORMAL;
    spl[0] = (long long)(9.0e15 + zero); spl[1] = (long long)(-2.5e18 + zero);
  }
  CHECK(isinf(sp[0]) && sp[0] > 0 && isinf(sp[1]) && sp[1] < 0, "inf %g %g", sp[0], sp[1]);
  CHECK(isnan(sp[2]) && isinf(sp[3]) && isinf(sp[4]) && sp[4] < 0, "sqrt(-1)=%g exp(1000)=%g log(0)=%g", sp[2], sp[3], sp[4]);
  CHECK(sp[5] == 1e-310 && sp[6] == 0.5e-310, "denormals %g %g", sp[5], sp[6]);
  CHECK(sp[7] == 0 && signbit(sp[7]), "-0 sign lost: %g", sp[7]);
  CHECK(isnan(sp[8]) && sp[9] == 3.0 && close_rel(sp[10], M_PI / 2, 1e-15, 0) && sp[11] == 1.0,
        "nan/fmax/atan(inf)/pow(0,0): %g %g %g %g", sp[8], sp[9], sp[10], sp[11]);
  CHECK(spi[0] == 1 && spi[1] == 1 && spi[2] == -3 && spi[3] == 2 && spi[4] == 1 && spi[5] == 1,
        "classification/conversions %d %d %d %d %d %d", spi[0], spi[1], spi[2], spi[3], spi[4], spi[5]);
  CHECK(spl[0] == 9000000000000000LL && spl[1] == -2500000000000000000LL, "f64->s64 %lld %lld", spl[0], spl[1]);

  /* integer builtins */
  static int bi[64][5], bir[64][5];
  for (int i = 0; i < 64; i++) {
    unsigned long long v = 0x9e3779b97f4a7c15ull * (i + 1);
    bir[i][0] = __builtin_popcountll(v); bir[i][1] = __builtin_clzll(v | 1); bir[i][2] = __builtin_ctzll(v | (1ull << 63));
    bir[i][3] = (int)(__builtin_bswap32((unsigned)v) >> 3); bir[i][4] = __builtin_ffs((int)(v >> 20));
  }
  #pragma omp target teams distribute parallel for map(from: bi)
  for (int i = 0; i < 64; i++) {
    unsigned long long v = 0x9e3779b97f4a7c15ull * (i + 1);
    bi[i][0] = __builtin_popcountll(v); bi[i][1] = __builtin_clzll(v | 1); bi[i][2] = __builtin_ctzll(v | (1ull << 63));
    bi[i][3] = (int)(__builtin_bswap32((unsigned)v) >> 3); bi[i][4] = __builtin_ffs((int)(v >> 20));
  }
  CHECK_ARRAY_EQ("int_builtins", &bi[0][0], &bir[0][0], 64 * 5);

  return finish("omp_math");
}

/* Data management: target data, enter/exit data, update to/from,
   use_device_ptr/use_device_addr, is_device_ptr, omp_target_alloc/memcpy/
   memcpy_rect/free, omp_target_is_present, omp_target_associate_ptr. */
#include "common.h"
#define N 4000

int main(void) {
  omp_device_banner("omp_data");
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int nd = omp_get_num_devices();
  static double a[N], b[N], ref[N];
  for (int i = 0; i < N; i++) { a[i] = i * 0.5; b[i] = 0; }

  /* target data region with two kernels and update from in between */
  int flag = -1;
  #pragma omp target data map(to: a) map(from: b)
  {
    CHECK(omp_target_is_present(a, dev) == 1, "a not present inside target data");
    #pragma omp target teams distribute parallel for map(tofrom: flag)
    for (int i = 0; i < N; i++) { if (i == 0) flag = omp_is_initial_device(); b[i] = a[i] * 2; }
    #pragma omp target update from(b[0:N])
    { int bad = 0; for (int i = 0; i < N; i++) bad += b[i] != a[i] * 2;
      CHECK(bad == 0, "update from: %d bad, b[1]=%g", bad, b[1]); }
    /* modify a on host, push it, second kernel */
    for (int i = 0; i < N; i++) a[i] += 1.0;
    #pragma omp target update to(a[0:N])
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) b[i] = b[i] + a[i];
  }
  CHECK_RAN_ON_DEVICE(flag, "target data kernel");
  for (int i = 0; i < N; i++) ref[i] = i * 0.5 * 2 + (i * 0.5 + 1.0);
  CHECK_ARRAY_EQ("target_data", b, ref, N);
  if (nd > 0) CHECK(omp_target_is_present(a, dev) == 0, "a still present after target data");

  /* unstructured: enter data / exit data with heap arrays */
  double *h = malloc(N * sizeof *h);
  for (int i = 0; i < N; i++) h[i] = i;
  #pragma omp target enter data map(to: h[0:N])
  CHECK(omp_target_is_present(h, dev), "h not present after enter data");
  for (int it = 0; it < 3; it++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) h[i] = h[i] * 2 + 1;
  }
  if (nd > 0) {
    /* host copy must be stale until update/exit */
    CHECK(h[5] == 5.0, "host copy changed before update: %g", h[5]);
  }
  #pragma omp target update from(h[100:10])   /* partial section */
  CHECK(h[100] == ((100.0 * 2 + 1) * 2 + 1) * 2 + 1, "partial update from h[100]=%g", h[100]);
  if (nd > 0) CHECK(h[99] == 99.0, "update touched outside section h[99]=%g", h[99]);
  #pragma omp target exit data map(from: h[0:N])
  for (int i = 0; i < N; i++) ref[i] = ((i * 2.0 + 1) * 2 + 1) * 2 + 1;
  CHECK_ARRAY_EQ("enter_exit", h, ref, N);
  if (nd > 0) CHECK(!omp_target_is_present(h, dev), "h present after exit data");

  /* reference counting: two enter datas need two exits (or delete) */
  #pragma omp target enter data map(alloc: h[0:N])
  #pragma omp target enter data map(to: h[0:N])
  #pragma omp target exit data map(release: h[0:N])
  CHECK(omp_target_is_present(h, dev), "released too early (refcount)");
  #pragma omp target exit data map(delete: h[0:N])
  if (nd > 0) CHECK(!omp_target_is_present(h, dev), "present after delete");

  /* omp_target_alloc + omp_target_memcpy + is_device_ptr */
  double *d = omp_target_alloc(N * sizeof(double), dev);
  CHECK(d != NULL, "omp_target_alloc returned NULL");
  for (int i = 0; i < N; i++) h[i] = 3.0 * i;
  int rc = omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host);
  CHECK(rc == 0, "omp_target_memcpy h2d rc=%d", rc);
  #pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; i++) d[i] = d[i] + 1.0;
  double *h2 = calloc(N, sizeof *h2);
  rc = omp_target_memcpy(h2, d, N * sizeof(double), 0, 0, host, dev);
  CHECK(rc == 0, "omp_target_memcpy d2h rc=%d", rc);
  for (int i = 0; i < N; i++) ref[i] = 3.0 * i + 1.0;
  CHECK_ARRAY_EQ("target_alloc", h2, ref, N);
  /* memcpy with offsets: copy d[10..19] to h2[0..9] */
  rc = omp_target_memcpy(h2, d, 10 * sizeof(double), 0, 10 * sizeof(double), host, dev);
  CHECK(rc == 0 && h2[0] == 31.0 && h2[9] == 58.0, "memcpy offset rc=%d h2[0]=%g h2[9]=%g", rc, h2[0], h2[9]);

  /* device-to-device memcpy */
  double *d2 = omp_target_alloc(N * sizeof(double), dev);
  rc = omp_target_memcpy(d2, d, N * sizeof(double), 0, 0, dev, dev);
  CHECK(rc == 0, "d2d memcpy rc=%d", rc);
  double s = 0;
  #pragma omp target teams distribute parallel for is_device_ptr(d2) reduction(+: s)
  for (int i = 0; i < N; i++) s += d2[i];
  CHECK(s == 3.0 * (N - 1) * N / 2 + N, "d2d sum %g", s);

  /* omp_target_memcpy_rect: 2-D sub-block */
  {
    enum { R = 12, C = 10 };
    static int src[R][C], dst[R][C];
    for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) { src[i][j] = i * 100 + j; dst[i][j] = -1; }
    int *dd = omp_target_alloc(sizeof src, dev);
    size_t vol[2] = {4, 5}, doff[2] = {2, 3}, soff[2] = {2, 3}, dims[2] = {R, C};
    /* upload whole, then download a 4x5 block */
    rc = omp_target_memcpy(dd, src, sizeof src, 0, 0, dev, host);
    rc |= omp_target_memcpy_rect(dst, dd, sizeof(int), 2, vol, doff, soff, dims, dims, host, dev);
    int bad = 0;
    for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) {
      int in = i >= 2 && i < 6 && j >= 3 && j < 8;
      if (dst[i][j] != (in ? src[i][j] : -1)) bad++;
    }
    CHECK(rc == 0 && bad == 0, "memcpy_rect rc=%d bad=%d", rc, bad);
    omp_target_free(dd, dev);
  }

  /* use_device_ptr: get device address of mapped data and pass it along */
  double *dp_seen = NULL;
  for (int i = 0; i < N; i++) h[i] = i;
  #pragma omp target data map(tofrom: h[0:N])
  {
    #pragma omp target data use_device_ptr(h)
    {
      dp_seen = h;
      #pragma omp target teams distribute parallel for is_device_ptr(h)
      for (int i = 0; i < N; i++) h[i] = -h[i];
    }
  }
  for (int i = 0; i < N; i++) ref[i] = -(double)i;
  CHECK_ARRAY_EQ("use_device_ptr", h, ref, N);
  if (nd > 0) CHECK(dp_seen != h, "use_device_ptr gave host address");

  /* omp_target_associate_ptr / disassociate */
  double *dz = omp_target_alloc(N * sizeof(double), dev);
  for (int i = 0; i < N; i++) h2[i] = 7.0;
  if (nd > 0) {
    rc = omp_target_associate_ptr(h2, dz, N * sizeof(double), 0, dev);
    CHECK(rc == 0, "associate_ptr rc=%d", rc);
    CHECK(omp_target_is_present(h2, dev), "associated not present");
    #pragma omp target update to(h2[0:N])
    #pragma omp target teams distribute parallel for map(tofrom: h2[0:N])
    for (int i = 0; i < N; i++) h2[i] *= 2;
    /* map(tofrom) on associated storage does not copy back at region end */
    #pragma omp target update from(h2[0:N])
    int bad = 0; for (int i = 0; i < N; i++) bad += h2[i] != 14.0;
    CHECK(bad == 0, "associate_ptr data bad=%d", bad);
    rc = omp_target_disassociate_ptr(h2, dev);
    CHECK(rc == 0, "disassociate rc=%d", rc);
  }
  omp_target_free(dz, dev);
  omp_target_free(d, dev);
  omp_target_free(d2, dev);

  /* firstprivate scalars / default map of scalars and always modifier */
  int sc = 5; double dsc = 2.5; int outv = 0;
  #pragma omp target map(from: outv)
  { outv = sc * 10 + (int)(dsc * 2); sc = 99; }
  CHECK(outv == 55 && sc == 5, "firstprivate scalar outv=%d sc=%d", outv, sc);
  int arr[4] = {1, 2, 3, 4};
  #pragma omp target data map(to: arr)
  {
    arr[0] = 100;
    #pragma omp target map(always, to: arr)
    { arr[1] = arr[0] + 1; }
    #pragma omp target map(always, from: arr)
    { }
  }
  CHECK(arr[0] == 100 && arr[1] == 101, "always modifier arr=%d,%d", arr[0], arr[1]);

  free(h); free(h2);
  return finish("omp_data");
}

/*
 * isa_edges -- corners of the PTX ISA that ordinary arithmetic never
 * reaches, each checked against the host:
 *   - __syncthreads_count, __syncthreads_and and __syncthreads_or
 *     (bar.red) in blocks of 256 threads: straight, after a divergent
 *     branch the warps rejoin from, in a loop, inside a branch that is
 *     uniform per block, and with some threads returned before the barrier
 *     (they count neither as arrived nor in the result);
 *   - sin, cos and tan of doubles of large magnitude, whose argument
 *     reduction takes the math library's slow path (a small array in local
 *     memory, an inline block of mad.lo.cc/madc), within 2 ulp of the host;
 *   - conversions into a narrower signed type held in a 32-bit register
 *     (cvt.rni.sat.s8.f32, cvt.sat.s8.s32, ld.global.s8): the ISA
 *     sign-extends the result to the register's width;
 *   - a 64 x 64 -> 128-bit multiply-add of 32-bit limbs by mad.lo.cc,
 *     madc.hi.cc and addc chains after a carry is left set, against
 *     unsigned __int128 (only addc, subc and madc read the carry);
 *   - float-to-integer conversions of NaN: 0 unless the source is .f64 or
 *     the destination 64 bits wide, then 1 << (bits - 1).
 * All results are exact except the trigonometry.
 */
#include "sample.h"

#define BLOCK 256
#define SYNC_FIELDS 8

/* ---- bar.red ----------------------------------------------------------- */

__host__ __device__ static unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    return x;
}

/* The value each thread votes on, after a branch that splits warps. */
__host__ __device__ static unsigned vote_value(unsigned v)
{
    if (v & 1)
        v = v * 3 + 1;
    else
        v >>= 1;
    return v;
}

__global__ void sync_reduce(const unsigned *in, int *out, int quit)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *o = out + (size_t)t * SYNC_FIELDS;
    if ((int)threadIdx.x >= quit)
        return;                                 /* gone before every barrier */
    unsigned v = vote_value(in[t]);
    bool p = (v % 5) < 2;
    o[0] = __syncthreads_count(p);
    o[1] = __syncthreads_and(p);
    o[2] = __syncthreads_or(p);
    o[3] = __syncthreads_and(v != 0xFFFFFFFFu);     /* true everywhere */
    o[4] = __syncthreads_or(v == 0xFFFFFFFFu);      /* false everywhere */
    int sum = 0;
    for (int i = 0; i < 4; i++)                     /* one barrier per trip */
        sum += __syncthreads_count((v >> i) & 1);
    o[5] = sum;
    if (blockIdx.x & 1)                             /* uniform in the block */
        o[6] = __syncthreads_or(threadIdx.x == 3);
    else
        o[6] = 10 + __syncthreads_and(threadIdx.x != 3);
    o[7] = __syncthreads_count(1);
}

static int check_sync(int blocks, int quit, const unsigned *in, const int *out)
{
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        int want[SYNC_FIELDS] = {0}, n = 0, count = 0;
        int bits[4] = {0};
        for (int x = 0; x < quit; x++) {
            unsigned v = vote_value(in[b * BLOCK + x]);
            n++;
            count += (v % 5) < 2;
            for (int i = 0; i < 4; i++)
                bits[i] += (v >> i) & 1;
        }
        want[0] = count;
        want[1] = count == n;
        want[2] = count != 0;
        want[3] = 1;
        want[4] = 0;
        want[5] = bits[0] + bits[1] + bits[2] + bits[3];
        want[6] = b & 1 ? quit > 3 : 10 + (quit <= 3);
        want[7] = n;
        for (int x = 0; x < BLOCK; x++)
            for (int k = 0; k < SYNC_FIELDS; k++) {
                int w = x < quit ? want[k] : -7;
                int got = out[((size_t)b * BLOCK + x) * SYNC_FIELDS + k];
                if (got != w && bad++ < 4)
                    std::printf("  sync (quit %d) block %d thread %d field %d: %d, want %d\n", quit, b, x, k,
                                got, w);
            }
    }
    return bad;
}

/* ---- sin, cos, tan of large doubles ----------------------------------- */

__global__ void trig(const double *x, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[3 * i] = sin(x[i]);
        out[3 * i + 1] = cos(x[i]);
        out[3 * i + 2] = tan(x[i]);
    }
}

/* Distance in units in the last place of want (exact results compare 0). */
static double ulps(double got, double want)
{
    if (got == want)
        return 0;
    if (std::isnan(got) || std::isnan(want))
        return 1e300;
    double u = std::nextafter(std::fabs(want), INFINITY) - std::fabs(want);
    return std::fabs(got - want) / u;
}

/* ---- narrow signed results in 32-bit registers ------------------------- */

__global__ void narrow(const float *f, const int *i, const signed char *c, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int a, b, d;
    asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(a) : "f"(f[t]));
    asm("cvt.sat.s8.s32 %0, %1;" : "=r"(b) : "r"(i[t]));
    asm volatile("ld.global.s8 %0, [%1];" : "=r"(d) : "l"(c + t));
    out[3 * t] = a;
    out[3 * t + 1] = b;
    out[3 * t + 2] = d;
}

static int sat8(long long v) { return v > 127 ? 127 : v < -128 ? -128 : (int)v; }

/* ---- multiply-add chains ----------------------------------------------- */

/* r = a * b + c (mod 2^128) from 32-bit limbs.  Each chain starts with
 * mad.lo.cc, which must ignore the carry the add.cc before it leaves set
 * (0xFFFFFFFF + 1 carries out). */
__global__ void mul_add_128(const unsigned long long *ab, const unsigned long long *c,
                            unsigned long long *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned long long a = ab[2 * t], b = ab[2 * t + 1], c_lo = c[2 * t], c_hi = c[2 * t + 1];
    unsigned a0 = (unsigned)a, a1 = (unsigned)(a >> 32), b0 = (unsigned)b, b1 = (unsigned)(b >> 32);
    unsigned c0 = (unsigned)c_lo, c1 = (unsigned)(c_lo >> 32), c2 = (unsigned)c_hi, c3 = (unsigned)(c_hi >> 32);
    unsigned r0, r1, r2, r3;
    asm("{\n\t.reg .u32 junk, ones;\n\t"
        "mov.u32 ones, 0xFFFFFFFF;\n\t"
        "add.cc.u32 junk, ones, 1;\n\t"
        "mad.lo.cc.u32 %0, %4, %6, %8;\n\t"
        "madc.hi.cc.u32 %1, %4, %6, %9;\n\t"
        "madc.lo.cc.u32 %2, %5, %7, %10;\n\t"
        "madc.hi.u32 %3, %5, %7, %11;\n\t"
        "add.cc.u32 junk, ones, 1;\n\t"
        "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, %3, 0;\n\t"
        "add.cc.u32 junk, ones, 1;\n\t"
        "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
        "addc.u32 %3, %3, 0;\n\t}"
        : "=&r"(r0), "=&r"(r1), "=&r"(r2), "=&r"(r3)
        : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
    unsigned long long lo, hi;
    /* The same in 64-bit limbs: mad.lo.cc then madc.hi. */
    asm("{\n\t.reg .u64 junk, ones;\n\t"
        "mov.u64 ones, 0xFFFFFFFFFFFFFFFF;\n\t"
        "add.cc.u64 junk, ones, 1;\n\t"
        "mad.lo.cc.u64 %0, %2, %3, %4;\n\t"
        "madc.hi.u64 %1, %2, %3, %5;\n\t}"
        : "=&l"(lo), "=&l"(hi)
        : "l"(a), "l"(b), "l"(c_lo), "l"(c_hi));
    out[4 * t] = (unsigned long long)r1 << 32 | r0;
    out[4 * t + 1] = (unsigned long long)r3 << 32 | r2;
    out[4 * t + 2] = lo;
    out[4 * t + 3] = hi;
}

/* ---- NaN to integer ---------------------------------------------------- */

#define NAN_FIELDS 8

__global__ void nan_convert(const float *fnan, const double *dnan, unsigned long long *out)
{
    float f = *fnan;
    double d = *dnan;
    int s32f, s32d;
    unsigned u32d, u16d;
    long long s64d, s64f;
    unsigned long long u64f, u64d;
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(s32f) : "f"(f));
    asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(s32d) : "d"(d));
    asm("cvt.rzi.u32.f64 %0, %1;" : "=r"(u32d) : "d"(d));
    asm("cvt.rni.u16.f64 %0, %1;" : "=r"(u16d) : "d"(d));
    asm("cvt.rzi.s64.f64 %0, %1;" : "=l"(s64d) : "d"(d));
    asm("cvt.rzi.s64.f32 %0, %1;" : "=l"(s64f) : "f"(f));
    asm("cvt.rmi.u64.f32 %0, %1;" : "=l"(u64f) : "f"(f));
    asm("cvt.rpi.u64.f64 %0, %1;" : "=l"(u64d) : "d"(d));
    out[0] = (unsigned)s32f;
    out[1] = (unsigned)s32d;
    out[2] = u32d;
    out[3] = u16d;
    out[4] = (unsigned long long)s64d;
    out[5] = (unsigned long long)s64f;
    out[6] = u64f;
    out[7] = u64d;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "isa_edges");
    int blocks = size == SIZE_TINY ? 4 : size == SIZE_SMALL ? 16 : 64;
    int nthreads = blocks * BLOCK;
    lcg rng(2718);
    int bad_sync = 0, bad_trig = 0, bad_narrow = 0, bad_mad = 0, bad_nan = 0;
    double worst_ulps = 0;

    /* bar.red: all threads, a block with its last warp partly gone, and
     * blocks of which only the first warp's first lanes stay. */
    {
        unsigned *h_in = new unsigned[nthreads];
        int *h_out = new int[(size_t)nthreads * SYNC_FIELDS];
        for (int i = 0; i < nthreads; i++)
            h_in[i] = mix(rng.next());
        unsigned *d_in;
        int *d_out;
        CHECK(cudaMalloc(&d_in, nthreads * sizeof(unsigned)));
        CHECK(cudaMalloc(&d_out, (size_t)nthreads * SYNC_FIELDS * sizeof(int)));
        CHECK(cudaMemcpy(d_in, h_in, nthreads * sizeof(unsigned), cudaMemcpyHostToDevice));
        static const int quits[] = { BLOCK, 200, 3 };
        for (int q : quits) {
            for (size_t k = 0; k < (size_t)nthreads * SYNC_FIELDS; k++)
                h_out[k] = -7;
            CHECK(cudaMemcpy(d_out, h_out, (size_t)nthreads * SYNC_FIELDS * sizeof(int), cudaMemcpyHostToDevice));
            sync_reduce<<<blocks, BLOCK>>>(d_in, d_out, q);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(h_out, d_out, (size_t)nthreads * SYNC_FIELDS * sizeof(int), cudaMemcpyDeviceToHost));
            bad_sync += check_sync(blocks, q, h_in, h_out);
        }
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        delete[] h_in;
        delete[] h_out;
    }

    /* sin, cos, tan: magnitudes from 2^20 to near DBL_MAX, both signs. */
    {
        /* Not 6381956970095103 * 2^797, the hardest case for argument
         * reduction: its cosine (-4.7e-19) lies so close to zero that the
         * library's 128-bit reduction gives it 8 ulp off, on a GPU too (the
         * same PTX computed on the host agrees with ptxsim). */
        static const double fixed[] = { 1e22, 1e300, -3.5e15, 0x1p1000, 123456789.0, 1e6, -1.7976931348623157e308,
                                        0x1.921fb54442d18p+52, -1e100, 0.5 };
        const int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
        int n = nfixed + (size == SIZE_TINY ? 52 : size == SIZE_SMALL ? 500 : 4000);
        double *h_x = new double[n], *h_out = new double[3 * n];
        for (int i = 0; i < n; i++) {
            if (i < nfixed) {
                h_x[i] = fixed[i];
                continue;
            }
            double m = 1.0 + (rng.next() & 0xFFFFFF) / 16777216.0;
            int e = 20 + (int)(rng.next() % 1000);
            h_x[i] = std::ldexp(m, e) * (rng.next() & 1 ? -1 : 1);
        }
        double *d_x, *d_out;
        CHECK(cudaMalloc(&d_x, n * sizeof(double)));
        CHECK(cudaMalloc(&d_out, 3 * n * sizeof(double)));
        CHECK(cudaMemcpy(d_x, h_x, n * sizeof(double), cudaMemcpyHostToDevice));
        trig<<<(n + 63) / 64, 64>>>(d_x, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            double want[3] = { std::sin(h_x[i]), std::cos(h_x[i]), std::tan(h_x[i]) };
            for (int k = 0; k < 3; k++) {
                double u = ulps(h_out[3 * i + k], want[k]);
                worst_ulps = u > worst_ulps ? u : worst_ulps;
                if (u > 2 && bad_trig++ < 4)
                    std::printf("  %s(%.17g) = %.17g, host %.17g (%.1f ulp)\n", k == 0 ? "sin" : k == 1 ? "cos" : "tan",
                                h_x[i], h_out[3 * i + k], want[k], u);
            }
        }
        CHECK(cudaFree(d_x));
        CHECK(cudaFree(d_out));
        delete[] h_x;
        delete[] h_out;
    }

    /* Narrow signed conversions and loads into 32-bit registers. */
    {
        static const float ffixed[] = { -1.5f, 2.5f, -2.5f, 300.0f, -300.0f, -0.5f, 127.5f, -128.5f, -127.5f,
                                        NAN, INFINITY, -INFINITY, -1e-30f, 0.0f, -0.0f, 126.5f };
        static const int ifixed[] = { -2, 127, 128, -128, -129, 0, -1, 1 << 30, -(1 << 30), 200, -200, 255 };
        const int n = 256;
        float h_f[n];
        int h_i[n], h_out[3 * n];
        signed char h_c[n];
        for (int t = 0; t < n; t++) {
            h_f[t] = t < 16 ? ffixed[t] : rng.uniform(-200.0f, 200.0f);
            h_i[t] = t < 12 ? ifixed[t] : (int)(rng.next() << 1) >> (rng.next() % 24);
            h_c[t] = (signed char)(t * 7 - 128);
        }
        float *d_f;
        int *d_i, *d_out;
        signed char *d_c;
        CHECK(cudaMalloc(&d_f, sizeof h_f));
        CHECK(cudaMalloc(&d_i, sizeof h_i));
        CHECK(cudaMalloc(&d_c, sizeof h_c));
        CHECK(cudaMalloc(&d_out, sizeof h_out));
        CHECK(cudaMemcpy(d_f, h_f, sizeof h_f, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_i, h_i, sizeof h_i, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_c, h_c, sizeof h_c, cudaMemcpyHostToDevice));
        narrow<<<(n + 127) / 128, 128>>>(d_f, d_i, d_c, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        for (int t = 0; t < n; t++) {
            float x = h_f[t];
            /* Round to nearest even, saturate; NaN gives 0. */
            int a = std::isnan(x) ? 0 : x >= 127.0f ? 127 : x <= -128.0f ? -128 : sat8((long long)std::nearbyint(x));
            int want[3] = { a, sat8(h_i[t]), h_c[t] };
            for (int k = 0; k < 3; k++)
                if (h_out[3 * t + k] != want[k] && bad_narrow++ < 4)
                    std::printf("  narrow %d field %d: 0x%08x, want 0x%08x\n", t, k, (unsigned)h_out[3 * t + k],
                                (unsigned)want[k]);
        }
        CHECK(cudaFree(d_f));
        CHECK(cudaFree(d_i));
        CHECK(cudaFree(d_c));
        CHECK(cudaFree(d_out));
    }

    /* 128-bit multiply-add. */
    {
        const int n = size == SIZE_TINY ? 256 : 4096;
        unsigned long long *h_ab = new unsigned long long[2 * n], *h_c = new unsigned long long[2 * n];
        unsigned long long *h_out = new unsigned long long[4 * n];
        for (int t = 0; t < 2 * n; t++) {
            h_ab[t] = (unsigned long long)rng.next() << 33 ^ (unsigned long long)rng.next() << 2 ^ rng.next();
            h_c[t] = (unsigned long long)rng.next() << 32 | rng.next();
        }
        h_ab[0] = h_ab[1] = ~0ull;                  /* every limb product and sum carries */
        h_c[0] = h_c[1] = ~0ull;
        unsigned long long *d_ab, *d_c, *d_out;
        CHECK(cudaMalloc(&d_ab, 2 * n * sizeof(unsigned long long)));
        CHECK(cudaMalloc(&d_c, 2 * n * sizeof(unsigned long long)));
        CHECK(cudaMalloc(&d_out, 4 * n * sizeof(unsigned long long)));
        CHECK(cudaMemcpy(d_ab, h_ab, 2 * n * sizeof(unsigned long long), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_c, h_c, 2 * n * sizeof(unsigned long long), cudaMemcpyHostToDevice));
        mul_add_128<<<(n + 127) / 128, 128>>>(d_ab, d_c, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, 4 * n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        for (int t = 0; t < n; t++) {
            unsigned __int128 c = (unsigned __int128)h_c[2 * t + 1] << 64 | h_c[2 * t];
            unsigned __int128 r = (unsigned __int128)h_ab[2 * t] * h_ab[2 * t + 1] + c;
            unsigned long long lo = (unsigned long long)r, hi = (unsigned long long)(r >> 64);
            for (int k = 0; k < 2; k++)
                if ((h_out[4 * t + 2 * k] != lo || h_out[4 * t + 2 * k + 1] != hi) && bad_mad++ < 4)
                    std::printf("  mad128 (%s limbs) %d: 0x%016llx%016llx, want 0x%016llx%016llx\n",
                                k ? "64-bit" : "32-bit", t, h_out[4 * t + 2 * k + 1], h_out[4 * t + 2 * k], hi, lo);
        }
        CHECK(cudaFree(d_ab));
        CHECK(cudaFree(d_c));
        CHECK(cudaFree(d_out));
        delete[] h_ab;
        delete[] h_c;
        delete[] h_out;
    }

    /* NaN to integer (PTX ISA 9.0, cvt). */
    {
        float fnan = NAN;
        double dnan = NAN;
        float *d_f;
        double *d_d;
        unsigned long long *d_out, h_out[NAN_FIELDS];
        CHECK(cudaMalloc(&d_f, sizeof fnan));
        CHECK(cudaMalloc(&d_d, sizeof dnan));
        CHECK(cudaMalloc(&d_out, sizeof h_out));
        CHECK(cudaMemcpy(d_f, &fnan, sizeof fnan, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_d, &dnan, sizeof dnan, cudaMemcpyHostToDevice));
        nan_convert<<<1, 1>>>(d_f, d_d, d_out);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        static const char *const names[NAN_FIELDS] = { "s32.f32", "s32.f64", "u32.f64", "u16.f64",
                                                       "s64.f64", "s64.f32", "u64.f32", "u64.f64" };
        static const unsigned long long want[NAN_FIELDS] = { 0, 0x80000000u, 0x80000000u, 0x8000u,
                                                             1ull << 63, 1ull << 63, 1ull << 63, 1ull << 63 };
        for (int k = 0; k < NAN_FIELDS; k++)
            if (h_out[k] != want[k] && bad_nan++ < 4)
                std::printf("  cvt.%s of NaN: 0x%llx, want 0x%llx\n", names[k], h_out[k], want[k]);
    }

    bool ok = !bad_sync && !bad_trig && !bad_narrow && !bad_mad && !bad_nan;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s sync=%d trig=%d (worst %.2f ulp) narrow=%d mad128=%d nan=%d wrong", size_name(size),
                  bad_sync, bad_trig, worst_ulps, bad_narrow, bad_mad, bad_nan);
    return report(ok, detail);
}

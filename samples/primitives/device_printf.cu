/*
 * device_printf -- printf from a kernel, with the conversions device printf
 * supports: %d %u %x %f %e %g %s %c %p %ld %lld, flags, widths and
 * precisions.  Device output goes to the program's stdout and the program
 * cannot read it back, so it checks only what it can see: each thread also
 * stores the values it printed and printf's return value (negative means an
 * error), and the host checks those.  Everything printed is deterministic
 * (the %p argument is a made-up constant, not a real address), and the
 * number of device lines is fixed: 1 header + 2 per thread, all beginning
 * "device_printf:", so a test can count and compare them.  The output is
 * flushed at cudaDeviceSynchronize(), before the verdict line.
 */
#include "sample.h"

#define BLOCKS 2
#define THREADS 4
#define LINES (1 + 2 * BLOCKS * THREADS)

struct seen {
    int ret_header, ret_int, ret_float;
    int ival;
    long long llval;
    double fval;
};

__global__ void talk(seen *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    seen s;
    s.ret_header = 0;
    if (t == 0)
        s.ret_header = printf("device_printf: header %d blocks x %d threads, %d lines\n", gridDim.x, blockDim.x,
                              LINES);
    s.ival = (int)(t * 37) - 100;
    s.llval = -1234567890123ll * (long long)(t + 1);
    long lval = 100000L * (long)t + 7;
    const char *word = t % 2 ? "odd" : "even";
    char c = (char)('A' + t);
    void *p = (void *)(unsigned long long)(0xABC000u + 16u * t);
    s.ret_int = printf("device_printf: int t=%u b=%d val=%d pad=[%5d] sign=[%+d] hex=%x HEX=%08X long=%ld "
                       "llong=%lld c=%c s=[%-5s] p=%p\n",
                       t, blockIdx.x, s.ival, s.ival, s.ival, (unsigned)s.ival, t * 0x1111u, lval, s.llval, c, word, p);
    s.fval = t * 1.25 - 3.0 + 1.0 / 1024;
    s.ret_float = printf("device_printf: float t=%u f=%f p3=%.3f w=[%10.4f] left=[%-9.2f] e=%e e2=%.2e g=%g big=%g\n",
                         t, s.fval, s.fval, s.fval, s.fval, s.fval * 1e6, s.fval, s.fval, s.fval * 1e20);
    out[t] = s;
}

int main(int argc, char **argv)
{
    /* The output is the point here, so every size is the same launch. */
    sample_size size = parse_size(argc, argv, "device_printf");
    seen *dout, out[BLOCKS * THREADS];
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemset(dout, 0xFF, sizeof out));
    std::fflush(stdout); /* host lines before device lines */
    talk<<<BLOCKS, THREADS>>>(dout);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int wrong = 0, failed_printf = 0;
    for (int t = 0; t < BLOCKS * THREADS; t++) {
        const seen &s = out[t];
        wrong += s.ival != t * 37 - 100;
        wrong += s.llval != -1234567890123ll * (t + 1);
        wrong += s.fval != t * 1.25 - 3.0 + 1.0 / 1024;
        failed_printf += s.ret_int < 0 || s.ret_float < 0 || s.ret_header < 0;
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s device lines=%d (not captured) wrong values=%d printf errors=%d (tolerance: exact)",
                  size_name(size), LINES, wrong, failed_printf);
    CHECK(cudaFree(dout));
    return report(wrong == 0 && failed_printf == 0, detail);
}

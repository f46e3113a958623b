/*
 * rt_progress.c -- a status line on the terminal while a long launch runs:
 * the kernel, its blocks done, warp-instructions and their rate, simulated
 * cycles in timing mode, and an estimate of the time left.  Only when
 * stderr is a terminal and the run is not --quiet, so pipes, logs and the
 * tests never see it; and only after the launch has run a second
 * (PTXSIM_PROGRESS_AFTER seconds: tests/progress.sh asks for less, so that
 * its check does not hang on how fast this machine is), so that short
 * kernels print nothing.  The line is redrawn in place at most twice a
 * second and erased when the launch ends, before its summary line.
 */
#include "rt_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    const char *kernel;
    double start, last;
    bool shown;
} line;

bool rt_progress_wanted(void)
{
    static int tty = -1;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    return tty && !rt.cfg.quiet && !rt.dbg;
}

void rt_progress_begin(const char *kernel)
{
    line.kernel = kernel;
    line.start = rt_wall_seconds();
    line.last = line.start - 1.0;       /* the first drawing waits for `after` alone */
    line.shown = false;
}

/* Seconds a launch runs before its status line shows. */
static double show_after(void)
{
    static double after = -1;
    if (after < 0) {
        const char *s = getenv("PTXSIM_PROGRESS_AFTER");
        after = s && *s && atof(s) >= 0 ? atof(s) : 1.0;
    }
    return after;
}

/* v scaled to k, M or G with one decimal: "12.3 M". */
static void scaled(char *buf, size_t n, double v)
{
    const char *unit = "";
    if (v >= 1e9) {
        v /= 1e9;
        unit = " G";
    } else if (v >= 1e6) {
        v /= 1e6;
        unit = " M";
    } else if (v >= 1e3) {
        v /= 1e3;
        unit = " k";
    }
    snprintf(buf, n, *unit ? "%.1f%s" : "%.0f%s", v, unit);
}

void rt_progress(void *ctx, const exec_progress *p)
{
    (void)ctx;
    double now = rt_wall_seconds(), elapsed = now - line.start;
    if (elapsed < show_after() || now - line.last < 0.5)
        return;
    line.last = now;
    char insts[32], rate[32], cycles[48] = "", left[32] = "";
    scaled(insts, sizeof insts, (double)p->warp_insts);
    scaled(rate, sizeof rate, (double)p->warp_insts / elapsed);
    if (p->cycles) {
        char c[32];
        scaled(c, sizeof c, (double)p->cycles);
        snprintf(cycles, sizeof cycles, ", %s cycles", c);
    }
    if (p->ctas_done && p->ctas_done < p->ctas_total)
        snprintf(left, sizeof left, ", about %.0f s left",
                 elapsed * (double)(p->ctas_total - p->ctas_done) / (double)p->ctas_done);
    size_t name = strcspn(line.kernel, "(");    /* the name without its parameters */
    fprintf(stderr, "\r\033[Kptxsim: %.*s: block %llu of %llu, %s warp-insts (%s/s)%s%s", (int)(name < 60 ? name : 60),
            line.kernel,
            (unsigned long long)p->ctas_done, (unsigned long long)p->ctas_total, insts, rate, cycles, left);
    fflush(stderr);
    line.shown = true;
}

void rt_progress_end(void)
{
    if (line.shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    line.shown = false;
}

/*
 * parse.c -- PTX parsing speed and memory: every file given is parsed
 * (with its analysis) repeatedly for about a second; prints MB/s of PTX
 * text and the memory the parsed module holds against the text size.
 *
 *   parse FILE.ptx...
 */
#include "frontend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    printf("| file | bytes | MB/s | module memory / text |\n|---|---:|---:|---:|\n");
    double total_bytes = 0, total_s = 0;
    for (int i = 1; i < argc; i++) {
        size_t n;
        char *text = ptx_read_file(argv[i], &n);
        if (!text) {
            perror(argv[i]);
            return 1;
        }
        /* Memory: what the parsed module holds (its copy of the text included). */
        ptx_diag d = {0};
        isa_module *m = fe_parse(text, (size_t)n, argv[i], &d);
        if (!m) {
            fprintf(stderr, "%s: %s\n", argv[i], d.msg);
            return 1;
        }
        size_t held = isa_module_bytes(m);
        isa_module_free(m);
        int reps = 0;
        double t0 = now_s(), t;
        do {
            isa_module *mm = fe_parse(text, (size_t)n, argv[i], &d);
            isa_module_free(mm);
            reps++;
        } while ((t = now_s() - t0) < 1.0);
        double mbs = (double)n * reps / t / 1e6;
        total_bytes += (double)n * reps;
        total_s += t;
        const char *base = strrchr(argv[i], '/');
        printf("| %s | %ld | %.1f | %.1fx |\n", base ? base + 1 : argv[i], n, mbs, (double)held / (double)n);
        free(text);
    }
    printf("| all | | %.1f | |\n", total_bytes / total_s / 1e6);
    return 0;
}

/*
 * cores.c -- a fixed amount of pure CPU work, for bench/run-threads to ask
 * how many cores' worth the machine gives at the moment.
 *
 * A virtual machine's cores are the host's to give: on the development
 * machine (2 virtual cores) two copies of this program run at once
 * sometimes take as long as one alone and sometimes twice as long, minute
 * to minute.  A speedup measured while the host gives one core's worth
 * says nothing of ptxsim, so bench/run-threads runs n copies at once, and
 * one alone, before and after each pair of runs, and counts the pair only
 * where n copies ran nearly as fast as one.
 *
 * Two loops, each timed on its own clock (starting the process does not
 * count), printed as two figures of seconds:
 *   - a chain of dependent multiplies: one instruction in flight, so it
 *     slows only where a copy gets less than a whole core's time;
 *   - eight independent chains, which keep the core's multiplier busy
 *     every cycle: two virtual cores that the host placed on the two
 *     hardware threads of one physical core share that multiplier, and
 *     this loop then slows by half where the first does not.
 * No memory traffic: nothing else two cores share can slow either.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    uint64_t steps = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000u;
    const uint64_t k = 6364136223846793005u;
    volatile uint64_t x = 1;
    double t0 = now();
    for (uint64_t i = 0; i < steps; i++)
        x = x * k + i;
    double latency = now() - t0;

    uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    t0 = now();
    for (uint64_t i = 0; i < steps / 2; i++) {
        a = a * k + i, b = b * k + i, c = c * k + i, d = d * k + i;
        e = e * k + i, f = f * k + i, g = g * k + i, h = h * k + i;
        /* Keeps the chains in general registers: no vector unit's form. */
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
    }
    double throughput = now() - t0;
    x = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
    printf("%.6f %.6f\n", latency, throughput);
    return 0;
}

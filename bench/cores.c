/*
 * cores.c -- a fixed amount of pure CPU work, for bench/run-threads to ask
 * how many cores' worth the machine gives at the moment.
 *
 * A virtual machine's cores are the host's to give: on the development
 * machine (2 virtual cores) two copies of this loop run at once sometimes
 * take as long as one alone and sometimes twice as long, minute to minute.
 * A speedup measured while the host gives one core's worth says nothing of
 * ptxsim, so bench/run-threads runs n copies at once, and one alone, before
 * and after each pair of runs, and counts the pair only where n copies ran
 * nearly as fast as one.
 *
 * Prints the seconds of wall time the loop took (its own clock, so that
 * starting the process does not count).  No memory traffic: a chain of
 * dependent multiplies, which no two cores can slow for each other except
 * by sharing one.
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
    volatile uint64_t x = 1;
    double t0 = now();
    for (uint64_t i = 0; i < steps; i++)
        x = x * 6364136223846793005u + i;
    printf("%.6f\n", now() - t0);
    return 0;
}

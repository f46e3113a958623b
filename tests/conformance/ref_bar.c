/*
 * ref_bar.c -- the reference for bar and barrier (PTX ISA 9.7.13.1):
 *
 *   A barrier completes when the number of threads it expects have arrived
 *   (b if given, else every thread of the CTA); .sync waits for that, and
 *   every shared-memory write before the barrier is visible to every
 *   waiting thread after it.  .arrive does not wait.  A barrier is reused
 *   once it completes.
 *   .red.popc.u32: d = the number of arrived threads whose predicate is
 *   true; .red.and.pred / .red.or.pred: d = the predicate over them, and
 *   ({!}c) negates each thread's predicate first.
 *
 * So a thread reads after the barrier what its partner wrote before it
 * (conf_xbar.c picks the partner), and the .red result is the same for
 * every thread of a group.
 */
#include "refs.h"

unsigned ref_bar_partner(unsigned t, unsigned block, bool groups, bool arrive)
{
    if (groups)                                 /* the other warp of t's pair */
        return t / 64 * 64 + (t % 64 + 32) % 64;
    return (t + (arrive ? 64 : 32)) % block;    /* arrive: the producer two warps on */
}

uint64_t ref_bar_red(const conf_form *f, const uint8_t *p, unsigned n, bool neg)
{
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++)
        count += (p[i] != 0) != neg;
    if (conf_word(f, "popc"))
        return count;
    if (conf_word(f, "and"))
        return count == n;
    return count != 0;
}

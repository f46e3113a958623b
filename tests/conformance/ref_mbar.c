/*
 * ref_mbar.c -- the reference for mbarrier (PTX ISA 9.7.13.15):
 *
 *   init sets the expected arrival count; a phase completes when as many
 *   arrivals as expected (an arrive with a count counts that many) have
 *   been made on it and its tx-count (expect_tx adds, complete_tx takes
 *   away) is zero, and the next phase begins with the same expectation,
 *   less what arrive_drop dropped.  test_wait and try_wait are true once
 *   the phase the state (or the parity) names has completed, and every
 *   write a thread made before it arrived is then visible to the waiter.
 *
 * So a thread that waits for a phase reads what its partner wrote before
 * arriving on it (conf_xmbar.c picks the partner).
 */
#include "refs.h"

int ref_mbar_partner(unsigned t, unsigned block, unsigned phase, bool drop)
{
    if (drop && phase == 1)                     /* only warps 2 and 3 are left */
        return t < 64 ? -1 : (int)(64 + (t - 64 + 32) % 64);
    return (int)((t + 32) % block);
}

bool ref_mbar_incomplete(unsigned tx, unsigned t)
{
    return (tx == REF_MBAR_TX_HI && t >= 64) || (tx == REF_MBAR_TX_W3 && t >= 96);
}

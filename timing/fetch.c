/*
 * fetch.c -- instruction fetch: each SM's L1 instruction cache.
 *
 * A warp holds the code line its next instructions come from.  When its pc
 * moves to another line, the scheduler cannot issue from it until the line
 * is fetched: an L1I hit costs nothing (fetch and decode run ahead of issue
 * in a pipeline), a miss holds the warp until the fill returns from the L2,
 * and the cycles in which that is all that holds a scheduler back are
 * charged to `ifetch`.  Each move to a new line also fetches the
 * l1i_prefetch lines after it that are not there yet, as real front ends
 * stream straight-line code ahead of the warps.
 *
 * Code addresses: PTX instruction i of a program sits at
 * region + i * inst_bytes, one region of the address space per program,
 * far above device memory, so code and data share the L2 without sharing
 * lines.  PTX instructions stand for machine instructions one for one: the
 * model sees PTX, and the machine code's size and layout are not known.
 * Unlike the L1D, the L1I keeps its lines from one launch to the next:
 * code does not change under it, so nothing invalidates it.  With
 * l1i_sets = 0 no instruction cache is modelled and fetch never holds a
 * warp.
 */
#include "sm.h"

#include <stdlib.h>

#define CODE_REGIONS (1ull << 60)
#define CODE_REGION_BYTES (1ull << 40)

void tm_fetch_begin(tm_gpu *g, const void *program)
{
    uint32_t region = 0;
    while (region < g->nprograms && g->programs[region] != program)
        region++;
    if (region == g->nprograms) {
        if (g->nprograms < sizeof g->programs / sizeof g->programs[0])
            g->programs[g->nprograms++] = program;
        else
            region = 0;         /* more programs than regions: share the first */
    }
    g->code_base = CODE_REGIONS + region * CODE_REGION_BYTES;
}

bool tm_fetch(tm_gpu *g, tm_sm *sm, tm_warp *w, uint64_t line, uint64_t *ready_at)
{
    tm_cache *ic = &sm->l1i;
    if (w->fetching) {              /* looked at again before its fill came */
        w->held = TM_SLOT_FETCH;
        w->not_before = TM_NEVER;
        return false;
    }
    bool hit = tm_ro_hit(ic, line);
    tm_acc a = { ACC_HIT, 0, NULL };
    if (!hit) {
        tm_load *ld = tm_load_new(g, sm, w, 1);
        if (!ld)
            return false;
        ld->fetch = true;
        ld->fetch_line = line;
        a = tm_ro_miss(g, sm, ic, line, ld);
        if (a.result == ACC_FAIL)
            tm_load_free(ld);
        else
            w->loads_in_flight++;
    }
    for (uint32_t k = 1; a.result != ACC_FAIL && k <= g->c.l1i_prefetch; k++)
        if (!tm_cache_present(ic, (line + k) << ic->line_shift, 1) &&
            tm_ro_miss(g, sm, ic, line + k, NULL).result == ACC_FAIL)
            break;
    switch (a.result) {
    case ACC_HIT:
        w->fetched = line + 1;
        return true;
    case ACC_MISS:                  /* the fill wakes it (tm_load_complete) */
        w->fetching = true;
        w->held = TM_SLOT_FETCH;
        w->not_before = TM_NEVER;
        return false;
    default:                        /* no MSHR or queue entry: try again next cycle */
        w->held = TM_SLOT_FETCH;
        w->not_before = sm->now + g->core_ps;
        if (w->not_before < *ready_at)
            *ready_at = w->not_before;
        return false;
    }
}

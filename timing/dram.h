/*
 * dram.h -- the DRAM channel of a memory partition (internal to timing/).
 */
#ifndef PTXSIM_TM_DRAM_H
#define PTXSIM_TM_DRAM_H

#include "tm_int.h"

bool tm_dram_init(tm_dram *d, const tm_config *c);
void tm_dram_free(tm_dram *d);
bool tm_dram_full(const tm_gpu *g, const tm_dram *d);
/* Queue a request (a line read for an L2 miss, or a dirty line's write). */
void tm_dram_enqueue(tm_gpu *g, uint32_t part, tm_req *r);
/* The channel's scheduling event: issue the next request, if any. */
void tm_dram_tick(tm_gpu *g, uint32_t part);

#endif /* PTXSIM_TM_DRAM_H */

/*
 * sm.h -- one streaming multiprocessor (internal to timing/).
 */
#ifndef PTXSIM_TM_SM_H
#define PTXSIM_TM_SM_H

#include "tm_int.h"

/* One core cycle of the SM at g->now: issue, the LSU, injection.  Sets
 * sm->wake to the next time it has anything to do. */
void tm_sm_cycle(tm_gpu *g, tm_sm *sm);

#endif /* PTXSIM_TM_SM_H */

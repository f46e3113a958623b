/*
 * cu_graph_api.c -- the runtime's graph API (cudart_graph.c) compiled a
 * second time, into the core, for the driver's graph entry points
 * (cu_graph.c).  The driver's calls take the same graphs, nodes and
 * executable graphs, with parameter structures that cu_graph.c turns into
 * the runtime's; one implementation serves both.  On this side a failure
 * is only returned, never kept as the runtime's last error: a driver call
 * leaves cudaGetLastError as it was.  The symbols are hidden: they stay
 * inside libcuda.so.1, whose cu* exports would otherwise take cuda* too.
 */
#include "rt_int.h"

#include <string.h>

#define RT_GRAPH_FOR_DRIVER
#pragma GCC visibility push(hidden)
#include "cudart_graph.c"
#pragma GCC visibility pop

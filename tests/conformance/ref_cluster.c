/*
 * ref_cluster.c -- the reference for mapa and getctarank (PTX ISA 9.7.9.17,
 * 9.7.9.16) and barrier.cluster (9.7.13.3):
 *
 *   mapa d, a, b maps the shared-memory address a of the executing CTA to
 *   the same variable's address in the CTA of rank b of its cluster;
 *   getctarank d, a gives the rank of the CTA whose shared memory a is in.
 *   barrier.cluster.wait waits until every non-exited thread of the
 *   cluster has made barrier.cluster.arrive, so writes before the arrive
 *   are visible after the wait.
 *
 * A cluster of n CTAs along x holds the CTAs n c .. n c + n - 1, rank =
 * ctaid % n.  Thread t of block `block` reads slot t of the CTA of the
 * next rank: the value that CTA's thread t wrote.
 */
#include "refs.h"

unsigned ref_cluster_source(unsigned block, unsigned t, unsigned n, unsigned *out_rank)
{
    unsigned rank = block % n, to = (rank + 1) % n;
    *out_rank = to;
    return (block - rank + to) * 32 + t;
}

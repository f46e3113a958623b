/*
 * ref_cp.c -- the reference for cp.async (PTX ISA 9.7.9.25):
 *
 *   cp.async [dst], [src], cp-size{, src-size} copies cp-size bytes to
 *   dst: the first src-size of them from src, the rest zeros (src-size
 *   defaults to cp-size); no other byte of dst's memory changes.  Once a
 *   thread has waited for the copy (cp.async.wait_all, wait_group on its
 *   group, or an mbarrier phase that tracks it), the bytes are there for it
 *   and, after that phase, for the threads that waited on it.
 */
#include "refs.h"

void ref_cp_slot(const uint8_t *slot, const uint8_t *src, unsigned size, unsigned src_size, uint8_t *out)
{
    memcpy(out, slot, 16);
    for (unsigned i = 0; i < size; i++)
        out[i] = i < src_size ? src[i] : 0;
}

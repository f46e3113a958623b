/*
 * spare.c -- loads and requests, recycled.
 *
 * A timing run makes and frees a request for every memory transaction and
 * a load for every warp memory instruction: tens of millions of each in a
 * run of a few seconds, about 7% of a memory-bound run's host time in
 * calloc and free (gesummv, size small), and more once a second thread
 * makes the allocator lock.  So each host thread keeps the ones it frees
 * on lists of its own, without locking, and takes from them first.  A
 * request freed on another thread than made it (a store, freed by the
 * memory partition that wrote it) joins that thread's lists; each list is
 * capped, so a thread that frees more than it makes hands the rest back to
 * the allocator instead of hoarding them.  Every block comes from calloc,
 * so a cold path may still free() one.  Recycling changes no statistic:
 * nothing in the model depends on where a block lies.  A thread's lists go
 * back to the allocator when it exits, or when the model it stepped is
 * freed (tm_free).
 */
#include "tm_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SPARE_MAX 65536         /* blocks a thread keeps of each kind */

typedef struct spare_block {
    struct spare_block *next;
} spare_block;

typedef struct spare_list {
    spare_block *head;
    uint32_t n;
} spare_list;

static _Thread_local spare_list spare_loads, spare_reqs;
static _Thread_local bool spare_registered;    /* the exit hook knows this thread */
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void at_thread_exit(void *unused)
{
    (void)unused;
    tm_spare_drain();
}

static void make_key(void) { (void)pthread_key_create(&spare_key, at_thread_exit); }

static void *take(spare_list *l, size_t size)
{
    spare_block *b = l->head;
    if (!b)
        return calloc(1, size);
    l->head = b->next;
    l->n--;
    memset(b, 0, size);
    return b;
}

static void give(spare_list *l, void *p)
{
    if (!p)
        return;
    if (l->n >= SPARE_MAX) {
        free(p);
        return;
    }
    if (!spare_registered) {
        /* (The hook runs only for a non-NULL value.) */
        spare_registered = pthread_once(&spare_once, make_key) == 0 && pthread_setspecific(spare_key, &spare_key) == 0;
        if (!spare_registered) {
            free(p);
            return;
        }
    }
    spare_block *b = p;
    b->next = l->head;
    l->head = b;
    l->n++;
}

static void drain(spare_list *l)
{
    while (l->head) {
        spare_block *b = l->head;
        l->head = b->next;
        free(b);
    }
    l->n = 0;
}

_Static_assert(sizeof(tm_load) >= sizeof(spare_block) && sizeof(tm_req) >= sizeof(spare_block),
               "a recycled block holds the list's link");

tm_load *tm_load_alloc(void) { return take(&spare_loads, sizeof(tm_load)); }
void tm_load_free(tm_load *ld) { give(&spare_loads, ld); }
tm_req *tm_req_alloc(void) { return take(&spare_reqs, sizeof(tm_req)); }
void tm_req_free(tm_req *r) { give(&spare_reqs, r); }

void tm_spare_drain(void)
{
    drain(&spare_loads);
    drain(&spare_reqs);
}

/*
 * pool.c -- the host threads the timing model steps its lanes on.
 *
 * A timing run offers work to its threads once a simulated cycle, a few
 * microseconds of work at a time, hundreds of thousands of times a launch:
 * a condition variable's wake-up (exec/pool.c's, made for whole launches)
 * would cost more than the work.  So a helper spins on the job counter
 * for a while after each job, and only then sleeps on a condition
 * variable.  The pool never waits for a helper to come: the job's lanes
 * are claimed by whoever runs (step.c), the caller included, so a helper
 * that a busy machine keeps off its core costs nothing but its share; the
 * caller waits only for lanes a helper has claimed (tm_pool_wait).
 *
 * Sleeping is Dekker's handshake: the helper counts itself asleep and then
 * looks at the job counter; the caller bumps the counter and then looks for
 * sleepers, all sequentially consistent, so one of them sees the other and
 * no wake-up is lost.
 */
#include "tm_int.h"

#include <pthread.h>
#include <stdlib.h>

struct tm_pool {
    uint32_t threads;               /* the caller's included */
    pthread_t *helpers;
    uint32_t started;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* The job on offer: generation counts jobs. */
    uint64_t generation;
    uint32_t sleepers;
    void (*fn)(void *ctx, uint32_t worker, uint64_t job);
    void *ctx;
    bool quit;
};

typedef struct helper_arg {
    tm_pool *pool;
    uint32_t index;
} helper_arg;

/* The next job after `seen` (its generation), or 0 to quit. */
static uint64_t next_job(tm_pool *p, uint64_t seen)
{
    for (uint32_t i = 0; i < TM_SPINS; i++) {       /* then it sleeps */
        if (__atomic_load_n(&p->quit, __ATOMIC_ACQUIRE))
            return 0;
        uint64_t gen = __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE);
        if (gen != seen)
            return gen;
        tm_relax();
    }
    pthread_mutex_lock(&p->lock);
    __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&p->generation, __ATOMIC_SEQ_CST) == seen && !p->quit)
        pthread_cond_wait(&p->wake, &p->lock);
    __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    bool quit = p->quit;
    pthread_mutex_unlock(&p->lock);
    return quit ? 0 : __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE);
}

static void *helper(void *arg)
{
    helper_arg a = *(helper_arg *)arg;
    free(arg);
    tm_pool *p = a.pool;
    uint64_t seen = 0;
    while ((seen = next_job(p, seen)) != 0)
        p->fn(p->ctx, a.index, seen);
    return NULL;
}

tm_pool *tm_pool_new(uint32_t threads, void (*fn)(void *ctx, uint32_t worker, uint64_t job), void *ctx)
{
    tm_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->threads = threads ? threads : 1;
    p->fn = fn;
    p->ctx = ctx;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    p->helpers = calloc(p->threads, sizeof *p->helpers);
    if (!p->helpers) {
        tm_pool_free(p);
        return NULL;
    }
    for (uint32_t i = 1; i < p->threads; i++) {
        helper_arg *a = malloc(sizeof *a);
        if (!a)
            break;
        *a = (helper_arg){ p, i };
        if (pthread_create(&p->helpers[p->started], NULL, helper, a) != 0) {
            free(a);
            break;
        }
        p->started++;
    }
    p->threads = p->started + 1;        /* what it could start */
    return p;
}

uint32_t tm_pool_threads(const tm_pool *p) { return p ? p->threads : 1; }

void tm_pool_offer(tm_pool *p, uint64_t job)
{
    __atomic_store_n(&p->generation, job, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
}

void tm_pool_wait(uint32_t *count, uint32_t until)
{
    for (uint32_t spins = 0; __atomic_load_n(count, __ATOMIC_ACQUIRE) != until;)
        tm_wait_a_little(&spins);
}

void tm_pool_free(tm_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->quit, true, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->helpers[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->helpers);
    free(p);
}

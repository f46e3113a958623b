/*
 * pool.c -- the host threads functional launches run their CTAs on.
 *
 * The runtime makes one pool and every launch reuses it: starting threads
 * per launch would cost tens of microseconds a launch, and some programs
 * launch tens of thousands of kernels.  A job is one function run by n
 * workers at once, the calling thread being worker 0; the helpers sleep on
 * a condition variable between jobs.  What the workers do with the grid is
 * grid.c's business; the pool only starts them and waits for them.
 */
#include "exec_int.h"

#include <pthread.h>
#include <stdlib.h>

struct exec_pool {
    pthread_mutex_t lock;
    pthread_cond_t start, done;
    uint32_t threads;               /* the caller's included */
    pthread_t *helpers;             /* threads - 1 of them */
    uint32_t started;               /* helpers actually running */
    /* The job in progress: generation counts jobs, so a helper runs each
     * one once; helpers with an index below `workers` take part. */
    uint64_t generation;
    uint32_t workers, running;
    void (*fn)(void *ctx, uint32_t worker);
    void *ctx;
    bool quit;
};

typedef struct helper_arg {
    exec_pool *pool;
    uint32_t index;                 /* 1 .. threads - 1 */
} helper_arg;

static void *helper(void *arg)
{
    helper_arg a = *(helper_arg *)arg;
    free(arg);
    exec_pool *p = a.pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->start, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        if (a.index >= p->workers)
            continue;
        void (*fn)(void *, uint32_t) = p->fn;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->lock);
        fn(ctx, a.index);
        pthread_mutex_lock(&p->lock);
        if (--p->running == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

exec_pool *exec_pool_new(uint32_t threads)
{
    exec_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->threads = threads ? threads : 1;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->start, NULL);
    pthread_cond_init(&p->done, NULL);
    p->helpers = calloc(p->threads, sizeof *p->helpers);
    if (!p->helpers) {
        exec_pool_free(p);
        return NULL;
    }
    /* A helper that cannot be started leaves a smaller pool, not none. */
    for (uint32_t i = 1; i < p->threads; i++) {
        helper_arg *a = malloc(sizeof *a);
        if (!a)
            break;
        *a = (helper_arg){ p, i };
        if (pthread_create(&p->helpers[i - 1], NULL, helper, a) != 0) {
            free(a);
            break;
        }
        p->started++;
    }
    p->threads = p->started + 1;
    return p;
}

void exec_pool_free(exec_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->helpers[i], NULL);
    free(p->helpers);
    pthread_cond_destroy(&p->start);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

uint32_t exec_pool_threads(const exec_pool *p) { return p ? p->threads : 1; }

void exec_pool_run(exec_pool *p, uint32_t workers, void (*fn)(void *ctx, uint32_t worker), void *ctx)
{
    if (workers > p->threads)
        workers = p->threads;
    if (workers > 1) {
        pthread_mutex_lock(&p->lock);
        p->fn = fn;
        p->ctx = ctx;
        p->workers = workers;
        p->running = workers - 1;
        p->generation++;
        pthread_cond_broadcast(&p->start);
        pthread_mutex_unlock(&p->lock);
    }
    fn(ctx, 0);
    if (workers > 1) {
        pthread_mutex_lock(&p->lock);
        while (p->running)
            pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
}

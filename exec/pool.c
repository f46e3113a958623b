/*
 * pool.c -- the host threads functional launches run their CTAs on.
 *
 * The runtime makes one pool and every launch reuses it: starting threads
 * per launch would cost tens of microseconds a launch, and some programs
 * launch tens of thousands of kernels.  A job is one function run by a
 * crew of workers at once, the calling thread being worker 0 and the
 * others helpers the job claims (exec_pool_claim); what the workers do with
 * the grid is grid.c's business.
 *
 * Several jobs may run at once, each with the helpers it found idle: two
 * kernels of different streams run side by side when the first leaves
 * threads free (runtime/rt_queue.c).  A helper no job needs runs the
 * pool's idle work when poked (exec_pool_poke): the runtime's, which takes
 * queued work that may run now, and whose launches claim helpers in turn.
 * So the pool's threads, the callers' included, are all that ever run
 * kernels.
 */
#include "exec_int.h"

#include <pthread.h>
#include <stdlib.h>

struct exec_helper {
    exec_pool *pool;
    pthread_t thread;
    pthread_cond_t wake;
    exec_crew *crew;                /* the job it is given, or NULL */
    uint32_t index;                 /* its worker index in that job */
    bool poked;                     /* run the idle work */
    exec_helper *next_idle;
};

struct exec_pool {
    pthread_mutex_t lock;
    pthread_cond_t done;            /* a crew's last helper returned */
    uint32_t threads;               /* helpers started, and the caller */
    exec_helper *helpers;
    uint32_t started;
    exec_helper *idle;              /* helpers no job needs, none poked */
    bool (*idle_work)(void *ctx);   /* true: it did something (look again) */
    void *idle_ctx;
    bool want_idle_work;            /* poked with no helper idle: the next to come back looks */
    bool quit;
};

/* Return h to the idle helpers (lock held). */
static void park(exec_pool *p, exec_helper *h)
{
    h->next_idle = p->idle;
    p->idle = h;
}

/* Take h out of the idle helpers (lock held). */
static void unpark(exec_pool *p, exec_helper *h)
{
    for (exec_helper **link = &p->idle; *link; link = &(*link)->next_idle)
        if (*link == h) {
            *link = h->next_idle;
            return;
        }
}

/* Run the idle work while it finds some (lock held; let go meanwhile). */
static void run_idle_work(exec_pool *p)
{
    bool (*fn)(void *) = p->idle_work;
    void *ctx = p->idle_ctx;
    if (!fn)
        return;
    pthread_mutex_unlock(&p->lock);
    while (fn(ctx))
        ;
    pthread_mutex_lock(&p->lock);
}

static void *helper(void *arg)
{
    exec_helper *h = arg;
    exec_pool *p = h->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && !h->crew && !h->poked)
            pthread_cond_wait(&h->wake, &p->lock);
        if (p->quit)
            break;
        if (h->crew) {
            exec_crew *c = h->crew;
            pthread_mutex_unlock(&p->lock);
            c->fn(c->ctx, h->index);
            pthread_mutex_lock(&p->lock);
            h->crew = NULL;
            if (--c->running == 0)
                pthread_cond_broadcast(&p->done);
            if (p->want_idle_work) {
                p->want_idle_work = false;
                h->poked = true;
            }
            if (!h->poked)
                park(p, h);
            continue;
        }
        h->poked = false;
        run_idle_work(p);
        if (!h->crew && !h->poked)
            park(p, h);
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
    pthread_cond_init(&p->done, NULL);
    p->helpers = calloc(p->threads, sizeof *p->helpers);
    if (!p->helpers) {
        exec_pool_free(p);
        return NULL;
    }
    /* A helper that cannot be started leaves a smaller pool, not none. */
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 1; i < p->threads; i++) {
        exec_helper *h = &p->helpers[p->started];
        *h = (exec_helper){ .pool = p };
        pthread_cond_init(&h->wake, NULL);
        if (pthread_create(&h->thread, NULL, helper, h) != 0) {
            pthread_cond_destroy(&h->wake);
            break;
        }
        park(p, h);
        p->started++;
    }
    pthread_mutex_unlock(&p->lock);
    p->threads = p->started + 1;
    return p;
}

void exec_pool_free(exec_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    for (uint32_t i = 0; i < p->started; i++)
        pthread_cond_signal(&p->helpers[i].wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->started; i++) {
        pthread_join(p->helpers[i].thread, NULL);
        pthread_cond_destroy(&p->helpers[i].wake);
    }
    free(p->helpers);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

uint32_t exec_pool_threads(const exec_pool *p) { return p ? p->threads : 1; }

uint32_t exec_pool_claim(exec_pool *p, uint32_t workers, exec_crew *c)
{
    *c = (exec_crew){ .pool = p, .workers = 1 };
    if (!p || workers <= 1)
        return 1;
    pthread_mutex_lock(&p->lock);
    while (c->workers < workers && p->idle) {
        exec_helper *h = p->idle;
        p->idle = h->next_idle;
        h->next_idle = c->helpers;
        c->helpers = h;
        h->index = c->workers++;
    }
    pthread_mutex_unlock(&p->lock);
    return c->workers;
}

void exec_pool_run(exec_crew *c, void (*fn)(void *ctx, uint32_t worker), void *ctx)
{
    exec_pool *p = c->pool;
    c->fn = fn;
    c->ctx = ctx;
    if (c->workers > 1) {
        pthread_mutex_lock(&p->lock);
        c->running = c->workers - 1;
        for (exec_helper *h = c->helpers, *next; h; h = next) {
            next = h->next_idle;
            h->next_idle = NULL;
            h->crew = c;
            pthread_cond_signal(&h->wake);
        }
        pthread_mutex_unlock(&p->lock);
    }
    fn(ctx, 0);
    if (c->workers > 1) {
        pthread_mutex_lock(&p->lock);
        while (c->running)
            pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
}

void exec_pool_release(exec_crew *c)
{
    exec_pool *p = c->pool;
    if (c->workers <= 1)
        return;
    pthread_mutex_lock(&p->lock);
    for (exec_helper *h = c->helpers, *next; h; h = next) {
        next = h->next_idle;
        park(p, h);
    }
    c->helpers = NULL;
    c->workers = 1;
    pthread_mutex_unlock(&p->lock);
}

void exec_pool_set_idle_work(exec_pool *p, bool (*fn)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&p->lock);
    p->idle_work = fn;
    p->idle_ctx = ctx;
    pthread_mutex_unlock(&p->lock);
}

void exec_pool_poke(exec_pool *p)
{
    pthread_mutex_lock(&p->lock);
    exec_helper *h = p->idle;
    if (h) {
        unpark(p, h);
        h->poked = true;
        pthread_cond_signal(&h->wake);
    } else {
        p->want_idle_work = true;
    }
    pthread_mutex_unlock(&p->lock);
}

/*
 * rt_queue.c -- asynchronous work: the device queue and the thread that
 * runs it.
 *
 * On a GPU a launch returns before the kernel runs, and the host goes on
 * while it runs: it may queue more work behind it, and it may write pinned
 * memory the kernel polls (a latch the kernel spins on until the host sets
 * it).  A runtime that ran each kernel inside the launch call would hang on
 * such a program.  So launches, and the stream-ordered work queued behind
 * them, go into one queue, in the order the program issues them, and one
 * device thread runs the queue.  One queue in issue order is an order every
 * stream's order allows, and the legacy default stream's too; it keeps runs
 * deterministic.
 *
 * Work in other streams runs beside a kernel that waits for it.  On a GPU
 * a kernel may spin until a kernel issued after it in another stream
 * writes a flag (a producer in one stream, its consumer in another): both
 * are resident at once.  Here, when the loop watch finds every warp of the
 * running kernel looping with nothing changing (exec/hang.c), it asks
 * rt_queue_settled, which first runs, on the watching thread, the queued
 * operations whose stream order allows them to run now (run_beside): not
 * behind an unfinished operation of their stream, not a legacy-stream
 * operation (it waits for everything before it), not a blocking stream's
 * behind an unfinished legacy one, not behind an event wait whose record
 * has not run (cudaStreamWaitEvent queues such a wait).  A second launch
 * of the waiting kernel may (its parameters get a buffer of their own).
 * Those may in turn run others beside them.  The waiting kernel then proves its loop again, now
 * with their writes.  A wait the watch cannot prove, one that reads the
 * clock as it loops (libcu++'s atomic wait backs off so), counts as one
 * once the kernel's blocks have written nothing others could see for
 * EXEC_QUIET_LONG warp-instructions (rt_queue_quiet).  Operations
 * therefore complete out of issue order:
 * `completed` is the prefix of sequence numbers that have all run, and
 * ran_early those above it that have.  What may run beside depends only on
 * the queue, and a proof is found after a deterministic count of
 * instructions, so a program that issues its work before it waits runs the
 * same every time.  A kernel issued earlier that the one beside waits for
 * cannot run meanwhile (it is suspended below it): that is still reported
 * as a hang, and the timing model, one simulated GPU, never runs work
 * beside.
 *
 * The host side stays simple because every runtime call that is not one of
 * the few that queue or wait (RT_ASYNC_ENTRY) waits for the queue to empty
 * before it takes the lock (rt_lock), so everything it reads and writes is
 * as it was when all work was synchronous.  The device thread drops the
 * lock while a kernel runs, so those few calls can queue behind it.
 *
 * The loop watch proves a kernel hung when nothing can change the memory
 * it reads; with the host running, the host can.  So a proof counts only
 * while a host thread waits for work that has not run (a waiter whose
 * wait is over may not have woken yet) and nothing can run beside
 * (rt_queue_settled): until then the kernel sleeps, and then the watch
 * starts over.
 *
 * What kernels print goes into a buffer the host writes out at its next
 * wait for the device, as a GPU's printf buffer is flushed at a
 * synchronising call: output lands in the same place for every timing of
 * the two threads.
 */
#define _GNU_SOURCE
#include "rt_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct entry {
    rt_graph_op op;
    cudaStream_t stream;
    rt_stream_order order;      /* how its stream orders against others */
    uint64_t seq;
    uint64_t after;             /* another stream's operation it waits for (cudaStreamWaitEvent); 0: none */
    bool borrowed;              /* the op's parts belong to the program (a graph launch) */
    cudaError_t *result;        /* where a caller waiting for it wants its result */
    struct entry *next;
} entry;

/* A host thread waiting for the device: for operation seq, or (all) for
 * every one up to seq. */
struct waiter {
    uint64_t seq;
    bool all;
    struct waiter *next;
};

/* Operations running beside a waiting kernel, at most this deep. */
#define BESIDE_DEPTH 4
_Static_assert(BESIDE_DEPTH < EXEC_PARAM_SLOTS, "a launch beside each waiting one");

static struct {
    pthread_mutex_t mu;
    pthread_cond_t work;        /* the device thread: something queued */
    pthread_cond_t done;        /* waiting hosts: an operation completed */
    pthread_cond_t change;      /* a kernel's loop watch: a host waits, work was queued, or ran beside */
    entry *head, *tail;         /* queued, not begun, in issue order */
    uint64_t issued;            /* the last operation queued */
    uint64_t completed;         /* every operation up to this one has run */
    uint64_t *ran_early;        /* operations above `completed` that have run (beside a waiting kernel) */
    uint32_t nearly, capearly;
    const entry *running[1 + BESIDE_DEPTH];  /* the device thread's operation, then those beside it */
    unsigned nrunning;
    pthread_t beside_owner;     /* the thread running operations beside, while nrunning > 1 */
    uint64_t beside_runs;       /* operations run beside so far */
    unsigned busy;              /* queued or running (read without mu as a hint) */
    struct waiter *waiters;     /* host threads waiting for the device */
    uint64_t wake_at;           /* the first operation one of them waits for */
    bool started;               /* this process has its device thread */
    char *out;                  /* what kernels printed, not yet written out */
    size_t outlen;
    pthread_t thread;
} q = { .wake_at = UINT64_MAX, .mu = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
        .done = PTHREAD_COND_INITIALIZER, .change = PTHREAD_COND_INITIALIZER };

static _Thread_local bool on_device_thread;
static _Thread_local unsigned async_depth;
static _Thread_local unsigned beside_depth;     /* operations this thread runs beside a kernel */
static _Thread_local uint64_t current_seq;      /* the operation this thread runs */
static _Thread_local uint64_t beside_seen;      /* q.beside_runs at this thread's last proof */

bool rt_queue_on_device_thread(void) { return on_device_thread; }
bool rt_queue_beside(void) { return beside_depth > 0; }
uint64_t rt_queue_current(void) { return current_seq; }

void rt_async_enter(void) { async_depth++; }
void rt_async_leave(void) { async_depth--; }
bool rt_async_call(void) { return async_depth > 0 || on_device_thread; }

bool rt_queue_async(void)
{
    /* Registered host memory is mirrored around each launch (rt_memory.c),
     * which only works while nothing runs beside the launch. */
    return rt.cfg.async && !rt.dbg && !on_device_thread && !rt.nregistered;
}

bool rt_queue_idle(void)
{
    return __atomic_load_n(&q.busy, __ATOMIC_ACQUIRE) == 0;
}

/* Append what an operation printed to what the host will write out. */
static void keep_output(const char *text, size_t len)
{
    if (!len)
        return;
    char *grown = realloc(q.out, q.outlen + len);
    if (!grown) {
        fwrite(text, 1, len, stdout);   /* out of memory: in order on this side at least */
        return;
    }
    memcpy(grown + q.outlen, text, len);
    q.out = grown;
    q.outlen += len;
}

/* Where operations print, one stream a depth (the device thread's, then
 * those beside), emptied after each operation that printed. */
static struct printing {
    FILE *f;
    char *text;
    size_t size;
} outs[1 + BESIDE_DEPTH];

static void run_entry(entry *en, unsigned depth)
{
    struct printing *o = &outs[depth];
    if (!o->f)
        o->f = open_memstream(&o->text, &o->size);
    /* A host function runs on this thread beside the program and prints
     * where it likes: what kernels before it printed goes out first. */
    if (en->op.type == cudaGraphNodeTypeHost)
        rt_queue_flush_output();
    FILE *was = rt.device_out;
    uint64_t was_seq = current_seq;
    rt.device_out = o->f;
    current_seq = en->seq;
    cudaError_t e = rt_graph_op_run(&en->op, en->stream);
    current_seq = was_seq;
    rt.device_out = was;
    if (en->result)
        *en->result = e;
    else if (e != cudaSuccess && (en->op.type == cudaGraphNodeTypeKernel || en->op.type == cudaGraphNodeTypeGraph)) {
        /* A launch the engine refused (out of memory, say) after its call
         * returned: the program learns of it where it waits, as of a fault. */
        rt_lock();
        if (rt.fault == cudaSuccess && rt.sticky == cudaSuccess)
            rt.fault = e;
        rt_unlock();
    }
    long printed = o->f ? ftell(o->f) : 0;
    if (printed > 0) {
        fflush(o->f);
        pthread_mutex_lock(&q.mu);
        keep_output(o->text, (size_t)printed);
        pthread_mutex_unlock(&q.mu);
        fseek(o->f, 0, SEEK_SET);
    }
    if (!en->borrowed)
        rt_graph_op_free(&en->op);
    free(en);
}

/* Whether operation seq has run (UINT64_MAX: every one queued); mu held. */
static bool has_run(uint64_t seq)
{
    if (seq == UINT64_MAX)
        return q.completed >= q.issued;
    if (seq <= q.completed)
        return true;
    for (uint32_t i = 0; i < q.nearly; i++)
        if (q.ran_early[i] == seq)
            return true;
    return false;
}

static bool wait_over(const struct waiter *w)
{
    return w->all ? q.completed >= w->seq : has_run(w->seq);
}

/* Whether a host thread waits for work that has not run (mu held): then
 * the host writes nothing until the device gets there.  One whose wait is
 * over may not have woken yet. */
static bool host_waits(void)
{
    for (const struct waiter *w = q.waiters; w; w = w->next)
        if (!wait_over(w))
            return true;
    return false;
}

/* An operation ended: move the prefix on past it and what ran early, and
 * wake the hosts whose wait is over (mu held).  A host waiting for the last
 * of many launches sleeps until then. */
static void completed(uint64_t seq, bool early)
{
    uint64_t first = q.head ? q.head->seq : q.issued + 1;
    if (q.nrunning && q.running[0]->seq < first)
        first = q.running[0]->seq;
    if (early && seq >= first && q.nearly == q.capearly) {
        uint32_t cap = q.capearly ? q.capearly * 2 : 16;
        uint64_t *grown = realloc(q.ran_early, cap * sizeof *grown);
        if (grown) {
            q.ran_early = grown;
            q.capearly = cap;
        }
    }
    if (early && seq >= first && q.nearly < q.capearly)
        q.ran_early[q.nearly++] = seq;
    /* (Out of memory the early one counts as run only with the prefix:
     * its waiters wait longer, never too little.) */
    q.completed = first - 1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < q.nearly; i++)
        if (q.ran_early[i] > q.completed)
            q.ran_early[k++] = q.ran_early[i];
    q.nearly = k;
    __atomic_sub_fetch(&q.busy, 1, __ATOMIC_RELEASE);
    if (q.waiters && (early || q.completed >= q.wake_at)) {
        q.wake_at = UINT64_MAX;
        pthread_cond_broadcast(&q.done);
    }
}

static void *device_thread(void *arg)
{
    (void)arg;
    on_device_thread = true;
    /* PTXSIM_QUEUE_DELAY_US: each operation starts that much later, so a
     * program that reads results without waiting for them reads them
     * before they are there, every time (it would on a GPU, some times). */
    const char *d = getenv("PTXSIM_QUEUE_DELAY_US");
    useconds_t delay = d ? (useconds_t)strtoul(d, NULL, 10) : 0;
    pthread_mutex_lock(&q.mu);
    for (;;) {
        if (!q.head) {
            /* A program launching in a loop queues the next launch within
             * microseconds: look a little while before sleeping, which
             * would cost a wake-up (half the cost of a launch) each time. */
            pthread_mutex_unlock(&q.mu);
            for (int i = 0; i < 4000 && !__atomic_load_n(&q.head, __ATOMIC_RELAXED); i++)
                __builtin_ia32_pause();
            pthread_mutex_lock(&q.mu);
        }
        while (!q.head)
            pthread_cond_wait(&q.work, &q.mu);
        entry *en = q.head;
        q.head = en->next;
        if (!q.head)
            q.tail = NULL;
        uint64_t seq = en->seq;
        q.running[0] = en;
        q.nrunning = 1;
        pthread_mutex_unlock(&q.mu);
        if (delay)
            usleep(delay);
        run_entry(en, 0);
        pthread_mutex_lock(&q.mu);
        q.nrunning = 0;
        completed(seq, false);
    }
    return NULL;
}

/* ---- running work beside a waiting kernel ---------------------------------- */

/* Whether `before`, issued earlier and not finished, holds `en` back. */
static bool holds_back(const entry *before, const entry *en)
{
    return before->stream == en->stream || en->order == RT_ORDER_LEGACY ||
           (before->order == RT_ORDER_LEGACY && en->order == RT_ORDER_BLOCKING);
}

/* Whether en may run now, beside what runs (mu held): not when its kind
 * runs alone (a graph, whose nodes may wait for events) or an unfinished
 * operation holds it back.  A second launch of a running kernel may: it
 * gets parameters of its own (exec/grid.c), up to EXEC_PARAM_SLOTS. */
static bool may_run_beside(const entry *en)
{
    switch (en->op.type) {
    case cudaGraphNodeTypeKernel: {
        rt_func *f = en->op.u.kernel.f;
        if (f->mod->prog && !exec_kernel_may_begin(f->mod->prog, f->index))
            return false;
        break;
    }
    case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset:
    case cudaGraphNodeTypeHost:
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeEmpty:
        break;
    default:
        return false;
    }
    if (en->after && !has_run(en->after))
        return false;
    for (unsigned i = 0; i < q.nrunning; i++)
        if (holds_back(q.running[i], en))
            return false;
    for (const entry *b = q.head; b != en; b = b->next)
        if (holds_back(b, en))
            return false;
    return true;
}

/* Queued operations looked at for one to run beside: a program queues a
 * few streams' worth ahead, not thousands. */
#define BESIDE_LOOK 256

/* Take the first queued operation up to `last` that may run now (mu held). */
static entry *take_beside(uint64_t last)
{
    unsigned looked = 0;
    for (entry *prev = NULL, *en = q.head; en && en->seq <= last && looked < BESIDE_LOOK;
         prev = en, en = en->next, looked++) {
        if (!may_run_beside(en))
            continue;
        if (prev)
            prev->next = en->next;
        else
            q.head = en->next;
        if (q.tail == en)
            q.tail = prev;
        return en;
    }
    return NULL;
}

/* Run en on this thread, beside the kernel whose watch called (mu held;
 * let go meanwhile).  It runs as the device thread's work does: its
 * launches run on this thread alone (the pool is the waiting kernel's). */
static void run_beside(entry *en)
{
    uint64_t seq = en->seq;
    unsigned depth = q.nrunning++;
    q.running[depth] = en;
    q.beside_owner = pthread_self();
    pthread_mutex_unlock(&q.mu);
    bool was_device = on_device_thread;
    on_device_thread = true;
    beside_depth++;
    run_entry(en, depth);
    beside_depth--;
    on_device_thread = was_device;
    pthread_mutex_lock(&q.mu);
    q.nrunning--;
    q.beside_runs++;
    completed(seq, true);
    pthread_cond_broadcast(&q.change);
}

/* Run what is queued now that may run beside the running kernel, on this
 * thread (mu held): whether anything ran.  What the host queues meanwhile
 * waits for the kernel's next look, which may find what it waited for.
 * Not in timing mode (one simulated GPU), and not deeper than
 * BESIDE_DEPTH. */
static bool run_what_may(void)
{
    if (rt.cfg.timing || q.nrunning == 0 || q.nrunning > BESIDE_DEPTH)
        return false;
    uint64_t last = q.issued;
    entry *en;
    bool ran = false;
    while ((en = take_beside(last))) {
        run_beside(en);
        ran = true;
    }
    return ran;
}

/* Another worker of the kernel runs work beside it now (mu held). */
static bool beside_elsewhere(void)
{
    return q.nrunning > 1 && !pthread_equal(q.beside_owner, pthread_self());
}

bool rt_queue_quiet(void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&q.mu);
    bool ran = !beside_elsewhere() && run_what_may();
    pthread_mutex_unlock(&q.mu);
    return ran;
}

bool rt_queue_settled(void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&q.mu);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    bool told = false, settled = false, slept = false;
    for (;;) {
        if (beside_elsewhere()) {
            /* What that writes is new to this worker's proof too. */
            while (q.nrunning > 1)
                pthread_cond_wait(&q.change, &q.mu);
            break;
        }
        if (q.beside_runs != beside_seen) {
            /* Work ran beside since this thread's proof began (from
             * another thread, or from this one's quiet look). */
            beside_seen = q.beside_runs;
            break;
        }
        if (run_what_may()) {
            beside_seen = q.beside_runs;
            break;
        }
        if (slept)
            break;          /* the host may have written meanwhile: prove it again */
        if (host_waits()) {
            settled = true;
            break;
        }
        /* Sleep until the host waits for the device or queues more: until
         * then it may write what the kernel polls.  Say so if that takes
         * long. */
        slept = true;
        if (pthread_cond_timedwait(&q.change, &q.mu, &until) != 0 && !told) {
            rt_say("a kernel loops without changing anything, maybe waiting for the host to write "
                   "memory it reads; it has slept 10 s until the program waits for the device, and "
                   "will then run on, reported as hung if still nothing changes");
            told = true;
            until.tv_sec += 1L << 30;
        }
    }
    pthread_mutex_unlock(&q.mu);
    return settled;
}

/* A forked child has no device thread: what its parent had queued is
 * the parent's, and counts as run. */
static void forked_child(void)
{
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.work, NULL);
    pthread_cond_init(&q.done, NULL);
    pthread_cond_init(&q.change, NULL);
    q.head = q.tail = NULL;
    q.completed = q.issued;
    q.nearly = q.nrunning = 0;
    q.busy = 0;
    q.waiters = NULL;
    q.wake_at = UINT64_MAX;
    q.started = false;
    q.out = NULL;
    q.outlen = 0;
}

static void watch_forks(void) { pthread_atfork(NULL, NULL, forked_child); }

static uint64_t push(cudaStream_t s, rt_graph_op *op, uint64_t after, bool borrowed, cudaError_t *result)
{
    entry *en = malloc(sizeof *en);
    pthread_mutex_lock(&q.mu);
    if (!q.started) {
        static pthread_once_t once = PTHREAD_ONCE_INIT;
        pthread_once(&once, watch_forks);
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        q.started = pthread_create(&q.thread, &a, device_thread, NULL) == 0;
        pthread_attr_destroy(&a);
    }
    if (!en || !q.started) {
        /* No memory or no thread: the operation runs here, in order once
         * the queue is empty. */
        pthread_mutex_unlock(&q.mu);
        free(en);
        rt_queue_wait(UINT64_MAX);
        cudaError_t e = rt_graph_op_run(op, s);
        if (result)
            *result = e;
        if (!borrowed)
            rt_graph_op_free(op);
        return 0;
    }
    uint64_t seq = ++q.issued;
    *en = (entry){ *op, s, rt_stream_order_of(s), seq, after, borrowed, result, NULL };
    if (q.tail)
        q.tail->next = en;
    else
        q.head = en;
    q.tail = en;
    __atomic_add_fetch(&q.busy, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&q.work);
    if (q.nrunning)
        pthread_cond_broadcast(&q.change);
    pthread_mutex_unlock(&q.mu);
    rt_stream_note_op(s, seq);
    return seq;
}

uint64_t rt_queue_push(cudaStream_t s, rt_graph_op *op, bool borrowed)
{
    rt_lock();
    uint64_t seq = push(s, op, 0, borrowed, NULL);
    rt_unlock();
    return seq;
}

void rt_queue_wait_for(cudaStream_t s, uint64_t seq)
{
    rt_graph_op op = { .type = cudaGraphNodeTypeEmpty };
    rt_lock();
    push(s, &op, seq, false, NULL);
    rt_unlock();
}

cudaError_t rt_queue_run(cudaStream_t s, rt_graph_op *op, bool borrowed)
{
    cudaError_t e = cudaSuccess;
    rt_lock();
    uint64_t seq = push(s, op, 0, borrowed, &e);
    rt_unlock();
    if (seq)
        rt_queue_wait(seq);
    return e;
}

bool rt_queue_done(uint64_t seq)
{
    pthread_mutex_lock(&q.mu);
    bool d = has_run(seq);
    pthread_mutex_unlock(&q.mu);
    return d;
}

void rt_queue_flush_output(void)
{
    if (!__atomic_load_n(&q.outlen, __ATOMIC_RELAXED))
        return;
    pthread_mutex_lock(&q.mu);
    char *text = q.out;
    size_t len = q.outlen;
    q.out = NULL;
    q.outlen = 0;
    pthread_mutex_unlock(&q.mu);
    fwrite(text, 1, len, stdout);
    free(text);
}

void rt_queue_wait(uint64_t seq)
{
    if (on_device_thread)
        return;
    if (rt_queue_idle()) {
        rt_queue_flush_output();
        return;
    }
    unsigned held = rt_lock_drop();
    pthread_mutex_lock(&q.mu);
    bool all = seq == UINT64_MAX;
    if (all)
        seq = q.issued;     /* every operation queued so far, not those queued meanwhile */
    struct waiter me = { seq, all, q.waiters };
    if (!wait_over(&me)) {
        q.waiters = &me;
        pthread_cond_broadcast(&q.change);
        while (!wait_over(&me)) {
            if (seq < q.wake_at)
                q.wake_at = seq;
            pthread_cond_wait(&q.done, &q.mu);
        }
        struct waiter **link = &q.waiters;
        while (*link != &me)
            link = &(*link)->next;
        *link = me.next;
    }
    pthread_mutex_unlock(&q.mu);
    rt_lock_retake(held);
    rt_queue_flush_output();
}

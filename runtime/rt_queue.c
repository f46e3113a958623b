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
 * deterministic (no two operations ever overlap).  It also means kernels in
 * different streams do not run side by side: a kernel that waits for work
 * issued after it in another stream still waits for ever.
 *
 * The host side stays simple because every runtime call that is not one of
 * the few that queue or wait (RT_ASYNC_ENTRY) waits for the queue to empty
 * before it takes the lock (rt_lock), so everything it reads and writes is
 * as it was when all work was synchronous.  The device thread drops the
 * lock while a kernel runs, so those few calls can queue behind it.
 *
 * The loop watch (exec/hang.c) proves a kernel hung when nothing can
 * change the memory it reads; with the host running, the host can.  So a
 * proof counts only while a host thread waits for the device (rt_queue_settled):
 * until then the kernel sleeps, and once one waits the watch starts over.
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
    bool borrowed;              /* the op's parts belong to the program (a graph launch) */
    cudaError_t *result;        /* where a caller waiting for it wants its result */
    struct entry *next;
} entry;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t work;        /* the device thread: something queued */
    pthread_cond_t done;        /* waiting hosts: an operation completed */
    pthread_cond_t host_waits;  /* a kernel's loop watch: a host thread waits */
    entry *head, *tail;
    uint64_t issued, completed; /* sequence numbers: the last queued, the last run */
    unsigned busy;              /* queued or running (read without mu as a hint) */
    unsigned waiting;           /* host threads waiting for the device */
    uint64_t wake_at;           /* the first operation one of them waits for */
    bool started;               /* this process has its device thread */
    char *out;                  /* what kernels printed, not yet written out */
    size_t outlen;
    pthread_t thread;
} q = { .wake_at = UINT64_MAX, .mu = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
        .done = PTHREAD_COND_INITIALIZER, .host_waits = PTHREAD_COND_INITIALIZER };

static _Thread_local bool on_device_thread;
static _Thread_local unsigned async_depth;

bool rt_queue_on_device_thread(void) { return on_device_thread; }

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

/* Where the device thread's kernels print: one stream for the thread's
 * life, emptied after each operation that printed. */
static FILE *out;
static char *out_text;
static size_t out_size;

static void run_entry(entry *en)
{
    if (!out)
        out = open_memstream(&out_text, &out_size);
    /* A host function runs on this thread beside the program and prints
     * where it likes: what kernels before it printed goes out first. */
    if (en->op.type == cudaGraphNodeTypeHost)
        rt_queue_flush_output();
    rt.device_out = out;
    cudaError_t e = rt_graph_op_run(&en->op, en->stream);
    rt.device_out = NULL;
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
    long printed = out ? ftell(out) : 0;
    if (printed > 0) {
        fflush(out);
        pthread_mutex_lock(&q.mu);
        keep_output(out_text, (size_t)printed);
        pthread_mutex_unlock(&q.mu);
        fseek(out, 0, SEEK_SET);
    }
    if (!en->borrowed)
        rt_graph_op_free(&en->op);
    free(en);
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
        pthread_mutex_unlock(&q.mu);
        if (delay)
            usleep(delay);
        run_entry(en);
        pthread_mutex_lock(&q.mu);
        q.completed++;
        __atomic_sub_fetch(&q.busy, 1, __ATOMIC_RELEASE);
        /* Wake waiting hosts only when one's wait is over: a host waiting
         * for the last of many launches sleeps until then. */
        if (q.waiting && q.completed >= q.wake_at) {
            q.wake_at = UINT64_MAX;
            pthread_cond_broadcast(&q.done);
        }
    }
    return NULL;
}

/* A forked child has no device thread: what its parent had queued is
 * the parent's, and counts as run. */
static void forked_child(void)
{
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.work, NULL);
    pthread_cond_init(&q.done, NULL);
    pthread_cond_init(&q.host_waits, NULL);
    q.head = q.tail = NULL;
    q.completed = q.issued;
    q.busy = q.waiting = 0;
    q.wake_at = UINT64_MAX;
    q.started = false;
    q.out = NULL;
    q.outlen = 0;
}

static void watch_forks(void) { pthread_atfork(NULL, NULL, forked_child); }

static uint64_t push(cudaStream_t s, rt_graph_op *op, bool borrowed, cudaError_t *result)
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
    *en = (entry){ *op, s, borrowed, result, NULL };
    if (q.tail)
        q.tail->next = en;
    else
        q.head = en;
    q.tail = en;
    uint64_t seq = ++q.issued;
    __atomic_add_fetch(&q.busy, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&q.work);
    pthread_mutex_unlock(&q.mu);
    rt_stream_note_op(s, seq);
    return seq;
}

uint64_t rt_queue_push(cudaStream_t s, rt_graph_op *op, bool borrowed)
{
    rt_lock();
    uint64_t seq = push(s, op, borrowed, NULL);
    rt_unlock();
    return seq;
}

cudaError_t rt_queue_run(cudaStream_t s, rt_graph_op *op, bool borrowed)
{
    cudaError_t e = cudaSuccess;
    rt_lock();
    uint64_t seq = push(s, op, borrowed, &e);
    rt_unlock();
    if (seq)
        rt_queue_wait(seq);
    return e;
}

uint64_t rt_queue_issued(void)
{
    pthread_mutex_lock(&q.mu);
    uint64_t s = q.issued;
    pthread_mutex_unlock(&q.mu);
    return s;
}

bool rt_queue_done(uint64_t seq)
{
    pthread_mutex_lock(&q.mu);
    bool d = q.completed >= seq;
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
    if (seq == UINT64_MAX)
        seq = q.issued;
    if (q.completed < seq) {
        q.waiting++;
        pthread_cond_broadcast(&q.host_waits);
        while (q.completed < seq) {
            if (seq < q.wake_at)
                q.wake_at = seq;
            pthread_cond_wait(&q.done, &q.mu);
        }
        q.waiting--;
    }
    pthread_mutex_unlock(&q.mu);
    rt_lock_retake(held);
    rt_queue_flush_output();
}

bool rt_queue_settled(void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&q.mu);
    bool settled = q.waiting > 0;
    if (!settled) {
        /* Sleep until the host waits for the device: until then it may
         * write what the kernel polls.  Say so if that takes long. */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 10;
        while (!q.waiting)
            if (pthread_cond_timedwait(&q.host_waits, &q.mu, &until) != 0 && !q.waiting) {
                rt_say("a kernel loops without changing anything, maybe waiting for the host to write "
                       "memory it reads; it has slept 10 s until the program waits for the device, and "
                       "will then run on, reported as hung if still nothing changes");
                until.tv_sec += 1L << 30;
            }
    }
    pthread_mutex_unlock(&q.mu);
    return settled;
}

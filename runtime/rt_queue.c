/*
 * rt_queue.c -- asynchronous work: the device queue and the threads that
 * run it.
 *
 * On a GPU a launch returns before the kernel runs, and the host goes on
 * while it runs: it may queue more work behind it, and it may write pinned
 * memory the kernel polls (a latch the kernel spins on until the host sets
 * it).  A runtime that ran each kernel inside the launch call would hang on
 * such a program.  So launches, and the stream-ordered work queued behind
 * them, go into one queue, in the order the program issues them, and a
 * device thread runs the queue: each time the first operation that nothing
 * unfinished holds back -- an earlier one of its stream, any earlier one
 * for the legacy default stream, an unfinished legacy one for a blocking
 * stream, an event record a cudaStreamWaitEvent waits for.  With nothing
 * else running that is the first queued: issue order, deterministic.
 *
 * Overlap: kernels of other streams at once.  A GPU runs independent
 * kernels side by side when one leaves SMs free.  Here, while the device
 * thread runs an operation, a kernel queued in a stream nothing holds back
 * may start on an idle thread of the launch pool (exec/pool.c: side_work
 * runs as the pool's idle work), and its launch takes the pool's threads
 * still idle; a kernel of few blocks leaves most of them so.  Side threads
 * run kernels only, none that calls malloc (the device heap is one), and
 * nothing issued after a graph launch waiting for them; never in timing
 * mode (one simulated GPU, in order), under the debugger or the race
 * checks, or with PTXSIM_OVERLAP=0.  A second launch of a running kernel
 * may run: it takes a free parameter slot (exec/grid.c).
 *
 * Work beside a waiting kernel.  A kernel may spin until a kernel issued
 * after it in another stream writes a flag (a producer in one stream, its
 * consumer in another): on a GPU both are resident.  When the loop watch
 * finds every warp of a running kernel looping with nothing changing
 * (exec/hang.c), it asks rt_queue_settled, which first runs, on the
 * watching thread, the queued operations that may run now (run_beside):
 * the waiting kernel is suspended below them on that runner's stack, up to
 * BESIDE_DEPTH deep, and proves its loop again afterwards, with their
 * writes.  A wait the watch cannot prove, one that reads the clock as it
 * loops (libcu++'s atomic wait backs off so), counts as one once the
 * kernel's blocks have written nothing others could see for
 * EXEC_QUIET_LONG warp-instructions (rt_queue_quiet).  What runs beside
 * depends only on the queue, and a proof is found after a deterministic
 * count of instructions, so a program that issues its work before it waits
 * runs the same every time on one thread.  A kernel issued earlier that
 * the one beside waits for cannot run meanwhile on the same runner; with
 * side threads it may run on another.
 *
 * Operations therefore complete out of issue order: `completed` is the
 * prefix of sequence numbers that have all run, and ran_early those above
 * it that have.  What an operation prints, and its launches' records in
 * the statistics file, are written out in issue order all the same, once
 * every operation before it has run (release_held): the same output and
 * statistics on any number of threads.
 *
 * The host side stays simple because every runtime call that is not one of
 * the few that queue or wait (RT_ASYNC_ENTRY) waits for the queue to empty
 * before it takes the lock (rt_lock), so everything it reads and writes is
 * as it was when all work was synchronous.  Runners drop the lock while a
 * kernel runs, so those few calls can queue behind it.
 *
 * The loop watch proves a kernel hung when nothing can change the memory
 * it reads; the host can, and so can the other runners.  So a proof counts
 * only while a host thread waits for work that has not run (a waiter whose
 * wait is over may not have woken yet), nothing can run beside, and every
 * other runner's kernel is stuck too, proved at the same count of writes
 * (launches run from the queue share one count: any write of theirs makes
 * the others' proofs stale).  Until then the kernel sleeps in
 * rt_queue_settled, and proves its loop again once work was queued or
 * ended, the host began to wait, or another launch wrote.
 *
 * What kernels print goes into a buffer the host writes out at its next
 * wait for the device, as a GPU's printf buffer is flushed at a
 * synchronising call.
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

/* What a finished operation printed, the launch records it made (without
 * their numbers) and how many launches it ran: written out once every
 * operation issued before it has run, so output and records come in issue
 * order whichever thread finished first. */
typedef struct output {
    uint64_t seq;
    char *text, *records;
    size_t len, records_len;
    uint64_t launches;
    struct output *next;
} output;

/* Operations running beside a waiting kernel, at most this deep. */
#define BESIDE_DEPTH 4
_Static_assert(BESIDE_DEPTH < EXEC_PARAM_SLOTS, "a launch beside each waiting one");

/* A thread running queued work: the device thread, or a side thread (a
 * pool helper running a kernel of another stream at the same time).  Its stack holds
 * its operation, then those run beside it (each one above waits for
 * nothing below: the one below waits for it). */
typedef struct runner runner;
typedef struct level {
    runner *r;
    unsigned depth;             /* its place in the stack */
    unsigned settling;          /* threads of its operation's launch asleep in rt_queue_settled */
    uint64_t settled_at;        /* the count of writes they proved their loops at */
} level;

struct runner {
    entry *stack[1 + BESIDE_DEPTH];
    level levels[1 + BESIDE_DEPTH];
    unsigned depth;
    pthread_t beside_owner;     /* while depth > 1: the thread running those beside */
    runner *next;               /* the runners at work */
};

static struct {
    pthread_mutex_t mu;
    pthread_cond_t work;        /* the device thread: something queued, or an operation ended */
    pthread_cond_t done;        /* waiting hosts: an operation completed */
    pthread_cond_t change;      /* a kernel's loop watch: a host waits, work was queued, ran or got stuck */
    entry *head, *tail;         /* queued, not begun, in issue order */
    uint64_t queued;            /* how many */
    uint64_t issued;            /* the last operation queued */
    uint64_t completed;         /* every operation up to this one has run */
    uint64_t *ran_early;        /* operations above `completed` that have run */
    uint32_t nearly, capearly;
    runner device;              /* the device thread's */
    runner *runners;            /* those running an operation now */
    unsigned graphs;            /* graph launches running: no side thread starts one meanwhile */
    uint64_t beside_runs;       /* operations run beside so far */
    /* The loop watch's count of writes, shared by every launch the queue
     * runs (exec_launch.writes), so a launch's proof that it loops is
     * stale once another launch running beside it writes, or an
     * operation ends while it runs. */
    uint64_t writes;
    /* Moves on when work is queued or ends, or a host begins to wait (it
     * may have written memory until then): a kernel asleep in
     * rt_queue_settled proves its loop again. */
    uint64_t epoch;
    unsigned busy;              /* queued or running (read without mu as a hint) */
    struct waiter *waiters;     /* host threads waiting for the device */
    uint64_t wake_at;           /* the first operation one of them waits for */
    output *held;               /* finished operations' output, in issue order, waiting for earlier ones */
    bool started;               /* this process has its device thread */
    char *out;                  /* what kernels printed, not yet written out */
    size_t outlen;
    pthread_t thread;
} q = { .wake_at = UINT64_MAX, .mu = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
        .done = PTHREAD_COND_INITIALIZER, .change = PTHREAD_COND_INITIALIZER };

static _Thread_local bool on_device_thread;     /* it runs queued work now */
static _Thread_local bool on_side;              /* ... as a side thread */
static _Thread_local unsigned async_depth;
static _Thread_local unsigned beside_depth;     /* operations this thread runs beside a kernel */
static _Thread_local uint64_t current_seq;      /* the operation this thread runs */
static _Thread_local uint64_t beside_seen;      /* q.beside_runs at this thread's last proof */
static _Thread_local level *current_level;      /* its operation's place in its runner */
static _Thread_local uint64_t launches_here;    /* launches its operation ran */
_Thread_local FILE *rt_device_out;
_Thread_local FILE *rt_records_out;

bool rt_queue_on_device_thread(void) { return on_device_thread; }
bool rt_queue_beside(void) { return beside_depth > 0; }
bool rt_queue_aside(void) { return beside_depth > 0 || on_side; }
uint64_t rt_queue_current(void) { return current_seq; }
void *rt_queue_watch_ctx(void) { return current_level; }
uint64_t *rt_queue_writes(void) { return on_device_thread ? &q.writes : NULL; }
void rt_queue_count_launch(void) { launches_here++; }

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

/* Where a thread's operations print and record, one pair a depth (its
 * operation, then those beside it), emptied after each operation. */
static _Thread_local struct printing {
    FILE *f, *rec;
    char *text, *records;
    size_t size, records_size;
} outs[1 + BESIDE_DEPTH];

/* What the memstream f holds now (its buffer, `text`), copied out; then
 * emptied. */
static char *take_text(FILE *f, char **text, size_t *len)
{
    long n = f ? ftell(f) : 0;
    *len = 0;
    if (n <= 0)
        return NULL;
    fflush(f);
    char *copy = malloc((size_t)n);
    if (copy) {
        memcpy(copy, *text, (size_t)n);
        *len = (size_t)n;
    }
    fseek(f, 0, SEEK_SET);
    return copy;
}

/* Run en on this thread at `depth` of its runner: what it left to write
 * out, or NULL.  en stays on the runner's stack (end_on frees it). */
static output *run_entry(entry *en, unsigned depth)
{
    struct printing *o = &outs[depth];
    if (!o->f)
        o->f = open_memstream(&o->text, &o->size);
    if (!o->rec && rt.stats)
        o->rec = open_memstream(&o->records, &o->records_size);
    /* A host function runs on this thread beside the program and prints
     * where it likes: what kernels before it printed goes out first. */
    if (en->op.type == cudaGraphNodeTypeHost)
        rt_queue_flush_output();
    FILE *was = rt_device_out, *was_rec = rt_records_out;
    uint64_t was_seq = current_seq, was_launches = launches_here;
    rt_device_out = o->f;
    rt_records_out = o->rec;
    current_seq = en->seq;
    launches_here = 0;
    cudaError_t e = rt_graph_op_run(&en->op, en->stream);
    uint64_t launches = launches_here;
    current_seq = was_seq;
    launches_here = was_launches;
    rt_device_out = was;
    rt_records_out = was_rec;
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
    output *out = NULL;
    size_t len, records_len;
    char *text = take_text(o->f, &o->text, &len), *records = take_text(o->rec, &o->records, &records_len);
    if (text || records || launches) {
        out = malloc(sizeof *out);
        if (out)
            *out = (output){ en->seq, text, records, len, records_len, launches, NULL };
        else
            free(records);          /* out of memory: the text at least, now */
        if (!out && text) {
            pthread_mutex_lock(&q.mu);
            keep_output(text, len);
            pthread_mutex_unlock(&q.mu);
            free(text);
        }
    }
    return out;
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

/* Write out, in issue order, the output of the finished operations that
 * nothing issued before them holds back any more (mu held): printed text
 * to the host's buffer, launch records to the statistics file, numbered
 * now. */
static void release_held(void)
{
    while (q.held && q.held->seq <= q.completed) {
        output *o = q.held;
        q.held = o->next;
        keep_output(o->text, o->len);
        uint64_t first = __atomic_fetch_add(&rt.launches, o->launches, __ATOMIC_RELAXED);
        for (size_t at = 0; o->records && at < o->records_len;) {
            const char *line = o->records + at, *nl = memchr(line, '\n', o->records_len - at);
            size_t n = nl ? (size_t)(nl - line) + 1 : o->records_len - at;
            /* A record begins '{' and has no number yet. */
            fprintf(rt.stats, "{\"launch\":%llu,%.*s", (unsigned long long)++first, (int)n - 1, line + 1);
            at += n;
        }
        free(o->text);
        free(o->records);
        free(o);
    }
}

/* Keep o until its turn (mu held). */
static void hold(output *o)
{
    if (!o)
        return;
    output **link = &q.held;
    while (*link && (*link)->seq < o->seq)
        link = &(*link)->next;
    o->next = *link;
    *link = o;
}

/* The first operation not finished: queued or running (mu held). */
static uint64_t first_unfinished(void)
{
    uint64_t first = q.head ? q.head->seq : q.issued + 1;
    for (const runner *r = q.runners; r; r = r->next)
        for (unsigned d = 0; d < r->depth; d++)
            if (r->stack[d]->seq < first)
                first = r->stack[d]->seq;
    return first;
}

/* Operation seq ended and left o to write out (mu held; its runner no
 * longer holds it): move the prefix on past it and what ran early, write
 * out what is due, and wake the hosts whose wait is over.  A host waiting
 * for the last of many launches sleeps until then. */
static void finished(uint64_t seq, output *o)
{
    uint64_t first = first_unfinished();
    bool early = seq >= first;
    if (early && q.nearly == q.capearly) {
        uint32_t cap = q.capearly ? q.capearly * 2 : 16;
        uint64_t *grown = realloc(q.ran_early, cap * sizeof *grown);
        if (grown) {
            q.ran_early = grown;
            q.capearly = cap;
        }
    }
    if (early && q.nearly < q.capearly)
        q.ran_early[q.nearly++] = seq;
    /* (Out of memory the early one counts as run only with the prefix:
     * its waiters wait longer, never too little.) */
    q.completed = first - 1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < q.nearly; i++)
        if (q.ran_early[i] > q.completed)
            q.ran_early[k++] = q.ran_early[i];
    q.nearly = k;
    hold(o);
    release_held();
    q.epoch++;
    if (q.runners)          /* it may have written what those running read */
        __atomic_add_fetch(&q.writes, 1, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&q.busy, 1, __ATOMIC_RELEASE);
    if (q.waiters && (early || q.completed >= q.wake_at)) {
        q.wake_at = UINT64_MAX;
        pthread_cond_broadcast(&q.done);
    }
    pthread_cond_signal(&q.work);
    if (q.runners)
        pthread_cond_broadcast(&q.change);
}

/* ---- which operation may run now ------------------------------------------- */

/* Whether `before`, issued earlier and not finished, holds `en` back. */
static bool holds_back(const entry *before, const entry *en)
{
    return before->stream == en->stream || en->order == RT_ORDER_LEGACY ||
           (before->order == RT_ORDER_LEGACY && en->order == RT_ORDER_BLOCKING);
}

static bool serial_kernel(const entry *en)
{
    if (en->op.type != cudaGraphNodeTypeKernel)
        return false;
    const rt_func *f = en->op.u.kernel.f;
    return f->mod->prog && exec_kernel_serial(f->mod->prog, f->index);
}

/* A graph launch (whose nodes may wait for events) and the rarer kinds
 * run on the device thread alone. */
static bool only_on_device(const entry *en)
{
    switch (en->op.type) {
    case cudaGraphNodeTypeKernel:
    case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset:
    case cudaGraphNodeTypeHost:
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeEmpty:
        return false;
    default:
        return true;
    }
}

/* Who asks: the device thread for its next operation, a side thread (kernels
 * only), or a runner for work beside its waiting kernel. */
typedef enum { FOR_DEVICE, FOR_SIDE, FOR_BESIDE } taker;

/* Whether en may run now on runner self (mu held).  Kernels may, while
 * their kernel has a free parameter slot, and one calling malloc (the
 * device heap is one) only while no other runner runs one; copies, sets,
 * host functions and event records not on side threads; a graph (whose nodes may
 * wait for events) and anything else only on the device thread with no
 * side thread at work.  Then nothing unfinished may hold it back. */
static bool may_run(const entry *en, const runner *self, taker who)
{
    switch (en->op.type) {
    case cudaGraphNodeTypeKernel: {
        rt_func *f = en->op.u.kernel.f;
        if (f->mod->prog && !exec_kernel_may_begin(f->mod->prog, f->index))
            return false;
        if (serial_kernel(en)) {
            if (who == FOR_SIDE)
                return false;
            for (const runner *r = q.runners; r; r = r->next)
                for (unsigned d = 0; r != self && d < r->depth; d++)
                    if (serial_kernel(r->stack[d]))
                        return false;
        }
        break;
    }
    default:
        if (only_on_device(en) ? who != FOR_DEVICE || q.runners : who == FOR_SIDE)
            return false;
        break;
    }
    if (en->after && !has_run(en->after))
        return false;
    for (const runner *r = q.runners; r; r = r->next)
        for (unsigned d = 0; d < r->depth; d++)
            if (holds_back(r->stack[d], en))
                return false;
    for (const entry *b = q.head; b != en; b = b->next)
        if (holds_back(b, en))
            return false;
    return true;
}

/* Queued operations looked at for one that may run: a program queues a
 * few streams' worth ahead, not thousands.  Side threads look at fewer, at every
 * operation's start: with many streams' work queued, the device thread
 * and the side threads already at work find more as they go. */
#define LOOK_AHEAD 256
#define SIDE_LOOK 16

/* The first queued operation that may run now, taken out of the queue (mu
 * held); NULL if none. */
static entry *take(const runner *self, taker who)
{
    if (who == FOR_SIDE && q.graphs)
        return NULL;
    unsigned looked = 0, limit = who == FOR_SIDE ? SIDE_LOOK : LOOK_AHEAD;
    for (entry *prev = NULL, *en = q.head; en && looked < limit; prev = en, en = en->next, looked++) {
        /* What only the device thread runs waits for the side threads to be done:
         * they take nothing issued after it meanwhile. */
        if (who == FOR_SIDE && only_on_device(en))
            return NULL;
        if (!may_run(en, self, who))
            continue;
        if (prev)
            prev->next = en->next;
        else
            q.head = en->next;
        if (q.tail == en)
            q.tail = prev;
        q.queued--;
        return en;
    }
    return NULL;
}

/* Put en on top of r's stack, r among the runners (mu held). */
static unsigned begin_on(runner *r, entry *en)
{
    unsigned depth = r->depth++;
    r->stack[depth] = en;
    r->levels[depth] = (level){ .r = r, .depth = depth };
    if (depth == 0) {
        r->next = q.runners;
        q.runners = r;
    }
    if (en->op.type == cudaGraphNodeTypeGraph)
        q.graphs++;
    return depth;
}

/* Take the operation on top of r's stack off it, and r off the runners
 * with its last (mu held); the operation is done with.  (Other runners
 * read the stacks until then.) */
static void end_on(runner *r)
{
    entry *en = r->stack[--r->depth];
    if (en->op.type == cudaGraphNodeTypeGraph)
        q.graphs--;
    if (!en->borrowed)
        rt_graph_op_free(&en->op);
    free(en);
    if (r->depth == 0) {
        runner **link = &q.runners;
        while (*link != r)
            link = &(*link)->next;
        *link = r->next;
    }
}

/* ---- overlap: kernels of other streams on idle pool threads --------------------- */

/* Kernels overlap where launches run on the pool's threads and the results do
 * not depend on their order: not in timing mode (one simulated GPU, in
 * order), under the debugger or the race checks.  PTXSIM_OVERLAP=0 turns
 * them off. */
static bool overlap_allowed(void)
{
    static int env = -1;
    if (env < 0) {
        const char *v = getenv("PTXSIM_OVERLAP");
        env = !(v && strcmp(v, "0") == 0);
    }
    return env && rt.pool && !rt.cfg.timing && !rt.dbg && !rt.cfg.check_race && !rt.cfg.check_race_global;
}

/* Poke an idle pool thread if a queued kernel may run on a side thread now (mu
 * held): one that nothing running or queued before it holds back, while
 * the device thread is busy or has another to take first. */
static void offer_side_work(void)
{
    if (!q.head || !q.runners || !overlap_allowed())
        return;
    unsigned looked = 0;
    for (const entry *en = q.head; en && looked < SIDE_LOOK; en = en->next, looked++)
        if (only_on_device(en))
            return;
        else if (en->op.type == cudaGraphNodeTypeKernel && may_run(en, NULL, FOR_SIDE)) {
            exec_pool_poke(rt.pool);
            return;
        }
}

/* The pool's idle work (exec_pool_set_idle_work): run one queued kernel
 * that may run now, on this side thread; whether there was one. */
static bool side_work(void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&q.mu);
    runner r = {0};
    entry *en = overlap_allowed() ? take(&r, FOR_SIDE) : NULL;
    if (!en) {
        pthread_mutex_unlock(&q.mu);
        return false;
    }
    uint64_t seq = en->seq;
    begin_on(&r, en);
    pthread_mutex_unlock(&q.mu);
    on_device_thread = on_side = true;
    current_level = &r.levels[0];
    output *o = run_entry(en, 0);
    current_level = NULL;
    on_device_thread = on_side = false;
    pthread_mutex_lock(&q.mu);
    end_on(&r);
    finished(seq, o);
    pthread_mutex_unlock(&q.mu);
    return true;
}

void rt_queue_pool_made(exec_pool *p)
{
    exec_pool_set_idle_work(p, side_work, NULL);
    pthread_mutex_lock(&q.mu);
    offer_side_work();          /* (made by a launch the device thread runs, with more queued) */
    pthread_mutex_unlock(&q.mu);
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
    runner *r = &q.device;
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
        entry *en;
        while (!(en = take(r, FOR_DEVICE)))
            pthread_cond_wait(&q.work, &q.mu);
        uint64_t seq = en->seq;
        begin_on(r, en);
        offer_side_work();
        pthread_mutex_unlock(&q.mu);
        if (delay)
            usleep(delay);
        current_level = &r->levels[0];
        output *o = run_entry(en, 0);
        current_level = NULL;
        pthread_mutex_lock(&q.mu);
        end_on(r);
        finished(seq, o);
    }
    return NULL;
}

/* ---- running work beside a waiting kernel ---------------------------------- */

/* Run en on this thread, above level lv of runner r, beside the kernel
 * whose watch called (mu held; let go meanwhile).  Its launches run on this
 * thread alone (the pool's threads are the waiting kernel's, or others'). */
static void run_beside(runner *r, entry *en)
{
    uint64_t seq = en->seq;
    unsigned depth = begin_on(r, en);
    r->beside_owner = pthread_self();
    pthread_mutex_unlock(&q.mu);
    bool was_device = on_device_thread;
    level *was_level = current_level;
    on_device_thread = true;
    current_level = &r->levels[depth];
    beside_depth++;
    output *o = run_entry(en, depth);
    beside_depth--;
    current_level = was_level;
    on_device_thread = was_device;
    pthread_mutex_lock(&q.mu);
    end_on(r);
    q.beside_runs++;
    finished(seq, o);
    pthread_cond_broadcast(&q.change);
}

/* Run what is queued now that may run beside the kernel at level lv, on
 * this thread (mu held): whether anything ran.  Only above the runner's
 * top, not in timing mode (one simulated GPU), not deeper than
 * BESIDE_DEPTH. */
static bool run_what_may(level *lv)
{
    runner *r = lv->r;
    if (rt.cfg.timing || r->depth != lv->depth + 1 || r->depth > BESIDE_DEPTH)
        return false;
    entry *en;
    bool ran = false;
    while ((en = take(r, FOR_BESIDE))) {
        run_beside(r, en);
        ran = true;
    }
    return ran;
}

/* Another worker of lv's kernel runs work beside it now (mu held). */
static bool beside_elsewhere(const level *lv)
{
    return lv->r->depth > lv->depth + 1 && !pthread_equal(lv->r->beside_owner, pthread_self());
}

/* Whether every other runner's operation is a launch stuck as this one is:
 * its threads asleep here, proved at the same count of writes (mu held). */
static bool all_stuck(const runner *self, uint64_t writes)
{
    for (const runner *r = q.runners; r; r = r->next) {
        const level *top = &r->levels[r->depth - 1];
        if (r != self && (!top->settling || top->settled_at != writes))
            return false;
    }
    return true;
}

bool rt_queue_quiet(void *ctx)
{
    level *lv = ctx;
    pthread_mutex_lock(&q.mu);
    bool ran = !beside_elsewhere(lv) && run_what_may(lv);
    pthread_mutex_unlock(&q.mu);
    return ran;
}

bool rt_queue_settled(void *ctx, uint64_t writes)
{
    level *lv = ctx;
    pthread_mutex_lock(&q.mu);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    bool settled = false;
    uint64_t epoch = q.epoch;
    lv->settling++;
    lv->settled_at = writes;
    if (q.runners->next)
        pthread_cond_broadcast(&q.change);     /* other runners may be stuck on this one */
    for (;;) {
        if (beside_elsewhere(lv)) {
            /* What that writes is new to this worker's proof too. */
            while (lv->r->depth > lv->depth + 1)
                pthread_cond_wait(&q.change, &q.mu);
            break;
        }
        if (q.beside_runs != beside_seen) {
            /* Work ran beside since this thread's proof began (from
             * another thread, or from this one's quiet look). */
            beside_seen = q.beside_runs;
            break;
        }
        if (run_what_may(lv)) {
            beside_seen = q.beside_runs;
            break;
        }
        /* Memory may have changed since the proof (another launch wrote,
         * an operation ended) or since this thread came (work was queued,
         * the host began to wait): prove it again. */
        if (__atomic_load_n(&q.writes, __ATOMIC_RELAXED) != writes || q.epoch != epoch)
            break;
        if (host_waits() && all_stuck(lv->r, writes)) {
            settled = true;
            break;
        }
        /* Sleep until the host waits for the device, work is queued or
         * ends, or the other launches are stuck too: until then the host
         * or they may write what this kernel polls.  Say so if that takes
         * long. */
        if (q.runners->next) {
            /* Another runner works: its launches' writes move q.writes
             * without a signal, so look every millisecond (cheap: a proof
             * starts over only once the count moved). */
            struct timespec soon;
            clock_gettime(CLOCK_REALTIME, &soon);
            soon.tv_nsec += 1000000;
            if (soon.tv_nsec >= 1000000000) {
                soon.tv_sec++;
                soon.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&q.change, &q.mu, &soon);
            continue;
        }
        if (pthread_cond_timedwait(&q.change, &q.mu, &until) != 0) {
            /* The host may have written without a call: look again. */
            static bool told;
            if (!told && !q.runners->next)
                rt_say("a kernel loops without changing anything, maybe waiting for the host to write "
                       "memory it reads; it has slept 10 s until the program waits for the device, and "
                       "will then run on, reported as hung if still nothing changes");
            told = true;
            break;
        }
    }
    lv->settling--;
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
    q.queued = 0;
    q.completed = q.issued;
    q.nearly = 0;
    q.device.depth = 0;
    q.runners = NULL;
    q.graphs = 0;
    q.held = NULL;
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
    q.queued++;
    if (q.runners) {
        q.epoch++;
        pthread_cond_broadcast(&q.change);
        if (q.queued <= SIDE_LOOK)
            offer_side_work();
    }
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
        q.epoch++;
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


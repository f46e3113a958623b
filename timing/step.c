/*
 * step.c -- the lanes: a step's work side by side on several host threads.
 *
 * Each host thread owns a lane: a run of memory partitions and chunks of
 * SMs (runs of four ids).  A step of the main loop (gpu.c) runs in two
 * parts.  First, in every lane at once, what was sent to its components
 * last step arrives (events.c), its partitions fire their events due by
 * now, its SMs take the replies due by now, and then, chunk by chunk, each
 * of its SMs whose time has come runs its cycle -- a thread through with
 * its own lane takes the chunks left of another's, from the back, so the
 * step ends when the threads together are through -- up to the SM's
 * first instruction that reaches beyond its CTAs -- a store or atomic to
 * global memory, a call of printf or malloc (exec_inst_private) -- and
 * stops there (sm->parked).  Until then a thread touches only the
 * components it steps, reads global memory, counts into its components'
 * own blocks, and puts what they send into outboxes of their lane's (the
 * partitions') or their chunk's (the SMs'): nothing it reads is written by
 * another thread, so what it does cannot depend on the others (nothing
 * sent in a step is due within it).  Barriers are its SMs' CTAs' own: it
 * releases them.  Each chunk notes what the second part needs: its SMs
 * that stopped, failed or may have a CTA to retire (which places the
 * next), and when it next has work.  Then, on the calling thread, gpu.c
 * finishes the stopped cycles and looks at the CTAs, in SM order.  The
 * main thread reads only the chunks and the SMs they named, so a step
 * costs it little more than handing the lanes out.  One thread or
 * sixty-four, whichever thread ran a chunk, every component sees the same
 * events in the same order and the same memory at the same point of the
 * same cycle: the statistics are the same, cycle for cycle.
 *
 * What the two parts change against stepping each SM whole in turn: a
 * global store issued this cycle by a lower SM is seen by a higher SM's
 * loads from the next cycle on, not this one.  Memory takes hundreds of
 * cycles to cross a GPU; no program can tell.
 *
 * Windows.  Nothing crosses between components in less than a flit, the
 * interconnect's latency and the L2's pipeline on that side (the part
 * before its tag lookup on the way in, its return part on the way out:
 * tm_pipe_latency), so a step may cover that many cycles (tm_set_window):
 * a window.  Its first part, in the lanes, queues what was
 * sent and, chunk by chunk -- those with an SM that has something to do
 * (tm_window_chunks): a launch of a few blocks leaves most chunks idle,
 * and they are no pieces of the job -- runs each SM holding CTAs through
 * the window's cycles, one after another (sm_window: at each of its own
 * times it takes its replies and runs its cycle), up to a cycle that
 * stops it; its global stores go to its log meanwhile (stores.c), and it
 * stops before reading them back.
 * Where the launch cannot end within the window the lanes fire their
 * partitions' cycles in the same job.  The calling thread then runs the
 * window's ordered part (gpu.c: the stopped SMs' cycles, cycle by cycle),
 * and the lanes fire the partitions if they have not.  Each queue sees its
 * events in the order a cycle at a time would give them (events.c's keys);
 * a store is seen by other SMs a window later.
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One component's blocks while components step side by side: what it
 * counts, executes and reports.  Whichever thread runs the component
 * writes them; they are added up in id order (tm_gather_all), so the sums
 * do not depend on which thread that was. */
typedef struct tm_blocks {
    _Alignas(TM_LINE) tm_stats st;
    exec_stats xst;
    exec_error err;
    uint64_t *sets;             /* its cache's per-set accesses and misses (L1D of an SM, L2 slice) */
} tm_blocks;

/* A lane's marks for the job in progress, in a line of their own: who
 * fires its queues, whether they are fired, and which of its chunks are
 * left to take (take_word). */
typedef struct tm_marks {
    _Alignas(TM_LINE) uint64_t fire;    /* the last job that claimed its firing */
    uint64_t fired;                     /* the last job whose firing is done */
    uint64_t take;
    uint64_t ns;                        /* host time its thread worked this job */
} tm_marks;

/* The threads, the components' blocks, and a step's job. */
typedef struct tm_stepper {
    tm_pool *pool;
    uint32_t threads;
    tm_blocks *blocks;          /* by SM */
    tm_blocks *pblocks;         /* by partition */
    int what;                   /* the job: what the lanes do (STEP_*) */
    uint64_t job;               /* the job in progress (the pool's number for it) */
    tm_marks *marks;            /* per lane */
    _Alignas(TM_LINE) uint32_t done;    /* pieces of this job finished (firings and chunks) */
    /* By kind of job: what sharing the last one timed would have saved
     * (or saved), how many ran on this thread since, whether this one is
     * timed. */
    uint64_t last_saving_ns[3];
    uint32_t untimed[3];
    bool timed;
} tm_stepper;

/* By default a step is handed to the other threads only when sharing the
 * last one would have saved this long (host nanoseconds): of its host time
 * T (every lane's, or every thread's), T - T / n, which is what n threads
 * taking chunks from each other take off the caller's hands, against the
 * one or two microseconds of waking and waiting a hand-over costs.  So a
 * step is shared from 8 us of work on two threads.  Neither the
 * instructions a step issues nor its length alone say that: srad's and
 * bfs's steps at size small take 80-90 us, a third of them issuing fewer
 * than 8 warp-instructions, the tiled products' 5-30 us, and gesummv's
 * 3 us.  gemm small on two threads took 2.75 s at this bound against 3.04
 * s at 5 us (sharing from 10 us of work) and 2.95 s at 3 us.  Which steps
 * are shared changes nothing in the results, only how long they take. */
#define MIN_SAVING_NS 4000

/* Timing a step's lanes costs two clock reads each (30 ns apiece here),
 * 4% of gesummv's 3 us steps: of the steps that stay on this thread, one
 * in TIME_EVERY is timed, and the decision holds until the next. */
#define TIME_EVERY 8

void tm_set_split(tm_gpu *g, int split) { g->pipe_mode = split; }

void tm_set_window(tm_gpu *g, uint32_t cycles) { g->window = cycles; }

void tm_set_host_time(tm_gpu *g, bool on) { g->host_timed = on; }

void tm_host_time_of(const tm_gpu *g, tm_host_time *out) { *out = g->host_time; }

void tm_set_threads(tm_gpu *g, uint32_t threads, int64_t min_saving_ns)
{
    g->threads = threads ? threads : 1;
    g->min_saving_ns = min_saving_ns < 0 ? MIN_SAVING_NS : (uint64_t)min_saving_ns;
}

uint64_t tm_host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void lanes_free(tm_gpu *g)
{
    for (uint32_t k = 0; g->lanes && k < g->nlanes; k++) {
        tm_lane *L = &g->lanes[k];
        tm_heap_free(&L->wakes);
        for (uint32_t par = 0; par < 2; par++) {
            for (uint32_t r = 0; L->replies[par] && r < g->nlanes; r++)
                free(L->replies[par][r].v);
            free(L->replies[par]);
        }
        free(L->order);
        free(L->active);
        free(L->part_bits);
        free(L->inbox_bits);
        free(L->chunks);
    }
    for (uint32_t c = 0; g->chunks && c < g->nchunks; c++) {
        tm_chunk *ch = &g->chunks[c];
        for (uint32_t par = 0; par < 2; par++) {
            for (uint32_t r = 0; ch->requests[par] && r < g->nlanes; r++)
                free(ch->requests[par][r].v);
            free(ch->requests[par]);
        }
    }
    if (g->chunks)
        free(g->chunks[0].ordered);
    free(g->active);
    free(g->chunk_marks);
    g->active = NULL;
    g->chunk_marks = NULL;
    for (uint32_t r = 0; g->late && r < g->nlanes; r++)
        free(g->late[r].v);
    free(g->late);
    free(g->lanes);
    free(g->chunks);
    g->late = NULL;
    g->lanes = NULL;
    g->chunks = NULL;
    g->nlanes = g->nchunks = 0;
}

/* n lanes.  The SMs come in chunks of `chunk` ids, lane k's every n-th
 * from the k-th, and each lane has a run of partition ids.  Blocks are
 * placed round robin from SM 0, so a launch of a few blocks still spreads
 * over the lanes.  Chunks of 4 rather than single SMs (gemm small on 2
 * threads, a cycle at a time: 1.3x against 1.1x), as neighbours' state is
 * often neighbours in memory and a piece must be worth taking; shorter
 * ones when there are too few SMs for every lane to have some.  But a
 * launch of fewer blocks than SMs, in windows (`few`), has single SMs: a
 * window's SM is work enough to be a piece, and a few blocks then split
 * evenly (atax small on 2 threads, best of three side by side: 6.6 s
 * against 7.3 s for chunks of 4; gesummv 9.3 s against 10.0 s); launches
 * of many blocks gain nothing by it (srad, hotspot the same), or lose (bfs
 * 6.6 s against 6.0 s).  Pipelined: lane 0 has the SMs, in one chunk,
 * lane 1 the partitions. */
static bool lanes_ready(tm_gpu *g, uint32_t n, bool piped, bool few)
{
    const tm_config *c = &g->c;
    uint32_t chunk = (uint32_t)(c->n_sm / (4 * n));
    chunk = piped ? (uint32_t)c->n_sm : few ? 1 : chunk < 1 ? 1 : chunk > 4 ? 4 : chunk;
    if (g->lanes && g->nlanes == n && g->lanes_piped == piped && g->lane_chunk == chunk)
        return true;
    lanes_free(g);
    g->lanes_piped = piped;
    g->lane_chunk = chunk;
    uint32_t nchunks = (uint32_t)((c->n_sm + chunk - 1) / chunk);
    if (!(g->lanes = tm_alloc_lines(n, sizeof *g->lanes)) || !(g->chunks = tm_alloc_lines(nchunks, sizeof *g->chunks)))
        return false;
    g->nlanes = n;
    g->nchunks = nchunks;
    if (!(g->late = calloc(n, sizeof *g->late)) || !(g->active = calloc(nchunks, sizeof *g->active)) ||
        !(g->chunk_marks = calloc(nchunks, sizeof *g->chunk_marks)))
        return false;
    tm_sm **ordered = calloc(c->n_sm, sizeof *ordered);
    if (!ordered)
        return false;
    for (uint32_t j = 0; j < nchunks; j++) {
        tm_chunk *ch = &g->chunks[j];
        ch->first = j * chunk;
        ch->end = ch->first + chunk < c->n_sm ? ch->first + chunk : (uint32_t)c->n_sm;
        ch->lane = j % n;
        ch->ordered = ordered + ch->first;
        for (uint32_t i = ch->first; i < ch->end; i++) {
            g->sms[i].lane = ch->lane;
            g->sms[i].chunk = j;
        }
        for (uint32_t par = 0; par < 2; par++)
            if (!(ch->requests[par] = calloc(n, sizeof *ch->requests[par])))
                return false;
    }
    for (uint32_t k = 0; k < n; k++) {
        tm_lane *L = &g->lanes[k];
        L->index = k;
        if (!(L->chunks = calloc(nchunks, sizeof *L->chunks)) || !(L->active = calloc(nchunks, sizeof *L->active)))
            return false;
        for (uint32_t j = 0; j < nchunks; j++)
            if (g->chunks[j].lane == k)
                L->chunks[L->nchunks++] = j;
        for (uint64_t p = 0; p < c->n_partitions; p++)
            if (piped ? k == 1 : p >= c->n_partitions * k / n && p < c->n_partitions * (k + 1) / n)
                g->parts[p].lane = k;
        for (uint32_t par = 0; par < 2; par++)
            if (!(L->replies[par] = calloc(n, sizeof *L->replies[par])))
                return false;
        if (!(L->part_bits = calloc((c->n_partitions + 63) / 64, sizeof *L->part_bits)) ||
            !(L->inbox_bits = calloc((c->n_sm + 63) / 64, sizeof *L->inbox_bits)))
            return false;
    }
    return true;
}

void tm_steps_free(tm_gpu *g)
{
    lanes_free(g);
    tm_stepper *s = g->stepper;
    if (!s)
        return;
    tm_pool_free(s->pool);
    for (uint32_t i = 0; s->blocks && i < g->c.n_sm; i++)
        free(s->blocks[i].sets);
    for (uint32_t p = 0; s->pblocks && p < g->c.n_partitions; p++)
        free(s->pblocks[p].sets);
    free(s->blocks);
    free(s->pblocks);
    free(s->marks);
    free(s);
    g->stepper = NULL;
}

static void work(void *ctx, uint32_t k, uint64_t job);

/* The threads and the components' blocks, made at the first launch that
 * steps side by side. */
static bool stepper_ready(tm_gpu *g)
{
    if (g->stepper)
        return true;
    tm_stepper *s = g->stepper = tm_alloc_lines(1, sizeof *s);
    if (!s || !(s->blocks = tm_alloc_lines(g->c.n_sm, sizeof *s->blocks)) ||
        !(s->pblocks = tm_alloc_lines(g->c.n_partitions, sizeof *s->pblocks)))
        return false;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        if (!(s->blocks[i].sets = tm_alloc_lines(2 * g->c.l1_sets, sizeof *s->blocks[i].sets)))
            return false;
    for (uint32_t p = 0; p < g->c.n_partitions; p++)
        if (!(s->pblocks[p].sets = tm_alloc_lines(2 * g->c.l2_sets, sizeof *s->pblocks[p].sets)))
            return false;
    uint32_t n = g->threads < g->c.n_sm ? g->threads : (uint32_t)g->c.n_sm;
    if (n > 1 && !(s->pool = tm_pool_new(n, work, g)))
        return false;
    s->threads = tm_pool_threads(s->pool);
    return (s->marks = tm_alloc_lines(s->threads, sizeof *s->marks)) != NULL;
}

/* Point sm's counts and reports at blocks b (the launch's own for NULL). */
static void point(tm_gpu *g, tm_sm *sm, tm_blocks *b)
{
    tm_stats *st = b ? &b->st : g->st;
    sm->st = st;
    sm->xst = b ? &b->xst : g->xst;
    sm->err = b ? &b->err : g->err;
    sm->l1.stats = &st->l1d;
    sm->l1i.stats = &st->l1i;
    sm->l1c.stats = &st->l1c;
    sm->l1t.stats = &st->l1t;
    uint64_t *sets = b ? b->sets : g->set_counts;
    sm->l1.set_accesses = sets;
    sm->l1.set_misses = sets + g->c.l1_sets;
}

/* ... and partition p's. */
static void point_partition(tm_gpu *g, tm_partition *p, tm_blocks *b)
{
    tm_stats *st = b ? &b->st : g->st;
    p->st = st;
    p->l2.stats = &st->l2;
    uint64_t *sets = b ? b->sets : g->set_counts + 2 * g->c.l1_sets;
    p->l2.set_accesses = sets;
    p->l2.set_misses = sets + g->c.l2_sets;
}

bool tm_steps_begin(tm_gpu *g, uint64_t ctas)
{
    tm_stepper *s = NULL;
    if (g->parallel) {
        if (!stepper_ready(g))
            return false;
        s = g->stepper;
        /* A launch's first job of each kind is shared: it is its largest
         * more often than not -- every SM starting its first blocks (the
         * first window of each of bfs's 56 launches took 40 ms on one
         * thread, 18% of the run) -- and one shared needlessly costs a few
         * microseconds. */
        for (size_t kind = 0; kind < sizeof s->last_saving_ns / sizeof *s->last_saving_ns; kind++)
            s->last_saving_ns[kind] = g->min_saving_ns;
    }
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        point(g, &g->sms[i], s ? &s->blocks[i] : NULL);
    for (uint32_t p = 0; p < g->c.n_partitions; p++)
        point_partition(g, &g->parts[p], s ? &s->pblocks[p] : NULL);
    /* Windows when asked, but not while sampled (samples fall between
     * steps), as long as the least time it takes to cross the
     * interconnect.  Without them, pipelined when asked and possible: the
     * time series samples every component at once, and the pipe needs a
     * latency to run ahead by. */
    uint64_t reach = (tm_pipe_latency(g) + g->core_ps - 1) / g->core_ps;
    if (reach > 64 * TM_WINDOW_WORDS)   /* (a window's cycles are bits: tm_lane.fired_at) */
        reach = 64 * TM_WINDOW_WORDS;
    g->win_cycles = s && g->window && !g->c.sample_cycles ? (g->window < reach ? g->window : reach) : 0;
    bool pipe = g->pipe_mode == TM_SPLIT_PIPE || (g->pipe_mode == TM_SPLIT_AUTO && ctas < g->c.n_sm);
    g->piped = s && s->threads >= 2 && pipe && !g->win_cycles && !g->c.sample_cycles && tm_pipe_latency(g) > g->core_ps;
    if (!lanes_ready(g, g->piped ? 2 : s ? s->threads : 1, g->piped, g->win_cycles && ctas < g->c.n_sm))
        return false;
    tm_events_begin(g);
    return true;
}

/* Add a component's counts into the launch's and clear them: every counter
 * of tm_stats up to the per-set pointers (the few that are not sums -- the
 * credit pool's low point, DWT's and DoM's chosen limits -- belong to
 * mechanisms, which keep a launch off this path, and stay 0 here), and its
 * cache's nsets per-set counts into sets. */
static void gather(tm_gpu *g, tm_blocks *b, uint64_t *sets, uint64_t nsets)
{
    _Static_assert(offsetof(tm_stats, l1_set_accesses) % sizeof(uint64_t) == 0, "tm_stats counters are words");
    uint64_t *to = (uint64_t *)(void *)g->st, *from = (uint64_t *)(void *)&b->st;
    for (size_t i = 0; i < offsetof(tm_stats, l1_set_accesses) / sizeof(uint64_t); i++) {
        to[i] += from[i];
        from[i] = 0;
    }
    if (g->xst)
        exec_stats_add(g->xst, &b->xst);
    memset(&b->xst, 0, sizeof b->xst);
    for (uint64_t i = 0; i < 2 * nsets; i++) {
        sets[i] += b->sets[i];
        b->sets[i] = 0;
    }
}

void tm_gather_all(tm_gpu *g)
{
    const tm_config *c = &g->c;
    for (uint32_t i = 0; g->parallel && i < c->n_sm; i++)
        gather(g, &g->stepper->blocks[i], g->set_counts, c->l1_sets);
    for (uint32_t p = 0; g->parallel && p < c->n_partitions; p++)
        gather(g, &g->stepper->pblocks[p], g->set_counts + 2 * c->l1_sets, c->l2_sets);
}

uint64_t tm_take_insts(tm_gpu *g, const tm_sm *sm)
{
    tm_stats *st = &g->stepper->blocks[sm->id].st;
    uint64_t n = st->warp_insts;
    st->warp_insts = 0;
    return n;
}

/* A chunk's findings, before its SMs run.  (Stored only where they
 * change: the line of a chunk whose SMs have nothing to do then stays in
 * every core's cache, for the thread that reads it next.) */
static void chunk_begin(tm_chunk *ch)
{
    if (ch->busy)
        ch->busy = false;
    if (ch->logged)
        ch->logged = false;
    if (ch->sm_next != TM_NEVER)
        ch->sm_next = TM_NEVER;
    if (ch->sent_min != TM_NEVER)
        ch->sent_min = TM_NEVER;
    if (ch->nordered)
        ch->nordered = 0;
    if (ch->insts)
        ch->insts = 0;
}

/* Chunk ch's SMs with work: each whose time has come runs its cycle (up
 * to where it must wait); those the ordered part must look at are listed,
 * the others' next wake noted. */
static void chunk_cycles(tm_gpu *g, tm_chunk *ch)
{
    chunk_begin(ch);
    for (uint32_t w = ch->first / 64; w * 64 < ch->end; w++) {
        uint64_t mine = ~0ull;
        if (ch->first > w * 64)
            mine &= ~0ull << (ch->first - w * 64);
        if (ch->end < w * 64 + 64)
            mine &= (1ull << (ch->end - w * 64)) - 1;
        uint64_t bits = __atomic_load_n(&g->maybe_busy[w], __ATOMIC_RELAXED) & mine;
        for (; bits; bits &= bits - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
            tm_sm *sm = &g->sms[i];
            if (!tm_sm_has_work(sm)) {
                /* Until a block is placed on it (the word is other chunks' too). */
                __atomic_fetch_and(&g->maybe_busy[w], ~(1ull << (i % 64)), __ATOMIC_RELAXED);
                continue;
            }
            ch->busy = true;
            sm->now = g->now;
            if (sm->wake <= g->now) {
                tm_sm_cycle(g, sm);
                ch->insts += tm_take_insts(g, sm);
            }
            if (sm->cta_look && !sm->parked && !sm->fault)
                tm_sm_sync_ctas(g, sm);
            if (sm->fault || sm->parked || sm->cta_look)
                ch->ordered[ch->nordered++] = sm;
            else if (tm_sm_has_work(sm) && sm->wake < ch->sm_next)
                ch->sm_next = sm->wake;
        }
    }
}

void tm_lane_cycles(tm_gpu *g, tm_lane *L)
{
    for (uint32_t j = 0; j < L->nchunks; j++)
        chunk_cycles(g, &g->chunks[L->chunks[j]]);
}

/* SM sm's cycles in the window [g->now, g->win_end): first the CTAs
 * placed on it since its last window begin in the engine (gpu.c: place);
 * then, at each of its own times -- a reply due, its wake -- it takes the
 * replies due and, if its time has come, runs its cycle, up to a cycle
 * that ends where the ordered part must go on (stopped before an
 * instruction beyond its CTAs, a CTA to retire, a failure): true, with
 * that cycle in sm->stop. */
static bool sm_window(tm_gpu *g, tm_sm *sm)
{
    uint64_t end = g->win_end;
    if (sm->unready && !tm_sm_begin_ctas(g, sm)) {
        sm->stop = g->now;
        return true;
    }
    uint64_t u = tm_edge(g, tm_sm_next_time(sm));
    if (u < g->now)
        u = g->now;
    while (u < end) {
        sm->now = u;
        sm->log.tag = (uint32_t)((u - g->win_start) / g->core_ps);
        uint64_t reply = tm_sm_take_replies(g, sm);
        if (sm->wake <= u)
            tm_sm_cycle(g, sm);
        if (sm->cta_look && !sm->parked && !sm->fault)
            tm_sm_sync_ctas(g, sm);
        if (sm->fault || sm->parked || (sm->cta_look && tm_sm_retiring(sm))) {
            sm->stop = u;
            return true;
        }
        uint64_t next = tm_edge(g, sm->wake < reply ? sm->wake : reply);
        u = next > u ? next : u + g->core_ps;
    }
    return false;
}

/* Chunk ch's SMs with CTAs, through the window; those stopped are listed
 * for the ordered part, the others' next time noted (an SM without CTAs
 * is the ordered part's: gpu.c). */
static void chunk_window(tm_gpu *g, tm_chunk *ch)
{
    chunk_begin(ch);
    for (uint32_t i = ch->first; i < ch->end; i++) {
        tm_sm *sm = &g->sms[i];
        if (!sm->nctas) {
            /* The ordered part's, if it has anything to do in the window. */
            uint64_t next = tm_sm_next_time(sm);
            if (next < g->win_end) {
                sm->stop = TM_NEVER;
                ch->ordered[ch->nordered++] = sm;
            } else if (next < ch->sm_next) {
                ch->sm_next = next;
            }
            continue;
        }
        ch->busy = true;
        bool stopped = sm_window(g, sm);
        ch->insts += tm_take_insts(g, sm);
        ch->logged |= tm_sm_logged(sm);
        if (stopped) {
            ch->ordered[ch->nordered++] = sm;
            continue;
        }
        uint64_t next = tm_sm_next_time(sm);
        if (next < ch->sm_next)
            ch->sm_next = next;
    }
}

void tm_window_chunks(tm_gpu *g)
{
    g->nactive = 0;
    for (uint32_t k = 0; k < g->nlanes; k++)
        g->lanes[k].nactive = 0;
    for (uint32_t j = 0; j < g->nchunks; j++) {
        tm_chunk *ch = &g->chunks[j];
        if (g->chunk_marks[j]) {
            g->chunk_marks[j] = false;
            if (!ch->active)
                ch->active = true;
            g->active[g->nactive++] = j;
            tm_lane *L = &g->lanes[ch->lane];
            L->active[L->nactive++] = j;
        } else if (ch->active) {
            ch->active = false;
            chunk_begin(ch);    /* (what it sent last window arrives in this one) */
        }
    }
}

static void run_chunk(tm_gpu *g, tm_chunk *ch, int what)
{
    if (what & STEP_CYCLE)
        chunk_cycles(g, ch);
    else
        chunk_window(g, ch);
}

/* A lane's pieces of a job: its chunks (a window's active ones). */
static uint32_t lane_pieces(const tm_lane *L, int what)
{
    return what & STEP_SMS ? L->nactive : what & STEP_CYCLE ? L->nchunks : 0;
}

static tm_chunk *piece(tm_gpu *g, const tm_lane *L, uint32_t j, int what)
{
    return &g->chunks[what & STEP_SMS ? L->active[j] : L->chunks[j]];
}

/* A lane's part of a job that its SMs wait for: a step's firing, or a
 * window's receiving. */
static void lane_work(tm_gpu *g, tm_lane *L, int what)
{
    if (what & STEP_FIRE)
        tm_lane_fire(g, L);
    else if (what & STEP_RECEIVE)
        tm_lane_receive(g, L);
}

/* ... and what they need not wait for: a window's partitions. */
static void lane_rest(tm_gpu *g, tm_lane *L, int what)
{
    if (what & STEP_PARTS)
        tm_lane_fire_parts(g, L, g->win_end);
}

static void run_lane(tm_gpu *g, tm_lane *L, int what)
{
    lane_work(g, L, what);
    lane_rest(g, L, what);
    for (uint32_t j = 0, n = lane_pieces(L, what); j < n; j++)
        run_chunk(g, piece(g, L, j, what), what);
}

/* ... adding the host time it took to the lane's for this step. */
static void run_timed(tm_gpu *g, tm_lane *L, int what)
{
    uint64_t t0 = tm_host_ns();
    run_lane(g, L, what);
    L->step_ns += tm_host_ns() - t0;
}

/* A mark moved from job - 1 to job: while job J is in progress every such
 * mark is J - 1 (not yet claimed) or J (claimed, or nothing to claim in a
 * job without firing), so a helper that comes late, with the number of a
 * job already done, claims nothing. */
static bool claim(uint64_t *mark, uint64_t job)
{
    uint64_t expected = job - 1;
    return __atomic_compare_exchange_n(mark, &expected, job, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* A lane's chunks left to take: the job's number (its low 32 bits), and the
 * range front .. back - 1 of its chunk list not yet taken.  Its thread
 * takes from the front, others from the back. */
static uint64_t take_word(uint64_t job, uint32_t nchunks)
{
    return (job & 0xffffffffu) << 32 | nchunks;
}

/* The chunk list's index taken (from the front or the back), or -1 when
 * none is left for this job. */
static int take(uint64_t *word, uint64_t job, bool front)
{
    uint64_t w = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    for (;;) {
        uint32_t f = (uint32_t)(w >> 16) & 0xffff, b = (uint32_t)w & 0xffff;
        if ((w >> 32) != (job & 0xffffffffu) || f >= b)
            return -1;
        uint64_t next = front ? w + (1u << 16) : w - 1;
        if (__atomic_compare_exchange_n(word, &w, next, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return (int)(front ? f : b - 1);
    }
}

/* Thread k's part of job `job`.  Its own lane first, its queues fired and
 * its chunks taken from the front (so that its components' state stays in
 * one core's caches); then every other lane: one whose thread has not
 * come to the job at all (a helper the machine keeps off its core) is
 * fired and taken from the front, as its thread would, and what is left
 * of the others' chunks is taken from the back, each once its lane's
 * queues are fired (its SMs' replies are in).  So a step ends when the
 * threads together are through, not when the slowest lane is. */
static void work(void *ctx, uint32_t k, uint64_t job)
{
    tm_gpu *g = ctx;
    tm_stepper *s = g->stepper;
    if (s->what == STEP_PIPE) {
        /* One helper runs the partitions: the first to claim the job (a
         * helper late for an earlier job claims nothing). */
        if (k > 0 && claim(&s->marks[1].fire, job)) {
            tm_pipe_partitions(g);
            __atomic_add_fetch(&s->done, 1, __ATOMIC_RELEASE);
        }
        return;
    }
    uint64_t t0 = tm_host_ns();
    uint32_t pieces = 0;
    for (uint32_t t = 0; t < g->nlanes; t++) {
        uint32_t lane = (k + t) % g->nlanes;
        tm_lane *L = &g->lanes[lane];
        tm_marks *m = &s->marks[lane];
        bool front = t == 0;
        int what = s->what;
        if ((what & STEP_LANE_WORK) && claim(&m->fire, job)) {
            lane_work(g, L, what);
            __atomic_store_n(&m->fired, job, __ATOMIC_RELEASE);
            lane_rest(g, L, what);
            pieces++;
            front = true;
        } else if (t == 0 && !(what & STEP_SMS) &&
                   ((what & STEP_LANE_WORK) || (__atomic_load_n(&m->take, __ATOMIC_ACQUIRE) >> 16 & 0xffff))) {
            /* Another thread started its lane: it came so late (off its
             * core, on a machine with more threads than free cores) that
             * taking chunks now would more likely keep the step waiting
             * for it than help: it leaves the job to those at it.  (A
             * window's SMs take long enough for a late thread to help.) */
            return;
        }
        for (int j; (j = take(&m->take, job, front)) >= 0; pieces++) {
            for (uint32_t spins = 0; (what & STEP_LANE_WORK) && __atomic_load_n(&m->fired, __ATOMIC_ACQUIRE) != job;)
                tm_wait_a_little(&spins);
            run_chunk(g, piece(g, L, (uint32_t)j, what), what);
        }
    }
    if (pieces) {               /* (a helper late for a job took nothing and says nothing) */
        s->marks[k].ns += tm_host_ns() - t0;
        __atomic_add_fetch(&s->done, pieces, __ATOMIC_RELEASE);
    }
}

/* The kinds of job, whose sizes differ: a step's, a window's SMs', a
 * window's partitions'. */
static int job_kind(int what)
{
    return what & STEP_SMS ? 1 : what & STEP_PARTS ? 2 : 0;
}

static void step_lanes(tm_gpu *g, int what, bool *shared_out);

void tm_step_lanes(tm_gpu *g, int what)
{
    bool shared = false;
    if (!g->host_timed) {
        step_lanes(g, what, &shared);
        return;
    }
    uint64_t t0 = tm_host_ns();
    step_lanes(g, what, &shared);
    uint64_t ns = tm_host_ns() - t0;
    tm_host_time *h = &g->host_time;
    *(shared ? &h->shared_ns : &h->alone_ns) += ns;
    (*(shared ? &h->shared_jobs : &h->alone_jobs))++;
}

static void step_lanes(tm_gpu *g, int what, bool *shared_out)
{
    tm_stepper *s = g->stepper;
    if (!s || s->threads < 2) {
        for (uint32_t k = 0; k < g->nlanes; k++)      /* on this thread, in lane order */
            run_lane(g, &g->lanes[k], what);
        return;
    }
    int kind = job_kind(what);
    bool shared = *shared_out = s->last_saving_ns[kind] >= g->min_saving_ns;
    if (what & STEP_LANE_WORK) {                        /* a job begins */
        /* (A window's jobs vary too much in size from one to the next to
         * go by one in TIME_EVERY, and are long enough to time each.) */
        s->timed = shared || kind || ++s->untimed[kind] >= TIME_EVERY;
        for (uint32_t k = 0; k < g->nlanes; k++)
            g->lanes[k].step_ns = s->marks[k].ns = 0;
    }
    if (!shared) {
        void (*run)(tm_gpu *, tm_lane *, int) = s->timed ? run_timed : run_lane;
        for (uint32_t k = 0; k < g->nlanes; k++)
            run(g, &g->lanes[k], what);
    } else {
        uint64_t job = ++s->job;
        s->what = what;
        uint32_t pieces = what & STEP_LANE_WORK ? g->nlanes : 0;   /* firings and chunks */
        for (uint32_t k = 0; k < g->nlanes; k++) {
            tm_marks *m = &s->marks[k];
            /* A job without firing leaves nothing to claim: a helper late
             * for it, reading the next job's `what`, must not claim the
             * next job's firing with this one's number. */
            __atomic_store_n(&m->fire, what & STEP_LANE_WORK ? job - 1 : job, __ATOMIC_RELAXED);
            __atomic_store_n(&m->take, take_word(job, lane_pieces(&g->lanes[k], what)), __ATOMIC_RELAXED);
            pieces += lane_pieces(&g->lanes[k], what);
        }
        uint64_t before = 0, after = 0;     /* the threads' time at work (host_time) */
        for (uint32_t k = 0; g->host_timed && k < g->nlanes; k++)
            before += s->marks[k].ns;
        __atomic_store_n(&s->done, 0, __ATOMIC_RELAXED);
        tm_pool_offer(s->pool, job);
        work(g, 0, job);
        tm_pool_wait(&s->done, pieces);
        for (uint32_t k = 0; k < g->nlanes; k++) {     /* what each thread worked, not each lane */
            g->lanes[k].step_ns = s->marks[k].ns;
            after += s->marks[k].ns;
        }
        if (g->host_timed)
            g->host_time.shared_work_ns += after - before;
    }
    if ((what & (STEP_CHUNK_WORK | STEP_PARTS)) && s->timed) {  /* a job ends */
        s->untimed[kind] = 0;
        uint64_t sum = 0;
        for (uint32_t k = 0; k < g->nlanes; k++)
            sum += g->lanes[k].step_ns;
        s->last_saving_ns[kind] = sum - sum / g->nlanes;
    }
}

void tm_pipe_start(tm_gpu *g)
{
    tm_stepper *s = g->stepper;
    uint64_t job = ++s->job;
    s->what = STEP_PIPE;
    __atomic_store_n(&s->marks[1].fire, job - 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->done, 0, __ATOMIC_RELAXED);
    tm_pool_offer(s->pool, job);
}

void tm_pipe_join(tm_gpu *g)
{
    tm_stepper *s = g->stepper;
    if (claim(&s->marks[1].fire, s->job))      /* no helper came: nobody to wait for */
        return;
    tm_pool_wait(&s->done, 1);
}

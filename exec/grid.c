/*
 * grid.c -- a launch: its shared context, and the functional scheduler.
 *
 * The functional scheduler is simple and deterministic.  Ordinary launches
 * run their CTAs one after another in launch order (x fastest), or, on a
 * pool of host threads, side by side, each thread taking the next CTA in
 * that order (exec_launch_run says what keeps that deterministic); inside a
 * CTA the warps take turns, each running up to a slice of instructions or
 * until it waits at a barrier or fails an mbarrier wait, so warps that spin
 * on each other's writes still make progress.  Cooperative launches keep
 * every CTA resident and take turns across all of them, so grid-wide
 * synchronisation works.  Cluster launches run a cluster at a time, its
 * CTAs resident together and taking turns the same way, so they can reach
 * each other's shared memory and meet at barrier.cluster.
 */
#include "exec_int.h"
#include "warp.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The launch's cluster dimensions: the launch attribute's, else the
 * kernel's .reqnctapercluster, else clusters of one CTA (*explicit false). */
static void cluster_dims(const exec_kernel *k, const exec_launch *l, uint32_t cdim[3], bool *explicit)
{
    const uint32_t *from = l->cluster[0] ? l->cluster : k->info.cluster[0] ? k->info.cluster : NULL;
    *explicit = from != NULL;
    for (int d = 0; d < 3; d++)
        cdim[d] = from && from[d] ? from[d] : 1;
}

static ptx_status check_launch(const exec_kernel *k, const exec_launch *l, exec_error *err)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    const char *why = NULL;
    char buf[160];
    uint32_t cdim[3];
    bool explicit;
    cluster_dims(k, l, cdim, &explicit);
    uint64_t csize = (uint64_t)cdim[0] * cdim[1] * cdim[2];
    const uint32_t *kc = k->info.cluster;
    if (!l->grid[0] || !l->grid[1] || !l->grid[2] || !l->block[0] || !l->block[1] || !l->block[2])
        why = "a grid or block dimension is zero";
    else if (threads > 1024)
        why = "more than 1024 threads per block";
    else if (l->block[2] > 64)
        why = "block z dimension above 64";
    else if (l->grid[1] > 65535 || l->grid[2] > 65535)
        why = "grid y or z dimension above 65535";
    else if (l->cluster[0] && kc[0] &&
             (l->cluster[0] != kc[0] || (l->cluster[1] ? l->cluster[1] : 1) != kc[1] ||
              (l->cluster[2] ? l->cluster[2] : 1) != kc[2])) {
        snprintf(buf, sizeof buf, "the launch asks for clusters of (%u,%u,%u) blocks, the kernel was built "
                 "for (%u,%u,%u) (__cluster_dims__)", cdim[0], cdim[1], cdim[2], kc[0], kc[1], kc[2]);
        why = buf;
    } else if (!explicit && k->info.explicit_cluster) {
        why = "the kernel is declared .explicitcluster and the launch gives no cluster dimensions";
    } else if (csize > ISA_CLUSTER_MAX) {
        snprintf(buf, sizeof buf, "clusters of %llu blocks (at most %u)", (unsigned long long)csize,
                 ISA_CLUSTER_MAX);
        why = buf;
    } else if (k->info.maxclusterrank && csize > k->info.maxclusterrank) {
        snprintf(buf, sizeof buf, "clusters of %llu blocks, the kernel allows at most %u (.maxclusterrank)",
                 (unsigned long long)csize, k->info.maxclusterrank);
        why = buf;
    } else if (l->grid[0] % cdim[0] || l->grid[1] % cdim[1] || l->grid[2] % cdim[2]) {
        snprintf(buf, sizeof buf, "the grid is not a whole number of clusters of (%u,%u,%u) blocks",
                 cdim[0], cdim[1], cdim[2]);
        why = buf;
    }
    if (!why)
        return PTX_OK;
    memset(err, 0, sizeof *err);
    err->st = PTX_E_LAUNCH_CONFIG;
    err->kernel = k->info.name;
    snprintf(err->msg, sizeof err->msg, "invalid launch of kernel '%s' with grid (%u,%u,%u) block (%u,%u,%u): %s",
             k->info.name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], why);
    return PTX_E_LAUNCH_CONFIG;
}

#define NO_SLOT UINT32_MAX

ptx_status exec_grid_begin(exec_program *p, int kernel, const exec_launch *l, exec_grid **out,
                           exec_error *err)
{
    *out = NULL;
    if (kernel < 0 || (uint32_t)kernel >= p->nkernels)
        return PTX_E_NOT_FOUND;
    const exec_kernel *k = &p->kernels[kernel];
    ptx_status st = check_launch(k, l, err);
    if (st != PTX_OK)
        return st;
    uint64_t local = k->info.local_bytes;      /* per thread */
    if (k->recursive && l->stack_bytes > EXEC_RECURSION_STACK_BYTES)
        local = k->frame_bytes + l->stack_bytes;
    if (local > UINT32_MAX - 15)
        return PTX_E_OUT_OF_DEVICE_MEMORY;
    if (k->calls_heap && (st = exec_heap_ready(p->mem, l->heap_bytes ? l->heap_bytes : EXEC_DEFAULT_HEAP_BYTES)) != PTX_OK)
        return st;
    exec_grid *g = calloc(1, sizeof *g);
    if (!g)
        return PTX_E_NOMEM;
    g->prog = p;
    g->k = k;
    g->l = *l;
    g->l.args = NULL;
    g->nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    g->nthreads = l->block[0] * l->block[1] * l->block[2];
    g->nwarps = (g->nthreads + ISA_WARP_SIZE - 1) / ISA_WARP_SIZE;
    cluster_dims(k, l, g->cdim, &g->explicit_cluster);
    g->csize = g->cdim[0] * g->cdim[1] * g->cdim[2];
    g->shared_bytes = l->dynamic_shared ? p->dynamic_base + l->dynamic_shared : p->static_shared;
    g->local_stride = (uint32_t)((local + 15) & ~15ull);
    g->budget = l->max_warp_insts ? l->max_warp_insts : EXEC_DEFAULT_MAX_WARP_INSTS;
    g->writes = l->writes ? l->writes : &g->own_writes;
    if (l->check_race_global) {
        g->l.check_race = true;
        if (!(g->race_global = exec_race_global_new(g->nctas))) {
            free(g);
            return PTX_E_NOMEM;
        }
    }
    if (l->check_memory)
        g->shared_map = exec_kernel_shared_map(p, &p->kernels[kernel]);
    if (l->cooperative) {
        /* The grid-synchronisation workspace cooperative groups expects:
         * zeroed words whose address arrives in %envreg1:%envreg2. */
        if (exec_malloc(p->mem, 16, 16, &g->workspace) != PTX_OK) {
            exec_race_global_free(g->race_global);
            free(g);
            return PTX_E_OUT_OF_DEVICE_MEMORY;
        }
        g->envreg[1] = (uint32_t)(g->workspace >> 32);
        g->envreg[2] = (uint32_t)g->workspace;
    }
    /* The kernel's code names its parameters in slot 0 of its buffer.  A
     * launch that begins while others of the kernel run (beside them:
     * rt_queue.c) takes the first free slot, which its warps reach through
     * isa_mem.param_shift. */
    pthread_mutex_init(&g->cluster_lock, NULL);
    uint32_t used = __atomic_load_n(&p->kernels[kernel].slots_used, __ATOMIC_RELAXED), slot;
    do {
        slot = (uint32_t)__builtin_ctz(~used | (1u << EXEC_PARAM_SLOTS));
        if (slot == EXEC_PARAM_SLOTS) {
            g->param_slot = NO_SLOT;
            exec_grid_end(g);
            memset(err, 0, sizeof *err);
            err->st = PTX_E_INVALID_VALUE;
            err->kernel = k->info.name;
            snprintf(err->msg, sizeof err->msg, "kernel '%s' already runs %u launches at once, the most it may",
                     k->info.name, EXEC_PARAM_SLOTS);
            return PTX_E_INVALID_VALUE;
        }
    } while (!__atomic_compare_exchange_n(&p->kernels[kernel].slots_used, &used, used | 1u << slot, false,
                                          __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
    g->param_slot = slot;
    uint64_t params = k->param_addr + (uint64_t)slot * k->param_stride;
    if (k->info.param_bytes)
        memcpy((void *)(uintptr_t)params, l->args, k->info.param_bytes);
    *out = g;
    return PTX_OK;
}

void exec_grid_end(exec_grid *g)
{
    if (!g)
        return;
    exec_grid_spares_free(g);
    exec_grid_clusters_free(g);
    exec_race_global_free(g->race_global);
    if (g->workspace)
        exec_free(g->prog->mem, g->workspace);
    if (g->param_slot != NO_SLOT)
        __atomic_and_fetch(&g->prog->kernels[g->k - g->prog->kernels].slots_used, ~(1u << g->param_slot),
                           __ATOMIC_ACQ_REL);
    pthread_mutex_destroy(&g->cluster_lock);
    free(g);
}

uint64_t exec_grid_ctas(const exec_grid *g) { return g->nctas; }
uint32_t exec_grid_cluster_size(const exec_grid *g) { return g->csize; }

uint64_t exec_grid_cluster_cta(const exec_grid *g, uint64_t cluster, uint32_t rank)
{
    const uint32_t *gd = g->l.grid, *cd = g->cdim;
    uint64_t ncx = gd[0] / cd[0], ncy = gd[1] / cd[1];
    uint64_t x = cluster % ncx * cd[0] + rank % cd[0];
    uint64_t y = cluster / ncx % ncy * cd[1] + rank / cd[0] % cd[1];
    uint64_t z = cluster / (ncx * ncy) * cd[2] + rank / (cd[0] * cd[1]);
    return x + gd[0] * (y + (uint64_t)gd[1] * z);
}
const exec_kernel_info *exec_grid_kernel(const exec_grid *g) { return &g->k->info; }

/* ---- the functional scheduler ------------------------------------------ */

/* A worker: one host thread's share of a launch, and what it found. */
typedef struct worker {
    exec_stats stats;
    uint64_t budget;                /* taken from the launch's, not spent yet */
    exec_hang_watch hang;
    exec_cta *spare;                /* its finished CTAs, kept for reuse */
    uint64_t unit;                  /* the unit it runs now */
    bool abandoned;                 /* it gave its unit up: a lower one failed */
    uint64_t failed;                /* the unit err describes; UINT64_MAX: none */
    ptx_status st;
    exec_error err;
} worker;

/* A launch being run: the units (a cluster's CTAs, or every CTA of a
 * cooperative launch) go to the workers in launch order. */
typedef struct job {
    exec_grid *g;
    worker *w;
    uint32_t nworkers;
    uint64_t nunits;
    /* Host atomics, shared by the workers: the next unit to hand out, the
     * lowest unit that failed (UINT64_MAX: none), and progress. */
    uint64_t next, stop, units_done, insts_done;
    /* With several workers and a kernel that prints: what each unit
     * printed, printed in launch order when the launch ends, so the output
     * is the one thread's. */
    struct printed { char *text; size_t len; } *printed;
} job;

/* Warp-instructions a worker takes from the launch's budget at a time:
 * one host atomic on a line every worker writes per 16 slices, not per turn
 * (a turn that ends at a barrier may be a few instructions).  With several
 * workers a hang may be declared while the others hold up to this much
 * each, unspent; with one, at the budget exactly. */
#define BUDGET_CHUNK (16 * EXEC_SLICE)

static uint64_t take_budget(exec_grid *g)
{
    uint64_t b = __atomic_load_n(&g->budget, __ATOMIC_RELAXED), t;
    do
        t = b < BUDGET_CHUNK ? b : BUDGET_CHUNK;
    while (t && !__atomic_compare_exchange_n(&g->budget, &b, b - t, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return t;
}

/* A launch whose looping warps have had their other lanes run (hang.c:
 * independent thread scheduling) hands locks over within warps, each
 * handover a proof that takes a few rounds of turns; shorter turns make
 * those rounds shorter. */
#define HANDOVER_SLICE 256

/* Give every running warp of c one slice.  Returns a failure, or PTX_OK;
 * *progress is set when some warp ran, *spun when some warp's turn ended in
 * a failed mbarrier wait. */
static ptx_status run_cta_slice(exec_grid *g, worker *wk, exec_cta *c, exec_error *err, bool *progress,
                                bool *spun)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (w->state != EXEC_WARP_RUNNING)
            continue;
        *progress = true;
        if (wk->budget == 0 && (wk->budget = take_budget(g)) == 0) {
            exec_cta_report(c, w, PTX_E_HANG, err);
            return PTX_E_HANG;
        }
        uint64_t slice = wk->hang.ran_others ? HANDOVER_SLICE : EXEC_SLICE;
        if (wk->budget < slice)
            slice = wk->budget;
        uint64_t left = slice;
        ptx_status st = exec_warp_run(w, &left, &wk->stats);
        wk->budget -= slice - left;
        *spun = *spun || w->yielded;
        if (st != PTX_OK) {
            exec_cta_report(c, w, st, err);
            return st;
        }
    }
    return PTX_OK;
}

/* The units a worker has resident: the one it took, and those it took
 * besides while every warp of those before spun without writing anything
 * -- a block that waits for a later block's flag (a software grid barrier,
 * a producer and its consumers), which works on a GPU as long as the blocks
 * fit on it at once.  Usually one unit. */
typedef struct resident {
    exec_cta **cta;                 /* the live CTAs, unit after unit */
    uint64_t *unit_of;              /* each one's unit */
    bool *idle;                     /* its warps all waited this round, or one spun */
    uint64_t ncta, cap;
    struct held {
        uint64_t unit, ctas_left;
        FILE *out;
    } *held;
    uint64_t nheld, capheld;
    uint64_t cta_limit;             /* the most CTAs a GPU of this many SMs holds */
} resident;

/* Begin unit u's CTAs (a cluster's, or one; every CTA of a cooperative
 * launch), its CTAs on consecutive SMs. */
static ptx_status hold_unit(job *j, worker *wk, resident *r, uint64_t u, exec_error *err)
{
    exec_grid *g = j->g;
    uint32_t nsm = g->l.nsm ? g->l.nsm : 1;
    uint64_t n = g->l.cooperative ? g->nctas : g->csize, first = u * n;
    if (r->ncta + n > r->cap) {
        uint64_t cap = (r->ncta + n) * 2;
        exec_cta **c = realloc(r->cta, cap * sizeof *c);
        if (c)
            r->cta = c;
        uint64_t *o = realloc(r->unit_of, cap * sizeof *o);
        if (o)
            r->unit_of = o;
        bool *idle = realloc(r->idle, cap * sizeof *idle);
        if (idle)
            r->idle = idle;
        if (!c || !o || !idle)
            return PTX_E_NOMEM;
        r->cap = cap;
    }
    if (r->nheld == r->capheld) {
        uint64_t cap = r->capheld ? r->capheld * 2 : 4;
        struct held *h = realloc(r->held, cap * sizeof *h);
        if (!h)
            return PTX_E_NOMEM;
        r->held = h;
        r->capheld = cap;
    }
    FILE *out = NULL;
    if (j->printed && !(out = open_memstream(&j->printed[u].text, &j->printed[u].len)))
        return PTX_E_NOMEM;
    uint64_t begun = 0;
    ptx_status st = PTX_OK;
    for (; begun < n; begun++) {
        uint64_t linear = g->l.cooperative ? begun : exec_grid_cluster_cta(g, u, (uint32_t)begun);
        exec_cta *c;
        if ((st = exec_cta_begin_from(g, &wk->spare, linear, (uint32_t)((first + begun) % nsm), &c)) != PTX_OK) {
            memset(err, 0, sizeof *err);
            break;
        }
        c->hang = &wk->hang;
        if (out)
            c->out = out;           /* (else the launch's, exec_cta_begin_from) */
        r->cta[r->ncta + begun] = c;
        r->unit_of[r->ncta + begun] = u;
    }
    if (st != PTX_OK) {
        while (begun--)
            exec_cta_end_to(r->cta[r->ncta + begun], &wk->spare);
        if (out)
            fclose(out);
        return st;
    }
    r->ncta += n;
    r->held[r->nheld++] = (struct held){ u, n, out };
    return PTX_OK;
}

/* End the CTAs of every unit that is through (every CTA, with `all`),
 * counting them when they ran to the end. */
static void release_done(worker *wk, resident *r, bool all, bool finished)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < r->ncta; i++) {
        exec_cta *c = r->cta[i];
        if (!all && !exec_cta_done(c)) {
            r->cta[k] = c;
            r->unit_of[k++] = r->unit_of[i];
            continue;
        }
        for (uint64_t h = 0; h < r->nheld; h++)
            if (r->held[h].unit == r->unit_of[i])
                r->held[h].ctas_left--;
        exec_cta_end_to(c, &wk->spare);
        wk->stats.ctas += finished;
    }
    r->ncta = k;
    uint64_t m = 0;
    for (uint64_t h = 0; h < r->nheld; h++) {
        if (r->held[h].ctas_left == 0) {
            if (r->held[h].out)
                fclose(r->held[h].out);
        } else {
            r->held[m++] = r->held[h];
        }
    }
    r->nheld = m;
}

/* Warp-instructions the resident blocks may run writing nothing another
 * block could see before they are taken to wait for one that is not
 * resident (the loop watch's quiet time). */
#define GROW_AFTER_UNSEEN (1u << 18)

/* Whether the worker may take one more unit beside those it holds: one is
 * left to take and a GPU would hold its CTAs too. */
static bool may_grow(job *j, const resident *r)
{
    exec_grid *g = j->g;
    return !g->l.cooperative && __atomic_load_n(&j->next, __ATOMIC_RELAXED) < j->nunits &&
           r->ncta + g->csize <= r->cta_limit;
}

/* Run unit u, and the units it brings in, until all are done; *failed is
 * the unit a failure is in.  With several workers, units above one that
 * failed are given up (wk->abandoned): one thread would never have run
 * them. */
static ptx_status run_units(job *j, worker *wk, uint64_t u, exec_error *err, uint64_t *failed)
{
    exec_grid *g = j->g;
    uint64_t threads = (uint64_t)g->l.block[0] * g->l.block[1] * g->l.block[2];
    uint64_t cta_warps = (threads + ISA_WARP_SIZE - 1) / ISA_WARP_SIZE;
    uint64_t per_sm = g->l.sm_warps && cta_warps ? g->l.sm_warps / cta_warps : 32;
    resident r = { .cta_limit = (uint64_t)(g->l.nsm ? g->l.nsm : 1) * (per_sm ? per_sm : 1) };
    *failed = u;
    wk->unit = u;
    wk->abandoned = false;
    ptx_status st = hold_unit(j, wk, &r, u, err);
    uint64_t unseen = 0;            /* warp-instructions since a write others could see */
    while (st == PTX_OK) {
        uint64_t before = wk->stats.warp_insts;
        for (uint64_t i = 0; i < r.ncta && st == PTX_OK; i++) {
            bool progress = false, spun = false;
            if ((st = run_cta_slice(g, wk, r.cta[i], err, &progress, &spun)) != PTX_OK)
                *failed = r.unit_of[i];
            r.idle[i] = !progress || spun;
        }
        if (st != PTX_OK)
            break;
        /* The resident blocks wait for others when for a while none wrote
         * anything another block could see (a -G build's spin stores its
         * frames, which the loop watch counts; the watch's proof of a loop
         * needs as long a quiet).  Bring in as many more units as are held
         * (a waiter for the last of many blocks gets it in a few
         * doublings), where more may come; else the watch judges. */
        uint64_t insts = wk->stats.warp_insts - before, seen = 0;
        for (uint64_t i = 0; i < r.ncta; i++) {
            seen += r.cta[i]->seen_writes;
            r.cta[i]->seen_writes = 0;
        }
        unseen = seen ? 0 : unseen + insts;
        bool grow = may_grow(j, &r);
        if (!grow && unseen >= EXEC_QUIET_LONG && g->l.quiet) {
            unseen = 0;
            g->l.quiet(g->l.watch_ctx);
        }
        exec_warp *looping = grow ? NULL : exec_hang_watch_round(g, &wk->hang, r.cta, r.ncta, insts);
        if (grow && unseen >= GROW_AFTER_UNSEEN) {
            unseen = 0;
            for (uint64_t more = r.nheld; more-- && st == PTX_OK && may_grow(j, &r);) {
                uint64_t v = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
                if (v < j->nunits && v < __atomic_load_n(&j->stop, __ATOMIC_RELAXED) &&
                    (st = hold_unit(j, wk, &r, v, err)) != PTX_OK)
                    *failed = v;
            }
            continue;
        }
        if (looping) {
            for (uint64_t i = 0; i < r.ncta; i++)
                if (r.cta[i] == looping->cta)
                    *failed = r.unit_of[i];
            exec_cta_report(looping->cta, looping, PTX_E_HANG, err);
            st = PTX_E_HANG;
            break;
        }
        for (uint64_t i = 0; i < r.ncta && st == PTX_OK; i++) {
            exec_cta *c = r.cta[i];
            /* A CTA whose warps all wait has its barriers looked at (the
             * others' progress does not release them); also when warps
             * spin on mbarriers: a barrier with a thread count (bar.sync 1,
             * 64) may complete while warps outside it spin, and the spin
             * check needs a look too. */
            if (!exec_cta_done(c) && r.idle[i] && !exec_cta_sync(c, err)) {
                *failed = r.unit_of[i];
                st = PTX_E_DEADLOCK;
            }
        }
        if (st != PTX_OK)
            break;
        release_done(wk, &r, false, true);
        if (!r.ncta)
            break;
        wk->unit = r.held[0].unit;
        if (j->nworkers > 1 && __atomic_load_n(&j->stop, __ATOMIC_RELAXED) < r.held[0].unit) {
            wk->abandoned = true;
            break;
        }
    }
    release_done(wk, &r, true, false);
    free(r.idle);
    free(r.cta);
    free(r.unit_of);
    free(r.held);
    return st;
}

/* A worker's life: take units in launch order until none is left or one
 * below failed.  Taking them in order keeps the CTAs that run at once
 * consecutive, as a GPU's block scheduler does, so a CTA that waits for an
 * earlier one's flag (decoupled look-back) finds it resident or done. */
static void work(void *ctx, uint32_t index)
{
    job *j = ctx;
    worker *wk = &j->w[index];
    exec_grid *g = j->g;
    exec_error err;
    for (;;) {
        uint64_t u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (u >= j->nunits || u >= __atomic_load_n(&j->stop, __ATOMIC_RELAXED))
            break;
        uint64_t before = wk->stats.warp_insts, ctas_before = wk->stats.ctas;
        ptx_status st = run_units(j, wk, u, &err, &u);
        if (st != PTX_OK) {
            /* The first failure in launch order wins, whichever came first
             * in time: that is the one a single thread reports. */
            if (u < wk->failed) {
                wk->failed = u;
                wk->st = st;
                wk->err = err;
            }
            uint64_t stop = __atomic_load_n(&j->stop, __ATOMIC_RELAXED);
            while (u < stop && !__atomic_compare_exchange_n(&j->stop, &stop, u, false, __ATOMIC_RELAXED,
                                                            __ATOMIC_RELAXED))
                ;
            continue;
        }
        uint64_t done = __atomic_add_fetch(&j->units_done, (wk->stats.ctas - ctas_before) / g->csize,
                                           __ATOMIC_RELAXED);
        uint64_t insts = __atomic_add_fetch(&j->insts_done, wk->stats.warp_insts - before, __ATOMIC_RELAXED);
        /* The caller's thread alone reports: the callback is the runtime's. */
        if (g->l.progress && index == 0)
            g->l.progress(g->l.progress_ctx, &(exec_progress){ .warp_insts = insts,
                                                              .ctas_done = done * g->csize,
                                                              .ctas_total = g->nctas });
    }
    __atomic_store_n(&wk->hang.idle, true, __ATOMIC_SEQ_CST);
}

void exec_stats_add(exec_stats *to, const exec_stats *s)
{
    to->warp_insts += s->warp_insts;
    to->thread_insts += s->thread_insts;
    for (int i = 0; i < ISA_SPACE_COUNT; i++)
        to->mem_ops[i] += s->mem_ops[i];
    to->ctas += s->ctas;
    to->compiled_insts += s->compiled_insts;
    to->races += s->races;
}

/* Units of a launch: clusters (single CTAs without clusters), or one of
 * every CTA for a cooperative launch. */
static uint64_t launch_units(const exec_kernel *k, const exec_launch *l)
{
    if (l->cooperative)
        return 1;
    uint32_t cdim[3];
    bool explicit;
    cluster_dims(k, l, cdim, &explicit);
    uint64_t nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    return nctas / ((uint64_t)cdim[0] * cdim[1] * cdim[2]);
}

uint32_t exec_launch_threads(const exec_program *p, int kernel, const exec_launch *l, const char **why)
{
    *why = NULL;
    uint32_t n = exec_pool_threads(l->pool);
    if (n <= 1 || kernel < 0 || (uint32_t)kernel >= p->nkernels)
        return 1;
    const exec_kernel *k = &p->kernels[kernel];
    if (l->cooperative)
        *why = "a cooperative launch: grid-wide synchronisation needs every block resident, and one "
               "thread keeps them so";
    else if (l->check_race || l->check_race_global)
        *why = "--check race and race-global keep one shadow and one list of hazards a launch";
    else if (k->calls_serial)
        *why = "the kernel calls malloc, free, assert or the device runtime (a launch from a kernel): one "
               "thread keeps its heap addresses, where an assertion's message falls among the output and "
               "the order of its launches";
    if (*why)
        return 1;
    uint64_t units = launch_units(k, l);
    return units < n ? (uint32_t)(units ? units : 1) : n;
}

/* Run a launch on `nworkers` workers (one: the calling thread alone, in
 * launch order, which is the reference every thread count must match).
 *
 * With several, the CTAs of a launch meet only in global memory: shared
 * memory, barriers and clusters are a unit's own and one worker runs a
 * unit.  So results are those of one thread wherever global memory is not
 * raced on (integer atomics included: their final values do not depend on
 * the order), statistics are sums over units, and the error reported is
 * the one of the lowest unit that failed. */
ptx_status exec_launch_run(exec_program *p, int kernel, const exec_launch *l, exec_stats *stats,
                           exec_error *err)
{
    const char *why;
    uint32_t nworkers = exec_launch_threads(p, kernel, l, &why);
    exec_grid *g;
    ptx_status st = exec_grid_begin(p, kernel, l, &g, err);
    if (st != PTX_OK)
        return st;
    /* The helpers idle now: other launches may hold some (exec/pool.c). */
    exec_crew crew;
    nworkers = exec_pool_claim(nworkers > 1 ? l->pool : NULL, nworkers, &crew);
    job j = { .g = g, .nworkers = nworkers, .stop = UINT64_MAX,
              .nunits = l->cooperative ? 1 : g->nctas / g->csize };
    worker one, *w = nworkers == 1 ? &one : calloc(nworkers, sizeof *w);
    exec_hang_watch *watch_one, **watches = nworkers == 1 ? &watch_one : calloc(nworkers, sizeof *watches);
    if (!w || !watches) {
        if (w != &one)
            free(w);
        if (watches != &watch_one)
            free(watches);
        exec_grid_end(g);
        exec_pool_release(&crew);
        return PTX_E_NOMEM;
    }
    if (nworkers == 1)
        memset(&one, 0, offsetof(worker, err));
    for (uint32_t i = 0; i < nworkers; i++) {
        w[i].failed = UINT64_MAX;
        watches[i] = &w[i].hang;
    }
    j.w = w;
    g->watches = watches;
    g->nwatches = nworkers;
    g->concurrent = nworkers > 1;
    g->lazy_regs = true;
    if (l->engine == EXEC_ENGINE_JIT && !l->check_memory && !g->l.check_race)
        g->region_at = exec_program_regions(p, l, kernel);
    if (nworkers > 1 && p->kernels[kernel].calls_print && l->host &&
        !(j.printed = calloc(j.nunits, sizeof *j.printed))) {
        g->watches = NULL;
        exec_grid_end(g);
        free(w);
        free(watches);
        exec_pool_release(&crew);
        return PTX_E_NOMEM;
    }
    exec_pool_run(&crew, work, &j);
    st = PTX_OK;
    uint64_t failed = UINT64_MAX;
    for (uint32_t i = 0; i < nworkers; i++) {
        exec_stats_add(stats, &w[i].stats);
        if (w[i].failed < failed) {
            failed = w[i].failed;
            st = w[i].st;
            *err = w[i].err;
        }
        exec_cta_spares_free(&w[i].spare);
    }
    stats->races += g->races;
    /* What the units printed, in launch order, up to the first that failed
     * (the units after it one thread would never have run). */
    for (uint64_t u = 0; j.printed && u < j.nunits; u++) {
        if (j.printed[u].text && u <= failed)
            fwrite(j.printed[u].text, 1, j.printed[u].len, l->out ? l->out : stdout);
        free(j.printed[u].text);
    }
    free(j.printed);
    bool compiled = g->region_at != NULL;
    g->watches = NULL;
    g->nwatches = 0;
    exec_grid_end(g);
    if (w != &one)
        free(w);
    if (watches != &watch_one)
        free(watches);
    if (compiled)
        exec_program_wait_compiles(p);     /* the program may exit next (compiled.c) */
    return st;
}

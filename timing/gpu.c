/*
 * gpu.c -- the whole chip: building it from a configuration, placing CTAs
 * on SMs as resources allow, and the main loop that advances time.
 *
 * The loop visits only what has work: memory events fire at their times,
 * and an SM runs a cycle only when its wake time has come.  When nothing
 * happens for a while (every warp waiting on memory), time jumps to the
 * next event and the skipped cycles are charged to each scheduler's last
 * stall reason, so the statistics are those of a cycle-by-cycle run.
 */
#include "dram.h"
#include "sm.h"

#include <stdlib.h>
#include <string.h>

static uint64_t period_ps(uint64_t mhz) { return (1000000 + mhz / 2) / mhz; }

tm_gpu *tm_new(const tm_config *c)
{
    tm_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->c = *c;
    g->core_ps = period_ps(c->core_clock_mhz);
    g->icnt_ps = period_ps(c->icnt_clock_mhz);
    g->l2_ps = period_ps(c->l2_clock_mhz);
    g->dram_ps = period_ps(c->dram_clock_mhz);
    g->sms = tm_alloc_lines(c->n_sm, sizeof *g->sms);
    g->parts = tm_alloc_lines(c->n_partitions, sizeof *g->parts);
    g->maybe_busy = calloc((c->n_sm + 63) / 64, sizeof *g->maybe_busy);
    if (!g->sms || !g->parts || !g->maybe_busy)
        goto fail;
    uint32_t slots = (uint32_t)(c->sm_max_threads / 32);
    tm_set_threads(g, 1, -1);
    tm_set_window(g, TM_WINDOW_LONGEST);
    for (uint32_t i = 0; i < c->n_sm; i++) {
        tm_sm *sm = &g->sms[i];
        sm->id = i;
        sm->log.lo = UINT64_MAX;
        sm->nslots = slots;
        sm->slots = tm_alloc_lines(slots, sizeof *sm->slots);
        sm->ctas = tm_alloc_lines(c->sm_max_ctas, sizeof *sm->ctas);
        sm->max_ctas = (uint32_t)c->sm_max_ctas;
        sm->sp_free = tm_alloc_lines(c->n_sp, sizeof *sm->sp_free);
        sm->sfu_free = tm_alloc_lines(c->n_sfu, sizeof *sm->sfu_free);
        sm->dp_free = tm_alloc_lines(c->n_dp, sizeof *sm->dp_free);
        sm->tensor_free = tm_alloc_lines(c->n_tensor, sizeof *sm->tensor_free);
        sm->rr = tm_alloc_lines(c->n_schedulers, sizeof *sm->rr);
        sm->sched = tm_alloc_lines(c->n_schedulers, sizeof *sm->sched);
        sm->nsched = tm_alloc_lines(c->n_schedulers, sizeof *sm->nsched);
        for (uint32_t s = 0; sm->sched && s < c->n_schedulers; s++)
            if (!(sm->sched[s] = tm_alloc_lines(slots, sizeof **sm->sched)))
                goto fail;
        sm->last = tm_alloc_lines(c->n_schedulers, sizeof *sm->last);
        sm->look_at = tm_alloc_lines(c->n_schedulers, sizeof *sm->look_at);
        sm->nschedulers = (uint32_t)c->n_schedulers;
        sm->wake = TM_NEVER;
        sm->noc = (uint32_t)(c->opcoll == TM_OC_GENERIC ? c->opcoll_slots
                                                       : c->opcoll_alu + c->opcoll_sfu + c->opcoll_mem);
        sm->oc = tm_alloc_lines(sm->noc, sizeof *sm->oc);
        /* A scheduler's candidates are at most an SM's warp slots. */
        sm->order = tm_alloc_lines(slots, sizeof *sm->order);
        sm->limited = tm_alloc_lines(slots, sizeof *sm->limited);
        sm->next_rr = tm_alloc_lines(slots, sizeof *sm->next_rr);
        sm->taken = tm_alloc_lines(slots, sizeof *sm->taken);
        sm->ordered = true;
        if (!sm->oc || !sm->order || !sm->limited || !sm->next_rr || !sm->taken || !sm->slots || !sm->ctas || !sm->sp_free || !sm->sfu_free || !sm->dp_free || !sm->tensor_free || !sm->rr ||
            !sm->last || !sm->look_at || !sm->sched || !sm->nsched ||
            !tm_cache_init(&sm->l1, "L1D", (uint32_t)c->l1_sets, (uint32_t)c->l1_assoc, (uint32_t)c->l1_line,
                           (uint32_t)c->l1_sector, c->l1_index, (uint32_t)c->l1_mshr,
                           (uint32_t)c->l1_mshr_merge, &g->scratch.l1d))
            goto fail;
        /* The read-only L1s: one sector, a fill brings the whole line.  An
         * instruction or constant MSHR takes as many requests as the SM has
         * warp slots (no preset gives a limit for them). */
        if ((c->l1i_sets && !tm_cache_init(&sm->l1i, "L1I", (uint32_t)c->l1i_sets, (uint32_t)c->l1i_assoc,
                                           (uint32_t)c->l1i_line, (uint32_t)c->l1i_line, TM_INDEX_LINEAR,
                                           (uint32_t)c->l1i_mshr, slots, &g->scratch.l1i)) ||
            (c->l1c_sets && !tm_cache_init(&sm->l1c, "L1C", (uint32_t)c->l1c_sets, (uint32_t)c->l1c_assoc,
                                           (uint32_t)c->l1c_line, (uint32_t)c->l1c_line, TM_INDEX_LINEAR,
                                           (uint32_t)c->l1c_mshr, slots, &g->scratch.l1c)) ||
            (c->l1t_sets && !tm_cache_init(&sm->l1t, "L1T", (uint32_t)c->l1t_sets, (uint32_t)c->l1t_assoc,
                                           (uint32_t)c->l1t_line, (uint32_t)c->l1t_line, TM_INDEX_LINEAR,
                                           (uint32_t)c->l1t_mshr, (uint32_t)c->l1t_mshr_merge, &g->scratch.l1t)))
            goto fail;
    }
    for (uint32_t p = 0; p < c->n_partitions; p++) {
        tm_partition *part = &g->parts[p];
        if (!tm_cache_init(&part->l2, "L2", (uint32_t)c->l2_sets, (uint32_t)c->l2_assoc, (uint32_t)c->l2_line,
                           (uint32_t)c->l2_sector, c->l2_index, (uint32_t)c->l2_mshr,
                           (uint32_t)c->l2_mshr_merge, &g->scratch.l2) ||
            !tm_dram_init(&part->dram, c))
            goto fail;
        tm_cache_set_slices(&part->l2, tm_l2_slice_lines(c), (uint32_t)c->n_partitions);
    }
    /* Per-set counts of each level (all L1s together, all L2 slices
     * together), and hashes. */
    g->set_counts = calloc(2 * (c->l1_sets + c->l2_sets), sizeof *g->set_counts);
    if (!g->set_counts)
        goto fail;
    for (uint32_t i = 0; i < c->n_sm; i++) {
        tm_cache *l1 = &g->sms[i].l1;
        l1->set_accesses = g->set_counts;
        l1->set_misses = g->set_counts + c->l1_sets;
        tm_cache_set_hash(l1, (uint32_t)c->l1_pric_poly, (uint32_t)c->index_hi_bit, (uint32_t)c->l1_hash_latency);
    }
    for (uint32_t p = 0; p < c->n_partitions; p++) {
        tm_cache *l2 = &g->parts[p].l2;
        l2->set_accesses = g->set_counts + 2 * c->l1_sets;
        l2->set_misses = g->set_counts + 2 * c->l1_sets + c->l2_sets;
        tm_cache_set_hash(l2, (uint32_t)c->l2_pric_poly, (uint32_t)c->index_hi_bit, (uint32_t)c->l2_hash_latency);
    }
    if (!tm_mech_new(g))
        goto fail;
    return g;
fail:
    tm_free(g);
    return NULL;
}

void tm_free(tm_gpu *g)
{
    if (!g)
        return;
    tm_mech_free(g);
    tm_memsys_free(g);
    tm_steps_free(g);
    tm_pipe_free(g);
    tm_spare_drain();
    if (g->sms)
        for (uint32_t i = 0; i < g->c.n_sm; i++) {
            tm_sm *sm = &g->sms[i];
            exec_cta_spares_free(&sm->spare_ctas);
            free(sm->slots);
            free(sm->ctas);
            free(sm->log.v);
            free(sm->sp_free);
            free(sm->sfu_free);
            free(sm->dp_free);
            free(sm->tensor_free);
            free(sm->rr);
            free(sm->last);
            free(sm->look_at);
            for (uint32_t s = 0; sm->sched && s < g->c.n_schedulers; s++)
                free(sm->sched[s]);
            free(sm->sched);
            free(sm->nsched);
            tm_cache_free(&sm->l1);
            tm_cache_free(&sm->l1i);
            tm_cache_free(&sm->l1c);
            tm_cache_free(&sm->l1t);
            free(sm->oc);
            free(sm->order);
            free(sm->limited);
            free(sm->next_rr);
            free(sm->taken);
            while (sm->spare) {
                tm_minst *m = sm->spare;
                sm->spare = m->next;
                free(m);
            }
        }
    if (g->parts)
        for (uint32_t p = 0; p < g->c.n_partitions; p++) {
            tm_cache_free(&g->parts[p].l2);
            tm_dram_free(&g->parts[p].dram);
            tm_heap_free(&g->parts[p].events);
        }
    for (uint32_t i = 0; g->sms && i < g->c.n_sm; i++)
        tm_heap_free(&g->sms[i].inbox);
    free(g->sms);
    free(g->parts);
    free(g->maybe_busy);
    free(g->set_counts);
    free(g->samples);
    free(g->spans);
    free(g);
}

const tm_config *tm_config_of(const tm_gpu *g) { return &g->c; }
uint64_t tm_now(const tm_gpu *g) { return g->now / g->core_ps; }

/* ---- CTA placement ------------------------------------------------------------------ */

typedef struct cta_needs {
    uint32_t warps, threads, regs, shared;
} cta_needs;

static cta_needs needs_of(const tm_gpu *g, const exec_kernel_info *k, const exec_launch *l)
{
    const tm_config *c = &g->c;
    cta_needs n;
    n.threads = l->block[0] * l->block[1] * l->block[2];
    n.warps = (n.threads + 31) / 32;
    /* What the machine code allocates (runtime/rt_regs.c).  Without it,
     * the PTX count, which overstates it (PTX registers are virtual and
     * never reused), capped at 64 per thread. */
    uint32_t per_thread = k->machine_regs ? k->machine_regs : k->regs < 64 ? (k->regs ? k->regs : 1) : 64;
    /* A compiler fits the kernel to its block: one block always fits the
     * register file, as the runtime's occupancy figures assume too. */
    uint64_t fit = n.warps ? c->sm_registers / n.warps / c->reg_alloc_unit * c->reg_alloc_unit / 32 : 1;
    if (per_thread > fit)
        per_thread = fit ? (uint32_t)fit : 1;
    uint64_t per_warp = (per_thread * 32 + c->reg_alloc_unit - 1) / c->reg_alloc_unit * c->reg_alloc_unit;
    n.regs = (uint32_t)(per_warp * n.warps);
    n.shared = k->static_shared + l->dynamic_shared;
    return n;
}

/* Whether k more CTAs of these needs fit on the SM now. */
static bool fits_k(const tm_gpu *g, const tm_sm *sm, const cta_needs *n, uint32_t k)
{
    const tm_config *c = &g->c;
    return sm->nctas + k <= sm->max_ctas && sm->threads + k * n->threads <= c->sm_max_threads &&
           sm->regs + (uint64_t)k * n->regs <= c->sm_registers &&
           sm->shared + (uint64_t)k * n->shared <= c->sm_shared_bytes &&
           sm->resident_warps + k * n->warps <= sm->nslots;
}

static bool fits(const tm_gpu *g, const tm_sm *sm, const cta_needs *n) { return fits_k(g, sm, n, 1); }

/* Thread block clusters.  A cluster's CTAs are placed together, all at
 * once, rank r on SM (first + r) mod n_sm: consecutive SMs, standing in for
 * the SMs of one GPC (several CTAs of a cluster share an SM when the GPU
 * has fewer SMs than the cluster has CTAs).  A cluster waits until all of
 * its CTAs fit. */
static uint32_t cluster_share(uint32_t first, uint32_t rank_sm, uint32_t csize, uint32_t nsm)
{
    uint32_t k = 0;
    for (uint32_t r = 0; r < csize; r++)
        k += (first + r) % nsm == rank_sm;
    return k;
}


static bool cluster_fits(const tm_gpu *g, uint32_t first, uint32_t csize, const cta_needs *n)
{
    uint32_t nsm = (uint32_t)g->c.n_sm;
    for (uint32_t r = 0; r < csize && r < nsm; r++) {
        uint32_t s = (first + r) % nsm;
        if (!fits_k(g, &g->sms[s], n, cluster_share(first, s, csize, nsm)))
            return false;
    }
    return true;
}

static ptx_status place(tm_gpu *g, tm_sm *sm, uint64_t linear, const cta_needs *n);

static ptx_status place_cluster(tm_gpu *g, uint32_t first, uint64_t cluster, uint32_t csize,
                                const cta_needs *n)
{
    tm_cta *head = NULL, *prev = NULL;
    for (uint32_t r = 0; r < csize; r++) {
        tm_sm *sm = &g->sms[(first + r) % (uint32_t)g->c.n_sm];
        ptx_status st = place(g, sm, exec_grid_cluster_cta(g->grid, cluster, r), n);
        if (st != PTX_OK)
            return st;
        tm_cta *t = sm->ctas[sm->nctas - 1];
        if (prev)
            prev->cl_next = t;
        else
            head = t;
        prev = t;
    }
    prev->cl_next = head;
    return PTX_OK;
}

/* A CTA whose cluster changed: its barriers and its schedulers take a look. */
static void cta_wake(tm_gpu *g, tm_cta *t)
{
    t->sync_needed = t->sm->cta_look = true;
    t->sm->wake = g->now;
    tm_sm_look_all(t->sm);
}

void tm_cluster_wake(tm_gpu *g, tm_cta *t)
{
    for (tm_cta *p = t->cl_next; p && p != t; p = p->cl_next)
        cta_wake(g, p);
}

/* t leaves its cluster's ring (it retires); the others take a look. */
static void cluster_unlink(tm_gpu *g, tm_cta *t)
{
    if (!t->cl_next)
        return;
    tm_cta *p = t;
    while (p->cl_next != t)
        p = p->cl_next;
    if (p != t) {
        p->cl_next = t->cl_next;        /* p itself when only p is left */
        tm_cluster_wake(g, p);
        cta_wake(g, p);
    }
    t->cl_next = NULL;
}

/* CTA t's state in the engine (its registers and shared memory zeroed, its
 * warps at the kernel's first instruction), from a CTA that ended on its
 * SM if there is one. */
static ptx_status cta_begin(tm_gpu *g, tm_sm *sm, tm_cta *t)
{
    ptx_status st = exec_cta_begin_from(g->grid, &sm->spare_ctas, t->linear, sm->id, &t->xc);
    if (st != PTX_OK)
        return st;
    exec_cta_log_stores(t->xc, sm->logging ? &sm->log : NULL);
    for (uint32_t w = 0; w < t->nwarps; w++)
        t->warps[w].xw = exec_cta_warp(t->xc, w);
    return PTX_OK;
}

bool tm_sm_begin_ctas(tm_gpu *g, tm_sm *sm)
{
    for (uint32_t k = 0; sm->unready && k < sm->nctas; k++) {
        tm_cta *t = sm->ctas[k];
        if (t->xc)
            continue;
        ptx_status st = cta_begin(g, sm, t);
        if (st != PTX_OK) {
            sm->fault = st;
            snprintf(sm->err->msg, sizeof sm->err->msg, "block %llu of kernel '%s' could not begin on SM %u: %s",
                     (unsigned long long)t->linear, g->kernel, sm->id, ptx_status_message(st));
            return false;
        }
        sm->unready--;
    }
    return true;
}

/* A CTA placed in a window begins in the engine on the thread that runs
 * its SM next (tm_sm_begin_ctas), side by side with the other SMs: zeroing
 * its registers and shared memory is most of what placing a CTA costs, and
 * bfs's 22 000 short blocks spent 7% of a run placed on the main thread. */
static ptx_status place(tm_gpu *g, tm_sm *sm, uint64_t linear, const cta_needs *n)
{
    tm_cta *t = tm_alloc_lines(1, sizeof *t);
    if (!t)
        return PTX_E_NOMEM;
    t->sm = sm;
    t->linear = linear;
    t->began = g->now;
    t->maybe_done = sm->cta_look = true;        /* until its first look */
    t->nwarps = n->warps;       /* (the engine's count: threads / 32, rounded up) */
    t->warps = tm_alloc_lines(t->nwarps, sizeof *t->warps);
    if (!t->warps) {
        free(t);
        return PTX_E_NOMEM;
    }
    if (g->win_cycles) {
        sm->unready++;
    } else {
        ptx_status st = cta_begin(g, sm, t);
        if (st != PTX_OK) {
            free(t->warps);
            free(t);
            return st;
        }
    }
    uint32_t w = 0;
    for (uint32_t s = 0; s < sm->nslots && w < t->nwarps; s++) {
        if (sm->slots[s])
            continue;
        tm_warp *tw = &t->warps[w];
        tw->cta = t;
        tw->slot = s;
        tw->age = g->warp_age++;
        if (g->mech_warp_bytes) {       /* the mechanisms' blocks start afresh */
            tw->mech = sm->mech_warps + (size_t)s * g->mech_warp_bytes;
            memset(tw->mech, 0, g->mech_warp_bytes);
        }
        sm->slots[s] = tw;
        uint32_t sch = s % (uint32_t)g->c.n_schedulers;
        sm->sched[sch][sm->nsched[sch]++] = tw;     /* appended: the list stays oldest first */
        w++;
    }
    g->maybe_busy[sm->id / 64] |= 1ull << (sm->id % 64);
    if (!sm->nctas) {
        g->live_sms++;
        sm->charged = g->now;
        sm->mshr_opportunity = false;   /* until its first cycle looks */
    }
    g->live_warps += t->nwarps;
    sm->ctas[sm->nctas++] = t;
    sm->threads += n->threads;
    sm->regs += n->regs;
    sm->shared += n->shared;
    sm->resident_warps += t->nwarps;
    sm->wake = g->now;
    tm_sm_look_all(sm);
    return PTX_OK;
}

static void retire_cta(tm_gpu *g, tm_sm *sm, uint32_t i, const cta_needs *n)
{
    tm_cta *t = sm->ctas[i];
    g->cta_room = true;
    if (sm->nctas == 1)
        tm_sm_charge(g, sm, g->now);    /* its last CTA: the schedulers' time ends here */
    if (g->nspans == g->capspans) {
        uint32_t nc = g->capspans ? g->capspans * 2 : 256;
        tm_span *sp = realloc(g->spans, nc * sizeof *sp);
        if (sp) {
            g->spans = sp;
            g->capspans = nc;
        }
    }
    if (g->nspans < g->capspans)
        g->spans[g->nspans++] = (tm_span){ sm->id, t->linear, (t->began - g->run_start) / g->core_ps,
                                           (g->now - g->run_start) / g->core_ps };
    for (uint32_t w = 0; w < t->nwarps; w++) {
        tm_warp *tw = &t->warps[w];
        TM_EACH(g, warp_end, mech)
            (*mech)->warp_end(g, sm, tw);
        sm->slots[tw->slot] = NULL;
        uint32_t sch = tw->slot % (uint32_t)g->c.n_schedulers;
        tm_warp **list = sm->sched[sch];
        uint32_t count = sm->nsched[sch];
        for (uint32_t k = 0; k < count; k++)
            if (list[k] == tw) {
                memmove(&list[k], &list[k + 1], (count - k - 1) * sizeof *list);
                sm->nsched[sch]--;
                break;
            }
        if (sm->last[sch] == tw)
            sm->last[sch] = NULL;
    }
    sm->resident_warps -= t->nwarps;
    g->live_warps -= t->nwarps;
    sm->threads -= n->threads;
    sm->regs -= n->regs;
    sm->shared -= n->shared;
    if (!t->xc)
        sm->unready--;          /* (a failed launch's, never begun) */
    exec_cta_end_to(t->xc, &sm->spare_ctas);    /* may release the rest of its cluster */
    cluster_unlink(g, t);
    free(t->warps);
    free(t);
    sm->ctas[i] = sm->ctas[--sm->nctas];
    if (!sm->nctas)
        g->live_sms--;
}

/* ---- the main loop ------------------------------------------------------------------- */

static void point_stats(tm_gpu *g, tm_stats *st)
{
    const tm_config *c = &g->c;
    memset(g->set_counts, 0, 2 * (c->l1_sets + c->l2_sets) * sizeof *g->set_counts);
    st->l1_sets = (uint32_t)c->l1_sets;
    st->l2_sets = (uint32_t)c->l2_sets;
    st->l1_set_accesses = g->set_counts;
    st->l1_set_misses = g->set_counts + c->l1_sets;
    st->l2_set_accesses = g->set_counts + 2 * c->l1_sets;
    st->l2_set_misses = g->set_counts + 2 * c->l1_sets + c->l2_sets;
}

/* Close one interval of the time series. */
static void take_sample(tm_gpu *g, tm_stats *st)
{
    if (g->nsamples == g->capsamples) {
        uint32_t nc = g->capsamples ? g->capsamples * 2 : 256;
        tm_sample *s = realloc(g->samples, nc * sizeof *s);
        if (!s)
            return;
        g->samples = s;
        g->capsamples = nc;
    }
    tm_sample now = {
        .cycle = (g->now - g->run_start) / g->core_ps,
        .warp_insts = st->warp_insts, .thread_insts = st->thread_insts,
        .l1_accesses = st->l1d.accesses, .l1_misses = st->l1d.misses,
        .l2_accesses = st->l2.accesses, .l2_misses = st->l2.misses,
        .dram_bytes = (st->dram_reads + st->dram_writes) * g->c.l2_sector,
    };
    memcpy(now.slots, st->slots, sizeof now.slots);
    tm_sample d = now;
    const tm_sample *p = &g->last_sample;
    d.warp_insts -= p->warp_insts;
    d.thread_insts -= p->thread_insts;
    d.l1_accesses -= p->l1_accesses;
    d.l1_misses -= p->l1_misses;
    d.l2_accesses -= p->l2_accesses;
    d.l2_misses -= p->l2_misses;
    d.dram_bytes -= p->dram_bytes;
    for (int i = 0; i < TM_SLOT_COUNT; i++)
        d.slots[i] -= p->slots[i];
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        d.active_warps += g->sms[i].resident_warps;
    g->samples[g->nsamples++] = d;
    g->last_sample = now;
}

void tm_set_warp_limit(tm_gpu *g, uint32_t limit)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++) {
        g->sms[i].warp_limit = limit;
        tm_sm_look_all(&g->sms[i]);
    }
}

/* One launch in progress: what the steps of tm_run share. */
typedef struct launch {
    const exec_kernel_info *kernel;
    cta_needs need;             /* of each CTA */
    uint32_t csize;             /* CTAs per cluster (1: no clusters) */
    uint64_t start;             /* its first cycle (ps) */
    uint64_t next_cta, total, done;     /* CTAs placed, in the grid, retired */
    uint32_t rr_sm;             /* the SM placement tries next */
    uint32_t busy_words;        /* words of g->maybe_busy */
    uint64_t last_insts, last_progress; /* the livelock watch */
    uint64_t hang_insts;        /* the loop watch: warp-instructions when it last looked */
    exec_cta **resident;        /* the loop watch: the resident CTAs, gathered there */
    uint64_t steps;             /* main-loop steps, for report_progress */
    tm_sm **busy_sms;           /* this step: the SMs with work (one host thread) */
    uint32_t *due;              /* a window's replies due, per SM (window_plan) */
    bool busy;                  /* this step: some SM had work */
    uint64_t sm_next;           /* this step: the earliest wake of an SM with work */
} launch;

/* Statistics go to st; the grid begins; a CTA (and a cluster) must fit on
 * an empty SM (GPU), else the launch fails as CUDA's would. */
static ptx_status begin(tm_gpu *g, exec_program *p, int kernel, const exec_launch *l, tm_stats *st,
                        exec_stats *xst, exec_error *err, launch *ln)
{
    const tm_config *c = &g->c;
    memset(st, 0, sizeof *st);
    g->st = st;
    g->xst = xst;
    g->err = err;
    g->fault = PTX_OK;
    /* The engine's hang guard, as in functional mode: without it a kernel
     * that never ends would keep the model issuing forever. */
    g->budget = l->max_warp_insts ? l->max_warp_insts : EXEC_DEFAULT_MAX_WARP_INSTS;
    point_stats(g, st);
    ln->busy_sms = calloc(c->n_sm, sizeof *ln->busy_sms);      /* tm_run frees them */
    ln->due = calloc(c->n_sm, sizeof *ln->due);
    if (!ln->busy_sms || !ln->due)
        return PTX_E_NOMEM;
    ptx_status rc = exec_grid_begin(p, kernel, l, &g->grid, err);
    if (rc != PTX_OK)
        return rc;
    for (uint32_t i = 0; i < c->n_sm; i++)
        exec_cta_spares_adopt(g->grid, &g->sms[i].spare_ctas);
    const exec_kernel_info *ki = ln->kernel = exec_grid_kernel(g->grid);
    cta_needs need = ln->need = needs_of(g, ki, l);
    tm_sm probe = { .nslots = g->sms[0].nslots, .max_ctas = g->sms[0].max_ctas };
    if (!fits(g, &probe, &need)) {
        exec_grid_end(g->grid);
        g->grid = NULL;
        snprintf(err->msg, sizeof err->msg,
                 "a block of kernel '%s' needs more than one SM of the configured GPU has "
                 "(%u threads, %u registers, %u bytes of shared memory)", ki->name, need.threads,
                 need.regs, need.shared);
        err->st = PTX_E_LAUNCH_CONFIG;
        return PTX_E_LAUNCH_CONFIG;
    }
    uint32_t csize = ln->csize = exec_grid_cluster_size(g->grid);
    /* SMs step side by side (step.c) unless something reaches across them
     * in the middle of a cycle: a mechanism's shared state, a cluster's
     * distributed shared memory, the checkers' records. */
    bool mechanisms = false;
    for (int id = 0; id < TM_MECH_COUNT; id++)
        mechanisms = mechanisms || g->mech[id].on;
    g->parallel = !mechanisms && csize <= 1 && !l->check_memory && !l->check_race && !l->check_race_global;
    for (uint32_t i = 0; i < c->n_sm; i++) {
        tm_sm *sm = &g->sms[i];
        sm->fault = PTX_OK;
        sm->parked = false;
        sm->ordered = !g->parallel;
    }
    if (!tm_steps_begin(g, exec_grid_ctas(g->grid)) || (g->piped && !tm_pipe_ready(g))) {
        exec_grid_end(g->grid);
        g->grid = NULL;
        return PTX_E_NOMEM;
    }
    for (uint32_t i = 0; i < c->n_sm; i++)
        g->sms[i].logging = g->win_cycles != 0;
    if (csize > 1) {
        /* A whole cluster must fit on an empty GPU. */
        uint32_t k = (csize + c->n_sm - 1) / (uint32_t)c->n_sm;
        if (!fits_k(g, &probe, &need, k)) {
            exec_grid_end(g->grid);
            g->grid = NULL;
            snprintf(err->msg, sizeof err->msg,
                     "a cluster of %u blocks of kernel '%s' cannot be resident at once on the configured GPU "
                     "(%u SMs; %u blocks of %u threads, %u registers and %u bytes of shared memory on one SM)",
                     csize, ki->name, (unsigned)c->n_sm, k, need.threads, need.regs, need.shared);
            err->st = PTX_E_LAUNCH_CONFIG;
            return PTX_E_LAUNCH_CONFIG;
        }
    }
    return PTX_OK;
}

/* What starts afresh for each launch.  Data, constant and texture L1s
 * start cold (the instruction cache and the L2 keep what earlier kernels
 * left): memory may have changed between launches.  The mechanisms reset
 * what they do not carry over; their periods start now. */
static void reset(tm_gpu *g, exec_program *p, launch *ln)
{
    const tm_config *c = &g->c;
    g->shared_win = exec_memory_windows(exec_program_memory(p))->shared_win;
    g->st->max_warps = g->sms[0].nslots;
    for (uint32_t i = 0; i < c->n_sm; i++) {
        tm_cache_flush(&g->sms[i].l1);
        if (c->l1c_sets)
            tm_cache_flush(&g->sms[i].l1c);
        if (c->l1t_sets)
            tm_cache_flush(&g->sms[i].l1t);
    }
    tm_fetch_begin(g, p);
    g->kernel = ln->kernel->name;
    for (int id = 0; id < TM_MECH_COUNT; id++) {
        if (tm_mechs[id]->stats_reset)
            tm_mechs[id]->stats_reset(c, g->st);
        if (g->mech[id].stats)
            memset(g->mech[id].stats, 0, tm_mechs[id]->stats_bytes);
    }
    g->st->mech_stats = g->mech_stats;
    TM_EACH(g, launch, mech)
        (*mech)->launch(g);
    for (uint32_t i = 0; g->on.decide[i]; i++)
        g->decide_at[i] = g->now + g->on.decide[i]->period(c) * g->core_ps;
    g->run_start = g->now;
    g->nsamples = g->nspans = 0;
    memset(&g->last_sample, 0, sizeof g->last_sample);
    g->next_sample = g->now + c->sample_cycles * g->core_ps;
    tm_set_warp_limit(g, c->throttle == TM_THROTTLE_STATIC ? (uint32_t)c->throttle_warps : 0);
    ln->start = g->now;
    ln->total = exec_grid_ctas(g->grid);
    /* A model that stops issuing while work remains has livelocked (a
     * replay loop, say); watch_progress says so rather than spin. */
    ln->last_progress = g->now;
    g->cta_room = true;
    ln->busy_words = (uint32_t)((c->n_sm + 63) / 64);
    for (uint32_t i = 0; i < c->n_sm; i++)       /* a failed launch may have left work behind */
        g->maybe_busy[i / 64] |= 1ull << (i % 64);
}

/* Fill free SM slots with waiting CTAs, round robin over SMs; once a pass
 * finds no room, none appears until a CTA retires. */
static ptx_status place_ctas(tm_gpu *g, launch *ln)
{
    const tm_config *c = &g->c;
    ptx_status rc;
    /* refused: SMs in a row that had no room; a pass ends when every SM
     * has refused since the last placement. */
    for (uint32_t refused = 0; g->cta_room && ln->next_cta < ln->total && refused < c->n_sm;) {
        tm_sm *sm = &g->sms[ln->rr_sm];
        uint32_t first = ln->rr_sm;
        ln->rr_sm = (ln->rr_sm + 1) % (uint32_t)c->n_sm;
        if (ln->csize > 1) {
            if (!cluster_fits(g, first, ln->csize, &ln->need)) {
                refused++;
                continue;
            }
            if ((rc = place_cluster(g, first, ln->next_cta / ln->csize, ln->csize, &ln->need)) != PTX_OK)
                return rc;
            ln->next_cta += ln->csize;
            refused = 0;
            continue;
        }
        if (!fits(g, sm, &ln->need)) {
            refused++;
            continue;
        }
        if ((rc = place(g, sm, ln->next_cta++, &ln->need)) != PTX_OK)
            return rc;
        refused = 0;
    }
    g->cta_room = false;
    return PTX_OK;
}

/* Are a sample of the time series or a mechanism's decision due by now? */
static bool periodic_due(const tm_gpu *g)
{
    if (g->c.sample_cycles && g->now >= g->next_sample)
        return true;
    for (uint32_t i = 0; g->on.decide[i]; i++)
        if (g->now >= g->decide_at[i])
            return true;
    return false;
}

/* The time series' samples and the mechanisms' decisions due by now. */
static void periodic(tm_gpu *g)
{
    const tm_config *c = &g->c;
    while (c->sample_cycles && g->now >= g->next_sample) {
        tm_gather_all(g);
        take_sample(g, g->st);
        g->next_sample += c->sample_cycles * g->core_ps;
    }
    for (uint32_t i = 0; g->on.decide[i]; i++)
        while (g->now >= g->decide_at[i]) {
            g->on.decide[i]->decide(g);
            g->decide_at[i] += g->on.decide[i]->period(c) * g->core_ps;
        }
}

bool tm_sm_sync_ctas(tm_gpu *g, tm_sm *sm)
{
    bool retire = false;
    for (uint32_t k = 0; k < sm->nctas; k++) {
        tm_cta *t = sm->ctas[k];
        if (t->sync_needed) {
            t->sync_needed = false;
            if (!exec_cta_sync(t->xc, sm->err)) {
                sm->fault = PTX_E_DEADLOCK;
                return false;
            }
            sm->wake = sm->now; /* released warps may issue */
            tm_sm_look_all(sm);
        }
        retire = retire || t->maybe_done;
    }
    sm->cta_look = retire;
    return true;
}

/* Whether CTA t of the SM is done: its threads are, and nothing of it is
 * left in the memory system or the collector units either.  A CTA that
 * only seemed done stops seeming so until another warp finishes. */
static bool cta_finished(const tm_sm *sm, tm_cta *t)
{
    if (t->maybe_done && !exec_cta_done(t->xc))
        t->maybe_done = false;
    if (!t->maybe_done)
        return false;
    bool busy_warps = sm->lsu && sm->lsu->warp->cta == t;
    for (uint32_t w = 0; w < t->nwarps; w++)
        busy_warps = busy_warps || t->warps[w].loads_in_flight || t->warps[w].nretained;
    for (uint32_t o = 0; o < sm->noc; o++)
        busy_warps = busy_warps || (sm->oc[o].used && sm->oc[o].warp->cta == t);
    return !busy_warps;
}

/* Release the SM's CTAs' barriers and retire its finished CTAs.  Its CTAs
 * need a look only after a warp reached a barrier, exited or finished; a
 * finished CTA whose loads are still out keeps the SM looking. */
static ptx_status look_at_ctas(tm_gpu *g, tm_sm *sm, launch *ln)
{
    if (!sm->cta_look)
        return PTX_OK;
    if (!tm_sm_sync_ctas(g, sm))
        return PTX_E_DEADLOCK;
    bool look = sm->cta_look;
    sm->cta_look = false;
    for (uint32_t k = 0; look && k < sm->nctas;) {
        tm_cta *t = sm->ctas[k];
        if (cta_finished(sm, t)) {
            retire_cta(g, sm, k, &ln->need);
            ln->done++;
            sm->wake = g->now;
            tm_sm_look_all(sm);
            continue;
        }
        sm->cta_look = sm->cta_look || t->maybe_done;
        k++;
    }
    return PTX_OK;
}

bool tm_sm_retiring(tm_sm *sm)
{
    bool look = false;
    for (uint32_t k = 0; k < sm->nctas; k++) {
        if (cta_finished(sm, sm->ctas[k]))
            return true;        /* (the ordered part looks again, and retires it) */
        look = look || sm->ctas[k]->maybe_done;
    }
    sm->cta_look = look;
    return false;
}

/* The launch ends with g->fault; a report without words gets the status's. */
static ptx_status model_failed(tm_gpu *g)
{
    if (g->err->msg[0] == '\0')
        snprintf(g->err->msg, sizeof g->err->msg, "%s", ptx_status_message(g->fault));
    return g->fault;
}

/* ... with SM sm's failure: its report becomes the launch's. */
static ptx_status sm_failed(tm_gpu *g, tm_sm *sm)
{
    g->fault = sm->fault;
    if (sm->err != g->err)
        *g->err = *sm->err;
    return model_failed(g);
}

/* After an SM's cycle: the launch ends with its failure (or the model's);
 * else its CTAs, and when it next has something to do. */
static ptx_status after_cycle(tm_gpu *g, launch *ln, tm_sm *sm)
{
    if (sm->fault)
        return sm_failed(g, sm);
    if (g->fault)
        return model_failed(g);
    ptx_status rc = look_at_ctas(g, sm, ln);
    if (rc != PTX_OK)
        return rc;
    if (tm_sm_has_work(sm) && sm->wake < ln->sm_next)
        ln->sm_next = sm->wake;
    return PTX_OK;
}

static ptx_status finish_chunks(tm_gpu *g, launch *ln);

/* The step at g->now.  What was sent last step arrives, and the queues
 * with events due fire them (the memory partitions' own, the replies
 * reaching each SM); then the time series' sample and the mechanisms'
 * decisions due; then every SM that may have work, in order (the cost of a
 * step follows the busy SMs, not all of them): the mechanisms' visit, its
 * cycle if its wake time has come, its CTAs.  Notes whether any SM was
 * busy and the earliest time one wakes.  With no mechanism, cluster or
 * check, the lanes do all but the CTAs side by side on the host threads
 * (step.c), and name the SMs whose cycles stopped or whose CTAs need a
 * look: those are finished here, in SM order. */
static ptx_status step(tm_gpu *g, launch *ln)
{
    g->parity ^= 1;
    g->late_min = TM_NEVER;
    g->step_insts = g->st->warp_insts;
    ln->busy = false;
    ln->sm_next = TM_NEVER;
    ptx_status rc;
    if (!g->parallel) {
        /* The mechanisms may reach any SM's state at any point of the step. */
        for (uint32_t i = 0; i < g->c.n_sm; i++)
            g->sms[i].now = g->now;
        tm_lane_fire(g, &g->lanes[0]);
        periodic(g);
        uint32_t nbusy = 0;
        for (uint32_t word = 0; word < ln->busy_words; word++)
        for (uint64_t bits = g->maybe_busy[word]; bits; bits &= bits - 1) {
            uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(bits);
            tm_sm *sm = &g->sms[i];
            if (!tm_sm_has_work(sm)) {
                g->maybe_busy[word] &= ~(1ull << (i % 64));     /* until a block is placed on it */
                continue;
            }
            ln->busy_sms[nbusy++] = sm;
        }
        ln->busy = nbusy > 0;
        for (uint32_t k = 0; k < nbusy; k++) {
            tm_sm *sm = ln->busy_sms[k];
            TM_EACH(g, sm_visit, mech)
                (*mech)->sm_visit(g, sm);
            if (sm->wake <= g->now)
                tm_sm_cycle(g, sm);
            if ((rc = after_cycle(g, ln, sm)) != PTX_OK)
                return rc;
        }
        return g->fault ? model_failed(g) : PTX_OK;
    }
    if (periodic_due(g)) {
        tm_step_lanes(g, STEP_FIRE);
        periodic(g);
        tm_step_lanes(g, STEP_CYCLE);
    } else {
        tm_step_lanes(g, STEP_FIRE | STEP_CYCLE);
    }
    return finish_chunks(g, ln);
}

/* The second part of a step whose SM cycles ran in chunks (step.c): what
 * they found, and the SMs they named, in SM order (chunk order, each
 * chunk's list in order). */
static ptx_status finish_chunks(tm_gpu *g, launch *ln)
{
    ptx_status rc;
    for (uint32_t c = 0; c < g->nchunks; c++) {
        const tm_chunk *ch = &g->chunks[c];
        ln->busy = ln->busy || ch->busy;
        if (ch->sm_next < ln->sm_next)
            ln->sm_next = ch->sm_next;
        g->st->warp_insts += ch->insts;
    }
    for (uint32_t c = 0; c < g->nchunks; c++)
        for (uint32_t k = 0; k < g->chunks[c].nordered; k++) {
            tm_sm *sm = g->chunks[c].ordered[k];
            if (sm->fault)
                return sm_failed(g, sm);
            if (sm->parked) {
                sm->ordered = true;
                tm_sm_resume(g, sm);
                sm->ordered = false;
                g->st->warp_insts += tm_take_insts(g, sm);
            }
            if ((rc = after_cycle(g, ln, sm)) != PTX_OK)
                return rc;
        }
    return g->fault ? model_failed(g) : PTX_OK;
}

/* The SMs' part of the step at g->now while the partitions run pipelined
 * on a helper (pipe.c): as on one thread, in one lane, the replies coming
 * through the pipe and the requests going into it. */
static ptx_status step_piped(tm_gpu *g, launch *ln)
{
    g->step_insts = g->st->warp_insts;
    ln->busy = false;
    ln->sm_next = TM_NEVER;
    tm_pipe_sm_receive(g);
    tm_lane *L = &g->lanes[0];
    L->now = g->now;
    tm_lane_fire_due(g, L);
    tm_lane_cycles(g, L);
    ptx_status rc = finish_chunks(g, ln);
    tm_pipe_sm_sent(g);
    return rc;
}

/* Instructions issued since the last step, or every CTA done: progress.
 * Memory latencies are thousands of cycles at most, so ten million without
 * progress is far beyond any stall: a livelock in the model. */
static ptx_status watch_progress(tm_gpu *g, launch *ln)
{
    if (g->st->warp_insts != ln->last_insts || ln->done == ln->total) {
        ln->last_insts = g->st->warp_insts;
        ln->last_progress = g->now;
    } else if (g->now - ln->last_progress > 10000000ull * g->core_ps) {
        snprintf(g->err->msg, sizeof g->err->msg, "the timing model made no progress for ten million cycles "
                 "(%llu of %llu blocks unfinished): a livelock in the model",
                 (unsigned long long)(ln->total - ln->done), (unsigned long long)ln->total);
        return PTX_E_HANG;
    }
    return PTX_OK;
}

/* The engine's loop watch (exec_hang_check), as functional mode runs it:
 * a kernel whose running warps all repeat loops that change nothing while
 * the rest wait at barriers is stopped with the engine's report, long
 * before the instruction budget.  It looks every HANG_ROUND
 * warp-instructions; the engine samples the warps as they step, and only
 * after about 2^18 instructions in which nothing changed, so an ordinary
 * launch pays for a count and a compare per main-loop step. */
#define HANG_ROUND 4096u

static ptx_status watch_loops(tm_gpu *g, launch *ln)
{
    uint64_t insts = g->st->warp_insts - ln->hang_insts;
    if (insts < HANG_ROUND)
        return PTX_OK;
    ln->hang_insts = g->st->warp_insts;
    if (!ln->resident) {
        uint64_t cap = 0;
        for (uint32_t i = 0; i < g->c.n_sm; i++)
            cap += g->sms[i].max_ctas;
        if (!(ln->resident = calloc(cap ? cap : 1, sizeof *ln->resident)))
            return PTX_E_NOMEM;
    }
    uint64_t n = 0;
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        for (uint32_t k = 0; k < g->sms[i].nctas; k++)
            if (g->sms[i].ctas[k]->xc)          /* (one not begun has not run) */
                ln->resident[n++] = g->sms[i].ctas[k]->xc;
    bool moved;
    exec_warp *w = exec_hang_check(g->grid, ln->resident, n, insts, &moved);
    if (moved)                  /* warps' next instructions changed: decode them again */
        for (uint32_t i = 0; i < g->c.n_sm; i++)
            for (uint32_t k = 0; k < g->sms[i].nctas; k++)
                for (uint32_t j = 0; j < g->sms[i].ctas[k]->nwarps; j++)
                    g->sms[i].ctas[k]->warps[j].regs_valid = false;
    if (!w)
        return PTX_OK;
    exec_warp_error(w, PTX_E_HANG, g->err);
    return PTX_E_HANG;
}

/* Tell the caller how far the launch has come, every 4096 steps. */
static void report_progress(tm_gpu *g, launch *ln, const exec_launch *l)
{
    if (!l->progress || (++ln->steps & 4095))
        return;
    l->progress(l->progress_ctx, &(exec_progress){ .warp_insts = g->st->warp_insts, .ctas_done = ln->done,
                                                  .ctas_total = ln->total,
                                                  .cycles = (g->now - g->run_start) / g->core_ps });
}

/* Move to time `next`, charging the cycles skipped. */
static void charge_until(tm_gpu *g, uint64_t next)
{
    uint64_t skipped = (next - g->now) / g->core_ps;
    g->st->sm_cycles += skipped * g->live_sms;
    g->st->active_warp_cycles += skipped * g->live_warps;
    g->now = next;
}

/* ... or, with nothing to come (TM_NEVER), *ended when every CTA is done;
 * else the model has stalled. */
static ptx_status move_to(tm_gpu *g, launch *ln, uint64_t next, bool *ended)
{
    if (next != TM_NEVER) {
        charge_until(g, next);
        return PTX_OK;
    }
    if (ln->done == ln->total) {
        *ended = true;
        return PTX_OK;
    }
    snprintf(g->err->msg, sizeof g->err->msg, "the timing model stalled with %llu of %llu blocks unfinished",
             (unsigned long long)(ln->total - ln->done), (unsigned long long)ln->total);
    return PTX_E_DEADLOCK;
}

/* Advance to the next core clock edge at which anything happens. */
static ptx_status advance(tm_gpu *g, launch *ln, bool *ended)
{
    uint64_t next = tm_next_event(g);
    if (ln->sm_next < next)
        next = ln->sm_next;
    if (ln->next_cta < ln->total)
        next = next < g->now + g->core_ps ? next : g->now + g->core_ps;
    return move_to(g, ln, tm_step_after_now(g, next), ended);
}

/* ... the same, pipelined: the SMs' next step waits for every reply that
 * may be due by it (pipe.c). */
static ptx_status advance_piped(tm_gpu *g, launch *ln, bool *ended)
{
    uint64_t own = ln->sm_next;
    if (ln->next_cta < ln->total && g->now + g->core_ps < own)
        own = g->now + g->core_ps;
    return move_to(g, ln, tm_pipe_sm_next(g, own), ended);
}

/* ---- windows ------------------------------------------------------------------------ */


/* Every lane's partitions fire their events due before `end` (the window's
 * partitions, here when the launch may end within it). */
static void fire_parts(tm_gpu *g, uint64_t end)
{
    for (uint32_t k = 0; k < g->nlanes; k++)
        tm_lane_fire_parts(g, &g->lanes[k], end);
}

/* The lanes' next event after cycle v, the partitions having fired
 * through it (what is left of the SMs' entries up to v, dropped: the SMs
 * took their replies). */
static uint64_t lanes_next(tm_gpu *g, uint64_t v)
{
    uint64_t next = TM_NEVER;
    for (uint32_t k = 0; k < g->nlanes; k++) {
        tm_lane_fire_parts(g, &g->lanes[k], v + 1);
        if (g->lanes[k].next < next)
            next = g->lanes[k].next;
    }
    return next;
}

/* The first bit set in a window's cycles (fired_at) from bit `from` on;
 * UINT64_MAX if none. */
static uint64_t next_bit(const uint64_t *bits, uint64_t from)
{
    for (uint64_t w = from / 64; w < TM_WINDOW_WORDS; w++) {
        uint64_t word = bits[w] & (from > w * 64 ? ~0ull << (from - w * 64) : ~0ull);
        if (word)
            return w * 64 + (uint64_t)__builtin_ctzll(word);
    }
    return UINT64_MAX;
}

/* The ordered part of a window [g->now, g->win_end), cycle by cycle, for
 * the n SMs of `serial` (in id order): those whose parallel part stopped
 * (from the cycle it stopped at, sm->stop, whose rest comes here) and
 * those without CTAs with something to do in the window (sm->stop
 * TM_NEVER: from its start).  At each cycle, as a step at a time would:
 * the CTAs waiting placed if a CTA retired, then each of those SMs that
 * has joined takes its replies and runs its cycle up to where the ordered
 * part goes on, and then, in SM order, each SM's cycle that stopped is
 * finished and its CTAs looked at.  Once the launch's last CTA retires,
 * the launch ends at the first step at which no SM has work, as it would a
 * step at a time (*ended): the partitions fire here, cycle by cycle, up to
 * it -- unless they fired the window already (*parts_fired true, where it
 * could not end; their cycles then count as steps).  *parts_fired comes
 * back false when they have yet to fire it. */
static ptx_status window_ordered(tm_gpu *g, launch *ln, tm_sm **serial, uint32_t n, bool *parts_fired,
                                 bool *ended)
{
    const uint64_t start = g->now, end = g->win_end, cyc = g->core_ps;
    bool tail = false;          /* the last CTA retired: the partitions fire here */
    bool fired = *parts_fired;  /* ... unless they fired the whole window already */
    uint64_t fired_at[TM_WINDOW_WORDS] = { 0 };    /* ... at these cycles of it */
    for (uint32_t k = 0; fired && k < g->nlanes; k++)
        for (uint32_t w = 0; w < TM_WINDOW_WORDS; w++)
            fired_at[w] |= g->lanes[k].fired_at[w];
    uint64_t v = TM_NEVER;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = serial[k]->stop != TM_NEVER ? serial[k]->stop : tm_edge(g, tm_sm_next_time(serial[k]));
        if (at < v)
            v = at;
    }
    if (v < start)
        v = start;
    ptx_status rc;
    while (v < end) {
        charge_until(g, v);
        if (v > start && g->cta_room && ln->next_cta < ln->total && (rc = place_ctas(g, ln)) != PTX_OK)
            return rc;
        if (tail && !fired)
            fire_parts(g, v + 1);
        uint32_t tag = (uint32_t)((v - start) / cyc);
        tm_logs_apply(g, tag);          /* what every SM stored before this cycle */
        bool busy = false;
        for (uint32_t k = 0; k < n; k++) {
            tm_sm *sm = serial[k];
            if (sm->stop != TM_NEVER && sm->stop >= v)
                continue;               /* its parallel part ran this cycle, or is ahead */
            if (sm->unready && !tm_sm_begin_ctas(g, sm))
                return sm_failed(g, sm);
            sm->now = v;
            sm->log.tag = tag;
            tm_sm_take_replies(g, sm);
            if (!tm_sm_has_work(sm))
                continue;
            busy = true;
            if (sm->wake <= v) {
                tm_sm_cycle(g, sm);
                g->st->warp_insts += tm_take_insts(g, sm);
                g->chunks[sm->chunk].logged |= tm_sm_logged(sm);
            }
            if (sm->cta_look && !sm->parked && !sm->fault)
                tm_sm_sync_ctas(g, sm);
            if (sm->fault || sm->parked || (sm->cta_look && tm_sm_retiring(sm)))
                sm->stop = v;
        }
        for (uint32_t k = 0; k < n; k++) {
            tm_sm *sm = serial[k];
            if (sm->stop != v)
                continue;
            busy = true;
            if (sm->fault)
                return sm_failed(g, sm);
            tm_log_apply_own(sm);       /* the instruction it stopped at sees its stores */
            if (sm->parked) {
                sm->ordered = true;
                tm_sm_resume(g, sm);
                sm->ordered = false;
                g->st->warp_insts += tm_take_insts(g, sm);
                g->chunks[sm->chunk].logged |= tm_sm_logged(sm);
            }
            if (sm->fault)
                return sm_failed(g, sm);
            if (g->fault)
                return model_failed(g);
            if ((rc = look_at_ctas(g, sm, ln)) != PTX_OK)
                return rc;
        }
        if (g->fault)
            return model_failed(g);
        if (tail && !busy) {
            ln->busy = false;
            *ended = true;
            return PTX_OK;
        }
        if (!tail && ln->done == ln->total) {
            tail = true;
            if (!fired)
                fire_parts(g, v + 1);
        }
        /* The next cycle anything happens. */
        uint64_t next = TM_NEVER;
        for (uint32_t k = 0; k < n; k++) {
            tm_sm *sm = serial[k];
            uint64_t at = sm->stop != TM_NEVER && sm->stop > v ? sm->stop : tm_edge(g, tm_sm_next_time(sm));
            if (at < next)
                next = at;
        }
        if (g->cta_room && ln->next_cta < ln->total)
            next = v + cyc;
        if (tail && !fired) {
            uint64_t p = tm_edge(g, lanes_next(g, v));
            if (p < next)
                next = p;
        } else if (tail) {
            uint64_t later = next_bit(fired_at, (v - start) / cyc + 1);
            if (later != UINT64_MAX && start + later * cyc < next)
                next = start + later * cyc;
        }
        v = next > v ? next : v + cyc;
    }
    if (tail && !fired)
        fire_parts(g, end);
    *parts_fired = fired || tail;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = tm_sm_next_time(serial[k]);
        if (at < ln->sm_next)
            ln->sm_next = at;
    }
    return PTX_OK;
}

/* A window's plan, from one look at what is on its way to the SMs and at
 * the SMs.  Its pieces: the chunks with an SM that has work, a reply in
 * its inbox or one on its way there (g->chunk_marks; tm_window_chunks).
 * And whether the launch cannot end within it (the result): a CTA cannot
 * retire in it, as it waits on the fill of an L1 MSHR that no reply due in
 * the window brings -- each reply frees one at most, and those due are in
 * its SM's inbox or on their way there, sent last window; one sent from
 * now on arrives after the window.  (due: a count per SM, left zero.) */
static bool window_plan(tm_gpu *g, uint32_t *due)
{
    bool *marks = g->chunk_marks;
    for (uint32_t s = 0; s < g->nlanes; s++)
        for (uint32_t r = 0; r < g->nlanes; r++) {
            const tm_outbox *o = &g->lanes[s].replies[g->parity ^ 1][r];
            for (uint32_t e = 0; e < o->n; e++) {
                due[o->v[e].where] += o->v[e].time < g->win_end;
                marks[g->sms[o->v[e].where].chunk] = true;
            }
        }
    bool witness = false;
    for (uint32_t i = 0; i < g->c.n_sm; i++) {
        const tm_sm *sm = &g->sms[i];
        if (tm_sm_has_work(sm) || sm->inbox.n)
            marks[sm->chunk] = true;
        if (!witness && sm->nctas && sm->l1.mshr_used) {
            for (uint32_t k = 0; k < sm->inbox.n; k++)
                due[i] += sm->inbox.v[k].time < g->win_end;
            witness = sm->l1.mshr_used > due[i];
        }
        due[i] = 0;
    }
    tm_window_chunks(g);
    return witness;
}

/* A window [g->now, g->win_end): what was sent arrives and the SMs with
 * CTAs run their cycles side by side (step.c); the ordered part; the
 * partitions' cycles side by side.  *ended when the launch ended within
 * it (at g->now). */
static ptx_status step_window(tm_gpu *g, launch *ln, bool *ended)
{
    g->parity ^= 1;
    g->late_min = TM_NEVER;
    g->step_insts = g->st->warp_insts;
    ln->busy = true;
    ln->sm_next = TM_NEVER;
    /* Where the launch cannot end in this window (a CTA waits on memory
     * beyond it) the partitions fire its cycles side by side with the SMs;
     * else after them, or, if the launch ends in it, in its ordered part.
     * (That CTAs wait to be placed is no bound: those of bfs's launches
     * outside the frontier are placed and done within a window.) */
    bool parts_fired = window_plan(g, ln->due);
    tm_step_lanes(g, STEP_RECEIVE | STEP_SMS | (parts_fired ? STEP_PARTS : 0));
    /* The SMs of the ordered part, in id order: the active chunks' lists
     * of those that stopped and those without CTAs with something to do
     * before the end. */
    tm_sm **serial = ln->busy_sms;
    uint32_t n = 0;
    for (uint32_t a = 0; a < g->nactive; a++) {
        const tm_chunk *ch = &g->chunks[g->active[a]];
        for (uint32_t k = 0; k < ch->nordered; k++)
            serial[n++] = ch->ordered[k];
        if (ch->sm_next < ln->sm_next)
            ln->sm_next = ch->sm_next;
        g->st->warp_insts += ch->insts;
    }
    ptx_status rc = window_ordered(g, ln, serial, n, &parts_fired, ended);
    if (!tm_logs_flush(g) && rc == PTX_OK) {
        g->fault = PTX_E_NOMEM;
        rc = model_failed(g);
    }
    if (rc == PTX_OK && !*ended && !parts_fired)
        tm_step_lanes(g, STEP_PARTS);
    if (rc == PTX_OK && g->fault)
        rc = model_failed(g);
    return rc;
}

/* After a window: the next step at its end or after (at its end if a CTA
 * waits for the room one left). */
static ptx_status advance_window(tm_gpu *g, launch *ln, bool *ended)
{
    uint64_t next = tm_next_event(g);
    if (ln->sm_next < next)
        next = ln->sm_next;
    if (g->cta_room && ln->next_cta < ln->total)
        next = g->win_end;
    if (next < g->win_end)
        next = g->win_end;
    return move_to(g, ln, tm_edge(g, next), ended);
}

/* Whether no SM has anything left to do. */
static bool sms_idle(const tm_gpu *g)
{
    for (uint32_t i = 0; i < g->c.n_sm; i++)
        if (tm_sm_has_work(&g->sms[i]))
            return false;
    return true;
}

/* The SMs had work at this step and have none after it: on one thread the
 * launch would end at the next step, whichever queue's it is (pipe.c).
 * The SMs' part of that step fires the replies due. */
static void last_step_piped(tm_gpu *g)
{
    uint64_t e = tm_pipe_sm_last(g);
    if (e == TM_NEVER)
        return;
    charge_until(g, e);
    tm_pipe_sm_receive(g);
    g->lanes[0].now = e;
    tm_lane_fire_due(g, &g->lanes[0]);
}

/* The pipelined launch over (its last step told the partitions, or not:
 * it failed, or ended at a step where the SMs were idle already): the
 * partitions fire up to its end, their helper is waited for, and what is
 * on its way is queued. */
static void stop_piped(tm_gpu *g, bool told_last)
{
    if (!told_last)
        tm_pipe_sm_end(g);
    tm_pipe_drain(g);
    tm_pipe_join(g);
    tm_pipe_finish(g);
}

/* The launch's last statistics, and whatever is still resident after a
 * failure taken down. */
static void teardown(tm_gpu *g, launch *ln)
{
    const tm_config *c = &g->c;
    tm_stats *st = g->st;
    tm_gather_all(g);
    tm_events_end(g);
    st->cycles = (g->now - ln->start) / g->core_ps;
    if (g->xst)
        g->xst->ctas = ln->done;
    if (c->sample_cycles)
        take_sample(g, st);
    st->samples = g->samples;
    st->nsamples = g->nsamples;
    st->spans = g->spans;
    st->nspans = g->nspans;
    TM_EACH(g, finish, mech)
        (*mech)->finish(g);
    for (uint32_t i = 0; i < c->n_sm; i++)     /* (their spare CTAs stay for the next launch: begin) */
        while (g->sms[i].nctas)
            retire_cta(g, &g->sms[i], 0, &ln->need);
    exec_grid_end(g->grid);
    g->grid = NULL;
    free(ln->resident);
    free(ln->busy_sms);
    free(ln->due);
}

ptx_status tm_run(tm_gpu *g, exec_program *p, int kernel, const exec_launch *l, tm_stats *st,
                  exec_stats *xst, exec_error *err)
{
    launch ln = { 0 };
    ptx_status rc = begin(g, p, kernel, l, st, xst, err, &ln);
    if (rc != PTX_OK) {
        free(ln.busy_sms);
        free(ln.due);
        return rc;
    }
    reset(g, p, &ln);
    memset(&g->host_time, 0, sizeof g->host_time);
    uint64_t t0 = g->host_timed ? tm_host_ns() : 0;
    bool ended = false, told_last = false;
    if (g->piped)
        tm_pipe_start(g);
    bool windows = false;
    while (!ended) {
        if ((rc = place_ctas(g, &ln)) != PTX_OK)
            break;
        if (g->win_cycles && ln.done < ln.total) {
            windows = true;
            g->win_start = g->now;
            g->win_end = g->now + g->win_cycles * g->core_ps;
            bool over = false;
            if ((rc = step_window(g, &ln, &over)) != PTX_OK || over)
                break;
            if ((rc = watch_progress(g, &ln)) != PTX_OK || (rc = watch_loops(g, &ln)) != PTX_OK ||
                (rc = advance_window(g, &ln, &ended)) != PTX_OK)
                break;
            report_progress(g, &ln, l);
            continue;
        }
        if (windows) {          /* back to steps for the launch's tail */
            windows = false;
            tm_events_rewake(g);        /* (every CTA is done: none is left to begin) */
        }
        if ((rc = (g->piped ? step_piped : step)(g, &ln)) != PTX_OK)
            break;
        if (ln.done == ln.total && !ln.busy)
            break;
        if (g->piped && ln.done == ln.total && sms_idle(g)) {
            told_last = true;
            last_step_piped(g);
            break;
        }
        if ((rc = watch_progress(g, &ln)) != PTX_OK || (rc = watch_loops(g, &ln)) != PTX_OK ||
            (rc = (g->piped ? advance_piped : advance)(g, &ln, &ended)) != PTX_OK)
            break;
        report_progress(g, &ln, l);
    }
    if (g->piped)
        stop_piped(g, told_last);
    teardown(g, &ln);
    if (g->host_timed)
        g->host_time.launch_ns = tm_host_ns() - t0;
    return rc;
}

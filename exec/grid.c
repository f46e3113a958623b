/*
 * grid.c -- a launch: its shared context, and the functional scheduler.
 *
 * The functional scheduler is simple and deterministic.  Ordinary launches
 * run their CTAs one after another in launch order (x fastest); inside a
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
    g->local_stride = (k->info.local_bytes + 15) & ~15u;
    g->budget = l->max_warp_insts ? l->max_warp_insts : EXEC_DEFAULT_MAX_WARP_INSTS;
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
    /* One parameter buffer per kernel: launches run one at a time. */
    if (k->info.param_bytes)
        memcpy((void *)(uintptr_t)k->param_addr, l->args, k->info.param_bytes);
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

/* Give every running warp of c one slice.  Returns a failure, or PTX_OK;
 * *progress is set when some warp ran, *spun when some warp's turn ended in
 * a failed mbarrier wait. */
static ptx_status run_cta_slice(exec_grid *g, exec_cta *c, exec_stats *stats, exec_error *err,
                                bool *progress, bool *spun)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (w->state != EXEC_WARP_RUNNING)
            continue;
        *progress = true;
        if (g->budget == 0) {
            exec_cta_report(c, w, PTX_E_HANG, err);
            return PTX_E_HANG;
        }
        uint64_t slice = g->budget < EXEC_SLICE ? g->budget : EXEC_SLICE, left = slice;
        ptx_status st = exec_warp_run(w, &left, stats);
        g->budget -= slice - left;
        *spun = *spun || w->yielded;
        if (st != PTX_OK) {
            exec_cta_report(c, w, st, err);
            return st;
        }
    }
    return PTX_OK;
}

/* Run CTAs until all are done; the ones in ctas[] are resident. */
static ptx_status run_resident(exec_grid *g, exec_cta **ctas, uint64_t n, exec_stats *stats,
                               exec_error *err)
{
    for (;;) {
        bool progress = false, spun = false, all_done = true;
        uint64_t before = stats->warp_insts;
        for (uint64_t i = 0; i < n; i++) {
            ptx_status st = run_cta_slice(g, ctas[i], stats, err, &progress, &spun);
            if (st != PTX_OK)
                return st;
        }
        exec_warp *looping = exec_hang_watch_round(g, ctas, n, stats->warp_insts - before);
        if (looping) {
            exec_cta_report(looping->cta, looping, PTX_E_HANG, err);
            return PTX_E_HANG;
        }
        for (uint64_t i = 0; i < n; i++) {
            exec_cta *c = ctas[i];
            if (exec_cta_done(c))
                continue;
            all_done = false;
            /* Also when warps spin on mbarriers: a barrier with a thread
             * count (bar.sync 1, 64) may complete while warps outside it
             * spin, and the spin check needs a look too. */
            if ((!progress || spun) && !exec_cta_sync(c, err))
                return PTX_E_DEADLOCK;
        }
        if (all_done)
            return PTX_OK;
    }
}

ptx_status exec_launch_run(exec_program *p, int kernel, const exec_launch *l, exec_stats *stats,
                           exec_error *err)
{
    exec_grid *g;
    ptx_status st = exec_grid_begin(p, kernel, l, &g, err);
    if (st != PTX_OK)
        return st;
    uint32_t nsm = l->nsm ? l->nsm : 1;
    if (l->cooperative) {
        exec_cta **all = calloc(g->nctas, sizeof *all);
        if (!all) {
            exec_grid_end(g);
            return PTX_E_NOMEM;
        }
        for (uint64_t i = 0; i < g->nctas && st == PTX_OK; i++)
            st = exec_cta_begin(g, i, (uint32_t)(i % nsm), &all[i]);
        if (st == PTX_OK)
            st = run_resident(g, all, g->nctas, stats, err);
        for (uint64_t i = 0; i < g->nctas; i++)
            exec_cta_end(all[i]);
        stats->ctas += st == PTX_OK ? g->nctas : 0;
        free(all);
    } else {
        /* A cluster at a time, its CTAs on consecutive SMs. */
        uint32_t n = g->csize;
        exec_cta *c[ISA_CLUSTER_MAX];
        for (uint64_t i = 0; i < g->nctas && st == PTX_OK; i += n) {
            uint32_t begun = 0;
            for (; begun < n && st == PTX_OK; begun++)
                st = exec_cta_begin(g, exec_grid_cluster_cta(g, i / n, begun), (uint32_t)((i + begun) % nsm),
                                    &c[begun]);
            if (st == PTX_OK)
                st = run_resident(g, c, n, stats, err);
            else
                begun--;
            for (uint32_t r = 0; r < begun; r++)
                exec_cta_end(c[r]);
            stats->ctas += st == PTX_OK ? n : 0;
            if (l->progress && st == PTX_OK)
                l->progress(l->progress_ctx, &(exec_progress){ .warp_insts = stats->warp_insts,
                                                              .ctas_done = i + n, .ctas_total = g->nctas });
        }
    }
    stats->races += g->races;
    exec_grid_end(g);
    return st;
}

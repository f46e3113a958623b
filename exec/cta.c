/*
 * cta.c -- one CTA of a launch: creating it (or reusing a finished one),
 * its barriers, and the reports of what went wrong in it.
 *
 * A barrier completes when every live thread of the CTA (or the count the
 * instruction names) has arrived; exited threads are not waited for, as on
 * the hardware.  When no warp can run and no barrier can complete, the CTA
 * is deadlocked and the report names who waits where.
 */
#include "exec_int.h"
#include "warp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void describe_mbarrier(const exec_cta *c, uint64_t addr, char *buf, size_t n);

/* ---- clusters ---------------------------------------------------------- */

static exec_cluster **cluster_bucket(exec_grid *g, uint64_t id)
{
    return &g->clusters[id % (sizeof g->clusters / sizeof g->clusters[0])];
}

/* The resident cluster number `id`, made if it has no CTA yet.  Workers
 * on other host threads place other clusters meanwhile: the table is
 * theirs too (a cluster itself belongs to the one worker that runs it). */
static exec_cluster *cluster_join(exec_grid *g, uint64_t id)
{
    pthread_mutex_lock(&g->cluster_lock);
    exec_cluster **b = cluster_bucket(g, id), *cl;
    for (cl = *b; cl; cl = cl->next)
        if (cl->id == id)
            break;
    if (!cl && (cl = calloc(1, sizeof *cl))) {
        cl->id = id;
        cl->next = *b;
        *b = cl;
    }
    pthread_mutex_unlock(&g->cluster_lock);
    return cl;
}

static void cluster_leave(exec_grid *g, exec_cluster *cl)
{
    pthread_mutex_lock(&g->cluster_lock);
    for (exec_cluster **p = cluster_bucket(g, cl->id); *p; p = &(*p)->next)
        if (*p == cl) {
            *p = cl->next;
            break;
        }
    pthread_mutex_unlock(&g->cluster_lock);
    free(cl);
}

void exec_grid_clusters_free(exec_grid *g)
{
    for (size_t i = 0; i < sizeof g->clusters / sizeof g->clusters[0]; i++)
        while (g->clusters[i]) {
            exec_cluster *cl = g->clusters[i];
            g->clusters[i] = cl->next;
            free(cl);
        }
}

/* barrier.cluster is a phase barrier over every thread of the cluster: a
 * phase completes once every live thread has arrived (threads that exit
 * arrive no more and are not waited for, as with bar.sync), and a wait
 * lets a thread go once the phase it arrived in has completed.  Until all
 * CTAs of the cluster have begun, none can complete. */
bool exec_cluster_release(exec_cluster *cl)
{
    exec_grid *g = NULL;
    bool complete = true, any = false;
    for (uint32_t r = 0; r < ISA_CLUSTER_MAX; r++) {
        exec_cta *c = cl->ctas[r];
        if (!c)
            continue;
        g = c->grid;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const exec_warp *w = &c->warps[i];
            uint32_t live = w->valid & ~w->exited;
            complete = complete && !(live & ~w->cl_arrived);
            any = any || w->cl_arrived;
        }
    }
    if (!g || !any || (g->csize > 1 && cl->begun < g->csize))
        complete = false;
    bool released = false;
    for (uint32_t r = 0; r < ISA_CLUSTER_MAX; r++) {
        exec_cta *c = cl->ctas[r];
        if (!c)
            continue;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            exec_warp *w = &c->warps[i];
            if (complete) {
                w->cl_done |= w->cl_arrived;
                w->cl_arrived = 0;
            }
            if (w->state == EXEC_WARP_BARRIER && w->bar_id == EXEC_BAR_CLUSTER &&
                !(w->cl_waiting & ~w->cl_done)) {
                w->cl_done &= ~w->cl_waiting;
                w->cl_waiting = 0;
                w->state = EXEC_WARP_RUNNING;
                released = true;
            }
        }
        if (complete && c->race)
            exec_race_epoch(c->race);
    }
    cl->phases += complete;
    return released;
}

uint32_t exec_cta_cluster_rank(const exec_cta *c, uint32_t *out_size)
{
    if (out_size)
        *out_size = c->grid->csize;
    return c->rank;
}

static void cta_free(exec_cta *c)
{
    if (c->warps)
        for (uint32_t i = 0; i < c->nwarps; i++)
            exec_warp_release(&c->warps[i]);
    free(c->warps);
    free(c->shared);
    free(c->local);
    exec_race_free(c->race);
    free(c);
}

void exec_cta_spares_free(exec_cta **spare)
{
    while (*spare) {
        exec_cta *c = *spare;
        *spare = c->next_spare;
        cta_free(c);
    }
}

void exec_grid_spares_free(exec_grid *g) { exec_cta_spares_free(&g->spare); }

void exec_cta_spares_adopt(exec_grid *g, exec_cta **spare)
{
    size_t local = (size_t)g->nwarps * ISA_WARP_SIZE * g->local_stride;
    for (exec_cta **at = spare; *at;) {
        exec_cta *c = *at;
        if (c->nwarps == g->nwarps && c->shared_room > g->shared_bytes && c->local_room >= local && !c->race &&
            !g->l.check_race) {
            c->grid = g;
            at = &c->next_spare;
        } else {
            *at = c->next_spare;
            cta_free(c);
        }
    }
}

ptx_status exec_cta_begin(exec_grid *g, uint64_t linear, uint32_t smid, exec_cta **out)
{
    return exec_cta_begin_from(g, &g->spare, linear, smid, out);
}

ptx_status exec_cta_begin_from(exec_grid *g, exec_cta **spare, uint64_t linear, uint32_t smid, exec_cta **out)
{
    *out = NULL;
    if (linear >= g->nctas)
        return PTX_E_INVALID_VALUE;
    exec_cta *c = *spare;
    if (c) {
        *spare = c->next_spare;
    } else {
        c = calloc(1, sizeof *c);
        if (!c)
            return PTX_E_NOMEM;
        c->grid = g;
        c->nwarps = g->nwarps;
        c->warps = calloc(g->nwarps, sizeof *c->warps);
        c->shared = calloc(1, c->shared_room = (size_t)g->shared_bytes + 1);
        size_t local = c->local_room = (size_t)g->nwarps * ISA_WARP_SIZE * g->local_stride;
        c->local = local ? malloc(local) : NULL;
        if (g->l.check_race)
            c->race = exec_race_new(g->shared_bytes, g->nwarps);
        if (!c->warps || !c->shared || (local && !c->local) || (g->l.check_race && !c->race)) {
            cta_free(c);
            return PTX_E_NOMEM;
        }
    }
    const exec_launch *l = &g->l;
    c->prog = g->prog;
    c->k = g->k;
    c->nthreads = g->nthreads;
    memcpy(c->ntid, l->block, sizeof c->ntid);
    memcpy(c->nctaid, l->grid, sizeof c->nctaid);
    c->ctaid[0] = (uint32_t)(linear % l->grid[0]);
    c->ctaid[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    c->linear = linear;
    c->acquired = 0;
    c->hang = &g->hang;
    c->writes = 0;
    c->seen_writes = 0;
    uint64_t cluster = 0, stride = 1;
    for (int d = 0; d < 3; d++) {
        c->clusterid[d] = c->ctaid[d] / g->cdim[d];
        c->cluster_ctaid[d] = c->ctaid[d] % g->cdim[d];
        cluster += c->clusterid[d] * stride;
        stride *= l->grid[d] / g->cdim[d];
    }
    c->rank = c->cluster_ctaid[0] + g->cdim[0] * (c->cluster_ctaid[1] + g->cdim[1] * c->cluster_ctaid[2]);
    exec_cluster *cl = g->csize == 1 ? &c->solo : cluster_join(g, cluster);
    if (!cl) {
        cta_free(c);
        return PTX_E_NOMEM;
    }
    if (cl == &c->solo)
        memset(cl, 0, sizeof *cl);
    cl->ctas[c->rank] = c;
    cl->shared[c->rank] = c->shared;
    cl->begun++;
    cl->live++;
    c->cluster = cl;
    c->smid = smid;
    c->nsmid = l->nsm ? l->nsm : 1;
    c->dynamic_shared = l->dynamic_shared;
    c->mem_shared_bytes = g->shared_bytes;
    c->local_stride = g->local_stride;
    c->host = l->host;
    c->host_ctx = l->host_ctx;
    c->out = l->out;       /* a unit of a threaded launch buffers its own (grid.c) */
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_expected, 0, sizeof c->bar_expected);
    memset(c->bar_red_arrived, 0, sizeof c->bar_red_arrived);
    memset(c->bar_red_true, 0, sizeof c->bar_red_true);
    c->clock = 0;
    if (c->race)
        exec_race_epoch(c->race);
    /* Shared and local memory start zeroed, so runs are deterministic (a
     * GPU leaves them undefined). */
    memset(c->shared, 0, g->shared_bytes);
    memset(c->reserved, 0, sizeof c->reserved);
    if (c->local)
        memset(c->local, 0, (size_t)g->nwarps * ISA_WARP_SIZE * g->local_stride);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ptx_status st = exec_warp_init(&c->warps[i], c, i, i * ISA_WARP_SIZE);
        if (st != PTX_OK) {
            cta_free(c);
            return st;
        }
    }
    *out = c;
    return PTX_OK;
}

void exec_cta_end(exec_cta *c)
{
    if (c)
        exec_cta_end_to(c, &c->grid->spare);
}

void exec_cta_end_to(exec_cta *c, exec_cta **spare)
{
    if (!c)
        return;
    exec_grid *g = c->grid;
    exec_cluster *cl = c->cluster;
    cl->ctas[c->rank] = NULL;
    cl->shared[c->rank] = NULL;   /* its shared memory is gone for the others */
    cl->live--;
    c->cluster = NULL;
    if (cl != &c->solo) {
        if (cl->live == 0 && cl->begun == g->csize)
            cluster_leave(g, cl);
        else
            exec_cluster_release(cl);   /* its threads no longer hold the others up */
    }
    c->next_spare = *spare;
    *spare = c;
}

uint32_t exec_cta_nwarps(const exec_cta *c) { return c->nwarps; }
void exec_cta_set_clock(exec_cta *c, uint64_t cycle) { c->clock = cycle; }

void exec_cta_log_stores(exec_cta *c, isa_store_log *log)
{
    for (uint32_t i = 0; i < c->nwarps; i++)
        c->warps[i].mem.log = log;
}
exec_warp *exec_cta_warp(exec_cta *c, uint32_t i) { return i < c->nwarps ? &c->warps[i] : NULL; }

bool exec_cta_done(const exec_cta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state != EXEC_WARP_DONE)
            return false;
    return true;
}

static uint32_t live_threads(const exec_cta *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        n += (uint32_t)__builtin_popcount(c->warps[i].valid & ~c->warps[i].exited);
    return n;
}

/* bar.red's result for the lanes of w that wait for it at barrier b:
 * .popc the number of arrived threads whose predicate was true, .and
 * whether all were, .or whether any was (PTX ISA bar.red), in the
 * destination of the bar.red the warp executed. */
static void reduction_result(exec_cta *c, exec_warp *w, uint32_t b)
{
    const isa_inst *in = &c->prog->code[w->red_pc];
    const isa_opd *d = &in->opd[0];
    uint32_t t = c->bar_red_true[b], n = c->bar_red_arrived[b], lanes = w->red_lanes;
    w->red_lanes = 0;
    if (in->aop == ISA_AOP_POPC) {
        if (d->kind != ISA_OPD_REG)
            return;
        for (uint32_t rest = lanes; rest; rest &= rest - 1)
            w->v.r[(size_t)d->reg * ISA_WARP_SIZE + (unsigned)__builtin_ctz(rest)] = t;
        return;
    }
    bool r = in->aop == ISA_AOP_AND ? t == n : t != 0;
    if (d->kind == ISA_OPD_PRED)
        w->v.p[d->reg] = (w->v.p[d->reg] & ~lanes) | (r ? lanes : 0);
}

/* The threads barrier b counts as arrived: with a thread count, a warp's
 * (warp-size threads) once each of its lanes that exists and has not
 * exited has arrived -- the ISA's barrier "marks the warp's arrival" --
 * so exited lanes and the missing lanes of a block's last warp count
 * too; without one, the threads that arrived, against the live ones. */
static uint32_t barrier_arrived(const exec_cta *c, uint32_t b)
{
    if (!c->bar_expected[b])
        return c->bar_arrived[b];
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const exec_warp *w = &c->warps[i];
        if (w->bar_lanes[b] && (w->bar_lanes[b] | w->exited | ~w->valid) == ~0u)
            n += ISA_WARP_SIZE;
    }
    return n;
}

/* Release every barrier whose expected threads have arrived; false if
 * none could be released. */
bool exec_cta_release_barriers(exec_cta *c)
{
    bool any = c->cluster && exec_cluster_release(c->cluster);
    uint32_t live = live_threads(c);
    for (uint32_t b = 0; b < 16; b++) {
        uint32_t waiting = 0;
        for (uint32_t i = 0; i < c->nwarps; i++)
            waiting += c->warps[i].state == EXEC_WARP_BARRIER && c->warps[i].bar_id == b;
        if (!waiting)
            continue;
        uint32_t expected = c->bar_expected[b] ? c->bar_expected[b] : live;
        if (barrier_arrived(c, b) < expected)
            continue;
        for (uint32_t i = 0; i < c->nwarps; i++)
            c->warps[i].bar_lanes[b] = 0;
        for (uint32_t i = 0; i < c->nwarps; i++)
            if (c->warps[i].state == EXEC_WARP_BARRIER && c->warps[i].bar_id == b) {
                if (c->warps[i].red_lanes)
                    reduction_result(c, &c->warps[i], b);
                c->warps[i].state = EXEC_WARP_RUNNING;
                c->warps[i].bar_parked = 0;
            }
        c->bar_arrived[b] = 0;
        c->bar_expected[b] = 0;
        c->bar_red_arrived[b] = c->bar_red_true[b] = 0;
        if (c->race)
            exec_race_epoch(c->race);
        any = true;
    }
    return any;
}

static const char *space_name(uint8_t s)
{
    return s < ISA_SPACE_COUNT && isa_space_names[s][0] ? isa_space_names[s] : "generic";
}

/* pc's source position, or NULL where the PTX has none. */
static const isa_srcpos *src_of(const exec_program *p, uint32_t pc)
{
    if (pc >= p->ncode)
        return NULL;
    uint32_t fi = p->func_of[pc];
    const isa_func *f = &p->m->funcs[fi];
    uint32_t local_pc = pc - p->funcs[fi].start;
    return f->src && local_pc < f->ncode && f->src[local_pc].line ? &f->src[local_pc] : NULL;
}

void exec_program_where(const exec_program *p, uint32_t pc, uint32_t *out_ptx_line,
                        const char **out_file, uint32_t *out_line)
{
    const isa_srcpos *src = src_of(p, pc);
    *out_ptx_line = pc < p->ncode ? p->code[pc].line : 0;
    *out_file = src ? p->m->files[src->file] : NULL;
    *out_line = src ? src->line : 0;
}

void exec_program_where_text(const exec_program *p, uint32_t pc, char *buf, size_t n)
{
    uint32_t ptx_line, line;
    const char *file;
    exec_program_where(p, pc, &ptx_line, &file, &line);
    const isa_srcpos *src = src_of(p, pc);
    if (file && src->at_file)
        snprintf(buf, n, "PTX line %u (%s:%u, inlined at %s:%u)", ptx_line, file, line,
                 p->m->files[src->at_file], src->at_line);
    else if (file)
        snprintf(buf, n, "PTX line %u (%s:%u)", ptx_line, file, line);
    else
        snprintf(buf, n, "PTX line %u", ptx_line);
}

/* A warp that runs out of budget while divergent: some lanes loop while
 * the rest wait to reconverge.  If the loopers wait for the waiters (a
 * spin lock held by a lane of the same warp), that is the livelock of
 * lockstep SIMT, which GPUs before Volta share: say so when lanes run so
 * (exec_launch.lockstep; otherwise the loop watch lets the waiters run). */
static void describe_spin(const exec_warp *w, char *buf, size_t n)
{
    buf[0] = 0;
    if (w->sp < 2)
        return;
    const exec_simt *top = &w->stack[w->sp - 1];
    uint32_t waiting = w->valid & ~w->exited & ~top->mask;
    if (!waiting || top->rpc >= w->cta->prog->ncode)
        return;
    char at[200];
    exec_program_where_text(w->cta->prog, top->rpc, at, sizeof at);
    snprintf(buf, n,
             "; the warp is divergent: lanes 0x%08x loop while lanes 0x%08x wait to reconverge at %s%s",
             top->mask, waiting, at,
             w->cta->grid->l.lockstep ? " -- a livelock if the looping lanes wait for the others (a lock "
                                        "held within the warp): lanes run in lockstep here (--lockstep, or "
                                        "--sm below 70), as on GPUs before Volta"
                                      : "");
}

/* The shared variable at off among those `used` marks (NULL: all). */
static bool shared_var_in(const exec_program *p, const bool *used, uint64_t off, const char **out_name,
                          uint64_t *out_offset)
{
    const isa_module *m = p->m;
    const isa_var *dynamic = NULL;
    for (uint32_t v = 0; v < m->nvars; v++) {
        const isa_var *var = &m->vars[v];
        if (var->space != ISA_SPACE_SHARED || (used && !used[v]))
            continue;
        if (!var->size) {
            dynamic = dynamic ? dynamic : var;
        } else if (off >= p->var_addr[v] && off < p->var_addr[v] + var->size) {
            *out_name = var->name;
            *out_offset = off - p->var_addr[v];
            return true;
        }
    }
    /* Every extern array starts where the static ones end (program.c). */
    uint64_t base = p->dynamic_base;
    if (dynamic && off >= base) {
        *out_name = dynamic->name;
        *out_offset = off - base;
        return true;
    }
    return false;
}

bool exec_program_shared_var(const exec_program *p, uint64_t off, const char **out_name, uint64_t *out_offset)
{
    return shared_var_in(p, NULL, off, out_name, out_offset);
}

bool exec_kernel_shared_var(const exec_program *p, const exec_kernel *k, uint64_t off, const char **out_name,
                            uint64_t *out_offset)
{
    return (k && k->vars_used && shared_var_in(p, k->vars_used, off, out_name, out_offset)) ||
           shared_var_in(p, NULL, off, out_name, out_offset);
}

/* Where a faulting shared access went: past the block's shared memory,
 * or (memory checking) between the kernel's variables or into another
 * kernel's. */
static void describe_shared(const exec_cta *c, const exec_warp *w, uint64_t addr, char *buf, size_t n)
{
    const isa_mem *m = &w->mem;
    const exec_program *p = c->prog;
    const char *name;
    uint64_t in_var;
    if (addr >= ISA_CLUSTER_SLOT && addr < ISA_WINDOW_BYTES) {
        /* Distributed shared memory: another CTA's slot (mapa). */
        uint64_t rank = addr / ISA_CLUSTER_SLOT - 1, off = addr % ISA_CLUSTER_SLOT;
        uint32_t size = c->grid->csize;
        const uint32_t *cd = c->grid->cdim;
        if (rank >= ISA_CLUSTER_MAX)
            snprintf(buf, n, "; that is in the shared memory of a block rank of the cluster past %u (mapa with "
                     "such a rank), and the cluster has %u blocks, ranks 0 to %u", ISA_CLUSTER_MAX - 1, size,
                     size - 1);
        else if (rank >= size)
            snprintf(buf, n, "; that is offset 0x%llx in the shared memory of block rank %llu of the cluster, "
                     "which has only %u blocks (%u,%u,%u), ranks 0 to %u", (unsigned long long)off,
                     (unsigned long long)rank, size, cd[0], cd[1], cd[2], size - 1);
        else if (!c->cluster->ctas[rank])
            snprintf(buf, n, "; that is offset 0x%llx in the shared memory of block rank %llu of the cluster, "
                     "which has already exited (a block must not exit while others of its cluster still "
                     "use its shared memory: cluster.sync() before exiting)", (unsigned long long)off,
                     (unsigned long long)rank);
        else
            snprintf(buf, n, "; that is offset 0x%llx in the shared memory of block rank %llu of the cluster, "
                     "which has %u bytes", (unsigned long long)off, (unsigned long long)rank, c->mem_shared_bytes);
        return;
    }
    if (addr >= c->mem_shared_bytes || !m->shared_map || addr >= m->shared_map_bytes) {
        snprintf(buf, n, "; the block has %u bytes of shared memory", c->mem_shared_bytes);
        return;
    }
    if (m->shared_map[addr] == 0 && exec_program_shared_var(p, addr, &name, &in_var)) {
        snprintf(buf, n, "; it lies in '%s', a .shared variable this kernel does not use", name);
        return;
    }
    /* The end of the variable the access starts in and runs out of, or of
     * the last one before it; how far past that end it starts. */
    uint64_t end = addr;
    if (m->shared_map[addr])
        while (end < m->shared_map_bytes && m->shared_map[end])
            end++;
    else
        while (end > 0 && !m->shared_map[end - 1])
            end--;
    if (end > 0 && exec_kernel_shared_var(p, c->k, end - 1, &name, &in_var))
        snprintf(buf, n, "; it is %llu bytes past the end of '%s' (%llu bytes at shared address 0x%llx)",
                 (unsigned long long)(addr >= end ? addr - end : 0), name, (unsigned long long)(in_var + 1),
                 (unsigned long long)(end - 1 - in_var));
    else
        snprintf(buf, n, "; it lies in no .shared variable of the kernel");
}

/* Whether the allocation at addr is ptxsim's copy of a kernel's parameters. */
static bool is_parameter_copy(const exec_program *p, uint64_t addr)
{
    for (uint32_t k = 0; k < p->nkernels; k++)
        if (p->kernels[k].param_addr == addr && p->kernels[k].info.param_bytes)
            return true;
    return false;
}

/* The allocation at addr is a module variable (.global, .const): add its
 * name to the report, which is what the programmer wrote; or a kernel's
 * parameter buffer, which the program never allocated. */
void exec_name_variable(const exec_program *p, uint64_t addr, char *buf, size_t n)
{
    const isa_module *m = p->m;
    for (uint32_t v = 0; v < m->nvars; v++) {
        const isa_var *var = &m->vars[v];
        if (var->func < 0 && (var->space == ISA_SPACE_GLOBAL || var->space == ISA_SPACE_CONST) &&
            p->var_addr[v] == addr) {
            size_t used = strlen(buf);
            snprintf(buf + used, n - used, " (the %s variable '%s')", isa_space_names[var->space],
                     var->name);
            return;
        }
    }
    for (uint32_t k = 0; k < p->nkernels; k++)
        if (p->kernels[k].param_addr == addr && p->kernels[k].info.param_bytes) {
            size_t used = strlen(buf);
            snprintf(buf + used, n - used, " (ptxsim's copy of the parameters of kernel '%s', not the program's)",
                     p->kernels[k].info.name);
            return;
        }
}

/* An access this low is through a null pointer (a GPU leaves the first
 * pages unmapped); one this far from every allocation is through a pointer
 * that never pointed into device memory, and naming the nearest allocation
 * would mislead. */
#define NULL_PAGE_BYTES (64u << 10)
#define FAR_BYTES (1ull << 20)
#define NEAREST_BYTES (4ull << 30)      /* past this, the nearest is not worth naming */

static bool far_from(uint64_t addr, const exec_alloc_info *a, uint64_t far)
{
    return addr >= a->addr + a->bytes ? addr - (a->addr + a->bytes) >= far
                                      : addr < a->addr && a->addr - addr >= far;
}

/* Fill err for a failure in warp w (cold path: formatting only here). */
void exec_cta_report(exec_cta *c, exec_warp *w, ptx_status st, exec_error *err)
{
    exec_program *p = c->prog;
    uint32_t pc = exec_warp_pc(w);
    const isa_inst *in = pc < p->ncode ? &p->code[pc] : NULL;
    uint32_t lane = w->v.fault.lane < ISA_WARP_SIZE ? w->v.fault.lane : 0;
    if (st == PTX_E_HANG && exec_warp_active(w))
        lane = (uint32_t)__builtin_ctz(exec_warp_active(w));   /* no fault: a running lane */
    memset(err, 0, sizeof *err);
    err->st = st;
    err->kernel = c->k->info.name;
    err->pc = pc;
    exec_program_where(p, pc, &err->ptx_line, &err->src_file, &err->src_line);
    memcpy(err->ctaid, c->ctaid, sizeof err->ctaid);
    for (int d = 0; d < 3; d++)
        err->tid[d] = w->v.tid[d][lane];
    err->addr = w->v.fault.addr;
    err->bytes = w->v.fault.bytes;
    err->space = w->v.fault.space;

    char where[160];
    exec_program_where_text(p, pc, where, sizeof where);
    char who[96];
    snprintf(who, sizeof who, "block (%u,%u,%u) thread (%u,%u,%u)", err->ctaid[0], err->ctaid[1],
             err->ctaid[2], err->tid[0], err->tid[1], err->tid[2]);
    const char *what = in ? isa_ops[in->op].name : "?";
    switch (st) {
    case PTX_E_ILLEGAL_ADDRESS:
    case PTX_E_MISALIGNED: {
        bool store = in && (isa_ops[in->op].flags & ISA_F_STORE);
        if (err->space == ISA_SPACE_TEX) {
            bool surface = in && (isa_ops[in->op].flags & ISA_F_SURFACE);
            snprintf(err->msg, sizeof err->msg,
                     "invalid %s object in kernel '%s' at %s: %s used handle 0x%llx, which is not a "
                     "live %s object (never created, destroyed, or of the other kind)",
                     surface ? "surface" : "texture", err->kernel, where, who,
                     (unsigned long long)err->addr, surface ? "surface" : "texture");
            break;
        }
        char near[400] = "";
        exec_alloc_info a;
        bool global = err->space == ISA_SPACE_GLOBAL || err->space == ISA_SPACE_CONST ||
                      err->space == ISA_SPACE_PARAM;
        if (global && err->addr < NULL_PAGE_BYTES) {
            if (err->addr)
                snprintf(near, sizeof near, "; that is a null pointer plus 0x%llx", (unsigned long long)err->addr);
            else
                snprintf(near, sizeof near, "; that is a null pointer");
        } else if (global && (!exec_memory_find(p->mem, err->addr, &a) || far_from(err->addr, &a, NEAREST_BYTES) ||
                              (far_from(err->addr, &a, FAR_BYTES) && is_parameter_copy(p, a.addr)))) {
            snprintf(near, sizeof near, "; no allocation of the program lies within 1 MiB of it: a host pointer, "
                     "an uninitialised pointer or a wild offset");
        } else if (global) {
            if (far_from(err->addr, &a, FAR_BYTES))
                snprintf(near, sizeof near, "; no device allocation lies within 1 MiB of it (a wild offset?): the nearest");
            size_t used = strlen(near);
            if (err->addr >= a.addr && err->addr < a.addr + a.bytes)
                snprintf(near + used, sizeof near - used, "; it lies inside %s %llu-byte allocation at 0x%llx",
                         a.live ? "the" : "a freed", (unsigned long long)a.bytes, (unsigned long long)a.addr);
            else if (err->addr >= a.addr + a.bytes)
                snprintf(near + used, sizeof near - used, "%s is %llu bytes past the end of the %llu-byte allocation at 0x%llx",
                         used ? "" : "; it", (unsigned long long)(err->addr - (a.addr + a.bytes)),
                         (unsigned long long)a.bytes, (unsigned long long)a.addr);
            else
                snprintf(near + used, sizeof near - used, "%s is %llu bytes before the %llu-byte allocation at 0x%llx",
                         used ? "" : "; it", (unsigned long long)(a.addr - err->addr), (unsigned long long)a.bytes,
                         (unsigned long long)a.addr);
            exec_name_variable(p, a.addr, near, sizeof near);
        } else if (err->space == ISA_SPACE_SHARED) {
            describe_shared(c, w, err->addr, near, sizeof near);
        } else if (err->space == ISA_SPACE_LOCAL) {
            snprintf(near, sizeof near, "; the thread's frames in use end at local address 0x%llx "
                     "(%u bytes of local memory per thread)", (unsigned long long)w->v.frame_end,
                     c->local_stride);
        }
        if (st == PTX_E_MISALIGNED && in && isa_cp_is_tensor(in))
            snprintf(near, sizeof near, "; a tensor copy (cp.async.bulk.tensor) needs its shared memory "
                     "128-byte aligned and its tensor map 64-byte aligned");
        else if (st == PTX_E_MISALIGNED && in && isa_cp_is_bulk(in))
            snprintf(near, sizeof near, "; a bulk copy (cp.async.bulk) needs 16-byte aligned addresses "
                     "and a size that is a multiple of 16");
        /* A matrix instruction's address that no operand names (wgmma's
         * descriptors): the semantic says where it came from. */
        const char *why = in && (isa_ops[in->op].flags & ISA_F_MATRIX) ? w->v.fault.why : NULL;
        snprintf(err->msg, sizeof err->msg,
                 "%s in kernel '%s' at %s: %s %s%s%s %u bytes at %s address 0x%llx%s%s%s",
                 st == PTX_E_MISALIGNED ? "misaligned address" : "illegal memory access", err->kernel,
                 where, who, why ? what : "", why ? " " : "", store ? "wrote" : "read", err->bytes,
                 space_name(err->space), (unsigned long long)err->addr, near, why ? "; " : "", why ? why : "");
        break;
    }
    case PTX_E_MBARRIER: {
        char bar[300];
        describe_mbarrier(c, err->addr, bar, sizeof bar);
        snprintf(err->msg, sizeof err->msg,
                 "invalid mbarrier operation in kernel '%s' at %s: %s ran `%s%s%s` with count %u on %s "
                 "(counts lie in 1..1048575, an arrive may not exceed the pending arrivals nor an "
                 "arrive.noComplete complete the phase, and the tx-count stays within +-1048575)",
                 err->kernel, where, who, what, in && in->mode ? "." : "", in ? isa_mode_names[in->mode] : "",
                 err->bytes, bar);
        err->bytes = 8;
        break;
    }
    case PTX_E_UNSUPPORTED: {
        char mn[96];
        snprintf(mn, sizeof mn, "%s%s%s%s%s", what, in && in->mode ? "." : "",
                 in && in->mode ? isa_mode_names[in->mode] : "", in && in->type ? "." : "",
                 in && in->type ? isa_types[in->type].name : "");
        snprintf(err->msg, sizeof err->msg,
                 "kernel '%s' at %s uses `%s` in a form ptxsim does not execute yet%s%s", err->kernel,
                 where, mn, w->v.fault.why ? ": " : "", w->v.fault.why ? w->v.fault.why : "");
        break;
    }
    case PTX_E_ILLEGAL_INSTRUCTION:
        if (in && isa_cp_is_tensor(in)) {
            if (w->v.fault.why)         /* a box the hardware refuses (sem_tensor.c) */
                snprintf(err->msg, sizeof err->msg,
                         "illegal instruction in kernel '%s' at %s: %s started a box at innermost coordinate "
                         "%lld (%u-byte elements): %s", err->kernel, where, who, (long long)(int64_t)err->addr,
                         err->bytes, w->v.fault.why);
            else
                snprintf(err->msg, sizeof err->msg,
                         "invalid tensor map in kernel '%s' at %s: %s named the 128 bytes at 0x%llx, which are "
                         "not a tensor map cuTensorMapEncodeTiled made, or one of another rank than the "
                         "copy's .%ud", err->kernel, where, who, (unsigned long long)err->addr,
                         isa_tensor_rank(in));
            break;
        }
        if (in && isa_inst_is_call(in)) {
            snprintf(err->msg, sizeof err->msg,
                     "illegal instruction in kernel '%s' at %s: %s called through address 0x%llx, "
                     "which is not the address of a device function", err->kernel, where, who,
                     (unsigned long long)err->addr);
            break;
        }
        snprintf(err->msg, sizeof err->msg, "%s in kernel '%s' at %s: %s%s%s", ptx_status_message(st),
                 err->kernel, where, who, w->v.fault.why && in && (isa_ops[in->op].flags & ISA_F_MATRIX) ? ": " : "",
                 w->v.fault.why && in && (isa_ops[in->op].flags & ISA_F_MATRIX) ? w->v.fault.why : "");
        break;
    case PTX_E_HANG: {
        char spin[600];
        describe_spin(w, spin, sizeof spin);
        if (c->hang->found) {
            /* The loop watch's proof (hang.c): say what waits and what loops. */
            uint32_t waiting = 0, first = UINT32_MAX;
            for (uint32_t i = 0; i < c->nwarps; i++)
                if (c->warps[i].state == EXEC_WARP_BARRIER && waiting++ == 0)
                    first = i;
            char bar[300] = "";
            if (waiting) {
                char at[200];
                exec_program_where_text(c->prog, exec_warp_pc(&c->warps[first]), at, sizeof at);
                snprintf(bar, sizeof bar, "; %u warp%s of the block wait%s at a barrier (warp %u at %s) "
                         "that the looping warps never reach", waiting, waiting == 1 ? "" : "s",
                         waiting == 1 ? "s" : "", first, at);
            }
            if (c->hang->starved) {
                snprintf(err->msg, sizeof err->msg,
                         "the timing model livelocked in kernel '%s': for %llu warp-instructions no thread "
                         "wrote memory or reached a barrier, every warp that issued repeats a loop that "
                         "changes nothing, and %u running warp%s never issued -- the scheduler holds them "
                         "back (a warp limit: throttle=static or a dynamic throttle), so what the loop "
                         "waits for never comes; %s loops at %s", err->kernel,
                         (unsigned long long)c->hang->quiet, c->hang->starved, c->hang->starved == 1 ? "" : "s",
                         who, where);
                break;
            }
            snprintf(err->msg, sizeof err->msg,
                     "kernel '%s' is hung: for %llu warp-instructions no thread wrote memory or reached "
                     "a barrier, and every warp still running repeats a loop that changes nothing; "
                     "%s loops at %s%s%s", err->kernel, (unsigned long long)c->hang->quiet, who,
                     where, bar, spin);
            break;
        }
        uint64_t budget = c->grid->l.max_warp_insts ? c->grid->l.max_warp_insts
                                                    : EXEC_DEFAULT_MAX_WARP_INSTS;
        snprintf(err->msg, sizeof err->msg,
                 "kernel '%s' is hung: it ran %llu warp-instructions (the budget, --max-insts) "
                 "without finishing; %s was running at %s%s", err->kernel,
                 (unsigned long long)budget, who, where, spin);
        break;
    }
    case PTX_E_STACK_OVERFLOW:
        snprintf(err->msg, sizeof err->msg,
                 "call stack overflow in kernel '%s' at %s: %s called deeper than %u bytes of local memory "
                 "per thread hold (cudaDeviceSetLimit(cudaLimitStackSize, bytes) gives a recursive kernel "
                 "more; it has at least %u)", err->kernel, where, who, c->local_stride,
                 EXEC_RECURSION_STACK_BYTES);
        break;
    default:
        snprintf(err->msg, sizeof err->msg, "%s in kernel '%s' at %s: %s", ptx_status_message(st),
                 err->kernel, where, who);
        break;
    }
}

/* "the mbarrier at shared address 0x10 ('bar' + 8): phase 1, 3 of 4
 * arrivals pending, tx-count 0" -- what a report says of a barrier. */
static void describe_mbarrier(const exec_cta *c, uint64_t addr, char *buf, size_t n)
{
    const char *name;
    uint64_t in_var;
    char var[120] = "";
    if (exec_kernel_shared_var(c->prog, c->k, addr, &name, &in_var))
        snprintf(var, sizeof var, in_var ? " ('%s' + %llu)" : " ('%s')", name, (unsigned long long)in_var);
    uint64_t word = 0;
    if (addr + 8 <= c->mem_shared_bytes)
        memcpy(&word, c->shared + addr, 8);
    isa_mbar_fields b = isa_mbar_decode(word);
    if (!b.valid)
        snprintf(buf, n, "the mbarrier at shared address 0x%llx%s, which is not initialised (mbarrier.init) "
                 "or was invalidated", (unsigned long long)addr, var);
    else
        snprintf(buf, n, "the mbarrier at shared address 0x%llx%s: phase parity %u, %u of %u arrivals pending, "
                 "tx-count %d", (unsigned long long)addr, var, b.phase, b.pending, b.expected, (int)b.tx);
}

/* Every running warp spins on an mbarrier wait that keeps failing. */
static void report_spin_deadlock(exec_cta *c, exec_error *err)
{
    exec_program *p = c->prog;
    memset(err, 0, sizeof *err);
    err->st = PTX_E_DEADLOCK;
    err->kernel = c->k->info.name;
    memcpy(err->ctaid, c->ctaid, sizeof err->ctaid);
    char waits[700] = "";
    size_t used = 0;
    uint32_t shown = 0, spinning = 0, at_bar = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        at_bar += w->state == EXEC_WARP_BARRIER;
        if (w->state != EXEC_WARP_RUNNING)
            continue;
        spinning++;
        if (shown == 2 || used >= sizeof waits - 300)
            continue;
        if (!shown++) {
            err->pc = w->spin_pc;
            exec_program_where(p, w->spin_pc, &err->ptx_line, &err->src_file, &err->src_line);
        }
        char at[200], bar[240];
        exec_program_where_text(p, w->spin_pc, at, sizeof at);
        describe_mbarrier(c, w->spin_addr, bar, sizeof bar);
        used += (size_t)snprintf(waits + used, sizeof waits - used, "%swarp %u waits at %s on %s",
                                 used ? "; " : "", i, at, bar);
    }
    char more[120] = "";
    if (spinning > shown || at_bar)
        snprintf(more, sizeof more, " (%u warps spin in all, %u wait at bar.sync)", spinning, at_bar);
    /* A spinning warp whose other lanes wait on its reconvergence stack:
     * if those were to arrive, the program needs the lanes of one warp to
     * run independently (Volta on), which lockstep SIMT does not give.
     * (Without --lockstep such lanes were let run: no hint then.) */
    char diverged[420] = "";
    for (uint32_t i = 0; i < c->nwarps && !diverged[0] && c->grid->l.lockstep; i++) {
        const exec_warp *w = &c->warps[i];
        if (w->state != EXEC_WARP_RUNNING || w->sp < 2)
            continue;
        const exec_simt *top = &w->stack[w->sp - 1];
        uint32_t parked = w->valid & ~w->exited & ~top->mask;
        if (parked && top->rpc < p->ncode) {
            char at[200];
            exec_program_where_text(p, top->rpc, at, sizeof at);
            snprintf(diverged, sizeof diverged,
                     "; warp %u is divergent: lanes 0x%08x spin while lanes 0x%08x wait to reconverge at %s -- "
                     "if the arrivals pending are theirs, the program needs the lanes of a warp to run "
                     "independently (as from Volta on), and lanes run in lockstep here (--lockstep, or --sm "
                     "below 70), as on GPUs before Volta",
                     i, top->mask, parked, at);
        }
    }
    snprintf(err->msg, sizeof err->msg,
             "deadlock in kernel '%s', block (%u,%u,%u): every running warp waits on an mbarrier phase "
             "that no thread can complete any more (%u failed waits in a row each, no mbarrier of the "
             "block changed)%s: %s%s", err->kernel, c->ctaid[0], c->ctaid[1], c->ctaid[2], EXEC_SPIN_LIMIT,
             more, waits, diverged);
}

static void report_deadlock(exec_cta *c, exec_error *err)
{
    exec_program *p = c->prog;
    memset(err, 0, sizeof *err);
    err->st = PTX_E_DEADLOCK;
    err->kernel = c->k->info.name;
    memcpy(err->ctaid, c->ctaid, sizeof err->ctaid);
    char waits[400] = "";
    size_t used = 0;
    uint32_t live = live_threads(c);
    for (uint32_t i = 0; i < c->nwarps && used < sizeof waits - 64; i++) {
        exec_warp *w = &c->warps[i];
        if (w->state != EXEC_WARP_BARRIER)
            continue;
        char at[200];
        exec_program_where_text(p, exec_warp_pc(w) - 1, at, sizeof at);
        used += (size_t)snprintf(waits + used, sizeof waits - used, "%swarp %u at barrier %u, %s",
                                 used ? ", " : "", i, w->bar_id, at);
    }
    err->ptx_line = 0;
    uint32_t b = 0;                 /* the barrier the first waiting warp waits at */
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state == EXEC_WARP_BARRIER) {
            b = c->warps[i].bar_id;
            break;
        }
    char counted[160];
    if (c->bar_expected[b])
        snprintf(counted, sizeof counted, "barrier %u counts %u threads (whole warps), and the warps that "
                 "arrived make %u", b, c->bar_expected[b], barrier_arrived(c, b));
    else
        snprintf(counted, sizeof counted, "only %u of the block's %u live threads arrived at barrier %u",
                 c->bar_arrived[b], live, b);
    snprintf(err->msg, sizeof err->msg,
             "deadlock in kernel '%s', block (%u,%u,%u): %s wait, but %s (a barrier in divergent code, "
             "or threads that never reach it)", err->kernel, c->ctaid[0], c->ctaid[1], c->ctaid[2], waits,
             counted);
}

/* A deadlock at barrier.cluster: who waits, and who never arrives. */
static void report_cluster_deadlock(exec_cta *c, exec_error *err)
{
    exec_program *p = c->prog;
    exec_cluster *cl = c->cluster;
    memset(err, 0, sizeof *err);
    err->st = PTX_E_DEADLOCK;
    err->kernel = c->k->info.name;
    memcpy(err->ctaid, c->ctaid, sizeof err->ctaid);
    char waits[400] = "", missing[400] = "";
    size_t wused = 0, mused = 0;
    uint32_t live = 0, arrived = 0;
    for (uint32_t r = 0; r < ISA_CLUSTER_MAX; r++) {
        exec_cta *pc = cl->ctas[r];
        if (!pc)
            continue;
        for (uint32_t i = 0; i < pc->nwarps; i++) {
            exec_warp *w = &pc->warps[i];
            uint32_t lv = w->valid & ~w->exited, late = lv & ~w->cl_arrived;
            live += (uint32_t)__builtin_popcount(lv);
            arrived += (uint32_t)__builtin_popcount(lv & w->cl_arrived);
            char at[200];
            exec_program_where_text(p, exec_warp_pc(w) - (w->state == EXEC_WARP_BARRIER), at, sizeof at);
            if (w->state == EXEC_WARP_BARRIER && w->bar_id == EXEC_BAR_CLUSTER && wused < sizeof waits - 100) {
                if (!err->pc) {
                    err->pc = exec_warp_pc(w) - 1;
                    exec_program_where(p, err->pc, &err->ptx_line, &err->src_file, &err->src_line);
                }
                wused += (size_t)snprintf(waits + wused, sizeof waits - wused, "%sblock (%u,%u,%u) warp %u at %s",
                                          wused ? ", " : "", pc->ctaid[0], pc->ctaid[1], pc->ctaid[2], i, at);
            }
            if (late && mused < sizeof missing - 100) {
                const char *how = w->state != EXEC_WARP_BARRIER ? "" : w->bar_id == EXEC_BAR_CLUSTER
                                ? " (waiting without having arrived)" : " (waiting at bar.sync)";
                mused += (size_t)snprintf(missing + mused, sizeof missing - mused,
                                          "%sblock (%u,%u,%u) warp %u lanes 0x%08x at %s%s", mused ? ", " : "",
                                          pc->ctaid[0], pc->ctaid[1], pc->ctaid[2], i, late, at, how);
            }
        }
    }
    snprintf(err->msg, sizeof err->msg,
             "deadlock in kernel '%s', cluster (%u,%u,%u) of %u blocks: %s wait at barrier.cluster, but only %u "
             "of the cluster's %u live threads arrived, and the others never can: %s",
             err->kernel, c->clusterid[0], c->clusterid[1], c->clusterid[2], c->grid->csize,
             waits[0] ? waits : "threads", arrived, live, missing[0] ? missing : "none");
}

/* Whether a warp of the cluster waits at barrier.cluster. */
static bool cluster_waits(const exec_cluster *cl)
{
    for (uint32_t r = 0; r < ISA_CLUSTER_MAX; r++)
        for (uint32_t i = 0; cl->ctas[r] && i < cl->ctas[r]->nwarps; i++)
            if (cl->ctas[r]->warps[i].state == EXEC_WARP_BARRIER &&
                cl->ctas[r]->warps[i].bar_id == EXEC_BAR_CLUSTER)
                return true;
    return false;
}

/* c cannot go on by itself: can the other CTAs of its cluster?  (They may
 * still arrive at barrier.cluster, or write c's shared memory.) */
static bool peers_can_go_on(exec_cta *c)
{
    exec_grid *g = c->grid;
    exec_cluster *cl = c->cluster;
    if (g->csize == 1)
        return false;
    if (cl->begun < g->csize)
        return true;                    /* CTAs still to be placed */
    for (uint32_t r = 0; r < ISA_CLUSTER_MAX; r++) {
        exec_cta *pc = cl->ctas[r];
        if (!pc || pc == c)
            continue;
        if (exec_cta_release_barriers(pc))
            return true;
        for (uint32_t i = 0; i < pc->nwarps; i++)
            if (pc->warps[i].state == EXEC_WARP_RUNNING && !exec_warp_stuck(&pc->warps[i]))
                return true;
    }
    return false;
}

bool exec_cta_sync(exec_cta *c, exec_error *err)
{
    bool waiting = false, running = false, stuck = true;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const exec_warp *w = &c->warps[i];
        waiting = waiting || w->state == EXEC_WARP_BARRIER;
        if (w->state == EXEC_WARP_RUNNING) {
            running = true;
            stuck = stuck && exec_warp_stuck(w);
        }
    }
    if (waiting && exec_cta_release_barriers(c))
        return true;
    if (running && !stuck)
        return true;
    if (!running && !waiting)
        return true;
    if (peers_can_go_on(c))
        return true;
    if (cluster_waits(c->cluster)) {
        report_cluster_deadlock(c, err);
        return false;
    }
    if (running) {
        report_spin_deadlock(c, err);
        return false;
    }
    if (!waiting)
        return true;
    report_deadlock(c, err);
    return false;
}

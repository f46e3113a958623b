/*
 * cfg.c -- control-flow analysis at load time: basic blocks, the immediate
 * post-dominator of every block, and from it each branch's reconvergence
 * point (the pc where the SIMT stack pops the diverged paths).
 *
 * Post-dominators are dominators of the reversed CFG rooted at a virtual
 * exit (Cooper, Harvey and Kennedy's iterative algorithm).  `ret`, `exit`
 * and `trap` lead to the virtual exit; a block that can never reach it (an
 * infinite loop) is given an edge to it, so every block has an ipdom and
 * branches inside such loops reconverge at the exit.
 */
#include "frontend.h"

#include <stdlib.h>
#include <string.h>

typedef struct cfg {
    uint32_t nblocks;       /* real blocks; the virtual exit is index nblocks */
    uint32_t *start;        /* first instruction of each block */
    uint32_t *block_of;     /* block of each instruction */
    uint32_t *succ;         /* successor lists, CSR */
    uint32_t *succ_at;      /* nblocks + 2 offsets */
    uint32_t *pred;         /* predecessor lists (forward graph), CSR */
    uint32_t *pred_at;
} cfg;

static bool ends_block(const isa_inst *in)
{
    return (isa_ops[in->op].flags & ISA_F_ENDS_BLOCK) != 0;
}

/* The successors of the block ending at instruction i, written to out
 * (returns how many; `exit_node` stands for the virtual exit). */
static uint32_t successors(const isa_func *f, const uint32_t *block_of, uint32_t i,
                           uint32_t exit_node, uint32_t *out)
{
    uint32_t n = isa_func_successors(f, i, out);
    for (uint32_t k = 0; k < n; k++)
        out[k] = out[k] < f->ncode ? block_of[out[k]] : exit_node;
    return n;
}

static void cfg_free(cfg *g)
{
    free(g->start);
    free(g->block_of);
    free(g->succ);
    free(g->succ_at);
    free(g->pred);
    free(g->pred_at);
}

static bool cfg_build(const isa_func *f, cfg *g)
{
    memset(g, 0, sizeof *g);
    uint32_t n = f->ncode;
    bool *leader = calloc(n + 1, sizeof *leader);
    g->block_of = malloc((n + 1) * sizeof *g->block_of);
    if (!leader || !g->block_of) {
        free(leader);
        return false;
    }
    leader[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const isa_inst *in = &f->code[i];
        if (ends_block(in) && i + 1 < n)
            leader[i + 1] = true;
        if (isa_inst_is_jump(in) && in->target < n)
            leader[in->target] = true;
    }
    for (uint32_t t = 0; t < f->nbrx; t++)
        for (uint32_t k = 0; k < f->brx_counts[t]; k++)
            if (f->brx_targets[t][k] < n)
                leader[f->brx_targets[t][k]] = true;
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    g->nblocks = nb;
    g->start = malloc((nb + 1) * sizeof *g->start);
    uint32_t ms = isa_func_max_successors(f);
    g->succ_at = calloc(nb + 2, sizeof *g->succ_at);
    g->succ = malloc(((size_t)nb * ms + 1) * sizeof *g->succ);
    if (!g->start || !g->succ_at || !g->succ) {
        free(leader);
        return false;
    }
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            g->start[b++] = i;
        g->block_of[i] = b - 1;
    }
    free(leader);
    /* Successors, CSR. */
    uint32_t total = 0;
    for (b = 0; b < nb; b++) {
        uint32_t last = (b + 1 < nb ? g->start[b + 1] : n) - 1;
        g->succ_at[b] = total;
        total += successors(f, g->block_of, last, nb, g->succ + total);
    }
    g->succ_at[nb] = g->succ_at[nb + 1] = total;
    /* Predecessors (forward graph) = the reverse graph's successors. */
    g->pred_at = calloc(nb + 2, sizeof *g->pred_at);
    g->pred = malloc((total + nb + 1) * sizeof *g->pred);
    if (!g->pred_at || !g->pred)
        return false;
    for (uint32_t e = 0; e < total; e++)
        g->pred_at[g->succ[e] + 1]++;
    for (uint32_t k = 0; k < nb + 1; k++)
        g->pred_at[k + 1] += g->pred_at[k];
    uint32_t *fill = calloc(nb + 1, sizeof *fill);
    if (!fill)
        return false;
    for (b = 0; b < nb; b++)
        for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1]; e++) {
            uint32_t s = g->succ[e];
            g->pred[g->pred_at[s] + fill[s]++] = b;
        }
    free(fill);
    return true;
}

/* Post-dominator tree: ipdom[b] for each block (nblocks = the exit). */
static bool postdominators(const cfg *g, uint32_t *ipdom)
{
    uint32_t nb = g->nblocks, exit_node = nb;
    uint32_t *order = malloc((nb + 1) * sizeof *order);   /* reverse-graph postorder */
    uint32_t *rank = malloc((nb + 1) * sizeof *rank);
    uint32_t *stack = malloc((nb + 1) * sizeof *stack);
    uint32_t *edge = calloc(nb + 1, sizeof *edge);
    bool *seen = calloc(nb + 1, sizeof *seen);
    bool *extra = calloc(nb + 1, sizeof *extra);           /* blocks given an edge to exit */
    if (!order || !rank || !stack || !edge || !seen || !extra) {
        free(order); free(rank); free(stack); free(edge); free(seen); free(extra);
        return false;
    }
    uint32_t norder = 0;
    /* DFS over reverse edges (forward predecessors) from the exit; blocks
     * left unvisited cannot reach the exit and get an edge to it.  The exit's
     * reverse successors are its predecessors plus those extra blocks. */
    for (;;) {
        uint32_t sp = 0;
        norder = 0;
        memset(seen, 0, (nb + 1) * sizeof *seen);
        memset(edge, 0, (nb + 1) * sizeof *edge);
        stack[sp++] = exit_node;
        seen[exit_node] = true;
        uint32_t extra_scan = 0;
        while (sp) {
            uint32_t x = stack[sp - 1];
            uint32_t np = g->pred_at[x + 1] - g->pred_at[x];
            if (edge[x] < np) {
                uint32_t y = g->pred[g->pred_at[x] + edge[x]++];
                if (!seen[y]) {
                    seen[y] = true;
                    stack[sp++] = y;
                }
                continue;
            }
            if (x == exit_node) {
                while (extra_scan < nb && !(extra[extra_scan] && !seen[extra_scan]))
                    extra_scan++;
                if (extra_scan < nb) {
                    seen[extra_scan] = true;
                    stack[sp++] = extra_scan;
                    continue;
                }
            }
            order[norder++] = x;
            sp--;
        }
        if (norder == nb + 1)
            break;
        /* Give the last unvisited block an edge to the exit, and retry. */
        for (uint32_t b = nb; b-- > 0;)
            if (!seen[b]) {
                extra[b] = true;
                break;
            }
    }
    for (uint32_t i = 0; i < norder; i++)
        rank[order[i]] = i;                 /* exit has the highest rank */
    for (uint32_t b = 0; b <= nb; b++)
        ipdom[b] = UINT32_MAX;
    ipdom[exit_node] = exit_node;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = norder - 1; i-- > 0;) {   /* reverse postorder, skipping the exit */
            uint32_t b = order[i];
            uint32_t best = UINT32_MAX;
            uint32_t ns = g->succ_at[b + 1] - g->succ_at[b];
            for (uint32_t k = 0; k <= ns; k++) {
                uint32_t s;
                if (k < ns)
                    s = g->succ[g->succ_at[b] + k];
                else if (extra[b])
                    s = exit_node;
                else
                    break;
                if (ipdom[s] == UINT32_MAX)
                    continue;
                if (best == UINT32_MAX) {
                    best = s;
                    continue;
                }
                uint32_t x = s, y = best;       /* intersect */
                while (x != y) {
                    while (rank[x] < rank[y])
                        x = ipdom[x];
                    while (rank[y] < rank[x])
                        y = ipdom[y];
                }
                best = x;
            }
            if (best != UINT32_MAX && ipdom[b] != best) {
                ipdom[b] = best;
                changed = true;
            }
        }
    }
    free(order); free(rank); free(stack); free(edge); free(seen); free(extra);
    return true;
}

ptx_status fe_analyse(isa_module *m, isa_func *f, ptx_diag *diag)
{
    cfg g;
    uint32_t *ipdom = NULL;
    if (!cfg_build(f, &g) || !(ipdom = malloc((g.nblocks + 1) * sizeof *ipdom)) ||
        !postdominators(&g, ipdom)) {
        cfg_free(&g);
        free(ipdom);
        return ptx_error(diag, PTX_E_NOMEM, m->source_name, f->line, 0, "out of memory analysing '%s'",
                         f->name);
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        isa_inst *in = &f->code[i];
        /* Where the warp's diverged paths meet again: after a branch, or
         * after some lanes leave. */
        if (!isa_inst_is_jump(in) && !isa_inst_is_table_jump(in) && !isa_inst_leaves_function(in))
            continue;
        uint32_t pd = ipdom[g.block_of[i]];
        in->rpc = pd < g.nblocks ? g.start[pd] : ISA_PC_EXIT;
    }
    fe_contract(m, f, g.block_of);
    cfg_free(&g);
    free(ipdom);
    return PTX_OK;
}

uint32_t fe_postdominators(const isa_func *f, uint32_t *out_block_of, int32_t *out_ipdom,
                           uint32_t max_blocks)
{
    cfg g;
    uint32_t *ipdom = NULL;
    if (!cfg_build(f, &g) || g.nblocks > max_blocks ||
        !(ipdom = malloc((g.nblocks + 1) * sizeof *ipdom)) || !postdominators(&g, ipdom)) {
        cfg_free(&g);
        free(ipdom);
        return 0;
    }
    for (uint32_t i = 0; i < f->ncode; i++)
        out_block_of[i] = g.block_of[i];
    for (uint32_t b = 0; b < g.nblocks; b++)
        out_ipdom[b] = ipdom[b] < g.nblocks ? (int32_t)ipdom[b] : -1;
    uint32_t nb = g.nblocks;
    cfg_free(&g);
    free(ipdom);
    return nb;
}

/*
 * rt_graph_dot.c -- cudaGraphDebugDotPrint: a graph as a Graphviz DOT file
 * (`dot -Tsvg file.dot`).  Each node is a box naming its creation index,
 * its type and, by default, what CUDA's own output shows: the kernel's
 * name, the copy's direction.  The cudaGraphDebugDotFlags add each type's
 * parameters (Verbose: all of them) and the handles.  A child-graph node's
 * embedded graph is drawn as a cluster beside it, joined by a dashed edge.
 */
#include "rt_int.h"

#include <stdio.h>

/* s as the inside of a DOT string (quotes and backslashes escaped). */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static const char *type_name(enum cudaGraphNodeType t)
{
    switch (t) {
    case cudaGraphNodeTypeKernel: return "KERNEL";
    case cudaGraphNodeTypeMemcpy: return "MEMCPY";
    case cudaGraphNodeTypeMemset: return "MEMSET";
    case cudaGraphNodeTypeHost: return "HOST";
    case cudaGraphNodeTypeGraph: return "CHILD_GRAPH";
    case cudaGraphNodeTypeEmpty: return "EMPTY";
    case cudaGraphNodeTypeWaitEvent: return "EVENT_WAIT";
    case cudaGraphNodeTypeEventRecord: return "EVENT_RECORD";
    case cudaGraphNodeTypeConditional: return "CONDITIONAL";
    case cudaGraphNodeTypeMemAlloc: return "MEM_ALLOC";
    case cudaGraphNodeTypeMemFree: return "MEM_FREE";
    default: return "UNKNOWN";
    }
}

static const char *kind_name(enum cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToHost: return "HtoH";
    case cudaMemcpyHostToDevice: return "HtoD";
    case cudaMemcpyDeviceToHost: return "DtoH";
    case cudaMemcpyDeviceToDevice: return "DtoD";
    default: return "Default";
    }
}

typedef struct dot {
    FILE *f;
    unsigned flags;
    unsigned next_id;           /* DOT names: n<id>, one per node of every graph */
    unsigned next_cluster;
} dot;

static bool want(const dot *d, unsigned flag)
{
    return (d->flags & (flag | cudaGraphDebugDotFlagsVerbose)) != 0;
}

/* One node's label: index and type, then what the flags ask for. */
static void label(dot *d, const rt_graph_node *n)
{
    FILE *f = d->f;
    const rt_graph_op *op = &n->op;
    fprintf(f, "%u: %s", n->index, type_name(op->type));
    if (want(d, cudaGraphDebugDotFlagsHandles))
        fprintf(f, "\\nnode %p", (const void *)n);
    switch (op->type) {
    case cudaGraphNodeTypeKernel: {
        fputs("\\n", f);
        put_escaped(f, rt_func_pretty(op->u.kernel.f));
        if (want(d, cudaGraphDebugDotFlagsKernelNodeParams))
            fprintf(f, "\\ngrid (%u,%u,%u) block (%u,%u,%u) shared %zu", op->u.kernel.grid[0], op->u.kernel.grid[1],
                    op->u.kernel.grid[2], op->u.kernel.block[0], op->u.kernel.block[1], op->u.kernel.block[2],
                    op->u.kernel.shared);
        if (want(d, cudaGraphDebugDotFlagsKernelNodeAttributes))
            fprintf(f, "\\ncooperative %d priority %d cluster (%u,%u,%u)", op->u.kernel.attrs.cooperative,
                    op->u.kernel.attrs.priority, op->u.kernel.cluster[0], op->u.kernel.cluster[1],
                    op->u.kernel.cluster[2]);
        if (want(d, cudaGraphDebugDotFlagsHandles))
            fprintf(f, "\\nfunction %p", (const void *)op->u.kernel.f);
        break;
    }
    case cudaGraphNodeTypeMemcpy: {
        enum cudaMemcpyKind k = op->u.copy.is3d ? op->u.copy.c3.kind : op->u.copy.kind;
        fprintf(f, "\\n%s", kind_name(k));
        if (!want(d, cudaGraphDebugDotFlagsMemcpyNodeParams))
            break;
        if (op->u.copy.is3d) {
            const struct cudaMemcpy3DParms *c = &op->u.copy.c3;
            fprintf(f, "\\nsrc %p%s dst %p%s\\nextent (%zu,%zu,%zu)",
                    c->srcArray ? (void *)c->srcArray : c->srcPtr.ptr, c->srcArray ? " (array)" : "",
                    c->dstArray ? (void *)c->dstArray : c->dstPtr.ptr, c->dstArray ? " (array)" : "",
                    c->extent.width, c->extent.height, c->extent.depth);
        } else {
            fprintf(f, "\\nsrc %p pitch %zu dst %p pitch %zu\\n%zu bytes x %zu rows", op->u.copy.src,
                    op->u.copy.spitch, op->u.copy.dst, op->u.copy.dpitch, op->u.copy.width, op->u.copy.height);
        }
        break;
    }
    case cudaGraphNodeTypeMemset:
        if (want(d, cudaGraphDebugDotFlagsMemsetNodeParams))
            fprintf(f, "\\ndst %p value 0x%x element %u bytes\\n%zu x %zu, pitch %zu", op->u.memset.dst,
                    op->u.memset.value, op->u.memset.elementSize, op->u.memset.width, op->u.memset.height,
                    op->u.memset.pitch);
        break;
    case cudaGraphNodeTypeHost:
        if (want(d, cudaGraphDebugDotFlagsHostNodeParams))
            fprintf(f, "\\nfn %p data %p", (void *)(uintptr_t)op->u.host.fn, op->u.host.userData);
        break;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
        if (want(d, cudaGraphDebugDotFlagsEventNodeParams))
            fprintf(f, "\\nevent %p", (void *)op->u.event);
        break;
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree:
        fprintf(f, "\\n%p", rt_gmem_addr(op));
        break;
    case cudaGraphNodeTypeConditional: {
        static const char *const kinds[] = { "IF", "WHILE", "SWITCH" };
        fprintf(f, "\\n%s", (unsigned)op->u.cond.kind < 3 ? kinds[op->u.cond.kind] : "?");
        if (want(d, cudaGraphDebugDotFlagsConditionalNodeParams))
            fprintf(f, "\\nhandle %p, %u bodies", (void *)op->u.cond.cond, op->u.cond.size);
        break;
    }
    default:
        break;
    }
}

/* The nodes and edges of g, named from the next free DOT id on. */
static void graph_body(dot *d, const rt_graph *g, const char *indent)
{
    unsigned base = d->next_id;
    d->next_id += g->n;
    for (uint32_t i = 0; i < g->n; i++) {
        fprintf(d->f, "%sn%u [label=\"", indent, base + i);
        label(d, g->nodes[i]);
        fputs("\"];\n", d->f);
    }
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t k = 0; k < g->nodes[i]->ndeps; k++)
            fprintf(d->f, "%sn%u -> n%u;\n", indent, base + g->nodes[i]->deps[k]->index, base + i);
    /* Embedded graphs (child graphs, conditional bodies), each a cluster
     * its node points into. */
    for (uint32_t i = 0; i < g->n; i++) {
        const rt_graph_op *op = &g->nodes[i]->op;
        uint32_t nbodies = op->type == cudaGraphNodeTypeGraph ? 1
                         : op->type == cudaGraphNodeTypeConditional ? op->u.cond.size : 0;
        for (uint32_t k = 0; k < nbodies; k++) {
            const rt_graph *c = op->type == cudaGraphNodeTypeGraph ? op->u.child.graph : op->u.cond.bodies[k];
            unsigned cluster = d->next_cluster++, first = d->next_id;
            if (op->type == cudaGraphNodeTypeGraph)
                fprintf(d->f, "%ssubgraph cluster_%u {\n%s  label=\"child graph of node %u\";\n", indent, cluster,
                        indent, g->nodes[i]->index);
            else
                fprintf(d->f, "%ssubgraph cluster_%u {\n%s  label=\"body %u of node %u\";\n", indent, cluster,
                        indent, k, g->nodes[i]->index);
            fprintf(d->f, "%s  style=dashed;\n", indent);
            char deeper[64];
            snprintf(deeper, sizeof deeper, "%s  ", indent);
            graph_body(d, c, deeper);
            fprintf(d->f, "%s}\n", indent);
            if (c->n)
                fprintf(d->f, "%sn%u -> n%u [style=dashed, lhead=cluster_%u];\n", indent, base + i, first, cluster);
        }
    }
}

cudaError_t rt_graph_dot(rt_graph *h, const char *path, unsigned flags)
{
    if (!path)
        return cudaErrorInvalidValue;
    rt_lock();
    rt_graph *g = rt_graph_live(h);
    FILE *f = g ? fopen(path, "w") : NULL;
    cudaError_t e = !g ? cudaErrorInvalidValue : !f ? cudaErrorOperatingSystem : cudaSuccess;
    if (e == cudaSuccess) {
        dot d = { f, flags, 0, 0 };
        fprintf(f, "digraph \"cudaGraph %p\" {\n  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n",
                (void *)g);
        graph_body(&d, g, "  ");
        fputs("}\n", f);
        if (fclose(f) != 0)
            e = cudaErrorOperatingSystem;
    }
    rt_unlock();
    return e;
}

/*
 * api_graph_nodes -- the graph node kinds and per-node settings beyond
 * api_graph's: child graphs (embedded copies, run in order, updated in the
 * executable graph), event record and wait nodes' events, nodes disabled
 * in an executable graph, kernel node attributes, copies to and from
 * symbols, user objects (destructors run once, when the last reference,
 * the program's or a graph's, is released) and the DOT description; and
 * misuse of each, answered with the error code CUDA documents.
 */
#include "rt_test.h"

#include <cstring>
#include <cstdlib>
#include <unistd.h>

#include <cuda_runtime.h>
#include <string>
#include <vector>

__device__ float dsym[64];
static int not_a_symbol;

__global__ void scale_add(float *p, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * a + b;
}

static const int N = 128;

static cudaKernelNodeParams kernel_params(void **args)
{
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale_add;
    kp.gridDim = dim3(N / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    return kp;
}

static void CUDART_CB bump(void *user)
{
    ++*(int *)user;
}

/* Every element of the device array f equals want. */
static bool all_equal(const float *f, float want)
{
    std::vector<float> h(N, -1.0f);
    if (cudaMemcpy(h.data(), f, N * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
        return false;
    for (int i = 0; i < N; i++)
        if (h[i] != want)
            return false;
    return true;
}

/* A child graph (f = f * a + b, then a host node) embedded between a copy
 * in and a host node that checks it ran first. */
static void child_graphs(void)
{
    float *f;
    OK(cudaMalloc(&f, N * sizeof(float)));
    std::vector<float> ones(N, 1.0f);
    int n = N, ran = 0;
    float a = 2.0f, b = 1.0f;
    void *args[] = { &f, &n, &a, &b };
    cudaKernelNodeParams kp = kernel_params(args);
    cudaHostNodeParams hp = { bump, &ran };
    cudaGraph_t child, parent;
    cudaGraphNode_t k, h, in, node, after;
    OK(cudaGraphCreate(&child, 0));
    OK(cudaGraphAddKernelNode(&k, child, NULL, 0, &kp));
    OK(cudaGraphAddHostNode(&h, child, &k, 1, &hp));
    OK(cudaGraphCreate(&parent, 0));
    OK(cudaGraphAddMemcpyNode1D(&in, parent, NULL, 0, f, ones.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    OK(cudaGraphAddChildGraphNode(&node, parent, &in, 1, child));
    OK(cudaGraphAddHostNode(&after, parent, &node, 1, &hp));
    cudaGraphNodeType type;
    OK(cudaGraphNodeGetType(node, &type));
    EXPECT(type == cudaGraphNodeTypeGraph);

    /* The node embeds a copy: changing the original afterwards leaves it. */
    a = 100.0f;
    cudaKernelNodeParams changed = kernel_params(args);
    OK(cudaGraphKernelNodeSetParams(k, &changed));
    a = 2.0f;
    cudaGraph_t embedded = NULL;
    OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
    EXPECT(embedded != NULL && embedded != child);
    size_t count = 0;
    OK(cudaGraphGetNodes(embedded, NULL, &count));
    EXPECT(count == 2);
    /* The embedded graph is the node's, not the program's to destroy. */
    EXPECT_MISUSE(cudaGraphDestroy(embedded), cudaErrorInvalidValue);

    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, parent, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(f, 3.0f));                 /* 1 * 2 + 1 */
    EXPECT(ran == 2);                           /* the child's host node, then the parent's */

    /* A clone of the parent embeds its own copy and runs the same. */
    cudaGraph_t clone;
    OK(cudaGraphClone(&clone, parent));
    cudaGraphExec_t xc;
    OK(cudaGraphInstantiate(&xc, clone, 0));
    OK(cudaGraphLaunch(xc, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    EXPECT(all_equal(f, 3.0f) && ran == 4);
    OK(cudaGraphExecDestroy(xc));
    OK(cudaGraphDestroy(clone));

    /* New parameters for the executable's child from a graph of the same
     * shape: the original child, whose kernel now has a = 100. */
    OK(cudaGraphExecChildGraphNodeSetParams(x, node, child));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    EXPECT(all_equal(f, 101.0f));               /* 1 * 100 + 1 */
    /* A graph of another shape, a node that is no child graph, bad handles. */
    cudaGraph_t other;
    cudaGraphNode_t lone;
    OK(cudaGraphCreate(&other, 0));
    OK(cudaGraphAddEmptyNode(&lone, other, NULL, 0));
    EXPECT_MISUSE(cudaGraphExecChildGraphNodeSetParams(x, node, other), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphExecChildGraphNodeSetParams(x, in, child), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphExecChildGraphNodeSetParams(x, node, NULL), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphChildGraphNodeGetGraph(in, &embedded), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddChildGraphNode(&lone, parent, NULL, 0, (cudaGraph_t)&ran), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddChildGraphNode(&lone, parent, NULL, 0, NULL), cudaErrorInvalidValue);

    /* Destroying the node takes its embedded graph with it. */
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroyNode(node));
    EXPECT_MISUSE(cudaGraphGetNodes(embedded, NULL, &count), cudaErrorInvalidValue);
    OK(cudaGraphDestroy(other));
    OK(cudaGraphDestroy(parent));
    OK(cudaGraphDestroy(child));
    OK(cudaFree(f));
}

/* Event nodes' events, in the graph and in an executable graph. */
static void event_nodes(void)
{
    cudaEvent_t e1, e2, e3, start;
    OK(cudaEventCreate(&e1));
    OK(cudaEventCreate(&e2));
    OK(cudaEventCreate(&e3));
    OK(cudaEventCreate(&start));
    cudaGraph_t g;
    cudaGraphNode_t rec, wait, empty;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphAddEventRecordNode(&rec, g, NULL, 0, e1));
    OK(cudaGraphAddEventWaitNode(&wait, g, &rec, 1, e1));
    OK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
    cudaEvent_t got = NULL;
    OK(cudaGraphEventRecordNodeGetEvent(rec, &got));
    EXPECT(got == e1);
    OK(cudaGraphEventRecordNodeSetEvent(rec, e2));
    OK(cudaGraphEventRecordNodeGetEvent(rec, &got));
    EXPECT(got == e2);
    OK(cudaGraphEventWaitNodeSetEvent(wait, e2));
    OK(cudaGraphEventWaitNodeGetEvent(wait, &got));
    EXPECT(got == e2);
    EXPECT_MISUSE(cudaGraphEventRecordNodeGetEvent(wait, &got), cudaErrorInvalidValue);   /* a wait node */
    EXPECT_MISUSE(cudaGraphEventWaitNodeGetEvent(empty, &got), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphEventRecordNodeSetEvent(rec, (cudaEvent_t)&got), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphEventWaitNodeGetEvent(wait, NULL), cudaErrorInvalidValue);

    /* The executable graph's copy records e3 instead; the graph still e2. */
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphExecEventRecordNodeSetEvent(x, rec, e3));
    OK(cudaGraphExecEventWaitNodeSetEvent(x, wait, e3));
    EXPECT_MISUSE(cudaGraphExecEventRecordNodeSetEvent(x, wait, e3), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphExecEventWaitNodeSetEvent(x, wait, (cudaEvent_t)&got), cudaErrorInvalidValue);
    OK(cudaEventRecord(start, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    float ms = -1.0f;
    OK(cudaEventElapsedTime(&ms, start, e3));                   /* e3 was recorded */
    EXPECT(ms >= 0.0f);
    EXPECT_MISUSE(cudaEventElapsedTime(&ms, start, e2), cudaErrorInvalidResourceHandle);  /* e2 never */
    OK(cudaGraphEventRecordNodeGetEvent(rec, &got));
    EXPECT(got == e2);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaEventDestroy(e1));
    OK(cudaEventDestroy(e2));
    OK(cudaEventDestroy(e3));
    OK(cudaEventDestroy(start));
}

/* A node disabled in an executable graph does nothing until enabled. */
static void disabled_nodes(void)
{
    float *f;
    OK(cudaMalloc(&f, N * sizeof(float)));
    int n = N, ran = 0;
    float a = 3.0f, b = 0.0f;
    void *args[] = { &f, &n, &a, &b };
    cudaKernelNodeParams kp = kernel_params(args);
    cudaMemsetParams mp = {};
    mp.dst = f;
    mp.elementSize = 4;
    mp.width = N;
    mp.height = 1;
    mp.value = 0x40000000;                       /* 2.0f */
    cudaHostNodeParams hp = { bump, &ran };
    cudaGraph_t g;
    cudaGraphNode_t set, k, h;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp));
    OK(cudaGraphAddKernelNode(&k, g, &set, 1, &kp));
    OK(cudaGraphAddHostNode(&h, g, &k, 1, &hp));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    unsigned on = 7;
    OK(cudaGraphNodeGetEnabled(x, k, &on));
    EXPECT(on == 1);
    OK(cudaGraphNodeSetEnabled(x, k, 0));
    OK(cudaGraphNodeSetEnabled(x, h, 0));
    OK(cudaGraphNodeGetEnabled(x, k, &on));
    EXPECT(on == 0);
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(f, 2.0f) && ran == 0);     /* the memset only */
    OK(cudaGraphNodeSetEnabled(x, k, 1));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    EXPECT(all_equal(f, 6.0f) && ran == 0);     /* memset, then the kernel */
    OK(cudaGraphNodeSetEnabled(x, h, 5));       /* any nonzero enables */
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    EXPECT(ran == 1);

    cudaGraph_t other;
    cudaGraphNode_t lone;
    OK(cudaGraphCreate(&other, 0));
    OK(cudaGraphAddEmptyNode(&lone, other, NULL, 0));
    EXPECT_MISUSE(cudaGraphNodeSetEnabled(x, lone, 0), cudaErrorInvalidValue);   /* not in x */
    EXPECT_MISUSE(cudaGraphNodeSetEnabled(NULL, k, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphNodeGetEnabled(x, k, NULL), cudaErrorInvalidValue);
    OK(cudaGraphDestroy(other));
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaFree(f));
}

/* Kernel node attributes: kept, copied, kept across new parameters. */
static void kernel_attributes(void)
{
    float *f;
    OK(cudaMalloc(&f, N * sizeof(float)));
    int n = N;
    float a = 1.0f, b = 1.0f;
    void *args[] = { &f, &n, &a, &b };
    cudaKernelNodeParams kp = kernel_params(args);
    cudaGraph_t g;
    cudaGraphNode_t k1, k2, e;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphAddKernelNode(&k1, g, NULL, 0, &kp));
    OK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
    OK(cudaGraphAddEmptyNode(&e, g, NULL, 0));
    cudaKernelNodeAttrValue v, w;
    memset(&v, 0x55, sizeof v);
    OK(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributeCooperative, &v));
    EXPECT(v.cooperative == 0);
    memset(&w, 0, sizeof w);
    w.accessPolicyWindow.base_ptr = f;
    w.accessPolicyWindow.num_bytes = N * sizeof(float);
    w.accessPolicyWindow.hitRatio = 1.0f;
    w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    OK(cudaGraphKernelNodeSetAttribute(k1, cudaKernelNodeAttributeAccessPolicyWindow, &w));
    w.cooperative = 1;
    OK(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributeCooperative, &w));
    int lo, hi;
    OK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    w.priority = hi;
    OK(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributePriority, &w));
    OK(cudaGraphKernelNodeGetAttribute(k1, cudaKernelNodeAttributeAccessPolicyWindow, &v));
    EXPECT(v.accessPolicyWindow.base_ptr == f && v.accessPolicyWindow.hitRatio == 1.0f &&
           v.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
    OK(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributePriority, &v));
    EXPECT(v.priority == hi);
    /* New parameters keep the attributes. */
    OK(cudaGraphKernelNodeSetParams(k1, &kp));
    OK(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributeCooperative, &v));
    EXPECT(v.cooperative == 1);
    OK(cudaGraphKernelNodeCopyAttributes(k2, k1));
    OK(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributePriority, &v));
    EXPECT(v.priority == hi);
    OK(cudaGraphKernelNodeGetAttribute(k2, cudaKernelNodeAttributeAccessPolicyWindow, &v));
    EXPECT(v.accessPolicyWindow.base_ptr == f);
    /* A cooperative launch of a small grid computes the same. */
    std::vector<float> ones(N, 1.0f);
    OK(cudaMemcpy(f, ones.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(f, 3.0f));                 /* (1 + 1) + 1 */
    OK(cudaGraphExecDestroy(x));

    /* Misuse: a stream's attribute, a bad value, a node of another kind. */
    w.syncPolicy = cudaSyncPolicySpin;
    EXPECT_MISUSE(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributeSynchronizationPolicy, &w),
                  cudaErrorInvalidValue);
    w.accessPolicyWindow.hitRatio = -0.5f;
    EXPECT_MISUSE(cudaGraphKernelNodeSetAttribute(k1, cudaKernelNodeAttributeAccessPolicyWindow, &w),
                  cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphKernelNodeGetAttribute(e, cudaLaunchAttributeCooperative, &v), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphKernelNodeCopyAttributes(e, k1), cudaErrorInvalidValue);
    OK(cudaGraphDestroy(g));
    OK(cudaFree(f));
}

/* Copies to and from a __device__ symbol as memcpy nodes. */
static void symbol_nodes(void)
{
    std::vector<float> in(16), out(16, -1.0f), in2(16, 9.0f), out2(16, -1.0f);
    for (int i = 0; i < 16; i++)
        in[i] = (float)i;
    const size_t bytes = 16 * sizeof(float), offset = 8 * sizeof(float);
    cudaGraph_t g;
    cudaGraphNode_t to, from;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphAddMemcpyNodeToSymbol(&to, g, NULL, 0, dsym, in.data(), bytes, offset, cudaMemcpyHostToDevice));
    OK(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &to, 1, out.data(), dsym, bytes, offset,
                                        cudaMemcpyDeviceToHost));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(out == in);
    float direct[24];
    OK(cudaMemcpyFromSymbol(direct, dsym, sizeof direct));
    EXPECT(direct[8] == 0.0f && direct[23] == 15.0f);
    /* New parameters in the graph, then in the executable graph. */
    OK(cudaGraphMemcpyNodeSetParamsToSymbol(to, dsym, in2.data(), bytes, 0, cudaMemcpyHostToDevice));
    OK(cudaGraphMemcpyNodeSetParamsFromSymbol(from, out2.data(), dsym, bytes, 0, cudaMemcpyDeviceToHost));
    OK(cudaGraphExecMemcpyNodeSetParamsToSymbol(x, to, dsym, in2.data(), 4, 60 * sizeof(float), cudaMemcpyDefault));
    OK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(x, from, out2.data(), dsym, 4, 60 * sizeof(float),
                                                  cudaMemcpyDefault));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    EXPECT(out2[0] == 9.0f && out2[1] == -1.0f);    /* the executable's one float */
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    EXPECT(out2 == in2);                             /* the graph's 16 */
    OK(cudaGraphExecDestroy(x));

    /* Misuse: directions, sizes, something that is no symbol. */
    cudaGraphNode_t bad;
    EXPECT_MISUSE(cudaGraphAddMemcpyNodeToSymbol(&bad, g, NULL, 0, dsym, in.data(), bytes, 0, cudaMemcpyDeviceToHost),
                  cudaErrorInvalidMemcpyDirection);
    EXPECT_MISUSE(cudaGraphAddMemcpyNodeFromSymbol(&bad, g, NULL, 0, out.data(), dsym, bytes, 0,
                                                   cudaMemcpyHostToDevice),
                  cudaErrorInvalidMemcpyDirection);
    EXPECT_MISUSE(cudaGraphAddMemcpyNodeToSymbol(&bad, g, NULL, 0, dsym, in.data(), bytes, 60 * sizeof(float),
                                                 cudaMemcpyHostToDevice),
                  cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddMemcpyNodeToSymbol(&bad, g, NULL, 0, &not_a_symbol, in.data(), 4, 0,
                                                 cudaMemcpyHostToDevice),
                  cudaErrorInvalidSymbol);
    EXPECT_MISUSE(cudaGraphMemcpyNodeSetParamsToSymbol(to, dsym, in.data(), 65 * sizeof(float), 0,
                                                       cudaMemcpyHostToDevice),
                  cudaErrorInvalidValue);
    OK(cudaGraphDestroy(g));
}

/* User objects: the destructor runs once, when the last reference goes. */
static int destroyed[4];

static void CUDART_CB destroy_obj(void *p)
{
    destroyed[*(int *)p]++;
}

static void user_objects(void)
{
    static int ids[4] = { 0, 1, 2, 3 };
    cudaUserObject_t o;
    OK(cudaUserObjectCreate(&o, &ids[0], destroy_obj, 1, cudaUserObjectNoDestructorSync));
    OK(cudaUserObjectRetain(o, 2));
    OK(cudaUserObjectRelease(o, 2));
    EXPECT(destroyed[0] == 0);
    cudaGraph_t g;
    cudaGraphNode_t e;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphAddEmptyNode(&e, g, NULL, 0));
    OK(cudaGraphRetainUserObject(g, o, 1, 0));      /* a new reference, the graph's */
    OK(cudaUserObjectRelease(o, 1));                /* the program's last */
    EXPECT(destroyed[0] == 0);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));             /* the executable takes its own */
    OK(cudaGraphDestroy(g));
    EXPECT(destroyed[0] == 0);
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));     /* a launch returns before the graph runs */
    OK(cudaGraphExecDestroy(x));
    EXPECT(destroyed[0] == 1);

    /* References moved from the program; released from the graph. */
    OK(cudaUserObjectCreate(&o, &ids[1], destroy_obj, 3, cudaUserObjectNoDestructorSync));
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphRetainUserObject(g, o, 3, cudaGraphUserObjectMove));
    EXPECT_MISUSE(cudaGraphReleaseUserObject(g, o, 4), cudaErrorInvalidValue);   /* holds 3 */
    OK(cudaGraphReleaseUserObject(g, o, 1));
    EXPECT(destroyed[1] == 0);
    /* A clone and a child-graph node hold references of their own. */
    cudaGraph_t clone, parent;
    cudaGraphNode_t child;
    OK(cudaGraphClone(&clone, g));
    OK(cudaGraphCreate(&parent, 0));
    OK(cudaGraphAddChildGraphNode(&child, parent, NULL, 0, g));
    OK(cudaGraphDestroy(g));
    OK(cudaGraphDestroy(clone));
    EXPECT(destroyed[1] == 0);
    OK(cudaGraphDestroy(parent));
    EXPECT(destroyed[1] == 1);

    /* Misuse: the required flag, zero counts, bad handles. */
    EXPECT_MISUSE(cudaUserObjectCreate(&o, &ids[2], destroy_obj, 1, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaUserObjectCreate(&o, &ids[2], destroy_obj, 0, cudaUserObjectNoDestructorSync),
                  cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaUserObjectCreate(&o, &ids[2], NULL, 1, cudaUserObjectNoDestructorSync), cudaErrorInvalidValue);
    OK(cudaUserObjectCreate(&o, &ids[2], destroy_obj, 1, cudaUserObjectNoDestructorSync));
    EXPECT_MISUSE(cudaUserObjectRetain(o, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphRetainUserObject(NULL, o, 1, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphRetainUserObject(g, o, 1, 0), cudaErrorInvalidValue);          /* destroyed graph */
    EXPECT_MISUSE(cudaUserObjectRetain((cudaUserObject_t)&ids[3], 1), cudaErrorInvalidValue);
    OK(cudaUserObjectRelease(o, 1));
    EXPECT(destroyed[2] == 1);
    EXPECT_MISUSE(cudaUserObjectRelease(o, 1), cudaErrorInvalidValue);                    /* gone */
    EXPECT(destroyed[0] == 1 && destroyed[1] == 1 && destroyed[2] == 1);
}

/* The DOT description names nodes, kernels, edges and child graphs. */
static void dot_file(void)
{
    float *f;
    OK(cudaMalloc(&f, N * sizeof(float)));
    int n = N;
    float a = 1.0f, b = 1.0f;
    void *args[] = { &f, &n, &a, &b };
    cudaKernelNodeParams kp = kernel_params(args);
    cudaGraph_t g, child;
    cudaGraphNode_t k, c, m;
    OK(cudaGraphCreate(&child, 0));
    OK(cudaGraphAddKernelNode(&k, child, NULL, 0, &kp));
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphAddKernelNode(&k, g, NULL, 0, &kp));
    OK(cudaGraphAddChildGraphNode(&c, g, &k, 1, child));
    OK(cudaGraphAddMemcpyNode1D(&m, g, &c, 1, f, f, 16, cudaMemcpyDeviceToDevice));
    /* A file of its own in the temporary directory: a run from the source tree leaves nothing. */
    char path[] = "/tmp/api_graph_nodes.XXXXXX";
    int fd = mkstemp(path);
    EXPECT(fd >= 0);
    close(fd);
    OK(cudaGraphDebugDotPrint(g, path, cudaGraphDebugDotFlagsVerbose));
    std::string text;
    if (FILE *in = std::fopen(path, "r")) {
        char buf[4096];
        size_t got;
        while ((got = std::fread(buf, 1, sizeof buf, in)) > 0)
            text.append(buf, got);
        std::fclose(in);
    }
    EXPECT(text.compare(0, 7, "digraph") == 0);
    EXPECT(text.find("scale_add") != std::string::npos);
    EXPECT(text.find("CHILD_GRAPH") != std::string::npos && text.find("subgraph cluster_") != std::string::npos);
    EXPECT(text.find("DtoD") != std::string::npos && text.find("grid (2,1,1)") != std::string::npos);
    EXPECT(text.find("n0 -> n1;") != std::string::npos && text.find("n1 -> n2;") != std::string::npos);
    EXPECT(text.size() > 0 && text[text.size() - 2] == '}');
    EXPECT_MISUSE(cudaGraphDebugDotPrint(g, "/nonexistent/dir/g.dot", 0), cudaErrorOperatingSystem);
    EXPECT_MISUSE(cudaGraphDebugDotPrint(NULL, path, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphDebugDotPrint(g, NULL, 0), cudaErrorInvalidValue);
    unlink(path);
    OK(cudaGraphDestroy(g));
    OK(cudaGraphDestroy(child));
    OK(cudaFree(f));
}

/* kernel_params' kernel as generic node parameters. */
static cudaGraphNodeParams kernel_node(void **args)
{
    cudaKernelNodeParams kp = kernel_params(args);
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = kp.func;
    p.kernel.gridDim = kp.gridDim;
    p.kernel.blockDim = kp.blockDim;
    p.kernel.kernelParams = args;
    return p;
}

/* Generic node parameters: N words of f set to value; bump(count). */
static cudaGraphNodeParams memset_node(float *f, unsigned value)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeMemset;
    p.memset.dst = f;
    p.memset.value = value;
    p.memset.elementSize = 4;
    p.memset.width = N;
    p.memset.height = 1;
    return p;
}

static cudaGraphNodeParams host_node(int *count)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeHost;
    p.host.fn = bump;
    p.host.userData = count;
    return p;
}

/* The generic calls (cudaGraphAddNode, cudaGraphNodeSetParams,
 * cudaGraphExecNodeSetParams): a memset, a kernel, a host node, a child
 * graph moved in and an event record, chained; parameters changed in the
 * graph and in its executable; the kinds not implemented refused. */
static void generic_nodes(void)
{
    float *f;
    int count = 0;
    OK(cudaMalloc(&f, N * sizeof(float)));
    cudaEvent_t ev;
    OK(cudaEventCreate(&ev));
    cudaGraph_t g, child;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t set, kern, host, sub, rec, empty, inner;
    cudaGraphNodeParams p = memset_node(f, 0);
    OK(cudaGraphAddNode(&set, g, NULL, NULL, 0, &p));
    float a = 2.0f, b = 3.0f;
    int n = N;
    void *args[] = { &f, &n, &a, &b };
    p = kernel_node(args);
    OK(cudaGraphAddNode(&kern, g, &set, NULL, 1, &p));              /* f = 0 * 2 + 3 */
    p = host_node(&count);
    OK(cudaGraphAddNode(&inner, child, NULL, NULL, 0, &p));
    p = {};
    p.type = cudaGraphNodeTypeGraph;
    p.graph.graph = child;
    p.graph.ownership = cudaGraphChildGraphOwnershipMove;
    OK(cudaGraphAddNode(&sub, g, &kern, NULL, 1, &p));
    p = {};
    p.type = cudaGraphNodeTypeEventRecord;
    p.eventRecord.event = ev;
    OK(cudaGraphAddNode(&rec, g, &sub, NULL, 1, &p));
    p = {};
    p.type = cudaGraphNodeTypeEmpty;
    OK(cudaGraphAddNode(&empty, g, &rec, NULL, 1, &p));
    p = host_node(&count);
    OK(cudaGraphAddNode(&host, g, &empty, NULL, 1, &p));
    cudaGraphNodeType t;
    OK(cudaGraphNodeGetType(sub, &t));
    EXPECT(t == cudaGraphNodeTypeGraph);

    /* In the graph: the kernel now adds 5 (f = 5). */
    b = 5.0f;
    p = kernel_node(args);
    OK(cudaGraphNodeSetParams(kern, &p));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(f, 5.0f));
    EXPECT(count == 2);
    EXPECT(cudaEventQuery(ev) == cudaSuccess);

    /* In the executable: the memset writes 1.0f's bits, the kernel f * 2 + 7. */
    float one = 1.0f;
    unsigned bits;
    std::memcpy(&bits, &one, 4);
    p = memset_node(f, bits);
    OK(cudaGraphExecNodeSetParams(x, set, &p));
    b = 7.0f;
    p = kernel_node(args);
    OK(cudaGraphExecNodeSetParams(x, kern, &p));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(f, 9.0f));
    EXPECT(count == 4);

    /* The wrong kind for the node; a kind not implemented. */
    p = host_node(&count);
    EXPECT_MISUSE(cudaGraphNodeSetParams(kern, &p), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddNode(&empty, g, NULL, NULL, 0, NULL), cudaErrorInvalidValue);
    p = {};
    p.type = cudaGraphNodeTypeExtSemaphoreSignal;
    EXPECT_MISUSE(cudaGraphAddNode(&empty, g, NULL, NULL, 0, &p), cudaErrorNotSupported);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));            /* (and the child it took) */
    OK(cudaEventDestroy(ev));
    OK(cudaFree(f));
}

int main()
{
    test_name = "api_graph_nodes";
    generic_nodes();
    child_graphs();
    event_nodes();
    disabled_nodes();
    kernel_attributes();
    symbol_nodes();
    user_objects();
    dot_file();
    return finish();
}

/*
 * api_graph_cond -- conditional graph nodes (CUDA 12.4+): if, if/else,
 * while and switch nodes whose value kernels set with
 * cudaGraphSetConditional, handles' defaults applied at each launch (or
 * not), nesting, bodies filled by capturing a stream into them
 * (cudaStreamBeginCaptureToGraph), executable graphs updated; and misuse:
 * bad sizes, flags and handles, node kinds a body may not hold, cloning.
 */
#include "rt_test.h"

#include <cuda_runtime.h>
#include <string>
#include <unistd.h>

/* Device counters the kernels below work on. */
struct counters {
    int remaining;      /* a loop's count down */
    int iterations;     /* bodies of a loop run */
    int which;          /* the body of an if/else or switch that ran */
    int hits;
};

__global__ void set_cond(cudaGraphConditionalHandle h, const int *v)
{
    if (threadIdx.x == 0)
        cudaGraphSetConditional(h, (unsigned)*v);
}

__global__ void count_down(cudaGraphConditionalHandle h, counters *c)
{
    /* Every thread of the block reads; one writes. */
    int left = c->remaining - 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        c->remaining = left;
        c->iterations++;
        cudaGraphSetConditional(h, left > 0);
    }
}

__global__ void mark(counters *c, int which)
{
    if (threadIdx.x == 0) {
        c->which = which;
        c->hits++;
    }
}

__global__ void bad_set(unsigned long long h)
{
    cudaGraphSetConditional(h, 1);
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, void *func, void **args,
                                  unsigned threads = 32)
{
    cudaKernelNodeParams kp = {};
    kp.func = func;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(threads);
    kp.kernelParams = args;
    cudaGraphNode_t node = NULL;
    OK(cudaGraphAddKernelNode(&node, g, deps, n, &kp));
    return node;
}

static cudaGraphNodeParams cond_params(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                       unsigned size)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    return p;
}

static counters read(const counters *d)
{
    counters c = {};
    OK(cudaMemcpy(&c, d, sizeof c, cudaMemcpyDeviceToHost));
    return c;
}

static void launch(cudaGraphExec_t x)
{
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
}

/* if / if-else / switch: a kernel sets the value from *v, the node picks. */
static void choices(counters *c, int *v)
{
    static const struct { cudaGraphConditionalNodeType type; unsigned size; } kinds[] = {
        { cudaGraphCondTypeIf, 1 }, { cudaGraphCondTypeIf, 2 }, { cudaGraphCondTypeSwitch, 3 } };
    for (const auto &k : kinds) {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        cudaGraphConditionalHandle h;
        OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
        void *set_args[] = { &h, &v };
        cudaGraphNode_t set = add_kernel(g, NULL, 0, (void *)set_cond, set_args);
        cudaGraphNodeParams p = cond_params(h, k.type, k.size);
        cudaGraphNode_t cond;
        OK(cudaGraphAddNode(&cond, g, &set, NULL, 1, &p));
        EXPECT(p.conditional.phGraph_out != NULL);
        int which[3];
        void *mark_args[3][2];
        for (unsigned b = 0; b < k.size; b++) {
            which[b] = 10 + (int)b;
            mark_args[b][0] = &c;
            mark_args[b][1] = &which[b];
            add_kernel(p.conditional.phGraph_out[b], NULL, 0, (void *)mark, mark_args[b]);
        }
        cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(cond, &t));
        EXPECT(t == cudaGraphNodeTypeConditional);
        cudaGraphExec_t x;
        OK(cudaGraphInstantiate(&x, g, 0));
        for (int value = 0; value < 5; value++) {
            OK(cudaMemcpy(v, &value, sizeof value, cudaMemcpyHostToDevice));
            OK(cudaMemset(c, 0, sizeof *c));
            launch(x);
            counters got = read(c);
            int want;           /* the body that runs, -1 none */
            if (k.type == cudaGraphCondTypeSwitch)
                want = value < (int)k.size ? value : -1;
            else
                want = value ? 0 : k.size == 2 ? 1 : -1;
            EXPECT(got.hits == (want >= 0));
            EXPECT(got.which == (want >= 0 ? 10 + want : 0));
        }
        OK(cudaGraphExecDestroy(x));
        OK(cudaGraphDestroy(g));
    }
}

/* A graph of one conditional node on a handle of its own (*h), its
 * parameters (the bodies) in *p. */
static cudaGraph_t one_node_graph(cudaGraphConditionalNodeType type, unsigned dflt, unsigned flags,
                                  cudaGraphConditionalHandle *h, cudaGraphNodeParams *p)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphConditionalHandleCreate(h, g, dflt, flags));
    *p = cond_params(*h, type, 1);
    cudaGraphNode_t node;
    OK(cudaGraphAddNode(&node, g, NULL, NULL, 0, p));
    return g;
}

/* A graph of one while node, whose body counts down (count_down) and
 * whose handle's default opens the loop (or not) at every launch. */
static cudaGraph_t while_graph(counters *c, unsigned dflt, cudaGraphConditionalHandle *h)
{
    cudaGraphNodeParams p = {};
    cudaGraph_t g = one_node_graph(cudaGraphCondTypeWhile, dflt, cudaGraphCondAssignDefault, h, &p);
    void *args[] = { h, &c };
    add_kernel(p.conditional.phGraph_out[0], NULL, 0, (void *)count_down, args, 64);
    return g;
}

/* while: a count down from *start, the value set by each iteration. */
static void loops(counters *c)
{
    cudaGraphConditionalHandle h, h2;
    cudaGraph_t g = while_graph(c, 1, &h);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    for (int start : { 5, 1, 17 }) {
        counters init = { start, 0, 0, 0 };
        OK(cudaMemcpy(c, &init, sizeof init, cudaMemcpyHostToDevice));
        launch(x);
        counters got = read(c);
        EXPECT(got.iterations == start);
        EXPECT(got.remaining == 0);
    }
    /* One executable at a time. */
    cudaGraphExec_t second;
    EXPECT_MISUSE(cudaGraphInstantiate(&second, g, 0), cudaErrorInvalidValue);
    /* Updated from a graph of the same shape whose handle's default is 0:
     * the loop no longer runs. */
    cudaGraph_t g2 = while_graph(c, 0, &h2);
    cudaGraphExecUpdateResultInfo info;
    OK(cudaGraphExecUpdate(x, g2, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    counters init = { 3, 0, 0, 0 };
    OK(cudaMemcpy(c, &init, sizeof init, cudaMemcpyHostToDevice));
    launch(x);
    EXPECT(read(c).iterations == 0);
    /* Not from one whose node is another kind: a conditional's parameters
     * cannot change. */
    cudaGraphConditionalHandle h3;
    cudaGraphNodeParams p3 = {};
    cudaGraph_t g3 = one_node_graph(cudaGraphCondTypeIf, 0, 0, &h3, &p3);
    EXPECT_MISUSE(cudaGraphExecUpdate(x, g3, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorParametersChanged);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaGraphDestroy(g2));
    OK(cudaGraphDestroy(g3));
}

/* Without cudaGraphCondAssignDefault the value is the one the last launch
 * left: an if whose body clears it runs at the first launch only. */
static void persistent_value(counters *c)
{
    cudaGraphConditionalHandle h;
    cudaGraphNodeParams p = {};
    cudaGraph_t g = one_node_graph(cudaGraphCondTypeIf, 1, 0, &h, &p);
    OK(cudaMemset(c, 0, sizeof *c));
    counters one = { 1, 0, 0, 0 };         /* count_down from 1 sets the value to 0 */
    OK(cudaMemcpy(c, &one, sizeof one, cudaMemcpyHostToDevice));
    void *args[] = { &h, &c };
    add_kernel(p.conditional.phGraph_out[0], NULL, 0, (void *)count_down, args);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    for (int i = 0; i < 3; i++)
        launch(x);
    EXPECT(read(c).iterations == 1);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
}

/* A while whose body holds an if (on a second handle of the same graph),
 * the if's body captured from a stream into it. */
static void nested(counters *c)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle loop_h, if_h;
    OK(cudaGraphConditionalHandleCreate(&loop_h, g, 1, cudaGraphCondAssignDefault));
    OK(cudaGraphConditionalHandleCreate(&if_h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams lp = cond_params(loop_h, cudaGraphCondTypeWhile, 1);
    cudaGraphNode_t loop;
    OK(cudaGraphAddNode(&loop, g, NULL, NULL, 0, &lp));
    cudaGraph_t body = lp.conditional.phGraph_out[0];
    void *down_args[] = { &loop_h, &c };
    cudaGraphNode_t down = add_kernel(body, NULL, 0, (void *)count_down, down_args);
    cudaGraphNodeParams ip = cond_params(if_h, cudaGraphCondTypeIf, 1);
    cudaGraphNode_t inner;
    OK(cudaGraphAddNode(&inner, body, &down, NULL, 1, &ip));
    /* The if's body by capture: mark(c, 7). */
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamBeginCaptureToGraph(s, ip.conditional.phGraph_out[0], NULL, NULL, 0,
                                     cudaStreamCaptureModeRelaxed));
    cudaStreamCaptureStatus status;
    OK(cudaStreamIsCapturing(s, &status));
    EXPECT(status == cudaStreamCaptureStatusActive);
    mark<<<1, 32, 0, s>>>(c, 7);
    cudaGraph_t captured = NULL;
    OK(cudaStreamEndCapture(s, &captured));
    EXPECT(captured == ip.conditional.phGraph_out[0]);
    size_t nodes = 0;
    OK(cudaGraphGetNodes(captured, NULL, &nodes));
    EXPECT(nodes == 1);
    /* A capture into the program's graph may end without asking for the
     * graph (NVIDIA's graphConditionalNodes sample does); a plain capture
     * may not, and goes on. */
    cudaGraph_t own;
    OK(cudaGraphCreate(&own, 0));
    OK(cudaStreamBeginCaptureToGraph(s, own, NULL, NULL, 0, cudaStreamCaptureModeRelaxed));
    mark<<<1, 32, 0, s>>>(c, 7);
    OK(cudaStreamEndCapture(s, NULL));
    OK(cudaStreamIsCapturing(s, &status));
    EXPECT(status == cudaStreamCaptureStatusNone);
    OK(cudaGraphGetNodes(own, NULL, &nodes));
    EXPECT(nodes == 1);
    OK(cudaGraphDestroy(own));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    EXPECT_MISUSE(cudaStreamEndCapture(s, NULL), cudaErrorInvalidValue);
    OK(cudaStreamIsCapturing(s, &status));
    EXPECT(status == cudaStreamCaptureStatusActive);
    OK(cudaStreamEndCapture(s, &own));
    OK(cudaGraphDestroy(own));
    /* The DOT file shows the bodies as clusters inside one another. */
    char path[] = "/tmp/api_graph_cond_XXXXXX";
    int fd = mkstemp(path);
    EXPECT(fd >= 0);
    OK(cudaGraphDebugDotPrint(g, path, cudaGraphDebugDotFlagsConditionalNodeParams));
    std::string dot;
    if (FILE *f = fdopen(fd, "r")) {
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            dot.append(buf, got);
        fclose(f);
    }
    unlink(path);
    EXPECT(dot.find("CONDITIONAL\\nWHILE") != std::string::npos);
    EXPECT(dot.find("CONDITIONAL\\nIF") != std::string::npos);
    EXPECT(dot.find("body 0 of node 1") != std::string::npos);   /* the if's, in the loop's body */
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    counters init = { 4, 0, 0, 0 };
    OK(cudaMemcpy(c, &init, sizeof init, cudaMemcpyHostToDevice));
    launch(x);
    counters got = read(c);
    EXPECT(got.iterations == 4);
    EXPECT(got.hits == 4);
    EXPECT(got.which == 7);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaStreamDestroy(s));
}

/* A conditional node added in the middle of a stream capture, as CUDA's
 * own examples do: the capture's graph from cudaStreamGetCaptureInfo, the
 * node after the captured kernel, the capture continuing after the node. */
static void mid_capture(counters *c, int *v)
{
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status;
    cudaGraph_t g = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t n = 0;
    OK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, NULL, &n));
    cudaGraphConditionalHandle h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
    set_cond<<<1, 32, 0, s>>>(h, v);
    OK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, NULL, &n));
    EXPECT(n == 1);
    cudaGraphNodeParams p = cond_params(h, cudaGraphCondTypeIf, 1);
    cudaGraphNode_t node;
    OK(cudaGraphAddNode(&node, g, deps, NULL, n, &p));
    OK(cudaStreamUpdateCaptureDependencies(s, &node, NULL, 1, cudaStreamSetCaptureDependencies));
    int body_mark = 3, after_mark = 4;
    void *args[] = { &c, &body_mark };
    add_kernel(p.conditional.phGraph_out[0], NULL, 0, (void *)mark, args);
    mark<<<1, 32, 0, s>>>(c, after_mark);
    cudaGraph_t done = NULL;
    OK(cudaStreamEndCapture(s, &done));
    EXPECT(done == g);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, done, 0));
    for (int value : { 0, 1 }) {
        OK(cudaMemcpy(v, &value, sizeof value, cudaMemcpyHostToDevice));
        OK(cudaMemset(c, 0, sizeof *c));
        launch(x);
        counters got = read(c);
        EXPECT(got.hits == 1 + value);
        EXPECT(got.which == after_mark);
    }
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(done));
    OK(cudaStreamDestroy(s));
}

static void misuse(counters *c)
{
    cudaGraph_t g, other;
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphCreate(&other, 0));
    cudaGraphConditionalHandle h, foreign;
    EXPECT_MISUSE(cudaGraphConditionalHandleCreate(&h, g, 0, 2), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphConditionalHandleCreate(NULL, g, 0, 0), cudaErrorInvalidValue);
    OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    OK(cudaGraphConditionalHandleCreate(&foreign, other, 0, 0));
    cudaGraphNode_t node;
    cudaGraphNodeParams p = cond_params(h, cudaGraphCondTypeWhile, 2);
    EXPECT_MISUSE(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    p = cond_params(h, cudaGraphCondTypeIf, 3);
    EXPECT_MISUSE(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    p = cond_params(h, cudaGraphCondTypeSwitch, 0);
    EXPECT_MISUSE(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    p = cond_params(foreign, cudaGraphCondTypeIf, 1);      /* made for another graph */
    EXPECT_MISUSE(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    p = cond_params(12345, cudaGraphCondTypeIf, 1);
    EXPECT_MISUSE(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);

    /* A body holds no host node; the graph cannot be cloned. */
    p = cond_params(h, cudaGraphCondTypeIf, 1);
    OK(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p));
    cudaHostNodeParams hp = {};
    hp.fn = [](void *) {};
    cudaGraphNode_t host;
    EXPECT(cudaGraphAddHostNode(&host, p.conditional.phGraph_out[0], NULL, 0, &hp) != cudaSuccess);
    EXPECT(cudaGetLastError() != cudaSuccess);
    cudaGraph_t clone;
    EXPECT(cudaGraphClone(&clone, g) != cudaSuccess);
    EXPECT(cudaGetLastError() != cudaSuccess);
    /* A body graph is the node's, not the program's to destroy. */
    EXPECT_MISUSE(cudaGraphDestroy(p.conditional.phGraph_out[0]), cudaErrorInvalidValue);
    OK(cudaGraphDestroy(g));
    OK(cudaGraphDestroy(other));

    /* A while loop whose body cannot clear its value never ends: an error. */
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    p = cond_params(h, cudaGraphCondTypeWhile, 1);
    OK(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    EXPECT(cudaGraphLaunch(x, 0) != cudaSuccess);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    (void)c;
}

int main()
{
    test_name = "api_graph_cond";
    counters *c;
    int *v;
    OK(cudaMalloc(&c, sizeof *c));
    OK(cudaMalloc(&v, sizeof *v));
    choices(c, v);
    loops(c);
    persistent_value(c);
    nested(c);
    mid_capture(c, v);
    misuse(c);
    /* Last (the error ends the context): a kernel passing a made-up handle
     * fails. */
    bad_set<<<1, 1>>>(0x1234);
    cudaError_t launched = cudaGetLastError(), synced = cudaDeviceSynchronize();
    EXPECT(launched != cudaSuccess || synced != cudaSuccess);
    return finish();
}

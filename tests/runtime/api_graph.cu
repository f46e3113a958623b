/*
 * api_graph -- CUDA graphs: stream capture of kernels, async copies and
 * memsets, host functions, and a fork into a second stream joined back by
 * events; graphs built node by node with dependencies; instantiation,
 * launch (results checked against running the same work directly), kernel
 * node and executable-graph updates, the graph queries; and misuse: NULL
 * and destroyed handles, synchronous calls during capture
 * (cudaErrorStreamCaptureUnsupported, then cudaErrorStreamCaptureInvalidated),
 * the legacy stream during capture, unjoined forks, ending capture in the
 * wrong stream, cycles.
 */
#include "rt_test.h"

#include <cuda_runtime.h>
#include <vector>

__global__ void scale_add(float *p, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * a + b;
}

__global__ void add_from(float *dst, const float *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] += src[i];
}

/* A kernel node's parameters: n threads in blocks of 64. */
static cudaKernelNodeParams node_params(void *func, int n, void **args)
{
    cudaKernelNodeParams kp = {};
    kp.func = func;
    kp.gridDim = dim3(n / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    return kp;
}

static void CUDART_CB bump(void *user)
{
    ++*(int *)user;
}

/* The order host nodes ran in, to check dependencies are respected. */
struct trace {
    int log[8];
    int n;
};
struct trace_step {
    trace *t;
    int id;
};

static void CUDART_CB record_step(void *user)
{
    trace_step *s = (trace_step *)user;
    s->t->log[s->t->n++] = s->id;
}

static const int N = 1000;

/* What the captured sequence computes, on the host. */
static void expect_sequence(const std::vector<float> &in, std::vector<float> &out)
{
    for (int i = 0; i < N; i++) {
        float x = 0.0f;                 /* memset to 0 */
        x = in[i];                      /* copy in */
        x = x * 2.0f + 1.0f;            /* scale_add */
        float y = in[i] * 3.0f;         /* the forked stream's work */
        out[i] = x + y;                 /* joined */
    }
}

static void capture(void)
{
    std::vector<float> h(N), want(N), got(N, -1.0f);
    for (int i = 0; i < N; i++)
        h[i] = (float)i * 0.5f;
    expect_sequence(h, want);
    float *a, *b;
    OK(cudaMalloc(&a, N * sizeof(float)));
    OK(cudaMalloc(&b, N * sizeof(float)));
    cudaStream_t s, side;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    int host_calls = 0;

    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    OK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    unsigned long long id = 0;
    cudaGraph_t during = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 99;
    OK(cudaStreamGetCaptureInfo(s, &st, &id, &during, &deps, NULL, &ndeps));
    EXPECT(st == cudaStreamCaptureStatusActive && id != 0 && during != NULL && ndeps == 0);
    EXPECT_MISUSE(cudaGraphDestroy(during), cudaErrorIllegalState);     /* the capture's until it ends */
    OK(cudaMemsetAsync(a, 0, N * sizeof(float), s));
    OK(cudaMemcpyAsync(a, h.data(), N * sizeof(float), cudaMemcpyHostToDevice, s));
    /* Fork: the side stream joins the capture through the event. */
    OK(cudaEventRecord(fork, s));
    OK(cudaStreamWaitEvent(side, fork, 0));
    OK(cudaStreamIsCapturing(side, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    OK(cudaMemcpyAsync(b, a, N * sizeof(float), cudaMemcpyDeviceToDevice, side));
    scale_add<<<(N + 127) / 128, 128, 0, side>>>(b, N, 3.0f, 0.0f);
    OK(cudaGetLastError());
    scale_add<<<(N + 127) / 128, 128, 0, s>>>(a, N, 2.0f, 1.0f);
    OK(cudaGetLastError());
    OK(cudaEventRecord(join, side));
    OK(cudaStreamWaitEvent(s, join, 0));
    add_from<<<(N + 127) / 128, 128, 0, s>>>(a, b, N);
    OK(cudaLaunchHostFunc(s, bump, &host_calls));
    OK(cudaMemcpyAsync(got.data(), a, N * sizeof(float), cudaMemcpyDeviceToHost, s));
    /* Nothing ran: the work was recorded. */
    EXPECT(host_calls == 0 && got[1] == -1.0f);
    /* An event recorded in the capture stands for work not run yet. */
    EXPECT_MISUSE(cudaEventQuery(join), cudaErrorCapturedEvent);
    cudaGraph_t g = NULL;
    OK(cudaStreamEndCapture(s, &g));
    EXPECT(g != NULL && g == during);
    OK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    OK(cudaStreamIsCapturing(side, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    size_t nnodes = 0, nroots = 0;
    OK(cudaGraphGetNodes(g, NULL, &nnodes));
    EXPECT(nnodes == 8);
    OK(cudaGraphGetRootNodes(g, NULL, &nroots));
    EXPECT(nroots == 1);
    cudaGraphNode_t root;
    nroots = 1;
    OK(cudaGraphGetRootNodes(g, &root, &nroots));
    cudaGraphNodeType type;
    OK(cudaGraphNodeGetType(root, &type));
    EXPECT(type == cudaGraphNodeTypeMemset);
    size_t nedges = 0;
    OK(cudaGraphGetEdges(g, NULL, NULL, NULL, &nedges));
    EXPECT(nedges == 8);        /* memset-copy, copy-d2d, copy-k, d2d-k', k'-add, k-add, add-host, host-copy */

    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    for (int round = 0; round < 2; round++) {
        std::fill(got.begin(), got.end(), -1.0f);
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        EXPECT(host_calls == round + 1);
        bool same = true;
        for (int i = 0; i < N; i++)
            same = same && got[i] == want[i];
        EXPECT(same);
    }
    /* The same work issued directly gives the same bytes. */
    std::vector<float> direct(N);
    OK(cudaMemset(a, 0, N * sizeof(float)));
    OK(cudaMemcpy(a, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    OK(cudaMemcpy(b, a, N * sizeof(float), cudaMemcpyDeviceToDevice));
    scale_add<<<(N + 127) / 128, 128>>>(b, N, 3.0f, 0.0f);
    scale_add<<<(N + 127) / 128, 128>>>(a, N, 2.0f, 1.0f);
    add_from<<<(N + 127) / 128, 128>>>(a, b, N);
    OK(cudaMemcpy(direct.data(), a, N * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(std::memcmp(direct.data(), got.data(), N * sizeof(float)) == 0);

    /* Destroying the graph leaves its executable graph working. */
    OK(cudaGraphDestroy(g));
    EXPECT_MISUSE(cudaGraphDestroy(g), cudaErrorInvalidValue);
    OK(cudaGraphLaunch(x, 0));
    OK(cudaDeviceSynchronize());
    EXPECT(host_calls == 3);
    OK(cudaGraphExecDestroy(x));
    EXPECT_MISUSE(cudaGraphLaunch(x, s), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphExecDestroy(x), cudaErrorInvalidValue);

    OK(cudaEventDestroy(fork));
    OK(cudaEventDestroy(join));
    OK(cudaStreamDestroy(side));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(a));
    OK(cudaFree(b));
}

static void capture_misuse(void)
{
    float *a;
    OK(cudaMalloc(&a, N * sizeof(float)));
    cudaStream_t s, s2;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreate(&s2));
    cudaGraph_t g = (cudaGraph_t)&g;

    /* The legacy stream cannot capture; bad modes; NULL out pointers. */
    EXPECT_MISUSE(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamBeginCapture(s, (cudaStreamCaptureMode)7), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorIllegalState);        /* not capturing */
    EXPECT_MISUSE(cudaStreamIsCapturing(s, NULL), cudaErrorInvalidValue);

    /* A synchronous call during capture is refused and invalidates it. */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_MISUSE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    scale_add<<<1, 32, 0, s>>>(a, 32, 1.0f, 1.0f);
    OK(cudaGetLastError());
    float h[4] = {0};
    EXPECT_MISUSE(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice), cudaErrorStreamCaptureUnsupported);
    cudaStreamCaptureStatus st;
    OK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusInvalidated);
    EXPECT_MISUSE(cudaMemsetAsync(a, 0, 16, s), cudaErrorStreamCaptureInvalidated);
    scale_add<<<1, 32, 0, s>>>(a, 32, 1.0f, 1.0f);
    EXPECT_ERR(cudaGetLastError(), cudaErrorStreamCaptureInvalidated);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    EXPECT(g == NULL);
    OK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);

    /* The same for a device synchronisation, a stream synchronisation,
     * cudaMalloc; but not in relaxed mode. */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    EXPECT_MISUSE(cudaDeviceSynchronize(), cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_MISUSE(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    float *tmp = NULL;
    EXPECT_MISUSE(cudaMalloc(&tmp, 64), cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    OK(cudaMalloc(&tmp, 64));
    OK(cudaFree(tmp));
    OK(cudaStreamEndCapture(s, &g));
    size_t n = 9;
    OK(cudaGraphGetNodes(g, NULL, &n));
    EXPECT(n == 0);
    OK(cudaGraphDestroy(g));
    /* The thread's mode decides too: relaxed, it may call cudaMalloc. */
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    OK(cudaThreadExchangeStreamCaptureMode(&mode));
    EXPECT(mode == cudaStreamCaptureModeGlobal);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMalloc(&tmp, 64));
    OK(cudaFree(tmp));
    OK(cudaStreamEndCapture(s, &g));
    OK(cudaGraphDestroy(g));
    OK(cudaThreadExchangeStreamCaptureMode(&mode));
    EXPECT(mode == cudaStreamCaptureModeRelaxed);
    EXPECT_MISUSE(cudaThreadExchangeStreamCaptureMode(NULL), cudaErrorInvalidValue);

    /* The per-thread default stream captures too. */
    OK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(a, 0, 16, cudaStreamPerThread));
    OK(cudaStreamIsCapturing(cudaStreamPerThread, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    OK(cudaStreamEndCapture(cudaStreamPerThread, &g));
    n = 0;
    OK(cudaGraphGetNodes(g, NULL, &n));
    EXPECT(n == 1);
    OK(cudaGraphDestroy(g));

    /* The legacy stream while a blocking stream captures. */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    scale_add<<<1, 32>>>(a, 32, 1.0f, 1.0f);
    EXPECT_ERR(cudaGetLastError(), cudaErrorStreamCaptureImplicit);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);

    /* A fork not joined back; ending in the forked stream. */
    cudaEvent_t e;
    OK(cudaEventCreate(&e));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaEventRecord(e, s));
    OK(cudaStreamWaitEvent(s2, e, 0));
    scale_add<<<1, 32, 0, s2>>>(a, 32, 1.0f, 1.0f);
    OK(cudaGetLastError());
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureUnjoined);
    EXPECT(g == NULL);
    OK(cudaStreamIsCapturing(s2, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaEventRecord(e, s));
    OK(cudaStreamWaitEvent(s2, e, 0));
    EXPECT_MISUSE(cudaStreamEndCapture(s2, &g), cudaErrorStreamCaptureUnmatched);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    /* Callbacks cannot be captured (host functions can). */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_MISUSE(cudaStreamAddCallback(s, [](cudaStream_t, cudaError_t, void *) {}, NULL, 0),
                  cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    /* A stream destroyed mid-capture takes the capture with it. */
    cudaStream_t s3;
    OK(cudaStreamCreate(&s3));
    OK(cudaStreamBeginCapture(s3, cudaStreamCaptureModeGlobal));
    OK(cudaStreamDestroy(s3));
    OK(cudaMemset(a, 0, 16));

    OK(cudaEventDestroy(e));
    OK(cudaStreamDestroy(s));
    OK(cudaStreamDestroy(s2));
    OK(cudaFree(a));
}

static void explicit_graph(void)
{
    int *d;
    const int n = 256;
    OK(cudaMalloc(&d, n * sizeof(int) * 2));
    float *f;
    OK(cudaMalloc(&f, n * sizeof(float)));
    std::vector<int> h(n * 2, 7);
    cudaGraph_t g;
    EXPECT_MISUSE(cudaGraphCreate(NULL, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphCreate(&g, 1), cudaErrorInvalidValue);
    OK(cudaGraphCreate(&g, 0));

    /* memset(d) -> kernel(f) -> host; memcpy1D(d2h) after memset;
     * empty joins both; host node last. */
    cudaMemsetParams mp = {};
    mp.dst = d;
    mp.value = 0x01020304;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    cudaGraphNode_t ms, kn, cp, em, hn, h1, h2, h3;
    OK(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &mp));
    float scale = 4.0f, bias = 0.5f;
    int count = n;
    void *args[] = { &f, &count, &scale, &bias };
    cudaKernelNodeParams kp = node_params((void *)scale_add, n, args);
    OK(cudaGraphAddKernelNode(&kn, g, &ms, 1, &kp));
    scale = 100.0f;                     /* the node copied the arguments */
    OK(cudaGraphAddMemcpyNode1D(&cp, g, &ms, 1, h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    cudaGraphNode_t both[] = { kn, cp };
    OK(cudaGraphAddEmptyNode(&em, g, both, 2));
    trace t = {};
    trace_step st1 = { &t, 1 }, st2 = { &t, 2 }, st3 = { &t, 3 };
    cudaHostNodeParams hp1 = { record_step, &st1 }, hp2 = { record_step, &st2 }, hp3 = { record_step, &st3 };
    OK(cudaGraphAddHostNode(&hn, g, &em, 1, &hp1));
    /* Three host nodes made in the order 3, 2, 1 of their dependencies:
     * h3 depends on h2, which depends on h1 (edges added afterwards). */
    OK(cudaGraphAddHostNode(&h3, g, NULL, 0, &hp3));
    OK(cudaGraphAddHostNode(&h2, g, NULL, 0, &hp2));
    OK(cudaGraphAddHostNode(&h1, g, NULL, 0, &hp1));
    cudaGraphNode_t from[] = { h2, h1 }, to[] = { h3, h2 };
    OK(cudaGraphAddDependencies(g, from, to, NULL, 2));
    EXPECT_MISUSE(cudaGraphAddDependencies(g, from, to, NULL, 2), cudaErrorInvalidValue);   /* already there */
    size_t nd = 0;
    OK(cudaGraphNodeGetDependencies(h3, NULL, NULL, &nd));
    EXPECT(nd == 1);
    cudaGraphNode_t dep = NULL;
    OK(cudaGraphNodeGetDependencies(h3, &dep, NULL, &nd));
    EXPECT(dep == h2);
    OK(cudaGraphNodeGetDependentNodes(ms, NULL, NULL, &nd));
    EXPECT(nd == 2);
    size_t nroots = 0;
    OK(cudaGraphGetRootNodes(g, NULL, &nroots));
    EXPECT(nroots == 2);                /* ms and h1 */
    cudaGraphNode_t nodes[10];
    size_t nn = 10;
    OK(cudaGraphGetNodes(g, nodes, &nn));
    EXPECT(nn == 8 && nodes[0] == ms && nodes[7] == h1 && nodes[8] == NULL);
    cudaKernelNodeParams back = {};
    OK(cudaGraphKernelNodeGetParams(kn, &back));
    EXPECT(back.func == (void *)scale_add && back.gridDim.x == n / 64 && back.blockDim.x == 64 &&
           *(float *)back.kernelParams[2] == 4.0f);
    cudaMemsetParams mback = {};
    OK(cudaGraphMemsetNodeGetParams(ms, &mback));
    EXPECT(mback.value == 0x01020304 && mback.width == (size_t)n);
    cudaMemcpy3DParms cback = {};
    OK(cudaGraphMemcpyNodeGetParams(cp, &cback));
    EXPECT(cback.dstPtr.ptr == h.data() && cback.extent.width == n * sizeof(int) && cback.kind == cudaMemcpyDeviceToHost);

    std::vector<float> fin(n, 1.0f), fout(n);
    OK(cudaMemcpy(f, fin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiateWithFlags(&x, g, 0));
    unsigned long long xf = 9;
    OK(cudaGraphExecGetFlags(x, &xf));
    EXPECT(xf == 0);
    OK(cudaGraphUpload(x, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    OK(cudaMemcpy(fout.data(), f, n * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(fout[0] == 4.5f && fout[n - 1] == 4.5f);
    EXPECT(h[0] == 0x01020304 && h[n - 1] == 0x01020304 && h[n] == 7);
    /* Host nodes ran after their dependencies: h1, h2, h3 in that order,
     * and hn (also id 1) somewhere. */
    EXPECT(t.n == 4);
    int pos1 = -1, pos2 = -1, pos3 = -1;
    for (int i = 0; i < t.n; i++) {
        if (t.log[i] == 2)
            pos2 = i;
        if (t.log[i] == 3)
            pos3 = i;
        if (t.log[i] == 1 && pos1 < 0)
            pos1 = i;
    }
    EXPECT(pos1 >= 0 && pos1 < pos2 && pos2 < pos3);

    /* New kernel parameters for the executable graph only. */
    float scale2 = 2.0f, bias2 = 0.0f;
    void *args2[] = { &f, &count, &scale2, &bias2 };
    kp.kernelParams = args2;
    OK(cudaGraphExecKernelNodeSetParams(x, kn, &kp));
    t.n = 0;
    OK(cudaGraphLaunch(x, 0));
    OK(cudaMemcpy(fout.data(), f, n * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(fout[0] == 9.0f);
    EXPECT_MISUSE(cudaGraphExecKernelNodeSetParams(x, ms, &kp), cudaErrorInvalidValue);    /* not a kernel node */
    /* The graph's own node changes, then cudaGraphExecUpdate carries it over. */
    float scale3 = 1.0f, bias3 = -1.0f;
    void *args3[] = { &f, &count, &scale3, &bias3 };
    kp.kernelParams = args3;
    OK(cudaGraphKernelNodeSetParams(kn, &kp));
    cudaGraphExecUpdateResultInfo info;
    OK(cudaGraphExecUpdate(x, g, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    OK(cudaGraphLaunch(x, 0));
    OK(cudaMemcpy(fout.data(), f, n * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(fout[0] == 8.0f);
    /* A different topology cannot update it. */
    cudaGraph_t other;
    OK(cudaGraphCreate(&other, 0));
    cudaGraphNode_t lone;
    OK(cudaGraphAddEmptyNode(&lone, other, NULL, 0));
    EXPECT_MISUSE(cudaGraphExecUpdate(x, other, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);

    /* Misuse: nodes of another graph, NULL and made-up handles, a cycle. */
    cudaGraphNode_t bad;
    EXPECT_MISUSE(cudaGraphAddEmptyNode(&bad, g, &lone, 1), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddEmptyNode(&bad, NULL, NULL, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddEmptyNode(NULL, g, NULL, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddEmptyNode(&bad, (cudaGraph_t)&t, NULL, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddKernelNode(&bad, g, NULL, 0, NULL), cudaErrorInvalidValue);
    kp.func = (void *)&t;
    EXPECT_MISUSE(cudaGraphAddKernelNode(&bad, g, NULL, 0, &kp), cudaErrorInvalidDeviceFunction);
    kp.func = (void *)scale_add;
    kp.blockDim = dim3(4096);
    EXPECT_MISUSE(cudaGraphAddKernelNode(&bad, g, NULL, 0, &kp), cudaErrorInvalidConfiguration);
    cudaHostNodeParams nofn = { NULL, NULL };
    EXPECT_MISUSE(cudaGraphAddHostNode(&bad, g, NULL, 0, &nofn), cudaErrorInvalidValue);
    mp.elementSize = 3;
    EXPECT_MISUSE(cudaGraphAddMemsetNode(&bad, g, NULL, 0, &mp), cudaErrorInvalidValue);
    cudaGraphNodeType type;
    EXPECT_MISUSE(cudaGraphNodeGetType(NULL, &type), cudaErrorInvalidValue);
    OK(cudaGraphNodeGetType(em, &type));
    EXPECT(type == cudaGraphNodeTypeEmpty);
    cudaGraphNode_t back_edge_from[] = { h3 }, back_edge_to[] = { h1 };
    OK(cudaGraphAddDependencies(g, back_edge_from, back_edge_to, NULL, 1));
    cudaGraphExec_t cyc;
    EXPECT_MISUSE(cudaGraphInstantiate(&cyc, g, 0), cudaErrorInvalidValue);
    OK(cudaGraphRemoveDependencies(g, back_edge_from, back_edge_to, NULL, 1));
    OK(cudaGraphDestroyNode(h3));
    EXPECT_MISUSE(cudaGraphDestroyNode(h3), cudaErrorInvalidValue);
    OK(cudaGraphGetNodes(g, NULL, &nn));
    EXPECT(nn == 7);
    OK(cudaGraphInstantiate(&cyc, g, 0));
    OK(cudaGraphExecDestroy(cyc));
    EXPECT_MISUSE(cudaGraphInstantiate(NULL, g, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphInstantiate(&cyc, NULL, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphLaunch(NULL, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphLaunch(x, (cudaStream_t)&t), cudaErrorInvalidResourceHandle);

    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(other));
    OK(cudaGraphDestroy(g));
    EXPECT_MISUSE(cudaGraphKernelNodeGetParams(kn, &back), cudaErrorInvalidValue);   /* went with its graph */
    OK(cudaFree(d));
    OK(cudaFree(f));
}

/* cudaGraphClone: a copy that runs as the original would, after the
 * original is gone, with an edge added from a later node to an earlier
 * one; cudaGraphNodeFindInClone maps the nodes. */
static void clone_graph(void)
{
    const int n = 128;
    float *f, *g2;
    OK(cudaMalloc(&f, n * sizeof(float)));
    OK(cudaMalloc(&g2, n * sizeof(float)));
    std::vector<float> ones(n, 1.0f), twos(n, 2.0f), out(n);
    cudaGraph_t g, c;
    OK(cudaGraphCreate(&g, 0));
    float a = 3.0f, b = 1.0f;
    int count = n;
    void *args[] = { &f, &count, &a, &b }, *aargs[] = { &f, &g2, &count };
    cudaKernelNodeParams kp = node_params((void *)scale_add, n, args), ap = node_params((void *)add_from, n, aargs);
    cudaGraphNode_t kn, up, up2, add;
    OK(cudaGraphAddKernelNode(&kn, g, NULL, 0, &kp));             /* f = f * 3 + 1 */
    OK(cudaGraphAddKernelNode(&add, g, &kn, 1, &ap));             /* f += g2 */
    /* Made last, run first: the copies in, edges added afterwards. */
    OK(cudaGraphAddMemcpyNode1D(&up, g, NULL, 0, f, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    OK(cudaGraphAddMemcpyNode1D(&up2, g, NULL, 0, g2, twos.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    OK(cudaGraphAddDependencies(g, &up, &kn, NULL, 1));
    OK(cudaGraphAddDependencies(g, &up2, &add, NULL, 1));
    OK(cudaGraphClone(&c, g));
    cudaGraphNode_t found = NULL;
    OK(cudaGraphNodeFindInClone(&found, add, c));
    size_t nodes = 0, deps = 0;
    OK(cudaGraphGetNodes(c, NULL, &nodes));
    EXPECT(nodes == 4);
    OK(cudaGraphNodeGetDependencies(found, NULL, NULL, &deps));
    EXPECT(deps == 2);
    EXPECT_MISUSE(cudaGraphNodeFindInClone(&found, add, g), cudaErrorInvalidValue);   /* not a clone of g */
    OK(cudaGraphDestroy(g));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, c, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaStreamSynchronize(0));
    OK(cudaMemcpy(out.data(), f, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool right = true;
    for (int i = 0; i < n; i++)
        right = right && out[i] == 1.0f * 3 + 1 + 2;
    EXPECT(right);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(c));
    OK(cudaFree(f));
    OK(cudaFree(g2));
}

int main()
{
    test_name = "api_graph";
    clone_graph();
    capture();
    capture_misuse();
    explicit_graph();
    return finish();
}

/*
 * api_graph_mem -- graph memory nodes: allocations a graph makes at an
 * address fixed when the node is made, freed in the same graph, outside it
 * (cudaFree, cudaFreeAsync, another graph's free node) or by the next launch
 * with cudaGraphInstantiateFlagAutoFreeOnLaunch; captured cudaMallocAsync
 * and cudaFreeAsync; the graph-memory attributes; a graph with memory nodes
 * moved into a child node; and misuse, with the errors CUDA documents: a
 * relaunch with its allocation unfreed, double frees, a second executable,
 * cloning, deleting nodes.
 */
#include "rt_test.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <vector>

static const int N = 256;

__global__ void fill(int *p, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        p[i] = v + i;
}

__global__ void add_into(int *out, const int *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        out[i] += in[i];
}

static cudaMemAllocNodeParams alloc_params(size_t bytes)
{
    cudaMemAllocNodeParams p = {};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

static cudaGraphNode_t add_fill(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, int **p, int *v)
{
    void *args[] = { p, v };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill;
    kp.gridDim = dim3(N / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    cudaGraphNode_t node = NULL;
    OK(cudaGraphAddKernelNode(&node, g, deps, n, &kp));
    return node;
}

static bool holds(const int *host, int v)
{
    for (int i = 0; i < N; i++)
        if (host[i] != v + i)
            return false;
    return true;
}

static unsigned long long attr(cudaGraphMemAttributeType a)
{
    unsigned long long v = ~0ull;
    OK(cudaDeviceGetGraphMemAttribute(0, a, &v));
    return v;
}

/* Allocate, fill, copy out, free: launched three times at one address. */
static void alloc_and_free(void)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = alloc_params(N * sizeof(int));
    cudaGraphNode_t alloc, fillk, copy, freen;
    OK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    EXPECT(ap.dptr != NULL);
    int *p = (int *)ap.dptr;
    int v = 5;
    fillk = add_fill(g, &alloc, 1, &p, &v);
    std::vector<int> host(N);
    OK(cudaGraphAddMemcpyNode1D(&copy, g, &fillk, 1, host.data(), p, N * sizeof(int), cudaMemcpyDeviceToHost));
    OK(cudaGraphAddMemFreeNode(&freen, g, &copy, 1, p));
    cudaMemAllocNodeParams back = {};
    OK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    EXPECT(back.dptr == p && back.bytesize == N * sizeof(int));
    void *freed = NULL;
    OK(cudaGraphMemFreeNodeGetParams(freen, &freed));
    EXPECT(freed == p);
    cudaGraphNodeType t;
    OK(cudaGraphNodeGetType(alloc, &t));
    EXPECT(t == cudaGraphNodeTypeMemAlloc);

    unsigned long long zero = 0;
    OK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    /* One executable graph at a time. */
    cudaGraphExec_t second;
    EXPECT_MISUSE(cudaGraphInstantiate(&second, g, 0), cudaErrorInvalidValue);
    for (int i = 0; i < 3; i++) {
        std::fill(host.begin(), host.end(), 0);
        OK(cudaGraphLaunch(x, 0));
        OK(cudaStreamSynchronize(0));
        EXPECT(holds(host.data(), 5));
    }
    EXPECT(attr(cudaGraphMemAttrUsedMemCurrent) == 0);
    EXPECT(attr(cudaGraphMemAttrUsedMemHigh) >= N * sizeof(int));
    /* Freed by its graph: its addresses hold nothing now. */
    EXPECT_MISUSE(cudaMemcpy(host.data(), p, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT(attr(cudaGraphMemAttrReservedMemCurrent) >= N * sizeof(int));
    EXPECT_MISUSE(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero), cudaErrorInvalidValue);

    /* Freed in its own graph: not outside it, nor a second time. */
    EXPECT_MISUSE(cudaFree(p), cudaErrorInvalidValue);
    cudaGraphNode_t again;
    EXPECT_MISUSE(cudaGraphAddMemFreeNode(&again, g, &freen, 1, p), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaGraphAddMemFreeNode(&again, g, NULL, 0, &zero), cudaErrorInvalidValue);
    /* Nodes of a graph with memory nodes cannot be deleted, nor the graph cloned. */
    EXPECT(cudaGraphDestroyNode(copy) != cudaSuccess);
    cudaGetLastError();
    cudaGraph_t clone;
    EXPECT(cudaGraphClone(&clone, g) != cudaSuccess);
    cudaGetLastError();

    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphInstantiate(&x, g, 0));     /* the first one gone: allowed */
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
}

/* An allocation that outlives its launch: readable after it, freed by
 * cudaFree or another graph's free node before the next launch, or by the
 * next launch itself with the auto-free flag. */
static void outliving(void)
{
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = alloc_params(N * sizeof(int));
    cudaGraphNode_t alloc;
    OK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    int *p = (int *)ap.dptr;
    int v = 9;
    add_fill(g, &alloc, 1, &p, &v);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, 0));
    std::vector<int> host(N);
    OK(cudaMemcpy(host.data(), p, N * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(holds(host.data(), 9));
    EXPECT(attr(cudaGraphMemAttrUsedMemCurrent) == N * sizeof(int));
    /* Relaunched unfreed: refused. */
    EXPECT_MISUSE(cudaGraphLaunch(x, 0), cudaErrorInvalidValue);
    OK(cudaFree(p));
    EXPECT_MISUSE(cudaFree(p), cudaErrorInvalidValue);            /* freed already */
    EXPECT(attr(cudaGraphMemAttrUsedMemCurrent) == 0);
    OK(cudaGraphLaunch(x, 0));

    /* Freed by a free node of another graph. */
    cudaGraph_t frees;
    OK(cudaGraphCreate(&frees, 0));
    cudaGraphNode_t f;
    OK(cudaGraphAddMemFreeNode(&f, frees, NULL, 0, p));
    cudaGraphExec_t fx;
    OK(cudaGraphInstantiate(&fx, frees, 0));
    OK(cudaGraphLaunch(fx, 0));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaGraphLaunch(fx, 0));
    OK(cudaGraphExecDestroy(fx));
    OK(cudaGraphDestroy(frees));
    OK(cudaGraphExecDestroy(x));

    /* With the auto-free flag each launch frees the last one's. */
    OK(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    for (int i = 0; i < 3; i++)
        OK(cudaGraphLaunch(x, 0));
    OK(cudaFreeAsync(p, 0));
    OK(cudaStreamSynchronize(0));
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
}

/* cudaMallocAsync and cudaFreeAsync captured: an allocation and a free
 * node; the graph moved into a child node runs the same. */
static void captured(void)
{
    int *out;
    OK(cudaMalloc(&out, N * sizeof(int)));
    OK(cudaMemset(out, 0, N * sizeof(int)));
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *tmp = NULL;
    OK(cudaMallocAsync(&tmp, N * sizeof(int), s));
    EXPECT(tmp != NULL);
    fill<<<N / 64, 64, 0, s>>>(tmp, 1);
    add_into<<<N / 64, 64, 0, s>>>(out, tmp);
    OK(cudaFreeAsync(tmp, s));
    cudaGraph_t g;
    OK(cudaStreamEndCapture(s, &g));
    cudaGraphNode_t nodes[8];
    size_t n = 8;
    OK(cudaGraphGetNodes(g, nodes, &n));
    int allocs = 0, frees = 0;
    for (size_t i = 0; i < n; i++) {
        cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(nodes[i], &t));
        allocs += t == cudaGraphNodeTypeMemAlloc;
        frees += t == cudaGraphNodeTypeMemFree;
    }
    EXPECT(n == 4 && allocs == 1 && frees == 1);

    /* Moved (not copied) into a parent's child node. */
    cudaGraph_t parent;
    OK(cudaGraphCreate(&parent, 0));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeGraph;
    cp.graph.graph = g;
    cp.graph.ownership = cudaGraphChildGraphOwnershipClone;
    cudaGraphNode_t child;
    EXPECT(cudaGraphAddNode(&child, parent, NULL, NULL, 0, &cp) != cudaSuccess);   /* a copy: refused */
    cudaGetLastError();
    cp.graph.ownership = cudaGraphChildGraphOwnershipMove;
    OK(cudaGraphAddNode(&child, parent, NULL, NULL, 0, &cp));
    EXPECT_MISUSE(cudaGraphDestroy(g), cudaErrorInvalidValue);     /* the parent's now */
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, parent, 0));
    for (int i = 0; i < 3; i++)
        OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    std::vector<int> host(N);
    OK(cudaMemcpy(host.data(), out, N * sizeof(int), cudaMemcpyDeviceToHost));
    bool right = true;
    for (int i = 0; i < N; i++)
        right = right && host[i] == 3 * (1 + i);
    EXPECT(right);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(parent));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(out));
}

int main()
{
    test_name = "api_graph_mem";
    alloc_and_free();
    outliving();
    captured();
    EXPECT(attr(cudaGraphMemAttrUsedMemCurrent) == 0);
    return finish();
}

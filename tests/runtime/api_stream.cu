/*
 * api_stream -- streams, events, callbacks and host functions, the default
 * streams, several host threads at once; and misuse: destroyed or made-up
 * stream and event handles (cudaErrorInvalidResourceHandle), bad flags,
 * elapsed time without timing.  Built a second time with the per-thread
 * default stream (nvcc --default-stream per-thread), which sends the same
 * calls through the _ptds/_ptsz entry points.
 */
#include "rt_test.h"

#include <cuda_runtime.h>
#include <thread>
#include <vector>

__global__ void add(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
}

struct cb_state {
    int calls;
    cudaError_t status;
    int seen;                   /* a value the work before the callback wrote */
    const int *host;
};

static void CUDART_CB on_done(cudaStream_t, cudaError_t status, void *user)
{
    cb_state *s = (cb_state *)user;
    s->calls++;
    s->status = status;
    s->seen = s->host ? s->host[0] : -1;
}

static void CUDART_CB host_fn(void *user)
{
    ++*(int *)user;
}

static void streams(void)
{
    cudaStream_t s1, s2, s3;
    OK(cudaStreamCreate(&s1));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithPriority(&s3, cudaStreamDefault, -100));
    unsigned flags = 9;
    int prio = 9;
    OK(cudaStreamGetFlags(s2, &flags));
    EXPECT(flags == cudaStreamNonBlocking);
    OK(cudaStreamGetPriority(s3, &prio));
    int lo, hi;
    OK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    EXPECT(prio == hi);                         /* clamped into the range */
    OK(cudaStreamGetPriority(0, &prio));
    EXPECT(prio == 0);
    unsigned long long id1 = 0, id2 = 0;
    OK(cudaStreamGetId(s1, &id1));
    OK(cudaStreamGetId(s2, &id2));
    EXPECT(id1 != id2);
    int dev = -1;
    OK(cudaStreamGetDevice(s1, &dev));
    EXPECT(dev == 0);
    cudaStreamCaptureStatus cs;
    OK(cudaStreamIsCapturing(s1, &cs));
    EXPECT(cs == cudaStreamCaptureStatusNone);
    EXPECT_MISUSE(cudaStreamCreateWithFlags(&s1, 0x40), cudaErrorInvalidValue);

    /* Work in several streams, including the default ones. */
    const int n = 4096;
    int *h = NULL, *d = NULL;
    OK(cudaMallocHost((void **)&h, n * sizeof(int)));
    OK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        h[i] = i;
    OK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s1));
    add<<<n / 256, 256, 0, s1>>>(d, n, 1);
    add<<<n / 256, 256, 0, s2>>>(d, n, 10);
    add<<<n / 256, 256, 0, cudaStreamPerThread>>>(d, n, 100);
    add<<<n / 256, 256, 0, cudaStreamLegacy>>>(d, n, 1000);
    OK(cudaGetLastError());
    OK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s3));
    OK(cudaStreamSynchronize(s3));
    EXPECT(h[0] == 1111 && h[n - 1] == n - 1 + 1111);
    OK(cudaStreamQuery(s1));
    OK(cudaStreamQuery(0));
    OK(cudaStreamSynchronize(cudaStreamPerThread));

    /* A callback runs after the work before it, and sees its result. */
    cb_state st = { 0, cudaErrorUnknown, 0, h };
    add<<<n / 256, 256, 0, s1>>>(d, n, 1);
    OK(cudaMemcpyAsync(h, d, sizeof(int), cudaMemcpyDeviceToHost, s1));
    OK(cudaStreamAddCallback(s1, on_done, &st, 0));
    OK(cudaStreamSynchronize(s1));
    EXPECT(st.calls == 1 && st.status == cudaSuccess && st.seen == 1112);
    EXPECT_MISUSE(cudaStreamAddCallback(s1, on_done, &st, 1), cudaErrorInvalidValue);
    int count = 0;
    OK(cudaLaunchHostFunc(s2, host_fn, &count));
    OK(cudaLaunchHostFunc(0, host_fn, &count));
    EXPECT(count == 2);

    /* Destroyed and made-up handles. */
    OK(cudaStreamDestroy(s2));
    EXPECT_MISUSE(cudaStreamSynchronize(s2), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaStreamQuery(s2), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaStreamDestroy(s2), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, s2), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaLaunchHostFunc(s2, host_fn, &count), cudaErrorInvalidResourceHandle);
    add<<<1, 32, 0, s2>>>(d, n, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaStreamGetFlags((cudaStream_t)&count, &flags), cudaErrorInvalidResourceHandle);
    OK(cudaStreamDestroy(s1));
    OK(cudaStreamDestroy(s3));
    OK(cudaFree(d));
    OK(cudaFreeHost(h));
}

/* Launch attributes kept per stream: read back as set, checked as CUDA
 * documents them, copied from stream to stream. */
static void attributes(void)
{
    cudaStream_t s1, s2;
    OK(cudaStreamCreateWithPriority(&s1, cudaStreamNonBlocking, -1));
    OK(cudaStreamCreate(&s2));
    int lo, hi;
    OK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStreamAttrValue v;
    std::memset(&v, 0x55, sizeof v);
    /* Unset: a zero window, the automatic policy, the stream's priority. */
    OK(cudaStreamGetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &v));
    EXPECT(v.accessPolicyWindow.base_ptr == NULL && v.accessPolicyWindow.num_bytes == 0);
    OK(cudaStreamGetAttribute(s1, cudaStreamAttributeSynchronizationPolicy, &v));
    EXPECT(v.syncPolicy == cudaSyncPolicyAuto);
    OK(cudaStreamGetAttribute(s1, cudaLaunchAttributePriority, &v));
    EXPECT(v.priority == (hi <= -1 ? -1 : hi));

    int *d = NULL;
    OK(cudaMalloc(&d, 1 << 20));
    cudaStreamAttrValue w;
    std::memset(&w, 0, sizeof w);
    w.accessPolicyWindow.base_ptr = d;
    w.accessPolicyWindow.num_bytes = 1 << 20;
    w.accessPolicyWindow.hitRatio = 0.6f;
    w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    OK(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &w));
    OK(cudaStreamGetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &v));
    EXPECT(v.accessPolicyWindow.base_ptr == d && v.accessPolicyWindow.num_bytes == (1u << 20) &&
           v.accessPolicyWindow.hitRatio == 0.6f && v.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
           v.accessPolicyWindow.missProp == cudaAccessPropertyStreaming);
    /* Work in the stream is unchanged by it. */
    add<<<4, 256, 0, s1>>>(d, 1024, 3);
    OK(cudaGetLastError());
    OK(cudaStreamSynchronize(s1));
    OK(cudaCtxResetPersistingL2Cache());

    w.syncPolicy = cudaSyncPolicyBlockingSync;
    OK(cudaStreamSetAttribute(s1, cudaStreamAttributeSynchronizationPolicy, &w));
    w.priority = lo;
    OK(cudaStreamSetAttribute(s1, cudaLaunchAttributePriority, &w));
    int prio = 99;
    OK(cudaStreamGetPriority(s1, &prio));
    EXPECT(prio == lo);                         /* the priority attribute is the stream's priority */
    w.memSyncDomain = cudaLaunchMemSyncDomainRemote;
    OK(cudaStreamSetAttribute(s1, cudaLaunchAttributeMemSyncDomain, &w));
    OK(cudaStreamGetAttribute(s1, cudaLaunchAttributeMemSyncDomain, &v));
    EXPECT(v.memSyncDomain == cudaLaunchMemSyncDomainRemote);
    OK(cudaStreamGetAttribute(s1, cudaLaunchAttributeMemSyncDomainMap, &v));
    EXPECT(v.memSyncDomainMap.default_ == 0);

    /* Copied whole to another stream. */
    OK(cudaStreamCopyAttributes(s2, s1));
    OK(cudaStreamGetAttribute(s2, cudaStreamAttributeSynchronizationPolicy, &v));
    EXPECT(v.syncPolicy == cudaSyncPolicyBlockingSync);
    OK(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &v));
    EXPECT(v.accessPolicyWindow.base_ptr == d && v.accessPolicyWindow.hitRatio == 0.6f);
    OK(cudaStreamGetPriority(s2, &prio));
    EXPECT(prio == lo);
    /* The default stream has attributes too. */
    w.syncPolicy = cudaSyncPolicyBlockingSync;
    OK(cudaStreamSetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &w));
    OK(cudaStreamGetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &v));
    EXPECT(v.syncPolicy == cudaSyncPolicyBlockingSync);

    /* Misuse: bad values, attributes streams do not have, bad handles. */
    cudaStreamAttrValue bad = w;
    bad.accessPolicyWindow.hitRatio = 1.5f;
    EXPECT_MISUSE(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &bad), cudaErrorInvalidValue);
    bad = w;
    bad.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
    EXPECT_MISUSE(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &bad), cudaErrorInvalidValue);
    bad.syncPolicy = (cudaSynchronizationPolicy)9;
    EXPECT_MISUSE(cudaStreamSetAttribute(s1, cudaStreamAttributeSynchronizationPolicy, &bad), cudaErrorInvalidValue);
    bad.memSyncDomain = (cudaLaunchMemSyncDomain)5;
    EXPECT_MISUSE(cudaStreamSetAttribute(s1, cudaLaunchAttributeMemSyncDomain, &bad), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaStreamSetAttribute(s1, cudaLaunchAttributeCooperative, &w), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaStreamGetAttribute(s1, cudaLaunchAttributeClusterDimension, &v), cudaErrorInvalidValue);
    /* What a failed set leaves: the value before. */
    OK(cudaStreamGetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &v));
    EXPECT(v.accessPolicyWindow.hitRatio == 0.6f);
    OK(cudaStreamDestroy(s2));
    EXPECT_MISUSE(cudaStreamGetAttribute(s2, cudaStreamAttributeSynchronizationPolicy, &v),
                  cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaStreamSetAttribute(s2, cudaStreamAttributeSynchronizationPolicy, &w),
                  cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaStreamCopyAttributes(s2, s1), cudaErrorInvalidResourceHandle);
    OK(cudaStreamDestroy(s1));
    OK(cudaFree(d));
}

static void events(void)
{
    cudaEvent_t a, b, nt;
    OK(cudaEventCreate(&a));
    OK(cudaEventCreateWithFlags(&b, cudaEventBlockingSync));
    OK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    float ms = -1;
    EXPECT_MISUSE(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);   /* not recorded */
    OK(cudaEventQuery(a));                      /* never recorded: complete */
    int *d = NULL;
    OK(cudaMalloc(&d, 1 << 20));
    OK(cudaEventRecord(a, 0));
    add<<<1024, 256>>>(d, 1 << 18, 1);
    OK(cudaEventRecord(b, 0));
    OK(cudaEventRecord(nt, 0));
    OK(cudaEventSynchronize(b));
    OK(cudaEventQuery(b));
    OK(cudaEventElapsedTime(&ms, a, b));
    EXPECT(ms > 0.0f);
    EXPECT_MISUSE(cudaEventElapsedTime(&ms, a, nt), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaEventElapsedTime(NULL, a, b), cudaErrorInvalidValue);
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamWaitEvent(s, b, 0));
    OK(cudaEventRecordWithFlags(a, s, 0));
    EXPECT_MISUSE(cudaEventCreateWithFlags(&a, cudaEventInterprocess), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaEventCreateWithFlags(&a, 0x80), cudaErrorInvalidValue);
    OK(cudaEventDestroy(nt));
    EXPECT_MISUSE(cudaEventRecord(nt, 0), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaEventSynchronize(nt), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaEventQuery(nt), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaStreamWaitEvent(s, nt, 0), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaEventDestroy(nt), cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaEventRecord(a, (cudaStream_t)&ms), cudaErrorInvalidResourceHandle);
    OK(cudaEventDestroy(a));
    OK(cudaEventDestroy(b));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
}

/* Host threads, each with its own stream and memory, at once. */
static void threads(void)
{
    const int nthreads = 4, n = 2048, rounds = 20;
    std::vector<int> result(nthreads, -1);
    std::vector<std::thread> ts;
    for (int t = 0; t < nthreads; t++)
        ts.emplace_back([t, &result] {
            cudaStream_t s;
            int *d = NULL;
            std::vector<int> h(n, t);
            bool ok = cudaStreamCreate(&s) == cudaSuccess && cudaMalloc(&d, n * sizeof(int)) == cudaSuccess &&
                      cudaMemcpyAsync(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s) == cudaSuccess;
            for (int r = 0; ok && r < rounds; r++) {
                add<<<n / 128, 128, 0, s>>>(d, n, 1);
                ok = cudaGetLastError() == cudaSuccess;
            }
            ok = ok && cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess &&
                 cudaStreamSynchronize(s) == cudaSuccess;
            bool all = ok;
            for (int i = 0; all && i < n; i++)
                all = h[i] == t + rounds;
            result[t] = all;
            cudaFree(d);
            cudaStreamDestroy(s);
        });
    for (auto &th : ts)
        th.join();
    for (int t = 0; t < nthreads; t++)
        EXPECT(result[t] == 1);
}

int main()
{
    test_name = "api_stream";
    streams();
    attributes();
    events();
    threads();
    return finish();
}

/*
 * api_memory -- the memory calls: every allocation kind and every copy
 * kind, 2-D and 3-D copies and memsets, symbols, pointer attributes,
 * managed-memory hints; and misuse: freeing twice, freeing the wrong kind,
 * copying past an allocation, invalid device pointers and directions,
 * each answered with the error code CUDA documents.
 */
#include "rt_test.h"

#include <cuda_runtime.h>

__device__ int dsym[4] = { 1, 2, 3, 4 };
__constant__ float csym[8];
static int not_a_symbol;

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

__global__ void scale_by_constant(float *out)
{
    out[threadIdx.x] = csym[threadIdx.x] * 2.0f + (float)dsym[threadIdx.x & 3];
}

static void copies(void)
{
    const int n = 256;
    int h[n], back[n];
    for (int i = 0; i < n; i++)
        h[i] = i * 3;
    int *d = NULL, *d2 = NULL;
    OK(cudaMalloc(&d, n * sizeof(int)));
    OK(cudaMalloc(&d2, n * sizeof(int)));
    OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(d2, d, sizeof h, cudaMemcpyDeviceToDevice));
    memset(back, 0, sizeof back);
    OK(cudaMemcpy(back, d2, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(h, back, sizeof h) == 0);
    int hh[n];
    OK(cudaMemcpy(hh, h, sizeof h, cudaMemcpyHostToHost));
    EXPECT(memcmp(h, hh, sizeof h) == 0);
    /* cudaMemcpyDefault: the pointers say which side they are on. */
    OK(cudaMemset(d2, 0, sizeof h));
    OK(cudaMemcpy(d2, h, sizeof h, cudaMemcpyDefault));
    memset(back, 0, sizeof back);
    OK(cudaMemcpy(back, d2, sizeof h, cudaMemcpyDefault));
    EXPECT(memcmp(h, back, sizeof h) == 0);
    OK(cudaMemcpy(d, d2, sizeof h, cudaMemcpyDefault));

    /* Misuse. */
    EXPECT_MISUSE(cudaMemcpy(d, h, 2 * sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpy(back, d + 200, 100 * sizeof(int), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpy(hh, h, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    EXPECT_MISUSE(cudaMemcpy(NULL, h, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemset(d, 0, 2 * sizeof h), cudaErrorInvalidValue);
    OK(cudaMemcpy(d, h, 0, cudaMemcpyHostToDevice));        /* nothing to do */

    OK(cudaMemset(d, 0xAB, sizeof h));
    OK(cudaMemcpy(back, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT((unsigned)back[7] == 0xABABABABu);

    OK(cudaFree(d));
    OK(cudaFree(d2));
    EXPECT_MISUSE(cudaFree(d), cudaErrorInvalidValue);      /* freed twice */
    EXPECT_MISUSE(cudaFree(h), cudaErrorInvalidValue);      /* not device memory */
    /* A freed pointer is no longer device memory. */
    EXPECT_MISUSE(cudaMemcpy(d, h, sizeof(int), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    OK(cudaFree(NULL));
    void *huge = NULL;
    EXPECT_MISUSE(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
    EXPECT_MISUSE(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    void *a = NULL;
    OK(cudaMallocAsync(&a, 1024, 0));
    OK(cudaFreeAsync(a, 0));
}

static void pitched(void)
{
    const size_t w = 100, hgt = 7;
    char *d = NULL;
    size_t pitch = 0;
    OK(cudaMallocPitch((void **)&d, &pitch, w, hgt));
    EXPECT(pitch >= w && pitch % 256 == 0);
    char src[7][100], dst[7][100];
    for (size_t r = 0; r < hgt; r++)
        for (size_t c = 0; c < w; c++)
            src[r][c] = (char)(r * 31 + c);
    OK(cudaMemcpy2D(d, pitch, src, w, w, hgt, cudaMemcpyHostToDevice));
    memset(dst, 0, sizeof dst);
    OK(cudaMemcpy2D(dst, w, d, pitch, w, hgt, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(src, dst, sizeof src) == 0);
    OK(cudaMemset2D(d, pitch, 5, w / 2, hgt));
    OK(cudaMemcpy2D(dst, w, d, pitch, w, hgt, cudaMemcpyDeviceToHost));
    EXPECT(dst[6][49] == 5 && dst[6][50] == src[6][50]);
    OK(cudaMemcpy2DAsync(dst, w, d, pitch, w, hgt, cudaMemcpyDeviceToHost, 0));
    EXPECT_MISUSE(cudaMemcpy2D(d, pitch, src, w, pitch + 1, hgt, cudaMemcpyHostToDevice),
                  cudaErrorInvalidPitchValue);
    EXPECT_MISUSE(cudaMemcpy2D(d, pitch, src, w, w, hgt + 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    /* A set's rows wider than its pitch: cudaMemset2D documents InvalidValue only. */
    EXPECT_MISUSE(cudaMemset2D(d, pitch, 1, pitch + 1, hgt), cudaErrorInvalidValue);
    OK(cudaFree(d));
    /* No allocation for no bytes: success and a null pointer. */
    void *none = &none;
    OK(cudaMalloc(&none, 0));
    EXPECT(none == NULL);
    OK(cudaFree(none));

    cudaExtent ext = make_cudaExtent(40, 5, 3);
    cudaPitchedPtr pp;
    OK(cudaMalloc3D(&pp, ext));
    EXPECT(pp.pitch >= 40 && pp.xsize == 40 && pp.ysize == 5);
    OK(cudaMemset3D(pp, 9, ext));
    static char vol[3][5][40], out[3][5][40];
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 40; x++)
                vol[z][y][x] = (char)(z * 7 + y * 3 + x);
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(vol, 40, 40, 5);
    up.dstPtr = pp;
    up.extent = ext;
    up.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&up));
    cudaMemcpy3DParms down = {};
    down.srcPtr = pp;
    down.dstPtr = make_cudaPitchedPtr(out, 40, 40, 5);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    OK(cudaMemcpy3D(&down));
    EXPECT(memcmp(vol, out, sizeof vol) == 0);
    OK(cudaFree(pp.ptr));
}

static void host_memory(void)
{
    const int n = 1000;
    /* Pinned, mapped: one address on both sides. */
    int *ph = NULL, *pd = NULL;
    OK(cudaHostAlloc((void **)&ph, n * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < n; i++)
        ph[i] = i;
    OK(cudaHostGetDevicePointer((void **)&pd, ph, 0));
    add_one<<<(n + 255) / 256, 256>>>(pd, n);
    OK(cudaDeviceSynchronize());
    EXPECT(ph[0] == 1 && ph[n - 1] == n);
    unsigned hf = 0;
    OK(cudaHostGetFlags(&hf, ph));
    EXPECT(hf & cudaHostAllocMapped);
    /* The flags it was allocated with come back. */
    void *pw = NULL;
    OK(cudaHostAlloc(&pw, 64, cudaHostAllocPortable | cudaHostAllocWriteCombined));
    OK(cudaHostGetFlags(&hf, pw));
    EXPECT((hf & (cudaHostAllocPortable | cudaHostAllocWriteCombined)) ==
           (cudaHostAllocPortable | cudaHostAllocWriteCombined));
    OK(cudaFreeHost(pw));
    EXPECT_MISUSE(cudaHostGetFlags(&hf, &hf), cudaErrorInvalidValue);   /* pageable memory */
    EXPECT_MISUSE(cudaFree(ph), cudaErrorInvalidValue);     /* cudaFreeHost's, not cudaFree's */
    OK(cudaFreeHost(ph));
    EXPECT_MISUSE(cudaFreeHost(ph), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaHostAlloc((void **)&ph, 16, 0x100), cudaErrorInvalidValue);
    int *mh = NULL;
    OK(cudaMallocHost((void **)&mh, 64));
    int *dd = NULL;
    OK(cudaMalloc(&dd, 64));
    EXPECT_MISUSE(cudaFreeHost(dd), cudaErrorInvalidValue);
    OK(cudaFree(dd));
    OK(cudaFreeHost(mh));

    /* Registered: the program's own memory, reached through the device
     * pointer cudaHostGetDevicePointer gives. */
    int *reg = (int *)std::malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        reg[i] = 10 * i;
    OK(cudaHostRegister(reg, n * sizeof(int), cudaHostRegisterMapped));
    EXPECT_MISUSE(cudaHostRegister(reg + 10, 4, 0), cudaErrorHostMemoryAlreadyRegistered);
    int *rd = NULL;
    OK(cudaHostGetDevicePointer((void **)&rd, reg, 0));
    add_one<<<(n + 255) / 256, 256>>>(rd, n);
    OK(cudaDeviceSynchronize());
    EXPECT(reg[0] == 1 && reg[n - 1] == 10 * (n - 1) + 1);
    reg[5] = 500;                           /* host writes are seen by the next kernel */
    add_one<<<1, 32>>>(rd, 32);
    OK(cudaDeviceSynchronize());
    EXPECT(reg[5] == 501);
    cudaPointerAttributes at;
    OK(cudaPointerGetAttributes(&at, reg));
    EXPECT(at.type == cudaMemoryTypeHost && at.hostPointer == reg && at.devicePointer == rd);
    OK(cudaHostUnregister(reg));
    EXPECT_MISUSE(cudaHostUnregister(reg), cudaErrorHostMemoryNotRegistered);
    EXPECT_MISUSE(cudaHostGetDevicePointer((void **)&rd, reg, 0), cudaErrorInvalidValue);
    std::free(reg);

    /* Managed. */
    int *m = NULL;
    OK(cudaMallocManaged(&m, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        m[i] = 2 * i;
    cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 }, host = { cudaMemLocationTypeHost, 0 };
    OK(cudaMemPrefetchAsync(m, n * sizeof(int), dev, 0, 0));
    OK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, dev));
    add_one<<<(n + 255) / 256, 256>>>(m, n);
    OK(cudaDeviceSynchronize());
    OK(cudaMemPrefetchAsync(m, n * sizeof(int), host, 0, 0));
    EXPECT(m[0] == 1 && m[n - 1] == 2 * (n - 1) + 1);
    OK(cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachGlobal));
    OK(cudaPointerGetAttributes(&at, m));
    EXPECT(at.type == cudaMemoryTypeManaged && at.devicePointer == m && at.hostPointer == m);
    EXPECT_MISUSE(cudaMallocManaged(&m, 0), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMallocManaged(&dd, 64, 7), cudaErrorInvalidValue);
    OK(cudaMalloc(&dd, 64));
    EXPECT_MISUSE(cudaMemPrefetchAsync(dd, 64, dev, 0, 0), cudaErrorInvalidValue);
    cudaMemLocation bad = { cudaMemLocationTypeDevice, 3 };
    EXPECT_MISUSE(cudaMemPrefetchAsync(m, 64, bad, 0, 0), cudaErrorInvalidDevice);
    OK(cudaPointerGetAttributes(&at, dd));
    EXPECT(at.type == cudaMemoryTypeDevice && at.devicePointer == dd && at.hostPointer == NULL);
    int local = 0;
    OK(cudaPointerGetAttributes(&at, &local));
    EXPECT(at.type == cudaMemoryTypeUnregistered);
    OK(cudaFree(dd));
    OK(cudaFree(m));
}

static void symbols(void)
{
    float c[8], back[8];
    for (int i = 0; i < 8; i++)
        c[i] = 0.5f * i;
    OK(cudaMemcpyToSymbol(csym, c, sizeof c));
    int two[2] = { 40, 50 };
    OK(cudaMemcpyToSymbol(dsym, two, sizeof two, 2 * sizeof(int)));
    float *out = NULL;
    OK(cudaMalloc(&out, 8 * sizeof(float)));
    scale_by_constant<<<1, 8>>>(out);
    OK(cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT(back[3] == 3.0f + 50.0f && back[1] == 1.0f + 2.0f);
    int d4[4];
    OK(cudaMemcpyFromSymbol(d4, dsym, sizeof d4));
    EXPECT(d4[0] == 1 && d4[2] == 40 && d4[3] == 50);
    OK(cudaMemcpyFromSymbolAsync(d4, dsym, sizeof(int), 3 * sizeof(int), cudaMemcpyDeviceToHost, 0));
    EXPECT(d4[0] == 50);
    void *addr = NULL;
    size_t size = 0;
    OK(cudaGetSymbolAddress(&addr, dsym));
    OK(cudaGetSymbolSize(&size, csym));
    EXPECT(addr != NULL && size == sizeof c);
    OK(cudaMemcpy(d4, addr, sizeof d4, cudaMemcpyDeviceToHost));
    EXPECT(d4[3] == 50);
    EXPECT_MISUSE(cudaMemcpyToSymbol(csym, c, sizeof c, 4), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpyToSymbol(not_a_symbol, c, 4), cudaErrorInvalidSymbol);
    EXPECT_MISUSE(cudaGetSymbolAddress(&addr, not_a_symbol), cudaErrorInvalidSymbol);
    EXPECT_MISUSE(cudaMemcpyToSymbol(csym, c, 4, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
    OK(cudaFree(out));
}

/* Peer copies (the one device is its own peer) and the 1-D array copies,
 * plain and async: results, a capture recording or refusing them, and
 * misuse. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void peer_and_array_copies(void)
{
    const int n = 64;
    int h[n], back[n];
    for (int i = 0; i < n; i++)
        h[i] = 7 * i + 1;
    int *a = NULL, *b = NULL;
    OK(cudaMalloc(&a, sizeof h));
    OK(cudaMalloc(&b, sizeof h));
    OK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(cudaMemcpyPeerAsync(b, 0, a, 0, sizeof h, s));
    OK(cudaStreamSynchronize(s));
    memset(back, 0, sizeof back);
    OK(cudaMemcpy(back, b, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(h, back, sizeof h) == 0);
    EXPECT_MISUSE(cudaMemcpyPeerAsync(b, 1, a, 0, sizeof h, s), cudaErrorInvalidDevice);
    EXPECT_MISUSE(cudaMemcpyPeerAsync(b, 0, a, 0, sizeof h, (cudaStream_t)&back), cudaErrorInvalidResourceHandle);

    /* A 3-D peer copy: an 8x4 box of ints between two pitched layouts. */
    cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    OK(cudaMemset(b, 0, sizeof h));
    p.srcPtr = make_cudaPitchedPtr(a, 16 * sizeof(int), 16, 4);
    p.dstPtr = make_cudaPitchedPtr(b, 8 * sizeof(int), 8, 8);
    p.extent = make_cudaExtent(8 * sizeof(int), 4, 1);
    OK(cudaMemcpy3DPeer(&p));
    OK(cudaMemcpy(back, b, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(back[0] == h[0] && back[8 + 3] == h[16 + 3] && back[24 + 7] == h[48 + 7] && back[32] == 0);
    OK(cudaMemset(b, 0, sizeof h));
    OK(cudaMemcpy3DPeerAsync(&p, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(back, b, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(back[8 + 3] == h[16 + 3] && back[24 + 7] == h[48 + 7]);
    p.dstDevice = 1;
    EXPECT_MISUSE(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
    EXPECT_MISUSE(cudaMemcpy3DPeerAsync(&p, s), cudaErrorInvalidDevice);
    EXPECT_MISUSE(cudaMemcpy3DPeer(NULL), cudaErrorInvalidValue);
    p.dstDevice = 0;

    /* Captured: the async peer copies become memcpy nodes, replayed at
     * launch; the synchronous one is refused. */
    cudaGraph_t g;
    OK(cudaMemset(b, 0, sizeof h));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemcpyPeerAsync(b, 0, a, 0, sizeof h / 2, s));
    OK(cudaMemcpy3DPeerAsync(&p, s));
    OK(cudaStreamEndCapture(s, &g));
    size_t nodes = 0;
    OK(cudaGraphGetNodes(g, NULL, &nodes));
    EXPECT(nodes == 2);
    OK(cudaMemcpy(back, b, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(back[0] == 0);                       /* recorded, not run */
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(back, b, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(back[0] == h[0] && back[8 + 3] == h[16 + 3]);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_MISUSE(cudaMemcpy3DPeer(&p), cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);

    /* The 1-D array copies run on across rows: a 16x4 int array. */
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    cudaArray_t arr, arr2;
    OK(cudaMallocArray(&arr, &desc, 16, 4));
    OK(cudaMallocArray(&arr2, &desc, 16, 4));
    /* From byte 8 of row 1, 20 ints: the rest of row 1 and 6 of row 2. */
    OK(cudaMemcpyToArrayAsync(arr, 2 * sizeof(int), 1, h, 20 * sizeof(int), cudaMemcpyHostToDevice, s));
    memset(back, 0, sizeof back);
    OK(cudaMemcpyFromArrayAsync(back, arr, 2 * sizeof(int), 1, 20 * sizeof(int), cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    EXPECT(memcmp(back, h, 20 * sizeof(int)) == 0);
    /* Array to array, at other offsets on each side. */
    OK(cudaMemcpyArrayToArray(arr2, 5 * sizeof(int), 0, arr, 2 * sizeof(int), 1, 20 * sizeof(int),
                              cudaMemcpyDeviceToDevice));
    memset(back, 0, sizeof back);
    OK(cudaMemcpyFromArray(back, arr2, 5 * sizeof(int), 0, 20 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(memcmp(back, h, 20 * sizeof(int)) == 0);
    /* Misuse: past the end, a bad direction, a bad stream, a capture. */
    EXPECT_MISUSE(cudaMemcpyArrayToArray(arr2, 0, 3, arr, 0, 0, 17 * sizeof(int), cudaMemcpyDeviceToDevice),
                  cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpyArrayToArray(arr2, 0, 0, arr, 0, 0, 4, cudaMemcpyHostToDevice),
                  cudaErrorInvalidMemcpyDirection);
    EXPECT_MISUSE(cudaMemcpyArrayToArray(arr2, 0, 0, (cudaArray_t)&back, 0, 0, 4, cudaMemcpyDeviceToDevice),
                  cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemcpyToArrayAsync(arr, 0, 0, h, 4, cudaMemcpyHostToDevice, (cudaStream_t)&back),
                  cudaErrorInvalidResourceHandle);
    EXPECT_MISUSE(cudaMemcpyFromArrayAsync(back, arr, 0, 0, 4, cudaMemcpyDeviceToHost, (cudaStream_t)&back),
                  cudaErrorInvalidResourceHandle);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_MISUSE(cudaMemcpyToArrayAsync(arr, 0, 0, h, 4, cudaMemcpyHostToDevice, s),
                  cudaErrorStreamCaptureUnsupported);
    EXPECT_MISUSE(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    OK(cudaFreeArray(arr));
    OK(cudaFreeArray(arr2));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(a));
    OK(cudaFree(b));
}
#pragma GCC diagnostic pop

/* Advice and prefetches on managed memory, read back by page. */
static void managed_ranges(void)
{
    const size_t page = 4096, bytes = 64 * page;
    char *m = NULL;
    OK(cudaMallocManaged(&m, bytes));
    cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 }, host = { cudaMemLocationTypeHost, 0 };
    int v = 99;
    /* Nothing set yet. */
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, bytes));
    EXPECT(v == 0);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocation, m, bytes));
    EXPECT(v == cudaInvalidDeviceId);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeLastPrefetchLocation, m, bytes));
    EXPECT(v == cudaInvalidDeviceId);

    /* Read-mostly on pages 0-31: 1 only where every page has it. */
    OK(cudaMemAdvise(m, 32 * page, cudaMemAdviseSetReadMostly, dev));
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m + 3 * page, 10 * page));
    EXPECT(v == 1);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m + 30 * page, 4 * page));
    EXPECT(v == 0);
    /* Unset on one page in the middle: a range over it is no longer all. */
    OK(cudaMemAdvise(m + 10 * page + 100, 1, cudaMemAdviseUnsetReadMostly, dev));
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, 10 * page));
    EXPECT(v == 1);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m + 9 * page, 2 * page));
    EXPECT(v == 0);

    /* Preferred location: the device, the CPU, or invalid where mixed. */
    OK(cudaMemAdvise(m, 16 * page, cudaMemAdviseSetPreferredLocation, dev));
    OK(cudaMemAdvise(m + 16 * page, 16 * page, cudaMemAdviseSetPreferredLocation, host));
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocation, m, 16 * page));
    EXPECT(v == 0);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocation, m + 20 * page, page));
    EXPECT(v == cudaCpuDeviceId);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocation, m + 15 * page, 2 * page));
    EXPECT(v == cudaInvalidDeviceId);
    cudaMemLocationType t = cudaMemLocationTypeInvalid;
    OK(cudaMemRangeGetAttribute(&t, sizeof t, cudaMemRangeAttributePreferredLocationType, m, page));
    EXPECT(t == cudaMemLocationTypeDevice);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocationId, m, page));
    EXPECT(v == 0);
    OK(cudaMemRangeGetAttribute(&t, sizeof t, cudaMemRangeAttributePreferredLocationType, m + 16 * page, page));
    EXPECT(t == cudaMemLocationTypeHost);
    OK(cudaMemAdvise(m, 16 * page, cudaMemAdviseUnsetPreferredLocation, dev));
    OK(cudaMemRangeGetAttribute(&t, sizeof t, cudaMemRangeAttributePreferredLocationType, m, page));
    EXPECT(t == cudaMemLocationTypeInvalid);

    /* Accessed-by: the device where the whole range has it, padded. */
    OK(cudaMemAdvise(m, 8 * page, cudaMemAdviseSetAccessedBy, dev));
    int acc[3] = { 7, 7, 7 };
    OK(cudaMemRangeGetAttribute(acc, sizeof acc, cudaMemRangeAttributeAccessedBy, m, 8 * page));
    EXPECT(acc[0] == 0 && acc[1] == cudaInvalidDeviceId && acc[2] == cudaInvalidDeviceId);
    OK(cudaMemRangeGetAttribute(acc, sizeof acc, cudaMemRangeAttributeAccessedBy, m, 9 * page));
    EXPECT(acc[0] == cudaInvalidDeviceId);
    OK(cudaMemAdvise(m, 8 * page, cudaMemAdviseUnsetAccessedBy, dev));
    OK(cudaMemRangeGetAttribute(acc, 4, cudaMemRangeAttributeAccessedBy, m, page));
    EXPECT(acc[0] == cudaInvalidDeviceId);

    /* The last prefetch, several attributes at once. */
    OK(cudaMemPrefetchAsync(m, bytes, dev, 0, 0));
    OK(cudaMemPrefetchAsync(m + 60 * page, 4 * page, host, 0, 0));
    int last = 9, rm = 9;
    cudaMemLocationType lt = cudaMemLocationTypeInvalid;
    void *data[] = { &last, &rm, &lt };
    size_t sizes[] = { 4, 4, sizeof lt };
    cudaMemRangeAttribute attrs[] = { cudaMemRangeAttributeLastPrefetchLocation, cudaMemRangeAttributeReadMostly,
                                      cudaMemRangeAttributeLastPrefetchLocationType };
    OK(cudaMemRangeGetAttributes(data, sizes, attrs, 3, m, 8 * page));
    EXPECT(last == 0 && rm == 1 && lt == cudaMemLocationTypeDevice);
    OK(cudaMemRangeGetAttributes(data, sizes, attrs, 3, m + 62 * page, page));
    EXPECT(last == cudaCpuDeviceId && rm == 0 && lt == cudaMemLocationTypeHost);
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeLastPrefetchLocation, m + 50 * page, 12 * page));
    EXPECT(v == cudaInvalidDeviceId);

    /* Misuse: sizes, attributes, memory that is not managed. */
    EXPECT_MISUSE(cudaMemRangeGetAttribute(&v, 8, cudaMemRangeAttributeReadMostly, m, page), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemRangeGetAttribute(acc, 6, cudaMemRangeAttributeAccessedBy, m, page), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemRangeGetAttribute(&v, 4, (cudaMemRangeAttribute)42, m, page), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemRangeGetAttribute(NULL, 4, cudaMemRangeAttributeReadMostly, m, page), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, bytes + 1),
                  cudaErrorInvalidValue);
    int *d = NULL;
    OK(cudaMalloc(&d, page));
    EXPECT_MISUSE(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, d, page), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemAdvise(d, page, cudaMemAdviseSetReadMostly, dev), cudaErrorInvalidValue);
    EXPECT_MISUSE(cudaMemRangeGetAttributes(data, sizes, attrs, 0, m, page), cudaErrorInvalidValue);
    OK(cudaFree(d));
    /* A fresh allocation at the same place starts with nothing set. */
    OK(cudaFree(m));
    OK(cudaMallocManaged(&m, bytes));
    OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, page));
    EXPECT(v == 0);
    OK(cudaFree(m));
}

int main()
{
    test_name = "api_memory";
    managed_ranges();
    peer_and_array_copies();
    copies();
    pitched();
    host_memory();
    symbols();
    int *d = NULL;
    EXPECT_MISUSE(cudaMemcpyAsync(d, d, 0, cudaMemcpyDeviceToDevice, (cudaStream_t)0x1234), 
                  cudaErrorInvalidResourceHandle);
    return finish();
}

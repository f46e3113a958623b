/*
 * api_driver -- the driver API alone (libcuda.so.1, no runtime): init and
 * context rules, devices, modules from PTX text and from a file, globals,
 * cuLaunchKernel with kernelParams and with the `extra` buffer, memory,
 * streams, events, errors, texture and surface objects and their
 * descriptors, JIT log options and the linker (cuLink*), peers, PCI,
 * parameter layout, occupancy and memory pools; and misuse: calls before cuInit, without a
 * context, with bad handles, too many threads, a double free, bad PTX.
 */
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

static int failures;

#define CHECK_CU(call, want)                                                                 \
    do {                                                                                     \
        CUresult got_ = (call), want_ = (want);                                              \
        if (got_ != want_) {                                                                 \
            const char *g_ = "?", *w_ = "?";                                                 \
            cuGetErrorName(got_, &g_);                                                       \
            cuGetErrorName(want_, &w_);                                                      \
            std::printf("FAIL api_driver: %s:%d: %s returned %s, expected %s\n", __FILE__,   \
                        __LINE__, #call, g_, w_);                                            \
            failures++;                                                                      \
        }                                                                                    \
    } while (0)
#define CU_OK(call) CHECK_CU(call, CUDA_SUCCESS)
#define EXPECT(cond)                                                                         \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            std::printf("FAIL api_driver: %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                                      \
        }                                                                                    \
    } while (0)

/* p[i] += 1 for i < n, and a module variable with an initial value. */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".global .align 4 .u32 counter = 5;\n"
    ".visible .entry add_one(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [p];\n"
    "    ld.param.u32 %r2, [n];\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mov.u32 %r4, %ntid.x;\n"
    "    mov.u32 %r5, %tid.x;\n"
    "    mad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "    setp.ge.s32 %p1, %r1, %r2;\n"
    "    @%p1 bra DONE;\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mul.wide.s32 %rd3, %r1, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    ld.global.u32 %r6, [%rd4];\n"
    "    add.s32 %r7, %r6, 1;\n"
    "    st.global.u32 [%rd4], %r7;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

/* vector_add from a fat binary file (nvcc -fatbin), loaded from memory
 * and from the file, launched, checked. */
static void fatbin(const char *path)
{
    FILE *f = std::fopen(path, "rb");
    EXPECT(f != NULL);
    if (!f)
        return;
    static unsigned char image[1 << 20];
    size_t len = std::fread(image, 1, sizeof image, f);
    std::fclose(f);
    EXPECT(len > 16 && len < sizeof image);
    CUmodule m1, m2;
    CU_OK(cuModuleLoadFatBinary(&m1, image));
    CU_OK(cuModuleLoad(&m2, path));
    CUfunction va;
    CU_OK(cuModuleGetFunction(&va, m1, "_Z10vector_addPKfS0_Pfi"));
    const int n = 300;
    float a[n], b[n], c[n];
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)i;
    }
    CUdeviceptr da, db, dc;
    CU_OK(cuMemAlloc(&da, sizeof a));
    CU_OK(cuMemAlloc(&db, sizeof b));
    CU_OK(cuMemAlloc(&dc, sizeof c));
    CU_OK(cuMemcpyHtoD(da, a, sizeof a));
    CU_OK(cuMemcpyHtoD(db, b, sizeof b));
    int nn = n;
    void *params[] = { &da, &db, &dc, &nn };
    CU_OK(cuLaunchKernel(va, 3, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    CU_OK(cuMemcpyDtoH(c, dc, sizeof c));
    EXPECT(c[0] == 0.0f && c[n - 1] == 1.5f * (float)(n - 1));
    CU_OK(cuMemFree(da));
    CU_OK(cuMemFree(db));
    CU_OK(cuMemFree(dc));
    CU_OK(cuModuleUnload(m1));
    CU_OK(cuModuleUnload(m2));
}

/* JIT options and the driver's linker: cuModuleLoadDataEx fills the log
 * buffers and sizes it is given (an error log on failure); cuLink* links
 * PTX into an image cuModuleLoadData loads, and refuses a cubin. */
static void jit_and_link(void)
{
    char info[64], err[256];
    std::memset(info, 'X', sizeof info);
    std::memset(err, 'X', sizeof err);
    CUjit_option opts[] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { info, (void *)sizeof info, err, (void *)sizeof err };
    CUmodule m;
    CU_OK(cuModuleLoadDataEx(&m, ptx, 4, opts, vals));
    EXPECT(info[0] == 0 && err[0] == 0 && vals[1] == (void *)0 && vals[3] == (void *)0);
    CU_OK(cuModuleUnload(m));
    void *vals2[] = { info, (void *)sizeof info, err, (void *)sizeof err };
    CHECK_CU(cuModuleLoadDataEx(&m, ".version 8.0\n.target sm_75\n.address_size 64\nnot ptx;\n", 4, opts, vals2),
             CUDA_ERROR_INVALID_PTX);
    EXPECT(err[0] != 0 && (size_t)vals2[3] == std::strlen(err));
    /* An instruction that is none of PTX's: invalid PTX, the log saying which. */
    static const char unknown[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                                  ".visible .entry k()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n";
    void *vals3[] = { info, (void *)sizeof info, err, (void *)sizeof err };
    CHECK_CU(cuModuleLoadDataEx(&m, unknown, 4, opts, vals3), CUDA_ERROR_INVALID_PTX);
    EXPECT(std::strstr(err, "frobnicate") != NULL);

    CUlinkState link;
    void *lvals[] = { info, (void *)sizeof info, err, (void *)sizeof err };
    CU_OK(cuLinkCreate(4, opts, lvals, &link));
    static const char elf[16] = { 0x7f, 'E', 'L', 'F' };
    CHECK_CU(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, (void *)elf, sizeof elf, "k.cubin", 0, NULL, NULL),
             CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(std::strstr(err, "k.cubin") != NULL);
    CU_OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "add_one.ptx", 0, NULL, NULL));
    void *image = NULL;
    size_t size = 0;
    CU_OK(cuLinkComplete(link, &image, &size));
    EXPECT(image != NULL && size > 0);
    CU_OK(cuModuleLoadData(&m, image));
    CU_OK(cuLinkDestroy(link));
    CHECK_CU(cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);
    /* A call of a function no input defines fails the link, naming it. */
    static const char calls_extern[] =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".extern .func (.param .b32 r) addsq(.param .b32 a);\n"
        ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
        "  { .param .b32 pa; .param .b32 pr; st.param.b32 [pa], %r1;\n"
        "    call.uni (pr), addsq, (pa); ld.param.b32 %r2, [pr]; }\n  ret;\n}\n";
    void *lvals2[] = { info, (void *)sizeof info, err, (void *)sizeof err };
    CU_OK(cuLinkCreate(4, opts, lvals2, &link));
    CU_OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)calls_extern, sizeof calls_extern, "k.ptx", 0, NULL, NULL));
    EXPECT(cuLinkComplete(link, &image, &size) != CUDA_SUCCESS);
    EXPECT(std::strstr(err, "addsq") != NULL);
    CU_OK(cuLinkDestroy(link));
    CUfunction f;
    CU_OK(cuModuleGetFunction(&f, m, "add_one"));
    CUdeviceptr d;
    unsigned v[4] = { 1, 2, 3, 4 };
    CU_OK(cuMemAlloc(&d, sizeof v));
    CU_OK(cuMemcpyHtoD(d, v, sizeof v));
    unsigned n = 4;
    void *params[] = { &d, &n };
    CU_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    CU_OK(cuMemcpyDtoH(v, d, sizeof v));
    EXPECT(v[0] == 2 && v[3] == 5);
    CU_OK(cuMemFree(d));
    CU_OK(cuModuleUnload(m));
}

/* What the Python stacks ask of the driver besides modules and launches:
 * peers and the PCI address of the one device, a stream's context,
 * parameter layout, the block-size calculator, pools and stream-ordered
 * allocation. */
static size_t smem_for(int block) { return (size_t)block * 4; }

/* Images with a fat binary's magic number and a corrupt header: the driver
 * has only the header's word for their size, and must not read past what
 * is mapped. */
static void corrupt_fatbins(void)
{
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *two = (unsigned char *)mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(two != MAP_FAILED);
    munmap(two + page, page);
    const uint32_t magic = 0xBA55ED50u;
    struct { uint16_t version, header; uint64_t body; size_t at_end; } cases[] = {
        { 0xEEEE, 0xEEEE, 0xEEEEEEEEEEEEEEEEull, 64 },     /* all garbage */
        { 1, 16, 1ull << 40, 64 },                         /* a terabyte */
        { 1, 16, 4096, 64 },                               /* runs into the unmapped page */
        { 1, 16, 48, 64 },                                 /* entries of garbage */
        { 2, 16, 0, 16 },                                  /* an unknown version */
    };
    for (auto &c : cases) {
        unsigned char *img = two + page - c.at_end;
        std::memset(img, 0xEE, c.at_end);
        std::memcpy(img, &magic, 4);
        std::memcpy(img + 4, &c.version, 2);
        std::memcpy(img + 6, &c.header, 2);
        std::memcpy(img + 8, &c.body, 8);
        CUmodule m;
        CHECK_CU(cuModuleLoadData(&m, img), CUDA_ERROR_INVALID_IMAGE);
        CHECK_CU(cuModuleLoadFatBinary(&m, img), CUDA_ERROR_INVALID_IMAGE);
    }
    munmap(two, page);
}

/* PTX a GPU's JIT compiler refuses, with the code the driver gives
 * (ptxsim simulates sm_90 here). */
static void jit_refusals(void)
{
    struct { const char *ptx; CUresult want; } cases[] = {
        { ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k() { ret; }\n", CUDA_SUCCESS },
        { ".version 99.9\n.target sm_75\n.address_size 64\n.visible .entry k() { ret; }\n",
          CUDA_ERROR_UNSUPPORTED_PTX_VERSION },
        { ".version 8.8\n.target sm_100\n.address_size 64\n.visible .entry k() { ret; }\n", CUDA_ERROR_INVALID_PTX },
        { ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { ret; }\n", CUDA_SUCCESS },
        { ".version 8.0\n.target sm_80a\n.address_size 64\n.visible .entry k() { ret; }\n", CUDA_ERROR_INVALID_PTX },
        { "", CUDA_ERROR_INVALID_PTX },
        { " \n", CUDA_ERROR_INVALID_PTX },
        /* 32764 bytes of parameters at most */
        { ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .align 4 .b8 p[32764]) { ret; }\n",
          CUDA_SUCCESS },
        { ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .align 4 .b8 p[32768]) { ret; }\n",
          CUDA_ERROR_INVALID_PTX },
    };
    for (auto &c : cases) {
        CUmodule m = NULL;
        CHECK_CU(cuModuleLoadData(&m, c.ptx), c.want);
        if (c.want == CUDA_SUCCESS && m)
            CU_OK(cuModuleUnload(m));
    }
}

/* The driver's version says which PTX it JIT-compiles: CUDA 13.N's reads
 * PTX ISA 9.N and older and refuses 9.N+1 (programs that bring their own
 * NVRTC, NVIDIA Warp's, decide by it whether to hand the driver PTX).  The
 * register count asks ptxas, which may be older than the PTX (runtime's
 * test runtime.api_driver.newer_ptx sees that it still answers). */
static void ptx_of_driver_version(void)
{
    int v = 0;
    CU_OK(cuDriverGetVersion(&v));
    EXPECT(v / 1000 == 13);
    for (int minor = v % 1000 / 10; minor <= v % 1000 / 10 + 1; minor++) {
        char text[400];
        std::snprintf(text, sizeof text, ".version 9.%d\n.target sm_75\n.address_size 64\n"
                      ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1, [p];\n"
                      "st.global.u32 [%%rd1], 7;\nret;\n}\n", minor);
        bool newer = minor > v % 1000 / 10;
        CUmodule m = NULL;
        CHECK_CU(cuModuleLoadData(&m, text), newer ? CUDA_ERROR_UNSUPPORTED_PTX_VERSION : CUDA_SUCCESS);
        if (newer || !m)
            continue;
        CUfunction k;
        CU_OK(cuModuleGetFunction(&k, m, "k"));
        int regs = 0;
        CU_OK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k));
        EXPECT(regs > 0);
        CU_OK(cuModuleUnload(m));
    }
}

/* The graphics interop entry points a real driver has with no display at
 * all: libraries look them up at start (Warp), and a call is refused. */
static void graphics_interop(void)
{
    const char *names[] = { "cuGraphicsGLRegisterBuffer", "cuGraphicsGLRegisterImage", "cuGLGetDevices",
                            "cuGraphicsEGLRegisterImage", "cuVDPAUGetDevice" };
    for (const char *n : names) {
        void *fn = NULL;
        CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        CU_OK(cuGetProcAddress(n, &fn, 3000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
        EXPECT(fn != NULL && found == CU_GET_PROC_ADDRESS_SUCCESS);
    }
    void *fn = NULL;
    CU_OK(cuGetProcAddress("cuGraphicsGLRegisterBuffer", &fn, 3000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
    CUgraphicsResource r;
    if (fn)
        CHECK_CU(((CUresult(*)(CUgraphicsResource *, unsigned, unsigned))fn)(&r, 1, 0), CUDA_ERROR_NOT_SUPPORTED);
}

/* Allocations start at least 512-byte aligned, and large ones on a 2 MiB
 * page as a GPU's do (Taichi counts on its pool starting page-aligned). */
static void alignment(void)
{
    CUdeviceptr small, large;
    CU_OK(cuMemAlloc(&small, 1000));
    CU_OK(cuMemAlloc(&large, 3u << 20));
    EXPECT(small % 512 == 0 && large % (2u << 20) == 0);
    CU_OK(cuMemFree(small));
    CU_OK(cuMemFree(large));
}

static void count_host(void *p) { ++*(int *)p; }

/* A graph built node by node through the driver, as NVIDIA's static
 * runtime builds the runtime's (and NVIDIA Warp its own): memset, kernel,
 * host, copy and event nodes, a child graph and a conditional, queried,
 * instantiated, run twice and updated; then a capture that allocates and
 * frees, as cuMemAllocAsync in a capture makes a graph's memory nodes. */
static void graphs_by_node(CUfunction add_one)
{
    const unsigned n = 64;
    CUdeviceptr d;
    CU_OK(cuMemAlloc(&d, n * 4));
    unsigned host[64];
    int ran = 0;
    CUgraph g;
    CU_OK(cuGraphCreate(&g, 0));
    CUgraphNode set, k, h, cp, ev, empty;
    CUDA_MEMSET_NODE_PARAMS ms = {};
    ms.dst = d;
    ms.value = 10;
    ms.elementSize = 4;
    ms.width = n;
    ms.height = 1;
    CU_OK(cuGraphAddMemsetNode(&set, g, NULL, 0, &ms, NULL));
    unsigned count = n;
    void *args[] = { &d, &count };
    CUDA_KERNEL_NODE_PARAMS kp = {};
    kp.func = add_one;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = n;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args;
    CU_OK(cuGraphAddKernelNode(&k, g, &set, 1, &kp));
    CUDA_HOST_NODE_PARAMS hp = { count_host, &ran };
    CU_OK(cuGraphAddHostNode(&h, g, &k, 1, &hp));
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = d;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = host;
    c.WidthInBytes = n * 4;
    c.Height = c.Depth = 1;
    CU_OK(cuGraphAddMemcpyNode(&cp, g, &h, 1, &c, NULL));
    CUevent e;
    CU_OK(cuEventCreate(&e, 0));
    CU_OK(cuGraphAddEventRecordNode(&ev, g, &cp, 1, e));
    CU_OK(cuGraphAddEmptyNode(&empty, g, &ev, 1));
    size_t nodes = 0, roots = 0, deps = 0;
    CU_OK(cuGraphGetNodes(g, NULL, &nodes));
    CU_OK(cuGraphGetRootNodes(g, NULL, &roots));
    CUgraphNode dep = NULL;
    deps = 1;
    CU_OK(cuGraphNodeGetDependencies(cp, &dep, NULL, &deps));
    EXPECT(nodes == 6 && roots == 1 && deps == 1 && dep == h);
    CUgraphNodeType type;
    CU_OK(cuGraphNodeGetType(k, &type));
    EXPECT(type == CU_GRAPH_NODE_TYPE_KERNEL);
    CUDA_KERNEL_NODE_PARAMS back = {};
    CU_OK(cuGraphKernelNodeGetParams(k, &back));
    EXPECT(back.func == add_one && back.blockDimX == n);

    /* A conditional node whose body (a child graph's kernel) runs while its
     * handle is non-zero: once, the default value 1 set by no kernel. */
    CUgraphConditionalHandle cond;
    CU_OK(cuGraphConditionalHandleCreate(&cond, g, NULL, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
    CUgraphNodeParams np = {};
    np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    np.conditional.handle = cond;
    np.conditional.type = CU_GRAPH_COND_TYPE_IF;
    np.conditional.size = 1;
    CUgraphNode cn;
    CU_OK(cuGraphAddNode(&cn, g, &empty, NULL, 1, &np));
    /* The bodies: an array the node owns, handed back. */
    CUgraph *bodies = np.conditional.phGraph_out;
    EXPECT(bodies && bodies[0]);
    CUgraphNode bk;
    if (bodies && bodies[0])
        CU_OK(cuGraphAddKernelNode(&bk, bodies[0], NULL, 0, &kp));
    CUgraphExec x;
    CU_OK(cuGraphInstantiateWithFlags(&x, g, 0));
    CU_OK(cuGraphLaunch(x, NULL));
    CU_OK(cuCtxSynchronize());
    /* The copy ran after the first kernel, before the conditional's. */
    EXPECT(host[0] == 11 && host[n - 1] == 11 && ran == 1);
    unsigned now[64];
    CU_OK(cuMemcpyDtoH(now, d, sizeof now));
    EXPECT(now[0] == 12 && now[n - 1] == 12);
    CU_OK(cuEventQuery(e));
    /* Half the threads from now on, in the executable graph only. */
    count = n / 2;
    CU_OK(cuGraphExecKernelNodeSetParams(x, k, &kp));
    CU_OK(cuGraphLaunch(x, NULL));
    CU_OK(cuCtxSynchronize());
    EXPECT(host[0] == 11 && host[n - 1] == 10 && ran == 2);
    CU_OK(cuGraphExecDestroy(x));
    CU_OK(cuGraphDestroy(g));
    CU_OK(cuEventDestroy(e));

    /* The first form of cuGraphAddKernelNode (CUDA 10's, without kern and
     * ctx), as programs built with older headers import it. */
    typedef CUresult (*add_v1)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_KERNEL_NODE_PARAMS_v1 *);
    void *fn_v1 = NULL;
    CU_OK(cuGetProcAddress("cuGraphAddKernelNode", &fn_v1, 10000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
    EXPECT(fn_v1 != NULL);
    if (fn_v1) {
        CU_OK(cuGraphCreate(&g, 0));
        CUDA_KERNEL_NODE_PARAMS_v1 k1 = {};
        std::memcpy(&k1, &kp, sizeof k1);
        CU_OK(((add_v1)fn_v1)(&k, g, NULL, 0, &k1));
        CU_OK(cuGraphInstantiateWithFlags(&x, g, 0));
        CU_OK(cuGraphLaunch(x, NULL));
        CU_OK(cuCtxSynchronize());
        CU_OK(cuGraphExecDestroy(x));
        CU_OK(cuGraphDestroy(g));
    }
    /* 12 and 11 after the second run (the conditional's body kept n: its
     * parameters were copied), then the first half once more. */
    CU_OK(cuMemcpyDtoH(now, d, sizeof now));
    for (unsigned i = 0; i < n; i++)
        EXPECT(now[i] == (i < n / 2 ? 13u : 11u));

    /* A copy node of a 2-D piece: 3 rows of 8 bytes at byte 8 of row 1 of
     * d (rows of 64 bytes) into rows of 16 bytes at byte 4. */
    CU_OK(cuGraphCreate(&g, 0));
    unsigned char piece[3][16];
    std::memset(piece, 0xEE, sizeof piece);
    CUDA_MEMCPY3D c2 = {};
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = d;
    c2.srcPitch = 64;
    c2.srcXInBytes = 8;
    c2.srcY = 1;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = piece;
    c2.dstPitch = 16;
    c2.dstXInBytes = 4;
    c2.WidthInBytes = 8;
    c2.Height = 3;
    c2.Depth = 1;
    CU_OK(cuGraphAddMemcpyNode(&cp, g, NULL, 0, &c2, NULL));
    CU_OK(cuGraphInstantiateWithFlags(&x, g, 0));
    CU_OK(cuGraphLaunch(x, NULL));
    CU_OK(cuCtxSynchronize());
    bool same = true;
    for (int r = 0; r < 3; r++)
        same = same && std::memcmp(&piece[r][4], (unsigned char *)now + (r + 1) * 64 + 8, 8) == 0 &&
               piece[r][3] == 0xEE && piece[r][12] == 0xEE;
    EXPECT(same);
    CU_OK(cuGraphExecDestroy(x));
    CU_OK(cuGraphDestroy(g));

    /* Stream-ordered memory in a capture: allocation and free nodes. */
    CUstream s;
    CU_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr tmp = 0;
    CU_OK(cuMemAllocAsync(&tmp, n * 4, s));
    CU_OK(cuMemsetD32Async(tmp, 5, n, s));
    CU_OK(cuMemcpyDtoDAsync(d, tmp, n * 4, s));
    CU_OK(cuMemFreeAsync(tmp, s));
    CU_OK(cuStreamEndCapture(s, &g));
    CU_OK(cuGraphGetNodes(g, NULL, &nodes));
    EXPECT(nodes == 4);
    CU_OK(cuGraphInstantiateWithFlags(&x, g, 0));
    CU_OK(cuGraphLaunch(x, s));
    CU_OK(cuStreamSynchronize(s));
    CU_OK(cuMemcpyDtoH(now, d, sizeof now));
    EXPECT(tmp != 0 && now[0] == 5 && now[n - 1] == 5);
    CU_OK(cuGraphExecDestroy(x));
    CU_OK(cuGraphDestroy(g));
    /* Nothing to allocate: no pointer, and no failure. */
    tmp = 1;
    CU_OK(cuMemAllocAsync(&tmp, 0, s));
    EXPECT(tmp == 0);
    CU_OK(cuStreamDestroy(s));
    CU_OK(cuMemFree(d));
}

static void stacks_queries(CUcontext ctx, CUfunction add_one)
{
    int can = -1;
    CU_OK(cuDeviceCanAccessPeer(&can, 0, 0));
    EXPECT(can == 0);
    CHECK_CU(cuDeviceCanAccessPeer(&can, 0, 1), CUDA_ERROR_INVALID_DEVICE);
    CHECK_CU(cuCtxEnablePeerAccess(ctx, 0), CUDA_ERROR_INVALID_DEVICE);
    CHECK_CU(cuCtxDisablePeerAccess(ctx), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    int v = 0;
    CHECK_CU(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0), CUDA_ERROR_INVALID_DEVICE);
    char bus[32];
    CU_OK(cuDeviceGetPCIBusId(bus, sizeof bus, 0));
    EXPECT(std::strcmp(bus, "0000:00:00.0") == 0);
    CUdevice d = -1;
    CU_OK(cuDeviceGetByPCIBusId(&d, "00:00.0"));
    EXPECT(d == 0);
    CHECK_CU(cuDeviceGetByPCIBusId(&d, "0000:07:00.0"), CUDA_ERROR_INVALID_DEVICE);

    CUstream s;
    CU_OK(cuStreamCreate(&s, 0));
    CUcontext sc = NULL;
    CU_OK(cuStreamGetCtx(s, &sc));
    EXPECT(sc == ctx);

    size_t off = 99, size = 99;
    CU_OK(cuFuncGetParamInfo(add_one, 1, &off, &size));
    EXPECT(off == 8 && size == 4);
    CHECK_CU(cuFuncGetParamInfo(add_one, 2, &off, &size), CUDA_ERROR_INVALID_VALUE);
    int grid = 0, block = 0;
    CU_OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, add_one, NULL, 0, 0));
    EXPECT(block > 0 && block % 32 == 0 && grid > 0);
    CU_OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, add_one, smem_for, 0, 256));
    EXPECT(block > 0 && block <= 256);

    int pools = 0;
    CU_OK(cuDeviceGetAttribute(&pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0));
    EXPECT(pools == 1);
    CUmemoryPool pool;
    CU_OK(cuDeviceGetMemPool(&pool, 0));
    CUdeviceptr p;
    CU_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, s));
    cuuint64_t used = 0;
    CU_OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    EXPECT(used >= 4096);
    CU_OK(cuMemsetD8Async(p, 7, 4096, s));
    CU_OK(cuMemFreeAsync(p, s));
    CU_OK(cuMemAllocAsync(&p, 64, s));
    CU_OK(cuMemFreeAsync(p, s));
    CU_OK(cuStreamSynchronize(s));
    CU_OK(cuMemPoolTrimTo(pool, 0));
    CU_OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &used));
    EXPECT(used == 0);
    CU_OK(cuStreamDestroy(s));
}

int main(int argc, char **argv)
{
    int version = 0;
    CU_OK(cuDriverGetVersion(&version));
    EXPECT(version >= 13000);
    CUdevice dev;
    CHECK_CU(cuDeviceGet(&dev, 0), CUDA_ERROR_NOT_INITIALIZED);
    CHECK_CU(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    CU_OK(cuInit(0));
    int count = 0;
    CU_OK(cuDeviceGetCount(&count));
    EXPECT(count == 1);
    CHECK_CU(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    CU_OK(cuDeviceGet(&dev, 0));
    char name[128];
    CU_OK(cuDeviceGetName(name, sizeof name, dev));
    EXPECT(std::strstr(name, "ptxsim") != NULL);
    int sms = 0, major = 0;
    CU_OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CU_OK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    EXPECT(sms > 0 && major >= 5);
    size_t total = 0;
    CU_OK(cuDeviceTotalMem(&total, dev));
    EXPECT(total >= (64ull << 30));

    /* No context yet. */
    CUdeviceptr dp;
    CHECK_CU(cuMemAlloc(&dp, 16), CUDA_ERROR_INVALID_CONTEXT);
    CUcontext ctx = NULL, cur = NULL, prim = NULL;
    CU_OK(cuCtxGetCurrent(&cur));
    EXPECT(cur == NULL);
    CU_OK(cuCtxCreate(&ctx, NULL, 0, dev));
    CU_OK(cuCtxGetCurrent(&cur));
    EXPECT(cur == ctx);
    CU_OK(cuDevicePrimaryCtxRetain(&prim, dev));
    CU_OK(cuCtxPushCurrent(prim));
    CU_OK(cuCtxGetCurrent(&cur));
    EXPECT(cur == prim);
    CU_OK(cuCtxPopCurrent(&cur));
    EXPECT(cur == prim);
    CU_OK(cuCtxGetCurrent(&cur));
    EXPECT(cur == ctx);
    /* Context ids: the primary context's differs from a created one's. */
    unsigned long long prim_id = 0, ctx_id = 0;
    CU_OK(cuCtxGetId(prim, &prim_id));
    CU_OK(cuCtxGetId(ctx, &ctx_id));
    EXPECT(prim_id != 0 && ctx_id != 0 && prim_id != ctx_id);
    CHECK_CU(cuCtxGetId(ctx, NULL), CUDA_ERROR_INVALID_VALUE);
    CU_OK(cuDevicePrimaryCtxRelease(dev));
    CHECK_CU(cuCtxPushCurrent((CUcontext)&count), CUDA_ERROR_INVALID_CONTEXT);

    /* Limits the math libraries ask about: shared memory per block, and
     * compute-in-graphics (CIG) mode, which a device without graphics
     * never enables. */
    size_t limit = 99;
    CU_OK(cuCtxGetLimit(&limit, CU_LIMIT_SHMEM_SIZE));
    EXPECT(limit >= 48 * 1024);
    CU_OK(cuCtxGetLimit(&limit, CU_LIMIT_CIG_ENABLED));
    EXPECT(limit == 0);
    CHECK_CU(cuCtxSetLimit(CU_LIMIT_CIG_ENABLED, 1), CUDA_ERROR_INVALID_VALUE);
    CHECK_CU(cuCtxSetLimit(CU_LIMIT_SHMEM_SIZE, 1024), CUDA_ERROR_INVALID_VALUE);

    /* Modules. */
    CUmodule mod, bad, from_file;
    CU_OK(cuModuleLoadData(&mod, ptx));
    CHECK_CU(cuModuleLoadData(&bad, ".version 8.0\n.target sm_75\n.address_size 64\nnot ptx;\n"),
             CUDA_ERROR_INVALID_PTX);
    corrupt_fatbins();
    jit_refusals();
    ptx_of_driver_version();
    graphics_interop();
    CUfunction fn, none;
    CU_OK(cuModuleGetFunction(&fn, mod, "add_one"));
    CHECK_CU(cuModuleGetFunction(&none, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    CUdeviceptr gptr;
    size_t gbytes = 0;
    CU_OK(cuModuleGetGlobal(&gptr, &gbytes, mod, "counter"));
    unsigned counter = 0;
    CU_OK(cuMemcpyDtoH(&counter, gptr, sizeof counter));
    EXPECT(gbytes == 4 && counter == 5);
    CHECK_CU(cuModuleGetGlobal(&gptr, &gbytes, mod, "nothing"), CUDA_ERROR_NOT_FOUND);
    int maxt = 0;
    CU_OK(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn));
    EXPECT(maxt == 1024);

    /* Memory and launches, both argument forms. */
    const int n = 1000;
    int h[n];
    for (int i = 0; i < n; i++)
        h[i] = i;
    CU_OK(cuMemAlloc(&dp, n * sizeof(int)));
    CU_OK(cuMemcpyHtoD(dp, h, sizeof h));
    int nn = n;
    void *params[] = { &dp, &nn };
    CU_OK(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    struct { CUdeviceptr p; int n; } buf = { dp, n };
    size_t bufsize = sizeof buf;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufsize,
                      CU_LAUNCH_PARAM_END };
    CU_OK(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, NULL, extra));
    CU_OK(cuCtxSynchronize());
    CU_OK(cuMemcpyDtoH(h, dp, sizeof h));
    EXPECT(h[0] == 2 && h[n - 1] == n + 1);
    CHECK_CU(cuLaunchKernel(fn, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    /* More dynamic shared memory than a kernel may have without the opt-in. */
    CHECK_CU(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 100 * 1024, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_CU(cuLaunchKernel((CUfunction)&count, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL),
             CUDA_ERROR_INVALID_HANDLE);
    CUdeviceptr d2;
    CU_OK(cuMemAlloc(&d2, sizeof h));
    CU_OK(cuMemsetD32(d2, 0xDEADBEEF, n));
    CU_OK(cuMemcpyDtoD(dp, d2, sizeof h));
    CU_OK(cuMemsetD8(d2, 0x7F, 4));
    /* Each word's pointer must be aligned to it (cuMemsetD16, cuMemsetD32). */
    CHECK_CU(cuMemsetD32(d2 + 2, 0, 1), CUDA_ERROR_INVALID_VALUE);
    CHECK_CU(cuMemsetD16(d2 + 1, 0, 1), CUDA_ERROR_INVALID_VALUE);
    /* A buffer id: nonzero, the allocation's, never another's. */
    unsigned long long id1 = 0, id2 = 0, id3 = 0;
    CU_OK(cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, dp + 8));
    CU_OK(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, d2));
    EXPECT(id1 != 0 && id2 != 0 && id1 != id2);
    CUdeviceptr d3;
    CU_OK(cuMemAlloc(&d3, 64));
    CU_OK(cuMemFree(d3));
    CU_OK(cuMemAlloc(&d3, 64));         /* (the same address, likely) */
    CU_OK(cuPointerGetAttribute(&id3, CU_POINTER_ATTRIBUTE_BUFFER_ID, d3));
    EXPECT(id3 != 0 && id3 != id1 && id3 != id2);
    CU_OK(cuMemFree(d3));
    CU_OK(cuMemcpyDtoH(h, dp, sizeof h));
    EXPECT((unsigned)h[n - 1] == 0xDEADBEEFu);
    CU_OK(cuMemcpyDtoH(h, d2, sizeof(int)));
    EXPECT((unsigned)h[0] == 0x7F7F7F7Fu);
    CHECK_CU(cuMemcpyHtoD(dp, h, 2 * sizeof h), CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr base;
    size_t range = 0;
    CU_OK(cuMemGetAddressRange(&base, &range, dp + 40));
    EXPECT(base == dp && range == sizeof h);
    size_t freeb = 0;
    CU_OK(cuMemGetInfo(&freeb, &total));
    EXPECT(freeb <= total);

    /* Streams and events. */
    CUstream s;
    CUevent e0, e1;
    CU_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_OK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CU_OK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CU_OK(cuEventRecord(e0, s));
    CU_OK(cuMemcpyHtoDAsync(dp, h, sizeof h, s));
    CU_OK(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, s, params, NULL));
    CU_OK(cuEventRecord(e1, s));
    CU_OK(cuStreamSynchronize(s));
    CU_OK(cuEventSynchronize(e1));
    float ms = -1;
    CU_OK(cuEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0);
    CU_OK(cuEventDestroy(e0));
    CU_OK(cuEventDestroy(e1));
    CU_OK(cuStreamDestroy(s));
    CHECK_CU(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
    CHECK_CU(cuEventRecord(e0, NULL), CUDA_ERROR_INVALID_HANDLE);
    CHECK_CU(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, params, NULL), CUDA_ERROR_INVALID_HANDLE);

    /* A module from a file. */
    char path[] = "/tmp/ptxsim_api_driver_XXXXXX";
    int fd = mkstemp(path);
    EXPECT(fd >= 0);
    if (fd >= 0) {
        EXPECT(write(fd, ptx, sizeof ptx - 1) == (ssize_t)(sizeof ptx - 1));
        close(fd);
        CU_OK(cuModuleLoad(&from_file, path));
        CUfunction f2;
        CU_OK(cuModuleGetFunction(&f2, from_file, "add_one"));
        CU_OK(cuModuleUnload(from_file));
        /* Written with its terminator, as NVIDIA Warp's kernel cache is. */
        fd = open(path, O_WRONLY | O_TRUNC);
        EXPECT(fd >= 0 && write(fd, ptx, sizeof ptx) == (ssize_t)sizeof ptx);
        close(fd);
        CU_OK(cuModuleLoad(&from_file, path));
        CU_OK(cuModuleGetFunction(&f2, from_file, "add_one"));
        CU_OK(cuModuleUnload(from_file));
        unlink(path);
    }
    CHECK_CU(cuModuleLoad(&from_file, "/nonexistent/x.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    if (argc > 1)
        fatbin(argv[1]);
    jit_and_link();
    stacks_queries(ctx, fn);
    graphs_by_node(fn);
    alignment();

    /* Errors and teardown. */
    const char *str = NULL;
    CU_OK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &str));
    EXPECT(str && std::strcmp(str, "invalid argument") == 0);
    CU_OK(cuGetErrorName(CUDA_ERROR_OUT_OF_MEMORY, &str));
    EXPECT(str && std::strcmp(str, "CUDA_ERROR_OUT_OF_MEMORY") == 0);
    CHECK_CU(cuGetErrorName((CUresult)4321, &str), CUDA_ERROR_INVALID_VALUE);
    CU_OK(cuMemFree(dp));
    CHECK_CU(cuMemFree(dp), CUDA_ERROR_INVALID_VALUE);
    CU_OK(cuMemFree(d2));
    CU_OK(cuModuleUnload(mod));
    CHECK_CU(cuModuleGetFunction(&none, mod, "add_one"), CUDA_ERROR_INVALID_HANDLE);
    CHECK_CU(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    /* Entry points by name: the newest version of cuMemAlloc. */
    void *pfn = NULL;
    CUdriverProcAddressQueryResult q;
    CU_OK(cuGetProcAddress("cuMemAlloc", &pfn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    EXPECT(q == CU_GET_PROC_ADDRESS_SUCCESS && pfn == (void *)&cuMemAlloc_v2);
    CHECK_CU(cuGetProcAddress("cuNothing", &pfn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q), CUDA_ERROR_NOT_FOUND);
    EXPECT(q == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    /* Private tables by UUID: the context-local storage the static runtime
     * keeps its state in is served; NVRTC's table is refused quietly, an
     * unknown one with a warning naming it and who asked (api_driver.nvcc:
     * tests/runtime/CMakeLists.txt checks the message); both give NULL. */
    const CUuuid storage = { { (char)0xc6, (char)0x93, 0x33, 0x6e, 0x11, 0x21, (char)0xdf, 0x11, (char)0xa8,
                               (char)0xc3, 0x68, (char)0xf3, 0x55, (char)0xd8, (char)0x95, (char)0x93 } };
    const CUuuid nvrtc = { { (char)0xda, (char)0x91, 0x51, (char)0xd3, 0x3a, (char)0xe6, (char)0xcc, 0x41,
                             (char)0xa5, (char)0xc0, 0x4f, 0x26, (char)0xd5, 0x33, (char)0xe3, 0x28 } };
    const CUuuid unknown = { { 0x01, 0x23, 0x45, 0x67, (char)0x89, (char)0xab, (char)0xcd, (char)0xef, 0x01, 0x23,
                               0x45, 0x67, (char)0x89, (char)0xab, (char)0xcd, (char)0xef } };
    const void *table = NULL;
    CU_OK(cuGetExportTable(&table, &storage));
    EXPECT(table != NULL);
    table = &table;
    CHECK_CU(cuGetExportTable(&table, &nvrtc), CUDA_ERROR_NOT_FOUND);
    EXPECT(table == NULL);
    table = &table;
    CHECK_CU(cuGetExportTable(&table, &unknown), CUDA_ERROR_NOT_FOUND);
    CHECK_CU(cuGetExportTable(&table, &unknown), CUDA_ERROR_NOT_FOUND);
    EXPECT(table == NULL);
    CHECK_CU(cuGetExportTable(NULL, &unknown), CUDA_ERROR_INVALID_VALUE);
    /* Arrays, 2-D copies and texture objects through the driver: an 8x4
     * uchar array read with the driver's default (normalised floats) and
     * with CU_TRSF_READ_AS_INTEGER, by a kernel fetching texel (i, 1). */
    static const char tex_ptx[] =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry fetch(.param .u64 t, .param .u64 out)\n{\n"
        " .reg .b32 %r<4>;\n .reg .f32 %f<8>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [t];\n ld.param.u64 %rd2, [out];\n mov.u32 %r1, %tid.x;\n"
        " cvt.rn.f32.u32 %f1, %r1;\n add.f32 %f1, %f1, 0f3F000000;\n"
        " tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, 0f3FC00000}];\n"
        " mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n st.global.f32 [%rd4], %f2;\n"
        " ret;\n}\n"
        ".visible .entry fetch_int(.param .u64 t, .param .u64 out)\n{\n"
        " .reg .b32 %r<8>;\n .reg .f32 %f<2>;\n .reg .b64 %rd<6>;\n"
        " ld.param.u64 %rd1, [t];\n ld.param.u64 %rd2, [out];\n mov.u32 %r1, %tid.x;\n"
        " cvt.rn.f32.u32 %f1, %r1;\n add.f32 %f1, %f1, 0f3F000000;\n"
        " tex.2d.v4.u32.f32 {%r2, %r3, %r4, %r5}, [%rd1, {%f1, 0f3FC00000}];\n"
        " mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r2;\n"
        " ret;\n}\n";
    CUmodule tmod;
    CUfunction tfn, tfn_int;
    CU_OK(cuModuleLoadData(&tmod, tex_ptx));
    CU_OK(cuModuleGetFunction(&tfn, tmod, "fetch"));
    CU_OK(cuModuleGetFunction(&tfn_int, tmod, "fetch_int"));
    CUDA_ARRAY_DESCRIPTOR ad = { 8, 4, CU_AD_FORMAT_UNSIGNED_INT8, 1 }, ad_got;
    CUarray arr;
    CU_OK(cuArrayCreate(&arr, &ad));
    CU_OK(cuArrayGetDescriptor(&ad_got, arr));
    EXPECT(ad_got.Width == 8 && ad_got.Height == 4 && ad_got.Format == CU_AD_FORMAT_UNSIGNED_INT8 &&
           ad_got.NumChannels == 1);
    CUDA_ARRAY_DESCRIPTOR bad_ad = { 8, 4, CU_AD_FORMAT_FLOAT, 3 };
    CUarray bad_arr;
    CHECK_CU(cuArrayCreate(&bad_arr, &bad_ad), CUDA_ERROR_INVALID_VALUE);
    unsigned char texels[32];
    for (int i = 0; i < 32; i++)
        texels[i] = (unsigned char)(i * 7);
    CUDA_MEMCPY2D cp;
    std::memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = texels;
    cp.srcPitch = 8;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = arr;
    cp.WidthInBytes = 8;
    cp.Height = 4;
    CU_OK(cuMemcpy2D(&cp));
    cp.Height = 5;
    CHECK_CU(cuMemcpy2D(&cp), CUDA_ERROR_INVALID_VALUE);      /* past the array's last row */
    CUDA_RESOURCE_DESC rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = arr;
    CUDA_TEXTURE_DESC td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    CUdeviceptr tout;
    CU_OK(cuMemAlloc(&tout, 8 * sizeof(float)));
    for (int as_int = 0; as_int < 2; as_int++) {
        td.flags = as_int ? CU_TRSF_READ_AS_INTEGER : 0;
        CUtexObject tex;
        CU_OK(cuTexObjectCreate(&tex, &rd, &td, NULL));
        /* The descriptors come back as they were given. */
        CUDA_RESOURCE_DESC rd_got;
        CUDA_TEXTURE_DESC td_got;
        CU_OK(cuTexObjectGetResourceDesc(&rd_got, tex));
        EXPECT(rd_got.resType == CU_RESOURCE_TYPE_ARRAY && rd_got.res.array.hArray == arr);
        CU_OK(cuTexObjectGetTextureDesc(&td_got, tex));
        EXPECT(td_got.addressMode[0] == CU_TR_ADDRESS_MODE_CLAMP && td_got.addressMode[1] == CU_TR_ADDRESS_MODE_CLAMP &&
               td_got.filterMode == CU_TR_FILTER_MODE_POINT && td_got.flags == td.flags);
        CHECK_CU(cuTexObjectGetResourceDesc(NULL, tex), CUDA_ERROR_INVALID_VALUE);
        CHECK_CU(cuTexObjectGetTextureDesc(NULL, tex), CUDA_ERROR_INVALID_VALUE);
        CHECK_CU(cuSurfObjectGetResourceDesc(&rd_got, tex), CUDA_ERROR_INVALID_VALUE);  /* not a surface */
        void *tparams[] = { &tex, &tout };
        CU_OK(cuLaunchKernel(as_int ? tfn_int : tfn, 1, 1, 1, 8, 1, 1, 0, NULL, tparams, NULL));
        float got[8];
        unsigned got_int[8];
        CU_OK(cuMemcpyDtoH(got, tout, sizeof got));
        std::memcpy(got_int, got, sizeof got);
        bool right = true;
        for (int i = 0; i < 8; i++)
            right = right && (as_int ? got_int[i] == texels[8 + i] : got[i] == texels[8 + i] / 255.0f);
        EXPECT(right);
        CU_OK(cuTexObjectDestroy(tex));
        CHECK_CU(cuTexObjectDestroy(tex), CUDA_ERROR_INVALID_VALUE);
        CHECK_CU(cuTexObjectGetResourceDesc(&rd_got, tex), CUDA_ERROR_INVALID_VALUE);
        CHECK_CU(cuTexObjectGetTextureDesc(&td_got, tex), CUDA_ERROR_INVALID_VALUE);
    }
    /* A texture over linear memory, and a surface object, describe
     * themselves too. */
    {
        CUDA_RESOURCE_DESC lin;
        std::memset(&lin, 0, sizeof lin);
        lin.resType = CU_RESOURCE_TYPE_LINEAR;
        lin.res.linear.devPtr = tout;
        lin.res.linear.format = CU_AD_FORMAT_FLOAT;
        lin.res.linear.numChannels = 2;
        lin.res.linear.sizeInBytes = 8 * sizeof(float);
        CUtexObject ltex;
        CU_OK(cuTexObjectCreate(&ltex, &lin, &td, NULL));
        CUDA_RESOURCE_DESC got;
        CU_OK(cuTexObjectGetResourceDesc(&got, ltex));
        EXPECT(got.resType == CU_RESOURCE_TYPE_LINEAR && got.res.linear.devPtr == tout &&
               got.res.linear.format == CU_AD_FORMAT_FLOAT && got.res.linear.numChannels == 2 &&
               got.res.linear.sizeInBytes == 8 * sizeof(float));
        CU_OK(cuTexObjectDestroy(ltex));
        CUDA_ARRAY3D_DESCRIPTOR sd = { 8, 4, 0, CU_AD_FORMAT_SIGNED_INT16, 4, CUDA_ARRAY3D_SURFACE_LDST };
        CUarray sarr;
        CU_OK(cuArray3DCreate(&sarr, &sd));
        CUDA_RESOURCE_DESC srd;
        std::memset(&srd, 0, sizeof srd);
        srd.resType = CU_RESOURCE_TYPE_ARRAY;
        srd.res.array.hArray = sarr;
        CUsurfObject surf;
        CU_OK(cuSurfObjectCreate(&surf, &srd));
        CU_OK(cuSurfObjectGetResourceDesc(&got, surf));
        EXPECT(got.resType == CU_RESOURCE_TYPE_ARRAY && got.res.array.hArray == sarr);
        CHECK_CU(cuSurfObjectGetResourceDesc(NULL, surf), CUDA_ERROR_INVALID_VALUE);
        CHECK_CU(cuTexObjectGetResourceDesc(&got, surf), CUDA_ERROR_INVALID_VALUE);     /* not a texture */
        CU_OK(cuSurfObjectDestroy(surf));
        CHECK_CU(cuSurfObjectGetResourceDesc(&got, surf), CUDA_ERROR_INVALID_VALUE);
        CU_OK(cuArrayDestroy(sarr));
    }
    /* Back out of the array. */
    unsigned char back[32] = {0};
    CU_OK(cuMemcpyAtoH(back, arr, 0, sizeof back));
    EXPECT(std::memcmp(back, texels, sizeof back) == 0);
    CU_OK(cuMemFree(tout));
    CU_OK(cuArrayDestroy(arr));
    CHECK_CU(cuArrayDestroy(arr), CUDA_ERROR_INVALID_HANDLE);
    CU_OK(cuModuleUnload(tmod));
    CU_OK(cuCtxDestroy(ctx));
    CHECK_CU(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
    std::printf("%s api_driver (%d failed check%s)\n", failures ? "FAIL" : "PASS", failures,
                failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}

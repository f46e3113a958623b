/*
 * cu_export.c -- cuGetExportTable: the private tables NVIDIA's static CUDA
 * runtime (nvcc's default, linked into the program) asks libcuda.so.1 for,
 * each named by a UUID.  A table is an array of pointers; most start with
 * their own size in bytes, then functions.  What the CUDA 13.0 runtime
 * asks for, in order, and what it needs of each (found by serving each
 * slot and watching what the runtime does with the answer):
 *
 *   f8cff951-2146-8b4e-b9e2-fb469e7c0dd9  asked for first; without it the
 *                                         runtime takes its usual path, so
 *                                         it is refused (CUDA_ERROR_NOT_FOUND)
 *   6bd5fb6c-5bf4-e74a-8987-d93912fd9df9  the runtime interface: slot 2
 *                                         retains the primary context
 *   a094798c-2e74-2e74-93f2-0800200c0a66  tools callback hooks: slots 2 and 6
 *                                         give the flag arrays a profiler
 *                                         would set (all clear: no tool)
 *   42d85a81-23f6-cb47-8298-f6e78a3aecdc  tools thread-local storage: must
 *                                         exist; the runtime calls no slot
 *                                         (cuBLASLt calls slot 2: the current
 *                                         context)
 *   c693336e-1121-df11-a8c3-68f355d89593  context-local storage (no size
 *                                         field): put, delete and get the
 *                                         runtime's state for a context
 *   263e8860-7cd2-6143-92f6-bbd5006dfa7e  context checks: slot 2 is asked
 *                                         about a context before the runtime
 *                                         stores its state, slot 3 once at
 *                                         start; both answer 0
 *   d4082055-bde6-704b-8d34-ba123c66e1f2  integrity check: slot 1 answers a
 *                                         challenge with an HMAC the runtime
 *                                         checks (cudaErrorSoftwareValidity-
 *                                         NotEstablished if it differs)
 *
 * And what NVIDIA's math libraries (cuBLAS, cuBLASLt, cuFFT) ask for beyond
 * the runtime's tables:
 *
 *   21318c60-9714-3248-8ca6-41ff7324c8f2  tools context: slots 3 and 4 give a
 *                                         context's device and id, 39 a
 *                                         stream's id, 51 resolves a stream
 *                                         handle (NULL: the legacy or the
 *                                         per-thread stream)
 *   6e163fbe-b958-444d-835c-e182aff1991e  tools module: slot 7 visits each
 *                                         function of a module (cuFFT finds
 *                                         its kernels this way)
 *   1734dc26-800d-4745-8726-c0f1e7dd8bca  cuBLASLt's own: served, every slot
 *                                         a stub, so that cuBLASLt sees an
 *                                         error rather than a NULL table
 *
 * And what NVIDIA's compilers (libnvrtc.so.13 and libnvJitLink.so.13, which
 * CuPy, Numba-CUDA and cuda.core compile and link with) ask for:
 *
 *   da9151d3-3ae6-cc41-a5c0-4f26d533e328  asked for by nvrtcCompileProgram at
 *                                         every compile (and by the toolkit's
 *                                         nvJitLink at every link): served,
 *                                         NVRTC calls slot 1 once with an
 *                                         output word, 2, a pointer and 2372,
 *                                         for what is not known; refused
 *                                         (CUDA_ERROR_NOT_FOUND), both compile
 *                                         as usual, so it is refused without
 *                                         a message
 *
 * A refused table hands out no slot, so nothing of it can be called.  Slots
 * of a served table the runtime has not been seen to call are stubs that
 * name themselves once on stderr and return CUDA_ERROR_NOT_SUPPORTED, as an
 * unknown table's UUID is named once (with the library that asked) and
 * refused with CUDA_ERROR_NOT_FOUND.  PTXSIM_TRACE_DRIVER=1 logs every
 * request, with the library that made it, and the first call of each slot.
 */
#define _GNU_SOURCE
#include "cu_int.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- slots not implemented ------------------------------------------------ */

/* Every slot of a table starts as a stub of its own, which names itself
 * (table and slot) once on stderr and returns CUDA_ERROR_NOT_SUPPORTED;
 * called with whatever arguments the slot takes, which the C ABI lets it
 * ignore.  A table then lists the slots it serves (export_slot), which
 * replace their stubs when the table is first asked for. */
#define STUB(table, n)                                                                  \
    __attribute__((unused)) static CUresult table##_stub_##n(void)                      \
    {                                                                                   \
        return (CUresult)rt_unimplemented("slot " #n " of cuGetExportTable's " #table " table"); \
    }
#define STUBS10(table, tens)                                                            \
    STUB(table, tens##0) STUB(table, tens##1) STUB(table, tens##2) STUB(table, tens##3) \
    STUB(table, tens##4) STUB(table, tens##5) STUB(table, tens##6) STUB(table, tens##7) \
    STUB(table, tens##8) STUB(table, tens##9)
/* Slots 0 to 99. */
#define STUBS(table)                                                                    \
    STUB(table, 0) STUB(table, 1) STUB(table, 2) STUB(table, 3) STUB(table, 4)          \
    STUB(table, 5) STUB(table, 6) STUB(table, 7) STUB(table, 8) STUB(table, 9)          \
    STUBS10(table, 1) STUBS10(table, 2) STUBS10(table, 3) STUBS10(table, 4)             \
    STUBS10(table, 5) STUBS10(table, 6) STUBS10(table, 7) STUBS10(table, 8)             \
    STUBS10(table, 9)                                                                   \
    static const void *const table##_stubs[100] = {                                     \
        STUB_PTRS10(table, ), STUB_PTRS10(table, 1), STUB_PTRS10(table, 2),             \
        STUB_PTRS10(table, 3), STUB_PTRS10(table, 4), STUB_PTRS10(table, 5),            \
        STUB_PTRS10(table, 6), STUB_PTRS10(table, 7), STUB_PTRS10(table, 8),            \
        STUB_PTRS10(table, 9),                                                          \
    };
#define STUB_PTRS10(table, tens)                                                        \
    T(table##_stub_##tens##0), T(table##_stub_##tens##1), T(table##_stub_##tens##2),    \
    T(table##_stub_##tens##3), T(table##_stub_##tens##4), T(table##_stub_##tens##5),    \
    T(table##_stub_##tens##6), T(table##_stub_##tens##7), T(table##_stub_##tens##8),    \
    T(table##_stub_##tens##9)
#define T(f) ((const void *)(f))

/* A slot a table serves. */
typedef struct export_slot {
    unsigned slot;
    const void *fn;
} export_slot;

/* The tables as handed out (export_table builds each at its first request). */
static const void *runtime_interface[13], *tools_hooks[7], *tools_tls[4], *tools_context[95],
    *context_storage[4], *context_checks[15], *integrity[3], *tools_module[100], *blaslt_private[100];

static bool tracing(void)
{
    rt_lock();
    bool on = rt.cfg.trace_driver;
    rt_unlock();
    return on;
}

/* ---- 6bd5fb6c: the runtime interface ------------------------------------- */

static CUresult rti_primary_ctx(CUcontext *pctx, CUdevice dev)
{
    RT_ASYNC_ENTRY();      /* bookkeeping: never waits for the device */
    rt_cu_trace_call("runtime interface table, slot 2 (retain the primary context)");
    if (tracing())
        rt_say("driver: runtime interface: retain the primary context of device %d", dev);
    return cuDevicePrimaryCtxRetain(pctx, dev);
}


STUBS(runtime_interface)

static const export_slot runtime_interface_served[] = { { 2, T(rti_primary_ctx) } };

/* ---- a094798c: tools callback hooks -------------------------------------- */

/* The runtime reads these to learn which of its calls a tool (a profiler)
 * subscribed to; ptxsim has no tools, so they stay zero, and the runtime
 * is what writes them if anything does. */
static uint32_t tools_callbacks[1024];
static uint8_t tools_domains[14];

static void hooks_callbacks(void **ptr, size_t *count)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools callback hooks table, slot 2 (the callbacks' flags)");
    *ptr = tools_callbacks;
    *count = sizeof tools_callbacks / sizeof tools_callbacks[0];
}

static void hooks_domains(void **ptr, size_t *count)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools callback hooks table, slot 6 (the domains' flags)");
    *ptr = tools_domains;
    *count = sizeof tools_domains;
}


STUBS(tools_hooks)

static const export_slot tools_hooks_served[] = { { 2, T(hooks_callbacks) }, { 6, T(hooks_domains) } };

/* ---- 42d85a81: tools thread-local storage -------------------------------- */

/* The calling thread's current context (cuBLASLt asks at its first GEMM). */
static CUresult tls_current_context(CUcontext *out)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools thread-local storage table, slot 2 (the current context)");
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = (CUcontext)rt_ctx_current();
    return CUDA_SUCCESS;
}


STUBS(tools_tls)

static const export_slot tools_tls_served[] = { { 2, T(tls_current_context) } };

/* ---- 21318c60: tools context ---------------------------------------------- */

/* Facts about a context, asked for by cuBLAS, cuBLASLt and cuFFT.  The
 * driver's table has 94 slots; those seen called are served. */
static rt_ctx *tools_ctx(CUcontext ctx)
{
    rt_ctx *c = ctx ? (rt_ctx *)ctx : rt_ctx_current();
    return c && rt_ctx_valid(c) ? c : NULL;
}

static CUresult tctx_device(CUcontext ctx, CUdevice *dev)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools context table, slot 3 (a context's device)");
    if (!dev)
        return CUDA_ERROR_INVALID_VALUE;
    if (!tools_ctx(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    *dev = 0;
    return CUDA_SUCCESS;
}

static CUresult tctx_id(CUcontext ctx, unsigned long long *id)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools context table, slot 4 (a context's id)");
    return cuCtxGetId(ctx, id);
}

/* Which stream a handle names, for slot 39 to take: NULL is the default
 * stream, the per-thread one where the caller was built for it. */
static CUresult tctx_stream(CUcontext ctx, CUstream stream, CUstream *out, int per_thread)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools context table, slot 51 (the stream a handle names)");
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!tools_ctx(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!stream)
        stream = per_thread ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
    unsigned long long id;
    if (rt_stream_info((cudaStream_t)stream, NULL, NULL, &id) != cudaSuccess)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = stream;
    return CUDA_SUCCESS;
}

/* A stream's id (cuStreamGetId's): cuBLAS keys its workspaces by it. */
static CUresult tctx_stream_id(CUcontext ctx, CUstream stream, unsigned long long *id)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools context table, slot 39 (a stream's id)");
    if (!id)
        return CUDA_ERROR_INVALID_VALUE;
    if (!tools_ctx(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    return rt_cu_result(rt_stream_info((cudaStream_t)stream, NULL, NULL, id));
}

STUBS(tools_context)

static const export_slot tools_context_served[] = { { 3, T(tctx_device) }, { 4, T(tctx_id) }, { 39, T(tctx_stream_id) }, { 51, T(tctx_stream) } };

/* ---- c693336e: context-local storage ------------------------------------- */

/* The runtime keeps its per-context state (its loaded modules, kernels and
 * streams) here, keyed by context and by its own manager pointer; a NULL
 * context is the calling thread's current one. */
static rt_ctx *cls_context(CUcontext c)
{
    return c ? (rt_ctx *)c : rt_ctx_current();
}

static CUresult cls_put(CUcontext ctx, void *manager, void *state, rt_cls_dtor dtor)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("context-local storage table, slot 0 (put)");
    rt_ctx *c = cls_context(ctx);
    if (tracing())
        rt_say("driver: context-local storage: put %p for context %p", state, (void *)c);
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!rt_ctx_valid(c))
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    return rt_cu_result(rt_cls_put(c, manager, state, dtor));
}

static CUresult cls_delete(CUcontext ctx, void *manager)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("context-local storage table, slot 1 (delete)");
    rt_ctx *c = cls_context(ctx);
    if (tracing())
        rt_say("driver: context-local storage: delete for context %p", (void *)c);
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    return rt_cls_delete(c, manager) ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

static CUresult cls_get(void **state, CUcontext ctx, void *manager)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("context-local storage table, slot 2 (get)");
    rt_ctx *c = cls_context(ctx);
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    *state = NULL;
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    return rt_cls_get(c, manager, state) ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}


STUBS(context_storage)

static const export_slot context_storage_served[] = { { 0, T(cls_put) }, { 1, T(cls_delete) }, { 2, T(cls_get) } };

/* ---- 263e8860: context checks -------------------------------------------- */

/* Asked of a context before the runtime adopts it; 0 lets it proceed. */
static CUresult checks_context(CUcontext ctx, uint32_t *out_flags, void **out_unused)
{
    (void)out_unused;
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("context checks table, slot 2 (check a context)");
    if (tracing())
        rt_say("driver: context checks: context %p", (void *)ctx);
    if (out_flags)
        *out_flags = 0;
    return CUDA_SUCCESS;
}

/* Called once at start, with arguments that differ from program to program
 * (what it checks is not known); 0 lets the runtime proceed. */
static uint32_t checks_start(uintptr_t a, uintptr_t b, uintptr_t c)
{
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("context checks table, slot 3 (check at start)");
    if (tracing())
        rt_say("driver: context checks: start (%#lx, %#lx, %#lx)", (unsigned long)a, (unsigned long)b,
               (unsigned long)c);
    return 0;
}


STUBS(context_checks)

static const export_slot context_checks_served[] = { { 2, T(checks_context) }, { 3, T(checks_start) } };

/* ---- d4082055: integrity check ------------------------------------------- */

/* MD2 (RFC 1319): the hash the challenge's HMAC is built on.  The
 * substitution table is the RFC's (digits of pi). */
static const uint8_t md2_pi[256] = {
     41,  46,  67, 201, 162, 216, 124,   1,  61,  54,  84, 161, 236, 240,   6,  19,
     98, 167,   5, 243, 192, 199, 115, 140, 152, 147,  43, 217, 188,  76, 130, 202,
     30, 155,  87,  60, 253, 212, 224,  22, 103,  66, 111,  24, 138,  23, 229,  18,
    190,  78, 196, 214, 218, 158, 222,  73, 160, 251, 245, 142, 187,  47, 238, 122,
    169, 104, 121, 145,  21, 178,   7,  63, 148, 194,  16, 137,  11,  34,  95,  33,
    128, 127,  93, 154,  90, 144,  50,  39,  53,  62, 204, 231, 191, 247, 151,   3,
    255,  25,  48, 179,  72, 165, 181, 209, 215,  94, 146,  42, 172,  86, 170, 198,
     79, 184,  56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116,   4, 241,
     69, 157, 112,  89, 100, 113, 135,  32, 134,  91, 207, 101, 230,  45, 168,   2,
     27,  96,  37, 173, 174, 176, 185, 246,  28,  70,  97, 105,  52,  64, 126,  15,
     85,  71, 163,  35, 221,  81, 175,  58, 195,  92, 249, 206, 186, 197, 234,  38,
     44,  83,  13, 110, 133,  40, 132,   9, 211, 223, 205, 244,  65, 129,  77,  82,
    106, 220,  55, 200, 108, 193, 171, 250,  36, 225, 123,   8,  12, 189, 177,  74,
    120, 136, 149, 139, 227,  99, 232, 109, 233, 203, 213, 254,  59,   0,  29,  57,
    242, 239, 183,  14, 102,  88, 208, 228, 166, 119, 114, 248, 235, 117,  75,  10,
     49,  68,  80, 180, 143, 237,  31,  26, 219, 153, 141,  51, 159,  17, 131,  20,
};

typedef struct md2_ctx {
    uint8_t x[48];              /* the state; x[16..48) is scratch per block */
    uint8_t sum[16];            /* the running checksum */
    uint8_t block[16];
    unsigned fill;
} md2_ctx;

static void md2_block(md2_ctx *h, const uint8_t *b)
{
    uint8_t last = h->sum[15];
    for (int j = 0; j < 16; j++) {
        h->x[16 + j] = b[j];
        h->x[32 + j] = b[j] ^ h->x[j];
        last = h->sum[j] ^= md2_pi[b[j] ^ last];
    }
    uint8_t t = 0;
    for (int round = 0; round < 18; round++) {
        for (int k = 0; k < 48; k++)
            t = h->x[k] ^= md2_pi[t];
        t = (uint8_t)(t + round);
    }
}

/* Hash n bytes of data, each XORed with mask (HMAC's pads). */
static void md2_add(md2_ctx *h, const void *data, size_t n, uint8_t mask)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        h->block[h->fill++] = p[i] ^ mask;
        if (h->fill == 16) {
            md2_block(h, h->block);
            h->fill = 0;
        }
    }
}

static void md2_end(md2_ctx *h, uint8_t out[16])
{
    uint8_t pad = (uint8_t)(16 - h->fill);
    for (unsigned i = 0; i < pad; i++)
        md2_add(h, &pad, 1, 0);
    uint8_t sum[16];
    memcpy(sum, h->sum, sizeof sum);
    md2_add(h, sum, sizeof sum, 0);
    memcpy(out, h->x, 16);
}


/* What the HMAC covers: who answers (the driver's version, the tables and
 * the function answering), to whom (process and thread), when (the
 * challenge's time), then each device. */
typedef struct integrity_msg {
    uint32_t driver_version, challenge, pid, thread;
    const void *runtime_table, *integrity_table, *answer_fn;
    uint64_t seconds;
} integrity_msg;

typedef struct integrity_dev {
    CUuuid uuid;
    int pci_domain, pci_bus, pci_device;
} integrity_dev;

_Static_assert(sizeof(integrity_msg) == 48 && sizeof(integrity_dev) == 28,
               "the runtime hashes these layouts byte for byte");

/* The runtime calls this three times at start, with challenges 13000,
 * 13001 and 13002 and the time in seconds, and compares the answer with
 * its own HMAC-MD2 of the same message under the same 16-byte key. */
static CUresult integrity_answer(uint32_t challenge, uint64_t seconds, uint64_t out[2])
{
    static const uint8_t key[16] = { 0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                     0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f };
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("integrity check table, slot 1 (answer a challenge)");
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    int version = 0;
    cuDriverGetVersion(&version);
    integrity_msg m = {
        .driver_version = (uint32_t)version,
        .challenge = challenge,
        .pid = (uint32_t)getpid(),
        .thread = (uint32_t)(uintptr_t)pthread_self(),
        .runtime_table = runtime_interface,
        .integrity_table = integrity,
        .answer_fn = integrity[1],
        .seconds = seconds,
    };
    integrity_dev d;
    memset(&d, 0, sizeof d);
    memcpy(d.uuid.bytes, rt_device_get()->uuid, sizeof d.uuid.bytes);
    rt_device_attribute(cudaDevAttrPciDomainId, &d.pci_domain);
    rt_device_attribute(cudaDevAttrPciBusId, &d.pci_bus);
    rt_device_attribute(cudaDevAttrPciDeviceId, &d.pci_device);
    md2_ctx inner = {0}, outer = {0};
    uint8_t digest[16];
    md2_add(&inner, key, sizeof key, 0x36);
    md2_add(&inner, &m, sizeof m, 0);
    md2_add(&inner, &d, sizeof d, 0);
    md2_end(&inner, digest);
    md2_add(&outer, key, sizeof key, 0x5c);
    md2_add(&outer, digest, sizeof digest, 0);
    md2_end(&outer, digest);
    memcpy(out, digest, sizeof digest);
    if (tracing())
        rt_say("driver: integrity check: challenge %u answered", challenge);
    return CUDA_SUCCESS;
}


STUBS(integrity)

static const export_slot integrity_served[] = { { 1, T(integrity_answer) } };

/* ---- the tables by UUID ------------------------------------------------------ */

/* ---- 6e163fbe: tools module ---------------------------------------------- */

/* Calls visit(arg, f, 0) for each function f of a module and answers 1:
 * cuFFT loads a module of one kernel and takes it this way, not by name. */
typedef void (*module_visit)(void *arg, CUfunction f, uintptr_t unused);

static int tmod_each_function(CUcontext ctx, CUmodule mod, module_visit visit, void *arg)
{
    (void)ctx;
    RT_ASYNC_ENTRY();
    rt_cu_trace_call("tools module table, slot 7 (visit a module's functions)");
    unsigned n = 0;
    if (!visit || cuModuleGetFunctionCount(&n, mod) != CUDA_SUCCESS)
        return 0;
    CUfunction *fs = calloc(n ? n : 1, sizeof *fs);
    if (!fs || cuModuleEnumerateFunctions(fs, n, mod) != CUDA_SUCCESS) {
        free(fs);
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        visit(arg, fs[i], 0);
    free(fs);
    return 1;
}

STUBS(tools_module)

static const export_slot tools_module_served[] = { { 7, T(tmod_each_function) } };

/* ---- unknown tables served with stubs ------------------------------------- */

/* Asked for by libraries that, refused, go on to call through the table
 * they never got (cuBLASLt calls slot 4 of 1734dc26 at a tensor-op GEMM):
 * served, every slot a stub, so the library sees an error instead. */
STUBS(blaslt_private)

/* ---- the tables by UUID ------------------------------------------------------ */

typedef struct export_table {
    uint8_t uuid[16];
    const char *name;
    const void **slots;                 /* NULL: refused without a message */
    unsigned nslots;
    bool sized;                         /* slot 0 holds the table's size in bytes */
    const void *const *stubs;
    const export_slot *served;
    unsigned nserved;
} export_table;

#define SERVED(table, size, is_sized, served_list)                                              \
    table, size, is_sized, table##_stubs, served_list, sizeof served_list / sizeof served_list[0]
#define STUBBED(table, size) table, size, true, table##_stubs, NULL, 0

static const export_table export_tables[] = {
    { { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 },
      "optional start-up", NULL, 0, false, NULL, NULL, 0 },
    { { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
      "runtime interface", SERVED(runtime_interface, 13, true, runtime_interface_served) },
    { { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
      "tools callback hooks", SERVED(tools_hooks, 7, true, tools_hooks_served) },
    { { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc },
      "tools thread-local storage", SERVED(tools_tls, 4, true, tools_tls_served) },
    { { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
      "context-local storage", SERVED(context_storage, 4, false, context_storage_served) },
    { { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e },
      "context checks", SERVED(context_checks, 15, true, context_checks_served) },
    { { 0x21, 0x31, 0x8c, 0x60, 0x97, 0x14, 0x32, 0x48, 0x8c, 0xa6, 0x41, 0xff, 0x73, 0x24, 0xc8, 0xf2 },
      "tools context", SERVED(tools_context, 95, true, tools_context_served) },
    { { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 },
      "integrity check", SERVED(integrity, 3, true, integrity_served) },
    { { 0x6e, 0x16, 0x3f, 0xbe, 0xb9, 0x58, 0x44, 0x4d, 0x83, 0x5c, 0xe1, 0x82, 0xaf, 0xf1, 0x99, 0x1e },
      "tools module", SERVED(tools_module, 100, true, tools_module_served) },
    { { 0x17, 0x34, 0xdc, 0x26, 0x80, 0x0d, 0x47, 0x45, 0x87, 0x26, 0xc0, 0xf1, 0xe7, 0xdd, 0x8b, 0xca },
      "cuBLASLt's private", STUBBED(blaslt_private, 100) },
    { { 0xda, 0x91, 0x51, 0xd3, 0x3a, 0xe6, 0xcc, 0x41, 0xa5, 0xc0, 0x4f, 0x26, 0xd5, 0x33, 0xe3, 0x28 },
      "JIT compiler (NVRTC, nvJitLink)", NULL, 0, false, NULL, NULL, 0 },
};

/* A table's slots, built at its first request (under the runtime's lock):
 * its stubs, its size, then what it serves. */
static const void *const *export_table_slots(const export_table *t)
{
    if (!t->slots)
        return NULL;
    rt_lock();
    if (!t->slots[t->nslots - 1]) {
        for (unsigned i = 0; i < t->nslots; i++)
            t->slots[i] = t->stubs[i];
        if (t->sized)
            t->slots[0] = (const void *)(uintptr_t)(t->nslots * sizeof(void *));
        for (unsigned i = 0; i < t->nserved; i++)
            t->slots[t->served[i].slot] = t->served[i].fn;
    }
    rt_unlock();
    return t->slots;
}

/* Who asked for a table: the library or the program. */
static const char *caller_name(const void *pc)
{
    bool is_program;
    return rt_code_file(pc, &is_program);
}

CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    *ppExportTable = NULL;
    const void *pc = __builtin_return_address(0);
    const uint8_t *id = (const uint8_t *)pExportTableId->bytes;
    char text[40];
    snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", id[0],
             id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14],
             id[15]);
    for (size_t i = 0; i < sizeof export_tables / sizeof export_tables[0]; i++) {
        if (memcmp(export_tables[i].uuid, id, 16) != 0)
            continue;
        const void *const *slots = export_table_slots(&export_tables[i]);
        if (tracing())
            rt_say("driver: cuGetExportTable(%s, the %s table) from %s -> %s", text, export_tables[i].name,
                   caller_name(pc), slots ? "served" : "refused (CUDA_ERROR_NOT_FOUND)");
        *ppExportTable = slots;
        return slots ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
    }
    rt_lock();
    bool first = true;
    for (uint32_t i = 0; i < rt.nunknown_tables && first; i++)
        first = memcmp(rt.unknown_tables[i], id, 16) != 0;
    if (first && rt.nunknown_tables < sizeof rt.unknown_tables / sizeof rt.unknown_tables[0])
        memcpy(rt.unknown_tables[rt.nunknown_tables++], id, 16);
    rt_unlock();
    if (first || tracing())
        rt_say("warning: cuGetExportTable: private table %s (asked for by %s) is not implemented by ptxsim; "
               "it returns CUDA_ERROR_NOT_FOUND", text, caller_name(pc));
    return CUDA_ERROR_NOT_FOUND;
}

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
 *                                         exist; no slot is called
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

/* One function per unimplemented slot, so each names itself; called with
 * whatever arguments the slot takes, which the C ABI lets it ignore. */
#define MISSING(table, n)                                                              \
    static CUresult table##_missing_##n(void)                                          \
    {                                                                                  \
        return (CUresult)rt_unimplemented("slot " #n " of cuGetExportTable's " #table  \
                                          " table");                                   \
    }

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
    rt_cu_trace_call("runtime interface table, slot 2 (retain the primary context)");
    if (tracing())
        rt_say("driver: runtime interface: retain the primary context of device %d", dev);
    return cuDevicePrimaryCtxRetain(pctx, dev);
}

MISSING(runtime_interface, 1) MISSING(runtime_interface, 3) MISSING(runtime_interface, 4)
MISSING(runtime_interface, 5) MISSING(runtime_interface, 6) MISSING(runtime_interface, 7)
MISSING(runtime_interface, 8) MISSING(runtime_interface, 9) MISSING(runtime_interface, 10)
MISSING(runtime_interface, 11) MISSING(runtime_interface, 12)

#define T(f) ((const void *)(f))
#define TABLE_SIZE(n) ((const void *)(uintptr_t)((n) * sizeof(void *)))

static const void *const runtime_interface[13] = {
    TABLE_SIZE(13),
    T(runtime_interface_missing_1),
    T(rti_primary_ctx),
    T(runtime_interface_missing_3),
    T(runtime_interface_missing_4),
    T(runtime_interface_missing_5),
    T(runtime_interface_missing_6),
    T(runtime_interface_missing_7),
    T(runtime_interface_missing_8),
    T(runtime_interface_missing_9),
    T(runtime_interface_missing_10),
    T(runtime_interface_missing_11),
    T(runtime_interface_missing_12),
};

/* ---- a094798c: tools callback hooks -------------------------------------- */

/* The runtime reads these to learn which of its calls a tool (a profiler)
 * subscribed to; ptxsim has no tools, so they stay zero, and the runtime
 * is what writes them if anything does. */
static uint32_t tools_callbacks[1024];
static uint8_t tools_domains[14];

static void hooks_callbacks(void **ptr, size_t *count)
{
    rt_cu_trace_call("tools callback hooks table, slot 2 (the callbacks' flags)");
    *ptr = tools_callbacks;
    *count = sizeof tools_callbacks / sizeof tools_callbacks[0];
}

static void hooks_domains(void **ptr, size_t *count)
{
    rt_cu_trace_call("tools callback hooks table, slot 6 (the domains' flags)");
    *ptr = tools_domains;
    *count = sizeof tools_domains;
}

MISSING(tools_hooks, 1) MISSING(tools_hooks, 3) MISSING(tools_hooks, 4) MISSING(tools_hooks, 5)

static const void *const tools_hooks[7] = {
    TABLE_SIZE(7),
    T(tools_hooks_missing_1),
    T(hooks_callbacks),
    T(tools_hooks_missing_3),
    T(tools_hooks_missing_4),
    T(tools_hooks_missing_5),
    T(hooks_domains),
};

/* ---- 42d85a81: tools thread-local storage -------------------------------- */

MISSING(tools_tls, 1) MISSING(tools_tls, 2) MISSING(tools_tls, 3)

static const void *const tools_tls[4] = {
    TABLE_SIZE(4), T(tools_tls_missing_1), T(tools_tls_missing_2), T(tools_tls_missing_3),
};

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
    rt_cu_trace_call("context-local storage table, slot 2 (get)");
    rt_ctx *c = cls_context(ctx);
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    *state = NULL;
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    return rt_cls_get(c, manager, state) ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

MISSING(context_storage, 3)

static const void *const context_storage[4] = {
    T(cls_put), T(cls_delete), T(cls_get), T(context_storage_missing_3),
};

/* ---- 263e8860: context checks -------------------------------------------- */

/* Asked of a context before the runtime adopts it; 0 lets it proceed. */
static CUresult checks_context(CUcontext ctx, uint32_t *out_flags, void **out_unused)
{
    (void)out_unused;
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
    rt_cu_trace_call("context checks table, slot 3 (check at start)");
    if (tracing())
        rt_say("driver: context checks: start (%#lx, %#lx, %#lx)", (unsigned long)a, (unsigned long)b,
               (unsigned long)c);
    return 0;
}

MISSING(context_checks, 1) MISSING(context_checks, 4) MISSING(context_checks, 5) MISSING(context_checks, 6)
MISSING(context_checks, 7) MISSING(context_checks, 8) MISSING(context_checks, 9) MISSING(context_checks, 10)
MISSING(context_checks, 11) MISSING(context_checks, 12) MISSING(context_checks, 13) MISSING(context_checks, 14)

static const void *const context_checks[15] = {
    TABLE_SIZE(15),
    T(context_checks_missing_1),
    T(checks_context),
    T(checks_start),
    T(context_checks_missing_4),
    T(context_checks_missing_5),
    T(context_checks_missing_6),
    T(context_checks_missing_7),
    T(context_checks_missing_8),
    T(context_checks_missing_9),
    T(context_checks_missing_10),
    T(context_checks_missing_11),
    T(context_checks_missing_12),
    T(context_checks_missing_13),
    T(context_checks_missing_14),
};

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

static const void *const integrity[3];

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

MISSING(integrity, 2)

static const void *const integrity[3] = {
    TABLE_SIZE(3), T(integrity_answer), T(integrity_missing_2),
};

/* ---- the tables by UUID ------------------------------------------------------ */

static const struct {
    uint8_t uuid[16];
    const char *name;
    const void *const *table;           /* NULL: refused without a message */
} export_tables[] = {
    { { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 },
      "optional start-up", NULL },
    { { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
      "runtime interface", runtime_interface },
    { { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
      "tools callback hooks", tools_hooks },
    { { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc },
      "tools thread-local storage", tools_tls },
    { { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
      "context-local storage", context_storage },
    { { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e },
      "context checks", context_checks },
    { { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 },
      "integrity check", integrity },
    { { 0xda, 0x91, 0x51, 0xd3, 0x3a, 0xe6, 0xcc, 0x41, 0xa5, 0xc0, 0x4f, 0x26, 0xd5, 0x33, 0xe3, 0x28 },
      "JIT compiler (NVRTC, nvJitLink)", NULL },
};

/* The file name of the library (or program) whose code is at pc, without
 * its folder: who asked for a table. */
static const char *caller_name(const void *pc)
{
    Dl_info at;
    if (!dladdr(pc, &at) || !at.dli_fname || !at.dli_fname[0])
        return "?";
    const char *slash = strrchr(at.dli_fname, '/');
    return slash ? slash + 1 : at.dli_fname;
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
        if (tracing())
            rt_say("driver: cuGetExportTable(%s, the %s table) from %s -> %s", text, export_tables[i].name,
                   caller_name(pc), export_tables[i].table ? "served" : "refused (CUDA_ERROR_NOT_FOUND)");
        *ppExportTable = export_tables[i].table;
        return export_tables[i].table ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
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

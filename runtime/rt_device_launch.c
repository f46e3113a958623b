/*
 * rt_device_launch.c -- the device runtime: kernels that launch kernels
 * (CUDA dynamic parallelism), and the rest of what device code may ask of
 * the runtime (cudaGetLastError, streams, events, attributes, occupancy).
 *
 * A program built with -rdc=true -lcudadevrt carries the device runtime's
 * PTX.  Its functions end in calls of entry points the driver provides and
 * no PTX defines: `__cuda_syscall_cnpv2<Name>` (and `cnp<Name>`, the older
 * interface's).  `kernel<<<g, b, s, stream>>>(args)` in device code becomes
 * cudaGetParameterBufferV2(kernel, g, b, s), which hands out a buffer the
 * thread lays the arguments in, then cudaLaunchDeviceV2(buffer, stream).
 *
 * When the launched grids run.  A parent grid cannot wait for its children
 * (CUDA 12 removed device-side cudaDeviceSynchronize); what it may rely on
 * is that a grid is complete only when every grid it launched is, that
 * launches into one of a block's streams run in the order they were made,
 * one after the other, and that a launch into cudaStreamTailLaunch runs
 * after the grid that made it and all that grid's other children are
 * complete.  So the launched grids are collected while the grid runs and
 * run, each with everything it launches in turn, once it has ended: first
 * the ordinary ones (the default stream, streams the block created,
 * cudaStreamFireAndForget), by launching block and then in the order the
 * block made them, then the tail launches in the same order.  One order
 * every stream's order allows; the same on any number of host threads (the
 * launching kernel runs on one, as kernels that call the runtime do) and in
 * timing mode, where each launched grid is timed as a launch of its own.
 *
 * The entry points return the device runtime's own error codes (CNPerror),
 * which its PTX translates to cudaError_t with a table; the last error is
 * each thread's own.
 */
#include "rt_int.h"

#include <cuda.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The deepest a launch may nest: a grid the host launched is at depth 0,
 * and one at depth RT_MAX_LAUNCH_DEPTH cannot launch (cudaErrorLaunchMaxDepthExceeded). */
#define RT_MAX_LAUNCH_DEPTH 24

/* The device runtime's error codes, as its table maps them to cudaError_t. */
enum {
    CNP_SUCCESS = 0,
    CNP_INVALID_VALUE = 1,              /* cudaErrorInvalidValue */
    CNP_INVALID_DEVICE = 3,             /* cudaErrorInvalidDevice */
    CNP_MEMORY_ALLOCATION = 4,          /* cudaErrorMemoryAllocation */
    CNP_MAX_DEPTH_EXCEEDED = 5,         /* cudaErrorLaunchMaxDepthExceeded */
    CNP_OUT_OF_RESOURCES = 6,           /* cudaErrorLaunchOutOfResources */
    CNP_INVALID_CONFIGURATION = 7,      /* cudaErrorInvalidConfiguration */
    CNP_UNSUPPORTED_LIMIT = 13,         /* cudaErrorUnsupportedLimit */
    CNP_INVALID_CLUSTER_SIZE = 14,      /* cudaErrorInvalidClusterSize */
};

/* The streams device code names besides its own. */
#define STREAM_TAIL_LAUNCH 0x3u
#define STREAM_FIRE_AND_FORGET 0x4u
/* Handles of streams and events device code creates: never 0, never one
 * of the named streams, never a cudaStreamGraph* value (top byte 1-3). */
#define STREAM_HANDLE_TAG (0xd5ull << 48)
#define EVENT_HANDLE_TAG (0xe5ull << 48)

typedef struct rt_child {
    rt_func *f;                 /* NULL: a buffer not yet launched by the older interface */
    uint32_t grid[3], block[3], cluster[3];
    uint32_t shared;
    uint64_t params;            /* the parameter buffer, in device memory */
    uint64_t cta;               /* the launching block, as a linear index */
    uint64_t seq;               /* the grid's launches before this one */
    bool tail, launched;
} rt_child;

struct rt_grid {
    rt_func *f;
    unsigned depth;
    pthread_mutex_t lock;       /* a kernel that calls the runtime runs on one thread; still */
    rt_child *kids;
    uint32_t nkids, cap;
    rt_ptrmap by_buffer;        /* parameter buffer -> index in kids + 1 */
    rt_ptrmap errors;           /* thread (linear + 1) -> its last error, where not cudaSuccess */
    uint64_t seq;
};

/* Handles made by device code, for every grid: a stream or event is its
 * block's, and only ever compared. */
static uint64_t handles_made;

rt_grid *rt_grid_new(rt_func *f, unsigned depth)
{
    rt_grid *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->f = f;
    g->depth = depth;
    pthread_mutex_init(&g->lock, NULL);
    return g;
}

void rt_grid_free(rt_grid *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->nkids; i++)
        if (g->kids[i].params)
            exec_free(rt.mem, g->kids[i].params);
    free(g->kids);
    rt_ptrmap_free(&g->by_buffer);
    rt_ptrmap_free(&g->errors);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

uint32_t rt_grid_launched(const rt_grid *g)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->nkids; i++)
        n += g->kids[i].launched;
    return n;
}

static int by_launch_order(const void *pa, const void *pb)
{
    const rt_child *a = pa, *b = pb;
    if (a->tail != b->tail)
        return a->tail ? 1 : -1;
    if (a->cta != b->cta)
        return a->cta < b->cta ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

cudaError_t rt_grid_run_children(rt_grid *g, cudaStream_t stream)
{
    if (!g->nkids)
        return cudaSuccess;
    qsort(g->kids, g->nkids, sizeof *g->kids, by_launch_order);
    cudaError_t e = cudaSuccess;
    for (uint32_t i = 0; i < g->nkids && e == cudaSuccess && rt.fault == cudaSuccess; i++) {
        rt_child *k = &g->kids[i];
        if (!k->launched)
            continue;
        /* A tail launch takes its grid's place in the stream: it nests no
         * deeper (a grid may go on tail-launching itself for ever). */
        e = rt_launch_child(k->f, k->grid, k->block, k->shared, k->cluster, (const void *)(uintptr_t)k->params,
                            stream, k->tail ? g->depth : g->depth + 1);
        exec_free(rt.mem, k->params);
        k->params = 0;
    }
    /* A launched grid that cannot run after all (out of memory) fails
     * the work of the host launch, as a fault would. */
    if (e != cudaSuccess && rt.fault == cudaSuccess)
        rt.fault = e;
    return cudaSuccess;
}

/* ---- what a call names and gives ------------------------------------------ */

static uint64_t linear(const uint32_t v[3], const uint32_t n[3])
{
    return v[0] + (uint64_t)n[0] * (v[1] + (uint64_t)n[1] * v[2]);
}

static uint64_t cta_of(const exec_host_call *c) { return linear(c->ctaid, c->nctaid); }

static const void *thread_key(const exec_host_call *c)
{
    uint64_t per_block = (uint64_t)c->ntid[0] * c->ntid[1] * c->ntid[2];
    return (const void *)(uintptr_t)(cta_of(c) * per_block + linear(c->tid, c->ntid) + 1);
}

/* Write n bytes to a pointer device code passed; false when it points
 * nowhere the thread may write. */
static bool put(const exec_host_call *c, uint64_t addr, const void *v, size_t n)
{
    uint64_t avail;
    void *p = addr ? exec_host_ptr(c, addr, &avail) : NULL;
    if (!p || avail < n)
        return false;
    memcpy(p, v, n);
    return true;
}

static bool get(const exec_host_call *c, uint64_t addr, void *v, size_t n)
{
    uint64_t avail;
    const void *p = addr ? exec_host_ptr(c, addr, &avail) : NULL;
    if (!p || avail < n)
        return false;
    memcpy(v, p, n);
    return true;
}

/* A dim3 argument (12 bytes in the call). */
static bool dim3_arg(const exec_host_call *c, unsigned i, uint32_t out[3])
{
    if (i >= c->nargs || c->arg_size[i] < 12)
        return false;
    memcpy(out, c->arg_bytes[i], 12);
    return true;
}

/* The kernel at a device code address, in the calling grid's module: the
 * one the program registered, where it did, so what it set on the host
 * (cudaFuncSetAttribute: more dynamic shared memory) holds for launches
 * from the device too. */
static rt_func *kernel_at(rt_grid *g, const exec_host_call *c, uint64_t addr)
{
    int k = exec_host_kernel_at(c, addr);
    if (k < 0)
        return NULL;
    rt_module *m = g->f->mod;
    const char *name = exec_program_kernel_info(m->prog, k)->name;
    for (uint32_t i = 0; i < rt.funcs_by_host.cap; i++) {
        rt_func *f = rt_ptrmap_slot(&rt.funcs_by_host, i);
        if (f && f->mod == m && strcmp(f->name, name) == 0) {
            f->index = k;
            return f;
        }
    }
    return rt_module_kernel(m, k);
}

static bool stream_ok(uint64_t s, bool *tail)
{
    *tail = s == STREAM_TAIL_LAUNCH;
    /* The default stream (legacy or per-thread), the named ones, or one
     * device code created. */
    return s <= STREAM_FIRE_AND_FORGET || (s & ~0xffffffffffffull) == STREAM_HANDLE_TAG;
}

static uint32_t cnp_of(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return CNP_SUCCESS;
    case cudaErrorInvalidConfiguration: return CNP_INVALID_CONFIGURATION;
    case cudaErrorLaunchOutOfResources: return CNP_OUT_OF_RESOURCES;
    case cudaErrorInvalidClusterSize: return CNP_INVALID_CLUSTER_SIZE;
    case cudaErrorMemoryAllocation: return CNP_MEMORY_ALLOCATION;
    default: return CNP_INVALID_VALUE;
    }
}

/* ---- launches ---------------------------------------------------------- */

/* A parameter buffer of `bytes`, recorded as a launch not yet made. */
static uint64_t new_buffer(rt_grid *g, rt_func *f, uint64_t bytes, uint64_t align)
{
    uint64_t addr = 0;
    if (g->nkids == g->cap) {
        uint32_t cap = g->cap ? g->cap * 2 : 16;
        rt_child *k = realloc(g->kids, cap * sizeof *k);
        if (!k)
            return 0;
        g->kids = k;
        g->cap = cap;
    }
    if (exec_malloc(rt.mem, bytes ? bytes : 1, align < 64 ? 64 : align, &addr) != PTX_OK)
        return 0;
    if (!rt_ptrmap_put(&g->by_buffer, (const void *)(uintptr_t)addr, (void *)(uintptr_t)(g->nkids + 1))) {
        exec_free(rt.mem, addr);
        return 0;
    }
    g->kids[g->nkids++] = (rt_child){ .f = f, .params = addr };
    return addr;
}

/* cudaLaunchDevice(V2) of the buffer at `buffer`: the checks a launch from
 * the host makes, then the launch is the grid's to run once it ends. */
static uint32_t launch(rt_grid *g, const exec_host_call *c, uint64_t buffer, rt_func *f, const uint32_t *grid,
                       const uint32_t *block, uint32_t shared, uint64_t stream)
{
    uintptr_t at = (uintptr_t)rt_ptrmap_get(&g->by_buffer, (const void *)(uintptr_t)buffer);
    if (!at)
        return CNP_INVALID_VALUE;
    rt_child *k = &g->kids[at - 1];
    if (k->launched)
        return CNP_INVALID_VALUE;
    if (f)
        k->f = f;
    if (grid) {
        memcpy(k->grid, grid, sizeof k->grid);
        memcpy(k->block, block, sizeof k->block);
        k->shared = shared;
    }
    bool tail;
    if (!k->f || !stream_ok(stream, &tail))
        return CNP_INVALID_VALUE;
    if (!tail && g->depth >= RT_MAX_LAUNCH_DEPTH)
        return CNP_MAX_DEPTH_EXCEEDED;
    cudaError_t e = rt_launch_check(k->f, k->grid, k->block, k->shared, k->cluster);
    if (e != cudaSuccess)
        return cnp_of(e);
    k->tail = tail;
    k->cta = cta_of(c);
    k->seq = g->seq++;
    k->launched = true;
    return CNP_SUCCESS;
}

/* ---- the entry points -------------------------------------------------- */

typedef struct devrt_call {
    rt_grid *g;
    const exec_host_call *c;
    const uint64_t *a;          /* the arguments' values */
} devrt_call;

static uint64_t get_parameter_buffer_v2(const devrt_call *d)
{
    rt_func *f = kernel_at(d->g, d->c, d->a[0]);
    uint32_t grid[3], block[3];
    if (!f || !dim3_arg(d->c, 1, grid) || !dim3_arg(d->c, 2, block))
        return 0;
    const exec_kernel_info *ki = exec_program_kernel_info(f->mod->prog, f->index);
    uint64_t addr = new_buffer(d->g, f, ki->param_bytes, 64);
    if (addr) {
        rt_child *k = &d->g->kids[d->g->nkids - 1];
        memcpy(k->grid, grid, sizeof grid);
        memcpy(k->block, block, sizeof block);
        k->shared = (uint32_t)d->a[3];
    }
    return addr;
}

static uint64_t launch_device_v2(const devrt_call *d)
{
    return launch(d->g, d->c, d->a[0], NULL, NULL, NULL, 0, d->a[1]);
}

/* The older interface: a buffer of a given size, then the launch names
 * the kernel and configuration (dim3s by pointer). */
static uint64_t get_parameter_buffer(const devrt_call *d)
{
    uint64_t align = d->a[0] && !(d->a[0] & (d->a[0] - 1)) ? d->a[0] : 64;
    return new_buffer(d->g, NULL, d->a[1], align);
}

static uint64_t launch_device(const devrt_call *d)
{
    rt_func *f = kernel_at(d->g, d->c, d->a[0]);
    uint32_t grid[3], block[3];
    if (!f || !get(d->c, d->a[2], grid, sizeof grid) || !get(d->c, d->a[3], block, sizeof block))
        return CNP_INVALID_VALUE;
    return launch(d->g, d->c, d->a[1], f, grid, block, (uint32_t)d->a[4], d->a[5]);
}

static uint64_t get_last_error(const devrt_call *d)
{
    return (uintptr_t)rt_ptrmap_get(&d->g->errors, thread_key(d->c));
}

/* Returns the error it sets, which the runtime's PTX returns in turn. */
static uint64_t set_last_error(const devrt_call *d)
{
    const void *key = thread_key(d->c);
    uint32_t e = (uint32_t)d->a[0];
    if (e == cudaSuccess)
        rt_ptrmap_del(&d->g->errors, key);
    else if (!rt_ptrmap_put(&d->g->errors, key, (void *)(uintptr_t)e))
        return cudaErrorMemoryAllocation;
    return e;
}

static uint64_t new_handle(const devrt_call *d, uint64_t tag)
{
    uint64_t h = tag | ++handles_made;
    return put(d->c, d->a[0], &h, sizeof h) ? CNP_SUCCESS : CNP_INVALID_VALUE;
}

/* Streams made in device code must be non-blocking (the default stream
 * of a block is the only blocking one). */
static uint64_t stream_create(const devrt_call *d)
{
    if (d->a[1] != cudaStreamNonBlocking)
        return CNP_INVALID_VALUE;
    return new_handle(d, STREAM_HANDLE_TAG);
}

static uint64_t event_create(const devrt_call *d) { return new_handle(d, EVENT_HANDLE_TAG); }

/* Destroying, recording and waiting order nothing beyond what the order
 * the grids run in gives already. */
static uint64_t nothing_to_do(const devrt_call *d)
{
    (void)d;
    return CNP_SUCCESS;
}

/* Events cannot be recorded in, or waited for by, the tail launch and
 * fire-and-forget streams. */
static bool special_stream(uint64_t s) { return s == STREAM_TAIL_LAUNCH || s == STREAM_FIRE_AND_FORGET; }

static uint64_t event_record(const devrt_call *d)       /* (event, stream) */
{
    return special_stream(d->a[1]) ? CNP_INVALID_VALUE : CNP_SUCCESS;
}

static uint64_t stream_wait_event(const devrt_call *d)  /* (stream, event, flags) */
{
    return special_stream(d->a[0]) ? CNP_INVALID_VALUE : CNP_SUCCESS;
}

static uint64_t put_int(const devrt_call *d, unsigned arg, int v)
{
    return put(d->c, d->a[arg], &v, sizeof v) ? CNP_SUCCESS : CNP_INVALID_VALUE;
}

static uint64_t get_device(const devrt_call *d) { return put_int(d, 0, 0); }
static uint64_t get_device_count(const devrt_call *d) { return put_int(d, 0, 1); }
static uint64_t get_cache_config(const devrt_call *d) { return put_int(d, 0, cudaFuncCachePreferNone); }
static uint64_t get_shared_mem_config(const devrt_call *d) { return put_int(d, 0, cudaSharedMemBankSizeFourByte); }

static uint64_t device_get_attribute(const devrt_call *d)
{
    if (d->a[2] != 0)
        return CNP_INVALID_DEVICE;
    int v = 0;
    if (rt_device_attribute((int)d->a[1], &v) != cudaSuccess)
        return CNP_INVALID_VALUE;
    return put_int(d, 0, v);
}

static uint64_t get_limit(const devrt_call *d)
{
    uint64_t which = d->a[1];
    /* The synchronisation depth went with device-side synchronisation. */
    if (which >= sizeof rt.limits / sizeof rt.limits[0] || which == cudaLimitDevRuntimeSyncDepth)
        return CNP_UNSUPPORTED_LIMIT;
    size_t v = rt.limits[which];
    return put(d->c, d->a[0], &v, sizeof v) ? CNP_SUCCESS : CNP_INVALID_VALUE;
}

/* cuFuncGetAttribute's attributes, each an int (the runtime's PTX zeroes
 * the size_t fields of cudaFuncAttributes before it asks). */
static uint64_t func_get_attribute(const devrt_call *d)
{
    rt_func *f = kernel_at(d->g, d->c, d->a[2]);
    struct cudaFuncAttributes fa;
    if (!f || rt_func_attributes(f, &fa) != cudaSuccess)
        return CNP_INVALID_VALUE;
    int v;
    switch (d->a[1]) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: v = fa.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: v = (int)fa.sharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: v = (int)fa.constSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: v = (int)fa.localSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: v = fa.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: v = fa.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: v = fa.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: v = fa.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: v = fa.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: v = fa.preferredShmemCarveout; break;
    default: return CNP_INVALID_VALUE;
    }
    return put_int(d, 0, v);
}

/* (int *blocks, kernel, block size, dynamic shared memory[, flags]) */
static uint64_t occupancy(const devrt_call *d, unsigned flags)
{
    rt_func *f = kernel_at(d->g, d->c, d->a[1]);
    int blocks = 0;
    if (!f || rt_occupancy(f, (int)(int32_t)d->a[2], d->a[3], flags, &blocks) != cudaSuccess)
        return CNP_INVALID_VALUE;
    return put_int(d, 0, blocks);
}

static uint64_t max_active_blocks(const devrt_call *d) { return occupancy(d, 0); }
static uint64_t max_active_blocks_flags(const devrt_call *d) { return occupancy(d, (unsigned)d->a[4]); }

/* By the name after the prefix (__cuda_syscall_cnpv2, __cuda_syscall_cnp
 * or cnp): both interfaces' entry points mean the same. */
static const struct {
    const char *name;
    uint64_t (*fn)(const devrt_call *d);
} entry_points[] = {
    { "GetParameterBufferV2", get_parameter_buffer_v2 },
    { "LaunchDeviceV2", launch_device_v2 },
    { "GetParameterBuffer", get_parameter_buffer },
    { "LaunchDevice", launch_device },
    { "GetLastError", get_last_error },
    { "SetLastError", set_last_error },
    { "StreamCreate", stream_create },
    { "StreamDestroy", nothing_to_do },
    { "StreamWaitEvent", stream_wait_event },
    { "EventCreate", event_create },
    { "EventRecord", event_record },
    { "EventDestroy", nothing_to_do },
    { "GetDevice", get_device },
    { "GetDeviceCount", get_device_count },
    { "DeviceGetAttribute", device_get_attribute },
    { "GetLimit", get_limit },
    { "GetCacheConfig", get_cache_config },
    { "GetSharedMemConfig", get_shared_mem_config },
    { "FuncGetAttribute", func_get_attribute },
    { "MaxActiveBlocksPerMultiprocessor", max_active_blocks },
    { "MaxActiveBlocksPerMultiprocessorWithFlags", max_active_blocks_flags },
};

static const char *entry_name(const char *name)
{
    if (strncmp(name, "__cuda_syscall_", 15) == 0)
        name += 15;
    if (strncmp(name, "cnpv2", 5) == 0)
        return name + 5;
    return strncmp(name, "cnp", 3) == 0 ? name + 3 : name;
}

ptx_status rt_device_runtime_call(rt_grid *g, const exec_host_call *c, uint64_t *ret)
{
    const char *name = entry_name(c->name);
    for (size_t i = 0; g && i < sizeof entry_points / sizeof entry_points[0]; i++) {
        if (strcmp(name, entry_points[i].name) != 0)
            continue;
        devrt_call d = { g, c, c->args };
        pthread_mutex_lock(&g->lock);
        *ret = entry_points[i].fn(&d);
        pthread_mutex_unlock(&g->lock);
        return PTX_OK;
    }
    static bool told;
    if (!told)
        rt_say("a kernel called the device runtime's %s, which ptxsim does not implement", c->name);
    told = true;
    return PTX_E_UNSUPPORTED;
}

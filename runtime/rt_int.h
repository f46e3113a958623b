/*
 * rt_int.h -- the CUDA runtime and driver shims' internals (internal to
 * runtime/).
 *
 * Two shared libraries are built from runtime/, as on a machine with a GPU:
 *
 *   libcuda.so.1     the core (CUDA's implicit state, device memory,
 *                    modules, launches, streams, events, contexts) and the
 *                    driver API (cu_*.c) over it;
 *   libcudart.so.13  the runtime API (cudart_*.c), a thin layer that calls
 *                    the core's rt_* functions declared here.
 *
 * Both APIs share one implementation: core functions return cudaError_t and
 * the driver API maps them to CUresult (rt_cu_result).  runtime/ is the only
 * layer that knows about the CUDA API, processes and environment variables,
 * and the only one with mutable globals: they live in rt_state.c behind one
 * lock, which launches hold.
 */
#ifndef PTXSIM_RT_INT_H
#define PTXSIM_RT_INT_H

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>

#include "exec.h"
#include "frontend.h"

/* ---- small pieces -------------------------------------------------------- */

/* A pointer-keyed hash map (open addressing); also the set of live handles,
 * so a handle is validated without ever dereferencing it. */
typedef struct rt_ptrmap {
    uintptr_t *keys;
    void **vals;
    uint32_t n, cap;
} rt_ptrmap;

bool rt_ptrmap_put(rt_ptrmap *m, const void *key, void *val);
void *rt_ptrmap_get(const rt_ptrmap *m, const void *key);
void rt_ptrmap_del(rt_ptrmap *m, const void *key);
/* The i-th slot's value (NULL if empty), for walks over every entry. */
void *rt_ptrmap_slot(const rt_ptrmap *m, uint32_t i);
void rt_ptrmap_free(rt_ptrmap *m);

/* ---- the simulated device ---------------------------------------------- */

/* What the simulated GPU looks like: the one place every property, attribute
 * and limit reported to programs (and by `ptxsim info`) comes from. */
typedef struct rt_device {
    char name[256];
    int cc_major, cc_minor;             /* from PTXSIM_SM */
    int sms;
    int warp;
    int max_threads_block, max_block[3], max_grid[3];
    int max_threads_sm, max_blocks_sm;
    int regs_sm, regs_block, max_regs_thread;
    int reg_alloc_unit;                 /* registers per warp are allocated in these */
    int shared_sm;                      /* bytes per SM, for blocks */
    int shared_block;                   /* a block's default limit */
    int shared_block_optin;             /* with cudaFuncAttributeMaxDynamicSharedMemorySize */
    int shared_reserved_block;          /* the system's share per block */
    int const_bytes;
    int l2_bytes;
    int clock_khz, mem_clock_khz, mem_bus_bits;
    int async_engines;
    int stream_prio_least, stream_prio_greatest;
    uint64_t memory_bytes;              /* device memory: the engine's capacity */
    unsigned char uuid[16];
} rt_device;

typedef struct rt_config {
    bool quiet;                 /* no per-kernel summary on stderr */
    uint32_t sm;                /* compute capability of the simulated GPU, e.g. 90 */
    uint64_t max_warp_insts;    /* hang guard per launch */
    uint64_t memory_bytes;      /* device memory to reserve */
    const char *stats_path;     /* PTXSIM_STATS: one JSON record per launch */
    bool stats_gpgpusim;        /* PTXSIM_STATS_FORMAT=gpgpusim: GPGPU-Sim's log on stdout */
    bool timing;                /* PTXSIM_MODE=timing: launches run in the cycle model */
    bool check_memory;          /* PTXSIM_CHECK=memory: global accesses must hit an allocation */
    bool check_race;            /* PTXSIM_CHECK=race: report shared-memory hazards */
    bool check_race_global;     /* PTXSIM_CHECK=race-global: and global-memory ones */
    bool trace_driver;          /* PTXSIM_TRACE_DRIVER=1: log cuGetProcAddress, cuGetExportTable and each entry point's first call */
    /* PTXSIM_THREADS: host threads that run a functional launch's CTAs
     * (default: the cores this process may use); threads_set: the user
     * chose the count, so a launch held to one thread says why. */
    uint32_t threads;
    bool threads_set;
    /* PTXSIM_ENGINE=interp|jit: how functional launches run (exec_engine);
     * PTXSIM_JIT_WARM, PTXSIM_JIT_HOT: how much a function's code must
     * run before it is compiled quick, optimised (exec_launch). */
    uint8_t engine;
    uint32_t jit_warm, jit_hot;
    bool jit_quick_only;
    bool verbose;               /* PTXSIM_VERBOSE=1: the compiled tier says what it compiled */
    bool lockstep;              /* PTXSIM_LOCKSTEP=1 or PTXSIM_SM below 70: exec_launch.lockstep */
    bool async;                 /* launches return before the kernel runs (PTXSIM_SYNC=1: not) */
    rt_device dev;
} rt_config;

/* A --check / PTXSIM_CHECK list of "memory", "race", "race-global" (race
 * checking of shared and global memory: sets both *out_race and
 * *out_race_global) and "none", comma-separated; false if it names
 * anything else.  out_race_global may be NULL. */
bool rt_check_parse(const char *list, bool *out_memory, bool *out_race, bool *out_race_global);

/* Fill cfg from the environment (PTXSIM_*); warns about bad values. */
void rt_config_load(rt_config *cfg);
/* The properties CUDA reports for the device, from rt.cfg.dev. */
void rt_device_props(struct cudaDeviceProp *p);
/* One cudaDeviceAttr (the same numbers as CUdevice_attribute). */
cudaError_t rt_device_attribute(int attr, int *value);
const rt_device *rt_device_get(void);
/* cudaDeviceSetLimit / GetLimit (cudaLimit numbers, as CUlimit's). */
cudaError_t rt_limit_set(int limit, size_t value);
cudaError_t rt_limit_get(int limit, size_t *value);
/* cudaSetDeviceFlags / GetDeviceFlags. */
cudaError_t rt_device_flags_set(unsigned flags);
unsigned rt_device_flags_get(void);
/* cudaDeviceSetSharedMemConfig / Get (enum cudaSharedMemConfig). */
cudaError_t rt_shared_mem_config(int *config, bool set);
/* cudaDeviceReset: free every allocation, stream and event; clear a fault. */
void rt_reset(void);
/* cudaProfilerStart / Stop: mark the range the timing model reports. */
void rt_profiler(bool start);

/* ---- modules, kernels, symbols ------------------------------------------- */

typedef struct rt_func rt_func;

/* A module: a fat binary the program registered, or PTX / a fat binary
 * loaded through the driver API.  Parsed and laid out once, on first use. */
typedef struct rt_module {
    uint32_t magic;             /* RT_MAGIC_MODULE while live */
    const uint8_t *fatbin;      /* NULL for PTX text */
    size_t fatbin_bytes;
    char *ptx;                  /* owned PTX text (driver loads of text) */
    size_t ptx_len;
    char name[64];              /* in messages */
    char loader[48];            /* the library that loaded it through the driver API, if not the program */
    bool registered;            /* by __cudaRegisterFatBinary */
    isa_module *ir;
    exec_program *prog;
    bool engine_told;           /* why it runs interpreted has been said */
    bool tried;                 /* loading was attempted (ok or not) */
    cudaError_t load_error;
    char *load_message;         /* why loading failed (malloc'd) */
    rt_func **funcs;            /* by kernel index once loaded (driver lookups) */
    uint32_t nfuncs;
    bool has_managed;           /* __managed__ variables to bind at load */
    /* Relocatable device code (-rdc=true): the registered fat binary is the
     * device-linked one, which holds machine code only; these are the fat
     * binaries of the translation units, whose PTX loading links. */
    const uint8_t **prelinked;
    size_t *prelinked_bytes;
    uint32_t nprelinked;
    /* The kernels' machine register counts were looked for (rt_regs.c),
     * and where they came from. */
    bool regs_done;
    char regs_from[40];
} rt_module;

/* Find what the machine code of m's kernels allocates (the loaded module's;
 * once; the lock held).  rt_regs.c. */
void rt_module_machine_regs(rt_module *m);

/* A kernel: registered by host code (host_fn is its stub) or found by the
 * driver API.  Its address is the cudaKernel_t / CUfunction handle. */
struct rt_func {
    uint32_t magic;             /* RT_MAGIC_FUNC */
    rt_module *mod;
    const char *name;           /* mangled device name */
    const void *host_fn;        /* the host stub, or NULL */
    int index;                  /* in mod->prog once resolved, else -1 */
    char *pretty;               /* demangled name, made once */
    int max_dynamic_shared;     /* cudaFuncAttributeMaxDynamicSharedMemorySize; -1: default */
    int carveout;               /* cudaFuncAttributePreferredSharedMemoryCarveout */
    int cache_config;           /* cudaFuncCache */
    int shared_mem_config;      /* cudaFuncSetSharedMemConfig: kept, changes nothing (rt_shared_mem_config) */
    /* Clusters set at run time: cudaFuncAttributeRequiredClusterWidth,
     * Height, Depth (0: none), NonPortableClusterSizeAllowed and
     * ClusterSchedulingPolicyPreference. */
    uint32_t req_cluster[3];
    int nonportable_cluster;
    int cluster_policy;
    uint32_t refusals_told;     /* launch refusals already explained, a bit per reason (rt_launch.c) */
};

/* A __device__/__constant__/__managed__ variable registered by host code. */
typedef struct rt_var {
    const void *host_var;
    const char *name;
    rt_module *mod;
    size_t bytes;
    void **managed_ptr;         /* __managed__: where host code reads the address */
} rt_var;

enum { RT_MAGIC_MODULE = 0x4d6f644c, RT_MAGIC_FUNC = 0x46756e63 };

rt_module *rt_module_register(const void *wrapper);
void rt_module_register_end(rt_module *m);
bool rt_module_init(rt_module *m);
void rt_func_register(rt_module *m, const void *host_fn, const char *name);
void rt_var_register(rt_module *m, const void *host_var, const char *name, size_t bytes,
                     void **managed_ptr);

/* Load a module from memory: PTX text (NUL-terminated), a fat binary, or a
 * fat-binary wrapper.  A cubin is refused (ptxsim runs PTX).  caller: the
 * driver entry point's return address, which names a library (cuBLAS,
 * cuFFT) that loads its own kernels, in messages. */
cudaError_t rt_module_load_image(const void *image, const void *caller, rt_module **out);
/* The file name (no folder) of the library or program whose code is at
 * pc; *is_program: the program itself.  "?" if unknown. */
const char *rt_code_file(const void *pc, bool *is_program);
/* The problems the last load on this thread met, one a line ("" if none):
 * the driver's JIT error log. */
const char *rt_module_load_log(void);
cudaError_t rt_module_load_file(const char *path, rt_module **out);
cudaError_t rt_module_unload(rt_module *m);
bool rt_module_valid(const rt_module *m);
cudaError_t rt_module_function(rt_module *m, const char *name, rt_func **out);
cudaError_t rt_module_global(rt_module *m, const char *name, uint64_t *addr, size_t *bytes);

/* The kernel behind a host stub or a cudaKernel_t / CUfunction handle. */
rt_func *rt_func_lookup(const void *fn_or_handle);
/* Parse and lay out the kernel's module if not yet done. */
cudaError_t rt_func_resolve(rt_func *f);
const char *rt_func_pretty(rt_func *f);
/* A registered variable's device address and size. */
cudaError_t rt_symbol_address(const void *host_var, uint64_t *addr, size_t *bytes);

/* ---- memory -------------------------------------------------------------- */

/* What kind of memory an allocation is.  Pinned, mapped and managed memory
 * are allocated in device memory, so one address works on both sides (device
 * addresses in ptxsim are host addresses). */
enum { RT_MEM_DEVICE = 1, RT_MEM_HOST = 2, RT_MEM_MANAGED = 3, RT_MEM_REGISTERED = 4,
       RT_MEM_VMM = 5 /* a virtual address range reserved (cu_vmm.c) */ };

struct rt_pool;

typedef struct rt_alloc {
    uint64_t addr, bytes;       /* in device memory */
    int kind;
    unsigned flags;
    void *host;                 /* RT_MEM_REGISTERED: the program's host range */
    struct rt_pool *pool;       /* stream-ordered: the pool a free returns it to */
    struct rt_advice *advice;   /* managed: advice and prefetches by page (rt_managed.c); NULL: none */
} rt_alloc;

cudaError_t rt_mem_alloc(size_t bytes, int kind, unsigned flags, void **out);
/* A range of device addresses aligned to `align` (a power of two), for the
 * driver's virtual memory management: an RT_MEM_VMM allocation. */
cudaError_t rt_mem_reserve(size_t bytes, uint64_t align, uint64_t *out);
/* Free an allocation of one of the kinds in `kinds` (a bit per RT_MEM_*). */
cudaError_t rt_mem_free(void *p, unsigned kinds);
/* cudaFree, cuMemFree, cudaFreeAsync and cuMemFreeAsync outside a capture:
 * a graph's allocation that outlived its launch is freed as such
 * (rt_graph_mem.c), anything else as an allocation of `kinds`. */
cudaError_t rt_mem_free_device(void *p, unsigned kinds);
#define RT_KIND(k) (1u << (k))
cudaError_t rt_mem_register(void *host, size_t bytes, unsigned flags);
/* The device and managed allocations still live, on stderr, by address
 * (--check memory, at exit). */
void rt_mem_report_leaks(void);
cudaError_t rt_mem_unregister(void *host);
cudaError_t rt_mem_host_device_ptr(void *host, void **dev);
cudaError_t rt_memcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
cudaError_t rt_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, enum cudaMemcpyKind kind);
/* Set `count` elements of `elem` bytes (1, 2 or 4) to value, rows of
 * `width` elements `pitch` bytes apart (height 1 for a plain memset). */
cudaError_t rt_memset(void *dst, size_t pitch, unsigned value, unsigned elem, size_t width,
                      size_t height);
/* What those return, without copying or setting; *pageable: the copy
 * touches host memory outside device memory's reservation (pageable memory,
 * which an asynchronous copy reads or writes at once). */
cudaError_t rt_memcpy2d_check(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, bool *pageable);
cudaError_t rt_memset_check(void *dst, size_t pitch, unsigned elem, size_t width, size_t height);
/* cudaMemcpy3D: either side may be a CUDA array (then the extent counts its
 * elements, else bytes). */
cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p);
cudaError_t rt_mem_attributes(const void *p, struct cudaPointerAttributes *a);
/* The flags page-locked host memory was allocated or registered with
 * (cudaHostAlloc*, cudaHostRegister*), Mapped always among them;
 * InvalidValue for any other pointer. */
cudaError_t rt_mem_host_flags(const void *p, unsigned *flags);
/* The allocation holding p: its base and size (cuMemGetAddressRange). */
cudaError_t rt_mem_range(const void *p, uint64_t *base, size_t *bytes);
/* The live allocation holding p: its process-wide unique id
 * (CU_POINTER_ATTRIBUTE_BUFFER_ID), or 0 if none. */
uint64_t rt_mem_buffer_id(const void *p);
/* [p, p+n) lies in one managed allocation (prefetch, advise). */
cudaError_t rt_mem_check_managed(const void *p, size_t n);
/* That allocation, or NULL (the lock held). */
rt_alloc *rt_mem_managed_holding(const void *p, size_t n);
/* Managed memory's advice and prefetches, remembered by page and read
 * back by cudaMemRangeGetAttribute (rt_managed.c).  Locations are
 * cudaMemLocationType and id; advice a cudaMemoryAdvise. */
cudaError_t rt_managed_advise(const void *p, size_t n, int advice, int loc_type, int loc_id);
cudaError_t rt_managed_prefetch(const void *p, size_t n, int loc_type, int loc_id);
cudaError_t rt_managed_range_attr(void *data, size_t size, int attr, const void *p, size_t n);
void rt_mem_info(size_t *free_bytes, size_t *total);
/* Registered host ranges are mirrored in device memory around each launch;
 * see rt_memory.c. */
void rt_mem_mirror_in(void);
void rt_mem_mirror_out(void);
void rt_mem_reset(void);

/* ---- stream-ordered memory pools (rt_pool.c) ------------------------------ */

/* A pool hands out device allocations and keeps the ones freed into it
 * reserved (still allocated in device memory) until a synchronisation finds
 * more reserved than its release threshold, or cudaMemPoolTrimTo. */
typedef struct rt_pool {
    uint32_t magic;             /* RT_MAGIC_POOL while live */
    struct cudaMemPoolProps props;
    uint64_t threshold;         /* cudaMemPoolAttrReleaseThreshold */
    int reuse[3];               /* the three cudaMemPoolReuse* switches */
    uint64_t used, used_high;   /* bytes handed out and not freed */
    uint64_t reserved, reserved_high;   /* used + kept */
    rt_alloc **kept;            /* freed blocks held for reuse */
    uint32_t nkept, capkept;
} rt_pool;

enum { RT_MAGIC_POOL = 0x506f6f6c };

/* The pool if h is a live one (the device's default pool included). */
rt_pool *rt_pool_live(const void *h);
rt_pool *rt_pool_default(void);
/* The pool cudaMallocAsync uses (cudaDeviceSetMemPool). */
rt_pool *rt_pool_current(void);
void rt_pool_set_current(rt_pool *p);
cudaError_t rt_pool_create(const struct cudaMemPoolProps *props, rt_pool **out);
cudaError_t rt_pool_destroy(rt_pool *p);
cudaError_t rt_pool_alloc(rt_pool *p, size_t bytes, void **out);
/* cudaMallocAsync and cuMemAllocAsync: from the pool, or in a capture a
 * memory allocation node of the capture's graph (rt_graph_mem.c). */
cudaError_t rt_stream_alloc(rt_pool *pool, size_t size, cudaStream_t stream, void **out);
/* cudaFreeAsync and cuMemFreeAsync: in a capture, a free node. */
cudaError_t rt_stream_free(void *ptr, cudaStream_t stream);
/* A freed pool allocation goes back to its pool (the lock is held). */
void rt_pool_give_back(rt_alloc *a);
cudaError_t rt_pool_trim(rt_pool *p, size_t keep);
cudaError_t rt_pool_attribute(rt_pool *p, int attr, void *value, bool set);
/* At a synchronisation: each pool gives back what it holds past its
 * release threshold. */
void rt_pool_sync(void);
void rt_pool_reset(void);

/* ---- CUDA arrays, texture and surface objects (rt_image.c) ------------ */

typedef struct rt_array rt_array;       /* what a cudaArray_t points to */

/* The array if a is a live one, else NULL. */
rt_array *rt_array_live(const void *a);
/* Mipmapped arrays (rt_image.c): levels of halving size, each an rt_array
 * (not the program's to free); cudaMallocMipmappedArray's level count is
 * clamped as CUDA documents. */
typedef struct rt_mipmap rt_mipmap;
rt_mipmap *rt_mipmap_live(const void *m);
cudaError_t rt_mipmap_create(const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned levels,
                             unsigned flags, rt_mipmap **out);
cudaError_t rt_mipmap_level(const rt_mipmap *m, unsigned level, rt_array **out);
cudaError_t rt_mipmap_destroy(rt_mipmap *m);
cudaError_t rt_array_create(const struct cudaChannelFormatDesc *desc, size_t w, size_t h, size_t d,
                            unsigned flags, rt_array **out);
cudaError_t rt_array_destroy(rt_array *a);
cudaError_t rt_array_info(const rt_array *a, struct cudaChannelFormatDesc *desc,
                          struct cudaExtent *extent, unsigned *flags);
/* Copy width bytes by height rows between the array (from byte x of row y
 * of slice z) and linear memory with pitch hpitch. */
cudaError_t rt_array_copy2d(rt_array *a, size_t x, size_t y, size_t z, void *host, size_t hpitch,
                            size_t width, size_t height, enum cudaMemcpyKind kind, bool to_array);
cudaError_t rt_array_copy_array(rt_array *dst, size_t dx, size_t dy, const rt_array *src, size_t sx,
                                size_t sy, size_t width, size_t height);
/* Bytes per texel of a live array (0 if it is not one). */
unsigned rt_array_texel(const rt_array *a);
/* The array's texels as a pitched pointer (rows packed, slices following). */
cudaError_t rt_array_pitched(const rt_array *a, struct cudaPitchedPtr *p);
/* Texture (t non-NULL) or surface objects. */
cudaError_t rt_image_create(uint64_t *out, const struct cudaResourceDesc *r,
                            const struct cudaTextureDesc *t, const struct cudaResourceViewDesc *v,
                            bool surface);
cudaError_t rt_image_destroy(uint64_t h, bool surface);
cudaError_t rt_image_desc(uint64_t h, bool surface, struct cudaResourceDesc *r,
                          struct cudaTextureDesc *t, struct cudaResourceViewDesc *v);
void rt_image_reset(void);

/* ---- streams and events ---------------------------------------------- */

typedef struct rt_capture rt_capture;
typedef struct rt_graph_node rt_graph_node;

/* The launch attributes a stream or a kernel node keeps (rt_attr.c): read
 * back as set, changing neither results nor timing (rt_attr.c says why).
 * A kernel node's cluster dimensions are its operation's (rt_graph_op). */
typedef struct rt_attrs {
    struct cudaAccessPolicyWindow window;
    int sync_policy;            /* streams: enum cudaSynchronizationPolicy */
    int priority;               /* clamped into the device's range */
    cudaLaunchMemSyncDomainMap domain_map;
    int domain;                 /* cudaLaunchMemSyncDomain */
    unsigned nvlink;            /* NvlinkUtilCentricScheduling, 0 or 1 */
    int cooperative;            /* kernel nodes: launched cooperatively */
    int cluster_policy;         /* enum cudaClusterSchedulingPolicy */
    uint32_t preferred_cluster[3];
} rt_attrs;

enum { RT_ATTRS_STREAM, RT_ATTRS_KERNEL };      /* which holder: which attributes it has */
void rt_attrs_init(rt_attrs *a);
/* One attribute (cudaLaunchAttributeID) of a holder: cudaErrorInvalidValue
 * for one it does not have or a bad value. */
cudaError_t rt_attr_set(rt_attrs *a, int holder, int id, const cudaLaunchAttributeValue *v);
cudaError_t rt_attr_get(const rt_attrs *a, int holder, int id, cudaLaunchAttributeValue *v);

/* A stream's (or an event's) part in a capture sequence: the capture, and
 * the nodes the next operation captured in the stream depends on. */
typedef struct rt_capture_deps {
    rt_capture *cap;            /* NULL: not capturing */
    unsigned long long id;      /* cap's id: a capture since ended reads as none */
    rt_graph_node **nodes;
    cudaGraphEdgeData *edges;   /* all zero: plain full dependencies */
    uint32_t n, capn;
} rt_capture_deps;

/* How a stream's work is ordered against other streams' (rt_queue.c): the
 * legacy default stream's waits for everything before it, a blocking
 * stream's for the legacy stream's, a non-blocking stream's for its own
 * stream's alone.  The per-thread default stream counts as legacy. */
typedef enum { RT_ORDER_LEGACY, RT_ORDER_BLOCKING, RT_ORDER_NONBLOCKING } rt_stream_order;

typedef struct rt_stream {
    uint32_t magic;
    unsigned flags;
    rt_attrs attrs;             /* its priority among them */
    unsigned long long id;
    rt_capture_deps capture;
    struct rt_ctx *ctx;         /* the context current at creation (cuStreamGetCtx) */
    uint64_t last_op;           /* the queue's number of its last operation (rt_queue.c) */
} rt_stream;

typedef struct rt_event {
    uint32_t magic;
    unsigned flags;
    bool recorded;
    double time;                /* seconds, from rt_timestamp */
    uint64_t pending;           /* the queued record that has not run yet, if any */
    rt_capture_deps capture;    /* last recorded in a capturing stream */
} rt_event;

enum { RT_MAGIC_STREAM = 0x5374726d, RT_MAGIC_EVENT = 0x45766e74 };

cudaError_t rt_stream_create(unsigned flags, int priority, cudaStream_t *out);
/* The lock held. */
rt_stream_order rt_stream_order_of(cudaStream_t s);
cudaError_t rt_stream_destroy(cudaStream_t s);
/* cudaSuccess for a live stream, the default streams (0, legacy, per-thread). */
cudaError_t rt_stream_check(cudaStream_t s);
cudaError_t rt_stream_info(cudaStream_t s, unsigned *flags, int *priority, unsigned long long *id);
/* cudaStreamGetAttribute / SetAttribute / CopyAttributes; the default
 * streams share one set of attributes. */
cudaError_t rt_stream_attr(cudaStream_t s, int id, cudaLaunchAttributeValue *v, bool set);
cudaError_t rt_stream_copy_attrs(cudaStream_t dst, cudaStream_t src);
/* The context stream s was created in; for a default stream, the current
 * one (NULL when there is none). */
cudaError_t rt_stream_ctx(cudaStream_t s, struct rt_ctx **out);
/* Wait for the stream's work to run; reports a sticky error. */
cudaError_t rt_stream_sync(cudaStream_t s);
/* cudaStreamQuery: cudaErrorNotReady while its work is queued. */
cudaError_t rt_stream_query(cudaStream_t s);
/* The queue ran operation seq, the last one issued to stream s so far. */
void rt_stream_note_op(cudaStream_t s, uint64_t seq);
/* cudaEventSynchronize: wait for the event's record to run. */
cudaError_t rt_event_sync(cudaEvent_t e);
cudaError_t rt_stream_wait_event(cudaStream_t s, cudaEvent_t e, unsigned flags);

cudaError_t rt_event_create(unsigned flags, cudaEvent_t *out);
cudaError_t rt_event_destroy(cudaEvent_t e);
cudaError_t rt_event_record(cudaEvent_t e, cudaStream_t s, unsigned flags);
cudaError_t rt_event_query(cudaEvent_t e);
cudaError_t rt_event_elapsed(float *ms, cudaEvent_t start, cudaEvent_t end);
void rt_stream_reset(void);
/* The time an event records: host wall time, or in timing mode the
 * simulated device time. */
double rt_timestamp(void);

/* ---- launches ------------------------------------------------------------ */

typedef struct rt_launch_req {
    rt_func *f;
    uint32_t grid[3], block[3];
    size_t shared;
    cudaStream_t stream;
    void **args;                /* one pointer per parameter, or NULL */
    void **extra;               /* CU_LAUNCH_PARAM_* list, or NULL */
    bool cooperative;
    uint32_t cluster[3];        /* the cluster-dimension launch attribute; 0: none */
} rt_launch_req;

cudaError_t rt_launch(const rt_launch_req *r);
struct rt_graph_op;
/* Check a launch as rt_launch does and describe it as a kernel node (the
 * arguments copied), without running it. */
cudaError_t rt_launch_record(const rt_launch_req *r, struct rt_graph_op *op);
cudaError_t rt_func_attributes(rt_func *f, struct cudaFuncAttributes *a);
cudaError_t rt_func_set_attribute(rt_func *f, int attr, int value);
cudaError_t rt_occupancy(rt_func *f, int block, size_t dynamic_shared, unsigned flags, int *out);
cudaError_t rt_occupancy_smem(rt_func *f, int blocks, int block, size_t *out);
/* Thread block clusters.  The cluster dimensions a launch of f runs with
 * (the launch attribute's `want`, else the kernel's own, else none: all
 * 0), or the error CUDA gives for them with this grid and block (and why,
 * into why, when it is not NULL); and the
 * occupancy calculator's answers (cudaOccupancyMaxPotentialClusterSize,
 * cudaOccupancyMaxActiveClusters).  The caller holds the lock for the
 * first. */
cudaError_t rt_cluster_dims(rt_func *f, const exec_kernel_info *ki, const uint32_t want[3],
                            const uint32_t grid[3], uint32_t block_threads, size_t shared, uint32_t out[3],
                            char *why, size_t n);
cudaError_t rt_cluster_occupancy(rt_func *f, const uint32_t want[3], const uint32_t grid[3],
                                 uint32_t block_threads, size_t shared, bool potential, int *out);

/* Per-launch report: the summary on stderr and the JSON record (rt_stats.c). */
typedef struct rt_launch_report {
    rt_func *f;
    const uint32_t *grid, *block;
    size_t shared;
    unsigned long long stream;
    const exec_stats *stats;
    const struct tm_stats *timing;      /* timing mode, else NULL (timing.h) */
    double seconds;
    ptx_status st;
} rt_launch_report;

void rt_report_launch(const rt_launch_report *r);
void rt_stats_marker(const char *what);
void rt_stats_close(void);

/* ---- timing mode (rt_timing.c) -------------------------------------------- */

struct tm_config;
struct tm_stats;

/* Build the model from PTXSIM_CONFIG / PTXSIM_SET; false (said why) if the
 * configuration is bad. */
bool rt_timing_init(void);
/* Load preset `name` (or a path) with "k=v,..." overrides into c; false
 * (said why) if anything is wrong.  Presets live in rt_timing_config_dir.
 * notes (may be NULL) gets the options of a GPGPU-Sim file that were not
 * translated. */
bool rt_timing_config(const char *name, const char *set, FILE *notes, struct tm_config *c);
const char *rt_timing_config_dir(char *buf, size_t n);
bool rt_timing_on(void);
/* Make the device the program sees the configured machine. */
void rt_timing_device(rt_device *d);
/* Simulated seconds since the model started (events read this). */
double rt_timing_seconds(void);
ptx_status rt_timing_run(exec_program *p, int kernel, const exec_launch *l, exec_stats *xs,
                         exec_error *err, struct tm_stats *ts, uint64_t *start_cycle);
void rt_timing_summary(const char *kernel, const struct tm_stats *s);
/* Where the last launch's host time went, if PTXSIM_THREADS_REPORT asks. */
void rt_timing_host_report(const char *kernel);
void rt_timing_json(FILE *out, const struct tm_stats *s);
/* GPGPU-Sim's per-kernel statistics block on stdout (--stats-format gpgpusim). */
void rt_timing_gpgpusim(const char *kernel, const struct tm_stats *s, uint64_t ctas, double seconds);
void rt_timing_trace(const char *kernel, const struct tm_stats *s, uint64_t start_cycle);
/* Close the timeline and say the totals (at exit). */
void rt_timing_finish(void);

/* ---- graphs (rt_graph.c) and stream capture (rt_capture.c) --------------- */

/* One operation as a graph node holds it, and as a stream runs it: async
 * copies, memsets and host functions are described this way whether they
 * run at once or are captured, so a graph's replay is the same code. */
typedef struct rt_graph_op {
    enum cudaGraphNodeType type;        /* Kernel, Memcpy, Memset, Host, Empty, EventRecord, WaitEvent, Graph,
                                           Conditional, MemAlloc, MemFree */
    union {
        struct {
            rt_func *f;
            uint32_t grid[3], block[3];
            size_t shared;
            uint32_t cluster[3];        /* the cluster-dimension attribute (0: none) */
            uint8_t *params;            /* owned, laid out as the kernel's parameters */
            void **argv;                /* owned, one pointer into params per parameter */
            uint32_t nargs;
            rt_attrs attrs;             /* cudaGraphKernelNodeSetAttribute; cooperative runs it so */
        } kernel;
        struct {
            bool is3d;                  /* c3 describes it, else the 2-D fields */
            void *dst;
            const void *src;
            size_t dpitch, spitch, width, height;
            enum cudaMemcpyKind kind;
            struct cudaMemcpy3DParms c3;
        } copy;
        struct cudaMemsetParams memset;
        struct cudaHostNodeParams host;
        cudaEvent_t event;
        /* A child graph: in a graph's node, the owned copy the node embeds
         * (graph); in an executable graph, its instantiation (exec). */
        struct {
            struct rt_graph *graph;
            struct rt_graph_exec *exec;
        } child;
        /* A conditional node (rt_graph_cond.c): the handle whose value picks
         * which body runs, how many times; the bodies are, in a graph's
         * node, the graphs it owns and hands the program to fill (bodies),
         * in an executable graph their instantiations (execs). */
        struct {
            struct rt_cond *cond;
            int kind;                   /* enum cudaGraphConditionalNodeType */
            uint32_t size;
            struct rt_graph **bodies;
            struct rt_graph_exec **execs;
        } cond;
        /* A memory allocation or free node (rt_graph_mem.c): the
         * allocation, and whether this op is an executable graph's copy. */
        struct {
            struct rt_gmem *mem;
            bool exec;
        } gmem;
    } u;
} rt_graph_op;

typedef struct rt_graph rt_graph;
typedef struct rt_graph_exec rt_graph_exec;

/* A node: its operation and the nodes it depends on. */
struct rt_graph_node {
    uint32_t magic;             /* RT_MAGIC_NODE while live */
    rt_graph *graph;
    uint32_t index;             /* in graph->nodes: creation order */
    rt_graph_op op;
    rt_graph_node **deps;
    uint32_t ndeps, capdeps;
};

struct rt_graph {
    uint32_t magic;             /* RT_MAGIC_GRAPH while live */
    rt_graph_node **nodes;
    uint32_t n, cap;
    const rt_graph *origin;     /* the graph it was cloned from (cudaGraphNodeFindInClone) */
    const rt_graph_node *owner; /* the child-graph or conditional node embedding it (then not the program's
                                   to destroy) */
    struct rt_userobj_refs *refs;       /* user objects it holds references to (rt_userobj.c) */
    struct rt_cond_refs *conds; /* the conditional handles made for it (rt_graph_cond.c) */
};

enum { RT_MAGIC_GRAPH = 0x47726170, RT_MAGIC_NODE = 0x4e6f6465, RT_MAGIC_EXEC = 0x45786563 };

/* Run op in stream s now (the lock not held: a host function may call CUDA). */
cudaError_t rt_graph_op_run(const rt_graph_op *op, cudaStream_t s);
/* A copy of op that owns its own arguments. */
cudaError_t rt_graph_op_copy(rt_graph_op *dst, const rt_graph_op *src);
void rt_graph_op_free(rt_graph_op *op);
/* An async operation issued to stream s: checked, then run, or recorded
 * when s is capturing.  op's owned parts pass to the callee either way. */
cudaError_t rt_enqueue(cudaStream_t s, rt_graph_op *op);

cudaError_t rt_graph_create(unsigned flags, rt_graph **out);
/* A copy of graph g (cudaGraphClone): each node's operation copied, in the
 * same order, with the same edges; and the node of a clone that a node of
 * its origin became (cudaGraphNodeFindInClone). */
cudaError_t rt_graph_clone(rt_graph *g, rt_graph **out);
cudaError_t rt_graph_find_in_clone(rt_graph_node *original, rt_graph *clone, rt_graph_node **out);
cudaError_t rt_graph_destroy(rt_graph *g);
rt_graph *rt_graph_live(const void *h);
rt_graph_node *rt_graph_node_live(const void *h);
/* Add a node holding op (ownership passes, on failure too) after deps. */
cudaError_t rt_graph_add(rt_graph *g, rt_graph_node *const *deps, size_t n, rt_graph_op *op,
                         rt_graph_node **out);
cudaError_t rt_graph_add_edges(rt_graph *g, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                               const cudaGraphEdgeData *edges, size_t n, bool add);
cudaError_t rt_graph_destroy_node(rt_graph_node *node);
cudaError_t rt_graph_instantiate(rt_graph *g, unsigned long long flags, rt_graph_exec **out);
rt_graph_exec *rt_graph_exec_live(const void *h);
cudaError_t rt_graph_exec_destroy(rt_graph_exec *x);
unsigned long long rt_graph_exec_flags(const rt_graph_exec *x);
cudaError_t rt_graph_launch(rt_graph_exec *x, cudaStream_t s);
/* Give the exec's copy of node new parameters (op's owned parts pass). */
cudaError_t rt_graph_exec_set(rt_graph_exec *x, const rt_graph_node *node, rt_graph_op *op);
cudaError_t rt_graph_exec_update(rt_graph_exec *x, rt_graph *g, cudaGraphExecUpdateResultInfo *info);
/* Embed a copy of child in a new node of g (cudaGraphAddChildGraphNode). */
cudaError_t rt_graph_add_child(rt_graph *g, rt_graph_node *const *deps, size_t n, rt_graph *child,
                               rt_graph_node **out);
/* A child-graph node that takes child itself (cudaGraphChildGraphOwnershipMove):
 * child is the node's from then on. */
cudaError_t rt_graph_move_child(rt_graph *g, rt_graph_node *const *deps, size_t n, rt_graph *child,
                                rt_graph_node **out);
/* cudaGraphExecChildGraphNodeSetParams: the exec's instance of child-graph
 * node `node` takes child's parameters (same topology). */
cudaError_t rt_graph_exec_set_child(rt_graph_exec *x, const rt_graph_node *node, rt_graph *child);
/* cudaGraphNodeSetEnabled / GetEnabled: a disabled node does nothing at launch. */
cudaError_t rt_graph_exec_enable(rt_graph_exec *x, const rt_graph_node *node, unsigned *enabled, bool set);
/* ---- conditional nodes (rt_graph_cond.c) -------------------------------- */

/* A conditional handle holds the value a conditional node reads when it is
 * reached; kernels set it (cudaGraphSetConditional) and, with
 * cudaGraphCondAssignDefault, each launch of the graph first resets it.  A
 * handle belongs to the graph it was made for and lives while that graph or
 * an executable graph made from it does (references, as user objects'). */
typedef struct rt_cond rt_cond;
typedef struct rt_cond_refs rt_cond_refs;

cudaError_t rt_cond_create(rt_graph *g, unsigned dflt, unsigned flags, unsigned long long *out);
/* The live handle h, if it was made for g or a graph g is embedded in. */
rt_cond *rt_cond_for(const rt_graph *g, unsigned long long h);
/* A conditional node's operation: its body graphs made, empty (the lock held). */
cudaError_t rt_cond_op(rt_graph *g, const struct cudaConditionalNodeParams *p, rt_graph_op *op);
cudaError_t rt_cond_refs_copy(rt_cond_refs **dst, const rt_cond_refs *src);
void rt_cond_refs_free(rt_cond_refs **refs);
/* At an executable graph's launch: the handles' defaults, where asked for. */
void rt_cond_launch_defaults(const rt_cond_refs *refs);
/* Whether an executable graph holds any of these handles (a graph with
 * conditional nodes has one executable at a time). */
bool rt_cond_instantiated(const rt_cond_refs *refs);
/* Graph g is being destroyed: its handles no longer match it (rt_cond_for). */
void rt_cond_graph_gone(const rt_cond_refs *refs);
/* Whether an executable graph (or one embedded in it) launches a kernel. */
bool rt_graph_exec_has_kernel(const rt_graph_exec *x);
/* Run a conditional node of an executable graph, its bodies through run. */
cudaError_t rt_cond_run(const rt_graph_op *op, cudaStream_t s,
                        cudaError_t (*run)(const rt_graph_exec *x, cudaStream_t s));
/* The device's cudaGraphSetConditional (rt.lock is the launching thread's). */
ptx_status rt_cond_device_set(unsigned long long handle, unsigned value);

/* ---- graph memory nodes (rt_graph_mem.c) --------------------------------- */

/* An allocation a graph's allocation node makes, at an address fixed when
 * the node is made; allocated from the node's run until its free. */
typedef struct rt_gmem rt_gmem;

/* The operations of an allocation node (its allocation made now, *p's
 * dptr not written) and of a free node in graph g of the allocation at dptr. */
cudaError_t rt_gmem_alloc_op(const struct cudaMemAllocNodeParams *p, rt_graph_op *op);
cudaError_t rt_gmem_free_op(const rt_graph *g, const void *dptr, rt_graph_op *op);
/* An allocation node was added to graph g (its own graph, for the free rules). */
void rt_gmem_placed(rt_gmem *m, const rt_graph *g);
/* A copy of a memory node's op, for an executable graph or not; one gone. */
void rt_gmem_op_copy(rt_graph_op *dst, const rt_graph_op *src, bool exec);
void rt_gmem_op_free(rt_graph_op *op);
/* Whether an allocation node's graph has an executable already. */
bool rt_gmem_instantiated(const rt_graph_op *op);
/* Run a memory node; before a launch, an allocation node's check that its
 * allocation was freed (freeing it, with the auto-free flag). */
cudaError_t rt_gmem_run(const rt_graph_op *op);
cudaError_t rt_gmem_before_launch(const rt_graph_op *op, bool auto_free);
/* cudaFree / cudaFreeAsync of p: *handled if p is a graph's allocation. */
cudaError_t rt_gmem_free_outside(const void *p, bool *handled);
void rt_gmem_params(const rt_graph_op *op, struct cudaMemAllocNodeParams *out);
void *rt_gmem_addr(const rt_graph_op *op);
/* cudaDeviceGetGraphMemAttribute / cudaDeviceSetGraphMemAttribute. */
cudaError_t rt_gmem_attribute(int attr, void *value, bool set);
void rt_gmem_reset(void);

/* cudaGraphDebugDotPrint (rt_graph_dot.c). */
cudaError_t rt_graph_dot(rt_graph *g, const char *path, unsigned flags);
void rt_graph_reset(void);

/* ---- user objects (rt_userobj.c) ----------------------------------------- */

/* A reference-counted object the program hands CUDA, with a destructor run
 * when the last reference goes; graphs hold references, which their clones,
 * embedded copies and instantiations duplicate. */
typedef struct rt_userobj rt_userobj;
typedef struct rt_userobj_refs rt_userobj_refs;

cudaError_t rt_userobj_create(void *ptr, cudaHostFn_t destroy, unsigned count, unsigned flags, rt_userobj **out);
cudaError_t rt_userobj_retain(rt_userobj *o, unsigned count);
cudaError_t rt_userobj_release(rt_userobj *o, unsigned count);
/* References held by a graph (cudaGraphRetainUserObject, ReleaseUserObject). */
cudaError_t rt_graph_retain_userobj(rt_graph *g, rt_userobj *o, unsigned count, unsigned flags);
cudaError_t rt_graph_release_userobj(rt_graph *g, rt_userobj *o, unsigned count);
/* *dst gets a reference to each object src holds one to, as many; and
 * the references of a list are released, the list freed (the lock held). */
cudaError_t rt_userobj_refs_copy(rt_userobj_refs **dst, const rt_userobj_refs *src);
void rt_userobj_refs_free(rt_userobj_refs **refs);
void rt_userobj_reset(void);

/* Where an operation issued to stream s goes: run (*record false), or into
 * the capture (*record true).  An error if the capture was invalidated
 * (cudaErrorStreamCaptureInvalidated) or s is the legacy stream while a
 * blocking stream captures (cudaErrorStreamCaptureImplicit). */
cudaError_t rt_capture_route(cudaStream_t s, bool *record);
/* Record op as a node of s's capture (ownership passes). */
cudaError_t rt_capture_add(cudaStream_t s, rt_graph_op *op);
/* An operation capture cannot record, issued to stream s: it invalidates
 * the capture (cudaErrorStreamCaptureUnsupported). */
cudaError_t rt_capture_refuse(cudaStream_t s);
/* A call that is unsafe during capture (a synchronous copy, cudaMalloc,
 * a device synchronisation): cudaErrorStreamCaptureUnsupported, and the
 * capture that forbids it is invalidated, when the capture mode says so. */
cudaError_t rt_capture_unsafe(void);
/* Opens a runtime call that is unsafe during capture: the hazard is a
 * synchronous call silently running while work it depends on is only
 * being recorded. */
#define RT_CAPTURE_UNSAFE() RT_CAPTURE_UNSAFE_AS(rt_set_error)
/* The same for a call that returns its error as `as` turns it (the
 * driver's: rt_cu_result). */
#define RT_CAPTURE_UNSAFE_AS(as)                            \
    do {                                                    \
        cudaError_t cap_e_ = rt_capture_unsafe();           \
        if (cap_e_ != cudaSuccess)                          \
            return as(cap_e_);                              \
    } while (0)
/* Synchronising with stream s (cudaStreamSynchronize, Query). */
cudaError_t rt_capture_sync(cudaStream_t s);
cudaError_t rt_capture_begin(cudaStream_t s, int mode);
/* cudaStreamBeginCaptureToGraph: into graph g, the first operation after
 * deps (nodes of g); the graph stays the program's whatever the end. */
cudaError_t rt_capture_begin_into(cudaStream_t s, rt_graph *g, rt_graph_node *const *deps, size_t ndeps, int mode);
cudaError_t rt_capture_end(cudaStream_t s, rt_graph **out);
cudaError_t rt_capture_info(cudaStream_t s, enum cudaStreamCaptureStatus *status,
                            unsigned long long *id, rt_graph **graph, rt_graph_node *const **deps,
                            const cudaGraphEdgeData **edges, size_t *n);
cudaError_t rt_capture_update(cudaStream_t s, rt_graph_node *const *nodes, size_t n, unsigned flags);
int rt_capture_exchange_mode(int mode);
/* Event record / wait in a capturing stream; *done says it was handled. */
cudaError_t rt_capture_event_record(rt_event *ev, cudaStream_t s, bool *done);
cudaError_t rt_capture_event_wait(cudaStream_t s, rt_event *ev, bool *done);
/* The event was last recorded in a capture still going. */
bool rt_capture_event_captured(rt_event *ev);
/* A stream or event going away leaves its capture. */
void rt_capture_forget(rt_capture_deps *d);
/* A capture is recording into g. */
bool rt_capture_owns(const rt_graph *g);
/* Stream s is being destroyed. */
void rt_capture_stream_gone(cudaStream_t s);
void rt_capture_reset(void);

/* ---- contexts (driver API) ------------------------------------------------- */

typedef struct rt_ctx {
    uint32_t magic;
    unsigned flags;
    bool primary;
    int refs;                   /* primary: retain count */
    uint64_t id;                /* cuCtxGetId's: 1 the primary, then in order of creation */
} rt_ctx;

enum { RT_MAGIC_CTX = 0x43747820 };

/* Context-local storage (cu_export.c serves it to NVIDIA's static runtime):
 * one state pointer per context and owner, with the owner's destructor,
 * called when the context is destroyed. */
typedef void (*rt_cls_dtor)(void *ctx, void *owner, void *state);

typedef struct rt_cls {
    rt_ctx *ctx;
    void *owner, *state;
    rt_cls_dtor dtor;
} rt_cls;

cudaError_t rt_cls_put(rt_ctx *c, void *owner, void *state, rt_cls_dtor dtor);
bool rt_cls_get(rt_ctx *c, void *owner, void **state);
bool rt_cls_delete(rt_ctx *c, void *owner);

/* The calling thread's current context; the primary one once the runtime
 * API is in use, as the runtime binds it to every thread. */
rt_ctx *rt_ctx_current(void);
bool rt_ctx_valid(const rt_ctx *c);

/* A driver function by base name (cu_proc.c): the ABI the CUDA version
 * `version` gave it (<= 0: the newest), in its per-thread-stream form
 * with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM in flags.  Returns a
 * CUdriverProcAddressQueryResult (0: found; *fn is NULL otherwise). */
int rt_driver_entry(const char *symbol, int version, unsigned long long flags, void **fn);

/* ---- CUDA's implicit state ------------------------------------------------ */

typedef struct rt_state {
    pthread_mutex_t lock;
    bool ready;
    rt_config cfg;
    exec_memory *mem;
    rt_module **mods;
    uint32_t nmods, capmods;
    rt_ptrmap funcs;            /* handle -> rt_func (the live set) */
    rt_ptrmap funcs_by_host;    /* host stub -> rt_func */
    rt_ptrmap vars;             /* host variable -> rt_var */
    rt_ptrmap modules;          /* live driver-loaded modules */
    rt_ptrmap allocs;           /* device address -> rt_alloc */
    rt_alloc **registered;      /* host-registered ranges, mirrored per launch */
    uint32_t nregistered, capregistered;
    rt_ptrmap streams, events, ctxs;
    rt_ptrmap arrays;           /* live CUDA arrays (rt_image.c) */
    rt_ptrmap mipmaps;          /* live mipmapped arrays (rt_image.c) */
    rt_ptrmap images;           /* texture and surface object handle -> descriptors */
    rt_ptrmap graphs, nodes, execs;     /* live graph handles (rt_graph.c) */
    rt_ptrmap conds;            /* live conditional handles (rt_graph_cond.c) */
    rt_ptrmap gmems;            /* graph allocations by address (rt_graph_mem.c) */
    rt_ptrmap userobjs;         /* live user objects (rt_userobj.c) */
    rt_ptrmap captures;         /* capture sequences going on (rt_capture.c) */
    unsigned long long next_capture_id;
    rt_pool default_pool;       /* the device's (rt_pool.c) */
    rt_pool *current_pool;      /* cudaDeviceSetMemPool; NULL: the default */
    rt_ptrmap pools;            /* pools the program created */
    unsigned long long next_stream_id;
    /* A fault inside a kernel poisons the context, as on a GPU; but, as on a
     * GPU, the program learns of it only at the next call that waits for
     * that work (a synchronisation, a blocking copy, a query of completion):
     * until then it is `fault`, and from then on `sticky`, returned by
     * every call.  Work issued while a fault is pending does not run. */
    cudaError_t fault;
    cudaError_t sticky;
    uint64_t launches;
    uint64_t races;             /* hazards the race check reported */
    FILE *stats;                /* PTXSIM_STATS, or NULL */
    bool profiling;             /* between cudaProfilerStart and Stop */
    bool profiler_used;         /* cudaProfilerStart was called: only its ranges count */
    unsigned device_flags;
    int shared_mem_config;      /* cudaDeviceSetSharedMemConfig: enum cudaSharedMemConfig */
    rt_attrs stream0_attrs;     /* the default streams' (rt_stream.c) */
    size_t limits[8];           /* by cudaLimit */
    bool driver_inited;         /* cuInit was called */
    bool runtime_used;          /* a runtime API call was made: the primary context is bound */
    rt_ctx primary;
    rt_ptrmap warned;           /* unimplemented entry points already named */
    void *driver_self;          /* libcuda.so.1's own dlopen handle (cu_proc.c) */
    /* PTXSIM_TRACE_DRIVER: the driver entry points already logged as
     * called (their __func__ strings; cu_context.c). */
    const char *called[512];
    unsigned ncalled;
    rt_cls *cls;                /* context-local storage (cu_context.c) */
    uint32_t ncls, capcls;
    uint8_t unknown_tables[16][16];     /* export-table UUIDs already named (cu_export.c) */
    uint32_t nunknown_tables;
    struct dbg_session *dbg;    /* PTXSIM_DEBUG: launches run under the debugger */
    /* The host threads of functional launches (rt_pool_get), made at the
     * first launch that can use them, by process `pool_pid`: a forked
     * child has the pointer but not the threads. */
    exec_pool *pool;
    int pool_pid;
    const char *one_thread_told[4];     /* why launches ran on one thread, already said */
} rt_state;

extern rt_state rt;

/* Take the lock and make sure the state is initialised; a host thread's
 * first hold waits for the device queue to empty unless the call is an
 * asynchronous one (rt_queue.c). */
void rt_lock(void);
void rt_unlock(void);
/* Let go of every hold this thread has (returned), and take them again. */
unsigned rt_lock_drop(void);
void rt_lock_retake(unsigned held);

/* ---- the device queue (rt_queue.c) ------------------------------------------- */

/* The calls that queue work or wait for part of it bracket themselves with
 * these (RT_ASYNC_ENTRY), so their lock does not wait for the queue. */
void rt_async_enter(void);
void rt_async_leave(void);
bool rt_async_call(void);
static inline void rt_async_leave_at(int *unused) { (void)unused; rt_async_leave(); }
#define RT_ASYNC_ENTRY() \
    int rt_async_scope_ __attribute__((cleanup(rt_async_leave_at), unused)) = (rt_async_enter(), 0)
/* Work issued now goes into the queue (not on the device thread, not under
 * the debugger, no registered memory mirrored). */
bool rt_queue_async(void);
/* The calling thread runs queued work: it is the device thread, a side thread
 * (a pool thread running another stream's kernel), or runs work beside a
 * waiting kernel (rt_queue_beside); rt_queue_aside: a side thread or beside. */
bool rt_queue_on_device_thread(void);
bool rt_queue_beside(void);
bool rt_queue_aside(void);
/* Where the operation the calling thread runs prints, and writes its
 * launch records, without their numbers (NULL: stdout, and rt.stats with
 * them): the queue writes both out in issue order. */
extern _Thread_local FILE *rt_device_out;
extern _Thread_local FILE *rt_records_out;
/* A launch ran for the operation the calling thread runs (numbered when
 * its records are written out). */
void rt_queue_count_launch(void);
/* For a launch run from the queue: exec_launch.watch_ctx and .writes. */
void *rt_queue_watch_ctx(void);
uint64_t *rt_queue_writes(void);
/* The pool was made: its idle threads run other streams' kernels. */
void rt_queue_pool_made(exec_pool *p);
/* The operation the calling thread runs (0: none). */
uint64_t rt_queue_current(void);
/* Nothing queued or running. */
bool rt_queue_idle(void);
/* Queue op for stream s (its parts pass to the queue unless borrowed): the
 * operation's sequence number. */
uint64_t rt_queue_push(cudaStream_t s, rt_graph_op *op, bool borrowed);
/* Stream s's later work waits for operation seq (cudaStreamWaitEvent). */
void rt_queue_wait_for(cudaStream_t s, uint64_t seq);
/* ... and wait for it to run: what it returned. */
cudaError_t rt_queue_run(cudaStream_t s, rt_graph_op *op, bool borrowed);
/* Operation seq has run (UINT64_MAX: every one queued).  Work in one
 * stream runs in order, so the last of a stream's has run when it has. */
bool rt_queue_done(uint64_t seq);
/* Wait until operation seq has run (UINT64_MAX: all queued), the lock let
 * go meanwhile; then write out what kernels printed. */
void rt_queue_wait(uint64_t seq);
void rt_queue_flush_output(void);
/* exec_launch.settled, for a kernel every warp of which loops with nothing
 * changing: run queued work that may run beside it, else true if a host
 * thread waits for the device now; else sleep until one does or work is
 * queued, and return false. */
bool rt_queue_settled(void *ctx, uint64_t writes);
/* exec_launch.quiet: run queued work that may run beside the kernel;
 * whether any ran. */
bool rt_queue_quiet(void *ctx);

/* The calling thread's last error (cudaGetLastError clears it). */
cudaError_t rt_set_error(cudaError_t e);
cudaError_t rt_last_error(bool clear);
/* The context's error, at a call that waits for the device's work: a
 * pending kernel fault surfaces here and stays (rt_surface: the same with
 * the lock held). */
cudaError_t rt_sticky(void);
cudaError_t rt_surface(void);

/* An entry point ptxsim does not implement: one warning per name, then
 * cudaErrorNotSupported (CUDA_ERROR_NOT_SUPPORTED has the same value). */
int rt_unimplemented(const char *name);

/* A message on stderr, prefixed "ptxsim: ". */
void rt_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ptx_status to the cudaError_t a GPU would give. */
cudaError_t rt_error_of(ptx_status st);

/* The host side of vprintf and __assertfail (device_calls.c), and of the
 * device runtime (rt_device_launch.c); ctx is the calling grid's rt_grid. */
ptx_status rt_device_call(void *ctx, const exec_host_call *c, uint64_t *ret);

/* Launches from kernels (dynamic parallelism; rt_device_launch.c).  A
 * running grid collects the grids its threads launch; once it has ended,
 * rt_grid_run_children runs them (and, through rt_launch_child, theirs) in
 * an order every stream's order allows; `stream` is the host stream the
 * top grid ran in, for reports. */
typedef struct rt_grid rt_grid;
rt_grid *rt_grid_new(rt_func *f, unsigned depth);
cudaError_t rt_grid_run_children(rt_grid *g, cudaStream_t stream);
void rt_grid_free(rt_grid *g);
uint32_t rt_grid_launched(const rt_grid *g);      /* grids it launched so far */
ptx_status rt_device_runtime_call(rt_grid *g, const exec_host_call *c, uint64_t *ret);
/* rt_launch.c: the checks of a launch's configuration (the error CUDA gives,
 * said once per kernel and reason), and the run of a launched grid. */
cudaError_t rt_launch_check(rt_func *f, const uint32_t grid[3], const uint32_t block[3], size_t shared,
                            uint32_t cluster[3]);
cudaError_t rt_launch_child(rt_func *f, const uint32_t grid[3], const uint32_t block[3], size_t shared,
                            const uint32_t cluster[3], const void *params, cudaStream_t stream, unsigned depth);
/* The rt_func of kernel k of a loaded module (made at first use; the lock
 * held); NULL when out of memory or k is no kernel. */
rt_func *rt_module_kernel(rt_module *m, int k);

/* A demangled kernel name for reports, into buf. */
const char *rt_demangle(const char *name, char *buf, size_t n);

/* A second name for an entry point: the _ptds/_ptsz forms nvcc emits with
 * --default-stream per-thread.  Work runs in the order it is issued, so the
 * per-thread default stream behaves as the legacy one and each form is the
 * same function. */
#define RT_ALIAS(name, other) RT_ALIAS_(name, other)   /* expands cuda.h's name macros first */
#define RT_ALIAS_(name, other) extern __typeof__(name) other __attribute__((alias(#name)))

/* Host wall-clock seconds (a monotonic clock). */
double rt_wall_seconds(void);

/* The status line of a long launch on a terminal (rt_progress.c): wanted
 * only when stderr is a terminal and the run is not quiet; begin and end
 * bracket a launch, rt_progress is its exec_launch.progress. */
bool rt_progress_wanted(void);

/* The members of a --stats launch record as a Markdown table (rt_stats.c). */
void rt_stats_record_reference(FILE *out);
void rt_progress_begin(const char *kernel);
void rt_progress(void *ctx, const exec_progress *p);
void rt_progress_end(void);

/* Grow an array of pointers to hold n+1 entries. */
bool rt_grow(void ***arr, uint32_t *cap, uint32_t n);
/* cuMemAddressReserve's ranges and cuMemCreate's allocations go (cu_vmm.c). */
void rt_vmm_reset(void);


#endif /* PTXSIM_RT_INT_H */

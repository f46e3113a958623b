/*
 * conf_engine_cuda.c -- the conformance generator's engine over a CUDA
 * driver, for `conformance-cuda`: the same forms and references, run on
 * whatever libcuda.so.1 the process finds.  On a machine with an NVIDIA
 * GPU that is the hardware, so every reference (and with it ptxsim, which
 * the same references check) is measured against silicon; with ptxsim's
 * own libcuda.so.1 on the library path it runs the forms through ptxsim's
 * driver API (PTXSIM_CONF_LIBCUDA names another library).
 *
 * The driver is opened with dlopen, so the program builds and links where
 * no driver is installed.  Input and output live in host buffers that are
 * copied to the device before each launch and back after it, whole: the
 * whole-warp families use both as device memory (atomics update the input
 * buffer).  A launch that breaks the context (an illegal address, a trap)
 * is reported as an error and the context is reset, or where the error is
 * sticky (a trap on an H200) every later form is refused; one that never ends
 * stops the process after PTXSIM_CONF_LAUNCH_S seconds (30 by default),
 * naming the kernel.
 */
#include "conf.h"

#include <cuda.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IN_BYTES (CONF_IN_COLS * CONF_MAX_LANES * 8ull)
#define OUT_BYTES (CONF_OUT_COLS * CONF_MAX_LANES * 8ull)

/* The driver entry points used, by their versioned names (cuda.h maps
 * cuMemAlloc to cuMemAlloc_v2 and so on; STR expands the mapping). */
#define CU_ENTRIES(X)                                                                              \
    X(cuInit) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain)   \
    X(cuDevicePrimaryCtxRelease) X(cuDevicePrimaryCtxReset) X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuMemAlloc) X(cuMemFree)      \
    X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuModuleLoadDataEx) X(cuModuleGetFunction) X(cuModuleUnload)    \
    X(cuLaunchKernel) X(cuLaunchKernelEx) X(cuGetErrorName)
#define STR_(x) #x
#define STR(x) STR_(x)

static struct {
#define X(f) __typeof__(f) *f;
    CU_ENTRIES(X)
#undef X
} cu;

struct conf_engine {
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr din, dout;
    uint64_t *in, *out;     /* the host copies the families fill and read */
    char name[128];
    int major, minor;
    char lost[160];         /* why the context is gone for good, or "" */
};

static char engine_name[192] = "cuda";
const char *conf_engine_name(void) { return engine_name; }
bool conf_engine_reconverges(void) { return false; }     /* the driver may be a GPU's */
bool conf_engine_in_order(void) { return false; }

static bool load_driver(void)
{
    static int state;           /* 0 not tried, 1 loaded, -1 failed */
    if (state)
        return state > 0;
    const char *lib = getenv("PTXSIM_CONF_LIBCUDA");
    void *h = dlopen(lib && *lib ? lib : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "conformance-cuda: cannot open the CUDA driver: %s\n", dlerror());
        state = -1;
        return false;
    }
#define X(f)                                                                                   \
    if (!(cu.f = (__typeof__(cu.f))dlsym(h, STR(f)))) {                                        \
        fprintf(stderr, "conformance-cuda: the driver has no %s\n", STR(f));                  \
        state = -1;                                                                            \
        return false;                                                                          \
    }
    CU_ENTRIES(X)
#undef X
    state = 1;
    return true;
}

static const char *err_name(CUresult r)
{
    const char *s = NULL;
    if (cu.cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
        return "an unknown CUDA error";
    return s;
}

/* The context and the device buffers: made at the start and again after a
 * launch broke the context; false (with the failing step on stderr) if
 * they cannot be. */
static bool open_context(conf_engine *e)
{
    CUresult r;
    const char *step = "cuDevicePrimaryCtxRetain";
    if ((r = cu.cuDevicePrimaryCtxRetain(&e->ctx, e->dev)) == CUDA_SUCCESS &&
        (step = "cuCtxSetCurrent", r = cu.cuCtxSetCurrent(e->ctx)) == CUDA_SUCCESS &&
        (step = "cuMemAlloc", r = cu.cuMemAlloc(&e->din, IN_BYTES)) == CUDA_SUCCESS &&
        (r = cu.cuMemAlloc(&e->dout, OUT_BYTES)) == CUDA_SUCCESS)
        return true;
    fprintf(stderr, "conformance-cuda: %s: %s\n", step, err_name(r));
    return false;
}

/* After an error that breaks the context: drop it (every allocation with
 * it) and make a new one.  The primary context is released before the
 * reset, so that nothing holds the broken one. */
static bool reopen_context(conf_engine *e)
{
    cu.cuCtxSetCurrent(NULL);
    cu.cuDevicePrimaryCtxRelease(e->dev);
    CUresult r = cu.cuDevicePrimaryCtxReset(e->dev);
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "conformance-cuda: cuDevicePrimaryCtxReset: %s\n", err_name(r));
    e->ctx = NULL;
    return open_context(e);
}

conf_engine *conf_engine_new(void)
{
    if (!load_driver() || cu.cuInit(0) != CUDA_SUCCESS)
        return NULL;
    conf_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->in = aligned_alloc(256, IN_BYTES);
    e->out = aligned_alloc(256, OUT_BYTES);
    if (!e->in || !e->out || cu.cuDeviceGet(&e->dev, 0) != CUDA_SUCCESS || !open_context(e)) {
        conf_engine_free(e);
        return NULL;
    }
    memset(e->in, 0, IN_BYTES);
    memset(e->out, 0, OUT_BYTES);
    cu.cuDeviceGetName(e->name, sizeof e->name, e->dev);
    cu.cuDeviceGetAttribute(&e->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, e->dev);
    cu.cuDeviceGetAttribute(&e->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, e->dev);
    snprintf(engine_name, sizeof engine_name, "cuda: %s, sm_%d%d", e->name, e->major, e->minor);
    return e;
}

void conf_engine_free(conf_engine *e)
{
    if (!e)
        return;
    if (e->ctx) {
        cu.cuMemFree(e->din);
        cu.cuMemFree(e->dout);
    }
    free(e->in);
    free(e->out);
    free(e);
}

uint64_t *conf_engine_in(conf_engine *e) { return e->in; }
uint64_t *conf_engine_out(conf_engine *e) { return e->out; }
/* The image families describe their images in ptxsim's terms (isa_image
 * over bytes in the input buffer); making CUDA arrays of them is not done
 * yet, so their forms are refused here. */
conf_outcome conf_engine_image(conf_engine *e, const struct isa_image *img, uint64_t *handle, char *msg, size_t n)
{
    (void)e, (void)img, (void)handle;
    snprintf(msg, n, "this engine makes no texture or surface objects");
    return CONF_RUN_REFUSED;
}

void conf_engine_image_free(conf_engine *e, uint64_t handle) { (void)e, (void)handle; }

/* The kernel in flight, for the watchdog's message. */
static const char *volatile running_ptx;

static void on_alarm(int sig)
{
    (void)sig;
    static const char head[] = "conformance-cuda: a kernel did not finish; its text:\n";
    ssize_t w = write(2, head, sizeof head - 1);
    const char *p = running_ptx;
    if (p)
        w = write(2, p, strlen(p));
    (void)w;
    _exit(3);
}

/* The errors after which the context is unusable. */
static bool breaks_context(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: case CUDA_ERROR_HARDWARE_STACK_ERROR: case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS: case CUDA_ERROR_INVALID_ADDRESS_SPACE: case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED: case CUDA_ERROR_ASSERT: case CUDA_ERROR_LAUNCH_TIMEOUT:
        return true;
    default:
        return false;
    }
}

conf_outcome conf_engine_launch(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                                unsigned cluster, char *msg, size_t n)
{
    if (e->lost[0]) {
        snprintf(msg, n, "%s", e->lost);
        return CONF_RUN_REFUSED;
    }
    char *text = malloc(len + 1);
    if (!text) {
        snprintf(msg, n, "out of memory");
        return CONF_ERROR;
    }
    memcpy(text, ptx, len);
    text[len] = 0;
    char log[1024] = "";
    CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { log, (void *)(uintptr_t)sizeof log };
    CUmodule mod;
    CUfunction fn;
    CUresult r = cu.cuModuleLoadDataEx(&mod, text, 2, opts, vals);
    if (r != CUDA_SUCCESS) {
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(msg, n, "%s: %s", err_name(r), log);
        free(text);
        return CONF_PARSE_REFUSED;
    }
    conf_outcome oc = CONF_RAN;
    if ((r = cu.cuModuleGetFunction(&fn, mod, "conf")) != CUDA_SUCCESS ||
        (r = cu.cuMemcpyHtoD(e->din, e->in, IN_BYTES)) != CUDA_SUCCESS ||
        (r = cu.cuMemcpyHtoD(e->dout, e->out, OUT_BYTES)) != CUDA_SUCCESS) {
        snprintf(msg, n, "before the launch: %s", err_name(r));
        oc = CONF_ERROR;
        goto out;
    }
    void *args[] = { &e->din, &e->dout };
    static unsigned limit_s;
    if (!limit_s) {
        const char *s = getenv("PTXSIM_CONF_LAUNCH_S");
        limit_s = s && atoi(s) > 0 ? (unsigned)atoi(s) : 30;
        signal(SIGALRM, on_alarm);
    }
    running_ptx = text;
    alarm(limit_s);
    if (cluster) {
        CUlaunchAttribute attr = { .id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION };
        attr.value.clusterDim.x = cluster;
        attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
        CUlaunchConfig cfg = { .gridDimX = lanes / block, .gridDimY = 1, .gridDimZ = 1, .blockDimX = block,
                               .blockDimY = 1, .blockDimZ = 1, .attrs = &attr, .numAttrs = 1 };
        r = cu.cuLaunchKernelEx(&cfg, fn, args, NULL);
    } else {
        r = cu.cuLaunchKernel(fn, lanes / block, 1, 1, block, 1, 1, 0, NULL, args, NULL);
    }
    if (r == CUDA_SUCCESS)
        r = cu.cuCtxSynchronize();
    alarm(0);
    running_ptx = NULL;
    if (r != CUDA_SUCCESS && !breaks_context(r)) {
        snprintf(msg, n, "the launch: %s", err_name(r));
        oc = CONF_RUN_REFUSED;
    } else if (r != CUDA_SUCCESS) {
        snprintf(msg, n, "the kernel: %s", err_name(r));
        oc = CONF_ERROR;
        if (!reopen_context(e))                 /* a sticky error: CUDA wants a new process */
            snprintf(e->lost, sizeof e->lost, "no context since an earlier kernel's %s (CUDA needs a new process)",
                     err_name(r));
        free(text);
        return oc;
    } else if ((r = cu.cuMemcpyDtoH(e->in, e->din, IN_BYTES)) != CUDA_SUCCESS ||
               (r = cu.cuMemcpyDtoH(e->out, e->dout, OUT_BYTES)) != CUDA_SUCCESS) {
        snprintf(msg, n, "after the launch: %s", err_name(r));
        oc = CONF_ERROR;
    }
out:
    cu.cuModuleUnload(mod);
    free(text);
    return oc;
}

/*
 * nvjitlink.c -- libnvJitLink.so.13 for programs run under ptxsim.
 *
 * Python GPU stacks (Numba-CUDA, cuda.core's Linker) hand their device
 * code -- PTX, or LTO-IR from NVVM -- to nvJitLink for a "cubin", which
 * they then load with cuLibraryLoadData / cuModuleLoadData.  NVIDIA's
 * nvJitLink would run ptxas and return machine code only, which ptxsim
 * cannot execute: ptxsim runs PTX.  So `ptxsim run` puts this library
 * first on the search path (beside libcuda.so.1), and its link ends in
 * PTX: the image it returns as the cubin is PTX text, which ptxsim's
 * driver loads as it loads any PTX.  The image is meant for ptxsim's
 * driver only.
 *
 *   - A link of PTX (no -lto) keeps its one PTX module as it is; several
 *     modules (units compiled with -rdc) are linked as the device linker
 *     links them and printed as one, by ptxsim's driver (rt_link_ptx in
 *     libcuda.so.1, which links cuLink*'s inputs the same way).
 *   - A link with -lto (LTO-IR, as Numba-CUDA produces by default when an
 *     nvJitLink is present) needs a real optimiser: it is passed to the
 *     toolkit's nvJitLink (PTXSIM_NVJITLINK, else $CUDA_HOME/lib64, else
 *     /usr/local/cuda/lib64) with -ptx added, nvJitLink's own switch for
 *     "emit PTX after link-time optimisation", and the linked PTX is the
 *     image.
 *
 * Anything else (cubins, fat binaries, objects, libraries such as
 * libcudadevrt.a for device-side launches) is refused with
 * NVJITLINK_ERROR_UNRECOGNIZED_INPUT and a sentence, in the error log and
 * on stderr, naming what was given.
 *
 * The API is nvJitLink.h's; the header's inline wrappers call the
 * versioned names (__nvJitLinkCreate_13_0...), while dlopen users such as
 * cuda-bindings look up the plain ones, so both are exported.
 */
#define _GNU_SOURCE
#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

struct nvJitLink {
    nvJitLinkHandle real;   /* the toolkit's link, for -lto; else NULL */
    char **inputs;      /* the PTX inputs (owned, NUL-terminated) */
    char **names;       /* their names, for messages (owned) */
    uint32_t n, cap;
    char *ptx;          /* the image: the linked PTX (owned) */
    size_t ptx_len;
    bool complete;
    char log[1024];     /* error log */
    char info[256];     /* info log */
};

/* Records why the link failed, in the error log and on stderr (a caller
 * that drops the log still leaves a trace). */
static nvJitLinkResult fail(nvJitLinkHandle h, nvJitLinkResult r, const char *fmt, ...)
{
    char msg[sizeof h->log];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (h && !h->log[0])
        snprintf(h->log, sizeof h->log, "%s\n", msg);
    fprintf(stderr, "ptxsim: nvJitLink: %s\n", msg);
    return r;
}

/* PTX text starts, after comments and blank space, with a directive. */
static bool looks_like_ptx(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
            i++;
        } else if (i + 1 < n && p[i] == '/' && p[i + 1] == '/') {
            while (i < n && p[i] != '\n')
                i++;
        } else if (i + 1 < n && p[i] == '/' && p[i + 1] == '*') {
            const char *end = NULL;
            for (size_t k = i + 2; k + 1 < n; k++)
                if (p[k] == '*' && p[k + 1] == '/') {
                    end = p + k + 2;
                    break;
                }
            if (!end)
                return false;
            i = (size_t)(end - p);
        } else {
            return p[i] == '.';
        }
    }
    return false;
}

/* The toolkit's nvJitLink, for links with -lto.  Opened by path, never
 * by name, which would find this library again. */
typedef struct real_api {
    nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char *const *);
    nvJitLinkResult (*destroy)(nvJitLinkHandle *);
    nvJitLinkResult (*add_data)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *);
    nvJitLinkResult (*complete)(nvJitLinkHandle);
    nvJitLinkResult (*ptx_size)(nvJitLinkHandle, size_t *);
    nvJitLinkResult (*ptx)(nvJitLinkHandle, char *);
    nvJitLinkResult (*log_size)(nvJitLinkHandle, size_t *);
    nvJitLinkResult (*log)(nvJitLinkHandle, char *);
} real_api;

/* Mutable state, set once per process (pthread_once: links may start on
 * several threads): the library is opened at the first -lto link and kept
 * (a library's symbols must outlive its handles). */
static real_api real_fns;
static bool real_ok;
static char real_path[512];
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void open_real(void)
{
    const char *env = getenv("PTXSIM_NVJITLINK"), *home = getenv("CUDA_HOME");
    if (env && *env)
        snprintf(real_path, sizeof real_path, "%s", env);
    else
        snprintf(real_path, sizeof real_path, "%s/lib64/libnvJitLink.so.13",
                 home && *home ? home : "/usr/local/cuda");
    void *h = dlopen(real_path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    /* dlsym's void * stored into function pointers, as POSIX allows. */
    *(void **)&real_fns.create = dlsym(h, "__nvJitLinkCreate_13_0");
    *(void **)&real_fns.destroy = dlsym(h, "__nvJitLinkDestroy_13_0");
    *(void **)&real_fns.add_data = dlsym(h, "__nvJitLinkAddData_13_0");
    *(void **)&real_fns.complete = dlsym(h, "__nvJitLinkComplete_13_0");
    *(void **)&real_fns.ptx_size = dlsym(h, "__nvJitLinkGetLinkedPtxSize_13_0");
    *(void **)&real_fns.ptx = dlsym(h, "__nvJitLinkGetLinkedPtx_13_0");
    *(void **)&real_fns.log_size = dlsym(h, "__nvJitLinkGetErrorLogSize_13_0");
    *(void **)&real_fns.log = dlsym(h, "__nvJitLinkGetErrorLog_13_0");
    real_ok = real_fns.create && real_fns.destroy && real_fns.add_data && real_fns.complete &&
              real_fns.ptx_size && real_fns.ptx && real_fns.log_size && real_fns.log;
}

static const real_api *real_nvjitlink(void)
{
    pthread_once(&real_once, open_real);
    return real_ok ? &real_fns : NULL;
}

/* The toolkit link's error log appended to ours. */
static void take_real_log(nvJitLinkHandle h)
{
    const real_api *r = real_nvjitlink();
    size_t n = 0, used = strlen(h->log);
    if (!r || !h->real || r->log_size(h->real, &n) != NVJITLINK_SUCCESS || n <= 1)
        return;
    char *buf = malloc(n);
    if (buf && r->log(h->real, buf) == NVJITLINK_SUCCESS)
        snprintf(h->log + used, sizeof h->log - used, "%s", buf);
    free(buf);
}

static const char *input_name(nvJitLinkInputType t)
{
    switch (t) {
    case NVJITLINK_INPUT_CUBIN: return "a cubin";
    case NVJITLINK_INPUT_PTX: return "PTX";
    case NVJITLINK_INPUT_LTOIR: return "LTO-IR";
    case NVJITLINK_INPUT_FATBIN: return "a fat binary";
    case NVJITLINK_INPUT_OBJECT: return "a host object";
    case NVJITLINK_INPUT_LIBRARY: return "a library";
    case NVJITLINK_INPUT_INDEX: return "an index file";
    default: return "an input of unknown type";
    }
}

EXPORT nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle *handle, uint32_t numOptions,
                                              const char *const *options)
{
    if (!handle || (numOptions && !options))
        return NVJITLINK_ERROR_NULL_INPUT;
    *handle = NULL;
    nvJitLinkHandle h = calloc(1, sizeof *h);
    if (!h)
        return NVJITLINK_ERROR_INTERNAL;
    bool arch = false, lto = false;
    for (uint32_t i = 0; i < numOptions; i++) {
        const char *o = options[i];
        if (!o) {
            free(h);
            return NVJITLINK_ERROR_NULL_INPUT;
        }
        /* -arch names the GPU the machine code is for; PTX needs none,
         * but nvJitLink requires it and so does this one. */
        if (strncmp(o, "-arch=", 6) == 0)
            arch = true;
        else if (strcmp(o, "-lto") == 0)
            lto = true;
        /* Without -lto the other options tune ptxas (-maxrregcount, -O3,
         * -lineinfo...), which leave PTX as it is. */
    }
    if (!arch) {
        free(h);
        return NVJITLINK_ERROR_MISSING_ARCH;
    }
    if (lto) {
        const real_api *r = real_nvjitlink();
        if (!r) {
            free(h);
            return fail(NULL, NVJITLINK_ERROR_INTERNAL,
                        "-lto: link-time optimisation needs the CUDA toolkit's nvJitLink, not found at %s "
                        "(set PTXSIM_NVJITLINK to its path)", real_path);
        }
        /* The caller's options and -ptx, once. */
        const char **opts = malloc((numOptions + 1) * sizeof *opts);
        if (!opts) {
            free(h);
            return NVJITLINK_ERROR_INTERNAL;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < numOptions; i++)
            if (strcmp(options[i], "-ptx") != 0)
                opts[k++] = options[i];
        opts[k++] = "-ptx";
        nvJitLinkResult e = r->create(&h->real, k, opts);
        free(opts);
        if (e != NVJITLINK_SUCCESS) {
            free(h);
            return e;
        }
    }
    snprintf(h->info, sizeof h->info, "ptxsim: the linked image is the PTX itself\n");
    *handle = h;
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle *handle)
{
    if (!handle)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (*handle) {
        if ((*handle)->real)
            real_fns.destroy(&(*handle)->real);
        for (uint32_t i = 0; i < (*handle)->n; i++) {
            free((*handle)->inputs[i]);
            free((*handle)->names[i]);
        }
        free((*handle)->inputs);
        free((*handle)->names);
        free((*handle)->ptx);
        free(*handle);
        *handle = NULL;
    }
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle h, nvJitLinkInputType type, const void *data,
                                               size_t size, const char *name)
{
    if (!h || !data)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (h->complete)
        return NVJITLINK_ERROR_INVALID_INPUT;
    if (h->real) {
        nvJitLinkResult e = real_fns.add_data(h->real, type, data, size, name);
        if (e != NVJITLINK_SUCCESS)
            take_real_log(h);
        return e;
    }
    const char *p = data;
    /* PTX given with its size may or may not include the final NUL. */
    size_t n = strnlen(p, size);
    bool ptx = type == NVJITLINK_INPUT_PTX || (type == NVJITLINK_INPUT_ANY && looks_like_ptx(p, n));
    if (!ptx)
        return fail(h, NVJITLINK_ERROR_UNRECOGNIZED_INPUT, "%s is %s: ptxsim runs PTX and links PTX only%s",
                    name ? name : "an input", input_name(type),
                    type == NVJITLINK_INPUT_LIBRARY ? " (libcudadevrt, for device-side launches, is not supported)"
                                                    : "; compile it to PTX");
    if (!looks_like_ptx(p, n))
        return fail(h, NVJITLINK_ERROR_INVALID_INPUT, "%s was given as PTX but is not PTX text",
                    name ? name : "an input");
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? 2 * h->cap : 4;
        char **in = realloc(h->inputs, cap * sizeof *in);
        if (in)
            h->inputs = in;
        char **nm = in ? realloc(h->names, cap * sizeof *nm) : NULL;
        if (!nm)
            return NVJITLINK_ERROR_INTERNAL;
        h->names = nm;
        h->cap = cap;
    }
    char *text = malloc(n + 1), *nm = strdup(name ? name : "<ptx>");
    if (!text || !nm) {
        free(text);
        free(nm);
        return NVJITLINK_ERROR_INTERNAL;
    }
    memcpy(text, p, n);
    text[n] = 0;
    h->inputs[h->n] = text;
    h->names[h->n++] = nm;
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle h, nvJitLinkInputType type, const char *fileName)
{
    if (!h || !fileName)
        return NVJITLINK_ERROR_NULL_INPUT;
    FILE *f = fopen(fileName, "rb");
    if (!f)
        return fail(h, NVJITLINK_ERROR_INVALID_INPUT, "cannot open %s", fileName);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return NVJITLINK_ERROR_INTERNAL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    nvJitLinkResult r = __nvJitLinkAddData_13_0(h, type, buf, n, fileName);
    free(buf);
    return r;
}

/* Several PTX modules are linked by ptxsim's driver, as its cuLink* links
 * them (rt_link_ptx in cu_link.c): libcuda.so.1 beside this library. */
typedef int (*link_fn)(const char *const *, const char *const *, unsigned, char **, size_t *, char *, size_t);

static nvJitLinkResult link_several(nvJitLinkHandle h)
{
    Dl_info self;
    char path[1024];
    const char *slash = NULL;
    if (dladdr((void *)&link_several, &self) && self.dli_fname)
        slash = strrchr(self.dli_fname, '/');
    if (slash)
        snprintf(path, sizeof path, "%.*s/libcuda.so.1", (int)(slash - self.dli_fname), self.dli_fname);
    else
        snprintf(path, sizeof path, "libcuda.so.1");
    void *lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    link_fn link = NULL;
    if (lib)
        *(void **)&link = dlsym(lib, "rt_link_ptx");
    if (!link)
        return fail(h, NVJITLINK_ERROR_INTERNAL, "linking %u PTX modules needs ptxsim's libcuda.so.1 (%s)", h->n,
                    lib ? "it lacks rt_link_ptx" : dlerror());
    char err[400];
    int r = link((const char *const *)h->inputs, (const char *const *)h->names, h->n, &h->ptx, &h->ptx_len, err,
                 sizeof err);
    if (r != 0)
        return fail(h, NVJITLINK_ERROR_INVALID_INPUT, "%s", *err ? err : "out of memory");
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle h)
{
    if (!h)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (h->real && !h->complete) {
        size_t n = 0;
        nvJitLinkResult e = real_fns.complete(h->real);
        if (e == NVJITLINK_SUCCESS)
            e = real_fns.ptx_size(h->real, &n);
        if (e == NVJITLINK_SUCCESS && !(h->ptx = malloc(n + 1)))
            e = NVJITLINK_ERROR_INTERNAL;
        if (e == NVJITLINK_SUCCESS)
            e = real_fns.ptx(h->real, h->ptx);
        if (e != NVJITLINK_SUCCESS) {
            take_real_log(h);
            return e;
        }
        h->ptx[n] = 0;
        h->ptx_len = strlen(h->ptx);
    }
    if (!h->ptx && h->n == 1) {
        h->ptx = h->inputs[0];
        h->ptx_len = strlen(h->ptx);
        h->inputs[0] = NULL;
    } else if (!h->ptx && h->n > 1) {
        nvJitLinkResult e = link_several(h);
        if (e != NVJITLINK_SUCCESS)
            return e;
    }
    if (!h->ptx)
        return fail(h, NVJITLINK_ERROR_INVALID_INPUT, "nothing to link: no PTX was added");
    h->complete = true;
    return NVJITLINK_SUCCESS;
}

/* The image, as cubin or as PTX: the same NUL-terminated text. */
static nvJitLinkResult image_size(nvJitLinkHandle h, size_t *size)
{
    if (!h || !size)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (!h->complete)
        return NVJITLINK_ERROR_INVALID_INPUT;
    *size = h->ptx_len + 1;
    return NVJITLINK_SUCCESS;
}

static nvJitLinkResult image(nvJitLinkHandle h, void *out)
{
    if (!h || !out)
        return NVJITLINK_ERROR_NULL_INPUT;
    if (!h->complete)
        return NVJITLINK_ERROR_INVALID_INPUT;
    memcpy(out, h->ptx, h->ptx_len + 1);
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle h, size_t *size)
{
    return image_size(h, size);
}

EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle h, void *cubin)
{
    return image(h, cubin);
}

EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtxSize_13_0(nvJitLinkHandle h, size_t *size)
{
    return image_size(h, size);
}

EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtx_13_0(nvJitLinkHandle h, char *ptx)
{
    return image(h, ptx);
}

static nvJitLinkResult log_size(const char *log, size_t *size)
{
    if (!size)
        return NVJITLINK_ERROR_NULL_INPUT;
    *size = strlen(log) + 1;
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle h, size_t *size)
{
    return h ? log_size(h->log, size) : NVJITLINK_ERROR_NULL_INPUT;
}

static nvJitLinkResult log_copy(const char *log, char *out)
{
    if (!out)
        return NVJITLINK_ERROR_NULL_INPUT;
    strcpy(out, log);
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkGetErrorLog_13_0(nvJitLinkHandle h, char *log)
{
    return h ? log_copy(h->log, log) : NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetInfoLogSize_13_0(nvJitLinkHandle h, size_t *size)
{
    return h ? log_size(h->info, size) : NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetInfoLog_13_0(nvJitLinkHandle h, char *log)
{
    return h ? log_copy(h->info, log) : NVJITLINK_ERROR_NULL_INPUT;
}

/* The version of the nvJitLink API this library implements (CUDA 13.0). */
EXPORT nvJitLinkResult nvJitLinkVersion(unsigned int *major, unsigned int *minor)
{
    if (!major || !minor)
        return NVJITLINK_ERROR_NULL_INPUT;
    *major = 13;
    *minor = 0;
    return NVJITLINK_SUCCESS;
}

/* The unversioned names, for callers that look the functions up by name. */
#define ALIAS(plain, versioned) \
    EXPORT __typeof__(versioned) plain __attribute__((alias(#versioned)));
ALIAS(nvJitLinkCreate, __nvJitLinkCreate_13_0)
ALIAS(nvJitLinkDestroy, __nvJitLinkDestroy_13_0)
ALIAS(nvJitLinkAddData, __nvJitLinkAddData_13_0)
ALIAS(nvJitLinkAddFile, __nvJitLinkAddFile_13_0)
ALIAS(nvJitLinkComplete, __nvJitLinkComplete_13_0)
ALIAS(nvJitLinkGetLinkedCubinSize, __nvJitLinkGetLinkedCubinSize_13_0)
ALIAS(nvJitLinkGetLinkedCubin, __nvJitLinkGetLinkedCubin_13_0)
ALIAS(nvJitLinkGetLinkedPtxSize, __nvJitLinkGetLinkedPtxSize_13_0)
ALIAS(nvJitLinkGetLinkedPtx, __nvJitLinkGetLinkedPtx_13_0)
ALIAS(nvJitLinkGetErrorLogSize, __nvJitLinkGetErrorLogSize_13_0)
ALIAS(nvJitLinkGetErrorLog, __nvJitLinkGetErrorLog_13_0)
ALIAS(nvJitLinkGetInfoLogSize, __nvJitLinkGetInfoLogSize_13_0)
ALIAS(nvJitLinkGetInfoLog, __nvJitLinkGetInfoLog_13_0)

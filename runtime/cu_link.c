/*
 * cu_link.c -- the driver's JIT linker (cuLinkCreate, cuLinkAddData,
 * cuLinkAddFile, cuLinkComplete, cuLinkDestroy), as cuda.core's Linker
 * uses when no nvJitLink is installed, and as programs that link PTX at
 * run time call it.
 *
 * A GPU driver's linker turns PTX into machine code; ptxsim's image is
 * PTX, since PTX is what ptxsim runs: the image cuLinkComplete returns is
 * PTX text, which cuModuleLoadData and cuLibraryLoadData load.  One PTX
 * input is kept as it is; several are parsed and linked as the device
 * linker links separately compiled units (.extern resolved to a .visible
 * definition in another input; fe_link) and printed back as one module.
 * PTX comes as text (CU_JIT_INPUT_PTX) or inside a fat binary
 * (CU_JIT_INPUT_FATBINARY, the PTX for the simulated architecture).
 * Cubins, objects, libraries (libcudadevrt.a) and NVVM IR carry no PTX
 * ptxsim could run and are refused with CUDA_ERROR_NOT_SUPPORTED and a
 * message, on stderr and in the CU_JIT_ERROR_LOG_BUFFER the caller gave.
 * Options that tune ptxas (CU_JIT_TARGET, CU_JIT_MAX_REGISTERS...) leave
 * PTX as it is.  The JIT options' outputs (logs, sizes, wall time), which
 * module and library loads fill too, are written here
 * (rt_cu_jit_outputs).
 */
#define _GNU_SOURCE
#include "cu_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINK_MAGIC = 0x4c696e6b };

typedef struct link_state {
    uint32_t magic;             /* LINK_MAGIC while live */
    char **ptx;                 /* the inputs' PTX texts (owned) */
    char **names;               /* their names, for messages (owned) */
    uint32_t n, cap;
    char *image;                /* the linked PTX, after cuLinkComplete */
    size_t image_len;
    char *info_log, *error_log; /* the caller's log buffers, or NULL */
    size_t info_size, error_size;
} link_state;

/* Records why a link step failed: on stderr and in the caller's error log. */
static CUresult link_fail(link_state *s, CUresult r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rt_say("%s", msg);
    if (s && s->error_log && s->error_size)
        snprintf(s->error_log, s->error_size, "%s", msg);
    return r;
}

void rt_cu_jit_outputs(unsigned n, const CUjit_option *opts, void **values, const char *error)
{
    if (!n || !opts || !values)
        return;
    char *info = NULL, *err = NULL;
    size_t info_cap = 0, err_cap = 0;
    for (unsigned i = 0; i < n; i++) {
        switch (opts[i]) {
        case CU_JIT_INFO_LOG_BUFFER: info = values[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: info_cap = (size_t)(uintptr_t)values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: err = values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: err_cap = (size_t)(uintptr_t)values[i]; break;
        default: break;
        }
    }
    size_t err_used = 0;
    if (info && info_cap)
        info[0] = 0;
    if (err && err_cap) {
        snprintf(err, err_cap, "%s", error ? error : "");
        err_used = strlen(err);
    }
    /* The size options are IN/OUT: the value slot itself receives the
     * count, and CU_JIT_WALL_TIME's slot a float (cuda.h). */
    for (unsigned i = 0; i < n; i++) {
        if (opts[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
            values[i] = (void *)(uintptr_t)0;
        else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            values[i] = (void *)(uintptr_t)(err && err_cap ? err_used : 0);
        else if (opts[i] == CU_JIT_WALL_TIME) {
            float ms = 0.0f;
            memcpy(&values[i], &ms, sizeof ms);
        }
    }
}

/* The live link states: a handle is looked up here before it is touched,
 * so a destroyed or made-up one is CUDA_ERROR_INVALID_HANDLE, never a read
 * of freed memory. */
static rt_ptrmap live_links;

static link_state *state_of(CUlinkState st)
{
    rt_lock();
    link_state *s = st ? rt_ptrmap_get(&live_links, st) : NULL;
    rt_unlock();
    return s && s->magic == LINK_MAGIC ? s : NULL;
}

CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
    CU_ENTER(true);
    if (!stateOut || (numOptions && (!options || !optionValues)))
        return CUDA_ERROR_INVALID_VALUE;
    link_state *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->magic = LINK_MAGIC;
    for (unsigned i = 0; i < numOptions; i++) {
        /* Sizes are passed in the pointer itself, as cuda.h documents. */
        switch (options[i]) {
        case CU_JIT_INFO_LOG_BUFFER: s->info_log = optionValues[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: s->info_size = (size_t)(uintptr_t)optionValues[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: s->error_log = optionValues[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: s->error_size = (size_t)(uintptr_t)optionValues[i]; break;
        case CU_JIT_LTO:
            if (optionValues[i]) {
                free(s);
                return link_fail(NULL, CUDA_ERROR_NOT_SUPPORTED,
                                 "cuLinkCreate: CU_JIT_LTO (link-time optimisation of NVVM IR) is not "
                                 "supported by ptxsim, which runs PTX: link PTX");
            }
            break;
        default:
            break;
        }
    }
    rt_lock();
    bool listed = rt_ptrmap_put(&live_links, s, s);
    rt_unlock();
    if (!listed) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (!s->info_log)
        s->info_size = 0;
    if (!s->error_log)
        s->error_size = 0;
    if (s->info_size)
        s->info_log[0] = 0;
    if (s->error_size)
        s->error_log[0] = 0;
    *stateOut = (CUlinkState)s;
    return CUDA_SUCCESS;
}

static const char *input_kind(CUjitInputType t)
{
    switch (t) {
    case CU_JIT_INPUT_CUBIN: return "a cubin";
    case CU_JIT_INPUT_PTX: return "PTX";
    case CU_JIT_INPUT_FATBINARY: return "a fat binary";
    case CU_JIT_INPUT_OBJECT: return "a host object";
    case CU_JIT_INPUT_LIBRARY: return "a library";
    case CU_JIT_INPUT_NVVM: return "NVVM IR";
    default: return "an input of unknown type";
    }
}

/* Adds PTX text `text` (n bytes, taken over) under `name`. */
static CUresult add_ptx(link_state *s, char *text, const char *name)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 4;
        char **p = realloc(s->ptx, cap * sizeof *p), **q = p ? realloc(s->names, cap * sizeof *q) : NULL;
        if (p)
            s->ptx = p;
        if (!p || !q) {
            free(text);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        s->names = q;
        s->cap = cap;
    }
    char *nm = strdup(name ? name : "<ptx>");
    if (!nm) {
        free(text);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    s->ptx[s->n] = text;
    s->names[s->n++] = nm;
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                       unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    CU_ENTER(true);
    link_state *s = state_of(state);
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!data || !size || (numOptions && (!options || !optionValues)) || s->image)
        return CUDA_ERROR_INVALID_VALUE;
    const char *nm = name ? name : "<input>";
    if (type == CU_JIT_INPUT_PTX) {
        /* The size may or may not count the final NUL. */
        size_t len = strnlen(data, size);
        char *text = malloc(len + 1);
        if (!text)
            return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(text, data, len);
        text[len] = 0;
        return add_ptx(s, text, nm);
    }
    if (type == CU_JIT_INPUT_FATBINARY) {
        const uint8_t *p = data;
        uint32_t magic;
        memcpy(&magic, p, sizeof magic);
        if (magic == FE_FATBIN_WRAPPER_MAGIC)
            p = *(const uint8_t *const *)(p + 8);
        char *text = NULL;
        size_t len = 0;
        rt_lock();
        uint32_t sm = rt.cfg.sm;
        rt_unlock();
        ptx_diag d = {0};
        ptx_status st = fe_fatbin_ptx(p, size, sm, &text, &len, &d);
        if (st == PTX_E_NO_PTX)
            return link_fail(s, CUDA_ERROR_NO_BINARY_FOR_GPU,
                             "cuLinkAddData: %s is a fat binary without PTX, and ptxsim runs PTX", nm);
        if (st != PTX_OK)
            return link_fail(s, CUDA_ERROR_INVALID_IMAGE, "cuLinkAddData: %s: %s", nm, d.msg);
        return add_ptx(s, text, nm);
    }
    return link_fail(s, CUDA_ERROR_NOT_SUPPORTED,
                     "cuLinkAddData: %s is %s: ptxsim runs PTX and links PTX and fat binaries with PTX "
                     "only%s",
                     nm, input_kind(type),
                     type == CU_JIT_INPUT_LIBRARY ? " (libcudadevrt, for device-side launches, is not supported)"
                                                  : "");
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                       CUjit_option *options, void **optionValues)
{
    CU_ENTER(true);
    link_state *s = state_of(state);
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    size_t n = 0;
    char *buf = ptx_read_file(path, &n);
    if (!buf)
        return link_fail(s, errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_FILE_NOT_FOUND,
                         "cuLinkAddFile: cannot read %s: %s", path, strerror(errno));
    CUresult r = cuLinkAddData(state, type, buf, n ? n : 1, path, numOptions, options, optionValues);
    free(buf);
    return r;
}

/* A linked module must define every function it calls but those the
 * driver supplies: an undefined one fails the link, as it fails the device
 * linker, not the load that would come after. */
static CUresult check_resolved(const isa_module *m, char *err, size_t err_size)
{
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        for (uint32_t c = 0; c < m->funcs[fi].ncalls; c++) {
            int32_t callee = m->funcs[fi].calls[c].callee;
            if (callee >= 0 && !m->funcs[callee].ncode && !exec_is_builtin(m->funcs[callee].name)) {
                snprintf(err, err_size, "undefined reference to '%s' in '%s' (no input defines it)",
                         m->funcs[callee].name, m->funcs[fi].name);
                return CUDA_ERROR_INVALID_PTX;
            }
        }
    return CUDA_SUCCESS;
}

int rt_link_ptx(const char *const *ptx, const char *const *names, unsigned n, char **out, size_t *out_len,
                char *err, size_t err_size)
{
    *out = NULL;
    *out_len = 0;
    if (err_size)
        err[0] = 0;
    isa_module **mods = calloc(n ? n : 1, sizeof *mods);
    if (!mods)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = CUDA_SUCCESS;
    isa_module *linked = NULL;
    for (unsigned i = 0; i < n && r == CUDA_SUCCESS; i++) {
        ptx_diag d = {0};
        mods[i] = fe_parse_as_written(ptx[i], strlen(ptx[i]), names[i], &d);
        if (!mods[i]) {
            snprintf(err, err_size, "%s:%u:%u: %s", names[i], d.line, d.col, d.msg);
            r = d.st == PTX_E_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_PTX;
        }
    }
    if (r == CUDA_SUCCESS) {
        ptx_diag d = {0};
        linked = n == 1 ? mods[0] : fe_link(mods, n, "the link", &d);
        if (!linked) {
            snprintf(err, err_size, "%s", d.msg);
            r = CUDA_ERROR_INVALID_PTX;
        }
    }
    if (r == CUDA_SUCCESS)
        r = check_resolved(linked, err, err_size);
    if (n == 1) {
        /* One input is its own image, as it came. */
        if (r == CUDA_SUCCESS && !(*out = strdup(ptx[0])))
            r = CUDA_ERROR_OUT_OF_MEMORY;
        if (*out)
            *out_len = strlen(*out);
        linked = NULL;
    }
    if (r == CUDA_SUCCESS && linked) {
        FILE *f = open_memstream(out, out_len);
        if (!f)
            r = CUDA_ERROR_OUT_OF_MEMORY;
        else {
            fe_print(f, linked);
            if (fclose(f) != 0) {
                free(*out);
                *out = NULL;
                r = CUDA_ERROR_OUT_OF_MEMORY;
            }
        }
    }
    if (linked)
        isa_module_free(linked);
    for (unsigned i = 0; i < n; i++)
        if (mods[i])
            isa_module_free(mods[i]);
    free(mods);
    return (int)r;
}

/* The inputs parsed and checked; several linked and printed as one module. */
static CUresult link_inputs(link_state *s)
{
    char err[400];
    CUresult r = (CUresult)rt_link_ptx((const char *const *)s->ptx, (const char *const *)s->names, s->n,
                                       &s->image, &s->image_len, err, sizeof err);
    if (r != CUDA_SUCCESS)
        return link_fail(s, r, "cuLinkComplete: %s", *err ? err : "out of memory");
    return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    CU_ENTER(true);
    link_state *s = state_of(state);
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!cubinOut || !sizeOut)
        return CUDA_ERROR_INVALID_VALUE;
    if (!s->image) {
        if (s->n == 0)
            return link_fail(s, CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: nothing was added to the link");
        CUresult r = link_inputs(s);
        if (r != CUDA_SUCCESS)
            return r;
        if (s->info_size)
            snprintf(s->info_log, s->info_size, "ptxsim: linked %u PTX input%s; the image is PTX", s->n,
                     s->n == 1 ? "" : "s");
    }
    /* The image lives until cuLinkDestroy, as the driver's does. */
    *cubinOut = s->image;
    *sizeOut = s->image_len + 1;
    return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state)
{
    link_state *s = state_of(state);
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    for (uint32_t i = 0; i < s->n; i++) {
        free(s->ptx[i]);
        free(s->names[i]);
    }
    free(s->ptx);
    free(s->names);
    free(s->image);
    s->magic = 0;
    rt_lock();
    rt_ptrmap_del(&live_links, s);
    rt_unlock();
    free(s);
    return CUDA_SUCCESS;
}

/* The CUDA 5.0 ABI of the three that cuda.h maps to _v2: the same
 * arguments. */
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut);
CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
    return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                       unsigned int numOptions, CUjit_option *options, void **optionValues);
CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                       unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                       CUjit_option *options, void **optionValues);
CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                       CUjit_option *options, void **optionValues)
{
    return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}

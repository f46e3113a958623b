/*
 * nvrtc_cubin.c -- NVRTC's machine code, as PTX.
 *
 * Programs that compile CUDA at run time often ask NVRTC for a cubin
 * (`--gpu-architecture=sm_90`, then nvrtcGetCUBIN) and load that with
 * cuModuleLoadData: NVIDIA's samples do so through their nvrtc_helper.h.
 * A cubin is machine code, which ptxsim cannot run.  `ptxsim run` preloads
 * this library ahead of NVIDIA's libnvrtc.so: it lets every NVRTC call
 * through, and for a program compiled for a real architecture answers
 * nvrtcGetCUBINSize / nvrtcGetCUBIN with the program compiled again, from
 * the same sources, headers, options and name expressions, for the virtual
 * architecture of the same number (sm_90a -> compute_90a): PTX, which
 * ptxsim's cuModuleLoadData takes in place of the cubin.  The lowered names
 * are the same, the compile being the same but for its target.
 *
 * Only a program that links libnvrtc resolves its NVRTC calls here; one
 * that opens it with dlopen and looks its functions up there (CuPy, CUDA
 * Python) gets NVRTC's own (CuPy is asked for PTX instead: ptxsim_main.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* What a program was made of, kept until nvrtcDestroyProgram. */
typedef struct source {
    struct source *next;
    nvrtcProgram prog;
    char *src, *name;
    int nheaders;
    char **headers, **include_names;
    int nexprs;
    char **exprs;
    int nopts;
    char **opts;                /* the last compile's, the architecture made virtual */
    bool real_arch;             /* that compile asked for machine code */
    char *ptx;                  /* the PTX of the virtual compile, once made */
    size_t ptx_size;
} source;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static source *sources;

static void *real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static char **dup_list(int n, const char *const *v)
{
    char **out = calloc(n > 0 ? (size_t)n : 1, sizeof *out);
    for (int i = 0; out && i < n; i++)
        out[i] = dup_or_null(v[i]);
    return out;
}

static void free_list(int n, char **v)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

static void free_source(source *s)
{
    free(s->src);
    free(s->name);
    free_list(s->nheaders, s->headers);
    free_list(s->nheaders, s->include_names);
    free_list(s->nexprs, s->exprs);
    free_list(s->nopts, s->opts);
    free(s->ptx);
    free(s);
}

/* The record of prog (the caller holds the lock), or NULL. */
static source *find(nvrtcProgram prog)
{
    for (source *s = sources; s; s = s->next)
        if (s->prog == prog)
            return s;
    return NULL;
}

EXPORT nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                                      const char *const *headers, const char *const *includeNames)
{
    nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                          const char *const *) = real("nvrtcCreateProgram");
    if (!create)
        return NVRTC_ERROR_INVALID_INPUT;
    nvrtcResult r = create(prog, src, name, numHeaders, headers, includeNames);
    if (r != NVRTC_SUCCESS || !prog || !src)
        return r;
    source *s = calloc(1, sizeof *s);
    if (!s)
        return r;
    s->prog = *prog;
    s->src = strdup(src);
    s->name = dup_or_null(name);
    s->nheaders = numHeaders > 0 ? numHeaders : 0;
    s->headers = dup_list(s->nheaders, headers);
    s->include_names = dup_list(s->nheaders, includeNames);
    pthread_mutex_lock(&lock);
    s->next = sources;
    sources = s;
    pthread_mutex_unlock(&lock);
    return r;
}

EXPORT nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
    nvrtcResult (*destroy)(nvrtcProgram *) = real("nvrtcDestroyProgram");
    if (prog) {
        pthread_mutex_lock(&lock);
        for (source **p = &sources; *p; p = &(*p)->next)
            if ((*p)->prog == *prog) {
                source *s = *p;
                *p = s->next;
                free_source(s);
                break;
            }
        pthread_mutex_unlock(&lock);
    }
    return destroy ? destroy(prog) : NVRTC_ERROR_INVALID_INPUT;
}

EXPORT nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *expr)
{
    nvrtcResult (*add)(nvrtcProgram, const char *) = real("nvrtcAddNameExpression");
    if (!add)
        return NVRTC_ERROR_INVALID_INPUT;
    nvrtcResult r = add(prog, expr);
    if (r != NVRTC_SUCCESS || !expr)
        return r;
    pthread_mutex_lock(&lock);
    source *s = find(prog);
    char **grown = s ? realloc(s->exprs, (size_t)(s->nexprs + 1) * sizeof *grown) : NULL;
    if (grown) {
        s->exprs = grown;
        s->exprs[s->nexprs++] = strdup(expr);
    }
    pthread_mutex_unlock(&lock);
    return r;
}

/* The real architecture an option names -- "sm_90" in
 * "--gpu-architecture=sm_90", "-arch=sm_90", or an option after a bare
 * "-arch" / "--gpu-architecture" -- or NULL. */
static const char *real_arch_in(const char *opt, bool after_flag)
{
    if (!after_flag) {
        static const char *const flags[] = { "--gpu-architecture=", "-arch=" };
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            if (strncmp(opt, flags[k], strlen(flags[k])) == 0) {
                opt += strlen(flags[k]);
                after_flag = true;
                break;
            }
    }
    return after_flag && strncmp(opt, "sm_", 3) == 0 ? opt : NULL;
}

/* The compile's options with its real architecture made virtual, in s;
 * whether it named one.  A compile to LTO IR (-dlto) is left alone. */
static bool note_options(source *s, int n, const char *const *opts)
{
    free_list(s->nopts, s->opts);
    free(s->ptx);
    s->ptx = NULL;
    s->opts = dup_list(n, opts);
    s->nopts = s->opts ? n : 0;
    s->real_arch = false;
    for (int i = 0; i < s->nopts; i++) {
        const char *o = s->opts[i];
        if (!o)
            continue;
        if (!strcmp(o, "-dlto") || !strcmp(o, "--dlink-time-opt"))
            return s->real_arch = false;
        bool after = i > 0 && s->opts[i - 1] &&
                     (!strcmp(s->opts[i - 1], "-arch") || !strcmp(s->opts[i - 1], "--gpu-architecture"));
        const char *arch = real_arch_in(o, after);
        if (!arch)
            continue;
        char *virt = malloc(strlen(o) + 8);
        if (!virt)
            continue;
        size_t at = (size_t)(arch - o);
        memcpy(virt, o, at);
        strcpy(virt + at, "compute_");
        strcat(virt, arch + 3);
        free(s->opts[i]);
        s->opts[i] = virt;
        s->real_arch = true;
    }
    return s->real_arch;
}

EXPORT nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options)
{
    nvrtcResult (*compile)(nvrtcProgram, int, const char *const *) = real("nvrtcCompileProgram");
    if (!compile)
        return NVRTC_ERROR_INVALID_INPUT;
    nvrtcResult r = compile(prog, numOptions, options);
    pthread_mutex_lock(&lock);
    source *s = find(prog);
    if (s)
        note_options(s, r == NVRTC_SUCCESS ? numOptions : 0, options);
    pthread_mutex_unlock(&lock);
    return r;
}

/* s's PTX, compiled on first use from a copy of the program; the caller
 * holds the lock. */
static nvrtcResult make_ptx(source *s)
{
    if (s->ptx)
        return NVRTC_SUCCESS;
    nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                          const char *const *) = real("nvrtcCreateProgram");
    nvrtcResult (*add)(nvrtcProgram, const char *) = real("nvrtcAddNameExpression");
    nvrtcResult (*compile)(nvrtcProgram, int, const char *const *) = real("nvrtcCompileProgram");
    nvrtcResult (*size)(nvrtcProgram, size_t *) = real("nvrtcGetPTXSize");
    nvrtcResult (*get)(nvrtcProgram, char *) = real("nvrtcGetPTX");
    nvrtcResult (*destroy)(nvrtcProgram *) = real("nvrtcDestroyProgram");
    if (!create || !add || !compile || !size || !get || !destroy)
        return NVRTC_ERROR_INVALID_INPUT;
    nvrtcProgram copy;
    nvrtcResult r = create(&copy, s->src, s->name, s->nheaders, (const char *const *)s->headers,
                           (const char *const *)s->include_names);
    if (r != NVRTC_SUCCESS)
        return r;
    for (int i = 0; i < s->nexprs && r == NVRTC_SUCCESS; i++)
        r = add(copy, s->exprs[i]);
    size_t n = 0;
    if (r == NVRTC_SUCCESS)
        r = compile(copy, s->nopts, (const char *const *)s->opts);
    if (r == NVRTC_SUCCESS)
        r = size(copy, &n);
    if (r == NVRTC_SUCCESS && !(s->ptx = malloc(n ? n : 1)))
        r = NVRTC_ERROR_OUT_OF_MEMORY;
    if (r == NVRTC_SUCCESS && (r = get(copy, s->ptx)) == NVRTC_SUCCESS)
        s->ptx_size = n;
    if (r != NVRTC_SUCCESS) {
        free(s->ptx);
        s->ptx = NULL;
    }
    destroy(&copy);
    return r;
}

EXPORT nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet)
{
    nvrtcResult (*size)(nvrtcProgram, size_t *) = real("nvrtcGetCUBINSize");
    pthread_mutex_lock(&lock);
    source *s = find(prog);
    if (s && s->real_arch && cubinSizeRet && make_ptx(s) == NVRTC_SUCCESS) {
        *cubinSizeRet = s->ptx_size;
        pthread_mutex_unlock(&lock);
        return NVRTC_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    return size ? size(prog, cubinSizeRet) : NVRTC_ERROR_INVALID_INPUT;
}

EXPORT nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
    nvrtcResult (*get)(nvrtcProgram, char *) = real("nvrtcGetCUBIN");
    pthread_mutex_lock(&lock);
    source *s = find(prog);
    if (s && s->real_arch && cubin && make_ptx(s) == NVRTC_SUCCESS) {
        memcpy(cubin, s->ptx, s->ptx_size);
        pthread_mutex_unlock(&lock);
        return NVRTC_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    return get ? get(prog, cubin) : NVRTC_ERROR_INVALID_INPUT;
}

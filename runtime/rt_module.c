/*
 * rt_module.c -- modules, kernels and variables: the fat binaries a program
 * registers before main() (crt/host_runtime.h documents the calls), and the
 * PTX or fat binaries the driver API loads (cuModuleLoad*).  Both go through
 * the same reader: fe_fatbin_ptx picks the PTX, fe_parse parses it and
 * exec_program_load lays it out, once per module, never per launch.
 */
#define _GNU_SOURCE
#include "rt_int.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- registration (host code, before main) ------------------------------- */

/* How many bytes are mapped from p to the end of the loaded ELF segment
 * that holds it: the most a fat binary at p may span.  The fat binary's
 * own sizes are untrusted. */
typedef struct { uintptr_t p; size_t avail; } seg_query;

static int seg_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    seg_query *q = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (q->p >= lo && q->p < hi) {
            q->avail = hi - q->p;
            return 1;
        }
    }
    return 0;
}

static size_t mapped_bytes_after(const void *p)
{
    seg_query q = { (uintptr_t)p, 0 };
    dl_iterate_phdr(seg_cb, &q);
    return q.avail;
}

/* Whether [p, p + n) is mapped memory: an image handed to the driver has no
 * length but its header's, which is read only once this says yes (msync
 * fails with ENOMEM on a range with unmapped pages). */
static bool mapped(const void *p, size_t n)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)p & ~(page - 1), hi = (uintptr_t)p + n;
    if (hi < lo)
        return false;
    return msync((void *)lo, hi - lo, MS_ASYNC) == 0;
}

/* Larger than any fat binary a toolkit writes; a header claiming more is
 * corrupt. */
#define FATBIN_IMAGE_MAX (4ull << 30)

/* A program built with -rdc=true registers one fat binary, the device
 * linker's, through a wrapper of version 2 whose last field is the
 * NULL-terminated list of the translation units' own fat binaries (what
 * crt/link.stub fills in before registering).  Only those hold the PTX;
 * remember each one that is mapped and has a sane header. */
#define PRELINK_WRAPPER_VERSION 2
#define PRELINK_MAX 65536

static void register_prelinked(rt_module *m, const uint8_t *wrapper)
{
    if (*(const uint32_t *)(wrapper + 4) != PRELINK_WRAPPER_VERSION)
        return;
    const uint8_t *const *list = *(const uint8_t *const *const *)(wrapper + 16);
    size_t avail = list ? mapped_bytes_after(list) : 0;
    uint32_t n = 0;
    while ((size_t)(n + 1) * sizeof *list <= avail && n < PRELINK_MAX && list[n])
        n++;
    if (!n)
        return;
    m->prelinked = calloc(n, sizeof *m->prelinked);
    m->prelinked_bytes = calloc(n, sizeof *m->prelinked_bytes);
    if (!m->prelinked || !m->prelinked_bytes) {
        free(m->prelinked);
        free(m->prelinked_bytes);
        m->prelinked = NULL;
        m->prelinked_bytes = NULL;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        size_t bytes, fb_avail = mapped_bytes_after(list[i]);
        if (fb_avail && fe_fatbin_size(list[i], fb_avail, &bytes, NULL) == PTX_OK) {
            m->prelinked[m->nprelinked] = list[i];
            m->prelinked_bytes[m->nprelinked++] = bytes;
        }
    }
}

rt_module *rt_module_register(const void *wrapper)
{
    rt_lock();
    rt_module *m = calloc(1, sizeof *m);
    if (!m || !rt_grow((void ***)&rt.mods, &rt.capmods, rt.nmods)) {
        rt_unlock();
        rt_say("out of memory registering a fat binary");
        free(m);
        return NULL;
    }
    m->magic = RT_MAGIC_MODULE;
    m->registered = true;
    /* The wrapper: u32 magic, u32 version, u64 pointer to the fat binary. */
    size_t wavail = wrapper ? mapped_bytes_after(wrapper) : 0;
    if (wavail >= 16 && *(const uint32_t *)wrapper == FE_FATBIN_WRAPPER_MAGIC) {
        const uint8_t *data = *(const uint8_t *const *)((const uint8_t *)wrapper + 8);
        size_t avail = data ? mapped_bytes_after(data) : 0;
        size_t bytes = 0;
        if (avail && fe_fatbin_size(data, avail, &bytes, NULL) == PTX_OK) {
            m->fatbin = data;
            m->fatbin_bytes = bytes;
        } else if (avail) {
            m->fatbin = data;           /* let loading report exactly what is wrong */
            m->fatbin_bytes = avail;
        }
    }
    if (wavail >= 24 && *(const uint32_t *)wrapper == FE_FATBIN_WRAPPER_MAGIC)
        register_prelinked(m, wrapper);
    snprintf(m->name, sizeof m->name, "fatbin@%p.ptx", (const void *)m->fatbin);
    rt.mods[rt.nmods++] = m;
    rt_unlock();
    return m;
}

static cudaError_t load_locked(rt_module *m);

/* Point every __managed__ variable of m at its device storage: host code
 * reads the variable through that pointer. */
static void bind_managed_locked(rt_module *m)
{
    for (uint32_t i = 0; i < rt.vars.cap; i++) {
        rt_var *v = rt_ptrmap_slot(&rt.vars, i);
        uint64_t addr, bytes;
        if (v && v->mod == m && v->managed_ptr && m->prog &&
            exec_program_symbol(m->prog, v->name, &addr, &bytes))
            *v->managed_ptr = (void *)(uintptr_t)addr;
    }
}

void rt_module_register_end(rt_module *m)
{
    /* clang's host code reads __managed__ variables without calling
     * __cudaInitModule, so their pointers must be set before main(). */
    if (!m)
        return;
    rt_lock();
    if (m->has_managed && load_locked(m) == cudaSuccess)
        bind_managed_locked(m);
    rt_unlock();
}

bool rt_module_init(rt_module *m)
{
    if (!m)
        return false;
    rt_lock();
    cudaError_t e = load_locked(m);
    if (e == cudaSuccess)
        bind_managed_locked(m);
    rt_unlock();
    return e == cudaSuccess;
}

static rt_func *new_func(rt_module *m, const char *name, const void *host_fn)
{
    rt_func *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->magic = RT_MAGIC_FUNC;
    f->mod = m;
    f->name = name;
    f->host_fn = host_fn;
    f->index = -1;
    f->max_dynamic_shared = -1;
    f->carveout = -1;
    memset(f->req_cluster, 0, sizeof f->req_cluster);
    f->nonportable_cluster = 0;
    f->cluster_policy = 0;
    if (!rt_ptrmap_put(&rt.funcs, f, f)) {
        free(f);
        return NULL;
    }
    return f;
}

void rt_func_register(rt_module *m, const void *host_fn, const char *name)
{
    rt_lock();
    rt_func *f = m ? new_func(m, name, host_fn) : NULL;
    if (!f || !rt_ptrmap_put(&rt.funcs_by_host, host_fn, f))
        rt_say("cannot register kernel %s", name);
    rt_unlock();
}

void rt_var_register(rt_module *m, const void *host_var, const char *name, size_t bytes,
                     void **managed_ptr)
{
    rt_lock();
    rt_var *v = calloc(1, sizeof *v);
    if (v && m) {
        *v = (rt_var){ host_var, name, m, bytes, managed_ptr };
        if (managed_ptr)
            m->has_managed = true;
    }
    if (!v || !m || !rt_ptrmap_put(&rt.vars, host_var, v)) {
        free(v);
        rt_say("cannot register variable %s", name);
    }
    rt_unlock();
}

/* ---- loading ------------------------------------------------------------- */

/* What the loads on this thread found wrong since the last began: the
 * driver's JIT error log (CU_JIT_ERROR_LOG_BUFFER) for the load that
 * failed. */
static _Thread_local char load_log[2048];
static _Thread_local size_t load_log_len;

static void log_line(const char *line)
{
    int n = snprintf(load_log + load_log_len, sizeof load_log - load_log_len, "%s%s", load_log_len ? "\n" : "",
                     line);
    if (n > 0)
        load_log_len = load_log_len + (size_t)n < sizeof load_log ? load_log_len + (size_t)n : sizeof load_log - 1;
}

static void log_reset(void)
{
    load_log_len = 0;
    load_log[0] = 0;
}

const char *rt_module_load_log(void)
{
    return load_log;
}

/* Print every parse error, not only the first. */
static void print_diag(void *ctx, const ptx_diag *d)
{
    (void)ctx;
    char line[400];
    snprintf(line, sizeof line, "%s:%u:%u: %s", d->file ? d->file : "<ptx>", d->line, d->col, d->msg);
    rt_say("%s", line);
    log_line(line);
}

static cudaError_t fail_load(rt_module *m, cudaError_t e, const char *msg)
{
    m->load_error = e;
    free(m->load_message);
    m->load_message = strdup(msg);
    rt_say("%s", msg);
    log_line(msg);
    return e;
}

/* Whether a library's modules without PTX have been reported: once for
 * each library, whose every such load fails the same way (cuBLASLt tries
 * a dozen machine-code-only images for one GEMM). */
static bool loader_told(const char *loader)
{
    static char told[16][48];
    static unsigned ntold;
    for (unsigned i = 0; i < ntold; i++)
        if (strcmp(told[i], loader) == 0)
            return true;
    if (ntold < sizeof told / sizeof told[0])
        snprintf(told[ntold++], sizeof told[0], "%s", loader);
    return false;
}

/* A library's image holds machine code only: what it was, said once. */
static cudaError_t no_ptx_from_library(rt_module *m, const char *what)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s loaded %s with machine code only and no PTX, and ptxsim runs PTX: those of "
             "its functions that need it fail (CUDA_ERROR_NO_BINARY_FOR_GPU); said once for %s", m->loader,
             what, m->loader);
    m->load_error = cudaErrorNoKernelImageForDevice;
    free(m->load_message);
    m->load_message = strdup(msg);
    if (!loader_told(m->loader))
        rt_say("%s", msg);
    log_line(msg);
    return m->load_error;
}

static cudaError_t finish_load(rt_module *m);

/* -rdc=true: each translation unit's PTX, linked into one module. */
static cudaError_t load_prelinked(rt_module *m)
{
    char (*names)[48] = calloc(m->nprelinked, sizeof *names);
    const char **np = calloc(m->nprelinked, sizeof *np);
    if (!names || !np) {
        free(names);
        free(np);
        return fail_load(m, cudaErrorMemoryAllocation, "out of memory loading a module");
    }
    for (uint32_t i = 0; i < m->nprelinked; i++) {
        snprintf(names[i], sizeof names[i], "fatbin@%p.ptx", (const void *)m->prelinked[i]);
        np[i] = names[i];
    }
    ptx_diag pd = { .sink = print_diag };
    m->ir = fe_link_fatbins(m->prelinked, m->prelinked_bytes, np, m->nprelinked, rt.cfg.sm, m->name, &pd);
    free(names);
    free(np);
    if (!m->ir) {
        char msg[400];
        snprintf(msg, sizeof msg, "the PTX of the %u translation units linked into %s could not be loaded "
                 "(%u problem%s above)", m->nprelinked, m->name, pd.count, pd.count == 1 ? "" : "s");
        return fail_load(m, pd.st == PTX_E_NO_PTX ? cudaErrorNoKernelImageForDevice : rt_error_of(pd.st), msg);
    }
    return finish_load(m);
}

/* Whether a GPU's JIT compiler would take PTX text loaded as such (by
 * cuModuleLoadData, NVRTC's output, a .ptx file): it must say which PTX it
 * is, and be for the device or an older one -- an sm_90a or sm_100f
 * target for that very architecture or family.  (A fat binary's PTX is
 * picked by compute capability before this.)  If not, why, in why. */
static bool jit_would_compile(const isa_module *ir, char *why, size_t n)
{
    unsigned sm = rt.cfg.sm;
    if (!ir->version) {
        snprintf(why, n, "%s has no .version directive: it is not PTX", ir->source_name);
        return false;
    }
    bool newer = ir->sm > sm;
    if (ir->sm_suffix == 'a')
        newer = ir->sm != sm;
    else if (ir->sm_suffix == 'f')
        newer = ir->sm > sm || ir->sm / 10 != sm / 10;
    if (newer) {
        snprintf(why, n, "%s is PTX for sm_%u%s, which a device of compute capability %u.%u (sm_%u) cannot run: "
                 "compile it for sm_%u or older, or simulate that device with --sm %u", ir->source_name, ir->sm,
                 ir->sm_suffix == 'a' ? "a" : ir->sm_suffix == 'f' ? "f" : "", sm / 10, sm % 10, sm, sm, ir->sm);
        return false;
    }
    return true;
}

/* What a module's fat binary is, in messages. */
static const char *whose_fatbin(const rt_module *m)
{
    return m->registered ? "the program's fat binary" : "the fat binary image the program loaded";
}

static cudaError_t load_locked(rt_module *m)
{
    if (m->tried)
        return m->load_error;
    m->tried = true;
    log_reset();
    if (!rt.mem)
        return fail_load(m, cudaErrorMemoryAllocation, "no device memory could be reserved");
    char *text = m->ptx;
    size_t len = m->ptx_len;
    if (!text && m->nprelinked) {
        if (!m->fatbin || fe_fatbin_ptx(m->fatbin, m->fatbin_bytes, rt.cfg.sm, &text, &len, NULL) != PTX_OK)
            return load_prelinked(m);
        /* The device-linked fat binary carries PTX of its own: the whole
         * program's, so that is what runs. */
    }
    if (!text) {
        if (!m->fatbin)
            return fail_load(m, cudaErrorInvalidKernelImage,
                             "the program registered something that is not a CUDA fat binary "
                             "(bad wrapper magic); the binary is corrupt");
        ptx_diag d = {0};
        ptx_status st = fe_fatbin_ptx(m->fatbin, m->fatbin_bytes, rt.cfg.sm, &text, &len, &d);
        if (st == PTX_E_NO_PTX && m->loader[0])
            return no_ptx_from_library(m, "a fat binary");
        if (st == PTX_E_NO_PTX)
            return fail_load(m, cudaErrorNoKernelImageForDevice,
                             m->registered ? "the program's fat binary holds no PTX, and ptxsim runs PTX: "
                             "rebuild it with PTX included (clang: --cuda-include-ptx=sm_75; nvcc: "
                             "-gencode arch=compute_75,code=compute_75)"
                             : "the fat binary image the program loaded holds no PTX, and ptxsim runs PTX: "
                             "load one with PTX included (nvcc -fatbin -gencode arch=compute_75,code=compute_75)");
        if (st != PTX_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "cannot read %s: %s", whose_fatbin(m), d.msg);
            return fail_load(m, rt_error_of(st), msg);
        }
        /* Code only for architectures newer than the device: a GPU of its
         * compute capability has no kernel image to run either.  (Where
         * there is machine code for the device, or older, a GPU runs that,
         * and ptxsim the nearest PTX, newer or not.) */
        uint32_t arch = fe_fatbin_oldest_arch(m->fatbin, m->fatbin_bytes);
        if (arch > rt.cfg.sm) {
            free(text);
            char msg[400];
            snprintf(msg, sizeof msg, "the program's code is all for sm_%u and newer, and the simulated device "
                     "is sm_%u (compute capability %u.%u), which cannot run it, as a GPU of that capability "
                     "cannot: simulate a newer device with --sm %u, or build for an older one", arch,
                     rt.cfg.sm, rt.cfg.sm / 10, rt.cfg.sm % 10, arch);
            return fail_load(m, cudaErrorNoKernelImageForDevice, msg);
        }
    }
    ptx_diag pd = { .sink = print_diag };
    m->ir = fe_parse(text, len, m->name, &pd);
    if (text != m->ptx)
        free(text);
    if (!m->ir) {
        char msg[400];
        snprintf(msg, sizeof msg, "the PTX of %s could not be loaded (%u problem%s above)", m->name,
                 pd.count, pd.count == 1 ? "" : "s");
        return fail_load(m, rt_error_of(pd.st), msg);
    }
    char why[400];
    if (m->ptx && !m->registered && !jit_would_compile(m->ir, why, sizeof why))
        return fail_load(m, cudaErrorInvalidPtx, why);
    return finish_load(m);
}

/* Lay the parsed module out in device memory. */
static cudaError_t finish_load(rt_module *m)
{
    ptx_diag ld = { .sink = print_diag };
    ptx_status st = exec_program_load(rt.mem, m->ir, &m->prog, &ld);
    if (st != PTX_OK) {
        char msg[400];
        snprintf(msg, sizeof msg, "the PTX of %s could not be laid out in device memory", m->name);
        return fail_load(m, rt_error_of(st), msg);
    }
    uint32_t n = 0;
    while (exec_program_kernel_info(m->prog, (int)n))
        n++;
    m->funcs = calloc(n ? n : 1, sizeof *m->funcs);
    if (!m->funcs)
        return fail_load(m, cudaErrorMemoryAllocation, "out of memory loading a module");
    m->nfuncs = n;
    m->load_error = cudaSuccess;
    return cudaSuccess;
}

static cudaError_t new_driver_module(rt_module **out, const char *name)
{
    rt_module *m = calloc(1, sizeof *m);
    if (!m)
        return cudaErrorMemoryAllocation;
    m->magic = RT_MAGIC_MODULE;
    snprintf(m->name, sizeof m->name, "%s", name);
    *out = m;
    return cudaSuccess;
}

static void free_module(rt_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (!m->funcs[i])
            continue;
        rt_ptrmap_del(&rt.funcs, m->funcs[i]);
        m->funcs[i]->magic = 0;
        free(m->funcs[i]->pretty);
        free(m->funcs[i]);
    }
    free(m->funcs);
    if (m->prog)
        exec_program_free(m->prog);
    if (m->ir)
        isa_module_free(m->ir);
    free(m->ptx);
    free(m->load_message);
    free(m->prelinked);
    free(m->prelinked_bytes);
    m->magic = 0;
    free(m);
}

/* Load a driver module now, as CUDA JIT-compiles at cuModuleLoad. */
static cudaError_t finish_driver_load(rt_module *m, rt_module **out)
{
    rt_lock();
    cudaError_t e = load_locked(m);
    if (e == cudaSuccess && !rt_ptrmap_put(&rt.modules, m, m))
        e = cudaErrorMemoryAllocation;
    if (e != cudaSuccess)
        free_module(m);
    else
        *out = m;
    rt_unlock();
    return e;
}

const char *rt_code_file(const void *pc, bool *is_program)
{
    Dl_info at;
    *is_program = false;
    if (!pc || !dladdr(pc, &at) || !at.dli_fname || !at.dli_fname[0])
        return "?";
    /* The program is the object the main link map starts with. */
    struct link_map *first = _r_debug.r_map;
    *is_program = first && (void *)first->l_addr == at.dli_fbase;
    if (!*is_program) {
        char self[512], code[512];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n > 0 && realpath(at.dli_fname, code)) {
            self[n] = '\0';
            *is_program = strcmp(self, code) == 0;
        }
    }
    const char *slash = strrchr(at.dli_fname, '/');
    return slash ? slash + 1 : at.dli_fname;
}

cudaError_t rt_module_load_image(const void *image, const void *caller, rt_module **out)
{
    log_reset();
    if (!image || !out)
        return cudaErrorInvalidValue;
    const uint8_t *p = image;
    const uint8_t *wrapper = NULL;
    uint32_t magic;
    if (!mapped(p, 16))
        return cudaErrorInvalidValue;
    memcpy(&magic, p, 4);
    if (magic == FE_FATBIN_WRAPPER_MAGIC) {
        wrapper = p;
        p = *(const uint8_t *const *)(p + 8);
        if (!p || !mapped(p, 16)) {
            rt_say("the fat binary wrapper the program loaded points at unmapped memory");
            return cudaErrorInvalidKernelImage;
        }
        memcpy(&magic, p, 4);
    }
    rt_module *m;
    char name[64];
    snprintf(name, sizeof name, "module@%p.ptx", image);
    cudaError_t e = new_driver_module(&m, name);
    if (e != cudaSuccess)
        return e;
    bool is_program;
    const char *who = rt_code_file(caller, &is_program);
    if (!is_program && strcmp(who, "?") != 0 && strncmp(who, "libcuda", 7) != 0)
        snprintf(m->loader, sizeof m->loader, "%s", who);
    if (magic == FE_FATBIN_MAGIC) {
        /* The caller vouches for the image: its header gives its size
         * (u16 header size at 6, u64 payload size at 8). */
        uint16_t hdr;
        uint64_t body;
        memcpy(&hdr, p + 6, 2);
        memcpy(&body, p + 8, 8);
        size_t bytes = (size_t)hdr + (size_t)body;
        ptx_diag d = {0};
        if (body > FATBIN_IMAGE_MAX || !mapped(p, bytes) || fe_fatbin_size(p, bytes, &bytes, &d) != PTX_OK) {
            free_module(m);
            if (!d.msg[0])
                snprintf(d.msg, sizeof d.msg, "its header gives it %llu bytes, and %s", (unsigned long long)body,
                         body > FATBIN_IMAGE_MAX ? "no fat binary is that large" : "they are not all mapped");
            rt_say("the fat binary image the program loaded is corrupt: %s", d.msg);
            return cudaErrorInvalidKernelImage;
        }
        m->fatbin = p;
        m->fatbin_bytes = bytes;
        /* NVIDIA's static runtime loads the program's own fat binaries
         * through cuLibraryLoadData with their wrapper: an -rdc=true
         * program's lists the translation units' fat binaries. */
        if (wrapper && mapped_bytes_after(wrapper) >= 24)
            register_prelinked(m, wrapper);
    } else if (magic == 0x464C457Fu) {      /* "\177ELF": a cubin */
        if (m->loader[0]) {
            rt_lock();
            e = no_ptx_from_library(m, "a cubin");
            free_module(m);
            rt_unlock();
            return e;
        }
        free_module(m);
        rt_say("cannot load a cubin: ptxsim runs PTX; load the PTX instead (nvrtcGetPTX, "
               "cuda.core's Program.compile(\"ptx\"), nvcc -ptx / -fatbin with PTX included; under "
               "`ptxsim run`, nvrtcGetCUBIN gives PTX to a program linked to libnvrtc)");
        return cudaErrorNoKernelImageForDevice;
    } else {
        size_t len = strlen((const char *)p);
        m->ptx = malloc(len + 1);
        if (!m->ptx) {
            free_module(m);
            return cudaErrorMemoryAllocation;
        }
        memcpy(m->ptx, p, len + 1);
        m->ptx_len = len;
    }
    return finish_driver_load(m, out);
}

cudaError_t rt_module_load_file(const char *path, rt_module **out)
{
    if (!path || !out)
        return cudaErrorInvalidValue;
    size_t n;
    char *buf = ptx_read_file(path, &n);
    if (!buf) {
        if (errno == ENOMEM)
            return cudaErrorMemoryAllocation;
        rt_say("cannot open module '%s': %s", path, strerror(errno));
        return cudaErrorFileNotFound;
    }
    rt_module *m;
    cudaError_t e;
    uint32_t magic = 0;
    if (n >= 4)
        memcpy(&magic, buf, 4);
    if (magic == FE_FATBIN_MAGIC) {
        /* The file's bytes are the image: keep them as the module's. */
        if ((e = new_driver_module(&m, path)) != cudaSuccess) {
            free(buf);
            return e;
        }
        m->ptx = NULL;
        m->fatbin = (const uint8_t *)buf;
        m->fatbin_bytes = n;
        rt_lock();
        e = load_locked(m);
        rt_unlock();
        /* The PTX has been copied into the module IR; the file is done. */
        m->fatbin = NULL;
        free(buf);
        if (e != cudaSuccess) {
            rt_lock();
            free_module(m);
            rt_unlock();
            return e;
        }
        rt_lock();
        rt_ptrmap_put(&rt.modules, m, m);
        *out = m;
        rt_unlock();
        return cudaSuccess;
    }
    if (!fe_is_ptx_text(buf, n, &n) || magic == 0x464C457Fu) {
        free(buf);
        rt_say("cannot load '%s': ptxsim loads PTX text or fat binaries holding PTX", path);
        return cudaErrorNoKernelImageForDevice;
    }
    if ((e = new_driver_module(&m, path)) != cudaSuccess) {
        free(buf);
        return e;
    }
    m->ptx = buf;
    m->ptx_len = n;
    return finish_driver_load(m, out);
}

bool rt_module_valid(const rt_module *m)
{
    rt_lock();
    bool ok = m && rt_ptrmap_get(&rt.modules, m) != NULL;
    rt_unlock();
    return ok;
}

cudaError_t rt_module_unload(rt_module *m)
{
    rt_lock();
    cudaError_t e = cudaErrorInvalidResourceHandle;
    if (m && rt_ptrmap_get(&rt.modules, m)) {
        rt_ptrmap_del(&rt.modules, m);
        free_module(m);
        e = cudaSuccess;
    }
    rt_unlock();
    return e;
}

rt_func *rt_module_kernel(rt_module *m, int k)
{
    if (k < 0 || (uint32_t)k >= m->nfuncs)
        return NULL;
    if (!m->funcs[k]) {
        const char *own = exec_program_kernel_info(m->prog, k)->name;
        m->funcs[k] = new_func(m, own, NULL);
        if (m->funcs[k])
            m->funcs[k]->index = k;
    }
    return m->funcs[k];
}

cudaError_t rt_module_function(rt_module *m, const char *name, rt_func **out)
{
    RT_ASYNC_ENTRY();      /* a lookup in a loaded module: bookkeeping */
    if (!name || !out)
        return cudaErrorInvalidValue;
    rt_lock();
    cudaError_t e = cudaErrorInvalidResourceHandle;
    if (m && rt_ptrmap_get(&rt.modules, m)) {
        int k = exec_program_kernel(m->prog, name);
        e = cudaErrorSymbolNotFound;
        if (k >= 0 && (uint32_t)k < m->nfuncs) {
            rt_func *f = rt_module_kernel(m, k);
            e = f ? cudaSuccess : cudaErrorMemoryAllocation;
            if (f)
                *out = f;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_module_global(rt_module *m, const char *name, uint64_t *addr, size_t *bytes)
{
    RT_ASYNC_ENTRY();      /* a lookup in a loaded module: bookkeeping */
    if (!name)
        return cudaErrorInvalidValue;
    rt_lock();
    cudaError_t e = cudaErrorInvalidResourceHandle;
    uint64_t a = 0, b = 0;
    if (m && rt_ptrmap_get(&rt.modules, m))
        e = exec_program_symbol(m->prog, name, &a, &b) ? cudaSuccess : cudaErrorSymbolNotFound;
    rt_unlock();
    if (e == cudaSuccess) {
        if (addr)
            *addr = a;
        if (bytes)
            *bytes = (size_t)b;
    }
    return e;
}

/* ---- kernels and variables by host address ----------------------------------- */

rt_func *rt_func_lookup(const void *fn_or_handle)
{
    RT_ASYNC_ENTRY();      /* a lookup in a loaded module: bookkeeping */
    rt_lock();
    rt_func *f = rt_ptrmap_get(&rt.funcs, fn_or_handle);
    if (!f)
        f = rt_ptrmap_get(&rt.funcs_by_host, fn_or_handle);
    rt_unlock();
    return f;
}

cudaError_t rt_func_resolve(rt_func *f)
{
    if (f->index >= 0)
        return cudaSuccess;
    /* Loading a module places its variables in device memory: it waits
     * for the device even in a call that queues work (a first launch).
     * A kernel of a module loaded already is only looked up: a kernel of
     * the module may be running, waiting for this one (rt_queue.c). */
    rt_lock();
    bool tried = f->mod->tried;
    rt_unlock();
    if (!tried)
        rt_queue_wait(UINT64_MAX);
    rt_lock();
    cudaError_t e = load_locked(f->mod);
    if (e == cudaSuccess && f->index < 0) {
        f->index = exec_program_kernel(f->mod->prog, f->name);
        if (f->index < 0) {
            rt_say("kernel '%s' is registered by the program but its PTX does not define it", f->name);
            e = cudaErrorInvalidDeviceFunction;
        }
    }
    /* The timing model places blocks by the registers they really use. */
    if (e == cudaSuccess && rt.cfg.timing)
        rt_module_machine_regs(f->mod);
    rt_unlock();
    return e;
}

const char *rt_func_pretty(rt_func *f)
{
    if (!f->pretty) {
        char buf[1024];
        f->pretty = strdup(rt_demangle(f->name, buf, sizeof buf));
    }
    return f->pretty ? f->pretty : f->name;
}

cudaError_t rt_symbol_address(const void *host_var, uint64_t *addr, size_t *bytes)
{
    rt_lock();
    rt_var *v = rt_ptrmap_get(&rt.vars, host_var);
    cudaError_t e = cudaErrorInvalidSymbol;
    uint64_t a = 0, b = 0;
    if (v) {
        e = load_locked(v->mod);
        if (e == cudaSuccess && !exec_program_symbol(v->mod->prog, v->name, &a, &b))
            e = cudaErrorInvalidSymbol;
    }
    rt_unlock();
    if (e == cudaSuccess) {
        *addr = a;
        *bytes = (size_t)b;
    }
    return e;
}

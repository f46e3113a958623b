/*
 * rt_register.c -- the entry points compiler-generated host code calls
 * before main(): fat binary, function and variable registration
 * (crt/host_runtime.h documents them), and loading a module's PTX the first
 * time one of its kernels or symbols is used.
 */
#define _GNU_SOURCE
#include "rt_int.h"

#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool grow_array(void ***arr, uint32_t *cap, uint32_t n)
{
    if (n < *cap)
        return true;
    uint32_t nc = *cap ? *cap * 2 : 16;
    void **a = realloc(*arr, nc * sizeof *a);
    if (!a)
        return false;
    *arr = a;
    *cap = nc;
    return true;
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
    rt_lock();
    rt_module *m = calloc(1, sizeof *m);
    if (!m || !grow_array((void ***)&rt.mods, &rt.capmods, rt.nmods)) {
        rt_unlock();
        rt_say("out of memory registering a fat binary");
        free(m);
        return NULL;
    }
    m->wrapper = fatCubin;
    /* The wrapper: u32 magic, u32 version, u64 pointer to the fat binary. */
    size_t wavail = fatCubin ? mapped_bytes_after(fatCubin) : 0;
    if (wavail >= 16 && *(const uint32_t *)fatCubin == FE_FATBIN_WRAPPER_MAGIC) {
        const uint8_t *data = *(const uint8_t *const *)((const uint8_t *)fatCubin + 8);
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
    rt.mods[rt.nmods++] = m;
    rt_unlock();
    /* The handle is a pointer to our record; host code only passes it back. */
    return (void **)m;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) { (void)fatCubinHandle; }

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    /* Modules stay loaded until the process ends: kernels registered from
     * other modules may still be launched by destructors. */
    (void)fatCubinHandle;
}

char __cudaInitModule(void **fatCubinHandle)
{
    (void)fatCubinHandle;
    return 1;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun; (void)thread_limit; (void)tid; (void)bid; (void)bDim; (void)gDim; (void)wSize;
    rt_lock();
    rt_kernel *k = calloc(1, sizeof *k);
    if (k && grow_array((void ***)&rt.kernels, &rt.capkernels, rt.nkernels)) {
        k->host_fn = hostFun;
        k->name = deviceName;
        k->mod = (rt_module *)fatCubinHandle;
        k->index = -1;
        rt.kernels[rt.nkernels++] = k;
    } else {
        free(k);
        rt_say("out of memory registering kernel %s", deviceName);
    }
    rt_unlock();
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    rt_lock();
    rt_symbol *s = calloc(1, sizeof *s);
    if (s && grow_array((void ***)&rt.symbols, &rt.capsymbols, rt.nsymbols)) {
        s->host_var = hostVar;
        s->name = deviceName;
        s->mod = (rt_module *)fatCubinHandle;
        s->bytes = size;
        rt.symbols[rt.nsymbols++] = s;
    } else {
        free(s);
        rt_say("out of memory registering variable %s", deviceName);
    }
    rt_unlock();
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    __cudaRegisterVar(fatCubinHandle, (char *)hostVarPtrAddress, deviceAddress, deviceName, ext,
                      size, constant, global);
}

/* Print every parse error, not only the first. */
static void print_diag(void *ctx, const ptx_diag *d)
{
    (void)ctx;
    rt_say("%s:%u:%u: %s", d->file ? d->file : "<ptx>", d->line, d->col, d->msg);
}

static cudaError_t fail_load(rt_module *m, cudaError_t e, const char *msg)
{
    m->load_error = e;
    free(m->load_message);
    m->load_message = strdup(msg);
    rt_say("%s", msg);
    return e;
}

cudaError_t rt_module_load(rt_module *m)
{
    if (m->tried)
        return m->load_error;
    m->tried = true;
    if (!rt.mem)
        return fail_load(m, cudaErrorMemoryAllocation, "no device memory could be reserved");
    if (!m->fatbin)
        return fail_load(m, cudaErrorInvalidKernelImage,
                         "the program registered something that is not a CUDA fat binary "
                         "(bad wrapper magic); the binary is corrupt");
    ptx_diag d = {0};
    char *text = NULL;
    size_t len = 0;
    ptx_status st = fe_fatbin_ptx(m->fatbin, m->fatbin_bytes, rt.cfg.sm, &text, &len, &d);
    if (st == PTX_E_NO_PTX)
        return fail_load(m, cudaErrorNoKernelImageForDevice,
                         "the program's fat binary holds no PTX, and ptxsim runs PTX: rebuild it "
                         "with PTX included (clang: --cuda-include-ptx=sm_75; nvcc: "
                         "-gencode arch=compute_75,code=compute_75)");
    if (st != PTX_OK) {
        char msg[400];
        snprintf(msg, sizeof msg, "cannot read the program's fat binary: %s", d.msg);
        return fail_load(m, rt_error_of(st), msg);
    }
    char name[64];
    snprintf(name, sizeof name, "fatbin@%p.ptx", (const void *)m->fatbin);
    ptx_diag pd = { .sink = print_diag };
    m->ir = fe_parse(text, len, name, &pd);
    free(text);
    if (!m->ir) {
        char msg[400];
        snprintf(msg, sizeof msg, "the program's PTX could not be loaded (%u problem%s above)",
                 pd.count, pd.count == 1 ? "" : "s");
        return fail_load(m, rt_error_of(pd.st), msg);
    }
    ptx_diag ld = { .sink = print_diag };
    st = exec_program_load(rt.mem, m->ir, &m->prog, &ld);
    if (st != PTX_OK) {
        char msg[400];
        snprintf(msg, sizeof msg, "the program's PTX could not be laid out in device memory");
        return fail_load(m, rt_error_of(st), msg);
    }
    m->load_error = cudaSuccess;
    return cudaSuccess;
}

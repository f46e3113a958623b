/*
 * conf_engine.c -- the conformance generator's engine: ptxsim itself.  A
 * kernel goes through the same parser and engine as any program's PTX, so
 * a form the parser refuses is a form ptxsim does not accept.  Device
 * memory is ptxsim's, so the input and output buffers are the device's
 * own (no copies).  conf_engine_cuda.c is the same interface over a CUDA
 * driver.
 */
#include "conf.h"

#include "exec.h"
#include "frontend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *conf_engine_name(void) { return "ptxsim"; }
bool conf_engine_reconverges(void) { return true; }
bool conf_engine_in_order(void) { return true; }

struct conf_engine {
    exec_memory *mem;
    uint64_t *in, *out;     /* device buffers: CONF_IN_COLS and CONF_OUT_COLS columns */
};

conf_engine *conf_engine_new(void)
{
    conf_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->mem = exec_memory_new(1ull << 28);
    uint64_t a = 0, b = 0;
    _Static_assert(CONF_IN_COLS >= CONF_MAX_SRC + 1 && CONF_OUT_COLS >= CONF_MAX_DST, "buffer columns");
    if (!e->mem || exec_malloc(e->mem, CONF_IN_COLS * CONF_MAX_LANES * 8ull, 256, &a) != PTX_OK ||
        exec_malloc(e->mem, CONF_OUT_COLS * CONF_MAX_LANES * 8ull, 256, &b) != PTX_OK) {
        conf_engine_free(e);
        return NULL;
    }
    e->in = (uint64_t *)(uintptr_t)a;
    e->out = (uint64_t *)(uintptr_t)b;
    return e;
}

void conf_engine_free(conf_engine *e)
{
    if (!e)
        return;
    if (e->mem)
        exec_memory_free(e->mem);
    free(e);
}

uint64_t *conf_engine_in(conf_engine *e) { return e->in; }
uint64_t *conf_engine_out(conf_engine *e) { return e->out; }

conf_outcome conf_engine_image(conf_engine *e, const isa_image *img, uint64_t *handle, char *msg, size_t n)
{
    if (exec_image_create(e->mem, img, handle) != PTX_OK) {
        snprintf(msg, n, "cannot create the image");
        return CONF_ERROR;
    }
    return CONF_RAN;
}

void conf_engine_image_free(conf_engine *e, uint64_t handle)
{
    exec_image_destroy(e->mem, handle);
}

conf_outcome conf_engine_launch(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                                unsigned cluster, char *msg, size_t n)
{
    ptx_diag diag = {0};
    isa_module *m = fe_parse(ptx, len, "conformance.ptx", &diag);
    if (!m) {
        snprintf(msg, n, "%s", diag.msg);
        return CONF_PARSE_REFUSED;
    }
    exec_program *p = NULL;
    conf_outcome oc = CONF_RAN;
    if (exec_program_load(e->mem, m, &p, &diag) != PTX_OK) {
        snprintf(msg, n, "%s", diag.msg);
        isa_module_free(m);
        return CONF_PARSE_REFUSED;
    }
    int k = exec_program_kernel(p, "conf");
    const exec_kernel_info *ki = exec_program_kernel_info(p, k);
    uint8_t params[16] = {0};
    uint64_t args[2] = { (uint64_t)(uintptr_t)e->in, (uint64_t)(uintptr_t)e->out };
    for (unsigned i = 0; i < 2 && i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, &args[i], 8);
    exec_launch l = { .grid = { lanes / block, 1, 1 }, .block = { block, 1, 1 }, .args = params, .nsm = 1,
                      .cluster = { cluster, cluster ? 1 : 0, cluster ? 1 : 0 } };
    /* PTXSIM_ENGINE=jit: forms through the compiled tier, compiled before
     * they run, which must then have been used -- every form, or with
     * PTXSIM_CONF_JIT_STRIDE=N every Nth launch (a compile costs about
     * 0.1 s, so a whole family takes minutes; the others interpret). */
    static unsigned launches;
    const char *engine = getenv("PTXSIM_ENGINE"), *stride = getenv("PTXSIM_CONF_JIT_STRIDE");
    unsigned every = stride ? (unsigned)strtoul(stride, NULL, 0) : 1;
    if (engine && strcmp(engine, "jit") == 0 && launches++ % (every ? every : 1) == 0)
        l.engine = EXEC_ENGINE_JIT;
    exec_stats stats = {0};
    exec_error err = {0};
    ptx_status st = exec_launch_run(p, k, &l, &stats, &err);
    exec_jit_summary js;
    if (l.engine == EXEC_ENGINE_JIT && exec_program_engine(p, &js) && js.why) {
        snprintf(msg, n, "the compiled tier is unavailable: %s", js.why);
        oc = CONF_ERROR;
    } else if (st == PTX_E_UNSUPPORTED) {
        snprintf(msg, n, "%s", err.msg);
        oc = CONF_RUN_REFUSED;
    } else if (st != PTX_OK) {
        snprintf(msg, n, "%s: %s", ptx_status_name(st), err.msg);
        oc = CONF_ERROR;
    }
    exec_program_free(p);
    isa_module_free(m);
    return oc;
}


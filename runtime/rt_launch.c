/*
 * rt_launch.c -- one kernel launch, for every way a program asks for one
 * (<<<>>> through nvcc's or clang's host stubs, cudaLaunchKernel(ExC),
 * cooperative launches, cuLaunchKernel): check the configuration against
 * the device's limits as CUDA does, lay the arguments out, run the grid, and
 * report it.
 *
 * A launch from the host is checked and laid out in the call, then queued
 * (rt_queue.c); the device thread runs it, holding the lock except while
 * the kernel runs, so the host can queue more behind it meanwhile.
 */
#include "rt_int.h"
#include "debug.h"
#include "timing.h"

#include <cuda.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A refused launch returns the error CUDA documents for it, and says once
 * per kernel and reason why: "invalid argument" alone does not tell a user
 * that, say, the timing preset's SM has less shared memory than the GPU
 * the program was written for. */
static cudaError_t refuse(rt_func *f, unsigned reason, cudaError_t code, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static cudaError_t refuse(rt_func *f, unsigned reason, cudaError_t code, const char *name, const char *fmt, ...)
{
    if (f->refusals_told & (1u << reason))
        return code;
    f->refusals_told |= 1u << reason;
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    rt_say("launch of %s refused (%s): %s", rt_func_pretty(f), name, why);
    return code;
}
#define REFUSE(reason, code, ...) refuse(f, reason, code, #code, __VA_ARGS__)

/* Why a configuration cannot run, as the error CUDA documents for it. */
static cudaError_t check_config(const rt_launch_req *r, rt_func *f, const exec_kernel_info *ki)
{
    const rt_device *d = &rt.cfg.dev;
    uint64_t threads = (uint64_t)r->block[0] * r->block[1] * r->block[2];
    for (int i = 0; i < 3; i++)
        if (!r->grid[i] || !r->block[i] || r->block[i] > (uint32_t)d->max_block[i] ||
            r->grid[i] > (uint32_t)d->max_grid[i])
            return REFUSE(0, cudaErrorInvalidConfiguration,
                          "grid (%u,%u,%u) block (%u,%u,%u): each at least 1, blocks at most (%d,%d,%d), "
                          "grids at most (%d,%d,%d)", r->grid[0], r->grid[1], r->grid[2], r->block[0],
                          r->block[1], r->block[2], d->max_block[0], d->max_block[1], d->max_block[2],
                          d->max_grid[0], d->max_grid[1], d->max_grid[2]);
    if (threads > (uint64_t)d->max_threads_block)
        return REFUSE(1, cudaErrorInvalidConfiguration, "%llu threads a block; the device allows %d",
                      (unsigned long long)threads, d->max_threads_block);
    /* More dynamic shared memory than the kernel may have (48 KB in all
     * without cudaFuncAttributeMaxDynamicSharedMemorySize): a GPU refuses
     * the launch as an invalid argument, cudaErrorInvalidValue
     * (CUDA_ERROR_INVALID_VALUE from cuLaunchKernel), not as a bad
     * configuration. */
    uint64_t dyn_limit = f->max_dynamic_shared >= 0 ? (uint64_t)f->max_dynamic_shared
                         : ki->static_shared < (uint32_t)d->shared_block ? d->shared_block - ki->static_shared : 0;
    if (r->shared > dyn_limit || ki->static_shared + r->shared > (uint64_t)d->shared_block_optin)
        return REFUSE(2, cudaErrorInvalidValue,
                      "%u bytes of static and %zu of dynamic shared memory; the kernel may have %llu "
                      "dynamic (cudaFuncAttributeMaxDynamicSharedMemorySize raises it) and a block at "
                      "most %d in all on this device", ki->static_shared, r->shared,
                      (unsigned long long)dyn_limit, d->shared_block_optin);
    /* __launch_bounds__ / .maxntid and .reqntid: the kernel was built for
     * at most (exactly) that many threads. */
    uint64_t maxntid = (uint64_t)(ki->maxntid[0] ? ki->maxntid[0] : 1) *
                       (ki->maxntid[1] ? ki->maxntid[1] : 1) * (ki->maxntid[2] ? ki->maxntid[2] : 1);
    if (ki->maxntid[0] && threads > maxntid)
        return REFUSE(3, cudaErrorLaunchOutOfResources, "%llu threads a block; __launch_bounds__ (.maxntid) "
                      "allows %llu", (unsigned long long)threads, (unsigned long long)maxntid);
    if (ki->reqntid[0] && (r->block[0] != ki->reqntid[0] ||
                           r->block[1] != (ki->reqntid[1] ? ki->reqntid[1] : 1) ||
                           r->block[2] != (ki->reqntid[2] ? ki->reqntid[2] : 1)))
        return REFUSE(4, cudaErrorInvalidValue, "block (%u,%u,%u); the kernel requires (.reqntid) exactly "
                      "(%u,%u,%u)", r->block[0], r->block[1], r->block[2], ki->reqntid[0],
                      ki->reqntid[1] ? ki->reqntid[1] : 1, ki->reqntid[2] ? ki->reqntid[2] : 1);
    if (r->cooperative) {
        /* Every block of a cooperative grid must be resident at once. */
        int per_sm = 0;
        rt_occupancy(f, (int)threads, r->shared, 0, &per_sm);
        uint64_t blocks = (uint64_t)r->grid[0] * r->grid[1] * r->grid[2];
        if (blocks > (uint64_t)per_sm * (uint64_t)d->sms)
            return REFUSE(5, cudaErrorCooperativeLaunchTooLarge, "a cooperative grid of %llu blocks; %d fit "
                          "on each of the %d SMs at once", (unsigned long long)blocks, per_sm, d->sms);
    }
    return cudaSuccess;
}

/* Lay the arguments out in params (param_bytes of them). */
static cudaError_t marshal(const rt_launch_req *r, const exec_kernel_info *ki, uint8_t *params)
{
    memset(params, 0, ki->param_bytes);
    if (r->args && r->extra)
        return cudaErrorInvalidValue;
    if (r->extra) {
        /* CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE pairs, ended by _END: the
         * buffer is laid out as the kernel's parameters are. */
        const void *buf = NULL;
        size_t size = 0;
        bool have_size = false;
        for (void **p = r->extra; *p != CU_LAUNCH_PARAM_END; p += 2) {
            if (*p == CU_LAUNCH_PARAM_BUFFER_POINTER)
                buf = p[1];
            else if (*p == CU_LAUNCH_PARAM_BUFFER_SIZE && p[1]) {
                size = *(const size_t *)p[1];
                have_size = true;
            } else
                return cudaErrorInvalidValue;
        }
        if (ki->param_bytes && (!buf || !have_size || size < ki->param_bytes))
            return cudaErrorInvalidValue;
        if (ki->param_bytes)
            memcpy(params, buf, ki->param_bytes);
        return cudaSuccess;
    }
    if (ki->nparams && !r->args)
        return cudaErrorInvalidValue;
    for (uint32_t i = 0; i < ki->nparams; i++) {
        if (!r->args[i])
            return cudaErrorInvalidValue;
        memcpy(params + ki->params[i].offset, r->args[i], ki->params[i].bytes);
    }
    return cudaSuccess;
}

/* Say what an engine report says, with every quoted mangled name in it
 * (the kernel's, a variable's) demangled: the report has the PTX names. */
static void say_report(const char *level, const char *text)
{
    char msg[sizeof ((exec_error *)0)->msg + 2048], name[1024], pretty[1024];
    size_t used = 0;
    for (const char *p = text; *p && used < sizeof msg - 1;) {
        const char *end = p[0] == '\'' && p[1] == '_' && p[2] == 'Z' ? strchr(p + 1, '\'') : NULL;
        if (end && (size_t)(end - p - 1) < sizeof name) {
            snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
            used += (size_t)snprintf(msg + used, sizeof msg - used, "'%s'",
                                     rt_demangle(name, pretty, sizeof pretty));
            p = end + 1;
        } else {
            msg[used++] = *p++;
        }
    }
    msg[used < sizeof msg ? used : sizeof msg - 1] = 0;
    rt_say("%s: %s", level, msg);
}

static void say_fault(ptx_status st, const exec_error *err)
{
    say_report("error", err->msg[0] ? err->msg : ptx_status_message(st));
}

/* The race check's hazards are warnings: compute-sanitizer's racecheck
 * does not fail the launch either.  `ptxsim run` fails at the end instead. */
static void say_race(void *ctx, const exec_race_report *r)
{
    (void)ctx;                  /* the runtime's state is global */
    rt.races++;
    say_report("warning", r->msg);
}

/* Describe the launch as a kernel node: params (laid out) become the
 * node's own copy. */
static cudaError_t make_op(const rt_launch_req *r, const exec_kernel_info *ki, uint8_t *params,
                           rt_graph_op *op)
{
    *op = (rt_graph_op){ .type = cudaGraphNodeTypeKernel };
    op->u.kernel.f = r->f;
    memcpy(op->u.kernel.grid, r->grid, sizeof r->grid);
    memcpy(op->u.kernel.block, r->block, sizeof r->block);
    op->u.kernel.shared = r->shared;
    memcpy(op->u.kernel.cluster, r->cluster, sizeof r->cluster);
    rt_attrs_init(&op->u.kernel.attrs);
    op->u.kernel.attrs.cooperative = r->cooperative;
    op->u.kernel.nargs = ki->nparams;
    op->u.kernel.params = malloc(ki->param_bytes ? ki->param_bytes : 1);
    op->u.kernel.argv = calloc(ki->nparams ? ki->nparams : 1, sizeof(void *));
    if (!op->u.kernel.params || !op->u.kernel.argv) {
        rt_graph_op_free(op);
        return cudaErrorMemoryAllocation;
    }
    memcpy(op->u.kernel.params, params, ki->param_bytes);
    for (uint32_t i = 0; i < ki->nparams; i++)
        op->u.kernel.argv[i] = op->u.kernel.params + ki->params[i].offset;
    return cudaSuccess;
}

/* The checks every launch makes before it runs; *ki and params (of
 * ki->param_bytes, from the caller's buffer or malloc'd: *heap) filled. */
static cudaError_t prepare(const rt_launch_req *r, const exec_kernel_info **out_ki, uint8_t *stackbuf,
                           size_t stackbytes, uint8_t **out_params, uint32_t cluster[3])
{
    rt_func *f = r->f;
    if (!f || !rt_ptrmap_get(&rt.funcs, f))
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e;
    if ((e = rt_func_resolve(f)) != cudaSuccess)
        return e;
    const exec_kernel_info *ki = exec_program_kernel_info(f->mod->prog, f->index);
    if ((e = check_config(r, f, ki)) != cudaSuccess)
        return e;
    /* Thread block clusters: the launch attribute's or the kernel's. */
    char why[200];
    if ((e = rt_cluster_dims(f, ki, r->cluster, r->grid, r->block[0] * r->block[1] * r->block[2], r->shared,
                             cluster, why, sizeof why)) != cudaSuccess)
        return REFUSE(6, cudaErrorInvalidClusterSize, "%s", why);
    uint8_t *params = stackbuf;
    if (ki->param_bytes > stackbytes && !(params = malloc(ki->param_bytes)))
        return cudaErrorMemoryAllocation;
    if ((e = marshal(r, ki, params)) != cudaSuccess) {
        if (params != stackbuf)
            free(params);
        return e;
    }
    *out_ki = ki;
    *out_params = params;
    return cudaSuccess;
}

cudaError_t rt_launch_record(const rt_launch_req *r, rt_graph_op *op)
{
    uint8_t stackbuf[4096], *params;
    const exec_kernel_info *ki;
    rt_lock();
    uint32_t cluster[3];
    cudaError_t e = prepare(r, &ki, stackbuf, sizeof stackbuf, &params, cluster);
    if (e == cudaSuccess) {
        e = make_op(r, ki, params, op);
        if (params != stackbuf)
            free(params);
    }
    rt_unlock();
    return e;
}

/* The host threads functional launches run their CTAs on (NULL: one), made
 * at the first launch; a forked child makes its own, as the threads stayed
 * with the parent. */
static exec_pool *pool_get(void)
{
    /* Work run beside a waiting kernel runs on its own thread: the pool is
     * the waiting kernel's (rt_queue.c). */
    if (rt.cfg.threads <= 1 || rt.cfg.timing || rt.dbg || rt_queue_beside())
        return NULL;
    int pid = (int)getpid();
    if (rt.pool && rt.pool_pid != pid)
        rt.pool = NULL;
    if (!rt.pool) {
        rt.pool = exec_pool_new(rt.cfg.threads);
        rt.pool_pid = pid;
        if (rt.pool)
            rt_queue_pool_made(rt.pool);
    }
    return rt.pool;
}

/* The user asked for several threads and this launch runs on one: say why,
 * once per reason. */
static void say_one_thread(rt_func *f, const exec_launch *l)
{
    const char *why;
    if (!rt.cfg.threads_set || !l->pool || exec_launch_threads(f->mod->prog, f->index, l, &why) > 1 || !why)
        return;
    size_t n = sizeof rt.one_thread_told / sizeof rt.one_thread_told[0], i = 0;
    for (; i < n && rt.one_thread_told[i]; i++)
        if (rt.one_thread_told[i] == why)
            return;
    if (i < n)
        rt.one_thread_told[i] = why;
    rt_say("launches of %s run on one host thread, not %u: %s", rt_func_pretty(f), rt.cfg.threads, why);
}

/* A program that asked for the compiled tier and runs interpreted says why,
 * once per module. */
static void say_engine(rt_func *f, const exec_launch *l)
{
    exec_jit_summary js;
    if (rt.cfg.timing || rt.dbg || l->engine != EXEC_ENGINE_JIT || f->mod->engine_told ||
        !exec_program_engine(f->mod->prog, &js) || !js.why)
        return;
    f->mod->engine_told = true;
    rt_say("%s runs in the interpreter: the compiled tier is unavailable (%s)", f->mod->name, js.why);
}

/* Run a grid whose configuration was checked and whose arguments are laid
 * out, report it, then run the grids it launched (rt_device_launch.c).
 * depth: 0 for a launch from the host, its children's 1, and so on. */
static cudaError_t run_grid(rt_func *f, const uint32_t grid[3], const uint32_t block[3], size_t shared,
                            const uint32_t cluster[3], const void *params, bool cooperative,
                            cudaStream_t stream, unsigned depth)
{
    rt_grid *g = rt_grid_new(f, depth);
    if (!g)
        return cudaErrorMemoryAllocation;
    /* The timing model places blocks by the registers the machine code
     * uses, whichever way the kernel was found (once a module). */
    if (rt.cfg.timing)
        rt_module_machine_regs(f->mod);
    exec_launch l = {
        .cluster = { cluster[0], cluster[1], cluster[2] },
        .grid = { grid[0], grid[1], grid[2] },
        .block = { block[0], block[1], block[2] },
        .dynamic_shared = (uint32_t)shared,
        .stack_bytes = rt.limits[cudaLimitStackSize],
        .heap_bytes = rt.limits[cudaLimitMallocHeapSize],
        .args = params,
        .max_warp_insts = rt.cfg.max_warp_insts,
        .nsm = (uint32_t)rt.cfg.dev.sms,
        .sm_warps = (uint32_t)(rt.cfg.dev.max_threads_sm / 32),
        .host = rt_device_call,
        .host_ctx = g,
        .cooperative = cooperative,
        .lockstep = rt.cfg.lockstep,
        .check_memory = rt.cfg.check_memory,
        .check_race = rt.cfg.check_race,
        .check_race_global = rt.cfg.check_race_global,
        .on_race = say_race,
        .pool = pool_get(),
        .engine = rt.cfg.engine,
        .jit_warm = rt.cfg.jit_warm,
        .jit_hot = rt.cfg.jit_hot,
        .jit_quick_only = rt.cfg.jit_quick_only,
        .jit_log = rt.cfg.verbose ? stderr : NULL,
        .out = rt_device_out,
    };
    /* On the device thread the host runs meanwhile and may write memory the
     * kernel reads: the loop watch must wait for it (rt_queue.c). */
    bool beside_host = rt_queue_on_device_thread();
    if (beside_host) {
        l.settled = rt_queue_settled;
        l.quiet = rt_queue_quiet;
        l.watch_ctx = rt_queue_watch_ctx();
        l.writes = rt_queue_writes();
    }
    say_one_thread(f, &l);
    exec_stats stats = {0};
    exec_error err = {0};
    bool progress = rt_progress_wanted() && !rt_queue_aside();
    if (progress) {
        l.progress = rt_progress;
        rt_progress_begin(rt_func_pretty(f));
    }
    if (rt.nregistered)
        rt_mem_mirror_in();
    /* Reading the clock is 8% of an empty launch: only when reported. */
    bool timed = !rt.cfg.quiet || rt.stats;
    double t0 = timed ? rt_wall_seconds() : 0;
    tm_stats ts;
    uint64_t start_cycle = 0;
    /* ... and may queue more work behind the kernel meanwhile. */
    unsigned held = beside_host ? rt_lock_drop() : 0;
    ptx_status st = rt.cfg.timing
        ? rt_timing_run(f->mod->prog, f->index, &l, &stats, &err, &ts, &start_cycle)
        : rt.dbg ? dbg_launch(rt.dbg, f->mod->prog, f->index, &l, &stats, &err)
        : exec_launch_run(f->mod->prog, f->index, &l, &stats, &err);
    if (beside_host)
        rt_lock_retake(held);
    double dt = timed ? rt_wall_seconds() - t0 : 0;
    if (progress)
        rt_progress_end();
    if (rt.nregistered)
        rt_mem_mirror_out();
    int code;
    if (rt.dbg && dbg_exit_requested(rt.dbg, &code)) {
        /* `quit` or `kill` in the debugger ends the program there. */
        rt_unlock();
        exit(code);
    }
    say_engine(f, &l);
    if (beside_host)
        rt_queue_count_launch();
    else
        rt.launches++;
    unsigned long long sid = 0;
    if (timed)
        rt_stream_info(stream, NULL, NULL, &sid);
    rt_launch_report rep = { f, grid, block, shared, sid, &stats, rt.cfg.timing ? &ts : NULL, dt, st };
    if (timed)
        rt_report_launch(&rep);
    if (rt.cfg.timing) {
        rt_timing_trace(rt_func_pretty(f), &ts, start_cycle);
        rt_timing_host_report(rt_func_pretty(f));
    }
    cudaError_t e = cudaSuccess;
    if (st == PTX_OK) {
        /* A grid is complete when the grids it launched are. */
        e = rt_grid_run_children(g, stream);
    } else {
        say_fault(st, &err);
        if ((st == PTX_E_HANG || st == PTX_E_DEADLOCK) && rt_grid_launched(g))
            rt_say("%s launched %u grid%s, which run%s once it has ended: a kernel cannot wait for the "
                   "grids it launches (CUDA 12 removed device-side cudaDeviceSynchronize, and promises "
                   "no concurrency between a grid and its children)", rt_func_pretty(f), rt_grid_launched(g),
                   rt_grid_launched(g) == 1 ? "" : "s", rt_grid_launched(g) == 1 ? "s" : "");
        if (st == PTX_E_LAUNCH_CONFIG || st == PTX_E_NOMEM)
            e = rt_error_of(st);
        else
            /* A fault inside a kernel poisons the context, as on a GPU:
             * the launch itself was accepted, and the next call that waits
             * for it reports it (rt_surface), then every later call. */
            rt.fault = rt_error_of(st);
    }
    rt_grid_free(g);
    return e;
}

cudaError_t rt_launch_check(rt_func *f, const uint32_t grid[3], const uint32_t block[3], size_t shared,
                            uint32_t cluster[3])
{
    const exec_kernel_info *ki = exec_program_kernel_info(f->mod->prog, f->index);
    rt_launch_req r = { .f = f, .grid = { grid[0], grid[1], grid[2] },
                        .block = { block[0], block[1], block[2] }, .shared = shared };
    cudaError_t e = check_config(&r, f, ki);
    if (e == cudaSuccess)
        e = rt_cluster_dims(f, ki, r.cluster, r.grid, r.block[0] * r.block[1] * r.block[2], r.shared, cluster,
                            NULL, 0);
    return e;
}

cudaError_t rt_launch_child(rt_func *f, const uint32_t grid[3], const uint32_t block[3], size_t shared,
                            const uint32_t cluster[3], const void *params, cudaStream_t stream, unsigned depth)
{
    if (rt.fault != cudaSuccess)
        return cudaSuccess;
    return run_grid(f, grid, block, shared, cluster, params, false, stream, depth);
}

static cudaError_t launch_locked(const rt_launch_req *r, bool queue)
{
    if (rt.sticky != cudaSuccess)
        return rt.sticky;
    /* The context died with an earlier kernel the program has not waited
     * for yet: the launch is accepted and does nothing. */
    if (rt.fault != cudaSuccess)
        return cudaSuccess;
    rt_func *f = r->f;
    if (!f || !rt_ptrmap_get(&rt.funcs, f))
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e = rt_stream_check(r->stream);
    if (e != cudaSuccess)
        return e;
    bool record = false;
    if ((e = rt_capture_route(r->stream, &record)) != cudaSuccess)
        return e;
    if (record) {
        /* A capturing stream: checked as a launch is, then a node. */
        rt_graph_op op;
        e = rt_launch_record(r, &op);
        return e != cudaSuccess ? e : rt_capture_add(r->stream, &op);
    }
    if (queue) {
        /* Checked and laid out now, run by the device thread (rt_queue.c). */
        rt_graph_op op;
        if ((e = rt_launch_record(r, &op)) == cudaSuccess)
            rt_queue_push(r->stream, &op, false);
        return e;
    }
    uint8_t stackbuf[4096], *params;
    const exec_kernel_info *ki;
    uint32_t cluster[3];
    if ((e = prepare(r, &ki, stackbuf, sizeof stackbuf, &params, cluster)) != cudaSuccess)
        return e;
    e = run_grid(f, r->grid, r->block, r->shared, cluster, params, r->cooperative, r->stream, 0);
    if (params != stackbuf)
        free(params);
    return e;
}

cudaError_t rt_launch(const rt_launch_req *r)
{
    bool queue = rt_queue_async();
    if (queue)
        rt_async_enter();
    rt_lock();
    cudaError_t e = launch_locked(r, queue);
    rt_unlock();
    if (queue)
        rt_async_leave();
    return e;
}


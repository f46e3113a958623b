/*
 * compiled.c -- functional mode's compiled tier, as the interpreter sees it.
 *
 * A program's code is cut once into regions -- runs of instructions with no
 * control flow inside (jit.h) -- starting at the pcs a warp arrives at after
 * control flow: a function's entry, a branch target, an entry of a branch
 * table, a reconvergence point, and the instruction after any that is not
 * compiled.  Each region keeps what the interpreter counts over its
 * instructions (memory operations by space, instructions that may write
 * memory), so that running it compiled changes nothing but speed (warp.c).
 *
 * Regions are compiled when they are hot: the interpreter counts the
 * warps that enter each one, and once a region has been entered
 * exec_program.jit_hot times a compiler thread compiles it, with every other
 * region as hot by then, in the background while the interpreter goes on;
 * a region's function is published with one atomic store and taken up by
 * the next warp that enters it.  Short runs therefore never wait for LLVM,
 * and long ones pay for it on a spare core.  Eager compiling (a launch's
 * jit_hot 0) compiles, at each kernel's first launch and before it runs,
 * every region of the kernel and the functions it may call (what the
 * differential tests use).
 * Which instructions run compiled never changes a result or a statistic.
 *
 * A warp that stands inside a region (after the debugger or a split) runs
 * on in the interpreter to the next region's start.
 */
#include "exec_int.h"
#include "jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Compiles in flight in this process: exit waits for them.  Exit runs its
 * handlers newest first, and LLVM registers the destructors of its
 * function-local statics when it first touches them; a compile in flight
 * must not see them destroyed under it.  So the process's first compile
 * runs in the thread that asks for it, touching those statics, and only
 * then is the wait registered and the compiler thread used. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t idle;
    uint32_t inflight;
    pid_t pid;                      /* the process they run in (not a forked child) */
    bool warm;                      /* a first compile has run and the wait is registered */
} C = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, false };

static void wait_compiles(void)
{
    pthread_mutex_lock(&C.lock);
    while (C.inflight && C.pid == getpid())
        pthread_cond_wait(&C.idle, &C.lock);
    pthread_mutex_unlock(&C.lock);
}

/* Fill r from the instructions it covers; false when they touch more state
 * spaces than a region records (it is then never entered). */
static bool count_region(const exec_program *p, const jit_region *j, exec_region *r)
{
    memset(r, 0, sizeof *r);
    r->start = j->start;
    r->n = j->n;
    for (uint32_t pc = j->start; pc < j->start + j->n; pc++) {
        const isa_inst *in = &p->code[pc];
        uint16_t fl = isa_ops[in->op].flags;
        if (!(fl & ISA_F_MEM))
            continue;
        r->writes += !(fl & ISA_F_LOAD) || (fl & (ISA_F_STORE | ISA_F_ATOMIC));
        unsigned k = 0;
        while (k < r->nspaces && r->space[k] != in->space)
            k++;
        if (k == EXEC_REGION_SPACES)
            return false;
        if (k == r->nspaces) {
            r->space[k] = in->space;
            r->nspaces++;
        }
        r->mem_ops[k]++;
    }
    return true;
}

/* Cut p's code into regions (p->regions, p->region_at). */
static bool partition(exec_program *p)
{
    uint8_t *leader = calloc(p->ncode + 1, 1);
    if (!leader)
        return false;
    for (uint32_t f = 0; f < p->m->nfuncs; f++)
        if (p->funcs[f].start < p->ncode)
            leader[p->funcs[f].start] = 1;
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        const isa_inst *in = &p->code[pc];
        if (isa_inst_is_jump(in) && in->target < p->ncode)
            leader[in->target] = 1;
        if (in->rpc < p->ncode)
            leader[in->rpc] = 1;
    }
    for (uint32_t t = 0; t < p->nbrx; t++)
        for (uint32_t i = 0; i < p->brx_counts[t]; i++)
            if (p->brx[t][i] < p->ncode)
                leader[p->brx[t][i]] = 1;
    uint32_t n = jit_find_regions(p->code, p->ncode, leader, NULL);
    jit_region *found = calloc(n ? n : 1, sizeof *found);
    p->regions = calloc(n ? n : 1, sizeof *p->regions);
    p->region_at = calloc(p->ncode + 1, sizeof *p->region_at);
    if (!found || !p->regions || !p->region_at) {
        free(leader);
        free(found);
        free(p->regions);
        free(p->region_at);
        p->regions = NULL;
        p->region_at = NULL;
        return false;
    }
    jit_find_regions(p->code, p->ncode, leader, found);
    for (uint32_t i = 0; i < n; i++) {
        exec_region *r = &p->regions[p->nregions];
        if (count_region(p, &found[i], r)) {
            p->region_at[r->start] = r;
            p->nregions++;
        }
    }
    free(leader);
    free(found);
    return true;
}

/* Whether r has been entered often enough to compile (other host threads
 * add to its count as this reads it). */
static bool is_hot(const exec_program *p, exec_region *r)
{
    return __atomic_load_n(&r->hits, __ATOMIC_RELAXED) >= p->jit_hot;
}

/* Compile the regions that are hot and not tried yet.  Called and returns
 * with p->jit_lock held, which it drops while LLVM works.  False when a
 * compile failed (p->jit_why says why) or there was nothing to do. */
static bool compile_hot(exec_program *p)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->nregions; i++)
        n += !p->regions[i].tried && is_hot(p, &p->regions[i]);
    if (!n || p->jit_failed)
        return false;
    jit_region *work = malloc(n * sizeof *work);
    exec_region **which = malloc(n * sizeof *which);
    if (!work || !which) {
        free(work);
        free(which);
        snprintf(p->jit_why, sizeof p->jit_why, "out of host memory");
        p->jit_failed = true;
        return false;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->nregions && k < n; i++) {
        exec_region *r = &p->regions[i];
        if (!r->tried && is_hot(p, r)) {
            r->tried = true;
            which[k] = r;
            work[k++] = (jit_region){ r->start, r->n, NULL };
        }
    }
    char why[sizeof p->jit_why];
    pthread_mutex_unlock(&p->jit_lock);
    jit_code *c = jit_compile(p->code, work, n, why, sizeof why);
    pthread_mutex_lock(&p->jit_lock);
    /* Grown only now: another thread's compile may have added its batch
     * while the lock was dropped. */
    jit_code **grown = c ? realloc(p->jit_batches, (p->jit_nbatches + 1) * sizeof *grown) : NULL;
    if (c && !grown) {
        jit_free(c);
        c = NULL;
        snprintf(why, sizeof why, "out of host memory");
    }
    if (c) {
        p->jit_batches = grown;
        p->jit_batches[p->jit_nbatches++] = c;
        p->jit_seconds += jit_compile_seconds(c);
        p->jit_insts += jit_compiled_insts(c);
        for (uint32_t i = 0; i < n; i++)
            __atomic_store_n(&which[i]->fn, work[i].fn, __ATOMIC_RELEASE);
    } else {
        memcpy(p->jit_why, why, sizeof why);
        p->jit_failed = true;
    }
    free(work);
    free(which);
    return c != NULL;
}

static void *compiler(void *arg)
{
    exec_program *p = arg;
    pthread_mutex_lock(&p->jit_lock);
    while (compile_hot(p))
        ;
    p->jit_compiling = false;
    pthread_cond_broadcast(&p->jit_idle);
    pthread_mutex_unlock(&p->jit_lock);
    pthread_mutex_lock(&C.lock);
    if (--C.inflight == 0)
        pthread_cond_broadcast(&C.idle);
    pthread_mutex_unlock(&C.lock);
    return NULL;
}

void exec_program_hot(exec_program *p)
{
    pthread_mutex_lock(&p->jit_lock);
    if (p->jit_compiling || p->jit_failed) {
        pthread_mutex_unlock(&p->jit_lock);
        return;
    }
    pthread_mutex_lock(&C.lock);
    bool warm = C.warm && C.pid == getpid();
    if (warm)
        C.inflight++;
    pthread_mutex_unlock(&C.lock);
    if (!warm) {
        /* The process's first compile, here (see C). */
        compile_hot(p);
        pthread_mutex_unlock(&p->jit_lock);
        pthread_mutex_lock(&C.lock);
        if (!C.warm)
            atexit(wait_compiles);
        if (C.pid != getpid()) {
            /* First here, or a forked child, which has none of the
             * parent's compiler threads. */
            C.pid = getpid();
            C.inflight = 0;
        }
        C.warm = true;
        pthread_mutex_unlock(&C.lock);
        return;
    }
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    p->jit_compiling = true;
    if (pthread_create(&t, &attr, compiler, p) != 0) {
        /* No thread: compile here. */
        pthread_mutex_unlock(&p->jit_lock);
        compiler(p);
        pthread_mutex_lock(&p->jit_lock);
    }
    pthread_attr_destroy(&attr);
    pthread_mutex_unlock(&p->jit_lock);
}

/* Eager compiling: mark the regions kernel k may run as hot. */
static void mark_kernel(exec_program *p, exec_kernel *k)
{
    k->jit_marked = true;
    bool *reach = exec_program_reachable(p, k->func);
    for (uint32_t i = 0; i < p->nregions; i++) {
        exec_region *r = &p->regions[i];
        if (!reach || reach[p->func_of[r->start]])
            __atomic_store_n(&r->hits, p->jit_hot, __ATOMIC_RELAXED);
    }
    free(reach);
}

exec_region *const *exec_program_regions(exec_program *p, uint32_t hot, int kernel)
{
    pthread_mutex_lock(&p->jit_lock);
    if (!p->jit_partitioned) {
        p->jit_partitioned = true;
        p->jit_eager = hot == 0;
        p->jit_hot = hot ? hot : 1;
        if (!partition(p)) {
            snprintf(p->jit_why, sizeof p->jit_why, "out of host memory");
            p->jit_failed = true;
        }
    }
    if (p->jit_eager && !p->kernels[kernel].jit_marked && !p->jit_failed) {
        mark_kernel(p, &p->kernels[kernel]);
        while (compile_hot(p))
            ;
    }
    pthread_mutex_unlock(&p->jit_lock);
    return p->region_at;
}

bool exec_program_engine(exec_program *p, double *seconds, uint64_t *insts, const char **why)
{
    pthread_mutex_lock(&p->jit_lock);
    *seconds = p->jit_seconds;
    *insts = p->jit_insts;
    *why = p->jit_failed ? p->jit_why : NULL;
    bool used = p->jit_partitioned;
    pthread_mutex_unlock(&p->jit_lock);
    return used;
}

void exec_program_free_regions(exec_program *p)
{
    pthread_mutex_lock(&p->jit_lock);
    while (p->jit_compiling)
        pthread_cond_wait(&p->jit_idle, &p->jit_lock);
    pthread_mutex_unlock(&p->jit_lock);
    for (uint32_t i = 0; i < p->jit_nbatches; i++)
        jit_free(p->jit_batches[i]);
    free(p->jit_batches);
    free(p->regions);
    free(p->region_at);
    pthread_cond_destroy(&p->jit_idle);
    pthread_mutex_destroy(&p->jit_lock);
}

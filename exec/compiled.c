/*
 * compiled.c -- functional mode's compiled tier, as the interpreter sees it.
 *
 * Each function of a program is a unit the tier compiles whole (jit.h),
 * entered at its blocks: the pcs a warp arrives at after control flow (the
 * function's entry, a branch target, an entry of a branch table, a
 * reconvergence point) and the instruction after any that is not compiled
 * or branches.  Compiled code counts what the interpreter counts over its
 * instructions (memory operations by space, instructions that may write
 * memory), so that running it changes nothing but speed (warp.c).
 *
 * Units are compiled when they have earned it, in two steps (jit.h's
 * levels). A unit's blocks count the warp-instructions run from them, in
 * the interpreter or in quick code, until the unit is hot (a warp adds
 * what it ran in the unit to the block it stands at, in batches:
 * exec_region_credit). Once one block's count reaches
 * exec_program.jit_warm times its unit's size (plus EXEC_JIT_QUICK_FIXED,
 * what every compile costs besides), a compiler thread compiles the unit
 * quick; once one reaches jit_hot times the size (plus EXEC_JIT_FIXED),
 * optimised (quick first if it has not been) -- each time with every
 * other unit that has earned as much by then, in the background while
 * warps go on.  A unit whose optimised code is made already (an earlier
 * run left it in the disk cache) takes that code once warm, skipping
 * quick code: the hot threshold pays for a compile that is not needed.
 * A unit's function is published to its blocks with one atomic store
 * each and taken up by the next warp that enters one.  Each
 * threshold is where running the code so far has cost four times what its
 * compile will, so runs too short to pay for a compile never wait for
 * LLVM and long ones pay on a spare core: quick code, some 40 times
 * cheaper to make, comes early and takes out the interpreter's dispatch
 * and its block-by-block round trips; optimised code, which folds each
 * instruction's semantics into straight host code, comes where it pays. A
 * launch returns only once the compiles it started have finished: the
 * program may exit as soon as it has, and exit runs libLLVM's
 * destructors, which a compile still in flight would find gone.
 * Eager compiling (a launch's jit_hot 0) compiles, at each kernel's first
 * launch and before it runs, the kernel and the functions it may call,
 * at their one level (optimised, or quick with jit_quick_only): what the
 * differential tests use.
 * Which instructions run compiled never changes a result or a statistic.
 *
 * A warp that stands inside a block (after the debugger or a split) runs
 * on in the interpreter to the next block's start.
 */
#include "exec_int.h"
#include "jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cut p's code into units, one a function, and their blocks (p->units,
 * p->regions, p->region_at, p->leader). */
static bool partition(exec_program *p)
{
    uint8_t *leader = calloc(p->ncode + 1, 1);
    if (!leader)
        return false;
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
    uint32_t nf = p->m->nfuncs, nblocks = 0;
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t pc = p->funcs[f].start; pc < p->funcs[f].end && pc < p->ncode; pc++)
            nblocks += jit_block_starts(p->code, p->funcs[f].start, p->funcs[f].end, leader, pc);
    p->units = calloc(nf ? nf : 1, sizeof *p->units);
    p->regions = calloc(nblocks ? nblocks : 1, sizeof *p->regions);
    p->region_at = calloc(p->ncode + 1, sizeof *p->region_at);
    if (!p->units || !p->regions || !p->region_at) {
        free(leader);
        free(p->units);
        free(p->regions);
        free(p->region_at);
        p->units = NULL;
        p->regions = NULL;
        p->region_at = NULL;
        return false;
    }
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t start = p->funcs[f].start, end = p->funcs[f].end < p->ncode ? p->funcs[f].end : p->ncode;
        exec_unit *u = &p->units[p->nunits];
        *u = (exec_unit){ .start = start, .n = end > start ? end - start : 0, .first = p->nregions };
        uint64_t hot = p->jit_optimised ? (uint64_t)p->jit_hot * (u->n + EXEC_JIT_FIXED) : UINT64_MAX,
                 warm = p->jit_quick ? (uint64_t)p->jit_warm * (u->n + EXEC_JIT_QUICK_FIXED) : UINT64_MAX;
        exec_region *last = NULL;
        for (uint32_t pc = start; pc < end; pc++) {
            if (jit_block_starts(p->code, start, end, leader, pc)) {
                last = &p->regions[p->nregions++];
                *last = (exec_region){ .unit = p->nunits, .warm = warm, .hot = hot };
                p->region_at[pc] = last;
                u->nregions++;
            }
            if (last)
                last->len++;
        }
        if (u->nregions)
            p->nunits++;
    }
    p->leader = leader;
    return true;
}

/* Say what a compile at level made of unit u: its function, its
 * instructions, and those left to the interpreter, by opcode and why. */
static void log_unit(exec_program *p, const exec_unit *u, jit_level level, bool cached)
{
    uint32_t left[ISA_OP_COUNT] = {0}, nleft = 0;
    const isa_inst *example[ISA_OP_COUNT];      /* one of each opcode left, for its reason */
    for (uint32_t pc = u->start; pc < u->start + u->n; pc++)
        if (!jit_inst_compilable(&p->code[pc])) {
            example[p->code[pc].op] = &p->code[pc];
            left[p->code[pc].op]++;
            nleft++;
        }
    fprintf(p->jit_log, "ptxsim: compiled %s %s: %u instructions in %u block%s%s%s\n",
            p->m->funcs[p->func_of[u->start]].name, level == JIT_QUICK ? "quick" : "optimised", u->n,
            u->nregions, u->nregions == 1 ? "" : "s", cached ? ", from the cache" : "",
            nleft ? "; left to the interpreter:" : "");
    for (unsigned op = 0; op < ISA_OP_COUNT; op++)
        if (left[op])
            fprintf(p->jit_log, "ptxsim:   %u x %s (%s)\n", left[op], isa_ops[op].name, jit_inst_left(example[op]));
}

/* Compile work[0, n) (which[i]'s code) at level and publish each
 * unit's function to its blocks.  Called and returns with p->jit_lock
 * held, dropped while LLVM works.  False when the compile failed. */
static bool compile_batch(exec_program *p, jit_level level, jit_unit *work, exec_unit **which, uint32_t n)
{
    char why[sizeof p->jit_why];
    pthread_mutex_unlock(&p->jit_lock);
    jit_code *c = jit_compile(level, p->code, p->leader, work, n, why, sizeof why);
    pthread_mutex_lock(&p->jit_lock);
    /* Grown only now: another thread's compile may have added its batch
     * while the lock was dropped. */
    jit_code **grown = c ? realloc(p->jit_batches, (p->jit_nbatches + 1) * sizeof *grown) : NULL;
    if (c && !grown) {
        jit_free(c);
        c = NULL;
        snprintf(why, sizeof why, "out of host memory");
    }
    if (!c) {
        memcpy(p->jit_why, why, sizeof why);
        p->jit_failed = true;
        return false;
    }
    p->jit_batches = grown;
    p->jit_batches[p->jit_nbatches++] = c;
    p->jit_seconds += jit_compile_seconds(c);
    p->jit_insts[level] += jit_compiled_insts(c);
    p->jit_cached += jit_cached_insts(c);
    if (p->jit_log)
        for (uint32_t i = 0; i < n; i++)
            log_unit(p, which[i], level, jit_cached_insts(c) != 0);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t r = 0; r < which[i]->nregions; r++) {
            exec_region *rg = &p->regions[which[i]->first + r];
            __atomic_store_n(&rg->fn, work[i].fn, __ATOMIC_RELEASE);
            /* Optimised code is the last: its blocks stop counting. */
            if (level == JIT_OPTIMISED)
                __atomic_store_n(&rg->work, rg->hot, __ATOMIC_RELAXED);
        }
    return true;
}

/* Whether p compiles at level: quick code unless it is off or eager
 * compiles go straight to optimised code; optimised code unless only
 * quick code is wanted. */
static bool compiles_at(const exec_program *p, jit_level level)
{
    if (level == JIT_OPTIMISED)
        return p->jit_optimised;
    return p->jit_quick && !(p->jit_eager && p->jit_optimised);
}

/* The compile u's blocks have earned: 0 none yet, else 1 + the jit_level
 * (other host threads add to the counts as this reads them). */
static unsigned earned(const exec_program *p, const exec_unit *u)
{
    unsigned level = 0;
    for (uint32_t i = 0; i < u->nregions; i++) {
        const exec_region *r = &p->regions[u->first + i];
        uint64_t work = __atomic_load_n(&r->work, __ATOMIC_RELAXED);
        if (work >= r->hot)
            return 1 + JIT_OPTIMISED;
        if (work >= r->warm)
            level = 1 + JIT_QUICK;
    }
    return level;
}

/* The compile u has earned (as earned), except that a warm unit whose
 * optimised code is made already (an earlier run left it in the disk
 * cache, or another program of this process loaded it) has earned that
 * code: taking it costs about a millisecond, not the compile the hot
 * threshold waits to pay for.  The caches are asked once. */
static unsigned wanted(const exec_program *p, exec_unit *u)
{
    unsigned level = earned(p, u);
    if (level >= 1 + JIT_QUICK && !u->probed && p->jit_optimised) {
        u->probed = true;
        u->made = jit_is_cached(JIT_OPTIMISED, p->code, p->leader, u->start, u->n);
    }
    return level && u->made ? 1 + JIT_OPTIMISED : level;
}

/* Compile the units that have earned a level they have not had yet, the
 * quick ones first.  A unit hot at once is compiled quick too: its quick
 * code is ready in milliseconds and runs while the optimised compile
 * takes a second or so (an eager compile goes straight to its level);
 * not one whose optimised code is made already.
 * Called and returns with p->jit_lock held, which it drops while LLVM
 * works.  False when a compile failed (p->jit_why says why) or there was
 * nothing to do. */
static bool compile_hot(exec_program *p)
{
    if (p->jit_failed || !p->nunits)
        return false;
    jit_unit *work = malloc(p->nunits * sizeof *work);
    exec_unit **which = malloc(p->nunits * sizeof *which);
    if (!work || !which) {
        free(work);
        free(which);
        snprintf(p->jit_why, sizeof p->jit_why, "out of host memory");
        p->jit_failed = true;
        return false;
    }
    bool compiled = false;
    for (jit_level level = JIT_QUICK; level <= JIT_OPTIMISED && !p->jit_failed; level++) {
        if (!compiles_at(p, level))
            continue;
        uint32_t n = 0;
        for (uint32_t i = 0; i < p->nunits; i++) {
            exec_unit *u = &p->units[i];
            unsigned want = wanted(p, u);
            if (u->level < 1 + level && want >= 1 + level && !(level == JIT_QUICK && u->made)) {
                u->level = (uint8_t)(1 + level);
                which[n] = u;
                work[n++] = (jit_unit){ u->start, u->n, NULL };
            }
        }
        if (n)
            compiled |= compile_batch(p, level, work, which, n);
    }
    free(work);
    free(which);
    return compiled;
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
    return NULL;
}

void exec_program_hot(exec_program *p)
{
    pthread_mutex_lock(&p->jit_lock);
    if (p->jit_compiling || p->jit_failed) {
        pthread_mutex_unlock(&p->jit_lock);
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

void exec_program_wait_compiles(exec_program *p)
{
    pthread_mutex_lock(&p->jit_lock);
    while (p->jit_compiling)
        pthread_cond_wait(&p->jit_idle, &p->jit_lock);
    pthread_mutex_unlock(&p->jit_lock);
}

/* Eager compiling: mark the units kernel k may run as hot (as warm, when
 * compiles are quick only). */
static void mark_kernel(exec_program *p, exec_kernel *k)
{
    k->jit_marked = true;
    bool *reach = exec_program_reachable(p, k->func);
    for (uint32_t i = 0; i < p->nunits; i++) {
        exec_unit *u = &p->units[i];
        exec_region *first = &p->regions[u->first];
        if (!reach || reach[p->func_of[u->start]])
            __atomic_store_n(&first->work, p->jit_optimised ? first->hot : first->warm, __ATOMIC_RELAXED);
    }
    free(reach);
}

exec_region *const *exec_program_regions(exec_program *p, const exec_launch *l, int kernel)
{
    pthread_mutex_lock(&p->jit_lock);
    if (!p->jit_partitioned) {
        p->jit_partitioned = true;
        p->jit_eager = l->jit_hot == 0;
        p->jit_quick = l->jit_warm || l->jit_quick_only;
        p->jit_optimised = !l->jit_quick_only;
        p->jit_hot = l->jit_hot ? l->jit_hot : 1;
        p->jit_log = l->jit_log;
        p->jit_warm = l->jit_warm ? l->jit_warm : 1;
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

bool exec_program_engine(exec_program *p, exec_jit_summary *out)
{
    pthread_mutex_lock(&p->jit_lock);
    *out = (exec_jit_summary){ p->jit_seconds, p->jit_insts[JIT_QUICK], p->jit_insts[JIT_OPTIMISED], p->jit_cached,
                               p->jit_failed ? p->jit_why : NULL };
    bool used = p->jit_partitioned;
    pthread_mutex_unlock(&p->jit_lock);
    return used;
}

void exec_program_free_regions(exec_program *p)
{
    exec_program_wait_compiles(p);
    for (uint32_t i = 0; i < p->jit_nbatches; i++)
        jit_free(p->jit_batches[i]);
    free(p->jit_batches);
    free(p->regions);
    free(p->region_at);
    free(p->units);
    free(p->leader);
    pthread_cond_destroy(&p->jit_idle);
    pthread_mutex_destroy(&p->jit_lock);
}

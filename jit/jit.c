/*
 * jit.c -- PTX functions compiled through libLLVM's ORC LLJIT (see jit.h).
 *
 * One compile turns every unit it is given into one LLVM module:
 *
 *   - the module starts as a copy of isa/ in bitcode (sem_bitcode.c embeds
 *     it), every definition made internal, so what no unit reaches is
 *     deleted and what one reaches is inlined;
 *   - each instruction is a private constant holding its isa_inst, byte
 *     for byte, and a call of isa_sem_<op>(w, &inst, active) -- then
 *     isa_extend_dst, as isa_execute does;
 *   - a unit is one function: a switch on the pc it is entered at, and a
 *     block of LLVM code per block of PTX, whose uniform branches jump to
 *     the block they name;
 *   - default<O1> inlines the calls, folds every load from the constant
 *     instruction (its type, modifiers, operand kinds and registers) and
 *     vectorises what remains of the lane loops.
 *
 * A quick compile (JIT_QUICK) makes the same units without the bitcode:
 * every instruction is a call of host_execute, and only the counters are
 * optimised, into registers; LLVM's fast instruction selection makes the
 * code.  Inlining and folding the semantics are what cost an optimised
 * compile its time, not the vectoriser or the code generator's care:
 * -O1 without the vectoriser compiled as slowly as the optimised level,
 * and -O1 with fast instruction selection took half its time for code
 * slower than the interpreter (bench/run-jit), so there is no middle level.
 *
 * A unit keeps the interpreter's bookkeeping exactly: the clock ticks once
 * per instruction before it runs, an instruction counts (with its memory
 * space and whether it may write memory) whether or not its guard lets any
 * lane run it, a guard whose lanes are all false skips the call, a failed
 * instruction returns at once with its status, and a branch that diverges
 * returns before it runs, for the interpreter to split the warp.  The
 * counters live in allocas, which LLVM keeps in host registers.
 */
#include "jit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The optimisation pipeline: the module's unreachable semantics deleted
 * first, then LLVM's standard -O1, whose inliner and constant folding do
 * the specialising, then the loop vectoriser over the lane loops.  -O2
 * costs about 1.5x the compile time for no speed measurable on the
 * samples.  No SLP vectoriser: LLVM 22's miscompiled isa_sem_shfl on an
 * AMD EPYC (AVX2) host -- in each four-lane vector it and-ed the first
 * lane's number with 0, so shfl.bfly and shfl.down read lane 0 there
 * (conformance.warp.jit; not on the AVX-512 host the tier was first
 * measured on, whose cost model chose otherwise). */
#define PASSES "globaldce,default<O1>,function(loop-vectorize,instcombine<no-verify-fixpoint>,simplifycfg)"

/* The quick level's pipeline: the counters' allocas into registers and
 * the empty blocks out, nothing that costs. */
#define QUICK_PASSES "function(sroa,simplifycfg)"

/* The name compiled code calls host_execute by (below). */
#define HOST_EXECUTE "ptxsim_host_execute"

/* isa/ as bitcode (sem_bitcode.c). */
extern const unsigned char jit_sem_bitcode[], jit_sem_bitcode_end[];

/* Compiled code is named, cached and shared by a key: a 128-bit hash of
 * everything it depends on (the units' instructions and leaders, the
 * semantics' bitcode, this file's build, LLVM's version, the host CPU and
 * the pipeline).  Its code stays loaded until the process ends, so that a
 * second program with the same code takes it as it is. */
typedef struct jit_key {
    uint64_t h[2];
} jit_key;

struct jit_code {
    uint32_t insts, cached_insts;
    double seconds;
};

/* The process's one JIT, made on first use. */
static struct {
    pthread_once_t once;
    pthread_mutex_t lock;           /* one compile at a time */
    LLVMOrcLLJITRef jit;
    LLVMTargetMachineRef tm;        /* the host, for the optimisation passes */
    LLVMTargetMachineRef emit_tm;   /* the host, for the object code */
    LLVMTargetMachineRef quick_tm;  /* the host, for quick object code (no optimisation) */
    char why[256];                  /* set when the JIT could not be made */
    jit_key base;                   /* what every key starts from (jit_init) */
    jit_key *loaded;                /* keys whose code is loaded */
    uint32_t nloaded, loaded_cap;
    /* Where each unit loaded in this process lives (find_home); read by
     * jit_is_cached without J.lock, so guarded by a lock of its own. */
    pthread_mutex_t homes_lock;
    struct home { jit_key unit, batch; } *homes;
    uint32_t nhomes, homes_cap;
    /* LLVM's fatal errors (llvm_fatal): set once one happened, after
     * which LLVM is not entered again in this process. */
    pthread_mutex_t job_lock;
    pthread_cond_t job_done;
    bool broken;
    char fatal[256];
} J = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER, .homes_lock = PTHREAD_MUTEX_INITIALIZER,
        .job_lock = PTHREAD_MUTEX_INITIALIZER, .job_done = PTHREAD_COND_INITIALIZER };

/* One compile, run on a thread of its own (jit_compile). */
typedef struct compile_job {
    jit_level level;
    const isa_inst *code;
    const uint8_t *leader;
    jit_unit *units;
    uint32_t n;
    char *err;
    size_t errlen;
    jit_code *result;
    bool done;
} compile_job;

/* The compile this thread runs, for llvm_fatal. */
static _Thread_local compile_job *current_job;

/* Two independent 64-bit hashes over the bytes (a multiply-rotate hash
 * with two seeds): keys name files shared across runs, so a collision
 * would run the wrong code -- 128 bits make one as good as impossible. */
static void mix(jit_key *k, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (int i = 0; i < 2; i++) {
        uint64_t h = k->h[i] ^ (0x9E3779B97F4A7C15ull * (uint64_t)(n + (size_t)i + 1));
        for (size_t j = 0; j < n; j++) {
            h = (h ^ p[j]) * (i ? 0x100000001B3ull : 0xFF51AFD7ED558CCDull);
            h ^= h >> 29;
        }
        k->h[i] = h;
    }
}

static void mix_str(jit_key *k, const char *s) { mix(k, s, strlen(s) + 1); }

static void take_error(LLVMErrorRef e, char *out, size_t n, const char *what)
{
    char *msg = LLVMGetErrorMessage(e);
    snprintf(out, n, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
}

/* PTXSIM_JIT_PERF=1: compiled code is described to perf (`perf record -k 1`,
 * then `perf inject --jit`), for profiling what the units became. */
static LLVMOrcObjectLayerRef perf_layer(void *ctx, LLVMOrcExecutionSessionRef es, const char *triple)
{
    (void)ctx, (void)triple;
    LLVMOrcObjectLayerRef layer = LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(es);
    LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(layer, LLVMCreatePerfJITEventListener());
    return layer;
}

static ptx_status host_execute(isa_warp *w, const isa_inst *in, uint32_t mask);

/* LLVM ends the process after an error it cannot report otherwise (it
 * calls exit(1) once this returns).  Inside a compile, which runs on a
 * thread of its own, the compile fails instead: the thread hands its
 * reason to the waiting caller and never returns, holding whatever LLVM
 * held, and no later compile enters LLVM -- the program goes on in the
 * interpreter.  Elsewhere (making the JIT) there is nothing to fall back
 * on: say what failed and how to go on. */
static void llvm_fatal(const char *reason)
{
    compile_job *job = current_job;
    if (!job) {
        fprintf(stderr, "ptxsim: the compiled tier failed inside LLVM: %s\n"
                "ptxsim: run with --engine interp (PTXSIM_ENGINE=interp) to interpret instead\n", reason);
        return;
    }
    pthread_mutex_lock(&J.job_lock);
    snprintf(J.fatal, sizeof J.fatal, "%s", reason);
    J.broken = true;
    snprintf(job->err, job->errlen, "LLVM failed: %s", reason);
    job->result = NULL;
    job->done = true;
    pthread_cond_broadcast(&J.job_done);
    pthread_mutex_unlock(&J.job_lock);
    for (;;)
        pause();
}

static void jit_init(void)
{
    LLVMInstallFatalErrorHandler(llvm_fatal);

    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter()) {
        snprintf(J.why, sizeof J.why, "libLLVM has no code generator for this host");
        return;
    }
    /* The host machine, for the optimisation passes and (a copy of it) for
     * code generation, at LLVM's -O1 code generation: the IR arrives
     * optimised, and the default level's instruction scheduling roughly
     * doubles the compile time for a few percent of speed. */
    char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(),
         *features = LLVMGetHostCPUFeatures(), *msg = NULL;
    LLVMTargetRef target;
    LLVMCodeGenOptLevel level = LLVMCodeGenLevelLess;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) == 0)
        J.tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                       LLVMCodeModelJITDefault);
    else
        snprintf(J.why, sizeof J.why, "no LLVM target for %s: %s", triple, msg ? msg : "?");
    LLVMTargetMachineRef gen_tm = J.tm ? LLVMCreateTargetMachine(target, triple, cpu, features, level,
                                                                  LLVMRelocDefault, LLVMCodeModelJITDefault)
                                       : NULL;
    J.emit_tm = J.tm ? LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                               LLVMCodeModelJITDefault)
                     : NULL;
    J.quick_tm = J.tm ? LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelNone,
                                                LLVMRelocDefault, LLVMCodeModelJITDefault)
                      : NULL;
    /* What every key starts from: this file's build (its code decides what
     * a unit becomes), LLVM's version, the host, the pipeline and the
     * semantics. */
    unsigned major, minor, patch;
    LLVMGetVersion(&major, &minor, &patch);
    char version[64];
    snprintf(version, sizeof version, "%u.%u.%u", major, minor, patch);
    mix_str(&J.base, __DATE__ " " __TIME__ " " __FILE__);
    mix_str(&J.base, version);
    mix_str(&J.base, triple);
    mix_str(&J.base, cpu);
    mix_str(&J.base, features);
    mix_str(&J.base, PASSES);
    mix_str(&J.base, QUICK_PASSES);
    mix(&J.base, jit_sem_bitcode, (size_t)(jit_sem_bitcode_end - jit_sem_bitcode));
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!gen_tm || !J.emit_tm || !J.quick_tm)
        return;
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(gen_tm));
    const char *perf = getenv("PTXSIM_JIT_PERF");
    if (perf && strcmp(perf, "1") == 0)
        LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(builder, perf_layer, NULL);
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&J.jit, builder);
    if (e) {
        take_error(e, J.why, sizeof J.why, "cannot create the LLVM JIT");
        J.jit = NULL;
        return;
    }
    /* Calls the bitcode makes into the C library and libm (memcpy, fmaf,
     * sinf, fesetround) go to the process's own, as the interpreter's do. */
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(J.jit),
                                                              NULL, NULL);
    if (e) {
        take_error(e, J.why, sizeof J.why, "cannot reach the process's symbols");
        LLVMOrcDisposeLLJIT(J.jit);
        J.jit = NULL;
        return;
    }
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(J.jit);
    LLVMOrcJITDylibAddGenerator(jd, gen);
    LLVMOrcCSymbolMapPair host = {
        LLVMOrcLLJITMangleAndIntern(J.jit, HOST_EXECUTE),
        { (LLVMOrcExecutorAddress)(uintptr_t)host_execute,
          { LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0 } } };
    e = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(&host, 1));
    if (e) {
        take_error(e, J.why, sizeof J.why, "cannot define the host calls");
        LLVMOrcDisposeLLJIT(J.jit);
        J.jit = NULL;
    }
}

bool jit_available(const char **why)
{
    pthread_once(&J.once, jit_init);
    if (why)
        *why = J.jit ? NULL : J.why;
    return J.jit != NULL;
}

const char *jit_inst_left(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    if (in->op == ISA_OP_MBARRIER)
        return "a failed wait ends the warp's turn";
    if (!(fl & ISA_F_CTRL) || in->op == ISA_OP_BRA)
        return NULL;
    if (fl & ISA_F_TABLE)
        return "its lanes may part for any of its targets: the interpreter splits the warp";
    if (fl & ISA_F_CALL)
        return "it opens a frame, which the interpreter keeps";
    if (isa_ops[in->op].family == ISA_FAM_SYNC)
        return "the warp waits there for others";
    return "it ends the thread, the function or the launch, which the interpreter keeps";
}

bool jit_inst_compilable(const isa_inst *in) { return !jit_inst_left(in); }

bool jit_block_starts(const isa_inst *code, uint32_t start, uint32_t end, const uint8_t *leader, uint32_t pc)
{
    if (pc < start || pc >= end || !jit_inst_compilable(&code[pc]))
        return false;
    return pc == start || leader[pc] || !jit_inst_compilable(&code[pc - 1]) || code[pc - 1].op == ISA_OP_BRA;
}

/* Instructions a unit calls in the host instead of inlining: directed
 * rounding switches the host's rounding mode around a lane loop, which
 * code compiled without -frounding-math must not see (LLVM would move
 * float operations across the switch); textures, matrix operations, bulk
 * copies, tensor-map edits and atomics are large and gain nothing from
 * folding. */
static bool host_call(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    if (fl & (ISA_F_IMAGE | ISA_F_MATRIX | ISA_F_ATOMIC))
        return true;
    if (in->op == ISA_OP_CP || in->op == ISA_OP_TENSORMAP)
        return true;
    switch (in->rnd) {
    case ISA_RND_RZ: case ISA_RND_RM: case ISA_RND_RP: return true;
    case ISA_RND_NONE: case ISA_RND_RN: return false;
    default: return in->op != ISA_OP_CVT;     /* cvt's integer roundings use trunc, floor, ceil */
    }
}

/* What a host call runs: the interpreter's own step (isa_execute).  Compiled
 * code calls it by this name, which the JIT defines, so that an object
 * holds no address of this process's and can be cached. */
static ptx_status host_execute(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    ptx_status st = isa_execute(w, in, mask);
    /* An atomic that left memory as it was is no write to the loop watch
     * (exec/hang.c): a spin lock's failed compare-and-swap, as the
     * interpreter judges it; enough in a row end the run where the
     * interpreter would let the warp's other lanes run (PTX_CTL_SPIN, the
     * atomic done).  Atomics are always host calls. */
    if (isa_ops[in->op].flags & ISA_F_ATOMIC) {
        if (st != PTX_OK || isa_atomic_note(w, in, mask))
            w->atomic_writes++;
        else if (w->atomic_spins >= ISA_ATOMIC_SPINS)
            return PTX_CTL_SPIN;
    }
    return st;
}

static const char *const sem_names[ISA_OP_COUNT] = {
#define PTX_OP(E, id, fam, lat, pm, fl) [ISA_OP_##E] = "isa_sem_" #id,
#include "opcodes.def"
#undef PTX_OP
};

/* ---- one module ---------------------------------------------------------- */

typedef struct emit {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef i8, i32, i64, ptr, fn_type, sem_type, extend_type;
    LLVMValueRef host_fn;           /* host_execute, by its name */
    bool quick;                     /* JIT_QUICK: every instruction a host call */
    char *err;
    size_t errlen;
} emit;

static LLVMValueRef c32(emit *e, uint64_t v) { return LLVMConstInt(e->i32, v, 0); }
static LLVMValueRef c64(emit *e, uint64_t v) { return LLVMConstInt(e->i64, v, 0); }

/* Make the bitcode's definitions the module's own (internal, so the
 * unreachable ones go) and compile them for the host CPU; the semantic
 * functions are always inlined into the units. */
static void adopt_bitcode(emit *e)
{
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    LLVMAttributeRef a_cpu = LLVMCreateStringAttribute(e->ctx, "target-cpu", 10, cpu, (unsigned)strlen(cpu));
    LLVMAttributeRef a_feat = LLVMCreateStringAttribute(e->ctx, "target-features", 15, features,
                                                        (unsigned)strlen(features));
    LLVMAttributeRef a_inline = LLVMCreateEnumAttribute(e->ctx, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0);
    for (LLVMValueRef f = LLVMGetFirstFunction(e->mod); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a_cpu);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a_feat);
        size_t n;
        const char *name = LLVMGetValueName2(f, &n);
        if ((n > 8 && memcmp(name, "isa_sem_", 8) == 0) || strcmp(name, "isa_extend_dst") == 0)
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a_inline);
    }
    /* The host has run isa/'s constructors (its name tables); the copy's
     * would fill the copy's tables, which nothing here reads. */
    LLVMValueRef ctors = LLVMGetNamedGlobal(e->mod, "llvm.global_ctors");
    if (ctors)
        LLVMDeleteGlobal(ctors);
    for (LLVMValueRef g = LLVMGetFirstGlobal(e->mod); g; g = LLVMGetNextGlobal(g)) {
        size_t n;
        const char *name = LLVMGetValueName2(g, &n);
        if (!LLVMIsDeclaration(g) && strncmp(name, "llvm.", 5) != 0)
            LLVMSetLinkage(g, LLVMInternalLinkage);
    }
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
}

/* One unit as it is emitted: its function's values, and the LLVM blocks
 * each of its PTX blocks is entered at. */
typedef struct unit_emit {
    const isa_inst *code;
    const uint8_t *leader;
    uint32_t start, end;
    LLVMValueRef w, clock, run, preds;
    LLVMValueRef mask_slot;     /* the lane mask, kept for read_once */
    LLVMValueRef mask;          /* the lane mask, as the block being emitted read it */
    LLVMValueRef insts, writes;                 /* allocas */
    LLVMValueRef space[ISA_SPACE_COUNT];         /* allocas, NULL for a space the unit never uses */
    LLVMValueRef mem_ops;                        /* run->mem_ops */
    LLVMBasicBlockRef *check;   /* by pc - start: checks the stop pc, then the budget */
    LLVMBasicBlockRef *fit;     /* by pc - start: checks the budget (the switch's way in) */
} unit_emit;

static LLVMValueRef at(emit *e, LLVMValueRef base, size_t offset)
{
    LLVMValueRef off = c64(e, offset);
    return LLVMBuildGEP2(e->b, e->i8, base, &off, 1, "");
}

/* A value every block tests (the lane mask, the budget, the stop pc),
 * read afresh by each block that tests it.  Were it one value, each of
 * LLVM's known-bits queries on it would weigh every branch on it for
 * dominance -- a cost that grows with the square of the blocks (nvcc's
 * 548-case switch in samples/primitives/video_forms.cu: some 2,500
 * blocks, and InstCombine took 32 s of its compile, 3 s without).  The
 * reads are volatile so that no pass merges them back into one; each is
 * a load from the first-level cache, once a block. */
static LLVMValueRef read_once(emit *e, LLVMTypeRef type, LLVMValueRef from, const char *name)
{
    LLVMValueRef v = LLVMBuildLoad2(e->b, type, from, name);
    LLVMSetVolatile(v, 1);
    return v;
}

static void add_to(emit *e, LLVMValueRef slot, uint64_t n)
{
    LLVMBuildStore(e->b, LLVMBuildAdd(e->b, LLVMBuildLoad2(e->b, e->i64, slot, ""), c64(e, n), ""), slot);
}

/* Return to the interpreter at pc (a value), with what was counted.  Each
 * way out (one or more an instruction: a failure, a divergent branch, the
 * budget) stores the counts itself: one exit block shared by all of them
 * would merge each count in a phi with an incoming value per way out,
 * thousands in a large function, and LLVM's instruction combining and
 * register coalescing grow with the square of that (nvcc's 548-case
 * switch in samples/primitives/video_forms.cu: 4255 ways out, and 36 s of
 * an 81-second compile in the coalescer; docs/results/jit.md). */
static void leave(emit *e, unit_emit *u, LLVMValueRef pc)
{
    LLVMBuilderRef b = e->b;
    LLVMBuildStore(b, LLVMBuildLoad2(b, e->i64, u->insts, ""), at(e, u->run, offsetof(jit_run, insts)));
    LLVMBuildStore(b, LLVMBuildLoad2(b, e->i64, u->writes, ""), at(e, u->run, offsetof(jit_run, writes)));
    for (unsigned sp = 0; sp < ISA_SPACE_COUNT; sp++)
        if (u->space[sp]) {
            LLVMValueRef slot = at(e, u->mem_ops, sp * sizeof(uint64_t));
            LLVMValueRef sum = LLVMBuildAdd(b, LLVMBuildLoad2(b, e->i64, slot, ""),
                                            LLVMBuildLoad2(b, e->i64, u->space[sp], ""), "");
            LLVMBuildStore(b, sum, slot);
        }
    LLVMBuildRet(b, pc);
}

/* Go on at pc: its block when the unit has one there, else the interpreter. */
static void go_to(emit *e, unit_emit *u, uint32_t pc)
{
    if (jit_block_starts(u->code, u->start, u->end, u->leader, pc))
        LLVMBuildBr(e->b, u->check[pc - u->start]);
    else
        leave(e, u, c32(e, pc));
}

/* The instruction counts, as the interpreter keeps them, whether or not
 * the guard lets a lane run it; and the clock's tick before it runs. */
static void count(emit *e, unit_emit *u, const isa_inst *in, LLVMValueRef c0, uint32_t k)
{
    LLVMBuildStore(e->b, LLVMBuildAdd(e->b, c0, c64(e, k + 1), ""), u->clock);
    add_to(e, u->insts, 1);
    uint16_t fl = isa_ops[in->op].flags;
    if ((fl & ISA_F_MEM) && !(fl & ISA_F_CTRL)) {
        add_to(e, u->space[in->space], 1);
        /* (An atomic counts itself: host_execute.) */
        if (!(fl & ISA_F_ATOMIC) && (!(fl & ISA_F_LOAD) || (fl & ISA_F_STORE)))
            add_to(e, u->writes, 1);
    }
}

/* The lanes of mask whose guard is true (mask when there is no guard). */
static LLVMValueRef guarded(emit *e, unit_emit *u, const isa_inst *in)
{
    if (in->guard == ISA_NOREG)
        return u->mask;
    LLVMValueRef gi = c64(e, in->guard);
    LLVMValueRef g = LLVMBuildLoad2(e->b, e->i32, LLVMBuildGEP2(e->b, e->i32, u->preds, &gi, 1, ""), "");
    if (in->guard_neg)
        g = LLVMBuildNot(e->b, g, "");
    return LLVMBuildAnd(e->b, u->mask, g, "active");
}

/* A branch, the last instruction of its block: uniform ways run on in
 * compiled code; a divergent one returns before it runs. */
static void emit_branch(emit *e, LLVMValueRef fn, unit_emit *u, uint32_t pc, LLVMValueRef c0, uint32_t k)
{
    const isa_inst *in = &u->code[pc];
    LLVMValueRef taken = guarded(e, u, in);
    LLVMBasicBlockRef all = LLVMAppendBasicBlockInContext(e->ctx, fn, "taken"),
                      some = LLVMAppendBasicBlockInContext(e->ctx, fn, ""),
                      none = LLVMAppendBasicBlockInContext(e->ctx, fn, "fallthrough"),
                      split = LLVMAppendBasicBlockInContext(e->ctx, fn, "diverges");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, taken, u->mask, ""), all, some);
    LLVMPositionBuilderAtEnd(e->b, all);
    count(e, u, in, c0, k);
    go_to(e, u, in->target);
    LLVMPositionBuilderAtEnd(e->b, some);
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, taken, c32(e, 0), ""), none, split);
    LLVMPositionBuilderAtEnd(e->b, none);
    count(e, u, in, c0, k);
    go_to(e, u, pc + 1);
    LLVMPositionBuilderAtEnd(e->b, split);
    leave(e, u, c32(e, pc));
}

/* One instruction other than a branch; the builder is left where the next
 * one goes. */
static bool emit_inst(emit *e, LLVMValueRef fn, unit_emit *u, uint32_t pc, LLVMValueRef c0, uint32_t k)
{
    const isa_inst *in = &u->code[pc];
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
    count(e, u, in, c0, k);
    LLVMValueRef active = guarded(e, u, in);
    if (in->guard != ISA_NOREG) {
        LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
        LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, active, c32(e, 0), ""), run, next);
        LLVMPositionBuilderAtEnd(e->b, run);
    }
    LLVMValueRef s;
    /* The instruction, byte for byte, as a constant of the module. */
    LLVMValueRef inst = LLVMAddGlobal(e->mod, LLVMArrayType2(e->i8, sizeof *in), "");
    LLVMSetInitializer(inst, LLVMConstStringInContext2(e->ctx, (const char *)in, sizeof *in, 1));
    LLVMSetGlobalConstant(inst, 1);
    LLVMSetLinkage(inst, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(inst, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(inst, _Alignof(isa_inst));
    if (e->quick || host_call(in)) {
        LLVMValueRef args[3] = { u->w, inst, active };
        s = LLVMBuildCall2(e->b, e->sem_type, e->host_fn, args, 3, "");
    } else {
        LLVMValueRef sem = LLVMGetNamedFunction(e->mod, sem_names[in->op]);
        if (!sem) {
            snprintf(e->err, e->errlen, "the semantics bitcode lacks %s", sem_names[in->op]);
            return false;
        }
        LLVMValueRef args[3] = { u->w, inst, active };
        s = LLVMBuildCall2(e->b, e->sem_type, sem, args, 3, "");
        if (in->opd[0].ext) {
            LLVMBasicBlockRef ext = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
            LLVMBasicBlockRef joined = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
            LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, s, c32(e, PTX_OK), ""), ext, joined);
            LLVMPositionBuilderAtEnd(e->b, ext);
            LLVMValueRef extend = LLVMGetNamedFunction(e->mod, "isa_extend_dst");
            if (!extend) {
                snprintf(e->err, e->errlen, "the semantics bitcode lacks isa_extend_dst");
                return false;
            }
            LLVMBuildCall2(e->b, e->extend_type, extend, args, 3, "");
            LLVMBuildBr(e->b, joined);
            LLVMPositionBuilderAtEnd(e->b, joined);
        }
    }
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(e->ctx, fn, "fail");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, s, c32(e, PTX_OK), ""), next, fail);
    LLVMPositionBuilderAtEnd(e->b, fail);
    LLVMBuildStore(e->b, s, at(e, u->run, offsetof(jit_run, st)));
    leave(e, u, c32(e, pc));
    LLVMPositionBuilderAtEnd(e->b, next);
    return true;
}

/* The PTX block at pc: its length, and whether it ends in a branch. */
static uint32_t block_length(const unit_emit *u, uint32_t pc, bool *branches)
{
    uint32_t n = 0;
    *branches = false;
    for (uint32_t at = pc; at < u->end; at++) {
        n++;
        if (u->code[at].op == ISA_OP_BRA) {
            *branches = true;
            break;
        }
        if (at + 1 >= u->end || !jit_inst_compilable(&u->code[at + 1]) || u->leader[at + 1])
            break;
    }
    return n;
}

/* The function of the unit [start, start + n). */
static LLVMValueRef emit_unit(emit *e, const isa_inst *code, const uint8_t *leader, uint32_t start, uint32_t n,
                              const char *name)
{
    LLVMValueRef fn = LLVMAddFunction(e->mod, name, e->fn_type);
    LLVMBuilderRef b = e->b;
    unit_emit u = { .code = code, .leader = leader, .start = start, .end = start + n,
                    .w = LLVMGetParam(fn, 0), .clock = LLVMGetParam(fn, 3), .run = LLVMGetParam(fn, 4) };
    LLVMValueRef entry_pc = LLVMGetParam(fn, 2);
    u.check = calloc(n, sizeof *u.check);
    u.fit = calloc(n, sizeof *u.fit);
    if (!u.check || !u.fit) {
        snprintf(e->err, e->errlen, "out of host memory");
        free(u.check);
        free(u.fit);
        return NULL;
    }
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(e->ctx, fn, "entry");
    LLVMPositionBuilderAtEnd(b, entry);
    u.insts = LLVMBuildAlloca(b, e->i64, "insts");
    u.writes = LLVMBuildAlloca(b, e->i64, "writes");
    u.mask_slot = LLVMBuildAlloca(b, e->i32, "mask");
    LLVMBuildStore(b, LLVMGetParam(fn, 1), u.mask_slot);
    LLVMBuildStore(b, c64(e, 0), u.insts);
    LLVMBuildStore(b, c64(e, 0), u.writes);
    uint32_t blocks = 0;
    for (uint32_t pc = start; pc < u.end; pc++) {
        const isa_inst *in = &code[pc];
        if ((isa_ops[in->op].flags & ISA_F_MEM) && !(isa_ops[in->op].flags & ISA_F_CTRL) &&
            jit_inst_compilable(in) && !u.space[in->space]) {
            u.space[in->space] = LLVMBuildAlloca(b, e->i64, isa_space_names[in->space]);
            LLVMBuildStore(b, c64(e, 0), u.space[in->space]);
        }
        if (jit_block_starts(code, start, u.end, leader, pc)) {
            u.check[pc - start] = LLVMAppendBasicBlockInContext(e->ctx, fn, "check");
            u.fit[pc - start] = LLVMAppendBasicBlockInContext(e->ctx, fn, "fit");
            blocks++;
        }
    }
    u.mem_ops = LLVMBuildLoad2(b, e->ptr, at(e, u.run, offsetof(jit_run, mem_ops)), "mem_ops");
    /* The predicate file does not move inside a unit (only calls and
     * returns change the register window). */
    u.preds = LLVMBuildLoad2(b, e->ptr, at(e, u.w, offsetof(isa_warp, p)), "p");
    LLVMBasicBlockRef elsewhere = LLVMAppendBasicBlockInContext(e->ctx, fn, "elsewhere");
    LLVMValueRef sw = LLVMBuildSwitch(b, entry_pc, elsewhere, blocks);
    LLVMPositionBuilderAtEnd(b, elsewhere);
    leave(e, &u, entry_pc);

    for (uint32_t pc = start; pc < u.end; pc++) {
        if (!u.check[pc - start])
            continue;
        LLVMAddCase(sw, c32(e, pc), u.fit[pc - start]);
        bool branches;
        uint32_t len = block_length(&u, pc, &branches);
        /* Entered from another block: the warp's reconvergence point ends
         * the run, as the interpreter would switch to other lanes there. */
        LLVMPositionBuilderAtEnd(b, u.check[pc - start]);
        LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(e->ctx, fn, "stop");
        LLVMValueRef stop_pc = read_once(e, e->i32, at(e, u.run, offsetof(jit_run, stop_pc)), "stop");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, stop_pc, c32(e, pc), ""), stop, u.fit[pc - start]);
        LLVMPositionBuilderAtEnd(b, stop);
        leave(e, &u, c32(e, pc));
        /* The whole block must fit the budget. */
        LLVMPositionBuilderAtEnd(b, u.fit[pc - start]);
        LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(e->ctx, fn, "body"),
                          spent = LLVMAppendBasicBlockInContext(e->ctx, fn, "spent");
        LLVMValueRef after = LLVMBuildAdd(b, LLVMBuildLoad2(b, e->i64, u.insts, ""), c64(e, len), "");
        LLVMValueRef budget = read_once(e, e->i64, at(e, u.run, offsetof(jit_run, budget)), "budget");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, after, budget, ""), spent, body);
        LLVMPositionBuilderAtEnd(b, spent);
        leave(e, &u, c32(e, pc));
        LLVMPositionBuilderAtEnd(b, body);
        u.mask = read_once(e, e->i32, u.mask_slot, "mask");
        LLVMValueRef c0 = LLVMBuildLoad2(b, e->i64, u.clock, "clock");
        for (uint32_t k = 0; k < len; k++) {
            if (branches && k == len - 1) {
                emit_branch(e, fn, &u, pc + k, c0, k);
                break;
            }
            if (!emit_inst(e, fn, &u, pc + k, c0, k)) {
                free(u.check);
                free(u.fit);
                return NULL;
            }
            if (k == len - 1)
                go_to(e, &u, pc + k + 1);
        }
    }
    free(u.check);
    free(u.fit);
    return fn;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- keys, the disk cache, and loading -------------------------------- */

/* The key of a batch of units: J.base, the level, then each unit's
 * instructions and leaders (what emit_unit reads of the code).  A unit's
 * own key is that of the batch of it alone. */
static jit_key key_of(jit_level level, const isa_inst *code, const uint8_t *leader, const jit_unit *units,
                      uint32_t nr)
{
    jit_key k = J.base;
    uint32_t lv = level;
    mix(&k, &lv, sizeof lv);
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t span[2] = { units[r].start, units[r].n };
        mix(&k, span, sizeof span);
        mix(&k, &code[units[r].start], units[r].n * sizeof *code);
        mix(&k, &leader[units[r].start], units[r].n);
    }
    return k;
}

static bool same_key(const jit_key *a, const jit_key *b) { return a->h[0] == b->h[0] && a->h[1] == b->h[1]; }

static void unit_name(char *out, size_t n, const jit_key *k, uint32_t start)
{
    snprintf(out, n, "ptxsim_%016llx%016llx_%u", (unsigned long long)k->h[0], (unsigned long long)k->h[1], start);
}

static bool is_loaded(const jit_key *k)
{
    for (uint32_t i = 0; i < J.nloaded; i++)
        if (same_key(&J.loaded[i], k))
            return true;
    return false;
}

static bool remember(const jit_key *k)
{
    if (J.nloaded == J.loaded_cap) {
        uint32_t cap = J.loaded_cap ? 2 * J.loaded_cap : 16;
        jit_key *grown = realloc(J.loaded, cap * sizeof *grown);
        if (!grown)
            return false;
        J.loaded = grown;
        J.loaded_cap = cap;
    }
    J.loaded[J.nloaded++] = *k;
    return true;
}

/* The disk cache keeps at most this much; the files least recently
 * written go first. */
#define CACHE_BYTES (256ull << 20)

/* The disk cache's folder, made if need be: PTXSIM_JIT_CACHE ("off": no
 * cache), else $XDG_CACHE_HOME/ptxsim/jit, else ~/.cache/ptxsim/jit.  NULL
 * when there is none. */
static const char *cache_dir(void)
{
    static char dir[512];
    static int state;           /* 0: not looked yet, 1: dir, 2: none */
    if (state)
        return state == 1 ? dir : NULL;
    state = 2;
    const char *env = getenv("PTXSIM_JIT_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && (strcmp(env, "off") == 0 || strcmp(env, "0") == 0))
        return NULL;
    int n = env && *env ? snprintf(dir, sizeof dir, "%s", env)
          : xdg && *xdg ? snprintf(dir, sizeof dir, "%s/ptxsim/jit", xdg)
          : home && *home ? snprintf(dir, sizeof dir, "%s/.cache/ptxsim/jit", home) : -1;
    if (n <= 0 || (size_t)n >= sizeof dir)
        return NULL;
    /* mkdir -p */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return NULL;
    state = 1;
    return dir;
}

/* The folder holds two kinds of file, each named by a key: KEY.o, the
 * object of the batch with that key, and KEY.u, the key of the batch
 * whose object holds the unit with that key (find_home). */
#define OBJECT ".o"
#define INDEX ".u"

static bool cache_path(char *out, size_t n, const jit_key *k, const char *kind)
{
    const char *dir = cache_dir();
    return dir && snprintf(out, n, "%s/%016llx%016llx%s", dir, (unsigned long long)k->h[0],
                           (unsigned long long)k->h[1], kind) < (int)n;
}

static bool cached_file(const char *name)
{
    size_t len = strlen(name);
    return len > 2 && (strcmp(name + len - 2, OBJECT) == 0 || strcmp(name + len - 2, INDEX) == 0);
}

/* Delete the oldest files until the folder holds CACHE_BYTES or less. */
static void cache_trim(void)
{
    const char *dir = cache_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return;
    for (;;) {
        unsigned long long total = 0;
        time_t oldest = 0;
        char victim[600] = "";
        rewinddir(d);
        for (struct dirent *de; (de = readdir(d));) {
            if (!cached_file(de->d_name))
                continue;
            char path[600];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            if (stat(path, &st) != 0)
                continue;
            total += (unsigned long long)st.st_size;
            if (!*victim || st.st_mtime < oldest) {
                oldest = st.st_mtime;
                snprintf(victim, sizeof victim, "%s", path);
            }
        }
        if (total <= CACHE_BYTES || !*victim || unlink(victim) != 0)
            break;
    }
    closedir(d);
}

/* A cached file's trailer: the hash of its bytes, which a reader checks
 * before using them (a damaged object could stop the process inside
 * LLVM; a damaged index would name the wrong object). */
static jit_key seal(const void *bytes, size_t n)
{
    jit_key k = { { 1, 2 } };
    mix(&k, bytes, n);
    return k;
}

/* Whether a file's bytes[0, n) end in the seal of the bytes before it
 * (cache_write put it there). */
static bool sealed(const void *bytes, size_t n)
{
    jit_key want, have;
    if (n <= sizeof have)
        return false;
    want = seal(bytes, n - sizeof have);
    memcpy(&have, (const char *)bytes + n - sizeof have, sizeof have);
    return same_key(&want, &have);
}

/* Keep bytes[0, n) and their seal under k: written to a file of its own
 * and renamed into place, so a reader never sees half of one.  (The
 * compile that writes files trims the folder once it is done.) */
static void cache_write(const jit_key *k, const char *kind, const void *bytes, size_t n)
{
    char path[600], tmp[640];
    if (!cache_path(path, sizeof path, k, kind))
        return;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    jit_key check = seal(bytes, n);
    bool ok = fwrite(bytes, 1, n, f) == n && fwrite(&check, sizeof check, 1, f) == 1;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

static void cache_forget(const jit_key *k, const char *kind)
{
    char path[600];
    if (cache_path(path, sizeof path, k, kind))
        unlink(path);
}

/* The object kept under k, its trailer checked (a file that fails the
 * check is deleted); NULL when there is none. */
static LLVMMemoryBufferRef cache_read(const jit_key *k)
{
    char path[600];
    LLVMMemoryBufferRef file = NULL;
    char *msg = NULL;
    if (!cache_path(path, sizeof path, k, OBJECT) || access(path, R_OK) != 0)
        return NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &file, &msg)) {
        LLVMDisposeMessage(msg);
        return NULL;
    }
    size_t n = LLVMGetBufferSize(file);
    const char *bytes = LLVMGetBufferStart(file);
    LLVMMemoryBufferRef obj = sealed(bytes, n)
                            ? LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes, n - sizeof(jit_key), "ptxsim-jit-cache")
                            : NULL;
    LLVMDisposeMemoryBuffer(file);
    if (!obj)
        unlink(path);
    return obj;
}

/* The batch key the index file of unit key u names, checked against its
 * seal (a file that fails is deleted). */
static bool index_read(const jit_key *u, jit_key *batch)
{
    char path[600];
    if (!cache_path(path, sizeof path, u, INDEX))
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    jit_key entry[2];
    bool ok = fread(entry, sizeof *entry, 2, f) == 2 && fgetc(f) == EOF;
    fclose(f);
    if (ok && sealed(entry, sizeof entry)) {
        *batch = entry[0];
        return true;
    }
    unlink(path);
    return false;
}

/* A batch's key covers all of its units, and which units a compile batches
 * depends on when each earned its compile, so a unit is found by its own
 * key: in this process, where it was loaded (J.homes); on disk, a batch of
 * it alone (u.o) or the index its batch left (u.u).  *batch: the key of
 * the batch that holds it, whose object this process has loaded or the
 * disk cache holds. */
static bool find_home(const jit_key *u, jit_key *batch)
{
    bool found = false;
    pthread_mutex_lock(&J.homes_lock);
    for (uint32_t i = 0; i < J.nhomes && !found; i++)
        if (same_key(&J.homes[i].unit, u)) {
            *batch = J.homes[i].batch;
            found = true;
        }
    pthread_mutex_unlock(&J.homes_lock);
    if (found)
        return true;
    char path[600];
    *batch = *u;
    if (cache_path(path, sizeof path, u, OBJECT) && access(path, R_OK) == 0)
        return true;
    return index_read(u, batch) && cache_path(path, sizeof path, batch, OBJECT) && access(path, R_OK) == 0;
}

/* Unit key u is loaded, in the batch with key batch; a batch of several
 * also leaves an index for later runs. */
static void settle_home(const jit_key *u, const jit_key *batch, bool several)
{
    pthread_mutex_lock(&J.homes_lock);
    for (uint32_t i = 0; i < J.nhomes; i++)
        if (same_key(&J.homes[i].unit, u)) {
            pthread_mutex_unlock(&J.homes_lock);
            return;
        }
    if (J.nhomes == J.homes_cap) {
        uint32_t cap = J.homes_cap ? 2 * J.homes_cap : 16;
        struct home *grown = realloc(J.homes, cap * sizeof *grown);
        if (grown) {
            J.homes = grown;
            J.homes_cap = cap;
        }
    }
    if (J.nhomes < J.homes_cap)     /* else a later compile looks on disk, or compiles it again */
        J.homes[J.nhomes++] = (struct home){ *u, *batch };
    pthread_mutex_unlock(&J.homes_lock);
    if (several) {
        jit_key entry[1] = { *batch };
        cache_write(u, INDEX, entry, sizeof entry);
    }
}

bool jit_is_cached(jit_level level, const isa_inst *code, const uint8_t *leader, uint32_t start, uint32_t n)
{
    if (!jit_available(NULL))
        return false;
    jit_unit unit = { start, n, NULL };
    jit_key u = key_of(level, code, leader, &unit, 1), batch;
    return find_home(&u, &batch);
}

/* PTXSIM_JIT_FAULT=llvm (for the tests): a function LLVM cannot generate
 * code for on this host (it reads an NVPTX register), so that the compile
 * ends in one of LLVM's fatal errors, as a bug in LLVM would. */
static void plant_fatal(emit *e)
{
    LLVMTypeRef type = LLVMFunctionType(e->i32, NULL, 0, 0);
    LLVMValueRef tid = LLVMAddFunction(e->mod, "llvm.nvvm.read.ptx.sreg.tid.x", type);
    LLVMValueRef fn = LLVMAddFunction(e->mod, "ptxsim_planted_fault", type);
    LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->ctx, fn, "entry"));
    LLVMBuildRet(e->b, LLVMBuildCall2(e->b, type, tid, NULL, 0, ""));
}

/* The units compiled to an object file (in memory), their functions
 * named by k; NULL on failure, with why in err. */
static LLVMMemoryBufferRef compile_object(jit_level level, const isa_inst *code, const uint8_t *leader,
                                          const jit_unit *units, uint32_t nr, const jit_key *k, char *err,
                                          size_t errlen)
{
    emit e = { .err = err, .errlen = errlen, .quick = level == JIT_QUICK };
    LLVMMemoryBufferRef obj = NULL;
    e.ctx = LLVMContextCreate();
    if (e.quick)
        e.mod = LLVMModuleCreateWithNameInContext("units", e.ctx);
    else {
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
            (const char *)jit_sem_bitcode, (size_t)(jit_sem_bitcode_end - jit_sem_bitcode), "isa", 0);
        if (LLVMParseBitcodeInContext2(e.ctx, buf, &e.mod)) {
            snprintf(err, errlen, "cannot read the semantics bitcode");
            LLVMDisposeMemoryBuffer(buf);
            LLVMContextDispose(e.ctx);
            return NULL;
        }
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMSetTarget(e.mod, LLVMOrcLLJITGetTripleString(J.jit));
    LLVMSetDataLayout(e.mod, LLVMOrcLLJITGetDataLayoutStr(J.jit));
    if (!e.quick)
        adopt_bitcode(&e);

    e.i8 = LLVMInt8TypeInContext(e.ctx);
    e.i32 = LLVMInt32TypeInContext(e.ctx);
    e.i64 = LLVMInt64TypeInContext(e.ctx);
    e.ptr = LLVMPointerTypeInContext(e.ctx, 0);
    LLVMTypeRef fparams[5] = { e.ptr, e.i32, e.i32, e.ptr, e.ptr }, sparams[3] = { e.ptr, e.ptr, e.i32 };
    e.fn_type = LLVMFunctionType(e.i32, fparams, 5, 0);
    e.sem_type = LLVMFunctionType(e.i32, sparams, 3, 0);
    e.extend_type = LLVMFunctionType(LLVMVoidTypeInContext(e.ctx), sparams, 3, 0);
    e.host_fn = LLVMAddFunction(e.mod, HOST_EXECUTE, e.sem_type);
    e.b = LLVMCreateBuilderInContext(e.ctx);
    char name[80];
    bool emitted = true;
    for (uint32_t r = 0; r < nr && emitted; r++) {
        unit_name(name, sizeof name, k, units[r].start);
        emitted = emit_unit(&e, code, leader, units[r].start, units[r].n, name) != NULL;
    }
    const char *fault = getenv("PTXSIM_JIT_FAULT");
    if (emitted && fault && strcmp(fault, "llvm") == 0)
        plant_fatal(&e);
    LLVMDisposeBuilder(e.b);
    char *msg = NULL;
    if (!emitted)
        goto done;
    if (LLVMVerifyModule(e.mod, LLVMReturnStatusAction, &msg)) {
        snprintf(err, errlen, "compiled units are not valid IR: %.200s", msg ? msg : "?");
        goto done;
    }
    LLVMDisposeMessage(msg);
    msg = NULL;
    /* PTXSIM_JIT_DUMP_IN=FILE: the module before its passes, as bitcode,
     * for LLVM's tools (opt -time-passes says where a compile's time goes). */
    const char *dump_in = getenv("PTXSIM_JIT_DUMP_IN");
    if (dump_in && *dump_in)
        LLVMWriteBitcodeToFile(e.mod, dump_in);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef le = LLVMRunPasses(e.mod, e.quick ? QUICK_PASSES : PASSES, J.tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (le) {
        take_error(le, err, errlen, "optimising the units");
        goto done;
    }
    /* PTXSIM_JIT_DUMP=FILE: the optimised module, for reading what a unit became. */
    const char *dump = getenv("PTXSIM_JIT_DUMP");
    if (dump && *dump && LLVMPrintModuleToFile(e.mod, dump, &msg)) {
        fprintf(stderr, "ptxsim: PTXSIM_JIT_DUMP: %s\n", msg);
        LLVMDisposeMessage(msg);
    }
    msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(e.quick ? J.quick_tm : J.emit_tm, e.mod, LLVMObjectFile, &msg, &obj)) {
        snprintf(err, errlen, "generating the units' code: %.200s", msg ? msg : "?");
        obj = NULL;
    }
done:
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(e.mod);
    LLVMContextDispose(e.ctx);
    return obj;
}

/* Point each unit at its function (loaded under k's names). */
static bool look_up(const jit_key *k, jit_unit *units, uint32_t nr, char *err, size_t errlen)
{
    jit_fn **fns = malloc(nr * sizeof *fns);
    if (!fns) {
        snprintf(err, errlen, "out of host memory");
        return false;
    }
    char name[80];
    for (uint32_t r = 0; r < nr; r++) {
        unit_name(name, sizeof name, k, units[r].start);
        LLVMOrcExecutorAddress addr;
        LLVMErrorRef le = LLVMOrcLLJITLookup(J.jit, &addr, name);
        if (le) {
            take_error(le, err, errlen, "loading the units' code");
            free(fns);
            return false;
        }
        fns[r] = (jit_fn *)(uintptr_t)addr;
    }
    for (uint32_t r = 0; r < nr; r++)
        units[r].fn = fns[r];
    free(fns);
    return true;
}

typedef enum { LOAD_OK, LOAD_ABSENT, LOAD_FAILED } load_result;

/* Batch k loaded into the JIT: it already is, or its object is read from
 * the disk cache, or (units given) compiled now and kept there.  *cached:
 * whether no compile was needed.  LOAD_ABSENT: no units were given and no
 * cache has it; LOAD_FAILED: why is in err. */
static load_result load_batch(const jit_key *k, jit_level level, const isa_inst *code, const uint8_t *leader,
                              const jit_unit *units, uint32_t nr, bool *cached, char *err, size_t errlen)
{
    *cached = true;
    if (is_loaded(k))
        return LOAD_OK;
    LLVMMemoryBufferRef obj = cache_read(k);
    *cached = obj != NULL;
    if (!obj && !units)
        return LOAD_ABSENT;
    if (!obj) {
        if (!(obj = compile_object(level, code, leader, units, nr, k, err, errlen)))
            return LOAD_FAILED;
        cache_write(k, OBJECT, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj));
    }
    LLVMErrorRef le = LLVMOrcLLJITAddObjectFile(J.jit, LLVMOrcLLJITGetMainJITDylib(J.jit), obj);
    if (le || !remember(k)) {
        if (le)
            take_error(le, err, errlen, "adding the units to the JIT");
        else
            snprintf(err, errlen, "out of host memory");
        if (*cached)
            cache_forget(k, OBJECT);        /* the next run compiles afresh */
        return LOAD_FAILED;
    }
    return LOAD_OK;
}

/* Compile (or take from the caches) units[0, nr) at level: each unit made
 * before, by an earlier compile in this process or an earlier run, is
 * taken from the batch it was made in; the rest are compiled as one. */
static jit_code *compile_locked(jit_level level, const isa_inst *code, const uint8_t *leader, jit_unit *units,
                                uint32_t nr, char *err, size_t errlen)
{
    double t0 = now_s();
    jit_code *c = calloc(1, sizeof *c);
    jit_unit *rest = malloc((nr ? nr : 1) * sizeof *rest);
    uint32_t *at = malloc((nr ? nr : 1) * sizeof *at);
    jit_key *keys = malloc((nr ? nr : 1) * sizeof *keys);
    bool ok = c && rest && at && keys;
    if (!ok)
        snprintf(err, errlen, "out of host memory");
    uint32_t nrest = 0, rest_insts = 0;
    for (uint32_t r = 0; r < nr && ok; r++) {
        c->insts += units[r].n;
        keys[r] = key_of(level, code, leader, &units[r], 1);
        jit_key home;
        bool cached;
        load_result got = find_home(&keys[r], &home)
                        ? load_batch(&home, level, code, leader, NULL, 0, &cached, err, errlen) : LOAD_ABSENT;
        if (got == LOAD_ABSENT) {
            rest[nrest] = units[r];
            at[nrest++] = r;
            rest_insts += units[r].n;
        } else if ((ok = got == LOAD_OK && look_up(&home, &units[r], 1, err, errlen))) {
            c->cached_insts += units[r].n;
            settle_home(&keys[r], &home, false);
        }
    }
    if (ok && nrest) {
        jit_key k = key_of(level, code, leader, rest, nrest);
        bool cached;
        ok = load_batch(&k, level, code, leader, rest, nrest, &cached, err, errlen) == LOAD_OK;
        if (ok && !(ok = look_up(&k, rest, nrest, err, errlen)) && cached)
            cache_forget(&k, OBJECT);
        for (uint32_t i = 0; i < nrest && ok; i++) {
            units[at[i]].fn = rest[i].fn;
            settle_home(&keys[at[i]], &k, nrest > 1);
        }
        if (ok && cached)
            c->cached_insts += rest_insts;
        if (!cached)
            cache_trim();       /* once, after the object and its index files */
    }
    free(rest);
    free(at);
    free(keys);
    if (!ok) {
        free(c);
        return NULL;
    }
    c->seconds = now_s() - t0;
    return c;
}

static void *compile_thread(void *arg)
{
    compile_job *job = arg;
    current_job = job;
    jit_code *c = compile_locked(job->level, job->code, job->leader, job->units, job->n, job->err, job->errlen);
    pthread_mutex_lock(&J.job_lock);
    job->result = c;
    job->done = true;
    pthread_cond_broadcast(&J.job_done);
    pthread_mutex_unlock(&J.job_lock);
    return NULL;
}

jit_code *jit_compile(jit_level level, const isa_inst *code, const uint8_t *leader, jit_unit *units, uint32_t n,
                      char *err, size_t errlen)
{
    const char *why;
    if (!jit_available(&why)) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    pthread_mutex_lock(&J.lock);
    compile_job job = { level, code, leader, units, n, err, errlen, NULL, false };
    pthread_mutex_lock(&J.job_lock);
    bool broken = J.broken;
    pthread_mutex_unlock(&J.job_lock);
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (broken)
        snprintf(err, errlen, "LLVM failed earlier in this process: %s", J.fatal);
    else if (pthread_create(&t, &attr, compile_thread, &job) != 0) {
        job.result = compile_locked(level, code, leader, units, n, err, errlen);   /* here, unguarded */
        job.done = true;
    }
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&J.job_lock);
    while (!broken && !job.done)
        pthread_cond_wait(&J.job_done, &J.job_lock);
    pthread_mutex_unlock(&J.job_lock);
    pthread_mutex_unlock(&J.lock);
    return job.result;
}

/* The code stays loaded (see jit_key): another program may share it. */
void jit_free(jit_code *c) { free(c); }

double jit_compile_seconds(const jit_code *c) { return c->seconds; }
uint32_t jit_compiled_insts(const jit_code *c) { return c->insts; }
uint32_t jit_cached_insts(const jit_code *c) { return c->cached_insts; }

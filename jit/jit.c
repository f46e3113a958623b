/*
 * jit.c -- regions of PTX compiled through libLLVM's ORC LLJIT (see jit.h).
 *
 * One compile turns every region of a program into one LLVM module:
 *
 *   - the module starts as a copy of isa/ in bitcode (sem_bitcode.c embeds
 *     it), every definition made internal, so what no region reaches is
 *     deleted and what one reaches is inlined;
 *   - each instruction of a region is a private constant holding its
 *     isa_inst, byte for byte, and a call of isa_sem_<op>(w, &inst, active)
 *     -- then isa_extend_dst, as isa_execute does;
 *   - default<O2> inlines the calls, folds every load from the constant
 *     instruction (its type, modifiers, operand kinds and registers) and
 *     vectorises what remains of the lane loops.
 *
 * A region function keeps the interpreter's bookkeeping exactly: the clock
 * ticks once per instruction before it runs, a guard whose lanes are all
 * false skips the call, and a failed instruction returns at once with its
 * status, the instructions before it done.
 */
#include "jit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The optimisation pipeline: the module's unreachable semantics deleted
 * first, then LLVM's standard -O1, whose inliner and constant folding do
 * the specialising.  -O2 costs about 1.5x the compile time for no speed
 * measurable on the samples (its loop vectoriser has little left to do
 * once the lane loops are folded). */
#define PASSES "globaldce,default<O1>"

/* isa/ as bitcode (sem_bitcode.c). */
extern const unsigned char jit_sem_bitcode[], jit_sem_bitcode_end[];

struct jit_code {
    uint32_t insts;
    double seconds;
    LLVMOrcResourceTrackerRef rt;   /* frees the machine code with the result */
};

/* The process's one JIT, made on first use. */
static struct {
    pthread_once_t once;
    pthread_mutex_t lock;           /* one compile at a time */
    LLVMOrcLLJITRef jit;
    LLVMTargetMachineRef tm;        /* the host, for the optimisation passes */
    char why[256];                  /* set when the JIT could not be made */
    uint64_t serial;                /* names modules' functions apart */
} J = { PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, NULL, NULL, "", 0 };

static void take_error(LLVMErrorRef e, char *out, size_t n, const char *what)
{
    char *msg = LLVMGetErrorMessage(e);
    snprintf(out, n, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
}

static void jit_init(void)
{
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
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!gen_tm)
        return;
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(gen_tm));
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
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(J.jit), gen);
}

bool jit_available(const char **why)
{
    pthread_once(&J.once, jit_init);
    if (why)
        *why = J.jit ? NULL : J.why;
    return J.jit != NULL;
}

bool jit_inst_compilable(const isa_inst *in)
{
    return !(isa_ops[in->op].flags & ISA_F_CTRL) && in->op != ISA_OP_MBARRIER;
}

/* Instructions the region calls in the host instead of inlining: directed
 * rounding switches the host's rounding mode around a lane loop, which
 * code compiled without -frounding-math must not see (LLVM would move
 * float operations across the switch); textures, matrix operations, bulk
 * copies and atomics are large and gain nothing from folding. */
static bool host_call(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    if (fl & (ISA_F_IMAGE | ISA_F_MATRIX | ISA_F_ATOMIC))
        return true;
    if (in->op == ISA_OP_CP)
        return true;
    switch (in->rnd) {
    case ISA_RND_RZ: case ISA_RND_RM: case ISA_RND_RP: return true;
    case ISA_RND_NONE: case ISA_RND_RN: return false;
    default: return in->op != ISA_OP_CVT;     /* cvt's integer roundings use trunc, floor, ceil */
    }
}

/* What a host call runs: the interpreter's own step (isa_execute). */
static ptx_status host_execute(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    return isa_execute(w, in, mask);
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
    LLVMValueRef host_fn;           /* host_execute, as a constant pointer */
    char *err;
    size_t errlen;
} emit;

static LLVMValueRef c32(emit *e, uint64_t v) { return LLVMConstInt(e->i32, v, 0); }
static LLVMValueRef c64(emit *e, uint64_t v) { return LLVMConstInt(e->i64, v, 0); }
static LLVMValueRef host_ptr(emit *e, const void *p)
{
    return LLVMConstIntToPtr(c64(e, (uint64_t)(uintptr_t)p), e->ptr);
}

/* Make the bitcode's definitions the module's own (internal, so the
 * unreachable ones go) and compile them for the host CPU; the semantic
 * functions are always inlined into the regions. */
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

/* The function of the region [start, start + n). */
static LLVMValueRef emit_region(emit *e, const isa_inst *code, uint32_t start, uint32_t n,
                                const char *name)
{
    LLVMValueRef fn = LLVMAddFunction(e->mod, name, e->fn_type);
    LLVMValueRef w = LLVMGetParam(fn, 0), mask = LLVMGetParam(fn, 1), clock = LLVMGetParam(fn, 2),
                 st = LLVMGetParam(fn, 3);
    LLVMBuilderRef b = e->b;
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(e->ctx, fn, "entry");
    LLVMPositionBuilderAtEnd(b, bb);
    LLVMValueRef c0 = LLVMBuildLoad2(b, e->i64, clock, "clock");
    /* The predicate file does not move inside a region (only calls and
     * returns change the register window). */
    LLVMValueRef poff = c64(e, offsetof(isa_warp, p));
    LLVMValueRef preds = LLVMBuildLoad2(b, e->ptr, LLVMBuildGEP2(b, e->i8, w, &poff, 1, ""), "p");
    for (uint32_t i = 0; i < n; i++) {
        const isa_inst *in = &code[start + i];
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
        LLVMValueRef active = mask;
        if (in->guard != ISA_NOREG) {
            LLVMValueRef gi = c64(e, in->guard);
            LLVMValueRef g = LLVMBuildLoad2(b, e->i32, LLVMBuildGEP2(b, e->i32, preds, &gi, 1, ""), "");
            if (in->guard_neg)
                g = LLVMBuildNot(b, g, "");
            active = LLVMBuildAnd(b, mask, g, "active");
            LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, active, c32(e, 0), ""), run, next);
            LLVMPositionBuilderAtEnd(b, run);
        }
        LLVMBuildStore(b, LLVMBuildAdd(b, c0, c64(e, i + 1), ""), clock);
        LLVMValueRef s;
        if (host_call(in)) {
            LLVMValueRef args[3] = { w, host_ptr(e, in), active };
            s = LLVMBuildCall2(b, e->sem_type, e->host_fn, args, 3, "");
        } else {
            LLVMValueRef sem = LLVMGetNamedFunction(e->mod, sem_names[in->op]);
            if (!sem) {
                snprintf(e->err, e->errlen, "the semantics bitcode lacks %s", sem_names[in->op]);
                return NULL;
            }
            LLVMValueRef inst = LLVMAddGlobal(e->mod, LLVMArrayType2(e->i8, sizeof *in), "");
            LLVMSetInitializer(inst, LLVMConstStringInContext2(e->ctx, (const char *)in, sizeof *in, 1));
            LLVMSetGlobalConstant(inst, 1);
            LLVMSetLinkage(inst, LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(inst, LLVMGlobalUnnamedAddr);
            LLVMSetAlignment(inst, _Alignof(isa_inst));
            LLVMValueRef args[3] = { w, inst, active };
            s = LLVMBuildCall2(b, e->sem_type, sem, args, 3, "");
            if (in->opd[0].ext) {
                LLVMBasicBlockRef ext = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
                LLVMBasicBlockRef joined = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
                LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, s, c32(e, PTX_OK), ""), ext, joined);
                LLVMPositionBuilderAtEnd(b, ext);
                LLVMValueRef extend = LLVMGetNamedFunction(e->mod, "isa_extend_dst");
                if (!extend) {
                    snprintf(e->err, e->errlen, "the semantics bitcode lacks isa_extend_dst");
                    return NULL;
                }
                LLVMBuildCall2(b, e->extend_type, extend, args, 3, "");
                LLVMBuildBr(b, joined);
                LLVMPositionBuilderAtEnd(b, joined);
            }
        }
        LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(e->ctx, fn, "");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, s, c32(e, PTX_OK), ""), next, fail);
        LLVMPositionBuilderAtEnd(b, fail);
        LLVMBuildStore(b, s, st);
        LLVMBuildRet(b, c32(e, i));
        LLVMPositionBuilderAtEnd(b, next);
    }
    LLVMBuildStore(b, LLVMBuildAdd(b, c0, c64(e, n), ""), clock);
    LLVMBuildRet(b, c32(e, n));
    return fn;
}

uint32_t jit_find_regions(const isa_inst *code, uint32_t ncode, const uint8_t *leader, jit_region *out)
{
    uint32_t nr = 0;
    for (uint32_t pc = 0; pc < ncode;) {
        if (!jit_inst_compilable(&code[pc])) {
            pc++;
            continue;
        }
        uint32_t end = pc + 1;
        while (end < ncode && !leader[end] && jit_inst_compilable(&code[end]))
            end++;
        if (out)
            out[nr] = (jit_region){ pc, end - pc, NULL };
        nr++;
        pc = end;
    }
    return nr;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static jit_code *compile_locked(const isa_inst *code, jit_region *regions, uint32_t nr, char *err,
                                size_t errlen)
{
    double t0 = now_s();
    jit_code *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    for (uint32_t r = 0; r < nr; r++)
        c->insts += regions[r].n;
    if (!nr) {
        c->seconds = now_s() - t0;
        return c;
    }

    emit e = { .err = err, .errlen = errlen };
    e.ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
        (const char *)jit_sem_bitcode, (size_t)(jit_sem_bitcode_end - jit_sem_bitcode), "isa", 0);
    if (LLVMParseBitcodeInContext2(e.ctx, buf, &e.mod)) {
        snprintf(err, errlen, "cannot read the semantics bitcode");
        LLVMDisposeMemoryBuffer(buf);
        goto fail_ctx;
    }
    LLVMDisposeMemoryBuffer(buf);
    LLVMSetTarget(e.mod, LLVMOrcLLJITGetTripleString(J.jit));
    LLVMSetDataLayout(e.mod, LLVMOrcLLJITGetDataLayoutStr(J.jit));
    adopt_bitcode(&e);

    e.i8 = LLVMInt8TypeInContext(e.ctx);
    e.i32 = LLVMInt32TypeInContext(e.ctx);
    e.i64 = LLVMInt64TypeInContext(e.ctx);
    e.ptr = LLVMPointerTypeInContext(e.ctx, 0);
    LLVMTypeRef fparams[4] = { e.ptr, e.i32, e.ptr, e.ptr }, sparams[3] = { e.ptr, e.ptr, e.i32 };
    e.fn_type = LLVMFunctionType(e.i32, fparams, 4, 0);
    e.sem_type = LLVMFunctionType(e.i32, sparams, 3, 0);
    e.extend_type = LLVMFunctionType(LLVMVoidTypeInContext(e.ctx), sparams, 3, 0);
    e.host_fn = host_ptr(&e, (const void *)(uintptr_t)host_execute);
    e.b = LLVMCreateBuilderInContext(e.ctx);
    uint64_t serial = ++J.serial;
    char name[64];
    for (uint32_t r = 0; r < nr; r++) {
        snprintf(name, sizeof name, "ptxsim_%llu_%u", (unsigned long long)serial, regions[r].start);
        if (!emit_region(&e, code, regions[r].start, regions[r].n, name)) {
            LLVMDisposeBuilder(e.b);
            goto fail_mod;
        }
    }
    LLVMDisposeBuilder(e.b);
    char *msg = NULL;
    if (LLVMVerifyModule(e.mod, LLVMReturnStatusAction, &msg)) {
        snprintf(err, errlen, "compiled regions are not valid IR: %.200s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        goto fail_mod;
    }
    LLVMDisposeMessage(msg);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef le = LLVMRunPasses(e.mod, PASSES, J.tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (le) {
        take_error(le, err, errlen, "optimising the regions");
        goto fail_mod;
    }

    /* PTXSIM_JIT_DUMP=FILE: the optimised module, for reading what a region became. */
    const char *dump = getenv("PTXSIM_JIT_DUMP");
    if (dump && *dump && LLVMPrintModuleToFile(e.mod, dump, &msg)) {
        fprintf(stderr, "ptxsim: PTXSIM_JIT_DUMP: %s\n", msg);
        LLVMDisposeMessage(msg);
    }
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContextFromLLVMContext(e.ctx);
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(e.mod, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(J.jit);
    c->rt = LLVMOrcJITDylibCreateResourceTracker(jd);
    le = LLVMOrcLLJITAddLLVMIRModuleWithRT(J.jit, c->rt, tsm);
    if (le) {
        take_error(le, err, errlen, "adding the regions to the JIT");
        LLVMOrcDisposeThreadSafeModule(tsm);
        goto fail_rt;
    }
    jit_fn **fns = malloc(nr * sizeof *fns);
    if (!fns) {
        snprintf(err, errlen, "out of host memory");
        goto fail_rt;
    }
    for (uint32_t r = 0; r < nr; r++) {
        snprintf(name, sizeof name, "ptxsim_%llu_%u", (unsigned long long)serial, regions[r].start);
        LLVMOrcExecutorAddress addr;
        le = LLVMOrcLLJITLookup(J.jit, &addr, name);
        if (le) {
            take_error(le, err, errlen, "compiling the regions");
            free(fns);
            goto fail_rt;
        }
        fns[r] = (jit_fn *)(uintptr_t)addr;
    }
    for (uint32_t r = 0; r < nr; r++)
        regions[r].fn = fns[r];
    free(fns);
    c->seconds = now_s() - t0;
    return c;

fail_rt:
    if ((le = LLVMOrcResourceTrackerRemove(c->rt)))
        LLVMConsumeError(le);
    LLVMOrcReleaseResourceTracker(c->rt);
    free(c);
    return NULL;
fail_mod:
    LLVMDisposeModule(e.mod);
fail_ctx:
    LLVMContextDispose(e.ctx);
    free(c);
    return NULL;
}

jit_code *jit_compile(const isa_inst *code, jit_region *regions, uint32_t n, char *err, size_t errlen)
{
    const char *why;
    if (!jit_available(&why)) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    pthread_mutex_lock(&J.lock);
    jit_code *c = compile_locked(code, regions, n, err, errlen);
    pthread_mutex_unlock(&J.lock);
    return c;
}

void jit_free(jit_code *c)
{
    if (!c)
        return;
    if (c->rt) {
        pthread_mutex_lock(&J.lock);
        LLVMErrorRef e = LLVMOrcResourceTrackerRemove(c->rt);
        if (e)
            LLVMConsumeError(e);
        LLVMOrcReleaseResourceTracker(c->rt);
        pthread_mutex_unlock(&J.lock);
    }
    free(c);
}

double jit_compile_seconds(const jit_code *c) { return c->seconds; }
uint32_t jit_compiled_insts(const jit_code *c) { return c->insts; }

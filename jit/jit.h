/*
 * jit.h -- ptxsim's compiling tier: straight-line runs of PTX instructions
 * compiled to host code through libLLVM.
 *
 * The interpreter (exec/warp.c) stays the reference and keeps every
 * decision about control flow: the SIMT stack, branches, calls, barriers,
 * exits.  What the tier compiles is a region: a run of instructions with no
 * control flow inside, which a warp enters at its first pc with one lane
 * mask and leaves at its last.  Each instruction of a region becomes a call
 * of its own semantic function (isa/'s isa_sem_*, the very code the
 * interpreter runs) on a constant copy of the decoded instruction; isa/ is
 * built a second time as LLVM bitcode and linked into every compiled
 * module, so LLVM inlines the call, folds the instruction's types,
 * modifiers and operand kinds away and vectorises the lane loops.  The
 * semantics therefore live in one place and the two engines cannot drift
 * apart.  Instructions LLVM should not see inside (directed rounding, which
 * switches the host's rounding mode; textures, matrix and bulk operations)
 * are calls of the host's own semantic function instead.
 *
 * jit/ includes only isa/.
 */
#ifndef PTXSIM_JIT_H
#define PTXSIM_JIT_H

#include "isa.h"

/* A compiled region: runs its instructions in order for the lanes in mask
 * (each instruction's guard applied), keeping *clock as the interpreter
 * does (one tick per instruction).  Returns how many instructions
 * completed: all of them, or fewer when one failed, whose status is then
 * in *st (w->fault says where). */
typedef uint32_t jit_fn(isa_warp *w, uint32_t mask, uint64_t *clock, ptx_status *st);

typedef struct jit_region {
    uint32_t start, n;          /* instructions [start, start + n) of the code */
    jit_fn *fn;
} jit_region;

typedef struct jit_code jit_code;

/* Whether this build has the compiling tier; when not, why (static text). */
bool jit_available(const char **why);

/* Whether in may be part of a region: anything but control flow (branches,
 * calls, returns, exits, barriers) and the waits that can end a warp's turn
 * (mbarrier.test_wait / try_wait). */
bool jit_inst_compilable(const isa_inst *in);

/* The regions of code[0, ncode): maximal runs of compilable instructions
 * that start at a leader (leader[pc] nonzero: a function's entry, a branch
 * target, a reconvergence point) or after an instruction that is not
 * compilable, and end before the next leader.  Writes them to out (NULL:
 * only counts) in pc order, fn NULL; returns their count. */
uint32_t jit_find_regions(const isa_inst *code, uint32_t ncode, const uint8_t *leader, jit_region *out);

/* Compile regions[0, n) of code, setting each one's fn.  `code` must
 * outlive the result (host calls point into it), and so must the functions
 * handed out.  NULL on failure, with why in err (no fn set).  Thread-safe;
 * compiles run one at a time. */
jit_code *jit_compile(const isa_inst *code, jit_region *regions, uint32_t n, char *err, size_t errlen);
void jit_free(jit_code *c);

/* What a compile took: seconds of host time, and instructions compiled. */
double jit_compile_seconds(const jit_code *c);
uint32_t jit_compiled_insts(const jit_code *c);

#endif /* PTXSIM_JIT_H */

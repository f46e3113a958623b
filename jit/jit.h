/*
 * jit.h -- ptxsim's compiling tier: PTX functions compiled to host code
 * through libLLVM.
 *
 * The interpreter (exec/warp.c) stays the reference and keeps every
 * decision that changes a warp's SIMT stack: divergent branches, calls,
 * returns, exits, barriers.  What the tier compiles is a unit: a function's
 * code, cut into blocks of straight-line instructions, each ending at a
 * branch, before an instruction the tier leaves to the interpreter, or
 * before a leader (a branch target or reconvergence point).  A warp enters
 * a unit at any block with one lane mask and runs on from block to block
 * while its branches are uniform -- all of its lanes go the same way, so
 * the interpreter would not touch the SIMT stack either -- and returns to
 * the interpreter at the first branch that diverges, the first
 * instruction the unit does not compile, its entry's reconvergence point,
 * or when its instruction budget is spent.  Loops therefore run compiled
 * for as long as their lanes agree.
 *
 * Each instruction becomes a call of its own semantic function (isa/'s
 * isa_sem_*, the very code the interpreter runs) on a constant copy of the
 * decoded instruction; isa/ is built a second time as LLVM bitcode and
 * linked into every compiled module, so LLVM inlines the call, folds the
 * instruction's types, modifiers and operand kinds away and vectorises the
 * lane loops.  The semantics therefore live in one place and the two
 * engines cannot drift apart.  Instructions LLVM should not see inside
 * (directed rounding, which switches the host's rounding mode; textures,
 * matrix and bulk operations) are calls of the host's own semantic
 * function instead.
 *
 * jit/ includes only isa/.
 */
#ifndef PTXSIM_JIT_H
#define PTXSIM_JIT_H

#include "isa.h"

/* One entry into compiled code: the limits it runs under, and what it did,
 * counted as the interpreter counts. */
typedef struct jit_run {
    uint64_t budget;            /* in: the most instructions it may complete */
    uint32_t stop_pc;           /* in: a pc it must return at (the warp's reconvergence point) */
    ptx_status st;              /* out: PTX_OK, or the status of the instruction that failed */
    uint64_t insts;             /* out: instructions completed, a failed one included */
    uint64_t writes;            /* out: of them, ones that may change memory (exec/hang.c) */
    uint64_t *mem_ops;          /* in: memory instructions by state space, added to */
} jit_run;

/* A unit's code, entered at block `pc` for the lanes in mask (each
 * instruction's guard applied), keeping *clock as the interpreter does (one
 * tick per instruction).  Returns the pc the interpreter goes on at: the
 * failed instruction's when run->st is not PTX_OK (w->fault says where).
 * Completes no instruction when the first block does not fit the budget. */
typedef uint32_t jit_fn(isa_warp *w, uint32_t mask, uint32_t pc, uint64_t *clock, jit_run *run);

typedef struct jit_unit {
    uint32_t start, n;          /* a function's instructions [start, start + n) */
    jit_fn *fn;
} jit_unit;

typedef struct jit_code jit_code;

/* How hard a compile works.  Quick code is each instruction a call of the
 * host's own semantics (the interpreter's isa_execute) with its decoded
 * instruction, between inline guards, counts and uniform branches, with
 * no optimisation: it compiles some fifty times faster than optimised
 * code and runs slower, so a unit is compiled quick as soon as it is
 * warm and optimised only once it proves hot (exec/compiled.c). */
typedef enum { JIT_QUICK, JIT_OPTIMISED } jit_level;

/* Whether this build has the compiling tier; when not, why (static text). */
bool jit_available(const char **why);

/* Whether in may be compiled: anything but control flow other than bra
 * (calls, returns, exits, barriers, brx) and the waits that can end a
 * warp's turn (mbarrier.test_wait / try_wait).  jit_inst_left says why
 * not (static text), or NULL when it may. */
bool jit_inst_compilable(const isa_inst *in);
const char *jit_inst_left(const isa_inst *in);

/* Whether a block of the unit [start, end) starts at pc: a compilable
 * instruction at the unit's start, at a leader (leader[pc] nonzero: a
 * branch target, a reconvergence point), or after an instruction that is
 * not compiled or branches.  Warps enter units only there. */
bool jit_block_starts(const isa_inst *code, uint32_t start, uint32_t end, const uint8_t *leader, uint32_t pc);

/* Compile units[0, n) at level, setting each one's fn (leader as above).  Compiled
 * code is kept by a hash of all it depends on: in this process, where a
 * second program with the same code takes it as it is, and on disk
 * (PTXSIM_JIT_CACHE: a folder, or "off"; by default $XDG_CACHE_HOME/ptxsim/jit
 * or ~/.cache/ptxsim/jit, 256 MB at most), where a later run loads it
 * instead of compiling.  The functions handed out stay valid until the
 * process ends.  NULL on failure, with why in err (no fn set).
 * Thread-safe; compiles run one at a time. */
jit_code *jit_compile(jit_level level, const isa_inst *code, const uint8_t *leader, jit_unit *units, uint32_t n,
                      char *err, size_t errlen);
void jit_free(jit_code *c);

/* Whether the code of the unit [start, start + n) at level is made
 * already -- loaded in this process, or kept in the disk cache by an
 * earlier run -- so that jit_compile would take it in about a millisecond
 * instead of compiling it.  Each unit is found by its own instructions,
 * whichever units it was compiled with. */
bool jit_is_cached(jit_level level, const isa_inst *code, const uint8_t *leader, uint32_t start, uint32_t n);

/* What a compile took: seconds of host time, instructions compiled, and of
 * them those whose code was taken from a cache. */
double jit_compile_seconds(const jit_code *c);
uint32_t jit_compiled_insts(const jit_code *c);
uint32_t jit_cached_insts(const jit_code *c);

#endif /* PTXSIM_JIT_H */

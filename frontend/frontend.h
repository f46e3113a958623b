/*
 * frontend.h -- from bytes to the module IR: fat binaries, PTX text, the
 * parser, control-flow analysis, and the printer back to PTX.
 *
 * Everything that reads untrusted input lives here and reports problems
 * through a ptx_diag with file:line:col; nothing here aborts the process.
 */
#ifndef PTXSIM_FRONTEND_H
#define PTXSIM_FRONTEND_H

#include "isa.h"

#include <stdio.h>

/* ---- fat binaries ------------------------------------------------------- */

#define FE_FATBIN_WRAPPER_MAGIC 0x466243B1u   /* what __cudaRegisterFatBinary gets */
#define FE_FATBIN_MAGIC 0xBA55ED50u           /* the .nv_fatbin container */
#define FE_FATBIN_VERSION 1                   /* its header's version, the only one */

enum { FE_ENTRY_PTX = 1, FE_ENTRY_CUBIN = 2 };

typedef struct fe_fatbin_entry {
    uint16_t kind;              /* FE_ENTRY_PTX, FE_ENTRY_CUBIN, other */
    uint32_t sm;                /* target architecture, e.g. 75 */
    uint32_t ptx_version;       /* major * 10 + minor, PTX entries */
    uint32_t flags;             /* FE_FATBIN_* compression bits and others */
    const uint8_t *payload;
    uint64_t payload_bytes;     /* stored (possibly compressed) bytes */
    uint64_t raw_bytes;         /* uncompressed size when compressed */
} fe_fatbin_entry;

/* Entry flags: the payload's compression, and code for one architecture
 * only (nvcc -arch=sm_90a: PTX and machine code with the architecture's
 * own features, which run on exactly that architecture). */
enum { FE_FATBIN_LZ4 = 0x2000, FE_FATBIN_ZSTD = 0x8000, FE_FATBIN_ARCH_SPECIFIC = 0x100000 };

/* Walk every entry of every fat binary laid end to end in [data, data+len).
 * Calls `fn` for each; stops early when fn returns false. */
ptx_status fe_fatbin_walk(const uint8_t *data, size_t len,
                          bool (*fn)(void *ctx, const fe_fatbin_entry *e), void *ctx,
                          ptx_diag *diag);

/* The size of the fat binary (header and entries) starting at data, after
 * checking its header against at most `avail` readable bytes. */
ptx_status fe_fatbin_size(const uint8_t *data, size_t avail, size_t *out_size, ptx_diag *diag);

/* Decompress (if needed) one entry's payload into a fresh NUL-terminated
 * buffer (malloc'd; caller frees).  A PTX entry's length is its text's, up
 * to the padding; any other entry's is every byte. */
ptx_status fe_fatbin_payload(const fe_fatbin_entry *e, char **out, size_t *out_len,
                             ptx_diag *diag);

/* Choose the PTX in a fat binary that fits `sm` best (the newest PTX for an
 * architecture at or below sm, else the oldest above) and return its text.
 * PTX_E_NO_PTX when there is none. */
ptx_status fe_fatbin_ptx(const uint8_t *data, size_t len, uint32_t sm, char **out_text,
                         size_t *out_len, ptx_diag *diag);
/* The oldest architecture a fat binary has code for, PTX or machine code
 * (0: none): a GPU older than that has no kernel image to run. */
uint32_t fe_fatbin_oldest_arch(const uint8_t *data, size_t len);

/* ---- machine code (cubin.c) ------------------------------------------- */

/* What ptxas allocated for one kernel, from the cubin's .nv.info. */
typedef struct fe_kernel_res {
    const char *name;           /* the kernel's symbol (points into the cubin) */
    uint32_t regs;              /* registers per thread */
    uint32_t frame_bytes;       /* stack frame per thread (local arrays, spills) */
    uint32_t min_stack_bytes, max_stack_bytes;
    bool known;
} fe_kernel_res;

/* Call fn for every kernel of a cubin (an ELF64 image) whose register count
 * the cubin records; stops early when fn returns false.  PTX_E_BAD_FATBIN
 * for a malformed image. */
ptx_status fe_cubin_kernels(const uint8_t *elf, size_t len, bool (*fn)(void *ctx, const fe_kernel_res *r),
                            void *ctx, ptx_diag *diag);

/* Whether a cubin has any code (a .text section): nvcc links a program
 * without kernels of its own with an empty one. */
bool fe_cubin_has_code(const uint8_t *elf, size_t len);

/* The machine code in a fat binary that fits `sm` best (exactly sm, else
 * the newest below it, else the oldest above), decompressed into *out
 * (malloc'd; caller frees), with its architecture in *out_sm.  PTX_OK with
 * *out NULL when the fat binary holds no machine code. */
ptx_status fe_fatbin_cubin(const uint8_t *data, size_t len, uint32_t sm, uint8_t **out, size_t *out_len,
                           uint32_t *out_sm, ptx_diag *diag);

/* ---- PTX ---------------------------------------------------------------- */

/* The PTX ISA versions the parser reads, major * 10 + minor: 6.0 (CUDA
 * 10.0) to 9.5 (CUDA 13.5).  A GPU's driver JIT-compiles the PTX of its own
 * CUDA release and older, so ptxsim's driver calls itself CUDA 13.5's
 * (FE_PTX_DRIVER_VERSION, cuDriverGetVersion's number): programs that bring a newer NVRTC than the
 * installed toolkit (NVIDIA Warp, CuPy's wheels) hand it their PTX rather
 * than compiling it to machine code themselves. */
#define FE_PTX_OLDEST 60
#define FE_PTX_NEWEST 95
#define FE_PTX_DRIVER_VERSION (13000 + (FE_PTX_NEWEST - 90) * 10)   /* PTX 9.N is CUDA 13.N's */

/* Parse PTX text into a module and analyse it (CFG, reconvergence points).
 * `name` is used in messages.  On failure returns NULL; diag has the first
 * error and its sink (if any) saw every one.  The text is copied. */
isa_module *fe_parse(const char *text, size_t len, const char *name, ptx_diag *diag);
/* Whether n bytes are PTX text as files and images hold it: text, then at
 * most NUL padding (a module loaded as a string, and files written with
 * its terminator, as NVIDIA Warp's kernel cache is).  *text_len is the
 * text's length. */
bool fe_is_ptx_text(const char *buf, size_t n, size_t *text_len);
/* The same, without the multiply-add contraction ptxas makes (fe_contract):
 * the module as written, for printing back as PTX (a contracted sub is an
 * fma with a negated register, which PTX cannot say). */
isa_module *fe_parse_as_written(const char *text, size_t len, const char *name, ptx_diag *diag);

/* Link modules compiled separately (one PTX per translation unit, as
 * nvcc -rdc=true makes them) into one new module, as a device linker
 * would: declarations and .weak definitions resolve to the .visible (or
 * first .weak) definition of their name in any module; what has no linkage
 * stays private to its module.  The inputs are not changed and still
 * belong to the caller.  `name` is used in messages.  NULL on failure
 * (two .visible definitions of a name, out of memory), with diag filled. */
isa_module *fe_link(isa_module *const *in, unsigned n, const char *name, ptx_diag *diag);

/* The PTX of each of n fat binaries (one per translation unit, the
 * pre-linked fat binaries of a program built with -rdc=true), chosen for sm
 * as fe_fatbin_ptx chooses, parsed (names[i] in messages) and linked. */
isa_module *fe_link_fatbins(const uint8_t *const *fatbins, const size_t *bytes, const char *const *names,
                            unsigned n, uint32_t sm, const char *name, ptx_diag *diag);

/* Recompute every branch's reconvergence point (immediate post-dominator)
 * in f, and contract mul/add pairs as ptxas does (fe_contract); called by
 * fe_parse, exposed for tests. */
ptx_status fe_analyse(isa_module *m, isa_func *f, ptx_diag *diag);
/* ptxas's default floating-point contraction (--fmad=true) on f, whose
 * instructions' basic blocks block_of gives (contract.c). */
void fe_contract(isa_module *m, isa_func *f, const uint32_t *block_of);

/* The immediate post-dominator of each basic block, for tests: blocks are
 * numbered in code order; out_ipdom[b] is a block index or -1 for the
 * virtual exit.  Returns the number of blocks (0 on allocation failure). */
uint32_t fe_postdominators(const isa_func *f, uint32_t *out_block_of, int32_t *out_ipdom,
                           uint32_t max_blocks);

/* Write the module back out as PTX text. */
void fe_print(FILE *out, const isa_module *m);

#endif /* PTXSIM_FRONTEND_H */

/*
 * isa.h -- ptxsim's bottom layer: the PTX instruction set as data.
 *
 * What lives here:
 *   - status codes and the diagnostic record every layer reports through;
 *   - the enumerations derived from opcodes.def, types.def, mods.def, sregs.def;
 *   - the decoded instruction (isa_inst), a small fixed record with dense
 *     register indices and no strings the interpreter has to look at;
 *   - the module IR the frontend builds and exec/ runs (isa_module, isa_func,
 *     isa_var), with the builder functions that grow it;
 *   - the warp view (isa_warp) the semantic functions act on, and the
 *     dispatch table isa_sem_table[] indexed by opcode.
 *
 * isa/ includes nothing of ptxsim's.  frontend/ and exec/ include only this.
 */
#ifndef PTXSIM_ISA_H
#define PTXSIM_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISA_WARP_SIZE 32
#define ISA_NOREG 0xFFFFu
#define ISA_MAX_OPDS 6

/* ------------------------------------------------------------------------ */
/* Status and diagnostics                                                    */

typedef enum {
#define ISA_STATUS(E, msg) PTX_##E,
#include "status.def"
#undef ISA_STATUS
    PTX_STATUS_COUNT
} ptx_status;

/* True for statuses that are failures (CTL_* are control outcomes). */
static inline bool ptx_failed(ptx_status st) { return st != PTX_OK && st < PTX_CTL_BRANCH; }
const char *ptx_status_message(ptx_status st);
const char *ptx_status_name(ptx_status st);

/* A caller-owned diagnostic: the first error wins; `count` counts them all. */
typedef struct ptx_diag {
    ptx_status st;
    const char *file;        /* borrowed; may be NULL */
    uint32_t line, col;
    uint32_t count;          /* errors reported so far */
    char msg[256];
    /* Optional sink that sees every error, not just the first (may be NULL). */
    void (*sink)(void *ctx, const struct ptx_diag *one);
    void *sink_ctx;
} ptx_diag;

/* Record an error; returns st so callers can write `return ptx_error(...)`. */
ptx_status ptx_error(ptx_diag *d, ptx_status st, const char *file, uint32_t line,
                     uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* ------------------------------------------------------------------------ */
/* Enumerations derived from the .def lists                                  */

typedef enum {
#define PTX_OP(E, id, fam, lat, pm, fl) ISA_OP_##E,
#include "opcodes.def"
#undef PTX_OP
    ISA_OP_COUNT
} isa_op;
_Static_assert(ISA_OP_COUNT < 65536, "isa_inst.op is 16 bits");

typedef enum {
#define ISA_TYPE(E, s, bytes, kind) ISA_TYPE_##E,
#include "types.def"
#undef ISA_TYPE
    ISA_TYPE_COUNT
} isa_type;

typedef enum { ISA_KIND_B, ISA_KIND_U, ISA_KIND_S, ISA_KIND_F, ISA_KIND_P } isa_type_kind;

typedef enum {
#define ISA_SREG(E, s) ISA_SREG_##E,
#include "sregs.def"
#undef ISA_SREG
    ISA_SREG_COUNT
} isa_sreg;

#define ISA_ENUM_(P, E, s) P##E,
typedef enum {
#define ISA_SPACE(E, s) ISA_SPACE_##E,
#include "mods.def"
    ISA_SPACE_COUNT
} isa_space;
typedef enum {
#define ISA_CMP(E, s) ISA_CMP_##E,
#include "mods.def"
    ISA_CMP_COUNT
} isa_cmp;
typedef enum {
#define ISA_RND(E, s) ISA_RND_##E,
#include "mods.def"
    ISA_RND_COUNT
} isa_rnd;
typedef enum {
#define ISA_MODE(E, s) ISA_MODE_##E,
#include "mods.def"
    ISA_MODE_COUNT
} isa_mode;
typedef enum {
#define ISA_GEOM(E, s) ISA_GEOM_##E,
#include "mods.def"
    ISA_GEOM_COUNT
} isa_geom;
typedef enum {
#define ISA_SHAPE(E, s) ISA_SHAPE_##E,
#include "mods.def"
    ISA_SHAPE_COUNT
} isa_shape;
typedef enum {
#define ISA_AOP(E, s) ISA_AOP_##E,
#include "mods.def"
    ISA_AOP_COUNT
} isa_aop;
typedef enum {
#define ISA_ORDER(E, s) ISA_ORDER_##E,
#include "mods.def"
    ISA_ORDER_COUNT
} isa_order;
typedef enum {
#define ISA_SCOPE(E, s) ISA_SCOPE_##E,
#include "mods.def"
    ISA_SCOPE_COUNT
} isa_scope;
enum {
#define ISA_FLAG(E, s) ISA_FLAGBIT_##E,
#include "mods.def"
    ISA_FLAGBIT_COUNT
};
#define ISA_MOD_FLAG(E) (1u << ISA_FLAGBIT_##E)
_Static_assert(ISA_FLAGBIT_COUNT <= 32, "isa_inst.flags is 32 bits");

/* What kind of hardware executes an instruction.  Arithmetic rows say INT;
 * isa_inst_family() refines by type (f32 -> FP, f64 -> DP). */
typedef enum { ISA_FAM_INT, ISA_FAM_FP, ISA_FAM_DP, ISA_FAM_SFU, ISA_FAM_MEM,
               ISA_FAM_CTRL, ISA_FAM_SYNC, ISA_FAM_TENSOR } isa_family;

/* Latency classes: timing/ keys its latency and issue-interval tables on
 * these (isa_inst_lat), never on the opcode.  Rows give the class of the
 * integer (or only) form; memory, control and synchronisation rows say ALU,
 * the cost of their pass through the issue path. */
typedef enum {
    ISA_LAT_NONE,       /* no row has it (tests/opcodes_test.c) */
    ISA_LAT_ALU,        /* integer and logic, moves, conversions */
    ISA_LAT_IMUL,       /* integer multiply (and multiply-add) */
    ISA_LAT_IDIV,       /* integer divide and remainder */
    ISA_LAT_FP,         /* single- and half-precision arithmetic */
    ISA_LAT_FDIV,       /* single- and half-precision division */
    ISA_LAT_DP,         /* double precision */
    ISA_LAT_SFU,        /* special functions (rcp, sqrt, sin, ex2, ...) */
    ISA_LAT_TENSOR,     /* matrix multiply-accumulate (cost from the shape) */
    ISA_LAT_COUNT
} isa_lat;

/* What P-mode (timing/pmode.c) does with an instruction a warp meets while
 * it pre-executes past a load it waits for.  The pre-executing warp is a
 * copy that must never change what other threads see. */
typedef enum {
    ISA_PM_RUN,         /* pre-executed into renamed registers */
    ISA_PM_LOAD,        /* a load: pre-loaded (global, texture), or run (shared, constant) */
    ISA_PM_STORE,       /* changes memory or an mbarrier others see: skipped, and
                           shared loads after it are skipped too */
    ISA_PM_SKIP,        /* nothing to pre-execute (hints, fences, loads of many
                           addresses a lane): skipped */
    ISA_PM_BRANCH,      /* followed, unless it depends on a pending load: then the end */
    ISA_PM_BARRIER,     /* passed (skipped); shared loads after it are skipped */
    ISA_PM_HALT,        /* calls, returns, exits, traps: pre-execution ends */
    ISA_PM_COUNT
} isa_pmode;

/* Opcode properties. */
enum {
    ISA_F_CTRL = 1u << 0,   /* may change control flow: exec/ handles the outcome */
    ISA_F_MEM  = 1u << 1,   /* accesses memory through an address operand */
    ISA_F_CMP  = 1u << 2,   /* takes a comparison modifier */
    ISA_F_PDST = 1u << 3,   /* destination is a predicate */
    ISA_F_IMAGE = 1u << 4,  /* texture or surface: [handle, {coordinates}] */
    ISA_F_LOAD = 1u << 5,   /* reads memory into its destination registers */
    ISA_F_STORE = 1u << 6,  /* writes memory (cp, which copies memory to memory, is neither) */
    ISA_F_ATOMIC = 1u << 7, /* a read-modify-write of memory (atom, red) */
    ISA_F_NODST = 1u << 8,  /* operand 0 is not a register it writes (a store's address,
                               a branch target): the scoreboard reads it as a source */
    ISA_F_WARPSYNC = 1u << 9, /* the warp's lanes must arrive together: warp-level
                               operations, barriers, fences, calls, returns, exits */
    ISA_F_ENDS_BLOCK = 1u << 10, /* ends a basic block (the frontend's CFG) */
    ISA_F_MATRIX = 1u << 11, /* a matrix instruction: fragments, shape, layouts */
    ISA_F_TABLE = 1u << 12, /* branches through a table of targets: opd[1] is its index */
    ISA_F_CALL = 1u << 13,  /* opd[0] is a call site, opd[1] the calling function */
    ISA_F_SURFACE = 1u << 14, /* an image instruction on a surface object, not a texture */
    ISA_F_VIDEO = 1u << 15, /* a video instruction, scalar or SIMD: vop.dtype.atype.btype,
                               vset.atype.btype; its register operands may carry
                               element selectors (ISA_VSEL_ON) */
};

typedef struct isa_op_info {
    const char *name;
    uint8_t family;         /* isa_family, before isa_inst_family's refinement */
    uint8_t lat;            /* isa_lat, before isa_inst_lat's refinement */
    uint8_t pmode;          /* isa_pmode */
    uint16_t flags;         /* ISA_F_* */
} isa_op_info;
extern const isa_op_info isa_ops[ISA_OP_COUNT];

typedef struct isa_type_info {
    const char *name;
    uint8_t bytes;
    uint8_t kind;           /* isa_type_kind */
} isa_type_info;
extern const isa_type_info isa_types[ISA_TYPE_COUNT];
/* An element's width in bits: the bytes', or a sub-byte integer's 4, 2 or 1. */
static inline unsigned isa_type_bits(uint8_t t)
{
    switch (t) {
    case ISA_TYPE_U4: case ISA_TYPE_S4: return 4;
    case ISA_TYPE_U2: case ISA_TYPE_S2: return 2;
    case ISA_TYPE_B1: return 1;
    default: return 8u * isa_types[t].bytes;
    }
}
/* Whether a register or a variable may have the type (not the sub-byte
 * integers, which only instructions name). */
static inline bool isa_type_storable(uint8_t t) { return isa_types[t].bytes || t == ISA_TYPE_PRED; }

/* Registers are 64-bit columns; a .b128 register takes two consecutive ones,
 * its low half first (`.reg .b128 %q<2>` is columns base .. base + 3, %q1 at
 * base + 2).  The parser, the name tables and the debugger step through a
 * declaration by this many columns per register. */
static inline unsigned isa_reg_slots(uint8_t type) { return isa_types[type].bytes > 8 ? 2u : 1u; }

/* Name tables, for diagnostics and the printer (index = enum value). */
extern const char *const isa_space_names[ISA_SPACE_COUNT];
extern const char *const isa_cmp_names[ISA_CMP_COUNT];
extern const char *const isa_rnd_names[ISA_RND_COUNT];
extern const char *const isa_mode_names[ISA_MODE_COUNT];
extern const char *const isa_geom_names[ISA_GEOM_COUNT];
extern const char *const isa_shape_names[ISA_SHAPE_COUNT];
extern const char *const isa_aop_names[ISA_AOP_COUNT];
extern const char *const isa_order_names[ISA_ORDER_COUNT];
extern const char *const isa_scope_names[ISA_SCOPE_COUNT];
extern const char *const isa_flag_names[ISA_FLAGBIT_COUNT];
extern const char *const isa_sreg_names[ISA_SREG_COUNT];

/* Look-ups by spelling (no leading '.' or '%'); -1 when unknown.  Each
 * table's index is an open-addressing hash of ISA_NAME_SLOTS slots (a power
 * of two; isa_tables.c). */
#define ISA_NAME_SLOTS 512
int isa_lookup_op(const char *s, size_t n);
int isa_lookup_type(const char *s, size_t n);
int isa_lookup_sreg(const char *s, size_t n);
/* Whether s is the first word of an instruction of the PTX ISA that ptxsim
 * does not implement (a module using it is valid PTX, not runnable here),
 * as opposed to no PTX instruction at all. */
bool isa_mnemonic_unimplemented(const char *s, size_t n);

/* Modifier categories, for isa_lookup_mod. */
typedef enum { ISA_MODCAT_SPACE, ISA_MODCAT_CMP, ISA_MODCAT_RND, ISA_MODCAT_MODE,
               ISA_MODCAT_AOP, ISA_MODCAT_ORDER, ISA_MODCAT_SCOPE, ISA_MODCAT_FLAG,
               ISA_MODCAT_GEOM, ISA_MODCAT_SHAPE,
               ISA_MODCAT_COUNT } isa_modcat;
int isa_lookup_mod(isa_modcat cat, const char *s, size_t n);

/* A shape's dimensions, read from its spelling (m16n8k16: 16, 8, 16; the
 * ldmatrix shapes have k = 0). */
void isa_shape_dims(uint8_t shape, unsigned *m, unsigned *n, unsigned *k);

/* isa_inst.layout: A's (or wmma.load/store's one matrix's) and B's layout;
 * ISA_LAYOUT_SEEN_A marks that the first .row/.col has been read. */
enum { ISA_LAYOUT_A_COL = 1u << 0, ISA_LAYOUT_B_COL = 1u << 1, ISA_LAYOUT_SEEN_A = 1u << 2,
       ISA_LAYOUT_SEEN_B = 1u << 3,
       /* wgmma.mma_async's immediate operands, folded in by the parser:
        * imm-trans-a / imm-trans-b = 1 (A M-major, B N-major in shared
        * memory) and imm-scale-a / imm-scale-b = -1 (negate A, B). */
       ISA_LAYOUT_TRANS_A = 1u << 4, ISA_LAYOUT_TRANS_B = 1u << 5, ISA_LAYOUT_NEG_A = 1u << 6,
       ISA_LAYOUT_NEG_B = 1u << 7 };

/* isa_inst.matrix: which matrix wmma.load/store move. */
typedef enum { ISA_MATRIX_NONE, ISA_MATRIX_A, ISA_MATRIX_B, ISA_MATRIX_C, ISA_MATRIX_D } isa_matrix;

struct isa_inst;
/* Why a matrix instruction (wmma, mma, ldmatrix, stmatrix, movmatrix) is a
 * form ptxsim does not run -- its shape, types and fragment sizes checked
 * together -- or NULL when it runs. */
const char *isa_matrix_form_error(const struct isa_inst *in);

/* Why an instruction's types are a form ptxsim does not run (the packed
 * 16-bit integer types on anything but min and max), or NULL. */
const char *isa_type_form_error(const struct isa_inst *in);

/* ... and a video instruction's types, modifiers and selectors (sem_video.c). */
const char *isa_video_form_error(const struct isa_inst *in);

/* ... and st.async's and red.async's (sem_async.c). */
const char *isa_async_form_error(const struct isa_inst *in);

/* A video instruction's elements: 1 for the scalar ones (vadd ... vset),
 * 2 for vadd2 ... vset2, 4 for vadd4 ... vset4 (rows of opcodes.def, which
 * stand in that order). */
static inline unsigned isa_video_lanes(uint16_t op)
{
    return op >= ISA_OP_VADD4 && op <= ISA_OP_VSET4 ? 4 : op >= ISA_OP_VADD2 && op <= ISA_OP_VSET2 ? 2 : 1;
}

/* vmad's mode field: plus one (.po) and the scale (.shr7, .shr15) together. */
static inline bool isa_vmad_po(uint8_t mode)
{
    return mode == ISA_MODE_PO || mode == ISA_MODE_PO_SHR7 || mode == ISA_MODE_PO_SHR15;
}
static inline unsigned isa_vmad_scale(uint8_t mode)
{
    return mode == ISA_MODE_SHR7 || mode == ISA_MODE_PO_SHR7 ? 7 : mode == ISA_MODE_SHR15 || mode == ISA_MODE_PO_SHR15 ? 15 : 0;
}

/* The element selector a video instruction's register operand may carry
 * (a.b1, b.h0, a.b3210, b.h32, d.b20), kept in the operand's imm, which a
 * register operand has no other use for: 0 for none, else ISA_VSEL_ON,
 * ISA_VSEL_HALF for half-words (.h), the digit count in bits 32-35 and
 * the digits in bits 0-31, four bits each, the last written lowest --
 * so digit i of a SIMD source selector is the element that feeds lane i. */
#define ISA_VSEL_ON (1ull << 63)
#define ISA_VSEL_HALF (1ull << 62)
static inline unsigned isa_vsel_count(uint64_t sel) { return (unsigned)(sel >> 32) & 0xF; }
static inline unsigned isa_vsel_digit(uint64_t sel, unsigned i) { return (unsigned)(sel >> (4 * i)) & 0xF; }

/* ------------------------------------------------------------------------ */
/* The decoded instruction                                                   */

typedef enum {
    ISA_OPD_NONE,
    ISA_OPD_REG,        /* register column: reg */
    ISA_OPD_PRED,       /* predicate: reg, negated when neg */
    ISA_OPD_IMM,        /* immediate bits: imm */
    ISA_OPD_SREG,       /* special register: reg = isa_sreg */
    ISA_OPD_VEC,        /* {r, r, r, r}: vec[0..nvec) (ISA_NOREG for '_') */
    ISA_OPD_LIST,       /* {r, ... r} of 5 to 8 registers (matrix fragments):
                           the module's lists[imm .. imm + nvec) */
    ISA_OPD_ADDR,       /* [reg + off]; reg may be ISA_NOREG ([imm]) */
    ISA_OPD_SYM,        /* address of a var (+ off), isa_opd_var: resolved by exec/ at load */
    ISA_OPD_ADDR_SYM,   /* [var + off], isa_opd_var: resolved by exec/ at load */
    ISA_OPD_LOCAL,      /* frame-relative local address off (after resolution) */
    ISA_OPD_ADDR_LOCAL, /* [frame + off] (after resolution) */
    ISA_OPD_LABEL,      /* instruction index imm (branch targets, brx tables) */
    ISA_OPD_FUNC,       /* function index reg (call targets, function pointers) */
} isa_opd_kind;

/* Literal flavours the parser records, so a float literal becomes the right
 * bit pattern once the instruction's type is known. */
enum { ISA_LIT_INT = 0, ISA_LIT_F32 = 1, ISA_LIT_F64 = 2 };

/* The most registers in one braced operand but wgmma's accumulator (a wmma
 * fragment of eight), and the most an operand holds in place; longer lists
 * are ISA_OPD_LIST.  wgmma.mma_async's D takes up to ISA_MAX_LIST (m64n256
 * .f32: 128 registers), the bound of every buffer isa_opd_regs fills. */
#define ISA_MAX_VEC 8
#define ISA_INLINE_VEC 4
#define ISA_MAX_LIST 128
_Static_assert(ISA_MAX_LIST <= 255, "isa_opd.nvec is 8 bits");

typedef struct isa_opd {
    uint8_t kind;       /* isa_opd_kind */
    uint8_t neg;        /* PRED: !p;  IMM: literal flavour (ISA_LIT_*) */
    uint16_t reg;       /* see isa_opd_kind */
    uint16_t reg2;      /* second half of a d|p pair (a predicate), else ISA_NOREG */
    uint8_t nvec;       /* VEC: element count */
    uint8_t ext;        /* destination (opd[0], REG or VEC): the bytes of its
                           register(s) when they are wider than the signed
                           integer result, which is then sign-extended to
                           them (isa_mark_wide_dsts); 0 otherwise */
    union {
        uint64_t imm;
        int64_t off;
        uint16_t vec[ISA_INLINE_VEC];
    };
} isa_opd;
_Static_assert(sizeof(isa_opd) == 16, "operands stay 16 bytes: the interpreter walks them");

/* The variable a SYM or ADDR_SYM operand names: an index of 32 bits, in
 * reg and reg2 (a module linked with MathDx declares 100,000 variables). */
static inline uint32_t isa_opd_var(const isa_opd *o)
{
    return (uint32_t)o->reg | (uint32_t)o->reg2 << 16;
}

static inline void isa_opd_set_var(isa_opd *o, uint32_t var)
{
    o->reg = (uint16_t)var;
    o->reg2 = (uint16_t)(var >> 16);
}

typedef struct isa_inst {
    uint16_t op;            /* isa_op */
    uint8_t type, type2;    /* isa_type: the instruction type, and cvt's source type */
    uint8_t space;          /* isa_space */
    uint8_t cmp;            /* isa_cmp */
    uint8_t rnd;            /* isa_rnd */
    uint8_t mode;           /* isa_mode */
    uint8_t aop;            /* isa_aop: atomic op, or setp's boolean combiner */
    uint8_t order, scope;   /* isa_order, isa_scope */
    uint8_t vec;            /* 1, 2, 4 or 8: .v2/.v4/.v8 */
    uint8_t nopd;           /* operands used in opd[] */
    uint8_t guard_neg;      /* @!p */
    uint16_t guard;         /* predicate index, ISA_NOREG if unguarded */
    uint32_t flags;         /* ISA_MOD_FLAG(...) bits */
    uint32_t target;        /* branch target (instruction index) */
    uint32_t rpc;           /* reconvergence point of a branch (ISA_PC_EXIT: none) */
    uint32_t line;          /* PTX line */
    uint16_t col;           /* PTX column of the mnemonic */
    uint8_t geom;           /* isa_geom: tex, tld4, suld, sust */
    /* Matrix instructions (wmma, mma, ldmatrix, stmatrix, movmatrix). */
    uint8_t shape;          /* isa_shape: .m16n8k16 etc. */
    uint8_t layout;         /* ISA_LAYOUT_* bits: .row/.col of A (or the one matrix) and B */
    uint8_t matrix;         /* isa_matrix: wmma.load/store's .a/.b/.c/.d */
    uint8_t type3, type4;   /* mma's B and C types (type: D, type2: A) */
    isa_opd opd[ISA_MAX_OPDS];
} isa_inst;

#define ISA_PC_EXIT 0xFFFFFFFFu

/* ------------------------------------------------------------------------ */
/* Facts about one decoded instruction: the table's columns refined by its   */
/* types and modifiers                                                       */

/* The family of hardware that executes it: INT and FP rows by type (a cvt
 * from f64 too). */
static inline uint8_t isa_inst_family(const isa_inst *in)
{
    uint8_t fam = isa_ops[in->op].family;
    if (fam == ISA_FAM_INT || fam == ISA_FAM_FP) {
        uint8_t t = in->op == ISA_OP_CVT && in->type2 == ISA_TYPE_F64 ? ISA_TYPE_F64 : in->type;
        if (t == ISA_TYPE_F64)
            return ISA_FAM_DP;
        if (isa_types[t].kind == ISA_KIND_F)
            return ISA_FAM_FP;
    }
    return fam;
}

/* Its latency class (isa_lat): the row's, except that arithmetic on f64 is
 * DP and on other float types FP, or FDIV for a division. */
static inline uint8_t isa_inst_lat(const isa_inst *in)
{
    switch (isa_inst_family(in)) {
    case ISA_FAM_DP: return ISA_LAT_DP;
    case ISA_FAM_FP: return isa_ops[in->op].lat == ISA_LAT_IDIV ? ISA_LAT_FDIV : ISA_LAT_FP;
    default: return isa_ops[in->op].lat;
    }
}

/* A load or store of one address a lane, through its address operand (ld,
 * ldu, st, atom, red): what the race checks look at. */
static inline bool isa_op_lane_access(unsigned op)
{
    unsigned fl = isa_ops[op].flags;
    return (fl & (ISA_F_LOAD | ISA_F_STORE)) && !(fl & (ISA_F_IMAGE | ISA_F_MATRIX));
}

/* The operand holding the address each lane accesses, for an instruction
 * whose active lanes each access one address given by an address operand
 * (ld, ldu, st, atom, red, prefetch, and cp.async's global source): 0 when
 * it has no destination (st, red, prefetch), else 1.  -1 for the others:
 * texture and surface addresses depend on the object's layout, a matrix
 * load or store has many addresses a lane, a bulk copy one for the warp,
 * and the rest access no memory. */
static inline int isa_lane_addr_opd(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    if (!(fl & ISA_F_MEM) || (fl & (ISA_F_IMAGE | ISA_F_MATRIX)) ||
        (in->op == ISA_OP_CP && in->mode != ISA_MODE_ASYNC) ||
        (in->op == ISA_OP_TENSORMAP && in->mode == ISA_MODE_TM_CP_FENCEPROXY_GENERIC))
        return -1;
    return fl & ISA_F_NODST ? 0 : 1;
}

/* cp's forms, by mode: cp.async (a copy from global to shared memory a
 * lane, which the warp waits for at cp.async.wait_group); */
static inline bool isa_cp_async(const isa_inst *in)
{
    return in->op == ISA_OP_CP && in->mode == ISA_MODE_ASYNC;
}

/* cp.async.commit_group, and cp.async.wait_all, which commits the open
 * group too; */
static inline bool isa_cp_commits(const isa_inst *in)
{
    return in->op == ISA_OP_CP && (in->mode == ISA_MODE_COMMIT_GROUP || in->mode == ISA_MODE_WAIT_ALL);
}

/* cp.async.wait_group and cp.async.wait_all; */
static inline bool isa_cp_waits(const isa_inst *in)
{
    return in->op == ISA_OP_CP && (in->mode == ISA_MODE_WAIT_GROUP || in->mode == ISA_MODE_WAIT_ALL);
}

/* and the bulk copies and reductions (cp.async.bulk, cp.reduce.async.bulk):
 * every other form but cp.async.mbarrier.arrive. */
static inline bool isa_cp_is_bulk(const isa_inst *in)
{
    return in->op == ISA_OP_CP && !isa_cp_async(in) && !isa_cp_commits(in) && !isa_cp_waits(in) &&
           in->mode != ISA_MODE_ASYNC_MBARRIER_ARRIVE && in->mode != ISA_MODE_ASYNC_MBARRIER_ARRIVE_NOINC;
}

/* The tensor copies (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor,
 * cp.async.bulk.prefetch.tensor; sem_tensor.c).  Their dimensionality,
 * .1d to .5d, is kept in geom as the count itself, and .multicast::cluster
 * in layout (both otherwise unused by cp). */
#define ISA_CP_MULTICAST 1u
/* cp.async's .L2::cache_hint (layout, otherwise unused by it): its last
 * operand is then a cache policy, not a source size. */
#define ISA_CP_CACHE_HINT 2u
static inline bool isa_cp_is_tensor(const isa_inst *in)
{
    return in->op == ISA_OP_CP &&
           (in->mode == ISA_MODE_ASYNC_BULK_TENSOR_MBAR || in->mode == ISA_MODE_ASYNC_BULK_TENSOR_GROUP ||
            in->mode == ISA_MODE_REDUCE_BULK_TENSOR_GROUP || in->mode == ISA_MODE_ASYNC_BULK_PREFETCH_TENSOR_L2 ||
            in->mode == ISA_MODE_ASYNC_BULK_TENSOR || in->mode == ISA_MODE_REDUCE_BULK_TENSOR ||
            in->mode == ISA_MODE_ASYNC_BULK_PREFETCH_TENSOR);
}

static inline unsigned isa_tensor_rank(const isa_inst *in) { return in->geom; }

/* Where an address of two operands -- [handle, {coordinates}] -- begins:
 * a texture or surface's (after the destination, if the instruction has
 * one), a tensor copy's tensor map and coordinates (after the shared
 * destination of a copy into shared memory); ISA_MAX_OPDS for none. */
static inline unsigned isa_pair_address_opd(const isa_inst *in)
{
    unsigned fl = isa_ops[in->op].flags;
    if (fl & ISA_F_IMAGE)
        return fl & ISA_F_NODST ? 0 : 1;
    if (isa_cp_is_tensor(in))
        return in->mode == ISA_MODE_ASYNC_BULK_TENSOR_MBAR ? 1 : 0;
    return ISA_MAX_OPDS;
}

/* wgmma.commit_group, and wgmma.wait_group N (the timing model's warp
 * waits there until all but the newest N groups' multiplies are done). */
static inline bool isa_wgmma_commits(const isa_inst *in) { return in->op == ISA_OP_WGMMA_COMMIT; }
static inline bool isa_wgmma_waits(const isa_inst *in) { return in->op == ISA_OP_WGMMA_WAIT; }
static inline bool isa_wgmma_multiplies(const isa_inst *in) { return in->op == ISA_OP_WGMMA_MMA_ASYNC; }

/* Whether operand 0 is a register the instruction writes: the table's
 * NODST flag, but for bar.red / barrier.red, the one barrier with a
 * destination (the reduction's result). */
static inline bool isa_inst_has_dst(const isa_inst *in)
{
    bool bar_red = (in->op == ISA_OP_BAR || in->op == ISA_OP_BARRIER) && in->mode == ISA_MODE_RED;
    return !(isa_ops[in->op].flags & ISA_F_NODST) || bar_red;
}

/* Whether in ends the thread that runs it: exit, or ret from the kernel
 * itself (kernel_level: in is in the kernel's own code). */
static inline bool isa_inst_ends_thread(const isa_inst *in, bool kernel_level)
{
    return in->op == ISA_OP_EXIT || (in->op == ISA_OP_RET && kernel_level);
}

/* Whether in is a direct branch (bra to a label; a guard, if any, is the
 * caller's to look at). */
static inline bool isa_inst_is_jump(const isa_inst *in) { return in->op == ISA_OP_BRA; }

/* Whether in leaves the function that runs it (ret, exit, trap): the
 * control-flow graph's edge to its exit node. */
static inline bool isa_inst_leaves_function(const isa_inst *in)
{
    return in->op == ISA_OP_RET || in->op == ISA_OP_EXIT || in->op == ISA_OP_TRAP;
}

/* Whether in branches through a table of targets (brx.idx). */
static inline bool isa_inst_is_table_jump(const isa_inst *in)
{
    return (isa_ops[in->op].flags & ISA_F_TABLE) != 0;
}

/* Whether in is a call (direct or through a register). */
static inline bool isa_inst_is_call(const isa_inst *in) { return in->op == ISA_OP_CALL; }

/* ------------------------------------------------------------------------ */
/* The module IR                                                             */

typedef enum { ISA_LINK_NONE, ISA_LINK_VISIBLE, ISA_LINK_EXTERN, ISA_LINK_WEAK,
               ISA_LINK_COMMON } isa_linkage;

typedef enum { ISA_VAR_PLAIN, ISA_VAR_KPARAM, ISA_VAR_FPARAM, ISA_VAR_FRET,
               ISA_VAR_CALLARG } isa_var_role;

/* An address of another symbol inside a variable's initialiser:
 * `.global .u64 p = generic(x)+8`, `= x`, a function's address (`= f`,
 * function-pointer tables and vtables), or one byte of an address in a
 * byte array (`0xFF00(generic(x))`, what compilers write for a pointer in a
 * packed structure). */
typedef struct isa_reloc {
    uint64_t at;            /* byte offset in the variable */
    uint32_t var;           /* the symbol whose address goes there: a variable,
                               or with `func` a function index */
    uint8_t bytes;          /* bytes written at `at`: 1, 2, 4 or 8 */
    uint8_t generic;        /* generic(x): the generic address */
    uint8_t func;           /* the symbol is a function */
    uint8_t shift;          /* mask form: the byte (address >> shift) & 0xFF */
    uint8_t masked;         /* mask form (else the whole address) */
    int64_t addend;
} isa_reloc;

typedef struct isa_var {
    const char *name;
    uint8_t space;          /* isa_space */
    uint8_t linkage;        /* isa_linkage */
    uint8_t type;           /* element type */
    uint8_t role;           /* isa_var_role */
    int32_t func;           /* owning function, -1 at module scope */
    uint32_t align;
    uint64_t size;          /* bytes; 0 for an unsized .extern .shared array */
    uint8_t *init;          /* initial bytes (size of them) or NULL */
    isa_reloc *relocs;
    uint32_t nrelocs;
    uint32_t line;
    uint64_t offset;        /* KPARAM: offset in the parameter buffer */
} isa_var;

/* A named range of registers as declared: `.reg .f32 %f<4>` is {"%f", 4, base}. */
typedef struct isa_regdecl {
    const char *name;       /* the prefix for ranges, the whole name otherwise */
    uint32_t count;         /* 0 for a single register named exactly `name` */
    uint16_t base;          /* first dense index (register or predicate space) */
    uint8_t type;           /* isa_type (PRED for predicates) */
} isa_regdecl;

/* A call site: `call (rets), callee, (args);` */
typedef struct isa_call {
    int32_t callee;         /* function index, -1 for an indirect call */
    uint16_t target_reg;    /* indirect: register holding the function address */
    uint8_t nargs, nrets;
    uint32_t *args;         /* var indices of the argument .param variables */
    uint32_t *rets;
    const char *proto;      /* indirect: prototype label, else NULL */
} isa_call;

/* Where an instruction came from: CUDA source position from .loc. */
typedef struct isa_srcpos {
    uint16_t file;          /* index into isa_module.files, 0 = none */
    uint32_t line;
    uint16_t col;
    uint16_t at_file;       /* inlined: the call site's file (0 = not inlined) */
    uint32_t at_line;       /* and line */
} isa_srcpos;

typedef struct isa_func {
    const char *name;
    uint8_t linkage;        /* isa_linkage of its definition (or declaration) */
    bool is_entry;
    uint16_t sm;            /* its unit's .target (sm_90: 90); a linked module's is the newest */
    bool is_extern;         /* declared, no body (resolved elsewhere or an error) */
    bool noreturn;
    uint32_t line;
    uint32_t *params;       /* var indices of the formal parameters */
    uint32_t nparams;
    uint32_t *rets;         /* var indices of the return parameters (.func only) */
    uint32_t nrets;
    uint64_t param_bytes;   /* entry: size of the parameter buffer */
    isa_inst *code;
    uint32_t ncode, cap_code;
    isa_srcpos *src;        /* per instruction, parallel to code (may be NULL) */
    uint16_t nregs;         /* dense register count (64-bit columns) */
    uint16_t npreds;        /* dense predicate count */
    isa_regdecl *regs;
    uint32_t nregdecls;
    isa_call *calls;
    uint32_t ncalls;
    uint32_t **brx_targets; /* brx.idx tables: instruction indices */
    uint32_t *brx_counts;
    uint32_t nbrx;
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    /* Clusters: .reqnctapercluster (0 when absent), .explicitcluster,
     * .maxclusterrank (0 when absent). */
    uint32_t reqnctapercluster[3], maxclusterrank;
    bool explicitcluster;
    uint64_t local_bytes;   /* this function's own frame (set by exec/ layout) */
} isa_func;

typedef struct isa_module {
    uint32_t version;       /* PTX ISA version, major * 10 + minor */
    uint32_t sm;            /* .target sm_XX */
    char sm_suffix;         /* its 'a' (sm_90a) or 'f' (sm_100f), else 0 */
    bool as_written;        /* parsed without ptxas's contraction (for printing) */
    uint32_t address_size;
    isa_var *vars;
    uint32_t nvars, cap_vars;
    isa_func *funcs;
    uint32_t nfuncs, cap_funcs;
    const char **files;     /* .file table; [0] is "" */
    uint32_t nfiles;
    const char *source_name;/* where the PTX came from, for messages */
    const char *text;       /* the PTX source (owned), for listings */
    size_t text_len;
    uint16_t *lists;        /* registers of ISA_OPD_LIST operands */
    uint32_t nlists, cap_lists;
    struct isa_arena *arena;/* every allocation of the module */
} isa_module;

/* Builder: the frontend grows a module through these. */
isa_module *isa_module_new(void);
void isa_module_free(isa_module *m);
size_t isa_module_bytes(const isa_module *m);               /* memory the module holds */
void *isa_alloc(isa_module *m, size_t bytes);               /* zeroed; NULL on OOM */
const char *isa_strdup(isa_module *m, const char *s, size_t n);
isa_var *isa_add_var(isa_module *m, uint32_t *out_index);
isa_func *isa_add_func(isa_module *m, uint32_t *out_index);
isa_inst *isa_add_inst(isa_module *m, isa_func *f);          /* zeroed, guard = NOREG */
/* Store a register list; its offset in m->lists, or UINT32_MAX on OOM. */
uint32_t isa_add_list(isa_module *m, const uint16_t *regs, unsigned n);

/* The registers of a braced operand (VEC or LIST) or of a single register
 * operand, into regs[ISA_MAX_LIST]; their count. */
unsigned isa_opd_regs(const isa_opd *o, const uint16_t *lists, uint16_t *regs);
/* Where control may go after instruction i of f, as indices into f's code
 * written to out (f->ncode: it leaves the function); returns how many, at
 * most isa_func_max_successors(f).  The frontend's control-flow graph and
 * exec/'s register liveness both walk these. */
uint32_t isa_func_successors(const isa_func *f, uint32_t i, uint32_t *out);
uint32_t isa_func_max_successors(const isa_func *f);
int isa_find_func(const isa_module *m, const char *name);
int isa_find_var(const isa_module *m, const char *name, int32_t func);

/* Which kind of value an operand has, for immediates' conversion. */
uint8_t isa_opd_type(const isa_inst *in, unsigned i);

/* The bytes of the signed integer result an instruction writes to its
 * first operand, or 0 when that result is not a signed integer (unsigned,
 * bits, float, predicate, a packed cvt.pack or matrix fragment, none). */
unsigned isa_signed_result_bytes(const isa_inst *in);
/* PTX ISA, "Operand Size Exceeding Instruction-Type Size": a destination
 * register wider than the instruction's type receives the result
 * sign-extended for signed integer types, zero-extended otherwise.  Zero
 * extension is what every result already is (registers hold values
 * zero-extended to 64 bits); this marks, in opd[0].ext, the instructions of
 * f whose signed result needs the other.  It also marks (opd[1].ext = 8)
 * each st.f32 whose source registers are 64 bits wide: the ISA would store
 * their low 32 bits, but the hardware (an H200, as ptxas compiles it)
 * stores the register converted from an unsigned 64-bit integer to f32,
 * and so does isa_sem_st.  Needs f->regs; false on OOM. */
bool isa_mark_wide_dsts(isa_func *f, const uint16_t *lists);

/* The name of a register for listings ("%r7"); writes into buf. */
/* The whole file at path, NUL-terminated (*len excludes the NUL); NULL
 * with errno set if it cannot be read.  The caller frees it. */
char *ptx_read_file(const char *path, size_t *len);

const char *isa_reg_name(const isa_func *f, unsigned reg, bool pred, char *buf, size_t n);
/* The name (range prefix) declaration i is printed with: its own, unless an
 * earlier declaration of the function (another { } scope) has it too. */
const char *isa_regdecl_name(const isa_func *f, uint32_t i, char *buf, size_t n);

/* ------------------------------------------------------------------------ */
/* The warp view: what a semantic function sees                              */

/* Generic address windows.  Device memory (global, const, kernel parameters)
 * is host memory at its own address; shared and local memory are reached
 * through these two windows of the generic space, which exec/ reserves so no
 * device allocation can ever overlap them. */
#define ISA_WINDOW_BYTES (1ull << 24)

/* Distributed shared memory (thread block clusters).  A shared address (and
 * an offset in the generic shared window) below ISA_CLUSTER_SLOT is in the
 * CTA's own shared memory; slot r + 1, [(r + 1) * ISA_CLUSTER_SLOT, +
 * ISA_CLUSTER_SLOT), is the shared memory of the CTA of rank r in the
 * cluster, which is what mapa returns.  A slot holds the largest shared
 * memory of any GPU (228 KiB), and 1 + ISA_CLUSTER_MAX slots fit in the
 * window and in 32 bits. */
#define ISA_CLUSTER_SLOT (1u << 19)
#define ISA_CLUSTER_MAX 16
/* The shared memory CUDA reserves for itself in every block on sm_80 and
 * later (cudaDevAttrReservedSharedMemoryPerBlock; %reserved_smem_offset_*):
 * cooperative groups keep their per-block state there, in -G builds for
 * one.  ptxsim puts it at the top of the CTA's own slot, far from the
 * program's shared memory, so an overrun of that still faults; the two
 * halves are %reserved_smem_offset_0 and _1. */
#define ISA_RESERVED_SMEM_BYTES 1024u
#define ISA_RESERVED_SMEM_AT (ISA_CLUSTER_SLOT - ISA_RESERVED_SMEM_BYTES)
_Static_assert((ISA_CLUSTER_MAX + 1ull) * ISA_CLUSTER_SLOT <= ISA_WINDOW_BYTES,
               "every CTA of a cluster has a slot in the shared window");

/* A texture or surface object as the texture unit sees it: texels laid out
 * in device memory and, for textures, how to sample them.  The runtime
 * builds these from CUDA resource and texture descriptors; tex, tld4, suld
 * and sust find them by handle through isa_mem.image. */
typedef enum { ISA_CHAN_UNSIGNED, ISA_CHAN_SIGNED, ISA_CHAN_FLOAT } isa_chan_kind;
typedef enum { ISA_ADDRESS_WRAP, ISA_ADDRESS_CLAMP, ISA_ADDRESS_MIRROR,
               ISA_ADDRESS_BORDER } isa_address_mode;

#define ISA_MAX_MIP_LEVELS 16   /* 32768 texels down to 1 */
typedef struct isa_image {
    uint64_t base;              /* device address of texel (0, 0, 0) of layer 0 */
    uint32_t width, height, depth;  /* texels; 1 in dimensions the image lacks */
    uint32_t layers;            /* layered images and cube maps: layers (faces); else 0 */
    uint64_t pitch;             /* bytes from one row to the next */
    uint64_t slice;             /* bytes from one depth slice to the next */
    uint64_t layer_stride;      /* bytes from one layer to the next */
    uint8_t channels;           /* 1, 2 or 4 */
    uint8_t channel_bytes;      /* 1, 2 or 4 */
    uint8_t channel_kind;       /* isa_chan_kind (FLOAT with 2 bytes: half) */
    uint8_t surface;            /* a surface object (suld, sust), not a texture */
    uint8_t linear_memory;      /* bound to linear memory: tex1Dfetch semantics */
    uint8_t cubemap;
    /* Sampler state (textures). */
    uint8_t address[3];         /* isa_address_mode per dimension */
    uint8_t filter_linear;      /* bilinear / trilinear filtering, else nearest */
    uint8_t read_normalized;    /* integer texels read as floats in [0, 1] or [-1, 1] */
    uint8_t normalized_coords;  /* coordinates in [0, 1) across the image */
    float border[4];            /* ISA_ADDRESS_BORDER's colour */
    /* Mipmaps (a mipmapped array's texture): `levels` levels, each half
     * the last in every spatial dimension (at least 1); level l's texels at
     * level_base[l], rows level_pitch[l] apart, slices (and layers)
     * level_slice[l] apart -- level 0 is base, pitch and slice above.  The
     * sampler's level of detail is the lod asked for (.level), or one the
     * gradients give (.grad), or 0, plus lod_bias, within [lod_min,
     * lod_max] and the levels there are; mip_linear blends the two levels
     * around it, else takes the nearest. */
    uint8_t levels;             /* 0 or 1: not mipmapped */
    uint8_t mip_linear;
    float lod_bias, lod_min, lod_max;
    uint64_t level_base[ISA_MAX_MIP_LEVELS], level_pitch[ISA_MAX_MIP_LEVELS], level_slice[ISA_MAX_MIP_LEVELS];
} isa_image;

/* A tensor map (CUtensorMap) as the tensor copies (cp.async.bulk.tensor,
 * PTX ISA 9.7.9.25.5) read it: the driver's cuTensorMapEncodeTiled checks
 * what a program gives and packs this into the 128 opaque bytes, which the
 * program passes to kernels by value (a __grid_constant__ parameter) or
 * copies to memory; isa_tensormap_unpack reads it back at each copy.
 * Dimension 0 is the innermost. */
#define ISA_TENSORMAP_BYTES 128
#define ISA_TENSORMAP_MAX_RANK 5
typedef enum { ISA_SWIZZLE_NONE, ISA_SWIZZLE_32B, ISA_SWIZZLE_64B, ISA_SWIZZLE_128B } isa_swizzle;

typedef struct isa_tensormap {
    uint64_t base;              /* device address of element (0, ..., 0); 16-byte aligned */
    uint64_t dims[ISA_TENSORMAP_MAX_RANK];      /* elements in each dimension (1 .. 2^32) */
    uint64_t strides[ISA_TENSORMAP_MAX_RANK];   /* bytes from one index to the next; [0] the element's */
    uint32_t box[ISA_TENSORMAP_MAX_RANK];       /* a box's extent in elements (1 .. 256) */
    uint32_t traverse[ISA_TENSORMAP_MAX_RANK];  /* elementStrides: every n-th element of the box (1 .. 8) */
    uint8_t rank;               /* 1 .. 5 */
    uint8_t elem_bytes;         /* 1, 2, 4 or 8 */
    uint8_t dtype;              /* CUtensorMapDataType: what a reduction adds, which fill is a NaN */
    uint8_t swizzle;            /* isa_swizzle */
    uint8_t nan_fill;           /* out-of-bounds float elements read as the OOB NaN, else 0 */
} isa_tensormap;

void isa_tensormap_pack(const isa_tensormap *t, uint8_t out[ISA_TENSORMAP_BYTES]);
/* false for bytes no isa_tensormap_pack wrote (a map never encoded, or
 * overwritten). */
bool isa_tensormap_unpack(const uint8_t in[ISA_TENSORMAP_BYTES], isa_tensormap *t);
/* The elements a box holds in dimension d (ceil(box / traverse); dimension
 * 0 is never strided), and the bytes a copy of a whole box moves. */
uint32_t isa_tensormap_box_elems(const isa_tensormap *t, unsigned d);
/* A CUtensorMapDataType's element size in bytes (0: a type ptxsim does not
 * copy); tensormap.replace's and tensormap.cp_fenceproxy's forms (NULL, or
 * what is wrong). */
unsigned isa_tensormap_dtype_bytes(uint8_t dtype);
const char *isa_tensormap_form_error(const struct isa_inst *in);
uint64_t isa_tensormap_box_bytes(const isa_tensormap *t);

/* A timing model's log of global stores (isa_mem.log): while a warp has
 * one, st to global memory puts its bytes here instead of in memory, a
 * column of a lane (up to 8 bytes) an entry, in order, and the model
 * applies them later in an order of its own (timing/, windows).  Every
 * other access goes to memory as ever. */
typedef struct isa_store {
    uint64_t addr;
    uint64_t bits;                   /* the bytes, from the lowest address */
    uint32_t tag;                    /* the log's tag when it was made */
    uint32_t bytes;                  /* 1, 2, 4 or 8 */
} isa_store;

typedef struct isa_store_log {
    isa_store *v;
    uint32_t n, cap;
    uint32_t tag;                    /* given to the stores logged now */
    uint64_t lo, hi;                 /* the logged bytes lie in [lo, hi) (lo > hi: none) */
    bool failed;                     /* out of host memory: a store was lost */
} isa_store_log;

/* Log an n-byte store of bits at addr. */
void isa_store_log_add(isa_store_log *log, uint64_t addr, unsigned n, uint64_t bits);

struct isa_warp;
typedef struct isa_mem {
    uintptr_t global_lo, global_hi;  /* valid device memory: [lo, hi) */
    /* Memory checking (optional): true if [addr, addr+bytes) lies in one
     * live allocation.  Without it, any address in device memory is valid. */
    bool (*check)(const void *ctx, uint64_t addr, uint64_t bytes);
    const void *check_ctx;
    /* Race checking (optional): told of every membar and fence, which
     * order global accesses between threads; NULL: fences do nothing. */
    void (*fence)(struct isa_warp *w, const isa_inst *in, uint32_t mask);
    uint64_t shared_win, local_win;  /* generic window bases */
    uint8_t *shared;                 /* this CTA's shared memory */
    uint32_t shared_bytes;
    uint8_t *reserved;               /* its reserved block (ISA_RESERVED_SMEM_AT) */
    /* Memory checking (optional): 1 for each byte below shared_map_bytes
     * that lies in a .shared variable the kernel names; above it, the
     * dynamic shared memory. */
    const uint8_t *shared_map;
    uint32_t shared_map_bytes;
    uint8_t *local;                  /* lane l's local memory: local + l * local_stride */
    uint32_t local_stride;
    /* The live texture or surface object with this handle, or NULL. */
    const isa_image *(*image)(const void *ctx, uint64_t handle);
    const void *image_ctx;
    /* Counts changes to the CTA's mbarrier objects (NULL: not counted), so
     * exec/ can tell a wait loop that can never end. */
    uint64_t *mbar_ops;
    /* Thread block clusters: the shared memory of each CTA of the cluster
     * by rank (NULL where that CTA has exited), and this CTA's rank.  A
     * launch without clusters has clusters of one. */
    uint8_t *const *cluster_shared;
    uint32_t cluster_size, cluster_rank;
    /* Other host threads run CTAs of the same launch (exec/grid.c), so
     * global memory is shared between host threads: atomics on it are host
     * atomics of the instruction's width and ordering, ld/st host atomic
     * loads and stores (relaxed for weak ones, a plain move on x86-64 and
     * AArch64: a program that races on global memory gets some value, as
     * on a GPU, never the host's undefined behaviour), and fences host
     * fences.  Bulk, async and matrix copies stay plain.  Shared and local memory belong to one CTA,
     * whose warps all run on one host thread, and stay plain.  Off, every
     * access is plain: one thread runs the launch, in a fixed order. */
    bool concurrent;
    /* A timing model's log of this CTA's global stores, or NULL. */
    isa_store_log *log;
    /* While concurrent: spin locks for the 16-byte atomics (atom.cas.b128,
     * atom.exch.b128), which no host atomic covers without libatomic, one
     * chosen by address (ISA_RMW_LOCKS of them). */
    uint32_t *rmw_locks;
    /* A kernel's parameters are laid out at one address, [param_lo,
     * param_lo + param_len), which its code names; a launch of it that
     * begins while another still runs has a buffer of its own, param_shift
     * bytes away.  .param-space addresses in that range, and the generic
     * addresses cvta.param makes of them, move by param_shift (0: the
     * launch uses the kernel's own buffer). */
    uint64_t param_lo, param_len;
    uint64_t param_shift;
} isa_mem;

/* Where a .param-space address of a kernel parameter lies for this
 * launch (see isa_mem.param_shift). */
static inline uint64_t isa_param_at(const isa_mem *m, uint64_t addr)
{
    return addr - m->param_lo < m->param_len ? addr + m->param_shift : addr;
}

#define ISA_RMW_LOCKS 64

/* Per-lane memory addresses of one warp-instruction, for the timing model
 * and the checkers (filled only when isa_warp.access is non-NULL). */
typedef struct isa_access {
    uint64_t addr[ISA_WARP_SIZE];    /* address in the instruction's state space */
    uint32_t lanes;                  /* lanes that accessed memory */
    uint8_t space;                   /* resolved isa_space (generic resolved) */
    uint8_t bytes;                   /* bytes per lane */
    uint8_t store, atomic;
} isa_access;

/* Where a fault happened, filled by the semantic that returns a failure. */
typedef struct isa_fault {
    uint64_t addr;
    uint32_t lane;
    uint32_t bytes;
    uint8_t space;
    const char *why;        /* PTX_E_UNSUPPORTED: what ptxsim does not execute (static text) or NULL */
} isa_fault;

typedef struct isa_warp {
    uint64_t *r;                     /* register columns: r[reg * 32 + lane] */
    uint64_t local_hits;             /* lanes' generic accesses that were local (a count) */
    uint64_t atomic_writes;          /* atoms and reds compiled code ran that may have
                                        written (isa_atomic_changed; a count: jit/) */
    uint32_t atomic_spins;           /* atomics in a row that left memory as it was
                                        (isa_atomic_note) */
    uint32_t *p;                     /* predicates: one lane mask each */
    uint32_t cc;                     /* carry flag per lane (add.cc, addc, ...) */
    uint32_t taken;                  /* control semantics: lanes taking the branch etc. */
    const isa_mem *mem;
    isa_access *access;              /* non-NULL: record addresses */
    isa_fault fault;
    uint64_t frame;                  /* local-memory offset of the current frame */
    uint64_t frame_end;              /* where it ends: with memory checking, local
                                        accesses past it (into frames not in use) fault */
    uint64_t stack_ptr;              /* alloca's stack pointer: its allocations grow down
                                        from the top of local memory to here, the frames
                                        up from 0 below it */
    /* Special registers.  Per-lane ones are columns; the rest are uniform. */
    uint32_t tid[3][ISA_WARP_SIZE];
    uint32_t ntid[3], ctaid[3], nctaid[3];
    uint32_t warpid, nwarpid, smid, nsmid, lane0;
    uint64_t gridid;
    uint32_t dynamic_smem, total_smem;
    /* Clusters: %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid,
     * %cluster_ctarank, %cluster_nctarank, %is_explicit_cluster. */
    uint32_t clusterid[3], nclusterid[3], cluster_ctaid[3], cluster_nctaid[3];
    uint32_t cluster_ctarank, cluster_nctarank, explicit_cluster;
    const uint32_t *envreg;          /* %envreg0..31 of the launch (32 values) */
    const uint64_t *clock;           /* the engine's time (instructions or cycles) */
    void *ctx;                       /* exec/'s warp, for warp-level semantics */
    const uint16_t *lists;           /* the module's register lists (ISA_OPD_LIST) */
    uint64_t scratch[4][ISA_WARP_SIZE]; /* broadcast immediates and special registers */
    uint64_t sink[ISA_WARP_SIZE];    /* where a '_' destination's values go */
} isa_warp;

/* An mbarrier object's 64-bit word in shared memory, decoded (the encoding
 * is sem_mbarrier.c's), for reports. */
typedef struct isa_mbar_fields {
    bool valid;                 /* initialised, and not invalidated since */
    uint8_t phase;              /* parity of the current phase */
    uint32_t pending;           /* arrivals the current phase still waits for */
    uint32_t expected;          /* arrivals each phase waits for */
    int32_t tx;                 /* tx-count: bytes expected and not yet completed */
} isa_mbar_fields;
isa_mbar_fields isa_mbar_decode(uint64_t word);

/* Every semantic function: act on the lanes in `mask` (guard already applied). */
typedef ptx_status isa_sem_fn(isa_warp *w, const isa_inst *in, uint32_t mask);
extern isa_sem_fn *const isa_sem_table[ISA_OP_COUNT];

/* Sign-extend the signed result just written to the lanes in mask of
 * in's destination into its wider register(s) (isa_mark_wide_dsts). */
void isa_extend_dst(isa_warp *w, const isa_inst *in, uint32_t mask);

/* Whether an atom just executed by the lanes in active may have changed
 * memory (sem_mem.c): false for one that provably left it as it was, as a
 * spin lock's failed compare-and-swap does (the loop watch, exec/hang.c). */
bool isa_atomic_changed(const isa_warp *w, const isa_inst *in, uint32_t active);
/* The same, counting in w->atomic_spins an atomic that did not change
 * memory (reset by one that may have).  ISA_ATOMIC_SPINS of them in a row
 * and the warp spins on a lock: exec/ lets its other lanes run (warp.c,
 * spin_atomic), as independent thread scheduling would. */
bool isa_atomic_note(isa_warp *w, const isa_inst *in, uint32_t active);
#define ISA_ATOMIC_SPINS 32u

/* One instruction on the lanes in mask: its semantic function, then the
 * widening of a signed result into a wider destination register, so that
 * no semantic function needs to know the register's width. */
static inline ptx_status isa_execute(isa_warp *w, const isa_inst *in, uint32_t mask)
{
    ptx_status st = isa_sem_table[in->op](w, in, mask);
    if (in->opd[0].ext && st == PTX_OK)
        isa_extend_dst(w, in, mask);
    return st;
}

#endif /* PTXSIM_ISA_H */

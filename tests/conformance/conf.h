/*
 * conf.h -- the instruction conformance generator's shared vocabulary.
 *
 * The generator enumerates instruction forms from transcriptions of the
 * PTX ISA's syntax lines (conf_table.c), keeps the ones ptxsim's parser and
 * engine accept, runs each on many warps of edge and random operands, and
 * compares every lane with a reference written from the ISA's definitions
 * (ref_*.c).  The references never call isa/: a form is described here by
 * its own small record (conf_form), parsed from its spelling.
 */
#ifndef PTXSIM_CONF_H
#define PTXSIM_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- types --------------------------------------------------------------- */

typedef enum {
    CT_NONE,
    CT_B8, CT_B16, CT_B32, CT_B64, CT_B128,
    CT_U8, CT_U16, CT_U32, CT_U64,
    CT_S8, CT_S16, CT_S32, CT_S64,
    CT_F16, CT_F16X2, CT_BF16, CT_BF16X2, CT_TF32, CT_F32, CT_F64,
    CT_E4M3X2, CT_E5M2X2, CT_E4M3, CT_E5M2,
    CT_U16X2, CT_S16X2, CT_F32X2,
    CT_U4, CT_S4, CT_U2, CT_S2,     /* cvt.pack.sat's sub-byte destinations */
    CT_PRED,
    CT_COUNT
} conf_type;

typedef enum { CK_B, CK_U, CK_S, CK_F, CK_P } conf_kind;

typedef struct {
    const char *name;
    uint8_t bits;           /* register bits (pairs: both elements) */
    uint8_t kind;           /* conf_kind */
} conf_type_info;

extern const conf_type_info conf_types[CT_COUNT];
conf_type conf_type_by_name(const char *s, size_t n);

/* ---- modifiers ----------------------------------------------------------- */

/* Rounding: floating-point results (.rn...) and round-to-integer (.rni...). */
typedef enum { CR_NONE, CR_RN, CR_RZ, CR_RM, CR_RP, CR_RNA, CR_RNI, CR_RZI, CR_RMI, CR_RPI, CR_RS } conf_rnd;

typedef enum {
    CC_NONE, CC_EQ, CC_NE, CC_LT, CC_LE, CC_GT, CC_GE, CC_LO, CC_LS, CC_HI, CC_HS,
    CC_EQU, CC_NEU, CC_LTU, CC_LEU, CC_GTU, CC_GEU, CC_NUM, CC_NAN
} conf_cmp;

typedef enum { CB_NONE, CB_AND, CB_OR, CB_XOR } conf_bool;

/* Independent modifiers, one bit each. */
enum {
    CF_FTZ = 1u << 0, CF_SAT = 1u << 1, CF_HI = 1u << 2, CF_LO = 1u << 3, CF_WIDE = 1u << 4,
    CF_CC = 1u << 5, CF_APPROX = 1u << 6, CF_FULL = 1u << 7, CF_NAN = 1u << 8,
    CF_XORSIGN = 1u << 9, CF_ABS = 1u << 10, CF_RELU = 1u << 11, CF_SATFINITE = 1u << 12,
    CF_SHIFTAMT = 1u << 13, CF_CLAMP = 1u << 14, CF_WRAP = 1u << 15, CF_OOB = 1u << 16,
};

/* ---- operands ------------------------------------------------------------ */

#define CONF_MAX_SRC 5
#define CONF_MAX_DST 2

typedef enum {
    CO_REG,                 /* a register of its type */
    CO_PRED,                /* a predicate (loaded as 0/1) */
    CO_IMM,                 /* an immediate: the form's imm (lop3's LUT) */
} conf_opd_kind;

typedef struct {
    uint8_t kind;           /* conf_opd_kind */
    uint8_t type;           /* conf_type */
    char name;              /* 'a', 'b', 'c', 'e', 'd', 'p', 'q', 'i' */
} conf_opd;

/* ---- forms --------------------------------------------------------------- */

struct conf_template;

typedef struct conf_form {
    char text[96];          /* the mnemonic with its modifiers: "add.rn.ftz.f32" */
    char op[16];            /* "add" */
    uint8_t type[4];        /* conf_type, in spelling order */
    uint8_t ntypes;
    uint8_t rnd, cmp, boolop;
    uint32_t flags;         /* CF_* */
    char mode[16];          /* a mode word (prmt's f4e, testp's finite, shf's l/r), else "" */
    conf_opd dst[CONF_MAX_DST], src[CONF_MAX_SRC];
    uint8_t ndst, nsrc;
    bool carry_in;          /* reads CC.CF (addc, subc, madc) */
    bool carry_out;         /* writes CC.CF (.cc): a second result, the carry */
    uint32_t imm;           /* the immediate operand for this run */
    const struct conf_template *tpl;
    /* Words of the mnemonic conf.h has no field for (.sync, .up, .shared,
     * .relaxed, .v4 ...): kept for the whole-warp families, which read
     * them with conf_word(). */
    char words[8][24];
    uint8_t nwords;
} conf_form;

/* What a lane should produce.  v[i] is compared with the i-th result cut
 * to its type's width.  A result the ISA leaves loose is compared loosely:
 * nan_any (any NaN of the type will do, where the ISA names no NaN) and
 * ulp (the .approx forms' documented error bound, in units of the last
 * place of the result's format). */
typedef struct conf_want {
    uint64_t v[CONF_MAX_DST];
    bool nan_any[CONF_MAX_DST];
    bool zero_any[CONF_MAX_DST];    /* a wanted zero may come with either sign (.sat's clamp of -0) */
    uint64_t zero_bits[CONF_MAX_DST];   /* bits the ISA says are 0 (checked whatever the tolerance) */
    double ulp;             /* 0: exact */
    double abs_err;         /* or within this absolute error (sin/cos, ...) */
    bool skip;              /* the ISA leaves this operand combination undefined */
    bool any[CONF_MAX_DST]; /* result i is unpredictable here (whole-warp families) */
} conf_want;

/* Source values (each zero-extended from its type; predicates 0/1), the
 * carry in (0/1) in src[CONF_MAX_SRC]. */
typedef void (*conf_ref_fn)(const conf_form *f, const uint64_t *src, conf_want *w);

/* How operands are drawn, by source position, beyond the type's edges. */
typedef enum {
    CG_DEFAULT,
    CG_SHIFT,               /* small counts around the width: 0..width+2, and large */
    CG_BYTE,                /* bit positions and lengths 0..255 */
    CG_PRMT,                /* prmt selectors */
} conf_gen;

struct conf_xctx;

typedef struct conf_template {
    const char *family;     /* "int", "bits", "cmp", "cvt", "float", "half" */
    const char *syntax;     /* ISA syntax: "add{.rn,.rz}{,.ftz}.f32"; {x,y} picks one, {,x} optional */
    const char *operands;   /* "d, a, b"; a ":type" suffix names a type other than the default */
    conf_ref_fn ref;        /* NULL: no reference yet (counted as uncovered) */
    uint8_t gen[CONF_MAX_SRC];  /* conf_gen per source */
    uint16_t nimm;          /* immediates to try (lop3: 256 LUTs); 0 for none */
    /* Whole-warp families (warp, atom, ldst): builds its own kernel, runs
     * and checks it (conf_x*.c); NULL for the lane-by-lane families. */
    int (*xrun)(struct conf_xctx *c, const struct conf_form *f);
} conf_template;

extern const conf_template conf_templates[];
extern const size_t conf_ntemplates;

/* Expand a template's syntax into concrete mnemonics, calling out() for
 * each; false if the template is malformed. */
bool conf_expand(const char *syntax, void (*out)(void *ctx, const char *mnemonic), void *ctx);
/* Build a form from a mnemonic and the template's operand list; false (with
 * a message in err) if it names something conf.h does not know. */
bool conf_form_init(conf_form *f, const conf_template *t, const char *mnemonic, char *err, size_t n);
bool conf_has(const conf_form *f, uint32_t flag);
/* True if the mnemonic has the word w (one of f->words). */
bool conf_word(const conf_form *f, const char *w);

/* ---- operand values ------------------------------------------------------ */

typedef struct conf_rng { uint64_t s; } conf_rng;
uint64_t conf_rand(conf_rng *r);

/* Fill vals[lane] for one source of `lanes` lanes: first the edge values
 * of the type (in combinations with the other sources, by `pos` and
 * `nsrc`), then random ones of several shapes; `first` (source 0's
 * values, or NULL) lets later sources be its neighbours. */
void conf_values(conf_rng *r, const conf_form *f, unsigned pos, uint64_t *vals, unsigned lanes,
                 const uint64_t *first);

/* ---- running ------------------------------------------------------------- */

/* The engine that runs the forms: ptxsim (conf_engine.c) or a CUDA driver
 * (conf_engine_cuda.c, the program conformance-cuda), named for the report. */
typedef struct conf_engine conf_engine;
conf_engine *conf_engine_new(void);
void conf_engine_free(conf_engine *e);
const char *conf_engine_name(void);
/* Whether the engine reconverges a warp where its paths join, as ptxsim's
 * SIMT stack does (true), or may leave the lanes apart, as a GPU with
 * independent thread scheduling may (false): the runners check the
 * reconvergence only where it is promised. */
bool conf_engine_reconverges(void);
/* Whether each instruction of a thread completes before the next one
 * issues (ptxsim), or a long-latency one may resolve after later
 * independent ones (a GPU: an H200's TRYWAIT for mbarrier.try_wait gives
 * its predicate after the thread's next mbarrier.complete_tx has issued,
 * so a probe can see the phase that complete_tx finishes). */
bool conf_engine_in_order(void);

typedef enum { CONF_RAN, CONF_PARSE_REFUSED, CONF_RUN_REFUSED, CONF_ERROR } conf_outcome;

/* Lanes per run at most, and the columns of 8-byte values per lane the
 * engine's input and output buffers hold. */
#define CONF_MAX_LANES 65536u
#define CONF_IN_COLS 8u
#define CONF_OUT_COLS 8u

/* Run form f on `lanes` lanes (a multiple of 32, one warp per block):
 * srcs[k][lane] are the sources (srcs[CONF_MAX_SRC]: carry in), out[i][lane]
 * receives result i. */
conf_outcome conf_run(conf_engine *e, const conf_form *f, unsigned lanes, uint64_t *const *srcs,
                      uint64_t *const *out, char *msg, size_t n);

/* Run a kernel `conf(.param .u64 pin, .param .u64 pout)` of the given text
 * on `lanes` lanes in one-warp blocks, with the input buffer as it is (the
 * caller fills conf_engine_in) and the output buffer as the caller left it
 * (conf_engine_out: CONF_OUT_COLS columns of CONF_MAX_LANES values). */
conf_outcome conf_launch(conf_engine *e, const char *ptx, size_t len, unsigned lanes, char *msg, size_t n);
uint64_t *conf_engine_in(conf_engine *e);
/* The same in blocks of `block` threads (a multiple of 32), and in
 * clusters of `cluster` blocks along x (0: none). */
conf_outcome conf_launch_cta(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                             char *msg, size_t n);
conf_outcome conf_launch_cluster(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                                 unsigned cluster, char *msg, size_t n);
/* Each engine hands every kernel to conf_dump before it runs it: with
 * PTXSIM_CONF_DUMP=FILE in the environment the last one is left in FILE
 * (to read what a failing form ran, or give it to ptxas). */
void conf_dump(const char *ptx, size_t len);
/* The engine's own launch, which conf_launch_cluster calls once it has
 * checked the shape (lanes a multiple of block, block a multiple of 32)
 * and handed the text to conf_dump. */
conf_outcome conf_engine_launch(conf_engine *e, const char *ptx, size_t len, unsigned lanes, unsigned block,
                                unsigned cluster, char *msg, size_t n);
/* A kernel's text, built by conf_put (printf-like); over: it did not fit. */
typedef struct conf_text { char *p; size_t n, cap; bool over; } conf_text;
void conf_put(conf_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether t was cut short (then msg says the kernel text was too long). */
bool conf_text_over(const conf_text *t, char *msg, size_t n);
/* Threads for a case run in whole blocks of `block`: the family's warps,
 * rounded down to whole blocks, and at least one block. */
unsigned conf_block_lanes(unsigned warps, unsigned block);
uint64_t *conf_engine_out(conf_engine *e);
/* A texture or surface object over img (isa.h; its base is an address in
 * the input buffer), made as the CUDA runtime makes one: CONF_RAN, or
 * CONF_RUN_REFUSED where the engine makes none (a CUDA driver's), or
 * CONF_ERROR; msg says why. */
struct isa_image;
conf_outcome conf_engine_image(conf_engine *e, const struct isa_image *img, uint64_t *handle, char *msg, size_t n);
void conf_engine_image_free(conf_engine *e, uint64_t handle);

/* ---- whole-warp families ---------------------------------------------------- */

/* What a whole-warp family's runner is given and reports.  It draws its
 * operands from rng, runs `warps` warps, checks every lane (and memory
 * cell) against its reference, prints up to CONF_SHOW failures, and
 * returns the run's conf_outcome. */
#define CONF_SHOW conf_show
extern unsigned conf_show;      /* 4, or PTXSIM_CONF_SHOW (all the data a hardware run can give) */
typedef struct conf_xctx {
    conf_engine *e;
    unsigned warps;
    conf_rng rng;
    bool verbose;
    unsigned shown;             /* failures printed for this form */
    uint64_t checked, failed;   /* lanes (and cells) checked, and failing */
    char msg[1200];             /* why the form was refused, or the error */
} conf_xctx;

int conf_xrun_warp(conf_xctx *c, const conf_form *f);
int conf_xrun_atom(conf_xctx *c, const conf_form *f);
int conf_xrun_ldst(conf_xctx *c, const conf_form *f);
int conf_xrun_bar(conf_xctx *c, const conf_form *f);
int conf_xrun_ctrl(conf_xctx *c, const conf_form *f);
int conf_xrun_mbar(conf_xctx *c, const conf_form *f);
int conf_xrun_cp(conf_xctx *c, const conf_form *f);
int conf_xrun_data(conf_xctx *c, const conf_form *f);
int conf_xrun_matrix(conf_xctx *c, const conf_form *f);
int conf_xrun_wmma(conf_xctx *c, const conf_form *f);
int conf_xrun_mma(conf_xctx *c, const conf_form *f);
int conf_xrun_cluster(conf_xctx *c, const conf_form *f);
int conf_xrun_image(conf_xctx *c, const conf_form *f);
int conf_xrun_sample(conf_xctx *c, const conf_form *f);

/* ---- checking ------------------------------------------------------------ */

/* True if `got` is what `w` asks for result i of type t. */
bool conf_match(const conf_want *w, unsigned i, uint8_t t, uint64_t got);

#endif /* PTXSIM_CONF_H */

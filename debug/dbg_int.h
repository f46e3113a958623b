/*
 * dbg_int.h -- the debugger's internals (internal to debug/).
 *
 *   session.c      the session, output, the per-program cache (source
 *                  positions, PTX text lines), CUDA source files, names
 *   input.c        reading commands: script, readline, plain lines
 *   commands.c     the command table, run control and focus commands
 *   launch.c       dbg_launch: the scheduler, stepping, stops
 *   breakpoints.c  breakpoints and watchpoints
 *   expr.c         expressions: conditions, print, x and watch addresses
 *   value.c        values: from register bits, formats; C type names
 *   dwarf.c        CUDA variables by name from nvcc -G's DWARF
 *   mem.c          reading device, shared, local and parameter memory
 *   show.c         where the focus is; print, x, display, list, backtrace
 *   info.c         info breakpoints, cuda warps/lanes/blocks/kernels, simt...
 */
#ifndef PTXSIM_DBG_INT_H
#define PTXSIM_DBG_INT_H

#include "debug.h"

#include <signal.h>
#include <stdarg.h>

#define DBG_PROMPT "(ptxsim) "
#define DBG_WATCH_MAX 16        /* bytes a watchpoint may cover */
#define DBG_RPC_CALL 0xFFFFFFFEu /* rpc of a call's SIMT entry (exec/warp.c) */

typedef struct dbg_expr dbg_expr;
typedef struct dbg_dwarf dbg_dwarf;

/* ---- values --------------------------------------------------------------- */

typedef enum { DBG_V_INT, DBG_V_UINT, DBG_V_FLT, DBG_V_DIM3 } dbg_vkind;

typedef struct dbg_value {
    uint8_t kind;               /* dbg_vkind */
    uint8_t bytes;              /* width, for hex and for memory reads */
    uint8_t type;               /* isa_type it came from (formatting); NONE when computed */
    uint8_t space;              /* isa_space of an address (GENERIC unless tagged) */
    uint8_t pointee;            /* a typed pointer: isa_type it points to (NONE: untyped) */
    union {
        int64_t i;
        uint64_t u;
        double f;
        uint32_t dim[3];
    };
    uint64_t hi;                /* a .b128 register's upper 64 bits (bytes 16; u is the lower) */
} dbg_value;

/* A C type in a cast or a watchpoint: `int`, `unsigned char`, `float`... */
typedef struct dbg_ctype {
    uint8_t bytes;
    uint8_t type;               /* isa_type */
    char name[24];
} dbg_ctype;

/* Where an expression is evaluated: a lane of a warp (w may be NULL when
 * no kernel runs), in call frame `level`. */
typedef struct dbg_ctx {
    exec_warp *w;
    unsigned lane;
    uint32_t level;
} dbg_ctx;

/* ---- breakpoints ---------------------------------------------------------- */

typedef enum { DBG_BP_FUNC, DBG_BP_PTX, DBG_BP_SOURCE, DBG_BP_PC, DBG_BP_WATCH } dbg_bp_kind;

typedef struct dbg_bp {
    int num;
    uint8_t kind;               /* dbg_bp_kind */
    bool enabled, temporary;
    uint64_t hits;
    char *what;                 /* the location or address as given */
    char *name;                 /* FUNC: the name; SOURCE: the file's basename */
    uint32_t line;              /* PTX or CUDA source line */
    uint32_t pc;                /* PC */
    char *cond_text;
    dbg_expr *cond;
    /* Watchpoints: the bytes watched and their last known value. */
    uint64_t addr;
    uint32_t size;
    uint8_t space;              /* ISA_SPACE_GLOBAL or ISA_SPACE_SHARED */
    dbg_ctype ctype;            /* how to show the value (bytes 0: as words) */
    uint8_t old[DBG_WATCH_MAX];
    bool have_old;
    /* Resolution against the program now loaded. */
    uint32_t *pcs;
    uint32_t npcs;
    bool once;                  /* a kernel's entry: stops once per launch */
    uint64_t fired_launch;
} dbg_bp;

typedef struct dbg_display {
    int num;
    char fmt;                   /* 0 or a print format letter */
    char *text;
    dbg_expr *e;
} dbg_display;

typedef struct dbg_var {
    char *name;
    dbg_value v;
} dbg_var;

/* ---- the program now loaded, and CUDA source files ------------------------ */

typedef struct dbg_prog {
    const exec_program *p;
    const isa_module *m;
    uint32_t ncode;
    uint32_t *line_off;         /* start of PTX line i (1-based) in m->text */
    uint32_t nlines;
    uint16_t *loc_file;         /* per PTX line: file of the last .loc at or before it */
    uint8_t *bp_at;             /* per pc: an enabled breakpoint resolves here */
    uint64_t bp_gen;            /* breakpoint generation bp_at reflects */
    dbg_dwarf *dw;              /* CUDA variables (nvcc -G), read when first asked */
    bool dw_tried;
} dbg_prog;

typedef struct dbg_srcfile {
    char *path;                 /* as the PTX names it */
    char *text;                 /* NULL: could not be read */
    uint32_t *line_off;
    uint32_t nlines;
} dbg_srcfile;

/* ---- a launch in progress -------------------------------------------------- */

typedef enum { DBG_GO_NONE, DBG_GO_CONTINUE, DBG_GO_STEPI, DBG_GO_STEP, DBG_GO_NEXT,
               DBG_GO_FINISH, DBG_GO_KILL } dbg_go;

typedef struct dbg_run {
    bool active;
    exec_program *p;
    int kernel;
    uint32_t kfunc;             /* the kernel's module function */
    exec_launch l;
    exec_grid *g;
    uint64_t nctas;
    exec_cta **ctas;            /* resident CTAs */
    uint64_t *linear;           /* their numbers in the launch */
    uint64_t nres;
    uint64_t next_cta;          /* the next CTA to begin (ordinary launches) */
    /* The scheduler's place: resident CTA, warp, instructions of its slice. */
    uint64_t ci;
    uint32_t wi, used;
    bool progress;
    bool spun;                  /* a warp's turn ended in a failed mbarrier wait */
    uint64_t budget;
    exec_stats *stats;
    ptx_status fault;           /* a fault stopped the launch: it cannot go on */
    exec_error err;
    /* The warp stopped at, so resuming does not stop at once at the same
     * breakpoint again. */
    const exec_warp *skip_warp;
    uint32_t skip_pc;
} dbg_run;

typedef struct dbg_focus {
    bool valid;
    uint64_t cta;               /* linear number of the block in the launch */
    uint32_t warp, lane;
    uint32_t level;             /* selected call frame */
} dbg_focus;

struct dbg_session {
    dbg_options o;
    FILE *in, *out;
    FILE *script;
    bool in_tty, use_readline;
    char *last_line;            /* an empty line at a terminal repeats it */
    bool started;
    bool at_start;              /* reading commands before the program runs */
    bool exit_req;
    int exit_code;
    volatile sig_atomic_t interrupted;  /* set by dbg_interrupt (a signal handler) */
    volatile sig_atomic_t in_launch;    /* read by dbg_interrupt */
    dbg_go go;                  /* what the last command asked */
    uint64_t go_count;

    dbg_bp *bps;
    uint32_t nbps, capbps;
    int next_bp;
    uint64_t bp_gen;            /* bumped whenever breakpoints change */
    uint32_t nwatch;            /* enabled watchpoints */

    dbg_display *disp;
    uint32_t ndisp, capdisp;
    int next_disp;
    dbg_var *vars;
    uint32_t nvars, capvars;
    uint32_t value_no;          /* $N of the last print */

    dbg_prog prog;
    dbg_run run;
    uint64_t launches;
    dbg_focus focus;

    dbg_srcfile *src;
    uint32_t nsrc, capsrc;
    uint32_t list_next;         /* PTX line a bare `list` continues from (0: around the pc) */

    void *dl;                   /* libstdc++, when the demangler had to be loaded */
    char *(*demangle)(const char *, char *, size_t *, int *);
    bool demangle_looked;
};

/* ---- session.c ------------------------------------------------------------ */

void dbg_say(dbg_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start using program p: rebuild the per-program cache if it changed. */
bool dbg_prog_use(dbg_session *s, const exec_program *p);
/* The text of PTX line `line` (1-based) without its newline; NULL if none. */
const char *dbg_ptx_line(dbg_session *s, uint32_t line, size_t *len);
/* The CUDA source position of pc: the file's path ("" if unknown) and line
 * (0 if the PTX carries none). */
uint32_t dbg_srcpos(dbg_session *s, uint32_t pc, const char **file);
/* Line `line` of a CUDA source file, looked up as the options say. */
const char *dbg_src_line(dbg_session *s, const char *path, uint32_t line, size_t *len);
uint32_t dbg_src_nlines(dbg_session *s, const char *path);
const char *dbg_basename(const char *path);
/* Demangle a name into buf; false (buf = the name) if it is not mangled. */
bool dbg_demangle(dbg_session *s, const char *name, char *buf, size_t n);
/* The short name of a function for display: the demangled name without its
 * parameters, or the name itself. */
const char *dbg_short_name(dbg_session *s, const char *name, char *buf, size_t n);
/* Does `user` name the function `mangled` (mangled, demangled, or short)? */
bool dbg_name_matches(dbg_session *s, const char *mangled, const char *user);
bool dbg_var_get(const dbg_session *s, const char *name, size_t n, dbg_value *out);
bool dbg_var_set(dbg_session *s, const char *name, size_t n, const dbg_value *v);

/* ---- input.c -------------------------------------------------------------- */

void dbg_input_open(dbg_session *s);
void dbg_input_close(dbg_session *s);
/* The next command line (malloc'd, newline removed), or NULL at the end of
 * all input. */
char *dbg_read_command(dbg_session *s);

/* ---- commands.c ----------------------------------------------------------- */

/* Read and run commands until one resumes execution (s->go) or ends the
 * program (s->exit_req). */
void dbg_command_loop(dbg_session *s);
/* Run one command line. */
void dbg_execute(dbg_session *s, const char *line);
/* Skip blanks; parse words and numbers off a command's arguments. */
const char *dbg_skip(const char *p);
bool dbg_word(const char **p, const char *w);
bool dbg_parse_u64(const char **p, uint64_t *out);

/* ---- launch.c ------------------------------------------------------------- */

/* The focused warp and its CTA; NULL (with a message said) when none. */
exec_warp *dbg_focus_warp(dbg_session *s, bool say);
/* A resident CTA by its number in the launch, or NULL. */
exec_cta *dbg_resident(dbg_session *s, uint64_t linear);
/* Move the focus; says "[Switching focus to ...]" when it changed. */
void dbg_set_focus(dbg_session *s, uint64_t cta, uint32_t warp, uint32_t lane, bool say);
uint64_t dbg_cta_linear(const dbg_session *s, const uint32_t ctaid[3]);
/* The lanes of w at its pc (top of the SIMT stack). */
uint32_t dbg_warp_lanes_at_pc(const exec_warp *w);

/* ---- breakpoints.c -------------------------------------------------------- */

void dbg_cmd_break(dbg_session *s, const char *args, bool temporary);
void dbg_cmd_watch(dbg_session *s, const char *args);
void dbg_cmd_delete(dbg_session *s, const char *args);
void dbg_cmd_enable(dbg_session *s, const char *args, bool enable);
void dbg_cmd_condition(dbg_session *s, const char *args);
void dbg_cmd_info_breakpoints(dbg_session *s);
/* Resolve every breakpoint against the program in use (after a change). */
void dbg_bp_refresh(dbg_session *s);
/* Should warp w stop before executing pc?  *out_bp and *out_lane say
 * which breakpoint and lane.  A condition that cannot be evaluated stops
 * too (with *out_err set). */
bool dbg_bp_check(dbg_session *s, exec_warp *w, uint32_t pc, dbg_bp **out_bp, unsigned *out_lane,
                  char *out_err, size_t n);
/* Watchpoints around one step of w: before() keeps the bytes the step may
 * write; after() reports the first watchpoint whose bytes changed. */
typedef struct dbg_watch_probe {
    uint32_t n;
    uint32_t idx[8];
    uint8_t before[8][DBG_WATCH_MAX];
    unsigned lane[8];
} dbg_watch_probe;
void dbg_watch_before(dbg_session *s, exec_warp *w, dbg_watch_probe *pr);
dbg_bp *dbg_watch_after(dbg_session *s, exec_warp *w, const dbg_watch_probe *pr, unsigned *out_lane);
void dbg_bp_remove_temporary(dbg_session *s, dbg_bp *b);

/* ---- expr.c --------------------------------------------------------------- */

dbg_expr *dbg_expr_parse(dbg_session *s, const char *text, char *err, size_t n);
void dbg_expr_free(dbg_expr *e);
bool dbg_expr_eval(dbg_session *s, const dbg_expr *e, const dbg_ctx *c, dbg_value *out, char *err,
                   size_t n);
/* The place an expression names when it is `*p`, `p[i]` or `*(T*)a`: its
 * space, address and type (watch buf[5]).  False for other expressions. */
bool dbg_expr_lvalue(dbg_session *s, const char *text, uint8_t *space, uint64_t *addr, dbg_ctype *ct);
/* Parse and evaluate text for the focused thread. */
bool dbg_eval_text(dbg_session *s, const char *text, dbg_value *out, char *err, size_t n);
/* Format a value; fmt is 0 (natural) or one of x d u o t c f. */
void dbg_value_format(const dbg_value *v, char fmt, char *buf, size_t n);
bool dbg_value_truth(const dbg_value *v);
/* A value from raw little-endian bytes read as `t`. */
dbg_value dbg_value_from_bits(uint64_t bits, uint8_t type);
/* A .b128 register's value from its two 64-bit halves. */
dbg_value dbg_value_from_b128(uint64_t lo, uint64_t hi);
/* Register `reg` (its first column) of type `type` in frame `level`,
 * lane `lane`: a predicate, a .b128 register's two columns, or one. */
dbg_value dbg_reg_value(exec_warp *w, uint32_t level, uint32_t reg, uint8_t type, unsigned lane);
/* Parse a C type name at *p (`int`, `unsigned int`, `float`, `char`...). */
bool dbg_parse_ctype(const char **p, dbg_ctype *out);
/* The context of the focused thread (c->w NULL when there is none). */
void dbg_focus_ctx(dbg_session *s, dbg_ctx *c);

/* A register of f by name ("%r5", or as declared): its dense index and type. */
bool dbg_find_reg(const isa_func *f, const char *name, uint32_t *reg, uint8_t *type);

/* ---- dwarf.c -------------------------------------------------------------- */

void dbg_dwarf_free(dbg_dwarf *dw);
/* The CUDA variable `name` as the context's frame sees it: 1 (out set),
 * 0 (no such variable, or no DWARF), -1 (found but unreadable; err says). */
int dbg_dwarf_var(dbg_session *s, const dbg_ctx *c, const char *name, dbg_value *out, char *err, size_t n);
/* info locals / info args. */
void dbg_dwarf_locals(dbg_session *s, const dbg_ctx *c, bool args);

/* ---- mem.c ---------------------------------------------------------------- */

/* Host memory behind n bytes at addr in `space` as the context's thread
 * sees it.  A generic address inside the shared or local window is taken
 * as that space.  Returns NULL with a reason in err. */
uint8_t *dbg_mem_map(dbg_session *s, const dbg_ctx *c, uint8_t space, uint64_t addr, uint64_t n,
                     char *err, size_t en);
/* Resolve a generic address to its space and offset. */
void dbg_mem_classify(dbg_session *s, uint8_t *space, uint64_t *addr);
/* "0x7f..." for global addresses, "shared:0x10" and so on for the others. */
void dbg_mem_label(uint8_t space, uint64_t addr, char *buf, size_t n);

/* ---- show.c --------------------------------------------------------------- */

/* Where the focused warp is: function, pc, PTX and source lines; the
 * first line starts with `prefix` ("Breakpoint 1, "). */
void dbg_show_location(dbg_session *s, const char *prefix);
void dbg_show_displays(dbg_session *s);
void dbg_cmd_print(dbg_session *s, const char *fmt_and_args, bool output_only);
void dbg_cmd_x(dbg_session *s, const char *args);
void dbg_cmd_display(dbg_session *s, const char *args);
void dbg_cmd_undisplay(dbg_session *s, const char *args);
void dbg_cmd_list(dbg_session *s, const char *args);
void dbg_cmd_backtrace(dbg_session *s, const char *args);
void dbg_cmd_frame(dbg_session *s, const char *args, int delta);
void dbg_cmd_info(dbg_session *s, const char *args);
/* "name (pc P, PTX line L) at file:line" for frame `level` of w. */
void dbg_frame_line(dbg_session *s, exec_warp *w, uint32_t level, char *buf, size_t n);

#endif /* PTXSIM_DBG_INT_H */

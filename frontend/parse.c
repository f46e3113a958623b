/*
 * parse.c -- PTX text to the module IR, by recursive descent.
 *
 * Each parsing function starts with the grammar rule it accepts.  Errors
 * are reported with file:line:col and the offending token; after an error
 * the parser skips to the end of the statement and goes on, so one run
 * reports every problem (up to MAX_ERRORS).  An instruction ptxsim does not
 * know is reported as unsupported, distinct from a syntax error.
 */
#include "lex.h"
#include "strmap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ERRORS 100

typedef struct label_fixup {
    uint32_t inst;          /* instruction whose target (or brx table) needs it */
    int32_t brx;            /* -1: in->target; else the brx table and slot */
    uint32_t slot;
    fe_token tok;           /* the label as written */
} label_fixup;

typedef struct parser {
    fe_lexer lx;
    fe_token tok;
    isa_module *m;
    ptx_diag *diag;
    const char *name;
    uint32_t errors;
    /* The function being parsed. */
    int32_t fn;
    fe_strmap regs;         /* name or range prefix -> regdecl index */
    fe_strmap labels;       /* label -> instruction index */
    fe_strmap brx_tables;   /* .branchtargets label -> brx table index */
    label_fixup *fixups;
    uint32_t nfixups, capfixups;
    isa_regdecl *rd;        /* the function's register declarations, while parsing */
    uint32_t *rd_shadow;    /* for each, what its name mapped to before (NO_DECL: nothing) */
    uint32_t nrd, caprd;
    /* Immediates written as vector elements ({%r1, 5}), materialised into
     * hidden registers by mov instructions placed before the instruction. */
    isa_opd vec_imm[4 * ISA_MAX_VEC];
    uint8_t vec_imm_slot[4 * ISA_MAX_VEC];    /* operand * ISA_MAX_VEC + element */
    uint8_t nvec_imm;
    uint32_t *scope;        /* var indices declared in open blocks */
    uint32_t nscope, capscope;
    fe_strmap module_vars;  /* module-scope var name -> index */
    fe_strmap funcs;        /* function name -> index */
    isa_srcpos loc;         /* the current .loc */
} parser;

/* ---- errors and tokens -------------------------------------------------- */

__attribute__((format(printf, 4, 5)))
static ptx_status error_at(parser *p, ptx_status st, const fe_token *t, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    p->errors++;
    return ptx_error(p->diag, st, p->name, t->line, t->col, "%s", msg);
}

static void next(parser *p) { fe_lex_next(&p->lx, &p->tok); }

static fe_token peek(parser *p)
{
    fe_lexer save = p->lx;
    fe_token t;
    fe_lex_next(&save, &t);
    return t;
}

static bool is_punct(const fe_token *t, char c) { return t->kind == TK_PUNCT && t->ch == c; }

static bool is_word(const fe_token *t, const char *w)
{
    size_t n = strlen(w);
    return t->len == n && memcmp(t->text, w, n) == 0;
}

/* A short, printable rendering of a token for messages. */
static const char *tok_str(const fe_token *t, char *buf, size_t n)
{
    if (t->kind == TK_EOF)
        return "end of file";
    size_t len = t->len < n - 1 ? t->len : n - 1;
    memcpy(buf, t->text, len);
    buf[len] = '\0';
    return buf;
}

static ptx_status expect(parser *p, char c, const char *context)
{
    if (is_punct(&p->tok, c)) {
        next(p);
        return PTX_OK;
    }
    char b[48];
    return error_at(p, PTX_E_SYNTAX, &p->tok, "expected '%c' %s, found '%s'", c, context,
                    tok_str(&p->tok, b, sizeof b));
}

/* Where a statement starts: its first token and the lexer just after it. */
typedef struct stmt_mark {
    fe_lexer lx;
    fe_token tok;
} stmt_mark;

static stmt_mark mark(const parser *p) { return (stmt_mark){ p->lx, p->tok }; }

/* Skip to just after the end of the statement that starts at `m`: its ';'
 * outside braces, or (at module scope) the '}' that closes its outermost
 * brace (a function body; a ';' right after it goes too).  In a function
 * body a '}' that closes no brace of the statement ends the enclosing
 * block, and is left for it.
 *
 * Braces are counted from the statement's first token, not from the error:
 * an error inside a braced initialiser or vector operand comes after its
 * '{' has been consumed, and counting from there would take the matching
 * '}' for the end of the enclosing block -- at module scope a '}' that
 * nothing consumes, reported again on every turn of the module loop, and in
 * a body the early end of the function, its remaining lines reported as
 * module-scope errors. */
static void recover(parser *p, const stmt_mark *m)
{
    int depth = 0;
    fe_lexer lx = m->lx;
    for (fe_token t = m->tok; t.kind != TK_EOF && t.text < p->tok.text; fe_lex_next(&lx, &t)) {
        if (is_punct(&t, '{'))
            depth++;
        else if (is_punct(&t, '}') && depth > 0)
            depth--;
    }
    bool module_scope = p->fn < 0;
    while (p->tok.kind != TK_EOF) {
        if (is_punct(&p->tok, '{')) {
            depth++;
        } else if (is_punct(&p->tok, '}')) {
            if (depth == 0 && !module_scope)
                return;
            if (depth > 0 && --depth == 0 && module_scope) {
                next(p);
                if (is_punct(&p->tok, ';'))
                    next(p);
                return;
            }
        } else if (is_punct(&p->tok, ';') && depth == 0) {
            break;
        }
        next(p);
    }
    if (is_punct(&p->tok, ';'))
        next(p);
}

static const char *intern(parser *p, const fe_token *t)
{
    return isa_strdup(p->m, t->text, t->len);
}

static ptx_status nomem(parser *p)
{
    return error_at(p, PTX_E_NOMEM, &p->tok, "out of memory");
}

/* ---- numbers ----------------------------------------------------------- */

/* INT with an optional leading '-': sizes, alignments, counts. */
static ptx_status parse_int(parser *p, int64_t *out, const char *what)
{
    bool neg = false;
    if (is_punct(&p->tok, '-')) {
        neg = true;
        next(p);
    }
    if (p->tok.kind != TK_INT) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected %s, found '%s'", what,
                        tok_str(&p->tok, b, sizeof b));
    }
    *out = (int64_t)(neg ? 0 - (uint64_t)p->tok.ival : (uint64_t)p->tok.ival);    /* INT64_MIN too */
    next(p);
    return PTX_OK;
}

/* ---- types and directives ---------------------------------------------- */

static int dot_type(const fe_token *t)
{
    return t->kind == TK_DOT ? isa_lookup_type(t->text + 1, t->len - 1) : -1;
}

static int dot_space(const fe_token *t)
{
    if (t->kind != TK_DOT)
        return -1;
    const char *s = t->text + 1;
    size_t n = t->len - 1;
    const char *colons = memchr(s, ':', n);    /* .shared::cta -> shared */
    if (colons)
        n = (size_t)(colons - s);
    int sp = isa_lookup_mod(ISA_MODCAT_SPACE, s, n);
    return sp > 0 ? sp : -1;
}

/* ---- registers ---------------------------------------------------------- */

/* Split "%rd12" into prefix "%rd" and number 12; false if no digits. */
static bool split_number(const char *s, size_t n, size_t *plen, uint32_t *num)
{
    size_t i = n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    if (i == n || i == 0 || n - i > 9)
        return false;
    uint32_t v = 0;
    for (size_t k = i; k < n; k++)
        v = v * 10 + (uint32_t)(s[k] - '0');
    *plen = i;
    *num = v;
    return true;
}

/* p->regs maps a name to NO_DECL once the block that declared it has
 * closed and no outer declaration had the name. */
#define NO_DECL UINT32_MAX

/* Find a register by name: returns its regdecl, and the dense index.  A
 * name may match both a single register and a range (%r1 and %r<4>); every
 * declaration still in p->regs is in an open block, so the later one is the
 * innermost, which is the one the name means. */
static const isa_regdecl *find_reg(parser *p, const char *s, size_t n, uint16_t *out)
{
    uint32_t one, range;
    bool has_one = fe_strmap_get(&p->regs, s, n, &one) && one != NO_DECL && p->rd[one].count == 0;
    size_t plen;
    uint32_t num;
    bool has_range = split_number(s, n, &plen, &num) && fe_strmap_get(&p->regs, s, plen, &range) &&
                     range != NO_DECL && p->rd[range].count && num < p->rd[range].count;
    if (has_one && (!has_range || one > range)) {
        *out = p->rd[one].base;
        return &p->rd[one];
    }
    if (has_range) {
        *out = (uint16_t)(p->rd[range].base + num * isa_reg_slots(p->rd[range].type));
        return &p->rd[range];
    }
    return NULL;
}

/* Append a register declaration named name[0..len) and make the name mean
 * it, remembering what the name meant before (end_block restores it). */
static bool add_regdecl(parser *p, isa_regdecl d, size_t len)
{
    if (p->nrd == p->caprd) {
        uint32_t nc = p->caprd ? p->caprd * 2 : 16;
        isa_regdecl *nd = realloc(p->rd, nc * sizeof *nd);
        if (!nd)
            return false;
        p->rd = nd;
        uint32_t *ns = realloc(p->rd_shadow, nc * sizeof *ns);
        if (!ns)
            return false;
        p->rd_shadow = ns;
        p->caprd = nc;
    }
    if (!d.name)
        return false;
    uint32_t prev;
    p->rd_shadow[p->nrd] = fe_strmap_get(&p->regs, d.name, len, &prev) ? prev : NO_DECL;
    p->rd[p->nrd] = d;
    if (!fe_strmap_put(&p->regs, d.name, len, p->nrd))
        return false;
    p->nrd++;
    return true;
}

/* A block closes: the registers declared in it since declaration `first`
 * go out of scope, and the names they shadowed mean the outer ones again
 * (the declarations stay in p->rd: instructions already refer to them). */
static bool end_block(parser *p, uint32_t first)
{
    for (uint32_t i = p->nrd; i-- > first;)
        if (!fe_strmap_put(&p->regs, p->rd[i].name, strlen(p->rd[i].name), p->rd_shadow[i]))
            return false;
    return true;
}

/* '<' INT '>' after `name`: how many registers or variables a
 * parameterized name declares (name0 .. name<N-1>), 1 to 65535. */
static ptx_status parse_count(parser *p, const fe_token *name, const char *what, uint32_t *out)
{
    next(p);                                    /* < */
    char desc[32];
    snprintf(desc, sizeof desc, "a %s count", what);
    int64_t v;
    ptx_status st = parse_int(p, &v, desc);
    if (st != PTX_OK)
        return st;
    if (v <= 0 || v > 65535)
        return error_at(p, PTX_E_SYNTAX, name, "%s count %lld out of range", what, (long long)v);
    *out = (uint32_t)v;
    snprintf(desc, sizeof desc, "after the %s count", what);
    return expect(p, '>', desc);
}

/* A vector register, `.reg .v4 .f32 %v`: its elements are registers of
 * their own named %v.x, %v.y, %v.z and %v.w, and %v alone stands for the
 * vector operand {%v.x, %v.y, %v.z, %v.w} (GCC's nvptx backend declares
 * such registers for its vector loads and stores). */
static const char vector_fields[] = "xyzw";

static ptx_status declare_vector_reg(parser *p, const fe_token *name, uint8_t type, unsigned vec)
{
    if (type == ISA_TYPE_PRED || isa_reg_slots(type) != 1)
        return error_at(p, PTX_E_SYNTAX, name, "a vector register's elements are 8- to 64-bit");
    if (is_punct(&p->tok, '<'))
        return error_at(p, PTX_E_UNSUPPORTED, &p->tok,
                        "unsupported PTX construct: a range of vector registers (%.*s<N>)", (int)name->len,
                        name->text);
    isa_func *f = &p->m->funcs[p->fn];
    if (f->nregs + vec >= ISA_NOREG)
        return error_at(p, PTX_E_UNSUPPORTED, name, "too many registers in one function (more than 65534)");
    for (unsigned k = 0; k < vec; k++) {
        char nm[280];
        int len = snprintf(nm, sizeof nm, "%.*s.%c", (int)(name->len > 255 ? 255 : name->len), name->text,
                           vector_fields[k]);
        if (!add_regdecl(p, (isa_regdecl){ isa_strdup(p->m, nm, (size_t)len), 0, f->nregs, type }, (size_t)len))
            return nomem(p);
        f->nregs++;
    }
    return PTX_OK;
}

/* The element `field` (x y z w, or r g b a) of vector register name[0..n):
 * its register, or false when there is no such vector or element. */
static bool find_vector_field(parser *p, const char *name, size_t n, char field, uint16_t *reg)
{
    const char *at = strchr(vector_fields, field);
    if (!at) {
        static const char rgba[] = "rgba";
        const char *c = strchr(rgba, field);
        if (!c || !field)
            return false;
        at = &vector_fields[c - rgba];
    }
    if (!*at || n > 255)
        return false;
    char nm[260];
    int len = snprintf(nm, sizeof nm, "%.*s.%c", (int)n, name, *at);
    const isa_regdecl *d = find_reg(p, nm, (size_t)len, reg);
    return d != NULL;
}

/* The length of vector register name[0..n), 0 if it is not one. */
static unsigned vector_length(parser *p, const char *name, size_t n)
{
    unsigned k = 0;
    uint16_t r;
    while (k < 4 && find_vector_field(p, name, n, vector_fields[k], &r))
        k++;
    return k;
}

/* reg_decl := '.reg' type name ('<' INT '>')? (',' name ('<' INT '>')?)* ';' */
static ptx_status parse_reg_decl(parser *p)
{
    next(p);                                    /* .reg */
    unsigned vec = 0;
    if (p->tok.kind == TK_DOT && (is_word(&p->tok, ".v2") || is_word(&p->tok, ".v4"))) {
        vec = (unsigned)(p->tok.text[2] - '0');
        next(p);
    }
    int type = dot_type(&p->tok);
    if (type < 0 || !isa_type_storable((uint8_t)type)) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a register type after .reg, found '%s'",
                        tok_str(&p->tok, b, sizeof b));
    }
    next(p);
    isa_func *f = &p->m->funcs[p->fn];
    for (;;) {
        if (p->tok.kind != TK_IDENT) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a register name, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        fe_token name = p->tok;
        next(p);
        if (vec) {
            ptx_status st = declare_vector_reg(p, &name, (uint8_t)type, vec);
            if (st != PTX_OK)
                return st;
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
            continue;
        }
        uint32_t count = 0;
        if (is_punct(&p->tok, '<')) {
            ptx_status st = parse_count(p, &name, "register", &count);
            if (st != PTX_OK)
                return st;
        }
        bool pred = type == ISA_TYPE_PRED;
        uint32_t n = (count ? count : 1) * (pred ? 1 : isa_reg_slots((uint8_t)type));
        uint32_t have = pred ? f->npreds : f->nregs;
        if (have + n >= ISA_NOREG)
            return error_at(p, PTX_E_UNSUPPORTED, &name,
                            "too many registers in one function (more than 65534)");
        if (!add_regdecl(p, (isa_regdecl){ intern(p, &name), count, (uint16_t)have, (uint8_t)type }, name.len))
            return nomem(p);
        if (pred)
            f->npreds = (uint16_t)(f->npreds + n);
        else
            f->nregs = (uint16_t)(f->nregs + n);
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    return expect(p, ';', "after a register declaration");
}

/* ---- variables ---------------------------------------------------------- */

static int lookup_var(parser *p, const char *s, size_t n)
{
    for (uint32_t i = p->nscope; i-- > 0;) {
        const isa_var *v = &p->m->vars[p->scope[i]];
        if (strlen(v->name) == n && memcmp(v->name, s, n) == 0)
            return (int)p->scope[i];
    }
    uint32_t idx;
    if (fe_strmap_get(&p->module_vars, s, n, &idx))
        return (int)idx;
    return -1;
}

static bool push_scope(parser *p, uint32_t var)
{
    if (p->nscope == p->capscope) {
        uint32_t nc = p->capscope ? p->capscope * 2 : 64;
        uint32_t *s = realloc(p->scope, nc * sizeof *s);
        if (!s)
            return false;
        p->scope = s;
        p->capscope = nc;
    }
    p->scope[p->nscope++] = var;
    return true;
}

/* Store `v` (of element type t) at byte offset `at` of the initialiser. */
static void put_elem(uint8_t *buf, uint64_t at, uint8_t t, const fe_token *tok, bool neg)
{
    unsigned n = isa_types[t].bytes;
    uint64_t bits;
    if (t == ISA_TYPE_F32) {
        float f = tok->kind == TK_F32 ? 0 : tok->kind == TK_F64 ? 0 : 0;
        if (tok->kind == TK_F32) {
            uint32_t u = (uint32_t)tok->ival;
            memcpy(&f, &u, 4);
        } else if (tok->kind == TK_F64) {
            double d;
            memcpy(&d, &tok->ival, 8);
            f = (float)d;
        } else if (tok->kind == TK_FLOAT) {
            f = (float)tok->dval;
        } else {
            f = (float)tok->ival;
        }
        if (neg)
            f = -f;
        uint32_t u;
        memcpy(&u, &f, 4);
        bits = u;
    } else if (t == ISA_TYPE_F64) {
        double d;
        if (tok->kind == TK_F64)
            memcpy(&d, &tok->ival, 8);
        else if (tok->kind == TK_F32) {
            float f;
            uint32_t u = (uint32_t)tok->ival;
            memcpy(&f, &u, 4);
            d = f;
        } else if (tok->kind == TK_FLOAT)
            d = tok->dval;
        else
            d = (double)tok->ival;
        if (neg)
            d = -d;
        memcpy(&bits, &d, 8);
    } else {
        bits = neg ? 0 - (uint64_t)tok->ival : tok->ival;     /* -9223372036854775808 too */
        if (tok->kind == TK_FLOAT)
            bits = (uint64_t)(int64_t)(neg ? -tok->dval : tok->dval);
    }
    memcpy(buf + at, &bits, n > 8 ? 8 : n);
}

/* addr := name ['+' INT] | 'generic' '(' name ['+' INT] ')' ['+' INT]
 * The address of a variable or function, stored at *at by exec/ once the
 * symbol has one (an isa_reloc).  With `masked`, one byte of it:
 * (address >> shift) & 0xFF. */
static ptx_status parse_init_addr(parser *p, uint32_t vidx, uint64_t at, unsigned elem, bool masked,
                                  unsigned shift)
{
    ptx_status st;
    bool generic = false;
    fe_token start = p->tok;
    if (is_word(&p->tok, "generic")) {
        generic = true;
        next(p);
        if ((st = expect(p, '(', "after generic")) != PTX_OK)
            return st;
    }
    fe_token name = p->tok;
    if (name.kind != TK_IDENT) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &name, "expected a variable or function name, found '%s'",
                        tok_str(&name, b, sizeof b));
    }
    int target = lookup_var(p, name.text, name.len);
    uint32_t fidx = 0;
    bool is_func = target < 0 && fe_strmap_get(&p->funcs, name.text, name.len, &fidx);
    if (target < 0 && !is_func)
        return error_at(p, PTX_E_UNDEFINED, &name, "undefined symbol '%.*s' in initialiser",
                        (int)name.len, name.text);
    if (is_func && generic)
        return error_at(p, PTX_E_SYNTAX, &start, "generic() takes a variable, and '%.*s' is a function",
                        (int)name.len, name.text);
    next(p);
    int64_t addend = 0;
    for (int inside = generic; inside >= 0; inside--) {
        if (is_punct(&p->tok, '+')) {
            next(p);
            int64_t v;
            if ((st = parse_int(p, &v, "an offset")) != PTX_OK)
                return st;
            addend += v;
        }
        if (inside && (st = expect(p, ')', "to close generic(")) != PTX_OK)
            return st;
    }
    if (!masked && elem < 4)
        return error_at(p, PTX_E_SYNTAX, &start,
                        "the address of '%.*s' does not fit a %u-byte element (a byte of it needs a "
                        "mask, as in 0xFF(%.*s))", (int)name.len, name.text, elem, (int)name.len, name.text);
    isa_var *var = &p->m->vars[vidx];
    isa_reloc *r = isa_alloc(p->m, (var->nrelocs + 1) * sizeof *r);
    if (!r)
        return nomem(p);
    if (var->nrelocs)
        memcpy(r, var->relocs, var->nrelocs * sizeof *r);
    r[var->nrelocs] = (isa_reloc){ .at = at, .var = is_func ? fidx : (uint32_t)target,
                                   .bytes = (uint8_t)(elem > 8 ? 8 : elem), .generic = generic,
                                   .func = is_func, .shift = (uint8_t)shift, .masked = masked,
                                   .addend = addend };
    var->relocs = r;
    var->nrelocs++;
    return PTX_OK;
}

/* init := value | '{' init (',' init)* '}'
 * value := ['-'] number | addr | MASK '(' addr ')'
 * MASK is 0xFF shifted left by a whole number of bytes. */
static ptx_status parse_init(parser *p, uint32_t vidx, uint64_t *at, unsigned elem)
{
    if (is_punct(&p->tok, '{')) {
        next(p);
        if (!is_punct(&p->tok, '}')) {
            for (;;) {
                ptx_status st = parse_init(p, vidx, at, elem);
                if (st != PTX_OK)
                    return st;
                if (!is_punct(&p->tok, ','))
                    break;
                next(p);
            }
        }
        return expect(p, '}', "to close the initialiser");
    }
    isa_var *var = &p->m->vars[vidx];
    if (*at + elem > var->size) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "too many initialisers for '%s' at '%s'",
                        var->name, tok_str(&p->tok, b, sizeof b));
    }
    fe_token after = peek(p);
    if (p->tok.kind == TK_INT && is_punct(&after, '(')) {
        fe_token mask = p->tok;
        unsigned shift = 0;
        while (shift < 56 && mask.ival >> shift != 0xFF)
            shift += 8;
        if (mask.ival >> shift != 0xFF || mask.ival & ((1ull << shift) - 1)) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &mask, "'%s' is not a byte mask (0xFF, 0xFF00, ... "
                            "0xFF00000000000000)", tok_str(&mask, b, sizeof b));
        }
        next(p);
        next(p);                                /* ( */
        ptx_status st = parse_init_addr(p, vidx, *at, elem, true, shift);
        if (st == PTX_OK)
            st = expect(p, ')', "to close the byte mask");
        *at += elem;
        return st;
    }
    bool neg = false;
    if (is_punct(&p->tok, '-')) {
        neg = true;
        next(p);
    }
    if (p->tok.kind == TK_INT || p->tok.kind == TK_FLOAT || p->tok.kind == TK_F32 ||
        p->tok.kind == TK_F64) {
        put_elem(var->init, *at, var->type, &p->tok, neg);
        next(p);
        *at += elem;
        return PTX_OK;
    }
    if (p->tok.kind == TK_IDENT && !neg) {
        ptx_status st = parse_init_addr(p, vidx, *at, elem, false, 0);
        *at += elem;
        return st;
    }
    char b[48];
    return error_at(p, PTX_E_SYNTAX, &p->tok, "expected an initial value, found '%s'",
                    tok_str(&p->tok, b, sizeof b));
}

/* Add variable `proto` (named by its first name_len bytes) to the module
 * and put it in scope: a function's block, the module, or (parameters) the
 * parameter list being read.  In scope before its initialiser, so that a bad
 * initialiser is one error, not one more at every use of the name. */
static ptx_status declare_var(parser *p, const isa_var *proto, size_t name_len, uint32_t *out_index)
{
    uint32_t vidx;
    isa_var *v = isa_add_var(p->m, &vidx);
    if (!v || !proto->name)
        return nomem(p);
    *v = *proto;
    uint8_t role = proto->role;
    v->func = role == ISA_VAR_KPARAM || role == ISA_VAR_FPARAM || role == ISA_VAR_FRET || p->fn >= 0 ? p->fn : -1;
    *out_index = vidx;
    if (role != ISA_VAR_PLAIN && role != ISA_VAR_CALLARG)
        return PTX_OK;                          /* parameter lists keep their own */
    if (p->fn >= 0)
        return push_scope(p, vidx) ? PTX_OK : nomem(p);
    return fe_strmap_put(&p->module_vars, v->name, name_len, vidx) ? PTX_OK : nomem(p);
}

/* var_decl := space ['.attribute' '(' dots ')'] ['.align' INT] ['.v2'|'.v4'] type
 *             ['.ptr' [space] ['.align' INT]] name ('<' INT '>' | ('[' [INT] ']')* ['=' init])
 *             (',' name ...)* ';'
 * `role` says whether this is a parameter; params end at ',' or ')' instead. */
static ptx_status parse_var(parser *p, uint8_t linkage, isa_var_role role, uint32_t *out_index)
{
    int space = dot_space(&p->tok);
    fe_token start = p->tok;
    next(p);
    uint32_t align = 0;
    unsigned vec = 1;
    int type = -1;
    bool pointer = false;           /* after .ptr, .align is the pointee's alignment */
    for (;;) {
        if (p->tok.kind != TK_DOT)
            break;
        if (is_word(&p->tok, ".align")) {
            next(p);
            int64_t a;
            ptx_status st = parse_int(p, &a, "an alignment");
            if (st != PTX_OK)
                return st;
            if (a <= 0 || (a & (a - 1)) || a > 4096)
                return error_at(p, PTX_E_SYNTAX, &start, "alignment %lld is not a power of two",
                                (long long)a);
            if (!pointer)
                align = (uint32_t)a;
            continue;
        }
        if (is_word(&p->tok, ".v2") || is_word(&p->tok, ".v4") || is_word(&p->tok, ".v8")) {
            vec = (unsigned)(p->tok.text[2] - '0');
            next(p);
            continue;
        }
        if (is_word(&p->tok, ".attribute")) {
            next(p);
            if (is_punct(&p->tok, '(')) {
                while (p->tok.kind != TK_EOF && !is_punct(&p->tok, ')'))
                    next(p);
                next(p);
            }
            continue;
        }
        if (is_word(&p->tok, ".ptr") || dot_space(&p->tok) > 0) {
            pointer = true;                     /* .ptr .global .align N: a pointer hint */
            next(p);
            continue;
        }
        if (is_word(&p->tok, ".texref") || is_word(&p->tok, ".samplerref") ||
            is_word(&p->tok, ".surfref")) {
            type = ISA_TYPE_B64;
            next(p);
            continue;
        }
        int t = dot_type(&p->tok);
        if (t < 0 || t == ISA_TYPE_NONE || !isa_type_storable((uint8_t)t)) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "unexpected '%s' in a variable declaration",
                            tok_str(&p->tok, b, sizeof b));
        }
        type = t;
        next(p);
    }
    if (type < 0) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a type in a variable declaration, found '%s'",
                        tok_str(&p->tok, b, sizeof b));
    }
    for (;;) {
        if (p->tok.kind != TK_IDENT) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a variable name, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        fe_token name = p->tok;
        next(p);
        /* name<N>: variables name0 .. name<N-1>, as .reg's ranges (the ISA
         * allows it in every state space; GCC's nvptx backend declares its
         * call arguments `.param .u64 %P<2>`).  No arrays or initialisers. */
        uint32_t nnamed = 0;
        if (is_punct(&p->tok, '<') && (role == ISA_VAR_PLAIN || role == ISA_VAR_CALLARG)) {
            ptx_status st = parse_count(p, &name, "variable", &nnamed);
            if (st != PTX_OK)
                return st;
            if (is_punct(&p->tok, '[') || is_punct(&p->tok, '='))
                return error_at(p, PTX_E_SYNTAX, &p->tok,
                                "parameterized variable names (%.*s<%u>) take no array size or initialiser",
                                (int)name.len, name.text, nnamed);
        }
        for (uint32_t k = 0; k < nnamed; k++) {
            char nm[280];
            int len = snprintf(nm, sizeof nm, "%.*s%u", (int)(name.len > 255 ? 255 : name.len), name.text, k);
            unsigned esize = isa_types[type].bytes * vec;
            uint32_t vidx;
            ptx_status st = declare_var(p, &(isa_var){ .name = isa_strdup(p->m, nm, (size_t)len),
                                                       .space = (uint8_t)space, .linkage = linkage,
                                                       .type = (uint8_t)type, .role = (uint8_t)role,
                                                       .align = align ? align : esize, .size = esize,
                                                       .line = name.line },
                                        (size_t)len, &vidx);
            if (st != PTX_OK)
                return st;
            if (out_index)
                *out_index = vidx;
        }
        if (nnamed) {
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
            continue;
        }
        unsigned esize = isa_types[type].bytes * vec;
        uint64_t count = 1;
        bool unsized = false;
        while (is_punct(&p->tok, '[')) {
            next(p);
            if (is_punct(&p->tok, ']')) {
                unsized = true;
            } else {
                int64_t n;
                ptx_status st = parse_int(p, &n, "an array size");
                if (st != PTX_OK)
                    return st;
                if (n < 0 || n > (1ll << 40))
                    return error_at(p, PTX_E_SYNTAX, &name, "array size %lld out of range", (long long)n);
                count *= (uint64_t)n;
            }
            ptx_status st = expect(p, ']', "to close the array size");
            if (st != PTX_OK)
                return st;
        }
        uint32_t vidx;
        ptx_status st = declare_var(p, &(isa_var){ .name = intern(p, &name), .space = (uint8_t)space,
                                                   .linkage = linkage, .type = (uint8_t)type, .role = (uint8_t)role,
                                                   .align = align ? align : esize ? esize : 1,
                                                   .size = unsized ? 0 : esize * count, .line = name.line },
                                    name.len, &vidx);
        if (st != PTX_OK)
            return st;
        if (out_index)
            *out_index = vidx;
        isa_var *v = &p->m->vars[vidx];
        bool param = role != ISA_VAR_PLAIN && role != ISA_VAR_CALLARG;
        if (is_punct(&p->tok, '=')) {
            next(p);
            if (v->size > (64u << 20))
                return error_at(p, PTX_E_UNSUPPORTED, &name, "initialised variable '%s' is too large",
                                v->name);
            v->init = isa_alloc(p->m, v->size ? v->size : 1);
            if (!v->init)
                return nomem(p);
            uint64_t at = 0;
            st = parse_init(p, vidx, &at, isa_types[type].bytes);
            if (st != PTX_OK)
                return st;
        }
        if (param)
            return PTX_OK;                      /* parameter lists handle ',' themselves */
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    return expect(p, ';', "after a variable declaration");
}

/* ---- operands ----------------------------------------------------------- */

static ptx_status parse_number_opd(parser *p, isa_opd *o, bool neg)
{
    const fe_token *t = &p->tok;
    o->kind = ISA_OPD_IMM;
    switch (t->kind) {
    case TK_INT:
        o->imm = neg ? 0 - (uint64_t)t->ival : t->ival;       /* two's complement, INT64_MIN included */
        o->neg = ISA_LIT_INT;
        break;
    case TK_F32:
        o->imm = neg ? t->ival ^ 0x80000000u : t->ival;
        o->neg = ISA_LIT_F32;
        break;
    case TK_F64:
        o->imm = neg ? t->ival ^ 0x8000000000000000ull : t->ival;
        o->neg = ISA_LIT_F64;
        break;
    case TK_FLOAT: {
        double d = neg ? -t->dval : t->dval;
        memcpy(&o->imm, &d, 8);
        o->neg = ISA_LIT_F64;
        break;
    }
    default: {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, t, "expected a number, found '%s'", tok_str(t, b, sizeof b));
    }
    }
    next(p);
    return PTX_OK;
}

/* Does this identifier name a register?  Most start with '%', but any
 * identifier may be declared with .reg (clang's scoped `tmp`), and a '%'
 * name may be a variable or parameter instead (GCC's nvptx backend names
 * parameters %in_ar0 and %value_out). */
static bool names_register(parser *p, const fe_token *t)
{
    uint16_t idx;
    if (t->kind != TK_IDENT)
        return false;
    if (p->fn >= 0 && (find_reg(p, t->text, t->len, &idx) || vector_length(p, t->text, t->len)))
        return true;
    if (t->text[0] != '%')
        return false;
    return isa_lookup_sreg(t->text + 1, t->len - 1) >= 0 || lookup_var(p, t->text, t->len) < 0;
}

/* A %name: register, predicate or special register (with .x/.y/.z). */
static ptx_status parse_percent(parser *p, isa_opd *o)
{
    fe_token name = p->tok;
    next(p);
    uint16_t idx;
    const isa_regdecl *d = find_reg(p, name.text, name.len, &idx);
    if (d) {
        o->kind = d->type == ISA_TYPE_PRED ? ISA_OPD_PRED : ISA_OPD_REG;
        o->reg = idx;
        return PTX_OK;
    }
    unsigned vec = p->fn >= 0 ? vector_length(p, name.text, name.len) : 0;
    if (vec) {
        if (p->tok.kind == TK_DOT && !p->tok.space_before && p->tok.len == 2) {
            if (!find_vector_field(p, name.text, name.len, p->tok.text[1], &idx))
                return error_at(p, PTX_E_SYNTAX, &p->tok, "'%.*s' has no element '%.*s'", (int)name.len,
                                name.text, (int)p->tok.len, p->tok.text);
            next(p);
            o->kind = ISA_OPD_REG;
            o->reg = idx;
            return PTX_OK;
        }
        o->kind = ISA_OPD_VEC;
        o->nvec = (uint8_t)vec;
        for (unsigned k = 0; k < vec; k++)
            find_vector_field(p, name.text, name.len, vector_fields[k], &o->vec[k]);
        return PTX_OK;
    }
    char buf[64];
    size_t n = name.len - 1;
    if (n >= sizeof buf - 4)
        n = sizeof buf - 4;
    memcpy(buf, name.text + 1, n);
    if (p->tok.kind == TK_DOT && !p->tok.space_before && p->tok.len == 2) {
        buf[n] = '.';
        buf[n + 1] = p->tok.text[1];
        int s = isa_lookup_sreg(buf, n + 2);
        if (s >= 0) {
            next(p);
            o->kind = ISA_OPD_SREG;
            o->reg = (uint16_t)s;
            return PTX_OK;
        }
    }
    int s = isa_lookup_sreg(buf, n);
    if (s < 0 && n > 0)
        s = isa_lookup_sreg(buf, n);
    if (s >= 0) {
        o->kind = ISA_OPD_SREG;
        o->reg = (uint16_t)s;
        return PTX_OK;
    }
    return error_at(p, PTX_E_UNDEFINED, &name, "undefined register '%.*s'", (int)name.len, name.text);
}

/* ('+'|'-') INT ...: offsets added to *off (an address's, var+imm's). */
static ptx_status parse_offsets(parser *p, int64_t *off)
{
    while (is_punct(&p->tok, '+') || is_punct(&p->tok, '-')) {
        bool minus = p->tok.ch == '-';
        next(p);
        int64_t v;
        ptx_status st = parse_int(p, &v, "an address offset");
        if (st != PTX_OK)
            return st;
        *off = (int64_t)((uint64_t)*off + (minus ? 0 - (uint64_t)v : (uint64_t)v));     /* wraps, as ptxas's */
    }
    return PTX_OK;
}

/* A bare name: variable, function or (for branches) label. */
static ptx_status parse_symbol(parser *p, isa_opd *o, bool want_label, uint32_t inst)
{
    fe_token name = p->tok;
    next(p);
    if (!want_label) {
        int v = lookup_var(p, name.text, name.len);
        if (v >= 0) {
            o->kind = ISA_OPD_SYM;
            isa_opd_set_var(o, (uint32_t)v);
            /* var+imm: the address of a variable with an offset (mov,
             * cvta; GCC's nvptx backend writes `cvta.global.u64 %r, x+8`). */
            return parse_offsets(p, &o->off);
        }
        uint32_t f;
        if (fe_strmap_get(&p->funcs, name.text, name.len, &f)) {
            if (f >= ISA_NOREG)
                return error_at(p, PTX_E_UNSUPPORTED, &name, "too many functions in one module (more than 65534)");
            o->kind = ISA_OPD_FUNC;
            o->reg = (uint16_t)f;
            return PTX_OK;
        }
        /* WARP_SZ: the ISA's predefined constant (cuda_fp16.hpp's and
         * cuda_bf16.hpp's shuffles of halves move it into a register). */
        if (name.len == 7 && memcmp(name.text, "WARP_SZ", 7) == 0) {
            o->kind = ISA_OPD_IMM;
            o->imm = ISA_WARP_SIZE;
            o->neg = ISA_LIT_INT;
            return PTX_OK;
        }
    }
    /* A label; resolved when the function ends. */
    if (p->nfixups == p->capfixups) {
        uint32_t nc = p->capfixups ? p->capfixups * 2 : 64;
        label_fixup *fx = realloc(p->fixups, nc * sizeof *fx);
        if (!fx)
            return nomem(p);
        p->fixups = fx;
        p->capfixups = nc;
    }
    p->fixups[p->nfixups++] = (label_fixup){ inst, -1, 0, name };
    o->kind = ISA_OPD_LABEL;
    return PTX_OK;
}

/* addr := '[' (reg | symbol | INT) [('+'|'-') INT] ']' */
static ptx_status parse_address(parser *p, isa_opd *o)
{
    next(p);                                    /* [ */
    o->kind = ISA_OPD_ADDR;
    o->reg = ISA_NOREG;
    if (names_register(p, &p->tok)) {
        fe_token name = p->tok;
        isa_opd r = {0};
        ptx_status st = parse_percent(p, &r);
        if (st != PTX_OK)
            return st;
        if (r.kind != ISA_OPD_REG)
            return error_at(p, PTX_E_SYNTAX, &name, "'%.*s' cannot be an address", (int)name.len,
                            name.text);
        o->reg = r.reg;
    } else if (p->tok.kind == TK_IDENT) {
        fe_token name = p->tok;
        int v = lookup_var(p, name.text, name.len);
        if (v < 0)
            return error_at(p, PTX_E_UNDEFINED, &name, "undefined symbol '%.*s'", (int)name.len,
                            name.text);
        next(p);
        o->kind = ISA_OPD_ADDR_SYM;
        isa_opd_set_var(o, (uint32_t)v);
    } else if (p->tok.kind == TK_INT) {
        o->off = (int64_t)p->tok.ival;
        next(p);
    } else {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected an address, found '%s'",
                        tok_str(&p->tok, b, sizeof b));
    }
    ptx_status st = parse_offsets(p, &o->off);
    if (st != PTX_OK)
        return st;
    return expect(p, ']', "to close the address");
}

static bool is_matrix_op(uint16_t op)
{
    return (isa_ops[op].flags & ISA_F_MATRIX) != 0;
}

static ptx_status parse_operand(parser *p, isa_opd *o, bool want_label, uint32_t inst);

/* Textures, surfaces and tensor maps: '[' handle ',' '{' coordinates '}' ']'
 * becomes two operands, the handle register and the coordinate vector. */
static ptx_status parse_image_address(parser *p, isa_opd *handle, isa_opd *coords, uint32_t inst)
{
    next(p);                                    /* [ */
    fe_token at = p->tok;
    ptx_status st = parse_operand(p, handle, false, inst);
    if (st != PTX_OK)
        return st;
    if (handle->kind != ISA_OPD_REG)
        return error_at(p, PTX_E_UNSUPPORTED, &at,
                        isa_cp_is_tensor(&p->m->funcs[p->fn].code[inst])
                            ? "unsupported PTX construct: a tensor map must be named by a 64-bit register "
                              "holding its address"
                            : "unsupported PTX construct: a texture or surface must be named by a "
                              "64-bit register (texture references are not supported; use texture objects)");
    if ((st = expect(p, ',', "between the handle and the coordinates")) != PTX_OK)
        return st;
    at = p->tok;
    if (!is_punct(&p->tok, '{'))
        return error_at(p, PTX_E_SYNTAX, &at, "expected '{' to open the coordinate vector");
    if ((st = parse_operand(p, coords, false, inst)) != PTX_OK)
        return st;
    return expect(p, ']', "to close the texture or surface address");
}

/* The predicate half of a d|p pair (shfl, elect, setp), if one follows;
 * the sink `_` there writes no predicate. */
static ptx_status parse_pred_half(parser *p, isa_opd *o)
{
    if (!is_punct(&p->tok, '|'))
        return PTX_OK;
    next(p);
    if (p->tok.kind == TK_IDENT && is_word(&p->tok, "_")) {
        next(p);
        return PTX_OK;
    }
    isa_opd q = {0};
    fe_token at = p->tok;
    ptx_status st = parse_percent(p, &q);
    if (st != PTX_OK)
        return st;
    if (q.kind != ISA_OPD_PRED)
        return error_at(p, PTX_E_SYNTAX, &at, "the second half of a '|' pair must be a predicate");
    o->reg2 = q.reg;
    return PTX_OK;
}

/* A video instruction's element selector after a register (a.b0, b.h1,
 * a.b3210, b.h32, d.b10): kept in the operand (isa.h, ISA_VSEL_ON); which
 * operand may take which is isa_video_form_error's to say. */
static ptx_status parse_video_sel(parser *p, isa_opd *o)
{
    if (p->tok.kind != TK_DOT || p->tok.space_before)
        return PTX_OK;
    const char *s = p->tok.text + 1;
    size_t n = p->tok.len - 1;
    bool half = n && s[0] == 'h';
    bool ok = n >= 2 && n <= 5 && (s[0] == 'b' || half);
    uint64_t sel = ISA_VSEL_ON | (half ? ISA_VSEL_HALF : 0) | (uint64_t)(n - 1) << 32;
    for (size_t i = 1; ok && i < n; i++) {
        ok = s[i] >= '0' && s[i] <= (half ? '3' : '7');
        sel |= (uint64_t)(s[i] - '0') << (4 * (n - 1 - i));
    }
    if (!ok)
        return error_at(p, PTX_E_SYNTAX, &p->tok, "'%.*s' is not an element selector (.b0 to .b3, .h0, .h1, "
                        "or a SIMD selector or mask: .b3210, .b7654, .h10, .b20, ...)", (int)p->tok.len, p->tok.text);
    o->imm = sel;
    next(p);
    return PTX_OK;
}

/* opd := ['!'] %reg [| %pred] | %sreg | ['-'] number | '{' opds '}' | addr | name */
static ptx_status parse_operand(parser *p, isa_opd *o, bool want_label, uint32_t inst)
{
    memset(o, 0, sizeof *o);
    o->reg2 = ISA_NOREG;
    ptx_status st;
    if (is_punct(&p->tok, '[')) {
        return parse_address(p, o);
    }
    if (is_punct(&p->tok, '{')) {
        next(p);
        o->kind = ISA_OPD_VEC;
        uint16_t regs[ISA_MAX_LIST];
        /* Matrix fragments take up to 8 registers (wgmma's accumulator up
         * to ISA_MAX_LIST), and so do the data of memory instructions
         * (ld/st .v8, 256-bit, sm_100; atom/red .v8.f16) and a tensor
         * copy's coordinates (5); other vectors 4. */
        uint16_t iop = p->m->funcs[p->fn].code[inst].op;
        bool wide = is_matrix_op(iop) || iop == ISA_OP_LD || iop == ISA_OP_LDU || iop == ISA_OP_ST ||
                    iop == ISA_OP_ATOM || iop == ISA_OP_RED || isa_cp_is_tensor(&p->m->funcs[p->fn].code[inst]);
        unsigned max = iop == ISA_OP_WGMMA_MMA_ASYNC ? ISA_MAX_LIST : wide ? ISA_MAX_VEC : ISA_INLINE_VEC;
        for (;;) {
            if (o->nvec == max)
                return error_at(p, PTX_E_UNSUPPORTED, &p->tok,
                                "unsupported PTX construct: vector operand of more than %u elements", max);
            if (p->tok.kind == TK_IDENT && is_word(&p->tok, "_")) {
                regs[o->nvec++] = ISA_NOREG;
                next(p);
            } else {
                isa_opd e = {0};
                fe_token at = p->tok;
                if ((st = parse_operand(p, &e, false, inst)) != PTX_OK)
                    return st;
                if (e.kind == ISA_OPD_IMM && p->nvec_imm < sizeof p->vec_imm / sizeof p->vec_imm[0] &&
                    o->nvec < ISA_MAX_VEC) {
                    p->vec_imm[p->nvec_imm] = e;
                    p->vec_imm_slot[p->nvec_imm++] = o->nvec;    /* operand index added later */
                    regs[o->nvec++] = ISA_NOREG;
                } else if (e.kind != ISA_OPD_REG) {
                    return error_at(p, PTX_E_UNSUPPORTED, &at,
                                    "unsupported PTX construct: vector element that is not a register");
                } else {
                    regs[o->nvec++] = e.reg;
                }
            }
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
        }
        if (o->nvec <= ISA_INLINE_VEC) {
            memcpy(o->vec, regs, o->nvec * sizeof regs[0]);
        } else {
            uint32_t at = isa_add_list(p->m, regs, o->nvec);
            if (at == UINT32_MAX)
                return nomem(p);
            o->kind = ISA_OPD_LIST;
            o->imm = at;
        }
        return expect(p, '}', "to close the vector operand");
    }
    if (is_punct(&p->tok, '!')) {
        next(p);
        fe_token at = p->tok;
        if ((st = parse_operand(p, o, false, inst)) != PTX_OK)
            return st;
        if (o->kind != ISA_OPD_PRED)
            return error_at(p, PTX_E_SYNTAX, &at, "'!' applies only to a predicate");
        o->neg = 1;
        return PTX_OK;
    }
    uint16_t iop = p->m->funcs[p->fn].code[inst].op;
    bool video = isa_ops[iop].flags & ISA_F_VIDEO;
    if (is_punct(&p->tok, '-')) {
        next(p);
        /* vmad's sources may be negated registers: -a, -b, -c. */
        if (iop == ISA_OP_VMAD && names_register(p, &p->tok)) {
            fe_token at = p->tok;
            if ((st = parse_percent(p, o)) != PTX_OK)
                return st;
            if (o->kind != ISA_OPD_REG)
                return error_at(p, PTX_E_SYNTAX, &at, "'-' negates a register of vmad, not this operand");
            o->neg = 1;
            return parse_video_sel(p, o);
        }
        return parse_number_opd(p, o, true);
    }
    if (names_register(p, &p->tok)) {
        if ((st = parse_percent(p, o)) != PTX_OK)
            return st;
        if (video && o->kind == ISA_OPD_REG)
            return parse_video_sel(p, o);
        return parse_pred_half(p, o);
    }
    if (p->tok.kind == TK_IDENT) {
        if (is_word(&p->tok, "_")) {            /* sink, or the sink half of _|p */
            next(p);
            o->kind = ISA_OPD_NONE;
            return parse_pred_half(p, o);
        }
        return parse_symbol(p, o, want_label, inst);
    }
    return parse_number_opd(p, o, false);
}

/* ---- instructions ------------------------------------------------------- */


/* The modifiers only matrix instructions take: a shape, .row/.col (A's,
 * then B's), wmma's matrix letter, ldmatrix's matrix count .x1/.x2/.x4,
 * and up to four types (mma's D, A, B, C). */
static bool apply_matrix_mod(isa_inst *in, const char *s, size_t n)
{
    int v;
    if ((v = isa_lookup_mod(ISA_MODCAT_SHAPE, s, n)) > 0) {
        in->shape = (uint8_t)v;
        return true;
    }
    if (n == 3 && (!memcmp(s, "row", 3) || !memcmp(s, "col", 3))) {
        bool col = s[0] == 'c';
        if (!(in->layout & ISA_LAYOUT_SEEN_A))
            in->layout |= ISA_LAYOUT_SEEN_A | (col ? ISA_LAYOUT_A_COL : 0);
        else if (!(in->layout & ISA_LAYOUT_SEEN_B))
            in->layout |= ISA_LAYOUT_SEEN_B | (col ? ISA_LAYOUT_B_COL : 0);
        else
            return false;
        return true;
    }
    if ((in->op == ISA_OP_MMA || in->op == ISA_OP_WMMA_MMA) && (v = isa_lookup_mod(ISA_MODCAT_AOP, s, n)) > 0) {
        /* .b1's .xor.popc and .and.popc: the operation, then the count. */
        if (!in->aop && (v == ISA_AOP_XOR || v == ISA_AOP_AND))
            in->aop = (uint8_t)v;
        else if (v == ISA_AOP_POPC && (in->aop == ISA_AOP_XOR || in->aop == ISA_AOP_AND))
            in->aop = in->aop == ISA_AOP_XOR ? ISA_AOP_XOR_POPC : ISA_AOP_AND_POPC;
        else
            return false;
        return true;
    }
    if (in->op == ISA_OP_MMA && !in->mode && (v = isa_lookup_mod(ISA_MODCAT_MODE, s, n)) > 0 &&
        (v == ISA_MODE_SP || v == ISA_MODE_SP_ORDERED)) {
        in->mode = (uint8_t)v;                  /* mma.sp, mma.sp::ordered_metadata */
        return true;
    }
    if ((in->op == ISA_OP_WMMA_LOAD || in->op == ISA_OP_WMMA_STORE) && n == 1 && s[0] >= 'a' && s[0] <= 'd' &&
        !in->matrix) {
        in->matrix = (uint8_t)(ISA_MATRIX_A + (s[0] - 'a'));
        return true;
    }
    if ((in->op == ISA_OP_LDMATRIX || in->op == ISA_OP_STMATRIX) && n == 2 && s[0] == 'x' &&
        (s[1] == '1' || s[1] == '2' || s[1] == '4')) {
        in->vec = (uint8_t)(s[1] - '0');
        return true;
    }
    if ((v = isa_lookup_type(s, n)) > 0) {
        uint8_t *slot = !in->type ? &in->type : !in->type2 ? &in->type2 : !in->type3 ? &in->type3
                      : !in->type4 ? &in->type4 : NULL;
        if (!slot)
            return false;
        *slot = (uint8_t)v;
        return true;
    }
    return false;
}

/* wgmma.mma_async d, a, b-desc, scale-d[, imm-scale-a, imm-scale-b[,
 * imm-trans-a], imm-trans-b]: n operands were parsed, the ones past
 * ISA_MAX_OPDS into extra[].  The immediates after scale-d become
 * ISA_LAYOUT_* bits, leaving d, a, b, scale-d.  Which of them a form takes
 * (PTX ISA 9.7.15.5.2): the integer types none; .tf32, .e4m3 and .e5m2 the
 * two scales; .f16 and .bf16 the scales and the transposes, imm-trans-a
 * only with A in shared memory.  Returns why the operands do not fit. */
static const char *fold_wgmma_imms(isa_inst *in, const isa_opd *extra, unsigned n)
{
    bool ints = in->type2 == ISA_TYPE_S8 || in->type2 == ISA_TYPE_U8;
    bool half = in->type2 == ISA_TYPE_F16 || in->type2 == ISA_TYPE_BF16;
    bool a_regs = n > 1 && in->opd[1].kind != ISA_OPD_REG;
    unsigned want = ints ? 4 : 6, most = ints ? 4 : half ? (a_regs ? 7 : 8) : 6;
    if (n < want || n > most || (n != want && n != most))
        return ints ? "expected d, a, b-desc, scale-d"
               : !half ? "expected d, a, b-desc, scale-d, imm-scale-a, imm-scale-b"
               : a_regs ? "expected d, a, b-desc, scale-d, imm-scale-a, imm-scale-b[, imm-trans-b]"
                        : "expected d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b[, imm-trans-a, imm-trans-b]";
    for (unsigned i = 4; i < n; i++) {
        const isa_opd *o = i < ISA_MAX_OPDS ? &in->opd[i] : &extra[i - ISA_MAX_OPDS];
        int64_t v = (int64_t)o->imm;
        if (o->kind != ISA_OPD_IMM || o->neg != ISA_LIT_INT)
            return "imm-scale-a, imm-scale-b, imm-trans-a and imm-trans-b are integer constants";
        if (i < 6) {
            if (v != 1 && v != -1)
                return "imm-scale-a and imm-scale-b are 1 or -1";
            if (v == -1)
                in->layout |= i == 4 ? ISA_LAYOUT_NEG_A : ISA_LAYOUT_NEG_B;
        } else {
            if (v != 0 && v != 1)
                return "imm-trans-a and imm-trans-b are 0 or 1";
            bool is_b = i == 7 || a_regs;
            if (v == 1)
                in->layout |= is_b ? ISA_LAYOUT_TRANS_B : ISA_LAYOUT_TRANS_A;
        }
    }
    in->nopd = n < 4 ? (uint8_t)n : 4;
    return NULL;
}

/* vmad's plus one (.po) and scale (.shr7, .shr15) share the mode field,
 * written in either order; each at most once. */
static bool apply_vmad_mode(isa_inst *in, int v)
{
    bool po = isa_vmad_po(in->mode);
    unsigned scale = isa_vmad_scale(in->mode);
    if (v == ISA_MODE_PO && !po)
        po = true;
    else if ((v == ISA_MODE_SHR7 || v == ISA_MODE_SHR15) && !scale)
        scale = v == ISA_MODE_SHR7 ? 7 : 15;
    else
        return false;
    in->mode = (uint8_t)(po ? (scale == 7 ? ISA_MODE_PO_SHR7 : scale == 15 ? ISA_MODE_PO_SHR15 : ISA_MODE_PO)
                            : (scale == 7 ? ISA_MODE_SHR7 : ISA_MODE_SHR15));
    return true;
}

/* Apply one '.mod' of a mnemonic to the instruction. */
static bool apply_mod(isa_inst *in, const char *s, size_t n)
{
    int v;
    bool cmp_first = isa_ops[in->op].flags & ISA_F_CMP;
    if (is_matrix_op(in->op) && apply_matrix_mod(in, s, n))
        return true;
    if (in->mode) {
        /* A mode named "a.b" (mods.def) is what mode a becomes when .b
         * follows it: mbarrier.try_wait.parity, cp.async.bulk.wait_group. */
        const char *prev = isa_mode_names[in->mode];
        size_t pn = strlen(prev);
        char both[80];
        if (pn + 1 + n < sizeof both) {
            memcpy(both, prev, pn);
            both[pn] = '.';
            memcpy(both + pn + 1, s, n);
            if ((v = isa_lookup_mod(ISA_MODCAT_MODE, both, pn + 1 + n)) > 0) {
                in->mode = (uint8_t)v;
                return true;
            }
        }
    }
    if (in->op == ISA_OP_TENSORMAP && n == 5 && memcmp(s, "b1024", 5) == 0)
        return true;                            /* tensormap.replace's object: 1024 bits, always */
    if (isa_cp_is_tensor(in)) {
        /* cp.async.bulk.tensor.2d...: the dimensionality; .tile, the one
         * load mode ptxsim has (.im2col and the gathers are refused as
         * unknown modifiers); .multicast::cluster, a copy into several
         * CTAs' shared memory. */
        if (n == 2 && s[0] >= '1' && s[0] <= '5' && s[1] == 'd' && !in->geom) {
            in->geom = (uint8_t)(s[0] - '0');
            return true;
        }
        if (n == 4 && memcmp(s, "tile", 4) == 0)
            return true;
        if (n == 18 && memcmp(s, "multicast::cluster", 18) == 0) {
            in->layout |= ISA_CP_MULTICAST;
            return true;
        }
    }
    if ((v = isa_lookup_type(s, n)) > 0) {
        if (!in->type)
            in->type = (uint8_t)v;
        else if (!in->type2)
            in->type2 = (uint8_t)v;
        else if ((in->op == ISA_OP_CVT || (isa_ops[in->op].flags & ISA_F_VIDEO)) && !in->type3)
            in->type3 = (uint8_t)v;             /* cvt.pack.sat.u8.s32.b32: c's type; vadd4.s32.u32.s32: b's */
        else
            return false;
        return true;
    }
    if (n == 2 && s[0] == 'v' && (s[1] == '2' || s[1] == '4' || s[1] == '8')) {
        in->vec = (uint8_t)(s[1] - '0');
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_GEOM, s, n)) > 0 && (isa_ops[in->op].flags & ISA_F_IMAGE)) {
        in->geom = (uint8_t)v;
        return true;
    }
    /* suld.b / sust.b: raw bits are the only surface format ptxsim takes,
     * so `.b` is implied (sust.p is refused as an unknown modifier). */
    if ((isa_ops[in->op].flags & ISA_F_SURFACE) && n == 1 && s[0] == 'b')
        return true;
    const char *colons = memchr(s, ':', n);
    /* prefetch{.space}.level: the level is kept (ptxas requires one when the
     * instruction is printed back); an eviction priority after it,
     * .L2::evict_last, is a hint with no effect, as below. */
    if (in->op == ISA_OP_DISCARD && n == 2 && s[0] == 'L' && s[1] == '2')
        return true;                            /* discard's level: the only one */
    if ((in->op == ISA_OP_PREFETCH || in->op == ISA_OP_PREFETCHU) && n >= 2 && s[0] == 'L' &&
        (s[1] == '1' || s[1] == '2') && (n == 2 || s[2] == ':') && !in->mode) {
        in->mode = s[1] == '1' ? ISA_MODE_L1 : ISA_MODE_L2;
        return true;
    }
    if (in->op == ISA_OP_CP && in->mode == ISA_MODE_ASYNC && n == 14 && memcmp(s, "L2::cache_hint", 14) == 0) {
        in->layout |= ISA_CP_CACHE_HINT;        /* a cache-policy operand follows */
        return true;
    }
    if (colons && n >= 2 && s[0] == 'L' && (s[1] == '1' || s[1] == '2'))
        return true;                            /* cache eviction hints: no effect */
    size_t base = colons ? (size_t)(colons - s) : n;
    if ((v = isa_lookup_mod(ISA_MODCAT_SPACE, s, base)) > 0) {
        in->space = (uint8_t)v;
        /* .shared::cluster may reach other CTAs of the cluster; .shared and
         * .shared::cta only the CTA's own shared memory. */
        if (v == ISA_SPACE_SHARED && n == base + 9 && memcmp(s + base, "::cluster", 9) == 0)
            in->flags |= ISA_MOD_FLAG(SHCLUSTER);
        return true;
    }
    if (cmp_first && (v = isa_lookup_mod(ISA_MODCAT_CMP, s, n)) > 0) {
        in->cmp = (uint8_t)v;
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_FLAG, s, n)) >= 0) {
        in->flags |= 1u << v;
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_RND, s, n)) > 0) {
        in->rnd = (uint8_t)v;
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_MODE, s, n)) > 0 && v != ISA_MODE_L1 && v != ISA_MODE_L2 &&
        v != ISA_MODE_SP && v != ISA_MODE_SP_ORDERED) {
        if (in->op == ISA_OP_VMAD)
            return apply_vmad_mode(in, v);
        in->mode = (uint8_t)v;
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_AOP, s, n)) > 0) {
        in->aop = (uint8_t)v;
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_ORDER, s, n)) > 0) {
        in->order = (uint8_t)v;
        return true;
    }
    if ((v = isa_lookup_mod(ISA_MODCAT_SCOPE, s, n)) > 0) {
        in->scope = (uint8_t)v;
        return true;
    }
    if (!cmp_first && (v = isa_lookup_mod(ISA_MODCAT_CMP, s, n)) > 0) {
        in->cmp = (uint8_t)v;
        return true;
    }
    return false;
}

/* Float literals become the bit pattern of the operand's type. */
static void convert_literals(isa_inst *in)
{
    for (unsigned i = 0; i < in->nopd; i++) {
        isa_opd *o = &in->opd[i];
        if (o->kind != ISA_OPD_IMM)
            continue;
        uint8_t t = isa_opd_type(in, i);
        if (t == ISA_TYPE_F32) {
            float f;
            if (o->neg == ISA_LIT_F64) {
                double d;
                memcpy(&d, &o->imm, 8);
                f = (float)d;
            } else if (o->neg == ISA_LIT_INT) {
                f = (float)(int64_t)o->imm;
            } else {
                continue;
            }
            uint32_t u;
            memcpy(&u, &f, 4);
            o->imm = u;
            o->neg = ISA_LIT_F32;
        } else if (t == ISA_TYPE_F64) {
            double d;
            if (o->neg == ISA_LIT_F32) {
                float f;
                uint32_t u = (uint32_t)o->imm;
                memcpy(&f, &u, 4);
                d = f;
            } else if (o->neg == ISA_LIT_INT) {
                d = (double)(int64_t)o->imm;
            } else {
                continue;
            }
            memcpy(&o->imm, &d, 8);
            o->neg = ISA_LIT_F64;
        }
    }
}

/* call_args := '(' [name (',' name)*] ')' -- .param variables in scope */
static ptx_status parse_param_list(parser *p, uint32_t **out, uint8_t *count)
{
    ptx_status st = expect(p, '(', "to open a call's parameter list");
    if (st != PTX_OK)
        return st;
    uint32_t tmp[64];
    uint8_t n = 0;
    while (!is_punct(&p->tok, ')')) {
        if (p->tok.kind != TK_IDENT) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a parameter name, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        int v = lookup_var(p, p->tok.text, p->tok.len);
        if (v < 0)
            return error_at(p, PTX_E_UNDEFINED, &p->tok, "undefined parameter '%.*s'",
                            (int)p->tok.len, p->tok.text);
        if (n == 64)
            return error_at(p, PTX_E_UNSUPPORTED, &p->tok, "more than 64 call arguments");
        tmp[n++] = (uint32_t)v;
        next(p);
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    if ((st = expect(p, ')', "to close a call's parameter list")) != PTX_OK)
        return st;
    *out = isa_alloc(p->m, (n ? n : 1) * sizeof **out);
    if (!*out)
        return nomem(p);
    memcpy(*out, tmp, n * sizeof **out);
    *count = n;
    return PTX_OK;
}

/* call := 'call' mods [ '(' rets ')' ',' ] target [',' '(' args ')'] [',' proto] ';' */
static ptx_status parse_call(parser *p, isa_inst *in, uint32_t inst)
{
    isa_func *f = &p->m->funcs[p->fn];
    isa_call c = { .callee = -1, .target_reg = ISA_NOREG };
    ptx_status st;
    if (is_punct(&p->tok, '(')) {
        if ((st = parse_param_list(p, &c.rets, &c.nrets)) != PTX_OK)
            return st;
        if ((st = expect(p, ',', "after the call's return list")) != PTX_OK)
            return st;
    }
    fe_token target = p->tok;
    if (names_register(p, &p->tok)) {
        isa_opd r = {0};
        if ((st = parse_percent(p, &r)) != PTX_OK)
            return st;
        if (r.kind != ISA_OPD_REG)
            return error_at(p, PTX_E_SYNTAX, &target, "an indirect call needs a register");
        c.target_reg = r.reg;
    } else if (p->tok.kind == TK_IDENT) {
        uint32_t fi;
        if (!fe_strmap_get(&p->funcs, target.text, target.len, &fi))
            return error_at(p, PTX_E_UNDEFINED, &target, "call to undeclared function '%.*s'",
                            (int)target.len, target.text);
        c.callee = (int32_t)fi;
        next(p);
    } else {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &target, "expected a call target, found '%s'",
                        tok_str(&target, b, sizeof b));
    }
    if (is_punct(&p->tok, ',')) {
        next(p);
        if (is_punct(&p->tok, '(')) {
            if ((st = parse_param_list(p, &c.args, &c.nargs)) != PTX_OK)
                return st;
            if (is_punct(&p->tok, ',')) {
                next(p);
                if (p->tok.kind == TK_IDENT) {
                    c.proto = intern(p, &p->tok);
                    next(p);
                }
            }
        } else if (p->tok.kind == TK_IDENT) {
            c.proto = intern(p, &p->tok);
            next(p);
        }
    }
    isa_call *calls = isa_alloc(p->m, (f->ncalls + 1) * sizeof *calls);
    if (!calls)
        return nomem(p);
    if (f->ncalls)
        memcpy(calls, f->calls, f->ncalls * sizeof *calls);
    calls[f->ncalls] = c;
    in->opd[0].kind = ISA_OPD_IMM;
    in->opd[0].imm = f->ncalls;
    in->nopd = 1;
    f->calls = calls;
    f->ncalls++;
    (void)inst;
    return expect(p, ';', "after a call");
}

/* Give each immediate vector element a hidden register %__immN, set by a
 * mov placed just before the instruction at `index` (the last one). */
static ptx_status materialise_vector_immediates(parser *p, uint32_t index)
{
    isa_func *f = &p->m->funcs[p->fn];
    uint8_t n = p->nvec_imm;
    for (uint8_t k = 0; k < n; k++)
        if (!isa_add_inst(p->m, f))
            return nomem(p);
    f = &p->m->funcs[p->fn];
    isa_inst user = f->code[index];
    isa_srcpos pos = f->src[index];
    for (uint8_t k = 0; k < n; k++) {
        /* The element's type: the instruction's (ld/st .v2/.v4, and
         * mov.v2.u32 d, {0, 0}), but a part of it where mov packs {a, b}
         * into one register (mov.b32 d, {0, %h} has 16-bit elements:
         * ptxas refuses a b32). */
        uint8_t et = user.type ? user.type : (uint8_t)ISA_TYPE_B64;
        const isa_opd *vo = &user.opd[p->vec_imm_slot[k] / ISA_MAX_VEC];
        if (user.op == ISA_OP_MOV && user.vec <= 1 && vo->nvec > 1) {
            unsigned eb = isa_types[et].bytes / vo->nvec;
            et = eb == 1 ? ISA_TYPE_B8 : eb == 2 ? ISA_TYPE_B16 : eb == 4 ? ISA_TYPE_B32 : et;
        }
        if ((unsigned)f->nregs + 1 >= ISA_NOREG)
            return nomem(p);
        char name[32];
        int len = snprintf(name, sizeof name, "%%__imm%u", f->nregs);
        uint16_t reg = f->nregs++;
        if (!add_regdecl(p, (isa_regdecl){ isa_strdup(p->m, name, (size_t)len), 0, reg, et }, (size_t)len))
            return nomem(p);
        isa_inst *mv = &f->code[index + k];
        memset(mv, 0, sizeof *mv);
        mv->op = ISA_OP_MOV;
        mv->type = et;
        mv->guard = ISA_NOREG;
        mv->vec = 1;
        mv->rpc = ISA_PC_EXIT;
        mv->line = user.line;
        mv->col = user.col;
        mv->nopd = 2;
        mv->opd[0] = (isa_opd){ .kind = ISA_OPD_REG, .reg = reg, .reg2 = ISA_NOREG };
        mv->opd[1] = p->vec_imm[k];
        convert_literals(mv);
        f->src[index + k] = pos;
        isa_opd *vo2 = &user.opd[p->vec_imm_slot[k] / ISA_MAX_VEC];
        if (vo2->kind == ISA_OPD_LIST)
            p->m->lists[vo2->imm + p->vec_imm_slot[k] % ISA_MAX_VEC] = reg;
        else
            vo2->vec[p->vec_imm_slot[k] % ISA_MAX_VEC] = reg;
    }
    f->code[index + n] = user;
    f->src[index + n] = pos;
    for (uint32_t i = 0; i < p->nfixups; i++)
        if (p->fixups[i].brx < 0 && p->fixups[i].inst == index)
            p->fixups[i].inst = index + n;
    return PTX_OK;
}

/* instr := ['@' ['!'] pred] opcode {'.' mod} [opd {',' opd}] ';' */
static ptx_status parse_instruction(parser *p)
{
    isa_func *f = &p->m->funcs[p->fn];
    uint16_t guard = ISA_NOREG;
    uint8_t guard_neg = 0;
    ptx_status st;
    p->nvec_imm = 0;
    if (is_punct(&p->tok, '@')) {
        next(p);
        if (is_punct(&p->tok, '!')) {
            guard_neg = 1;
            next(p);
        }
        isa_opd g = {0};
        fe_token at = p->tok;
        if (p->tok.kind != TK_IDENT || (st = parse_percent(p, &g)) != PTX_OK || g.kind != ISA_OPD_PRED)
            return p->diag->count ? PTX_E_SYNTAX
                                  : error_at(p, PTX_E_SYNTAX, &at, "a guard must be a predicate register");
        guard = g.reg;
    }
    if (p->tok.kind != TK_IDENT) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected an instruction, found '%s'",
                        tok_str(&p->tok, b, sizeof b));
    }
    fe_token mnem = p->tok;
    int op = isa_lookup_op(mnem.text, mnem.len);
    next(p);
    /* Two-word mnemonics (wmma.load): the table spells them with '_'. */
    if (op < 0 && p->tok.kind == TK_DOT && !p->tok.space_before && mnem.len + p->tok.len < 32) {
        char two[32];
        memcpy(two, mnem.text, mnem.len);
        two[mnem.len] = '_';
        memcpy(two + mnem.len + 1, p->tok.text + 1, p->tok.len - 1);
        if ((op = isa_lookup_op(two, mnem.len + p->tok.len)) >= 0)
            next(p);
    }
    /* The full mnemonic for messages: opcode and its adjacent .mods. */
    const char *full_end = mnem.text + mnem.len;
    fe_lexer scan = p->lx;
    fe_token t = p->tok;
    while (t.kind == TK_DOT && !t.space_before) {
        full_end = t.text + t.len;
        fe_lex_next(&scan, &t);
    }
    int full_len = (int)(full_end - mnem.text);
    if (op < 0 && isa_mnemonic_unimplemented(mnem.text, mnem.len))
        return error_at(p, PTX_E_UNSUPPORTED, &mnem, "unsupported PTX instruction `%.*s` (ptxsim does not "
                        "implement it)", full_len, mnem.text);
    if (op < 0)     /* not a PTX instruction at all: invalid PTX, as ptxas has it */
        return error_at(p, PTX_E_SYNTAX, &mnem, "unknown PTX instruction `%.*s`", full_len, mnem.text);
    uint32_t index = f->ncode;
    isa_inst *in = isa_add_inst(p->m, f);
    if (!in)
        return nomem(p);
    in->op = (uint16_t)op;
    in->guard = guard;
    in->guard_neg = guard_neg;
    in->line = mnem.line;
    in->col = (uint16_t)(mnem.col > 65535 ? 65535 : mnem.col);
    f->src[index] = p->loc;
    while (p->tok.kind == TK_DOT && !p->tok.space_before) {
        if (!apply_mod(in, p->tok.text + 1, p->tok.len - 1)) {
            fe_token bad = p->tok;
            f->ncode--;
            return error_at(p, PTX_E_UNSUPPORTED, &bad,
                            "unsupported PTX instruction `%.*s` (modifier `%.*s`)", full_len,
                            mnem.text, (int)bad.len, bad.text);
        }
        next(p);
    }
    if (op == ISA_OP_CALL) {
        st = parse_call(p, in, index);
        if (st != PTX_OK)
            f->ncode--;
        return st;
    }
    bool branch = op == ISA_OP_BRA || op == ISA_OP_BRX;
    unsigned n = 0;
    /* wgmma.mma_async's trailing immediates (up to eight operands in all)
     * past opd[]: fold_wgmma_imms folds them into the instruction. */
    isa_opd extra[2];
    unsigned max_opds = op == ISA_OP_WGMMA_MMA_ASYNC ? ISA_MAX_OPDS + 2 : ISA_MAX_OPDS;
    if (!is_punct(&p->tok, ';')) {
        for (;;) {
            if (n == max_opds) {
                f->ncode--;
                return error_at(p, PTX_E_UNSUPPORTED, &p->tok, "too many operands for `%.*s`",
                                full_len, mnem.text);
            }
            /* Only a bra's first operand, and brx's table, are labels. */
            bool want_label = (op == ISA_OP_BRA && n == 0) || (op == ISA_OP_BRX && n == 1);
            uint8_t imm_before = p->nvec_imm;
            bool image = isa_pair_address_opd(&f->code[index]) == n && is_punct(&p->tok, '[');
            if (image && n + 1 == ISA_MAX_OPDS) {
                f->ncode--;
                return error_at(p, PTX_E_UNSUPPORTED, &p->tok, "too many operands for `%.*s`",
                                full_len, mnem.text);
            }
            if (image)
                st = parse_image_address(p, &f->code[index].opd[n], &f->code[index].opd[n + 1], index);
            else
                st = parse_operand(p, n < ISA_MAX_OPDS ? &f->code[index].opd[n] : &extra[n - ISA_MAX_OPDS],
                                   want_label, index);
            n += image;
            for (uint8_t k = imm_before; k < p->nvec_imm; k++)
                p->vec_imm_slot[k] = (uint8_t)(n * ISA_MAX_VEC + p->vec_imm_slot[k]);
            in = &f->code[index];
            if (st != PTX_OK) {
                f->ncode--;
                return st;
            }
            n++;
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
        }
    }
    in->nopd = (uint8_t)(n < ISA_MAX_OPDS ? n : ISA_MAX_OPDS);
    if (op == ISA_OP_WGMMA_MMA_ASYNC) {
        const char *why = fold_wgmma_imms(in, extra, n);
        if (!why && (p->m->sm != 90 || p->m->sm_suffix != 'a'))
            why = "wgmma needs .target sm_90a (ptxas refuses it for any other target)";
        if (why) {
            f->ncode--;
            return error_at(p, PTX_E_UNSUPPORTED, &mnem, "unsupported PTX instruction `%.*s`: %s", full_len,
                            mnem.text, why);
        }
    } else if ((op == ISA_OP_WGMMA_FENCE || op == ISA_OP_WGMMA_COMMIT || op == ISA_OP_WGMMA_WAIT) &&
               (p->m->sm != 90 || p->m->sm_suffix != 'a')) {
        f->ncode--;
        return error_at(p, PTX_E_UNSUPPORTED, &mnem, "unsupported PTX instruction `%.*s`: wgmma needs "
                        ".target sm_90a (ptxas refuses it for any other target)", full_len, mnem.text);
    }
    if (p->nvec_imm) {
        st = materialise_vector_immediates(p, index);
        p->nvec_imm = 0;
        if (st != PTX_OK)
            return st;
        f = &p->m->funcs[p->fn];
        in = &f->code[f->ncode - 1];
    }
    if (branch && p->nfixups && p->fixups[p->nfixups - 1].inst == index && op == ISA_OP_BRX) {
        /* brx.idx index, table: resolved against .branchtargets at the end. */
        p->fixups[p->nfixups - 1].brx = -2;
    }
    /* st.async / red.async with no state space write .shared::cluster. */
    if ((op == ISA_OP_ST || op == ISA_OP_RED) && in->mode == ISA_MODE_ASYNC_MBAR && !in->space) {
        in->space = ISA_SPACE_SHARED;
        in->flags |= ISA_MOD_FLAG(SHCLUSTER);
    }
    const char *type_why = isa_type_form_error(in);
    if (type_why) {
        f->ncode--;
        return error_at(p, PTX_E_UNSUPPORTED, &mnem, "unsupported PTX instruction `%.*s`: %s", full_len,
                        mnem.text, type_why);
    }
    if (is_matrix_op(in->op)) {
        /* wmma.mma on f16 names only D's and C's types. */
        if (in->op == ISA_OP_WMMA_MMA && in->type2 && !in->type3) {
            in->type4 = in->type2;
            in->type2 = in->type3 = ISA_TYPE_F16;
        }
        const char *why = isa_matrix_form_error(in);
        if (why) {
            f->ncode--;
            return error_at(p, PTX_E_UNSUPPORTED, &mnem, "unsupported PTX instruction `%.*s`: %s",
                            full_len, mnem.text, why);
        }
    }
    convert_literals(in);
    if (!is_punct(&p->tok, ';')) {
        char b[48];
        f->ncode--;
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected ';' after `%.*s`, found '%s'", full_len,
                        mnem.text, tok_str(&p->tok, b, sizeof b));
    }
    next(p);
    return PTX_OK;
}

/* label ':' .calltargets f1, f2, ... ';'
 * The functions an indirect call naming this label may reach.  The call
 * jumps to the function whose address its register holds (exec/ checks
 * that it is one); the list is checked here and kept no further. */
static ptx_status parse_calltargets(parser *p)
{
    next(p);                                    /* .calltargets */
    for (;;) {
        uint32_t fi;
        if (p->tok.kind != TK_IDENT) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a function name in .calltargets, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        if (!fe_strmap_get(&p->funcs, p->tok.text, p->tok.len, &fi))
            return error_at(p, PTX_E_UNDEFINED, &p->tok, "'%.*s' in .calltargets is not a declared function",
                            (int)p->tok.len, p->tok.text);
        next(p);
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    return expect(p, ';', "after .calltargets");
}

/* label ':' .branchtargets L1, L2, ... ';' */
static ptx_status parse_branchtargets(parser *p, const fe_token *label)
{
    next(p);                                    /* .branchtargets */
    isa_func *f = &p->m->funcs[p->fn];
    uint32_t table = f->nbrx;
    uint32_t **tabs = isa_alloc(p->m, (table + 1) * sizeof *tabs);
    uint32_t *counts = isa_alloc(p->m, (table + 1) * sizeof *counts);
    if (!tabs || !counts)
        return nomem(p);
    if (table) {
        memcpy(tabs, f->brx_targets, table * sizeof *tabs);
        memcpy(counts, f->brx_counts, table * sizeof *counts);
    }
    fe_token names[1024];
    uint32_t n = 0;
    for (;;) {
        if (p->tok.kind != TK_IDENT || n == 1024) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a label in .branchtargets, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        names[n++] = p->tok;
        next(p);
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    tabs[table] = isa_alloc(p->m, n * sizeof **tabs);
    if (!tabs[table])
        return nomem(p);
    counts[table] = n;
    f->brx_targets = tabs;
    f->brx_counts = counts;
    f->nbrx++;
    for (uint32_t i = 0; i < n; i++) {
        if (p->nfixups == p->capfixups) {
            uint32_t nc = p->capfixups ? p->capfixups * 2 : 64;
            label_fixup *fx = realloc(p->fixups, nc * sizeof *fx);
            if (!fx)
                return nomem(p);
            p->fixups = fx;
            p->capfixups = nc;
        }
        p->fixups[p->nfixups++] = (label_fixup){ 0, (int32_t)table, i, names[i] };
    }
    if (!fe_strmap_put(&p->brx_tables, label->text, label->len, table))
        return nomem(p);
    return expect(p, ';', "after .branchtargets");
}

/* .loc file line col [, function_name label [+ INT]] [, inlined_at f l c] */
static ptx_status parse_loc(parser *p)
{
    uint32_t at_line = p->tok.line;
    next(p);
    int64_t file, line, col = 0;
    ptx_status st;
    if ((st = parse_int(p, &file, "a file number")) != PTX_OK)
        return st;
    if ((st = parse_int(p, &line, "a line number")) != PTX_OK)
        return st;
    if (p->tok.kind == TK_INT && (st = parse_int(p, &col, "a column")) != PTX_OK)
        return st;
    /* The CUDA 12.8+ extras describe inlining: keep the call site of
     * `inlined_at f l c` (reports name the line that called a header's
     * function, not only the header), skip the rest to the line's end. */
    int64_t at_file = 0, at_line_no = 0;
    while (is_punct(&p->tok, ',') || (p->tok.kind != TK_EOF && p->tok.line == at_line &&
                                       !is_punct(&p->tok, ';') && p->tok.kind != TK_DOT &&
                                       !is_punct(&p->tok, '}'))) {
        bool inlined = is_word(&p->tok, "inlined_at");
        next(p);
        if (inlined && p->tok.kind == TK_INT && p->tok.line == at_line &&
            parse_int(p, &at_file, "a file number") == PTX_OK && p->tok.kind == TK_INT)
            parse_int(p, &at_line_no, "a line number");
    }
    /* nvcc writes its .file table after the code: keep the number and
     * check it against the table once the whole module is read. */
    p->loc.file = (uint16_t)(file > 0 && file <= UINT16_MAX ? file : 0);
    p->loc.line = (uint32_t)line;
    p->loc.col = (uint16_t)col;
    p->loc.at_file = (uint16_t)(at_file > 0 && at_file <= UINT16_MAX ? at_file : 0);
    p->loc.at_line = p->loc.at_file && at_line_no > 0 && at_line_no <= UINT32_MAX ? (uint32_t)at_line_no : 0;
    return PTX_OK;
}

static ptx_status resolve_labels(parser *p)
{
    isa_func *f = &p->m->funcs[p->fn];
    ptx_status result = PTX_OK;
    for (uint32_t i = 0; i < p->nfixups; i++) {
        label_fixup *fx = &p->fixups[i];
        uint32_t target;
        if (fx->brx == -2) {                    /* brx.idx's table operand */
            if (!fe_strmap_get(&p->brx_tables, fx->tok.text, fx->tok.len, &target)) {
                result = error_at(p, PTX_E_UNDEFINED, &fx->tok, "undefined .branchtargets '%.*s'",
                                  (int)fx->tok.len, fx->tok.text);
                continue;
            }
            isa_opd *o = &f->code[fx->inst].opd[1];
            o->kind = ISA_OPD_IMM;
            o->imm = target;
            continue;
        }
        if (!fe_strmap_get(&p->labels, fx->tok.text, fx->tok.len, &target)) {
            result = error_at(p, PTX_E_UNDEFINED, &fx->tok, "undefined label or symbol '%.*s'",
                              (int)fx->tok.len, fx->tok.text);
            continue;
        }
        if (fx->brx >= 0) {
            f->brx_targets[fx->brx][fx->slot] = target;
        } else {
            isa_inst *in = &f->code[fx->inst];
            in->target = target;
            in->opd[0].kind = ISA_OPD_LABEL;
            in->opd[0].imm = target;
        }
    }
    return result;
}

/* ---- functions ---------------------------------------------------------- */

/* params := '(' [param (',' param)*] ')' ; param := '.param' var | '.reg' ... */
static ptx_status parse_params(parser *p, isa_var_role role, uint32_t **out, uint32_t *count)
{
    ptx_status st = expect(p, '(', "to open a parameter list");
    if (st != PTX_OK)
        return st;
    uint32_t tmp[512];
    uint32_t n = 0;
    while (!is_punct(&p->tok, ')')) {
        if (!is_word(&p->tok, ".param")) {
            char b[48];
            return error_at(p, is_word(&p->tok, ".reg") ? PTX_E_UNSUPPORTED : PTX_E_SYNTAX, &p->tok,
                            "expected .param in a parameter list, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        uint32_t v;
        if ((st = parse_var(p, ISA_LINK_NONE, role, &v)) != PTX_OK)
            return st;
        if (n == 512)
            return error_at(p, PTX_E_UNSUPPORTED, &p->tok, "more than 512 parameters");
        tmp[n++] = v;
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    if ((st = expect(p, ')', "to close the parameter list")) != PTX_OK)
        return st;
    *out = isa_alloc(p->m, (n ? n : 1) * sizeof **out);
    if (!*out)
        return nomem(p);
    memcpy(*out, tmp, n * sizeof **out);
    *count = n;
    return PTX_OK;
}

static void reset_function_state(parser *p)
{
    p->nrd = 0;
    fe_strmap_clear(&p->regs);
    fe_strmap_clear(&p->labels);
    fe_strmap_clear(&p->brx_tables);
    p->nfixups = 0;
    p->nscope = 0;
    p->loc = (isa_srcpos){0};
}

/* The statements of a function body, up to and including its closing '}'. */
static ptx_status parse_body(parser *p)
{
    isa_func *f = &p->m->funcs[p->fn];
    uint32_t depth = 1;
    uint32_t block_start[256], block_regs[256];
    block_start[0] = p->nscope;
    block_regs[0] = p->nrd;
    next(p);                                    /* { */
    while (p->errors < MAX_ERRORS) {
        ptx_status st = PTX_OK;
        f = &p->m->funcs[p->fn];
        fe_token t = p->tok;
        stmt_mark start = mark(p);
        if (t.kind == TK_EOF)
            return error_at(p, PTX_E_SYNTAX, &t, "end of file inside the body of '%s'", f->name);
        if (is_punct(&t, '}')) {
            next(p);
            p->nscope = block_start[--depth];
            if (depth == 0)
                break;
            if (!end_block(p, block_regs[depth]))
                return nomem(p);
            continue;
        }
        if (is_punct(&t, '{')) {
            if (depth == 256)
                return error_at(p, PTX_E_UNSUPPORTED, &t, "blocks nested more than 256 deep");
            block_start[depth] = p->nscope;
            block_regs[depth++] = p->nrd;
            next(p);
            continue;
        }
        if (t.kind == TK_DOT) {
            if (is_word(&t, ".reg"))
                st = parse_reg_decl(p);
            else if (is_word(&t, ".loc"))
                st = parse_loc(p);
            else if (is_word(&t, ".pragma")) {
                recover(p, &start);
            } else if (dot_space(&t) > 0) {
                isa_var_role role = is_word(&t, ".param") ? ISA_VAR_CALLARG : ISA_VAR_PLAIN;
                st = parse_var(p, ISA_LINK_NONE, role, NULL);
            } else {
                char b[48];
                st = error_at(p, PTX_E_UNSUPPORTED, &t, "unsupported PTX directive '%s' in a function body",
                              tok_str(&t, b, sizeof b));
            }
        } else if (t.kind == TK_IDENT && t.text[0] != '%' &&
                   peek(p).kind == TK_PUNCT && peek(p).ch == ':') {
            /* label ':' [.branchtargets ... | .calltargets ... | .callprototype ...] */
            next(p);
            next(p);
            if (is_word(&p->tok, ".branchtargets")) {
                st = parse_branchtargets(p, &t);
            } else if (is_word(&p->tok, ".calltargets")) {
                st = parse_calltargets(p);
            } else if (is_word(&p->tok, ".callprototype")) {
                recover(p, &start);             /* the prototype is checked at call time */
            } else if (!fe_strmap_put(&p->labels, t.text, t.len, f->ncode)) {
                st = nomem(p);
            }
        } else {
            st = parse_instruction(p);
        }
        if (st != PTX_OK) {
            if (st == PTX_E_NOMEM)
                return st;
            recover(p, &start);
        }
    }
    return resolve_labels(p);
}

/* perf := ('.maxntid' | '.reqntid') INT [',' INT [',' INT]] | '.minnctapersm' INT
 *       | '.maxnreg' INT | '.maxclusterrank' INT | '.pragma' STRING ';' | '.noreturn' */
static ptx_status parse_perf(parser *p, isa_func *f)
{
    while (p->tok.kind == TK_DOT) {
        fe_token d = p->tok;
        next(p);
        if (is_word(&d, ".noreturn")) {
            f->noreturn = true;
        } else if (is_word(&d, ".explicitcluster")) {
            f->explicitcluster = true;
        } else if (is_word(&d, ".maxntid") || is_word(&d, ".reqntid") || is_word(&d, ".reqnctapercluster")) {
            uint32_t *dst = is_word(&d, ".maxntid") ? f->maxntid : is_word(&d, ".reqntid") ? f->reqntid
                          : f->reqnctapercluster;
            bool cluster = dst == f->reqnctapercluster;
            if (cluster)
                dst[0] = dst[1] = dst[2] = 1;   /* dimensions left out are 1 */
            for (int i = 0; i < 3 && p->tok.kind == TK_INT; i++) {
                if (cluster && (p->tok.ival == 0 || p->tok.ival > 0xFFFFFFFFull))
                    return error_at(p, PTX_E_SYNTAX, &p->tok, "%.*s: dimension %llu out of range",
                                    (int)d.len, d.text, (unsigned long long)p->tok.ival);
                dst[i] = (uint32_t)p->tok.ival;
                next(p);
                if (!is_punct(&p->tok, ','))
                    break;
                next(p);
            }
        } else if (is_word(&d, ".minnctapersm") || is_word(&d, ".maxnreg") ||
                   is_word(&d, ".maxclusterrank") || is_word(&d, ".maxnctapersm")) {
            int64_t v;
            ptx_status st = parse_int(p, &v, "a number");
            if (st != PTX_OK)
                return st;
            if (is_word(&d, ".minnctapersm"))
                f->minnctapersm = (uint32_t)v;
            else if (is_word(&d, ".maxnreg"))
                f->maxnreg = (uint32_t)v;
            else if (is_word(&d, ".maxclusterrank"))
                f->maxclusterrank = (uint32_t)v;
        } else if (is_word(&d, ".pragma")) {
            while (p->tok.kind != TK_EOF && !is_punct(&p->tok, ';'))
                next(p);
            next(p);
        } else {
            char b[48];
            return error_at(p, PTX_E_UNSUPPORTED, &d, "unsupported PTX directive '%s' on a function",
                            tok_str(&d, b, sizeof b));
        }
    }
    return PTX_OK;
}

/* func := ('.entry' | '.func' ['(' rets ')']) name ['(' params ')'] perf* (';' | body) */
static ptx_status parse_function(parser *p, uint8_t linkage)
{
    bool entry = is_word(&p->tok, ".entry");
    next(p);
    reset_function_state(p);
    /* Parameters are parsed before the function exists; give them a
     * provisional owner and fix it up once the index is known. */
    uint32_t *rets = NULL, nrets = 0, *params = NULL, nparams = 0;
    ptx_status st;
    uint32_t fidx = p->m->nfuncs;
    p->fn = -1;
    uint32_t first_var = p->m->nvars;
    if (!entry && is_punct(&p->tok, '(')) {
        if ((st = parse_params(p, ISA_VAR_FRET, &rets, &nrets)) != PTX_OK)
            return st;
    }
    if (p->tok.kind != TK_IDENT) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a function name, found '%s'",
                        tok_str(&p->tok, b, sizeof b));
    }
    fe_token name = p->tok;
    next(p);
    if (is_punct(&p->tok, '(')) {
        if ((st = parse_params(p, entry ? ISA_VAR_KPARAM : ISA_VAR_FPARAM, &params, &nparams)) != PTX_OK)
            return st;
    }
    /* A definition after a declaration reuses the declared function. */
    uint32_t existing;
    isa_func *f;
    if (fe_strmap_get(&p->funcs, name.text, name.len, &existing)) {
        fidx = existing;
        f = &p->m->funcs[fidx];
        if (f->ncode && !is_punct(&p->tok, ';') && is_punct(&p->tok, '{'))
            return error_at(p, PTX_E_SYNTAX, &name, "function '%s' is defined twice", f->name);
        if (f->ncode) {
            /* A declaration after the definition: the body's parameters
             * stay the function's (the declaration's own go unused). */
            for (uint32_t v = first_var; v < p->m->nvars; v++)
                p->m->vars[v].func = (int32_t)fidx;
            if ((st = parse_perf(p, f)) != PTX_OK)
                return st;
            return expect(p, ';', "after a function declaration");
        }
    } else {
        f = isa_add_func(p->m, &fidx);
        if (!f)
            return nomem(p);
        f->name = intern(p, &name);
        if (!fe_strmap_put(&p->funcs, f->name, name.len, fidx))
            return nomem(p);
    }
    f->is_entry = entry;
    f->sm = (uint16_t)p->m->sm;
    f->linkage = linkage;
    f->line = name.line;
    f->params = params;
    f->nparams = nparams;
    f->rets = rets;
    f->nrets = nrets;
    for (uint32_t v = first_var; v < p->m->nvars; v++)
        p->m->vars[v].func = (int32_t)fidx;
    if ((st = parse_perf(p, f)) != PTX_OK)
        return st;
    if (is_punct(&p->tok, ';')) {               /* declaration only */
        next(p);
        if (!f->ncode)
            f->is_extern = true;
        return PTX_OK;
    }
    if (!is_punct(&p->tok, '{')) {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected '{' or ';' after function '%s', found '%s'",
                        f->name, tok_str(&p->tok, b, sizeof b));
    }
    f->is_extern = false;
    f->ncode = 0;
    p->fn = (int32_t)fidx;
    /* Parameters are in scope in the body. */
    for (uint32_t i = 0; i < nparams; i++)
        if (!push_scope(p, params[i]))
            return nomem(p);
    for (uint32_t i = 0; i < nrets; i++)
        if (!push_scope(p, rets[i]))
            return nomem(p);
    st = parse_body(p);
    f = &p->m->funcs[fidx];
    /* The register declarations move into the module's arena. */
    f->nregdecls = p->nrd;
    f->regs = p->nrd ? isa_alloc(p->m, p->nrd * sizeof *f->regs) : NULL;
    if (p->nrd && !f->regs)
        return nomem(p);
    if (p->nrd)
        memcpy(f->regs, p->rd, p->nrd * sizeof *f->regs);
    if (!isa_mark_wide_dsts(f, p->m->lists))
        return nomem(p);
    p->fn = -1;
    /* Every function ends in an implicit exit, so falling off the end of a
     * body (which PTX allows for entries) is well defined. */
    if (st == PTX_OK && (f->ncode == 0 || (f->code[f->ncode - 1].op != ISA_OP_RET &&
                                           f->code[f->ncode - 1].op != ISA_OP_EXIT &&
                                           f->code[f->ncode - 1].op != ISA_OP_BRA))) {
        isa_inst *in = isa_add_inst(p->m, f);
        if (!in)
            return nomem(p);
        in->op = ISA_OP_RET;
        in->line = p->tok.line;
    }
    return st;
}

/* ---- module ------------------------------------------------------------- */

static ptx_status parse_version(parser *p)
{
    next(p);
    fe_token t = p->tok;
    unsigned major = 0, minor = 0;
    if (t.kind == TK_FLOAT || t.kind == TK_INT) {
        const char *s = t.text, *e = t.text + t.len;
        while (s < e && *s >= '0' && *s <= '9')
            major = major * 10 + (unsigned)(*s++ - '0');
        if (s < e && *s == '.')
            s++;
        while (s < e && *s >= '0' && *s <= '9')
            minor = minor * 10 + (unsigned)(*s++ - '0');
        next(p);
    } else {
        char b[48];
        return error_at(p, PTX_E_SYNTAX, &t, "expected a version number, found '%s'", tok_str(&t, b, sizeof b));
    }
    p->m->version = major * 10 + minor;
    if (minor > 9 || p->m->version < FE_PTX_OLDEST || p->m->version > FE_PTX_NEWEST)
        return error_at(p, PTX_E_PTX_VERSION, &t, "unsupported PTX ISA version %u.%u (ptxsim reads %u.%u to %u.%u, "
                        "as a CUDA %u.%u driver does)", major, minor, FE_PTX_OLDEST / 10, FE_PTX_OLDEST % 10,
                        FE_PTX_NEWEST / 10, FE_PTX_NEWEST % 10, FE_PTX_DRIVER_VERSION / 1000,
                        FE_PTX_DRIVER_VERSION % 1000 / 10);
    return PTX_OK;
}

static ptx_status parse_target(parser *p)
{
    next(p);
    for (;;) {
        if (p->tok.kind != TK_IDENT) {
            char b[48];
            return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a target name, found '%s'",
                            tok_str(&p->tok, b, sizeof b));
        }
        if (p->tok.len > 3 && memcmp(p->tok.text, "sm_", 3) == 0) {
            unsigned sm = 0;
            for (uint32_t i = 3; i < p->tok.len && p->tok.text[i] >= '0' && p->tok.text[i] <= '9'; i++)
                sm = sm * 10 + (unsigned)(p->tok.text[i] - '0');
            p->m->sm = sm;
            /* sm_90a, sm_100f: the architecture-specific variants. */
            char last = p->tok.text[p->tok.len - 1];
            p->m->sm_suffix = last == 'a' || last == 'f' ? last : 0;
        }
        next(p);
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    return PTX_OK;
}

/* .file INT STRING [',' INT ',' INT] */
static ptx_status parse_file(parser *p)
{
    next(p);
    int64_t idx;
    ptx_status st = parse_int(p, &idx, "a file number");
    if (st != PTX_OK)
        return st;
    if (p->tok.kind != TK_STRING)
        return error_at(p, PTX_E_SYNTAX, &p->tok, "expected a file name string");
    if (idx <= 0 || idx > 65535)
        return error_at(p, PTX_E_SYNTAX, &p->tok, "file number %lld out of range", (long long)idx);
    if ((uint64_t)idx >= p->m->nfiles) {
        const char **files = isa_alloc(p->m, ((size_t)idx + 1) * sizeof *files);
        if (!files)
            return nomem(p);
        for (uint32_t i = 0; i < p->m->nfiles; i++)
            files[i] = p->m->files[i];
        for (uint32_t i = p->m->nfiles; i <= idx; i++)
            files[i] = "";
        p->m->files = files;
        p->m->nfiles = (uint32_t)idx + 1;
    }
    p->m->files[idx] = isa_strdup(p->m, p->tok.text + 1, p->tok.len >= 2 ? p->tok.len - 2 : 0);
    next(p);
    while (is_punct(&p->tok, ',')) {
        next(p);
        next(p);
    }
    return PTX_OK;
}

/* .section NAME { ... } -- debug sections: skipped, never rejected. */
static ptx_status skip_section(parser *p)
{
    next(p);
    while (p->tok.kind != TK_EOF && !is_punct(&p->tok, '{'))
        next(p);
    int depth = 0;
    while (p->tok.kind != TK_EOF) {
        if (is_punct(&p->tok, '{'))
            depth++;
        else if (is_punct(&p->tok, '}') && --depth == 0) {
            next(p);
            return PTX_OK;
        }
        next(p);
    }
    return error_at(p, PTX_E_SYNTAX, &p->tok, "end of file inside a .section");
}

static void parse_module(parser *p)
{
    next(p);
    while (p->tok.kind != TK_EOF && p->errors < MAX_ERRORS) {
        ptx_status st = PTX_OK;
        fe_token t = p->tok;
        stmt_mark start = mark(p);
        uint8_t linkage = ISA_LINK_NONE;
        while (t.kind == TK_DOT && (is_word(&t, ".visible") || is_word(&t, ".extern") ||
                                    is_word(&t, ".weak") || is_word(&t, ".common"))) {
            linkage = is_word(&t, ".visible") ? ISA_LINK_VISIBLE : is_word(&t, ".extern") ? ISA_LINK_EXTERN
                    : is_word(&t, ".weak") ? ISA_LINK_WEAK : ISA_LINK_COMMON;
            next(p);
            t = p->tok;
        }
        if (t.kind != TK_DOT) {
            char b[48];
            st = error_at(p, PTX_E_SYNTAX, &t, "expected a directive at module scope, found '%s'",
                          tok_str(&t, b, sizeof b));
        } else if (is_word(&t, ".version")) {
            st = parse_version(p);
        } else if (is_word(&t, ".target")) {
            st = parse_target(p);
        } else if (is_word(&t, ".address_size")) {
            next(p);
            int64_t v;
            st = parse_int(p, &v, "an address size");
            if (st == PTX_OK && v != 64)
                st = error_at(p, PTX_E_UNSUPPORTED, &t, "unsupported PTX construct: .address_size %lld "
                              "(ptxsim runs 64-bit PTX)", (long long)v);
            p->m->address_size = (uint32_t)v;
        } else if (is_word(&t, ".file")) {
            st = parse_file(p);
        } else if (is_word(&t, ".section")) {
            st = skip_section(p);
        } else if (is_word(&t, ".entry") || is_word(&t, ".func")) {
            st = parse_function(p, linkage);
            if (st == PTX_E_NOMEM)
                return;
            if (st != PTX_OK && p->fn >= 0)
                p->fn = -1;
            if (st != PTX_OK)
                recover(p, &start);
            continue;
        } else if (is_word(&t, ".pragma")) {
            recover(p, &start);
            continue;
        } else if (dot_space(&t) > 0 && !is_word(&t, ".reg") && !is_word(&t, ".param")) {
            st = parse_var(p, linkage, ISA_VAR_PLAIN, NULL);
        } else {
            char b[48];
            st = error_at(p, PTX_E_UNSUPPORTED, &t, "unsupported PTX directive '%s'",
                          tok_str(&t, b, sizeof b));
        }
        if (st != PTX_OK) {
            if (st == PTX_E_NOMEM)
                return;
            recover(p, &start);
        }
    }
}

static isa_module *parse_text(const char *text, size_t len, const char *name, bool as_written, ptx_diag *diag)
{
    ptx_diag local = {0};
    if (!diag)
        diag = &local;
    isa_module *m = isa_module_new();
    if (!m) {
        ptx_error(diag, PTX_E_NOMEM, name, 0, 0, "out of memory");
        return NULL;
    }
    char *copy = isa_alloc(m, len + 1);
    if (!copy) {
        isa_module_free(m);
        ptx_error(diag, PTX_E_NOMEM, name, 0, 0, "out of memory");
        return NULL;
    }
    memcpy(copy, text, len);
    m->text = copy;
    m->text_len = len;
    m->as_written = as_written;
    m->source_name = isa_strdup(m, name ? name : "<ptx>", strlen(name ? name : "<ptx>"));
    m->nfiles = 1;
    m->files = isa_alloc(m, sizeof *m->files);
    if (m->files)
        m->files[0] = "";
    parser p = { .m = m, .diag = diag, .name = m->source_name, .fn = -1 };
    fe_lex_init(&p.lx, copy, len);
    parse_module(&p);
    uint32_t errors = p.errors;
    for (uint32_t i = 0; i < m->nfuncs && errors == 0; i++) {
        isa_func *f = &m->funcs[i];
        if (f->ncode && fe_analyse(m, f, diag) != PTX_OK)
            errors++;
        /* A .loc naming a file the table never declares has no file. */
        for (uint32_t k = 0; f->src && k < f->ncode; k++) {
            if (f->src[k].file >= m->nfiles)
                f->src[k].file = 0;
            if (f->src[k].at_file >= m->nfiles)
                f->src[k].at_file = 0, f->src[k].at_line = 0;
        }
    }
    fe_strmap_free(&p.regs);
    fe_strmap_free(&p.labels);
    fe_strmap_free(&p.brx_tables);
    fe_strmap_free(&p.module_vars);
    fe_strmap_free(&p.funcs);
    free(p.fixups);
    free(p.scope);
    free(p.rd);
    free(p.rd_shadow);
    if (errors) {
        isa_module_free(m);
        return NULL;
    }
    return m;
}

bool fe_is_ptx_text(const char *buf, size_t n, size_t *text_len)
{
    while (n && buf[n - 1] == '\0')
        n--;
    *text_len = n;
    return !memchr(buf, '\0', n);
}

isa_module *fe_parse(const char *text, size_t len, const char *name, ptx_diag *diag)
{
    return parse_text(text, len, name, false, diag);
}

isa_module *fe_parse_as_written(const char *text, size_t len, const char *name, ptx_diag *diag)
{
    return parse_text(text, len, name, true, diag);
}

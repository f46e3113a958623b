/*
 * expr.c -- the debugger's expressions: breakpoint conditions, `print`,
 * `display`, and the addresses of `x` and `watch`.
 *
 *   expr    := or
 *   or      := and ('||' and)*           and := bor ('&&' bor)*
 *   bor     := bxor ('|' bxor)*          bxor := band ('^' band)*
 *   band    := eq ('&' eq)*              eq := rel (('=='|'!=') rel)*
 *   rel     := shift (('<'|'<='|'>'|'>=') shift)*
 *   shift   := add (('<<'|'>>') add)*    add := mul (('+'|'-') mul)*
 *   mul     := unary (('*'|'/'|'%') unary)*
 *   unary   := ('-'|'!'|'~') unary | '*' '(' ctype '*' ')' unary | '*' unary
 *            | '(' ctype ['*'] ')' unary | postfix
 *   postfix := primary ('.' ('x'|'y'|'z') | '[' expr ']')*
 *   primary := number | '(' expr ')' | %reg | %sreg | name | $var | $pc
 *            | ('global'|'shared'|'local'|'param'|'const') ':' unary
 *
 * A '%' where an operand is expected starts a register name; elsewhere it
 * is the remainder.  A name is a CUDA variable (from nvcc -G's DWARF), else
 * a register declared without '%'.  `*p`, `p[i]` and `p + i` follow C for
 * pointers whose type is known (CUDA variables); other addresses are bytes.  An expression is parsed once into nodes and evaluated
 * per lane (a condition runs for every lane a breakpoint sees), and names
 * are looked up at evaluation, in the function the frame executes.
 */
#include "dbg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { N_NUM, N_REG, N_SREG, N_DIM, N_VAR, N_PC, N_UN, N_BIN, N_DEREF, N_CAST, N_SPACE, N_MEMBER,
       N_INDEX };
enum { OP_NEG, OP_NOT, OP_BNOT, OP_OR, OP_AND, OP_BOR, OP_BXOR, OP_BAND, OP_EQ, OP_NE, OP_LT,
       OP_LE, OP_GT, OP_GE, OP_SHL, OP_SHR, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM };
/* Vector special registers and CUDA's built-in variables. */
enum { DIM_TID, DIM_CTAID, DIM_NTID, DIM_NCTAID };

typedef struct node {
    uint8_t kind, op, sreg_or_dim, space;
    int a, b;                   /* children */
    dbg_value v;                /* N_NUM */
    dbg_ctype ct;               /* N_DEREF, N_CAST */
    bool to_pointer;            /* N_CAST to a pointer type */
    char name[64];              /* N_REG, N_VAR */
} node;

struct dbg_expr {
    node *n;
    int nn, cap;
    int root;
};

typedef struct parser {
    dbg_session *s;
    const char *p;
    dbg_expr *e;
    char *err;
    size_t errn;
    bool failed;
} parser;

static int fail(parser *ps, const char *fmt, const char *arg)
{
    if (!ps->failed)
        snprintf(ps->err, ps->errn, fmt, arg);
    ps->failed = true;
    return -1;
}

static int add(parser *ps, node nd)
{
    dbg_expr *e = ps->e;
    if (e->nn == e->cap) {
        int nc = e->cap ? e->cap * 2 : 16;
        node *n = realloc(e->n, (size_t)nc * sizeof *n);
        if (!n)
            return fail(ps, "%s", "out of memory");
        e->n = n;
        e->cap = nc;
    }
    e->n[e->nn] = nd;
    return e->nn++;
}

static void blank(parser *ps) { ps->p = dbg_skip(ps->p); }

static bool eat(parser *ps, const char *tok)
{
    blank(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0)
        return false;
    ps->p += n;
    return true;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* ---- parsing ------------------------------------------------------------------ */

/* Vector special registers and CUDA's built-in variables, by DIM_*. */
static const char *const dims[] = { "%tid", "%ctaid", "%ntid", "%nctaid" };
static const char *const builtins[] = { "threadIdx", "blockIdx", "blockDim", "gridDim" };
/* State space prefixes of addresses: shared:0x10. */
static const struct { const char *name; uint8_t space; } spaces[] = {
    { "global", ISA_SPACE_GLOBAL }, { "shared", ISA_SPACE_SHARED },
    { "local", ISA_SPACE_LOCAL }, { "param", ISA_SPACE_PARAM }, { "const", ISA_SPACE_CONST },
};

static int parse_expr(parser *ps);
static int parse_unary(parser *ps);

static int number(parser *ps)
{
    const char *p = ps->p;
    char *end;
    node nd = { .kind = N_NUM };
    nd.v.space = ISA_SPACE_GENERIC;
    bool is_float = false;
    if (!(p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))) {
        size_t k = 0;
        while (isdigit((unsigned char)p[k]))
            k++;
        is_float = p[k] == '.' || p[k] == 'e' || p[k] == 'E';
    }
    if (is_float) {
        nd.v.kind = DBG_V_FLT;
        nd.v.bytes = 8;
        nd.v.type = ISA_TYPE_F64;
        nd.v.f = strtod(p, &end);
        if (*end == 'f' || *end == 'F') {
            nd.v.type = ISA_TYPE_F32;
            nd.v.bytes = 4;
            nd.v.f = (float)nd.v.f;
            end++;
        }
    } else {
        unsigned long long u = strtoull(p, &end, 0);
        nd.v.kind = u <= INT32_MAX ? DBG_V_INT : DBG_V_UINT;
        nd.v.bytes = u <= UINT32_MAX ? 4 : 8;
        nd.v.u = u;
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
    }
    if (ident_char(*end))
        return fail(ps, "Invalid number \"%s\".", p);
    ps->p = end;
    return add(ps, nd);
}

static int primary(parser *ps)
{
    blank(ps);
    const char *p = ps->p;
    if (isdigit((unsigned char)*p))
        return number(ps);
    if (*p == '(') {
        ps->p++;
        int e = parse_expr(ps);
        if (!eat(ps, ")"))
            return fail(ps, "%s", "A ')' is missing.");
        return e;
    }
    if (*p == '$') {
        size_t n = 1;
        while (ident_char(p[n]))
            n++;
        if (n == 1)
            return fail(ps, "%s", "A name must follow '$'.");
        ps->p = p + n;
        node nd = { .kind = N_VAR };
        snprintf(nd.name, sizeof nd.name, "%.*s", (int)(n - 1), p + 1);
        if (strcmp(nd.name, "pc") == 0)
            nd.kind = N_PC;
        return add(ps, nd);
    }
    if (*p == '%' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
        size_t n = 1;
        while (ident_char(p[n]) || p[n] == '.' || p[n] == '$')
            n++;
        ps->p = p + n;
        node nd = { .kind = N_REG };
        snprintf(nd.name, sizeof nd.name, "%.*s", (int)n, p);
        for (int d = 0; d < 4; d++)
            if (strcmp(nd.name, dims[d]) == 0) {
                nd.kind = N_DIM;
                nd.sreg_or_dim = (uint8_t)d;
            }
        int sr = isa_lookup_sreg(p + 1, n - 1);
        if (sr >= 0) {
            nd.kind = N_SREG;
            nd.sreg_or_dim = (uint8_t)sr;
        }
        return add(ps, nd);
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        size_t n = 0;
        while (ident_char(p[n]))
            n++;
        const char *after = dbg_skip(p + n);
        for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
            if (strlen(spaces[k].name) == n && memcmp(p, spaces[k].name, n) == 0 && *after == ':') {
                ps->p = after + 1;
                node nd = { .kind = N_SPACE, .space = spaces[k].space };
                nd.a = parse_unary(ps);
                return nd.a < 0 ? -1 : add(ps, nd);
            }
        ps->p = p + n;
        for (int d = 0; d < 4; d++)
            if (strlen(builtins[d]) == n && memcmp(p, builtins[d], n) == 0)
                return add(ps, (node){ .kind = N_DIM, .sreg_or_dim = (uint8_t)d });
        if (n == 8 && memcmp(p, "warpSize", 8) == 0) {
            node nd = { .kind = N_NUM };
            nd.v = (dbg_value){ .kind = DBG_V_INT, .bytes = 4, .space = ISA_SPACE_GENERIC, .i = 32 };
            return add(ps, nd);
        }
        node nd = { .kind = N_REG };      /* a register named without '%' */
        snprintf(nd.name, sizeof nd.name, "%.*s", (int)n, p);
        return add(ps, nd);
    }
    if (!*p)
        return fail(ps, "%s", "An operand is missing at the end of the expression.");
    return fail(ps, "A syntax error in expression, near `%s'.", p);
}

static int postfix(parser *ps)
{
    int e = primary(ps);
    while (e >= 0) {
        blank(ps);
        if (ps->p[0] == '[') {
            ps->p++;
            int idx = parse_expr(ps);
            if (idx < 0)
                return -1;
            if (!eat(ps, "]"))
                return fail(ps, "%s", "A ']' is missing.");
            e = add(ps, (node){ .kind = N_INDEX, .a = e, .b = idx });
            continue;
        }
        if (ps->p[0] != '.' || !strchr("xyz", ps->p[1]) || !ps->p[1] || ident_char(ps->p[2]))
            break;
        node nd = { .kind = N_MEMBER, .a = e, .sreg_or_dim = (uint8_t)(ps->p[1] - 'x') };
        ps->p += 2;
        e = add(ps, nd);
    }
    return e;
}

static int parse_unary(parser *ps)
{
    blank(ps);
    const char *p = ps->p;
    int op = *p == '-' ? OP_NEG : *p == '!' && p[1] != '=' ? OP_NOT : *p == '~' ? OP_BNOT : -1;
    if (op >= 0) {
        ps->p++;
        int a = parse_unary(ps);
        return a < 0 ? -1 : add(ps, (node){ .kind = N_UN, .op = (uint8_t)op, .a = a });
    }
    if (*p == '*') {
        ps->p++;
        const char *save = ps->p;
        dbg_ctype ct;
        if (eat(ps, "(") && dbg_parse_ctype(&ps->p, &ct) && eat(ps, "*") && eat(ps, ")")) {
            int a = parse_unary(ps);
            return a < 0 ? -1 : add(ps, (node){ .kind = N_DEREF, .a = a, .ct = ct });
        }
        /* *p: typed by the pointer itself (known for CUDA variables). */
        ps->p = save;
        int a = parse_unary(ps);
        return a < 0 ? -1 : add(ps, (node){ .kind = N_DEREF, .a = a });
    }
    if (*p == '(') {
        const char *save = ps->p;
        ps->p++;
        dbg_ctype ct;
        if (dbg_parse_ctype(&ps->p, &ct)) {
            bool ptr = eat(ps, "*");
            if (eat(ps, ")")) {
                int a = parse_unary(ps);
                return a < 0 ? -1 : add(ps, (node){ .kind = N_CAST, .a = a, .ct = ct, .to_pointer = ptr });
            }
        }
        ps->p = save;
    }
    return postfix(ps);
}

/* Binary operators by precedence level, loosest first. */
static const struct { const char *tok; uint8_t op; uint8_t level; } binops[] = {
    { "||", OP_OR, 0 }, { "&&", OP_AND, 1 }, { "|", OP_BOR, 2 }, { "^", OP_BXOR, 3 },
    { "&", OP_BAND, 4 }, { "==", OP_EQ, 5 }, { "!=", OP_NE, 5 }, { "<=", OP_LE, 6 },
    { ">=", OP_GE, 6 }, { "<<", OP_SHL, 7 }, { ">>", OP_SHR, 7 }, { "<", OP_LT, 6 },
    { ">", OP_GT, 6 }, { "+", OP_ADD, 8 }, { "-", OP_SUB, 8 }, { "*", OP_MUL, 9 },
    { "/", OP_DIV, 9 }, { "%", OP_REM, 9 },
};
#define LEVELS 10

static int binary(parser *ps, int level)
{
    if (level == LEVELS)
        return parse_unary(ps);
    int a = binary(ps, level + 1);
    while (a >= 0) {
        blank(ps);
        int found = -1;
        for (size_t k = 0; k < sizeof binops / sizeof binops[0]; k++) {
            size_t n = strlen(binops[k].tok);
            if (binops[k].level != level || strncmp(ps->p, binops[k].tok, n) != 0)
                continue;
            /* '|' and '&' are not the first half of '||' and '&&'. */
            if (n == 1 && (ps->p[1] == '|' || ps->p[1] == '&') && ps->p[1] == ps->p[0])
                continue;
            if (n == 1 && (ps->p[0] == '<' || ps->p[0] == '>') && ps->p[1] == ps->p[0])
                continue;
            found = (int)k;
            break;
        }
        if (found < 0)
            break;
        ps->p += strlen(binops[found].tok);
        int b = binary(ps, level + 1);
        if (b < 0)
            return -1;
        a = add(ps, (node){ .kind = N_BIN, .op = binops[found].op, .a = a, .b = b });
    }
    return a;
}

static int parse_expr(parser *ps) { return binary(ps, 0); }

dbg_expr *dbg_expr_parse(dbg_session *s, const char *text, char *err, size_t n)
{
    dbg_expr *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    parser ps = { s, text, e, err, n, false };
    e->root = parse_expr(&ps);
    blank(&ps);
    if (!ps.failed && *ps.p)
        fail(&ps, "A syntax error in expression, near `%s'.", ps.p);
    if (ps.failed || e->root < 0) {
        dbg_expr_free(e);
        return NULL;
    }
    return e;
}

void dbg_expr_free(dbg_expr *e)
{
    if (!e)
        return;
    free(e->n);
    free(e);
}

/* ---- evaluation --------------------------------------------------------------------- */

typedef struct evaluator {
    dbg_session *s;
    const dbg_expr *e;
    const dbg_ctx *c;
    char *err;
    size_t errn;
} evaluator;

static bool efail(evaluator *ev, const char *fmt, const char *arg)
{
    snprintf(ev->err, ev->errn, fmt, arg);
    return false;
}

static bool need_warp(evaluator *ev)
{
    return ev->c->w ? true : efail(ev, "%s", "No kernel is running (or no thread has the focus).");
}

bool dbg_find_reg(const isa_func *f, const char *name, uint32_t *reg, uint8_t *type)
{
    for (uint32_t i = 0; i < f->nregdecls; i++) {
        const isa_regdecl *d = &f->regs[i];
        size_t dl = strlen(d->name);
        if (!d->count) {
            if (strcmp(d->name, name) == 0) {
                *reg = d->base;
                *type = d->type;
                return true;
            }
            continue;
        }
        if (strncmp(name, d->name, dl) != 0 || !isdigit((unsigned char)name[dl]))
            continue;
        char *end;
        unsigned long idx = strtoul(name + dl, &end, 10);
        if (*end || idx >= d->count || (name[dl] == '0' && name[dl + 1]))
            continue;
        *reg = d->base + (uint32_t)idx * (d->type == ISA_TYPE_PRED ? 1u : isa_reg_slots(d->type));
        *type = d->type;
        return true;
    }
    return false;
}

static bool eval_reg(evaluator *ev, const node *nd, dbg_value *out)
{
    if (!need_warp(ev))
        return false;
    exec_frame_view fv;
    if (!exec_warp_frame(ev->c->w, ev->c->level, &fv))
        return efail(ev, "%s", "No such frame.");
    const isa_func *f = &ev->s->prog.m->funcs[fv.func];
    if (nd->name[0] != '%') {
        /* A CUDA variable first (nvcc -G), then a register named without '%'. */
        int got = dbg_dwarf_var(ev->s, ev->c, nd->name, out, ev->err, ev->errn);
        if (got)
            return got > 0;
    }
    uint32_t reg;
    uint8_t type;
    bool found = dbg_find_reg(f, nd->name, &reg, &type);
    if (!found && nd->name[0] != '%') {
        char with[70];
        snprintf(with, sizeof with, "%%%s", nd->name);
        found = dbg_find_reg(f, with, &reg, &type);
    }
    if (!found) {
        char msg[160];
        char fn[128];
        snprintf(msg, sizeof msg, "No register or symbol \"%s\" in %s.", nd->name,
                 dbg_short_name(ev->s, f->name, fn, sizeof fn));
        return efail(ev, "%s", msg);
    }
    *out = dbg_reg_value(ev->c->w, ev->c->level, reg, type, ev->c->lane);
    return true;
}

static void launch_dims(evaluator *ev, int which, uint32_t d[3])
{
    const dbg_run *r = &ev->s->run;
    exec_warp *w = ev->c->w;
    switch (which) {
    case DIM_TID: exec_warp_tid(w, ev->c->lane, d); break;
    case DIM_CTAID: exec_cta_id(exec_warp_cta(w), d); break;
    case DIM_NTID: memcpy(d, r->l.block, 3 * sizeof *d); break;
    default: memcpy(d, r->l.grid, 3 * sizeof *d); break;
    }
}

static bool eval_sreg(evaluator *ev, int sr, dbg_value *out)
{
    if (!need_warp(ev))
        return false;
    exec_warp *w = ev->c->w;
    const dbg_run *r = &ev->s->run;
    uint32_t d[3], lane = ev->c->lane;
    uint64_t x;
    switch (sr) {
    case ISA_SREG_TID_X: case ISA_SREG_TID_Y: case ISA_SREG_TID_Z:
        launch_dims(ev, DIM_TID, d); x = d[sr - ISA_SREG_TID_X]; break;
    case ISA_SREG_NTID_X: case ISA_SREG_NTID_Y: case ISA_SREG_NTID_Z:
        x = r->l.block[sr - ISA_SREG_NTID_X]; break;
    case ISA_SREG_CTAID_X: case ISA_SREG_CTAID_Y: case ISA_SREG_CTAID_Z:
        launch_dims(ev, DIM_CTAID, d); x = d[sr - ISA_SREG_CTAID_X]; break;
    case ISA_SREG_NCTAID_X: case ISA_SREG_NCTAID_Y: case ISA_SREG_NCTAID_Z:
        x = r->l.grid[sr - ISA_SREG_NCTAID_X]; break;
    case ISA_SREG_LANEID: x = lane; break;
    case ISA_SREG_WARPID: x = exec_warp_index(w); break;
    case ISA_SREG_NWARPID: x = exec_cta_nwarps(exec_warp_cta(w)); break;
    case ISA_SREG_NSMID: x = r->l.nsm ? r->l.nsm : 1; break;
    case ISA_SREG_SMID: {
        launch_dims(ev, DIM_CTAID, d);
        x = dbg_cta_linear(ev->s, d) % (r->l.nsm ? r->l.nsm : 1);
        break;
    }
    case ISA_SREG_WARPSZ: x = ISA_WARP_SIZE; break;
    case ISA_SREG_LANEMASK_EQ: x = 1u << lane; break;
    case ISA_SREG_LANEMASK_LE: x = (uint32_t)((2ull << lane) - 1); break;
    case ISA_SREG_LANEMASK_LT: x = (1u << lane) - 1; break;
    case ISA_SREG_LANEMASK_GE: x = (uint32_t)~((1u << lane) - 1); break;
    case ISA_SREG_LANEMASK_GT: x = (uint32_t)~((2ull << lane) - 1); break;
    case ISA_SREG_DYNAMIC_SMEM_SIZE: x = r->l.dynamic_shared; break;
    default:
        return efail(ev, "%%%s is not available in the debugger.", isa_sreg_names[sr]);
    }
    *out = dbg_value_from_bits(x, ISA_TYPE_U32);
    return true;
}

static bool eval_node(evaluator *ev, int i, dbg_value *out);

static bool arith(evaluator *ev, uint8_t op, const dbg_value *a, const dbg_value *b, dbg_value *out)
{
    if (a->kind == DBG_V_DIM3 || b->kind == DBG_V_DIM3)
        return efail(ev, "%s", "Use a component (.x, .y or .z) of a dim3 value.");
    /* A typed pointer plus or minus an integer moves by whole elements. */
    if ((op == OP_ADD || op == OP_SUB) && a->pointee && !b->pointee && b->kind != DBG_V_FLT) {
        uint64_t size = isa_types[a->pointee].bytes ? isa_types[a->pointee].bytes : 1;
        *out = *a;
        out->u = op == OP_ADD ? a->u + b->u * size : a->u - b->u * size;
        return true;
    }
    dbg_value r = { .space = a->space != ISA_SPACE_GENERIC ? a->space : b->space };
    r.bytes = a->bytes > b->bytes ? a->bytes : b->bytes;
    bool flt = a->kind == DBG_V_FLT || b->kind == DBG_V_FLT;
    bool uns = !flt && (a->kind == DBG_V_UINT || b->kind == DBG_V_UINT);
    double fa = a->kind == DBG_V_FLT ? a->f : a->kind == DBG_V_INT ? (double)a->i : (double)a->u;
    double fb = b->kind == DBG_V_FLT ? b->f : b->kind == DBG_V_INT ? (double)b->i : (double)b->u;
    int cmp = 0;
    bool is_cmp = op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
    if (op == OP_OR || op == OP_AND) {
        bool ta = dbg_value_truth(a), tb = dbg_value_truth(b);
        bool t = op == OP_OR ? ta || tb : ta && tb;
        *out = (dbg_value){ .kind = DBG_V_INT, .bytes = 4, .space = ISA_SPACE_GENERIC, .i = t };
        return true;
    }
    if (is_cmp) {
        if (flt)
            cmp = fa < fb ? -1 : fa > fb ? 1 : 0;
        else if (uns)
            cmp = a->u < b->u ? -1 : a->u > b->u ? 1 : 0;
        else
            cmp = a->i < b->i ? -1 : a->i > b->i ? 1 : 0;
        bool t = op == OP_EQ ? cmp == 0 : op == OP_NE ? cmp != 0 : op == OP_LT ? cmp < 0
               : op == OP_LE ? cmp <= 0 : op == OP_GT ? cmp > 0 : cmp >= 0;
        *out = (dbg_value){ .kind = DBG_V_INT, .bytes = 4, .space = ISA_SPACE_GENERIC, .i = t };
        return true;
    }
    if (flt) {
        if (op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV)
            return efail(ev, "%s", "Integer operator on a floating-point value.");
        r.kind = DBG_V_FLT;
        r.f = op == OP_ADD ? fa + fb : op == OP_SUB ? fa - fb : op == OP_MUL ? fa * fb : fa / fb;
        /* As C: float with float (or an integer) stays float. */
        bool single = (a->kind != DBG_V_FLT || a->bytes <= 4) && (b->kind != DBG_V_FLT || b->bytes <= 4);
        r.bytes = single ? 4 : 8;
        r.type = single ? ISA_TYPE_F32 : ISA_TYPE_F64;
        if (single)
            r.f = (float)r.f;
        *out = r;
        return true;
    }
    r.kind = uns ? DBG_V_UINT : DBG_V_INT;
    uint64_t x = a->u, y = b->u;
    if ((op == OP_DIV || op == OP_REM) && y == 0)
        return efail(ev, "%s", "Division by zero");
    switch (op) {
    case OP_ADD: r.u = x + y; break;
    case OP_SUB: r.u = x - y; break;
    case OP_MUL: r.u = x * y; break;
    case OP_DIV: r.u = uns ? x / y : (a->i == INT64_MIN && b->i == -1) ? x : (uint64_t)(a->i / b->i); break;
    case OP_REM: r.u = uns ? x % y : (b->i == -1) ? 0 : (uint64_t)(a->i % b->i); break;
    case OP_BAND: r.u = x & y; break;
    case OP_BOR: r.u = x | y; break;
    case OP_BXOR: r.u = x ^ y; break;
    case OP_SHL: r.u = y >= 64 ? 0 : x << y; break;
    case OP_SHR: r.u = y >= 64 ? 0 : uns ? x >> y : (uint64_t)(a->i >> y); break;
    default: return efail(ev, "%s", "unknown operator");
    }
    if (r.bytes < 8) {          /* keep C's int arithmetic for small values */
        uint64_t m = (1ull << (r.bytes * 8)) - 1;
        if (uns || ((int64_t)r.u >= INT32_MIN && (int64_t)r.u <= INT32_MAX))
            r.u = uns ? r.u & m : r.u;
        else
            r.bytes = 8;
    }
    *out = r;
    return true;
}

static bool eval_node(evaluator *ev, int i, dbg_value *out)
{
    const node *nd = &ev->e->n[i];
    dbg_value a, b;
    switch (nd->kind) {
    case N_NUM:
        *out = nd->v;
        return true;
    case N_REG:
        return eval_reg(ev, nd, out);
    case N_SREG:
        return eval_sreg(ev, nd->sreg_or_dim, out);
    case N_DIM:
        if (!need_warp(ev))
            return false;
        *out = (dbg_value){ .kind = DBG_V_DIM3, .bytes = 12, .space = ISA_SPACE_GENERIC };
        launch_dims(ev, nd->sreg_or_dim, out->dim);
        return true;
    case N_MEMBER:
        if (!eval_node(ev, nd->a, &a))
            return false;
        if (a.kind != DBG_V_DIM3)
            return efail(ev, "%s", "Only dim3 values have .x, .y and .z.");
        *out = dbg_value_from_bits(a.dim[nd->sreg_or_dim], ISA_TYPE_U32);
        return true;
    case N_VAR:
        if (!dbg_var_get(ev->s, nd->name, strlen(nd->name), out))
            return efail(ev, "Convenience variable \"$%s\" is not set.", nd->name);
        return true;
    case N_PC:
        if (!need_warp(ev))
            return false;
        *out = dbg_value_from_bits(exec_warp_pc(ev->c->w), ISA_TYPE_U32);
        return true;
    case N_UN:
        if (!eval_node(ev, nd->a, &a))
            return false;
        if (a.kind == DBG_V_DIM3)
            return efail(ev, "%s", "Use a component (.x, .y or .z) of a dim3 value.");
        *out = a;
        if (nd->op == OP_NOT) {
            *out = (dbg_value){ .kind = DBG_V_INT, .bytes = 4, .space = ISA_SPACE_GENERIC,
                                .i = !dbg_value_truth(&a) };
        } else if (nd->op == OP_NEG) {
            if (a.kind == DBG_V_FLT)
                out->f = -a.f;
            else {
                out->kind = a.kind == DBG_V_UINT && a.bytes == 8 ? DBG_V_UINT : DBG_V_INT;
                out->u = 0 - a.u;
            }
            out->type = ISA_TYPE_NONE;
        } else {
            if (a.kind == DBG_V_FLT)
                return efail(ev, "%s", "'~' needs an integer.");
            out->u = ~a.u;
            out->type = ISA_TYPE_NONE;
        }
        return true;
    case N_BIN:
        /* && and || do not evaluate their right side when the left decides. */
        if (!eval_node(ev, nd->a, &a))
            return false;
        if (nd->op == OP_AND && !dbg_value_truth(&a)) {
            *out = (dbg_value){ .kind = DBG_V_INT, .bytes = 4, .space = ISA_SPACE_GENERIC, .i = 0 };
            return true;
        }
        if (nd->op == OP_OR && dbg_value_truth(&a)) {
            *out = (dbg_value){ .kind = DBG_V_INT, .bytes = 4, .space = ISA_SPACE_GENERIC, .i = 1 };
            return true;
        }
        if (!eval_node(ev, nd->b, &b))
            return false;
        return arith(ev, nd->op, &a, &b, out);
    case N_SPACE:
        if (!eval_node(ev, nd->a, &a))
            return false;
        if (a.kind == DBG_V_FLT || a.kind == DBG_V_DIM3)
            return efail(ev, "%s", "An address must be an integer.");
        *out = a;
        out->space = nd->space;
        out->kind = DBG_V_UINT;
        out->bytes = 8;
        out->type = ISA_TYPE_B64;
        return true;
    case N_CAST:
        if (!eval_node(ev, nd->a, &a))
            return false;
        if (a.kind == DBG_V_DIM3)
            return efail(ev, "%s", "Use a component (.x, .y or .z) of a dim3 value.");
        if (nd->to_pointer) {
            *out = a;
            out->kind = DBG_V_UINT;
            out->bytes = 8;
            out->type = ISA_TYPE_B64;
            return true;
        }
        if (isa_types[nd->ct.type].kind == ISA_KIND_F) {
            double f = a.kind == DBG_V_FLT ? a.f : a.kind == DBG_V_INT ? (double)a.i : (double)a.u;
            *out = (dbg_value){ .kind = DBG_V_FLT, .bytes = nd->ct.bytes, .type = nd->ct.type,
                                .space = ISA_SPACE_GENERIC, .f = nd->ct.bytes == 4 ? (float)f : f };
            return true;
        }
        *out = dbg_value_from_bits(a.kind == DBG_V_FLT ? (uint64_t)(int64_t)a.f : a.u, nd->ct.type);
        return true;
    case N_DEREF:
    case N_INDEX: {
        if (!eval_node(ev, nd->a, &a))
            return false;
        if (a.kind == DBG_V_FLT || a.kind == DBG_V_DIM3)
            return efail(ev, "%s", "An address must be an integer.");
        uint8_t type = nd->ct.bytes ? nd->ct.type : a.pointee;
        if (type == ISA_TYPE_NONE || !isa_types[type].bytes)
            return efail(ev, "%s", "Attempt to take contents of a non-pointer value; give its type: "
                                   "*(int*)ADDRESS.");
        unsigned bytes = isa_types[type].bytes;
        uint64_t addr = a.u;
        if (nd->kind == N_INDEX) {
            if (!eval_node(ev, nd->b, &b))
                return false;
            if (b.kind == DBG_V_FLT || b.kind == DBG_V_DIM3)
                return efail(ev, "%s", "An index must be an integer.");
            addr += b.u * bytes;
        }
        char e[200];
        uint8_t *host = dbg_mem_map(ev->s, ev->c, a.space, addr, bytes, e, sizeof e);
        if (!host)
            return efail(ev, "%s", e);
        uint64_t bits = 0;
        memcpy(&bits, host, bytes);
        *out = dbg_value_from_bits(bits, type);
        return true;
    }
    default:
        return efail(ev, "%s", "bad expression");
    }
}

bool dbg_expr_eval(dbg_session *s, const dbg_expr *e, const dbg_ctx *c, dbg_value *out, char *err,
                   size_t n)
{
    /* A lane in another lane group stands in frames of its own, which the
     * focus (the running group's frames) does not describe. */
    uint32_t pc;
    if (c->w && exec_warp_lane_apart(c->w, c->lane, &pc)) {
        snprintf(err, n, "lane %u runs apart from the running lanes, in calls of its own (independent thread "
                 "scheduling; it waits at pc %u): its values show once it runs", c->lane, pc);
        return false;
    }
    evaluator ev = { s, e, c, err, n };
    return eval_node(&ev, e->root, out);
}

bool dbg_expr_lvalue(dbg_session *s, const char *text, uint8_t *space, uint64_t *addr, dbg_ctype *ct)
{
    char err[200];
    dbg_expr *e = dbg_expr_parse(s, text, err, sizeof err);
    if (!e)
        return false;
    const node *nd = &e->n[e->root];
    bool ok = false;
    if (nd->kind == N_DEREF || nd->kind == N_INDEX) {
        dbg_ctx c;
        dbg_focus_ctx(s, &c);
        evaluator ev = { s, e, &c, err, sizeof err };
        dbg_value a, b;
        uint8_t type = ISA_TYPE_NONE;
        if (eval_node(&ev, nd->a, &a) && a.kind != DBG_V_FLT && a.kind != DBG_V_DIM3)
            type = nd->ct.bytes ? nd->ct.type : a.pointee;
        if (type != ISA_TYPE_NONE && isa_types[type].bytes) {
            *addr = a.u;
            *space = a.space;
            ok = true;
            if (nd->kind == N_INDEX) {
                ok = eval_node(&ev, nd->b, &b) && b.kind != DBG_V_FLT && b.kind != DBG_V_DIM3;
                *addr += b.u * isa_types[type].bytes;
            }
            ct->type = type;
            ct->bytes = isa_types[type].bytes;
            snprintf(ct->name, sizeof ct->name, "%s", isa_types[type].name);
        }
    }
    dbg_expr_free(e);
    return ok;
}

void dbg_focus_ctx(dbg_session *s, dbg_ctx *c)
{
    c->w = s->run.active ? dbg_focus_warp(s, false) : NULL;
    c->lane = s->focus.lane;
    c->level = s->focus.level;
}

bool dbg_eval_text(dbg_session *s, const char *text, dbg_value *out, char *err, size_t n)
{
    dbg_expr *e = dbg_expr_parse(s, text, err, n);
    if (!e)
        return false;
    dbg_ctx c;
    dbg_focus_ctx(s, &c);
    bool ok = dbg_expr_eval(s, e, &c, out, err, n);
    dbg_expr_free(e);
    return ok;
}

/*
 * session.c -- the debugger session: options, output, convenience
 * variables, and what the debugger knows about the program it stops in:
 * the PTX text by line, CUDA source positions, source files, and names.
 */
#include "dbg_int.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

dbg_session *dbg_new(const dbg_options *o)
{
    dbg_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (o)
        s->o = *o;
    s->in = s->o.in ? s->o.in : stdin;
    s->out = s->o.out ? s->o.out : stdout;
    if (s->o.script) {
        s->script = fopen(s->o.script, "r");
        if (!s->script) {
            fprintf(s->out, "%s: cannot open the command file\n", s->o.script);
            free(s);
            return NULL;
        }
    }
    s->next_bp = 1;
    s->next_disp = 1;
    s->in_tty = !s->o.batch && isatty(fileno(s->in));
    s->use_readline = s->in_tty && !s->o.no_readline;
    dbg_input_open(s);
    return s;
}

static void prog_clear(dbg_prog *pr)
{
    dbg_dwarf_free(pr->dw);
    free(pr->line_off);
    free(pr->loc_file);
    free(pr->bp_at);
    memset(pr, 0, sizeof *pr);
}

void dbg_free(dbg_session *s)
{
    if (!s)
        return;
    dbg_input_close(s);
    if (s->script)
        fclose(s->script);
    for (uint32_t i = 0; i < s->nbps; i++) {
        dbg_bp *b = &s->bps[i];
        free(b->what);
        free(b->name);
        free(b->cond_text);
        dbg_expr_free(b->cond);
        free(b->pcs);
    }
    free(s->bps);
    for (uint32_t i = 0; i < s->ndisp; i++) {
        free(s->disp[i].text);
        dbg_expr_free(s->disp[i].e);
    }
    free(s->disp);
    for (uint32_t i = 0; i < s->nvars; i++)
        free(s->vars[i].name);
    free(s->vars);
    prog_clear(&s->prog);
    for (uint32_t i = 0; i < s->nsrc; i++) {
        free(s->src[i].path);
        free(s->src[i].text);
        free(s->src[i].line_off);
    }
    free(s->src);
    free(s->last_line);
    if (s->dl)
        dlclose(s->dl);
    free(s);
}

bool dbg_exit_requested(const dbg_session *s, int *out_code)
{
    if (out_code)
        *out_code = s->exit_code;
    return s->exit_req;
}

void dbg_say(dbg_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->out, fmt, ap);
    va_end(ap);
}

/* ---- convenience variables ----------------------------------------------- */

bool dbg_var_get(const dbg_session *s, const char *name, size_t n, dbg_value *out)
{
    for (uint32_t i = 0; i < s->nvars; i++)
        if (strlen(s->vars[i].name) == n && memcmp(s->vars[i].name, name, n) == 0) {
            *out = s->vars[i].v;
            return true;
        }
    return false;
}

bool dbg_var_set(dbg_session *s, const char *name, size_t n, const dbg_value *v)
{
    for (uint32_t i = 0; i < s->nvars; i++)
        if (strlen(s->vars[i].name) == n && memcmp(s->vars[i].name, name, n) == 0) {
            s->vars[i].v = *v;
            return true;
        }
    if (s->nvars == s->capvars) {
        uint32_t nc = s->capvars ? s->capvars * 2 : 8;
        dbg_var *nv = realloc(s->vars, nc * sizeof *nv);
        if (!nv)
            return false;
        s->vars = nv;
        s->capvars = nc;
    }
    char *copy = malloc(n + 1);
    if (!copy)
        return false;
    memcpy(copy, name, n);
    copy[n] = 0;
    s->vars[s->nvars++] = (dbg_var){ copy, *v };
    return true;
}

bool dbg_set_var(dbg_session *s, const char *name, uint64_t value)
{
    dbg_value v = { .kind = DBG_V_UINT, .bytes = 8, .type = ISA_TYPE_B64, .space = ISA_SPACE_GENERIC,
                    .u = value };
    return dbg_var_set(s, name, strlen(name), &v);
}

/* ---- the program in use ------------------------------------------------- */

/* The file number of a `.loc F L C` line, or -1 if the line is not one. */
static int loc_directive(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 5 || memcmp(p, ".loc", 4) != 0 || (p[4] != ' ' && p[4] != '\t'))
        return -1;
    p += 4;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    int f = 0;
    while (p < end && *p >= '0' && *p <= '9' && f < 65536)
        f = f * 10 + (*p++ - '0');
    return f < 65536 ? f : -1;
}

bool dbg_prog_use(dbg_session *s, const exec_program *p)
{
    dbg_prog *pr = &s->prog;
    const isa_module *m = exec_program_module(p);
    if (pr->p == p && pr->m == m && pr->ncode == exec_program_ncode(p))
        return true;
    prog_clear(pr);
    pr->p = p;
    pr->m = m;
    pr->ncode = exec_program_ncode(p);
    pr->bp_gen = s->bp_gen - 1;          /* resolve breakpoints again */
    pr->bp_at = calloc(pr->ncode + 1, 1);
    const char *t = m->text;
    size_t len = t ? m->text_len : 0;
    uint32_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += t[i] == '\n';
    pr->line_off = malloc(((size_t)lines + 2) * sizeof *pr->line_off);
    pr->loc_file = calloc((size_t)lines + 2, sizeof *pr->loc_file);
    if (!pr->bp_at || !pr->line_off || !pr->loc_file) {
        prog_clear(pr);
        return false;
    }
    /* nvcc writes the .file table after the code, so a .loc names a file
     * the frontend has not seen yet and its isa_srcpos.file may be 0.  The
     * last .loc above each line says which file it meant. */
    uint32_t n = 0;
    uint16_t file = 0;
    size_t at = 0;
    while (at <= len && n < lines) {
        const char *nl = at < len ? memchr(t + at, '\n', len - at) : NULL;
        size_t end = nl ? (size_t)(nl - t) : len;
        int f = loc_directive(t + at, t + end);
        if (f >= 0)
            file = (uint16_t)f;
        n++;
        pr->line_off[n] = (uint32_t)at;
        pr->loc_file[n] = file;
        at = end + 1;
    }
    pr->nlines = n;
    return true;
}

const char *dbg_ptx_line(dbg_session *s, uint32_t line, size_t *len)
{
    dbg_prog *pr = &s->prog;
    if (!pr->m || line == 0 || line > pr->nlines)
        return NULL;
    const char *t = pr->m->text + pr->line_off[line];
    const char *end = pr->m->text + pr->m->text_len;
    const char *nl = memchr(t, '\n', (size_t)(end - t));
    size_t n = nl ? (size_t)(nl - t) : (size_t)(end - t);
    while (n && (t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    *len = n;
    return t;
}

uint32_t dbg_srcpos(dbg_session *s, uint32_t pc, const char **file)
{
    dbg_prog *pr = &s->prog;
    *file = "";
    if (!pr->p || pc >= pr->ncode)
        return 0;
    uint32_t fi = exec_program_func_of(pr->p, pc), start, end;
    exec_program_func_range(pr->p, fi, &start, &end);
    const isa_func *f = &pr->m->funcs[fi];
    uint32_t idx = pc - start;
    if (!f->src || idx >= f->ncode || !f->src[idx].line)
        return 0;
    uint32_t file_no = f->src[idx].file;
    if (file_no == 0) {
        uint32_t line = exec_program_inst(pr->p, pc)->line;
        file_no = line && line <= pr->nlines ? pr->loc_file[line] : 0;
    }
    if (file_no < pr->m->nfiles)
        *file = pr->m->files[file_no];
    return f->src[idx].line;
}

/* ---- CUDA source files --------------------------------------------------- */

const char *dbg_basename(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    *len = n;
    return buf;
}

static dbg_srcfile *src_get(dbg_session *s, const char *path)
{
    for (uint32_t i = 0; i < s->nsrc; i++)
        if (strcmp(s->src[i].path, path) == 0)
            return &s->src[i];
    if (s->nsrc == s->capsrc) {
        uint32_t nc = s->capsrc ? s->capsrc * 2 : 4;
        dbg_srcfile *ns = realloc(s->src, nc * sizeof *ns);
        if (!ns)
            return NULL;
        s->src = ns;
        s->capsrc = nc;
    }
    dbg_srcfile *f = &s->src[s->nsrc];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path)
        return NULL;
    s->nsrc++;
    size_t len = 0;
    f->text = path[0] ? read_file(path, &len) : NULL;
    /* Programs move: look the file up by its name in the source path. */
    for (const char *d = s->o.source_path; !f->text && d && *d;) {
        const char *colon = strchr(d, ':');
        size_t dl = colon ? (size_t)(colon - d) : strlen(d);
        char full[4096];
        if (dl && snprintf(full, sizeof full, "%.*s/%s", (int)dl, d, dbg_basename(path)) <
                      (int)sizeof full)
            f->text = read_file(full, &len);
        d = colon ? colon + 1 : d + dl;
    }
    if (!f->text)
        return f;
    uint32_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += f->text[i] == '\n';
    f->line_off = malloc(((size_t)lines + 2) * sizeof *f->line_off);
    if (!f->line_off) {
        free(f->text);
        f->text = NULL;
        return f;
    }
    uint32_t n = 0;
    for (size_t at = 0; at < len;) {
        f->line_off[++n] = (uint32_t)at;
        const char *nl = memchr(f->text + at, '\n', len - at);
        at = nl ? (size_t)(nl - f->text) + 1 : len;
    }
    f->nlines = n;
    return f;
}

const char *dbg_src_line(dbg_session *s, const char *path, uint32_t line, size_t *len)
{
    dbg_srcfile *f = src_get(s, path);
    if (!f || !f->text || line == 0 || line > f->nlines)
        return NULL;
    const char *t = f->text + f->line_off[line];
    size_t n = strcspn(t, "\n");
    while (n && (t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    *len = n;
    return t;
}

uint32_t dbg_src_nlines(dbg_session *s, const char *path)
{
    dbg_srcfile *f = src_get(s, path);
    return f && f->text ? f->nlines : 0;
}

/* ---- names ----------------------------------------------------------------- */

bool dbg_demangle(dbg_session *s, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", name);
    if (name[0] != '_' || name[1] != 'Z')
        return false;
    if (!s->demangle_looked) {
        /* As runtime/ does: a C++ program has libstdc++'s demangler loaded;
         * a C program (the tests) may not, so load it then. */
        s->demangle_looked = true;
        void *fn = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!fn) {
            s->dl = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
            fn = s->dl ? dlsym(s->dl, "__cxa_demangle") : NULL;
        }
        memcpy(&s->demangle, &fn, sizeof fn);
    }
    if (!s->demangle)
        return false;
    int status = 0;
    char *d = s->demangle(name, NULL, NULL, &status);
    bool ok = d && status == 0;
    if (ok)
        snprintf(buf, n, "%s", d);
    free(d);
    return ok;
}

/* The demangled name less its parameter list and return type. */
static void strip_signature(char *d)
{
    size_t n = strlen(d);
    while (n && d[n - 1] != ')')
        n--;                            /* " const" and the like */
    if (!n)
        return;
    int depth = 0;
    size_t i = n;
    while (i-- > 0) {
        if (d[i] == ')')
            depth++;
        else if (d[i] == '(' && --depth == 0)
            break;
    }
    if (i == (size_t)-1)
        return;
    d[i] = 0;
    /* A template's return type comes first: cut at the last top-level space. */
    depth = 0;
    size_t cut = 0;
    for (size_t k = 0; d[k]; k++) {
        if (d[k] == '<' || d[k] == '(')
            depth++;
        else if (d[k] == '>' || d[k] == ')')
            depth--;
        else if (d[k] == ' ' && depth == 0)
            cut = k + 1;
    }
    memmove(d, d + cut, strlen(d + cut) + 1);
}

const char *dbg_short_name(dbg_session *s, const char *name, char *buf, size_t n)
{
    if (dbg_demangle(s, name, buf, n))
        strip_signature(buf);
    return buf;
}

bool dbg_name_matches(dbg_session *s, const char *mangled, const char *user)
{
    if (strcmp(mangled, user) == 0)
        return true;
    char d[1024];
    if (!dbg_demangle(s, mangled, d, sizeof d))
        return false;
    if (strcmp(d, user) == 0)
        return true;
    strip_signature(d);
    if (strcmp(d, user) == 0)
        return true;
    /* Without template arguments, and without namespaces, as gdb allows. */
    char *lt = strchr(d, '<');
    if (lt) {
        *lt = 0;
        if (strcmp(d, user) == 0)
            return true;
    }
    const char *last = d;
    for (const char *q = d; (q = strstr(q, "::")) != NULL; q += 2)
        last = q + 2;
    return last != d && strcmp(last, user) == 0;
}

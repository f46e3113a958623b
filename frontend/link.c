/*
 * link.c -- modules compiled separately, linked into one.
 *
 * A program built with relocatable device code (nvcc -rdc=true) has one
 * PTX module per translation unit; a kernel in one calls `.extern .func`
 * declarations that another defines as `.visible .func`, and reads
 * `.extern .global` variables defined elsewhere.  The device linker joins
 * them as a static linker joins object files:
 *   - a .visible or .weak definition is the one for its name across all
 *     modules (a .visible one wins over .weak ones; two .visible ones are
 *     an error naming both places; of several .weak ones the first wins);
 *   - every declaration and losing .weak definition of the name refers to
 *     it; a name no module defines keeps one declaration, which loading
 *     then reports as undefined (or runs, for vprintf, malloc and the other
 *     functions ptxsim provides);
 *   - everything without linkage stays private to its module, even where
 *     two modules use one name (`$str` in each);
 *   - `.extern .shared` arrays of one name are one dynamic shared array.
 * The result is one module whose tables are the inputs' kept entries, in
 * input order, with every index that names a variable, function, register
 * list or .file entry renumbered.  Its text is the inputs' texts one after
 * the other (file numbers in .file and .loc lines renumbered to match), and
 * PTX lines are numbered in it, so listings and positions stay right;
 * control flow was analysed per function and is copied.
 */
#include "frontend.h"
#include "strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DROPPED UINT32_MAX

/* Where a name's definition is, across all modules. */
typedef struct def_site {
    uint32_t mod, index;
    bool weak;
} def_site;

typedef struct linker {
    isa_module *const *in;
    unsigned n;
    isa_module *out;
    ptx_diag *diag;
    uint32_t **var_map, **func_map;     /* per input: old index -> new (DROPPED) */
    bool **var_kept, **func_kept;       /* per input: copied (not a reference to another) */
    fe_strmap defs_var, defs_func;      /* name -> index into sites */
    def_site *sites;
    uint32_t nsites, capsites;
} linker;

static bool global_var(const isa_var *v) { return v->func < 0 && v->space != ISA_SPACE_PARAM; }

static bool defines(uint8_t linkage)
{
    return linkage == ISA_LINK_VISIBLE || linkage == ISA_LINK_WEAK || linkage == ISA_LINK_COMMON;
}

static ptx_status nomem(linker *l)
{
    return ptx_error(l->diag, PTX_E_NOMEM, l->out->source_name, 0, 0, "out of memory linking modules");
}

/* Record module mi's definition `index` of `name` in `defs`. */
static ptx_status add_def(linker *l, fe_strmap *defs, const char *what, uint32_t mi, uint32_t index,
                          const char *name, uint8_t linkage, uint32_t line)
{
    bool weak = linkage != ISA_LINK_VISIBLE;
    uint32_t s;
    if (fe_strmap_get(defs, name, strlen(name), &s)) {
        def_site *d = &l->sites[s];
        if (!d->weak && !weak) {
            const isa_module *a = l->in[d->mod], *b = l->in[mi];
            uint32_t aline = defs == &l->defs_var ? a->vars[d->index].line : a->funcs[d->index].line;
            return ptx_error(l->diag, PTX_E_SYNTAX, b->source_name, line, 0,
                             "%s '%s' is defined here and in %s (line %u)", what, name,
                             a->source_name, aline);
        }
        if (d->weak && !weak)
            *d = (def_site){ mi, index, false };
        return PTX_OK;
    }
    if (l->nsites == l->capsites) {
        uint32_t nc = l->capsites ? l->capsites * 2 : 64;
        def_site *ns = realloc(l->sites, nc * sizeof *ns);
        if (!ns)
            return nomem(l);
        l->sites = ns;
        l->capsites = nc;
    }
    l->sites[l->nsites] = (def_site){ mi, index, weak };
    if (!fe_strmap_put(defs, name, strlen(name), l->nsites))
        return nomem(l);
    l->nsites++;
    return PTX_OK;
}

/* Every definition with linkage, by name. */
static ptx_status collect_defs(linker *l)
{
    ptx_status st;
    for (uint32_t mi = 0; mi < l->n; mi++) {
        const isa_module *m = l->in[mi];
        for (uint32_t v = 0; v < m->nvars; v++) {
            const isa_var *var = &m->vars[v];
            if (global_var(var) && defines(var->linkage) &&
                (st = add_def(l, &l->defs_var, "variable", mi, v, var->name, var->linkage, var->line)) != PTX_OK)
                return st;
        }
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            const isa_func *fn = &m->funcs[f];
            if (fn->ncode && defines(fn->linkage) &&
                (st = add_def(l, &l->defs_func, "function", mi, f, fn->name, fn->linkage, fn->line)) != PTX_OK)
                return st;
        }
    }
    return PTX_OK;
}

/* Which entries are kept, and what each old index becomes.  Kept entries
 * are numbered in input order; references are resolved once all are. */
static ptx_status number(linker *l)
{
    uint32_t nvars = 0, nfuncs = 0;
    /* Names declared but defined nowhere: the first declaration stands for all. */
    fe_strmap undef_var = {0}, undef_func = {0};
    ptx_status st = PTX_OK;
    for (uint32_t mi = 0; mi < l->n; mi++) {
        const isa_module *m = l->in[mi];
        l->var_map[mi] = malloc((m->nvars + 1) * sizeof **l->var_map);
        l->func_map[mi] = malloc((m->nfuncs + 1) * sizeof **l->func_map);
        bool *vk = l->var_kept[mi] = calloc(m->nvars + 1, sizeof **l->var_kept);
        bool *fk = l->func_kept[mi] = calloc(m->nfuncs + 1, sizeof **l->func_kept);
        if (!l->var_map[mi] || !l->func_map[mi] || !vk || !fk) {
            st = nomem(l);
            goto done;
        }
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            const isa_func *fn = &m->funcs[f];
            uint32_t s, first;
            l->func_map[mi][f] = DROPPED;
            if (fn->ncode && !defines(fn->linkage)) {
                fk[f] = true;                           /* private to its module */
            } else if (fe_strmap_get(&l->defs_func, fn->name, strlen(fn->name), &s)) {
                fk[f] = l->sites[s].mod == mi && l->sites[s].index == f;   /* the definition */
            } else if (!fe_strmap_get(&undef_func, fn->name, strlen(fn->name), &first)) {
                if (!fe_strmap_put(&undef_func, fn->name, strlen(fn->name), nfuncs)) {
                    st = nomem(l);
                    goto done;
                }
                fk[f] = true;
            } else {
                l->func_map[mi][f] = first;
            }
            if (fk[f])
                l->func_map[mi][f] = nfuncs++;
        }
        for (uint32_t v = 0; v < m->nvars; v++) {
            const isa_var *var = &m->vars[v];
            uint32_t s, first;
            l->var_map[mi][v] = DROPPED;
            if (!global_var(var)) {
                /* A function's own goes with its function (the parameters
                 * of a declaration that another module defines are never
                 * named). */
                vk[v] = var->func < 0 || fk[var->func];
            } else if (!defines(var->linkage) && var->linkage != ISA_LINK_EXTERN) {
                vk[v] = true;                           /* private to its module */
            } else if (fe_strmap_get(&l->defs_var, var->name, strlen(var->name), &s)) {
                vk[v] = l->sites[s].mod == mi && l->sites[s].index == v;
            } else if (!fe_strmap_get(&undef_var, var->name, strlen(var->name), &first)) {
                if (!fe_strmap_put(&undef_var, var->name, strlen(var->name), nvars)) {
                    st = nomem(l);
                    goto done;
                }
                vk[v] = true;
            } else {
                l->var_map[mi][v] = first;
            }
            if (vk[v])
                l->var_map[mi][v] = nvars++;
        }
    }
    /* References to definitions elsewhere, now that those have numbers. */
    for (uint32_t mi = 0; mi < l->n; mi++) {
        const isa_module *m = l->in[mi];
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            const isa_func *fn = &m->funcs[f];
            uint32_t s;
            if (l->func_map[mi][f] == DROPPED &&
                fe_strmap_get(&l->defs_func, fn->name, strlen(fn->name), &s))
                l->func_map[mi][f] = l->func_map[l->sites[s].mod][l->sites[s].index];
        }
        for (uint32_t v = 0; v < m->nvars; v++) {
            const isa_var *var = &m->vars[v];
            uint32_t s;
            if (l->var_map[mi][v] == DROPPED && global_var(var) &&
                fe_strmap_get(&l->defs_var, var->name, strlen(var->name), &s))
                l->var_map[mi][v] = l->var_map[l->sites[s].mod][l->sites[s].index];
        }
    }
done:
    fe_strmap_free(&undef_var);
    fe_strmap_free(&undef_func);
    return st;
}

static const char *dup(isa_module *m, const char *s) { return s ? isa_strdup(m, s, strlen(s)) : NULL; }

static uint32_t *dup_indices(isa_module *m, const uint32_t *src, uint32_t n, const uint32_t *map)
{
    uint32_t *d = isa_alloc(m, (n ? n : 1) * sizeof *d);
    if (d)
        for (uint32_t i = 0; i < n; i++)
            d[i] = map[src[i]];
    return d;
}

/* Copy module mi's kept variables, in order, into the output. */
static ptx_status copy_vars(linker *l, uint32_t mi, uint32_t line_base)
{
    const isa_module *m = l->in[mi];
    isa_module *o = l->out;
    for (uint32_t v = 0; v < m->nvars; v++) {
        if (!l->var_kept[mi][v])
            continue;
        const isa_var *src = &m->vars[v];
        uint32_t idx;
        isa_var *d = isa_add_var(o, &idx);
        if (!d)
            return nomem(l);
        *d = *src;
        d->name = dup(o, src->name);
        d->line = src->line + line_base;
        d->func = src->func >= 0 ? (int32_t)l->func_map[mi][src->func] : -1;
        if (src->init) {
            uint8_t *init = isa_alloc(o, src->size ? src->size : 1);
            if (!init)
                return nomem(l);
            memcpy(init, src->init, src->size ? src->size : 1);
            d->init = init;
        }
        if (src->nrelocs) {
            isa_reloc *r = isa_alloc(o, src->nrelocs * sizeof *r);
            if (!r)
                return nomem(l);
            for (uint32_t k = 0; k < src->nrelocs; k++) {
                r[k] = src->relocs[k];
                r[k].var = src->relocs[k].func ? l->func_map[mi][r[k].var] : l->var_map[mi][r[k].var];
            }
            d->relocs = r;
        }
        if (!d->name)
            return nomem(l);
    }
    return PTX_OK;
}

/* Copy one kept function's body, renumbering what it names. */
static ptx_status copy_func(linker *l, uint32_t mi, const isa_func *src, uint32_t line_base,
                            const uint16_t *file_map, uint32_t list_base)
{
    const isa_module *m = l->in[mi];
    isa_module *o = l->out;
    const uint32_t *vm = l->var_map[mi], *fm = l->func_map[mi];
    uint32_t idx;
    isa_func *d = isa_add_func(o, &idx);
    if (!d)
        return nomem(l);
    *d = *src;
    d->name = dup(o, src->name);
    d->line = src->line + line_base;
    d->params = dup_indices(o, src->params, src->nparams, vm);
    d->rets = dup_indices(o, src->rets, src->nrets, vm);
    d->code = NULL;
    d->src = NULL;
    d->ncode = d->cap_code = 0;
    d->regs = isa_alloc(o, (src->nregdecls ? src->nregdecls : 1) * sizeof *d->regs);
    d->calls = isa_alloc(o, (src->ncalls ? src->ncalls : 1) * sizeof *d->calls);
    d->brx_targets = isa_alloc(o, (src->nbrx ? src->nbrx : 1) * sizeof *d->brx_targets);
    d->brx_counts = isa_alloc(o, (src->nbrx ? src->nbrx : 1) * sizeof *d->brx_counts);
    if (!d->name || !d->params || !d->rets || !d->regs || !d->calls || !d->brx_targets || !d->brx_counts)
        return nomem(l);
    for (uint32_t r = 0; r < src->nregdecls; r++) {
        d->regs[r] = src->regs[r];
        if (!(d->regs[r].name = dup(o, src->regs[r].name)))
            return nomem(l);
    }
    for (uint32_t c = 0; c < src->ncalls; c++) {
        const isa_call *sc = &src->calls[c];
        isa_call *dc = &d->calls[c];
        *dc = *sc;
        dc->callee = sc->callee >= 0 ? (int32_t)fm[sc->callee] : -1;
        dc->args = dup_indices(o, sc->args, sc->nargs, vm);
        dc->rets = dup_indices(o, sc->rets, sc->nrets, vm);
        dc->proto = dup(o, sc->proto);
        if (!dc->args || !dc->rets || (sc->proto && !dc->proto))
            return nomem(l);
    }
    for (uint32_t b = 0; b < src->nbrx; b++) {
        d->brx_counts[b] = src->brx_counts[b];
        d->brx_targets[b] = isa_alloc(o, (src->brx_counts[b] ? src->brx_counts[b] : 1) * sizeof **d->brx_targets);
        if (!d->brx_targets[b])
            return nomem(l);
        memcpy(d->brx_targets[b], src->brx_targets[b], src->brx_counts[b] * sizeof **d->brx_targets);
    }
    for (uint32_t i = 0; i < src->ncode; i++) {
        isa_inst *in = isa_add_inst(o, d);
        if (!in)
            return nomem(l);
        *in = src->code[i];
        in->line += line_base;
        for (unsigned k = 0; k < in->nopd; k++) {
            isa_opd *op = &in->opd[k];
            if (op->kind == ISA_OPD_SYM || op->kind == ISA_OPD_ADDR_SYM)
                isa_opd_set_var(op, vm[isa_opd_var(op)]);
            else if (op->kind == ISA_OPD_FUNC)
                op->reg = (uint16_t)fm[op->reg];
            else if (op->kind == ISA_OPD_LIST)
                op->imm += list_base;
        }
        if (src->src) {
            isa_srcpos *pos = &d->src[d->ncode - 1];
            *pos = src->src[i];
            pos->file = file_map[pos->file < m->nfiles ? pos->file : 0];
            pos->at_file = file_map[pos->at_file < m->nfiles ? pos->at_file : 0];
        }
    }
    return PTX_OK;
}

/* The file number at *p, through file_map, into *o (and past it in *p). */
static void renumber_file(const char **p, const char *end, char **o, const uint16_t *file_map, uint32_t nfiles)
{
    const char *q = *p;
    uint32_t f = 0;
    while (q < end && *q >= '0' && *q <= '9' && f < 65536)
        f = f * 10 + (uint32_t)(*q++ - '0');
    if (q == *p || f >= nfiles || !f)
        return;                                 /* not a number we renumber */
    *o += sprintf(*o, "%u", file_map[f]);
    *p = q;
}

/* A module's text into the linked text, with the file numbers of its .file
 * and .loc directives (and a .loc's inlined_at) renumbered as the linked
 * .file table numbers them, so a listing reads each .loc as its module
 * meant it.  Lines are neither added nor removed.  Returns the bytes
 * written: at most len plus 4 for each renumbered number, two per line. */
static size_t copy_text(char *o, const isa_module *m, const uint16_t *file_map)
{
    const char *p = m->text, *end = m->text + m->text_len;
    char *start = o;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl + 1 : end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        bool loc = eol - q > 5 && memcmp(q, ".loc", 4) == 0 && (q[4] == ' ' || q[4] == '\t');
        bool file = eol - q > 6 && memcmp(q, ".file", 5) == 0 && (q[5] == ' ' || q[5] == '\t');
        if (loc || file) {
            q += loc ? 4 : 5;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            memcpy(o, p, (size_t)(q - p));
            o += q - p;
            renumber_file(&q, eol, &o, file_map, m->nfiles);
            p = q;
            const char *at = NULL;
            for (const char *k = p; loc && !at && eol - k >= 10; k++)
                if (memcmp(k, "inlined_at", 10) == 0)
                    at = k;
            if (at) {
                q = at + 10;
                while (q < eol && (*q == ' ' || *q == '\t'))
                    q++;
                memcpy(o, p, (size_t)(q - p));
                o += q - p;
                renumber_file(&q, eol, &o, file_map, m->nfiles);
                p = q;
            }
        }
        memcpy(o, p, (size_t)(eol - p));
        o += eol - p;
        p = eol;
    }
    return (size_t)(o - start);
}

/* Every index the output stores in 16 bits must fit. */
static ptx_status check_widths(linker *l)
{
    if (l->out->nvars < ISA_NOREG && l->out->nfuncs < ISA_NOREG)
        return PTX_OK;
    return ptx_error(l->diag, PTX_E_UNSUPPORTED, l->out->source_name, 0, 0,
                     "the linked module has too many variables or functions (%u and %u; at most 65534)",
                     l->out->nvars, l->out->nfuncs);
}

isa_module *fe_link(isa_module *const *in, unsigned n, const char *name, ptx_diag *diag)
{
    ptx_diag local = {0};
    if (!diag)
        diag = &local;
    isa_module *o = isa_module_new();
    if (!o) {
        ptx_error(diag, PTX_E_NOMEM, name, 0, 0, "out of memory linking modules");
        return NULL;
    }
    o->source_name = isa_strdup(o, name ? name : "<linked>", strlen(name ? name : "<linked>"));
    linker l = { .in = in, .n = n, .out = o, .diag = diag };
    l.var_map = calloc(n + 1, sizeof *l.var_map);
    l.func_map = calloc(n + 1, sizeof *l.func_map);
    l.var_kept = calloc(n + 1, sizeof *l.var_kept);
    l.func_kept = calloc(n + 1, sizeof *l.func_kept);
    uint16_t *file_map = NULL;
    ptx_status st = PTX_E_NOMEM;
    if (!o->source_name || !l.var_map || !l.func_map || !l.var_kept || !l.func_kept) {
        nomem(&l);
        goto fail;
    }
    if ((st = collect_defs(&l)) != PTX_OK || (st = number(&l)) != PTX_OK)
        goto fail;
    /* The texts one after another, each ending in a newline, and the .file
     * tables one after another behind the shared entry 0. */
    size_t text_len = 0;
    uint32_t nfiles = 1;
    for (unsigned i = 0; i < n; i++) {
        size_t lines = 1;
        for (size_t k = 0; k < in[i]->text_len; k++)
            lines += in[i]->text[k] == '\n';
        text_len += in[i]->text_len + 1 + 10 * lines;
        nfiles += in[i]->nfiles ? in[i]->nfiles - 1 : 0;
        o->version = in[i]->version > o->version ? in[i]->version : o->version;
        if (in[i]->sm > o->sm || (in[i]->sm == o->sm && in[i]->sm_suffix))
            o->sm_suffix = in[i]->sm_suffix;
        o->sm = in[i]->sm > o->sm ? in[i]->sm : o->sm;
    }
    char *text = isa_alloc(o, text_len + 1);
    o->files = isa_alloc(o, nfiles * sizeof *o->files);
    if (!text || !o->files || nfiles >= 65536) {
        st = nfiles >= 65536 ? ptx_error(diag, PTX_E_UNSUPPORTED, name, 0, 0, "too many .file entries to link")
                             : nomem(&l);
        goto fail;
    }
    o->files[0] = "";
    o->nfiles = 1;
    o->text = text;
    uint32_t line_base = 0;
    for (unsigned i = 0; i < n; i++) {
        const isa_module *m = in[i];
        free(file_map);
        file_map = calloc(m->nfiles + 1, sizeof *file_map);
        if (!file_map) {
            st = nomem(&l);
            goto fail;
        }
        for (uint32_t k = 1; k < m->nfiles; k++) {
            file_map[k] = (uint16_t)o->nfiles;
            if (!(o->files[o->nfiles++] = dup(o, m->files[k]))) {
                st = nomem(&l);
                goto fail;
            }
        }
        uint32_t list_base = o->nlists;
        if (m->nlists && isa_add_list(o, m->lists, m->nlists) == UINT32_MAX) {
            st = nomem(&l);
            goto fail;
        }
        if ((st = copy_vars(&l, i, line_base)) != PTX_OK)
            goto fail;
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            if (!l.func_kept[i][f])
                continue;
            if ((st = copy_func(&l, i, &m->funcs[f], line_base, file_map, list_base)) != PTX_OK)
                goto fail;
        }
        o->text_len += copy_text(text + o->text_len, m, file_map);
        if (m->text_len && m->text[m->text_len - 1] != '\n')
            text[o->text_len++] = '\n';
        for (size_t k = 0; k < m->text_len; k++)
            line_base += m->text[k] == '\n';
        line_base += m->text_len && m->text[m->text_len - 1] != '\n';
    }
    text[o->text_len] = '\0';
    if ((st = check_widths(&l)) != PTX_OK)
        goto fail;
    st = PTX_OK;
fail:
    free(file_map);
    for (unsigned i = 0; i < n; i++) {
        free(l.var_map ? l.var_map[i] : NULL);
        free(l.func_map ? l.func_map[i] : NULL);
        free(l.var_kept ? l.var_kept[i] : NULL);
        free(l.func_kept ? l.func_kept[i] : NULL);
    }
    free(l.var_map);
    free(l.func_map);
    free(l.var_kept);
    free(l.func_kept);
    free(l.sites);
    fe_strmap_free(&l.defs_var);
    fe_strmap_free(&l.defs_func);
    if (st != PTX_OK) {
        if (diag->count == 0)
            ptx_error(diag, st, name, 0, 0, "cannot link modules: %s", ptx_status_message(st));
        isa_module_free(o);
        return NULL;
    }
    return o;
}

isa_module *fe_link_fatbins(const uint8_t *const *fatbins, const size_t *bytes, const char *const *names,
                            unsigned n, uint32_t sm, const char *name, ptx_diag *diag)
{
    isa_module **mods = calloc(n + 1, sizeof *mods);
    isa_module *linked = NULL;
    if (!mods) {
        ptx_error(diag, PTX_E_NOMEM, name, 0, 0, "out of memory linking modules");
        return NULL;
    }
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        char *text;
        size_t len;
        ptx_diag d = {0};
        ptx_status st = fe_fatbin_ptx(fatbins[i], bytes[i], sm, &text, &len, &d);
        if (st != PTX_OK) {
            ptx_error(diag, st, names[i], 0, 0, "%s (the fat binary of translation unit %u of %u)", d.msg,
                      i + 1, n);
            ok = false;
            continue;
        }
        /* Every unit is parsed, so one run reports the problems of all. */
        mods[i] = fe_parse(text, len, names[i], diag);
        free(text);
        ok = ok && mods[i];
    }
    if (ok)
        linked = fe_link(mods, n, name, diag);
    for (unsigned i = 0; i < n; i++)
        isa_module_free(mods[i]);
    free(mods);
    return linked;
}

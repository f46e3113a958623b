/*
 * show.c -- what the debugger shows of a stopped kernel: where the focused
 * warp is, `print`, `x`, `display`, `list`, `backtrace` and `frame`.
 */
#include "dbg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* PTX line `line` without its indentation. */
static const char *ptx_text(dbg_session *s, uint32_t line, size_t *len)
{
    const char *t = dbg_ptx_line(s, line, len);
    if (!t)
        return NULL;
    while (*len && (*t == ' ' || *t == '\t')) {
        t++;
        (*len)--;
    }
    return t;
}

/* Frame `level` of w, with the pc a person expects: a warp that waits at a
 * barrier is shown at the barrier (the engine has moved its pc past it). */
static bool frame_at(exec_warp *w, uint32_t level, exec_frame_view *fv)
{
    if (!exec_warp_frame(w, level, fv))
        return false;
    if (level == 0 && exec_warp_state(w) == EXEC_WARP_BARRIER && fv->pc)
        fv->pc--;
    return true;
}

void dbg_frame_line(dbg_session *s, exec_warp *w, uint32_t level, char *buf, size_t n)
{
    exec_frame_view fv;
    if (!frame_at(w, level, &fv)) {
        snprintf(buf, n, "(no frame %u)", level);
        return;
    }
    char name[256];
    dbg_short_name(s, s->prog.m->funcs[fv.func].name, name, sizeof name);
    const isa_inst *in = exec_program_inst(s->prog.p, fv.pc);
    const char *file;
    uint32_t line = dbg_srcpos(s, fv.pc, &file);
    int k = snprintf(buf, n, "%s (pc %u, PTX line %u)", name, fv.pc, in ? in->line : 0);
    if (line && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " at %s:%u", dbg_basename(file), line);
}

/* The pc lane `lane` waits at: the topmost SIMT entry that holds it. */
static bool lane_pc(const exec_warp *w, unsigned lane, uint32_t *pc)
{
    exec_simt_view st[64];
    uint32_t depth = exec_warp_stack(w, st, 64);
    for (uint32_t i = depth < 64 ? depth : 64; i-- > 0;)
        if ((st[i].mask >> lane) & 1) {
            *pc = st[i].pc;
            return true;
        }
    return false;
}

void dbg_show_location(dbg_session *s, const char *prefix)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    if (exec_warp_state(w) == EXEC_WARP_DONE) {
        dbg_say(s, "%sThe focused warp has exited.\n", prefix);
        return;
    }
    char line[600];
    dbg_frame_line(s, w, s->focus.level, line, sizeof line);
    dbg_say(s, "%s%s\n", prefix, line);
    exec_frame_view fv;
    frame_at(w, s->focus.level, &fv);
    const char *file, *t;
    size_t n;
    uint32_t sl = dbg_srcpos(s, fv.pc, &file);
    if (sl && (t = dbg_src_line(s, file, sl, &n)) != NULL)
        dbg_say(s, "%u\t%.*s\n", sl, (int)n, t);
    const isa_inst *in = exec_program_inst(s->prog.p, fv.pc);
    if (in && (t = ptx_text(s, in->line, &n)) != NULL)
        dbg_say(s, "=> %u\t%.*s\n", in->line, (int)n, t);
    if (s->focus.level)
        return;
    if (exec_warp_state(w) == EXEC_WARP_BARRIER) {
        uint32_t bar = exec_warp_barrier(w);
        dbg_say(s, "[the warp waits at barrier %u, which %u threads have reached; it goes on at pc %u]\n",
                bar, exec_cta_bar_arrived(exec_warp_cta(w), bar), exec_warp_pc(w));
    }
    unsigned lane = s->focus.lane;
    uint32_t pc;
    if ((exec_warp_exited(w) >> lane) & 1)
        dbg_say(s, "[lane %u has exited]\n", lane);
    else if (!((dbg_warp_lanes_at_pc(w) >> lane) & 1) && lane_pc(w, lane, &pc))
        dbg_say(s, "[lane %u is not active here: it waits at pc %u (PTX line %u)]\n", lane, pc,
                exec_program_inst(s->prog.p, pc)->line);
    else if (exec_warp_lane_apart(w, lane, &pc))
        dbg_say(s, "[lane %u runs apart from these lanes, in a lane group of its own (independent thread "
                "scheduling: lanes that left a call run apart from those still in it): it waits at pc %u "
                "(PTX line %u)]\n", lane, pc,
                exec_program_inst(s->prog.p, pc)->line);
}

/* ---- print and display ---------------------------------------------------- */

/* "/x" and the like at the start of a command's arguments. */
static bool parse_format(dbg_session *s, const char **p, char *fmt)
{
    *fmt = 0;
    if (**p != '/')
        return true;
    const char *q = *p + 1;
    while (isalnum((unsigned char)*q)) {
        if (!strchr("xduotcf", *q)) {
            dbg_say(s, "Undefined output format \"%c\".\n", *q);
            return false;
        }
        *fmt = *q++;
    }
    *p = q;
    return true;
}

/* Evaluate e for every live lane of the focused warp: {[0] = v, ...}. */
static bool all_lanes(dbg_session *s, const dbg_expr *e, char fmt, char *buf, size_t n)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return false;
    uint32_t lanes = exec_warp_valid(w) & ~exec_warp_exited(w);
    size_t used = (size_t)snprintf(buf, n, "{");
    for (uint32_t rest = lanes; rest;) {
        unsigned l = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        dbg_ctx c = { w, l, s->focus.level };
        dbg_value v;
        char val[128], err[200];
        uint32_t pc;
        if (exec_warp_lane_apart(w, l, &pc)) {
            if (used < n)
                used += (size_t)snprintf(buf + used, n - used, "%s[%u] = <apart>", used > 1 ? ", " : "", l);
            continue;
        }
        if (!dbg_expr_eval(s, e, &c, &v, err, sizeof err)) {
            dbg_say(s, "%s\n", err);
            return false;
        }
        dbg_value_format(&v, fmt, val, sizeof val);
        if (used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s[%u] = %s", used > 1 ? ", " : "", l, val);
    }
    if (used < n)
        snprintf(buf + used, n - used, "}");
    return true;
}

void dbg_cmd_print(dbg_session *s, const char *args, bool output_only)
{
    const char *p = args;
    char fmt;
    if (!parse_format(s, &p, &fmt))
        return;
    char text[512];
    snprintf(text, sizeof text, "%s", dbg_skip(p));
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        text[--n] = 0;
    bool lanes = n >= 4 && strcmp(text + n - 4, "@all") == 0;
    if (lanes)
        text[n - 4] = 0;
    if (!*dbg_skip(text)) {
        dbg_say(s, "Give an expression to print.\n");
        return;
    }
    char err[200];
    dbg_expr *e = dbg_expr_parse(s, text, err, sizeof err);
    if (!e) {
        dbg_say(s, "%s\n", err);
        return;
    }
    char out[4096];
    bool ok;
    if (lanes) {
        ok = all_lanes(s, e, fmt, out, sizeof out);
    } else {
        dbg_ctx c;
        dbg_focus_ctx(s, &c);
        dbg_value v;
        ok = dbg_expr_eval(s, e, &c, &v, err, sizeof err);
        if (ok)
            dbg_value_format(&v, fmt, out, sizeof out);
        else
            dbg_say(s, "%s\n", err);
    }
    dbg_expr_free(e);
    if (!ok)
        return;
    if (output_only)
        dbg_say(s, "%s\n", out);
    else
        dbg_say(s, "$%u = %s\n", ++s->value_no, out);
}

static void show_display(dbg_session *s, const dbg_display *d)
{
    char out[4096], err[200];
    dbg_ctx c;
    dbg_focus_ctx(s, &c);
    dbg_value v;
    char f[4] = "";
    if (d->fmt)
        snprintf(f, sizeof f, "/%c ", d->fmt);
    if (dbg_expr_eval(s, d->e, &c, &v, err, sizeof err)) {
        dbg_value_format(&v, d->fmt, out, sizeof out);
        dbg_say(s, "%d: %s%s = %s\n", d->num, f, d->text, out);
    } else {
        dbg_say(s, "%d: %s%s = <%s>\n", d->num, f, d->text, err);
    }
}

void dbg_show_displays(dbg_session *s)
{
    for (uint32_t i = 0; i < s->ndisp; i++)
        show_display(s, &s->disp[i]);
}

void dbg_cmd_display(dbg_session *s, const char *args)
{
    const char *p = args;
    char fmt;
    if (!parse_format(s, &p, &fmt))
        return;
    p = dbg_skip(p);
    if (!*p) {
        dbg_show_displays(s);
        return;
    }
    char err[200];
    dbg_expr *e = dbg_expr_parse(s, p, err, sizeof err);
    if (!e) {
        dbg_say(s, "%s\n", err);
        return;
    }
    if (s->ndisp == s->capdisp) {
        uint32_t nc = s->capdisp ? s->capdisp * 2 : 4;
        dbg_display *nd = realloc(s->disp, nc * sizeof *nd);
        if (!nd) {
            dbg_expr_free(e);
            return;
        }
        s->disp = nd;
        s->capdisp = nc;
    }
    dbg_display *d = &s->disp[s->ndisp];
    *d = (dbg_display){ s->next_disp, fmt, strdup(p), e };
    if (!d->text) {
        dbg_expr_free(e);
        return;
    }
    s->ndisp++;
    s->next_disp++;
    if (s->run.active)
        show_display(s, d);
}

void dbg_cmd_undisplay(dbg_session *s, const char *args)
{
    const char *p = dbg_skip(args);
    if (!*p) {
        for (uint32_t i = 0; i < s->ndisp; i++) {
            free(s->disp[i].text);
            dbg_expr_free(s->disp[i].e);
        }
        s->ndisp = 0;
        return;
    }
    uint64_t num;
    while (dbg_parse_u64(&p, &num)) {
        uint32_t i = 0;
        while (i < s->ndisp && s->disp[i].num != (int)num)
            i++;
        if (i == s->ndisp) {
            dbg_say(s, "No display number %llu.\n", (unsigned long long)num);
            continue;
        }
        free(s->disp[i].text);
        dbg_expr_free(s->disp[i].e);
        memmove(&s->disp[i], &s->disp[i + 1], (s->ndisp - i - 1) * sizeof *s->disp);
        s->ndisp--;
    }
}

/* ---- x ------------------------------------------------------------------------ */

static void examine_insts(dbg_session *s, uint64_t pc, uint64_t count)
{
    exec_warp *w = s->run.active ? dbg_focus_warp(s, false) : NULL;
    uint32_t here = w ? exec_warp_pc(w) : UINT32_MAX;
    for (uint64_t k = 0; k < count && pc + k < s->prog.ncode; k++) {
        const isa_inst *in = exec_program_inst(s->prog.p, (uint32_t)(pc + k));
        size_t n = 0;
        const char *t = ptx_text(s, in->line, &n);
        dbg_say(s, "%s pc %llu (PTX line %u):\t%.*s\n", pc + k == here ? "=>" : "  ",
                (unsigned long long)(pc + k), in->line, (int)n, t ? t : "");
    }
}

static void examine_strings(dbg_session *s, const dbg_ctx *c, uint8_t space, uint64_t addr,
                            uint64_t count)
{
    for (uint64_t k = 0; k < count; k++) {
        char label[64], err[200], buf[1024];
        dbg_mem_label(space, addr, label, sizeof label);
        size_t n = 0;
        bool more = true;
        while (n < 200) {
            const uint8_t *b = dbg_mem_map(s, c, space, addr, 1, err, sizeof err);
            if (!b) {
                if (!n) {
                    dbg_say(s, "%s\n", err);
                    return;
                }
                break;
            }
            addr++;
            if (!*b) {
                more = false;
                break;
            }
            bool plain = isprint(*b) && *b != '"' && *b != '\\';
            n += (size_t)snprintf(buf + n, sizeof buf - n, plain ? "%c" : "\\%03o", *b);
        }
        buf[n < sizeof buf ? n : sizeof buf - 1] = 0;
        dbg_say(s, "%s:\t\"%s\"%s\n", label, buf, more ? "..." : "");
    }
}

void dbg_cmd_x(dbg_session *s, const char *args)
{
    const char *p = args;
    uint64_t count = 1;
    char fmt = 'x', unit = 0;
    if (*p == '/') {
        p++;
        if (isdigit((unsigned char)*p))
            dbg_parse_u64(&p, &count);
        while (isalpha((unsigned char)*p)) {
            if (strchr("xduotcfsia", *p))
                fmt = *p == 'a' ? 'x' : *p;
            else if (strchr("bhwg", *p))
                unit = *p;
            else {
                dbg_say(s, "Invalid format letter \"%c\".\n", *p);
                return;
            }
            p++;
        }
    }
    p = dbg_skip(p);
    if (!*p) {
        dbg_say(s, "Give an address: x/NFU ADDRESS.\n");
        return;
    }
    if (!s->prog.p) {
        dbg_say(s, "No program is loaded yet.\n");
        return;
    }
    dbg_value v;
    char err[200];
    if (!dbg_eval_text(s, p, &v, err, sizeof err)) {
        dbg_say(s, "%s\n", err);
        return;
    }
    if (v.kind == DBG_V_FLT || v.kind == DBG_V_DIM3) {
        dbg_say(s, "An address must be an integer.\n");
        return;
    }
    if (count > 4096)
        count = 4096;
    if (fmt == 'i') {
        examine_insts(s, v.u, count);
        return;
    }
    dbg_ctx c;
    dbg_focus_ctx(s, &c);
    uint8_t space = v.space;
    uint64_t addr = v.u;
    dbg_mem_classify(s, &space, &addr);
    if (fmt == 's') {
        examine_strings(s, &c, space, addr, count);
        return;
    }
    if (!unit)
        unit = fmt == 'c' ? 'b' : 'w';
    unsigned size = unit == 'b' ? 1 : unit == 'h' ? 2 : unit == 'w' ? 4 : 8;
    unsigned per_row = size == 4 ? 4 : size == 8 ? 2 : 8;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t a = addr + k * size;
        const uint8_t *b = dbg_mem_map(s, &c, space, a, size, err, sizeof err);
        if (!b) {
            dbg_say(s, "%s%s\n", k ? "\n" : "", err);
            return;
        }
        if (k % per_row == 0) {
            char label[64];
            dbg_mem_label(space, a, label, sizeof label);
            dbg_say(s, "%s%s:", k ? "\n" : "", label);
        }
        uint64_t bits = 0;
        memcpy(&bits, b, size);
        char out[96];
        if (fmt == 'x') {
            snprintf(out, sizeof out, "0x%0*llx", (int)size * 2, (unsigned long long)bits);
        } else if (fmt == 't') {
            for (unsigned i = 0; i < size * 8; i++)
                out[i] = (char)('0' + ((bits >> (size * 8 - 1 - i)) & 1));
            out[size * 8] = 0;
        } else {
            uint8_t type = fmt == 'f' ? (size == 8 ? ISA_TYPE_F64 : size == 2 ? ISA_TYPE_F16 : ISA_TYPE_F32)
                         : fmt == 'd' ? (size == 1 ? ISA_TYPE_S8 : size == 2 ? ISA_TYPE_S16
                                         : size == 4 ? ISA_TYPE_S32 : ISA_TYPE_S64)
                                      : (size == 1 ? ISA_TYPE_U8 : size == 2 ? ISA_TYPE_U16
                                         : size == 4 ? ISA_TYPE_U32 : ISA_TYPE_U64);
            dbg_value x = dbg_value_from_bits(bits, type);
            dbg_value_format(&x, fmt == 'f' || fmt == 'd' || fmt == 'u' ? 0 : fmt, out, sizeof out);
        }
        dbg_say(s, "\t%s", out);
    }
    dbg_say(s, "\n");
}

/* ---- list ------------------------------------------------------------------------ */

static void list_ptx(dbg_session *s, uint32_t first, uint32_t mark)
{
    uint32_t last = first + 9 < s->prog.nlines ? first + 9 : s->prog.nlines;
    for (uint32_t l = first; l <= last; l++) {
        size_t n;
        const char *t = dbg_ptx_line(s, l, &n);
        if (!t)
            break;
        dbg_say(s, "%s%u\t%.*s", l == mark ? "=> " : "   ", l, (int)n, t);
        /* A .loc line shows the CUDA source line it starts. */
        const char *q = t;
        while (q < t + n && (*q == ' ' || *q == '\t'))
            q++;
        if ((size_t)(t + n - q) > 5 && strncmp(q, ".loc", 4) == 0) {
            unsigned file = 0, line = 0;
            if (sscanf(q + 4, "%u %u", &file, &line) == 2 && file < s->prog.m->nfiles) {
                size_t sn;
                const char *src = dbg_src_line(s, s->prog.m->files[file], line, &sn);
                while (src && sn && (*src == ' ' || *src == '\t')) {
                    src++;
                    sn--;
                }
                if (src)
                    dbg_say(s, "\t// %s:%u: %.*s", dbg_basename(s->prog.m->files[file]), line, (int)sn, src);
            }
        }
        dbg_say(s, "\n");
    }
    s->list_next = last + 1;
}

static void list_source(dbg_session *s, const char *file, uint32_t center)
{
    uint32_t total = dbg_src_nlines(s, file);
    if (!total) {
        dbg_say(s, "Cannot read the source file %s (see the source path option).\n", file);
        return;
    }
    uint32_t first = center > 5 ? center - 5 : 1;
    for (uint32_t l = first; l < first + 10 && l <= total; l++) {
        size_t n;
        const char *t = dbg_src_line(s, file, l, &n);
        dbg_say(s, "%u\t%.*s\n", l, (int)n, t ? t : "");
    }
}

/* The full path of a CUDA source file the program names, by basename. */
static const char *source_file(dbg_session *s, const char *name)
{
    const isa_module *m = s->prog.m;
    for (uint32_t i = 1; m && i < m->nfiles; i++)
        if (strcmp(dbg_basename(m->files[i]), dbg_basename(name)) == 0)
            return m->files[i];
    return NULL;
}

void dbg_cmd_list(dbg_session *s, const char *args)
{
    const char *p = dbg_skip(args);
    if (!s->prog.p) {
        dbg_say(s, "No program is loaded yet.\n");
        return;
    }
    uint64_t num;
    const char *colon = strrchr(p, ':');
    if (!*p) {
        exec_warp *w = s->run.active ? dbg_focus_warp(s, false) : NULL;
        if (s->list_next) {
            if (s->list_next > s->prog.nlines) {
                dbg_say(s, "Line number %u out of range; the PTX has %u lines.\n", s->list_next,
                        s->prog.nlines);
                return;
            }
            list_ptx(s, s->list_next, UINT32_MAX);
            return;
        }
        if (!w || exec_warp_state(w) == EXEC_WARP_DONE) {
            dbg_say(s, "No pc to list around; give a line: list ptx:LINE.\n");
            return;
        }
        exec_frame_view fv;
        frame_at(w, s->focus.level, &fv);
        uint32_t line = exec_program_inst(s->prog.p, fv.pc)->line;
        const char *file;
        uint32_t sl = dbg_srcpos(s, fv.pc, &file);
        size_t n = 0;
        const char *t = sl ? dbg_src_line(s, file, sl, &n) : NULL;
        while (t && n && (*t == ' ' || *t == '\t')) {
            t++;
            n--;
        }
        if (sl)
            dbg_say(s, "%s:%u:\t%.*s\n", dbg_basename(file), sl, (int)n, t ? t : "");
        list_ptx(s, line > 5 ? line - 5 : 1, line);
        return;
    }
    if (strncmp(p, "ptx:", 4) == 0)
        p += 4;
    const char *q = p;
    if (dbg_parse_u64(&q, &num) && !*dbg_skip(q)) {
        list_ptx(s, num > 5 ? (uint32_t)num - 5 : 1, (uint32_t)num);
        return;
    }
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)(colon - p), p);
        const char *file = source_file(s, name);
        list_source(s, file ? file : name, (uint32_t)strtoul(colon + 1, NULL, 10));
        return;
    }
    for (uint32_t fi = 0; fi < s->prog.m->nfuncs; fi++) {
        const isa_func *f = &s->prog.m->funcs[fi];
        if (f->ncode && dbg_name_matches(s, f->name, p)) {
            list_ptx(s, f->line > 2 ? f->line - 2 : 1, UINT32_MAX);
            return;
        }
    }
    dbg_say(s, "Function \"%s\" not defined.\n", p);
}

/* ---- frames ---------------------------------------------------------------------- */

void dbg_cmd_backtrace(dbg_session *s, const char *args)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    if (exec_warp_state(w) == EXEC_WARP_DONE) {
        dbg_say(s, "The focused warp has exited.\n");
        return;
    }
    uint32_t depth = exec_warp_depth(w);
    for (uint32_t level = 0; level < depth; level++) {
        char line[600];
        dbg_frame_line(s, w, level, line, sizeof line);
        dbg_say(s, "#%-2u %s\n", level, line);
    }
}

void dbg_cmd_frame(dbg_session *s, const char *args, int delta)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    if (exec_warp_state(w) == EXEC_WARP_DONE) {
        dbg_say(s, "The focused warp has exited.\n");
        return;
    }
    uint32_t depth = exec_warp_depth(w);
    const char *p = dbg_skip(args);
    uint64_t n = delta ? 1 : s->focus.level;
    if (*p && !dbg_parse_u64(&p, &n)) {
        dbg_say(s, "Give a frame number.\n");
        return;
    }
    int64_t level = delta ? (int64_t)s->focus.level + delta * (int64_t)n : (int64_t)n;
    if (level < 0 || level >= depth) {
        if (delta > 0)
            dbg_say(s, "Initial frame selected; you cannot go up.\n");
        else if (delta < 0)
            dbg_say(s, "Bottom (innermost) frame selected; you cannot go down.\n");
        else
            dbg_say(s, "No frame at level %s.\n", dbg_skip(args));
        return;
    }
    s->focus.level = (uint32_t)level;
    s->list_next = 0;
    char prefix[16];
    snprintf(prefix, sizeof prefix, "#%-2u ", s->focus.level);
    dbg_show_location(s, prefix);
}

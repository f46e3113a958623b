/*
 * breakpoints.c -- breakpoints and watchpoints.
 *
 * A breakpoint is kept as the user gave it (a function, `ptx:LINE`,
 * `FILE:LINE`, `*PC`) and resolved to pcs against whichever program is
 * loaded, so it persists from launch to launch and module to module.  It
 * stops a warp before the warp executes one of its pcs, when some lane
 * about to execute it satisfies the condition; the first such lane gets the
 * focus.  A kernel's own name stops once per launch (not once per warp).
 *
 * A watchpoint covers a few bytes of global memory, or of every block's
 * shared memory.  Before each memory instruction whose lanes touch those
 * bytes the debugger keeps them, and stops after it if they changed.
 */
#include "dbg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static dbg_bp *find(dbg_session *s, int num)
{
    for (uint32_t i = 0; i < s->nbps; i++)
        if (s->bps[i].num == num)
            return &s->bps[i];
    return NULL;
}

static void bp_release(dbg_bp *b)
{
    free(b->what);
    free(b->name);
    free(b->cond_text);
    dbg_expr_free(b->cond);
    free(b->pcs);
}

static bool add_pc(dbg_bp *b, uint32_t pc)
{
    uint32_t *n = realloc(b->pcs, (b->npcs + 1) * sizeof *n);
    if (!n)
        return false;
    b->pcs = n;
    b->pcs[b->npcs++] = pc;
    return true;
}

/* A pc where `line` of `file` starts: the first of a run of pcs on it. */
static bool source_run_start(dbg_session *s, uint32_t pc, const char *file, uint32_t line)
{
    const char *f;
    if (dbg_srcpos(s, pc, &f) != line || strcmp(dbg_basename(f), file) != 0)
        return false;
    uint32_t fi = exec_program_func_of(s->prog.p, pc), start, end;
    exec_program_func_range(s->prog.p, fi, &start, &end);
    if (pc == start)
        return true;
    const char *pf;
    uint32_t pl = dbg_srcpos(s, pc - 1, &pf);
    return pl != line || strcmp(pf, f) != 0;
}

static void resolve(dbg_session *s, dbg_bp *b)
{
    free(b->pcs);
    b->pcs = NULL;
    b->npcs = 0;
    b->once = false;
    const dbg_prog *pr = &s->prog;
    if (!pr->p || b->kind == DBG_BP_WATCH)
        return;
    const exec_program *p = pr->p;
    switch (b->kind) {
    case DBG_BP_FUNC:
        for (uint32_t fi = 0; fi < pr->m->nfuncs; fi++) {
            const isa_func *f = &pr->m->funcs[fi];
            if (!f->ncode || !dbg_name_matches(s, f->name, b->name))
                continue;
            uint32_t start, end;
            exec_program_func_range(p, fi, &start, &end);
            add_pc(b, start);
            b->once = b->once || f->is_entry;
        }
        break;
    case DBG_BP_PC:
        if (b->pc < pr->ncode)
            add_pc(b, b->pc);
        break;
    case DBG_BP_PTX: {
        /* The line itself, or the next line that holds an instruction. */
        uint32_t best = UINT32_MAX;
        for (uint32_t pc = 0; pc < pr->ncode; pc++) {
            uint32_t l = exec_program_inst(p, pc)->line;
            if (l >= b->line && l < best)
                best = l;
        }
        for (uint32_t pc = 0; pc < pr->ncode && best != UINT32_MAX; pc++)
            if (exec_program_inst(p, pc)->line == best)
                add_pc(b, pc);
        break;
    }
    case DBG_BP_SOURCE: {
        uint32_t best = UINT32_MAX;
        for (uint32_t pc = 0; pc < pr->ncode; pc++) {
            const char *f;
            uint32_t l = dbg_srcpos(s, pc, &f);
            if (l >= b->line && l < best && strcmp(dbg_basename(f), b->name) == 0)
                best = l;
        }
        for (uint32_t pc = 0; pc < pr->ncode && best != UINT32_MAX; pc++)
            if (source_run_start(s, pc, b->name, best))
                add_pc(b, pc);
        break;
    }
    default:
        break;
    }
}

void dbg_bp_refresh(dbg_session *s)
{
    dbg_prog *pr = &s->prog;
    s->nwatch = 0;
    for (uint32_t i = 0; i < s->nbps; i++)
        s->nwatch += s->bps[i].kind == DBG_BP_WATCH && s->bps[i].enabled;
    if (!pr->p || pr->bp_gen == s->bp_gen)
        return;
    memset(pr->bp_at, 0, pr->ncode + 1);
    for (uint32_t i = 0; i < s->nbps; i++) {
        dbg_bp *b = &s->bps[i];
        resolve(s, b);
        for (uint32_t k = 0; k < b->npcs && b->enabled; k++)
            pr->bp_at[b->pcs[k]] = 1;
    }
    pr->bp_gen = s->bp_gen;
}

static void changed(dbg_session *s)
{
    s->bp_gen++;
    dbg_bp_refresh(s);
}

static dbg_bp *new_bp(dbg_session *s, uint8_t kind)
{
    if (s->nbps == s->capbps) {
        uint32_t nc = s->capbps ? s->capbps * 2 : 8;
        dbg_bp *nb = realloc(s->bps, nc * sizeof *nb);
        if (!nb)
            return NULL;
        s->bps = nb;
        s->capbps = nc;
    }
    dbg_bp *b = &s->bps[s->nbps++];
    memset(b, 0, sizeof *b);
    b->num = s->next_bp++;
    b->kind = kind;
    b->enabled = true;
    return b;
}

/* "at pc 40 (PTX line 180), dbg_kernels.cu:25" for a breakpoint's place. */
static void where(dbg_session *s, const dbg_bp *b, char *buf, size_t n)
{
    if (!s->prog.p || b->npcs == 0) {
        snprintf(buf, n, "pending");   /* resolved again at every launch */
        return;
    }
    if (b->npcs > 1) {
        snprintf(buf, n, "at %u locations", b->npcs);
        return;
    }
    uint32_t pc = b->pcs[0];
    const char *file;
    uint32_t line = dbg_srcpos(s, pc, &file);
    int k = snprintf(buf, n, "at pc %u (PTX line %u)", pc, exec_program_inst(s->prog.p, pc)->line);
    if (line && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", %s:%u", dbg_basename(file), line);
}

/* Split "LOCATION if COND" at a top-level " if ". */
static const char *split_condition(const char *args, size_t *loc_len)
{
    const char *p = args;
    for (;;) {
        const char *f = strstr(p, "if");
        if (!f) {
            *loc_len = strlen(args);
            return NULL;
        }
        bool word = (f == args || isspace((unsigned char)f[-1])) && (!f[2] || isspace((unsigned char)f[2]));
        if (word) {
            size_t n = (size_t)(f - args);
            while (n && isspace((unsigned char)args[n - 1]))
                n--;
            *loc_len = n;
            return dbg_skip(f + 2);
        }
        p = f + 2;
    }
}

static bool set_condition(dbg_session *s, dbg_bp *b, const char *text)
{
    free(b->cond_text);
    dbg_expr_free(b->cond);
    b->cond_text = NULL;
    b->cond = NULL;
    if (!text || !*text)
        return true;
    char err[200];
    dbg_expr *e = dbg_expr_parse(s, text, err, sizeof err);
    if (!e) {
        dbg_say(s, "%s\n", err);
        return false;
    }
    b->cond = e;
    b->cond_text = strdup(text);
    return true;
}

/* The source file and line the focused thread is at, for `break LINE`. */
static const char *current_file(dbg_session *s)
{
    exec_warp *w = s->run.active ? dbg_focus_warp(s, false) : NULL;
    if (!w)
        return NULL;
    const char *file;
    return dbg_srcpos(s, exec_warp_pc(w), &file) ? file : NULL;
}

void dbg_cmd_break(dbg_session *s, const char *args, bool temporary)
{
    size_t n;
    const char *cond = split_condition(dbg_skip(args), &n);
    char loc[512];
    snprintf(loc, sizeof loc, "%.*s", (int)n, dbg_skip(args));
    if (!loc[0]) {
        exec_warp *w = s->run.active ? dbg_focus_warp(s, false) : NULL;
        if (!w) {
            dbg_say(s, "No default breakpoint location: no kernel is running.\n");
            return;
        }
        snprintf(loc, sizeof loc, "*%u", exec_warp_pc(w));
    }
    uint8_t kind;
    char name[512] = "";
    uint64_t num = 0;
    const char *p = loc, *colon = strrchr(loc, ':');
    if (*p == '*' || strncmp(p, "pc:", 3) == 0) {
        p += *p == '*' ? 1 : 3;
        if (!dbg_parse_u64(&p, &num) || *dbg_skip(p)) {
            dbg_say(s, "Give a pc as a number: break *PC.\n");
            return;
        }
        kind = DBG_BP_PC;
    } else if (strncmp(p, "ptx:", 4) == 0) {
        p += 4;
        if (!dbg_parse_u64(&p, &num) || *dbg_skip(p) || !num) {
            dbg_say(s, "Give a PTX line as a number: break ptx:LINE.\n");
            return;
        }
        kind = DBG_BP_PTX;
    } else if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
               !(colon > loc && colon[-1] == ':')) {
        char path[512];
        snprintf(path, sizeof path, "%.*s", (int)(colon - loc), loc);
        snprintf(name, sizeof name, "%s", dbg_basename(path));
        if (!name[0]) {                 /* ":12", "dir/:12": no file to match */
            dbg_say(s, "No source file named \"%s\".\n", path);
            return;
        }
        num = strtoull(colon + 1, NULL, 10);
        kind = DBG_BP_SOURCE;
    } else if (isdigit((unsigned char)*p)) {
        if (!dbg_parse_u64(&p, &num) || *dbg_skip(p)) {
            dbg_say(s, "Function \"%s\" not defined.\n", loc);
            return;
        }
        /* A bare line: of the current CUDA source file, else of the PTX. */
        const char *file = current_file(s);
        if (file) {
            snprintf(name, sizeof name, "%s", dbg_basename(file));
            kind = DBG_BP_SOURCE;
        } else {
            kind = DBG_BP_PTX;
        }
    } else {
        snprintf(name, sizeof name, "%s", loc);
        kind = DBG_BP_FUNC;
    }
    dbg_bp *b = new_bp(s, kind);
    if (!b)
        return;
    b->temporary = temporary;
    b->what = strdup(loc);
    b->name = name[0] ? strdup(name) : NULL;
    b->line = (uint32_t)num;
    b->pc = (uint32_t)num;
    if (kind == DBG_BP_SOURCE) {
        free(b->what);
        char w[600];
        snprintf(w, sizeof w, "%s:%u", name, b->line);
        b->what = strdup(w);
    }
    if (!b->what || (name[0] && !b->name) || !set_condition(s, b, cond)) {
        bp_release(b);
        s->nbps--;
        s->next_bp--;
        return;
    }
    changed(s);
    char at[160];
    where(s, b, at, sizeof at);
    const char *label = temporary ? "Temporary breakpoint" : "Breakpoint";
    if (b->npcs == 1)
        dbg_say(s, "%s %d %s\n", label, b->num, at);
    else
        dbg_say(s, "%s %d (%s) %s.\n", label, b->num, b->what, at);
}

void dbg_cmd_watch(dbg_session *s, const char *args)
{
    const char *p = dbg_skip(args);
    if (!*p) {
        dbg_say(s, "Give an address: watch *(int*)ADDRESS or watch ADDRESS [BYTES].\n");
        return;
    }
    dbg_ctype ct = { 0 };
    char text[512];
    snprintf(text, sizeof text, "%s", p);
    const char *expr = text;
    uint64_t size = 4;
    uint8_t space = ISA_SPACE_GENERIC;
    uint64_t addr = 0;
    dbg_value v;
    char err[200];
    /* What a CUDA expression names (buf[5], *p) is watched as gdb does;
     * *(T*)ADDRESS: T gives the size and how values are shown. */
    bool named = dbg_expr_lvalue(s, text, &space, &addr, &ct);
    if (named) {
        size = ct.bytes;
    } else if (*p == '*') {
        const char *q = dbg_skip(p + 1);
        bool typed = *q == '(';
        if (typed) {
            q++;
            typed = dbg_parse_ctype(&q, &ct);
        }
        if (typed) {
            q = dbg_skip(q);
            typed = *q == '*';
        }
        if (typed) {
            q = dbg_skip(q + 1);
            typed = *q == ')';
        }
        if (typed) {
            size = ct.bytes;
            expr = text + (q + 1 - p);
        } else {
            dbg_say(s, "Write the type of what is watched: watch *(int*)ADDRESS.\n");
            return;
        }
    } else {
        /* ADDRESS [BYTES]: a trailing number after a blank is the size. */
        char *last = strrchr(text, ' ');
        if (last && strspn(last + 1, "0123456789") == strlen(last + 1) && last[1]) {
            size = strtoull(last + 1, NULL, 10);
            *last = 0;
        }
    }
    if (size == 0 || size > DBG_WATCH_MAX) {
        dbg_say(s, "A watchpoint covers 1 to %d bytes.\n", DBG_WATCH_MAX);
        return;
    }
    if (!named && !dbg_eval_text(s, expr, &v, err, sizeof err)) {
        dbg_say(s, "%s\n", err);
        return;
    }
    if (!named && (v.kind == DBG_V_FLT || v.kind == DBG_V_DIM3)) {
        dbg_say(s, "An address must be an integer.\n");
        return;
    }
    if (!named) {
        space = v.space;
        addr = v.u;
    }
    if (s->prog.p)
        dbg_mem_classify(s, &space, &addr);
    else if (space == ISA_SPACE_GENERIC)
        space = ISA_SPACE_GLOBAL;
    if (space != ISA_SPACE_GLOBAL && space != ISA_SPACE_SHARED) {
        dbg_say(s, "Only global and shared memory can be watched.\n");
        return;
    }
    dbg_ctx c;
    dbg_focus_ctx(s, &c);
    /* Before any program is loaded the address cannot be checked yet. */
    if (space == ISA_SPACE_GLOBAL && s->prog.p && !dbg_mem_map(s, &c, space, addr, size, err, sizeof err)) {
        dbg_say(s, "%s\n", err);
        return;
    }
    dbg_bp *b = new_bp(s, DBG_BP_WATCH);
    if (!b)
        return;
    b->what = strdup(dbg_skip(args));
    b->addr = addr;
    b->size = (uint32_t)size;
    b->space = space;
    b->ctype = ct;
    if (!b->what) {
        s->nbps--;
        return;
    }
    changed(s);
    char label[64];
    dbg_mem_label(space, addr, label, sizeof label);
    dbg_say(s, "Watchpoint %d: %s (%u bytes at %s%s)\n", b->num, b->what, b->size, label,
            space == ISA_SPACE_SHARED ? " in every block" : "");
}

static void remove_at(dbg_session *s, uint32_t i)
{
    bp_release(&s->bps[i]);
    memmove(&s->bps[i], &s->bps[i + 1], (s->nbps - i - 1) * sizeof *s->bps);
    s->nbps--;
}

void dbg_bp_remove_temporary(dbg_session *s, dbg_bp *b)
{
    if (!b->temporary)
        return;
    remove_at(s, (uint32_t)(b - s->bps));
    changed(s);
}

/* Apply fn to each breakpoint number in args ("1 3 5", "2-4"); all if none. */
static void each_number(dbg_session *s, const char *args, void (*fn)(dbg_session *, uint32_t, bool),
                        bool flag)
{
    const char *p = dbg_skip(args);
    if (!*p) {
        for (uint32_t i = s->nbps; i-- > 0;)
            fn(s, i, flag);
        return;
    }
    while (*(p = dbg_skip(p))) {
        uint64_t lo, hi;
        if (!dbg_parse_u64(&p, &lo)) {
            dbg_say(s, "Give breakpoint numbers: %s\n", p);
            return;
        }
        hi = lo;
        if (*p == '-') {
            p++;
            if (!dbg_parse_u64(&p, &hi)) {
                dbg_say(s, "Give breakpoint numbers: %s\n", p);
                return;
            }
        }
        for (uint64_t k = lo; k <= hi; k++) {
            dbg_bp *b = find(s, (int)k);
            if (!b)
                dbg_say(s, "No breakpoint number %llu.\n", (unsigned long long)k);
            else
                fn(s, (uint32_t)(b - s->bps), flag);
        }
    }
}

static void delete_one(dbg_session *s, uint32_t i, bool unused) { remove_at(s, i); }
static void enable_one(dbg_session *s, uint32_t i, bool on) { s->bps[i].enabled = on; }

void dbg_cmd_delete(dbg_session *s, const char *args)
{
    const char *p = dbg_skip(args);
    if (dbg_word(&p, "display")) {
        dbg_cmd_undisplay(s, p);
        return;
    }
    dbg_word(&p, "breakpoints");
    each_number(s, p, delete_one, false);
    changed(s);
}

void dbg_cmd_enable(dbg_session *s, const char *args, bool enable)
{
    const char *p = dbg_skip(args);
    dbg_word(&p, "breakpoints");
    each_number(s, p, enable_one, enable);
    changed(s);
}

void dbg_cmd_condition(dbg_session *s, const char *args)
{
    const char *p = dbg_skip(args);
    uint64_t num;
    if (!dbg_parse_u64(&p, &num)) {
        dbg_say(s, "Give a breakpoint number: condition N [EXPRESSION].\n");
        return;
    }
    dbg_bp *b = find(s, (int)num);
    if (!b) {
        dbg_say(s, "No breakpoint number %llu.\n", (unsigned long long)num);
        return;
    }
    p = dbg_skip(p);
    if (set_condition(s, b, p) && !*p)
        dbg_say(s, "Breakpoint %d now unconditional.\n", b->num);
}

void dbg_cmd_info_breakpoints(dbg_session *s)
{
    if (!s->nbps) {
        dbg_say(s, "No breakpoints or watchpoints.\n");
        return;
    }
    dbg_say(s, "Num     Type           Disp Enb What\n");
    for (uint32_t i = 0; i < s->nbps; i++) {
        const dbg_bp *b = &s->bps[i];
        char at[160] = "";
        if (b->kind != DBG_BP_WATCH)
            where(s, b, at, sizeof at);
        dbg_say(s, "%-7d %-14s %-4s %-3s %s%s%s%s\n", b->num,
                b->kind == DBG_BP_WATCH ? "watchpoint" : "breakpoint", b->temporary ? "del" : "keep",
                b->enabled ? "y" : "n", b->what, at[0] ? " " : "", at,
                b->kind == DBG_BP_FUNC && b->once ? " (kernel entry)" : "");
        if (b->cond_text)
            dbg_say(s, "\tstop only if %s\n", b->cond_text);
        if (b->hits)
            dbg_say(s, "\tbreakpoint already hit %llu time%s\n", (unsigned long long)b->hits,
                    b->hits == 1 ? "" : "s");
    }
}

/* ---- hits --------------------------------------------------------------------- */

bool dbg_bp_check(dbg_session *s, exec_warp *w, uint32_t pc, dbg_bp **out_bp, unsigned *out_lane,
                  char *out_err, size_t n)
{
    uint32_t lanes = dbg_warp_lanes_at_pc(w);
    out_err[0] = 0;
    if (!lanes)
        return false;
    for (uint32_t i = 0; i < s->nbps; i++) {
        dbg_bp *b = &s->bps[i];
        if (!b->enabled || b->kind == DBG_BP_WATCH || (b->once && b->fired_launch == s->launches))
            continue;
        bool here = false;
        for (uint32_t k = 0; k < b->npcs && !here; k++)
            here = b->pcs[k] == pc;
        if (!here)
            continue;
        /* The focused thread first, if it is here: a person following one
         * thread stays with it. */
        int hit = -1;
        bool focus_first = w == dbg_focus_warp(s, false) && (lanes >> s->focus.lane) & 1;
        for (uint32_t rest = lanes; rest && hit < 0;) {
            unsigned l = focus_first ? s->focus.lane : (unsigned)__builtin_ctz(rest);
            focus_first = false;
            rest &= ~(1u << l);
            if (!b->cond) {
                hit = (int)l;
                break;
            }
            dbg_ctx c = { w, l, 0 };
            dbg_value v;
            char err[200];
            if (!dbg_expr_eval(s, b->cond, &c, &v, err, sizeof err)) {
                snprintf(out_err, n, "Error in testing condition for breakpoint %d: %s", b->num, err);
                hit = (int)l;
            } else if (dbg_value_truth(&v)) {
                hit = (int)l;
            }
        }
        if (hit < 0)
            continue;
        b->hits++;
        b->fired_launch = s->launches;
        *out_bp = b;
        *out_lane = (unsigned)hit;
        return true;
    }
    return false;
}

/* The bytes a watchpoint covers in w's view (its block's shared memory). */
static uint8_t *watched(dbg_session *s, const dbg_bp *b, exec_warp *w)
{
    if (b->space == ISA_SPACE_GLOBAL) {
        const isa_mem *win = exec_memory_windows(exec_program_memory(s->prog.p));
        return b->addr >= win->global_lo && b->addr + b->size <= win->global_hi
                   ? (uint8_t *)(uintptr_t)b->addr : NULL;
    }
    uint32_t bytes;
    uint8_t *sh = exec_cta_shared(exec_warp_cta(w), &bytes);
    return b->addr + b->size <= bytes ? sh + b->addr : NULL;
}

void dbg_watch_before(dbg_session *s, exec_warp *w, dbg_watch_probe *pr)
{
    pr->n = 0;
    isa_access acc;
    if (!exec_warp_peek_access(w, &acc) || !acc.lanes)
        return;
    for (uint32_t i = 0; i < s->nbps && pr->n < 8; i++) {
        const dbg_bp *b = &s->bps[i];
        if (b->kind != DBG_BP_WATCH || !b->enabled)
            continue;
        bool shared = acc.space == ISA_SPACE_SHARED;
        bool global = acc.space == ISA_SPACE_GLOBAL || acc.space == ISA_SPACE_GENERIC;
        if ((b->space == ISA_SPACE_SHARED && !shared) || (b->space == ISA_SPACE_GLOBAL && !global))
            continue;
        unsigned bytes = acc.bytes ? acc.bytes : 1;
        for (uint32_t rest = acc.lanes; rest;) {
            unsigned l = (unsigned)__builtin_ctz(rest);
            rest &= rest - 1;
            uint64_t a = shared ? acc.addr[l] & 0xFFFFFFFFu : acc.addr[l];
            if (a < b->addr + b->size && b->addr < a + bytes) {
                uint8_t *now = watched(s, b, w);
                if (!now)
                    break;
                pr->idx[pr->n] = i;
                pr->lane[pr->n] = l;
                memcpy(pr->before[pr->n], now, b->size);
                pr->n++;
                break;
            }
        }
    }
}

dbg_bp *dbg_watch_after(dbg_session *s, exec_warp *w, const dbg_watch_probe *pr, unsigned *out_lane)
{
    for (uint32_t k = 0; k < pr->n; k++) {
        dbg_bp *b = &s->bps[pr->idx[k]];
        uint8_t *now = watched(s, b, w);
        if (!now || memcmp(now, pr->before[k], b->size) == 0)
            continue;
        memcpy(b->old, pr->before[k], b->size);
        b->have_old = true;
        b->hits++;
        *out_lane = pr->lane[k];
        return b;
    }
    return NULL;
}

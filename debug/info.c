/*
 * info.c -- the `info` commands: breakpoints, the warps, lanes and blocks
 * of the launch (cuda-gdb's `info cuda ...`), the SIMT reconvergence stack
 * of the focused warp, its registers, displays and the selected frame.
 */
#include "dbg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void where_short(dbg_session *s, uint32_t pc, char *buf, size_t n)
{
    const char *file;
    uint32_t line = dbg_srcpos(s, pc, &file);
    if (line)
        snprintf(buf, n, "%s:%u", dbg_basename(file), line);
    else
        snprintf(buf, n, "-");
}

static exec_cta *focus_cta(dbg_session *s)
{
    exec_warp *w = dbg_focus_warp(s, true);
    return w ? exec_warp_cta(w) : NULL;
}

static void info_warps(dbg_session *s)
{
    exec_cta *c = focus_cta(s);
    if (!c)
        return;
    uint32_t b[3];
    exec_cta_id(c, b);
    dbg_say(s, "Warps of block (%u,%u,%u):\n", b[0], b[1], b[2]);
    dbg_say(s, "  Wp  State        PC     PTX line  Source                Active      Valid\n");
    for (uint32_t i = 0; i < exec_cta_nwarps(c); i++) {
        exec_warp *w = exec_cta_warp(c, i);
        int st = exec_warp_state(w);
        char state[32], src[128] = "-", pc[16] = "-", line[16] = "-";
        if (st == EXEC_WARP_DONE) {
            snprintf(state, sizeof state, "exited");
        } else {
            /* A warp at a barrier shows the barrier, not the pc past it. */
            uint32_t at = exec_warp_pc(w) - (st == EXEC_WARP_BARRIER);
            if (st == EXEC_WARP_BARRIER)
                snprintf(state, sizeof state, "barrier %u", exec_warp_barrier(w));
            else
                snprintf(state, sizeof state, "running");
            snprintf(pc, sizeof pc, "%u", at);
            snprintf(line, sizeof line, "%u", exec_program_inst(s->prog.p, at)->line);
            where_short(s, at, src, sizeof src);
        }
        dbg_say(s, "%c %-3u %-12s %-6s %-9s %-21s 0x%08x  0x%08x\n", i == s->focus.warp ? '*' : ' ', i,
                state, pc, line, src, dbg_warp_lanes_at_pc(w), exec_warp_valid(w));
    }
}

/* The pc lane `lane` waits at: the topmost SIMT entry that holds it. */
static bool lane_pc(const exec_simt_view *st, uint32_t depth, unsigned lane, uint32_t *pc)
{
    for (uint32_t i = depth; i-- > 0;)
        if ((st[i].mask >> lane) & 1) {
            *pc = st[i].pc;
            return true;
        }
    return false;
}

static void info_lanes(dbg_session *s)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    uint32_t b[3];
    exec_cta_id(exec_warp_cta(w), b);
    exec_simt_view st[64];
    uint32_t depth = exec_warp_stack(w, st, 64);
    depth = depth < 64 ? depth : 64;
    uint32_t active = dbg_warp_lanes_at_pc(w);
    bool barrier = exec_warp_state(w) == EXEC_WARP_BARRIER;
    dbg_say(s, "Lanes of warp %u in block (%u,%u,%u):\n", s->focus.warp, b[0], b[1], b[2]);
    dbg_say(s, "  Ln  State      Thread         PC     PTX line  Source\n");
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++) {
        if (!((exec_warp_valid(w) >> l) & 1))
            continue;
        uint32_t t[3], pc = 0;
        exec_warp_tid(w, l, t);
        char thread[40], state[16], pcs[16] = "-", line[16] = "-", src[128] = "-";
        snprintf(thread, sizeof thread, "(%u,%u,%u)", t[0], t[1], t[2]);
        if ((exec_warp_exited(w) >> l) & 1 || exec_warp_state(w) == EXEC_WARP_DONE) {
            snprintf(state, sizeof state, "exited");
        } else {
            bool apart = exec_warp_lane_apart(w, l, &pc);
            snprintf(state, sizeof state, "%s",
                     apart ? "apart" : (active >> l) & 1 ? (barrier ? "barrier" : "active") : "divergent");
            if (apart || lane_pc(st, depth, l, &pc)) {
                if (barrier && (active >> l) & 1)
                    pc--;               /* the barrier, not the pc past it */
                snprintf(pcs, sizeof pcs, "%u", pc);
                snprintf(line, sizeof line, "%u", exec_program_inst(s->prog.p, pc)->line);
                where_short(s, pc, src, sizeof src);
            }
        }
        dbg_say(s, "%c %-3u %-10s %-14s %-6s %-9s %s\n", l == s->focus.lane ? '*' : ' ', l, state, thread,
                pcs, line, src);
    }
}

static void coords(const dbg_session *s, uint64_t linear, char *buf, size_t n)
{
    const uint32_t *g = s->run.l.grid;
    snprintf(buf, n, "(%u,%u,%u)", (uint32_t)(linear % g[0]), (uint32_t)(linear / g[0] % g[1]),
             (uint32_t)(linear / ((uint64_t)g[0] * g[1])));
}

static void block_range(dbg_session *s, uint64_t lo, uint64_t hi, const char *what)
{
    if (lo >= hi)
        return;
    char a[40], b[40], range[90];
    coords(s, lo, a, sizeof a);
    coords(s, hi - 1, b, sizeof b);
    if (hi - lo == 1)
        snprintf(range, sizeof range, "%s", a);
    else
        snprintf(range, sizeof range, "%s-%s", a, b);
    dbg_say(s, "  %-25s %s (%llu block%s)\n", range, what, (unsigned long long)(hi - lo),
            hi - lo == 1 ? "" : "s");
}

static void info_blocks(dbg_session *s)
{
    if (!s->run.active) {
        dbg_say(s, "No kernel is running.\n");
        return;
    }
    const dbg_run *r = &s->run;
    dbg_say(s, "  %-25s State\n", "Block");
    if (!r->l.cooperative && r->nres)
        block_range(s, 0, r->linear[0], "done");
    for (uint64_t i = 0; i < r->nres; i++) {
        exec_cta *c = r->ctas[i];
        uint32_t waiting = 0, done = 0, nw = exec_cta_nwarps(c);
        for (uint32_t k = 0; k < nw; k++) {
            int st = exec_warp_state(exec_cta_warp(c, k));
            waiting += st == EXEC_WARP_BARRIER;
            done += st == EXEC_WARP_DONE;
        }
        char id[64];
        coords(s, r->linear[i], id, sizeof id);
        uint32_t csize, rank = exec_cta_cluster_rank(c, &csize);
        if (csize > 1) {
            size_t used = strlen(id);
            snprintf(id + used, sizeof id - used, " rank %u/%u", rank, csize);
        }
        if (done == nw)
            dbg_say(s, "%c %-25s done\n", r->linear[i] == s->focus.cta ? '*' : ' ', id);
        else
            dbg_say(s, "%c %-25s running: %u warp%s, %u at a barrier, %u exited\n",
                    r->linear[i] == s->focus.cta ? '*' : ' ', id, nw, nw == 1 ? "" : "s", waiting, done);
    }
    if (!r->l.cooperative)
        block_range(s, r->nres ? r->linear[0] + 1 : r->next_cta, r->nctas, "not started");
}

static void info_kernels(dbg_session *s)
{
    if (!s->run.active) {
        dbg_say(s, "No kernel is running.\n");
        return;
    }
    const dbg_run *r = &s->run;
    const char *name = exec_program_kernel_info(r->p, r->kernel)->name;
    char short_name[256], grid[48], block[48];
    dbg_short_name(s, name, short_name, sizeof short_name);
    snprintf(grid, sizeof grid, "(%u,%u,%u)", r->l.grid[0], r->l.grid[1], r->l.grid[2]);
    snprintf(block, sizeof block, "(%u,%u,%u)", r->l.block[0], r->l.block[1], r->l.block[2]);
    dbg_say(s, "  Launch  Kernel               Grid           Block          Name in the PTX\n");
    dbg_say(s, "* %-7llu %-20s %-14s %-14s %s\n", (unsigned long long)s->launches, short_name, grid, block,
            name);
}

static void info_simt(dbg_session *s)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    uint32_t b[3];
    exec_cta_id(exec_warp_cta(w), b);
    exec_simt_view st[64];
    uint32_t depth = exec_warp_stack(w, st, 64);
    if (exec_warp_state(w) == EXEC_WARP_DONE || depth == 0) {
        dbg_say(s, "Warp %u of block (%u,%u,%u) has exited: its SIMT stack is empty.\n", s->focus.warp,
                b[0], b[1], b[2]);
        return;
    }
    dbg_say(s, "SIMT stack of warp %u in block (%u,%u,%u), top first:\n", s->focus.warp, b[0], b[1], b[2]);
    if (depth > 64)
        dbg_say(s, "  (only the bottom 64 of %u entries are shown)\n", depth);
    uint32_t shown = depth < 64 ? depth : 64;
    for (uint32_t i = shown; i-- > 0;) {
        char rpc[64];
        if (st[i].rpc == ISA_PC_EXIT)
            snprintf(rpc, sizeof rpc, "rpc -");
        else if (st[i].rpc == DBG_RPC_CALL)
            snprintf(rpc, sizeof rpc, "rpc ret (a call)");
        else
            snprintf(rpc, sizeof rpc, "rpc %u (PTX line %u)", st[i].rpc,
                     exec_program_inst(s->prog.p, st[i].rpc)->line);
        char pc[48];
        snprintf(pc, sizeof pc, "pc %u (PTX line %u)", st[i].pc, exec_program_inst(s->prog.p, st[i].pc)->line);
        if (i == depth - 1)
            dbg_say(s, "  #%-2u %-22s mask 0x%08x  %-24s <- executes\n", i, pc, st[i].mask, rpc);
        else
            dbg_say(s, "  #%-2u %-22s mask 0x%08x  %s\n", i, pc, st[i].mask, rpc);
    }
}

/* Does register `name` pass the filter words (exact names or prefixes)? */
static bool wanted(const char *filter, const char *name, const char *decl)
{
    if (!*filter)
        return true;
    for (const char *p = filter; *(p = dbg_skip(p));) {
        size_t n = strcspn(p, " \t");
        if ((strlen(name) == n && strncmp(name, p, n) == 0) || (strlen(decl) == n && strncmp(decl, p, n) == 0))
            return true;
        p += n;
    }
    return false;
}

static void info_registers(dbg_session *s, const char *filter)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    exec_frame_view fv;
    if (!exec_warp_frame(w, s->focus.level, &fv))
        return;
    const isa_func *f = &s->prog.m->funcs[fv.func];
    bool any = false;
    for (uint32_t i = 0; i < f->nregdecls; i++) {
        const isa_regdecl *d = &f->regs[i];
        if (strncmp(d->name, "%__", 3) == 0)
            continue;                   /* the parser's hidden registers */
        uint32_t count = d->count ? d->count : 1;
        for (uint32_t k = 0; k < count; k++) {
            char name[80];
            if (d->count)
                snprintf(name, sizeof name, "%s%u", d->name, k);
            else
                snprintf(name, sizeof name, "%s", d->name);
            if (!wanted(filter, name, d->name))
                continue;
            /* a .b128 register takes two columns (isa_reg_slots) */
            uint32_t reg = d->base + k * (d->type == ISA_TYPE_PRED ? 1u : isa_reg_slots(d->type));
            dbg_value v = dbg_reg_value(w, s->focus.level, reg, d->type, s->focus.lane);
            char hex[40], nat[64];
            dbg_value_format(&v, 'x', hex, sizeof hex);
            dbg_value_format(&v, 0, nat, sizeof nat);
            dbg_say(s, "%-14s .%-6s %-20s %s\n", name, isa_types[d->type].name, hex, nat);
            any = true;
        }
    }
    if (!any)
        dbg_say(s, "No such register in this frame.\n");
}

static void info_display(dbg_session *s)
{
    if (!s->ndisp) {
        dbg_say(s, "There are no auto-display expressions now.\n");
        return;
    }
    dbg_say(s, "Auto-display expressions now in effect:\nNum Expression\n");
    for (uint32_t i = 0; i < s->ndisp; i++) {
        char f[4] = "";
        if (s->disp[i].fmt)
            snprintf(f, sizeof f, "/%c ", s->disp[i].fmt);
        dbg_say(s, "%-3d %s%s\n", s->disp[i].num, f, s->disp[i].text);
    }
}

static void info_frame(dbg_session *s)
{
    exec_warp *w = dbg_focus_warp(s, true);
    if (!w)
        return;
    exec_frame_view fv;
    if (exec_warp_state(w) == EXEC_WARP_DONE || !exec_warp_frame(w, s->focus.level, &fv)) {
        dbg_say(s, "The focused warp has exited.\n");
        return;
    }
    char line[600];
    dbg_frame_line(s, w, s->focus.level, line, sizeof line);
    dbg_say(s, "Stack level %u, frame of %s\n", s->focus.level, line);
    if (s->focus.level + 1 < exec_warp_depth(w)) {
        dbg_frame_line(s, w, s->focus.level + 1, line, sizeof line);
        dbg_say(s, " called by frame at level %u: %s\n", s->focus.level + 1, line);
    }
    if (s->focus.level > 0) {
        dbg_frame_line(s, w, s->focus.level - 1, line, sizeof line);
        dbg_say(s, " caller of frame at level %u: %s\n", s->focus.level - 1, line);
    }
    dbg_say(s, " its locals start at local:0x%llx in each thread's local memory\n",
            (unsigned long long)fv.local);
}

/* The unique subcommand `word` abbreviates, or NULL. */
static const char *pick(dbg_session *s, const char **p, const char *const *names, size_t n)
{
    const char *q = dbg_skip(*p);
    size_t len = strcspn(q, " \t");
    if (!len)
        return NULL;
    const char *found = NULL;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(names[i], q, len) != 0)
            continue;
        if (strlen(names[i]) == len) {
            found = names[i];
            break;
        }
        if (found) {
            dbg_say(s, "Ambiguous info command \"%.*s\".\n", (int)len, q);
            return "";
        }
        found = names[i];
    }
    *p = dbg_skip(q + len);
    return found;
}

static const char *const info_top[] = { "breakpoints", "watchpoints", "cuda", "warps", "lanes", "simt",
                                        "registers", "display", "frame", "blocks", "kernels", "locals",
                                        "args" };
static const char *const info_cuda[] = { "warps", "lanes", "threads", "blocks", "kernels" };

void dbg_cmd_info(dbg_session *s, const char *args)
{
    const char *p = args;
    const char *w = NULL;
    /* gdb's short forms first: `info b` is breakpoints, `info r` registers. */
    if (dbg_word(&p, "b") || dbg_word(&p, "br") || dbg_word(&p, "break"))
        w = "breakpoints";
    else if (dbg_word(&p, "r") || dbg_word(&p, "reg"))
        w = "registers";
    else
        w = pick(s, &p, info_top, sizeof info_top / sizeof info_top[0]);
    if (w && !strcmp(w, "cuda")) {
        w = pick(s, &p, info_cuda, sizeof info_cuda / sizeof info_cuda[0]);
        if (w && !strcmp(w, "threads"))
            w = "lanes";
    }
    if (!w) {
        dbg_say(s, "Say which: info breakpoints | cuda warps | cuda lanes | cuda blocks | cuda kernels\n"
                   "          | simt | registers [REG...] | locals | args | display | frame\n");
        return;
    }
    if (!*w)
        return;
    if (!strcmp(w, "breakpoints") || !strcmp(w, "watchpoints"))
        dbg_cmd_info_breakpoints(s);
    else if (!strcmp(w, "warps"))
        info_warps(s);
    else if (!strcmp(w, "lanes"))
        info_lanes(s);
    else if (!strcmp(w, "blocks"))
        info_blocks(s);
    else if (!strcmp(w, "kernels"))
        info_kernels(s);
    else if (!strcmp(w, "simt"))
        info_simt(s);
    else if (!strcmp(w, "registers"))
        info_registers(s, p);
    else if (!strcmp(w, "display"))
        info_display(s);
    else if (!strcmp(w, "frame"))
        info_frame(s);
    else if (!strcmp(w, "locals") || !strcmp(w, "args")) {
        dbg_ctx c;
        dbg_focus_ctx(s, &c);
        if (c.w)
            dbg_dwarf_locals(s, &c, w[0] == 'a');
        else
            dbg_focus_warp(s, true);
    }
}

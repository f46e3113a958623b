/*
 * launch.c -- a launch under the debugger.
 *
 * The scheduler below makes the same choices as exec/grid.c's functional
 * scheduler: CTAs one after another in launch order (all at once for a
 * cooperative launch), inside them warps taking turns of EXEC_SLICE
 * instructions or until they wait at a barrier, barriers released when a
 * whole round makes no progress.  It only steps one warp-instruction at a
 * time through exec_warp_step, so it can stop between any two: before an
 * instruction with a breakpoint, after one that changed a watched byte,
 * at a fault, or when a step of the focused warp is done.
 *
 * Stepping commands step the focused warp directly.  While it waits at a
 * barrier the scheduler runs the others until the barrier opens (they may
 * stop at breakpoints on the way, as threads do under gdb).
 */
#include "dbg_int.h"

#include <stdlib.h>
#include <string.h>

/* What running ended with: a step done, a stop (reported), the end of the
 * launch, or nothing run at all (a command that could not start). */
enum { EV_STEPPED, EV_STOP, EV_DONE, EV_IDLE };

/* ---- focus ---------------------------------------------------------------- */

exec_cta *dbg_resident(dbg_session *s, uint64_t linear)
{
    const dbg_run *r = &s->run;
    for (uint64_t i = 0; r->active && i < r->nres; i++)
        if (r->linear[i] == linear)
            return r->ctas[i];
    return NULL;
}

uint64_t dbg_cta_linear(const dbg_session *s, const uint32_t ctaid[3])
{
    const uint32_t *g = s->run.l.grid;
    return ctaid[0] + (uint64_t)g[0] * (ctaid[1] + (uint64_t)g[1] * ctaid[2]);
}

static void cta_coords(const dbg_session *s, uint64_t linear, uint32_t out[3])
{
    const uint32_t *g = s->run.l.grid;
    out[0] = (uint32_t)(linear % g[0]);
    out[1] = (uint32_t)(linear / g[0] % g[1]);
    out[2] = (uint32_t)(linear / ((uint64_t)g[0] * g[1]));
}

exec_warp *dbg_focus_warp(dbg_session *s, bool say)
{
    if (!s->run.active) {
        if (say)
            dbg_say(s, "No kernel is running.\n");
        return NULL;
    }
    exec_cta *c = s->focus.valid ? dbg_resident(s, s->focus.cta) : NULL;
    if (!c) {
        if (say) {
            uint32_t b[3];
            cta_coords(s, s->focus.cta, b);
            dbg_say(s, "Block (%u,%u,%u) is not running now; choose another with `cuda block`.\n", b[0],
                    b[1], b[2]);
        }
        return NULL;
    }
    return exec_cta_warp(c, s->focus.warp);
}

uint32_t dbg_warp_lanes_at_pc(const exec_warp *w)
{
    return exec_warp_state(w) == EXEC_WARP_DONE ? 0 : exec_warp_active(w);
}

void dbg_set_focus(dbg_session *s, uint64_t cta, uint32_t warp, uint32_t lane, bool say)
{
    bool same = s->focus.valid && s->focus.cta == cta && s->focus.warp == warp && s->focus.lane == lane;
    s->focus = (dbg_focus){ true, cta, warp, lane, 0 };
    s->list_next = 0;
    if (same || !say)
        return;
    exec_warp *w = dbg_focus_warp(s, false);
    uint32_t b[3], t[3] = { 0, 0, 0 };
    cta_coords(s, cta, b);
    if (w)
        exec_warp_tid(w, lane, t);
    dbg_say(s, "[Switching focus to block (%u,%u,%u), thread (%u,%u,%u), warp %u, lane %u]\n", b[0], b[1],
            b[2], t[0], t[1], t[2], warp, lane);
}

static void focus_on(dbg_session *s, exec_warp *w, unsigned lane)
{
    uint32_t id[3];
    exec_cta_id(exec_warp_cta(w), id);
    dbg_set_focus(s, dbg_cta_linear(s, id), exec_warp_index(w), lane, true);
}

/* ---- the scheduler ------------------------------------------------------------ */

static ptx_status begin_cta(dbg_session *s, uint64_t linear, uint64_t slot)
{
    dbg_run *r = &s->run;
    uint32_t nsm = r->l.nsm ? r->l.nsm : 1;
    ptx_status st = exec_cta_begin(r->g, linear, (uint32_t)(linear % nsm), &r->ctas[slot]);
    if (st != PTX_OK)
        return st;
    r->linear[slot] = linear;
    return PTX_OK;
}

static void end_resident(dbg_session *s, bool completed)
{
    dbg_run *r = &s->run;
    for (uint64_t i = 0; i < r->nres; i++) {
        exec_cta_end(r->ctas[i]);
        r->stats->ctas += completed;
    }
    r->nres = 0;
    r->skip_warp = NULL;                /* its memory may hold another warp soon */
}

/* A failure that is not any one warp's: a deadlock, or no memory. */
static void report_launch_fault(dbg_session *s, ptx_status st)
{
    dbg_run *r = &s->run;
    r->fault = st;
    if (!r->err.msg[0])
        snprintf(r->err.msg, sizeof r->err.msg, "%s", ptx_status_message(st));
    r->err.st = st;
    /* Show the first warp that waits, where a deadlock holds it. */
    for (uint64_t i = 0; i < r->nres; i++)
        for (uint32_t k = 0; k < exec_cta_nwarps(r->ctas[i]); k++) {
            exec_warp *w = exec_cta_warp(r->ctas[i], k);
            uint32_t lanes = dbg_warp_lanes_at_pc(w);
            if (exec_warp_state(w) == EXEC_WARP_BARRIER && lanes) {
                focus_on(s, w, (unsigned)__builtin_ctz(lanes));
                dbg_say(s, "\nKernel fault: %s\n", r->err.msg);
                dbg_show_location(s, "");
                return;
            }
        }
    dbg_say(s, "\nKernel fault: %s\n", r->err.msg);
}

/* The next warp to step, or NULL at the end of the launch (*ev EV_DONE) or
 * when it cannot go on (*ev EV_STOP, reported). */
static exec_warp *sched_pick(dbg_session *s, int *ev)
{
    dbg_run *r = &s->run;
    for (;;) {
        if (r->nres == 0) {
            if (r->next_cta >= r->nctas) {
                *ev = EV_DONE;
                return NULL;
            }
            uint32_t csize = exec_grid_cluster_size(r->g);
            ptx_status st = PTX_OK;
            for (uint32_t k = 0; k < csize && st == PTX_OK; k++) {
                st = begin_cta(s, exec_grid_cluster_cta(r->g, r->next_cta / csize, k), k);
                r->nres += st == PTX_OK;
            }
            if (st != PTX_OK) {
                report_launch_fault(s, st);
                *ev = EV_STOP;
                return NULL;
            }
            r->next_cta += csize;
            r->ci = r->wi = r->used = 0;
            r->progress = r->spun = false;
        }
        while (r->ci < r->nres) {
            exec_cta *c = r->ctas[r->ci];
            uint32_t nw = exec_cta_nwarps(c);
            while (r->wi < nw) {
                exec_warp *w = exec_cta_warp(c, r->wi);
                if (exec_warp_state(w) == EXEC_WARP_RUNNING && r->used < EXEC_SLICE) {
                    r->progress = true;
                    return w;
                }
                r->wi++;
                r->used = 0;
            }
            r->ci++;
            r->wi = 0;
        }
        /* The end of a round. */
        bool all_done = true;
        for (uint64_t i = 0; i < r->nres; i++) {
            exec_cta *c = r->ctas[i];
            if (exec_cta_done(c))
                continue;
            all_done = false;
            if ((!r->progress || r->spun) && !exec_cta_sync(c, &r->err)) {   /* as exec/grid.c does */
                report_launch_fault(s, PTX_E_DEADLOCK);
                *ev = EV_STOP;
                return NULL;
            }
        }
        r->ci = r->wi = r->used = 0;
        r->progress = r->spun = false;
        if (all_done) {
            end_resident(s, true);
            if (r->l.cooperative) {
                *ev = EV_DONE;
                return NULL;
            }
        }
    }
}

/* ---- stops ------------------------------------------------------------------------ */

/* Every stop leaves the focused warp where it is; resuming must not stop
 * it again before it has moved. */
static void remember_stop(dbg_session *s)
{
    exec_warp *w = dbg_focus_warp(s, false);
    s->run.skip_warp = w;
    s->run.skip_pc = w ? exec_warp_pc(w) : 0;
    s->list_next = 0;                   /* `list` shows the new place */
}

static void report_fault(dbg_session *s, exec_warp *w)
{
    dbg_run *r = &s->run;
    /* The lane whose thread the report names. */
    unsigned lane = 0;
    for (unsigned l = 0; l < ISA_WARP_SIZE; l++) {
        uint32_t t[3];
        exec_warp_tid(w, l, t);
        if (memcmp(t, r->err.tid, sizeof t) == 0) {
            lane = l;
            break;
        }
    }
    focus_on(s, w, lane);
    dbg_say(s, "\nKernel fault: %s\n", r->err.msg);
    dbg_show_location(s, "");
}

static void show_watch_value(dbg_session *s, const dbg_bp *b, const uint8_t *bytes, const char *what)
{
    char v[64];
    if (b->ctype.bytes) {
        uint64_t bits = 0;
        memcpy(&bits, bytes, b->ctype.bytes);
        dbg_value x = dbg_value_from_bits(bits, b->ctype.type);
        dbg_value_format(&x, 0, v, sizeof v);
        dbg_say(s, "%s = %s\n", what, v);
        return;
    }
    dbg_say(s, "%s =", what);
    for (uint32_t i = 0; i < b->size; i++)
        dbg_say(s, " %02x", bytes[i]);
    dbg_say(s, "\n");
}

static void report_watch(dbg_session *s, exec_warp *w, dbg_bp *b, unsigned lane, uint32_t pc)
{
    focus_on(s, w, lane);
    dbg_say(s, "\nWatchpoint %d: %s\n\n", b->num, b->what);
    show_watch_value(s, b, b->old, "Old value");
    dbg_ctx c = { w, lane, 0 };
    char err[200];
    const uint8_t *now = dbg_mem_map(s, &c, b->space, b->addr, b->size, err, sizeof err);
    if (now)
        show_watch_value(s, b, now, "New value");
    const char *file;
    uint32_t line = dbg_srcpos(s, pc, &file);
    dbg_say(s, "written at pc %u (PTX line %u)", pc, exec_program_inst(s->run.p, pc)->line);
    if (line)
        dbg_say(s, ", %s:%u", dbg_basename(file), line);
    dbg_say(s, "\n");
    dbg_show_location(s, "");
}

/* ---- one warp-instruction -------------------------------------------------------------- */

bool dbg_interrupt(dbg_session *s)
{
    if (!s || !s->in_launch)
        return false;
    s->interrupted = 1;
    return true;
}

static int step_one(dbg_session *s, exec_warp *w, bool check_breakpoints)
{
    dbg_run *r = &s->run;
    uint32_t pc = exec_warp_pc(w);
    if (s->interrupted) {
        s->interrupted = 0;
        uint32_t lanes = dbg_warp_lanes_at_pc(w);
        unsigned lane = lanes && !((lanes >> s->focus.lane) & 1) ? (unsigned)__builtin_ctz(lanes)
                                                                 : s->focus.lane;
        focus_on(s, w, lane);
        dbg_say(s, "\nProgram received signal SIGINT, Interrupt.\n");
        dbg_show_location(s, "");
        return EV_STOP;
    }
    bool skip = w == r->skip_warp && pc == r->skip_pc;
    if (w == r->skip_warp)
        r->skip_warp = NULL;
    if (check_breakpoints && !skip && pc < s->prog.ncode && s->prog.bp_at[pc]) {
        dbg_bp *b;
        unsigned lane;
        char err[300];
        if (dbg_bp_check(s, w, pc, &b, &lane, err, sizeof err)) {
            focus_on(s, w, lane);
            if (err[0])
                dbg_say(s, "%s\n", err);
            char prefix[64];
            snprintf(prefix, sizeof prefix, "\n%s %d, ", b->temporary ? "Temporary breakpoint" : "Breakpoint",
                     b->num);
            dbg_show_location(s, prefix);
            dbg_bp_remove_temporary(s, b);
            return EV_STOP;
        }
    }
    if (r->budget == 0) {
        exec_warp_error(w, PTX_E_HANG, &r->err);
        r->fault = PTX_E_HANG;
        report_fault(s, w);
        return EV_STOP;
    }
    dbg_watch_probe probe;
    probe.n = 0;
    if (s->nwatch)
        dbg_watch_before(s, w, &probe);
    ptx_status st = exec_warp_step(w, ~0u, r->stats, NULL, &r->err);
    r->budget--;
    if (r->ci < r->nres && r->ctas[r->ci] == exec_warp_cta(w) && r->wi == exec_warp_index(w))
        r->used = exec_warp_yielded(w) ? EXEC_SLICE : r->used + 1;   /* a failed mbarrier wait ends the turn */
    r->spun = r->spun || exec_warp_yielded(w);
    if (st != PTX_OK) {
        r->fault = st;
        report_fault(s, w);
        return EV_STOP;
    }
    if (probe.n) {
        unsigned lane;
        dbg_bp *b = dbg_watch_after(s, w, &probe, &lane);
        if (b) {
            report_watch(s, w, b, lane, pc);
            return EV_STOP;
        }
    }
    return EV_STEPPED;
}

static int run_continue(dbg_session *s)
{
    for (;;) {
        int ev;
        exec_warp *w = sched_pick(s, &ev);
        if (!w)
            return ev;
        if ((ev = step_one(s, w, true)) != EV_STEPPED)
            return ev;
    }
}

/* One instruction of the focused warp (after its barrier opens). */
static int step_focus(dbg_session *s)
{
    exec_warp *f = dbg_focus_warp(s, true);
    if (!f)
        return EV_IDLE;
    while (exec_warp_state(f) == EXEC_WARP_BARRIER) {
        int ev;
        exec_warp *w = sched_pick(s, &ev);
        if (!w)
            return ev == EV_DONE ? EV_STOP : ev;
        if ((ev = step_one(s, w, true)) != EV_STEPPED)
            return ev;
    }
    if (exec_warp_state(f) == EXEC_WARP_DONE) {
        dbg_say(s, "The focused warp has exited; use `continue`, or choose another with `cuda`.\n");
        return EV_IDLE;
    }
    return step_one(s, f, false);
}

static bool focus_exited(dbg_session *s)
{
    exec_warp *f = dbg_focus_warp(s, false);
    if (f && exec_warp_state(f) != EXEC_WARP_DONE)
        return false;
    dbg_say(s, "[The focused warp has exited]\n");
    return true;
}

/* The line a step moves off: the CUDA source line, or without line
 * information the PTX line (one instruction, calls stepped over by next). */
static uint32_t step_line_of(dbg_session *s, uint32_t pc, bool source, const char **file)
{
    if (source)
        return dbg_srcpos(s, pc, file);
    *file = "";
    return exec_program_inst(s->prog.p, pc)->line;
}

/* step / next: until the focused warp is on another line. */
static int step_line(dbg_session *s, bool over)
{
    exec_warp *f = dbg_focus_warp(s, true);
    if (!f)
        return EV_IDLE;
    const char *file0;
    bool source = dbg_srcpos(s, exec_warp_pc(f), &file0) != 0;
    uint32_t line0 = step_line_of(s, exec_warp_pc(f), source, &file0);
    uint32_t depth0 = exec_warp_depth(f) - s->focus.level;
    for (;;) {
        int ev = step_focus(s);
        if (ev != EV_STEPPED)
            return ev;
        if (focus_exited(s))
            return EV_STOP;
        f = dbg_focus_warp(s, false);
        uint32_t depth = exec_warp_depth(f);
        if (depth < depth0)
            return EV_STEPPED;          /* returned to the caller */
        if (over && depth > depth0)
            continue;
        const char *file;
        uint32_t line = step_line_of(s, exec_warp_pc(f), source, &file);
        if (line && (line != line0 || strcmp(file, file0) != 0 || depth != depth0))
            return EV_STEPPED;
    }
}

static int finish(dbg_session *s)
{
    exec_warp *f = dbg_focus_warp(s, true);
    if (!f)
        return EV_IDLE;
    uint32_t depth = exec_warp_depth(f) - s->focus.level;
    if (depth <= 1) {
        dbg_say(s, "\"finish\" not meaningful in the outermost frame.\n");
        return EV_IDLE;
    }
    char line[512];
    dbg_frame_line(s, f, s->focus.level, line, sizeof line);
    dbg_say(s, "Run till exit from #%u  %s\n", s->focus.level, line);
    for (;;) {
        int ev = step_focus(s);
        if (ev != EV_STEPPED)
            return ev;
        if (focus_exited(s))
            return EV_STOP;
        if (exec_warp_depth(dbg_focus_warp(s, false)) < depth)
            return EV_STEPPED;
    }
}

static int resume(dbg_session *s)
{
    uint64_t n = s->go_count ? s->go_count : 1;
    int ev = EV_STOP;
    switch (s->go) {
    case DBG_GO_CONTINUE:
        return run_continue(s);
    case DBG_GO_STEPI:
    case DBG_GO_STEP:
    case DBG_GO_NEXT:
        for (uint64_t i = 0; i < n; i++) {
            ev = s->go == DBG_GO_STEPI ? step_focus(s) : step_line(s, s->go == DBG_GO_NEXT);
            if (ev == EV_IDLE && i > 0)
                break;                  /* show where the earlier steps ended */
            if (ev != EV_STEPPED)
                return ev;
            if (s->go == DBG_GO_STEPI && focus_exited(s))
                return EV_STOP;
        }
        break;
    case DBG_GO_FINISH:
        if ((ev = finish(s)) != EV_STEPPED)
            return ev;
        break;
    default:
        return EV_IDLE;
    }
    s->focus.level = 0;
    dbg_show_location(s, "");
    return EV_STOP;
}

/* ---- the launch ------------------------------------------------------------------------ */

void dbg_start(dbg_session *s)
{
    if (s->started)
        return;
    s->started = true;
    s->at_start = true;
    dbg_command_loop(s);
    s->at_start = false;
}

static void say_kernel(dbg_session *s, const char *fmt, uint64_t n)
{
    const dbg_run *r = &s->run;
    char name[256];
    dbg_short_name(s, exec_program_kernel_info(r->p, r->kernel)->name, name, sizeof name);
    dbg_say(s, fmt, (unsigned long long)n, name, r->l.grid[0], r->l.grid[1], r->l.grid[2], r->l.block[0],
            r->l.block[1], r->l.block[2]);
}

static void end_launch(dbg_session *s)
{
    dbg_run *r = &s->run;
    end_resident(s, false);
    exec_grid_end(r->g);
    free(r->ctas);
    free(r->linear);
    r->ctas = NULL;
    r->linear = NULL;
    r->g = NULL;
    r->active = false;
    s->in_launch = 0;
    s->focus.valid = false;
}

ptx_status dbg_launch(dbg_session *s, exec_program *p, int kernel, const exec_launch *l,
                      exec_stats *stats, exec_error *err)
{
    dbg_run *r = &s->run;
    if (s->exit_req) {
        memset(err, 0, sizeof *err);
        err->st = PTX_E_TRAP;
        snprintf(err->msg, sizeof err->msg, "the program was ended in the debugger");
        return PTX_E_TRAP;
    }
    if (!dbg_prog_use(s, p))
        return PTX_E_NOMEM;
    dbg_bp_refresh(s);
    memset(r, 0, sizeof *r);
    ptx_status st = exec_grid_begin(p, kernel, l, &r->g, err);
    if (st != PTX_OK)
        return st;
    r->p = p;
    r->kernel = kernel;
    r->l = *l;
    r->stats = stats;
    r->nctas = exec_grid_ctas(r->g);
    r->budget = l->max_warp_insts ? l->max_warp_insts : EXEC_DEFAULT_MAX_WARP_INSTS;
    /* Resident at once: every CTA of a cooperative launch, else one
     * cluster (one CTA without clusters), as exec/grid.c runs them. */
    uint32_t csize = exec_grid_cluster_size(r->g);
    uint64_t slots = l->cooperative ? r->nctas : csize;
    r->ctas = calloc(slots, sizeof *r->ctas);
    r->linear = calloc(slots, sizeof *r->linear);
    if (!r->ctas || !r->linear) {
        free(r->ctas);
        free(r->linear);
        exec_grid_end(r->g);
        return PTX_E_NOMEM;
    }
    r->active = true;
    s->in_launch = 1;
    s->launches++;
    /* The first CTAs begin now, so the focus has somewhere to be even
     * before the first instruction. */
    for (uint64_t i = 0; i < slots && st == PTX_OK; i++) {
        st = begin_cta(s, l->cooperative ? i : exec_grid_cluster_cta(r->g, 0, (uint32_t)i), i);
        r->nres += st == PTX_OK;
    }
    r->next_cta = slots;
    if (st != PTX_OK) {
        end_launch(s);
        return st;
    }
    s->focus = (dbg_focus){ true, 0, 0, 0, 0 };
    s->list_next = 0;
    say_kernel(s, "[Launch of kernel %llu: %s<<<(%u,%u,%u),(%u,%u,%u)>>>]\n", s->launches);
    s->go = DBG_GO_CONTINUE;
    s->go_count = 0;
    if (!s->started)
        dbg_start(s);
    bool stopped = false;
    for (;;) {
        if (s->exit_req || s->go == DBG_GO_KILL) {
            st = PTX_E_TRAP;
            memset(err, 0, sizeof *err);
            err->st = st;
            snprintf(err->msg, sizeof err->msg, "the program was ended in the debugger");
            break;
        }
        if (r->fault) {
            dbg_say(s, "The launch cannot go on after a fault; it ends with: %s\n",
                    ptx_status_message(r->fault));
            st = r->fault;
            *err = r->err;
            break;
        }
        s->interrupted = 0;             /* a Ctrl-C at the prompt is not for the kernel */
        int ev = resume(s);
        if (ev == EV_DONE) {
            st = PTX_OK;
            break;
        }
        stopped = true;
        if (ev != EV_IDLE) {
            remember_stop(s);
            dbg_show_displays(s);
        }
        fflush(s->out);
        dbg_command_loop(s);
    }
    if (stopped && st == PTX_OK)
        say_kernel(s, "[Kernel %llu finished: %s<<<(%u,%u,%u),(%u,%u,%u)>>>]\n", s->launches);
    end_launch(s);
    fflush(s->out);
    return st;
}

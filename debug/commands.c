/*
 * commands.c -- the command table, run control and focus.
 *
 * Commands are spelled as gdb and cuda-gdb spell them; a command may be
 * shortened to any unambiguous prefix, and gdb's usual one-letter forms
 * (b, c, s, n, si, p, bt, l, x, q, i, k) work.  An empty line at a
 * terminal repeats the last stepping, listing or examining command.
 */
#include "dbg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing helpers --------------------------------------------------------- */

const char *dbg_skip(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

bool dbg_word(const char **p, const char *w)
{
    const char *q = dbg_skip(*p);
    size_t n = strlen(w);
    if (strncmp(q, w, n) != 0 || isalnum((unsigned char)q[n]) || q[n] == '_')
        return false;
    *p = dbg_skip(q + n);
    return true;
}

bool dbg_parse_u64(const char **p, uint64_t *out)
{
    const char *q = dbg_skip(*p);
    if (!isdigit((unsigned char)*q))
        return false;
    char *end;
    *out = strtoull(q, &end, 0);
    *p = end;
    return true;
}

/* ---- run control ------------------------------------------------------------------ */

static bool need_launch(dbg_session *s)
{
    if (s->run.active)
        return true;
    dbg_say(s, "The program is not being run.\n");
    return false;
}

static void go(dbg_session *s, dbg_go what, const char *args)
{
    uint64_t n = 1;
    const char *p = dbg_skip(args);
    if (*p && (!dbg_parse_u64(&p, &n) || *dbg_skip(p) || n == 0)) {
        dbg_say(s, "Give a positive count: %s\n", args);
        return;
    }
    if (what != DBG_GO_CONTINUE && !need_launch(s))
        return;
    s->go = what;
    s->go_count = n;
}

static void cmd_run(dbg_session *s, const char *args)
{
    if (!s->at_start) {
        /* Stopped in a launch: the program cannot start over. */
        dbg_say(s, "The program is already running; use `continue`.\n");
        return;
    }
    go(s, DBG_GO_CONTINUE, "");
}

static void cmd_continue(dbg_session *s, const char *args) { go(s, DBG_GO_CONTINUE, args); }
static void cmd_stepi(dbg_session *s, const char *args) { go(s, DBG_GO_STEPI, args); }
static void cmd_step(dbg_session *s, const char *args) { go(s, DBG_GO_STEP, args); }
static void cmd_next(dbg_session *s, const char *args) { go(s, DBG_GO_NEXT, args); }
static void cmd_finish(dbg_session *s, const char *args) { go(s, DBG_GO_FINISH, args); }

static void cmd_kill(dbg_session *s, const char *args)
{
    dbg_say(s, "[program killed]\n");
    s->exit_req = true;
    s->exit_code = 1;
    s->go = DBG_GO_KILL;
}

static void cmd_quit(dbg_session *s, const char *args)
{
    uint64_t code = 0;
    const char *p = dbg_skip(args);
    if (*p && !dbg_parse_u64(&p, &code)) {
        dbg_say(s, "Give an exit status: quit [N].\n");
        return;
    }
    s->exit_req = true;
    s->exit_code = (int)code;
    s->go = DBG_GO_KILL;
}

/* ---- focus -------------------------------------------------------------------------- */

/* "(1,2,3)", "(1)" or "1" into xyz (missing components are 0). */
static bool parse_coords(const char **pp, uint32_t xyz[3])
{
    const char *p = dbg_skip(*pp);
    xyz[0] = xyz[1] = xyz[2] = 0;
    bool paren = *p == '(';
    if (paren)
        p++;
    for (int d = 0; d < 3; d++) {
        uint64_t v;
        if (!dbg_parse_u64(&p, &v) || v > UINT32_MAX)
            return false;
        xyz[d] = (uint32_t)v;
        p = dbg_skip(p);
        if (!paren || *p != ',')
            break;
        p++;
    }
    if (paren) {
        if (*p != ')')
            return false;
        p++;
    }
    *pp = p;
    return true;
}

static void cmd_cuda(dbg_session *s, const char *args)
{
    if (!need_launch(s))
        return;
    const char *p = dbg_skip(args);
    exec_warp *w = dbg_focus_warp(s, false);
    if (!*p) {
        if (!w) {
            dbg_focus_warp(s, true);
            return;
        }
        uint32_t b[3], t[3];
        exec_cta_id(exec_warp_cta(w), b);
        exec_warp_tid(w, s->focus.lane, t);
        dbg_say(s, "block (%u,%u,%u), thread (%u,%u,%u), warp %u, lane %u\n", b[0], b[1], b[2], t[0], t[1],
                t[2], s->focus.warp, s->focus.lane);
        return;
    }
    const exec_launch *l = &s->run.l;
    uint64_t cta = s->focus.cta;
    uint32_t warp = s->focus.warp, lane = s->focus.lane;
    while (*(p = dbg_skip(p))) {
        uint32_t c[3];
        uint64_t v;
        if (dbg_word(&p, "block")) {
            if (!parse_coords(&p, c) || c[0] >= l->grid[0] || c[1] >= l->grid[1] || c[2] >= l->grid[2]) {
                dbg_say(s, "Invalid block; the grid is (%u,%u,%u).\n", l->grid[0], l->grid[1], l->grid[2]);
                return;
            }
            cta = dbg_cta_linear(s, c);
        } else if (dbg_word(&p, "thread")) {
            if (!parse_coords(&p, c) || c[0] >= l->block[0] || c[1] >= l->block[1] || c[2] >= l->block[2]) {
                dbg_say(s, "Invalid thread; blocks are (%u,%u,%u).\n", l->block[0], l->block[1],
                        l->block[2]);
                return;
            }
            uint64_t t = c[0] + (uint64_t)l->block[0] * (c[1] + (uint64_t)l->block[1] * c[2]);
            warp = (uint32_t)(t / ISA_WARP_SIZE);
            lane = (uint32_t)(t % ISA_WARP_SIZE);
        } else if (dbg_word(&p, "warp")) {
            if (!dbg_parse_u64(&p, &v) || v >= 1024 / ISA_WARP_SIZE) {
                dbg_say(s, "Give a warp number.\n");
                return;
            }
            warp = (uint32_t)v;
        } else if (dbg_word(&p, "lane")) {
            if (!dbg_parse_u64(&p, &v) || v >= ISA_WARP_SIZE) {
                dbg_say(s, "Give a lane number, 0 to 31.\n");
                return;
            }
            lane = (uint32_t)v;
        } else {
            dbg_say(s, "Focus is set with: cuda [block (x,y,z)] [thread (x,y,z)] [warp N] [lane N]\n");
            return;
        }
    }
    exec_cta *c = dbg_resident(s, cta);
    if (!c) {
        uint32_t b[3] = { (uint32_t)(cta % l->grid[0]), (uint32_t)(cta / l->grid[0] % l->grid[1]),
                          (uint32_t)(cta / ((uint64_t)l->grid[0] * l->grid[1])) };
        dbg_say(s, "Block (%u,%u,%u) is not running now (blocks run one after another); focus unchanged.\n",
                b[0], b[1], b[2]);
        return;
    }
    if (warp >= exec_cta_nwarps(c) || !((exec_warp_valid(exec_cta_warp(c, warp)) >> lane) & 1)) {
        dbg_say(s, "No such thread in the block; focus unchanged.\n");
        return;
    }
    dbg_set_focus(s, cta, warp, lane, true);
    dbg_show_location(s, "");
}

/* ---- set --------------------------------------------------------------------------- */

static void cmd_set(dbg_session *s, const char *args)
{
    const char *p = dbg_skip(args);
    if (!dbg_word(&p, "var"))
        dbg_word(&p, "variable");
    p = dbg_skip(p);
    if (*p != '$') {
        dbg_say(s, "Only convenience variables can be set: set $NAME = EXPRESSION.\n");
        return;
    }
    const char *name = ++p;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    size_t n = (size_t)(p - name);
    p = dbg_skip(p);
    if (!n || *p != '=') {
        dbg_say(s, "Write: set $NAME = EXPRESSION.\n");
        return;
    }
    dbg_value v;
    char err[200];
    if (!dbg_eval_text(s, p + 1, &v, err, sizeof err)) {
        dbg_say(s, "%s\n", err);
        return;
    }
    dbg_var_set(s, name, n, &v);
}

/* ---- the table ------------------------------------------------------------------------ */

static void cmd_break(dbg_session *s, const char *a) { dbg_cmd_break(s, a, false); }
static void cmd_tbreak(dbg_session *s, const char *a) { dbg_cmd_break(s, a, true); }
static void cmd_enable(dbg_session *s, const char *a) { dbg_cmd_enable(s, a, true); }
static void cmd_disable(dbg_session *s, const char *a) { dbg_cmd_enable(s, a, false); }
static void cmd_print(dbg_session *s, const char *a) { dbg_cmd_print(s, a, false); }
static void cmd_output(dbg_session *s, const char *a) { dbg_cmd_print(s, a, true); }
static void cmd_frame(dbg_session *s, const char *a) { dbg_cmd_frame(s, a, 0); }
static void cmd_up(dbg_session *s, const char *a) { dbg_cmd_frame(s, a, 1); }
static void cmd_down(dbg_session *s, const char *a) { dbg_cmd_frame(s, a, -1); }
static void cmd_help(dbg_session *s, const char *a);

typedef struct command {
    const char *name;
    const char *aliases;        /* space-separated short forms */
    void (*fn)(dbg_session *s, const char *args);
    bool repeats;               /* an empty line at a terminal runs it again */
    const char *help;
} command;

static const command commands[] = {
    { "break", "b br brea", cmd_break, false,
      "break [LOCATION] [if COND]  stop at a kernel or device function (by its mangled or plain name),\n"
      "                            ptx:LINE, FILE:LINE of CUDA source, LINE, or *PC" },
    { "tbreak", "tb", cmd_tbreak, false,
      "tbreak LOCATION [if COND]   a breakpoint that is deleted when hit" },
    { "watch", "wa", dbg_cmd_watch, false,
      "watch VAR[i] | *(TYPE*)ADDR | ADDR [BYTES]  stop after a write changes global or shared memory" },
    { "delete", "d", dbg_cmd_delete, false,
      "delete [N...]               delete breakpoints (all without N)" },
    { "disable", "disa", cmd_disable, false, "disable [N...]              disable breakpoints" },
    { "enable", "en", cmd_enable, false, "enable [N...]               enable breakpoints" },
    { "condition", "cond", dbg_cmd_condition, false,
      "condition N [COND]          change a breakpoint's condition" },
    { "run", "r", cmd_run, false, "run                         start the program" },
    { "continue", "c cont fg", cmd_continue, true, "continue                    run until the next stop" },
    { "stepi", "si nexti ni", cmd_stepi, true,
      "stepi [N]                   execute one warp-instruction of the focused warp" },
    { "step", "s", cmd_step, true,
      "step [N]                    run the focused warp to the next CUDA source line" },
    { "next", "n", cmd_next, true, "next [N]                    the same, stepping over calls" },
    { "finish", "fin", cmd_finish, true,
      "finish                      run until the selected device function returns" },
    { "kill", "k", cmd_kill, false, "kill                        end the program" },
    { "quit", "q exit", cmd_quit, false, "quit [N]                    end the program and the debugger" },
    { "cuda", NULL, cmd_cuda, false,
      "cuda [block (x,y,z)] [thread (x,y,z)] [warp N] [lane N]  show or move the focus" },
    { "print", "p inspect", cmd_print, false,
      "print[/FMT] EXPR [@all]     CUDA variables (nvcc -G: i, a[i], *p), registers (%r1),\n"
      "                            specials (threadIdx), memory (*(int*)ADDR);\n"
      "                            @all: every lane of the warp; FMT: x d u o t c f" },
    { "output", NULL, cmd_output, false, "output[/FMT] EXPR           print without recording $N" },
    { "x", NULL, dbg_cmd_x, true,
      "x/NFU ADDR                  examine memory: F one of x d u o t c f s i, U one of b h w g;\n"
      "                            ADDR may start with shared:, local:, param: or global:" },
    { "display", "disp", dbg_cmd_display, false, "display[/FMT] EXPR          print EXPR at every stop" },
    { "undisplay", "und", dbg_cmd_undisplay, false, "undisplay [N...]            stop displaying" },
    { "list", "l", dbg_cmd_list, true,
      "list [ptx:LINE | FILE:LINE | FUNCTION]  PTX around the pc (or a CUDA source file)" },
    { "backtrace", "bt where", dbg_cmd_backtrace, false,
      "backtrace                   device-function calls of the focused warp" },
    { "frame", "f", cmd_frame, false, "frame [N]                   select a call frame" },
    { "up", NULL, cmd_up, false, "up [N]                      select the caller's frame" },
    { "down", "do", cmd_down, false, "down [N]                    select the callee's frame" },
    { "info", "i inf", dbg_cmd_info, false,
      "info breakpoints | cuda warps | cuda lanes | cuda blocks | cuda kernels | warps | simt\n"
      "     | registers [REG...] | locals | args | display | frame" },
    { "set", NULL, cmd_set, false, "set $NAME = EXPR            set a convenience variable" },
    { "help", "h", cmd_help, false, "help                        this list" },
};

static void cmd_help(dbg_session *s, const char *a)
{
    dbg_say(s, "Commands (as in gdb and cuda-gdb; any unambiguous prefix works):\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        dbg_say(s, "  %s\n", commands[i].help);
}

static bool has_alias(const command *c, const char *w, size_t n)
{
    for (const char *a = c->aliases; a && *a;) {
        size_t k = strcspn(a, " ");
        if (k == n && strncmp(a, w, n) == 0)
            return true;
        a += k;
        a += *a == ' ';
    }
    return false;
}

static const command *lookup(dbg_session *s, const char *w, size_t n)
{
    const size_t count = sizeof commands / sizeof commands[0];
    for (size_t i = 0; i < count; i++)
        if ((strlen(commands[i].name) == n && strncmp(commands[i].name, w, n) == 0) ||
            has_alias(&commands[i], w, n))
            return &commands[i];
    const command *found = NULL;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(commands[i].name, w, n) != 0)
            continue;
        if (found) {
            dbg_say(s, "Ambiguous command \"%.*s\".\n", (int)n, w);
            return NULL;
        }
        found = &commands[i];
    }
    if (!found)
        dbg_say(s, "Undefined command: \"%.*s\".  Try \"help\".\n", (int)n, w);
    return found;
}

void dbg_execute(dbg_session *s, const char *line)
{
    const char *p = dbg_skip(line);
    if (!*p || *p == '#')
        return;
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '/')
        n++;
    const command *c = lookup(s, p, n);
    if (c)
        c->fn(s, p + n);
}

static bool repeats(dbg_session *s, const char *line)
{
    const char *p = dbg_skip(line);
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '/')
        n++;
    const size_t count = sizeof commands / sizeof commands[0];
    for (size_t i = 0; i < count; i++)
        if ((strlen(commands[i].name) == n && strncmp(commands[i].name, p, n) == 0) ||
            has_alias(&commands[i], p, n))
            return commands[i].repeats;
    return false;
}

void dbg_command_loop(dbg_session *s)
{
    s->go = DBG_GO_NONE;
    while (s->go == DBG_GO_NONE && !s->exit_req) {
        char *line = dbg_read_command(s);
        if (!line) {
            /* The end of input ends the program, as gdb does. */
            s->exit_req = true;
            s->go = DBG_GO_KILL;
            break;
        }
        if (!*dbg_skip(line) && s->in_tty && s->last_line) {
            free(line);
            line = strdup(s->last_line);
            if (!line)
                break;
        }
        dbg_execute(s, line);
        if (*dbg_skip(line) && repeats(s, line)) {
            free(s->last_line);
            s->last_line = line;
        } else {
            if (*dbg_skip(line)) {
                free(s->last_line);
                s->last_line = NULL;
            }
            free(line);
        }
        fflush(s->out);
    }
}

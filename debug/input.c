/*
 * input.c -- where commands come from.
 *
 * First the -x script, line by line; then, unless --batch, the user: with
 * GNU readline (line editing, history, completion of command words) when
 * the input is a terminal, else plain lines.  Commands that do not come
 * from a terminal are echoed after the prompt, so the output alone reads
 * as the session did; blank lines and # comments of a script are skipped.
 */
#include "dbg_int.h"

#include <readline/history.h>
#include <readline/readline.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The command words completion offers, phrase by phrase. */
static const char *const phrases[] = {
    "backtrace", "break", "condition", "continue", "cuda block", "cuda lane", "cuda thread",
    "cuda warp", "delete", "delete display", "disable", "display", "down", "enable", "finish",
    "frame", "help", "info breakpoints", "info cuda blocks", "info cuda kernels", "info cuda lanes",
    "info cuda warps", "info display", "info frame", "info locals", "info registers", "info simt",
    "info warps", "info args",
    "kill", "list", "next", "print", "quit", "run", "set", "step", "stepi", "tbreak", "undisplay",
    "up", "watch", "x",
};

/* readline's hook: the words that may follow what is typed before `start`,
 * built whole so no state is kept between calls. */
static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;   /* never fall back to file names */
    char before[256];
    size_t n = 0;
    /* The words typed so far, single-spaced. */
    for (int i = 0; i < start && n + 1 < sizeof before; i++) {
        char c = rl_line_buffer[i];
        if (c == ' ' || c == '\t') {
            if (n && before[n - 1] != ' ')
                before[n++] = ' ';
        } else {
            before[n++] = c;
        }
    }
    before[n] = 0;
    size_t tl = strlen(text);
    const size_t nphr = sizeof phrases / sizeof phrases[0];
    char **m = calloc(nphr + 2, sizeof *m);
    if (!m)
        return NULL;
    size_t k = 1;
    for (size_t i = 0; i < nphr; i++) {
        const char *ph = phrases[i];
        if (strncmp(ph, before, n) != 0)
            continue;
        const char *word = ph + n;
        size_t wl = strcspn(word, " ");
        if (wl < tl || strncmp(word, text, tl) != 0)
            continue;
        bool dup = false;
        for (size_t j = 1; j < k && !dup; j++)
            dup = strlen(m[j]) == wl && strncmp(m[j], word, wl) == 0;
        if (dup)
            continue;
        m[k] = strndup(word, wl);
        if (m[k])
            k++;
    }
    if (k == 1) {
        free(m);
        return NULL;
    }
    /* m[0]: what replaces `text`, the longest prefix the matches share. */
    size_t common = strlen(m[1]);
    for (size_t j = 2; j < k; j++) {
        size_t c = 0;
        while (c < common && m[j][c] == m[1][c])
            c++;
        common = c;
    }
    m[0] = strndup(m[1], common);
    if (k == 2) {
        free(m[0]);
        m[0] = m[1];
        m[1] = NULL;
    }
    return m;
}

void dbg_input_open(dbg_session *s)
{
    if (!s->use_readline)
        return;
    rl_instream = s->in;
    rl_outstream = s->out;
    rl_readline_name = "ptxsim";
    rl_attempted_completion_function = complete;
    using_history();
    if (s->o.history_file)
        read_history(s->o.history_file);
}

void dbg_input_close(dbg_session *s)
{
    if (!s->use_readline)
        return;
    if (s->o.history_file) {
        write_history(s->o.history_file);
        history_truncate_file(s->o.history_file, 1000);
    }
    clear_history();
    rl_attempted_completion_function = NULL;
}

static void chomp(char *line)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
}

char *dbg_read_command(dbg_session *s)
{
    fflush(s->out);
    char *line = NULL;
    size_t cap = 0;
    while (s->script) {
        ssize_t got = getline(&line, &cap, s->script);
        if (got < 0) {
            fclose(s->script);
            s->script = NULL;
            break;
        }
        chomp(line);
        const char *p = dbg_skip(line);
        if (!*p || *p == '#')
            continue;
        dbg_say(s, "%s%s\n", DBG_PROMPT, line);
        return line;
    }
    free(line);
    line = NULL;
    if (s->o.batch)
        return NULL;
    if (s->use_readline) {
        line = readline(DBG_PROMPT);
        if (!line) {
            dbg_say(s, "quit\n");
            return NULL;
        }
        if (*dbg_skip(line)) {
            HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;
            if (!last || strcmp(last->line, line) != 0)
                add_history(line);
        }
        return line;
    }
    if (s->in_tty) {
        dbg_say(s, "%s", DBG_PROMPT);
        fflush(s->out);
    }
    if (getline(&line, &cap, s->in) < 0) {
        free(line);
        dbg_say(s, "%squit\n", s->in_tty ? "" : DBG_PROMPT);
        return NULL;
    }
    chomp(line);
    if (!s->in_tty)
        dbg_say(s, "%s%s\n", DBG_PROMPT, line);
    return line;
}

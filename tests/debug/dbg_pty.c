/*
 * dbg_pty.c -- the debugger's prompt used as a person uses it: through a
 * pseudo-terminal, so readline is in charge of the line.
 *
 *   dbg_pty DBG_TEST SRCDIR
 *
 * Starts `DBG_TEST SRCDIR --interactive NAME` on a pty, types commands,
 * and reads the screen back through a small terminal model (carriage
 * return, backspace, tabs, and the cursor and erase sequences readline
 * sends).  With the `diverge` scenario it checks that commands run, that
 * the up arrow recalls the last command from the history, that Ctrl-A
 * edits the start of the line, that Tab completes command words, that an
 * empty line repeats a step, and that the program ends with its right
 * result; with `spin`, a kernel that never ends, that Ctrl-C stops it and
 * `kill` ends the program.
 */
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COLS 160
#define MAXLINES 4000

/* The screen: every line ever shown (no scrolling away), and a cursor. */
typedef struct screen {
    char lines[MAXLINES][COLS + 1];
    int row, col, nrows;
    /* An escape sequence being received. */
    int esc;                    /* 0 none, 1 after ESC, 2 in CSI, 3 in OSC */
    char csi[32];
    int ncsi;
} screen;

static void put(screen *s, char c)
{
    if (s->col < COLS) {
        char *l = s->lines[s->row];
        int len = (int)strlen(l);
        while (len < s->col)
            l[len++] = ' ';
        l[s->col] = c;
        if (s->col >= len)
            l[s->col + 1] = 0;
        s->col++;
    }
}

static void csi(screen *s, char final)
{
    s->csi[s->ncsi] = 0;
    int n = s->csi[0] == '?' ? 0 : atoi(s->csi);
    char *l = s->lines[s->row];
    int len = (int)strlen(l);
    switch (final) {
    case 'C': s->col += n ? n : 1; break;
    case 'D': s->col -= n ? n : 1; if (s->col < 0) s->col = 0; break;
    case 'G': s->col = (n ? n : 1) - 1; break;
    case 'K':                              /* erase to the end of the line */
        if (n == 0 && s->col < len)
            l[s->col] = 0;
        else if (n == 2)
            l[0] = 0;
        break;
    case 'P':                              /* delete characters */
        if (s->col < len) {
            int k = n ? n : 1;
            if (s->col + k > len)
                k = len - s->col;
            memmove(l + s->col, l + s->col + k, (size_t)(len - s->col - k + 1));
        }
        break;
    case '@':                              /* insert blanks */
        if (s->col < len && len + (n ? n : 1) <= COLS) {
            int k = n ? n : 1;
            memmove(l + s->col + k, l + s->col, (size_t)(len - s->col + 1));
            memset(l + s->col, ' ', (size_t)k);
        }
        break;
    default:
        break;                             /* modes, colours: no effect on text */
    }
}

static void feed(screen *s, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (s->esc == 1) {
            s->esc = c == '[' ? 2 : c == ']' ? 3 : 0;
            s->ncsi = 0;
            continue;
        }
        if (s->esc == 2) {
            if ((c >= '0' && c <= '9') || c == ';' || c == '?') {
                if (s->ncsi < (int)sizeof s->csi - 1)
                    s->csi[s->ncsi++] = c;
            } else {
                csi(s, c);
                s->esc = 0;
            }
            continue;
        }
        if (s->esc == 3) {
            if (c == '\a')
                s->esc = 0;
            continue;
        }
        switch (c) {
        case 27: s->esc = 1; break;
        case '\r': s->col = 0; break;
        case '\b': if (s->col) s->col--; break;
        case '\a': break;
        case '\t': s->col = (s->col / 8 + 1) * 8; break;
        case '\n':
            if (s->row < MAXLINES - 1)
                s->row++;
            s->col = 0;
            if (s->row >= s->nrows)
                s->nrows = s->row + 1;
            break;
        default:
            if ((unsigned char)c >= 32)
                put(s, c);
            break;
        }
    }
    if (s->row >= s->nrows)
        s->nrows = s->row + 1;
}

/* The program on the other side of the pty, and what has been checked. */
typedef struct session {
    int master;
    screen scr;
    int checked_from;           /* screen row of the last thing found */
    int typed_row;              /* cursor row when the last command was typed */
    unsigned passed, failed;
} session;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Read from the program for up to `seconds`, or until `text` shows on a
 * row at or after checked_from (then true). */
static bool wait_for(session *t, const char *text, double seconds)
{
    double end = now() + seconds;
    for (;;) {
        for (int r = t->checked_from; r < t->scr.nrows; r++)
            if (strstr(t->scr.lines[r], text)) {
                t->checked_from = r;
                return true;
            }
        double left = end - now();
        if (left <= 0)
            return false;
        struct pollfd p = { t->master, POLLIN, 0 };
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        char buf[4096];
        ssize_t got = read(t->master, buf, sizeof buf);
        if (got <= 0)
            return false;           /* the program has gone (EIO) */
        feed(&t->scr, buf, (size_t)got);
    }
}

static void type(session *t, const char *keys)
{
    /* One key at a time, as typing: readline sees each arrive. */
    for (const char *k = keys; *k; k++) {
        if (write(t->master, k, 1) != 1)
            return;
        usleep(2000);
    }
}

/* Wait for a fresh prompt on the cursor's row, below the last command, and
 * type `keys` there.  Keys sent before readline has the terminal would be
 * echoed by the terminal itself, ahead of the prompt, and the line read
 * would not be the line shown. */
static void command(session *t, const char *keys)
{
    static const char prompt[] = "(ptxsim) ";
    double end = now() + 10;
    while (!(t->scr.row > t->typed_row && strcmp(t->scr.lines[t->scr.row], prompt) == 0
             && t->scr.col == (int)sizeof prompt - 1)) {
        if (now() >= end) {
            t->failed++;
            printf("FAILED: no prompt to type \"%s\" at; the screen from row %d:\n", keys, t->typed_row);
            for (int r = t->typed_row < 0 ? 0 : t->typed_row; r < t->scr.nrows; r++)
                printf("  |%s\n", t->scr.lines[r]);
            return;
        }
        wait_for(t, "\x01never", 0.05);
    }
    t->typed_row = t->scr.row;
    type(t, keys);
}

static void expect(session *t, const char *what, const char *text)
{
    if (wait_for(t, text, 10)) {
        t->passed++;
        return;
    }
    t->failed++;
    printf("FAILED: %s: \"%s\" never showed; the screen from row %d:\n", what, text, t->checked_from);
    for (int r = t->checked_from; r < t->scr.nrows; r++)
        printf("  |%s\n", t->scr.lines[r]);
}

/* Start `DBG_TEST SRCDIR --interactive NAME` on a new pty. */
static pid_t start(session *t, const char *dbg_test, const char *srcdir, const char *name)
{
    memset(t, 0, sizeof *t);
    t->typed_row = -1;
    struct winsize ws = { .ws_row = 50, .ws_col = COLS };
    pid_t pid = forkpty(&t->master, NULL, NULL, &ws);
    if (pid == 0) {
        setenv("TERM", "xterm", 1);
        setenv("INPUTRC", "/dev/null", 1);      /* the user's own key bindings stay out */
        execl(dbg_test, dbg_test, srcdir, "--interactive", name, (char *)NULL);
        perror("exec");
        _exit(127);
    }
    if (pid < 0)
        perror("forkpty");
    return pid;
}

/* Wait for the program to end with exit status `want`. */
static void finish(session *t, pid_t pid, int want)
{
    int status = 0;
    double end = now() + 30;
    while (waitpid(pid, &status, WNOHANG) == 0 && now() < end)
        wait_for(t, "\x01never", 0.1);
    if (now() >= end) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        printf("FAILED: the program did not end\n");
        t->failed++;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != want) {
        printf("FAILED: the program ended with status 0x%x, not exit %d\n", status, want);
        t->failed++;
    } else {
        t->passed++;
    }
    close(t->master);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dbg_pty DBG_TEST SRCDIR\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    session *t = calloc(1, sizeof *t);
    if (!t)
        return 2;
    unsigned passed = 0, failed = 0;

    /* A session of stepping, with readline's editing, history and completion. */
    pid_t pid = start(t, argv[1], argv[2], "diverge");
    if (pid < 0)
        return 2;
    expect(t, "the first prompt", "(ptxsim) ");
    command(t, "break diverge\r");
    expect(t, "a breakpoint is set", "Breakpoint 1 at pc 32");
    command(t, "run\r");
    expect(t, "the breakpoint is hit", "Breakpoint 1, diverge (pc");
    command(t, "next\r");
    expect(t, "next shows the next source line", "int t = threadIdx.x;");
    /* The up arrow brings `next` back from the history. */
    command(t, "\x1b[A\r");
    expect(t, "the recalled line", "(ptxsim) next");
    expect(t, "the history's next", "if (t % 2 == 0) {");
    /* Ctrl-A goes to the start of the line to put the missing 'p' there. */
    command(t, "rint threadIdx\x01p\r");
    expect(t, "the screen shows the edited line", "(ptxsim) print threadIdx");
    expect(t, "the edited line runs", "$1 = {x = 0, y = 0, z = 0}");
    /* Tab completes `info cuda la` to `info cuda lanes`. */
    command(t, "info cuda la\t\r");
    expect(t, "the screen shows the completed line", "(ptxsim) info cuda lanes");
    expect(t, "the completed command runs", "Lanes of warp 0 in block (0,0,0):");
    command(t, "next\r");
    expect(t, "next at the branch", "v = collatz_steps(t);");
    command(t, "step\r");
    expect(t, "step into the call", "collatz_steps (pc 0, PTX line 27)");
    /* An empty line repeats `step`. */
    command(t, "\r");
    expect(t, "the empty line repeats step", "int steps = 0;");
    command(t, "delete\r");
    command(t, "continue\r");
    expect(t, "the kernel finishes", "[Kernel 1 finished");
    expect(t, "the program's result", "PASS diverge");
    finish(t, pid, 0);
    passed += t->passed;
    failed += t->failed;

    /* Ctrl-C stops a kernel that would never end; kill ends the program. */
    pid = start(t, argv[1], argv[2], "spin");
    if (pid < 0)
        return 2;
    expect(t, "the first prompt", "(ptxsim) ");
    command(t, "run\r");
    /* Readline has taken the line once the cursor leaves it; a Ctrl-C before
     * that would only clear the line.  Then press Ctrl-C until the kernel
     * stops, as a person would on a loaded machine. */
    expect(t, "the command line", "(ptxsim) run");
    for (int i = 0; i < 100 && t->scr.row <= t->checked_from; i++)
        wait_for(t, "\x01never", 0.05);
    bool stopped = false;
    for (int i = 0; i < 20 && !stopped; i++) {
        usleep(200000);
        type(t, "\x03");
        stopped = wait_for(t, "Program received signal SIGINT, Interrupt.", 0.5);
    }
    expect(t, "Ctrl-C stops the kernel", "Program received signal SIGINT, Interrupt.");
    expect(t, "where it stopped", "spin (pc");
    command(t, "print *(int*)$flag\r");
    expect(t, "the flag it waits for", "$1 = 0");
    command(t, "kill\r");
    expect(t, "kill", "[program killed]");
    expect(t, "the program reports", "ENDED spin");
    finish(t, pid, 1);
    passed += t->passed;
    failed += t->failed;

    printf("%u passed, %u failed\n", passed, failed);
    free(t);
    return failed ? 1 : 0;
}

/*
 * debug.h -- single-step debugging of kernels, in the manner of cuda-gdb.
 *
 * A session lives across the launches of one program.  The runtime calls
 * dbg_launch() where it would call exec_launch_run(): the launch runs in the
 * functional scheduler's order (CTAs in launch order, warps taking turns),
 * one warp-instruction at a time, and stops at breakpoints, watchpoints,
 * steps and faults to read commands (breakpoints, stepping, focus,
 * registers, memory, the SIMT stack).  Breakpoints persist from launch to
 * launch; a launch that hits none runs to its end without a prompt.
 *
 * Commands come from a script (-x), then from the user: through GNU
 * readline when `in` is a terminal, line by line otherwise (each command is
 * then echoed after the prompt, so a transcript reads like a session).
 * docs/debugger.md lists the commands.
 */
#ifndef PTXSIM_DEBUG_H
#define PTXSIM_DEBUG_H

#include "exec.h"

#include <stdio.h>

typedef struct dbg_session dbg_session;

typedef struct dbg_options {
    FILE *in;                   /* the user's commands (NULL: stdin) */
    FILE *out;                  /* everything the debugger says (NULL: stdout) */
    const char *script;         /* -x FILE: commands run before any from `in` */
    bool batch;                 /* --batch: never read `in`; the end of the script is `quit` */
    bool no_readline;           /* read `in` line by line even from a terminal */
    const char *source_path;    /* ':'-separated folders where CUDA sources are looked up by
                                   basename when the path in the PTX does not open */
    const char *history_file;   /* readline history kept between sessions (NULL: none) */
} dbg_options;

/* A session; NULL when out of memory or the script cannot be opened (the
 * reason is written to `out`). */
dbg_session *dbg_new(const dbg_options *o);
void dbg_free(dbg_session *s);

/* Read commands before the program launches anything, up to `run` (or
 * `continue`).  Optional: the first dbg_launch does it when not done. */
void dbg_start(dbg_session *s);

/* Run a launch under the debugger; same contract as exec_launch_run.  A
 * fault stops at the faulting instruction first; once the user goes on, it
 * is returned as exec_launch_run would return it.  After `kill` or `quit`
 * it returns PTX_E_TRAP and dbg_exit_requested() becomes true. */
ptx_status dbg_launch(dbg_session *s, exec_program *p, int kernel, const exec_launch *l,
                      exec_stats *stats, exec_error *err);

/* True once the user has asked to end the program (`quit`, `kill`, end of
 * input); the runtime should then exit with *out_code. */
bool dbg_exit_requested(const dbg_session *s, int *out_code);

/* Stop the running kernel at its next instruction, as Ctrl-C does under
 * gdb.  Async-signal-safe: the runtime calls it from its SIGINT handler.
 * False when no launch is under the debugger (the host code runs): the
 * handler should then do what Ctrl-C does without the debugger. */
bool dbg_interrupt(dbg_session *s);

/* Name a value for expressions as $name (the tests name device buffers). */
bool dbg_set_var(dbg_session *s, const char *name, uint64_t value);

#endif /* PTXSIM_DEBUG_H */

"""
cell -- one run of a sweep, and what its folder says about it.

A cell's folder OUT/cells/KEY/ holds
    cell.json    what the run is (program, arguments, preset, overrides)
    log          its stdout and stderr, the command line first
    stats.json   ptxsim's --stats records, one JSON line per launch
    runs         one line per attempt: when, where, the status
    done         written last: "STATUS REASON"; STATUS 0 means it passed
A cell is finished when stats.json exists and done says 0; it failed when
done says anything else (exit status, 124 for a timeout, or what the
scheduler reported); it is still to run when there is no done (never run,
or interrupted by SIGINT or SIGTERM).
"""
import datetime
import json
import os
import re
import signal
import socket
import subprocess
import time

TIMED_OUT = 124


def folder(out, cell):
    return os.path.join(out, "cells", cell["key"])


def command(ptxsim, cell, stats_path):
    cmd = [ptxsim, "run", "--quiet", "--mode", cell["mode"]]
    if cell["mode"] == "timing":
        cmd += ["--config", cell["preset"]]
        if cell["set"]:
            cmd += ["--set", ",".join(f"{k}={v}" for k, v in cell["set"].items())]
    return cmd + ["--stats", stats_path, "--", cell["path"]] + list(cell["args"])


def state(out, cell):
    """("ok" | "failed" | "todo", reason)."""
    d = folder(out, cell)
    try:
        with open(os.path.join(d, "done")) as f:
            status, _, reason = f.read().strip().partition(" ")
    except OSError:
        return "todo", ""
    if status == "0" and os.path.exists(os.path.join(d, "stats.json")):
        return "ok", ""
    if status == "0":
        return "todo", "stats.json missing"
    return "failed", f"status {status}" + (f": {reason}" if reason else "")


def mark_done(d, status, reason):
    """The done marker, written whole (rename) so that a reader never sees half."""
    tmp = os.path.join(d, "done.tmp")
    with open(tmp, "w") as f:
        f.write(f"{status} {reason}".rstrip() + "\n")
    os.replace(tmp, os.path.join(d, "done"))
    when = datetime.datetime.now().isoformat(timespec="seconds")
    with open(os.path.join(d, "runs"), "a") as f:
        f.write(f"{when} {socket.gethostname()} {status} {reason}".rstrip() + "\n")


def stats_readable(path):
    """Whether every line of the stats file is a whole JSON record (one cut
    short means the program ended abruptly)."""
    try:
        with open(path) as f:
            for line in f:
                if line.strip():
                    json.loads(line)
    except (OSError, json.JSONDecodeError):
        return False
    return True


def run(ptxsim, out, cell, timeout, expect=""):
    """Run the cell; returns (status, reason)."""
    d = folder(out, cell)
    os.makedirs(d, exist_ok=True)
    for name in ("done", "stats.json"):
        if os.path.exists(os.path.join(d, name)):
            os.unlink(os.path.join(d, name))
    with open(os.path.join(d, "cell.json"), "w") as f:
        json.dump(cell, f, indent=1)
    stats_path = os.path.join(d, "stats.json")
    cmd = command(ptxsim, cell, stats_path)
    env = dict(os.environ, **cell["env"])
    start = time.monotonic()
    with open(os.path.join(d, "log"), "w") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=log, env=env, timeout=timeout, text=True,
                               errors="replace")
            log.write(p.stdout)
            rc, reason = p.returncode, "" if p.returncode == 0 else f"exit status {p.returncode}"
            if rc in (-signal.SIGINT, -signal.SIGTERM, 128 + signal.SIGINT, 128 + signal.SIGTERM):
                # Interrupted (^C, or the scheduler ending the task): no
                # marker, so that the next sweep runs it again.
                log.write(f"\n[sweep: interrupted (status {rc})]\n")
                return rc, "interrupted"
            if rc < 0:
                reason = f"killed by signal {-rc} ({signal.Signals(-rc).name})"
            if rc == 0 and expect and not re.search(expect, p.stdout, re.M):
                rc, reason = 1, f"output does not match /{expect}/"
        except subprocess.TimeoutExpired as e:
            if e.stdout:
                log.write(e.stdout if isinstance(e.stdout, str) else e.stdout.decode(errors="replace"))
            rc, reason = TIMED_OUT, f"timed out after {timeout:g} s"
        if rc == 0 and not os.path.exists(stats_path):
            rc, reason = 1, "no stats.json written"
        if rc == 0 and not stats_readable(stats_path):
            rc, reason = 1, "stats.json has a record cut short"
        log.write(f"\n[sweep: {time.monotonic() - start:.1f} s, status {rc}{' ' + reason if reason else ''}]\n")
    mark_done(d, rc, reason)
    return rc, reason

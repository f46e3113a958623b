"""
slurm -- a sweep's cells as one Slurm job array.

The cells to run are submitted as ONE array job (sbatch --array=0-K, the
indices into the list of those cells, OUT/slurm/submit-N.json); each task
runs
    PYTHON sweep.py --run-cell $SLURM_ARRAY_TASK_ID --cells OUT/slurm/submit-N.json
which runs that one cell as the local back end does.  The job is then
followed with squeue (every --poll seconds) until no task is pending or
running; tasks the scheduler ended (time limit, memory, cancelled, node
failure) get a done marker saying so, from squeue's or sacct's state.
Slurm refuses array indices of MaxArraySize (1001 unless the cluster says
otherwise) or more, so a sweep with more cells to run is submitted as
several arrays of at most that many, one after the other.

OUT must be on a file system the compute nodes share, and the ptxsim
command, the Python interpreter and the programs must be at the same paths
there.  The job's id is kept in OUT/slurm/job.json, so that a sweep started
again while its job is still queued follows that job (and then submits
what is left) instead of submitting its cells a second time.
"""
import fcntl
import json
import os
import shlex
import subprocess
import sys
import time

import cell as cellmod

ACTIVE = {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING",
          "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD", "STOPPED"}


def ranges(indices):
    """[0, 1, 2, 5, 7, 8] -> "0-2,5,7-8" (sbatch's --array syntax)."""
    out, xs = [], sorted(indices)
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(str(xs[i]) if i == j else f"{xs[i]}-{xs[j]}")
        i = j + 1
    return ",".join(out)


def script(out, cells_file, settings, opts):
    """The batch script: one cell per array task."""
    lines = ["#!/bin/sh",
             f"#SBATCH --job-name={shlex.quote('ptxsim-' + settings['name'])}",
             f"#SBATCH --output={os.path.join(out, 'slurm', '%A_%a.out')}",
             "#SBATCH --ntasks=1",
             "#SBATCH --cpus-per-task=1"]
    # The scheduler's limit: the cell's own timeout and a minute to spare.
    limit = opts.time or f"{int(settings['timeout'] // 60) + 2}"
    lines.append(f"#SBATCH --time={limit}")
    if opts.partition:
        lines.append(f"#SBATCH --partition={opts.partition}")
    if opts.mem:
        lines.append(f"#SBATCH --mem={opts.mem}")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep.py")
    # A functional launch's host threads: the CPUs the task was given.
    lines.append('export PTXSIM_THREADS="${PTXSIM_THREADS:-${SLURM_CPUS_PER_TASK:-1}}"')
    lines.append(f"exec {shlex.quote(sys.executable)} {shlex.quote(here)} --run-cell \"$SLURM_ARRAY_TASK_ID\" "
                 f"--cells {shlex.quote(cells_file)}")
    return "\n".join(lines) + "\n"


def tool(cmd):
    """Run a Slurm command: (exit status, stdout, stderr)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        return 127, "", str(e)


def task_states(job):
    """{array index: state} of the job's tasks the controller still
    remembers (squeue --states=all), {} for a job it has forgotten, None
    when squeue cannot be asked."""
    rc, out, err = tool(["squeue", "--noheader", "--array", "--states=all", "--jobs", job, "--format=%i %T"])
    if rc != 0:
        return {} if "Invalid job id" in err else None
    states = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and "_" in parts[0]:
            idx = parts[0].split("_", 1)[1]
            if idx.isdigit():
                states[int(idx)] = parts[1]
    return states


def sacct_states(job):
    rc, out, _ = tool(["sacct", "--noheader", "--parsable2", "--allocations", "--jobs", job,
                       "--format=JobID,State"])
    states = {}
    if rc == 0:
        for line in out.splitlines():
            jid, _, state = line.partition("|")
            idx = jid.split("_", 1)[1] if "_" in jid else ""
            if idx.isdigit():
                states[int(idx)] = state.split()[0] if state else ""
    return states


def follow(job, out, cells, todo, poll):
    """Wait until none of the job's tasks is pending or running; returns
    {index: final state, or ""}."""
    last = None
    seen = {}
    empty = 0
    complained = False
    while True:
        states = task_states(job)
        if states is None:
            if not complained:
                print(f"sweep: squeue does not answer; still waiting for job {job}", file=sys.stderr)
                complained = True
            time.sleep(poll)
            continue
        seen.update(states)
        empty = 0 if states else empty + 1
        active = {i: s for i, s in states.items() if s in ACTIVE}
        counts = {}
        for s in active.values():
            counts[s] = counts.get(s, 0) + 1
        finished = sum(1 for i in todo if cellmod.state(out, cells[i])[0] != "todo")
        line = f"sweep: job {job}: {finished}/{len(todo)} cells done" + \
            "".join(f", {n} {s.lower()}" for s, n in sorted(counts.items()))
        if line != last:
            print(line, file=sys.stderr)
            last = line
        # Done when no task is queued or running and every cell has its
        # marker or a final state; squeue's empty answer (the job already
        # forgotten, or not yet listed) is trusted after three polls.
        if not active and (finished == len(todo) or all(i in seen for i in todo) or empty >= 3):
            break
        time.sleep(poll)
    final = {i: seen.get(i, "") for i in todo}
    missing = [i for i in todo if cellmod.state(out, cells[i])[0] == "todo"]
    if missing:
        acct = sacct_states(job)
        for i in missing:
            final[i] = acct.get(i) or final[i]
    return final


def settle(job, out, cells, todo, final):
    """A done marker for each cell whose task the scheduler ended before
    the cell could write one (time limit, memory, cancelled, node failure)."""
    for i in todo:
        if cellmod.state(out, cells[i])[0] == "todo":
            fd = cellmod.folder(out, cells[i])
            os.makedirs(fd, exist_ok=True)
            why = final.get(i) or "state unknown"
            cellmod.mark_done(fd, 125, f"the Slurm task ended without finishing the cell ({why}); "
                                       f"see {os.path.join(out, 'slurm', f'{job}_{i}.out')}")


def follow_and_settle(job, out, cells, todo, poll):
    try:
        final = follow(job, out, cells, todo, poll)
    except KeyboardInterrupt:
        sys.exit(f"\nsweep: stopped following; job {job} goes on (scancel {job} ends it); "
                 f"the same sweep command follows it again")
    settle(job, out, cells, todo, final)


def max_array_size():
    """The cluster's MaxArraySize: array indices must stay below it."""
    rc, out, _ = tool(["scontrol", "show", "config"])
    if rc == 0:
        for line in out.splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "MaxArraySize" and value.strip().isdigit():
                return int(value.strip())
    return 1001                             # Slurm's default


def submit(d, out, cells, chunk, settings, ptxsim, opts):
    """Submit the cells chunk (indices into cells) as one job array over
    their own list; returns (job, that list's file)."""
    n = 1 + sum(1 for x in os.listdir(d) if x.startswith("submit-") and x.endswith(".json"))
    cells_file = os.path.join(d, f"submit-{n}.json")
    with open(cells_file, "w") as f:
        json.dump({"ptxsim": ptxsim, "out": out, "settings": settings, "cells": [cells[i] for i in chunk]},
                  f, indent=1)
    path = os.path.join(d, f"submit-{n}.sbatch")
    with open(path, "w") as f:
        f.write(script(out, cells_file, settings, opts))
    rc, stdout, stderr = tool(["sbatch", "--parsable", f"--array=0-{len(chunk) - 1}", path])
    if rc != 0:
        sys.exit(f"sweep: sbatch failed (status {rc}): {stderr.strip() or stdout.strip()}")
    job = stdout.strip().split(";")[0]
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump({"job": job, "cells": cells_file, "indices": list(range(len(chunk)))}, f)
    names = ranges(chunk)
    print(f"sweep: submitted job array {job} ({len(chunk)} cells, --array=0-{len(chunk) - 1}: "
          f"cells {names}; {path})", file=sys.stderr)
    return job, cells_file


def run(out, cells, todo, settings, ptxsim, opts):
    """Submit the cells in todo as job arrays of at most MaxArraySize
    tasks and follow each.  Each submission has its own list of its cells
    (OUT/slurm/submit-N.json), which its tasks index; OUT/slurm/job.json
    names the last job and that list."""
    d = os.path.join(out, "slurm")
    os.makedirs(d, exist_ok=True)
    # One sweep command at a time submits and follows a sweep's cells:
    # two would submit the same cells twice.
    lock = open(os.path.join(d, "lock"), "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.seek(0)
        sys.exit(f"sweep: another sweep command (pid {lock.read().strip() or '?'}) is submitting and following "
                 f"the cells of {out}; stop it first, or wait for it")
    lock.truncate(0)
    lock.write(str(os.getpid()))
    lock.flush()
    job_file = os.path.join(d, "job.json")
    if os.path.exists(job_file):
        with open(job_file) as f:
            prev = json.load(f)
        states = task_states(prev["job"])
        if states is None or any(s in ACTIVE for s in states.values()):
            print(f"sweep: job {prev['job']} of this sweep is still queued or running: following it first",
                  file=sys.stderr)
            with open(prev["cells"]) as f:
                prev_cells = json.load(f)["cells"]
            follow_and_settle(prev["job"], out, prev_cells, prev["indices"], opts.poll)
            todo = [i for i in todo if cellmod.state(out, cells[i])[0] == "todo"]
    size = max_array_size()
    for at in range(0, len(todo), size):
        chunk = todo[at:at + size]
        job, cells_file = submit(d, out, cells, chunk, settings, ptxsim, opts)
        with open(cells_file) as f:
            own = json.load(f)["cells"]
        follow_and_settle(job, out, own, list(range(len(chunk))), opts.poll)

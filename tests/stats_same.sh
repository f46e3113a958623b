#!/bin/sh
# tests/stats_same.sh REF_PTXSIM NEW_PTXSIM SAMPLE_DIR [CONFIG...]
#
# Runs every sample of SAMPLE_DIR (its nvcc build, size tiny) under two
# ptxsim binaries, in functional mode and under each timing configuration
# below, and compares their --stats JSON with the "wall_s" fields removed
# (members only the new binary writes -- statistics a change added -- are
# listed, not compared):
# a change that should not change behaviour (a refactoring) must leave every
# statistic of every launch as it was.  Prints the first difference of each
# sample and configuration, then a summary; exits 1 on any difference.
#
# CONFIG names a subset of the configurations (default: all of them):
#   functional  functional mode
#   gtx480      --config gtx480
#   h100        --config h100
#   dom         --config gtx480 --set dom=on             (diverge on miss)
#   pmode       --config gtx480 --set pmode=on           (P-mode)
#   replay      --config turner-2012, replay with MSHR-hazard prediction
#               (credit tracker, saturating counters: experiments/replay)
#   khairy      --config khairy-2015 with DWT-CS throttling, PRIC indexing
#               and DBSA bypassing on (experiments/cache's "dwt+pric+dbsa")
#   prefetch    --config gtx480 --set prefetch=stride
#
# Runs are sequential, one process at a time, so that the comparison can
# share a small machine with builds.  SAMPLE_DIR holds NAME.nvcc files and,
# optionally, samples.txt (the names in its first column).
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 REF_PTXSIM NEW_PTXSIM SAMPLE_DIR [CONFIG...]" >&2
    exit 2
fi
exec python3 - "$@" <<'EOF'
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ref, new, sample_dir = sys.argv[1:4]
wanted = sys.argv[4:]

CONFIGS = [
    ("functional", ["--mode", "functional"]),
    ("gtx480", ["--mode", "timing", "--config", "gtx480"]),
    ("h100", ["--mode", "timing", "--config", "h100"]),
    ("dom", ["--mode", "timing", "--config", "gtx480", "--set", "dom=on"]),
    ("pmode", ["--mode", "timing", "--config", "gtx480", "--set", "pmode=on"]),
    ("replay", ["--mode", "timing", "--config", "turner-2012",
                "--set", "hazard_policy=replay,hp_tracker=credit,hp_predictor=satctr"]),
    ("khairy", ["--mode", "timing", "--config", "khairy-2015",
                "--set", "throttle=dwt,l1_index=pric,l2_index=pric,l1_pric_poly=37,"
                         "l1_dbsa=on,l2_dbsa=on"]),
    ("prefetch", ["--mode", "timing", "--config", "gtx480", "--set", "prefetch=stride"]),
]

# Runs that take over 20 s each on a 2-core machine, left out so that the
# whole comparison stays near five minutes: atomics' contended atomic chains
# take 33 s on the h100 preset (132 SMs of them) and 21 s under P-mode.  The
# sample still runs in every other configuration.
SLOW = {
    "atomics": {"h100", "pmode"},
}

unknown = [w for w in wanted if w not in dict(CONFIGS)]
if unknown:
    sys.exit(f"stats_same.sh: unknown configuration {', '.join(unknown)} "
             f"(known: {', '.join(n for n, _ in CONFIGS)})")
configs = [(n, a) for n, a in CONFIGS if not wanted or n in wanted]

listing = os.path.join(sample_dir, "samples.txt")
if os.path.exists(listing):
    names = [l.split()[0] for l in open(listing) if l.strip() and not l.startswith("#")]
else:
    names = sorted(f[:-5] for f in os.listdir(sample_dir) if f.endswith(".nvcc"))


def strip(v):
    """The record without its wall-clock fields."""
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "wall_s"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


ADDED = set()       # members only the new binary writes: new statistics, not differences


def first_diff(a, b, path="$"):
    """The path and the two values of the first place a and b differ, or None.
    A member the reference lacks is a statistic the change added: noted in
    ADDED, not a difference."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a:
                ADDED.add(re.sub(r"\[\d+\]", "[]", f"{path}.{k}"))
                continue
            if k not in b:
                return (f"{path}.{k}", a.get(k, "<absent>"), b.get(k, "<absent>"))
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return (f"{path} length", len(a), len(b))
        return None
    return None if a == b else (path, a, b)


def run(ptxsim, exe, args, out):
    """Exit status and stats records of one run."""
    if os.path.exists(out):
        os.unlink(out)
    cmd = [ptxsim, "run", "--quiet", *args, "--stats", out, "--", exe, "tiny"]
    # One host thread: blocks that spin on other blocks' flags run a number of
    # instructions that depends on how the threads interleave.
    env = dict(os.environ, PTXSIM_THREADS="1")
    try:
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            timeout=600).returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    recs = []
    if os.path.exists(out):
        for line in open(out):
            line = line.strip()
            if not line:
                continue
            try:
                recs.append(strip(json.loads(line)))
            except json.JSONDecodeError:
                # A program that aborts leaves its last record cut short:
                # compare the text, less its wall-clock fields.
                recs.append(re.sub(r'"wall_s":[-+.0-9eE]*,?', "", line))
    return rc, recs


tmp = tempfile.mkdtemp(prefix="stats_same.")
compared = differ = skipped = 0
t_start = time.time()
for name in names:
    exe = os.path.join(sample_dir, name + ".nvcc")
    if not os.path.exists(exe):
        print(f"{name}: no {exe}, skipped")
        skipped += len(configs)
        continue
    notes = []
    for cname, args in configs:
        if cname in SLOW.get(name, ()):
            skipped += 1
            continue
        t0 = time.time()
        rc_a, a = run(ref, exe, args, os.path.join(tmp, "ref.json"))
        rc_b, b = run(new, exe, args, os.path.join(tmp, "new.json"))
        secs = time.time() - t0
        compared += 1
        d = ("exit status", rc_a, rc_b) if rc_a != rc_b else first_diff(a, b)
        if d is None and not a:
            notes.append(f"{cname}: no stats (exit {rc_a})")
        if d:
            differ += 1
            path, x, y = d
            print(f"DIFF {name} {cname}: {path}: ref {json.dumps(x)[:200]} new {json.dumps(y)[:200]}",
                  flush=True)
        elif secs > 40:
            notes.append(f"{cname} took {secs:.0f} s")
    print(f"{name}: done" + (f" ({'; '.join(notes)})" if notes else ""), flush=True)
for f in ("ref.json", "new.json"):
    if os.path.exists(os.path.join(tmp, f)):
        os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
if ADDED:
    print(f"statistics only the new binary writes (not compared): {', '.join(sorted(ADDED))}")
print(f"stats_same: {compared} runs compared ({len(names)} samples x {len(configs)} configurations, "
      f"{skipped} skipped), {differ} differ, {time.time() - t_start:.0f} s")
sys.exit(1 if differ else 0)
EOF

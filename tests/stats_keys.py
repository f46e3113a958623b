#!/usr/bin/env python3
"""tests/stats_keys.py PTXSIM REFERENCE.md PROGRAM [ARGS...]

Runs PROGRAM under `PTXSIM run --mode timing` with a time series, the
next-line prefetcher and the locality counts on (so that every member can
appear), reads the --stats records, and compares the members they hold with
those docs/statistics.md lists: a member written and not documented, or
documented and never written, fails.  Members of a family (the caches, the scheduler reasons, ...)
are compared as the family's placeholder, arrays as `[]`.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FAMILY_PARENTS = {  # the member whose children are a family's names
    "scheduler_cycles": "<reason>", "stalls": "<reason>", "hazard_cycles": "<cause>",
    "replays": "<cause>", "reservation_fails": "<fail>", "reservation_fails_per_kilocycle": "<fail>",
    "halts": "<halt>", "mem_ops": "<space>", "unbounded": "<class>", "bounded": "<class>",
}
CACHES = {"l1d", "l2", "l1i", "l1c", "l1t"}


def paths(value, prefix, out):
    if isinstance(value, dict):
        for key, v in value.items():
            parent = prefix.rsplit(".", 1)[-1] if prefix else ""
            if parent in FAMILY_PARENTS:
                key = FAMILY_PARENTS[parent]
            elif prefix == "timing" and key in CACHES:
                key = "<cache>"
            paths(v, f"{prefix}.{key}" if prefix else key, out)
    elif isinstance(value, list):
        if value and isinstance(value[0], dict):
            paths(value[0], prefix + "[]", out)
        else:
            out.add(prefix + "[]")
    else:
        out.add(prefix)


def documented(reference):
    rows, timing = set(), False
    for line in open(reference):
        if line.startswith("## "):
            timing = "`timing`" in line
        m = re.match(r"\| `([^`]+)` \|", line)
        if m and m.group(1) != "member" and not line.startswith("| member"):
            rows.add(("timing." if timing else "") + m.group(1))
    return rows


def main():
    ptxsim, reference, program = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        run = subprocess.run([ptxsim, "run", "--quiet", "--mode", "timing", "--config", "gtx480",
                              "--set", "nextline_prefetch=on,locality=on,sample_cycles=500", "--stats", stats, "--"] + program,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            print("FAIL: the program failed")
            return 1
        written = set()
        for line in open(stats):
            paths(json.loads(line), "", written)
    listed = documented(reference)
    # An object's own row (`timing`) is written when its members are.
    undocumented = sorted(written - listed)
    unwritten = sorted(p for p in listed - written if not any(w.startswith(p + ".") for w in written))
    for p in undocumented:
        print(f"FAIL: written but not in {os.path.basename(reference)}: {p}")
    for p in unwritten:
        print(f"FAIL: in {os.path.basename(reference)} but never written: {p}")
    if undocumented or unwritten:
        return 1
    print(f"PASS stats_keys: {len(written)} members written, each documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())

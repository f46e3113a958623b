#!/usr/bin/env python3
"""
tests/results_files.py BUILD -- every table in docs/results/ says how to make
it again, and that command still makes a table of the same shape.

For each results file:
  * it names at least one command that regenerates it (in `backticks` or an
    indented code line): an experiment driver (experiments/NAME/run), a
    sweep (ptxsim sweep experiments/NAME.toml), or a script under bench/,
    samples/ or tests/gpu/ (the runs on a real GPU); each script named must
    exist and be executable;
  * a sweep's spec must load and expand (experiments/sweep/spec.py), and
    where the file says its table is the sweep's sweep.md, every
    configuration of the spec must head a column;
  * a driver is run dry (PTXSIM_EXPERIMENT_DRY=1: nothing is simulated,
    every run fails at once) with the file's own arguments, and every table
    header it writes must appear in the committed file, in order.  A driver
    whose columns changed since its table was made fails here until the
    table is regenerated.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "experiments", "sweep"))
import spec as sweep_spec  # noqa: E402

SCRIPT = re.compile(r"^(experiments/[\w-]+/run|bench/[\w./-]+|samples/[\w./-]+|tests/gpu/[\w./-]+)(\s|$)")
SWEEP = re.compile(r"^(?:build/bin/)?ptxsim sweep (experiments/[\w./-]+\.toml)(.*)$")


def commands(text):
    """Candidate command lines: backtick spans and indented code lines."""
    out = re.findall(r"`([^`\n]+)`", text)
    out += [line.strip() for line in text.splitlines() if line.startswith("    ") and line.strip()]
    return out


def headers(text):
    """Table header rows: a '|' row followed by its '|---' rule."""
    lines = text.splitlines()
    return [lines[i].strip() for i in range(len(lines) - 1)
            if lines[i].startswith("|") and lines[i + 1].startswith("|---")]


def check_driver(build, name, script, args, text, errors):
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PTXSIM_EXPERIMENT_DRY="1", MPLBACKEND="Agg")
        p = subprocess.run([os.path.join(ROOT, script)] + args + ["--build", build, "--out", out],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        if p.returncode != 0:
            errors.append(f"{name}: `{script}` failed when run dry: {(p.stderr.strip().splitlines() or ['?'])[-1]}")
            return
        mds = [f for f in os.listdir(out) if f.endswith(".md")]
        if not mds:
            errors.append(f"{name}: `{script}` wrote no table")
            return
        written = headers(open(os.path.join(out, mds[0])).read())
    committed = headers(text)
    at = 0
    for h in written:
        if h not in committed[at:]:
            errors.append(f"{name}: `{script}` writes the header\n    {h}\n  which the committed table lacks "
                          f"(regenerate it: {script} {' '.join(args)})")
            return
        at = committed.index(h, at) + 1


def check_sweep(build, name, spec_path, rest, text, errors):
    overrides = re.findall(r"--var\s+(\S+)", rest)
    try:
        settings, cells = sweep_spec.load(os.path.join(ROOT, spec_path), build, overrides)
    except sweep_spec.SpecError as e:
        errors.append(f"{name}: {e}")
        return
    if not cells:
        errors.append(f"{name}: {spec_path} expands to no cells")
    if "the table is its sweep.md" in text:
        labels = {c["config"] for c in cells}
        first = headers(text)[0] if headers(text) else ""
        cols = {c.strip() for c in first.strip("|").split("|")}
        for label in sorted(labels - cols):
            errors.append(f"{name}: the sweep's configuration '{label}' heads no column (regenerate it)")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: results_files.py BUILD")
    build = os.path.abspath(sys.argv[1])
    folder = os.path.join(ROOT, "docs", "results")
    errors, checked = [], 0
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".md")):
        text = open(os.path.join(folder, name)).read()
        found = False
        for cmd in commands(text):
            if m := SWEEP.match(cmd):
                found = True
                check_sweep(build, name, m.group(1), m.group(2), text, errors)
            elif m := SCRIPT.match(cmd):
                script = m.group(1)
                path = os.path.join(ROOT, script)
                if os.path.splitext(script)[1] and os.path.isfile(path):
                    continue                    # a source file the text names, not a command
                if not os.access(path, os.X_OK):
                    errors.append(f"{name}: `{script}` does not exist or is not executable")
                    continue
                found = True
                if script.startswith("experiments/"):
                    check_driver(build, name, script, cmd.split()[1:], text, errors)
        if not found:
            errors.append(f"{name}: names no command that regenerates it")
        checked += 1
    for e in errors:
        print(f"results: {e}")
    print(f"results: {checked} files checked, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

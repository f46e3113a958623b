#!/usr/bin/env python3
"""
sweep -- run a study's cells (programs x configurations x repetitions) on
this machine or on a Slurm cluster, resumably, and collect their statistics.

  ptxsim sweep SPEC [--local [-j N] | --slurm [--partition P --time T --mem M]]
               [--out DIR] [--retry-failed] [--only NAME,...] [--var K=V]
  ptxsim sweep --collect DIR [--baseline LABEL] [--stats a,b,...]

SPEC is a TOML file (spec.py describes it).  Each cell writes its --stats
file and log into DIR/cells/KEY/; a cell that finished is not run again,
and one that failed (or timed out) is run again only with --retry-failed.
After the cells, the statistics are collected into DIR/sweep.md,
sweep.csv, speedup.csv and sweep.png (--collect does that step alone).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cell as cellmod  # noqa: E402
import collect  # noqa: E402
import local  # noqa: E402
import slurm  # noqa: E402
import spec as specmod  # noqa: E402


def default_ptxsim():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, "build", "bin", "ptxsim")


def read_cells(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"sweep: cannot read the cell list {path}: {e}")
    return data


def run_cell(index, cells_file):
    """One array task: the cell at index in the list file."""
    data = read_cells(cells_file)
    if not 0 <= index < len(data["cells"]):
        sys.exit(f"sweep: no cell {index} in {cells_file} ({len(data['cells'])} cells)")
    out = data.get("out") or os.path.dirname(os.path.abspath(cells_file))
    c = data["cells"][index]
    status, reason = cellmod.run(data["ptxsim"], out, c, data["settings"]["timeout"], data["settings"]["expect"])
    print(f"sweep: cell {index} {c['key']}: status {status}{' ' + reason if reason else ''}")
    return 0 if status == 0 else 1


def do_collect(out, baseline, stats, dest=None):
    data = read_cells(os.path.join(out, "cells.json"))
    settings = data["settings"]
    baseline = baseline or settings["baseline"]
    if baseline not in settings["configs"]:
        sys.exit(f"sweep: --baseline {baseline}: no such configuration (they are: {', '.join(settings['configs'])})")
    stats = stats or settings["stats"]
    if settings["speedup"] not in stats:
        stats = stats + [settings["speedup"]]
    md, bad = collect.report(out, settings, data["cells"], stats, baseline, dest or out)
    sys.stdout.write(open(md).read())
    lines = " (and sweep-lines.png)" if settings.get("lines") else ""
    print(f"sweep: wrote {md}, sweep.csv, speedup.csv and sweep.png{lines} in {os.path.dirname(md)}",
          file=sys.stderr)
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ptxsim sweep", description=__doc__.strip().partition("\n\n")[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", nargs="?", help="the sweep's TOML file")
    ap.add_argument("--ptxsim", default=os.environ.get("PTXSIM") or default_ptxsim(),
                    help="the ptxsim command the cells run")
    back = ap.add_mutually_exclusive_group()
    back.add_argument("--local", action="store_true", help="run the cells on this machine (the default)")
    back.add_argument("--slurm", action="store_true", help="run the cells as one Slurm job array")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="--local: cells at a time")
    ap.add_argument("--partition", help="--slurm: the partition")
    ap.add_argument("--time", help="--slurm: each task's time limit (default: the spec's timeout + 2 min)")
    ap.add_argument("--mem", help="--slurm: each task's memory, e.g. 4G")
    ap.add_argument("--poll", type=float, default=10.0, help="--slurm: seconds between squeue polls")
    ap.add_argument("--out", help="the sweep's folder (default: sweep-NAME)")
    ap.add_argument("--retry-failed", action="store_true", help="run failed and timed-out cells again")
    ap.add_argument("--only", help="only these programs (comma-separated names)")
    ap.add_argument("--var", action="append", default=[], metavar="K=V", help="set a spec variable")
    ap.add_argument("--build", help="{build} in the spec (default: the folder above ptxsim's bin/)")
    ap.add_argument("--no-collect", action="store_true", help="run the cells only")
    ap.add_argument("--collect", metavar="DIR", help="collect a sweep's statistics")
    ap.add_argument("--baseline", help="--collect: the configuration speedups are taken over")
    ap.add_argument("--stats", help="--collect: the statistics, comma-separated (default: the spec's)")
    ap.add_argument("--run-cell", type=int, metavar="INDEX", help=argparse.SUPPRESS)
    ap.add_argument("--cells", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.run_cell is not None:
        if not a.cells:
            ap.error("--run-cell needs --cells FILE")
        return run_cell(a.run_cell, a.cells)
    stats = [s for s in (a.stats or "").split(",") if s]
    if a.collect:
        return do_collect(a.collect, a.baseline, stats)
    if not a.spec:
        ap.error("name a SPEC file, or --collect DIR")

    ptxsim = os.path.abspath(a.ptxsim)
    if not os.access(ptxsim, os.X_OK):
        sys.exit(f"sweep: no ptxsim command at {ptxsim} (--ptxsim PATH)")
    build = a.build or os.path.dirname(os.path.dirname(ptxsim))
    only = [s for s in (a.only or "").split(",") if s]
    try:
        settings, cells = specmod.load(a.spec, os.path.abspath(build), a.var, only)
    except specmod.SpecError as e:
        sys.exit(f"sweep: {e}")
    out = os.path.abspath(a.out or f"sweep-{settings['name']}")
    os.makedirs(out, exist_ok=True)
    cells_file = os.path.join(out, "cells.json")
    tmp = cells_file + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"ptxsim": ptxsim, "settings": settings, "cells": cells}, f, indent=1)
    os.replace(tmp, cells_file)

    states = [cellmod.state(out, c) for c in cells]
    done = sum(1 for s, _ in states if s == "ok")
    failed = [i for i, (s, _) in enumerate(states) if s == "failed"]
    todo = [i for i, (s, _) in enumerate(states) if s == "todo" or (s == "failed" and a.retry_failed)]
    print(f"sweep: {len(cells)} cells in {out}: {done} finished, {len(failed)} failed"
          f"{' (run again)' if a.retry_failed and failed else ''}, {len(todo)} to run", file=sys.stderr)
    for i in failed:
        if not a.retry_failed:
            print(f"sweep:   failed earlier: {cells[i]['program']} | {cells[i]['config']} | r{cells[i]['repetition']}"
                  f" ({states[i][1]}); log {os.path.join(cellmod.folder(out, cells[i]), 'log')}", file=sys.stderr)
    if a.slurm:
        slurm.run(out, cells, todo, settings, ptxsim, a)
    else:
        local.run(ptxsim, out, cells, todo, settings, a.jobs)

    bad = [(c, cellmod.state(out, c)) for c in cells]
    bad = [(c, s) for c, s in bad if s[0] != "ok"]
    for c, (st, reason) in bad:
        print(f"sweep: {'NOT RUN' if st == 'todo' else 'FAILED'}: {c['program']} | {c['config']} | "
              f"r{c['repetition']}: {reason or st}; log {os.path.join(cellmod.folder(out, c), 'log')}",
              file=sys.stderr)
    print(f"sweep: {len(cells) - len(bad)} of {len(cells)} cells passed", file=sys.stderr)
    if a.no_collect:
        return 1 if bad else 0
    rc = do_collect(out, None, stats)
    return 1 if bad else rc


if __name__ == "__main__":
    sys.exit(main())

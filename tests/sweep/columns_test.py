#!/usr/bin/env python3
"""
tests/sweep/columns_test.py -- a sweep's derived columns (experiments/sweep):
[[best]], per program the best of some configurations by the speedup
statistic, a tie going to the first listed, and a `like` column taking the
configuration at the place an earlier best column chose (pmode.toml's opttb
and pmode+opttb); [[ratio]], one configuration over another (dom.toml's
diverge on miss over blocking at each warp count); a variant run for some
programs only (programs = [...]), "-" in the table for the others;
and each variant family's curve over its last axis.  Checked on hand-made
cells against values worked out here; malformed specs are refused.
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "experiments", "sweep"))
import collect  # noqa: E402
import spec  # noqa: E402

STAT = "timing.gpu_ipc"
# ipc[program][config]
IPC = {
    "a": {"base": 2.0, "tb4": 3.0, "tb2": 1.0, "pm": 2.2, "pm4": 2.4, "pm2": 9.0},
    "b": {"base": 2.0, "tb4": 2.0, "tb2": 2.0, "pm": 2.5, "pm4": 1.0, "pm2": 1.0},   # a tie: base
    "c": {"base": 1.0, "tb4": None, "tb2": 1.5, "pm": 1.0, "pm4": 1.0, "pm2": 3.0},   # tb4 failed
}
CONFIGS = ["base", "tb4", "tb2", "pm", "pm4", "pm2"]


def main():
    settings = {"programs": list(IPC), "configs": CONFIGS,
                "best": [{"label": "opt", "of": ["base", "tb4", "tb2"], "like": None},
                         {"label": "pm+opt", "of": ["pm", "pm4", "pm2"], "like": "opt"}],
                "ratio": [{"label": "pm2/tb2", "of": "pm2", "over": "tb2"}]}
    rows = [({"program": p, "config": k}, "ok" if v is not None else "failed", "", {STAT: v})
            for p, cs in IPC.items() for k, v in cs.items()]
    sp = collect.speedups(rows, settings, "base", STAT)
    want = {"a": (1.5, 1.2, 9.0), "b": (1.0, 1.25, 0.5), "c": (1.5, 3.0, 2.0)}
    bad = 0
    for p, (opt, pm, ratio) in want.items():
        got = (sp[p]["opt"], sp[p]["pm+opt"], sp[p]["pm2/tb2"])
        if got != (opt, pm, ratio):
            print(f"FAIL: {p}: opt, pm+opt, pm2/tb2 = {got}, want {(opt, pm, ratio)}")
            bad += 1
    # A time (lower is better): the ratio is a speedup too.
    rows_t = [({"program": "a", "config": k}, "ok", "", {"timing.gpu_sim_cycle": v})
              for k, v in {"base": 100.0, "tb4": 50.0, "tb2": 200.0, "pm": 25.0, "pm4": 10.0, "pm2": 40.0}.items()]
    sp_t = collect.speedups(rows_t, dict(settings, programs=["a"]), "base", "timing.gpu_sim_cycle")
    if sp_t["a"]["pm2/tb2"] != 5.0 or sp_t["a"]["opt"] != 2.0 or sp_t["a"]["pm+opt"] != 10.0:
        print(f"FAIL: cycles: pm2/tb2 {sp_t['a']['pm2/tb2']} (want 5), opt {sp_t['a']['opt']} (want 2), "
              f"pm+opt {sp_t['a']['pm+opt']} (want 10)")
        bad += 1
    if collect.columns(settings)[-3:] != ["opt", "pm+opt", "pm2/tb2"]:
        print(f"FAIL: columns {collect.columns(settings)}")
        bad += 1
    # Malformed [[best]]: unknown configuration; `like` naming a column with
    # another number of configurations.
    for body in ('[[best]]\nlabel = "x"\nof = ["nope"]\n',
                 '[[best]]\nlabel = "x"\nof = ["s"]\n[[best]]\nlabel = "y"\nof = ["s", "s"]\nlike = "x"\n',
                 '[[ratio]]\nlabel = "r"\nof = "s"\nover = "nope"\n',
                 '[[ratio]]\nlabel = "s"\nof = "s"\nover = "s"\n'):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write('[[program]]\nname = "p"\npath = "/bin/true"\n[[variant]]\nlabel = "s"\n' + body)
        try:
            spec.load(f.name, "/tmp")
            print(f"FAIL: accepted\n{body}")
            bad += 1
        except spec.SpecError as e:
            print(f"refused as it should be: {e}")
        os.unlink(f.name)
    # The shipped specs: their derived columns load.
    st, _ = spec.load(os.path.join(ROOT, "experiments", "pmode.toml"), "/tmp")
    if [b["label"] for b in st["best"]] != ["opttb", "pmode+opttb"]:
        print(f"FAIL: pmode.toml's best columns: {st['best']}")
        bad += 1
    st, _ = spec.load(os.path.join(ROOT, "experiments", "dom.toml"), "/tmp")
    if len(st["ratio"]) != 10:
        print(f"FAIL: dom.toml's ratio columns: {st['ratio']}")
        bad += 1
    bad += check_some_programs()
    bad += check_lines()
    print("PASS sweep derived columns" if not bad else f"{bad} failures")
    return 1 if bad else 0


def check_lines():
    """A variant family's curve over its last axis: one series per value of
    its other axes, the geometric mean over the programs at each point."""
    bad = 0
    st, _ = spec.load(os.path.join(ROOT, "experiments", "dom.toml"), "/tmp")
    names = sorted(s["series"] for s in st["lines"])
    if names != ["linear block *w", "linear dom *w", "xor block *w", "xor dom *w"] or \
            any([v for v, _ in s["points"]] != ["1", "2", "4", "8", "16"] for s in st["lines"]):
        print(f"FAIL: dom.toml's curves: {st['lines']}")
        bad += 1
    settings = {"programs": ["a", "b"], "lines": [{"series": "s *", "x": "w", "points": [("1", "p1"), ("2", "p2")]}]}
    sp = {"a": {"p1": 1.0, "p2": 2.0}, "b": {"p1": 4.0, "p2": None}}
    got = collect.curves(sp, settings)
    if got != [("s *", "w", [("1", 2.0), ("2", 2.0)])]:
        print(f"FAIL: curves {got}")
        bad += 1
    return bad


def check_some_programs():
    """A variant run for some programs only: the others have no cell of it,
    and the table shows "-" there (and in a ratio over it), not FAIL."""
    bad = 0
    body = ('[[program]]\nnames = ["p", "q"]\npath = "/bin/{name}"\n'
            '[[variant]]\nlabel = "s"\n[[variant]]\nlabel = "t"\nset = { x = 1 }\nprograms = ["q"]\n'
            '[[ratio]]\nlabel = "t/s"\nof = "t"\nover = "s"\n')
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, "spec.toml")
        with open(path, "w") as f:
            f.write(body)
        settings, cells = spec.load(path, "/tmp")
        got = sorted((c["program"], c["config"]) for c in cells)
        if got != [("p", "s"), ("q", "s"), ("q", "t")]:
            print(f"FAIL: cells of a variant for some programs: {got}")
            bad += 1
        ipc = {("p", "s"): 1.0, ("q", "s"): 2.0, ("q", "t"): 3.0}
        for c in cells:
            d = os.path.join(out, "cells", c["key"])
            os.makedirs(d)
            with open(os.path.join(d, "stats.json"), "w") as f:
                f.write('{"launch": 1, "timing": {"gpu_sim_insn": %d, "gpu_sim_cycle": 1}}\n'
                        % ipc[(c["program"], c["config"])])
            with open(os.path.join(d, "done"), "w") as f:
                f.write("0\n")
        md, failed = collect.report(out, settings, cells, [STAT], "s", os.path.join(out, "table"))
        rows = {}
        for line in open(md):       # the speedup table's rows come first
            if line.startswith(("| p ", "| q ")):
                rows.setdefault(line[2], line.strip())
        if rows.get("p") != "| p | 1.000 | - | - |" or rows.get("q") != "| q | 1.000 | 1.500 | 1.500 |" or failed:
            print(f"FAIL: the table of a variant for some programs: {rows}, failed cells {failed}")
            bad += 1
        # A program run under some configurations only, named otherwise.
        with open(path, "w") as f:
            f.write(body + '[[program]]\nnames = ["p"]\nlabel = "{name} -G"\npath = "/bin/{name}-G"\n'
                    'configs = ["s"]\n')
        settings, cells = spec.load(path, "/tmp")
        got = sorted((c["program"], c["config"], c["path"]) for c in cells)
        if ("p -G", "s", "/bin/p-G") not in got or len(got) != 4:
            print(f"FAIL: a program under some configurations: {got}")
            bad += 1
        with open(path, "w") as f:
            f.write(body.replace('programs = ["q"]', "programs = []"))
        try:
            spec.load(path, "/tmp")
            print("FAIL: accepted an empty programs list")
            bad += 1
        except spec.SpecError as e:
            print(f"refused as it should be: {e}")
    return bad


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""
tests/sweep/drivers_test.py -- the four paper experiments run as sweeps:
every run an experiment driver (experiments/NAME/run) makes is a cell of
its sweep spec (experiments/NAME.toml), with the same preset and the same
overrides, for every sample the driver runs; so `ptxsim sweep
experiments/NAME.toml --slurm` followed by `experiments/NAME/run
--from-sweep DIR` makes the driver's own tables from a cluster's runs.
Then --from-sweep itself: a driver reads hand-made cells (one passing, one
failed, one missing) as the runs they stand for.
"""
import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "experiments", "sweep"))
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import ptxsim_experiment as px  # noqa: E402
import spec  # noqa: E402


def driver(name):
    path = os.path.join(ROOT, "experiments", name, "run")
    loader = importlib.machinery.SourceFileLoader(f"{name}_run", path)
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(mod)
    return mod


def driver_runs(name):
    """The runs a driver makes: [(preset, samples or None for every sample,
    [(label, settings)], build suffix, size)] (size None: the spec's own)."""
    d = driver(name)
    if name == "dom":
        chip = d.machine(2)
        forms = [("tarjan-2009", [n], confs, "", z) for n, z, confs in d.form_runs(spec_size(name), chip, d.SAMPLES)]
        confs = d.CONFIGS + d.ABLATIONS + d.LANE_SB
        return [("tarjan-2009", d.SAMPLES, [(lab, {**chip, **s}) for lab, s in confs], "", None)] + forms
    if name == "pmode":
        # ... and P-mode at each sample's best block count (OptTB), and the
        # ablations of the gap: the rename pool, the compiler's builds (each
        # with its environment: PTXSIM_SM) and size tiny.
        extra = [(f"pmode+opttb tb{t}", d.cfg(tb=t, pmode=True)) for t in d.TBS if t != 8]
        groups = [("kim-2015", d.SAMPLES, d.CONFIGS + extra, "", None)]
        if hasattr(d, "RENAME"):
            pair = [(d.BASE, d.cfg()), ("pmode pq8", d.cfg(pmode=True))]
            groups[0][2].append(("pmode rename", {**d.cfg(pmode=True), **d.RENAME}))
            groups += [("kim-2015", d.SAMPLES, [(lab, {**s, **env}) for lab, s in pair], suffix, None)
                       for _, suffix, env in d.BUILDS]
            groups.append(("kim-2015", d.SAMPLES, pair, "", "tiny"))
        return groups
    # cache and replay: the study, and its ablation's runs at their sizes.
    preset = {"cache": "khairy-2015", "replay": "turner-2012"}[name]
    size = spec_size(name)
    extra = d.ablation_runs(size) + (d.contention_runs(size) if hasattr(d, "contention_runs") else [])
    return [(preset, None, d.CONFIGS, "", None)] + [(preset, samples, confs, "", z) for z, samples, confs in extra]


def check_covered(name):
    return sum(check_group(name, *group) for group in driver_runs(name))


def check_group(name, preset, names, runs, suffix, size):
    with tempfile.TemporaryDirectory() as build:
        # A build's sample list, for the specs that run every sample.
        os.makedirs(os.path.join(build, "samples"))
        named = {n for group in driver_runs(name) for n in group[1] or []}
        with open(os.path.join(build, "samples", "samples.txt"), "w") as f:
            f.write("".join(f"{n}\n" for n in sorted(named | {"vector_add", "matmul_shared"})))
        settings, cells = spec.load(os.path.join(ROOT, "experiments", f"{name}.toml"), build)
    size = size or spec_size(name)
    bad = 0
    # What each cell runs, as --from-sweep finds it: the program's file (its
    # sample and build) and size, the preset and the overrides.
    have = {}
    for c in cells:
        sample, _, build_kind = os.path.basename(c["path"]).partition(".")
        have.setdefault((build_kind, tuple(c["args"]), c["preset"], px._settings_key(px.cell_settings(c))),
                        set()).add(sample)
    for label, s in runs:
        got = have.get((f"nvcc{suffix}", tuple(size.split()), preset, px._settings_key(s)))
        what = f"'{label}' ({preset}, {s}, nvcc{suffix}, {size})"
        if got is None:
            print(f"FAIL: {name}: the driver's run {what} is no cell of {name}.toml")
            bad += 1
        elif names and set(names) - got:
            print(f"FAIL: {name}: {what} lacks samples {sorted(set(names) - got)} in {name}.toml")
            bad += 1
    if not bad:
        print(f"{name}: the driver's {len(runs)} configurations (nvcc{suffix}, {size}) are each cells of {name}.toml")
    return bad


def spec_size(name):
    """The size a spec runs at ([vars] size)."""
    import tomllib
    with open(os.path.join(ROOT, "experiments", f"{name}.toml"), "rb") as f:
        return tomllib.load(f).get("vars", {}).get("size", "tiny")


def check_from_sweep():
    """Hand-made cells read back as the runs they stand for."""
    bad = 0
    with tempfile.TemporaryDirectory() as out:
        def cell(key, program, sets, done, records, env=None):
            d = os.path.join(out, "cells", key)
            os.makedirs(d)
            with open(os.path.join(d, "cell.json"), "w") as f:
                json.dump({"key": key, "program": program, "config": key, "repetition": 0, "mode": "timing",
                           "path": f"/b/samples/{program}.nvcc", "args": ["tiny"], "preset": "p",
                           "set": sets, "env": env or {}}, f)
            if records is not None:
                with open(os.path.join(d, "stats.json"), "w") as f:
                    for r in records:
                        f.write(json.dumps({"launch": 1, "timing": r}) + "\n")
            with open(os.path.join(d, "done"), "w") as f:
                f.write(done + "\n")
        t = {"gpu_sim_cycle": 100, "gpu_sim_insn": 640, "gpu_sim_warp_insn": 20}
        cell("a", "s", {"dom": "on", "throttle_warps": "2"}, "0", [t, t])
        cell("b", "s", {"dom": "off", "throttle_warps": "2"}, "124 timed out after 10 s", None)
        # A cell whose program has an environment of its own: the driver
        # names it as a setting (PTXSIM_SM), other variables are no setting.
        cell("c", "s", {"dom": "on", "throttle_warps": "2"}, "0", [t], {"PTXSIM_SM": "75", "OTHER": "x"})
        px.use_sweep(out)
        res = px.sweep("/b", ["s"], [("on", {"dom": "on", "throttle_warps": 2}),
                                     ("off", {"dom": "off", "throttle_warps": 2}),
                                     ("none", {"dom": "on", "throttle_warps": 4}),
                                     ("sm75", {"dom": "on", "throttle_warps": 2, "PTXSIM_SM": 75})],
                       "nvcc", "tiny", "p")
        on, off, none, sm75 = res["s"]["on"], res["s"]["off"], res["s"]["none"], res["s"]["sm75"]
        if not on["ok"] or on["cycles"] != 200 or on["thread_insts"] != 1280 or on["launches"] != 2:
            print(f"FAIL: a passing cell read back as {on}")
            bad += 1
        if not sm75["ok"] or sm75["cycles"] != 100:
            print(f"FAIL: a cell with its own environment read back as {sm75}")
            bad += 1
        if off["ok"] or "timed out" not in off["error"]:
            print(f"FAIL: a failed cell read back as {off}")
            bad += 1
        if none["ok"] or "not in the sweep" not in none["error"]:
            print(f"FAIL: a missing cell read back as {none}")
            bad += 1
        if px.samples("/b") != [("s", "")]:
            print(f"FAIL: the sweep's programs: {px.samples('/b')}")
            bad += 1
    return bad


def main():
    bad = sum(check_covered(n) for n in ("dom", "cache", "pmode", "replay"))
    bad += check_from_sweep()
    print("PASS experiments as sweeps" if not bad else f"{bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

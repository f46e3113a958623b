"""
ptxsim_experiment -- what the experiment scripts share: running the sample
suite under ptxsim's timing model with a configuration, reading the per-launch
statistics ptxsim writes, and printing tables and plots.

Every run is `ptxsim run --mode timing --config PRESET --set KEY=VALUE,...
--stats FILE -- SAMPLE SIZE`; the statistics file has one JSON record per
kernel launch, with the timing model's figures under "timing".
"""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build_dir(path=None):
    path = path or os.path.join(ROOT, "build")
    if not os.path.exists(os.path.join(path, "bin", "ptxsim")):
        sys.exit(f"experiment: no ptxsim in {path}/bin: build first (./setup.sh)")
    return path


def samples(build, only=None):
    """(name, pending reason) of every sample the build made, or with
    --from-sweep every program the sweep ran."""
    if _from_sweep:
        names = sorted({c["path"].rsplit("/", 1)[-1].partition(".")[0] for c in _from_sweep[1].values()})
        return [(n, "") for n in names if not only or n in only]
    out = []
    with open(os.path.join(build, "samples", "samples.txt")) as f:
        for line in f:
            name, _, reason = line.rstrip("\n").partition("\t")
            if name and (not only or name in only):
                out.append((name, reason))
    return out


def has_build(build, sample, compiler):
    """Whether the build made SAMPLE's COMPILER variant (the study
    variants are made for a few samples only)."""
    return bool(_from_sweep) or os.path.exists(os.path.join(build, "samples", f"{sample}.{compiler}"))


def read_stats(stats_path):
    """A --stats file totalled over its launches: cycles, instructions,
    launches and each launch's timing record; ok is False when a record
    was cut short (the program ended abruptly)."""
    totals = {"ok": True, "cycles": 0, "thread_insts": 0, "warp_insts": 0, "launches": 0, "records": []}
    with open(stats_path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                totals["ok"] = False
                continue
            t = rec.get("timing")
            if not t:
                continue
            totals["cycles"] += t["gpu_sim_cycle"]
            totals["thread_insts"] += t["gpu_sim_insn"]
            totals["warp_insts"] += t["gpu_sim_warp_insn"]
            totals["launches"] += 1
            totals["records"].append(t)
    return totals


def failed(error):
    return {"ok": False, "error": error, "cycles": 0, "thread_insts": 0, "warp_insts": 0, "launches": 0,
            "records": []}


def why(stderr):
    """What a failed run says of its failure: ptxsim's own first message
    (a refused launch, a kernel's fault), else the program's last line."""
    lines = stderr.strip().splitlines() or ["failed"]
    own = [l for l in lines if l.startswith("ptxsim:")]
    line = (own or lines[-1:])[0]
    return line if len(line) <= 300 else line[:100] + " ... " + line[-200:]   # the end says why


def run(build, sample, compiler, size, preset, settings, timeout=None):
    """Run one sample in timing mode; totals over its launches, or an error
    (after PTXSIM_EXPERIMENT_TIMEOUT seconds, default 1800, a timeout)."""
    timeout = timeout or float(os.environ.get("PTXSIM_EXPERIMENT_TIMEOUT", "1800"))
    exe = os.path.join(build, "samples", f"{sample}.{compiler}")
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        stats_path = tmp.name
    cmd = [os.path.join(build, "bin", "ptxsim"), "run", "--quiet", "--mode", "timing", "--config", preset]
    # Settings named PTXSIM_* are the run's environment (PTXSIM_SM: the
    # compute capability simulated), the others the model's.
    env = dict(os.environ, **{k: str(v) for k, v in settings.items() if k.startswith("PTXSIM_")})
    model = {k: v for k, v in settings.items() if not k.startswith("PTXSIM_")}
    if model:
        cmd += ["--set", ",".join(f"{k}={v}" for k, v in model.items())]
    cmd += ["--stats", stats_path, "--", exe] + size.split()   # "small 2048": a size and dimensions
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        totals = read_stats(stats_path)
        totals["ok"] = totals["ok"] and p.returncode == 0 and any(l.startswith("PASS") for l in p.stdout.splitlines())
        totals["error"] = "" if totals["ok"] else why(p.stderr)
        return totals
    except subprocess.TimeoutExpired:
        return failed("timeout")
    finally:
        os.unlink(stats_path)


# A sweep's results folder the drivers take their runs from (--from-sweep),
# and its cells indexed by what each one runs.
_from_sweep = None


def parse_args(ap):
    """The driver's arguments, with --from-sweep DIR: take every run from a
    finished `ptxsim sweep` of the experiment's spec (run locally or on a
    cluster) instead of running it here.  The tables are the ones the
    driver makes from its own runs; a run the sweep lacks or failed is
    reported as failed, naming it."""
    ap.add_argument("--from-sweep", metavar="DIR",
                    help="take the runs from this `ptxsim sweep` results folder instead of running them")
    a = ap.parse_args()
    if a.from_sweep:
        use_sweep(a.from_sweep)
    return a


def _settings_key(settings):
    return tuple(sorted((k, ("true" if v else "false") if isinstance(v, bool) else str(v))
                        for k, v in settings.items()))


def cell_settings(cell):
    """A sweep cell's settings as a driver names them: its overrides, and
    its environment's PTXSIM_* variables (which run() takes from the
    settings)."""
    return {**cell["set"], **{k: v for k, v in cell.get("env", {}).items() if k.startswith("PTXSIM_")}}


def use_sweep(out):
    """Index the cells of the sweep results folder `out`."""
    global _from_sweep
    sys.path.insert(0, os.path.join(HERE, "sweep"))
    import cell as sweep_cell
    cells = {}
    top = os.path.join(out, "cells")
    if not os.path.isdir(top):
        sys.exit(f"experiment: {out} is not a sweep's results folder (no cells/ in it)")
    for key in sorted(os.listdir(top)):
        try:
            with open(os.path.join(top, key, "cell.json")) as f:
                c = json.load(f)
        except (OSError, json.JSONDecodeError):
            continue
        if c.get("mode") != "timing" or c.get("repetition", 0) != 0:
            continue
        # By what it runs, not by its name: a spec may name a sample's -G
        # build or its other size as programs of their own.
        ident = (os.path.basename(c["path"]), tuple(c["args"]), c["preset"], _settings_key(cell_settings(c)))
        cells[ident] = c
    _from_sweep = (out, cells, sweep_cell)


def _from_sweep_run(sample, compiler, size, preset, settings):
    out, cells, sweep_cell = _from_sweep
    c = cells.get((f"{sample}.{compiler}", tuple(size.split()), preset, _settings_key(settings)))
    if not c:
        return failed(f"not in the sweep {out}")
    st, reason = sweep_cell.state(out, c)
    if st != "ok":
        return failed(f"sweep cell {c['key']}: {st} {reason}".strip())
    totals = read_stats(os.path.join(sweep_cell.folder(out, c), "stats.json"))
    totals["error"] = "" if totals["ok"] else "stats.json has a record cut short"
    return totals


def command():
    """The command line that made this run, from the repository root and
    without --build, --out and --from-sweep (which name this machine's
    folders), for the results file to record."""
    args, skip = [], False
    for a in sys.argv[1:]:
        if skip:
            skip = False
            continue
        if a in ("--build", "--out", "--from-sweep"):
            skip = True
            continue
        if a.startswith(("--build=", "--out=", "--from-sweep=")):
            continue
        args.append(a if a and " " not in a else repr(a))
    script = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    return " ".join([script] + args)


def preset_params(build, preset):
    """{parameter: value} of a preset, as `ptxsim configs PRESET` lists it."""
    p = subprocess.run([os.path.join(build, "bin", "ptxsim"), "configs", preset], capture_output=True, text=True)
    out = {}
    for line in p.stdout.splitlines():
        name, eq, rest = line.partition("=")
        if eq and name.strip().isidentifier():
            out[name.strip()] = rest.split("#")[0].strip()
    return out


def ipc(t):
    return t["thread_insts"] / t["cycles"] if t.get("cycles") else 0.0


def _identity(build, sample, compiler):
    """What a run's result depends on besides its settings: the ptxsim
    command, its shims and the sample program, as their sizes and times."""
    files = [os.path.join(build, "bin", "ptxsim"), os.path.join(build, "samples", f"{sample}.{compiler}")]
    lib = os.path.join(build, "lib")
    if os.path.isdir(lib):
        files += [os.path.join(lib, f) for f in sorted(os.listdir(lib))]
    out = []
    for f in files:
        try:
            st = os.stat(f)
            out.append([os.path.basename(f), st.st_size, st.st_mtime_ns])
        except OSError:
            out.append([os.path.basename(f), None, None])
    return out


def _kept(keep, build, sample, compiler, size, preset, settings):
    """The file a passing run's result is kept in, under folder keep."""
    key = json.dumps([sample, compiler, size, preset, sorted(settings.items()),
                      _identity(build, sample, compiler)], default=str)
    return os.path.join(keep, f"{sample}.{hashlib.sha1(key.encode()).hexdigest()[:16]}.json")


def sweep(build, names, configs, compiler, size, preset, jobs=None, keep=None):
    """Run every sample under every configuration; results[sample][config].
    JOBS runs at once: PTXSIM_EXPERIMENT_JOBS, else 2 (each timing run uses
    one core).  With a folder `keep`, each passing run's result is kept
    there, keyed by the sample, the settings and the ptxsim build, and a
    later sweep takes it from there instead of running it again: a study
    stopped halfway resumes, and its tables can be remade at no cost.
    With PTXSIM_EXPERIMENT_DRY=1 nothing runs and every run fails at once:
    the driver still writes its tables, whose headers the results-file
    check (tests/results_files.py) compares with the committed ones."""
    results = {n: {} for n in names}
    if os.environ.get("PTXSIM_EXPERIMENT_DRY") == "1":
        for n in names:
            for label, _ in configs:
                results[n][label] = {"ok": False, "error": "dry run", "cycles": 0, "thread_insts": 0,
                                     "warp_insts": 0, "launches": 0, "records": []}
        return results
    jobs = jobs or int(os.environ.get("PTXSIM_EXPERIMENT_JOBS", "2"))

    def one(n, settings):
        if _from_sweep:
            return _from_sweep_run(n, compiler, size, preset, settings)
        path = _kept(keep, build, n, compiler, size, preset, settings) if keep else None
        if path and os.path.exists(path):
            with open(path) as f:
                return json.load(f)
        r = run(build, n, compiler, size, preset, settings)
        if path and r["ok"]:
            os.makedirs(keep, exist_ok=True)
            with open(path + ".tmp", "w") as f:
                json.dump(r, f)
            os.replace(path + ".tmp", path)
        return r

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(one, n, settings): (n, label)
                   for n in names for label, settings in configs}
        for fut in concurrent.futures.as_completed(futures):
            n, label = futures[fut]
            results[n][label] = fut.result()
            print(f"  {n:16s} {label:28s} {'ok' if results[n][label]['ok'] else 'FAIL ' + results[n][label]['error']}",
                  file=sys.stderr)
    return results


def geomean(xs):
    xs = [x for x in xs if x > 0]
    if not xs:
        return 0.0
    prod = 1.0
    for x in xs:
        prod *= x
    return prod ** (1.0 / len(xs))


def harmean(xs):
    xs = [x for x in xs if x > 0]
    return len(xs) / sum(1.0 / x for x in xs) if xs else 0.0


def speedup_table(results, labels, baseline, out):
    """A markdown table of IPC speedup over the baseline configuration."""
    out.write("| sample | " + " | ".join(labels) + " |\n|---|" + "---:|" * len(labels) + "\n")
    per = {l: [] for l in labels}
    for n in sorted(results):
        row = []
        for l in labels:
            s = speedup(results, n, l, baseline)
            if s is None:
                row.append("FAIL")
                continue
            per[l].append(s)
            row.append(f"{s:.3f}")
        out.write(f"| {n} | " + " | ".join(row) + " |\n")
    out.write("| **harmonic mean** | " + " | ".join(f"{harmean(per[l]):.3f}" for l in labels) + " |\n")
    out.write("| **geometric mean** | " + " | ".join(f"{geomean(per[l]):.3f}" for l in labels) + " |\n")
    failures = {}
    for n in sorted(results):
        for l in [baseline] + labels:
            r = results[n].get(l)
            if r and not r["ok"]:
                failures.setdefault(n, (l, r["error"]))
    if failures:
        out.write("\nRuns that failed (the first of each sample's):\n\n" +
                  "".join(f"- {n} ({l}): {e}\n" for n, (l, e) in failures.items()))
    return per


PAPER_HEADER = "| paper's figure | its setup | ptxsim's figure | our setup | ratio |\n|---|---|---:|---|---:|\n"


def paper_row(out, what, paper, its_setup, mine, our_setup):
    """One row of a study's table of the paper's figures beside ptxsim's
    (PAPER_HEADER): ratio is ptxsim's figure over the paper's."""
    if mine is None:
        out.write(f"| {what} | {paper:.3g} ({its_setup}) | - | {our_setup} | - |\n")
        return
    out.write(f"| {what} | {paper:.3g} ({its_setup}) | {mine:.3f} | {our_setup} | "
              f"{mine / paper if paper else 0:.2f} |\n")


def speedup(results, sample, label, baseline):
    """IPC of configuration `label` over `baseline` for one sample, or None
    where either run failed."""
    r, b = results[sample].get(label), results[sample].get(baseline)
    if not r or not b or not r["ok"] or not b["ok"] or not ipc(b):
        return None
    return ipc(r) / ipc(b)


def bar_plot(results, labels, baseline, path, title, mean=geomean, mean_name="geometric mean"):
    """IPC speedup per sample and configuration, as a PNG (needs matplotlib),
    with the configurations' means over the samples as the last group of
    bars, as the papers draw them."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("experiment: matplotlib is not installed; no plot (pip install matplotlib)", file=sys.stderr)
        return False
    names = sorted(n for n in results if results[n].get(baseline, {}).get("ok"))
    width = 0.8 / max(1, len(labels))
    fig, ax = plt.subplots(figsize=(max(8, (len(names) + 1) * 0.6), 4.5))
    for i, l in enumerate(labels):
        ys = [speedup(results, n, l, baseline) or 0 for n in names]
        ys.append(mean([y for y in ys if y]))
        ax.bar([x + i * width for x in range(len(names) + 1)], ys, width, label=l)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axvline(len(names) - 0.5 + width * (len(labels) - 1) / 2, color="grey", linewidth=0.6, linestyle=":")
    ax.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(names) + 1)])
    ax.set_xticklabels(names + [mean_name], rotation=60, ha="right", fontsize=8)
    ax.set_ylabel(f"IPC speedup over {baseline}")
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=min(4, len(labels)))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True

"""
collect -- a finished sweep's statistics: per cell, and as speedups.

A statistic is a path into the --stats records ("timing.gpu_ipc",
"timing.l1d.misses", "warp_insts"), totalled over the cell's launches:
counts (cycles, instructions, accesses, bytes) are summed; ratios are
recomputed from the summed counts they are made of (gpu_ipc from
gpu_sim_insn / gpu_sim_cycle, a cache's miss_rate from its misses /
accesses, simd_efficiency, the per-kilocycle and per-entry rates);
other fractions, means and bandwidths (names ending in rate, occupancy,
efficiency, coverage, mean, gbs) are averaged over the launches weighted
by their cycles; the rest is summed.  "PATH:HOW" picks the total
explicitly: sum, mean (cycle-weighted), min, max, last.

Speedups are taken of one statistic (the spec's speedup, gpu_ipc by
default) against the baseline configuration: value / baseline, or
baseline / value for times (names ending in cycle, cycles or _s), with
repetitions averaged first and the geometric and harmonic means over the
programs that passed in both.
"""
import csv
import json
import math
import os
import sys

import cell as cellmod

MEAN_SUFFIXES = ("rate", "occupancy", "efficiency", "coverage", "mean", "gbs")
# Ratios made of summed counts: name -> (numerator, denominator, scale), the
# paths relative to the ratio's own parent.
RATIOS = {
    "gpu_ipc": ("gpu_sim_insn", "gpu_sim_cycle", 1.0),
    "miss_rate": ("misses", "accesses", 1.0),
    "pre_executed_per_entry": ("pre_executed", "entries", 1.0),
    "skipped_per_entry": ("skipped", "entries", 1.0),
}


def records(path):
    """The launch records of a stats file (profiler markers and the like left out)."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                rec = json.loads(line)
                if "launch" in rec:
                    out.append(rec)
    return out


def lookup(rec, parts):
    v = rec
    for p in parts:
        if not isinstance(v, dict) or p not in v:
            return None
        v = v[p]
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def total(recs, path, how):
    vals = [(lookup(r, path), lookup(r, ["timing", "gpu_sim_cycle"]) or 1) for r in recs]
    vals = [(v, w) for v, w in vals if v is not None]
    if not vals:
        return None
    if how == "sum":
        return sum(v for v, _ in vals)
    if how == "mean":
        weight = sum(w for _, w in vals)
        return sum(v * w for v, w in vals) / weight if weight else None
    if how == "min":
        return min(v for v, _ in vals)
    if how == "max":
        return max(v for v, _ in vals)
    if how == "last":
        return vals[-1][0]
    raise ValueError(f"statistic {'.'.join(path)}: unknown total '{how}' (sum, mean, min, max, last)")


def statistic(recs, stat):
    """One statistic over a cell's launch records (None where no record has it)."""
    path, _, how = stat.partition(":")
    parts = path.split(".")
    name, parent = parts[-1], parts[:-1]
    if how:
        return total(recs, parts, how)
    if name in RATIOS:
        num, den, scale = RATIOS[name]
        n, d = total(recs, parent + [num], "sum"), total(recs, parent + [den], "sum")
        if n is not None and d is not None:
            return scale * n / d if d else 0.0
    if name == "simd_efficiency":
        base = ["timing", "gpu_sim_insn", "gpu_sim_warp_insn"] if parent == ["timing"] else \
            [None, "thread_insts", "warp_insts"]
        n = total(recs, ([base[0]] if base[0] else []) + [base[1]], "sum")
        d = total(recs, ([base[0]] if base[0] else []) + [base[2]], "sum")
        if n is not None and d:
            return n / (32 * d)
    if len(parent) >= 2 and parent[-1] == "reservation_fails_per_kilocycle":
        n = total(recs, parent[:-1] + ["reservation_fails", name], "sum")
        d = total(recs, ["timing", "gpu_sim_cycle"], "sum")
        if n is not None and d:
            return 1000.0 * n / d
    if name.endswith(MEAN_SUFFIXES):
        return total(recs, parts, "mean")
    return total(recs, parts, "sum")


def lower_is_better(stat):
    name = stat.partition(":")[0].split(".")[-1]
    return name.endswith(("cycle", "cycles", "_s"))


def gather(out, cells, stats):
    """[(cell, state, reason, {stat: value})] for every cell of the sweep."""
    rows = []
    for c in cells:
        st, reason = cellmod.state(out, c)
        values = {}
        if st == "ok":
            try:
                recs = records(os.path.join(cellmod.folder(out, c), "stats.json"))
                values = {s: statistic(recs, s) for s in stats}
            except (OSError, json.JSONDecodeError) as e:
                st, reason = "failed", f"stats.json unreadable: {e}"
        rows.append((c, st, reason, values))
    return rows


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.4g}" if abs(v) < 1e4 else f"{v:.0f}"
    return str(int(v))


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def harmean(xs):
    xs = [x for x in xs if x > 0]
    return len(xs) / sum(1.0 / x for x in xs) if xs else 0.0


def speedups(rows, settings, baseline, stat):
    """{program: {config: speedup or None}} and the configurations in order."""
    by = {}
    for c, st, _, values in rows:
        slot = by.setdefault(c["program"], {}).setdefault(c["config"], [])
        slot.append(values.get(stat) if st == "ok" else None)
    mean = {p: {k: (sum(v) / len(v) if v and None not in v else None) for k, v in cs.items()}
            for p, cs in by.items()}
    out = {}
    for p in settings["programs"]:
        base = mean.get(p, {}).get(baseline)
        out[p] = {}
        for k in settings["configs"]:
            v = mean.get(p, {}).get(k)
            if v is None or not base:
                out[p][k] = None
            elif lower_is_better(stat):
                out[p][k] = base / v if v else None
            else:
                out[p][k] = v / base
        chose = {}
        for b in settings.get("best", []):
            vals = [out[p][k] for k in b["of"]]
            if b["like"]:
                at = chose.get(b["like"])
            else:
                ok = [i for i, v in enumerate(vals) if v is not None]
                at = max(ok, key=lambda i: (vals[i], -i)) if ok else None
            chose[b["label"]] = at
            out[p][b["label"]] = vals[at] if at is not None else None
        for r in settings.get("ratio", []):
            x, y = out[p][r["of"]], out[p][r["over"]]
            out[p][r["label"]] = x / y if x is not None and y else None
    return out


def columns(settings):
    """The speedup table's columns: the configurations, then the best-of and
    ratio ones."""
    return (settings["configs"] + [b["label"] for b in settings.get("best", [])] +
            [r["label"] for r in settings.get("ratio", [])])


def needs(settings):
    """{column: (the configurations its value comes from, whether it needs
    all of them or any one)}."""
    out = {k: ([k], all) for k in settings["configs"]}
    out.update({b["label"]: (b["of"], any) for b in settings.get("best", [])})
    out.update({r["label"]: ([r["of"], r["over"]], all) for r in settings.get("ratio", [])})
    return out


def report(out, settings, cells, stats, baseline, dest):
    """Write DEST/sweep.md, sweep.csv, speedup.csv and sweep.png (and
    sweep-lines.png where a variant has axes); returns the number of cells
    that did not pass."""
    rows = gather(out, cells, stats)
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "sweep.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "config", "repetition", "status", "log"] + stats)
        for c, st, reason, values in rows:
            log = os.path.join(cellmod.folder(out, c), "log")
            w.writerow([c["program"], c["config"], c["repetition"], st if st != "failed" else f"failed: {reason}",
                        log] + ["" if values.get(s) is None else values[s] for s in stats])
    stat = settings["speedup"]
    sp = speedups(rows, settings, baseline, stat)
    labels = columns(settings)
    with open(os.path.join(dest, "speedup.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program"] + labels)
        for p in settings["programs"]:
            w.writerow([p] + ["" if sp[p][k] is None else f"{sp[p][k]:.6f}" for k in labels])
    md = os.path.join(dest, "sweep.md")
    bad = [(c, st, reason) for c, st, reason, _ in rows if st != "ok"]
    with open(md, "w") as f:
        f.write(f"# {settings['name']}\n\n{stat.partition(':')[0]} speedup over {baseline}\n\n")
        f.write("| program | " + " | ".join(labels) + " |\n|---|" + "---:|" * len(labels) + "\n")
        per = {k: [] for k in labels}
        need = needs(settings)
        have = {(c["program"], c["config"]) for c in cells}
        for p in settings["programs"]:
            row = []
            for k in labels:
                s = sp[p][k]
                # "-": the spec does not run what the column needs for this program.
                srcs, how = need[k]
                absent = not how((p, src) in have for src in srcs)
                row.append("-" if s is None and absent else "FAIL" if s is None else f"{s:.3f}")
                if s is not None:
                    per[k].append(s)
            f.write(f"| {p} | " + " | ".join(row) + " |\n")
        f.write("| **harmonic mean** | " + " | ".join(f"{harmean(per[k]):.3f}" for k in labels) + " |\n")
        f.write("| **geometric mean** | " + " | ".join(f"{geomean(per[k]):.3f}" for k in labels) + " |\n")
        f.write("\nStatistics per cell, totalled over its launches\n\n")
        f.write("| program | config | rep | " + " | ".join(stats) + " |\n|---|---|---:|" + "---:|" * len(stats) + "\n")
        for c, st, _, values in rows:
            cols = [fmt(values.get(s)) for s in stats] if st == "ok" else [st.upper()] * len(stats)
            f.write(f"| {c['program']} | {c['config']} | {c['repetition']} | " + " | ".join(cols) + " |\n")
        if bad:
            f.write(f"\n{len(bad)} of {len(rows)} cells did not pass\n\n| cell | state | log |\n|---|---|---|\n")
            for c, st, reason in bad:
                log = os.path.join(cellmod.folder(out, c), "log")
                f.write(f"| {c['program']} / {c['config']} / r{c['repetition']} | "
                        f"{'not run' if st == 'todo' else reason} | {log} |\n")
    plot(sp, settings["programs"], [k for k in labels if k != baseline], baseline, stat,
         os.path.join(dest, "sweep.png"), settings["name"])
    if settings.get("lines"):
        plot_lines(sp, settings, baseline, stat, os.path.join(dest, "sweep-lines.png"))
    return md, bad


def curves(sp, settings):
    """Each variant family's curve over its last axis: [(series, axis,
    [(value, geometric-mean speedup over the programs)])]."""
    out = []
    for s in settings.get("lines", []):
        pts = [(v, geomean([sp[p][k] for p in settings["programs"] if sp[p].get(k)])) for v, k in s["points"]]
        out.append((s["series"], s["x"], pts))
    return out


def pyplot():
    """matplotlib's pyplot drawing into files, or None where it is not
    installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def plot_lines(sp, settings, baseline, stat, path):
    """The curves as lines, one per series (needs matplotlib)."""
    plt = pyplot()
    if not plt:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    axis = None
    for series, axis, pts in curves(sp, settings):
        numeric = all(v.replace(".", "", 1).isdigit() for v, _ in pts)
        xs = [float(v) for v, _ in pts] if numeric else list(range(len(pts)))
        ax.plot(xs, [y for _, y in pts], marker="o", label=series)
        if not numeric:
            ax.set_xticks(xs)
            ax.set_xticklabels([v for v, _ in pts])
    ax.set_xlabel(axis or "")
    ax.set_ylabel(f"{stat.partition(':')[0]} over {baseline} (geometric mean)")
    ax.set_title(settings["name"])
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot(sp, programs, labels, baseline, stat, path, title):
    """The speedups as grouped bars, one group per program (needs matplotlib)."""
    plt = pyplot()
    if not plt:
        print("sweep: matplotlib is not installed here; no plot (apt install python3-matplotlib)", file=sys.stderr)
        return False
    names = [p for p in programs if any(sp[p][k] is not None for k in labels)]
    width = 0.8 / max(1, len(labels))
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 0.6), 4.5))
    for i, k in enumerate(labels):
        ax.bar([x + i * width for x in range(len(names))], [sp[p][k] or 0 for p in names], width, label=k)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(names))])
    ax.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel(f"{stat.partition(':')[0]} speedup over {baseline}")
    ax.set_title(title)
    if labels:
        ax.legend(fontsize=7, ncol=min(4, len(labels)))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True

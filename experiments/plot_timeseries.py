#!/usr/bin/env python3
"""Render the timing model's time series as a picture (what `ptxsim plot` runs).

  plot_timeseries.py STATS.json OUT.png [--launch N]

STATS.json is what `ptxsim run --mode timing --set sample_cycles=N --stats
STATS.json` writes: one JSON record per launch, the series under
"timing" -> "timeseries".  The picture has one column of panels per launch
(or the one chosen): IPC and active warps, the scheduler's stall mix, L1 and
L2 miss rates, DRAM bandwidth, against simulated cycles.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("stats")
    ap.add_argument("out")
    ap.add_argument("--launch", type=int, help="only this launch (1 = the first)")
    a = ap.parse_args()
    launches = []
    try:
        f = open(a.stats)
    except OSError as e:
        sys.exit("plot: %s" % e)
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except ValueError:
                sys.exit("plot: %s:%d is not a JSON record (expected `ptxsim run --stats` output)" % (a.stats, n))
            if "launch" in r and r.get("timing", {}).get("timeseries"):
                if a.launch is None or r["launch"] == a.launch:
                    launches.append(r)
    if not launches:
        sys.exit("plot: no time series in %s (run with --mode timing --set sample_cycles=N)" % a.stats)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot: matplotlib is not installed for %s: install Debian's python3-matplotlib "
                 "(./setup.sh does) or `pip install matplotlib`" % sys.executable)
    launches = launches[:8]
    fig, axes = plt.subplots(4, len(launches), figsize=(5 * len(launches), 10), squeeze=False, sharex="col")
    for col, r in enumerate(launches):
        ts = r["timing"]["timeseries"]
        x = [p["cycle"] for p in ts]
        ax = axes[0][col]
        ax.plot(x, [p["ipc"] for p in ts], label="IPC")
        ax2 = ax.twinx()
        ax2.plot(x, [p["active_warps"] for p in ts], color="gray", linestyle="--", label="active warps")
        ax.set_title("launch %d: %s" % (r["launch"], r["kernel"][:40]), fontsize=8)
        ax.set_ylabel("IPC")
        ax2.set_ylabel("active warps")
        ax = axes[1][col]
        names = list(ts[0]["stalls"].keys())
        ax.stackplot(x, *[[p["stalls"][n] for p in ts] for n in names], labels=names)
        ax.set_ylabel("scheduler cycles")
        if col == 0:
            ax.legend(fontsize=6, loc="upper right")
        ax = axes[2][col]
        ax.plot(x, [p["l1_miss_rate"] for p in ts], label="L1D")
        ax.plot(x, [p["l2_miss_rate"] for p in ts], label="L2")
        ax.set_ylabel("miss rate")
        ax.legend(fontsize=6)
        ax = axes[3][col]
        ax.plot(x, [p["dram_gbs"] for p in ts])
        ax.set_ylabel("DRAM GB/s")
        ax.set_xlabel("cycle")
    fig.tight_layout()
    fig.savefig(a.out, dpi=100)
    print("plot: wrote %s" % a.out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""stats_check.py PTXSIM OUTDIR PROGRAM [ARGS...]

Runs PROGRAM in timing mode with --stats-format gpgpusim and --stats, then
reads the log as the usual GPGPU-Sim scraping does (Accel-Sim's get_stats.py
per-kernel mode, reimplemented minimally): a "kernel_name = " line starts a
kernel; each statistic is one regular expression whose first group is the
value; the aggregate ones (gpu_tot_*, total dram reads/writes) are
differenced between consecutive kernels.  Each kernel's figures must equal
the JSON record of the same launch.
"""
import json, os, re, subprocess, sys

ptxsim, out, prog = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(out, exist_ok=True)
js = os.path.join(out, "stats.json")
run = subprocess.run([ptxsim, "run", "--quiet", "--mode", "timing", "--config", "gtx480", "--stats", js,
                      "--stats-format", "gpgpusim", "--"] + prog, capture_output=True, text=True)
open(os.path.join(out, "log.txt"), "w").write(run.stdout)
if run.returncode != 0:
    sys.exit(f"stats_check: the program failed ({run.returncode}):\n{run.stderr}")

# The regexes, in the style of a stats YAML: (name, regex, aggregate?).
# L2_BW's is written "(.*)GB\/Sec": the "(.*)+GB\/Sec" of Accel-Sim's
# example list captures the empty string in Python, on GPGPU-Sim's own logs
# as on these.
stats = [
    ("gpu_tot_sim_insn", r"gpu_tot_sim_insn\s*=\s*(.*)", True),
    ("gpu_tot_sim_cycle", r"gpu_tot_sim_cycle\s*=\s*(.*)", True),
    ("total_dram_reads", r"total dram reads\s*=\s*(.*)", True),
    ("total_dram_writes", r"total dram writes\s*=\s*(.*)", True),
    ("gpu_sim_cycle", r"gpu_sim_cycle\s*=\s*(.*)", False),
    ("gpu_sim_insn", r"gpu_sim_insn\s*=\s*(.*)", False),
    ("gpu_ipc", r"gpu_ipc\s*=\s*(.*)", False),
    ("gpu_occupancy", r"gpu_occupancy\s*=\s*(.*)%", False),
    ("L2_BW", r"L2_BW\s*=\s*(.*)GB\/Sec", False),
    ("gpgpu_n_tot_w_icount", r"gpgpu_n_tot_w_icount\s*=\s*(.*)", False),
    ("gpgpu_n_tot_thrd_icount", r"gpgpu_n_tot_thrd_icount\s*=\s*(.*)", False),
    ("L1D_accesses", r"L1D_total_cache_accesses\s*=\s*(.*)", False),
    ("L1D_misses", r"L1D_total_cache_misses\s*=\s*(.*)", False),
    ("L1D_pending", r"L1D_total_cache_pending_hits\s*=\s*(.*)", False),
    ("L2_accesses", r"L2_total_cache_accesses\s*=\s*(.*)", False),
    ("L2_misses", r"L2_total_cache_misses\s*=\s*(.*)", False),
    ("L2_miss_rate", r"L2_total_cache_miss_rate\s*=\s*(.*)", False),
    ("L2_pending", r"L2_total_cache_pending_hits\s*=\s*(.*)", False),
]
tokens = [(n, re.compile(r), agg) for n, r, agg in stats]
kernels, cur, last_raw = [], None, {}
for line in run.stdout.splitlines():
    m = re.match(r"kernel_name\s+=\s+(.*)", line)
    if m:
        cur = {"name": m.group(1).strip()}
        kernels.append(cur)
        continue
    for name, tok, agg in tokens:
        m = tok.search(line.rstrip())
        if m and cur is not None:
            v = float(m.group(1).strip())
            if agg:
                cur[name] = v - last_raw.get(name, 0.0)
                last_raw[name] = v
            else:
                cur[name] = v

recs = [json.loads(l) for l in open(js) if l.strip()]
recs = [r for r in recs if "launch" in r]
bad = []
if len(recs) != len(kernels) or not kernels:
    bad.append(f"{len(kernels)} kernels in the log, {len(recs)} launch records")
if not re.search(r"^GPGPU-Sim: \*\*\* exit detected \*\*\*$", run.stdout, re.M):
    bad.append("no exit line")
for k, r in zip(kernels, recs):
    t = r["timing"]
    want = {
        "gpu_tot_sim_cycle": t["gpu_sim_cycle"], "gpu_sim_cycle": t["gpu_sim_cycle"],
        "gpu_tot_sim_insn": t["gpu_sim_insn"], "gpu_sim_insn": t["gpu_sim_insn"],
        "gpu_ipc": t["gpu_ipc"], "gpu_occupancy": 100 * t["gpu_occupancy"],
        "gpgpu_n_tot_w_icount": t["gpu_sim_warp_insn"], "gpgpu_n_tot_thrd_icount": t["gpu_sim_insn"],
        "total_dram_reads": t["dram"]["reads"], "total_dram_writes": t["dram"]["writes"],
        "L1D_accesses": t["l1d"]["accesses"], "L1D_misses": t["l1d"]["misses"] - t["l1d"]["merges"],
        "L1D_pending": t["l1d"]["merges"],
        "L2_accesses": t["l2"]["accesses"], "L2_misses": t["l2"]["misses"] - t["l2"]["merges"],
        "L2_pending": t["l2"]["merges"],
        "L2_miss_rate": (t["l2"]["misses"] - t["l2"]["merges"]) / t["l2"]["accesses"] if t["l2"]["accesses"] else None,
        "L2_BW": t["icnt"]["down_bytes"] / (t["gpu_sim_cycle"] / 700e6) / 1e9,   # gtx480: 700 MHz
    }
    if k["name"] != r["mangled"]:
        bad.append(f"launch {r['launch']}: kernel_name {k['name']}, record {r['mangled']}")
    for name, w in want.items():
        if w is None:
            continue
        g = k.get(name)
        if g is None:
            bad.append(f"launch {r['launch']}: {name} not found")
        # The JSON rounds ratios to 4 decimals (occupancy as a fraction).
        elif abs(g - w) > (0.01 if name in ("gpu_ipc", "gpu_occupancy") else 1e-4 * max(1.0, abs(w))):
            bad.append(f"launch {r['launch']}: {name} = {g}, the JSON gives {w}")
for b in bad:
    print("stats_check:", b)
print(f"stats_check: {len(kernels)} kernels, {len(bad)} problems")
sys.exit(1 if bad else 0)

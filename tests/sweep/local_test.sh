#!/bin/bash
# local_test.sh PTXSIM SAMPLE_DIR SOURCE_DIR -- `ptxsim sweep --local` and
# --collect without a cluster: experiments/replay.toml on two samples at
# size tiny; every cell's statistics as totalled from its stats.json
# (cycles and instructions summed over the launches, IPC from the sums);
# the speedup table; --collect with another baseline and statistics; a
# second run that runs nothing; and a spec error named with its reason.
set -u
ptxsim=$1
samples=$2
src=$3
work=$(mktemp -d /tmp/ptxsim-sweep-local.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
# The build folder {build} names: the samples and the command side by side.
mkdir -p "$work/build"
ln -s "$samples" "$work/build/samples"

sweep() {
  "$ptxsim" sweep "$@"
}
sweep "$src/experiments/replay.toml" --local -j 2 --build "$work/build" --only vector_add,transpose \
  --out "$work/out" > "$work/out.txt" 2> "$work/err.txt" || { cat "$work/err.txt"; fail "sweep"; }
grep -q "20 of 20 cells passed" "$work/err.txt" || { cat "$work/err.txt"; fail "not 20 cells passed"; }
grep -q "^| transpose | 1.000 | " "$work/out.txt" || { cat "$work/out.txt"; fail "no speedup row for transpose"; }
grep -q "^| \*\*geometric mean\*\* | 1.000 | " "$work/out.txt" || fail "no geometric mean"
for f in sweep.md sweep.csv speedup.csv; do
  [ -s "$work/out/$f" ] || fail "no $f"
done

/usr/bin/python3 - "$work/out" <<'EOF' || fail "collected statistics differ from the stats files"
import csv, json, os, sys
out = sys.argv[1]
cells = {c["key"]: c for c in json.load(open(os.path.join(out, "cells.json")))["cells"]}
rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
assert len(rows) == 20, len(rows)
for r in rows:
    d = os.path.dirname(r["log"])
    recs = [json.loads(l)["timing"] for l in open(os.path.join(d, "stats.json")) if l.strip()]
    cyc, insn = sum(t["gpu_sim_cycle"] for t in recs), sum(t["gpu_sim_insn"] for t in recs)
    assert int(r["timing.gpu_sim_cycle"]) == cyc and int(r["timing.gpu_sim_insn"]) == insn, r
    assert abs(float(r["timing.gpu_ipc"]) - insn / cyc) < 1e-9, r
    assert cells[os.path.basename(d)]["program"] == r["program"]
print("sweep.csv: every cell's totals agree with its stats.json")
EOF

# --collect again over another baseline, with other statistics.
sweep --collect "$work/out" --baseline replay --stats timing.gpu_sim_cycle,timing.l1d.accesses \
  > "$work/collect.txt" 2>&1 || { cat "$work/collect.txt"; fail "--collect"; }
grep -q "speedup over replay" "$work/collect.txt" || fail "--baseline not used"
head -1 "$work/out/sweep.csv" | grep -q "timing.l1d.accesses" || fail "--stats not used"

# Nothing runs again.
sweep "$src/experiments/replay.toml" --build "$work/build" --only vector_add,transpose --out "$work/out" \
  --no-collect > /dev/null 2> "$work/again.txt" || { cat "$work/again.txt"; fail "second sweep"; }
grep -q "20 finished, 0 failed, 0 to run" "$work/again.txt" || { cat "$work/again.txt"; fail "cells ran again"; }

# A spec with an unknown key is refused with the key named.
printf 'name = "x"\npresetz = ["gtx480"]\n' > "$work/bad.toml"
sweep "$work/bad.toml" --out "$work/bad" > "$work/bad.txt" 2>&1 && fail "a bad spec was accepted"
grep -q "unknown key presetz" "$work/bad.txt" || { cat "$work/bad.txt"; fail "the bad key is not named"; }
echo "PASS sweep --local and --collect"

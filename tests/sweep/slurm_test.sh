#!/bin/bash
# slurm_test.sh PTXSIM SAMPLE_DIR -- `ptxsim sweep` on a real Slurm cluster:
# a one-node cluster (munged, slurmctld, slurmd with 2 CPUs, loopback only)
# started in a scratch folder, a sweep of 2 samples x 2 presets x 2 SM
# counts at size tiny submitted as two job arrays (the cluster's
# MaxArraySize is 5; the first followed again by a second sweep command
# after the first is stopped), and its statistics compared cell by cell with a --local run of the same spec.  Then resuming:
# cells deleted or left without their done marker are the only ones the
# next --slurm run submits, and the others are not run again; a failed cell
# is reported with its log and run again only with --retry-failed.
# Exits 77 (skipped) where slurm-wlm and munge are not installed.
set -u
ptxsim=$1
samples=$2
here=$(cd "$(dirname "$0")" && pwd)

for cmd in munged slurmctld slurmd sbatch squeue sinfo; do
  if ! command -v "$cmd" >/dev/null 2>&1; then
    echo "SKIP: $cmd not found: this test needs slurm-wlm and munge (apt-get install slurm-wlm munge)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: starting slurmd needs root"
  exit 77
fi
for s in vector_add matmul_shared; do
  [ -x "$samples/$s.nvcc" ] || { echo "FAIL: no sample $samples/$s.nvcc"; exit 1; }
done

. "$here/slurm_cluster.sh"
work=$(mktemp -d /tmp/ptxsim-sweep-test.XXXXXX)
cleanup() {
  slurm_stop
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
start=$(date +%s.%N)
elapsed() {
  /usr/bin/python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$start" "$(date +%s.%N)"
}

cat > "$work/spec.toml" <<'EOF'
name = "slurmtest"
presets = ["gtx480", "h100"]
expect = "^PASS"
stats = ["timing.gpu_sim_cycle", "timing.gpu_sim_insn", "timing.gpu_ipc", "timing.l1d.misses",
         "timing.l1d.miss_rate", "timing.dram.reads", "timing.gpu_occupancy"]
timeout = 120

[[program]]
names = ["vector_add", "matmul_shared"]
path = "{samples}/{name}.nvcc"
args = ["tiny"]

[axes]
n_sm = [4, 16]
EOF
sweep() {
  "$ptxsim" sweep "$work/spec.toml" --var samples="$samples" "$@"
}

slurm_start "$work/cluster" || fail "the one-node cluster did not start"
echo "cluster up after $(elapsed)"

# Two job arrays for the 8 cells (the cluster's MaxArraySize is 5); the
# sweep is stopped once it has submitted the first, and started again
# follows that job instead of submitting its cells again, then submits the
# rest.  Then the same spec locally.
set -m                  # the follower in a process group of its own, to stop it whole
sweep --slurm --poll 0.3 --out "$work/slurm" > "$work/submit.txt" 2>&1 &
follower=$!
set +m
for _ in $(seq 100); do
  grep -q "submitted job array" "$work/submit.txt" && break
  sleep 0.1
done
kill -- -"$follower"
wait "$follower" 2>/dev/null
grep -q "submitted job array .* (5 cells, --array=0-4: cells 0-4;" "$work/submit.txt" ||
  { cat "$work/submit.txt"; fail "not a first array of 5 (MaxArraySize)"; }
# Held, its tasks not yet started stay queued (two run at a time here),
# so the next command finds the job still active whatever the timing;
# released once that command says it follows it.
job=$(sed -n 's/.*submitted job array \([0-9]*\) .*/\1/p' "$work/submit.txt")
scontrol hold "$job" >/dev/null 2>&1
sweep --slurm --poll 0.3 --out "$work/slurm" > "$work/slurm.txt" 2>&1 &
second=$!
for _ in $(seq 300); do
  grep -q "following it first" "$work/slurm.txt" && break
  sleep 0.1
done
scontrol release "$job" >/dev/null 2>&1
wait "$second" || { cat "$work/slurm.txt"; fail "--slurm sweep"; }
grep -q "submitted job array .* (3 cells, --array=0-2: cells 5-7;" "$work/slurm.txt" ||
  { cat "$work/slurm.txt"; fail "the other 3 cells not submitted as a second array"; }
grep -q "still queued or running: following it first" "$work/slurm.txt" || { cat "$work/slurm.txt"; fail "did not follow the job"; }
! grep -q "cells 0-4;" "$work/slurm.txt" || { cat "$work/slurm.txt"; fail "submitted the cells twice"; }
echo "slurm sweep done after $(elapsed)"
sweep --local -j 2 --out "$work/local" > "$work/local.txt" 2>&1 || { cat "$work/local.txt"; fail "--local sweep"; }

# The same cells with the same statistics: every record of every cell's
# stats.json alike but for the host time it took, and the collected CSVs.
/usr/bin/python3 - "$work/slurm" "$work/local" <<'EOF' || fail "--slurm and --local differ"
import csv, json, os, sys
a, b = sys.argv[1:3]
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "wall_s"}
    return [strip(v) for v in x] if isinstance(x, list) else x
keys = sorted(os.listdir(os.path.join(a, "cells")))
assert keys == sorted(os.listdir(os.path.join(b, "cells"))), "different cells"
assert len(keys) == 8, keys
for k in keys:
    ra, rb = ([strip(json.loads(l)) for l in open(os.path.join(d, "cells", k, "stats.json")) if l.strip()]
              for d in (a, b))
    assert ra and ra == rb, f"cell {k}: statistics differ"
rows = [[r[:4] + r[5:] for r in csv.reader(open(os.path.join(d, "sweep.csv")))] for d in (a, b)]
assert rows[0] == rows[1], "sweep.csv differ"
assert all(r[3] == "ok" for r in rows[0][1:]), rows[0]
cycles = {r[4] for r in rows[0][1:]}
assert len(cycles) > 1, "the configurations all gave the same cycles"
print(f"{len(keys)} cells alike under --slurm and --local")
EOF
grep -q "geometric mean" "$work/slurm/sweep.md" || fail "no speedup table in sweep.md"

# Resume: two cells deleted, one without its done marker (as if its task
# were killed); the next --slurm run submits those three and no other.
mapfile -t cells < <(/usr/bin/python3 -c 'import json, sys
for c in json.load(open(sys.argv[1] + "/cells.json"))["cells"]:
    print(sys.argv[1] + "/cells/" + c["key"])' "$work/slurm")
rm -rf "${cells[1]}" "${cells[6]}"
rm -f "${cells[3]}/done"
sweep --slurm --poll 0.3 --out "$work/slurm" > "$work/resume.txt" 2>&1 || { cat "$work/resume.txt"; fail "resumed sweep"; }
grep -q "8 cells in .*: 5 finished, 0 failed, 3 to run" "$work/resume.txt" || { cat "$work/resume.txt"; fail "resume count"; }
grep -q "submitted job array .* (3 cells, --array=0-2: cells 1,3,6;" "$work/resume.txt" || { cat "$work/resume.txt"; fail "resume array"; }
for i in 0 1 2 3 4 5 6 7; do
  want=1
  [ "$i" = 3 ] && want=2
  got=$(wc -l < "${cells[$i]}/runs")
  [ "$got" = "$want" ] || fail "cell $i ran $got times, expected $want"
done
echo "resumed: only the 3 unfinished cells ran again ($(elapsed))"

# A failed cell is reported with its log and kept, and run again only
# with --retry-failed (locally: the back end does not matter here).
echo "1 exit status 1" > "${cells[2]}/done"
sweep --local --out "$work/slurm" > "$work/failed.txt" 2>&1 && fail "a sweep with a failed cell exited 0"
grep -q "failed earlier: .*; log ${cells[2]}/log" "$work/failed.txt" || { cat "$work/failed.txt"; fail "failed cell not reported"; }
grep -q "0 to run" "$work/failed.txt" || fail "the failed cell was run again without --retry-failed"
grep -q "1 of 8 cells did not pass" "$work/slurm/sweep.md" || fail "collect does not list the failed cell"
sweep --local --retry-failed --out "$work/slurm" > "$work/retry.txt" 2>&1 || { cat "$work/retry.txt"; fail "--retry-failed"; }
[ "$(wc -l < "${cells[2]}/runs")" = 2 ] || fail "--retry-failed did not run the failed cell once"
echo "PASS sweep on Slurm: 8 cells as two job arrays equal to --local, resumed and retried ($(elapsed))"

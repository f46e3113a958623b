#!/bin/sh
# timing_check.sh PTXSIM SIM_TIME_PROGRAM VECTOR_ADD_PROGRAM OUTDIR
#
# Timing mode end to end: the program passes with the same results as in
# functional mode; the launch record carries the model's statistics; events
# measure simulated time (elapsed = cycles / clock) and %clock64 counts
# simulated cycles (a dependent chain of FMAs takes at least its latency
# per link); two runs give the same cycles; the timeline is valid JSON with
# one span per CTA; and bad configurations are refused before the program
# runs, with the reason.
set -u
ptxsim=$1 simtime=$2 vadd=$3 dir=$4
mkdir -p "$dir"
fail=0
say() { echo "timing_check: $*"; fail=1; }

run() {     # run OUT.json OUT.txt ARGS...
  json=$1 txt=$2; shift 2
  "$ptxsim" run --quiet --mode timing --stats "$json" "$@" > "$txt" 2>&1
}

run "$dir/a.json" "$dir/a.txt" --config gtx480 --trace "$dir/a.trace" -- "$simtime" ||
  { cat "$dir/a.txt"; say "sim_time failed in timing mode"; }
run "$dir/b.json" "$dir/b.txt" --config gtx480 -- "$simtime" || say "second run failed"
grep -q "^PASS sim_time " "$dir/a.txt" || say "no PASS line"
python3 - "$dir" <<'PY' || fail=1
import json, re, sys
d = sys.argv[1]
def rec(name):
    rs = [json.loads(l) for l in open(f"{d}/{name}.json") if l.strip()]
    rs = [r for r in rs if "launch" in r]
    assert len(rs) == 1, f"{name}: expected one launch record, got {len(rs)}"
    assert "timing" in rs[0], f"{name}: the record has no timing statistics"
    return rs[0]
a, b = rec("a"), rec("b")
t = a["timing"]
bad = []
if t["gpu_sim_cycle"] <= 0: bad.append("no cycles")
if t["gpu_sim_warp_insn"] != a["warp_insts"]: bad.append("timing and engine disagree on warp-instructions")
if t != b["timing"]: bad.append("two runs differ")
out = open(f"{d}/a.txt").read()
m = re.search(r"elapsed_ms=([0-9.]+) clock_delta=([0-9]+) iterations=([0-9]+)", out)
if not m:
    bad.append("no figures printed")
else:
    ms, delta, n = float(m.group(1)), int(m.group(2)), int(m.group(3))
    cycles, mhz = t["gpu_sim_cycle"], 700          # gtx480's core clock
    want_ms = cycles / (mhz * 1e3)
    if abs(ms - want_ms) > 1e-3 * want_ms + 1e-6:
        bad.append(f"events measured {ms} ms, the model ran {cycles} cycles = {want_ms} ms")
    if not (4 * n <= delta <= cycles):
        bad.append(f"clock64 delta {delta} outside [{4 * n}, {cycles}] for {n} dependent FMAs of latency 4")
tr = json.load(open(f"{d}/a.trace"))
spans = [e for e in tr["traceEvents"] if e.get("ph") == "X"]
if len(spans) != 1: bad.append(f"timeline has {len(spans)} CTA spans, expected 1")
for x in bad:
    print("timing_check:", x)
sys.exit(1 if bad else 0)
PY

# The same results as functional mode, on a multi-CTA grid.
"$ptxsim" run --quiet --mode timing --config h100 -- "$vadd" tiny | grep -q "^PASS vector_add " ||
  say "vector_add fails in timing mode on h100"

# Bad configurations: refused before the program runs, naming the problem.
expect_refused() {  # PATTERN ARGS...
  pat=$1; shift
  out=$("$ptxsim" run --quiet --mode timing "$@" -- "$vadd" tiny 2>&1) && say "accepted: $*"
  echo "$out" | grep -q "PASS" && say "the program ran despite: $*"
  echo "$out" | grep -Eq "$pat" || { echo "$out"; say "no '$pat' in the refusal of: $*"; }
}
expect_refused "no timing configuration 'nope'" --config nope
expect_refused "unknown parameter 'l1_setz'" --set l1_setz=4
expect_refused "l1_assoc = 0 is out of range" --set l1_assoc=0
expect_refused "gtx480.cfg with --set/PTXSIM_SET l1i_line=48: l1i_line \\(48\\) must be a power of two" --set l1i_line=48
printf 'n_sm = 4\nl1_sets = many\n' > "$dir/bad.cfg"
expect_refused "bad.cfg:2: .*l1_sets" --config "$dir/bad.cfg"
"$ptxsim" configs | grep -q "^gtx480 " || say "ptxsim configs does not list gtx480"
"$ptxsim" configs h100 | grep -q "^n_sm *= 132" || say "ptxsim configs h100 does not show 132 SMs"
exit $fail

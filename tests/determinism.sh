#!/usr/bin/env bash
# determinism.sh PTXSIM SAMPLE_DIR WORK_DIR SAMPLE...
#
# Runs each sample twice in functional mode and twice in timing mode, each
# time with --stats, and passes only if the two runs of a pair agree byte
# for byte: the program's output, ptxsim's messages and the statistics
# JSON.  The one field that measures the host, "wall_s", is blanked first.
set -u
ptxsim=$1 samples=$2 work=$3
shift 3
mkdir -p "$work"
fail=0
run() {   # run TAG SAMPLE MODE
  local out=$work/$2.$3.$1
  "$ptxsim" run --quiet --mode "$3" --stats "$out.json" -- "$samples/$2.nvcc" tiny > "$out.txt" 2>&1 ||
    { echo "determinism: $2 ($3) failed:"; cat "$out.txt"; fail=1; }
  sed -E -i 's/"wall_s":[0-9.]+/"wall_s":-/g' "$out.json"
}
for s in "$@"; do
  for mode in functional timing; do
    run a "$s" "$mode"
    run b "$s" "$mode"
    for ext in txt json; do
      if cmp -s "$work/$s.$mode.a.$ext" "$work/$s.$mode.b.$ext"; then
        echo "determinism: $s $mode $ext: same ($(wc -c < "$work/$s.$mode.a.$ext") bytes)"
      else
        echo "determinism: $s $mode $ext: the two runs differ"
        diff "$work/$s.$mode.a.$ext" "$work/$s.$mode.b.$ext" | head -c 2000
        fail=1
      fi
    done
  done
done
exit $fail

#!/bin/sh
# run_check.sh PTXSIM GPGPUSIM_CONFIG VECTOR_ADD_PROGRAM OUTDIR
#
# The program runs in timing mode on a GPGPU-Sim configuration: it passes,
# its launch record has the model's cycles, and the options that were not
# translated are listed exactly once.
set -u
ptxsim=$1 config=$2 prog=$3 dir=$4
mkdir -p "$dir"
fail=0
say() { echo "run_check: $*"; fail=1; }
"$ptxsim" run --mode timing --config "$config" --stats "$dir/run.json" -- "$prog" > "$dir/run.txt" 2>&1 ||
  { cat "$dir/run.txt"; say "the program failed"; }
grep -q "^PASS vector_add" "$dir/run.txt" || say "no PASS line"
n=$(grep -c "not modelled:" "$dir/run.txt")
[ "$n" -eq 1 ] || say "the not-modelled list appears $n times, not once"
grep -q '"gpu_sim_cycle":[1-9]' "$dir/run.json" || say "no cycles in the launch record"
[ $fail -eq 0 ] && echo "run_check: ok"
exit $fail

#!/bin/sh
# stats_check.sh PTXSIM PROGRAM OUT.json
#
# Runs PROGRAM with `ptxsim run --stats OUT.json` and checks the record of
# its launch: names, geometry, counters and memory operations by space.
set -u
ptxsim=$1 prog=$2 out=$3
rm -f "$out"
"$ptxsim" run --quiet --stats "$out" -- "$prog" tiny || { echo "the program failed"; exit 1; }
cat "$out"
fail=0
for want in '"launch":1,' '"kernel":"vector_add(float const\*, float const\*, float\*, int)"' \
            '"mangled":"_Z10vector_addPKfS0_Pfi"' '"grid":\[4,1,1\]' '"block":\[256,1,1\]' \
            '"dynamic_shared":0' '"status":"ok"' '"warp_insts":[1-9]' '"thread_insts":[1-9]' \
            '"simd_efficiency":0\.[0-9]' '"mem_ops":{"generic":[0-9]*,[^}]*"global":[1-9]' '"wall_s":[0-9]'; do
  grep -q -- "$want" "$out" || { echo "stats_check: no match for $want"; fail=1; }
done
[ "$(wc -l < "$out")" -eq 1 ] || { echo "stats_check: expected one record"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$out" ||
    { echo "stats_check: not one JSON record per line"; fail=1; }
fi
exit $fail

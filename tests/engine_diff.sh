#!/usr/bin/env bash
# engine_diff.sh PTXSIM PROGRAM [ARGS...]
#
# Differential test of the functional engines: runs PROGRAM under the
# interpreter and under the compiled tier at each level named in
# ENGINE_DIFF_LEVELS ("optimised", "quick", or both; default optimised),
# every unit compiled before the first launch (PTXSIM_JIT_HOT=0, with
# PTXSIM_JIT_QUICK_ONLY=1 for quick; into a disk cache of its own), on one host
# thread each (so float atomics add in one order), and requires the same
# exit status, the same standard output byte for byte, and the same
# statistics for every launch (--stats JSON, host times removed).  The
# compiled tier must also have been used: a program it could not compile
# fails the test.
#
# A program that prints host-measured times (cudaEventElapsedTime) is
# compared by its verdicts instead (each PASS or FAIL with the sample's
# name): set ENGINE_DIFF_VERDICT=1.  One whose streams' launches may
# interleave in another order from run to run compares its launches'
# statistics as a set (launch numbers dropped): ENGINE_DIFF_UNORDERED=1.
# One whose kernels spin until the host (or work in another stream) gets
# somewhere runs instruction counts that depend on the host's timing: its
# statistics are not compared (ENGINE_DIFF_STATS=0).
set -u
if [ $# -lt 2 ]; then
  echo "usage: engine_diff.sh PTXSIM PROGRAM [ARGS...]" >&2
  exit 2
fi
ptxsim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compiled=${ENGINE_DIFF_LEVELS:-optimised}
for e in interp $compiled; do
  engine=jit quick_only=0
  case $e in
    interp) engine=interp ;;
    quick) quick_only=1 ;;
    optimised) ;;
    *) echo "engine_diff.sh: unknown level $e in ENGINE_DIFF_LEVELS" >&2; exit 2 ;;
  esac
  PTXSIM_JIT_HOT=0 PTXSIM_JIT_QUICK_ONLY=$quick_only PTXSIM_JIT_CACHE="$tmp/cache" \
    "$ptxsim" run --quiet --threads 1 --engine $engine --stats "$tmp/$e.json" -- "$@" > "$tmp/$e.out" 2> "$tmp/$e.err"
  echo $? > "$tmp/$e.rc"
  if [ -n "${ENGINE_DIFF_UNORDERED:-}" ]; then
    sed -E 's/"wall_s":[0-9.e+-]+,?//; s/"launch":[0-9]+,?//' "$tmp/$e.json" | LC_ALL=C sort > "$tmp/$e.stats"
  else
    sed -E 's/"wall_s":[0-9.e+-]+,?//' "$tmp/$e.json" > "$tmp/$e.stats"
  fi
  grep -oE '^(PASS|FAIL) [^ ]+' "$tmp/$e.out" > "$tmp/$e.verdict"
done
fail=0
for e in $compiled; do
  if ! cmp -s "$tmp/interp.rc" "$tmp/$e.rc"; then
    echo "exit status differs: interpreter $(cat "$tmp/interp.rc"), $e $(cat "$tmp/$e.rc")"
    fail=1
  fi
  if [ -n "${ENGINE_DIFF_VERDICT:-}" ]; then
    if ! [ -s "$tmp/interp.verdict" ] || ! cmp -s "$tmp/interp.verdict" "$tmp/$e.verdict"; then
      echo "verdicts differ ($e):"; cat "$tmp/interp.verdict" "$tmp/$e.verdict"; fail=1
    fi
  elif ! cmp -s "$tmp/interp.out" "$tmp/$e.out"; then
    echo "standard output differs ($e):"; diff "$tmp/interp.out" "$tmp/$e.out" | head -20; fail=1
  fi
  if [ "${ENGINE_DIFF_STATS:-1}" != 0 ] && ! cmp -s "$tmp/interp.stats" "$tmp/$e.stats"; then
    echo "statistics differ ($e):"; diff "$tmp/interp.stats" "$tmp/$e.stats" | head -10; fail=1
  fi
  if grep -q "compiled tier is unavailable" "$tmp/$e.err"; then
    grep "compiled tier is unavailable" "$tmp/$e.err"; fail=1
  fi
done
[ $fail = 0 ] && echo "same output and statistics under the interpreter and $compiled: $*"
exit $fail

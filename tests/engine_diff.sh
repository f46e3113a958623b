#!/usr/bin/env bash
# engine_diff.sh PTXSIM PROGRAM [ARGS...]
#
# Differential test of the two functional engines: runs PROGRAM under the
# interpreter and under the compiled tier with every unit compiled before
# the first launch (PTXSIM_JIT_HOT=0, into a disk cache of its own), on one
# host thread each (so float atomics add in one order), and requires the
# same exit status, the same standard output byte for byte, and the same
# statistics for every launch (--stats JSON, host times removed).  The compiled tier must also have
# been used: a program it could not compile fails the test.
#
# A program that prints host-measured times (cudaEventElapsedTime) is
# compared by its verdicts instead (each PASS or FAIL with the sample's
# name): set ENGINE_DIFF_VERDICT=1.
set -u
if [ $# -lt 2 ]; then
  echo "usage: engine_diff.sh PTXSIM PROGRAM [ARGS...]" >&2
  exit 2
fi
ptxsim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for e in interp jit; do
  PTXSIM_JIT_HOT=0 PTXSIM_JIT_CACHE="$tmp/cache" "$ptxsim" run --quiet --threads 1 --engine $e --stats "$tmp/$e.json" -- "$@" \
    > "$tmp/$e.out" 2> "$tmp/$e.err"
  echo $? > "$tmp/$e.rc"
done
fail=0
if ! cmp -s "$tmp/interp.rc" "$tmp/jit.rc"; then
  echo "exit status differs: interpreter $(cat "$tmp/interp.rc"), compiled $(cat "$tmp/jit.rc")"
  fail=1
fi
if [ -n "${ENGINE_DIFF_VERDICT:-}" ]; then
  grep -oE '^(PASS|FAIL) [^ ]+' "$tmp/interp.out" > "$tmp/interp.verdict"
  grep -oE '^(PASS|FAIL) [^ ]+' "$tmp/jit.out" > "$tmp/jit.verdict"
  if ! [ -s "$tmp/interp.verdict" ] || ! cmp -s "$tmp/interp.verdict" "$tmp/jit.verdict"; then
    echo "verdicts differ:"; cat "$tmp/interp.verdict" "$tmp/jit.verdict"; fail=1
  fi
elif ! cmp -s "$tmp/interp.out" "$tmp/jit.out"; then
  echo "standard output differs:"; diff "$tmp/interp.out" "$tmp/jit.out" | head -20; fail=1
fi
for e in interp jit; do
  sed -E 's/"wall_s":[0-9.e+-]+,?//' "$tmp/$e.json" > "$tmp/$e.stats"
done
if ! cmp -s "$tmp/interp.stats" "$tmp/jit.stats"; then
  echo "statistics differ:"; diff "$tmp/interp.stats" "$tmp/jit.stats" | head -10; fail=1
fi
if grep -q "compiled tier is unavailable" "$tmp/jit.err"; then
  grep "compiled tier is unavailable" "$tmp/jit.err"; fail=1
fi
[ $fail = 0 ] && echo "same output and statistics under both engines: $*"
exit $fail

#!/bin/sh
# tests/gpu/tma_diff.sh PTXSIM TMA_PROBE ANSWERS -- run tests/gpu/tma_probe
# under ptxsim in every configuration ANSWERS (tests/gpu/h200-tma.txt, an
# H200's answers) lists, each in a process of its own, and fail on the
# first answer that differs.  A refused copy must also be explained:
# ptxsim's message names the rule.
set -eu
here=$(dirname "$0")
grep -v '^#' "$3" | while IFS= read -r want; do
  args=$(printf '%s\n' "$want" | sh "$here/tma_configs.sh")
  # shellcheck disable=SC2086 -- the arguments are words
  out=$("$1" run --quiet -- "$2" $args 2>&1) || true
  got=$(printf '%s\n' "$out" | grep -E '^[a-z_]+ fill' || true)
  if [ "$got" != "$want" ]; then
    echo "FAIL: the H200 answered: $want"
    echo "      ptxsim answered:   $got"
    printf '%s\n' "$out" | head -5
    exit 1
  fi
  case $want in *illegal*)
    printf '%s\n' "$out" | grep -q "must start on a 16-byte boundary" ||
      { echo "FAIL: no reason given for: $want"; printf '%s\n' "$out" | head -5; exit 1; } ;;
  esac
done
echo "PASS tma_diff: every configuration answered as the H200 did"

#!/usr/bin/env bash
# expect.sh STATUS REGEX COMMAND [ARGS...]
#
# Runs COMMAND, shows its output, and passes only if its exit status is
# STATUS ("0", a number, or "nonzero") and its output (stdout and stderr
# together) has a line matching the extended regular expression REGEX.
set -u
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
case $want in
  nonzero) [ "$status" -ne 0 ] || { echo "expect.sh: exit status 0, wanted non-zero"; exit 1; } ;;
  *) [ "$status" -eq "$want" ] || { echo "expect.sh: exit status $status, wanted $want"; exit 1; } ;;
esac
# A crash is never an expected failure.
if [ "$status" -ge 128 ]; then
  echo "expect.sh: killed by signal $((status - 128))"
  exit 1
fi
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "expect.sh: no line matches: $regex"; exit 1; }
exit 0

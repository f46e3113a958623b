#!/usr/bin/env bash
# check.sh STATUS EXPECT_FILE COMMAND [ARGS...]
#
# Runs COMMAND, shows its output, and passes only if its exit status is
# STATUS ("0", a number, or "nonzero") and its output (stdout and stderr
# together) satisfies every line of EXPECT_FILE: an extended regular
# expression some output line must match, or, after "! ", one no line may
# match.  Blank lines and lines starting with "#" are ignored.
set -u
want=$1 expect=$2
shift 2
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
fail() { echo "check.sh: $*"; exit 1; }
case $want in
  nonzero) [ "$status" -ne 0 ] || fail "exit status 0, wanted non-zero" ;;
  *) [ "$status" -eq "$want" ] || fail "exit status $status, wanted $want" ;;
esac
# A crash is never an expected failure.
[ "$status" -lt 128 ] || fail "killed by signal $((status - 128))"
while IFS= read -r line; do
  case $line in
    ''|'#'*) ;;
    '! '*) ! printf '%s\n' "$out" | grep -Eq -- "${line#! }" || fail "a line matches: ${line#! }" ;;
    *) printf '%s\n' "$out" | grep -Eq -- "$line" || fail "no line matches: $line" ;;
  esac
done < "$expect"
exit 0

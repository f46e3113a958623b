#!/usr/bin/env bash
# expect.sh STATUS REGEX COMMAND [ARGS...]
# expect.sh STATUS @EXPECT_FILE COMMAND [ARGS...]
#
# Runs COMMAND, shows its output, and passes only if its exit status is
# STATUS ("0", a number, or "nonzero") and its output (stdout and stderr
# together) has a line matching the extended regular expression REGEX.
# With @EXPECT_FILE, every line of the file is such a REGEX, or, after
# "! ", one no output line may match; blank lines and lines starting with
# "#" are ignored.
set -u
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
fail() { echo "expect.sh: $*"; exit 1; }
case $want in
  nonzero) [ "$status" -ne 0 ] || fail "exit status 0, wanted non-zero" ;;
  *) [ "$status" -eq "$want" ] || fail "exit status $status, wanted $want" ;;
esac
# A crash is never an expected failure.
[ "$status" -lt 128 ] || fail "killed by signal $((status - 128))"
check() {
  case $1 in
    '! '*) ! printf '%s\n' "$out" | grep -Eq -- "${1#! }" || fail "a line matches: ${1#! }" ;;
    *) printf '%s\n' "$out" | grep -Eq -- "$1" || fail "no line matches: $1" ;;
  esac
}
case $regex in
  @*)
    while IFS= read -r line; do
      case $line in ''|'#'*) ;; *) check "$line" ;; esac
    done < "${regex#@}" ;;
  *) check "$regex" ;;
esac
exit 0

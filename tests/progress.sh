#!/bin/sh
# tests/progress.sh PTXSIM PROGRAM ARGS... -- the status line of a long
# launch: shown on a terminal (the run under script(1), a pseudo-terminal),
# erased before the launch's summary; absent when stderr is a pipe or the
# run is --quiet.  The line shows once a launch has run
# PTXSIM_PROGRESS_AFTER seconds, 0.2 here (a second by default), so
# PROGRAM's launches must take well over 0.2 s (matmul_shared small's:
# 1.0 s), whatever the machine's speed.
set -eu
ptxsim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PTXSIM_PROGRESS_AFTER=0.2
cmd="$ptxsim run --mode timing --config gtx480 -- $*"
script -qec "$cmd" "$tmp/tty" > /dev/null 2>&1
if ! grep -qa 'ptxsim: .*: block [0-9]* of [0-9]*, .* warp-insts (.*/s), .* cycles' "$tmp/tty"; then
    echo "FAIL: no status line on the terminal:"
    tr '\r' '\n' < "$tmp/tty" | head -5
    exit 1
fi
grep -qa '^PASS' "$tmp/tty" || { echo "FAIL: the program did not pass"; exit 1; }
# The summary line starts clean: the status line was erased before it.
tr '\r' '\n' < "$tmp/tty" | grep -a 'cycles on gtx480' | grep -qav 'block [0-9]* of' \
    || { echo "FAIL: the summary shares a line with the status line"; exit 1; }
echo "on a terminal: $(tr '\r' '\n' < "$tmp/tty" | grep -ac 'block [0-9]* of') status lines"
# shellcheck disable=SC2086
$ptxsim run --mode timing --config gtx480 -- "$@" > "$tmp/out" 2> "$tmp/err"
if grep -qa 'block [0-9]* of' "$tmp/err"; then
    echo "FAIL: a status line in a pipe"
    exit 1
fi
script -qec "$ptxsim run --quiet --mode timing --config gtx480 -- $*" "$tmp/quiet" > /dev/null 2>&1
if grep -qa 'block [0-9]* of' "$tmp/quiet"; then
    echo "FAIL: a status line with --quiet"
    exit 1
fi
echo "PASS progress"

#!/bin/sh
# tests/gpu/answers_diff.sh PTXSIM PROGRAM ANSWERS -- run PROGRAM under
# ptxsim and compare what it prints, line for line, with a GPU's answers
# (ANSWERS, '#' lines left out): any difference fails, and is shown.
set -eu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" run --quiet -- "$2" >"$out"
if ! grep -v '^#' "$3" | diff - "$out"; then
  echo "FAIL: ptxsim's answers (>) differ from the GPU's (<)"
  exit 1
fi
echo "PASS: $(wc -l <"$out") answers as the GPU gave them"

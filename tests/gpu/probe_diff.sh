#!/bin/sh
# tests/gpu/probe_diff.sh PTXSIM PROBE ANSWERS -- run tests/gpu/probe.cu's
# build under ptxsim and compare its answers, line for line, with those a
# real GPU gave (ANSWERS: tests/gpu/h200-probe.txt, from an H200 through
# tests/gpu/run).  Every line is a fact about the hardware the ISA leaves
# open -- texture filtering weights, NaNs through cvt.rna.tf32, fns at
# INT_MIN, st.f32 from a .b64 register, .ftz at the smallest normal -- so a
# difference is ptxsim leaving the hardware's behaviour.
set -eu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" run --quiet -- "$2" >"$out"
if ! diff "$3" "$out" >/dev/null; then
    echo "FAIL: ptxsim's answers differ from the GPU's (< GPU, > ptxsim):"
    diff "$3" "$out" | head -20
    exit 1
fi
echo "PASS probe: $(wc -l <"$3") answers as the GPU gave them"

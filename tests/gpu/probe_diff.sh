#!/bin/sh
# tests/gpu/probe_diff.sh PTXSIM PROBE ANSWERS [KNOWN] -- run
# tests/gpu/probe.cu's build under ptxsim and compare its answers, line for
# line, with those a real GPU gave (ANSWERS: tests/gpu/h200-probe.txt, from
# an H200 through tests/gpu/run).  Every line is a fact about the hardware
# the ISA leaves open -- texture filtering weights, NaNs through
# cvt.rna.tf32, fns at INT_MIN, st.f32 from a .b64 register, .ftz at the
# smallest normal, which products ptxas contracts -- so a difference is
# ptxsim leaving the hardware's behaviour.  KNOWN
# (tests/gpu/h200-probe-known.txt) names the questions ptxsim knowingly
# answers otherwise, each with why: they are left out, and one that comes
# to match fails the test too (the list is out of date).  Questions asked
# since the GPU last answered (none of their lines in ANSWERS: the sign of
# .sat's zeros, the f64 approximations, NaN signs) are counted, not
# compared, until tests/gpu/run asks a GPU again.
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$1" run --quiet -- "$2" >"$out/sim.all"
grep -v '^#' "${4:-/dev/null}" >"$out/known" || true
# The questions the GPU answered (each line's first word names its probe).
awk '{ print $1 }' "$3" | sort -u >"$out/asked"
awk -v asked="$out/asked" 'BEGIN { while ((getline q < asked) > 0) a[q] = 1 }
    ($1 in a) { print > "/dev/stdout"; next } { n++ } END { print n + 0 > "/dev/stderr" }' \
    "$out/sim.all" >"$out/sim" 2>"$out/new"
# Each answer under its question (the text before the first ':').
split() { awk -v known="$out/known" -v keep="$2" '
    BEGIN { while ((getline q < known) > 0) k[q] = 1 }
    { q = $0; sub(/:.*/, "", q); if ((q in k) == keep) print }' "$1"; }
split "$3" 0 >"$out/gpu.checked"
split "$out/sim" 0 >"$out/sim.checked"
if ! diff "$out/gpu.checked" "$out/sim.checked" >/dev/null; then
    echo "FAIL: ptxsim's answers differ from the GPU's (< GPU, > ptxsim):"
    diff "$out/gpu.checked" "$out/sim.checked" | head -20
    exit 1
fi
split "$3" 1 >"$out/gpu.known"
split "$out/sim" 1 >"$out/sim.known"
nknown=$(wc -l <"$out/known")
if [ "$(wc -l <"$out/gpu.known")" -ne "$nknown" ] ||
   [ -n "$(comm -12 "$out/gpu.known" "$out/sim.known")" ]; then
    echo "FAIL: a known difference is missing from the answers or now matches the GPU's:"
    comm -12 "$out/gpu.known" "$out/sim.known"
    exit 1
fi
echo "PASS probe: $(wc -l <"$out/gpu.checked") answers as the GPU gave them ($nknown known differences left out;" \
     "$(cat "$out/new") answers to questions no GPU has answered yet)"

#!/bin/sh
# tests/gpu/video_diff.sh PTXSIM VIDEO_FORMS ANSWERS.xz -- run the video_forms
# sample at size tiny under ptxsim, keeping every answer (VIDEO_FORMS_DUMP),
# and compare them, word for word, with an H200's (tests/gpu/
# h200-video-tiny.bin.xz: n, the forms' count, A, B, C, then each form's n
# answers): the 548 scalar and SIMD video forms on 256 inputs each.
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
xz -dc "$3" >"$out/gpu.bin"
VIDEO_FORMS_DUMP="$out/sim.bin" "$1" run --quiet -- "$2" tiny >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
if ! cmp -s "$out/gpu.bin" "$out/sim.bin"; then
  # The first differing byte: which form and input (words after n, forms, A, B, C).
  at=$(cmp "$out/gpu.bin" "$out/sim.bin" | sed -n 's/.*byte \([0-9]*\).*/\1/p')
  n=$(od -An -tu4 -N4 "$out/gpu.bin" | tr -d ' ')
  word=$(( (at - 1) / 4 - 2 - 3 * n ))
  echo "FAIL: ptxsim's answers differ from the H200's, first at form $((word / n)) (the sample's forms[]), input $((word % n))"
  exit 1
fi
echo "PASS video_diff: every answer of the 548 forms on $(od -An -tu4 -N4 "$out/gpu.bin" | tr -d ' ') inputs as the H200 gave it"

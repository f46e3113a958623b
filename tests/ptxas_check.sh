#!/usr/bin/env bash
# ptxas_check.sh PTXSIM CORPUS_DIR
#
# Prints every PTX file of the corpus back out as ptxsim understood it and
# has the CUDA toolkit's own assembler, ptxas, accept the result: an
# independent check that the printer (and so the parser) lose nothing.
set -u
ptxsim=$1 corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in "$corpus"/*.ptx; do
  n=$((n + 1))
  out=$tmp/$(basename "$f")
  if ! "$ptxsim" ptx --print "$f" >"$out"; then
    echo "ptxas_check: ptxsim could not print $f"; fail=$((fail + 1)); continue
  fi
  arch=$(sed -n 's/^\.target \(sm_[0-9]*[a-z]*\).*/\1/p' "$f" | head -1)
  if ! ptxas -arch="${arch:-sm_75}" "$out" -o "$tmp/x.cubin" 2>"$tmp/err"; then
    echo "ptxas_check: ptxas rejects the printed $f:"; cat "$tmp/err"; fail=$((fail + 1))
  fi
done
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]

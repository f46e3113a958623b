#!/usr/bin/env bash
# compiler_diff.sh PTXSIM SAMPLE_DIR NAME...
#
# Differential test of the two compilers: for each sample NAME, runs its
# optimised builds NAME.nvcc and NAME.clang under ptxsim at the tiny size and
# requires the same standard output, byte for byte, and the same exit
# status.  The samples print deterministic results (the inputs come from a
# fixed generator, and ptxsim on one host thread is deterministic: with
# several, a float atomic's rounding depends on the order blocks reach it,
# as on a GPU, so both builds run with --threads 1), so a difference means that
# one compiler's PTX computes something else -- or that ptxsim runs one
# compiler's instructions differently from the other's.
#
# Where a sample's output legitimately differs between the compilers, it is
# listed below with the reason, and only the verdicts are compared: each
# build prints one PASS or FAIL line for the sample, and the two must agree.
# Either way each output must hold such a line (two identical crashes are
# not a match).
set -u
if [ $# -lt 3 ]; then
  echo "usage: compiler_diff.sh PTXSIM SAMPLE_DIR NAME..." >&2
  exit 2
fi
ptxsim=$1 dir=$2
shift 2

declare -A verdict_only=(
  # cudaEventElapsedTime of real (host) time: differs between two runs of
  # the same build.
  [streams_events]="prints measured event times"
  # clang records no __cluster_dims__ (.reqnctapercluster), so the kernel
  # that declares its cluster size runs with clusters of 1 block, which the
  # line reports.
  [cluster_histogram]="clang records no __cluster_dims__: 'clusters of 1' against nvcc's 'clusters of 2'"
  # The rest print the error against the host's result, whose last digits
  # depend on rounding: clang contracts a*b+c into fma.rn in LLVM IR in
  # places where nvcc writes mul and add without a rounding modifier (which
  # ptxas may still fuse on a GPU; ptxsim runs the PTX as written, two
  # rounded operations), and clang's sqrtf is sqrt.approx.f32 where nvcc's
  # is sqrt.rn.f32.
  [adi]="printed errors: FMA contraction differs (nvcc keeps some products as mul + add/sub)"
  [gramschmidt]="printed errors: FMA contraction differs, and sqrtf is sqrt.approx.f32 under clang"
  [lu]="printed errors: a[i][j] -= l*u is fma.rn under clang, mul + sub under nvcc"
  [cfd]="printed error: FMA contraction differs, and sqrtf is sqrt.approx.f32 under clang"
  [hotspot3d]="printed error: clang fuses every term of the stencil sum into one fma.rn chain, nvcc adds the hoisted ca*amb and some products with add"
  [myocyte]="printed error: FMA contraction differs in the double-precision model (clang 297 fma.rn.f64, nvcc 240)"
)

fail=0
for name in "$@"; do
  declare -A out=() status=()
  for cc in nvcc clang; do
    prog=$dir/$name.$cc
    if [ ! -x "$prog" ]; then
      echo "compiler_diff: $prog is not built"
      fail=1
      continue 2
    fi
    out[$cc]=$("$ptxsim" run --quiet --threads 1 -- "$prog" tiny 2>/dev/null)
    status[$cc]=$?
  done
  verdicts=()
  bad=0
  for cc in nvcc clang; do
    v=$(printf '%s\n' "${out[$cc]}" | grep -E "^(PASS|FAIL) $name( |$)" | cut -d' ' -f1)
    if [ "$(printf '%s' "$v" | grep -c .)" -ne 1 ] || [ "${status[$cc]}" -ge 128 ]; then
      echo "compiler_diff: $name.$cc prints no single PASS/FAIL line (exit status ${status[$cc]}):"
      printf '%s\n' "${out[$cc]}" | tail -5
      bad=1
    fi
    verdicts+=("$v")
  done
  if [ "$bad" -eq 0 ]; then
    reason=${verdict_only[$name]-}
    if [ -n "$reason" ]; then
      if [ "${verdicts[0]}" != "${verdicts[1]}" ] || [ "${status[nvcc]}" != "${status[clang]}" ]; then
        echo "compiler_diff: $name: nvcc says ${verdicts[0]} (exit ${status[nvcc]}), clang ${verdicts[1]} (exit ${status[clang]})"
        bad=1
      else
        echo "$name: same verdict (${verdicts[0]}); output compared by verdict only: $reason"
      fi
    elif [ "${out[nvcc]}" != "${out[clang]}" ] || [ "${status[nvcc]}" != "${status[clang]}" ]; then
      echo "compiler_diff: $name: the nvcc and clang builds print different output (exit ${status[nvcc]} and ${status[clang]}):"
      diff <(printf '%s\n' "${out[nvcc]}") <(printf '%s\n' "${out[clang]}") | head -20
      bad=1
    else
      echo "$name: identical output (${verdicts[0]})"
    fi
  fi
  [ "$bad" -eq 0 ] || fail=1
  unset out status
done
exit $fail

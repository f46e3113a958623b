#!/usr/bin/env bash
# threads.sh PTXSIM SAMPLE_DIR WORK_DIR SIZE SAMPLE...
#
# Runs each sample in functional mode with --threads 1, 2 and 4, each time
# with --stats, and passes only if every run agrees with the one-thread run
# byte for byte: the program's output, ptxsim's messages and the statistics
# JSON ("wall_s", which measures the host, blanked).  The samples named
# must not let the order of atomics change their results (no floating-point
# atomics, no atomics' returned values steering the output): those agree
# only where a GPU's runs would (README, "Host threads").  Options such as
# --check go in the environment (PTXSIM_CHECK=memory).
#
# THREADS_MODE=timing runs the timing model instead (--config
# $THREADS_CONFIG, gtx480 if unset), with every step shared among the
# threads (PTXSIM_THREADS_MIN_NS=0), and on 2 threads pipelined as well
# (PTXSIM_TIMING_SPLIT=pipe: the memory partitions on a thread of their
# own): there every sample must agree, float atomics and all, cycle for
# cycle.
set -u
mode=(--mode "${THREADS_MODE:-functional}")
runs=(1 2 4)
if [ "${THREADS_MODE:-functional}" = timing ]; then
  mode+=(--config "${THREADS_CONFIG:-gtx480}")
  export PTXSIM_THREADS_MIN_NS=0
  runs+=(2pipe)
fi
ptxsim=$1 samples=$2 work=$3 size=$4
shift 4
mkdir -p "$work"
fail=0
for s in "$@"; do
  for t in "${runs[@]}"; do
    out=$work/$s.$t
    split=lanes
    [ "$t" = 2pipe ] && split=pipe
    PTXSIM_TIMING_SPLIT=$split "$ptxsim" run --quiet "${mode[@]}" --threads "${t%pipe}" --stats "$out.json" \
      -- "$samples/$s.nvcc" "$size" > "$out.txt" 2>&1 ||
      { echo "threads: $s --threads $t failed:"; head -c 2000 "$out.txt"; fail=1; }
    sed -E -i 's/"wall_s":[0-9.e+-]+/"wall_s":-/g' "$out.json"
    # A launch held to one thread says so (--check race, printf): not a difference.
    sed -i '/run on one host thread, not /d' "$out.txt"
    [ "$t" = 1 ] && continue
    for ext in txt json; do
      if cmp -s "$work/$s.1.$ext" "$out.$ext"; then
        echo "threads: $s --threads $t $ext: same as one thread ($(wc -c < "$out.$ext") bytes)"
      else
        echo "threads: $s --threads $t $ext: differs from one thread"
        diff "$work/$s.1.$ext" "$out.$ext" | head -c 2000
        fail=1
      fi
    done
  done
done
exit $fail

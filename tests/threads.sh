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
# threads (PTXSIM_THREADS_MIN_NS=0): there every sample must agree, float
# atomics and all, cycle for cycle.  It runs a cycle at a time as well
# (PTXSIM_TIMING_WINDOW=0; "1step"), and so on 2 threads pipelined
# (PTXSIM_TIMING_SPLIT=pipe: the memory partitions on a thread of their
# own; "2pipe"), which must agree with that; and windows must agree with a
# cycle at a time but in samples whose CTAs read what other CTAs store
# while they run (WINDOW_TALKERS: a store is seen a window later, so their
# spins take other counts).
set -u
WINDOW_TALKERS=" cub_scan cub_radix_sort thrust_algorithms block_handoff "
mode=(--mode "${THREADS_MODE:-functional}")
runs=(1 2 4)
if [ "${THREADS_MODE:-functional}" = timing ]; then
  mode+=(--config "${THREADS_CONFIG:-gtx480}")
  export PTXSIM_THREADS_MIN_NS=0
  runs+=(1step 2pipe)
fi
ptxsim=$1 samples=$2 work=$3 size=$4
shift 4
mkdir -p "$work"
fail=0
for s in "$@"; do
  for t in "${runs[@]}"; do
    out=$work/$s.$t
    split=lanes window=
    case $t in
      1step) window=0 ;;
      2pipe) window=0 split=pipe ;;
    esac
    threads=${t%pipe}
    PTXSIM_TIMING_WINDOW=$window PTXSIM_TIMING_SPLIT=$split "$ptxsim" run --quiet "${mode[@]}" \
      --threads "${threads%step}" --stats "$out.json" -- "$samples/$s.nvcc" "$size" > "$out.txt" 2>&1 ||
      { echo "threads: $s --threads $t failed:"; head -c 2000 "$out.txt"; fail=1; }
    sed -E -i 's/"wall_s":[0-9.e+-]+/"wall_s":-/g' "$out.json"
    # A launch held to one thread says so (--check race, printf): not a difference.
    sed -i '/run on one host thread, not /d' "$out.txt"
    [ "$t" = 1 ] && continue
    ref=1 what="one thread"
    [ "$t" = 2pipe ] && ref=1step what="one thread a cycle at a time"
    for ext in txt json; do
      if cmp -s "$work/$s.$ref.$ext" "$out.$ext"; then
        echo "threads: $s --threads $t $ext: same as $what ($(wc -c < "$out.$ext") bytes)"
      elif [ "$t" = 1step ] && [ "$ext" = json ] && [[ "$WINDOW_TALKERS" == *" $s "* ]]; then
        echo "threads: $s a cycle at a time: its statistics differ from windows' (its CTAs talk through memory)"
      else
        echo "threads: $s --threads $t $ext: differs from $what"
        diff "$work/$s.$ref.$ext" "$out.$ext" | head -c 2000
        fail=1
      fi
    done
  done
done
exit $fail

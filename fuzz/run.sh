#!/usr/bin/env bash
# fuzz/run.sh BUILD_DIR SECONDS [SEED]
#
# Runs every fuzz target: first over its regression inputs (each input
# that ever crashed it, kept in fuzz/regressions/), then for SECONDS of new
# inputs from the seed corpus.  New corpus entries go to a temporary folder,
# so a run leaves the repository as it was.  Fails on any crash, leak,
# timeout or sanitizer report.
#
# SEED (default 1, or PTXSIM_FUZZ_SEED) fixes the fuzzer's choices, and at
# most a set number of inputs are tried per target (runs_of; about 15 s of
# each on a 2-core machine, or PTXSIM_FUZZ_RUNS for all), so the test suite
# tries the same inputs on every machine and every run: a finding there is
# a change's, never the luck of the draw.  Exploring is
# SEED=random, for as long as you like:
#   fuzz/run.sh build-fuzz 600 random
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd) seconds=${2:-20} seed=${3:-${PTXSIM_FUZZ_SEED:-1}}
if [ "$seed" = random ]; then
  choice=(-seed=0)                    # libFuzzer draws one
else
  choice=(-seed="$seed")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

corpus_of() {    # corpus_of TARGET: its starting corpus folder
  case $1 in
    ptx) echo "$here/../tests/ptx" ;;
    fatbin) echo "$here/seeds/fatbin" ;;
    config) echo "$here/../configs" ;;
    debug) echo "$here/../tests/debug" ;;
    timing) echo "$here/seeds/timing" ;;
  esac
}

runs_of() {  # runs_of TARGET: how many inputs a seeded run tries
  if [ -n "${PTXSIM_FUZZ_RUNS:-}" ]; then echo "$PTXSIM_FUZZ_RUNS"; return; fi
  case $1 in
    ptx) echo 10000 ;;
    fatbin) echo 200000 ;;
    config) echo 40000 ;;
    debug) echo 9000 ;;
    timing) echo 800 ;;
  esac
}

for t in ptx fatbin config debug timing; do
  bin=$build/fuzz/fuzz_$t
  regressions=("$here"/regressions/"$t"-*)
  if [ -e "${regressions[0]}" ]; then
    "$bin" "${regressions[@]}" >"$work/$t.regress.log" 2>&1 ||
      { cat "$work/$t.regress.log"; echo "fuzz: $t: a regression input fails again"; exit 1; }
  fi
  mkdir -p "$work/$t"
  case $t in
    debug) cp "$(corpus_of $t)"/*.cmd "$work/$t/" ;;    # the transcripts' command scripts
    *) cp -r "$(corpus_of $t)"/. "$work/$t/" ;;
  esac
  limit=()
  [ "$seed" = random ] || limit=(-runs="$(runs_of $t)")
  if ! (cd "$work" && "$bin" "${choice[@]}" "${limit[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "$work/$t" \
          >"$work/$t.log" 2>&1); then
    tail -40 "$work/$t.log"
    echo "fuzz: $t: crashed; the input is in $work (copy it to fuzz/regressions/$t-NAME)"
    trap - EXIT
    exit 1
  fi
  runs=$(grep -Eo 'Done [0-9]+ runs' "$work/$t.log" | grep -Eo '[0-9]+' || echo 0)
  echo "fuzz: $t: $runs inputs (seed ${seed}, at most ${seconds}s), no crash, leak or hang"
done

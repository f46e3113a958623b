#!/usr/bin/env bash
# corpus_check.sh PTXSIM SAMPLE_DIR [BUILD [ptxas|noptxas [SHARD/SHARDS [PTXAS_MAX_BYTES]]]]
#
# The PTX corpus of the built samples (nvcc -O3, clang -O2, nvcc -G, clang
# -O0 -g): for each program, ptxsim prints the PTX it parsed; parsing that
# output and printing it again must give the same text (print is a fixed
# point: nothing is lost or changed by a round trip), and ptxas, the CUDA
# toolkit's assembler, must accept it (an independent judge).  BUILD (nvcc,
# clang, nvcc-G or clang-G) checks one build of each program only; noptxas
# leaves ptxas out (the sanitizer build, which checks the parser and printer
# and not what the plain build's run already showed of ptxas).  SHARD/SHARDS
# (e.g. 2/8) checks every SHARDS-th sample from the SHARD-th (0-based), so
# that the corpus is several tests that run in parallel.  PTXAS_MAX_BYTES
# (0: no limit) leaves ptxas out for larger modules: ptxas takes 20-30 s
# over each 5-15 MB module of a -G build of CUB or Thrust, which the
# default suite round-trips without assembling (./setup.sh test --full
# assembles them too).
set -u
ptxsim=$1 samples=$2 builds=${3:-nvcc clang nvcc-G clang-G} ptxas=${4:-ptxas} part=${5:-0/1} ptxas_max=${6:-0}
shard=${part%/*} shards=${part#*/} index=0
# Every sample the build lists ("name<TAB>pending reason"), but those
# pending: a pending sample may use what the parser does not take yet.  A
# sample in samples-nodebug.txt has no -G builds, and only those in
# samples-clang-G.txt have a clang -O0 -g build (PTXSIM_CLANG_DEBUG_SAMPLES).
nodebug=" $(cut -f1 "$samples/samples-nodebug.txt" 2>/dev/null | tr '\n' ' ') "
clang_debug=" $(tr '\n' ' ' < "$samples/samples-clang-G.txt") "
set --
while IFS="$(printf '\t')" read -r name pending; do
  [ -n "$pending" ] && continue
  index=$((index + 1))
  [ $(((index - 1) % shards)) -eq "$shard" ] || continue
  for v in $builds; do
    case "$v:$nodebug" in *-G:*" $name "*) continue ;; esac
    case "$v:$clang_debug" in clang-G:*" $name "*) ;; clang-G:*) continue ;; esac
    set -- "$@" "$samples/$name.$v"
  done
done < "$samples/samples.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 skipped=0
# check NAME FILE: FILE (one module) re-parses to the same text and ptxas takes it.
check() {
  "$ptxsim" ptx --print "$2" > "$tmp/b.ptx" 2> "$tmp/err" ||
    { echo "corpus_check: the printed PTX of $1 does not parse:"; head -5 "$tmp/err"; return 1; }
  # The header comment names the file printed from.
  if ! diff <(grep -v '^//$\|^// printed by ptxsim from' "$2") <(grep -v '^//$\|^// printed by ptxsim from' "$tmp/b.ptx") > "$tmp/diff"; then
    echo "corpus_check: $1 changes in a round trip:"; head -10 "$tmp/diff"; return 1
  fi
  [ "$ptxas" = noptxas ] && return 0
  [ "$ptxas_max" -gt 0 ] && [ "$(wc -c < "$2")" -gt "$ptxas_max" ] && { skipped=$((skipped + 1)); return 0; }
  arch=$(sed -n 's/^\.target \(sm_[0-9]*[a-z]*\).*/\1/p' "$2" | head -1)
  ptxas -arch="${arch:-sm_75}" "$2" -o "$tmp/x.cubin" 2> "$tmp/err" ||
    { echo "corpus_check: ptxas rejects the printed PTX of $1:"; head -5 "$tmp/err"; return 1; }
}
for prog in "$@"; do
  n=$((n + 1))
  name=$(basename "$prog")
  if ! "$ptxsim" ptx --print "$prog" > "$tmp/all.ptx" 2> "$tmp/err"; then
    echo "corpus_check: $name does not parse:"; head -5 "$tmp/err"; fail=$((fail + 1)); continue
  fi
  # A program may carry PTX for several architectures: one module each.
  rm -f "$tmp"/m.*.ptx
  awk -v dir="$tmp" '/^\/\/ printed by ptxsim from/ && NR > 2 { k++ } { print > (dir "/m." k+0 ".ptx") }' "$tmp/all.ptx"
  for m in "$tmp"/m.*.ptx; do
    check "$name" "$m" || { fail=$((fail + 1)); break; }
  done
done
echo "$((n - fail)) of $n programs round-trip ($skipped module(s) over $ptxas_max bytes not assembled by ptxas)"
[ "$fail" -eq 0 ] && [ "$n" -gt 0 ]

#!/usr/bin/env bash
# jit_cache.sh PTXSIM PROGRAM [ARGS...]
#
# The compiled tier's disk cache (jit/jit.h): a first run compiles and
# keeps its code, a second takes all of it from the cache and prints the
# same; a damaged file is noticed, deleted and compiled afresh, the program
# still passing; a run that compiles as units earn it takes the optimised
# code at once, though the earlier runs compiled each unit with others;
# PTXSIM_JIT_CACHE=off keeps nothing.
set -u
ptxsim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "jit_cache.sh: $*"; exit 1; }
prog=("$@")
# run CACHE OUT [VAR=VALUE...]: the program, every unit compiled before its
# first launch (unless the variables say otherwise).
run() {
  local cache=$1 out=$tmp/$2
  shift 2
  env PTXSIM_JIT_HOT=0 "$@" PTXSIM_JIT_CACHE="$cache" "$ptxsim" run --threads 1 --engine jit -- "${prog[@]}" \
    > "$out.out" 2> "$out.err" || fail "a run with PTXSIM_JIT_CACHE=$cache $* failed: $(tail -3 "$out.err")"
}
# "... N instructions compiled so far in T s (C of them taken from the cache): Q quick, O optimised":
# the last launch's N, C, Q and O.
counts() { grep -o '[0-9]* instructions compiled so far in [0-9.]* s ([0-9]* of them.*' "$1.err" | tail -1 |
           sed -E 's/^([0-9]+) .*\(([0-9]+) of them.*: ([0-9]+) quick, ([0-9]+) optimised$/\1 \2 \3 \4/'; }

run "$tmp/cache" first
set -- $(counts "$tmp/first")
[ "${1:-0}" -gt 0 ] || fail "the first run compiled nothing"
[ "$2" = 0 ] || fail "the first run took $2 instructions from an empty cache"
n=$(ls "$tmp/cache" | grep -c '\.o$')
[ "$n" -ge 1 ] || fail "the first run kept no code"

run "$tmp/cache" second
set -- $(counts "$tmp/second")
[ "$1" -gt 0 ] && [ "$2" = "$1" ] || fail "the second run took $2 of $1 instructions from the cache"
cmp -s "$tmp/first.out" "$tmp/second.out" || fail "the second run printed something else"

# (dd without the sanitizer runtime the sanitizer build preloads into every process)
for f in "$tmp"/cache/*.o; do printf 'damage' | LD_PRELOAD= dd of="$f" bs=1 seek=64 conv=notrunc 2> /dev/null; done
run "$tmp/cache" damaged
set -- $(counts "$tmp/damaged")
[ "$2" = 0 ] || fail "a damaged file was taken ($2 instructions)"
cmp -s "$tmp/first.out" "$tmp/damaged.out" || fail "the run after the damage printed something else"
run "$tmp/cache" again
set -- $(counts "$tmp/again")
[ "$2" = "$1" ] || fail "the damaged file was not compiled afresh and kept"

# Compiled as units earn it: quick once warm (here at their first entry),
# optimised once hot (here never).  From an empty cache that is quick code
# only; from the cache the runs above filled, each unit's optimised code,
# taken once warm.  Those runs compiled all the units a kernel may reach
# in one batch; these find each unit by its own instructions.
earning=(PTXSIM_JIT_WARM=1 PTXSIM_JIT_HOT=4000000000)
run "$tmp/fresh" warm-fresh "${earning[@]}"
set -- $(counts "$tmp/warm-fresh")
[ "${1:-0}" -gt 0 ] && [ "$2" = 0 ] && [ "$3" = "$1" ] && [ "$4" = 0 ] ||
  fail "from an empty cache, expected quick code only: $1 compiled, $2 from the cache, $3 quick, $4 optimised"
run "$tmp/cache" warm-cached "${earning[@]}"
set -- $(counts "$tmp/warm-cached")
[ "${1:-0}" -gt 0 ] && [ "$2" = "$1" ] && [ "$3" = 0 ] && [ "$4" = "$1" ] ||
  fail "from the filled cache, expected its optimised code only: $1 compiled, $2 from the cache, $3 quick, $4 optimised"
cmp -s "$tmp/first.out" "$tmp/warm-cached.out" || fail "the run on cached optimised code printed something else"

run off nocache
[ ! -e off ] && [ ! -e "$PWD/off" ] || fail "PTXSIM_JIT_CACHE=off made a folder named off"
echo "disk cache: kept, taken, damage noticed and mended: ${prog[*]}"

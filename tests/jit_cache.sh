#!/usr/bin/env bash
# jit_cache.sh PTXSIM PROGRAM [ARGS...]
#
# The compiled tier's disk cache (jit/jit.h): a first run compiles and
# keeps its code, a second takes all of it from the cache and prints the
# same; a damaged file is noticed, deleted and compiled afresh, the program
# still passing; PTXSIM_JIT_CACHE=off keeps nothing.
set -u
ptxsim=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "jit_cache.sh: $*"; exit 1; }
prog=("$@")
# run CACHE OUT: the program, every unit compiled before its first launch.
run() {
  local cache=$1 out=$tmp/$2
  PTXSIM_JIT_HOT=0 PTXSIM_JIT_CACHE="$cache" "$ptxsim" run --threads 1 --engine jit -- "${prog[@]}" \
    > "$out.out" 2> "$out.err" || fail "a run with PTXSIM_JIT_CACHE=$cache failed: $(tail -3 "$out.err")"
}
# "... N instructions compiled so far in T s (C of them taken from the cache)": the last launch's N and C.
counts() { grep -o '[0-9]* instructions compiled so far in [0-9.]* s ([0-9]* of them' "$1.err" | tail -1 |
           sed -E 's/^([0-9]+) .*\(([0-9]+) of them$/\1 \2/'; }

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

run off nocache
[ ! -e off ] && [ ! -e "$PWD/off" ] || fail "PTXSIM_JIT_CACHE=off made a folder named off"
echo "disk cache: kept, taken, damage noticed and mended: ${prog[*]}"

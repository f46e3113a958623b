#!/bin/sh
# tests/install.sh BUILD [SAMPLE] -- ptxsim as a user installs it.
#
# 1. `cmake --install BUILD` into a scratch prefix; the installed command
#    must find its presets (share/ptxsim/configs) and shims (lib/ptxsim)
#    relative to itself, and run SAMPLE (a self-checking CUDA program) in
#    functional and timing mode, and as a one-cell `ptxsim sweep`.
# 2. `cpack` builds the .deb; its dependencies must be satisfiable here
#    (dpkg --dry-run, as root), and the package unpacked into a scratch root
#    must do the same.
set -eu
build=$1
sample=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {
    cmd=$1
    "$cmd" --version | head -1
    dir=$(dirname "$cmd")
    if ! "$cmd" configs --help 2>&1 | grep -q "in $dir/../share/ptxsim/configs"; then
        echo "FAIL: $cmd does not take its presets from $dir/../share/ptxsim/configs"
        exit 1
    fi
    "$cmd" configs gtx480 > /dev/null
    if [ -n "$sample" ]; then
        for mode in "--mode functional" "--mode timing --config gtx480"; do
            # shellcheck disable=SC2086
            out=$(LD_DEBUG=libs "$cmd" run $mode -- "$sample" tiny 2>&1)
            echo "$out" | grep -q '^PASS' || { echo "FAIL: $cmd run $mode: $out" | tail -5; exit 1; }
            # The program's libcuda.so.1 came from the installation.
            if ! echo "$out" | grep -q "trying file=$dir/../lib/ptxsim/libcuda.so.1"; then
                echo "FAIL: $cmd run $mode did not load the installed libcuda.so.1"
                exit 1
            fi
            echo "$cmd run $mode: PASS"
        done
        # The sweep tool installed beside it, running this command.
        printf '[[program]]\npath = "%s"\nargs = ["tiny"]\n' "$sample" > "$tmp/sweep.toml"
        "$cmd" sweep "$tmp/sweep.toml" --out "$tmp/sweep" --no-collect 2> "$tmp/sweep.log" ||
            { echo "FAIL: $cmd sweep"; cat "$tmp/sweep.log"; exit 1; }
        real=$(readlink -f "$cmd")
        grep -q "\"ptxsim\": \"$real\"" "$tmp/sweep/cells.json" || { echo "FAIL: $cmd sweep ran another ptxsim"; exit 1; }
        rm -rf "$tmp/sweep"
        echo "$cmd sweep: PASS"
    fi
}

cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
check "$tmp/prefix/bin/ptxsim"

cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > /dev/null
deb=$(ls "$tmp"/pkg/*.deb)
dpkg-deb -I "$deb" | grep -E '^ (Package|Version|Depends):'
if [ "$(id -u)" = 0 ]; then
    dpkg --dry-run -i "$deb" > /dev/null
    echo "dpkg --dry-run -i: its dependencies are installable"
fi
dpkg-deb -x "$deb" "$tmp/root"
check "$tmp/root/usr/bin/ptxsim"
echo "PASS install"

#!/usr/bin/env bash
# setup.sh -- install what ptxsim needs, build it, and optionally test it.
#
#   ./setup.sh          install missing packages, build into build/
#   ./setup.sh test     the same, run the test suite, then build and test
#                       again under AddressSanitizer and UBSan (build-asan/),
#                       then run the libFuzzer targets for a while (build-fuzz/)
#
# Idempotent, and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests use.
packages=(cmake make gcc g++ binutils python3 clang-22 libclang-rt-22-dev libzstd-dev liblz4-dev libffi-dev libreadline-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "setup: nvcc (the CUDA 13 toolkit) is not installed; ptxsim builds its samples with it" >&2
    exit 1
  fi
fi

jobs=$(nproc 2>/dev/null || echo 2)

build() {   # build DIR [cmake options...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DPTXSIM_WERROR=ON "$@" >/dev/null
  if ! cmake --build "$dir" -j "$jobs" >"$dir/build.log" 2>&1; then
    cat "$dir/build.log"
    echo "setup: the build in $dir failed" >&2
    exit 1
  fi
}

build build -DCMAKE_BUILD_TYPE=RelWithDebInfo

if [ "${1:-}" = "test" ]; then
  ctest --test-dir build --output-on-failure -j "$jobs"
  build build-asan -DCMAKE_BUILD_TYPE=Debug -DPTXSIM_SANITIZE=ON
  # The shim runs inside programs that are not instrumented, so the ASan
  # runtime must be loaded first; leak checking of those programs is off.
  asan=$(gcc -print-file-name=libasan.so)
  LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs"
  build build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-22 -DPTXSIM_FUZZ=ON \
    -DPTXSIM_SAMPLES=OFF
  fuzz/run.sh build-fuzz "${PTXSIM_FUZZ_SECONDS:-20}"
fi

#!/usr/bin/env bash
# setup.sh -- install what ptxsim needs, build it, and optionally test it.
#
#   ./setup.sh              install missing packages, build into build/
#   ./setup.sh test         the same, run the test suite, then build ptxsim
#                           again under AddressSanitizer and UBSan (build-asan/)
#                           and run the sanitizer subset of the suite there
#                           (README, "Tests"), then run the libFuzzer targets
#                           for a while (build-fuzz/)
#   ./setup.sh test --full  the same with the whole suite under the sanitizers
#   ./setup.sh python       install, build, and make build/venv: a Python
#                           virtual environment with CuPy, Numba-CUDA and
#                           cuda.core (tests/python/requirements.txt), from
#                           PyPI; `./setup.sh test` makes it too, and the
#                           tests/python tests are skipped where it cannot be
#                           made (no network)
#
# After each ctest run the ten slowest tests are listed, and the run fails if
# a test used more than a fifth of its timeout (tests/test_times.py).
#
# Idempotent, and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests use.
packages=(cmake make gcc g++ binutils python3 python3-venv clang-22 libclang-rt-22-dev llvm-22-dev libzstd-dev liblz4-dev libffi-dev
          libreadline-dev python3-matplotlib dpkg-dev slurm-wlm munge xz-utils
          gcc-12-offload-nvptx libgomp-plugin-nvptx1 gfortran-12)

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

# step WHAT: say how long the step that just ended took (the test run's
# budget is kept by steps; README, "Tests").
step_start=$SECONDS
step() {
  [ "${testing:-}" ] && echo "setup: $1 took $((SECONDS - step_start)) s"
  step_start=$SECONDS
}

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

# python_venv: build/venv with the Python GPU stacks tests/python runs
# (tests/python/requirements.txt), made once; a failure (no network) is
# reported and leaves those tests to be skipped.
python_venv() {
  local venv=build/venv req=tests/python/requirements.txt
  if [ -f "$venv/.requirements" ] && cmp -s "$req" "$venv/.requirements"; then
    return 0
  fi
  echo "setup: making $venv (CuPy, Numba-CUDA, cuda.core, Warp, Taichi from PyPI)"
  if /usr/bin/python3 -m venv "$venv" >/dev/null &&
     "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >"build/venv.log" 2>&1; then
    cp "$req" "$venv/.requirements"
  else
    tail -5 build/venv.log 2>/dev/null
    echo "setup: could not make $venv (see build/venv.log); the tests/python tests will be skipped" >&2
  fi
}

[ "${1:-}" = "test" ] && testing=1
full=OFF
[ "${1:-}" = "test" ] && [ "${2:-}" = "--full" ] && full=ON
build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTXSIM_FULL_TESTS=$full
step "build/"
if [ "${1:-}" = "test" ] || [ "${1:-}" = "python" ]; then
  python_venv
  step "build/venv"
fi

# run_tests DIR [ENV...]: the suite of build tree DIR (ctest run under env
# ENV...), then its slowest tests.  A test without a TIMEOUT of its own gets
# ctest's --timeout.
run_tests() {
  local dir=$1 status=0
  shift
  env "$@" ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 300 \
    --output-junit "$PWD/$dir/junit.xml" || status=$?
  python3 tests/test_times.py "$dir" "$dir/junit.xml" --default-timeout 300 --share 0.2 || status=1
  return $status
}

if [ "${1:-}" = "test" ]; then
  run_tests build
  step "ctest in build/"
  # The sanitizer build reuses the CUDA programs of build/ (they load the
  # shims at run time), so only ptxsim itself is compiled again.
  build build-asan -DCMAKE_BUILD_TYPE=Debug -DPTXSIM_SANITIZE=ON -DPTXSIM_FULL_TESTS=$full \
    -DPTXSIM_PROGRAMS_FROM="$PWD/build"
  step "build-asan/"
  # The shim runs inside programs that are not instrumented, so the ASan
  # runtime must be loaded first; leak checking of those programs is off.
  asan=$(gcc -print-file-name=libasan.so)
  run_tests build-asan LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1
  step "ctest in build-asan/"
  build build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-22 -DPTXSIM_FUZZ=ON \
    -DPTXSIM_SAMPLES=OFF
  fuzz/run.sh build-fuzz "${PTXSIM_FUZZ_SECONDS:-20}"
  step "build-fuzz/ and fuzzing"
  echo "setup: every test passed; ./setup.sh test took $((SECONDS / 60)) min $((SECONDS % 60)) s"
fi

#!/bin/sh
# run.sh PTXSIM PYTHON MODULE SCRIPT [ptxsim run options...]
#
# Runs SCRIPT with PYTHON under `ptxsim run OPTIONS`, and passes when it
# exits 0 having printed its PASS line.  When PYTHON is missing or cannot
# import MODULE (no virtual environment: ./setup.sh python makes build/venv,
# which needs PyPI), says so and exits 77, which ctest reports as skipped.
set -u
ptxsim=$1 python=$2 module=$3 script=$4
shift 4
if [ ! -x "$python" ]; then
  echo "SKIP: no Python environment at ${python%/bin/python} (./setup.sh python makes it; it needs PyPI)"
  exit 77
fi
if ! "$python" -c "import $module" >/dev/null 2>&1; then
  echo "SKIP: $module is not installed in ${python%/bin/python} (./setup.sh python installs it)"
  exit 77
fi
out=$("$ptxsim" run "$@" -- "$python" "$script" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
  echo "run.sh: $(basename "$script") exited $rc"
  exit 1
fi
name=$(basename "$script" .py)
printf '%s\n' "$out" | grep -q "^PASS $name\$" || { echo "run.sh: no 'PASS $name' line"; exit 1; }

#!/bin/sh
# run.sh PTXSIM PYTHON MODULE SCRIPT [ptxsim run options...]
#
# Runs SCRIPT with PYTHON under `ptxsim run OPTIONS`, and passes when it
# exits 0 having printed its PASS line and no warning of an unknown private
# driver table.  When PYTHON is missing or cannot
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
# Every private driver table these stacks ask for is known (NVRTC's is
# refused quietly): a warning naming one is a table ptxsim has not met.
if printf '%s\n' "$out" | grep -q "warning: cuGetExportTable"; then
  echo "run.sh: a private driver table ptxsim does not know was asked for"
  exit 1
fi

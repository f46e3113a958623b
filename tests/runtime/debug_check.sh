#!/bin/sh
# debug_check.sh PTXSIM PROGRAM SOURCE_DIR OUTDIR
#
# `ptxsim debug` end to end on a real program (vector_add built by nvcc -G):
# a breakpoint on a CUDA line is hit in thread 0, an expression over device
# memory evaluates to what the kernel then stores (c[0] = a[0] + b[0]),
# locals show, and once the breakpoint is deleted the program runs to PASS.
set -u
ptxsim=$1 prog=$2 src=$3 dir=$4
mkdir -p "$dir"
line=$(grep -n 'c\[i\] = a\[i\] + b\[i\]' "$src/vector_add.cu" | cut -d: -f1)
cat > "$dir/cmds" <<CMDS
break vector_add.cu:$line
run
print a[i] + b[i]
info locals
delete
next
print c[i] == a[i] + b[i]
continue
CMDS
out=$("$ptxsim" debug -x "$dir/cmds" --batch --source-path "$src" -- "$prog" tiny 2>&1)
echo "$out"
fail=0
for want in "^Breakpoint 1, vector_add .* at vector_add.cu:$line" '^\$1 = [0-9]' '^i = 0$' '^\$2 = 1$' \
            '^PASS vector_add '; do
  echo "$out" | grep -q -- "$want" || { echo "debug_check: no line matching $want"; fail=1; }
done
exit $fail

#!/bin/sh
# threads_report.sh PTXSIM PROGRAM
#
# PTXSIM_THREADS_REPORT=1 says after each timing launch where its host time
# went (README, "Host threads"): a line per launch, whose three parts add up
# to the whole, every job shared on two threads with PTXSIM_THREADS_MIN_NS=0,
# none on one thread (which gives the bound the rest allows), and nothing
# without the variable.  The program's output is the same either way.
set -u
ptxsim=$1 prog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
run() {     # threads, report?, name
  env PTXSIM_THREADS_MIN_NS=0 PTXSIM_THREADS_REPORT=$2 "$ptxsim" run --quiet --mode timing --config gtx480 \
    --threads "$1" -- "$prog" tiny >"$tmp/$3.out" 2>"$tmp/$3.err" || { echo "the program failed ($3)"; fail=1; }
}
run 1 1 one
run 2 1 two
run 2 0 off
grep -q 'host' "$tmp/off.err" && { echo "a report without PTXSIM_THREADS_REPORT"; fail=1; }
cmp -s "$tmp/two.out" "$tmp/off.out" || { echo "the output differs with the report"; fail=1; }
python3 - "$tmp/one.err" "$tmp/two.err" <<'PY' || fail=1
import re, sys
line = re.compile(r"^ptxsim: .*: host ([0-9.]+) s on (\d) threads?: jobs shared ([0-9.]+)% \((\d+)\), "
                  r"jobs alone ([0-9.]+)% \((\d+)\), one thread's part ([0-9.]+)%(.*)$")
bad = 0
for path, threads in zip(sys.argv[1:], (1, 2)):
    rows = [m for m in map(line.match, open(path).read().splitlines()) if m]
    if not rows:
        print(f"no report line on {threads} thread(s)"); bad = 1
    for m in rows:
        shared, nshared, alone, nalone, rest = float(m[3]), int(m[4]), float(m[5]), int(m[6]), float(m[7])
        whole = shared + alone + rest
        if int(m[2]) != threads or abs(whole - 100) > 0.3 or min(shared, alone, rest) < 0:
            print("parts do not add up:", m[0]); bad = 1
        if threads == 1 and (nshared or not nalone or not re.search(r"at best ([0-9.]+)x on 2", m[8])):
            print("one thread: every job alone, and the bound:", m[0]); bad = 1
        if threads == 1:
            bound = float(re.search(r"at best ([0-9.]+)x on 2", m[8])[1])
            if not 1 <= bound <= 2:
                print("a bound beyond 1..2 on two threads:", m[0]); bad = 1
        if threads == 2:
            at_work = re.search(r"the threads at work ([0-9.]+)% of the shared jobs' time", m[8])
            if nalone or not nshared or not at_work or not 0 < float(at_work[1]) <= 100.5:
                print("two threads, every job shared:", m[0]); bad = 1
sys.exit(bad)
PY
exit $fail

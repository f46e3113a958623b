#!/bin/sh
# regs_check.sh PTXSIM NVCC PTXAS SOURCE OUTDIR [NVCC_FLAGS...]
#
# Registers per thread come from the machine code, not the PTX: SOURCE is
# built the way users build (nvcc for sm_75), with ptxas's own report of
# what it allocated (-Xptxas -v) as the reference.  Under ptxsim:
#   - simulating sm_75, the program's sm_75 cubin gives each kernel's count
#     (--stats "registers", "registers_from": "cubin sm_75"), and
#     cudaFuncGetAttributes reports it (capped, like the timing model, by
#     what a 1024-thread block leaves each thread of the simulated GPU);
#   - simulating sm_90, ptxas compiles the PTX for sm_90 once (its report
#     for the same PTX is the reference) and a second run reuses the cached
#     cubin;
#   - with ptxas off, or a ptxas that fails, the nearest cubin (sm_75) is
#     used, and a failing ptxas is named.
set -u
ptxsim=$1 nvcc=$2 ptxas=$3 src=$4 dir=$5
shift 5
mkdir -p "$dir"
rm -rf "$dir/cache"
fail=0
say() { echo "regs_check: $*"; fail=1; }

# The toolkit runs without the sanitizer runtime a sanitizer build's tests
# preload.
env -u LD_PRELOAD "$nvcc" -arch=sm_75 -cudart shared -O2 "$@" -Xptxas -v -o "$dir/regs" "$src" > "$dir/ptxas75.txt" 2>&1 ||
  { cat "$dir/ptxas75.txt"; echo "regs_check: nvcc failed"; exit 1; }
env -u LD_PRELOAD "$nvcc" -arch=sm_75 -O2 "$@" -ptx -o "$dir/regs.ptx" "$src" || { echo "regs_check: nvcc -ptx failed"; exit 1; }
env -u LD_PRELOAD "$ptxas" -arch=sm_90 -v -o "$dir/regs90.cubin" "$dir/regs.ptx" > "$dir/ptxas90.txt" 2>&1 ||
  { cat "$dir/ptxas90.txt"; echo "regs_check: ptxas failed"; exit 1; }

run() {     # run NAME ENV... : the program in timing mode, its stats in NAME.json
  name=$1; shift
  env PTXSIM_CACHE_DIR="$dir/cache" "$@" "$ptxsim" run --mode timing --config gtx480 \
    --stats "$dir/$name.json" -- "$dir/regs" > "$dir/$name.txt" 2>&1 || { cat "$dir/$name.txt"; say "$name: run failed"; }
  grep -q "^PASS regs " "$dir/$name.txt" || say "$name: no PASS line"
}
run sm75 PTXSIM_SM=75
run sm90 PTXSIM_SM=90 PTXSIM_PTXAS="$ptxas"
ls "$dir/cache"/*-sm_90.cubin > /dev/null 2>&1 || say "sm90: no cubin in the cache"
run sm90again PTXSIM_SM=90 PTXSIM_PTXAS="$ptxas"
run nearest PTXSIM_SM=90 PTXSIM_PTXAS=off
rm -rf "$dir/cache"
run badptxas PTXSIM_SM=90 PTXSIM_PTXAS=/bin/false
grep -q "/bin/false could not compile the PTX for sm_90" "$dir/badptxas.txt" || say "badptxas: the failing ptxas is not named"

python3 - "$dir" <<'PY' || fail=1
import json, re, sys
d = sys.argv[1]
bad = 0
def reference(path):
    """ptxas -v: kernel -> registers, from its own report."""
    out, name = {}, None
    for line in open(path):
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            out[name] = int(m.group(1))
            name = None
    return out
def stats(name):
    recs = [json.loads(l) for l in open(f"{d}/{name}.json") if l.strip()]
    return {r["mangled"]: (r.get("registers"), r.get("registers_from")) for r in recs if "mangled" in r}
def check(run, ref, source):
    global bad
    got = stats(run)
    if set(got) != set(ref):
        print(f"regs_check: {run}: kernels {sorted(got)}, ptxas reported {sorted(ref)}")
        bad = 1
    for k, regs in ref.items():
        if got.get(k) != (regs, source):
            print(f"regs_check: {run}: {k} has {got.get(k)}, expected ({regs}, {source!r})")
            bad = 1
r75, r90 = reference(f"{d}/ptxas75.txt"), reference(f"{d}/ptxas90.txt")
heavy = [k for k in r75 if "heavy" in k]
if len(r75) != 3 or not heavy or r75[heavy[0]] <= 32:
    print(f"regs_check: the reference is not what the test needs (three kernels, one over 32 registers): {r75}")
    bad = 1
check("sm75", r75, "cubin sm_75")
check("sm90", r90, "ptxas sm_90")
check("sm90again", r90, "ptxas sm_90")
check("nearest", r75, "cubin sm_75 (nearest)")
check("badptxas", r75, "cubin sm_75 (nearest)")
# The program's own view: numRegs as ptxas allocated, capped by what a
# 1024-thread block leaves each thread (gtx480's 32768 / 1024 = 32).
attrs = dict(re.findall(r"^attributes (\w+) regs (\d+)", open(f"{d}/sm75.txt").read(), re.M))
for short in ("light", "heavy", "framed"):
    k = [k for k in r75 if short in k]
    want = min(r75[k[0]], 32) if k else None
    if k and int(attrs.get(short, -1)) != want:
        print(f"regs_check: sm75: cudaFuncGetAttributes({short}).numRegs = {attrs.get(short)}, expected {want}")
        bad = 1
sys.exit(bad)
PY
[ $fail = 0 ] && echo "regs_check: ok"
exit $fail

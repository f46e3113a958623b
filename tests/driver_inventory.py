#!/usr/bin/env python3
"""driver_inventory.py BUILD [PROGRAM...] -- what NVIDIA's static CUDA runtime asks of
ptxsim's libcuda.so.1, program by program.

Runs each program linked statically to NVIDIA's runtime (by default every
one BUILD holds: the samples' NAME.nvcc-static and NAME.nvcc-static-G, the
runtime tests' OUT.nvcc-static, tests/rdc's rdc.static) under
`ptxsim run` with PTXSIM_TRACE_DRIVER=1 at the tiny size, and prints in
Markdown:

  - each private table (cuGetExportTable UUID): served or refused, the slots
    the trace saw called, how many programs asked for it;
  - the entry points the runtime looks up by name (cuGetProcAddress): how
    many, and those ptxsim does not have;
  - the entry points called, each with the programs that called it (all, or
    the few that did);
  - the programs that failed, and every warning naming something ptxsim
    does not implement.

docs/static-runtime.md holds its output for the samples.  Exits 1 if a
program did not print its PASS line or a warning named something missing.
"""
import collections
import os
import re
import subprocess
import sys

TABLE = re.compile(r"driver: cuGetExportTable\(([0-9a-f-]{36}), the (.*) table\) from (\S+) -> (\w+)")
SLOT = re.compile(r"driver: (.*) table, slot (\d+) \((.*)\) called$")
PROC = re.compile(r'driver: cuGetProcAddress\("([^"]*)", (-?\d+), flags (\d+)\) -> (.*)$')
CALLED = re.compile(r"driver: (\w+) called$")
MISSING = re.compile(r"warning: (.*) is not implemented by ptxsim")


def programs(build):
    found = []
    for root, _, files in os.walk(build):
        if "CMakeFiles" in root or "venv" in root:
            continue
        for f in files:
            if f.endswith((".nvcc-static", ".nvcc-static-G", ".nvcc-cudart-static")) or f == "rdc.static":
                found.append(os.path.join(root, f))
    return sorted(found)


def label(build, path):
    return os.path.relpath(path, build)


def short(name):
    """samples/gemm.nvcc-static-G -> gemm -G; tests/runtime/pinned.nvcc-static -> runtime/pinned."""
    folder, base = os.path.split(name)
    stem, _, flavour = base.partition(".")
    where = "" if folder == "samples" else os.path.basename(folder) + "/"
    return where + stem + (" -G" if flavour.endswith("-G") else " cudart_static" if "cudart" in flavour else "")


def run(ptxsim, path):
    args = [ptxsim, "run", "--quiet", "--", path]
    if os.path.basename(path) != "rdc.static":
        args.append("tiny")
    env = dict(os.environ, PTXSIM_TRACE_DRIVER="1", PTXSIM_PTXAS="off")
    p = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       errors="replace", timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    ptxsim = os.path.join(build, "bin", "ptxsim")
    progs = sys.argv[2:] or programs(build)
    tables = {}                                     # uuid -> (name, answer)
    table_progs = collections.defaultdict(set)
    table_callers = collections.defaultdict(set)
    slots = collections.defaultdict(set)            # table name -> (slot, what) seen called
    asked = {}                                      # name -> set of answers
    called = collections.defaultdict(set)
    failed, missing = [], collections.defaultdict(set)
    for path in progs:
        name = label(build, path)
        rc, out, err = run(ptxsim, path)
        base = os.path.basename(path).split(".")[0]
        if rc != 0 or not re.search(r"^PASS ", out, re.M):
            failed.append((name, rc, (out + err).strip().splitlines()[-3:]))
        for line in err.splitlines():
            if m := TABLE.search(line):
                tables[m[1]] = (m[2], m[4])
                table_progs[m[1]].add(name)
                table_callers[m[1]].add("the program" if m[3].startswith(base) else m[3])
            elif m := SLOT.search(line):
                slots[m[1]].add((int(m[2]), m[3]))
            elif m := PROC.search(line):
                asked.setdefault(m[1], set()).add(m[4])
            elif m := CALLED.search(line):
                called[m[1]].add(name)
            if m := MISSING.search(line):
                missing[m[1]].add(name)
    n = len(progs)
    print(f"{n} programs, {n - len(failed)} passed.\n")
    print("| UUID | table | answer | asked by | slots seen called | programs |")
    print("|---|---|---|---|---|---|")
    for uuid, (tname, answer) in sorted(tables.items(), key=lambda t: min(table_progs[t[0]])):
        seen = ", ".join(f"{n} ({what})" for n, what in sorted(slots.get(tname, ()))) or "-"
        print(f"| `{uuid}` | {tname} | {answer} | {', '.join(sorted(table_callers[uuid]))} | {seen} | "
              f"{len(table_progs[uuid])} |")
    names = sorted(asked)
    absent = [a for a in names if all(r in ("not found", "newer than that version") for r in asked[a])]
    print(f"\n{len(names)} entry points looked up with cuGetProcAddress, {len(names) - len(absent)} "
          f"resolved; not found ({len(absent)}): " + ", ".join(f"`{a}`" if a else '`""` (an empty name)'
                                                                for a in absent) + ".")
    print("\n| entry point called | programs |")
    print("|---|---|")
    for ep in sorted(called, key=lambda e: (-len(called[e]), e)):
        who = called[ep]
        if len(who) == n:
            text = "all"
        elif len(who) <= 12:
            text = f"{len(who)}: " + ", ".join(sorted(short(w) for w in who))
        else:
            text = str(len(who))
        print(f"| `{ep}` | {text} |")
    for name, rc, tail in failed:
        print(f"\nFAILED {name} (exit {rc}): " + " / ".join(tail))
    for what, who in sorted(missing.items()):
        print(f"\nMISSING {what}: " + ", ".join(sorted(who)))
    return 1 if failed or missing else 0


if __name__ == "__main__":
    sys.exit(main())

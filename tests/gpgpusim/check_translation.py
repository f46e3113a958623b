#!/usr/bin/env python3
"""check_translation.py PTXSIM CONFIG EXPECT

Translates a GPGPU-Sim configuration with `ptxsim configs --from-gpgpusim`
and checks it against EXPECT, whose lines are
  name = value            a parameter of the translation
  GROUP: ITEM             an entry of a group ptxsim lists on stderr
                          (approximated, not modelled, ...); each group's
                          entries must be exactly those EXPECT names
and '#' comments.  The translation must also read back through --config
(ptxsim configs FILE) to the same values.
"""
import os, re, subprocess, sys, tempfile

ptxsim, config, expect = sys.argv[1:4]
run = subprocess.run([ptxsim, "configs", "--from-gpgpusim", config], capture_output=True, text=True)
bad = []
if run.returncode != 0:
    sys.exit(f"check_translation: ptxsim failed ({run.returncode}):\n{run.stderr}")

def params(text):
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            out[k] = v
    return out

got = params(run.stdout)
groups = {}
for line in run.stderr.splitlines():
    m = re.match(r"ptxsim: [^:]+: ([^:]+): (.*)$", line)
    if m and m.group(1) != "GPGPU-Sim configuration":
        # Items are separated by ", " outside parentheses.
        items, depth, cur = [], 0, ""
        for ch in m.group(2) + ",":
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if ch == "," and depth == 0:
                items.append(cur.strip())
                cur = ""
            else:
                cur += ch
        groups[m.group(1)] = set(items)

want_groups = {}
for n, line in enumerate(open(expect), 1):
    line = line.rstrip("\n")
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    m = re.match(r"([A-Za-z0-9_]+) = (\S+)\s*(#.*)?$", line)
    if m:
        k, v = m.group(1), m.group(2)
        if got.get(k) != v:
            bad.append(f"{expect}:{n}: {k} = {got.get(k)}, expected {v}")
        continue
    m = re.match(r"([^:]+): (.+)$", line)
    if not m:
        sys.exit(f"{expect}:{n}: cannot read this line")
    want_groups.setdefault(m.group(1), set()).add(m.group(2).strip())

for g in sorted(set(groups) | set(want_groups)):
    have, want = groups.get(g, set()), want_groups.get(g, set())
    for item in sorted(want - have):
        bad.append(f"{g}: not listed: {item}")
    for item in sorted(have - want):
        bad.append(f"{g}: listed but not expected: {item}")

# The translation reads back as a ptxsim config file with the same values.
with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
    f.write(run.stdout)
back = subprocess.run([ptxsim, "configs", f.name], capture_output=True, text=True)
os.unlink(f.name)
if back.returncode != 0 or params(back.stdout) != got:
    bad.append(f"the translation does not read back the same: {back.stderr.strip()}")

for b in bad:
    print("check_translation:", b)
print(f"check_translation: {config}: {len(bad)} problems")
sys.exit(1 if bad else 0)

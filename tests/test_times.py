#!/usr/bin/env python3
"""test_times.py -- how long each test of a ctest run took, against its timeout.

    test_times.py BUILD_DIR JUNIT_XML [--default-timeout S] [--share F] [--top N]

Reads the JUnit file `ctest --output-junit` wrote and the tests' TIMEOUT
properties (`ctest --show-only=json-v1`; a test without one has the
--timeout ctest ran with, given here as --default-timeout), prints the N
slowest tests with the share of its timeout each used, and exits 1 if any
test used more than F of its timeout.

Why: a timeout is a safety net.  A test that needs a large part of it passes
on an idle machine and fails on a busy one, so the suite refuses such a test
while it still passes, instead of failing at random later.
"""
import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET


def timeouts(build_dir, default):
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    limits = {}
    for test in json.loads(out).get("tests", []):
        limit = default
        for prop in test.get("properties", []):
            if prop.get("name") == "TIMEOUT":
                limit = float(prop["value"])
        limits[test["name"]] = limit
    return limits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("junit")
    ap.add_argument("--default-timeout", type=float, default=1500.0)
    ap.add_argument("--share", type=float, default=0.2)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()

    limits = timeouts(args.build_dir, args.default_timeout)
    runs = []
    for case in ET.parse(args.junit).getroot().iter("testcase"):
        name = case.get("name")
        seconds = float(case.get("time") or 0.0)
        limit = limits.get(name, args.default_timeout)
        runs.append((seconds / limit, seconds, limit, name))
    if not runs:
        print(f"test_times: no test results in {args.junit}", file=sys.stderr)
        return 1

    total = sum(r[1] for r in runs)
    print(f"\nslowest tests in {args.build_dir} ({len(runs)} tests, {total:.0f} s of test time):")
    print(f"  {'seconds':>8}  {'timeout':>7}  {'share':>6}  test")
    for share, seconds, limit, name in sorted(runs, key=lambda r: r[1], reverse=True)[:args.top]:
        print(f"  {seconds:8.2f}  {limit:7.0f}  {share:6.1%}  {name}")
    worst = max(runs)
    print(f"  largest share of a timeout: {worst[0]:.1%} ({worst[3]}); the limit is {args.share:.0%}")

    over = [r for r in runs if r[0] > args.share]
    for share, seconds, limit, name in sorted(over, reverse=True):
        print(f"test_times: {name} took {seconds:.1f} s, {share:.0%} of its {limit:.0f} s timeout "
              f"(more than {args.share:.0%}): make it smaller or faster", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

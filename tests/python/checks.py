"""checks -- what the tests/python scripts share: compare a result with
NumPy's, printing one line per check, and end with the PASS or FAIL line
run.sh looks for."""
import os
import sys

import numpy as np

failures = 0


def check(what, got, want, **tol):
    global failures
    if np.allclose(got, want, **tol):
        print(f"ok   {what}")
    else:
        failures += 1
        print(f"FAIL {what}: got {got!r:.200}, want {want!r:.200}")


def finish():
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    if failures:
        print(f"FAIL {name}: {failures} check(s) failed")
        sys.exit(1)
    print(f"PASS {name}")

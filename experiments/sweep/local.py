"""
local -- a sweep's cells run on this machine, N at a time.

Each cell is a ptxsim process; a pool of N threads starts them and waits.
A functional-mode ptxsim runs a launch's blocks on every core it may use,
so unless PTXSIM_THREADS is set (in the environment or the spec's [env]),
each cell gets its share of the cores: N cells at a time, not N times
the cores' worth of threads.
"""
import concurrent.futures
import os
import sys

import cell as cellmod


def run(ptxsim, out, cells, todo, settings, jobs):
    """Run the cells whose indices are in todo; returns {index: (status, reason)}."""
    results = {}
    if not todo:
        return results
    width = len(str(len(todo)))
    if "PTXSIM_THREADS" not in os.environ:
        os.environ["PTXSIM_THREADS"] = str(max(1, len(os.sched_getaffinity(0)) // max(1, jobs)))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = {pool.submit(cellmod.run, ptxsim, out, cells[i], settings["timeout"], settings["expect"]): i
                   for i in todo}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            i = futures[fut]
            status, reason = fut.result()
            results[i] = (status, reason)
            c = cells[i]
            print(f"sweep: [{n:{width}}/{len(todo)}] {c['program']} | {c['config']} | r{c['repetition']}: "
                  f"{'ok' if status == 0 else 'FAILED (' + reason + ')'}", file=sys.stderr)
    except KeyboardInterrupt:
        # The running cells got the interrupt too; start no more.  They
        # have no done marker, so the next sweep runs them again.
        pool.shutdown(wait=True, cancel_futures=True)
        sys.exit("\nsweep: interrupted; the same command resumes")
    pool.shutdown()
    return results

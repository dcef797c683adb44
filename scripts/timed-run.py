#!/usr/bin/env python3
"""Runs one command and reports its wall time and peak RSS, for the benchmarks.

Usage: timed-run.py ERR_FILE CMD [ARG...]

The command inherits standard input, writes its standard output to /dev/null and its
standard error to ERR_FILE. On exit this prints one JSON object to standard output:
{"ms": wall milliseconds from spawn to exit, "rss_kb": the child's peak resident set
(wait4's ru_maxrss, KiB), "status": its exit status, or -N for signal N}.

The clock runs only around posix_spawn + wait4 of the command: unlike `time` in a shell
around GNU time, no interpreter or extra exec is counted in the command's time.
"""
import json
import os
import sys
import time


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    err_path, cmd = sys.argv[1], sys.argv[2:]
    devnull = os.open(os.devnull, os.O_WRONLY)
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, err, 2)]
    start = time.perf_counter_ns()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter_ns() - start
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps({"ms": elapsed / 1e6, "rss_kb": usage.ru_maxrss, "status": code}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

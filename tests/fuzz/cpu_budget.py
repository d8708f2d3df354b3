#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs a libFuzzer harness until it has used SECONDS of CPU time.

cpu_budget.py SECONDS HARNESS ARGS...

On a busy machine a wall-clock limit (-max_total_time) says little about
how much fuzzing was done: this one counts the harness's own CPU time
(user and system, from /proc) and interrupts it (SIGINT, on which
libFuzzer exits with status 72) once it reaches SECONDS.  Prints "cpu N"
on stderr at the end; exits with the harness's status, 0 for that
interruption.
"""
import os
import signal
import subprocess
import sys
import time

# libFuzzer's -interrupted_exitcode default.
LIBFUZZER_INTERRUPTED = 72


def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    # utime and stime, the 14th and 15th fields, the 12th and 13th after the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    budget = float(sys.argv[1])
    proc = subprocess.Popen(sys.argv[2:])
    used, interrupted = 0.0, False
    while proc.poll() is None:
        try:
            used = cpu_seconds(proc.pid)
        except (OSError, IndexError, ValueError):
            pass
        if used >= budget:
            proc.send_signal(signal.SIGINT)
            interrupted = True
            break
        time.sleep(1)
    status = proc.wait()
    print(f'cpu {used:.0f}', file=sys.stderr)
    return 0 if interrupted and status == LIBFUZZER_INTERRUPTED else status


if __name__ == '__main__':
    sys.exit(main())

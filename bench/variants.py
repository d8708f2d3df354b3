#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Time variants of one makedumpfile command against the first variant.

variants.py --runs N --out FILE [--results FILE --name NAME] LABEL=ARGS...

Runs each variant (ARGS: the whole argument list, with FILE as output)
alternately N times and prints its median wall time,
CPU time (user and system, with the children it waited for), max RSS,
and what it costs over the first variant: wall time and CPU time as
shares of the first's, and CPU time in milliseconds.  --results FILE
appends one JSON line per variant, with NAME, for summary.py.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(argv, out):
    """Wall and CPU seconds (to the microsecond, with the children the
    command waited for) and max RSS (KiB, GNU time's: a Python child
    would report the interpreter's RSS from before exec) of one run."""
    stats = out + '.time'
    with open(out + '.stderr', 'w+b') as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(['/usr/bin/time', '-f', '%M', '-o', stats] + argv,
                                stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        err = errors.read().decode(errors='replace')
    os.unlink(out + '.stderr')
    if proc.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(argv), err[-400:]))
    rss = int(open(stats).read().split()[-1])
    os.unlink(stats)
    if os.path.exists(out):
        os.unlink(out)
    return wall, usage.ru_utime + usage.ru_stime, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--out', required=True)
    ap.add_argument('--results')
    ap.add_argument('--name', default='')
    ap.add_argument('variants', nargs='+')
    a = ap.parse_args()
    variants = [(v.split('=', 1)[0], shlex.split(v.split('=', 1)[1])) for v in a.variants]
    samples = {label: [] for label, _ in variants}
    for _ in range(a.runs):
        for label, argv in variants:
            samples[label].append(run(argv, a.out))
    results = open(a.results, 'a') if a.results else None
    base = None
    for label, _ in variants:
        wall, cpu, rss = (statistics.median(s[col] for s in samples[label]) for col in range(3))
        base = base or (wall, cpu)
        wall_cost, cpu_cost = (wall / base[0] - 1) * 100, (cpu / base[1] - 1) * 100
        print('  %-34s %7.3f s %7.3f s CPU %7.1f MiB   wall %+6.1f%%, CPU %+7.1f ms (%+.1f%%)'
              % (label, wall, cpu, rss / 1024, wall_cost, (cpu - base[1]) * 1e3, cpu_cost))
        if results:
            results.write(json.dumps({'variants': a.name, 'label': label, 'runs': a.runs, 'wall': wall,
                                      'cpu': cpu, 'rss_kib': rss, 'wall_cost_pct': wall_cost,
                                      'cpu_cost_ms': (cpu - base[1]) * 1e3, 'cpu_cost_pct': cpu_cost}) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The cost of extensions on one makedumpfile job, to the millisecond.

extcost.py --runs N --out FILE [--baselines K] NONE=ARGS BASE=ARGS... LABEL=ARGS...

Runs each variant (ARGS: the whole argument list, with FILE as output)
alternately N times and prints the median of each run's CPU time (user
and system, of makedumpfile and the extension children it waited for:
steadier than the wall clock on a shared machine) and of its wall time.  The first variant is the job without
extensions; the next K - 1 (--baselines K, default 2) are reference
extensions that do (next to) nothing: what any extension costs before it
works (the child process, its first read of the dump).  For each other
variant: its cost over the job without extensions and over the last
baseline, as shares of the whole job without extensions, and the time the extension
itself says its scan took (the CPU time of its "the scan took N ms (M
ms of CPU)" line at --message-level 31, when it prints one), also as a
share of the job: on a busy machine the steadiest figure.

The whole job's CPU time moves by a few milliseconds from run to run, as
much as an extension costs, so each variant's cost is also given as
measured where it is spent: the CPU time of the extensions' processes and
of makedumpfile's own part in running them (its "extensions: N ms of CPU
in their processes, M ms in makedumpfile's" line at --message-level 31),
as a share of the job without extensions.
"""
import argparse
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(argv, out):
    start, cpu = time.perf_counter(), cpu_children()
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall, cpu = time.perf_counter() - start, cpu_children() - cpu
    if proc.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(argv), proc.stderr.decode(errors='replace')[-400:]))
    err = proc.stderr.decode(errors='replace')
    out = proc.stdout.decode(errors='replace')
    m = re.findall(r'the scan took [0-9.]+ ms \(([0-9.]+) ms of CPU\)', err)
    own = re.search(r'extensions: ([0-9.]+) ms of CPU in their processes, ([0-9.]+) ms in makedumpfile', out + err)
    return (cpu, wall, sum(float(x) for x in m) if m else None,
            float(own.group(1)) + float(own.group(2)) if own else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=9)
    ap.add_argument('--out', required=True)
    ap.add_argument('--baselines', type=int, default=2)
    ap.add_argument('variants', nargs='+')
    a = ap.parse_args()
    variants = [(v.split('=', 1)[0], shlex.split(v.split('=', 1)[1])) for v in a.variants]
    samples = {label: [] for label, _ in variants}
    walls = {label: [] for label, _ in variants}
    scans = {label: [] for label, _ in variants}
    owns = {label: [] for label, _ in variants}
    for _ in range(a.runs):
        for label, argv in variants:
            cpu, wall, scan, own = run(argv, a.out)
            samples[label].append(cpu)
            walls[label].append(wall)
            if scan is not None:
                scans[label].append(scan)
            if own is not None:
                owns[label].append(own)
    med = {label: statistics.median(samples[label]) for label, _ in variants}
    wall = {label: statistics.median(walls[label]) for label, _ in variants}
    none = variants[0][0]
    whole = med[none]
    print('  %-34s %7.1f ms CPU %7.1f ms wall' % (none, whole * 1e3, wall[none] * 1e3))
    def scan(label):
        text = ''
        if owns[label]:
            own = statistics.median(owns[label])
            text += '\n  %-34s measured where spent: %.1f ms CPU (%.1f%% of the job)' % ('', own, own / whole / 10)
        if scans[label]:
            text += '; its scan %.1f ms CPU (%.1f%%)' % (statistics.median(scans[label]),
                                                        statistics.median(scans[label]) / whole / 10)
        return text

    for label, _ in variants[1:a.baselines]:
        print('  %-34s %7.1f ms CPU %7.1f ms wall   %+.1f ms CPU (%+.1f%% of the job)%s'
              % (label, med[label] * 1e3, wall[label] * 1e3, (med[label] - whole) * 1e3,
                 (med[label] / whole - 1) * 100, scan(label)))
    ref = variants[a.baselines - 1][0]
    for label, _ in variants[a.baselines:]:
        cost = med[label] - med[ref]
        print('  %-34s %7.1f ms CPU %7.1f ms wall   %+.1f ms CPU (%+.1f%% of the job), '
              'over the last: %+.1f ms CPU (%+.1f%%)%s'
              % (label, med[label] * 1e3, wall[label] * 1e3, (med[label] - whole) * 1e3,
                 (med[label] / whole - 1) * 100, cost * 1e3, cost / whole * 100, scan(label)))
    return 0


if __name__ == '__main__':
    sys.exit(main())

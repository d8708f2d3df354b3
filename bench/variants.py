#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Time variants of one makedumpfile command against the first variant.

variants.py --runs N --out FILE LABEL=ARGS...

Runs each variant (ARGS: the whole argument list, with FILE as output)
alternately N times under /usr/bin/time and prints median wall time, max
RSS and the ratio of each to the first variant's.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys


def run(argv, out):
    stats = out + '.time'
    proc = subprocess.run(['/usr/bin/time', '-f', '%e %M', '-o', stats] + argv,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(argv), proc.stderr.decode(errors='replace')[-400:]))
    wall, rss = open(stats).read().split()[-2:]
    os.unlink(stats)
    if os.path.exists(out):
        os.unlink(out)
    return float(wall), int(rss)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--out', required=True)
    ap.add_argument('variants', nargs='+')
    a = ap.parse_args()
    variants = [(v.split('=', 1)[0], shlex.split(v.split('=', 1)[1])) for v in a.variants]
    samples = {label: [] for label, _ in variants}
    for _ in range(a.runs):
        for label, argv in variants:
            samples[label].append(run(argv, a.out))
    base = None
    for label, _ in variants:
        wall = statistics.median(s[0] for s in samples[label])
        rss = statistics.median(s[1] for s in samples[label])
        base = base or wall
        print('  %-34s %8.3f s %8.1f MB   %+6.1f%%' % (label, wall, rss / 1024, (wall / base - 1) * 100))
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run our makedumpfile and upstream's side by side on the same dumps.

bench.py --ours BIN [--upstream BIN] [--runs N] [--workdir DIR]
         --dump NAME=PATH... --job LABEL=ARGS...

For every dump and job, runs both programs alternately N times each,
writing to DIR (output removed after each run), and prints the median wall
time, user+sys time, max RSS and output size of each, ours/upstream
ratios, and our throughput: GB/s of input memory (the pages the dump
holds) and of kept pages (what the report calls remaining), both taken
from our report.  A job whose ARGS name an option upstream lacks (-p, -z on Debian)
runs ours alone.  Each run is measured by /usr/bin/time.
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys


def run_once(argv, out_path):
    """Wall, user+sys seconds, max RSS (KiB), output size and the report's
    original and remaining pages of one run, measured by /usr/bin/time: a
    Python child would report the interpreter's RSS from before exec as
    its maximum."""
    stats = out_path + '.time'
    proc = subprocess.run(['/usr/bin/time', '-f', '%e %U %S %M', '-o', stats] + argv,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise RuntimeError('%s failed: %s' % (' '.join(argv), proc.stderr.decode(errors='replace')[-500:]))
    wall, user, system, rss = open(stats).read().split()[-4:]
    os.unlink(stats)
    size = os.path.getsize(out_path) if os.path.exists(out_path) else 0
    if os.path.exists(out_path):
        os.unlink(out_path)
    report = proc.stdout.decode(errors='replace')
    pages = [int(m.group(1), 16) if m else 0 for m in
             (re.search(label + r'\s*:\s*0x([0-9a-f]+)', report) for label in ('Original pages', 'Remaining pages'))]
    return float(wall), float(user) + float(system), int(rss), size, pages[0], pages[1]


def upstream_supports(upstream, args):
    """Debian's upstream is built without snappy and zstd."""
    if not upstream:
        return False
    flags = subprocess.run([upstream, '-v'], capture_output=True, text=True).stdout
    for opt, lib in (('-p', 'snappy'), ('-z', 'zstd')):
        if opt in args and ('%s\tdisabled' % lib) in flags:
            return False
    return True


def fmt_ratio(a, b):
    return '%5.2f' % (a / b) if b else '    -'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ours', required=True)
    ap.add_argument('--upstream')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--workdir', default='/tmp')
    ap.add_argument('--dump', action='append', default=[])
    ap.add_argument('--job', action='append', default=[])
    a = ap.parse_args()

    print('%-16s %-8s %7s %7s %7s %8s %6s %6s | %7s %7s %7s %8s | %5s %5s %5s' % (
        'dump', 'job', 'wall s', 'cpu s', 'rss MB', 'size MB', 'in GB/s', 'kept', 'up wall',
        'up cpu', 'up rss', 'up size', 'wall', 'rss', 'size'))
    for dump in a.dump:
        dname, dpath = dump.split('=', 1)
        for job in a.job:
            label, args = job.split('=', 1)
            args = shlex.split(args)
            progs = [('ours', a.ours)]
            if upstream_supports(a.upstream, args):
                progs.append(('upstream', a.upstream))
            samples = {name: [] for name, _ in progs}
            for _ in range(a.runs):
                for name, binary in progs:
                    out = os.path.join(a.workdir, 'bench-%s.out' % name)
                    samples[name].append(run_once([binary, '-f', '--message-level', '23'] + args +
                                                  [dpath, out], out))
            med = {}
            for name, rows in samples.items():
                med[name] = [statistics.median(col) for col in zip(*rows)]
            o = med['ours']
            u = med.get('upstream')
            gbps = lambda pages: pages * 4096 / 1e9 / o[0] if o[0] else 0.0
            line = '%-16s %-8s %7.3f %7.3f %7.1f %8.1f %6.2f %6.2f | ' % (
                dname, label, o[0], o[1], o[2] / 1024, o[3] / 1e6, gbps(o[4]), gbps(o[5]))
            if u:
                line += '%7.3f %7.3f %7.1f %8.1f | %5s %5s %5s' % (
                    u[0], u[1], u[2] / 1024, u[3] / 1e6, fmt_ratio(o[0], u[0]),
                    fmt_ratio(o[2], u[2]), fmt_ratio(o[3], u[3]))
            else:
                line += '%7s %7s %7s %8s | %5s %5s %5s' % ('-', '-', '-', '-', '-', '-', '-')
            print(line, flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())

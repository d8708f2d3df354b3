#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How our time and memory grow with the size of the machine.

scaling.py --results FILE --table NAME [--extrapolate]

Reads what bench.py --results wrote for table NAME and, for each job run
by ours on more than one generated dump (named gen-...), prints per dump
the memory the dump holds (GiB, from our report), wall time, wall time
per GiB and max RSS, and how max RSS grew from the smallest to the
largest.  With --extrapolate, also the least-squares lines of wall time
and of max RSS against GiB, and what they give for machines of 1 TiB and
12 TiB.
"""
import argparse
import json
import sys

MACHINES = (('1 TiB', 1024), ('12 TiB', 12 * 1024))
# What grows with the dump is the 2nd bitmap of one cycle, a bit per pfn,
# until a cycle reaches makedumpfile.c's MAX_AUTO_CYCLE_PFNS (32 Mi pfns of
# 4 KiB, a 4 MiB bitmap); larger dumps take several cycles of that size.
CYCLE_CAP_GIB = 128


def fit(points):
    """(intercept, slope) of the least-squares line through [(x, y)]."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my - slope * mx, slope


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--results', required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--extrapolate', action='store_true')
    a = ap.parse_args()
    rows = [json.loads(line) for line in open(a.results)]
    rows = [r for r in rows if r.get('table') == a.table and r['program'] == 'ours' and r['dump'].startswith('gen-')]
    for job in dict.fromkeys(r['job'] for r in rows):
        points = sorted((r for r in rows if r['job'] == job), key=lambda r: r['input_gib'])
        if len(points) < 2:
            continue
        print('%s, ours:' % job)
        print('  %-10s %9s %8s %9s %8s' % ('dump', 'input GiB', 'wall s', 's/GiB', 'rss MiB'))
        for r in points:
            print('  %-10s %9.2f %8.3f %9.4f %8.1f' % (r['dump'], r['input_gib'], r['wall'],
                                                     r['wall'] / r['input_gib'], r['rss_kib'] / 1024))
        first, last = points[0], points[-1]
        print('  max RSS %s -> %s: %+.1f%% (%.2fx)' % (first['dump'], last['dump'],
                                                      (last['rss_kib'] / first['rss_kib'] - 1) * 100,
                                                      last['rss_kib'] / first['rss_kib']))
        if not a.extrapolate:
            continue
        t0, t_slope = fit([(r['input_gib'], r['wall']) for r in points])
        m0, m_slope = fit([(r['input_gib'], r['rss_kib'] / 1024) for r in points])
        tail = points[-2:]
        step = (tail[1]['wall'] - tail[0]['wall']) / (tail[1]['input_gib'] - tail[0]['input_gib'])
        print('  wall time, least squares: %.3f s + %.2f ms per GiB (%s -> %s alone: %.2f ms per GiB)'
              % (t0, t_slope * 1e3, tail[0]['dump'], tail[1]['dump'], step * 1e3))
        print('  max RSS, least squares: %.1f MiB %+.1f KiB per GiB' % (m0, m_slope * 1024))
        for name, gib in MACHINES:
            print('  %-6s machine: wall ~%.0f s (linear in GiB), max RSS ~%.1f MiB (the slope up to a '
                  'cycle of %d GiB, then flat)' % (name, t0 + t_slope * gib,
                                                   m0 + m_slope * min(gib, CYCLE_CAP_GIB), CYCLE_CAP_GIB))
        print('  (generated dumps: sparse, mostly free pages, read from the page cache; a real machine\'s')
        print('   pages in use add the time of reading, compressing and writing what is kept)')
    return 0


if __name__ == '__main__':
    sys.exit(main())

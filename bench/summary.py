#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The targets of issues 28 and 38's "Done when", each with its measured figure.

summary.py --results FILE [--caveat NAME@DUMP=TEXT]...

Reads what bench.py, variants.py and treemem.py appended to FILE in this
run of make bench (tables targets, targets-pinned, config and scaling;
variants ranges; treemem tree) and prints one line per target and dump:
the figure and PASS or MISS, or why it was not measured.
"""
import argparse
import json
import sys


def verdict(ok):
    return 'PASS' if ok else 'MISS'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--results', required=True)
    ap.add_argument('--caveat', action='append', default=[], metavar='NAME@DUMP=TEXT')
    a = ap.parse_args()
    rows = [json.loads(line) for line in open(a.results)]
    caveats = dict((tuple(spec.split('=', 1)[0].split('@', 1)), spec.split('=', 1)[1]) for spec in a.caveat)
    marked = []

    def cell(row, key, limit):
        if not row or row['ratios'].get(key) is None:
            return '%-12s' % '-'
        mark = ''
        if (row['program'], row['dump']) in caveats:
            text = caveats[(row['program'], row['dump'])]
            if text not in marked:
                marked.append(text)
            mark = '*' * (marked.index(text) + 1)
        return '%-12s' % ('%.2f%s %s' % (row['ratios'][key], mark, verdict(row['ratios'][key] <= limit)))

    bench = [r for r in rows if 'table' in r]
    upstreams = list(dict.fromkeys(r['program'] for r in bench if r['table'] == 'targets' and r['program'] != 'ours'))
    print('Ratios ours/other: medians of the paired ratios of %s rounds.' %
          ', '.join(sorted({str(r['runs']) for r in bench})) if bench else 'No comparison was run.')
    for job, key, limit in (('-d 31 -l', 'wall', 0.6), ('-d 31 -c', 'wall', 0.35),
                            ('-d 31 uncompressed', 'cpu', 0.6)):
        if job == '-d 31 uncompressed':
            print('the same job with no codec: all of a run but the compression, where -l spends most')
            print('of its CPU in the lzo1x_1 upstream calls, on the same pages.  CPU, not wall: the wall')
            print('time of writing 80 MB uncompressed is the disk\'s, and ours waits for it (fsync)')
        print(('%-38s %s' % ('%s %s <= %.2fx, output on disk' % (job, key if key == 'wall' else 'CPU', limit),
                              ''.join('%-12s' % ('vs ' + u) for u in upstreams))).rstrip())
        for table in ('targets', 'targets-pinned'):
            for dump in dict.fromkeys(r['dump'] for r in bench if r['table'] == table and r['job'] == job):
                found = {r['program']: r for r in bench if r['table'] == table and r['job'] == job and r['dump'] == dump}
                pin = found['ours']['pin']
                name = dump + (', pinned to CPU %s' % pin if pin is not None else '')
                print(('  %-36s %s' % (name, ''.join(cell(found.get(u), key, limit) for u in upstreams))).rstrip())
        if not upstreams:
            print('  not measured: no upstream makedumpfile')

    # Issue 38: pinned to one CPU, CPU against upstream's head in the same run.
    print("pinned to one CPU, CPU vs head: no codec <= 0.6x, -l <= 0.9x, -z <= 0.9x, -c <= 0.5x")
    pinned = [r for r in bench if r['table'] == 'targets-pinned' and r['program'] == 'head']
    for job, limit in (('-d 31 uncompressed', 0.6), ('-d 31 -l', 0.9), ('-d 31 -z', 0.9), ('-d 31 -c', 0.5)):
        for r in (r for r in pinned if r['job'] == job):
            print(('  %-36s %s' % ('%s, %s' % (job, r['dump']), cell(r, 'cpu', limit))).rstrip())
    if not pinned:
        print("  not measured: no upstream head")

    print('--config erasing every comm, vs head with comm_eraser.so: CPU <= 0.70x, max RSS <= 1.00x')
    config = [r for r in bench if r['table'] == 'config' and r['program'] != 'ours']
    for r in config:
        print(('  %-36s CPU %s max RSS %s' % (r['dump'], cell(r, 'cpu', 0.7), cell(r, 'rss', 1.0))).rstrip())
    if not config:
        print('  not measured: no upstream head, or no comm_eraser.so')

    ranges = {r['label']: r for r in rows if r.get('variants') == 'ranges'}
    print('100,000 extension ranges, gen-16g -d 31 -l: <= +5%, wall and CPU, as shares of the job without extensions')
    if {'no extension', 'an extension with no range', '100,000 ranges'} <= set(ranges):
        none, empty, many = ranges['no extension'], ranges['an extension with no range'], ranges['100,000 ranges']
        for name, base in (('over no extension', none), ('over an extension with no range', empty)):
            wall = (many['wall'] - base['wall']) / none['wall'] * 100
            cpu = (many['cpu'] - base['cpu']) / none['cpu'] * 100
            print('  %-36s wall %+.1f%%, CPU %+.0f ms (%+.1f%%)   %s' % (
                name, wall, (many['cpu'] - base['cpu']) * 1e3, cpu, verdict(wall <= 5 and cpu <= 5)))
    else:
        print('  not measured: no generated 16 GiB dump or no many_ranges extension')

    print('gen-64g -d 31 -l: max RSS <= 1.1x gen-1g\'s; wall per GiB <= gen-16g\'s')
    scale = {r['dump']: r for r in bench if r['table'] == 'scaling' and r['program'] == 'ours'}
    if all(d in scale for d in ('gen-1g', 'gen-16g', 'gen-64g')):
        big, small, mid = scale['gen-64g'], scale['gen-1g'], scale['gen-16g']
        growth = big['rss_kib'] / small['rss_kib']
        per_gib = {d: scale[d]['wall'] / scale[d]['input_gib'] * 1e3 for d in ('gen-16g', 'gen-64g')}
        print('  %-36s %.1f vs %.1f MiB: %.2fx   %s' % ('max RSS', big['rss_kib'] / 1024, small['rss_kib'] / 1024,
                                                    growth, verdict(growth <= 1.1)))
        print('  %-36s %.1f vs %.1f ms per GiB   %s' % ('wall per GiB, gen-64g vs gen-16g', per_gib['gen-64g'],
                                                      per_gib['gen-16g'], verdict(per_gib['gen-64g'] <= per_gib['gen-16g'])))
    else:
        print('  not measured: make bench BENCH_64G=1')

    tree = [r for r in rows if r.get('treemem') == 'tree']
    print('the whole process tree, three shipped extensions, 6.1-kdump -d 31 -l: <= 24 MiB')
    if tree:
        r = tree[-1]
        largest = max(r['processes'].items(), key=lambda kv: kv[1]) if r['processes'] else ('-', 0)
        print('  %-36s %.1f MiB   %s   (largest: %s; all at one moment: %.1f MiB)' % (
            'GNU time max RSS', r['rss_kib'] / 1024, verdict(r['rss_kib'] / 1024 <= r['target_mib']),
            largest[0], r['sum_kib'] / 1024))
    else:
        print('  not measured: no 6.1-kdump or no shipped extensions')
    for i, text in enumerate(marked):
        print('%s %s' % ('*' * (i + 1), text))
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The peak memory of a makedumpfile run and of each of its processes.

treemem.py --runs N --out FILE [--target MIB] [--name-by DIR] [--results FILE] -- ARGS...

Runs ARGS (a whole command line, with FILE as output) N times under
/usr/bin/time and prints the medians of:
- GNU time's max RSS (%M): the largest peak resident size among the
  process and the children it waited for (the extensions' processes),
  not their sum; the figure the target (--target, MiB) is about;
- each process's own peak (VmHWM of /proc/PID/status), read every
  millisecond while it lives, by role: makedumpfile, its first forked
  child, its second...;
- the largest sum of the processes' resident sizes (VmRSS) at one
  moment: what the tree held together, counting the pages a forked child
  still shares with its parent once per process, so an upper bound.
VmHWM is a high-water mark, so a poll that comes late loses nothing but
what the process touched in its last millisecond; a child that lives
less than a millisecond may be missed.  Children are the processes
whose parent is in the tree.
With --name-by DIR, a child is named by the shared objects of DIR it maps
and its parent does not (an extension's process, by its extension).
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def status(pid):
    """{field: value} of /proc/PID/status, or None once it is gone."""
    try:
        with open('/proc/%d/status' % pid) as f:
            return dict(line.rstrip('\n').split(':\t', 1) for line in f if ':\t' in line)
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None


def mapped(pid, directory):
    """The names of the files of DIRECTORY that PID maps."""
    try:
        with open('/proc/%d/maps' % pid) as f:
            fields = [line.split(None, 5) for line in f]
    except (FileNotFoundError, ProcessLookupError):
        return set()
    return {os.path.basename(f[5].strip()) for f in fields
            if len(f) == 6 and os.path.dirname(f[5].strip()) == directory}


def kib(field):
    return int(field.split()[0]) if field else 0


def run_once(argv, out, name_by):
    """(GNU time's max RSS, [(role, peak KiB)], largest sum of RSS), in KiB."""
    stats, errors = out + '.time', open(out + '.err', 'w+')
    timer = subprocess.Popen(['/usr/bin/time', '-f', '%M', '-o', stats] + argv,
                             stdout=subprocess.DEVNULL, stderr=errors)
    tree = {}                  # pid -> (role, peak KiB, parent)
    order = []
    maps = {}                  # pid -> names of the files of name_by it maps
    largest_sum = 0
    others = set()             # pids of processes outside the tree
    while timer.poll() is None:
        found = {}
        for pid in (int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) not in others):
            st = status(pid)
            if st and st.get('VmHWM'):
                found[pid] = st
        # Parents first, whatever their pids (they wrap around).
        newcomers = [pid for pid in found if pid not in tree]
        while newcomers:
            joined = [pid for pid in newcomers
                      if int(found[pid]['PPid']) == timer.pid or int(found[pid]['PPid']) in tree]
            for pid in joined:
                parent = int(found[pid]['PPid'])
                if parent == timer.pid:
                    role = 'makedumpfile'
                else:
                    siblings = sum(1 for p in order if tree[p][2] == parent)
                    role = '%s, child %d' % (tree[parent][0], siblings + 1)
                tree[pid] = (role, 0, parent)
                order.append(pid)
            newcomers = [pid for pid in newcomers if pid not in tree]
            if not joined:
                others.update(newcomers)
                break
        total = 0
        for pid in (pid for pid in found if pid in tree):
            st = found[pid]
            role, peak, parent = tree[pid]
            tree[pid] = (role, max(peak, kib(st['VmHWM'])), parent)
            total += kib(st.get('VmRSS'))
            if name_by:
                maps.setdefault(pid, set()).update(mapped(pid, name_by))
        largest_sum = max(largest_sum, total)
        time.sleep(0.001)
    errors.seek(0)
    err = errors.read()
    errors.close()
    os.unlink(out + '.err')
    if timer.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(argv), err[-400:]))
    gnu = int(open(stats).read().split()[-1])
    os.unlink(stats)
    if os.path.exists(out):
        os.unlink(out)
    roles = []
    for pid in order:
        role, peak, parent = tree[pid]
        own = sorted(maps.get(pid, set()) - maps.get(parent, set()))
        if own:
            role = '%s\'s child, %s' % (tree[parent][0], ', '.join(own))
        elif name_by and parent in tree:
            role = '%s\'s child, seen only before it loaded one' % tree[parent][0]
        roles.append((role, peak))
    return gnu, roles, largest_sum


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('--out', required=True)
    ap.add_argument('--target', type=float)
    ap.add_argument('--name-by')
    ap.add_argument('--results')
    ap.add_argument('--name', default='')
    ap.add_argument('argv', nargs='+')
    a = ap.parse_args()
    gnu, sums, peaks = [], [], {}
    for _ in range(a.runs):
        g, procs, total = run_once(a.argv, a.out, a.name_by and os.path.abspath(a.name_by))
        gnu.append(g)
        sums.append(total)
        for role, peak in procs:
            peaks.setdefault(role, []).append(peak)
    mib = lambda k: k / 1024
    whole = statistics.median(gnu)
    target = ' (target: %g MiB or less)' % a.target if a.target else ''
    print('  %-46s %7.1f MiB%s' % ('GNU time max RSS (%M)', mib(whole), target))
    print('    (%M: the largest of makedumpfile and the children it waited for, not their sum)')
    for role, values in peaks.items():
        seen = '' if len(values) == a.runs else ' (seen in %d of %d runs)' % (len(values), a.runs)
        print('    %-44s %7.1f MiB peak (VmHWM)%s' % (role, mib(statistics.median(values)), seen))
    print('  the processes together, largest sum of VmRSS at one moment: %.1f MiB' % mib(statistics.median(sums)))
    if a.results:
        with open(a.results, 'a') as f:
            f.write(json.dumps({'treemem': a.name, 'runs': a.runs, 'rss_kib': whole,
                                'sum_kib': statistics.median(sums), 'target_mib': a.target,
                                'processes': {r: statistics.median(v) for r, v in peaks.items()},
                                'command': shlex.join(a.argv)}) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

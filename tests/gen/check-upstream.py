#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks that upstream makedumpfile reads mkvmcore's dumps as the kernel
means them: for each dump level, the pfns in its kdump-compressed output
must be exactly the pfns the facts file says survive that level (zero pages
stay in a kdump-compressed bitmap, so for levels with bit 1 the number of
pages it reports as filled with zero is compared instead).

usage: check-upstream.py [--mkvmcore PATH] [--levels 0,1,2,...] [--keep DIR]
                         [-- MKVMCORE-OPTIONS...]

It compares --dump-dmesg with the facts' dmesg lines, and it runs
makedumpfile once more with PAGE_BUDDY_MAPCOUNT_VALUE hidden
from VMCOREINFO, which makes it walk the zones' free lists instead of
looking at page types, so the free lists get checked too.  Needs
makedumpfile and python3-libkdumpfile; exits 1 on any mismatch.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import kdumpfile

DL_ALWAYS = 0x100


def parse_facts(path):
    """The exclusion runs, per-level counts and dmesg of a facts file."""
    runs, counts, dmesg = [], {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'dmesg':
                dmesg.append(line[len('dmesg '):])
            elif w[0] == 'pages':
                runs.append((int(w[1], 0), int(w[2]), w[3], int(w[4], 0)))
            elif w[0] == 'dumpable':
                counts[int(w[1])] = int(w[2])
    return runs, counts, ''.join(dmesg)


def expected_ranges(runs, level):
    """Merged [start, end) pfn ranges kept at this dump level."""
    out = []
    for start, count, _cat, mask in runs:
        if mask & (level | DL_ALWAYS):
            continue
        if out and out[-1][1] == start:
            out[-1][1] = start + count
        else:
            out.append([start, start + count])
    return [tuple(r) for r in out]


def dump_ranges(path):
    """Merged [start, end) ranges of pfns present in a dump."""
    bm = kdumpfile.kdumpfile(path).attr['file.pagemap']
    out, idx = [], 0
    while True:
        try:
            s = bm.find_set(idx)
        except Exception:
            break
        try:
            e = bm.find_clear(s)
        except Exception:
            e = None
        if e is None or e <= s:
            out.append((s, s + 1 << 62))
            break
        out.append((s, e))
        idx = e
    return out


def count(ranges):
    return sum(e - s for s, e in ranges)


def category_of(runs, pfn):
    for start, n, cat, mask in runs:
        if start <= pfn < start + n:
            return '%s mask=%#x' % (cat, mask)
    return 'not in the dump file'


def first_differences(a, b, limit=8):
    """pfns in exactly one of two range lists, at most limit of them."""
    diffs = []
    sa = set()
    for s, e in a:
        if e - s > 1 << 24:
            return ['(range too large to compare pfn by pfn)']
        sa.update(range(s, e))
    sb = set()
    for s, e in b:
        if e - s > 1 << 24:
            return ['(range too large to compare pfn by pfn)']
        sb.update(range(s, e))
    for pfn in sorted(sa ^ sb)[:limit]:
        diffs.append(pfn)
    return diffs


def run_makedumpfile(elf, out, level):
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run(['makedumpfile', '-f', '-l', '-d', str(level),
                        '--message-level', '31', elf, out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        raise SystemExit('makedumpfile -d %d failed (%d)' % (level,
                                                             r.returncode))
    return r.stdout


def report_counter(report, name):
    for line in report.splitlines():
        if line.strip().startswith(name):
            return int(line.split(':')[1], 16)
    raise SystemExit('no "%s" in the makedumpfile report' % name)


def hide_buddy_value(elf):
    """Renames PAGE_BUDDY_MAPCOUNT_VALUE in the VMCOREINFO note in place."""
    key = b'NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)'
    with open(elf, 'r+b') as f:
        head = f.read(1 << 16)
        pos = head.find(key)
        if pos < 0:
            raise SystemExit('no PAGE_BUDDY_MAPCOUNT_VALUE in ' + elf)
        f.seek(pos + len('NUMBER('))
        f.write(b'X')


def compare(label, runs, want, got):
    ok = want == got
    print('%-28s expected %9d  makedumpfile %9d  %s' %
          (label, count(want), count(got), 'ok' if ok else 'MISMATCH'))
    if not ok:
        for pfn in first_differences(want, got):
            if isinstance(pfn, str):
                print('    ' + pfn)
                continue
            where = 'only expected' if any(s <= pfn < e for s, e in want) \
                else 'only in dump'
            print('    pfn %#x %s (%s)' % (pfn, where, category_of(runs, pfn)))
    return ok


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser()
    ap.add_argument('--mkvmcore',
                    default=os.path.join(root, 'build/tests/mkvmcore'))
    ap.add_argument('--levels', default='0,1,2,4,8,16,31')
    ap.add_argument('--keep', help='work in this directory and keep it')
    ap.add_argument('gen_args', nargs='*')
    args = ap.parse_args()

    work = args.keep or tempfile.mkdtemp(prefix='mkvmcore-check.')
    os.makedirs(work, exist_ok=True)
    elf = os.path.join(work, 'gen.elf')
    facts = os.path.join(work, 'facts.txt')
    out = os.path.join(work, 'out.kdump')
    subprocess.run([args.mkvmcore, '--layout', 'kexec', '--facts', facts] +
                   args.gen_args + [elf], check=True)
    runs, counts, dmesg = parse_facts(facts)

    ok = True
    for level in [int(x) for x in args.levels.split(',')]:
        want = expected_ranges(runs, level)
        if count(want) != counts[level]:
            print('facts file inconsistent at level %d' % level)
            ok = False
        # kdump-compressed files keep zero pages in the bitmap (they all
        # share one stored zero page), so they are checked by count
        report = run_makedumpfile(elf, out, level)
        ok &= compare('-d %d' % level, runs,
                      expected_ranges(runs, level & ~1), dump_ranges(out))
        if level & 1:
            zeros = count(expected_ranges(runs, level & ~1)) - count(want)
            got = report_counter(report, 'Pages filled with zero')
            print('%-28s expected %9d  makedumpfile %9d  %s' %
                  ('  zero pages', zeros, got,
                   'ok' if zeros == got else 'MISMATCH'))
            ok &= zeros == got

    log = os.path.join(work, 'dmesg.txt')
    if os.path.exists(log):
        os.unlink(log)
    subprocess.run(['makedumpfile', '--dump-dmesg', elf, log], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(log) as f:
        same = f.read() == dmesg
    print('%-28s %s' % ('--dump-dmesg', 'ok' if same else 'MISMATCH'))
    ok &= same

    hide_buddy_value(elf)
    report = run_makedumpfile(elf, out, 16)
    if 'follow free lists' not in report:
        print('makedumpfile did not fall back to the free lists')
        ok = False
    ok &= compare('-d 16 via free lists', runs, expected_ranges(runs, 16),
                  dump_ranges(out))

    if not args.keep:
        for name in os.listdir(work):
            os.unlink(os.path.join(work, name))
        os.rmdir(work)
    print('PASS' if ok else 'FAIL')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare our dump file with upstream makedumpfile's for the same input
and dump level.

levelcheck.py OURS UPSTREAM --level LEVEL [--tails DUMPREAD VMCORE VMCOREINFO]
              [--report OURS_LOG UPSTREAM_LOG] [--markers MARKER_PFNS]

The pfns of both 2nd bitmaps (python3-libkdumpfile's file.pagemap) must be
equal.

--tails: upstream 1.7.2 predates kernel 7.1's rename of page.compound_head
to page.compound_info, so it judges compound tail pages one by one where
the kernel (and we) let the head decide.  Pfns that only we keep are then
accepted when each is a compound tail page (bit 0 of its compound_info,
read from VMCORE through DUMPREAD); upstream's user-data count must then
exceed ours by exactly their number, and our zero-page count upstream's by
the number of them that hold only zeros.

--report: the per-category counts of both reports (--message-level 31
output) must be equal (zero pages too), allowing for --tails.

--markers: the shared dumps' labprobe anonymous pages ("anon" lines of
MARKER_PFNS) are all in our dump below dump level 8, and none at 8 or
above; kept ones start with their marker.
"""
import argparse
import re
import subprocess
import sys

import kdumpfile

from testlib import MARKERS, PAGE, digest, pfn_set

REPORT = ['Pages filled with zero', 'Non-private cache pages', 'Private cache pages',
          'User process data pages', 'Free pages', 'Hwpoison pages', 'Offline pages']


def compound_tails(dumpread, vmcore, vmcoreinfo_path, pfns):
    """The pfns among @pfns whose struct page marks a compound tail, and
    how many of those pages hold only zeros."""
    vi = dict(line.rstrip('\n').split('=', 1) for line in open(vmcoreinfo_path) if '=' in line)
    vmemmap, size = int(vi['SYMBOL(vmemmap)'], 16), int(vi['SIZE(page)'])
    info = int(vi['OFFSET(page.compound_info)'])
    first, last = min(pfns), max(pfns)
    pages = subprocess.run([dumpread, vmcore, 'virt', '%#x' % (vmemmap + first * size),
                            str((last - first + 1) * size)], check=True, capture_output=True).stdout
    tails = {pfn for pfn in pfns
             if int.from_bytes(pages[(pfn - first) * size + info:][:8], 'little') & 1}
    out = subprocess.run([dumpread, vmcore, 'pages'], check=True, capture_output=True, text=True,
                         input=''.join('%#x\n' % p for p in sorted(tails))).stdout.split()
    zero = digest(bytes(PAGE))
    return tails, sum(1 for word in out[2::3] if word == zero)


def report_counts(path):
    text = open(path, errors='replace').read()
    counts = {}
    for label in REPORT:
        m = re.search(re.escape(label) + r'\s*:\s*0x([0-9a-f]+)', text)
        counts[label] = int(m.group(1), 16) if m else None
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ours')
    ap.add_argument('upstream')
    ap.add_argument('--tails', nargs=3)
    ap.add_argument('--report', nargs=2)
    ap.add_argument('--markers')
    ap.add_argument('--level', type=int, required=True)
    a = ap.parse_args()

    ours, theirs = pfn_set(a.ours), pfn_set(a.upstream)
    problems = []
    allowance = {}
    only_ours, only_theirs = ours - theirs, theirs - ours
    if a.tails and only_ours and not only_theirs:
        tails, zero_tails = compound_tails(*a.tails, sorted(only_ours))
        if tails == only_ours:
            # Upstream excluded them as user data; we keep them, and count
            # the zero ones as zero pages as we write.
            allowance = {'User process data pages': len(tails),
                         'Pages filled with zero': -zero_tails if a.level & 1 else 0}
            print('%d compound tail pages (%d of them zero) that upstream 1.7.2 counts as user data'
                  % (len(tails), zero_tails))
    if (only_ours or only_theirs) and not allowance:
        problems.append('pfn sets differ: %d only ours (%s), %d only upstream (%s)' % (
            len(only_ours), [hex(p) for p in sorted(only_ours)[:4]],
            len(only_theirs), [hex(p) for p in sorted(only_theirs)[:4]]))

    if a.report:
        mine, want = report_counts(a.report[0]), report_counts(a.report[1])
        for label in REPORT:
            if mine[label] is None or want[label] is None or \
                    mine[label] + allowance.get(label, 0) != want[label]:
                problems.append('%s: ours %s, upstream %s' % (label, mine[label], want[label]))

    if a.markers:
        level = a.level
        anon = [int(line.split()[1], 16) for line in open(a.markers)
                if line.startswith('anon ')]
        kept = [p for p in anon if p in ours]
        if level & 8 and kept:
            problems.append('%d of %d anon marker pages kept at -d %d' % (len(kept), len(anon), level))
        if not level & 8 and len(kept) != len(anon):
            problems.append('only %d of %d anon marker pages kept at -d %d' % (len(kept), len(anon), level))
        dump = kdumpfile.kdumpfile(a.ours)
        wrong = [p for p in kept
                 if not bytes(dump.read(kdumpfile.KDUMP_MACHPHYSADDR, p * PAGE, 16)).startswith(MARKERS['anon'])]
        if wrong:
            problems.append('%d kept anon marker pages lack their marker' % len(wrong))

    for p in problems:
        print('FAIL', p)
    print('%d pfns in our dump, %d in upstream\'s; %d problems' % (len(ours), len(theirs), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

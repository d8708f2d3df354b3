#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare our page classification with upstream makedumpfile's.

scancheck.py DUMPREAD VMCORE LEVEL UPSTREAM_KDUMP UPSTREAM_LOG [--tails VMCOREINFO]

Upstream wrote UPSTREAM_KDUMP from VMCORE at dump level LEVEL (its report,
--message-level 31, in UPSTREAM_LOG).  The set of pfns in its 2nd bitmap
(read with python3-libkdumpfile: file.pagemap) must equal the set our
classification keeps, and each category count of its report must equal
ours.  Zero pages are not part of the comparison of counts: a
kdump-compressed writer finds them while copying.

--tails: upstream 1.7.2 predates kernel 7.1's rename of page.compound_head
to page.compound_info, so it judges compound tail pages one by one where
the kernel (and we) let the head decide.  With this option, pfns that only
we keep are accepted when each is a compound tail page (bit 0 of its
compound_info, read from the dump), and the user-data count may differ by
exactly their number.
"""
import re
import subprocess
import sys

import kdumpfile

REPORT = {'cache': 'Non-private cache pages', 'cache_private': 'Private cache pages',
          'user': 'User process data pages', 'free': 'Free pages',
          'hwpoison': 'Hwpoison pages', 'offline': 'Offline pages'}


def upstream_runs(path):
    pagemap = kdumpfile.kdumpfile(path).attr['file.pagemap']
    runs, pfn = [], 0
    while True:
        try:
            start = pagemap.find_set(pfn)
        except Exception:
            break
        end = pagemap.find_clear(start)
        runs.append((start, end))
        pfn = end
    return runs


def vmcoreinfo(path):
    return dict(line.rstrip('\n').split('=', 1) for line in open(path) if '=' in line)


def compound_tails(dumpread, vmcore, vi, pfns):
    """The pfns among @pfns whose struct page marks a compound tail."""
    vmemmap = int(vi['SYMBOL(vmemmap)'], 16)
    size = int(vi['SIZE(page)'])
    info = int(vi['OFFSET(page.compound_info)'])
    tails = set()
    for pfn in pfns:
        page = subprocess.run([dumpread, vmcore, 'virt', '%#x' % (vmemmap + pfn * size), str(size)],
                              check=True, capture_output=True).stdout
        if int.from_bytes(page[info:info + 8], 'little') & 1:
            tails.add(pfn)
    return tails


def pfn_set(runs):
    return {pfn for start, end in runs for pfn in range(start, end)}


def main():
    dumpread, vmcore, level, kdump, log = sys.argv[1:6]
    tails_vi = sys.argv[7] if len(sys.argv) > 7 and sys.argv[6] == '--tails' else None
    out = subprocess.run([dumpread, vmcore, 'scan', level], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    ours = [tuple(int(x, 16) for x in line.split()[1:]) for line in out if line.startswith('dumpable')]
    counts = dict(line.split() for line in out if not line.startswith('dumpable'))
    theirs = upstream_runs(kdump)
    bad = 0
    allowed_user_difference = 0
    if tails_vi and ours != theirs:
        only_ours = pfn_set(ours) - pfn_set(theirs)
        tails = compound_tails(dumpread, vmcore, vmcoreinfo(tails_vi), sorted(only_ours))
        if pfn_set(theirs) - pfn_set(ours) or tails != only_ours:
            print('differences beyond compound tails: %d pfns only upstream keeps, %d of our '
                  '%d extra pfns are not tails' % (len(pfn_set(theirs) - pfn_set(ours)),
                                                   len(only_ours - tails), len(only_ours)))
            bad += 1
        else:
            print('%d compound tail pages that upstream 1.7.2 counted as user data' % len(tails))
            allowed_user_difference = len(tails)
    elif ours != theirs:
        a, b = set(ours), set(theirs)
        print('dumpable runs differ: only ours %s; only upstream %s' %
              (sorted(a - b)[:5], sorted(b - a)[:5]))
        bad += 1
    report = open(log, errors='replace').read()
    for key, label in REPORT.items():
        m = re.search(re.escape(label) + r'\s*:\s*0x([0-9a-f]+)', report)
        if not m:
            print('no "%s" line in the upstream report' % label)
            bad += 1
        elif int(m.group(1), 16) != int(counts[key]) + (allowed_user_difference if key == 'user' else 0):
            print('%s: ours %s, upstream %d' % (key, counts[key], int(m.group(1), 16)))
            bad += 1
    print('level %s: %d runs, %d pfns kept; %d differences' %
          (level, len(ours), sum(e - s for s, e in ours), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare a dump we wrote with one upstream makedumpfile's development
head wrote, both running the same extension of upstream's API.

upstreamapicheck.py DUMPREAD OURS UPSTREAM [--markers MARKER_PFNS --kind KIND
                    (--absent | --present) [--removed-from BASE]] [--contents]

The pfns of both (python3-libkdumpfile's file.pagemap) must be equal.
--contents: each page's bytes too (what an eraser wrote), through DUMPREAD.
--markers: every KIND pfn of MARKER_PFNS is absent from (or present in)
ours, so the comparison is not between two dumps that both missed;
--removed-from: the pfns BASE (the dump without the extension) holds and
ours does not are exactly those KIND pfns.
"""
import argparse
import sys

from testlib import dumpread_digests, pfn_set


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dumpread')
    ap.add_argument('ours')
    ap.add_argument('upstream')
    ap.add_argument('--markers')
    ap.add_argument('--kind')
    ap.add_argument('--absent', action='store_true')
    ap.add_argument('--present', action='store_true')
    ap.add_argument('--contents', action='store_true')
    ap.add_argument('--removed-from')
    args = ap.parse_args()

    problems = []
    ours, theirs = pfn_set(args.ours), pfn_set(args.upstream)
    if ours != theirs:
        only_ours, only_theirs = sorted(ours - theirs), sorted(theirs - ours)
        problems.append('page sets differ: %d pfns only in ours (%s), %d only in upstream\'s (%s)' % (
            len(only_ours), ' '.join('%#x' % p for p in only_ours[:5]),
            len(only_theirs), ' '.join('%#x' % p for p in only_theirs[:5])))
    if args.contents:
        common = ours & theirs
        mine = dumpread_digests(args.dumpread, args.ours, common)
        upstream = dumpread_digests(args.dumpread, args.upstream, common)
        differ = sorted(p for p in common if mine.get(p) != upstream.get(p))
        if differ:
            problems.append('%d pages differ in content, e.g. %#x' % (len(differ), differ[0]))
    if args.markers:
        with open(args.markers) as f:
            listed = {int(w[1], 16) for w in (line.split() for line in f)
                      if len(w) == 2 and w[0] == args.kind}
        if not listed:
            problems.append('no %s pfns in %s' % (args.kind, args.markers))
        if args.removed_from:
            removed = pfn_set(args.removed_from) - ours
            if removed != listed:
                problems.append('removed %d pfns, not the %d %s pfns: %d others, e.g. %s' % (
                    len(removed), len(listed), args.kind, len(removed - listed),
                    ' '.join('%#x' % p for p in sorted(removed - listed)[:5])))
        wrong = sorted(listed & ours) if args.absent else sorted(listed - ours)
        if wrong:
            problems.append('%d %s pfns %s ours, e.g. %#x' % (
                len(wrong), args.kind, 'still in' if args.absent else 'missing from', wrong[0]))
    for p in problems:
        print('FAIL', p)
    print('%d pfns in ours, %d in upstream\'s; %d problems' % (len(ours), len(theirs), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

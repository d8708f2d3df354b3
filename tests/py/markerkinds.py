#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Which of a shared dump's marker pages a dump file keeps.

markerkinds.py DUMP MARKER_PFNS [--kept KIND,...] [--dropped KIND,...]

MARKER_PFNS is a folder's marker-pfns.txt ("KIND PFN" for every page that
starts with a marker, found by a scan of the raw dump).  Every pfn of each
--kept kind must be in DUMP (python3-libkdumpfile's file.pagemap), and
none of each --dropped kind.
"""
import argparse
import sys

from testlib import pfn_set


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dump')
    ap.add_argument('markers')
    ap.add_argument('--kept', default='')
    ap.add_argument('--dropped', default='')
    a = ap.parse_args()
    pfns = {}
    for line in open(a.markers):
        words = line.split()
        if len(words) == 2:
            pfns.setdefault(words[0], set()).add(int(words[1], 16))
    have = pfn_set(a.dump)
    bad = 0
    for kind in filter(None, a.kept.split(',')):
        missing = pfns.get(kind, set()) - have
        print('%s: %d of %d kept' % (kind, len(pfns.get(kind, set())) - len(missing), len(pfns.get(kind, set()))))
        bad += bool(missing) or not pfns.get(kind)
    for kind in filter(None, a.dropped.split(',')):
        kept = pfns.get(kind, set()) & have
        print('%s: %d of %d kept' % (kind, len(kept), len(pfns.get(kind, set()))))
        bad += bool(kept) or not pfns.get(kind)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

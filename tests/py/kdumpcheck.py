#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare dumpread's pages with python3-libkdumpfile's on one kdump file.

usage: kdumpcheck.py DUMPREAD FILE [MARKER_PFNS] [--random N] [--seed S]

Reads the marker pfns (lines "kind pfn"), N random pfns the file holds, and
pfns it does not hold, through both readers.  libkdumpfile answers "no
data" for both excluded and absent pages, so which of the two a missing pfn
is comes from the file's 1st bitmap, read here directly.  Prints one FAIL
line per difference and a summary; exits 1 on any difference.
"""
import argparse
import random
import struct
import subprocess
import sys

import kdumpfile

from testlib import digest


def first_bitmap(path):
    """The 1st bitmap (pages present) and max_mapnr, from the header."""
    with open(path, 'rb') as f:
        dh = f.read(464)
        version, = struct.unpack_from('<i', dh, 8)
        block_size, sub_hdr_size, bitmap_blocks, max_mapnr32 = \
            struct.unpack_from('<iiII', dh, 428)
        f.seek(block_size)
        sh = f.read(104)
        max_mapnr = struct.unpack_from('<Q', sh, 96)[0] if version >= 6 else max_mapnr32
        f.seek((1 + sub_hdr_size) * block_size)
        bitmap = f.read((max_mapnr + 7) // 8)
    return bitmap, max_mapnr, block_size


def bit(bitmap, pfn):
    return pfn // 8 < len(bitmap) and (bitmap[pfn // 8] >> (pfn % 8)) & 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dumpread')
    ap.add_argument('file')
    ap.add_argument('markers', nargs='?')
    ap.add_argument('--random', type=int, default=3000)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    present, max_mapnr, page_size = first_bitmap(args.file)
    k = kdumpfile.kdumpfile(args.file)
    pagemap = k.attr['file.pagemap']

    pfns = []
    if args.markers:
        with open(args.markers) as f:
            pfns += [int(line.split()[1], 0) for line in f
                     if line.strip() and not line.startswith('#')]
    held = []
    pfn = 0
    while pfn < max_mapnr:
        try:
            start = pagemap.find_set(pfn)
        except kdumpfile.exceptions.NoDataException:
            break
        try:
            end = min(pagemap.find_clear(start), max_mapnr)
        except kdumpfile.exceptions.NoDataException:
            end = max_mapnr
        if start >= max_mapnr:
            break
        held.append((start, end))
        pfn = end
    total = sum(e - s for s, e in held)
    for _ in range(args.random if total else 0):
        n = rng.randrange(total)
        for s, e in held:
            if n < e - s:
                pfns.append(s + n)
                break
            n -= e - s
    # Missing pages: the gaps between held runs, and pfns past the end.
    bounds = [(0, 0)] + held + [(max_mapnr, max_mapnr)]
    gaps = [(e, s2) for (_, e), (s2, _) in zip(bounds, bounds[1:])]
    for s, e in gaps:
        if e > s:
            pfns += [s, e - 1] + [rng.randrange(s, e) for _ in range(20)]
    pfns += [max_mapnr, max_mapnr + 1, 1 << 40]

    out = subprocess.run([args.dumpread, args.file, 'pages'], check=True,
                         input=''.join('0x%x\n' % p for p in pfns),
                         capture_output=True, text=True).stdout.splitlines()
    if len(out) != len(pfns):
        print('FAIL: %d answers for %d pfns' % (len(out), len(pfns)))
        return 1

    fails = 0
    counts = {}
    for pfn, line in zip(pfns, out):
        words = line.split()
        mine = words[1]
        try:
            data = k.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * page_size, page_size)
            want, want_digest = 'ok', digest(data)
        except kdumpfile.exceptions.NoDataException:
            want, want_digest = ('excluded' if bit(present, pfn) else 'notdumped'), None
        except (kdumpfile.exceptions.AddressTranslationException, OverflowError):
            want, want_digest = 'notdumped', None
        counts[want] = counts.get(want, 0) + 1
        if mine != want or (want_digest and words[2] != want_digest):
            fails += 1
            print('FAIL pfn 0x%x: dumpread %s, libkdumpfile %s %s' %
                  (pfn, ' '.join(words[1:]), want, want_digest or ''))
    print('%s: %d pfns compared (%s), %d differ' %
          (args.file, len(pfns), ', '.join('%s %d' % kv for kv in sorted(counts.items())),
           fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())

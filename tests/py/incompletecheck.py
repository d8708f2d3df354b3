#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An incomplete kdump-compressed file, as a failed write leaves it.

incompletecheck.py DUMPREAD FILE SOURCE [--pages N | --all]

FILE's header says DUMP_DH_COMPRESSED_INCOMPLETE; its page descriptors (a
split part's: of its own pfns)
are either zero or point at data within the file; at least N of them
(default 1) are not zero, or, with --all, none is.  python3-libkdumpfile
opens it and reads a sample of the pages with descriptors (the first and
last 200, and every 50th) with SOURCE's bytes (the ELF dump it was made
from), and our reader (DUMPREAD pages) reads the same, and the pfns of
zero descriptors in the sample as excluded.
"""
import argparse
import struct
import subprocess
import sys

import kdumpfile

PAGE = 4096
INCOMPLETE = 0x8


def layout(path):
    """The header's status, the 2nd bitmap's pfns and their descriptors."""
    with open(path, 'rb') as f:
        data = f.read()
    status, block, sub_hdr, blocks = struct.unpack_from('<IiiI', data, 424)
    max_mapnr, = struct.unpack_from('<Q', data, block + 96)
    split, = struct.unpack_from('<i', data, block + 12)
    first, end = struct.unpack_from('<QQ', data, block + 80) if split else (0, max_mapnr)
    start = (1 + sub_hdr) * block + blocks // 2 * block
    bitmap = data[start:start + (max_mapnr + 7) // 8]
    # A split part holds the descriptors of its own pfns only.
    pfns = [pfn for pfn in range(first, end) if bitmap[pfn // 8] >> (pfn % 8) & 1]
    desc = (1 + sub_hdr + blocks) * block
    descs = [struct.unpack_from('<qII', data.ljust(desc + 24 * len(pfns), b'\0'), desc + 24 * i)
             for i in range(len(pfns))]
    return status, pfns, descs, len(data)


def our_reads(dumpread, path, pfns):
    out = subprocess.run([dumpread, path, 'pages'], input='\n'.join(map(str, pfns)),
                         capture_output=True, text=True).stdout.split('\n')
    return [line.split() for line in out if line]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dumpread')
    ap.add_argument('file')
    ap.add_argument('source')
    ap.add_argument('--pages', type=int, default=1)
    ap.add_argument('--all', action='store_true')
    args = ap.parse_args()

    status, pfns, descs, size = layout(args.file)
    if not status & INCOMPLETE:
        print('FAIL: status 0x%x lacks DUMP_DH_COMPRESSED_INCOMPLETE' % status)
        return 1
    held = [i for i, d in enumerate(descs) if d != (0, 0, 0)]
    bad = [i for i in held if descs[i][0] <= 0 or descs[i][0] + descs[i][1] > size]
    want = len(pfns) if args.all else args.pages
    problems = []
    if bad:
        problems.append('%d descriptors point past the end of the file' % len(bad))
    if len(held) < want:
        problems.append('%d pages held, fewer than %d' % (len(held), want))
    sample = sorted(set(held[:200] + held[-200:] + held[::50] + list(range(0, len(pfns), 97))))
    ours, src = kdumpfile.kdumpfile(args.file), kdumpfile.kdumpfile(args.source)
    mine = our_reads(args.dumpread, args.file, [pfns[i] for i in sample])
    theirs = our_reads(args.dumpread, args.source, [pfns[i] for i in sample])
    for n, i in enumerate(sample):
        pfn = pfns[i]
        if descs[i] == (0, 0, 0):
            if mine[n][1] != 'excluded':
                problems.append('pfn 0x%x: no data, yet our reader says %s' % (pfn, mine[n][1]))
            continue
        data = ours.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
        if data != src.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE):
            problems.append('pfn 0x%x: other bytes than the source\'s (libkdumpfile)' % pfn)
        if mine[n] != theirs[n]:
            problems.append('pfn 0x%x: our reader says %s, the source %s' % (pfn, mine[n], theirs[n]))
    for p in problems[:10]:
        print('FAIL', p)
    print('%d of %d pages held, %d of them read' % (len(held), len(pfns),
                                                     sum(descs[i] != (0, 0, 0) for i in sample)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare pages read by our dumpread tool with python3-libkdumpfile.

pagecheck.py DUMPREAD VMCORE [--markers MARKER_PFNS] [--random N] [--seed S]
             [--outside N]

Reads the marker pfns (checking each page starts with its marker), N random
pfns inside the dump's physical ranges and N pfns outside them; every page
must have the same status and bytes (CRC-32) in both readers.
"""
import argparse
import random
import subprocess
import sys

import kdumpfile

from testlib import MARKERS, PAGE, digest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dumpread')
    ap.add_argument('vmcore')
    ap.add_argument('--markers')
    ap.add_argument('--random', type=int, default=0)
    ap.add_argument('--outside', type=int, default=0)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()

    out = subprocess.run([args.dumpread, args.vmcore, 'ranges'], check=True,
                         capture_output=True, text=True).stdout
    ranges = [tuple(int(x, 16) for x in line.split()) for line in out.splitlines()]
    rng = random.Random(args.seed)
    pfns = {}
    if args.markers:
        for line in open(args.markers):
            if line.startswith('#') or not line.strip():
                continue
            kind, pfn = line.split()
            pfns[int(pfn, 16)] = kind
    for _ in range(args.random):
        start, end = rng.choice(ranges)
        pfns.setdefault(rng.randrange(start // PAGE, (end - 1) // PAGE + 1), None)
    top = ranges[-1][1] // PAGE
    tried = 0
    while args.outside and tried < args.outside * 50:
        tried += 1
        pfn = rng.randrange(0, top + 4096)
        if not any(s // PAGE <= pfn <= (e - 1) // PAGE for s, e in ranges):
            pfns.setdefault(pfn, 'outside')
            if sum(1 for v in pfns.values() if v == 'outside') >= args.outside:
                break

    order = sorted(pfns)
    res = subprocess.run([args.dumpread, args.vmcore, 'pages'], check=True, capture_output=True,
                         text=True, input=''.join('%#x\n' % p for p in order)).stdout.split('\n')
    kd = kdumpfile.kdumpfile(args.vmcore)
    bad = 0
    for pfn, line in zip(order, res):
        words = line.split()
        status, ours = words[1], words[2] if len(words) > 2 else None
        try:
            data = bytes(kd.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE))
            want = ('ok', digest(data))
        except Exception:
            data = None
            want = None
        kind = pfns[pfn]
        if kind == 'outside':
            if status != 'notdumped':
                print('pfn %#x outside every range: we say %s' % (pfn, status))
                bad += 1
            continue
        if want is None or (status, ours) != want:
            print('pfn %#x: we say %s %s, libkdumpfile %s' % (pfn, status, ours, want))
            bad += 1
        elif kind in MARKERS and not data.startswith(MARKERS[kind]):
            print('pfn %#x: does not start with the %s marker' % (pfn, kind))
            bad += 1
    print('%d pages compared, %d mismatches' % (len(order), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

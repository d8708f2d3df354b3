#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check an erased dump against the same dump written without erasure.

erasecheck.py DUMPREAD BASE ERASED PLAN

BASE and ERASED are kdump-compressed files of one vmcore at one dump level,
ERASED with erasure; PLAN is `erasetool VMCORE plan` for the same erasure
("piece PADDR LEN FILL" lines).  Checks:
  - both hold the same pfns (python3-libkdumpfile's pagemap);
  - each page no piece touches reads the same in both (through our reader,
    dumpread);
  - in each page a piece touches (read with python3-libkdumpfile), every
    byte of a piece is its fill byte and every other byte is BASE's.
"""
import sys

import kdumpfile

from testlib import PAGE, dumpread_digests, pfn_set


def main():
    dumpread, base_path, erased_path, plan = sys.argv[1:5]
    pieces = {}
    for line in open(plan):
        words = line.split()
        if words and words[0] == 'piece':
            paddr, length, fill = int(words[1], 16), int(words[2]), int(words[3], 16)
            pieces.setdefault(paddr // PAGE, []).append((paddr % PAGE, length, fill))
    base, erased = pfn_set(base_path), pfn_set(erased_path)
    problems = []
    if base != erased:
        problems.append('pfn sets differ: %d only in the base dump, %d only in the erased one' %
                        (len(base - erased), len(erased - base)))
    plain = sorted((base & erased) - set(pieces))
    mine = dumpread_digests(dumpread, erased_path, plain)
    theirs = dumpread_digests(dumpread, base_path, plain)
    differ = [p for p in plain if mine.get(p) != theirs.get(p)]
    if differ:
        problems.append('%d pages without erasure differ, e.g. %#x' % (len(differ), differ[0]))
    kb, ke = kdumpfile.kdumpfile(base_path), kdumpfile.kdumpfile(erased_path)
    written = erased_bytes = 0
    for pfn in sorted(set(pieces) & erased):
        want = bytearray(kb.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE))
        for offset, length, fill in pieces[pfn]:
            want[offset:offset + length] = bytes([fill]) * length
            erased_bytes += length
        got = ke.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)
        if got != want:
            first = next(i for i in range(PAGE) if got[i] != want[i])
            problems.append('pfn %#x: byte %#x is %#04x, want %#04x' % (pfn, first, got[first], want[first]))
        written += 1
    for p in problems[:10]:
        print('FAIL', p)
    print('%d pages compared unchanged; %d pages erased (%d bytes), %d of the erased pages not in '
          'the dump; %d problems' % (len(plain), written, erased_bytes, len(set(pieces) - erased),
                                    len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

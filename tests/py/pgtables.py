#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Pages of an x86_64 kernel's page tables, found without makedumpfile.

pgtables.py DUMP VMCOREINFO

Reads DUMP's physical memory with python3-libkdumpfile, finds
init_top_pgt from VMCOREINFO (SYMBOL(init_top_pgt) and NUMBER(phys_base)
of the guest's own file) and walks the kernel half of the 4-level tables.
Prints "LEVEL PFN" for the first table found at each level below the top
(3: PUD, 2: PMD, 1: PTE), as tests need one of each.
"""
import struct
import sys

import kdumpfile

START_KERNEL_MAP = 0xffffffff80000000
PRESENT, LARGE = 0x1, 0x80
ADDR = 0x000ffffffffff000


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    facts = dict(line.strip().split('=', 1) for line in open(sys.argv[2]) if '=' in line)
    top = int(facts['SYMBOL(init_top_pgt)'], 16) - START_KERNEL_MAP + int(facts['NUMBER(phys_base)'], 0)
    dump = kdumpfile.kdumpfile(sys.argv[1])
    first = {}

    def walk(table, level):
        entries = struct.unpack('<512Q', dump.read(kdumpfile.KDUMP_MACHPHYSADDR, table, 4096))
        for entry in entries[256 if level == 4 else 0:]:
            if not entry & PRESENT or (level in (2, 3) and entry & LARGE):
                continue
            below = entry & ADDR
            first.setdefault(level - 1, below >> 12)
            if level - 1 > 1 and len(first) < 3:
                walk(below, level - 1)
            if len(first) == 3:
                return
    walk(top, 4)
    for level in sorted(first, reverse=True):
        print(level, hex(first[level]))


if __name__ == '__main__':
    main()

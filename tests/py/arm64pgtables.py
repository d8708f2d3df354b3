#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Pages of an arm64 kernel's page tables (4K pages, 4 levels), found
without makedumpfile.

arm64pgtables.py DUMP VMCOREINFO

Reads DUMP's physical memory with python3-libkdumpfile, finds
swapper_pg_dir at SYMBOL(swapper_pg_dir) - NUMBER(kimage_voffset) (the
guest's own VMCOREINFO file) and walks its table descriptors (bits 1:0
0b11 above the last level; output address bits 47:12).  Prints "LEVEL PFN"
for the first table found at each level below the top (3, 2, 1: the
last), as tests need one of each.
"""
import struct
import sys

import kdumpfile

ADDR = 0x0000fffffffff000


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    facts = dict(line.strip().split('=', 1) for line in open(sys.argv[2]) if '=' in line)
    if facts['PAGESIZE'] != '4096' or int(facts['NUMBER(TCR_EL1_T1SZ)'], 0) != 16:
        raise SystemExit('arm64pgtables.py: 4K pages and 48-bit addresses only')
    top = int(facts['SYMBOL(swapper_pg_dir)'], 16) - int(facts['NUMBER(kimage_voffset)'], 0)
    dump = kdumpfile.kdumpfile(sys.argv[1])
    first = {}

    def walk(table, level):
        for entry in struct.unpack('<512Q', dump.read(kdumpfile.KDUMP_MACHPHYSADDR, table, 4096)):
            if entry & 3 != 3:
                continue
            below = entry & ADDR
            first.setdefault(level - 1, below >> 12)
            if level - 1 > 1 and len(first) < 3:
                walk(below, level - 1)
            if len(first) == 3:
                return
    walk(top & ((1 << 64) - 1), 4)
    for level in sorted(first, reverse=True):
        print(level, hex(first[level]))


if __name__ == '__main__':
    main()

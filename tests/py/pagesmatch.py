#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every page a kdump-compressed file holds has its source's bytes.

pagesmatch.py DUMP SOURCE

Reads, through python3-libkdumpfile, each pfn of DUMP's 2nd bitmap from
DUMP and from SOURCE (the ELF dump it was made from) and compares them.
Prints the number of pages compared and one FAIL line per page that
differs or cannot be read; exits 1 on any.
"""
import sys

import kdumpfile

from testlib import PAGE, pagemap_runs


def read(k, pfn):
    try:
        return bytes(k.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE))
    except Exception as e:  # libkdumpfile raises one class per cause
        return 'unreadable (%s)' % e


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    dump, source = kdumpfile.kdumpfile(sys.argv[1]), kdumpfile.kdumpfile(sys.argv[2])
    compared = bad = 0
    for start, end in pagemap_runs(sys.argv[1]):
        for pfn in range(start, end):
            mine, theirs = read(dump, pfn), read(source, pfn)
            compared += 1
            if mine != theirs:
                bad += 1
                if bad <= 10:
                    why = mine if isinstance(mine, str) else 'differs from the source'
                    print('FAIL pfn 0x%x: %s' % (pfn, why))
    print('%d pages compared, %d differ' % (compared, bad))
    return 1 if bad or not compared else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""libkdumpfile's translation of a generated dump's addresses agrees with
the facts our own translation is checked against (gencheck.py vtop).

kvcheck.py VMCORE FACTS PAGE_SIZE MIN

For each `vtop VADDR PADDR` whose page the dump holds, libkdumpfile reads
the first 8 bytes of VADDR's page by virtual address (its own page-table
walk) and of PADDR's page by physical address: they must be the same
(the generator starts each page but its page tables with an address).
Facts libkdumpfile cannot read by virtual address (a PAC-signed pointer, which
it does not strip; with LPA2, 0.5.1 does not decode output addresses
above 2^48) are counted apart; at least MIN must agree.
"""
import sys

import kdumpfile


def main():
    vmcore, facts, page, minimum = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    kd = kdumpfile.kdumpfile(vmcore)
    kd.attr['addrxlat.ostype'] = 'linux'
    agree = bad = unread = 0
    for line in open(facts):
        words = line.split()
        if not words or words[0] != 'vtop':
            continue
        v, p = int(words[1], 16) & ~(page - 1), int(words[2], 16) & ~(page - 1)
        try:
            phys = bytes(kd.read(kdumpfile.KDUMP_KPHYSADDR, p, 8))
        except Exception:   # noqa: BLE001 -- a block's memory beyond the dump
            continue
        try:
            virt = bytes(kd.read(kdumpfile.KDUMP_KVADDR, v, 8))
        except Exception as e:   # noqa: BLE001
            print('libkdumpfile cannot read %#x (%s)' % (v, e))
            unread += 1
            continue
        if virt == phys == bytes(8):
            continue    # a page-table page: nothing to tell pages apart by
        if virt != phys:
            print('%#x: libkdumpfile reads %s there, %s at physical %#x' % (v, virt.hex(), phys.hex(), p))
            bad += 1
        else:
            agree += 1
    print('%d agree with libkdumpfile, %d differ, %d unread' % (agree, bad, unread))
    return 1 if bad or agree < minimum else 0


if __name__ == '__main__':
    sys.exit(main())

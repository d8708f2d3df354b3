#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of an ELF dump file our writer made (makedumpfile -E).

elfcheck.py pages ELF KDUMP SOURCE LEVEL
    read through python3-libkdumpfile, ELF holds the pages of KDUMP (the
    kdump-compressed file of the same level) with the same bytes, but for
    zero pages at a level with bit 1, which it may leave out; the pages it
    holds that KDUMP lacks lie in runs of fewer than 256 and have SOURCE's
    bytes, as upstream keeps short runs of excluded pages.
elfcheck.py readby ELF KDUMP
    KDUMP, upstream's kdump-compressed file made from ELF at level 0, holds
    the pages libkdumpfile finds in ELF, but those a PT_LOAD leaves out of
    the file (p_memsz past p_filesz) though another holds them: upstream
    excludes a page that any segment lacks.
elfcheck.py hole ELF
    prints "FIRST COUNT" for the first run of 256 or more pages that a
    PT_LOAD leaves out of the file (p_memsz past p_filesz).
elfcheck.py kept ELF FIRST COUNT
    every pfn of [FIRST, FIRST + COUNT) is in ELF and reads as zeros.
elfcheck.py incomplete ELF
    e_flags has DUMP_ELF_INCOMPLETE (1); every PT_LOAD's data is in the
    file, and libkdumpfile opens it.
"""
import sys

import kdumpfile

import elfread

PAGE = 4096
ZERO = bytes(PAGE)
HOLE_PAGES = 256


def loads(path):
    return elfread.loads(elfread.read_headers(path)[1])


def present(k, max_pfn):
    bits = k.attr['file.pagemap'].get_bits(0, max_pfn - 1)
    return [pfn for pfn in range(max_pfn) if bits[pfn // 8] >> (pfn % 8) & 1]


def read(k, pfn):
    return k.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)


def fail(message):
    print('FAIL', message)
    return 1


def cmd_pages(args):
    elf, kd, src = (kdumpfile.kdumpfile(p) for p in args[:3])
    level = int(args[3])
    max_pfn = max(p.paddr + p.memsz for p in loads(args[0])) // PAGE + 1
    in_elf = set(present(elf, max_pfn))
    in_kdump = present(kd, min(max_pfn, kd.attr['max_pfn']))
    bad = dropped_zero = 0
    for pfn in in_kdump:
        data = read(kd, pfn)
        if pfn not in in_elf:
            if level & 1 and data == ZERO:
                dropped_zero += 1
                continue
            bad += 1
            if bad < 5:
                print('FAIL pfn 0x%x: in the kdump file, not in the ELF file' % pfn)
        elif read(elf, pfn) != data:
            bad += 1
            if bad < 5:
                print('FAIL pfn 0x%x: the ELF file has other bytes' % pfn)
    extra = sorted(in_elf - set(in_kdump))
    run = longest = 0
    for i, pfn in enumerate(extra):
        run = run + 1 if i and extra[i - 1] == pfn - 1 else 1
        longest = max(longest, run)
        if read(elf, pfn) != read(src, pfn):
            bad += 1
            if bad < 5:
                print('FAIL pfn 0x%x: kept in a short run, but not with the input\'s bytes' % pfn)
    if longest >= HOLE_PAGES:
        bad += 1
        print('FAIL a run of %d pages not in the kdump file stays in the ELF file' % longest)
    print('%d pages of the kdump file, %d in the ELF file (%d zero pages left out, %d '
          'more in short runs, the longest %d)' % (len(in_kdump), len(in_elf), dropped_zero,
                                                   len(extra), longest))
    return 1 if bad else 0


def cmd_readby(args):
    elf, kd = kdumpfile.kdumpfile(args[0]), kdumpfile.kdumpfile(args[1])
    max_pfn = kd.attr['max_pfn']
    nodata = set()
    for p in loads(args[0]):
        first = (p.paddr + p.filesz + PAGE - 1) // PAGE
        nodata.update(range(first, (p.paddr + p.memsz) // PAGE))
    want = set(present(elf, max_pfn)) - nodata
    got = set(present(kd, max_pfn))
    if want != got:
        return fail('%d pfns only in the ELF file, %d only in upstream\'s reading of it'
                    % (len(want - got), len(got - want)))
    print('%d pfns, as upstream reads them' % len(got))
    return 0


def cmd_hole(args):
    for p in loads(args[0]):
        if p.memsz - p.filesz >= HOLE_PAGES * PAGE and p.filesz % PAGE == 0:
            print('0x%x %d' % ((p.paddr + p.filesz) // PAGE, (p.memsz - p.filesz) // PAGE))
            return 0
    return fail('no PT_LOAD leaves %d pages out' % HOLE_PAGES)


def cmd_kept(args):
    k = kdumpfile.kdumpfile(args[0])
    first, count = int(args[1], 0), int(args[2], 0)
    bad = [pfn for pfn in range(first, first + count) if read(k, pfn) != ZERO]
    return fail('%d pfns not kept as zero pages, 0x%x first' % (len(bad), bad[0])) if bad else 0


def cmd_incomplete(args):
    header, table = elfread.read_headers(args[0])
    size = len(open(args[0], 'rb').read())
    if not header.flags & 1:
        return fail('e_flags 0x%x lacks DUMP_ELF_INCOMPLETE' % header.flags)
    for p in elfread.loads(table):
        if p.offset + p.filesz > size:
            return fail('a PT_LOAD at paddr 0x%x has data past the end of the file' % p.paddr)
    kdumpfile.kdumpfile(args[0])
    print('%d PT_LOADs, all in the file' % len(elfread.loads(table)))
    return 0


def main():
    commands = {'pages': cmd_pages, 'readby': cmd_readby, 'hole': cmd_hole,
                'kept': cmd_kept,
                'incomplete': cmd_incomplete}
    if len(sys.argv) < 3 or sys.argv[1] not in commands:
        raise SystemExit(__doc__)
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())

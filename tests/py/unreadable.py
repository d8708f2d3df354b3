#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Pages a dump holds but cannot give, for t-robustness.sh.

unreadable.py damage KDUMP N data|desc
    damages the Nth page of KDUMP stored compressed: its data (bytes
    flipped, so that it no longer decompresses) or its descriptor (a size
    larger than a page); prints the pfn.
unreadable.py offset ELF PFN
    prints the file offset of PFN's page in the largest PT_LOAD holding it.
unreadable.py elfcheck OUT SOURCE PFN
    OUT, an ELF dump written from SOURCE with PFN unreadable: its e_flags
    say DUMP_ELF_INCOMPLETE; python3-libkdumpfile reads PFN from it as
    zeros and the pages either side as SOURCE has them.
"""
import struct
import sys

import kdumpfile

import elfread

PAGE = 4096
DUMP_ELF_INCOMPLETE = 0x1


def damage(path, nth, mode):
    with open(path, 'r+b') as f:
        data = bytearray(f.read())
        _, block, sub_hdr, blocks = struct.unpack_from('<IiiI', data, 424)
        max_mapnr, = struct.unpack_from('<Q', data, block + 96)
        start = (1 + sub_hdr) * block + blocks // 2 * block
        bitmap = data[start:start + (max_mapnr + 7) // 8]
        desc = (1 + sub_hdr + blocks) * block
        index = seen = 0
        for pfn in range(max_mapnr):
            if not bitmap[pfn // 8] >> (pfn % 8) & 1:
                continue
            at = desc + 24 * index
            index += 1
            offset, size, flags = struct.unpack_from('<qII', data, at)
            if not flags or size < 64:
                continue
            if seen < nth:
                seen += 1
                continue
            if mode == 'data':
                f.seek(offset + 8)
                f.write(bytes(b ^ 0x5a for b in data[offset + 8:offset + size - 8]))
            else:
                f.seek(at + 8)
                f.write(struct.pack('<I', PAGE * 16))
            print(hex(pfn))
            return
    raise SystemExit(f'unreadable.py: {path} has fewer than {nth + 1} compressed pages')


def offset(path, pfn):
    best = None
    for p in elfread.loads(elfread.read_headers(path)[1]):
        if p.paddr <= pfn * PAGE < p.paddr + p.filesz and (best is None or p.filesz > best[0]):
            best = (p.filesz, p.offset + pfn * PAGE - p.paddr)
    if best is None:
        raise SystemExit(f'unreadable.py: no PT_LOAD of {path} holds pfn {pfn:#x}')
    print(best[1])


def elfcheck(out, source, pfn):
    e_flags = elfread.read_headers(out)[0].flags
    if not e_flags & DUMP_ELF_INCOMPLETE:
        raise SystemExit(f'{out}: e_flags {e_flags:#x} lack DUMP_ELF_INCOMPLETE')
    ours, src = kdumpfile.kdumpfile(out), kdumpfile.kdumpfile(source)

    def read(dump, n):
        return dump.read(kdumpfile.KDUMP_MACHPHYSADDR, n * PAGE, PAGE)
    if read(ours, pfn) != bytes(PAGE):
        raise SystemExit(f'{out}: pfn {pfn:#x} does not read as zeros')
    if read(src, pfn) == bytes(PAGE):
        raise SystemExit(f'{source}: pfn {pfn:#x} is zeros there too: a test that cannot fail')
    for n in (pfn - 1, pfn + 1):
        if read(ours, n) != read(src, n):
            raise SystemExit(f'{out}: pfn {n:#x} differs from {source}')
    print(f'{out}: incomplete, pfn {pfn:#x} zeros, its neighbours as in the source')


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'damage' and len(args) == 3:
        damage(args[0], int(args[1]), args[2])
    elif cmd == 'offset' and len(args) == 2:
        offset(args[0], int(args[1], 0))
    elif cmd == 'elfcheck' and len(args) == 3:
        elfcheck(args[0], args[1], int(args[2], 0))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()

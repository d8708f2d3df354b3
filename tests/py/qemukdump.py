#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write an ELF dump's memory as QEMU's dump-guest-memory writes a
kdump-zlib file of an arm64 guest: blocks of 64 KiB whatever the guest's
page size, an utsname empty but for machine "Unknown", phys_base the
lowest RAM address, dump level 1, the VMCOREINFO and the ELF notes in the
sub-header's blocks, every block of RAM in both bitmaps, the blocks of
zeros sharing one stored zero block (QEMU's layout, from its dump.c's
output as described in shared/vmcores/6.1-arm64-qemu/NOTES.md).

qemukdump.py ELF OUT [BLOCK_SIZE]

Written as a plain (not flattened) file, as `makedumpfile -R` would turn
QEMU's flattened stream into.
"""
import struct
import sys
import zlib

import elfread

HEADER = struct.Struct('<8si' + '65s' * 6 + '6xqqIiiIIIIIIi')
SUB = struct.Struct('<QiiQQQQQQQQQQQ')
DESC = struct.Struct('<qIIQ')
ZLIB = 0x1


def elf_parts(path):
    """The PT_LOADs as (paddr, offset, filesz), the PT_NOTEs' bytes one
    after the other, and the file's byte order."""
    with open(path, 'rb') as f:
        header = elfread.read_header(f)
        loads, notes = [], b''
        for p in elfread.read_program_headers(f, header):
            if p.type == elfread.PT_LOAD:
                loads.append((p.paddr, p.offset, p.filesz))
            elif p.type == elfread.PT_NOTE:
                f.seek(p.offset)
                notes += f.read(p.filesz)
    return loads, notes, header.order


def vmcoreinfo_of(notes, order):
    for note in elfread.notes(notes, order):
        if note.name == b'VMCOREINFO':
            return note.desc
    raise SystemExit('qemukdump.py: no VMCOREINFO note')


def main():
    src, out = sys.argv[1], sys.argv[2]
    block = int(sys.argv[3]) if len(sys.argv) > 3 else 65536
    loads, notes, order = elf_parts(src)
    vmcoreinfo = vmcoreinfo_of(notes, order)
    # Physical memory by block: what each PT_LOAD (first one wins) holds.
    first = min(p for p, _, _ in loads) // block
    end = max(p + s for p, _, s in loads)
    max_mapnr = (end + block - 1) // block
    blocks = sorted({b for p, _, s in loads for b in range(p // block, (p + s + block - 1) // block)})

    sub_len = SUB.size + len(vmcoreinfo) + len(notes)
    sub_blocks = (sub_len + block - 1) // block
    bitmap_len = ((max_mapnr + 8 * block - 1) // (8 * block)) * block
    offset_vmcoreinfo = block + SUB.size
    offset_note = offset_vmcoreinfo + len(vmcoreinfo)
    bitmap_at = (1 + sub_blocks) * block
    desc_at = bitmap_at + 2 * bitmap_len
    data_at = desc_at + DESC.size * len(blocks)

    bitmap = bytearray(bitmap_len)
    for b in blocks:
        bitmap[b // 8] |= 1 << b % 8
    uts = [b''] * 6
    uts[4] = b'Unknown'
    header = HEADER.pack(b'KDUMP   ', 6, *uts, 0, 0, ZLIB, block, sub_blocks, 2 * bitmap_len // block,
                         min(max_mapnr, 0xffffffff), 0, 0, 0, 0, 1)
    sub = SUB.pack(first * block, 1, 0, 0, 0, offset_vmcoreinfo, len(vmcoreinfo), offset_note, len(notes),
                   0, 0, 0, 0, max_mapnr)
    with open(src, 'rb') as f, open(out, 'wb') as o:
        o.write(header)
        o.seek(block)
        o.write(sub + vmcoreinfo + notes)
        o.seek(bitmap_at)
        o.write(bitmap)
        o.write(bitmap)
        data, descs, zero_desc = data_at, [], None
        o.seek(data_at)
        for b in blocks:
            buf = bytearray(block)
            for paddr, offset, size in reversed(loads):
                lo, hi = max(paddr, b * block), min(paddr + size, (b + 1) * block)
                if lo < hi:
                    f.seek(offset + lo - paddr)
                    buf[lo - b * block:hi - b * block] = f.read(hi - lo)
            if not any(buf) and zero_desc:
                descs.append(zero_desc)
                continue
            packed = zlib.compress(bytes(buf))
            stored, flags = (packed, ZLIB) if len(packed) < block else (bytes(buf), 0)
            desc = DESC.pack(data, len(stored), flags, 0)
            if not any(buf):
                zero_desc = desc
            descs.append(desc)
            o.write(stored)
            data += len(stored)
        o.seek(desc_at)
        o.write(b''.join(descs))


if __name__ == '__main__':
    main()

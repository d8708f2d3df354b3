#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make a damaged copy of a dump, one field at a time.

corrupt.py IN OUT [--sparse-after N] [--truncate N] [--set OFFSET:HEX]...
           [--fill OFFSET:LENGTH:BYTE]... [--phdr INDEX:FIELD:VALUE]...
           [--note-name OLD:NEW] [--phys PADDR:HEX]...

--sparse-after N   copy only the first N bytes; the rest of the file is a
                   hole of the original size (cheap copies of large dumps
                   whose header is what the test damages)
--truncate N       cut the copy to N bytes
--set OFF:HEX      overwrite bytes at OFF with the hex string
--fill OFF:LEN:B   overwrite LEN bytes at OFF with the byte B (hex), so that a
                   damaged page fits on a command line
--phdr I:F:V       set ELF64 program header I's field F (type, offset,
                   vaddr, paddr, filesz, memsz) to V
--note-name A:B    rename ELF notes called A to B (same length)
--phys PADDR:HEX   overwrite physical memory at PADDR, in every PT_LOAD that
                   holds it (kexec dumps hold the kernel image twice)
"""
import argparse
import shutil
import struct

PHDR_FIELDS = {'type': (0, '<I'), 'offset': (8, '<Q'), 'vaddr': (16, '<Q'),
               'paddr': (24, '<Q'), 'filesz': (32, '<Q'), 'memsz': (40, '<Q')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('src')
    ap.add_argument('dst')
    ap.add_argument('--sparse-after', type=lambda s: int(s, 0))
    ap.add_argument('--truncate', type=lambda s: int(s, 0))
    ap.add_argument('--set', action='append', default=[])
    ap.add_argument('--fill', action='append', default=[])
    ap.add_argument('--phdr', action='append', default=[])
    ap.add_argument('--note-name')
    ap.add_argument('--phys', action='append', default=[])
    a = ap.parse_args()

    with open(a.src, 'rb') as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(0)
        if a.sparse_after is not None:
            with open(a.dst, 'wb') as o:
                o.write(f.read(a.sparse_after))
                o.truncate(size)
        else:
            with open(a.dst, 'wb') as o:
                shutil.copyfileobj(f, o, 1 << 22)
    with open(a.dst, 'r+b') as o:
        for item in a.set:
            off, data = item.split(':')
            o.seek(int(off, 0))
            o.write(bytes.fromhex(data))
        for item in a.fill:
            off, length, byte = item.split(':')
            o.seek(int(off, 0))
            o.write(bytes.fromhex(byte) * int(length, 0))
        if a.phdr or a.note_name or a.phys:
            eh = o.read(64) if o.seek(0) == 0 else None
            phoff, = struct.unpack_from('<Q', eh, 32)
            phnum, = struct.unpack_from('<H', eh, 56)
        for item in a.phdr:
            idx, field, value = item.split(':')
            off, fmt = PHDR_FIELDS[field]
            o.seek(phoff + 56 * int(idx) + off)
            o.write(struct.pack(fmt, int(value, 0)))
        if a.note_name:
            old, new = (s.encode() for s in a.note_name.split(':'))
            assert len(old) == len(new)
            for i in range(phnum):
                o.seek(phoff + 56 * i)
                p_type, _, p_offset, _, _, p_filesz = struct.unpack('<IIQQQQ', o.read(40))
                if p_type != 4:
                    continue
                o.seek(p_offset)
                notes = bytearray(o.read(p_filesz))
                notes = notes.replace(old + b'\0', new + b'\0')
                o.seek(p_offset)
                o.write(notes)
        loads = []
        for i in range(phnum if a.phys else 0):
            o.seek(phoff + 56 * i)
            p_type, _, p_offset, _, p_paddr, p_filesz = struct.unpack('<IIQQQQ', o.read(40))
            if p_type == 1:
                loads.append((p_paddr, p_filesz, p_offset))
        for item in a.phys:
            paddr, data = item.split(':')
            paddr, data = int(paddr, 0), bytes.fromhex(data)
            hits = [off + paddr - start for start, size, off in loads
                    if start <= paddr and paddr + len(data) <= start + size]
            if not hits:
                raise SystemExit('corrupt.py: physical address %#x is in no PT_LOAD' % paddr)
            for off in hits:
                o.seek(off)
                o.write(data)
        if a.truncate is not None:
            o.truncate(a.truncate)


if __name__ == '__main__':
    main()

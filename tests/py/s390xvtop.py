#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check our s390x kernel virtual-to-physical translation on a real dump
against facts that do not come from our code.  libkdumpfile 0.5.1 cannot
open QEMU's s390x ELF (its section header string table) nor translate the
6.10 layout, so the oracles are the guest's own facts and a walk written
here from the Principles of Operation, starting where the CPU's control
register 1 (the ELF's NT_S390_CTRS note) says the kernel's tables are and
of the type it says, reading physical memory from the PT_LOADs itself.

s390xvtop.py DUMPREAD VMCORE VMCOREINFO_TXT GUEST_DIR
    - the guest's /proc/iomem: _text is at "Kernel code", __bss_start at
      "Kernel bss";
    - the guest's kallsyms (kernel text, data, bss; module text and data),
      SYMBOL(mem_section), vmemmap's struct pages and the identity map
      every 16 MiB translate as the walk here translates them;
    - init_uts_ns.name.release, read at our translation, is `uname -r`.
s390xvtop.py tables VMCORE VMCOREINFO_TXT
    "TABLE PFN" for the page of each table below the top one that the walk
    uses on its way to _stext (the tests discard each), TABLE its type
    (region-second to segment, or page).
"""
import struct
import sys

import elfread
from vtoplib import ElfMemory, check_against_guest, vmcoreinfo

NT_S390_CTRS = 0x304


class Walk(ElfMemory):
    """DAT: an ASCE's designation type (bits 2-3) names the top table; a
    region or segment table has 2048 entries, indexed by 11 bits of the
    address each from bit 53 down to bit 20, a page table 256 by bits
    12-19.  An entry: invalid bit 0x20; in a region entry the next table's
    origin (bits 12-63) and the range of its 4 KiB pages present (TF
    bits 6-7 to TL bits 0-1); in a segment entry the page table's origin
    (bits 11-63); FC (0x400) a 2 GiB (region-third) or 1 MiB (segment)
    frame.  A page entry's frame is bits 12-63; Linux keeps a page it
    aged present (bit 0) though invalid (0x400) for the hardware."""

    def __init__(self, vmcore):
        super().__init__(vmcore, '>')
        cr1 = None
        for offset, filesz in self.notes:
            if cr1 is None:
                cr1 = self.control_register_1(offset, filesz)
        if cr1 is None:
            raise SystemExit('no NT_S390_CTRS note: the kernel ASCE is unknown')
        self.root, self.top = cr1 & ~0xfff, (cr1 >> 2) & 3

    def control_register_1(self, offset, size):
        for note in elfread.notes(self.mem[offset:offset + size], '>'):
            if note.type == NT_S390_CTRS:
                return struct.unpack_from('>Q', note.desc, 8)[0]
        return None

    def vtop(self, va, tables=None):
        if self.top < 3 and va >> (31 + 11 * self.top):
            return None
        table, first, last = self.root, 0, 3
        for level in range(self.top, -1, -1):
            index = (va >> (20 + 11 * level)) & 2047
            if not first <= index // 512 <= last:
                return None
            if tables is not None and level < self.top:
                tables.append((level, (table + 8 * index) >> 12))
            e = self.entry(table, index)
            if e & 0x20:
                return None
            if level <= 1 and e & 0x400:
                size = 1 << (20 + 11 * level)
                return (e & ~(size - 1)) | (va & (size - 1))
            table = e & (~0x7ff if level == 0 else ~0xfff)
            first, last = (e >> 6) & 3, e & 3
        if tables is not None:
            tables.append((-1, (table + 8 * ((va >> 12) & 255)) >> 12))
        e = self.entry(table, (va >> 12) & 255)
        if e & 0x800 or (e & 0x400 and not e & 1):
            return None
        return (e & ~0xfff) | (va & 0xfff)


def main():
    if sys.argv[1] == 'tables':
        walk, tables = Walk(sys.argv[2]), []
        text = int(vmcoreinfo(sys.argv[3])['SYMBOL(_stext)'], 16)
        walk.vtop(text, tables)
        names = {2: 'region-second', 1: 'region-third', 0: 'segment', -1: 'page'}
        for level, pfn in tables:
            print(names[level], hex(pfn))
        return 0
    dumpread, vmcore, vi_path, guest = sys.argv[1:5]
    vi = vmcoreinfo(vi_path)
    walk = Walk(vmcore)
    # vmemmap's struct pages, and the identity map every 16 MiB.
    vmemmap, page_size = int(vi['SYMBOL(vmemmap)'], 16), int(vi['SIZE(page)'])
    more = [vmemmap + pfn * page_size for pfn in range(0, 0x20000, 0x1234)]
    identity = int(vi.get('IDENTITYBASE', '0'), 16)
    more += [identity + off + 0x100 for off in range(0, 512 << 20, 16 << 20)]
    return check_against_guest(dumpread, vmcore, vi, guest, walk.vtop, more)


if __name__ == '__main__':
    sys.exit(main())

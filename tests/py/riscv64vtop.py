#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check our riscv64 kernel virtual-to-physical translation on a real dump
against facts that do not come from our code.  libkdumpfile 0.5.1 (Debian
12) has no riscv64 translation (its addrxlat knows no riscv64 PTE format),
so the oracles are the guest's own facts and a walk written here from the
privileged specification, reading physical memory from the ELF's
PT_LOADs (p_paddr) itself.

riscv64vtop.py DUMPREAD VMCORE VMCOREINFO_TXT GUEST_DIR
    - the guest's /proc/iomem: _text is at "Kernel code", __bss_start at
      "Kernel bss";
    - the guest's kallsyms (kernel text, data, bss; module text and data),
      SYMBOL(mem_section), vmemmap's struct pages and the direct map every
      16 MiB translate as the walk here translates them;
    - init_uts_ns.name.release, read at our translation, is `uname -r`.
riscv64vtop.py tables VMCORE VMCOREINFO_TXT
    "LEVEL PFN" for the first table at each level below the root that the
    walk meets on its way to _stext (the tests discard each).
"""
import sys

from vtoplib import ElfMemory, check_against_guest, vmcoreinfo

MASK64 = (1 << 64) - 1


class Walk(ElfMemory):
    """Sv39/48/57 from swapper_pg_dir: V bit 0, R/W/X bits 1-3 (any set:
    a leaf, at any level), PPN bits 10-53; a last-level leaf with N (bit
    63) and a PPN ending in 0b1000 maps 64 KiB."""

    def __init__(self, vmcore, vi):
        super().__init__(vmcore, '<')
        self.levels = (int(vi['NUMBER(VA_BITS)']) - 12) // 9
        self.root = (int(vi['SYMBOL(swapper_pg_dir)'], 16) - int(vi['NUMBER(va_kernel_pa_offset)'], 16)) & MASK64

    def vtop(self, va, tables=None):
        table = self.root
        for level in range(self.levels - 1, -1, -1):
            shift = 12 + 9 * level
            pte = self.entry(table, (va >> shift) & 511)
            if not pte & 1:
                return None
            addr = ((pte >> 10) & ((1 << 44) - 1)) << 12
            if pte & 0xe:
                size = 1 << shift
                if level == 0 and pte >> 63 and (pte >> 10) & 0xf == 8:
                    size = 1 << 16
                return (addr & ~(size - 1)) | (va & (size - 1))
            if tables is not None:
                tables.setdefault(level - 1, addr >> 12)
            table = addr
        return None


def main():
    if sys.argv[1] == 'tables':
        vi = vmcoreinfo(sys.argv[3])
        walk, tables = Walk(sys.argv[2], vi), {}
        walk.vtop(int(vi['SYMBOL(_stext)'], 16), tables)
        for level in sorted(tables, reverse=True):
            print(level, hex(tables[level]))
        return 0
    dumpread, vmcore, vi_path, guest = sys.argv[1:5]
    vi = vmcoreinfo(vi_path)
    walk = Walk(vmcore, vi)
    # vmemmap's struct pages, and the direct map every 16 MiB.
    vmemmap, page_size = int(vi['SYMBOL(vmemmap)'], 16), int(vi['SIZE(page)'])
    base = int(vi['NUMBER(phys_ram_base)'])
    more = [vmemmap + pfn * page_size for pfn in range(base >> 12, (base >> 12) + 0x20000, 0x1234)]
    page_offset = int(vi['NUMBER(PAGE_OFFSET)'], 16)
    more += [page_offset + off + 0x100 for off in range(2 << 20, 512 << 20, 16 << 20)]
    return check_against_guest(dumpread, vmcore, vi, guest, walk.vtop, more)


if __name__ == '__main__':
    sys.exit(main())

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
import mmap
import struct
import subprocess
import sys

MASK64 = (1 << 64) - 1


def vmcoreinfo(path):
    return dict(line.rstrip('\n').split('=', 1) for line in open(path) if '=' in line)


class Walk:
    """Sv39/48/57 from swapper_pg_dir: V bit 0, R/W/X bits 1-3 (any set:
    a leaf, at any level), PPN bits 10-53; a last-level leaf with N (bit
    63) and a PPN ending in 0b1000 maps 64 KiB."""

    def __init__(self, vmcore, vi):
        with open(vmcore, 'rb') as f:
            self.mem = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        phoff, = struct.unpack_from('<Q', self.mem, 32)
        phnum, = struct.unpack_from('<H', self.mem, 56)
        self.loads = []
        for i in range(phnum):
            p_type, _, offset, _, paddr, filesz, _, _ = struct.unpack_from('<IIQQQQQQ', self.mem, phoff + 56 * i)
            if p_type == 1:
                self.loads.append((paddr, filesz, offset))
        self.levels = (int(vi['NUMBER(VA_BITS)']) - 12) // 9
        self.root = (int(vi['SYMBOL(swapper_pg_dir)'], 16) - int(vi['NUMBER(va_kernel_pa_offset)'], 16)) & MASK64

    def entry(self, table, index):
        pa = table + 8 * index
        for paddr, filesz, offset in self.loads:
            if paddr <= pa < paddr + filesz:
                return struct.unpack_from('<Q', self.mem, offset + pa - paddr)[0]
        raise SystemExit('the table at %#x is not in the dump' % table)

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


def kallsyms(guest):
    syms = {}
    for line in open(guest + '/kallsyms.txt'):
        words = line.split()
        syms.setdefault(words[2], int(words[0], 16))
    return syms


def iomem(guest, name):
    for line in open(guest + '/iomem.txt'):
        span, _, what = line.strip().partition(' : ')
        if what == name:
            return int(span.split('-')[0], 16)
    raise SystemExit('no "%s" in iomem.txt' % name)


def main():
    if sys.argv[1] == 'tables':
        vi = vmcoreinfo(sys.argv[3])
        walk, tables = Walk(sys.argv[2], vi), {}
        walk.vtop(int(vi['SYMBOL(_stext)'], 16), tables)
        for level in sorted(tables, reverse=True):
            print(level, hex(tables[level]))
        return 0
    dumpread, vmcore, vi_path, guest = sys.argv[1:5]
    vi, syms = vmcoreinfo(vi_path), kallsyms(guest)
    walk = Walk(vmcore, vi)
    expect = {syms['_text']: iomem(guest, 'Kernel code'), syms['__bss_start']: iomem(guest, 'Kernel bss')}
    # Kernel and module symbols of each type, the first few of each.
    seen = {}
    for line in open(guest + '/kallsyms.txt'):
        words = line.split()
        kind = (words[1].lower(), len(words) > 3)
        if int(words[0], 16) and seen.get(kind, 0) < 8:
            seen[kind] = seen.get(kind, 0) + 1
            expect.setdefault(int(words[0], 16) + 8, None)
    expect.setdefault(int(vi['SYMBOL(mem_section)'], 16), None)
    vmemmap, page_size = int(vi['SYMBOL(vmemmap)'], 16), int(vi['SIZE(page)'])
    base = int(vi['NUMBER(phys_ram_base)'])
    for pfn in range(base >> 12, (base >> 12) + 0x20000, 0x1234):
        expect.setdefault(vmemmap + pfn * page_size, None)
    page_offset = int(vi['NUMBER(PAGE_OFFSET)'], 16)
    for off in range(2 << 20, 512 << 20, 16 << 20):
        expect.setdefault(page_offset + off + 0x100, None)

    out = subprocess.run([dumpread, vmcore, 'vtop'] + ['%#x' % v for v in expect], check=True,
                         capture_output=True, text=True).stdout
    bad = 0
    for line in out.splitlines():
        v, p = line.split()
        v = int(v, 16)
        want = expect[v] if expect[v] is not None else walk.vtop(v)
        if p != ('%#x' % want if want is not None else 'unmapped'):
            print('vtop %#x: we say %s, expected %s' % (v, p, hex(want) if want is not None else 'unmapped'))
            bad += 1
    uts = int(vi['SYMBOL(init_uts_ns)'], 16) + int(vi.get('OFFSET(uts_namespace.name)', '4')) + 130
    release = subprocess.run([dumpread, vmcore, 'virt', '%#x' % uts, '65'], check=True,
                             capture_output=True).stdout.split(b'\0')[0].decode()
    if release != open(guest + '/uname-r.txt').read().strip():
        print('init_uts_ns release %r, uname -r %r' % (release, open(guest + '/uname-r.txt').read().strip()))
        bad += 1
    print('%d translations and the release checked, %d wrong' % (len(expect), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

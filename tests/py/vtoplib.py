# SPDX-License-Identifier: GPL-2.0-or-later
"""What the translation checks share (vtopcheck.py, layoutcheck.py,
arm64vtop.py, riscv64vtop.py, s390xvtop.py): VMCOREINFO's lines, an ELF
vmcore's PT_LOADs and the physical memory they hold, the guest's own files
(../shared/vmcores/GUEST/guest), and the check of our translation against
them and against a page-table walk written in Python."""
import mmap
import struct
import subprocess

import elfread


def vmcoreinfo(path):
    """{KEY: VALUE} of a vmcoreinfo.txt's KEY=VALUE lines."""
    return dict(line.rstrip('\n').split('=', 1) for line in open(path) if '=' in line)


def pt_loads(path):
    """(p_vaddr, p_paddr, p_filesz) of an ELF's PT_LOADs."""
    for p in elfread.loads(elfread.read_headers(path)[1]):
        yield p.vaddr, p.paddr, p.filesz


class ElfMemory:
    """The physical memory of an ELF vmcore whose page tables are in
    @order ('<' or '>'), read from its PT_LOADs by p_paddr; its PT_NOTE
    segments as (offset, size) in notes."""

    def __init__(self, vmcore, order):
        with open(vmcore, 'rb') as f:
            self.mem = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.order = order
        phdrs = elfread.read_program_headers(self.mem, elfread.read_header(self.mem))
        self.loads = [(p.paddr, p.filesz, p.offset) for p in elfread.loads(phdrs)]
        self.notes = [(p.offset, p.filesz) for p in phdrs if p.type == elfread.PT_NOTE]

    def entry(self, table, index):
        """The 8-byte entry @index of the page table at physical @table."""
        pa = table + 8 * index
        for paddr, filesz, offset in self.loads:
            if paddr <= pa < paddr + filesz:
                return struct.unpack_from(self.order + 'Q', self.mem, offset + pa - paddr)[0]
        raise SystemExit('the table at %#x is not in the dump' % table)


def kallsyms(guest):
    """{name: the first address kallsyms.txt gives it}, modules' too."""
    syms = {}
    for line in open(guest + '/kallsyms.txt'):
        words = line.split()
        syms.setdefault(words[2], int(words[0], 16))
    return syms


def iomem(guest, name):
    """The start of the guest's /proc/iomem range named @name."""
    for line in open(guest + '/iomem.txt'):
        span, _, what = line.strip().partition(' : ')
        if what == name:
            return int(span.split('-')[0], 16)
    raise SystemExit('no "%s" in iomem.txt' % name)


def check_against_guest(dumpread, vmcore, vi, guest, walk_vtop, more):
    """Our translation (dumpread VMCORE vtop) of: _text and __bss_start,
    which must land where the guest's /proc/iomem puts "Kernel code" and
    "Kernel bss"; the first few kernel and module symbols of each type,
    SYMBOL(mem_section) and the addresses @more, which must land where
    @walk_vtop (a walk of the page tables) puts them.  And
    init_uts_ns.name.release, read at our translation, must be the
    guest's `uname -r`.  Prints what is wrong; the exit status."""
    syms = kallsyms(guest)
    expect = {syms['_text']: iomem(guest, 'Kernel code'), syms['__bss_start']: iomem(guest, 'Kernel bss')}
    seen = {}
    for line in open(guest + '/kallsyms.txt'):
        words = line.split()
        kind = (words[1].lower(), len(words) > 3)
        if int(words[0], 16) and seen.get(kind, 0) < 8:
            seen[kind] = seen.get(kind, 0) + 1
            expect.setdefault(int(words[0], 16) + 8, None)
    expect.setdefault(int(vi['SYMBOL(mem_section)'], 16), None)
    for v in more:
        expect.setdefault(v, None)

    out = subprocess.run([dumpread, vmcore, 'vtop'] + ['%#x' % v for v in expect], check=True,
                         capture_output=True, text=True).stdout
    bad = 0
    for line in out.splitlines():
        v, p = line.split()
        v = int(v, 16)
        want = expect[v] if expect[v] is not None else walk_vtop(v)
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

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Struct pages flagged PG_lru, and what the filters made of them: for
tests/sh/t-image-pages.sh.

imagepages.py mark DUMPREAD DUMP PFN[:file=DONOR|:anon=DONOR]...
    sets PG_lru (VMCOREINFO's NUMBER(PG_lru)) in the struct page of each
    PFN of the ELF dump DUMP, in place, and with file= or anon= also its
    mapping, copied from the struct page of the pfn DONOR (a page-cache or
    an anonymous page); the struct page is found through the dump's
    mem_map (vmemmap_start and SIZE(page), translated by DUMPREAD), and
    patched with patchphys.py
imagepages.py symbol KALLSYMS VADDR
    the kernel symbol of a /proc/kallsyms listing nearest at or below
    VADDR (the first global one of that address, else the first), as the
    warning of scan/owned_pages.c names a page
imagepages.py pfn KALLSYMS IOMEM SYMBOL[+PAGES]
    "PFN VADDR": the pfn of the page SYMBOL is in (plus PAGES), and that
    page's virtual address; x86_64: the image's physical start is
    /proc/iomem's "Kernel code", where _text is
imagepages.py absent DUMP PFN...
    DUMP holds none of the pfns
imagepages.py sets DUMP OTHER [PFN,...]
    DUMP holds every page OTHER holds and, besides, exactly the pfns
    listed (none: the same pages); read with python3-libkdumpfile.
    Prints both counts.
imagepages.py extent KALLSYMS PAGE_SIZE
    "N pages in M ranges": the kernel image's pages that no flag may
    drop, by the guest's own /proc/kallsyms listing
"""
import os
import struct
import subprocess
import sys

from testlib import pfn_set


def dumpread(tool, dump, *args):
    return subprocess.run([tool, dump] + list(args), check=True, capture_output=True).stdout


def vmcoreinfo_number(tool, dump, key):
    words = dumpread(tool, dump, 'vmcoreinfo', key).decode().split()
    if len(words) != 2 or words[1] == 'missing':
        raise SystemExit('imagepages.py: %s: no %s' % (dump, key))
    return int(words[1], 0)


def struct_page(tool, dump, vmemmap, size, pfn):
    """The virtual and physical address of pfn's struct page."""
    vaddr = vmemmap + pfn * size
    words = dumpread(tool, dump, 'vtop', '%#x' % vaddr).decode().split()
    if len(words) != 2 or not words[1].startswith('0x'):
        raise SystemExit('imagepages.py: the struct page of pfn %#x (%#x) does not translate' % (pfn, vaddr))
    return vaddr, int(words[1], 16)


def cmd_mark(tool, dump, specs):
    layout = dict(line.split(None, 1) for line in dumpread(tool, dump, 'layout').decode().splitlines())
    vmemmap = int(layout['vmemmap_start'], 16)
    size = vmcoreinfo_number(tool, dump, 'SIZE(page)')
    lru = vmcoreinfo_number(tool, dump, 'NUMBER(PG_lru)')
    flags_off = vmcoreinfo_number(tool, dump, 'OFFSET(page.flags)')
    mapping_off = vmcoreinfo_number(tool, dump, 'OFFSET(page.mapping)')
    patches = []
    for spec in specs:
        pfn, _, mapping = spec.partition(':')
        pfn = int(pfn, 0)
        vaddr, paddr = struct_page(tool, dump, vmemmap, size, pfn)
        flags, = struct.unpack('<Q', dumpread(tool, dump, 'virt', '%#x' % (vaddr + flags_off), '8'))
        patches.append('%#x:%s' % (paddr + flags_off, struct.pack('<Q', flags | 1 << lru).hex()))
        if mapping:
            kind, _, donor = mapping.partition('=')
            if kind not in ('file', 'anon'):
                raise SystemExit('imagepages.py: %s: file=DONOR or anon=DONOR' % spec)
            donor_vaddr = vmemmap + int(donor, 0) * size + mapping_off
            value, = struct.unpack('<Q', dumpread(tool, dump, 'virt', '%#x' % donor_vaddr, '8'))
            if (value & 1) != (kind == 'anon'):
                raise SystemExit('imagepages.py: pfn %s has no %s mapping (%#x)' % (donor, kind, value))
            patches.append('%#x:%s' % (paddr + mapping_off, struct.pack('<Q', value).hex()))
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, 'patchphys.py'), dump] + patches, check=True,
                   stdout=subprocess.DEVNULL)
    return 0


def kernel_symbols(path):
    """(address, type, name) of the kernel's own lines, in listing order."""
    for line in open(path):
        words = line.split()
        if len(words) == 3:
            yield int(words[0], 16), words[1], words[2]


def cmd_symbol(path, vaddr):
    best = None
    for addr, kind, name in kernel_symbols(path):
        if kind in 'Uu' or addr > vaddr:
            continue
        if best is None or addr > best[0] or (addr == best[0] and not best[1].isupper() and kind.isupper()):
            best = (addr, kind, name)
    if best is None:
        return 1
    print(best[2])
    return 0


def cmd_pfn(kallsyms, iomem, where):
    symbol, _, pages = where.partition('+')
    addrs = {}
    for addr, _, name in kernel_symbols(kallsyms):
        addrs.setdefault(name, addr)
    start = next(int(line.split('-')[0], 16) for line in open(iomem) if line.strip().endswith(': Kernel code'))
    vaddr = (addrs[symbol] & ~0xfff) + 4096 * (int(pages, 0) if pages else 0)
    print('%#x %#x' % ((vaddr - addrs['_text'] + start) // 4096, vaddr))
    return 0


def cmd_absent(dump, pfns):
    held = pfn_set(dump) & {int(p, 0) for p in pfns}
    if held:
        print('%s holds %s' % (dump, sorted(hex(p) for p in held)))
        return 1
    return 0


def cmd_sets(dump, other, extra):
    ours, theirs = pfn_set(dump), pfn_set(other)
    want = {int(p, 0) for p in extra.split(',') if p} if extra else set()
    print('%s: %d pages; %s: %d pages' % (dump, len(ours), other, len(theirs)))
    missing, more = sorted(theirs - ours), sorted(ours - theirs)
    if missing or set(more) != want:
        print('only in the second: %s; only in the first: %s (want %s)' % (
            [hex(p) for p in missing[:8]], [hex(p) for p in more[:8]], sorted(hex(p) for p in want)))
        return 1
    return 0


def cmd_extent(kallsyms, page_size):
    """The image's pages no flag may drop, from the guest's own kallsyms: its
    sections, each rounded out to pages, merged, less the pages wholly inside
    the init section; the gap from _edata to __init_begin where init follows
    the data.  Printed as the debug line says it: N pages in M ranges."""
    addrs = {}
    for addr, _, name in kernel_symbols(kallsyms):
        addrs.setdefault(name, addr)
    pairs = [('_text', '_etext'), ('__start_rodata', '__end_rodata'), ('_sdata', '_edata'),
             ('__bss_start', '__bss_stop')]
    if addrs['_edata'] <= addrs['__init_begin']:
        pairs.append(('_edata', '__init_begin'))
    pages = set()
    for start, end in pairs:
        if start in addrs and end in addrs:
            pages.update(range(addrs[start] // page_size, -(-addrs[end] // page_size)))
    pages -= set(range(-(-addrs['__init_begin'] // page_size), addrs['__init_end'] // page_size))
    runs = sum(1 for p in pages if p - 1 not in pages)
    print('%d pages in %d ranges' % (len(pages), runs))
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == 'mark':
        return cmd_mark(argv[2], argv[3], argv[4:])
    if len(argv) == 4 and argv[1] == 'symbol':
        return cmd_symbol(argv[2], int(argv[3], 0))
    if len(argv) == 5 and argv[1] == 'pfn':
        return cmd_pfn(argv[2], argv[3], argv[4])
    if len(argv) >= 4 and argv[1] == 'absent':
        return cmd_absent(argv[2], argv[3:])
    if len(argv) == 4 and argv[1] == 'extent':
        return cmd_extent(argv[2], int(argv[3], 0))
    if len(argv) in (4, 5) and argv[1] == 'sets':
        return cmd_sets(argv[2], argv[3], argv[4] if len(argv) == 5 else '')
    raise SystemExit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))

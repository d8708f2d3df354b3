#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check the kernel's address-space layout our architecture tables find
(dumpread VMCORE layout) against facts that do not come from our code.

layoutcheck.py DUMPREAD VMCORE GUEST

GUEST is the dump's folder (guest/kallsyms.txt, guest/iomem.txt,
vmcoreinfo.txt).

 - x86_64: the image starts at kallsyms' _text, physically where the
   guest's /proc/iomem puts "Kernel code", and ends at _end (in whole
   pages); the direct map, vmalloc and vmemmap start where the kernel's
   variables page_offset_base, vmalloc_base and vmemmap_base say, read
   through libkdumpfile's own translation at kallsyms' addresses; vmalloc
   is 32 TiB with 4-level paging;
 - arm64: vmalloc and vmemmap are VMCOREINFO's NUMBER() ranges; the image
   is unknown (Debian's kallsyms have neither _text nor _end), and says so;
 - both: kexec's PT_LOADs in the direct map (a kexec dump's) sit at the
   direct map's offset from p_paddr; libkdumpfile reads, at the direct map
   address of pages of RAM, the bytes at their physical addresses; 0 is
   no kernel address, RAM's first page in the direct map and the image
   are.
"""
import struct
import subprocess
import sys

import kdumpfile

from vtoplib import pt_loads, vmcoreinfo

PAGE = 4096
MASK64 = (1 << 64) - 1


def kallsyms(path):
    syms = {}
    for line in open(path):
        parts = line.split()
        if len(parts) == 3:
            syms.setdefault(parts[2], int(parts[0], 16))
    return syms


def iomem_kernel_code(path):
    for line in open(path):
        if line.strip().endswith(': Kernel code'):
            return int(line.split('-')[0], 16)
    return None


def system_ram(path):
    """The top-level System RAM ranges [start, end)."""
    ranges = []
    for line in open(path):
        if not line.startswith(' ') and line.rstrip().endswith(': System RAM'):
            span = line.split(':')[0].strip()
            start, end = (int(x, 16) for x in span.split('-'))
            ranges.append((start, end + 1))
    return ranges


def layout(dumpread, vmcore):
    out = subprocess.run([dumpread, vmcore, 'layout'], check=True, capture_output=True, text=True).stdout
    facts, kernel_address = {}, {}
    for line in out.splitlines():
        key, rest = line.split(' ', 1)
        if key == 'kernel_address':
            addr, answer = rest.split()
            kernel_address[int(addr, 16)] = answer == 'yes'
        else:
            facts[key] = rest
    return facts, kernel_address


def main():
    dumpread, vmcore, guest = sys.argv[1:4]
    facts, kernel_address = layout(dumpread, vmcore)
    vi = vmcoreinfo(guest + '/vmcoreinfo.txt')
    syms = kallsyms(guest + '/guest/kallsyms.txt')
    kd = kdumpfile.kdumpfile(vmcore)
    kd.attr['addrxlat.ostype'] = 'linux'
    wrong = []

    def expect(what, got, want):
        if got != want:
            wrong.append('%s: we say %s, expected %s' % (what, got, want))

    def kernel_u64(name):
        return struct.unpack('<Q', bytes(kd.read(kdumpfile.KDUMP_KVADDR, syms[name], 8)))[0]

    for addr, answer in kernel_address.items():
        if addr:
            expect('%#x (the direct map or the image) is a kernel address' % addr, answer, True)
    arch = facts.get('arch')
    expect('byte order', facts.get('byte_order'), 'little')
    expect('pointer size', facts.get('pointer_size'), '8')
    expect('page size', facts.get('page_size'), vi['PAGESIZE'])
    expect('0 is a kernel address', kernel_address.get(0), False)
    if facts.get('direct_map', '').startswith('error'):
        wrong.append('no direct map: ' + facts['direct_map'])
        direct_map = None
    else:
        direct_map = int(facts['direct_map'], 16)
    vmalloc = [int(x, 16) for x in facts.get('vmalloc', '0 0').split()]
    if arch == 'x86_64':
        l5 = vi.get('NUMBER(pgtable_l5_enabled)') == '1'
        text, end = syms['_text'], syms['_end']
        size = (end - text + PAGE - 1) // PAGE * PAGE
        expect('image', facts.get('image'), '%#x %#x %#x' % (text, iomem_kernel_code(guest + '/guest/iomem.txt'),
                                                             size))
        expect('direct map', direct_map, kernel_u64('page_offset_base'))
        expect('vmalloc', vmalloc, [kernel_u64('vmalloc_base'),
                                    kernel_u64('vmalloc_base') + ((12800 if l5 else 32) << 40)])
        expect('vmemmap_start', int(facts.get('vmemmap_start', '0'), 16), kernel_u64('vmemmap_base'))
    elif arch == 'aarch64':
        expect('vmalloc', vmalloc, [int(vi['NUMBER(VMALLOC_START)'], 16), int(vi['NUMBER(VMALLOC_END)'], 16)])
        expect('vmemmap_start', int(facts.get('vmemmap_start', '0'), 16), int(vi['NUMBER(VMEMMAP_START)'], 16))
        if not facts.get('image', '').startswith('error') or '_text and _end' not in facts['image']:
            wrong.append('image: %s, expected an error naming _text and _end' % facts.get('image'))
    else:
        wrong.append('arch %s: not one this check knows' % arch)
    if direct_map is not None:
        # A kexec dump's PT_LOADs, but for the image's own (at the image's offset from p_paddr).
        if arch == 'aarch64':
            image_offset = int(vi['NUMBER(kimage_voffset)'], 16)
        else:
            image_offset = (syms['_text'] - iomem_kernel_code(guest + '/guest/iomem.txt')) & MASK64
        kexec = [(v, p) for v, p, _ in pt_loads(vmcore) if v >> 63 and (v - p) & MASK64 != image_offset]
        for v, p in kexec:
            expect('kexec PT_LOAD %#x -> %#x' % (v, p), (p + direct_map) & MASK64, v)
        checked = 0
        for start, end in system_ram(guest + '/guest/iomem.txt'):
            for paddr in (start + PAGE, (start + end) // 2 & ~(PAGE - 1)):
                if paddr >= end:
                    continue
                try:
                    phys = bytes(kd.read(kdumpfile.KDUMP_MACHPHYSADDR, paddr, 64))
                except Exception:
                    continue
                virt = bytes(kd.read(kdumpfile.KDUMP_KVADDR, (direct_map + paddr) & MASK64, 64))
                expect('libkdumpfile at the direct map of %#x' % paddr, virt, phys)
                checked += 1
        if not checked:
            wrong.append('no page of RAM could be read to check the direct map')
        print('%d kexec PT_LOADs and %d pages of RAM checked against the direct map' % (len(kexec), checked))
    for w in wrong:
        print('FAIL', w)
    print('%s: %d facts wrong' % (arch, len(wrong)))
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())

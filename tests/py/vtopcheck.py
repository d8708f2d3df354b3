#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check our kernel virtual-to-physical translation against facts that do
not come from our code.

vtopcheck.py DUMPREAD VMCORE VMCOREINFO_TXT [--ram-below-1g]

 - kernel text: SYMBOL(_stext) must translate to
   _stext - __START_KERNEL_map + NUMBER(phys_base);
 - kexec ELF dumps: PT_LOAD p_vaddr -> p_paddr, at several offsets into each
   segment (kexec wrote those pairs from the kernel's own view);
 - with --ram-below-1g (guests with less than 1 GiB of RAM), the direct-map
   address SYMBOL(mem_section) translates to itself modulo 1 GiB, since
   KASLR aligns the direct map to 1 GiB;
 - and the bytes read through the virtual address equal libkdumpfile's
   bytes at the expected physical address.
"""
import subprocess
import sys

import kdumpfile

from vtoplib import pt_loads, vmcoreinfo

START_KERNEL_MAP = 0xffffffff80000000


def main():
    dumpread, vmcore, vi_path = sys.argv[1:4]
    vi = vmcoreinfo(vi_path)
    expect = {}
    stext = int(vi['SYMBOL(_stext)'], 16)
    phys_base = int(vi['NUMBER(phys_base)'])
    expect[stext] = (stext - START_KERNEL_MAP + phys_base) & 0xffffffffffffffff
    expect[stext + 0x1234] = expect[stext] + 0x1234
    for vaddr, paddr, filesz in pt_loads(vmcore):
        if vaddr < 0xffff800000000000 or filesz < 0x3000:
            continue
        for off in (0, 0x1000, filesz // 2 & ~0xfff, filesz - 0x1000):
            expect[vaddr + off + 0x18] = paddr + off + 0x18
    if '--ram-below-1g' in sys.argv:
        ms = int(vi['SYMBOL(mem_section)'], 16)
        expect[ms] = ms & ((1 << 30) - 1)

    out = subprocess.run([dumpread, vmcore, 'vtop'] + ['%#x' % v for v in expect], check=True,
                         capture_output=True, text=True).stdout
    kd = kdumpfile.kdumpfile(vmcore)
    bad = 0
    for line in out.splitlines():
        v, p = line.split()
        v = int(v, 16)
        if p != '%#x' % expect[v]:
            print('vtop %#x: we say %s, expected %#x' % (v, p, expect[v]))
            bad += 1
            continue
        ours = subprocess.run([dumpread, vmcore, 'virt', '%#x' % v, '256'], check=True,
                              capture_output=True).stdout
        theirs = bytes(kd.read(kdumpfile.KDUMP_MACHPHYSADDR, expect[v], 256))
        if ours != theirs:
            print('bytes at %#x differ from libkdumpfile at %#x' % (v, expect[v]))
            bad += 1
    print('%d translations checked, %d wrong' % (len(expect), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

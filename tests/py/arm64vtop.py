#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check our arm64 kernel virtual-to-physical translation on a real dump
against facts that do not come from our code.

arm64vtop.py DUMPREAD VMCORE VMCOREINFO_TXT GUEST_DIR

 - kernel image: SYMBOL(_stext) and SYMBOL(swapper_pg_dir) translate to
   themselves minus NUMBER(kimage_voffset);
 - kexec ELF dumps: PT_LOAD p_vaddr -> p_paddr at several offsets into each
   segment (kexec wrote those pairs from the kernel's own view);
 - module text (guest/modules.txt's addresses, mapped page by page outside
   the linear map) and linear-map addresses (SYMBOL(mem_section), and one
   per 16 MiB of the memory the dump holds): libkdumpfile reads the same 256 bytes through the
   virtual address (its own arm64 translation) as at our physical address.
"""
import subprocess
import sys

import kdumpfile

from vtoplib import pt_loads, vmcoreinfo


def main():
    dumpread, vmcore, vi_path, guest = sys.argv[1:5]
    vi = vmcoreinfo(vi_path)
    voffset = int(vi['NUMBER(kimage_voffset)'], 16)
    stext = int(vi['SYMBOL(_stext)'], 16)
    expect = {}
    for sym in ('_stext', 'swapper_pg_dir'):
        v = int(vi['SYMBOL(%s)' % sym], 16)
        expect[v + 0x18] = (v - voffset + 0x18) & (1 << 64) - 1
    loads = list(pt_loads(vmcore))
    for vaddr, paddr, filesz in loads:
        if vaddr < 1 << 63 or filesz < 0x3000:
            continue
        for off in (0, 0x1000, filesz // 2 & ~0xfff, filesz - 0x1000):
            # The image's head before _stext is not mapped (arm64 maps from _stext on).
            if vaddr <= stext < vaddr + filesz and vaddr + off < stext:
                continue
            expect[vaddr + off + 0x18] = paddr + off + 0x18
    # Translations checked against libkdumpfile's reading by virtual address.
    others = [int(vi['SYMBOL(mem_section)'], 16)]
    for line in open(guest + '/modules.txt'):
        others.append(int(line.split()[-1], 16) + 0x40)
    # The linear map of the memory the dump holds (kdump leaves out the crash kernel's,
    # which the kernel also unmaps), every 16 MiB.
    page_offset = (-(1 << int(vi['NUMBER(VA_BITS)']))) & (1 << 64) - 1
    phys_offset = int(vi['NUMBER(PHYS_OFFSET)'], 16)
    for _, paddr, filesz in loads:
        others += [page_offset + paddr - phys_offset + off + 0x100 for off in range(0, filesz, 16 << 20)]
    others = [v for v in others if v not in expect]

    addrs = list(expect) + others
    out = subprocess.run([dumpread, vmcore, 'vtop'] + ['%#x' % v for v in addrs], check=True,
                         capture_output=True, text=True).stdout
    kd = kdumpfile.kdumpfile(vmcore)
    kd.attr['addrxlat.ostype'] = 'linux'
    bad = compared = 0
    for line in out.splitlines():
        v, p = line.split()
        v = int(v, 16)
        if v in expect and p != '%#x' % expect[v]:
            print('vtop %#x: we say %s, expected %#x' % (v, p, expect[v]))
            bad += 1
            continue
        if not p.startswith('0x'):
            if v in expect:
                print('vtop %#x: we say %s, expected %#x' % (v, p, expect[v]))
                bad += 1
            continue
        try:
            theirs = bytes(kd.read(kdumpfile.KDUMP_KVADDR, v, 256))
        except Exception as e:   # noqa: BLE001 -- libkdumpfile cannot read it either
            print('libkdumpfile cannot read %#x (%s); we translate it to %s' % (v, e, p))
            bad += 1
            continue
        ours = bytes(kd.read(kdumpfile.KDUMP_KPHYSADDR, int(p, 16), 256))
        compared += 1
        if ours != theirs:
            print('%#x: libkdumpfile reads other bytes there than at our %s' % (v, p))
            bad += 1
    print('%d translations, %d against libkdumpfile, %d wrong' % (len(addrs), compared, bad))
    return 1 if bad or compared < len(addrs) // 2 else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What a saved dump holds, read with libkdumpfile (an independent reader).

dumpcheck.py DUMP [LABPROBE_PFNS]

Prints key=value lines:
  pages=N                 pages present in the file
  kernel-release=ok       init_uts_ns (VMCOREINFO's address) reads and holds
                          VMCOREINFO's OSRELEASE: the kernel's data is there
  kernel-text=ok          the page at _stext reads: so is its text
  marker-KIND=N           pages that start with labprobe's marker of KIND
                          (anon, vgem, pagecache), over every page present
  labprobe-KIND=N/M       of the M pfns labprobe listed for KIND (with a
                          pfn), N are in the dump
A reader error is printed as the value.
"""
import sys

import kdumpfile

MARKERS = {'anon': b'!QAZXSW@#EDC', 'vgem': b'@GPUBUF#vgem!', 'pagecache': b'%PAGECACHE%'}
PAGE = 4096


def present_pfns(dump):
    """Every pfn the file holds, from its page bitmap."""
    bitmap, max_pfn = dump.attr['file.pagemap'], dump.attr['max_pfn']
    pfn = 0
    while pfn < max_pfn:
        try:
            start = bitmap.find_set(pfn)
        except Exception:
            return
        if start >= max_pfn:
            return
        try:
            end = min(bitmap.find_clear(start), max_pfn)
        except Exception:
            end = max_pfn
        yield from range(start, end)
        pfn = end


def kernel_checks(dump):
    lines = dump.attr['linux.vmcoreinfo.lines']
    release = str(lines['OSRELEASE']).encode()
    dump.attr['addrxlat.ostype'] = 'linux'
    try:
        uts = dump.read(kdumpfile.KDUMP_KVADDR, int(str(lines['SYMBOL(init_uts_ns)']), 16), 400)
        print('kernel-release=' + ('ok' if release in uts else 'missing'))
    except Exception as e:
        print(f'kernel-release={e!r}')
    try:
        dump.read(kdumpfile.KDUMP_KVADDR, int(str(lines['SYMBOL(_stext)']), 16), PAGE)
        print('kernel-text=ok')
    except Exception as e:
        print(f'kernel-text={e!r}')


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    dump = kdumpfile.kdumpfile(sys.argv[1])
    listed = {kind: set() for kind in MARKERS}
    if len(sys.argv) == 3:
        for line in open(sys.argv[2]):
            fields = line.split()
            if len(fields) == 3 and fields[0] in listed and not fields[2].startswith('notpresent'):
                listed[fields[0]].add(int(fields[2], 16))
    pfns = list(present_pfns(dump))
    print(f'pages={len(pfns)}')
    kernel_checks(dump)
    starts = {kind: 0 for kind in MARKERS}
    for pfn in pfns:
        data = dump.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, 16)
        for kind, marker in MARKERS.items():
            if data.startswith(marker):
                starts[kind] += 1
    held = set(pfns)
    for kind in MARKERS:
        print(f'marker-{kind}={starts[kind]}')
        if len(sys.argv) == 3:
            print(f'labprobe-{kind}={len(listed[kind] & held)}/{len(listed[kind])}')


main()

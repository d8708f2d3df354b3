#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Overwrite physical memory of an ELF dump in place.

patchphys.py DUMP PADDR:HEX...

Writes each HEX string at physical address PADDR, in every PT_LOAD that
holds it (a kexec dump holds the kernel image twice), and prints the bytes
it replaced as PADDR:HEX lines: fed back as arguments they undo the patch.
Tests damage one large copy this way, case after case, instead of copying
the dump for each.
"""
import sys

import elfread


def loads(f):
    f.seek(0)
    eh = f.read(64)
    if eh[:4] != b'\x7fELF' or eh[4] != 2:
        raise SystemExit('patchphys.py: not an ELF64 file')
    return elfread.loads(elfread.read_program_headers(f, elfread.parse_header(eh)))


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], 'r+b') as f:
        segments = loads(f)
        undo = []
        for item in sys.argv[2:]:
            paddr, data = item.split(':')
            paddr, data = int(paddr, 0), bytes.fromhex(data)
            hits = elfread.file_offsets(segments, paddr, len(data))
            if not hits:
                raise SystemExit('patchphys.py: physical address %#x is in no PT_LOAD' % paddr)
            f.seek(hits[0])
            undo.append('%#x:%s' % (paddr, f.read(len(data)).hex()))
            for off in hits:
                f.seek(off)
                f.write(data)
    print('\n'.join(reversed(undo)))


if __name__ == '__main__':
    main()

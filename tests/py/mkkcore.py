#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make a /proc/kcore look-alike of an ELF dump in kexec's layout.

mkkcore.py DUMP KCORE

kcore is an ELF core of the whole kernel address space: besides the
segments of RAM (through the direct map) and of the kernel image, which
have physical addresses, it has segments of vmalloc space, modules and
vmemmap, whose p_paddr is -1 and whose file offsets lie far past anything
a reader of physical memory should touch.  KCORE gets DUMP's notes and
segments (data copied, zeros left as holes) and two such segments more,
after the ELF header, as kcore lists vmalloc space first; its headers are
in DUMP's byte order.
"""
import struct
import sys

import elfread

CHUNK = 1 << 20
NOT_PADDR = (1 << 64) - 1


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], 'rb') as src, open(sys.argv[2], 'wb') as dst:
        eh = bytearray(src.read(64))
        header = elfread.parse_header(eh)
        phdrs = [list(p) for p in elfread.read_program_headers(src, header)]
        fake = [[1, 7, 1 << 44, 0xffffc90000000000, NOT_PADDR, 1 << 40, 1 << 40, 4096],
                [1, 7, (1 << 44) + (1 << 41), 0xffffea0000000000, NOT_PADDR, 1 << 38, 1 << 38, 4096]]
        table = phdrs[:1] + fake + phdrs[1:]
        offset = 4096 + 56 * len(table)
        out = []
        for p in table:
            # The notes and the segments with a physical address get their data.
            if p[0] == 4 or (p[0] == 1 and p[4] != NOT_PADDR):
                out.append((p[2], offset, p[5]))
                p[2] = offset
                offset += (p[5] + 4095) // 4096 * 4096
        struct.pack_into(header.order + 'QQ', eh, 32, 64, 0)
        struct.pack_into(header.order + 'H', eh, 56, len(table))
        dst.write(eh)
        for p in table:
            dst.write(struct.pack(header.order + 'IIQQQQQQ', *p))
        for old, new_off, size in out:
            for done in range(0, size, CHUNK):
                src.seek(old + done)
                data = src.read(min(CHUNK, size - done))
                if data.strip(b'\0'):
                    dst.seek(new_off + done)
                    dst.write(data)
        dst.truncate(offset)


if __name__ == '__main__':
    main()

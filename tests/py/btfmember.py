#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a struct's first member entry lies in a dump's vmlinux BTF.

btfmember.py DUMPREAD VMCORE STRUCT

Reads the BTF between __start_BTF and __stop_BTF through DUMPREAD, walks
its types (the layout of include/uapi/linux/btf.h) to the struct named
STRUCT, and prints the kernel virtual address of its first member's
struct btf_member (name_off, type, offset; 4 bytes each), for a test to
damage.
"""
import struct
import subprocess
import sys

# Bytes after struct btf_type for each kind: fixed, and per vlen item.
EXTRA = {1: (4, 0), 2: (0, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 7: (0, 0), 8: (0, 0),
         9: (0, 0), 10: (0, 0), 11: (0, 0), 12: (0, 0), 13: (0, 8), 14: (4, 0), 15: (0, 12),
         16: (0, 0), 17: (4, 0), 18: (0, 0), 19: (0, 12)}


def run(*args):
    return subprocess.run(list(args), check=True, capture_output=True).stdout


def main():
    dumpread, vmcore, wanted = sys.argv[1:4]
    syms = dict(line.split()[:2] for line in
                run(dumpread, vmcore, 'symbol', '__start_BTF', '__stop_BTF').decode().splitlines())
    start, stop = int(syms['__start_BTF'], 16), int(syms['__stop_BTF'], 16)
    data = run(dumpread, vmcore, 'virt', hex(start), str(stop - start))
    magic, _, _, hdr_len, type_off, type_len, str_off, _ = struct.unpack_from('<HBBIIIII', data)
    if magic != 0xeb9f:
        sys.exit('no BTF magic at __start_BTF')
    types, strings = hdr_len + type_off, hdr_len + str_off
    at = types
    while at < types + type_len:
        name_off, info, _ = struct.unpack_from('<III', data, at)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        name = data[strings + name_off:data.index(b'\0', strings + name_off)].decode()
        if kind == 4 and name == wanted and vlen:
            print(hex(start + at + 12))
            return 0
        fixed, item = EXTRA[kind]
        at += 12 + fixed + item * vlen
    sys.exit('no struct %s in the BTF' % wanted)


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads a generated vmcore with libkdumpfile, an independent reader that
does its own address translation from VMCOREINFO, and checks it against
mkvmcore's ground truth: the kallsyms tables decode to the --kallsyms-out
listing, every "vtop" line of the facts translates as stated, and every
"marker" page starts with its marker text.

usage: check-libkdumpfile.py VMCORE FACTS KALLSYMS-LIST
Exits 1 on any difference.
"""
import struct
import sys

import kdumpfile


def vmcoreinfo(k):
    text = bytes(k.attr['linux.vmcoreinfo.raw']).decode()
    info = {}
    for line in text.splitlines():
        if '=' in line:
            key, val = line.split('=', 1)
            info[key] = val
    return info


def read_facts(path):
    scalars, lines = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            if '=' in line and ' ' not in line.split('=', 1)[0]:
                key, val = line.rstrip('\n').split('=', 1)
                scalars[key] = val
            else:
                lines.append(line.split())
    return scalars, lines


def decode_kallsyms(k, info, enc):
    """(address, type, name) of every symbol, in table order."""
    def sym(name):
        return int(info['SYMBOL(%s)' % name], 16)

    def read(addr, size):
        return k.read(kdumpfile.KDUMP_KVADDR, addr, size)

    n = struct.unpack('<I', read(sym('kallsyms_num_syms'), 4))[0]
    index = struct.unpack('<256H', read(sym('kallsyms_token_index'), 512))
    table = read(sym('kallsyms_token_table'), max(index) + 256)
    tokens = [table[i:table.index(b'\0', i)] for i in index]

    names_addr = sym('kallsyms_names')
    # kallsyms_names is followed by the token table in every layout
    blob = read(names_addr, sym('kallsyms_token_table') - names_addr)
    names, off = [], 0
    for _ in range(n):
        length = blob[off]
        off += 1
        if length & 0x80:
            length = (length & 0x7f) | (blob[off] << 7)
            off += 1
        names.append(b''.join(tokens[t] for t in blob[off:off + length]))
        off += length

    if enc == 'absolute':
        addrs = struct.unpack('<%dQ' % n,
                              read(sym('kallsyms_addresses'), 8 * n))
    else:
        base_addr = sym('kallsyms_offsets')
        offs = struct.unpack('<%di' % n, read(base_addr, 4 * n))
        if enc == 'place-relative':
            addrs = [(base_addr + 4 * i + o) % 2**64
                     for i, o in enumerate(offs)]
        else:
            rb = struct.unpack('<Q', read(sym('kallsyms_relative_base'),
                                          8))[0]
            if enc == 'abs-percpu':
                addrs = [o if o >= 0 else (rb - 1 - o) % 2**64
                         for o in offs]
            else:
                addrs = [(rb + o % 2**32) % 2**64 for o in offs]
    multi = sum(1 for t in tokens if len(t) > 1)
    return ['%016x %c %s' % (a, nm[0], nm[1:].decode())
            for a, nm in zip(addrs, names)], multi


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    k = kdumpfile.kdumpfile(sys.argv[1])
    k.attr['addrxlat.ostype'] = 'linux'
    info = vmcoreinfo(k)
    scalars, lines = read_facts(sys.argv[2])
    ok = True

    got, multi = decode_kallsyms(k, info, scalars['kallsyms_encoding'])
    with open(sys.argv[3]) as f:
        want = f.read().splitlines()
    if got != want:
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                print('line %d: decoded %s, expected %s' % (i + 1, a, b))
                break
        print('kallsyms: %d decoded, %d expected: MISMATCH' %
              (len(got), len(want)))
        ok = False
    else:
        print('kallsyms: %d symbols, %d multi-char tokens: ok' %
              (len(got), multi))

    texts = {w[1]: w[2] for w in lines if w and w[0] == 'marker_text'}
    nvtop = nmarker = 0
    for w in lines:
        if w and w[0] == 'vtop':
            v, p = int(w[1], 16), int(w[2], 16)
            if bytes(k.read(kdumpfile.KDUMP_KVADDR, v, 8)) != \
               bytes(k.read(kdumpfile.KDUMP_KPHYSADDR, p, 8)):
                print('vtop %s: libkdumpfile disagrees' % w[1])
                ok = False
            nvtop += 1
        elif w and w[0] == 'marker':
            text = texts[w[1]].encode()
            page = bytes(k.read(kdumpfile.KDUMP_KPHYSADDR,
                                int(w[2], 16) << 12, len(text)))
            if page != text:
                print('marker %s %s: page starts with %r' % (w[1], w[2],
                                                             page))
                ok = False
            nmarker += 1
    print('vtop: %d lines, markers: %d pages: %s' %
          (nvtop, nmarker, 'ok' if ok else 'MISMATCH'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

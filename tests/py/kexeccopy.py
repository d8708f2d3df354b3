#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A kexec-layout copy of a QEMU ELF dump, in the byte order its machine
runs, with the VMCOREINFO note kexec's /proc/vmcore would carry.

kexeccopy.py IN OUT --order little|big [--vmcoreinfo FILE]

QEMU 7.2 writes a little-endian ppc64 guest's ELF headers and notes
big-endian and, where the machine has no fw_cfg, no VMCOREINFO note.  OUT
has the ELF header, then the program headers, then the notes and the
segments' bytes (page contents unchanged); the headers and each note's
namesz, descsz and type in ORDER (the notes' contents are left as they
are); and, with --vmcoreinfo, a VMCOREINFO note of FILE's text after the
others.  What a reader makes of OUT is what it would make of a kdump of
the same machine, for as long as the input layer cannot read QEMU's file
itself.
"""
import argparse
import struct

import elfread
from elfread import PT_LOAD, PT_NOTE


def notes_in(data, order_in, order_out):
    """@data's notes with their headers in @order_out."""
    out, at = bytearray(), 0
    while at + 12 <= len(data):
        namesz, descsz, kind = struct.unpack_from(order_in + 'III', data, at)
        size = 12 + (namesz + 3 & ~3) + (descsz + 3 & ~3)
        if at + size > len(data):
            raise SystemExit('a note at offset %#x runs past the notes' % at)
        out += struct.pack(order_out + 'III', namesz, descsz, kind) + data[at + 12:at + size]
        at += size
    return out


def vmcoreinfo_note(text, order):
    name = b'VMCOREINFO\0'
    return (struct.pack(order + 'III', len(name), len(text), 0) + name + bytes(-len(name) % 4) + text +
            bytes(-len(text) % 4))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('input')
    ap.add_argument('output')
    ap.add_argument('--order', choices=('little', 'big'), required=True)
    ap.add_argument('--vmcoreinfo')
    args = ap.parse_args()
    out_order = '<' if args.order == 'little' else '>'
    with open(args.input, 'rb') as f, open(args.output, 'wb') as o:
        ehdr = bytearray(f.read(64))
        if ehdr[:4] != b'\x7fELF' or ehdr[4] != 2:
            raise SystemExit('%s: not an ELF64 file' % args.input)
        header = elfread.parse_header(ehdr)
        in_order, fields = header.order, list(header[1:])
        phdrs = [list(p) for p in elfread.read_program_headers(f, header)]
        notes = bytearray()
        for ph in phdrs:
            if ph[0] == PT_NOTE:
                f.seek(ph[2])
                notes += notes_in(f.read(ph[5]), in_order, out_order)
        if args.vmcoreinfo:
            with open(args.vmcoreinfo, 'rb') as v:
                notes += vmcoreinfo_note(v.read(), out_order)
        loads = [ph for ph in phdrs if ph[0] == PT_LOAD]
        at = 64 + 56 * (len(loads) + 1)
        out_phdrs = [[PT_NOTE, 0, at, 0, 0, len(notes), len(notes), 0]]
        at += len(notes)
        for ph in loads:
            out_phdrs.append([PT_LOAD, ph[1], at] + ph[3:])
            at += ph[5]
        fields[4], fields[5], fields[7], fields[9] = 64, 0, 64, len(out_phdrs)   # e_phoff, e_shoff, e_ehsize, e_phnum
        fields[8], fields[10:13] = 56, [0, 0, 0]   # e_phentsize; no section headers
        ehdr[5] = 1 if out_order == '<' else 2
        struct.pack_into(out_order + 'HHIQQQIHHHHHH', ehdr, 16, *fields)
        o.write(ehdr)
        for ph in out_phdrs:
            o.write(struct.pack(out_order + 'IIQQQQQQ', *ph))
        o.write(notes)
        for ph in loads:
            f.seek(ph[2])
            left = ph[5]
            while left:
                chunk = f.read(min(left, 1 << 22))
                if not chunk:
                    raise SystemExit('%s: a segment runs past the end of the file' % args.input)
                o.write(chunk)
                left -= len(chunk)


if __name__ == '__main__':
    main()

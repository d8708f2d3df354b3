#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Byte-order checks of what dumpread reads, against independent readers.

usage:
  byteordercheck.py pages DUMPREAD FILE
      every page ../shared/tools/kdumpset.py reads from FILE (kdump-compressed
      or ELF, in the order it finds): dumpread reads the same bytes; every
      other pfn below the end reads as excluded or not dumped, or, in an
      ELF file, as zeros (a segment's bytes past p_filesz)
  byteordercheck.py segments DUMPREAD FILE READELF_L
      the physical ranges dumpread finds are readelf -l's PT_LOADs, merged
  byteordercheck.py notes DUMPREAD FILE READELF_N
      the notes dumpread walks are readelf -n's: owner, type, size, in order
  byteordercheck.py swap-kdump IN OUT
      OUT is IN, a kdump-compressed file, with its disk header, sub header
      and page descriptors in the other byte order: what a machine of the
      other order would write over the same memory, bitmaps, notes and page
      data as they are
  byteordercheck.py patch-msr FILE CPU clear-le|clear-sf
      in FILE, a ppc64 ELF dump, clears a bit of the MSR in CPU's
      NT_PRSTATUS note (pt_regs' word 33, at byte 112 + 33 * 8), in place

kdumpset.py is found where $KDUMPSET says, else in ../shared/tools.  Prints
one FAIL line per difference and a summary; exits 1 on any difference.
"""
import importlib.util
import os
import struct
import subprocess
import sys

import elfread
from testlib import digest

NOTE_TYPES = {
    'NT_PRSTATUS': 1, 'NT_FPREGSET': 2, 'NT_PPC_VMX': 0x100, 'NT_PPC_VSX': 0x102,
    'NT_S390_TIMER': 0x301, 'NT_S390_TODCMP': 0x302, 'NT_S390_TODPREG': 0x303,
    'NT_S390_CTRS': 0x304, 'NT_S390_PREFIX': 0x305, 'NT_S390_VXRS_LOW': 0x309,
    'NT_S390_VXRS_HIGH': 0x30a, 'NT_S390_GS_CB': 0x30b,
}
MSR_OFFSET = 112 + 33 * 8
MSR_BITS = {'clear-le': 1 << 0, 'clear-sf': 1 << 63}


def kdumpset():
    path = os.environ.get('KDUMPSET') or os.path.join(
        os.path.dirname(__file__), '..', '..', '..', 'shared', 'tools', 'kdumpset.py')
    spec = importlib.util.spec_from_file_location('kdumpset', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dumpread(tool, path, *args, stdin=None):
    return subprocess.run([tool, path, *args], check=True, input=stdin, capture_output=True,
                          text=True).stdout.splitlines()


def split_part_pages(ks, dump):
    """The pages of one part of a split dump, which kdumpset.py reads as a
    whole dump: the descriptors are those of the part's pfns only."""
    sub = dump.block_size
    split, = struct.unpack_from(dump.order + 'i', dump.m, sub + 12)
    if not split:
        return None
    start, end = struct.unpack_from(dump.order + 'QQ', dump.m, sub + (80 if dump.version >= 6 else 16))
    pages = {}
    for i, pfn in enumerate(p for p in dump.pfns() if start <= p < end):
        off, size, flags, _ = struct.unpack_from(dump.order + 'qIIQ', dump.m, dump.desc_off + 24 * i)
        pages[pfn] = digest(ks._decompress(flags, dump.m[off:off + size], dump.page_size))
    return pages


def cmd_pages(tool, path):
    ks = kdumpset()
    dump = ks.open_dump(path)
    elf, zero = isinstance(dump, ks.ElfFile), digest(bytes(dump.page_size if hasattr(dump, 'page_size')
                                                         else ks.PAGE))
    want = split_part_pages(ks, dump) if not elf else None
    if want is None:
        want = {pfn: digest(data) for pfn, data in dump.pages()}
    end = getattr(dump, 'max_mapnr', None) or (max(want) + 1 if want else 0)
    pfns = list(range(end)) + [end, end + 1]
    out = dumpread(tool, path, 'pages', stdin=''.join('0x%x\n' % p for p in pfns))
    fails = 0
    for pfn, line in zip(pfns, out):
        words = line.split()
        if pfn in want:
            right = words[1:] == ['ok', want[pfn]]
        else:
            # An ELF segment's bytes past p_filesz, up to p_memsz, are zeros.
            right = words[1] in ('excluded', 'notdumped') or (elf and words[1:] == ['ok', zero])
        if not right:
            fails += 1
            if fails <= 10:
                print('FAIL pfn 0x%x: dumpread %s, kdumpset %s' %
                      (pfn, ' '.join(words[1:]), want.get(pfn, 'no page')))
    if len(out) != len(pfns):
        print('FAIL: %d answers for %d pfns' % (len(out), len(pfns)))
        fails += 1
    print('%s: %d pages of %s (%s), %d pfns compared, %d differ' %
          (path, len(want), type(dump).__name__, 'big-endian' if dump.order == '>' else
           'little-endian', len(pfns), fails))
    return 1 if fails else 0


def merged(ranges):
    out = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [tuple(r) for r in out]


def cmd_segments(tool, path, readelf_l):
    loads = []
    with open(readelf_l) as f:
        for line in f:
            words = line.split()
            if words and words[0] == 'LOAD':
                paddr, memsz = int(words[3], 16), int(words[5], 16)
                loads.append((paddr, paddr + memsz))
    want = merged(loads)
    got = [tuple(int(w, 16) for w in line.split()[1:3])
           for line in dumpread(tool, path, 'info') if line.startswith('range ')]
    same = got == want and want
    print('%s: %d PT_LOADs in readelf, ranges %s%s' %
          (path, len(loads), got, '' if same else ', FAIL: readelf says %s' % want))
    return 0 if same else 1


def readelf_notes(readelf_n):
    notes = []
    with open(readelf_n) as f:
        for line in f:
            words = line.split(None, 2)
            if len(words) < 3 or not words[1].startswith('0x'):
                continue
            desc = words[2].strip()
            if desc.startswith('Unknown note type: ('):
                kind = int(desc.split('(')[1].split(')')[0], 16)
            else:
                kind = NOTE_TYPES[desc.split()[0]]
            notes.append((words[0], kind, int(words[1], 16)))
    return notes


def cmd_notes(tool, path, readelf_n):
    want = readelf_notes(readelf_n)
    got = []
    for line in dumpread(tool, path, 'notes'):
        _, owner, kind, size = line.split()
        got.append((owner, int(kind, 16), int(size, 16)))
    same = got == want and want
    print('%s: %d notes, %s' % (path, len(got), 'as readelf lists them' if same else
                                 'FAIL: dumpread %s, readelf %s' % (got, want)))
    return 0 if same else 1


# The fields of the kdump-compressed structures (upstream's diskdump_mod.h):
# offset and format, in the disk header, the sub header and a descriptor.
DISK_FIELDS = [(8, 'i'), (408, 'q'), (416, 'q'), (424, 'I'), (428, 'i'), (432, 'i'), (436, 'I'),
               (440, 'I'), (444, 'I'), (448, 'I'), (452, 'I'), (456, 'I'), (460, 'i')]
SUB_FIELDS = [(0, 'Q'), (8, 'i'), (12, 'i')] + [(16 + 8 * i, 'Q') for i in range(11)]
DESC_FIELDS = [(0, 'q'), (8, 'I'), (12, 'I'), (16, 'Q')]


def swap_fields(buf, base, fields, old, new):
    for off, fmt in fields:
        value, = struct.unpack_from(old + fmt, buf, base + off)
        struct.pack_into(new + fmt, buf, base + off, value)


def swap_kdump(data):
    """@data, a kdump-compressed file, with its headers and descriptors in the
    other byte order; returns it and the orders (struct's '<' or '>') before
    and after, and the number of descriptors."""
    buf = bytearray(data)
    version, = struct.unpack_from('<i', buf, 8)
    old = '<' if 0 < version < 0x10000 else '>'
    new = '>' if old == '<' else '<'
    block, sub_blocks, bitmap_blocks = struct.unpack_from(old + 'iiI', buf, 428)
    max_mapnr, = struct.unpack_from(old + 'Q', buf, block + 96)
    bitmap2 = (1 + sub_blocks) * block + bitmap_blocks * block // 2
    dumped = sum(bin(b).count('1') for b in buf[bitmap2:bitmap2 + (max_mapnr + 7) // 8])
    desc = (1 + sub_blocks + bitmap_blocks) * block
    swap_fields(buf, 0, DISK_FIELDS, old, new)
    swap_fields(buf, block, SUB_FIELDS, old, new)
    for i in range(dumped):
        swap_fields(buf, desc + 24 * i, DESC_FIELDS, old, new)
    return bytes(buf), old, new, dumped


def cmd_swap_kdump(src, dst):
    with open(src, 'rb') as f:
        buf, old, new, dumped = swap_kdump(f.read())
    with open(dst, 'wb') as f:
        f.write(buf)
    print('%s: %s header, %d descriptors, now %s-endian' %
          (dst, 'little' if old == '<' else 'big', dumped, 'big' if new == '>' else 'little'))
    return 0


def cmd_patch_msr(path, cpu, how):
    with open(path, 'r+b') as f:
        header = elfread.read_header(f)
        o = header.order
        segment = next(p for p in elfread.read_program_headers(f, header) if p.type == elfread.PT_NOTE)
        prstatus = [n for n in elfread.segment_notes(f, header, segment)
                    if n.type == NOTE_TYPES['NT_PRSTATUS']]
        if 0 <= cpu < len(prstatus):
            at = prstatus[cpu].desc_offset + MSR_OFFSET
            f.seek(at)
            msr, = struct.unpack(o + 'Q', f.read(8))
            f.seek(at)
            f.write(struct.pack(o + 'Q', msr & ~MSR_BITS[how]))
            print('%s: CPU %d MSR 0x%x -> 0x%x' % (path, cpu, msr, msr & ~MSR_BITS[how]))
            return 0
    print('FAIL: %s has no NT_PRSTATUS for CPU %d' % (path, cpu))
    return 1


def main(argv):
    commands = {'pages': (cmd_pages, 2), 'segments': (cmd_segments, 3), 'notes': (cmd_notes, 3),
                'swap-kdump': (cmd_swap_kdump, 2), 'patch-msr': (cmd_patch_msr, 3)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    args = argv[2:]
    if argv[1] == 'patch-msr':
        args = [args[0], int(args[1]), args[2]]
    return commands[argv[1]][0](*args)


if __name__ == '__main__':
    sys.exit(main(sys.argv))

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of a kdump-compressed file our writer made.

writercheck.py header FILE
    prints every header field, one "name value" line each.
writercheck.py headers OURS REFERENCE [--differ FIELD...]
    compares the headers field by field (and the notes and VMCOREINFO they
    point at); every field must be equal but those named by --differ,
    which must differ.
writercheck.py pages DUMPREAD OURS ELF
    every pfn of OURS' 2nd bitmap reads (python3-libkdumpfile) the same
    bytes from OURS as from the ELF dump ELF, and the same digest
    through our own reader (DUMPREAD pages); pfns outside it do not read.
writercheck.py pfnset A B
    the sets of pfns libkdumpfile finds in A and in B are equal.
writercheck.py report OURS_OUTPUT UPSTREAM_OUTPUT DUMPFILE
    our end-of-run report has upstream's lines, in upstream's format, plus
    "Extension filter pages" after "Offline pages"; the counts equal
    upstream's except where upstream counts a page twice (kexec dumps have
    the kernel image in two PT_LOADs; "Original pages" is then the 1st
    bitmap's count, which DUMPFILE's header gives).
"""
import random
import struct
import subprocess
import sys

import kdumpfile

from testlib import digest, pagemap_runs

DISK_HEADER = struct.Struct('<8si' + '65s' * 6 + '6xqqIiiIIIIIIi')
DISK_FIELDS = ('signature header_version sysname nodename release version machine domainname '
               'timestamp_sec timestamp_usec status block_size sub_hdr_size bitmap_blocks '
               'max_mapnr total_ram_blocks device_blocks written_blocks current_cpu '
               'nr_cpus').split()
SUB_HEADER = struct.Struct('<QiiQQQQQQQQQQQ')
SUB_FIELDS = ('phys_base dump_level split start_pfn end_pfn offset_vmcoreinfo size_vmcoreinfo '
              'offset_note size_note offset_eraseinfo size_eraseinfo start_pfn_64 end_pfn_64 '
              'max_mapnr_64').split()
assert DISK_HEADER.size == 464 and SUB_HEADER.size == 104


def read_header(path):
    """The header fields by name, with the notes and VMCOREINFO bytes and
    the bitmaps' population counts."""
    with open(path, 'rb') as f:
        h = dict(zip(DISK_FIELDS, DISK_HEADER.unpack(f.read(DISK_HEADER.size))))
        f.seek(h['block_size'])
        h.update(zip(SUB_FIELDS, SUB_HEADER.unpack(f.read(SUB_HEADER.size))))
        f.seek(h['offset_note'])
        h['notes'] = f.read(h['size_note'])
        f.seek(h['offset_vmcoreinfo'])
        h['vmcoreinfo'] = f.read(h['size_vmcoreinfo'])
        half = h['bitmap_blocks'] * h['block_size'] // 2
        f.seek((1 + h['sub_hdr_size']) * h['block_size'])
        for name in ('bitmap1', 'bitmap2'):
            bits = f.read(half)
            h[name + '_set'] = sum(bin(b).count('1') for b in bits)
    return h


def show(value):
    if isinstance(value, bytes):
        text = value.rstrip(b'\0')
        if len(text) <= 80 and all(32 <= b < 127 for b in text):
            return repr(text.decode())
        return '%d bytes, crc32 %s' % (len(value), digest(value))
    return '0x%x' % value


def cmd_header(args):
    for name, value in read_header(args[0]).items():
        print(name, show(value))
    return 0


def cmd_headers(args):
    ours, ref = read_header(args[0]), read_header(args[1])
    differ = set(args[3:]) if len(args) > 2 and args[2] == '--differ' else set()
    bad = 0
    for name in ours:
        same = ours[name] == ref[name]
        expected = name not in differ
        verdict = 'equal' if same else 'differs'
        if same != expected:
            bad += 1
            verdict = 'FAIL: ' + verdict + (' (expected to differ)' if same else '')
        print('%-18s %-40s %-40s %s' % (name, show(ours[name]), show(ref[name]), verdict))
    print('%d fields compared, %d unexpected' % (len(ours), bad))
    return 1 if bad else 0


def pfn_runs(path):
    max_pfn = read_header(path)['max_mapnr_64'] if open(path, 'rb').read(5) == b'KDUMP' \
        else 1 << 40
    return pagemap_runs(path, max_pfn)


def cmd_pfnset(args):
    a, b = pfn_runs(args[0]), pfn_runs(args[1])
    count = sum(e - s for s, e in a)
    if a != b:
        print('FAIL: %s has %d runs (%d pfns), %s has %d runs (%d pfns)' %
              (args[0], len(a), count, args[1], len(b), sum(e - s for s, e in b)))
        for x, y in zip(a, b):
            if x != y:
                print('first difference: 0x%x-0x%x against 0x%x-0x%x' % (x + y))
                break
        return 1
    print('%d pfns in %d runs, the same in both' % (count, len(a)))
    return 0


def cmd_pages(args):
    dumpread, ours_path, elf_path = args
    page = read_header(ours_path)['block_size']
    ours, elf = kdumpfile.kdumpfile(ours_path), kdumpfile.kdumpfile(elf_path)
    kept = pfn_runs(ours_path)
    pfns = [p for s, e in kept for p in range(s, e)]
    bad = 0
    for pfn in pfns:
        a = ours.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * page, page)
        b = elf.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * page, page)
        if a != b:
            bad += 1
            if bad <= 5:
                print('FAIL pfn 0x%x: libkdumpfile reads different bytes from %s' %
                      (pfn, ours_path))
    # Pfns not kept: both ends of each gap and a few inside.
    rng = random.Random(1)
    gaps = [(e, s2) for (_, e), (s2, _) in zip(kept, kept[1:])] + [(0, kept[0][0])]
    missing = set()
    for s, e in gaps:
        if e > s:
            missing |= {s, e - 1} | {rng.randrange(s, e) for _ in range(5)}
    for pfn in sorted(missing):
        try:
            ours.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * page, page)
            bad += 1
            print('FAIL pfn 0x%x: not in the 2nd bitmap but libkdumpfile reads it' % pfn)
        except kdumpfile.exceptions.NoDataException:
            pass

    def hashes(path, todo):
        out = subprocess.run([dumpread, path, 'pages'], check=True, capture_output=True,
                             text=True, input=''.join('0x%x\n' % p for p in todo)).stdout
        return out.splitlines()
    mine, want = hashes(ours_path, pfns), hashes(elf_path, pfns)
    for line, ref in zip(mine, want):
        if line != ref or ' ok ' not in line:
            bad += 1
            if bad <= 10:
                print('FAIL our reader: %s; from the ELF: %s' % (line, ref))
    if len(mine) != len(pfns):
        bad += 1
        print('FAIL: dumpread answered %d of %d pfns' % (len(mine), len(pfns)))
    for line in hashes(ours_path, sorted(missing)):
        if line.split()[1] not in ('excluded', 'notdumped'):
            bad += 1
            print('FAIL our reader, a pfn outside the 2nd bitmap: %s' % line)
    print('%s: %d pages compared with %s, %d pfns outside, %d failures' %
          (ours_path, len(pfns), elf_path, len(missing), bad))
    return 1 if bad else 0


REPORT_FIRST, REPORT_LAST = 'Original pages  : ', 'Write bytes     : '


def report_lines(path):
    """The report's lines, from "Original pages" to "Write bytes"."""
    lines = open(path, errors='replace').read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(REPORT_FIRST))
    end = next(i for i, line in enumerate(lines) if line.startswith(REPORT_LAST))
    return lines[start:end + 1]


def report_values(lines):
    values = {}
    for line in lines:
        if ' : ' in line:
            key, value = line.split(' : ', 1)
            values[key.strip()] = int(value, 0)
        elif 'reduced to' in line:
            values['reduced'] = int(line.split('to ')[1].split('%')[0])
    return values


def cmd_report(args):
    ours, theirs = report_lines(args[0]), report_lines(args[1])
    present = read_header(args[2])['bitmap1_set']
    bad = []
    extension = '    Extension filter pages  : '
    if not any(line.startswith(extension) for line in ours):
        bad.append('no "%s" line' % extension.strip())
    mine = [line for line in ours if not line.startswith(extension)]
    if ours.index(next(line for line in ours if line.startswith(extension))) != \
            ours.index(next(line for line in ours if 'Offline pages' in line)) + 1:
        bad.append('the extension line does not follow "Offline pages"')
    # The same lines in the same layout: each line's text up to its value.
    labels = [line.split(':')[0] if ':' in line else line.split('to')[0] for line in mine]
    want = [line.split(':')[0] if ':' in line else line.split('to')[0] for line in theirs]
    if labels != want:
        bad.append('lines differ from upstream\'s: %s' % [x for x in zip(labels, want)
                                                          if x[0] != x[1]][:3])
    v, u = report_values(ours), report_values(theirs)
    excluded = sum(v[k] for k in ('Pages filled with zero', 'Non-private cache pages',
                                  'Private cache pages', 'User process data pages',
                                  'Free pages', 'Hwpoison pages', 'Offline pages',
                                  'Extension filter pages'))
    expect = {'Original pages': present, 'Excluded pages': excluded,
              'Remaining pages': present - excluded,
              'Memory Hole': v['Total pages'] - present,
              'reduced': (present - excluded) * 100 // present}
    for key, value in expect.items():
        if v.get(key) != value:
            bad.append('%s is %s, not %s' % (key, v.get(key), value))
    doubled = u['Original pages'] - present
    for key in u:
        want = u[key]
        if key in ('Original pages', 'Remaining pages'):
            want -= doubled
        elif key == 'Memory Hole':
            want += doubled
        elif key == 'reduced':
            want = expect['reduced']
        if v.get(key) != want:
            bad.append('%s: ours %s, upstream %s' % (key, v.get(key), u[key]))
    for line in bad:
        print('FAIL', line)
    print('report: %d lines, %d pages upstream counted twice, %d problems' %
          (len(ours), doubled, len(bad)))
    return 1 if bad else 0


def main():
    commands = {'header': cmd_header, 'headers': cmd_headers, 'pages': cmd_pages,
                'pfnset': cmd_pfnset, 'report': cmd_report}
    if len(sys.argv) < 3 or sys.argv[1] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Damage a kdump-compressed file in known ways and check dumpread's answers.

usage: kdumpdamage.py DUMPREAD GOOD_KDUMP WORKDIR

Run DUMPREAD built with -fsanitize=address,undefined: every case must end
with the expected status and message, and without a sanitizer report.
Each case patches header fields or page descriptors of a private copy (put
back afterwards), or truncates a copy.  Prints one ok/FAIL line per case;
exits 1 on any FAIL.
"""
import os
import re
import shutil
import struct
import subprocess
import sys

DH_SIZE = 464
PD_SIZE = 24
# Offsets in the disk header and the sub header (kdump_format.h).
OFF_VERSION, OFF_STATUS, OFF_BLOCK, OFF_SUBHDR, OFF_BITMAP = 8, 424, 428, 432, 436
SH_SPLIT, SH_START, SH_END = 12, 80, 88
SH_OFF_VMCI, SH_SIZE_VMCI, SH_OFF_NOTE, SH_SIZE_NOTE, SH_MAPNR = 32, 40, 48, 56, 96


class Layout:
    def __init__(self, path):
        with open(path, 'rb') as f:
            data = f.read(DH_SIZE)
            self.version, = struct.unpack_from('<i', data, OFF_VERSION)
            self.block, self.sub_hdr, self.bitmap_blocks = \
                struct.unpack_from('<iiI', data, OFF_BLOCK)
            f.seek(self.block)
            sh = f.read(104)
            self.max_mapnr, = struct.unpack_from('<Q', sh, SH_MAPNR)
            self.bitmap = (1 + self.sub_hdr) * self.block
            half = self.bitmap_blocks * self.block // 2
            f.seek(self.bitmap + half)
            bm2 = f.read((self.max_mapnr + 7) // 8)
        self.desc = self.bitmap + self.bitmap_blocks * self.block
        self.dumped = [p for p in range(self.max_mapnr) if bm2[p // 8] >> (p % 8) & 1]
        self.data = self.desc + len(self.dumped) * PD_SIZE
        self.size = os.path.getsize(path)

    def desc_of(self, index):
        return self.desc + index * PD_SIZE


def read_desc(path, off):
    with open(path, 'rb') as f:
        f.seek(off)
        return struct.unpack('<qIIQ', f.read(PD_SIZE))


class Runner:
    def __init__(self, tool):
        self.tool = tool
        self.fails = 0

    def run(self, name, path, pfns, want_rc, want_status, want_msg):
        """want_status: {pfn: status}; want_msg: regex that stderr must match."""
        args = [self.tool, path, 'pages'] + ['0x%x' % p for p in pfns]
        p = subprocess.run(args, capture_output=True, text=True)
        got = dict(line.split()[:2] for line in p.stdout.splitlines())
        problems = []
        if p.returncode != want_rc:
            problems.append('exit %d, wanted %d' % (p.returncode, want_rc))
        if re.search(r'AddressSanitizer|LeakSanitizer|runtime error', p.stderr):
            problems.append('sanitizer report')
        for pfn, status in want_status.items():
            if got.get('0x%x' % pfn) != status:
                problems.append('pfn 0x%x: %s, wanted %s' % (pfn, got.get('0x%x' % pfn), status))
        if want_msg and not re.search(want_msg, p.stderr):
            problems.append('message does not match /%s/' % want_msg)
        msg = p.stderr.strip().splitlines()
        print('%s %s: %s' % ('FAIL' if problems else 'ok', name,
                             '; '.join(problems) if problems else (msg[0] if msg else '(no message)')))
        if problems:
            self.fails += 1
            sys.stdout.write(p.stderr[-2000:])


def patch(path, changes):
    """Applies [(offset, bytes)], returns what to put back."""
    undo = []
    with open(path, 'r+b') as f:
        for off, data in changes:
            f.seek(off)
            undo.append((off, f.read(len(data))))
            f.seek(off)
            f.write(data)
    return list(reversed(undo))


def main():
    tool, good, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, 'damaged.kdump')
    shutil.copyfile(good, copy)
    lay = Layout(copy)
    r = Runner(tool)
    name = re.escape(copy)

    # first: data early in the file; mid: in the middle; last: data at the end.
    with open(copy, 'rb') as f:
        f.seek(lay.desc)
        table = f.read(len(lay.dumped) * PD_SIZE)
    offsets = [struct.unpack_from('<q', table, i * PD_SIZE)[0] for i in range(len(lay.dumped))]
    by_offset = sorted(range(len(lay.dumped)), key=lambda i: offsets[i])
    first = lay.dumped[by_offset[0]]
    # Zero pages all share one copy of the data: take the median of distinct places.
    distinct = sorted(set(offsets))
    mid_i = offsets.index(distinct[len(distinct) // 2])
    mid = lay.dumped[mid_i]
    last_i = by_offset[-1]
    last = lay.dumped[last_i]
    pfns = [first, mid, last]
    ok_all = {p: 'ok' for p in pfns}

    r.run('undamaged', copy, pfns, 0, ok_all, None)

    def case(label, changes, rc, status, msg):
        undo = patch(copy, changes)
        try:
            r.run(label, copy, pfns, rc, status, msg)
        finally:
            patch(copy, undo)

    i32 = lambda v: struct.pack('<i', v)
    u32 = lambda v: struct.pack('<I', v)
    u64 = lambda v: struct.pack('<Q', v)
    sh = lay.block

    # Older versions: the same file reads, from the fields those versions had.
    for v in range(1, 6):
        case('header_version %d' % v, [(OFF_VERSION, i32(v))], 0, ok_all, None)
    case('header_version 7', [(OFF_VERSION, i32(7))], 1, {}, name + r'.*header_version 7 ')
    case('header_version 0', [(OFF_VERSION, i32(0))], 1, {}, r'header_version 0 ')
    case('block_size 12345', [(OFF_BLOCK, i32(12345))], 1, {}, name + r'.*block_size 12345 ')
    case('block_size 0', [(OFF_BLOCK, i32(0))], 1, {}, r'block_size 0 ')
    case('block_size 1 GiB', [(OFF_BLOCK, i32(1 << 30))], 1, {}, r'block_size 1073741824 ')
    case('sub_hdr_size -1', [(OFF_SUBHDR, i32(-1))], 1, {}, r'sub_hdr_size -1 ')
    case('sub_hdr_size huge', [(OFF_SUBHDR, i32(1 << 30))], 1, {},
         r'sub_hdr_size 1073741824 .*beyond the end of the file')
    case('bitmap_blocks 0', [(OFF_BITMAP, u32(0))], 1, {}, r'bitmap_blocks is 0')
    case('bitmap_blocks 2', [(OFF_BITMAP, u32(2))], 1, {},
         r'max_mapnr %d does not fit bitmap_blocks 2' % lay.max_mapnr)
    case('bitmap_blocks huge', [(OFF_BITMAP, u32(0xffffffff))], 1, {},
         r'bitmap_blocks 4294967295 .*beyond the end of the file')
    case('max_mapnr_64 2^60', [(sh + SH_MAPNR, u64(1 << 60))], 1, {},
         r'max_mapnr 1152921504606846976 does not fit')
    case('max_mapnr_64 0', [(sh + SH_MAPNR, u64(0))], 1, {}, r'max_mapnr 0 does not fit')
    case('size_vmcoreinfo huge', [(sh + SH_SIZE_VMCI, u64(1 << 40))], 1, {},
         r'size_vmcoreinfo is 1099511627776 bytes')
    case('offset_vmcoreinfo past the end', [(sh + SH_OFF_VMCI, u64(lay.size - 10))], 1, {},
         r'offset_vmcoreinfo 0x%x .*beyond the end' % (lay.size - 10))
    case('offset_note negative', [(sh + SH_OFF_NOTE, u64(2**64 - 4096))], 1, {},
         r'offset_note 0xfffffffffffff000 .*beyond the end')
    case('size_note huge', [(sh + SH_SIZE_NOTE, u64(1 << 62))], 1, {}, r'size_note is')
    case('split range reversed',
         [(sh + SH_SPLIT, i32(1)), (sh + SH_START, u64(10)), (sh + SH_END, u64(5))],
         1, {}, r'split dump with start_pfn 0xa and end_pfn 0x5')

    # A part of a split dump: descriptors only for its range, from the table's start.
    lo, hi = sorted(pfns)[1], sorted(pfns)[2] + 1
    lo_i = lay.dumped.index(lo)
    part = [p for p in lay.dumped if lo <= p < hi]
    descs = table[lo_i * PD_SIZE:(lo_i + len(part)) * PD_SIZE]
    case('split part [0x%x, 0x%x)' % (lo, hi),
         [(sh + SH_SPLIT, i32(1)), (sh + SH_START, u64(lo)), (sh + SH_END, u64(hi)),
          (lay.desc, descs)],
         0, {sorted(pfns)[0]: 'excluded', lo: 'ok', hi - 1: 'ok'}, None)

    d = lay.desc_of(mid_i)
    off, size, flags, _ = read_desc(copy, d)
    pd_msg = r'%s: page descriptor of pfn 0x%x at offset 0x%x: ' % (name, mid, d)
    case('pd size 0', [(d + 8, u32(0))], 0, {mid: 'corrupt', first: 'ok', last: 'ok'},
         pd_msg + r'size 0 is not within')
    case('pd size 5000', [(d + 8, u32(5000))], 0, {mid: 'corrupt'}, pd_msg + 'size 5000')
    case('pd offset 0', [(d, u64(0))], 0, {mid: 'corrupt'}, pd_msg + r'data at 0x0 ')
    case('pd offset in the descriptor table', [(d, u64(lay.desc))], 0, {mid: 'corrupt'},
         pd_msg + r'data at 0x%x .*outside the page data area' % lay.desc)
    case('pd offset past the end', [(d, u64(lay.size - 10))], 0, {mid: 'corrupt'},
         pd_msg + r'data at 0x%x ' % (lay.size - 10))
    case('pd offset negative', [(d, u64(2**63))], 0, {mid: 'corrupt'}, pd_msg + r'data at')
    case('pd flags zlib|zstd', [(d + 12, u32(0x21))], 0, {mid: 'corrupt'},
         pd_msg + r'flags 0x21 name more than one compression')
    if flags:
        case('pd flags 0 on a compressed page', [(d + 12, u32(0))], 0, {mid: 'corrupt'},
             pd_msg + r'uncompressed \(flags 0x0\) but size %d, not the page size' % size)
        other = 0x4 if flags != 0x4 else 0x1
        case('pd flags name another codec', [(d + 12, u32(other))], 0, {mid: 'corrupt'},
             r'pfn 0x%x: \w+ data at offset 0x%x \(%d bytes\) does not decompress' %
             (mid, off, size))
        case('pd offset one byte later', [(d, u64(off + 1))], 0, {mid: 'corrupt'},
             r'pfn 0x%x: \w+ data at offset 0x%x .*does not decompress' % (mid, off + 1))

    # An incomplete dump: zero descriptors and data cut off read as excluded.
    incomplete = [(OFF_STATUS, u32(struct.unpack_from('<I', open(copy, 'rb').read(DH_SIZE),
                                                      OFF_STATUS)[0] | 0x8))]
    case('incomplete, zero descriptor', incomplete + [(d, bytes(PD_SIZE))], 0,
         {mid: 'excluded', first: 'ok', last: 'ok'}, r'incomplete \(status 0x[0-9a-f]+\)')

    def truncated(label, length, rc, status, msg, changes=()):
        path = os.path.join(work, 'truncated.kdump')
        with open(copy, 'rb') as src, open(path, 'wb') as dst:
            dst.write(src.read(length))
        patch(path, list(changes))
        r.run(label, path, pfns, rc, status, msg)
        os.unlink(path)

    tname = re.escape(os.path.join(work, 'truncated.kdump'))
    truncated('cut in the disk header', 100, 1, {},
              tname + r': file ends at 0x64, inside the kdump disk header')
    truncated('cut in the sub header', lay.block + 50, 1, {},
              r'file ends at 0x%x, inside the kdump sub header' % (lay.block + 50))
    truncated('cut in the bitmaps', lay.bitmap + 100, 1, {},
              r'bitmaps\' end at 0x%x, beyond the end of the file \(size %d\)' %
              (lay.desc, lay.bitmap + 100))
    truncated('cut in the descriptors', lay.desc + 1000, 1, {},
              r'page descriptors \(0x%x bytes from offset 0x%x.*\(size %d\)' %
              (lay.data - lay.desc, lay.desc, lay.desc + 1000))
    mid_off = read_desc(copy, lay.desc_of(mid_i))[0]
    truncated('cut in the page data', mid_off + 1, 0,
              {first: 'ok', mid: 'corrupt', last: 'corrupt'},
              r'page descriptor of pfn 0x%x at offset 0x%x: data at 0x%x' %
              (mid, lay.desc_of(mid_i), mid_off))
    truncated('cut one byte short', lay.size - 1, 0, {first: 'ok', mid: 'ok', last: 'corrupt'},
              r'pfn 0x%x at offset 0x%x: data at' % (last, lay.desc_of(last_i)))
    truncated('incomplete, cut in the page data', mid_off + 1, 0,
              {first: 'ok', mid: 'excluded', last: 'excluded'}, r'incomplete', incomplete)
    # No page data is left at all: every page reads as excluded.
    truncated('incomplete, cut in the descriptors', lay.desc_of(mid_i) + 5, 0,
              {first: 'excluded', mid: 'excluded', last: 'excluded'}, r'incomplete',
              incomplete)

    os.unlink(copy)
    print('%s: %d cases failed' % ('FAIL' if r.fails else 'ok', r.fails))
    return 1 if r.fails else 0


if __name__ == '__main__':
    sys.exit(main())

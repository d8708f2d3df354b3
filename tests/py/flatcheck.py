#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The dump header of a flattened stream (makedumpfile -F), as crash sees it.

flatcheck.py STREAM

crash opens a saved stream in place: it sorts the records by offset and
reads each offset from one record that covers it, so a header written
twice can be read from either record.  STREAM passes when the first
record that covers offset 0 holds the whole header (the kdump-compressed
disk header, or the ELF header), no later record writes over any of it,
and it says the dump is complete: no DUMP_DH_COMPRESSED_INCOMPLETE (0x8)
in the disk header's status, no DUMP_ELF_INCOMPLETE (1) in e_flags.
"""
import struct
import sys

FLAT_HEADER = 4096
KDUMP_SIGNATURE = b'KDUMP   '
KDUMP_STATUS_AT = 424
KDUMP_INCOMPLETE = 0x8
ELF_FLAGS_AT = 48
ELF_INCOMPLETE = 0x1


def records(path):
    """(offset, size, the first bytes of the data) of each record, in stream order."""
    out = []
    with open(path, 'rb') as f:
        if not f.read(FLAT_HEADER).startswith(b'makedumpfile'):
            raise SystemExit('FAIL %s: not a flattened stream' % path)
        while True:
            head = f.read(16)
            if len(head) < 16:
                raise SystemExit('FAIL %s: the stream has no end record' % path)
            offset, size = struct.unpack('>qq', head)
            if offset == -1:
                return out
            out.append((offset, size, f.read(min(size, 512))))
            f.seek(size - min(size, 512), 1)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    recs = records(sys.argv[1])
    first = next((i for i, (off, size, _) in enumerate(recs) if off <= 0 < off + size), None)
    if first is None:
        print('FAIL no record covers offset 0')
        return 1
    _, _, data = recs[first]
    if data.startswith(KDUMP_SIGNATURE):
        end, value, mask, what = KDUMP_STATUS_AT + 4, KDUMP_STATUS_AT, KDUMP_INCOMPLETE, 'status'
    elif data.startswith(b'\x7fELF'):
        end, value, mask, what = 64, ELF_FLAGS_AT, ELF_INCOMPLETE, 'e_flags'
    else:
        print('FAIL the record for offset 0 is neither a kdump nor an ELF header')
        return 1
    if len(data) < end:
        print('FAIL the first record for offset 0 holds %d bytes of the %d-byte header'
              % (len(data), end))
        return 1
    flags, = struct.unpack_from('<I', data, value)
    if flags & mask:
        print('FAIL %s 0x%x of the first header record says incomplete' % (what, flags))
        return 1
    again = [i for i, (off, size, _) in enumerate(recs[first + 1:], first + 1) if off < end and off + size > 0]
    if again:
        print('FAIL records %s write over the header of record %d' % (again, first))
        return 1
    print('record %d: %s 0x%x, the header\'s only record' % (first, what, flags))
    return 0


if __name__ == '__main__':
    sys.exit(main())

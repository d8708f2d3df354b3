# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Python test scripts share: the page digest dumpread prints and
the marker strings of the shared vmcores."""
import zlib

PAGE = 4096
MARKERS = {'anon': b'!QAZXSW@#EDC', 'vgem': b'@GPUBUF#vgem!', 'pagecache': b'%PAGECACHE%'}


def digest(data):
    """The page digest tests/tools/dumpread.c prints: CRC-32, as hex."""
    return '%08x' % zlib.crc32(data)


def pagemap_runs(path, max_pfn=1 << 40):
    """The runs [start, end) of pfns a dump holds: python3-libkdumpfile's
    file.pagemap (a kdump file's 2nd bitmap), below @max_pfn."""
    import kdumpfile
    pagemap = kdumpfile.kdumpfile(path).attr['file.pagemap']
    runs, pfn = [], 0
    while pfn < max_pfn:
        try:
            start = pagemap.find_set(pfn)
        except kdumpfile.exceptions.NoDataException:
            break
        if start >= max_pfn:
            break
        try:
            end = min(pagemap.find_clear(start), max_pfn)
        except kdumpfile.exceptions.NoDataException:
            end = max_pfn
        runs.append((start, end))
        pfn = end
    return runs


def pfn_set(path):
    """The set of pfns a dump holds (see pagemap_runs)."""
    return {pfn for start, end in pagemap_runs(path) for pfn in range(start, end)}

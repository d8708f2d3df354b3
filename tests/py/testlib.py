# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Python test scripts share: the page digest dumpread prints and
the marker strings of the shared vmcores."""
import subprocess
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


def dumpread_digests(dumpread, path, pfns):
    """{pfn: [digest, ...]} for @pfns of the dump at @path, as
    tests/tools/dumpread prints them."""
    out = subprocess.run([dumpread, path, 'pages'], check=True, capture_output=True, text=True,
                         input=''.join('%#x\n' % p for p in sorted(pfns))).stdout
    return {int(line.split()[0], 16): line.split()[1:] for line in out.splitlines() if line}


def report_unchanged_pages(dumpread, dump, base, common, problems):
    """Adds to @problems the pages of @common whose bytes differ between
    @dump and @base, prints every problem; the exit status of a check."""
    mine, theirs = dumpread_digests(dumpread, dump, common), dumpread_digests(dumpread, base, common)
    differ = sorted(p for p in common if mine.get(p) != theirs.get(p))
    if differ:
        problems.append('%d pages differ from the base dump, e.g. %#x' % (len(differ), differ[0]))
    for p in problems:
        print('FAIL', p)
    print('%d pfns compared; %d problems' % (len(common), len(problems)))
    return 1 if problems else 0

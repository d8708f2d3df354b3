# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Python test scripts share: the page digest dumpread prints and
the marker strings of the shared vmcores."""
import zlib

PAGE = 4096
MARKERS = {'anon': b'!QAZXSW@#EDC', 'vgem': b'@GPUBUF#vgem!', 'pagecache': b'%PAGECACHE%'}


def digest(data):
    """The page digest tests/tools/dumpread.c prints: CRC-32, as hex."""
    return '%08x' % zlib.crc32(data)

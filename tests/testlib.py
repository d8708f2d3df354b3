# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Python test scripts share: the page hash dumpread prints and
the marker strings of the shared vmcores."""

PAGE = 4096
MARKERS = {'anon': b'!QAZXSW@#EDC', 'vgem': b'@GPUBUF#vgem!', 'pagecache': b'%PAGECACHE%'}


def fnv1a64(data):
    """FNV-1a, 64-bit: the page digest tests/tools/dumpread.c prints."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h

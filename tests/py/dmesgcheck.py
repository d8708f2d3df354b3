#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every line of a guest's dmesg is in makedumpfile --dump-dmesg's output.

dmesgcheck.py OUTPUT GUEST_DMESG

The guest saved its dmesg before the dump, and the ring holds a few lines
more after them, so GUEST_DMESG's lines must appear in OUTPUT in the same
order, not necessarily one after the other.  dmesg(1) repeats a record's
timestamp on each line of a record of several lines, where makedumpfile
indents them as far as the text: OUTPUT's continuation lines are compared
with the record's timestamp put back in front.
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    prefix, lines = '', []
    for line in open(sys.argv[1], errors='surrogateescape').read().split('\n'):
        m = re.match(r'\[ *\d+\.\d{6}\] ', line)
        if m:
            prefix = m.group(0)
            lines.append(line)
        elif prefix and line.startswith(' ' * len(prefix)):
            lines.append(prefix + line[len(prefix):])
    want = [l for l in open(sys.argv[2], errors='surrogateescape').read().split('\n') if l]
    found = 0
    for line in lines:
        if found < len(want) and line == want[found]:
            found += 1
    print('%d of the guest\'s %d lines found in order, in %d lines' % (found, len(want), len(lines)))
    if found < len(want):
        print('FAIL: the first not found: %r' % want[found])
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of makedumpfile --mem-usage's table.

memusagecheck.py table OURS THEIRS [--kernel-image PAGES]
    the two tables (--mem-usage outputs) agree: every excludable kind, the
    page size, and the total; with --kernel-image, THEIRS is upstream's on
    a kexec dump, whose total and KERN_DATA count the kernel image's PAGES
    a second time (its own PT_LOAD besides the direct map), and one page
    more, which upstream 1.7.2 counts on this dump.
memusagecheck.py report OURS REPORT
    the table agrees with an end-of-run report at dump level 31 (upstream's
    --message-level 31 output): zero, cache, private cache, user and free
    pages, and "Original pages" as the total.
"""
import re
import sys

KINDS = ('ZERO', 'NON_PRI_CACHE', 'PRI_CACHE', 'USER', 'FREE', 'KERN_DATA')


def table(path):
    text = open(path).read()
    t = {kind: int(re.search(r'^%s\t+(\d+)' % kind, text, re.M).group(1)) for kind in KINDS}
    t['page size'] = int(re.search(r'^page size:\t+(\d+)', text, re.M).group(1))
    t['total'] = int(re.search(r'^Total pages on system:\t(\d+)', text, re.M).group(1))
    t['bytes'] = int(re.search(r'^Total size on system:\t(\d+) +Byte', text, re.M).group(1))
    return t


def report(path):
    text = open(path).read()

    def count(label):
        return int(re.search(r'^ *%s *: 0x([0-9a-f]+)' % re.escape(label), text, re.M).group(1), 16)
    return {'ZERO': count('Pages filled with zero'), 'NON_PRI_CACHE': count('Non-private cache pages'),
            'PRI_CACHE': count('Private cache pages'), 'USER': count('User process data pages'),
            'FREE': count('Free pages'), 'total': count('Original pages')}


def compare(ours, theirs, keys):
    bad = [k for k in keys if ours[k] != theirs[k]]
    for k in bad:
        print('FAIL %s: %d here, %d there' % (k, ours[k], theirs[k]))
    return bad


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ('table', 'report'):
        raise SystemExit(__doc__)
    ours = table(sys.argv[2])
    if ours['bytes'] != ours['total'] * ours['page size'] or \
            ours['KERN_DATA'] != ours['total'] - sum(ours[k] for k in KINDS[:5]):
        print('FAIL: the table does not add up: %s' % ours)
        return 1
    if sys.argv[1] == 'report':
        return 1 if compare(ours, report(sys.argv[3]), KINDS[:5] + ('total',)) else 0
    theirs = table(sys.argv[3])
    bad = compare(ours, theirs, KINDS[:5] + ('page size',))
    extra = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == '--kernel-image' else None
    if extra is None:
        bad += compare(ours, theirs, ('total', 'KERN_DATA'))
    elif theirs['total'] - ours['total'] != extra + 1 or \
            theirs['KERN_DATA'] - ours['KERN_DATA'] != extra + 1:
        bad.append('total')
        print('FAIL: upstream counts %d pages more, not the kernel image\'s %d and one'
              % (theirs['total'] - ours['total'], extra))
    print('%d pages: %s' % (ours['total'], ', '.join('%s %d' % (k, ours[k]) for k in KINDS)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

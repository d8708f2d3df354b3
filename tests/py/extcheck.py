#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare a dump made with an extension against the same dump made
without it.

extcheck.py DUMPREAD BASE WITH --markers MARKER_PFNS --kind KIND
            (--removed | --kept) [--report LOG] [--same-as OTHER]

--removed: every KIND marker pfn is in BASE and none in WITH; WITH's pfns
  are BASE's minus the removed ones, and LOG's "Extension filter pages"
  counts exactly the removed pfns.
--kept: every KIND marker pfn is in WITH.
Either way, each page WITH holds equals BASE's page where BASE has it
(read back through our reader, dumpread).
--same-as: WITH's pfn set equals OTHER's (another extension's result).
"""
import argparse
import re
import sys

from testlib import pfn_set, report_unchanged_pages


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dumpread')
    ap.add_argument('base')
    ap.add_argument('with_ext')
    ap.add_argument('--markers', required=True)
    ap.add_argument('--kind', required=True)
    ap.add_argument('--removed', action='store_true')
    ap.add_argument('--kept', action='store_true')
    ap.add_argument('--report')
    ap.add_argument('--same-as')
    a = ap.parse_args()

    markers = {int(line.split()[1], 16) for line in open(a.markers)
               if line.split() and line.split()[0] == a.kind}
    base, with_ext = pfn_set(a.base), pfn_set(a.with_ext)
    problems = []
    if a.removed:
        removed = base - with_ext
        if with_ext - base:
            problems.append('%d pfns in the dump with the extension only' % len(with_ext - base))
        if not markers <= base:
            problems.append('%d %s markers missing from the base dump' % (len(markers - base), a.kind))
        if markers & with_ext:
            problems.append('%d of %d %s marker pages survive' % (len(markers & with_ext), len(markers), a.kind))
        if a.report:
            m = re.search(r'Extension filter pages\s*:\s*0x([0-9a-f]+)', open(a.report).read())
            if not m or int(m.group(1), 16) != len(removed):
                problems.append('report says %s extension pages, %d removed' %
                                (m.group(1) if m else 'no', len(removed)))
        print('%d pfns removed, %d of them %s markers' % (len(removed), len(markers & removed), a.kind))
    if a.kept and not markers <= with_ext:
        problems.append('%d of %d %s marker pages missing' % (len(markers - with_ext), len(markers), a.kind))
    if a.same_as and pfn_set(a.same_as) != with_ext:
        problems.append('pfn set differs from %s' % a.same_as)
    return report_unchanged_pages(a.dumpread, a.with_ext, a.base, base & with_ext, problems)


if __name__ == '__main__':
    sys.exit(main())

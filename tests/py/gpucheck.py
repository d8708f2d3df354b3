#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare a dump made with a GPU filter or the stack keeper against the
same dump made without it, page by page.

gpucheck.py DUMPREAD BASE WITH (--removed PFNS | --kept PFNS) [--report LOG]
            [--min N]

PFNS is a file of pfns, one a line (hex with 0x, or decimal).
--removed: WITH holds exactly BASE's pfns less PFNS, and every pfn of
  PFNS is in BASE (so each was really dropped); LOG's "Extension filter
  pages" counts them.
--kept: every pfn of PFNS is in WITH, and WITH holds no pfn BASE lacks
  except those.
Either way each page WITH holds equals BASE's (read back through our
reader, dumpread), and PFNS has at least N pfns (--min, default 1).
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
    ap.add_argument('--removed')
    ap.add_argument('--kept')
    ap.add_argument('--report')
    ap.add_argument('--min', type=int, default=1)
    a = ap.parse_args()

    want = {int(line.split()[0], 0) for line in open(a.removed or a.kept) if line.strip()}
    base, with_ext = pfn_set(a.base), pfn_set(a.with_ext)
    problems = []
    if len(want) < a.min:
        problems.append('only %d pfns to check, want at least %d' % (len(want), a.min))
    if a.removed:
        removed = base - with_ext
        if with_ext - base:
            problems.append('%d pfns only in the dump with the extension, e.g. %#x'
                            % (len(with_ext - base), min(with_ext - base)))
        if want - base:
            problems.append('%d of the pfns to remove are not in the base dump, e.g. %#x'
                            % (len(want - base), min(want - base)))
        if want & with_ext:
            problems.append('%d of %d pfns survive, e.g. %#x'
                            % (len(want & with_ext), len(want), min(want & with_ext)))
        if removed - want:
            problems.append('%d other pfns removed too, e.g. %#x'
                            % (len(removed - want), min(removed - want)))
        if a.report:
            m = re.search(r'Extension filter pages\s*:\s*0x([0-9a-f]+)', open(a.report).read())
            if not m or int(m.group(1), 16) != len(removed):
                problems.append('the report says %s extension filter pages, %d removed'
                                % ('0x' + m.group(1) if m else 'no', len(removed)))
        print('%d pfns removed, %d of %d expected' % (len(removed), len(want & removed), len(want)))
    else:
        if want - with_ext:
            problems.append('%d of %d pfns missing, e.g. %#x'
                            % (len(want - with_ext), len(want), min(want - with_ext)))
        if with_ext - base - want:
            problems.append('%d other pfns added, e.g. %#x'
                            % (len(with_ext - base - want), min(with_ext - base - want)))
        print('%d pfns kept, %d of them beyond the base dump'
              % (len(want & with_ext), len(want & with_ext - base)))
    return report_unchanged_pages(a.dumpread, a.with_ext, a.base, base & with_ext, problems)


if __name__ == '__main__':
    sys.exit(main())

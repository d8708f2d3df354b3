#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check what -e (exclude unused vmemmap) left out of a kdump-compressed dump.

vmemmapcheck.py VMCORE PLAIN OURS UPSTREAM UPSTREAM_DEBUG_LOG STRUCT_PAGE_SIZE

PLAIN is our dump at the same level without -e, OURS ours with -e,
UPSTREAM upstream's with -e, and UPSTREAM_DEBUG_LOG what upstream printed
at --message-level 31: its lines "valid: ... pfn P ... pfns R0-R1" say that
the 2 MiB of struct pages at frame P describe the pfns R0..R1 (its walk of
the vmemmap page tables, the oracle here).  The checks (python3-libkdumpfile
reads the page sets):
  - OURS holds PLAIN's pages but the frames it left out, all of them
    frames of struct pages (within upstream's map);
  - each of those frames describes only pfns the VMCORE holds (its
    PT_LOADs) and PLAIN leaves out: nothing an analysis reads is gone;
  - every frame upstream left out, ours left out too.
"""
import re
import sys

import elfread
from testlib import PAGE, pfn_set


def held_runs(path):
    """The runs [start, end) of pfns an ELF dump holds: its PT_LOADs' bytes."""
    return [(p.paddr // PAGE, (p.paddr + p.filesz) // PAGE)
            for p in elfread.loads(elfread.read_headers(path)[1])]


def main():
    if len(sys.argv) != 7:
        raise SystemExit(__doc__)
    vmcore, plain, ours, upstream, log, struct_size = sys.argv[1:]
    per_frame = PAGE // int(struct_size)
    blocks = []
    for m in re.finditer(r'valid: .* pfn (0x[0-9a-f]+) pvaddr \S+ pfns (\S+)-([0-9a-f]+)',
                         open(log).read()):
        blocks.append((int(m.group(1), 16), int(m.group(2), 16)))
    if not blocks:
        raise SystemExit('no vmemmap map in %s' % log)
    held = held_runs(vmcore)
    kept, ours_set, up_set = pfn_set(plain), pfn_set(ours), pfn_set(upstream)
    problems = []
    if ours_set - kept:
        problems.append('%d pages in the -e dump but not in the plain one' % len(ours_set - kept))
    left_out = kept - ours_set
    for frame in sorted(left_out):
        described = None
        for start, first_pfn in blocks:
            if start <= frame < start + (2 << 20) // PAGE:
                first = first_pfn + (frame - start) * per_frame
                described = range(first, first + per_frame)
        if described is None:
            problems.append('frame 0x%x left out holds no struct pages' % frame)
        elif any(p in kept or not any(a <= p < b for a, b in held) for p in described):
            problems.append('frame 0x%x left out describes pfns 0x%x-0x%x, some kept or absent' %
                            (frame, described[0], described[-1]))
    missed = (kept - up_set) - left_out
    if missed:
        problems.append('%d frames upstream left out are kept, e.g. 0x%x' % (len(missed), min(missed)))
    for p in problems[:10]:
        print(p)
    print('%d frames left out (upstream: %d), %d problems' %
          (len(left_out), len(kept - up_set), len(problems)))
    return 1 if problems or not left_out else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check our reader and classification against a generated dump's ground
truth (the facts file tests/gen/mkvmcore writes).

gencheck.py DUMPREAD VMCORE FACTS vtop
    every `vtop VADDR PADDR` translates as stated, every `vtop_fail VADDR`
    is unmapped (the one in the freed kernel-text gap excepted by the
    generator's own note is still checked: the page tables do not map it)
gencheck.py DUMPREAD VMCORE FACTS scan LEVEL
    the pfns our classification keeps at LEVEL are exactly the pages the
    facts keep (zero pages count as kept: a kdump-compressed writer stores
    them as the shared zero page), and the per-category counts match.
    Reserved and kernel image pages flagged PG_lru (the facts' reserved_lru
    and image_lru categories, whose mask says what their flags make of them)
    are kept at every level: the kernel owns them whatever their flags say
    (scan/owned_pages.h)
gencheck.py DUMPREAD VMCORE FACTS markers
    every `marker KIND PFN` page reads through our input code with exactly
    the content the generator wrote
"""
import subprocess
import sys

from testlib import PAGE, digest

CATEGORY_MASK = {'cache': 0x02, 'cache_private': 0x04, 'user': 0x08, 'free': 0x10}
# Pages the kernel owns whatever their flags say: kept but for their zero content.
OWNED = ('reserved_lru', 'reserved_lru_anon', 'image_lru', 'image_lru_anon')


def load_facts(path):
    facts = {'vtop': [], 'vtop_fail': [], 'pages': [], 'marker': [], 'marker_text': {}, 'file': []}
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        if '=' in line.split()[0]:
            key, value = line.strip().split('=', 1)
            facts[key] = value
            continue
        words = line.split()
        kind = words[0]
        if kind == 'vtop':
            facts['vtop'].append((int(words[1], 16), int(words[2], 16)))
        elif kind == 'vtop_fail':
            facts['vtop_fail'].append(int(words[1], 16))
        elif kind == 'pages':
            facts['pages'].append((int(words[1], 16), int(words[2], 0), words[3], int(words[4], 16)))
        elif kind == 'marker':
            facts['marker'].append((words[1], int(words[2], 16)))
        elif kind == 'file':
            facts['file'].append((int(words[1], 16), int(words[2], 16)))
        elif kind == 'marker_text':
            facts['marker_text'][words[1]] = ' '.join(words[2:]).encode()
    return facts


def check_vtop(dumpread, vmcore, facts):
    addrs = [v for v, _ in facts['vtop']] + facts['vtop_fail']
    out = subprocess.run([dumpread, vmcore, 'vtop'] + ['%#x' % a for a in addrs], check=True,
                         capture_output=True, text=True).stdout.split()
    got = dict(zip(out[0::2], out[1::2]))
    bad = 0
    for v, p in facts['vtop']:
        if got.get('%#x' % v) != '%#x' % p:
            print('vtop %#x: ours %s, facts %#x' % (v, got.get('%#x' % v), p))
            bad += 1
    for v in facts['vtop_fail']:
        if got.get('%#x' % v) != 'unmapped':
            print('vtop %#x: ours %s, facts: not mapped' % (v, got.get('%#x' % v)))
            bad += 1
    print('%d translations checked, %d wrong' % (len(addrs), bad))
    return bad


def category_of(mask, level):
    """The report category a page falls in at LEVEL, or None if kept."""
    if mask & 0x100:
        return 'always'
    for name in ('free', 'cache', 'cache_private', 'user'):
        if mask & CATEGORY_MASK[name] & level:
            return name
    return None


def check_scan(dumpread, vmcore, facts, level):
    out = subprocess.run([dumpread, vmcore, 'scan', str(level)], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    ours = set()
    for line in out:
        if line.startswith('dumpable'):
            start, end = (int(x, 16) for x in line.split()[1:])
            ours.update(range(start, end))
    counts = dict(line.split() for line in out if not line.startswith('dumpable'))
    expected, want = set(), {}
    for first, count, category, mask in facts['pages']:
        # Zero pages stay in the bitmap; only the writer sets them apart.
        cat = None if category in OWNED else category_of(mask & ~0x01, level)
        if cat is None:
            expected.update(range(first, first + count))
        else:
            want[cat] = want.get(cat, 0) + count
    bad = 0
    if ours != expected:
        print('kept pfns differ: %d only ours (e.g. %s), %d only the facts (e.g. %s)' % (
            len(ours - expected), [hex(p) for p in sorted(ours - expected)[:4]],
            len(expected - ours), [hex(p) for p in sorted(expected - ours)[:4]]))
        bad += 1
    # A page a cache bit of the level excludes is counted by upstream under the
    # category its PG_private flag says; the facts' mask is per dump-level bit.
    for name in ('free', 'user'):
        if int(counts[name]) != want.get(name, 0):
            print('%s: ours %s, facts %d' % (name, counts[name], want.get(name, 0)))
            bad += 1
    cache = int(counts['cache']) + int(counts['cache_private'])
    if cache != want.get('cache', 0) + want.get('cache_private', 0):
        print('cache: ours %d, facts %d' % (cache, want.get('cache', 0) + want.get('cache_private', 0)))
        bad += 1
    always = int(counts['hwpoison']) + int(counts['offline'])
    if always != want.get('always', 0):
        print('hwpoison+offline: ours %d, facts %d' % (always, want.get('always', 0)))
        bad += 1
    print('level %d: %d pfns kept; %d differences' % (level, len(ours), bad))
    return bad


def expected_marker_page(facts, kind, pfn):
    """Marker, "pfn=0x...;", then 'X' to the end of the page; bytes the file
    does not hold (a partial page) read as zero."""
    text = facts['marker_text'][kind] + b'pfn=%#x;' % pfn
    page = bytearray(text + b'X' * (PAGE - len(text)))
    for i in range(PAGE):
        addr = pfn * PAGE + i
        if not any(start <= addr < end for start, end in facts['file']):
            page[i] = 0
    return bytes(page)


def check_markers(dumpread, vmcore, facts):
    pfns = [pfn for _, pfn in facts['marker']]
    out = subprocess.run([dumpread, vmcore, 'pages'], check=True, capture_output=True, text=True,
                         input=''.join('%#x\n' % p for p in pfns)).stdout.splitlines()
    bad = 0
    for (kind, pfn), line in zip(facts['marker'], out):
        words = line.split()
        want = digest(expected_marker_page(facts, kind, pfn))
        if words[1] != 'ok' or words[2] != want:
            print('marker pfn %#x (%s): ours %s, expected ok %s' % (pfn, kind, ' '.join(words[1:]), want))
            bad += 1
    print('%d marker pages checked, %d wrong' % (len(pfns), bad))
    return bad


def main():
    dumpread, vmcore, facts_path, what = sys.argv[1:5]
    facts = load_facts(facts_path)
    if what == 'vtop':
        bad = check_vtop(dumpread, vmcore, facts)
    elif what == 'scan':
        bad = check_scan(dumpread, vmcore, facts, int(sys.argv[5]))
    else:
        bad = check_markers(dumpread, vmcore, facts)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

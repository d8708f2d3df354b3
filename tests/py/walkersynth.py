#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Lay out a maple tree or an xarray in scratch pages of a dump's copy.

walkersynth.py MDF DUMPREAD DUMP COPY maple-arange|maple-range|xarray PFN...

The shared dumps hold only small maple trees (a dozen VMAs: a root and two
leaves) and small xarrays, so the node shapes of bigger ones (full nodes,
a node ending at its max, three or four levels, dense leaves, reserved and
sibling entries) are built here, as include/linux/maple_tree.h and
include/linux/xarray.h lay them out, with the dump's own BTF offsets, in
the pages PFN... (reached through the direct map).  The pages are written
into COPY; the address of the struct maple_tree or struct xarray is printed
first, then the lines `walkread COPY maple|xarray ADDR` must print.
"""
import os
import re
import struct
import subprocess
import sys

PAGE = 4096
ULONG_MAX = (1 << 64) - 1
XA_ZERO_ENTRY = 257 << 2 | 2
XA_RETRY_ENTRY = 256 << 2 | 2


def btf(mdf, dump, specs):
    out = subprocess.run([mdf, '--dump-type', ','.join('vmlinux:' + s for s in specs), dump],
                         check=True, capture_output=True, text=True).stdout
    facts = {}
    for line in out.splitlines():
        m = re.match(r'vmlinux:(\S+) (?:offset=(\d+) )?size=(\d+)', line)
        if m:
            facts[m.group(1)] = int(m.group(2)) if m.group(2) else int(m.group(3))
    return facts


class Scratch:
    """The pages, as kernel virtual addresses in the direct map."""

    def __init__(self, page_offset, pfns):
        self.pages = [(page_offset + pfn * PAGE, pfn * PAGE, bytearray(PAGE)) for pfn in pfns]
        self.used = 0

    def alloc(self, size, align):
        self.used = (self.used + align - 1) // align * align
        if self.used % PAGE + size > PAGE:
            self.used = (self.used + PAGE - 1) // PAGE * PAGE
        if self.used // PAGE >= len(self.pages):
            raise SystemExit('walkersynth.py: out of scratch pages')
        addr = self.pages[self.used // PAGE][0] + self.used % PAGE
        self.used += size
        return addr

    def put(self, addr, fmt, value):
        for vaddr, _, data in self.pages:
            if vaddr <= addr < vaddr + PAGE:
                struct.pack_into(fmt, data, addr - vaddr, value)
                return
        raise SystemExit('walkersynth.py: 0x%x is not scratch' % addr)

    def u64(self, addr, value):
        self.put(addr, '<Q', value)

    def u8(self, addr, value):
        self.put(addr, '<B', value)

    def patches(self):
        return ['0x%x:%s' % (paddr, data.hex()) for _, paddr, data in self.pages[:self.used // PAGE + 1]]


def maple_segments():
    """Ranges (first, last, entry) covering every index; entry 0 is a gap."""
    segs, index = [], 0
    for i in range(400):
        length = 1 if 150 <= i < 170 else 0x1000 * (1 + i % 3)
        if i % 5 == 3:
            entry = 0
        elif i % 17 == 5:
            entry = XA_ZERO_ENTRY           # reserved: walkers skip it
        else:
            entry = 0xffff888100000000 + i * 0x40
        segs.append((index, index + length - 1, entry))
        index += length
    segs.append((index, ULONG_MAX, 0))
    return segs


def build_maple(mem, f, root_type):
    dense, leaf, rng, arange = 0, 1, 2, 3
    tree = mem.alloc(f['maple_tree'], 8)
    segs = maple_segments()
    # Leaves: varied fills for every way a node's data can end; one dense leaf.
    sizes = [16, 15, 9, 16, 3, 14, 16, 1, 12, 15]
    leaves, i, k = [], 0, 0
    while i < len(segs):
        if segs[i][1] == segs[i][0] and all(s[0] == s[1] for s in segs[i:i + 20]):
            group, kind = segs[i:i + 20], dense
        else:
            n = sizes[k % len(sizes)]
            k += 1
            group, kind = segs[i:i + n], leaf
            # A range leaf may not hold single indices meant for the dense one.
            for j, s in enumerate(group):
                if j and s[0] == s[1]:
                    group = group[:j]
                    break
        i += len(group)
        leaves.append((kind, group))
    # Nodes as (type, min, max, [(last, child_or_entry)], addr).
    level = []
    for kind, group in leaves:
        addr = mem.alloc(256, 256)
        level.append((kind, group[0][0], group[-1][1], [(s[1], s[2]) for s in group], addr))
    fanouts = {rng: [16, 15, 6, 16, 2], arange: [10, 7, 10, 3]}
    height = 1
    while len(level) > 1:
        height += 1
        top = len(level) <= (10 if root_type == arange else 16)
        kind = root_type if top else (arange if root_type == arange else rng)
        parents, i, k = [], 0, 0
        while i < len(level):
            n = len(level) if top else fanouts[kind][k % len(fanouts[kind])]
            k += 1
            group = level[i:i + n]
            i += n
            addr = mem.alloc(256, 256)
            parents.append((kind, group[0][1], group[-1][2], [(c[2], c) for c in group], addr))
        level = parents
    root = level[0]

    def write(node, parent_ptr):
        kind, lo, hi, slots, addr = node
        mem.u64(addr + f['maple_node.parent'], parent_ptr)
        if kind == dense:
            for j, (_, entry) in enumerate(slots):
                mem.u64(addr + f['maple_node.slot'] + 8 * j, entry)
            return
        prefix = 'maple_arange_64' if kind == arange else 'maple_range_64'
        npiv = 9 if kind == arange else 15
        for j, (last, value) in enumerate(slots):
            if j < npiv:
                mem.u64(addr + f[prefix + '.pivot'] + 8 * j, last)
            if isinstance(value, tuple):
                child = value
                mem.u64(addr + f[prefix + '.slot'] + 8 * j, child[4] | child[0] << 3 | 4)
                write(child, addr | j << 3 | 6)
            else:
                mem.u64(addr + f[prefix + '.slot'] + 8 * j, value)
        end = len(slots) - 1
        # ma_data_end(): metadata where the last pivot is 0 (or always, arange).
        if kind == arange or end < npiv - 1:
            mem.u8(addr + f[prefix + '.meta'] + f['maple_metadata.end'], end)

    write(root, tree | 1)
    mem.u64(tree + f['maple_tree.ma_root'], root[4] | root[0] << 3 | 6)
    mem.put(tree + f['maple_tree.ma_flags'], '<I', height << 2 | (1 if root_type == arange else 0))
    expected = ['0x%x 0x%x 0x%x' % s for s in segs
                if s[2] and not (s[2] & 3 == 2 and s[2] < 4096)]
    return tree, expected


def build_xarray(mem, f):
    xa = mem.alloc(64, 8)
    entries = {i: 0xffff888200000000 + i * 0x40 for i in range(11)}
    entries.update({64 + i: (i << 1) | 1 for i in range(7)})        # value entries
    entries.update({5000: 0xffff888200100000, 200000: 0xffff888200200000, 262143: 0xffff888200300000})
    specials = {128: 0xffff888200400000, 129: 2, 130: 2, 131: 2,     # order 2: siblings of slot 0
                200: XA_RETRY_ENTRY, 201: XA_ZERO_ENTRY}
    all_slots = dict(entries)
    all_slots.update(specials)
    nodes = {}

    def node(shift, base, parent, offset):
        key = (shift, base)
        if key not in nodes:
            addr = mem.alloc(f['xa_node'], 1024)
            nodes[key] = addr
            mem.u8(addr + f['xa_node.shift'], shift)
            mem.u8(addr + f['xa_node.offset'], offset)
            mem.u64(addr + f['xa_node.parent'], parent)
            mem.u64(addr + f['xa_node.array'], xa)
        return nodes[key]

    head = node(12, 0, 0, 0)
    for index, entry in sorted(all_slots.items()):
        mid = node(6, index >> 12 << 12, head, index >> 12 & 63)
        mem.u64(head + f['xa_node.slots'] + 8 * (index >> 12 & 63), mid + 2)
        leaf = node(0, index >> 6 << 6, mid, index >> 6 & 63)
        mem.u64(mid + f['xa_node.slots'] + 8 * (index >> 6 & 63), leaf + 2)
        mem.u64(leaf + f['xa_node.slots'] + 8 * (index & 63), entry)
    mem.u64(xa + f['xarray.xa_head'], head + 2)
    given = dict(entries)
    given[128] = specials[128]   # a multi-index entry is given once, at its first index
    return xa, ['%d 0x%x' % e for e in sorted(given.items())]


def main():
    if len(sys.argv) < 7:
        raise SystemExit(__doc__)
    mdf, dumpread, dump, copy, kind = sys.argv[1:6]
    pfns = [int(p, 0) for p in sys.argv[6:]]
    sym = subprocess.run([dumpread, dump, 'symbol', 'page_offset_base'], check=True,
                         capture_output=True, text=True).stdout.split()[1]
    raw = subprocess.run([dumpread, dump, 'virt', sym, '8'], check=True, capture_output=True).stdout
    mem = Scratch(struct.unpack('<Q', raw)[0], pfns)
    f = btf(mdf, dump, ['maple_tree', 'maple_tree.ma_root', 'maple_tree.ma_flags', 'maple_node.parent',
                        'maple_node.slot', 'maple_range_64.pivot', 'maple_range_64.slot',
                        'maple_range_64.meta', 'maple_arange_64.pivot', 'maple_arange_64.slot',
                        'maple_arange_64.meta', 'maple_metadata.end', 'xarray.xa_head', 'xa_node',
                        'xa_node.shift', 'xa_node.offset', 'xa_node.parent', 'xa_node.array',
                        'xa_node.slots'])
    if kind == 'xarray':
        addr, expected = build_xarray(mem, f)
    else:
        addr, expected = build_maple(mem, f, 3 if kind == 'maple-arange' else 2)
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'patchphys.py'), copy]
                   + mem.patches(), check=True, stdout=subprocess.DEVNULL)
    print('0x%x' % addr)
    print('\n'.join(expected))


if __name__ == '__main__':
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A corpus of damaged dumps: each case damages one thing of a dump, runs
makedumpfile -f -l -d 31 --message-level 7 on it and sorts the outcome.

corpus.py --mdf MDF --work DIR [--dumpread DUMPREAD] [--jobs N] [--timeout S] [--only TEXT]
          [--elf NAME PATH KALLSYMS]... [--kdump NAME ELF_NAME]...
          [--budget NAME=CASES]...

--elf      an ELF dump and the kernel's /proc/kallsyms (the guest's, or the
           generator's): the symbols the damage is aimed at
--kdump    a kdump-compressed input made from the --elf dump ELF_NAME with
           makedumpfile -l -d 0, damaged in its own format
--budget   run about CASES of NAME's cases, evenly spread over each damage
           family (at least three of each)
--dumpread checks that dumpread translates the addresses aimed at as we do
--only     run only the cases whose "NAME family position" contains TEXT
           (to reproduce one; with the same --budget)

Each input is copied once into DIR; each case patches the copy, runs, and
puts the bytes back (checked against the pristine file); the truncations
come last, cutting the same copy shorter and shorter.  Inputs run --jobs at
a time, the cases of one input one after the other.

An outcome is
  complete  exit 0, a kdump file python3-libkdumpfile opens and reads,
            not flagged DUMP_DH_COMPRESSED_INCOMPLETE, no warning;
  partial   the same with at least one warning on stderr (an incomplete
            flag is allowed then: the tool said so);
  error     exit 1, one error line (warnings besides it are allowed), no
            output file left behind;
  FAIL      anything else: a signal, a timeout, a sanitizer report, exit 1
            with a file left, an error line that names no cause, exit 0 with
            a file libkdumpfile cannot read or flagged incomplete silently.
Damage the dump level does not need may well end complete.

Writes DIR/results.tsv (NAME family position outcome exit first-line
reproducer), DIR/tally.txt (the counts per input and per family) and prints
the tally and every FAIL.  Exits 0 when the corpus ran (FAILs are results,
counted by the caller), 2 when it could not.
"""
import argparse
import collections
import concurrent.futures
import mmap
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfread  # noqa: E402
from elfread import PT_LOAD, PT_NOTE  # noqa: E402
import kdumpdamage  # noqa: E402  (the kdump-compressed layout)

PAGE = 4096
MASK64 = (1 << 64) - 1
START_KERNEL_MAP = 0xffffffff80000000
# A kernel address no page table of these small guests maps (vmalloc space,
# far above anything allocated).
UNMAPPED = 0xffffc9ffff000000
OUTCOMES = ('complete', 'partial', 'error', 'FAIL')


def u8(v):
    return bytes([v & 0xff])


def u16(v):
    return struct.pack('<H', v & 0xffff)


def u32(v):
    return struct.pack('<I', v & 0xffffffff)


def u64(v):
    return struct.pack('<Q', v & MASK64)


class Case:
    """One damage: patches [(offset, bytes)] or a length to cut the file to."""

    def __init__(self, family, position, patches=(), truncate=None):
        self.family, self.position = family, position
        self.patches, self.truncate = list(patches), truncate

    def reproducer(self, limit=None):
        """corrupt.py's arguments that make the same damaged file."""
        args = []
        for off, data in self.patches:
            if len(data) > 8 and data == data[:1] * len(data):
                args.append('--fill %#x:%#x:%02x' % (off, len(data), data[0]))
            else:
                args.append('--set %#x:%s' % (off, data.hex()))
        if self.truncate is not None:
            args.append('--truncate %#x' % self.truncate)
        text = ' '.join(args)
        if limit and len(text) > limit:
            text = text[:limit] + '...'
        return text


# --- reading the pristine dumps ---------------------------------------------

class Elf:
    """The program headers, notes and physical memory of a pristine ELF dump."""

    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.size = len(self.map)
        header = elfread.read_header(self.map)
        self.phoff, self.phnum = header.phoff, header.phnum
        self.phdrs = [dict(index=i, at=self.phoff + 56 * i, type=p.type, offset=p.offset, vaddr=p.vaddr,
                           paddr=p.paddr, filesz=p.filesz, memsz=p.memsz)
                      for i, p in enumerate(elfread.read_program_headers(self.map, header))]
        self.loads = [p for p in self.phdrs if p['type'] == PT_LOAD]
        self.notes = []
        for p in self.phdrs:
            if p['type'] != PT_NOTE:
                continue
            for n in elfread.notes(self.map[p['offset']:p['offset'] + p['filesz']], header.order):
                self.notes.append(dict(at=p['offset'] + n.offset, namesz=n.namesz, descsz=n.descsz,
                                       type=n.type, name=n.name, name_at=p['offset'] + n.offset + 12,
                                       desc_at=p['offset'] + n.desc_offset))
        vi = [n for n in self.notes if n['name'] == b'VMCOREINFO']
        if not vi:
            raise ValueError('%s: no VMCOREINFO note' % path)
        self.vi_note = vi[0]
        self.vi_text = bytes(self.map[vi[0]['desc_at']:vi[0]['desc_at'] + vi[0]['descsz']])

    def file_offsets(self, paddr, length):
        """Every place in the file holding [paddr, paddr + length)."""
        return [p['offset'] + paddr - p['paddr'] for p in self.loads
                if p['paddr'] <= paddr and paddr + length <= p['paddr'] + p['filesz']]

    def read_phys(self, paddr, length):
        offs = self.file_offsets(paddr, length)
        if not offs:
            raise LookupError('physical %#x is not in the file' % paddr)
        return bytes(self.map[offs[0]:offs[0] + length])

    def phys_u64(self, paddr):
        return struct.unpack('<Q', self.read_phys(paddr, 8))[0]


def parse_vmcoreinfo(text):
    info = collections.OrderedDict()
    for line in text.decode('latin-1').split('\n'):
        if '=' in line:
            key, value = line.split('=', 1)
            info[key] = value
    return info


class Kernel:
    """Symbols and address translation of the crashed kernel, read from the
    pristine dump with x86_64's page-table format: where to aim damage."""

    def __init__(self, elf, kallsyms, mdf):
        self.elf, self.mdf = elf, mdf
        self.vi = parse_vmcoreinfo(elf.vi_text)
        self.syms = {}
        with open(kallsyms) as f:
            for line in f:
                parts = line.split()
                # Kernel lines only: module symbols end with "[module]".
                if len(parts) == 3 and parts[2] not in self.syms:
                    self.syms[parts[2]] = int(parts[0], 16)
        self.phys_base = int(self.vi['NUMBER(phys_base)'])
        self.levels = 5 if self.vi.get('NUMBER(pgtable_l5_enabled)') == '1' else 4
        self.root = self.text_phys(self.sym('init_top_pgt'))

    def sym(self, name):
        key = 'SYMBOL(%s)' % name
        if key in self.vi:
            return int(self.vi[key], 16)
        return self.syms.get(name)

    def number(self, key, default=None):
        value = self.vi.get(key)
        return int(value) if value is not None else default

    def text_phys(self, vaddr):
        return (vaddr - START_KERNEL_MAP + self.phys_base) & MASK64

    def walk(self, vaddr):
        """The page-table entries on the way to @vaddr: [(level, entry
        paddr, entry)], and the physical address (None when unmapped)."""
        shifts = [48, 39, 30, 21, 12][5 - self.levels:]
        table, path = self.root, []
        for depth, shift in enumerate(shifts):
            at = table + ((vaddr >> shift) & 511) * 8
            entry = self.elf.phys_u64(at)
            path.append((self.levels - depth, at, entry))
            if not entry & 1:
                return path, None
            base = entry & 0x000ffffffffff000
            if shift in (30, 21) and entry & 0x80:
                return path, (base & ~((1 << shift) - 1)) | (vaddr & ((1 << shift) - 1))
            table = base
        return path, table | (vaddr & 0xfff)

    def vtop(self, vaddr):
        # The kernel image's mapping is a fixed offset; the modules above
        # it are mapped page by page.
        if START_KERNEL_MAP <= vaddr < START_KERNEL_MAP + self.number('NUMBER(KERNEL_IMAGE_SIZE)', 1 << 30):
            return self.text_phys(vaddr)
        paddr = self.walk(vaddr)[1]
        if paddr is None:
            raise LookupError('%#x is not mapped' % vaddr)
        return paddr

    def read(self, vaddr, length):
        return self.elf.read_phys(self.vtop(vaddr), length)

    def u64(self, vaddr):
        return struct.unpack('<Q', self.read(vaddr, 8))[0]

    def check_aim(self, dumpread):
        """Our reading of the page tables against dumpread's (checked by
        t-vtop against the generator's facts): two readers that agree on
        where things are, or the damage would land elsewhere."""
        vaddrs = [v for v in (self.sym('_stext'), self.sym('init_task'), self.sym('mem_section'),
                              self.sym('prb'), self.sym('__start_BTF')) if v]
        if self.sym('mem_section'):
            vaddrs.append(self.u64(self.sym('mem_section')))
        if self.sym('vmemmap_base'):
            vaddrs.append(self.u64(self.sym('vmemmap_base')) + PAGE * 64)
        if self.sym('modules'):
            vaddrs.append(self.u64(self.sym('modules')))
        out = subprocess.run([dumpread, self.elf.path, 'vtop'] + ['%#x' % v for v in vaddrs],
                             capture_output=True, text=True, check=True).stdout.split()
        theirs = dict(zip(out[::2], out[1::2]))
        for v in vaddrs:
            if theirs.get('%#x' % v) != '%#x' % self.vtop(v):
                raise ValueError('%s: %#x: we aim at %#x, dumpread says %s' % (
                    self.elf.path, v, self.vtop(v), theirs.get('%#x' % v)))

    def member(self, spec):
        """A member's offset, from VMCOREINFO or the dump's BTF
        (makedumpfile --dump-type): where to aim, not what is checked."""
        key = 'OFFSET(%s)' % spec
        if key in self.vi:
            return int(self.vi[key])
        out = subprocess.run([self.mdf, '--dump-type', spec, self.elf.path], capture_output=True,
                             text=True).stdout
        m = re.search(r'offset=(\d+)', out)
        if not m:
            raise LookupError('no offset for %s' % spec)
        return int(m.group(1))


# --- the damage --------------------------------------------------------------

class Builder:
    """Collects cases; a family that cannot find its target is noted, not fatal."""

    def __init__(self, name):
        self.name = name
        self.cases = []
        self.notes = []

    def add(self, family, position, patches=(), truncate=None):
        self.cases.append(Case(family, position, patches, truncate))

    def family(self, fn, *args):
        try:
            fn(self, *args)
        except (LookupError, ValueError, KeyError, struct.error) as e:
            self.notes.append('%s: %s: %s' % (self.name, fn.__name__, e))


def phys_patches(elf, paddr, data):
    """The patches that put @data at @paddr in every copy the file holds (a
    kexec dump has the kernel image twice)."""
    offs = elf.file_offsets(paddr, len(data))
    if not offs:
        raise LookupError('physical %#x is not in the file' % paddr)
    return [(off, data) for off in offs]


def virt_patches(k, vaddr, data):
    patches, done = [], 0
    while done < len(data):
        chunk = min(len(data) - done, PAGE - (vaddr + done) % PAGE)
        patches += phys_patches(k.elf, k.vtop(vaddr + done), data[done:done + chunk])
        done += chunk
    return patches


def elf_header_cases(b, elf):
    def add(pos, off, data):
        b.add('elf-header', pos, [(off, data)])
    add('magic[0]=00', 0, b'\0')
    add('magic[3]=G', 3, b'G')
    for v in (0, 1, 3, 0xff):
        add('class %d' % v, 4, u8(v))
    for v in (0, 2, 3):
        add('data %d' % v, 5, u8(v))
    for v in (0, 2, 0xff):
        add('ident version %d' % v, 6, u8(v))
    add('osabi 0xff', 7, u8(0xff))
    for v in (0, 2, 4, 0xffff):
        add('e_type %d' % v, 16, u16(v))
    for v in (0, 3, 40, 183, 0xffff):
        add('e_machine %d' % v, 18, u16(v))
    for v in (0, 2):
        add('e_version %d' % v, 20, u32(v))
    add('e_entry garbage', 24, u64(0xdeadbeefdeadbeef))
    for v in (0, 1, 8, elf.phoff + 4, elf.phoff + 56, elf.size - 8, elf.size, 1 << 63, MASK64):
        add('e_phoff %#x' % v, 32, u64(v))
    add('e_shoff past the end', 40, u64(elf.size + PAGE))
    add('e_flags 0xffffffff', 48, u32(0xffffffff))
    for v in (0, 1, 0xffff):
        add('e_ehsize %d' % v, 52, u16(v))
    for v in (0, 32, 55, 57, 64, 0xffff):
        add('e_phentsize %d' % v, 54, u16(v))
    for v in sorted({0, 1, 2, elf.phnum - 1, elf.phnum + 1, elf.phnum + 16, 0x7fff, 0xffff}):
        add('e_phnum %d' % v, 56, u16(v))
    add('e_shentsize 0xffff', 58, u16(0xffff))
    add('e_shnum 0xffff', 60, u16(0xffff))
    add('e_shstrndx 0xffff', 62, u16(0xffff))


PHDR_FIELDS = {'type': (0, u32), 'offset': (8, u64), 'vaddr': (16, u64), 'paddr': (24, u64),
               'filesz': (32, u64), 'memsz': (40, u64)}


def phdr_cases(b, elf):
    def add(p, field, label, value):
        off, pack = PHDR_FIELDS[field]
        b.add('program-header', '%d %s %s' % (p['index'], field, label), [(p['at'] + off, pack(value))])

    biggest = max(elf.loads, key=lambda p: p['filesz'])
    for p in elf.phdrs:
        full = p is biggest or p['type'] == PT_NOTE
        add(p, 'type', 'PT_NULL', 0)
        add(p, 'type', 'PT_NOTE' if p['type'] == PT_LOAD else 'PT_LOAD',
            PT_NOTE if p['type'] == PT_LOAD else PT_LOAD)
        add(p, 'type', '0x7fffffff', 0x7fffffff)
        offsets = [('0', 0), ('+1', p['offset'] + 1), ('+page', p['offset'] + PAGE),
                   ('size-page', elf.size - PAGE), ('size', elf.size), ('2^63', 1 << 63)]
        if full:
            offsets += [('-page', max(p['offset'] - PAGE, 0)), ('2^64-page', MASK64 - PAGE + 1)]
        for label, v in offsets:
            add(p, 'offset', label, v)
        sizes = [('0', 0), ('-1', p['filesz'] - 1), ('+page', p['filesz'] + PAGE), ('2^63', 1 << 63)]
        if full:
            sizes += [('1', 1), ('-page', max(p['filesz'] - PAGE, 0)), ('+1', p['filesz'] + 1),
                      ('2^64-1', MASK64)]
        for label, v in sizes:
            add(p, 'filesz', label, v)
        if p['type'] != PT_LOAD:
            add(p, 'memsz', '0', 0)
            continue
        for label, v in [('0', 0), ('filesz-page', max(p['filesz'] - PAGE, 0)),
                         ('filesz+page', p['filesz'] + PAGE), ('2^63', 1 << 63)]:
            add(p, 'memsz', label, v)
        others = [q for q in elf.loads if q is not p]
        paddrs = [('+1', p['paddr'] + 1), ('+page', p['paddr'] + PAGE), ('2^52', 1 << 52),
                  ('2^64-page', MASK64 - PAGE + 1)]
        if p['paddr']:
            paddrs.append(('0', 0))
        if others:
            paddrs.append(('overlapping', others[0]['paddr']))
        for label, v in paddrs:
            add(p, 'paddr', label, v)
        if full:
            add(p, 'vaddr', '0', 0)
            add(p, 'vaddr', '2^64-1', MASK64)


def note_cases(b, elf):
    # The first two notes (PRSTATUS), VMCOREINFO and the last: the others
    # are more of the same.
    picked = elf.notes[:2] + [elf.vi_note] + elf.notes[-1:]
    seen = set()
    for n in picked:
        if n['at'] in seen:
            continue
        seen.add(n['at'])
        tag = '%s@%#x' % (n['name'].decode('latin-1'), n['at'])

        def add(pos, off, data):
            b.add('note', '%s %s' % (tag, pos), [(off, data)])
        for v in (0, n['namesz'] + 1, n['namesz'] + 4, 0x7fffffff, 0xffffffff):
            add('namesz %d' % v, n['at'], u32(v))
        for v in sorted({0, n['descsz'] - 1, n['descsz'] + 1, n['descsz'] + 4, 0x80000000, 0xffffffff}):
            add('descsz %d' % v, n['at'] + 4, u32(v))
        add('type 0xffffffff', n['at'] + 8, u32(0xffffffff))
        add('name[0]=X', n['name_at'], b'X')
        add('name unterminated', n['name_at'] + len(n['name']), b'X')
        if n['type'] == 1 and n['name'] == b'CORE':
            add('prstatus 0xff', n['desc_at'], b'\xff' * n['descsz'])
    note = next(p for p in elf.phdrs if p['type'] == PT_NOTE)
    end = note['offset'] + note['filesz']
    # PT_NOTE grown over 24 bytes of 0xff: what follows the notes in the
    # file (padding, or the first PT_LOAD's data) reads as a note header.
    b.add('note', 'garbage after the last note',
          [(note['at'] + 32, u64(note['filesz'] + 24)), (end, b'\xff' * 24)])


class Vmcoreinfo:
    """Same-length rewrites of a VMCOREINFO text: the note keeps its size,
    so that only the text is damaged.  The BUILD-ID line, which a dump
    filter does not read, takes up the difference in length."""

    def __init__(self, text):
        self.text = text

    def lines(self):
        return self.text.split(b'\n')

    def fit(self, new):
        diff = len(new) - len(self.text)
        if diff:
            m = re.search(rb'^BUILD-ID=([0-9a-f]*)\n', new, re.M)
            if not m:
                raise ValueError('no BUILD-ID line to take up %d bytes' % diff)
            value = m.group(1)
            if diff < 0:
                value += b'0' * -diff
            elif diff <= len(value):
                value = value[:len(value) - diff]
            else:
                raise ValueError('cannot make room for %d bytes' % diff)
            new = new[:m.start(1)] + value + new[m.end(1):]
        assert len(new) == len(self.text)
        return new

    def with_value(self, key, value):
        pat = re.compile(rb'^' + re.escape(key.encode()) + rb'=[^\n]*$', re.M)
        if not pat.search(self.text):
            raise KeyError(key)
        return self.fit(pat.sub(lambda m: key.encode() + b'=' + value.encode(), self.text, 1))

    def without(self, *keys):
        new = self.text
        for key in keys:
            pat = re.compile(rb'^' + re.escape(key.encode()) + rb'=', re.M)
            if not pat.search(new):
                raise KeyError(key)
            # Renamed, not removed: the line is still well formed.
            new = pat.sub(lambda m: b'X' + m.group(0)[1:], new)
        return new

    def last_line_cut(self, key, cut):
        """The line of @key moved to the end and @cut bytes cut off it
        (its newline first)."""
        lines = [l for l in self.lines() if l]
        if key:
            moved = [l for l in lines if l.startswith(key.encode() + b'=')]
            if not moved:
                raise KeyError(key)
            lines = [l for l in lines if l is not moved[0]] + [moved[0]]
        new = b'\n'.join(lines) + b'\n'
        return self.fit(new[:len(new) - cut])


def diff_patch(base, old, new):
    """One patch covering the bytes where @new differs from @old."""
    first = next(i for i in range(len(old)) if old[i] != new[i])
    last = max(i for i in range(len(old)) if old[i] != new[i])
    return [(base + first, new[first:last + 1])]


# Values that do not fit: larger than any field, or than 64 bits.
HUGE = '99999999999999999999'


def vmcoreinfo_cases(b, text, text_at, subset=False):
    vi = Vmcoreinfo(text)
    info = parse_vmcoreinfo(text)

    def add(family, pos, new):
        if new != text:
            b.add(family, pos, diff_patch(text_at, text, new))

    def edit(family, pos, fn, *args):
        try:
            add(family, pos, fn(*args))
        except (KeyError, ValueError) as e:
            b.notes.append('%s: vmcoreinfo %s: %s' % (b.name, pos, e))

    def set_bytes(at, data):
        return text[:at] + data + text[at + len(data):]

    n = len(text)
    # NUL bytes.
    for label, at in [('first byte', 0), ('middle', n // 2), ('last byte', n - 1)]:
        add('vmcoreinfo-nul', 'NUL at %s' % label, set_bytes(at, b'\0'))
    if not subset:
        add('vmcoreinfo-nul', '64 NULs in the middle', set_bytes(n // 2, b'\0' * 64))
        add('vmcoreinfo-nul', 'all NUL', b'\0' * n)
        for key in ('SYMBOL(init_top_pgt)', 'SIZE(page)', 'SYMBOL(mem_section)'):
            at = text.find(key.encode() + b'=')
            if at >= 0:
                add('vmcoreinfo-nul', 'NUL in the value of %s' % key,
                    set_bytes(at + len(key) + 2, b'\0'))
                add('vmcoreinfo-nul', 'NUL in the key %s' % key, set_bytes(at + 2, b'\0'))
    # Cut-off last lines: the text's own last line, and lines that matter
    # moved to the end first.
    for cut in (1, 2, 5):
        edit('vmcoreinfo-cut', 'last line cut by %d' % cut, vi.last_line_cut, None, cut)
    keys = ['SYMBOL(init_top_pgt)', 'SYMBOL(mem_section)', 'SIZE(page)']
    if not subset:
        keys += ['OSRELEASE', 'NUMBER(phys_base)', 'OFFSET(page.flags)', 'PAGESIZE',
                 'SYMBOL(kallsyms_names)']
    for key in keys:
        for cut in (1, 4) if not subset else (4,):
            edit('vmcoreinfo-cut', '%s last, cut by %d' % (key, cut), vi.last_line_cut, key, cut)
    # Lines that are not KEY=VALUE, and other syntax.
    lines = vi.lines()
    victim = next(l for l in lines if l.startswith(b'OFFSET(list_head.prev)=')) \
        if b'OFFSET(list_head.prev)=' in text else lines[len(lines) // 2]
    at = text.find(victim)
    add('vmcoreinfo-syntax', 'a line without =', set_bytes(at, b'x' * len(victim)))
    add('vmcoreinfo-syntax', '0xff over 32 bytes', set_bytes(n // 3, b'\xff' * 32))
    if not subset:
        add('vmcoreinfo-syntax', 'a line of only =', set_bytes(at, b'=' + b' ' * (len(victim) - 1)))
        add('vmcoreinfo-syntax', 'CR before a newline', set_bytes(at + len(victim) - 1, b'\r'))
        add('vmcoreinfo-syntax', 'empty lines', set_bytes(at, b'\n' * len(victim)))
        edit('vmcoreinfo-syntax', 'spaces around =', vi.with_value, 'SIZE(page)', ' 64 ')
        edit('vmcoreinfo-syntax', 'SYMBOL(_stext) not hex', vi.with_value, 'SYMBOL(_stext)',
             'ffffffffxyz00000')
        edit('vmcoreinfo-syntax', 'SIZE(page) not a number', vi.with_value, 'SIZE(page)', 'sixty')
        edit('vmcoreinfo-syntax', 'SIZE(page) empty', vi.with_value, 'SIZE(page)', '')
        # A later duplicate wins: SIZE(page) again, as 0, at the end.
        edit('vmcoreinfo-syntax', 'duplicate SIZE(page)=0', lambda: vi.fit(text + b'SIZE(page)=0\n'))
    # Huge and wrong numbers.
    huge = [('NUMBER(phys_base)', HUGE), ('PAGESIZE', '4294967296'), ('SIZE(page)', HUGE),
            ('SIZE(page)', '0'), ('SYMBOL(mem_section)', 'f' * 17),
            ('NUMBER(SECTION_SIZE_BITS)', '64'), ('NUMBER(MAX_PHYSMEM_BITS)', '99')]
    if not subset:
        huge += [('NUMBER(phys_base)', '-9223372036854775808'), ('PAGESIZE', HUGE), ('PAGESIZE', '0'),
                 ('PAGESIZE', '-4096'), ('SIZE(page)', '1'), ('SIZE(page)', '8'),
                 ('SIZE(page)', '4096'), ('SIZE(page)', '4294967296'), ('SIZE(page)', '-64'),
                 ('SYMBOL(mem_section)', '0'), ('SYMBOL(mem_section)', 'f' * 16),
                 ('SYMBOL(init_top_pgt)', '0'), ('SYMBOL(init_top_pgt)', 'f' * 16),
                 ('SYMBOL(swapper_pg_dir)', '0'), ('SYMBOL(_stext)', '0'),
                 ('NUMBER(SECTION_SIZE_BITS)', '0'), ('NUMBER(SECTION_SIZE_BITS)', HUGE),
                 ('NUMBER(MAX_PHYSMEM_BITS)', '0'), ('NUMBER(MAX_PHYSMEM_BITS)', '64'),
                 ('NUMBER(MAX_PHYSMEM_BITS)', '52'), ('NUMBER(SECTION_SIZE_BITS)', '15'),
                 ('NUMBER(SECTION_SIZE_BITS)', '20'), ('SIZE(page)', '56'), ('SIZE(page)', '72'),
                 ('SIZE(mem_section)', '16'), ('LENGTH(mem_section)', '1'),
                 ('SIZE(mem_section)', '0'), ('SIZE(mem_section)', '4096'),
                 ('SIZE(mem_section)', HUGE), ('LENGTH(mem_section)', '0'),
                 ('LENGTH(mem_section)', '1099511627776'),
                 ('OFFSET(mem_section.section_mem_map)', '4096'),
                 ('OFFSET(mem_section.section_mem_map)', '-1'),
                 ('KERNELOFFSET', 'f' * 16), ('KERNELOFFSET', HUGE),
                 ('NUMBER(pgtable_l5_enabled)', '1'), ('NUMBER(pgtable_l5_enabled)', '5'),
                 ('NUMBER(PG_lru)', '64'), ('NUMBER(PG_lru)', '-1'), ('NUMBER(PG_slab)', '99'),
                 ('NUMBER(PG_head_mask)', '0'), ('NUMBER(PG_hwpoison)', '63'),
                 ('NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)', '0'),
                 ('NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)', '-1'),
                 ('NUMBER(KERNEL_IMAGE_SIZE)', '0'), ('NUMBER(KERNEL_IMAGE_SIZE)', HUGE),
                 ('LENGTH(zone.free_area)', '0'), ('LENGTH(zone.free_area)', '99999'),
                 ('LENGTH(free_area.free_list)', '99999'), ('SIZE(pglist_data)', '0'),
                 ('OFFSET(pglist_data.node_spanned_pages)', '99999999'),
                 ('OFFSET(pglist_data.node_start_pfn)', '-8'),
                 ('OFFSET(zone.free_area)', '99999999'), ('SIZE(zone)', '0'),
                 ('SYMBOL(node_data)', '0'), ('LENGTH(node_data)', HUGE),
                 ('SYMBOL(vmemmap)', '0'), ('NUMBER(VMALLOC_START)', '0'),
                 ('CRASHTIME', HUGE), ('OSRELEASE', ''),
                 ('SYMBOL(prb)', '0'), ('SYMBOL(init_uts_ns)', '0'),
                 ('SYMBOL(kallsyms_num_syms)', '0')]
    for key, value in huge:
        if key in info:
            edit('vmcoreinfo-huge', '%s=%s' % (key, value if len(value) < 24 else value[:8] + '...'),
                 vi.with_value, key, value)
    # Missing lines.
    missing = [('SYMBOL(init_top_pgt)',), ('SYMBOL(mem_section)',), ('SIZE(page)',),
               ('OFFSET(page.flags)',)]
    if not subset:
        missing += [('SYMBOL(swapper_pg_dir)',), ('SYMBOL(init_top_pgt)', 'SYMBOL(swapper_pg_dir)'),
                    ('SYMBOL(_stext)',), ('SYMBOL(init_uts_ns)',), ('SYMBOL(node_data)',),
                    ('SYMBOL(kallsyms_names)',), ('SYMBOL(kallsyms_num_syms)',),
                    ('SYMBOL(kallsyms_token_table)',), ('SYMBOL(kallsyms_token_index)',),
                    ('SYMBOL(kallsyms_offsets)',), ('SYMBOL(prb)',), ('SYMBOL(vmemmap)',),
                    ('OFFSET(page._mapcount)',), ('OFFSET(page.mapping)',),
                    ('OFFSET(page.compound_head)',), ('OFFSET(page.compound_info)',),
                    ('OFFSET(page.private)',), ('NUMBER(phys_base)',), ('KERNELOFFSET',),
                    ('PAGESIZE',), ('OSRELEASE',), ('NUMBER(pgtable_l5_enabled)',),
                    ('NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)',), ('NUMBER(PG_slab)',),
                    ('NUMBER(PG_lru)',), ('SIZE(mem_section)',), ('LENGTH(mem_section)',),
                    ('NUMBER(SECTION_SIZE_BITS)',), ('NUMBER(MAX_PHYSMEM_BITS)',)]
    for keys in missing:
        if all(k in info for k in keys):
            edit('vmcoreinfo-missing', 'no ' + ' '.join(keys), vi.without, *keys)
    if not subset:
        symbols = [k for k in info if k.startswith('SYMBOL(')]
        edit('vmcoreinfo-missing', 'no SYMBOL lines at all', vi.without, *symbols)
    # A few random bytes anywhere, as a bad disk sector or a stray write
    # would leave them.
    rng = random.Random(25)
    for seed in range(8 if not subset else 2):
        new = bytearray(text)
        for _ in range(1 + seed % 4):
            new[rng.randrange(n)] = rng.getrandbits(8)
        add('vmcoreinfo-random', 'random bytes, seed %d' % seed, bytes(new))
    # struct page offsets at or beyond SIZE(page).
    size = int(info['SIZE(page)'])
    page_keys = [k for k in info if k.startswith('OFFSET(page.')]
    values = [size, 4096, 2147483647] if not subset else [size]
    for key in page_keys if not subset else page_keys[:3]:
        for v in values:
            edit('vmcoreinfo-page-offset', '%s=%d' % (key, v), vi.with_value, key, str(v))
    if not subset and 'OFFSET(page.flags)' in info:
        edit('vmcoreinfo-page-offset', 'OFFSET(page.flags)=-8', vi.with_value, 'OFFSET(page.flags)', '-8')
        edit('vmcoreinfo-page-offset', 'OFFSET(page.flags)=%d' % (size - 4), vi.with_value,
             'OFFSET(page.flags)', str(size - 4))


def random_bytes(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def entry_values(entry, table):
    """Bad values for a page-table entry in the page at @table."""
    return [('0', 0), ('~0', MASK64), ('not present', entry & ~1),
            ('beyond RAM', (1 << 45) | 0x63), ('loop to its own table', table | 0x63)]


def pgtable_cases(b, k):
    elf = k.elf
    targets = [('text', k.sym('_stext'))]
    ms = k.sym('mem_section')
    if ms:
        targets.append(('direct map', ms))
    vmemmap_base = k.sym('vmemmap_base')
    if vmemmap_base:
        targets.append(('vmemmap', k.u64(vmemmap_base)))
    elif k.sym('vmemmap'):
        targets.append(('vmemmap', k.sym('vmemmap')))
    mods = k.sym('modules')
    if mods:
        first = k.u64(mods)
        if first != mods:
            targets.append(('module', first))
    seen_top = set()
    for label, vaddr in targets:
        path, _ = k.walk(vaddr)
        level, at, entry = path[0]
        if at not in seen_top:
            seen_top.add(at)
            values = entry_values(entry, k.root) + [('huge-page bit', entry | 0x80),
                                                    ('next page', entry + PAGE)]
            for vlabel, v in values:
                b.add('pgtable-top', '%s entry %d %s' % (label, (at - k.root) // 8, vlabel),
                      phys_patches(elf, at, u64(v)))
        for level, at, entry in path[1:]:
            table = at & ~(PAGE - 1)
            values = entry_values(entry, table)
            if level in (2, 3):
                values.append(('huge-page bit flipped', entry ^ 0x80))
            for vlabel, v in values:
                b.add('pgtable-lower', '%s level %d %s' % (label, level, vlabel),
                      phys_patches(elf, at, u64(v)))
            b.add('pgtable-lower', '%s level %d table zeroed' % (label, level),
                  phys_patches(elf, table, bytes(PAGE)))
            b.add('pgtable-lower', '%s level %d table random' % (label, level),
                  phys_patches(elf, table, random_bytes(random.Random(level), PAGE)))
    b.add('pgtable-top', 'top page zeroed', phys_patches(elf, k.root, bytes(PAGE)))
    b.add('pgtable-top', 'top page 0xff', phys_patches(elf, k.root, b'\xff' * PAGE))
    b.add('pgtable-top', 'every top entry a loop',
          phys_patches(elf, k.root, u64(k.root | 0x63) * 512))
    swapper = k.sym('swapper_pg_dir')
    if swapper and k.text_phys(swapper) != k.root:
        b.add('pgtable-top', 'swapper_pg_dir zeroed',
              phys_patches(elf, k.text_phys(swapper), bytes(PAGE)))


def kallsyms_cases(b, k):
    def add(pos, name, off, data):
        addr = k.sym(name)
        if addr is None:
            b.notes.append('%s: no %s' % (b.name, name))
            return
        b.add('kallsyms', pos, virt_patches(k, addr + off, data))
    for v in (0, 1, 0x7fffffff, 0xffffffff):
        add('num_syms %#x' % v, 'kallsyms_num_syms', 0, u32(v))
    add('names: 64 bytes 0xff', 'kallsyms_names', 0, b'\xff' * 64)
    add('names: a page zeroed', 'kallsyms_names', 0, bytes(PAGE))
    add('names: 256 bytes 0xff further on', 'kallsyms_names', 0x1000, b'\xff' * 256)
    add('token_table zeroed', 'kallsyms_token_table', 0, bytes(1024))
    add('token_table 0xff', 'kallsyms_token_table', 0, b'\xff' * 1024)
    add('token_index 0xff', 'kallsyms_token_index', 0, b'\xff' * 512)
    add('offsets: 64 bytes 0xff', 'kallsyms_offsets', 0, b'\xff' * 64)
    add('offsets: a page zeroed', 'kallsyms_offsets', 0, bytes(PAGE))
    if k.sym('kallsyms_relative_base'):
        add('relative_base 0', 'kallsyms_relative_base', 0, u64(0))
        add('relative_base ~0', 'kallsyms_relative_base', 0, u64(MASK64))
    if k.sym('kallsyms_markers'):
        add('markers 0xff', 'kallsyms_markers', 0, b'\xff' * 64)
    if k.sym('kallsyms_seqs_of_names'):
        add('seqs_of_names 0xff', 'kallsyms_seqs_of_names', 0, b'\xff' * 64)


def btf_cases(b, k):
    start, stop = k.sym('__start_BTF'), k.sym('__stop_BTF')
    if not start or not stop:
        raise LookupError('no __start_BTF/__stop_BTF')
    hdr = k.read(start, 24)
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<IIIII', hdr, 4)

    def add(pos, off, data):
        b.add('btf', pos, virt_patches(k, start + off, data))
    add('magic 0', 0, u16(0))
    add('version 0xff', 2, u8(0xff))
    add('flags 0xff', 3, u8(0xff))
    for v in (0, 0xffffffff):
        add('hdr_len %#x' % v, 4, u32(v))
    add('type_off 0xffffffff', 8, u32(0xffffffff))
    for v in (0, 0xffffffff):
        add('type_len %#x' % v, 12, u32(v))
    add('str_off 0xffffffff', 16, u32(0xffffffff))
    for v in (0, 0xffffffff):
        add('str_len %#x' % v, 20, u32(v))
    types = hdr_len + type_off
    add('first types 0xff', types, b'\xff' * 256)
    add('types in the middle 0xff', types + type_len // 2, b'\xff' * PAGE)
    add('strings zeroed', hdr_len + str_off, bytes(PAGE))
    add('last 64 bytes 0xff', stop - start - 64, b'\xff' * 64)


def list_cases(b, k, family, head_vaddr, next_off, extra):
    """A list_head at @head_vaddr: its pointers, and the first node's."""
    first = k.u64(head_vaddr)

    def add(pos, vaddr, data):
        b.add(family, pos, virt_patches(k, vaddr, data))
    for label, v in [('0', 0), ('~0', MASK64), ('poison', 0xdead000000000100),
                     ('to itself', head_vaddr), ('unmapped', UNMAPPED), ('+1', first + 1)]:
        add('head.next %s' % label, head_vaddr, u64(v))
    add('head.prev 0', head_vaddr + 8, u64(0))
    if first != head_vaddr:
        for label, v in [('0', 0), ('unmapped', UNMAPPED), ('to itself', first)]:
            add('first.next %s' % label, first, u64(v))
        for label, off, data in extra:
            add('first %s' % label, first - next_off + off, data)


def task_cases(b, k):
    tasks = k.member('task_struct.tasks')
    init_task = k.sym('init_task')
    if not init_task:
        raise LookupError('no init_task')
    comm = k.member('task_struct.comm')
    pid = k.member('task_struct.pid')
    list_cases(b, k, 'tasks', init_task + tasks, tasks,
               [('comm 0xff', comm, b'\xff' * 16), ('pid -1', pid, u32(0xffffffff))])
    b.add('tasks', 'init_task: first page zeroed', virt_patches(k, init_task, bytes(PAGE)))


def module_cases(b, k):
    mods = k.sym('modules')
    if not mods:
        raise LookupError('no modules symbol')
    lst = k.member('module.list')
    name = k.member('module.name')
    list_cases(b, k, 'modules', mods, lst,
               [('name 0xff', name, b'\xff' * 56), ('state ~0', 0, u32(0xffffffff))])


def mem_section_cases(b, k):
    ms = k.sym('mem_section')
    size = k.number('SIZE(mem_section)', 32)
    root0 = k.u64(ms)

    def add(pos, vaddr, data):
        b.add('mem_section', pos, virt_patches(k, vaddr, data))
    for label, v in [('0', 0), ('~0', MASK64), ('+1', root0 + 1), ('unmapped', UNMAPPED)]:
        add('root[0] %s' % label, ms, u64(v))
    add('root array 0xff', ms, b'\xff' * 64)
    present = []
    for i in range(PAGE // size):
        v = k.u64(root0 + i * size)
        if v:
            present.append((i, v))
    if not present:
        raise LookupError('no present section')
    picks = collections.OrderedDict()
    for label, (i, v) in [('first', present[0]), ('middle', present[len(present) // 2]),
                          ('last', present[-1])]:
        picks.setdefault(i, (label, v))
    for i, (label, v) in picks.items():
        at = root0 + i * size
        add('%s section (%d) map 0' % (label, i), at, u64(0))
        add('%s section (%d) map ~0' % (label, i), at, u64(MASK64))
        add('%s section (%d) map flags cleared' % (label, i), at, u64(v & ~0x1f))
        add('%s section (%d) map off by 2^40' % (label, i), at, u64(v ^ (1 << 40)))
    add('first section usage ~0', root0 + 8, u64(MASK64))
    add('section array zeroed', root0, bytes(PAGE))


def vmemmap_base(k):
    if k.sym('vmemmap_base'):
        return k.u64(k.sym('vmemmap_base'))
    if k.sym('vmemmap'):
        return k.sym('vmemmap')
    raise LookupError('no vmemmap_base')


def mem_map_cases(b, k):
    vm = vmemmap_base(k)
    size = k.number('SIZE(page)', 64)
    big = max(k.elf.loads, key=lambda p: p['filesz'])
    pfn = ((big['paddr'] + big['filesz'] // 2) // PAGE) & ~63
    page = vm + pfn * size

    def add(pos, vaddr, data):
        b.add('mem_map', pos, virt_patches(k, vaddr, data))
    flags = k.member('page.flags')
    mapcount = k.member('page._mapcount')
    mapping = k.member('page.mapping')
    head = k.number('OFFSET(page.compound_head)', k.number('OFFSET(page.compound_info)', 8))
    add('a page of struct pages 0xff', page, b'\xff' * PAGE)
    add('a page of struct pages zeroed', page, bytes(PAGE))
    add('pfn %#x flags ~0' % pfn, page + flags, u64(MASK64))
    add('pfn %#x compound head unmapped' % pfn, page + head, u64(UNMAPPED | 1))
    add('pfn %#x compound head itself' % pfn, page + head, u64(page | 1))
    add('pfn %#x mapping unmapped' % pfn, page + mapping, u64(UNMAPPED))
    # A free block head whose order runs far past the end of memory.
    private = k.member('page.private')
    b.add('mem_map', 'pfn %#x buddy of order 63' % (pfn + 1),
          virt_patches(k, page + size + mapcount, u32(k.number('NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)', -129))) +
          virt_patches(k, page + size + private, u64(63)))
    add('struct page of pfn 0 0xff', vm, b'\xff' * size)
    # Random struct pages (a fixed seed: the same bytes every run), whole,
    # or a random word in each: random flags, orders, heads, mapcounts.
    rng = random.Random(25)
    for seed in range(2):
        pfn = ((big['paddr'] + rng.randrange(big['filesz'])) // PAGE) & ~63
        add('pfn %#x: a page of random struct pages' % pfn, vm + pfn * size, random_bytes(rng, PAGE))
        pfn = ((big['paddr'] + rng.randrange(big['filesz'])) // PAGE) & ~63
        pages = bytearray(k.read(vm + pfn * size, PAGE))
        for i in range(PAGE // size):
            at = i * size + rng.randrange(size // 8) * 8
            pages[at:at + 8] = random_bytes(rng, 8)
        add('pfn %#x: a random word in each struct page' % pfn, vm + pfn * size, bytes(pages))


def printk_cases(b, k):
    prb = k.sym('prb')
    if not prb:
        raise LookupError('no prb')
    rb = k.u64(prb)

    def add(pos, vaddr, data):
        b.add('printk', pos, virt_patches(k, vaddr, data))
    add('prb 0', prb, u64(0))
    add('prb unmapped', prb, u64(UNMAPPED))
    add('desc_ring.count_bits 63', rb, u32(63))
    add('desc_ring.descs 0', rb + 8, u64(0))
    add('desc_ring.infos ~0', rb + 16, u64(MASK64))
    add('desc_ring.head_id ~0', rb + 24, u64(MASK64))
    add('text_data_ring.size_bits 64', rb + 48, u32(64))
    add('text_data_ring.data 0', rb + 56, u64(0))


def node_cases(b, k):
    nd = k.sym('node_data')
    if not nd:
        raise LookupError('no node_data')
    pgdat = k.u64(nd)

    def add(pos, vaddr, data):
        b.add('node_data', pos, virt_patches(k, vaddr, data))
    add('node_data[0] 0', nd, u64(0))
    add('node_data[0] unmapped', nd, u64(UNMAPPED))
    for key, v in [('OFFSET(pglist_data.node_spanned_pages)', 1 << 50),
                   ('OFFSET(pglist_data.node_start_pfn)', 1 << 50),
                   ('OFFSET(pglist_data.nr_zones)', 99)]:
        if key in k.vi:
            add('%s %#x' % (key[7:-1], v), pgdat + int(k.vi[key]), u64(v))
    zones = int(k.vi.get('OFFSET(pglist_data.node_zones)', 0))
    if 'OFFSET(zone.spanned_pages)' in k.vi:
        add('zone 0 spanned_pages 2^50', pgdat + zones + int(k.vi['OFFSET(zone.spanned_pages)']),
            u64(1 << 50))
    if 'OFFSET(zone.free_area)' in k.vi:
        add('zone 1 free lists unmapped', pgdat + zones + int(k.vi.get('SIZE(zone)', 0)) +
            int(k.vi['OFFSET(zone.free_area)']), u64(UNMAPPED) * 8)


def misc_cases(b, k):
    uts = k.sym('init_uts_ns')
    if uts:
        b.add('utsname', 'init_uts_ns.name 0xff', virt_patches(k, uts + 4, b'\xff' * 390))
        b.add('utsname', 'init_uts_ns zeroed', virt_patches(k, uts, bytes(PAGE)))
    # Page data the dump level keeps as it is.
    b.add('page-data', 'first page 0xff', phys_patches(k.elf, k.elf.loads[0]['paddr'], b'\xff' * PAGE))
    big = max(k.elf.loads, key=lambda p: p['filesz'])
    b.add('page-data', 'a page in the middle 0xff',
          phys_patches(k.elf, big['paddr'] + big['filesz'] // 2 & ~(PAGE - 1), b'\xff' * PAGE))


def truncate_cases(b, elf):
    lengths = [('last page: 1 byte short', elf.size - 1), ('last page: half', elf.size - PAGE // 2),
               ('last page: cut off', elf.size - PAGE)]
    big = max(elf.loads, key=lambda p: p['filesz'])
    end = big['offset'] + big['filesz']
    for label, at in [('3/4', big['offset'] + big['filesz'] * 3 // 4),
                      ('1/2 + 123', big['offset'] + big['filesz'] // 2 + 123),
                      ('one page in', big['offset'] + PAGE)]:
        lengths.append(('mid-data: biggest PT_LOAD %s' % label, at))
    if end < elf.size:
        lengths.append(('after the biggest PT_LOAD', end))
    for p in elf.loads:
        lengths.append(('at PT_LOAD %d' % p['index'], p['offset']))
        lengths.append(('1 byte into PT_LOAD %d' % p['index'], p['offset'] + 1))
    note = next(p for p in elf.phdrs if p['type'] == PT_NOTE)
    vi = elf.vi_note
    lengths += [('after the notes', note['offset'] + note['filesz']),
                ('mid-notes: in VMCOREINFO', vi['desc_at'] + vi['descsz'] // 2),
                ('mid-notes: VMCOREINFO header', vi['at'] + 6),
                ('mid-notes: in the first note', note['offset'] + 20),
                ('at the notes', note['offset']),
                ('header: in the program headers', elf.phoff + 56 + 3),
                ('header: after the ELF header', 64), ('header: 63 bytes', 63),
                ('header: 52 bytes', 52), ('header: 16 bytes', 16), ('header: 5 bytes', 5),
                ('header: 1 byte', 1), ('header: empty', 0)]
    seen = set()
    for label, length in sorted(lengths, key=lambda x: -x[1]):
        if length not in seen and 0 <= length < elf.size:
            seen.add(length)
            b.add('truncate', label, truncate=length)


def elf_cases(name, elf, kernel):
    b = Builder(name)
    b.add('none', 'undamaged')
    b.family(elf_header_cases, elf)
    b.family(phdr_cases, elf)
    b.family(note_cases, elf)
    b.family(vmcoreinfo_cases, elf.vi_text, elf.vi_note['desc_at'])
    for fn in (pgtable_cases, kallsyms_cases, btf_cases, task_cases, module_cases,
               mem_section_cases, mem_map_cases, printk_cases, node_cases, misc_cases):
        b.family(fn, kernel)
    b.family(truncate_cases, elf)
    return b


# --- kdump-compressed input ---------------------------------------------------

DH_SIZE, PD_SIZE = 464, 24


def kdump_cases(name, path, kernel):
    """Damage to a kdump-compressed file made with -l -d 0 from @kernel's dump."""
    b = Builder(name)
    lay = kdumpdamage.Layout(path)
    with open(path, 'rb') as f:
        data = f.read()
    size = len(data)
    sh = lay.block
    b.add('none', 'undamaged')

    def hdr(pos, off, value):
        b.add('kdump-header', pos, [(off, value)])
    hdr('signature[0]=X', 0, b'X')
    for v in (0, 1, 5, 7, -1):
        hdr('header_version %d' % v, 8, struct.pack('<i', v))
    hdr('utsname 0xff', 12, b'\xff' * 390)
    hdr('timestamp ~0', 408, u64(MASK64) * 2)
    status, = struct.unpack_from('<I', data, 424)
    for label, v in [('incomplete', status | 0x8), ('~0', 0xffffffff), ('0', 0),
                     ('zlib and lzo', 0x3)]:
        hdr('status %s' % label, 424, u32(v))
    for v in (0, 1, 12345, 8192, 1 << 30, -4096):
        hdr('block_size %d' % v, 428, struct.pack('<i', v))
    for v in (0, -1, 1 << 30, struct.unpack_from('<i', data, 432)[0] + 1):
        hdr('sub_hdr_size %d' % v, 432, struct.pack('<i', v))
    for v in (0, 1, lay.bitmap_blocks + 2, 0xffffffff):
        hdr('bitmap_blocks %#x' % v, 436, u32(v))
    for v in (0, 1, 0xffffffff):
        hdr('max_mapnr (32 bits) %#x' % v, 440, u32(v))
    for v in (0, -1, 0x7fffffff):
        hdr('nr_cpus %d' % v, 460, struct.pack('<i', v))
    # Before version 6 the 32-bit max_mapnr is the only one.
    for version, mapnr in [(5, 0), (5, 1), (5, 0xffffffff), (3, lay.max_mapnr // 2)]:
        b.add('kdump-header', 'header_version %d, max_mapnr %#x' % (version, mapnr),
              [(8, struct.pack('<i', version)), (440, u32(mapnr))])

    def sub(pos, off, value):
        b.add('kdump-subheader', pos, [(sh + off, value)])
    sub('phys_base ~0', 0, u64(MASK64))
    for v in (31, -1, 0x7fffffff):
        sub('dump_level %d' % v, 8, struct.pack('<i', v))
    sub('split 1, start_pfn_64 > end_pfn_64', 12, struct.pack('<i', 1) + bytes(64) +
        u64(100) + u64(10))
    sub('split 1, end_pfn_64 2^60', 12, struct.pack('<i', 1) + bytes(64) + u64(0) + u64(1 << 60))
    off_vi, size_vi = struct.unpack_from('<QQ', data, sh + 32)
    for label, v in [('0', 0), ('size-10', size - 10), ('2^63', 1 << 63), ('+1', off_vi + 1)]:
        sub('offset_vmcoreinfo %s' % label, 32, u64(v))
    for label, v in [('0', 0), ('1', 1), ('-1', size_vi - 1), ('2^40', 1 << 40)]:
        sub('size_vmcoreinfo %s' % label, 40, u64(v))
    off_note, size_note = struct.unpack_from('<QQ', data, sh + 48)
    for label, v in [('0', 0), ('2^63', 1 << 63), ('+4', off_note + 4)]:
        sub('offset_note %s' % label, 48, u64(v))
    for label, v in [('0', 0), ('-4', size_note - 4), ('2^40', 1 << 40)]:
        sub('size_note %s' % label, 56, u64(v))
    sub('notes 0xff', off_note - sh, b'\xff' * min(size_note, 512))
    sub('split 1, first half', 12, struct.pack('<i', 1) + bytes(64) + u64(0) + u64(lay.max_mapnr // 2))
    sub('eraseinfo at 0, 100 bytes', 64, u64(0) + u64(100))
    sub('eraseinfo past the end', 64, u64(size + PAGE) + u64(100))
    sub('size_eraseinfo 2^40', 64, u64(off_vi) + u64(1 << 40))
    for label, v in [('0', 0), ('1', 1), ('-1', lay.max_mapnr - 1), ('x2', lay.max_mapnr * 2),
                     ('2^60', 1 << 60)]:
        sub('max_mapnr_64 %s' % label, 96, u64(v))

    # The VMCOREINFO copy, as in an ELF dump.
    sub_b = Builder(name)
    vmcoreinfo_cases(sub_b, data[off_vi:off_vi + size_vi], off_vi, subset=True)
    b.cases += [Case('kdump-' + c.family, c.position, c.patches) for c in sub_b.cases]
    b.notes += sub_b.notes

    # Bitmaps.
    half = lay.bitmap_blocks * lay.block // 2
    bm1, bm2 = lay.bitmap, lay.bitmap + half
    used = (lay.max_mapnr + 7) // 8

    def bm(pos, off, value):
        b.add('kdump-bitmap', pos, [(off, value)])
    bm('1st: first byte 0', bm1, b'\0')
    bm('1st: first page zeroed', bm1, bytes(min(PAGE, used)))
    bm('1st: middle byte 0', bm1 + used // 2, b'\0')
    bm('1st: all zero', bm1, bytes(half))
    bm('1st: 0xff in the low hole', bm1 + 0xa0 // 8, b'\xff' * 8)
    if half >= used + 64:
        bm('1st: 0xff after max_mapnr', bm1 + used, b'\xff' * 64)
    bm('2nd: all zero', bm2, bytes(half))
    bm('2nd: first byte 0', bm2, b'\0')
    bm('2nd: first page zeroed', bm2, bytes(min(PAGE, used)))
    bm('2nd: middle byte 0', bm2 + used // 2, b'\0')
    bm('2nd: 0xff in the low hole', bm2 + 0xa0 // 8, b'\xff' * 8)
    bm('2nd: last byte 0', bm2 + used - 1, b'\0')
    bm('2nd: last byte 0xff', bm2 + used - 1, b'\xff')
    if half >= used + 64:
        bm('2nd: 0xff after max_mapnr', bm2 + used, b'\xff' * 64)
    bm('both: all 0xff', bm1, b'\xff' * (2 * half))
    rng = random.Random(25)
    for which, base in (('1st', bm1), ('2nd', bm2)):
        at = base + rng.randrange(max(1, used - 512))
        bm('%s: 512 random bytes at %#x' % (which, at), at, random_bytes(rng, 512))

    # Page descriptors and page data.
    table = data[lay.desc:lay.desc + len(lay.dumped) * PD_SIZE]
    offsets = [struct.unpack_from('<q', table, i * PD_SIZE)[0] for i in range(len(lay.dumped))]
    index = {pfn: i for i, pfn in enumerate(lay.dumped)}
    by_offset = sorted(range(len(offsets)), key=lambda i: offsets[i])
    common = collections.Counter(offsets).most_common(1)[0][0]
    distinct = sorted(set(offsets))
    targets = [('first', by_offset[0]), ('mid', offsets.index(distinct[len(distinct) // 2])),
               ('last', by_offset[-1]), ('shared zero page', offsets.index(common))]
    # Pages the filter itself reads: the top page table, the mem_section
    # array, struct pages.
    kernel_pages = []
    try:
        kernel_pages.append(('top page table', kernel.root // PAGE))
        ms = kernel.sym('mem_section')
        kernel_pages.append(('mem_section root', kernel.vtop(ms) // PAGE))
        kernel_pages.append(('mem_section array', kernel.vtop(kernel.u64(ms)) // PAGE))
        vm = vmemmap_base(kernel)
        kernel_pages.append(('struct pages', kernel.vtop(vm + (lay.max_mapnr // 2) * 64) // PAGE))
    except (LookupError, KeyError) as e:
        b.notes.append('%s: kernel pages: %s' % (name, e))
    for label, pfn in kernel_pages:
        if pfn in index:
            targets.append((label, index[pfn]))
    for label, i in targets:
        d = lay.desc + i * PD_SIZE
        off, csize, flags, _ = struct.unpack_from('<qIIQ', data, d)
        tag = '%s (pfn %#x)' % (label, lay.dumped[i])

        def desc(pos, at, value):
            b.add('kdump-desc', '%s %s' % (tag, pos), [(d + at, value)])
        desc('offset past the end', 0, u64(size + PAGE))
        desc('size 0', 8, u32(0))
        desc('size 4097', 8, u32(PAGE + 1))
        desc('flags zlib|zstd', 12, u32(0x21))
        desc('zeroed', 0, bytes(PD_SIZE))
        if label in ('first', 'mid', 'last', 'shared zero page'):
            desc('offset 0', 0, u64(0))
            desc('offset -1', 0, u64(MASK64))
            desc('offset into the descriptors', 0, u64(lay.desc))
            desc('offset +1', 0, u64(off + 1))
            desc('size 0xffffffff', 8, u32(0xffffffff))
            desc('size -1', 8, u32(csize - 1))
            desc('flags 0x80', 12, u32(0x80))
            if flags:
                desc('flags 0', 12, u32(0))
        if off > 0 and off + csize <= size:
            def page(pos, at, value):
                b.add('kdump-data', '%s %s' % (tag, pos), [(off + at, value)])
            page('first 16 bytes 0xff', 0, b'\xff' * min(16, csize))
            page('zeroed', 0, bytes(csize))
            page('middle byte flipped', csize // 2, u8(data[off + csize // 2] ^ 0x5a))
    b.add('kdump-desc', 'a page of descriptors 0xff', [(lay.desc + len(table) // 2 & ~7, b'\xff' * PAGE)])
    b.add('kdump-desc', 'a page of descriptors zeroed', [(lay.desc + len(table) // 2 & ~7, bytes(PAGE))])
    for i in sorted(rng.randrange(len(lay.dumped) - 170) for _ in range(3)):
        b.add('kdump-desc', 'descriptors %d-%d random' % (i, i + 169),
              [(lay.desc + i * PD_SIZE, random_bytes(rng, 170 * PD_SIZE))])

    mid_off = offsets[targets[1][1]]
    cuts = [('1 byte short', size - 1), ('last page cut off', size - PAGE), ('mid-data', mid_off + 1),
            ('in the descriptors', lay.desc + 1000), ('in the 2nd bitmap', bm2 + 100),
            ('in the 1st bitmap', bm1 + 100), ('in the sub header', sh + 50),
            ('in the disk header', 100), ('empty', 0)]
    for label, length in sorted(cuts, key=lambda x: -x[1]):
        b.add('kdump-truncate', label, truncate=length)
    return b


def sample(cases, budget):
    """About @budget of @cases, evenly spread over each family (at least
    three of each), so that a large dump's corpus fits its time."""
    if not budget or len(cases) <= budget:
        return cases
    families = collections.OrderedDict()
    for c in cases:
        families.setdefault(c.family, []).append(c)
    picked = []
    for members in families.values():
        quota = max(min(len(members), 3), round(len(members) * budget / len(cases)))
        picked += [members[i * len(members) // quota] for i in range(quota)]
    return picked


# --- running -------------------------------------------------------------------

# report.c's "\r%-50s: [%3u.%u %%] %c  %16s": a message printed while it is
# on screen follows it on the same line.
PROGRESS = re.compile(r'^[^\r\n]*?: \[[ \d]{3}\.\d %\] .  .{16}')
WARNING = re.compile(r'\bwarning\b', re.I)
SANITIZER = re.compile(r'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:')
# An error that names no cause: strerror(0) where an error code was lost.
NO_CAUSE = re.compile(r'(: |^)(Success|no error|Unknown error 0)\.?$', re.I)


def message_lines(stderr):
    """stderr's lines without the progress indicator (redrawn with \\r)."""
    lines = []
    for line in stderr.split('\n'):
        for seg in line.split('\r'):
            seg = PROGRESS.sub('', seg).strip()
            if seg:
                lines.append(seg)
    return lines


def check_output(path):
    """None when @path is a kdump file libkdumpfile opens and reads, else
    the problem; and whether it is flagged incomplete."""
    import kdumpfile
    try:
        with open(path, 'rb') as f:
            head = f.read(DH_SIZE)
        if head[:8] != b'KDUMP   ':
            return 'not a kdump-compressed file', False
        incomplete = bool(struct.unpack_from('<I', head, 424)[0] & 0x8)
        import testlib
        runs = testlib.pagemap_runs(path)
        ends = [runs[0][0], runs[-1][1] - 1] if runs else []
        if incomplete:
            # A zero descriptor is a page the dump lacks and says so; the
            # first and last with data must read.
            import incompletecheck
            _, pfns, descs, _ = incompletecheck.layout(path)
            held = [pfn for pfn, (offset, _, _) in zip(pfns, descs) if offset]
            ends = [held[0], held[-1]] if held else []
        k = kdumpfile.kdumpfile(path)
        for pfn in ends:
            if len(k.read(kdumpfile.KDUMP_MACHPHYSADDR, pfn * PAGE, PAGE)) != PAGE:
                return 'pfn %#x: short read' % pfn, incomplete
        return None, incomplete
    except Exception as e:  # whatever libkdumpfile raises is the finding
        return 'libkdumpfile: %s: %s' % (type(e).__name__, e), False


class Checker:
    """check_output in a child process: libkdumpfile may crash on a bad
    file, and that is a finding about the file, not the end of the corpus."""

    def __init__(self):
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--check-server'],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def check(self, path):
        if not self.proc:
            self.start()
        try:
            self.proc.stdin.write(path + '\n')
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = ''
        if not line:
            status = self.proc.wait()
            self.proc = None
            return 'libkdumpfile crashed on it (status %d)' % status, False
        verdict, incomplete, problem = line.rstrip('\n').split(' ', 2)
        return (None if verdict == 'ok' else problem), incomplete == '1'

    def close(self):
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait()


def check_server():
    for line in sys.stdin:
        problem, incomplete = check_output(line.rstrip('\n'))
        print('%s %d %s' % ('bad' if problem else 'ok', incomplete, problem or ''), flush=True)
    return 0


def classify(rc, stderr, out, checker):
    """(outcome, why)."""
    lines = message_lines(stderr)
    warnings = [l for l in lines if WARNING.search(l)]
    errors = [l for l in lines if not WARNING.search(l)]
    exists = os.path.exists(out)
    if rc in (124, 137):
        return 'FAIL', 'timed out'
    if rc < 0 or rc > 128:
        sig = -rc if rc < 0 else rc - 128
        try:
            return 'FAIL', 'killed by %s' % signal.Signals(sig).name
        except ValueError:
            return 'FAIL', 'killed by signal %d' % sig
    if rc in (98, 99) or SANITIZER.search(stderr):
        return 'FAIL', 'sanitizer report (exit %d)' % rc
    if rc == 0:
        if not exists:
            return 'FAIL', 'exit 0 without an output file'
        if errors:
            return 'FAIL', 'exit 0 with %d error lines' % len(errors)
        problem, incomplete = checker.check(out)
        if problem:
            return 'FAIL', 'exit 0, output unreadable: %s' % problem
        if incomplete and not warnings:
            return 'FAIL', 'exit 0, output flagged incomplete without a warning'
        return ('partial', '%d warnings' % len(warnings)) if warnings else ('complete', '')
    if rc == 1:
        if exists:
            return 'FAIL', 'exit 1 and the output file left behind'
        if len(errors) != 1:
            return 'FAIL', 'exit 1 with %d error lines' % len(errors)
        if NO_CAUSE.search(errors[0]):
            return 'FAIL', 'the error names no cause'
        return 'error', ''
    return 'FAIL', 'exit status %d' % rc


class Copy:
    """The private copy of an input, patched and put back case by case."""

    def __init__(self, pristine, path):
        self.pristine, self.path = pristine, path
        shutil.copyfile(pristine, path)
        self.f = open(path, 'r+b')

    def apply(self, patches):
        undo = []
        for off, data in patches:
            self.f.seek(off)
            undo.append((off, self.f.read(len(data))))
            self.f.seek(off)
            self.f.write(data)
        self.f.flush()
        return undo[::-1]

    def restore(self, undo):
        for off, data in undo:
            self.f.seek(off)
            self.f.write(data)
        self.f.flush()
        # The next case must see the pristine bytes, or it tests two damages.
        with open(self.pristine, 'rb') as p:
            for off, data in undo:
                p.seek(off)
                self.f.seek(off)
                if p.read(len(data)) != self.f.read(len(data)):
                    raise RuntimeError('%s: bytes at %#x not restored' % (self.path, off))

    def close(self):
        self.f.close()
        os.unlink(self.path)


def run_case(args, checker, dump, out):
    if os.path.exists(out):
        os.unlink(out)
    cmd = ['timeout', '-k', '5', str(args.timeout), args.mdf, '-f', '-l', '-d', '31',
           '--message-level', '7', dump, out]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = p.stderr.decode('utf-8', 'replace')
    outcome, why = classify(p.returncode, stderr, out, checker)
    lines = message_lines(stderr)
    # A sanitizer's report starts with a rule of '='; its summary says where.
    summary = [l for l in lines if l.startswith('SUMMARY:') or 'runtime error:' in l]
    first = summary[0] if summary else lines[0] if lines else ''
    if os.path.exists(out):
        os.unlink(out)
    return outcome, p.returncode, why, first, stderr


def run_input(args, name, kind, pristine, cases):
    """Runs @cases on a private copy of @pristine; returns result rows."""
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    copy = Copy(pristine, os.path.join(work, 'damaged'))
    out = os.path.join(work, 'out.kdump')
    rows = []
    started = time.time()
    checker = Checker()
    try:
        patched = [c for c in cases if c.truncate is None]
        cut = sorted((c for c in cases if c.truncate is not None), key=lambda c: -c.truncate)
        for c in patched:
            undo = copy.apply(c.patches)
            try:
                result = run_case(args, checker, copy.path, out)
            finally:
                copy.restore(undo)
            rows.append((c, result))
        # Shorter and shorter: each cut needs only the bytes before it.
        for c in cut:
            copy.f.truncate(c.truncate)
            copy.f.flush()
            rows.append((c, run_case(args, checker, copy.path, out)))
    finally:
        copy.close()
        checker.close()
    print('%s: %d cases in %.0f s' % (name, len(rows), time.time() - started), flush=True)
    return rows


def main():
    if sys.argv[1:] == ['--check-server']:
        return check_server()
    ap = argparse.ArgumentParser()
    ap.add_argument('--mdf', required=True)
    ap.add_argument('--dumpread')
    ap.add_argument('--work', required=True)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=int, default=60)
    ap.add_argument('--only')
    ap.add_argument('--elf', nargs=3, action='append', default=[],
                    metavar=('NAME', 'PATH', 'KALLSYMS'))
    ap.add_argument('--kdump', nargs=2, action='append', default=[], metavar=('NAME', 'ELF_NAME'))
    ap.add_argument('--budget', action='append', default=[], metavar='NAME=CASES')
    args = ap.parse_args()
    budgets = dict((n, int(v)) for n, v in (b.split('=') for b in args.budget))
    os.makedirs(args.work, exist_ok=True)

    elves, inputs, notes = {}, [], []
    for name, path, kallsyms in args.elf:
        elf = Elf(path)
        kernel = Kernel(elf, kallsyms, args.mdf)
        if args.dumpread:
            kernel.check_aim(args.dumpread)
        elves[name] = (path, kernel)
        b = elf_cases(name, elf, kernel)
        inputs.append((name, 'elf', path, sample(b.cases, budgets.get(name)), None))
        notes += b.notes
    for name, source in args.kdump:
        path, kernel = elves[source]
        base = os.path.join(args.work, name + '.base.kdump')
        p = subprocess.run([args.mdf, '-f', '-l', '-d', '0', '--message-level', '0', path, base],
                           capture_output=True, text=True)
        if p.returncode:
            print('corpus.py: makedumpfile -l -d 0 %s failed: %s' % (path, p.stderr), file=sys.stderr)
            return 2
        b = kdump_cases(name, base, kernel)
        inputs.append((name, 'kdump', base, sample(b.cases, budgets.get(name)),
                       'makedumpfile -f -l -d 0 %s %s' % (path, base)))
        notes += b.notes
    for n in notes:
        print('note: could not aim at %s' % n)
    if args.only:
        inputs = [(n, k, p, [c for c in cs if args.only in '%s %s %s' % (n, c.family, c.position)], s)
                  for n, k, p, cs, s in inputs]

    results = {}
    # Longest first, so that two workers end together.
    order = sorted(inputs, key=lambda i: -os.path.getsize(i[2]) * (len(i[3]) + 1))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_input, args, n, k, p, cs): n for n, k, p, cs, _ in order}
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()

    tally = []
    with open(os.path.join(args.work, 'results.tsv'), 'w') as tsv, \
            open(os.path.join(args.work, 'failures.txt'), 'w') as failures:
        for name, kind, path, cases, source in inputs:
            rows = results[name]
            per_family = collections.OrderedDict()
            total = collections.Counter()
            for c, (outcome, rc, why, first, stderr) in rows:
                per_family.setdefault(c.family, collections.Counter())[outcome] += 1
                total[outcome] += 1
                tsv.write('\t'.join([name, c.family, c.position, outcome, str(rc), first.replace('\t', ' '),
                                     c.reproducer()]) + '\n')
                if outcome != 'FAIL':
                    continue
                # What to type to see it again: the input (a kdump file is
                # made first), the damage, the run.
                steps = ([source] if source else []) + \
                    ['tests/py/corrupt.py %s damaged %s' % (path, c.reproducer(limit=200)),
                     'makedumpfile -f -l -d 31 --message-level 7 damaged out']
                print('FAIL %s %s [%s]: %s; exit %d: %s\n    reproduce: %s' % (
                    name, c.family, c.position, why, rc, first[:300] or '(no message)',
                    '; '.join(steps)))
                steps[-2] = 'tests/py/corrupt.py %s damaged %s' % (path, c.reproducer())
                failures.write('%s %s [%s]: %s; exit %d\n%s\n--- stderr:\n%s\n\n' % (
                    name, c.family, c.position, why, rc, '\n'.join('  ' + x for x in steps),
                    stderr[-3000:]))
            tally.append((name, kind, len(rows), total, per_family))

    text = []
    row = '%-34s %8s %8s %8s %8s %8s'
    for name, kind, n, total, per_family in tally:
        text.append('%s (%s): %d cases' % (name, kind, n))
        text.append(row % (('family',) + OUTCOMES + ('total',)))
        for family, counts in per_family.items():
            text.append(row % ((family,) + tuple(counts[o] for o in OUTCOMES) + (sum(counts.values()),)))
        text.append(row % (('all',) + tuple(total[o] for o in OUTCOMES) + (n,)))
        text.append('')
    text.append(row % (('every input',) + tuple(sum(t[3][o] for t in tally) for o in OUTCOMES) +
                       (sum(t[2] for t in tally),)))
    with open(os.path.join(args.work, 'tally.txt'), 'w') as f:
        f.write('\n'.join(text) + '\n')
    print('\n'.join(text))
    # One line per input for the caller: NAME KIND CASES FAILS.
    with open(os.path.join(args.work, 'verdicts'), 'w') as f:
        for name, kind, n, total, _ in tally:
            f.write('%s %s %d %d\n' % (name, kind, n, total['FAIL']))
    return 0


if __name__ == '__main__':
    sys.exit(main())

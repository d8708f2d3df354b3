#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make the fuzz harnesses' seed corpora from the project's own sample dumps.

corpus.py OUT MKVMCORE MAKEDUMPFILE DUMPREAD

OUT/NAME/ receives the seeds of tests/fuzz/fuzz_NAME.c, each named after
what it is, in the harness's input format (its header comment says which);
inputs libFuzzer added to OUT/NAME earlier stay.  The generator's dumps
are 64 MiB, and libFuzzer mutates small inputs best, so each seed keeps
the parts of a dump that its reader looks at first (headers, notes,
bitmaps, tables) and a few pages:

  elf_input    mkvmcore's kexec, QEMU and 5-level dumps, makedumpfile -E's,
               arm64 dumps in three page sizes, ppc64 dumps of both MMUs,
               both page sizes and both byte orders, and riscv64 ones in
               Sv39, Sv48 and Sv57 (QEMU's layout: VMCOREINFO only in memory),
               s390x ones (big-endian) with 3, 4 and 5 levels in both layouts,
               each PT_LOAD cut to its first pages plus the page-table pages
               that translate a few symbols (and riscv64's note pages); the
               kexec one also as a kcore (tests/py/mkkcore.py), with
               big-endian headers (elf-relayout.py --order big), as an s390x
               dump (big-endian headers and notes) and as QEMU's ppc64el one
               (big-endian headers and notes, the CPUs' MSR little-endian)
  kdump_input  makedumpfile -l, -c, -p, -z and uncompressed at -d 31, a
               --split part, and QEMU's 64 KiB-block form of an arm64 dump,
               keeping the descriptors and data of a few pages and of the
               page-table pages; the zlib and uncompressed ones also with
               their headers and descriptors big-endian, as a big-endian
               machine writes them (tests/py/byteordercheck.py)
  flat         makedumpfile -F (kdump and -E), the stream's first records,
               and a stream of a big-endian kdump seed
  vmcoreinfo   the VMCOREINFO notes of the dumps
  kallsyms     the kallsyms tables in each address encoding, moved to the
               harness's FAKE_VIRT_BASE
  btf          vmlinux's BTF of the --amdgpu dump
  walkers      lists, maple trees (tests/py/walkersynth.py's), xarrays, an
               idr, tasks and VMAs, laid out with the generator's BTF offsets
  config       the configs of tests/sh/t-erase.sh and makedumpfile.conf.sample
"""
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(PROJECT, 'tests', 'py'))
import byteordercheck  # noqa: E402  (found through the path above)
import walkersynth  # noqa: E402

PAGE = 4096
# tests/unit/unit_fake_memory.h
FAKE_VIRT_BASE = 0xffffffff81000000
START_KERNEL_MAP = 0xffffffff80000000
ULONG_MAX = (1 << 64) - 1
# tests/fuzz/fuzz_walkers.c's enum walk
WALK_LIST, WALK_KLIST, WALK_MAPLE_TREE, WALK_XARRAY, WALK_IDR, WALK_TASKS, WALK_VMAS = range(7)
PT_LOAD, PT_NOTE = 1, 4


def run(*args, stdout=subprocess.DEVNULL):
    return subprocess.run(args, check=True, stdout=stdout, stderr=subprocess.PIPE).stdout


def write_seed(out, name, seed, data):
    os.makedirs(os.path.join(out, name), exist_ok=True)
    with open(os.path.join(out, name, seed), 'wb') as f:
        f.write(data)


def parse_vmcoreinfo(text):
    lines = dict(line.split('=', 1) for line in text.splitlines() if '=' in line)
    return lines


class Elf:
    """An ELF64 dump's headers, in the byte order its e_ident says, and its memory by physical address."""

    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            self.ehdr = bytearray(f.read(64))
            self.order = '>' if self.ehdr[5] == 2 else '<'
            (self.phoff, self.shoff) = struct.unpack_from(self.order + 'QQ', self.ehdr, 32)
            (self.phnum, shentsize, self.shnum) = struct.unpack_from(self.order + 'HHH', self.ehdr, 56)
            f.seek(self.phoff)
            self.phdrs = [list(struct.unpack(self.order + 'IIQQQQQQ', f.read(56))) for _ in range(self.phnum)]
            f.seek(self.shoff)
            self.shdrs = [bytearray(f.read(shentsize)) for _ in range(self.shnum)] if self.shoff else []

    def read(self, offset, size):
        with open(self.path, 'rb') as f:
            f.seek(offset)
            return f.read(size)

    def loads(self):
        return [p for p in self.phdrs if p[0] == PT_LOAD]

    def notes(self):
        return b''.join(self.read(p[2], p[5]) for p in self.phdrs if p[0] == PT_NOTE)

    def read_phys(self, paddr, size):
        for p in self.loads():
            if p[4] <= paddr and paddr + size <= p[4] + p[5]:
                return self.read(p[2] + paddr - p[4], size)
        return None


def table_pages(elf, vi, names):
    """The physical pages a page-table walk reads to translate the symbols @names, and their targets."""
    top = int(vi['SYMBOL(init_top_pgt)'], 16) - START_KERNEL_MAP + int(vi.get('NUMBER(phys_base)', '0'))
    levels = 5 if vi.get('NUMBER(pgtable_l5_enabled)') == '1' else 4
    pages = set()
    for name in names:
        vaddr, table = int(vi['SYMBOL(%s)' % name], 16), top
        for level in range(levels, 0, -1):
            shift = 12 + 9 * (level - 1)
            pages.add(table & ~(PAGE - 1))
            raw = elf.read_phys(table + ((vaddr >> shift) & 511) * 8, 8)
            entry = struct.unpack('<Q', raw)[0] if raw else 0
            if not entry & 1:
                break
            table = entry & 0x000ffffffffff000
            if level == 1 or (level in (2, 3) and entry & 0x80):
                pages.add((table | (vaddr & ((1 << shift) - 1))) & ~(PAGE - 1))
                break
    return pages


def arm64_table_pages(elf, vi, names):
    """table_pages() for an arm64 dump with 48-bit output addresses (no LPA2): the 4 KiB
    pieces of swapper_pg_dir's tables that a walk to @names reads, and their targets."""
    page_shift = int(vi['PAGESIZE']).bit_length() - 1
    va_bits = 64 - int(vi['NUMBER(TCR_EL1_T1SZ)'], 0)
    per_level = page_shift - 3
    levels = (va_bits - page_shift + per_level - 1) // per_level
    top = (int(vi['SYMBOL(swapper_pg_dir)'], 16) - int(vi['NUMBER(kimage_voffset)'], 0)) & ULONG_MAX
    pages = set()
    for name in names:
        vaddr, table = int(vi['SYMBOL(%s)' % name], 16), top
        for below in range(levels - 1, -1, -1):
            shift = page_shift + per_level * below
            bits = va_bits - shift if below == levels - 1 else per_level
            at = table + ((vaddr >> shift) & ((1 << bits) - 1)) * 8
            pages.add(at & ~(PAGE - 1))
            raw = elf.read_phys(at, 8)
            entry = struct.unpack('<Q', raw)[0] if raw else 0
            table = entry & ((1 << 48) - 1) & ~((1 << page_shift) - 1)
            if entry & 3 == 1 or (below == 0 and entry & 3 == 3):
                pages.add((table | (vaddr & ((1 << shift) - 1))) & ~(PAGE - 1))
                break
            if entry & 3 != 3:
                break
    return pages


# arch/ppc64.c's index widths (PTE, PMD, PUD, PGD), by MMU and page size.
PPC64_SHAPES = {(True, 12): (9, 9, 9, 13), (True, 16): (5, 9, 9, 13), (False, 12): (9, 7, 9, 9),
                (False, 16): (8, 10, 10, 8)}
PPC64_PAGE_OFFSET = 0xc000000000000000


def ppc64_table_pages(elf, vi, names):
    """The 4 KiB pieces of a ppc64 dump's page tables that a walk to @names reads (entries are
    big-endian), their targets, the whole PGD and the first piece of each table below it, and the
    kernel's variables that describe vmemmap (vmemmap_list and its nodes, which lie together in
    the generator's image)."""
    page_shift = int(vi['PAGESIZE']).bit_length() - 1
    bits = PPC64_SHAPES[(vi.get('NUMBER(RADIX_MMU)') == '1', page_shift)]
    root = int(vi['SYMBOL(swapper_pg_dir)'], 16) - PPC64_PAGE_OFFSET
    # All of the PGD, and the first piece of each table it points to: arch/ppc64.c checks them.
    pgd_bytes = 8 << bits[3]
    pages = {(root & ~(PAGE - 1)) + i * PAGE for i in range((pgd_bytes + PAGE - 1) // PAGE)}
    for i in range(1 << bits[3]):
        raw = elf.read_phys(root + 8 * i, 8)
        entry = struct.unpack('>Q', raw)[0] if raw else 0
        if entry >> 63:
            pages.add((entry & ~0xc0000000000000ff) & ~(PAGE - 1))
    variables = int(vi['SYMBOL(vmemmap_list)'], 16) - PPC64_PAGE_OFFSET
    pages |= {(variables & ~(PAGE - 1)) + i * PAGE for i in range(3)}
    for name in names:
        vaddr, table = int(vi['SYMBOL(%s)' % name], 16), root
        for level in range(3, -1, -1):
            shift = page_shift + sum(bits[:level])
            at = table + ((vaddr >> shift) & ((1 << bits[level]) - 1)) * 8
            pages.add(at & ~(PAGE - 1))
            raw = elf.read_phys(at, 8)
            entry = struct.unpack('>Q', raw)[0] if raw else 0
            if not entry >> 63:
                break
            if level == 0 or entry >> 62 & 1:
                size = 1 << shift
                pages.add(((entry & ((1 << 53) - 1) & ~(size - 1)) | (vaddr & (size - 1))) & ~(PAGE - 1))
                break
            table = entry & ~0xc0000000000000ff
    return pages


def riscv64_table_pages(elf, vi, names):
    """table_pages() for a riscv64 dump: the pages of swapper_pg_dir's tables that a walk to
    @names reads (Sv39/48/57, leaves at any level), and their targets."""
    levels = (int(vi['NUMBER(VA_BITS)']) - 12) // 9
    top = (int(vi['SYMBOL(swapper_pg_dir)'], 16) - int(vi['NUMBER(va_kernel_pa_offset)'], 16)) & ULONG_MAX
    pages = set()
    for name in names:
        vaddr, table = int(vi['SYMBOL(%s)' % name], 16), top
        for level in range(levels - 1, -1, -1):
            shift = 12 + 9 * level
            at = table + ((vaddr >> shift) & 511) * 8
            pages.add(at & ~(PAGE - 1))
            raw = elf.read_phys(at, 8)
            entry = struct.unpack('<Q', raw)[0] if raw else 0
            if not entry & 1:
                break
            table = ((entry >> 10) & ((1 << 44) - 1)) << 12
            if entry & 0xe:
                pages.add((table & ~((1 << shift) - 1) | (vaddr & ((1 << shift) - 1))) & ~(PAGE - 1))
                break
    return pages


def s390x_table_pages(elf, vi, names):
    """table_pages() for an s390x dump: swapper_pg_dir's four pages (whose entries tell its
    type) and the pages of the DAT tables that a walk to @names reads (region tables down to
    the 2 KiB page tables, 2 GiB and 1 MiB frames), and their targets; big-endian entries."""
    swapper = int(vi['SYMBOL(swapper_pg_dir)'], 16)
    top = swapper - int(vi['KERNELOFFSET'], 16) + int(vi['KERNELOFFPHYS'], 16) if 'KERNELOFFPHYS' in vi else swapper
    pages = {top + i * PAGE for i in range(4)}
    entries = [struct.unpack('>Q', elf.read_phys(top + i * 8, 8) or bytes(8))[0] for i in range(2048)]
    top_type = next(((e >> 2) & 3 for e in entries if not e & 0x20), 0)
    for name in names:
        vaddr, table = int(vi['SYMBOL(%s)' % name], 16), top
        for level in range(top_type, -2, -1):
            index = (vaddr >> 12) & 255 if level < 0 else (vaddr >> (20 + 11 * level)) & 2047
            at = table + index * 8
            pages.add(at & ~(PAGE - 1))
            raw = elf.read_phys(at, 8)
            entry = struct.unpack('>Q', raw)[0] if raw else 0x20
            if level < 0:
                pages.add(entry & ~(PAGE - 1))
                break
            if entry & 0x20:
                break
            if level <= 1 and entry & 0x400:
                size = 1 << (20 + 11 * level)
                pages.add(((entry & ~(size - 1)) | (vaddr & (size - 1))) & ~(PAGE - 1))
                break
            table = entry & (~0x7ff if level == 0 else ~0xfff)
    return pages


def shrink_elf(elf, vi, first_pages, cut, keep=None):
    """A small ELF: the notes, then each PT_LOAD's first pages and the page-table pages.

    With @cut, each PT_LOAD keeps its p_memsz and only its file data is cut
    (as makedumpfile -E leaves pages out); otherwise each run of kept pages
    becomes a PT_LOAD of its own.
    """
    if keep is None:
        keep = table_pages(elf, vi, ['_stext', 'init_uts_ns']) if not cut else set()
    segments = []
    for p in elf.loads():
        start, end = p[4], p[4] + p[5]
        if cut:
            segments.append((p, p[4], min(p[5], first_pages * PAGE), p[6]))
            continue
        pages = sorted({a for a in keep if start <= a < end} |
                       {start + i * PAGE for i in range(first_pages) if start + (i + 1) * PAGE <= end})
        run = []
        for a in pages + [None]:
            if run and (a is None or a != run[-1] + PAGE):
                segments.append((p, run[0], len(run) * PAGE, len(run) * PAGE))
                run = []
            if a is not None:
                run.append(a)
    notes = elf.notes()
    sections = elf.shdrs if elf.shoff and elf.shoff < elf.phoff else []
    phdrs_at = 64 + 64 * len(sections)
    data_at = phdrs_at + 56 * (len(segments) + 1)
    ehdr = bytearray(elf.ehdr)
    bo = elf.order
    struct.pack_into(bo + 'QQ', ehdr, 32, phdrs_at, 64 if sections else 0)
    struct.pack_into(bo + 'HHHH', ehdr, 56, len(segments) + 1, 64, len(sections),
                     struct.unpack_from(bo + 'H', elf.ehdr, 62)[0] if sections else 0)
    body = bytearray(notes)
    phdrs = [struct.pack(bo + 'IIQQQQQQ', PT_NOTE, 0, data_at, 0, 0, len(notes), len(notes), 0)]
    for p, paddr, filesz, memsz in segments:
        vaddr = p[3] + (paddr - p[4]) if p[3] else 0
        phdrs.append(struct.pack(bo + 'IIQQQQQQ', PT_LOAD, p[1], data_at + len(body), vaddr, paddr, filesz, memsz,
                                 p[7]))
        body += elf.read(p[2] + (paddr - p[4]), filesz)
    shdrs = b''
    for s in sections:
        # Section data (QEMU's string table) moves to the end.
        s = bytearray(s)
        offset, size = struct.unpack_from('<QQ', s, 24)
        if size:
            struct.pack_into('<Q', s, 24, data_at + len(body))
            body += elf.read(offset, size)
        shdrs += bytes(s)
    return bytes(ehdr) + shdrs + b''.join(phdrs) + bytes(body)


def shrink_kdump(data, keep, wanted):
    """A kdump-compressed file with the descriptors and data of @keep pages and of the pfns @wanted only."""
    block = struct.unpack_from('<i', data, 428)[0]
    sub_hdr, bitmap_blocks = struct.unpack_from('<iI', data, 432)
    split, = struct.unpack_from('<i', data, block + 12)
    start_pfn, end_pfn, max_mapnr = struct.unpack_from('<QQQ', data, block + 80)
    bitmap1 = (1 + sub_hdr) * block
    half = bitmap_blocks * block // 2
    bitmap2, descs = bitmap1 + half, bitmap1 + 2 * half
    # A split part holds the descriptors of its own pfns only, in pfn order as in a whole dump.
    dumped = [pfn for pfn in range(max_mapnr) if data[bitmap2 + pfn // 8] >> (pfn % 8) & 1 and
              (not split or start_pfn <= pfn < end_pfn)]
    sizes = [struct.unpack_from('<I', data, descs + 24 * i + 8)[0] for i in range(len(dumped))]
    # The first pages and the smallest: the seed of every codec stays small.
    chosen = sorted(set(range(min(2, len(dumped)))) |
                    set(sorted(range(len(dumped)), key=lambda i: (sizes[i], i))[:keep - 2]) |
                    {i for i, pfn in enumerate(dumped) if pfn in wanted})
    head = bytearray(data[:descs])
    head[bitmap2:bitmap2 + half] = bytes(half)
    table, pages = bytearray(), bytearray()
    data_at = descs + 24 * len(chosen)
    for i in chosen:
        pfn = dumped[i]
        head[bitmap2 + pfn // 8] |= 1 << (pfn % 8)
        offset, size, flags, page_flags = struct.unpack_from('<qIIQ', data, descs + 24 * i)
        table += struct.pack('<qIIQ', data_at + len(pages), size, flags, page_flags)
        pages += data[offset:offset + size]
    return bytes(head) + bytes(table) + bytes(pages)


EM_X86_64, EM_S390, EM_PPC64, NT_PRSTATUS = 62, 22, 21, 1
PPC64_PRSTATUS_SIZE, PPC64_MSR_OFFSET = 504, 112 + 33 * 8
# A 64-bit kernel's MSR with translation on: SF, EE, PR clear, ME, FP, IR, DR, RI and LE.
PPC64LE_KERNEL_MSR = 0x800000000280b033


def big_endian_seed(data, machine, notes_too=True, ppc64_msr=None):
    """@data, a little-endian ELF seed in kexec's layout, with its ELF and
    program headers big-endian and e_machine @machine; with @notes_too, its
    notes' headers too: an s390x dump's layout.  With @ppc64_msr, the notes
    are two ppc64 NT_PRSTATUS notes whose MSR is that: QEMU's ppc64el dump."""
    ehdr = bytearray(data[:64])
    phoff, = struct.unpack_from('<Q', ehdr, 32)
    phnum, = struct.unpack_from('<H', ehdr, 56)
    phdrs = [list(struct.unpack_from('<IIQQQQQQ', data, phoff + 56 * i)) for i in range(phnum)]
    notes = bytearray()
    if ppc64_msr is not None:
        for _ in range(2):
            desc = bytearray(PPC64_PRSTATUS_SIZE)
            struct.pack_into('>Q', desc, PPC64_MSR_OFFSET, ppc64_msr)
            notes += struct.pack('>III', 5, len(desc), NT_PRSTATUS) + b'CORE\0\0\0\0' + desc
    else:
        for p in (p for p in phdrs if p[0] == PT_NOTE):
            block, pos = data[p[2]:p[2] + p[5]], 0
            while pos + 12 <= len(block):
                namesz, descsz, kind = struct.unpack_from('<III', block, pos)
                size = 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
                notes += struct.pack('>III' if notes_too else '<III', namesz, descsz, kind) + \
                    block[pos + 12:pos + size]
                pos += size
    loads = [p for p in phdrs if p[0] == PT_LOAD]
    data_at = 64 + 56 * (len(loads) + 1)
    body = bytearray(notes)
    out_phdrs = [struct.pack('>IIQQQQQQ', PT_NOTE, 0, data_at, 0, 0, len(notes), len(notes), 0)]
    for p in loads:
        out_phdrs.append(struct.pack('>IIQQQQQQ', PT_LOAD, p[1], data_at + len(body), *p[3:]))
        body += data[p[2]:p[2] + p[5]]
    fields = list(struct.unpack_from('<HHIQQQIHHHHHH', ehdr, 16))
    fields[1], fields[4], fields[5], fields[9], fields[10:13] = machine, 64, 0, len(loads) + 1, [0, 0, 0]
    ehdr[5] = 2
    struct.pack_into('>HHIQQQIHHHHHH', ehdr, 16, *fields)
    return bytes(ehdr) + b''.join(out_phdrs) + bytes(body)


def flatten(data, record=PAGE):
    """@data as a flattened stream (makedumpfile -F) of records of @record bytes."""
    out = bytearray(b'makedumpfile'.ljust(16, b'\0') + struct.pack('>qq', 1, 1)).ljust(4096, b'\0')
    for at in range(0, len(data), record):
        chunk = data[at:at + record]
        out += struct.pack('>qq', at, len(chunk)) + chunk
    return bytes(out) + struct.pack('>qq', -1, -1)


def shrink_flat(data, budget):
    """The first records of a flattened stream, @budget bytes of data at most, and its end record."""
    out, at, left = bytearray(data[:4096]), 4096, budget
    while at + 16 <= len(data) and left > 0:
        offset, size = struct.unpack_from('>qq', data, at)
        if offset < 0:
            break
        size_kept = min(size, left)
        out += struct.pack('>qq', offset, size_kept) + data[at + 16:at + 16 + size_kept]
        left -= size_kept
        at += 16 + size
    return bytes(out) + struct.pack('>qq', -1, -1)


def kallsyms_seed(dumpread, dump, vi, moves_addresses):
    """The dump's kallsyms tables at FAKE_VIRT_BASE, with VMCOREINFO lines that say so."""
    tables = {k: int(v, 16) for k, v in vi.items() if k.startswith('SYMBOL(kallsyms_')}
    lo = min(tables.values())
    # The last table is token_index (512 bytes) or the token table (a few hundred).
    hi = max(tables.values()) + 0x400
    image = run(dumpread, dump, 'virt', '0x%x' % lo, str(hi - lo), stdout=subprocess.PIPE)
    delta = lo - FAKE_VIRT_BASE
    lines = ['OSRELEASE=%s' % vi['OSRELEASE']]
    lines += ['%s=%x' % (k, v - delta) for k, v in sorted(tables.items())]
    # Place-relative addresses move with the table; the others are the table's content.
    for witness in ('_stext', 'init_uts_ns'):
        value = int(vi['SYMBOL(%s)' % witness], 16)
        lines.append('SYMBOL(%s)=%x' % (witness, value - delta if moves_addresses else value))
    return ('\n'.join(lines) + '\n').encode() + b'\0' + image


class Region(walkersynth.Scratch):
    """walkersynth's scratch pages as the harness's region: pages from FAKE_VIRT_BASE on."""

    def __init__(self, pages=64):
        super().__init__(FAKE_VIRT_BASE, range(pages))

    def image(self):
        used = (self.used + PAGE - 1) // PAGE
        return b''.join(bytes(data) for _, _, data in self.pages[:used])


def list_region():
    mem = Region()
    nodes = [mem.alloc(16, 8) for _ in range(4)]
    for node, following in zip(nodes, nodes[1:] + nodes[:1]):
        mem.u64(node, following)
        mem.u64(node + 8, nodes[nodes.index(node) - 1])
    return mem.image()


def tasks_region(f):
    """init_task (at the region's start) and two tasks on its tasks list."""
    mem = Region()
    tasks = [mem.alloc(f['task_struct'], 64) for _ in range(3)]
    mm = mem.alloc(f['mm_struct'], 64)
    for n, task in enumerate(tasks):
        link = tasks[(n + 1) % 3] + f['task_struct.tasks']
        mem.u64(task + f['task_struct.tasks'], link)
        mem.put(task + f['task_struct.pid'], '<i', n)
        mem.put(task + f['task_struct.tgid'], '<i', n)
        comm = b'swapper/0' if n == 0 else b'task%d' % n
        for i, c in enumerate(comm):
            mem.u8(task + f['task_struct.comm'] + i, c)
        mem.u64(task + f['task_struct.mm'], mm if n else 0)
    return mem.image()


def vmas_region(f):
    """An mm_struct (at the region's start) whose mm_mt is one leaf holding three VMAs."""
    mem = Region()
    mm = mem.alloc(f['mm_struct'], 256)
    leaf = mem.alloc(256, 256)
    ranges = [(0, 0xfff, 0), (0x1000, 0x2fff, 1), (0x3000, 0x3fff, 0), (0x4000, 0x4fff, 1),
              (0x5000, 0x7fff, 1), (0x8000, ULONG_MAX, 0)]
    mem.u64(leaf + f['maple_node.parent'], (mm + f['mm_struct.mm_mt']) | 1)
    for i, (first, last, is_vma) in enumerate(ranges):
        entry = 0
        if is_vma:
            entry = mem.alloc(f['vm_area_struct'], 64)
            mem.u64(entry + f['vm_area_struct.vm_start'], first)
            mem.u64(entry + f['vm_area_struct.vm_end'], last + 1)
            mem.u64(entry + f['vm_area_struct.vm_flags'], 0x73)
        mem.u64(leaf + f['maple_range_64.pivot'] + 8 * i, last)
        mem.u64(leaf + f['maple_range_64.slot'] + 8 * i, entry)
    mem.u8(leaf + f['maple_range_64.meta'] + f['maple_metadata.end'], len(ranges) - 1)
    # A leaf root: maple_leaf_64 (1) in bits 3-6, marked as a node (2) and an encoded node (4).
    mem.u64(mm + f['mm_struct.mm_mt'] + f['maple_tree.ma_root'], leaf | 1 << 3 | 6)
    return mem.image()


def config_seeds(out):
    with open(os.path.join(PROJECT, 'tests', 'sh', 't-erase.sh')) as f:
        script = f.read()
    configs = {}
    for name, text in re.findall(r"conf (s\d+) '((?:[^'\\]|\\.)*)'", script):
        configs['t-erase-' + name] = text.replace('\\n', '\n').replace('\\t', '\t')
    for name, text in re.findall(r'cat >"\$WORK/(\w+)\.conf" <<\'EOF\'\n(.*?)\nEOF\n', script, re.S):
        configs['t-erase-' + name] = text + '\n'
    with open(os.path.join(PROJECT, 'makedumpfile.conf.sample')) as f:
        configs['sample'] = f.read()
    for name, text in configs.items():
        write_seed(out, 'config', name + '.conf', text.encode())
    return configs


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    out, mkvmcore, mdf, dumpread = sys.argv[1:]
    work = os.path.join(out, '.work')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    dumps = {
        'kexec': ['--kaslr', '0'],
        'qemu': ['--layout', 'qemu', '--kaslr', '0'],
        'paging5': ['--paging', '5'],
        'amdgpu': ['--amdgpu', '--kaslr', '0'],
        'base-relative': ['--kallsyms', 'base-relative', '--kaslr', '0'],
        'place-relative': ['--kallsyms', 'place-relative', '--kaslr', '0'],
        'absolute': ['--kallsyms', 'absolute', '--kaslr', '0'],
    }
    path, vi = {}, {}
    for name, options in dumps.items():
        path[name] = os.path.join(work, name + '.elf')
        run(mkvmcore, '--sparse', '--vmcoreinfo-out', path[name] + '.vmcoreinfo', *options, path[name])
        with open(path[name] + '.vmcoreinfo', 'rb') as f:
            raw = f.read()
        write_seed(out, 'vmcoreinfo', name + '.txt', raw)
        vi[name] = parse_vmcoreinfo(raw.decode())

    for name in ('kexec', 'qemu', 'paging5'):
        write_seed(out, 'elf_input', name + '.elf', shrink_elf(Elf(path[name]), vi[name], 2, False))
    kexec_seed = os.path.join(out, 'elf_input', 'kexec.elf')
    run(sys.executable, os.path.join(PROJECT, 'tests', 'py', 'mkkcore.py'),
        kexec_seed, os.path.join(out, 'elf_input', 'kexec-kcore.elf'))
    # Big-endian: headers only (notes little-endian), an s390x dump's layout, QEMU's ppc64el one.
    with open(kexec_seed, 'rb') as f:
        seed = f.read()
    write_seed(out, 'elf_input', 'kexec-big-endian-headers.elf', big_endian_seed(seed, EM_X86_64, False))
    write_seed(out, 'elf_input', 's390x-layout.elf', big_endian_seed(seed, EM_S390))
    write_seed(out, 'elf_input', 'ppc64el-qemu-layout.elf',
               big_endian_seed(seed, EM_PPC64, ppc64_msr=PPC64LE_KERNEL_MSR))
    # arm64 (mkvmcore --arch arm64): 4K pages and 4 levels, 16K and 3, 64K and 2.
    for pages, va_bits in (('4K', '48'), ('16K', '47'), ('64K', '42')):
        name = 'arm64-%s-va%s' % (pages, va_bits)
        arm64 = os.path.join(work, name + '.elf')
        run(mkvmcore, '--arch', 'arm64', '--page-size', pages, '--va-bits', va_bits, '--vmcoreinfo-out',
            arm64 + '.vmcoreinfo', arm64)
        with open(arm64 + '.vmcoreinfo') as f:
            arm64_vi = parse_vmcoreinfo(f.read())
        elf = Elf(arm64)
        tables = arm64_table_pages(elf, arm64_vi, ['_stext', 'swapper_pg_dir', 'mem_section'])
        write_seed(out, 'elf_input', name + '.elf', shrink_elf(elf, arm64_vi, 2, False, tables))
        if pages == '4K':
            # QEMU's kdump-compressed form: 64 KiB blocks of 4 KiB pages (tests/py/qemukdump.py).
            qemu = os.path.join(work, name + '.kdump')
            run(sys.executable, os.path.join(PROJECT, 'tests', 'py', 'qemukdump.py'), arm64, qemu)
            with open(qemu, 'rb') as f:
                write_seed(out, 'kdump_input', name + '-qemu-64k-blocks.kdump',
                           shrink_kdump(f.read(), 6, {paddr >> 16 for paddr in tables}))
    # ppc64 (mkvmcore --arch ppc64): radix and hash with 4K and 64K pages, and a big-endian kernel's.
    for mmu, pages, order in (('radix', '4K', ''), ('radix', '64K', ''), ('hash', '4K', ''), ('hash', '64K', ''),
                              ('hash', '64K', '-be')):
        name = 'ppc64-%s-%s%s' % (mmu, pages, order)
        ppc64 = os.path.join(work, name + '.elf')
        run(mkvmcore, '--arch', 'ppc64', '--mmu', mmu, '--page-size', pages, *(['--big-endian'] if order else []),
            '--vmcoreinfo-out', ppc64 + '.vmcoreinfo', ppc64)
        with open(ppc64 + '.vmcoreinfo') as f:
            ppc64_vi = parse_vmcoreinfo(f.read())
        elf = Elf(ppc64)
        tables = ppc64_table_pages(elf, ppc64_vi, ['_stext', 'vmemmap'])
        write_seed(out, 'elf_input', name + '.elf', shrink_elf(elf, ppc64_vi, 2, False, tables))

    # riscv64 (mkvmcore --arch riscv64): Sv39 and Sv48 in kexec's layout, Sv57 in QEMU's, whose
    # VMCOREINFO is only in memory: its note's page and a stale note's go in too.
    for va_bits, layout in (('39', 'kexec'), ('48', 'kexec'), ('57', 'qemu')):
        name = 'riscv64-sv%s-%s' % (va_bits, layout)
        riscv = os.path.join(work, name + '.elf')
        run(mkvmcore, '--arch', 'riscv64', '--va-bits', va_bits, '--layout', layout, '--vmcoreinfo-out',
            riscv + '.vmcoreinfo', '--facts', riscv + '.facts', riscv)
        with open(riscv + '.vmcoreinfo', 'rb') as f:
            raw = f.read()
        riscv_vi = parse_vmcoreinfo(raw.decode())
        with open(riscv + '.facts') as f:
            notes = {int(v, 16) for k, v in (line.strip().split('=', 1) for line in f if '=' in line)
                     if k.endswith('note_paddr')}
        elf = Elf(riscv)
        tables = riscv64_table_pages(elf, riscv_vi, ['_stext', 'swapper_pg_dir', 'mem_section', 'init_uts_ns'])
        write_seed(out, 'elf_input', name + '.elf', shrink_elf(elf, riscv_vi, 2, False, tables | notes))
        write_seed(out, 'vmcoreinfo', name + '.txt', raw)
    # s390x (mkvmcore --arch s390x, big-endian): 3 levels in the 6.10 layout, 4 in the one before,
    # 5 with the note only in memory (its page goes in too).
    for levels, opts in (('3', []), ('4', ['--pre-6.10']), ('5', ['--no-note'])):
        name = 's390x-%s-levels%s' % (levels, opts[0].replace('--', '-') if opts else '')
        s390x = os.path.join(work, name + '.elf')
        run(mkvmcore, '--arch', 's390x', '--levels', levels, *opts, '--vmcoreinfo-out', s390x + '.vmcoreinfo',
            '--facts', s390x + '.facts', s390x)
        with open(s390x + '.vmcoreinfo', 'rb') as f:
            raw = f.read()
        s390x_vi = parse_vmcoreinfo(raw.decode())
        with open(s390x + '.facts') as f:
            notes = {int(v, 16) for k, v in (line.strip().split('=', 1) for line in f if '=' in line)
                     if k.endswith('note_paddr')}
        elf = Elf(s390x)
        tables = s390x_table_pages(elf, s390x_vi, ['_stext', 'swapper_pg_dir', 'mem_section', 'init_uts_ns',
                                                   'high_memory'])
        write_seed(out, 'elf_input', name + '.elf', shrink_elf(elf, s390x_vi, 2, False, tables | notes))
        write_seed(out, 'vmcoreinfo', name + '.txt', raw)
    elf_e = os.path.join(work, 'kexec-E.elf')
    run(mdf, '-f', '-E', '-d', '31', path['kexec'], elf_e)
    write_seed(out, 'elf_input', 'makedumpfile-E.elf', shrink_elf(Elf(elf_e), vi['kexec'], 2, True))

    # The pages that translate the symbols fuzz_dump.h reads, in each kdump seed too.
    wanted = {paddr // PAGE for paddr in table_pages(Elf(path['kexec']), vi['kexec'], ['_stext', 'init_uts_ns'])}
    for flag, codec in (('-l', 'lzo'), ('-c', 'zlib'), ('-p', 'snappy'), ('-z', 'zstd'), (None, 'none')):
        kdump = os.path.join(work, codec + '.kdump')
        run(mdf, '-f', *([flag] if flag else []), '-d', '31', path['kexec'], kdump)
        with open(kdump, 'rb') as f:
            small = shrink_kdump(f.read(), 6, wanted)
        write_seed(out, 'kdump_input', codec + '.kdump', small)
        if codec in ('zlib', 'none'):
            big = byteordercheck.swap_kdump(small)[0]
            write_seed(out, 'kdump_input', codec + '-big-endian.kdump', big)
            if codec == 'zlib':
                write_seed(out, 'flat', 'kdump-big-endian.flat', flatten(big))
    parts = [os.path.join(work, 'part%d.kdump' % i) for i in range(3)]
    run(mdf, '-f', '-l', '-d', '31', '--split', path['kexec'], *parts)
    with open(parts[1], 'rb') as f:
        write_seed(out, 'kdump_input', 'split-part.kdump', shrink_kdump(f.read(), 6, wanted))

    for name, options in (('kdump', ['-l']), ('elf', ['-E'])):
        stream = run(mdf, '-F', *options, '-d', '31', path['kexec'], stdout=subprocess.PIPE)
        write_seed(out, 'flat', name + '.flat', shrink_flat(stream, 32 << 10))

    for name in ('kexec', 'base-relative', 'place-relative', 'absolute'):
        write_seed(out, 'kallsyms', name, kallsyms_seed(dumpread, path[name], vi[name], name == 'place-relative'))

    syms = run(dumpread, path['amdgpu'], 'symbol', '__start_BTF', '__stop_BTF', stdout=subprocess.PIPE).split()
    start, stop = int(syms[1], 16), int(syms[3], 16)
    write_seed(out, 'btf', 'generator-vmlinux.btf',
               run(dumpread, path['amdgpu'], 'virt', '0x%x' % start, str(stop - start), stdout=subprocess.PIPE))

    f = walkersynth.btf(mdf, path['amdgpu'], [
        'maple_tree', 'maple_tree.ma_root', 'maple_tree.ma_flags', 'maple_node.parent', 'maple_node.slot',
        'maple_range_64.pivot', 'maple_range_64.slot', 'maple_range_64.meta', 'maple_arange_64.pivot',
        'maple_arange_64.slot', 'maple_arange_64.meta', 'maple_metadata.end', 'xarray.xa_head', 'xa_node',
        'xa_node.shift', 'xa_node.offset', 'xa_node.parent', 'xa_node.array', 'xa_node.slots',
        'task_struct', 'task_struct.tasks', 'task_struct.pid', 'task_struct.tgid', 'task_struct.comm',
        'task_struct.mm', 'mm_struct', 'mm_struct.mm_mt', 'vm_area_struct', 'vm_area_struct.vm_start',
        'vm_area_struct.vm_end', 'vm_area_struct.vm_flags'])
    for name, root_type in (('maple-range', 2), ('maple-arange', 3)):
        mem = Region()
        walkersynth.build_maple(mem, f, root_type)
        write_seed(out, 'walkers', name, bytes([WALK_MAPLE_TREE]) + mem.image())
    mem = Region()
    walkersynth.build_xarray(mem, f)
    write_seed(out, 'walkers', 'xarray', bytes([WALK_XARRAY]) + mem.image())
    write_seed(out, 'walkers', 'idr', bytes([WALK_IDR]) + mem.image())
    write_seed(out, 'walkers', 'list', bytes([WALK_LIST]) + list_region())
    write_seed(out, 'walkers', 'klist', bytes([WALK_KLIST]) + list_region())
    tasks = tasks_region(f)
    write_seed(out, 'walkers', 'tasks', bytes([WALK_TASKS]) + tasks)
    write_seed(out, 'walkers', 'vmas', bytes([WALK_VMAS]) + vmas_region(f))

    configs = config_seeds(out)
    write_seed(out, 'config', 'tasks-region.conf', configs['sample'].encode() + b'\0' + tasks)
    shutil.rmtree(work)


if __name__ == '__main__':
    main()

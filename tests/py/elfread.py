# SPDX-License-Identifier: GPL-2.0-or-later
"""The ELF64 reading the test checkers share: the file header, the program
headers, the PT_LOADs and the notes of an ELF dump, in the file's own byte
order.

The facts it relies on (the System V gABI's ELF64):
  - e_ident, the first 16 bytes: "\\x7fELF", EI_CLASS (byte 4, 2 for
    ELF64), EI_DATA (byte 5: 1 little-endian, 2 big-endian).  Every later
    field of the file is in EI_DATA's order, which need not be the host's
    nor the memory's: s390x dumps are big-endian, and QEMU 7.2 writes a
    little-endian ppc64 guest's headers big-endian.  A reader here takes
    any EI_DATA but 2 as little-endian, as the checkers always did.
  - The file header after e_ident, 48 bytes at offset 16: e_type (u16),
    e_machine (u16), e_version (u32), e_entry, e_phoff, e_shoff (u64 at
    24, 32, 40), e_flags (u32 at 48; a dump writer's DUMP_ELF_INCOMPLETE
    is bit 0), e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum,
    e_shstrndx (u16 at 52 .. 62); 64 bytes in all.
  - The program headers: e_phnum entries of 56 bytes from e_phoff: p_type,
    p_flags (u32), p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align
    (u64).  The checkers step by 56, not e_phentsize: every dump they read
    has 56.
  - p_type PT_LOAD (1): p_filesz bytes at p_offset are the memory at
    p_paddr (and at p_vaddr, where the writer knew it); from p_filesz up to
    p_memsz the memory is not in the file.  PT_NOTE (4): p_filesz bytes at
    p_offset are notes.
  - A note: namesz, descsz, type (u32 each), then the name (namesz bytes,
    its NUL included) and the descriptor (descsz bytes), each padded to a
    multiple of 4 bytes.  The walk stops where fewer than 12 bytes are left.
"""
import struct
from collections import namedtuple

EI_DATA, ELFDATA2MSB = 5, 2
PT_LOAD, PT_NOTE = 1, 4
PHDR_SIZE = 56

Header = namedtuple('Header', 'order type machine version entry phoff shoff flags ehsize phentsize '
                              'phnum shentsize shnum shstrndx')
ProgramHeader = namedtuple('ProgramHeader', 'type flags offset vaddr paddr filesz memsz align')
# offset: where the note starts in the bytes walked; desc_offset: where its descriptor does.
Note = namedtuple('Note', 'offset namesz descsz type name desc_offset desc')


def byte_order(ident):
    """struct's '>' or '<' for the file whose e_ident is @ident."""
    return '>' if ident[EI_DATA] == ELFDATA2MSB else '<'


def parse_header(data):
    """The Header of the 64 bytes @data."""
    order = byte_order(data)
    return Header(order, *struct.unpack_from(order + 'HHIQQQIHHHHHH', data, 16))


def read_header(f):
    """The Header of the open binary file (or mmap) @f."""
    f.seek(0)
    return parse_header(f.read(64))


def read_program_headers(f, header):
    """@header's program headers, read from @f, as ProgramHeaders."""
    f.seek(header.phoff)
    table = f.read(PHDR_SIZE * header.phnum)
    fmt = struct.Struct(header.order + 'IIQQQQQQ')
    return [ProgramHeader(*fmt.unpack_from(table, PHDR_SIZE * i)) for i in range(header.phnum)]


def read_headers(path):
    """(Header, [ProgramHeader]) of the ELF file at @path."""
    with open(path, 'rb') as f:
        header = read_header(f)
        return header, read_program_headers(f, header)


def loads(phdrs):
    """The PT_LOADs of @phdrs, in their order."""
    return [p for p in phdrs if p.type == PT_LOAD]


def file_offsets(segments, paddr, length):
    """The file offsets of the @length bytes at physical @paddr, one for
    each PT_LOAD of @segments whose file bytes hold them all (a kexec dump
    holds the kernel image twice)."""
    return [p.offset + paddr - p.paddr for p in segments
            if p.paddr <= paddr and paddr + length <= p.paddr + p.filesz]


def notes(data, order):
    """The notes in the bytes @data, in @order, as Notes: their header's
    fields, the name without its NULs, the descriptor's bytes (cut short
    where @data ends)."""
    pos = 0
    while pos + 12 <= len(data):
        namesz, descsz, kind = struct.unpack_from(order + 'III', data, pos)
        desc_at = pos + 12 + (namesz + 3) // 4 * 4
        yield Note(pos, namesz, descsz, kind, bytes(data[pos + 12:pos + 12 + namesz]).rstrip(b'\0'),
                   desc_at, bytes(data[desc_at:desc_at + descsz]))
        pos = desc_at + (descsz + 3) // 4 * 4


def segment_notes(f, header, phdr):
    """The notes of the PT_NOTE @phdr of @f; their offsets are the file's."""
    f.seek(phdr.offset)
    for note in notes(f.read(phdr.filesz), header.order):
        yield note._replace(offset=phdr.offset + note.offset, desc_offset=phdr.offset + note.desc_offset)

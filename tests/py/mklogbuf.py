#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a generated dump's kernel log into an older kernel's.

mklogbuf.py DUMP VADDR PADDR MODE OUTPREFIX

DUMP is an ELF dump in kexec's layout (tests/gen/mkvmcore); VADDR and PADDR
are its __log_buf's kernel virtual and physical addresses (4096 bytes).
The buffer is rewritten in place (in every PT_LOAD that holds it), and so
is the VMCOREINFO note: without the lockless ring's lines, with the older
layout's (it must be the last note, and the new text no longer than the
old; the rest of PT_NOTE becomes zeros, as kexec pads it).  The new text
also goes to OUTPREFIX.vmcoreinfo, and what makedumpfile --dump-dmesg
prints to OUTPREFIX.expected.  MODE:

  records  the buffer of kernels 3.5 to 5.9: struct printk_log records
           (ts_nsec at 0, len at 8, text_len at 10; 16 bytes) from
           log_first_idx, wrapping at a record of length 0 to offset 0,
           up to log_next_idx; a record of several lines, a tab, a byte
           neither printable nor space and one of 0x80 or more
  text     the plain text buffer of kernels before 3.5 (OSRELEASE 3.4.0),
           log_end bytes written in all, more than the buffer holds

The variables the layouts need (log_buf, log_buf_len, log_first_idx,
log_next_idx, log_end) live in the last 32 bytes of the same 4096.
"""
import struct
import sys

import elfread

SIZE = 4096
BUF_LEN = 2048
VARS = SIZE - 32
RECORD = 16
PRB_KEYS = ('prb', 'printk_rb_static', 'printk_ringbuffer', 'prb_desc', 'prb_data_blk_lpos',
            'printk_info', 'dev_printk_info', 'prb_data_ring', 'clear_seq', 'latched_seq',
            'printk_info_subsystem', 'printk_info_device')


def vmcoreinfo(f):
    """The VMCOREINFO note's text, the note's file offset, and the bytes of
    PT_NOTE from there on."""
    header = elfread.read_header(f)
    for p in elfread.read_program_headers(f, header):
        if p.type != elfread.PT_NOTE:
            continue
        for note in elfread.segment_notes(f, header, p):
            if note.name == b'VMCOREINFO':
                return note.desc.decode(), note.offset, p.offset + p.filesz - note.offset
    raise SystemExit('mklogbuf.py: no VMCOREINFO note')


def rewrite_vmcoreinfo(f, note_at, room, text):
    """A VMCOREINFO note of TEXT where the old one was, zeros after it."""
    desc = text.encode()
    note = struct.pack('<III', 11, len(desc), 0) + b'VMCOREINFO\0\0' + desc
    note += bytes(-len(note) % 4)
    if len(note) > room:
        raise SystemExit('mklogbuf.py: the new VMCOREINFO does not fit the old one\'s place')
    f.seek(note_at)
    f.write(note + bytes(room - len(note)))


def write_phys(f, paddr, data):
    hits = elfread.file_offsets(elfread.loads(elfread.read_program_headers(f, elfread.read_header(f))),
                                paddr, len(data))
    for off in hits:
        f.seek(off)
        f.write(data)
    if not hits:
        raise SystemExit('mklogbuf.py: 0x%x is in no PT_LOAD' % paddr)


def line(ts, text):
    """What upstream prints for one record."""
    prefix = '[%5d.%06d] ' % (ts // 1000000000, ts % 1000000000 // 1000)
    out = prefix
    for b in text:
        if b == 0x0a:
            out += '\n' + ' ' * len(prefix)
        elif 0x20 <= b < 0x7f or b in b' \t\n\v\f\r':
            out += chr(b)
        else:
            out += '\\x%02x' % (b if b < 0x80 else b - 0x100 + 0x100000000)
    return out + '\n'


def records(buf):
    texts = [b'first record, before the wrap', b'second\twith a tab',
             b'third: a record\nof three\nlines', b'fourth \x01 and \xc3\xa9 bytes',
             b'fifth, after the wrap', b'sixth and last']
    expected, ts, pos = '', 1000000, 1900
    first = pos
    for i, text in enumerate(texts):
        length = (RECORD + len(text) + 7) // 8 * 8
        if pos + length + RECORD > BUF_LEN:
            struct.pack_into('<QH', buf, pos, 0, 0)  # the end of the buffer
            pos = 0
        struct.pack_into('<QHHH', buf, pos, ts, length, len(text), 0)
        buf[pos + RECORD:pos + RECORD + len(text)] = text
        expected += line(ts, text)
        pos += length
        ts += 1234567891 * (i + 1)
    return first, pos, expected


def main():
    if len(sys.argv) != 6 or sys.argv[4] not in ('records', 'text'):
        raise SystemExit(__doc__)
    path, vaddr, paddr, mode, prefix = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), \
        sys.argv[4], sys.argv[5]
    buf = bytearray(SIZE)
    keep = []
    with open(path, 'r+b') as f:
        text, note_at, room = vmcoreinfo(f)
        for key in text.splitlines():
            name = key.split('(', 1)[1].split(')')[0].split('.')[0] if '(' in key else ''
            if name not in PRB_KEYS and not (mode == 'text' and key.startswith('OSRELEASE=')):
                keep.append(key)
        info = ['SYMBOL(log_buf)=%x' % (vaddr + VARS), 'SYMBOL(log_buf_len)=%x' % (vaddr + VARS + 8)]
        struct.pack_into('<QI', buf, VARS, vaddr, BUF_LEN)
        if mode == 'records':
            first, nxt, expected = records(buf)
            struct.pack_into('<II', buf, VARS + 12, first, nxt)
            info += ['SYMBOL(log_first_idx)=%x' % (vaddr + VARS + 12),
                     'SYMBOL(log_next_idx)=%x' % (vaddr + VARS + 16),
                     'SIZE(printk_log)=%d' % RECORD, 'OFFSET(printk_log.ts_nsec)=0',
                     'OFFSET(printk_log.len)=8', 'OFFSET(printk_log.text_len)=10']
        else:
            text = b''.join(b'<6>line %d of the old kernel log\n' % i for i in range(80))
            log_end = len(text)
            for i, b in enumerate(text):
                buf[i % BUF_LEN] = b
            struct.pack_into('<I', buf, VARS + 20, log_end)
            info += ['OSRELEASE=3.4.0-mklogbuf', 'SYMBOL(log_end)=%x' % (vaddr + VARS + 20)]
            index = log_end % BUF_LEN
            expected = (bytes(buf[index:BUF_LEN]) + bytes(buf[:index])).decode()
        write_phys(f, paddr, bytes(buf))
        rewrite_vmcoreinfo(f, note_at, room, '\n'.join(keep + info) + '\n')
    with open(prefix + '.vmcoreinfo', 'w') as f:
        f.write('\n'.join(keep + info) + '\n')
    with open(prefix + '.expected', 'w', newline='') as f:
        f.write(expected)


if __name__ == '__main__':
    main()

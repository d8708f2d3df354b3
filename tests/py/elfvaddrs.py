#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of the kernel virtual addresses in an ELF dump our -E wrote from a
dump whose segments have physical addresses only (QEMU's).

elfvaddrs.py kernel OURS QEMU GUEST
    every PT_LOAD has a kernel virtual address: the first ones the kernel
    image's (__START_KERNEL_map and up), the rest the direct map's, all of
    these at one offset from p_paddr; read through OURS' own segments,
    init_uts_ns (its address from the guest's kallsyms.txt, GUEST the
    dump's folder) holds the dump's VMCOREINFO OSRELEASE, as it does read
    through libkdumpfile; and pages of each segment (in the guest's System
    RAM, which the direct map maps) hold what libkdumpfile finds at their
    virtual addresses in QEMU, the input, where only the page tables
    translate them.
elfvaddrs.py upstream OURS UPSTREAM
    UPSTREAM, upstream's -E file of the same input laid out as kexec's
    (physical addresses as virtual ones), is OURS but for the addresses:
    OURS' direct-map PT_LOADs are UPSTREAM's, cut alike, with the same
    bytes (the last, past max_mapnr, up to UPSTREAM's shorter p_filesz:
    upstream 1.7.2 reads its bitmap file past its end there), and the
    kernel image's PT_LOADs hold the bytes UPSTREAM holds at their physical
    addresses.
elfvaddrs.py kexec OURS KEXEC
    KEXEC, the generator's kexec layout of the same memory, gives each
    PT_LOAD of OURS its address: p_vaddr - p_paddr is KEXEC's image
    segment's for a segment inside it, its direct-map segments' otherwise.
"""
import sys

import kdumpfile

import elfread

PAGE = 4096
ZERO = bytes(PAGE)
START_KERNEL_MAP = 0xffffffff80000000
KERNEL_HALF = 1 << 63


def loads(path):
    return elfread.loads(elfread.read_headers(path)[1])


def split(segs):
    """The kernel image's PT_LOADs (first) and the direct map's."""
    image = [s for s in segs if s.vaddr >= START_KERNEL_MAP]
    return image, segs[len(image):]


def read_by_segment(f, segs, vaddr, size):
    """@size bytes at @vaddr through the segments' own addresses, or None."""
    for s in segs:
        if s.vaddr <= vaddr and vaddr + size <= s.vaddr + s.filesz:
            f.seek(s.offset + vaddr - s.vaddr)
            return f.read(size)
    return None


def fail(message):
    print('FAIL', message)
    return 1


def shape(segs):
    """None, or what is wrong with where the PT_LOADs point."""
    image, direct = split(segs)
    if not image or not direct:
        return 'want image and direct-map PT_LOADs, have %d and %d' % (len(image), len(direct))
    if any(not s.vaddr & KERNEL_HALF for s in segs):
        return 'a PT_LOAD has a user address: %s' % ['%x' % s.vaddr for s in segs]
    if len({s.vaddr - s.paddr for s in image}) != 1 or len({s.vaddr - s.paddr for s in direct}) != 1:
        return 'the image or the direct map is not at one offset from p_paddr'
    return None


def cmd_kernel(args):
    ours, qemu, folder = args
    kallsyms, vmcoreinfo = folder + '/guest/kallsyms.txt', folder + '/vmcoreinfo.txt'
    ram = [tuple(int(x, 16) for x in line.split()[0].split('-')) for line in open(folder + '/guest/iomem.txt')
           if line.strip().endswith(': System RAM')]
    segs = loads(ours)
    wrong = shape(segs)
    if wrong:
        return fail(wrong)
    uts = next(int(line.split()[0], 16) for line in open(kallsyms)
               if line.split()[2:3] == ['init_uts_ns'])
    release = next(line.strip().split('=', 1)[1] for line in open(vmcoreinfo)
                   if line.startswith('OSRELEASE='))
    # struct new_utsname: six fields of 65 bytes, release the third, after a kref-free head.
    with open(ours, 'rb') as f:
        head = read_by_segment(f, segs, uts, 512)
        if head is None:
            return fail('no PT_LOAD holds init_uts_ns at %x' % uts)
        found = head.find(b'Linux\0')
        if found < 0 or head[found + 130:found + 195].split(b'\0')[0].decode() != release:
            return fail('init_uts_ns through the segments lacks %s: %r' % (release, head[:200]))
        k = kdumpfile.kdumpfile(ours)
        k.attr['addrxlat.ostype'] = 'linux'
        if k.read(kdumpfile.KDUMP_KVADDR, uts, 512) != head:
            return fail('libkdumpfile reads init_uts_ns otherwise')
        ref = kdumpfile.kdumpfile(qemu)
        ref.attr['addrxlat.ostype'] = 'linux'
        checked = 0
        for s in segs:
            # The first, middle and last page the segment holds, if not zeros.
            for at in sorted({0, s.filesz // PAGE // 2 * PAGE, s.filesz - PAGE}):
                if at < 0 or at + PAGE > s.filesz or \
                   not any(lo <= s.paddr + at and s.paddr + at + PAGE - 1 <= hi for lo, hi in ram):
                    continue
                f.seek(s.offset + at)
                page = f.read(PAGE)
                if page == ZERO:
                    continue
                try:
                    want = ref.read(kdumpfile.KDUMP_KVADDR, s.vaddr + at, PAGE)
                except Exception as e:  # unmapped in the guest: the address is wrong
                    return fail('%x (paddr 0x%x): the guest\'s page tables: %s'
                                % (s.vaddr + at, s.paddr + at, e))
                if want != page:
                    return fail('%x (paddr 0x%x) holds other bytes than the guest maps there'
                                % (s.vaddr + at, s.paddr + at))
                checked += 1
    print('%d PT_LOADs at kernel addresses; init_uts_ns says %s; %d pages as the page tables map them'
          % (len(segs), release, checked))
    return 0 if checked >= len(segs) - 1 else fail('only %d pages checked' % checked)


def cmd_upstream(args):
    ours, ref = args
    segs, up = loads(ours), loads(ref)
    wrong = shape(segs)
    if wrong:
        return fail(wrong)
    image, direct = split(segs)
    strip = lambda s: (s.flags, s.paddr, s.memsz, s.align)
    if [strip(s) for s in direct] != [strip(s) for s in up] or \
       [s.filesz for s in direct[:-1]] != [s.filesz for s in up[:-1]]:
        return fail('the direct-map PT_LOADs are not upstream\'s')
    with open(ours, 'rb') as a, open(ref, 'rb') as b:
        for s, u in zip(direct, up):
            a.seek(s.offset)
            b.seek(u.offset)
            if a.read(u.filesz) != b.read(u.filesz):
                return fail('the segment at paddr 0x%x holds other bytes' % s.paddr)
        for s in image:
            for at in range(0, s.filesz, PAGE):
                held = [u for u in up if u.paddr <= s.paddr + at < u.paddr + u.filesz]
                if not held:
                    return fail('upstream holds no page at paddr 0x%x' % (s.paddr + at))
                a.seek(s.offset + at)
                b.seek(held[0].offset + s.paddr + at - held[0].paddr)
                if a.read(PAGE) != b.read(PAGE):
                    return fail('the image\'s page at paddr 0x%x is not upstream\'s' % (s.paddr + at))
    print('%d image PT_LOADs, %d direct-map PT_LOADs as upstream cuts them' % (len(image), len(direct)))
    return 0


def cmd_kexec(args):
    ours, kexec = args
    segs, ref = loads(ours), loads(kexec)
    wrong = shape(segs)
    if wrong:
        return fail(wrong)
    image = [r for r in ref if r.vaddr >= START_KERNEL_MAP]
    direct = {r.vaddr - r.paddr for r in ref if r.vaddr < START_KERNEL_MAP}
    if len(image) != 1 or len(direct) != 1:
        return fail('%s is not a kexec layout' % kexec)
    img = image[0]
    for s in segs:
        inside = s.vaddr >= START_KERNEL_MAP
        want = img.vaddr - img.paddr if inside else next(iter(direct))
        if s.vaddr - s.paddr != want:
            return fail('the PT_LOAD at paddr 0x%x is at %x, kexec\'s offset puts it at %x'
                        % (s.paddr, s.vaddr, s.paddr + want))
        if inside and not img.paddr <= s.paddr <= s.paddr + s.memsz <= img.paddr + img.memsz:
            return fail('the image PT_LOAD at paddr 0x%x leaves kexec\'s image segment' % s.paddr)
    last = max(s.paddr + s.memsz for s in segs if s.vaddr >= START_KERNEL_MAP)
    if last != img.paddr + img.memsz:
        return fail('the image PT_LOADs end at 0x%x, kexec\'s at 0x%x' % (last, img.paddr + img.memsz))
    print('%d PT_LOADs at kexec\'s addresses' % len(segs))
    return 0


def main():
    commands = {'kernel': cmd_kernel, 'upstream': cmd_upstream, 'kexec': cmd_kexec}
    if len(sys.argv) < 3 or sys.argv[1] not in commands:
        raise SystemExit(__doc__)
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the generators of the other architectures' dumps share
 * (gen_arm64.c, gen_ppc64.c, gen_riscv64.c, gen_s390x.c).  Each writes a
 * small ELF vmcore for address translation alone, in its kernel's byte
 * order, with the translations it must give as facts:
 *
 *   vtop VADDR PADDR      VADDR translates to PADDR
 *   vtop_fail VADDR       VADDR translates to nothing (a hole)
 *
 * as tests/py/gencheck.py reads them.  The memory's zero pages are left
 * as holes in the file, which a reader sees as zeros.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mkvmcore.h"

void vtop_fact(struct vtop_facts *v, uint64_t vaddr, uint64_t paddr)
{
	if (v->nfacts == VTOP_MAX_FACTS)
		die("internal: more than %d vtop facts", VTOP_MAX_FACTS);
	v->facts[v->nfacts].vaddr = vaddr;
	v->facts[v->nfacts++].paddr = paddr;
}

void vtop_fail(struct vtop_facts *v, uint64_t vaddr)
{
	if (v->nfails == VTOP_MAX_FAILS)
		die("internal: more than %d vtop_fail facts", VTOP_MAX_FAILS);
	v->fails[v->nfails++] = vaddr;
}

void vtop_facts_write(FILE *f, const struct vtop_facts *v)
{
	for (int i = 0; i < v->nfacts; i++)
		fprintf(f, "vtop 0x%" PRIx64 " 0x%" PRIx64 "\n", v->facts[i].vaddr, v->facts[i].paddr);
	for (int i = 0; i < v->nfails; i++)
		fprintf(f, "vtop_fail 0x%" PRIx64 "\n", v->fails[i]);
}

static void put16(uint8_t *p, uint16_t v, bool big_endian)
{
	if (big_endian)
		put_be16(p, v);
	else
		put_le16(p, v);
}

static void put32(uint8_t *p, uint32_t v, bool big_endian)
{
	if (big_endian)
		put_be32(p, v);
	else
		put_le32(p, v);
}

static void put64(uint8_t *p, uint64_t v, bool big_endian)
{
	if (big_endian)
		put_be64(p, v);
	else
		put_le64(p, v);
}

/*
 * The kernel's VMCOREINFO ELF note: namesz, descsz, type 0, the name
 * "VMCOREINFO" padded to 12 bytes, then the text padded to 4.
 */
size_t vmcoreinfo_note(uint8_t *p, const char *text, size_t len, bool big_endian)
{
	size_t padded = (len + 3) & ~(size_t)3;

	put32(p, 11, big_endian);
	put32(p + 4, (uint32_t)len, big_endian);
	put32(p + 8, 0, big_endian);
	memcpy(p + 12, "VMCOREINFO\0\0", 12);
	memcpy(p + 24, text, len);
	memset(p + 24 + len, 0, padded - len);
	return 24 + padded;
}

/* ELF64, version 1, ET_CORE, the program headers right after this header. */
static void elf64_core_header(uint8_t eh[64], uint16_t machine, uint16_t nph, bool big_endian)
{
	static const uint8_t ident[7] = { 0x7f, 'E', 'L', 'F', 2 /* ELFCLASS64 */, 0, 1 /* EV_CURRENT */ };

	memset(eh, 0, 64);
	memcpy(eh, ident, sizeof(ident));
	eh[5] = big_endian ? 2 : 1;         /* EI_DATA */
	put16(eh + 16, 4, big_endian);      /* ET_CORE */
	put16(eh + 18, machine, big_endian);
	put32(eh + 20, 1, big_endian);
	put64(eh + 32, 64, big_endian);     /* e_phoff */
	put16(eh + 52, 64, big_endian);     /* e_ehsize */
	put16(eh + 54, 56, big_endian);     /* e_phentsize */
	put16(eh + 56, nph, big_endian);
}

static void elf64_phdr(uint8_t ph[56], uint32_t type, uint32_t flags, uint64_t offset, uint64_t vaddr,
		       uint64_t paddr, uint64_t size, uint64_t align, bool big_endian)
{
	memset(ph, 0, 56);
	put32(ph, type, big_endian);
	put32(ph + 4, flags, big_endian);
	put64(ph + 8, offset, big_endian);
	put64(ph + 16, vaddr, big_endian);
	put64(ph + 24, paddr, big_endian);
	put64(ph + 32, size, big_endian);
	put64(ph + 40, size, big_endian);
	put64(ph + 48, align, big_endian);
}

static void pwrite_or_die(int fd, const void *buf, size_t len, off_t off, const char *path)
{
	if (pwrite(fd, buf, len, off) != (ssize_t)len)
		die("%s: %s", path, strerror(errno));
}

static uint64_t align_up(uint64_t v, uint64_t page_size)
{
	return (v + page_size - 1) & ~(page_size - 1);
}

/*
 * The layout: the ELF header, the program headers (PT_NOTE first, where
 * there are notes), the notes from the next page boundary, then from the
 * one after them each load's memory, one after the other.  PT_LOADs are
 * readable, writable and executable, as kexec and QEMU write them.
 */
void write_elf_vmcore(const char *path, uint16_t machine, bool big_endian, uint64_t page_size,
		      uint64_t load_align, const uint8_t *notes, uint64_t notes_len,
		      const struct elf_load *loads, int nloads)
{
	static const uint8_t zero[65536];
	uint8_t eh[64], ph[ELF_MAX_LOADS + 1][56];
	int nph = (notes_len ? 1 : 0) + nloads, fd;
	uint64_t off = align_up(64 + 56 * (uint64_t)nph, page_size), notes_off = off;

	if (nloads > ELF_MAX_LOADS || page_size > sizeof(zero))
		die("internal: %d PT_LOADs of %" PRIu64 "-byte pages", nloads, page_size);
	elf64_core_header(eh, machine, (uint16_t)nph, big_endian);
	if (notes_len) {
		elf64_phdr(ph[0], 4 /* PT_NOTE */, 0, notes_off, 0, 0, notes_len, 0, big_endian);
		off = align_up(off + notes_len, page_size);
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	for (int i = 0; i < nloads; i++) {
		elf64_phdr(ph[nph - nloads + i], 1 /* PT_LOAD */, 7 /* PF_R | PF_W | PF_X */, off, loads[i].vaddr,
			   loads[i].paddr, loads[i].size, load_align, big_endian);
		for (uint64_t at = 0; at < loads[i].size; at += page_size)
			if (memcmp(loads[i].mem + at, zero, page_size))
				pwrite_or_die(fd, loads[i].mem + at, page_size, (off_t)(off + at), path);
		off += loads[i].size;
	}
	pwrite_or_die(fd, eh, sizeof(eh), 0, path);
	pwrite_or_die(fd, ph, 56 * (size_t)nph, 64, path);
	if (notes_len)
		pwrite_or_die(fd, notes, notes_len, (off_t)notes_off, path);
	if (ftruncate(fd, (off_t)off) || close(fd))
		die("%s: %s", path, strerror(errno));
}

void write_file_or_die(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("%s: %s", path, strerror(errno));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ELF core file, in one of the two shapes Linux crash dumps come in.
 *
 * kexec (/proc/vmcore of a kdump kernel): ELF header, program headers
 * right after it, notes at the next page (CORE/NT_PRSTATUS per CPU, then
 * VMCOREINFO), then the PT_LOADs, each starting on a page boundary of the
 * file and padded to whole pages as /proc/vmcore does.  The first PT_LOAD
 * is the kernel image at its __START_KERNEL_map address; the others are
 * RAM at page_offset_base + paddr.  p_flags RWX, p_align 0.
 *
 * qemu (dump-guest-memory, QEMU >= 7.2): ELF header, then a section header
 * table (a NULL section and .shstrtab), then the program headers, the notes
 * (NT_PRSTATUS per CPU, a "QEMU" CPU-state note per CPU, VMCOREINFO) and the
 * PT_LOAD data packed without alignment; .shstrtab's bytes come last.
 * PT_LOADs are QEMU's RAM blocks with p_vaddr == p_paddr, flags 0.
 *
 * Headers are encoded with libelf's translators (elf64_xlatetof).  elf_update
 * is not used because it writes every gap between the headers and a section
 * placed after the memory image, i.e. the whole image, even when it is
 * meant to be sparse.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkvmcore.h"

#define PRSTATUS_SIZE		336
#define PRSTATUS_PID		32
#define PRSTATUS_REG		112
#define QEMU_CPUSTATE_SIZE	0x1b8
#define NOTE_ALIGN(n)		(((n) + 3) & ~(size_t)3)

/* pt_regs order in elf_prstatus.pr_reg */
enum { R_R15, R_R14, R_R13, R_R12, R_RBP, R_RBX, R_R11, R_R10, R_R9, R_R8,
       R_RAX, R_RCX, R_RDX, R_RSI, R_RDI, R_ORIG_RAX, R_RIP, R_CS, R_EFLAGS,
       R_RSP, R_SS, R_FS_BASE, R_GS_BASE, R_DS, R_ES, R_FS, R_GS };

struct buf {
	uint8_t *p;
	size_t len;
};

static void buf_add(struct buf *b, const void *data, size_t len)
{
	b->p = realloc(b->p, b->len + len + 1);
	if (!b->p)
		die("out of memory");
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void buf_printf(struct buf *b, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	buf_add(b, line, n);
}

static void put_sym(struct gen *g, struct buf *b, const char *name)
{
	buf_printf(b, "SYMBOL(%s)=%" PRIx64 "\n", name, ksym_addr(g, name));
}

/* --vmcoreinfo-drop: the lines that start with one of the prefixes go. */
static void drop_lines(const struct gen *g, struct buf *b)
{
	size_t kept = 0;

	for (size_t at = 0; at < b->len;) {
		const char *line = (const char *)b->p + at;
		const char *nl = memchr(line, '\n', b->len - at);
		size_t len = nl ? (size_t)(nl - line) + 1 : b->len - at;
		bool drop = false;

		for (int i = 0; i < g->nvmcoreinfo_drop; i++)
			drop |= !strncmp(line, g->vmcoreinfo_drop[i], strlen(g->vmcoreinfo_drop[i]));
		if (!drop)
			memmove(b->p + kept, line, len);
		kept += drop ? 0 : len;
		at += len;
	}
	b->len = kept;
}

/* The key set and order of a Debian 6.1 kernel's VMCOREINFO. */
void vmcoreinfo_build(struct gen *g)
{
	static const char *const struct_lines =
		"SIZE(page)=64\n"
		"SIZE(pglist_data)=174208\n"
		"SIZE(zone)=1536\n"
		"SIZE(free_area)=88\n"
		"SIZE(list_head)=16\n"
		"SIZE(nodemask_t)=128\n"
		"OFFSET(page.flags)=0\n"
		"OFFSET(page._refcount)=52\n"
		"OFFSET(page.mapping)=24\n"
		"OFFSET(page.lru)=8\n"
		"OFFSET(page._mapcount)=48\n"
		"OFFSET(page.private)=40\n"
		"OFFSET(page.compound_dtor)=16\n"
		"OFFSET(page.compound_order)=17\n"
		"OFFSET(page.compound_head)=8\n"
		"OFFSET(pglist_data.node_zones)=0\n"
		"OFFSET(pglist_data.nr_zones)=171552\n"
		"OFFSET(pglist_data.node_start_pfn)=171560\n"
		"OFFSET(pglist_data.node_spanned_pages)=171576\n"
		"OFFSET(pglist_data.node_id)=171584\n"
		"OFFSET(zone.free_area)=256\n"
		"OFFSET(zone.vm_stat)=1344\n"
		"OFFSET(zone.spanned_pages)=144\n"
		"OFFSET(free_area.free_list)=0\n"
		"OFFSET(list_head.next)=0\n"
		"OFFSET(list_head.prev)=8\n"
		"OFFSET(vmap_area.va_start)=0\n"
		"OFFSET(vmap_area.list)=40\n"
		"LENGTH(zone.free_area)=11\n";
	static const char *const printk_lines =
		"SIZE(printk_ringbuffer)=88\n"
		"OFFSET(printk_ringbuffer.desc_ring)=0\n"
		"OFFSET(printk_ringbuffer.text_data_ring)=48\n"
		"OFFSET(printk_ringbuffer.fail)=80\n"
		"SIZE(prb_desc_ring)=48\n"
		"OFFSET(prb_desc_ring.count_bits)=0\n"
		"OFFSET(prb_desc_ring.descs)=8\n"
		"OFFSET(prb_desc_ring.infos)=16\n"
		"OFFSET(prb_desc_ring.head_id)=24\n"
		"OFFSET(prb_desc_ring.tail_id)=32\n"
		"SIZE(prb_desc)=24\n"
		"OFFSET(prb_desc.state_var)=0\n"
		"OFFSET(prb_desc.text_blk_lpos)=8\n"
		"SIZE(prb_data_blk_lpos)=16\n"
		"OFFSET(prb_data_blk_lpos.begin)=0\n"
		"OFFSET(prb_data_blk_lpos.next)=8\n"
		"SIZE(printk_info)=88\n"
		"OFFSET(printk_info.seq)=0\n"
		"OFFSET(printk_info.ts_nsec)=8\n"
		"OFFSET(printk_info.text_len)=16\n"
		"OFFSET(printk_info.caller_id)=20\n"
		"OFFSET(printk_info.dev_info)=24\n"
		"SIZE(dev_printk_info)=64\n"
		"OFFSET(dev_printk_info.subsystem)=0\n"
		"LENGTH(printk_info_subsystem)=16\n"
		"OFFSET(dev_printk_info.device)=16\n"
		"LENGTH(printk_info_device)=48\n"
		"SIZE(prb_data_ring)=32\n"
		"OFFSET(prb_data_ring.size_bits)=0\n"
		"OFFSET(prb_data_ring.data)=8\n"
		"OFFSET(prb_data_ring.head_lpos)=16\n"
		"OFFSET(prb_data_ring.tail_lpos)=24\n"
		"SIZE(atomic_long_t)=8\n"
		"OFFSET(atomic_long_t.counter)=0\n"
		"SIZE(latched_seq)=24\n"
		"OFFSET(latched_seq.val)=8\n";
	static const char *const page_lines =
		"LENGTH(free_area.free_list)=5\n"
		"NUMBER(NR_FREE_PAGES)=0\n"
		"NUMBER(PG_lru)=4\n"
		"NUMBER(PG_private)=13\n"
		"NUMBER(PG_swapcache)=10\n"
		"NUMBER(PG_swapbacked)=19\n"
		"NUMBER(PG_slab)=9\n"
		"NUMBER(PG_hwpoison)=23\n"
		"NUMBER(PG_head_mask)=65536\n"
		"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
		"NUMBER(HUGETLB_PAGE_DTOR)=2\n"
		"NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)=-257\n";
	struct buf b = { NULL, 0 };
	uint64_t rng = g->seed ^ 0x6275696c642d6964ULL;

	uint64_t draw[3];

	/* Three numbers, laid out last first as the build ID was always made from them. */
	for (int i = 0; i < 3; i++)
		draw[i] = rng_next(&rng);
	for (int j = 0; j < 8; j++) {
		g->build_id[j] = (uint8_t)(draw[2] >> (56 - 8 * j));
		g->build_id[8 + j] = (uint8_t)(draw[1] >> (56 - 8 * j));
	}
	for (int j = 0; j < 4; j++)
		g->build_id[16 + j] = (uint8_t)(draw[0] >> (24 - 8 * j));
	buf_printf(&b, "OSRELEASE=%s\n", g->osrelease);
	if (!g->no_build_id) {
		buf_printf(&b, "BUILD-ID=");
		for (size_t i = 0; i < sizeof(g->build_id); i++)
			buf_printf(&b, "%02x", g->build_id[i]);
		buf_printf(&b, "\n");
	}
	buf_printf(&b, "PAGESIZE=%" PRIu64 "\n", PAGE_SIZE);
	put_sym(g, &b, "init_uts_ns");
	buf_printf(&b, "OFFSET(uts_namespace.name)=0\n");
	put_sym(g, &b, "node_online_map");
	buf_printf(&b, "SYMBOL(swapper_pg_dir)=%" PRIx64 "\n",
		   ksym_addr(g, "init_top_pgt"));
	put_sym(g, &b, "_stext");
	put_sym(g, &b, "vmap_area_list");
	buf_printf(&b, "SYMBOL(mem_section)=%" PRIx64 "\n", g->mem_section_root);
	buf_printf(&b, "LENGTH(mem_section)=%" PRIu64 "\n", g->nr_section_roots);
	buf_printf(&b, "SIZE(mem_section)=32\n");
	buf_printf(&b, "OFFSET(mem_section.section_mem_map)=0\n");
	buf_printf(&b, "NUMBER(SECTION_SIZE_BITS)=%d\n", SECTION_SIZE_BITS);
	buf_printf(&b, "NUMBER(MAX_PHYSMEM_BITS)=%" PRIu64 "\n",
		   g->max_physmem_bits);
	buf_add(&b, struct_lines, strlen(struct_lines));
	put_sym(g, &b, "prb");
	put_sym(g, &b, "printk_rb_static");
	put_sym(g, &b, "clear_seq");
	buf_add(&b, printk_lines, strlen(printk_lines));
	buf_add(&b, page_lines, strlen(page_lines));
	put_sym(g, &b, "kallsyms_names");
	put_sym(g, &b, "kallsyms_num_syms");
	put_sym(g, &b, "kallsyms_token_table");
	put_sym(g, &b, "kallsyms_token_index");
	if (g->enc == KSYM_ABSOLUTE) {
		put_sym(g, &b, "kallsyms_addresses");
	} else {
		put_sym(g, &b, "kallsyms_offsets");
		if (g->enc != KSYM_PLACE_RELATIVE)
			put_sym(g, &b, "kallsyms_relative_base");
	}
	buf_printf(&b, "NUMBER(phys_base)=%" PRId64 "\n", (int64_t)g->phys_base);
	put_sym(g, &b, "init_top_pgt");
	buf_printf(&b, "NUMBER(pgtable_l5_enabled)=%d\n", g->levels == 5);
	put_sym(g, &b, "node_data");
	buf_printf(&b, "LENGTH(node_data)=1024\n");
	/* arch_crash_save_vmcoreinfo() only tells the offset with KASLR on */
	if (g->kaslr)
		buf_printf(&b, "KERNELOFFSET=%" PRIx64 "\n", g->kaslr);
	buf_printf(&b, "NUMBER(KERNEL_IMAGE_SIZE)=%" PRIu64 "\n",
		   KERNEL_IMAGE_SIZE);
	buf_printf(&b, "NUMBER(sme_mask)=0\n");
	/* appended by crash_save_vmcoreinfo() at panic, so only with kdump */
	if (g->layout == LAYOUT_KEXEC)
		buf_printf(&b, "CRASHTIME=%" PRId64 "\n", g->crashtime);
	drop_lines(g, &b);
	g->vmcoreinfo = (char *)b.p;
	g->vmcoreinfo_len = b.len;
}

static void note_add(struct buf *b, const char *name, uint32_t type,
		     const void *desc, size_t descsz)
{
	static const uint8_t zeros[4];
	GElf_Nhdr nh = { .n_namesz = strlen(name) + 1, .n_descsz = descsz,
			 .n_type = type };
	uint8_t out[sizeof(nh)];
	Elf_Data src = { .d_buf = &nh, .d_type = ELF_T_NHDR,
			 .d_size = sizeof(nh), .d_version = EV_CURRENT };
	Elf_Data dst = { .d_buf = out, .d_type = ELF_T_NHDR,
			 .d_size = sizeof(out), .d_version = EV_CURRENT };

	if (!elf64_xlatetof(&dst, &src, ELFDATA2LSB))
		die("libelf: %s", elf_errmsg(-1));
	buf_add(b, out, sizeof(out));
	buf_add(b, name, nh.n_namesz);
	buf_add(b, zeros, NOTE_ALIGN(nh.n_namesz) - nh.n_namesz);
	buf_add(b, desc, descsz);
	buf_add(b, zeros, NOTE_ALIGN(descsz) - descsz);
}

/*
 * The crashing CPU (the last one) was in sysrq_handle_crash; the others
 * were stopped in their idle loop, pid 0.
 */
static void make_notes(struct gen *g, struct buf *notes)
{
	uint64_t rip = ksym_addr(g, "sysrq_handle_crash") + 0x16;
	uint64_t stack = dm_vaddr(g, g->pgdat_paddr) - 0x2000;

	for (int cpu = 0; cpu < g->ncpus; cpu++) {
		uint8_t pr[PRSTATUS_SIZE] = { 0 };
		uint8_t *reg = pr + PRSTATUS_REG;
		bool crashing = cpu == g->ncpus - 1;

		put_le32(pr + PRSTATUS_PID, crashing ? 1 : 0);
		put_le64(reg + 8 * R_RIP, crashing ? rip : g->text_vaddr + 0x2a0);
		put_le64(reg + 8 * R_CS, 0x10);
		put_le64(reg + 8 * R_EFLAGS, 0x246);
		put_le64(reg + 8 * R_RSP, stack - 0x4000 * cpu);
		put_le64(reg + 8 * R_SS, 0x18);
		put_le64(reg + 8 * R_ORIG_RAX, UINT64_MAX);
		note_add(notes, "CORE", NT_PRSTATUS, pr, sizeof(pr));
	}
	if (g->layout == LAYOUT_QEMU) {
		for (int cpu = 0; cpu < g->ncpus; cpu++) {
			uint8_t qs[QEMU_CPUSTATE_SIZE] = { 0 };

			put_le32(qs, 1);			/* version */
			put_le32(qs + 4, QEMU_CPUSTATE_SIZE);
			put_le64(qs + 56, stack - 0x4000 * cpu);	/* rsp */
			put_le64(qs + 136, g->text_vaddr + 0x2a0); /* rip */
			put_le64(qs + 144, 0x246);		/* rflags */
			put_le64(qs + 152, 0xffffffff00000010);	/* cs */
			put_le64(qs + 160, 0xaf9b00);
			put_le64(qs + 272, 0xffffffff00000018);	/* ss */
			put_le64(qs + 280, 0xcf9300);
			put_le64(qs + 392, 0x80050033);		/* cr0 */
			put_le64(qs + 416, g->pgd_paddr);	/* cr3 */
			put_le64(qs + 424, 0x6f0 | (g->levels == 5 ?
						    0x1000 : 0)); /* cr4 */
			note_add(notes, "QEMU", 0, qs, sizeof(qs));
		}
	}
	note_add(notes, "VMCOREINFO", 0, g->vmcoreinfo, g->vmcoreinfo_len);
}

static bool mem_is_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void pwrite_all(int fd, const void *p, size_t len, off_t off)
{
	if (pwrite(fd, p, len, off) != (ssize_t)len)
		die("write: %s", strerror(errno));
}

/*
 * Copies [paddr, paddr + len) of physical memory to the file, a chunk at a
 * time.  Never-written chunks are zeros; with --sparse they and every zero
 * page are left as holes.
 */
static void write_memory(struct gen *g, int fd, off_t off, uint64_t paddr,
			 uint64_t len)
{
	static const uint8_t zeros[CHUNK_SIZE];

	if ((paddr | len) & (PAGE_SIZE - 1))
		die("internal: unaligned segment %#" PRIx64, paddr);
	while (len) {
		uint64_t n = CHUNK_SIZE - (paddr & (CHUNK_SIZE - 1));
		const uint8_t *p = phys_peek(g, paddr);

		if (n > len)
			n = len;
		if (!g->sparse) {
			pwrite_all(fd, p ? p : zeros, n, off);
		} else if (p) {
			uint64_t i = 0;

			while (i < n) {
				uint64_t j = i;

				while (j < n && !mem_is_zero(p + j, PAGE_SIZE))
					j += PAGE_SIZE;
				if (j > i)
					pwrite_all(fd, p + i, j - i, off + i);
				i = j + PAGE_SIZE;
			}
		}
		off += n;
		paddr += n;
		len -= n;
	}
}

static void xlate_write(int fd, off_t off, void *mem, size_t size,
			Elf_Type type)
{
	uint8_t *out = xcalloc(1, size);
	Elf_Data src = { .d_buf = mem, .d_type = type, .d_size = size,
			 .d_version = EV_CURRENT };
	Elf_Data dst = { .d_buf = out, .d_type = type, .d_size = size,
			 .d_version = EV_CURRENT };

	if (!elf64_xlatetof(&dst, &src, ELFDATA2LSB))
		die("libelf: %s", elf_errmsg(-1));
	pwrite_all(fd, out, size, off);
	free(out);
}

void elf_write(struct gen *g)
{
	struct buf notes = { NULL, 0 };
	bool kexec = g->layout == LAYOUT_KEXEC;
	int nphdr = 1 + g->nfile + (kexec ? 1 : 0), fd, ph = 0;
	GElf_Phdr *phdr = xcalloc(nphdr, sizeof(*phdr));
	uint64_t *src = xcalloc(nphdr, sizeof(*src));	/* paddr of file data */
	uint64_t *srclen = xcalloc(nphdr, sizeof(*srclen));
	GElf_Ehdr eh = { 0 };
	GElf_Shdr sh[2] = { { 0 } };
	static const char shstrtab[] = "\0.shstrtab";
	off_t off, shoff = 64, phoff;

	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));
	make_notes(g, &notes);

	phoff = kexec ? 64 : shoff + 2 * sizeof(GElf_Shdr);
	off = phoff + nphdr * sizeof(GElf_Phdr);
	if (kexec)
		off = (off + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	phdr[ph].p_type = PT_NOTE;
	phdr[ph].p_offset = off;
	phdr[ph].p_filesz = phdr[ph].p_memsz = notes.len;
	ph++;
	off += notes.len;
	if (kexec)
		off = (off + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);

	for (int i = -1; i < g->nfile; i++) {
		uint64_t start, end, pstart, pend, vaddr;

		if (i < 0 && !kexec)
			continue;
		if (i < 0) {
			start = g->kernel_phys;
			end = start + (g->image_end - g->text_vaddr);
			vaddr = g->text_vaddr;
		} else {
			start = g->file[i].start;
			end = g->file[i].end;
			vaddr = kexec ? dm_vaddr(g, start) : start;
		}
		/* /proc/vmcore puts each segment on whole pages */
		pstart = kexec ? start & ~(PAGE_SIZE - 1) : start;
		pend = kexec ? (end + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1) : end;
		phdr[ph].p_type = PT_LOAD;
		phdr[ph].p_flags = kexec ? PF_R | PF_W | PF_X : 0;
		phdr[ph].p_offset = off + (start - pstart);
		phdr[ph].p_vaddr = vaddr;
		phdr[ph].p_paddr = start;
		phdr[ph].p_filesz = phdr[ph].p_memsz = end - start;
		src[ph] = pstart;
		srclen[ph] = pend - pstart;
		off += pend - pstart;
		ph++;
	}

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = phoff;
	/* QEMU (7.2 .. at least 9.x) stores 8 here; copied for fidelity */
	eh.e_ehsize = kexec ? sizeof(Elf64_Ehdr) : 8;
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = nphdr;
	if (!kexec) {
		eh.e_shoff = shoff;
		eh.e_shentsize = sizeof(Elf64_Shdr);
		eh.e_shnum = 2;
		eh.e_shstrndx = 1;
		sh[1].sh_name = 1;
		sh[1].sh_type = SHT_STRTAB;
		sh[1].sh_offset = off;
		sh[1].sh_size = sizeof(shstrtab);
	}

	fd = open(g->out_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", g->out_path, strerror(errno));
	xlate_write(fd, 0, &eh, sizeof(Elf64_Ehdr), ELF_T_EHDR);
	if (!kexec)
		xlate_write(fd, shoff, sh, 2 * sizeof(Elf64_Shdr), ELF_T_SHDR);
	xlate_write(fd, phoff, phdr, nphdr * sizeof(Elf64_Phdr), ELF_T_PHDR);
	pwrite_all(fd, notes.p, notes.len, phdr[0].p_offset);
	for (int i = 1; i < nphdr; i++)
		write_memory(g, fd, phdr[i].p_offset - (phdr[i].p_paddr -
			     src[i]), src[i], srclen[i]);
	if (!kexec) {
		pwrite_all(fd, shstrtab, sizeof(shstrtab), off);
		off += sizeof(shstrtab);
	}
	if (ftruncate(fd, off) || close(fd))
		die("%s: %s", g->out_path, strerror(errno));
	free(notes.p);
	free(phdr);
	free(src);
	free(srclen);
}

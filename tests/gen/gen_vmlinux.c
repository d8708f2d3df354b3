// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --vmlinux FILE: the sample kernel's vmlinux, as a kernel's debug package
 * has it, for makedumpfile -x and -g:
 * - ELF64 ET_EXEC, x86_64, linked where the kernel is without KASLR: its
 *   symbols are the dump's less KERNELOFFSET, the absolute ones as they
 *   are;
 * - sections and PT_LOADs spanning the image, text to _end; only the
 *   data section has contents, the dump's bytes (upstream makedumpfile
 *   -g reads init_uts_ns from it), the others are NOBITS;
 * - a GNU build ID note whose bytes are VMCOREINFO's BUILD-ID (none with
 *   --no-build-id);
 * - DWARF: the debug sections of tests/gen/vmlinux_types.c compiled
 *   with -g, which mkvmcore carries in itself (the Makefile compiles it
 *   and names the result in MKVMCORE_VMLINUX_TYPES).
 *
 * The layout is computed here (ELF_F_LAYOUT): headers, the note, the
 * data, the debug sections, the symbol table, then the section headers.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkvmcore.h"

#ifndef MKVMCORE_VMLINUX_TYPES
#error "MKVMCORE_VMLINUX_TYPES must name the compiled tests/gen/vmlinux_types.c"
#endif

__asm__(".pushsection .rodata\n"
	".balign 16\n"
	".globl mkvmcore_vmlinux_types\n"
	"mkvmcore_vmlinux_types:\n"
	".incbin \"" MKVMCORE_VMLINUX_TYPES "\"\n"
	".globl mkvmcore_vmlinux_types_end\n"
	"mkvmcore_vmlinux_types_end:\n"
	".popsection");
extern const char mkvmcore_vmlinux_types[], mkvmcore_vmlinux_types_end[];

#define NT_GNU_BUILD_ID_TYPE	3
#define MAX_SECTIONS		64

/* The image's parts, from the symbols that bound them; each a section. */
static const struct {
	const char *name, *start;
	bool progbits;
	uint64_t flags;
} parts[] = {
	{ ".text", "_text", false, SHF_ALLOC | SHF_EXECINSTR },
	{ ".rodata", "__start_rodata", false, SHF_ALLOC },
	{ ".data", "_sdata", true, SHF_ALLOC | SHF_WRITE },
	{ ".init", "__init_begin", false, SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR },
	{ ".bss", "__bss_start", false, SHF_ALLOC | SHF_WRITE },
};
#define NR_PARTS (sizeof(parts) / sizeof(parts[0]))

struct section {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, align, entsize;
	uint32_t link, info;
	const void *bytes;
	uint64_t size;
};

struct writer {
	struct section s[MAX_SECTIONS];
	size_t n;
	char shstrtab[4096];
	size_t shstrtab_len;
};

static size_t add_section(struct writer *w, struct section s)
{
	if (w->n == MAX_SECTIONS)
		die("internal: too many vmlinux sections");
	w->s[w->n] = s;
	return w->n++;
}

static uint32_t shstr(struct writer *w, const char *name)
{
	size_t len = strlen(name) + 1, at = w->shstrtab_len;

	if (at + len > sizeof(w->shstrtab))
		die("internal: vmlinux section names too long");
	memcpy(w->shstrtab + at, name, len);
	w->shstrtab_len += len;
	return (uint32_t)at;
}

/* Where the kernel was linked: without the KASLR offset. */
static uint64_t linked(const struct gen *g, uint64_t addr)
{
	return addr - g->kaslr;
}

/* The bytes of the dump's image from @start to @end, zeros where nothing was written. */
static uint8_t *image_bytes(const struct gen *g, uint64_t start, uint64_t end)
{
	uint8_t *buf = xcalloc(1, end - start);

	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t len = end - va < PAGE_SIZE ? end - va : PAGE_SIZE;
		const uint8_t *p = phys_peek(g, va - g->text_vaddr + g->kernel_phys);

		if (p)
			memcpy(buf + (va - start), p, len);
	}
	return buf;
}

/* The section index of a symbol at dump address @addr: its part of the image, or absolute. */
static uint16_t symbol_section(struct gen *g, const struct ksym *s, const size_t *part_index)
{
	if (s->type == 'A' || s->addr < g->text_vaddr || s->addr > g->image_end)
		return SHN_ABS;
	for (size_t i = NR_PARTS; i-- > 0;)
		if (s->addr >= ksym_addr(g, parts[i].start))
			return (uint16_t)part_index[i];
	return SHN_ABS;
}

static void fill_sym(struct gen *g, const struct ksym *s, uint32_t name, const size_t *part_index,
		     Elf64_Sym *out)
{
	bool upper = s->type >= 'A' && s->type <= 'Z';
	int bind = s->type == 'W' || s->type == 'V' ? STB_WEAK : upper ? STB_GLOBAL : STB_LOCAL;
	int type = s->type == 'T' || s->type == 't' || s->type == 'W' ? STT_FUNC
		   : s->type == 'A' || s->type == 'a'			  ? STT_NOTYPE
									  : STT_OBJECT;

	out->st_name = name;
	out->st_info = ELF64_ST_INFO(bind, type);
	out->st_other = STV_DEFAULT;
	out->st_shndx = symbol_section(g, s, part_index);
	out->st_value = out->st_shndx == SHN_ABS ? s->addr : linked(g, s->addr);
	out->st_size = 0;
}

/* The symbol table, locals first as ELF wants, and its strings. */
static void make_symtab(struct gen *g, const size_t *part_index, Elf64_Sym **syms, size_t *nr_syms,
			char **strtab, size_t *strtab_len, size_t *first_global)
{
	size_t n = 1, len = 1;

	*syms = xcalloc(g->nsyms + 1, sizeof(**syms));
	for (size_t i = 0; i < g->nsyms; i++)
		len += strlen(g->syms[i].name) + 1;
	*strtab = xcalloc(1, len);
	len = 1;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			*first_global = n;
		for (size_t i = 0; i < g->nsyms; i++) {
			const struct ksym *s = &g->syms[i];
			bool local = s->type >= 'a' && s->type <= 'z' && s->type != 'w' && s->type != 'v';

			if (local != (pass == 0))
				continue;
			fill_sym(g, s, (uint32_t)len, part_index, &(*syms)[n++]);
			strcpy(*strtab + len, s->name);
			len += strlen(s->name) + 1;
		}
	}
	*nr_syms = n;
	*strtab_len = len;
}

static void set_phdr(Elf *e, int i, uint32_t type, uint32_t flags, uint64_t offset, uint64_t vaddr,
		     uint64_t filesz, uint64_t memsz, uint64_t align)
{
	GElf_Phdr ph = { .p_type = type, .p_flags = flags, .p_offset = offset, .p_vaddr = vaddr,
			 .p_paddr = type == PT_LOAD ? vaddr - START_KERNEL_MAP : 0, .p_filesz = filesz,
			 .p_memsz = memsz, .p_align = align };

	if (!gelf_update_phdr(e, i, &ph))
		die("libelf: %s", elf_errmsg(-1));
}

void vmlinux_write(struct gen *g)
{
	size_t size = (size_t)(mkvmcore_vmlinux_types_end - mkvmcore_vmlinux_types);
	char *types_image = xcalloc(1, size);
	uint64_t sdata = ksym_addr(g, "_sdata"), init = ksym_addr(g, "__init_begin");
	uint8_t *data = image_bytes(g, sdata, init);
	struct writer w = { .n = 1, .shstrtab_len = 1 };
	size_t part_index[NR_PARTS], note = 0, symtab, nr_syms, strtab_len, first_global = 1;
	uint8_t note_bytes[16 + sizeof(g->build_id)];
	uint64_t offset, notes_offset = 0, data_offset = 0;
	Elf64_Sym *syms;
	char *strtab;
	Elf *types, *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	uint32_t names[MAX_SECTIONS];
	int fd, nr_phdrs = g->no_build_id ? 3 : 4;

	memcpy(types_image, mkvmcore_vmlinux_types, size);
	elf_version(EV_CURRENT);
	types = elf_memory(types_image, size);
	if (!types || elf_getshdrstrndx(types, &shstrndx))
		die("the compiled %s is no ELF file: %s", MKVMCORE_VMLINUX_TYPES, elf_errmsg(-1));

	for (size_t i = 0; i < NR_PARTS; i++) {
		uint64_t start = ksym_addr(g, parts[i].start);
		uint64_t end = i + 1 < NR_PARTS ? ksym_addr(g, parts[i + 1].start) : g->image_end;

		part_index[i] = add_section(&w, (struct section){
			parts[i].name, parts[i].progbits ? SHT_PROGBITS : SHT_NOBITS, parts[i].flags,
			linked(g, start), 64, 0, 0, 0, parts[i].progbits ? data : NULL, end - start });
	}
	if (!g->no_build_id) {
		/* Elf64_Nhdr, "GNU\0", the 20 bytes */
		put_le32(note_bytes, 4);
		put_le32(note_bytes + 4, sizeof(g->build_id));
		put_le32(note_bytes + 8, NT_GNU_BUILD_ID_TYPE);
		memcpy(note_bytes + 12, "GNU", 4);
		memcpy(note_bytes + 16, g->build_id, sizeof(g->build_id));
		note = add_section(&w, (struct section){ ".notes", SHT_NOTE, 0, 0, 4, 0, 0, 0, note_bytes,
							 sizeof(note_bytes) });
	}
	while ((scn = elf_nextscn(types, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(types, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".debug_", 7))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d)
			die("the compiled types: %s does not read: %s", name, elf_errmsg(-1));
		add_section(&w, (struct section){ name, sh.sh_type, sh.sh_flags & ~(uint64_t)SHF_ALLOC, 0,
						  sh.sh_addralign, sh.sh_entsize, 0, 0, d->d_buf, d->d_size });
	}
	make_symtab(g, part_index, &syms, &nr_syms, &strtab, &strtab_len, &first_global);
	symtab = add_section(&w, (struct section){ ".symtab", SHT_SYMTAB, 0, 0, 8, sizeof(Elf64_Sym), 0,
						   (uint32_t)first_global, syms, nr_syms * sizeof(Elf64_Sym) });
	w.s[symtab].link = (uint32_t)add_section(&w, (struct section){ ".strtab", SHT_STRTAB, 0, 0, 1, 0, 0, 0,
								      strtab, strtab_len });
	shstrndx = add_section(&w, (struct section){ ".shstrtab", SHT_STRTAB, 0, 0, 1, 0, 0, 0, w.shstrtab, 0 });

	fd = open(g->vmlinux_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("cannot create %s", g->vmlinux_path);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, ELFCLASS64) || !gelf_getehdr(e, &eh) || !gelf_newphdr(e, (size_t)nr_phdrs))
		die("libelf: %s", elf_errmsg(-1));
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	/* Names first: .shstrtab's size is known once every name is in. */
	for (size_t i = 1; i < w.n; i++)
		names[i] = shstr(&w, w.s[i].name);
	w.s[shstrndx].size = w.shstrtab_len;

	offset = sizeof(Elf64_Ehdr) + (size_t)nr_phdrs * sizeof(Elf64_Phdr);
	for (size_t i = 1; i < w.n; i++) {
		struct section *s = &w.s[i];
		GElf_Shdr sh = { .sh_name = names[i], .sh_type = s->type, .sh_flags = s->flags,
				 .sh_addr = s->addr, .sh_size = s->size, .sh_link = s->link, .sh_info = s->info,
				 .sh_addralign = s->align, .sh_entsize = s->entsize };
		uint64_t align = s->type == SHT_PROGBITS && s->addr ? PAGE_SIZE : s->align ? s->align : 1;
		Elf_Scn *out = elf_newscn(e);
		Elf_Data *d;

		offset = (offset + align - 1) & ~(align - 1);
		sh.sh_offset = offset;
		if (!out || !gelf_update_shdr(out, &sh))
			die("libelf: %s", elf_errmsg(-1));
		if (s->type != SHT_NOBITS) {
			d = elf_newdata(out);
			if (!d)
				die("libelf: %s", elf_errmsg(-1));
			d->d_buf = (void *)s->bytes;
			d->d_size = s->size;
			d->d_type = ELF_T_BYTE;
			d->d_align = 1;
			offset += s->size;
		}
		if (i == note)
			notes_offset = sh.sh_offset;
		if (s->bytes == data)
			data_offset = sh.sh_offset;
	}
	offset = (offset + 7) & ~(uint64_t)7;

	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = linked(g, g->text_vaddr);
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_phnum = (uint16_t)nr_phdrs;
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_shoff = offset;
	eh.e_shstrndx = (uint16_t)shstrndx;
	if (!gelf_update_ehdr(e, &eh))
		die("libelf: %s", elf_errmsg(-1));
	set_phdr(e, 0, PT_LOAD, PF_R | PF_X, data_offset, linked(g, g->text_vaddr), 0, sdata - g->text_vaddr,
		 PAGE_SIZE);
	set_phdr(e, 1, PT_LOAD, PF_R | PF_W, data_offset, linked(g, sdata), init - sdata, init - sdata, PAGE_SIZE);
	set_phdr(e, 2, PT_LOAD, PF_R | PF_W | PF_X, data_offset, linked(g, init), 0, g->image_end - init,
		 PAGE_SIZE);
	if (!g->no_build_id)
		set_phdr(e, 3, PT_NOTE, PF_R, notes_offset, 0, sizeof(note_bytes), sizeof(note_bytes), 4);
	if (elf_update(e, ELF_C_WRITE) < 0)
		die("libelf: cannot write %s: %s", g->vmlinux_path, elf_errmsg(-1));
	elf_end(e);
	if (close(fd))
		die("cannot write %s", g->vmlinux_path);
	elf_end(types);
	free(types_image);
	free(data);
	free(syms);
	free(strtab);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A vmlinux file: its ELF symbol table, read once into a hash of the
 * names, its build ID note, the bytes of its PT_LOADs, and its DWARF.
 */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/dwarf.h"
#include "kernel/vmlinux.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/message.h"
#include "util/vec.h"

/* struct new_utsname: six fields of __NEW_UTS_LEN + 1 bytes; release is the third. */
#define UTS_FIELD_LEN 65
#define UTS_RELEASE_OFFSET (2 * UTS_FIELD_LEN)

struct vsym {
	uint64_t hash;
	const char *name;     /* in the file's string table, mapped */
	uint64_t value;
	bool moves;           /* in a section linked in the upper half: KASLR moves it */
	bool global;
};

struct vmlinux {
	char *path;
	int fd;
	Elf *elf;
	struct vsym *syms;    /* one per name: the one a lookup answers */
	size_t nr_syms, cap_syms;
	uint32_t *slots;      /* open addressing over syms: index + 1, 0 = empty */
	size_t mask;
	struct vmlinux_dwarf *dwarf;
};

static struct vsym *find_sym(const struct vmlinux *vm, const char *name, uint64_t hash)
{
	for (size_t slot = hash & vm->mask; vm->slots[slot]; slot = (slot + 1) & vm->mask) {
		struct vsym *s = &vm->syms[vm->slots[slot] - 1];

		if (s->hash == hash && !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

/* Whether symbols of section @index move with the kernel: sections linked in the upper half do. */
static bool section_moves(Elf *elf, size_t index)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf_getscn(elf, index);

	return scn && gelf_getshdr(scn, &shdr) && (shdr.sh_addr >> 63);
}

/*
 * Keeps the symbol a lookup by name answers, as the kernel's kallsyms
 * lookup does: the first global one, else the first local one.
 */
static struct mdf_error *add_sym(struct vmlinux *vm, const GElf_Sym *sym, const char *name)
{
	bool global = GELF_ST_BIND(sym->st_info) != STB_LOCAL;
	uint64_t hash = fnv1a64_str(name);
	struct vsym *known = find_sym(vm, name, hash);
	struct vsym s = { hash, name, sym->st_value,
			  sym->st_shndx != SHN_ABS && sym->st_shndx < SHN_LORESERVE &&
				  section_moves(vm->elf, sym->st_shndx),
			  global };

	if (known) {
		if (global && !known->global)
			*known = s;
		return NULL;
	}
	if (vec_reserve(vm->syms, &vm->cap_syms, vm->nr_syms, 1))
		return &mdf_error_enomem;
	vm->syms[vm->nr_syms++] = s;
	for (size_t slot = hash & vm->mask;; slot = (slot + 1) & vm->mask) {
		if (!vm->slots[slot]) {
			vm->slots[slot] = (uint32_t)vm->nr_syms;
			return NULL;
		}
	}
}

static struct mdf_error *read_symbols(struct vmlinux *vm)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t count, size = 1024;
	struct mdf_error *err = NULL;

	if (elf_getshdrnum(vm->elf, &count))
		return mdf_error(-MDF_ECORRUPT, "%s: its section headers do not read (%s): a truncated or "
				 "damaged file", vm->path, elf_errmsg(-1));
	if (!count)
		return mdf_error(-MDF_ECORRUPT, "%s has no section headers: a truncated or damaged file",
				 vm->path);
	while ((scn = elf_nextscn(vm->elf, scn)) && (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB))
		;
	if (!scn)
		return mdf_error(-ENOENT, "%s has no symbol table (.symtab): a stripped vmlinux; "
				 "-x needs the one with debug information", vm->path);
	data = elf_getdata(scn, NULL);
	if (!data || !shdr.sh_entsize)
		return mdf_error(-MDF_ECORRUPT, "%s: its symbol table does not read: %s", vm->path, elf_errmsg(-1));
	count = shdr.sh_size / shdr.sh_entsize;
	if (count >= UINT32_MAX / 2)
		return mdf_error(-MDF_ECORRUPT, "%s: %zu symbols is too many", vm->path, count);
	while (size < 2 * count + 2)
		size <<= 1;
	vm->slots = calloc(size, sizeof(*vm->slots));
	if (!vm->slots)
		return &mdf_error_enomem;
	vm->mask = size - 1;
	for (size_t i = 1; i < count && !err; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			return mdf_error(-MDF_ECORRUPT, "%s: symbol %zu does not read: %s", vm->path, i,
					 elf_errmsg(-1));
		type = GELF_ST_TYPE(sym.st_info);
		name = elf_strptr(vm->elf, shdr.sh_link, sym.st_name);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE)
			continue;
		err = add_sym(vm, &sym, name);
	}
	if (!err)
		msg_debug("%s: %zu symbols by name", vm->path, vm->nr_syms);
	return err;
}

struct mdf_error *vmlinux_open(const char *path, struct vmlinux **out)
{
	struct vmlinux *vm = calloc(1, sizeof(*vm));
	struct mdf_error *err = NULL;
	GElf_Ehdr ehdr;

	if (!vm)
		return &mdf_error_enomem;
	vm->fd = -1;
	vm->path = strdup(path);
	if (!vm->path) {
		err = &mdf_error_enomem;
		goto out;
	}
	elf_version(EV_CURRENT);
	vm->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vm->fd < 0) {
		err = mdf_error(-errno, "cannot open the kernel file %s: %s", path, strerror(errno));
		goto out;
	}
	vm->elf = elf_begin(vm->fd, ELF_C_READ_MMAP, NULL);
	if (!vm->elf || elf_kind(vm->elf) != ELF_K_ELF || !gelf_getehdr(vm->elf, &ehdr)) {
		err = mdf_error(-MDF_ECORRUPT, "%s is not an ELF file", path);
		goto out;
	}
	if (ehdr.e_ident[EI_CLASS] != ELFCLASS64 || (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN)) {
		err = mdf_error(-EINVAL, "%s is not a 64-bit vmlinux (an ELF %s of class %d)", path,
				ehdr.e_type == ET_CORE ? "core file" : ehdr.e_type == ET_REL ? "object or module"
												: "file",
				ehdr.e_ident[EI_CLASS]);
		goto out;
	}
	err = read_symbols(vm);
	if (!err)
		err = vmlinux_dwarf_open(vm->elf, vm->path, &vm->dwarf);
out:
	if (err) {
		vmlinux_close(vm);
		return err;
	}
	*out = vm;
	return NULL;
}

void vmlinux_close(struct vmlinux *vm)
{
	if (!vm)
		return;
	vmlinux_dwarf_close(vm->dwarf);
	free(vm->syms);
	free(vm->slots);
	if (vm->elf)
		elf_end(vm->elf);
	if (vm->fd >= 0)
		close(vm->fd);
	free(vm->path);
	free(vm);
}

const char *vmlinux_path(const struct vmlinux *vm)
{
	return vm->path;
}

struct mdf_error *vmlinux_symbol(const struct vmlinux *vm, const char *name, uint64_t offset, uint64_t *addr)
{
	const struct vsym *s = find_sym(vm, name, fnv1a64_str(name));

	if (!s)
		return &mdf_error_not_found;
	*addr = s->value + (s->moves ? offset : 0);
	return NULL;
}

size_t vmlinux_build_id(const struct vmlinux *vm, const uint8_t **id)
{
	const void *bytes;
	ssize_t len = dwelf_elf_gnu_build_id(vm->elf, &bytes);

	if (len <= 0)
		return 0;
	*id = bytes;
	return (size_t)len;
}

struct mdf_error *vmlinux_read(const struct vmlinux *vm, uint64_t vaddr, void *buf, size_t len)
{
	size_t nr = 0;

	if (elf_getphdrnum(vm->elf, &nr))
		nr = 0;
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr phdr;
		ssize_t got;

		if (!gelf_getphdr(vm->elf, (int)i, &phdr) || phdr.p_type != PT_LOAD || vaddr < phdr.p_vaddr ||
		    vaddr - phdr.p_vaddr >= phdr.p_filesz || len > phdr.p_filesz - (vaddr - phdr.p_vaddr))
			continue;
		got = pread(vm->fd, buf, len, (off_t)(phdr.p_offset + (vaddr - phdr.p_vaddr)));
		if (got == (ssize_t)len)
			return NULL;
		return mdf_error(got < 0 ? -errno : -EIO, "%s: cannot read %zu bytes at 0x%" PRIx64 ": %s",
				 vm->path, len, vaddr, got < 0 ? strerror(errno) : "the file ends first");
	}
	return mdf_error(-ENOENT, "%s: no PT_LOAD holds the %zu bytes at 0x%" PRIx64, vm->path, len, vaddr);
}

struct mdf_error *vmlinux_release(const struct vmlinux *vm, uint64_t name_offset, char *buf, size_t len)
{
	char release[UTS_FIELD_LEN];
	struct mdf_error *err;
	uint64_t addr;

	/* vmlinux_symbol's only error is the shared &mdf_error_not_found: nothing to free. */
	if (!vmlinux_symbol(vm, "system_utsname", 0, &addr))
		name_offset = 0;
	else if (vmlinux_symbol(vm, "init_uts_ns", 0, &addr))
		return mdf_error(-ENOENT, "%s has no symbol init_uts_ns (nor system_utsname): "
				 "its release is unknown", vm->path);
	err = vmlinux_read(vm, addr + name_offset + UTS_RELEASE_OFFSET, release, sizeof(release));
	if (err)
		return mdf_error_wrap(err, "its release, in init_uts_ns");
	release[sizeof(release) - 1] = '\0';
	snprintf(buf, len, "%s", release);
	return NULL;
}

struct mdf_error *vmlinux_types(struct vmlinux *vm, struct btf **out)
{
	return vmlinux_dwarf_btf(vm->dwarf, out);
}

const char *vmlinux_typedef_file(struct vmlinux *vm, const char *name)
{
	return vmlinux_dwarf_typedef_file(vm->dwarf, name);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Resolving what an extension written for upstream's API declares.
 *
 * The sections are the extension's own data: a hand-made declaration, a
 * stray pointer or a name without its NUL would make makedumpfile read
 * wild memory.  So every pointer is checked against the extension's
 * loaded segments (from dl_iterate_phdr) before it is followed, and
 * every name must end within them.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "extension/declarations.h"
#include "kernel/btf.h"
#include "kernel/kernel.h"
#include "util/error.h"

#define MAX_SEGMENTS 16
#define MAX_DECLARATIONS 65536
#define MAX_NAME 256
#define MAX_TEXT 2048

struct segment {
	uintptr_t start;
	uintptr_t end;
	bool writable;
};

/* Where the extension lies in memory, and what is said against it. */
struct loaded {
	const struct link_map *map;
	struct segment segments[MAX_SEGMENTS];
	size_t nr_segments;
	char missing[MAX_TEXT];
	size_t nr_missing;
};

static int collect_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded *l = arg;

	(void)size;
	if (info->dlpi_addr != l->map->l_addr || strcmp(info->dlpi_name, l->map->l_name))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && l->nr_segments < MAX_SEGMENTS; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		l->segments[l->nr_segments++] = (struct segment){ info->dlpi_addr + ph->p_vaddr,
								  info->dlpi_addr + ph->p_vaddr + ph->p_memsz,
								  (ph->p_flags & PF_W) != 0 };
	}
	return 1;
}

/* Whether [p, p + len) lies in one segment (a writable one, if asked). */
static bool inside(const struct loaded *l, const void *p, size_t len, bool writable)
{
	uintptr_t at = (uintptr_t)p;

	for (size_t i = 0; i < l->nr_segments; i++) {
		const struct segment *s = &l->segments[i];

		if (at >= s->start && at <= s->end && len <= s->end - at)
			return !writable || s->writable;
	}
	return false;
}

/* A name: inside the extension and NUL-terminated within MAX_NAME bytes. */
static bool valid_name(const struct loaded *l, const char *name)
{
	for (size_t i = 0; i < MAX_NAME; i++) {
		if (!inside(l, name + i, 1, false))
			return false;
		if (!name[i])
			return i > 0;
	}
	return false;
}

/* The section's bounds from its header in the file, for an extension linked without the script. */
static bool section_from_file(const char *path, const struct link_map *map, const char *name, void ***start,
			      void ***stop)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool found = false;
	size_t strndx;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && !elf_getshdrstrndx(elf, &strndx)) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *sname;

			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
			    !(sname = elf_strptr(elf, strndx, sh.sh_name)) || strcmp(sname, name))
				continue;
			*start = (void **)(map->l_addr + sh.sh_addr);
			*stop = (void **)(map->l_addr + sh.sh_addr + sh.sh_size);
			found = true;
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/*
 * The pointers of section @name ("init_ksyms"): *@count 0 when there is
 * no such section.  An error when its bounds make no sense.
 */
static struct mdf_error *find_section(void *handle, const char *path, const struct loaded *l, const char *name,
				      void ***entries, size_t *count)
{
	char symbol[64];
	void **start, **stop;
	size_t bytes;

	snprintf(symbol, sizeof(symbol), "__start_%s", name);
	start = dlsym(handle, symbol);
	snprintf(symbol, sizeof(symbol), "__stop_%s", name);
	stop = dlsym(handle, symbol);
	/* The symbols may be found in a library the extension loads: only its own count. */
	if (!start || !stop || !inside(l, start, 0, false) || !inside(l, stop, 0, false)) {
		snprintf(symbol, sizeof(symbol), ".%s", name);
		if (!section_from_file(path, l->map, symbol, &start, &stop)) {
			*count = 0;
			return NULL;
		}
	}
	bytes = (uintptr_t)stop - (uintptr_t)start;
	if (stop < start || bytes % sizeof(void *) || (uintptr_t)start % sizeof(void *) ||
	    !inside(l, start, bytes, false) || bytes / sizeof(void *) > MAX_DECLARATIONS)
		return mdf_error(-EBADMSG, "its section .%s (%p-%p) is not an array of declarations", name,
				 (void *)start, (void *)stop);
	*entries = start;
	*count = bytes / sizeof(void *);
	return NULL;
}

static void say_missing(struct loaded *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say_missing(struct loaded *l, const char *fmt, ...)
{
	size_t len = strlen(l->missing);
	va_list ap;

	if (len + 3 >= sizeof(l->missing))
		return;
	if (len)
		len += (size_t)snprintf(l->missing + len, sizeof(l->missing) - len, "; ");
	va_start(ap, fmt);
	vsnprintf(l->missing + len, sizeof(l->missing) - len, fmt, ap);
	va_end(ap);
	l->nr_missing++;
}

static struct mdf_error *bad_entry(const char *section, size_t i)
{
	return mdf_error(-EBADMSG, "entry %zu of its section .%s does not point to a declaration with its names",
			 i, section);
}

static struct mdf_error *check_symbols(const struct loaded *l, void **entries, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct declared_symbol *s = entries[i];

		if ((uintptr_t)s % _Alignof(struct declared_symbol) || !inside(l, s, sizeof(*s), true) ||
		    !valid_name(l, s->modname) || !valid_name(l, s->symname))
			return bad_entry("init_ksyms", i);
	}
	return NULL;
}

static void resolve_symbols(struct loaded *l, struct kernel *k, void **entries, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		struct declared_symbol *s = entries[i];
		uint64_t addr;
		struct mdf_error *err = kernel_symbol_address(k, s->modname, s->symname, &addr);

		s->value = err ? 0 : addr;
		s->index = err ? -1 : (int)i;
		if (err && s->required)
			say_missing(l, "Symbol %s in %s not found", s->symname, s->modname);
		mdf_error_drop(err);
	}
}

/* Fills @t from the BTF of its module; index stays -1 when something is not there. */
static void resolve_type(struct btf_info *btf, struct declared_type *t, int index)
{
	struct btf_info_result r;
	char path[2 * MAX_NAME + 2];

	t->index = -1;
	if (!btf || mdf_error_drop(btf_info_lookup(btf, t->modname, t->struct_name, &r)) || r.kind != BTF_INFO_TYPE)
		return;
	t->struct_size = (uint32_t)r.size;
	if (!t->member_name) {
		t->index = index;
		return;
	}
	snprintf(path, sizeof(path), "%s.%s", t->struct_name, t->member_name);
	if (mdf_error_drop(btf_info_lookup(btf, t->modname, path, &r)) || r.kind != BTF_INFO_MEMBER)
		return;
	t->member_bit_offset = (uint32_t)r.bit_offset;
	t->member_bit_sz = r.bitfield_size;
	t->member_size = (uint32_t)r.size;
	t->index = index;
}

static struct mdf_error *check_types(const struct loaded *l, void **entries, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct declared_type *t = entries[i];

		if ((uintptr_t)t % _Alignof(struct declared_type) || !inside(l, t, sizeof(*t), true) ||
		    !valid_name(l, t->modname) || !valid_name(l, t->struct_name) ||
		    (t->member_name && !valid_name(l, t->member_name)))
			return bad_entry("init_ktypes", i);
	}
	return NULL;
}

static void resolve_types(struct loaded *l, struct kernel *k, void **entries, size_t count)
{
	struct btf_info *btf = NULL;

	if (count)
		mdf_error_drop(kernel_btf(k, &btf));
	for (size_t i = 0; i < count; i++) {
		struct declared_type *t = entries[i];

		resolve_type(btf, t, (int)i);
		if (t->index >= 0)
			continue;
		if (t->member_name && t->member_required)
			say_missing(l, "Member %s of struct %s in %s not found", t->member_name, t->struct_name,
				    t->modname);
		else if (t->struct_required)
			say_missing(l, "Struct %s in %s not found", t->struct_name, t->modname);
	}
}

/* The kernel's declared symbols, found in one pass over its names rather than one each. */
static void expect_kernel_symbols(struct kernel *k, void **entries, size_t count)
{
	const char *names[256];
	size_t nr = 0;

	for (size_t i = 0; i < count && nr < sizeof(names) / sizeof(names[0]); i++) {
		const struct declared_symbol *s = entries[i];

		if (!strcmp(s->modname, "vmlinux"))
			names[nr++] = s->symname;
	}
	if (nr)
		mdf_error_drop(kernel_expect_symbols(k, names, nr));
}

struct mdf_error *declarations_resolve(void *handle, const char *path, struct kernel *k, bool *declared)
{
	struct loaded l = { 0 };
	struct link_map *map;
	void **ksyms = NULL, **ktypes = NULL;
	size_t nr_ksyms = 0, nr_ktypes = 0;
	struct mdf_error *err;

	*declared = false;
	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) || !map)
		return mdf_error(-ENOEXEC, "cannot find where it was loaded: %s", dlerror());
	l.map = map;
	dl_iterate_phdr(collect_segments, &l);
	err = find_section(handle, path, &l, "init_ksyms", &ksyms, &nr_ksyms);
	if (!err)
		err = find_section(handle, path, &l, "init_ktypes", &ktypes, &nr_ktypes);
	if (err)
		return err;
	*declared = nr_ksyms || nr_ktypes;
	err = check_symbols(&l, ksyms, nr_ksyms);
	if (!err)
		err = check_types(&l, ktypes, nr_ktypes);
	if (err)
		return err;
	expect_kernel_symbols(k, ksyms, nr_ksyms);
	resolve_symbols(&l, k, ksyms, nr_ksyms);
	resolve_types(&l, k, ktypes, nr_ktypes);
	return l.nr_missing ? mdf_error(-ENOENT, "%s", l.missing) : NULL;
}

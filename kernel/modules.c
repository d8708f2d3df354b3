// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module symbols.  Each struct module on the kernel's modules list points
 * (module.kallsyms) to a struct mod_kallsyms of its own, with the module's
 * ELF symbol table (symtab, num_symtab), its string table (strtab) and one
 * type letter per symbol (typetab, set at load time as nm would print it,
 * in lower case).  /proc/kallsyms prints a module's symbols in symtab
 * order, skips unnamed ones and upper-cases the letter of each symbol the
 * module exports: one listed in module.syms (kernel/module/kallsyms.c,
 * is_exported).  Kernels without the export flags table (module.flagstab,
 * 6.1 among them) keep GPL-only exports apart, in module.gpl_syms, so
 * those print in lower case there; kernels with it (7.2) list every export
 * in syms.  Once a module is live, module.kallsyms points to
 * module.core_kallsyms, the symbols kept after init; while its init runs,
 * to the full table in its init memory.
 *
 * The crashed kernel's memory may be garbage: every count and offset read
 * from it is checked before it sizes an allocation or indexes an array.
 */
#include <ctype.h>
#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/btf.h"
#include "kernel/list.h"
#include "kernel/modules.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"
#include "util/search.h"
#include "util/vec.h"

/* Far above any real module (amdgpu has about 52,000). */
#define MAX_SYMBOLS 4000000u
/* Far above any real system; a longer modules list is corrupt. */
#define MAX_MODULES 16384
/* A module's string table: amdgpu's is about 2 MiB. */
#define MAX_MODULE_STRTAB (64u << 20)
/* struct module is a few KiB, struct mod_kallsyms and kernel_symbol a few words. */
#define MAX_STRUCT_SIZE 65536
#define MAX_SMALL_STRUCT_SIZE 256
/* struct module.name is char[MODULE_NAME_LEN], 56 bytes on 64-bit kernels. */
#define MODULE_NAME_MAX 64

/* A field of a kernel struct, from vmlinux's BTF. */
struct kfield {
	uint64_t offset;
	uint64_t size;
};

/* What reading module symbols needs of struct module, mod_kallsyms and kernel_symbol. */
struct module_layout {
	uint64_t module_size;
	struct kfield list, name, state, kallsyms, syms, num_syms;
	/* GPL-only exports, apart in kernels before the export flags table (0 sizes: none) */
	struct kfield gpl_syms, num_gpl_syms;
	uint64_t mod_kallsyms_size;
	struct kfield symtab, num_symtab, strtab, typetab;
	uint64_t ksym_size;
	struct kfield ksym_value, ksym_name;
	/* kernel_symbol holds int offsets from each field's own address (PREL32) */
	bool ksym_relative;
	int64_t state_unformed;
};

struct modules {
	struct memory *mem;
	uint64_t head;
	struct module_layout l;
};

/* One export of a module: what is_exported compares. */
struct module_export {
	uint64_t value;
	uint64_t name_addr;
};

/* One module's tables, as read from the dump. */
struct module_tables {
	Elf64_Sym *symtab;
	char *typetab;
	char *strtab;
	size_t strtab_len;
	uint32_t num_symtab;
	struct module_export *exports;
	uint32_t nr_exports;
};

/* The module being read. */
struct module_reader {
	const struct modules *mods;
	unsigned char *module;    /* its struct module */
	uint64_t addr;            /* its address */
	char name[MODULE_NAME_MAX];
	bool warned_export_name;
};

static struct mdf_error *layout_lookup(struct btf_info *btf, const char *path, struct btf_info_result *r)
{
	struct mdf_error *err = btf_info_lookup(btf, "vmlinux", path, r);

	if (mdf_error_is_not_found(err)) {
		mdf_error_free(err);
		return mdf_error(-ENOENT,
				 "vmlinux BTF has no %s: cannot read module symbols", path);
	}
	return err;
}

static struct mdf_error *layout_struct(struct btf_info *btf, const char *name, int64_t max_size, uint64_t *size)
{
	struct btf_info_result r;
	struct mdf_error *err = layout_lookup(btf, name, &r);

	if (err)
		return err;
	if (r.size < 1 || r.size > max_size)
		return mdf_error(-MDF_ECORRUPT,
				 "vmlinux BTF says struct %s has %" PRId64 " bytes, not 1..%" PRId64, name, r.size,
				 max_size);
	*size = (uint64_t)r.size;
	return NULL;
}

/* A member that must lie inside its struct; scalars of 1, 2, 4 or 8 bytes unless @any_size. */
static struct mdf_error *layout_field(struct btf_info *btf, const char *path, uint64_t struct_size, bool any_size,
			struct kfield *f)
{
	struct btf_info_result r;
	struct mdf_error *err = layout_lookup(btf, path, &r);

	if (err)
		return err;
	f->offset = r.bit_offset / 8;
	f->size = (uint64_t)r.size;
	if (r.bitfield_size || f->offset + f->size > struct_size ||
	    (!any_size && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return mdf_error(-MDF_ECORRUPT,
				 "vmlinux BTF places %s at byte %" PRIu64 " with %" PRIu64 " bytes%s: not a field "
				 "module symbols can be read through", path, f->offset, f->size,
				 r.bitfield_size ? " in a bitfield" : "");
	return NULL;
}

static struct mdf_error *read_module_layout(struct btf_info *btf, struct module_layout *l)
{
	static const struct {
		const char *path;
		size_t field;        /* offsetof(struct module_layout, ...) */
		int in;              /* 0: struct module, 1: mod_kallsyms */
		bool any_size;
	} fields[] = {
		{ "module.list", offsetof(struct module_layout, list), 0, true },
		{ "module.name", offsetof(struct module_layout, name), 0, true },
		{ "module.state", offsetof(struct module_layout, state), 0, false },
		{ "module.kallsyms", offsetof(struct module_layout, kallsyms), 0, false },
		{ "module.syms", offsetof(struct module_layout, syms), 0, false },
		{ "module.num_syms", offsetof(struct module_layout, num_syms), 0, false },
		{ "mod_kallsyms.symtab", offsetof(struct module_layout, symtab), 1, false },
		{ "mod_kallsyms.num_symtab", offsetof(struct module_layout, num_symtab), 1, false },
		{ "mod_kallsyms.strtab", offsetof(struct module_layout, strtab), 1, false },
		{ "mod_kallsyms.typetab", offsetof(struct module_layout, typetab), 1, false },
	};
	struct btf_info_result r;
	struct mdf_error *err;

	err = layout_struct(btf, "module", MAX_STRUCT_SIZE, &l->module_size);
	if (!err)
		err = layout_struct(btf, "mod_kallsyms", MAX_SMALL_STRUCT_SIZE, &l->mod_kallsyms_size);
	if (!err)
		err = layout_struct(btf, "kernel_symbol", MAX_SMALL_STRUCT_SIZE, &l->ksym_size);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]) && !err; i++)
		err = layout_field(btf, fields[i].path, fields[i].in ? l->mod_kallsyms_size : l->module_size,
				   fields[i].any_size, (struct kfield *)((char *)l + fields[i].field));
	if (err)
		return err;
	/* With PREL32 relocations (x86_64, arm64) the fields are offsets; else addresses. */
	l->ksym_relative = !mdf_error_drop(btf_info_lookup(btf, "vmlinux", "kernel_symbol.value_offset", &r));
	err = layout_field(btf, l->ksym_relative ? "kernel_symbol.value_offset" : "kernel_symbol.value",
			   l->ksym_size, false, &l->ksym_value);
	if (!err)
		err = layout_field(btf, l->ksym_relative ? "kernel_symbol.name_offset" : "kernel_symbol.name",
				   l->ksym_size, false, &l->ksym_name);
	if (!err)
		err = layout_lookup(btf, "module_state.MODULE_STATE_UNFORMED", &r);
	if (err)
		return err;
	l->state_unformed = r.value;
	if (!mdf_error_drop(btf_info_lookup(btf, "vmlinux", "module.gpl_syms", &r)) &&
	    (err = layout_field(btf, "module.gpl_syms", l->module_size, false, &l->gpl_syms)))
		return err;
	if (l->gpl_syms.size && (err = layout_field(btf, "module.num_gpl_syms", l->module_size, false,
						    &l->num_gpl_syms)))
		return err;
	if (l->name.size < 2 || l->name.size > MODULE_NAME_MAX || l->list.size != 16)
		return mdf_error(-MDF_ECORRUPT,
				 "vmlinux BTF gives struct module a name of %" PRIu64 " bytes and a list of %" PRIu64
				 ": not a layout module symbols can be read through", l->name.size, l->list.size);
	return NULL;
}

struct mdf_error *modules_new(struct memory *mem, struct btf_info *btf, uint64_t head, struct modules **out)
{
	struct modules *mods = calloc(1, sizeof(*mods));
	struct mdf_error *err;

	if (!mods)
		return &mdf_error_enomem;
	mods->mem = mem;
	mods->head = head;
	err = read_module_layout(btf, &mods->l);
	if (err) {
		free(mods);
		return err;
	}
	*out = mods;
	return NULL;
}

void modules_free(struct modules *mods)
{
	free(mods);
}

/* A field of a struct read from the dump, in the kernel's byte order. */
static uint64_t field_value(const struct modules *mods, const unsigned char *base, const struct kfield *f)
{
	return dump_to_host_bytes(mem_byte_order(mods->mem), base + f->offset, (size_t)f->size);
}

static void free_tables(struct module_tables *t)
{
	free(t->symtab);
	free(t->typetab);
	free(t->strtab);
	free(t->exports);
	memset(t, 0, sizeof(*t));
}

/* Says what is wrong with this module, whose symbols are then left out; returns @err. */
static struct mdf_error *module_problem(const struct module_reader *r, struct mdf_error *err, const char *fmt,
					...) __attribute__((format(printf, 3, 4)));

static struct mdf_error *module_problem(const struct module_reader *r, struct mdf_error *err, const char *fmt,
					...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	msg_warn("module %s (struct module at 0x%" PRIx64 "): %s: its symbols are not listed", r->name,
		 r->addr, what);
	return err;
}

static int compare_exports(const void *a, const void *b)
{
	const struct module_export *ea = a, *eb = b;

	return ea->value < eb->value ? -1 : ea->value > eb->value;
}

/* An export table of the module (@syms, @count_field): its entries, in table order. */
static struct mdf_error *read_export_table(struct module_reader *r, const struct kfield *syms_field,
					   const struct kfield *count_field, struct module_export **out,
					   uint32_t *count)
{
	const struct module_layout *l = &r->mods->l;
	uint64_t syms = field_value(r->mods, r->module, syms_field);
	uint64_t num_syms = field_value(r->mods, r->module, count_field);
	unsigned char *raw;
	struct mdf_error *err;

	*out = NULL;
	*count = 0;
	if (num_syms == 0)
		return NULL;
	if (num_syms > MAX_SYMBOLS)
		return module_problem(r, mdf_error_code(-MDF_ECORRUPT), "%" PRIu64 " exports, above %u", num_syms,
				      MAX_SYMBOLS);
	raw = malloc(num_syms * l->ksym_size);
	*out = malloc(num_syms * sizeof(**out));
	if (!raw || !*out) {
		free(raw);
		free(*out);
		*out = NULL;
		return &mdf_error_enomem;
	}
	err = mem_read_virt(r->mods->mem, syms, raw, num_syms * l->ksym_size);
	if (err) {
		free(raw);
		free(*out);
		*out = NULL;
		return module_problem(r, err, "cannot read its %" PRIu64 " exports at 0x%" PRIx64 " (%s)",
				      num_syms, syms, mdf_error_text(err));
	}
	for (uint64_t i = 0; i < num_syms; i++) {
		const unsigned char *entry = raw + i * l->ksym_size;
		uint64_t value = field_value(r->mods, entry, &l->ksym_value);
		uint64_t name = field_value(r->mods, entry, &l->ksym_name);
		uint64_t entry_addr = syms + i * l->ksym_size;

		if (l->ksym_relative) {
			value = entry_addr + l->ksym_value.offset + (uint64_t)(int64_t)(int32_t)value;
			name = entry_addr + l->ksym_name.offset + (uint64_t)(int64_t)(int32_t)name;
		}
		(*out)[i] = (struct module_export){ .value = value, .name_addr = name };
	}
	free(raw);
	*count = (uint32_t)num_syms;
	return NULL;
}

/* The module's exports (module.syms), sorted by value for is_exported. */
static struct mdf_error *read_exports(struct module_reader *r, struct module_tables *t)
{
	struct mdf_error *err = read_export_table(r, &r->mods->l.syms, &r->mods->l.num_syms, &t->exports,
						  &t->nr_exports);

	if (!err)
		vec_sort(t->exports, t->nr_exports, compare_exports);
	return err;
}

/* Whether export @e is named @name. */
static bool export_named(struct module_reader *r, const struct module_export *e, const char *name, size_t len)
{
	char export_name[KSYM_NAME_LEN];

	return !mdf_error_drop(mem_read_virt(r->mods->mem, e->name_addr, export_name, len + 1)) &&
	       !memcmp(export_name, name, len) && export_name[len] == '\0';
}

struct export_search {
	const struct module_export *exports;
	uint64_t value;
};

static bool export_below(void *ctx, size_t i)
{
	const struct export_search *s = ctx;

	return s->exports[i].value < s->value;
}

/* The kernel's is_exported: an export of this name at this value. */
static bool is_exported(struct module_reader *r, const struct module_tables *t, const char *name, size_t len,
			uint64_t value)
{
	struct export_search s = { t->exports, value };
	size_t lo = search_partition_point(t->nr_exports, export_below, &s);

	for (; lo < t->nr_exports && t->exports[lo].value == value; lo++) {
		char export_name[KSYM_NAME_LEN];
		struct mdf_error *err = mem_read_virt(r->mods->mem, t->exports[lo].name_addr, export_name, len + 1);

		if (err) {
			if (!r->warned_export_name)
				msg_warn("module %s: the name of an export at 0x%" PRIx64 " is unreadable "
					 "(%s): symbols there are listed as not exported", r->name,
					 t->exports[lo].name_addr, mdf_error_text(err));
			r->warned_export_name = true;
			mdf_error_free(err);
			continue;
		}
		if (!memcmp(export_name, name, len) && export_name[len] == '\0')
			return true;
	}
	return false;
}

/*
 * The length of symbol @i's name, at most KSYM_NAME_LEN - 1 (what
 * /proc/kallsyms shows of a longer one), or -1 when it runs past the
 * readable end of the string table.
 */
static int64_t name_length(const struct module_tables *t, uint32_t i)
{
	size_t avail = t->strtab_len - t->symtab[i].st_name;
	const char *name = t->strtab + t->symtab[i].st_name;
	const char *end = memchr(name, '\0', avail < KSYM_NAME_LEN ? avail : KSYM_NAME_LEN);

	if (!end && avail < KSYM_NAME_LEN)
		return -1;
	return end ? end - name : KSYM_NAME_LEN - 1;
}

/* A module's Elf64_Syms, as the kernel keeps them in its order, in the host's. */
static void symtab_to_host(enum byte_order order, Elf64_Sym *syms, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		syms[i].st_name = dump_to_host32(order, syms[i].st_name);
		syms[i].st_shndx = dump_to_host16(order, syms[i].st_shndx);
		syms[i].st_value = dump_to_host64(order, syms[i].st_value);
		syms[i].st_size = dump_to_host64(order, syms[i].st_size);
	}
}

/*
 * Reads the symbol table, types and strings module.kallsyms points to,
 * and checks that every name ends inside the string table.
 */
static struct mdf_error *read_tables(struct module_reader *r, struct module_tables *t)
{
	const struct module_layout *l = &r->mods->l;
	struct memory *mem = r->mods->mem;
	uint64_t kallsyms = field_value(r->mods, r->module, &l->kallsyms), symtab, strtab, typetab, max_name = 0;
	unsigned char mod_kallsyms[MAX_SMALL_STRUCT_SIZE];
	struct mdf_error *err;

	err = mem_read_virt(mem, kallsyms, mod_kallsyms, l->mod_kallsyms_size);
	if (err)
		return module_problem(r, err, "cannot read its struct mod_kallsyms at 0x%" PRIx64 " (%s)",
				      kallsyms, mdf_error_text(err));
	symtab = field_value(r->mods, mod_kallsyms, &l->symtab);
	strtab = field_value(r->mods, mod_kallsyms, &l->strtab);
	typetab = field_value(r->mods, mod_kallsyms, &l->typetab);
	if (field_value(r->mods, mod_kallsyms, &l->num_symtab) > MAX_SYMBOLS)
		return module_problem(r, mdf_error_code(-MDF_ECORRUPT), "num_symtab at 0x%" PRIx64 " is %" PRIu64
				      ", above %u", kallsyms + l->num_symtab.offset,
				      field_value(r->mods, mod_kallsyms, &l->num_symtab), MAX_SYMBOLS);
	t->num_symtab = (uint32_t)field_value(r->mods, mod_kallsyms, &l->num_symtab);
	if (t->num_symtab == 0)
		return NULL;
	t->symtab = malloc((size_t)t->num_symtab * sizeof(*t->symtab));
	t->typetab = malloc(t->num_symtab);
	if (!t->symtab || !t->typetab)
		return &mdf_error_enomem;
	err = mem_read_virt(mem, symtab, t->symtab, (size_t)t->num_symtab * sizeof(*t->symtab));
	if (err)
		return module_problem(r, err, "cannot read its %" PRIu32 " symbols at 0x%" PRIx64 " (%s)",
				      t->num_symtab, symtab, mdf_error_text(err));
	symtab_to_host(mem_byte_order(mem), t->symtab, t->num_symtab);
	err = mem_read_virt(mem, typetab, t->typetab, t->num_symtab);
	if (err)
		return module_problem(r, err, "cannot read its symbol types at 0x%" PRIx64 " (%s)", typetab,
				      mdf_error_text(err));
	/* The string table's size is not kept: read up to the last name's end. */
	for (uint32_t i = 0; i < t->num_symtab; i++)
		if (t->symtab[i].st_name > max_name)
			max_name = t->symtab[i].st_name;
	if (max_name >= MAX_MODULE_STRTAB)
		return module_problem(r, mdf_error_code(-MDF_ECORRUPT), "a symbol's name is at offset %" PRIu64
				      " of its string table, beyond %u MiB", max_name,
				      MAX_MODULE_STRTAB >> 20);
	t->strtab_len = max_name + KSYM_NAME_LEN;
	t->strtab = malloc(t->strtab_len);
	if (!t->strtab)
		return &mdf_error_enomem;
	err = mem_read_prefix(mem, strtab, t->strtab, max_name + 1, &t->strtab_len);
	if (err)
		return module_problem(r, err, "cannot read its string table at 0x%" PRIx64 " (%s)", strtab,
				      mdf_error_text(err));
	for (uint32_t i = 0; i < t->num_symtab; i++)
		if (name_length(t, i) < 0)
			return module_problem(r, mdf_error_code(-MDF_ECORRUPT), "the name of symbol %"
					      PRIu32 " runs past the readable end of its string table", i);
	return read_exports(r, t);
}

/*
 * Reads the struct module at r->addr and its name.  *@formed is false for
 * a module still being set up: the kernel lists no symbols of it, nor do we.
 */
static struct mdf_error *read_module_head(struct module_reader *r, bool *formed)
{
	const struct module_layout *l = &r->mods->l;
	struct mdf_error *err = mem_read_virt(r->mods->mem, r->addr, r->module, l->module_size);

	if (err) {
		snprintf(r->name, sizeof(r->name), "?");
		return module_problem(r, err, "unreadable (%s)", mdf_error_text(err));
	}
	memcpy(r->name, r->module + l->name.offset, l->name.size);
	if (!memchr(r->name, '\0', l->name.size) || !r->name[0]) {
		snprintf(r->name, sizeof(r->name), "?");
		return module_problem(r, mdf_error_code(-MDF_ECORRUPT), "its name is empty or not terminated");
	}
	*formed = (int64_t)field_value(r->mods, r->module, &l->state) != l->state_unformed;
	return NULL;
}

/*
 * Calls @each for every formed module of the list whose tables read
 * (@name NULL) or for the module @name alone, until it returns true.  A
 * damaged module was said and is passed over; only memory ends the walk
 * early, or @each.
 */
static struct mdf_error *for_each_module(struct modules *mods, const char *name,
					 bool (*each)(struct module_reader *r, const struct module_tables *t,
						      void *ctx),
					 void *ctx)
{
	struct module_reader r = { .mods = mods };
	struct mdf_error *err = NULL;
	struct klist list;
	uint64_t node;

	r.module = malloc(mods->l.module_size);
	if (!r.module)
		return &mdf_error_enomem;
	klist_init(&list, mods->mem, mods->head, MAX_MODULES);
	while (!(err = klist_next(&list, &node)) && node) {
		struct module_tables t = { 0 };
		bool formed = false, stop = false;

		r.addr = node - mods->l.list.offset;
		r.warned_export_name = false;
		err = read_module_head(&r, &formed);
		if (!err && formed && (!name || !strcmp(r.name, name))) {
			err = read_tables(&r, &t);
			if (!err)
				stop = each(&r, &t, ctx) || name;
		}
		free_tables(&t);
		if (err && err->code == -ENOMEM)
			break;
		mdf_error_free(err);
		err = NULL;
		if (stop)
			break;
	}
	if (err && err->code != -ENOMEM) {
		msg_warn("modules list at 0x%" PRIx64 ": after %s%s (struct module at 0x%" PRIx64 "), %s; "
			 "modules past it are not listed", mods->head, list.count ? "module " : "its head",
			 list.count ? r.name : "", list.count ? r.addr : mods->head, mdf_error_text(err));
		mdf_error_free(err);
		err = NULL;
	}
	klist_release(&list);
	free(r.module);
	return err;
}

/* Symbol @i as /proc/kallsyms shows it: its type's case says whether it is exported. */
static char symbol_type(struct module_reader *r, const struct module_tables *t, uint32_t i, size_t len)
{
	const char *name = t->strtab + t->symtab[i].st_name;

	if (is_exported(r, t, name, len, t->symtab[i].st_value))
		return (char)toupper((unsigned char)t->typetab[i]);
	return (char)tolower((unsigned char)t->typetab[i]);
}

struct listing {
	struct mdf_error *(*visit)(void *ctx, const struct ksym *sym);
	void *ctx;
	struct mdf_error *err;     /* the first @visit returned */
	uint32_t modules, symbols;
};

static bool list_module(struct module_reader *r, const struct module_tables *t, void *ctx)
{
	struct listing *ls = ctx;

	for (uint32_t i = 0; i < t->num_symtab && !ls->err; i++) {
		char name[KSYM_NAME_LEN];
		size_t len = (size_t)name_length(t, i);
		struct ksym sym = { .addr = t->symtab[i].st_value, .name = name, .module = r->name };

		if (!len)
			continue;
		memcpy(name, t->strtab + t->symtab[i].st_name, len);
		name[len] = '\0';
		sym.type = symbol_type(r, t, i, len);
		ls->err = ls->visit(ls->ctx, &sym);
		ls->symbols++;
	}
	ls->modules++;
	return ls->err != NULL;
}

struct mdf_error *modules_for_each_symbol(struct modules *mods,
					  struct mdf_error *(*visit)(void *ctx, const struct ksym *sym), void *ctx)
{
	struct listing ls = { visit, ctx, NULL, 0, 0 };
	struct mdf_error *err = for_each_module(mods, NULL, list_module, &ls);

	if (!err && !ls.err)
		msg_debug("module kallsyms: %" PRIu32 " modules, %" PRIu32 " symbols", ls.modules, ls.symbols);
	return err ? err : ls.err;
}

struct lookup {
	const char *name;
	bool found;
	uint64_t addr;
};

/*
 * Whether the module's kallsyms list data symbols: without
 * CONFIG_KALLSYMS_ALL a module keeps only its text symbols.
 */
static bool lists_data_symbols(const struct module_tables *t)
{
	for (uint32_t i = 0; i < t->num_symtab; i++)
		if (strchr("dDbBrRgGsS", t->typetab[i]))
			return true;
	return false;
}

/*
 * @lk->name among the module's exports (module.syms, then gpl_syms where
 * they are apart): where kallsyms keep text symbols only, an exported
 * variable is still found, by the name its export table gives.
 */
static void find_export(struct module_reader *r, const struct module_tables *t, struct lookup *lk)
{
	const struct module_layout *l = &r->mods->l;
	size_t len = strlen(lk->name);
	struct module_export *gpl = NULL;
	uint32_t nr_gpl = 0;

	if (len >= KSYM_NAME_LEN)
		return;
	for (uint32_t i = 0; i < t->nr_exports && !lk->found; i++)
		if (export_named(r, &t->exports[i], lk->name, len)) {
			lk->found = true;
			lk->addr = t->exports[i].value;
		}
	if (!lk->found && l->gpl_syms.size &&
	    !mdf_error_drop(read_export_table(r, &l->gpl_syms, &l->num_gpl_syms, &gpl, &nr_gpl)))
		for (uint32_t i = 0; i < nr_gpl && !lk->found; i++)
			if (export_named(r, &gpl[i], lk->name, len)) {
				lk->found = true;
				lk->addr = gpl[i].value;
			}
	free(gpl);
	if (lk->found)
		msg_debug("%s: not in module %s's kallsyms (text symbols only): found in its export table, 0x%"
			  PRIx64, lk->name, r->name, lk->addr);
}

/* The symbol @lk->name in one module's tables, as the listing shows it. */
static bool find_in_module(struct module_reader *r, const struct module_tables *t, void *ctx)
{
	struct lookup *lk = ctx;
	size_t len = strlen(lk->name);
	char best_type = 0;

	for (uint32_t i = 0; i < t->num_symtab; i++) {
		uint32_t at = t->symtab[i].st_name;
		char type;

		if (t->strtab_len - at <= len || memcmp(t->strtab + at, lk->name, len + 1) ||
		    ksym_is_undefined(t->typetab[i]))
			continue;
		type = symbol_type(r, t, i, len);
		if (ksym_better(lk->found, best_type, type)) {
			lk->found = true;
			lk->addr = t->symtab[i].st_value;
			best_type = type;
		}
	}
	if (!lk->found && !lists_data_symbols(t))
		find_export(r, t, lk);
	return lk->found;
}

struct mdf_error *modules_lookup(struct modules *mods, const char *module, const char *name, uint64_t *addr)
{
	struct lookup lk = { .name = name };

	/* Without memory to read the modules, none has it. */
	mdf_error_free(for_each_module(mods, module, find_in_module, &lk));
	if (!lk.found)
		return &mdf_error_not_found;
	*addr = lk.addr;
	return NULL;
}

static bool found_module(struct module_reader *r, const struct module_tables *t, void *ctx)
{
	(void)r;
	(void)t;
	*(bool *)ctx = true;
	return true;
}

bool modules_loaded(struct modules *mods, const char *module)
{
	bool found = false;

	mdf_error_free(for_each_module(mods, module, found_module, &found));
	return found;
}
